/* The four prime fields: kernel choice, the variable-time inversion, and the public functions
 * (field_impl.h instantiated once per field).
 *
 * Inversion (modinv_var): Bernstein–Yang divsteps on (f, g) = (p, x), 62 at a time. Each
 * batch runs on the low 64 bits of f and g only, skipping runs of zero bits of g at once
 * (which makes it variable time), and yields a 2×2 matrix with entries of at most 62 bits
 * (|u| + |v| <= 2^62) that is then applied to the full f, g (exact division by 2^62) and to the
 * coefficients d, e with f ≡ d·x, g ≡ e·x (mod p), where a multiple of p makes the low 62 bits
 * vanish before the shift. When g reaches 0, f = ±1 and x^(−1) = ±d. The full values live in a
 * signed radix-2^62 form (s62: limbs 0..K−2 in [0, 2^62), the top limb signed) so a 63-bit
 * matrix entry times a limb plus carries fits 128 bits. d and e are kept in [0, p): the update
 * lands in (−p, 2p) and one addition or subtraction of p brings it back. */
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/field_internal.h"
#include "field/field_kernels.h"
#include "mulred/field.h"
#include "util/check.h"

/* ---- kernel choice ------------------------------------------------------------------------ */

_Atomic int mulred_field_kernel_mulx;

static pthread_once_t field_kernel_once = PTHREAD_ONCE_INIT;
static char field_kernel_note[128];

static int field_kernel_parse(const char *name)
{
    if (strcmp(name, "portable") == 0) return 0;
    if (strcmp(name, "mulx") == 0 && mulred_field_have_mulx()) return 1;
    return -1;
}

/* MULX where the CPU has it, unless MULRED_FIELD_KERNEL names an available kernel (an unknown
 * or unavailable name is ignored). */
static void field_kernel_choose(void)
{
    int mulx = mulred_field_have_mulx();
    const char *forced = getenv("MULRED_FIELD_KERNEL");
    if (forced && *forced) {
        if (field_kernel_parse(forced) >= 0)
            mulx = field_kernel_parse(forced);
        else
            snprintf(field_kernel_note, sizeof field_kernel_note,
                     "MULRED_FIELD_KERNEL=%.40s is unknown or not supported by this CPU "
                     "(portable, mulx)",
                     forced);
    }
    atomic_store_explicit(&mulred_field_kernel_mulx, mulx, memory_order_relaxed);
}

/* Before main(): the inline multiplications of the curve layer read the flag without a check. */
__attribute__((constructor)) static void field_kernel_init(void)
{
    pthread_once(&field_kernel_once, field_kernel_choose);
}

const char *mulred_field_kernel_ignored(void)
{
    pthread_once(&field_kernel_once, field_kernel_choose);
    return field_kernel_note;
}

mulred_status mulred_field_kernel_force(const char *name)
{
    pthread_once(&field_kernel_once, field_kernel_choose); /* the first choice, once */
    const int mulx = field_kernel_parse(name);
    if (mulx < 0) return MULRED_EINPUT;
    atomic_store_explicit(&mulred_field_kernel_mulx, mulx, memory_order_relaxed);
    return MULRED_OK;
}

const char *mulred_field_kernel_name(void)
{
    pthread_once(&field_kernel_once, field_kernel_choose);
    return atomic_load_explicit(&mulred_field_kernel_mulx, memory_order_relaxed) ? "mulx"
                                                                                 : "portable";
}

/* ---- small limb helpers for exponents ------------------------------------------------------ */

/* e = p − k (k < p). */
static inline void fe_sub_small(uint64_t *e, const uint64_t *p, uint64_t k, int n)
{
    uint64_t borrow = k;
    for (int i = 0; i < n; i++) {
        e[i] = p[i] - borrow;
        borrow = p[i] < borrow;
    }
}

/* e = (p + 1) / 4, p ≡ 3 mod 4 (so p + 1 does not overflow: p < 2^(64n−1)). */
static inline void fe_add_small_shift2(uint64_t *e, const uint64_t *p, int n)
{
    uint64_t carry = 1;
    for (int i = 0; i < n; i++) {
        e[i] = p[i] + carry;
        carry = e[i] < carry;
    }
    for (int i = 0; i < n; i++) e[i] = e[i] >> 2 | (i + 1 < n ? e[i + 1] << 62 : 0);
}

static inline void fe_shr1(uint64_t *e, int n)
{
    for (int i = 0; i < n; i++) e[i] = e[i] >> 1 | (i + 1 < n ? e[i + 1] << 63 : 0);
}

/* ---- variable-time inversion (divsteps) --------------------------------------------------- */

#define S62_MAX 7
#define M62     ((UINT64_C(1) << 62) - 1)
typedef __int128 field_i128;

typedef struct {
    int64_t v[S62_MAX];
} s62;

static inline __attribute__((always_inline)) void s62_from_limbs(s62 *r, const uint64_t *a, int n,
                                                                 int k)
{
    for (int i = 0; i < k; i++) {
        const int bit = 62 * i, w = bit / 64, sh = bit % 64;
        uint64_t x = w < n ? a[w] >> sh : 0;
        if (sh > 2 && w + 1 < n) x |= a[w + 1] << (64 - sh);
        r->v[i] = (int64_t)(x & M62);
    }
}

/* a in [0, 2^(64n)) with canonical limbs (0..k−2 in [0, 2^62), top >= 0). */
static inline __attribute__((always_inline)) void s62_to_limbs(uint64_t *r, const s62 *a, int n,
                                                               int k)
{
    memset(r, 0, (size_t)n * sizeof *r);
    for (int i = 0; i < k; i++) {
        const int bit = 62 * i, w = bit / 64, sh = bit % 64;
        const uint64_t x = (uint64_t)a->v[i];
        if (w < n) r[w] |= x << sh;
        if (sh > 2 && w + 1 < n) r[w + 1] |= x >> (64 - sh);
    }
}

static inline __attribute__((always_inline)) bool s62_is_zero(const s62 *a, int k)
{
    int64_t z = 0;
    for (int i = 0; i < k; i++) z |= a->v[i];
    return z == 0;
}

/* a += c·p (c in {−1, 1}), renormalising the limbs. */
static inline __attribute__((always_inline)) void s62_add_p(s62 *a, const s62 *p, int64_t c, int k)
{
    int64_t carry = 0;
    for (int i = 0; i < k - 1; i++) {
        const int64_t x = a->v[i] + c * p->v[i] + carry;
        a->v[i] = (int64_t)((uint64_t)x & M62);
        carry = x >> 62; /* arithmetic shift (gcc, clang) */
    }
    a->v[k - 1] += c * p->v[k - 1] + carry;
}

/* a >= p, for a >= 0 in canonical form. */
static inline __attribute__((always_inline)) bool s62_geq(const s62 *a, const s62 *p, int k)
{
    for (int i = k - 1; i >= 0; i--)
        if (a->v[i] != p->v[i]) return a->v[i] > p->v[i];
    return true;
}

/* Up to 62 divsteps on the low bits of f (odd) and g, starting from delta. t gets the matrix
 * (u, v, q, r), scaled by 2^62: 2^62·(f', g') = (u·f + v·g, q·f + r·g). Returns the new delta.
 * The matrix is kept in uint64_t (wrapping, so the shifts of negative entries are defined)
 * and read as int64_t: every entry is within ±2^62. */
static int64_t divsteps62_var(int64_t delta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int left = 62;
    for (;;) {
        /* g even: halve it (f kept, so u, v double); delta + 1 per step */
        int zeros = g ? __builtin_ctzll(g) : 64;
        if (zeros > left) zeros = left;
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        delta += zeros;
        left -= zeros;
        if (left == 0) break;
        /* g odd */
        if (delta > 0) { /* (f, g) <- (g, −f), then the step below makes (g − f) / 2 */
            delta = -delta;
            uint64_t x = f;
            f = g;
            g = 0 - x;
            x = u;
            u = q;
            q = 0 - x;
            x = v;
            v = r;
            r = 0 - x;
        }
        g += f;
        q += u;
        r += v;
        g >>= 1;
        u <<= 1;
        v <<= 1;
        delta += 1;
        left -= 1;
        if (left == 0) break;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return delta;
}

/* (f, g) <- (u·f + v·g, q·f + r·g) / 2^62 (exact). */
static inline __attribute__((always_inline)) void s62_update_fg(s62 *f, s62 *g, const int64_t t[4],
                                                                int k)
{
    field_i128 cf = (field_i128)t[0] * f->v[0] + (field_i128)t[1] * g->v[0];
    field_i128 cg = (field_i128)t[2] * f->v[0] + (field_i128)t[3] * g->v[0];
    cf >>= 62;
    cg >>= 62;
    for (int i = 1; i < k; i++) {
        cf += (field_i128)t[0] * f->v[i] + (field_i128)t[1] * g->v[i];
        cg += (field_i128)t[2] * f->v[i] + (field_i128)t[3] * g->v[i];
        f->v[i - 1] = (int64_t)((uint64_t)cf & M62);
        g->v[i - 1] = (int64_t)((uint64_t)cg & M62);
        cf >>= 62;
        cg >>= 62;
    }
    f->v[k - 1] = (int64_t)cf;
    g->v[k - 1] = (int64_t)cg;
}

/* (d, e) <- (u·d + v·e, q·d + r·e) / 2^62 mod p, both kept in [0, p). pinv = p^(−1) mod 2^62. */
static inline __attribute__((always_inline)) void s62_update_de(s62 *d, s62 *e, const int64_t t[4],
                                                                const s62 *p, uint64_t pinv, int k)
{
    const uint64_t lo_d = (uint64_t)t[0] * (uint64_t)d->v[0] + (uint64_t)t[1] * (uint64_t)e->v[0];
    const uint64_t lo_e = (uint64_t)t[2] * (uint64_t)d->v[0] + (uint64_t)t[3] * (uint64_t)e->v[0];
    const int64_t md = (int64_t)((0 - lo_d * pinv) & M62); /* md·p ≡ −lo_d (mod 2^62) */
    const int64_t me = (int64_t)((0 - lo_e * pinv) & M62);
    field_i128 cd =
        (field_i128)t[0] * d->v[0] + (field_i128)t[1] * e->v[0] + (field_i128)md * p->v[0];
    field_i128 ce =
        (field_i128)t[2] * d->v[0] + (field_i128)t[3] * e->v[0] + (field_i128)me * p->v[0];
    cd >>= 62;
    ce >>= 62;
    for (int i = 1; i < k; i++) {
        cd += (field_i128)t[0] * d->v[i] + (field_i128)t[1] * e->v[i] + (field_i128)md * p->v[i];
        ce += (field_i128)t[2] * d->v[i] + (field_i128)t[3] * e->v[i] + (field_i128)me * p->v[i];
        d->v[i - 1] = (int64_t)((uint64_t)cd & M62);
        e->v[i - 1] = (int64_t)((uint64_t)ce & M62);
        cd >>= 62;
        ce >>= 62;
    }
    d->v[k - 1] = (int64_t)cd;
    e->v[k - 1] = (int64_t)ce;
    /* (−p, 2p) -> [0, p) */
    if (d->v[k - 1] < 0)
        s62_add_p(d, p, 1, k);
    else if (s62_geq(d, p, k))
        s62_add_p(d, p, -1, k);
    if (e->v[k - 1] < 0)
        s62_add_p(e, p, 1, k);
    else if (s62_geq(e, p, k))
        s62_add_p(e, p, -1, k);
}

/* r = x^(−1) mod p for x in [0, p) as n limbs (0 gives 0); p an odd prime < 2^(64n−1);
 * k signed-62 limbs with 62k > 64n + 1. Variable time. */
static inline __attribute__((always_inline)) void modinv_var(uint64_t *r, const uint64_t *x,
                                                             const uint64_t *p, int n, int k)
{
    if (fe_is_zero(x, n)) {
        memset(r, 0, (size_t)n * sizeof *r);
        return;
    }
    s62 f, g, d = {{0}}, e = {{0}}, ps;
    s62_from_limbs(&ps, p, n, k);
    f = ps;
    s62_from_limbs(&g, x, n, k);
    e.v[0] = 1;
    /* p^(−1) mod 2^64 by Newton's iteration (each step doubles the correct low bits) */
    uint64_t pinv = p[0]; /* correct to 3 bits: p·p ≡ 1 mod 8 */
    for (int i = 0; i < 5; i++) pinv *= 2 - p[0] * pinv;
    pinv &= M62;
    int64_t delta = 1, t[4];
    /* Bernstein–Yang bound for 384-bit inputs: under 1200 divsteps; 40 batches is far past it */
    for (int it = 0;; it++) {
        MULRED_CHECK(it < 40, "inverse: no convergence (p not prime, or x not in [1, p))");
        delta = divsteps62_var(delta, (uint64_t)f.v[0] | (uint64_t)f.v[1] << 62,
                               (uint64_t)g.v[0] | (uint64_t)g.v[1] << 62, t);
        s62_update_fg(&f, &g, t, k);
        s62_update_de(&d, &e, t, &ps, pinv, k);
        if (s62_is_zero(&g, k)) break;
    }
    /* f = ±1 */
    if (f.v[k - 1] < 0 && !s62_is_zero(&d, k)) { /* d <- p − d */
        for (int i = 0; i < k; i++) d.v[i] = -d.v[i];
        s62_add_p(&d, &ps, 1, k);
    }
    s62_to_limbs(r, &d, n, k);
}

/* ---- the four fields -------------------------------------------------------------------- */

#define FIELD      fp381
#define FIELD_N    6
#define FIELD_K    7
#define FIELD_P    FP381_P
#define FIELD_N0   FP381_N0
#define FIELD_ONE  FP381_ONE
#define FIELD_R2   FP381_R2
#define FIELD_R3   FP381_R3
#define FIELD_SQRT 1
#include "field/field_impl.h"
#undef FIELD
#undef FIELD_N
#undef FIELD_K
#undef FIELD_P
#undef FIELD_N0
#undef FIELD_ONE
#undef FIELD_R2
#undef FIELD_R3
#undef FIELD_SQRT

#define FIELD      fp254
#define FIELD_N    4
#define FIELD_K    5
#define FIELD_P    FP254_P
#define FIELD_N0   FP254_N0
#define FIELD_ONE  FP254_ONE
#define FIELD_R2   FP254_R2
#define FIELD_R3   FP254_R3
#define FIELD_SQRT 1
#include "field/field_impl.h"
#undef FIELD
#undef FIELD_N
#undef FIELD_K
#undef FIELD_P
#undef FIELD_N0
#undef FIELD_ONE
#undef FIELD_R2
#undef FIELD_R3
#undef FIELD_SQRT

#define FIELD      fr381
#define FIELD_N    4
#define FIELD_K    5
#define FIELD_P    FR381_P
#define FIELD_N0   FR381_N0
#define FIELD_ONE  FR381_ONE
#define FIELD_R2   FR381_R2
#define FIELD_R3   FR381_R3
#define FIELD_SQRT 0
#include "field/field_impl.h"
#undef FIELD
#undef FIELD_N
#undef FIELD_K
#undef FIELD_P
#undef FIELD_N0
#undef FIELD_ONE
#undef FIELD_R2
#undef FIELD_R3
#undef FIELD_SQRT

#define FIELD      fr254
#define FIELD_N    4
#define FIELD_K    5
#define FIELD_P    FR254_P
#define FIELD_N0   FR254_N0
#define FIELD_ONE  FR254_ONE
#define FIELD_R2   FR254_R2
#define FIELD_R3   FR254_R3
#define FIELD_SQRT 0
#include "field/field_impl.h"
#undef FIELD
#undef FIELD_N
#undef FIELD_K
#undef FIELD_P
#undef FIELD_N0
#undef FIELD_ONE
#undef FIELD_R2
#undef FIELD_R3
#undef FIELD_SQRT

/* ---- the two quadratic extensions ------------------------------------------------------------ */

#define FP2   fp2_381
#define FP2_F fp381
#define FP2_N 6
#include "field/fp2_impl.h"
#undef FP2
#undef FP2_F
#undef FP2_N

#define FP2   fp2_254
#define FP2_F fp254
#define FP2_N 4
#include "field/fp2_impl.h"

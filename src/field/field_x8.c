/* 8-lane field batches: the CPU check, the scratch sizes and the per-field constants.
 *
 * The moduli are the only literals (the published primes, checked in the tests against their
 * definitions from the curve parameters). Every other constant is derived from p when the
 * library is loaded (a constructor: no lazy initialisation on the hot path, no race between
 * threads), with plain bit-serial multiprecision code: a few hundred doublings mod p, once. */
#include "field/field_x8.h"

#include "util/util.h"

#define M52 ((UINT64_C(1) << 52) - 1)
#define W   9 /* 64-bit words of the scratch integers: 576 bits > 2^(52*8+32) */

int mulred_fieldx8_have_ifma(void)
{
#ifdef MULRED_AVX512_EMULATE
    return 1; /* the test build whose AVX-512 intrinsics are plain C (util/avx512.h) */
#endif
    const mulred_cpu_features *f = mulred_cpu(); /* the project's cached CPUID probe */
    return f->avx512f && f->avx512vl && f->avx512ifma;
}

size_t mulred_fp381x8_batch_inv_scratch_size(size_t n)
{
    return n * sizeof(mulred_fp381x8);
}

size_t mulred_fp254x8_batch_inv_scratch_size(size_t n)
{
    return n * sizeof(mulred_fp254x8);
}

/* ---- bit-serial multiprecision on W-word little-endian integers -------------------------- */

static uint64_t bits_at(const uint64_t x[W], int pos, int len) /* bits [pos, pos+len), len <= 64 */
{
    int q = pos >> 6, s = pos & 63;
    uint64_t v = x[q] >> s;
    if (s && q + 1 < W) v |= x[q + 1] << (64 - s);
    return len == 64 ? v : v & ((UINT64_C(1) << len) - 1);
}

static void to_radix52(uint64_t out[8], const uint64_t x[W], int limbs)
{
    for (int i = 0; i < 8; i++) out[i] = i < limbs ? bits_at(x, 52 * i, 52) : 0;
}

static int geq(const uint64_t a[W], const uint64_t b[W])
{
    for (int i = W - 1; i >= 0; i--)
        if (a[i] != b[i]) return a[i] > b[i];
    return 1;
}

static void sub_in(uint64_t a[W], const uint64_t b[W]) /* a -= b, mod 2^(64W) */
{
    uint64_t borrow = 0;
    for (int i = 0; i < W; i++) {
        uint64_t d = a[i] - b[i] - borrow;
        borrow = (a[i] < b[i]) | ((a[i] == b[i]) & borrow);
        a[i] = d;
    }
}

static void shl_in(uint64_t a[W], int k) /* a <<= k, 0 < k < 64 */
{
    for (int i = W - 1; i > 0; i--) a[i] = a[i] << k | a[i - 1] >> (64 - k);
    a[0] <<= k;
}

/* r = 2r mod p and the quotient bit (r < p on entry). */
static int dbl_mod(uint64_t r[W], const uint64_t p[W])
{
    shl_in(r, 1);
    if (!geq(r, p)) return 0;
    sub_in(r, p);
    return 1;
}

static void derive(mulred_fieldx8_consts *c, const uint64_t *p64, int words, int limbs,
                   int top_shift, int mu_shift)
{
    uint64_t p[W] = {0}, x[W];
    for (int i = 0; i < words; i++) p[i] = p64[i];
    c->limbs52 = limbs;
    c->words64 = words;
    c->shift_d = 52 * limbs - 64 * words;
    c->top_shift = top_shift;
    c->mu_shift = mu_shift;
    for (int i = 0; i < 8; i++) c->p64[i] = i < words ? p64[i] : 0;
    to_radix52(c->p, p, limbs);

    for (int i = 0; i < W; i++) x[i] = p[i];
    shl_in(x, 1);
    to_radix52(c->p2, x, limbs);

    for (int i = 0; i < W; i++) x[i] = p[i];
    shl_in(x, c->shift_d);
    to_radix52(c->pd, x, limbs);

    for (int i = 0; i < W; i++) x[i] = 0;
    sub_in(x, p); /* 2^(64W) - p; its low 52N bits are 2^(52N) - p */
    to_radix52(c->negp, x, limbs);

    for (int i = 0; i < W; i++) x[i] = 0;
    x[0] = 1;
    for (int k = 0; k < 52 * limbs; k++) dbl_mod(x, p);
    to_radix52(c->one, x, limbs);
    for (int k = 0; k < 2 * 52 * limbs; k++) dbl_mod(x, p);
    to_radix52(c->r3, x, limbs);

    /* Newton: each step doubles the number of correct low bits of p^-1 (3 -> 96) */
    uint64_t inv = p64[0];
    for (int k = 0; k < 5; k++) inv *= 2 - p64[0] * inv;
    c->n0 = (0 - inv) & M52;

    /* mu = floor(2^E / p): long division of 2^E, one bit per doubling */
    for (int i = 0; i < W; i++) x[i] = 0;
    x[0] = 1;
    uint64_t q = 0;
    for (int k = 0; k < c->shift_d + top_shift + mu_shift; k++)
        q = q << 1 | (uint64_t)dbl_mod(x, p);
    c->mu = q;

    for (int i = 0; i < W; i++) x[i] = p[i];
    uint64_t two[W] = {2};
    sub_in(x, two);
    for (int i = 0; i < 8; i++) c->pm2_64[i] = i < words ? x[i] : 0;
}

/* p of BLS12-381 = 0x1a0111ea...ffffaaab, and of BN254 = 0x30644e72...d87cfd47 */
static const uint64_t p381[6] = {0xb9feffffffffaaabu, 0x1eabfffeb153ffffu, 0x6730d2a0f6b0f624u,
                                 0x64774b84f38512bfu, 0x4b1ba7b6434bacd7u, 0x1a0111ea397fe69au};
static const uint64_t p254[4] = {0x3c208c16d87cfd47u, 0x97816a916871ca8du, 0xb85045b68181585du,
                                 0x30644e72e131a029u};

static mulred_fieldx8_consts fp381_consts, fp254_consts;
const mulred_fieldx8_consts *const mulred_fp381x8_consts = &fp381_consts;
const mulred_fieldx8_consts *const mulred_fp254x8_consts = &fp254_consts;

/* S and K of load's quotient estimate (see field_x8_ifma.c): S leaves u >> S < 2^52 and an
 * error 2^(S+D)/p < 2^-8; K is the largest with mu < 2^52. */
__attribute__((constructor)) static void fieldx8_derive_constants(void)
{
    derive(&fp381_consts, p381, 6, 8, 339, 61);
    derive(&fp254_consts, p254, 4, 5, 241, 60);
}

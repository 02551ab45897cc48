/* 8-lane field batches (src/field/field_x8.h) against GMP mpz, for Fp of BLS12-381 and BN254.
 *
 * Every constant is derived here again with mpz from p, and p itself from its curve parameter.
 * Every function is checked lane by lane: the output keeps the invariant (limbs < 2^52, value
 * < 2p) and is congruent to the mpz result (exactly equal where the contract says fully
 * reduced). Inputs mix, within one batch, lanes of different kinds: 0, 1, p - 1, p (the other
 * zero), 2p - 1 (the top of the range), the Montgomery one, sparse and dense random values.
 * Aliasing r = a, r = b, a = b and r = a = b must give the same bits as the plain call.
 * Chains of 10,000 dependent operations per lane catch slowly growing bounds.
 * The kernel tests skip, with a message, only when the CPU lacks AVX-512 IFMA.
 * MULRED_KERNEL_TEST_ITERS scales the random iterations (default 20000 batches per function). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/field_x8.h"
#include "harness.h"

#define M52 ((UINT64_C(1) << 52) - 1)

/* A batch of either field: limbs [0, N) used. */
typedef struct {
    _Alignas(64) uint64_t l[8][8];
} xv;

typedef struct {
    const char *name;
    int n, words; /* N limbs of 52 bits, n words of 64 */
    const mulred_fieldx8_consts *c;
    const char *p_decimal; /* published */
    void (*mul)(xv *, const xv *, const xv *);
    void (*sqr)(xv *, const xv *);
    void (*add)(xv *, const xv *, const xv *);
    void (*sub)(xv *, const xv *, const xv *);
    void (*neg)(xv *, const xv *);
    unsigned (*is_zero)(const xv *);
    void (*set_one)(xv *);
    void (*select)(xv *, const xv *, const xv *, unsigned);
    void (*load)(xv *, const uint64_t *const src[8]);
    void (*store)(uint64_t *const dst[8], const xv *);
    void (*inv)(xv *, const xv *);
    void (*inv_var)(xv *, const xv *);
    void (*batch_inv)(xv *, const xv *, size_t, void *);
    void (*batch_inv_var)(xv *, const xv *, size_t, void *);
    void (*batch_begin)(xv *, const xv *, size_t, void *);
    void (*batch_finish)(xv *, const xv *, size_t, const void *, const xv *);
    size_t (*scratch_size)(size_t);
    mpz_t p, r52, r52inv, r64; /* p, 2^(52N) mod p, its inverse, 2^(64n) mod p */
} field;

/* Wrappers: the typed kernels called on copies of xv values (no type punning). */
#define WRAP(NAME, T)                                                                              \
    static void NAME##_mul_w(xv *r, const xv *a, const xv *b)                                      \
    {                                                                                              \
        T x, y, z;                                                                                 \
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y), memcpy(&z, r, sizeof z);                 \
        mulred_##NAME##_mul(&z, &x, &y);                                                           \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_sqr_w(xv *r, const xv *a)                                                   \
    {                                                                                              \
        T x, z;                                                                                    \
        memcpy(&x, a, sizeof x);                                                                   \
        mulred_##NAME##_sqr(&z, &x);                                                               \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_add_w(xv *r, const xv *a, const xv *b)                                      \
    {                                                                                              \
        T x, y, z;                                                                                 \
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);                                          \
        mulred_##NAME##_add(&z, &x, &y);                                                           \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_sub_w(xv *r, const xv *a, const xv *b)                                      \
    {                                                                                              \
        T x, y, z;                                                                                 \
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);                                          \
        mulred_##NAME##_sub(&z, &x, &y);                                                           \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_neg_w(xv *r, const xv *a)                                                   \
    {                                                                                              \
        T x, z;                                                                                    \
        memcpy(&x, a, sizeof x);                                                                   \
        mulred_##NAME##_neg(&z, &x);                                                               \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static unsigned NAME##_is_zero_w(const xv *a)                                                  \
    {                                                                                              \
        T x;                                                                                       \
        memcpy(&x, a, sizeof x);                                                                   \
        return mulred_##NAME##_is_zero_mask(&x);                                                   \
    }                                                                                              \
    static void NAME##_set_one_w(xv *r)                                                            \
    {                                                                                              \
        T z;                                                                                       \
        mulred_##NAME##_set_one(&z);                                                               \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_select_w(xv *r, const xv *a, const xv *b, unsigned mask)                    \
    {                                                                                              \
        T x, y, z;                                                                                 \
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);                                          \
        mulred_##NAME##_select(&z, &x, &y, mask);                                                  \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_load_w(xv *r, const uint64_t *const src[8])                                 \
    {                                                                                              \
        T z;                                                                                       \
        mulred_##NAME##_load(&z, src);                                                             \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_store_w(uint64_t *const dst[8], const xv *a)                                \
    {                                                                                              \
        T x;                                                                                       \
        memcpy(&x, a, sizeof x);                                                                   \
        mulred_##NAME##_store(dst, &x);                                                            \
    }                                                                                              \
    static void NAME##_inv_w(xv *r, const xv *a)                                                   \
    {                                                                                              \
        T x, z;                                                                                    \
        memcpy(&x, a, sizeof x);                                                                   \
        mulred_##NAME##_inv(&z, &x);                                                               \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void NAME##_inv_var_w(xv *r, const xv *a)                                               \
    {                                                                                              \
        T x, z;                                                                                    \
        memcpy(&x, a, sizeof x);                                                                   \
        mulred_##NAME##_inv_var(&z, &x);                                                           \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    /* batches: arrays of T built from arrays of xv; in place when r == a */                       \
    static T *NAME##_arr(const xv *a, size_t n)                                                    \
    {                                                                                              \
        T *t = aligned_alloc(64, (n ? n : 1) * sizeof(T));                                         \
        for (size_t i = 0; i < n; i++) memcpy(&t[i], &a[i], sizeof(T));                            \
        return t;                                                                                  \
    }                                                                                              \
    static void NAME##_unarr(xv *r, T *t, size_t n)                                                \
    {                                                                                              \
        for (size_t i = 0; i < n; i++) memcpy(&r[i], &t[i], sizeof(T));                            \
        free(t);                                                                                   \
    }                                                                                              \
    static void NAME##_batch_inv_w(xv *r, const xv *a, size_t n, void *scratch)                    \
    {                                                                                              \
        T *x = NAME##_arr(a, n);                                                                   \
        if (r == a) {                                                                              \
            mulred_##NAME##_batch_inv(x, x, n, scratch);                                           \
            NAME##_unarr(r, x, n);                                                                 \
        } else {                                                                                   \
            T *z = NAME##_arr(r, n);                                                               \
            mulred_##NAME##_batch_inv(z, x, n, scratch);                                           \
            NAME##_unarr(r, z, n);                                                                 \
            free(x);                                                                               \
        }                                                                                          \
    }                                                                                              \
    static void NAME##_batch_inv_var_w(xv *r, const xv *a, size_t n, void *scratch)                \
    {                                                                                              \
        T *x = NAME##_arr(a, n);                                                                   \
        if (r == a) {                                                                              \
            mulred_##NAME##_batch_inv_var(x, x, n, scratch);                                       \
            NAME##_unarr(r, x, n);                                                                 \
        } else {                                                                                   \
            T *z = NAME##_arr(r, n);                                                               \
            mulred_##NAME##_batch_inv_var(z, x, n, scratch);                                       \
            NAME##_unarr(r, z, n);                                                                 \
            free(x);                                                                               \
        }                                                                                          \
    }                                                                                              \
    static void NAME##_batch_begin_w(xv *total, const xv *a, size_t n, void *scratch)              \
    {                                                                                              \
        T *x = NAME##_arr(a, n), t;                                                                \
        mulred_##NAME##_batch_inv_begin(&t, x, n, scratch);                                        \
        memcpy(total, &t, sizeof t);                                                               \
        free(x);                                                                                   \
    }                                                                                              \
    static void NAME##_batch_finish_w(xv *r, const xv *a, size_t n, const void *scratch,           \
                                      const xv *inv_total)                                         \
    {                                                                                              \
        T *x = NAME##_arr(a, n), *z = NAME##_arr(r, n), t;                                         \
        memcpy(&t, inv_total, sizeof t);                                                           \
        mulred_##NAME##_batch_inv_finish(z, x, n, scratch, &t);                                    \
        NAME##_unarr(r, z, n);                                                                     \
        free(x);                                                                                   \
    }

WRAP(fp381x8, mulred_fp381x8)
WRAP(fp254x8, mulred_fp254x8)

#define FIELD_FNS(NAME)                                                                            \
    .mul = NAME##_mul_w, .sqr = NAME##_sqr_w, .add = NAME##_add_w, .sub = NAME##_sub_w,            \
    .neg = NAME##_neg_w, .is_zero = NAME##_is_zero_w, .set_one = NAME##_set_one_w,                 \
    .select = NAME##_select_w, .load = NAME##_load_w, .store = NAME##_store_w,                     \
    .inv = NAME##_inv_w, .inv_var = NAME##_inv_var_w, .batch_inv = NAME##_batch_inv_w,             \
    .batch_inv_var = NAME##_batch_inv_var_w, .batch_begin = NAME##_batch_begin_w,                  \
    .batch_finish = NAME##_batch_finish_w, .scratch_size = mulred_##NAME##_batch_inv_scratch_size

static field fields[2] = {
    {.name = "fp381x8 (BLS12-381)",
     .n = 8,
     .words = 6,
     .p_decimal = "40024095552216673934177898257359041565568828199390078853320581361240316504908378"
                  "64442687629"
                  "129015664037894272559787",
     FIELD_FNS(fp381x8)},
    {.name = "fp254x8 (BN254)",
     .n = 5,
     .words = 4,
     .p_decimal = "21888242871839275222246405745257275088696311157297823662689037894645226208583",
     FIELD_FNS(fp254x8)},
};

static long iterations(void)
{
    const char *e = getenv("MULRED_KERNEL_TEST_ITERS");
    long n = e && *e ? strtol(e, NULL, 10) : 20000;
    return n > 0 ? n : 20000;
}

static int skip(void)
{
    if (mulred_fieldx8_have_ifma()) return 0;
    test_skip("CPU lacks avx512f/avx512vl/avx512ifma: the 8-lane kernels");
    return 1;
}

/* ---- lanes <-> mpz -------------------------------------------------------------------------- */

static void lane_get(mpz_t z, const xv *x, int lane, int n)
{
    mpz_set_ui(z, 0);
    for (int i = n - 1; i >= 0; i--) {
        mpz_mul_2exp(z, z, 52);
        mpz_add_ui(z, z, x->l[i][lane]);
    }
}

static void lane_set(xv *x, int lane, const mpz_t z, int n)
{
    mpz_t t;
    mpz_init_set(t, z);
    for (int i = 0; i < n; i++) {
        x->l[i][lane] = mpz_get_ui(t) & M52;
        mpz_fdiv_q_2exp(t, t, 52);
    }
    CU_ASSERT_FATAL(mpz_sgn(t) == 0);
    mpz_clear(t);
}

static void words_get(mpz_t z, const uint64_t *w, int words)
{
    mpz_import(z, (size_t)words, -1, sizeof(uint64_t), 0, 0, w);
}

static void words_set(uint64_t *w, const mpz_t z, int words)
{
    CU_ASSERT_FATAL(mpz_sizeinbase(z, 2) <= (size_t)(64 * words));
    memset(w, 0, (size_t)words * sizeof *w);
    mpz_export(w, NULL, -1, sizeof(uint64_t), 0, 0, z);
}

/* Lanes breaking the invariant (a limb >= 2^52 or value >= 2p), as a bit mask. */
static unsigned invariant_violations(const field *f, const xv *x)
{
    unsigned bad = 0;
    mpz_t z, p2;
    mpz_inits(z, p2, NULL);
    mpz_mul_2exp(p2, f->p, 1);
    for (int j = 0; j < 8; j++) {
        for (int i = 0; i < f->n; i++)
            if (x->l[i][j] >> 52) bad |= 1u << j;
        lane_get(z, x, j, f->n);
        if (mpz_cmp(z, p2) >= 0) bad |= 1u << j;
    }
    mpz_clears(z, p2, NULL);
    return bad;
}

/* The field element of a lane: w * R52^-1 mod p. */
static void lane_elem(mpz_t z, const field *f, const xv *x, int lane)
{
    lane_get(z, x, lane, f->n);
    mpz_mul(z, z, f->r52inv);
    mpz_mod(z, z, f->p);
}

/* ---- values -----------------------------------------------------------------------------------
 */

#define NKINDS 14
/* A lane value in [0, 2p) of one of NKINDS kinds (edge values first, then random shapes). */
static void kind_value(mpz_t z, const field *f, int kind)
{
    mpz_t t;
    mpz_init(t);
    switch (kind) {
    case 0:
        mpz_set_ui(z, 0);
        break;
    case 1:
        mpz_set_ui(z, 1);
        break;
    case 2:
        mpz_sub_ui(z, f->p, 1);
        break;
    case 3:
        mpz_set(z, f->p);
        break; /* the other representative of 0 */
    case 4:
        mpz_add_ui(z, f->p, 1);
        break;
    case 5:
        mpz_mul_2exp(z, f->p, 1), mpz_sub_ui(z, z, 1);
        break; /* top of the range */
    case 6:
        mpz_set(z, f->r52);
        break; /* Montgomery one */
    case 7:
        mpz_add(z, f->r52, f->p);
        break; /* the other one */
    case 8:    /* just below 2p */
        mpz_mul_2exp(z, f->p, 1), mpz_sub_ui(z, z, 1 + test_rand_below(UINT64_C(1) << 40));
        break;
    case 9: { /* sparse bits */
        mpz_set_ui(z, 0);
        for (int k = (int)test_rand_below(4); k >= 0; k--)
            mpz_setbit(z, test_rand_below(mpz_sizeinbase(f->p, 2)));
        mpz_mod(z, z, f->p);
        break;
    }
    default: { /* 10: in [p, 2p); 11: below p; 12: small; others: uniform in [0, 2p) */
        uint64_t w[9];
        for (int i = 0; i < 9; i++) w[i] = test_rand64();
        mpz_import(z, 9, -1, sizeof(uint64_t), 0, 0, w);
        mpz_mul_2exp(t, f->p, 1);
        if (kind == 11)
            mpz_mod(z, z, f->p);
        else if (kind == 12)
            mpz_fdiv_r_2exp(z, z, test_rand_below(64) + 1);
        else
            mpz_mod(z, z, t);
        if (kind == 10) mpz_mod(z, z, f->p), mpz_add(z, z, f->p);
    }
    }
    mpz_clear(t);
}

/* A batch whose lanes have random kinds (mostly uniform random, edge kinds now and then). */
static void random_batch(xv *x, const field *f)
{
    mpz_t z;
    mpz_init(z);
    memset(x, 0, sizeof *x);
    for (int j = 0; j < 8; j++) {
        int kind = test_rand_below(4) ? 13 : (int)test_rand_below(NKINDS);
        kind_value(z, f, kind);
        lane_set(x, j, z, f->n);
    }
    mpz_clear(z);
}

/* ---- constants ------------------------------------------------------------------------------ */

static void radix52_of(uint64_t out[8], const mpz_t z, int n)
{
    mpz_t t;
    mpz_init_set(t, z);
    for (int i = 0; i < 8; i++) {
        out[i] = i < n ? mpz_get_ui(t) & M52 : 0;
        if (i < n) mpz_fdiv_q_2exp(t, t, 52);
    }
    CU_ASSERT(mpz_sgn(t) == 0);
    mpz_clear(t);
}

static void check_limbs(const char *what, const field *f, const uint64_t got[8], const mpz_t want)
{
    uint64_t w[8];
    radix52_of(w, want, f->n);
    int ok = memcmp(w, got, sizeof w) == 0;
    if (!ok) printf("\n    %s: constant %s differs from GMP", f->name, what);
    CU_ASSERT(ok);
}

static void test_constants(void)
{
    /* p from the curve parameters: BLS12-381 p = (x-1)^2 (x^4 - x^2 + 1)/3 + x with
     * x = -0xd201000000010000; BN254 p = 36u^4 + 36u^3 + 24u^2 + 6u + 1, u = 4965661367192848881 */
    mpz_t x, t, u, e;
    mpz_inits(x, t, u, e, NULL);
    mpz_set_str(x, "-d201000000010000", 16);
    mpz_sub_ui(t, x, 1);
    mpz_mul(t, t, t);
    mpz_pow_ui(u, x, 4);
    mpz_pow_ui(e, x, 2);
    mpz_sub(u, u, e);
    mpz_add_ui(u, u, 1);
    mpz_mul(t, t, u);
    CU_ASSERT(mpz_divisible_ui_p(t, 3));
    mpz_divexact_ui(t, t, 3);
    mpz_add(t, t, x);
    CU_ASSERT(mpz_cmp(t, fields[0].p) == 0);
    mpz_set_str(u, "4965661367192848881", 10);
    mpz_set_ui(t, 0);
    static const unsigned long coef[5] = {1, 6, 24, 36, 36};
    for (int k = 4; k >= 0; k--) mpz_mul(t, t, u), mpz_add_ui(t, t, coef[k]);
    CU_ASSERT(mpz_cmp(t, fields[1].p) == 0);

    for (int fi = 0; fi < 2; fi++) {
        field *f = &fields[fi];
        const mulred_fieldx8_consts *c = f->c;
        CU_ASSERT(mpz_probab_prime_p(f->p, 30) > 0);
        CU_ASSERT(mpz_fdiv_ui(f->p, 4) == 3);
        CU_ASSERT_EQUAL(c->limbs52, f->n);
        CU_ASSERT_EQUAL(c->words64, f->words);
        const int d = 52 * f->n - 64 * f->words;
        CU_ASSERT_EQUAL(c->shift_d, d);
        mpz_t p64;
        mpz_init(p64);
        words_get(p64, c->p64, 8);
        CU_ASSERT(mpz_cmp(p64, f->p) == 0);
        check_limbs("p", f, c->p, f->p);
        mpz_mul_2exp(t, f->p, 1);
        check_limbs("2p", f, c->p2, t);
        mpz_mul_2exp(t, f->p, (mp_bitcnt_t)d);
        check_limbs("p*2^D", f, c->pd, t);
        mpz_set_ui(t, 0);
        mpz_setbit(t, (mp_bitcnt_t)(52 * f->n));
        mpz_sub(t, t, f->p);
        check_limbs("2^(52N)-p", f, c->negp, t);
        check_limbs("R52 mod p", f, c->one, f->r52);
        mpz_powm_ui(t, f->r52, 3, f->p);
        check_limbs("R52^3 mod p", f, c->r3, t);
        /* n0 = -p^-1 mod 2^52 */
        mpz_set_ui(t, 0);
        mpz_setbit(t, 52);
        CU_ASSERT(mpz_invert(u, f->p, t));
        mpz_sub(u, t, u);
        CU_ASSERT(mpz_get_ui(u) == c->n0);
        /* mu = floor(2^(D+S+K) / p) */
        mpz_set_ui(t, 0);
        mpz_setbit(t, (mp_bitcnt_t)(d + c->top_shift + c->mu_shift));
        mpz_fdiv_q(u, t, f->p);
        CU_ASSERT(mpz_cmp_ui(u, c->mu) == 0);
        CU_ASSERT(c->mu < (UINT64_C(1) << 52));
        /* load's quotient estimate is off by at most 1 when 2^(S+D)/p + 2^(64n-S)/2^K < 1:
         * checked here with margin (each term < 1/4); also u >> S < 2^52 and K >= 52 */
        mpz_set_ui(t, 0);
        mpz_setbit(t, (mp_bitcnt_t)(c->top_shift + d + 2));
        CU_ASSERT(mpz_cmp(t, f->p) < 0);
        CU_ASSERT(64 * f->words - c->top_shift + 2 <= c->mu_shift);
        CU_ASSERT(64 * f->words - c->top_shift <= 52);
        CU_ASSERT(c->top_shift >= 64 * (f->words - 1));
        CU_ASSERT(c->mu_shift >= 52);
        /* p - 2 */
        mpz_sub_ui(t, f->p, 2);
        words_get(u, c->pm2_64, 8);
        CU_ASSERT(mpz_cmp(t, u) == 0);
        mpz_clear(p64);
    }
    mpz_clears(x, t, u, e, NULL);
}

/* ---- binary and unary operations ------------------------------------------------------------ */

typedef enum { OP_MUL, OP_SQR, OP_ADD, OP_SUB, OP_NEG } op_kind;
static const char *const op_names[] = {"mul", "sqr", "add", "sub", "neg"};

static void apply(const field *f, op_kind op, xv *r, const xv *a, const xv *b)
{
    switch (op) {
    case OP_MUL:
        f->mul(r, a, b);
        break;
    case OP_SQR:
        f->sqr(r, a);
        break;
    case OP_ADD:
        f->add(r, a, b);
        break;
    case OP_SUB:
        f->sub(r, a, b);
        break;
    case OP_NEG:
        f->neg(r, a);
        break;
    }
}

/* Expected element of lane j (as field elements, not Montgomery forms). */
static void expect(mpz_t z, const field *f, op_kind op, const xv *a, const xv *b, int j)
{
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    lane_elem(x, f, a, j);
    lane_elem(y, f, op == OP_SQR ? a : b, j);
    switch (op) {
    case OP_MUL:
    case OP_SQR:
        mpz_mul(z, x, y);
        break;
    case OP_ADD:
        mpz_add(z, x, y);
        break;
    case OP_SUB:
        mpz_sub(z, x, y);
        break;
    case OP_NEG:
        mpz_neg(z, x);
        break;
    }
    mpz_mod(z, z, f->p);
    mpz_clears(x, y, NULL);
}

static void report(const field *f, const char *what, const xv *a, const xv *b, int lane)
{
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    lane_get(x, a, lane, f->n);
    if (b) lane_get(y, b, lane, f->n);
    gmp_printf("\n    %s: %s failed in lane %d\n    a = %Zx\n    b = %Zx", f->name, what, lane, x,
               y);
    mpz_clears(x, y, NULL);
}

/* Checks r = op(a, b) lane by lane; returns the number of bad lanes. */
static int check_result(const field *f, op_kind op, const xv *r, const xv *a, const xv *b)
{
    int bad = 0;
    unsigned inv = invariant_violations(f, r);
    mpz_t want, got;
    mpz_inits(want, got, NULL);
    for (int j = 0; j < 8; j++) {
        expect(want, f, op, a, b, j);
        lane_elem(got, f, r, j);
        if ((inv >> j & 1) || mpz_cmp(want, got) != 0) {
            if (!bad) report(f, op_names[op], a, b, j);
            bad++;
        }
    }
    mpz_clears(want, got, NULL);
    return bad;
}

/* One operation and its aliasing variants (same bits required). */
static int check_op(const field *f, op_kind op, const xv *a, const xv *b, int aliases)
{
    xv r, x, y;
    memset(&r, 0xa5, sizeof r);
    apply(f, op, &r, a, b);
    int bad = check_result(f, op, &r, a, b);
    if (!aliases) return bad;
    x = *a; /* r == a */
    apply(f, op, &x, &x, b);
    bad += memcmp(&x.l, &r.l, (size_t)f->n * 64) != 0;
    if (op == OP_MUL || op == OP_ADD || op == OP_SUB) {
        y = *b; /* r == b */
        apply(f, op, &y, a, &y);
        bad += memcmp(&y.l, &r.l, (size_t)f->n * 64) != 0;
        xv s; /* a == b, then r == a == b */
        apply(f, op, &s, a, a);
        bad += check_result(f, op, &s, a, a);
        x = *a;
        apply(f, op, &x, &x, &x);
        bad += memcmp(&x.l, &s.l, (size_t)f->n * 64) != 0;
    }
    return bad;
}

static void test_edges(void)
{
    if (skip()) return;
    /* every pair of edge kinds (0..8), eight pairs per batch, each in a different lane */
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        for (int op = OP_MUL; op <= OP_NEG; op++) {
            int bad = 0;
            const int ne = 9;
            for (int base = 0; base < ne * ne; base += 8) {
                xv a, b;
                memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
                mpz_t z;
                mpz_init(z);
                for (int j = 0; j < 8; j++) {
                    int k = (base + j) % (ne * ne);
                    kind_value(z, f, k / ne);
                    lane_set(&a, j, z, f->n);
                    kind_value(z, f, k % ne);
                    lane_set(&b, j, z, f->n);
                }
                mpz_clear(z);
                bad += check_op(f, (op_kind)op, &a, &b, 1);
            }
            if (bad) printf("\n    %s %s: %d bad edge lanes", f->name, op_names[op], bad);
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

static void test_random(void)
{
    if (skip()) return;
    const long iters = iterations();
    printf("\n    %ld random batches per function and field", iters);
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        for (int op = OP_MUL; op <= OP_NEG; op++) {
            long bad = 0;
            for (long it = 0; it < iters; it++) {
                xv a, b;
                random_batch(&a, f);
                if (test_rand_below(16) == 0)
                    b = a;
                else
                    random_batch(&b, f);
                bad += check_op(f, (op_kind)op, &a, &b, it % 8 == 0);
            }
            if (bad) printf("\n    %s %s: %ld bad lanes", f->name, op_names[op], bad);
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

/* 10,000 dependent operations per lane, checked against mpz at the end and the invariant at
 * every step: x <- x*y, x <- x^2 (mixed with y now and then), and x <- (x + y) - z + x. */
static void test_chains(void)
{
    if (skip()) return;
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        for (int kind = 0; kind < 3; kind++) {
            xv x, y, w;
            random_batch(&x, f);
            random_batch(&y, f);
            random_batch(&w, f);
            mpz_t ex[8], ey[8], ew[8], got;
            mpz_init(got);
            /* lanes 0 and 1 start at the top of the range */
            mpz_mul_2exp(got, f->p, 1);
            mpz_sub_ui(got, got, 1);
            lane_set(&y, 0, got, f->n);
            lane_set(&x, 1, got, f->n);
            for (int j = 0; j < 8; j++) {
                mpz_inits(ex[j], ey[j], ew[j], NULL);
                lane_elem(ex[j], f, &x, j);
                lane_elem(ey[j], f, &y, j);
                lane_elem(ew[j], f, &w, j);
            }
            unsigned inv_bad = 0;
            for (int i = 0; i < 10000; i++) {
                if (kind == 0) {
                    f->mul(&x, &x, &y);
                    for (int j = 0; j < 8; j++) mpz_mul(ex[j], ex[j], ey[j]);
                } else if (kind == 1) {
                    f->sqr(&x, &x);
                    for (int j = 0; j < 8; j++) mpz_mul(ex[j], ex[j], ex[j]);
                    if (i % 64 == 63) { /* squaring chains fall into short cycles: mix in y */
                        f->add(&x, &x, &y);
                        for (int j = 0; j < 8; j++) mpz_add(ex[j], ex[j], ey[j]);
                    }
                } else {
                    xv t;
                    f->add(&t, &x, &y);
                    f->sub(&t, &t, &w);
                    f->add(&x, &t, &x);
                    for (int j = 0; j < 8; j++) {
                        mpz_mul_2exp(got, ex[j], 1);
                        mpz_add(got, got, ey[j]);
                        mpz_sub(ex[j], got, ew[j]);
                    }
                    if (i % 100 == 99) f->neg(&x, &x);
                    if (i % 100 == 99)
                        for (int j = 0; j < 8; j++) mpz_neg(ex[j], ex[j]);
                }
                for (int j = 0; j < 8; j++) mpz_mod(ex[j], ex[j], f->p);
                inv_bad |= invariant_violations(f, &x);
            }
            int bad = 0;
            for (int j = 0; j < 8; j++) {
                lane_elem(got, f, &x, j);
                bad += mpz_cmp(got, ex[j]) != 0;
                mpz_clears(ex[j], ey[j], ew[j], NULL);
            }
            mpz_clear(got);
            if (bad || inv_bad)
                printf("\n    %s chain %d: %d lanes differ from mpz, invariant mask %x", f->name,
                       kind, bad, inv_bad);
            CU_ASSERT_EQUAL(bad, 0);
            CU_ASSERT_EQUAL(inv_bad, 0);
        }
    }
}

/* is_zero_mask, set_one and select */
static void test_helpers(void)
{
    if (skip()) return;
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        mpz_t z;
        mpz_init(z);
        int bad = 0;
        for (int it = 0; it < 2000; it++) {
            xv a, b, r;
            random_batch(&a, f);
            random_batch(&b, f);
            unsigned want = 0;
            for (int j = 0; j < 8; j++) {
                if (test_rand_below(3) == 0) { /* 0, p, or (rarely) 2p - 1 */
                    int k = (int)test_rand_below(3);
                    kind_value(z, f, k == 0 ? 0 : k == 1 ? 3 : 5);
                    lane_set(&a, j, z, f->n);
                }
                lane_elem(z, f, &a, j);
                if (mpz_sgn(z) == 0) want |= 1u << j;
            }
            bad += f->is_zero(&a) != want;
            unsigned mask = (unsigned)test_rand_below(256);
            f->select(&r, &a, &b, mask);
            for (int j = 0; j < 8; j++)
                for (int i = 0; i < f->n; i++)
                    bad += r.l[i][j] != ((mask >> j & 1) ? b.l[i][j] : a.l[i][j]);
        }
        xv one;
        f->set_one(&one);
        bad += invariant_violations(f, &one) != 0;
        for (int j = 0; j < 8; j++) {
            lane_elem(z, f, &one, j);
            bad += mpz_cmp_ui(z, 1) != 0;
        }
        mpz_clear(z);
        CU_ASSERT_EQUAL(bad, 0);
    }
}

/* ---- conversions ---------------------------------------------------------------------------- */

/* Scalar form (Montgomery R64, words) of a random kind: < p mostly; for load also >= p. */
static void scalar_value(mpz_t z, const field *f, int kind)
{
    uint64_t w[8];
    switch (kind) {
    case 0:
        mpz_set_ui(z, 0);
        break;
    case 1:
        mpz_set_ui(z, 1);
        break;
    case 2:
        mpz_sub_ui(z, f->p, 1);
        break;
    case 3:
        mpz_set(z, f->r64);
        break; /* the element 1 */
    case 4:
        mpz_set(z, f->p);
        break; /* >= p: load only */
    case 5:    /* 2^(64n) - 1: load only */
        mpz_set_ui(z, 0), mpz_setbit(z, (mp_bitcnt_t)(64 * f->words)), mpz_sub_ui(z, z, 1);
        break;
    case 6: /* random below 2^(64n): load only */
        for (int i = 0; i < f->words; i++) w[i] = test_rand64();
        words_get(z, w, f->words);
        break;
    case 8: { /* load only: u 2^D just above a multiple k p (where load's quotient estimate is
               * most often one short), u = ceil(k p / 2^D) + e, k random, e in [0, 4) */
        mpz_t k;
        mpz_init(k);
        for (int i = 0; i < f->words; i++) w[i] = test_rand64();
        words_get(z, w, f->words);
        mpz_mul_2exp(z, z, (mp_bitcnt_t)(52 * f->n - 64 * f->words));
        mpz_fdiv_q(k, z, f->p); /* k <= floor(2^(52N) / p) */
        mpz_mul(z, k, f->p);
        mpz_cdiv_q_2exp(z, z, (mp_bitcnt_t)(52 * f->n - 64 * f->words));
        mpz_add_ui(z, z, test_rand_below(4));
        mpz_fdiv_r_2exp(z, z, (mp_bitcnt_t)(64 * f->words));
        mpz_clear(k);
        break;
    }
    default: /* 7: random below p */
        for (int i = 0; i < f->words; i++) w[i] = test_rand64();
        words_get(z, w, f->words);
        mpz_mod(z, z, f->p);
    }
}

static void test_load(void)
{
    if (skip()) return;
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        const int nw = f->words;
        mpz_t u[8], z, want;
        mpz_inits(z, want, NULL);
        for (int j = 0; j < 8; j++) mpz_init(u[j]);
        uint64_t *buf = malloc(64 * 16 * sizeof *buf); /* scattered, unaligned sources */
        int bad = 0;
        for (int it = 0; it < 20000; it++) {
            const uint64_t *src[8];
            for (int j = 0; j < 8; j++) {
                if (j > 0 && test_rand_below(8) == 0) { /* a repeated pointer */
                    int k = (int)test_rand_below((uint64_t)j);
                    src[j] = src[k];
                    mpz_set(u[j], u[k]);
                    continue;
                }
                scalar_value(u[j], f, test_rand_below(2) ? 7 : (int)test_rand_below(9));
                uint64_t *dst = buf + 64 * j + test_rand_below(8);
                words_set(dst, u[j], nw);
                src[j] = dst;
            }
            xv r;
            f->load(&r, src);
            unsigned inv = invariant_violations(f, &r);
            for (int j = 0; j < 8; j++) {
                /* the element of scalar form u is u / R64; the lane must hold the same */
                CU_ASSERT_FATAL(mpz_invert(want, f->r64, f->p));
                mpz_mul(want, want, u[j]);
                mpz_mod(want, want, f->p);
                lane_elem(z, f, &r, j);
                if ((inv >> j & 1) || mpz_cmp(z, want) != 0) {
                    if (!bad)
                        gmp_printf("\n    %s load failed, lane %d, u = %Zx", f->name, j, u[j]);
                    bad++;
                }
            }
        }
        free(buf);
        for (int j = 0; j < 8; j++) mpz_clear(u[j]);
        mpz_clears(z, want, NULL);
        CU_ASSERT_EQUAL(bad, 0);
    }
}

static void test_store(void)
{
    if (skip()) return;
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        const int nw = f->words;
        mpz_t z, want;
        mpz_inits(z, want, NULL);
        uint64_t buf[8][10];
        int bad = 0;
        for (int it = 0; it < 20000; it++) {
            xv a;
            random_batch(&a, f);
            uint64_t *dst[8];
            for (int j = 0; j < 8; j++) {
                for (int k = 0; k < 10; k++) buf[j][k] = 0x5a5a5a5a5a5a5a5au;
                dst[j] = &buf[j][1 + test_rand_below(2)]; /* guard words on both sides */
            }
            f->store(dst, &a);
            for (int j = 0; j < 8; j++) {
                /* fully reduced scalar form: exactly (element * R64) mod p */
                lane_elem(want, f, &a, j);
                mpz_mul(want, want, f->r64);
                mpz_mod(want, want, f->p);
                words_get(z, dst[j], nw);
                int guard_ok = 1;
                for (uint64_t *g = buf[j]; g < dst[j]; g++) guard_ok &= *g == 0x5a5a5a5a5a5a5a5au;
                for (uint64_t *g = dst[j] + nw; g < buf[j] + 10; g++)
                    guard_ok &= *g == 0x5a5a5a5a5a5a5a5au;
                if (mpz_cmp(z, want) != 0 || !guard_ok) {
                    if (!bad) report(f, "store", &a, NULL, j);
                    bad++;
                }
            }
            /* round trip: load(store(a)) is the same element in every lane */
            const uint64_t *src[8];
            for (int j = 0; j < 8; j++) src[j] = dst[j];
            xv b;
            f->load(&b, src);
            bad += invariant_violations(f, &b) != 0;
            for (int j = 0; j < 8; j++) {
                lane_elem(z, f, &b, j);
                lane_elem(want, f, &a, j);
                bad += mpz_cmp(z, want) != 0;
            }
        }
        /* round trip from the scalar side: store(load(u)) == u for every u < p */
        for (int it = 0; it < 20000; it++) {
            uint64_t in[8][8], out[8][8];
            const uint64_t *src[8];
            uint64_t *dst[8];
            for (int j = 0; j < 8; j++) {
                scalar_value(z, f,
                             it < 8               ? j % 4
                             : test_rand_below(8) ? 7
                                                  : (int)test_rand_below(4));
                words_set(in[j], z, nw);
                src[j] = in[j];
                dst[j] = out[j];
            }
            xv r;
            f->load(&r, src);
            f->store(dst, &r);
            for (int j = 0; j < 8; j++) bad += memcmp(in[j], out[j], (size_t)nw * 8) != 0;
        }
        mpz_clears(z, want, NULL);
        CU_ASSERT_EQUAL(bad, 0);
    }
}

/* ---- inversion --------------------------------------------------------------------------------
 */

/* Lane j of r must be the inverse of lane j of a (0 for 0). */
static int check_inverse(const field *f, const xv *r, const xv *a)
{
    int bad = invariant_violations(f, r) != 0;
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    for (int j = 0; j < 8; j++) {
        lane_elem(x, f, a, j);
        lane_elem(y, f, r, j);
        if (mpz_sgn(x) == 0) {
            bad += mpz_sgn(y) != 0;
        } else {
            CU_ASSERT_FATAL(mpz_invert(x, x, f->p));
            bad += mpz_cmp(x, y) != 0;
        }
    }
    mpz_clears(x, y, NULL);
    return bad;
}

static void test_inv(void)
{
    if (skip()) return;
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        for (int var = 0; var < 2; var++) {
            void (*inv)(xv *, const xv *) = var ? f->inv_var : f->inv;
            int bad = 0;
            mpz_t z;
            mpz_init(z);
            for (int it = 0; it < (var ? 20000 : 200); it++) {
                xv a, r;
                random_batch(&a, f);
                if (it < NKINDS) /* every lane the same edge kind: all zero, all p, all 1, ... */
                    for (int j = 0; j < 8; j++) kind_value(z, f, it), lane_set(&a, j, z, f->n);
                else if (it % 7 == 0) /* lanes all equal */
                    for (int j = 1; j < 8; j++)
                        for (int i = 0; i < f->n; i++) a.l[i][j] = a.l[i][0];
                inv(&r, &a);
                bad += check_inverse(f, &r, &a);
                inv(&a, &a); /* in place */
                bad += memcmp(&a.l, &r.l, (size_t)f->n * 64) != 0;
            }
            mpz_clear(z);
            if (bad) printf("\n    %s %s: %d bad", f->name, var ? "inv_var" : "inv", bad);
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

static void test_batch_inv(void)
{
    if (skip()) return;
    static const size_t sizes[] = {1, 2, 3, 8, 17, 64, 200};
    for (int fi = 0; fi < 2; fi++) {
        const field *f = &fields[fi];
        int bad = 0;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            const size_t n = sizes[si];
            xv *a = aligned_alloc(64, n * sizeof *a), *r = aligned_alloc(64, n * sizeof *r);
            void *scratch = aligned_alloc(64, f->scratch_size(n) + 64);
            for (int round = 0; round < 8; round++) {
                void (*batch)(xv *, const xv *, size_t, void *) =
                    round & 4 ? f->batch_inv_var : f->batch_inv;
                mpz_t z;
                mpz_init(z);
                for (size_t i = 0; i < n; i++) {
                    random_batch(&a[i], f);
                    for (int j = 0; j < 8; j++) { /* zeros: scattered, whole chains, ends */
                        int zero = round % 4 == 1   ? j == 0
                                   : round % 4 == 2 ? (i == 0 || i == n - 1) && j % 2
                                                    : test_rand_below(10) == 0;
                        if (zero) {
                            kind_value(z, f, test_rand_below(2) ? 0 : 3);
                            lane_set(&a[i], j, z, f->n);
                        }
                    }
                }
                mpz_clear(z);
                if (round % 4 == 3) { /* in place */
                    xv *copy = malloc(n * sizeof *copy);
                    memcpy(copy, a, n * sizeof *copy);
                    batch(a, a, n, scratch);
                    for (size_t i = 0; i < n; i++) bad += check_inverse(f, &a[i], &copy[i]);
                    free(copy);
                } else {
                    batch(r, a, n, scratch);
                    for (size_t i = 0; i < n; i++) bad += check_inverse(f, &r[i], &a[i]);
                }
            }
            /* begin / finish with the chain products inverted by mpz */
            xv total, inv_total;
            f->batch_begin(&total, a, n, scratch);
            memset(&inv_total, 0, sizeof inv_total);
            mpz_t x, want;
            mpz_inits(x, want, NULL);
            for (int j = 0; j < 8; j++) {
                mpz_set_ui(want, 1);
                for (size_t i = 0; i < n; i++) {
                    lane_elem(x, f, &a[i], j);
                    if (mpz_sgn(x)) mpz_mul(want, want, x), mpz_mod(want, want, f->p);
                }
                lane_elem(x, f, &total, j);
                bad += mpz_cmp(x, want) != 0;
                CU_ASSERT_FATAL(mpz_invert(want, want, f->p));
                mpz_mul(want, want, f->r52); /* x8 form of the inverse */
                mpz_mod(want, want, f->p);
                lane_set(&inv_total, j, want, f->n);
            }
            mpz_clears(x, want, NULL);
            f->batch_finish(r, a, n, scratch, &inv_total);
            for (size_t i = 0; i < n; i++) bad += check_inverse(f, &r[i], &a[i]);
            free(a), free(r), free(scratch);
        }
        /* n = 0: nothing is read or written; begin gives the product of nothing, 1 */
        xv r0, total;
        memset(&r0, 0x5a, sizeof r0);
        f->batch_inv(&r0, &r0, 0, NULL);
        f->batch_inv_var(&r0, &r0, 0, NULL);
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) bad += r0.l[i][j] != 0x5a5a5a5a5a5a5a5au;
        f->batch_begin(&total, &r0, 0, NULL);
        mpz_t one;
        mpz_init(one);
        for (int j = 0; j < 8; j++) lane_elem(one, f, &total, j), bad += mpz_cmp_ui(one, 1) != 0;
        mpz_clear(one);
        if (bad) printf("\n    %s batch inversion: %d bad", f->name, bad);
        CU_ASSERT_EQUAL(bad, 0);
    }
}

void test_register(void)
{
    fields[0].c = mulred_fp381x8_consts;
    fields[1].c = mulred_fp254x8_consts;
    for (int fi = 0; fi < 2; fi++) {
        field *f = &fields[fi];
        mpz_inits(f->p, f->r52, f->r52inv, f->r64, NULL);
        mpz_set_str(f->p, f->p_decimal, 10);
        mpz_setbit(f->r52, (mp_bitcnt_t)(52 * f->n));
        mpz_mod(f->r52, f->r52, f->p);
        mpz_invert(f->r52inv, f->r52, f->p);
        mpz_setbit(f->r64, (mp_bitcnt_t)(64 * f->words));
        mpz_mod(f->r64, f->r64, f->p);
    }
    TEST_SUITE(
        "field_x8", {"constants derived again with GMP", test_constants},
        {"edge values, all pairs, aliasing", test_edges},
        {"random batches against mpz", test_random}, {"chains of 10,000 operations", test_chains},
        {"is_zero_mask, set_one, select", test_helpers}, {"load from the scalar form", test_load},
        {"store to the scalar form, round trips", test_store},
        {"inversion: Fermat, and gcd (variable-time)", test_inv},
        {"batch inversion: both kinds", test_batch_inv});
}

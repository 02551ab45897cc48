/* Fields (include/mulred/field.h, src/field/): every constant derived with GMP from the curve
 * seeds, every Montgomery kernel (portable and MULX, 4 and 6 limbs, every modulus) against
 * mpz, and every public operation of the four fields against mpz, under each kernel.
 *
 * The kernels are checked on the Montgomery residues directly (mul(A, B) = A·B·R^(−1) mod p),
 * so the kernel test does not lean on the library's conversions; the conversions are checked
 * on their own against mpz (from_limbs(x) = x·R mod p, to_limbs(A) = A·R^(−1) mod p).
 * Edge values: 0, 1, 2, p−1, p−2, (p±1)/2, R mod p, 2^(bits−1), top limb of p − 1 over
 * all-ones limbs, single limbs of all ones, and random values of several shapes (dense, sparse
 * limbs, near 0, near p); every edge pair, with r aliasing a, b and both.
 * MULRED_KERNEL_TEST_ITERS sets the random iterations (default 100000 per kernel and
 * modulus); MULRED_KERNEL_TEST_FORCE_MULX=1 runs the MULX kernels even when CPUID hides ADX
 * (valgrind). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/field_internal.h"
#include "field/field_kernels.h"
#include "harness.h"
#include "mulred/field.h"

#define MAXN 6

/* One buffer for an element of any field (the API is called on the member of its field). */
typedef union {
    mulred_fp381 fp381;
    mulred_fr381 fr381;
    mulred_fp254 fp254;
    mulred_fr254 fr254;
    uint64_t l[MAXN];
} elem;

typedef struct {
    const char *name;
    int n, bytes, base;
    /* library constants under test */
    const uint64_t *lib_p, *lib_one, *lib_r2, *lib_r3;
    uint64_t lib_n0;
    /* the public API, wrapped over elem */
    void (*set_zero)(elem *);
    void (*set_one)(elem *);
    void (*set_u64)(elem *, uint64_t);
    bool (*is_zero)(const elem *);
    bool (*is_one)(const elem *);
    bool (*equal)(const elem *, const elem *);
    void (*add)(elem *, const elem *, const elem *);
    void (*sub)(elem *, const elem *, const elem *);
    void (*neg)(elem *, const elem *);
    void (*mul)(elem *, const elem *, const elem *);
    void (*sqr)(elem *, const elem *);
    void (*pow)(elem *, const elem *, const uint64_t *);
    void (*inv)(elem *, const elem *);
    void (*inv_var)(elem *, const elem *);
    void (*batch_inv)(elem *, const elem *, size_t, int in_place);
    bool (*from_bytes)(elem *, const uint8_t *);
    void (*to_bytes)(uint8_t *, const elem *);
    bool (*from_limbs)(elem *, const uint64_t *);
    void (*to_limbs)(uint64_t *, const elem *);
    bool (*sqrt)(elem *, const elem *);
    bool (*is_square)(const elem *);
    bool (*is_odd)(const elem *);
    /* derived here */
    mpz_t p, R, Rinv;
} field;

#define WRAP_COMMON(F, N)                                                                          \
    static void F##_w_set_zero(elem *r)                                                            \
    {                                                                                              \
        mulred_##F##_set_zero(&r->F);                                                              \
    }                                                                                              \
    static void F##_w_set_one(elem *r)                                                             \
    {                                                                                              \
        mulred_##F##_set_one(&r->F);                                                               \
    }                                                                                              \
    static void F##_w_set_u64(elem *r, uint64_t v)                                                 \
    {                                                                                              \
        mulred_##F##_set_u64(&r->F, v);                                                            \
    }                                                                                              \
    static bool F##_w_is_zero(const elem *a)                                                       \
    {                                                                                              \
        return mulred_##F##_is_zero(&a->F);                                                        \
    }                                                                                              \
    static bool F##_w_is_one(const elem *a)                                                        \
    {                                                                                              \
        return mulred_##F##_is_one(&a->F);                                                         \
    }                                                                                              \
    static bool F##_w_equal(const elem *a, const elem *b)                                          \
    {                                                                                              \
        return mulred_##F##_equal(&a->F, &b->F);                                                   \
    }                                                                                              \
    static void F##_w_add(elem *r, const elem *a, const elem *b)                                   \
    {                                                                                              \
        mulred_##F##_add(&r->F, &a->F, &b->F);                                                     \
    }                                                                                              \
    static void F##_w_sub(elem *r, const elem *a, const elem *b)                                   \
    {                                                                                              \
        mulred_##F##_sub(&r->F, &a->F, &b->F);                                                     \
    }                                                                                              \
    static void F##_w_neg(elem *r, const elem *a)                                                  \
    {                                                                                              \
        mulred_##F##_neg(&r->F, &a->F);                                                            \
    }                                                                                              \
    static void F##_w_mul(elem *r, const elem *a, const elem *b)                                   \
    {                                                                                              \
        mulred_##F##_mul(&r->F, &a->F, &b->F);                                                     \
    }                                                                                              \
    static void F##_w_sqr(elem *r, const elem *a)                                                  \
    {                                                                                              \
        mulred_##F##_sqr(&r->F, &a->F);                                                            \
    }                                                                                              \
    static void F##_w_pow(elem *r, const elem *a, const uint64_t *e)                               \
    {                                                                                              \
        mulred_##F##_pow(&r->F, &a->F, e);                                                         \
    }                                                                                              \
    static void F##_w_inv(elem *r, const elem *a)                                                  \
    {                                                                                              \
        mulred_##F##_inv(&r->F, &a->F);                                                            \
    }                                                                                              \
    static void F##_w_inv_var(elem *r, const elem *a)                                              \
    {                                                                                              \
        mulred_##F##_inv_var(&r->F, &a->F);                                                        \
    }                                                                                              \
    /* arrays of the field's own type (stride N limbs), copied in and out */                       \
    static void F##_w_batch_inv(elem *r, const elem *a, size_t n, int in_place)                    \
    {                                                                                              \
        mulred_##F *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);                   \
        void *scratch = malloc(mulred_##F##_batch_inv_scratch_size(n) + 1);                        \
        CU_ASSERT_FATAL(x &&y &&scratch);                                                          \
        for (size_t i = 0; i < n; i++) x[i] = a[i].F;                                              \
        if (in_place) {                                                                            \
            mulred_##F##_batch_inv_var(x, x, n, scratch);                                          \
            for (size_t i = 0; i < n; i++) r[i].F = x[i];                                          \
        } else {                                                                                   \
            mulred_##F##_batch_inv_var(y, x, n, scratch);                                          \
            for (size_t i = 0; i < n; i++) r[i].F = y[i];                                          \
        }                                                                                          \
        free(x);                                                                                   \
        free(y);                                                                                   \
        free(scratch);                                                                             \
    }                                                                                              \
    static bool F##_w_from_bytes(elem *r, const uint8_t *in)                                       \
    {                                                                                              \
        return mulred_##F##_from_bytes(&r->F, in) == MULRED_OK;                                    \
    }                                                                                              \
    static void F##_w_to_bytes(uint8_t *out, const elem *a)                                        \
    {                                                                                              \
        mulred_##F##_to_bytes(out, &a->F);                                                         \
    }                                                                                              \
    static bool F##_w_from_limbs(elem *r, const uint64_t *in)                                      \
    {                                                                                              \
        return mulred_##F##_from_limbs(&r->F, in) == MULRED_OK;                                    \
    }                                                                                              \
    static void F##_w_to_limbs(uint64_t *out, const elem *a)                                       \
    {                                                                                              \
        mulred_##F##_to_limbs(out, &a->F);                                                         \
    }

#define WRAP_BASE(F)                                                                               \
    static bool F##_w_sqrt(elem *r, const elem *a)                                                 \
    {                                                                                              \
        return mulred_##F##_sqrt(&r->F, &a->F);                                                    \
    }                                                                                              \
    static bool F##_w_is_square(const elem *a)                                                     \
    {                                                                                              \
        return mulred_##F##_is_square(&a->F);                                                      \
    }                                                                                              \
    static bool F##_w_is_odd(const elem *a)                                                        \
    {                                                                                              \
        return mulred_##F##_is_odd(&a->F);                                                         \
    }

WRAP_COMMON(fp381, 6)
WRAP_COMMON(fr381, 4)
WRAP_COMMON(fp254, 4)
WRAP_COMMON(fr254, 4)
WRAP_BASE(fp381)
WRAP_BASE(fp254)

#define FIELD_ENTRY(F, N, BASE, PP, ONE, R2, R3, N0, SQRT, ISSQ, ODD)                              \
    {                                                                                              \
#F, N, 8 * (N), BASE, PP, ONE, R2, R3, N0, F##_w_set_zero, F##_w_set_one, F##_w_set_u64,   \
            F##_w_is_zero, F##_w_is_one, F##_w_equal, F##_w_add, F##_w_sub, F##_w_neg, F##_w_mul,  \
            F##_w_sqr, F##_w_pow, F##_w_inv, F##_w_inv_var, F##_w_batch_inv, F##_w_from_bytes,     \
            F##_w_to_bytes, F##_w_from_limbs, F##_w_to_limbs, SQRT, ISSQ, ODD, {{0 } }, {{0 } },   \
        {                                                                                          \
            {                                                                                      \
                0                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

static field fields[] = {
    FIELD_ENTRY(fp381, 6, 1, FP381_P, FP381_ONE, FP381_R2, FP381_R3, FP381_N0, fp381_w_sqrt,
                fp381_w_is_square, fp381_w_is_odd),
    FIELD_ENTRY(fr381, 4, 0, FR381_P, FR381_ONE, FR381_R2, FR381_R3, FR381_N0, NULL, NULL, NULL),
    FIELD_ENTRY(fp254, 4, 1, FP254_P, FP254_ONE, FP254_R2, FP254_R3, FP254_N0, fp254_w_sqrt,
                fp254_w_is_square, fp254_w_is_odd),
    FIELD_ENTRY(fr254, 4, 0, FR254_P, FR254_ONE, FR254_R2, FR254_R3, FR254_N0, NULL, NULL, NULL),
};
#define NFIELDS (int)(sizeof fields / sizeof fields[0])

/* ---- kernels ---------------------------------------------------------------------------- */

typedef void (*mul_fn)(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, uint64_t);
typedef void (*sqr_fn)(uint64_t *, const uint64_t *, const uint64_t *, uint64_t);

static int always(void)
{
    return 1;
}

/* The kernel prototypes fix n; these adapters give every kernel one pointer type. */
#define KADAPT(NAME, N)                                                                            \
    static void k_##NAME(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,     \
                         uint64_t n0)                                                              \
    {                                                                                              \
        mulred_mont_##NAME(r, a, b, p, n0);                                                        \
    }
#define KADAPT_SQR(NAME, N)                                                                        \
    static void k_##NAME(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t n0)           \
    {                                                                                              \
        mulred_mont_##NAME(r, a, p, n0);                                                           \
    }
KADAPT(mul4_portable, 4)
KADAPT(mul6_portable, 6)
KADAPT(mul4_mulx, 4)
KADAPT(mul6_mulx, 6)
KADAPT_SQR(sqr4_portable, 4)
KADAPT_SQR(sqr6_portable, 6)
KADAPT_SQR(sqr4_mulx, 4)
KADAPT_SQR(sqr6_mulx, 6)

typedef struct {
    const char *name;
    int n;
    mul_fn mul; /* NULL for a squaring */
    sqr_fn sqr;
    int (*available)(void);
} kernel;

static const kernel kernels[] = {
    {"mont_mul4_portable", 4, k_mul4_portable, NULL, always},
    {"mont_sqr4_portable", 4, NULL, k_sqr4_portable, always},
    {"mont_mul6_portable", 6, k_mul6_portable, NULL, always},
    {"mont_sqr6_portable", 6, NULL, k_sqr6_portable, always},
    {"mont_mul4_mulx", 4, k_mul4_mulx, NULL, mulred_field_have_mulx},
    {"mont_sqr4_mulx", 4, NULL, k_sqr4_mulx, mulred_field_have_mulx},
    {"mont_mul6_mulx", 6, k_mul6_mulx, NULL, mulred_field_have_mulx},
    {"mont_sqr6_mulx", 6, NULL, k_sqr6_mulx, mulred_field_have_mulx},
};
#define NKERNELS (int)(sizeof kernels / sizeof kernels[0])

static int kernel_usable(const kernel *k)
{
    if (k->available()) return 1;
    const char *force = getenv("MULRED_KERNEL_TEST_FORCE_MULX");
    if (force && *force == '1') {
        printf("\n    (kernel %s: CPUID says no bmi2+adx; forced by MULRED_KERNEL_TEST_FORCE_MULX)",
               k->name);
        return 1;
    }
    char why[96];
    snprintf(why, sizeof why, "kernel %s: CPU lacks bmi2+adx", k->name);
    test_skip(why);
    return 0;
}

static long iterations(void)
{
    const char *e = getenv("MULRED_KERNEL_TEST_ITERS");
    long n = e && *e ? strtol(e, NULL, 10) : 100000;
    return n > 0 ? n : 100000;
}

/* ---- values ----------------------------------------------------------------------------- */

static void to_mpz(mpz_t z, const uint64_t *a, int n)
{
    mpz_import(z, (size_t)n, -1, sizeof(uint64_t), 0, 0, a);
}

static void from_mpz(uint64_t *a, int n, const mpz_t z)
{
    CU_ASSERT_FATAL(mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= (size_t)(64 * n));
    memset(a, 0, (size_t)n * sizeof *a);
    mpz_export(a, NULL, -1, sizeof(uint64_t), 0, 0, z);
}

#define NEDGES 14
/* An edge value in [0, p) of field f. */
static void edge_value(uint64_t *a, const field *f, int i)
{
    mpz_t z;
    mpz_init(z);
    switch (i) {
    case 0:
        break;
    case 1:
        mpz_set_ui(z, 1);
        break;
    case 2:
        mpz_set_ui(z, 2);
        break;
    case 3:
        mpz_sub_ui(z, f->p, 1);
        break;
    case 4:
        mpz_sub_ui(z, f->p, 2);
        break;
    case 5:
        mpz_fdiv_q_2exp(z, f->p, 1); /* (p − 1) / 2 */
        break;
    case 6:
        mpz_fdiv_q_2exp(z, f->p, 1), mpz_add_ui(z, z, 1); /* (p + 1) / 2 */
        break;
    case 7:
        mpz_mod(z, f->R, f->p); /* R mod p: the Montgomery one */
        break;
    case 8:
        mpz_setbit(z, mpz_sizeinbase(f->p, 2) - 1); /* 2^(bits−1) < p */
        break;
    case 9: /* top limb of p minus 1 over all-ones limbs: the largest carry pattern < p */
        mpz_fdiv_q_2exp(z, f->p, 64 * (f->n - 1));
        mpz_sub_ui(z, z, 1);
        mpz_mul_2exp(z, z, 64 * (f->n - 1));
        {
            mpz_t ones;
            mpz_init(ones);
            mpz_setbit(ones, 64 * (f->n - 1));
            mpz_sub_ui(ones, ones, 1);
            mpz_add(z, z, ones);
            mpz_clear(ones);
        }
        break;
    case 10:
        mpz_set_ui(z, UINT64_MAX);
        break;
    case 11: /* 2^(64(n−1)) − 1 */
        mpz_setbit(z, 64 * (f->n - 1));
        mpz_sub_ui(z, z, 1);
        break;
    case 12: /* p − 2^64 */
        mpz_set_ui(z, 1);
        mpz_mul_2exp(z, z, 64);
        mpz_sub(z, f->p, z);
        break;
    case 13: /* R² mod p */
        mpz_mul(z, f->R, f->R);
        mpz_mod(z, z, f->p);
        break;
    }
    CU_ASSERT_FATAL(mpz_cmp(z, f->p) < 0);
    from_mpz(a, f->n, z);
    mpz_clear(z);
}

/* A random value in [0, p) of several shapes. */
static void random_value(uint64_t *a, const field *f)
{
    const int n = f->n;
    mpz_t z;
    mpz_init(z);
    uint64_t t[MAXN] = {0};
    switch (test_rand_below(6)) {
    case 0:
    case 1: /* dense */
        for (int i = 0; i < n; i++) t[i] = test_rand64();
        break;
    case 2: /* sparse limbs, some all-ones */
        for (int k = (int)test_rand_below(3); k >= 0; k--)
            t[test_rand_below((uint64_t)n)] = test_rand_below(2) ? UINT64_MAX : test_rand64();
        break;
    case 3: /* small */
        t[0] = test_rand64() >> test_rand_below(64);
        break;
    case 4: { /* near p: p − d */
        to_mpz(z, t, n);
        mpz_sub_ui(z, f->p, 1 + test_rand_below(UINT64_C(1) << 40));
        from_mpz(t, n, z);
        break;
    }
    default: /* random bits flipped in p − 1 */
        mpz_sub_ui(z, f->p, 1);
        from_mpz(t, n, z);
        for (int k = (int)test_rand_below(4); k >= 0; k--)
            t[test_rand_below((uint64_t)n)] ^= UINT64_C(1) << test_rand_below(64);
    }
    to_mpz(z, t, n);
    mpz_mod(z, z, f->p);
    from_mpz(a, n, z);
    mpz_clear(z);
}

/* ---- constants -------------------------------------------------------------------------- */

static void derive_moduli(void)
{
    /* BLS12-381: x = −0xd201000000010000; r = x⁴ − x² + 1, p = (x − 1)²·r / 3 + x.
     * BN254: u = 4965661367192848881; p = 36u⁴ + 36u³ + 24u² + 6u + 1,
     * r = 36u⁴ + 36u³ + 18u² + 6u + 1. */
    mpz_t x, x2, t, u;
    mpz_inits(x, x2, t, u, NULL);
    mpz_set_str(x, "-d201000000010000", 16);
    mpz_mul(x2, x, x);
    mpz_mul(t, x2, x2);
    mpz_sub(t, t, x2);
    mpz_add_ui(t, t, 1);
    mpz_set(fields[1].p, t); /* r381 */
    mpz_sub_ui(u, x, 1);
    mpz_mul(u, u, u);
    mpz_mul(u, u, t);
    if (!mpz_divisible_ui_p(u, 3)) abort(); /* (x − 1)²·r is divisible by 3 for this x */
    mpz_divexact_ui(u, u, 3);
    mpz_add(fields[0].p, u, x); /* p381 */

    mpz_set_str(u, "4965661367192848881", 10);
    mpz_t u2, u3, u4;
    mpz_inits(u2, u3, u4, NULL);
    mpz_mul(u2, u, u);
    mpz_mul(u3, u2, u);
    mpz_mul(u4, u3, u);
    mpz_mul_ui(t, u4, 36);
    mpz_addmul_ui(t, u3, 36);
    mpz_addmul_ui(t, u, 6);
    mpz_add_ui(t, t, 1);
    mpz_set(fields[2].p, t);
    mpz_addmul_ui(fields[2].p, u2, 24); /* p254 */
    mpz_set(fields[3].p, t);
    mpz_addmul_ui(fields[3].p, u2, 18); /* r254 */
    mpz_clears(x, x2, t, u, u2, u3, u4, NULL);

    for (int i = 0; i < NFIELDS; i++) {
        field *f = &fields[i];
        mpz_set_ui(f->R, 1);
        mpz_mul_2exp(f->R, f->R, 64 * f->n);
        mpz_invert(f->Rinv, f->R, f->p);
    }
}

static void test_constants(void)
{
    /* the published values, as a second source (EIP-2537, EIP-196, the BLS12-381 draft) */
    static const char *published[NFIELDS] = {
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffff"
        "ff"
        "aaab",
        "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
        "21888242871839275222246405745257275088696311157297823662689037894645226208583",
        "21888242871839275222246405745257275088548364400416034343698204186575808495617"};
    for (int i = 0; i < NFIELDS; i++) {
        field *f = &fields[i];
        mpz_t z, w, two64;
        mpz_inits(z, w, two64, NULL);
        mpz_set_str(z, published[i], i < 2 ? 16 : 10);
        CU_ASSERT(mpz_cmp(z, f->p) == 0);
        CU_ASSERT(mpz_probab_prime_p(f->p, 30) > 0);
        CU_ASSERT(mpz_sizeinbase(f->p, 2) < (size_t)(64 * f->n)); /* p < 2^(64n−1) */
        if (f->base) CU_ASSERT(mpz_fdiv_ui(f->p, 4) == 3);
        to_mpz(z, f->lib_p, f->n);
        CU_ASSERT(mpz_cmp(z, f->p) == 0);
        /* n0 = −p^(−1) mod 2^64 */
        mpz_setbit(two64, 64);
        mpz_invert(w, f->p, two64);
        mpz_sub(w, two64, w);
        CU_ASSERT(mpz_get_ui(w) == f->lib_n0);
        /* R, R², R³ mod p */
        mpz_mod(w, f->R, f->p);
        to_mpz(z, f->lib_one, f->n);
        CU_ASSERT(mpz_cmp(z, w) == 0);
        mpz_mul(w, w, f->R);
        mpz_mod(w, w, f->p);
        to_mpz(z, f->lib_r2, f->n);
        CU_ASSERT(mpz_cmp(z, w) == 0);
        mpz_mul(w, w, f->R);
        mpz_mod(w, w, f->p);
        to_mpz(z, f->lib_r3, f->n);
        CU_ASSERT(mpz_cmp(z, w) == 0);
        mpz_clears(z, w, two64, NULL);
    }
}

/* ---- kernels against mpz ---------------------------------------------------------------- */

/* r == a·b·R^(−1) mod p exactly (fully reduced) */
static int mont_ok(const field *f, const uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mpz_t za, zb, zr;
    mpz_inits(za, zb, zr, NULL);
    to_mpz(za, a, f->n);
    to_mpz(zb, b, f->n);
    to_mpz(zr, r, f->n);
    mpz_mul(za, za, zb);
    mpz_mul(za, za, f->Rinv);
    mpz_mod(za, za, f->p);
    int ok = mpz_cmp(za, zr) == 0;
    mpz_clears(za, zb, zr, NULL);
    return ok;
}

static void kapply(const kernel *k, const field *f, uint64_t *r, const uint64_t *a,
                   const uint64_t *b)
{
    if (k->mul)
        k->mul(r, a, b, f->lib_p, f->lib_n0);
    else
        k->sqr(r, a, f->lib_p, f->lib_n0);
}

/* One product and its aliasing variants. */
static int kcheck(const kernel *k, const field *f, const uint64_t *a, const uint64_t *b0,
                  int aliases)
{
    const int n = f->n;
    const size_t sz = (size_t)n * sizeof(uint64_t);
    const uint64_t *b = k->mul ? b0 : a;
    uint64_t r[MAXN], x[MAXN];
    kapply(k, f, r, a, b);
    if (!mont_ok(f, r, a, b)) return 0;
    if (!aliases) return 1;
    memcpy(x, a, sz); /* r == a */
    kapply(k, f, x, x, b);
    if (memcmp(x, r, sz)) return 0;
    if (k->mul) {
        memcpy(x, b, sz); /* r == b */
        k->mul(x, a, x, f->lib_p, f->lib_n0);
        if (memcmp(x, r, sz)) return 0;
        uint64_t s[MAXN]; /* a == b, then r == a == b */
        k->mul(s, a, a, f->lib_p, f->lib_n0);
        if (!mont_ok(f, s, a, a)) return 0;
        memcpy(x, a, sz);
        k->mul(x, x, x, f->lib_p, f->lib_n0);
        if (memcmp(x, s, sz)) return 0;
    }
    return 1;
}

static void kreport(const kernel *k, const field *f, const uint64_t *a, const uint64_t *b)
{
    mpz_t za, zb;
    mpz_inits(za, zb, NULL);
    to_mpz(za, a, f->n);
    to_mpz(zb, b, f->n);
    gmp_printf("\n    kernel %s mod %s failed\n    a = %Zx\n    b = %Zx", k->name, f->name, za, zb);
    mpz_clears(za, zb, NULL);
}

static void test_kernels_edges(void)
{
    for (int ki = 0; ki < NKERNELS; ki++) {
        const kernel *k = &kernels[ki];
        if (!kernel_usable(k)) continue;
        for (int fi = 0; fi < NFIELDS; fi++) {
            const field *f = &fields[fi];
            if (f->n != k->n) continue;
            int bad = 0;
            for (int i = 0; i < NEDGES; i++)
                for (int j = 0; j < NEDGES; j++) {
                    uint64_t a[MAXN], b[MAXN];
                    edge_value(a, f, i);
                    edge_value(b, f, j);
                    if (!kcheck(k, f, a, b, 1) && !bad++) kreport(k, f, a, b);
                }
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

static void test_kernels_random(void)
{
    const long iters = iterations();
    printf("\n    %ld random inputs per kernel and modulus", iters);
    for (int ki = 0; ki < NKERNELS; ki++) {
        const kernel *k = &kernels[ki];
        if (!kernel_usable(k)) continue;
        for (int fi = 0; fi < NFIELDS; fi++) {
            const field *f = &fields[fi];
            if (f->n != k->n) continue;
            long bad = 0;
            for (long it = 0; it < iters; it++) {
                uint64_t a[MAXN], b[MAXN];
                random_value(a, f);
                if (test_rand_below(16) == 0)
                    memcpy(b, a, sizeof b);
                else
                    random_value(b, f);
                if (!kcheck(k, f, a, b, it % 16 == 0) && !bad++) kreport(k, f, a, b);
            }
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

/* 10,000 dependent products x <- x·y (and squarings) against mpz. */
static void test_kernels_chain(void)
{
    for (int ki = 0; ki < NKERNELS; ki++) {
        const kernel *k = &kernels[ki];
        if (!kernel_usable(k)) continue;
        for (int fi = 0; fi < NFIELDS; fi++) {
            const field *f = &fields[fi];
            if (f->n != k->n) continue;
            uint64_t x[MAXN], y[MAXN];
            do random_value(x, f);
            while (x[0] < 2);
            do random_value(y, f);
            while (y[0] < 2);
            mpz_t zx, zy, zr;
            mpz_inits(zx, zy, zr, NULL);
            to_mpz(zx, x, f->n);
            to_mpz(zy, y, f->n);
            for (int i = 0; i < 10000; i++) {
                if (k->mul) {
                    k->mul(x, x, y, f->lib_p, f->lib_n0);
                    mpz_mul(zx, zx, zy);
                } else {
                    k->sqr(x, x, f->lib_p, f->lib_n0);
                    mpz_mul(zx, zx, zx);
                }
                mpz_mul(zx, zx, f->Rinv);
                mpz_mod(zx, zx, f->p);
            }
            to_mpz(zr, x, f->n);
            if (mpz_cmp(zr, zx) != 0)
                printf("\n    kernel %s mod %s: chain differs", k->name, f->name);
            CU_ASSERT(mpz_cmp(zr, zx) == 0);
            mpz_clears(zx, zy, zr, NULL);
        }
    }
}

/* A modulus of shape s for n limbs, odd, 2^(64(n−1)) < p < 2^(64n−1) (the kernels' contract):
 * the largest allowed, the largest allowed with a low limb of 1 (n0 = 2^64 − 1) or of
 * 2^64 − 1 (n0 = 1), a top limb of 1, a top limb just under 2^62, and random of 64n − 1 bits
 * or fewer. */
static void shaped_modulus(mpz_t p, int n, int s)
{
    mpz_t t;
    mpz_init(t);
    switch (s) {
    case 0: /* 2^(64n−1) − 1 */
        mpz_set_ui(p, 0);
        mpz_setbit(p, 64 * n - 1);
        mpz_sub_ui(p, p, 1);
        break;
    case 1: /* 2^(64n−1) − 2^64 + 1 */
        mpz_set_ui(p, 0);
        mpz_setbit(p, 64 * n - 1);
        mpz_set_ui(t, 0);
        mpz_setbit(t, 64);
        mpz_sub(p, p, t);
        mpz_add_ui(p, p, 1);
        break;
    case 2: /* 2^(64(n−1)) + 2^64 − 1: top limb 1, low limb all ones */
        mpz_set_ui(p, 0);
        mpz_setbit(p, 64 * (n - 1));
        mpz_setbit(p, 64);
        mpz_sub_ui(p, p, 1);
        break;
    case 3: /* 2^(64n−2) − 2^(64(n−1)) + random low limbs */
        mpz_set_ui(p, 0);
        for (int i = 0; i < n - 1; i++) {
            mpz_mul_2exp(p, p, 64);
            mpz_add_ui(p, p, test_rand64());
        }
        mpz_set_ui(t, (UINT64_C(1) << 62) - 1);
        mpz_mul_2exp(t, t, 64 * (n - 1));
        mpz_add(p, p, t);
        break;
    default: /* random, 64n − 1 down to 64(n−1) + 8 bits */
        mpz_set_ui(p, 0);
        for (int i = 0; i < n; i++) {
            mpz_mul_2exp(p, p, 64);
            mpz_add_ui(p, p, test_rand64());
        }
        mpz_fdiv_q_2exp(p, p, 1 + test_rand_below(56));
        mpz_setbit(p, 64 * (n - 1) + 8);
    }
    mpz_setbit(p, 0);
    mpz_clear(t);
}

/* The kernels take the modulus as a parameter: each one against mpz on moduli other than the
 * four fields', at the ends of its contract (p up to 2^(64n−1) − 1, where the carry bounds of
 * the accumulator and of the squaring's U + T_hi < 2p are tightest). */
static void test_kernels_moduli(void)
{
    enum { SHAPES = 8 };
    const long iters = iterations() / 50 + 100;
    printf("\n    %d moduli per limb count, edges and %ld random inputs each", SHAPES, iters);
    for (int n = 4; n <= 6; n += 2) {
        for (int s = 0; s < SHAPES; s++) {
            field f;
            memset(&f, 0, sizeof f);
            f.name = n == 4 ? "a 4-limb test modulus" : "a 6-limb test modulus";
            f.n = n;
            mpz_inits(f.p, f.R, f.Rinv, NULL);
            shaped_modulus(f.p, n, s);
            CU_ASSERT_FATAL(mpz_sizeinbase(f.p, 2) <= (size_t)(64 * n - 1));
            CU_ASSERT_FATAL(mpz_sizeinbase(f.p, 2) > (size_t)(64 * (n - 1)));
            uint64_t p[MAXN];
            from_mpz(p, n, f.p);
            f.lib_p = p;
            mpz_t w, two64;
            mpz_inits(w, two64, NULL);
            mpz_setbit(two64, 64);
            mpz_invert(w, f.p, two64);
            mpz_sub(w, two64, w); /* −p^(−1) mod 2^64 */
            f.lib_n0 = mpz_get_ui(w);
            mpz_setbit(f.R, 64 * n);
            mpz_invert(f.Rinv, f.R, f.p);
            for (int ki = 0; ki < NKERNELS; ki++) {
                const kernel *k = &kernels[ki];
                if (k->n != n || !kernel_usable(k)) continue;
                int bad = 0;
                for (int i = 0; i < NEDGES; i++)
                    for (int j = 0; j < NEDGES; j++) {
                        uint64_t a[MAXN], b[MAXN];
                        edge_value(a, &f, i);
                        edge_value(b, &f, j);
                        if (!kcheck(k, &f, a, b, 1) && !bad++) kreport(k, &f, a, b);
                    }
                for (long it = 0; it < iters; it++) {
                    uint64_t a[MAXN], b[MAXN];
                    random_value(a, &f);
                    random_value(b, &f);
                    if (!kcheck(k, &f, a, b, it % 8 == 0) && !bad++) kreport(k, &f, a, b);
                }
                if (bad) gmp_printf("\n    (modulus %Zx)", f.p);
                CU_ASSERT_EQUAL(bad, 0);
            }
            mpz_clears(w, two64, f.p, f.R, f.Rinv, NULL);
        }
    }
}

/* The limb helpers of field_internal.h on their own: the portable C forms of add and sub (the
 * build of a non-x86 machine) and the x86-64 assembly forms, against mpz. */
static void test_limb_helpers(void)
{
    int bad = 0;
    mpz_t za, zb, want, got;
    mpz_inits(za, zb, want, got, NULL);
    for (int fi = 0; fi < NFIELDS; fi++) {
        const field *f = &fields[fi];
        const int n = f->n;
        for (long it = 0; it < 20000 && !bad; it++) {
            uint64_t a[MAXN], b[MAXN], r[MAXN];
            if (it < NEDGES * NEDGES) {
                edge_value(a, f, (int)(it % NEDGES));
                edge_value(b, f, (int)(it / NEDGES));
            } else {
                random_value(a, f);
                random_value(b, f);
            }
            to_mpz(za, a, n);
            to_mpz(zb, b, n);
            for (int form = 0; form < 2; form++) {
                mpz_add(want, za, zb), mpz_mod(want, want, f->p);
                if (form)
                    fe_add(r, a, b, f->lib_p, n);
                else
                    fe_add_c(r, a, b, f->lib_p, n);
                to_mpz(got, r, n);
                bad += mpz_cmp(got, want) != 0;
                mpz_sub(want, za, zb), mpz_mod(want, want, f->p);
                if (form)
                    fe_sub(r, a, b, f->lib_p, n);
                else
                    fe_sub_c(r, a, b, f->lib_p, n);
                to_mpz(got, r, n);
                bad += mpz_cmp(got, want) != 0;
            }
            mpz_neg(want, za), mpz_mod(want, want, f->p);
            fe_neg(r, a, f->lib_p, n);
            to_mpz(got, r, n);
            bad += mpz_cmp(got, want) != 0;
            if (bad) gmp_printf("\n    %s: a = %Zx, b = %Zx", f->name, za, zb);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(za, zb, want, got, NULL);
}

/* ---- the public API against mpz, under each kernel --------------------------------------- */

/* value of an element (its residue times R^(−1)) */
static void elem_value(mpz_t z, const field *f, const elem *a)
{
    to_mpz(z, a->l, f->n);
    CU_ASSERT(mpz_cmp(z, f->p) < 0); /* the invariant: fully reduced */
    mpz_mul(z, z, f->Rinv);
    mpz_mod(z, z, f->p);
}

/* the element with value v (residue v·R mod p), written directly */
static void elem_set(elem *a, const field *f, const mpz_t v)
{
    mpz_t z;
    mpz_init(z);
    mpz_mul(z, v, f->R);
    mpz_mod(z, z, f->p);
    memset(a, 0, sizeof *a);
    from_mpz(a->l, f->n, z);
    mpz_clear(z);
}

static void random_elem(elem *a, const field *f, int i)
{
    memset(a, 0, sizeof *a);
    if (i < NEDGES)
        edge_value(a->l, f, i); /* as residues: covers the edge residues */
    else
        random_value(a->l, f);
}

static int expect_value(const field *f, const elem *r, const mpz_t want, const char *what)
{
    mpz_t z;
    mpz_init(z);
    elem_value(z, f, r);
    int ok = mpz_cmp(z, want) == 0;
    if (!ok) gmp_printf("\n    %s %s: got %Zx, want %Zx", f->name, what, z, want);
    mpz_clear(z);
    return ok;
}

/* the element's limbs agree (the union has room for 6; a 4-limb field uses 4) */
static int same(const field *f, const elem *a, const elem *b)
{
    return memcmp(a->l, b->l, (size_t)f->n * sizeof(uint64_t)) == 0;
}

static const char *kernel_names[] = {"portable", "mulx"};

static void api_arith(const field *f, long iters)
{
    int bad = 0;
    mpz_t va, vb, w;
    mpz_inits(va, vb, w, NULL);
    for (long it = 0; it < iters; it++) {
        elem a, b, r, x;
        random_elem(&a, f, (int)(it % (2 * NEDGES)));
        if (it < NEDGES * NEDGES)
            random_elem(&b, f, (int)(it / NEDGES));
        else if (test_rand_below(8) == 0)
            b = a;
        else
            random_elem(&b, f, NEDGES);
        elem_value(va, f, &a);
        elem_value(vb, f, &b);

        mpz_add(w, va, vb), mpz_mod(w, w, f->p);
        f->add(&r, &a, &b);
        bad += !expect_value(f, &r, w, "add");
        x = a, f->add(&x, &x, &b); /* r == a */
        bad += !same(f, &x, &r);
        x = b, f->add(&x, &a, &x); /* r == b */
        bad += !same(f, &x, &r);

        mpz_sub(w, va, vb), mpz_mod(w, w, f->p);
        f->sub(&r, &a, &b);
        bad += !expect_value(f, &r, w, "sub");
        x = a, f->sub(&x, &x, &b);
        bad += !same(f, &x, &r);
        x = b, f->sub(&x, &a, &x);
        bad += !same(f, &x, &r);

        mpz_neg(w, va), mpz_mod(w, w, f->p);
        f->neg(&r, &a);
        bad += !expect_value(f, &r, w, "neg");
        x = a, f->neg(&x, &x);
        bad += !same(f, &x, &r);

        mpz_mul(w, va, vb), mpz_mod(w, w, f->p);
        f->mul(&r, &a, &b);
        bad += !expect_value(f, &r, w, "mul");
        x = a, f->mul(&x, &x, &b);
        bad += !same(f, &x, &r);
        x = b, f->mul(&x, &a, &x);
        bad += !same(f, &x, &r);

        mpz_mul(w, va, va), mpz_mod(w, w, f->p);
        f->sqr(&r, &a);
        bad += !expect_value(f, &r, w, "sqr");
        x = a, f->sqr(&x, &x);
        bad += !same(f, &x, &r);
        x = a, f->mul(&x, &x, &x); /* r == a == b */
        bad += !same(f, &x, &r);

        bad += f->is_zero(&a) != (mpz_sgn(va) == 0);
        bad += f->is_one(&a) != (mpz_cmp_ui(va, 1) == 0);
        bad += f->equal(&a, &b) != (mpz_cmp(va, vb) == 0);
        if (bad) {
            gmp_printf("\n    %s (%s kernel): a = %Zx, b = %Zx", f->name,
                       mulred_field_kernel_name(), va, vb);
            break;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(va, vb, w, NULL);
}

static void api_inverse(const field *f, long iters)
{
    int bad = 0;
    mpz_t va, w;
    mpz_inits(va, w, NULL);
    for (long it = 0; it < iters; it++) {
        elem a, r, s, x;
        random_elem(&a, f, (int)(it % (2 * NEDGES)));
        elem_value(va, f, &a);
        if (mpz_sgn(va) == 0)
            mpz_set_ui(w, 0);
        else
            CU_ASSERT_FATAL(mpz_invert(w, va, f->p));
        f->inv_var(&r, &a);
        bad += !expect_value(f, &r, w, "inv_var");
        x = a, f->inv_var(&x, &x);
        bad += !same(f, &x, &r);
        if (it % 8 == 0) { /* Fermat: slower */
            f->inv(&s, &a);
            bad += !expect_value(f, &s, w, "inv (Fermat)");
            x = a, f->inv(&x, &x);
            bad += !same(f, &x, &s);
        }
        if (bad) {
            gmp_printf("\n    %s (%s kernel): a = %Zx", f->name, mulred_field_kernel_name(), va);
            break;
        }
    }
    /* values of every size: 2^k and 2^k − 1 (long runs of zero and one bits for the divsteps) */
    for (int k = 0; k < (int)mpz_sizeinbase(f->p, 2) - 1 && !bad; k++)
        for (int m = 0; m < 2; m++) {
            elem a, r;
            mpz_set_ui(va, 0);
            mpz_setbit(va, (mp_bitcnt_t)k);
            if (m) mpz_sub_ui(va, va, 1);
            if (mpz_sgn(va) == 0) continue;
            elem_set(&a, f, va);
            mpz_invert(w, va, f->p);
            f->inv_var(&r, &a);
            bad += !expect_value(f, &r, w, "inv_var of 2^k (−1)");
        }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(va, w, NULL);
}

static void api_batch_inverse(const field *f)
{
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 257};
    mpz_t v, w;
    mpz_inits(v, w, NULL);
    int bad = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t n = sizes[si];
        elem *a = calloc(n + 1, sizeof *a), *r = calloc(n + 1, sizeof *r);
        CU_ASSERT_FATAL(a && r);
        for (size_t i = 0; i < n; i++) {
            random_elem(&a[i], f, (int)test_rand_below(2 * NEDGES));
            if (test_rand_below(6) == 0) f->set_zero(&a[i]); /* zeros inside the batch */
        }
        if (n == 3) f->set_zero(&a[0]), f->set_zero(&a[2]); /* zeros at both ends */
        for (int in_place = 0; in_place < 2; in_place++) {
            f->batch_inv(r, a, n, in_place);
            for (size_t i = 0; i < n; i++) {
                elem_value(v, f, &a[i]);
                if (mpz_sgn(v) == 0)
                    mpz_set_ui(w, 0);
                else
                    mpz_invert(w, v, f->p);
                bad += !expect_value(f, &r[i], w, "batch_inv_var");
            }
        }
        free(a);
        free(r);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(v, w, NULL);
}

static void api_pow_sqrt(const field *f, long iters)
{
    int bad = 0;
    mpz_t va, e, w, half, quarter;
    mpz_inits(va, e, w, half, quarter, NULL);
    mpz_sub_ui(half, f->p, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    mpz_add_ui(quarter, f->p, 1);
    mpz_fdiv_q_2exp(quarter, quarter, 2);
    for (long it = 0; it < iters && !bad; it++) {
        elem a, r, x;
        uint64_t el[MAXN];
        random_elem(&a, f, (int)(it % (2 * NEDGES)));
        elem_value(va, f, &a);
        /* pow: random exponents, and 0, 1, all ones */
        for (int i = 0; i < f->n; i++) el[i] = test_rand64();
        if (it == 0) memset(el, 0, sizeof el);
        if (it == 1) memset(el, 0, sizeof el), el[0] = 1;
        if (it == 2) memset(el, 0xff, sizeof el);
        to_mpz(e, el, f->n);
        mpz_powm(w, va, e, f->p);
        f->pow(&r, &a, el);
        bad += !expect_value(f, &r, w, "pow");
        x = a, f->pow(&x, &x, el);
        bad += !same(f, &x, &r);
        if (!f->base) continue;
        /* sqrt: exactly a^((p+1)/4), true iff a is a square; is_square by Legendre */
        const int square = mpz_legendre(va, f->p) >= 0;
        bad += f->is_square(&a) != square;
        mpz_powm(w, va, quarter, f->p);
        bool ok = f->sqrt(&r, &a);
        bad += ok != square;
        bad += !expect_value(f, &r, w, "sqrt");
        if (square) { /* and then r² = a */
            mpz_mul(e, w, w);
            mpz_mod(e, e, f->p);
            bad += mpz_cmp(e, va) != 0;
        }
        x = a, f->sqrt(&x, &x);
        bad += !same(f, &x, &r);
        /* squares of random values are squares; their roots are ± the value */
        f->sqr(&x, &a);
        ok = f->sqrt(&r, &x);
        bad += !ok;
        mpz_t s;
        mpz_init(s);
        elem_value(s, f, &r);
        mpz_sub(e, f->p, va);
        mpz_mod(e, e, f->p);
        bad += mpz_cmp(s, va) != 0 && mpz_cmp(s, e) != 0;
        mpz_clear(s);
        bad += f->is_odd(&a) != (mpz_odd_p(va) != 0);
        if (bad)
            gmp_printf("\n    %s (%s kernel): a = %Zx", f->name, mulred_field_kernel_name(), va);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(va, e, w, half, quarter, NULL);
}

/* Conversions: bytes and limbs against mpz, non-canonical inputs rejected. */
static void api_conversions(const field *f, long iters)
{
    int bad = 0;
    mpz_t v, z;
    mpz_inits(v, z, NULL);
    for (long it = 0; it < iters && !bad; it++) {
        uint64_t in[MAXN] = {0}, out[MAXN];
        uint8_t bytes[48], back[48];
        elem a, b;
        if (it < NEDGES)
            edge_value(in, f, (int)it);
        else
            random_value(in, f);
        to_mpz(v, in, f->n);
        /* from_limbs: residue v·R mod p */
        bad += !f->from_limbs(&a, in);
        mpz_mul(z, v, f->R);
        mpz_mod(z, z, f->p);
        to_mpz(v, a.l, f->n);
        bad += mpz_cmp(v, z) != 0;
        f->to_limbs(out, &a);
        bad += memcmp(out, in, (size_t)f->n * 8) != 0;
        /* bytes: big-endian of the integer, via mpz_export */
        to_mpz(v, in, f->n);
        memset(bytes, 0, sizeof bytes);
        size_t count;
        mpz_export(bytes + f->bytes - (mpz_sizeinbase(v, 256) * (mpz_sgn(v) != 0)), &count, 1, 1, 1,
                   0, v);
        bad += !f->from_bytes(&b, bytes);
        bad += !same(f, &a, &b);
        f->to_bytes(back, &a);
        bad += memcmp(back, bytes, (size_t)f->bytes) != 0;
    }
    /* set_u64 and set_one/zero */
    for (int it = 0; it < 100; it++) {
        elem a;
        const uint64_t x = it < 3 ? (uint64_t)it : it == 3 ? UINT64_MAX : test_rand64();
        f->set_u64(&a, x);
        mpz_set_ui(v, 0);
        mpz_import(v, 1, -1, 8, 0, 0, &x);
        bad += !expect_value(f, &a, v, "set_u64");
    }
    {
        elem a;
        f->set_one(&a);
        mpz_set_ui(v, 1);
        bad += !expect_value(f, &a, v, "set_one");
        f->set_zero(&a);
        bad += !f->is_zero(&a);
    }
    /* non-canonical: p, p + 1, 2^(bits) − 1 (just under 2^381 / 2^254 / 2^255), 2^(64n) − 1 */
    for (int k = 0; k < 5; k++) {
        uint64_t in[MAXN] = {0};
        uint8_t bytes[48] = {0};
        elem a;
        switch (k) {
        case 0:
            mpz_set(v, f->p);
            break;
        case 1:
            mpz_add_ui(v, f->p, 1);
            break;
        case 2:
            mpz_set_ui(v, 0), mpz_setbit(v, mpz_sizeinbase(f->p, 2)), mpz_sub_ui(v, v, 1);
            break;
        case 3:
            mpz_set_ui(v, 0), mpz_setbit(v, (mp_bitcnt_t)(64 * f->n)), mpz_sub_ui(v, v, 1);
            break;
        default:
            mpz_mul_2exp(v, f->p, 1), mpz_sub_ui(v, v, 1); /* 2p − 1 */
            break;
        }
        if (mpz_sizeinbase(v, 2) > (size_t)(64 * f->n)) continue;
        from_mpz(in, f->n, v);
        memset(&a, 0x5a, sizeof a);
        bad += f->from_limbs(&a, in);
        bad += !f->is_zero(&a);
        mpz_export(bytes + f->bytes - mpz_sizeinbase(v, 256), NULL, 1, 1, 1, 0, v);
        memset(&a, 0x5a, sizeof a);
        bad += f->from_bytes(&a, bytes);
        bad += !f->is_zero(&a);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(v, z, NULL);
}

static void for_each_kernel(void (*fn)(const field *f, long iters), long iters)
{
    for (int kk = 0; kk < 2; kk++) {
        if (mulred_field_kernel_force(kernel_names[kk]) != 0) {
            char why[96];
            snprintf(why, sizeof why, "field kernel %s not available on this CPU",
                     kernel_names[kk]);
            test_skip(why);
            continue;
        }
        for (int fi = 0; fi < NFIELDS; fi++) fn(&fields[fi], iters);
    }
    /* back to the default */
    mulred_field_kernel_force(mulred_field_have_mulx() ? "mulx" : "portable");
}

static void test_api_arith(void)
{
    for_each_kernel(api_arith, 20000);
}

static void test_api_inverse(void)
{
    for_each_kernel(api_inverse, 3000);
}

static void batch_wrap(const field *f, long iters)
{
    (void)iters;
    api_batch_inverse(f);
}

static void test_api_batch_inverse(void)
{
    for_each_kernel(batch_wrap, 0);
}

static void test_api_pow_sqrt(void)
{
    for_each_kernel(api_pow_sqrt, 300);
}

static void test_api_conversions(void)
{
    for_each_kernel(api_conversions, 3000);
}

void test_register(void)
{
    for (int i = 0; i < NFIELDS; i++) mpz_inits(fields[i].p, fields[i].R, fields[i].Rinv, NULL);
    derive_moduli();
    TEST_SUITE("field", {"constants derived with GMP", test_constants},
               {"kernels: edge values and aliasing", test_kernels_edges},
               {"kernels: random inputs against mpz", test_kernels_random},
               {"kernels: chains of 10,000 products", test_kernels_chain},
               {"kernels: other moduli up to 2^(64n-1)", test_kernels_moduli},
               {"limb helpers: C and assembly add, sub, neg", test_limb_helpers},
               {"add, sub, neg, mul, sqr, predicates", test_api_arith},
               {"inverse (divsteps and Fermat) against mpz_invert", test_api_inverse},
               {"batch inversion, zeros inside", test_api_batch_inverse},
               {"pow, sqrt, is_square, is_odd", test_api_pow_sqrt},
               {"bytes and limbs, non-canonical rejected", test_api_conversions});
}

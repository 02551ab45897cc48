/* G1 of BLS12-381 and BN254 (include/mulred/curve.h, src/curve/) against a slow affine
 * reference written here with GMP: chord and tangent slopes with mpz_invert, double-and-add.
 *
 * Every coordinate system (affine, Jacobian, XYZZ) and every operation is compared with the
 * reference on random points (with random projective scalings, so inputs are not normalised)
 * and on the exceptional cases: infinity as either operand, P + P, P + (−P); the batch-affine
 * addition on batches of every shape (repeated points, doubling, opposite points, infinity
 * on either side, acc[i] and pts[i] the same object, one point added to many accumulators),
 * and a repeated accumulator must abort (checked in a child process). Group laws; scalar
 * multiplication on edge and random scalars. Everything runs under each field kernel
 * (portable and MULX).
 *
 * Points: random x until x³ + b is a square (so, for BLS12-381, mostly outside G1: the
 * formulas hold on the whole curve), and subgroup points as cofactor multiples. */
#include <gmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "curve/curve_internal.h"
#include "curve/g1_batch.h"
#include "field/field_internal.h"
#include "field/field_x8.h"
#include "harness.h"
#include "g1_decode.h"
#include "mulred/curve.h"
#include "mulred/field.h"
#include "util/util.h"

#define MAXN 6

/* ---- the reference --------------------------------------------------------------------- */

typedef struct {
    mpz_t x, y;
    int inf;
} ref_point;

typedef struct {
    const char *name;
    int n; /* limbs of Fp */
    mpz_t p, b, r, h;
    const char *gen_x, *gen_y; /* published generator, hex */
} ref_curve;

static ref_curve curves[2] = {
    {"bls12_381",
     6,
     {{0}},
     {{0}},
     {{0}},
     {{0}},
     "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22"
     "c6bb",
     "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5"
     "e7e1"},
    {"bn254", 4, {{0}}, {{0}}, {{0}}, {{0}}, "1", "2"},
};

static void rp_init(ref_point *a)
{
    mpz_inits(a->x, a->y, NULL);
    a->inf = 1;
}

static void rp_clear(ref_point *a)
{
    mpz_clears(a->x, a->y, NULL);
}

static void rp_set(ref_point *r, const ref_point *a)
{
    mpz_set(r->x, a->x);
    mpz_set(r->y, a->y);
    r->inf = a->inf;
}

static int rp_equal(const ref_point *a, const ref_point *b)
{
    if (a->inf || b->inf) return a->inf && b->inf;
    return mpz_cmp(a->x, b->x) == 0 && mpz_cmp(a->y, b->y) == 0;
}

static int rp_on_curve(const ref_curve *c, const ref_point *a)
{
    if (a->inf) return 1;
    mpz_t l, r;
    mpz_inits(l, r, NULL);
    mpz_mul(l, a->y, a->y);
    mpz_powm_ui(r, a->x, 3, c->p);
    mpz_add(r, r, c->b);
    mpz_sub(l, l, r);
    int ok = mpz_divisible_p(l, c->p);
    mpz_clears(l, r, NULL);
    return ok;
}

/* r = a + b, slopes by mpz_invert. r may alias a or b. */
static void rp_add(const ref_curve *c, ref_point *r, const ref_point *a, const ref_point *b)
{
    if (a->inf) {
        rp_set(r, b);
        return;
    }
    if (b->inf) {
        rp_set(r, a);
        return;
    }
    mpz_t lam, t, x3, y3;
    mpz_inits(lam, t, x3, y3, NULL);
    if (mpz_cmp(a->x, b->x) == 0) {
        mpz_add(t, a->y, b->y);
        if (mpz_divisible_p(t, c->p)) { /* b = −a */
            r->inf = 1;
            mpz_clears(lam, t, x3, y3, NULL);
            return;
        }
        /* tangent: 3x² / 2y */
        mpz_mul(lam, a->x, a->x);
        mpz_mul_ui(lam, lam, 3);
        mpz_mul_ui(t, a->y, 2);
    } else {
        mpz_sub(lam, b->y, a->y);
        mpz_sub(t, b->x, a->x);
    }
    mpz_mod(t, t, c->p);
    CU_ASSERT_FATAL(mpz_invert(t, t, c->p) != 0);
    mpz_mul(lam, lam, t);
    mpz_mod(lam, lam, c->p);
    mpz_mul(x3, lam, lam);
    mpz_sub(x3, x3, a->x);
    mpz_sub(x3, x3, b->x);
    mpz_mod(x3, x3, c->p);
    mpz_sub(y3, a->x, x3);
    mpz_mul(y3, y3, lam);
    mpz_sub(y3, y3, a->y);
    mpz_mod(y3, y3, c->p);
    mpz_swap(r->x, x3);
    mpz_swap(r->y, y3);
    r->inf = 0;
    mpz_clears(lam, t, x3, y3, NULL);
}

static void rp_neg(const ref_curve *c, ref_point *r, const ref_point *a)
{
    rp_set(r, a);
    if (!a->inf) {
        mpz_neg(r->y, a->y);
        mpz_mod(r->y, r->y, c->p);
    }
}

/* r = k·a, k >= 0, right-to-left double-and-add */
static void rp_mul(const ref_curve *c, ref_point *r, const ref_point *a, const mpz_t k)
{
    ref_point acc, base;
    rp_init(&acc);
    rp_init(&base);
    rp_set(&base, a);
    const size_t bits = mpz_sizeinbase(k, 2);
    for (size_t i = 0; i < bits; i++) {
        if (mpz_tstbit(k, i)) rp_add(c, &acc, &acc, &base);
        rp_add(c, &base, &base, &base);
    }
    if (mpz_sgn(k) == 0) acc.inf = 1;
    rp_set(r, &acc);
    rp_clear(&acc);
    rp_clear(&base);
}

/* a random point of the curve (not necessarily in G1) */
static void rp_random(const ref_curve *c, ref_point *r)
{
    mpz_t x, rhs, e, y;
    mpz_inits(x, rhs, e, y, NULL);
    mpz_add_ui(e, c->p, 1);
    mpz_fdiv_q_2exp(e, e, 2);
    for (;;) {
        uint64_t l[MAXN];
        for (int i = 0; i < c->n; i++) l[i] = test_rand64();
        mpz_import(x, (size_t)c->n, -1, 8, 0, 0, l);
        mpz_mod(x, x, c->p);
        mpz_powm_ui(rhs, x, 3, c->p);
        mpz_add(rhs, rhs, c->b);
        mpz_mod(rhs, rhs, c->p);
        if (mpz_legendre(rhs, c->p) != 1) continue;
        mpz_powm(y, rhs, e, c->p);
        if (test_rand_below(2)) mpz_sub(y, c->p, y);
        break;
    }
    mpz_set(r->x, x);
    mpz_set(r->y, y);
    r->inf = 0;
    mpz_clears(x, rhs, e, y, NULL);
}

/* a random point of G1 (cofactor times a random curve point) */
static void rp_random_g1(const ref_curve *c, ref_point *r)
{
    rp_random(c, r);
    if (mpz_cmp_ui(c->h, 1) != 0) rp_mul(c, r, r, c->h);
}

/* ---- the library, wrapped over both curves ------------------------------------------------ */

typedef union {
    mulred_g1_381_affine c381;
    mulred_g1_254_affine c254;
} aff;
typedef union {
    mulred_g1_381_jacobian c381;
    mulred_g1_254_jacobian c254;
} jac;
typedef union {
    mulred_g1_381_xyzz c381;
    mulred_g1_254_xyzz c254;
} xyzz;
typedef union {
    mulred_fp381 c381;
    mulred_fp254 c254;
    uint64_t l[MAXN];
} fe;

typedef struct {
    size_t aff_size;
    void (*generator)(aff *);
    bool (*a_is_inf)(const aff *);
    void (*a_set_inf)(aff *);
    bool (*a_on_curve)(const aff *);
    bool (*a_equal)(const aff *, const aff *);
    void (*a_neg)(aff *, const aff *);
    void (*j_from_a)(jac *, const aff *);
    void (*j_to_a)(aff *, const jac *);
    bool (*j_equal)(const jac *, const jac *);
    bool (*j_is_inf)(const jac *);
    void (*j_set_inf)(jac *);
    void (*j_neg)(jac *, const jac *);
    void (*j_dbl)(jac *, const jac *);
    void (*j_add)(jac *, const jac *, const jac *);
    void (*j_madd)(jac *, const jac *, const aff *);
    void (*j_mul)(jac *, const jac *, const uint64_t *);
    void (*x_from_a)(xyzz *, const aff *);
    void (*x_to_a)(aff *, const xyzz *);
    void (*x_to_j)(jac *, const xyzz *);
    bool (*x_equal)(const xyzz *, const xyzz *);
    bool (*x_is_inf)(const xyzz *);
    void (*x_set_inf)(xyzz *);
    void (*x_neg)(xyzz *, const xyzz *);
    void (*x_dbl)(xyzz *, const xyzz *);
    void (*x_add)(xyzz *, const xyzz *, const xyzz *);
    void (*x_madd)(xyzz *, const xyzz *, const aff *);
    void (*x_msub)(xyzz *, const xyzz *, const aff *);
    /* arrays use the curve's own stride: these take arrays of the union and copy */
    void (*j_batch_to_a)(aff *, const jac *, size_t);
    void (*x_batch_to_a)(aff *, const xyzz *, size_t);
    /* batch add over pointers into an array of the curve's own type */
    size_t (*batch_scratch)(size_t);
    void (*batch_add)(void *const *acc, const void *const *pts, size_t n, void *scratch);
    /* the pairs form: per pair flags (MULRED_PAIR_NEG, MULRED_PAIR_ENDO), on the given lanes */
    void (*batch_add_pairs)(void *const *acc, const void *const *pts, const uint32_t *flags,
                            size_t n, mulred_lanes lanes);
    /* field */
    void (*fe_from_mpz)(fe *, const mpz_t);
    void (*fe_to_mpz)(mpz_t, const fe *);
    void (*fe_mul)(fe *, const fe *, const fe *);
    void (*fe_sqr)(fe *, const fe *);
} lib_curve;

#define WRAP_CURVE(G, C, FP, N)                                                                    \
    static void G##_fe_from_mpz(fe *r, const mpz_t z)                                              \
    {                                                                                              \
        uint64_t l[N] = {0};                                                                       \
        mpz_export(l, NULL, -1, 8, 0, 0, z);                                                       \
        CU_ASSERT_FATAL(mulred_##FP##_from_limbs(&r->C, l) == MULRED_OK);                          \
    }                                                                                              \
    static void G##_fe_to_mpz(mpz_t z, const fe *a)                                                \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        mulred_##FP##_to_limbs(l, &a->C);                                                          \
        mpz_import(z, N, -1, 8, 0, 0, l);                                                          \
    }                                                                                              \
    static void G##_fe_mul(fe *r, const fe *a, const fe *b)                                        \
    {                                                                                              \
        mulred_##FP##_mul(&r->C, &a->C, &b->C);                                                    \
    }                                                                                              \
    static void G##_fe_sqr(fe *r, const fe *a)                                                     \
    {                                                                                              \
        mulred_##FP##_sqr(&r->C, &a->C);                                                           \
    }                                                                                              \
    static void G##_generator(aff *r)                                                              \
    {                                                                                              \
        mulred_##G##_generator(&r->C);                                                             \
    }                                                                                              \
    static bool G##_a_is_inf(const aff *a)                                                         \
    {                                                                                              \
        return mulred_##G##_affine_is_infinity(&a->C);                                             \
    }                                                                                              \
    static void G##_a_set_inf(aff *a)                                                              \
    {                                                                                              \
        mulred_##G##_affine_set_infinity(&a->C);                                                   \
    }                                                                                              \
    static bool G##_a_on_curve(const aff *a)                                                       \
    {                                                                                              \
        return mulred_##G##_affine_is_on_curve(&a->C);                                             \
    }                                                                                              \
    static bool G##_a_equal(const aff *a, const aff *b)                                            \
    {                                                                                              \
        return mulred_##G##_affine_equal(&a->C, &b->C);                                            \
    }                                                                                              \
    static void G##_a_neg(aff *r, const aff *a)                                                    \
    {                                                                                              \
        mulred_##G##_affine_neg(&r->C, &a->C);                                                     \
    }                                                                                              \
    static void G##_j_from_a(jac *r, const aff *a)                                                 \
    {                                                                                              \
        mulred_##G##_jacobian_from_affine(&r->C, &a->C);                                           \
    }                                                                                              \
    static void G##_j_to_a(aff *r, const jac *a)                                                   \
    {                                                                                              \
        mulred_##G##_jacobian_to_affine(&r->C, &a->C);                                             \
    }                                                                                              \
    static bool G##_j_equal(const jac *a, const jac *b)                                            \
    {                                                                                              \
        return mulred_##G##_jacobian_equal(&a->C, &b->C);                                          \
    }                                                                                              \
    static bool G##_j_is_inf(const jac *a)                                                         \
    {                                                                                              \
        return mulred_##G##_jacobian_is_infinity(&a->C);                                           \
    }                                                                                              \
    static void G##_j_set_inf(jac *a)                                                              \
    {                                                                                              \
        mulred_##G##_jacobian_set_infinity(&a->C);                                                 \
    }                                                                                              \
    static void G##_j_neg(jac *r, const jac *a)                                                    \
    {                                                                                              \
        mulred_##G##_jacobian_neg(&r->C, &a->C);                                                   \
    }                                                                                              \
    static void G##_j_dbl(jac *r, const jac *a)                                                    \
    {                                                                                              \
        mulred_##G##_jacobian_double(&r->C, &a->C);                                                \
    }                                                                                              \
    static void G##_j_add(jac *r, const jac *a, const jac *b)                                      \
    {                                                                                              \
        mulred_##G##_jacobian_add(&r->C, &a->C, &b->C);                                            \
    }                                                                                              \
    static void G##_j_madd(jac *r, const jac *a, const aff *b)                                     \
    {                                                                                              \
        mulred_##G##_jacobian_add_affine(&r->C, &a->C, &b->C);                                     \
    }                                                                                              \
    static void G##_j_mul(jac *r, const jac *a, const uint64_t *k)                                 \
    {                                                                                              \
        mulred_##G##_jacobian_mul_var(&r->C, &a->C, k);                                            \
    }                                                                                              \
    static void G##_x_from_a(xyzz *r, const aff *a)                                                \
    {                                                                                              \
        mulred_##G##_xyzz_from_affine(&r->C, &a->C);                                               \
    }                                                                                              \
    static void G##_x_to_a(aff *r, const xyzz *a)                                                  \
    {                                                                                              \
        mulred_##G##_xyzz_to_affine(&r->C, &a->C);                                                 \
    }                                                                                              \
    static void G##_x_to_j(jac *r, const xyzz *a)                                                  \
    {                                                                                              \
        mulred_##G##_xyzz_to_jacobian(&r->C, &a->C);                                               \
    }                                                                                              \
    static bool G##_x_equal(const xyzz *a, const xyzz *b)                                          \
    {                                                                                              \
        return mulred_##G##_xyzz_equal(&a->C, &b->C);                                              \
    }                                                                                              \
    static bool G##_x_is_inf(const xyzz *a)                                                        \
    {                                                                                              \
        return mulred_##G##_xyzz_is_infinity(&a->C);                                               \
    }                                                                                              \
    static void G##_x_set_inf(xyzz *a)                                                             \
    {                                                                                              \
        mulred_##G##_xyzz_set_infinity(&a->C);                                                     \
    }                                                                                              \
    static void G##_x_neg(xyzz *r, const xyzz *a)                                                  \
    {                                                                                              \
        mulred_##G##_xyzz_neg(&r->C, &a->C);                                                       \
    }                                                                                              \
    static void G##_x_dbl(xyzz *r, const xyzz *a)                                                  \
    {                                                                                              \
        mulred_##G##_xyzz_double(&r->C, &a->C);                                                    \
    }                                                                                              \
    static void G##_x_add(xyzz *r, const xyzz *a, const xyzz *b)                                   \
    {                                                                                              \
        mulred_##G##_xyzz_add(&r->C, &a->C, &b->C);                                                \
    }                                                                                              \
    static void G##_x_madd(xyzz *r, const xyzz *a, const aff *b)                                   \
    {                                                                                              \
        mulred_##G##_xyzz_add_affine(&r->C, &a->C, &b->C);                                         \
    }                                                                                              \
    static void G##_x_msub(xyzz *r, const xyzz *a, const aff *b)                                   \
    {                                                                                              \
        mulred_##G##_xyzz_sub_affine(&r->C, &a->C, &b->C);                                         \
    }                                                                                              \
    static void G##_j_batch_to_a(aff *r, const jac *a, size_t n)                                   \
    {                                                                                              \
        mulred_##G##_jacobian *x = calloc(n + 1, sizeof *x);                                       \
        mulred_##G##_affine *y = calloc(n + 1, sizeof *y);                                         \
        void *s = malloc(mulred_##G##_batch_to_affine_scratch_size(n) + 1);                        \
        CU_ASSERT_FATAL(x &&y &&s);                                                                \
        for (size_t i = 0; i < n; i++) x[i] = a[i].C;                                              \
        mulred_##G##_jacobian_batch_to_affine_var(y, x, n, s);                                     \
        for (size_t i = 0; i < n; i++) r[i].C = y[i];                                              \
        free(x), free(y), free(s);                                                                 \
    }                                                                                              \
    static void G##_x_batch_to_a(aff *r, const xyzz *a, size_t n)                                  \
    {                                                                                              \
        mulred_##G##_xyzz *x = calloc(n + 1, sizeof *x);                                           \
        mulred_##G##_affine *y = calloc(n + 1, sizeof *y);                                         \
        void *s = malloc(mulred_##G##_batch_to_affine_scratch_size(n) + 1);                        \
        CU_ASSERT_FATAL(x &&y &&s);                                                                \
        for (size_t i = 0; i < n; i++) x[i] = a[i].C;                                              \
        mulred_##G##_xyzz_batch_to_affine_var(y, x, n, s);                                         \
        for (size_t i = 0; i < n; i++) r[i].C = y[i];                                              \
        free(x), free(y), free(s);                                                                 \
    }                                                                                              \
    static size_t G##_batch_scratch(size_t n)                                                      \
    {                                                                                              \
        return mulred_##G##_batch_add_affine_scratch_size(n);                                      \
    }                                                                                              \
    static void G##_batch_add(void *const *acc, const void *const *pts, size_t n, void *scratch)   \
    {                                                                                              \
        mulred_##G##_batch_add_affine_var((mulred_##G##_affine *const *)acc,                       \
                                          (const mulred_##G##_affine *const *)pts, n, scratch);    \
    }                                                                                              \
    static void G##_batch_add_pairs(void *const *acc, const void *const *pts,                      \
                                    const uint32_t *flags, size_t n, mulred_lanes lanes)           \
    {                                                                                              \
        mulred_##G##_affine_pair *pr = calloc(n + 1, sizeof *pr);                                  \
        void *s = malloc(mulred_##G##_batch_add_pairs_scratch_size(n) + 1);                        \
        CU_ASSERT_FATAL(pr &&s);                                                                   \
        for (size_t i = 0; i < n; i++)                                                             \
            pr[i] = (mulred_##G##_affine_pair){acc[i], pts[i], flags[i]};                          \
        /* scratch at an odd address: any alignment is allowed */                                  \
        mulred_##G##_batch_add_pairs_var(pr, n, lanes, (char *)s + 1);                             \
        free(pr), free(s);                                                                         \
    }

WRAP_CURVE(g1_381, c381, fp381, 6)
WRAP_CURVE(g1_254, c254, fp254, 4)

#define LIB_ENTRY(G, C)                                                                            \
    {                                                                                              \
        sizeof(mulred_##G##_affine), G##_generator, G##_a_is_inf, G##_a_set_inf, G##_a_on_curve,   \
            G##_a_equal, G##_a_neg, G##_j_from_a, G##_j_to_a, G##_j_equal, G##_j_is_inf,           \
            G##_j_set_inf, G##_j_neg, G##_j_dbl, G##_j_add, G##_j_madd, G##_j_mul, G##_x_from_a,   \
            G##_x_to_a, G##_x_to_j, G##_x_equal, G##_x_is_inf, G##_x_set_inf, G##_x_neg,           \
            G##_x_dbl, G##_x_add, G##_x_madd, G##_x_msub, G##_j_batch_to_a, G##_x_batch_to_a,      \
            G##_batch_scratch, G##_batch_add, G##_batch_add_pairs, G##_fe_from_mpz, G##_fe_to_mpz, \
            G##_fe_mul, G##_fe_sqr                                                                 \
    }

static const lib_curve libs[2] = {LIB_ENTRY(g1_381, c381), LIB_ENTRY(g1_254, c254)};

/* ---- conversions between the library and the reference ------------------------------------ */

/* the affine coordinates of a are set from the reference point (infinity: (0, 0)) */
static void to_aff(int ci, aff *r, const ref_point *a)
{
    const lib_curve *L = &libs[ci];
    memset(r, 0, L->aff_size); /* r may be an element of an array of the curve's own type */
    if (a->inf) {
        L->a_set_inf(r);
        return;
    }
    fe x, y;
    L->fe_from_mpz(&x, a->x);
    L->fe_from_mpz(&y, a->y);
    const size_t half = L->aff_size / 2;
    memcpy(r, &x, half);
    memcpy((char *)r + half, &y, half);
}

static void from_aff(int ci, ref_point *r, const aff *a)
{
    const lib_curve *L = &libs[ci];
    if (L->a_is_inf(a)) {
        r->inf = 1;
        return;
    }
    fe x = {{{0}}}, y = {{{0}}};
    const size_t half = L->aff_size / 2;
    memcpy(&x, a, half);
    memcpy(&y, (const char *)a + half, half);
    L->fe_to_mpz(r->x, &x);
    L->fe_to_mpz(r->y, &y);
    r->inf = 0;
}

/* a random non-zero field element */
static void random_fe(int ci, fe *r)
{
    mpz_t z;
    mpz_init(z);
    do {
        uint64_t l[MAXN];
        for (int i = 0; i < curves[ci].n; i++) l[i] = test_rand64();
        mpz_import(z, (size_t)curves[ci].n, -1, 8, 0, 0, l);
        mpz_mod(z, z, curves[ci].p);
    } while (mpz_sgn(z) == 0);
    libs[ci].fe_from_mpz(r, z);
    mpz_clear(z);
}

/* field element i of a projective point (x, y, z[, zzz]) stored as consecutive elements */
static fe *coord(int ci, void *pt, int i)
{
    return (fe *)((char *)pt + (size_t)i * libs[ci].aff_size / 2);
}

/* Jacobian form of a with a random scaling (λ²X, λ³Y, λZ) */
static void to_jac(int ci, jac *r, const ref_point *a)
{
    const lib_curve *L = &libs[ci];
    aff t;
    to_aff(ci, &t, a);
    L->j_from_a(r, &t);
    if (a->inf) {
        if (test_rand_below(2)) { /* another infinity: random X, Y, Z = 0 */
            random_fe(ci, coord(ci, r, 0));
            random_fe(ci, coord(ci, r, 1));
        }
        return;
    }
    if (test_rand_below(4) == 0) return; /* Z = 1 */
    fe lam, l2, l3, tmp;
    random_fe(ci, &lam);
    L->fe_sqr(&l2, &lam);
    L->fe_mul(&l3, &l2, &lam);
    L->fe_mul(&tmp, coord(ci, r, 0), &l2);
    memcpy(coord(ci, r, 0), &tmp, L->aff_size / 2);
    L->fe_mul(&tmp, coord(ci, r, 1), &l3);
    memcpy(coord(ci, r, 1), &tmp, L->aff_size / 2);
    memcpy(coord(ci, r, 2), &lam, L->aff_size / 2);
}

/* XYZZ form with a random scaling (λ²X, λ³Y, λ²ZZ, λ³ZZZ) */
static void to_xyzz(int ci, xyzz *r, const ref_point *a)
{
    const lib_curve *L = &libs[ci];
    aff t;
    to_aff(ci, &t, a);
    L->x_from_a(r, &t);
    if (a->inf || test_rand_below(4) == 0) return;
    fe lam, l2, l3, tmp;
    random_fe(ci, &lam);
    L->fe_sqr(&l2, &lam);
    L->fe_mul(&l3, &l2, &lam);
    L->fe_mul(&tmp, coord(ci, r, 0), &l2);
    memcpy(coord(ci, r, 0), &tmp, L->aff_size / 2);
    L->fe_mul(&tmp, coord(ci, r, 1), &l3);
    memcpy(coord(ci, r, 1), &tmp, L->aff_size / 2);
    memcpy(coord(ci, r, 2), &l2, L->aff_size / 2);
    memcpy(coord(ci, r, 3), &l3, L->aff_size / 2);
}

static int jac_is(int ci, const jac *a, const ref_point *want)
{
    aff t;
    ref_point got;
    rp_init(&got);
    libs[ci].j_to_a(&t, a);
    from_aff(ci, &got, &t);
    int ok = rp_equal(&got, want) && (libs[ci].j_is_inf(a) == (want->inf != 0));
    rp_clear(&got);
    return ok;
}

static int xyzz_is(int ci, const xyzz *a, const ref_point *want)
{
    aff t;
    ref_point got;
    rp_init(&got);
    libs[ci].x_to_a(&t, a);
    from_aff(ci, &got, &t);
    int ok = rp_equal(&got, want) && (libs[ci].x_is_inf(a) == (want->inf != 0));
    rp_clear(&got);
    return ok;
}

static int aff_is(int ci, const aff *a, const ref_point *want)
{
    ref_point got;
    rp_init(&got);
    from_aff(ci, &got, a);
    int ok = rp_equal(&got, want);
    rp_clear(&got);
    return ok;
}

/* ---- tests ------------------------------------------------------------------------------ */

static const char *kernel_names[] = {"portable", "mulx"};

/* runs fn(curve) for both curves under each field kernel */
static void for_each(void (*fn)(int ci))
{
    for (int k = 0; k < 2; k++) {
        if (mulred_field_kernel_force(kernel_names[k]) != 0) {
            char why[96];
            snprintf(why, sizeof why, "field kernel %s not available on this CPU", kernel_names[k]);
            test_skip(why);
            continue;
        }
        for (int ci = 0; ci < 2; ci++) fn(ci);
    }
    mulred_field_kernel_force(mulred_field_have_mulx() ? "mulx" : "portable");
}

static void generator_case(int ci)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    ref_point g, t;
    rp_init(&g);
    rp_init(&t);
    mpz_set_str(g.x, c->gen_x, 16);
    mpz_set_str(g.y, c->gen_y, 16);
    g.inf = 0;
    aff a;
    L->generator(&a);
    CU_ASSERT(aff_is(ci, &a, &g));
    CU_ASSERT(rp_on_curve(c, &g));
    CU_ASSERT(L->a_on_curve(&a));
    rp_mul(c, &t, &g, c->r); /* order r */
    CU_ASSERT(t.inf);
    rp_clear(&g);
    rp_clear(&t);
}

static void test_generators(void)
{
    for_each(generator_case);
}

static void on_curve_case(int ci)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    ref_point p;
    rp_init(&p);
    aff a;
    L->a_set_inf(&a);
    CU_ASSERT(L->a_on_curve(&a));
    for (int i = 0; i < 50; i++) {
        rp_random(c, &p);
        to_aff(ci, &a, &p);
        CU_ASSERT(L->a_on_curve(&a));
        mpz_add_ui(p.y, p.y, 1 + test_rand_below(1000)); /* off the curve */
        mpz_mod(p.y, p.y, c->p);
        CU_ASSERT(rp_on_curve(c, &p) == 0);
        to_aff(ci, &a, &p);
        CU_ASSERT(!L->a_on_curve(&a));
    }
    /* (0, y) for y = 0 .. 3: (0, 0) is infinity; (0, ±2) is on BLS12-381 (order 3) */
    for (unsigned y = 1; y < 4; y++) {
        mpz_set_ui(p.x, 0);
        mpz_set_ui(p.y, y);
        p.inf = 0;
        to_aff(ci, &a, &p);
        CU_ASSERT(L->a_on_curve(&a) == (rp_on_curve(c, &p) != 0));
    }
    rp_clear(&p);
}

static void test_on_curve(void)
{
    for_each(on_curve_case);
}

/* P, Q for one iteration: random points, with the exceptional relations now and then */
static void pick_pair(int ci, ref_point *p, ref_point *q, int it)
{
    const ref_curve *c = &curves[ci];
    rp_random(c, p);
    switch (it % 8) {
    case 0:
        rp_set(q, p); /* P + P */
        break;
    case 1:
        rp_neg(c, q, p); /* P + (−P) */
        break;
    case 2:
        q->inf = 1; /* P + O */
        break;
    case 3:
        rp_random(c, q);
        p->inf = 1; /* O + Q */
        break;
    case 4:
        p->inf = 1, q->inf = 1; /* O + O */
        break;
    default:
        rp_random(c, q);
    }
}

static void add_case(int ci)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    ref_point p, q, s, d;
    rp_init(&p), rp_init(&q), rp_init(&s), rp_init(&d);
    int bad = 0;
    for (int it = 0; it < 400 && !bad; it++) {
        pick_pair(ci, &p, &q, it);
        rp_add(c, &s, &p, &q);
        rp_add(c, &d, &p, &p);
        jac jp, jq, jr, jt;
        xyzz xp, xq, xr, xt;
        aff aq, ar;
        to_jac(ci, &jp, &p);
        to_jac(ci, &jq, &q);
        to_xyzz(ci, &xp, &p);
        to_xyzz(ci, &xq, &q);
        to_aff(ci, &aq, &q);
        /* Jacobian */
        L->j_add(&jr, &jp, &jq);
        bad += !jac_is(ci, &jr, &s);
        jt = jp, L->j_add(&jt, &jt, &jq); /* r == a */
        bad += !jac_is(ci, &jt, &s);
        jt = jq, L->j_add(&jt, &jp, &jt); /* r == b */
        bad += !jac_is(ci, &jt, &s);
        L->j_madd(&jr, &jp, &aq);
        bad += !jac_is(ci, &jr, &s);
        jt = jp, L->j_madd(&jt, &jt, &aq);
        bad += !jac_is(ci, &jt, &s);
        L->j_dbl(&jr, &jp);
        bad += !jac_is(ci, &jr, &d);
        jt = jp, L->j_dbl(&jt, &jt);
        bad += !jac_is(ci, &jt, &d);
        /* XYZZ */
        L->x_add(&xr, &xp, &xq);
        bad += !xyzz_is(ci, &xr, &s);
        xt = xp, L->x_add(&xt, &xt, &xq);
        bad += !xyzz_is(ci, &xt, &s);
        xt = xq, L->x_add(&xt, &xp, &xt);
        bad += !xyzz_is(ci, &xt, &s);
        L->x_madd(&xr, &xp, &aq);
        bad += !xyzz_is(ci, &xr, &s);
        xt = xp, L->x_madd(&xt, &xt, &aq);
        bad += !xyzz_is(ci, &xt, &s);
        L->x_dbl(&xr, &xp);
        bad += !xyzz_is(ci, &xr, &d);
        xt = xp, L->x_dbl(&xt, &xt);
        bad += !xyzz_is(ci, &xt, &d);
        /* P − Q with the affine subtraction: P + (−Q) */
        {
            ref_point nq, sd;
            rp_init(&nq), rp_init(&sd);
            rp_neg(c, &nq, &q);
            rp_add(c, &sd, &p, &nq);
            L->x_msub(&xr, &xp, &aq);
            bad += !xyzz_is(ci, &xr, &sd);
            rp_clear(&nq), rp_clear(&sd);
        }
        /* conversions: XYZZ -> Jacobian; negations */
        L->x_to_j(&jr, &xp);
        bad += !jac_is(ci, &jr, &p);
        {
            ref_point np;
            rp_init(&np);
            rp_neg(c, &np, &p);
            L->j_neg(&jr, &jp);
            bad += !jac_is(ci, &jr, &np);
            L->x_neg(&xr, &xp);
            bad += !xyzz_is(ci, &xr, &np);
            to_aff(ci, &ar, &p);
            L->a_neg(&ar, &ar);
            bad += !aff_is(ci, &ar, &np);
            rp_clear(&np);
        }
        /* equality across scalings: the same point twice, and against Q */
        {
            jac j2;
            xyzz x2;
            to_jac(ci, &j2, &p);
            to_xyzz(ci, &x2, &p);
            bad += !L->j_equal(&jp, &j2);
            bad += !L->x_equal(&xp, &x2);
            bad += L->j_equal(&jp, &jq) != (rp_equal(&p, &q) != 0);
            bad += L->x_equal(&xp, &xq) != (rp_equal(&p, &q) != 0);
        }
        if (bad) {
            gmp_printf("\n    %s (%s kernel), iteration %d: P = (%Zx, %Zx, inf %d), Q = (%Zx, %Zx, "
                       "inf %d)",
                       c->name, mulred_field_kernel_name(), it, p.x, p.y, p.inf, q.x, q.y, q.inf);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    rp_clear(&p), rp_clear(&q), rp_clear(&s), rp_clear(&d);
}

static void test_additions(void)
{
    for_each(add_case);
}

static void group_law_case(int ci)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    ref_point p, q, r;
    rp_init(&p), rp_init(&q), rp_init(&r);
    int bad = 0;
    for (int it = 0; it < 100; it++) {
        rp_random(c, &p);
        rp_random(c, &q);
        rp_random(c, &r);
        if (it % 10 == 0) rp_set(&q, &p);
        if (it % 10 == 1) rp_neg(c, &r, &q);
        jac jp, jq, jr, s1, s2;
        to_jac(ci, &jp, &p);
        to_jac(ci, &jq, &q);
        to_jac(ci, &jr, &r);
        L->j_add(&s1, &jp, &jq); /* (P + Q) + R */
        L->j_add(&s1, &s1, &jr);
        L->j_add(&s2, &jq, &jr); /* P + (Q + R) */
        L->j_add(&s2, &jp, &s2);
        bad += !L->j_equal(&s1, &s2);
        L->j_add(&s1, &jp, &jq); /* P + Q = Q + P */
        L->j_add(&s2, &jq, &jp);
        bad += !L->j_equal(&s1, &s2);
        L->j_neg(&s1, &jp); /* P + (−P) = O, and O is the identity */
        L->j_add(&s1, &jp, &s1);
        bad += !L->j_is_inf(&s1);
        L->j_add(&s2, &s1, &jq);
        bad += !L->j_equal(&s2, &jq);
        xyzz xp, xq, xr, t1, t2;
        to_xyzz(ci, &xp, &p);
        to_xyzz(ci, &xq, &q);
        to_xyzz(ci, &xr, &r);
        L->x_add(&t1, &xp, &xq);
        L->x_add(&t1, &t1, &xr);
        L->x_add(&t2, &xq, &xr);
        L->x_add(&t2, &xp, &t2);
        bad += !L->x_equal(&t1, &t2);
        /* 2P + 2Q = 2(P + Q) */
        L->x_dbl(&t1, &xp);
        L->x_dbl(&t2, &xq);
        L->x_add(&t1, &t1, &t2);
        L->x_add(&t2, &xp, &xq);
        L->x_dbl(&t2, &t2);
        bad += !L->x_equal(&t1, &t2);
    }
    CU_ASSERT_EQUAL(bad, 0);
    rp_clear(&p), rp_clear(&q), rp_clear(&r);
}

static void test_group_laws(void)
{
    for_each(group_law_case);
}

static void from_mont(mpz_t z, int ci, const uint64_t *l);
static void rp_endo(const ref_curve *c, ref_point *r, const ref_point *a, const mpz_t beta);

/* Batch-affine addition: n pairs of every kind against the reference.
 * mode 0: the plain form. 1 and 2: the pairs form with random flags (a minus sign swaps the
 * doubling and opposite shapes; φ(Q) = (βx, y), β checked against GMP's cube roots in
 * test_glv_constants), on the scalar path (1) and on the 8-lane path (2; on a CPU without AVX-512
 * IFMA only in the build that emulates it, scripts/emulate.sh). */
static int batch_round(int ci, size_t n, int shape, int mode)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    const size_t sz = L->aff_size;
    char *accs = calloc(n + 1, sz), *pts = calloc(n + 1, sz);
    void **accp = calloc(n + 1, sizeof *accp);
    const void **ptsp = calloc(n + 1, sizeof *ptsp);
    ref_point *ra = malloc((n + 1) * sizeof *ra), *rq = malloc((n + 1) * sizeof *rq);
    void *scratch = malloc(L->batch_scratch(n) + 1);
    CU_ASSERT_FATAL(accs && pts && accp && ptsp && ra && rq && scratch);
    /* a few distinct points, so that repeats happen */
    enum { POOL = 6 };
    ref_point pool[POOL];
    for (int i = 0; i < POOL; i++) rp_init(&pool[i]), rp_random(c, &pool[i]);
    for (size_t i = 0; i < n; i++) {
        rp_init(&ra[i]);
        rp_init(&rq[i]);
        const uint64_t kind = shape == 0 ? test_rand_below(10) : (uint64_t)shape;
        rp_random(c, &ra[i]);
        rp_random(c, &rq[i]);
        switch (kind) {
        case 1: /* doubling */
            rp_set(&rq[i], &ra[i]);
            break;
        case 2: /* opposite */
            rp_neg(c, &rq[i], &ra[i]);
            break;
        case 3: /* acc at infinity */
            ra[i].inf = 1;
            break;
        case 4: /* pts at infinity */
            rq[i].inf = 1;
            break;
        case 5: /* both at infinity */
            ra[i].inf = 1, rq[i].inf = 1;
            break;
        case 6: /* repeated values from the pool (equal to other pairs' points) */
            rp_set(&ra[i], &pool[test_rand_below(POOL)]);
            rp_set(&rq[i], &pool[test_rand_below(POOL)]);
            break;
        default:
            break;
        }
        to_aff(ci, (aff *)(accs + i * sz), &ra[i]); /* aff is big enough for either curve */
        to_aff(ci, (aff *)(pts + i * sz), &rq[i]);
        accp[i] = accs + i * sz;
        ptsp[i] = pts + i * sz;
        /* one point shared with the previous pair (not when that pair's point is its own
         * accumulator: a pts[j] that is another pair's acc is outside the contract) */
        if (kind == 7 && i > 0 && ptsp[i - 1] != accp[i - 1])
            ptsp[i] = ptsp[i - 1], rp_set(&rq[i], &rq[i - 1]);
        if (kind == 8) ptsp[i] = accp[i], rp_set(&rq[i], &ra[i]); /* the same object: doubling */
    }
    uint32_t *flags = calloc(n + 1, sizeof *flags);
    CU_ASSERT_FATAL(flags != NULL);
    if (mode) {
        /* every combination of NEG and ENDO; the other bits are ignored */
        for (size_t i = 0; i < n; i++)
            flags[i] = (uint32_t)test_rand_below(4) | (uint32_t)test_rand_below(2) << 9;
        L->batch_add_pairs(accp, ptsp, flags, n, mode == 2 ? MULRED_LANES_X8 : MULRED_LANES_SCALAR);
    } else {
        L->batch_add(accp, ptsp, n, scratch);
    }
    int bad = 0;
    ref_point want;
    mpz_t beta;
    rp_init(&want);
    mpz_init(beta);
    from_mont(beta, ci, ci == 0 ? G1_381_BETA : G1_254_BETA);
    for (size_t i = 0; i < n; i++) {
        if (flags[i] & MULRED_PAIR_ENDO) rp_endo(c, &rq[i], &rq[i], beta);
        if (flags[i] & MULRED_PAIR_NEG) rp_neg(c, &rq[i], &rq[i]);
        rp_add(c, &want, &ra[i], &rq[i]);
        if (!aff_is(ci, (const aff *)(accs + i * sz), &want)) {
            if (!bad)
                printf("\n    %s (%s kernel, mode %d): batch of %zu, shape %d: pair %zu wrong",
                       c->name, mulred_field_kernel_name(), mode, n, shape, i);
            bad++;
        }
    }
    mpz_clear(beta);
    rp_clear(&want);
    for (size_t i = 0; i < n; i++) rp_clear(&ra[i]), rp_clear(&rq[i]);
    for (int i = 0; i < POOL; i++) rp_clear(&pool[i]);
    free(accs), free(pts), free(accp), free(ptsp), free(ra), free(rq), free(scratch), free(flags);
    return bad;
}

static void batch_case(int ci)
{
    static const size_t sizes[] = {0, 1, 2, 3, 5, 8, 17, 64, 255, 1024};
    int bad = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (int mode = 0; mode < (mulred_fieldx8_have_ifma() ? 3 : 2); mode++) {
            bad += batch_round(ci, sizes[si], 0, mode);
            if (sizes[si] > 0 && sizes[si] <= 64)
                for (int shape = 1; shape <= 8; shape++)
                    bad += batch_round(ci, sizes[si], shape, mode);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_batch_add(void)
{
    if (!mulred_fieldx8_have_ifma())
        printf("\n    (8-lane path: the CPU lacks AVX-512 IFMA; scripts/emulate.sh runs it)");
    for_each(batch_case);
}

/* The same accumulator twice in one batch is misuse: the library must abort (child). */
static void duplicate_case(int ci)
{
    const lib_curve *L = &libs[ci];
    const ref_curve *c = &curves[ci];
    fflush(stdout);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stderr); /* the abort message is expected */
        const size_t n = 8, sz = L->aff_size;
        char *accs = calloc(n, sz), *pts = calloc(n, sz);
        void *accp[8];
        const void *ptsp[8];
        void *scratch = malloc(L->batch_scratch(n));
        ref_point a;
        rp_init(&a);
        for (size_t i = 0; i < n; i++) {
            rp_random(c, &a);
            to_aff(ci, (aff *)(accs + i * sz), &a);
            rp_random(c, &a);
            to_aff(ci, (aff *)(pts + i * sz), &a);
            accp[i] = accs + i * sz;
            ptsp[i] = pts + i * sz;
        }
        accp[5] = accp[2]; /* repeated accumulator */
        L->batch_add(accp, ptsp, n, scratch);
        _exit(0); /* not reached when the library catches it */
    }
    int status = 0;
    CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
    CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

static void test_batch_duplicate(void)
{
    for (int ci = 0; ci < 2; ci++) duplicate_case(ci);
}

static void batch_normalize_case(int ci)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    static const size_t sizes[] = {0, 1, 2, 9, 100};
    int bad = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t n = sizes[si];
        jac *j = calloc(n + 1, sizeof *j);
        xyzz *x = calloc(n + 1, sizeof *x);
        aff *out = calloc(n + 1, sizeof *out);
        ref_point *rp = malloc((n + 1) * sizeof *rp);
        CU_ASSERT_FATAL(j && x && out && rp);
        for (size_t i = 0; i < n; i++) {
            rp_init(&rp[i]);
            rp_random(c, &rp[i]);
            if (test_rand_below(5) == 0) rp[i].inf = 1;
            to_jac(ci, &j[i], &rp[i]);
            to_xyzz(ci, &x[i], &rp[i]);
        }
        L->j_batch_to_a(out, j, n);
        for (size_t i = 0; i < n; i++) bad += !aff_is(ci, &out[i], &rp[i]);
        L->x_batch_to_a(out, x, n);
        for (size_t i = 0; i < n; i++) bad += !aff_is(ci, &out[i], &rp[i]);
        for (size_t i = 0; i < n; i++) rp_clear(&rp[i]);
        free(j), free(x), free(out), free(rp);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_batch_normalize(void)
{
    for_each(batch_normalize_case);
}

static void scalar_mul_case(int ci)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    ref_point p, want;
    rp_init(&p), rp_init(&want);
    mpz_t k, two256;
    mpz_inits(k, two256, NULL);
    mpz_setbit(two256, 256);
    int bad = 0;
    for (int it = 0; it < 40; it++) {
        if (it < 20)
            rp_random_g1(c, &p);
        else
            rp_random(c, &p); /* outside G1 for BLS12-381 */
        switch (it % 10) {
        case 0:
            mpz_set_ui(k, 0);
            break;
        case 1:
            mpz_set_ui(k, 1 + test_rand_below(40));
            break;
        case 2:
            mpz_sub_ui(k, c->r, 1);
            break;
        case 3:
            mpz_set(k, c->r);
            break;
        case 4:
            mpz_add_ui(k, c->r, 1);
            break;
        case 5:
            mpz_sub_ui(k, two256, 1);
            break;
        case 6: /* runs of ones and zeros */
            mpz_set_ui(k, 0);
            mpz_setbit(k, 255);
            mpz_sub_ui(k, k, 1 + test_rand_below(3));
            break;
        default: {
            uint64_t l[4];
            for (int i = 0; i < 4; i++) l[i] = test_rand64();
            mpz_import(k, 4, -1, 8, 0, 0, l);
        }
        }
        uint64_t kl[4] = {0};
        mpz_export(kl, NULL, -1, 8, 0, 0, k);
        rp_mul(c, &want, &p, k);
        jac jp, jr;
        to_jac(ci, &jp, &p);
        L->j_mul(&jr, &jp, kl);
        bad += !jac_is(ci, &jr, &want);
        L->j_mul(&jp, &jp, kl); /* r == a */
        bad += !jac_is(ci, &jp, &want);
        if (bad) {
            gmp_printf("\n    %s (%s kernel): k = %Zx", c->name, mulred_field_kernel_name(), k);
            break;
        }
    }
    /* r·P = O for subgroup points; the infinity times anything */
    rp_random_g1(c, &p);
    jac jp, jr;
    to_jac(ci, &jp, &p);
    uint64_t rl[4] = {0};
    mpz_export(rl, NULL, -1, 8, 0, 0, c->r);
    L->j_mul(&jr, &jp, rl);
    bad += !L->j_is_inf(&jr);
    L->j_set_inf(&jp);
    L->j_mul(&jr, &jp, rl);
    bad += !L->j_is_inf(&jr);
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(k, two256, NULL);
    rp_clear(&p), rp_clear(&want);
}

static void test_scalar_mul(void)
{
    for_each(scalar_mul_case);
}

/* ---- GLV, subgroup check, encodings ---------------------------------------------------- */

typedef struct {
    const uint64_t *beta, *lambda, *a1, *b1, *a2, *b2, *g1, *g2;
} glv_consts;

static const glv_consts glv[2] = {
    {G1_381_BETA, G1_381_LAMBDA, G1_381_GLV_A1, G1_381_GLV_B1, G1_381_GLV_A2, G1_381_GLV_B2,
     G1_381_GLV_G1, G1_381_GLV_G2},
    {G1_254_BETA, G1_254_LAMBDA, G1_254_GLV_A1, G1_254_GLV_B1, G1_254_GLV_A2, G1_254_GLV_B2,
     G1_254_GLV_G1, G1_254_GLV_G2},
};

/* a 192-bit two's-complement constant as a signed mpz */
static void from_tc192(mpz_t z, const uint64_t v[3])
{
    mpz_import(z, 3, -1, 8, 0, 0, v);
    if (v[2] >> 63) {
        mpz_t m;
        mpz_init(m);
        mpz_setbit(m, 192);
        mpz_sub(z, z, m);
        mpz_clear(m);
    }
}

/* a Montgomery residue (n limbs) as its canonical value */
static void from_mont(mpz_t z, int ci, const uint64_t *l)
{
    const ref_curve *c = &curves[ci];
    mpz_t rinv;
    mpz_init(rinv);
    mpz_import(z, (size_t)c->n, -1, 8, 0, 0, l);
    mpz_set_ui(rinv, 0);
    mpz_setbit(rinv, (mp_bitcnt_t)(64 * c->n));
    mpz_invert(rinv, rinv, c->p);
    mpz_mul(z, z, rinv);
    mpz_mod(z, z, c->p);
    mpz_clear(rinv);
}

/* the affine reference of φ_β(P) = (βx, y) */
static void rp_endo(const ref_curve *c, ref_point *r, const ref_point *a, const mpz_t beta)
{
    rp_set(r, a);
    if (!a->inf) {
        mpz_mul(r->x, a->x, beta);
        mpz_mod(r->x, r->x, c->p);
    }
}

/* the two non-trivial cube roots of unity mod q: c and c² */
static void cube_roots(mpz_t c1, mpz_t c2, const mpz_t q)
{
    mpz_t e;
    mpz_init(e);
    mpz_sub_ui(e, q, 1);
    CU_ASSERT_FATAL(mpz_divisible_ui_p(e, 3));
    mpz_divexact_ui(e, e, 3);
    for (unsigned long g = 2;; g++) {
        mpz_set_ui(c1, g);
        mpz_powm(c1, c1, e, q);
        if (mpz_cmp_ui(c1, 1) != 0) break;
    }
    mpz_mul(c2, c1, c1);
    mpz_mod(c2, c2, q);
    mpz_clear(e);
}

static void test_glv_constants(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const ref_curve *c = &curves[ci];
        const glv_consts *k = &glv[ci];
        mpz_t b1, b2, l1, l2, beta, lambda, a1, bb1, a2, bb2, t, g;
        mpz_inits(b1, b2, l1, l2, beta, lambda, a1, bb1, a2, bb2, t, g, NULL);
        cube_roots(b1, b2, c->p);
        cube_roots(l1, l2, c->r);
        from_mont(beta, ci, k->beta);
        mpz_import(lambda, 4, -1, 8, 0, 0, k->lambda);
        CU_ASSERT(mpz_cmp(beta, b1) == 0 || mpz_cmp(beta, b2) == 0);
        CU_ASSERT(mpz_cmp(lambda, l1) == 0 || mpz_cmp(lambda, l2) == 0);
        if (ci == 0) { /* BLS12-381: λ = x² − 1 from the seed */
            mpz_set_str(t, "d201000000010000", 16);
            mpz_mul(t, t, t);
            mpz_sub_ui(t, t, 1);
            CU_ASSERT(mpz_cmp(lambda, t) == 0);
        }
        /* the pairing of β and λ: φ(G) = λ·G and on random G1 points */
        ref_point gp, u, v;
        rp_init(&gp), rp_init(&u), rp_init(&v);
        mpz_set_str(gp.x, c->gen_x, 16);
        mpz_set_str(gp.y, c->gen_y, 16);
        gp.inf = 0;
        for (int i = 0; i < 4; i++) {
            if (i) rp_random_g1(c, &gp);
            rp_endo(c, &u, &gp, beta);
            rp_mul(c, &v, &gp, lambda);
            CU_ASSERT(rp_equal(&u, &v));
        }
        /* the lattice basis: a + b·λ ≡ 0 (mod r), determinant r, entries below 2^128 */
        from_tc192(a1, k->a1);
        from_tc192(bb1, k->b1);
        from_tc192(a2, k->a2);
        from_tc192(bb2, k->b2);
        mpz_set(t, a1), mpz_addmul(t, bb1, lambda);
        CU_ASSERT(mpz_divisible_p(t, c->r));
        mpz_set(t, a2), mpz_addmul(t, bb2, lambda);
        CU_ASSERT(mpz_divisible_p(t, c->r));
        mpz_mul(t, a1, bb2), mpz_submul(t, a2, bb1);
        CU_ASSERT(mpz_cmp(t, c->r) == 0);
        CU_ASSERT(mpz_sizeinbase(a1, 2) <= 128 && mpz_sizeinbase(bb1, 2) <= 128);
        CU_ASSERT(mpz_sizeinbase(a2, 2) <= 128 && mpz_sizeinbase(bb2, 2) <= 128);
        /* g1 = round(b2·2^384/r), g2 = round(−b1·2^384/r) */
        for (int j = 0; j < 2; j++) {
            mpz_set(t, j ? bb1 : bb2);
            if (j) mpz_neg(t, t);
            mpz_mul_2exp(t, t, 384);
            mpz_t half;
            mpz_init(half);
            mpz_fdiv_q_2exp(half, c->r, 1);
            mpz_add(t, t, half);
            mpz_fdiv_q(t, t, c->r);
            mpz_import(g, 5, -1, 8, 0, 0, j ? k->g2 : k->g1);
            CU_ASSERT(mpz_cmp(t, g) == 0);
            mpz_clear(half);
        }
        if (ci == 0) { /* the subgroup check's β' = β², eigenvalue −x² on G1 */
            mpz_t bs;
            mpz_init(bs);
            from_mont(bs, 0, G1_381_BETA_SUBGROUP);
            mpz_mul(t, beta, beta);
            mpz_mod(t, t, c->p);
            CU_ASSERT(mpz_cmp(bs, t) == 0);
            mpz_set_str(t, "d201000000010000", 16);
            CU_ASSERT(mpz_cmp_ui(t, G1_381_SEED_ABS) == 0);
            mpz_mul(t, t, t);
            mpz_sub(t, c->r, t); /* −x² mod r */
            rp_random_g1(c, &gp);
            rp_endo(c, &u, &gp, bs);
            rp_mul(c, &v, &gp, t);
            CU_ASSERT(rp_equal(&u, &v));
            mpz_clear(bs);
        }
        /* b and the generators as stored */
        from_mont(t, ci, ci ? G1_254_B : G1_381_B);
        CU_ASSERT(mpz_cmp(t, c->b) == 0);
        rp_clear(&gp), rp_clear(&u), rp_clear(&v);
        mpz_clears(b1, b2, l1, l2, beta, lambda, a1, bb1, a2, bb2, t, g, NULL);
    }
}

typedef void (*decompose_fn)(uint64_t *, bool *, uint64_t *, bool *, const uint64_t *);
static const decompose_fn decompose[2] = {mulred_g1_381_glv_decompose, mulred_g1_254_glv_decompose};

static void test_glv_decompose(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const ref_curve *c = &curves[ci];
        mpz_t k, k1, k2, lambda, t, two256;
        mpz_inits(k, k1, k2, lambda, t, two256, NULL);
        mpz_setbit(two256, 256);
        uint64_t lam[4];
        if (ci == 0)
            mulred_g1_381_glv_lambda(lam);
        else
            mulred_g1_254_glv_lambda(lam);
        mpz_import(lambda, 4, -1, 8, 0, 0, lam);
        int bad = 0;
        size_t maxbits = 0;
        for (int it = 0; it < 20000; it++) {
            switch (it) {
            case 0:
                mpz_set_ui(k, 0);
                break;
            case 1:
                mpz_set_ui(k, 1);
                break;
            case 2:
                mpz_sub_ui(k, c->r, 1);
                break;
            case 3:
                mpz_set(k, c->r);
                break;
            case 4:
                mpz_sub_ui(k, two256, 1); /* 2^256 − 1: reduced mod r inside */
                break;
            case 5:
                mpz_set(k, lambda);
                break;
            case 6:
                mpz_add_ui(k, lambda, 1);
                break;
            case 7:
                mpz_fdiv_q_2exp(k, c->r, 1);
                break;
            case 8: /* the largest multiple of r below 2^256 */
                mpz_fdiv_q(k, two256, c->r);
                mpz_mul(k, k, c->r);
                break;
            default: {
                uint64_t l[4];
                for (int i = 0; i < 4; i++)
                    l[i] = it % 3 == 0 ? test_rand64() >> test_rand_below(64) : test_rand64();
                mpz_import(k, 4, -1, 8, 0, 0, l);
            }
            }
            uint64_t kl[4] = {0}, h1[2], h2[2];
            bool n1, n2;
            mpz_export(kl, NULL, -1, 8, 0, 0, k);
            decompose[ci](h1, &n1, h2, &n2, kl);
            mpz_import(k1, 2, -1, 8, 0, 0, h1);
            mpz_import(k2, 2, -1, 8, 0, 0, h2);
            if (mpz_sizeinbase(k1, 2) > maxbits) maxbits = mpz_sizeinbase(k1, 2);
            if (mpz_sizeinbase(k2, 2) > maxbits) maxbits = mpz_sizeinbase(k2, 2);
            if (n1) mpz_neg(k1, k1);
            if (n2) mpz_neg(k2, k2);
            mpz_set(t, k1);
            mpz_addmul(t, k2, lambda);
            mpz_sub(t, t, k);
            bad += !mpz_divisible_p(t, c->r); /* k1 + k2·λ ≡ k (mod r) */
            bad += mpz_sizeinbase(k1, 2) > 128 || mpz_sizeinbase(k2, 2) > 128;
            if (bad) {
                gmp_printf("\n    %s: k = %Zx -> k1 = %Zd, k2 = %Zd", c->name, k, k1, k2);
                break;
            }
        }
        printf("\n    %s: largest |k1|, |k2| seen: %zu bits", c->name, maxbits);
        CU_ASSERT_EQUAL(bad, 0);
        mpz_clears(k, k1, k2, lambda, t, two256, NULL);
    }
}

static void endo_and_glv_case(int ci)
{
    const ref_curve *c = &curves[ci];
    const lib_curve *L = &libs[ci];
    ref_point p, want;
    rp_init(&p), rp_init(&want);
    mpz_t k, lambda, two256;
    mpz_inits(k, lambda, two256, NULL);
    mpz_setbit(two256, 256);
    uint64_t lam[4];
    if (ci == 0)
        mulred_g1_381_glv_lambda(lam);
    else
        mulred_g1_254_glv_lambda(lam);
    mpz_import(lambda, 4, -1, 8, 0, 0, lam);
    int bad = 0;
    for (int it = 0; it < 30 && !bad; it++) {
        rp_random_g1(c, &p);
        if (it == 0) p.inf = 1;
        /* φ(P) = λ·P */
        aff a, e;
        to_aff(ci, &a, &p);
        if (ci == 0)
            mulred_g1_381_affine_endomorphism(&e.c381, &a.c381);
        else
            mulred_g1_254_affine_endomorphism(&e.c254, &a.c254);
        rp_mul(c, &want, &p, lambda);
        bad += !aff_is(ci, &e, &want);
        /* GLV scalar multiplication */
        switch (it % 8) {
        case 0:
            mpz_set_ui(k, 0);
            break;
        case 1:
            mpz_set_ui(k, 1 + test_rand_below(100));
            break;
        case 2:
            mpz_sub_ui(k, c->r, 1);
            break;
        case 3:
            mpz_sub_ui(k, two256, 1);
            break;
        case 4:
            mpz_set(k, lambda);
            break;
        default: {
            uint64_t l[4];
            for (int i = 0; i < 4; i++) l[i] = test_rand64();
            mpz_import(k, 4, -1, 8, 0, 0, l);
        }
        }
        uint64_t kl[4] = {0};
        mpz_export(kl, NULL, -1, 8, 0, 0, k);
        rp_mul(c, &want, &p, k);
        jac jp, jr;
        to_jac(ci, &jp, &p);
        if (ci == 0)
            mulred_g1_381_jacobian_mul_glv_var(&jr.c381, &jp.c381, kl);
        else
            mulred_g1_254_jacobian_mul_glv_var(&jr.c254, &jp.c254, kl);
        bad += !jac_is(ci, &jr, &want);
        (void)L;
        if (bad)
            gmp_printf("\n    %s (%s kernel): k = %Zx", c->name, mulred_field_kernel_name(), k);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(k, lambda, two256, NULL);
    rp_clear(&p), rp_clear(&want);
}

static void test_endomorphism_glv(void)
{
    for_each(endo_and_glv_case);
}

static bool lib_in_g1(int ci, const ref_point *p)
{
    aff a;
    to_aff(ci, &a, p);
    return ci == 0 ? mulred_g1_381_affine_in_g1_var(&a.c381)
                   : mulred_g1_254_affine_in_g1_var(&a.c254);
}

/* a point of order exactly ell (a prime factor of the cofactor): the ell-primary part of a
 * random point (its order a power of ell), multiplied by ell until one more step gives O. The
 * ell-part of the group need not be cyclic (ell² divides h), so (r·h/ell)·R may be O. */
static void rp_order_ell(const ref_curve *c, ref_point *t, unsigned long ell)
{
    mpz_t m, l;
    mpz_inits(m, l, NULL);
    mpz_mul(m, c->r, c->h);
    while (mpz_divisible_ui_p(m, ell)) mpz_divexact_ui(m, m, ell);
    mpz_set_ui(l, ell);
    ref_point u;
    rp_init(&u);
    do {
        rp_random(c, t);
        rp_mul(c, t, t, m);
    } while (t->inf);
    for (;;) {
        rp_mul(c, &u, t, l);
        if (u.inf) break;
        rp_set(t, &u);
    }
    rp_clear(&u);
    mpz_clears(m, l, NULL);
}

static void subgroup_case(int ci)
{
    const ref_curve *c = &curves[ci];
    ref_point p, q, t;
    rp_init(&p), rp_init(&q), rp_init(&t);
    int bad = 0, outside = 0;
    /* against the reference r·P = O, on random curve points and G1 points */
    for (int it = 0; it < 24; it++) {
        if (it % 2)
            rp_random_g1(c, &p);
        else
            rp_random(c, &p);
        rp_mul(c, &q, &p, c->r);
        outside += !q.inf;
        bad += lib_in_g1(ci, &p) != (q.inf != 0);
    }
    p.inf = 1;
    bad += !lib_in_g1(ci, &p);
    if (ci == 0) {
        CU_ASSERT(outside > 0); /* BLS12-381: random curve points are outside G1 */
        /* the cofactor h = 3·11²·10177²·859267²·52437899² (= (x − 1)²/3): a G1 point plus a
         * point of each prime order dividing h is outside G1, as is each of those points */
        static const unsigned long primes[] = {3, 11, 10177, 859267, 52437899};
        mpz_t h;
        mpz_init_set_ui(h, 1);
        for (int i = 0; i < 5; i++) {
            mpz_mul_ui(h, h, primes[i]);
            mpz_mul_ui(h, h, primes[i]);
        }
        mpz_divexact_ui(h, h, 3);
        CU_ASSERT(mpz_cmp(h, c->h) == 0);
        mpz_clear(h);
        for (int i = 0; i < 5; i++) {
            rp_order_ell(c, &t, primes[i]);
            bad += lib_in_g1(ci, &t);
            rp_random_g1(c, &p);
            rp_add(c, &q, &p, &t);
            bad += lib_in_g1(ci, &q);
            bad += !lib_in_g1(ci, &p);
        }
        /* (0, ±2): on the curve, order 3 */
        mpz_set_ui(p.x, 0);
        mpz_set_ui(p.y, 2);
        p.inf = 0;
        CU_ASSERT(rp_on_curve(c, &p));
        bad += lib_in_g1(ci, &p);
        mpz_sub_ui(p.y, c->p, 2);
        bad += lib_in_g1(ci, &p);
    } else {
        CU_ASSERT(outside == 0); /* BN254: cofactor 1 */
    }
    CU_ASSERT_EQUAL(bad, 0);
    rp_clear(&p), rp_clear(&q), rp_clear(&t);
}

static void test_subgroup(void)
{
    for_each(subgroup_case);
}

/* The batch subgroup check (curve/g1_batch.h) gives the one-point verdicts, which the
 * reference r·P = O decides here, on every kind of point: random curve points, G1 points,
 * points of each small prime order dividing the cofactor, G1 points plus those, (0, ±2) (order
 * 3: its double-and-add meets P = ±q, an exceptional lane), infinity; in batches of every
 * length 1..20 at every offset, on the 8-lane path (where the CPU has it) and the scalar one,
 * and of lengths 28..48 (2 and 4 batches of 8 side by side) on the 8-lane path. */
static void test_subgroup_batch(void)
{
    const ref_curve *c = &curves[0];
    enum { NP = 48 };
    mulred_g1_381_affine pts[NP];
    bool want[NP], got[NP];
    ref_point p, q, t;
    rp_init(&p), rp_init(&q), rp_init(&t);
    static const unsigned long primes[] = {3, 11, 10177, 859267, 52437899};
    for (int i = 0; i < NP; i++) {
        const int kind = i % 8;
        if (kind == 0 || kind == 5) {
            rp_random(c, &p);
        } else if (kind == 1 || kind == 6) {
            rp_random_g1(c, &p);
        } else if (kind == 2) {
            rp_order_ell(c, &p, primes[(i / 8) % 5]);
        } else if (kind == 3) {
            rp_order_ell(c, &t, primes[(i / 8) % 5]);
            rp_random_g1(c, &q);
            rp_add(c, &p, &q, &t);
        } else if (kind == 4) {
            mpz_set_ui(p.x, 0);
            mpz_set_ui(p.y, 2);
            if (i % 16 == 4) mpz_sub_ui(p.y, c->p, 2);
            p.inf = 0;
        } else {
            p.inf = 1;
        }
        rp_mul(c, &q, &p, c->r);
        want[i] = q.inf != 0;
        aff a;
        to_aff(0, &a, &p);
        pts[i] = a.c381;
    }
    int bad = 0, outside = 0;
    for (int i = 0; i < NP; i++) outside += !want[i];
    CU_ASSERT(outside >= NP / 2);
    for (int x8 = 0; x8 <= 1; x8++)
        for (int len = 1; len <= 20; len++)
            for (int off = 0; off + len <= NP; off += 1 + (len > 8) * 3) {
                memset(got, 0, sizeof got);
                mulred_g1_381_in_g1_batch_var(got + off, pts + off, (size_t)len, x8);
                for (int i = off; i < off + len; i++) bad += got[i] != want[i];
            }
    /* 8-lane runs of 2 and 4 batches side by side (16 and 32 points) at several offsets */
    for (int len = 28; len <= NP; len += 5)
        for (int off = 0; off + len <= NP; off += 3) {
            memset(got, 0, sizeof got);
            mulred_g1_381_in_g1_batch_var(got + off, pts + off, (size_t)len, true);
            for (int i = off; i < off + len; i++) bad += got[i] != want[i];
        }
    mulred_g1_381_in_g1_batch_var(got, pts, NP, true);
    for (int i = 0; i < NP; i++) bad += got[i] != want[i];
    if (!mulred_fieldx8_have_ifma()) printf("\n    (no AVX-512 IFMA: the scalar path twice)");
    CU_ASSERT_EQUAL(bad, 0);
    rp_clear(&p), rp_clear(&q), rp_clear(&t);
}

/* ---- encodings ---- */

static void hex_to(uint8_t *out, size_t n, const char *hex)
{
    CU_ASSERT_FATAL(strlen(hex) == 2 * n);
    CU_ASSERT_FATAL(mulred_hex_decode(out, hex, n, NULL) == 0);
}

static void test_encodings_generators(void)
{
    /* ZCash compressed generator: draft-irtf-cfrg-pairing-friendly-curves-11, appendix C,
     * and the ZCash protocol specification (BLS12-381 G1 generator encoding). */
    static const char *g381_compressed = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f1"
                                         "71bac586c55e83ff97a1aeffb3af00adb22c6bb";
    uint8_t want[128], got[128];
    mulred_g1_381_affine g, d;
    mulred_g1_381_generator(&g);
    hex_to(want, 48, g381_compressed);
    mulred_g1_381_encode_compressed(got, &g);
    CU_ASSERT(memcmp(got, want, 48) == 0);
    CU_ASSERT(dec_381_compressed(&d, want, 0) == MULRED_DECODE_VALID);
    CU_ASSERT(mulred_g1_381_affine_equal(&d, &g));
    /* −G: the same x with the other sign bit (0xb7 = 0x97 | 0x20) */
    mulred_g1_381_affine ng;
    mulred_g1_381_affine_neg(&ng, &g);
    mulred_g1_381_encode_compressed(got, &ng);
    CU_ASSERT(got[0] == 0xb7 && memcmp(got + 1, want + 1, 47) == 0);
    /* infinity: 0xc0 then zeros */
    mulred_g1_381_affine inf;
    mulred_g1_381_affine_set_infinity(&inf);
    mulred_g1_381_encode_compressed(got, &inf);
    CU_ASSERT(got[0] == 0xc0 && !memcmp(got + 1, (uint8_t[47]){0}, 47));
    CU_ASSERT(dec_381_compressed(&d, got, 0) == MULRED_DECODE_VALID);
    CU_ASSERT(mulred_g1_381_affine_is_infinity(&d));
    /* EIP-2537: the generator as 16 zero bytes + x, 16 zero bytes + y (EIP-2537 gives
     * these coordinates for G1) */
    memset(want, 0, 128);
    hex_to(want + 16, 48, curves[0].gen_x);
    hex_to(want + 80, 48, curves[0].gen_y);
    mulred_g1_381_encode_eip2537(got, &g);
    CU_ASSERT(memcmp(got, want, 128) == 0);
    CU_ASSERT(dec_381_eip2537(&d, want, 0) == MULRED_DECODE_VALID);
    CU_ASSERT(mulred_g1_381_affine_equal(&d, &g));
    memset(want, 0, 128);
    CU_ASSERT(dec_381_eip2537(&d, want, 0) == MULRED_DECODE_VALID);
    CU_ASSERT(mulred_g1_381_affine_is_infinity(&d));
    mulred_g1_381_encode_eip2537(got, &inf);
    CU_ASSERT(memcmp(got, want, 128) == 0);
    /* EIP-196: the generator (1, 2); (0, 0) infinity */
    mulred_g1_254_affine h, e;
    mulred_g1_254_generator(&h);
    memset(want, 0, 64);
    want[31] = 1, want[63] = 2;
    mulred_g1_254_encode_eip196(got, &h);
    CU_ASSERT(memcmp(got, want, 64) == 0);
    CU_ASSERT(dec_254_eip196(&e, want, 0) == MULRED_DECODE_VALID);
    CU_ASSERT(mulred_g1_254_affine_equal(&e, &h));
    memset(want, 0, 64);
    CU_ASSERT(dec_254_eip196(&e, want, 0) == MULRED_DECODE_VALID);
    CU_ASSERT(mulred_g1_254_affine_is_infinity(&e));
}

/* random points: encode, check the bytes against the reference, decode back */
static void test_encodings_round_trip(void)
{
    int bad = 0;
    ref_point p, t;
    rp_init(&p), rp_init(&t);
    mpz_t half, z;
    mpz_inits(half, z, NULL);
    mpz_fdiv_q_2exp(half, curves[0].p, 1); /* (p − 1)/2 */
    for (int it = 0; it < 40; it++) {
        uint8_t buf[128], want[128];
        aff a, d;
        size_t cnt;
        /* BLS12-381 */
        rp_random_g1(&curves[0], &p);
        to_aff(0, &a, &p);
        memset(want, 0, 48);
        mpz_export(want + 48 - mpz_sizeinbase(p.x, 256), &cnt, 1, 1, 1, 0, p.x);
        want[0] |= 0x80 | (mpz_cmp(p.y, half) > 0 ? 0x20 : 0);
        mulred_g1_381_encode_compressed(buf, &a.c381);
        bad += memcmp(buf, want, 48) != 0;
        bad += dec_381_compressed(&d.c381, buf, 0) != MULRED_DECODE_VALID;
        bad += !aff_is(0, &d, &p);
        memset(want, 0, 128);
        mpz_export(want + 64 - mpz_sizeinbase(p.x, 256), &cnt, 1, 1, 1, 0, p.x);
        mpz_export(want + 128 - mpz_sizeinbase(p.y, 256), &cnt, 1, 1, 1, 0, p.y);
        mulred_g1_381_encode_eip2537(buf, &a.c381);
        bad += memcmp(buf, want, 128) != 0;
        bad += dec_381_eip2537(&d.c381, buf, 0) != MULRED_DECODE_VALID;
        bad += !aff_is(0, &d, &p);
        /* BN254 */
        rp_random(&curves[1], &t);
        to_aff(1, &a, &t);
        memset(want, 0, 64);
        mpz_export(want + 32 - mpz_sizeinbase(t.x, 256), &cnt, 1, 1, 1, 0, t.x);
        mpz_export(want + 64 - mpz_sizeinbase(t.y, 256), &cnt, 1, 1, 1, 0, t.y);
        mulred_g1_254_encode_eip196(buf, &a.c254);
        bad += memcmp(buf, want, 64) != 0;
        bad += dec_254_eip196(&d.c254, buf, 0) != MULRED_DECODE_VALID;
        bad += !aff_is(1, &d, &t);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpz_clears(half, z, NULL);
    rp_clear(&p), rp_clear(&t);
}

/* big-endian bytes of z (< 2^(8n)) into out[0..n) */
static void be_bytes(uint8_t *out, size_t n, const mpz_t z)
{
    memset(out, 0, n);
    if (mpz_sgn(z)) mpz_export(out + n - mpz_sizeinbase(z, 256), NULL, 1, 1, 1, 0, z);
}

static void test_encodings_malformed(void)
{
    const ref_curve *c = &curves[0];
    uint8_t g[48], buf[128];
    mulred_g1_381_affine d, gen;
    mulred_g1_381_generator(&gen);
    mulred_g1_381_encode_compressed(g, &gen);
    /* compressed: the compression flag */
    memcpy(buf, g, 48);
    buf[0] &= 0x7f;
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_EFLAGS);
    CU_ASSERT(mulred_g1_381_affine_is_infinity(&d));
    memset(buf, 0, 48);
    buf[0] = 0x40; /* infinity without the compression flag */
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_EFLAGS);
    buf[0] = 0x00; /* all zero */
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_EFLAGS);
    /* non-canonical infinity: the sign flag, any bit of x */
    buf[0] = 0xe0;
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_EINFINITY);
    for (int i = 0; i < 48; i++) {
        memset(buf, 0, 48);
        buf[0] = 0xc0;
        buf[i] |= (uint8_t)(i == 0 ? 0x01 : 0x80 >> (i % 8));
        CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_EINFINITY);
    }
    memcpy(buf, g, 48);
    buf[0] |= 0x40; /* a valid x with the infinity flag */
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_EINFINITY);
    /* x >= p: p, p + 1, 2^381 − 1 */
    mpz_t x, rhs, e;
    mpz_inits(x, rhs, e, NULL);
    for (int k = 0; k < 3; k++) {
        if (k < 2)
            mpz_add_ui(x, c->p, (unsigned long)k);
        else
            mpz_set_ui(x, 0), mpz_setbit(x, 381), mpz_sub_ui(x, x, 1);
        be_bytes(buf, 48, x);
        buf[0] |= 0x80;
        CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_ERANGE);
        buf[0] |= 0x20;
        CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_ERANGE);
    }
    /* an x with no point: x³ + 4 a non-square */
    mpz_set_ui(x, 1);
    for (;; mpz_add_ui(x, x, 1)) {
        mpz_powm_ui(rhs, x, 3, c->p);
        mpz_add_ui(rhs, rhs, 4);
        if (mpz_legendre(rhs, c->p) == -1) break;
    }
    be_bytes(buf, 48, x);
    buf[0] |= 0x80;
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_ECURVE);
    /* a point of the curve outside G1: rejected, accepted when the check is skipped */
    ref_point p;
    rp_init(&p);
    do {
        rp_random(c, &p);
        ref_point q;
        rp_init(&q);
        rp_mul(c, &q, &p, c->r);
        int in = q.inf;
        rp_clear(&q);
        if (!in) break;
    } while (1);
    aff a;
    to_aff(0, &a, &p);
    mulred_g1_381_encode_compressed(buf, &a.c381);
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_ESUBGROUP);
    CU_ASSERT(mulred_g1_381_affine_is_infinity(&d));
    CU_ASSERT(dec_381_compressed(&d, buf, MULRED_DECODE_SKIP_SUBGROUP_CHECK) ==
              MULRED_DECODE_VALID);
    CU_ASSERT(aff_is(0, (aff *)&d, &p));
    /* (0, 2): x = 0 compressed, on the curve, order 3 */
    memset(buf, 0, 48);
    buf[0] = 0x80;
    CU_ASSERT(dec_381_compressed(&d, buf, 0) == MULRED_DECODE_ESUBGROUP);

    /* EIP-2537 */
    uint8_t g2537[128];
    mulred_g1_381_encode_eip2537(g2537, &gen);
    for (int i = 0; i < 128; i++) {
        if ((i >= 16 && i < 64) || i >= 80) continue; /* padding bytes only */
        memcpy(buf, g2537, 128);
        buf[i] = (uint8_t)(1 + test_rand_below(255));
        CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_EPADDING);
    }
    memset(buf, 0, 128);
    buf[3] = 1; /* padding of the infinity encoding */
    CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_EPADDING);
    for (int coord = 0; coord < 2; coord++) { /* x >= p, y >= p */
        memcpy(buf, g2537, 128);
        mpz_add_ui(x, c->p, test_rand_below(2));
        be_bytes(buf + 16 + 64 * coord, 48, x);
        CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_ERANGE);
        /* y + p: the same residue, not canonical */
        memcpy(buf, g2537, 128);
        mpz_import(x, 48, 1, 1, 1, 0, g2537 + 16 + 64 * coord);
        mpz_add(x, x, c->p);
        if (mpz_sizeinbase(x, 2) <= 384) {
            be_bytes(buf + 16 + 64 * coord, 48, x);
            CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_ERANGE);
        }
    }
    memcpy(buf, g2537, 128);
    buf[127] ^= 1; /* off the curve */
    CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_ECURVE);
    memset(buf, 0, 128);
    buf[127] = 1; /* (0, 1) */
    CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_ECURVE);
    buf[127] = 2; /* (0, 2): on the curve, order 3 */
    CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_ESUBGROUP);
    mulred_g1_381_encode_eip2537(buf, &a.c381); /* outside G1 */
    CU_ASSERT(dec_381_eip2537(&d, buf, 0) == MULRED_DECODE_ESUBGROUP);
    CU_ASSERT(dec_381_eip2537(&d, buf, MULRED_DECODE_SKIP_SUBGROUP_CHECK) == MULRED_DECODE_VALID);

    /* EIP-196 */
    const ref_curve *b = &curves[1];
    mulred_g1_254_affine h;
    memset(buf, 0, 64);
    be_bytes(buf, 32, b->p);
    buf[63] = 2;
    CU_ASSERT(dec_254_eip196(&h, buf, 0) == MULRED_DECODE_ERANGE);
    memset(buf, 0, 64);
    buf[31] = 1;
    mpz_add_ui(x, b->p, 2); /* (1, p + 2): the generator's residues, y not canonical */
    be_bytes(buf + 32, 32, x);
    CU_ASSERT(dec_254_eip196(&h, buf, 0) == MULRED_DECODE_ERANGE);
    memset(buf, 0xff, 64); /* 2^256 − 1 */
    CU_ASSERT(dec_254_eip196(&h, buf, 0) == MULRED_DECODE_ERANGE);
    memset(buf, 0, 64);
    buf[31] = 1, buf[63] = 3; /* (1, 3) */
    CU_ASSERT(dec_254_eip196(&h, buf, 0) == MULRED_DECODE_ECURVE);
    CU_ASSERT(mulred_g1_254_affine_is_infinity(&h));
    buf[31] = 0, buf[63] = 1; /* (0, 1) */
    CU_ASSERT(dec_254_eip196(&h, buf, 0) == MULRED_DECODE_ECURVE);
    buf[31] = 1, buf[63] = 0; /* (1, 0) */
    CU_ASSERT(dec_254_eip196(&h, buf, 0) == MULRED_DECODE_ECURVE);
    /* every status has a text */
    for (int s = MULRED_DECODE_VALID; s <= MULRED_DECODE_ESUBGROUP; s++)
        CU_ASSERT(strcmp(mulred_decode_reason_text((mulred_decode_reason)s), "unknown reason") !=
                  0);
    rp_clear(&p);
    mpz_clears(x, rhs, e, NULL);
}

/* The KZG ceremony setup (EIP-4844): every Lagrange and monomial G1 point decompresses, lies
 * in G1 and compresses back to the same bytes; monomial[0] is the generator. */
static void test_kzg_setup(void)
{
    char *text = NULL;
    size_t len = 0;
    mulred_error err;
    CU_ASSERT_FATAL(mulred_read_file(test_vector_path("kzg/trusted_setup.txt"), &text, &len,
                                     SIZE_MAX, NULL, &err) == 0);
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    CU_ASSERT_FATAL(line && strtoul(line, NULL, 10) == 4096);
    line = strtok_r(NULL, "\n", &save);
    CU_ASSERT_FATAL(line && strtoul(line, NULL, 10) == 65);
    int bad = 0, count = 0;
    mulred_g1_381_affine gen;
    mulred_g1_381_generator(&gen);
    for (int section = 0; section < 3; section++) {
        const int n = section == 1 ? 65 : 4096;
        for (int i = 0; i < n; i++) {
            line = strtok_r(NULL, "\n", &save);
            CU_ASSERT_FATAL(line != NULL);
            if (section == 1) continue; /* G2 points */
            uint8_t in[48], out[48];
            mulred_g1_381_affine p;
            CU_ASSERT_FATAL(strlen(line) == 96);
            CU_ASSERT_FATAL(mulred_hex_decode(in, line, 48, NULL) == 0);
            mulred_decode_reason s = dec_381_compressed(&p, in, 0);
            if (s != MULRED_DECODE_VALID) {
                if (!bad)
                    printf("\n    setup point %d of section %d: %s", i, section,
                           mulred_decode_reason_text(s));
                bad++;
                continue;
            }
            mulred_g1_381_encode_compressed(out, &p);
            bad += memcmp(in, out, 48) != 0;
            if (section == 2 && i == 0) bad += !mulred_g1_381_affine_equal(&p, &gen);
            count++;
        }
    }
    CU_ASSERT_EQUAL(count, 8192);
    CU_ASSERT_EQUAL(bad, 0);
    free(text);
}

void test_register(void)
{
    for (int i = 0; i < 2; i++) mpz_inits(curves[i].p, curves[i].b, curves[i].r, curves[i].h, NULL);
    /* BLS12-381: x = −0xd201000000010000, r = x⁴ − x² + 1, p = (x − 1)²·r/3 + x, cofactor
     * h = (x − 1)²/3; BN254: u = 4965661367192848881, p and r from the BN polynomials, h = 1. */
    mpz_t x, t;
    mpz_inits(x, t, NULL);
    mpz_set_str(x, "-d201000000010000", 16);
    mpz_pow_ui(t, x, 4);
    mpz_submul(t, x, x);
    mpz_add_ui(curves[0].r, t, 1);
    mpz_sub_ui(t, x, 1);
    mpz_mul(t, t, t);
    mpz_divexact_ui(curves[0].h, t, 3);
    mpz_mul(t, curves[0].h, curves[0].r);
    mpz_add(curves[0].p, t, x);
    mpz_set_ui(curves[0].b, 4);
    mpz_set_str(x, "4965661367192848881", 10);
    mpz_pow_ui(t, x, 4);
    mpz_mul_ui(t, t, 36);
    mpz_t u3;
    mpz_init(u3);
    mpz_pow_ui(u3, x, 3);
    mpz_addmul_ui(t, u3, 36);
    mpz_addmul_ui(t, x, 6);
    mpz_add_ui(t, t, 1);
    mpz_mul(u3, x, x);
    mpz_set(curves[1].p, t);
    mpz_addmul_ui(curves[1].p, u3, 24);
    mpz_set(curves[1].r, t);
    mpz_addmul_ui(curves[1].r, u3, 18);
    mpz_set_ui(curves[1].b, 3);
    mpz_set_ui(curves[1].h, 1);
    mpz_clears(x, t, u3, NULL);
    TEST_SUITE(
        "curve", {"generators: published, on the curve, order r", test_generators},
        {"on-curve check", test_on_curve},
        {"Jacobian and XYZZ additions and doublings, every case", test_additions},
        {"group laws", test_group_laws},
        {"batch-affine addition: plain, and pairs with ±φ on both paths, against the reference",
         test_batch_add},
        {"batch-affine addition: a repeated accumulator aborts", test_batch_duplicate},
        {"batch normalisation", test_batch_normalize},
        {"scalar multiplication against double-and-add", test_scalar_mul},
        {"GLV constants derived with GMP", test_glv_constants},
        {"GLV decomposition: k1 + k2·λ ≡ k, halves below 2^128", test_glv_decompose},
        {"endomorphism φ(P) = λ·P; GLV scalar multiplication", test_endomorphism_glv},
        {"subgroup check against r·P = O, cofactor points", test_subgroup},
        {"batch subgroup check: the one-point verdicts, 8 lanes and scalar", test_subgroup_batch},
        {"encodings: generators and infinity", test_encodings_generators},
        {"encodings: random points against the reference bytes", test_encodings_round_trip},
        {"encodings: malformed inputs, each check", test_encodings_malformed},
        {"KZG setup: 8192 G1 points decompress, in G1, recompress", test_kzg_setup});
}

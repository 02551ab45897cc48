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

#include "field/field_internal.h"
#include "harness.h"
#include "mulred/curve.h"
#include "mulred/field.h"

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
        CU_ASSERT_FATAL(mulred_##FP##_from_limbs(&r->C, l));                                       \
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
            G##_batch_scratch, G##_batch_add, G##_fe_from_mpz, G##_fe_to_mpz, G##_fe_mul,          \
            G##_fe_sqr                                                                             \
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
        if (mulred_field_kernel_select(kernel_names[k]) != 0) {
            printf("\n    (field kernel %s not available on this CPU, skipped)", kernel_names[k]);
            continue;
        }
        for (int ci = 0; ci < 2; ci++) fn(ci);
    }
    mulred_field_kernel_select(mulred_field_have_mulx() ? "mulx" : "portable");
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

/* Batch-affine addition: n pairs of every kind against the reference. */
static int batch_round(int ci, size_t n, int shape)
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
        if (kind == 7 && i > 0) ptsp[i] = ptsp[i - 1], rp_set(&rq[i], &rq[i - 1]); /* shared */
        if (kind == 8) ptsp[i] = accp[i], rp_set(&rq[i], &ra[i]); /* the same object: doubling */
    }
    L->batch_add(accp, ptsp, n, scratch);
    int bad = 0;
    ref_point want;
    rp_init(&want);
    for (size_t i = 0; i < n; i++) {
        rp_add(c, &want, &ra[i], &rq[i]);
        if (!aff_is(ci, (const aff *)(accs + i * sz), &want)) {
            if (!bad)
                printf("\n    %s (%s kernel): batch of %zu, shape %d: pair %zu wrong", c->name,
                       mulred_field_kernel_name(), n, shape, i);
            bad++;
        }
    }
    rp_clear(&want);
    for (size_t i = 0; i < n; i++) rp_clear(&ra[i]), rp_clear(&rq[i]);
    for (int i = 0; i < POOL; i++) rp_clear(&pool[i]);
    free(accs), free(pts), free(accp), free(ptsp), free(ra), free(rq), free(scratch);
    return bad;
}

static void batch_case(int ci)
{
    static const size_t sizes[] = {0, 1, 2, 3, 5, 8, 17, 64, 255, 1024};
    int bad = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        bad += batch_round(ci, sizes[si], 0);
        if (sizes[si] > 0 && sizes[si] <= 64)
            for (int shape = 1; shape <= 8; shape++) bad += batch_round(ci, sizes[si], shape);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_batch_add(void)
{
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
    TEST_SUITE("curve", {"generators: published, on the curve, order r", test_generators},
               {"on-curve check", test_on_curve},
               {"Jacobian and XYZZ additions and doublings, every case", test_additions},
               {"group laws", test_group_laws},
               {"batch-affine addition against the reference", test_batch_add},
               {"batch-affine addition: a repeated accumulator aborts", test_batch_duplicate},
               {"batch normalisation", test_batch_normalize},
               {"scalar multiplication against double-and-add", test_scalar_mul});
}

/* The MSM (include/mulred/msm.h, src/msm/) against the mpz reference of G1 (curve_ref.h).
 *
 * Points are Pᵢ = aᵢ·G with known aᵢ (made by the curve layer's scalar multiplication; a few
 * are checked against the reference's aᵢ·G), so the expected sum is
 *     Σ sᵢ·Pᵢ = (Σ aᵢ·sᵢ mod r)·G,
 * a sum of products in mpz and one affine double-and-add with mpz_invert slopes: independent of
 * every line of src/msm and of the curve layer's projective formulas.
 *
 * Covered: n = 1…300 and 2^12; every window width c = 1…16 (so every width the cost model can
 * pick) with both bucket forms, both lane kinds (8-lane where the CPU has it) and GLV on and
 * off; tiles over window, bucket and point ranges recombined by the caller; the traps — the
 * top window when the scalar bit length is a multiple of c, one point, P = Q and P = −Q
 * inside one batch (zero slope denominators in the batch inversion), infinity as an input and
 * as a bucket, every scalar 0, scalars >= r and 2^256 − 1, all points equal, the signed-digit
 * carry out of the last window, collision queues of every depth and a batch of 8; the
 * self-check Σ (aᵢ·G)·sᵢ = (Σ aᵢ·sᵢ)·G at 2^16; Booth digits and GLV splits against mpz;
 * the GLV constants (β³ = 1, λ² + λ + 1 ≡ 0, φ(G) = λ·G); threads 1–3 give identical
 * Jacobian results; the MSM called from inside an OpenMP parallel region and from tasks. */
#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_ref.h"
#include "field/field_internal.h"
#include "field/field_x8.h"
#include "harness.h"
#include "msm/msm_internal.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

/* ---- the library, behind one table for both curves ---------------------------------------- */

typedef struct {
    size_t aff, jac; /* sizeof the affine and Jacobian types */
    void (*plan)(mulred_msm_plan *, size_t, const mulred_msm_options *);
    size_t (*scratch_size)(const mulred_msm_plan *, size_t);
    void (*serial)(void *, const mulred_msm_plan *, const void *, const mulred_scalar256 *, size_t,
                   void *);
    void (*recode)(mulred_msm_rscalar *, const mulred_scalar256 *, size_t, const mulred_msm_plan *);
    size_t (*tile_scratch)(const mulred_msm_plan *);
    void (*tile)(void *, const mulred_msm_plan *, const mulred_msm_tile *, const void *,
                 const mulred_msm_rscalar *, size_t, void *);
    void (*shift)(void *, const void *, unsigned);
    int (*msm)(void *, const void *, const mulred_scalar256 *, size_t, const mulred_msm_options *,
               int, mulred_error *);
    void (*jac_add)(void *, const void *, const void *);
    void (*jac_inf)(void *);
    /* points[i] = a[i]·G (a as 4 limbs), affine */
    void (*points)(void *, const uint64_t (*)[4], size_t);
    /* the arithmetic progression points[i] = (a0 + i·d)·G, affine, by additions */
    void (*progression)(void *, const uint64_t a0[4], const uint64_t d[4], size_t);
    void (*fixed_plan)(mulred_msm_plan *, size_t, const mulred_msm_options *);
    size_t (*fixed_table_size)(const mulred_msm_plan *, size_t);
    size_t (*fixed_build_scratch)(size_t);
    void (*fixed_build)(void *, const mulred_msm_plan *, const void *, size_t, void *);
    size_t (*fixed_scratch)(const mulred_msm_plan *, size_t);
    void (*fixed)(void *, const mulred_msm_plan *, const void *, const mulred_scalar256 *, size_t,
                  void *);
    void (*glv_lambda)(uint64_t[4]);
} lib;

#define WRAP(G)                                                                                    \
    static void G##_w_serial(void *r, const mulred_msm_plan *p, const void *pts,                   \
                             const mulred_scalar256 *s, size_t n, void *scr)                       \
    {                                                                                              \
        mulred_##G##_msm_serial_var(r, p, pts, s, n, scr);                                         \
    }                                                                                              \
    static void G##_w_tile(void *r, const mulred_msm_plan *p, const mulred_msm_tile *t,            \
                           const void *pts, const mulred_msm_rscalar *k, size_t n, void *scr)      \
    {                                                                                              \
        mulred_##G##_msm_tile_var(r, p, t, pts, k, n, scr);                                        \
    }                                                                                              \
    static void G##_w_shift(void *r, const void *a, unsigned bits)                                 \
    {                                                                                              \
        mulred_##G##_msm_shift(r, a, bits);                                                        \
    }                                                                                              \
    static int G##_w_msm(void *r, const void *pts, const mulred_scalar256 *s, size_t n,            \
                         const mulred_msm_options *o, int t, mulred_error *e)                      \
    {                                                                                              \
        return mulred_##G##_msm_var(r, pts, s, n, o, t, e);                                        \
    }                                                                                              \
    static void G##_w_jac_add(void *r, const void *a, const void *b)                               \
    {                                                                                              \
        mulred_##G##_jacobian_add(r, a, b);                                                        \
    }                                                                                              \
    static void G##_w_jac_inf(void *r)                                                             \
    {                                                                                              \
        mulred_##G##_jacobian_set_infinity(r);                                                     \
    }                                                                                              \
    static void G##_w_points(void *out, const uint64_t(*a)[4], size_t n)                           \
    {                                                                                              \
        mulred_##G##_affine g, *pa = out;                                                          \
        mulred_##G##_jacobian gj, *j = malloc((n + 1) * sizeof *j);                                \
        void *scr = malloc(mulred_##G##_batch_to_affine_scratch_size(n + 1));                      \
        CU_ASSERT_FATAL(j &&scr);                                                                  \
        mulred_##G##_generator(&g);                                                                \
        mulred_##G##_jacobian_from_affine(&gj, &g);                                                \
        for (size_t i = 0; i < n; i++) mulred_##G##_jacobian_mul_var(&j[i], &gj, a[i]);            \
        mulred_##G##_jacobian_batch_to_affine_var(pa, j, n, scr);                                  \
        free(j), free(scr);                                                                        \
    }                                                                                              \
    static void G##_w_progression(void *out, const uint64_t a0[4], const uint64_t d[4], size_t n)  \
    {                                                                                              \
        mulred_##G##_affine g, da, *pa = out;                                                      \
        mulred_##G##_jacobian gj, dj, *j = malloc((n + 1) * sizeof *j);                            \
        void *scr = malloc(mulred_##G##_batch_to_affine_scratch_size(n + 1));                      \
        CU_ASSERT_FATAL(j &&scr);                                                                  \
        mulred_##G##_generator(&g);                                                                \
        mulred_##G##_jacobian_from_affine(&gj, &g);                                                \
        mulred_##G##_jacobian_mul_var(&j[0], &gj, a0);                                             \
        mulred_##G##_jacobian_mul_var(&dj, &gj, d);                                                \
        mulred_##G##_jacobian_to_affine(&da, &dj);                                                 \
        for (size_t i = 1; i < n; i++) mulred_##G##_jacobian_add_affine(&j[i], &j[i - 1], &da);    \
        mulred_##G##_jacobian_batch_to_affine_var(pa, j, n, scr);                                  \
        free(j), free(scr);                                                                        \
    }                                                                                              \
    static void G##_w_fixed_build(void *t, const mulred_msm_plan *p, const void *pts, size_t n,    \
                                  void *scr)                                                       \
    {                                                                                              \
        mulred_##G##_msm_fixed_table_build(t, p, pts, n, scr);                                     \
    }                                                                                              \
    static void G##_w_fixed(void *r, const mulred_msm_plan *p, const void *t,                      \
                            const mulred_scalar256 *s, size_t n, void *scr)                        \
    {                                                                                              \
        mulred_##G##_msm_fixed_var(r, p, t, s, n, scr);                                            \
    }

WRAP(g1_381)
WRAP(g1_254)

#define LIB(G)                                                                                     \
    {                                                                                              \
        sizeof(mulred_##G##_affine), sizeof(mulred_##G##_jacobian), mulred_##G##_msm_plan,         \
            mulred_##G##_msm_scratch_size, G##_w_serial, mulred_##G##_msm_recode,                  \
            mulred_##G##_msm_tile_scratch_size, G##_w_tile, G##_w_shift, G##_w_msm, G##_w_jac_add, \
            G##_w_jac_inf, G##_w_points, G##_w_progression, mulred_##G##_msm_fixed_plan,           \
            mulred_##G##_msm_fixed_table_size, mulred_##G##_msm_fixed_build_scratch_size,          \
            G##_w_fixed_build, mulred_##G##_msm_fixed_scratch_size, G##_w_fixed,                   \
            mulred_##G##_glv_lambda                                                                \
    }

static const lib libs[2] = {LIB(g1_381), LIB(g1_254)};

/* The largest Jacobian point (BLS12-381: 3 x 48 bytes). */
typedef struct {
    uint64_t l[18];
} jac_buf;

/* ---- an MSM instance: points aᵢ·G, scalars sᵢ, and the expected result ------------------- */

typedef struct {
    int ci;
    size_t n;
    mpz_t *a;  /* discrete logs (reduced mod r; 0 = infinity) */
    void *pts; /* n affine points */
    mulred_scalar256 *s;
} inst;

static void mpz_to_scalar(mulred_scalar256 *s, const mpz_t z)
{
    ref_mpz_to_u256(s->l, z); /* z < 2^256 */
}

static void scalar_to_mpz(mpz_t z, const mulred_scalar256 *s)
{
    ref_mpz_from_u256(z, s->l);
}

static void random_mod(mpz_t z, const mpz_t m)
{
    uint64_t l[4];
    for (int i = 0; i < 4; i++) l[i] = test_rand64();
    ref_mpz_from_u256(z, l);
    mpz_mod(z, z, m);
}

static void random_scalar(mulred_scalar256 *s)
{
    for (int i = 0; i < 4; i++) s->l[i] = test_rand64();
}

static void inst_alloc(inst *I, int ci, size_t n)
{
    I->ci = ci;
    I->n = n;
    I->a = malloc((n + 1) * sizeof *I->a);
    I->pts = malloc((n + 1) * libs[ci].aff);
    I->s = calloc(n + 1, sizeof *I->s);
    CU_ASSERT_FATAL(I->a && I->pts && I->s);
    for (size_t i = 0; i < n; i++) mpz_init(I->a[i]);
}

/* Makes the points from I->a (already set). */
static void inst_points(inst *I)
{
    uint64_t(*al)[4] = calloc(I->n + 1, sizeof *al);
    CU_ASSERT_FATAL(al != NULL);
    for (size_t i = 0; i < I->n; i++) ref_mpz_to_u256(al[i], I->a[i]);
    libs[I->ci].points(I->pts, (const uint64_t(*)[4])al, I->n);
    free(al);
}

static void inst_free(inst *I)
{
    for (size_t i = 0; i < I->n; i++) mpz_clear(I->a[i]);
    free(I->a);
    free(I->pts);
    free(I->s);
}

/* Random logs and scalars; `scalar_kind` 0: uniform 256-bit (so often >= r). */
static void inst_random(inst *I, int ci, size_t n)
{
    inst_alloc(I, ci, n);
    for (size_t i = 0; i < n; i++) {
        random_mod(I->a[i], ref_curve_get(ci)->r);
        random_scalar(&I->s[i]);
    }
    inst_points(I);
}

/* The expected Σ sᵢ·Pᵢ = (Σ aᵢ·sᵢ mod r)·G, by mpz. */
static void inst_expect(const inst *I, ref_point *want)
{
    const ref_curve *c = ref_curve_get(I->ci);
    mpz_t acc, s;
    mpz_inits(acc, s, NULL);
    for (size_t i = 0; i < I->n; i++) {
        scalar_to_mpz(s, &I->s[i]);
        mpz_addmul(acc, I->a[i], s);
    }
    mpz_mod(acc, acc, c->r);
    ref_mul(c, want, &c->g, acc);
    mpz_clears(acc, s, NULL);
}

static const char *lanes_name(mulred_msm_lanes l)
{
    return l == MULRED_MSM_LANES_X8 ? "x8" : "scalar";
}

/* The serial MSM with options o; returns 1 when it matches want. Prints the case on failure. */
static int check_serial(const inst *I, const mulred_msm_options *o, const ref_point *want,
                        const char *what)
{
    const lib *L = &libs[I->ci];
    mulred_msm_plan plan;
    L->plan(&plan, I->n, o);
    void *scratch = malloc(L->scratch_size(&plan, I->n));
    CU_ASSERT_FATAL(scratch != NULL);
    jac_buf r;
    L->serial(&r, &plan, I->pts, I->s, I->n, scratch);
    free(scratch);
    const int ok = ref_jacobian_matches(I->ci, &r, want);
    if (!ok)
        printf(
            "\n    MISMATCH %s %s n=%zu c=%u windows=%u form=%s lanes=%s glv=%d batch=%u queue=%u "
            "(seed %llu)",
            ref_curve_get(I->ci)->name, what, I->n, plan.window_bits, plan.windows,
            plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE ? "affine" : "xyzz",
            lanes_name(plan.lanes), plan.glv, plan.batch, plan.queue,
            (unsigned long long)test_seed());
    return ok;
}

static int have_x8(void)
{
    return mulred_fieldx8_have_ifma();
}

/* Every (bucket form, lanes, GLV) for the window width c (0: the cost model). */
static int check_variants(const inst *I, int c, const ref_point *want, const char *what)
{
    int ok = 1;
    for (int form = 1; form <= 2; form++)
        for (int lanes = 1; lanes <= 2; lanes++) {
            if (lanes == MULRED_MSM_LANES_X8 && (!have_x8() || form == MULRED_MSM_BUCKETS_XYZZ))
                continue; /* XYZZ buckets are scalar code whatever the lanes */
            for (int glv = -1; glv <= 1; glv += 2) {
                mulred_msm_options o = {.window_bits = c,
                                        .glv = glv,
                                        .buckets = (mulred_msm_buckets)form,
                                        .lanes = (mulred_msm_lanes)lanes};
                ok &= check_serial(I, &o, want, what);
            }
        }
    return ok;
}

/* ---- tests --------------------------------------------------------------------------------- */

static void test_glv_constants(void)
{
    /* The curve layer's λ (which the MSM's GLV recoding uses) against the reference: a cube
     * root of unity mod r whose multiple of G is (βx, y) with β a cube root of unity mod p. */
    for (int ci = 0; ci < 2; ci++) {
        const ref_curve *c = ref_curve_get(ci);
        mpz_t lam, t, beta;
        mpz_inits(lam, t, beta, NULL);
        uint64_t ll[4];
        libs[ci].glv_lambda(ll);
        ref_mpz_from_u256(lam, ll);
        mpz_mul(t, lam, lam);
        mpz_add(t, t, lam);
        mpz_add_ui(t, t, 1);
        CU_ASSERT(mpz_divisible_p(t, c->r)); /* λ² + λ + 1 ≡ 0 (mod r) */
        /* β = x(λ·G)/x(G) must be a non-trivial cube root of 1 with y(λ·G) = y(G) */
        ref_point lg;
        ref_point_init(&lg);
        ref_mul(c, &lg, &c->g, lam);
        CU_ASSERT(mpz_cmp(lg.y, c->g.y) == 0);
        mpz_invert(t, c->g.x, c->p);
        mpz_mul(beta, lg.x, t);
        mpz_mod(beta, beta, c->p);
        mpz_powm_ui(t, beta, 3, c->p);
        CU_ASSERT(mpz_cmp_ui(t, 1) == 0);
        CU_ASSERT(mpz_cmp_ui(beta, 1) != 0);
        /* one-point GLV MSMs with scalars λ, λ + 1 and r − λ (halves (0, ±1), (1, 1)) */
        inst I;
        inst_alloc(&I, ci, 1);
        mpz_set_ui(I.a[0], 1);
        inst_points(&I);
        const char *ks[3] = {"l", "l+1", "r-l"};
        for (int k = 0; k < 3; k++) {
            mpz_set(t, lam);
            if (k == 1) mpz_add_ui(t, t, 1);
            if (k == 2) mpz_sub(t, c->r, lam);
            mpz_to_scalar(&I.s[0], t);
            ref_point want;
            ref_point_init(&want);
            inst_expect(&I, &want);
            mulred_msm_options o = {.glv = 1, .window_bits = 5};
            CU_ASSERT(check_serial(&I, &o, &want, ks[k]));
            ref_point_clear(&want);
        }
        inst_free(&I);
        ref_point_clear(&lg);
        mpz_clears(lam, t, beta, NULL);
    }
}

/* Booth digits: Σ d_w·2^(cw) = k, |d_w| <= 2^(c−1), top digit >= 0, for every c. */
static void test_booth_digits(void)
{
    mpz_t k, sum, term;
    mpz_inits(k, sum, term, NULL);
    for (int it = 0; it < 400; it++) {
        uint64_t l[4];
        for (int i = 0; i < 4; i++) l[i] = test_rand64();
        const unsigned bits = it % 2 ? 255 : 254;
        if (it < 8) memset(l, it & 1 ? 0xff : 0x55, sizeof l); /* all ones, alternating */
        if (it == 8) memset(l, 0, sizeof l);
        l[3] &= bits == 255 ? ~(UINT64_C(1) << 63) : ~(UINT64_C(3) << 62);
        ref_mpz_from_u256(k, l);
        for (unsigned c = 1; c <= MSM_MAX_WINDOW_BITS; c++) {
            const unsigned W = msm_windows(bits, c);
            mpz_set_ui(sum, 0);
            int ok = 1;
            for (unsigned w = 0; w < W; w++) {
                const int d = msm_booth_digit(l, 4, w, c);
                ok &= d >= -(1 << (c - 1)) && d <= (1 << (c - 1));
                if (w == W - 1) ok &= d >= 0;
                mpz_set_si(term, d);
                mpz_mul_2exp(term, term, c * w);
                mpz_add(sum, sum, term);
            }
            CU_ASSERT(ok);
            CU_ASSERT(mpz_cmp(sum, k) == 0);
        }
    }
    mpz_clears(k, sum, term, NULL);
}

/* GLV recoding: k ≡ ±k1 ± k2·λ (mod r), halves below 2^GLV_BITS, for random and edge k. */
static void test_glv_split(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const ref_curve *rc = ref_curve_get(ci);
        mulred_msm_plan plan;
        mulred_msm_options o = {.glv = 1};
        libs[ci].plan(&plan, 1000, &o);
        CU_ASSERT(plan.glv);
        mpz_t lam, k, k1, k2, t;
        mpz_inits(lam, k, k1, k2, t, NULL);
        uint64_t ll[4];
        libs[ci].glv_lambda(ll);
        ref_mpz_from_u256(lam, ll);
        for (int it = 0; it < 3000; it++) {
            mulred_scalar256 s;
            random_scalar(&s);
            if (it < 6) { /* 0, 1, r − 1, r, 2^256 − 1, r/2 */
                mpz_set_ui(t, 0);
                if (it == 1) mpz_set_ui(t, 1);
                if (it == 2) mpz_sub_ui(t, rc->r, 1);
                if (it == 3) mpz_set(t, rc->r);
                if (it == 4) mpz_ui_pow_ui(t, 2, 256), mpz_sub_ui(t, t, 1);
                if (it == 5) mpz_fdiv_q_2exp(t, rc->r, 1);
                mpz_to_scalar(&s, t);
            }
            mulred_msm_rscalar rs;
            libs[ci].recode(&rs, &s, 1, &plan);
            /* private layout (msm_impl.h): halves in l[0..1] and l[2..3], signs in bit 63 */
            const uint64_t top = ~(UINT64_C(1) << 63);
            const uint64_t h1[4] = {rs.l[0], rs.l[1] & top, 0, 0},
                           h2[4] = {rs.l[2], rs.l[3] & top, 0, 0};
            ref_mpz_from_u256(k1, h1);
            ref_mpz_from_u256(k2, h2);
            CU_ASSERT(mpz_sizeinbase(k1, 2) <= plan.scalar_bits);
            CU_ASSERT(mpz_sizeinbase(k2, 2) <= plan.scalar_bits);
            if (rs.l[1] >> 63) mpz_neg(k1, k1);
            if (rs.l[3] >> 63) mpz_neg(k2, k2);
            mpz_addmul(k1, k2, lam);
            scalar_to_mpz(k, &s);
            mpz_sub(k1, k1, k);
            CU_ASSERT(mpz_divisible_p(k1, rc->r));
        }
        mpz_clears(lam, k, k1, k2, t, NULL);
    }
}

/* The points made by the curve layer match the reference for a few logs. */
static void test_points_reference(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const ref_curve *c = ref_curve_get(ci);
        inst I;
        inst_random(&I, ci, 6);
        for (size_t i = 0; i < I.n; i++) {
            ref_point want, got;
            ref_point_init(&want), ref_point_init(&got);
            ref_mul(c, &want, &c->g, I.a[i]);
            ref_from_affine(ci, &got, (char *)I.pts + i * libs[ci].aff);
            CU_ASSERT_FATAL(!got.inf);
            CU_ASSERT(ref_point_equal(&got, &want));
            ref_point_clear(&want), ref_point_clear(&got);
        }
        inst_free(&I);
    }
}

/* n = 1..300 with the automatic plan (the prefixes of one random instance), and every forced
 * variant at a spread of n. */
static void test_sizes(void)
{
    for (int ci = 0; ci < 2; ci++) {
        inst I;
        inst_random(&I, ci, 300);
        int ok = 1;
        const size_t full = I.n;
        for (size_t n = 1; n <= full; n++) {
            I.n = n;
            ref_point want;
            ref_point_init(&want);
            inst_expect(&I, &want);
            ok &= check_serial(&I, NULL, &want, "auto");
            if (n <= 8 || n % 37 == 0 || n == full) ok &= check_variants(&I, 0, &want, "variants");
            ref_point_clear(&want);
        }
        I.n = full;
        CU_ASSERT(ok);
        inst_free(&I);
    }
}

/* Every window width with every form, lanes and GLV, at n = 300 and n = 2^12. */
static void test_window_widths(void)
{
    const size_t sizes[2] = {300, 4096};
    for (int ci = 0; ci < 2; ci++)
        for (int si = 0; si < 2; si++) {
            inst I;
            inst_random(&I, ci, sizes[si]);
            ref_point want;
            ref_point_init(&want);
            inst_expect(&I, &want);
            int ok = check_serial(&I, NULL, &want, "auto");
            for (int c = 1; c <= MSM_MAX_WINDOW_BITS; c++) {
                if (si == 1 && c < 4) continue; /* 2^12 points at c < 4: slow and covered at 300 */
                /* forced past the automatic widths: every window reduces 2^(c−1) buckets */
                if (c > MSM_AUTO_WINDOW_BITS && (si == 1 || c != 17)) continue;
                ok &= check_variants(&I, c, &want, "width");
            }
            CU_ASSERT(ok);
            ref_point_clear(&want);
            inst_free(&I);
        }
}

/* The traps of the issue, each on both curves with every variant at a few widths. */
static void test_traps(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const ref_curve *c = ref_curve_get(ci);
        const unsigned rbits = (unsigned)mpz_sizeinbase(c->r, 2);
        const size_t n = 600;
        for (int trap = 0; trap < 9; trap++) {
            inst I;
            inst_alloc(&I, ci, trap == 0 ? 1 : n);
            mpz_t t, a0;
            mpz_inits(t, a0, NULL);
            random_mod(a0, c->r);
            for (size_t i = 0; i < I.n; i++) {
                random_mod(I.a[i], c->r);
                random_scalar(&I.s[i]);
                switch (trap) {
                case 1: /* every scalar 0 */
                    memset(&I.s[i], 0, sizeof I.s[i]);
                    break;
                case 2: /* infinity as input: every third point */
                    if (i % 3 == 0) mpz_set_ui(I.a[i], 0);
                    break;
                case 3: /* all points equal */
                    mpz_set(I.a[i], a0);
                    break;
                case 4: /* only P and −P, equal small scalars: equal and opposite pairs in
                           every batch, buckets cancelling to infinity */
                    mpz_set(I.a[i], a0);
                    if (i % 2) mpz_sub(I.a[i], c->r, a0);
                    I.s[i] = (mulred_scalar256){{1 + test_rand_below(40), 0, 0, 0}};
                    break;
                case 5: /* scalars r, r + 1, r − 1, 2^256 − 1, 2^256 − r */
                    switch (i % 5) {
                    case 0:
                        mpz_set(t, c->r);
                        break;
                    case 1:
                        mpz_add_ui(t, c->r, 1);
                        break;
                    case 2:
                        mpz_sub_ui(t, c->r, 1);
                        break;
                    case 3:
                        mpz_ui_pow_ui(t, 2, 256), mpz_sub_ui(t, t, 1);
                        break;
                    default:
                        mpz_ui_pow_ui(t, 2, 256), mpz_sub(t, t, c->r);
                        break;
                    }
                    mpz_to_scalar(&I.s[i], t);
                    break;
                case 6: /* the carry out of the last window: 2^(bits−1) − 1 and neighbours,
                           all-ones patterns below r */
                    mpz_ui_pow_ui(t, 2, rbits - 1 - (i % 3));
                    mpz_sub_ui(t, t, 1 + (i % 7 == 0));
                    mpz_to_scalar(&I.s[i], t);
                    break;
                case 7: /* few distinct points, mixed with their negatives */
                    mpz_set_ui(I.a[i], 1 + i % 5);
                    if (i % 4 == 1) mpz_sub(I.a[i], c->r, I.a[i]);
                    break;
                case 8: /* small scalars (few buckets), some zero */
                    I.s[i] = (mulred_scalar256){{test_rand_below(5), 0, 0, 0}};
                    break;
                }
            }
            inst_points(&I);
            ref_point want;
            ref_point_init(&want);
            inst_expect(&I, &want);
            int ok = check_serial(&I, NULL, &want, "trap auto");
            const int widths[] = {1, 2, 3, 5, 7, 8, 9, 12, 14, 15, 16};
            for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
                ok &= check_variants(&I, widths[wi], &want, "trap");
            /* queue depths and short batches: none, 1, 3, default, 4096; batch 8 */
            const int queues[] = {-1, 1, 3, 0, 4096};
            for (size_t q = 0; q < 5; q++)
                for (int lanes = 1; lanes <= (have_x8() ? 2 : 1); lanes++) {
                    mulred_msm_options o = {.window_bits = 9,
                                            .buckets = MULRED_MSM_BUCKETS_AFFINE,
                                            .lanes = (mulred_msm_lanes)lanes,
                                            .queue = queues[q],
                                            .batch = q % 2 ? 8 : 0};
                    ok &= check_serial(&I, &o, &want, "queue");
                    o.glv = 1;
                    ok &= check_serial(&I, &o, &want, "queue glv");
                }
            if (!ok) printf("\n    (trap %d)", trap);
            CU_ASSERT(ok);
            ref_point_clear(&want);
            mpz_clears(t, a0, NULL);
            inst_free(&I);
        }
    }
}

/* Tiles over window ranges × bucket ranges × point ranges, shifted and added by the caller. */
static void test_tiles(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const lib *L = &libs[ci];
        inst I;
        inst_random(&I, ci, 1000);
        ref_point want;
        ref_point_init(&want);
        inst_expect(&I, &want);
        for (int variant = 0; variant < 6; variant++) {
            mulred_msm_options o = {.window_bits = 6 + 2 * variant,
                                    .glv = variant % 2 ? 1 : -1,
                                    .lanes = variant % 3 == 2 ? MULRED_MSM_LANES_SCALAR : 0};
            mulred_msm_plan plan;
            L->plan(&plan, I.n, &o);
            mulred_msm_rscalar *k = malloc(I.n * sizeof *k);
            void *scratch = malloc(L->tile_scratch(&plan));
            CU_ASSERT_FATAL(k && scratch);
            L->recode(k, I.s, I.n, &plan);
            jac_buf acc, part;
            L->jac_inf(&acc);
            /* windows in groups of 3, buckets in 3 uneven ranges, points in 4 slices */
            const unsigned M = plan.buckets, cuts[4] = {0, M / 5, M / 2, M};
            const size_t slices[5] = {0, 1, I.n / 3, I.n / 2, I.n};
            for (unsigned w0 = 0; w0 < plan.windows; w0 += 3) {
                const unsigned w1 = w0 + 3 < plan.windows ? w0 + 3 : plan.windows;
                for (int b = 0; b < 3; b++) {
                    if (cuts[b] == cuts[b + 1]) continue;
                    for (int s = 0; s < 4; s++) {
                        const mulred_msm_tile tile = {w0, w1, cuts[b], cuts[b + 1]};
                        L->tile(&part, &plan, &tile, (const char *)I.pts + slices[s] * L->aff,
                                k + slices[s], slices[s + 1] - slices[s], scratch);
                        L->shift(&part, &part, plan.window_bits * w0);
                        L->jac_add(&acc, &acc, &part);
                    }
                }
            }
            CU_ASSERT(ref_jacobian_matches(ci, &acc, &want));
            free(k);
            free(scratch);
        }
        ref_point_clear(&want);
        inst_free(&I);
    }
}

/* Σ (aᵢ·G)·sᵢ = (Σ aᵢ·sᵢ)·G at 2^16, the points an arithmetic progression of logs. */
static void test_self_check_2e16(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const size_t n = 1 << 16;
        inst I;
        inst_alloc(&I, ci, n);
        mpz_t a0, d;
        mpz_inits(a0, d, NULL);
        random_mod(a0, ref_curve_get(ci)->r);
        random_mod(d, ref_curve_get(ci)->r);
        uint64_t a0l[4] = {0}, dl[4] = {0};
        ref_mpz_to_u256(a0l, a0);
        ref_mpz_to_u256(dl, d);
        libs[ci].progression(I.pts, a0l, dl, n);
        for (size_t i = 0; i < n; i++) {
            mpz_set(I.a[i], a0);
            mpz_addmul_ui(I.a[i], d, i);
            mpz_mod(I.a[i], I.a[i], ref_curve_get(ci)->r);
            random_scalar(&I.s[i]);
        }
        ref_point want;
        ref_point_init(&want);
        inst_expect(&I, &want);
        CU_ASSERT(check_serial(&I, NULL, &want, "2^16 auto"));
        mulred_msm_options o = {.glv = -1};
        CU_ASSERT(check_serial(&I, &o, &want, "2^16 no glv"));
        jac_buf r;
        mulred_error err;
        CU_ASSERT(libs[ci].msm(&r, I.pts, I.s, n, NULL, 2, &err) == MULRED_OK);
        CU_ASSERT(ref_jacobian_matches(ci, &r, &want));
        ref_point_clear(&want);
        mpz_clears(a0, d, NULL);
        inst_free(&I);
    }
}

/* Threads 1–3 (and the default) give the same Jacobian bytes; the result matches. */
static void test_threads(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const lib *L = &libs[ci];
        const size_t sizes[3] = {5, 700, 5000};
        for (int si = 0; si < 3; si++) {
            inst I;
            inst_random(&I, ci, sizes[si]);
            ref_point want;
            ref_point_init(&want);
            inst_expect(&I, &want);
            for (int variant = 0; variant < 3; variant++) {
                mulred_msm_options o = {0};
                if (variant == 1) o.window_bits = 16; /* 16 windows: ranges for 3 threads */
                if (variant == 2) o.glv = 1, o.window_bits = 13; /* 10 windows */
                jac_buf r[4];
                memset(r, 0, sizeof r);
                mulred_error err;
                for (int t = 0; t < 4; t++) {
                    CU_ASSERT(L->msm(&r[t], I.pts, I.s, I.n, &o, t, &err) == MULRED_OK);
                    CU_ASSERT(ref_jacobian_matches(ci, &r[t], &want));
                }
                CU_ASSERT(memcmp(&r[1], &r[2], L->jac) == 0);
                CU_ASSERT(memcmp(&r[1], &r[3], L->jac) == 0);
                CU_ASSERT(memcmp(&r[1], &r[0], L->jac) == 0);
            }
            ref_point_clear(&want);
            inst_free(&I);
        }
    }
}

/* The MSM from inside a parallel region (every thread its own MSM, nested), from tasks, and
 * from a single construct: no deadlock, the right results. */
static void test_nested(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const lib *L = &libs[ci];
        enum { K = 4 };
        inst I[K];
        ref_point want[K];
        for (int k = 0; k < K; k++) {
            inst_random(&I[k], ci, 300 + 400 * (size_t)k);
            ref_point_init(&want[k]);
            inst_expect(&I[k], &want[k]);
        }
        jac_buf r[3][K];
        int st[3][K];
#pragma omp parallel num_threads(2)
        {
#pragma omp for schedule(dynamic, 1)
            for (int k = 0; k < K; k++) {
                mulred_error err;
                st[0][k] = L->msm(&r[0][k], I[k].pts, I[k].s, I[k].n, NULL, 2, &err);
            }
#pragma omp single
            {
                for (int k = 0; k < K; k++) {
#pragma omp task firstprivate(k) shared(r, st, I)
                    {
                        mulred_error err;
                        st[1][k] = L->msm(&r[1][k], I[k].pts, I[k].s, I[k].n, NULL, 3, &err);
                    }
                }
#pragma omp taskwait
                for (int k = 0; k < K; k++) {
                    mulred_error err;
                    st[2][k] = L->msm(&r[2][k], I[k].pts, I[k].s, I[k].n, NULL, 0, &err);
                }
            }
        }
        for (int m = 0; m < 3; m++)
            for (int k = 0; k < K; k++) {
                CU_ASSERT(st[m][k] == MULRED_OK);
                CU_ASSERT(ref_jacobian_matches(ci, &r[m][k], &want[k]));
            }
        for (int k = 0; k < K; k++) {
            ref_point_clear(&want[k]);
            inst_free(&I[k]);
        }
    }
}

/* Fixed-base tables: every width the fixed plan allows, both forms and lanes, with traps (the
 * fold's edges among them: (r − 1)/2 stays, (r + 1)/2 and above fold to r − k on −P). */
static void test_fixed_base(void)
{
    for (int ci = 0; ci < 2; ci++) {
        const lib *L = &libs[ci];
        const size_t sizes[4] = {1, 7, 300, 4096};
        for (int si = 0; si < 4; si++) {
            inst I;
            inst_random(&I, ci, sizes[si]);
            for (size_t i = 0; i < I.n; i += 5) { /* traps: infinity, 0, r, 2^256 − 1, r − 1,
                                                   * (r − 1)/2, (r + 1)/2, r + (r + 1)/2 */
                const mpz_srcptr r = ref_curve_get(ci)->r;
                mpz_t t;
                mpz_init(t);
                switch (i / 5 % 8) {
                case 0:
                    mpz_set_ui(I.a[i], 0);
                    break;
                case 1:
                    memset(&I.s[i], 0, sizeof I.s[i]);
                    break;
                case 2:
                    mpz_to_scalar(&I.s[i], ref_curve_get(ci)->r);
                    break;
                case 3:
                    memset(&I.s[i], 0xff, sizeof I.s[i]);
                    break;
                case 4:
                    mpz_sub_ui(t, r, 1), mpz_to_scalar(&I.s[i], t);
                    break;
                case 5:
                    mpz_fdiv_q_2exp(t, r, 1), mpz_to_scalar(&I.s[i], t);
                    break;
                case 6:
                    mpz_add_ui(t, r, 1), mpz_fdiv_q_2exp(t, t, 1), mpz_to_scalar(&I.s[i], t);
                    break;
                default:
                    mpz_add_ui(t, r, 1), mpz_fdiv_q_2exp(t, t, 1), mpz_add(t, t, r);
                    mpz_to_scalar(&I.s[i], t);
                    break;
                }
                mpz_clear(t);
            }
            inst_points(&I);
            ref_point want;
            ref_point_init(&want);
            inst_expect(&I, &want);
            int ok = 1;
            void *table = NULL;
            unsigned table_c = 0;
            for (int c = 0; c <= MSM_MAX_WINDOW_BITS; c++) {
                if (c && c < 4) continue;
                if (si == 3 && c && c < 9) continue; /* big tables at 2^12: wide windows only */
                /* past 16 bits (2^16..2^21 buckets a call): a few widths, at 300 and 2^12 */
                const bool wide = c > MSM_AUTO_WINDOW_BITS;
                if (wide && (si < 2 || (c != 17 && c != 20 && c != MSM_MAX_WINDOW_BITS))) continue;
                for (int variant = 0; variant < 3; variant++) {
                    if (variant == 2 && !have_x8()) continue;
                    if (wide && variant == (have_x8() ? 1 : 0)) continue; /* one batch variant */
                    mulred_msm_options o = {.window_bits = c,
                                            .buckets = variant == 0 ? MULRED_MSM_BUCKETS_XYZZ
                                                                    : MULRED_MSM_BUCKETS_AFFINE,
                                            .lanes = variant == 2 ? MULRED_MSM_LANES_X8
                                                                  : MULRED_MSM_LANES_SCALAR};
                    if (variant == 0 && c > 10) continue;   /* XYZZ with 2^15 buckets: slow */
                    if (c == 0) o.buckets = 0, o.lanes = 0; /* the automatic plan */
                    mulred_msm_plan plan;
                    L->fixed_plan(&plan, I.n, &o);
                    CU_ASSERT(plan.fixed && !plan.glv);
                    if (plan.window_bits != table_c) { /* the table depends on c only */
                        free(table);
                        table = malloc(L->fixed_table_size(&plan, I.n) * L->aff);
                        void *bs = malloc(L->fixed_build_scratch(I.n));
                        CU_ASSERT_FATAL(table && bs);
                        L->fixed_build(table, &plan, I.pts, I.n, bs);
                        free(bs);
                        table_c = plan.window_bits;
                    }
                    void *scr = malloc(L->fixed_scratch(&plan, I.n));
                    CU_ASSERT_FATAL(scr != NULL);
                    jac_buf r;
                    L->fixed(&r, &plan, table, I.s, I.n, scr);
                    const int good = ref_jacobian_matches(ci, &r, &want);
                    if (!good)
                        printf("\n    MISMATCH fixed %s n=%zu c=%u form=%d lanes=%d (seed %llu)",
                               ref_curve_get(ci)->name, I.n, plan.window_bits, plan.bucket_form,
                               plan.lanes, (unsigned long long)test_seed());
                    ok &= good;
                    free(scr);
                }
            }
            free(table);
            CU_ASSERT(ok);
            ref_point_clear(&want);
            inst_free(&I);
        }
    }
}

/* ---- registration -------------------------------------------------------------------------- */

void test_register(void)
{
    printf("8-lane kernels: %s\n", have_x8() ? "yes (tested beside scalar)" : "no (scalar only)");
    TEST_SUITE(
        "msm", {"Booth digits against mpz, every width", test_booth_digits},
        {"GLV constants: lambda, beta, phi(G) = lambda G", test_glv_constants},
        {"GLV split against mpz", test_glv_split},
        {"points made for the tests match the reference", test_points_reference},
        {"n = 1..300 against the reference, every variant", test_sizes},
        {"every window width 1..17, n = 300 and 2^12", test_window_widths},
        {"traps of the issue", test_traps}, {"tiles over windows x buckets x points", test_tiles},
        {"fixed-base tables, every width", test_fixed_base},
        {"self-check at 2^16", test_self_check_2e16}, {"threads 1-3 identical", test_threads},
        {"nested: parallel region, tasks, single", test_nested});
}

/* The distributed MSM without MPI (include/mulred/msm_grid.h, mulred_G_msm_windows_var):
 *
 *   - the point-addition groups against the mpz reference (curve_ref.h): identity, every
 *     addition case (distinct, equal with different Z, opposite, infinity on either side),
 *     partials combined in any order;
 *   - window ranges with threads: any partition of the windows, each range computed by
 *     msm_windows_var with 1-3 threads (and nested inside a parallel region) and shifted,
 *     sums to (Σ aᵢ·sᵢ mod r)·G computed in mpz over points of known logarithm;
 *   - the grid planner against the cost model of msm_grid.h written out in this file (not
 *     mulred_msm_grid_eval): its grid costs no more than any grid the model allows (every S,
 *     G, c, GLV), for every n <= 40 and P <= 6 and larger cases, and carries the model's
 *     figures; memory limits hold, forced grids are honoured or refused; hand-worked grids
 *     and window splits; shares cover every (point, window) exactly once;
 *   - the whole distributed computation simulated in one process: for every grid of P <= 4
 *     ranks, each rank's slice x windows partial, shifted, combined with the group, equals the
 *     reference. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_ref.h"
#include "harness.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "mulred/msm_grid.h"
#include "mulred/msm_io.h"

/* ---- the library behind one table for both curves ---- */

typedef struct {
    void (*plan)(mulred_msm_plan *, size_t, const mulred_msm_options *);
    int (*windows)(void *, const mulred_msm_plan *, unsigned, unsigned, const void *,
                   const mulred_scalar256 *, size_t, int, mulred_error *);
    void (*shift)(void *, const void *, unsigned);
    void (*from_affine)(void *, const void *);
    void (*mul)(void *, const void *, const uint64_t[4]);
    void (*add)(void *, const void *, const void *);
    void (*neg)(void *, const void *);
    void (*generator)(void *);
} dlib;

#define WRAP(G)                                                                                    \
    static int G##_windows(void *r, const mulred_msm_plan *p, unsigned w0, unsigned w1,            \
                           const void *pts, const mulred_scalar256 *s, size_t n, int t,            \
                           mulred_error *e)                                                        \
    {                                                                                              \
        return mulred_##G##_msm_windows_var(r, p, w0, w1, pts, s, n, t, e);                        \
    }                                                                                              \
    static void G##_shift(void *r, const void *a, unsigned b)                                      \
    {                                                                                              \
        mulred_##G##_msm_shift(r, a, b);                                                           \
    }                                                                                              \
    static void G##_from_affine(void *r, const void *a)                                            \
    {                                                                                              \
        mulred_##G##_jacobian_from_affine(r, a);                                                   \
    }                                                                                              \
    static void G##_mul(void *r, const void *a, const uint64_t k[4])                               \
    {                                                                                              \
        mulred_##G##_jacobian_mul_var(r, a, k);                                                    \
    }                                                                                              \
    static void G##_add(void *r, const void *a, const void *b)                                     \
    {                                                                                              \
        mulred_##G##_jacobian_add(r, a, b);                                                        \
    }                                                                                              \
    static void G##_neg(void *r, const void *a)                                                    \
    {                                                                                              \
        mulred_##G##_jacobian_neg(r, a);                                                           \
    }                                                                                              \
    static void G##_generator(void *r)                                                             \
    {                                                                                              \
        mulred_##G##_generator(r);                                                                 \
    }
WRAP(g1_381)
WRAP(g1_254)

static const dlib libs[2] = {
    {mulred_g1_381_msm_plan, g1_381_windows, g1_381_shift, g1_381_from_affine, g1_381_mul,
     g1_381_add, g1_381_neg, g1_381_generator},
    {mulred_g1_254_msm_plan, g1_254_windows, g1_254_shift, g1_254_from_affine, g1_254_mul,
     g1_254_add, g1_254_neg, g1_254_generator},
};

/* The largest Jacobian point: 144 bytes. */
typedef struct {
    uint64_t l[18];
} jbuf;
typedef struct {
    uint64_t l[12];
} abuf;

static void random_scalar(uint64_t k[4])
{
    for (int i = 0; i < 4; i++) k[i] = test_rand64();
}

/* Jacobian k·G with a Z that is not 1 (a scalar multiplication's own result). */
static void jac_mul_g(int c, jbuf *r, const uint64_t k[4])
{
    abuf g;
    jbuf gj;
    libs[c].generator(&g);
    libs[c].from_affine(&gj, &g);
    libs[c].mul(r, &gj, k);
}

static void ref_mul_g(int c, ref_point *r, const uint64_t k[4])
{
    const ref_curve *rc = ref_curve_get(c);
    mpz_t z;
    mpz_init(z);
    ref_mpz_from_u256(z, k);
    ref_mul(rc, r, &rc->g, z);
    mpz_clear(z);
}

static int jac_same_point(int c, const jbuf *a, const jbuf *b)
{
    ref_point x, y;
    ref_point_init(&x), ref_point_init(&y);
    ref_from_jacobian(c, &x, a);
    ref_from_jacobian(c, &y, b);
    const int same = ref_point_equal(&x, &y);
    ref_point_clear(&x), ref_point_clear(&y);
    return same;
}

static int jac_matches(int c, const jbuf *j, const ref_point *want)
{
    ref_point got;
    ref_point_init(&got);
    ref_from_jacobian(c, &got, j);
    int ok = ref_point_equal(&got, want);
    ref_point_clear(&got);
    return ok;
}

/* ---- the point groups ---- */

static void test_point_group(void)
{
    for (int c = 0; c < 2; c++) {
        const mulred_group *g = mulred_msm_point_group((mulred_curve)c);
        const ref_curve *rc = ref_curve_get(c);
        CU_ASSERT_EQUAL(g->elem_bytes, mulred_msm_jacobian_bytes((mulred_curve)c));
        CU_ASSERT_EQUAL(g->elem_bytes % 8, 0);
        jbuf id, acc, p, q;
        ref_point rp, rq, rs, rinf;
        ref_point_init(&rp), ref_point_init(&rq), ref_point_init(&rs), ref_point_init(&rinf);
        memset(&id, 0xa5, sizeof id);
        g->identity(&id, g);
        CU_ASSERT(jac_matches(c, &id, &rinf));
        for (int round = 0; round < 8; round++) {
            uint64_t a[4], b[4];
            random_scalar(a), random_scalar(b);
            jac_mul_g(c, &p, a), jac_mul_g(c, &q, b);
            ref_mul_g(c, &rp, a), ref_mul_g(c, &rq, b);
            /* distinct points */
            acc = p;
            g->combine(&acc, &q, g);
            ref_add(rc, &rs, &rp, &rq);
            CU_ASSERT(jac_matches(c, &acc, &rs));
            /* the same point with another Z: (a − 1)·G + G */
            uint64_t am1[4];
            memcpy(am1, a, sizeof am1);
            for (int i = 0; i < 4 && am1[i]-- == 0; i++) continue;
            jbuf p2, gj;
            abuf gen;
            jac_mul_g(c, &p2, am1);
            libs[c].generator(&gen);
            libs[c].from_affine(&gj, &gen);
            libs[c].add(&p2, &p2, &gj);
            CU_ASSERT(jac_matches(c, &p2, &rp));
            acc = p;
            g->combine(&acc, &p2, g);
            ref_add(rc, &rs, &rp, &rp);
            CU_ASSERT(jac_matches(c, &acc, &rs));
            /* opposite points */
            jbuf np;
            libs[c].neg(&np, &p2);
            acc = p;
            g->combine(&acc, &np, g);
            CU_ASSERT(jac_matches(c, &acc, &rinf));
            /* infinity on either side, and both */
            acc = id;
            g->combine(&acc, &p, g);
            CU_ASSERT(jac_matches(c, &acc, &rp));
            acc = p;
            g->combine(&acc, &id, g);
            CU_ASSERT(jac_matches(c, &acc, &rp));
            acc = id;
            g->combine(&acc, &id, g);
            CU_ASSERT(jac_matches(c, &acc, &rinf));
        }
        /* 24 partials combined in two different orders and groupings give the same point */
        enum { K = 24 };
        jbuf parts[K], x, y;
        ref_point sum;
        ref_point_init(&sum);
        for (int i = 0; i < K; i++) {
            uint64_t a[4];
            random_scalar(a);
            if (i % 7 == 3) memset(a, 0, sizeof a); /* some identities */
            jac_mul_g(c, &parts[i], a);
            ref_mul_g(c, &rp, a);
            ref_add(rc, &sum, &sum, &rp);
        }
        g->identity(&x, g);
        for (int i = 0; i < K; i++) g->combine(&x, &parts[i], g);
        jbuf halves[2];
        g->identity(&halves[0], g), g->identity(&halves[1], g);
        for (int i = K; i-- > 0;) g->combine(&halves[i % 2], &parts[i], g);
        y = halves[1];
        g->combine(&y, &halves[0], g);
        CU_ASSERT(jac_matches(c, &x, &sum));
        CU_ASSERT(jac_matches(c, &y, &sum));
        ref_point_clear(&sum);
        ref_point_clear(&rp), ref_point_clear(&rq), ref_point_clear(&rs), ref_point_clear(&rinf);
    }
}

static void test_curve_names(void)
{
    mulred_curve c = MULRED_CURVE_BN254;
    CU_ASSERT_EQUAL(mulred_curve_parse(&c, "bls12-381"), MULRED_OK);
    CU_ASSERT_EQUAL(c, MULRED_CURVE_BLS12_381);
    CU_ASSERT_EQUAL(mulred_curve_parse(&c, "bn254"), MULRED_OK);
    CU_ASSERT_EQUAL(c, MULRED_CURVE_BN254);
    CU_ASSERT_EQUAL(mulred_curve_parse(&c, "BN254"), MULRED_EINPUT);
    CU_ASSERT_EQUAL(mulred_curve_parse(&c, "bls12_381"), MULRED_EINPUT);
    CU_ASSERT_EQUAL(mulred_curve_parse(&c, ""), MULRED_EINPUT);
    CU_ASSERT_EQUAL(c, MULRED_CURVE_BN254);
    CU_ASSERT_STRING_EQUAL(mulred_curve_name(MULRED_CURVE_BLS12_381), "bls12-381");
    CU_ASSERT_STRING_EQUAL(mulred_curve_name(MULRED_CURVE_BN254), "bn254");
    CU_ASSERT_EQUAL(mulred_msm_affine_bytes(MULRED_CURVE_BLS12_381), 96);
    CU_ASSERT_EQUAL(mulred_msm_affine_bytes(MULRED_CURVE_BN254), 64);
}

/* ---- a test set: synthetic points of known logarithm, and the reference sum ---- */

typedef struct {
    int c;
    size_t n;
    void *points;
    mulred_scalar256 *scalars;
    ref_point want; /* Σ sᵢ·Pᵢ */
} test_set;

/* n synthetic pairs from index first; every 9th point made infinity and a few scalars made
 * 0, r-exceeding or 2^256 − 1 (the reference uses (Σ aᵢ·sᵢ mod r)·G with aᵢ = 0 at infinity). */
static void set_make(test_set *t, int c, uint64_t seed, uint64_t first, size_t n, int traps)
{
    const ref_curve *rc = ref_curve_get(c);
    t->c = c;
    t->n = n;
    t->points = malloc(n * mulred_msm_affine_bytes((mulred_curve)c) + 1);
    t->scalars = malloc(n * sizeof *t->scalars + 1);
    CU_ASSERT_FATAL(t->points && t->scalars);
    mulred_error err;
    CU_ASSERT_FATAL(mulred_msm_synth(t->points, t->scalars, (mulred_curve)c, seed, first, n, 0,
                                     &err) == MULRED_OK);
    mpz_t k, a, s;
    mpz_inits(k, a, s, NULL);
    const size_t aff = mulred_msm_affine_bytes((mulred_curve)c);
    for (size_t i = 0; i < n; i++) {
        uint64_t al[4];
        mulred_msm_synth_dlog(al, (mulred_curve)c, seed, first + i);
        ref_mpz_from_u256(a, al);
        if (traps && i % 9 == 4) {
            memset((uint8_t *)t->points + i * aff, 0, aff); /* infinity */
            mpz_set_ui(a, 0);
        }
        if (traps && i % 11 == 5) memset(t->scalars[i].l, 0, 32);
        if (traps && i % 13 == 6) memset(t->scalars[i].l, 0xff, 32);
        if (traps && i % 17 == 7) { /* r + small */
            mpz_add_ui(s, rc->r, i);
            ref_mpz_to_u256(t->scalars[i].l, s);
        }
        ref_mpz_from_u256(s, t->scalars[i].l);
        mpz_addmul(k, a, s);
    }
    mpz_mod(k, k, rc->r);
    ref_point_init(&t->want);
    ref_mul(rc, &t->want, &rc->g, k);
    mpz_clears(k, a, s, NULL);
}

static void set_free(test_set *t)
{
    free(t->points);
    free(t->scalars);
    ref_point_clear(&t->want);
}

/* ---- window ranges with threads ---- */

static void test_windows_partition(void)
{
    static const size_t sizes[] = {1, 37, 1200};
    for (int c = 0; c < 2; c++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            test_set t;
            set_make(&t, c, 11 + si, 1000 * si, sizes[si], 1);
            static const int widths[] = {3, 8, 13};
            const size_t jac = mulred_msm_jacobian_bytes((mulred_curve)c);
            for (int wi = 0; wi < 3; wi++)
                for (int glv = -1; glv <= 1; glv += 2) {
                    mulred_msm_options o = {.window_bits = widths[wi], .glv = glv};
                    mulred_msm_plan plan;
                    libs[c].plan(&plan, t.n, &o);
                    /* a random partition of [0, W) into ranges */
                    jbuf total, part, first_part;
                    libs[c].from_affine(&total, &(abuf){{0}}); /* (0, 0) is infinity */
                    unsigned w0 = 0;
                    int ok = 1;
                    while (w0 < plan.windows) {
                        unsigned len = 1 + (unsigned)test_rand_below(
                                               plan.windows - w0 < 5 ? plan.windows - w0 : 5);
                        for (int threads = 1; threads <= 3; threads++) {
                            mulred_error err;
                            jbuf again;
                            CU_ASSERT_FATAL(libs[c].windows(&part, &plan, w0, w0 + len, t.points,
                                                            t.scalars, t.n, threads,
                                                            &err) == MULRED_OK);
                            /* a run is repeatable to the byte (fixed combination order) */
                            CU_ASSERT_FATAL(libs[c].windows(&again, &plan, w0, w0 + len, t.points,
                                                            t.scalars, t.n, threads,
                                                            &err) == MULRED_OK);
                            ok &= memcmp(&part, &again, jac) == 0;
                            /* and the point is the same for every thread count */
                            if (threads == 1)
                                first_part = part;
                            else
                                ok &= jac_same_point(c, &part, &first_part);
                        }
                        libs[c].shift(&part, &part, plan.window_bits * w0);
                        libs[c].add(&total, &total, &part);
                        w0 += len;
                    }
                    CU_ASSERT(ok);
                    if (!jac_matches(c, &total, &t.want))
                        CU_FAIL("window ranges do not sum to the reference");
                }
            set_free(&t);
        }
}

static void test_windows_nested(void)
{
    for (int c = 0; c < 2; c++) {
        test_set t;
        set_make(&t, c, 5, 0, 700, 0);
        mulred_msm_plan plan;
        libs[c].plan(&plan, t.n, NULL);
        enum { R = 6 };
        jbuf parts[R];
        int status[R];
        const unsigned W = plan.windows;
        /* six window ranges computed as tasks of an enclosing team, each itself threaded */
#pragma omp parallel num_threads(2)
#pragma omp single
        for (int i = 0; i < R; i++) {
#pragma omp task firstprivate(i) shared(parts, status, t, plan)
            {
                mulred_error err;
                const unsigned a = W * (unsigned)i / R, b = W * (unsigned)(i + 1) / R;
                if (a < b) {
                    status[i] =
                        libs[c].windows(&parts[i], &plan, a, b, t.points, t.scalars, t.n, 2, &err);
                    libs[c].shift(&parts[i], &parts[i], plan.window_bits * a);
                } else {
                    status[i] = MULRED_OK;
                    libs[c].from_affine(&parts[i], &(abuf){{0}});
                }
            }
        }
        jbuf total = parts[0];
        for (int i = 0; i < R; i++) CU_ASSERT_EQUAL(status[i], MULRED_OK);
        for (int i = 1; i < R; i++) libs[c].add(&total, &total, &parts[i]);
        CU_ASSERT(jac_matches(c, &total, &t.want));
        set_free(&t);
    }
}

/* ---- the grid planner ---- */

/* The cost model of msm_grid.h, written here from its description and not through
 * mulred_msm_grid_eval: the only library calls are the msm layer's own model of one slice
 * (mulred_G_msm_plan, _msm_cost_ns, _msm_tile_scratch_size), whose windows all cost the same
 * except the top one (cut to the digits it can hold). For S x G ranks, width c and GLV choice:
 *   n_s   = ⌈n/S⌉, the largest slice (slice k holds [⌊n·k/S⌋, ⌊n·(k+1)/S⌋));
 *   W     = the windows of the plan for n_s;
 *   msm   = min over the top group's size k (1..W−G+1; k = W when G = 1) of the slowest group:
 *           the top group's k windows, cost(W) − cost(W − k), or the largest of the G − 1 lower
 *           groups, ⌈(W − k)/(G − 1)⌉ full windows;
 *   rank  = input_ns·n_s + validate_ns·⌈n_s/G⌉ + msm;
 *   cost  = rank + (bits of P − 1)·reduce_step_ns   (⌈log2 P⌉ steps of a binomial tree);
 *   bytes = n_s·(affine point + 32-byte scalar + recoded scalar) + threads·tile scratch.
 * A grid is possible when S·G <= P, S <= n, 1 <= G <= W and bytes fit the limit. */
typedef struct {
    double (*cost)(const mulred_msm_plan *, size_t, unsigned, unsigned);
    size_t (*tile_scratch)(const mulred_msm_plan *);
} model_lib;
static const model_lib model_libs[2] = {
    {mulred_g1_381_msm_cost_ns, mulred_g1_381_msm_tile_scratch_size},
    {mulred_g1_254_msm_cost_ns, mulred_g1_254_msm_tile_scratch_size},
};

typedef struct {
    unsigned slices, groups, window_bits, windows;
    int glv;
    double cost_ns, rank_ns, msm_ns;
    uint64_t rank_bytes;
} model_grid;

static int model_eval(model_grid *m, int c, const mulred_msm_grid_params *p, unsigned S, unsigned G,
                      unsigned cw, int glv)
{
    if ((uint64_t)S * G > (uint64_t)p->ranks || S > p->n || S < 1 || G < 1) return 0;
    const uint64_t ns = (p->n + S - 1) / S;
    mulred_msm_options o;
    memset(&o, 0, sizeof o);
    o.window_bits = (int)cw;
    o.glv = glv ? 1 : -1;
    mulred_msm_plan plan;
    libs[c].plan(&plan, (size_t)ns, &o);
    const unsigned W = plan.windows;
    if (G > W) return 0;
    const double full = model_libs[c].cost(&plan, (size_t)ns, 1, 1);
    const double all = model_libs[c].cost(&plan, (size_t)ns, W, 1);
    double msm = -1;
    for (unsigned k = G == 1 ? W : 1; k + (G - 1) <= W; k++) {
        const double top = all - model_libs[c].cost(&plan, (size_t)ns, W - k, 1);
        const double lower = G == 1 ? 0 : (double)((W - k + G - 2) / (G - 1)) * full;
        const double slowest = top > lower ? top : lower;
        if (msm < 0 || slowest < msm) msm = slowest;
    }
    unsigned steps = 0;
    for (unsigned v = (unsigned)p->ranks - 1; v; v >>= 1) steps++;
    const uint64_t bytes =
        ns * (mulred_msm_affine_bytes((mulred_curve)c) + 32 + sizeof(mulred_msm_rscalar)) +
        (uint64_t)p->threads * model_libs[c].tile_scratch(&plan);
    if (p->memory_per_rank && bytes > p->memory_per_rank) return 0;
    m->slices = S, m->groups = G, m->window_bits = cw, m->windows = W, m->glv = glv;
    m->msm_ns = msm;
    m->rank_ns = p->input_ns * (double)ns + p->validate_ns * (double)((ns + G - 1) / G) + msm;
    m->cost_ns = m->rank_ns + steps * p->reduce_step_ns;
    m->rank_bytes = bytes;
    return 1;
}

/* Relative agreement of two model figures summed in different orders. */
static int same_cost(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-9;
}

/* Every grid the model allows (restricted to the forced choices of p). Returns their number;
 * *best the cheapest. */
static size_t brute_force(model_grid *best, int c, const mulred_msm_grid_params *p)
{
    size_t feasible = 0;
    for (int glv = 0; glv < 2; glv++) {
        if ((p->glv > 0 && !glv) || (p->glv < 0 && glv)) continue;
        for (unsigned cw = 1; cw <= 16; cw++) {
            if (p->window_bits && cw != (unsigned)p->window_bits) continue;
            for (unsigned s = 1; s <= (unsigned)p->ranks; s++)
                for (unsigned g = 1; s * g <= (unsigned)p->ranks; g++) {
                    if (p->slices && (s != p->slices || g != p->groups)) continue;
                    model_grid x;
                    if (!model_eval(&x, c, p, s, g, cw, glv)) continue;
                    if (!feasible || x.cost_ns < best->cost_ns) *best = x;
                    feasible++;
                }
        }
    }
    return feasible;
}

/* Shares of every rank cover each (point, window) exactly once, checks cover each point of a
 * column once, idle ranks hold nothing. */
static int shares_partition(const mulred_msm_grid *g, uint64_t n, int ranks)
{
    if (n > 4096) return 1;
    unsigned char *cover = calloc(n * g->windows, 1), *check = calloc(n, 1);
    int ok = cover && check;
    for (int r = 0; r < ranks && ok; r++) {
        mulred_msm_share s = mulred_msm_grid_share(g, n, r);
        if ((uint64_t)r >= (uint64_t)g->slices * g->groups) {
            ok &= s.idle && s.point0 == s.point1 && s.window0 == s.window1;
            continue;
        }
        ok &= !s.idle && s.slice * g->groups + s.group == (unsigned)r;
        ok &= s.point0 <= s.point1 && s.point1 <= n && s.window0 < s.window1 &&
              s.window1 <= g->windows;
        ok &= s.point0 <= s.check0 && s.check0 <= s.check1 && s.check1 <= s.point1;
        for (uint64_t i = s.point0; i < s.point1; i++)
            for (unsigned w = s.window0; w < s.window1; w++) cover[i * g->windows + w]++;
        for (uint64_t i = s.check0; i < s.check1; i++) check[i]++;
        if (s.group == g->groups - 1) ok &= s.window1 - s.window0 == g->top_windows;
    }
    for (uint64_t i = 0; ok && i < n * g->windows; i++) ok &= cover[i] == 1;
    for (uint64_t i = 0; ok && i < n; i++) ok &= check[i] == 1;
    free(cover), free(check);
    return ok;
}

static void check_plan_case(int c, mulred_msm_grid_params *p)
{
    mulred_msm_grid g;
    model_grid best = {0}, mine = {0};
    mulred_error err;
    const size_t feasible = brute_force(&best, c, p);
    const int rc = mulred_msm_grid_plan(&g, (mulred_curve)c, p, &err);
    if (!feasible) {
        CU_ASSERT_EQUAL(rc, MULRED_ERUNTIME);
        return;
    }
    CU_ASSERT_EQUAL_FATAL(rc, MULRED_OK);
    if (g.cost_ns > best.cost_ns && !same_cost(g.cost_ns, best.cost_ns)) {
        fprintf(stderr,
                "n %llu P %d: planner %ux%u c %u glv %d cost %.6g > %ux%u c %u glv %d %.6g\n",
                (unsigned long long)p->n, p->ranks, g.slices, g.groups, g.window_bits, g.glv,
                g.cost_ns, best.slices, best.groups, best.window_bits, best.glv, best.cost_ns);
        CU_FAIL("the planner's grid is not the cheapest");
    }
    /* the grid's figures are the model's, and its top group achieves the model's best split */
    CU_ASSERT_FATAL(model_eval(&mine, c, p, g.slices, g.groups, g.window_bits, g.glv));
    CU_ASSERT(same_cost(g.cost_ns, mine.cost_ns));
    CU_ASSERT(same_cost(g.rank_ns, mine.rank_ns));
    CU_ASSERT(same_cost(g.msm_ns, mine.msm_ns));
    CU_ASSERT_EQUAL(g.rank_bytes, mine.rank_bytes);
    CU_ASSERT_EQUAL(g.windows, mine.windows);
    CU_ASSERT(g.top_windows >= 1 && g.top_windows + g.groups - 1 <= g.windows);
    CU_ASSERT(g.groups > 1 || g.top_windows == g.windows);
    CU_ASSERT((uint64_t)g.slices * g.groups <= (uint64_t)p->ranks);
    CU_ASSERT(g.groups <= g.windows && g.slices <= p->n);
    if (p->memory_per_rank) CU_ASSERT(g.rank_bytes <= p->memory_per_rank);
    if (p->slices) CU_ASSERT(g.slices == p->slices && g.groups == p->groups);
    if (p->window_bits) CU_ASSERT_EQUAL(g.window_bits, (unsigned)p->window_bits);
    CU_ASSERT(shares_partition(&g, p->n, p->ranks));
    mulred_msm_options o = mulred_msm_grid_options(&g);
    CU_ASSERT(o.window_bits == (int)g.window_bits && o.glv == (g.glv ? 1 : -1));
}

static void test_grid_small_exhaustive(void)
{
    for (int c = 0; c < 2; c++)
        for (uint64_t n = 1; n <= 40; n++)
            for (int P = 1; P <= 6; P++) {
                mulred_msm_grid_params p;
                mulred_msm_grid_defaults(&p, (mulred_curve)c,
                                         n % 2 ? MULRED_MSM_INPUT_FILE : MULRED_MSM_INPUT_SYNTHETIC,
                                         n, P, 1 + (int)(n % 3));
                check_plan_case(c, &p);
            }
}

static void test_grid_larger(void)
{
    static const uint64_t ns[] = {1000, 65536, 262144, 1 << 20, 1 << 26};
    static const int ps[] = {1, 2, 3, 4, 7, 8, 16, 33, 64};
    for (int c = 0; c < 2; c++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++)
                for (int input = 0; input < 3; input++) {
                    mulred_msm_grid_params p;
                    mulred_msm_grid_defaults(&p, (mulred_curve)c, (mulred_msm_input_kind)input,
                                             ns[i], ps[j], 2);
                    check_plan_case(c, &p);
                }
}

static void test_grid_memory(void)
{
    for (int c = 0; c < 2; c++)
        for (int round = 0; round < 40; round++) {
            mulred_msm_grid_params p;
            const uint64_t n = 1 + test_rand_below(1 << 20);
            const int P = 1 + (int)test_rand_below(16);
            mulred_msm_grid_defaults(&p, (mulred_curve)c, MULRED_MSM_INPUT_SYNTHETIC, n, P, 2);
            mulred_msm_grid free_grid;
            mulred_error err;
            CU_ASSERT_FATAL(mulred_msm_grid_plan(&free_grid, (mulred_curve)c, &p, &err) ==
                            MULRED_OK);
            /* a limit between 1/(2P) and 1.5 times the unconstrained grid's need */
            p.memory_per_rank = free_grid.rank_bytes / (uint64_t)(2 * P) +
                                test_rand_below(free_grid.rank_bytes * 3 / 2 + 1);
            check_plan_case(c, &p);
        }
}

static void test_grid_forced(void)
{
    for (int c = 0; c < 2; c++) {
        mulred_msm_grid_params p;
        mulred_msm_grid_defaults(&p, (mulred_curve)c, MULRED_MSM_INPUT_SYNTHETIC, 5000, 4, 1);
        static const unsigned forced[][2] = {{1, 1}, {1, 2}, {2, 1}, {1, 3},
                                             {3, 1}, {1, 4}, {2, 2}, {4, 1}};
        for (size_t i = 0; i < sizeof forced / sizeof forced[0]; i++) {
            p.slices = forced[i][0], p.groups = forced[i][1];
            check_plan_case(c, &p);
        }
        /* impossible: more ranks than there are; more slices than points */
        mulred_msm_grid g;
        mulred_error err;
        p.slices = 3, p.groups = 2;
        CU_ASSERT_EQUAL(mulred_msm_grid_plan(&g, (mulred_curve)c, &p, &err), MULRED_ERUNTIME);
        p.n = 2, p.slices = 3, p.groups = 1;
        CU_ASSERT_EQUAL(mulred_msm_grid_plan(&g, (mulred_curve)c, &p, &err), MULRED_ERUNTIME);
        /* forced width */
        p.n = 5000, p.slices = p.groups = 0, p.window_bits = 5, p.glv = -1;
        check_plan_case(c, &p);
    }
}

/* Grids worked by hand.
 * Window split (msm_grid.h: the G − 1 lower groups share the W − k lower windows as evenly as
 * possible, the larger ones lower; the top group holds the top k):
 *   W = 10, G = 4, k = 2: 8 lower windows in 3 groups of 3, 3, 2: [0,3) [3,6) [6,8), top [8,10);
 *   W = 13, G = 3, k = 1: 12 in 2 groups of 6: [0,6) [6,12), top [12,13);
 *   W = 5,  G = 1, k = 5: the one group holds [0,5).
 * One rank, 7 points, input 1000 ns and validation 10 ns a point, reduce step 10^6 ns: the only
 * grid is 1 x 1; rank = 7·1000 + 7·10 + msm = 7070 ns + msm, no reduce step (⌈log2 1⌉ = 0).
 * 12 points on 5 ranks, input 10^12 ns a point, nothing else: the largest slice of S slices is
 * ⌈12/S⌉ = 12, 6, 4, 3, 3 points for S = 1..5 (and S·G <= 5 leaves G = 1 for S >= 3), so input
 * costs 12, 6, 4, 3, 3 × 10^12 ns; a 3-point MSM takes microseconds, so 4 x 1 and 5 x 1 (equal
 * slices, equal cost) beat every other grid, and the tie goes to fewer ranks: 4 x 1, costing
 * 3·10^12 ns + msm (< 1 s) + ⌈log2 5⌉ = 3 reduce steps. */
static void test_grid_hand_worked(void)
{
    static const struct {
        unsigned W, G, k, bounds[5];
    } splits[] = {{10, 4, 2, {0, 3, 6, 8, 10}}, {13, 3, 1, {0, 6, 12, 13}}, {5, 1, 5, {0, 5}}};
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++) {
        mulred_msm_grid g;
        memset(&g, 0, sizeof g);
        g.slices = 1, g.groups = splits[i].G, g.windows = splits[i].W;
        g.top_windows = splits[i].k;
        for (unsigned j = 0; j < g.groups; j++) {
            unsigned w0, w1;
            mulred_msm_grid_windows(&w0, &w1, &g, j);
            CU_ASSERT_EQUAL(w0, splits[i].bounds[j]);
            CU_ASSERT_EQUAL(w1, splits[i].bounds[j + 1]);
        }
    }
    for (int c = 0; c < 2; c++) {
        mulred_msm_grid_params p;
        mulred_msm_grid g;
        mulred_error err;
        mulred_msm_grid_defaults(&p, (mulred_curve)c, MULRED_MSM_INPUT_FILE, 7, 1, 1);
        p.input_ns = 1000, p.validate_ns = 10, p.reduce_step_ns = 1e6;
        CU_ASSERT_FATAL(mulred_msm_grid_plan(&g, (mulred_curve)c, &p, &err) == MULRED_OK);
        CU_ASSERT(g.slices == 1 && g.groups == 1);
        CU_ASSERT_DOUBLE_EQUAL(g.rank_ns - g.msm_ns, 7070.0, 1e-6);
        CU_ASSERT_EQUAL(g.cost_ns, g.rank_ns);

        mulred_msm_grid_defaults(&p, (mulred_curve)c, MULRED_MSM_INPUT_FILE, 12, 5, 1);
        p.input_ns = 1e12, p.validate_ns = 0, p.reduce_step_ns = 1e6;
        CU_ASSERT_FATAL(mulred_msm_grid_plan(&g, (mulred_curve)c, &p, &err) == MULRED_OK);
        CU_ASSERT(g.slices == 4 && g.groups == 1);
        CU_ASSERT(g.rank_ns - g.msm_ns == 3e12);
        CU_ASSERT(g.msm_ns > 0 && g.msm_ns < 1e9);
        CU_ASSERT_DOUBLE_EQUAL(g.cost_ns - g.rank_ns, 3e6, 1e-3);
    }
}

/* The direction of the trade-off: many ranks and points, no input cost: splitting windows
 * is free of repeated reductions, so the planner uses window groups as far as the windows
 * go; with a large per-point input cost it prefers slices. */
static void test_grid_tradeoff(void)
{
    mulred_msm_grid_params p;
    mulred_msm_grid g;
    mulred_error err;
    mulred_msm_grid_defaults(&p, MULRED_CURVE_BLS12_381, MULRED_MSM_INPUT_SYNTHETIC, 1 << 16, 2, 1);
    p.input_ns = 0;
    CU_ASSERT_FATAL(mulred_msm_grid_plan(&g, MULRED_CURVE_BLS12_381, &p, &err) == MULRED_OK);
    CU_ASSERT_EQUAL(g.groups, 2);
    p.input_ns = 1e6;
    CU_ASSERT_FATAL(mulred_msm_grid_plan(&g, MULRED_CURVE_BLS12_381, &p, &err) == MULRED_OK);
    CU_ASSERT_EQUAL(g.slices, 2);
}

/* ---- the distributed MSM in one process ---- */

static void test_simulated_ranks(void)
{
    for (int c = 0; c < 2; c++) {
        test_set t;
        const size_t n = 900;
        set_make(&t, c, 99, 3000, n, 1);
        const size_t aff = mulred_msm_affine_bytes((mulred_curve)c);
        const mulred_group *grp = mulred_msm_point_group((mulred_curve)c);
        for (int P = 1; P <= 4; P++)
            for (unsigned S = 1; S <= (unsigned)P; S++)
                for (unsigned G = 1; S * G <= (unsigned)P; G++) {
                    mulred_msm_grid_params p;
                    mulred_msm_grid g;
                    mulred_error err;
                    mulred_msm_grid_defaults(&p, (mulred_curve)c, MULRED_MSM_INPUT_FILE, n, P, 2);
                    p.slices = S, p.groups = G;
                    CU_ASSERT_FATAL(mulred_msm_grid_plan(&g, (mulred_curve)c, &p, &err) ==
                                    MULRED_OK);
                    jbuf part[4], fwd, back;
                    for (int r = 0; r < P; r++) {
                        mulred_msm_share s = mulred_msm_grid_share(&g, n, r);
                        if (s.idle) {
                            grp->identity(&part[r], grp);
                            continue;
                        }
                        mulred_msm_options o = mulred_msm_grid_options(&g);
                        mulred_msm_plan plan;
                        libs[c].plan(&plan, s.point1 - s.point0, &o);
                        CU_ASSERT_FATAL(plan.windows == g.windows);
                        CU_ASSERT_FATAL(libs[c].windows(&part[r], &plan, s.window0, s.window1,
                                                        (uint8_t *)t.points + s.point0 * aff,
                                                        t.scalars + s.point0, s.point1 - s.point0,
                                                        1 + r % 2, &err) == MULRED_OK);
                        libs[c].shift(&part[r], &part[r], plan.window_bits * s.window0);
                    }
                    grp->identity(&fwd, grp), grp->identity(&back, grp);
                    for (int r = 0; r < P; r++) grp->combine(&fwd, &part[r], grp);
                    for (int r = P; r-- > 0;) grp->combine(&back, &part[r], grp);
                    if (!jac_matches(c, &fwd, &t.want) || !jac_matches(c, &back, &t.want)) {
                        fprintf(stderr, "curve %d P %d grid %ux%u: wrong sum\n", c, P, S, G);
                        CU_FAIL("simulated ranks");
                    }
                }
        set_free(&t);
    }
}

static int misuse_calls;
static void count_misuse(const char *msg, void *data)
{
    (void)msg, (void)data;
    misuse_calls++;
}

/* Misuse through a callback that returns: mulred_msm_grid_plan returns MULRED_EMISUSE and
 * leaves *g and err, mulred_msm_grid_eval returns false, mulred_msm_curve_windows returns
 * MULRED_EMISUSE, as their headers say; one callback call each. */
static void test_grid_misuse(void)
{
    mulred_msm_grid_params ok;
    mulred_msm_grid_defaults(&ok, MULRED_CURVE_BN254, MULRED_MSM_INPUT_SYNTHETIC, 100, 4, 1);
    mulred_msm_grid_params bad[9];
    for (int i = 0; i < 9; i++) bad[i] = ok;
    bad[0].n = 0;
    bad[1].ranks = 0;
    bad[2].ranks = (1 << 20) + 1;
    bad[3].threads = 0;
    bad[4].slices = 2; /* groups not forced */
    bad[5].window_bits = 17;
    bad[6].glv = 2;
    bad[7].input_ns = -1;
    bad[8].reduce_step_ns = -1;
    mulred_set_illegal_callback(count_misuse, NULL);
    misuse_calls = 0;
    mulred_msm_grid g, untouched;
    memset(&untouched, 0xa5, sizeof untouched);
    mulred_error err;
    for (int i = 0; i < 9; i++) {
        g = untouched;
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(mulred_msm_grid_plan(&g, MULRED_CURVE_BN254, &bad[i], &err),
                        MULRED_EMISUSE);
        CU_ASSERT(memcmp(&g, &untouched, sizeof g) == 0);
        CU_ASSERT(err.status == MULRED_OK && err.message[0] == 0);
        CU_ASSERT_FALSE(mulred_msm_grid_eval(&g, MULRED_CURVE_BN254, &bad[i], 1, 1, 8, false));
    }
    CU_ASSERT_EQUAL(misuse_calls, 18);
    CU_ASSERT_EQUAL(mulred_msm_grid_plan(&g, (mulred_curve)9, &ok, &err), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(mulred_msm_grid_plan(NULL, MULRED_CURVE_BN254, &ok, &err), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(mulred_msm_grid_plan(&g, MULRED_CURVE_BN254, NULL, &err), MULRED_EMISUSE);
    CU_ASSERT_FALSE(mulred_msm_grid_eval(&g, (mulred_curve)9, &ok, 1, 1, 8, false));
    mulred_msm_plan plan;
    mulred_msm_curve_plan(MULRED_CURVE_BN254, &plan, 1, NULL);
    mulred_g1_254_jacobian r;
    mulred_g1_254_affine gen;
    mulred_g1_254_generator(&gen);
    mulred_scalar256 s = {{1}};
    CU_ASSERT_EQUAL(
        mulred_msm_curve_windows((mulred_curve)9, &r, &plan, 0, plan.windows, &gen, &s, 1, 1, &err),
        MULRED_EMISUSE);
    CU_ASSERT_EQUAL(misuse_calls, 23);
    /* the same calls on good arguments succeed and call nothing */
    CU_ASSERT_EQUAL(mulred_msm_grid_plan(&g, MULRED_CURVE_BN254, &ok, &err), MULRED_OK);
    CU_ASSERT(mulred_msm_grid_eval(&g, MULRED_CURVE_BN254, &ok, 1, 1, 8, false));
    CU_ASSERT_EQUAL(mulred_msm_curve_windows(MULRED_CURVE_BN254, &r, &plan, 0, plan.windows, &gen,
                                             &s, 1, 1, &err),
                    MULRED_OK);
    CU_ASSERT_EQUAL(misuse_calls, 23);
    mulred_set_illegal_callback(NULL, NULL);
}

void test_register(void)
{
    TEST_SUITE("msm_grid", {"curve names", test_curve_names},
               {"point groups against mpz", test_point_group},
               {"window ranges x threads sum to the reference", test_windows_partition},
               {"window ranges nested in a parallel region", test_windows_nested},
               {"planner = cheapest grid, n <= 40, P <= 6", test_grid_small_exhaustive},
               {"planner = cheapest grid, larger n and P", test_grid_larger},
               {"planner within memory limits", test_grid_memory},
               {"forced grids", test_grid_forced}, {"grids worked by hand", test_grid_hand_worked},
               {"trade-off direction", test_grid_tradeoff},
               {"every grid of P <= 4 simulated", test_simulated_ranks},
               {"misuse through a returning callback", test_grid_misuse});
}

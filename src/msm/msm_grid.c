/* The grid of a distributed MSM (mulred/msm_grid.h): P ranks as S point slices x G window
 * groups. No MPI here: the grid is a pure function of (curve, params), so every rank computes
 * it and they agree without communication (the command checks that they did).
 *
 * Search. For a window width c and GLV choice (which fix the plan and W), the cost of a rank
 * depends on its slice only through the slice size n_s = ⌈n/S⌉, and grows with it (more points
 * to read, validate and add; more memory). So for a given G the best S is the largest allowed,
 * S_max = min(⌊P/G⌋, n), and among the S giving the same n_s the fewest ranks,
 * S = ⌈n / ⌈n/S_max⌉⌉: one candidate per (c, glv, G), O(W) of them per plan, each costed with
 * a few calls of the msm layer's model. The unit tests check the result against every grid. */
#include <string.h>

#include "mulred/curve.h"
#include "mulred/msm.h"
#include "mulred/msm_grid.h"
#include "mulred/plan.h"
#include "util/check.h"

/* Largest rank count the planner takes (the tree depth and the candidate loops stay small). */
#define GRID_MAX_RANKS (1 << 20)

typedef struct {
    void (*plan)(mulred_msm_plan *plan, size_t n, const mulred_msm_options *opts);
    double (*cost)(const mulred_msm_plan *plan, size_t n, unsigned windows, unsigned ranges);
    size_t (*tile_scratch)(const mulred_msm_plan *plan);
} grid_curve;

static const grid_curve grid_curves[4] = {
    {mulred_g1_381_msm_plan, mulred_g1_381_msm_cost_ns, mulred_g1_381_msm_tile_scratch_size},
    {mulred_g1_254_msm_plan, mulred_g1_254_msm_cost_ns, mulred_g1_254_msm_tile_scratch_size},
    {mulred_g2_381_msm_plan, mulred_g2_381_msm_cost_ns, mulred_g2_381_msm_tile_scratch_size},
    {mulred_g2_254_msm_plan, mulred_g2_254_msm_cost_ns, mulred_g2_254_msm_tile_scratch_size},
};

static const grid_curve *curve_of(mulred_curve c)
{
    MULRED_CHECK(c == MULRED_CURVE_BLS12_381 || c == MULRED_CURVE_BN254 ||
                     c == MULRED_CURVE_BLS12_381_G2 || c == MULRED_CURVE_BN254_G2,
                 "unknown curve %d", (int)c);
    return &grid_curves[c];
}

/* ⌈log2 P⌉: the steps of a binomial-tree reduce. */
static unsigned tree_steps(int P)
{
    unsigned s = 0;
    while ((1ull << s) < (unsigned long long)P) s++;
    return s;
}

/* The argument checks of mulred_msm_grid_eval and mulred_msm_grid_plan: false (after the
 * illegal-argument callback returned) on misuse. */
static bool args_ok(mulred_curve c, const mulred_msm_grid_params *p)
{
    MULRED_ARG_CHECK_RETURN(c == MULRED_CURVE_BLS12_381 || c == MULRED_CURVE_BN254 ||
                                c == MULRED_CURVE_BLS12_381_G2 || c == MULRED_CURVE_BN254_G2,
                            false);
    MULRED_ARG_CHECK_RETURN(p != NULL, false);
    MULRED_ARG_CHECK_RETURN(p->n >= 1, false);
    MULRED_ARG_CHECK_RETURN(p->ranks >= 1 && p->ranks <= GRID_MAX_RANKS, false);
    MULRED_ARG_CHECK_RETURN(p->threads >= 1, false);
    MULRED_ARG_CHECK_RETURN((p->slices == 0) == (p->groups == 0), false);
    MULRED_ARG_CHECK_RETURN(p->window_bits >= 0 && p->window_bits <= 16, false);
    MULRED_ARG_CHECK_RETURN(p->glv >= -1 && p->glv <= 1, false);
    MULRED_ARG_CHECK_RETURN(p->input_ns >= 0 && p->validate_ns >= 0 && p->reduce_step_ns >= 0,
                            false);
    return true;
}

mulred_msm_options mulred_msm_grid_options(const mulred_msm_grid *g)
{
    mulred_msm_options o;
    memset(&o, 0, sizeof o);
    o.window_bits = (int)g->window_bits;
    o.glv = g->glv ? 1 : -1;
    return o;
}

/* The plan of width c and GLV choice glv for slices of m points. */
static void plan_for(mulred_msm_plan *plan, const grid_curve *gc, size_t m, unsigned c, bool glv)
{
    mulred_msm_options o;
    memset(&o, 0, sizeof o);
    o.window_bits = (int)c;
    o.glv = glv ? 1 : -1;
    gc->plan(plan, m, &o);
}

/* Costs of one window of a slice of m points: every window but the top one costs *full; the
 * top one (cut to the digit magnitudes it can hold) *top. */
static void window_costs(double *full, double *top, const grid_curve *gc,
                         const mulred_msm_plan *plan, size_t m)
{
    const unsigned W = plan->windows;
    *full = gc->cost(plan, m, 1, 1);
    *top = gc->cost(plan, m, W, 1) - gc->cost(plan, m, W - 1, 1);
}

/* The top group's windows k for G groups of W windows, minimising the slowest group:
 * max((k − 1)·full + top, ⌈(W − k)/(G − 1)⌉·full); the smallest such k. */
static unsigned top_windows_for(unsigned W, unsigned G, double full, double top, double *slowest)
{
    if (G == 1) {
        *slowest = (W - 1) * full + top;
        return W;
    }
    unsigned best = 0;
    double best_cost = 0;
    for (unsigned k = 1; k + (G - 1) <= W; k++) {
        const unsigned lower = (W - k + G - 2) / (G - 1);
        const double a = (k - 1) * full + top, b = lower * full;
        const double cost = a > b ? a : b;
        if (!best || cost < best_cost) best = k, best_cost = cost;
    }
    *slowest = best_cost;
    return best;
}

bool mulred_msm_grid_eval(mulred_msm_grid *g, mulred_curve c, const mulred_msm_grid_params *p,
                          unsigned slices, unsigned groups, unsigned window_bits, bool glv)
{
    if (!args_ok(c, p)) return false;
    const grid_curve *gc = curve_of(c);
    if (window_bits < 1 || window_bits > 16 || slices < 1 || groups < 1) return false;
    if ((uint64_t)slices * groups > (uint64_t)p->ranks || slices > p->n) return false;
    const uint64_t n_hi = p->n / slices + (p->n % slices != 0), n_lo = p->n / slices;
    const uint64_t big = p->n % slices; /* slices of n_hi points (all of them when 0) */
    mulred_msm_plan plan;
    plan_for(&plan, gc, (size_t)n_hi, window_bits, glv);
    const unsigned W = plan.windows;
    if (groups > W) return false;

    double full, top, slowest;
    window_costs(&full, &top, gc, &plan, (size_t)n_hi);
    const unsigned k = top_windows_for(W, groups, full, top, &slowest);
    const double per_check = (double)(n_hi / groups + (n_hi % groups != 0));
    const double rank_ns = p->input_ns * (double)n_hi + p->validate_ns * per_check + slowest;

    /* memory of the largest rank: its points, scalars, recoded scalars, one scratch a thread */
    const size_t aff = mulred_msm_affine_bytes(c);
    const uint64_t bytes = n_hi * (aff + sizeof(mulred_scalar256) + sizeof(mulred_msm_rscalar)) +
                           (uint64_t)p->threads * gc->tile_scratch(&plan);
    if (p->memory_per_rank && bytes > p->memory_per_rank) return false;

    /* work: every slice's W windows, input on all its G ranks, validation once */
    double work = 0;
    const uint64_t counts[2] = {big ? big : slices, big ? slices - big : 0};
    const uint64_t sizes[2] = {n_hi, n_lo};
    for (int i = 0; i < 2; i++) {
        if (!counts[i]) continue;
        double f = full, t = top;
        if (sizes[i] != n_hi) window_costs(&f, &t, gc, &plan, (size_t)sizes[i]);
        work += (double)counts[i] * ((double)groups * p->input_ns * (double)sizes[i] +
                                     p->validate_ns * (double)sizes[i] + (W - 1) * f + t);
    }

    memset(g, 0, sizeof *g);
    g->slices = slices;
    g->groups = groups;
    g->window_bits = window_bits;
    g->glv = glv;
    g->windows = W;
    g->top_windows = k;
    g->rank_ns = rank_ns;
    g->msm_ns = slowest;
    g->cost_ns = rank_ns + tree_steps(p->ranks) * p->reduce_step_ns;
    g->work_ns = work;
    g->rank_bytes = bytes;
    return true;
}

/* Strict order of candidates: cost, then fewer ranks used, fewer slices, smaller c, GLV off. */
static bool better(const mulred_msm_grid *a, const mulred_msm_grid *b)
{
    if (a->cost_ns != b->cost_ns) return a->cost_ns < b->cost_ns;
    const uint64_t ua = (uint64_t)a->slices * a->groups, ub = (uint64_t)b->slices * b->groups;
    if (ua != ub) return ua < ub;
    if (a->slices != b->slices) return a->slices < b->slices;
    if (a->window_bits != b->window_bits) return a->window_bits < b->window_bits;
    return !a->glv && b->glv;
}

mulred_status mulred_msm_grid_plan(mulred_msm_grid *g, mulred_curve c,
                                   const mulred_msm_grid_params *p, mulred_error *err)
{
    MULRED_ARG_CHECK(g != NULL);
    if (!args_ok(c, p)) return MULRED_EMISUSE;
    const grid_curve *gc = curve_of(c);
    bool have = false;
    mulred_msm_grid best, cand;
    for (int gi = 0; gi < 2; gi++) {
        const bool glv = gi == 1;
        if ((p->glv > 0 && !glv) || (p->glv < 0 && glv)) continue;
        for (unsigned cw = 1; cw <= 16; cw++) {
            if (p->window_bits && cw != (unsigned)p->window_bits) continue;
            if (p->slices) {
                if (mulred_msm_grid_eval(&cand, c, p, p->slices, p->groups, cw, glv) &&
                    (!have || better(&cand, &best)))
                    best = cand, have = true;
                continue;
            }
            mulred_msm_plan plan;
            plan_for(&plan, gc, (size_t)p->n, cw, glv);
            const unsigned W = plan.windows;
            for (unsigned G = 1; G <= W && G <= (unsigned)p->ranks; G++) {
                uint64_t smax = (uint64_t)p->ranks / G;
                if (smax > p->n) smax = p->n;
                const uint64_t ns = p->n / smax + (p->n % smax != 0);
                const uint64_t s = p->n / ns + (p->n % ns != 0);
                if (mulred_msm_grid_eval(&cand, c, p, (unsigned)s, G, cw, glv) &&
                    (!have || better(&cand, &best)))
                    best = cand, have = true;
            }
        }
    }
    if (!have) {
        if (p->slices)
            return mulred_error_set(err, MULRED_ERUNTIME,
                                    "msm: no grid of %u slices x %u window groups for %llu points "
                                    "on %d ranks%s",
                                    p->slices, p->groups, (unsigned long long)p->n, p->ranks,
                                    p->memory_per_rank ? " within the memory limit" : "");
        return mulred_error_set(
            err, MULRED_ERUNTIME, "msm: %llu points do not fit %d ranks of %llu bytes each",
            (unsigned long long)p->n, p->ranks, (unsigned long long)p->memory_per_rank);
    }
    *g = best;
    return MULRED_OK;
}

void mulred_msm_grid_windows(unsigned *window0, unsigned *window1, const mulred_msm_grid *g,
                             unsigned group)
{
    MULRED_CHECK(group < g->groups, "group %u of %u", group, g->groups);
    const unsigned lower = g->windows - g->top_windows, G = g->groups;
    if (group == G - 1) {
        *window0 = lower;
        *window1 = g->windows;
        return;
    }
    /* the G − 1 lower groups: sizes ⌈lower/(G−1)⌉ first, then ⌊lower/(G−1)⌋ */
    const unsigned q = lower / (G - 1), rem = lower % (G - 1);
    *window0 = group * q + (group < rem ? group : rem);
    *window1 = *window0 + q + (group < rem);
}

mulred_msm_share mulred_msm_grid_share(const mulred_msm_grid *g, uint64_t n, int rank)
{
    MULRED_CHECK(rank >= 0, "rank %d", rank);
    mulred_msm_share s;
    memset(&s, 0, sizeof s);
    const uint64_t used = (uint64_t)g->slices * g->groups;
    if ((uint64_t)rank >= used) {
        s.idle = true;
        return s;
    }
    s.slice = (unsigned)((uint64_t)rank / g->groups);
    s.group = (unsigned)((uint64_t)rank % g->groups);
    const mulred_unit_range pts = mulred_plan_units(n, (int)s.slice, (int)g->slices);
    s.point0 = pts.first;
    s.point1 = pts.end;
    mulred_msm_grid_windows(&s.window0, &s.window1, g, s.group);
    const mulred_unit_range chk =
        mulred_plan_units(pts.end - pts.first, (int)s.group, (int)g->groups);
    s.check0 = pts.first + chk.first;
    s.check1 = pts.first + chk.end;
    return s;
}

/* Per-point costs outside the MSM, single-thread ns measured on Zen 5 (thread CPU time,
 * medians of 7 runs of 2^16 points; docs/kernels.md has the measurements):
 *   synthetic   generation (msm_synth: batch-affine A + B and the scalar draw) + recoding
 *   file        hex: the digit count and the parse of 321 bytes a BLS12-381 record, decoding
 *               + recoding; binary: decoding alone (field conversion, range and curve checks)
 *               + recoding
 *   validate    the subgroup check (BLS12-381: Scott's test; BN254: none)
 * and one reduce step: a Jacobian addition and a message on loopback. */
static const struct {
    double synthetic, hex, binary, validate;
} grid_input_ns[4] = {
    {650, 1800, 280, 37000}, /* bls12-381 */
    {420, 1050, 200, 0},     /* bn254 */
    /* G2 (not measured: twice the bytes and digits, the subgroup check about 3 G1 checks) */
    {1300, 3600, 560, 110000}, /* bls12-381 g2 */
    {840, 2100, 400, 60000},   /* bn254 g2 */
};
#define GRID_REDUCE_STEP_NS 30000.0

void mulred_msm_grid_defaults(mulred_msm_grid_params *p, mulred_curve c,
                              mulred_msm_input_kind input, uint64_t n, int ranks, int threads)
{
    curve_of(c);
    memset(p, 0, sizeof *p);
    p->n = n;
    p->ranks = ranks;
    p->threads = threads;
    p->input_ns = input == MULRED_MSM_INPUT_FILE     ? grid_input_ns[c].hex
                  : input == MULRED_MSM_INPUT_BINARY ? grid_input_ns[c].binary
                                                     : grid_input_ns[c].synthetic;
    p->validate_ns = input == MULRED_MSM_INPUT_SYNTHETIC ? 0 : grid_input_ns[c].validate;
    p->reduce_step_ns = GRID_REDUCE_STEP_NS;
}

/* mulred bench msm-ranks: the distributed MSM on 1 vs 2 ranks (one thread each) at 2^18 points
 * (--log2n), both curves, two ways:
 *
 *   mpirun     `mulred msm --synthetic N --threads 1 --json` as child processes under mpirun with
 *              1 and 2 ranks, taking turns, `seconds` of each (the MSM alone: tiles and reduce,
 *              not generating the points); median of --reps rounds and the spread of the
 *              per-round ratios. The real thing, and at the mercy of the machine's other load,
 *              so each round also measures the ceiling: two 1-rank jobs of N/2 points started
 *              together (the two ranks' work of a points-only grid without MPI between them).
 *   in-process the same grid's two tiles computed one after the other in this process, each
 *              timed in thread CPU time, against the one-rank tile: 2-rank speedup = t1 /
 *              max(rank 0, rank 1). What the grid costs (repeated reductions, imbalance) with
 *              the machine's noise and MPI taken out. Also the two forced grids 2x1 (points
 *              only) and 1x2 (windows only), so the planner's choice can be checked.
 *
 * mulred_bench_msm_ranks_measure is the measurement without printing, for other benches
 * (mulred bench msm can call it for its rows). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_child.h"
#include "bench_keys.h"
#include "bench_msm_ranks.h"
#include "bench_table.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "mulred/msm_grid.h"
#include "mulred/msm_io.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

#define MAX_REPS 64

/* ---- in one process ---- */

/* Thread CPU seconds of rank `rank`'s tile under grid g (recoding included, as in the driver). */
static double rank_seconds(mulred_curve c, const mulred_msm_grid *g, uint64_t n, int rank,
                           const uint8_t *points, const mulred_scalar256 *scalars)
{
    const mulred_msm_share s = mulred_msm_grid_share(g, n, rank);
    if (s.idle || s.point0 == s.point1) return 0;
    const size_t aff = mulred_msm_affine_bytes(c), ns = (size_t)(s.point1 - s.point0);
    const mulred_msm_options o = mulred_msm_grid_options(g);
    mulred_msm_plan plan;
    mulred_msm_curve_plan(c, &plan, ns, &o);
    uint64_t r[18];
    mulred_error err;
    const double t0 = mulred_thread_cputime();
    if (mulred_msm_curve_windows(c, r, &plan, s.window0, s.window1, points + s.point0 * aff,
                                 scalars + s.point0, ns, 1, &err))
        return -1;
    return mulred_thread_cputime() - t0;
}

static int grid_for(mulred_msm_grid *g, mulred_curve c, uint64_t n, int P, unsigned S, unsigned G)
{
    mulred_msm_grid_params p;
    mulred_msm_grid_defaults(&p, c, MULRED_MSM_INPUT_SYNTHETIC, n, P, 1);
    p.slices = S, p.groups = G;
    mulred_error err;
    return mulred_msm_grid_plan(g, c, &p, &err);
}

/* The in-process rows: the planner's grid for 2 ranks, then 2x1 and 1x2. */
static int measure_inprocess(bench_msm_ranks_result *res, mulred_curve c, int log2n, int reps)
{
    const uint64_t n = UINT64_C(1) << log2n;
    const size_t aff = mulred_msm_affine_bytes(c);
    uint8_t *points = malloc(n * aff);
    mulred_scalar256 *scalars = malloc(n * sizeof *scalars);
    mulred_error err;
    if (!points || !scalars || mulred_msm_synth(points, scalars, c, 1, 0, n, 1, &err)) {
        free(points), free(scalars);
        return -1;
    }
    mulred_msm_grid one, grids[3];
    if (grid_for(&one, c, n, 1, 0, 0) || grid_for(&grids[0], c, n, 2, 0, 0) ||
        grid_for(&grids[1], c, n, 2, 2, 1) || grid_for(&grids[2], c, n, 2, 1, 2)) {
        free(points), free(scalars);
        return -1;
    }
    double t1[MAX_REPS], sp[3][MAX_REPS], r0[3][MAX_REPS], r1[3][MAX_REPS];
    for (int k = 0; k < reps; k++) {
        t1[k] = rank_seconds(c, &one, n, 0, points, scalars);
        for (int g = 0; g < 3; g++) {
            r0[g][k] = rank_seconds(c, &grids[g], n, 0, points, scalars);
            r1[g][k] = rank_seconds(c, &grids[g], n, 1, points, scalars);
            const double slow = r0[g][k] > r1[g][k] ? r0[g][k] : r1[g][k];
            sp[g][k] = slow > 0 ? t1[k] / slow : 0;
        }
    }
    res->inproc_one_ms = mulred_quantile(t1, reps, 0.5) * 1e3;
    res->inproc_one_grid = one;
    for (int g = 0; g < 3; g++) {
        res->inproc[g].grid = grids[g];
        res->inproc[g].rank0_ms = mulred_quantile(r0[g], reps, 0.5) * 1e3;
        res->inproc[g].rank1_ms = mulred_quantile(r1[g], reps, 0.5) * 1e3;
        res->inproc[g].speedup = mulred_quantile(sp[g], reps, 0.5);
        res->inproc[g].speedup_p10 = mulred_quantile(sp[g], reps, 0.1);
        res->inproc[g].speedup_p90 = mulred_quantile(sp[g], reps, 0.9);
    }
    free(points), free(scalars);
    return 0;
}

/* ---- child processes under mpirun ---- */

/* `seconds` and the grid of a `mulred msm --json` child already started as c, or -1. */
static double finish_msm(bench_child *c, unsigned *slices, unsigned *groups)
{
    json_t *v = bench_child_wait(c) ? bench_child_json(c, "mulred msm --json") : NULL;
    bench_child_free(c);
    if (!v) return -1;
    const json_t *s = json_object_get(v, "seconds"), *g = json_object_get(v, "grid");
    const double seconds = json_is_number(s) ? json_number_value(s) : -1;
    if (slices) *slices = (unsigned)json_number_value(json_object_get(g, "slices"));
    if (groups) *groups = (unsigned)json_number_value(json_object_get(g, "groups"));
    json_decref(v);
    return seconds;
}

/* The command of `mulred msm --synthetic N --threads 1 --json` under mpirun ($MPIEXEC) with P
 * ranks of one thread. */
typedef struct {
    char ranks[24], n[24];
    const char *argv[10], *launcher[12];
    bench_child_opts opts;
} msm_command;

static void msm_command_make(msm_command *m, const char *self, mulred_curve c, int P, uint64_t n)
{
    snprintf(m->ranks, sizeof m->ranks, "%d", P);
    snprintf(m->n, sizeof m->n, "%llu", (unsigned long long)n);
    const char *const argv[] = {self,          "msm", "--curve",   mulred_curve_name(c),
                                "--synthetic", m->n,  "--threads", "1",
                                "--json",      NULL};
    memcpy(m->argv, argv, sizeof argv);
    int a = 0;
    m->launcher[a++] = getenv("MPIEXEC") ? getenv("MPIEXEC") : "mpirun";
    m->launcher[a++] = "-n", m->launcher[a++] = m->ranks;
    m->launcher[a++] = "--oversubscribe", m->launcher[a++] = "--bind-to", m->launcher[a++] = "none";
    if (getuid() == 0) m->launcher[a++] = "--allow-run-as-root";
    m->launcher[a++] = "-x", m->launcher[a++] = "OMP_NUM_THREADS=1";
    m->launcher[a] = NULL;
    m->opts = (bench_child_opts){.launcher = m->launcher};
}

/* Starts m and returns its seconds (and grid), or -1 after a message. */
static double run_msm(const msm_command *m, unsigned *slices, unsigned *groups)
{
    bench_child c;
    bench_child_start(&c, m->argv, &m->opts);
    const double t = finish_msm(&c, slices, groups);
    if (t <= 0) {
        char line[8192];
        bench_child_describe(line, sizeof line, m->argv, &m->opts);
        fprintf(stderr, "mulred bench: failed: %s\n", line);
    }
    return t;
}

/* Each round: 1 rank on n points, 2 ranks on n points, then the ceiling: two 1-rank jobs of
 * n/2 points started together (the work of the two ranks of a points-only grid, with no MPI
 * between them), t1 / the slower of the two. */
static int measure_mpirun(bench_msm_ranks_result *res, mulred_curve c, int log2n, int reps)
{
    const char *self = bench_child_self();
    if (!self) return -1;
    const uint64_t n = UINT64_C(1) << log2n;
    double t[2][MAX_REPS], ratio[MAX_REPS], ceiling[MAX_REPS];
    msm_command cmd[2], half; /* P = 1, 2 ranks on n points; 1 rank on n/2 */
    for (int P = 1; P <= 2; P++) msm_command_make(&cmd[P - 1], self, c, P, n);
    msm_command_make(&half, self, c, 1, n / 2);
    for (int k = 0; k < reps; k++) {
        for (int P = 1; P <= 2; P++) {
            t[P - 1][k] = run_msm(&cmd[P - 1], &res->mpirun_slices, &res->mpirun_groups);
            if (t[P - 1][k] <= 0) return -1;
        }
        ratio[k] = t[0][k] / t[1][k];
        bench_child a, b;
        bench_child_start(&a, half.argv, &half.opts);
        bench_child_start(&b, half.argv, &half.opts);
        const double ta = finish_msm(&a, NULL, NULL), tb = finish_msm(&b, NULL, NULL);
        if (ta <= 0 || tb <= 0) {
            char line[8192];
            bench_child_describe(line, sizeof line, half.argv, &half.opts);
            fprintf(stderr, "mulred bench: failed: two of %s\n", line);
            return -1;
        }
        ceiling[k] = t[0][k] / (ta > tb ? ta : tb);
    }
    res->mpirun_one_ms = mulred_quantile(t[0], reps, 0.5) * 1e3;
    res->mpirun_two_ms = mulred_quantile(t[1], reps, 0.5) * 1e3;
    res->mpirun_speedup = mulred_quantile(ratio, reps, 0.5);
    res->mpirun_p10 = mulred_quantile(ratio, reps, 0.1);
    res->mpirun_p90 = mulred_quantile(ratio, reps, 0.9);
    res->mpirun_ceiling = mulred_quantile(ceiling, reps, 0.5);
    return 0;
}

int mulred_bench_msm_ranks_measure(bench_msm_ranks_result *res, mulred_curve c, int log2n, int reps,
                                   bool mpirun)
{
    memset(res, 0, sizeof *res);
    res->curve = c;
    res->log2n = log2n;
    if (reps > MAX_REPS) reps = MAX_REPS;
    res->reps = reps;
    if (measure_inprocess(res, c, log2n, reps)) return -1;
    if (mpirun && measure_mpirun(res, c, log2n, reps)) return -1;
    res->have_mpirun = mpirun;
    return 0;
}

/* ---- the command ---- */

static void usage(void)
{
    mulred_out(
        "Usage: mulred bench msm-ranks [--log2n L] [--reps R] [--no-mpirun] [--json]\n"
        "\n"
        "The distributed MSM on 1 vs 2 ranks of one thread, 2^L synthetic points (default\n"
        "18), both curves: child processes under mpirun (the MSM's own seconds, 1 and 2\n"
        "ranks taking turns; median of R rounds, default 9, and the spread of the per-round\n"
        "speedups; the ceiling: two 1-rank jobs of 2^(L-1) points side by side), and in\n"
        "one process the two ranks' tiles in thread CPU time for the planner's grid and\n"
        "for the forced grids 2x1 (points only) and 1x2 (windows only).\n"
        "MPIEXEC overrides the launcher (default mpirun).\n");
}

static void grid_name(char *out, size_t cap, const mulred_msm_grid *g)
{
    snprintf(out, cap, "%ux%u c=%u%s", g->slices, g->groups, g->window_bits, g->glv ? " GLV" : "");
}

typedef struct {
    uint64_t log2n, reps;
    bool no_mpirun, json;
} ranks_opts;

MULRED_KEY_COUNT(set_log2n, ranks_opts, log2n, 4, 24)
MULRED_KEY_COUNT(set_reps, ranks_opts, reps, 1, MAX_REPS)
MULRED_KEY_FLAG(set_no_mpirun, ranks_opts, no_mpirun)
MULRED_KEY_FLAG(set_json, ranks_opts, json)

static const mulred_key ranks_keys[] = {
    {"log2n", false, false, false, set_log2n},
    {"reps", false, false, false, set_reps},
    {"no-mpirun", true, false, false, set_no_mpirun},
    {"json", true, false, false, set_json},
};

/* The mpirun rows (JSON: the object "mpirun" of a curve) and the in-process rows (JSON: its
 * array "inprocess"); the curve and the 1-rank time of the in-process rows are the curve's own
 * members in JSON. */
static const bench_column mpirun_columns[] = {
    {NULL, "curve", NULL, BENCH_TEXT, 0},
    {NULL, "how", NULL, BENCH_TEXT, 0},
    {"grid", "grid (2 ranks)", NULL, BENCH_TEXT, 0},
    {"ms_1_rank", "1 rank ms", "%.1f", BENCH_REAL, 0},
    {"ms_2_ranks", "2 ranks ms", "%.1f", BENCH_REAL, 0},
    {"speedup", "speedup", "%.2f", BENCH_REAL, 0},
    {"speedup_p10", "p10", "%.2f", BENCH_REAL, 0},
    {"speedup_p90", "p90", "%.2f", BENCH_REAL, 0},
    {"ceiling", "ceiling", "%.2f", BENCH_REAL, 0},
};
static const bench_column inproc_columns[] = {
    {NULL, "curve", NULL, BENCH_TEXT, 0},
    {NULL, "how", NULL, BENCH_TEXT, 0},
    {"kind", NULL, NULL, BENCH_TEXT, 0},
    {"grid", "grid (2 ranks)", NULL, BENCH_TEXT, 0},
    {NULL, "1 rank ms", "%.1f", BENCH_REAL, 0},
    {"rank0_ms", "rank 0 ms", "%.1f", BENCH_REAL, 0},
    {"rank1_ms", "rank 1 ms", "%.1f", BENCH_REAL, 0},
    {"speedup", "speedup", "%.2f", BENCH_REAL, 0},
    {"speedup_p10", "p10", "%.2f", BENCH_REAL, 0},
    {"speedup_p90", "p90", "%.2f", BENCH_REAL, 0},
};

static void mpirun_row(bench_table *t, const bench_msm_ranks_result *r)
{
    char gn[64];
    snprintf(gn, sizeof gn, "%ux%u", r->mpirun_slices, r->mpirun_groups);
    BENCH_ROW(t, BENCH_S(mulred_curve_name(r->curve)), BENCH_S("mpirun"), BENCH_S(gn),
              BENCH_R(r->mpirun_one_ms), BENCH_R(r->mpirun_two_ms), BENCH_R(r->mpirun_speedup),
              BENCH_R(r->mpirun_p10), BENCH_R(r->mpirun_p90), BENCH_R(r->mpirun_ceiling));
}

static void inproc_row(bench_table *t, const bench_msm_ranks_result *r, int g)
{
    static const char *kinds[3] = {"planner", "points only", "windows only"};
    char gn[64];
    grid_name(gn, sizeof gn, &r->inproc[g].grid);
    BENCH_ROW(t, BENCH_S(mulred_curve_name(r->curve)), BENCH_S(g == 0 ? "in-process" : kinds[g]),
              BENCH_S(kinds[g]), BENCH_S(gn), BENCH_R(r->inproc_one_ms),
              BENCH_R(r->inproc[g].rank0_ms), BENCH_R(r->inproc[g].rank1_ms),
              BENCH_R(r->inproc[g].speedup), BENCH_R(r->inproc[g].speedup_p10),
              BENCH_R(r->inproc[g].speedup_p90));
}

static void print_json(const ranks_opts *o, const bench_msm_ranks_result res[2])
{
    mulred_json_writer w;
    bench_table t;
    mulred_jw_init(&w, stdout);
    mulred_jw_object_begin(&w, NULL);
    mulred_jw_int(&w, "log2n", (int)o->log2n);
    mulred_jw_int(&w, "reps", (int)o->reps);
    mulred_jw_array_begin(&w, "curves");
    for (int ci = 0; ci < 2; ci++) {
        const bench_msm_ranks_result *r = &res[ci];
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "curve", mulred_curve_name(r->curve));
        if (r->have_mpirun) {
            mulred_jw_object_begin(&w, "mpirun");
            bench_table_begin(&t, &w, NULL, mpirun_columns, BENCH_NCOLS(mpirun_columns));
            mpirun_row(&t, r);
            bench_table_end(&t);
            mulred_jw_object_end(&w);
        }
        mulred_jw_double(&w, "inprocess_ms_1_rank", r->inproc_one_ms);
        bench_table_begin(&t, &w, "inprocess", inproc_columns, BENCH_NCOLS(inproc_columns));
        for (int g = 0; g < 3; g++) inproc_row(&t, r, g);
        bench_table_end(&t);
        mulred_jw_object_end(&w);
    }
    mulred_jw_array_end(&w);
    mulred_jw_object_end(&w);
    mulred_jw_finish(&w);
}

static void print_text(const ranks_opts *o, const bench_msm_ranks_result res[2])
{
    bench_table t;
    mulred_out("MSM of 2^%d synthetic points, 1 vs 2 ranks of one thread (medians of %d rounds;\n"
               "speedup = 1-rank time / 2-rank time, p10-p90 over the rounds)\n\n",
               (int)o->log2n, (int)o->reps);
    if (res[0].have_mpirun) {
        bench_table_begin(&t, NULL, NULL, mpirun_columns, BENCH_NCOLS(mpirun_columns));
        for (int ci = 0; ci < 2; ci++) mpirun_row(&t, &res[ci]);
        bench_table_end(&t);
        mulred_out("\n");
    }
    bench_table_begin(&t, NULL, "in-process", inproc_columns, BENCH_NCOLS(inproc_columns));
    for (int ci = 0; ci < 2; ci++)
        for (int g = 0; g < 3; g++) inproc_row(&t, &res[ci], g);
    bench_table_end(&t);
    mulred_out("\nmpirun rows: wall seconds of the MSM (tiles and reduce) in fresh processes.\n"
               "ceiling: what this machine gives two ranks' work, the 1-rank time against the\n"
               "slower of two 1-rank jobs of n/2 points started together.\n"
               "In-process rows: thread CPU time of each rank's tile computed in turn (2 ranks'\n"
               "time = the slower one).\n");
}

mulred_exit mulred_bench_msm_ranks(int argc, char **argv)
{
    ranks_opts o = {18, 9, false, false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    const bool run = bench_options(
        "msm-ranks", &(const mulred_key_table){ranks_keys, BENCH_NCOLS(ranks_keys), &o}, argc, argv,
        usage, &p, &rc);
    mulred_key_parser_free(&p);
    if (!run) return rc;
    bench_msm_ranks_result res[2];
    for (int ci = 0; ci < 2; ci++)
        if (mulred_bench_msm_ranks_measure(&res[ci], (mulred_curve)ci, (int)o.log2n, (int)o.reps,
                                           !o.no_mpirun)) {
            fprintf(stderr, "mulred bench msm-ranks: measurement failed\n");
            return MULRED_ERUNTIME;
        }
    if (o.json)
        print_json(&o, res);
    else
        print_text(&o, res);
    return MULRED_OK;
}

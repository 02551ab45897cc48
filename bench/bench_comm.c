/* mulred bench comm: what communication costs a distributed job, measured through the library's
 * own reduction (mulred_mpi_reduce) on the ranks it is started on:
 *
 *   mpirun -n P [launcher options] mulred bench comm [--reps R] [--out FILE] [--json]
 *
 * Every rank takes part; rank 0 prints. Measured, each as the median over R rounds of the
 * slowest rank's time (a barrier before each round):
 *   groups   one reduce of each group a job reduces: MuHash (bitcoin: numerator and denominator,
 *            two 3072-bit multiplications per combine) and the G1 point groups of BLS12-381 and
 *            BN254 (a Jacobian addition per combine), with elements that are not the identity
 *            (the MuHash combine skips a multiplication by one); bytes per rank = one element,
 *            which each rank but the root sends once in a tree;
 *   sweep    one reduce of a byte string of 8 B to 1 MiB whose combine is XOR (almost free), so
 *            the time is the transport's: over the ⌈log₂ P⌉ steps of a binomial tree, the
 *            latency α = t(8 B) / ⌈log₂ P⌉ and the bandwidth β = ⌈log₂ P⌉ / slope, the slope
 *            of time over bytes fitted from 4 KiB to 1 MiB (when noise leaves no positive slope:
 *            the largest size's bytes over its time), which `mulred report --project --net
 *            FILE` uses;
 *   start-up the process's age when the bench starts (process start and MPI_Init: the slowest
 *            rank), which the jobs' own timings leave out;
 *   jobs     a MuHash of 2^17 synthetic elements and an MSM of 2^13 synthetic points, one
 *            thread per rank: the share of each job's time spent in its reduce.
 * --out FILE writes those figures as JSON (the network file of report --project). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "mulred/mulred_mpi.h"
#include "mulred/msm_io.h"
#include "output/json.h"
#include "output/output.h"
#include "output/result_fields.h"
#include "util/util.h"

#define COMM_MAX_REPS 1000
#define COMM_SWEEP    7

/* Seconds since this process started (/proc/self/stat field 22 against /proc/uptime); -1 when
 * unknown. */
static double process_age(void)
{
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return -1;
    char buf[2048];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!p) return -1;
    unsigned long long start = 0;
    int field = 2;
    for (const char *q = p + 1; *q && field < 22; q++)
        if (*q == ' ' && ++field == 22) start = strtoull(q + 1, NULL, 10);
    double up = -1;
    f = fopen("/proc/uptime", "r");
    if (!f) return -1;
    if (fscanf(f, "%lf", &up) != 1) up = -1;
    fclose(f);
    const long hz = sysconf(_SC_CLK_TCK);
    return up < 0 || hz <= 0 ? -1 : up - (double)start / (double)hz;
}

/* XOR of byte strings: the cheapest combine, so that a reduce's time is the transport's. */
static void xor_identity(void *elem, const mulred_group *g)
{
    memset(elem, 0, g->elem_bytes);
}

static void xor_combine(void *acc, const void *in, const mulred_group *g)
{
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i < g->elem_bytes / 8; i++) a[i] ^= b[i];
}

/* The median over reps of the slowest rank's time of one mulred_mpi_reduce of elem (restored
 * from a copy before each round). */
static int time_reduce(double *out, void *elem, const mulred_group *g, int reps, mulred_error *err)
{
    void *copy = malloc(g->elem_bytes);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!copy || !t) {
        free(copy), free(t);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    memcpy(copy, elem, g->elem_bytes);
    int rc = MULRED_OK;
    for (int r = -3; r < reps && rc == MULRED_OK; r++) { /* 3 rounds of warm-up */
        memcpy(elem, copy, g->elem_bytes);
        rc = mulred_mpi_barrier(MPI_COMM_WORLD, err);
        const double t0 = mulred_wtime();
        if (rc == MULRED_OK) rc = mulred_mpi_reduce(MPI_COMM_WORLD, elem, g, 0, err);
        double mm[3] = {0, 0, 0};
        if (rc == MULRED_OK)
            rc = mulred_mpi_minavgmax(MPI_COMM_WORLD, mulred_wtime() - t0, mm, err);
        if (r >= 0) t[r] = mm[2];
    }
    *out = rc == MULRED_OK ? mulred_median(t, (size_t)reps) : -1;
    free(copy), free(t);
    return rc;
}

static void comm_usage(void)
{
    mulred_out("Usage: mpirun -n P [launcher options] mulred bench comm [--reps R] [--out FILE]\n"
               "                                                          [--json]\n"
               "\n"
               "Measures mulred_mpi_reduce on the ranks it runs on (P >= 2 for the network\n"
               "constants): one reduce of each group (MuHash, BLS12-381 and BN254 G1 points), a\n"
               "sweep of 8 B to 1 MiB byte strings combined by XOR (latency: 8 B; bandwidth:\n"
               "256 KiB to 1 MiB; per step of the binomial tree), the process start-up (start\n"
               "and MPI_Init), and the reduce's share of a small MuHash and MSM job. Medians over\n"
               "R rounds (default 100) of the slowest rank. --out FILE: the figures as JSON, the\n"
               "network file of 'mulred report --project --net FILE'. Run it with the launcher\n"
               "options of the jobs it models (hosts, the TCP interface); on one host it measures\n"
               "shared memory.\n");
}

typedef struct {
    uint64_t reps;
    const char *out; /* the network file; NULL: none */
    bool json;
} comm_opts;

MULRED_KEY_COUNT(set_reps, comm_opts, reps, 1, COMM_MAX_REPS)
MULRED_KEY_TEXT(set_out, comm_opts, out)
MULRED_KEY_FLAG(set_json, comm_opts, json)

static const mulred_key comm_keys[] = {
    {"reps", false, false, false, set_reps},
    {"out", false, false, false, set_out},
    {"json", true, false, false, set_json},
};

/* The groups a job reduces. */
#define COMM_GROUPS 3
static const mulred_group *comm_group(int k)
{
    return k == 0   ? mulred_muhash_group(MULRED_MUHASH_BITCOIN)
           : k == 1 ? mulred_msm_point_group(MULRED_CURVE_BLS12_381)
                    : mulred_msm_point_group(MULRED_CURVE_BN254);
}

typedef struct {
    int P, nodes, steps, reps;
    double startup;                  /* the slowest rank's */
    double group_s[COMM_GROUPS];     /* one reduce of an element of comm_group(k) */
    size_t sweep_bytes[COMM_SWEEP];  /* 8 B .. 1 MiB */
    double sweep_s[COMM_SWEEP];      /* one XOR reduce of sweep_bytes[i] */
    double alpha, beta;              /* per tree step; -1: one rank */
    mulred_mpi_muhash_result muhash; /* the small jobs */
    mulred_mpi_msm_result msm;
} comm_figures;

/* One reduce of each group, with an element of this rank that is not the identity. */
static int comm_groups(comm_figures *f, int rank, mulred_error *err)
{
    int rc = MULRED_OK;
    for (int k = 0; k < COMM_GROUPS && rc == MULRED_OK; k++) {
        const mulred_group *g = comm_group(k);
        uint8_t *elem = calloc(1, g->elem_bytes + 8);
        if (!elem) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        if (k == 0) {
            mulred_muhash_state *s = (mulred_muhash_state *)elem;
            mulred_muhash_init(s, MULRED_MUHASH_BITCOIN);
            const uint8_t data[4] = {1, 2, 3, (uint8_t)rank};
            const size_t len = sizeof data;
            rc = mulred_muhash_update_raw(s, data, &len, 1, false, 1, err);
            if (rc == MULRED_OK) rc = mulred_muhash_update_raw(s, data, &len, 1, true, 1, err);
        } else {
            const mulred_curve cv = k == 1 ? MULRED_CURVE_BLS12_381 : MULRED_CURVE_BN254;
            uint8_t point[256];
            mulred_scalar256 scalar;
            mulred_msm_plan plan;
            rc = mulred_msm_synth(point, &scalar, cv, 1, (uint64_t)rank, 1, 1, err);
            mulred_msm_curve_plan(cv, &plan, 1, NULL);
            if (rc == MULRED_OK)
                rc = mulred_msm_curve_windows(cv, elem, &plan, 0, plan.windows, point, &scalar, 1,
                                              1, err);
        }
        if (rc == MULRED_OK) rc = time_reduce(&f->group_s[k], elem, g, f->reps, err);
        free(elem);
    }
    return rc;
}

/* The byte sweep, then α: the smallest message's time per step; β: the least-squares slope of
 * time over bytes from 4 KiB up (one pair of points alone is at the mercy of one noisy median);
 * when noise leaves no positive slope, the largest message's bytes over its whole time (a lower
 * bound of the bandwidth, latency included). */
static int comm_sweep(comm_figures *f, int rank, mulred_error *err)
{
    int rc = MULRED_OK;
    for (int i = 0; i < COMM_SWEEP && rc == MULRED_OK; i++) {
        /* 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB, then 1 MiB */
        f->sweep_bytes[i] = i + 1 < COMM_SWEEP ? (size_t)8 << (3 * i) : (size_t)1 << 20;
        const mulred_group g = {"bytes-xor", f->sweep_bytes[i], xor_identity, xor_combine, NULL};
        uint8_t *elem = malloc(f->sweep_bytes[i]);
        if (!elem) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        memset(elem, rank + 1, f->sweep_bytes[i]);
        rc = time_reduce(&f->sweep_s[i], elem, &g, f->reps, err);
        free(elem);
    }
    f->alpha = f->beta = -1;
    if (rc != MULRED_OK || f->steps == 0) return rc;
    f->alpha = f->sweep_s[0] / f->steps;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
    for (int i = 3; i < COMM_SWEEP; i++) {
        const double x = (double)f->sweep_bytes[i], y = f->sweep_s[i];
        sx += x, sy += y, sxx += x * x, sxy += x * y, n += 1;
    }
    const double den = n * sxx - sx * sx;
    const double slope = den > 0 ? (n * sxy - sx * sy) / den : 0;
    const int b = COMM_SWEEP - 1;
    f->beta = slope > 0
                  ? f->steps / slope
                  : (f->sweep_s[b] > 0 ? f->steps * (double)f->sweep_bytes[b] / f->sweep_s[b] : -1);
    return rc;
}

/* The reduce's share of small jobs. */
static int comm_jobs(comm_figures *f, mulred_error *err)
{
    memset(&f->muhash, 0, sizeof f->muhash), memset(&f->msm, 0, sizeof f->msm);
    mulred_mpi_muhash_job job;
    mulred_mpi_muhash_job_init(&job);
    job.synthetic = UINT64_C(1) << 17;
    job.threads = 1;
    int rc = mulred_mpi_muhash(MPI_COMM_WORLD, &job, &f->muhash, err);
    if (rc != MULRED_OK) return rc;
    mulred_mpi_msm_job mjob;
    mulred_mpi_msm_job_init(&mjob, MULRED_CURVE_BLS12_381);
    mjob.synthetic = UINT64_C(1) << 13;
    mjob.threads = 1;
    return mulred_mpi_msm(MPI_COMM_WORLD, &mjob, &f->msm, err);
}

/* The figures: the network constants (one record), the groups, the sweep and the jobs. */
static const bench_column comm_summary[] = {
    {MULRED_RF_RANKS, NULL, NULL, BENCH_INT, 0},
    {MULRED_RF_NODES, NULL, NULL, BENCH_INT, 0},
    {"tree_steps", "tree steps", NULL, BENCH_INT, 0},
    {"reps", NULL, NULL, BENCH_INT, 0},
    {MULRED_RF_LATENCY, "latency α per step µs", "%.3g", BENCH_REAL, 1e6},
    {MULRED_RF_BANDWIDTH, "bandwidth β per step GB/s", "%.3g", BENCH_REAL, 1e-9},
    {"startup_seconds", "start-up s (process start and MPI_Init)", "%.3f", BENCH_REAL, 0},
};
static const bench_column comm_group_columns[] = {
    {"group", "group", NULL, BENCH_TEXT, 0},
    {"bytes_per_rank", "bytes/rank", NULL, BENCH_INT, 0},
    {"reduce_seconds", "per reduce µs", "%.3g", BENCH_REAL, 1e6},
};
static const bench_column comm_sweep_columns[] = {
    {"bytes", "XOR bytes", NULL, BENCH_INT, 0},
    {"reduce_seconds", "per reduce µs", "%.3g", BENCH_REAL, 1e6},
};
static const bench_column comm_job_columns[] = {
    {"kind", "job", NULL, BENCH_TEXT, 0},
    {"elements", "elements", NULL, BENCH_INT, 0},
    {"points", "points", NULL, BENCH_INT, 0},
    {"total_seconds", "total s", "%.3g", BENCH_REAL, 0},
    {"reduce_seconds", "reduce s", "%.3g", BENCH_REAL, 0},
    {"reduce_share", "reduce share", "%.1f%%", BENCH_REAL, 100},
};

/* The figures as JSON into w, or as Markdown tables (w NULL). */
static void comm_print(mulred_json_writer *w, const comm_figures *f)
{
    bench_table t;
    if (w) {
        mulred_jw_object_begin(w, NULL);
        mulred_jw_string(w, "bench", "comm");
    } else
        mulred_out("mulred_mpi_reduce on %d rank(s), %d node(s) (medians of %d rounds, slowest "
                   "rank)\n\n",
                   f->P, f->nodes, f->reps);
    bench_table_begin(&t, w, NULL, comm_summary, BENCH_NCOLS(comm_summary));
    BENCH_ROW(&t, BENCH_I(f->P), BENCH_I(f->nodes), BENCH_I(f->steps), BENCH_I(f->reps),
              f->alpha > 0 ? BENCH_R(f->alpha) : BENCH_NONE,
              f->beta > 0 ? BENCH_R(f->beta) : BENCH_NONE, BENCH_R(f->startup));
    bench_table_end(&t);
    if (!w) mulred_out("\n");
    bench_table_begin(&t, w, "groups", comm_group_columns, BENCH_NCOLS(comm_group_columns));
    for (int k = 0; k < COMM_GROUPS; k++)
        BENCH_ROW(&t, BENCH_S(comm_group(k)->name), BENCH_I(comm_group(k)->elem_bytes),
                  BENCH_R(f->group_s[k]));
    bench_table_end(&t);
    if (!w) mulred_out("\n");
    bench_table_begin(&t, w, "sweep", comm_sweep_columns, BENCH_NCOLS(comm_sweep_columns));
    for (int i = 0; i < COMM_SWEEP; i++)
        BENCH_ROW(&t, BENCH_I(f->sweep_bytes[i]), BENCH_R(f->sweep_s[i]));
    bench_table_end(&t);
    if (!w) mulred_out("\n");
    const double mu_total = f->muhash.phases[MULRED_MPI_MUHASH_PHASE_TOTAL].max,
                 mu_red = f->muhash.phases[MULRED_MPI_MUHASH_PHASE_MPI].max,
                 ms_total = f->msm.phases[MULRED_MPI_MSM_PHASE_TOTAL].max,
                 ms_red = f->msm.phases[MULRED_MPI_MSM_PHASE_REDUCE].max;
    bench_table_begin(&t, w, "jobs", comm_job_columns, BENCH_NCOLS(comm_job_columns));
    BENCH_ROW(&t, BENCH_S("muhash"), BENCH_I(f->muhash.inserted), BENCH_NONE, BENCH_R(mu_total),
              BENCH_R(mu_red), BENCH_R(mu_total > 0 ? mu_red / mu_total : 0));
    BENCH_ROW(&t, BENCH_S("msm"), BENCH_NONE, BENCH_I(f->msm.points), BENCH_R(ms_total),
              BENCH_R(ms_red), BENCH_R(ms_total > 0 ? ms_red / ms_total : 0));
    bench_table_end(&t);
    if (w) {
        mulred_jw_string(w, "version", mulred_version());
        mulred_jw_object_end(w);
        mulred_jw_finish(w);
    } else if (f->alpha <= 0)
        mulred_out("\none rank: no communication (run under mpirun with 2 or more ranks)\n");
}

/* Writes the network file (when asked) and prints the figures on rank 0. */
static mulred_status comm_report(const comm_opts *o, const comm_figures *f)
{
    mulred_json_writer w;
    if (o->out) {
        FILE *file = fopen(o->out, "w");
        if (!file) {
            fprintf(stderr, "mulred bench comm: %s: cannot write\n", o->out);
            return MULRED_ERUNTIME;
        }
        mulred_jw_init(&w, file);
        comm_print(&w, f);
        if (fclose(file) != 0) {
            fprintf(stderr, "mulred bench comm: %s: write failed\n", o->out);
            return MULRED_ERUNTIME;
        }
    }
    if (o->json) mulred_jw_init(&w, stdout);
    comm_print(o->json ? &w : NULL, f);
    if (!o->json && o->out) mulred_out("network constants written to %s\n", o->out);
    return MULRED_OK;
}

mulred_exit mulred_bench_comm(int argc, char **argv)
{
    comm_opts o = {100, NULL, false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    if (!bench_options("comm", &(const mulred_key_table){comm_keys, BENCH_NCOLS(comm_keys), &o},
                       argc, argv, comm_usage, &p, &rc)) {
        mulred_key_parser_free(&p);
        return rc;
    }
    const double age = process_age();
    mulred_error err;
    mulred_error_clear(&err);
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD);
    comm_figures f = {.P = mulred_mpi_size(MPI_COMM_WORLD), .nodes = 1, .reps = (int)o.reps};
    f.steps = f.P > 1 ? (int)ceil(log2((double)f.P)) : 0;
    double startup[3] = {age, age, age};
    rc = mulred_mpi_node_count(MPI_COMM_WORLD, &f.nodes, &err);
    if (rc == MULRED_OK) rc = mulred_mpi_minavgmax(MPI_COMM_WORLD, age, startup, &err);
    f.startup = startup[2];
    if (rc == MULRED_OK) rc = comm_groups(&f, rank, &err);
    if (rc == MULRED_OK) rc = comm_sweep(&f, rank, &err);
    if (rc == MULRED_OK) rc = comm_jobs(&f, &err);
    if (rc != MULRED_OK) {
        if (rank == 0) fprintf(stderr, "mulred bench comm: %s\n", err.message);
    } else if (rank == 0)
        rc = comm_report(&o, &f);
    mulred_key_parser_free(&p);
    return rc;
}

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
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "mulred/mulred_mpi.h"
#include "mulred/msm_io.h"
#include "output/format.h"
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

int mulred_bench_comm(int argc, char **argv)
{
    enum { OPT_REPS = 256, OPT_OUT, OPT_JSON, OPT_HELP };
    static const struct option longopts[] = {
        {"reps", required_argument, 0, OPT_REPS},
        {"out", required_argument, 0, OPT_OUT},
        {"json", no_argument, 0, OPT_JSON},
        {"help", no_argument, 0, OPT_HELP},
        {0, 0, 0, 0},
    };
    int reps = 100, json = 0, c;
    const char *path = NULL;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        uint64_t v = 0;
        switch (c) {
        case OPT_REPS:
            if (mulred_parse_count(optarg, &v) || v < 1 || v > COMM_MAX_REPS)
                return mulred_out_usage_error("bench comm", "bad --reps '%s' (1-%d)", optarg,
                                              COMM_MAX_REPS);
            reps = (int)v;
            break;
        case OPT_OUT:
            path = optarg;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_HELP:
        case 'h':
            comm_usage();
            return MULRED_OK;
        default:
            return MULRED_OUT_EUSAGE;
        }
    }
    const double age = process_age();
    mulred_error err;
    mulred_error_clear(&err);
    if (mulred_mpi_launched() && mulred_mpi_init(&argc, &argv, &err)) {
        if (mulred_mpi_env_rank() == 0) fprintf(stderr, "mulred: %s\n", err.message);
        return err.status;
    }
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD), P = mulred_mpi_size(MPI_COMM_WORLD);
    int nodes = 1;
    double startup[3] = {age, age, age};
    int rc = mulred_mpi_node_count(MPI_COMM_WORLD, &nodes, &err);
    if (rc == MULRED_OK) rc = mulred_mpi_minavgmax(MPI_COMM_WORLD, age, startup, &err);

    /* the groups, with elements that are not the identity */
    const mulred_group *groups[3] = {mulred_muhash_group(MULRED_MUHASH_BITCOIN),
                                     mulred_msm_point_group(MULRED_CURVE_BLS12_381),
                                     mulred_msm_point_group(MULRED_CURVE_BN254)};
    double group_s[3] = {-1, -1, -1};
    for (int k = 0; k < 3 && rc == MULRED_OK; k++) {
        const mulred_group *g = groups[k];
        uint8_t *elem = calloc(1, g->elem_bytes + 8);
        if (!elem) {
            rc = mulred_error_set(&err, MULRED_ERUNTIME, "out of memory");
            break;
        }
        if (k == 0) {
            mulred_muhash_state *s = (mulred_muhash_state *)elem;
            mulred_muhash_init(s, MULRED_MUHASH_BITCOIN);
            const uint8_t data[4] = {1, 2, 3, (uint8_t)rank};
            const size_t len = sizeof data;
            rc = mulred_muhash_update_raw(s, data, &len, 1, false, 1, &err);
            if (rc == MULRED_OK) rc = mulred_muhash_update_raw(s, data, &len, 1, true, 1, &err);
        } else {
            const mulred_curve cv = k == 1 ? MULRED_CURVE_BLS12_381 : MULRED_CURVE_BN254;
            uint8_t point[256];
            mulred_scalar256 scalar;
            mulred_msm_plan plan;
            rc = mulred_msm_synth(point, &scalar, cv, 1, (uint64_t)rank, 1, 1, &err);
            mulred_msm_curve_plan(cv, &plan, 1, NULL);
            if (rc == MULRED_OK)
                rc = mulred_msm_curve_windows(cv, elem, &plan, 0, plan.windows, point, &scalar, 1,
                                              1, &err);
        }
        if (rc == MULRED_OK) rc = time_reduce(&group_s[k], elem, g, reps, &err);
        free(elem);
    }

    /* the byte sweep */
    size_t sweep_bytes[COMM_SWEEP];
    double sweep_s[COMM_SWEEP];
    for (int i = 0; i < COMM_SWEEP && rc == MULRED_OK; i++) {
        /* 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB, then 1 MiB */
        sweep_bytes[i] = i + 1 < COMM_SWEEP ? (size_t)8 << (3 * i) : (size_t)1 << 20;
        const mulred_group g = {"bytes-xor", sweep_bytes[i], xor_identity, xor_combine, NULL};
        uint8_t *elem = malloc(sweep_bytes[i]);
        if (!elem) {
            rc = mulred_error_set(&err, MULRED_ERUNTIME, "out of memory");
            break;
        }
        memset(elem, rank + 1, sweep_bytes[i]);
        rc = time_reduce(&sweep_s[i], elem, &g, reps, &err);
        free(elem);
    }
    /* α: the smallest message's time per step; β: the least-squares slope of time over bytes
     * from 4 KiB up (one pair of points alone is at the mercy of one noisy median); when noise
     * leaves no positive slope, the largest message's bytes over its whole time (a lower bound
     * of the bandwidth, latency included) */
    double alpha = -1, beta = -1;
    const int steps = P > 1 ? (int)ceil(log2((double)P)) : 0;
    if (rc == MULRED_OK && steps > 0) {
        alpha = sweep_s[0] / steps;
        double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
        for (int i = 3; i < COMM_SWEEP; i++) {
            const double x = (double)sweep_bytes[i], y = sweep_s[i];
            sx += x, sy += y, sxx += x * x, sxy += x * y, n += 1;
        }
        const double den = n * sxx - sx * sx;
        const double slope = den > 0 ? (n * sxy - sx * sy) / den : 0;
        const int b = COMM_SWEEP - 1;
        beta = slope > 0 ? steps / slope
                         : (sweep_s[b] > 0 ? steps * (double)sweep_bytes[b] / sweep_s[b] : -1);
    }

    /* the reduce's share of small jobs */
    mulred_mpi_muhash_result mr;
    mulred_mpi_msm_result sr;
    memset(&mr, 0, sizeof mr), memset(&sr, 0, sizeof sr);
    if (rc == MULRED_OK) {
        mulred_mpi_muhash_job job;
        mulred_mpi_muhash_job_init(&job);
        job.synthetic = UINT64_C(1) << 17;
        job.threads = 1;
        rc = mulred_mpi_muhash(MPI_COMM_WORLD, &job, &mr, &err);
    }
    if (rc == MULRED_OK) {
        mulred_mpi_msm_job job;
        mulred_mpi_msm_job_init(&job, MULRED_CURVE_BLS12_381);
        job.synthetic = UINT64_C(1) << 13;
        job.threads = 1;
        rc = mulred_mpi_msm(MPI_COMM_WORLD, &job, &sr, &err);
    }
    if (rc != MULRED_OK) {
        if (rank == 0) fprintf(stderr, "mulred bench comm: %s\n", err.message);
        return rc;
    }
    if (rank != 0) return MULRED_OK;

    const double mu_total = mr.phases[MULRED_MUHASH_PHASE_TOTAL].max,
                 mu_red = mr.phases[MULRED_MUHASH_PHASE_MPI].max,
                 ms_total = sr.phases[MULRED_MSM_PHASE_TOTAL].max,
                 ms_red = sr.phases[MULRED_MSM_PHASE_REDUCE].max;
    FILE *files[2] = {json ? stdout : NULL, NULL};
    if (path && !(files[1] = fopen(path, "w"))) {
        fprintf(stderr, "mulred bench comm: %s: cannot write\n", path);
        return MULRED_ERUNTIME;
    }
    for (int f = 0; f < 2; f++) {
        if (!files[f]) continue;
        mulred_json_writer w;
        mulred_jw_init(&w, files[f]);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "bench", "comm");
        mulred_jw_int(&w, MULRED_RF_RANKS, P);
        mulred_jw_int(&w, MULRED_RF_NODES, nodes);
        mulred_jw_int(&w, "tree_steps", steps);
        mulred_jw_int(&w, "reps", reps);
        if (alpha > 0) mulred_jw_double(&w, MULRED_RF_LATENCY, alpha);
        if (beta > 0) mulred_jw_double(&w, MULRED_RF_BANDWIDTH, beta);
        mulred_jw_double(&w, "startup_seconds", startup[2]);
        mulred_jw_array_begin(&w, "groups");
        for (int k = 0; k < 3; k++) {
            mulred_jw_object_begin(&w, NULL);
            mulred_jw_string(&w, "group", groups[k]->name);
            mulred_jw_uint(&w, "bytes_per_rank", groups[k]->elem_bytes);
            mulred_jw_double(&w, "reduce_seconds", group_s[k]);
            mulred_jw_object_end(&w);
        }
        mulred_jw_array_end(&w);
        mulred_jw_array_begin(&w, "sweep");
        for (int i = 0; i < COMM_SWEEP; i++) {
            mulred_jw_object_begin(&w, NULL);
            mulred_jw_uint(&w, "bytes", sweep_bytes[i]);
            mulred_jw_double(&w, "reduce_seconds", sweep_s[i]);
            mulred_jw_object_end(&w);
        }
        mulred_jw_array_end(&w);
        mulred_jw_array_begin(&w, "jobs");
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "kind", "muhash");
        mulred_jw_uint(&w, "elements", mr.inserted);
        mulred_jw_double(&w, "total_seconds", mu_total);
        mulred_jw_double(&w, "reduce_seconds", mu_red);
        mulred_jw_double(&w, "reduce_share", mu_total > 0 ? mu_red / mu_total : 0);
        mulred_jw_object_end(&w);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "kind", "msm");
        mulred_jw_uint(&w, "points", sr.points);
        mulred_jw_double(&w, "total_seconds", ms_total);
        mulred_jw_double(&w, "reduce_seconds", ms_red);
        mulred_jw_double(&w, "reduce_share", ms_total > 0 ? ms_red / ms_total : 0);
        mulred_jw_object_end(&w);
        mulred_jw_array_end(&w);
        mulred_jw_string(&w, "version", mulred_version());
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
    }
    if (files[1] && fclose(files[1]) != 0) {
        fprintf(stderr, "mulred bench comm: %s: write failed\n", path);
        return MULRED_ERUNTIME;
    }
    if (json) return MULRED_OK;
    char a[32], s[32];
    mulred_out(
        "mulred_mpi_reduce on %d rank(s), %d node(s) (medians of %d rounds, slowest rank)\n\n", P,
        nodes, reps);
    mulred_out("%-16s %10s %12s\n", "group", "bytes/rank", "per reduce");
    for (int k = 0; k < 3; k++) {
        mulred_format_seconds(s, sizeof s, group_s[k]);
        mulred_out("%-16s %10zu %12s\n", groups[k]->name, groups[k]->elem_bytes, s);
    }
    mulred_out("\n%-16s %12s\n", "XOR bytes", "per reduce");
    for (int i = 0; i < COMM_SWEEP; i++) {
        mulred_format_seconds(s, sizeof s, sweep_s[i]);
        mulred_out("%-16zu %12s\n", sweep_bytes[i], s);
    }
    if (alpha > 0) {
        mulred_format_seconds(a, sizeof a, alpha);
        mulred_out("\nper tree step (%d): latency α %s, bandwidth β %.3g GB/s\n", steps, a,
                   beta > 0 ? beta / 1e9 : 0);
    } else {
        mulred_out("\none rank: no communication (run under mpirun with 2 or more ranks)\n");
    }
    mulred_format_seconds(s, sizeof s, startup[2]);
    mulred_out("start-up (process start and MPI_Init, slowest rank): %s\n", s);
    mulred_out("muhash of %llu elements: reduce %.1f%% of %.3g s; msm of %llu points: reduce "
               "%.1f%% of %.3g s\n",
               (unsigned long long)mr.inserted, mu_total > 0 ? 100 * mu_red / mu_total : 0,
               mu_total, (unsigned long long)sr.points, ms_total > 0 ? 100 * ms_red / ms_total : 0,
               ms_total);
    if (path) mulred_out("network constants written to %s\n", path);
    return MULRED_OK;
}

/* mulred bench utxo: coins per second on a synthetic snapshot (default 10^6 coins): decode only
 * vs full MuHash, 1 vs 2 threads, 1 vs 2 ranks, and a labelled projection to a mainnet-size
 * snapshot on 1-1024 nodes.
 *
 * What is measured (wall clock, best of --reps runs, page cache warm):
 *   decode       every chunk decoded to TxOutSer on one thread, no hashing (the index is built
 *                before timing; building it is a separate line, it happens once per file);
 *   muhash 1t/2t the engine (mulred_muhash_reduce) over the whole file with 1 and 2 threads;
 *                its per-thread CPU split gives the decode share of the total;
 *   2 ranks      rank 0's and rank 1's shares (mulred_plan_weighted) reduced one after the other
 *                with 1 thread each, in this process; the 2-rank time is the slower share (the
 *                ranks run concurrently on separate cores; the MPI reduce of two states costs
 *                ~2 µs). A real run: mpirun -n 2 mulred muhash --snapshot FILE --threads 1.
 * Peak resident memory: a fresh `mulred muhash --snapshot` process per run (bench_rss.c), on the
 * file and on a synthetic one a tenth its size, 1 and 2 threads, beside the start-up baseline.
 * The projection assumes the per-coin CPU cost measured here, the measured 2-thread
 * efficiency for every doubling of cores inside a node, perfect scaling across nodes (each
 * reads a disjoint byte range), and an aggregate file-system read bandwidth (--fs-gbps). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "io/utxo_source.h"
#include "mulred/muhash.h"
#include "mulred/plan.h"
#include "mulred/utxo.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

#define MAINNET_COINS 180e6
#define MAINNET_BYTES 9e9

static int count_coin(void *ctx, const utxo_coin *c, mulred_error *err)
{
    (void)err;
    uint64_t *n = ctx;
    *n += c->ser_len != 0;
    return 0;
}

/* Decode-only pass over a source's chunks on this thread. */
static int decode_all(double *secs, mulred_utxo_source *s, mulred_error *err)
{
    uint8_t *buf = malloc(UTXO_READ_BUFFER);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    uint64_t n = 0, first, end;
    mulred_utxo_source_range(s, &first, &end, NULL);
    utxo_visitor v = {.coin = count_coin, .ctx = &n};
    double t0 = mulred_wtime();
    int rc = MULRED_OK;
    for (uint64_t i = 0; i < end - first && rc == MULRED_OK; i++)
        rc = utxo_source_decode_chunk(s, (size_t)i, &v, buf, err);
    *secs = mulred_wtime() - t0;
    free(buf);
    return rc;
}

/* Decode only on the engine's threads: a source whose chunks are decoded but add nothing. */
static mulred_status decode_produce(void *ctx, size_t i, mulred_muhash_sink *sink,
                                    mulred_error *err)
{
    (void)sink;
    uint8_t *buf = malloc(UTXO_READ_BUFFER);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    uint64_t n = 0;
    utxo_visitor v = {.coin = count_coin, .ctx = &n};
    int rc = utxo_source_decode_chunk(ctx, i, &v, buf, err);
    free(buf);
    return rc;
}

static int decode_threads(double *secs, const char *path, int threads, mulred_error *err)
{
    mulred_utxo_source *s;
    int rc = mulred_utxo_source_open(&s, path, NULL, err);
    if (rc) return rc;
    uint64_t first, end;
    mulred_utxo_source_range(s, &first, &end, NULL);
    mulred_muhash_source src = {(size_t)(end - first), decode_produce, s};
    mulred_muhash_state st;
    double t0 = mulred_wtime();
    rc = mulred_muhash_reduce(&st, MULRED_MUHASH_BITCOIN, &src, 1, threads, NULL, err);
    *secs = mulred_wtime() - t0;
    mulred_utxo_source_close(s);
    return rc;
}

static int reduce_share(double *secs, mulred_muhash_stats *stats, mulred_muhash_state *st,
                        const char *path, int rank, int nranks, int threads, mulred_error *err)
{
    mulred_utxo_source *s;
    int rc = mulred_utxo_source_open(&s, path, NULL, err);
    if (rc) return rc;
    const uint64_t *coins_before;
    uint64_t units = mulred_utxo_source_units(s, &coins_before);
    mulred_unit_range r = mulred_plan_weighted(coins_before, units, rank, nranks);
    mulred_utxo_source_select(s, r.first, r.end);
    double t0 = mulred_wtime();
    rc = mulred_muhash_reduce(st, MULRED_MUHASH_BITCOIN, mulred_utxo_source_muhash(s), 1, threads,
                              stats, err);
    *secs = mulred_wtime() - t0;
    mulred_utxo_source_close(s);
    return rc;
}

static double process_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Best of n: on a shared machine the minimum is the run least disturbed by other work. */
static double best_of(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] < m) m = v[i];
    return m;
}

/* Median over reps fresh runs of `mulred muhash --snapshot|--synthetic ARG --threads T` of the
 * peak resident set (KiB), with its spread; -1 when a run fails. */
static double rss_median(double *lo, double *hi, const char *input_opt, const char *arg,
                         int threads, int reps)
{
    char t[16];
    snprintf(t, sizeof t, "%d", threads);
    const char *args[] = {"mulred",    "muhash", input_opt,       arg,
                          "--threads", t,        "--no-progress", NULL};
    double v[100];
    for (int i = 0; i < reps; i++)
        if ((v[i] = (double)bench_peak_rss_kib(args, NULL, NULL)) < 0) return -1;
    double m = mulred_median(v, (size_t)reps); /* sorts v */
    *lo = v[0], *hi = v[reps - 1];
    return m;
}

static void usage(void)
{
    mulred_out(
        "Usage: mulred bench utxo [--coins N] [--file SNAPSHOT] [--reps R] [--keep]\n"
        "                         [--cores-per-node C] [--fs-gbps G] [--json]\n"
        "\n"
        "Coins per second on a synthetic snapshot (default 1e6 coins, written to\n"
        "$TMPDIR, removed afterwards unless --keep) or on --file: decode only vs full\n"
        "MuHash, 1 vs 2 threads, 1 vs 2 ranks (simulated in-process: the slower of the\n"
        "two shares; the real thing is 'mpirun -n 2 mulred muhash --snapshot FILE').\n"
        "Then the peak resident memory of 'mulred muhash --snapshot' (a fresh process;\n"
        "wait4's ru_maxrss, median of R runs) on the snapshot and on one a tenth its size,\n"
        "with 1 and 2 threads, against the start-up baseline: reading is bounded by\n"
        "buffers per thread, not by the file. Then a PROJECTION for a mainnet-size snapshot\n"
        "(180 M coins, 9 GB) on 1, 16, 256 and 1024 nodes of C cores (default: this\n"
        "machine's) reading at G GB/s in aggregate (default 20).\n");
}

typedef struct {
    uint64_t coins, reps, cores;
    double fs_gbps;
    const char *file; /* NULL: a synthetic snapshot of coins */
    bool keep, json;
} utxo_opts;

static mulred_exit set_fs_gbps(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    char *end;
    const double g = strtod(v, &end);
    if (end == v || *end || !(g > 0) || !isfinite(g))
        return mulred_key_bad_value(p, v, "GB/s, more than 0: 20, 2.5", why, cap);
    ((utxo_opts *)o)->fs_gbps = g;
    return MULRED_OK;
}
MULRED_KEY_COUNT(set_coins, utxo_opts, coins, 1, UINT64_MAX)
MULRED_KEY_TEXT(set_file, utxo_opts, file)
MULRED_KEY_COUNT(set_reps, utxo_opts, reps, 1, 100)
MULRED_KEY_FLAG(set_keep, utxo_opts, keep)
MULRED_KEY_COUNT(set_cores, utxo_opts, cores, 1, UINT64_MAX)
MULRED_KEY_FLAG(set_json, utxo_opts, json)

static const mulred_key utxo_keys[] = {
    {"coins", false, false, false, set_coins},
    {"file", false, false, false, set_file},
    {"reps", false, false, false, set_reps},
    {"keep", true, false, false, set_keep},
    {"cores-per-node", false, false, false, set_cores},
    {"fs-gbps", false, false, false, set_fs_gbps},
    {"json", true, false, false, set_json},
};

typedef struct {
    /* the snapshot */
    uint64_t coins, file_bytes, chunks;
    char hex[65];
    double t_synth, t_index;
    /* best of the runs: decode only (1, 2 threads), muhash (1, 2 threads, 2 simulated ranks) */
    double dec, dec2, m1, m2, ranks2;
    mulred_muhash_stats s1; /* the CPU split of the best 1-thread run */
    double cores_got;       /* CPU seconds per wall second of the best 2-thread run */
    /* peak RSS (KiB): the baseline, then [small, file][1, 2 threads] with their spread */
    double base, base_lo, base_hi, rss[2][2], rss_lo[2][2], rss_hi[2][2];
    uint64_t small_coins, small_bytes;
} utxo_figures;

/* The timed runs, reps of each, on file. */
static int utxo_runs(utxo_figures *f, const char *file, int R, mulred_error *err)
{
    double *v = calloc(6 * (size_t)R, sizeof *v), *dec = v, *m1 = v + R, *m2 = v + 2 * R,
           *r0 = v + 3 * R, *r1 = v + 4 * R, *dec2 = v + 5 * R;
    if (!v) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    mulred_muhash_stats s2 = {0}, st;
    uint8_t d_ref[32], d[32];
    int rc = MULRED_OK;
    for (int k = 0; k < R && rc == MULRED_OK; k++) {
        mulred_utxo_source *s;
        if ((rc = mulred_utxo_source_open(&s, file, NULL, err))) break;
        rc = decode_all(&dec[k], s, err);
        mulred_utxo_source_close(s);
        if (rc || (rc = decode_threads(&dec2[k], file, 2, err))) break;
        mulred_muhash_state a, b, total;
        mulred_muhash_stats sk;
        if (rc || (rc = reduce_share(&m1[k], &sk, &a, file, 0, 1, 1, err))) break;
        if (m1[k] <= best_of(m1, k + 1)) f->s1 = sk; /* CPU split of the run that counts */
        mulred_muhash_finalize(d_ref, &a);
        double c0 = process_cpu();
        if ((rc = reduce_share(&m2[k], &s2, &b, file, 0, 1, 2, err))) break;
        double got = (process_cpu() - c0) / m2[k];
        if (m2[k] <= best_of(m2, k + 1)) f->cores_got = got; /* of the run that counts */
        mulred_muhash_finalize(d, &b);
        if (memcmp(d, d_ref, 32) != 0)
            rc = mulred_error_set(err, MULRED_ERUNTIME, "2 threads differ");
        if (rc || (rc = reduce_share(&r0[k], &st, &a, file, 0, 2, 1, err))) break;
        if ((rc = reduce_share(&r1[k], &st, &b, file, 1, 2, 1, err))) break;
        total = a;
        mulred_muhash_combine(&total, &b);
        mulred_muhash_finalize(d, &total);
        if (memcmp(d, d_ref, 32) != 0)
            rc = mulred_error_set(err, MULRED_ERUNTIME, "2 ranks differ");
    }
    if (rc == MULRED_OK) {
        f->dec = best_of(dec, R), f->dec2 = best_of(dec2, R), f->m1 = best_of(m1, R);
        f->m2 = best_of(m2, R);
        const double t_r0 = best_of(r0, R), t_r1 = best_of(r1, R);
        f->ranks2 = t_r0 > t_r1 ? t_r0 : t_r1;
        mulred_muhash_display(f->hex, d_ref, MULRED_MUHASH_BITCOIN);
    }
    free(v);
    return rc;
}

/* Peak resident memory: the command on this snapshot and on one a tenth its size at small (its
 * index made first, so that both runs only read), 1 and 2 threads, and the start-up baseline
 * of the same binary. */
static mulred_status utxo_memory(utxo_figures *f, const char *file, const char *small, int R,
                                 mulred_error *err)
{
    f->small_coins = f->coins / 10 ? f->coins / 10 : 1;
    mulred_utxo_header hs;
    int rc = mulred_utxo_synth(small, f->small_coins, 2, false, err);
    if (rc == MULRED_OK) rc = mulred_utxo_index_ensure(small, NULL, NULL, err);
    if (rc == MULRED_OK) rc = mulred_utxo_read_header(&hs, small, err);
    if (rc) return rc;
    f->small_bytes = hs.file_size;
    f->base = rss_median(&f->base_lo, &f->base_hi, "--synthetic", "1", 1, R);
    bool failed = f->base < 0;
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < 2; t++) {
            f->rss[k][t] = rss_median(&f->rss_lo[k][t], &f->rss_hi[k][t], "--snapshot",
                                      k ? file : small, t + 1, R);
            failed |= f->rss[k][t] < 0;
        }
    if (failed)
        return mulred_error_set(err, MULRED_ERUNTIME, "peak RSS: a 'mulred muhash' run failed");
    return MULRED_OK;
}

/* The snapshot (one record), the phases and the derived figures (named figures). */
static const bench_column snapshot_columns[] = {
    {"file", "file", NULL, BENCH_TEXT, 0},       {"coins", "coins", NULL, BENCH_INT, 0},
    {"file_bytes", "bytes", NULL, BENCH_INT, 0}, {"chunks", "chunks", NULL, BENCH_INT, 0},
    {"muhash", "muhash", NULL, BENCH_TEXT, 0},
};
static const bench_column phase_columns[] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "phase", NULL, BENCH_TEXT, 0},
    {"s", "time s", "%.4g", BENCH_REAL, 0},
    {NULL, "vs 1 thread", "%.2fx", BENCH_REAL, 0},
};
static void print_phases(mulred_json_writer *w, const utxo_figures *f)
{
    const double n = (double)f->coins, T1 = f->m1;
    bench_table t;
    bench_table_begin(&t, w, NULL, phase_columns, BENCH_NCOLS(phase_columns));
    BENCH_ROW(&t, BENCH_S("index_build_seconds"), BENCH_S("index build (validating scan, once)"),
              BENCH_R(f->t_index), BENCH_R(NAN));
    BENCH_ROW(&t, BENCH_S("decode_seconds"), BENCH_S("decode only, 1 thread"), BENCH_R(f->dec),
              BENCH_R(NAN));
    BENCH_ROW(&t, BENCH_S("decode_2threads_seconds"), BENCH_S("decode only, 2 threads"),
              BENCH_R(f->dec2), BENCH_R(f->dec / f->dec2));
    BENCH_ROW(&t, BENCH_S("muhash_1thread_seconds"), BENCH_S("full muhash, 1 thread"), BENCH_R(T1),
              BENCH_R(1));
    BENCH_ROW(&t, BENCH_S("muhash_2threads_seconds"), BENCH_S("full muhash, 2 threads"),
              BENCH_R(f->m2), BENCH_R(T1 / f->m2));
    BENCH_ROW(&t, BENCH_S("muhash_2ranks_seconds_simulated"),
              BENCH_S("full muhash, 2 ranks (simulated)"), BENCH_R(f->ranks2),
              BENCH_R(T1 / f->ranks2));
    bench_table_end(&t);
    if (!w) mulred_out("\n");
    const double cpu = f->s1.produce_cpu + f->s1.hash_cpu;
    bench_table_begin(&t, w, NULL, bench_figure_columns, BENCH_NCOLS(bench_figure_columns));
    bench_figure_row(&t, "decode_coins_per_second", "coins/s, decode only, 1 thread", n / f->dec);
    bench_figure_row(&t, "muhash_1thread_coins_per_second", "coins/s, full muhash, 1 thread",
                     n / T1);
    bench_figure_row(&t, "muhash_2threads_coins_per_second", "coins/s, full muhash, 2 threads",
                     n / f->m2);
    bench_figure_row(&t, "muhash_2ranks_coins_per_second", "coins/s, full muhash, 2 ranks",
                     n / f->ranks2);
    BENCH_ROW(&t, BENCH_S("decode_share"),
              BENCH_S("decode share of the 1-thread muhash CPU time (target <= 0.2)"),
              BENCH_R(f->s1.produce_cpu / cpu));
    BENCH_ROW(&t, BENCH_S("speedup_2threads"), BENCH_S("speedup, 2 threads (target >= 1.85)"),
              BENCH_R(T1 / f->m2));
    BENCH_ROW(&t, BENCH_S("speedup_2ranks"), BENCH_S("speedup, 2 ranks (target >= 1.85)"),
              BENCH_R(T1 / f->ranks2));
    BENCH_ROW(&t, BENCH_S("cores_obtained_2threads"),
              BENCH_S("cores of CPU time per wall second, 2-thread run"), BENCH_R(f->cores_got));
    BENCH_ROW(&t, BENCH_NONE, BENCH_S("per-coin cost, us"), BENCH_R(T1 / n * 1e6));
    BENCH_ROW(&t, BENCH_NONE, BENCH_S("  decode, us"), BENCH_R(f->s1.produce_cpu / n * 1e6));
    BENCH_ROW(&t, BENCH_NONE, BENCH_S("  hash + multiply, us"), BENCH_R(f->s1.hash_cpu / n * 1e6));
    bench_table_end(&t);
    if (!w && f->cores_got < 1.8)
        mulred_out("\nthe 2-thread run obtained %.2f cores: the machine is busy, speedups are "
                   "understated\n",
                   f->cores_got);
}

static void print_memory(mulred_json_writer *w, const utxo_figures *f, int R)
{
    static const char *const keys[2][2] = {{"small_1thread", "small_2threads"},
                                           {"file_1thread", "file_2threads"}};
    if (w) {
        mulred_jw_object_begin(w, "peak_rss_kib");
        mulred_jw_uint(w, "small_coins", f->small_coins);
        mulred_jw_uint(w, "small_file_bytes", f->small_bytes);
    } else
        mulred_out("\npeak resident memory of 'mulred muhash --snapshot FILE' (fresh process, "
                   "wait4's ru_maxrss, median [min-max] of %d runs)\n\n",
                   R);
    bench_table t;
    bench_table_begin(&t, w, NULL, bench_rss_columns, BENCH_NCOLS(bench_rss_columns));
    BENCH_ROW(&t, BENCH_S("baseline"), BENCH_S("start-up baseline (--synthetic 1)"),
              BENCH_R(f->base), BENCH_R(f->base_lo), BENCH_R(f->base_hi));
    for (int k = 0; k < 2; k++)
        for (int th = 0; th < 2; th++) {
            char label[96];
            snprintf(label, sizeof label, "%llu coins, %.1f MB, %d thread%s",
                     (unsigned long long)(k ? f->coins : f->small_coins),
                     (double)(k ? f->file_bytes : f->small_bytes) / 1e6, th + 1, th ? "s" : "");
            BENCH_ROW(&t, BENCH_S(keys[k][th]), BENCH_S(label), BENCH_R(f->rss[k][th]),
                      BENCH_R(f->rss_lo[k][th]), BENCH_R(f->rss_hi[k][th]));
        }
    bench_table_end(&t);
    if (w)
        mulred_jw_object_end(w);
    else
        mulred_out("\n%.0fx the coins: %+.1f MiB (1 thread), %+.1f MiB (2 threads)\n",
                   (double)f->coins / (double)f->small_coins, (f->rss[1][0] - f->rss[0][0]) / 1024,
                   (f->rss[1][1] - f->rss[0][1]) / 1024);
}

static const bench_column projection_columns[] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "projected", NULL, BENCH_TEXT, 0},
    {"s", "seconds", "%.4g", BENCH_REAL, 0},
    {NULL, "bound", NULL, BENCH_TEXT, 0},
};

/* The projection: cores scale with the measured 2-thread efficiency per doubling. */
static void print_projection(mulred_json_writer *w, const utxo_figures *f, const utxo_opts *o)
{
    const double per_coin = f->m1 / (double)f->coins, eff2 = f->m1 / (2 * f->m2);
    const double cores = (double)o->cores, eff_node = pow(eff2 > 1 ? 1 : eff2, log2(cores));
    const double io = MAINNET_BYTES / (o->fs_gbps * 1e9);
    if (w) {
        mulred_jw_object_begin(w, "projection_mainnet");
        mulred_jw_double(w, "coins", MAINNET_COINS);
        mulred_jw_uint(w, "cores_per_node", o->cores);
        mulred_jw_double(w, "fs_gbps", o->fs_gbps);
    } else
        mulred_out("\nPROJECTION (not a measurement) for a mainnet-size snapshot: 180 M coins,\n"
                   "9 GB; %llu cores per node at this machine's per-coin cost and 2-thread\n"
                   "efficiency (%.0f%%), %.0f GB/s aggregate reads, MPI tree reduce:\n\n",
                   (unsigned long long)o->cores, 100 * (eff2 > 1 ? 1 : eff2), o->fs_gbps);
    bench_table t;
    bench_table_begin(&t, w, NULL, projection_columns, BENCH_NCOLS(projection_columns));
    BENCH_ROW(&t, BENCH_S("index_build_seconds"), BENCH_S("index build, once (sequential scan)"),
              BENCH_R(MAINNET_COINS * (f->t_index / (double)f->coins)), BENCH_S(""));
    static const int nodes[] = {1, 16, 256, 1024};
    for (int i = 0; i < 4; i++) {
        const double compute = MAINNET_COINS * per_coin / ((double)nodes[i] * cores * eff_node);
        const double reduce = log2((double)nodes[i] + 1) * 20e-6 + 40e-6; /* MPI tree + final */
        const double proj = (compute > io ? compute : io) + reduce;
        char key[32], label[32];
        snprintf(key, sizeof key, "nodes_%d_seconds", nodes[i]);
        snprintf(label, sizeof label, "%d node%s", nodes[i], nodes[i] > 1 ? "s" : "");
        BENCH_ROW(&t, BENCH_S(key), BENCH_S(label), BENCH_R(proj),
                  BENCH_S(proj <= io + 1e-3 ? "the file system" : ""));
    }
    bench_table_end(&t);
    if (w) mulred_jw_object_end(w);
}

static void utxo_print(const utxo_opts *o, const char *file, const utxo_figures *f)
{
    mulred_json_writer jw, *w = o->json ? &jw : NULL;
    if (w) {
        mulred_jw_init(w, stdout);
        mulred_jw_object_begin(w, NULL);
        mulred_jw_string(w, "bench", "utxo");
    } else
        mulred_out("mulred bench utxo: best of %d runs, wall clock, warm page cache\n\n",
                   (int)o->reps);
    bench_table t;
    bench_table_begin(&t, w, NULL, snapshot_columns, BENCH_NCOLS(snapshot_columns));
    BENCH_ROW(&t, BENCH_S(file), BENCH_I(f->coins), BENCH_I(f->file_bytes), BENCH_I(f->chunks),
              BENCH_S(f->hex));
    bench_table_end(&t);
    if (!w && f->t_synth > 0) mulred_out("\nsynthetic snapshot written in %.3f s\n", f->t_synth);
    if (!w) mulred_out("\n");
    print_phases(w, f);
    print_memory(w, f, (int)o->reps);
    print_projection(w, f, o);
    if (w) {
        mulred_jw_object_end(w);
        mulred_jw_finish(w);
    }
}

/* Removes a snapshot and its index. */
static void remove_snapshot(const char *path)
{
    char idx[4300];
    unlink(path);
    if (mulred_utxo_index_path(idx, sizeof idx, path) == 0) unlink(idx);
}

mulred_exit mulred_bench_utxo(int argc, char **argv)
{
    utxo_opts o = {1000000, 3, (uint64_t)mulred_cpu_count(), 20, NULL, false, false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    if (!bench_options("utxo", &(const mulred_key_table){utxo_keys, BENCH_NCOLS(utxo_keys), &o},
                       argc, argv, usage, &p, &rc)) {
        mulred_key_parser_free(&p);
        return rc;
    }
    mulred_error err;
    mulred_error_clear(&err);
    const char *tmp = getenv("TMPDIR");
    char synth[4096], small[4200];
    snprintf(synth, sizeof synth, "%s/mulred-bench-utxo-%ld.dat", tmp && tmp[0] ? tmp : "/tmp",
             (long)getpid());
    snprintf(small, sizeof small, "%s/mulred-bench-utxo-%ld-small.dat",
             tmp && tmp[0] ? tmp : "/tmp", (long)getpid());
    utxo_figures f = {0};
    const char *file = o.file ? o.file : synth;
    if (!o.file) {
        double t0 = mulred_wtime();
        rc = mulred_utxo_synth(synth, o.coins, 1, false, &err);
        f.t_synth = mulred_wtime() - t0;
    }
    mulred_utxo_index_info info;
    mulred_utxo_header h;
    mulred_utxo_options noindex = {.no_save = true};
    double t0 = mulred_wtime();
    if (rc == MULRED_OK) /* a full validating scan */
        rc = mulred_utxo_index_build(&info, file, &noindex, true, &err);
    f.t_index = mulred_wtime() - t0;
    if (rc == MULRED_OK) rc = mulred_utxo_index_ensure(file, NULL, NULL, &err);
    if (rc == MULRED_OK) rc = mulred_utxo_read_header(&h, file, &err);
    if (rc == MULRED_OK) {
        f.coins = h.coins, f.file_bytes = h.file_size, f.chunks = info.chunks;
        rc = utxo_runs(&f, file, (int)o.reps, &err);
    }
    if (rc == MULRED_OK) rc = utxo_memory(&f, file, small, (int)o.reps, &err);
    if (rc == MULRED_OK) utxo_print(&o, file, &f);
    remove_snapshot(small);
    if (!o.file && !o.keep) remove_snapshot(synth);
    mulred_key_parser_free(&p);
    return rc ? mulred_out_error(&err) : MULRED_OK;
}

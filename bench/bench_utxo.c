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
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "io/utxo_source.h"
#include "mulred/muhash.h"
#include "mulred/plan.h"
#include "mulred/utxo.h"
#include "output/format.h"
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

int mulred_bench_utxo(int argc, char **argv)
{
    enum { OPT_COINS = 256, OPT_FILE, OPT_REPS, OPT_KEEP, OPT_CORES, OPT_FS, OPT_JSON };
    static const struct option opts[] = {{"help", no_argument, 0, 'h'},
                                         {"coins", required_argument, 0, OPT_COINS},
                                         {"file", required_argument, 0, OPT_FILE},
                                         {"reps", required_argument, 0, OPT_REPS},
                                         {"keep", no_argument, 0, OPT_KEEP},
                                         {"cores-per-node", required_argument, 0, OPT_CORES},
                                         {"fs-gbps", required_argument, 0, OPT_FS},
                                         {"json", no_argument, 0, OPT_JSON},
                                         {0, 0, 0, 0}};
    uint64_t coins = 1000000, reps = 3, cores = (uint64_t)mulred_cpu_count();
    double fs_gbps = 20;
    const char *file = NULL;
    bool keep = false, json = false;
    mulred_out_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage();
            return MULRED_OK;
        case OPT_COINS:
            if (mulred_parse_count(optarg, &coins) || coins == 0)
                return mulred_out_usage_error("bench utxo", "bad --coins '%s'", optarg);
            break;
        case OPT_FILE:
            file = optarg;
            break;
        case OPT_REPS:
            if (mulred_parse_count(optarg, &reps) || reps == 0 || reps > 100)
                return mulred_out_usage_error("bench utxo", "bad --reps '%s'", optarg);
            break;
        case OPT_KEEP:
            keep = true;
            break;
        case OPT_CORES:
            if (mulred_parse_count(optarg, &cores) || cores == 0)
                return mulred_out_usage_error("bench utxo", "bad --cores-per-node '%s'", optarg);
            break;
        case OPT_FS:
            fs_gbps = atof(optarg);
            if (!(fs_gbps > 0))
                return mulred_out_usage_error("bench utxo", "bad --fs-gbps '%s'", optarg);
            break;
        case OPT_JSON:
            json = true;
            break;
        default:
            return mulred_out_bad_option("bench utxo", argc, argv);
        }
    }
    if (optind < argc)
        return mulred_out_usage_error("bench utxo", "unexpected argument '%s'", argv[optind]);

    mulred_error err;
    mulred_error_clear(&err);
    char synth[4096], small[4200] = "";
    const char *tmp = getenv("TMPDIR");
    double t_synth = 0;
    if (!file) {
        snprintf(synth, sizeof synth, "%s/mulred-bench-utxo-%ld.dat", tmp && tmp[0] ? tmp : "/tmp",
                 (long)getpid());
        double t0 = mulred_wtime();
        if (mulred_utxo_synth(synth, coins, 1, false, &err)) return mulred_out_error(&err);
        t_synth = mulred_wtime() - t0;
        file = synth;
    }
    int rc = MULRED_OK;
    mulred_utxo_index_info info;
    double t0 = mulred_wtime();
    mulred_utxo_options noindex = {.no_save = true};
    rc = mulred_utxo_index_build(&info, file, &noindex, true, &err); /* a full validating scan */
    double t_index = mulred_wtime() - t0;
    if (rc == MULRED_OK) rc = mulred_utxo_index_ensure(file, NULL, NULL, &err);
    mulred_utxo_header h;
    if (rc == MULRED_OK) rc = mulred_utxo_read_header(&h, file, &err);
    if (rc) goto done;
    coins = h.coins;

    int R = (int)reps;
    double *v = calloc(6 * (size_t)R, sizeof *v), *dec = v, *m1 = v + R, *m2 = v + 2 * R,
           *r0 = v + 3 * R, *r1 = v + 4 * R, *dec2 = v + 5 * R;
    mulred_muhash_stats s1 = {0}, s2 = {0}, st;
    double cores_got = 0; /* CPU seconds per wall second the 2-thread run obtained */
    uint8_t d_ref[32], d[32];
    for (int k = 0; k < R && rc == MULRED_OK; k++) {
        mulred_utxo_source *s;
        if ((rc = mulred_utxo_source_open(&s, file, NULL, &err))) break;
        rc = decode_all(&dec[k], s, &err);
        mulred_utxo_source_close(s);
        if (rc || (rc = decode_threads(&dec2[k], file, 2, &err))) break;
        mulred_muhash_state a, b, total;
        mulred_muhash_stats sk;
        if (rc || (rc = reduce_share(&m1[k], &sk, &a, file, 0, 1, 1, &err))) break;
        if (m1[k] <= best_of(m1, k + 1)) s1 = sk; /* CPU split of the run that counts */
        mulred_muhash_finalize(d_ref, &a);
        double c0 = process_cpu();
        if ((rc = reduce_share(&m2[k], &s2, &b, file, 0, 1, 2, &err))) break;
        double got = (process_cpu() - c0) / m2[k];
        if (m2[k] <= best_of(m2, k + 1)) cores_got = got; /* of the run that counts */
        mulred_muhash_finalize(d, &b);
        if (memcmp(d, d_ref, 32) != 0)
            rc = mulred_error_set(&err, MULRED_ERUNTIME, "2 threads differ");
        if (rc || (rc = reduce_share(&r0[k], &st, &a, file, 0, 2, 1, &err))) break;
        if ((rc = reduce_share(&r1[k], &st, &b, file, 1, 2, 1, &err))) break;
        total = a;
        mulred_muhash_combine(&total, &b);
        mulred_muhash_finalize(d, &total);
        if (memcmp(d, d_ref, 32) != 0)
            rc = mulred_error_set(&err, MULRED_ERUNTIME, "2 ranks differ");
    }
    if (rc) {
        free(v);
        goto done;
    }
    double T_dec = best_of(dec, R), T_dec2 = best_of(dec2, R), T1 = best_of(m1, R),
           T2 = best_of(m2, R);
    double T_r0 = best_of(r0, R), T_r1 = best_of(r1, R);
    double T_2r = T_r0 > T_r1 ? T_r0 : T_r1;
    free(v);
    double n = (double)coins;
    double decode_share = s1.produce_cpu / (s1.produce_cpu + s1.hash_cpu);
    double per_coin = T1 / n; /* seconds per coin per core, everything included */
    double eff2 = T1 / (2 * T2);
    char hex[65];
    mulred_muhash_display(hex, d_ref, MULRED_MUHASH_BITCOIN);

    /* Projection: cores scale with the measured 2-thread efficiency per doubling. */
    const int nodes[] = {1, 16, 256, 1024};
    double proj[4], io[4];
    double eff_node = pow(eff2 > 1 ? 1 : eff2, log2((double)cores));
    for (int i = 0; i < 4; i++) {
        double compute = MAINNET_COINS * per_coin / ((double)nodes[i] * (double)cores * eff_node);
        io[i] = MAINNET_BYTES / (fs_gbps * 1e9);
        double reduce = log2((double)nodes[i] + 1) * 20e-6 + 40e-6; /* tree of MPI hops + final */
        proj[i] = (compute > io[i] ? compute : io[i]) + reduce;
    }
    double index_mainnet = MAINNET_COINS * (t_index / n);

    /* Peak resident memory: the command on this snapshot and on one a tenth its size (its
     * index made first, so that both runs only read), 1 and 2 threads, and the start-up
     * baseline of the same binary. */
    double rss[2][2], rss_lo[2][2] = {{0}}, rss_hi[2][2] = {{0}};
    double rss_base, base_lo = 0, base_hi = 0;
    uint64_t small_coins = coins / 10 ? coins / 10 : 1;
    mulred_utxo_header hs;
    snprintf(small, sizeof small, "%s/mulred-bench-utxo-%ld-small.dat",
             tmp && tmp[0] ? tmp : "/tmp", (long)getpid());
    if ((rc = mulred_utxo_synth(small, small_coins, 2, false, &err)) ||
        (rc = mulred_utxo_index_ensure(small, NULL, NULL, &err)) ||
        (rc = mulred_utxo_read_header(&hs, small, &err)))
        goto done;
    rss_base = rss_median(&base_lo, &base_hi, "--synthetic", "1", 1, R);
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < 2; t++)
            rss[k][t] =
                rss_median(&rss_lo[k][t], &rss_hi[k][t], "--snapshot", k ? file : small, t + 1, R);
    if (rss_base < 0 || rss[0][0] < 0 || rss[0][1] < 0 || rss[1][0] < 0 || rss[1][1] < 0) {
        rc = mulred_error_set(&err, MULRED_ERUNTIME, "peak RSS: a 'mulred muhash' run failed");
        goto done;
    }

    if (json) {
        mulred_json_writer w;
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "bench", "utxo");
        mulred_jw_string(&w, "file", file);
        mulred_jw_uint(&w, "coins", coins);
        mulred_jw_uint(&w, "file_bytes", h.file_size);
        mulred_jw_uint(&w, "chunks", info.chunks);
        mulred_jw_string(&w, "muhash", hex);
        mulred_jw_double(&w, "index_build_seconds", t_index);
        mulred_jw_double(&w, "decode_seconds", T_dec);
        mulred_jw_double(&w, "decode_2threads_seconds", T_dec2);
        mulred_jw_double(&w, "muhash_1thread_seconds", T1);
        mulred_jw_double(&w, "muhash_2threads_seconds", T2);
        mulred_jw_double(&w, "muhash_2ranks_seconds_simulated", T_2r);
        mulred_jw_double(&w, "decode_coins_per_second", n / T_dec);
        mulred_jw_double(&w, "muhash_1thread_coins_per_second", n / T1);
        mulred_jw_double(&w, "muhash_2threads_coins_per_second", n / T2);
        mulred_jw_double(&w, "muhash_2ranks_coins_per_second", n / T_2r);
        mulred_jw_double(&w, "decode_share", decode_share);
        mulred_jw_double(&w, "speedup_2threads", T1 / T2);
        mulred_jw_double(&w, "speedup_2ranks", T1 / T_2r);
        mulred_jw_double(&w, "cores_obtained_2threads", cores_got);
        mulred_jw_object_begin(&w, "peak_rss_kib");
        mulred_jw_double(&w, "baseline", rss_base);
        mulred_jw_uint(&w, "small_coins", small_coins);
        mulred_jw_uint(&w, "small_file_bytes", hs.file_size);
        mulred_jw_double(&w, "small_1thread", rss[0][0]);
        mulred_jw_double(&w, "small_2threads", rss[0][1]);
        mulred_jw_double(&w, "file_1thread", rss[1][0]);
        mulred_jw_double(&w, "file_2threads", rss[1][1]);
        mulred_jw_object_end(&w);
        mulred_jw_object_begin(&w, "projection_mainnet");
        mulred_jw_double(&w, "coins", MAINNET_COINS);
        mulred_jw_uint(&w, "cores_per_node", cores);
        mulred_jw_double(&w, "fs_gbps", fs_gbps);
        mulred_jw_double(&w, "index_build_seconds", index_mainnet);
        for (int i = 0; i < 4; i++) {
            char key[32];
            snprintf(key, sizeof key, "nodes_%d_seconds", nodes[i]);
            mulred_jw_double(&w, key, proj[i]);
        }
        mulred_jw_object_end(&w);
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
    } else {
        char a[32], b[32];
        mulred_out("mulred bench utxo: %s\n", file);
        mulred_out("  %llu coins, %llu bytes, %llu chunks; muhash %s\n", (unsigned long long)coins,
                   (unsigned long long)h.file_size, (unsigned long long)info.chunks, hex);
        if (t_synth > 0) {
            mulred_format_seconds(a, sizeof a, t_synth);
            mulred_out("  synthetic snapshot written in %s\n", a);
        }
        mulred_out("  best of %d runs, wall clock, warm page cache\n\n", R);
        mulred_out("  %-34s %10s %16s %8s\n", "phase", "time", "rate", "vs 1t");
        struct {
            const char *name;
            double t;
        } rows[] = {{"index build (validating scan, once)", t_index},
                    {"decode only, 1 thread", T_dec},
                    {"decode only, 2 threads", T_dec2},
                    {"full muhash, 1 thread", T1},
                    {"full muhash, 2 threads", T2},
                    {"full muhash, 2 ranks (simulated)", T_2r}};
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            mulred_format_seconds(a, sizeof a, rows[i].t);
            mulred_format_rate(b, sizeof b, n / rows[i].t, "coins");
            if (i >= 3) /* speedups against the 1-thread run of the same kind */
                mulred_out("  %-34s %10s %16s %7.2fx\n", rows[i].name, a, b, T1 / rows[i].t);
            else if (i == 2)
                mulred_out("  %-34s %10s %16s %7.2fx\n", rows[i].name, a, b, T_dec / T_dec2);
            else
                mulred_out("  %-34s %10s %16s %8s\n", rows[i].name, a, b, "");
        }
        mulred_out("\n  decode share of the 1-thread muhash CPU time: %.1f%% (target <= 20%%)\n",
                   100 * decode_share);
        mulred_out("  speedup: 2 threads %.2fx, 2 ranks %.2fx (target >= 1.85x)\n", T1 / T2,
                   T1 / T_2r);
        mulred_out("  the 2-thread run obtained %.2f cores of CPU time per wall second%s\n",
                   cores_got,
                   cores_got < 1.8 ? " (the machine is busy: speedups are understated)" : "");
        mulred_out("  per-coin cost: %.3f us (decode %.3f us, hash+multiply %.3f us)\n",
                   per_coin * 1e6, s1.produce_cpu / n * 1e6, s1.hash_cpu / n * 1e6);
        mulred_out("\n  peak resident memory of 'mulred muhash --snapshot FILE' (fresh process,\n"
                   "  wait4's ru_maxrss, median [min-max] of %d runs):\n",
                   R);
        mulred_out("    start-up baseline (--synthetic 1)      %7.1f MiB [%.1f-%.1f]\n",
                   rss_base / 1024, base_lo / 1024, base_hi / 1024);
        for (int k = 0; k < 2; k++)
            for (int t = 0; t < 2; t++)
                mulred_out("    %9llu coins, %5.1f MB, %d thread%s  %7.1f MiB [%.1f-%.1f]\n",
                           (unsigned long long)(k ? coins : small_coins),
                           (double)(k ? h.file_size : hs.file_size) / 1e6, t + 1, t ? "s" : " ",
                           rss[k][t] / 1024, rss_lo[k][t] / 1024, rss_hi[k][t] / 1024);
        mulred_out("    %.0fx the coins: %+.1f MiB (1 thread), %+.1f MiB (2 threads)\n",
                   (double)coins / (double)small_coins, (rss[1][0] - rss[0][0]) / 1024,
                   (rss[1][1] - rss[0][1]) / 1024);
        mulred_out("\n  PROJECTION (not a measurement) for a mainnet-size snapshot: 180 M coins,\n"
                   "  9 GB; %llu cores per node at this machine's per-coin cost and 2-thread\n"
                   "  efficiency (%.0f%%), %.0f GB/s aggregate reads, MPI tree reduce:\n",
                   (unsigned long long)cores, 100 * (eff2 > 1 ? 1 : eff2), fs_gbps);
        mulred_format_seconds(a, sizeof a, index_mainnet);
        mulred_out("    index build, once (sequential scan): %s\n", a);
        for (int i = 0; i < 4; i++) {
            mulred_format_seconds(a, sizeof a, proj[i]);
            mulred_out("    %5d node%s %12s%s\n", nodes[i], nodes[i] > 1 ? "s" : " ", a,
                       proj[i] <= io[i] + 1e-3 ? "  (bound by the file system)" : "");
        }
    }
done:
    if (small[0]) {
        unlink(small);
        char idx[4300];
        if (mulred_utxo_index_path(idx, sizeof idx, small) == 0) unlink(idx);
    }
    if (file == synth && !keep) {
        unlink(synth);
        char idx[4200];
        if (mulred_utxo_index_path(idx, sizeof idx, synth) == 0) unlink(idx);
    }
    return rc ? mulred_out_error(&err) : MULRED_OK;
}

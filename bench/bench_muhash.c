/* mulred bench muhash: per-operation medians on one thread (the multiply floor, every kernel,
 * element hashing per flavor, insert, finalize), the rusty-kaspa seed workload with and without
 * the identity short-circuit, (--scaling) 1 vs 2 threads and 1 vs 2 ranks on a synthetic set,
 * and (--memory) the peak resident memory of `mulred muhash --insert` on element files of two
 * sizes, all measured in one run so that ratios are meaningful on a noisy machine. */
#include <gmp.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_child.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "hash/hash.h"
#include "mulred/muhash.h"
#include "mulred/sources.h"
#include "num3072/num3072.h"
#include "output/format.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

double bench_median_ns(void (*fn)(void *arg), void *arg, int reps, int samples)
{
    double *t = malloc((size_t)samples * sizeof *t);
    if (!t) abort();
    fn(arg); /* warm up */
    for (int s = 0; s < samples; s++) {
        double t0 = mulred_thread_cputime();
        for (int r = 0; r < reps; r++) fn(arg);
        t[s] = (mulred_thread_cputime() - t0) / reps * 1e9;
    }
    double m = mulred_median(t, (size_t)samples);
    free(t);
    return m;
}

typedef struct {
    mulred_num3072 a, b, r;
    mp_limb_t prod[96];
    mulred_muhash_ctx *ctx;
    mulred_muhash_state state;
    uint8_t elem[64][72];
    mulred_bytes batch[64];
    int next;
    mulred_blake2b256 *blake; /* the Kaspa element key alone: OpenSSL and 8-lane digests */
    mulred_blake2b_keyed_state blake_st;
    uint8_t digest[8][32];
    mulred_num3072 fac[4];
    const uint64_t *factors[32]; /* a run of 32 factors (fac[i % 4]) for mul_many into a */
} op_arg;

static void op_mpn(void *v)
{
    op_arg *o = v;
    mpn_mul_n(o->prod, (const mp_limb_t *)o->a.limb, (const mp_limb_t *)o->b.limb, 48);
}
static void op_mul(void *v)
{
    op_arg *o = v;
    num3072_mul_always(&o->a, &o->a, &o->b);
}
static void op_mul_many(void *v) /* 32 factors per call */
{
    op_arg *o = v;
    num3072_mul_many(&o->a, o->factors, 32, false);
}
static void op_element(void *v)
{
    op_arg *o = v;
    mulred_muhash_element(&o->r, o->ctx, o->elem[o->next++ & 63], 58);
}
static void op_insert_one(void *v)
{
    op_arg *o = v;
    mulred_muhash_insert(&o->state, o->ctx, o->elem[o->next++ & 63], 58);
}
static void op_insert_batch(void *v) /* 64 elements per call */
{
    op_arg *o = v;
    mulred_muhash_insert_many(&o->state, o->ctx, o->batch, 64);
}
static void op_digest_openssl(void *v)
{
    op_arg *o = v;
    mulred_blake2b256_digest(o->blake, o->digest[0], o->elem[o->next++ & 63], 58);
}
static void op_digest_one(void *v)
{
    op_arg *o = v;
    mulred_blake2b256_keyed(o->digest[0], o->elem[o->next++ & 63], 58, &o->blake_st);
}
static void op_digest_x8(void *v) /* 8 elements per call */
{
    op_arg *o = v;
    const uint8_t *mp[8];
    uint8_t *op[8];
    size_t len[8];
    for (int i = 0; i < 8; i++) {
        mp[i] = o->elem[(o->next + i) & 63];
        op[i] = o->digest[i];
        len[i] = 58;
    }
    o->next += 8;
    mulred_blake2b256_keyed_x8(op, mp, len, &o->blake_st);
}
static void op_finalize(void *v)
{
    op_arg *o = v;
    uint8_t d[32];
    mulred_muhash_finalize(d, &o->state);
}

static void op_init(op_arg *o, mulred_muhash_flavor flavor)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < 48; i++) {
        o->a.limb[i] = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1) ^ 0x1234567ull;
        o->b.limb[i] = 0xc2b2ae3d27d4eb4full * (uint64_t)(i + 7) ^ 0x7654321ull;
    }
    for (int i = 0; i < 64; i++) {
        for (int j = 0; j < 72; j++) o->elem[i][j] = (uint8_t)(i * 31 + j * 7);
        o->batch[i] = (mulred_bytes){o->elem[i], 58};
    }
    for (int i = 0; i < 4 * 48; i++)
        o->fac[i / 48].limb[i % 48] = 0xd6e8feb86659fd93ull * (uint64_t)(i + 11) ^ (uint64_t)i;
    for (int i = 0; i < 32; i++) o->factors[i] = o->fac[i % 4].limb;
    o->ctx = mulred_muhash_ctx_new(flavor);
    mulred_muhash_init(&o->state, flavor);
    mulred_muhash_remove(&o->state, o->ctx, o->elem[0], 58); /* finalize pays the inverse */
    mulred_muhash_insert(&o->state, o->ctx, o->elem[1], 58);
}

/* Runs argv and returns the "seconds" of its JSON output, or -1. */
static double run_seconds(const char *const argv[], const bench_child_opts *o)
{
    bench_child c;
    json_t *v = bench_child_json_run(&c, argv, o);
    bench_child_free(&c);
    if (!v) return -1;
    const json_t *s = json_object_get(v, "seconds");
    double seconds = json_is_number(s) ? json_number_value(s) : -1;
    json_decref(v);
    return seconds;
}

typedef struct {
    const char *name;
    int ranks, threads;
    double seconds;
} scaling_run;

/* The engine alone, inside this process: N synthetic elements reduced with 1 and with 2
 * threads, taking turns, `reps` times; medians of wall time into t1, t2. Separates the
 * reduction's own scaling from process start-up, which the child-process runs include. */
static void bench_engine_threads(double *t1, double *t2, uint64_t n, int reps)
{
    double t[2][16];
    mulred_source_synth_set set = {MULRED_MUHASH_BITCOIN, 1, 0, n, false};
    mulred_muhash_source src;
    mulred_source_synth_source(&src, &set);
    mulred_muhash_state st;
    mulred_error err;
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            double t0 = mulred_wtime();
            mulred_muhash_reduce(&st, MULRED_MUHASH_BITCOIN, &src, 1, k + 1, NULL, &err);
            t[k][r] = mulred_wtime() - t0;
        }
    *t1 = mulred_median(t[0], (size_t)reps);
    *t2 = mulred_median(t[1], (size_t)reps);
}

/* The command of one scaling run: `mulred muhash --synthetic N --threads T --json` with
 * OMP_NUM_THREADS=T, under `$MPIEXEC -n R` (mpirun by default) for more than one rank. */
typedef struct {
    char n[24], threads[24], ranks[24], omp[48];
    const char *argv[10], *launcher[10], *env[2];
    bench_child_opts opts;
} scaling_command;

static void scaling_command_make(scaling_command *c, const char *self, const scaling_run *run,
                                 uint64_t n)
{
    snprintf(c->n, sizeof c->n, "%llu", (unsigned long long)n);
    snprintf(c->threads, sizeof c->threads, "%d", run->threads);
    snprintf(c->ranks, sizeof c->ranks, "%d", run->ranks);
    snprintf(c->omp, sizeof c->omp, "OMP_NUM_THREADS=%d", run->threads);
    const char *const argv[] = {self,       "muhash", "--synthetic",   c->n, "--threads",
                                c->threads, "--json", "--no-progress", NULL};
    memcpy(c->argv, argv, sizeof argv);
    c->opts = (bench_child_opts){0};
    if (run->ranks == 1) {
        c->env[0] = c->omp, c->env[1] = NULL;
        c->opts.env = c->env;
        return;
    }
    int a = 0;
    c->launcher[a++] = getenv("MPIEXEC") ? getenv("MPIEXEC") : "mpirun";
    c->launcher[a++] = "-n", c->launcher[a++] = c->ranks;
    c->launcher[a++] = "--oversubscribe", c->launcher[a++] = "--bind-to", c->launcher[a++] = "none";
    if (getuid() == 0) c->launcher[a++] = "--allow-run-as-root";
    c->launcher[a++] = "-x", c->launcher[a++] = c->omp;
    c->launcher[a] = NULL;
    c->opts.launcher = c->launcher;
}

static int bench_scaling(scaling_run runs[3], uint64_t n, int reps)
{
    const char *self = bench_child_self();
    if (!self) return -1;
    double t[3][16];
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 3; k++) {
            scaling_command cmd;
            scaling_command_make(&cmd, self, &runs[k], n);
            t[k][r] = run_seconds(cmd.argv, &cmd.opts);
            if (t[k][r] < 0) {
                char line[8192];
                bench_child_describe(line, sizeof line, cmd.argv, &cmd.opts);
                fprintf(stderr, "mulred bench: failed: %s\n", line);
                return -1;
            }
        }
    for (int k = 0; k < 3; k++) runs[k].seconds = mulred_median(t[k], (size_t)reps);
    return 0;
}

/* Writes `lines` synthetic bitcoin elements (TxOutSer, seed 1) as hex lines to path. */
static int write_element_file(const char *path, uint64_t lines)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    static char iobuf[1 << 20];
    setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
    uint8_t e[MULRED_SOURCE_SYNTH_MAX_ELEMENT];
    char hex[2 * MULRED_SOURCE_SYNTH_MAX_ELEMENT + 2];
    for (uint64_t i = 0; i < lines; i++) {
        size_t n = mulred_source_synth_element(e, MULRED_MUHASH_BITCOIN, 1, i);
        mulred_hex_encode(hex, e, n);
        hex[2 * n] = '\n';
        fwrite(hex, 1, 2 * n + 1, f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

typedef struct {
    const char *name;
    double kib, lo, hi;
} rss_row;

/* Median [min, max] over reps fresh runs of `mulred muhash ARGS` of the peak resident set. */
static int rss_row_measure(rss_row *r, const char *const args[], const char *stdin_path, int reps)
{
    double v[16];
    for (int i = 0; i < reps; i++)
        if ((v[i] = (double)bench_peak_rss_kib(args, stdin_path, NULL)) < 0) return -1;
    r->kib = mulred_median(v, (size_t)reps);
    r->lo = v[0], r->hi = v[reps - 1];
    return 0;
}

/* Peak resident memory of `mulred muhash --insert FILE` on element files of lines/10 and lines
 * lines, 1 and 2 threads, and of the same small file through standard input (a stream: read
 * whole by rank 0), beside the start-up baseline. */
static int bench_memory(rss_row rows[6], uint64_t lines, uint64_t file_bytes[2], int reps)
{
    const char *tmp = getenv("TMPDIR");
    char path[2][4096];
    uint64_t n[2] = {lines / 10 ? lines / 10 : 1, lines};
    int rc = 0;
    for (int k = 0; k < 2 && rc == 0; k++) {
        snprintf(path[k], sizeof path[k], "%s/mulred-bench-elements-%ld-%d.txt",
                 tmp && tmp[0] ? tmp : "/tmp", (long)getpid(), k);
        rc = write_element_file(path[k], n[k]);
        FILE *f = rc ? NULL : fopen(path[k], "r");
        if (f) {
            fseek(f, 0, SEEK_END);
            file_bytes[k] = (uint64_t)ftell(f);
            fclose(f);
        }
    }
    static char names[5][96];
    const char *base[] = {"mulred", "muhash", "--synthetic", "1", "--threads", "1", NULL};
    rows[0].name = "start-up baseline (--synthetic 1)";
    if (rc == 0) rc = rss_row_measure(&rows[0], base, NULL, reps);
    for (int k = 0; k < 2 && rc == 0; k++)
        for (int t = 1; t <= 2 && rc == 0; t++) {
            char *name = names[2 * k + t - 1];
            snprintf(name, sizeof names[0], "--insert FILE, %llu lines, %d thread%s",
                     (unsigned long long)n[k], t, t > 1 ? "s" : "");
            const char *args[] = {"mulred",    "muhash",           "--insert",      path[k],
                                  "--threads", t == 1 ? "1" : "2", "--no-progress", NULL};
            rows[1 + 2 * k + t - 1].name = name;
            rc = rss_row_measure(&rows[1 + 2 * k + t - 1], args, NULL, reps);
        }
    if (rc == 0) {
        snprintf(names[4], sizeof names[4], "--insert - (stdin), %llu lines, 1 thread",
                 (unsigned long long)n[0]);
        rows[5].name = names[4];
        const char *args[] = {"mulred",    "muhash", "--insert",      "-",
                              "--threads", "1",      "--no-progress", NULL};
        rc = rss_row_measure(&rows[5], args, path[0], reps);
    }
    unlink(path[0]);
    unlink(path[1]);
    return rc;
}

static void bench_muhash_usage(void)
{
    mulred_out(
        "Usage: mulred bench muhash [--scaling] [--elements N] [--json]\n"
        "\n"
        "Per-operation medians on one thread (thread CPU time): GMP mpn_mul_n on 48 limbs\n"
        "(the floor), the 3072-bit multiply mod p of every kernel this CPU runs, element\n"
        "hashing per flavor, the Kaspa keyed BLAKE2b-256 alone (EVP_MAC; mulred's, one\n"
        "message; 8 AVX-512 lanes), insert (batched per flavor with the kernel in use; one\n"
        "at a time on GMP), finalize; then the rusty-kaspa seed workload (256 transactions\n"
        "x 2 removes + 2 adds of 97-byte Kaspa elements): one state one element at a time\n"
        "(the baseline) vs every transaction its own identity-seeded partial, batched\n"
        "(mulred_muhash_update_many) over 1 and 2 threads with and without the identity\n"
        "short-circuit, and one element at a time (median wall time). Prints the CPU\n"
        "family and generation and how the multiply kernel was chosen.\n"
        "  --scaling       also time N synthetic elements (default 200000) with 1 rank x\n"
        "                  1 thread, 1 rank x 2 threads and 2 ranks x 1 thread (mpirun,\n"
        "                  or $MPIEXEC), median of 9 runs each, and print the speedups;\n"
        "                  then the reduction alone in this process, 1 vs 2 threads\n"
        "  --elements N    the synthetic set size for --scaling\n"
        "  --memory        also the peak resident memory of 'mulred muhash --insert FILE'\n"
        "                  (a fresh process; wait4's ru_maxrss, median of 3) on element\n"
        "                  files of L/10 and L lines, 1 and 2 threads, and of the small one\n"
        "                  through standard input, against the start-up baseline\n"
        "  --lines L       lines of the larger file for --memory (default 1e7: about 1.2 GB\n"
        "                  in $TMPDIR, removed afterwards)\n"
        "  --json          one JSON object instead of tables\n");
}

typedef struct {
    uint64_t elements, lines;
    bool scaling, memory, json;
} muhash_opts;

MULRED_KEY_FLAG(set_scaling, muhash_opts, scaling)
MULRED_KEY_COUNT(set_elements, muhash_opts, elements, 1, UINT64_MAX)
MULRED_KEY_FLAG(set_memory, muhash_opts, memory)
MULRED_KEY_COUNT(set_lines, muhash_opts, lines, 1, UINT64_MAX)
MULRED_KEY_FLAG(set_json, muhash_opts, json)

static const mulred_key muhash_keys[] = {
    {"scaling", true, false, false, set_scaling}, {"elements", false, false, false, set_elements},
    {"memory", true, false, false, set_memory},   {"lines", false, false, false, set_lines},
    {"json", true, false, false, set_json},
};

/* The per-operation medians, in ns. */
typedef struct {
    const num3072_kernel *def, *kernels;
    int nk;
    double mpn, mul[8], mul_many[8], hash[2], insert_batch, insert_kaspa, insert_gmp, finalize;
    double digest_kaspa, digest_kaspa_one, digest_kaspa_x8; /* x8: 0 without AVX-512 */
} muhash_ops;

static mulred_status measure_ops(muhash_ops *m)
{
    memset(m, 0, sizeof *m);
    m->def = num3072_kernel_active();
    op_arg *o = malloc(sizeof *o);
    if (!o) return MULRED_ERUNTIME;
    op_init(o, MULRED_MUHASH_BITCOIN);
    m->mpn = bench_median_ns(op_mpn, o, 2000, 15);
    m->kernels = num3072_kernels(&m->nk);
    for (int k = 0; k < m->nk; k++) {
        if (!m->kernels[k].available()) continue;
        num3072_kernel_select(m->kernels[k].name);
        m->mul[k] = bench_median_ns(op_mul, o, 2000, 15);
        m->mul_many[k] = bench_median_ns(op_mul_many, o, 60, 15) / 32;
    }
    for (int f = 1; f >= 0; f--) {
        mulred_muhash_ctx_free(o->ctx);
        op_init(o, (mulred_muhash_flavor)f);
        num3072_kernel_select(m->def->name);
        m->hash[f] = bench_median_ns(op_element, o, 2000, 15);
        if (f == MULRED_MUHASH_KASPA) {
            m->insert_kaspa = bench_median_ns(op_insert_batch, o, 30, 15) / 64;
            static const uint8_t key[] = "MuHashElement";
            o->blake = mulred_blake2b256_new(key, sizeof key - 1);
            m->digest_kaspa = bench_median_ns(op_digest_openssl, o, 2000, 15);
            mulred_blake2b256_keyed_init(&o->blake_st, key, sizeof key - 1);
            m->digest_kaspa_one = bench_median_ns(op_digest_one, o, 2000, 15);
            if (mulred_cpu()->avx512f)
                m->digest_kaspa_x8 = bench_median_ns(op_digest_x8, o, 500, 15) / 8;
            mulred_blake2b256_free(o->blake);
        }
    }
    m->insert_batch = bench_median_ns(op_insert_batch, o, 30, 15) / 64;
    m->finalize = bench_median_ns(op_finalize, o, 20, 15);
    num3072_kernel_select("gmp");
    m->insert_gmp = bench_median_ns(op_insert_one, o, 2000, 15);
    num3072_kernel_select(m->def->name);
    mulred_muhash_ctx_free(o->ctx);
    free(o);
    return MULRED_OK;
}

static void print_ops(mulred_json_writer *w, const muhash_ops *m)
{
    bench_table t;
    char key[48], label[96];
    bench_table_begin(&t, w, NULL, bench_op_columns, BENCH_NCOLS(bench_op_columns));
    bench_op_row(&t, "mpn_mul_n_ns", "GMP mpn_mul_n, 48 limbs (floor)", m->mpn, 1, "mpn");
    for (int k = 0; k < m->nk; k++) {
        if (!m->mul[k]) continue;
        snprintf(key, sizeof key, "mul_%s_ns", m->kernels[k].name);
        snprintf(label, sizeof label, "multiply mod p, kernel %s", m->kernels[k].name);
        bench_op_row(&t, key, label, m->mul[k], m->mul[k] / m->mpn, "mpn");
        snprintf(key, sizeof key, "mul_many_%s_ns", m->kernels[k].name);
        bench_op_row(&t, key, "  per factor of a run of 32 (mul_many)", m->mul_many[k],
                     m->mul_many[k] / m->mpn, "mpn");
    }
    bench_op_row(&t, "hash_bitcoin_ns", "element hash + expand, bitcoin (58 B)", m->hash[0], 0,
                 NULL);
    bench_op_row(&t, "hash_kaspa_ns", "element hash + expand, kaspa (58 B)", m->hash[1],
                 m->hash[1] / m->hash[0], "bitcoin");
    bench_op_row(&t, "digest_kaspa_ns", "keyed BLAKE2b-256, kaspa (58 B), EVP_MAC", m->digest_kaspa,
                 0, NULL);
    bench_op_row(&t, "digest_kaspa_one_ns", "keyed BLAKE2b-256, kaspa, mulred, one msg",
                 m->digest_kaspa_one, m->digest_kaspa_one / m->digest_kaspa, "EVP");
    if (m->digest_kaspa_x8)
        bench_op_row(&t, "digest_kaspa_x8_ns", "keyed BLAKE2b-256, kaspa, 8 lanes, per elt",
                     m->digest_kaspa_x8, m->digest_kaspa_x8 / m->digest_kaspa, "EVP");
    snprintf(label, sizeof label, "insert, batched, kernel %s", m->def->name);
    bench_op_row(&t, "insert_ns", label, m->insert_batch, m->insert_batch / m->mpn, "mpn");
    bench_op_row(&t, "insert_kaspa_ns", "insert, batched, kaspa", m->insert_kaspa,
                 m->insert_kaspa / m->mpn, "mpn");
    bench_op_row(&t, "insert_gmp_ns", "insert, one at a time, gmp", m->insert_gmp, 0, NULL);
    bench_op_row(&t, "finalize_ns", "finalize (inverse + multiply + digest)", m->finalize, 0, NULL);
    bench_table_end(&t);
    if (!w) mulred_out("\n");
    bench_table_begin(&t, w, NULL, bench_figure_columns, BENCH_NCOLS(bench_figure_columns));
    bench_figure_row(&t, "hash_kaspa_over_bitcoin", "hash, kaspa / bitcoin",
                     m->hash[1] / m->hash[0]);
    bench_figure_row(&t, "insert_over_mpn_mul_n", "insert, batched / mpn_mul_n",
                     m->insert_batch / m->mpn);
    bench_table_end(&t);
}

/* The seed workload's configurations, their JSON members and labels. */
enum { SEED_TXS = 256, SEED_SAMPLES = 61, NSEED = 7 };
static const bench_seed_config seed_configs[NSEED] = {
    {BENCH_SEED_ONE_STATE, 0, 1},           {BENCH_SEED_PER_TX_BATCHED, 1, 1},
    {BENCH_SEED_PER_TX_BATCHED, 2, 1},      {BENCH_SEED_PER_TX_BATCHED, 1, 0},
    {BENCH_SEED_PER_TX_BATCHED, 2, 0},      {BENCH_SEED_PER_TX_ONE_AT_A_TIME, 1, 1},
    {BENCH_SEED_PER_TX_ONE_AT_A_TIME, 2, 1}};
static const char *const seed_keys[NSEED] = {"one_at_a_time_s",
                                             "threads1_s",
                                             "threads2_s",
                                             "threads1_no_short_circuit_s",
                                             "threads2_no_short_circuit_s",
                                             "per_tx_one_at_a_time_threads1_s",
                                             "per_tx_one_at_a_time_threads2_s"};
static const char *const seed_labels[NSEED] = {
    "one state, one element at a time (baseline)", "per-tx partials, batched, 1 thread",
    "per-tx partials, batched, 2 threads",         "  same, 1 thread, no short-circuit",
    "  same, 2 threads, no short-circuit",         "per-tx partials, one at a time, 1 thread",
    "per-tx partials, one at a time, 2 threads"};
static const bench_column seed_columns[] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "layout", NULL, BENCH_TEXT, 0},
    {"s", "time us", "%.1f", BENCH_REAL, 1e6},
    {NULL, "vs one at a time", "%.3f", BENCH_REAL, 0},
};

static void print_seed(mulred_json_writer *w, const double seed_s[NSEED])
{
    const double one = seed_s[0], t1 = seed_s[1], t2 = seed_s[2];
    if (w) {
        mulred_jw_object_begin(w, "seed_workload");
        mulred_jw_int(w, "transactions", SEED_TXS);
    } else
        mulred_out("\nSeed workload: %d transactions x (2 removes + 2 adds), 97-byte Kaspa "
                   "elements,\nmedian wall time of %d runs (includes finalize)\n\n",
                   SEED_TXS, SEED_SAMPLES);
    bench_table t;
    bench_table_begin(&t, w, NULL, seed_columns, BENCH_NCOLS(seed_columns));
    for (int i = 0; i < NSEED; i++)
        BENCH_ROW(&t, BENCH_S(seed_keys[i]), BENCH_S(seed_labels[i]), BENCH_R(seed_s[i]),
                  BENCH_R(seed_s[i] / one));
    bench_table_end(&t);
    if (!w) mulred_out("\n");
    bench_table_begin(&t, w, NULL, bench_figure_columns, BENCH_NCOLS(bench_figure_columns));
    bench_figure_row(&t, "threads1_over_one_at_a_time", "batched per-tx, 1 thread / one at a time",
                     t1 / one);
    bench_figure_row(&t, "threads2_over_one_at_a_time", "batched per-tx, 2 threads / one at a time",
                     t2 / one);
    bench_figure_row(&t, "speedup_2_threads", "batched per-tx, speedup of 2 threads", t1 / t2);
    bench_figure_row(&t, "short_circuit_gain_2_threads", "identity short-circuit gain, 2 threads",
                     seed_s[4] / t2);
    bench_table_end(&t);
    if (w) mulred_jw_object_end(w);
}

/* --scaling: the three layouts in child processes, and the reduction alone in this one. */
typedef struct {
    scaling_run runs[3];
    double engine1, engine2;
} muhash_scaling;

static const bench_column scaling_columns[] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "layout", NULL, BENCH_TEXT, 0},
    {"s", "seconds", "%.3f", BENCH_REAL, 0},
    {NULL, "speedup", "%.2f", BENCH_REAL, 0},
};

static void print_scaling(mulred_json_writer *w, const muhash_scaling *sc, uint64_t n)
{
    static const char *const keys[3] = {"r1t1_s", "r1t2_s", "r2t1_s"};
    const scaling_run *runs = sc->runs;
    if (w) {
        mulred_jw_object_begin(w, "scaling");
        mulred_jw_uint(w, "elements", n);
    } else
        mulred_out("\nStrong scaling, %llu synthetic elements (bitcoin), median of 9 runs\n\n",
                   (unsigned long long)n);
    bench_table t;
    bench_table_begin(&t, w, NULL, scaling_columns, BENCH_NCOLS(scaling_columns));
    for (int k = 0; k < 3; k++)
        BENCH_ROW(&t, BENCH_S(keys[k]), BENCH_S(runs[k].name), BENCH_R(runs[k].seconds),
                  BENCH_R(runs[0].seconds / runs[k].seconds));
    bench_table_end(&t);
    if (!w) mulred_out("\n");
    bench_table_begin(&t, w, NULL, bench_figure_columns, BENCH_NCOLS(bench_figure_columns));
    bench_figure_row(&t, "speedup_2_threads", "speedup, 2 threads",
                     runs[0].seconds / runs[1].seconds);
    bench_figure_row(&t, "speedup_2_ranks", "speedup, 2 ranks", runs[0].seconds / runs[2].seconds);
    bench_figure_row(&t, "engine_threads1_s",
                     "the reduction alone, in this process (warm), median of 9: 1 thread, s",
                     sc->engine1);
    bench_figure_row(&t, "engine_threads2_s", "the reduction alone: 2 threads, s", sc->engine2);
    bench_figure_row(&t, "engine_speedup_2_threads", "the reduction alone: speedup, 2 threads",
                     sc->engine1 / sc->engine2);
    bench_table_end(&t);
    if (w) mulred_jw_object_end(w);
}

/* --memory: peak RSS rows (bench_rss_columns) of the element files of bytes[0] and bytes[1]. */

static void print_memory(mulred_json_writer *w, const rss_row rss[6], uint64_t lines,
                         const uint64_t bytes[2])
{
    static const char *const keys[6] = {"baseline",     "small_1thread", "small_2threads",
                                        "file_1thread", "file_2threads", "small_stdin"};
    if (w) {
        mulred_jw_object_begin(w, "peak_rss_kib");
        mulred_jw_uint(w, "small_lines", lines / 10 ? lines / 10 : 1);
        mulred_jw_uint(w, "small_file_bytes", bytes[0]);
        mulred_jw_uint(w, "lines", lines);
        mulred_jw_uint(w, "file_bytes", bytes[1]);
    } else
        mulred_out("\nPeak resident memory of 'mulred muhash' (a fresh process per run, wait4's "
                   "ru_maxrss),\nmedian [min-max] of 3; element files of %.0f MB and %.0f MB\n\n",
                   (double)bytes[0] / 1e6, (double)bytes[1] / 1e6);
    bench_table t;
    bench_table_begin(&t, w, NULL, bench_rss_columns, BENCH_NCOLS(bench_rss_columns));
    for (int k = 0; k < 6; k++)
        BENCH_ROW(&t, BENCH_S(keys[k]), BENCH_S(rss[k].name), BENCH_R(rss[k].kib),
                  BENCH_R(rss[k].lo), BENCH_R(rss[k].hi));
    bench_table_end(&t);
    if (w)
        mulred_jw_object_end(w);
    else
        mulred_out("\n10x the lines: %+.1f MiB (1 thread), %+.1f MiB (2 threads); standard input "
                   "is read whole: %+.1f MiB over the file read in ranges\n",
                   (rss[3].kib - rss[1].kib) / 1024, (rss[4].kib - rss[2].kib) / 1024,
                   (rss[5].kib - rss[1].kib) / 1024);
}

/* The machine and the kernel choice: JSON members, or the heading of the human form. */
static void print_machine(mulred_json_writer *w, const muhash_ops *m)
{
    const num3072_selection *sel = num3072_kernel_selection();
    const mulred_cpu_features *cpu = mulred_cpu();
    const char *gen = mulred_cpu_generation();
    if (!w) {
        mulred_out("MuHash3072, one thread, medians of thread CPU time\n"
                   "kernel in use: %s (%s at first use, %.0f us)\n"
                   "cpu: family %d model %d%s%s%s; %s\n\n",
                   m->def->name, sel->how, sel->seconds * 1e6, cpu->family, cpu->model,
                   *gen ? " (" : "", gen, *gen ? ")" : "", mulred_cpu_describe());
        return;
    }
    mulred_jw_string(w, "kernel", m->def->name);
    mulred_jw_string(w, "kernel_choice", sel->how);
    mulred_jw_double(w, "kernel_choice_us", sel->seconds * 1e6);
    if (strcmp(sel->how, "measured") == 0) {
        mulred_jw_object_begin(w, "kernel_choice_ns");
        for (int k = 0; k < m->nk; k++)
            if (sel->ns[k] > 0) mulred_jw_double(w, m->kernels[k].name, sel->ns[k]);
        mulred_jw_object_end(w);
    }
    mulred_jw_int(w, "cpu_family", cpu->family);
    mulred_jw_int(w, "cpu_model", cpu->model);
    mulred_jw_string(w, "cpu_generation", gen);
    mulred_jw_string(w, "cpu", mulred_cpu_describe());
}

mulred_exit mulred_bench_muhash(int argc, char **argv)
{
    muhash_opts o = {200000, 10000000, false, false, false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    const bool run = bench_options(
        "muhash", &(const mulred_key_table){muhash_keys, BENCH_NCOLS(muhash_keys), &o}, argc, argv,
        bench_muhash_usage, &p, &rc);
    mulred_key_parser_free(&p);
    if (!run) return rc;
    muhash_ops m;
    if (measure_ops(&m) != MULRED_OK) return MULRED_ERUNTIME;
    double seed_s[NSEED];
    bench_seed_workload(seed_s, seed_configs, NSEED, SEED_TXS, SEED_SAMPLES);
    muhash_scaling sc = {{{"1 rank x 1 thread", 1, 1, 0},
                          {"1 rank x 2 threads", 1, 2, 0},
                          {"2 ranks x 1 thread", 2, 1, 0}},
                         0,
                         0};
    if (o.scaling) {
        if (bench_scaling(sc.runs, o.elements, 9)) return MULRED_ERUNTIME;
        bench_engine_threads(&sc.engine1, &sc.engine2, o.elements, 9);
    }
    rss_row rss[6];
    uint64_t rss_bytes[2] = {0, 0};
    if (o.memory && bench_memory(rss, o.lines, rss_bytes, 3)) {
        fprintf(stderr, "mulred bench: a 'mulred muhash' run for --memory failed\n");
        return MULRED_ERUNTIME;
    }
    mulred_json_writer jw, *w = o.json ? &jw : NULL;
    if (w) {
        mulred_jw_init(w, stdout);
        mulred_jw_object_begin(w, NULL);
    }
    print_machine(w, &m);
    print_ops(w, &m);
    print_seed(w, seed_s);
    if (o.scaling) print_scaling(w, &sc, o.elements);
    if (o.memory) print_memory(w, rss, o.lines, rss_bytes);
    if (w) {
        mulred_jw_object_end(w);
        mulred_jw_finish(w);
    }
    return MULRED_OK;
}

#include "bench_mix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "lab/lab.h"
#include "mix/mix_stream.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static double ticks_now(void)
{
    return (double)__rdtsc();
}
#else
static double ticks_now(void)
{
    return 0;
}
#endif

static void fm64_2(mulred_mix_pool *p, mulred_u128 in)
{
    mulred_mix_fastmix2_64(p, in, 2);
}
static void fm64_3(mulred_mix_pool *p, mulred_u128 in)
{
    mulred_mix_fastmix2_64(p, in, 3);
}
static void fm64_4(mulred_mix_pool *p, mulred_u128 in)
{
    mulred_mix_fastmix2_64(p, in, 4);
}

static const mix_bench_entry entries[] = {
    {"linux316", "linux316", 2},         {"spelvin32", "spelvin32", 3},
    {"fastmix2_32", "fastmix2_32", 3},   {"fastmix2_64/2", "fastmix2_64", 2},
    {"fastmix2_64/3", "fastmix2_64", 3}, {"fastmix2_64/4", "fastmix2_64", 4},
    {"siphash13", "siphash13", 1},       {"linear", "linear", 1},
};
static void (*const entry_fn[])(mulred_mix_pool *, mulred_u128) = {
    mulred_mix_linux316,  mulred_mix_spelvin32, mulred_mix_fastmix2_32, fm64_2, fm64_3, fm64_4,
    mulred_mix_siphash13, mulred_mix_linear,
};
#define NENTRIES (sizeof entries / sizeof entries[0])

size_t mix_bench_entries(const mix_bench_entry **out)
{
    *out = entries;
    return NENTRIES;
}

mix_bench_time mix_bench_run(size_t i, uint64_t calls)
{
    MULRED_CHECK(i < NENTRIES, "no bench entry %zu", i);
    void (*fn)(mulred_mix_pool *, mulred_u128) = entry_fn[i];
    mulred_mix_pool pool;
    mulred_mix_pool_init(&pool, (mulred_u128){0x0123456789abcdefull, 0xfedcba9876543210ull});
    /* The input changes every call like the interrupt's cycle counter and IP would. */
    double t0 = mulred_thread_cputime(), k0 = ticks_now();
    for (uint64_t c = 0; c < calls; c++) fn(&pool, (mulred_u128){c, c * 0x9e3779b97f4a7c15ull});
    double k1 = ticks_now(), t1 = mulred_thread_cputime();
    /* Keep the pool live so the calls cannot be dropped. */
    volatile uint64_t sink = pool.w[0] ^ pool.w[1];
    (void)sink;
    return (mix_bench_time){t1 - t0, k1 - k0};
}

mix_bench_time mix_bench_fill(uint64_t bytes, bool scalar)
{
    enum { CHUNK = 64 * 1024 };
    static uint8_t buf[CHUNK];
    uint64_t index = 0;
    double t0 = mulred_thread_cputime(), k0 = ticks_now();
    for (uint64_t done = 0; done < bytes; done += CHUNK) {
        if (scalar)
            mix_fill_scalar(buf, CHUNK, 42, index);
        else
            mulred_mix_fill(buf, CHUNK, 42, index);
        index += CHUNK / 16;
    }
    double k1 = ticks_now(), t1 = mulred_thread_cputime();
    volatile uint8_t sink = buf[7];
    (void)sink;
    return (mix_bench_time){t1 - t0, k1 - k0};
}

/* ---- mulred bench mix (and mulred mix bench, the same code) ---- */

enum { MIX_CALLS = 1 << 20 };
#define MIX_FILL_BYTES (UINT64_C(64) << 20)

typedef struct {
    uint64_t runs;
    bool json;
} mix_opts;

MULRED_KEY_COUNT(set_runs, mix_opts, runs, 1, 1000)
MULRED_KEY_FLAG(set_json, mix_opts, json)

static const mulred_key mix_keys[] = {
    {"runs", false, false, false, set_runs},
    {"json", true, false, false, set_json},
};

static void mix_usage(void)
{
    mulred_out("Usage: mulred bench mix [--runs N] [--json]\n"
               "       mulred mix bench [--runs N] [--json]\n"
               "\n"
               "ns and TSC ticks per call for every fast_mix variant, median of N runs\n"
               "(default 10) of 2^20 calls each, in the form of the 2014 perftest, and the\n"
               "generator's output rate per core (mulred_mix_fill, AVX-512 and portable\n"
               "scalar paths).\n");
}

/* The figures of every run: ns[i][r] and ticks[i][r] per call of entry i, gbs[s][r] the
 * generator's GB/s (s = 1: the scalar path); med_* their medians. */
typedef struct {
    size_t n;
    uint64_t runs;
    double *ns, *ticks, *gbs, *med_ns, *med_ticks, med_gbs[2];
} mix_figures;

static void mix_figures_free(mix_figures *f)
{
    free(f->ns), free(f->ticks), free(f->gbs), free(f->med_ns), free(f->med_ticks);
}

/* Times every entry and the generator runs times; false when out of memory. */
static bool mix_measure(mix_figures *f, size_t n, uint64_t runs)
{
    *f = (mix_figures){.n = n, .runs = runs};
    f->ns = calloc(n * runs, sizeof *f->ns), f->ticks = calloc(n * runs, sizeof *f->ticks);
    f->gbs = calloc(2 * runs, sizeof *f->gbs);
    f->med_ns = calloc(n, sizeof *f->med_ns), f->med_ticks = calloc(n, sizeof *f->med_ticks);
    double *scratch = calloc(runs, sizeof *scratch);
    if (!f->ns || !f->ticks || !f->gbs || !f->med_ns || !f->med_ticks || !scratch) {
        free(scratch);
        mix_figures_free(f);
        return false;
    }
    for (size_t i = 0; i < n; i++) mix_bench_run(i, MIX_CALLS / 8); /* warm up, settle clocks */
    /* Runs interleave the variants so that a slow phase of the shared machine hits all. */
    for (uint64_t r = 0; r < runs; r++) {
        for (size_t i = 0; i < n; i++) {
            const mix_bench_time t = mix_bench_run(i, MIX_CALLS);
            f->ns[i * runs + r] = t.seconds * 1e9 / MIX_CALLS;
            f->ticks[i * runs + r] = t.ticks / MIX_CALLS;
        }
        for (int scalar = 0; scalar < 2; scalar++) {
            const mix_bench_time t = mix_bench_fill(MIX_FILL_BYTES, scalar);
            f->gbs[scalar * runs + r] = (double)MIX_FILL_BYTES / t.seconds / 1e9;
        }
    }
    /* the medians, of copies: mulred_median sorts, and the runs are written in order */
    for (size_t i = 0; i < n; i++) {
        memcpy(scratch, f->ns + i * runs, runs * sizeof *scratch);
        f->med_ns[i] = mulred_median(scratch, runs);
        memcpy(scratch, f->ticks + i * runs, runs * sizeof *scratch);
        f->med_ticks[i] = mulred_median(scratch, runs);
    }
    for (int scalar = 0; scalar < 2; scalar++) {
        memcpy(scratch, f->gbs + scalar * runs, runs * sizeof *scratch);
        f->med_gbs[scalar] = mulred_median(scratch, runs);
    }
    free(scratch);
    return true;
}

static const bench_column mix_run_columns[] = {
    {"runs", "runs", NULL, BENCH_INT, 0},
    {"calls_per_run", "calls per run", NULL, BENCH_INT, 0},
};
/* The perftest form (printed only): fast_mix is linux316, fast_mix2 fastmix2_64 at 3 rounds. */
static const bench_column mix_perftest_columns[] = {
    {NULL, "run", NULL, BENCH_INT, 0},
    {NULL, "fast_mix ns", "%.2f", BENCH_REAL, 0},
    {NULL, "fast_mix2 ns", "%.2f", BENCH_REAL, 0},
    {NULL, "fast_mix2/2 ns", "%.2f", BENCH_REAL, 0},
};
static const bench_column mix_variant_columns[] = {
    {"name", "variant", NULL, BENCH_TEXT, 0},
    {"variant", NULL, NULL, BENCH_TEXT, 0},
    {"rounds", "rounds", NULL, BENCH_INT, 0},
    {"ns_per_call", "ns/call", "%.2f", BENCH_REAL, 0},
    {"ticks_per_call", "ticks/call", "%.1f", BENCH_REAL, 0},
    {"ns_per_call_runs", NULL, "%.2f", BENCH_REALS, 0},
};
static const bench_column mix_generator_columns[] = {
    {"rounds", "rounds", NULL, BENCH_INT, 0},
    {"bytes_per_run", "MiB per run", "%.0f", BENCH_INT, 1.0 / (1 << 20)},
    {"gb_per_s", "GB/s per core", "%.2f", BENCH_REAL, 0},
    {"gb_per_s_scalar", "scalar path GB/s", "%.2f", BENCH_REAL, 0},
    {"avx512", "AVX-512 path", NULL, BENCH_BOOL, 0},
};

/* The index of the entry labelled label (0 when there is none). */
static size_t mix_entry(const mix_bench_entry *e, size_t n, const char *label)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].label, label) == 0) return i;
    return 0;
}

static void mix_print(const mix_opts *o, const mix_figures *f)
{
    const mix_bench_entry *e;
    const size_t n = mix_bench_entries(&e), runs = f->runs;
    mulred_json_writer w, *jw = o->json ? &w : NULL;
    if (jw) {
        mulred_jw_init(jw, stdout);
        mulred_jw_object_begin(jw, NULL);
    } else
        mulred_out(
            "fast_mix family: ns per call (thread CPU time); TSC ticks are wall-clock based\n"
            "(they include any time the process was descheduled)\n\n");
    bench_table t;
    bench_table_begin(&t, jw, NULL, mix_run_columns, BENCH_NCOLS(mix_run_columns));
    BENCH_ROW(&t, BENCH_I(runs), BENCH_I(MIX_CALLS));
    bench_table_end(&t);
    if (!jw) {
        const size_t col[3] = {mix_entry(e, n, "linux316"), mix_entry(e, n, "fastmix2_64/3"),
                               mix_entry(e, n, "fastmix2_64/2")};
        mulred_out(
            "\nperftest form: fast_mix is linux316 (2 rounds), fast_mix2 is fastmix2_64 at 3\n"
            "and 2 rounds\n\n");
        bench_table_begin(&t, NULL, NULL, mix_perftest_columns, BENCH_NCOLS(mix_perftest_columns));
        for (size_t r = 0; r < runs; r++)
            BENCH_ROW(&t, BENCH_I(r + 1), BENCH_R(f->ns[col[0] * runs + r]),
                      BENCH_R(f->ns[col[1] * runs + r]), BENCH_R(f->ns[col[2] * runs + r]));
        bench_table_end(&t);
        mulred_out("\nmedian of %zu runs\n\n", runs);
    }
    bench_table_begin(&t, jw, "variants", mix_variant_columns, BENCH_NCOLS(mix_variant_columns));
    for (size_t i = 0; i < n; i++)
        BENCH_ROW(&t, BENCH_S(e[i].label), BENCH_S(e[i].variant), BENCH_I(e[i].rounds),
                  BENCH_R(f->med_ns[i]), BENCH_R(f->med_ticks[i]),
                  BENCH_RS(f->ns + i * runs, runs));
    bench_table_end(&t);
    if (jw)
        mulred_jw_object_begin(jw, "generator");
    else
        mulred_out("\ngenerator (mulred_mix_fill, 4 rounds; median)\n\n");
    bench_table_begin(&t, jw, NULL, mix_generator_columns, BENCH_NCOLS(mix_generator_columns));
    BENCH_ROW(&t, BENCH_I(4), BENCH_I(MIX_FILL_BYTES), BENCH_R(f->med_gbs[0]),
              BENCH_R(f->med_gbs[1]), BENCH_I(mulred_cpu()->avx512f));
    bench_table_end(&t);
    if (jw) {
        mulred_jw_object_end(jw);
        mulred_jw_object_end(jw);
        mulred_jw_finish(jw);
    }
}

mulred_exit mulred_bench_mix(int argc, char **argv)
{
    /* `mulred mix bench` gives argv[0] "bench", `mulred bench mix` "mix" */
    const char *what = argc > 0 && strcmp(argv[0], "bench") == 0 ? "mix bench" : "bench mix";
    mix_opts o = {.runs = 10};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    const bool run =
        bench_options_as(what, &(const mulred_key_table){mix_keys, BENCH_NCOLS(mix_keys), &o}, argc,
                         argv, mix_usage, &p, &rc);
    mulred_key_parser_free(&p);
    if (!run) return rc;
    const mix_bench_entry *e;
    mix_figures f;
    if (!mix_measure(&f, mix_bench_entries(&e), o.runs)) {
        if (mulred_out_is_root()) fprintf(stderr, "mulred %s: out of memory\n", what);
        return MULRED_ERUNTIME;
    }
    if (mulred_out_is_root()) mix_print(&o, &f);
    mix_figures_free(&f);
    return MULRED_OK;
}

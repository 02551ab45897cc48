/* mulred bench bases: what a prepared base set (mulred/bases.h) costs and saves, per curve,
 * group and size, in one run:
 *   prepare   decoding and validating the encoded points once (mulred_bases_make, T threads);
 *   save/load the trusted cache of the set without a table (write; read + SHA-256 + checks);
 *   plain     the engine's MSM of the same n over the same points (msm_windows_var: recoding
 *             and the tiles, what `mulred msm`'s msm phase runs), 1 thread;
 *   bases     an MSM over the set with 32-byte big-endian scalars (conversion included);
 *   level L   the set with a table of at most L rows: its window width c and GLV, its build time,
 *             its memory (over the points' and in bytes),
 *             the MSM (the table forced on) and the load time of its cache;
 *   k vectors mulred_bases_msm_many of k vectors against k calls of mulred_bases_msm, both with
 *             T threads (k >= T: the vectors side by side, one thread each).
 * The one-thread MSM timings are the calling thread's CPU time, medians over rounds in which the
 * variants take turns (the machine is shared: ratios within a round are what to compare). blst's
 * fixed-base MSM (blst_p1s_mult_wbits) is not in the build: its column is skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "mulred/mulred.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

#define BB_MAX_REPS   32
#define BB_MAX_LEVELS 4

typedef struct {
    int min_log, max_log, reps, threads, k, nlevels;
    bool json;
    unsigned levels[BB_MAX_LEVELS];
    int groups; /* bit 0: g1, bit 1: g2 */
    const char *dir;
} bb_opts;

typedef struct {
    mulred_curve c;
    size_t n;
    double prepare_s, save_s, load_s, plain_s, bases_s, many_s, single_s;
    unsigned level[BB_MAX_LEVELS], window_bits[BB_MAX_LEVELS], glv[BB_MAX_LEVELS];
    size_t table_bytes[BB_MAX_LEVELS];
    double build_s[BB_MAX_LEVELS], table_s[BB_MAX_LEVELS], table_load_s[BB_MAX_LEVELS];
} bb_row;

/* Encoded points, their affine form and scalars (big-endian records and limbs) of a synthetic
 * set. */
typedef struct {
    uint8_t *enc, *be;
    void *aff;
    mulred_scalar256 *s;
} bb_input;

static int bb_input_make(bb_input *in, mulred_curve c, size_t n, int threads)
{
    const size_t A = mulred_msm_affine_bytes(c),
                 B = mulred_point_encoding_bytes(c, MULRED_POINTS_EVM);
    in->aff = mulred_alloc_large(n * A);
    in->s = mulred_alloc_large(n * sizeof *in->s);
    in->enc = malloc(n * B);
    in->be = malloc(n * 32);
    mulred_error err;
    if (!in->aff || !in->s || !in->enc || !in->be ||
        mulred_msm_synth(in->aff, in->s, c, 7, 0, n, threads, &err) != MULRED_OK)
        return -1;
    /* the encodings through a one-point set's encoder: a pair file's records minus scalars */
    uint8_t *rec = malloc((B + 32) * n);
    if (!rec) return -1;
    mulred_msm_encode_pairs(rec, in->aff, in->s, n, c);
    for (size_t i = 0; i < n; i++) {
        memcpy(in->enc + i * B, rec + i * (B + 32), B);
        memcpy(in->be + i * 32, rec + i * (B + 32) + B, 32);
    }
    free(rec);
    return 0;
}

static void bb_input_free(bb_input *in)
{
    free(in->aff), free(in->s), free(in->enc), free(in->be);
}

/* Thread CPU seconds of one plain MSM, one MSM over b (table per use), with 1 thread. */
static double bb_plain(mulred_curve c, const bb_input *in, size_t n)
{
    mulred_msm_plan plan;
    mulred_g2_381_jacobian r;
    mulred_error err;
    mulred_msm_curve_plan(c, &plan, n, NULL);
    const double t0 = mulred_thread_cputime();
    mulred_msm_curve_windows(c, &r, &plan, 0, plan.windows, in->aff, in->s, n, 1, &err);
    return mulred_thread_cputime() - t0;
}

static double bb_bases(const mulred_bases *b, const bb_input *in, size_t n)
{
    mulred_g2_381_jacobian r;
    mulred_error err;
    const double t0 = mulred_thread_cputime();
    mulred_bases_msm(&r, b, in->be, MULRED_SCALARS_BE32, n, 1, &err);
    return mulred_thread_cputime() - t0;
}

/* Saves b, loads it back: the seconds of each (negative on failure). */
static void bb_cache(const mulred_bases *b, const char *path, double *save_s, double *load_s)
{
    mulred_error err;
    mulred_bases *l = NULL;
    double t0 = mulred_wtime();
    *save_s = mulred_bases_save(b, path, &err) == MULRED_OK ? mulred_wtime() - t0 : -1;
    t0 = mulred_wtime();
    *load_s = mulred_bases_load(&l, path, -1, &err) == MULRED_OK ? mulred_wtime() - t0 : -1;
    mulred_bases_free(l);
    unlink(path);
}

/* k vectors: one mulred_bases_msm_many against k mulred_bases_msm, T threads; medians. */
static void bb_many(bb_row *row, const mulred_bases *b, const bb_input *in, const bb_opts *o)
{
    const void **v = malloc((size_t)o->k * sizeof *v);
    uint8_t *r = malloc((size_t)o->k * 288);
    double many[BB_MAX_REPS], single[BB_MAX_REPS];
    mulred_error err;
    for (int j = 0; j < o->k; j++) v[j] = in->be; /* the same vector: the same work each */
    for (int rep = 0; rep < o->reps; rep++) {
        double t0 = mulred_wtime();
        mulred_bases_msm_many(r, b, v, (size_t)o->k, MULRED_SCALARS_BE32, row->n, o->threads, &err);
        many[rep] = mulred_wtime() - t0;
        t0 = mulred_wtime();
        for (int j = 0; j < o->k; j++)
            mulred_bases_msm(r, b, v[j], MULRED_SCALARS_BE32, row->n, o->threads, &err);
        single[rep] = mulred_wtime() - t0;
    }
    row->many_s = mulred_median(many, (size_t)o->reps);
    row->single_s = mulred_median(single, (size_t)o->reps);
    free(v), free(r);
}

/* One row: prepare, cache, plain and bases MSMs, each level, k vectors. */
static int bb_measure(bb_row *row, mulred_curve c, size_t n, const bb_opts *o)
{
    memset(row, 0, sizeof *row);
    row->c = c, row->n = n;
    bb_input in;
    mulred_error err;
    if (bb_input_make(&in, c, n, o->threads)) return -1;
    const size_t B = mulred_point_encoding_bytes(c, MULRED_POINTS_EVM);
    mulred_bases *b = NULL;
    double t0 = mulred_wtime();
    if (mulred_bases_make(&b, c, MULRED_POINTS_EVM, in.enc, n * B, "bench", o->threads, &err)) {
        bb_input_free(&in);
        return -1;
    }
    row->prepare_s = mulred_wtime() - t0;
    char path[4200];
    snprintf(path, sizeof path, "%s/mulred-bench-bases.%ld", o->dir, (long)getpid());
    bb_cache(b, path, &row->save_s, &row->load_s);
    double plain[BB_MAX_REPS], bases[BB_MAX_REPS], table[BB_MAX_LEVELS][BB_MAX_REPS];
    mulred_bases *t[BB_MAX_LEVELS] = {0};
    for (int l = 0; l < o->nlevels; l++) {
        if (mulred_bases_from_affine(&t[l], c, in.aff, n, "bench", o->threads, &err)) return -1;
        t0 = mulred_wtime();
        mulred_bases_precompute(t[l], o->levels[l], 0, o->threads, &err);
        row->build_s[l] = mulred_wtime() - t0;
        row->level[l] = mulred_bases_level(t[l]);
        mulred_msm_plan plan;
        if (mulred_bases_table_plan(t[l], &plan))
            row->window_bits[l] = plan.window_bits, row->glv[l] = plan.glv;
        row->table_bytes[l] = (size_t)row->level[l] * n * mulred_msm_affine_bytes(c);
        mulred_bases_set_table_use(t[l], 1);
        double save_s;
        bb_cache(t[l], path, &save_s, &row->table_load_s[l]);
    }
    for (int rep = 0; rep < o->reps; rep++) { /* the variants take turns */
        plain[rep] = bb_plain(c, &in, n);
        bases[rep] = bb_bases(b, &in, n);
        for (int l = 0; l < o->nlevels; l++) table[l][rep] = bb_bases(t[l], &in, n);
    }
    row->plain_s = mulred_median(plain, (size_t)o->reps);
    row->bases_s = mulred_median(bases, (size_t)o->reps);
    for (int l = 0; l < o->nlevels; l++) {
        row->table_s[l] = mulred_median(table[l], (size_t)o->reps);
        mulred_bases_free(t[l]);
    }
    bb_many(row, b, &in, o);
    mulred_bases_free(b);
    bb_input_free(&in);
    return 0;
}

/* A measurement: the set, its cache and MSMs, k vectors, then its levels nested in it. */
static const bench_column bb_columns[] = {
    {"curve", "curve", NULL, BENCH_TEXT, 0},
    {"group", "group", NULL, BENCH_TEXT, 0},
    {"points", "points", NULL, BENCH_INT, 0},
    {"prepare_seconds", "prepare s", "%.3f", BENCH_REAL, 0},
    {"save_seconds", NULL, NULL, BENCH_REAL, 0},
    {"load_seconds", "load s", "%.4f", BENCH_REAL, 0},
    {NULL, "load / prepare", "%.3f", BENCH_REAL, 0},
    {"plain_msm_seconds", "plain ms", "%.2f", BENCH_REAL, 1e3},
    {"bases_msm_seconds", "bases ms", "%.2f", BENCH_REAL, 1e3},
    {NULL, "bases / plain", "%.3f", BENCH_REAL, 0},
    {"k", "k", NULL, BENCH_INT, 0},
    {"threads", "threads", NULL, BENCH_INT, 0},
    {"many_seconds", "msm_many ms", "%.2f", BENCH_REAL, 1e3},
    {"k_single_seconds", "k calls ms", "%.2f", BENCH_REAL, 1e3},
    {NULL, "many / k calls", "%.3f", BENCH_REAL, 0},
    {"blst_fixed_base", NULL, NULL, BENCH_TEXT, 0},
};
static const bench_column bb_level_columns[] = {
    {"asked", "level", NULL, BENCH_INT, 0},
    {"rows", "rows", NULL, BENCH_INT, 0},
    {"window_bits", "c", NULL, BENCH_INT, 0},
    {"glv", "GLV", NULL, BENCH_INT, 0},
    {"memory_over_points", "memory / points", "%.1f", BENCH_REAL, 0}, /* the rows: n points each */
    {"table_bytes", "table MiB", "%.1f", BENCH_REAL, 1.0 / (1 << 20)},
    {"build_seconds", "build s", "%.2f", BENCH_REAL, 0},
    {"load_seconds", "load s", "%.4f", BENCH_REAL, 0},
    {NULL, "load / (prepare + build)", "%.3f", BENCH_REAL, 0},
    {"msm_seconds", "msm ms", "%.2f", BENCH_REAL, 1e3},
    {NULL, "msm / plain", "%.3f", BENCH_REAL, 0},
};

static void bb_row_print(bench_table *t, const bb_row *r, const bb_opts *o)
{
    BENCH_ROW_OPEN(t, BENCH_S(mulred_curve_name(r->c)),
                   BENCH_S(mulred_pairing_group_name(mulred_curve_group(r->c))), BENCH_I(r->n),
                   BENCH_R(r->prepare_s), BENCH_R(r->save_s), BENCH_R(r->load_s),
                   BENCH_R(r->load_s / r->prepare_s), BENCH_R(r->plain_s), BENCH_R(r->bases_s),
                   BENCH_R(r->bases_s / r->plain_s), BENCH_I(o->k), BENCH_I(o->threads),
                   BENCH_R(r->many_s), BENCH_R(r->single_s), BENCH_R(r->many_s / r->single_s),
                   BENCH_S("skipped: blst is not in the build"));
    bench_table levels;
    bench_table_begin(&levels, t->w, "levels", bb_level_columns, BENCH_NCOLS(bb_level_columns));
    for (int l = 0; l < o->nlevels; l++)
        BENCH_ROW(&levels, BENCH_I(o->levels[l]), BENCH_I(r->level[l]), BENCH_I(r->window_bits[l]),
                  BENCH_I(r->glv[l]), BENCH_R(r->level[l]), BENCH_R((double)r->table_bytes[l]),
                  BENCH_R(r->build_s[l]), BENCH_R(r->table_load_s[l]),
                  BENCH_R(r->table_load_s[l] / (r->prepare_s + r->build_s[l])),
                  BENCH_R(r->table_s[l]), BENCH_R(r->table_s[l] / r->plain_s));
    bench_table_end(&levels);
    bench_table_row_close(t);
}

static void bb_usage(void)
{
    mulred_out("Usage: mulred bench bases [--min L] [--max L] [--group g1|g2|all] [--levels A,B]\n"
               "                          [--k K] [--threads T] [--reps R] [--dir DIR] [--json]\n"
               "\n"
               "Base sets at 2^L points, L from --min to --max (default 12..16), both curves:\n"
               "prepare (decode + validate, T threads), cache save/load, the plain MSM of the\n"
               "same n against an MSM over the set (1 thread), each precomputation level (default\n"
               "16; its build, memory, cache load and MSM), and K vectors (default 4) in one call\n"
               "against K single calls with T threads (default 2). Medians of R rounds (default\n"
               "5) in which the variants take turns. blst's fixed-base MSM: skipped (not in the\n"
               "build).\n");
}

static int set_group(void *v, const char *value, mulred_key_parser *p, char *why, size_t cap)
{
    bb_opts *o = v;
    o->groups = !strcmp(value, "g1") ? 1 : !strcmp(value, "g2") ? 2 : !strcmp(value, "all") ? 3 : 0;
    return o->groups ? MULRED_OK : mulred_key_bad_value(p, value, "g1, g2 or all", why, cap);
}

/* A comma-separated list of up to BB_MAX_LEVELS levels (0, or 2 .. MULRED_BASES_LEVEL_MAX). */
static mulred_exit set_levels(void *v, const char *value, mulred_key_parser *p, char *why,
                              size_t cap)
{
    bb_opts *o = v;
    o->nlevels = 0;
    for (const char *s = value; *s && o->nlevels < BB_MAX_LEVELS;) {
        char *e;
        const unsigned long l = strtoul(s, &e, 10);
        if (e == s || l == 1 || l > MULRED_BASES_LEVEL_MAX || (*e && *e != ','))
            return mulred_key_bad_value(
                p, value, "levels (0, or 2 to 64) separated by commas: 0,16", why, cap);
        o->levels[o->nlevels++] = (unsigned)l;
        s = *e ? e + 1 : e;
    }
    return MULRED_OK;
}
MULRED_KEY_COUNT(set_min, bb_opts, min_log, 0, 4096)
MULRED_KEY_COUNT(set_max, bb_opts, max_log, 0, 4096)
MULRED_KEY_COUNT(set_k, bb_opts, k, 0, 4096)
MULRED_KEY_COUNT(set_threads, bb_opts, threads, 0, 4096)
MULRED_KEY_COUNT(set_reps, bb_opts, reps, 0, 4096)
MULRED_KEY_TEXT(set_dir, bb_opts, dir)
MULRED_KEY_FLAG(set_json, bb_opts, json)

static const mulred_key bb_keys[] = {
    {"min", false, false, false, set_min},     {"max", false, false, false, set_max},
    {"group", false, false, false, set_group}, {"levels", false, false, false, set_levels},
    {"k", false, false, false, set_k},         {"threads", false, false, false, set_threads},
    {"reps", false, false, false, set_reps},   {"dir", false, false, false, set_dir},
    {"json", true, false, false, set_json},
};

/* Returns 0 to run, -1 after --help, or the usage error's status. */
static int bb_parse(bb_opts *o, int argc, char **argv, mulred_key_parser *p)
{
    *o =
        (bb_opts){12, 16, 5, 2, 4, 1, false, {16}, 3, getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"};
    int rc = MULRED_OK;
    if (!bench_options("bases",
                       &(const mulred_key_table){bb_keys, sizeof bb_keys / sizeof bb_keys[0], o},
                       argc, argv, bb_usage, p, &rc))
        return rc == MULRED_OK ? -1 : rc;
    if (o->min_log < 1 || o->max_log > 24 || o->min_log > o->max_log || o->reps < 1 ||
        o->reps > BB_MAX_REPS || o->threads < 1 || o->k < 1)
        return mulred_out_usage_error("bench bases", "bad sizes, rounds, threads or k");
    return 0;
}

mulred_exit mulred_bench_bases(int argc, char **argv)
{
    bb_opts o;
    mulred_key_parser kp = {0};
    const int p = bb_parse(&o, argc, argv, &kp);
    if (p) {
        mulred_key_parser_free(&kp);
        return p < 0 ? MULRED_OK : p;
    }
    mulred_threads_start(o.threads);
    mulred_json_writer w;
    if (o.json)
        mulred_jw_init(&w, stdout);
    else
        mulred_out(
            "base sets: 1-thread MSMs (thread CPU time, medians of %d rounds), prepare and k "
            "vectors with %d threads (wall time); blst's fixed-base MSM skipped (not in the "
            "build)\n\n",
            o.reps, o.threads);
    bench_table t;
    bench_table_begin(&t, o.json ? &w : NULL, "", bb_columns, BENCH_NCOLS(bb_columns));
    static const mulred_curve curves[4] = {MULRED_CURVE_BLS12_381, MULRED_CURVE_BN254,
                                           MULRED_CURVE_BLS12_381_G2, MULRED_CURVE_BN254_G2};
    for (int ci = 0; ci < 4; ci++) {
        if (!(o.groups & (ci < 2 ? 1 : 2))) continue;
        for (int l = o.min_log; l <= o.max_log; l++) {
            bb_row row;
            if (bb_measure(&row, curves[ci], (size_t)1 << l, &o)) {
                fprintf(stderr, "mulred bench bases: %s 2^%d failed\n",
                        mulred_curve_name(curves[ci]), l);
                mulred_key_parser_free(&kp);
                return MULRED_ERUNTIME;
            }
            bb_row_print(&t, &row, &o);
            fflush(stdout);
        }
    }
    bench_table_end(&t);
    if (o.json) fputc('\n', stdout);
    mulred_key_parser_free(&kp);
    return MULRED_OK;
}

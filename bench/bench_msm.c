/* mulred bench msm: multi-scalar multiplication on BLS12-381 and BN254, G1 and G2.
 *
 * Rows for n = 2^min … 2^max (default 2^10 … 2^20, --max up to 2^22) on both curves, G1 and G2
 * (--group): the plan (c, windows, GLV, bucket form), one thread (median wall and thread-CPU ms,
 * ns per point), two threads (median wall) and the speedup as the median of per-round ratios
 * (1- and 2-thread runs alternate, so load changes hit both), the ceiling of that speedup on
 * this machine (two one-thread MSMs side by side against one alone, bench_msm_threads.c: on a
 * shared VM two vCPUs may give far less than twice one) and the speedup's share of it, the
 * row's peak RSS (the high-water mark reset after the inputs are made). Then, from one run with
 * the variants interleaved at 2^16 (thread CPU time, serial), what each technique is worth:
 * collision-queue depth, window width ±1, the 8-lane kernels, GLV, batch-affine buckets, and
 * (KZG) the precomputed tables, as ratios to the default plan. Then the KZG commitment:
 * building the table, loading it from its cache, one commitment.
 * --anchors CMD runs CMD --quick (the blst / c-kzg baseline) in the same run and prints the
 * ratios to it. --model sweeps every window width and GLV choice against the cost model.
 *
 * Every result is checked before it is timed: the 1- and 2-thread results and every variant
 * must be the same point (and a small instance the sum of the curve layer's scalar
 * multiplications). Timings are medians; compare ratios from one run. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "mulred/curve.h"
#include "mulred/kzg.h"
#include "mulred/msm.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

/* ---- both curves behind one table ------------------------------------------------------------ */

typedef struct {
    const char *name, *group;
    size_t aff, jac;
    void (*plan)(mulred_msm_plan *, size_t, const mulred_msm_options *);
    size_t (*scratch_size)(const mulred_msm_plan *, size_t);
    void (*serial)(void *, const mulred_msm_plan *, const void *, const mulred_scalar256 *, size_t,
                   void *);
    int (*msm)(void *, const void *, const mulred_scalar256 *, size_t, const mulred_msm_options *,
               int, mulred_error *);
    void (*points)(void *, size_t, uint64_t seed); /* an arithmetic progression of points */
    int (*same)(const void *, const void *);       /* two Jacobian points are equal */
    void (*naive)(void *, const void *, const mulred_scalar256 *, size_t); /* Σ mul_var */
} bm_curve;

#define BM_WRAP(G)                                                                                 \
    static void G##_bm_serial(void *r, const mulred_msm_plan *p, const void *pts,                  \
                              const mulred_scalar256 *s, size_t n, void *scr)                      \
    {                                                                                              \
        mulred_##G##_msm_serial_var(r, p, pts, s, n, scr);                                         \
    }                                                                                              \
    static int G##_bm_msm(void *r, const void *pts, const mulred_scalar256 *s, size_t n,           \
                          const mulred_msm_options *o, int t, mulred_error *e)                     \
    {                                                                                              \
        return mulred_##G##_msm_var(r, pts, s, n, o, t, e);                                        \
    }                                                                                              \
    static void G##_bm_points(void *out, size_t n, uint64_t seed)                                  \
    {                                                                                              \
        mulred_##G##_affine g, d, *pa = out;                                                       \
        mulred_##G##_jacobian gj, dj, *j = malloc((n + 1) * sizeof *j);                            \
        void *scr = malloc(mulred_##G##_batch_to_affine_scratch_size(n + 1));                      \
        if (!j || !scr) abort();                                                                   \
        const uint64_t k0[4] = {seed * 0x9e3779b97f4a7c15u + 1, seed, 7, 3};                       \
        const uint64_t kd[4] = {0x2545f4914f6cdd1du ^ seed, 0x94d049bb133111ebu, 11, 1};           \
        mulred_##G##_generator(&g);                                                                \
        mulred_##G##_jacobian_from_affine(&gj, &g);                                                \
        mulred_##G##_jacobian_mul_var(&j[0], &gj, k0);                                             \
        mulred_##G##_jacobian_mul_var(&dj, &gj, kd);                                               \
        mulred_##G##_jacobian_to_affine(&d, &dj);                                                  \
        for (size_t i = 1; i < n; i++) mulred_##G##_jacobian_add_affine(&j[i], &j[i - 1], &d);     \
        mulred_##G##_jacobian_batch_to_affine_var(pa, j, n, scr);                                  \
        free(j), free(scr);                                                                        \
    }                                                                                              \
    static int G##_bm_same(const void *a, const void *b)                                           \
    {                                                                                              \
        return mulred_##G##_jacobian_equal(a, b);                                                  \
    }                                                                                              \
    static void G##_bm_naive(void *r, const void *pts, const mulred_scalar256 *s, size_t n)        \
    {                                                                                              \
        const mulred_##G##_affine *pa = pts;                                                       \
        mulred_##G##_jacobian acc, t;                                                              \
        mulred_##G##_jacobian_set_infinity(&acc);                                                  \
        for (size_t i = 0; i < n; i++) {                                                           \
            mulred_##G##_jacobian_from_affine(&t, &pa[i]);                                         \
            mulred_##G##_jacobian_mul_var(&t, &t, s[i].l);                                         \
            mulred_##G##_jacobian_add(&acc, &acc, &t);                                             \
        }                                                                                          \
        *(mulred_##G##_jacobian *)r = acc;                                                         \
    }

BM_WRAP(g1_381)
BM_WRAP(g1_254)
BM_WRAP(g2_381)
BM_WRAP(g2_254)

#define BM_CURVE(G, NAME, GROUP)                                                                   \
    {                                                                                              \
        NAME, GROUP, sizeof(mulred_##G##_affine), sizeof(mulred_##G##_jacobian),                   \
            mulred_##G##_msm_plan, mulred_##G##_msm_scratch_size, G##_bm_serial, G##_bm_msm,       \
            G##_bm_points, G##_bm_same, G##_bm_naive                                               \
    }

/* G1 first, then G2 (the --group option selects 0-1, 2-3 or all) */
enum { NCURVES = 4 };
static const bm_curve curves[NCURVES] = {
    BM_CURVE(g1_381, "bls12-381", "g1"), BM_CURVE(g1_254, "bn254", "g1"),
    BM_CURVE(g2_381, "bls12-381", "g2"), BM_CURVE(g2_254, "bn254", "g2")};

/* Widest window a plan may be forced to (MSM_MAX_WINDOW_BITS of the msm layer). */
#define MSM_BENCH_MAX_C 16

typedef struct {
    uint64_t l[36];
} bm_jac; /* room for the largest Jacobian point (G2 over BLS12-381's Fp2) */

/* ---- helpers -----------------------------------------------------------------------------------
 */

static double bm_cpu(void)
{
    return mulred_thread_cputime();
}

static double median_of(double *v, int n)
{
    return mulred_median(v, (size_t)n);
}

static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, mulred_cmp_double);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* Peak resident set of a stretch of the run: rss_mark() resets the kernel's high-water mark to
 * the current resident set (clear_refs 5, Linux 4.0 on), rss_peak_kb() reads it back (VmHWM,
 * KiB). Where the reset is refused, the process's peak so far (ru_maxrss) instead, and *scope
 * says which. */
static int rss_mark(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return 0;
    const int ok = fputs("5", f) >= 0;
    return (fclose(f) == 0) & ok;
}

static long rss_peak_kb(int marked)
{
    long kb = -1;
    FILE *f = marked ? fopen("/proc/self/status", "r") : NULL;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "VmHWM: %ld", &kb) == 1) break;
        fclose(f);
    }
    if (kb < 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        kb = ru.ru_maxrss;
    }
    return kb;
}

/* The 1-minute load average (/proc/loadavg), or -1. */
static double load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double l = -1;
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1;
        fclose(f);
    }
    return l;
}

static int cpu_family(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    char line[256];
    int fam = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "cpu family : %d", &fam) == 1) break;
    fclose(f);
    return fam;
}

static void random_scalars(mulred_scalar256 *s, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15u + 0x632be59bd9b4e019u;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 4; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            s[i].l[j] = x;
        }
}

/* One serial MSM with options o; thread CPU seconds; result in r. */
static double time_serial(const bm_curve *C, void *r, const void *pts, const mulred_scalar256 *s,
                          size_t n, const mulred_msm_options *o, mulred_msm_plan *plan_out)
{
    mulred_msm_plan plan;
    C->plan(&plan, n, o);
    void *scratch = malloc(C->scratch_size(&plan, n));
    if (!scratch) abort();
    const double t0 = bm_cpu();
    C->serial(r, &plan, pts, s, n, scratch);
    const double t = bm_cpu() - t0;
    free(scratch);
    if (plan_out) *plan_out = plan;
    return t;
}

/* ---- the size rows ------------------------------------------------------------------------------
 */

typedef struct {
    int curve, log2n;
    mulred_msm_plan plan;
    double wall1, cpu1, wall2, speedup, speedup_p10, speedup_p90;
    double ceiling; /* 2 x one MSM alone / two side by side: what 2 threads can give here */
    long rss_kb;    /* peak RSS of the row (points, scalars, the MSMs' own memory) */
    int rss_row;    /* 1: rss_kb is the row's own peak; 0: the process's peak so far */
} bm_row;

static int run_row(bm_row *row, int ci, int lg, int reps)
{
    const bm_curve *C = &curves[ci];
    const size_t n = (size_t)1 << lg;
    void *pts = malloc(n * C->aff);
    mulred_scalar256 *s = malloc(n * sizeof *s);
    if (!pts || !s) return MULRED_ERUNTIME;
    C->points(pts, n, (uint64_t)lg);
    random_scalars(s, n, (uint64_t)lg + 100 * (uint64_t)ci);
    row->rss_row = rss_mark(); /* from here: the inputs and what the MSMs allocate */
    bm_jac r1, r2;
    mulred_error err;
    C->plan(&row->plan, n, NULL);
    /* check first: 1 and 2 threads agree (and, for 2^10, with the naive sum) */
    if (C->msm(&r1, pts, s, n, NULL, 1, &err) || C->msm(&r2, pts, s, n, NULL, 2, &err) ||
        !C->same(&r1, &r2)) {
        fprintf(stderr, "mulred bench msm: %s 2^%d: 1 and 2 threads disagree\n", C->name, lg);
        return MULRED_ERUNTIME;
    }
    if (lg <= 10) {
        bm_jac nv;
        C->naive(&nv, pts, s, n);
        if (!C->same(&r1, &nv)) {
            fprintf(stderr, "mulred bench msm: %s 2^%d: differs from the naive sum\n", C->name, lg);
            return MULRED_ERUNTIME;
        }
    }
    double *w1 = malloc((size_t)reps * sizeof *w1), *c1 = malloc((size_t)reps * sizeof *c1),
           *w2 = malloc((size_t)reps * sizeof *w2), *q = malloc((size_t)reps * sizeof *q),
           *cl = malloc((size_t)reps * sizeof *cl);
    bm_jac rp[2];
    void *rpp[2] = {&rp[0], &rp[1]};
    void *sc[2] = {malloc(C->scratch_size(&row->plan, n)), malloc(C->scratch_size(&row->plan, n))};
    if (!w1 || !c1 || !w2 || !q || !cl || !sc[0] || !sc[1]) return MULRED_ERUNTIME;
    for (int k = 0; k < reps; k++) {
        double a = mulred_wtime(), ca = bm_cpu();
        C->msm(&r1, pts, s, n, NULL, 1, &err);
        w1[k] = mulred_wtime() - a, c1[k] = bm_cpu() - ca;
        a = mulred_wtime();
        C->msm(&r2, pts, s, n, NULL, 2, &err);
        w2[k] = mulred_wtime() - a;
        q[k] = w1[k] / w2[k];
        cl[k] = 2 * w1[k] / bench_msm_side_by_side(C->serial, rpp, &row->plan, pts, s, n, sc);
    }
    if (!C->same(&rp[0], &r1) || !C->same(&rp[1], &r1)) {
        fprintf(stderr, "mulred bench msm: %s 2^%d: side-by-side runs disagree\n", C->name, lg);
        return MULRED_ERUNTIME;
    }
    row->ceiling = median_of(cl, reps);
    free(cl), free(sc[0]), free(sc[1]);
    row->curve = ci, row->log2n = lg;
    row->wall1 = median_of(w1, reps), row->cpu1 = median_of(c1, reps);
    row->wall2 = median_of(w2, reps);
    row->speedup_p10 = quantile(q, reps, 0.1), row->speedup_p90 = quantile(q, reps, 0.9);
    row->speedup = median_of(q, reps);
    row->rss_kb = rss_peak_kb(row->rss_row);
    free(w1), free(c1), free(w2), free(q), free(pts), free(s);
    return MULRED_OK;
}

/* ---- what each technique is worth --------------------------------------------------------------
 */

typedef struct {
    const char *name;
    mulred_msm_options opts;
    double cpu, ratio, ratio_p10, ratio_p90; /* median time; median of time / default time */
    mulred_msm_plan plan;
} bm_variant;

/* Interleaved rounds over the variants (variant 0 is the reference). */
static int run_variants(bm_variant *v, int nv, int ci, size_t n, int reps)
{
    const bm_curve *C = &curves[ci];
    void *pts = malloc(n * C->aff);
    mulred_scalar256 *s = malloc(n * sizeof *s);
    double *t = malloc((size_t)nv * reps * sizeof *t), *q = malloc((size_t)reps * sizeof *q);
    if (!pts || !s || !t || !q) return MULRED_ERUNTIME;
    C->points(pts, n, 77);
    random_scalars(s, n, 78);
    bm_jac ref, r;
    for (int k = 0; k < reps; k++)
        for (int i = 0; i < nv; i++) {
            t[i * reps + k] = time_serial(C, &r, pts, s, n, &v[i].opts, &v[i].plan);
            if (i == 0 && k == 0) ref = r;
            if (!C->same(&r, &ref)) {
                fprintf(stderr, "mulred bench msm: variant '%s' gives another result\n", v[i].name);
                return MULRED_ERUNTIME;
            }
        }
    for (int i = 0; i < nv; i++) {
        for (int k = 0; k < reps; k++) q[k] = t[i * reps + k] / t[k];
        v[i].ratio_p10 = quantile(q, reps, 0.1), v[i].ratio_p90 = quantile(q, reps, 0.9);
        v[i].ratio = median_of(q, reps);
        v[i].cpu = median_of(t + i * reps, reps);
    }
    free(pts), free(s), free(t), free(q);
    return MULRED_OK;
}

/* ---- KZG
 * ----------------------------------------------------------------------------------------- */

typedef struct {
    int ok;
    char note[600];
    double build_s, load_s, commit_ms, commit_p10, commit_p90, plain_ms, table_ratio;
    unsigned window_bits, plain_c;
} bm_kzg;

/* The setup's Lagrange points in bit-reversed order (decoded here with the curve layer), for
 * the variable-base comparison. */
static int kzg_points(mulred_g1_381_affine *pts, const char *setup)
{
    char *text = NULL;
    size_t len = 0;
    mulred_error err;
    if (mulred_read_file(setup, &text, &len, MULRED_KZG_SETUP_MAX_BYTES, "a KZG trusted setup",
                         &err))
        return -1;
    const char *p = text;
    for (int l = 0; l < 2 && p; l++) p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    for (unsigned j = 0; j < MULRED_KZG_FIELD_ELEMENTS && p; j++) {
        uint8_t b[48];
        if (mulred_hex_decode(b, p, 48, NULL)) break;
        unsigned i = 0;
        for (int k = 0; k < 12; k++) i |= ((j >> k) & 1u) << (11 - k);
        if (mulred_g1_381_decode_compressed(&pts[i], b, MULRED_G1_SKIP_SUBGROUP_CHECK, NULL)) break;
        p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
        if (j + 1 == MULRED_KZG_FIELD_ELEMENTS) {
            free(text);
            return 0;
        }
    }
    free(text);
    return -1;
}

static void run_kzg(bm_kzg *k, const char *setup, int reps)
{
    memset(k, 0, sizeof *k);
    if (access(setup, R_OK) != 0) {
        snprintf(k->note, sizeof k->note, "%s not readable: KZG skipped (--setup FILE)", setup);
        return;
    }
    char cache[] = "/tmp/mulred-bench-kzg-XXXXXX";
    const int fd = mkstemp(cache);
    if (fd < 0) {
        snprintf(k->note, sizeof k->note, "no temporary file for the cache: KZG skipped");
        return;
    }
    close(fd);
    unlink(cache); /* absent: the first load builds and writes it */
    mulred_kzg_setup *s = NULL;
    mulred_kzg_load_info info;
    mulred_error err;
    double t0 = mulred_wtime();
    if (mulred_kzg_setup_load(&s, setup, cache, &info, &err)) {
        snprintf(k->note, sizeof k->note, "%s", err.message);
        return;
    }
    k->build_s = mulred_wtime() - t0;
    mulred_kzg_setup_free(s);
    t0 = mulred_wtime();
    if (mulred_kzg_setup_load(&s, setup, cache, &info, &err) ||
        info.cache != MULRED_KZG_CACHE_LOADED) {
        snprintf(k->note, sizeof k->note, "cache not reloaded: %s", info.note);
        if (s) mulred_kzg_setup_free(s);
        unlink(cache);
        return;
    }
    k->load_s = mulred_wtime() - t0;
    k->window_bits = info.window_bits;
    unlink(cache);

    static uint8_t blob[MULRED_KZG_BLOB_BYTES];
    mulred_scalar256 *sc = malloc(MULRED_KZG_FIELD_ELEMENTS * sizeof *sc);
    mulred_g1_381_affine *pts = malloc(MULRED_KZG_FIELD_ELEMENTS * sizeof *pts);
    random_scalars(sc, MULRED_KZG_FIELD_ELEMENTS, 4844);
    for (size_t i = 0; i < MULRED_KZG_FIELD_ELEMENTS; i++) {
        sc[i].l[3] &= 0x3fffffffffffffffu; /* below r */
        for (int b = 0; b < 32; b++)
            blob[32 * i + b] = (uint8_t)(sc[i].l[3 - b / 8] >> (56 - 8 * (b % 8)));
    }
    const bool have_pts = pts && kzg_points(pts, setup) == 0;
    double *tc = malloc((size_t)reps * sizeof *tc), *tp = malloc((size_t)reps * sizeof *tp),
           *q = malloc((size_t)reps * sizeof *q);
    uint8_t c[48];
    mulred_g1_381_jacobian plain, viacommit;
    mulred_msm_plan pplan;
    mulred_g1_381_msm_plan(&pplan, MULRED_KZG_FIELD_ELEMENTS, NULL);
    void *scr = malloc(mulred_g1_381_msm_scratch_size(&pplan, MULRED_KZG_FIELD_ELEMENTS));
    k->plain_c = pplan.window_bits;
    for (int r = 0; r < reps; r++) {
        double a = bm_cpu();
        mulred_kzg_blob_to_commitment(c, s, blob, &err);
        tc[r] = bm_cpu() - a;
        if (have_pts) {
            a = bm_cpu();
            mulred_g1_381_msm_serial_var(&plain, &pplan, pts, sc, MULRED_KZG_FIELD_ELEMENTS, scr);
            tp[r] = bm_cpu() - a;
            q[r] = tp[r] / tc[r];
        }
    }
    if (have_pts) { /* the commitment is the plain MSM of the same points and scalars */
        mulred_g1_381_affine a;
        if (mulred_g1_381_decode_compressed(&a, c, 0, NULL) == MULRED_OK) {
            mulred_g1_381_jacobian_from_affine(&viacommit, &a);
            if (!mulred_g1_381_jacobian_equal(&viacommit, &plain))
                snprintf(k->note, sizeof k->note, "commitment differs from the plain MSM");
        }
        k->plain_ms = median_of(tp, reps) * 1e3;
        k->table_ratio = median_of(q, reps);
    }
    k->commit_p10 = quantile(tc, reps, 0.1) * 1e3, k->commit_p90 = quantile(tc, reps, 0.9) * 1e3;
    k->commit_ms = median_of(tc, reps) * 1e3;
    k->ok = k->note[0] == '\0';
    free(tc), free(tp), free(q), free(scr), free(sc), free(pts);
    mulred_kzg_setup_free(s);
}

/* ---- the same-run baseline
 * ------------------------------------------------------------------------ */

typedef struct {
    int ok;
    double blst_ms[20]; /* by log2 n; 0 = not measured */
    double ckzg_ms;
} bm_anchor;

static void run_anchors(bm_anchor *a, const char *cmd)
{
    memset(a, 0, sizeof *a);
    char line[4200];
    snprintf(line, sizeof line, "%s --quick 2>/dev/null", cmd);
    FILE *p = popen(line, "r");
    if (!p) return;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, p)) > 0;) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    pclose(p);
    if (!buf) return;
    json_error_t jerr;
    json_t *v = json_loadb(buf, n, 0, &jerr);
    free(buf);
    if (!v) return;
    const json_t *msm = json_object_get(v, "msm");
    for (size_t i = 0; i < json_array_size(msm); i++) {
        const json_t *item = json_array_get(msm, i);
        const json_t *lgv = json_object_get(item, "log2n"),
                     *ms = json_object_get(item, "median_ms");
        const int lg = json_is_number(lgv) ? (int)json_number_value(lgv) : -1;
        if (lg >= 0 && lg < 20 && json_is_number(ms)) a->blst_ms[lg] = json_number_value(ms);
    }
    const json_t *b = json_object_get(json_object_get(v, "kzg"), "blob_to_kzg_commitment");
    const json_t *bms = json_object_get(b, "median_ms");
    if (json_is_number(bms)) a->ckzg_ms = json_number_value(bms);
    a->ok = a->blst_ms[16] > 0;
    json_decref(v);
}

/* ---- the cost-model sweep
 * --------------------------------------------------------------------------- */

static void run_model(int c0, int c1, int quick, bool json, mulred_json_writer *w)
{
    const int maxlg = quick ? 12 : 16, reps = quick ? 2 : 3;
    if (json) mulred_jw_array_begin(w, "model");
    if (!json)
        mulred_out(
            "\nCost model against measurement (thread CPU ms, min of %d): for each n, the best "
            "measured (c, GLV) and the model's choice\n\n"
            "| curve     | log2 n | best c | GLV | best ms | model c | GLV | its ms | ratio |\n"
            "|-----------|--------|--------|-----|---------|---------|-----|--------|-------|\n",
            reps);
    for (int ci = c0; ci < c1; ci++) {
        const bm_curve *C = &curves[ci];
        for (int lg = 4; lg <= maxlg; lg += 2) {
            const size_t n = (size_t)1 << lg;
            void *pts = malloc(n * C->aff);
            mulred_scalar256 *s = malloc(n * sizeof *s);
            C->points(pts, n, 5);
            random_scalars(s, n, 6);
            mulred_msm_plan auto_plan;
            C->plan(&auto_plan, n, NULL);
            double best = 1e30, at_model = 0;
            int best_c = 0, best_glv = 0;
            for (int glv = -1; glv <= 1; glv += 2)
                for (int c = 2; c <= 16; c++) {
                    if ((lg >= 14 && c < 8) || (lg <= 8 && c > 12)) continue; /* hopeless */
                    mulred_msm_options o = {.window_bits = c, .glv = glv};
                    double t = 1e30;
                    for (int k = 0; k < reps; k++) {
                        bm_jac r;
                        const double x = time_serial(C, &r, pts, s, n, &o, NULL);
                        if (x < t) t = x;
                    }
                    if (t < best) best = t, best_c = c, best_glv = glv > 0;
                    if ((unsigned)c == auto_plan.window_bits && (glv > 0) == auto_plan.glv)
                        at_model = t;
                    if (json) {
                        mulred_jw_object_begin(w, NULL);
                        mulred_jw_string(w, "curve", C->name);
                        mulred_jw_int(w, "log2n", lg);
                        mulred_jw_int(w, "c", c);
                        mulred_jw_bool(w, "glv", glv > 0);
                        mulred_jw_double(w, "ms", t * 1e3);
                        mulred_jw_object_end(w);
                    }
                }
            if (!json)
                mulred_out("| %-9s | %6d | %6d | %3s | %7.2f | %7u | %3s | %6.2f | %5.2f |\n",
                           C->name, lg, best_c, best_glv ? "yes" : "no", best * 1e3,
                           auto_plan.window_bits, auto_plan.glv ? "yes" : "no", at_model * 1e3,
                           at_model / best);
            free(pts), free(s);
        }
    }
    if (json) mulred_jw_array_end(w);
}

/* ---- the command ------------------------------------------------------------------------------
 */

static void usage(void)
{
    mulred_out(
        "Usage: mulred bench msm [--min LOG2] [--max LOG2] [--group g1|g2|all] [--reps R]\n"
        "                        [--worth LOG2] [--setup FILE] [--anchors CMD] [--model]\n"
        "                        [--quick] [--json]\n\n"
        "MSM timings for n = 2^min..2^max (default 10..20, --max up to 22) on BLS12-381 and\n"
        "BN254, G1 and G2 (--group, default all): the plan, 1 and 2 threads and the 2-thread\n"
        "ceiling here (two 1-thread MSMs side by side), ns per point, the row's peak RSS;\n"
        "what the collision queue, the window width, the 8-lane kernels, GLV and the\n"
        "batch-affine buckets are worth at 2^worth (default 16; ratios from one run); the\n"
        "KZG commitment (EIP-4844) with and without its fixed-base tables, from the trusted\n"
        "setup (--setup, default tests/vectors/kzg/trusted_setup.txt; with G1).\n\n"
        "  --anchors CMD  run 'CMD --quick' (blst and c-kzg-4844, JSON on stdout) in the\n"
        "                 same run and print the ratios (e.g. /tmp/anchors/run.sh)\n"
        "  --model        also fit the cost model's constants to a sweep of plans and\n"
        "                 compare its choice with the best measured plan (slow)\n"
        "  --quick        fewer repetitions, up to 2^16 (G2 up to 2^14)\n");
}

/* Repetitions of a size row: fewer for the large sizes and for G2 (3x a G1 MSM). */
static int row_reps_for(int reps, int lg, const bm_curve *C)
{
    if (lg >= 19)
        reps = (reps + 2) / 3;
    else if (lg >= 17)
        reps = (reps + 1) / 2;
    if (C->group[1] == '2' && lg >= 15) reps = (reps + 1) / 2;
    return reps < 1 ? 1 : reps;
}

int mulred_bench_msm(int argc, char **argv)
{
    enum {
        OPT_MIN = 256,
        OPT_MAX,
        OPT_GROUP,
        OPT_REPS,
        OPT_WORTH,
        OPT_SETUP,
        OPT_ANCHORS,
        OPT_MODEL,
        OPT_QUICK,
        OPT_JSON
    };
    static const struct option opts[] = {{"min", required_argument, 0, OPT_MIN},
                                         {"max", required_argument, 0, OPT_MAX},
                                         {"group", required_argument, 0, OPT_GROUP},
                                         {"reps", required_argument, 0, OPT_REPS},
                                         {"worth", required_argument, 0, OPT_WORTH},
                                         {"setup", required_argument, 0, OPT_SETUP},
                                         {"anchors", required_argument, 0, OPT_ANCHORS},
                                         {"model", no_argument, 0, OPT_MODEL},
                                         {"quick", no_argument, 0, OPT_QUICK},
                                         {"json", no_argument, 0, OPT_JSON},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int minlg = 10, maxlg = 20, worthlg = 16, reps = 0, model = 0, quick = 0, json = 0, c;
    int c0 = 0, c1 = NCURVES; /* the curves of --group: curves[c0 .. c1) */
    const char *setup = "tests/vectors/kzg/trusted_setup.txt", *anchors = NULL;
    mulred_out_getopt_reset();
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'h':
            usage();
            return MULRED_OK;
        case OPT_MIN:
        case OPT_MAX:
        case OPT_WORTH:
        case OPT_REPS: {
            const long v = strtol(optarg, &end, 10);
            if (*end || v < (c == OPT_REPS ? 1 : 4) || v > (c == OPT_REPS ? 1000 : 22))
                return mulred_out_usage_error("bench msm", "%s: '%s' out of range",
                                              c == OPT_MIN     ? "--min"
                                              : c == OPT_MAX   ? "--max"
                                              : c == OPT_WORTH ? "--worth"
                                                               : "--reps",
                                              optarg);
            if (c == OPT_MIN) minlg = (int)v;
            if (c == OPT_MAX) maxlg = (int)v;
            if (c == OPT_REPS) reps = (int)v;
            if (c == OPT_WORTH) worthlg = (int)v;
            break;
        }
        case OPT_GROUP:
            if (strcmp(optarg, "g1") == 0)
                c0 = 0, c1 = 2;
            else if (strcmp(optarg, "g2") == 0)
                c0 = 2, c1 = 4;
            else if (strcmp(optarg, "all") == 0)
                c0 = 0, c1 = 4;
            else
                return mulred_out_usage_error("bench msm", "--group: '%s' is not g1, g2 or all",
                                              optarg);
            break;
        case OPT_SETUP:
            setup = optarg;
            break;
        case OPT_ANCHORS:
            anchors = optarg;
            break;
        case OPT_MODEL:
            model = 1;
            break;
        case OPT_QUICK:
            quick = 1;
            break;
        case OPT_JSON:
            json = 1;
            break;
        default:
            return mulred_out_bad_option("bench msm", argc, argv);
        }
    }
    if (optind < argc)
        return mulred_out_usage_error("bench msm", "unexpected argument '%s'", argv[optind]);
    if (quick && maxlg > 16) maxlg = 16;
    if (minlg > maxlg) return mulred_out_usage_error("bench msm", "--min above --max");
    const int row_reps = reps ? reps : quick ? 3 : 7, var_reps = reps ? reps : quick ? 5 : 11;
    const bool with_g1 = c0 == 0;

    const double load0 = load_average();
    const double t_start = mulred_wtime();

    /* rows[ci][i]: curve ci at 2^(minlg + i); have[ci][i] = 0 when skipped (--quick: G2 to
     * 2^14) */
    static bm_row rows[NCURVES][19];
    int have[NCURVES][19] = {{0}};
    const int nrows = maxlg - minlg + 1;
    for (int i = 0; i < nrows; i++)
        for (int ci = c0; ci < c1; ci++) {
            const int lg = minlg + i;
            if (quick && ci >= 2 && lg > 14) continue;
            if (run_row(&rows[ci][i], ci, lg, row_reps_for(row_reps, lg, &curves[ci])))
                return MULRED_ERUNTIME;
            have[ci][i] = 1;
        }

    /* what each technique is worth at 2^worth */
    enum { NV = 9 };
    static bm_variant var[NCURVES][NV];
    int var_n[NCURVES] = {0};
    for (int ci = c0; ci < c1; ci++) {
        const int wlg = quick && ci >= 2 && worthlg > 14 ? 14 : worthlg;
        mulred_msm_plan def;
        curves[ci].plan(&def, (size_t)1 << wlg, NULL);
        const mulred_msm_options base = {.window_bits = (int)def.window_bits,
                                         .glv = def.glv ? 1 : -1};
        bm_variant v[NV] = {
            {"default plan", base, 0, 0, 0, 0, {0}},
            {"collision queue: none", base, 0, 0, 0, 0, {0}},
            {"collision queue: 16", base, 0, 0, 0, 0, {0}},
            {"collision queue: 512", base, 0, 0, 0, 0, {0}},
            {"window one bit narrower", base, 0, 0, 0, 0, {0}},
            {"window one bit wider", base, 0, 0, 0, 0, {0}},
            {"scalar field kernels (no 8-lane)", base, 0, 0, 0, 0, {0}},
            {"GLV switched", base, 0, 0, 0, 0, {0}},
            {"XYZZ buckets (no batch-affine)", base, 0, 0, 0, 0, {0}},
        };
        v[1].opts.queue = -1, v[2].opts.queue = 16, v[3].opts.queue = 512;
        v[4].opts.window_bits = (int)def.window_bits - 1;
        v[5].opts.window_bits = (int)def.window_bits + 1;
        v[6].opts.lanes = MULRED_MSM_LANES_SCALAR;
        v[7].opts.glv = def.glv ? -1 : 1;
        v[8].opts.buckets = MULRED_MSM_BUCKETS_XYZZ;
        int nv = NV;
        if (def.window_bits >= MSM_BENCH_MAX_C) /* no wider window: drop that row */
            memmove(&v[5], &v[6], (NV - 6) * sizeof v[0]), nv--;
        const int vr = ci >= 2 ? (var_reps + 1) / 2 : var_reps;
        if (run_variants(v, nv, ci, (size_t)1 << wlg, vr < 2 ? 2 : vr)) return MULRED_ERUNTIME;
        memcpy(var[ci], v, sizeof v);
        var_n[ci] = nv;
    }

    bm_kzg kzg = {0};
    if (with_g1)
        run_kzg(&kzg, setup, quick ? 11 : 21);
    else
        snprintf(kzg.note, sizeof kzg.note, "skipped (G2 only)");
    bm_anchor anchor = {0};
    if (anchors && with_g1) run_anchors(&anchor, anchors);
    const double load1 = load_average();

    mulred_json_writer w;
    if (json) {
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "cpu", mulred_cpu_describe());
        mulred_jw_int(&w, "cpu_family", cpu_family());
        mulred_jw_string(&w, "field_kernel", mulred_field_kernel_name());
        mulred_jw_double(&w, "load_start", load0);
        mulred_jw_double(&w, "load_end", load1);
        mulred_jw_array_begin(&w, "rows");
        for (int ci = c0; ci < c1; ci++)
            for (int i = 0; i < nrows; i++) {
                if (!have[ci][i]) continue;
                const bm_row *r = &rows[ci][i];
                mulred_jw_object_begin(&w, NULL);
                mulred_jw_string(&w, "curve", curves[ci].name);
                mulred_jw_string(&w, "group", curves[ci].group);
                mulred_jw_int(&w, "log2n", r->log2n);
                mulred_jw_uint(&w, "window_bits", r->plan.window_bits);
                mulred_jw_uint(&w, "windows", r->plan.windows);
                mulred_jw_bool(&w, "glv", r->plan.glv);
                mulred_jw_string(&w, "buckets",
                                 r->plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE ? "affine"
                                                                                  : "xyzz");
                mulred_jw_string(&w, "lanes",
                                 r->plan.lanes == MULRED_MSM_LANES_X8 ? "x8" : "scalar");
                mulred_jw_double(&w, "ms_1_thread", r->wall1 * 1e3);
                mulred_jw_double(&w, "cpu_ms_1_thread", r->cpu1 * 1e3);
                mulred_jw_double(&w, "ns_per_point",
                                 r->cpu1 * 1e9 / (double)((size_t)1 << r->log2n));
                mulred_jw_double(&w, "ms_2_threads", r->wall2 * 1e3);
                mulred_jw_double(&w, "speedup_2_threads", r->speedup);
                mulred_jw_double(&w, "speedup_p10", r->speedup_p10);
                mulred_jw_double(&w, "speedup_p90", r->speedup_p90);
                mulred_jw_double(&w, "speedup_ceiling_2_threads", r->ceiling);
                mulred_jw_double(&w, "of_ceiling", r->speedup / r->ceiling);
                mulred_jw_int(&w, "peak_rss_kb", r->rss_kb);
                mulred_jw_string(&w, "peak_rss_scope", r->rss_row ? "row" : "process");
                mulred_jw_object_end(&w);
            }
        mulred_jw_array_end(&w);
        mulred_jw_int(&w, "worth_log2n", worthlg);
        mulred_jw_array_begin(&w, "worth");
        for (int ci = c0; ci < c1; ci++)
            for (int i = 0; i < var_n[ci]; i++) {
                mulred_jw_object_begin(&w, NULL);
                mulred_jw_string(&w, "curve", curves[ci].name);
                mulred_jw_string(&w, "group", curves[ci].group);
                mulred_jw_string(&w, "variant", var[ci][i].name);
                mulred_jw_uint(&w, "window_bits", var[ci][i].plan.window_bits);
                mulred_jw_bool(&w, "glv", var[ci][i].plan.glv);
                mulred_jw_uint(&w, "queue", var[ci][i].plan.queue);
                mulred_jw_double(&w, "cpu_ms", var[ci][i].cpu * 1e3);
                mulred_jw_double(&w, "ratio_to_default", var[ci][i].ratio);
                mulred_jw_double(&w, "ratio_p10", var[ci][i].ratio_p10);
                mulred_jw_double(&w, "ratio_p90", var[ci][i].ratio_p90);
                mulred_jw_object_end(&w);
            }
        mulred_jw_array_end(&w);
        if (with_g1) {
            mulred_jw_object_begin(&w, "kzg");
            mulred_jw_bool(&w, "ok", kzg.ok);
            if (kzg.note[0]) mulred_jw_string(&w, "note", kzg.note);
            mulred_jw_double(&w, "commit_ms", kzg.commit_ms);
            mulred_jw_double(&w, "commit_p10_ms", kzg.commit_p10);
            mulred_jw_double(&w, "commit_p90_ms", kzg.commit_p90);
            mulred_jw_uint(&w, "table_window_bits", kzg.window_bits);
            mulred_jw_double(&w, "table_build_s", kzg.build_s);
            mulred_jw_double(&w, "table_load_s", kzg.load_s);
            mulred_jw_double(&w, "plain_msm_ms", kzg.plain_ms);
            mulred_jw_double(&w, "plain_over_table", kzg.table_ratio);
            mulred_jw_object_end(&w);
        }
        if (anchor.ok) {
            mulred_jw_object_begin(&w, "anchors");
            mulred_jw_double(&w, "blst_2e16_ms", anchor.blst_ms[16]);
            mulred_jw_double(&w, "ckzg_commit_ms", anchor.ckzg_ms);
            mulred_jw_object_end(&w);
        }
        if (model) run_model(c0, c1, quick, true, &w);
        mulred_jw_double(&w, "seconds", mulred_wtime() - t_start);
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
        return MULRED_OK;
    }

    mulred_out("MSM on %s (cpu family %d: %s; field kernel %s; load %.2f at start, %.2f at "
               "end)\n\n",
               c0 == 0 && c1 == 4 ? "G1 and G2"
               : c0 == 0          ? "G1"
                                  : "G2",
               cpu_family(), mulred_cpu_describe(), mulred_field_kernel_name(), load0, load1);
    mulred_out("| curve        | log2 n | c  | W  | GLV | buckets | 1 thread ms | CPU ms  | "
               "ns/point | 2 threads ms | speedup (p10-p90) | ceiling | of ceiling | peak RSS MB "
               "|\n"
               "|--------------|--------|----|----|-----|---------|-------------|---------|-----"
               "-----|--------------|-------------------|---------|------------|-------------"
               "|\n");
    for (int ci = c0; ci < c1; ci++)
        for (int i = 0; i < nrows; i++) {
            if (!have[ci][i]) continue;
            const bm_row *r = &rows[ci][i];
            mulred_out("| %-9s %s | %6d | %2u | %2u | %3s | %-7s | %11.2f | %7.2f | %8.0f | "
                       "%12.2f | %4.2f (%4.2f-%4.2f)  | %7.2f | %10.2f | %10.1f%s |\n",
                       curves[ci].name, curves[ci].group, r->log2n, r->plan.window_bits,
                       r->plan.windows, r->plan.glv ? "yes" : "no",
                       r->plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE
                           ? (r->plan.lanes == MULRED_MSM_LANES_X8 ? "aff x8" : "affine")
                           : "xyzz",
                       r->wall1 * 1e3, r->cpu1 * 1e3,
                       r->cpu1 * 1e9 / (double)((size_t)1 << r->log2n), r->wall2 * 1e3, r->speedup,
                       r->speedup_p10, r->speedup_p90, r->ceiling, r->speedup / r->ceiling,
                       (double)r->rss_kb / 1024, r->rss_row ? " " : "*");
        }
    int any_process = 0;
    for (int ci = c0; ci < c1; ci++)
        for (int i = 0; i < nrows; i++) any_process |= have[ci][i] && !rows[ci][i].rss_row;
    if (any_process)
        mulred_out("\n* the process's peak so far (this kernel refused to reset the high-water "
                   "mark)\n");
    mulred_out(
        "\nWhat each technique is worth at 2^%d (one thread, thread CPU time, %d interleaved "
        "rounds, G2 %d; ratio = variant / default plan, median and p10-p90 of per-round "
        "ratios)\n\n"
        "| curve        | variant                          | c  | GLV | queue | CPU ms  | ratio "
        "(p10-p90)    |\n"
        "|--------------|----------------------------------|----|-----|-------|---------|-------"
        "-------------|\n",
        worthlg, var_reps, (var_reps + 1) / 2 < 2 ? 2 : (var_reps + 1) / 2);
    for (int ci = c0; ci < c1; ci++)
        for (int i = 0; i < var_n[ci]; i++) {
            const bm_variant *v = &var[ci][i];
            mulred_out("| %-9s %s | %-32s | %2u | %3s | %5u | %7.2f | %5.2f (%4.2f-%4.2f) |\n",
                       curves[ci].name, curves[ci].group, v->name, v->plan.window_bits,
                       v->plan.glv ? "yes" : "no", v->plan.queue, v->cpu * 1e3, v->ratio,
                       v->ratio_p10, v->ratio_p90);
        }
    if (kzg.ok)
        mulred_out("\nKZG commitment (EIP-4844, BLS12-381, 4096 elements, one thread): %.2f ms "
                   "(p10 %.2f, p90 %.2f)\n"
                   "  fixed-base table c = %u: built in %.2f s (decode + tables + cache write), "
                   "loaded from its cache in %.3f s\n"
                   "  the same MSM without tables (variable base, c = %u): %.2f ms, %.2f x the "
                   "commitment\n",
                   kzg.commit_ms, kzg.commit_p10, kzg.commit_p90, kzg.window_bits, kzg.build_s,
                   kzg.load_s, kzg.plain_c, kzg.plain_ms, kzg.table_ratio);
    else
        mulred_out("\nKZG: %s\n", kzg.note);
    if (anchors && anchor.ok) {
        double ours = 0;
        for (int i = 0; i < nrows; i++)
            if (have[0][i] && rows[0][i].log2n == 16) ours = rows[0][i].cpu1 * 1e3;
        mulred_out("\nSame-run baseline (%s --quick): blst 2^16 %.1f ms", anchors,
                   anchor.blst_ms[16]);
        if (ours) mulred_out(" -> mulred / blst = %.2f", ours / anchor.blst_ms[16]);
        if (anchor.ckzg_ms && kzg.ok)
            mulred_out("; c-kzg commitment %.1f ms -> mulred / c-kzg = %.2f", anchor.ckzg_ms,
                       kzg.commit_ms / anchor.ckzg_ms);
        mulred_out("\n");
    } else if (anchors) {
        mulred_out("\nSame-run baseline: '%s --quick' gave no usable JSON\n", anchors);
    }
    if (model) run_model(c0, c1, quick, false, NULL);
    mulred_out("\n(%.0f s)\n", mulred_wtime() - t_start);
    return MULRED_OK;
}

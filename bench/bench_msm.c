/* mulred bench msm: multi-scalar multiplication on BLS12-381 and BN254, G1 and G2.
 *
 * Rows for n = 2^min … 2^max (default 2^10 … 2^20, --max up to 2^22) on both curves, G1 and G2
 * (--group): the plan (c, windows, GLV, bucket form), one thread (median wall and thread-CPU ms,
 * ns per point), two threads (median wall) and the speedup as the median of per-round ratios
 * (1- and 2-thread runs alternate, so load changes hit both), the ceiling of that speedup on
 * this machine (two one-thread MSMs side by side against one alone, bench_msm_threads.c: on a
 * shared VM two vCPUs may give far less than twice one) and the speedup's share of it (per
 * round: the side-by-side pair's wall time against twice the 2-thread run's; the median; "of
 * warm": the same against a pair whose scratch was touched before, a stricter reference), the
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
#include <math.h>
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
#include "output/json_read.h"
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
    void (*cost_constants)(mulred_msm_cost *);
    double (*cost_with)(const mulred_msm_plan *, size_t, const mulred_msm_cost *);
    void (*micro)(mulred_msm_cost *, int x8, double scale);
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
    /* Micro-measured constants of the cost model (ns, thread CPU): a doubling, XYZZ mixed and     \
     * full additions, and batch-affine pairs (batches of 32 and 512 into 4096 buckets in random   \
     * order, so the bucket reads miss as in an MSM): t(m) = inv + m·aff_add. lanes[1] = 0: the   \
     * 8-lane figures are the scalar ones. */                                                      \
    static void G##_bm_micro(mulred_msm_cost *c, int x8, double scale)                             \
    {                                                                                              \
        enum { NB = 4096, NP = 1024 };                                                             \
        mulred_##G##_affine *pt = malloc((NB + NP) * sizeof *pt), *acc = pt;                       \
        mulred_##G##_affine_pair *pr = malloc(512 * sizeof *pr);                                   \
        mulred_##G##_xyzz *xz = malloc(NP * sizeof *xz), xa;                                       \
        uint32_t *perm = malloc(NB * sizeof *perm);                                                \
        void *scr = malloc(mulred_##G##_batch_add_pairs_scratch_size(512));                        \
        if (!pt || !pr || !xz || !perm || !scr) abort();                                           \
        G##_bm_points(pt, NB + NP, 31);                                                            \
        uint64_t x = 0x9e3779b97f4a7c15u;                                                          \
        for (uint32_t i = 0; i < NB; i++) perm[i] = i;                                             \
        for (uint32_t i = NB - 1; i > 0; i--) {                                                    \
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;                                               \
            const uint32_t j = (uint32_t)(x % (i + 1)), t = perm[i];                               \
            perm[i] = perm[j], perm[j] = t;                                                        \
        }                                                                                          \
        const int reps = (int)(20000 * scale) + 100;                                               \
        mulred_##G##_jacobian jd;                                                                  \
        mulred_##G##_jacobian_from_affine(&jd, &pt[0]);                                            \
        double t0 = bm_cpu();                                                                      \
        for (int i = 0; i < reps; i++) mulred_##G##_jacobian_double(&jd, &jd);                     \
        c->dbl = (bm_cpu() - t0) * 1e9 / reps;                                                     \
        for (int i = 0; i < NP; i++) mulred_##G##_xyzz_from_affine(&xz[i], &pt[NB + i]);           \
        mulred_##G##_xyzz_from_affine(&xa, &pt[0]);                                                \
        t0 = bm_cpu();                                                                             \
        for (int i = 0; i < reps; i++) mulred_##G##_xyzz_add_affine(&xa, &xa, &pt[NB + i % NP]);   \
        c->xyzz_add = (bm_cpu() - t0) * 1e9 / reps;                                                \
        t0 = bm_cpu();                                                                             \
        for (int i = 0; i < reps; i++) mulred_##G##_xyzz_add(&xa, &xa, &xz[i % NP]);               \
        c->xyzz_full = (bm_cpu() - t0) * 1e9 / reps;                                               \
        for (int l = 0; l < 2; l++) {                                                              \
            if (l == 1 && !x8) {                                                                   \
                c->aff_add[1] = c->aff_add[0], c->inv[1] = c->inv[0];                              \
                break;                                                                             \
            }                                                                                      \
            double tm[2];                                                                          \
            for (int k = 0; k < 2; k++) {                                                          \
                const size_t m = k ? 512 : 32;                                                     \
                const int nb = (int)(reps * 8 / m) + 4;                                            \
                size_t off = 0;                                                                    \
                t0 = bm_cpu();                                                                     \
                for (int b = 0; b < nb; b++) {                                                     \
                    for (size_t j = 0; j < m; j++, off++)                                          \
                        pr[j] = (mulred_##G##_affine_pair){&acc[perm[off % NB]],                   \
                                                           &pt[NB + off % NP], 0};                 \
                    mulred_##G##_batch_add_pairs_var(                                              \
                        pr, m, l ? MULRED_LANES_X8 : MULRED_LANES_SCALAR, scr);                    \
                }                                                                                  \
                tm[k] = (bm_cpu() - t0) * 1e9 / nb;                                                \
            }                                                                                      \
            c->aff_add[l] = (tm[1] - tm[0]) / (512 - 32);                                          \
            c->inv[l] = tm[0] - 32 * c->aff_add[l];                                                \
            if (c->inv[l] < 0) c->inv[l] = 0;                                                      \
            /* GLV: every other pair through φ, against tm[1] */                                  \
            const int nb = (int)(reps * 8 / 512) + 4;                                              \
            size_t off = 0;                                                                        \
            t0 = bm_cpu();                                                                         \
            for (int b = 0; b < nb; b++) {                                                         \
                for (size_t j = 0; j < 512; j++, off++)                                            \
                    pr[j] = (mulred_##G##_affine_pair){&acc[perm[off % NB]], &pt[NB + off % NP],   \
                                                       (uint32_t)(j & 1) * MULRED_PAIR_ENDO};      \
                mulred_##G##_batch_add_pairs_var(pr, 512,                                          \
                                                 l ? MULRED_LANES_X8 : MULRED_LANES_SCALAR, scr);  \
            }                                                                                      \
            c->glv_pair[l] = ((bm_cpu() - t0) * 1e9 / nb - tm[1]) / 512;                           \
            if (c->glv_pair[l] < 0) c->glv_pair[l] = 0;                                            \
        }                                                                                          \
        if (!x8) c->glv_pair[1] = c->glv_pair[0];                                                  \
        free(pt), free(pr), free(xz), free(perm), free(scr);                                       \
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

static double bm_cpu(void);

BM_WRAP(g1_381)
BM_WRAP(g1_254)
BM_WRAP(g2_381)
BM_WRAP(g2_254)

#define BM_CURVE(G, NAME, GROUP)                                                                   \
    {                                                                                              \
        NAME, GROUP, sizeof(mulred_##G##_affine), sizeof(mulred_##G##_jacobian),                   \
            mulred_##G##_msm_plan, mulred_##G##_msm_scratch_size, G##_bm_serial, G##_bm_msm,       \
            G##_bm_points, G##_bm_same, G##_bm_naive, mulred_##G##_msm_cost_constants,             \
            mulred_##G##_msm_cost_with, G##_bm_micro                                               \
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

static void random_scalars(mulred_scalar256 *s, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15u + 0x632be59bd9b4e019u;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 4; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            s[i].l[j] = x;
        }
}

/* The n points (C->points, seed ps) and scalars (random_scalars, seed ss) of a measurement, on
 * huge pages as mulred's own readers allocate them; false when out of memory. */
static bool bm_inputs(const bm_curve *C, size_t n, uint64_t ps, uint64_t ss, void **pts,
                      mulred_scalar256 **s)
{
    *pts = mulred_alloc_large(n * C->aff);
    *s = mulred_alloc_large(n * sizeof **s);
    if (!*pts || !*s) return false;
    C->points(*pts, n, ps);
    random_scalars(*s, n, ss);
    return true;
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
    double ceiling;    /* 2 x one MSM alone / two side by side: what 2 threads can give here */
    double of_ceiling; /* median over rounds of (two side by side) / (2 x the 2-thread run) */
    double of_warm;    /* the same against the warm pair (scratch touched before) */
    long rss_kb;       /* peak RSS of the row (points, scalars, the MSMs' own memory) */
    int rss_row;       /* 1: rss_kb is the row's own peak; 0: the process's peak so far */
} bm_row;

static int run_row(bm_row *row, int ci, int lg, int reps)
{
    const bm_curve *C = &curves[ci];
    const size_t n = (size_t)1 << lg;
    void *pts;
    mulred_scalar256 *s;
    if (!bm_inputs(C, n, (uint64_t)lg, (uint64_t)lg + 100 * (uint64_t)ci, &pts, &s))
        return MULRED_ERUNTIME;
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
           *cl = malloc((size_t)reps * sizeof *cl), *of = malloc((size_t)reps * sizeof *of),
           *ow = malloc((size_t)reps * sizeof *ow);
    bm_jac rp[2];
    void *rpp[2] = {&rp[0], &rp[1]};
    const size_t sb = C->scratch_size(&row->plan, n);
    void *sc[2] = {mulred_alloc_large(sb), mulred_alloc_large(sb)};
    if (!w1 || !c1 || !w2 || !q || !cl || !of || !ow || !sc[0] || !sc[1]) return MULRED_ERUNTIME;
    memset(sc[0], 0, sb), memset(sc[1], 0, sb); /* touched: the warm pair */
    for (int k = 0; k < reps; k++) {
        double a = mulred_wtime(), ca = bm_cpu();
        C->msm(&r1, pts, s, n, NULL, 1, &err);
        w1[k] = mulred_wtime() - a, c1[k] = bm_cpu() - ca;
        a = mulred_wtime();
        C->msm(&r2, pts, s, n, NULL, 2, &err);
        w2[k] = mulred_wtime() - a;
        q[k] = w1[k] / w2[k];
        const double sbs = bench_msm_side_by_side(C->msm, rpp, pts, s, n);
        if (sbs <= 0) {
            fprintf(stderr, "mulred bench msm: %s 2^%d: the side-by-side run failed\n", C->name,
                    lg);
            return MULRED_ERUNTIME;
        }
        cl[k] = 2 * w1[k] / sbs;
        of[k] = sbs / (2 * w2[k]); /* = q[k] / cl[k]: one round's share of the ceiling */
        ow[k] =
            bench_msm_side_by_side_warm(C->serial, rpp, &row->plan, pts, s, n, sc) / (2 * w2[k]);
    }
    if (!C->same(&rp[0], &r1) || !C->same(&rp[1], &r1)) {
        fprintf(stderr, "mulred bench msm: %s 2^%d: side-by-side runs disagree\n", C->name, lg);
        return MULRED_ERUNTIME;
    }
    row->ceiling = median_of(cl, reps);
    row->of_ceiling = median_of(of, reps);
    row->of_warm = median_of(ow, reps);
    free(cl), free(of), free(ow), free(sc[0]), free(sc[1]);
    row->curve = ci, row->log2n = lg;
    row->wall1 = median_of(w1, reps), row->cpu1 = median_of(c1, reps);
    row->wall2 = median_of(w2, reps);
    row->speedup_p10 = mulred_quantile(q, reps, 0.1),
    row->speedup_p90 = mulred_quantile(q, reps, 0.9);
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
    void *pts;
    mulred_scalar256 *s;
    double *t = malloc((size_t)nv * reps * sizeof *t), *q = malloc((size_t)reps * sizeof *q);
    if (!t || !q || !bm_inputs(C, n, 77, 78, &pts, &s)) return MULRED_ERUNTIME;
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
        v[i].ratio_p10 = mulred_quantile(q, reps, 0.1),
        v[i].ratio_p90 = mulred_quantile(q, reps, 0.9);
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
    k->commit_p10 = mulred_quantile(tc, reps, 0.1) * 1e3,
    k->commit_p90 = mulred_quantile(tc, reps, 0.9) * 1e3;
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
    json_t *v;
    mulred_error err;
    const mulred_status read = mulred_json_read_buffer(&v, buf, n, "the anchor's output", &err);
    free(buf);
    if (read) return;
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

/* ---- the cost-model sweep and fit -----------------------------------------------------------
 *
 * The modelled time of a plan is linear in the constants (mulred_msm_cost), so they are fitted
 * to measured MSM times: for each curve, sizes 2^12 … 2^18 (G2 2^11 … 2^15) and around the
 * automatic plan (c*, GLV*) the variants c* − 2 … c* + 2 with GLV on and off, the scalar kernels
 * (where the 8-lane ones exist), forced batches (which separate the inversion from the pair) and
 * XYZZ buckets; each timed (thread CPU, the minimum of interleaved rounds). The features of a
 * variant are its modelled times under unit constants; the fit minimises the squared relative
 * error, constants >= 0 (a negative one is held at 0 and the rest refitted). Constants no
 * variant exercises keep their compiled-in values. Then per size: the best measured variant of
 * the plan space (automatic batch and bucket form), the fitted model's choice among the same
 * variants and the compiled-in model's choice, with the measured time of each. */

enum { NPARAM = 11 };
static const char *const param_names[NPARAM] = {
    "scan",       "window",     "dbl",    "xyzz_add",        "xyzz_full",  "aff_add scalar",
    "aff_add x8", "inv scalar", "inv x8", "glv_pair scalar", "glv_pair x8"};

static double *param_ref(mulred_msm_cost *c, int i)
{
    double *const p[NPARAM] = {&c->scan,      &c->window,      &c->dbl,        &c->xyzz_add,
                               &c->xyzz_full, &c->aff_add[0],  &c->aff_add[1], &c->inv[0],
                               &c->inv[1],    &c->glv_pair[0], &c->glv_pair[1]};
    return p[i];
}

typedef struct {
    mulred_msm_options opts;
    mulred_msm_plan plan;
    int log2n, in_space; /* in_space: automatic batch and form (what the planner chooses from) */
    double ms, x[NPARAM];
} bm_mvar;

/* Solves the n x n system a·x = b (Gaussian elimination, partial pivoting); 0 if singular. */
static int solve(double *a, double *b, double *x, int n)
{
    for (int k = 0; k < n; k++) {
        int piv = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[piv * n + k])) piv = i;
        if (fabs(a[piv * n + k]) < 1e-12) return 0;
        if (piv != k) {
            for (int j = 0; j < n; j++) {
                const double t = a[k * n + j];
                a[k * n + j] = a[piv * n + j], a[piv * n + j] = t;
            }
            const double t = b[k];
            b[k] = b[piv], b[piv] = t;
        }
        for (int i = k + 1; i < n; i++) {
            const double f = a[i * n + k] / a[k * n + k];
            for (int j = k; j < n; j++) a[i * n + j] -= f * a[k * n + j];
            b[i] -= f * b[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        double t = b[k];
        for (int j = k + 1; j < n; j++) t -= a[k * n + j] * x[j];
        x[k] = t / a[k * n + k];
    }
    return 1;
}

/* Fits theta (in: the compiled-in constants, kept where no variant exercises one) to the
 * variants: least squares of the relative error, theta >= 0. Returns the RMS relative error. */
static double fit(const bm_mvar *v, int nv, double theta[NPARAM], const int fitted[NPARAM])
{
    int free_[NPARAM], nf = 0;
    double scale[NPARAM];
    for (int j = 0; j < NPARAM; j++) {
        scale[j] = 0;
        for (int i = 0; i < nv; i++)
            if (v[i].x[j] / (v[i].ms * 1e6) > scale[j]) scale[j] = v[i].x[j] / (v[i].ms * 1e6);
        if (scale[j] > 1e-9 && fitted[j]) free_[nf++] = j;
    }
    for (;;) {
        double A[NPARAM * NPARAM] = {0}, B[NPARAM] = {0}, X[NPARAM];
        for (int i = 0; i < nv; i++) {
            const double y = v[i].ms * 1e6;
            double f[NPARAM], r = 1; /* row / y: the relative residual; fixed terms moved over */
            for (int a = 0; a < nf; a++) f[a] = v[i].x[free_[a]] / y / scale[free_[a]];
            for (int j = 0; j < NPARAM; j++) {
                int is_free = 0;
                for (int a = 0; a < nf; a++) is_free |= free_[a] == j;
                if (!is_free) r -= v[i].x[j] * theta[j] / y;
            }
            for (int a = 0; a < nf; a++) {
                B[a] += f[a] * r;
                for (int b = 0; b < nf; b++) A[a * nf + b] += f[a] * f[b];
            }
        }
        if (!solve(A, B, X, nf)) break;
        int worst = -1;
        for (int a = 0; a < nf; a++)
            if (X[a] < 0 && (worst < 0 || X[a] < X[worst])) worst = a;
        if (worst < 0) {
            for (int a = 0; a < nf; a++) theta[free_[a]] = X[a] / scale[free_[a]];
            break;
        }
        theta[free_[worst]] = 0; /* held at 0, the rest refitted */
        free_[worst] = free_[--nf];
        if (nf == 0) break;
    }
    double e = 0;
    for (int i = 0; i < nv; i++) {
        double pred = 0;
        for (int j = 0; j < NPARAM; j++) pred += v[i].x[j] * theta[j];
        e += (pred / (v[i].ms * 1e6) - 1) * (pred / (v[i].ms * 1e6) - 1);
    }
    return sqrt(e / nv);
}

static double predict(const bm_mvar *v, const double theta[NPARAM])
{
    double t = 0;
    for (int j = 0; j < NPARAM; j++) t += v->x[j] * theta[j];
    return t / 1e6;
}

static int add_variant(bm_mvar *v, int nv, const bm_curve *C, int lg, mulred_msm_options o,
                       int in_space)
{
    if (o.window_bits < 1 || o.window_bits > MSM_BENCH_MAX_C) return nv;
    for (int i = 0; i < nv; i++) /* once each */
        if (v[i].log2n == lg && !memcmp(&v[i].opts, &o, sizeof o)) return nv;
    bm_mvar *m = &v[nv];
    memset(m, 0, sizeof *m);
    m->opts = o, m->log2n = lg, m->in_space = in_space;
    C->plan(&m->plan, (size_t)1 << lg, &o);
    if (m->plan.magic == 0) return nv;
    for (int j = 0; j < NPARAM; j++) {
        mulred_msm_cost unit;
        memset(&unit, 0, sizeof unit);
        *param_ref(&unit, j) = 1;
        m->x[j] = C->cost_with(&m->plan, (size_t)1 << lg, &unit);
    }
    return nv + 1;
}

static void run_model(int c0, int c1, int quick, bool json, mulred_json_writer *w)
{
    const int reps = quick ? 2 : 3;
    if (json) mulred_jw_array_begin(w, "model");
    for (int ci = c0; ci < c1; ci++) {
        const bm_curve *C = &curves[ci];
        const int g2 = ci >= 2;
        int sizes[4] = {12, 14, 16, 18}, nsizes = 4;
        if (g2) sizes[0] = 11, sizes[1] = 13, sizes[2] = 15, nsizes = 3;
        if (quick) sizes[0] = 8, sizes[1] = 10, sizes[2] = 12, nsizes = 3;
        mulred_msm_plan probe;
        curves[0].plan(&probe, 1u << 12, NULL);
        const int x8_here = probe.lanes == MULRED_MSM_LANES_X8;
        bm_mvar *v = calloc(4 * 40, sizeof *v);
        if (!v) abort();
        int nv = 0;
        for (int si = 0; si < nsizes; si++) {
            const int lg = sizes[si];
            mulred_msm_plan ap;
            C->plan(&ap, (size_t)1 << lg, NULL);
            const int cs = (int)ap.window_bits, x8 = ap.lanes == MULRED_MSM_LANES_X8;
            for (int glv = -1; glv <= 1; glv += 2)
                for (int c = cs - 2; c <= cs + 2; c++)
                    nv = add_variant(v, nv, C, lg,
                                     (mulred_msm_options){.window_bits = c, .glv = glv}, 1);
            if (x8)
                for (int glv = -1; glv <= 1; glv += 2)
                    for (int c = cs - 1; c <= cs + 1; c++)
                        nv = add_variant(v, nv, C, lg,
                                         (mulred_msm_options){.window_bits = c,
                                                              .glv = glv,
                                                              .lanes = MULRED_MSM_LANES_SCALAR},
                                         1);
            const int gs = ap.glv ? 1 : -1;
            for (int b = 64; b <= 2048; b *= 4)
                nv = add_variant(v, nv, C, lg,
                                 (mulred_msm_options){.window_bits = cs, .glv = gs, .batch = b}, 0);
            for (int c = cs - 4; c <= cs; c += 2)
                nv = add_variant(v, nv, C, lg,
                                 (mulred_msm_options){.window_bits = c,
                                                      .glv = gs,
                                                      .buckets = MULRED_MSM_BUCKETS_XYZZ},
                                 0);
        }
        /* interleaved rounds, size by size (the inputs of one size at a time) */
        for (int si = 0; si < nsizes; si++) {
            const size_t n = (size_t)1 << sizes[si];
            void *pts;
            mulred_scalar256 *s;
            if (!bm_inputs(C, n, 5, 6, &pts, &s)) abort();
            for (int i = 0; i < nv; i++)
                if (v[i].log2n == sizes[si]) v[i].ms = 1e30;
            for (int k = 0; k < (sizes[si] >= 18 ? 2 : reps); k++)
                for (int i = 0; i < nv; i++) {
                    if (v[i].log2n != sizes[si]) continue;
                    bm_jac r;
                    const double x = time_serial(C, &r, pts, s, n, &v[i].opts, NULL) * 1e3;
                    if (x < v[i].ms) v[i].ms = x;
                }
            free(pts), free(s);
        }
        mulred_msm_cost compiled, fitted, micro;
        C->cost_constants(&compiled);
        memset(&micro, 0, sizeof micro);
        for (int k = 0; k < 3; k++) { /* the least of three (load only adds) */
            mulred_msm_cost m;
            C->micro(&m, x8_here, quick ? 0.1 : 1.0);
            for (int j = 0; j < NPARAM; j++)
                if (k == 0 || *param_ref(&m, j) < *param_ref(&micro, j))
                    *param_ref(&micro, j) = *param_ref(&m, j);
        }
        fitted = compiled;
        double theta[NPARAM], th0[NPARAM];
        /* micro-measured: dbl, the XYZZ additions, the pair and the inversion; fitted: scan,
         * window and what GLV adds per pair, which only whole MSMs show (φ alone, the
         * micro-measurement, is a fraction of it) */
        int is_fit[NPARAM];
        for (int j = 0; j < NPARAM; j++) {
            th0[j] = *param_ref(&compiled, j);
            is_fit[j] = j <= 1 || j >= 9;
            theta[j] = is_fit[j] ? th0[j] : *param_ref(&micro, j);
        }
        const double rms = fit(v, nv, theta, is_fit);
        double rms0 = 0;
        for (int i = 0; i < nv; i++) {
            const double e = predict(&v[i], th0) / v[i].ms - 1;
            rms0 += e * e;
        }
        rms0 = sqrt(rms0 / nv);
        for (int j = 0; j < NPARAM; j++) *param_ref(&fitted, j) = theta[j];
        if (json) {
            for (int i = 0; i < nv; i++) {
                mulred_jw_object_begin(w, NULL);
                mulred_jw_string(w, "curve", C->name);
                mulred_jw_string(w, "group", C->group);
                mulred_jw_int(w, "log2n", v[i].log2n);
                mulred_jw_uint(w, "c", v[i].plan.window_bits);
                mulred_jw_bool(w, "glv", v[i].plan.glv);
                mulred_jw_string(w, "lanes",
                                 v[i].plan.lanes == MULRED_MSM_LANES_X8 ? "x8" : "scalar");
                mulred_jw_string(w, "buckets",
                                 v[i].plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE ? "affine"
                                                                                    : "xyzz");
                mulred_jw_uint(w, "batch", v[i].plan.batch);
                mulred_jw_double(w, "ms", v[i].ms);
                mulred_jw_double(w, "fitted_ms", predict(&v[i], theta));
                mulred_jw_double(w, "compiled_ms", predict(&v[i], th0));
                mulred_jw_object_end(w);
            }
            free(v);
            continue;
        }
        mulred_out("\nCost model of %s %s: constants micro-measured, or fitted to %d measured "
                   "plans (thread CPU, "
                   "min of %d rounds, 2 at 2^18 and up; RMS relative error %.1f%% fitted, %.1f%% "
                   "compiled-in)\n\n"
                   "| constant (ns)    | compiled-in | measured | how         |\n"
                   "|------------------|-------------|----------|-------------|\n",
                   C->name, C->group, nv, reps, 100 * rms, 100 * rms0);
        for (int j = 0; j < NPARAM; j++)
            mulred_out("| %-16s | %11.1f | %8.1f | %-11s |\n", param_names[j], th0[j], theta[j],
                       is_fit[j] ? "fit" : "micro");
        mulred_out("\nAs msm.c reads them: .op = {.scan = %.3g, .window = %.4g, .dbl = %.4g, "
                   ".xyzz_add = %.4g, .xyzz_full = %.4g, .aff_add = {%.4g, %.4g}, .inv = {%.4g, "
                   "%.4g}, .glv_pair = {%.3g, %.3g}}\n\n",
                   fitted.scan, fitted.window, fitted.dbl, fitted.xyzz_add, fitted.xyzz_full,
                   fitted.aff_add[0], fitted.aff_add[1], fitted.inv[0], fitted.inv[1],
                   fitted.glv_pair[0], fitted.glv_pair[1]);
        mulred_out("| log2 n | c  | GLV | lanes  | buckets | batch | measured ms | fitted ms | "
                   "compiled ms |\n"
                   "|--------|----|-----|--------|---------|-------|-------------|-----------|"
                   "-------------|\n");
        for (int i = 0; i < nv; i++)
            mulred_out("| %6d | %2u | %3s | %-6s | %-7s | %5u | %11.2f | %9.2f | %11.2f |\n",
                       v[i].log2n, v[i].plan.window_bits, v[i].plan.glv ? "yes" : "no",
                       v[i].plan.lanes == MULRED_MSM_LANES_X8 ? "x8" : "scalar",
                       v[i].plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE ? "affine" : "xyzz",
                       v[i].plan.batch, v[i].ms, predict(&v[i], theta), predict(&v[i], th0));
        mulred_out("\n| log2 n | best measured (c, GLV) ms | fitted model's choice ms | ratio | "
                   "compiled model's choice ms | ratio |\n"
                   "|--------|---------------------------|--------------------------|-------|-"
                   "---------------------------|-------|\n");
        for (int si = 0; si < nsizes; si++) {
            int best = -1, fit_pick = -1, comp_pick = -1;
            mulred_msm_plan ap; /* the planner's lanes: those of the automatic plan */
            C->plan(&ap, (size_t)1 << sizes[si], NULL);
            for (int i = 0; i < nv; i++) {
                if (v[i].log2n != sizes[si] || !v[i].in_space || v[i].plan.lanes != ap.lanes)
                    continue;
                if (best < 0 || v[i].ms < v[best].ms) best = i;
                if (fit_pick < 0 || predict(&v[i], theta) < predict(&v[fit_pick], theta))
                    fit_pick = i;
                if (comp_pick < 0 || predict(&v[i], th0) < predict(&v[comp_pick], th0))
                    comp_pick = i;
            }
            if (best < 0) continue;
            mulred_out("| %6d | c = %2u, GLV %-3s %9.2f | c = %2u, GLV %-3s %8.2f | %5.3f | "
                       "c = %2u, GLV %-3s %10.2f | %5.3f |\n",
                       sizes[si], v[best].plan.window_bits, v[best].plan.glv ? "yes" : "no",
                       v[best].ms, v[fit_pick].plan.window_bits,
                       v[fit_pick].plan.glv ? "yes" : "no", v[fit_pick].ms,
                       v[fit_pick].ms / v[best].ms, v[comp_pick].plan.window_bits,
                       v[comp_pick].plan.glv ? "yes" : "no", v[comp_pick].ms,
                       v[comp_pick].ms / v[best].ms);
        }
        free(v);
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
        "ceiling here (two 1-thread MSMs side by side; \"of warm\": against a pair whose\n"
        "scratch was touched before), ns per point, the row's peak RSS;\n"
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

    const double load0 = mulred_out_load_average();
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
            {"collision queue: 128", base, 0, 0, 0, 0, {0}},
            {"window one bit narrower", base, 0, 0, 0, 0, {0}},
            {"window one bit wider", base, 0, 0, 0, 0, {0}},
            {"scalar field kernels (no 8-lane)", base, 0, 0, 0, 0, {0}},
            {"GLV switched", base, 0, 0, 0, 0, {0}},
            {"XYZZ buckets (no batch-affine)", base, 0, 0, 0, 0, {0}},
        };
        v[1].opts.queue = -1, v[2].opts.queue = 16, v[3].opts.queue = 128;
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
    const double load1 = mulred_out_load_average();

    mulred_json_writer w;
    if (json) {
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "cpu", mulred_cpu_describe());
        mulred_jw_int(&w, "cpu_family", mulred_out_cpu_family());
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
                mulred_jw_double(&w, "of_ceiling", r->of_ceiling);
                mulred_jw_double(&w, "of_warm_ceiling", r->of_warm);
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
               mulred_out_cpu_family(), mulred_cpu_describe(), mulred_field_kernel_name(), load0,
               load1);
    mulred_out(
        "| curve        | log2 n | c  | W  | GLV | buckets | 1 thread ms | CPU ms  | "
        "ns/point | 2 threads ms | speedup (p10-p90) | ceiling | of ceiling | of warm | peak RSS "
        "MB |\n"
        "|--------------|--------|----|----|-----|---------|-------------|---------|-----"
        "-----|--------------|-------------------|---------|------------|---------|----------"
        "---|\n");
    for (int ci = c0; ci < c1; ci++)
        for (int i = 0; i < nrows; i++) {
            if (!have[ci][i]) continue;
            const bm_row *r = &rows[ci][i];
            mulred_out("| %-9s %s | %6d | %2u | %2u | %3s | %-7s | %11.2f | %7.2f | %8.0f | "
                       "%12.2f | %4.2f (%4.2f-%4.2f)  | %7.2f | %10.2f | %7.2f | %10.1f%s |\n",
                       curves[ci].name, curves[ci].group, r->log2n, r->plan.window_bits,
                       r->plan.windows, r->plan.glv ? "yes" : "no",
                       r->plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE
                           ? (r->plan.lanes == MULRED_MSM_LANES_X8 ? "aff x8" : "affine")
                           : "xyzz",
                       r->wall1 * 1e3, r->cpu1 * 1e3,
                       r->cpu1 * 1e9 / (double)((size_t)1 << r->log2n), r->wall2 * 1e3, r->speedup,
                       r->speedup_p10, r->speedup_p90, r->ceiling, r->of_ceiling, r->of_warm,
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

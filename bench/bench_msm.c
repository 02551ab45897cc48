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
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_child.h"
#include "bench_keys.h"
#include "bench_table.h"
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
    bench_msm_fn msm;
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
    static mulred_status G##_bm_msm(void *r, const void *pts, const mulred_scalar256 *s, size_t n, \
                                    const mulred_msm_options *o, int t, mulred_error *e)           \
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
        double t0 = mulred_thread_cputime();                                                       \
        for (int i = 0; i < reps; i++) mulred_##G##_jacobian_double(&jd, &jd);                     \
        c->dbl = (mulred_thread_cputime() - t0) * 1e9 / reps;                                      \
        for (int i = 0; i < NP; i++) mulred_##G##_xyzz_from_affine(&xz[i], &pt[NB + i]);           \
        mulred_##G##_xyzz_from_affine(&xa, &pt[0]);                                                \
        t0 = mulred_thread_cputime();                                                              \
        for (int i = 0; i < reps; i++) mulred_##G##_xyzz_add_affine(&xa, &xa, &pt[NB + i % NP]);   \
        c->xyzz_add = (mulred_thread_cputime() - t0) * 1e9 / reps;                                 \
        t0 = mulred_thread_cputime();                                                              \
        for (int i = 0; i < reps; i++) mulred_##G##_xyzz_add(&xa, &xa, &xz[i % NP]);               \
        c->xyzz_full = (mulred_thread_cputime() - t0) * 1e9 / reps;                                \
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
                t0 = mulred_thread_cputime();                                                      \
                for (int b = 0; b < nb; b++) {                                                     \
                    for (size_t j = 0; j < m; j++, off++)                                          \
                        pr[j] = (mulred_##G##_affine_pair){&acc[perm[off % NB]],                   \
                                                           &pt[NB + off % NP], 0};                 \
                    mulred_##G##_batch_add_pairs_var(                                              \
                        pr, m, l ? MULRED_LANES_X8 : MULRED_LANES_SCALAR, scr);                    \
                }                                                                                  \
                tm[k] = (mulred_thread_cputime() - t0) * 1e9 / nb;                                 \
            }                                                                                      \
            c->aff_add[l] = (tm[1] - tm[0]) / (512 - 32);                                          \
            c->inv[l] = tm[0] - 32 * c->aff_add[l];                                                \
            if (c->inv[l] < 0) c->inv[l] = 0;                                                      \
            /* GLV: every other pair through φ, against tm[1] */                                  \
            const int nb = (int)(reps * 8 / 512) + 4;                                              \
            size_t off = 0;                                                                        \
            t0 = mulred_thread_cputime();                                                          \
            for (int b = 0; b < nb; b++) {                                                         \
                for (size_t j = 0; j < 512; j++, off++)                                            \
                    pr[j] = (mulred_##G##_affine_pair){&acc[perm[off % NB]], &pt[NB + off % NP],   \
                                                       (uint32_t)(j & 1) * MULRED_PAIR_ENDO};      \
                mulred_##G##_batch_add_pairs_var(pr, 512,                                          \
                                                 l ? MULRED_LANES_X8 : MULRED_LANES_SCALAR, scr);  \
            }                                                                                      \
            c->glv_pair[l] = ((mulred_thread_cputime() - t0) * 1e9 / nb - tm[1]) / 512;            \
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
    const double t0 = mulred_thread_cputime();
    C->serial(r, &plan, pts, s, n, scratch);
    const double t = mulred_thread_cputime() - t0;
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

static mulred_status run_row(bm_row *row, int ci, int lg, int reps)
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
        double a = mulred_wtime(), ca = mulred_thread_cputime();
        C->msm(&r1, pts, s, n, NULL, 1, &err);
        w1[k] = mulred_wtime() - a, c1[k] = mulred_thread_cputime() - ca;
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
    row->ceiling = mulred_median(cl, (size_t)reps);
    row->of_ceiling = mulred_median(of, (size_t)reps);
    row->of_warm = mulred_median(ow, (size_t)reps);
    free(cl), free(of), free(ow), free(sc[0]), free(sc[1]);
    row->curve = ci, row->log2n = lg;
    row->wall1 = mulred_median(w1, (size_t)reps), row->cpu1 = mulred_median(c1, (size_t)reps);
    row->wall2 = mulred_median(w2, (size_t)reps);
    row->speedup_p10 = mulred_quantile(q, reps, 0.1),
    row->speedup_p90 = mulred_quantile(q, reps, 0.9);
    row->speedup = mulred_median(q, (size_t)reps);
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
static mulred_status run_variants(bm_variant *v, int nv, int ci, size_t n, int reps)
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
        v[i].ratio = mulred_median(q, (size_t)reps);
        v[i].cpu = mulred_median(t + i * reps, (size_t)reps);
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
        if (mulred_g1_381_decode_compressed(&pts[i], b, MULRED_DECODE_SKIP_SUBGROUP_CHECK, NULL))
            break;
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
        double a = mulred_thread_cputime();
        mulred_kzg_blob_to_commitment(c, s, blob, &err);
        tc[r] = mulred_thread_cputime() - a;
        if (have_pts) {
            a = mulred_thread_cputime();
            mulred_g1_381_msm_serial_var(&plain, &pplan, pts, sc, MULRED_KZG_FIELD_ELEMENTS, scr);
            tp[r] = mulred_thread_cputime() - a;
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
        k->plain_ms = mulred_median(tp, (size_t)reps) * 1e3;
        k->table_ratio = mulred_median(q, (size_t)reps);
    }
    k->commit_p10 = mulred_quantile(tc, reps, 0.1) * 1e3,
    k->commit_p90 = mulred_quantile(tc, reps, 0.9) * 1e3;
    k->commit_ms = mulred_median(tc, (size_t)reps) * 1e3;
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
    const char *const argv[] = {cmd, "--quick", NULL};
    bench_child c;
    bench_child_start(&c, argv, &(bench_child_opts){.quiet = true});
    bench_child_wait(&c); /* its exit status aside: what it printed counts */
    json_t *v = bench_child_json(&c, "the anchor's output");
    bench_child_free(&c);
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

/* One curve's sweep: the variants, their measured and modelled times, the constants. */
typedef struct {
    const bm_curve *C;
    bm_mvar *v;
    int nv, sizes[4], nsizes, reps;
    double theta[NPARAM], th0[NPARAM], rms, rms0; /* fitted and compiled-in constants */
    int is_fit[NPARAM];
    mulred_msm_cost fitted;
} bm_model;

/* The variants of the sweep around each size's automatic plan. */
static void model_variants(bm_model *m, int quick)
{
    const bm_curve *C = m->C;
    const int g2 = C->group[1] == '2';
    int *sizes = m->sizes;
    sizes[0] = 12, sizes[1] = 14, sizes[2] = 16, sizes[3] = 18, m->nsizes = 4;
    if (g2) sizes[0] = 11, sizes[1] = 13, sizes[2] = 15, m->nsizes = 3;
    if (quick) sizes[0] = 8, sizes[1] = 10, sizes[2] = 12, m->nsizes = 3;
    int nv = 0;
    for (int si = 0; si < m->nsizes; si++) {
        const int lg = sizes[si];
        mulred_msm_plan ap;
        C->plan(&ap, (size_t)1 << lg, NULL);
        const int cs = (int)ap.window_bits, x8 = ap.lanes == MULRED_MSM_LANES_X8;
        for (int glv = -1; glv <= 1; glv += 2)
            for (int c = cs - 2; c <= cs + 2; c++)
                nv = add_variant(m->v, nv, C, lg,
                                 (mulred_msm_options){.window_bits = c, .glv = glv}, 1);
        if (x8)
            for (int glv = -1; glv <= 1; glv += 2)
                for (int c = cs - 1; c <= cs + 1; c++)
                    nv = add_variant(m->v, nv, C, lg,
                                     (mulred_msm_options){.window_bits = c,
                                                          .glv = glv,
                                                          .lanes = MULRED_MSM_LANES_SCALAR},
                                     1);
        const int gs = ap.glv ? 1 : -1;
        for (int b = 64; b <= 2048; b *= 4)
            nv = add_variant(m->v, nv, C, lg,
                             (mulred_msm_options){.window_bits = cs, .glv = gs, .batch = b}, 0);
        for (int c = cs - 4; c <= cs; c += 2)
            nv = add_variant(m->v, nv, C, lg,
                             (mulred_msm_options){
                                 .window_bits = c, .glv = gs, .buckets = MULRED_MSM_BUCKETS_XYZZ},
                             0);
    }
    m->nv = nv;
}

/* Times the variants (interleaved rounds, size by size: the inputs of one size at a time), then
 * micro-measures and fits the constants. */
static void model_measure(bm_model *m, int quick)
{
    const bm_curve *C = m->C;
    bm_mvar *v = m->v;
    for (int si = 0; si < m->nsizes; si++) {
        const size_t n = (size_t)1 << m->sizes[si];
        void *pts;
        mulred_scalar256 *s;
        if (!bm_inputs(C, n, 5, 6, &pts, &s)) abort();
        for (int i = 0; i < m->nv; i++)
            if (v[i].log2n == m->sizes[si]) v[i].ms = 1e30;
        for (int k = 0; k < (m->sizes[si] >= 18 ? 2 : m->reps); k++)
            for (int i = 0; i < m->nv; i++) {
                if (v[i].log2n != m->sizes[si]) continue;
                bm_jac r;
                const double x = time_serial(C, &r, pts, s, n, &v[i].opts, NULL) * 1e3;
                if (x < v[i].ms) v[i].ms = x;
            }
        free(pts), free(s);
    }
    mulred_msm_plan probe;
    curves[0].plan(&probe, 1u << 12, NULL);
    const int x8_here = probe.lanes == MULRED_MSM_LANES_X8;
    mulred_msm_cost compiled, micro;
    C->cost_constants(&compiled);
    memset(&micro, 0, sizeof micro);
    for (int k = 0; k < 3; k++) { /* the least of three (load only adds) */
        mulred_msm_cost mc;
        C->micro(&mc, x8_here, quick ? 0.1 : 1.0);
        for (int j = 0; j < NPARAM; j++)
            if (k == 0 || *param_ref(&mc, j) < *param_ref(&micro, j))
                *param_ref(&micro, j) = *param_ref(&mc, j);
    }
    m->fitted = compiled;
    /* micro-measured: dbl, the XYZZ additions, the pair and the inversion; fitted: scan,
     * window and what GLV adds per pair, which only whole MSMs show (φ alone, the
     * micro-measurement, is a fraction of it) */
    for (int j = 0; j < NPARAM; j++) {
        m->th0[j] = *param_ref(&compiled, j);
        m->is_fit[j] = j <= 1 || j >= 9;
        m->theta[j] = m->is_fit[j] ? m->th0[j] : *param_ref(&micro, j);
    }
    m->rms = fit(v, m->nv, m->theta, m->is_fit);
    m->rms0 = 0;
    for (int i = 0; i < m->nv; i++) {
        const double e = predict(&v[i], m->th0) / v[i].ms - 1;
        m->rms0 += e * e;
    }
    m->rms0 = sqrt(m->rms0 / m->nv);
    for (int j = 0; j < NPARAM; j++) *param_ref(&m->fitted, j) = m->theta[j];
}

/* The measured plans (JSON: the array "model" over the curves). */
static const bench_column model_columns[] = {
    {"curve", NULL, NULL, BENCH_TEXT, 0},
    {"group", NULL, NULL, BENCH_TEXT, 0},
    {"log2n", "log2 n", NULL, BENCH_INT, 0},
    {"c", "c", NULL, BENCH_INT, 0},
    {"glv", "GLV", NULL, BENCH_BOOL, 0},
    {"lanes", "lanes", NULL, BENCH_TEXT, 0},
    {"buckets", "buckets", NULL, BENCH_TEXT, 0},
    {"batch", "batch", NULL, BENCH_INT, 0},
    {"ms", "measured ms", "%.2f", BENCH_REAL, 0},
    {"fitted_ms", "fitted ms", "%.2f", BENCH_REAL, 0},
    {"compiled_ms", "compiled ms", "%.2f", BENCH_REAL, 0},
};

static void model_row(bench_table *t, const bm_model *m, const bm_mvar *v)
{
    BENCH_ROW(t, BENCH_S(m->C->name), BENCH_S(m->C->group), BENCH_I(v->log2n),
              BENCH_I(v->plan.window_bits), BENCH_I(v->plan.glv),
              BENCH_S(v->plan.lanes == MULRED_MSM_LANES_X8 ? "x8" : "scalar"),
              BENCH_S(v->plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE ? "affine" : "xyzz"),
              BENCH_I(v->plan.batch), BENCH_R(v->ms), BENCH_R(predict(v, m->theta)),
              BENCH_R(predict(v, m->th0)));
}

/* The constants, compiled-in and measured (human form only). */
static void model_constants(const bm_model *m)
{
    const mulred_msm_cost *f = &m->fitted;
    mulred_out("\nCost model of %s %s: constants micro-measured, or fitted to %d measured "
               "plans (thread CPU, min of %d rounds, 2 at 2^18 and up; RMS relative error "
               "%.1f%% fitted, %.1f%% compiled-in)\n\n"
               "| constant (ns)    | compiled-in | measured | how         |\n"
               "|------------------|-------------|----------|-------------|\n",
               m->C->name, m->C->group, m->nv, m->reps, 100 * m->rms, 100 * m->rms0);
    for (int j = 0; j < NPARAM; j++)
        mulred_out("| %-16s | %11.1f | %8.1f | %-11s |\n", param_names[j], m->th0[j], m->theta[j],
                   m->is_fit[j] ? "fit" : "micro");
    mulred_out("\nAs msm.c reads them: .op = {.scan = %.3g, .window = %.4g, .dbl = %.4g, "
               ".xyzz_add = %.4g, .xyzz_full = %.4g, .aff_add = {%.4g, %.4g}, .inv = {%.4g, "
               "%.4g}, .glv_pair = {%.3g, %.3g}}\n\n",
               f->scan, f->window, f->dbl, f->xyzz_add, f->xyzz_full, f->aff_add[0], f->aff_add[1],
               f->inv[0], f->inv[1], f->glv_pair[0], f->glv_pair[1]);
}

/* Per size: the best measured plan against the two models' choices (human form only). */
static void model_choices(const bm_model *m)
{
    const bm_mvar *v = m->v;
    mulred_out("\n| log2 n | best measured (c, GLV) ms | fitted model's choice ms | ratio | "
               "compiled model's choice ms | ratio |\n"
               "|--------|---------------------------|--------------------------|-------|-"
               "---------------------------|-------|\n");
    for (int si = 0; si < m->nsizes; si++) {
        int best = -1, fit_pick = -1, comp_pick = -1;
        mulred_msm_plan ap; /* the planner's lanes: those of the automatic plan */
        m->C->plan(&ap, (size_t)1 << m->sizes[si], NULL);
        for (int i = 0; i < m->nv; i++) {
            if (v[i].log2n != m->sizes[si] || !v[i].in_space || v[i].plan.lanes != ap.lanes)
                continue;
            if (best < 0 || v[i].ms < v[best].ms) best = i;
            if (fit_pick < 0 || predict(&v[i], m->theta) < predict(&v[fit_pick], m->theta))
                fit_pick = i;
            if (comp_pick < 0 || predict(&v[i], m->th0) < predict(&v[comp_pick], m->th0))
                comp_pick = i;
        }
        if (best < 0) continue;
        mulred_out("| %6d | c = %2u, GLV %-3s %9.2f | c = %2u, GLV %-3s %8.2f | %5.3f | "
                   "c = %2u, GLV %-3s %10.2f | %5.3f |\n",
                   m->sizes[si], v[best].plan.window_bits, v[best].plan.glv ? "yes" : "no",
                   v[best].ms, v[fit_pick].plan.window_bits, v[fit_pick].plan.glv ? "yes" : "no",
                   v[fit_pick].ms, v[fit_pick].ms / v[best].ms, v[comp_pick].plan.window_bits,
                   v[comp_pick].plan.glv ? "yes" : "no", v[comp_pick].ms,
                   v[comp_pick].ms / v[best].ms);
    }
}

/* --model over curves[c0 .. c1): into w, or printed. */
static void run_model(int c0, int c1, int quick, mulred_json_writer *w)
{
    bench_table t;
    if (w) bench_table_begin(&t, w, "model", model_columns, BENCH_NCOLS(model_columns));
    for (int ci = c0; ci < c1; ci++) {
        bm_model m = {
            .C = &curves[ci], .v = calloc(4 * 40, sizeof(bm_mvar)), .reps = quick ? 2 : 3};
        if (!m.v) abort();
        model_variants(&m, quick);
        model_measure(&m, quick);
        if (!w) {
            model_constants(&m);
            bench_table_begin(&t, NULL, NULL, model_columns, BENCH_NCOLS(model_columns));
        }
        for (int i = 0; i < m.nv; i++) model_row(&t, &m, &m.v[i]);
        if (!w) {
            bench_table_end(&t);
            model_choices(&m);
        }
        free(m.v);
    }
    if (w) bench_table_end(&t);
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
        "  --anchors CMD  run the program CMD with --quick (no shell; blst and c-kzg-4844,\n"
        "                 JSON on stdout) in the same run and print the ratios (e.g.\n"
        "                 /tmp/anchors/run.sh)\n"
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

typedef struct {
    uint64_t min, max, worth, reps; /* reps 0: per --quick */
    int c0, c1;                     /* the curves of --group: curves[c0 .. c1) */
    const char *setup, *anchors;
    bool model, quick, json;
} msm_opts;

static mulred_exit set_group(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    msm_opts *m = o;
    if (strcmp(v, "g1") == 0)
        m->c0 = 0, m->c1 = 2;
    else if (strcmp(v, "g2") == 0)
        m->c0 = 2, m->c1 = 4;
    else if (strcmp(v, "all") == 0)
        m->c0 = 0, m->c1 = NCURVES;
    else
        return mulred_key_bad_value(p, v, "g1, g2 or all", why, cap);
    return MULRED_OK;
}
MULRED_KEY_COUNT(set_min, msm_opts, min, 4, 22)
MULRED_KEY_COUNT(set_max, msm_opts, max, 4, 22)
MULRED_KEY_COUNT(set_worth, msm_opts, worth, 4, 22)
MULRED_KEY_COUNT(set_reps, msm_opts, reps, 1, 1000)
MULRED_KEY_TEXT(set_setup, msm_opts, setup)
MULRED_KEY_TEXT(set_anchors, msm_opts, anchors)
MULRED_KEY_FLAG(set_model, msm_opts, model)
MULRED_KEY_FLAG(set_quick, msm_opts, quick)
MULRED_KEY_FLAG(set_json, msm_opts, json)

static const mulred_key msm_keys[] = {
    {"min", false, false, false, set_min},         {"max", false, false, false, set_max},
    {"group", false, false, false, set_group},     {"reps", false, false, false, set_reps},
    {"worth", false, false, false, set_worth},     {"setup", false, false, false, set_setup},
    {"anchors", false, false, false, set_anchors}, {"model", true, false, false, set_model},
    {"quick", true, false, false, set_quick},      {"json", true, false, false, set_json},
};

/* rows[ci][i]: curve ci at 2^(min + i); have[ci][i] = 0 when skipped (--quick: G2 to 2^14). */
typedef struct {
    bm_row rows[NCURVES][19];
    int have[NCURVES][19], nrows;
    bm_variant var[NCURVES][9];
    int var_n[NCURVES], row_reps, var_reps;
    bm_kzg kzg;
    bm_anchor anchor;
    double load0, load1, t_start;
} msm_results;

static mulred_status measure_rows(msm_results *r, const msm_opts *o)
{
    r->nrows = (int)(o->max - o->min) + 1;
    for (int i = 0; i < r->nrows; i++)
        for (int ci = o->c0; ci < o->c1; ci++) {
            const int lg = (int)o->min + i;
            if (o->quick && ci >= 2 && lg > 14) continue;
            if (run_row(&r->rows[ci][i], ci, lg, row_reps_for(r->row_reps, lg, &curves[ci])))
                return MULRED_ERUNTIME;
            r->have[ci][i] = 1;
        }
    return MULRED_OK;
}

/* What each technique is worth at 2^worth. */
static mulred_status measure_worth(msm_results *r, const msm_opts *o)
{
    enum { NV = 9 };
    for (int ci = o->c0; ci < o->c1; ci++) {
        const int wlg = o->quick && ci >= 2 && o->worth > 14 ? 14 : (int)o->worth;
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
        const int vr = ci >= 2 ? (r->var_reps + 1) / 2 : r->var_reps;
        if (run_variants(v, nv, ci, (size_t)1 << wlg, vr < 2 ? 2 : vr)) return MULRED_ERUNTIME;
        memcpy(r->var[ci], v, sizeof v);
        r->var_n[ci] = nv;
    }
    return MULRED_OK;
}

/* The size rows (JSON: "rows"), the variants ("worth"), the KZG commitment ("kzg", one record)
 * and the same-run baseline ("anchors", one record). */
static const bench_column row_columns[] = {
    {"curve", "curve", NULL, BENCH_TEXT, 0},
    {"group", "group", NULL, BENCH_TEXT, 0},
    {"log2n", "log2 n", NULL, BENCH_INT, 0},
    {"window_bits", "c", NULL, BENCH_INT, 0},
    {"windows", "W", NULL, BENCH_INT, 0},
    {"glv", "GLV", NULL, BENCH_BOOL, 0},
    {"buckets", "buckets", NULL, BENCH_TEXT, 0},
    {"lanes", "lanes", NULL, BENCH_TEXT, 0},
    {"ms_1_thread", "1 thread ms", "%.2f", BENCH_REAL, 0},
    {"cpu_ms_1_thread", "CPU ms", "%.2f", BENCH_REAL, 0},
    {"ns_per_point", "ns/point", "%.0f", BENCH_REAL, 0},
    {"ms_2_threads", "2 threads ms", "%.2f", BENCH_REAL, 0},
    {"speedup_2_threads", "speedup", "%.2f", BENCH_REAL, 0},
    {"speedup_p10", "p10", "%.2f", BENCH_REAL, 0},
    {"speedup_p90", "p90", "%.2f", BENCH_REAL, 0},
    {"speedup_ceiling_2_threads", "ceiling", "%.2f", BENCH_REAL, 0},
    {"of_ceiling", "of ceiling", "%.2f", BENCH_REAL, 0},
    {"of_warm_ceiling", "of warm", "%.2f", BENCH_REAL, 0},
    {"peak_rss_kb", "peak RSS MB", "%.1f", BENCH_INT, 1.0 / 1024},
    {"peak_rss_scope", "RSS of", NULL, BENCH_TEXT, 0},
};
static const bench_column worth_columns[] = {
    {"curve", "curve", NULL, BENCH_TEXT, 0},
    {"group", "group", NULL, BENCH_TEXT, 0},
    {"variant", "variant", NULL, BENCH_TEXT, 0},
    {"window_bits", "c", NULL, BENCH_INT, 0},
    {"glv", "GLV", NULL, BENCH_BOOL, 0},
    {"queue", "queue", NULL, BENCH_INT, 0},
    {"cpu_ms", "CPU ms", "%.2f", BENCH_REAL, 0},
    {"ratio_to_default", "ratio", "%.2f", BENCH_REAL, 0},
    {"ratio_p10", "p10", "%.2f", BENCH_REAL, 0},
    {"ratio_p90", "p90", "%.2f", BENCH_REAL, 0},
};
static const bench_column kzg_columns[] = {
    {"ok", NULL, NULL, BENCH_BOOL, 0},
    {"note", NULL, NULL, BENCH_TEXT, 0},
    {"commit_ms", "commitment ms", "%.2f", BENCH_REAL, 0},
    {"commit_p10_ms", "p10", "%.2f", BENCH_REAL, 0},
    {"commit_p90_ms", "p90", "%.2f", BENCH_REAL, 0},
    {"table_window_bits", "table c", NULL, BENCH_INT, 0},
    {"table_build_s", "table built s", "%.2f", BENCH_REAL, 0},
    {"table_load_s", "table loaded s", "%.3f", BENCH_REAL, 0},
    {NULL, "plain c", NULL, BENCH_INT, 0},
    {"plain_msm_ms", "plain MSM ms", "%.2f", BENCH_REAL, 0},
    {"plain_over_table", "plain / commitment", "%.2f", BENCH_REAL, 0},
};
static const bench_column anchor_columns[] = {
    {"blst_2e16_ms", "blst 2^16 ms", "%.1f", BENCH_REAL, 0},
    {NULL, "mulred / blst", "%.2f", BENCH_REAL, 0},
    {"ckzg_commit_ms", "c-kzg commitment ms", "%.1f", BENCH_REAL, 0},
    {NULL, "mulred / c-kzg", "%.2f", BENCH_REAL, 0},
};

static void rows_table(mulred_json_writer *w, const msm_opts *o, const msm_results *r)
{
    bench_table t;
    bench_table_begin(&t, w, "rows", row_columns, BENCH_NCOLS(row_columns));
    for (int ci = o->c0; ci < o->c1; ci++)
        for (int i = 0; i < r->nrows; i++) {
            if (!r->have[ci][i]) continue;
            const bm_row *x = &r->rows[ci][i];
            BENCH_ROW(&t, BENCH_S(curves[ci].name), BENCH_S(curves[ci].group), BENCH_I(x->log2n),
                      BENCH_I(x->plan.window_bits), BENCH_I(x->plan.windows), BENCH_I(x->plan.glv),
                      BENCH_S(x->plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE ? "affine" : "xyzz"),
                      BENCH_S(x->plan.lanes == MULRED_MSM_LANES_X8 ? "x8" : "scalar"),
                      BENCH_R(x->wall1 * 1e3), BENCH_R(x->cpu1 * 1e3),
                      BENCH_R(x->cpu1 * 1e9 / (double)((size_t)1 << x->log2n)),
                      BENCH_R(x->wall2 * 1e3), BENCH_R(x->speedup), BENCH_R(x->speedup_p10),
                      BENCH_R(x->speedup_p90), BENCH_R(x->ceiling), BENCH_R(x->of_ceiling),
                      BENCH_R(x->of_warm), BENCH_I(x->rss_kb),
                      BENCH_S(x->rss_row ? "row" : "process"));
        }
    bench_table_end(&t);
}

static void worth_table(mulred_json_writer *w, const msm_opts *o, const msm_results *r)
{
    bench_table t;
    bench_table_begin(&t, w, "worth", worth_columns, BENCH_NCOLS(worth_columns));
    for (int ci = o->c0; ci < o->c1; ci++)
        for (int i = 0; i < r->var_n[ci]; i++) {
            const bm_variant *v = &r->var[ci][i];
            BENCH_ROW(&t, BENCH_S(curves[ci].name), BENCH_S(curves[ci].group), BENCH_S(v->name),
                      BENCH_I(v->plan.window_bits), BENCH_I(v->plan.glv), BENCH_I(v->plan.queue),
                      BENCH_R(v->cpu * 1e3), BENCH_R(v->ratio), BENCH_R(v->ratio_p10),
                      BENCH_R(v->ratio_p90));
        }
    bench_table_end(&t);
}

/* The KZG commitment and the same-run baseline: records in their JSON objects, or tables. */
static void kzg_tables(mulred_json_writer *w, const msm_opts *o, const msm_results *r)
{
    const bm_kzg *k = &r->kzg;
    bench_table t;
    if (w) mulred_jw_object_begin(w, "kzg");
    if (w || k->ok) {
        if (!w)
            mulred_out("\nKZG commitment (EIP-4844, BLS12-381, 4096 elements, one thread; the "
                       "fixed-base table built with decode, tables and cache write; the plain "
                       "MSM: variable base)\n\n");
        bench_table_begin(&t, w, NULL, kzg_columns, BENCH_NCOLS(kzg_columns));
        BENCH_ROW(&t, BENCH_I(k->ok), k->note[0] ? BENCH_S(k->note) : BENCH_NONE,
                  BENCH_R(k->commit_ms), BENCH_R(k->commit_p10), BENCH_R(k->commit_p90),
                  BENCH_I(k->window_bits), BENCH_R(k->build_s), BENCH_R(k->load_s),
                  BENCH_I(k->plain_c), BENCH_R(k->plain_ms), BENCH_R(k->table_ratio));
        bench_table_end(&t);
    } else
        mulred_out("\nKZG: %s\n", k->note);
    if (w) mulred_jw_object_end(w);
    if (!r->anchor.ok) {
        if (o->anchors && !w)
            mulred_out("\nSame-run baseline: '%s --quick' gave no usable JSON\n", o->anchors);
        return;
    }
    double ours = NAN;
    for (int i = 0; i < r->nrows; i++)
        if (r->have[0][i] && r->rows[0][i].log2n == 16) ours = r->rows[0][i].cpu1 * 1e3;
    const double blst = r->anchor.blst_ms[16], ckzg = r->anchor.ckzg_ms;
    if (w)
        mulred_jw_object_begin(w, "anchors");
    else
        mulred_out("\nSame-run baseline (%s --quick)\n\n", o->anchors);
    bench_table_begin(&t, w, NULL, anchor_columns, BENCH_NCOLS(anchor_columns));
    BENCH_ROW(&t, BENCH_R(blst), BENCH_R(ours / blst), BENCH_R(ckzg),
              BENCH_R(ckzg && k->ok ? k->commit_ms / ckzg : NAN));
    bench_table_end(&t);
    if (w) mulred_jw_object_end(w);
}

static void print_results(const msm_opts *o, const msm_results *r)
{
    mulred_json_writer jw, *w = o->json ? &jw : NULL;
    if (w) {
        mulred_jw_init(w, stdout);
        mulred_jw_object_begin(w, NULL);
        mulred_jw_string(w, "cpu", mulred_cpu_describe());
        mulred_jw_int(w, "cpu_family", mulred_out_cpu_family());
        mulred_jw_string(w, "field_kernel", mulred_field_kernel_name());
        mulred_jw_double(w, "load_start", r->load0);
        mulred_jw_double(w, "load_end", r->load1);
    } else
        mulred_out("MSM on %s (cpu family %d: %s; field kernel %s; load %.2f at start, %.2f at "
                   "end)\n\n",
                   o->c0 == 0 && o->c1 == 4 ? "G1 and G2"
                   : o->c0 == 0             ? "G1"
                                            : "G2",
                   mulred_out_cpu_family(), mulred_cpu_describe(), mulred_field_kernel_name(),
                   r->load0, r->load1);
    rows_table(w, o, r);
    if (w)
        mulred_jw_int(w, "worth_log2n", (int)o->worth);
    else
        mulred_out("\nRSS of: row, the row's own peak; process, the process's peak so far (when "
                   "the kernel refused to reset the high-water mark)\n\n"
                   "What each technique is worth at 2^%d (one thread, thread CPU time, %d "
                   "interleaved rounds, G2 %d; ratio = variant / default plan, median and "
                   "p10-p90 of per-round ratios)\n\n",
                   (int)o->worth, r->var_reps,
                   (r->var_reps + 1) / 2 < 2 ? 2 : (r->var_reps + 1) / 2);
    worth_table(w, o, r);
    if (o->c0 == 0 || !w) kzg_tables(w, o, r); /* JSON: with G1 only */
    if (o->model) run_model(o->c0, o->c1, o->quick, w);
    if (w) {
        mulred_jw_double(w, "seconds", mulred_wtime() - r->t_start);
        mulred_jw_object_end(w);
        mulred_jw_finish(w);
    } else
        mulred_out("\n(%.0f s)\n", mulred_wtime() - r->t_start);
}

mulred_exit mulred_bench_msm(int argc, char **argv)
{
    msm_opts o = {10,   20,    16,    0,    0, NCURVES, "tests/vectors/kzg/trusted_setup.txt",
                  NULL, false, false, false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    if (bench_options("msm", &(const mulred_key_table){msm_keys, BENCH_NCOLS(msm_keys), &o}, argc,
                      argv, usage, &p, &rc)) {
        if (o.quick && o.max > 16) o.max = 16;
        if (o.min > o.max) rc = mulred_out_usage_error("bench msm", "--min above --max");
    } else if (rc == MULRED_OK)
        rc = -1; /* --help: done */
    static msm_results r;
    if (rc == MULRED_OK) {
        r.row_reps = o.reps ? (int)o.reps : o.quick ? 3 : 7;
        r.var_reps = o.reps ? (int)o.reps : o.quick ? 5 : 11;
        r.load0 = mulred_out_load_average();
        r.t_start = mulred_wtime();
        rc = measure_rows(&r, &o);
    }
    if (rc == MULRED_OK) rc = measure_worth(&r, &o);
    if (rc == MULRED_OK) {
        if (o.c0 == 0)
            run_kzg(&r.kzg, o.setup, o.quick ? 11 : 21);
        else
            snprintf(r.kzg.note, sizeof r.kzg.note, "skipped (G2 only)");
        if (o.anchors && o.c0 == 0) run_anchors(&r.anchor, o.anchors);
        r.load1 = mulred_out_load_average();
        print_results(&o, &r);
    }
    mulred_key_parser_free(&p);
    return rc < 0 ? MULRED_OK : rc;
}

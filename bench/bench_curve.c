/* mulred bench curve: per-operation medians on one thread for the fields and G1 of BLS12-381
 * and BN254 (thread CPU time, medians of batches), measured in one run so that the ratios
 * between paths mean something on a noisy machine: the field multiply on each kernel
 * (portable, MULX), the curve additions in each coordinate system, the batch-affine addition
 * per pair for batches of 64 to 1024 (accumulators scattered over a bucket array, as in the
 * MSM), scalar multiplication with and without GLV, the subgroup check and decoding.
 *
 * The 8-lane rows (fp_mul_x8_ns and friends, per element) come from bench_field_x8_rows
 * (bench/bench_field_x8.c); they print as n/a (JSON null) on a CPU without AVX-512 IFMA. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "field/field_internal.h"
#include "field/field_x8.h"
#include "mulred/curve.h"
#include "mulred/field.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

enum { NBATCH = 5 };
static const int batch_sizes[NBATCH] = {64, 128, 256, 512, 1024};

typedef struct {
    double fp_mul, fp_mul_portable, fp_mul_mulx, fp_sqr, fp_add, fp_inv, fp_inv_fermat, fp_sqrt;
    double fr_mul;
    double add_jacobian, add_mixed, add_mixed_jacobian, add_xyzz, dbl, dbl_xyzz;
    double batch[NBATCH];    /* the pairs batch on the scalar field kernels */
    double batch_x8[NBATCH]; /* and on the 8-lane ones (have_x8) */
    double mul_glv, mul_wnaf, subgroup, on_curve, decompress, decompress_nocheck, decode;
    bench_x8_rows x8;
    int have_x8;
} curve_rows;

/* Deterministic inputs: a fixed xorshift stream (the values only need to be typical). */
static uint64_t bench_rng = 0x9e3779b97f4a7c15ull;
static uint64_t bench_rand(void)
{
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 7;
    bench_rng ^= bench_rng << 17;
    return bench_rng;
}

/* One instance per curve: G (g1_381), F (fp381), R (fr381), N limbs. */
#define BENCH_CURVE(G, F, R, N)                                                                    \
    typedef struct {                                                                               \
        mulred_##F a, b, c;                                                                        \
        mulred_##R ra, rb;                                                                         \
        mulred_##G##_affine pa, pb;                                                                \
        mulred_##G##_jacobian ja, jb;                                                              \
        mulred_##G##_xyzz xa, xb;                                                                  \
        uint64_t k[4];                                                                             \
        uint8_t enc[128];                                                                          \
        /* batch-affine: a bucket array, a point stream, pointer arrays, scratch */                \
        mulred_##G##_affine *buckets, *points;                                                     \
        mulred_##G##_affine_pair *pairs;                                                           \
        uint32_t *order; /* a random permutation of the buckets: windows of it are distinct */     \
        void *scratch;                                                                             \
        size_t nbuckets, npoints, next, batch;                                                     \
        mulred_lanes lanes;                                                                        \
    } G##_arg;                                                                                     \
    static void G##_op_fp_mul(void *v)                                                             \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##F##_mul(&o->a, &o->a, &o->b);                                                     \
    }                                                                                              \
    static void G##_op_fp_sqr(void *v)                                                             \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##F##_sqr(&o->a, &o->a);                                                            \
    }                                                                                              \
    static void G##_op_fp_add(void *v)                                                             \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##F##_add(&o->a, &o->a, &o->b);                                                     \
    }                                                                                              \
    static void G##_op_fp_inv(void *v)                                                             \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##F##_inv_var(&o->a, &o->a);                                                        \
    }                                                                                              \
    static void G##_op_fp_inv_fermat(void *v)                                                      \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##F##_inv(&o->a, &o->a);                                                            \
    }                                                                                              \
    static void G##_op_fp_sqrt(void *v)                                                            \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##F##_sqrt(&o->c, &o->a);                                                           \
        mulred_##F##_add(&o->a, &o->a, &o->b);                                                     \
    }                                                                                              \
    static void G##_op_fr_mul(void *v)                                                             \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##R##_mul(&o->ra, &o->ra, &o->rb);                                                  \
    }                                                                                              \
    static void G##_op_add_jac(void *v)                                                            \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##G##_jacobian_add(&o->ja, &o->ja, &o->jb);                                         \
    }                                                                                              \
    static void G##_op_add_mixed(void *v)                                                          \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##G##_xyzz_add_affine(&o->xa, &o->xa, &o->pb);                                      \
    }                                                                                              \
    static void G##_op_add_mixed_jac(void *v)                                                      \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##G##_jacobian_add_affine(&o->ja, &o->ja, &o->pb);                                  \
    }                                                                                              \
    static void G##_op_add_xyzz(void *v)                                                           \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##G##_xyzz_add(&o->xa, &o->xa, &o->xb);                                             \
    }                                                                                              \
    static void G##_op_dbl(void *v)                                                                \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##G##_jacobian_double(&o->ja, &o->ja);                                              \
    }                                                                                              \
    static void G##_op_dbl_xyzz(void *v)                                                           \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        mulred_##G##_xyzz_double(&o->xa, &o->xa);                                                  \
    }                                                                                              \
    static void G##_op_mul_glv(void *v)                                                            \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        o->k[0] ^= bench_rand();                                                                   \
        mulred_##G##_jacobian_mul_glv_var(&o->jb, &o->ja, o->k);                                   \
    }                                                                                              \
    static void G##_op_mul_wnaf(void *v)                                                           \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        o->k[0] ^= bench_rand();                                                                   \
        mulred_##G##_jacobian_mul_var(&o->jb, &o->ja, o->k);                                       \
    }                                                                                              \
    static void G##_op_subgroup(void *v)                                                           \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        if (!mulred_##G##_affine_in_g1_var(&o->pa)) abort();                                       \
    }                                                                                              \
    static void G##_op_on_curve(void *v)                                                           \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        if (!mulred_##G##_affine_is_on_curve(&o->pa)) abort();                                     \
    }                                                                                              \
    /* n pairs: the next n buckets of a random permutation (distinct within a batch, as the        \
     * MSM's collision queue guarantees), the next n points of the stream */                       \
    static void G##_op_batch(void *v)                                                              \
    {                                                                                              \
        G##_arg *o = v;                                                                            \
        const size_t n = o->batch;                                                                 \
        if (o->next + n > o->npoints) o->next = 0;                                                 \
        for (size_t i = 0; i < n; i++)                                                             \
            o->pairs[i] = (mulred_##G##_affine_pair){&o->buckets[o->order[o->next + i]],           \
                                                     &o->points[o->next + i], 0};                  \
        o->next += n;                                                                              \
        mulred_##G##_batch_add_pairs_var(o->pairs, n, o->lanes, o->scratch);                       \
    }                                                                                              \
    /* n points k·G for random k: the stream of the batch bench */                                \
    static void G##_random_points(mulred_##G##_affine *out, size_t n,                              \
                                  const mulred_##G##_affine *g)                                    \
    {                                                                                              \
        mulred_##G##_jacobian *j = malloc(n * sizeof *j), jg;                                      \
        void *s = malloc(mulred_##G##_batch_to_affine_scratch_size(n));                            \
        if (!j || !s) abort();                                                                     \
        mulred_##G##_jacobian_from_affine(&jg, g);                                                 \
        mulred_##G##_jacobian_mul_glv_var(&j[0], &jg, (uint64_t[4]){bench_rand(), bench_rand()});  \
        for (size_t i = 1; i < n; i++) { /* a random walk: j[i] = j[i−1] + 2^k·G */             \
            if (i % 64 == 0) {                                                                     \
                uint64_t k[4] = {bench_rand(), bench_rand(), bench_rand(), bench_rand() >> 3};     \
                mulred_##G##_jacobian_mul_glv_var(&jg, &jg, k);                                    \
            }                                                                                      \
            mulred_##G##_jacobian_add(&j[i], &j[i - 1], &jg);                                      \
        }                                                                                          \
        mulred_##G##_jacobian_batch_to_affine_var(out, j, n, s);                                   \
        free(j);                                                                                   \
        free(s);                                                                                   \
    }                                                                                              \
    /* pb = 5·G, ja = 7·G, xa = 2·G and xb = 10·G in XYZZ form (ZZ ≠ 1) */                   \
    static void G##_setup_points(G##_arg *o)                                                       \
    {                                                                                              \
        mulred_##G##_jacobian g;                                                                   \
        mulred_##G##_jacobian_from_affine(&g, &o->pa);                                             \
        mulred_##G##_jacobian_mul_var(&o->jb, &g, (uint64_t[4]){5});                               \
        mulred_##G##_jacobian_to_affine(&o->pb, &o->jb);                                           \
        mulred_##G##_jacobian_mul_var(&o->ja, &g, (uint64_t[4]){7});                               \
        mulred_##G##_xyzz_from_affine(&o->xa, &o->pa);                                             \
        mulred_##G##_xyzz_double(&o->xa, &o->xa);                                                  \
        mulred_##G##_xyzz_from_affine(&o->xb, &o->pb);                                             \
        mulred_##G##_xyzz_double(&o->xb, &o->xb);                                                  \
    }                                                                                              \
    static void G##_measure_decode(curve_rows *r, G##_arg *o, int samples);                        \
    static int G##_measure(curve_rows *r, int quick)                                               \
    {                                                                                              \
        const int S = quick ? 7 : 21;                                                              \
        G##_arg *o = calloc(1, sizeof *o);                                                         \
        if (!o) return -1;                                                                         \
        for (int i = 0; i < N; i++) o->a.l[i] = bench_rand(), o->b.l[i] = bench_rand();            \
        o->a.l[N - 1] >>= 4, o->b.l[N - 1] >>= 4; /* below p */                                    \
        for (int i = 0; i < 4; i++) o->ra.l[i] = bench_rand(), o->rb.l[i] = bench_rand();          \
        o->ra.l[3] >>= 4, o->rb.l[3] >>= 4;                                                        \
        for (int i = 0; i < 4; i++) o->k[i] = bench_rand();                                        \
        o->k[3] >>= 1; /* 255-bit scalars */                                                       \
        mulred_##G##_generator(&o->pa);                                                            \
        G##_setup_points(o);                                                                       \
        const char *def = mulred_field_kernel_name();                                              \
        mulred_field_kernel_force("portable");                                                     \
        r->fp_mul_portable = bench_median_ns(G##_op_fp_mul, o, 20000, S);                          \
        r->fp_mul_mulx = 0;                                                                        \
        if (mulred_field_kernel_force("mulx") == 0)                                                \
            r->fp_mul_mulx = bench_median_ns(G##_op_fp_mul, o, 20000, S);                          \
        mulred_field_kernel_force(def);                                                            \
        r->fp_mul = bench_median_ns(G##_op_fp_mul, o, 20000, S);                                   \
        r->fp_sqr = bench_median_ns(G##_op_fp_sqr, o, 20000, S);                                   \
        r->fp_add = bench_median_ns(G##_op_fp_add, o, 50000, S);                                   \
        r->fp_inv = bench_median_ns(G##_op_fp_inv, o, 500, S);                                     \
        r->fp_inv_fermat = bench_median_ns(G##_op_fp_inv_fermat, o, 40, S);                        \
        r->fp_sqrt = bench_median_ns(G##_op_fp_sqrt, o, 40, S);                                    \
        r->fr_mul = bench_median_ns(G##_op_fr_mul, o, 20000, S);                                   \
        r->add_jacobian = bench_median_ns(G##_op_add_jac, o, 2000, S);                             \
        r->add_mixed = bench_median_ns(G##_op_add_mixed, o, 2000, S);                              \
        r->add_mixed_jacobian = bench_median_ns(G##_op_add_mixed_jac, o, 2000, S);                 \
        r->add_xyzz = bench_median_ns(G##_op_add_xyzz, o, 2000, S);                                \
        r->dbl = bench_median_ns(G##_op_dbl, o, 2000, S);                                          \
        r->dbl_xyzz = bench_median_ns(G##_op_dbl_xyzz, o, 2000, S);                                \
        r->mul_glv = bench_median_ns(G##_op_mul_glv, o, 10, S);                                    \
        r->mul_wnaf = bench_median_ns(G##_op_mul_wnaf, o, 10, S);                                  \
        r->subgroup = bench_median_ns(G##_op_subgroup, o, 20, S);                                  \
        r->on_curve = bench_median_ns(G##_op_on_curve, o, 5000, S);                                \
        G##_measure_decode(r, o, S);                                                               \
        /* batch-affine: 2^14 buckets (1.5 MB for BLS12-381, 1 MB for BN254), 2^14 points */       \
        o->nbuckets = 1u << 14;                                                                    \
        o->npoints = 1u << 14;                                                                     \
        o->buckets = malloc(o->nbuckets * sizeof *o->buckets);                                     \
        o->points = malloc(o->npoints * sizeof *o->points);                                        \
        o->pairs = malloc(1024 * sizeof *o->pairs);                                                \
        o->scratch = malloc(mulred_##G##_batch_add_pairs_scratch_size(1024));                      \
        o->order = malloc(o->npoints * sizeof *o->order);                                          \
        if (!o->buckets || !o->points || !o->pairs || !o->scratch || !o->order) return -1;         \
        for (size_t i = 0; i < o->npoints; i++) o->order[i] = (uint32_t)(i % o->nbuckets);         \
        for (size_t i = o->npoints; i > 1; i--) { /* Fisher–Yates */                             \
            const size_t j = bench_rand() % i;                                                     \
            const uint32_t t = o->order[i - 1];                                                    \
            o->order[i - 1] = o->order[j], o->order[j] = t;                                        \
        }                                                                                          \
        G##_random_points(o->buckets, o->nbuckets, &o->pa);                                        \
        G##_random_points(o->points, o->npoints, &o->pb);                                          \
        for (int b = 0; b < NBATCH; b++) {                                                         \
            o->batch = (size_t)batch_sizes[b];                                                     \
            const int reps = 4096 / batch_sizes[b] + 1;                                            \
            o->lanes = MULRED_LANES_SCALAR;                                                        \
            r->batch[b] = bench_median_ns(G##_op_batch, o, reps, S) / batch_sizes[b];              \
            r->batch_x8[b] = 0;                                                                    \
            if (mulred_fieldx8_have_ifma()) {                                                      \
                o->lanes = MULRED_LANES_X8;                                                        \
                r->batch_x8[b] = bench_median_ns(G##_op_batch, o, reps, S) / batch_sizes[b];       \
            }                                                                                      \
        }                                                                                          \
        free(o->buckets), free(o->points), free(o->pairs), free(o->scratch);                       \
        free(o->order);                                                                            \
        free(o);                                                                                   \
        return 0;                                                                                  \
    }

BENCH_CURVE(g1_381, fp381, fr381, 6)
BENCH_CURVE(g1_254, fp254, fr254, 4)

static void g1_381_op_decompress(void *v)
{
    g1_381_arg *o = v;
    mulred_g1_381_affine p;
    if (mulred_g1_381_decode_compressed(&p, o->enc, 0, NULL) != MULRED_OK) abort();
}
static void g1_381_op_decompress_nocheck(void *v)
{
    g1_381_arg *o = v;
    mulred_g1_381_affine p;
    if (mulred_g1_381_decode_compressed(&p, o->enc, MULRED_DECODE_SKIP_SUBGROUP_CHECK, NULL) !=
        MULRED_OK)
        abort();
}
static void g1_381_op_decode(void *v)
{
    g1_381_arg *o = v;
    mulred_g1_381_affine p;
    if (mulred_g1_381_decode_eip2537(&p, o->enc, 0, NULL) != MULRED_OK) abort();
}
static void g1_381_measure_decode(curve_rows *r, g1_381_arg *o, int samples)
{
    mulred_g1_381_encode_compressed(o->enc, &o->pb);
    r->decompress = bench_median_ns(g1_381_op_decompress, o, 20, samples);
    r->decompress_nocheck = bench_median_ns(g1_381_op_decompress_nocheck, o, 40, samples);
    mulred_g1_381_encode_eip2537(o->enc, &o->pb);
    r->decode = bench_median_ns(g1_381_op_decode, o, 20, samples);
}

static void g1_254_op_decode(void *v)
{
    g1_254_arg *o = v;
    mulred_g1_254_affine p;
    if (mulred_g1_254_decode_eip196(&p, o->enc, 0, NULL) != MULRED_OK) abort();
}
/* BN254 has no compressed encoding in mulred (EIP-196 is uncompressed): the row times what a
 * decompression does, y from x (x³ + 3, a square root, the sign), on the same point */
static void g1_254_op_recover_y(void *v)
{
    g1_254_arg *o = v;
    mulred_fp254 rhs, three, y;
    mulred_fp254_sqr(&rhs, &o->pb.x);
    mulred_fp254_mul(&rhs, &rhs, &o->pb.x);
    mulred_fp254_set_u64(&three, 3);
    mulred_fp254_add(&rhs, &rhs, &three);
    if (!mulred_fp254_sqrt(&y, &rhs)) abort();
    if (mulred_fp254_is_odd(&y) != mulred_fp254_is_odd(&o->pb.y)) mulred_fp254_neg(&y, &y);
    if (!mulred_fp254_equal(&y, &o->pb.y)) abort();
}
static void g1_254_measure_decode(curve_rows *r, g1_254_arg *o, int samples)
{
    mulred_g1_254_encode_eip196(o->enc, &o->pb);
    r->decompress = r->decompress_nocheck = bench_median_ns(g1_254_op_recover_y, o, 40, samples);
    r->decode = bench_median_ns(g1_254_op_decode, o, 2000, samples);
}

static void bench_curve_usage(void)
{
    mulred_out("Usage: mulred bench curve [--quick] [--json]\n"
               "\n"
               "Per-operation medians on one thread (thread CPU time), BLS12-381 and BN254:\n"
               "Fp multiply on every kernel this CPU runs (portable, MULX) and the one in use,\n"
               "square, add, inverse (divsteps; Fermat), sqrt; Fr multiply; G1 Jacobian add,\n"
               "XYZZ + affine (mixed) add, Jacobian + affine add, XYZZ add, doublings; the\n"
               "batch-affine addition per pair for batches of 64..1024 (accumulators scattered\n"
               "over 2^14 buckets, points streamed, as in the MSM); 255-bit scalar multiplication\n"
               "with GLV and without; the subgroup check; decoding (BLS12-381: compressed with\n"
               "and without the subgroup check, EIP-2537; BN254: y from x as a decompression\n"
               "would, EIP-196). Ratios are within this run. 8-lane (AVX-512 IFMA) rows appear\n"
               "when those kernels are built in.\n"
               "  --quick   7 samples per row instead of 21\n"
               "  --json    one JSON object, nested by curve, units in the names\n");
}

/* A row of bench_op_columns (key NULL: printed only), with the ratio ns / of printed as
 * "R x what" when what is non-NULL, of positive and ns measured. */
static void op_row(bench_table *t, const char *key, const char *label, double ns, double of,
                   const char *what)
{
    bench_op_row(t, key, label, ns, of > 0 && ns == ns ? ns / of : NAN, what);
}

/* The field rows (the 8-lane ones NaN without IFMA). */
static void field_rows(bench_table *t, const curve_rows *r)
{
    op_row(t, "fp_mul_portable_ns", "fp mul, portable kernel", r->fp_mul_portable, 0, NULL);
    op_row(t, "fp_mul_mulx_ns", "fp mul, MULX kernel", r->fp_mul_mulx ? r->fp_mul_mulx : NAN,
           r->fp_mul_portable, "portable");
    op_row(t, "fp_mul_ns", "fp mul (kernel in use)", r->fp_mul, 0, NULL);
    op_row(t, "fp_sqr_ns", "fp sqr", r->fp_sqr, r->fp_mul, "mul");
    op_row(t, "fp_add_ns", "fp add", r->fp_add, r->fp_mul, "mul");
    const double x8[3] = {r->x8.fp_mul_x8_ns, r->x8.fp_sqr_x8_ns, r->x8.fp_add_x8_ns};
    static const char *const x8_keys[3] = {"fp_mul_x8_ns", "fp_sqr_x8_ns", "fp_add_x8_ns"};
    static const char *const x8_labels[3] = {"fp mul, 8 lanes, per element",
                                             "fp sqr, 8 lanes, per element",
                                             "fp add, 8 lanes, per element"};
    for (int i = 0; i < 3; i++)
        if (r->have_x8)
            op_row(t, x8_keys[i], x8_labels[i], x8[i], r->fp_mul, "scalar mul");
        else
            BENCH_ROW(t, BENCH_S(x8_keys[i]), BENCH_S(x8_labels[i]), BENCH_R(NAN),
                      BENCH_S("CPU lacks AVX-512 IFMA"));
    op_row(t, "fp_inv_ns", "fp inverse (divsteps, variable time)", r->fp_inv, r->fp_mul, "mul");
    op_row(t, "fp_inv_fermat_ns", "fp inverse (Fermat)", r->fp_inv_fermat, r->fp_inv, "divsteps");
    op_row(t, "fp_sqrt_ns", "fp sqrt", r->fp_sqrt, r->fp_mul, "mul");
    op_row(t, "fr_mul_ns", "fr mul", r->fr_mul, 0, NULL);
}

/* The G1 rows; the batch-affine rows by batch (named: the largest batch of each path). */
static void g1_rows(bench_table *t, const curve_rows *r, int bls)
{
    op_row(t, "g1_add_jacobian_ns", "G1 add, Jacobian", r->add_jacobian, r->fp_mul, "mul");
    op_row(t, "g1_add_mixed_ns", "G1 add, XYZZ + affine (mixed)", r->add_mixed, r->fp_mul, "mul");
    op_row(t, "g1_add_mixed_jacobian_ns", "G1 add, Jacobian + affine", r->add_mixed_jacobian,
           r->fp_mul, "mul");
    op_row(t, "g1_add_xyzz_ns", "G1 add, XYZZ + XYZZ (incl. one XYZZ double)", r->add_xyzz, 0,
           NULL);
    op_row(t, "g1_double_ns", "G1 double, Jacobian", r->dbl, r->fp_mul, "mul");
    op_row(t, "g1_double_xyzz_ns", "G1 double, XYZZ", r->dbl_xyzz, r->fp_mul, "mul");
    char label[64];
    for (int b = 0; b < NBATCH; b++) {
        snprintf(label, sizeof label, "G1 batch-affine add per pair, batch %d", batch_sizes[b]);
        op_row(t, b == NBATCH - 1 ? "g1_add_batch_affine_scalar_ns" : NULL, label, r->batch[b],
               r->add_mixed, "mixed add");
    }
    for (int b = 0; b < NBATCH; b++) {
        snprintf(label, sizeof label, "G1 batch-affine add per pair, 8 lanes, %d", batch_sizes[b]);
        const char *key = b == NBATCH - 1 ? "g1_add_batch_affine_x8_ns" : NULL;
        if (r->batch_x8[b] > 0)
            op_row(t, key, label, r->batch_x8[b], r->batch[b], "scalar path");
        else
            BENCH_ROW(t, key ? BENCH_S(key) : BENCH_NONE, BENCH_S(label), BENCH_R(NAN),
                      BENCH_S("CPU lacks AVX-512 IFMA"));
    }
    op_row(t, "g1_mul_ns", "G1 scalar mul, 255-bit, GLV + wNAF", r->mul_glv, r->mul_wnaf, "wNAF");
    op_row(t, "g1_mul_wnaf_ns", "G1 scalar mul, 255-bit, wNAF (no GLV)", r->mul_wnaf, 0, NULL);
    if (bls)
        op_row(t, "g1_subgroup_check_ns", "G1 subgroup check (endomorphism)", r->subgroup,
               r->mul_glv, "scalar mul");
    else
        op_row(t, "g1_subgroup_check_ns", "G1 subgroup check (cofactor 1: none needed)",
               r->subgroup, 0, NULL);
    op_row(t, "g1_on_curve_ns", "G1 on-curve check", r->on_curve, 0, NULL);
    if (bls) {
        op_row(t, "g1_decompress_ns", "G1 decompress (ZCash), with subgroup check", r->decompress,
               0, NULL);
        op_row(t, "g1_decompress_no_subgroup_ns", "G1 decompress (ZCash), no subgroup check",
               r->decompress_nocheck, 0, NULL);
        op_row(t, "g1_decode_eip2537_ns", "G1 decode EIP-2537 (128 B), all checks", r->decode, 0,
               NULL);
    } else { /* y from x: sqrt and sign */
        op_row(t, "g1_decompress_ns", "G1 decompress-equivalent: y from x (sqrt)", r->decompress, 0,
               NULL);
        op_row(t, "g1_decode_eip196_ns", "G1 decode EIP-196 (64 B), all checks", r->decode, 0,
               NULL);
    }
}

/* One curve: its JSON object (name) with the path the MSM takes on this CPU (8 lanes where
 * there are) by batch, or its Markdown table under title. */
static void print_curve(mulred_json_writer *w, const char *name, const char *title,
                        const curve_rows *r, int bls)
{
    if (w)
        mulred_jw_object_begin(w, name);
    else
        mulred_out("\n%s\n\n", title);
    bench_table t;
    bench_table_begin(&t, w, NULL, bench_op_columns, BENCH_NCOLS(bench_op_columns));
    field_rows(&t, r);
    g1_rows(&t, r, bls);
    bench_table_end(&t);
    if (!w) return;
    const double *in_use = r->batch_x8[NBATCH - 1] > 0 ? r->batch_x8 : r->batch;
    mulred_jw_double(w, "g1_add_batch_affine_ns", in_use[NBATCH - 1]);
    mulred_jw_object_begin(w, "g1_add_batch_affine_ns_by_batch");
    for (int b = 0; b < NBATCH; b++) {
        char key[16];
        snprintf(key, sizeof key, "%d", batch_sizes[b]);
        mulred_jw_double(w, key, in_use[b]);
    }
    mulred_jw_object_end(w);
    mulred_jw_object_end(w);
}

typedef struct {
    bool json, quick;
} curve_opts;

MULRED_KEY_FLAG(set_json, curve_opts, json)
MULRED_KEY_FLAG(set_quick, curve_opts, quick)

static const mulred_key curve_keys[] = {
    {"json", true, false, false, set_json},
    {"quick", true, false, false, set_quick},
};

mulred_exit mulred_bench_curve(int argc, char **argv)
{
    curve_opts o = {false, false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    const bool run = bench_options(
        "curve",
        &(const mulred_key_table){curve_keys, sizeof curve_keys / sizeof curve_keys[0], &o}, argc,
        argv, bench_curve_usage, &p, &rc);
    mulred_key_parser_free(&p);
    if (!run) return rc;
    curve_rows rows[2];
    memset(rows, 0, sizeof rows);
    if (g1_381_measure(&rows[0], o.quick) || g1_254_measure(&rows[1], o.quick))
        return MULRED_ERUNTIME;
    for (int i = 0; i < 2; i++) rows[i].have_x8 = bench_field_x8_rows(i, &rows[i].x8) == 0;
    mulred_json_writer jw, *w = o.json ? &jw : NULL;
    if (w) {
        mulred_jw_init(w, stdout);
        mulred_jw_object_begin(w, NULL);
        mulred_jw_string(w, "cpu", mulred_cpu_describe());
        mulred_jw_string(w, "field_kernel", mulred_field_kernel_name());
        mulred_jw_string(w, "clock", "thread CPU time, median per operation");
    } else
        mulred_out("Fields and G1, one thread, medians of thread CPU time (%d samples per row); "
                   "field\nkernel in use: %s; cpu: %s\n",
                   o.quick ? 7 : 21, mulred_field_kernel_name(), mulred_cpu_describe());
    print_curve(w, "bls12_381", "BLS12-381 (Fp 381 bits, 6 limbs)", &rows[0], 1);
    print_curve(w, "bn254", "BN254 (Fp 254 bits, 4 limbs)", &rows[1], 0);
    if (w) {
        mulred_jw_object_end(w);
        mulred_jw_finish(w);
    }
    return MULRED_OK;
}

/* Multi-scalar multiplication on G1 (and G2, section below) of BLS12-381 and BN254: R = Σ sᵢ·Pᵢ.
 *
 * VARIABLE TIME. Every function here branches on the scalars and on the points (bucket
 * indices are scalar digits; memory is addressed by them): use it on public data only (KZG
 * commitments, provers' public inputs, verification), never on secret scalars.
 *
 * Inputs
 *   points   mulred_G_affine (include/mulred/curve.h): Montgomery coordinates, fully reduced;
 *            the point at infinity is (0, 0) and is allowed anywhere. Points must be in G1,
 *            the subgroup of order r (unchecked: validate outside data with the curve layer
 *            first). For other points of the curve the result is unspecified but memory-safe
 *            (the GLV endomorphism acts as λ only on G1).
 *   scalars  mulred_scalar256: any 256-bit integer, 4 little-endian 64-bit limbs, NOT
 *            Montgomery; r, the group order (fr381's or fr254's modulus), need not divide it
 *            out: the MSM computes Σ (sᵢ mod r)·Pᵢ = Σ sᵢ·Pᵢ.
 *   G is g1_381 or g1_254: every function below exists for both (one declaration per curve,
 *   grouped by function, the contract above each group).
 *
 * Method (Pippenger with signed digits; src/msm/msm_impl.h has the design and its costs)
 *   A plan fixes the window width c (1..22), the number of windows W and the bucket form.
 *   Each scalar is first recoded (reduced mod r, and with GLV split into two halves of about
 *   128 bits; a fixed-base plan without GLV folds k > (r − 1)/2 to r − k on −Pᵢ, one bit
 *   fewer); a recoded scalar k of b bits (b = plan.scalar_bits, k < 2^b) is read as W =
 *   floor(b/c) + 1 signed Booth digits, window w being
 *       d_w = v_w + k_(cw−1) − 2^c·k_(cw+c−1),   v_w = bits [cw, cw + c) of k, k_(−1) = 0,
 *   so d_w ∈ [−2^(c−1), 2^(c−1)] and k = Σ_w d_w·2^(cw). Each digit depends only on c + 1 bits
 *   of k: there is no carry chain between windows, so any window range can be computed on its
 *   own from the recoded scalars alone (the top window's digit is never negative because
 *   k < 2^b <= 2^(cW−1): the carry out of the last window is always 0).
 *   The digit d of window w sends ±Pᵢ to bucket |d| (buckets 1..2^(c−1)); a window's sum is
 *   Σ_j j·B_j by running sums; R = Σ_w 2^(cw)·S_w.
 *
 * Tiles: the unit of threads, ranks and checkpoints
 *   A tile is (point range) × (window range [window0, window1)) × (bucket range: digit
 *   magnitudes in [bucket0 + 1, bucket1]). Its result, a Jacobian point, is
 *       T = Σ_{w = window0}^{window1 − 1} 2^(c·(w − window0)) · Σ_i Σ_{d = d_(i,w), bucket0 < |d|
 * <= bucket1} d·Pᵢ (with GLV both halves of every scalar, on Pᵢ and on φ(Pᵢ)). The caller
 * multiplies T by 2^(c·window0) (mulred_G_msm_shift) and adds tile results: the full MSM is the sum
 * over a partition of points × windows × buckets. Tiles over disjoint ranges are independent;
 *   threads add their results in a fixed order, so the result never depends on scheduling.
 *
 * Memory: kernels allocate nothing; they take caller scratch sized by a _scratch_size query
 * (8-byte alignment suffices; 64 is faster). The scratch of a tile depends on the plan only
 * (2^(c−1) buckets and one batch), not on the number of points. Only the recoded scalars
 * (32 bytes per point) grow with n.
 * Aliasing: outputs must not overlap inputs unless stated.
 * Misuse (a plan not made by mulred_G_msm_plan, a tile outside the plan, n above 2^32 − 1 per
 * tile) calls the misuse callback (mulred/common.h); if it returns, the function returns
 * (MULRED_EMISUSE where it returns a status, 0 for sizes) with its outputs unspecified. No
 * function here fails on data. */
#ifndef MULRED_MSM_H
#define MULRED_MSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/common.h"
#include "mulred/curve.h"
#include "mulred/group.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A 256-bit integer: l[0] least significant. Not reduced, not Montgomery. */
typedef struct {
    uint64_t l[4];
} mulred_scalar256;

/* A recoded scalar (mulred_G_msm_recode): private layout, 32 bytes, valid only with the plan
 * (curve, GLV choice) it was made for. */
typedef struct {
    uint64_t l[4];
} mulred_msm_rscalar;

/* How buckets accumulate points. */
typedef enum {
    MULRED_MSM_BUCKETS_AUTO = 0,
    /* XYZZ buckets, one mixed addition per point (8M + 2S): no batching, best for small c. */
    MULRED_MSM_BUCKETS_XYZZ = 1,
    /* Affine buckets added in batches sharing one inversion (about 6M per point); a point whose
     * bucket is already in the current batch waits in the collision queue; when the queue is
     * full it goes to an XYZZ side bucket instead. Best for large c. */
    MULRED_MSM_BUCKETS_AFFINE = 2,
} mulred_msm_buckets;

/* Field arithmetic of the batch additions: the curve layer's mulred_lanes (curve.h). */
typedef mulred_lanes mulred_msm_lanes;
#define MULRED_MSM_LANES_AUTO   MULRED_LANES_AUTO
#define MULRED_MSM_LANES_SCALAR MULRED_LANES_SCALAR
#define MULRED_MSM_LANES_X8     MULRED_LANES_X8

/* Choices a caller may force (benchmarks, tests); zero-initialised = every choice automatic.
 * Negative or zero fields mean "automatic". */
typedef struct {
    int window_bits; /* c in 1..22; 0 = cost model (which stays within 1..16) */
    int glv;         /* 1 = on, -1 = off, 0 = automatic */
    mulred_msm_buckets buckets;
    mulred_msm_lanes lanes;
    int batch; /* pairs per batch-affine batch (8..4096); 0 = automatic */
    int queue; /* collision-queue depth (0..4096); -1 = none (every collision
                * goes to an XYZZ side bucket); 0 = automatic (the batch) */
} mulred_msm_options;

/* A plan: every choice fixed. Plain data; build it with mulred_G_msm_plan. */
typedef struct {
    uint32_t magic;                 /* identifies the curve; checked by every function */
    unsigned window_bits;           /* c */
    unsigned windows;               /* W = floor(scalar_bits / c) + 1 */
    unsigned buckets;               /* 2^(c−1): bucket magnitudes 1..buckets */
    unsigned scalar_bits;           /* recoded scalars are < 2^scalar_bits */
    bool glv;                       /* recoded scalars are GLV halves (points Pᵢ and φ(Pᵢ)) */
    bool fixed;                     /* a fixed-base plan (mulred_G_msm_fixed_plan) */
    mulred_msm_buckets bucket_form; /* XYZZ or AFFINE */
    mulred_msm_lanes lanes;         /* SCALAR or X8 */
    unsigned batch, queue;          /* batch-affine parameters (queue 0 = none) */
    unsigned group;                 /* windows accumulated side by side in one pass */
} mulred_msm_plan;

/* The cost model's constants: nanoseconds per operation of one thread ([0] scalar kernels,
 * [1] 8-lane). The plan's modelled time is linear in them, so a caller can fit them to measured
 * MSM times (mulred bench msm --model does) with mulred_G_msm_cost_with. */
typedef struct {
    double scan;        /* a digit read and scheduled (each window and bucket range) */
    double window;      /* fixed per window and bucket range */
    double dbl;         /* a Jacobian doubling (c per window) */
    double xyzz_add;    /* an XYZZ mixed addition (accumulation, side buckets) */
    double xyzz_full;   /* an XYZZ full addition (running sums) */
    double aff_add[2];  /* a batch-affine pair without its share of the inversion */
    double inv[2];      /* one batch inversion */
    double glv_pair[2]; /* what a GLV plan adds to each of its batch-affine pairs (φ) */
} mulred_msm_cost;

/* A tile (see the header comment). bucket1 = 0 means all buckets (bucket0 ignored). */
typedef struct {
    unsigned window0, window1; /* 0 <= window0 < window1 <= plan.windows */
    unsigned bucket0, bucket1; /* 0 <= bucket0 < bucket1 <= plan.buckets, or bucket1 = 0 */
} mulred_msm_tile;

/* The plan for an MSM of n points (n = the points one tile set covers: for a distributed MSM,
 * the points of one slice). opts may be NULL (all automatic). Forced choices are honoured when
 * valid and are misuse otherwise (X8 lanes on a CPU without IFMA, c outside 1..22). The
 * automatic window width minimises the cost model below. Automatic choices depend on the CPU
 * (8-lane kernels or not): the ranks of one distributed MSM must share one plan (make it once
 * and send it, or force window_bits and glv), since recoded scalars and tiles are only
 * meaningful under the plan that made them. */
MULRED_API void mulred_g1_381_msm_plan(mulred_msm_plan *plan, size_t n,
                                       const mulred_msm_options *opts);
MULRED_API void mulred_g1_254_msm_plan(mulred_msm_plan *plan, size_t n,
                                       const mulred_msm_options *opts);

/* The cost model: estimated single-thread nanoseconds of tiles covering n points, `windows`
 * windows and each window split into `bucket_ranges` bucket ranges, on the machine the
 * constants were measured on (src/msm/msm.c tabulates them). For planners comparing grids
 * (ratios matter, not absolute values). msm_cost_constants gives the compiled-in constants;
 * msm_cost_with the modelled time of the whole MSM (every window, one range) under other
 * constants. */
MULRED_API double mulred_g1_381_msm_cost_ns(const mulred_msm_plan *plan, size_t n, unsigned windows,
                                            unsigned bucket_ranges);
MULRED_API void mulred_g1_381_msm_cost_constants(mulred_msm_cost *cost);
MULRED_API double mulred_g1_381_msm_cost_with(const mulred_msm_plan *plan, size_t n,
                                              const mulred_msm_cost *cost);
MULRED_API double mulred_g1_254_msm_cost_ns(const mulred_msm_plan *plan, size_t n, unsigned windows,
                                            unsigned bucket_ranges);
MULRED_API void mulred_g1_254_msm_cost_constants(mulred_msm_cost *cost);
MULRED_API double mulred_g1_254_msm_cost_with(const mulred_msm_plan *plan, size_t n,
                                              const mulred_msm_cost *cost);

/* out[i] = the recoded in[i] for i < n (reduced mod r; GLV halves when plan->glv). out may
 * equal in (in place, cast) but must not otherwise overlap it. */
MULRED_API void mulred_g1_381_msm_recode(mulred_msm_rscalar *out, const mulred_scalar256 *in,
                                         size_t n, const mulred_msm_plan *plan);
MULRED_API void mulred_g1_254_msm_recode(mulred_msm_rscalar *out, const mulred_scalar256 *in,
                                         size_t n, const mulred_msm_plan *plan);

/* Bytes of scratch of msm_tile_var under plan. */
MULRED_API size_t mulred_g1_381_msm_tile_scratch_size(const mulred_msm_plan *plan);
MULRED_API size_t mulred_g1_254_msm_tile_scratch_size(const mulred_msm_plan *plan);

/* r = the tile result T above over points[0..n) and scalars[0..n) (recoded with this plan).
 * n may be 0 (r = infinity); n <= 2^32 − 1. scratch: msm_tile_scratch_size(plan) bytes. */
MULRED_API void mulred_g1_381_msm_tile_var(mulred_g1_381_jacobian *r, const mulred_msm_plan *plan,
                                           const mulred_msm_tile *tile,
                                           const mulred_g1_381_affine *points,
                                           const mulred_msm_rscalar *scalars, size_t n,
                                           void *scratch);
MULRED_API void mulred_g1_254_msm_tile_var(mulred_g1_254_jacobian *r, const mulred_msm_plan *plan,
                                           const mulred_msm_tile *tile,
                                           const mulred_g1_254_affine *points,
                                           const mulred_msm_rscalar *scalars, size_t n,
                                           void *scratch);

/* r = 2^bits·a (bits doublings). r may alias a. */
MULRED_API void mulred_g1_381_msm_shift(mulred_g1_381_jacobian *r, const mulred_g1_381_jacobian *a,
                                        unsigned bits);
MULRED_API void mulred_g1_254_msm_shift(mulred_g1_254_jacobian *r, const mulred_g1_254_jacobian *a,
                                        unsigned bits);

/* Bytes of scratch of msm_serial_var: the tile scratch plus 32n bytes of recoded scalars. */
MULRED_API size_t mulred_g1_381_msm_scratch_size(const mulred_msm_plan *plan, size_t n);
MULRED_API size_t mulred_g1_254_msm_scratch_size(const mulred_msm_plan *plan, size_t n);

/* r = Σ_{i<n} (scalars[i] mod r)·points[i] on the calling thread: recode, one tile per window,
 * Horner over the windows. scratch: msm_scratch_size(plan, n) bytes. */
MULRED_API void mulred_g1_381_msm_serial_var(mulred_g1_381_jacobian *r, const mulred_msm_plan *plan,
                                             const mulred_g1_381_affine *points,
                                             const mulred_scalar256 *scalars, size_t n,
                                             void *scratch);
MULRED_API void mulred_g1_254_msm_serial_var(mulred_g1_254_jacobian *r, const mulred_msm_plan *plan,
                                             const mulred_g1_254_affine *points,
                                             const mulred_scalar256 *scalars, size_t n,
                                             void *scratch);

/* The same sum with OpenMP tasks (src/msm/msm_threads.c): tiles over windows, then bucket
 * ranges, then (only when those are too few for the threads) point ranges, results combined in
 * a fixed order, so r is the same for every thread count and schedule. threads: tasks for at
 * most that many threads; 0 = mulred_threads_resolve(0). Safe to call from inside an OpenMP
 * parallel region or task (nested): it then creates tasks in the enclosing team under a
 * taskgroup instead of a new team, so nothing deadlocks or oversubscribes. Allocates the
 * recoded scalars and one scratch per thread; returns MULRED_OK, or MULRED_ERUNTIME (out of
 * memory, r untouched). */
MULRED_API mulred_status mulred_g1_381_msm_var(mulred_g1_381_jacobian *r,
                                               const mulred_g1_381_affine *points,
                                               const mulred_scalar256 *scalars, size_t n,
                                               const mulred_msm_options *opts, int threads,
                                               mulred_error *err);
MULRED_API mulred_status mulred_g1_254_msm_var(mulred_g1_254_jacobian *r,
                                               const mulred_g1_254_affine *points,
                                               const mulred_scalar256 *scalars, size_t n,
                                               const mulred_msm_options *opts, int threads,
                                               mulred_error *err);

/* A window range with threads: the share of one rank of a distributed MSM (a grid of point
 * slices x window groups, see mulred/msm_grid.h). r = the tile result T of the tile
 * (points[0..n), windows [window0, window1), all buckets) for the plan (made by msm_plan, not
 * fixed-base; 0 <= window0 < window1 <= plan->windows, else misuse):
 * Σ_{w=window0}^{window1−1} 2^(c·(w − window0))·S_w. The caller multiplies it by 2^(c·window0)
 * (msm_shift). The same OpenMP driver as msm_var (which is this function over every window):
 * tiles over the range's windows, bucket ranges and point slices, combined in a fixed order,
 * nested-safe. r is the same point for every thread count, returned with Z = 1 (or as the one
 * form of infinity), so the same bytes for every thread count, split and schedule. Allocates
 * the recoded scalars and one tile scratch per thread; MULRED_OK or MULRED_ERUNTIME (out of
 * memory, r untouched). */
MULRED_API mulred_status mulred_g1_381_msm_windows_var(mulred_g1_381_jacobian *r,
                                                       const mulred_msm_plan *plan,
                                                       unsigned window0, unsigned window1,
                                                       const mulred_g1_381_affine *points,
                                                       const mulred_scalar256 *scalars, size_t n,
                                                       int threads, mulred_error *err);
MULRED_API mulred_status mulred_g1_254_msm_windows_var(mulred_g1_254_jacobian *r,
                                                       const mulred_msm_plan *plan,
                                                       unsigned window0, unsigned window1,
                                                       const mulred_g1_254_affine *points,
                                                       const mulred_scalar256 *scalars, size_t n,
                                                       int threads, mulred_error *err);

/* ---- fixed base (points known in advance, many MSMs over them: KZG commitments) ----
 * A table holds 2^(c·w)·Pᵢ for every window w (affine, at table[i·W + w]: point-major, so the
 * accumulation reads it sequentially), so the digits of every window go to one bucket set: W·n
 * bucket additions and ONE reduction, against W·n additions and W reductions (plus the
 * doublings) without it. */

/* A fixed-base plan for n points (at most 64 windows: c >= 4, or c >= 2 with GLV). GLV only
 * when forced (opts->glv > 0): the table then has a row per window of the 127-bit halves and
 * both halves read it, the second through φ. Without GLV the scalars are folded to at most
 * (r − 1)/2 (scalar_bits = bits of r − 1): 16 rows at c = 16, 17 at c = 15, 13 at c = 20 (a width
 * past 16 bits only when forced). */
MULRED_API void mulred_g1_381_msm_fixed_plan(mulred_msm_plan *plan, size_t n,
                                             const mulred_msm_options *opts);
MULRED_API void mulred_g1_254_msm_fixed_plan(mulred_msm_plan *plan, size_t n,
                                             const mulred_msm_options *opts);

/* Points in the table: plan->windows · n (96 or 64 bytes each). */
MULRED_API size_t mulred_g1_381_msm_fixed_table_size(const mulred_msm_plan *plan, size_t n);
MULRED_API size_t mulred_g1_254_msm_fixed_table_size(const mulred_msm_plan *plan, size_t n);

/* Bytes of scratch of msm_fixed_table_build for n points. */
MULRED_API size_t mulred_g1_381_msm_fixed_build_scratch_size(size_t n);
MULRED_API size_t mulred_g1_254_msm_fixed_build_scratch_size(size_t n);

/* Fills the table (c doublings per entry in Jacobian coordinates, one batch normalisation per
 * row). The table depends on the points and on plan->window_bits only. */
MULRED_API void mulred_g1_381_msm_fixed_table_build(mulred_g1_381_affine *table,
                                                    const mulred_msm_plan *plan,
                                                    const mulred_g1_381_affine *points, size_t n,
                                                    void *scratch);
MULRED_API void mulred_g1_254_msm_fixed_table_build(mulred_g1_254_affine *table,
                                                    const mulred_msm_plan *plan,
                                                    const mulred_g1_254_affine *points, size_t n,
                                                    void *scratch);

/* Bytes of scratch of msm_fixed_var. */
MULRED_API size_t mulred_g1_381_msm_fixed_scratch_size(const mulred_msm_plan *plan, size_t n);
MULRED_API size_t mulred_g1_254_msm_fixed_scratch_size(const mulred_msm_plan *plan, size_t n);

/* r = Σ_{i<n} (scalars[i] mod r)·points[i] from the table built for those points with this
 * plan (or one with the same window_bits). Single-threaded. */
MULRED_API void mulred_g1_381_msm_fixed_var(mulred_g1_381_jacobian *r, const mulred_msm_plan *plan,
                                            const mulred_g1_381_affine *table,
                                            const mulred_scalar256 *scalars, size_t n,
                                            void *scratch);
MULRED_API void mulred_g1_254_msm_fixed_var(mulred_g1_254_jacobian *r, const mulred_msm_plan *plan,
                                            const mulred_g1_254_affine *table,
                                            const mulred_scalar256 *scalars, size_t n,
                                            void *scratch);

/* ---- G2 (mulred_g2_381_*, mulred_g2_254_*: points of include/mulred/curve.h's G2 section) ----
 * The same engine (src/msm/msm_impl.h and msm_threads_impl.h instantiated over Fp2), with the
 * same contracts as the G1 functions above: points must be in G2 (validate outside data with
 * the G2 decoders); GLV uses φ(x, y) = (β′x, y), which acts on G2 as G1's λ. The 8-lane batch
 * path runs on 8-lane Fp2 kernels (lanes as for G1). */

/* The plan for an MSM of n points (n = the points one tile set covers: for a distributed MSM,
 * the points of one slice). opts may be NULL (all automatic). Forced choices are honoured when
 * valid and are misuse otherwise (X8 lanes on a CPU without IFMA, c outside 1..22). The
 * automatic window width minimises the cost model below. Automatic choices depend on the CPU
 * (8-lane kernels or not): the ranks of one distributed MSM must share one plan (make it once
 * and send it, or force window_bits and glv), since recoded scalars and tiles are only
 * meaningful under the plan that made them. */
MULRED_API void mulred_g2_381_msm_plan(mulred_msm_plan *plan, size_t n,
                                       const mulred_msm_options *opts);
MULRED_API void mulred_g2_254_msm_plan(mulred_msm_plan *plan, size_t n,
                                       const mulred_msm_options *opts);

/* The cost model: estimated single-thread nanoseconds of tiles covering n points, `windows`
 * windows and each window split into `bucket_ranges` bucket ranges, on the machine the
 * constants were measured on (src/msm/msm.c tabulates them). For planners comparing grids
 * (ratios matter, not absolute values). msm_cost_constants gives the compiled-in constants;
 * msm_cost_with the modelled time of the whole MSM (every window, one range) under other
 * constants. */
MULRED_API double mulred_g2_381_msm_cost_ns(const mulred_msm_plan *plan, size_t n, unsigned windows,
                                            unsigned bucket_ranges);
MULRED_API void mulred_g2_381_msm_cost_constants(mulred_msm_cost *cost);
MULRED_API double mulred_g2_381_msm_cost_with(const mulred_msm_plan *plan, size_t n,
                                              const mulred_msm_cost *cost);
MULRED_API double mulred_g2_254_msm_cost_ns(const mulred_msm_plan *plan, size_t n, unsigned windows,
                                            unsigned bucket_ranges);
MULRED_API void mulred_g2_254_msm_cost_constants(mulred_msm_cost *cost);
MULRED_API double mulred_g2_254_msm_cost_with(const mulred_msm_plan *plan, size_t n,
                                              const mulred_msm_cost *cost);

/* out[i] = the recoded in[i] for i < n (reduced mod r; GLV halves when plan->glv). out may
 * equal in (in place, cast) but must not otherwise overlap it. */
MULRED_API void mulred_g2_381_msm_recode(mulred_msm_rscalar *out, const mulred_scalar256 *in,
                                         size_t n, const mulred_msm_plan *plan);
MULRED_API void mulred_g2_254_msm_recode(mulred_msm_rscalar *out, const mulred_scalar256 *in,
                                         size_t n, const mulred_msm_plan *plan);

/* Bytes of scratch of msm_tile_var under plan. */
MULRED_API size_t mulred_g2_381_msm_tile_scratch_size(const mulred_msm_plan *plan);
MULRED_API size_t mulred_g2_254_msm_tile_scratch_size(const mulred_msm_plan *plan);

/* r = the tile result T above over points[0..n) and scalars[0..n) (recoded with this plan).
 * n may be 0 (r = infinity); n <= 2^32 − 1. scratch: msm_tile_scratch_size(plan) bytes. */
MULRED_API void mulred_g2_381_msm_tile_var(mulred_g2_381_jacobian *r, const mulred_msm_plan *plan,
                                           const mulred_msm_tile *tile,
                                           const mulred_g2_381_affine *points,
                                           const mulred_msm_rscalar *scalars, size_t n,
                                           void *scratch);
MULRED_API void mulred_g2_254_msm_tile_var(mulred_g2_254_jacobian *r, const mulred_msm_plan *plan,
                                           const mulred_msm_tile *tile,
                                           const mulred_g2_254_affine *points,
                                           const mulred_msm_rscalar *scalars, size_t n,
                                           void *scratch);

/* r = 2^bits·a (bits doublings). r may alias a. */
MULRED_API void mulred_g2_381_msm_shift(mulred_g2_381_jacobian *r, const mulred_g2_381_jacobian *a,
                                        unsigned bits);
MULRED_API void mulred_g2_254_msm_shift(mulred_g2_254_jacobian *r, const mulred_g2_254_jacobian *a,
                                        unsigned bits);

/* Bytes of scratch of msm_serial_var: the tile scratch plus 32n bytes of recoded scalars. */
MULRED_API size_t mulred_g2_381_msm_scratch_size(const mulred_msm_plan *plan, size_t n);
MULRED_API size_t mulred_g2_254_msm_scratch_size(const mulred_msm_plan *plan, size_t n);

/* r = Σ_{i<n} (scalars[i] mod r)·points[i] on the calling thread: recode, one tile per window,
 * Horner over the windows. scratch: msm_scratch_size(plan, n) bytes. */
MULRED_API void mulred_g2_381_msm_serial_var(mulred_g2_381_jacobian *r, const mulred_msm_plan *plan,
                                             const mulred_g2_381_affine *points,
                                             const mulred_scalar256 *scalars, size_t n,
                                             void *scratch);
MULRED_API void mulred_g2_254_msm_serial_var(mulred_g2_254_jacobian *r, const mulred_msm_plan *plan,
                                             const mulred_g2_254_affine *points,
                                             const mulred_scalar256 *scalars, size_t n,
                                             void *scratch);

/* The same sum with OpenMP tasks (src/msm/msm_threads.c): tiles over windows, then bucket
 * ranges, then (only when those are too few for the threads) point ranges, results combined in
 * a fixed order, so r is the same for every thread count and schedule. threads: tasks for at
 * most that many threads; 0 = mulred_threads_resolve(0). Safe to call from inside an OpenMP
 * parallel region or task (nested): it then creates tasks in the enclosing team under a
 * taskgroup instead of a new team, so nothing deadlocks or oversubscribes. Allocates the
 * recoded scalars and one scratch per thread; returns MULRED_OK, or MULRED_ERUNTIME (out of
 * memory, r untouched). */
MULRED_API mulred_status mulred_g2_381_msm_var(mulred_g2_381_jacobian *r,
                                               const mulred_g2_381_affine *points,
                                               const mulred_scalar256 *scalars, size_t n,
                                               const mulred_msm_options *opts, int threads,
                                               mulred_error *err);
MULRED_API mulred_status mulred_g2_254_msm_var(mulred_g2_254_jacobian *r,
                                               const mulred_g2_254_affine *points,
                                               const mulred_scalar256 *scalars, size_t n,
                                               const mulred_msm_options *opts, int threads,
                                               mulred_error *err);

/* A window range with threads: the share of one rank of a distributed MSM (a grid of point
 * slices x window groups, see mulred/msm_grid.h). r = the tile result T of the tile
 * (points[0..n), windows [window0, window1), all buckets) for the plan (made by msm_plan, not
 * fixed-base; 0 <= window0 < window1 <= plan->windows, else misuse):
 * Σ_{w=window0}^{window1−1} 2^(c·(w − window0))·S_w. The caller multiplies it by 2^(c·window0)
 * (msm_shift). The same OpenMP driver as msm_var (which is this function over every window):
 * tiles over the range's windows, bucket ranges and point slices, combined in a fixed order,
 * nested-safe. r is the same point for every thread count, returned with Z = 1 (or as the one
 * form of infinity), so the same bytes for every thread count, split and schedule. Allocates
 * the recoded scalars and one tile scratch per thread; MULRED_OK or MULRED_ERUNTIME (out of
 * memory, r untouched). */
MULRED_API mulred_status mulred_g2_381_msm_windows_var(mulred_g2_381_jacobian *r,
                                                       const mulred_msm_plan *plan,
                                                       unsigned window0, unsigned window1,
                                                       const mulred_g2_381_affine *points,
                                                       const mulred_scalar256 *scalars, size_t n,
                                                       int threads, mulred_error *err);
MULRED_API mulred_status mulred_g2_254_msm_windows_var(mulred_g2_254_jacobian *r,
                                                       const mulred_msm_plan *plan,
                                                       unsigned window0, unsigned window1,
                                                       const mulred_g2_254_affine *points,
                                                       const mulred_scalar256 *scalars, size_t n,
                                                       int threads, mulred_error *err);

/* ---- fixed base (points known in advance, many MSMs over them: KZG commitments) ----
 * A table holds 2^(c·w)·Pᵢ for every window w (affine, at table[i·W + w]: point-major, so the
 * accumulation reads it sequentially), so the digits of every window go to one bucket set: W·n
 * bucket additions and ONE reduction, against W·n additions and W reductions (plus the
 * doublings) without it. */

/* A fixed-base plan for n points (at most 64 windows: c >= 4, or c >= 2 with GLV). GLV only
 * when forced (opts->glv > 0): the table then has a row per window of the 127-bit halves and
 * both halves read it, the second through φ. Without GLV the scalars are folded to at most
 * (r − 1)/2 (scalar_bits = bits of r − 1): 16 rows at c = 16, 17 at c = 15, 13 at c = 20 (a width
 * past 16 bits only when forced). */
MULRED_API void mulred_g2_381_msm_fixed_plan(mulred_msm_plan *plan, size_t n,
                                             const mulred_msm_options *opts);
MULRED_API void mulred_g2_254_msm_fixed_plan(mulred_msm_plan *plan, size_t n,
                                             const mulred_msm_options *opts);

/* Points in the table: plan->windows · n (192 or 128 bytes each). */
MULRED_API size_t mulred_g2_381_msm_fixed_table_size(const mulred_msm_plan *plan, size_t n);
MULRED_API size_t mulred_g2_254_msm_fixed_table_size(const mulred_msm_plan *plan, size_t n);

/* Bytes of scratch of msm_fixed_table_build for n points. */
MULRED_API size_t mulred_g2_381_msm_fixed_build_scratch_size(size_t n);
MULRED_API size_t mulred_g2_254_msm_fixed_build_scratch_size(size_t n);

/* Fills the table (c doublings per entry in Jacobian coordinates, one batch normalisation per
 * row). The table depends on the points and on plan->window_bits only. */
MULRED_API void mulred_g2_381_msm_fixed_table_build(mulred_g2_381_affine *table,
                                                    const mulred_msm_plan *plan,
                                                    const mulred_g2_381_affine *points, size_t n,
                                                    void *scratch);
MULRED_API void mulred_g2_254_msm_fixed_table_build(mulred_g2_254_affine *table,
                                                    const mulred_msm_plan *plan,
                                                    const mulred_g2_254_affine *points, size_t n,
                                                    void *scratch);

/* Bytes of scratch of msm_fixed_var. */
MULRED_API size_t mulred_g2_381_msm_fixed_scratch_size(const mulred_msm_plan *plan, size_t n);
MULRED_API size_t mulred_g2_254_msm_fixed_scratch_size(const mulred_msm_plan *plan, size_t n);

/* r = Σ_{i<n} (scalars[i] mod r)·points[i] from the table built for those points with this
 * plan (or one with the same window_bits). Single-threaded. */
MULRED_API void mulred_g2_381_msm_fixed_var(mulred_g2_381_jacobian *r, const mulred_msm_plan *plan,
                                            const mulred_g2_381_affine *table,
                                            const mulred_scalar256 *scalars, size_t n,
                                            void *scratch);
MULRED_API void mulred_g2_254_msm_fixed_var(mulred_g2_254_jacobian *r, const mulred_msm_plan *plan,
                                            const mulred_g2_254_affine *table,
                                            const mulred_scalar256 *scalars, size_t n,
                                            void *scratch);

/* ---- the curves as one type: what the distributed jobs, the readers and the command use ----
 * A mulred_curve value names a curve with one of its groups (G1 unless the value says G2);
 * mulred_pairing_group below only names the G1/G2 choice, and mulred_group (mulred/group.h)
 * is the engine's descriptor of any commutative group. */

typedef enum {
    MULRED_CURVE_BLS12_381 = 0, /* G1 of BLS12-381: mulred_g1_381_* */
    MULRED_CURVE_BN254 = 1,     /* G1 of BN254 (alt_bn128): mulred_g1_254_* */
    /* The G2 groups of the same curves: every function below (and the io, MPI and command
     * layers) takes them where it takes a curve; mulred_curve_name gives the curve's name. */
    MULRED_CURVE_BLS12_381_G2 = 2, /* G2 of BLS12-381: mulred_g2_381_* */
    MULRED_CURVE_BN254_G2 = 3,     /* G2 of BN254: mulred_g2_254_* */
} mulred_curve;

/* The group of an MSM: G1 or G2 of its pairing-friendly curve (not to be confused with
 * mulred_group, the engine's descriptor of any commutative group, mulred/group.h). A curve and
 * its group make one mulred_curve value (mulred_curve_with_group): G2 is said that way
 * everywhere, this enum only names the choice. */
typedef enum {
    MULRED_GROUP_G1 = 0,
    MULRED_GROUP_G2 = 1,
} mulred_pairing_group;
/* The 0.2 name of mulred_pairing_group, kept for one release. */
typedef mulred_pairing_group mulred_msm_group;

/* The curve of c (G1 values stay, G2 values give their curve's G1 value), its group, and the
 * value of group g of curve c. "g1" or "g2"; mulred_pairing_group_parse takes exactly those
 * (MULRED_EINPUT and *g left for anything else). */
MULRED_API mulred_curve mulred_curve_base(mulred_curve c);
MULRED_API mulred_pairing_group mulred_curve_group(mulred_curve c);
MULRED_API mulred_curve mulred_curve_with_group(mulred_curve c, mulred_pairing_group g);
MULRED_API const char *mulred_pairing_group_name(mulred_pairing_group g);
MULRED_API mulred_status mulred_pairing_group_parse(mulred_pairing_group *g, const char *name);
/* The 0.2 names of these two, kept for one release ("group" alone is mulred/group.h's). */
#define mulred_group_name  mulred_pairing_group_name
#define mulred_group_parse mulred_pairing_group_parse

/* The one spelling of each curve, in code, messages and on the command line: "bls12-381",
 * "bn254". A G2 value gives its curve's name; its group's is mulred_pairing_group_name(
 * mulred_curve_group(c)), "g2". */
MULRED_API const char *mulred_curve_name(mulred_curve c);
/* Exactly "bls12-381" or "bn254". Returns MULRED_OK, or MULRED_EINPUT (and leaves *c) for any
 * other string. */
MULRED_API mulred_status mulred_curve_parse(mulred_curve *c, const char *name);
/* Bytes of an affine point (96, 64; G2: 192, 128) and of a Jacobian point (144, 96; G2: 288,
 * 192) of the curve. */
MULRED_API size_t mulred_msm_affine_bytes(mulred_curve c);
MULRED_API size_t mulred_msm_jacobian_bytes(mulred_curve c);

/* The MSM of the curve c through one call each (src/msm/msm_group.c): the plan,
 * the tile (windows [window0, window1) of points[0..n), into the Jacobian point *r), the shift
 * by 2^bits and the encoding of a Jacobian result (BLS12-381: 128-byte EIP-2537, BN254: 64-byte
 * EIP-196; G2: 256-byte EIP-2537, 128-byte EIP-197; returns the bytes written, at most
 * MULRED_MSM_RESULT_MAX) are those of mulred_g1_381_*, mulred_g1_254_*, mulred_g2_381_* or
 * mulred_g2_254_*. An unknown curve is misuse: it calls the illegal-argument callback
 * (mulred/common.h), and when that returns, mulred_msm_curve_windows returns MULRED_EMISUSE. */
#define MULRED_MSM_RESULT_MAX 256
MULRED_API void mulred_msm_curve_plan(mulred_curve c, mulred_msm_plan *plan, size_t n,
                                      const mulred_msm_options *opts);
MULRED_API mulred_status mulred_msm_curve_windows(mulred_curve c, void *r,
                                                  const mulred_msm_plan *plan, unsigned window0,
                                                  unsigned window1, const void *points,
                                                  const mulred_scalar256 *scalars, size_t n,
                                                  int threads, mulred_error *err);
MULRED_API void mulred_msm_curve_shift(mulred_curve c, void *r, const void *a, unsigned bits);
MULRED_API size_t mulred_msm_curve_encode(mulred_curve c, uint8_t *out, const void *jacobian);

/* ---- point-addition groups (src/msm/msm_group.c) ----
 * The group of G1 points as the engine sees it (mulred/group.h): an element is a
 * mulred_G_jacobian (plain data: limbs only, no padding), the identity the point at infinity,
 * combine the Jacobian addition of the curve layer, correct for every pair (infinity on
 * either side, P + P, P + (−P)). Projective forms are not unique, so the reduced element is a
 * point, not a byte string: compare or encode it through the curve layer. Variable time. */
/* For a G2 value of mulred_curve, the group of G2 points: elements are mulred_g2_381_jacobian /
 * mulred_g2_254_jacobian, combined by the G2 Jacobian addition (group names "bls12-381-g2",
 * "bn254-g2"). */
MULRED_API const mulred_group *mulred_msm_point_group(mulred_curve c);
/* The 0.2 spelling of mulred_msm_point_group(mulred_curve_with_group(c, MULRED_GROUP_G2)),
 * kept for one release. */
MULRED_API const mulred_group *mulred_msm_point_group_g2(mulred_curve c);

#ifdef __cplusplus
}
#endif
#endif

/* The MSM kernels: msm_impl.h instantiated once per curve, with each curve's constants and
 * cost model.
 *
 * GLV: the curve layer's decomposition k ≡ ±k1 ± k2·λ (mod r) and endomorphism φ(x, y) = (βx, y)
 * = λ·(x, y); its halves are below 2^127, so recoded GLV scalars have 127 bits. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "field/field_internal.h"
#include "field/field_x8.h"
#include "msm/msm_internal.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "util/check.h"

/* ---- cost model ------------------------------------------------------------------------------ */

/* Nanoseconds per operation, measured on Zen 5 (see the table in bench/bench_msm.c, `mulred
 * bench msm --model`); the plan picks the window width, bucket form and GLV that minimise the
 * modelled time (msm_impl.h, model_window). */
typedef struct {
    double scan;          /* per point-digit read (once per bucket range) */
    double window;        /* fixed per window and bucket range */
    double dbl;           /* a Jacobian doubling (Horner: c per window) */
    double xyzz_add;      /* an XYZZ mixed addition (accumulation, side buckets) */
    double xyzz_full;     /* an XYZZ full addition (running sums) */
    double aff_add[2];    /* a batch-affine pair without its share of the inversion [scalar, x8] */
    double inv[2];        /* one batch inversion [scalar, x8] */
    double glv_factor;    /* a GLV pair costs this times a plain one (φ, two digits a point) */
    unsigned affine_from; /* the AUTO bucket form is AFFINE from this c up */
    unsigned batch_max;   /* the automatic batch */
    int glv_auto;         /* GLV considered by the automatic plan */
} msm_cost;

static const msm_cost COST_381 = {
    .scan = 3,
    .window = 2000,
    .dbl = 280,
    .xyzz_add = 380,
    .xyzz_full = 500,
    .aff_add = {240, 70},
    .inv = {4300, 3500},
    .glv_factor = 1.15,
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};
/* G2 (scalar batch path only): the G1 constants scaled by the cost of the Fp2 operations (an
 * Fp2 multiplication is 3 base multiplications and 5 additions, about 3.3 of them; the
 * inversion one base inversion and 6 multiplications): estimates, not yet fitted to a sweep as
 * the G1 constants are. */
static const msm_cost COST_G2_381 = {
    .scan = 3,
    .window = 4000,
    .dbl = 900,
    .xyzz_add = 1250,
    .xyzz_full = 1650,
    .aff_add = {800, 800},
    .inv = {5400, 5400},
    .glv_factor = 1.05,
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};
static const msm_cost COST_G2_254 = {
    .scan = 3,
    .window = 3000,
    .dbl = 530,
    .xyzz_add = 730,
    .xyzz_full = 1000,
    .aff_add = {330, 330},
    .inv = {6400, 6400},
    .glv_factor = 1.05,
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};
static const msm_cost COST_254 = {
    .scan = 3,
    .window = 1500,
    .dbl = 160,
    .xyzz_add = 220,
    .xyzz_full = 300,
    .aff_add = {98, 38},
    .inv = {5600, 3100},
    .glv_factor = 1.15,
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};

/* ---- instances ----------------------------------------------------------------------------- */

#define MSM_EXT      0
#define G1           g1_381
#define FP           fp381
#define MSM_MAGIC    MSM_MAGIC_G1_381
#define MSM_NAME     "g1_381"
#define MSM_R        FR381_P
#define MSM_RBITS    255
#define MSM_GLV_BITS 127
#define MSM_COST     COST_381
#include "msm/msm_impl.h"
#undef G1
#undef FP
#undef MSM_MAGIC
#undef MSM_NAME
#undef MSM_R
#undef MSM_RBITS
#undef MSM_GLV_BITS
#undef MSM_COST

#define G1           g1_254
#define FP           fp254
#define MSM_MAGIC    MSM_MAGIC_G1_254
#define MSM_NAME     "g1_254"
#define MSM_R        FR254_P
#define MSM_RBITS    254
#define MSM_GLV_BITS 127
#define MSM_COST     COST_254
#include "msm/msm_impl.h"
#undef G1
#undef FP
#undef MSM_MAGIC
#undef MSM_NAME
#undef MSM_R
#undef MSM_RBITS
#undef MSM_GLV_BITS
#undef MSM_COST
#undef MSM_EXT

/* G2: the same template over Fp2 (the curve layer's G2 instances: same GLV decomposition) */
#define MSM_EXT      1
#define G1           g2_381
#define FP           fp2_381
#define MSM_MAGIC    MSM_MAGIC_G2_381
#define MSM_NAME     "g2_381"
#define MSM_R        FR381_P
#define MSM_RBITS    255
#define MSM_GLV_BITS 127
#define MSM_COST     COST_G2_381
#include "msm/msm_impl.h"
#undef G1
#undef FP
#undef MSM_MAGIC
#undef MSM_NAME
#undef MSM_R
#undef MSM_RBITS
#undef MSM_GLV_BITS
#undef MSM_COST

#define G1           g2_254
#define FP           fp2_254
#define MSM_MAGIC    MSM_MAGIC_G2_254
#define MSM_NAME     "g2_254"
#define MSM_R        FR254_P
#define MSM_RBITS    254
#define MSM_GLV_BITS 127
#define MSM_COST     COST_G2_254
#include "msm/msm_impl.h"

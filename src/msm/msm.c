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
#include "util/util.h"

/* ---- cost model ------------------------------------------------------------------------------ */

/* Nanoseconds per operation (mulred_msm_cost, include/mulred/msm.h); the plan picks the window
 * width, bucket form and GLV that minimise the modelled time (msm_impl.h, model_window).
 * glv_pair is what a GLV plan adds to each pair beyond the plain one (φ itself is a few ns of
 * it). The scalar constants are what a machine without IFMA uses (lanes SCALAR). Measured and
 * fitted with `mulred bench msm --model` on Zen 5: docs/kernels.md, "The MSM cost model". */
typedef struct {
    mulred_msm_cost op;   /* ns per operation (include/mulred/msm.h) */
    unsigned affine_from; /* the AUTO bucket form is AFFINE from this c up */
    unsigned batch_max;   /* the automatic batch */
    int glv_auto;         /* GLV considered by the automatic plan */
} msm_cost;

static const msm_cost COST_381 = {
    .op = {.scan = 12.3,
           .window = 0,
           .dbl = 245,
           .xyzz_add = 304,
           .xyzz_full = 436,
           .aff_add = {213, 72.6},
           .inv = {1945, 2770},
           .glv_pair = {35.7, 13.1}},
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};
static const msm_cost COST_254 = {
    .op = {.scan = 9.5,
           .window = 0,
           .dbl = 139,
           .xyzz_add = 172,
           .xyzz_full = 231,
           .aff_add = {120, 39.4},
           .inv = {1806, 1811},
           .glv_pair = {28, 9.9}},
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};
/* G2: the 8-lane entries repeat the scalar ones, except glv_pair, which is fitted to GLV off
 * against on (so GLV is off on the 8-lane path from 2^13 up): docs/kernels.md, "The MSM cost
 * model". */
static const msm_cost COST_G2_381 = {
    .op = {.scan = 0,
           .window = 0,
           .dbl = 591,
           .xyzz_add = 971,
           .xyzz_full = 1362,
           .aff_add = {626, 626},
           .inv = {1192, 1192},
           .glv_pair = {9.6, 106}},
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};
static const msm_cost COST_G2_254 = {
    .op = {.scan = 0,
           .window = 0,
           .dbl = 424,
           .xyzz_add = 708,
           .xyzz_full = 1005,
           .aff_add = {455, 455},
           .inv = {1672, 1672},
           .glv_pair = {0, 79}},
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};

/* ---- instances ----------------------------------------------------------------------------- */

#define MSM_EXT      0
#define POINT        g1_381
#define FP           fp381
#define MSM_MAGIC    MSM_MAGIC_G1_381
#define MSM_NAME     "g1_381"
#define MSM_R        FR381_P
#define MSM_RBITS    255
#define MSM_GLV_BITS 127
#define MSM_COST     COST_381
#include "msm/msm_impl.h"
#undef POINT
#undef FP
#undef MSM_MAGIC
#undef MSM_NAME
#undef MSM_R
#undef MSM_RBITS
#undef MSM_GLV_BITS
#undef MSM_COST

#define POINT        g1_254
#define FP           fp254
#define MSM_MAGIC    MSM_MAGIC_G1_254
#define MSM_NAME     "g1_254"
#define MSM_R        FR254_P
#define MSM_RBITS    254
#define MSM_GLV_BITS 127
#define MSM_COST     COST_254
#include "msm/msm_impl.h"
#undef POINT
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
#define POINT        g2_381
#define FP           fp2_381
#define MSM_MAGIC    MSM_MAGIC_G2_381
#define MSM_NAME     "g2_381"
#define MSM_R        FR381_P
#define MSM_RBITS    255
#define MSM_GLV_BITS 127
#define MSM_COST     COST_G2_381
#include "msm/msm_impl.h"
#undef POINT
#undef FP
#undef MSM_MAGIC
#undef MSM_NAME
#undef MSM_R
#undef MSM_RBITS
#undef MSM_GLV_BITS
#undef MSM_COST

#define POINT        g2_254
#define FP           fp2_254
#define MSM_MAGIC    MSM_MAGIC_G2_254
#define MSM_NAME     "g2_254"
#define MSM_R        FR254_P
#define MSM_RBITS    254
#define MSM_GLV_BITS 127
#define MSM_COST     COST_G2_254
#include "msm/msm_impl.h"

/* G1 of BLS12-381 and BN254: g1_impl.h instantiated once per curve (the formulas are written
 * once; each instance calls its field's inline operations directly, no function pointers).
 *
 * Generators: BLS12-381 G1 from the IETF pairing-friendly-curves draft (section 4.2.1) and
 * the ZCash specification; BN254 G1 = (1, 2) (EIP-196). tests/test_curve.c checks them on the
 * curve, of order r, and (BLS12-381) against the published compressed encoding. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve_internal.h"
#include "field/field_internal.h"
#include "field/field_x8.h"
#include "mulred/curve.h"
#include "util/check.h"
#include "util/util.h"

#define G1               g1_381
#define FP               fp381
#define FX8              fp381x8
#define G1_B             G1_381_B
#define G1_GEN_X         G1_381_GEN_X
#define G1_GEN_Y         G1_381_GEN_Y
#define G1_ORDER         FR381_P
#define G1_BETA          G1_381_BETA
#define G1_LAMBDA        G1_381_LAMBDA
#define G1_GLV_A1        G1_381_GLV_A1
#define G1_GLV_B1        G1_381_GLV_B1
#define G1_GLV_A2        G1_381_GLV_A2
#define G1_GLV_B2        G1_381_GLV_B2
#define G1_GLV_G1        G1_381_GLV_G1
#define G1_GLV_G2        G1_381_GLV_G2
#define G1_COFACTOR_ONE  0
#define G1_BETA_SUBGROUP G1_381_BETA_SUBGROUP
#define G1_SEED_ABS      G1_381_SEED_ABS
#include "curve/g1_impl.h"

#define G1              g1_254
#define FP              fp254
#define FX8             fp254x8
#define G1_B            G1_254_B
#define G1_GEN_X        G1_254_GEN_X
#define G1_GEN_Y        G1_254_GEN_Y
#define G1_ORDER        FR254_P
#define G1_BETA         G1_254_BETA
#define G1_LAMBDA       G1_254_LAMBDA
#define G1_GLV_A1       G1_254_GLV_A1
#define G1_GLV_B1       G1_254_GLV_B1
#define G1_GLV_A2       G1_254_GLV_A2
#define G1_GLV_B2       G1_254_GLV_B2
#define G1_GLV_G1       G1_254_GLV_G1
#define G1_GLV_G2       G1_254_GLV_G2
#define G1_COFACTOR_ONE 1
#include "curve/g1_impl.h"

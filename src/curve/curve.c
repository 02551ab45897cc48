/* G1 of BLS12-381 and BN254: point_impl.h instantiated once per curve (the formulas are written
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

#define POINT              g1_381
#define POINT_K            G1_381
#define POINT_GLV          G1_381
#define POINT_ORDER        FR381_P
#define POINT_COFACTOR_ONE 0
#define FP                 fp381
#define FX8                fp381x8
#include "curve/point_impl.h"

#define POINT              g1_254
#define POINT_K            G1_254
#define POINT_GLV          G1_254
#define POINT_ORDER        FR254_P
#define POINT_COFACTOR_ONE 1
#define FP                 fp254
#define FX8                fp254x8
#include "curve/point_impl.h"

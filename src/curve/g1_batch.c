/* G1 subgroup checks of many points (g1_batch.h): BLS12-381 on the 8-lane field kernels, through
 * the batch-check engine (batch_check_impl.h). The criterion (Scott, ePrint 2021/1130, section
 * 4): P is in G1 iff φ'(P) = −x²·P, with φ'(x, y) = (β'x, y). */
#include <stdint.h>

#include "curve/curve_internal.h"
#include "curve/g1_batch.h"
#include "field/field_x8.h"

#define BC                  g1_381
#define BC_GROUP            g1
#define BC_F8               fp381x8
#define BC_K_LO             G1_381_SEED_ABS
#define BC_K_HI             0
#define BC_TWICE            1
#define BC_C0               G1_381_BETA_SUBGROUP
#define BC_MAP(m, x, y2, c) (mulred_fp381x8_mul(&(m)[0], &(c)[0], (x)), (m)[1] = *(y2))
#define BC_NEG              1
#include "curve/batch_check_impl.h"

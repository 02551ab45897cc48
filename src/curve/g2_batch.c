/* G2 subgroup checks of many points (g2_batch.h): both curves on the 8-lane Fp2 kernels, through
 * the batch-check engine (batch_check_impl.h). The criteria: ψ(P) = −|x|·P on BLS12-381 (x the
 * seed), ψ(P) = [6u²]·P on BN254, with ψ(x, y) = (c_x·conj(x), c_y·conj(y)). */
#include <stdint.h>

#include "curve/curve_internal.h"
#include "curve/g2_batch.h"
#include "field/field_x8.h"

/* ψ's image: conj of each coordinate times its constant (2y stays doubled) */
#define G2_PSI8(F8, m, x, y2, c)                                                                   \
    (F8##_conj(&(m)[0], (x)), F8##_mul(&(m)[0], &(m)[0], &(c)[0]), F8##_conj(&(m)[1], (y2)),       \
     F8##_mul(&(m)[1], &(m)[1], &(c)[1]))

#define BC                  g2_381
#define BC_GROUP            g2
#define BC_F8               fp2_381x8
#define BC_K_LO             G1_381_SEED_ABS
#define BC_K_HI             0
#define BC_TWICE            0
#define BC_C0               G2_381_PSI_X
#define BC_C1               G2_381_PSI_Y
#define BC_MAP(m, x, y2, c) G2_PSI8(mulred_fp2_381x8, m, x, y2, c)
#define BC_NEG              1
#include "curve/batch_check_impl.h"

#define BC                  g2_254
#define BC_GROUP            g2
#define BC_F8               fp2_254x8
#define BC_K_LO             G2_254_SIX_U2[0]
#define BC_K_HI             G2_254_SIX_U2[1]
#define BC_TWICE            0
#define BC_C0               G2_254_PSI_X
#define BC_C1               G2_254_PSI_Y
#define BC_MAP(m, x, y2, c) G2_PSI8(mulred_fp2_254x8, m, x, y2, c)
#define BC_NEG              0
#include "curve/batch_check_impl.h"

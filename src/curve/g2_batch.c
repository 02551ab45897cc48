/* G2 subgroup checks of many points (g2_batch.h): both curves on the 8-lane Fp2 kernels. */
#include <stdint.h>
#include <string.h>

#include "curve/curve_internal.h"
#include "curve/g2_batch.h"
#include "field/field_x8.h"

/* The non-adjacent form of k = hi·2^64 + lo (k > 0): digits in {−1, 0, 1}, least significant
 * first, the top one 1. Returns the number of digits (≤ 129). */
static int g2b_naf(int8_t *d, uint64_t lo, uint64_t hi)
{
    unsigned __int128 k = (unsigned __int128)hi << 64 | lo;
    int len = 0;
    while (k) {
        int8_t v = 0;
        if (k & 1) {
            v = (k & 3) == 1 ? 1 : -1;
            if (v > 0)
                k -= 1;
            else
                k += 1;
        }
        d[len++] = v;
        k >>= 1;
    }
    return len;
}

#define G2B       g2_381
#define X8F       fp2_381x8
#define G2B_PSI_X G2_381_PSI_X
#define G2B_PSI_Y G2_381_PSI_Y
#define G2B_K_LO  G1_381_SEED_ABS
#define G2B_K_HI  0
#define G2B_NEG   1
#include "curve/g2_batch_impl.h"

#define G2B       g2_254
#define X8F       fp2_254x8
#define G2B_PSI_X G2_254_PSI_X
#define G2B_PSI_Y G2_254_PSI_Y
#define G2B_K_LO  G2_254_SIX_U2[0]
#define G2B_K_HI  G2_254_SIX_U2[1]
#define G2B_NEG   0
#include "curve/g2_batch_impl.h"

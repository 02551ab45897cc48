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

#include "field/field_internal.h"
#include "mulred/curve.h"

/* b = 4 and b = 3 as Montgomery residues (4·2^384 mod p381, 3·2^256 mod p254). */
static const uint64_t G1_381_B[6] = {0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f,
                                     0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e};
static const uint64_t G1_254_B[4] = {0x7a17caa950ad28d7, 0x1f6ac17ae15521b9, 0x334bea4e696bd284,
                                     0x2a1f6744ce179d8e};

/* x = 0x17f1d3a7…db22c6bb, y = 0x08b3f481…46c5e7e1 */
static const uint64_t G1_381_GEN_X[6] = {0xfb3af00adb22c6bb, 0x6c55e83ff97a1aef,
                                         0xa14e3a3f171bac58, 0xc3688c4f9774b905,
                                         0x2695638c4fa9ac0f, 0x17f1d3a73197d794};
static const uint64_t G1_381_GEN_Y[6] = {0x0caa232946c5e7e1, 0xd03cc744a2888ae4,
                                         0x00db18cb2c04b3ed, 0xfcf5e095d5d00af6,
                                         0xa09e30ed741d8ae4, 0x08b3f481e3aaa0f1};
static const uint64_t G1_254_GEN_X[4] = {1, 0, 0, 0};
static const uint64_t G1_254_GEN_Y[4] = {2, 0, 0, 0};

#define G1       g1_381
#define FP       fp381
#define G1_B     G1_381_B
#define G1_GEN_X G1_381_GEN_X
#define G1_GEN_Y G1_381_GEN_Y
#include "curve/g1_impl.h"
#undef G1
#undef FP
#undef G1_B
#undef G1_GEN_X
#undef G1_GEN_Y

#define G1       g1_254
#define FP       fp254
#define G1_B     G1_254_B
#define G1_GEN_X G1_254_GEN_X
#define G1_GEN_Y G1_254_GEN_Y
#include "curve/g1_impl.h"

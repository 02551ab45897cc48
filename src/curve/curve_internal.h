/* Internal: the constants of the two G1 instances (curve.c), in a header of their own so that
 * tests/test_curve.c can check every one of them against values it derives with GMP. */
#ifndef MULRED_CURVE_INTERNAL_H
#define MULRED_CURVE_INTERNAL_H

#include <stdint.h>

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

/* GLV: φ(x, y) = (βx, y) acts on G1 as multiplication by λ (λ² + λ + 1 ≡ 0 mod r, β³ = 1).
 * β as a Montgomery residue; λ, and a reduced basis (a1, b1), (a2, b2) of the lattice
 * {(u, v): u + v·λ ≡ 0 mod r} with a1·b2 − a2·b1 = r, as 192-bit two's complement; g1, g2 =
 * round(b2·2^384/r), round(−b1·2^384/r). tests/test_curve.c derives them with GMP.
 * BLS12-381: λ = x² − 1 (128 bits), basis (λ, −1), (1, λ + 1). BN254: λ of 192 bits, basis
 * from the extended Euclidean algorithm on (r, λ). */
static const uint64_t G1_381_BETA[6] = {0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95,
                                        0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2, 0x18f0206554638741};
static const uint64_t G1_381_LAMBDA[4] = {0x00000000ffffffff, 0xac45a4010001a402, 0, 0};
static const uint64_t G1_381_GLV_A1[3] = {0x00000000ffffffff, 0xac45a4010001a402, 0};
static const uint64_t G1_381_GLV_B1[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
static const uint64_t G1_381_GLV_A2[3] = {1, 0, 0};
static const uint64_t G1_381_GLV_B2[3] = {0x0000000100000000, 0xac45a4010001a402, 0};
static const uint64_t G1_381_GLV_G1[5] = {0xda5e4f8d896c72da, 0x389f49a7268bf7a3,
                                          0x63f6e522f6cfee30, 0x7c6becf1e01faadd, 1};
static const uint64_t G1_381_GLV_G2[5] = {0x38b5dcb707e08ed3, 0x355094edfede377c, 2, 0, 0};
/* The subgroup check's endomorphism: β' = β², eigenvalue λ² ≡ −x² on G1. */
static const uint64_t G1_381_BETA_SUBGROUP[6] = {0x30f1361b798a64e8, 0xf3b8ddab7ece5a2a,
                                                 0x16a8ca3ac61577f7, 0xc26a2ff874fd029b,
                                                 0x3636b76660701c6e, 0x051ba4ab241b6160};
#define G1_381_SEED_ABS UINT64_C(0xd201000000010000) /* x = −0xd201000000010000 */

static const uint64_t G1_254_BETA[4] = {0x71930c11d782e155, 0xa6bb947cffbe3323, 0xaa303344d4741444,
                                        0x2c3b3f0d26594943};
static const uint64_t G1_254_LAMBDA[4] = {0x8b17ea66b99c90dd, 0x5bfc41088d8daaa7,
                                          0xb3c4d79d41a91758, 0};
static const uint64_t G1_254_GLV_A1[3] = {0x89d3256894d213e3, 0, 0};
static const uint64_t G1_254_GLV_B1[3] = {0x7dee441482b0eed8, 0x90b27db71147a603, UINT64_MAX};
static const uint64_t G1_254_GLV_A2[3] = {0x0be4e1541221250b, 0x6f4d8248eeb859fd, 0};
static const uint64_t G1_254_GLV_B2[3] = {0x89d3256894d213e3, 0, 0};
static const uint64_t G1_254_GLV_G1[5] = {0x8fa7d32d2fafba64, 0x6eb9c714773a6ef2,
                                          0xd91d232ec7e0b3d7, 2, 0};
static const uint64_t G1_254_GLV_G2[5] = {0x869375169b9bdffa, 0xa5e38cfb5eaa26d9,
                                          0x7a7bd9d4391eb18d, 0x4ccef014a773d2cf, 2};

#endif

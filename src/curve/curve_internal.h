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

/* ---- G2 (curve_g2.c) ----------------------------------------------------------------------
 * b′ of E′ as an Fp2 Montgomery residue (c0 limbs, then c1): 4(1 + u) on BLS12-381, 3/(9 + u)
 * on BN254. */
static const uint64_t G2_381_B[12] = {0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f,
                                      0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e,
                                      0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f,
                                      0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e};
static const uint64_t G2_254_B[8] = {0x3bf938e377b802a8, 0x020b1b273633535d, 0x26b7edf049755260,
                                     0x2514c6324384a86d, 0x38e7ecccd1dcff67, 0x65f0b37d93ce0d3e,
                                     0xd749d0dd22ac00aa, 0x0141b9ce4a688d4d};

/* Generators as canonical integers (x.c0, x.c1 | y.c0, y.c1): BLS12-381 from the IETF
 * pairing-friendly-curves draft and the ZCash specification, BN254 from EIP-197. */
static const uint64_t G2_381_GEN_X[12] = {
    0xd48056c8c121bdb8, 0x0bac0326a805bbef, 0xb4510b647ae3d177, 0xc6e47ad4fa403b02,
    0x260805272dc51051, 0x024aa2b2f08f0a91, 0xe5ac7d055d042b7e, 0x334cf11213945d57,
    0xb5da61bbdc7f5049, 0x596bd0d09920b61a, 0x7dacd3a088274f65, 0x13e02b6052719f60};
static const uint64_t G2_381_GEN_Y[12] = {
    0xe193548608b82801, 0x923ac9cc3baca289, 0x6d429a695160d12c, 0xadfd9baa8cbdd3a7,
    0x8cc9cdc6da2e351a, 0x0ce5d527727d6e11, 0xaaa9075ff05f79be, 0x3f370d275cec1da1,
    0x267492ab572e99ab, 0xcb3e287e85a763af, 0x32acd2b02bc28b99, 0x0606c4a02ea734cc};
static const uint64_t G2_254_GEN_X[8] = {0x46debd5cd992f6ed, 0x674322d4f75edadd, 0x426a00665e5c4479,
                                         0x1800deef121f1e76, 0x97e485b7aef312c2, 0xf1aa493335a9e712,
                                         0x7260bfb731fb5d25, 0x198e9393920d483a};
static const uint64_t G2_254_GEN_Y[8] = {0x4ce6cc0166fa7daa, 0xe3d1e7690c43d37b, 0x4aab71808dcb408f,
                                         0x12c85ea5db8c6deb, 0x55acdadcd122975b, 0xbc4b313370b38ef3,
                                         0xec9e99ad690c3395, 0x090689d0585ff075};

/* GLV on G2: φ(x, y) = (β′x, y) with β′ = β² (β of G1, a Montgomery residue of Fp) acts on
 * G2 as the λ of G1 (β itself acts as λ² there), so G1's decomposition serves both. */
#define G2_381_BETA G1_381_BETA_SUBGROUP
static const uint64_t G2_254_BETA[4] = {0x3350c88e13e80b9c, 0x7dce557cdb5e56b9, 0x6001b4b8b615564a,
                                        0x2682e617020217e0};

/* ψ(x, y) = (conj(x)·cx, conj(y)·cy) (Fp2 Montgomery residues): BLS12-381 (an M-twist)
 * cx = 1/(1 + u)^((p−1)/3), cy = 1/(1 + u)^((p−1)/2); BN254 (a D-twist) cx = (9 + u)^((p−1)/3),
 * cy = (9 + u)^((p−1)/2). */
static const uint64_t G2_381_PSI_X[12] = {0,
                                          0,
                                          0,
                                          0,
                                          0,
                                          0,
                                          0x890dc9e4867545c3,
                                          0x2af322533285a5d5,
                                          0x50880866309b7e2c,
                                          0xa20d1b8c7e881024,
                                          0x14e4f04fe2db9068,
                                          0x14e56d3f1564853a};
static const uint64_t G2_381_PSI_Y[12] = {
    0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18,
    0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8, 0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c,
    0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2};
static const uint64_t G2_254_PSI_X[8] = {0xb5773b104563ab30, 0x347f91c8a9aa6454, 0x7a007127242e0991,
                                         0x1956bcd8118214ec, 0x6e849f1ea0aa4757, 0xaa1c7b6d89f89141,
                                         0xb6e713cdfae0ca3a, 0x26694fbb4e82ebc3};
static const uint64_t G2_254_PSI_Y[8] = {0xe4bbdd0c2936b629, 0xbb30f162e133bacb, 0x31a9d1b6f9645366,
                                         0x253570bea500f8dd, 0xa1d77ce45ffe77c7, 0x07affd117826d1db,
                                         0x6d16bd27bb7edc6b, 0x2c87200285defecc};

/* The eigenvalue of ψ on G2 for the subgroup check: BLS12-381 x = −0xd201000000010000 (G1's
 * seed), BN254 6u² (127 bits, u = 4965661367192848881). */
static const uint64_t G2_254_SIX_U2[4] = {0xf83e9682e87cfd46, 0x6f4d8248eeb859fb, 0, 0};

#endif

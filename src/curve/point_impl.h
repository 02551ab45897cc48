/* The point template: every function of one group of points (include/mulred/curve.h), written
 * once and instantiated four times, G1 and G2 of BLS12-381 and BN254 (curve.c, curve_g2.c). An
 * instance defines
 *   POINT       the group's name (g1_381, g1_254, g2_381, g2_254): public names mulred_POINT_*
 *   POINT_K     the prefix of its curve constants: POINT_K_B (b of y² = x³ + b, Montgomery),
 *               POINT_K_GEN_X, _GEN_Y (the generator, canonical), _BETA (β of the endomorphism),
 *               and for G1 of BLS12-381 _BETA_SUBGROUP and _SEED_ABS (the subgroup check)
 *   POINT_GLV   the prefix of λ and the GLV basis: POINT_GLV_LAMBDA, _GLV_A1 .. _GLV_G2 (G2 uses
 *               G1's: on G2 the instances use β² so that G1's λ serves)
 *   POINT_ORDER the group order r (the scalar field's modulus)
 *   FP          the coordinates' field (fp381, fp254, fp2_381, fp2_254): the inline ops FP_add,
 *               FP_mul, ... of field_internal.h; the public mulred_FP_* for inversions
 *   FX8         the 8-lane type of FP (field/field_x8.h) for the 8-lane batch-affine path
 *   POINT_COFACTOR_ONE  (G1) 1 when every point of the curve is in the group (BN254)
 *   POINT_EXT   1 for G2: coordinates in the extension FP = Fp2 over the base field POINT_FB
 *               (β in POINT_FB, multiplied in by FP_mul_base, and on 8 lanes by FX8_mul_base
 *               with β in FX8B, the 8-lane type of POINT_FB); no subgroup check here (the
 *               instance brings its own, with ψ)
 * and includes this file, which includes its three parts and #undefs every parameter, so the
 * next instance defines its own:
 *   point_formulas_impl.h  affine, Jacobian and XYZZ formulas
 *   point_batch_impl.h     batch normalisation, batch-affine addition, the pair executor
 *   point_mul_impl.h       scalar multiplication, GLV, the subgroup check */

#define POINT_CAT_(a, b)    a##b
#define POINT_CAT(a, b)     POINT_CAT_(a, b)
#define GPUB(name)          POINT_CAT(POINT_CAT(mulred_, POINT), _##name) /* mulred_POINT_name */
#define GA                  POINT_CAT(POINT_CAT(mulred_, POINT), _affine)
#define GJ                  POINT_CAT(POINT_CAT(mulred_, POINT), _jacobian)
#define GX                  POINT_CAT(POINT_CAT(mulred_, POINT), _xyzz)
#define FE                  POINT_CAT(mulred_, FP)
#define F(name)             POINT_CAT(FP, _##name)                     /* inline field op */
#define FPUBF(name)         POINT_CAT(POINT_CAT(mulred_, FP), _##name) /* public field function */
#define GINT(name)          POINT_CAT(POINT, _##name)                  /* file-local helper */
#define POINT_B             POINT_CAT(POINT_K, _B)
#define POINT_GEN_X         POINT_CAT(POINT_K, _GEN_X)
#define POINT_GEN_Y         POINT_CAT(POINT_K, _GEN_Y)
#define POINT_BETA          POINT_CAT(POINT_K, _BETA)
#define POINT_BETA_SUBGROUP POINT_CAT(POINT_K, _BETA_SUBGROUP)
#define POINT_SEED_ABS      POINT_CAT(POINT_K, _SEED_ABS)
#define POINT_LAMBDA        POINT_CAT(POINT_GLV, _LAMBDA)
#define POINT_GLV_A1        POINT_CAT(POINT_GLV, _GLV_A1)
#define POINT_GLV_B1        POINT_CAT(POINT_GLV, _GLV_B1)
#define POINT_GLV_A2        POINT_CAT(POINT_GLV, _GLV_A2)
#define POINT_GLV_B2        POINT_CAT(POINT_GLV, _GLV_B2)
#define POINT_GLV_G1        POINT_CAT(POINT_GLV, _GLV_G1)
#define POINT_GLV_G2        POINT_CAT(POINT_GLV, _GLV_G2)
#ifndef POINT_EXT
#define POINT_EXT 0
#endif

/* r = a·β for β given as a Montgomery residue of the base field (G1: FP itself). */
static inline void GINT(mul_beta)(FE *r, const FE *a, const uint64_t *beta_limbs)
{
#if POINT_EXT
    POINT_CAT(mulred_, POINT_FB) beta;
    memcpy(&beta, beta_limbs, sizeof beta);
    F(mul_base)(r, a, &beta);
#else
    FE beta;
    memcpy(&beta, beta_limbs, sizeof beta);
    F(mul)(r, a, &beta);
#endif
}

#include "curve/point_formulas_impl.h"
#include "curve/point_batch_impl.h"
#include "curve/point_mul_impl.h"

#undef POINT_CAT_
#undef POINT_CAT
#undef GPUB
#undef GA
#undef GJ
#undef GX
#undef FE
#undef F
#undef FPUBF
#undef GINT
#undef POINT_EXT
/* the instance's parameters, so the next instance defines its own */
#undef FP
#undef FX8
#undef FX8B
#undef POINT
#undef POINT_FB
#undef POINT_B
#undef POINT_BETA
#undef POINT_BETA_SUBGROUP
#undef POINT_COFACTOR_ONE
#undef POINT_GEN_X
#undef POINT_GEN_Y
#undef POINT_GLV_A1
#undef POINT_GLV_A2
#undef POINT_GLV_B1
#undef POINT_GLV_B2
#undef POINT_GLV_G1
#undef POINT_GLV_G2
#undef POINT_LAMBDA
#undef POINT_ORDER
#undef POINT_SEED_ABS
#undef POINT_K
#undef POINT_GLV

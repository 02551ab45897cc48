/* G2 of BLS12-381 and BN254: point_impl.h instantiated over Fp2 (the same formulas, batches and
 * scalar multiplication as G1), and ψ with the subgroup checks it gives.
 *
 * Generators: BLS12-381 G2 from the IETF pairing-friendly-curves draft and the ZCash
 * specification; BN254 G2 from EIP-197. tests/test_g2.c checks them on the curve, of order r,
 * and against their published encodings. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "curve/curve_internal.h"
#include "field/field_internal.h"
#include "field/field_x8.h"
#include "mulred/curve.h"
#include "util/check.h"
#include "util/util.h"

#define POINT       g2_381
#define POINT_K     G2_381
#define POINT_GLV   G1_381
#define POINT_ORDER FR381_P
#define POINT_EXT   1
#define POINT_FB    fp381
#define FP          fp2_381
#define FX8         fp2_381x8
#define FX8B        fp381x8
#include "curve/point_impl.h"

#define POINT       g2_254
#define POINT_K     G2_254
#define POINT_GLV   G1_254
#define POINT_ORDER FR254_P
#define POINT_EXT   1
#define POINT_FB    fp254
#define FP          fp2_254
#define FX8         fp2_254x8
#define FX8B        fp254x8
#include "curve/point_impl.h"

/* ---- ψ and the subgroup checks ---- */

void mulred_g2_381_affine_psi(mulred_g2_381_affine *r, const mulred_g2_381_affine *a)
{
    mulred_fp2_381 cx, cy;
    memcpy(&cx, G2_381_PSI_X, sizeof cx);
    memcpy(&cy, G2_381_PSI_Y, sizeof cy);
    fp2_381_conj(&r->x, &a->x);
    fp2_381_mul(&r->x, &r->x, &cx); /* infinity (0, 0) stays (0, 0) */
    fp2_381_conj(&r->y, &a->y);
    fp2_381_mul(&r->y, &r->y, &cy);
}

void mulred_g2_254_affine_psi(mulred_g2_254_affine *r, const mulred_g2_254_affine *a)
{
    mulred_fp2_254 cx, cy;
    memcpy(&cx, G2_254_PSI_X, sizeof cx);
    memcpy(&cy, G2_254_PSI_Y, sizeof cy);
    fp2_254_conj(&r->x, &a->x);
    fp2_254_mul(&r->x, &r->x, &cx);
    fp2_254_conj(&r->y, &a->y);
    fp2_254_mul(&r->y, &r->y, &cy);
}

bool mulred_g2_381_affine_in_g2_var(const mulred_g2_381_affine *a)
{
    if (mulred_g2_381_affine_is_infinity(a)) return true;
    /* q = |x|·P by double-and-add (x = −|x|); then ψ(P) = −q, compared without an inversion:
     * ψx·Z² = X and ψy·Z³ = −Y */
    mulred_g2_381_jacobian q;
    mulred_g2_381_jacobian_from_affine(&q, a);
    for (int bit = 62 - __builtin_clzll(G1_381_SEED_ABS); bit >= 0; bit--) {
        mulred_g2_381_jacobian_double(&q, &q);
        if ((G1_381_SEED_ABS >> bit) & 1) mulred_g2_381_jacobian_add_affine(&q, &q, a);
    }
    if (fp2_381_is_zero(&q.z)) return false; /* ψ(P) ≠ O for P ≠ O */
    mulred_g2_381_affine s;
    mulred_fp2_381 z2, t;
    mulred_g2_381_affine_psi(&s, a);
    fp2_381_sqr(&z2, &q.z);
    fp2_381_mul(&t, &s.x, &z2);
    if (!fp2_381_equal(&t, &q.x)) return false;
    fp2_381_mul(&z2, &z2, &q.z);
    fp2_381_mul(&t, &s.y, &z2);
    fp2_381_add(&t, &t, &q.y);
    return fp2_381_is_zero(&t);
}

bool mulred_g2_254_affine_in_g2_var(const mulred_g2_254_affine *a)
{
    if (mulred_g2_254_affine_is_infinity(a)) return true;
    mulred_g2_254_jacobian p, q;
    mulred_g2_254_jacobian_from_affine(&p, a);
    mulred_g2_254_jacobian_mul_var(&q, &p, G2_254_SIX_U2);
    if (fp2_254_is_zero(&q.z)) return false;
    mulred_g2_254_affine s;
    mulred_fp2_254 z2, t;
    mulred_g2_254_affine_psi(&s, a);
    fp2_254_sqr(&z2, &q.z);
    fp2_254_mul(&t, &s.x, &z2);
    if (!fp2_254_equal(&t, &q.x)) return false;
    fp2_254_mul(&z2, &z2, &q.z);
    fp2_254_mul(&t, &s.y, &z2);
    return fp2_254_equal(&t, &q.y);
}

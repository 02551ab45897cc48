/* An independent reference for Fp2 and G2 of BLS12-381 and BN254 in the tests: Fp2 = Fp[u]/(u²+1)
 * with GMP mpz coefficients (schoolbook products, inversion through mpz_invert of the norm),
 * affine chord-and-tangent points over it and double-and-add, on the published constants
 * (generators: the IETF pairing-friendly-curves draft / ZCash spec for BLS12-381, EIP-197 for
 * BN254; the twist coefficients 4(1 + u) and 3/(9 + u), the latter computed here). Nothing is
 * taken from the library; conversions from its types go through canonical limbs only. */
#ifndef MULRED_TEST_G2_REF_H
#define MULRED_TEST_G2_REF_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    mpz_t c0, c1;
} ref_fp2;

typedef struct {
    ref_fp2 x, y;
    int inf;
} ref_point2;

typedef struct {
    const char *name;
    int limbs;     /* of a base-field element: 6, 4 */
    size_t pbytes; /* 48, 32 */
    mpz_t p, r;
    ref_fp2 b;
    ref_point2 g;
} ref_curve2;

/* c: 0 = BLS12-381, 1 = BN254. */
const ref_curve2 *ref2_curve(int c);

void ref_fp2_init(ref_fp2 *a);
void ref_fp2_clear(ref_fp2 *a);
void ref_fp2_set(ref_fp2 *r, const ref_fp2 *a);
int ref_fp2_equal(const ref_fp2 *a, const ref_fp2 *b);
int ref_fp2_is_zero(const ref_fp2 *a);
void ref_fp2_add(const mpz_t p, ref_fp2 *r, const ref_fp2 *a, const ref_fp2 *b);
void ref_fp2_sub(const mpz_t p, ref_fp2 *r, const ref_fp2 *a, const ref_fp2 *b);
void ref_fp2_neg(const mpz_t p, ref_fp2 *r, const ref_fp2 *a);
void ref_fp2_mul(const mpz_t p, ref_fp2 *r, const ref_fp2 *a, const ref_fp2 *b);
/* r = 1/a (a ≠ 0). */
void ref_fp2_inv(const mpz_t p, ref_fp2 *r, const ref_fp2 *a);

void ref_point2_init(ref_point2 *a);
void ref_point2_clear(ref_point2 *a);
void ref_point2_set(ref_point2 *r, const ref_point2 *a);
int ref_point2_equal(const ref_point2 *a, const ref_point2 *b);
void ref2_add(const ref_curve2 *c, ref_point2 *r, const ref_point2 *a, const ref_point2 *b);
void ref2_neg(const ref_curve2 *c, ref_point2 *r, const ref_point2 *a);
/* r = k·a, k >= 0. */
void ref2_mul(const ref_curve2 *c, ref_point2 *r, const ref_point2 *a, const mpz_t k);
int ref2_on_curve(const ref_curve2 *c, const ref_point2 *a);

/* The library's Fp2 element (mulred_fp2_381 / mulred_fp2_254) of curve c to ref and back. */
void ref_fp2_from_lib(int c, ref_fp2 *r, const void *elem);
void ref_fp2_to_lib(int c, void *elem, const ref_fp2 *a);
/* The library's G2 affine / Jacobian point (mulred_g2_381_* / mulred_g2_254_*). */
void ref2_from_affine(int c, ref_point2 *r, const void *affine);
void ref2_to_affine(int c, void *affine, const ref_point2 *a);
void ref2_from_jacobian(int c, ref_point2 *r, const void *jacobian);

#endif

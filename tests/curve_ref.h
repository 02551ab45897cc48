/* An independent reference for G1 of BLS12-381 and BN254 in the tests: affine points with GMP
 * mpz coordinates, chord-and-tangent addition with mpz_invert slopes and double-and-add, over
 * the curves' published constants (nothing taken from the library). Conversions from the
 * library's point types go through the field layer's canonical limbs only. */
#ifndef MULRED_TEST_CURVE_REF_H
#define MULRED_TEST_CURVE_REF_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    mpz_t x, y;
    int inf;
} ref_point;

typedef struct {
    const char *name;
    size_t pbytes; /* bytes of an encoded coordinate (48, 32) */
    mpz_t p, r, b, h;
    ref_point g;
} ref_curve;

/* c: 0 = BLS12-381, 1 = BN254 (the order of mulred_curve). */
const ref_curve *ref_curve_get(int c);

void ref_point_init(ref_point *a);
void ref_point_clear(ref_point *a);
void ref_point_set(ref_point *r, const ref_point *a);
int ref_point_equal(const ref_point *a, const ref_point *b);
void ref_add(const ref_curve *c, ref_point *r, const ref_point *a, const ref_point *b);
void ref_neg(const ref_curve *c, ref_point *r, const ref_point *a);
/* r = k·a, k >= 0. */
void ref_mul(const ref_curve *c, ref_point *r, const ref_point *a, const mpz_t k);
int ref_on_curve(const ref_curve *c, const ref_point *a);
/* A point of the curve outside G1: the first x >= x0 with x³ + b a square and r·(x, y) ≠ O.
 * BLS12-381 only (BN254's cofactor is 1: every point of its curve is in G1). */
void ref_point_off_subgroup(const ref_curve *c, ref_point *r, unsigned long x0);

/* The library's affine or Jacobian point of curve c (mulred_g1_381_* / mulred_g1_254_*). */
void ref_from_affine(int c, ref_point *r, const void *affine);
void ref_from_jacobian(int c, ref_point *r, const void *jacobian);
/* Does the library's affine or Jacobian point of curve c equal want (infinity included)? */
int ref_affine_matches(int c, const void *affine, const ref_point *want);
int ref_jacobian_matches(int c, const void *jacobian, const ref_point *want);
/* Limbs (4, little-endian) to mpz and back. */
void ref_mpz_from_u256(mpz_t z, const uint64_t l[4]);
void ref_mpz_to_u256(uint64_t l[4], const mpz_t z);
/* The big-endian bytes of z into out[0..len) (z < 256^len). */
void ref_mpz_to_be(uint8_t *out, size_t len, const mpz_t z);

#endif

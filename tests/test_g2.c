/* Fp2 and G2 of BLS12-381 and BN254 (include/mulred/field.h, curve.h; src/field/fp2_impl.h,
 * src/curve/curve_g2.c) against the mpz reference of g2_ref.c: Fp2 arithmetic on edge
 * elements (0, 1, p − 1, u, zero c0 or c1) and random ones; the square root against Euler's
 * criterion on the norm; the twist coefficient, generators, endomorphisms φ (= λ) and ψ
 * (= p mod r) against reference multiples; every coordinate system and addition with P = Q,
 * P = −Q and infinity; batch-affine pairs with ±φ; the ψ subgroup check against r·P = O on
 * points outside G2 (found by trying x until x³ + b′ is a square, no cofactor clearing). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve_internal.h"
#include "g2_ref.h"
#include "curve_ref.h"
#include "harness.h"
#include "mulred/curve.h"
#include "mulred/field.h"

#define TG g2_381
#define TF fp2_381
#define TB fp381
#define TC 0
#define TN 6
#include "test_g2_impl.h"
#undef TG
#undef TF
#undef TB
#undef TC
#undef TN

#define TG g2_254
#define TF fp2_254
#define TB fp254
#define TC 1
#define TN 4
#include "test_g2_impl.h"
#undef TG
#undef TF
#undef TB
#undef TC
#undef TN

void test_register(void)
{
    TEST_SUITE("fp2", {"bls12-381 arithmetic", g2_381_t_fp2_arith},
               {"bn254 arithmetic", g2_254_t_fp2_arith}, {"bls12-381 sqrt", g2_381_t_fp2_sqrt},
               {"bn254 sqrt", g2_254_t_fp2_sqrt});
    TEST_SUITE("g2", {"bls12-381 constants", g2_381_t_constants},
               {"bn254 constants", g2_254_t_constants}, {"bls12-381 group ops", g2_381_t_group_ops},
               {"bn254 group ops", g2_254_t_group_ops}, {"bls12-381 batches", g2_381_t_batches},
               {"bn254 batches", g2_254_t_batches}, {"bls12-381 subgroup", g2_381_t_subgroup},
               {"bn254 subgroup", g2_254_t_subgroup});
}

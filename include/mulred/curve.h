/* G1 of BLS12-381 (y² = x³ + 4 over Fp381) and of BN254 (y² = x³ + 3 over Fp254).
 *
 *   curve G    field F   group order r    cofactor
 *   g1_381     fp381     fr381's modulus  0x396c8c005555e1568c00aaab0000aaab
 *   g1_254     fp254     fr254's modulus  1
 *
 * Point representations (coordinates are field elements, include/mulred/field.h: Montgomery
 * form, fully reduced):
 *   mulred_G_affine    (x, y); the point at infinity is (0, 0), which is on neither curve
 *                      (0 ≠ b), the convention of EIP-196 and blst.
 *   mulred_G_jacobian  (X, Y, Z) for (X/Z², Y/Z³); infinity: Z = 0.
 *   mulred_G_xyzz      (X, Y, ZZ, ZZZ) for (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²; infinity: ZZ = 0
 *                      (then ZZZ = 0 too). The bucket form of the MSM: a mixed addition costs
 *                      8M + 2S against 8M + 3S in Jacobian coordinates.
 * Projective representations are not unique: compare with the _equal functions.
 *
 * Inputs must be points of the curve (or infinity) unless a function says it checks; for any
 * other input the results are meaningless but memory-safe. Points from outside data go
 * through a checked decoder or is_on_curve first.
 *
 * Every function is correct for every input point: infinity as either operand, P + P
 * (the addition formulas detect it and double), P + (−P) (infinity). Outputs may alias inputs.
 * Timing: everything here is VARIABLE TIME (the exceptional cases branch; scalar
 * multiplication branches on the scalar): use it on public data only (MSM, commitments,
 * verification), never on secret scalars.
 *
 * Every function below exists for both curves, G in {g1_381, g1_254} (one declaration per
 * curve, grouped by function, the contract above each group). */
#ifndef MULRED_CURVE_H
#define MULRED_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/common.h"
#include "mulred/field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    mulred_fp381 x, y;
} mulred_g1_381_affine;
typedef struct {
    mulred_fp381 x, y, z;
} mulred_g1_381_jacobian;
typedef struct {
    mulred_fp381 x, y, zz, zzz;
} mulred_g1_381_xyzz;

typedef struct {
    mulred_fp254 x, y;
} mulred_g1_254_affine;
typedef struct {
    mulred_fp254 x, y, z;
} mulred_g1_254_jacobian;
typedef struct {
    mulred_fp254 x, y, zz, zzz;
} mulred_g1_254_xyzz;

/* A pair of a batch addition (mulred_G_batch_add_pairs_var): *acc += ±φ(*pt) per flags. */
#define MULRED_PAIR_NEG  1u /* add −pt */
#define MULRED_PAIR_ENDO 2u /* add φ(pt) = (β·x, y) */
typedef struct {
    mulred_g1_381_affine *acc;
    const mulred_g1_381_affine *pt;
    uint32_t flags;
} mulred_g1_381_affine_pair;
typedef struct {
    mulred_g1_254_affine *acc;
    const mulred_g1_254_affine *pt;
    uint32_t flags;
} mulred_g1_254_affine_pair;

/* Field arithmetic of a batch: one element at a time, or 8 lanes (AVX-512 IFMA). */
typedef enum {
    MULRED_LANES_AUTO = 0,   /* X8 when the CPU has AVX-512 IFMA, else SCALAR */
    MULRED_LANES_SCALAR = 1, /* the field layer's scalar kernels (portable or MULX) */
    MULRED_LANES_X8 = 2,     /* 8 pairs per vector operation; misuse without AVX-512 IFMA */
} mulred_lanes;

/* ---- affine ---- */

/* r = the standard generator (curve.c gives its coordinates). */
MULRED_API void mulred_g1_381_generator(mulred_g1_381_affine *r);
MULRED_API void mulred_g1_254_generator(mulred_g1_254_affine *r);

/* r = the point at infinity, (0, 0). */
MULRED_API void mulred_g1_381_affine_set_infinity(mulred_g1_381_affine *r);
MULRED_API void mulred_g1_254_affine_set_infinity(mulred_g1_254_affine *r);

/* a is the point at infinity. */
MULRED_API bool mulred_g1_381_affine_is_infinity(const mulred_g1_381_affine *a);
MULRED_API bool mulred_g1_254_affine_is_infinity(const mulred_g1_254_affine *a);

/* a = b. */
MULRED_API bool mulred_g1_381_affine_equal(const mulred_g1_381_affine *a,
                                           const mulred_g1_381_affine *b);
MULRED_API bool mulred_g1_254_affine_equal(const mulred_g1_254_affine *a,
                                           const mulred_g1_254_affine *b);

/* r = −a. */
MULRED_API void mulred_g1_381_affine_neg(mulred_g1_381_affine *r, const mulred_g1_381_affine *a);
MULRED_API void mulred_g1_254_affine_neg(mulred_g1_254_affine *r, const mulred_g1_254_affine *a);

/* y² = x³ + b, or a is infinity. Checks any coordinates (fully reduced field elements). */
MULRED_API bool mulred_g1_381_affine_is_on_curve(const mulred_g1_381_affine *a);
MULRED_API bool mulred_g1_254_affine_is_on_curve(const mulred_g1_254_affine *a);

/* ---- Jacobian ---- */

/* r = infinity (Z = 0). */
MULRED_API void mulred_g1_381_jacobian_set_infinity(mulred_g1_381_jacobian *r);
MULRED_API void mulred_g1_254_jacobian_set_infinity(mulred_g1_254_jacobian *r);

/* a is infinity (Z = 0). */
MULRED_API bool mulred_g1_381_jacobian_is_infinity(const mulred_g1_381_jacobian *a);
MULRED_API bool mulred_g1_254_jacobian_is_infinity(const mulred_g1_254_jacobian *a);

/* r = a, (x, y, 1), or infinity. */
MULRED_API void mulred_g1_381_jacobian_from_affine(mulred_g1_381_jacobian *r,
                                                   const mulred_g1_381_affine *a);
MULRED_API void mulred_g1_254_jacobian_from_affine(mulred_g1_254_jacobian *r,
                                                   const mulred_g1_254_affine *a);

/* r = a in affine form (one inversion). */
MULRED_API void mulred_g1_381_jacobian_to_affine(mulred_g1_381_affine *r,
                                                 const mulred_g1_381_jacobian *a);
MULRED_API void mulred_g1_254_jacobian_to_affine(mulred_g1_254_affine *r,
                                                 const mulred_g1_254_jacobian *a);

/* a and b are the same point (projective representations differ). */
MULRED_API bool mulred_g1_381_jacobian_equal(const mulred_g1_381_jacobian *a,
                                             const mulred_g1_381_jacobian *b);
MULRED_API bool mulred_g1_254_jacobian_equal(const mulred_g1_254_jacobian *a,
                                             const mulred_g1_254_jacobian *b);

/* r = −a. */
MULRED_API void mulred_g1_381_jacobian_neg(mulred_g1_381_jacobian *r,
                                           const mulred_g1_381_jacobian *a);
MULRED_API void mulred_g1_254_jacobian_neg(mulred_g1_254_jacobian *r,
                                           const mulred_g1_254_jacobian *a);

/* r = 2a (2M + 5S). */
MULRED_API void mulred_g1_381_jacobian_double(mulred_g1_381_jacobian *r,
                                              const mulred_g1_381_jacobian *a);
MULRED_API void mulred_g1_254_jacobian_double(mulred_g1_254_jacobian *r,
                                              const mulred_g1_254_jacobian *a);

/* r = a + b (12M + 4S). */
MULRED_API void mulred_g1_381_jacobian_add(mulred_g1_381_jacobian *r,
                                           const mulred_g1_381_jacobian *a,
                                           const mulred_g1_381_jacobian *b);
MULRED_API void mulred_g1_254_jacobian_add(mulred_g1_254_jacobian *r,
                                           const mulred_g1_254_jacobian *a,
                                           const mulred_g1_254_jacobian *b);

/* r = a + b, b affine (8M + 3S). */
MULRED_API void mulred_g1_381_jacobian_add_affine(mulred_g1_381_jacobian *r,
                                                  const mulred_g1_381_jacobian *a,
                                                  const mulred_g1_381_affine *b);
MULRED_API void mulred_g1_254_jacobian_add_affine(mulred_g1_254_jacobian *r,
                                                  const mulred_g1_254_jacobian *a,
                                                  const mulred_g1_254_affine *b);

/* ---- XYZZ ---- */

/* r = infinity (ZZ = ZZZ = 0). */
MULRED_API void mulred_g1_381_xyzz_set_infinity(mulred_g1_381_xyzz *r);
MULRED_API void mulred_g1_254_xyzz_set_infinity(mulred_g1_254_xyzz *r);

/* a is infinity (ZZ = 0). */
MULRED_API bool mulred_g1_381_xyzz_is_infinity(const mulred_g1_381_xyzz *a);
MULRED_API bool mulred_g1_254_xyzz_is_infinity(const mulred_g1_254_xyzz *a);

/* r = a, (x, y, 1, 1), or infinity. */
MULRED_API void mulred_g1_381_xyzz_from_affine(mulred_g1_381_xyzz *r,
                                               const mulred_g1_381_affine *a);
MULRED_API void mulred_g1_254_xyzz_from_affine(mulred_g1_254_xyzz *r,
                                               const mulred_g1_254_affine *a);

/* r = a in affine form (one inversion). */
MULRED_API void mulred_g1_381_xyzz_to_affine(mulred_g1_381_affine *r, const mulred_g1_381_xyzz *a);
MULRED_API void mulred_g1_254_xyzz_to_affine(mulred_g1_254_affine *r, const mulred_g1_254_xyzz *a);

/* r = a in Jacobian form, (X·ZZ², Y·ZZZ², ZZZ): 2M + 2S. */
MULRED_API void mulred_g1_381_xyzz_to_jacobian(mulred_g1_381_jacobian *r,
                                               const mulred_g1_381_xyzz *a);
MULRED_API void mulred_g1_254_xyzz_to_jacobian(mulred_g1_254_jacobian *r,
                                               const mulred_g1_254_xyzz *a);

/* a and b are the same point. */
MULRED_API bool mulred_g1_381_xyzz_equal(const mulred_g1_381_xyzz *a, const mulred_g1_381_xyzz *b);
MULRED_API bool mulred_g1_254_xyzz_equal(const mulred_g1_254_xyzz *a, const mulred_g1_254_xyzz *b);

/* r = −a. */
MULRED_API void mulred_g1_381_xyzz_neg(mulred_g1_381_xyzz *r, const mulred_g1_381_xyzz *a);
MULRED_API void mulred_g1_254_xyzz_neg(mulred_g1_254_xyzz *r, const mulred_g1_254_xyzz *a);

/* r = 2a (6M + 3S). */
MULRED_API void mulred_g1_381_xyzz_double(mulred_g1_381_xyzz *r, const mulred_g1_381_xyzz *a);
MULRED_API void mulred_g1_254_xyzz_double(mulred_g1_254_xyzz *r, const mulred_g1_254_xyzz *a);

/* r = a + b (12M + 2S). */
MULRED_API void mulred_g1_381_xyzz_add(mulred_g1_381_xyzz *r, const mulred_g1_381_xyzz *a,
                                       const mulred_g1_381_xyzz *b);
MULRED_API void mulred_g1_254_xyzz_add(mulred_g1_254_xyzz *r, const mulred_g1_254_xyzz *a,
                                       const mulred_g1_254_xyzz *b);

/* r = a + b, b affine (8M + 2S). */
MULRED_API void mulred_g1_381_xyzz_add_affine(mulred_g1_381_xyzz *r, const mulred_g1_381_xyzz *a,
                                              const mulred_g1_381_affine *b);
MULRED_API void mulred_g1_254_xyzz_add_affine(mulred_g1_254_xyzz *r, const mulred_g1_254_xyzz *a,
                                              const mulred_g1_254_affine *b);

/* r = a − b, b affine (8M + 2S). */
MULRED_API void mulred_g1_381_xyzz_sub_affine(mulred_g1_381_xyzz *r, const mulred_g1_381_xyzz *a,
                                              const mulred_g1_381_affine *b);
MULRED_API void mulred_g1_254_xyzz_sub_affine(mulred_g1_254_xyzz *r, const mulred_g1_254_xyzz *a,
                                              const mulred_g1_254_affine *b);

/* ---- batches ---- */

/* Bytes of scratch for the two batch_to_affine_var functions of n points. */
MULRED_API size_t mulred_g1_381_batch_to_affine_scratch_size(size_t n);
MULRED_API size_t mulred_g1_254_batch_to_affine_scratch_size(size_t n);

/* r[i] = a[i] in affine form for i < n, with one shared inversion (Montgomery's trick;
 * infinities inside are fine). r must not overlap a. scratch: batch_to_affine_scratch_size(n)
 * bytes. */
MULRED_API void mulred_g1_381_jacobian_batch_to_affine_var(mulred_g1_381_affine *r,
                                                           const mulred_g1_381_jacobian *a,
                                                           size_t n, void *scratch);
MULRED_API void mulred_g1_381_xyzz_batch_to_affine_var(mulred_g1_381_affine *r,
                                                       const mulred_g1_381_xyzz *a, size_t n,
                                                       void *scratch);
MULRED_API void mulred_g1_254_jacobian_batch_to_affine_var(mulred_g1_254_affine *r,
                                                           const mulred_g1_254_jacobian *a,
                                                           size_t n, void *scratch);
MULRED_API void mulred_g1_254_xyzz_batch_to_affine_var(mulred_g1_254_affine *r,
                                                       const mulred_g1_254_xyzz *a, size_t n,
                                                       void *scratch);

/* Bytes of scratch for batch_add_affine_var of n pairs. */
MULRED_API size_t mulred_g1_381_batch_add_affine_scratch_size(size_t n);
MULRED_API size_t mulred_g1_254_batch_add_affine_scratch_size(size_t n);

/* *acc[i] <- *acc[i] + *pts[i] for every i < n: n independent affine additions sharing one
 * field inversion, 5M + 1S per pair (Montgomery's trick: the slope denominators are multiplied
 * up, the product inverted once, and the inverses peeled off backwards). Correct for every
 * pair: *pts[i] at infinity (no change), *acc[i] at infinity (becomes *pts[i]), equal points
 * (doubling, slope 3x²/2y), opposite points (infinity). acc[i] and pts[i] may be the same
 * pointer.
 * NOT ALLOWED: the same acc pointer twice in one batch (the second result would be lost), or a
 * pts[j] that is also some acc[i], i ≠ j (it would be read after it is written). The MSM's
 * collision queue guarantees both. A repeated acc is caught and reported as misuse (a
 * fingerprint of each accumulator, taken before the shared inversion, is compared when the
 * result is written back: a miss needs a 64-bit collision).
 * scratch: batch_add_affine_scratch_size(n) bytes, 8-byte aligned, caller-owned; nothing is
 * allocated. */
MULRED_API void mulred_g1_381_batch_add_affine_var(mulred_g1_381_affine *const *acc,
                                                   const mulred_g1_381_affine *const *pts, size_t n,
                                                   void *scratch);
MULRED_API void mulred_g1_254_batch_add_affine_var(mulred_g1_254_affine *const *acc,
                                                   const mulred_g1_254_affine *const *pts, size_t n,
                                                   void *scratch);

/* Bytes of scratch for batch_add_pairs_var of n pairs. */
MULRED_API size_t mulred_g1_381_batch_add_pairs_scratch_size(size_t n);
MULRED_API size_t mulred_g1_254_batch_add_pairs_scratch_size(size_t n);

/* The general form, the one the MSM's buckets use: for every i < n, *pairs[i].acc <-
 * *pairs[i].acc + Q where Q = pairs[i].pt, or −Q (flag MULRED_PAIR_NEG), φ(Q)
 * (MULRED_PAIR_ENDO), −φ(Q) (both): the signed digits and GLV halves of Pippenger's buckets,
 * without negated or φ copies of the points. Same rules as batch_add_affine_var for every pair
 * (infinity, P = Q, P = −Q; no acc twice; no pt that is another pair's acc); other flag bits
 * are ignored.
 * lanes: MULRED_LANES_SCALAR runs batch_add_affine_var's one chain on the field layer's scalar
 * kernels; MULRED_LANES_X8 cuts the batch into groups of 8 pairs that share every operation of
 * the 8-lane field kernels (AVX-512 IFMA, 8 Montgomery chains, one 8-lane inversion; pairs
 * with equal x leave the lanes and finish on the scalar path) and is misuse on a CPU without
 * AVX-512 IFMA; MULRED_LANES_AUTO picks X8 where the CPU has it. Results are identical on both
 * paths (fully reduced coordinates). The repeated-acc check of the scalar path is not made on
 * the 8-lane path.
 * scratch: batch_add_pairs_scratch_size(n) bytes, caller-owned (any alignment; 64 bytes is
 * used internally); nothing is allocated. */
MULRED_API void mulred_g1_381_batch_add_pairs_var(const mulred_g1_381_affine_pair *pairs, size_t n,
                                                  mulred_lanes lanes, void *scratch);
MULRED_API void mulred_g1_254_batch_add_pairs_var(const mulred_g1_254_affine_pair *pairs, size_t n,
                                                  mulred_lanes lanes, void *scratch);

/* ---- scalar multiplication ---- */

/* r = k·a for any 256-bit k (little-endian limbs; it need not be reduced mod r) and any point a
 * of the curve. Width-5 wNAF over a table of odd multiples (about 256 doublings). Variable
 * time. */
MULRED_API void mulred_g1_381_jacobian_mul_var(mulred_g1_381_jacobian *r,
                                               const mulred_g1_381_jacobian *a,
                                               const uint64_t k[4]);
MULRED_API void mulred_g1_254_jacobian_mul_var(mulred_g1_254_jacobian *r,
                                               const mulred_g1_254_jacobian *a,
                                               const uint64_t k[4]);

/* ---- GLV (the endomorphism φ(x, y) = (βx, y), β a cube root of unity in F; on G1, φ(P) = λ·P)
 * ---- */

/* r = φ(a) (1M). */
MULRED_API void mulred_g1_381_affine_endomorphism(mulred_g1_381_affine *r,
                                                  const mulred_g1_381_affine *a);
MULRED_API void mulred_g1_254_affine_endomorphism(mulred_g1_254_affine *r,
                                                  const mulred_g1_254_affine *a);

/* out = λ (canonical, < r). */
MULRED_API void mulred_g1_381_glv_lambda(uint64_t out[4]);
MULRED_API void mulred_g1_254_glv_lambda(uint64_t out[4]);

/* For any 256-bit k: k ≡ ±k1 + (±k2)·λ (mod r), the signs in neg1, neg2, with k1, k2 < 2^128
 * (in fact < 2^127: Babai rounding against a reduced lattice basis). */
MULRED_API void mulred_g1_381_glv_decompose(uint64_t k1[2], bool *neg1, uint64_t k2[2], bool *neg2,
                                            const uint64_t k[4]);
MULRED_API void mulred_g1_254_glv_decompose(uint64_t k1[2], bool *neg1, uint64_t k2[2], bool *neg2,
                                            const uint64_t k[4]);

/* r = k·a for any 256-bit k, a IN G1 (the order-r subgroup; for g1_381 points outside it give
 * wrong results: use mul_var for those). Two 128-bit wNAF chains sharing the doublings (about
 * half of mul_var's). Variable time. */
MULRED_API void mulred_g1_381_jacobian_mul_glv_var(mulred_g1_381_jacobian *r,
                                                   const mulred_g1_381_jacobian *a,
                                                   const uint64_t k[4]);
MULRED_API void mulred_g1_254_jacobian_mul_glv_var(mulred_g1_254_jacobian *r,
                                                   const mulred_g1_254_jacobian *a,
                                                   const uint64_t k[4]);

/* ---- subgroup ---- */

/* a (on the curve: check is_on_curve first) lies in G1. g1_381: Scott's endomorphism test
 * φ'(P) = −x²·P (x the curve's parameter; about 128 doublings); g1_254: true (the cofactor
 * is 1). Variable time. */
MULRED_API bool mulred_g1_381_affine_in_g1_var(const mulred_g1_381_affine *a);
MULRED_API bool mulred_g1_254_affine_in_g1_var(const mulred_g1_254_affine *a);

/* ==== G2: the twists E′ over Fp2 (include/mulred/field.h: mulred_fp2_381, mulred_fp2_254) ====
 *
 *   curve G    field F    E′                      group order r     cofactor
 *   g2_381     fp2_381    y² = x³ + 4(1 + u)      fr381's modulus   (large, 508 bits)
 *   g2_254     fp2_254    y² = x³ + 3/(9 + u)     fr254's modulus   (large, 254 bits)
 *
 * The same engine as G1 (src/curve/point_impl.h instantiated over Fp2): the same representations
 * (affine with (0, 0) as infinity, Jacobian, XYZZ), the same contracts and costs counted in Fp2
 * operations (an Fp2 multiplication is 3 base multiplications). Differences: batch_add_pairs_var's
 * 8-lane path runs on 8-lane Fp2 kernels; the subgroup check is affine_in_g2_var; ψ (below) is
 * the untwist-Frobenius-twist endomorphism. */

typedef struct {
    mulred_fp2_381 x, y;
} mulred_g2_381_affine;
typedef struct {
    mulred_fp2_381 x, y, z;
} mulred_g2_381_jacobian;
typedef struct {
    mulred_fp2_381 x, y, zz, zzz;
} mulred_g2_381_xyzz;

typedef struct {
    mulred_fp2_254 x, y;
} mulred_g2_254_affine;
typedef struct {
    mulred_fp2_254 x, y, z;
} mulred_g2_254_jacobian;
typedef struct {
    mulred_fp2_254 x, y, zz, zzz;
} mulred_g2_254_xyzz;

/* A pair of a batch addition (batch_add_pairs_var): *acc += ±φ(*pt) per flags. */
typedef struct {
    mulred_g2_381_affine *acc;
    const mulred_g2_381_affine *pt;
    uint32_t flags;
} mulred_g2_381_affine_pair;
typedef struct {
    mulred_g2_254_affine *acc;
    const mulred_g2_254_affine *pt;
    uint32_t flags;
} mulred_g2_254_affine_pair;

/* ---- affine ---- */

/* r = the standard generator of G2 (curve_g2.c gives its coordinates). */
MULRED_API void mulred_g2_381_generator(mulred_g2_381_affine *r);
MULRED_API void mulred_g2_254_generator(mulred_g2_254_affine *r);

/* r = the point at infinity, (0, 0). */
MULRED_API void mulred_g2_381_affine_set_infinity(mulred_g2_381_affine *r);
MULRED_API void mulred_g2_254_affine_set_infinity(mulred_g2_254_affine *r);

/* a is the point at infinity. */
MULRED_API bool mulred_g2_381_affine_is_infinity(const mulred_g2_381_affine *a);
MULRED_API bool mulred_g2_254_affine_is_infinity(const mulred_g2_254_affine *a);

/* a = b. */
MULRED_API bool mulred_g2_381_affine_equal(const mulred_g2_381_affine *a,
                                           const mulred_g2_381_affine *b);
MULRED_API bool mulred_g2_254_affine_equal(const mulred_g2_254_affine *a,
                                           const mulred_g2_254_affine *b);

/* r = −a. */
MULRED_API void mulred_g2_381_affine_neg(mulred_g2_381_affine *r, const mulred_g2_381_affine *a);
MULRED_API void mulred_g2_254_affine_neg(mulred_g2_254_affine *r, const mulred_g2_254_affine *a);

/* y² = x³ + b′ (b′ = 4(1 + u), 3/(9 + u)), or a is infinity. Checks any coordinates. */
MULRED_API bool mulred_g2_381_affine_is_on_curve(const mulred_g2_381_affine *a);
MULRED_API bool mulred_g2_254_affine_is_on_curve(const mulred_g2_254_affine *a);

/* ---- Jacobian ---- */

/* r = infinity (Z = 0). */
MULRED_API void mulred_g2_381_jacobian_set_infinity(mulred_g2_381_jacobian *r);
MULRED_API void mulred_g2_254_jacobian_set_infinity(mulred_g2_254_jacobian *r);

/* a is infinity (Z = 0). */
MULRED_API bool mulred_g2_381_jacobian_is_infinity(const mulred_g2_381_jacobian *a);
MULRED_API bool mulred_g2_254_jacobian_is_infinity(const mulred_g2_254_jacobian *a);

/* r = a, (x, y, 1), or infinity. */
MULRED_API void mulred_g2_381_jacobian_from_affine(mulred_g2_381_jacobian *r,
                                                   const mulred_g2_381_affine *a);
MULRED_API void mulred_g2_254_jacobian_from_affine(mulred_g2_254_jacobian *r,
                                                   const mulred_g2_254_affine *a);

/* r = a in affine form (one inversion). */
MULRED_API void mulred_g2_381_jacobian_to_affine(mulred_g2_381_affine *r,
                                                 const mulred_g2_381_jacobian *a);
MULRED_API void mulred_g2_254_jacobian_to_affine(mulred_g2_254_affine *r,
                                                 const mulred_g2_254_jacobian *a);

/* a and b are the same point (projective representations differ). */
MULRED_API bool mulred_g2_381_jacobian_equal(const mulred_g2_381_jacobian *a,
                                             const mulred_g2_381_jacobian *b);
MULRED_API bool mulred_g2_254_jacobian_equal(const mulred_g2_254_jacobian *a,
                                             const mulred_g2_254_jacobian *b);

/* r = −a. */
MULRED_API void mulred_g2_381_jacobian_neg(mulred_g2_381_jacobian *r,
                                           const mulred_g2_381_jacobian *a);
MULRED_API void mulred_g2_254_jacobian_neg(mulred_g2_254_jacobian *r,
                                           const mulred_g2_254_jacobian *a);

/* r = 2a (2M + 5S). */
MULRED_API void mulred_g2_381_jacobian_double(mulred_g2_381_jacobian *r,
                                              const mulred_g2_381_jacobian *a);
MULRED_API void mulred_g2_254_jacobian_double(mulred_g2_254_jacobian *r,
                                              const mulred_g2_254_jacobian *a);

/* r = a + b (12M + 4S). */
MULRED_API void mulred_g2_381_jacobian_add(mulred_g2_381_jacobian *r,
                                           const mulred_g2_381_jacobian *a,
                                           const mulred_g2_381_jacobian *b);
MULRED_API void mulred_g2_254_jacobian_add(mulred_g2_254_jacobian *r,
                                           const mulred_g2_254_jacobian *a,
                                           const mulred_g2_254_jacobian *b);

/* r = a + b, b affine (8M + 3S). */
MULRED_API void mulred_g2_381_jacobian_add_affine(mulred_g2_381_jacobian *r,
                                                  const mulred_g2_381_jacobian *a,
                                                  const mulred_g2_381_affine *b);
MULRED_API void mulred_g2_254_jacobian_add_affine(mulred_g2_254_jacobian *r,
                                                  const mulred_g2_254_jacobian *a,
                                                  const mulred_g2_254_affine *b);

/* ---- XYZZ ---- */

/* r = infinity (ZZ = ZZZ = 0). */
MULRED_API void mulred_g2_381_xyzz_set_infinity(mulred_g2_381_xyzz *r);
MULRED_API void mulred_g2_254_xyzz_set_infinity(mulred_g2_254_xyzz *r);

/* a is infinity (ZZ = 0). */
MULRED_API bool mulred_g2_381_xyzz_is_infinity(const mulred_g2_381_xyzz *a);
MULRED_API bool mulred_g2_254_xyzz_is_infinity(const mulred_g2_254_xyzz *a);

/* r = a, (x, y, 1, 1), or infinity. */
MULRED_API void mulred_g2_381_xyzz_from_affine(mulred_g2_381_xyzz *r,
                                               const mulred_g2_381_affine *a);
MULRED_API void mulred_g2_254_xyzz_from_affine(mulred_g2_254_xyzz *r,
                                               const mulred_g2_254_affine *a);

/* r = a in affine form (one inversion). */
MULRED_API void mulred_g2_381_xyzz_to_affine(mulred_g2_381_affine *r, const mulred_g2_381_xyzz *a);
MULRED_API void mulred_g2_254_xyzz_to_affine(mulred_g2_254_affine *r, const mulred_g2_254_xyzz *a);

/* r = a in Jacobian form, (X·ZZ², Y·ZZZ², ZZZ): 2M + 2S. */
MULRED_API void mulred_g2_381_xyzz_to_jacobian(mulred_g2_381_jacobian *r,
                                               const mulred_g2_381_xyzz *a);
MULRED_API void mulred_g2_254_xyzz_to_jacobian(mulred_g2_254_jacobian *r,
                                               const mulred_g2_254_xyzz *a);

/* a and b are the same point. */
MULRED_API bool mulred_g2_381_xyzz_equal(const mulred_g2_381_xyzz *a, const mulred_g2_381_xyzz *b);
MULRED_API bool mulred_g2_254_xyzz_equal(const mulred_g2_254_xyzz *a, const mulred_g2_254_xyzz *b);

/* r = −a. */
MULRED_API void mulred_g2_381_xyzz_neg(mulred_g2_381_xyzz *r, const mulred_g2_381_xyzz *a);
MULRED_API void mulred_g2_254_xyzz_neg(mulred_g2_254_xyzz *r, const mulred_g2_254_xyzz *a);

/* r = 2a (6M + 3S). */
MULRED_API void mulred_g2_381_xyzz_double(mulred_g2_381_xyzz *r, const mulred_g2_381_xyzz *a);
MULRED_API void mulred_g2_254_xyzz_double(mulred_g2_254_xyzz *r, const mulred_g2_254_xyzz *a);

/* r = a + b (12M + 2S). */
MULRED_API void mulred_g2_381_xyzz_add(mulred_g2_381_xyzz *r, const mulred_g2_381_xyzz *a,
                                       const mulred_g2_381_xyzz *b);
MULRED_API void mulred_g2_254_xyzz_add(mulred_g2_254_xyzz *r, const mulred_g2_254_xyzz *a,
                                       const mulred_g2_254_xyzz *b);

/* r = a + b, b affine (8M + 2S). */
MULRED_API void mulred_g2_381_xyzz_add_affine(mulred_g2_381_xyzz *r, const mulred_g2_381_xyzz *a,
                                              const mulred_g2_381_affine *b);
MULRED_API void mulred_g2_254_xyzz_add_affine(mulred_g2_254_xyzz *r, const mulred_g2_254_xyzz *a,
                                              const mulred_g2_254_affine *b);

/* r = a − b, b affine (8M + 2S). */
MULRED_API void mulred_g2_381_xyzz_sub_affine(mulred_g2_381_xyzz *r, const mulred_g2_381_xyzz *a,
                                              const mulred_g2_381_affine *b);
MULRED_API void mulred_g2_254_xyzz_sub_affine(mulred_g2_254_xyzz *r, const mulred_g2_254_xyzz *a,
                                              const mulred_g2_254_affine *b);

/* ---- batches ---- */

/* Bytes of scratch for the two batch_to_affine_var functions of n points. */
MULRED_API size_t mulred_g2_381_batch_to_affine_scratch_size(size_t n);
MULRED_API size_t mulred_g2_254_batch_to_affine_scratch_size(size_t n);

/* r[i] = a[i] in affine form for i < n, with one shared inversion (Montgomery's trick;
 * infinities inside are fine). r must not overlap a. scratch: batch_to_affine_scratch_size(n)
 * bytes. */
MULRED_API void mulred_g2_381_jacobian_batch_to_affine_var(mulred_g2_381_affine *r,
                                                           const mulred_g2_381_jacobian *a,
                                                           size_t n, void *scratch);
MULRED_API void mulred_g2_381_xyzz_batch_to_affine_var(mulred_g2_381_affine *r,
                                                       const mulred_g2_381_xyzz *a, size_t n,
                                                       void *scratch);
MULRED_API void mulred_g2_254_jacobian_batch_to_affine_var(mulred_g2_254_affine *r,
                                                           const mulred_g2_254_jacobian *a,
                                                           size_t n, void *scratch);
MULRED_API void mulred_g2_254_xyzz_batch_to_affine_var(mulred_g2_254_affine *r,
                                                       const mulred_g2_254_xyzz *a, size_t n,
                                                       void *scratch);

/* Bytes of scratch for batch_add_affine_var of n pairs. */
MULRED_API size_t mulred_g2_381_batch_add_affine_scratch_size(size_t n);
MULRED_API size_t mulred_g2_254_batch_add_affine_scratch_size(size_t n);

/* *acc[i] <- *acc[i] + *pts[i] for every i < n: n independent affine additions sharing one
 * field inversion, 5M + 1S per pair (Montgomery's trick: the slope denominators are multiplied
 * up, the product inverted once, and the inverses peeled off backwards). Correct for every
 * pair: *pts[i] at infinity (no change), *acc[i] at infinity (becomes *pts[i]), equal points
 * (doubling, slope 3x²/2y), opposite points (infinity). acc[i] and pts[i] may be the same
 * pointer.
 * NOT ALLOWED: the same acc pointer twice in one batch (the second result would be lost), or a
 * pts[j] that is also some acc[i], i ≠ j (it would be read after it is written). The MSM's
 * collision queue guarantees both. A repeated acc is caught and reported as misuse (a
 * fingerprint of each accumulator, taken before the shared inversion, is compared when the
 * result is written back: a miss needs a 64-bit collision).
 * scratch: batch_add_affine_scratch_size(n) bytes, 8-byte aligned, caller-owned; nothing is
 * allocated. */
MULRED_API void mulred_g2_381_batch_add_affine_var(mulred_g2_381_affine *const *acc,
                                                   const mulred_g2_381_affine *const *pts, size_t n,
                                                   void *scratch);
MULRED_API void mulred_g2_254_batch_add_affine_var(mulred_g2_254_affine *const *acc,
                                                   const mulred_g2_254_affine *const *pts, size_t n,
                                                   void *scratch);

/* Bytes of scratch for batch_add_pairs_var of n pairs. */
MULRED_API size_t mulred_g2_381_batch_add_pairs_scratch_size(size_t n);
MULRED_API size_t mulred_g2_254_batch_add_pairs_scratch_size(size_t n);

/* The general form, the one the MSM's buckets use: for every i < n, *pairs[i].acc <-
 * *pairs[i].acc + Q where Q = pairs[i].pt, or −Q (flag MULRED_PAIR_NEG), φ(Q)
 * (MULRED_PAIR_ENDO), −φ(Q) (both): the signed digits and GLV halves of Pippenger's buckets,
 * without negated or φ copies of the points. Same rules as batch_add_affine_var for every pair
 * (infinity, P = Q, P = −Q; no acc twice; no pt that is another pair's acc); other flag bits
 * are ignored.
 * lanes: MULRED_LANES_SCALAR runs batch_add_affine_var's one chain on the field layer's scalar
 * kernels; MULRED_LANES_X8 cuts the batch into groups of 8 pairs that share every operation of
 * the 8-lane field kernels (AVX-512 IFMA, 8 Montgomery chains, one 8-lane inversion; pairs
 * with equal x leave the lanes and finish on the scalar path) and is misuse on a CPU without
 * AVX-512 IFMA; MULRED_LANES_AUTO picks X8 where the CPU has it. Results are identical on both
 * paths (fully reduced coordinates). The repeated-acc check of the scalar path is not made on
 * the 8-lane path.
 * scratch: batch_add_pairs_scratch_size(n) bytes, caller-owned (any alignment; 64 bytes is
 * used internally); nothing is allocated. */
MULRED_API void mulred_g2_381_batch_add_pairs_var(const mulred_g2_381_affine_pair *pairs, size_t n,
                                                  mulred_lanes lanes, void *scratch);
MULRED_API void mulred_g2_254_batch_add_pairs_var(const mulred_g2_254_affine_pair *pairs, size_t n,
                                                  mulred_lanes lanes, void *scratch);

/* ---- scalar multiplication ---- */

/* r = k·a for any 256-bit k (little-endian limbs; it need not be reduced mod r) and any point a
 * of the curve. Width-5 wNAF over a table of odd multiples (about 256 doublings). Variable
 * time. */
MULRED_API void mulred_g2_381_jacobian_mul_var(mulred_g2_381_jacobian *r,
                                               const mulred_g2_381_jacobian *a,
                                               const uint64_t k[4]);
MULRED_API void mulred_g2_254_jacobian_mul_var(mulred_g2_254_jacobian *r,
                                               const mulred_g2_254_jacobian *a,
                                               const uint64_t k[4]);

/* ---- GLV: φ(x, y) = (β′x, y), β′ a cube root of unity in Fp (β′ = β², β of G1), chosen so
 * that φ(P) = λ·P on G2 with the λ of G1: glv_lambda and glv_decompose are G1's ---- */

/* r = φ(a) (1M). */
MULRED_API void mulred_g2_381_affine_endomorphism(mulred_g2_381_affine *r,
                                                  const mulred_g2_381_affine *a);
MULRED_API void mulred_g2_254_affine_endomorphism(mulred_g2_254_affine *r,
                                                  const mulred_g2_254_affine *a);

/* out = λ (canonical, < r). */
MULRED_API void mulred_g2_381_glv_lambda(uint64_t out[4]);
MULRED_API void mulred_g2_254_glv_lambda(uint64_t out[4]);

/* For any 256-bit k: k ≡ ±k1 + (±k2)·λ (mod r), the signs in neg1, neg2, with k1, k2 < 2^128
 * (in fact < 2^127: Babai rounding against a reduced lattice basis). */
MULRED_API void mulred_g2_381_glv_decompose(uint64_t k1[2], bool *neg1, uint64_t k2[2], bool *neg2,
                                            const uint64_t k[4]);
MULRED_API void mulred_g2_254_glv_decompose(uint64_t k1[2], bool *neg1, uint64_t k2[2], bool *neg2,
                                            const uint64_t k[4]);

/* r = k·a for any 256-bit k, a IN G2 (the order-r subgroup; points outside it give wrong
 * results: use mul_var for those). Two 128-bit wNAF chains sharing the doublings (about
 * half of mul_var's). Variable time. */
MULRED_API void mulred_g2_381_jacobian_mul_glv_var(mulred_g2_381_jacobian *r,
                                                   const mulred_g2_381_jacobian *a,
                                                   const uint64_t k[4]);
MULRED_API void mulred_g2_254_jacobian_mul_glv_var(mulred_g2_254_jacobian *r,
                                                   const mulred_g2_254_jacobian *a,
                                                   const uint64_t k[4]);

/* ---- ψ and the subgroup check ---- */

/* r = ψ(a) = (conj(x)·cx, conj(y)·cy), the p-power Frobenius through the twist; on G2 it acts
 * as multiplication by p mod r (x for BLS12-381, 6u² for BN254). Infinity stays infinity. */
MULRED_API void mulred_g2_381_affine_psi(mulred_g2_381_affine *r, const mulred_g2_381_affine *a);
MULRED_API void mulred_g2_254_affine_psi(mulred_g2_254_affine *r, const mulred_g2_254_affine *a);

/* a (on the curve: check is_on_curve first) lies in G2: ψ(P) = [x]P (BLS12-381, x the curve's
 * seed, 64 bits; Scott, ePrint 2021/1130) or ψ(P) = [6u²]P (BN254, u its seed; El Housni,
 * Guillevic, Piellard, ePrint 2022/352), a scalar multiplication by a 64- or 127-bit constant.
 * Variable time. */
MULRED_API bool mulred_g2_381_affine_in_g2_var(const mulred_g2_381_affine *a);
MULRED_API bool mulred_g2_254_affine_in_g2_var(const mulred_g2_254_affine *a);

/* ---- encodings ------------------------------------------------------------------------------
 * Decoders take untrusted bytes and check everything. They return MULRED_OK, or MULRED_EINPUT
 * with r set to infinity and, in *reason (when reason is non-NULL), the first check that
 * failed, in this order (one reason type for the G1 and G2 decoders):
 *   MULRED_DECODE_EFLAGS     compressed form without the compression flag (ZCash)
 *   MULRED_DECODE_EINFINITY  infinity flag with any other bit set (ZCash)
 *   MULRED_DECODE_EPADDING   non-zero padding bytes (EIP-2537)
 *   MULRED_DECODE_ERANGE     a coordinate >= p (all)
 *   MULRED_DECODE_ECURVE     not on the curve; for a compressed x: x³ + b has no square root
 *   MULRED_DECODE_ESUBGROUP  on the curve but not in G1 (BLS12-381), unless
 *                            MULRED_DECODE_SKIP_SUBGROUP_CHECK is passed (then the caller must
 *                            check: mulred_g1_381_affine_in_g1_var)
 * (MULRED_DECODE_VALID when the input is valid). Encoders write the canonical form of a valid
 * point. All are variable time. */
typedef enum {
    MULRED_DECODE_VALID = 0,
    MULRED_DECODE_EFLAGS,
    MULRED_DECODE_EINFINITY,
    MULRED_DECODE_EPADDING,
    MULRED_DECODE_ERANGE,
    MULRED_DECODE_ECURVE,
    MULRED_DECODE_ESUBGROUP,
    /* G2 decoders (below) */
    MULRED_DECODE_ESUBGROUP_G2, /* on E′ but not in G2 */
    MULRED_DECODE_EUFLAGS,      /* uncompressed ZCash form with the compression or sign flag set */
} mulred_decode_reason;

#define MULRED_DECODE_SKIP_SUBGROUP_CHECK 1u

/* A short description of a reason ("coordinate not below the field modulus", ...), for error
 * messages. */
MULRED_API const char *mulred_decode_reason_text(mulred_decode_reason reason);

/* BLS12-381 G1, ZCash / IETF compressed (48 bytes): x big-endian, with the three top bits of
 * byte 0 as flags: 0x80 compressed (must be set), 0x40 infinity (then every other bit is 0),
 * 0x20 y is the larger of y and p − y. The generator encodes as 97f1d3a7…db22c6bb. */
MULRED_API mulred_status mulred_g1_381_decode_compressed(mulred_g1_381_affine *r,
                                                         const uint8_t in[48], unsigned flags,
                                                         mulred_decode_reason *reason);
/* out = the compressed encoding of a. */
MULRED_API void mulred_g1_381_encode_compressed(uint8_t out[48], const mulred_g1_381_affine *a);

/* BLS12-381 G1, ZCash / IETF uncompressed (96 bytes): x, y big-endian; byte 0's 0x80
 * (compression) and 0x20 (sign) flags clear (MULRED_DECODE_EUFLAGS otherwise), 0x40 infinity with
 * every other bit zero. Checks as the compressed form, the subgroup unless flags skip it. */
MULRED_API mulred_status mulred_g1_381_decode_uncompressed(mulred_g1_381_affine *r,
                                                           const uint8_t in[96], unsigned flags,
                                                           mulred_decode_reason *reason);
/* out = the uncompressed encoding of a. */
MULRED_API void mulred_g1_381_encode_uncompressed(uint8_t out[96], const mulred_g1_381_affine *a);

/* BLS12-381 G1, EIP-2537 (128 bytes): x then y, each as 16 zero bytes and 48 big-endian bytes;
 * all zero = infinity. */
MULRED_API mulred_status mulred_g1_381_decode_eip2537(mulred_g1_381_affine *r,
                                                      const uint8_t in[128], unsigned flags,
                                                      mulred_decode_reason *reason);
/* out = the EIP-2537 encoding of a. */
MULRED_API void mulred_g1_381_encode_eip2537(uint8_t out[128], const mulred_g1_381_affine *a);

/* BN254 G1, EIP-196 (64 bytes): x then y, 32 bytes big-endian each; (0, 0) = infinity. The
 * cofactor is 1: no subgroup check exists (flags are ignored). */
MULRED_API mulred_status mulred_g1_254_decode_eip196(mulred_g1_254_affine *r, const uint8_t in[64],
                                                     unsigned flags, mulred_decode_reason *reason);
/* out = the EIP-196 encoding of a. */
MULRED_API void mulred_g1_254_encode_eip196(uint8_t out[64], const mulred_g1_254_affine *a);

/* ---- G2 encodings ----
 * The same decoder contract and reasons as G1 (MULRED_DECODE_SKIP_SUBGROUP_CHECK skips the
 * subgroup check, which fails with MULRED_DECODE_ESUBGROUP_G2; MULRED_DECODE_EUFLAGS: an
 * uncompressed ZCash encoding with the 0x80 or 0x20 flag set). An Fp2 coordinate c0 + c1·u is
 * written as two base-field integers in the order each format fixes. */

/* BLS12-381 G2, EIP-2537 (256 bytes): x.c0, x.c1, y.c0, y.c1, each as 16 zero bytes and 48
 * big-endian bytes; all zero = infinity. */
MULRED_API mulred_status mulred_g2_381_decode_eip2537(mulred_g2_381_affine *r,
                                                      const uint8_t in[256], unsigned flags,
                                                      mulred_decode_reason *reason);
/* out = the EIP-2537 encoding of a. */
MULRED_API void mulred_g2_381_encode_eip2537(uint8_t out[256], const mulred_g2_381_affine *a);

/* BLS12-381 G2, ZCash / IETF compressed (96 bytes): x.c1 then x.c0, 48 bytes big-endian each,
 * with G1's three flag bits in byte 0 (0x80 compressed, 0x40 infinity, 0x20 y is the
 * lexicographically larger of y and −y: c1 compared first, c0 when c1 = 0). */
MULRED_API mulred_status mulred_g2_381_decode_compressed(mulred_g2_381_affine *r,
                                                         const uint8_t in[96], unsigned flags,
                                                         mulred_decode_reason *reason);
/* out = the compressed encoding of a. */
MULRED_API void mulred_g2_381_encode_compressed(uint8_t out[96], const mulred_g2_381_affine *a);

/* BLS12-381 G2, ZCash / IETF uncompressed (192 bytes): x.c1, x.c0, y.c1, y.c0; byte 0's 0x80 and
 * 0x20 clear, 0x40 = infinity (then every other bit is 0). */
MULRED_API mulred_status mulred_g2_381_decode_uncompressed(mulred_g2_381_affine *r,
                                                           const uint8_t in[192], unsigned flags,
                                                           mulred_decode_reason *reason);
/* out = the uncompressed encoding of a. */
MULRED_API void mulred_g2_381_encode_uncompressed(uint8_t out[192], const mulred_g2_381_affine *a);

/* BN254 G2, EIP-197 (128 bytes): x imaginary (c1), x real (c0), y imaginary, y real, 32 bytes
 * big-endian each; all zero = infinity. Checked for G2 membership (BN254's G2 has a large
 * cofactor) unless MULRED_DECODE_SKIP_SUBGROUP_CHECK. */
MULRED_API mulred_status mulred_g2_254_decode_eip197(mulred_g2_254_affine *r, const uint8_t in[128],
                                                     unsigned flags, mulred_decode_reason *reason);
/* out = the EIP-197 encoding of a. */
MULRED_API void mulred_g2_254_encode_eip197(uint8_t out[128], const mulred_g2_254_affine *a);

/* The 0.2 names, kept for one release (CHANGELOG.md): the reason type carries G2 failures too. */
#define mulred_g1_reason              mulred_decode_reason
#define mulred_g1_reason_text         mulred_decode_reason_text
#define MULRED_G1_VALID               MULRED_DECODE_VALID
#define MULRED_G1_EFLAGS              MULRED_DECODE_EFLAGS
#define MULRED_G1_EINFINITY           MULRED_DECODE_EINFINITY
#define MULRED_G1_EPADDING            MULRED_DECODE_EPADDING
#define MULRED_G1_ERANGE              MULRED_DECODE_ERANGE
#define MULRED_G1_ECURVE              MULRED_DECODE_ECURVE
#define MULRED_G1_ESUBGROUP           MULRED_DECODE_ESUBGROUP
#define MULRED_G1_ESUBGROUP_G2        MULRED_DECODE_ESUBGROUP_G2
#define MULRED_G1_EUFLAGS             MULRED_DECODE_EUFLAGS
#define MULRED_G1_SKIP_SUBGROUP_CHECK MULRED_DECODE_SKIP_SUBGROUP_CHECK

#ifdef __cplusplus
}
#endif
#endif

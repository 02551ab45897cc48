/* Prime fields of BLS12-381 and BN254: the base fields Fp (coordinates of G1 points) and the
 * scalar fields Fr (exponents, MSM scalars).
 *
 *   mulred_fp381  Fp of BLS12-381, p = 0x1a0111ea…ffffaaab (381 bits), 6 limbs, 48 bytes
 *   mulred_fr381  Fr of BLS12-381, r = 0x73eda753…00000001 (255 bits), 4 limbs, 32 bytes
 *   mulred_fp254  Fp of BN254, p = 0x30644e72…d87cfd47 (254 bits), 4 limbs, 32 bytes
 *   mulred_fr254  Fr of BN254, r = 0x30644e72…f0000001 (254 bits), 4 limbs, 32 bytes
 *
 * Representation (every type): l[] holds the Montgomery residue a·R mod p of the element a,
 * R = 2^(64·limbs), as little-endian 64-bit limbs, FULLY REDUCED: in [0, p). Every function
 * requires this of its inputs and guarantees it of its outputs; only from_bytes and from_limbs
 * accept outside data, and they check it. Equal elements have equal limbs, so memcmp compares.
 * A zero-filled object is the element 0.
 *
 * Aliasing: outputs may alias any inputs of the same type, unless stated.
 * Timing: constant time (no branches or memory accesses that depend on values) unless the
 * name ends in _var. The multiplication kernel (portable C or x86-64 MULX/ADX) is chosen
 * once, from CPUID; MULRED_FIELD_KERNEL=portable|mulx in the environment overrides it.
 *
 * Every function below exists for each of the four fields (one declaration per field, grouped
 * by function, the contract above each group); pow, from_limbs and to_limbs take integers of
 * as many limbs as the field has, from_bytes and to_bytes MULRED_F_BYTES bytes. */
#ifndef MULRED_FIELD_H
#define MULRED_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t l[6];
} mulred_fp381;
typedef struct {
    uint64_t l[4];
} mulred_fr381;
typedef struct {
    uint64_t l[4];
} mulred_fp254;
typedef struct {
    uint64_t l[4];
} mulred_fr254;

#define MULRED_FP381_BYTES 48
#define MULRED_FR381_BYTES 32
#define MULRED_FP254_BYTES 32
#define MULRED_FR254_BYTES 32

/* r = 0. */
MULRED_API void mulred_fp381_set_zero(mulred_fp381 *r);
MULRED_API void mulred_fr381_set_zero(mulred_fr381 *r);
MULRED_API void mulred_fp254_set_zero(mulred_fp254 *r);
MULRED_API void mulred_fr254_set_zero(mulred_fr254 *r);

/* r = 1. */
MULRED_API void mulred_fp381_set_one(mulred_fp381 *r);
MULRED_API void mulred_fr381_set_one(mulred_fr381 *r);
MULRED_API void mulred_fp254_set_one(mulred_fp254 *r);
MULRED_API void mulred_fr254_set_one(mulred_fr254 *r);

/* r = v mod p. */
MULRED_API void mulred_fp381_set_u64(mulred_fp381 *r, uint64_t v);
MULRED_API void mulred_fr381_set_u64(mulred_fr381 *r, uint64_t v);
MULRED_API void mulred_fp254_set_u64(mulred_fp254 *r, uint64_t v);
MULRED_API void mulred_fr254_set_u64(mulred_fr254 *r, uint64_t v);

/* a = 0. */
MULRED_API bool mulred_fp381_is_zero(const mulred_fp381 *a);
MULRED_API bool mulred_fr381_is_zero(const mulred_fr381 *a);
MULRED_API bool mulred_fp254_is_zero(const mulred_fp254 *a);
MULRED_API bool mulred_fr254_is_zero(const mulred_fr254 *a);

/* a = 1. */
MULRED_API bool mulred_fp381_is_one(const mulred_fp381 *a);
MULRED_API bool mulred_fr381_is_one(const mulred_fr381 *a);
MULRED_API bool mulred_fp254_is_one(const mulred_fp254 *a);
MULRED_API bool mulred_fr254_is_one(const mulred_fr254 *a);

/* a = b. */
MULRED_API bool mulred_fp381_equal(const mulred_fp381 *a, const mulred_fp381 *b);
MULRED_API bool mulred_fr381_equal(const mulred_fr381 *a, const mulred_fr381 *b);
MULRED_API bool mulred_fp254_equal(const mulred_fp254 *a, const mulred_fp254 *b);
MULRED_API bool mulred_fr254_equal(const mulred_fr254 *a, const mulred_fr254 *b);

/* r = a + b. */
MULRED_API void mulred_fp381_add(mulred_fp381 *r, const mulred_fp381 *a, const mulred_fp381 *b);
MULRED_API void mulred_fr381_add(mulred_fr381 *r, const mulred_fr381 *a, const mulred_fr381 *b);
MULRED_API void mulred_fp254_add(mulred_fp254 *r, const mulred_fp254 *a, const mulred_fp254 *b);
MULRED_API void mulred_fr254_add(mulred_fr254 *r, const mulred_fr254 *a, const mulred_fr254 *b);

/* r = a − b. */
MULRED_API void mulred_fp381_sub(mulred_fp381 *r, const mulred_fp381 *a, const mulred_fp381 *b);
MULRED_API void mulred_fr381_sub(mulred_fr381 *r, const mulred_fr381 *a, const mulred_fr381 *b);
MULRED_API void mulred_fp254_sub(mulred_fp254 *r, const mulred_fp254 *a, const mulred_fp254 *b);
MULRED_API void mulred_fr254_sub(mulred_fr254 *r, const mulred_fr254 *a, const mulred_fr254 *b);

/* r = −a. */
MULRED_API void mulred_fp381_neg(mulred_fp381 *r, const mulred_fp381 *a);
MULRED_API void mulred_fr381_neg(mulred_fr381 *r, const mulred_fr381 *a);
MULRED_API void mulred_fp254_neg(mulred_fp254 *r, const mulred_fp254 *a);
MULRED_API void mulred_fr254_neg(mulred_fr254 *r, const mulred_fr254 *a);

/* r = a·b. */
MULRED_API void mulred_fp381_mul(mulred_fp381 *r, const mulred_fp381 *a, const mulred_fp381 *b);
MULRED_API void mulred_fr381_mul(mulred_fr381 *r, const mulred_fr381 *a, const mulred_fr381 *b);
MULRED_API void mulred_fp254_mul(mulred_fp254 *r, const mulred_fp254 *a, const mulred_fp254 *b);
MULRED_API void mulred_fr254_mul(mulred_fr254 *r, const mulred_fr254 *a, const mulred_fr254 *b);

/* r = a². */
MULRED_API void mulred_fp381_sqr(mulred_fp381 *r, const mulred_fp381 *a);
MULRED_API void mulred_fr381_sqr(mulred_fr381 *r, const mulred_fr381 *a);
MULRED_API void mulred_fp254_sqr(mulred_fp254 *r, const mulred_fp254 *a);
MULRED_API void mulred_fr254_sqr(mulred_fr254 *r, const mulred_fr254 *a);

/* r = a^e, e an integer of as many little-endian limbs as the field has (any value; a^0 = 1,
 * also for a = 0). Constant time in a and e (fixed 4-bit windows). */
MULRED_API void mulred_fp381_pow(mulred_fp381 *r, const mulred_fp381 *a, const uint64_t e[6]);
MULRED_API void mulred_fr381_pow(mulred_fr381 *r, const mulred_fr381 *a, const uint64_t e[4]);
MULRED_API void mulred_fp254_pow(mulred_fp254 *r, const mulred_fp254 *a, const uint64_t e[4]);
MULRED_API void mulred_fr254_pow(mulred_fr254 *r, const mulred_fr254 *a, const uint64_t e[4]);

/* r = a^(p−2): 1/a, and 0 for a = 0. Constant time (Fermat). */
MULRED_API void mulred_fp381_inv(mulred_fp381 *r, const mulred_fp381 *a);
MULRED_API void mulred_fr381_inv(mulred_fr381 *r, const mulred_fr381 *a);
MULRED_API void mulred_fp254_inv(mulred_fp254 *r, const mulred_fp254 *a);
MULRED_API void mulred_fr254_inv(mulred_fr254 *r, const mulred_fr254 *a);

/* The same value as _inv, variable time (Bernstein–Yang divsteps with trailing-zero skipping,
 * 62 at a time), several times faster. */
MULRED_API void mulred_fp381_inv_var(mulred_fp381 *r, const mulred_fp381 *a);
MULRED_API void mulred_fr381_inv_var(mulred_fr381 *r, const mulred_fr381 *a);
MULRED_API void mulred_fp254_inv_var(mulred_fp254 *r, const mulred_fp254 *a);
MULRED_API void mulred_fr254_inv_var(mulred_fr254 *r, const mulred_fr254 *a);

/* Bytes of scratch that _batch_inv_var needs for n elements. */
MULRED_API size_t mulred_fp381_batch_inv_scratch_size(size_t n);
MULRED_API size_t mulred_fr381_batch_inv_scratch_size(size_t n);
MULRED_API size_t mulred_fp254_batch_inv_scratch_size(size_t n);
MULRED_API size_t mulred_fr254_batch_inv_scratch_size(size_t n);

/* r[i] = 1/a[i] for i < n with one inversion and 3(n−1) multiplications (Montgomery's trick);
 * a zero a[i] gives r[i] = 0 and does not disturb the others. r may equal a (in place) but
 * must not otherwise overlap it. scratch: _batch_inv_scratch_size(n) bytes (8-byte aligned),
 * caller-owned. Variable time. */
MULRED_API void mulred_fp381_batch_inv_var(mulred_fp381 *r, const mulred_fp381 *a, size_t n,
                                           void *scratch);
MULRED_API void mulred_fr381_batch_inv_var(mulred_fr381 *r, const mulred_fr381 *a, size_t n,
                                           void *scratch);
MULRED_API void mulred_fp254_batch_inv_var(mulred_fp254 *r, const mulred_fp254 *a, size_t n,
                                           void *scratch);
MULRED_API void mulred_fr254_batch_inv_var(mulred_fr254 *r, const mulred_fr254 *a, size_t n,
                                           void *scratch);

/* in: the big-endian canonical encoding of an integer (MULRED_F_BYTES bytes). Returns
 * MULRED_EINPUT and sets r = 0 when the integer is >= p (non-canonical); MULRED_OK otherwise. */
MULRED_API mulred_status mulred_fp381_from_bytes(mulred_fp381 *r, const uint8_t in[48]);
MULRED_API mulred_status mulred_fr381_from_bytes(mulred_fr381 *r, const uint8_t in[32]);
MULRED_API mulred_status mulred_fp254_from_bytes(mulred_fp254 *r, const uint8_t in[32]);
MULRED_API mulred_status mulred_fr254_from_bytes(mulred_fr254 *r, const uint8_t in[32]);

/* out = the canonical big-endian encoding of a. */
MULRED_API void mulred_fp381_to_bytes(uint8_t out[48], const mulred_fp381 *a);
MULRED_API void mulred_fr381_to_bytes(uint8_t out[32], const mulred_fr381 *a);
MULRED_API void mulred_fp254_to_bytes(uint8_t out[32], const mulred_fp254 *a);
MULRED_API void mulred_fr254_to_bytes(uint8_t out[32], const mulred_fr254 *a);

/* in: an integer as little-endian 64-bit limbs (not Montgomery). MULRED_EINPUT and r = 0 when
 * it is >= p; MULRED_OK otherwise. */
MULRED_API mulred_status mulred_fp381_from_limbs(mulred_fp381 *r, const uint64_t in[6]);
MULRED_API mulred_status mulred_fr381_from_limbs(mulred_fr381 *r, const uint64_t in[4]);
MULRED_API mulred_status mulred_fp254_from_limbs(mulred_fp254 *r, const uint64_t in[4]);
MULRED_API mulred_status mulred_fr254_from_limbs(mulred_fr254 *r, const uint64_t in[4]);

/* out = the integer a, in [0, p), as little-endian limbs (not Montgomery). */
MULRED_API void mulred_fp381_to_limbs(uint64_t out[6], const mulred_fp381 *a);
MULRED_API void mulred_fr381_to_limbs(uint64_t out[4], const mulred_fr381 *a);
MULRED_API void mulred_fp254_to_limbs(uint64_t out[4], const mulred_fp254 *a);
MULRED_API void mulred_fr254_to_limbs(uint64_t out[4], const mulred_fr254 *a);

/* ---- only for the base fields fp381 and fp254 (p ≡ 3 mod 4) ---- */

/* If a is a square: r = a^((p+1)/4), one of its two square roots, and true. Otherwise false
 * (r is then a^((p+1)/4), not a root). Constant time. (A result, not a failure: bool.) */
MULRED_API bool mulred_fp381_sqrt(mulred_fp381 *r, const mulred_fp381 *a);
MULRED_API bool mulred_fp254_sqrt(mulred_fp254 *r, const mulred_fp254 *a);

/* Euler's criterion: true for 0 and the squares. */
MULRED_API bool mulred_fp381_is_square(const mulred_fp381 *a);
MULRED_API bool mulred_fp254_is_square(const mulred_fp254 *a);

/* The canonical integer a is odd (the "sign" of a coordinate in some encodings; ZCash uses
 * lexicographic order, see curve.h). */
MULRED_API bool mulred_fp381_is_odd(const mulred_fp381 *a);
MULRED_API bool mulred_fp254_is_odd(const mulred_fp254 *a);

/* The multiplication kernel in use: "portable" or "mulx". */
MULRED_API const char *mulred_field_kernel_name(void);
/* Why MULRED_FIELD_KERNEL was ignored (an unknown name, or mulx on a CPU without it), or "" when
 * it was not. The library prints nothing: a program reports it. */
MULRED_API const char *mulred_field_kernel_ignored(void);

/* ---- the quadratic extensions Fp2 = Fp[u]/(u² + 1) of the two base fields ----
 *
 *   mulred_fp2_381  Fp2 of BLS12-381 (coordinates of G2 points), 2 × 48 bytes
 *   mulred_fp2_254  Fp2 of BN254, 2 × 32 bytes
 *
 * a = c0 + c1·u, each coefficient a base-field element (Montgomery form, fully reduced), so
 * equal elements have equal bytes and a zero-filled object is 0. Multiplication by Karatsuba
 * (3 base multiplications), squaring by (c0 + c1)(c0 − c1) (2), inversion through the norm
 * c0² + c1² (one base inversion). Same aliasing and timing rules as above; the byte and limb
 * forms put c0 first (the curve encodings choose their own order, curve.h). */
typedef struct {
    mulred_fp381 c0, c1;
} mulred_fp2_381;
typedef struct {
    mulred_fp254 c0, c1;
} mulred_fp2_254;

/* r = 0; r = 1. */
MULRED_API void mulred_fp2_381_set_zero(mulred_fp2_381 *r);
MULRED_API void mulred_fp2_254_set_zero(mulred_fp2_254 *r);
MULRED_API void mulred_fp2_381_set_one(mulred_fp2_381 *r);
MULRED_API void mulred_fp2_254_set_one(mulred_fp2_254 *r);

/* a = 0; a = b. */
MULRED_API bool mulred_fp2_381_is_zero(const mulred_fp2_381 *a);
MULRED_API bool mulred_fp2_254_is_zero(const mulred_fp2_254 *a);
MULRED_API bool mulred_fp2_381_equal(const mulred_fp2_381 *a, const mulred_fp2_381 *b);
MULRED_API bool mulred_fp2_254_equal(const mulred_fp2_254 *a, const mulred_fp2_254 *b);

/* r = a + b; r = a − b; r = −a. */
MULRED_API void mulred_fp2_381_add(mulred_fp2_381 *r, const mulred_fp2_381 *a,
                                   const mulred_fp2_381 *b);
MULRED_API void mulred_fp2_254_add(mulred_fp2_254 *r, const mulred_fp2_254 *a,
                                   const mulred_fp2_254 *b);
MULRED_API void mulred_fp2_381_sub(mulred_fp2_381 *r, const mulred_fp2_381 *a,
                                   const mulred_fp2_381 *b);
MULRED_API void mulred_fp2_254_sub(mulred_fp2_254 *r, const mulred_fp2_254 *a,
                                   const mulred_fp2_254 *b);
MULRED_API void mulred_fp2_381_neg(mulred_fp2_381 *r, const mulred_fp2_381 *a);
MULRED_API void mulred_fp2_254_neg(mulred_fp2_254 *r, const mulred_fp2_254 *a);

/* r = a·b (3 base multiplications); r = a² (2). */
MULRED_API void mulred_fp2_381_mul(mulred_fp2_381 *r, const mulred_fp2_381 *a,
                                   const mulred_fp2_381 *b);
MULRED_API void mulred_fp2_254_mul(mulred_fp2_254 *r, const mulred_fp2_254 *a,
                                   const mulred_fp2_254 *b);
MULRED_API void mulred_fp2_381_sqr(mulred_fp2_381 *r, const mulred_fp2_381 *a);
MULRED_API void mulred_fp2_254_sqr(mulred_fp2_254 *r, const mulred_fp2_254 *a);

/* r = the conjugate c0 − c1·u = a^p (the Frobenius map). */
MULRED_API void mulred_fp2_381_conj(mulred_fp2_381 *r, const mulred_fp2_381 *a);
MULRED_API void mulred_fp2_254_conj(mulred_fp2_254 *r, const mulred_fp2_254 *a);

/* r = 1/a = conj(a)/(c0² + c1²), 0 for a = 0. _inv is constant time, _inv_var not. */
MULRED_API void mulred_fp2_381_inv(mulred_fp2_381 *r, const mulred_fp2_381 *a);
MULRED_API void mulred_fp2_254_inv(mulred_fp2_254 *r, const mulred_fp2_254 *a);
MULRED_API void mulred_fp2_381_inv_var(mulred_fp2_381 *r, const mulred_fp2_381 *a);
MULRED_API void mulred_fp2_254_inv_var(mulred_fp2_254 *r, const mulred_fp2_254 *a);

/* Montgomery's trick over Fp2: the contract of the base fields' _batch_inv_var. */
MULRED_API size_t mulred_fp2_381_batch_inv_scratch_size(size_t n);
MULRED_API size_t mulred_fp2_254_batch_inv_scratch_size(size_t n);
MULRED_API void mulred_fp2_381_batch_inv_var(mulred_fp2_381 *r, const mulred_fp2_381 *a, size_t n,
                                             void *scratch);
MULRED_API void mulred_fp2_254_batch_inv_var(mulred_fp2_254 *r, const mulred_fp2_254 *a, size_t n,
                                             void *scratch);

/* in: c0 then c1 as canonical big-endian integers (2 × 48 or 2 × 32 bytes); MULRED_EINPUT and
 * r = 0 when either is >= p. to_bytes writes the same form. */
MULRED_API mulred_status mulred_fp2_381_from_bytes(mulred_fp2_381 *r, const uint8_t in[96]);
MULRED_API mulred_status mulred_fp2_254_from_bytes(mulred_fp2_254 *r, const uint8_t in[64]);
MULRED_API void mulred_fp2_381_to_bytes(uint8_t out[96], const mulred_fp2_381 *a);
MULRED_API void mulred_fp2_254_to_bytes(uint8_t out[64], const mulred_fp2_254 *a);

/* in: c0 then c1 as little-endian limbs (2 × 6 or 2 × 4); MULRED_EINPUT and r = 0 when either
 * is >= p. to_limbs writes the same form. */
MULRED_API mulred_status mulred_fp2_381_from_limbs(mulred_fp2_381 *r, const uint64_t in[12]);
MULRED_API mulred_status mulred_fp2_254_from_limbs(mulred_fp2_254 *r, const uint64_t in[8]);
MULRED_API void mulred_fp2_381_to_limbs(uint64_t out[12], const mulred_fp2_381 *a);
MULRED_API void mulred_fp2_254_to_limbs(uint64_t out[8], const mulred_fp2_254 *a);

/* If a is a square in Fp2: r = one of its square roots and true; otherwise false (r = 0).
 * Through the norm: s = √(c0² + c1²) in Fp, x0 = √((c0 ± s)/2), x1 = c1/(2·x0), checked by
 * squaring. Variable time. */
MULRED_API bool mulred_fp2_381_sqrt_var(mulred_fp2_381 *r, const mulred_fp2_381 *a);
MULRED_API bool mulred_fp2_254_sqrt_var(mulred_fp2_254 *r, const mulred_fp2_254 *a);

#ifdef __cplusplus
}
#endif
#endif

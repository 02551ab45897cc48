/* Arithmetic mod p = 2^3072 − 1103717, the group of MuHash3072 (the layer below muhash.h).
 *
 * A number is 48 little-endian 64-bit limbs holding any value in [0, 2^3072). Operations keep
 * results congruent mod p but not necessarily below p (a value in [p, 2^3072) is a valid
 * representative); mulred_num3072_reduce gives the canonical one. Every function here is
 * VARIABLE-TIME (the multiply kernels branch on rare carries, the identity check and the
 * inverse on the value): MuHash hashes public data; do not use these on secrets. */
#ifndef MULRED_NUM3072_H
#define MULRED_NUM3072_H

#include <stdbool.h>
#include <stdint.h>

#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The only definitions of the size and of the modulus: p = 2^3072 − MULRED_NUM3072_C, so
 * 2^3072 ≡ MULRED_NUM3072_C (mod p), the fold every reduction uses. */
#define MULRED_NUM3072_LIMBS 48
#define MULRED_NUM3072_BYTES 384
#define MULRED_NUM3072_C     1103717u

typedef struct {
    uint64_t limb[MULRED_NUM3072_LIMBS];
} mulred_num3072;

/* r = 1 (the representation with limb 0 = 1, every other limb 0). */
MULRED_API void mulred_num3072_set_one(mulred_num3072 *r);
/* True only for that representation (p + 1 ≡ 1 is not recognised: it is a different value). */
MULRED_API bool mulred_num3072_is_one(const mulred_num3072 *a);
/* r ≡ a·b (mod p), r in [0, 2^3072). r may alias a, b or both. When a or b is the
 * representation 1 the result is a copy of the other operand (no multiplication), so an
 * identity-seeded accumulator costs nothing until its second factor. */
MULRED_API void mulred_num3072_mul(mulred_num3072 *r, const mulred_num3072 *a,
                                   const mulred_num3072 *b);
/* r = a mod p, in [0, p). r may alias a. */
MULRED_API void mulred_num3072_reduce(mulred_num3072 *r, const mulred_num3072 *a);
/* r = a^−1 mod p, in [0, p); a ≡ 0 gives 0. r may alias a. One GMP mpz_invert: far dearer
 * than a multiplication, so a state inverts once, at finalize. */
MULRED_API void mulred_num3072_inverse(mulred_num3072 *r, const mulred_num3072 *a);
/* 384 little-endian bytes <-> limbs; every 3072-bit value is accepted, none is reduced. */
MULRED_API void mulred_num3072_from_bytes(mulred_num3072 *r,
                                          const uint8_t in[MULRED_NUM3072_BYTES]);
MULRED_API void mulred_num3072_to_bytes(uint8_t out[MULRED_NUM3072_BYTES], const mulred_num3072 *a);
/* The multiply kernel in use ("gmp", "mulx", "ifma", ...; see `mulred version`). Chosen once,
 * at first use: MULRED_KERNEL=NAME forces an available kernel; otherwise the fastest kernel
 * this CPU runs, measured then (once per process; docs/kernels.md has its cost). */
MULRED_API const char *mulred_num3072_kernel_name(void);
/* Why MULRED_KERNEL was ignored ("MULRED_KERNEL=x is not a kernel name (kernels: ...)"), or ""
 * when it was not, or when no kernel has been chosen yet (this does not choose one). The
 * library prints nothing: a program reports it. */
MULRED_API const char *mulred_num3072_kernel_ignored(void);

#ifdef __cplusplus
}
#endif
#endif

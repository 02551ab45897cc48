/* Internal: fixed-size 3072-bit multiply-mod-p kernels for x86-64.
 *
 * p = 2^3072 - 1103717 (the MuHash3072 prime). Every kernel has the same contract:
 *
 *   r = a*b (mod p). Limbs are 64-bit, little-endian (limb 0 least significant).
 *   Inputs: any values in [0, 2^3072) (they may be >= p). Output: in [0, 2^3072),
 *   congruent to a*b mod p; it need not be < p (the caller reduces fully at finalize).
 *   r may alias a and/or b. No heap allocation.
 *   All kernels are VARIABLE-TIME (rare data-dependent carry fix-up loops, and the Karatsuba
 *   sign handling branches on data). MuHash hashes public data, so this is acceptable; do not
 *   use these kernels on secrets.
 *
 * Each kernel is compiled with a function-level target attribute: call it only when the CPU
 * has the features named next to it (use mulred_num3072_kernels_have_*()).
 */
#ifndef MULRED_NUM3072_KERNELS_H
#define MULRED_NUM3072_KERNELS_H

#include <stdint.h>

#include "mulred/num3072.h"

#define MULRED_NUM3072_R52_LIMBS 64 /* radix-2^52 storage: 60 used limbs + 4 zero pad */

/* ---- MULX / ADCX / ADOX (requires BMI2 + ADX) ---------------------------------------- */

/* Default MULX kernel: Karatsuba (one level) over a 24x24 MULX/ADCX/ADOX blocked schoolbook. */
void mulred_num3072_mul_mulx(uint64_t r[48], const uint64_t a[48], const uint64_t b[48]);
/* (No MULX squaring: it did not beat mul_mulx(r, a, a); see num3072_mulx.c.) */

/* ---- AVX-512 IFMA (requires AVX512F + AVX512VL + AVX512IFMA) -------------------------- */

/* Default on CPUs with IFMA. */
void mulred_num3072_mul_ifma(uint64_t r[48], const uint64_t a[48], const uint64_t b[48]);

/* Radix-2^52 "domain" API, for long products (the accumulators of batched MuHash inserts).
 * A domain value is uint64_t[64] (alignment 8 is enough; 64 is better): limbs 0..59 each
 * < 2^52, limbs 60..63 zero; it represents sum(limb[i] * 2^(52 i)) < 2^3120, any residue
 * class representative (not reduced below p or 2^3072).
 *   from64: 64-bit limbs (any value < 2^3072) -> domain. r52 must not overlap a.
 *   to64:   domain -> 64-bit limbs, output < 2^3072 and congruent mod p. r must not overlap a52.
 *   mul_r52: domain x domain -> domain (r may alias a and/or b). */
void mulred_num3072_ifma_from64(uint64_t r52[64], const uint64_t a[48]);
void mulred_num3072_ifma_to64(uint64_t r[48], const uint64_t a52[64]);
void mulred_num3072_ifma_mul_r52(uint64_t r[64], const uint64_t a[64], const uint64_t b[64]);

/* ---- Run-time feature checks --------------------------------------------------------- */
int mulred_num3072_kernels_have_mulx(void); /* BMI2 and ADX */
int mulred_num3072_kernels_have_ifma(void); /* AVX512F, AVX512VL and AVX512IFMA */

#endif

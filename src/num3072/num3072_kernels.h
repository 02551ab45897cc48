/* Internal: fixed-size 3072-bit multiply-mod-p kernels for x86-64.
 *
 * p = 2^3072 - 1103717 (the MuHash3072 prime). Every kernel has the same contract:
 *
 *   r = a*b (mod p). Limbs are 64-bit, little-endian (limb 0 least significant).
 *   Inputs: any values in [0, 2^3072) (they may be >= p). Output: in [0, 2^3072),
 *   congruent to a*b mod p; it need not be < p (the caller reduces fully at finalize).
 *   r may alias a and/or b. No heap allocation.
 *   All kernels are VARIABLE-TIME (rare data-dependent carry fix-up loops, and the Karatsuba
 *   sign handling depends on data). MuHash hashes public data, so this is acceptable; do not
 *   use these kernels on secrets.
 *
 * Each kernel is compiled with a function-level target attribute: call it only when the CPU
 * has the features named next to it (use mulred_num3072_kernels_have_*()).
 */
#ifndef MULRED_NUM3072_KERNELS_H
#define MULRED_NUM3072_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "mulred/num3072.h"

/* ---- MULX / ADCX / ADOX (requires BMI2 + ADX) ---------------------------------------- */

/* Default MULX kernel: Karatsuba (one level) over a 24x24 MULX/ADCX/ADOX blocked schoolbook. */
void mulred_num3072_mul_mulx(uint64_t r[48], const uint64_t a[48], const uint64_t b[48]);
/* (No MULX squaring: it did not beat mul_mulx(r, a, a); see num3072_mulx.c.) */

/* ---- AVX-512 IFMA (requires AVX512F + AVX512VL + AVX512IFMA) -------------------------- */

/* Radix 2^52, 60 limbs, products with vpmadd52luq/huq (num3072_ifma_impl.h). Each kernel has
 * a mul and a mul_many (the contract of num3072_kernel in num3072.h: acc ≡ acc·x[0]⋯x[n−1],
 * the accumulator kept in radix 2^52 between factors; no x[j] may overlap acc).
 *   ifma:          512-bit schoolbook (the default);
 *   ifma_kara:     512-bit, one Karatsuba level over 30-limb halves;
 *   ifma256:       256-bit schoolbook (for CPUs that split 512-bit instructions);
 *   ifma256_kara:  256-bit, one Karatsuba level. */
void mulred_num3072_mul_ifma(uint64_t r[48], const uint64_t a[48], const uint64_t b[48]);
void mulred_num3072_mul_many_ifma(uint64_t acc[48], const uint64_t *const x[], size_t n);
void mulred_num3072_mul_ifma_kara(uint64_t r[48], const uint64_t a[48], const uint64_t b[48]);
void mulred_num3072_mul_many_ifma_kara(uint64_t acc[48], const uint64_t *const x[], size_t n);
void mulred_num3072_mul_ifma256(uint64_t r[48], const uint64_t a[48], const uint64_t b[48]);
void mulred_num3072_mul_many_ifma256(uint64_t acc[48], const uint64_t *const x[], size_t n);
void mulred_num3072_mul_ifma256_kara(uint64_t r[48], const uint64_t a[48], const uint64_t b[48]);
void mulred_num3072_mul_many_ifma256_kara(uint64_t acc[48], const uint64_t *const x[], size_t n);

/* ---- Run-time feature checks --------------------------------------------------------- */
int mulred_num3072_kernels_have_mulx(void); /* BMI2 and ADX */
int mulred_num3072_kernels_have_ifma(void); /* AVX512F, AVX512VL and AVX512IFMA */

#endif

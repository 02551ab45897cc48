/* Internal: the generic Montgomery multiplication kernels of the field layer (the kernel table
 * that tests/test_field.c checks against GMP).
 *
 * One kernel per limb count n (4 or 6) and path, the modulus a parameter. Every kernel has the
 * same contract:
 *
 *   r = a·b·2^(−64n) mod p, fully reduced: r in [0, p).
 *   p: n little-endian 64-bit limbs, odd, p < 2^(64n − 1) (so 2p fits n limbs: no carry word is
 *      needed, see field_portable.c; every field of mulred qualifies).
 *   n0 = −p^(−1) mod 2^64.
 *   a, b in [0, p) (a value in [p, 2^(64n)) is misuse: the result is unspecified, not checked).
 *   r may alias a and/or b. No heap, no tables: constant time.
 *
 * The MULX kernels (field_mulx.S, x86-64 assembly) use MULX, ADCX and ADOX: call them only
 * when mulred_field_have_mulx() is true. They save the callee-saved registers they use and keep
 * at most 120 bytes on the stack (spills, no heap). They reduce two limbs per step (a 128-bit
 * Montgomery factor): 2n² + n/2 + 1 MULX per multiplication; the squarings are dedicated,
 * n(n+1)/2 + n² + n/2 + 1 MULX.
 *
 * Squaring: sqr(r, a) == mul(r, a, a) in value, with the same range and aliasing rules. */
#ifndef MULRED_FIELD_KERNELS_H
#define MULRED_FIELD_KERNELS_H

#include <stdint.h>

/* Portable C with unsigned __int128: the interleaved CIOS loop. */
void mulred_mont_mul4_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                               const uint64_t p[4], uint64_t n0);
void mulred_mont_mul6_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                               const uint64_t p[6], uint64_t n0);
void mulred_mont_sqr4_portable(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
                               uint64_t n0);
void mulred_mont_sqr6_portable(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
                               uint64_t n0);

/* x86-64 MULX/ADCX/ADOX (requires BMI2 + ADX). */
void mulred_mont_mul4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                           const uint64_t p[4], uint64_t n0);
void mulred_mont_mul6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                           const uint64_t p[6], uint64_t n0);
void mulred_mont_sqr4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0);
void mulred_mont_sqr6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0);

/* BMI2 and ADX (the project's cached CPUID probe). */
int mulred_field_have_mulx(void);

#endif

/* Portable Montgomery multiplication (C with unsigned __int128), one generic loop per limb
 * count with the modulus as a parameter.
 *
 * Interleaved CIOS: round i adds a·b[i] to the accumulator t (carry word A) and, in the same
 * pass over the limbs, m·p with m = t[0]·n0 mod 2^64 (carry word C), shifting t down one limb.
 * Why no (n+1)-th accumulator limb is needed: with a, b < p and t < 2p on entry,
 * t + a·b[i] + m·p < 2p + 2(2^64 − 1)p < 2^64·2p, so the shifted result is < 2p < 2^(64n)
 * (p < 2^(64n−1)) and its top limb is exactly A + C without overflow; each step
 * t[j] + x·y + carry <= (2^64 − 1)^2 + 2(2^64 − 1) fits 128 bits. One conditional subtraction
 * of p at the end. Cost: 2n² 64×64→128 multiplies. Constant time. */
#include <stdint.h>

#include "field/field_limbs.h"
#include "field/field_kernels.h"

static inline __attribute__((always_inline)) void mont_mul_generic(uint64_t *r, const uint64_t *a,
                                                                   const uint64_t *b,
                                                                   const uint64_t *p, uint64_t n0,
                                                                   int n)
{
    uint64_t t[FIELD_MAX_LIMBS] = {0};
    for (int i = 0; i < n; i++) {
        const uint64_t bi = b[i];
        field_u128 x = (field_u128)a[0] * bi + t[0];
        uint64_t carry_ab = (uint64_t)(x >> 64);
        const uint64_t t0 = (uint64_t)x;
        const uint64_t m = t0 * n0;
        x = (field_u128)m * p[0] + t0; /* low limb is 0 by the choice of m */
        uint64_t carry_mp = (uint64_t)(x >> 64);
        for (int j = 1; j < n; j++) {
            x = (field_u128)a[j] * bi + t[j] + carry_ab;
            carry_ab = (uint64_t)(x >> 64);
            x = (field_u128)m * p[j] + (uint64_t)x + carry_mp;
            carry_mp = (uint64_t)(x >> 64);
            t[j - 1] = (uint64_t)x;
        }
        t[n - 1] = carry_ab + carry_mp;
    }
    fe_reduce_once(r, t, p, n);
}

void mulred_mont_mul4_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                               const uint64_t p[4], uint64_t n0)
{
    mont_mul_generic(r, a, b, p, n0, 4);
}

void mulred_mont_mul6_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                               const uint64_t p[6], uint64_t n0)
{
    mont_mul_generic(r, a, b, p, n0, 6);
}

void mulred_mont_sqr4_portable(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0)
{
    mont_mul_generic(r, a, a, p, n0, 4);
}

void mulred_mont_sqr6_portable(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0)
{
    mont_mul_generic(r, a, a, p, n0, 6);
}

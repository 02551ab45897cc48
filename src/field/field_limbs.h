/* Internal: the generic limb helpers of the field layer, below both the Montgomery kernels
 * (field_portable.c) and the per-field operations (field_internal.h): add and subtract with
 * carry, the final conditional subtraction, comparisons. n is a compile-time constant at every
 * call site, so the loops unroll into adc/sbb chains. */
#ifndef MULRED_FIELD_LIMBS_H
#define MULRED_FIELD_LIMBS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define FIELD_MAX_LIMBS 6
#define FIELD_INLINE    static inline __attribute__((always_inline))

typedef unsigned __int128 field_u128;

/* ---- generic limb helpers (a, b in [0, p), p odd, p < 2^(64n−1)) ------------------------ */

/* Add and subtract with carry. On x86-64 the intrinsics become one ADC/SBB chain; gcc turns
 * the same chains written with unsigned __int128 into several times more instructions. */
#if defined(__x86_64__)
#include <x86intrin.h>
FIELD_INLINE unsigned char fe_addc(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned long long t;
    c = _addcarry_u64(c, a, b, &t);
    *r = t;
    return c;
}
FIELD_INLINE unsigned char fe_subb(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned long long t;
    c = _subborrow_u64(c, a, b, &t);
    *r = t;
    return c;
}
#else
FIELD_INLINE unsigned char fe_addc(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    field_u128 x = (field_u128)a + b + c;
    *r = (uint64_t)x;
    return (unsigned char)(x >> 64);
}
FIELD_INLINE unsigned char fe_subb(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    field_u128 x = (field_u128)a - b - c;
    *r = (uint64_t)x;
    return (unsigned char)((x >> 64) & 1);
}
#endif

/* r = t − p if t >= p, else t; for t < 2p. Constant time. r may alias t. */
FIELD_INLINE void fe_reduce_once(uint64_t *r, const uint64_t *t, const uint64_t *p, int n)
{
    uint64_t s[FIELD_MAX_LIMBS];
    unsigned char borrow = 0;
    for (int i = 0; i < n; i++) borrow = fe_subb(borrow, t[i], p[i], &s[i]);
    const uint64_t keep_t = 0 - (uint64_t)borrow; /* borrow: t < p */
    for (int i = 0; i < n; i++) r[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

/* Portable forms of add and sub (any n); x86-64 uses the assembly below for n = 4 and 6.
 * tests/test_field.c checks both forms. */
FIELD_INLINE void fe_add_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                           int n)
{
    uint64_t t[FIELD_MAX_LIMBS];
    unsigned char carry = 0; /* a + b < 2p < 2^(64n): no carry out */
    for (int i = 0; i < n; i++) carry = fe_addc(carry, a[i], b[i], &t[i]);
    fe_reduce_once(r, t, p, n);
}

FIELD_INLINE void fe_sub_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                           int n)
{
    uint64_t t[FIELD_MAX_LIMBS];
    unsigned char borrow = 0;
    for (int i = 0; i < n; i++) borrow = fe_subb(borrow, a[i], b[i], &t[i]);
    const uint64_t mask = 0 - (uint64_t)borrow;
    unsigned char carry = 0;
    for (int i = 0; i < n; i++) carry = fe_addc(carry, t[i], p[i] & mask, &r[i]);
}

#if defined(__x86_64__)
/* Addition: one ADD/ADC chain into t, SUB/SBB of p into a copy s, then CMOV (t >= p: take s).
 * Subtraction: SUB/SBB into t, the borrow as a mask, the masked limbs of p formed first (AND
 * clears the carry flag, so not inside the chain) and added with one ADD/ADC chain.
 * Constant time; results leave in registers, so r may alias a or b; a and b are reused as
 * scratch once loaded: 2n + 1 registers. gcc 12 compiles the C forms above to about twice the
 * instructions (it selects through the stack or branches). */
FIELD_INLINE void fe_add4_asm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p)
{
    uint64_t t0, t1, t2, t3, s0, s1;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "addq 0(%[b]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "adcq 8(%[b]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "adcq 16(%[b]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "adcq 24(%[b]), %[t3]\n\t"
            "movq %[t0], %[s0]\n\t"
            "subq 0(%[p]), %[s0]\n\t"
            "movq %[t1], %[s1]\n\t"
            "sbbq 8(%[p]), %[s1]\n\t"
            "movq %[t2], %[a]\n\t"
            "sbbq 16(%[p]), %[a]\n\t"
            "movq %[t3], %[b]\n\t"
            "sbbq 24(%[p]), %[b]\n\t"
            "cmovncq %[s0], %[t0]\n\t"
            "cmovncq %[s1], %[t1]\n\t"
            "cmovncq %[a], %[t2]\n\t"
            "cmovncq %[b], %[t3]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [a] "+&r"(a), [b] "+&r"(b)
            : [p] "r"(p)
            : "cc", "memory");
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}

FIELD_INLINE void fe_sub4_asm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p)
{
    uint64_t t0, t1, t2, t3, m0, m1;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "subq 0(%[b]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "sbbq 8(%[b]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "sbbq 16(%[b]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "sbbq 24(%[b]), %[t3]\n\t"
            "sbbq %[b], %[b]\n\t" /* the borrow mask */
            "movq %[b], %[m0]\n\t"
            "andq 0(%[p]), %[m0]\n\t"
            "movq %[b], %[m1]\n\t"
            "andq 8(%[p]), %[m1]\n\t"
            "movq %[b], %[a]\n\t"
            "andq 16(%[p]), %[a]\n\t"
            "andq 24(%[p]), %[b]\n\t"
            "addq %[m0], %[t0]\n\t"
            "adcq %[m1], %[t1]\n\t"
            "adcq %[a], %[t2]\n\t"
            "adcq %[b], %[t3]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [m0] "=&r"(m0),
              [m1] "=&r"(m1), [a] "+&r"(a), [b] "+&r"(b)
            : [p] "r"(p)
            : "cc", "memory");
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}

FIELD_INLINE void fe_add6_asm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p)
{
    uint64_t t0, t1, t2, t3, t4, t5, s0, s1, s2, s3;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "addq 0(%[b]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "adcq 8(%[b]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "adcq 16(%[b]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "adcq 24(%[b]), %[t3]\n\t"
            "movq 32(%[a]), %[t4]\n\t"
            "adcq 32(%[b]), %[t4]\n\t"
            "movq 40(%[a]), %[t5]\n\t"
            "adcq 40(%[b]), %[t5]\n\t"
            "movq %[t0], %[s0]\n\t"
            "subq 0(%[p]), %[s0]\n\t"
            "movq %[t1], %[s1]\n\t"
            "sbbq 8(%[p]), %[s1]\n\t"
            "movq %[t2], %[s2]\n\t"
            "sbbq 16(%[p]), %[s2]\n\t"
            "movq %[t3], %[s3]\n\t"
            "sbbq 24(%[p]), %[s3]\n\t"
            "movq %[t4], %[a]\n\t"
            "sbbq 32(%[p]), %[a]\n\t"
            "movq %[t5], %[b]\n\t"
            "sbbq 40(%[p]), %[b]\n\t"
            "cmovncq %[s0], %[t0]\n\t"
            "cmovncq %[s1], %[t1]\n\t"
            "cmovncq %[s2], %[t2]\n\t"
            "cmovncq %[s3], %[t3]\n\t"
            "cmovncq %[a], %[t4]\n\t"
            "cmovncq %[b], %[t5]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
              [a] "+&r"(a), [b] "+&r"(b)
            : [p] "r"(p)
            : "cc", "memory");
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3, r[4] = t4, r[5] = t5;
}

FIELD_INLINE void fe_sub6_asm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p)
{
    uint64_t t0, t1, t2, t3, t4, t5, m0, m1, m2, m3;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "subq 0(%[b]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "sbbq 8(%[b]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "sbbq 16(%[b]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "sbbq 24(%[b]), %[t3]\n\t"
            "movq 32(%[a]), %[t4]\n\t"
            "sbbq 32(%[b]), %[t4]\n\t"
            "movq 40(%[a]), %[t5]\n\t"
            "sbbq 40(%[b]), %[t5]\n\t"
            "sbbq %[b], %[b]\n\t" /* the borrow mask */
            "movq %[b], %[m0]\n\t"
            "andq 0(%[p]), %[m0]\n\t"
            "movq %[b], %[m1]\n\t"
            "andq 8(%[p]), %[m1]\n\t"
            "movq %[b], %[m2]\n\t"
            "andq 16(%[p]), %[m2]\n\t"
            "movq %[b], %[m3]\n\t"
            "andq 24(%[p]), %[m3]\n\t"
            "movq %[b], %[a]\n\t"
            "andq 32(%[p]), %[a]\n\t"
            "andq 40(%[p]), %[b]\n\t"
            "addq %[m0], %[t0]\n\t"
            "adcq %[m1], %[t1]\n\t"
            "adcq %[m2], %[t2]\n\t"
            "adcq %[m3], %[t3]\n\t"
            "adcq %[a], %[t4]\n\t"
            "adcq %[b], %[t5]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [m0] "=&r"(m0), [m1] "=&r"(m1), [m2] "=&r"(m2), [m3] "=&r"(m3),
              [a] "+&r"(a), [b] "+&r"(b)
            : [p] "r"(p)
            : "cc", "memory");
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3, r[4] = t4, r[5] = t5;
}
#endif

/* r = a + b mod p. */
FIELD_INLINE void fe_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                         int n)
{
#if defined(__x86_64__)
    if (n == 6) {
        fe_add6_asm(r, a, b, p);
        return;
    }
    if (n == 4) {
        fe_add4_asm(r, a, b, p);
        return;
    }
#endif
    fe_add_c(r, a, b, p, n);
}

/* r = a − b mod p. */
FIELD_INLINE void fe_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                         int n)
{
#if defined(__x86_64__)
    if (n == 6) {
        fe_sub6_asm(r, a, b, p);
        return;
    }
    if (n == 4) {
        fe_sub4_asm(r, a, b, p);
        return;
    }
#endif
    fe_sub_c(r, a, b, p, n);
}

/* r = −a mod p (0 stays 0). */
FIELD_INLINE void fe_neg(uint64_t *r, const uint64_t *a, const uint64_t *p, int n)
{
    uint64_t nz = 0, t[FIELD_MAX_LIMBS];
    unsigned char borrow = 0;
    for (int i = 0; i < n; i++) nz |= a[i];
    const uint64_t mask = 0 - (uint64_t)(nz != 0);
    for (int i = 0; i < n; i++) borrow = fe_subb(borrow, p[i], a[i], &t[i]);
    for (int i = 0; i < n; i++) r[i] = t[i] & mask;
}

FIELD_INLINE bool fe_is_zero(const uint64_t *a, int n)
{
    uint64_t z = 0;
    for (int i = 0; i < n; i++) z |= a[i];
    return z == 0;
}

FIELD_INLINE bool fe_equal(const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t z = 0;
    for (int i = 0; i < n; i++) z |= a[i] ^ b[i];
    return z == 0;
}

/* a < b as integers (variable time). */
FIELD_INLINE bool fe_less_var(const uint64_t *a, const uint64_t *b, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != b[i]) return a[i] < b[i];
    return false;
}

#endif

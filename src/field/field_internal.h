/* Internal interface of the field layer: the constants of the four fields, generic limb
 * helpers (n a compile-time constant at every call site, so the loops unroll into adc/sbb
 * chains) and per-field inline operations for the curve layer, which must not pay a call for
 * an addition. The multiplication kernel (portable or MULX) is chosen once at start-up
 * (mulred_field_kernel_mulx) and called directly: one well-predicted branch per multiply.
 *
 * Every constant here is checked against values derived with GMP in tests/test_field.c:
 *   P   the modulus (little-endian limbs)      N0  −p^(−1) mod 2^64
 *   ONE R mod p (1 in Montgomery form)          R2  R² mod p (to Montgomery form)
 *   R3  R³ mod p (fixes up an inverse computed on the Montgomery residue)
 * with R = 2^(64n), n the limb count. */
#ifndef MULRED_FIELD_INTERNAL_H
#define MULRED_FIELD_INTERNAL_H

#include <stdatomic.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "field/field_kernels.h"
#include "mulred/field.h"

#define FIELD_MAX_LIMBS 6
#define FIELD_INLINE    static inline __attribute__((always_inline))

typedef unsigned __int128 field_u128;

/* ---- constants ------------------------------------------------------------------------- */

/* BLS12-381 base field: p = (x−1)²(x⁴−x²+1)/3 + x, x = −0xd201000000010000 (381 bits). */
static const uint64_t FP381_P[6] = {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                    0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
#define FP381_N0 UINT64_C(0x89f3fffcfffcfffd)
static const uint64_t FP381_ONE[6] = {0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                                      0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493};
static const uint64_t FP381_R2[6] = {0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                                     0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa};
static const uint64_t FP381_R3[6] = {0xed48ac6bd94ca1e0, 0x315f831e03a7adf8, 0x9a53352a615e29dd,
                                     0x34c04e5e921e1761, 0x2512d43565724728, 0x0aa6346091755d4d};

/* BLS12-381 scalar field: r = x⁴ − x² + 1 (255 bits). */
static const uint64_t FR381_P[4] = {0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                    0x73eda753299d7d48};
#define FR381_N0 UINT64_C(0xfffffffeffffffff)
static const uint64_t FR381_ONE[4] = {0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5,
                                      0x1824b159acc5056f};
static const uint64_t FR381_R2[4] = {0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f,
                                     0x0748d9d99f59ff11};
static const uint64_t FR381_R3[4] = {0xc62c1807439b73af, 0x1b3e0d188cf06990, 0x73d13c71c7b5f418,
                                     0x6e2a5bb9c8db33e9};

/* BN254 base field: p = 36u⁴ + 36u³ + 24u² + 6u + 1, u = 4965661367192848881 (254 bits). */
static const uint64_t FP254_P[4] = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d,
                                    0x30644e72e131a029};
#define FP254_N0 UINT64_C(0x87d20782e4866389)
static const uint64_t FP254_ONE[4] = {0xd35d438dc58f0d9d, 0x0a78eb28f5c70b3d, 0x666ea36f7879462c,
                                      0x0e0a77c19a07df2f};
static const uint64_t FP254_R2[4] = {0xf32cfc5b538afa89, 0xb5e71911d44501fb, 0x47ab1eff0a417ff6,
                                     0x06d89f71cab8351f};
static const uint64_t FP254_R3[4] = {0xb1cd6dafda1530df, 0x62f210e6a7283db6, 0xef7f0b0c0ada0afb,
                                     0x20fd6e902d592544};

/* BN254 scalar field: r = 36u⁴ + 36u³ + 18u² + 6u + 1 (254 bits). */
static const uint64_t FR254_P[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                    0x30644e72e131a029};
#define FR254_N0 UINT64_C(0xc2e1f593efffffff)
static const uint64_t FR254_ONE[4] = {0xac96341c4ffffffb, 0x36fc76959f60cd29, 0x666ea36f7879462e,
                                      0x0e0a77c19a07df2f};
static const uint64_t FR254_R2[4] = {0x1bb8e645ae216da7, 0x53fe3ab1e35c59e3, 0x8c49833d53bb8085,
                                     0x0216d0b17f4e44a5};
static const uint64_t FR254_R3[4] = {0x5e94d8e1b4bf0040, 0x2a489cbe1cfbb6b8, 0x893cc664a19fcfed,
                                     0x0cf8594b7fcc657c};

/* ---- kernel choice --------------------------------------------------------------------- */

/* 1 when the MULX kernels are in use. Chosen once (pthread_once; first from a constructor, before
 * main()) from CPUID and MULRED_FIELD_KERNEL, so the inline multiplications read it without a
 * check; changed afterwards only by mulred_field_kernel_force. Atomic (read relaxed: a plain
 * load on x86-64), so a forced change is never a data race; hidden, not exported from a shared
 * library. */
extern _Atomic int mulred_field_kernel_mulx __attribute__((visibility("hidden")));

/* Forces the kernel ("portable", "mulx") for tests and benchmarks: MULRED_OK, or MULRED_EINPUT
 * (nothing changes) when the name is unknown or the CPU lacks the instructions. Computations
 * running at the time may use either kernel for each multiply (both give the same results). */
mulred_status mulred_field_kernel_force(const char *name);
/* Why MULRED_FIELD_KERNEL was ignored (an unknown name, or mulx on a CPU without it), or "".
 * The library prints nothing: the command reports it. */
const char *mulred_field_kernel_ignored(void);

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

/* ---- per-field inline operations -------------------------------------------------------
 * F_add, F_sub, F_neg, F_dbl (2a), F_mul, F_sqr, F_is_zero, F_equal, F_set_one, F_is_one:
 * the contracts of the public mulred_F_* functions (include/mulred/field.h), inlined. */
#define FIELD_DEFINE_INLINE_OPS(F, N, P, N0, ONE)                                                  \
    FIELD_INLINE void F##_add(mulred_##F *r, const mulred_##F *a, const mulred_##F *b)             \
    {                                                                                              \
        fe_add(r->l, a->l, b->l, P, N);                                                            \
    }                                                                                              \
    FIELD_INLINE void F##_sub(mulred_##F *r, const mulred_##F *a, const mulred_##F *b)             \
    {                                                                                              \
        fe_sub(r->l, a->l, b->l, P, N);                                                            \
    }                                                                                              \
    FIELD_INLINE void F##_neg(mulred_##F *r, const mulred_##F *a)                                  \
    {                                                                                              \
        fe_neg(r->l, a->l, P, N);                                                                  \
    }                                                                                              \
    FIELD_INLINE void F##_dbl(mulred_##F *r, const mulred_##F *a)                                  \
    {                                                                                              \
        fe_add(r->l, a->l, a->l, P, N);                                                            \
    }                                                                                              \
    FIELD_INLINE void F##_mul(mulred_##F *r, const mulred_##F *a, const mulred_##F *b)             \
    {                                                                                              \
        if (atomic_load_explicit(&mulred_field_kernel_mulx, memory_order_relaxed))                 \
            mulred_mont_mul##N##_mulx(r->l, a->l, b->l, P, N0);                                    \
        else                                                                                       \
            mulred_mont_mul##N##_portable(r->l, a->l, b->l, P, N0);                                \
    }                                                                                              \
    FIELD_INLINE void F##_sqr(mulred_##F *r, const mulred_##F *a)                                  \
    {                                                                                              \
        if (atomic_load_explicit(&mulred_field_kernel_mulx, memory_order_relaxed))                 \
            mulred_mont_sqr##N##_mulx(r->l, a->l, P, N0);                                          \
        else                                                                                       \
            mulred_mont_sqr##N##_portable(r->l, a->l, P, N0);                                      \
    }                                                                                              \
    FIELD_INLINE bool F##_is_zero(const mulred_##F *a)                                             \
    {                                                                                              \
        return fe_is_zero(a->l, N);                                                                \
    }                                                                                              \
    FIELD_INLINE bool F##_equal(const mulred_##F *a, const mulred_##F *b)                          \
    {                                                                                              \
        return fe_equal(a->l, b->l, N);                                                            \
    }                                                                                              \
    FIELD_INLINE void F##_set_one(mulred_##F *r)                                                   \
    {                                                                                              \
        memcpy(r->l, ONE, sizeof r->l);                                                            \
    }                                                                                              \
    FIELD_INLINE bool F##_is_one(const mulred_##F *a)                                              \
    {                                                                                              \
        return fe_equal(a->l, ONE, N);                                                             \
    }

FIELD_DEFINE_INLINE_OPS(fp381, 6, FP381_P, FP381_N0, FP381_ONE)
FIELD_DEFINE_INLINE_OPS(fp254, 4, FP254_P, FP254_N0, FP254_ONE)
FIELD_DEFINE_INLINE_OPS(fr381, 4, FR381_P, FR381_N0, FR381_ONE)
FIELD_DEFINE_INLINE_OPS(fr254, 4, FR254_P, FR254_N0, FR254_ONE)

#endif

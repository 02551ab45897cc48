/* Internal interface of the field layer: the constants of the four fields and per-field inline
 * operations for the curve layer, which must not pay a call for an addition (over the limb
 * helpers of field_limbs.h, which the kernels use too). The multiplication kernel (portable or
 * MULX) is chosen once at start-up (mulred_field_kernel_mulx) and called directly: one
 * well-predicted branch per multiply.
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
#include "field/field_limbs.h"
#include "mulred/field.h"

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

/* ---- Fp2 = Fp[u]/(u² + 1): the same inline names over the coefficient pairs -----------------
 * F2_add ... F2_is_one as above, and F2_mul_base (r = a·b, b in Fp: 2 base multiplications),
 * F2_conj (the Frobenius map), F2_mul_small (r = k·a, k a small constant, by additions). */
#define FIELD_DEFINE_FP2_OPS(F2, F)                                                                \
    FIELD_INLINE void F2##_add(mulred_##F2 *r, const mulred_##F2 *a, const mulred_##F2 *b)         \
    {                                                                                              \
        F##_add(&r->c0, &a->c0, &b->c0);                                                           \
        F##_add(&r->c1, &a->c1, &b->c1);                                                           \
    }                                                                                              \
    FIELD_INLINE void F2##_sub(mulred_##F2 *r, const mulred_##F2 *a, const mulred_##F2 *b)         \
    {                                                                                              \
        F##_sub(&r->c0, &a->c0, &b->c0);                                                           \
        F##_sub(&r->c1, &a->c1, &b->c1);                                                           \
    }                                                                                              \
    FIELD_INLINE void F2##_neg(mulred_##F2 *r, const mulred_##F2 *a)                               \
    {                                                                                              \
        F##_neg(&r->c0, &a->c0);                                                                   \
        F##_neg(&r->c1, &a->c1);                                                                   \
    }                                                                                              \
    FIELD_INLINE void F2##_dbl(mulred_##F2 *r, const mulred_##F2 *a)                               \
    {                                                                                              \
        F##_dbl(&r->c0, &a->c0);                                                                   \
        F##_dbl(&r->c1, &a->c1);                                                                   \
    }                                                                                              \
    FIELD_INLINE void F2##_conj(mulred_##F2 *r, const mulred_##F2 *a)                              \
    {                                                                                              \
        r->c0 = a->c0;                                                                             \
        F##_neg(&r->c1, &a->c1);                                                                   \
    }                                                                                              \
    /* Karatsuba: c0 = a0b0 − a1b1, c1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 */                 \
    FIELD_INLINE void F2##_mul(mulred_##F2 *r, const mulred_##F2 *a, const mulred_##F2 *b)         \
    {                                                                                              \
        mulred_##F t0, t1, sa, sb;                                                                 \
        F##_add(&sa, &a->c0, &a->c1);                                                              \
        F##_add(&sb, &b->c0, &b->c1);                                                              \
        F##_mul(&t0, &a->c0, &b->c0);                                                              \
        F##_mul(&t1, &a->c1, &b->c1);                                                              \
        F##_mul(&sa, &sa, &sb);                                                                    \
        F##_sub(&r->c0, &t0, &t1);                                                                 \
        F##_sub(&sa, &sa, &t0);                                                                    \
        F##_sub(&r->c1, &sa, &t1);                                                                 \
    }                                                                                              \
    /* c0 = (a0 + a1)(a0 − a1), c1 = 2·a0·a1 */                                                \
    FIELD_INLINE void F2##_sqr(mulred_##F2 *r, const mulred_##F2 *a)                               \
    {                                                                                              \
        mulred_##F s, d, t;                                                                        \
        F##_add(&s, &a->c0, &a->c1);                                                               \
        F##_sub(&d, &a->c0, &a->c1);                                                               \
        F##_mul(&t, &a->c0, &a->c1);                                                               \
        F##_mul(&r->c0, &s, &d);                                                                   \
        F##_dbl(&r->c1, &t);                                                                       \
    }                                                                                              \
    FIELD_INLINE void F2##_mul_base(mulred_##F2 *r, const mulred_##F2 *a, const mulred_##F *b)     \
    {                                                                                              \
        F##_mul(&r->c0, &a->c0, b);                                                                \
        F##_mul(&r->c1, &a->c1, b);                                                                \
    }                                                                                              \
    FIELD_INLINE bool F2##_is_zero(const mulred_##F2 *a)                                           \
    {                                                                                              \
        return F##_is_zero(&a->c0) && F##_is_zero(&a->c1);                                         \
    }                                                                                              \
    FIELD_INLINE bool F2##_equal(const mulred_##F2 *a, const mulred_##F2 *b)                       \
    {                                                                                              \
        return F##_equal(&a->c0, &b->c0) && F##_equal(&a->c1, &b->c1);                             \
    }                                                                                              \
    FIELD_INLINE void F2##_set_one(mulred_##F2 *r)                                                 \
    {                                                                                              \
        F##_set_one(&r->c0);                                                                       \
        memset(&r->c1, 0, sizeof r->c1);                                                           \
    }                                                                                              \
    FIELD_INLINE bool F2##_is_one(const mulred_##F2 *a)                                            \
    {                                                                                              \
        return F##_is_one(&a->c0) && F##_is_zero(&a->c1);                                          \
    }

FIELD_DEFINE_FP2_OPS(fp2_381, fp381)
FIELD_DEFINE_FP2_OPS(fp2_254, fp254)

#endif

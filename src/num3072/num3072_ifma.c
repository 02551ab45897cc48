/* AVX-512 IFMA kernels (512-bit vectors) for products mod p = 2^3072 - 1103717: the
 * schoolbook one ("ifma", the default) and one Karatsuba level ("ifma_kara"). The building
 * blocks and the representation are described in num3072_ifma_impl.h.
 *
 * On AMD Zen 5 (full-width 512-bit units, 2 IFMAs per cycle) the schoolbook product (about
 * 1020 IFMAs) is bound by IFMA throughput; the Karatsuba kernel issues 18% fewer IFMAs but its
 * three 30x30 products have too little independent work per step to keep both units busy, and
 * with the halves, differences and recombination it is slower there (docs/kernels.md has the
 * figures). It is kept for CPUs that execute 512-bit IFMAs in two halves (Zen 4), where the
 * IFMA count weighs more; the one-time measurement at first use decides.
 */
#include "num3072/num3072_kernels.h"

#include "num3072/num3072_ifma_impl.h"
#include "util/util.h"

int mulred_num3072_kernels_have_ifma(void)
{
    const mulred_cpu_features *f = mulred_cpu(); /* the project's cached CPUID probe */
    return f->avx512f && f->avx512vl && f->avx512ifma;
}

/* ---- schoolbook ------------------------------------------------------------------------ */

IFMA_TARGET void mulred_num3072_mul_ifma(uint64_t r[48], const uint64_t a[48], const uint64_t b[48])
{
    uint64_t pa[80] __attribute__((aligned(64)));
    uint64_t bb[64] __attribute__((aligned(64)));
    __m512i x[8], z[15];
    from64_vec(x, b);
#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) _mm512_store_si512((void *)(bb + 8 * v), x[v]);
    from64_vec(x, a);
    pad_copy(pa, x);
    product120(z, pa, bb);
    reduce120(x, z);
    to64_vec(r, x);
}

/* The accumulator stays in radix 2^52 from one factor to the next: one conversion per factor
 * instead of three (docs/kernels.md has the saving). */
IFMA_TARGET void mulred_num3072_mul_many_ifma(uint64_t acc[48], const uint64_t *const x[], size_t n)
{
    if (n == 0) return;
    uint64_t pa[80] __attribute__((aligned(64)));
    uint64_t bb[64] __attribute__((aligned(64)));
    __m512i a[8], y[8], z[15];
    from64_vec(a, acc);
    for (size_t j = 0; j < n; j++) {
        from64_vec(y, x[j]);
#pragma GCC unroll 16
        for (int v = 0; v < 8; v++) _mm512_store_si512((void *)(bb + 8 * v), y[v]);
        pad_copy(pa, a);
        product120(z, pa, bb);
        reduce120(a, z);
    }
    to64_vec(acc, a);
}

/* ---- Karatsuba ------------------------------------------------------------------------- */

/* x *= the prepared factor p (x normalised in and out; x is the broadcast operand). */
IFMA_INLINE void kara_mul_prepared(__m512i x[8], const ifma_kara_operand *p)
{
    uint64_t bb[64] __attribute__((aligned(64)));
    uint64_t db[32] __attribute__((aligned(64)));
    __m512i z0[8], z2[8], zm[8], F[15];
    const int nb = kara_broadcast_operand(bb, db, x);
    product60(z0, &p->h0, bb);
    product60(z2, &p->h1, bb + 30);
    product60(zm, &p->hd, db);
    /* (a0 - a1)(b0 - b1) = s zm with s = +1 when the signs agree: then T = z0 + z2 - zm */
    kara_combine(F, z0, z2, zm, 1 ^ p->neg ^ nb);
    reduce120(x, F);
}

IFMA_TARGET void mulred_num3072_mul_ifma_kara(uint64_t r[48], const uint64_t a[48],
                                              const uint64_t b[48])
{
    ifma_kara_operand pa;
    __m512i x[8];
    from64_vec(x, a);
    kara_prepare(&pa, x);
    from64_vec(x, b);
    kara_mul_prepared(x, &pa);
    to64_vec(r, x);
}

/* Factors are prepared four at a time ahead of their multiplies, so that their stored halves
 * have reached the cache when the window loads read them (a load that spans two recent
 * stores waits for them). */
IFMA_TARGET void mulred_num3072_mul_many_ifma_kara(uint64_t acc[48], const uint64_t *const x[],
                                                   size_t n)
{
    if (n == 0) return;
    ifma_kara_operand pa[4];
    __m512i a[8], y[8];
    from64_vec(a, acc);
    for (size_t j = 0; j < n; j += 4) {
        const size_t m = n - j < 4 ? n - j : 4;
        for (size_t i = 0; i < m; i++) {
            from64_vec(y, x[j + i]);
            kara_prepare(&pa[i], y);
        }
        for (size_t i = 0; i < m; i++) kara_mul_prepared(a, &pa[i]);
    }
    to64_vec(acc, a);
}

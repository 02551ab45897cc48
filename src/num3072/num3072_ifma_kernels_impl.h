/* The four IFMA kernel entry points (a product and a product of many factors, schoolbook and
 * one Karatsuba level), written once over the products they run on. An instance defines
 *
 *   IFMA_SUFFIX                    the kernels' name: mulred_num3072_mul_<IFMA_SUFFIX>,
 *                                  _mul_many_<IFMA_SUFFIX>, and the same with _kara after it
 *   IFMA_PRODUCT120(z, pa, bb)     z[0..14] = a·b, a the padded window operand (pad_copy), b
 *                                  60 broadcast limbs (as product120, num3072_ifma_impl.h)
 *   IFMA_PRODUCT60(z, half, b)     z[0..7] = the product of a 30-limb half and 30 limbs of b
 *                                  (as product60)
 *
 * then includes this file, which #undefs them. num3072_ifma.c instantiates it with the 512-bit
 * windows, num3072_ifma256.c with the 4-lane (ymm) ones. Needs num3072_ifma_impl.h first. */

#define IFMA_CAT_(a, b) a##b
#define IFMA_CAT(a, b)  IFMA_CAT_(a, b)
#define IFMA_FN(op)     IFMA_CAT(IFMA_CAT(mulred_num3072_, op), IFMA_CAT(_, IFMA_SUFFIX))
#define IFMA_KARA(op)   IFMA_CAT(IFMA_FN(op), _kara)

/* ---- schoolbook ------------------------------------------------------------------------ */

IFMA_TARGET void IFMA_FN(mul)(uint64_t r[48], const uint64_t a[48], const uint64_t b[48])
{
    uint64_t pa[80] __attribute__((aligned(64)));
    uint64_t bb[64] __attribute__((aligned(64)));
    __m512i x[8], z[15];
    from64_vec(x, b);
#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) _mm512_store_si512((void *)(bb + 8 * v), x[v]);
    from64_vec(x, a);
    pad_copy(pa, x);
    IFMA_PRODUCT120(z, pa, bb);
    reduce120(x, z);
    to64_vec(r, x);
}

/* The accumulator stays in radix 2^52 from one factor to the next: one conversion per factor
 * instead of three (docs/kernels.md has the saving). */
IFMA_TARGET void IFMA_FN(mul_many)(uint64_t acc[48], const uint64_t *const x[], size_t n)
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
        IFMA_PRODUCT120(z, pa, bb);
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
    IFMA_PRODUCT60(z0, &p->h0, bb);
    IFMA_PRODUCT60(z2, &p->h1, bb + 30);
    IFMA_PRODUCT60(zm, &p->hd, db);
    /* (a0 - a1)(b0 - b1) = s zm with s = +1 when the signs agree: then T = z0 + z2 - zm */
    kara_combine(F, z0, z2, zm, 1 ^ p->neg ^ nb);
    reduce120(x, F);
}

IFMA_TARGET void IFMA_KARA(mul)(uint64_t r[48], const uint64_t a[48], const uint64_t b[48])
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
IFMA_TARGET void IFMA_KARA(mul_many)(uint64_t acc[48], const uint64_t *const x[], size_t n)
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

#undef IFMA_KARA
#undef IFMA_FN
#undef IFMA_CAT
#undef IFMA_CAT_
#undef IFMA_SUFFIX
#undef IFMA_PRODUCT120
#undef IFMA_PRODUCT60

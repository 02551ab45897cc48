/* AVX-512 IFMA kernels whose products run on 256-bit vectors (AVX512VL forms of
 * vpmadd52luq/huq on ymm registers): the schoolbook one ("ifma256") and one Karatsuba level
 * ("ifma256_kara"). The conversions and the reduction are those of the 512-bit kernels
 * (num3072_ifma_impl.h): they are about a tenth of the work.
 *
 * Why: AMD Zen 4 executes a 512-bit instruction as two 256-bit halves, so a 512-bit IFMA costs
 * two issue slots there while a 256-bit one costs one, and its 512-bit shuffles are slower
 * still. With 4-lane windows fewer lanes are wasted at the edges of the product (the window
 * overhang is 3 limbs instead of 7: 6% fewer lane products for the schoolbook, 10% fewer for
 * the Karatsuba halves), and Karatsuba removes 18% more. On Zen 5 (full-width 512-bit units)
 * a 256-bit IFMA does half the work of a 512-bit one in the same slot, so these kernels are
 * about twice as slow there; the one-time measurement at first use decides on each machine.
 *
 * Accumulators: 120 output limbs are 30 ymm vectors, more than the registers hold next to
 * the windows, so the product runs in passes of at most 8 output vectors, each pass
 * broadcasting the b limbs it needs again (a broadcast is one load).
 *
 * VARIABLE-TIME, as the 512-bit kernels.
 */
#include "num3072/num3072_kernels.h"

#include "num3072/num3072_ifma_impl.h"

#define LOADU256_ASM(dst, mem)                                                                     \
    __asm__ volatile("vmovdqu64 %1, %0" : "=v"(dst) : "m"(*(const __m256i_u *)(mem)))

/* Output vectors [k0, k1) (4 limbs each, k1 - k0 <= 8) of the product of the window operand
 * (n limbs at pa + 8, zero limbs before and after) and the n limbs of b, unnormalised.
 * As product_windows (num3072_ifma_impl.h), a window depends only on o = 4k - i, so i runs by
 * residue class r = i mod 4: with j = (i - r)/4 the pass needs windows m = k - j, o = 4m - r,
 * for k in [k0, k1): all of them at j = 0, then one new window (m = k0 - j) per step while one
 * drops out. Each window is loaded once per pass and class, the live ones stay in registers
 * (k1 - k0 windows, as many accumulators, two broadcasts). */
IFMA_INLINE void product_ymm_pass(__m256i *z, const uint64_t *pa, const uint64_t *b, const int n,
                                  const int k0, const int k1)
{
    __m256i lo[8], hi[8]; /* separate chains: two dependent IFMAs per step would wait */
#pragma GCC unroll 8
    for (int k = 0; k < k1 - k0; k++) lo[k] = hi[k] = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (int r = 0; r < 4; r++) {
        __m256i w[48]; /* window m at w[m + 16]: m >= k0 - n/4 > -16, m < k1 <= 30 */
#pragma GCC unroll 16
        for (int j = 0; 4 * j + r <= n; j++) {
            const int i = 4 * j + r;
            __m256i bl = _mm256_setzero_si256(), bh = _mm256_setzero_si256();
            if (i < n) BCAST_ASM(bl, b + i);
            if (i > 0) BCAST_ASM(bh, b + i - 1);
#pragma GCC unroll 8
            for (int k = k0; k < k1; k++) {
                const int m = k - j, o = 4 * m - r; /* lane l of the window: a[o + l] */
                if (o + 3 < 0 || o > n - 1) continue;
                if (j == 0 || k == k0) LOADU256_ASM(w[m + 16], pa + 8 + o);
                if (i < n) lo[k - k0] = _mm256_madd52lo_epu64(lo[k - k0], bl, w[m + 16]);
                if (i > 0) hi[k - k0] = _mm256_madd52hi_epu64(hi[k - k0], bh, w[m + 16]);
            }
        }
    }
#pragma GCC unroll 8
    for (int k = k0; k < k1; k++) z[k] = _mm256_add_epi64(lo[k - k0], hi[k - k0]);
}

/* Pairs of ymm vectors as zmm vectors: z[k] = y[2k] | y[2k+1] << 256. */
IFMA_INLINE void ymm_to_zmm(__m512i *z, const __m256i *y, const int nz)
{
#pragma GCC unroll 16
    for (int k = 0; k < nz; k++)
        z[k] = _mm512_inserti64x4(_mm512_castsi256_si512(y[2 * k]), y[2 * k + 1], 1);
}

/* z[0..14] = a*b as product120, with 4-lane windows. */
IFMA_INLINE void product120_ymm(__m512i z[15], const uint64_t pa[80], const uint64_t *b)
{
    __m256i y[30];
    product_ymm_pass(y, pa, b, 60, 0, 8);
    product_ymm_pass(y, pa, b, 60, 8, 16);
    product_ymm_pass(y, pa, b, 60, 16, 23);
    product_ymm_pass(y, pa, b, 60, 23, 30);
    ymm_to_zmm(z, y, 15);
}

/* z[0..7] = a*b for 30-limb halves (as product60), with 4-lane windows. */
IFMA_INLINE void product60_ymm(__m512i z[8], const ifma_half *pa, const uint64_t *b)
{
    __m256i y[16];
    product_ymm_pass(y, pa->limb, b, 30, 0, 8);
    product_ymm_pass(y, pa->limb, b, 30, 8, 15);
    y[15] = _mm256_setzero_si256();
    ymm_to_zmm(z, y, 8);
}

/* The kernels over the 4-lane windows above. */
#define IFMA_SUFFIX                ifma256
#define IFMA_PRODUCT120(z, pa, bb) product120_ymm(z, pa, bb)
#define IFMA_PRODUCT60(z, half, b) product60_ymm(z, half, b)
#include "num3072/num3072_ifma_kernels_impl.h"

/* 8-lane Montgomery arithmetic in radix 2^52 with AVX-512 IFMA (contracts: field_x8.h).
 *
 * Limb-major layout: register i holds limb i of the 8 lanes, so the lanes never meet and an
 * 8-lane product is the textbook one-element algorithm with every word operation a vector
 * operation (no broadcasts, no lane shuffles). vpmadd52luq / vpmadd52huq add the low / high
 * 52 bits of the 104-bit product of the low 52 bits of two lanes to a 64-bit accumulator, so
 * an accumulator can take 2^12 such terms before it overflows: carries are propagated lazily,
 * once per reduction step (the limb being divided out) and once at the end.
 *
 * Multiply: the schoolbook product t = a b into 2N unnormalised limbs (2N^2 IFMAs), then N
 * Montgomery steps:  m = t_i (-p^-1) mod 2^52;  t += m p 2^(52 i);  carry t_i >> 52 into t_(i+1)
 * (2N^2 + N IFMAs), and one carry pass over the top N limbs: 4N^2 + N IFMAs in all. With inputs
 * below 2p the result is below a b / R52 + p < 2p (R52 / p > 2^35 for BLS12-381, > 64 for
 * BN254), so there is no final subtraction. A limb of t receives at most 4N terms < 2^52 plus
 * small carries: < 2^58, far from 2^64, so no carry is propagated before the end ("lazy"
 * carries: normalising t after every step instead costs more; docs/kernels.md has the figures).
 * Computing the product first ("product scanning") is faster than interleaving the reduction
 * with the product row by row ("operand scanning", one b_i at a time): the product IFMAs are
 * independent, so they fill the gaps of the serial m_i chain. Both compute the same
 * bits (the Montgomery quotient sum m_i 2^(52 i) is unique). Keeping p as pre-broadcast vectors
 * in memory instead of broadcasts made no difference; the compiler keeps a, b and about half of
 * t in the 32 zmm registers and spills the rest to L1 at no measurable cost.
 * Square: the products a_i a_j (i < j) once, doubled by a shift, plus the diagonal, then the
 * same N reduction steps: 3N^2 + 2N IFMAs instead of 4N^2 + N (about 0.8x the multiply's IFMAs).
 *
 * add / sub: the limb-wise sum (difference) and sum minus 2p (difference plus 2p) are
 * normalised side by side (two independent carry chains, arithmetic shifts for the signed
 * one) and the sign of the second picks the result in [0, 2p).
 *
 * load (scalar form u, R64 = 2^(64n), -> x8 form u * 2^D mod p): v = u * 2^D is a radix
 * change with shifts; q = floor(v / p) is estimated from the top bits, q' = floor((u >> S) *
 * mu / 2^K) with mu = floor(2^(D+S+K) / p): q' <= q and q - q' < 2^(S+D)/p + (u >> S)/2^K + 1,
 * so q - q' is 0 or 1 and v - q'p lies in [0, 2p). v - q'p is computed as v + q'(2^(52N) - p)
 * mod 2^(52N): 2N IFMAs and one carry pass.
 * store (x8 form w -> u = w / 2^D mod p): one D-bit Montgomery step, s = w + m p with
 * m = w (-p^-1) mod 2^D, so s / 2^D < p + 2p/2^D < 2p; one conditional subtraction of p 2^D,
 * then the words of s / 2^D are shifts of its limbs.
 * The 8 scattered elements meet the limb-major registers through an 8x8 transpose of 64-bit
 * words (unpack, vpermt2q, vshufi64x2: 24 shuffles).
 */
#include <gmp.h>
#include <stdint.h>
#include <string.h>

#include "field/field_x8.h"
#include "util/avx512.h"

#define IFMA_TARGET MULRED_AVX512_TARGET("avx512f,avx512vl,avx512ifma")
#define IFMA_INLINE static inline __attribute__((always_inline)) IFMA_TARGET

#define M52 ((UINT64_C(1) << 52) - 1)

typedef mulred_fieldx8_consts consts;

IFMA_INLINE __m512i bcast(uint64_t x)
{
    return _mm512_set1_epi64((long long)x);
}
IFMA_INLINE __m512i madd_lo(__m512i acc, __m512i x, __m512i y)
{
    return _mm512_madd52lo_epu64(acc, x, y);
}
IFMA_INLINE __m512i madd_hi(__m512i acc, __m512i x, __m512i y)
{
    return _mm512_madd52hi_epu64(acc, x, y);
}

IFMA_INLINE void vload(__m512i *x, const uint64_t (*l)[8], const int n)
{
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) x[i] = _mm512_loadu_si512((const void *)l[i]);
}
IFMA_INLINE void vstore(uint64_t (*l)[8], const __m512i *x, const int n)
{
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) _mm512_storeu_si512((void *)l[i], x[i]);
}

/* Carry pass: every limb below the top < 2^52; the top keeps the rest. Unsigned lanes. */
IFMA_INLINE void carry_unsigned(__m512i *t, const int n)
{
    const __m512i m52 = bcast(M52);
#pragma GCC unroll 8
    for (int j = 0; j < n - 1; j++) {
        t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
        t[j] = _mm512_and_si512(t[j], m52);
    }
}
/* Same for signed lanes (|lane| < 2^62): the top limb is negative iff the value is. */
IFMA_INLINE void carry_signed(__m512i *t, const int n)
{
    const __m512i m52 = bcast(M52);
#pragma GCC unroll 8
    for (int j = 0; j < n - 1; j++) {
        t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srai_epi64(t[j], 52));
        t[j] = _mm512_and_si512(t[j], m52);
    }
}

/* ---- multiply and square ----------------------------------------------------------------- */

/* Montgomery reduction of a 2n-limb unnormalised product (lanes < 2^60) into r. */
IFMA_INLINE void mont_redc(__m512i *r, __m512i *t, const consts *c, const int n)
{
    const __m512i zero = _mm512_setzero_si512(), n0 = bcast(c->n0);
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        const __m512i m = madd_lo(zero, t[i], n0);
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) t[i + j] = madd_lo(t[i + j], m, bcast(c->p[j]));
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) t[i + j + 1] = madd_hi(t[i + j + 1], m, bcast(c->p[j]));
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
    }
    carry_unsigned(t + n, n);
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) r[j] = t[n + j];
}

IFMA_INLINE void mont_mul(__m512i *r, const __m512i *a, const __m512i *b, const consts *c,
                          const int n)
{
    __m512i t[16];
#pragma GCC unroll 16
    for (int k = 0; k < 2 * n; k++) t[k] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) {
            t[i + j] = madd_lo(t[i + j], a[i], b[j]);
            t[i + j + 1] = madd_hi(t[i + j + 1], a[i], b[j]);
        }
    mont_redc(r, t, c, n);
}

IFMA_INLINE void mont_sqr(__m512i *r, const __m512i *a, const consts *c, const int n)
{
    __m512i t[16];
#pragma GCC unroll 16
    for (int k = 0; k < 2 * n; k++) t[k] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)
#pragma GCC unroll 8
        for (int j = i + 1; j < n; j++) {
            t[i + j] = madd_lo(t[i + j], a[i], a[j]);
            t[i + j + 1] = madd_hi(t[i + j + 1], a[i], a[j]);
        }
#pragma GCC unroll 16
    for (int k = 1; k < 2 * n; k++) t[k] = _mm512_slli_epi64(t[k], 1);
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        t[2 * i] = madd_lo(t[2 * i], a[i], a[i]);
        t[2 * i + 1] = madd_hi(t[2 * i + 1], a[i], a[i]);
    }
    mont_redc(r, t, c, n);
}

/* ---- add, sub, comparisons --------------------------------------------------------------- */

IFMA_INLINE void add_mod(__m512i *r, const __m512i *a, const __m512i *b, const consts *c,
                         const int n)
{
    __m512i s[8], d[8];
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) {
        s[j] = _mm512_add_epi64(a[j], b[j]);
        d[j] = _mm512_sub_epi64(s[j], bcast(c->p2[j]));
    }
    carry_unsigned(s, n);
    carry_signed(d, n);
    const __mmask8 below = _mm512_cmplt_epi64_mask(d[n - 1], _mm512_setzero_si512());
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) r[j] = _mm512_mask_blend_epi64(below, d[j], s[j]);
}

IFMA_INLINE void sub_mod(__m512i *r, const __m512i *a, const __m512i *b, const consts *c,
                         const int n)
{
    __m512i e[8], g[8];
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) {
        e[j] = _mm512_sub_epi64(a[j], b[j]);
        g[j] = _mm512_add_epi64(e[j], bcast(c->p2[j]));
    }
    carry_signed(e, n);
    carry_signed(g, n);
    const __mmask8 below = _mm512_cmplt_epi64_mask(e[n - 1], _mm512_setzero_si512());
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) r[j] = _mm512_mask_blend_epi64(below, e[j], g[j]);
}

/* Lanes equal to 0 or to p (the two representatives of 0 below 2p). */
IFMA_INLINE __mmask8 zero_mask(const __m512i *a, const consts *c, const int n)
{
    __m512i z = a[0], q = _mm512_xor_si512(a[0], bcast(c->p[0]));
#pragma GCC unroll 8
    for (int j = 1; j < n; j++) {
        z = _mm512_or_si512(z, a[j]);
        q = _mm512_or_si512(q, _mm512_xor_si512(a[j], bcast(c->p[j])));
    }
    const __m512i zero = _mm512_setzero_si512();
    return _mm512_cmpeq_epi64_mask(z, zero) | _mm512_cmpeq_epi64_mask(q, zero);
}

/* ---- conversions --------------------------------------------------------------------------- */

/* In-place transpose of an 8x8 matrix of 64-bit words: lane j of x[i] <-> lane i of x[j]. */
IFMA_INLINE void transpose8(__m512i x[8])
{
    const __m512i lo2 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const __m512i hi2 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    __m512i t[8], u[8];
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm512_unpacklo_epi64(x[2 * k], x[2 * k + 1]);     /* words 0 2 4 6 */
        t[2 * k + 1] = _mm512_unpackhi_epi64(x[2 * k], x[2 * k + 1]); /* words 1 3 5 7 */
    }
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++) {                                              /* rows 4h .. 4h+3 */
        u[4 * h + 0] = _mm512_permutex2var_epi64(t[4 * h], lo2, t[4 * h + 2]); /* 0, 4 */
        u[4 * h + 1] = _mm512_permutex2var_epi64(t[4 * h + 1], lo2, t[4 * h + 3]); /* 1, 5 */
        u[4 * h + 2] = _mm512_permutex2var_epi64(t[4 * h], hi2, t[4 * h + 2]);     /* 2, 6 */
        u[4 * h + 3] = _mm512_permutex2var_epi64(t[4 * h + 1], hi2, t[4 * h + 3]); /* 3, 7 */
    }
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        x[k] = _mm512_shuffle_i64x2(u[k], u[4 + k], 0x44);     /* words k */
        x[k + 4] = _mm512_shuffle_i64x2(u[k], u[4 + k], 0xee); /* words k + 4 */
    }
}

IFMA_INLINE void load_x8(__m512i *r, const uint64_t *const src[8], const consts *c, const int n,
                         const int words, const int d, const int top_shift, const int mu_shift)
{
    const __m512i m52 = bcast(M52), zero = _mm512_setzero_si512();
    const __mmask8 km = (__mmask8)((1u << words) - 1);
    __m512i w[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) w[j] = _mm512_maskz_loadu_epi64(km, src[j]);
    transpose8(w); /* w[k] = word k of the 8 lanes */
    /* v = u * 2^D: limb i = bits [52i - D, 52i - D + 52) of u */
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        const int b = 52 * i - d;
        __m512i v;
        if (b < 0) {
            v = _mm512_slli_epi64(w[0], -b);
        } else {
            const int q = b >> 6, s = b & 63;
            v = _mm512_srli_epi64(w[q], s);
            if (s > 12 && q + 1 < words)
                v = _mm512_or_si512(v, _mm512_slli_epi64(w[q + 1], 64 - s));
        }
        r[i] = _mm512_and_si512(v, m52);
    }
    /* q' = floor((u >> S) * mu / 2^K), then v - q' p = v + q' (2^(52N) - p) mod 2^(52N) */
    const __m512i top = _mm512_srli_epi64(w[words - 1], top_shift - 64 * (words - 1));
    const __m512i q = _mm512_srli_epi64(madd_hi(zero, top, bcast(c->mu)), mu_shift - 52);
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) r[i] = madd_lo(r[i], q, bcast(c->negp[i]));
#pragma GCC unroll 8
    for (int i = 0; i < n - 1; i++) r[i + 1] = madd_hi(r[i + 1], q, bcast(c->negp[i]));
    carry_unsigned(r, n);
    r[n - 1] = _mm512_and_si512(r[n - 1], m52);
}

IFMA_INLINE void store_x8(uint64_t *const dst[8], const __m512i *a, const consts *c, const int n,
                          const int words, const int d)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i m =
        _mm512_and_si512(madd_lo(zero, a[0], bcast(c->n0)), bcast((UINT64_C(1) << d) - 1));
    __m512i s[8], t[8], w[8];
    /* s = a + m p < 2^(52N); the high half of m p_{N-1} is 0 (p_{N-1} m < 2^52) */
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) s[i] = madd_lo(a[i], m, bcast(c->p[i]));
#pragma GCC unroll 8
    for (int i = 0; i < n - 1; i++) s[i + 1] = madd_hi(s[i + 1], m, bcast(c->p[i]));
    carry_unsigned(s, n);
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) t[i] = _mm512_sub_epi64(s[i], bcast(c->pd[i]));
    carry_signed(t, n);
    const __mmask8 below = _mm512_cmplt_epi64_mask(t[n - 1], zero);
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) s[i] = _mm512_mask_blend_epi64(below, t[i], s[i]);
        /* word k = bits [64k + D, 64k + D + 64) of s */
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) {
        if (k >= words) {
            w[k] = zero;
            continue;
        }
        const int b = 64 * k + d, l = b / 52, sh = b % 52;
        __m512i x = _mm512_srli_epi64(s[l], sh);
        if (l + 1 < n) x = _mm512_or_si512(x, _mm512_slli_epi64(s[l + 1], 52 - sh));
        if (l + 2 < n && 104 - sh < 64)
            x = _mm512_or_si512(x, _mm512_slli_epi64(s[l + 2], 104 - sh));
        w[k] = x;
    }
    transpose8(w);
    const __mmask8 km = (__mmask8)((1u << words) - 1);
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) _mm512_mask_storeu_epi64(dst[j], km, w[j]);
}

/* ---- variable-time inversion of 8 lanes with one extended gcd ------------------------------ */

_Static_assert(sizeof(mp_limb_t) == 8, "GMP limbs of 64 bits");

/* Lanes moved up (r_j = x_(j-s), the element 1 below) or down (r_j = x_(j+s), 1 above). */
#define LANES_UP(r, x, one, s, n)                                                                  \
    for (int j_ = 0; j_ < (n); j_++) (r)[j_] = _mm512_alignr_epi64((x)[j_], (one)[j_], 8 - (s))
#define LANES_DOWN(r, x, one, s, n)                                                                \
    for (int j_ = 0; j_ < (n); j_++) (r)[j_] = _mm512_alignr_epi64((one)[j_], (x)[j_], (s))

/* r_j = x_j^-1, every x_j non-zero (x in [0, 2p), normalised).
 * Prefix and suffix products across the lanes (Hillis-Steele scans, 3 multiplies each) give
 * e_j = prod_(k != j) x_k and the total T = prod x_k; T as an integer W = tau R52 is inverted
 * by mpn_gcdext (on W + p >= p, as mpn_gcdext wants U >= V), and W^-1 R52^3 / R52 = tau^-1 R52
 * is the x8 form of the inverse of the total: r_j = e_j tau^-1. 9 multiplies and one gcd of
 * 6 (or 4) words. */
IFMA_INLINE void inv_lanes_var(__m512i *r, const __m512i *x, const consts *c, const int n,
                               const int words)
{
    __m512i one[8], pre[8], suf[8], t[8];
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) one[j] = bcast(c->one[j]);
    /* inclusive scans; the shift amounts are literals (valignq takes an immediate) */
    LANES_UP(t, x, one, 1, n);
    mont_mul(pre, x, t, c, n);
    LANES_UP(t, pre, one, 2, n);
    mont_mul(pre, pre, t, c, n);
    LANES_UP(t, pre, one, 4, n);
    mont_mul(pre, pre, t, c, n);
    LANES_DOWN(t, x, one, 1, n);
    mont_mul(suf, x, t, c, n);
    LANES_DOWN(t, suf, one, 2, n);
    mont_mul(suf, suf, t, c, n);
    LANES_DOWN(t, suf, one, 4, n);
    mont_mul(suf, suf, t, c, n);
    LANES_UP(t, pre, one, 1, n);
    LANES_DOWN(suf, suf, one, 1, n);
    mont_mul(r, t, suf, c, n); /* e_j */

    /* W = lane 7 of pre, 64-bit words; U = W + p */
    uint64_t limb[8];
    mp_limb_t u[8] = {0}, v[8] = {0}, g[8], s[8];
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        _Alignas(64) uint64_t lanes[8];
        _mm512_store_si512((void *)lanes, pre[i]);
        limb[i] = lanes[7];
    }
    for (int i = 0; i < n; i++) {
        const int b = 52 * i, q = b >> 6, sh = b & 63;
        u[q] |= limb[i] << sh;
        if (sh > 12 && q + 1 < words) u[q + 1] |= limb[i] >> (64 - sh);
    }
    for (int i = 0; i < words; i++) v[i] = c->p64[i];
    mp_limb_t carry = mpn_add_n(u, u, v, words);
    (void)carry; /* W + p < 3p < 2^(64 words) */
    mp_size_t sn = 0;
    mpn_gcdext(g, s, &sn, u, words, v, words); /* g = 1: p is prime, W != 0 mod p */
    uint64_t w[8] = {0};
    if (sn < 0) { /* S < 0: W^-1 = p - |S| */
        for (int i = 0; i < -sn; i++) w[i] = s[i];
        mp_limb_t pw[8];
        for (int i = 0; i < words; i++) pw[i] = c->p64[i];
        mpn_sub(pw, pw, words, (mp_srcptr)w, -sn);
        for (int i = 0; i < words; i++) w[i] = pw[i];
    } else {
        for (int i = 0; i < sn; i++) w[i] = s[i];
    }
    __m512i winv[8], r3[8];
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        const int b = 52 * i, q = b >> 6, sh = b & 63;
        uint64_t l = w[q] >> sh;
        if (sh > 12 && q + 1 < 8) l |= w[q + 1] << (64 - sh);
        winv[i] = bcast(l & M52);
        r3[i] = bcast(c->r3[i]);
    }
    mont_mul(winv, winv, r3, c, n); /* tau^-1 R52 */
    mont_mul(r, r, winv, c, n);
}

/* ---- batch inversion: Montgomery's trick, two interleaved chains per lane ---------------- */

/* Values in memory here, N limbs of 8 words each, n * 8 words apart in arrays. */

/* x = a with the lanes holding 0 replaced by 1; returns the mask of those lanes. */
IFMA_INLINE __mmask8 load_nonzero(uint64_t *x, const uint64_t *a, const consts *c, const int n)
{
    __m512i v[8];
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) v[j] = _mm512_loadu_si512((const void *)(a + 8 * j));
    const __mmask8 z = zero_mask(v, c, n);
#pragma GCC unroll 8
    for (int j = 0; j < n; j++)
        _mm512_storeu_si512((void *)(x + 8 * j),
                            _mm512_mask_blend_epi64(z, v[j], bcast(c->one[j])));
    return z;
}

/* r = x with the lanes of mask z set to 0 */
IFMA_INLINE void store_masked(uint64_t *r, const uint64_t *x, __mmask8 z, const int n)
{
#pragma GCC unroll 8
    for (int j = 0; j < n; j++)
        _mm512_storeu_si512((void *)(r + 8 * j),
                            _mm512_maskz_loadu_epi64((__mmask8)~z, (const void *)(x + 8 * j)));
}

/* The 8-limb multiply stays out of line: two of them in flight need about 40 zmm registers,
 * and the spills of the inlined pair cost more than the call (memory operands stay in L1). */
__attribute__((noinline)) IFMA_TARGET static void mul_mem8(uint64_t *r, const uint64_t *a,
                                                           const uint64_t *b)
{
    __m512i x[8], y[8], z[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        x[j] = _mm512_loadu_si512((const void *)(a + 8 * j));
        y[j] = _mm512_loadu_si512((const void *)(b + 8 * j));
    }
    mont_mul(z, x, y, mulred_fp381x8_consts, 8);
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) _mm512_storeu_si512((void *)(r + 8 * j), z[j]);
}

IFMA_INLINE void mul_mem(uint64_t *r, const uint64_t *a, const uint64_t *b, const consts *c,
                         const int n)
{
    if (n == 8) {
        mul_mem8(r, a, b);
        return;
    }
    __m512i x[8], y[8], z[8];
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) {
        x[j] = _mm512_loadu_si512((const void *)(a + 8 * j));
        y[j] = _mm512_loadu_si512((const void *)(b + 8 * j));
    }
    mont_mul(z, x, y, c, n);
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) _mm512_storeu_si512((void *)(r + 8 * j), z[j]);
}

/* The even and the odd positions of each lane form two chains: pre[i] is the product of the
 * (non-zero) values at the positions of i's chain up to i. The two multiplies of a step are
 * independent, so they overlap instead of each waiting for the multiply before it (a single
 * chain is bound by the multiply's latency). That pays for BN254; BLS12-381's multiply is
 * throughput-bound already and gains nothing (docs/kernels.md has the figures). */
IFMA_INLINE void batch_begin(uint64_t *total, const uint64_t *a, size_t cnt, uint64_t *pre,
                             const consts *c, const int n)
{
    const size_t st = 8 * (size_t)n;
    _Alignas(64) uint64_t x[64];
    load_nonzero(pre, a, c, n);
    if (cnt == 1) {
        memcpy(total, pre, st * sizeof *total);
        return;
    }
    load_nonzero(pre + st, a + st, c, n);
    for (size_t i = 2; i < cnt; i++) {
        load_nonzero(x, a + i * st, c, n);
        mul_mem(pre + i * st, pre + (i - 2) * st, x, c, n);
    }
    mul_mem(total, pre + (cnt - 1) * st, pre + (cnt - 2) * st, c, n);
}

/* One backward step at position idx >= 2 of the chain whose running inverse is inv. */
IFMA_INLINE void batch_step(uint64_t *r, const uint64_t *a, const uint64_t *pre, size_t idx,
                            uint64_t *inv, const consts *c, const int n)
{
    const size_t st = 8 * (size_t)n;
    _Alignas(64) uint64_t x[64], t[64];
    const __mmask8 z = load_nonzero(x, a + idx * st, c, n);
    mul_mem(t, inv, pre + (idx - 2) * st, c, n); /* a[idx]^-1 */
    mul_mem(inv, inv, x, c, n);
    store_masked(r + idx * st, t, z, n);
}

IFMA_INLINE void batch_finish(uint64_t *r, const uint64_t *a, size_t cnt, const uint64_t *pre,
                              const uint64_t *inv_total, const consts *c, const int n)
{
    const size_t st = 8 * (size_t)n;
    _Alignas(64) uint64_t inv[2][64], x[64];
    if (cnt == 1) {
        store_masked(r, inv_total, load_nonzero(x, a, c, n), n);
        return;
    }
    /* the inverses of the two chain products: 1/P_k = P_(1-k) / (P_0 P_1) */
    const size_t top = cnt - 1, odd = top & 1 ? top : top - 1, even = top & 1 ? top - 1 : top;
    mul_mem(inv[0], inv_total, pre + odd * st, c, n);
    mul_mem(inv[1], inv_total, pre + even * st, c, n);
    size_t i = cnt;
    if (cnt & 1) { /* the top position is even: one step on its own */
        batch_step(r, a, pre, top, inv[0], c, n);
        i = top;
    }
    for (; i >= 4; i -= 2) { /* positions i - 1 (odd) and i - 2 (even) */
        batch_step(r, a, pre, i - 1, inv[1], c, n);
        batch_step(r, a, pre, i - 2, inv[0], c, n);
    }
    store_masked(r + st, inv[1], load_nonzero(x, a + st, c, n), n);
    store_masked(r, inv[0], load_nonzero(x, a, c, n), n);
}

/* ---- per-field functions --------------------------------------------------------------------- */

/* Fermat inversion a^(p-2): 4-bit fixed windows over the exponent's bits, most significant
 * window first (the exponent is public: branching on it leaks nothing about a). */
#define FIELDX8_INV(NAME, T, N, C)                                                                 \
    IFMA_TARGET void mulred_##NAME##_inv(T *r, const T *a)                                         \
    {                                                                                              \
        const consts *c = C;                                                                       \
        T table[16];                                                                               \
        mulred_##NAME##_set_one(&table[0]);                                                        \
        table[1] = *a;                                                                             \
        for (int k = 2; k < 16; k++) mulred_##NAME##_mul(&table[k], &table[k - 1], a);             \
        int top = 64 * c->words64 - 1;                                                             \
        while (!((c->pm2_64[top >> 6] >> (top & 63)) & 1)) top--;                                  \
        int nwin = top / 4 + 1;                                                                    \
        T x;                                                                                       \
        for (int win = nwin - 1; win >= 0; win--) {                                                \
            int pos = 4 * win;                                                                     \
            unsigned digit = (unsigned)(c->pm2_64[pos >> 6] >> (pos & 63)) & 15u;                  \
            if (win == nwin - 1) {                                                                 \
                x = table[digit];                                                                  \
                continue;                                                                          \
            }                                                                                      \
            for (int s = 0; s < 4; s++) mulred_##NAME##_sqr(&x, &x);                               \
            if (digit) mulred_##NAME##_mul(&x, &x, &table[digit]);                                 \
        }                                                                                          \
        *r = x;                                                                                    \
    }

#define FIELDX8_FUNCS(NAME, T, N, WORDS, C)                                                        \
    IFMA_TARGET void mulred_##NAME##_mul(T *r, const T *a, const T *b)                             \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        vload(x, a->l, N);                                                                         \
        vload(y, b->l, N);                                                                         \
        mont_mul(z, x, y, C, N);                                                                   \
        vstore(r->l, z, N);                                                                        \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_sqr(T *r, const T *a)                                         \
    {                                                                                              \
        __m512i x[N], z[N];                                                                        \
        vload(x, a->l, N);                                                                         \
        mont_sqr(z, x, C, N);                                                                      \
        vstore(r->l, z, N);                                                                        \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_add(T *r, const T *a, const T *b)                             \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        vload(x, a->l, N);                                                                         \
        vload(y, b->l, N);                                                                         \
        add_mod(z, x, y, C, N);                                                                    \
        vstore(r->l, z, N);                                                                        \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_sub(T *r, const T *a, const T *b)                             \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        vload(x, a->l, N);                                                                         \
        vload(y, b->l, N);                                                                         \
        sub_mod(z, x, y, C, N);                                                                    \
        vstore(r->l, z, N);                                                                        \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_neg(T *r, const T *a)                                         \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        for (int j = 0; j < N; j++) x[j] = _mm512_setzero_si512();                                 \
        vload(y, a->l, N);                                                                         \
        sub_mod(z, x, y, C, N);                                                                    \
        vstore(r->l, z, N);                                                                        \
    }                                                                                              \
    IFMA_TARGET unsigned mulred_##NAME##_is_zero_mask(const T *a)                                  \
    {                                                                                              \
        __m512i x[N];                                                                              \
        vload(x, a->l, N);                                                                         \
        return zero_mask(x, C, N);                                                                 \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_set_one(T *r)                                                 \
    {                                                                                              \
        for (int j = 0; j < N; j++) _mm512_storeu_si512((void *)r->l[j], bcast((C)->one[j]));      \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_select(T *r, const T *a, const T *b, unsigned mask)           \
    {                                                                                              \
        for (int j = 0; j < N; j++)                                                                \
            _mm512_storeu_si512(                                                                   \
                (void *)r->l[j],                                                                   \
                _mm512_mask_blend_epi64((__mmask8)mask, _mm512_loadu_si512((const void *)a->l[j]), \
                                        _mm512_loadu_si512((const void *)b->l[j])));               \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_load(T *r, const uint64_t *const src[8])                      \
    {                                                                                              \
        const consts *c = C;                                                                       \
        __m512i z[N];                                                                              \
        load_x8(z, src, c, N, WORDS, 52 * N - 64 * WORDS, c->top_shift, c->mu_shift);              \
        vstore(r->l, z, N);                                                                        \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_store(uint64_t *const dst[8], const T *a)                     \
    {                                                                                              \
        __m512i x[N];                                                                              \
        vload(x, a->l, N);                                                                         \
        store_x8(dst, x, C, N, WORDS, 52 * N - 64 * WORDS);                                        \
    }                                                                                              \
    FIELDX8_INV(NAME, T, N, C)                                                                     \
    IFMA_TARGET void mulred_##NAME##_batch_inv_begin(T *total, const T *a, size_t n,               \
                                                     void *scratch)                                \
    {                                                                                              \
        if (n == 0) {                                                                              \
            mulred_##NAME##_set_one(total);                                                        \
            return;                                                                                \
        }                                                                                          \
        batch_begin(&total->l[0][0], &a[0].l[0][0], n, &((T *)scratch)[0].l[0][0], C, N);          \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_batch_inv_finish(T *r, const T *a, size_t n,                  \
                                                      const void *scratch, const T *inv_total)     \
    {                                                                                              \
        if (n == 0) return;                                                                        \
        batch_finish(&r[0].l[0][0], &a[0].l[0][0], n, &((const T *)scratch)[0].l[0][0],            \
                     &inv_total->l[0][0], C, N);                                                   \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_inv_var(T *r, const T *a)                                     \
    {                                                                                              \
        const consts *c = C;                                                                       \
        __m512i x[N], one[N], z[N];                                                                \
        vload(x, a->l, N);                                                                         \
        const __mmask8 zm = zero_mask(x, c, N);                                                    \
        for (int j = 0; j < N; j++) one[j] = bcast(c->one[j]);                                     \
        for (int j = 0; j < N; j++) x[j] = _mm512_mask_blend_epi64(zm, x[j], one[j]);              \
        inv_lanes_var(z, x, c, N, WORDS);                                                          \
        for (int j = 0; j < N; j++) z[j] = _mm512_maskz_mov_epi64((__mmask8)~zm, z[j]);            \
        vstore(r->l, z, N);                                                                        \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_batch_inv_var(T *r, const T *a, size_t n, void *scratch)      \
    {                                                                                              \
        T total;                                                                                   \
        if (n == 0) return;                                                                        \
        mulred_##NAME##_batch_inv_begin(&total, a, n, scratch);                                    \
        mulred_##NAME##_inv_var(&total, &total);                                                   \
        mulred_##NAME##_batch_inv_finish(r, a, n, scratch, &total);                                \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_batch_inv(T *r, const T *a, size_t n, void *scratch)          \
    {                                                                                              \
        T total;                                                                                   \
        if (n == 0) return;                                                                        \
        mulred_##NAME##_batch_inv_begin(&total, a, n, scratch);                                    \
        mulred_##NAME##_inv(&total, &total);                                                       \
        mulred_##NAME##_batch_inv_finish(r, a, n, scratch, &total);                                \
    }

FIELDX8_FUNCS(fp381x8, mulred_fp381x8, 8, 6, mulred_fp381x8_consts)
FIELDX8_FUNCS(fp254x8, mulred_fp254x8, 5, 4, mulred_fp254x8_consts)

/* ---- Fp2 = Fp[u]/(u^2 + 1), 8 lanes ------------------------------------------------------------
 *
 * Karatsuba with the reductions deferred: the three schoolbook products t0 = a0 b0, t1 = a1 b1,
 * t2 = (a0 + a1)(b0 + b1) (the sums left unreduced: normalised, below 4p), then, limb-wise,
 *   c1 = t2 - t0 - t1 = a0 b1 + a1 b0 in [0, 8p^2)
 *   c0 = t0 - t1 + K   in (0, 4p^2 + K),  K = p 2^k a multiple of p with 2^k >= 4p,
 * and one Montgomery reduction each: 6N^2 + 2(2N^2 + N) IFMAs against 3(4N^2 + N) for three
 * full multiplies. The combined limbs are signed (each |limb| < 2^58), so these reductions
 * carry with arithmetic shifts; the values are non-negative, so the results come out
 * normalised, and below c / R52 + p < 2p as 8p < R52 and 4p + 2^k < R52 (k = 384 with
 * R52 = 2^416 for BLS12-381, k = 256 with R52 = 2^260 for BN254).
 * Squaring: (a0 + a1)(a0 - a1 + 2p) and (a0 + a0) a1, multiplies of unreduced inputs below
 * 4p: the products are below 16p^2 and 16p < R52, so the results stay below 2p. */

/* r = a + b, normalised, not reduced (below 4p < 2^(52N)). */
IFMA_INLINE void add_lazy(__m512i *r, const __m512i *a, const __m512i *b, const int n)
{
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) r[j] = _mm512_add_epi64(a[j], b[j]);
    carry_unsigned(r, n);
}

/* t[0..2n) = a b, unnormalised limbs. */
IFMA_INLINE void school(__m512i *t, const __m512i *a, const __m512i *b, const int n)
{
#pragma GCC unroll 16
    for (int k = 0; k < 2 * n; k++) t[k] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) {
            t[i + j] = madd_lo(t[i + j], a[i], b[j]);
            t[i + j + 1] = madd_hi(t[i + j + 1], a[i], b[j]);
        }
}

/* mont_redc for signed limbs (|limb| < 2^62) of a non-negative value below p R52. */
IFMA_INLINE void mont_redc_signed(__m512i *r, __m512i *t, const consts *c, const int n)
{
    const __m512i zero = _mm512_setzero_si512(), n0 = bcast(c->n0);
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        const __m512i m = madd_lo(zero, t[i], n0); /* the low 52 bits: t_i mod 2^52 */
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) t[i + j] = madd_lo(t[i + j], m, bcast(c->p[j]));
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) t[i + j + 1] = madd_hi(t[i + j + 1], m, bcast(c->p[j]));
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srai_epi64(t[i], 52));
    }
    carry_signed(t + n, n);
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) r[j] = t[n + j];
}

/* (r[0..n), r[n..2n)) = (a0 + a1 u)(b0 + b1 u); ks: K = p 2^(52(n-1) + ks). */
IFMA_INLINE void fp2_mul(__m512i *r, const __m512i *a0, const __m512i *a1, const __m512i *b0,
                         const __m512i *b1, const consts *c, const int n, const int ks)
{
    __m512i t0[16], t1[16], t2[16], sa[8], sb[8];
    school(t0, a0, b0, n);
    school(t1, a1, b1, n);
    add_lazy(sa, a0, a1, n);
    add_lazy(sb, b0, b1, n);
    school(t2, sa, sb, n);
#pragma GCC unroll 16
    for (int k = 0; k < 2 * n; k++) {
        t2[k] = _mm512_sub_epi64(_mm512_sub_epi64(t2[k], t0[k]), t1[k]);
        t0[k] = _mm512_sub_epi64(t0[k], t1[k]);
    }
#pragma GCC unroll 8
    for (int i = 0; i <= n; i++) {
        uint64_t k = 0;
        if (i < n) k = (c->p[i] << ks) & M52;
        if (i > 0) k |= c->p[i - 1] >> (52 - ks);
        if (n - 1 + i < 2 * n) t0[n - 1 + i] = _mm512_add_epi64(t0[n - 1 + i], bcast(k));
    }
    mont_redc_signed(r, t0, c, n);
    mont_redc_signed(r + n, t2, c, n);
}

IFMA_INLINE void fp2_sqr(__m512i *r0, __m512i *r1, const __m512i *a0, const __m512i *a1,
                         const consts *c, const int n)
{
    __m512i s[8], d[8];
    add_lazy(s, a0, a1, n);
#pragma GCC unroll 8
    for (int j = 0; j < n; j++)
        d[j] = _mm512_add_epi64(_mm512_sub_epi64(a0[j], a1[j]), bcast(c->p2[j]));
    carry_signed(d, n); /* a0 - a1 + 2p in (0, 4p) */
    mont_mul(r0, s, d, c, n);
    add_lazy(s, a0, a0, n);
    mont_mul(r1, s, a1, c, n);
}

#define FP2X8_FUNCS(NAME, T, BT, N, WORDS, C, KS)                                                  \
    IFMA_TARGET void mulred_##NAME##_mul(T *r, const T *a, const T *b)                             \
    {                                                                                              \
        __m512i x0[N], x1[N], y0[N], y1[N], z[2 * N];                                              \
        vload(x0, a->c0.l, N);                                                                     \
        vload(x1, a->c1.l, N);                                                                     \
        vload(y0, b->c0.l, N);                                                                     \
        vload(y1, b->c1.l, N);                                                                     \
        fp2_mul(z, x0, x1, y0, y1, C, N, KS);                                                      \
        vstore(r->c0.l, z, N);                                                                     \
        vstore(r->c1.l, z + N, N);                                                                 \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_sqr(T *r, const T *a)                                         \
    {                                                                                              \
        __m512i x0[N], x1[N], z0[N], z1[N];                                                        \
        vload(x0, a->c0.l, N);                                                                     \
        vload(x1, a->c1.l, N);                                                                     \
        fp2_sqr(z0, z1, x0, x1, C, N);                                                             \
        vstore(r->c0.l, z0, N);                                                                    \
        vstore(r->c1.l, z1, N);                                                                    \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_mul_base(T *r, const T *a, const BT *b)                       \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        vload(y, b->l, N);                                                                         \
        vload(x, a->c0.l, N);                                                                      \
        mont_mul(z, x, y, C, N);                                                                   \
        vstore(r->c0.l, z, N);                                                                     \
        vload(x, a->c1.l, N);                                                                      \
        mont_mul(z, x, y, C, N);                                                                   \
        vstore(r->c1.l, z, N);                                                                     \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_add(T *r, const T *a, const T *b)                             \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        vload(x, a->c0.l, N);                                                                      \
        vload(y, b->c0.l, N);                                                                      \
        add_mod(z, x, y, C, N);                                                                    \
        vstore(r->c0.l, z, N);                                                                     \
        vload(x, a->c1.l, N);                                                                      \
        vload(y, b->c1.l, N);                                                                      \
        add_mod(z, x, y, C, N);                                                                    \
        vstore(r->c1.l, z, N);                                                                     \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_sub(T *r, const T *a, const T *b)                             \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        vload(x, a->c0.l, N);                                                                      \
        vload(y, b->c0.l, N);                                                                      \
        sub_mod(z, x, y, C, N);                                                                    \
        vstore(r->c0.l, z, N);                                                                     \
        vload(x, a->c1.l, N);                                                                      \
        vload(y, b->c1.l, N);                                                                      \
        sub_mod(z, x, y, C, N);                                                                    \
        vstore(r->c1.l, z, N);                                                                     \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_neg(T *r, const T *a)                                         \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        for (int j = 0; j < N; j++) x[j] = _mm512_setzero_si512();                                 \
        vload(y, a->c0.l, N);                                                                      \
        sub_mod(z, x, y, C, N);                                                                    \
        vstore(r->c0.l, z, N);                                                                     \
        vload(y, a->c1.l, N);                                                                      \
        sub_mod(z, x, y, C, N);                                                                    \
        vstore(r->c1.l, z, N);                                                                     \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_conj(T *r, const T *a)                                        \
    {                                                                                              \
        __m512i x[N], y[N], z[N];                                                                  \
        for (int j = 0; j < N; j++) x[j] = _mm512_setzero_si512();                                 \
        vload(y, a->c1.l, N);                                                                      \
        sub_mod(z, x, y, C, N);                                                                    \
        if (r != a) r->c0 = a->c0;                                                                 \
        vstore(r->c1.l, z, N);                                                                     \
    }                                                                                              \
    IFMA_TARGET unsigned mulred_##NAME##_is_zero_mask(const T *a)                                  \
    {                                                                                              \
        __m512i x[N], y[N];                                                                        \
        vload(x, a->c0.l, N);                                                                      \
        vload(y, a->c1.l, N);                                                                      \
        return zero_mask(x, C, N) & zero_mask(y, C, N);                                            \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_set_one(T *r)                                                 \
    {                                                                                              \
        for (int j = 0; j < N; j++) {                                                              \
            _mm512_storeu_si512((void *)r->c0.l[j], bcast((C)->one[j]));                           \
            _mm512_storeu_si512((void *)r->c1.l[j], _mm512_setzero_si512());                       \
        }                                                                                          \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_select(T *r, const T *a, const T *b, unsigned mask)           \
    {                                                                                              \
        for (int j = 0; j < N; j++) {                                                              \
            _mm512_storeu_si512((void *)r->c0.l[j],                                                \
                                _mm512_mask_blend_epi64(                                           \
                                    (__mmask8)mask, _mm512_loadu_si512((const void *)a->c0.l[j]),  \
                                    _mm512_loadu_si512((const void *)b->c0.l[j])));                \
            _mm512_storeu_si512((void *)r->c1.l[j],                                                \
                                _mm512_mask_blend_epi64(                                           \
                                    (__mmask8)mask, _mm512_loadu_si512((const void *)a->c1.l[j]),  \
                                    _mm512_loadu_si512((const void *)b->c1.l[j])));                \
        }                                                                                          \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_load(T *r, const uint64_t *const src[8])                      \
    {                                                                                              \
        const consts *c = C;                                                                       \
        const uint64_t *s1[8];                                                                     \
        __m512i z[N];                                                                              \
        for (int j = 0; j < 8; j++) s1[j] = src[j] + WORDS;                                        \
        load_x8(z, src, c, N, WORDS, 52 * N - 64 * WORDS, c->top_shift, c->mu_shift);              \
        vstore(r->c0.l, z, N);                                                                     \
        load_x8(z, s1, c, N, WORDS, 52 * N - 64 * WORDS, c->top_shift, c->mu_shift);               \
        vstore(r->c1.l, z, N);                                                                     \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_store(uint64_t *const dst[8], const T *a)                     \
    {                                                                                              \
        uint64_t *d1[8];                                                                           \
        __m512i x[N];                                                                              \
        for (int j = 0; j < 8; j++) d1[j] = dst[j] + WORDS;                                        \
        vload(x, a->c0.l, N);                                                                      \
        store_x8(dst, x, C, N, WORDS, 52 * N - 64 * WORDS);                                        \
        vload(x, a->c1.l, N);                                                                      \
        store_x8(d1, x, C, N, WORDS, 52 * N - 64 * WORDS);                                         \
    }                                                                                              \
    IFMA_TARGET void mulred_##NAME##_inv_var(T *r, const T *a)                                     \
    {                                                                                              \
        const consts *c = C;                                                                       \
        __m512i x0[N], x1[N], s[N], t[N], nn[N], z[N];                                             \
        vload(x0, a->c0.l, N);                                                                     \
        vload(x1, a->c1.l, N);                                                                     \
        mont_sqr(s, x0, c, N);                                                                     \
        mont_sqr(t, x1, c, N);                                                                     \
        add_mod(nn, s, t, c, N); /* the norm: 0 only for a = 0 (-1 is not a square) */             \
        const __mmask8 zm = zero_mask(nn, c, N);                                                   \
        for (int j = 0; j < N; j++) nn[j] = _mm512_mask_blend_epi64(zm, nn[j], bcast(c->one[j]));  \
        inv_lanes_var(z, nn, c, N, WORDS);                                                         \
        mont_mul(s, x0, z, c, N);                                                                  \
        mont_mul(t, x1, z, c, N);                                                                  \
        for (int j = 0; j < N; j++) z[j] = _mm512_setzero_si512();                                 \
        sub_mod(x1, z, t, c, N);                                                                   \
        for (int j = 0; j < N; j++) {                                                              \
            s[j] = _mm512_maskz_mov_epi64((__mmask8)~zm, s[j]);                                    \
            x1[j] = _mm512_maskz_mov_epi64((__mmask8)~zm, x1[j]);                                  \
        }                                                                                          \
        vstore(r->c0.l, s, N);                                                                     \
        vstore(r->c1.l, x1, N);                                                                    \
    }

FP2X8_FUNCS(fp2_381x8, mulred_fp2_381x8, mulred_fp381x8, 8, 6, mulred_fp381x8_consts, 20)
FP2X8_FUNCS(fp2_254x8, mulred_fp2_254x8, mulred_fp254x8, 5, 4, mulred_fp254x8_consts, 48)

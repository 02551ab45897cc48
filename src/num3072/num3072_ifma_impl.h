/* Internal to src/num3072/: the building blocks of the AVX-512 IFMA kernels (num3072_ifma.c,
 * num3072_ifma256.c), as static inline bodies so that each kernel is one straight-line
 * function. Include only from files compiled for x86-64; every function here needs
 * AVX512F + AVX512VL + AVX512IFMA at run time (the callers check).
 *
 * Representation: radix 2^52, 60 limbs (60 * 52 = 3120 >= 3072), stored in 64 uint64_t
 * (8 zmm vectors, limbs 60..63 zero). A value is normalised when every limb is < 2^52; IFMA
 * reads only the low 52 bits of its inputs, so every factor must be normalised.
 *
 * Schoolbook product (product120): output vector k (limbs 8k..8k+7) receives, for every limb
 * b[i] broadcast, lo52(b[i] * a[8k+l-i]) and hi52(b[i] * a[8k+l-i-1]) (the high half belongs
 * one limb up). The windows a[8k-i .. 8k-i+7] are unaligned loads from a zero-padded copy of a.
 * The whole 60 x 15 loop is unrolled at compile time so the window bounds are constants.
 * Each accumulator lane receives at most 120 terms < 2^52, so it stays < 2^59.
 *
 * Karatsuba (one level over 30-limb halves, kara_*): a*b = z0 + (z0 + z2 - s*zm) X + z2 X^2,
 * X = 2^1560, z0 = a0 b0, z2 = a1 b1, zm = |a0 - a1| |b0 - b1|, s the sign of
 * (a0 - a1)(b0 - b1): three 30x30 products (2700 limb products instead of 3600, 18% fewer IFMAs
 * with the window edges). The middle term can be negative lane by lane; a constant B = 0 (mod
 * p) with lanes near 2^60 is added to it so every lane stays non-negative (see kara_combine),
 * which keeps the reduction unsigned. Lanes then stay < 2^62.
 *
 * Reduction (fused, in radix 2^52): 2^3120 = 2^48 * 2^3072 == 2^48 * C (mod p), and
 * C * 2^48 = K1 * 2^52 + K0 with K0 = (C mod 16) << 48 and K1 = C >> 4, both < 2^52, so the
 * high half H (limbs 60..119) folds into the low half with IFMAs (IFMA reads only 52 bits of
 * each lane, so H is split into its lanes mod 2^52 and its lane carries, and both are folded:
 * no carry propagation before the fold). That leaves limbs 60..61; a second, one-vector fold
 * removes them. Normalisation (carry propagation) is done with lane-parallel carry rounds
 * repeated until no lane exceeds 2^52 - 1: usually one round; more only for rare carry chains.
 *
 * Conversions 64 <-> 52 bits are vectorised (vpermq / vpermt2q + variable shifts); to64 also
 * folds the bits above 3072 (limb 59 >> 4) times C back in (scalar, 128-bit).
 *
 * VARIABLE-TIME: the number of carry rounds and of second folds, and the Karatsuba sign
 * handling, depend on the data. Fine for MuHash (public data); do not use on secrets.
 */
#ifndef MULRED_NUM3072_IFMA_IMPL_H
#define MULRED_NUM3072_IFMA_IMPL_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "mulred/num3072.h"

#define IFMA_TARGET __attribute__((target("avx512f,avx512ifma,avx512vl")))
#define IFMA_INLINE                                                                                \
    static inline __attribute__((always_inline, target("avx512f,avx512ifma,avx512vl")))

#define M52     ((UINT64_C(1) << 52) - 1)
#define C_P     ((uint64_t)MULRED_NUM3072_C)
#define FOLD_K0 ((C_P & 15u) << 48) /* C*2^48 = K1*2^52 + K0 */
#define FOLD_K1 (C_P >> 4)

/* ---- conversions --------------------------------------------------------------------- */

/* from64: limb t (t = 8v+l) = bits 52t .. 52t+51 = (w[q] >> s) | (w[q+1] << (64-s)), q = 52t/64,
 * s = 52t mod 64. The window of 8 words starting at base(v) = 416v/64 covers q and q+1.
 * (A variable shift by 64 gives 0, which is what s = 0 needs.) */
#define F_BASE(v)   ((416 * (v)) >> 6)
#define F_IDX(v, l) (((52 * (8 * (v) + (l))) >> 6) - F_BASE(v))
#define F_SH(v, l)  ((52 * (8 * (v) + (l))) & 63)
#define ROW8(F, u)                                                                                 \
    {                                                                                              \
        F(u, 0), F(u, 1), F(u, 2), F(u, 3), F(u, 4), F(u, 5), F(u, 6), F(u, 7)                     \
    }
static const uint64_t from64_idx[2][8]
    __attribute__((aligned(64))) = {ROW8(F_IDX, 0), ROW8(F_IDX, 1)};
static const uint64_t from64_sh[2][8] __attribute__((aligned(64))) = {ROW8(F_SH, 0), ROW8(F_SH, 1)};

/* to64: word i (i = 8u+l) = bits 64i .. 64i+63 = (x[t] >> s) | (x[t+1] << (52-s)) |
 * (x[t+2] << (104-s)), t = 64i/52, s = 64i mod 52 (limbs normalised, so the parts are
 * disjoint; shifts >= 64 give 0). The 16-limb window at tb(u) = 512u/52 covers t..t+2. */
#define T_BASE(u)   ((512 * (u)) / 52)
#define T_IDX(u, l) ((512 * (u) + 64 * (l)) / 52 - T_BASE(u))
#define T_SH(u, l)  ((512 * (u) + 64 * (l)) % 52)
static const uint64_t to64_idx[6][8] __attribute__((aligned(64))) = {
    ROW8(T_IDX, 0), ROW8(T_IDX, 1), ROW8(T_IDX, 2), ROW8(T_IDX, 3), ROW8(T_IDX, 4), ROW8(T_IDX, 5)};
static const uint64_t to64_sh[6][8] __attribute__((aligned(64))) = {
    ROW8(T_SH, 0), ROW8(T_SH, 1), ROW8(T_SH, 2), ROW8(T_SH, 3), ROW8(T_SH, 4), ROW8(T_SH, 5)};

IFMA_INLINE void from64_vec(__m512i x[8], const uint64_t a[48])
{
    const __m512i m = _mm512_set1_epi64((long long)M52);
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i s64 = _mm512_set1_epi64(64);
#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) {
        __m512i w = v < 7 ? _mm512_loadu_si512((const void *)(a + F_BASE(v)))
                          : _mm512_maskz_loadu_epi64(0x07, a + F_BASE(7)); /* a[45..47] */
        __m512i idx = _mm512_load_si512((const void *)from64_idx[v & 1]);
        __m512i sh = _mm512_load_si512((const void *)from64_sh[v & 1]);
        __m512i lo = _mm512_permutexvar_epi64(idx, w);
        __m512i hi = _mm512_permutexvar_epi64(_mm512_add_epi64(idx, one), w);
        lo = _mm512_srlv_epi64(lo, sh);
        hi = _mm512_sllv_epi64(hi, _mm512_sub_epi64(s64, sh));
        x[v] = _mm512_and_si512(_mm512_or_si512(lo, hi), m);
    }
    /* limb 59 = a[47] >> 60 (4 bits); limbs 60..63 come out 0 because the window is masked */
}

/* Add the top bits (>= 2^3072) of the domain value, times C, back at the bottom. */
static void fold_top64(uint64_t w[48], uint64_t top)
{
    unsigned __int128 t = (unsigned __int128)top * C_P + w[0];
    w[0] = (uint64_t)t;
    uint64_t carry = (uint64_t)(t >> 64);
    for (;;) {
        int i = 1;
        for (; carry && i < 48; i++) {
            t = (unsigned __int128)w[i] + carry;
            w[i] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        if (!carry) break;
        /* carried out of 2^3072: 2^3072 == C; the wrapped value is < 2^70, no second wrap */
        t = (unsigned __int128)w[0] + C_P;
        w[0] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
}

/* One output vector of to64: l0, l1 = limbs tb(u) .. tb(u)+15 */
IFMA_INLINE __m512i to64_word8(__m512i l0, __m512i l1, int u)
{
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i two = _mm512_set1_epi64(2);
    const __m512i s52 = _mm512_set1_epi64(52);
    const __m512i s104 = _mm512_set1_epi64(104);
    __m512i idx = _mm512_load_si512((const void *)to64_idx[u]);
    __m512i sh = _mm512_load_si512((const void *)to64_sh[u]);
    __m512i p0 = _mm512_permutex2var_epi64(l0, idx, l1);
    __m512i p1 = _mm512_permutex2var_epi64(l0, _mm512_add_epi64(idx, one), l1);
    __m512i p2 = _mm512_permutex2var_epi64(l0, _mm512_add_epi64(idx, two), l1);
    __m512i w = _mm512_srlv_epi64(p0, sh);
    w = _mm512_or_si512(w, _mm512_sllv_epi64(p1, _mm512_sub_epi64(s52, sh)));
    return _mm512_or_si512(w, _mm512_sllv_epi64(p2, _mm512_sub_epi64(s104, sh)));
}

/* x: normalised domain value. The 16-limb windows at tb(u) = 8q + s are built in registers
 * with valignq (s must be a literal): tb = 0, 9, 19, 29, 39, 49. */
IFMA_INLINE void to64_vec(uint64_t r[48], const __m512i x[8])
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i xx[10] = {x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], zero, zero};
#define TO64_U(u, q, s)                                                                            \
    _mm512_storeu_si512((void *)(r + 8 * (u)),                                                     \
                        to64_word8(_mm512_alignr_epi64(xx[(q) + 1], xx[q], s),                     \
                                   _mm512_alignr_epi64(xx[(q) + 2], xx[(q) + 1], s), u))
    TO64_U(0, 0, 0);
    TO64_U(1, 1, 1);
    TO64_U(2, 2, 3);
    TO64_U(3, 3, 5);
    TO64_U(4, 4, 7);
    TO64_U(5, 6, 1);
#undef TO64_U
    /* bits >= 3072: limb 59 >> 4 (limb 59 is lane 3 of x[7]) */
    const uint64_t top = (uint64_t)_mm_extract_epi64(_mm512_extracti32x4_epi32(x[7], 1), 1) >> 4;
    fold_top64(r, top);
}

/* ---- normalisation and reduction ----------------------------------------------------- */

/* One lane-parallel carry round over n vectors: x = (x mod 2^52) + (carry of the limb below).
 * The carry out of the top lane of x[n-1] is returned (callers ensure it is zero). */
IFMA_INLINE void carry_round(__m512i *x, int n)
{
    const __m512i m = _mm512_set1_epi64((long long)M52);
    __m512i cprev = _mm512_setzero_si512();
#pragma GCC unroll 16
    for (int k = 0; k < n; k++) {
        __m512i c = _mm512_srli_epi64(x[k], 52);
        x[k] = _mm512_add_epi64(_mm512_and_si512(x[k], m), _mm512_alignr_epi64(c, cprev, 7));
        cprev = c;
    }
}

IFMA_INLINE int any_over52(const __m512i *x, int n)
{
    /* OR tree (n <= 8), then one test against the bits above 52 */
    __m512i o[8];
#pragma GCC unroll 16
    for (int k = 0; k < n; k++) o[k] = x[k];
#pragma GCC unroll 16
    for (int step = 1; step < n; step *= 2)
#pragma GCC unroll 16
        for (int k = 0; k + step < n; k += 2 * step) o[k] = _mm512_or_si512(o[k], o[k + step]);
    return _mm512_test_epi64_mask(o[0], _mm512_set1_epi64((long long)~M52)) != 0;
}

/* Carry rounds until every limb is < 2^52 (variable-time; normally 2 rounds). */
IFMA_INLINE void normalise8(__m512i x[8])
{
    do {
        carry_round(x, 8);
    } while (any_over52(x, 8));
}

/* z[0..14]: unnormalised 120-limb product (lanes < 2^59, value < 2^6240).
 * Result: normalised 60-limb domain value congruent mod p.
 * The high half H (limbs 60..119) is folded without normalising it first: IFMA reads only the
 * low 52 bits of each lane, so H = Hlo + Hc where Hlo = lanes mod 2^52 and Hc = the lane
 * carries (< 2^7) moved one limb up; both are folded (7 IFMAs per vector instead of a carry
 * round, a check and a loop). */
IFMA_INLINE void reduce120(__m512i x[8], __m512i z[15])
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i k0 = _mm512_set1_epi64((long long)FOLD_K0);
    const __m512i k1 = _mm512_set1_epi64((long long)FOLD_K1);
    __m512i h[8], hc[8], c[8], u[8], w[8];

#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) {
        h[v] = _mm512_alignr_epi64(v < 7 ? z[8 + v] : zero, z[7 + v], 4); /* limbs 60+8v.. */
        c[v] = _mm512_srli_epi64(h[v], 52);
    }
#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) hc[v] = _mm512_alignr_epi64(c[v], v ? c[v - 1] : zero, 7);
#pragma GCC unroll 16
    for (int v = 0; v < 7; v++) x[v] = z[v];
    x[7] = _mm512_maskz_mov_epi64(0x0f, z[7]);

    /* x += (Hlo + Hc) * (K1*2^52 + K0), limb m of H landing at limbs m, m+1, m+2 */
#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) {
        x[v] = _mm512_madd52lo_epu64(x[v], h[v], k0);
        x[v] = _mm512_madd52lo_epu64(x[v], hc[v], k0);
        u[v] = _mm512_madd52hi_epu64(zero, h[v], k0);
        u[v] = _mm512_madd52lo_epu64(u[v], h[v], k1);
        u[v] = _mm512_madd52hi_epu64(u[v], hc[v], k0);
        u[v] = _mm512_madd52lo_epu64(u[v], hc[v], k1);
        w[v] = _mm512_madd52hi_epu64(zero, h[v], k1); /* hc*K1 < 2^7 * 2^17: no high half */
    }
#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) {
        __m512i us = _mm512_alignr_epi64(u[v], v ? u[v - 1] : zero, 7); /* one limb up */
        __m512i ws = _mm512_alignr_epi64(w[v], v ? w[v - 1] : zero, 6); /* two limbs up */
        x[v] = _mm512_add_epi64(x[v], _mm512_add_epi64(us, ws));
    }
    /* lanes < 2^60, value < 2^3190: after normalising, limbs 60, 61 may be non-zero */
    normalise8(x);
    while (_mm512_mask_test_epi64_mask(0xf0, x[7], x[7])) {
        __m512i h2 = _mm512_alignr_epi64(zero, x[7], 4); /* limbs 60..63 -> lanes 0..3 */
        x[7] = _mm512_maskz_mov_epi64(0x0f, x[7]);
        __m512i x0 = _mm512_madd52lo_epu64(x[0], h2, k0);
        __m512i u2 = _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(zero, h2, k0), h2, k1);
        __m512i w2 = _mm512_madd52hi_epu64(zero, h2, k1);
        x0 = _mm512_add_epi64(x0, _mm512_alignr_epi64(u2, zero, 7));
        x[0] = _mm512_add_epi64(x0, _mm512_alignr_epi64(w2, zero, 6));
        /* only x[0] changed and x[1..7] are normalised: one round on x[0..1] (x[1] has no
         * carry of its own to lose), then the general loop if anything is still over */
        carry_round(x, 2);
        if (any_over52(x, 2)) normalise8(x);
    }
}

/* ---- the product --------------------------------------------------------------------- */

/* Unaligned 512-bit load written as asm so that GCC keeps the ~500 window loads where they are
 * instead of hoisting them all into registers and spilling. */
#define LOADU_ASM(dst, mem)                                                                        \
    __asm__ volatile("vmovdqu64 %1, %0" : "=v"(dst) : "m"(*(const __m512i_u *)(mem)))
/* Broadcast of a limb from memory, as asm for the same reason: left to itself GCC takes limbs
 * it has just stored out of vector registers (extract, store, reload, broadcast). */
#define BCAST_ASM(dst, mem) __asm__ volatile("vpbroadcastq %1, %0" : "=v"(dst) : "m"(*(mem)))

/* z[0..nz) = a*b, unnormalised, for n-limb factors (n = 60: nz = 15; n = 30: nz = 8).
 * pa: the window operand a, zero-padded: pa[0..7] = 0, pa[8..8+n) = a, zeros up to pa[8+n+7].
 * b: the n limbs of the broadcast operand.
 * Output vector k, lane l gets lo52(b[i]*a[8k+l-i]) and hi52(b[i-1]*a[8k+l-i]): both use the
 * window a[8k-i .. 8k-i+7] = pa[8+o ..], o = 8k - i. A window depends only on o, and o is the
 * same for (i, k), (i+8, k+1), (i+16, k+2)...: the loop runs over the residue r = i mod 8,
 * loads the (at most 9) windows o = 8m - r once into registers, then walks i = r, r+8, ...,
 * each i broadcasting b[i] and b[i-1] and feeding every window it meets (k = (o + i)/8).
 * Against a loop that loads the window of every (i, k) pair (520 unaligned loads, most of them
 * split across two cache lines, for 1020 IFMAs), 67 window loads and 122 broadcasts, which
 * brings the product and a chain of multiplies to the IFMA throughput (docs/kernels.md has
 * the figures).
 * Low and high halves go to the same accumulator; successive updates of an accumulator are
 * about 18 IFMAs apart (one per window of the class), more than the IFMA latency covers. The
 * whole loop is unrolled at compile time, so every index and bound is a constant. Lanes stay
 * < 2 n 2^52 (n = 60: < 2^59). */
IFMA_INLINE void product_windows(__m512i *z, const int nz, const uint64_t *pa, const uint64_t *b,
                                 const int n)
{
#pragma GCC unroll 16
    for (int k = 0; k < nz; k++) z[k] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int r = 0; r < 8; r++) {
        __m512i w[9];
#pragma GCC unroll 9
        for (int m = 0; m < 9; m++) {
            const int o = 8 * m - r; /* lane l of the window: a[o + l] */
            if (o + 7 >= 0 && o <= n - 1) LOADU_ASM(w[m], pa + 8 + o);
        }
#pragma GCC unroll 8
        for (int i = r; i <= n; i += 8) {
            __m512i bl = _mm512_setzero_si512(), bh = _mm512_setzero_si512();
            if (i < n) BCAST_ASM(bl, b + i);
            if (i > 0) BCAST_ASM(bh, b + i - 1);
#pragma GCC unroll 9
            for (int m = 0; m < 9; m++) {
                const int o = 8 * m - r, k = (o + i) / 8; /* 8k - i = o */
                if (o + 7 < 0 || o > n - 1 || k >= nz) continue;
                if (i < n) z[k] = _mm512_madd52lo_epu64(z[k], bl, w[m]);
                if (i > 0) z[k] = _mm512_madd52hi_epu64(z[k], bh, w[m]);
            }
        }
    }
}

/* z[0..14] = a*b (unnormalised, 120 limbs), a and b normalised 60-limb values; pa as
 * pad_copy leaves it. */
IFMA_INLINE void product120(__m512i z[15], const uint64_t pa[80], const uint64_t *b)
{
    product_windows(z, 15, pa, b, 60);
}

/* pa = 8 zero limbs, the 60 limbs of x (and its 4 zero lanes), 8 zero limbs: the window
 * operand of product120. */
IFMA_INLINE void pad_copy(uint64_t pa[80], const __m512i x[8])
{
    const __m512i zero = _mm512_setzero_si512();
    _mm512_store_si512((void *)pa, zero);
#pragma GCC unroll 16
    for (int v = 0; v < 8; v++) _mm512_store_si512((void *)(pa + 8 + 8 * v), x[v]);
    _mm512_store_si512((void *)(pa + 72), zero);
}

/* ---- Karatsuba over 30-limb halves ----------------------------------------------------- */

/* A half (30 limbs) stored for window loads: 8 zero limbs, the 30 limbs, zeros up to 48. */
typedef struct {
    uint64_t limb[48];
} __attribute__((aligned(64))) ifma_half;

/* One factor prepared as the window operand of a Karatsuba product: its halves a0, a1 and
 * |a0 - a1|, and whether a1 > a0. */
typedef struct {
    ifma_half h0, h1, hd;
    int neg;
} ifma_kara_operand;

IFMA_INLINE void half_store(ifma_half *p, const __m512i d[4])
{
    const __m512i zero = _mm512_setzero_si512();
    _mm512_store_si512((void *)p->limb, zero);
#pragma GCC unroll 4
    for (int v = 0; v < 4; v++) _mm512_store_si512((void *)(p->limb + 8 + 8 * v), d[v]);
    _mm512_store_si512((void *)(p->limb + 40), zero);
}

/* The halves of a normalised x: lo = limbs 0..29, hi = limbs 30..59 (lanes 30, 31 zero). */
IFMA_INLINE void kara_halves(__m512i lo[4], __m512i hi[4], const __m512i x[8])
{
#pragma GCC unroll 4
    for (int v = 0; v < 4; v++) {
        lo[v] = v < 3 ? x[v] : _mm512_maskz_mov_epi64(0x3f, x[3]);
        hi[v] = _mm512_alignr_epi64(x[v + 4], x[v + 3], 6);
    }
}

/* d = |lo - hi|, normalised (lanes 30, 31 zero); returns 1 when hi > lo. The sign comes from
 * comparing the limbs (the most significant differing limb decides: gt and lt are disjoint
 * bit masks, so comparing them as integers finds it), then one lane-parallel borrow round
 * (arithmetic shifts) settles almost every difference; rare borrow chains loop. */
IFMA_INLINE int kara_absdiff(__m512i d[4], const __m512i lo[4], const __m512i hi[4])
{
    uint32_t gt = 0, lt = 0;
#pragma GCC unroll 4
    for (int v = 0; v < 4; v++) {
        gt |= (uint32_t)_mm512_cmpgt_epu64_mask(lo[v], hi[v]) << (8 * v);
        lt |= (uint32_t)_mm512_cmplt_epu64_mask(lo[v], hi[v]) << (8 * v);
    }
    const int neg = lt > gt;
    const __mmask8 flip = (__mmask8)-neg;
#pragma GCC unroll 4
    for (int v = 0; v < 4; v++) {
        __m512i t = _mm512_sub_epi64(lo[v], hi[v]);
        d[v] = _mm512_mask_sub_epi64(t, flip, _mm512_setzero_si512(), t);
    }
    const __m512i m = _mm512_set1_epi64((long long)M52);
    do {
        __m512i cprev = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int k = 0; k < 4; k++) {
            __m512i c = _mm512_srai_epi64(d[k], 52);
            d[k] = _mm512_add_epi64(_mm512_and_si512(d[k], m), _mm512_alignr_epi64(c, cprev, 7));
            cprev = c;
        }
    } while (any_over52(d, 4));
    return neg;
}

/* The window operand of a Karatsuba product from a normalised x. */
IFMA_INLINE void kara_prepare(ifma_kara_operand *p, const __m512i x[8])
{
    __m512i lo[4], hi[4], d[4];
    kara_halves(lo, hi, x);
    half_store(&p->h0, lo);
    half_store(&p->h1, hi);
    p->neg = kara_absdiff(d, lo, hi);
    half_store(&p->hd, d);
}

/* The broadcast operand of a Karatsuba product from a normalised x: bb = x (b0 = bb[0..29],
 * b1 = bb[30..59]), db = |b0 - b1|; returns 1 when b1 > b0. */
IFMA_INLINE int kara_broadcast_operand(uint64_t bb[64], uint64_t db[32], const __m512i x[8])
{
    __m512i lo[4], hi[4], d[4];
#pragma GCC unroll 8
    for (int v = 0; v < 8; v++) _mm512_store_si512((void *)(bb + 8 * v), x[v]);
    kara_halves(lo, hi, x);
    const int neg = kara_absdiff(d, lo, hi);
#pragma GCC unroll 4
    for (int v = 0; v < 4; v++) _mm512_store_si512((void *)(db + 8 * v), d[v]);
    return neg;
}

/* F[0..14] = z0 + T X + z2 X^2 + B, T = z0 + z2 -/+ zm (subtract when sub), all 60-limb
 * values as 8 vectors (lanes < 2^58). B = 0 (mod p) keeps every lane of the middle term
 * non-negative: lane 30 gets 2^60, lanes 31..89 get 2^60 - 2^8 (so that sum of the lane i
 * terms is 2^8 * 2^(52*90) = 2^4688 exactly), and 2^4688 == 2^3072 * 2^1616 == C * 2^1616
 * = 16C * 2^(52*31) (mod p) is taken back at lane 31. Lanes of F stay < 2^62. */
IFMA_INLINE void kara_combine(__m512i F[15], const __m512i z0[8], const __m512i z2[8],
                              const __m512i zm[8], int sub)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i bias = _mm512_set1_epi64((long long)((UINT64_C(1) << 60) - 256));
    const __mmask8 neg = (__mmask8)-sub;
    __m512i t[8];
#pragma GCC unroll 8
    for (int v = 0; v < 8; v++) {
        __m512i s = _mm512_add_epi64(_mm512_add_epi64(z0[v], z2[v]), bias);
        t[v] = _mm512_add_epi64(s, _mm512_mask_sub_epi64(zm[v], neg, zero, zm[v]));
    }
    /* lane 0 of T (limb 30): 2^60 (one 2^8 less taken above); lane 1: 16C less */
    t[0] = _mm512_add_epi64(t[0], _mm512_set_epi64(0, 0, 0, 0, 0, 0, -(long long)(16 * C_P), 256));
    t[7] = _mm512_maskz_mov_epi64(0x0f, t[7]); /* limbs 60..63 of T: no bias */
#pragma GCC unroll 15
    for (int k = 0; k < 15; k++) {
        __m512i f = k < 8 ? z0[k] : zero;
        if (k >= 3 && k <= 11) /* T shifted up 30 limbs: 3 vectors and 6 lanes */
            f = _mm512_add_epi64(
                f, _mm512_alignr_epi64(k - 3 < 8 ? t[k - 3] : zero, k >= 4 ? t[k - 4] : zero, 2));
        if (k >= 7) /* z2 shifted up 60 limbs: 7 vectors and 4 lanes */
            f = _mm512_add_epi64(
                f, _mm512_alignr_epi64(k - 7 < 8 ? z2[k - 7] : zero, k >= 8 ? z2[k - 8] : zero, 4));
        F[k] = f;
    }
}

/* z[0..7] = a*b for 30-limb halves, unnormalised (lanes < 2^58): pa a half stored for windows,
 * b 30 limbs broadcast. By window class as product_windows (at most 5 windows per class), but
 * with separate low and high accumulators: with 8 output vectors one accumulator per vector
 * would leave too little independent work per step. */
IFMA_INLINE void product60(__m512i z[8], const ifma_half *pa, const uint64_t *b)
{
    __m512i zl[8], zh[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) zl[k] = zh[k] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int r = 0; r < 8; r++) {
        __m512i w[5];
#pragma GCC unroll 5
        for (int m = 0; m < 5; m++) {
            const int o = 8 * m - r;
            if (o + 7 >= 0 && o <= 29) LOADU_ASM(w[m], pa->limb + 8 + o);
        }
#pragma GCC unroll 4
        for (int i = r; i <= 30; i += 8) {
            __m512i bl = _mm512_setzero_si512(), bh = _mm512_setzero_si512();
            if (i < 30) BCAST_ASM(bl, b + i);
            if (i > 0) BCAST_ASM(bh, b + i - 1);
#pragma GCC unroll 5
            for (int m = 0; m < 5; m++) {
                const int o = 8 * m - r, k = (o + i) / 8;
                if (o + 7 < 0 || o > 29 || k >= 8) continue;
                if (i < 30) zl[k] = _mm512_madd52lo_epu64(zl[k], bl, w[m]);
                if (i > 0) zh[k] = _mm512_madd52hi_epu64(zh[k], bh, w[m]);
            }
        }
    }
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) z[k] = _mm512_add_epi64(zl[k], zh[k]);
}

#endif

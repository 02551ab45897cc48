/* Internal (util layer): the AVX-512 intrinsics of mulred's vector kernels, native or emulated.
 *
 * Every file with AVX-512 kernels includes this header instead of <immintrin.h> and marks its
 * kernels with MULRED_AVX512_TARGET("avx512f,...") instead of a target attribute.
 *
 * Native build (the default): <immintrin.h> and the target attribute; the kernels run only on
 * CPUs whose CPUID says they can (mulred_cpu(), util.h).
 *
 * Emulated build (-DMULRED_AVX512_EMULATE=ON in CMake): every 512-bit intrinsic the kernels use
 * is replaced by plain C over 8 x 64-bit (or 16 x 32-bit) lanes with the semantics of Intel's
 * intrinsics guide, the target attributes vanish, and mulred_fieldx8_have_ifma() says yes. The
 * same kernel source then runs, slowly, on any x86-64 CPU, so the tests of the 8-lane field
 * kernels and of the curve and MSM code over them check it on machines without AVX-512 IFMA
 * too. A test build only: never for speed. The 8-lane field kernels use it; the other
 * AVX-512 kernels (3072-bit IFMA products with inline asm, BLAKE2b x8, ChaCha20 x16) keep
 * <immintrin.h> and run only where the CPU has AVX-512.
 * Intrinsics not listed here do not compile in that build, which is how a kernel that starts
 * using a new one is caught. 128-bit intrinsics (SHA-NI, SSE) stay native. */
#ifndef MULRED_UTIL_AVX512_H
#define MULRED_UTIL_AVX512_H

#include <immintrin.h>

#ifndef MULRED_AVX512_EMULATE

#define MULRED_AVX512_TARGET(features) __attribute__((target(features)))

#else /* MULRED_AVX512_EMULATE */

#include <stdint.h>
#include <string.h>

#define MULRED_AVX512_TARGET(features)

typedef struct {
    _Alignas(64) uint64_t q[8];
} mulred_emu_m512;
typedef uint8_t mulred_emu_mask8;

#define EMU static inline __attribute__((always_inline, unused))
#define EMU_MAP(expr)                                                                              \
    mulred_emu_m512 r_;                                                                            \
    for (int i = 0; i < 8; i++) r_.q[i] = (expr);                                                  \
    return r_

/* 32-bit lanes */
EMU uint32_t emu_d(mulred_emu_m512 a, int i)
{
    return (uint32_t)(a.q[i >> 1] >> (32 * (i & 1)));
}
EMU void emu_set_d(mulred_emu_m512 *a, int i, uint32_t v)
{
    const int s = 32 * (i & 1);
    a->q[i >> 1] = (a->q[i >> 1] & ~((uint64_t)0xffffffffu << s)) | ((uint64_t)v << s);
}

EMU mulred_emu_m512 emu_setzero(void)
{
    EMU_MAP(0);
}
EMU mulred_emu_m512 emu_set1_epi64(long long v)
{
    EMU_MAP((uint64_t)v);
}
EMU mulred_emu_m512 emu_set1_epi32(int v)
{
    EMU_MAP((uint64_t)(uint32_t)v * UINT64_C(0x100000001));
}
EMU mulred_emu_m512 emu_set_epi64(long long e7, long long e6, long long e5, long long e4,
                                  long long e3, long long e2, long long e1, long long e0)
{
    const long long e[8] = {e0, e1, e2, e3, e4, e5, e6, e7};
    EMU_MAP((uint64_t)e[i]);
}
EMU mulred_emu_m512 emu_loadu(const void *p)
{
    mulred_emu_m512 r;
    memcpy(r.q, p, 64);
    return r;
}
EMU void emu_storeu(void *p, mulred_emu_m512 a)
{
    memcpy(p, a.q, 64);
}
EMU mulred_emu_m512 emu_maskz_loadu_epi64(mulred_emu_mask8 k, const void *p)
{
    mulred_emu_m512 r;
    for (int i = 0; i < 8; i++) {
        r.q[i] = 0;
        if (k >> i & 1) memcpy(&r.q[i], (const char *)p + 8 * i, 8);
    }
    return r;
}
EMU void emu_mask_storeu_epi64(void *p, mulred_emu_mask8 k, mulred_emu_m512 a)
{
    for (int i = 0; i < 8; i++)
        if (k >> i & 1) memcpy((char *)p + 8 * i, &a.q[i], 8);
}

EMU mulred_emu_m512 emu_add_epi64(mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(a.q[i] + b.q[i]);
}
EMU mulred_emu_m512 emu_sub_epi64(mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(a.q[i] - b.q[i]);
}
EMU mulred_emu_m512 emu_add_epi32(mulred_emu_m512 a, mulred_emu_m512 b)
{
    mulred_emu_m512 r;
    for (int i = 0; i < 16; i++) emu_set_d(&r, i, emu_d(a, i) + emu_d(b, i));
    return r;
}
EMU mulred_emu_m512 emu_and(mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(a.q[i] & b.q[i]);
}
EMU mulred_emu_m512 emu_or(mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(a.q[i] | b.q[i]);
}
EMU mulred_emu_m512 emu_xor(mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(a.q[i] ^ b.q[i]);
}

/* shifts and rotations: counts above the lane width give 0 (logical) or the sign (arithmetic) */
EMU mulred_emu_m512 emu_srli_epi64(mulred_emu_m512 a, unsigned s)
{
    EMU_MAP(s > 63 ? 0 : a.q[i] >> s);
}
EMU mulred_emu_m512 emu_slli_epi64(mulred_emu_m512 a, unsigned s)
{
    EMU_MAP(s > 63 ? 0 : a.q[i] << s);
}
EMU mulred_emu_m512 emu_srai_epi64(mulred_emu_m512 a, unsigned s)
{
    EMU_MAP((uint64_t)((int64_t)a.q[i] >> (s > 63 ? 63 : s)));
}
EMU mulred_emu_m512 emu_srlv_epi64(mulred_emu_m512 a, mulred_emu_m512 c)
{
    EMU_MAP(c.q[i] > 63 ? 0 : a.q[i] >> c.q[i]);
}
EMU mulred_emu_m512 emu_sllv_epi64(mulred_emu_m512 a, mulred_emu_m512 c)
{
    EMU_MAP(c.q[i] > 63 ? 0 : a.q[i] << c.q[i]);
}
EMU uint64_t emu_rotl64(uint64_t x, unsigned s)
{
    s &= 63;
    return s ? x << s | x >> (64 - s) : x;
}
EMU mulred_emu_m512 emu_rol_epi64(mulred_emu_m512 a, unsigned s)
{
    EMU_MAP(emu_rotl64(a.q[i], s));
}
EMU mulred_emu_m512 emu_ror_epi64(mulred_emu_m512 a, unsigned s)
{
    EMU_MAP(emu_rotl64(a.q[i], 64 - (s & 63)));
}
EMU mulred_emu_m512 emu_rol_epi32(mulred_emu_m512 a, unsigned s)
{
    mulred_emu_m512 r;
    s &= 31;
    for (int i = 0; i < 16; i++) {
        const uint32_t x = emu_d(a, i);
        emu_set_d(&r, i, s ? x << s | x >> (32 - s) : x);
    }
    return r;
}

/* 52-bit multiply-add: the low 52 bits of each lane of b and c multiplied (104-bit product);
 * lo adds its bits [0, 52), hi its bits [52, 104), to a. */
EMU mulred_emu_m512 emu_madd52lo(mulred_emu_m512 a, mulred_emu_m512 b, mulred_emu_m512 c)
{
    const uint64_t m = (UINT64_C(1) << 52) - 1;
    EMU_MAP(a.q[i] + ((uint64_t)((unsigned __int128)(b.q[i] & m) * (c.q[i] & m)) & m));
}
EMU mulred_emu_m512 emu_madd52hi(mulred_emu_m512 a, mulred_emu_m512 b, mulred_emu_m512 c)
{
    const uint64_t m = (UINT64_C(1) << 52) - 1;
    EMU_MAP(a.q[i] + (uint64_t)(((unsigned __int128)(b.q[i] & m) * (c.q[i] & m)) >> 52));
}

/* lane moves */
EMU mulred_emu_m512 emu_alignr_epi64(mulred_emu_m512 a, mulred_emu_m512 b, unsigned imm)
{
    const unsigned s = imm & 7; /* (a:b) >> 64s, low 8 lanes */
    EMU_MAP(i + s < 8 ? b.q[i + s] : a.q[i + s - 8]);
}
EMU mulred_emu_m512 emu_permutex2var_epi64(mulred_emu_m512 a, mulred_emu_m512 idx,
                                           mulred_emu_m512 b)
{
    EMU_MAP(idx.q[i] & 8 ? b.q[idx.q[i] & 7] : a.q[idx.q[i] & 7]);
}
EMU mulred_emu_m512 emu_permutexvar_epi64(mulred_emu_m512 idx, mulred_emu_m512 a)
{
    EMU_MAP(a.q[idx.q[i] & 7]);
}
EMU mulred_emu_m512 emu_shuffle_x128(mulred_emu_m512 a, mulred_emu_m512 b, unsigned imm)
{
    /* 128-bit blocks: 0 and 1 from a, 2 and 3 from b, chosen by two bits of imm each */
    mulred_emu_m512 r;
    for (int j = 0; j < 4; j++) {
        const mulred_emu_m512 *src = j < 2 ? &a : &b;
        const unsigned sel = (imm >> (2 * j)) & 3;
        r.q[2 * j] = src->q[2 * sel];
        r.q[2 * j + 1] = src->q[2 * sel + 1];
    }
    return r;
}
EMU mulred_emu_m512 emu_unpacklo_epi64(mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(i & 1 ? b.q[i - 1] : a.q[i]);
}
EMU mulred_emu_m512 emu_unpackhi_epi64(mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(i & 1 ? b.q[i] : a.q[i + 1]);
}
EMU mulred_emu_m512 emu_unpack_epi32(mulred_emu_m512 a, mulred_emu_m512 b, int hi)
{
    /* per 128-bit block of 4 dwords: lo gives a0 b0 a1 b1, hi gives a2 b2 a3 b3 */
    mulred_emu_m512 r;
    for (int blk = 0; blk < 4; blk++)
        for (int k = 0; k < 2; k++) {
            const int src = 4 * blk + 2 * hi + k;
            emu_set_d(&r, 4 * blk + 2 * k, emu_d(a, src));
            emu_set_d(&r, 4 * blk + 2 * k + 1, emu_d(b, src));
        }
    return r;
}
EMU __m128i emu_extracti32x4(mulred_emu_m512 a, unsigned imm)
{
    return _mm_loadu_si128((const __m128i *)(const void *)&a.q[2 * (imm & 3)]);
}

EMU long long emu_extract_epi64(__m128i a, unsigned imm) /* SSE4.1, used beside AVX-512 */
{
    long long v[2];
    memcpy(v, &a, sizeof v);
    return v[imm & 1];
}

/* masks */
EMU mulred_emu_m512 emu_mask_blend_epi64(mulred_emu_mask8 k, mulred_emu_m512 a, mulred_emu_m512 b)
{
    EMU_MAP(k >> i & 1 ? b.q[i] : a.q[i]);
}
EMU mulred_emu_m512 emu_maskz_mov_epi64(mulred_emu_mask8 k, mulred_emu_m512 a)
{
    EMU_MAP(k >> i & 1 ? a.q[i] : 0);
}
EMU mulred_emu_m512 emu_mask_sub_epi64(mulred_emu_m512 src, mulred_emu_mask8 k, mulred_emu_m512 a,
                                       mulred_emu_m512 b)
{
    EMU_MAP(k >> i & 1 ? a.q[i] - b.q[i] : src.q[i]);
}
EMU mulred_emu_m512 emu_mask_xor_epi64(mulred_emu_m512 src, mulred_emu_mask8 k, mulred_emu_m512 a,
                                       mulred_emu_m512 b)
{
    EMU_MAP(k >> i & 1 ? a.q[i] ^ b.q[i] : src.q[i]);
}
EMU uint64_t emu_ternary(uint64_t a, uint64_t b, uint64_t c, unsigned imm)
{
    uint64_t r = 0;
    for (int bit = 0; bit < 64; bit++) {
        const unsigned idx = (unsigned)((a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1));
        r |= (uint64_t)(imm >> idx & 1) << bit;
    }
    return r;
}
EMU mulred_emu_m512 emu_mask_ternarylogic_epi64(mulred_emu_m512 a, mulred_emu_mask8 k,
                                                mulred_emu_m512 b, mulred_emu_m512 c, unsigned imm)
{
    EMU_MAP(k >> i & 1 ? emu_ternary(a.q[i], b.q[i], c.q[i], imm & 0xff) : a.q[i]);
}
#define EMU_CMP(name, expr)                                                                        \
    EMU mulred_emu_mask8 name(mulred_emu_m512 a, mulred_emu_m512 b)                                \
    {                                                                                              \
        unsigned k = 0;                                                                            \
        for (int i = 0; i < 8; i++) k |= (unsigned)(expr) << i;                                    \
        return (mulred_emu_mask8)k;                                                                \
    }
EMU_CMP(emu_cmpeq_epi64_mask, a.q[i] == b.q[i])
EMU_CMP(emu_cmplt_epi64_mask, (int64_t)a.q[i] < (int64_t)b.q[i])
EMU_CMP(emu_cmplt_epu64_mask, a.q[i] < b.q[i])
EMU_CMP(emu_cmpgt_epu64_mask, a.q[i] > b.q[i])
EMU_CMP(emu_test_epi64_mask, (a.q[i] & b.q[i]) != 0)
#undef EMU_CMP
EMU mulred_emu_mask8 emu_mask_test_epi64_mask(mulred_emu_mask8 k, mulred_emu_m512 a,
                                              mulred_emu_m512 b)
{
    return (mulred_emu_mask8)(k & emu_test_epi64_mask(a, b));
}
#undef EMU_MAP
#undef EMU

/* The names the kernels use, redirected after <immintrin.h> (whose functions stay; clang defines
 * some of them as macros, hence each #undef). */
#undef __m512i
#define __m512i mulred_emu_m512
#undef __mmask8
#define __mmask8 mulred_emu_mask8
#undef _mm512_setzero_si512
#define _mm512_setzero_si512 emu_setzero
#undef _mm512_set1_epi64
#define _mm512_set1_epi64 emu_set1_epi64
#undef _mm512_set1_epi32
#define _mm512_set1_epi32 emu_set1_epi32
#undef _mm512_set_epi64
#define _mm512_set_epi64 emu_set_epi64
#undef _mm512_loadu_si512
#define _mm512_loadu_si512 emu_loadu
#undef _mm512_load_si512
#define _mm512_load_si512 emu_loadu
#undef _mm512_storeu_si512
#define _mm512_storeu_si512 emu_storeu
#undef _mm512_store_si512
#define _mm512_store_si512 emu_storeu
#undef _mm512_maskz_loadu_epi64
#define _mm512_maskz_loadu_epi64 emu_maskz_loadu_epi64
#undef _mm512_mask_storeu_epi64
#define _mm512_mask_storeu_epi64 emu_mask_storeu_epi64
#undef _mm512_add_epi64
#define _mm512_add_epi64 emu_add_epi64
#undef _mm512_sub_epi64
#define _mm512_sub_epi64 emu_sub_epi64
#undef _mm512_add_epi32
#define _mm512_add_epi32 emu_add_epi32
#undef _mm512_and_si512
#define _mm512_and_si512 emu_and
#undef _mm512_or_si512
#define _mm512_or_si512 emu_or
#undef _mm512_xor_si512
#define _mm512_xor_si512 emu_xor
#undef _mm512_srli_epi64
#define _mm512_srli_epi64 emu_srli_epi64
#undef _mm512_slli_epi64
#define _mm512_slli_epi64 emu_slli_epi64
#undef _mm512_srai_epi64
#define _mm512_srai_epi64 emu_srai_epi64
#undef _mm512_srlv_epi64
#define _mm512_srlv_epi64 emu_srlv_epi64
#undef _mm512_sllv_epi64
#define _mm512_sllv_epi64 emu_sllv_epi64
#undef _mm512_rol_epi64
#define _mm512_rol_epi64 emu_rol_epi64
#undef _mm512_ror_epi64
#define _mm512_ror_epi64 emu_ror_epi64
#undef _mm512_rol_epi32
#define _mm512_rol_epi32 emu_rol_epi32
#undef _mm512_madd52lo_epu64
#define _mm512_madd52lo_epu64 emu_madd52lo
#undef _mm512_madd52hi_epu64
#define _mm512_madd52hi_epu64 emu_madd52hi
#undef _mm512_alignr_epi64
#define _mm512_alignr_epi64 emu_alignr_epi64
#undef _mm512_permutex2var_epi64
#define _mm512_permutex2var_epi64 emu_permutex2var_epi64
#undef _mm512_permutexvar_epi64
#define _mm512_permutexvar_epi64 emu_permutexvar_epi64
#undef _mm512_shuffle_i64x2
#define _mm512_shuffle_i64x2 emu_shuffle_x128
#undef _mm512_shuffle_i32x4
#define _mm512_shuffle_i32x4 emu_shuffle_x128
#undef _mm512_unpacklo_epi64
#define _mm512_unpacklo_epi64 emu_unpacklo_epi64
#undef _mm512_unpackhi_epi64
#define _mm512_unpackhi_epi64 emu_unpackhi_epi64
#undef _mm512_unpacklo_epi32
#define _mm512_unpacklo_epi32(a, b) emu_unpack_epi32((a), (b), 0)
#undef _mm512_unpackhi_epi32
#define _mm512_unpackhi_epi32(a, b) emu_unpack_epi32((a), (b), 1)
#undef _mm512_extracti32x4_epi32
#define _mm512_extracti32x4_epi32 emu_extracti32x4
#undef _mm_extract_epi64
#define _mm_extract_epi64 emu_extract_epi64
#undef _mm512_mask_blend_epi64
#define _mm512_mask_blend_epi64 emu_mask_blend_epi64
#undef _mm512_maskz_mov_epi64
#define _mm512_maskz_mov_epi64 emu_maskz_mov_epi64
#undef _mm512_mask_sub_epi64
#define _mm512_mask_sub_epi64 emu_mask_sub_epi64
#undef _mm512_mask_xor_epi64
#define _mm512_mask_xor_epi64 emu_mask_xor_epi64
#undef _mm512_mask_ternarylogic_epi64
#define _mm512_mask_ternarylogic_epi64 emu_mask_ternarylogic_epi64
#undef _mm512_cmpeq_epi64_mask
#define _mm512_cmpeq_epi64_mask emu_cmpeq_epi64_mask
#undef _mm512_cmplt_epi64_mask
#define _mm512_cmplt_epi64_mask emu_cmplt_epi64_mask
#undef _mm512_cmplt_epu64_mask
#define _mm512_cmplt_epu64_mask emu_cmplt_epu64_mask
#undef _mm512_cmpgt_epu64_mask
#define _mm512_cmpgt_epu64_mask emu_cmpgt_epu64_mask
#undef _mm512_test_epi64_mask
#define _mm512_test_epi64_mask emu_test_epi64_mask
#undef _mm512_mask_test_epi64_mask
#define _mm512_mask_test_epi64_mask emu_mask_test_epi64_mask

#endif /* MULRED_AVX512_EMULATE */
#endif

/* The counter-based generator (mix_stream.h): block i of stream `seed` is the 4-round
 * fastmix2_64 permutation of (seed ^ K0, index ^ K1). 4 rounds rather than 3: over all 1- and
 * 2-bit input differences the lab measures 3 rounds at 127 of 128 output bits (the pair of top
 * bits of a and b cancels in the first a += b) and 4 rounds at 128 (docs/mix.md); the extra
 * round costs about a quarter of the fill throughput (mulred mix bench).
 *
 * Throughput: one block is a serial chain of ~16 dependent ops, so the fill loop keeps
 * independent blocks in flight: 4 in scalar registers, or 8 per AVX-512 register with native
 * 64-bit rotates (docs/mix.md has the figures). */
#include <string.h>

#include "mix/mix_stream.h"
#include "util/util.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MIX_HAVE_AVX512 1
#endif

static inline void stream_block(uint64_t *a, uint64_t *b, uint64_t seed, uint64_t index)
{
    uint64_t x = seed ^ MIX_STREAM_K0, y = index ^ MIX_STREAM_K1;
    for (int r = 0; r < MIX_STREAM_ROUNDS; r++) mix_fastmix2_64_round(&x, &y);
    *a = x, *b = y;
}

mulred_u128 mulred_mix_stream(uint64_t seed, uint64_t index)
{
    mulred_u128 r;
    stream_block(&r.lo, &r.hi, seed, index);
    return r;
}

static void fill_tail(uint8_t *out, size_t len, uint64_t seed, uint64_t index)
{
    while (len > 0) {
        uint8_t block[16];
        uint64_t a, b;
        stream_block(&a, &b, seed, index++);
        mulred_store_le64(block, a);
        mulred_store_le64(block + 8, b);
        size_t n = len < 16 ? len : 16;
        memcpy(out, block, n);
        out += n, len -= n;
    }
}

void mix_fill_scalar(uint8_t *out, size_t len, uint64_t seed, uint64_t index)
{
    /* Named scalars, not arrays: keeps the four chains in registers. */
    const uint64_t a_init = seed ^ MIX_STREAM_K0;
    for (; len >= 64; out += 64, len -= 64, index += 4) {
        uint64_t a0 = a_init, a1 = a_init, a2 = a_init, a3 = a_init;
        uint64_t b0 = index ^ MIX_STREAM_K1, b1 = (index + 1) ^ MIX_STREAM_K1;
        uint64_t b2 = (index + 2) ^ MIX_STREAM_K1, b3 = (index + 3) ^ MIX_STREAM_K1;
#ifdef __GNUC__
        /* An empty asm on the chains keeps gcc -O3 from vectorizing across iterations with
         * SSE2, which has no 64-bit rotate: that version spills and is slow (docs/kernels.md). */
        __asm__("" : "+r"(b0), "+r"(b1), "+r"(b2), "+r"(b3));
#endif
        for (int r = 0; r < MIX_STREAM_ROUNDS; r++) {
            mix_fastmix2_64_round(&a0, &b0);
            mix_fastmix2_64_round(&a1, &b1);
            mix_fastmix2_64_round(&a2, &b2);
            mix_fastmix2_64_round(&a3, &b3);
        }
        mulred_store_le64(out, a0), mulred_store_le64(out + 8, b0);
        mulred_store_le64(out + 16, a1), mulred_store_le64(out + 24, b1);
        mulred_store_le64(out + 32, a2), mulred_store_le64(out + 40, b2);
        mulred_store_le64(out + 48, a3), mulred_store_le64(out + 56, b3);
    }
    fill_tail(out, len, seed, index);
}

#ifdef MIX_HAVE_AVX512
/* Lane k of (a, b) is block index + k; the two permutes interleave them into block order
 * (x86 is little-endian, so a 64-bit lane store is the block's byte order). */
__attribute__((target("avx512f"))) static void fill_avx512(uint8_t *out, size_t len, uint64_t seed,
                                                           uint64_t index)
{
    const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i k1 = _mm512_set1_epi64((long long)MIX_STREAM_K1);
    const __m512i a_init = _mm512_set1_epi64((long long)(seed ^ MIX_STREAM_K0));
    const __m512i first = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    const __m512i second = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    for (; len >= 128; out += 128, len -= 128, index += 8) {
        __m512i a = a_init;
        __m512i b =
            _mm512_xor_si512(_mm512_add_epi64(_mm512_set1_epi64((long long)index), lane), k1);
        for (int r = 0; r < MIX_STREAM_ROUNDS; r++) {
            a = _mm512_add_epi64(a, b), b = _mm512_rol_epi64(b, 52);
            b = _mm512_xor_si512(b, a), a = _mm512_rol_epi64(a, 10);
            a = _mm512_add_epi64(a, b), b = _mm512_rol_epi64(b, 47);
            b = _mm512_xor_si512(b, a), a = _mm512_rol_epi64(a, 17);
        }
        _mm512_storeu_si512((void *)out, _mm512_permutex2var_epi64(a, first, b));
        _mm512_storeu_si512((void *)(out + 64), _mm512_permutex2var_epi64(a, second, b));
    }
    mix_fill_scalar(out, len, seed, index);
}
#endif

void mulred_mix_fill(uint8_t *out, size_t len, uint64_t seed, uint64_t index)
{
#ifdef MIX_HAVE_AVX512
    if (len >= 128 && mulred_cpu()->avx512f) {
        fill_avx512(out, len, seed, index);
        return;
    }
#endif
    mix_fill_scalar(out, len, seed, index);
}

/* Hex decoding kernels (hex_kernels.h): scalar, AVX2 and AVX-512 (BW).
 *
 * The vector kernels classify a block of characters at once: c − '0' ≤ 9 is a digit,
 * (c | 0x20) − 'a' ≤ 5 a letter; the value is the one or the other plus 10; pairs of values
 * become bytes with one multiply-add (vpmaddubsw by 16 and 1) and a pack. A block that holds a
 * bad character still stores correct bytes for the pairs before it (each byte depends on its
 * own pair only), so the contract's prefix holds without a second pass. The last block of an
 * input longer than a block is placed to end at the input's end, overlapping the previous one
 * (the overlap is decoded twice, to the same bytes), so no scalar tail is needed there. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "io/hex_kernels.h"

/* ---- scalar ---- */

/* 0..15 the value of a hex digit, 16 ASCII whitespace, 17 anything else */
enum { HV_SPACE = 16, HV_OTHER = 17 };
static const uint8_t hexval[256] = {
    ['\t'] = HV_SPACE, ['\n'] = HV_SPACE, ['\v'] = HV_SPACE, ['\f'] = HV_SPACE, ['\r'] = HV_SPACE,
    [' '] = HV_SPACE,  ['0'] = 0,         ['1'] = 1,         ['2'] = 2,         ['3'] = 3,
    ['4'] = 4,         ['5'] = 5,         ['6'] = 6,         ['7'] = 7,         ['8'] = 8,
    ['9'] = 9,         ['a'] = 10,        ['b'] = 11,        ['c'] = 12,        ['d'] = 13,
    ['e'] = 14,        ['f'] = 15,        ['A'] = 10,        ['B'] = 11,        ['C'] = 12,
    ['D'] = 13,        ['E'] = 14,        ['F'] = 15,
};
/* hexval with the zero entries that are not '0' made HV_OTHER, built once */
static uint8_t hexclass[256];
static atomic_int hexclass_ready;

static void hexclass_init(void)
{
    if (atomic_load_explicit(&hexclass_ready, memory_order_acquire)) return;
    uint8_t t[256];
    for (int c = 0; c < 256; c++) t[c] = (hexval[c] == 0 && c != '0') ? HV_OTHER : hexval[c];
    memcpy(hexclass, t, sizeof t); /* every thread writes the same bytes */
    atomic_store_explicit(&hexclass_ready, 1, memory_order_release);
}

static size_t scalar_decode(uint8_t *dst, const char *src, size_t n)
{
    hexclass_init();
    for (size_t i = 0; i < n; i++) {
        const unsigned hi = hexclass[(unsigned char)src[2 * i]];
        const unsigned lo = hexclass[(unsigned char)src[2 * i + 1]];
        if ((hi | lo) >= 16) return 2 * i + (hi < 16);
        dst[i] = (uint8_t)(hi << 4 | lo);
    }
    return 2 * n;
}

static size_t scalar_count(const char *src, size_t len, size_t *stop)
{
    hexclass_init();
    size_t count = 0;
    for (size_t i = 0; i < len; i++) {
        const unsigned k = hexclass[(unsigned char)src[i]];
        if (k == HV_OTHER) {
            *stop = i;
            return count;
        }
        count += k < 16;
    }
    *stop = len;
    return count;
}

static int scalar_available(void)
{
    return 1;
}

#if defined(__x86_64__)
#include <immintrin.h>

/* ---- AVX2 ---- */

#define AVX2 __attribute__((target("avx2")))

/* Decodes 32 characters at s into 16 bytes at d; bit i of the result set when s[i] is a hex
 * digit. */
static inline AVX2 uint32_t avx2_block(uint8_t *d, const char *s)
{
    const __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)s);
    const __m256i dg = _mm256_sub_epi8(c, _mm256_set1_epi8('0'));
    const __m256i isd = _mm256_cmpeq_epi8(_mm256_min_epu8(dg, _mm256_set1_epi8(9)), dg);
    const __m256i lt =
        _mm256_sub_epi8(_mm256_or_si256(c, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
    const __m256i isl = _mm256_cmpeq_epi8(_mm256_min_epu8(lt, _mm256_set1_epi8(5)), lt);
    const __m256i v = _mm256_blendv_epi8(_mm256_add_epi8(lt, _mm256_set1_epi8(10)), dg, isd);
    const __m256i w = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0110));
    const __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
    _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(p));
    return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(isd, isl));
}

static AVX2 size_t avx2_decode(uint8_t *dst, const char *src, size_t n)
{
    const size_t len = 2 * n;
    if (len < 32) return scalar_decode(dst, src, n);
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        const uint32_t ok = avx2_block(dst + i / 2, src + i);
        if (ok != 0xffffffffu) return i + (size_t)__builtin_ctz(~ok);
    }
    if (i < len) {
        const size_t j = len - 32; /* even: overlaps the checked characters before i */
        const uint32_t ok = avx2_block(dst + j / 2, src + j);
        if (ok != 0xffffffffu) return j + (size_t)__builtin_ctz(~ok);
    }
    return len;
}

/* Bit i set when s[i] is a hex digit (*digit) or whitespace (*space). */
static inline AVX2 void avx2_classify(uint32_t *digit, uint32_t *space, const char *s)
{
    const __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)s);
    const __m256i dg = _mm256_sub_epi8(c, _mm256_set1_epi8('0'));
    const __m256i isd = _mm256_cmpeq_epi8(_mm256_min_epu8(dg, _mm256_set1_epi8(9)), dg);
    const __m256i lt =
        _mm256_sub_epi8(_mm256_or_si256(c, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
    const __m256i isl = _mm256_cmpeq_epi8(_mm256_min_epu8(lt, _mm256_set1_epi8(5)), lt);
    const __m256i ws = _mm256_sub_epi8(c, _mm256_set1_epi8('\t'));
    const __m256i isw =
        _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(ws, _mm256_set1_epi8(4)), ws),
                        _mm256_cmpeq_epi8(c, _mm256_set1_epi8(' ')));
    *digit = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(isd, isl));
    *space = (uint32_t)_mm256_movemask_epi8(isw);
}

static AVX2 size_t avx2_count(const char *src, size_t len, size_t *stop)
{
    size_t count = 0, i = 0;
    for (; i + 32 <= len; i += 32) {
        uint32_t digit, space;
        avx2_classify(&digit, &space, src + i);
        const uint32_t other = ~(digit | space);
        if (other) {
            const unsigned t = (unsigned)__builtin_ctz(other);
            *stop = i + t;
            return count + (size_t)__builtin_popcount(digit & ((1u << t) - 1));
        }
        count += (size_t)__builtin_popcount(digit);
    }
    size_t s;
    count += scalar_count(src + i, len - i, &s);
    *stop = i + s;
    return count;
}

static int avx2_available(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* ---- AVX-512 (BW) ---- */

#define AVX512 __attribute__((target("avx2,avx512f,avx512bw")))

static inline AVX512 uint64_t avx512_block(uint8_t *d, const char *s)
{
    const __m512i c = _mm512_loadu_si512((const void *)s);
    const __m512i dg = _mm512_sub_epi8(c, _mm512_set1_epi8('0'));
    const __mmask64 isd = _mm512_cmple_epu8_mask(dg, _mm512_set1_epi8(9));
    const __m512i lt =
        _mm512_sub_epi8(_mm512_or_si512(c, _mm512_set1_epi8(0x20)), _mm512_set1_epi8('a'));
    const __mmask64 isl = _mm512_cmple_epu8_mask(lt, _mm512_set1_epi8(5));
    const __m512i v = _mm512_mask_blend_epi8(isd, _mm512_add_epi8(lt, _mm512_set1_epi8(10)), dg);
    const __m512i w = _mm512_maddubs_epi16(v, _mm512_set1_epi16(0x0110));
    const __m512i p = _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0),
                                               _mm512_packus_epi16(w, w));
    _mm256_storeu_si256((__m256i *)(void *)d, _mm512_castsi512_si256(p));
    return (uint64_t)(isd | isl);
}

static AVX512 size_t avx512_decode(uint8_t *dst, const char *src, size_t n)
{
    const size_t len = 2 * n;
    if (len < 64) return avx2_decode(dst, src, n);
    size_t i = 0;
    for (; i + 64 <= len; i += 64) {
        const uint64_t ok = avx512_block(dst + i / 2, src + i);
        if (ok != ~0ull) return i + (size_t)__builtin_ctzll(~ok);
    }
    if (i < len) {
        const size_t j = len - 64;
        const uint64_t ok = avx512_block(dst + j / 2, src + j);
        if (ok != ~0ull) return j + (size_t)__builtin_ctzll(~ok);
    }
    return len;
}

static AVX512 size_t avx512_count(const char *src, size_t len, size_t *stop)
{
    size_t count = 0, i = 0;
    for (; i + 64 <= len; i += 64) {
        const __m512i c = _mm512_loadu_si512((const void *)(src + i));
        const __m512i dg = _mm512_sub_epi8(c, _mm512_set1_epi8('0'));
        const __m512i lt =
            _mm512_sub_epi8(_mm512_or_si512(c, _mm512_set1_epi8(0x20)), _mm512_set1_epi8('a'));
        const __m512i ws = _mm512_sub_epi8(c, _mm512_set1_epi8('\t'));
        const uint64_t digit = _mm512_cmple_epu8_mask(dg, _mm512_set1_epi8(9)) |
                               _mm512_cmple_epu8_mask(lt, _mm512_set1_epi8(5));
        const uint64_t space = _mm512_cmple_epu8_mask(ws, _mm512_set1_epi8(4)) |
                               _mm512_cmpeq_epi8_mask(c, _mm512_set1_epi8(' '));
        const uint64_t other = ~(digit | space);
        if (other) {
            const unsigned t = (unsigned)__builtin_ctzll(other);
            *stop = i + t;
            return count + (size_t)__builtin_popcountll(digit & ((1ull << t) - 1));
        }
        count += (size_t)__builtin_popcountll(digit);
    }
    size_t s;
    count += avx2_count(src + i, len - i, &s);
    *stop = i + s;
    return count;
}

static int avx512_available(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw");
}

#endif /* __x86_64__ */

/* ---- the table and the choice ---- */

static const mulred_hex_kernel table[] = {
    {"scalar", "nothing", scalar_available, scalar_decode, scalar_count},
#if defined(__x86_64__)
    {"avx2", "AVX2", avx2_available, avx2_decode, avx2_count},
    {"avx512", "AVX2, AVX512F and AVX512BW", avx512_available, avx512_decode, avx512_count},
#endif
};

const mulred_hex_kernel *mulred_hex_kernels(int *count)
{
    *count = (int)(sizeof table / sizeof table[0]);
    return table;
}

static const mulred_hex_kernel *_Atomic chosen;

const mulred_hex_kernel *mulred_hex_kernel_active(void)
{
    const mulred_hex_kernel *k = atomic_load_explicit(&chosen, memory_order_acquire);
    if (k) return k;
    hexclass_init();
    const int n = (int)(sizeof table / sizeof table[0]);
    const char *want = getenv("MULRED_HEX_KERNEL");
    for (int i = 0; i < n; i++)
        if (table[i].available()) k = &table[i]; /* the last available: the fastest */
    for (int i = 0; want && i < n; i++)
        if (strcmp(want, table[i].name) == 0 && table[i].available()) k = &table[i];
    atomic_store_explicit(&chosen, k, memory_order_release);
    return k;
}

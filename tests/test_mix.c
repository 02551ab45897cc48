/* mix layer: the fast_mix variants against references written here from the published
 * descriptions (rotation constants spelled out), inverses, the avalanche lab, and the
 * counter-based generator. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mulred/mix.h"

/* ---- references, written from the issue/seed text, independent of src/mix ---- */

static uint64_t ref_rol64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The seed's fast_mix2 loop body, constants 52, 10, 47, 17. */
static void ref_fastmix2_64(uint64_t *a, uint64_t *b, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        *a += *b; *b = ref_rol64(*b, 52);
        *b ^= *a; *a = ref_rol64(*a, 10);
        *a += *b; *b = ref_rol64(*b, 47);
        *b ^= *a; *a = ref_rol64(*a, 17);
    }
}

static void ref_stream(uint64_t out[2], uint64_t seed, uint64_t index)
{
    out[0] = seed ^ 0x243f6a8885a308d3ull; /* keying constants: hex digits of pi */
    out[1] = index ^ 0x13198a2e03707344ull;
    ref_fastmix2_64(&out[0], &out[1], 4);
}

/* ---- generator ---- */

static void test_stream_reference(void)
{
    /* One round of (a, b) = (1, 0) worked by hand: a = 1, b = 0 -> b = 1, a = 0x400 ->
     * a = 0x401, b = 1 << 47 = 0x800000000000 -> b = 0x800000000401, a = 0x401 << 17. */
    uint64_t a = 1, b = 0;
    ref_fastmix2_64(&a, &b, 1);
    CU_ASSERT_EQUAL(a, 0x8020000ull);
    CU_ASSERT_EQUAL(b, 0x800000000401ull);

    /* Values from a python3 transcription of the same spec (the generator keyed with the two
     * pi constants, 4 rounds). */
    static const struct {
        uint64_t seed, index, lo, hi;
    } kat[] = {
        {0, 0, 0x1b2397244e071266ull, 0x861cb2e8fbe2b25dull},
        {1, 0, 0xdae02563bd5d2f7eull, 0x5bb508ce2b3ce90cull},
        {0, 1, 0xc73fdec7471e743dull, 0x6bc3449f64c9ff9cull},
        {0xdeadbeef, 12345, 0x5e90f58dc768d6e1ull, 0x9e5f8f8eec3c583cull},
        {UINT64_MAX, UINT64_MAX, 0xef72abb585cfd314ull, 0x52f880e037f3f253ull},
    };
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint64_t r[2];
        ref_stream(r, kat[i].seed, kat[i].index);
        CU_ASSERT_EQUAL(r[0], kat[i].lo);
        CU_ASSERT_EQUAL(r[1], kat[i].hi);
        mulred_u128 v = mulred_mix_stream(kat[i].seed, kat[i].index);
        CU_ASSERT_EQUAL(v.lo, kat[i].lo);
        CU_ASSERT_EQUAL(v.hi, kat[i].hi);
    }
    for (int i = 0; i < 10000; i++) {
        uint64_t seed = test_rand64(), index = test_rand64(), r[2];
        ref_stream(r, seed, index);
        mulred_u128 v = mulred_mix_stream(seed, index);
        CU_ASSERT_FATAL(v.lo == r[0] && v.hi == r[1]);
    }
}

static void le_block(uint8_t out[16], mulred_u128 v)
{
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)(v.lo >> (8 * i));
        out[8 + i] = (uint8_t)(v.hi >> (8 * i));
    }
}

static void test_stream_fill_and_splits(void)
{
    enum { BLOCKS = 300 };
    uint64_t seed = test_rand64();
    /* Start near the top so the index range wraps past 2^64. */
    uint64_t base = test_rand_below(2) ? test_rand64() : UINT64_MAX - 100;
    static uint8_t whole[16 * BLOCKS], expect[16 * BLOCKS], parts[16 * BLOCKS];
    for (uint64_t k = 0; k < BLOCKS; k++) le_block(expect + 16 * k, mulred_mix_stream(seed, base + k));
    mulred_mix_fill(whole, sizeof whole, seed, base);
    CU_ASSERT_EQUAL(memcmp(whole, expect, sizeof whole), 0);

    /* Any split of the block range into pieces (as ranks and threads would) gives the same
     * bytes; piece lengths are whole blocks, odd and multiples of the 4-block unroll. */
    for (int trial = 0; trial < 200; trial++) {
        memset(parts, 0, sizeof parts);
        uint64_t k = 0;
        while (k < BLOCKS) {
            uint64_t n = 1 + test_rand_below(trial % 2 ? 9 : 70);
            if (n > BLOCKS - k) n = BLOCKS - k;
            mulred_mix_fill(parts + 16 * k, (size_t)(16 * n), seed, base + k);
            k += n;
        }
        CU_ASSERT_FATAL(memcmp(parts, expect, sizeof parts) == 0);
    }
    /* A length that is not a whole number of blocks is a prefix of the stream. */
    for (size_t len = 0; len < 100; len++) {
        uint8_t buf[112];
        memset(buf, 0xa5, sizeof buf);
        mulred_mix_fill(buf, len, seed, base);
        CU_ASSERT_FATAL(memcmp(buf, expect, len) == 0);
        CU_ASSERT_FATAL(buf[len] == 0xa5);
    }
    /* Different seeds give different streams for the same index. */
    mulred_u128 x = mulred_mix_stream(seed, base), y = mulred_mix_stream(seed ^ 1, base);
    CU_ASSERT(x.lo != y.lo || x.hi != y.hi);
}

void test_register(void)
{
    TEST_SUITE("mix stream", {"known answers", test_stream_reference},
               {"fill and any split of a range", test_stream_fill_and_splits});
}

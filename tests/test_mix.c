/* The mix lab (src/lab: the fast_mix variants against references written here from the
 * published descriptions, rotation constants spelled out; inverses; the avalanche measurement)
 * and the counter-based generator (src/mix). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lab/lab.h"
#include "mix/mix_stream.h" /* mix_fill_scalar: the non-AVX-512 path */

// clang-format off (the references keep the two-column layout of the published code)
/* ---- references from the published descriptions, independent of src/mix and src/lab ---- */

static uint64_t ref_rol64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The 64-bit fast_mix2 loop body of the 2014 discussion, constants 52, 10, 47, 17. */
static void ref_fastmix2_64(uint64_t *a, uint64_t *b, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        *a += *b;
        *b = ref_rol64(*b, 52);
        *b ^= *a;
        *a = ref_rol64(*a, 10);
        *a += *b;
        *b = ref_rol64(*b, 47);
        *b ^= *a;
        *a = ref_rol64(*a, 17);
    }
}

static uint32_t ref_rol32(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

/* 32-bit variants over words w[0..3] = a, b, c, d, `half` half-rounds; the pair of rotation
 * constants alternates (first, second, first, ...). */
static void ref_linux316(uint32_t w[4], int half)
{
    static const int k[2][2] = {{6, 27}, {16, 14}};
    uint32_t a = w[0], b = w[1], c = w[2], d = w[3];
    for (int h = 0; h < half; h++) {
        a += b;
        c += d;
        b = ref_rol32(b, k[h % 2][0]);
        d = ref_rol32(d, k[h % 2][1]);
        d ^= a;
        b ^= c;
    }
    w[0] = a, w[1] = b, w[2] = c, w[3] = d;
}

static void ref_spelvin32(uint32_t w[4], int half)
{
    static const int k[2][2] = {{15, 21}, {3, 7}};
    uint32_t a = w[0], b = w[1], c = w[2], d = w[3];
    for (int h = 0; h < half; h++) {
        a += b;
        c += d;
        d ^= a;
        b ^= c;
        a = ref_rol32(a, k[h % 2][0]);
        c = ref_rol32(c, k[h % 2][1]);
    }
    w[0] = a, w[1] = b, w[2] = c, w[3] = d;
}

static void ref_fastmix2_32(uint32_t w[4], int half)
{
    static const int k[2][2] = {{6, 27}, {16, 14}};
    uint32_t a = w[0], b = w[1], c = w[2], d = w[3];
    for (int h = 0; h < half; h++) {
        a += b;
        c += d;
        b = ref_rol32(a, k[h % 2][0]);
        d = ref_rol32(c, k[h % 2][1]);
        d ^= a;
        b ^= c;
    }
    w[0] = a, w[1] = b, w[2] = c, w[3] = d;
}

static void ref_fastmix2_64_half(uint64_t *a, uint64_t *b, int half)
{
    static const int k[2][2] = {{52, 10}, {47, 17}};
    for (int h = 0; h < half; h++) {
        *a += *b;
        *b = ref_rol64(*b, k[h % 2][0]);
        *b ^= *a;
        *a = ref_rol64(*a, k[h % 2][1]);
    }
}

/* HalfSipHash's SipRound (rotations 5, 16, 8, 7, 13, 16) absorbing each input word
 * as v3 ^= m; SipRound; v0 ^= m. */
static void ref_sipround(uint32_t v[4])
{
    v[0] += v[1];
    v[1] = ref_rol32(v[1], 5);
    v[1] ^= v[0];
    v[0] = ref_rol32(v[0], 16);
    v[2] += v[3];
    v[3] = ref_rol32(v[3], 8);
    v[3] ^= v[2];
    v[0] += v[3];
    v[3] = ref_rol32(v[3], 7);
    v[3] ^= v[0];
    v[2] += v[1];
    v[1] = ref_rol32(v[1], 13);
    v[1] ^= v[2];
    v[2] = ref_rol32(v[2], 16);
}

static void ref_siphash13(uint32_t v[4], const uint32_t m[4], int rounds)
{
    for (int i = 0; i < 4; i++) {
        v[3] ^= m[i];
        for (int r = 0; r < rounds; r++) ref_sipround(v);
        v[0] ^= m[i];
    }
}

/* The pre-2014 linear mix with its published twist table, starting at byte position 0 and
 * rotation 0: per byte, w = rol(byte, rot) ^ p[i] ^ p[i-1]; p[i] = (w >> 3) ^ twist[w & 7];
 * rot += 14 at word index 0, else 7. */
static void ref_linear(uint32_t p[4], const uint8_t in[16])
{
    static const uint32_t twist[8] = {0x00000000, 0x3b6e20c8, 0x76dc4190, 0x4db26158,
                                      0xedb88320, 0xd6d6a3e8, 0x9b64c2b0, 0xa00ae278};
    unsigned rot = 0;
    for (unsigned i = 0; i < 16; i++) {
        uint32_t w = (rot % 32 ? ref_rol32(in[i], (int)(rot % 32)) : in[i]);
        w ^= p[i % 4] ^ p[(i + 3) % 4];
        p[i % 4] = (w >> 3) ^ twist[w & 7];
        rot += i % 4 ? 7 : 14;
    }
}

// clang-format on

static void to_words(uint32_t w[4], mulred_u128 x)
{
    w[0] = (uint32_t)x.lo, w[1] = (uint32_t)(x.lo >> 32);
    w[2] = (uint32_t)x.hi, w[3] = (uint32_t)(x.hi >> 32);
}
static mulred_u128 from_words(const uint32_t w[4])
{
    return (mulred_u128){w[0] | (uint64_t)w[1] << 32, w[2] | (uint64_t)w[3] << 32};
}
static mulred_u128 rand128(void)
{
    mulred_u128 x = {test_rand64(), 0};
    x.hi = test_rand64();
    return x;
}
static int eq128(mulred_u128 x, mulred_u128 y)
{
    return x.lo == y.lo && x.hi == y.hi;
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

    /* Values computed by tests/tools/mix_kat.py, a Python transcription of the same spec (the
     * generator keyed with the two pi constants, 4 rounds); tests/repo/mix_kat.sh checks that
     * it reproduces this table. */
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
    for (uint64_t k = 0; k < BLOCKS; k++)
        le_block(expect + 16 * k, mulred_mix_stream(seed, base + k));
    mulred_mix_fill(whole, sizeof whole, seed, base);
    CU_ASSERT_EQUAL(memcmp(whole, expect, sizeof whole), 0);
    memset(whole, 0, sizeof whole);
    mix_fill_scalar(whole, sizeof whole, seed, base);
    CU_ASSERT_EQUAL(memcmp(whole, expect, sizeof whole), 0);

    /* Any split of the block range into pieces (as ranks and threads would) gives the same
     * bytes; piece lengths are whole blocks, odd and multiples of the 4-block unroll. */
    for (int trial = 0; trial < 200; trial++) {
        memset(parts, 0, sizeof parts);
        uint64_t k = 0;
        while (k < BLOCKS) {
            uint64_t n = 1 + test_rand_below(trial % 2 ? 9 : 70);
            if (n > BLOCKS - k) n = BLOCKS - k;
            if (trial % 3 == 2)
                mix_fill_scalar(parts + 16 * k, (size_t)(16 * n), seed, base + k);
            else
                mulred_mix_fill(parts + 16 * k, (size_t)(16 * n), seed, base + k);
            k += n;
        }
        CU_ASSERT_FATAL(memcmp(parts, expect, sizeof parts) == 0);
    }
    /* A length that is not a whole number of blocks is a prefix of the stream. */
    for (size_t len = 0; len < 300; len++) {
        uint8_t buf[320];
        memset(buf, 0xa5, sizeof buf);
        mulred_mix_fill(buf, len, seed, base);
        CU_ASSERT_FATAL(memcmp(buf, expect, len) == 0);
        CU_ASSERT_FATAL(buf[len] == 0xa5);
    }
    /* Different seeds give different streams for the same index. */
    mulred_u128 x = mulred_mix_stream(seed, base), y = mulred_mix_stream(seed ^ 1, base);
    CU_ASSERT(x.lo != y.lo || x.hi != y.hi);
}

/* ---- variants ---- */

static void test_half_rounds_by_hand(void)
{
    /* (a, b, c, d) = (1, 0, 0, 0), worked through the text of each variant by hand. */
    const mulred_u128 one = {1, 0};
    /* linux316 (6, 27): a = 1, b = d = 0 -> d ^= a: d = 1. (16, 14): a = 1, c = 1,
     * d = rol(1, 14) ^ 1 = 0x4001, b = 0 ^ c = 1. */
    mulred_u128 y = mulred_mix_permute(MULRED_MIX_LINUX316, 1, one);
    CU_ASSERT(eq128(y, (mulred_u128){1, (uint64_t)1 << 32}));
    y = mulred_mix_permute(MULRED_MIX_LINUX316, 2, one);
    CU_ASSERT(eq128(y, (mulred_u128){1 | (uint64_t)1 << 32, 1 | (uint64_t)0x4001 << 32}));
    /* spelvin32 (15, 21): d = 1, a = rol(1, 15) = 0x8000. (3, 7): c = 1, d = 0x8001, b = 1,
     * a = 0x8000 << 3 = 0x40000, c = 1 << 7 = 0x80. */
    y = mulred_mix_permute(MULRED_MIX_SPELVIN32, 1, one);
    CU_ASSERT(eq128(y, (mulred_u128){0x8000, (uint64_t)1 << 32}));
    y = mulred_mix_permute(MULRED_MIX_SPELVIN32, 2, one);
    CU_ASSERT(eq128(y, (mulred_u128){0x40000 | (uint64_t)1 << 32, 0x80 | (uint64_t)0x8001 << 32}));
    /* fastmix2_32 (6, 27): b = rol(1, 6) = 0x40, d = 1. (16, 14): a = 0x41, c = 1,
     * b = rol(0x41, 16) ^ 1 = 0x410001, d = rol(1, 14) ^ 0x41 = 0x4041. */
    y = mulred_mix_permute(MULRED_MIX_FASTMIX2_32, 1, one);
    CU_ASSERT(eq128(y, (mulred_u128){1 | (uint64_t)0x40 << 32, (uint64_t)1 << 32}));
    y = mulred_mix_permute(MULRED_MIX_FASTMIX2_32, 2, one);
    CU_ASSERT(eq128(y, (mulred_u128){0x41 | (uint64_t)0x410001 << 32, 1 | (uint64_t)0x4041 << 32}));
    /* fastmix2_64, one round: the worked example of test_stream_reference. */
    y = mulred_mix_permute(MULRED_MIX_FASTMIX2_64, 2, one);
    CU_ASSERT(eq128(y, (mulred_u128){0x8020000ull, 0x800000000401ull}));
}

/* Values computed by tests/tools/mix_kat.py from the variant descriptions (published rounds);
 * tests/repo/mix_kat.sh checks that it reproduces this table. The linux316 rows are also Linux's
 * own: fast_mix taken from a kernel's drivers/char/random.c (the ARX version of 3.16-5.17) and
 * compiled on these inputs gives them (tests/tools/mix_linux_check.sh random.c, run with the
 * kernel function as v4.x-5.17 has it). The rest rest on the descriptions alone: spelvin32
 * and fastmix2_* are proposals of the 2014 LKML discussion with no released code, linear is
 * the pre-2014 kernel's byte-wise twist-table mixer and siphash13 HalfSipHash's round, whose
 * code was not checked against here (docs/mix.md). */
static void test_known_answers(void)
{
    static const struct {
        uint64_t pool[2], in[2];
        uint64_t linux316[2], spelvin32[2], fastmix2_32[2], fm64[4][2], siphash13[2], linear[2];
    } kat[] = {
        {{0, 0},
         {1, 0},
         {0x4842420400004044ull, 0x80c24408004204ull},
         {0x230a44c9258c8180ull, 0x14981412b5e66990ull},
         {0x4ae1a0c373927949ull, 0x474635a333a8d351ull},
         {{0x8020000ull, 0x800000000401ull},
          {0x50202410028421ull, 0x4010202050160c00ull},
          {0xa58d88bc2c8402caull, 0xc9c592f4e4fd274cull},
          {0x985c86ef7f02d01cull, 0xdaec41e18083a0e6ull}},
         {0x47ff41a651206838ull, 0x66d384630ec30bb7ull},
         {0xe9a605bb17387deull, 0xcb5cd3a58cb315efull}},
        {{0x0123456789abcdefull, 0xfedcba9876543210ull},
         {0x1111111122222222ull, 0x3333333344444444ull},
         {0x22a802776395003bull, 0xd623f94a2cbeaeb2ull},
         {0x33eb2c67d17764dbull, 0x3dd0663c320a0820ull},
         {0xd0a39e5540bdaa61ull, 0xf707b4d17ac2dee8ull},
         {{0x109f61839d3c85cbull, 0xe176d5f930ad6d0aull},
          {0x2692748c9f96f72cull, 0x79782152a4e86f6ull},
          {0x2e02fd60c705d248ull, 0x44137a5b95c97d9ull},
          {0x162f07c50962c151ull, 0x9f5cacfdbb6879adull}},
         {0x94cebe31acdd6baeull, 0x46103e36effc704cull},
         {0x62cf4a412f5e1342ull, 0x30150d473d1404d4ull}},
    };
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        mulred_u128 pool0 = {kat[i].pool[0], kat[i].pool[1]}, in = {kat[i].in[0], kat[i].in[1]};
        mulred_mix_pool p;
#define CHECK(call, want)                                                                          \
    do {                                                                                           \
        mulred_mix_pool_init(&p, pool0);                                                           \
        call;                                                                                      \
        CU_ASSERT(p.w[0] == (want)[0] && p.w[1] == (want)[1]);                                     \
        CU_ASSERT_EQUAL(p.count, 1);                                                               \
    } while (0)
        CHECK(mulred_mix_linux316(&p, in), kat[i].linux316);
        CHECK(mulred_mix_spelvin32(&p, in), kat[i].spelvin32);
        CHECK(mulred_mix_fastmix2_32(&p, in), kat[i].fastmix2_32);
        for (unsigned r = 1; r <= 4; r++) {
            CHECK(mulred_mix_fastmix2_64(&p, in, r), kat[i].fm64[r - 1]);
            CHECK(mulred_mix(&p, MULRED_MIX_FASTMIX2_64, 2 * r, in), kat[i].fm64[r - 1]);
        }
        CHECK(mulred_mix_siphash13(&p, in), kat[i].siphash13);
        CHECK(mulred_mix_linear(&p, in), kat[i].linear);
        CHECK(mulred_mix(&p, MULRED_MIX_LINUX316, 4, in), kat[i].linux316);
        CHECK(mulred_mix(&p, MULRED_MIX_SPELVIN32, 6, in), kat[i].spelvin32);
        CHECK(mulred_mix(&p, MULRED_MIX_FASTMIX2_32, 6, in), kat[i].fastmix2_32);
        CHECK(mulred_mix(&p, MULRED_MIX_SIPHASH13, 2, in), kat[i].siphash13);
        CHECK(mulred_mix(&p, MULRED_MIX_LINEAR, 2, in), kat[i].linear);
#undef CHECK
    }
}

/* Every variant at every half-round count against the references above, random inputs. */
static void test_against_references(void)
{
    for (int t = 0; t < 2000; t++) {
        mulred_u128 x = rand128(), pool0 = rand128();
        for (unsigned h = 1; h <= MULRED_MIX_MAX_HALF_ROUNDS; h++) {
            uint32_t w[4];
            to_words(w, x);
            ref_linux316(w, (int)h);
            CU_ASSERT_FATAL(eq128(mulred_mix_permute(MULRED_MIX_LINUX316, h, x), from_words(w)));
            to_words(w, x);
            ref_spelvin32(w, (int)h);
            CU_ASSERT_FATAL(eq128(mulred_mix_permute(MULRED_MIX_SPELVIN32, h, x), from_words(w)));
            to_words(w, x);
            ref_fastmix2_32(w, (int)h);
            CU_ASSERT_FATAL(eq128(mulred_mix_permute(MULRED_MIX_FASTMIX2_32, h, x), from_words(w)));
            uint64_t a = x.lo, b = x.hi;
            ref_fastmix2_64_half(&a, &b, (int)h);
            CU_ASSERT_FATAL(
                eq128(mulred_mix_permute(MULRED_MIX_FASTMIX2_64, h, x), ((mulred_u128){a, b})));
            if (h % 2 == 0) {
                uint32_t v[4], m[4];
                to_words(v, pool0);
                to_words(m, x);
                ref_siphash13(v, m, (int)h / 2);
                mulred_mix_pool p;
                mulred_mix_pool_init(&p, pool0);
                mulred_mix(&p, MULRED_MIX_SIPHASH13, h, x);
                CU_ASSERT_FATAL(eq128((mulred_u128){p.w[0], p.w[1]}, from_words(v)));
            }
        }
        /* xor-first: mixing input into a pool is the map of pool ^ input. */
        mulred_mix_pool p;
        mulred_mix_pool_init(&p, pool0);
        mulred_mix(&p, MULRED_MIX_SPELVIN32, 6, x);
        mulred_u128 px = {pool0.lo ^ x.lo, pool0.hi ^ x.hi};
        CU_ASSERT_FATAL(
            eq128((mulred_u128){p.w[0], p.w[1]}, mulred_mix_permute(MULRED_MIX_SPELVIN32, 6, px)));
        /* linear from a fresh position. */
        uint32_t lp[4];
        uint8_t bytes[16];
        to_words(lp, pool0);
        for (int k = 0; k < 8; k++) {
            bytes[k] = (uint8_t)(x.lo >> (8 * k));
            bytes[8 + k] = (uint8_t)(x.hi >> (8 * k));
        }
        ref_linear(lp, bytes);
        mulred_mix_pool_init(&p, pool0);
        mulred_mix_linear(&p, x);
        CU_ASSERT_FATAL(eq128((mulred_u128){p.w[0], p.w[1]}, from_words(lp)));
        /* The generator as a variant is the stream of (seed, index) = pool ^ input. */
        mulred_u128 g = mulred_mix_stream(px.lo, px.hi);
        CU_ASSERT_FATAL(eq128(mulred_mix_permute(MULRED_MIX_GENERATOR, 8, px), g));
    }
}

static void test_inverses(void)
{
    static const mulred_mix_variant inv[] = {MULRED_MIX_LINUX316, MULRED_MIX_SPELVIN32,
                                             MULRED_MIX_FASTMIX2_64, MULRED_MIX_GENERATOR};
    for (size_t i = 0; i < sizeof inv / sizeof inv[0]; i++) {
        const mulred_mix_info *info = mulred_mix_variant_info(inv[i]);
        CU_ASSERT(info->invertible);
        for (unsigned h = info->half_min; h <= info->half_max; h++) {
            for (int t = 0; t < 500; t++) {
                mulred_u128 x = rand128();
                mulred_u128 y = mulred_mix_permute(inv[i], h, x);
                CU_ASSERT_FATAL(eq128(mulred_mix_unpermute(inv[i], h, y), x));
                CU_ASSERT_FATAL(
                    eq128(mulred_mix_permute(inv[i], h, mulred_mix_unpermute(inv[i], h, x)), x));
            }
        }
    }
    /* fastmix2_32 is not: flipping the top bits of a and b leaves a + b, and so every
     * output word, unchanged (the 3.16 typo fixed in 2015). */
    CU_ASSERT_FALSE(mulred_mix_variant_info(MULRED_MIX_FASTMIX2_32)->invertible);
    mulred_u128 x = rand128(), x2 = x;
    x2.lo ^= 1ull << 31 | 1ull << 63;
    CU_ASSERT(eq128(mulred_mix_permute(MULRED_MIX_FASTMIX2_32, 6, x),
                    mulred_mix_permute(MULRED_MIX_FASTMIX2_32, 6, x2)));
}

static void test_names(void)
{
    for (int v = 0; v < MULRED_MIX_NVARIANTS; v++) {
        mulred_mix_variant back;
        const mulred_mix_info *info = mulred_mix_variant_info((mulred_mix_variant)v);
        CU_ASSERT_EQUAL_FATAL(mulred_mix_variant_parse(info->name, &back), 0);
        CU_ASSERT_EQUAL(back, v);
        CU_ASSERT(info->half_min <= info->half_default && info->half_default <= info->half_max);
    }
    mulred_mix_variant v;
    CU_ASSERT_EQUAL(mulred_mix_variant_parse("fast_mix", &v), -1);
}

/* ---- avalanche lab ---- */

static mulred_mix_avalanche_result lab(mulred_mix_variant v, unsigned half, uint64_t trials,
                                       bool inverse, int threads)
{
    mulred_mix_avalanche_params p;
    mulred_mix_avalanche_defaults(&p, v);
    p.half_rounds = half;
    p.trials = trials;
    p.seed = test_rand64();
    p.inverse = inverse;
    p.threads = threads;
    mulred_mix_avalanche_result r;
    CU_ASSERT_EQUAL_FATAL(mulred_mix_avalanche(&r, &p), 0);
    return r;
}

static void test_lab_scores(void)
{
    /* One half-round: a flipped bit reaches at most a handful of outputs, and always the
     * same ones (flip probability 0 or 1), so hardly any land in [1/4, 3/4]. */
    mulred_mix_avalanche_result r = lab(MULRED_MIX_LINUX316, 1, 200, false, 0);
    CU_ASSERT(r.score <= 4);
    CU_ASSERT(r.mean_flip < 0.1);
    CU_ASSERT_DOUBLE_EQUAL(r.worst_bias, 1.0, 1e-12);
    r = lab(MULRED_MIX_FASTMIX2_64, 1, 200, true, 0);
    CU_ASSERT(r.score <= 4);
    /* Linear over GF(2): every flip probability is exactly 0 or 1. */
    r = lab(MULRED_MIX_LINEAR, 2, 100, false, 0);
    CU_ASSERT_EQUAL(r.score, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.worst_bias, 1.0, 1e-12);
    /* The lossy 32-bit tweak: the pair (bit 31 of a, bit 31 of b) never changes the output. */
    r = lab(MULRED_MIX_FASTMIX2_32, 6, 100, false, 0);
    CU_ASSERT_EQUAL(r.score2, 0);
    /* The generator: full avalanche both ways. At 400 trials the window edges are 10 standard
     * deviations from 1/2, so noise cannot push a fair bit out. */
    r = lab(MULRED_MIX_GENERATOR, 8, 400, false, 0);
    CU_ASSERT(r.score >= 127);
    CU_ASSERT_DOUBLE_EQUAL(r.mean_flip, 0.5, 0.01);
    r = lab(MULRED_MIX_GENERATOR, 8, 400, true, 0);
    CU_ASSERT(r.score >= 127);
}

static void test_lab_threads_and_params(void)
{
    mulred_mix_avalanche_params p;
    mulred_mix_avalanche_defaults(&p, MULRED_MIX_SPELVIN32);
    p.trials = 300;
    p.half_rounds = 4;
    p.seed = test_rand64();
    mulred_mix_avalanche_result r1, r2;
    p.threads = 1;
    CU_ASSERT_EQUAL_FATAL(mulred_mix_avalanche(&r1, &p), 0);
    p.threads = 2;
    CU_ASSERT_EQUAL_FATAL(mulred_mix_avalanche(&r2, &p), 0);
    CU_ASSERT(r1.score == r2.score && r1.score1 == r2.score1 && r1.score2 == r2.score2);
    CU_ASSERT(r1.mean_flip == r2.mean_flip && r1.worst_bias == r2.worst_bias);

    mulred_mix_avalanche_result r;
    mulred_mix_avalanche_params bad = p;
    bad.trials = 0;
    CU_ASSERT_EQUAL(mulred_mix_avalanche(&r, &bad), -1);
    bad = p, bad.half_rounds = 0;
    CU_ASSERT_EQUAL(mulred_mix_avalanche(&r, &bad), -1);
    bad = p, bad.half_rounds = MULRED_MIX_MAX_HALF_ROUNDS + 1;
    CU_ASSERT_EQUAL(mulred_mix_avalanche(&r, &bad), -1);
    bad = p, bad.variant = MULRED_MIX_FASTMIX2_32, bad.inverse = true;
    CU_ASSERT_EQUAL(mulred_mix_avalanche(&r, &bad), -1);
    bad = p, bad.window_lo = 0.8;
    CU_ASSERT_EQUAL(mulred_mix_avalanche(&r, &bad), -1);
    bad = p, bad.variant = MULRED_MIX_LINEAR, bad.half_rounds = 4;
    CU_ASSERT_EQUAL(mulred_mix_avalanche(&r, &bad), -1);
}

void test_register(void)
{
    TEST_SUITE("mix variants", {"half-rounds by hand", test_half_rounds_by_hand},
               {"known answers", test_known_answers},
               {"against references, all half-rounds", test_against_references},
               {"inverses", test_inverses}, {"names", test_names});
    TEST_SUITE("mix avalanche lab", {"scores", test_lab_scores},
               {"threads and parameters", test_lab_threads_and_params});
    TEST_SUITE("mix stream", {"known answers", test_stream_reference},
               {"fill and any split of a range", test_stream_fill_and_splits});
}

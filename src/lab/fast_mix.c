/* The fast_mix family (lab.h). Each variant is written as a half-round function of the 128-bit
 * state (four u32 or two u64 words) with its rotation pair, and a round is two half-rounds. The
 * fixed-configuration entry points are unrolled by the compiler (constant trip counts) so the
 * benchmark times the same straight-line code the kernel ran; the variable-count path
 * (mulred_mix, the lab) loops.
 *
 * Invertibility, which decides whether the lab can also score the inverse: an ARX half-round
 * is a bijection when every word it overwrites can be recomputed from the others (x += y,
 * x ^= y, x = rol(x, k)). fastmix2_32 (the 32-bit fast_mix2 as one 2014 diff wrote it)
 * overwrites b with rol(a, 6) after a += b, so the outputs depend on (a + b, c + d) only: 64 of
 * the 128 bits are lost on every call, the typo that Linux fixed in 2015. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "mix/mix_stream.h"
#include "util/check.h"

static inline uint32_t mix_rol32(uint32_t x, unsigned k)
{
    return (x << (k & 31)) | (x >> ((32 - k) & 31));
}

typedef struct {
    uint32_t a, b, c, d;
} words32;

static words32 split32(mulred_u128 x)
{
    return (words32){(uint32_t)x.lo, (uint32_t)(x.lo >> 32), (uint32_t)x.hi,
                     (uint32_t)(x.hi >> 32)};
}
static mulred_u128 join32(words32 s)
{
    return (mulred_u128){(uint64_t)s.a | (uint64_t)s.b << 32, (uint64_t)s.c | (uint64_t)s.d << 32};
}

/* ---- linux316: a += b, c += d; b, d rotate in place; cross-xor. Pairs (6, 27), (16, 14). */
static const unsigned linux316_rot[2][2] = {{6, 27}, {16, 14}};

static inline void linux316_half(words32 *s, unsigned k1, unsigned k2)
{
    s->a += s->b, s->c += s->d;
    s->b = mix_rol32(s->b, k1), s->d = mix_rol32(s->d, k2);
    s->d ^= s->a, s->b ^= s->c;
}
static inline void linux316_unhalf(words32 *s, unsigned k1, unsigned k2)
{
    s->b ^= s->c, s->d ^= s->a;
    s->b = mix_rol32(s->b, 32 - k1), s->d = mix_rol32(s->d, 32 - k2);
    s->a -= s->b, s->c -= s->d;
}

/* ---- spelvin32: add, cross-xor, then rotate a and c. Pairs (15, 21), (3, 7). */
static const unsigned spelvin32_rot[2][2] = {{15, 21}, {3, 7}};

static inline void spelvin32_half(words32 *s, unsigned k1, unsigned k2)
{
    s->a += s->b, s->c += s->d;
    s->d ^= s->a, s->b ^= s->c;
    s->a = mix_rol32(s->a, k1), s->c = mix_rol32(s->c, k2);
}
static inline void spelvin32_unhalf(words32 *s, unsigned k1, unsigned k2)
{
    s->a = mix_rol32(s->a, 32 - k1), s->c = mix_rol32(s->c, 32 - k2);
    s->b ^= s->c, s->d ^= s->a;
    s->a -= s->b, s->c -= s->d;
}

/* ---- fastmix2_32: b = rol(a, k1), d = rol(c, k2) replace b and d. Pairs (6, 27), (16, 14). */
static inline void fastmix2_32_half(words32 *s, unsigned k1, unsigned k2)
{
    s->a += s->b, s->c += s->d;
    s->b = mix_rol32(s->a, k1), s->d = mix_rol32(s->c, k2);
    s->d ^= s->a, s->b ^= s->c;
}

/* ---- fastmix2_64: pairs (52, 10), (47, 17) as in mix_stream.h, one half at a time. */
static const unsigned fastmix2_64_rot[2][2] = {{52, 10}, {47, 17}};

static inline void fastmix2_64_half(uint64_t *a, uint64_t *b, unsigned k1, unsigned k2)
{
    *a += *b, *b = mix_rol64(*b, k1);
    *b ^= *a, *a = mix_rol64(*a, k2);
}
static inline void fastmix2_64_unhalf(uint64_t *a, uint64_t *b, unsigned k1, unsigned k2)
{
    *a = mix_rol64(*a, 64 - k2), *b ^= *a;
    *b = mix_rol64(*b, 64 - k1), *a -= *b;
}

/* ---- siphash13: the HalfSipHash round (Aumasson's 32-bit SipHash; rotations 5, 16, 8 then
 * 7, 13, 16), split at its midpoint into two half-rounds. Linux 5.18+ absorbs each input word
 * w as v3 ^= w; round; v0 ^= w (SipHash-1-x: one compression round per word, finalization
 * deferred to extraction). With 128 bits of input that is four absorptions per call. */
static inline void siphash_half(words32 *s, unsigned which)
{
    if (which == 0) {
        s->a += s->b, s->b = mix_rol32(s->b, 5), s->b ^= s->a, s->a = mix_rol32(s->a, 16);
        s->c += s->d, s->d = mix_rol32(s->d, 8), s->d ^= s->c;
    } else {
        s->a += s->d, s->d = mix_rol32(s->d, 7), s->d ^= s->a;
        s->c += s->b, s->b = mix_rol32(s->b, 13), s->b ^= s->c, s->c = mix_rol32(s->c, 16);
    }
}

static void siphash13_absorb(mulred_mix_pool *pool, unsigned half_rounds, mulred_u128 input)
{
    words32 s = split32((mulred_u128){pool->w[0], pool->w[1]});
    words32 in = split32(input);
    const uint32_t w[4] = {in.a, in.b, in.c, in.d};
    for (int i = 0; i < 4; i++) {
        s.d ^= w[i];
        for (unsigned h = 0; h < half_rounds; h++) siphash_half(&s, h & 1);
        s.a ^= w[i];
    }
    mulred_u128 out = join32(s);
    pool->w[0] = out.lo, pool->w[1] = out.hi;
}

/* ---- linear: the pre-2014 per-byte update of one pool word,
 *   w = rol32(byte, rotate) ^ pool[i] ^ pool[i - 1];  pool[i] = w * x^-3,
 * a twisted GFSR with feedback tap i - 1 (mod 4). Multiplying by x^-3 in GF(2)[x] modulo the
 * reflected CRC-32 polynomial shifts right by 3 and folds the 3 dropped bits back in:
 * twist[t] = XOR over set bits j of t of (0xedb88320 >> (2 - j)); the table is built from that
 * rule at compile time (the tests check it against the historical values). The rotation
 * advances by 7 per byte and by 14 when the word index wraps, so the 16 bytes of one call land
 * at different offsets. Bytes are unsigned here; the historical code read them through a
 * (signed) char, which sign-extends bytes >= 0x80 before rotating. The map is linear over
 * GF(2) in pool and input together: no output bit can flip with a probability other than 0 or
 * 1, which is why its avalanche score is 0. Cost: the pool word index varies per byte, so the
 * pool lives in memory and every byte waits on a store-to-load round trip. */
#define CRC32_REFLECTED 0xedb88320u
#define TWIST(t)                                                                                   \
    (((t)&1 ? CRC32_REFLECTED >> 2 : 0) ^ ((t)&2 ? CRC32_REFLECTED >> 1 : 0) ^                     \
     ((t)&4 ? CRC32_REFLECTED : 0))
static const uint32_t linear_twist[8] = {TWIST(0), TWIST(1), TWIST(2), TWIST(3),
                                         TWIST(4), TWIST(5), TWIST(6), TWIST(7)};

static void linear_absorb(mulred_mix_pool *pool, mulred_u128 input)
{
    uint32_t p[4] = {(uint32_t)pool->w[0], (uint32_t)(pool->w[0] >> 32), (uint32_t)pool->w[1],
                     (uint32_t)(pool->w[1] >> 32)};
    uint32_t i = pool->pos, rot = pool->rotate;
    for (int k = 0; k < 16; k++) {
        uint32_t byte =
            (uint32_t)((k < 8 ? input.lo >> (8 * k) : input.hi >> (8 * (k - 8))) & 0xff);
        uint32_t w = mix_rol32(byte, rot & 31) ^ p[i & 3] ^ p[(i + 3) & 3];
        p[i & 3] = (w >> 3) ^ linear_twist[w & 7];
        rot += (i & 3) ? 7 : 14;
        i++;
    }
    pool->pos = i, pool->rotate = rot;
    pool->w[0] = (uint64_t)p[0] | (uint64_t)p[1] << 32;
    pool->w[1] = (uint64_t)p[2] | (uint64_t)p[3] << 32;
}

/* ---- table and dispatch ---- */

static const mulred_mix_info infos[MULRED_MIX_NVARIANTS] = {
    [MULRED_MIX_LINUX316] = {"linux316", 4, 1, MULRED_MIX_MAX_HALF_ROUNDS, true, true},
    [MULRED_MIX_SPELVIN32] = {"spelvin32", 6, 1, MULRED_MIX_MAX_HALF_ROUNDS, true, true},
    [MULRED_MIX_FASTMIX2_32] = {"fastmix2_32", 6, 1, MULRED_MIX_MAX_HALF_ROUNDS, true, false},
    [MULRED_MIX_FASTMIX2_64] = {"fastmix2_64", 6, 1, MULRED_MIX_MAX_HALF_ROUNDS, true, true},
    [MULRED_MIX_SIPHASH13] = {"siphash13", 2, 1, MULRED_MIX_MAX_HALF_ROUNDS, false, false},
    [MULRED_MIX_LINEAR] = {"linear", 2, 2, 2, false, false},
    [MULRED_MIX_GENERATOR] = {"generator", 2 * MIX_STREAM_ROUNDS, 2 * MIX_STREAM_ROUNDS,
                              2 * MIX_STREAM_ROUNDS, true, true},
};

const mulred_mix_info *mulred_mix_variant_info(mulred_mix_variant v)
{
    MULRED_CHECK((unsigned)v < MULRED_MIX_NVARIANTS, "no mix variant %d", (int)v);
    return &infos[v];
}

int mulred_mix_variant_parse(const char *name, mulred_mix_variant *v)
{
    for (int i = 0; i < MULRED_MIX_NVARIANTS; i++) {
        if (strcmp(infos[i].name, name) == 0) {
            *v = (mulred_mix_variant)i;
            return 0;
        }
    }
    return -1;
}

void mulred_mix_pool_init(mulred_mix_pool *pool, mulred_u128 value)
{
    memset(pool, 0, sizeof *pool);
    pool->w[0] = value.lo, pool->w[1] = value.hi;
}

static void check_half_rounds(mulred_mix_variant v, unsigned half_rounds)
{
    const mulred_mix_info *info = mulred_mix_variant_info(v);
    MULRED_CHECK(half_rounds >= info->half_min && half_rounds <= info->half_max,
                 "%s takes %u-%u half-rounds, got %u", info->name, info->half_min, info->half_max,
                 half_rounds);
}

mulred_u128 mulred_mix_permute(mulred_mix_variant v, unsigned half_rounds, mulred_u128 x)
{
    check_half_rounds(v, half_rounds);
    words32 s = split32(x);
    uint64_t a = x.lo, b = x.hi;
    switch (v) {
    case MULRED_MIX_LINUX316:
        for (unsigned h = 0; h < half_rounds; h++)
            linux316_half(&s, linux316_rot[h & 1][0], linux316_rot[h & 1][1]);
        return join32(s);
    case MULRED_MIX_SPELVIN32:
        for (unsigned h = 0; h < half_rounds; h++)
            spelvin32_half(&s, spelvin32_rot[h & 1][0], spelvin32_rot[h & 1][1]);
        return join32(s);
    case MULRED_MIX_FASTMIX2_32:
        for (unsigned h = 0; h < half_rounds; h++)
            fastmix2_32_half(&s, linux316_rot[h & 1][0], linux316_rot[h & 1][1]);
        return join32(s);
    case MULRED_MIX_GENERATOR:
        a ^= MIX_STREAM_K0, b ^= MIX_STREAM_K1;
        /* fall through */
    case MULRED_MIX_FASTMIX2_64:
        for (unsigned h = 0; h < half_rounds; h++)
            fastmix2_64_half(&a, &b, fastmix2_64_rot[h & 1][0], fastmix2_64_rot[h & 1][1]);
        return (mulred_u128){a, b};
    default:
        mulred_check_fail(__FILE__, __LINE__, "xor-first variant", "%s is not xor-first",
                          infos[v].name);
    }
}

mulred_u128 mulred_mix_unpermute(mulred_mix_variant v, unsigned half_rounds, mulred_u128 y)
{
    check_half_rounds(v, half_rounds);
    words32 s = split32(y);
    uint64_t a = y.lo, b = y.hi;
    switch (v) {
    case MULRED_MIX_LINUX316:
        for (unsigned h = half_rounds; h-- > 0;)
            linux316_unhalf(&s, linux316_rot[h & 1][0], linux316_rot[h & 1][1]);
        return join32(s);
    case MULRED_MIX_SPELVIN32:
        for (unsigned h = half_rounds; h-- > 0;)
            spelvin32_unhalf(&s, spelvin32_rot[h & 1][0], spelvin32_rot[h & 1][1]);
        return join32(s);
    case MULRED_MIX_FASTMIX2_64:
    case MULRED_MIX_GENERATOR:
        for (unsigned h = half_rounds; h-- > 0;)
            fastmix2_64_unhalf(&a, &b, fastmix2_64_rot[h & 1][0], fastmix2_64_rot[h & 1][1]);
        if (v == MULRED_MIX_GENERATOR) a ^= MIX_STREAM_K0, b ^= MIX_STREAM_K1;
        return (mulred_u128){a, b};
    default:
        mulred_check_fail(__FILE__, __LINE__, "invertible variant", "%s is not invertible",
                          infos[v].name);
    }
}

void mulred_mix(mulred_mix_pool *pool, mulred_mix_variant v, unsigned half_rounds,
                mulred_u128 input)
{
    check_half_rounds(v, half_rounds);
    if (v == MULRED_MIX_SIPHASH13) {
        siphash13_absorb(pool, half_rounds, input);
    } else if (v == MULRED_MIX_LINEAR) {
        linear_absorb(pool, input);
    } else {
        mulred_u128 x = {pool->w[0] ^ input.lo, pool->w[1] ^ input.hi};
        mulred_u128 y = mulred_mix_permute(v, half_rounds, x);
        pool->w[0] = y.lo, pool->w[1] = y.hi;
    }
    pool->count++;
}

/* ---- fixed configurations: constant trip counts, fully unrolled ---- */

static inline words32 load_xor32(const mulred_mix_pool *pool, mulred_u128 input)
{
    return split32((mulred_u128){pool->w[0] ^ input.lo, pool->w[1] ^ input.hi});
}
static inline void store32(mulred_mix_pool *pool, words32 s)
{
    mulred_u128 y = join32(s);
    pool->w[0] = y.lo, pool->w[1] = y.hi;
    pool->count++;
}

void mulred_mix_linux316(mulred_mix_pool *pool, mulred_u128 input)
{
    words32 s = load_xor32(pool, input);
    for (int r = 0; r < 2; r++) {
        linux316_half(&s, 6, 27);
        linux316_half(&s, 16, 14);
    }
    store32(pool, s);
}

void mulred_mix_spelvin32(mulred_mix_pool *pool, mulred_u128 input)
{
    words32 s = load_xor32(pool, input);
    for (int r = 0; r < 3; r++) {
        spelvin32_half(&s, 15, 21);
        spelvin32_half(&s, 3, 7);
    }
    store32(pool, s);
}

void mulred_mix_fastmix2_32(mulred_mix_pool *pool, mulred_u128 input)
{
    words32 s = load_xor32(pool, input);
    for (int r = 0; r < 3; r++) {
        fastmix2_32_half(&s, 6, 27);
        fastmix2_32_half(&s, 16, 14);
    }
    store32(pool, s);
}

static inline void fastmix2_64_rounds(mulred_mix_pool *pool, mulred_u128 input, int rounds)
{
    uint64_t a = pool->w[0] ^ input.lo, b = pool->w[1] ^ input.hi;
    for (int r = 0; r < rounds; r++) mix_fastmix2_64_round(&a, &b);
    pool->w[0] = a, pool->w[1] = b;
    pool->count++;
}

void mulred_mix_fastmix2_64(mulred_mix_pool *pool, mulred_u128 input, unsigned rounds)
{
    switch (rounds) {
    case 1:
        fastmix2_64_rounds(pool, input, 1);
        break;
    case 2:
        fastmix2_64_rounds(pool, input, 2);
        break;
    case 3:
        fastmix2_64_rounds(pool, input, 3);
        break;
    case 4:
        fastmix2_64_rounds(pool, input, 4);
        break;
    default:
        mulred_check_fail(__FILE__, __LINE__, "rounds in 1..4",
                          "fastmix2_64 takes 1-4 rounds, got %u", rounds);
    }
}

void mulred_mix_siphash13(mulred_mix_pool *pool, mulred_u128 input)
{
    siphash13_absorb(pool, 2, input);
    pool->count++;
}

void mulred_mix_linear(mulred_mix_pool *pool, mulred_u128 input)
{
    linear_absorb(pool, input);
    pool->count++;
}

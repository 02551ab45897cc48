/* The fast_mix family of 128-bit pool mixers and the counter-based stream built on the best of
 * them (see src/mix/). */
#ifndef MULRED_MIX_H
#define MULRED_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t lo, hi;
} mulred_u128;

/* 128 pseudo-random bits for (seed, index): a pure function, so any rank or thread can
 * generate any index range. Block = 4 rounds of fastmix2_64 over (seed ^ 0x243f6a8885a308d3,
 * index ^ 0x13198a2e03707344), lo = first word; a bijection of the 128-bit (seed, index) pair.
 * Not cryptographic (ARX without key schedule): for synthetic workloads only. Constant time. */
mulred_u128 mulred_mix_stream(uint64_t seed, uint64_t index);
/* Fills len bytes with the stream of (seed) starting at block `index` (16 bytes per block):
 * bytes [16k, 16k+16) are the little-endian bytes of mulred_mix_stream(seed, index + k). */
void mulred_mix_fill(uint8_t *out, size_t len, uint64_t seed, uint64_t index);

/* ---- the fast_mix family ----
 * A pool is 128 bits; 32-bit word i of it is bits [32i, 32i+32) of w[i / 2] (the layout of the
 * Linux u32 pool[4] read as two little-endian u64). Every variant counts its calls in `count`.
 * Round counts are given in half-rounds: every variant's round is two half-rounds of the same
 * shape with different rotation constants, and the avalanche lab measures at half-round
 * granularity (the published scores count rounds differently; see docs/mix.md).
 * All variants run in constant time; none is a cryptographic primitive on its own. */
typedef enum {
    MULRED_MIX_LINUX316,    /* Linux 3.16 fast_mix as corrected in 2015: b, d rotate in place */
    MULRED_MIX_SPELVIN32,   /* June 2014 fast_mix2 proposal: a, c rotate; 15 21 / 3 7 */
    MULRED_MIX_FASTMIX2_32, /* the seed's tweak: b = rol(a), d = rol(c); loses 64 bits per call */
    MULRED_MIX_FASTMIX2_64, /* the seed's 64-bit mix: 52 10 / 47 17 */
    MULRED_MIX_SIPHASH13,   /* 2022: HalfSipHash rounds absorbing one 32-bit word at a time */
    MULRED_MIX_LINEAR,      /* pre-2014: byte-wise twisted GFSR, linear over GF(2) */
    MULRED_MIX_GENERATOR,   /* mulred_mix_stream as a function of the 128-bit (seed, index) */
    MULRED_MIX_NVARIANTS
} mulred_mix_variant;

typedef struct {
    uint64_t w[2];
    uint64_t count;  /* calls */
    uint32_t pos;    /* linear only: byte position (selects the pool word) */
    uint32_t rotate; /* linear only: input rotation carried between calls */
} mulred_mix_pool;

typedef struct {
    const char *name;      /* as on the command line */
    unsigned half_default; /* the published configuration */
    unsigned half_min, half_max;
    bool xor_first;  /* pool ^= input, then a fixed map of the pool (mulred_mix_permute) */
    bool invertible; /* that map is a bijection and mulred_mix_unpermute inverts it */
} mulred_mix_info;

#define MULRED_MIX_MAX_HALF_ROUNDS 16

/* Description of a variant; v must be < MULRED_MIX_NVARIANTS. */
const mulred_mix_info *mulred_mix_variant_info(mulred_mix_variant v);
/* Variant by name; returns 0, or -1 for an unknown name. */
int mulred_mix_variant_parse(const char *name, mulred_mix_variant *v);

/* Sets the pool to `value` with zero count and linear state. */
void mulred_mix_pool_init(mulred_mix_pool *pool, mulred_u128 value);

/* Mixes 128 bits of input into the pool with `half_rounds` half-rounds (within the variant's
 * [half_min, half_max]; aborts otherwise) and counts the call. For the generator the pool is
 * (seed, index) and the input is XORed into it. */
void mulred_mix(mulred_mix_pool *pool, mulred_mix_variant v, unsigned half_rounds,
                mulred_u128 input);

/* The fixed map of an xor_first variant (aborts for the others): the pool after the mix,
 * as a function of pool ^ input. */
mulred_u128 mulred_mix_permute(mulred_mix_variant v, unsigned half_rounds, mulred_u128 x);
/* Its inverse, for invertible variants (aborts for the others):
 * mulred_mix_unpermute(v, h, mulred_mix_permute(v, h, x)) == x. */
mulred_u128 mulred_mix_unpermute(mulred_mix_variant v, unsigned half_rounds, mulred_u128 y);

/* Fixed-configuration entry points, one call per interrupt as in the kernel (what the
 * benchmark times): the published round counts. fastmix2_64 takes rounds 1-4. */
void mulred_mix_linux316(mulred_mix_pool *pool, mulred_u128 input);
void mulred_mix_spelvin32(mulred_mix_pool *pool, mulred_u128 input);
void mulred_mix_fastmix2_32(mulred_mix_pool *pool, mulred_u128 input);
void mulred_mix_fastmix2_64(mulred_mix_pool *pool, mulred_u128 input, unsigned rounds);
void mulred_mix_siphash13(mulred_mix_pool *pool, mulred_u128 input);
void mulred_mix_linear(mulred_mix_pool *pool, mulred_u128 input);

/* ---- the avalanche lab ----
 * For every 1-bit and 2-bit difference Δ of the 128 input bits (128 + 8128 differences) and
 * `trials` random base states x, counts how often each output bit of f(x) ^ f(x ^ Δ) is set.
 * f is the variant's map of pool ^ input (xor_first variants; `inverse` scores the inverse map
 * instead) or, for siphash13 and linear, the pool after one call as a function of the input
 * with a random starting pool. Base states come from mulred_mix_stream(seed, ...), so the
 * result depends on (variant, half_rounds, trials, seed, inverse) only, never on threads. */
typedef struct {
    mulred_mix_variant variant;
    unsigned half_rounds;
    uint64_t trials;  /* >= 1 */
    uint64_t seed;    /* of the base states */
    bool inverse;     /* score the inverse map (invertible variants only) */
    double window_lo; /* an output bit counts when window_lo <= P(flip) <= window_hi */
    double window_hi; /* (the definition: 0.25, 0.75) */
    int threads;      /* 0: OpenMP default */
} mulred_mix_avalanche_params;

typedef struct {
    unsigned score;         /* min over all differences of the count of output bits in window */
    unsigned score1;        /* the same over the 128 1-bit differences only */
    unsigned score2;        /* the same over the 8128 2-bit differences only */
    unsigned worst_bits[2]; /* the input bits of a difference reaching `score` (equal if 1) */
    double mean_flip;       /* mean P(flip) over 1-bit differences and output bits */
    double worst_bias;      /* max over input bit i, output bit j of |2 P(flip j | Δ = e_i) - 1| */
    double seconds;         /* wall time of the measurement */
} mulred_mix_avalanche_result;

/* Default parameters for a variant: published round count, [1/4, 3/4], forward. */
void mulred_mix_avalanche_defaults(mulred_mix_avalanche_params *p, mulred_mix_variant v);
/* Runs the lab. Returns 0, or -1 when the parameters are out of range (half_rounds outside the
 * variant's range, trials 0, inverse of a non-invertible variant, window not within [0, 1]);
 * allocates about 4.3 MB of counters. Variable time (depends on trials only). */
int mulred_mix_avalanche(mulred_mix_avalanche_result *out, const mulred_mix_avalanche_params *p);

#ifdef __cplusplus
}
#endif
#endif

/* The counter-based stream generator of the synthetic sources (src/io/synth.c, msm_synth.c,
 * utxo_synth.c): 128 pseudo-random bits for any (seed, index), as a pure function, so any rank
 * or thread generates any index range without state. Internal to mulred: no public header
 * declares it.
 *
 * Block (seed, index) = MIX_STREAM_ROUNDS rounds of mix_fastmix2_64_round over
 * (seed ^ MIX_STREAM_K0, index ^ MIX_STREAM_K1), lo = first word: a bijection of the 128-bit
 * (seed, index) pair, so distinct pairs never collide. Not cryptographic (ARX without a key
 * schedule): for synthetic workloads only. Constant time.
 *
 * The round is static inline here so the fill loops can interleave independent blocks (a round
 * is a serial dependency chain of about 6 ops; four blocks in flight fill the ALUs), and so the
 * mix lab (src/lab) measures the generator with the same code. */
#ifndef MULRED_MIX_STREAM_H
#define MULRED_MIX_STREAM_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t lo, hi;
} mulred_u128;

/* Block `index` of stream `seed`. */
mulred_u128 mulred_mix_stream(uint64_t seed, uint64_t index);
/* Fills len bytes with stream `seed` starting at block `index` (16 bytes per block): bytes
 * [16k, 16k+16) are the little-endian bytes of mulred_mix_stream(seed, index + k). Uses
 * AVX-512 when the CPU has it. */
void mulred_mix_fill(uint8_t *out, size_t len, uint64_t seed, uint64_t index);
/* The portable fill loop, same contract as mulred_mix_fill; exposed so the tests check both
 * paths against mulred_mix_stream and the benchmark times both. */
void mix_fill_scalar(uint8_t *out, size_t len, uint64_t seed, uint64_t index);

static inline uint64_t mix_rol64(uint64_t x, unsigned k)
{
    return (x << (k & 63)) | (x >> ((64 - k) & 63));
}

/* One round of fastmix2_64, the 64-bit fast_mix2 of the 2014 Linux random-driver discussion:
 * two 64-bit words, add-rotate-xor with rotations 52, 10, 47, 17. */
static inline void mix_fastmix2_64_round(uint64_t *a, uint64_t *b)
{
    uint64_t x = *a, y = *b;
    x += y, y = mix_rol64(y, 52);
    y ^= x, x = mix_rol64(x, 10);
    x += y, y = mix_rol64(y, 47);
    y ^= x, x = mix_rol64(x, 17);
    *a = x, *b = y;
}

/* The keying: (seed, index) offset by fixed odd constants (hex digits of pi) so that (0, 0)
 * does not map to the ARX fixed point 0. */
#define MIX_STREAM_K0 0x243f6a8885a308d3ull
#define MIX_STREAM_K1 0x13198a2e03707344ull
/* 4 rounds: over all 1- and 2-bit input differences the lab (mulred mix avalanche) measures 3
 * rounds at 127 of 128 output bits forward and 126 inverse (the top-bit pair of a and b cancels
 * in the first addition), 4 rounds at 128 both ways. */
#define MIX_STREAM_ROUNDS 4

#endif

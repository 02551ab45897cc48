/* Private to src/mix: the ARX round bodies shared by the variants, the generator and the lab.
 * Static inline so the generator's fill loop can interleave independent blocks (the round is a
 * serial dependency chain of about 6 ops; four blocks in flight fill the ALUs). */
#ifndef MULRED_MIX_INTERNAL_H
#define MULRED_MIX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t mix_rol32(uint32_t x, unsigned k)
{
    return (x << (k & 31)) | (x >> ((32 - k) & 31));
}
static inline uint64_t mix_rol64(uint64_t x, unsigned k)
{
    return (x << (k & 63)) | (x >> ((64 - k) & 63));
}

/* One round of the seed's 64-bit fast_mix2 (rotations 52, 10, 47, 17). */
static inline void mix_fm64_round(uint64_t *a, uint64_t *b)
{
    uint64_t x = *a, y = *b;
    x += y, y = mix_rol64(y, 52);
    y ^= x, x = mix_rol64(x, 10);
    x += y, y = mix_rol64(y, 47);
    y ^= x, x = mix_rol64(x, 17);
    *a = x, *b = y;
}

static inline void mix_fm64_unround(uint64_t *a, uint64_t *b)
{
    uint64_t x = *a, y = *b;
    x = mix_rol64(x, 64 - 17), y ^= x;
    y = mix_rol64(y, 64 - 47), x -= y;
    x = mix_rol64(x, 64 - 10), y ^= x;
    y = mix_rol64(y, 64 - 52), x -= y;
    *a = x, *b = y;
}

/* The generator's keying: (seed, index) offset by fixed odd constants (hex digits of pi) so
 * that (0, 0) does not map to the ARX fixed point 0. */
#define MIX_STREAM_K0 0x243f6a8885a308d3ull
#define MIX_STREAM_K1 0x13198a2e03707344ull
/* 4 rounds: 3 score 127 forward and 126 inverse in the lab (the top-bit pair of a and b
 * cancels in the first addition); 4 score 128 both ways. */
#define MIX_STREAM_ROUNDS 4

/* The portable fill loop (mulred_mix_fill dispatches to AVX-512 when the CPU has it); exposed
 * so the tests check both paths against mulred_mix_stream. Same contract as mulred_mix_fill. */
void mix_fill_scalar(uint8_t *out, size_t len, uint64_t seed, uint64_t index);

#endif

/* The fast_mix family of 128-bit pool mixers and the counter-based stream built on the best of
 * them (see src/mix/). */
#ifndef MULRED_MIX_H
#define MULRED_MIX_H

#include <stddef.h>
#include <stdint.h>

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

#ifdef __cplusplus
}
#endif
#endif

/* Private to the avalanche lab: the work split between mix_avalanche.c (serial counting
 * kernel) and mix_avalanche_threads.c (the only file here that creates threads). */
#ifndef MULRED_MIX_AVALANCHE_INTERNAL_H
#define MULRED_MIX_AVALANCHE_INTERNAL_H

#include <stdint.h>

#include "mulred/mix.h"

#define MIX_LAB_NDIFF (128 + 128 * 127 / 2)
/* Differences per work block: 64 × 16 SWAR accumulators = 8 KB, stays in L1 while the
 * block's trials stream through. */
#define MIX_LAB_BLOCK   64
#define MIX_LAB_NBLOCKS ((MIX_LAB_NDIFF + MIX_LAB_BLOCK - 1) / MIX_LAB_BLOCK)

typedef struct {
    mulred_mix_avalanche_params p;
    uint64_t *counts;          /* [MIX_LAB_NDIFF][128]: trials in which output bit flipped */
    uint64_t lane_spread[256]; /* byte v -> bit k of v in byte lane k */
} mix_lab;

/* Counts the differences of block `block` over all trials (disjoint rows of counts). */
void mix_lab_run_block(const mix_lab *lab, unsigned block);
/* Runs every block on `threads` threads (0: OpenMP default). */
void mix_lab_run_blocks(const mix_lab *lab, int threads);

#endif

/* Private to the avalanche lab: the serial pieces in avalanche.c that the entry point,
 * mulred_mix_avalanche in avalanche_threads.c (the only file here that creates threads), runs.
 * The calls go one way: avalanche_threads.c calls avalanche.c, never the reverse. */
#ifndef MULRED_LAB_AVALANCHE_INTERNAL_H
#define MULRED_LAB_AVALANCHE_INTERNAL_H

#include <stdint.h>

#include "lab/lab.h"

#define AVALANCHE_NDIFF (128 + 128 * 127 / 2)
/* Differences per work block: 64 × 16 SWAR accumulators = 8 KB, stays in L1 while the
 * block's trials stream through. */
#define AVALANCHE_BLOCK   64
#define AVALANCHE_NBLOCKS ((AVALANCHE_NDIFF + AVALANCHE_BLOCK - 1) / AVALANCHE_BLOCK)

typedef struct {
    mulred_mix_avalanche_params p;
    uint64_t *counts;          /* [AVALANCHE_NDIFF][128]: trials in which output bit flipped */
    uint64_t lane_spread[256]; /* byte v -> bit k of v in byte lane k */
} avalanche_lab;

/* Checks the parameters (the contract of mulred_mix_avalanche) and allocates zeroed counters.
 * Returns 0, or -1 when a parameter is out of range or memory is short. */
int avalanche_lab_init(avalanche_lab *lab, const mulred_mix_avalanche_params *p);
/* Counts the differences of block `block` (< AVALANCHE_NBLOCKS) over all trials. Blocks write
 * disjoint rows of counts, so any number of them may run at once. */
void avalanche_count_block(const avalanche_lab *lab, unsigned block);
/* Scores the counts into out (every field but seconds) and frees the counters. */
void avalanche_lab_finish(avalanche_lab *lab, mulred_mix_avalanche_result *out);

#endif

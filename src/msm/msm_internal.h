/* Internal interface of the msm layer: what msm.c (the kernels and fixed-base tables, from the
 * template msm_impl.h) and msm_threads.c (the OpenMP driver) share. */
#ifndef MULRED_MSM_INTERNAL_H
#define MULRED_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mulred/msm.h"

/* plan->magic of each curve ("MSM" and a curve byte). */
#define MSM_MAGIC_G1_381 UINT32_C(0x4d534d81)
#define MSM_MAGIC_G1_254 UINT32_C(0x4d534d54)
#define MSM_MAGIC_G2_381 UINT32_C(0x4d534d82)
#define MSM_MAGIC_G2_254 UINT32_C(0x4d534d55)

/* Widest window: Booth digits of c bits have |d| <= 2^(c−1) buckets (2^21 at c = 22). */
#define MSM_MAX_WINDOW_BITS 22
/* Widest window the cost model chooses (plain MSMs and tables alike; wider ones when forced). A
 * plain MSM reduces every window's 2^(c−1) buckets, so c > 16 would pay only past 2^22 points;
 * a table's single bucket set past 16 bits leaves the cache (2^19 buckets of BLS12-381 G1: 48 MB)
 * and costs more per pair than its fewer rows save, which the model does not count: measured in
 * docs/performance.md, "Tables past c = 16". */
#define MSM_AUTO_WINDOW_BITS 16
/* Most windows accumulated side by side in one pass (plan->group). */
#define MSM_MAX_GROUP 64

/* The Booth digit of window w (see include/mulred/msm.h) of a k of `limbs` 64-bit limbs
 * (c·w + c <= 64·limbs + 1 is not required: bits beyond the limbs read as 0). */
static inline int msm_booth_digit(const uint64_t *k, unsigned limbs, unsigned w, unsigned c)
{
    const uint64_t mask = (UINT64_C(2) << c) - 1; /* c + 1 bits */
    uint64_t t;
    if (w == 0) {
        t = (k[0] << 1) & mask;
    } else {
        const unsigned lo = c * w - 1, q = lo >> 6, s = lo & 63;
        t = q < limbs ? k[q] >> s : 0;
        if (s + c + 1 > 64 && q + 1 < limbs) t |= k[q + 1] << (64 - s);
        t &= mask;
    }
    return (int)((t >> 1) + (t & 1)) - (int)((t >> c) << c);
}

/* Number of windows for scalar_bits-bit recoded scalars: floor(bits / c) + 1, so that
 * c·W − 1 >= bits and the top Booth digit never borrows. */
static inline unsigned msm_windows(unsigned scalar_bits, unsigned c)
{
    return scalar_bits / c + 1;
}

/* How the OpenMP driver cuts an MSM of n points for `threads` threads: the windows, in units of
 * `span` consecutive windows (the plan's group of windows accumulated side by side, when there
 * are enough units; the top unit may be shorter), every unit into `ranges` bucket ranges (equal
 * counts of digit magnitudes), and the points into `slices` (equal counts); besides, the last
 * `tail` units (in task order) into `tail_slices` slices of points each instead (all buckets),
 * so that the end of the run is made of smaller tiles that even out the threads (the tail). Below,
 * "window" w of the split is unit w: plan windows span·w .. min(span·(w + 1), total) − 1 of the
 * window range. Tiles in task order: units 0 .. windows − tail − 1 first, then the tail units;
 * within a unit, range-major then slice: (range·slices + slice). */
typedef struct {
    size_t n;
    unsigned windows, ranges, slices;
    unsigned tail, tail_slices; /* tail = 0: none */
    unsigned span, total;       /* plan windows per unit; plan windows in all */
} msm_split;
msm_split msm_split_plan(const mulred_msm_plan *plan, size_t n, int threads);
/* The same for `windows` windows of the plan (a window range: mulred_G_msm_windows_var). */
msm_split msm_split_windows(const mulred_msm_plan *plan, unsigned windows, size_t n, int threads);
/* Ranges and slices of window w (0-based within the split), tiles of the split, and the first
 * tile of window w in task order. */
static inline unsigned msm_split_ranges(const msm_split *s, unsigned w)
{
    return w >= s->windows - s->tail ? 1 : s->ranges;
}
static inline unsigned msm_split_slices(const msm_split *s, unsigned w)
{
    return w >= s->windows - s->tail ? s->tail_slices : s->slices;
}
static inline size_t msm_split_first_tile(const msm_split *s, unsigned w)
{
    const unsigned head = s->windows - s->tail;
    if (w <= head) return (size_t)w * s->ranges * s->slices;
    return (size_t)head * s->ranges * s->slices + (size_t)(w - head) * s->tail_slices;
}
static inline size_t msm_split_tiles(const msm_split *s)
{
    return msm_split_first_tile(s, s->windows);
}

#endif

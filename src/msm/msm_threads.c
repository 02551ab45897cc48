/* The OpenMP MSM driver (creates threads): msm_threads_impl.h instantiated per curve, and the
 * split of an MSM into tiles that it and the tests share. */
#include <omp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "msm/msm_internal.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "util/check.h"
#include "util/util.h"

/* Points recoded per task. */
#define MSM_RECODE_CHUNK 8192

/* Most bucket ranges per window (each rescans the window's digits). */
#define MSM_MAX_RANGES 8

msm_split msm_split_plan(const mulred_msm_plan *plan, size_t n, int threads)
{
    return msm_split_windows(plan, plan->windows, n, threads);
}

/* Point slices of each tail unit. */
#define MSM_TAIL_SLICES 2

msm_split msm_split_windows(const mulred_msm_plan *plan, unsigned windows, size_t n, int threads)
{
    msm_split s = {
        .n = n, .windows = windows, .ranges = 1, .slices = 1, .span = 1, .total = windows};
    const size_t want = 2 * (size_t)(threads > 0 ? threads : 1);
    if (threads <= 1) return s;
    /* Units of the plan's group: its windows share the batches of one pass (fewer collisions,
     * the reduction's inversions shared), as in the one-thread run; one window each when fewer
     * than 4T units would be left (the threads would end up to half a unit apart; the figure:
     * docs/kernels.md, msm). */
    const unsigned g = plan->group > 1 && plan->group <= windows ? plan->group : 1;
    if (g > 1 && (windows + g - 1) / g >= 2 * want) {
        s.span = g;
        s.windows = (windows + g - 1) / g;
    }
    if (s.windows >= want) {
        /* Whole units, dealt dynamically: the threads would end unevenly by up to one unit.
         * The last `threads` units are cut into halves by points, so the run ends on tiles half
         * a unit long; a slice repeats only its unit's reduction (bucket ranges would rescan
         * every digit and sum replicas: on the 8-lane kernels a quarter-range tile costs about
         * 45% of its window, 1.8x in all; two slices about 1.1x). */
        s.tail = (unsigned)threads;
        s.tail_slices = MSM_TAIL_SLICES;
        if (n < 2 * (size_t)MSM_TAIL_SLICES) s.tail = 0, s.tail_slices = 0;
        return s;
    }
    size_t r = (want + s.windows - 1) / s.windows;
    if (r > MSM_MAX_RANGES) r = MSM_MAX_RANGES;
    if (r > plan->buckets) r = plan->buckets;
    s.ranges = (unsigned)r;
    const size_t have = (size_t)s.windows * s.ranges;
    if (have < want) {
        size_t sl = (want + have - 1) / have;
        if (sl > n) sl = n ? n : 1;
        s.slices = (unsigned)sl;
    }
    return s;
}

#define POINT g1_381
#include "msm/msm_threads_impl.h"
#undef POINT
#define POINT g1_254
#include "msm/msm_threads_impl.h"
#undef POINT
#define POINT g2_381
#include "msm/msm_threads_impl.h"
#undef POINT
#define POINT g2_254
#include "msm/msm_threads_impl.h"
#undef POINT

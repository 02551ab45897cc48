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

/* Points recoded per task. */
#define MSM_RECODE_CHUNK 8192

/* Most bucket ranges per window (each rescans the window's digits). */
#define MSM_MAX_RANGES 8

msm_split msm_split_plan(const mulred_msm_plan *plan, size_t n, int threads)
{
    return msm_split_windows(plan, plan->windows, n, threads);
}

/* Bucket ranges of each tail window. */
#define MSM_TAIL_RANGES 4

msm_split msm_split_windows(const mulred_msm_plan *plan, unsigned windows, size_t n, int threads)
{
    msm_split s = {.n = n, .windows = windows, .ranges = 1, .slices = 1};
    const size_t want = 2 * (size_t)(threads > 0 ? threads : 1);
    if (threads <= 1) return s;
    if (s.windows >= want) {
        /* Whole windows, dealt dynamically: the threads end unevenly by up to one window. The
         * last `threads` windows are cut into bucket ranges, so the run ends on tiles a quarter
         * of a window long. Each extra range rescans the window's n digits: a digit read is
         * far cheaper than a bucket addition (docs/kernels.md has both). */
        s.tail = (unsigned)threads;
        s.tail_ranges = MSM_TAIL_RANGES < plan->buckets ? MSM_TAIL_RANGES : plan->buckets;
        if (s.tail_ranges < 2) s.tail = 0, s.tail_ranges = 0;
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

#define G1 g1_381
#include "msm/msm_threads_impl.h"
#undef G1
#define G1 g1_254
#include "msm/msm_threads_impl.h"
#undef G1
#define G1 g2_381
#include "msm/msm_threads_impl.h"
#undef G1
#define G1 g2_254
#include "msm/msm_threads_impl.h"
#undef G1

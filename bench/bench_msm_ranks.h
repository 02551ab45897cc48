/* The 1 vs 2 rank measurement of the distributed MSM (bench_msm_ranks.c), for `mulred bench
 * msm-ranks` and for other benches that print its rows. */
#ifndef MULRED_BENCH_MSM_RANKS_H
#define MULRED_BENCH_MSM_RANKS_H

#include <stdbool.h>

#include "mulred/msm_grid.h"
#include "output/output.h"

typedef struct {
    mulred_curve curve;
    int log2n, reps;
    bool have_mpirun;
    /* mpirun: `seconds` of `mulred msm --json` with 1 and 2 ranks (medians), the 2-rank grid */
    double mpirun_one_ms, mpirun_two_ms, mpirun_speedup, mpirun_p10, mpirun_p90;
    /* what the machine gives two ranks' work: 1-rank time / the slower of two 1-rank jobs of
     * n/2 points run side by side (median) */
    double mpirun_ceiling;
    unsigned mpirun_slices, mpirun_groups;
    /* in one process, thread CPU time: the 1-rank tile, and per 2-rank grid (the planner's,
     * 2x1, 1x2) each rank's tile and the speedup t1 / max(rank 0, rank 1) */
    double inproc_one_ms;
    mulred_msm_grid inproc_one_grid;
    struct {
        mulred_msm_grid grid;
        double rank0_ms, rank1_ms, speedup, speedup_p10, speedup_p90;
    } inproc[3];
} bench_msm_ranks_result;

/* Measures curve c at 2^log2n points, `reps` rounds (at most 64); mpirun = false skips the
 * child processes. Returns 0, or -1 when a run fails (out of memory, mpirun missing). */
int mulred_bench_msm_ranks_measure(bench_msm_ranks_result *res, mulred_curve c, int log2n, int reps,
                                   bool mpirun);

mulred_exit mulred_bench_msm_ranks(int argc, char **argv);

#endif

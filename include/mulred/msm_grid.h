/* The grid that arranges P ranks of a distributed MSM as point slices x window groups (msm
 * layer, libmulred; pure: no MPI: the MPI layer arranges its ranks by it). The curves and their
 * point-addition groups are in mulred/msm.h.
 *
 * A distributed MSM Σ sᵢ·Pᵢ over P ranks (mulred_mpi_msm in mulred/mulred_mpi.h runs it):
 *   1. every rank computes the same grid from (curve, n, P, limits): S point slices x G window
 *      groups, a window width c and the GLV choice; rank = slice·G + group, ranks >= S·G idle;
 *   2. each rank reads or generates only its slice's points (all G ranks of a column hold the
 *      same points: a window group needs every point of its slice), and validates 1/G of them;
 *   3. computes the tile (its slice) x (its group's windows [w0, w1)) with its threads
 *      (mulred_G_msm_windows_var) and shifts it by 2^(c·w0);
 *   4. all ranks meet in mulred_mpi_reduce with the curve's point group (idle ranks bring the
 *      identity). The sum over the partition of points x windows is the MSM, whatever the grid.
 *
 * Cost of the two directions (the reason for a grid): every point slice repeats the bucket
 * reduction of every window (2^(c−1) buckets per window, about 2 additions each) and, having
 * fewer points, wants a smaller c with more windows, so the work grows with the slices
 * (docs/kernels.md has blst's figures). Window groups repeat no arithmetic, but
 * every rank of a column reads (or generates) and recodes the whole slice, and there are only
 * W = floor(bits/c) + 1 windows (10-20 with GLV) to share, unevenly when G does not divide W.
 * The planner minimises the modelled time over every grid (below). */
#ifndef MULRED_MSM_GRID_H
#define MULRED_MSM_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/common.h"
#include "mulred/msm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the grid (msm layer, src/msm/msm_grid.c; pure: no MPI, no allocation) ---- */

/* What the planner knows besides the curve. Costs are single-thread nanoseconds on the
 * machine of msm_cost_ns; mulred_msm_grid_defaults fills measured ones. Every rank must pass
 * the same values: the grid is computed independently on each. */
typedef struct {
    uint64_t n;               /* points, >= 1 */
    int ranks;                /* P, >= 1 */
    int threads;              /* per rank, >= 1: one tile scratch each (memory only) */
    uint64_t memory_per_rank; /* bytes a rank may hold for its slice and scratch; 0 = no limit */
    double input_ns;          /* per point of its slice, on every rank of the column: read or
                               * generate, decode, recode */
    double validate_ns;       /* per point validated (subgroup check); a column's ranks share
                               * its points */
    double reduce_step_ns;    /* one step of the binomial-tree reduce (an addition, a message) */
    /* Forced choices (tests, benchmarks); 0 = chosen by the model. */
    unsigned slices, groups; /* both or neither */
    int window_bits;         /* 1..16 */
    int glv;                 /* 1 on, -1 off */
} mulred_msm_grid_params;

typedef enum {
    MULRED_MSM_INPUT_SYNTHETIC = 0, /* points generated from (seed, index) */
    MULRED_MSM_INPUT_FILE = 1,      /* hex pair files: counted, parsed, decoded, validated */
    MULRED_MSM_INPUT_BINARY = 2,    /* binary pair files: decoded and validated */
} mulred_msm_input_kind;

/* Fills *p for an MSM of n points on P ranks of T threads: the measured input, validation
 * and reduce costs of the curve and input kind, no memory limit, nothing forced. */
MULRED_API void mulred_msm_grid_defaults(mulred_msm_grid_params *p, mulred_curve c,
                                         mulred_msm_input_kind input, uint64_t n, int ranks,
                                         int threads);

typedef struct {
    unsigned slices, groups; /* S x G; the ranks S·G..P−1 are idle */
    unsigned window_bits;    /* c */
    bool glv;                /* GLV halves: scalar_bits = 127 / 126 */
    unsigned windows;        /* W = floor(scalar_bits / c) + 1 */
    unsigned top_windows;    /* windows of the top group (the group holding window W − 1) */
    double cost_ns;          /* modelled time: the slowest rank + the reduce */
    double rank_ns;          /* the slowest rank alone */
    double msm_ns;           /* its MSM part (the tile, without input and validation) */
    double work_ns;          /* modelled work summed over the ranks (S·G ranks) */
    uint64_t rank_bytes;     /* modelled peak memory of the largest rank */
} mulred_msm_grid;

/* The share of one rank: points [point0, point1) of its slice, windows [window0, window1) of
 * its group, and the part of its slice it validates, [check0, check1). Idle ranks get empty
 * ranges (point0 == point1, window0 == window1 == 0). */
typedef struct {
    unsigned slice, group;
    bool idle;
    uint64_t point0, point1;
    unsigned window0, window1;
    uint64_t check0, check1;
} mulred_msm_share;

/* The modelled cost of one grid: S x G ranks (S·G <= P, 1 <= G <= W(c), S <= n), window width
 * c and GLV choice glv. Slice k holds points [⌊n·k/S⌋, ⌊n·(k+1)/S⌋); group g the windows
 * given by mulred_msm_grid_windows. A rank costs
 *     input_ns·n_s + validate_ns·⌈n_s/G⌉ + msm_cost_ns(plan for n_s, its windows)
 * (n_s = its slice's points; a group holding the top window is charged the top window's
 * cut), and the grid costs the slowest rank plus ⌈log2 P⌉·reduce_step_ns. Returns false
 * (and leaves *g unset) when the grid is impossible (the conditions above) or breaks the
 * memory limit. Misuse (an unknown curve, or params that are misuse for mulred_msm_grid_plan)
 * calls the illegal-argument callback (mulred/common.h); when it returns, the function returns
 * false. */
MULRED_API bool mulred_msm_grid_eval(mulred_msm_grid *g, mulred_curve c,
                                     const mulred_msm_grid_params *p, unsigned slices,
                                     unsigned groups, unsigned window_bits, bool glv);

/* The grid of least cost_ns over every (S, G, c, glv) that mulred_msm_grid_eval accepts
 * (restricted to the forced choices of p); ties go to fewer ranks used, then to fewer slices,
 * then to the smaller c, then to GLV off: a pure function of (c, *p), so every rank finds the
 * same grid. Returns MULRED_OK, or MULRED_ERUNTIME with the reason in err when no grid fits
 * (the memory limit is below what even P slices need, or a forced grid is impossible). Time
 * O(P·log W) per (c, glv) after O(P) cost-model calls. Misuse (g or p NULL, an unknown curve,
 * n = 0, ranks outside [1, 2^20], threads < 1, one of slices/groups forced without the other,
 * window_bits outside [0, 16], glv outside [-1, 1], a negative cost) calls the illegal-argument
 * callback (mulred/common.h); when it returns, the function returns MULRED_EMISUSE and leaves
 * *g and err. */
MULRED_API mulred_status mulred_msm_grid_plan(mulred_msm_grid *g, mulred_curve c,
                                              const mulred_msm_grid_params *p, mulred_error *err);

/* The windows [*window0, *window1) of group `group` (< g->groups): contiguous groups from the
 * bottom, G−1 of them sharing the W − top_windows lower windows as evenly as possible (the
 * larger ones lower), the top group the top_windows highest. */
MULRED_API void mulred_msm_grid_windows(unsigned *window0, unsigned *window1,
                                        const mulred_msm_grid *g, unsigned group);

/* Rank `rank`'s share (0 <= rank < P, the P of the grid's params) of an MSM of n points. */
MULRED_API mulred_msm_share mulred_msm_grid_share(const mulred_msm_grid *g, uint64_t n, int rank);

/* The options that make mulred_G_msm_plan produce the grid's plan (window width and GLV
 * forced; the rest automatic, so bucket form, batch and lanes follow the rank's CPU and
 * slice: they change the speed, never the result). */
MULRED_API mulred_msm_options mulred_msm_grid_options(const mulred_msm_grid *g);

#ifdef __cplusplus
}
#endif
#endif

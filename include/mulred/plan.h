/* Work units and their plan over ranks.
 *
 * Every input is cut into numbered work units by its own rule, without knowing the number of
 * ranks: element files into fixed byte ranges (mulred_source_file_units), synthetic sets into
 * blocks of MULRED_SOURCE_SYNTH_CHUNK elements (mulred_source_synth_units), snapshots into their
 * index chunks (mulred_utxo_source_units), checkpointed MSMs into tiles of point slices x window
 * groups (src/mpi/mpi_msm.c). Units are therefore the same whatever the rank count, so a checkpoint
 * that records finished units stays valid when a job restarts on another number of ranks. The plan
 * then gives each rank one contiguous run of units, by one rule for every source:
 *
 *   rank r of P starts at the first unit u whose work before it, cum[u], is at least ⌊W·r/P⌋,
 *   where W is the total work; rank 0 starts at unit 0 and rank P−1 ends at the last unit.
 *
 * Units of equal work (cum[u] = u) make that ⌊n·r/P⌋: mulred_plan_units is this rule without
 * the array. Pure functions: no MPI, no allocation; thread-safe. Arithmetic is done in 128 bits,
 * so any n, W < 2^64 and P < 2^31 work. */
#ifndef MULRED_PLAN_H
#define MULRED_PLAN_H

#include <stdint.h>

#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Units [first, end) of one rank; empty when first == end. */
typedef struct {
    uint64_t first, end;
} mulred_unit_range;

/* Rank `rank`'s share of n units of equal work: [⌊n·rank/P⌋, ⌊n·(rank+1)/P⌋). The shares are
 * contiguous, in rank order, cover every unit once, and differ in size by at most one.
 * Misuse (nranks < 1, rank outside [0, nranks)) calls the illegal-argument callback
 * (mulred/common.h); when it returns, the function returns the empty range {0, 0}. */
MULRED_API mulred_unit_range mulred_plan_units(uint64_t n, int rank, int nranks);

/* Rank `rank`'s share of n units of unequal work given by running totals cum[0..n]: cum[0] = 0,
 * non-decreasing, cum[u+1] − cum[u] the work of unit u (coins of a snapshot chunk), cum[n] = W.
 * Contiguous, in rank order, covering every unit once; each rank's work differs from W/P by at
 * most the largest unit's work. Units of zero work at a boundary go to the later rank.
 * Time O(log n). Misuse as above, or cum NULL or not starting at 0, calls the illegal-argument
 * callback; when it returns, the function returns the empty range {0, 0}. */
MULRED_API mulred_unit_range mulred_plan_weighted(const uint64_t *cum, uint64_t n, int rank,
                                                  int nranks);

/* ---- schedules ----
 * A static schedule gives each rank the fixed share above. A dynamic one hands units out at run
 * time (src/mpi/mpi_sched.c): every rank orders the units by decreasing cost once, identically
 * (mulred_plan_order), cuts that order into batches that shrink as the work left shrinks
 * (mulred_plan_batches), and the ranks draw batch numbers from one shared counter, so a slow rank
 * draws fewer and the large units go first, the small ones last. The result does not depend on
 * the schedule. */
typedef enum {
    MULRED_SCHEDULE_STATIC = 0, /* a fixed share per rank (the plan above) */
    MULRED_SCHEDULE_DYNAMIC = 1 /* batches of units drawn at run time */
} mulred_schedule;
/* "static", "dynamic". */
MULRED_API const char *mulred_schedule_name(mulred_schedule s);
/* Parses "static" or "dynamic" into *s. Returns MULRED_OK, or MULRED_EINPUT (and leaves *s)
 * for anything else, NULL included. */
MULRED_API mulred_status mulred_schedule_parse(mulred_schedule *s, const char *name);

/* One unit of a dynamic schedule: its number and its estimated cost (any unit of work, the
 * same for all units of a job). */
typedef struct {
    uint64_t unit, cost;
} mulred_plan_item;

/* Sorts items[0..n) by decreasing cost, equal costs by increasing unit: a total order, so every
 * rank gets the same order. */
MULRED_API void mulred_plan_order(mulred_plan_item *items, uint64_t n);

/* Cuts ordered items[0..n) into batches and writes the end of batch k (an index into items) to
 * ends[k]; returns the number of batches (at most n; ends needs n entries). A batch starting at
 * s, where R is the cost of items[s..n), takes items until their cost reaches ⌈R / (2·P)⌉ and it
 * holds at least min_batch items (min_batch >= 1), or until the end: large batches first, single
 * items near the end (guided self-scheduling with P ranks). Misuse (nranks < 1, min_batch 0)
 * calls the illegal-argument callback; when it returns, the function returns 0 and writes
 * nothing. */
MULRED_API uint64_t mulred_plan_batches(uint64_t *ends, const mulred_plan_item *items, uint64_t n,
                                        int nranks, uint64_t min_batch);

/* The number of units of `unit` items each that hold n items: ⌈n / unit⌉ (unit >= 1). */
static inline uint64_t mulred_plan_unit_count(uint64_t n, uint64_t unit)
{
    return n / unit + (n % unit != 0);
}

#ifdef __cplusplus
}
#endif
#endif

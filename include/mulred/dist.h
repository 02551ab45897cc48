/* Distribution over MPI ranks. This is the only interface through which the rest of mulred
 * sees MPI; <mpi.h> is included only in src/dist/. With one process started without a launcher
 * everything works as a single rank (MPI singleton). */
#ifndef MULRED_DIST_H
#define MULRED_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/mulred.h"
#include "mulred/muhash.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initializes MPI with MPI_THREAD_FUNNELED (only the main thread calls MPI; OpenMP threads
 * compute between calls) and checks the provided level. Returns MULRED_ERUNTIME on failure. */
int mulred_dist_init(int *argc, char ***argv, mulred_error *err);
/* Finalizes MPI if mulred_dist_init initialized it. */
void mulred_dist_finalize(void);
bool mulred_dist_active(void);
/* Rank and size in MPI_COMM_WORLD; 0 and 1 before init. */
int mulred_dist_rank(void);
int mulred_dist_size(void);
/* The rank a launcher (mpirun, srun) gave this process, read from its environment without
 * initializing MPI; 0 when not launched by one. Used by commands that do not need MPI so that
 * only rank 0 prints. */
int mulred_dist_env_rank(void);
/* True when a launcher (mpirun, mpiexec, srun) started this process, or MULRED_FORCE_MPI is
 * set. A process started alone runs as the only rank without initializing MPI (an MPI
 * singleton start costs about half a second with Open MPI). */
bool mulred_dist_launched(void);
/* Ends every rank with the given exit status. */
void mulred_dist_abort(int status);

/* Collective: every rank passes its own status in err; all ranks return the worst status
 * (the highest exit code). When that is not MULRED_OK, err on rank 0 gets the message of the
 * lowest rank that reported it, so rank 0 can print it. */
int mulred_dist_agree(mulred_error *err);

/* Collective: min, average and max of v across ranks, on every rank. */
void mulred_dist_minavgmax(double v, double out[3]);
/* Collective: sum of v across ranks, on every rank. */
uint64_t mulred_dist_sum_u64(uint64_t v);
void mulred_dist_barrier(void);
/* Collective: the number of distinct nodes (shared-memory domains) the ranks run on. */
int mulred_dist_node_count(void);

/* Collective: multiplies the states of all ranks (MPI_Reduce with a commutative user op on an
 * MPI datatype of numerator ‖ denominator). The result lands in *s on root; other ranks' *s is
 * unchanged. All ranks must pass states of the same flavor. */
int mulred_dist_reduce_muhash(mulred_muhash_state *s, int root, mulred_error *err);
/* Same, with the result on every rank (MPI_Allreduce). */
int mulred_dist_allreduce_muhash(mulred_muhash_state *s, mulred_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* Distribution over MPI ranks. This is the only interface through which the rest of mulred
 * sees MPI; <mpi.h> is included only in src/dist/. With one process started without a launcher
 * everything works as a single rank (no MPI initialized): collectives return at once.
 *
 * Threads: MPI runs at MPI_THREAD_FUNNELED. Every function here that talks to MPI must be
 * called from the thread that called mulred_dist_init (calling one from another thread aborts);
 * OpenMP threads compute between the calls.
 *
 * Errors: a failing MPI call returns MULRED_ERUNTIME with MPI's own error text (communicators
 * are set to return errors rather than abort). Collectives must be entered by every rank. */
#ifndef MULRED_DIST_H
#define MULRED_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/group.h"
#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initializes MPI with MPI_THREAD_FUNNELED and checks the provided level. Returns
 * MULRED_ERUNTIME on failure. */
int mulred_dist_init(int *argc, char ***argv, mulred_error *err);
/* Frees the reduce op and finalizes MPI if mulred_dist_init initialized it. */
void mulred_dist_finalize(void);
bool mulred_dist_active(void);
/* Rank and size in MPI_COMM_WORLD; mulred_dist_env_rank() and 1 when MPI is not active. */
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
 * lowest rank that reported it, so rank 0 can print it. A failure of MPI itself is reported as
 * MULRED_ERUNTIME on the ranks that see it. */
int mulred_dist_agree(mulred_error *err);

/* Collective: min, average and max of v across ranks, on every rank. */
int mulred_dist_minavgmax(double v, double out[3], mulred_error *err);
/* Collective: sum of v across ranks, on every rank. */
int mulred_dist_sum_u64(uint64_t *sum, uint64_t v, mulred_error *err);
int mulred_dist_barrier(mulred_error *err);
/* Collective: the number of distinct nodes (shared-memory domains) the ranks run on. */
int mulred_dist_node_count(int *nodes, mulred_error *err);

/* Collective: combines the elements of group g that every rank passes in *elem (g->elem_bytes
 * bytes) with g->combine, in MPI_Reduce with a commutative op. The result lands in *elem on
 * root; on the other ranks *elem is unchanged. Every rank must pass the same group (the same
 * descriptor contents; ranks of one job run one binary). One MPI datatype and one MPI op serve
 * every group: the op finds the group through an attribute of the datatype, which is made for
 * each call (a few microseconds, once per reduction). */
int mulred_dist_reduce(void *elem, const mulred_group *g, int root, mulred_error *err);
/* Same, with the result on every rank (MPI_Allreduce). */
int mulred_dist_allreduce(void *elem, const mulred_group *g, mulred_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* Shared by the files of src/dist/ that talk to MPI (dist.c: set-up and small collectives;
 * dist_group.c: the generic group reduction; dist_muhash.c, dist_msm.c: the jobs). plan.c and
 * plan_msm.c need none of it. */
#ifndef MULRED_DIST_INTERNAL_H
#define MULRED_DIST_INTERNAL_H

#include <mpi.h>

#include "mulred/mpi.h"

/* Tags of the point-to-point messages mulred sends (collectives need none). */
enum { DIST_TAG_AGREE_MESSAGE = 1 };

/* For an MPI return code rc: MULRED_OK when it is MPI_SUCCESS, else MULRED_ERUNTIME with
 * "WHAT failed: <MPI's error string>" in err. */
int dist_mpi_status(int rc, const char *what, mulred_error *err);

/* True when MPI is active and comm has more than one rank: a collective has work to do. Aborts when
 * called from another thread than the one that initialized MPI (FUNNELED). */
bool dist_multi_rank(MPI_Comm comm);

/* Min, average and max over the ranks of comm of each of the n values local[], into out[]. */
int dist_phases(MPI_Comm comm, const double *local, mulred_dist_phase *out, int n,
                mulred_error *err);

/* Tells the job's note callback (when set) that checkpoint unit u was damaged (note: the
 * store's description of the damage) and is recomputed. */
void dist_note_recompute(mulred_dist_note_fn fn, void *data, const char *note, uint64_t u);

/* Frees the generic reduce op and its datatype attribute key (before MPI_Finalize). */
void dist_group_free(void);

/* SHA-256 through libcrypto (dist_util.c): libmulred_mpi uses only libmulred's public
 * functions. */
int dist_sha256(uint8_t out[32], const uint8_t *data, size_t len); /* 0, or -1 on failure */

#endif

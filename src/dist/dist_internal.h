/* Shared by the files of src/dist/ that talk to MPI (dist.c: set-up and small collectives;
 * dist_group.c: the generic group reduction). plan.c needs none of it. */
#ifndef MULRED_DIST_INTERNAL_H
#define MULRED_DIST_INTERNAL_H

#include <mpi.h>

#include "mulred/dist.h"

/* Tags of the point-to-point messages mulred sends (collectives need none). */
enum { DIST_TAG_AGREE_MESSAGE = 1 };

/* For an MPI return code rc: MULRED_OK when it is MPI_SUCCESS, else MULRED_ERUNTIME with
 * "WHAT failed: <MPI's error string>" in err. */
int dist_mpi_status(int rc, const char *what, mulred_error *err);

/* True when MPI is active and has more than one rank: a collective has work to do. Aborts when
 * called from another thread than the one that initialized MPI (FUNNELED). */
bool dist_multi_rank(void);

/* Frees the generic reduce op and its datatype attribute key (before MPI_Finalize). */
void dist_group_free(void);

#endif

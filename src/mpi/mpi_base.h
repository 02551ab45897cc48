/* The base of src/mpi/, below every other file of it: whether MPI is up, the rank and size of a
 * communicator, MPI return codes as statuses and this rank's node name (mpi_base.c). It calls
 * nothing else of the layer, so the collectives (mpi_comm.c, mpi_group.c) and the stall watch
 * (mpi_watch.c) that use it depend on it one way. */
#ifndef MULRED_MPI_BASE_H
#define MULRED_MPI_BASE_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "mulred/mulred_mpi.h"

/* For an MPI return code rc: MULRED_OK when it is MPI_SUCCESS, else MULRED_ERUNTIME with
 * "WHAT failed: <MPI's error string>" in err. */
mulred_status mpi_rc_status(int rc, const char *what, mulred_error *err);

/* True when MPI is active and comm has more than one rank: a collective has work to do. Aborts when
 * called from another thread than the one that initialized MPI (FUNNELED). */
bool mpi_multi_rank(MPI_Comm comm);

/* This rank's node name: $MULRED_NODE_NAME, else $SLURMD_NODENAME, else MPI's processor name
 * (the host name before MPI is up or for a short buffer). Local: no communication. */
void mpi_node_name(char *out, size_t cap);

#endif

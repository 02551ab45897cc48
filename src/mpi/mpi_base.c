/* The base of the MPI layer (mpi_base.h): whether MPI is up, rank queries, MPI return codes as
 * statuses, this rank's node name. Rank queries cannot fail on a valid communicator: a failure
 * is a misuse. Nothing here calls another file of src/mpi/. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpi/mpi_base.h"
#include "util/check.h"

mulred_status mpi_rc_status(int rc, const char *what, mulred_error *err)
{
    if (rc == MPI_SUCCESS) return MULRED_OK;
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "code %d", rc);
    return mulred_error_set(err, MULRED_ERUNTIME, "%s failed: %s", what, text);
}

bool mulred_mpi_active(void)
{
    int initialized = 0, finalized = 0;
    MULRED_CHECK(MPI_Initialized(&initialized) == MPI_SUCCESS, "MPI_Initialized");
    MULRED_CHECK(MPI_Finalized(&finalized) == MPI_SUCCESS, "MPI_Finalized");
    return initialized && !finalized;
}

int mulred_mpi_rank(MPI_Comm comm)
{
    if (!mulred_mpi_active()) return 0;
    int r = 0;
    MULRED_CHECK(MPI_Comm_rank(comm, &r) == MPI_SUCCESS, "MPI_Comm_rank");
    return r;
}

int mulred_mpi_size(MPI_Comm comm)
{
    if (!mulred_mpi_active()) return 1;
    int s = 1;
    MULRED_CHECK(MPI_Comm_size(comm, &s) == MPI_SUCCESS, "MPI_Comm_size");
    return s;
}

bool mpi_multi_rank(MPI_Comm comm)
{
    if (!mulred_mpi_active()) return false;
    int main_thread = 0;
    MULRED_CHECK(MPI_Is_thread_main(&main_thread) == MPI_SUCCESS && main_thread,
                 "MPI is FUNNELED: call mulred_mpi_* from the thread that initialized MPI");
    return mulred_mpi_size(comm) > 1;
}

void mpi_node_name(char *out, size_t cap)
{
    const char *env = getenv("MULRED_NODE_NAME");
    if (!env || !*env) env = getenv("SLURMD_NODENAME");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
    } else if (!mulred_mpi_active() || cap < MPI_MAX_PROCESSOR_NAME) {
        if (gethostname(out, cap - 1) != 0) snprintf(out, cap, "?");
        out[cap - 1] = 0;
    } else {
        int len = 0;
        if (MPI_Get_processor_name(out, &len) != MPI_SUCCESS) snprintf(out, cap, "?");
        out[len >= 0 && len < (int)cap ? len : (int)cap - 1] = 0;
    }
}

/* MPI plumbing: init, rank queries, status agreement, small collectives and the node count.
 * The generic group reduction is in dist_group.c; the plan of work units over ranks, which
 * needs no MPI, in plan.c. Every MPI return code is checked: queries that cannot fail on
 * MPI_COMM_WORLD abort with a message when they do; collectives return MULRED_ERUNTIME. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist_internal.h"
#include "util/check.h"

static bool dist_initialized_here;

int dist_mpi_status(int rc, const char *what, mulred_error *err)
{
    if (rc == MPI_SUCCESS) return MULRED_OK;
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "code %d", rc);
    return mulred_error_set(err, MULRED_ERUNTIME, "%s failed: %s", what, text);
}

int mulred_dist_init(int *argc, char ***argv, mulred_error *err)
{
    if (mulred_dist_active()) return MULRED_OK;
    int provided = 0;
    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS) return mulred_error_set(err, MULRED_ERUNTIME, "MPI_Init_thread failed");
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        return mulred_error_set(err, MULRED_ERUNTIME,
                                "MPI provides thread level %d, mulred needs MPI_THREAD_FUNNELED",
                                provided);
    }
    dist_initialized_here = true;
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rc != MPI_SUCCESS) {
        mulred_dist_finalize();
        return dist_mpi_status(rc, "MPI_Comm_set_errhandler", err);
    }
    return MULRED_OK;
}

void mulred_dist_finalize(void)
{
    if (!dist_initialized_here) return;
    if (mulred_dist_active()) {
        dist_group_free();
        MPI_Finalize(); /* nothing to do about a failure: the process is ending */
    }
    dist_initialized_here = false;
}

bool mulred_dist_active(void)
{
    int initialized = 0, finalized = 0;
    MULRED_CHECK(MPI_Initialized(&initialized) == MPI_SUCCESS, "MPI_Initialized");
    MULRED_CHECK(MPI_Finalized(&finalized) == MPI_SUCCESS, "MPI_Finalized");
    return initialized && !finalized;
}

int mulred_dist_rank(void)
{
    if (!mulred_dist_active()) return mulred_dist_env_rank();
    int r = 0;
    MULRED_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &r) == MPI_SUCCESS, "MPI_Comm_rank");
    return r;
}

int mulred_dist_size(void)
{
    if (!mulred_dist_active()) return 1;
    int s = 1;
    MULRED_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &s) == MPI_SUCCESS, "MPI_Comm_size");
    return s;
}

bool dist_multi_rank(void)
{
    if (!mulred_dist_active()) return false;
    int main_thread = 0;
    MULRED_CHECK(MPI_Is_thread_main(&main_thread) == MPI_SUCCESS && main_thread,
                 "MPI is FUNNELED: call mulred_dist_* from the thread that initialized MPI");
    return mulred_dist_size() > 1;
}

static const char *launcher_rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                           "SLURM_PROCID"};

int mulred_dist_env_rank(void)
{
    for (size_t i = 0; i < sizeof launcher_rank_vars / sizeof launcher_rank_vars[0]; i++) {
        const char *v = getenv(launcher_rank_vars[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

bool mulred_dist_launched(void)
{
    for (size_t i = 0; i < sizeof launcher_rank_vars / sizeof launcher_rank_vars[0]; i++)
        if (getenv(launcher_rank_vars[i])) return true;
    return getenv("MULRED_FORCE_MPI") != NULL;
}

void mulred_dist_abort(int status)
{
    if (mulred_dist_active()) MPI_Abort(MPI_COMM_WORLD, status);
    exit(status);
}

int mulred_dist_agree(mulred_error *err)
{
    int mine = err->status;
    if (!dist_multi_rank()) return mine;
    int worst = 0, rc;
    rc = MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return dist_mpi_status(rc, "MPI_Allreduce (status)", err);
    if (worst == MULRED_OK) return MULRED_OK;
    /* The lowest rank with an error sends its message to rank 0. */
    int rank = mulred_dist_rank(), size = mulred_dist_size();
    int candidate = mine != MULRED_OK ? rank : size, first = size;
    rc = MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return dist_mpi_status(rc, "MPI_Allreduce (status)", err);
    if (first != 0) {
        if (rank == first)
            rc = MPI_Send(err->message, sizeof err->message, MPI_CHAR, 0, DIST_TAG_AGREE_MESSAGE,
                          MPI_COMM_WORLD);
        if (rank == 0)
            rc = MPI_Recv(err->message, sizeof err->message, MPI_CHAR, first,
                          DIST_TAG_AGREE_MESSAGE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return dist_mpi_status(rc, "sending the error message", err);
    }
    err->status = worst;
    return worst;
}

int mulred_dist_minavgmax(double v, double out[3], mulred_error *err)
{
    out[0] = out[1] = out[2] = v;
    if (!dist_multi_rank()) return MULRED_OK;
    double sum = 0;
    int rc = MPI_Allreduce(&v, &out[0], 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS) rc = MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS) rc = MPI_Allreduce(&v, &out[2], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    out[1] = sum / mulred_dist_size();
    return dist_mpi_status(rc, "MPI_Allreduce (timings)", err);
}

int mulred_dist_sum_u64(uint64_t *sum, uint64_t v, mulred_error *err)
{
    *sum = v;
    if (!dist_multi_rank()) return MULRED_OK;
    return dist_mpi_status(MPI_Allreduce(&v, sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD),
                           "MPI_Allreduce (counts)", err);
}

int mulred_dist_barrier(mulred_error *err)
{
    if (!dist_multi_rank()) return MULRED_OK;
    return dist_mpi_status(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", err);
}

int mulred_dist_node_count(int *nodes, mulred_error *err)
{
    *nodes = 1;
    if (!dist_multi_rank()) return MULRED_OK;
    /* Ranks sharing memory are on one node: count the ranks that lead a shared-memory
     * communicator. */
    MPI_Comm node;
    int node_rank = 0, leaders = 0;
    int rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS) return dist_mpi_status(rc, "MPI_Comm_split_type", err);
    rc = MPI_Comm_rank(node, &node_rank);
    int lead = node_rank == 0;
    if (rc == MPI_SUCCESS) rc = MPI_Allreduce(&lead, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rc_free = MPI_Comm_free(&node);
    if (rc == MPI_SUCCESS) rc = rc_free;
    if (rc == MPI_SUCCESS) *nodes = leaders;
    return dist_mpi_status(rc, "counting nodes", err);
}

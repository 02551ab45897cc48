/* MPI plumbing: init, status agreement, small collectives. The MuHash reduction op lives in
 * dist_muhash.c; byte-range planning in dist_io.c. */
#include <mpi.h>

#include <stdlib.h>
#include <string.h>

#include "dist/dist_internal.h"
#include "mulred/dist.h"

static bool dist_initialized_here;

int mulred_dist_init(int *argc, char ***argv, mulred_error *err)
{
    int flag = 0;
    MPI_Initialized(&flag);
    if (flag) return MULRED_OK;
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return mulred_error_set(err, MULRED_ERUNTIME, "MPI_Init_thread failed");
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        return mulred_error_set(err, MULRED_ERUNTIME,
                                "MPI provides thread level %d, mulred needs MPI_THREAD_FUNNELED",
                                provided);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    dist_initialized_here = true;
    return MULRED_OK;
}

void mulred_dist_finalize(void)
{
    if (dist_initialized_here) {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized) MPI_Finalize();
        dist_initialized_here = false;
    }
}

bool mulred_dist_active(void)
{
    int flag = 0, finalized = 0;
    MPI_Initialized(&flag);
    MPI_Finalized(&finalized);
    return flag && !finalized;
}

int mulred_dist_rank(void)
{
    if (!mulred_dist_active()) return mulred_dist_env_rank();
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int mulred_dist_size(void)
{
    if (!mulred_dist_active()) return 1;
    int s;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
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
    if (!mulred_dist_active() || mulred_dist_size() == 1) return mine;
    int worst = 0;
    MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst == MULRED_OK) return MULRED_OK;
    /* The lowest rank with an error sends its message to rank 0. */
    int rank = mulred_dist_rank(), size = mulred_dist_size();
    int candidate = mine != MULRED_OK ? rank : size, first = size;
    MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first != 0) {
        if (rank == first) MPI_Send(err->message, sizeof err->message, MPI_CHAR, 0, 77, MPI_COMM_WORLD);
        if (rank == 0)
            MPI_Recv(err->message, sizeof err->message, MPI_CHAR, first, 77, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
    err->status = worst;
    return worst;
}

void mulred_dist_minavgmax(double v, double out[3])
{
    if (!mulred_dist_active() || mulred_dist_size() == 1) {
        out[0] = out[1] = out[2] = v;
        return;
    }
    double sum = 0;
    MPI_Allreduce(&v, &out[0], 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&v, &out[2], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    out[1] = sum / mulred_dist_size();
}

uint64_t mulred_dist_sum_u64(uint64_t v)
{
    if (!mulred_dist_active() || mulred_dist_size() == 1) return v;
    uint64_t s = 0;
    MPI_Allreduce(&v, &s, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

void mulred_dist_barrier(void)
{
    if (mulred_dist_active()) MPI_Barrier(MPI_COMM_WORLD);
}

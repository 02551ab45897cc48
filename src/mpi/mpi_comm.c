/* MPI plumbing: init, the launcher's rank, status agreement, small collectives and the node
 * count, each over the caller's communicator (mulred/mulred_mpi.h). The rank queries are in
 * mpi_base.c; the generic group reduction in mpi_group.c; the plan of work units over ranks,
 * which needs no MPI, in plan.c. Every MPI return code is checked: collectives return
 * MULRED_ERUNTIME. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"
#include "util/check.h"

static bool mpi_initialized_here;

mulred_status mulred_mpi_init(int *argc, char ***argv, mulred_error *err)
{
    if (mulred_mpi_active()) return MULRED_OK;
    int provided = 0;
    /* a bad $MULRED_STALL_TIMEOUT is reported by the job, after MPI is up on every rank */
    double stall = MULRED_MPI_STALL_TIMEOUT_DEFAULT;
    mulred_error ignored;
    mulred_error_clear(&ignored);
    mulred_mpi_stall_timeout(0, &stall, &ignored);
    /* SERIALIZED when MPI has it, for streams handed out by rank 0 (mpi_stream.c); everything
     * else calls MPI from the main thread only. MPI_Init waits for every rank (and the
     * launcher's daemons): a plain deadline bounds it. */
    mpi_deadline_start("MPI_Init", stall);
    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
    mpi_deadline_stop();
    if (rc != MPI_SUCCESS) return mulred_error_set(err, MULRED_ERUNTIME, "MPI_Init_thread failed");
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        return mulred_error_set(err, MULRED_ERUNTIME,
                                "MPI provides thread level %d, mulred needs MPI_THREAD_FUNNELED",
                                provided);
    }
    mpi_initialized_here = true;
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rc != MPI_SUCCESS) {
        mulred_mpi_finalize();
        return mpi_rc_status(rc, "MPI_Comm_set_errhandler", err);
    }
    return MULRED_OK;
}

void mulred_mpi_finalize(void)
{
    if (!mpi_initialized_here) return;
    if (mulred_mpi_active()) {
        mpi_group_free();
        /* MPI_Finalize waits for every rank; a rank gone after the last job must not keep
         * the others here */
        double stall = MULRED_MPI_STALL_TIMEOUT_DEFAULT;
        mulred_error ignored;
        mulred_error_clear(&ignored);
        mulred_mpi_stall_timeout(0, &stall, &ignored);
        mpi_deadline_start("MPI_Finalize", stall);
        MPI_Finalize(); /* nothing to do about a failure: the process is ending */
        mpi_deadline_stop();
    }
    mpi_initialized_here = false;
}

static const char *launcher_rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                           "SLURM_PROCID"};

int mulred_mpi_env_rank(void)
{
    for (size_t i = 0; i < sizeof launcher_rank_vars / sizeof launcher_rank_vars[0]; i++) {
        const char *v = getenv(launcher_rank_vars[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

bool mulred_mpi_launched(void)
{
    for (size_t i = 0; i < sizeof launcher_rank_vars / sizeof launcher_rank_vars[0]; i++)
        if (getenv(launcher_rank_vars[i])) return true;
    return getenv("MULRED_FORCE_MPI") != NULL;
}

void mulred_mpi_abort(MPI_Comm comm, int status)
{
    if (mulred_mpi_active()) MPI_Abort(comm, status);
}

static mulred_status agree_run(MPI_Comm comm, mulred_error *err)
{
    int mine = err->status;
    int worst = 0, rc;
    rc = WAITED(MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm));
    if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "MPI_Allreduce (status)", err);
    if (worst == MULRED_OK) return MULRED_OK;
    /* The lowest rank with an error sends its message to rank 0. */
    int rank = mulred_mpi_rank(comm), size = mulred_mpi_size(comm);
    int candidate = mine != MULRED_OK ? rank : size, first = size;
    rc = WAITED(MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, comm));
    if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "MPI_Allreduce (status)", err);
    if (first != 0) {
        if (rank == first)
            rc = WAITED(MPI_Send(err->message, sizeof err->message, MPI_CHAR, 0,
                                 MULRED_TAG_AGREE_MESSAGE, comm));
        if (rank == 0)
            rc = WAITED(MPI_Recv(err->message, sizeof err->message, MPI_CHAR, first,
                                 MULRED_TAG_AGREE_MESSAGE, comm, MPI_STATUS_IGNORE));
        if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "sending the error message", err);
    }
    err->status = worst;
    return worst;
}

/* The public collectives below run under a watch of their own when no job or scope has one
 * (mpi_watch.c): the watch's set-up and final barrier cost a few small collectives. */
mulred_status mulred_mpi_agree(MPI_Comm comm, mulred_error *err)
{
    if (!mpi_multi_rank(comm)) return err->status;
    mulred_error mine = *err;
    mulred_error_clear(err);
    if (mpi_watch_start(comm, 0, "mulred_mpi_agree", NULL, NULL, err)) return err->status;
    *err = mine;
    agree_run(comm, err);
    return mpi_watch_stop(err);
}

mulred_status mulred_mpi_minavgmax(MPI_Comm comm, double v, double out[3], mulred_error *err)
{
    out[0] = out[1] = out[2] = v;
    if (!mpi_multi_rank(comm)) return MULRED_OK;
    if (mpi_watch_start(comm, 0, "mulred_mpi_minavgmax", NULL, NULL, err)) return err->status;
    double sum = 0;
    int rc = WAITED(MPI_Allreduce(&v, &out[0], 1, MPI_DOUBLE, MPI_MIN, comm));
    if (rc == MPI_SUCCESS) rc = WAITED(MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, comm));
    if (rc == MPI_SUCCESS) rc = WAITED(MPI_Allreduce(&v, &out[2], 1, MPI_DOUBLE, MPI_MAX, comm));
    out[1] = sum / mulred_mpi_size(comm);
    mpi_rc_status(rc, "MPI_Allreduce (timings)", err);
    return mpi_watch_stop(err);
}

mulred_status mulred_mpi_sum_u64(MPI_Comm comm, uint64_t *sum, uint64_t v, mulred_error *err)
{
    *sum = v;
    if (!mpi_multi_rank(comm)) return MULRED_OK;
    if (mpi_watch_start(comm, 0, "mulred_mpi_sum_u64", NULL, NULL, err)) return err->status;
    mpi_rc_status(WAITED(MPI_Allreduce(&v, sum, 1, MPI_UINT64_T, MPI_SUM, comm)),
                  "MPI_Allreduce (counts)", err);
    return mpi_watch_stop(err);
}

mulred_status mulred_mpi_barrier(MPI_Comm comm, mulred_error *err)
{
    if (!mpi_multi_rank(comm)) return MULRED_OK;
    if (mpi_watch_start(comm, 0, "mulred_mpi_barrier", NULL, NULL, err)) return err->status;
    mpi_rc_status(WAITED(MPI_Barrier(comm)), "MPI_Barrier", err);
    return mpi_watch_stop(err);
}

static mulred_status node_count_run(MPI_Comm comm, int *nodes, mulred_error *err)
{
    /* Ranks sharing memory are on one node: count the ranks that lead a shared-memory
     * communicator. */
    MPI_Comm node;
    int node_rank = 0, leaders = 0;
    int rc = WAITED(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "MPI_Comm_split_type", err);
    rc = MPI_Comm_rank(node, &node_rank);
    int lead = node_rank == 0;
    if (rc == MPI_SUCCESS) rc = WAITED(MPI_Allreduce(&lead, &leaders, 1, MPI_INT, MPI_SUM, comm));
    int rc_free = MPI_Comm_free(&node);
    if (rc == MPI_SUCCESS) rc = rc_free;
    if (rc == MPI_SUCCESS) *nodes = leaders;
    return mpi_rc_status(rc, "counting nodes", err);
}

mulred_status mulred_mpi_node_count(MPI_Comm comm, int *nodes, mulred_error *err)
{
    *nodes = 1;
    if (!mpi_multi_rank(comm)) return MULRED_OK;
    if (mpi_watch_start(comm, 0, "mulred_mpi_node_count", NULL, NULL, err)) return err->status;
    node_count_run(comm, nodes, err);
    return mpi_watch_stop(err);
}

mulred_status mulred_mpi_node_names(MPI_Comm comm, char *out, size_t cap, mulred_error *err)
{
    enum { NAME = MPI_MAX_PROCESSOR_NAME };
    char mine[NAME] = "";
    mpi_node_name(mine, sizeof mine);
    if (cap) out[0] = 0;
    const int n = mulred_mpi_size(comm), rank = mulred_mpi_rank(comm);
    char *all = NULL;
    if (rank == 0 && !(all = malloc((size_t)n * NAME)))
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory for %d node names", n);
    int rc = MPI_SUCCESS;
    if (mpi_multi_rank(comm)) {
        if (mpi_watch_start(comm, 0, "mulred_mpi_node_names", NULL, NULL, err)) {
            free(all);
            return err->status;
        }
        rc = WAITED(MPI_Gather(mine, NAME, MPI_CHAR, all, NAME, MPI_CHAR, 0, comm));
        mpi_watch_stop(err);
    } else if (all)
        memcpy(all, mine, NAME);
    if (rc == MPI_SUCCESS && all && cap) {
        size_t used = 0;
        for (int r = 0; r < n; r++) {
            const char *name = all + (size_t)r * NAME;
            bool seen = false;
            for (int q = 0; q < r && !seen; q++) seen = !strcmp(name, all + (size_t)q * NAME);
            if (seen) continue;
            const size_t len = strlen(name), sep = used ? 1 : 0;
            if (used + sep + len + 5 > cap) { /* room for ",..." and the NUL */
                if (used + 5 <= cap) memcpy(out + used, ",...", 5);
                break;
            }
            if (sep) out[used++] = ',';
            memcpy(out + used, name, len + 1);
            used += len;
        }
    }
    free(all);
    return mpi_rc_status(rc, "MPI_Gather (node names)", err);
}

mulred_status mpi_phases(MPI_Comm comm, const double *local, mulred_mpi_phase *out, int n,
                         mulred_error *err)
{
    mulred_status rc = MULRED_OK;
    for (int p = 0; p < n && rc == MULRED_OK; p++) {
        double v[3];
        rc = mulred_mpi_minavgmax(comm, local[p], v, err);
        out[p] = (mulred_mpi_phase){v[0], v[1], v[2]};
    }
    return rc;
}

void mpi_note_recompute(mulred_mpi_note_fn fn, void *data, const char *note, uint64_t u)
{
    if (!fn) return;
    char m[640];
    snprintf(m, sizeof m, "%s; recomputing unit %llu", note, (unsigned long long)u);
    fn(m, data);
}

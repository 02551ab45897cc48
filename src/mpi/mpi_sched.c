/* The unit scheduler of the distributed jobs: a rank's units under a static or dynamic
 * schedule (mulred/plan.h), as one cursor the jobs loop over.
 *
 * Static: the rank's share, one batch, no communication. Dynamic: every rank orders the units
 * by decreasing cost and cuts the order into shrinking batches (pure functions of the job, so
 * the ranks agree without talking); batch numbers come from one 64-bit counter in an MPI-3
 * window on rank 0, drawn with MPI_Fetch_and_op (MPI_SUM of 1) under a passive-target epoch
 * (MPI_Win_lock_all for the whole hand-out). Rank 0 draws and computes like any other rank.
 * A draw is one atomic operation on rank 0's memory: with Open MPI's shared-memory window
 * (osc sm, ranks on one node) no rank waits for rank 0 to call MPI. Across nodes over TCP the
 * one-sided component (osc pt2pt) serves a draw only when rank 0 enters MPI, so rank 0, which
 * computes too, polls (mpi_units_poll) from its master thread after each chunk of MuHash work
 * it finishes (FUNNELED allows it: the team's thread 0 is the thread that initialized MPI);
 * while it computes an MSM tile, which has no such hook, a server thread of rank 0 polls
 * instead (mpi_units_serve_begin/end; MPI_THREAD_SERIALIZED: the main thread makes no MPI call
 * meanwhile), so no draw waits for rank 0's tile (docs/performance.md has the figures). Not every
 * MPI serves such a window (Open MPI 4.1's one-sided components fail on some TCP set-ups with
 * MPI_ERR_WIN): every rank makes, locks and tries the window with one draw of a bounded wait, and
 * unless it works on all of them the ranks agree to hand out by messages instead (below), with the
 * same units and result; the job's result says which hand-out ran. With MULRED_HANDOUT=coordinator
 * in a rank's environment the batch numbers come from rank 0 by messages instead (a request, a
 * grant; rank 0 answers in the same poll and, when its own work is done, until every rank has been
 * told that none is left): the variant the counter was measured against. Who draws which batch
 * changes only which rank multiplies which units in: the group is commutative and the outputs
 * canonical, so the result is the same. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/mpi_internal.h"
#include "util/check.h"

static void units_free(mpi_units *d)
{
    free(d->items);
    free(d->ends);
    free(d->ids);
    d->items = NULL, d->ends = NULL, d->ids = NULL;
}

static mulred_status units_fail(mpi_units *d, mulred_error *err)
{
    units_free(d);
    return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
}

static bool window_open(mpi_units *d, mulred_error *err);

mulred_status mpi_units_open(mpi_units *d, MPI_Comm comm, mulred_schedule schedule,
                             const uint64_t *cost, uint64_t n, mulred_unit_range share,
                             uint64_t min_batch, mulred_error *err)
{
    memset(d, 0, sizeof *d);
    d->schedule = schedule;
    d->comm = comm;
    d->n = n;
    d->win = MPI_WIN_NULL;
    if (schedule == MULRED_SCHEDULE_STATIC) {
        d->share = share;
        d->nbatches = share.end > share.first ? 1 : 0;
        d->ids = malloc((share.end - share.first) * sizeof *d->ids + 1);
        if (!d->ids) units_fail(d, err);
        /* the caller agrees on err before it draws */
        return err->status;
    }
    d->items = malloc(n * sizeof *d->items + 1);
    d->ends = malloc(n * sizeof *d->ends + 1);
    d->ids = malloc(n * sizeof *d->ids + 1);
    if (err->status == MULRED_OK && (!d->items || !d->ends || !d->ids)) units_fail(d, err);
    if (err->status == MULRED_OK) {
        for (uint64_t u = 0; u < n; u++) d->items[u] = (mulred_plan_item){u, cost ? cost[u] : 1};
        mulred_plan_order(d->items, n);
        /* the same min_batch on every rank: the largest thread count */
        double mb[3] = {(double)min_batch, 0, 0};
        if (mulred_mpi_minavgmax(comm, (double)min_batch, mb, err) == MULRED_OK)
            d->nbatches = mulred_plan_batches(d->ends, d->items, n, mulred_mpi_size(comm),
                                              mb[2] >= 1 ? (uint64_t)mb[2] : 1);
        /* the hand-out by messages instead, when rank 0's environment asks for it */
        const char *h = getenv("MULRED_HANDOUT");
        double co[3] = {0, 0, 0};
        if (err->status == MULRED_OK &&
            mulred_mpi_minavgmax(comm, h && !strcmp(h, "coordinator") ? 1 : 0, co, err) ==
                MULRED_OK)
            d->coord = co[2] > 0; /* any rank asking: the same on all */
    } else {
        /* still enter the collectives of the others, then fail with them */
        mulred_error tmp;
        mulred_error_clear(&tmp);
        double mb[3];
        mulred_mpi_minavgmax(comm, 0, mb, &tmp);
        mulred_mpi_minavgmax(comm, 0, mb, &tmp);
    }
    if (mulred_mpi_agree(comm, err)) { /* err: the agreed failure, kept */
        units_free(d);
        return err->status;
    }
    d->multi = mpi_multi_rank(comm);
    if (!d->multi) return MULRED_OK;
    if (d->coord || !window_open(d, err)) {
        if (err->status != MULRED_OK) {
            units_free(d);
            return err->status;
        }
        d->coord = true;
        d->host = mulred_mpi_rank(comm) == 0;
        d->waiting = mulred_mpi_size(comm) - 1; /* ranks that have not been told "none" */
        d->handout = MULRED_MPI_HANDOUT_COORDINATOR;
        return MULRED_OK;
    }
    d->handout = MULRED_MPI_HANDOUT_WINDOW;
    return MULRED_OK;
}

/* One draw of the counter's value (MPI_NO_OP) within TEST_DRAW_SECONDS: whether the window
 * answers on this MPI. *pending: the draw is still out (the window must then stay). */
enum { TEST_DRAW_SECONDS = 10 };
static bool window_answers(mpi_units *d, bool *pending)
{
    uint64_t got = 0, none = 0;
    MPI_Request req;
    *pending = false;
    if (MPI_Rget_accumulate(&none, 1, MPI_UINT64_T, &got, 1, MPI_UINT64_T, 0, 0, 1, MPI_UINT64_T,
                            MPI_NO_OP, d->win, &req) != MPI_SUCCESS)
        return false;
    const double until = mulred_wtime() + TEST_DRAW_SECONDS;
    int done = 0;
    while (!done && mulred_wtime() < until)
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
    *pending = !done;
    return done;
}

/* Collective: the counter window on rank 0, made, locked and tried by every rank. False (err
 * untouched) when it fails anywhere: the ranks agree, free it where they all can, and hand out
 * by messages instead. False with err set: the agreement itself failed. */
static bool window_open(mpi_units *d, mulred_error *err)
{
    const int rank = mulred_mpi_rank(d->comm);
    MPI_Aint bytes = rank == 0 ? (MPI_Aint)sizeof(uint64_t) : 0;
    int rc = WAITED(MPI_Win_allocate(bytes, (int)sizeof(uint64_t), MPI_INFO_NULL, d->comm,
                                     &d->counter, &d->win));
    const bool made = rc == MPI_SUCCESS && d->win != MPI_WIN_NULL;
    bool locked = false, pending = false, answers = false;
    if (made) rc = MPI_Win_set_errhandler(d->win, MPI_ERRORS_RETURN);
    if (made && rc == MPI_SUCCESS && rank == 0) *d->counter = 0;
    if (made && rc == MPI_SUCCESS) locked = MPI_Win_lock_all(MPI_MODE_NOCHECK, d->win) == 0;
    if (locked) answers = window_answers(d, &pending);
    /* the counter is zero on rank 0 before any rank draws: rank 0 set it before this */
    int mine[2] = {answers, made && !pending}, all[2] = {0, 0};
    rc = WAITED(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, d->comm));
    if (rc != MPI_SUCCESS) {
        mpi_rc_status(rc, "agreeing on the dynamic schedule's hand-out", err);
        return false;
    }
    if (all[0]) return true;
    if (all[1]) { /* made everywhere and nothing left in flight: free it together */
        if (locked) MPI_Win_unlock_all(d->win);
        WAITED(MPI_Win_free(&d->win));
    }
    d->win = MPI_WIN_NULL; /* else left to MPI_Finalize */
    return false;
}

const char *mulred_mpi_handout_name(mulred_mpi_handout h)
{
    switch (h) {
    case MULRED_MPI_HANDOUT_WINDOW:
        return "window";
    case MULRED_MPI_HANDOUT_COORDINATOR:
        return "coordinator";
    default:
        return "none";
    }
}

static int ids_compare(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Coordinator: rank 0 answers every request waiting (block: until one has come), each with
 * the next batch number; a number past the last one tells the rank that none is left. */
static int coord_serve(mpi_units *d, bool block)
{
    for (;;) {
        int flag = 1, rc = MPI_SUCCESS;
        MPI_Status st;
        if (!block) rc = MPI_Iprobe(MPI_ANY_SOURCE, MULRED_TAG_REQUEST, d->comm, &flag, &st);
        if (rc != MPI_SUCCESS || !flag) return rc;
        char none;
        rc = WAITED(MPI_Recv(&none, 0, MPI_CHAR, MPI_ANY_SOURCE, MULRED_TAG_REQUEST, d->comm, &st));
        const uint64_t b = d->next_batch++;
        if (rc == MPI_SUCCESS)
            rc = WAITED(MPI_Send(&b, 1, MPI_UINT64_T, st.MPI_SOURCE, MULRED_TAG_GRANT, d->comm));
        if (rc != MPI_SUCCESS) return rc;
        if (b >= d->nbatches) d->waiting--;
        if (block) return MPI_SUCCESS;
    }
}

/* The next batch number: from the counter, or from the coordinator. */
static int draw(mpi_units *d, uint64_t *b)
{
    if (!d->multi) {
        *b = d->next_batch++;
        return MPI_SUCCESS;
    }
    if (d->coord && d->host) {
        int rc = coord_serve(d, false);
        *b = d->next_batch++;
        return rc;
    }
    if (d->coord) {
        char none = 0;
        int rc = WAITED(MPI_Send(&none, 0, MPI_CHAR, 0, MULRED_TAG_REQUEST, d->comm));
        if (rc == MPI_SUCCESS)
            rc = WAITED(
                MPI_Recv(b, 1, MPI_UINT64_T, 0, MULRED_TAG_GRANT, d->comm, MPI_STATUS_IGNORE));
        if (rc == MPI_SUCCESS && *b >= d->nbatches) d->told_none = true;
        return rc;
    }
    const uint64_t one = 1;
    int rc = MPI_Fetch_and_op(&one, b, MPI_UINT64_T, 0, 0, MPI_SUM, d->win);
    if (rc == MPI_SUCCESS) rc = WAITED(MPI_Win_flush(0, d->win));
    return rc;
}

bool mpi_units_batch(mpi_units *d, const uint64_t **ids, uint64_t *count)
{
    if (d->failed) return false;
    if (d->schedule == MULRED_SCHEDULE_STATIC) {
        if (d->next_batch >= d->nbatches) return false;
        d->next_batch++;
        d->nids = d->share.end - d->share.first;
        for (uint64_t i = 0; i < d->nids; i++) d->ids[i] = d->share.first + i;
    } else {
        uint64_t b = 0;
        {
            int rc = draw(d, &b);
            if (rc != MPI_SUCCESS) {
                d->failed = true;
                mpi_rc_status(rc, "drawing units from the dynamic schedule's counter", &d->error);
                return false;
            }
        }
        if (b >= d->nbatches) return false;
        const uint64_t s = b ? d->ends[b - 1] : 0, e = d->ends[b];
        d->before = s;
        d->nids = e - s;
        for (uint64_t i = 0; i < d->nids; i++) d->ids[i] = d->items[s + i].unit;
        /* in unit order, so consecutive units of one input make one run */
        qsort(d->ids, (size_t)d->nids, sizeof *d->ids, ids_compare);
        d->batches++;
    }
    d->drawn += d->nids;
    d->pos = 0;
    *ids = d->ids;
    *count = d->nids;
    return true;
}

bool mpi_units_run(mpi_units *d, uint64_t align, uint64_t *u0, uint64_t *u1)
{
    while (d->pos >= d->nids) {
        const uint64_t *ids;
        uint64_t count;
        if (!mpi_units_batch(d, &ids, &count)) return false;
    }
    uint64_t a = d->ids[d->pos], e = a + 1;
    d->pos++;
    while (d->pos < d->nids && d->ids[d->pos] == e && e % align != 0) e++, d->pos++;
    *u0 = a, *u1 = e;
    return true;
}

void mpi_units_poll(void *vd, uint64_t done, uint64_t total)
{
    (void)done, (void)total;
    mpi_units *d = vd;
    if (!d || !d->host || d->failed) return;
    if (d->coord) {
        if (coord_serve(d, false) != MPI_SUCCESS) d->failed = true;
        return;
    }
    if (d->win == MPI_WIN_NULL) return;
    int flag = 0;
    /* any call that enters MPI's progress engine serves the draws waiting on rank 0; the
     * probe matches nothing mulred sends during the hand-out */
    MPI_Iprobe(MPI_ANY_SOURCE, MULRED_TAG_UNITS, d->comm, &flag, MPI_STATUS_IGNORE);
}

static void *serve_main(void *vd)
{
    mpi_units *d = vd;
    const struct timespec pause = {0, 1000000}; /* 1 ms between polls */
    while (!atomic_load(&d->serve_stop)) {
        mpi_units_poll(d, 0, 0);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

void mpi_units_serve_begin(mpi_units *d)
{
    int level = MPI_THREAD_SINGLE;
    if (!d->host || !d->multi || d->schedule != MULRED_SCHEDULE_DYNAMIC || d->serving ||
        MPI_Query_thread(&level) != MPI_SUCCESS || level < MPI_THREAD_SERIALIZED)
        return;
    atomic_store(&d->serve_stop, false);
    d->serving = pthread_create(&d->server, NULL, serve_main, d) == 0;
}

void mpi_units_serve_end(mpi_units *d)
{
    if (!d->serving) return;
    atomic_store(&d->serve_stop, true);
    pthread_join(d->server, NULL);
    d->serving = false;
}

mulred_status mpi_units_close(mpi_units *d, mulred_error *err)
{
    mpi_units_serve_end(d);
    int rc = MPI_SUCCESS;
    /* coordinator: rank 0 answers until every rank has been told that none is left; a rank
     * that stopped early (its own error) draws on until told, computing nothing */
    while (d->coord && d->multi && d->host && d->waiting > 0 && rc == MPI_SUCCESS)
        rc = coord_serve(d, true);
    while (d->coord && d->multi && !d->host && !d->told_none && rc == MPI_SUCCESS) {
        uint64_t b;
        rc = draw(d, &b);
    }
    if (d->win != MPI_WIN_NULL) {
        rc = WAITED(MPI_Win_unlock_all(d->win));
        int rc2 = WAITED(MPI_Win_free(&d->win));
        if (rc == MPI_SUCCESS) rc = rc2;
    }
    free(d->items);
    free(d->ends);
    free(d->ids);
    d->items = NULL, d->ends = NULL, d->ids = NULL;
    if (err->status == MULRED_OK && d->failed) *err = d->error;
    if (err->status == MULRED_OK) mpi_rc_status(rc, "freeing the dynamic schedule's window", err);
    return err->status;
}

mulred_status mpi_gather_counts(MPI_Comm comm, uint64_t v, uint64_t *out, mulred_error *err)
{
    if (!mpi_multi_rank(comm)) {
        if (out) out[0] = v;
        return MULRED_OK;
    }
    /* point to point into one value at a time: nothing to allocate, so nothing to fail on
     * rank 0 while the others send (one message per rank, once per job) */
    const int rank = mulred_mpi_rank(comm), size = mulred_mpi_size(comm);
    int rc = MPI_SUCCESS;
    if (rank == 0) {
        if (out) out[0] = v;
        for (int r = 1; r < size; r++) {
            uint64_t got = 0;
            int rcr = WAITED(
                MPI_Recv(&got, 1, MPI_UINT64_T, r, MULRED_TAG_UNITS, comm, MPI_STATUS_IGNORE));
            if (rc == MPI_SUCCESS) rc = rcr;
            if (out) out[r] = got;
        }
    } else {
        rc = WAITED(MPI_Send(&v, 1, MPI_UINT64_T, 0, MULRED_TAG_UNITS, comm));
    }
    return mpi_rc_status(rc, "gathering the units per rank", err);
}

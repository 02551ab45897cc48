/* Shared by the files of src/mpi/ that talk to MPI (mpi_base.c: rank queries, statuses, the
 * node name, see mpi_base.h; mpi_comm.c: set-up and small collectives; mpi_group.c: the generic
 * group reduction; mpi_watch.c: the deadlines; mpi_muhash.c, mpi_msm.c: the jobs). plan.c and
 * msm_grid.c need none of it. */
#ifndef MULRED_MPI_INTERNAL_H
#define MULRED_MPI_INTERNAL_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>

#include "mpi/mpi_base.h"
#include "mulred/mulred_mpi.h"
#include "mulred/sources.h"

/* Tags of the point-to-point messages mulred sends (collectives need none). */
enum {
    MULRED_TAG_AGREE_MESSAGE = 1,
    MULRED_TAG_UNITS = 2,
    MULRED_TAG_REQUEST = 3,
    MULRED_TAG_GRANT = 4,
    MULRED_TAG_STREAM_REQUEST = 5,
    MULRED_TAG_STREAM_BLOCK = 6
};

/* Min, average and max over the ranks of comm of each of the n values local[], into out[]. */
mulred_status mpi_phases(MPI_Comm comm, const double *local, mulred_mpi_phase *out, int n,
                         mulred_error *err);

/* Tells the job's note callback (when set) that checkpoint unit u was damaged (note: the
 * store's description of the damage) and is recomputed. */
void mpi_note_recompute(mulred_mpi_note_fn fn, void *data, const char *note, uint64_t u);

/* Frees the generic reduce op and its datatype attribute key (before MPI_Finalize). */
void mpi_group_free(void);

/* ---- the unit scheduler (mpi_sched.c) ----
 * A rank's units under a schedule, as a cursor: static gives the rank's share as one batch;
 * dynamic draws batches of the ordered units (mulred/plan.h) from a counter in an MPI window
 * on rank 0 until none are left. Unit numbers within a batch come in increasing order. */
typedef struct {
    mulred_schedule schedule;
    MPI_Comm comm;
    bool multi, failed, host; /* host: this rank holds the counter (rank 0) */
    /* MULRED_HANDOUT=coordinator (for measurement): rank 0 grants batch numbers by messages,
     * between its own chunks, instead of the counter */
    bool coord, told_none;
    int waiting; /* coordinator: ranks not yet told that none is left */
    uint64_t n;
    mulred_unit_range share;              /* static */
    mulred_plan_item *items;              /* dynamic: the units by decreasing cost */
    uint64_t *ends, nbatches, next_batch; /* batch k ends at items[ends[k]] */
    uint64_t *ids, nids, pos;             /* the current batch, in unit order */
    uint64_t drawn, batches;              /* units and batches this rank got */
    uint64_t before;                      /* dynamic: the units ordered before the current batch */
    MPI_Win win;
    uint64_t *counter;
    mulred_mpi_handout handout; /* how a dynamic schedule over several ranks hands out */
    pthread_t server;           /* rank 0, between serve_begin and serve_end */
    bool serving;
    atomic_bool serve_stop;
    mulred_error error; /* a failed draw */
} mpi_units;

/* Collective under dynamic (every rank, the same n and costs; err as every rank's status so
 * far, agreed on here): cost[u] is unit u's estimated cost (NULL: all 1); min_batch the fewest
 * units a batch holds (the ranks use the largest they pass). Static: share is the rank's units,
 * no communication. Returns the agreed status under dynamic; on failure nothing is to close. */
mulred_status mpi_units_open(mpi_units *d, MPI_Comm comm, mulred_schedule schedule,
                             const uint64_t *cost, uint64_t n, mulred_unit_range share,
                             uint64_t min_batch, mulred_error *err);
/* The next batch of this rank: false when none is left (or a draw failed: close reports it). */
bool mpi_units_batch(mpi_units *d, const uint64_t **ids, uint64_t *count);
/* The next run [*u0, *u1) of consecutive units of the current batch (drawing another when it is
 * used up) that does not cross a multiple of align; false when none is left. */
bool mpi_units_run(mpi_units *d, uint64_t align, uint64_t *u0, uint64_t *u1);
/* A mulred_muhash_reduce_opts progress callback (data: the mpi_units) that lets rank 0 serve
 * the draws of the others while it computes: it enters MPI's progress engine. Called by the
 * team's thread 0, the thread that initialized MPI (FUNNELED). Does nothing on other ranks. */
void mpi_units_poll(void *d, uint64_t done, uint64_t total);
/* On rank 0 under dynamic, with MPI_THREAD_SERIALIZED: a thread that polls as above while the
 * caller computes without calling MPI (an MSM tile), until serve_end; elsewhere nothing. */
void mpi_units_serve_begin(mpi_units *d);
void mpi_units_serve_end(mpi_units *d);
/* Collective under dynamic (after every rank stopped drawing): frees the window. Returns err's
 * status, set when a draw or the window failed and err was still OK. */
mulred_status mpi_units_close(mpi_units *d, mulred_error *err);
/* Rank 0 gets each rank's v in out[0..size) (out may be NULL: discarded). Collective. */
mulred_status mpi_gather_counts(MPI_Comm comm, uint64_t v, uint64_t *out, mulred_error *err);

/* ---- a stream handed out by rank 0 (mpi_stream.c) ---- */
/* True when streams are handed out: several ranks, and MPI_THREAD_SERIALIZED (the team's
 * threads take blocks in turn). Otherwise rank 0 reads and hashes each stream alone. */
bool mpi_stream_handoff(MPI_Comm comm);
/* A stream to hand out, and how its elements are hashed. */
typedef struct {
    mulred_source_file *f; /* opened with read_stream false on every rank */
    const char *path;      /* its name: rank 0 opens it to read */
    mulred_muhash_flavor flavor;
    int threads; /* the job's threads option (mulred_muhash_reduce_opts) */
    int team;    /* the threads this rank runs: how many blocks it asks ahead */
} mpi_stream_input;
/* Collective: the stream in->f read by rank 0 and hashed in blocks by every rank's threads into
 * *state (initialized here), with this rank's counts in *stats and the blocks it hashed in
 * *blocks. A rank whose err is already set takes part without hashing. Returns err's status:
 * this rank's, not yet agreed. */
mulred_status mpi_stream_reduce(MPI_Comm comm, const mpi_stream_input *in,
                                mulred_muhash_state *state, mulred_muhash_stats *stats,
                                uint64_t *blocks, mulred_error *err);

/* ---- deadlines (mpi_watch.c) ---- */
/* Marks the calling thread inside a blocking MPI call for the watch's lost-message check:
 * WAITED(MPI_Recv(...)) around every call that waits on another rank. */
void mpi_wait_begin(void);
int mpi_wait_end(int rc); /* returns rc */
#define WAITED(call) mpi_wait_end((mpi_wait_begin(), (call)))

/* The stall watch (see mpi_watch.c): one per outermost job or scope; starts inside it only
 * count. mpi_watch_start is collective: it starts watching the ranks of comm for the stall
 * timeout requested (mulred_mpi_stall_timeout: 0 is $MULRED_STALL_TIMEOUT or the default; a bad
 * value is MULRED_EINPUT; what names the job in messages). A rank that cannot take part in
 * the set-up within stall seconds ends the process (exit 3); when the heartbeats cannot pass,
 * note (if set) is told on rank 0 and the job runs unwatched. Every successful start needs
 * its stop; the outermost stop is collective: a final barrier (every rank past its last
 * wait), then the watch ends. Both return err's status. */
mulred_status mpi_watch_start(MPI_Comm comm, double requested, const char *what,
                              mulred_mpi_note_fn note, void *note_data, mulred_error *err);
mulred_status mpi_watch_stop(mulred_error *err);
/* A plain deadline for a call that has no heartbeats yet or any more (MPI_Init, MPI_Finalize):
 * unless mpi_deadline_stop comes first, the process ends after seconds (exit 3) saying what
 * did not end. One at a time. */
void mpi_deadline_start(const char *what, double seconds);
void mpi_deadline_stop(void);

/* SHA-256 through libcrypto (mpi_util.c): libmulred_mpi uses only libmulred's public
 * functions. */
int mpi_sha256(uint8_t out[32], const uint8_t *data, size_t len); /* 0, or -1 on failure */

#endif

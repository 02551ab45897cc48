/* Shared by the files of src/dist/ that talk to MPI (dist.c: set-up and small collectives;
 * dist_group.c: the generic group reduction; dist_muhash.c, dist_msm.c: the jobs). plan.c and
 * plan_msm.c need none of it. */
#ifndef MULRED_DIST_INTERNAL_H
#define MULRED_DIST_INTERNAL_H

#include <mpi.h>

#include "mulred/mpi.h"
#include "mulred/sources.h"

/* Tags of the point-to-point messages mulred sends (collectives need none). */
enum {
    DIST_TAG_AGREE_MESSAGE = 1,
    DIST_TAG_UNITS = 2,
    DIST_TAG_REQUEST = 3,
    DIST_TAG_GRANT = 4,
    DIST_TAG_STREAM_REQUEST = 5,
    DIST_TAG_STREAM_BLOCK = 6
};

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

/* ---- the unit scheduler (dist_sched.c) ----
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
    mulred_error error; /* a failed draw */
} dist_units;

/* Collective under dynamic (every rank, the same n and costs; err as every rank's status so
 * far, agreed on here): cost[u] is unit u's estimated cost (NULL: all 1); min_batch the fewest
 * units a batch holds (the ranks use the largest they pass). Static: share is the rank's units,
 * no communication. Returns the agreed status under dynamic; on failure nothing is to close. */
int dist_units_open(dist_units *d, MPI_Comm comm, mulred_schedule schedule, const uint64_t *cost,
                    uint64_t n, mulred_unit_range share, uint64_t min_batch, mulred_error *err);
/* The next batch of this rank: false when none is left (or a draw failed: close reports it). */
bool dist_units_batch(dist_units *d, const uint64_t **ids, uint64_t *count);
/* The next run [*u0, *u1) of consecutive units of the current batch (drawing another when it is
 * used up) that does not cross a multiple of align; false when none is left. */
bool dist_units_run(dist_units *d, uint64_t align, uint64_t *u0, uint64_t *u1);
/* A mulred_muhash_reduce_opts progress callback (data: the dist_units) that lets rank 0 serve
 * the draws of the others while it computes: it enters MPI's progress engine. Called by the
 * team's thread 0, the thread that initialized MPI (FUNNELED). Does nothing on other ranks. */
void dist_units_poll(void *d, uint64_t done, uint64_t total);
/* Collective under dynamic (after every rank stopped drawing): frees the window. Returns err's
 * status, set when a draw or the window failed and err was still OK. */
int dist_units_close(dist_units *d, mulred_error *err);
/* Rank 0 gets each rank's v in out[0..size) (out may be NULL: discarded). Collective. */
int dist_gather_counts(MPI_Comm comm, uint64_t v, uint64_t *out, mulred_error *err);

/* ---- a stream handed out by rank 0 (dist_stream.c) ---- */
/* True when streams are handed out: several ranks, and MPI_THREAD_SERIALIZED (the team's
 * threads take blocks in turn). Otherwise rank 0 reads and hashes each stream alone. */
bool dist_stream_handoff(MPI_Comm comm);
/* Collective: the stream f (opened with read_stream false on every rank; path: its name) read
 * by rank 0 and hashed in blocks by every rank's threads into *state (initialized here), with
 * this rank's counts in *stats and the blocks it hashed in *blocks. A rank whose err is already set
 * takes part without hashing. Returns err's status: this rank's, not yet agreed. */
int dist_stream_reduce(MPI_Comm comm, mulred_element_file *f, const char *path,
                       mulred_muhash_flavor flavor, int threads, int team,
                       mulred_muhash_state *state, mulred_muhash_stats *stats, uint64_t *blocks,
                       mulred_error *err);

/* SHA-256 through libcrypto (dist_util.c): libmulred_mpi uses only libmulred's public
 * functions. */
int dist_sha256(uint8_t out[32], const uint8_t *data, size_t len); /* 0, or -1 on failure */

#endif

/* libmulred_mpi: the MPI layer. The only public header that includes <mpi.h>; link
 * with -lmulred_mpi -lmulred and MPI.
 *
 * What it gives:
 *   - the generic reduction of any commutative group (mulred/group.h) across the ranks of a
 *     communicator: mulred_mpi_reduce, mulred_mpi_allreduce (one MPI op for every group);
 *   - small collectives a distributed job needs (status agreement, timings, counts);
 *   - the distributed jobs themselves, each a collective call over a communicator:
 *     mulred_mpi_muhash (element files, Bitcoin Core snapshots, synthetic sets) and
 *     mulred_mpi_msm (a pair file, a synthetic set, or pairs each rank holds in memory), with
 *     OpenMP threads on every rank and optional checkpoints.
 *   - the unit plans (mulred/plan.h) and the MSM grid planner (mulred/msm_grid.h) are pure and
 *     live in the core library, libmulred; their headers are included here for convenience.
 *
 * MPI: the caller initializes MPI with at least MPI_THREAD_FUNNELED (mulred_mpi_init does it
 * for programs that have no MPI set-up of their own) and calls every function here from the
 * thread that initialized it; OpenMP threads compute between the calls. With
 * MPI_THREAD_SERIALIZED a stream input of mulred_mpi_muhash (standard input, a pipe) is read
 * by rank 0 and handed to every rank's threads in blocks; below it, rank 0 hashes it alone
 * (the same digest). When MPI is not initialized at all, every collective runs as one rank of
 * one (a program started without a launcher needs no MPI_Init: Open MPI's singleton start
 * costs about half a second), so one program serves both.
 *
 * Collectives must be entered by every rank of the communicator with the same arguments
 * (except each rank's own data). Errors: a failing MPI call returns MULRED_ERUNTIME with MPI's
 * own error text (set MPI_ERRORS_RETURN on the communicator; mulred_mpi_init does on
 * MPI_COMM_WORLD). A job agrees on failure across ranks before every collective, so bad input
 * on one rank ends every rank with the same status; a dead, stopped or cut-off rank ends the
 * job within its stall timeout (deadlines, below). */
#ifndef MULRED_MULRED_MPI_H
#define MULRED_MULRED_MPI_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/bases.h"
#include "mulred/group.h"
#include "mulred/msm.h"
#include "mulred/msm_grid.h"
#include "mulred/muhash.h"
#include "mulred/mulred.h"
#include "mulred/plan.h"
#include "mulred/utxo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- MPI set-up for programs without their own ---- */

/* Initializes MPI asking for MPI_THREAD_SERIALIZED, checks that at least MPI_THREAD_FUNNELED is
 * provided and sets MPI_ERRORS_RETURN on MPI_COMM_WORLD. Does nothing when MPI is already
 * initialized. Returns MULRED_OK or MULRED_ERUNTIME. */
MULRED_API mulred_status mulred_mpi_init(int *argc, char ***argv, mulred_error *err);
/* Frees mulred's reduce op; finalizes MPI if mulred_mpi_init initialized it. */
MULRED_API void mulred_mpi_finalize(void);
/* True between MPI_Init and MPI_Finalize (by anyone). */
MULRED_API bool mulred_mpi_active(void);
/* The rank a launcher (mpirun, srun) gave this process, read from its environment without
 * initializing MPI; 0 when not launched by one. */
MULRED_API int mulred_mpi_env_rank(void);
/* True when a launcher (mpirun, mpiexec, srun) started this process, or MULRED_FORCE_MPI is
 * set in the environment. */
MULRED_API bool mulred_mpi_launched(void);
/* MPI_Abort(comm, status) when MPI is active; returns otherwise (the caller then exits). */
MULRED_API void mulred_mpi_abort(MPI_Comm comm, int status);

/* ---- deadlines ----
 * No rank of a job waits without a bound of its own. While a job (or any collective below)
 * runs, a watchdog thread on each rank exchanges heartbeats with rank 0 over its own UDP socket
 * (not MPI), every stall timeout / 8 (between 0.1 and 1 s). A rank that computes, however
 * long, keeps beating; a rank that is dead, stopped (SIGSTOP, swapped out) or cut off goes
 * silent, and when one has been silent for the stall timeout, or every rank has waited on the
 * others that long with no message arriving, every rank that can still run writes
 * "mulred: rank R (NODE) silent for S s ..." to stderr and ends its process with exit status
 * 3 (MULRED_ERUNTIME): MPI cannot leave a collective that will never complete. Nothing is
 * returned as a result; finished checkpoint units stay usable. MPI_Init and MPI_Finalize
 * (mulred_mpi_init, mulred_mpi_finalize) get a plain deadline of the same length. Ranks must
 * enter a job within the stall timeout of each other. docs/reliability.md has the details. */

/* The default stall timeout and the largest one accepted, in seconds. */
#define MULRED_MPI_STALL_TIMEOUT_DEFAULT 60.0
#define MULRED_MPI_STALL_TIMEOUT_MAX     86400.0
/* The stall timeout a job uses: requested when not 0 (it must be in (0, MAX]), else
 * $MULRED_STALL_TIMEOUT (seconds), else the default. MULRED_EINPUT names the bad value. */
MULRED_API mulred_status mulred_mpi_stall_timeout(double requested, double *seconds,
                                                  mulred_error *err);

/* Collective: one watch over every collective of comm called until mulred_mpi_watch_end,
 * with this stall timeout (0: the default). The jobs and every collective below watch
 * themselves when called outside such a scope, at the cost of a few small collectives each
 * (set-up and a final barrier); a program making many calls in a row opens one scope around
 * them. Scopes nest (the outermost one counts). */
MULRED_API mulred_status mulred_mpi_watch_begin(MPI_Comm comm, double stall_timeout,
                                                mulred_error *err);
/* Collective: ends the scope (a final barrier, when it is the outermost). */
MULRED_API mulred_status mulred_mpi_watch_end(mulred_error *err);

/* How a dynamic schedule handed its units out: a counter in an MPI-3 window on rank 0, or
 * messages to and from rank 0 (the coordinator) where the window cannot be made or does not
 * answer on this MPI. NONE: a static schedule or one rank. */
typedef enum {
    MULRED_MPI_HANDOUT_NONE = 0,
    MULRED_MPI_HANDOUT_WINDOW = 1,
    MULRED_MPI_HANDOUT_COORDINATOR = 2
} mulred_mpi_handout;
/* "none", "window", "coordinator". */
MULRED_API const char *mulred_mpi_handout_name(mulred_mpi_handout h);

/* ---- collectives ---- */

/* Rank and size in comm; 0 and 1 when MPI is not active. */
MULRED_API int mulred_mpi_rank(MPI_Comm comm);
MULRED_API int mulred_mpi_size(MPI_Comm comm);
/* Every rank passes its own status in err; all ranks return the worst status (the highest
 * value). When that is not MULRED_OK, err on rank 0 gets the message of the lowest rank that
 * reported it, so rank 0 can print it. */
MULRED_API mulred_status mulred_mpi_agree(MPI_Comm comm, mulred_error *err);
/* Min, average and max of v across ranks, on every rank. */
MULRED_API mulred_status mulred_mpi_minavgmax(MPI_Comm comm, double v, double out[3],
                                              mulred_error *err);
/* Sum of v across ranks, on every rank. */
MULRED_API mulred_status mulred_mpi_sum_u64(MPI_Comm comm, uint64_t *sum, uint64_t v,
                                            mulred_error *err);
MULRED_API mulred_status mulred_mpi_barrier(MPI_Comm comm, mulred_error *err);
/* The number of distinct nodes (shared-memory domains) the ranks of comm run on. */
MULRED_API mulred_status mulred_mpi_node_count(MPI_Comm comm, int *nodes, mulred_error *err);
/* Room for the node names of a result: "node1,node2", cut at a name boundary with ",...". */
#define MULRED_MPI_NODE_NAMES_MAX 1024
/* Collective: on rank 0, the distinct names of the nodes the ranks of comm run on, in the order
 * of their lowest rank, comma-separated (cut as above when they do not fit in cap bytes). A
 * rank's node name is $MULRED_NODE_NAME, else $SLURMD_NODENAME (Slurm's name for the node),
 * else MPI_Get_processor_name: hosts that share a host name (containers, network namespaces)
 * are told apart by the first two. */
MULRED_API mulred_status mulred_mpi_node_names(MPI_Comm comm, char *out, size_t cap,
                                               mulred_error *err);

/* Combines the elements of group g that every rank passes in *elem (g->elem_bytes bytes) with
 * g->combine, in MPI_Reduce with a commutative op. The result lands in *elem on root; on the
 * other ranks *elem is unchanged. Every rank must pass the same group (the same descriptor
 * contents). One MPI datatype and one MPI op serve every group: the op finds the group through
 * an attribute of the datatype, which is made for each call (docs/kernels.md has its cost). */
MULRED_API mulred_status mulred_mpi_reduce(MPI_Comm comm, void *elem, const mulred_group *g,
                                           int root, mulred_error *err);
/* Same, with the result on every rank (MPI_Allreduce). */
MULRED_API mulred_status mulred_mpi_allreduce(MPI_Comm comm, void *elem, const mulred_group *g,
                                              mulred_error *err);

/* ---- distributed jobs: common parts ---- */

/* Minimum, average and maximum over ranks of one phase's seconds. */
typedef struct {
    double min, avg, max;
} mulred_mpi_phase;

/* Called on a rank when a checkpoint unit file is damaged and the unit is recomputed (the
 * message names the file and the unit), so the caller can warn; NULL: silent. */
typedef void (*mulred_mpi_note_fn)(const char *message, void *data);

/* ---- MuHash3072 over ranks ---- */

/* The phases of a MuHash job, in the order of mulred_mpi_muhash_result.phases. */
typedef enum {
    MULRED_MPI_MUHASH_PHASE_READ,     /* reading and decoding files, per thread */
    MULRED_MPI_MUHASH_PHASE_GENERATE, /* generating the synthetic set, per thread */
    MULRED_MPI_MUHASH_PHASE_HASH,     /* hashing elements and multiplying them in, per thread */
    MULRED_MPI_MUHASH_PHASE_LOCAL,    /* combining the thread partials */
    MULRED_MPI_MUHASH_PHASE_MPI,      /* the reduce across ranks */
    MULRED_MPI_MUHASH_PHASE_FINALIZE, /* rank 0: the inversion and the digest */
    MULRED_MPI_MUHASH_PHASE_TOTAL,    /* from opening the inputs to the digest */
    MULRED_MPI_MUHASH_PHASES
} mulred_mpi_muhash_phase;
/* "read", "generate", "hash", "local_reduce", "mpi_reduce", "finalize", "total". */
MULRED_API const char *mulred_mpi_muhash_phase_name(mulred_mpi_muhash_phase p);

/* What to hash: any combination of inputs, at least one. Every rank passes the same job. */
typedef struct {
    mulred_muhash_flavor flavor;
    /* Element files, one element per line as hex (blank lines and '#' lines ignored). "-" or a
     * pipe is read whole by rank 0. */
    const char *const *insert;
    size_t ninsert;
    const char *const *remove;
    size_t nremove;
    /* Bitcoin Core dumptxoutset files (flavor bitcoin). Each gets a sidecar index FILE.idx,
     * built by rank 0 on first use, through which ranks and threads read it in parallel. */
    const char *const *snapshot;
    size_t nsnapshot;
    bool txoutset_hash; /* with exactly one snapshot: also its hash_serialized_3 (rank 0) */
    uint64_t synthetic; /* elements of a synthetic UTXO set derived from (seed, index); 0: none */
    uint64_t seed;
    int threads; /* per rank; 0: the default (mulred_threads_resolve) */
    /* A directory of finished units, created 0700 (refused when others may write it); a rerun
     * with any rank or thread count loads the finished units. NULL: no checkpoints. Streams
     * cannot be checkpointed. */
    const char *checkpoint;
    uint64_t checkpoint_unit; /* work units per checkpoint unit; 0: the defaults */
    /* How the units reach the ranks (mulred/plan.h): static (a fixed share each) or dynamic
     * (batches drawn at run time, large units first; the progress callback then gets the
     * job's units, all ranks', as this rank estimates them from its draws). The digest is the
     * same either way. */
    mulred_schedule schedule;
    /* NULL, or an array of one entry per rank of comm in which rank 0 gets the units each rank
     * reduced (checkpoint units with a checkpoint, work units otherwise). */
    uint64_t *units_per_rank;
    /* Progress of this rank (called by its thread 0 inside the parallel region: no MPI there);
     * not called with checkpoints. NULL: none. */
    void (*progress)(void *data, uint64_t done, uint64_t total);
    void *progress_data;
    mulred_mpi_note_fn note; /* damaged checkpoint units; heartbeats that cannot pass */
    void *note_data;
    double stall_timeout; /* seconds (mulred_mpi_stall_timeout); 0: the default */
} mulred_mpi_muhash_job;

/* A job with defaults: flavor bitcoin, seed 1, no inputs. */
MULRED_API void mulred_mpi_muhash_job_init(mulred_mpi_muhash_job *job);

typedef struct {
    uint8_t digest[32]; /* rank 0: the digest in hash output order */
    char hex[65];       /* rank 0: as the flavor displays it (bitcoin: reversed) */
    uint64_t inserted, removed;
    int ranks, threads, nodes;
    char node_names[MULRED_MPI_NODE_NAMES_MAX]; /* rank 0: mulred_mpi_node_names */
    mulred_mpi_phase phases[MULRED_MPI_MUHASH_PHASES];
    /* With snapshots: the first one's header and the coins of all. */
    bool have_snapshot;
    mulred_utxo_header snapshot_header;
    uint64_t coins;
    char txoutset_hash[65]; /* rank 0, when asked for */
    /* With a checkpoint: units over all ranks, and the slowest rank's seconds in the store. */
    uint64_t resumed_units, computed_units;
    double checkpoint_seconds;
    mulred_schedule schedule;
    uint64_t units;                 /* units of the job, over all ranks */
    const uint64_t *units_per_rank; /* rank 0: the job's units_per_rank, filled; else NULL */
    mulred_mpi_handout handout;     /* dynamic schedule over several ranks: how */
} mulred_mpi_muhash_result;

/* Collective over comm: the MuHash3072 of the job's inputs. Each rank opens every input and
 * takes its share of the units (mulred/plan.h); its threads reduce them from the identity; the
 * rank partials meet in mulred_mpi_reduce; rank 0 finalizes. The digest does not depend on the
 * number of ranks or threads. Returns MULRED_OK, MULRED_EINPUT (bad input: the message names
 * the file and the line or byte offset) or MULRED_ERUNTIME, the same on every rank. */
MULRED_API mulred_status mulred_mpi_muhash(MPI_Comm comm, const mulred_mpi_muhash_job *job,
                                           mulred_mpi_muhash_result *res, mulred_error *err);

/* ---- multi-scalar multiplication over ranks ---- */

typedef enum {
    MULRED_MPI_MSM_PHASE_READ,     /* opening, indexing, reading and decoding the pair file */
    MULRED_MPI_MSM_PHASE_GENERATE, /* generating the synthetic set */
    MULRED_MPI_MSM_PHASE_VALIDATE, /* the subgroup check of the points */
    MULRED_MPI_MSM_PHASE_MSM,      /* this rank's tile, with its threads */
    MULRED_MPI_MSM_PHASE_REDUCE,   /* the reduce across ranks */
    MULRED_MPI_MSM_PHASE_TOTAL,
    MULRED_MPI_MSM_PHASES
} mulred_mpi_msm_phase;
/* "read", "generate", "validate", "msm", "reduce", "total". */
MULRED_API const char *mulred_mpi_msm_phase_name(mulred_mpi_msm_phase p);

/* Exactly one input: a pair file, a synthetic set, or pairs in memory. Every rank passes the
 * same job, except for the pairs in memory, which are each rank's own. */
typedef struct {
    /* The group: G1 or G2 of BLS12-381 or BN254, as every mulred_curve value says it. G2 pair
     * files hold 256-byte EIP-2537 (BLS12-381) or 128-byte EIP-197 (BN254) points, points in
     * memory are mulred_g2_381_affine / mulred_g2_254_affine, the result is encoded the same
     * way. */
    mulred_curve curve;
    /* The 0.2 way of asking for G2, kept for one release: MULRED_GROUP_G2 here makes curve its
     * G2 value (mulred_curve_with_group). Leave it MULRED_GROUP_G1 (the default). */
    mulred_pairing_group group;
    /* A pair file (mulred/msm_io.h: EIP-2537 / EIP-196 points with 32-byte big-endian scalars;
     * hex, or raw bytes when binary); every rank reads only its slice. */
    const char *input;
    bool binary;
    /* Synthetic points and scalars derived from (seed, index); 0: none. */
    uint64_t synthetic;
    uint64_t seed;
    /* This rank's pairs: count affine points of the curve (mulred_g1_381_affine or
     * mulred_g1_254_affine) and their scalars. Checked to be in G1 before any arithmetic
     * unless points_checked; a bad point fails the job with MULRED_EINPUT naming the rank and
     * the index. No checkpoints for pairs in memory. */
    const void *points;
    const mulred_scalar256 *scalars;
    size_t count;
    bool points_checked;
    int threads; /* per rank; 0: the default */
    /* Force the grid of a file or synthetic input: slices x groups <= ranks; 0: the grid of
     * least modelled time (mulred/msm_grid.h). */
    unsigned grid_slices, grid_groups;
    uint64_t memory_per_rank; /* bytes a rank may hold; 0: 80% of the node's over its ranks */
    /* Keep finished tiles in this directory and resume from it (file or synthetic input;
     * not with a forced grid or memory); NULL: none. */
    const char *checkpoint;
    uint64_t checkpoint_unit; /* points per checkpoint slice; 0: the default */
    mulred_mpi_note_fn note;  /* damaged checkpoint units */
    void *note_data;
    /* How the units reach the ranks (mulred/plan.h). Static without a checkpoint: the grid,
     * one tile per rank. Dynamic (file or synthetic input; not with a forced grid or memory):
     * the tiles of a checkpointed job (slices of checkpoint_unit points x window groups), with
     * or without a checkpoint, drawn at run time, largest first. The result is the same. */
    mulred_schedule schedule;
    /* NULL, or one entry per rank of comm: rank 0 gets the tiles each rank computed or loaded */
    uint64_t *units_per_rank;
    double stall_timeout; /* seconds (mulred_mpi_stall_timeout); 0: the default */
    /* Progress of this rank (called on the calling thread between steps: no MPI there), file
     * or synthetic input. The grid: steps of its tile (input read or generated, validated,
     * then its windows in up to 8 parts of at least 2 per thread, each computed and shifted
     * into the sum: the same result, at the cost of recoding the scalars once per part).
     * Checkpoints or the dynamic schedule: its tiles done (loaded or computed) of its share,
     * or under dynamic the job's tiles as this rank estimates them from its draws. NULL:
     * none. */
    void (*progress)(void *data, uint64_t done, uint64_t total);
    void *progress_data;
} mulred_mpi_msm_job;

/* A job with defaults: the curve, seed 1, no input. */
MULRED_API void mulred_mpi_msm_job_init(mulred_mpi_msm_job *job, mulred_curve curve);

typedef struct {
    /* rank 0: the result encoded (BLS12-381: 128-byte EIP-2537; BN254: 64-byte EIP-196; G2:
     * 256-byte EIP-2537, 128-byte EIP-197; all zero: the point at infinity), its length and
     * its hex */
    uint8_t encoded[MULRED_MSM_RESULT_MAX];
    size_t encoded_bytes;
    char hex[2 * MULRED_MSM_RESULT_MAX + 1];
    uint64_t points; /* over all ranks */
    int ranks, threads, nodes;
    char node_names[MULRED_MPI_NODE_NAMES_MAX]; /* rank 0: mulred_mpi_node_names */
    mulred_msm_grid grid; /* the grid used (checkpoints: the tile layout as a grid) */
    mulred_mpi_phase phases[MULRED_MPI_MSM_PHASES];
    double seconds; /* the MSM alone: the slowest rank's tiles and the reduce */
    /* With a checkpoint: the tile layout, units over all ranks, the slowest rank's seconds in
     * the store. */
    uint64_t slice_points, units, resumed_units, computed_units;
    double checkpoint_seconds;
    mulred_schedule schedule;
    const uint64_t *units_per_rank; /* rank 0: the job's units_per_rank, filled; else NULL */
    mulred_mpi_handout handout;     /* dynamic schedule over several ranks: how */
} mulred_mpi_msm_result;

/* Collective over comm: R = Σ sᵢ·Pᵢ over the job's pairs. With a file or a synthetic set the
 * ranks form a grid of point slices x window groups (mulred/msm_grid.h); each rank reads or
 * generates only its slice, validates its part, computes its tile with its threads, and the
 * tiles meet in mulred_mpi_reduce with the curve's point group. With pairs in memory each rank
 * computes the MSM of its own pairs and the partial sums meet the same way. The result does not
 * depend on the ranks, threads or grid. Variable time: public data only. Returns MULRED_OK,
 * MULRED_EINPUT (the message names the file or rank, the pair index and the failed check) or
 * MULRED_ERUNTIME, the same on every rank. */
MULRED_API mulred_status mulred_mpi_msm(MPI_Comm comm, const mulred_mpi_msm_job *job,
                                        mulred_mpi_msm_result *res, mulred_error *err);

/* ---- distributed base sets (src/mpi/mpi_bases.c) ----
 * One set of points (mulred/bases.h) spread over the ranks of comm: each rank holds, validates
 * and prepares only its shard, once; then any number of MSMs, each rank passing the scalars of
 * its own shard, sum over the whole set. The result is that of one process over the whole set
 * (mulred_bases_msm), whatever the number of ranks. comm must stay valid while the set lives.
 * Every call below but the queries and free is collective, runs under the stall watch (the
 * default stall timeout, or the scope of mulred_mpi_watch_begin) and returns the same status on
 * every rank; messages are complete on rank 0. */
typedef struct mulred_mpi_bases mulred_mpi_bases;

/* From a binary points file every rank can read (a shared file system): its N points (encoding
 * e of curve c, a G1 or G2 value) are split as mulred_plan_units(N, rank, size) and each rank
 * reads only its byte range, decodes and checks its points (with threads) and, when level > 0,
 * builds their fixed-base table (mulred_bases_precompute). MULRED_EINPUT: "PATH: point I:
 * REASON" with I the point's index in the file, a size that is not a whole number of points,
 * ranks that see different sizes (not one shared file), a file that cannot be read;
 * MULRED_ERUNTIME: out of memory. An empty file is MULRED_EINPUT "PATH: no points (empty
 * input)". *out is set only on MULRED_OK. */
MULRED_API mulred_status mulred_mpi_bases_open(mulred_mpi_bases **out, MPI_Comm comm,
                                               const char *path, mulred_curve c,
                                               mulred_point_encoding e, unsigned level, int threads,
                                               mulred_error *err);
/* From a set each rank already made (its shard: the whole set is the shards in rank order),
 * taken over whatever the outcome (freed with the distributed set, or at once on an error).
 * MULRED_EINPUT when the ranks' sets are of different curves or groups, or all are empty ("no
 * points (empty input) on any rank"; one rank's shard may be empty). */
MULRED_API mulred_status mulred_mpi_bases_adopt(mulred_mpi_bases **out, MPI_Comm comm,
                                                mulred_bases *local, mulred_error *err);
/* Frees the set (this rank's shard; not collective). NULL: nothing. */
MULRED_API void mulred_mpi_bases_free(mulred_mpi_bases *b);
/* Points in the whole set; the index in it of this rank's first point; this rank's shard (its
 * size is mulred_bases_size: the scalars an MSM takes on this rank at most). */
MULRED_API size_t mulred_mpi_bases_size(const mulred_mpi_bases *b);
MULRED_API size_t mulred_mpi_bases_first(const mulred_mpi_bases *b);
MULRED_API const mulred_bases *mulred_mpi_bases_local(const mulred_mpi_bases *b);
/* r = Σ sᵢ·Pᵢ over every rank's shard, each rank passing n scalars (format f) for the first n
 * points of its own shard (n <= its size; 0: it adds nothing), summed with the curve's point
 * group (mulred_msm_point_group, _g2) in mulred_mpi_reduce: on rank root, or on every rank when
 * root < 0 (r is then the same point everywhere; on other ranks r is unspecified when root >= 0).
 * r is the curve's mulred_G_jacobian (projective: encode it to compare). MULRED_EINPUT "scalar
 * vector of N points, the set has M" from a rank whose n is too large, "no scalars (empty
 * input) on any rank" when n is 0 on every rank (the empty MSM). */
MULRED_API mulred_status mulred_mpi_bases_msm(void *r, const mulred_mpi_bases *b,
                                              const void *scalars, mulred_scalar_format f, size_t n,
                                              int root, int threads, mulred_error *err);
/* The same, encoded as mulred_msm_curve_encode (out_len >= mulred_msm_result_bytes) on the
 * ranks that get the result. */
MULRED_API mulred_status mulred_mpi_bases_msm_encoded(uint8_t *out, size_t out_len,
                                                      const mulred_mpi_bases *b,
                                                      const void *scalars, mulred_scalar_format f,
                                                      size_t n, int root, int threads,
                                                      mulred_error *err);

/* The 0.2 names, kept for one release (CHANGELOG.md). */
#define mulred_muhash_phase          mulred_mpi_muhash_phase
#define mulred_muhash_phase_name     mulred_mpi_muhash_phase_name
#define mulred_msm_phase             mulred_mpi_msm_phase
#define mulred_msm_phase_name        mulred_mpi_msm_phase_name
#define MULRED_NODE_NAMES_MAX        MULRED_MPI_NODE_NAMES_MAX
#define MULRED_HANDOUT_NONE          MULRED_MPI_HANDOUT_NONE
#define MULRED_HANDOUT_WINDOW        MULRED_MPI_HANDOUT_WINDOW
#define MULRED_HANDOUT_COORDINATOR   MULRED_MPI_HANDOUT_COORDINATOR
#define MULRED_MUHASH_PHASE_READ     MULRED_MPI_MUHASH_PHASE_READ
#define MULRED_MUHASH_PHASE_GENERATE MULRED_MPI_MUHASH_PHASE_GENERATE
#define MULRED_MUHASH_PHASE_HASH     MULRED_MPI_MUHASH_PHASE_HASH
#define MULRED_MUHASH_PHASE_LOCAL    MULRED_MPI_MUHASH_PHASE_LOCAL
#define MULRED_MUHASH_PHASE_MPI      MULRED_MPI_MUHASH_PHASE_MPI
#define MULRED_MUHASH_PHASE_FINALIZE MULRED_MPI_MUHASH_PHASE_FINALIZE
#define MULRED_MUHASH_PHASE_TOTAL    MULRED_MPI_MUHASH_PHASE_TOTAL
#define MULRED_MUHASH_PHASES         MULRED_MPI_MUHASH_PHASES
#define MULRED_MSM_PHASE_READ        MULRED_MPI_MSM_PHASE_READ
#define MULRED_MSM_PHASE_GENERATE    MULRED_MPI_MSM_PHASE_GENERATE
#define MULRED_MSM_PHASE_VALIDATE    MULRED_MPI_MSM_PHASE_VALIDATE
#define MULRED_MSM_PHASE_MSM         MULRED_MPI_MSM_PHASE_MSM
#define MULRED_MSM_PHASE_REDUCE      MULRED_MPI_MSM_PHASE_REDUCE
#define MULRED_MSM_PHASE_TOTAL       MULRED_MPI_MSM_PHASE_TOTAL
#define MULRED_MSM_PHASES            MULRED_MPI_MSM_PHASES

#ifdef __cplusplus
}
#endif
#endif

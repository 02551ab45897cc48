/* The distributed MuHash3072 job (mulred/mulred_mpi.h, mulred_mpi_muhash): element files,
 * Bitcoin Core snapshots and synthetic sets over the ranks of a communicator, each rank with
 * its OpenMP threads, with optional checkpoints.
 *
 * Phases, each timed: open (ranks select their units of every input by the plan of
 * mulred/plan.h), read/generate + hash (threads), local reduce (thread partials), MPI reduce
 * (rank partials through the generic group reduction with the MuHash group), finalize (rank 0:
 * one inversion and the digest). A failure on any rank is agreed on by all ranks before the
 * next collective, so a bad file ends every rank with the same status and nothing hangs. */
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"
#include "hash/hash.h"
#include "mulred/checkpoint.h"
#include "mulred/sources.h"
#include "util/check.h"
#include "util/util.h"

static const char *phase_names[MULRED_MPI_MUHASH_PHASES] = {
    "read", "generate", "hash", "local_reduce", "mpi_reduce", "finalize", "total"};

const char *mulred_mpi_muhash_phase_name(mulred_mpi_muhash_phase p)
{
    MULRED_CHECK((unsigned)p < MULRED_MPI_MUHASH_PHASES, "muhash phase %d", (int)p);
    return phase_names[p];
}

void mulred_mpi_muhash_job_init(mulred_mpi_muhash_job *job)
{
    memset(job, 0, sizeof *job);
    job->flavor = MULRED_MUHASH_BITCOIN;
    job->seed = 1;
}

/* What a checkpointed job did on this rank. */
typedef struct {
    uint64_t resumed, computed;
    double seconds; /* wall time inside the store: opening it (loads) and saving */
} ckpt_counts;

/* One MuHash job as a rank runs it: the job, its result, and what this rank's reduce (static,
 * dynamic or checkpointed: three functions over this) leaves for the MPI reduce and the
 * result. */
typedef struct {
    MPI_Comm comm;
    const mulred_mpi_muhash_job *o;
    mulred_mpi_muhash_result *res;
    int rank, nranks, team;    /* team: this rank's threads */
    mulred_muhash_state state; /* this rank's product (zeroed first: its padding crosses MPI) */
    mulred_muhash_stats stats; /* its elements, CPU and wall times */
    ckpt_counts cc;            /* checkpointed: units resumed and computed, time in the store */
    uint64_t drawn;            /* the units this rank reduced */
    double t0, local[MULRED_MPI_MUHASH_PHASES]; /* this rank's phase times */
} muhash_run;

/* The snapshots' headers into the result: the first one's, and the coins of all. */
static void result_snapshots(mulred_mpi_muhash_result *res, mulred_utxo_source *const *snaps, int n)
{
    if (!n) return;
    res->have_snapshot = true;
    res->snapshot_header = *mulred_utxo_source_header(snaps[0]);
    for (int i = 0; i < n; i++) res->coins += mulred_utxo_source_header(snaps[i])->coins;
}

/* Everything a rank holds open without checkpoints: its units of each input as a source. */
typedef struct {
    mulred_source_file **files;
    int nfiles;
    mulred_utxo_source **snapshots;
    int nsnapshots;
    mulred_source_synth_set synth;
    mulred_muhash_source *sources;
    size_t nsources;
} muhash_inputs;

static void inputs_close(muhash_inputs *in)
{
    for (int i = 0; i < in->nfiles; i++) mulred_source_file_close(in->files[i]);
    for (int i = 0; i < in->nsnapshots; i++) mulred_utxo_source_close(in->snapshots[i]);
    free(in->files);
    free(in->snapshots);
    free(in->sources);
}

/* Opens every input and selects this rank's units by the plan: equal units (byte ranges,
 * element blocks) by count, snapshot chunks by coins. A stream is read by rank 0, which takes
 * all its units, or (handoff) by none here: streams_handoff hands it out. */
static mulred_status inputs_open(muhash_inputs *in, const muhash_run *m, bool handoff,
                                 mulred_error *err)
{
    const mulred_mpi_muhash_job *o = m->o;
    const int rank = m->rank, nranks = m->nranks;
    memset(in, 0, sizeof *in);
    const size_t nf = o->ninsert + o->nremove;
    in->files = calloc(nf + 1, sizeof *in->files);
    in->snapshots = calloc(o->nsnapshot + 1, sizeof *in->snapshots);
    in->sources = calloc(nf + o->nsnapshot + 2, sizeof *in->sources);
    if (!in->files || !in->snapshots || !in->sources)
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    for (int k = 0; k < 2; k++) {
        size_t n = k ? o->nremove : o->ninsert;
        for (size_t i = 0; i < n; i++) {
            mulred_source_file *f;
            const char *path = (k ? o->remove : o->insert)[i];
            if (mulred_source_file_open(&f, path, k == 1, 0, rank == 0 && !handoff, err))
                return err->status;
            in->files[in->nfiles++] = f;
            uint64_t units = mulred_source_file_units(f);
            mulred_unit_range r = mulred_source_file_is_stream(f)
                                      ? (mulred_unit_range){0, units}
                                      : mulred_plan_units(units, rank, nranks);
            in->sources[in->nsources++] = *mulred_source_file_select(f, r.first, r.end);
        }
    }
    for (size_t i = 0; i < o->nsnapshot; i++) {
        /* The index was made (or found) by rank 0 before this; see mulred_mpi_muhash. */
        mulred_utxo_source *src;
        if (mulred_utxo_source_open(&src, o->snapshot[i], NULL, err)) return err->status;
        in->snapshots[in->nsnapshots++] = src;
        const uint64_t *coins_before;
        uint64_t units = mulred_utxo_source_units(src, &coins_before);
        mulred_unit_range r = mulred_plan_weighted(coins_before, units, rank, nranks);
        mulred_utxo_source_select(src, r.first, r.end);
        in->sources[in->nsources++] = *mulred_utxo_source_muhash(src);
    }
    if (o->synthetic) {
        in->synth.flavor = o->flavor;
        in->synth.seed = o->seed;
        mulred_unit_range r =
            mulred_plan_units(mulred_source_synth_units(o->synthetic), rank, nranks);
        mulred_source_synth_select(&in->synth, o->synthetic, r.first, r.end);
        mulred_source_synth_source(&in->sources[in->nsources++], &in->synth);
    }
    return MULRED_OK;
}

/* ---- the dynamic schedule ----
 * The units of every input (streams excepted) make one list, numbered over the inputs in order
 * (inserts, removes, snapshots, the synthetic set). Each input is selected whole once, so unit u
 * of an input is chunk u of its source; a drawn batch becomes one source whose chunk i is the
 * batch's unit i, which the rank's threads share as they share any source's chunks. The cost of
 * a unit, for handing out large units first, is its estimated elements: a synthetic block's
 * elements, a snapshot chunk's coins, an element file range's bytes over 160 (a line of about
 * 80 hex-encoded bytes). A stream is read by rank 0 alone and reduced by it before it draws. */
enum { DYN_LINE_BYTES = 160 };

typedef struct {
    const mulred_muhash_source **src; /* each input's source, all its units selected */
    uint64_t *base;                   /* input j's units are [base[j], base[j+1]) */
    int ninputs;
    const uint64_t *ids; /* the batch */
} dyn_batch;

static mulred_status dyn_produce(void *ctx, size_t i, mulred_muhash_sink *sink, mulred_error *err)
{
    const dyn_batch *b = ctx;
    const uint64_t g = b->ids[i];
    int j = 0;
    while (g >= b->base[j + 1]) j++;
    return b->src[j]->produce(b->src[j]->ctx, (size_t)(g - b->base[j]), sink, err);
}

/* The job's progress callback under the dynamic schedule, called by thread 0 after each chunk:
 * rank 0's poll, then the units ordered before this rank's batch plus the chunks of it done, of
 * all the job's units (an estimate: earlier batches of other ranks may still be running). */
typedef struct {
    mpi_units *d;
    void (*fn)(void *data, uint64_t done, uint64_t total);
    void *data;
} dyn_progress;

static void dyn_progress_fn(void *vp, uint64_t done, uint64_t total)
{
    const dyn_progress *p = vp;
    mpi_units_poll(p->d, done, total);
    if (p->fn) p->fn(p->data, p->d->before + done, p->d->n);
}

static void stats_add(mulred_muhash_stats *a, const mulred_muhash_stats *b)
{
    a->inserted += b->inserted, a->removed += b->removed;
    a->produce_cpu += b->produce_cpu, a->hash_cpu += b->hash_cpu;
    a->parallel_wall += b->parallel_wall, a->combine_wall += b->combine_wall;
    if (b->threads) a->threads = b->threads;
}

/* Collective: each stream among the files of in (the job's inserts then removes, all open on
 * every rank) handed out by rank 0 and hashed by all ranks (mpi_stream.c), into *acc; *blocks
 * counts the blocks this rank hashed (its units of the streams). */
static void streams_handoff(const muhash_run *m, const muhash_inputs *in, mulred_muhash_state *acc,
                            mulred_muhash_stats *stats, uint64_t *blocks, mulred_error *err)
{
    const mulred_mpi_muhash_job *o = m->o;
    for (int i = 0; i < in->nfiles; i++) {
        if (!mulred_source_file_is_stream(in->files[i])) continue;
        const mpi_stream_input si = {
            in->files[i], (size_t)i < o->ninsert ? o->insert[i] : o->remove[i - o->ninsert],
            o->flavor, o->threads, m->team};
        mulred_muhash_state part;
        mulred_muhash_stats st;
        uint64_t n = 0;
        if (mpi_stream_reduce(m->comm, &si, &part, &st, &n, err) == MULRED_OK) {
            mulred_muhash_combine(acc, &part);
            stats_add(stats, &st);
        }
        *blocks += n;
    }
}

/* The inputs of a dynamic MuHash: element files and snapshots open, each a source over all its
 * units, the units numbered in order through base[]; streams apart (they cannot be split). */
typedef struct {
    muhash_inputs in;
    const mulred_muhash_source **src; /* nin sources; src[j] covers units base[j]..base[j+1] */
    uint64_t *base;
    int nin;
    mulred_muhash_source *streams;
    size_t nstreams;
    mulred_muhash_source synth_src; /* src[] may point here: the struct stays in place */
} dyn_inputs;

static void dyn_inputs_free(dyn_inputs *di)
{
    free(di->src);
    free(di->base);
    free(di->streams);
    inputs_close(&di->in);
}

static void dyn_add(dyn_inputs *di, const mulred_muhash_source *src, uint64_t units)
{
    di->base[di->nin + 1] = di->base[di->nin] + units;
    di->src[di->nin++] = src;
}

static mulred_status dyn_open(dyn_inputs *di, const muhash_run *m, bool handoff, mulred_error *err)
{
    const mulred_mpi_muhash_job *o = m->o;
    const int rank = m->rank;
    memset(di, 0, sizeof *di);
    const size_t nf = o->ninsert + o->nremove;
    const int nmax = (int)(nf + o->nsnapshot) + 1;
    di->in.files = calloc(nf + 1, sizeof *di->in.files);
    di->in.snapshots = calloc(o->nsnapshot + 1, sizeof *di->in.snapshots);
    di->src = calloc((size_t)nmax, sizeof *di->src);
    di->base = calloc((size_t)nmax + 1, sizeof *di->base);
    di->streams = calloc(nf + 1, sizeof *di->streams);
    if (!di->in.files || !di->in.snapshots || !di->src || !di->base || !di->streams)
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < (k ? o->nremove : o->ninsert); i++) {
            mulred_source_file *f;
            if (mulred_source_file_open(&f, (k ? o->remove : o->insert)[i], k == 1, 0,
                                        rank == 0 && !handoff, err))
                return err->status;
            di->in.files[di->in.nfiles++] = f;
            const uint64_t n = mulred_source_file_units(f);
            if (mulred_source_file_is_stream(f))
                di->streams[di->nstreams++] = *mulred_source_file_select(f, 0, n);
            else
                dyn_add(di, mulred_source_file_select(f, 0, n), n);
        }
    for (size_t i = 0; i < o->nsnapshot; i++) {
        mulred_utxo_source *us;
        if (mulred_utxo_source_open(&us, o->snapshot[i], NULL, err)) return err->status;
        di->in.snapshots[di->in.nsnapshots++] = us;
        const uint64_t *coins_before;
        const uint64_t n = mulred_utxo_source_units(us, &coins_before);
        mulred_utxo_source_select(us, 0, n);
        dyn_add(di, mulred_utxo_source_muhash(us), n);
    }
    if (o->synthetic) {
        const uint64_t n = mulred_source_synth_units(o->synthetic);
        di->in.synth.flavor = o->flavor;
        di->in.synth.seed = o->seed;
        mulred_source_synth_select(&di->in.synth, o->synthetic, 0, n);
        mulred_source_synth_source(&di->synth_src, &di->in.synth);
        dyn_add(di, &di->synth_src, n);
    }
    return MULRED_OK;
}

/* The cost of every unit, in the order of base[]: lines of an element file's unit, coins of a
 * snapshot's, elements of a synthetic chunk. NULL (err set) when out of memory. */
static uint64_t *dyn_costs(dyn_inputs *di, const mulred_mpi_muhash_job *o, mulred_error *err)
{
    const uint64_t n = di->base[di->nin];
    uint64_t *cost = malloc(n * sizeof *cost + 1);
    if (!cost) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory"), NULL;
    const uint64_t *base = di->base;
    int j = 0;
    for (int f = 0; f < di->in.nfiles; f++) {
        mulred_source_file *ef = di->in.files[f];
        if (mulred_source_file_is_stream(ef)) continue;
        for (uint64_t u = 0; u < base[j + 1] - base[j]; u++) {
            mulred_source_file_select(ef, u, u + 1);
            cost[base[j] + u] = mulred_source_file_bytes(ef) / DYN_LINE_BYTES + 1;
        }
        di->src[j] = mulred_source_file_select(ef, 0, base[j + 1] - base[j]);
        j++;
    }
    for (int i = 0; i < di->in.nsnapshots; i++, j++) {
        const uint64_t *cb;
        mulred_utxo_source_units(di->in.snapshots[i], &cb);
        for (uint64_t u = 0; u < base[j + 1] - base[j]; u++) cost[base[j] + u] = cb[u + 1] - cb[u];
    }
    if (o->synthetic)
        for (uint64_t u = 0; u < base[j + 1] - base[j]; u++)
            cost[base[j] + u] =
                o->synthetic - u * MULRED_SOURCE_SYNTH_CHUNK < MULRED_SOURCE_SYNTH_CHUNK
                    ? o->synthetic - u * MULRED_SOURCE_SYNTH_CHUNK
                    : MULRED_SOURCE_SYNTH_CHUNK;
    return cost;
}

/* The dynamic schedule: reduces the units this rank draws (and, on rank 0 or handed out, the
 * streams) into m->state. Collective: every rank enters it, whatever its status. m->drawn: the
 * units this rank got. */
static mulred_status dynamic_reduce(muhash_run *m, mulred_error *err)
{
    const mulred_mpi_muhash_job *o = m->o;
    m->stats.threads = m->team;
    mulred_muhash_init(&m->state, o->flavor);
    const bool handoff = mpi_stream_handoff(m->comm);
    uint64_t streamed_blocks = 0;
    dyn_inputs di;
    dyn_open(&di, m, handoff, err);
    if (err->status == MULRED_OK) result_snapshots(m->res, di.in.snapshots, di.in.nsnapshots);
    const uint64_t n = di.base ? di.base[di.nin] : 0;
    uint64_t *cost = err->status == MULRED_OK ? dyn_costs(&di, o, err) : NULL;

    mulred_muhash_reduce_opts ropts = {o->threads, NULL, NULL};
    mulred_muhash_stats st;
    /* the streams: handed out to every rank, or read by rank 0 alone */
    if (handoff && mulred_mpi_agree(m->comm, err) == MULRED_OK && di.nstreams)
        streams_handoff(m, &di.in, &m->state, &m->stats, &streamed_blocks, err);
    if (!handoff && err->status == MULRED_OK && di.nstreams) {
        if (mulred_muhash_reduce_ex(&m->state, o->flavor, di.streams, di.nstreams, &ropts, &st,
                                    err) == MULRED_OK)
            stats_add(&m->stats, &st);
    }
    mpi_units d;
    mpi_units_open(&d, m->comm, MULRED_SCHEDULE_DYNAMIC, cost, n, (mulred_unit_range){0, 0},
                   (uint64_t)m->team, err);
    m->res->handout = d.handout;
    dyn_progress prog = {&d, o->progress, o->progress_data};
    ropts.progress = dyn_progress_fn, ropts.progress_arg = &prog;
    const uint64_t *ids;
    uint64_t count;
    while (err->status == MULRED_OK && mpi_units_batch(&d, &ids, &count)) {
        dyn_batch b = {di.src, di.base, di.nin, ids};
        mulred_muhash_source bs = {(size_t)count, dyn_produce, &b};
        mulred_muhash_state part;
        if (mulred_muhash_reduce_ex(&part, o->flavor, &bs, 1, &ropts, &st, err)) break;
        mulred_muhash_combine(&m->state, &part);
        stats_add(&m->stats, &st);
    }
    mpi_units_close(&d, err);
    m->drawn = d.drawn + streamed_blocks;
    for (size_t i = 0; i < di.nstreams; i++) m->drawn += di.streams[i].nchunks;
    free(cost);
    dyn_inputs_free(&di);
    return err->status;
}

/* ---- checkpoints ----
 * A checkpoint unit is a run of consecutive work units of one input (mulred/plan.h): byte
 * ranges of an element file, index chunks of a snapshot, element blocks of a synthetic set.
 * Work units are small; a checkpoint unit groups CKPT_FILE_UNIT x 256 KiB (128 MiB: ~0.8-1.3 M
 * elements), CKPT_SNAP_UNIT index chunks of ~128 KiB (32 MiB: ~0.4 M coins) or
 * CKPT_SYNTH_UNIT x 1024 synthetic elements (2^20), so that saving it (a ~1 KB file, two
 * fsyncs), while the rank's other threads wait, costs a small fraction of its work
 * (docs/kernels.md has the figures). Larger units would balance ranks worse (units are planned
 * by count). The units are numbered over the inputs in order (inserts, removes, snapshots, the
 * synthetic set) and planned over ranks by count, so they do not depend on the rank count: a
 * rerun on any number of ranks finds them. Each rank reduces its units one at a time with all
 * its threads (one mulred_muhash_reduce_ex per unit), saves each, and combines them; the ranks
 * then meet in MPI_Reduce as without checkpoints, and the product, being exact, is the same.
 * A snapshot's chunks are those of its sidecar index, so the job header also holds a digest of
 * the index's coin ordinals at chunk starts: a snapshot indexed anew with other chunks is
 * another job. A resumed unit's chunks are not read again, so the whole-file checks of a
 * snapshot (the last chunk ends the file, the header's coin count) are those of the run that
 * saved them: the directory is trusted state (mulred/checkpoint.h). */
enum { CKPT_FILE_UNIT = 512, CKPT_SNAP_UNIT = 256, CKPT_SYNTH_UNIT = 1024 };

typedef struct {
    int input;           /* element files 0..nfiles-1, snapshots nfiles.., or -1: synthetic */
    uint64_t first, end; /* work units of that input */
} ckpt_unit;

/* The inputs of a checkpointed job, opened on every rank. */
typedef struct {
    mulred_source_file **files; /* inserts, then removes */
    bool *removes;
    int nfiles;
    mulred_utxo_source **snaps;
    int nsnaps;
    uint64_t gfile, gsnap, gsynth; /* work units per checkpoint unit */
} ckpt_inputs;

/* SHA-256 of n little-endian u64 values, in hex. */
static mulred_status digest_u64s(char hex[65], const uint64_t *v, uint64_t n, mulred_error *err)
{
    uint8_t *b = malloc(n * 8 + 1), d[32];
    if (!b) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    for (uint64_t i = 0; i < n; i++) mulred_store_le64(b + 8 * i, v[i]);
    mulred_status rc = mpi_sha256(d, b, n * 8)
                           ? mulred_error_set(err, MULRED_ERUNTIME, "out of memory")
                           : MULRED_OK;
    free(b);
    mulred_hex_encode(hex, d, 32);
    return rc;
}

/* Describes the job to the checkpoint store: flavor, the inputs' identity and the plan. */
static mulred_status ckpt_describe(mulred_checkpoint_job *job, const mulred_mpi_muhash_job *o,
                                   const ckpt_inputs *in, const ckpt_unit *units, uint64_t nunits,
                                   mulred_error *err)
{
    mulred_status rc =
        mulred_checkpoint_job_add(job, err, "flavor", "%s", mulred_muhash_flavor_name(o->flavor));
    for (int k = 0; k < 2 && rc == MULRED_OK; k++)
        for (size_t i = 0; i < (k ? o->nremove : o->ninsert) && rc == MULRED_OK; i++) {
            char name[32];
            snprintf(name, sizeof name, "%s%zu", k ? "remove" : "insert", i);
            rc = mulred_checkpoint_job_add_file(job, name, (k ? o->remove : o->insert)[i], err);
        }
    for (int i = 0; i < in->nsnaps && rc == MULRED_OK; i++) {
        char name[48], hex[65];
        snprintf(name, sizeof name, "snapshot%d", i);
        rc = mulred_checkpoint_job_add_file(job, name, o->snapshot[i], err);
        const uint64_t *coins_before;
        uint64_t chunks = mulred_utxo_source_units(in->snaps[i], &coins_before);
        if (rc == MULRED_OK) rc = digest_u64s(hex, coins_before, chunks + 1, err);
        snprintf(name, sizeof name, "snapshot%d.chunks", i);
        if (rc == MULRED_OK)
            rc = mulred_checkpoint_job_add(job, err, name, "%llu coin ordinals sha256 %s",
                                           (unsigned long long)chunks, hex);
    }
    if (rc == MULRED_OK && o->synthetic)
        rc = mulred_checkpoint_job_add(job, err, "synthetic", "%llu seed %llu",
                                       (unsigned long long)o->synthetic,
                                       (unsigned long long)o->seed);
    if (rc == MULRED_OK)
        rc = mulred_checkpoint_job_add(job, err, "plan.rule",
                                       "element files: %llu units of %d bytes; synthetic: %llu "
                                       "blocks of %d",
                                       (unsigned long long)in->gfile, 256 * 1024,
                                       (unsigned long long)in->gsynth, MULRED_SOURCE_SYNTH_CHUNK);
    if (rc == MULRED_OK && in->nsnaps)
        rc = mulred_checkpoint_job_add(job, err, "plan.snapshot_rule", "%llu index chunks",
                                       (unsigned long long)in->gsnap);
    /* The boundaries themselves, digested: (input, first, end) of every unit. */
    uint8_t *b = rc == MULRED_OK ? malloc(nunits * 24) : NULL;
    if (rc == MULRED_OK && !b) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    if (rc == MULRED_OK) {
        for (uint64_t u = 0; u < nunits; u++) {
            mulred_store_le64(b + 24 * u, (uint64_t)(int64_t)units[u].input);
            mulred_store_le64(b + 24 * u + 8, units[u].first);
            mulred_store_le64(b + 24 * u + 16, units[u].end);
        }
        uint8_t d[32];
        char hex[65];
        if (mpi_sha256(d, b, nunits * 24))
            rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        mulred_hex_encode(hex, d, 32);
        if (rc == MULRED_OK) rc = mulred_checkpoint_job_add(job, err, "plan.sha256", "%s", hex);
    }
    free(b);
    return rc;
}

/* Opens the inputs, in order. A stream is refused (it is not read here: read_stream false):
 * its elements cannot be read again on a rerun. */
static mulred_status ckpt_inputs_open(ckpt_inputs *in, const mulred_mpi_muhash_job *o,
                                      mulred_error *err)
{
    memset(in, 0, sizeof *in);
    const size_t nf = o->ninsert + o->nremove;
    in->files = calloc(nf + 1, sizeof *in->files);
    in->removes = calloc(nf + 1, sizeof *in->removes);
    in->snaps = calloc(o->nsnapshot + 1, sizeof *in->snaps);
    if (!in->files || !in->removes || !in->snaps)
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    in->gfile = o->checkpoint_unit ? o->checkpoint_unit : CKPT_FILE_UNIT;
    in->gsnap = o->checkpoint_unit ? o->checkpoint_unit : CKPT_SNAP_UNIT;
    in->gsynth = o->checkpoint_unit ? o->checkpoint_unit : CKPT_SYNTH_UNIT;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < (k ? o->nremove : o->ninsert); i++) {
            const char *path = (k ? o->remove : o->insert)[i];
            mulred_source_file *f;
            if (mulred_source_file_open(&f, path, k == 1, 0, false, err)) return err->status;
            in->files[in->nfiles] = f;
            in->removes[in->nfiles++] = k == 1;
            if (mulred_source_file_is_stream(f))
                return mulred_error_set(err, MULRED_EINPUT,
                                        "%s: not a regular file: a checkpointed job cannot resume "
                                        "reading a stream",
                                        path);
        }
    /* each snapshot's index was made (or found) by rank 0 before this; see muhash_run_job */
    for (size_t i = 0; i < o->nsnapshot; i++)
        if (mulred_utxo_source_open(&in->snaps[in->nsnaps++], o->snapshot[i], NULL, err))
            return err->status;
    return MULRED_OK;
}

static void ckpt_inputs_close(ckpt_inputs *in)
{
    for (int f = 0; f < in->nfiles; f++) mulred_source_file_close(in->files[f]);
    for (int i = 0; i < in->nsnaps; i++)
        if (in->snaps[i]) mulred_utxo_source_close(in->snaps[i]);
    free(in->files);
    free(in->removes);
    free(in->snaps);
}

/* The checkpoint units of the inputs, in order; *units is allocated. */
static mulred_status ckpt_units_make(ckpt_unit **units, uint64_t *nunits, const ckpt_inputs *in,
                                     const mulred_mpi_muhash_job *o, mulred_error *err)
{
    const int ninputs = in->nfiles + in->nsnaps + (o->synthetic ? 1 : 0);
    uint64_t *work = calloc((size_t)ninputs + 1, sizeof *work),
             *group = calloc((size_t)ninputs + 1, sizeof *group);
    int *id = calloc((size_t)ninputs + 1, sizeof *id);
    *nunits = 0;
    *units = NULL;
    if (!work || !group || !id) {
        free(work), free(group), free(id);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    uint64_t cap = 0;
    for (int j = 0; j < ninputs; j++) {
        if (j < in->nfiles) {
            work[j] = mulred_source_file_units(in->files[j]), group[j] = in->gfile, id[j] = j;
        } else if (j < in->nfiles + in->nsnaps) {
            const uint64_t *coins_before;
            work[j] = mulred_utxo_source_units(in->snaps[j - in->nfiles], &coins_before);
            group[j] = in->gsnap, id[j] = j;
        } else {
            work[j] = mulred_source_synth_units(o->synthetic), group[j] = in->gsynth, id[j] = -1;
        }
        cap += mulred_plan_unit_count(work[j], group[j]);
    }
    *units = malloc(cap * sizeof **units + 1);
    if (*units)
        for (int j = 0; j < ninputs; j++)
            for (uint64_t first = 0; first < work[j]; first += group[j])
                (*units)[(*nunits)++] = (ckpt_unit){
                    id[j], first, work[j] - first < group[j] ? work[j] : first + group[j]};
    free(work), free(group), free(id);
    return *units ? MULRED_OK : mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
}

/* The estimated elements of each checkpoint unit, for the dynamic schedule's order (see
 * "the dynamic schedule" above); NULL when out of memory. */
static uint64_t *ckpt_unit_costs(const ckpt_inputs *in, const ckpt_unit *units, uint64_t n)
{
    uint64_t *cost = malloc(n * sizeof *cost + 1);
    for (uint64_t u = 0; cost && u < n; u++) {
        const ckpt_unit *cu = &units[u];
        if (cu->input < 0) {
            cost[u] = (cu->end - cu->first) * MULRED_SOURCE_SYNTH_CHUNK;
        } else if (cu->input < in->nfiles) {
            cost[u] = (cu->end - cu->first) * (256 * 1024 / DYN_LINE_BYTES);
        } else {
            const uint64_t *cb;
            mulred_utxo_source_units(in->snaps[cu->input - in->nfiles], &cb);
            cost[u] = cb[cu->end] - cb[cu->first];
        }
    }
    return cost;
}

/* Checkpointed: reduces this rank's checkpoint units (its share, or those it draws) into
 * m->state, loading those the directory holds and saving those it computes. A damaged unit file
 * is reported on stderr and recomputed (through the job's note callback). Per-rank element
 * counts and times land in m->stats, the store's counts in m->cc; the snapshots' headers in the
 * result. Collective under the dynamic schedule. */
static mulred_status ckpt_reduce(muhash_run *m, mulred_error *err)
{
    const mulred_mpi_muhash_job *o = m->o;
    mulred_muhash_state *state = &m->state;
    mulred_muhash_stats *stats = &m->stats;
    ckpt_counts *cc = &m->cc;
    stats->threads = m->team;
    mulred_muhash_init(state, o->flavor);
    ckpt_inputs in;
    ckpt_unit *units = NULL;
    uint64_t nunits = 0;
    mulred_checkpoint_job *job = NULL;
    mulred_checkpoint *ck = NULL;
    mulred_status rc = ckpt_inputs_open(&in, o, err);
    if (rc == MULRED_OK) result_snapshots(m->res, in.snaps, in.nsnaps);
    if (rc == MULRED_OK) rc = ckpt_units_make(&units, &nunits, &in, o, err);
    if (rc == MULRED_OK && nunits) {
        job = mulred_checkpoint_job_new(mulred_muhash_group(o->flavor), nunits);
        if (!job) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    if (rc == MULRED_OK && job) rc = ckpt_describe(job, o, &in, units, nunits, err);
    double ts = mulred_wtime();
    if (rc == MULRED_OK && job) rc = mulred_checkpoint_open(&ck, o->checkpoint, job, err);
    cc->seconds += mulred_wtime() - ts;

    mulred_unit_range share = mulred_plan_units(nunits, m->rank, m->nranks);
    mulred_muhash_reduce_opts ropts = {o->threads, NULL, NULL};
    mpi_units d;
    uint64_t *ucost = ckpt_unit_costs(&in, units, nunits);
    if (rc == MULRED_OK && !ucost) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    rc = mpi_units_open(&d, m->comm, o->schedule, ucost, nunits, share, 1, err);
    free(ucost);
    m->res->handout = d.handout;
    if (o->schedule == MULRED_SCHEDULE_DYNAMIC)
        ropts.progress = mpi_units_poll, ropts.progress_arg = &d;
    for (uint64_t u = 0, u_end; rc == MULRED_OK && mpi_units_run(&d, 1, &u, &u_end);) {
        const ckpt_unit *cu = &units[u];
        bool remove = cu->input >= 0 && cu->input < in.nfiles && in.removes[cu->input];
        mulred_muhash_state part;
        memset(&part, 0, sizeof part); /* its padding is saved too */
        if (mulred_checkpoint_state(ck, u) == MULRED_CHECKPOINT_LOADED) {
            uint64_t items = mulred_checkpoint_get(ck, u, &part);
            if (part.flavor != o->flavor) {
                char path[4200];
                mulred_checkpoint_path(ck, u, path, sizeof path);
                rc = mulred_error_set(err, MULRED_EINPUT, "%s: a partial of another flavor", path);
                break;
            }
            *(remove ? &stats->removed : &stats->inserted) += items;
            mulred_muhash_combine(state, &part);
            cc->resumed++;
            continue;
        }
        if (mulred_checkpoint_state(ck, u) == MULRED_CHECKPOINT_CORRUPT)
            mpi_note_recompute(o->note, o->note_data, mulred_checkpoint_note(ck, u), u);
        mulred_muhash_source src;
        mulred_source_synth_set synth = {o->flavor, o->seed, 0, 0, false};
        if (cu->input < 0) {
            mulred_source_synth_select(&synth, o->synthetic, cu->first, cu->end);
            mulred_source_synth_source(&src, &synth);
        } else if (cu->input < in.nfiles) {
            src = *mulred_source_file_select(in.files[cu->input], cu->first, cu->end);
        } else {
            mulred_utxo_source *us = in.snaps[cu->input - in.nfiles];
            mulred_utxo_source_select(us, cu->first, cu->end);
            src = *mulred_utxo_source_muhash(us);
        }
        mulred_muhash_state out;
        mulred_muhash_stats st;
        rc = mulred_muhash_reduce_ex(&out, o->flavor, &src, 1, &ropts, &st, err);
        if (rc) break;
        part.flavor = out.flavor, part.num = out.num, part.den = out.den;
        ts = mulred_wtime();
        rc = mulred_checkpoint_save(ck, u, &part, st.inserted + st.removed, err);
        cc->seconds += mulred_wtime() - ts;
        if (rc) break;
        mulred_muhash_combine(state, &part);
        stats->inserted += st.inserted, stats->removed += st.removed;
        stats->produce_cpu += st.produce_cpu, stats->hash_cpu += st.hash_cpu;
        stats->parallel_wall += st.parallel_wall, stats->combine_wall += st.combine_wall;
        stats->threads = st.threads;
        cc->computed++;
    }
    rc = mpi_units_close(&d, err);
    m->drawn = d.drawn;
    mulred_checkpoint_close(ck);
    mulred_checkpoint_job_free(job);
    free(units);
    ckpt_inputs_close(&in);
    return rc;
}

/* A job the library cannot run: no input, or inputs that do not go together. */
static mulred_status job_check(const mulred_mpi_muhash_job *o, mulred_error *err)
{
    if (!o->ninsert && !o->nremove && !o->synthetic && !o->nsnapshot)
        return mulred_error_set(err, MULRED_EINPUT,
                                "muhash: no input (insert, remove, synthetic or snapshot)");
    if (o->nsnapshot && o->flavor != MULRED_MUHASH_BITCOIN)
        return mulred_error_set(err, MULRED_EINPUT,
                                "muhash: snapshots need flavor bitcoin (they are Bitcoin Core's)");
    if (o->txoutset_hash && o->nsnapshot != 1)
        return mulred_error_set(err, MULRED_EINPUT,
                                "muhash: txoutset_hash needs exactly one snapshot");
    return MULRED_OK;
}

/* The static schedule: this rank's share of every input by the plan (a stream: rank 0's, or
 * handed out to every rank), reduced by its threads into m->state. m->drawn: its units. */
static mulred_status static_reduce(muhash_run *m, mulred_error *err)
{
    const mulred_mpi_muhash_job *o = m->o;
    muhash_inputs in;
    const bool handoff = mpi_stream_handoff(m->comm);
    inputs_open(&in, m, handoff, err);
    if (mulred_mpi_agree(m->comm, err)) {
        inputs_close(&in);
        return err->status;
    }
    result_snapshots(m->res, in.snapshots, in.nsnapshots);
    mulred_muhash_state streamed;
    mulred_muhash_stats sstats;
    mulred_muhash_init(&streamed, o->flavor);
    memset(&sstats, 0, sizeof sstats);
    if (handoff) streams_handoff(m, &in, &streamed, &sstats, &m->drawn, err);
    mulred_muhash_reduce_opts ropts = {o->threads, o->progress, o->progress_data};
    if (err->status == MULRED_OK &&
        mulred_muhash_reduce_ex(&m->state, o->flavor, in.sources, in.nsources, &ropts, &m->stats,
                                err) == MULRED_OK) {
        mulred_muhash_combine(&m->state, &streamed);
        stats_add(&m->stats, &sstats);
    }
    for (size_t i = 0; i < in.nsources; i++) m->drawn += in.sources[i].nchunks;
    inputs_close(&in);
    return err->status;
}

/* Once the digest is on rank 0: the phases over the ranks, the counts summed, the units each
 * rank took, the nodes, and the job's shape into the result. */
static mulred_status muhash_finish(muhash_run *m, mulred_error *err)
{
    const mulred_mpi_muhash_job *o = m->o;
    mulred_mpi_muhash_result *res = m->res;
    const MPI_Comm comm = m->comm;
    const double per_thread = m->stats.threads > 0 ? 1.0 / m->stats.threads : 0;
    m->local[o->ninsert || o->nremove || o->nsnapshot ? MULRED_MPI_MUHASH_PHASE_READ
                                                      : MULRED_MPI_MUHASH_PHASE_GENERATE] =
        m->stats.produce_cpu * per_thread;
    m->local[MULRED_MPI_MUHASH_PHASE_HASH] = m->stats.hash_cpu * per_thread;
    m->local[MULRED_MPI_MUHASH_PHASE_LOCAL] = m->stats.combine_wall;
    mulred_status rc = mpi_phases(comm, m->local, res->phases, MULRED_MPI_MUHASH_PHASES, err);
    if (rc == MULRED_OK) rc = mulred_mpi_sum_u64(comm, &res->inserted, m->stats.inserted, err);
    if (rc == MULRED_OK) rc = mulred_mpi_sum_u64(comm, &res->removed, m->stats.removed, err);
    if (rc == MULRED_OK) rc = mulred_mpi_sum_u64(comm, &res->resumed_units, m->cc.resumed, err);
    if (rc == MULRED_OK) rc = mulred_mpi_sum_u64(comm, &res->computed_units, m->cc.computed, err);
    double ck[3] = {0, 0, 0};
    if (rc == MULRED_OK) rc = mulred_mpi_minavgmax(comm, m->cc.seconds, ck, err);
    res->checkpoint_seconds = ck[2];
    if (rc == MULRED_OK) rc = mulred_mpi_node_count(comm, &res->nodes, err);
    if (rc == MULRED_OK) rc = mulred_mpi_sum_u64(comm, &res->units, m->drawn, err);
    if (rc == MULRED_OK)
        rc = mpi_gather_counts(comm, m->drawn, m->rank == 0 ? o->units_per_rank : NULL, err);
    res->units_per_rank = m->rank == 0 ? o->units_per_rank : NULL;
    res->schedule = o->schedule;
    if (rc == MULRED_OK)
        rc = mulred_mpi_node_names(comm, res->node_names, sizeof res->node_names, err);
    res->ranks = m->nranks;
    res->threads = m->stats.threads;
    return rc;
}

/* The job on this rank: its reduce (checkpointed, dynamic or static), the MPI reduce of the
 * ranks' products, the digest on rank 0, the result. */
static mulred_status muhash_run_job(MPI_Comm comm, const mulred_mpi_muhash_job *o,
                                    mulred_mpi_muhash_result *res, mulred_error *err)
{
    muhash_run m;
    memset(&m, 0, sizeof m); /* the state's padding crosses MPI too */
    m.comm = comm, m.o = o, m.res = res;
    m.rank = mulred_mpi_rank(comm), m.nranks = mulred_mpi_size(comm);
    /* Process set-up stays outside the timed phases, like MPI_Init: the OpenMP team starts
     * and libcrypto loads its algorithms (a hashing context made once). */
    m.team = mulred_threads_start(o->threads);
    mulred_muhash_ctx_free(mulred_muhash_ctx_new(o->flavor));
    m.t0 = mulred_wtime();

    /* Rank 0 makes sure each snapshot has a fresh index (one validating scan on first use)
     * before any rank plans its share from it. */
    if (m.rank == 0)
        for (size_t i = 0; i < o->nsnapshot && err->status == MULRED_OK; i++)
            mulred_utxo_index_ensure(o->snapshot[i], NULL, NULL, err);
    if (mulred_mpi_agree(comm, err)) return err->status;

    if (o->checkpoint)
        ckpt_reduce(&m, err);
    else if (o->schedule == MULRED_SCHEDULE_DYNAMIC)
        dynamic_reduce(&m, err);
    else
        static_reduce(&m, err);
    if (mulred_mpi_agree(comm, err)) return err->status;

    const double t1 = mulred_wtime();
    mulred_mpi_reduce(comm, &m.state, mulred_muhash_group(o->flavor), 0, err);
    const double t2 = mulred_wtime();
    if (mulred_mpi_agree(comm, err)) return err->status;

    if (m.rank == 0) {
        mulred_muhash_finalize(res->digest, &m.state);
        mulred_muhash_display(res->hex, res->digest, o->flavor);
        uint8_t txo[32];
        if (o->txoutset_hash && mulred_utxo_txoutset_hash(txo, o->snapshot[0], err) == MULRED_OK)
            mulred_hex_encode_reversed(res->txoutset_hash, txo, 32);
    }
    if (mulred_mpi_agree(comm, err)) return err->status;
    const double t3 = mulred_wtime();
    m.local[MULRED_MPI_MUHASH_PHASE_MPI] = t2 - t1;
    m.local[MULRED_MPI_MUHASH_PHASE_FINALIZE] = t3 - t2;
    m.local[MULRED_MPI_MUHASH_PHASE_TOTAL] = t3 - m.t0;
    return muhash_finish(&m, err);
}

mulred_status mulred_mpi_muhash(MPI_Comm comm, const mulred_mpi_muhash_job *o,
                                mulred_mpi_muhash_result *res, mulred_error *err)
{
    memset(res, 0, sizeof *res);
    mulred_error_clear(err);
    if (job_check(o, err) ||
        mpi_watch_start(comm, o->stall_timeout, "the MuHash job", o->note, o->note_data, err))
        return err->status;
    muhash_run_job(comm, o, res, err);
    return mpi_watch_stop(err);
}

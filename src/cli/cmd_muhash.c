/* mulred muhash: the MuHash3072 of element files, synthetic UTXO sets and (bitcoin) UTXO
 * snapshots, on every rank of the MPI job with its OpenMP threads; also `kind = muhash` in a
 * job file (one options struct and one key table for both, cli/job.h).
 *
 * Phases, each timed: open (ranks select their units of every input by the plan of
 * mulred/plan.h), read/generate + hash (threads), local reduce (thread partials), MPI reduce
 * (rank partials through the generic group reduction with the MuHash group), finalize (rank 0:
 * one inversion and the digest). A failure on any rank is agreed on by all ranks before the
 * next collective, so a bad file ends every rank with the same exit status and nothing hangs. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/job.h"
#include "cli/progress.h"
#include "hash/hash.h"
#include "mulred/checkpoint.h"
#include "mulred/dist.h"
#include "mulred/group.h"
#include "mulred/muhash.h"
#include "mulred/plan.h"
#include "mulred/sources.h"
#include "mulred/utxo.h"
#include "util/util.h"

static void muhash_usage(void)
{
    cli_out(
        "Usage: mulred muhash [OPTIONS]\n"
        "\n"
        "Computes the MuHash3072 multiset hash of the given elements, bit-exact with Bitcoin\n"
        "Core's gettxoutsetinfo muhash (flavor bitcoin) or Kaspa's MuHash (flavor kaspa).\n"
        "Under mpirun the inputs are split across ranks; each rank's threads reduce their\n"
        "share from the identity; the partials meet in MPI_Reduce. The result does not\n"
        "depend on the number of ranks or threads.\n"
        "\n"
        "Inputs (any combination; at least one):\n"
        "  --insert FILE       elements to insert: one per line as hex; blank lines and\n"
        "                      lines starting with '#' are ignored; '-' (standard input)\n"
        "                      and pipes are read whole by rank 0\n"
        "  --remove FILE       elements to remove (same format)\n"
        "  --synthetic N       insert N synthetic UTXO-like elements generated from\n"
        "                      (seed, index): TxOutSer (bitcoin) or Kaspa UTXO elements\n"
        "  --seed S            seed of the synthetic set: decimal or 0x hex (default 1)\n"
        "  --snapshot FILE     a Bitcoin Core dumptxoutset file (v2 or legacy; flavor\n"
        "                      bitcoin): gives gettxoutsetinfo's muhash, and prints coins,\n"
        "                      base_block_hash, network and format_version. Ranks and threads\n"
        "                      read it in parallel through the sidecar index FILE.idx (built\n"
        "                      by rank 0 on first use; see 'mulred utxo index')\n"
        "  --txoutset-hash     with --snapshot: also hash_serialized_3 (dumptxoutset's\n"
        "                      txoutset_hash). A sequential hash over the whole file: rank 0\n"
        "                      reads the file once more, alone\n"
        "\n"
        "Options:\n"
        "  --flavor F          bitcoin (default) or kaspa\n"
        "  --threads T         threads per rank, 1-4096 (default: OMP_NUM_THREADS, else all\n"
        "                      cores)\n"
        "  --json              print one JSON object: muhash, flavor, inserted, removed,\n"
        "                      ranks, threads, nodes, per-phase times (min/avg/max over ranks;\n"
        "                      total runs from opening the inputs to the digest: process\n"
        "                      start, MPI_Init and libcrypto's initialization are outside)\n"
        "  --output FILE       write the result to FILE instead of standard output\n"
        "  --checkpoint DIR    keep finished units in DIR (created 0700; refused when\n"
        "                      others may write it) and resume from it: a rerun, with any\n"
        "                      rank or thread count, loads the finished units. Element\n"
        "                      files, snapshots and synthetic sets (not streams); --json\n"
        "                      adds resumed_units, computed_units and checkpoint_seconds\n"
        "  --checkpoint-unit N work units per checkpoint unit (default 512 for element\n"
        "                      files: 128 MiB; 256 index chunks for snapshots: 32 MiB;\n"
        "                      1024 for synthetic sets: 2^20 elements; each about 0.6 s or\n"
        "                      more of one thread's work)\n"
        "  --progress          show a progress bar on stderr (default: when a terminal)\n"
        "  --no-progress       never show it\n"
        "  -h, --help          this help\n"
        "A flag may carry a value, as in a job file: --json=false, --progress=true.\n"
        "\n"
        "Exit status: 0 success, 1 usage error, 2 bad input (the message names the file\n"
        "and line or byte offset; no digest is printed), 3 runtime or MPI failure.\n");
}

enum { MAX_FILES = 64 };

typedef struct {
    mulred_muhash_flavor flavor;
    const char *insert[MAX_FILES], *remove[MAX_FILES];
    int ninsert, nremove;
    uint64_t synthetic, seed;
    bool has_synthetic;
    const char *snapshot[MAX_FILES];
    int nsnapshot;
    bool txoutset_hash;
    int threads;              /* 0: OMP_NUM_THREADS, else all cores */
    int progress;             /* 1 force, -1 never, 0 auto */
    const char *checkpoint;   /* NULL: none */
    uint64_t checkpoint_unit; /* 0: the defaults below */
} muhash_opts;

/* ---- keys ---- */

static int set_flavor(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    if (mulred_muhash_flavor_parse(&((muhash_opts *)vo)->flavor, v))
        return snprintf(why, cap, "bad flavor '%s' (bitcoin or kaspa)", v), CLI_EUSAGE;
    return MULRED_OK;
}

static int add_path(const char **list, int *n, const char *v, cli_parser *p, char *why, size_t cap)
{
    if (*n == MAX_FILES)
        return snprintf(why, cap, "at most %d files for %s", MAX_FILES, p->label), CLI_EUSAGE;
    const char *kept = cli_parser_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    list[(*n)++] = kept;
    return MULRED_OK;
}

static int set_insert(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    muhash_opts *o = vo;
    return add_path(o->insert, &o->ninsert, v, p, why, cap);
}

static int set_remove(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    muhash_opts *o = vo;
    return add_path(o->remove, &o->nremove, v, p, why, cap);
}

static int set_snapshot(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    muhash_opts *o = vo;
    return add_path(o->snapshot, &o->nsnapshot, v, p, why, cap);
}

static int set_txoutset(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    return cli_parse_bool(&((muhash_opts *)vo)->txoutset_hash, v, p, why, cap) ? CLI_EUSAGE
                                                                               : MULRED_OK;
}

static int set_synthetic(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    muhash_opts *o = vo;
    if (cli_parse_count(&o->synthetic, v, 1, UINT64_MAX, p, why, cap)) return CLI_EUSAGE;
    o->has_synthetic = true;
    return MULRED_OK;
}

static int set_seed(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    return cli_parse_uint(&((muhash_opts *)vo)->seed, v, UINT64_MAX, p, why, cap) ? CLI_EUSAGE
                                                                                  : MULRED_OK;
}

static int set_threads(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    uint64_t n;
    if (cli_parse_count(&n, v, 1, 4096, p, why, cap)) return CLI_EUSAGE;
    ((muhash_opts *)vo)->threads = (int)n;
    return MULRED_OK;
}

static int set_progress(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    bool on;
    if (cli_parse_bool(&on, v, p, why, cap)) return CLI_EUSAGE;
    ((muhash_opts *)vo)->progress = on ? 1 : -1;
    return MULRED_OK;
}

static int set_no_progress(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    bool on;
    if (cli_parse_bool(&on, v, p, why, cap)) return CLI_EUSAGE;
    ((muhash_opts *)vo)->progress = on ? -1 : 0; /* --no-progress=false: back to automatic */
    return MULRED_OK;
}

static int set_checkpoint(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    const char *kept = cli_parser_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((muhash_opts *)vo)->checkpoint = kept;
    return MULRED_OK;
}

static int set_checkpoint_unit(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    return cli_parse_count(&((muhash_opts *)vo)->checkpoint_unit, v, 1, UINT32_MAX, p, why, cap)
               ? CLI_EUSAGE
               : MULRED_OK;
}

static const cli_key muhash_keys[] = {
    /* name, flag, repeatable, command line only, setter */
    {"flavor", false, false, false, set_flavor},
    {"insert", false, true, false, set_insert},
    {"remove", false, true, false, set_remove},
    {"snapshot", false, true, false, set_snapshot},
    {"txoutset-hash", true, false, false, set_txoutset},
    {"synthetic", false, false, false, set_synthetic},
    {"seed", false, false, false, set_seed},
    {"threads", false, false, false, set_threads},
    {"progress", true, false, false, set_progress},
    {"no-progress", true, false, true, set_no_progress},
    {"checkpoint", false, false, false, set_checkpoint},
    {"checkpoint-unit", false, false, false, set_checkpoint_unit},
};

static void muhash_defaults(void *vo)
{
    muhash_opts *o = vo;
    memset(o, 0, sizeof *o);
    o->flavor = MULRED_MUHASH_BITCOIN;
    o->seed = 1;
}

static int muhash_check(const void *vo, const char *dash, const char **fault, char *why, size_t cap)
{
    const muhash_opts *o = vo;
    if (!o->ninsert && !o->nremove && !o->has_synthetic && !o->nsnapshot) {
        *fault = NULL;
        snprintf(why, cap, "no input: give %sinsert, %sremove, %ssynthetic or %ssnapshot", dash,
                 dash, dash, dash);
        return CLI_EUSAGE;
    }
    if (o->nsnapshot && o->flavor != MULRED_MUHASH_BITCOIN) {
        *fault = "flavor";
        snprintf(why, cap, "%ssnapshot needs %sflavor bitcoin (snapshots are Bitcoin Core's)", dash,
                 dash);
        return CLI_EUSAGE;
    }
    if (o->checkpoint_unit && !o->checkpoint) {
        *fault = "checkpoint-unit";
        snprintf(why, cap, "%scheckpoint-unit needs %scheckpoint", dash, dash);
        return CLI_EUSAGE;
    }
    if (o->txoutset_hash && o->nsnapshot != 1) {
        *fault = "txoutset-hash";
        snprintf(why, cap, "%stxoutset-hash needs exactly one %ssnapshot", dash, dash);
        return CLI_EUSAGE;
    }
    return MULRED_OK;
}

/* ---- run ---- */

/* Everything a rank holds open: its units of each input as a source. */
typedef struct {
    mulred_element_file *files[2 * MAX_FILES];
    int nfiles;
    mulred_utxo_source *snapshots[MAX_FILES];
    int nsnapshots;
    mulred_synth_set synth;
    mulred_muhash_source sources[3 * MAX_FILES + 1];
    size_t nsources;
} muhash_inputs;

static void inputs_close(muhash_inputs *in)
{
    for (int i = 0; i < in->nfiles; i++) mulred_element_file_close(in->files[i]);
    for (int i = 0; i < in->nsnapshots; i++) mulred_utxo_source_close(in->snapshots[i]);
}

/* Opens every input and selects this rank's units by the plan: equal units (byte ranges,
 * element blocks) by count, snapshot chunks by coins. A stream is read by rank 0, which takes
 * all its units. */
static int inputs_open(muhash_inputs *in, const muhash_opts *o, int rank, int nranks,
                       mulred_error *err)
{
    memset(in, 0, sizeof *in);
    for (int k = 0; k < 2; k++) {
        int n = k ? o->nremove : o->ninsert;
        for (int i = 0; i < n; i++) {
            mulred_element_file *f;
            const char *path = (k ? o->remove : o->insert)[i];
            if (mulred_element_file_open(&f, path, k == 1, 0, rank == 0, err)) return err->status;
            in->files[in->nfiles++] = f;
            uint64_t units = mulred_element_file_units(f);
            mulred_unit_range r = mulred_element_file_is_stream(f)
                                      ? (mulred_unit_range){0, units}
                                      : mulred_plan_units(units, rank, nranks);
            in->sources[in->nsources++] = *mulred_element_file_select(f, r.first, r.end);
        }
    }
    for (int i = 0; i < o->nsnapshot; i++) {
        /* The index was made (or found) by rank 0 before this; see muhash_run. */
        mulred_utxo_source *src;
        if (mulred_utxo_source_open(&src, o->snapshot[i], NULL, err)) return err->status;
        in->snapshots[in->nsnapshots++] = src;
        const uint64_t *coins_before;
        uint64_t units = mulred_utxo_source_units(src, &coins_before);
        mulred_unit_range r = mulred_plan_weighted(coins_before, units, rank, nranks);
        mulred_utxo_source_select(src, r.first, r.end);
        in->sources[in->nsources++] = *mulred_utxo_source_muhash(src);
    }
    if (o->has_synthetic) {
        in->synth.flavor = o->flavor;
        in->synth.seed = o->seed;
        mulred_unit_range r = mulred_plan_units(mulred_synth_units(o->synthetic), rank, nranks);
        mulred_synth_select(&in->synth, o->synthetic, r.first, r.end);
        mulred_synth_source(&in->sources[in->nsources++], &in->synth);
    }
    return MULRED_OK;
}

enum { PH_READ, PH_GENERATE, PH_HASH, PH_LOCAL, PH_MPI, PH_FINALIZE, PH_TOTAL, NPHASES };
static const char *phase_names[NPHASES] = {"read",       "generate", "hash", "local_reduce",
                                           "mpi_reduce", "finalize", "total"};

/* What rank 0 knows of the snapshots: the header of the first, and the txoutset hash. */
typedef struct {
    bool have;
    mulred_utxo_header header;
    uint64_t coins; /* all snapshots */
    char txoutset_hash[65];
} snapshot_info;

typedef struct {
    char hex[65];
    uint64_t inserted, removed;
    int ranks, threads, nodes;
    double phases[NPHASES][3]; /* min, avg, max over ranks */
    snapshot_info snap;
    uint64_t resumed_units, computed_units; /* with --checkpoint, over all ranks */
    double checkpoint_seconds;              /* the slowest rank's time inside the store */
} muhash_result;

/* ---- checkpoints ----
 * A checkpoint unit is a run of consecutive work units of one input (mulred/plan.h): byte
 * ranges of an element file, index chunks of a snapshot, element blocks of a synthetic set.
 * Work units are ~1-3 ms; a checkpoint unit groups CKPT_FILE_UNIT x 256 KiB (128 MiB: ~0.8-1.3 M
 * elements), CKPT_SNAP_UNIT index chunks of ~128 KiB (32 MiB: ~0.4 M coins at ~1.7 us each)
 * or CKPT_SYNTH_UNIT x 1024 synthetic elements (2^20), ~0.6-0.9 s of one thread's work,
 * because saving it (a ~1 KB file, two fsyncs) costs ~4 ms here (median; p90 18 ms) while the
 * rank's other threads wait: at 2 threads a unit is ~0.4 s of wall time and the save ~1%.
 * Larger units would balance ranks worse (units are planned by count). The units are numbered
 * over the inputs in order (inserts, removes, snapshots, the synthetic set) and planned over
 * ranks by count, so they do not depend on the rank count: a rerun on any number of ranks finds
 * them. Each rank reduces its units one at a time with all its threads (one
 * mulred_muhash_reduce_ex per unit), saves each, and combines them; the ranks then meet in
 * MPI_Reduce as without checkpoints, and the product, being exact, is the same.
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

typedef struct {
    uint64_t resumed, computed;
    double seconds; /* wall time inside the store: opening it (loads) and saving */
} ckpt_counts;

/* The inputs of a checkpointed job, opened on every rank. */
typedef struct {
    mulred_element_file *files[2 * MAX_FILES];
    bool removes[2 * MAX_FILES];
    int nfiles;
    mulred_utxo_source *snaps[MAX_FILES];
    int nsnaps;
    uint64_t gfile, gsnap, gsynth; /* work units per checkpoint unit */
} ckpt_inputs;

/* SHA-256 of n little-endian u64 values, in hex. */
static int digest_u64s(char hex[65], const uint64_t *v, uint64_t n, mulred_error *err)
{
    uint8_t *b = malloc(n * 8 + 1), d[32];
    if (!b) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    for (uint64_t i = 0; i < n; i++) mulred_store_le64(b + 8 * i, v[i]);
    int rc = mulred_sha256_once(d, b, n * 8)
                 ? mulred_error_set(err, MULRED_ERUNTIME, "out of memory")
                 : MULRED_OK;
    free(b);
    mulred_hex_encode(hex, d, 32);
    return rc;
}

/* Describes the job to the checkpoint store: flavor, the inputs' identity and the plan. */
static int ckpt_describe(mulred_ckpt_job *job, const muhash_opts *o, const ckpt_inputs *in,
                         const ckpt_unit *units, uint64_t nunits, mulred_error *err)
{
    int rc = mulred_ckpt_job_add(job, err, "flavor", "%s", mulred_muhash_flavor_name(o->flavor));
    for (int k = 0; k < 2 && rc == MULRED_OK; k++)
        for (int i = 0; i < (k ? o->nremove : o->ninsert) && rc == MULRED_OK; i++) {
            char name[32];
            snprintf(name, sizeof name, "%s%d", k ? "remove" : "insert", i);
            rc = mulred_ckpt_job_add_file(job, name, (k ? o->remove : o->insert)[i], err);
        }
    for (int i = 0; i < in->nsnaps && rc == MULRED_OK; i++) {
        char name[48], hex[65];
        snprintf(name, sizeof name, "snapshot%d", i);
        rc = mulred_ckpt_job_add_file(job, name, o->snapshot[i], err);
        const uint64_t *coins_before;
        uint64_t chunks = mulred_utxo_source_units(in->snaps[i], &coins_before);
        if (rc == MULRED_OK) rc = digest_u64s(hex, coins_before, chunks + 1, err);
        snprintf(name, sizeof name, "snapshot%d.chunks", i);
        if (rc == MULRED_OK)
            rc = mulred_ckpt_job_add(job, err, name, "%llu coin ordinals sha256 %s",
                                     (unsigned long long)chunks, hex);
    }
    if (rc == MULRED_OK && o->has_synthetic)
        rc = mulred_ckpt_job_add(job, err, "synthetic", "%llu seed %llu",
                                 (unsigned long long)o->synthetic, (unsigned long long)o->seed);
    if (rc == MULRED_OK)
        rc = mulred_ckpt_job_add(job, err, "plan.rule",
                                 "element files: %llu units of %d bytes; synthetic: %llu "
                                 "blocks of %d",
                                 (unsigned long long)in->gfile, 256 * 1024,
                                 (unsigned long long)in->gsynth, MULRED_SYNTH_CHUNK);
    if (rc == MULRED_OK && in->nsnaps)
        rc = mulred_ckpt_job_add(job, err, "plan.snapshot_rule", "%llu index chunks",
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
        if (mulred_sha256_once(d, b, nunits * 24))
            rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        mulred_hex_encode(hex, d, 32);
        if (rc == MULRED_OK) rc = mulred_ckpt_job_add(job, err, "plan.sha256", "%s", hex);
    }
    free(b);
    return rc;
}

/* Opens the inputs, in order. A stream is refused (it is not read here: read_stream false):
 * its elements cannot be read again on a rerun. */
static int ckpt_inputs_open(ckpt_inputs *in, const muhash_opts *o, mulred_error *err)
{
    memset(in, 0, sizeof *in);
    in->gfile = o->checkpoint_unit ? o->checkpoint_unit : CKPT_FILE_UNIT;
    in->gsnap = o->checkpoint_unit ? o->checkpoint_unit : CKPT_SNAP_UNIT;
    in->gsynth = o->checkpoint_unit ? o->checkpoint_unit : CKPT_SYNTH_UNIT;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < (k ? o->nremove : o->ninsert); i++) {
            const char *path = (k ? o->remove : o->insert)[i];
            mulred_element_file *f;
            if (mulred_element_file_open(&f, path, k == 1, 0, false, err)) return err->status;
            in->files[in->nfiles] = f;
            in->removes[in->nfiles++] = k == 1;
            if (mulred_element_file_is_stream(f))
                return mulred_error_set(err, MULRED_EINPUT,
                                        "%s: not a regular file: a checkpointed job cannot resume "
                                        "reading a stream",
                                        path);
        }
    /* each snapshot's index was made (or found) by rank 0 before this; see muhash_run */
    for (int i = 0; i < o->nsnapshot; i++)
        if (mulred_utxo_source_open(&in->snaps[in->nsnaps++], o->snapshot[i], NULL, err))
            return err->status;
    return MULRED_OK;
}

static void ckpt_inputs_close(ckpt_inputs *in)
{
    for (int f = 0; f < in->nfiles; f++) mulred_element_file_close(in->files[f]);
    for (int i = 0; i < in->nsnaps; i++)
        if (in->snaps[i]) mulred_utxo_source_close(in->snaps[i]);
}

/* The checkpoint units of the inputs, in order; *units is allocated. */
static int ckpt_units_make(ckpt_unit **units, uint64_t *nunits, const ckpt_inputs *in,
                           const muhash_opts *o, mulred_error *err)
{
    const int ninputs = in->nfiles + in->nsnaps + (o->has_synthetic ? 1 : 0);
    uint64_t work[2 * MAX_FILES + MAX_FILES + 1], group[2 * MAX_FILES + MAX_FILES + 1];
    int id[2 * MAX_FILES + MAX_FILES + 1];
    uint64_t cap = 0;
    for (int j = 0; j < ninputs; j++) {
        if (j < in->nfiles) {
            work[j] = mulred_element_file_units(in->files[j]), group[j] = in->gfile, id[j] = j;
        } else if (j < in->nfiles + in->nsnaps) {
            const uint64_t *coins_before;
            work[j] = mulred_utxo_source_units(in->snaps[j - in->nfiles], &coins_before);
            group[j] = in->gsnap, id[j] = j;
        } else {
            work[j] = mulred_synth_units(o->synthetic), group[j] = in->gsynth, id[j] = -1;
        }
        cap += mulred_plan_unit_count(work[j], group[j]);
    }
    *nunits = 0;
    *units = malloc(cap * sizeof **units + 1);
    if (!*units) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    for (int j = 0; j < ninputs; j++)
        for (uint64_t first = 0; first < work[j]; first += group[j])
            (*units)[(*nunits)++] =
                (ckpt_unit){id[j], first, work[j] - first < group[j] ? work[j] : first + group[j]};
    return MULRED_OK;
}

/* Reduces this rank's checkpoint units into *state (zeroed by the caller), loading those the
 * directory holds and saving those it computes. A damaged unit file is reported on stderr and
 * recomputed. Per-rank element counts and times land in *stats; the snapshots' headers in
 * *snap. */
static int ckpt_reduce(const muhash_opts *o, int rank, int nranks, int team,
                       mulred_muhash_state *state, mulred_muhash_stats *stats, ckpt_counts *cc,
                       snapshot_info *snap, mulred_error *err)
{
    memset(stats, 0, sizeof *stats);
    stats->threads = team;
    mulred_muhash_init(state, o->flavor);
    ckpt_inputs in;
    ckpt_unit *units = NULL;
    uint64_t nunits = 0;
    mulred_ckpt_job *job = NULL;
    mulred_ckpt *ck = NULL;
    int rc = ckpt_inputs_open(&in, o, err);
    if (rc == MULRED_OK && in.nsnaps) {
        snap->have = true;
        snap->header = *mulred_utxo_source_header(in.snaps[0]);
        for (int i = 0; i < in.nsnaps; i++)
            snap->coins += mulred_utxo_source_header(in.snaps[i])->coins;
    }
    if (rc == MULRED_OK) rc = ckpt_units_make(&units, &nunits, &in, o, err);
    if (rc == MULRED_OK && nunits) {
        job = mulred_ckpt_job_new(mulred_muhash_group(o->flavor), nunits);
        if (!job) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    if (rc == MULRED_OK && job) rc = ckpt_describe(job, o, &in, units, nunits, err);
    double ts = mulred_wtime();
    if (rc == MULRED_OK && job) rc = mulred_ckpt_open(&ck, o->checkpoint, job, err);
    cc->seconds += mulred_wtime() - ts;

    mulred_unit_range share = mulred_plan_units(nunits, rank, nranks);
    mulred_muhash_reduce_opts ropts = {o->threads, NULL, NULL};
    for (uint64_t u = share.first; u < share.end && rc == MULRED_OK; u++) {
        const ckpt_unit *cu = &units[u];
        bool remove = cu->input >= 0 && cu->input < in.nfiles && in.removes[cu->input];
        mulred_muhash_state part;
        memset(&part, 0, sizeof part); /* its padding is saved too */
        if (mulred_ckpt_state(ck, u) == MULRED_CKPT_LOADED) {
            uint64_t items = mulred_ckpt_get(ck, u, &part);
            if (part.flavor != o->flavor) {
                char path[4200];
                mulred_ckpt_path(ck, u, path, sizeof path);
                rc = mulred_error_set(err, MULRED_EINPUT, "%s: a partial of another flavor", path);
                break;
            }
            *(remove ? &stats->removed : &stats->inserted) += items;
            mulred_muhash_combine(state, &part);
            cc->resumed++;
            continue;
        }
        if (mulred_ckpt_state(ck, u) == MULRED_CKPT_CORRUPT)
            fprintf(stderr, "mulred: warning: %s; recomputing unit %llu\n", mulred_ckpt_note(ck, u),
                    (unsigned long long)u);
        mulred_muhash_source src;
        mulred_synth_set synth = {o->flavor, o->seed, 0, 0, false};
        if (cu->input < 0) {
            mulred_synth_select(&synth, o->synthetic, cu->first, cu->end);
            mulred_synth_source(&src, &synth);
        } else if (cu->input < in.nfiles) {
            src = *mulred_element_file_select(in.files[cu->input], cu->first, cu->end);
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
        rc = mulred_ckpt_save(ck, u, &part, st.inserted + st.removed, err);
        cc->seconds += mulred_wtime() - ts;
        if (rc) break;
        mulred_muhash_combine(state, &part);
        stats->inserted += st.inserted, stats->removed += st.removed;
        stats->produce_cpu += st.produce_cpu, stats->hash_cpu += st.hash_cpu;
        stats->parallel_wall += st.parallel_wall, stats->combine_wall += st.combine_wall;
        stats->threads = st.threads;
        cc->computed++;
    }
    mulred_ckpt_close(ck);
    mulred_ckpt_job_free(job);
    free(units);
    ckpt_inputs_close(&in);
    return rc;
}

static int muhash_run(const void *vo, void *vr, mulred_error *err)
{
    const muhash_opts *o = vo;
    muhash_result *res = vr;
    memset(res, 0, sizeof *res);
    int rank = mulred_dist_rank(), nranks = mulred_dist_size();
    /* Process set-up stays outside the timed phases, like MPI_Init: the OpenMP team starts
     * and libcrypto loads its providers (≈ 3 ms on first use). */
    int team = mulred_threads_start(o->threads);
    double t0 = mulred_wtime();

    /* Rank 0 makes sure each snapshot has a fresh index (one validating scan on first use)
     * before any rank plans its share from it. */
    if (rank == 0)
        for (int i = 0; i < o->nsnapshot && err->status == MULRED_OK; i++)
            mulred_utxo_index_ensure(o->snapshot[i], NULL, NULL, err);
    if (mulred_dist_agree(err)) return err->status;

    snapshot_info *snap = &res->snap;
    mulred_muhash_state state;
    memset(&state, 0, sizeof state); /* its padding crosses MPI too */
    mulred_muhash_stats stats;
    ckpt_counts cc = {0, 0, 0};
    if (o->checkpoint) {
        ckpt_reduce(o, rank, nranks, team, &state, &stats, &cc, snap, err);
    } else {
        muhash_inputs in;
        inputs_open(&in, o, rank, nranks, err);
        if (mulred_dist_agree(err)) {
            inputs_close(&in);
            return err->status;
        }
        if (in.nsnapshots) {
            snap->have = true;
            snap->header = *mulred_utxo_source_header(in.snapshots[0]);
            for (int i = 0; i < in.nsnapshots; i++)
                snap->coins += mulred_utxo_source_header(in.snapshots[i])->coins;
        }
        cli_progress bar;
        cli_progress_init(&bar, o->progress, o->has_synthetic ? o->synthetic / (uint64_t)nranks : 0,
                          "elements");
        mulred_muhash_reduce_opts ropts = {o->threads, cli_progress_update, &bar};
        mulred_muhash_reduce_ex(&state, o->flavor, in.sources, in.nsources, &ropts, &stats, err);
        cli_progress_finish(&bar);
        inputs_close(&in);
    }
    if (mulred_dist_agree(err)) return err->status;

    double t1 = mulred_wtime();
    mulred_dist_reduce(&state, mulred_muhash_group(o->flavor), 0, err);
    double t2 = mulred_wtime();
    if (mulred_dist_agree(err)) return err->status;

    if (rank == 0) {
        uint8_t digest[32];
        mulred_muhash_finalize(digest, &state);
        mulred_muhash_display(res->hex, digest, o->flavor);
        if (o->txoutset_hash && mulred_utxo_txoutset_hash(digest, o->snapshot[0], err) == MULRED_OK)
            mulred_hex_encode_reversed(snap->txoutset_hash, digest, 32);
    }
    if (mulred_dist_agree(err)) return err->status;
    double t3 = mulred_wtime();

    double local[NPHASES] = {0};
    double per_thread = stats.threads > 0 ? 1.0 / stats.threads : 0;
    double produce = stats.produce_cpu * per_thread;
    local[o->ninsert || o->nremove || o->nsnapshot ? PH_READ : PH_GENERATE] = produce;
    local[PH_HASH] = stats.hash_cpu * per_thread;
    local[PH_LOCAL] = stats.combine_wall;
    local[PH_MPI] = t2 - t1;
    local[PH_FINALIZE] = t3 - t2;
    local[PH_TOTAL] = t3 - t0;
    int rc = MULRED_OK;
    for (int p = 0; p < NPHASES && rc == MULRED_OK; p++)
        rc = mulred_dist_minavgmax(local[p], res->phases[p], err);
    if (rc == MULRED_OK) rc = mulred_dist_sum_u64(&res->inserted, stats.inserted, err);
    if (rc == MULRED_OK) rc = mulred_dist_sum_u64(&res->removed, stats.removed, err);
    if (rc == MULRED_OK) rc = mulred_dist_sum_u64(&res->resumed_units, cc.resumed, err);
    if (rc == MULRED_OK) rc = mulred_dist_sum_u64(&res->computed_units, cc.computed, err);
    double ck[3] = {0, 0, 0};
    if (rc == MULRED_OK) rc = mulred_dist_minavgmax(cc.seconds, ck, err);
    res->checkpoint_seconds = ck[2];
    if (rc == MULRED_OK) rc = mulred_dist_node_count(&res->nodes, err);
    res->ranks = nranks;
    res->threads = stats.threads;
    return rc;
}

/* ---- results ---- */

static void muhash_write_json(mulred_json_writer *w, const void *vo, const void *vr)
{
    const muhash_opts *o = vo;
    const muhash_result *res = vr;
    const snapshot_info *snap = &res->snap;
    double total = res->phases[PH_TOTAL][2];
    double rate = total > 0 ? (double)(res->inserted + res->removed) / total : 0;
    mulred_jw_object_begin(w, NULL);
    mulred_jw_string(w, "muhash", res->hex);
    mulred_jw_string(w, "flavor", mulred_muhash_flavor_name(o->flavor));
    mulred_jw_uint(w, "inserted", res->inserted);
    mulred_jw_uint(w, "removed", res->removed);
    mulred_jw_uint(w, "elements", res->inserted + res->removed);
    if (o->has_synthetic) {
        mulred_jw_uint(w, "synthetic", o->synthetic);
        mulred_jw_uint(w, "seed", o->seed);
    }
    if (snap->have) {
        char block[65];
        mulred_utxo_block_hash_hex(block, &snap->header);
        mulred_jw_uint(w, "coins", snap->coins);
        mulred_jw_string(w, "base_block_hash", block);
        mulred_jw_string(w, "network", snap->header.network);
        mulred_jw_int(w, "format_version", snap->header.format_version);
        if (o->txoutset_hash) mulred_jw_string(w, "txoutset_hash", snap->txoutset_hash);
    }
    if (o->checkpoint) {
        mulred_jw_uint(w, "resumed_units", res->resumed_units);
        mulred_jw_uint(w, "computed_units", res->computed_units);
        mulred_jw_double(w, "checkpoint_seconds", res->checkpoint_seconds);
    }
    mulred_jw_int(w, "ranks", res->ranks);
    mulred_jw_int(w, "threads", res->threads);
    mulred_jw_int(w, "nodes", res->nodes);
    mulred_jw_double(w, "seconds", total);
    mulred_jw_double(w, "elements_per_second", rate);
    mulred_jw_object_begin(w, "phases");
    for (int p = 0; p < NPHASES; p++) {
        mulred_jw_object_begin(w, phase_names[p]);
        mulred_jw_double(w, "min", res->phases[p][0]);
        mulred_jw_double(w, "avg", res->phases[p][1]);
        mulred_jw_double(w, "max", res->phases[p][2]);
        mulred_jw_object_end(w);
    }
    mulred_jw_object_end(w);
    mulred_jw_string(w, "kernel", mulred_num3072_kernel_name());
    mulred_jw_string(w, "version", mulred_version());
    mulred_jw_string(w, "git_revision", mulred_git_revision());
    mulred_jw_object_end(w);
}

static void muhash_write_text(FILE *out, const void *vo, const void *vr)
{
    const muhash_opts *o = vo;
    const muhash_result *res = vr;
    const snapshot_info *snap = &res->snap;
    double total = res->phases[PH_TOTAL][2];
    double rate = total > 0 ? (double)(res->inserted + res->removed) / total : 0;
    char t[32], r[48], h[32], m[32];
    mulred_format_seconds(t, sizeof t, total);
    mulred_format_rate(r, sizeof r, rate, "elements");
    mulred_format_seconds(h, sizeof h, res->phases[PH_HASH][2]);
    mulred_format_seconds(m, sizeof m, res->phases[PH_MPI][2]);
    fprintf(out, "muhash   %s\n", res->hex);
    fprintf(out, "flavor   %s\n", mulred_muhash_flavor_name(o->flavor));
    fprintf(out, "elements %llu inserted, %llu removed\n", (unsigned long long)res->inserted,
            (unsigned long long)res->removed);
    if (snap->have) {
        char block[65];
        mulred_utxo_block_hash_hex(block, &snap->header);
        fprintf(out, "snapshot %llu coins, base block %s, network %s, format %s\n",
                (unsigned long long)snap->coins, block,
                snap->header.network[0] ? snap->header.network : "unknown (legacy file)",
                snap->header.format_version == 2 ? "v2" : "legacy");
        if (o->txoutset_hash) fprintf(out, "txoutset_hash %s\n", snap->txoutset_hash);
    }
    if (o->checkpoint)
        fprintf(out, "checkpoint %llu units resumed, %llu computed (%s)\n",
                (unsigned long long)res->resumed_units, (unsigned long long)res->computed_units,
                o->checkpoint);
    int ranks = res->ranks, threads = res->threads, nodes = res->nodes;
    fprintf(out, "layout   %d rank%s x %d thread%s on %d node%s (kernel %s)\n", ranks,
            ranks == 1 ? "" : "s", threads, threads == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s",
            mulred_num3072_kernel_name());
    fprintf(out, "time     %s (hash %s per thread, MPI reduce %s), %s\n", t, h, m, r);
}

static void muhash_describe(char *out, size_t cap, const void *vo)
{
    snprintf(out, cap, "flavor %s", mulred_muhash_flavor_name(((const muhash_opts *)vo)->flavor));
}

const cli_job_kind cli_kind_muhash = {
    .name = "muhash",
    .keys = muhash_keys,
    .nkeys = sizeof muhash_keys / sizeof muhash_keys[0],
    .axis = "flavor",
    .opts_size = sizeof(muhash_opts),
    .result_size = sizeof(muhash_result),
    .defaults = muhash_defaults,
    .check = muhash_check,
    .run = muhash_run,
    .write_json = muhash_write_json,
    .write_text = muhash_write_text,
    .describe = muhash_describe,
    .usage = muhash_usage,
};

int mulred_cmd_muhash(int argc, char **argv)
{
    return cli_run_kind(&cli_kind_muhash, argc, argv);
}

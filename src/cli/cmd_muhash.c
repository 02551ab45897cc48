/* mulred muhash: the MuHash3072 of element files, synthetic UTXO sets and (bitcoin) UTXO
 * snapshots, on every rank of the MPI job with its OpenMP threads; also `kind = muhash` in a
 * job file (one options struct and one key table for both, cli/job.h). The options become one
 * mulred_mpi_muhash job (mulred/mulred_mpi.h, src/mpi/mpi_muhash.c); this file parses and prints.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_muhash.h"
#include "cli/kind.h"
#include "cli/progress.h"
#include "mulred/mulred_mpi.h"
#include "output/result_fields.h"

static void muhash_usage(void)
{
    mulred_out(
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
        "                      and pipes are read by rank 0 in 1 MiB blocks\n"
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
        "  --json              print one JSON object: result (the digest; also as muhash\n"
        "                      until 0.4), flavor, inserted, removed,\n"
        "                      ranks, threads, nodes, per-phase times (min/avg/max over ranks;\n"
        "                      total runs from opening the inputs to the digest: process\n"
        "                      start, MPI_Init and libcrypto's initialization are outside)\n"
        "  --output FILE       write the result to FILE instead of standard output\n"
        "  --checkpoint DIR    keep finished units in DIR (created 0700; refused when\n"
        "                      others may write it) and resume from it: a rerun, with any\n"
        "                      rank or thread count, loads the finished units. Element\n"
        "                      files, snapshots and synthetic sets (not streams); --json\n"
        "                      adds resumed_units, computed_units and checkpoint_seconds\n"
        "  --schedule S        static (default): each rank a fixed share of the units;\n"
        "                      dynamic: ranks draw batches of units at run time, largest\n"
        "                      first, so a slow rank takes fewer (same digest either way);\n"
        "                      --json adds schedule, units and units_per_rank\n"
        "  --stall-timeout S   seconds a rank may wait for another that shows no sign of life\n"
        "                      (dead, stopped or cut off) before every rank ends with exit 3\n"
        "                      (default 60, or $MULRED_STALL_TIMEOUT); computing never trips it;\n"
        "                      --json adds handout (window or coordinator) under dynamic\n"
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

/* The keys write into the library's job: flavor, the counts of the file lists, txoutset-hash,
 * synthetic (0: none), threads (0: OMP_NUM_THREADS, else all cores) and the distributed keys
 * (cli/kind.h). The file lists are kept here (the options are copied whole, one copy per run of
 * a job file) and the job points at them when it runs. */
typedef struct {
    mulred_mpi_muhash_job job;
    const char *insert[MAX_FILES], *remove[MAX_FILES], *snapshot[MAX_FILES];
    int progress; /* 1 force, -1 never, 0 auto */
} muhash_opts;

/* ---- keys ---- */

static mulred_exit set_flavor(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    if (mulred_muhash_flavor_parse(&((muhash_opts *)vo)->job.flavor, v))
        return mulred_key_bad_value(p, v, "bitcoin or kaspa", why, cap);
    return MULRED_OK;
}

static mulred_exit add_path(const char **list, size_t *n, const char *v, mulred_key_parser *p,
                            char *why, size_t cap)
{
    if (*n == MAX_FILES)
        return snprintf(why, cap, "at most %d files for %s", MAX_FILES, p->label),
               MULRED_OUT_EUSAGE;
    const char *kept = mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    list[(*n)++] = kept;
    return MULRED_OK;
}

static mulred_exit set_insert(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    muhash_opts *o = vo;
    return add_path(o->insert, &o->job.ninsert, v, p, why, cap);
}

static mulred_exit set_remove(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    muhash_opts *o = vo;
    return add_path(o->remove, &o->job.nremove, v, p, why, cap);
}

static mulred_exit set_snapshot(void *vo, const char *v, mulred_key_parser *p, char *why,
                                size_t cap)
{
    muhash_opts *o = vo;
    return add_path(o->snapshot, &o->job.nsnapshot, v, p, why, cap);
}

MULRED_KEY_FLAG(set_txoutset, muhash_opts, job.txoutset_hash)
/* At least 1: a synthetic set of 0 elements is no input (the job's 0). */
MULRED_KEY_COUNT(set_synthetic, muhash_opts, job.synthetic, 1, UINT64_MAX)

static mulred_exit set_progress(void *vo, const char *v, mulred_key_parser *p, char *why,
                                size_t cap)
{
    bool on;
    if (mulred_key_parse_bool(&on, v, p, why, cap)) return MULRED_OUT_EUSAGE;
    ((muhash_opts *)vo)->progress = on ? 1 : -1;
    return MULRED_OK;
}

static mulred_exit set_no_progress(void *vo, const char *v, mulred_key_parser *p, char *why,
                                   size_t cap)
{
    bool on;
    if (mulred_key_parse_bool(&on, v, p, why, cap)) return MULRED_OUT_EUSAGE;
    ((muhash_opts *)vo)->progress = on ? -1 : 0; /* --no-progress=false: back to automatic */
    return MULRED_OK;
}

static const mulred_key muhash_keys[] = {
    /* name, flag, repeatable, command line only (true) or a choice, setter */
    {"flavor", false, false, MULRED_KEY_CHOICE, set_flavor},
    {"insert", false, true, false, set_insert},
    {"remove", false, true, false, set_remove},
    {"snapshot", false, true, false, set_snapshot},
    {"txoutset-hash", true, false, false, set_txoutset},
    {"synthetic", false, false, false, set_synthetic},
    {"progress", true, false, false, set_progress},
    {"no-progress", true, false, true, set_no_progress},
};

static void muhash_defaults(void *vo)
{
    muhash_opts *o = vo;
    memset(o, 0, sizeof *o);
    mulred_mpi_muhash_job_init(&o->job);
}

static void muhash_dist(void *vo, cli_dist_opts *fields)
{
    *fields = CLI_DIST_OPTS(((muhash_opts *)vo)->job);
}

static mulred_exit muhash_check(const void *vo, const char *dash, const char **fault, char *why,
                                size_t cap)
{
    const mulred_mpi_muhash_job *o = &((const muhash_opts *)vo)->job;
    if (!o->ninsert && !o->nremove && !o->synthetic && !o->nsnapshot) {
        *fault = NULL;
        snprintf(why, cap, "no input: give %sinsert, %sremove, %ssynthetic or %ssnapshot", dash,
                 dash, dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->nsnapshot && o->flavor != MULRED_MUHASH_BITCOIN) {
        *fault = "flavor";
        snprintf(why, cap, "%ssnapshot needs %sflavor bitcoin (snapshots are Bitcoin Core's)", dash,
                 dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->checkpoint_unit && !o->checkpoint) {
        *fault = "checkpoint-unit";
        snprintf(why, cap, "%scheckpoint-unit needs %scheckpoint", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->txoutset_hash && o->nsnapshot != 1) {
        *fault = "txoutset-hash";
        snprintf(why, cap, "%stxoutset-hash needs exactly one %ssnapshot", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    return MULRED_OK;
}

/* ---- run: one call of the library ---- */

typedef mulred_mpi_muhash_result muhash_result;

static mulred_status muhash_run(const void *vo, void *vr, mulred_error *err)
{
    const muhash_opts *o = vo;
    /* The job as the keys wrote it, with what belongs to this run: the lists and the callbacks. */
    mulred_mpi_muhash_job job = o->job;
    job.insert = o->insert, job.remove = o->remove, job.snapshot = o->snapshot;
    job.units_per_rank = cli_units_buffer();
    job.note = cli_warn_note;
    /* a checkpointed job reduces unit by unit: no bar */
    cli_progress bar;
    /* the bar's rate: this rank's elements, or under the dynamic schedule the job's (its
     * progress is the job's units) */
    const uint64_t nranks =
        job.schedule == MULRED_SCHEDULE_DYNAMIC ? 1 : (uint64_t)mulred_mpi_size(MPI_COMM_WORLD);
    cli_progress_init(&bar, job.checkpoint ? -1 : o->progress, job.synthetic / nranks, "elements");
    job.progress = cli_progress_update, job.progress_data = &bar;
    const mulred_status rc = mulred_mpi_muhash(MPI_COMM_WORLD, &job, vr, err);
    cli_progress_finish(&bar);
    return rc;
}

/* ---- results ---- */

/* Bytes of the input files (what `mulred report --project` measures a read rate with); 0 when
 * there are none or one is not a regular file (a stream). */
static double input_bytes(const muhash_opts *o)
{
    const char *const *lists[] = {o->insert, o->remove, o->snapshot};
    const size_t counts[] = {o->job.ninsert, o->job.nremove, o->job.nsnapshot};
    double bytes = 0;
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < counts[l]; i++) {
            struct stat st;
            if (stat(lists[l][i], &st) != 0 || !S_ISREG(st.st_mode)) return 0;
            bytes += (double)st.st_size;
        }
    return bytes;
}

static void muhash_write_json(mulred_json_writer *w, const void *vo, const void *vr)
{
    const muhash_opts *o = vo;
    const muhash_result *res = vr;
    double total = res->phases[MULRED_MPI_MUHASH_PHASE_TOTAL].max;
    double rate = total > 0 ? (double)(res->inserted + res->removed) / total : 0;
    const double bytes = input_bytes(o);
    mulred_jw_object_begin(w, NULL);
    mulred_jw_string(w, MULRED_RF_RESULT, res->hex);
    mulred_jw_string(w, MULRED_RF_MUHASH, res->hex); /* the 0.2 name, kept for 0.3 */
    mulred_jw_string(w, MULRED_RF_FLAVOR, mulred_muhash_flavor_name(o->job.flavor));
    mulred_jw_uint(w, MULRED_RF_INSERTED, res->inserted);
    mulred_jw_uint(w, MULRED_RF_REMOVED, res->removed);
    mulred_jw_uint(w, MULRED_RF_ELEMENTS, res->inserted + res->removed);
    if (bytes > 0) mulred_jw_uint(w, MULRED_RF_INPUT_BYTES, (uint64_t)bytes);
    if (o->job.synthetic) {
        mulred_jw_uint(w, "synthetic", o->job.synthetic);
        mulred_jw_uint(w, MULRED_RF_SEED, o->job.seed);
    }
    if (res->have_snapshot) {
        char block[65];
        mulred_utxo_block_hash_hex(block, &res->snapshot_header);
        mulred_jw_uint(w, "coins", res->coins);
        mulred_jw_string(w, "base_block_hash", block);
        mulred_jw_string(w, "network", res->snapshot_header.network);
        mulred_jw_int(w, "format_version", res->snapshot_header.format_version);
        if (o->job.txoutset_hash) mulred_jw_string(w, "txoutset_hash", res->txoutset_hash);
    }
    if (o->job.checkpoint) {
        mulred_jw_uint(w, "resumed_units", res->resumed_units);
        mulred_jw_uint(w, "computed_units", res->computed_units);
        mulred_jw_double(w, "checkpoint_seconds", res->checkpoint_seconds);
    }
    mulred_jw_int(w, MULRED_RF_RANKS, res->ranks);
    mulred_jw_int(w, MULRED_RF_THREADS, res->threads);
    mulred_jw_int(w, MULRED_RF_NODES, res->nodes);
    mulred_jw_string(w, "schedule", mulred_schedule_name(res->schedule));
    mulred_jw_uint(w, "units", res->units);
    cli_jw_units_per_rank(w, res->units_per_rank, res->ranks);
    if (res->handout != MULRED_MPI_HANDOUT_NONE)
        mulred_jw_string(w, "handout", mulred_mpi_handout_name(res->handout));
    cli_jw_node_names(w, res->node_names);
    mulred_jw_double(w, MULRED_RF_SECONDS, total);
    mulred_jw_double(w, "elements_per_second", rate);
    mulred_jw_object_begin(w, MULRED_RF_PHASES);
    for (int p = 0; p < MULRED_MPI_MUHASH_PHASES; p++) {
        mulred_jw_object_begin(w, mulred_mpi_muhash_phase_name(p));
        mulred_jw_double(w, MULRED_RF_MIN, res->phases[p].min);
        mulred_jw_double(w, MULRED_RF_AVG, res->phases[p].avg);
        mulred_jw_double(w, MULRED_RF_MAX, res->phases[p].max);
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
    double total = res->phases[MULRED_MPI_MUHASH_PHASE_TOTAL].max;
    double rate = total > 0 ? (double)(res->inserted + res->removed) / total : 0;
    char t[32], r[48], h[32], m[32];
    mulred_format_seconds(t, sizeof t, total);
    mulred_format_rate(r, sizeof r, rate, "elements");
    mulred_format_seconds(h, sizeof h, res->phases[MULRED_MPI_MUHASH_PHASE_HASH].max);
    mulred_format_seconds(m, sizeof m, res->phases[MULRED_MPI_MUHASH_PHASE_MPI].max);
    fprintf(out, "muhash   %s\n", res->hex);
    fprintf(out, "flavor   %s\n", mulred_muhash_flavor_name(o->job.flavor));
    fprintf(out, "elements %llu inserted, %llu removed\n", (unsigned long long)res->inserted,
            (unsigned long long)res->removed);
    if (res->have_snapshot) {
        char block[65];
        mulred_utxo_block_hash_hex(block, &res->snapshot_header);
        fprintf(out, "snapshot %llu coins, base block %s, network %s, format %s\n",
                (unsigned long long)res->coins, block,
                res->snapshot_header.network[0] ? res->snapshot_header.network
                                                : "unknown (legacy file)",
                res->snapshot_header.format_version == 2 ? "v2" : "legacy");
        if (o->job.txoutset_hash) fprintf(out, "txoutset_hash %s\n", res->txoutset_hash);
    }
    if (o->job.checkpoint)
        fprintf(out, "checkpoint %llu units resumed, %llu computed (%s)\n",
                (unsigned long long)res->resumed_units, (unsigned long long)res->computed_units,
                o->job.checkpoint);
    int ranks = res->ranks, threads = res->threads, nodes = res->nodes;
    fprintf(out, "layout   %d rank%s x %d thread%s on %d node%s (kernel %s)\n", ranks,
            ranks == 1 ? "" : "s", threads, threads == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s",
            mulred_num3072_kernel_name());
    if (res->schedule == MULRED_SCHEDULE_DYNAMIC && res->units_per_rank) {
        fprintf(out, "schedule dynamic: units per rank");
        for (int k = 0; k < ranks; k++)
            fprintf(out, " %llu", (unsigned long long)res->units_per_rank[k]);
        fprintf(out, " of %llu\n", (unsigned long long)res->units);
    }
    fprintf(out, "time     %s (hash %s per thread, MPI reduce %s), %s\n", t, h, m, r);
}

static void muhash_describe(char *out, size_t cap, const void *vo)
{
    snprintf(out, cap, "flavor %s",
             mulred_muhash_flavor_name(((const muhash_opts *)vo)->job.flavor));
}

const cli_job_kind cli_kind_muhash = {
    .name = "muhash",
    .keys = muhash_keys,
    .nkeys = sizeof muhash_keys / sizeof muhash_keys[0],
    .dist = muhash_dist,
    .dist_before = "progress",
    .checkpoint_key = "checkpoint",
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

mulred_exit mulred_cmd_muhash(int argc, char **argv)
{
    return cli_run_kind(&cli_kind_muhash, argc, argv);
}

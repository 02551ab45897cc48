/* mulred muhash: the MuHash3072 of element files, synthetic UTXO sets and (bitcoin) UTXO
 * snapshots, on every rank of the MPI job with its OpenMP threads.
 *
 * Phases, each timed: open (ranks get their shares), read/generate + hash (threads), local
 * reduce (thread partials), MPI reduce (rank partials, custom op), finalize (rank 0: one
 * inversion and the digest). A failure on any rank is agreed on by all ranks before the next
 * collective, so a bad file ends every rank with the same exit status and nothing hangs. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "mulred/dist.h"
#include "mulred/muhash.h"
#include "mulred/sources.h"
#include "mulred/utxo.h"
#include "muhash/muhash_threads.h"
#include "util/json.h"
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
        "  --seed S            seed of the synthetic set (default 1)\n"
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
        "  --threads T         threads per rank (default: OMP_NUM_THREADS, else all cores)\n"
        "  --json              print one JSON object: muhash, flavor, inserted, removed,\n"
        "                      ranks, threads, nodes, per-phase times (min/avg/max over ranks;\n"
        "                      total runs from opening the inputs to the digest: process\n"
        "                      start, MPI_Init and libcrypto's initialization are outside)\n"
        "  --output FILE       write the result to FILE instead of standard output\n"
        "  --progress          show a progress bar on stderr (default: when a terminal)\n"
        "  --no-progress       never show it\n"
        "  -h, --help          this help\n"
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
    int threads;
    bool json;
    const char *output;
    int progress; /* 1 force, -1 never, 0 auto */
} muhash_opts;

static int parse_opts(muhash_opts *o, int argc, char **argv, bool *help)
{
    enum { OPT_INSERT = 256, OPT_REMOVE, OPT_SYNTH, OPT_SEED, OPT_FLAVOR, OPT_THREADS, OPT_JSON,
           OPT_OUTPUT, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_SNAPSHOT, OPT_TXOUTSET };
    static const struct option opts[] = {
        {"insert", required_argument, 0, OPT_INSERT},
        {"remove", required_argument, 0, OPT_REMOVE},
        {"synthetic", required_argument, 0, OPT_SYNTH},
        {"seed", required_argument, 0, OPT_SEED},
        {"flavor", required_argument, 0, OPT_FLAVOR},
        {"threads", required_argument, 0, OPT_THREADS},
        {"json", no_argument, 0, OPT_JSON},
        {"output", required_argument, 0, OPT_OUTPUT},
        {"progress", no_argument, 0, OPT_PROGRESS},
        {"no-progress", no_argument, 0, OPT_NO_PROGRESS},
        {"snapshot", required_argument, 0, OPT_SNAPSHOT},
        {"txoutset-hash", no_argument, 0, OPT_TXOUTSET},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->seed = 1;
    *help = false;
    cli_getopt_reset();
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': *help = true; return MULRED_OK;
        case OPT_INSERT:
        case OPT_REMOVE: {
            int *n = c == OPT_INSERT ? &o->ninsert : &o->nremove;
            if (*n == MAX_FILES) return cli_usage_error("muhash", "at most %d files per option", MAX_FILES);
            (c == OPT_INSERT ? o->insert : o->remove)[(*n)++] = optarg;
            break;
        }
        case OPT_SYNTH:
            if (mulred_parse_count(optarg, &o->synthetic))
                return cli_usage_error("muhash", "--synthetic: '%s' is not a count", optarg);
            o->has_synthetic = true;
            break;
        case OPT_SEED:
            if (mulred_parse_count(optarg, &o->seed))
                return cli_usage_error("muhash", "--seed: '%s' is not a non-negative integer", optarg);
            break;
        case OPT_FLAVOR:
            if (mulred_muhash_flavor_parse(&o->flavor, optarg))
                return cli_usage_error("muhash", "--flavor: '%s' is not bitcoin or kaspa", optarg);
            break;
        case OPT_THREADS:
            if (mulred_parse_count(optarg, &v) || v < 1 || v > 4096)
                return cli_usage_error("muhash", "--threads: '%s' is not a count in 1..4096", optarg);
            o->threads = (int)v;
            break;
        case OPT_SNAPSHOT:
            if (o->nsnapshot == MAX_FILES) return cli_usage_error("muhash", "at most %d snapshots", MAX_FILES);
            o->snapshot[o->nsnapshot++] = optarg;
            break;
        case OPT_TXOUTSET: o->txoutset_hash = true; break;
        case OPT_JSON: o->json = true; break;
        case OPT_OUTPUT: o->output = optarg; break;
        case OPT_PROGRESS: o->progress = 1; break;
        case OPT_NO_PROGRESS: o->progress = -1; break;
        default: return cli_bad_option("muhash", argc, argv);
        }
    }
    if (optind < argc) return cli_usage_error("muhash", "unexpected argument '%s'", argv[optind]);
    if (!o->ninsert && !o->nremove && !o->has_synthetic && !o->nsnapshot)
        return cli_usage_error("muhash", "no input: give --insert, --remove, --synthetic or --snapshot");
    if (o->nsnapshot && o->flavor != MULRED_MUHASH_BITCOIN)
        return cli_usage_error("muhash", "--snapshot needs --flavor bitcoin (snapshots are Bitcoin Core's)");
    if (o->txoutset_hash && o->nsnapshot != 1)
        return cli_usage_error("muhash", "--txoutset-hash needs exactly one --snapshot");
    return MULRED_OK;
}

/* Everything a rank holds open: its share of each input as a source. */
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

static int inputs_open(muhash_inputs *in, const muhash_opts *o, int rank, int nranks,
                       mulred_error *err)
{
    memset(in, 0, sizeof *in);
    for (int k = 0; k < 2; k++) {
        int n = k ? o->nremove : o->ninsert;
        for (int i = 0; i < n; i++) {
            mulred_element_file *f;
            const char *path = (k ? o->remove : o->insert)[i];
            if (mulred_element_file_open(&f, path, k == 1, rank, nranks, err)) return err->status;
            in->files[in->nfiles++] = f;
            in->sources[in->nsources++] = *mulred_element_file_source(f);
        }
    }
    for (int i = 0; i < o->nsnapshot; i++) {
        /* The index was made (or found) by rank 0 before this; see mulred_cmd_muhash. */
        mulred_utxo_source *src;
        if (mulred_utxo_source_open(&src, o->snapshot[i], rank, nranks, err)) return err->status;
        in->snapshots[in->nsnapshots++] = src;
        in->sources[in->nsources++] = *mulred_utxo_source_muhash(src);
    }
    if (o->has_synthetic) {
        in->synth.flavor = o->flavor;
        in->synth.seed = o->seed;
        mulred_split_range(&in->synth.first, &in->synth.count, o->synthetic, rank, nranks);
        mulred_synth_source(&in->sources[in->nsources++], &in->synth);
    }
    return MULRED_OK;
}

enum { PH_READ, PH_GENERATE, PH_HASH, PH_LOCAL, PH_MPI, PH_FINALIZE, PH_TOTAL, NPHASES };
static const char *phase_names[NPHASES] = {"read", "generate", "hash", "local_reduce",
                                           "mpi_reduce", "finalize", "total"};

/* What rank 0 knows of the snapshots: the header of the first, and the txoutset hash. */
typedef struct {
    bool have;
    mulred_utxo_header header;
    uint64_t coins; /* all snapshots */
    char txoutset_hash[65];
} snapshot_info;

static void print_result(FILE *out, const muhash_opts *o, const char *hex, uint64_t inserted,
                         uint64_t removed, int ranks, int threads, int nodes,
                         double phases[NPHASES][3], const snapshot_info *snap)
{
    char block[65] = "";
    if (snap->have) mulred_utxo_block_hash_hex(block, &snap->header);
    double total = phases[PH_TOTAL][2];
    double rate = total > 0 ? (double)(inserted + removed) / total : 0;
    if (o->json) {
        mulred_json_writer w;
        mulred_jw_init(&w, out);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "muhash", hex);
        mulred_jw_string(&w, "flavor", mulred_muhash_flavor_name(o->flavor));
        mulred_jw_uint(&w, "inserted", inserted);
        mulred_jw_uint(&w, "removed", removed);
        mulred_jw_uint(&w, "elements", inserted + removed);
        if (o->has_synthetic) {
            mulred_jw_uint(&w, "synthetic", o->synthetic);
            mulred_jw_uint(&w, "seed", o->seed);
        }
        if (snap->have) {
            mulred_jw_uint(&w, "coins", snap->coins);
            mulred_jw_string(&w, "base_block_hash", block);
            mulred_jw_string(&w, "network", snap->header.network);
            mulred_jw_int(&w, "format_version", snap->header.format_version);
            if (o->txoutset_hash) mulred_jw_string(&w, "txoutset_hash", snap->txoutset_hash);
        }
        mulred_jw_int(&w, "ranks", ranks);
        mulred_jw_int(&w, "threads", threads);
        mulred_jw_int(&w, "nodes", nodes);
        mulred_jw_double(&w, "seconds", total);
        mulred_jw_double(&w, "elements_per_second", rate);
        mulred_jw_object_begin(&w, "phases");
        for (int p = 0; p < NPHASES; p++) {
            mulred_jw_object_begin(&w, phase_names[p]);
            mulred_jw_double(&w, "min", phases[p][0]);
            mulred_jw_double(&w, "avg", phases[p][1]);
            mulred_jw_double(&w, "max", phases[p][2]);
            mulred_jw_object_end(&w);
        }
        mulred_jw_object_end(&w);
        mulred_jw_string(&w, "kernel", mulred_num3072_kernel_name());
        mulred_jw_string(&w, "version", mulred_version());
        mulred_jw_string(&w, "git_revision", mulred_git_revision());
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
        return;
    }
    char t[32], r[48], h[32], m[32];
    mulred_format_seconds(t, sizeof t, total);
    mulred_format_rate(r, sizeof r, rate, "elements");
    mulred_format_seconds(h, sizeof h, phases[PH_HASH][2]);
    mulred_format_seconds(m, sizeof m, phases[PH_MPI][2]);
    fprintf(out, "muhash   %s\n", hex);
    fprintf(out, "flavor   %s\n", mulred_muhash_flavor_name(o->flavor));
    fprintf(out, "elements %llu inserted, %llu removed\n", (unsigned long long)inserted,
            (unsigned long long)removed);
    if (snap->have) {
        fprintf(out, "snapshot %llu coins, base block %s, network %s, format %s\n",
                (unsigned long long)snap->coins, block,
                snap->header.network[0] ? snap->header.network : "unknown (legacy file)",
                snap->header.format_version == 2 ? "v2" : "legacy");
        if (o->txoutset_hash) fprintf(out, "txoutset_hash %s\n", snap->txoutset_hash);
    }
    fprintf(out, "layout   %d rank%s x %d thread%s on %d node%s (kernel %s)\n", ranks,
            ranks == 1 ? "" : "s", threads, threads == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s",
            mulred_num3072_kernel_name());
    fprintf(out, "time     %s (hash %s per thread, MPI reduce %s), %s\n", t, h, m, r);
}

int mulred_cmd_muhash(int argc, char **argv)
{
    muhash_opts o;
    bool help;
    int st = parse_opts(&o, argc, argv, &help);
    if (st) return st;
    if (help) {
        muhash_usage();
        return MULRED_OK;
    }
    int rank = mulred_dist_rank(), nranks = mulred_dist_size();
    mulred_error err;
    mulred_error_clear(&err);
    /* Process set-up stays outside the timed phases, like MPI_Init: the OpenMP team starts
     * and libcrypto loads its providers (≈ 3 ms on first use). */
    mulred_muhash_threads_start(o.threads);
    double t0 = mulred_wtime();

    /* Rank 0 makes sure each snapshot has a fresh index (one validating scan on first use)
     * before any rank plans its share from it. */
    if (rank == 0)
        for (int i = 0; i < o.nsnapshot && err.status == MULRED_OK; i++)
            mulred_utxo_index_ensure(o.snapshot[i], NULL, NULL, &err);
    if (mulred_dist_agree(&err)) return cli_report(&err);

    muhash_inputs in;
    inputs_open(&in, &o, rank, nranks, &err);
    if (mulred_dist_agree(&err)) {
        inputs_close(&in);
        return cli_report(&err);
    }

    cli_progress bar;
    snapshot_info snap = {0};
    if (in.nsnapshots) {
        snap.have = true;
        snap.header = *mulred_utxo_source_header(in.snapshots[0]);
        for (int i = 0; i < in.nsnapshots; i++)
            snap.coins += mulred_utxo_source_header(in.snapshots[i])->coins;
    }
    cli_progress_init(&bar, o.progress, o.has_synthetic ? o.synthetic / (uint64_t)nranks : 0,
                      "elements");
    mulred_muhash_reduce_opts ropts = {o.threads, cli_progress_update, &bar};
    mulred_muhash_state state;
    mulred_muhash_stats stats;
    mulred_muhash_reduce_ex(&state, o.flavor, in.sources, in.nsources, &ropts, &stats, &err);
    cli_progress_finish(&bar);
    inputs_close(&in);
    if (mulred_dist_agree(&err)) return cli_report(&err);

    double t1 = mulred_wtime();
    if (mulred_dist_reduce_muhash(&state, 0, &err) == MULRED_OK) mulred_error_clear(&err);
    double t2 = mulred_wtime();
    if (mulred_dist_agree(&err)) return cli_report(&err);

    char hex[65] = "";
    if (rank == 0) {
        uint8_t digest[32];
        mulred_muhash_finalize(digest, &state);
        mulred_muhash_display(hex, digest, o.flavor);
        if (o.txoutset_hash && mulred_utxo_txoutset_hash(digest, o.snapshot[0], &err) == MULRED_OK)
            mulred_hex_encode_reversed(snap.txoutset_hash, digest, 32);
    }
    if (mulred_dist_agree(&err)) return cli_report(&err);
    double t3 = mulred_wtime();

    double local[NPHASES] = {0};
    double per_thread = stats.threads > 0 ? 1.0 / stats.threads : 0;
    double produce = stats.produce_cpu * per_thread;
    local[o.ninsert || o.nremove || o.nsnapshot ? PH_READ : PH_GENERATE] = produce;
    local[PH_HASH] = stats.hash_cpu * per_thread;
    local[PH_LOCAL] = stats.combine_wall;
    local[PH_MPI] = t2 - t1;
    local[PH_FINALIZE] = t3 - t2;
    local[PH_TOTAL] = t3 - t0;
    double phases[NPHASES][3];
    for (int p = 0; p < NPHASES; p++) mulred_dist_minavgmax(local[p], phases[p]);
    uint64_t inserted = mulred_dist_sum_u64(stats.inserted);
    uint64_t removed = mulred_dist_sum_u64(stats.removed);
    int nodes = mulred_dist_node_count();

    if (rank == 0) {
        FILE *out = stdout;
        if (o.output && !(out = fopen(o.output, "w"))) {
            mulred_error_set(&err, MULRED_ERUNTIME, "%s: cannot write the result", o.output);
            return cli_report(&err);
        }
        print_result(out, &o, hex, inserted, removed, nranks, stats.threads, nodes, phases, &snap);
        if (out != stdout && fclose(out) != 0) {
            mulred_error_set(&err, MULRED_ERUNTIME, "%s: cannot write the result", o.output);
            return cli_report(&err);
        }
    }
    return MULRED_OK;
}

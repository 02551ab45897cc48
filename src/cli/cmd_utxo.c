/* mulred utxo index|info|synth: tools around Bitcoin Core `dumptxoutset` snapshots. The MuHash
 * of a snapshot is `mulred muhash --snapshot FILE` (parallel, MPI). These subcommands do not use
 * MPI: under mpirun only rank 0 works and prints. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "input/keys.h"
#include "mulred/mulred_mpi.h"
#include "mulred/utxo.h"
#include "output/json.h"
#include "util/util.h"

static void usage(void)
{
    mulred_out(
        "Usage: mulred utxo index FILE [--chunk-bytes N] [--index PATH] [--force] [--json]\n"
        "                        [--progress]\n"
        "       mulred utxo info FILE [--txoutset-hash] [--json]\n"
        "       mulred utxo synth N FILE [--seed S] [--legacy] [--progress]\n"
        "\n"
        "Bitcoin Core dumptxoutset snapshots (format v2 of Core >= 28, and legacy of Core <= 27).\n"
        "\n"
        "  index   Scan FILE once, validating it, and write its sidecar index (FILE.idx, or\n"
        "          $MULRED_UTXO_INDEX_DIR/NAME.idx, or --index PATH): the byte offset and coin\n"
        "          ordinal of the group starting each ~128 KiB chunk, with the file's size,\n"
        "          mtime and digests to detect staleness. 'mulred muhash --snapshot' uses it to\n"
        "          split the file across ranks and threads (and builds it when missing).\n"
        "  info    Header (format, network, base block hash, coin count), script-class\n"
        "          histogram, sizes, heights and amounts (one validating sequential scan).\n"
        "          --txoutset-hash also computes hash_serialized_3 (dumptxoutset's\n"
        "          txoutset_hash): a SEQUENTIAL double SHA-256 over every coin in file order.\n"
        "  synth   Write a synthetic v2 (or --legacy) snapshot of N coins (1e6, 2M accepted)\n"
        "          covering every script class, multi-coin groups, vouts > 252, heights > 127\n"
        "          and large scripts; deterministic for (N, --seed, format). FILE appears\n"
        "          only when complete (written as .FILE.tmp.* beside it, then renamed); a file\n"
        "          system without room for an upper bound of its size is refused (exit 3).\n"
        "\n"
        "Options:\n"
        "  --chunk-bytes N   target chunk size of a new index (default 131072)\n"
        "  --index PATH      index location (default FILE.idx; see above)\n"
        "  --force           rebuild the index even when a fresh one exists\n"
        "  --json            machine-readable output\n"
        "  --seed S          synth seed (default 1)\n"
        "  --legacy          synth: write the legacy (Core <= 27) format\n"
        "  --progress        index, synth: a progress bar on stderr\n"
        "\n"
        "Exit status: 0 success, 1 usage, 2 bad input (the message names the byte offset and\n"
        "the reason), 3 runtime failure.\n");
}

static mulred_exit cmd_index(const char *file, const mulred_utxo_options *opt_in, bool force,
                             bool json, bool progress)
{
    mulred_error err;
    mulred_error_clear(&err);
    mulred_utxo_index_info info;
    mulred_utxo_options opt = *opt_in;
    cli_progress bar;
    cli_progress_init(&bar, progress ? 1 : -1, 0, NULL);
    if (bar.enabled) opt.progress = cli_progress_update, opt.progress_data = &bar;
    double t0 = mulred_wtime();
    int rc = mulred_utxo_index_build(&info, file, &opt, force, &err);
    cli_progress_finish(&bar);
    if (rc) return mulred_out_error(&err);
    double secs = mulred_wtime() - t0;
    if (!info.loaded && !info.saved && !opt.no_save) {
        mulred_error_set(&err, MULRED_ERUNTIME,
                         "%s: cannot write the index (read-only "
                         "directory? set MULRED_UTXO_INDEX_DIR or --index)",
                         info.path);
        return mulred_out_error(&err);
    }
    if (json) {
        mulred_json_writer w;
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "index", info.path);
        mulred_jw_string(&w, "status", info.loaded ? "fresh" : "built");
        mulred_jw_uint(&w, "chunks", info.chunks);
        mulred_jw_uint(&w, "groups", info.groups);
        mulred_jw_uint(&w, "coins", info.coins);
        mulred_jw_uint(&w, "chunk_bytes", info.chunk_bytes);
        mulred_jw_double(&w, "seconds", secs);
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
    } else {
        char t[32];
        mulred_format_seconds(t, sizeof t, secs);
        mulred_out("index: %s (%s)\n", info.path, info.loaded ? "fresh, reused" : "built");
        mulred_out("chunks: %" PRIu64 " of ~%u bytes\ngroups: %" PRIu64 "\ncoins: %" PRIu64
                   "\ntime: %s\n",
                   info.chunks, info.chunk_bytes, info.groups, info.coins, t);
    }
    return MULRED_OK;
}

static mulred_exit cmd_info(const char *file, bool txoutset, bool json)
{
    mulred_error err;
    mulred_error_clear(&err);
    mulred_utxo_stats st;
    if (mulred_utxo_stats_scan(&st, file, &err)) return mulred_out_error(&err);
    char txhex[65] = "";
    if (txoutset) {
        uint8_t h[32];
        if (mulred_utxo_txoutset_hash(h, file, &err)) return mulred_out_error(&err);
        mulred_hex_encode_reversed(txhex, h, 32);
    }
    char block[65];
    mulred_utxo_block_hash_hex(block, &st.header);
    const char *fmt = st.header.format_version == 2 ? "v2" : "legacy";
    if (json) {
        mulred_json_writer w;
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "file", file);
        mulred_jw_int(&w, "format_version", st.header.format_version);
        mulred_jw_string(&w, "network", st.header.network);
        mulred_jw_string(&w, "base_block_hash", block);
        mulred_jw_uint(&w, "coins", st.coins);
        mulred_jw_uint(&w, "groups", st.groups);
        mulred_jw_uint(&w, "coinbase", st.coinbase);
        mulred_jw_uint(&w, "total_amount", st.total_amount);
        mulred_jw_uint(&w, "max_height", st.max_height);
        mulred_jw_uint(&w, "max_vout", st.max_vout);
        mulred_jw_uint(&w, "max_group", st.max_group);
        mulred_jw_uint(&w, "max_script", st.max_script);
        mulred_jw_uint(&w, "file_bytes", st.header.file_size);
        mulred_jw_uint(&w, "body_bytes", st.body_bytes);
        mulred_jw_uint(&w, "txoutser_bytes", st.txoutser_bytes);
        mulred_jw_object_begin(&w, "scripts");
        for (int k = 0; k < MULRED_UTXO_NCLASSES; k++)
            mulred_jw_uint(&w, mulred_utxo_script_class_name(k), st.class_count[k]);
        mulred_jw_object_end(&w);
        if (txoutset) mulred_jw_string(&w, "txoutset_hash", txhex);
        mulred_jw_double(&w, "scan_seconds", st.seconds);
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
        return MULRED_OK;
    }
    mulred_out("file: %s\n", file);
    mulred_out("format_version: %d (%s)\n", st.header.format_version, fmt);
    mulred_out("network: %s\n",
               st.header.network[0] ? st.header.network : "(legacy: not recorded)");
    mulred_out("base_block_hash: %s\n", block);
    mulred_out("coins: %" PRIu64 " in %" PRIu64 " txid groups (largest %" PRIu64 "), %" PRIu64
               " coinbase\n",
               st.coins, st.groups, st.max_group, st.coinbase);
    mulred_out("total_amount: %" PRIu64 ".%08" PRIu64 " BTC\n", st.total_amount / 100000000,
               st.total_amount % 100000000);
    mulred_out("max_height: %" PRIu64 "  max_vout: %" PRIu64 "  max_script: %" PRIu64 " bytes\n",
               st.max_height, st.max_vout, st.max_script);
    mulred_out("sizes: file %" PRIu64 " bytes, %.1f bytes/coin on disk, %.1f bytes/coin hashed "
               "(TxOutSer)\n",
               st.header.file_size, st.coins ? (double)st.body_bytes / (double)st.coins : 0.0,
               st.coins ? (double)st.txoutser_bytes / (double)st.coins : 0.0);
    mulred_out("scripts:\n");
    for (int k = 0; k < MULRED_UTXO_NCLASSES; k++) {
        if (!st.class_count[k]) continue;
        mulred_out("  %-18s %12" PRIu64 "  %6.2f%%  %8.1f bytes avg\n",
                   mulred_utxo_script_class_name(k), st.class_count[k],
                   100.0 * (double)st.class_count[k] / (double)st.coins,
                   (double)st.class_script_bytes[k] / (double)st.class_count[k]);
    }
    if (txoutset) mulred_out("txoutset_hash: %s (hash_serialized_3, sequential)\n", txhex);
    char t[32], rate[32];
    mulred_format_seconds(t, sizeof t, st.seconds);
    mulred_format_rate(rate, sizeof rate, st.seconds > 0 ? (double)st.coins / st.seconds : 0,
                       "coins");
    mulred_out("scan: %s (%s, decode only)\n", t, rate);
    return MULRED_OK;
}

static mulred_exit cmd_synth(const char *count, const char *file, uint64_t seed, bool legacy,
                             bool progress)
{
    uint64_t n;
    if (mulred_parse_count(count, &n))
        return mulred_out_usage_error("utxo", "bad coin count '%s'", count);
    mulred_error err;
    mulred_error_clear(&err);
    mulred_utxo_options opt = {0};
    cli_progress bar;
    cli_progress_init(&bar, progress ? 1 : -1, n, "coins");
    if (bar.enabled) opt.progress = cli_progress_update, opt.progress_data = &bar;
    double t0 = mulred_wtime();
    const int rc = mulred_utxo_synth_opt(file, n, seed, legacy, &opt, &err);
    cli_progress_finish(&bar);
    if (rc) return mulred_out_error(&err);
    char t[32];
    mulred_format_seconds(t, sizeof t, mulred_wtime() - t0);
    mulred_out("wrote %s: %" PRIu64 " coins, %s format, seed %" PRIu64 " (%s)\n", file, n,
               legacy ? "legacy" : "v2", seed, t);
    return MULRED_OK;
}

/* The options of every subcommand, one key table. */
typedef struct {
    mulred_utxo_options opt;
    bool force, json, legacy, txoutset, progress;
    uint64_t seed;
} utxo_opts;

MULRED_KEY_COUNT(set_chunk, utxo_opts, opt.chunk_bytes, 1, UINT64_C(1) << 30)
MULRED_KEY_TEXT(set_index, utxo_opts, opt.index_path)
MULRED_KEY_COUNT(set_seed, utxo_opts, seed, 0, UINT64_MAX)
MULRED_KEY_FLAG(set_force, utxo_opts, force)
MULRED_KEY_FLAG(set_json, utxo_opts, json)
MULRED_KEY_FLAG(set_legacy, utxo_opts, legacy)
MULRED_KEY_FLAG(set_txoutset, utxo_opts, txoutset)
MULRED_KEY_FLAG(set_progress, utxo_opts, progress)

static const mulred_key utxo_keys[] = {
    {"chunk-bytes", false, false, false, set_chunk},
    {"index", false, false, false, set_index},
    {"force", true, false, false, set_force},
    {"json", true, false, false, set_json},
    {"seed", false, false, false, set_seed},
    {"legacy", true, false, false, set_legacy},
    {"txoutset-hash", true, false, false, set_txoutset},
    {"progress", true, false, false, set_progress},
};

/* The keys each subcommand takes (a key of another subcommand is a usage error naming it, never
 * silently ignored). */
static const char *const utxo_sub_keys[][6] = {
    {"index", "chunk-bytes", "index", "force", "json", "progress"},
    {"info", "txoutset-hash", "json"},
    {"synth", "seed", "legacy", "progress"},
};
#define UTXO_NKEYS (sizeof utxo_keys / sizeof utxo_keys[0])

/* Parses argv again with the keys of subcommand sub alone: a usage error (reported) when it
 * holds a key of another subcommand; MULRED_OK otherwise (also for an unknown subcommand, which
 * utxo_run reports). */
static mulred_exit utxo_sub_check(const char *sub, int argc, char **argv)
{
    for (size_t s = 0; s < sizeof utxo_sub_keys / sizeof utxo_sub_keys[0]; s++) {
        if (strcmp(sub, utxo_sub_keys[s][0]) != 0) continue;
        mulred_key keys[UTXO_NKEYS];
        size_t n = 0;
        char takes[128] = "";
        for (size_t k = 1; k < 6 && utxo_sub_keys[s][k]; k++) {
            keys[n++] = *mulred_key_find(utxo_keys, UTXO_NKEYS, utxo_sub_keys[s][k]);
            snprintf(takes + strlen(takes), sizeof takes - strlen(takes), "%s--%s",
                     k > 1 ? ", " : "", utxo_sub_keys[s][k]);
        }
        utxo_opts scratch = {0};
        const mulred_key_table table = {keys, n, &scratch};
        mulred_key_parser p = {0};
        mulred_key_rest rest = {0};
        char why[256];
        const mulred_key_request req = {sub, &table, 1, 8, NULL};
        const mulred_exit st = mulred_key_argv(&req, argc, argv, &p, &rest, why, sizeof why);
        mulred_key_rest_free(&rest);
        mulred_key_parser_free(&p);
        if (st == MULRED_OK) return MULRED_OK;
        return mulred_out_usage_error("utxo", "%s (utxo %s takes %s)", why, sub, takes);
    }
    return MULRED_OK;
}

/* One subcommand: its name, its positional arguments and what runs it. */
static mulred_exit utxo_run(const char *sub, const char *const *args, size_t nargs,
                            const utxo_opts *o)
{
    /* Without MPI every launched process would do the same work: only rank 0 does it. */
    const bool root = mulred_mpi_env_rank() == 0;
    if (strcmp(sub, "index") == 0) {
        if (nargs != 1) return mulred_out_usage_error("utxo", "index takes one FILE");
        return root ? cmd_index(args[0], &o->opt, o->force, o->json, o->progress) : MULRED_OK;
    }
    if (strcmp(sub, "info") == 0) {
        if (nargs != 1) return mulred_out_usage_error("utxo", "info takes one FILE");
        return root ? cmd_info(args[0], o->txoutset, o->json) : MULRED_OK;
    }
    if (strcmp(sub, "synth") == 0) {
        if (nargs != 2) return mulred_out_usage_error("utxo", "synth takes N and FILE");
        return root ? cmd_synth(args[0], args[1], o->seed, o->legacy, o->progress) : MULRED_OK;
    }
    return mulred_out_usage_error("utxo", "unknown subcommand '%s' (index, info or synth)", sub);
}

mulred_exit mulred_cmd_utxo(int argc, char **argv)
{
    utxo_opts o = {.seed = 1};
    mulred_key_parser p = {0};
    mulred_key_rest rest;
    const mulred_key_table table = {utxo_keys, sizeof utxo_keys / sizeof utxo_keys[0], &o};
    const mulred_key_request req = {"utxo", &table, 1, 8, usage};
    mulred_exit rc;
    if (mulred_key_parse(&req, argc, argv, &p, &rest, &rc)) {
        if (rest.nargs < 1)
            rc = mulred_out_usage_error("utxo", "missing subcommand (index, info or synth)");
        else if ((rc = utxo_sub_check(rest.args[0], argc, argv)) == MULRED_OK)
            rc = utxo_run(rest.args[0], rest.args + 1, rest.nargs - 1, &o);
        mulred_key_rest_free(&rest);
    }
    mulred_key_parser_free(&p);
    return rc;
}

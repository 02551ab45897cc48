/* mulred kzg-commit: the EIP-4844 KZG commitment of a blob (the library part is mulred/kzg.h:
 * the setup, its cached fixed-base table, the blob reader, the commitment). Options go through
 * the shared parser of input/keys.h as a job kind that job files do not list: one process
 * computes one commitment (one fixed-base MSM of 4096 points), there is nothing to distribute.
 * Under a launcher every process computes it (the table cache is written by rename, so
 * concurrent writers are safe) and only rank 0 prints. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/kind.h"
#include "mulred/kzg.h"
#include "output/result_fields.h"
#include "util/util.h"

static void kzg_usage(void)
{
    mulred_out(
        "Usage: mulred kzg-commit --setup FILE --blob FILE [--cache FILE | --no-cache]\n"
        "                         [--json] [--output FILE]\n"
        "\n"
        "The KZG commitment of an EIP-4844 blob (c-kzg-4844's blob_to_kzg_commitment):\n"
        "sum of blob[i] * L[bitreverse(i)] over the setup's 4096 Lagrange points, printed as\n"
        "the 48-byte compressed G1 point in hex (no 0x, like every mulred result).\n"
        "\n"
        "  --setup FILE   c-kzg-4844's trusted_setup.txt (every Lagrange point is decoded\n"
        "                 and checked: flags, range, on the curve, in G1)\n"
        "  --blob FILE    131072 bytes as hex (0x optional, blanks and newlines around);\n"
        "                 '-' reads standard input. Every field element must be below r.\n"
        "  --cache FILE   where the setup's fixed-base table is kept (default: the user's\n"
        "                 cache, $XDG_CACHE_HOME/mulred or ~/.cache/mulred, a file named\n"
        "                 by the setup's digest); checked when loaded, rebuilt when stale;\n"
        "                 a cache that cannot be written is a warning\n"
        "  --no-cache     build the table in memory, write nothing\n"
        "  --json         one JSON object: result (the commitment), commitment (the\n"
        "                 same with 0x, until 0.4), seconds (the commitment alone),\n"
        "                 setup_seconds, cache (loaded, written, memory), cache_path,\n"
        "                 window, version, git_revision\n"
        "  --output FILE  write the result to FILE instead of standard output\n"
        "  -h, --help     this help\n"
        "\n"
        "Exit status: 0 success, 1 usage error, 2 bad input (a bad setup or blob: the file\n"
        "and line or byte offset named), 3 runtime failure.\n");
}

typedef struct {
    const char *setup, *blob, *cache;
    bool no_cache;
} kzg_opts;

static mulred_exit set_setup(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    const char *kept = mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((kzg_opts *)vo)->setup = kept;
    return MULRED_OK;
}

static mulred_exit set_blob(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    const char *kept = strcmp(v, "-") == 0 ? mulred_key_keep(p, v) : mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((kzg_opts *)vo)->blob = kept;
    return MULRED_OK;
}

static mulred_exit set_cache(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    const char *kept = mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((kzg_opts *)vo)->cache = kept;
    return MULRED_OK;
}

static mulred_exit set_no_cache(void *vo, const char *v, mulred_key_parser *p, char *why,
                                size_t cap)
{
    return mulred_key_parse_bool(&((kzg_opts *)vo)->no_cache, v, p, why, cap) ? MULRED_OUT_EUSAGE
                                                                              : MULRED_OK;
}

static const mulred_key kzg_keys[] = {
    {"setup", false, false, false, set_setup},
    {"blob", false, false, false, set_blob},
    {"cache", false, false, false, set_cache},
    {"no-cache", true, false, false, set_no_cache},
};

static void kzg_defaults(void *vo)
{
    memset(vo, 0, sizeof(kzg_opts));
}

static mulred_exit kzg_check(const void *vo, const char *dash, const char **fault, char *why,
                             size_t cap)
{
    const kzg_opts *o = vo;
    *fault = NULL;
    if (!o->setup || !o->blob) {
        snprintf(why, cap, "give %ssetup FILE and %sblob FILE", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->cache && o->no_cache) {
        *fault = "no-cache";
        snprintf(why, cap, "%scache and %sno-cache exclude each other", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    return MULRED_OK;
}

typedef struct {
    char hex[2 * MULRED_KZG_COMMITMENT_BYTES + 1];
    double seconds, setup_seconds;
    mulred_kzg_load_info info;
} kzg_result;

static mulred_status kzg_run(const void *vo, void *vr, mulred_error *err)
{
    const kzg_opts *o = vo;
    kzg_result *res = vr;
    memset(res, 0, sizeof *res);
    uint8_t *blob = malloc(MULRED_KZG_BLOB_BYTES);
    if (!blob) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    mulred_kzg_setup *setup = NULL;
    const double t0 = mulred_wtime();
    if (mulred_kzg_setup_load(&setup, o->setup, o->no_cache ? "" : o->cache, &res->info, err) ==
            MULRED_OK &&
        mulred_kzg_blob_read(blob, o->blob, err) == MULRED_OK) {
        if (!o->no_cache && res->info.cache == MULRED_KZG_CACHE_MEMORY && res->info.note[0]) {
            char note[4400];
            snprintf(note, sizeof note, "KZG table cache %s: %s", res->info.cache_path,
                     res->info.note);
            cli_warn_note(note, NULL); /* an unwritable cache costs time, never the result */
        }
        const double t1 = mulred_wtime();
        uint8_t commitment[MULRED_KZG_COMMITMENT_BYTES];
        mulred_error cerr;
        mulred_error_clear(&cerr);
        if (mulred_kzg_blob_to_commitment(commitment, setup, blob, &cerr) != MULRED_OK) {
            /* the library knows the bytes, not their file: name it */
            if (cerr.status == MULRED_EINPUT)
                mulred_error_set(err, cerr.status, "%s: %s", o->blob, cerr.message);
            else
                *err = cerr;
        } else {
            res->seconds = mulred_wtime() - t1;
            res->setup_seconds = t1 - t0;
            mulred_hex_encode(res->hex, commitment, sizeof commitment);
        }
    }
    mulred_kzg_setup_free(setup);
    free(blob);
    return err->status;
}

static const char *cache_state(mulred_kzg_cache_state s)
{
    return s == MULRED_KZG_CACHE_LOADED    ? "loaded"
           : s == MULRED_KZG_CACHE_WRITTEN ? "written"
                                           : "memory";
}

static void kzg_write_json(mulred_json_writer *w, const void *vo, const void *vr)
{
    (void)vo;
    const kzg_result *res = vr;
    mulred_jw_object_begin(w, NULL);
    mulred_jw_string(w, MULRED_RF_RESULT, res->hex);
    char prefixed[2 + sizeof res->hex]; /* the 0.2 form, kept for 0.3 */
    snprintf(prefixed, sizeof prefixed, "0x%s", res->hex);
    mulred_jw_string(w, "commitment", prefixed);
    mulred_jw_double(w, "seconds", res->seconds);
    mulred_jw_double(w, "setup_seconds", res->setup_seconds);
    mulred_jw_string(w, "cache", cache_state(res->info.cache));
    if (res->info.cache != MULRED_KZG_CACHE_MEMORY || res->info.note[0])
        mulred_jw_string(w, "cache_path", res->info.cache_path);
    if (res->info.note[0]) mulred_jw_string(w, "cache_note", res->info.note);
    mulred_jw_int(w, "window", (int)res->info.window_bits);
    mulred_jw_string(w, "version", mulred_version());
    mulred_jw_string(w, "git_revision", mulred_git_revision());
    mulred_jw_object_end(w);
}

static void kzg_write_text(FILE *out, const void *vo, const void *vr)
{
    (void)vo;
    fprintf(out, "%s\n", ((const kzg_result *)vr)->hex);
}

static void kzg_describe(char *out, size_t cap, const void *vo)
{
    snprintf(out, cap, "blob %s", ((const kzg_opts *)vo)->blob);
}

/* Not a job-file kind (one commitment is one fixed-base MSM of 4096 points): the command line
 * only. */
static const cli_job_kind kind_kzg_commit = {
    .name = "kzg-commit",
    .keys = kzg_keys,
    .nkeys = sizeof kzg_keys / sizeof kzg_keys[0],
    .opts_size = sizeof(kzg_opts),
    .result_size = sizeof(kzg_result),
    .defaults = kzg_defaults,
    .check = kzg_check,
    .run = kzg_run,
    .write_json = kzg_write_json,
    .write_text = kzg_write_text,
    .describe = kzg_describe,
    .usage = kzg_usage,
};

mulred_exit mulred_cmd_kzg_commit(int argc, char **argv)
{
    return cli_run_kind(&kind_kzg_commit, argc, argv);
}

/* The keys every distributed kind shares and the command-line driver of a kind (see kind.h):
 * `mulred KIND [options]` fills the kind's options struct through its key tables, as a job file
 * does (job.c), so both accept and reject the same values. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/kind.h"
#include "mulred/mulred_mpi.h"
#include "util/util.h"

/* ---- the distributed keys ---- */

static mulred_exit set_seed(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    uint64_t x;
    if (mulred_key_parse_uint(&x, v, UINT64_MAX, p, why, cap)) return MULRED_OUT_EUSAGE;
    *((cli_dist_opts *)o)->seed = x;
    return MULRED_OK;
}

static mulred_exit set_threads(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    uint64_t n;
    if (mulred_key_parse_count(&n, v, 1, 4096, p, why, cap)) return MULRED_OUT_EUSAGE;
    *((cli_dist_opts *)o)->threads = (int)n;
    return MULRED_OK;
}

static mulred_exit set_checkpoint(void *o, const char *v, mulred_key_parser *p, char *why,
                                  size_t cap)
{
    const char *kept = mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    *((cli_dist_opts *)o)->checkpoint = kept;
    return MULRED_OK;
}

static mulred_exit set_checkpoint_unit(void *o, const char *v, mulred_key_parser *p, char *why,
                                       size_t cap)
{
    uint64_t x;
    if (mulred_key_parse_count(&x, v, 1, UINT32_MAX, p, why, cap)) return MULRED_OUT_EUSAGE;
    *((cli_dist_opts *)o)->checkpoint_unit = x;
    return MULRED_OK;
}

static mulred_exit set_schedule(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    return cli_parse_schedule(((cli_dist_opts *)o)->schedule, v, p, why, cap);
}

static mulred_exit set_stall_timeout(void *o, const char *v, mulred_key_parser *p, char *why,
                                     size_t cap)
{
    return mulred_key_parse_seconds(((cli_dist_opts *)o)->stall_timeout, v,
                                    MULRED_MPI_STALL_TIMEOUT_MAX, p, why, cap)
               ? MULRED_OUT_EUSAGE
               : MULRED_OK;
}

const mulred_key cli_dist_keys[] = {
    /* name, flag, repeatable, command line only (true) or a choice, setter */
    {"seed", false, false, false, set_seed},
    {"threads", false, false, false, set_threads},
    {"checkpoint", false, false, false, set_checkpoint},
    {"checkpoint-unit", false, false, false, set_checkpoint_unit},
    {"schedule", false, false, MULRED_KEY_CHOICE, set_schedule},
    {"stall-timeout", false, false, false, set_stall_timeout},
};
const size_t cli_dist_nkeys = sizeof cli_dist_keys / sizeof cli_dist_keys[0];

/* ---- the keys of a kind ---- */

size_t cli_kind_nkeys(const cli_job_kind *kind)
{
    return kind->nkeys + (kind->dist ? cli_dist_nkeys : 0);
}

/* The number of the first distributed key of the kind. */
static size_t dist_at(const cli_job_kind *kind)
{
    const mulred_key *k =
        kind->dist_before ? mulred_key_find(kind->keys, kind->nkeys, kind->dist_before) : NULL;
    return k ? (size_t)(k - kind->keys) : kind->nkeys;
}

const mulred_key *cli_kind_key_at(const cli_job_kind *kind, size_t i)
{
    const size_t nd = kind->dist ? cli_dist_nkeys : 0, at = dist_at(kind);
    if (i < at) return &kind->keys[i];
    if (i < at + nd) return &cli_dist_keys[i - at];
    return i < kind->nkeys + nd ? &kind->keys[i - nd] : NULL;
}

const mulred_key *cli_kind_key(const cli_job_kind *kind, const char *name, size_t *index)
{
    const size_t nd = kind->dist ? cli_dist_nkeys : 0, at = dist_at(kind);
    const mulred_key *k = mulred_key_find(kind->keys, kind->nkeys, name);
    if (k) {
        const size_t i = (size_t)(k - kind->keys);
        *index = i < at ? i : i + nd;
        return k;
    }
    k = nd ? mulred_key_find(cli_dist_keys, cli_dist_nkeys, name) : NULL;
    if (k) *index = at + (size_t)(k - cli_dist_keys);
    return k;
}

mulred_exit cli_kind_apply(const cli_job_kind *kind, const mulred_key *key, void *opts,
                           const char *value, mulred_key_parser *p, const char *label, char *why,
                           size_t cap)
{
    cli_dist_opts fields;
    if (key >= cli_dist_keys && key < cli_dist_keys + cli_dist_nkeys) {
        MULRED_VERIFY(kind->dist != NULL);
        kind->dist(opts, &fields);
        opts = &fields;
    }
    return mulred_key_apply(key, opts, value, p, label, why, cap);
}

/* ---- output ---- */

MULRED_KEY_FLAG(set_json, cli_output_opts, json)

/* Relative to the current directory, like --output: a result goes where the job is run. */
static mulred_exit set_output(void *opts, const char *value, mulred_key_parser *p, char *why,
                              size_t cap)
{
    const char *kept = mulred_key_keep(p, value);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((cli_output_opts *)opts)->output = kept;
    return MULRED_OK;
}

const mulred_key cli_output_keys[] = {
    {"json", true, false, false, set_json},
    {"output", false, false, false, set_output},
};
const size_t cli_output_nkeys = sizeof cli_output_keys / sizeof cli_output_keys[0];

/* The result file being written: one at a time (a command writes one result). */
static mulred_whole_file output_file;

FILE *cli_output_open(const char *path, mulred_error *err)
{
    if (!path) return stdout;
    MULRED_ARG_CHECK_RETURN(!output_file.f, NULL);
    mulred_error werr;
    if (mulred_whole_open(&output_file, path, MULRED_WHOLE_IN_PLACE, &werr)) {
        mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write the result: %s", path,
                         strerror(errno));
        return NULL;
    }
    return output_file.f;
}

mulred_status cli_output_close(FILE *out, const char *path, mulred_error *err)
{
    if (out != stdout) {
        MULRED_ARG_CHECK(out == output_file.f);
        mulred_error werr;
        if (mulred_whole_commit(&output_file, &werr))
            return mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write the result", path);
        return MULRED_OK;
    }
    if (ferror(out) || fflush(out) != 0)
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write the result",
                                path ? path : "standard output");
    return MULRED_OK;
}

/* ---- the command line ---- */

mulred_exit cli_run_kind(const cli_job_kind *kind, int argc, char **argv)
{
    void *opts = calloc(1, kind->opts_size), *result = calloc(1, kind->result_size);
    mulred_error err; /* errors not yet printed; usage errors print at once */
    mulred_error_clear(&err);
    mulred_key_parser p = {0};
    cli_output_opts out = {0};
    int status = MULRED_OK;
    char why[512];
    if (!opts || !result) {
        status = mulred_error_set(&err, MULRED_ERUNTIME, "out of memory");
        goto done;
    }
    kind->defaults(opts);
    cli_dist_opts dist = {0};
    if (kind->dist) kind->dist(opts, &dist);
    const mulred_key_table tables[] = {{kind->keys, kind->nkeys, opts},
                                       {cli_output_keys, cli_output_nkeys, &out},
                                       {cli_dist_keys, kind->dist ? cli_dist_nkeys : 0, &dist}};
    const mulred_key_request req = {kind->name, tables, 3, 0, kind->usage};
    mulred_key_rest rest;
    if (!mulred_key_parse(&req, argc, argv, &p, &rest, &status)) goto done;
    mulred_key_rest_free(&rest);
    const char *fault = NULL;
    if (kind->check(opts, "--", &fault, why, sizeof why)) {
        status = mulred_out_usage_error(kind->name, "%s", why);
        goto done;
    }
    status = kind->run(opts, result, &err);
    if (status == MULRED_OK && cli_is_root()) {
        FILE *f = cli_output_open(out.output, &err);
        if (!f) {
            status = err.status;
            goto done;
        }
        if (out.json) {
            mulred_json_writer w;
            mulred_jw_init(&w, f);
            kind->write_json(&w, opts, result);
            mulred_jw_finish(&w);
        } else {
            kind->write_text(f, opts, result);
        }
        status = cli_output_close(f, out.output, &err);
    }
done:
    if (err.status != MULRED_OK) mulred_out_error(&err);
    mulred_key_parser_free(&p);
    free(opts), free(result);
    return status;
}

void cli_warn_note(const char *message, void *data)
{
    (void)data;
    fprintf(stderr, "mulred: warning: %s\n", message);
}

/* The kinds of job and the command-line driver of a kind (see job.h): `mulred KIND [options]`
 * fills the kind's options struct through its key table, as a job file does (job.c), so both
 * accept and reject the same values. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/job.h"
#include "mulred/mulred_mpi.h"
#include "util/util.h"

/* ---- the table of kinds ---- */

static const cli_job_kind *const job_kinds[] = {&cli_kind_muhash, &cli_kind_msm};
#define NKINDS (sizeof job_kinds / sizeof job_kinds[0])

const cli_job_kind *cli_job_kind_find(const char *name)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(job_kinds[i]->name, name) == 0) return job_kinds[i];
    return NULL;
}

const cli_job_kind *cli_job_kind_at(size_t i)
{
    return i < NKINDS ? job_kinds[i] : NULL;
}

const char *cli_job_kind_names(void)
{
    static char names[256];
    if (!names[0])
        for (size_t i = 0; i < NKINDS; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     job_kinds[i]->name);
    return names;
}

/* ---- output ---- */

MULRED_KEY_FLAG(set_json, cli_output_opts, json)

/* Relative to the current directory, like --output: a result goes where the job is run. */
static int set_output(void *opts, const char *value, mulred_key_parser *p, char *why, size_t cap)
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

int cli_output_close(FILE *out, const char *path, mulred_error *err)
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

int cli_run_kind(const cli_job_kind *kind, int argc, char **argv)
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
    const mulred_key_table tables[] = {{kind->keys, kind->nkeys, opts},
                                       {cli_output_keys, cli_output_nkeys, &out}};
    mulred_key_rest rest;
    if (!mulred_key_options(kind->name, tables, 2, argc, argv, 0, kind->usage, &p, &rest, &status))
        goto done;
    mulred_key_rest_free(&rest);
    const char *fault = NULL;
    if (kind->check(opts, "--", &fault, why, sizeof why)) {
        status = cli_usage_error(kind->name, "%s", why);
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
    if (err.status != MULRED_OK) cli_report(&err);
    mulred_key_parser_free(&p);
    free(opts), free(result);
    return status;
}

void cli_warn_note(const char *message, void *data)
{
    (void)data;
    fprintf(stderr, "mulred: warning: %s\n", message);
}

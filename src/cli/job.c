/* The command-line driver of a job kind and the job-file reader (see job.h). Both fill the
 * kind's options struct through its key table, so they accept and reject the same values. */
#include "cli/job.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
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

FILE *cli_output_open(const char *path, mulred_error *err)
{
    if (!path) return stdout;
    FILE *f = fopen(path, "w");
    if (!f)
        mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write the result: %s", path,
                         strerror(errno));
    return f;
}

int cli_output_close(FILE *out, const char *path, mulred_error *err)
{
    bool ok = !ferror(out);
    if (out != stdout)
        ok = fclose(out) == 0 && ok;
    else
        ok = fflush(out) == 0 && ok;
    if (!ok)
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

/* ---- job files ---- */

typedef struct {
    int line;
    char *key, *value; /* point into the file's text */
} job_entry;

static int job_error(mulred_error *err, const cli_job *job, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int job_error(mulred_error *err, const cli_job *job, int line, const char *fmt, ...)
{
    char reason[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return mulred_error_set(err, MULRED_EINPUT, "%s:%d: %s", job->path, line, reason);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) e--;
    *e = '\0';
    return s;
}

/* Splits the text into `key = value` entries (comments and blank lines dropped). */
static int job_lines(cli_job *job, char *text, job_entry **entries, size_t *n, int *last_line,
                     mulred_error *err)
{
    size_t cap = 0;
    int line = 0;
    *entries = NULL;
    *n = 0;
    for (char *next = text, *l; (l = next) != NULL;) {
        line++;
        char *nl = strchr(l, '\n');
        next = nl && nl[1] ? nl + 1 : NULL;
        if (nl) *nl = '\0';
        char *hash = strchr(l, '#');
        if (hash) *hash = '\0';
        char *s = trim(l);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) return job_error(err, job, line, "expected 'key = value', got '%s'", s);
        *eq = '\0';
        char *key = trim(s), *value = trim(eq + 1);
        if (!*key) return job_error(err, job, line, "missing key before '='");
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            job_entry *grown = realloc(*entries, cap * sizeof *grown);
            if (!grown) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
            *entries = grown;
        }
        (*entries)[(*n)++] = (job_entry){line, key, value};
    }
    *last_line = line;
    return MULRED_OK;
}

static void job_key_list(char *out, size_t cap, const cli_job_kind *kind)
{
    snprintf(out, cap, "kind");
    for (size_t i = 0; i < cli_output_nkeys; i++)
        snprintf(out + strlen(out), cap - strlen(out), ", %s", cli_output_keys[i].name);
    for (size_t i = 0; i < kind->nkeys; i++)
        if (!kind->keys[i].command_line_only)
            snprintf(out + strlen(out), cap - strlen(out), ", %s", kind->keys[i].name);
}

/* Reads the job file whole; a NUL byte is bad input, named by its line and byte. */
static int job_text(const char *path, char **text, mulred_error *err)
{
    size_t len = 0;
    if (mulred_read_file(path, text, &len, MULRED_JOB_MAX_BYTES, "a job file", err)) {
        if (err->status != MULRED_ERUNTIME) err->status = MULRED_EINPUT; /* unreadable job */
        return err->status;
    }
    if (strlen(*text) == len) return MULRED_OK;
    const size_t at = strlen(*text);
    int line = 1;
    for (size_t i = 0; i < at; i++) line += (*text)[i] == '\n';
    free(*text);
    *text = NULL;
    return mulred_error_set(err, MULRED_EINPUT, "%s:%d: byte %zu: a NUL byte (job files are text)",
                            path, line, at);
}

/* What reading a job's entries builds up. */
typedef struct {
    cli_job *job;
    const cli_job_kind *kind; /* NULL until a valid 'kind' line; k: kind, or muhash's keys */
    const cli_job_kind *k;
    void *base, *scratch; /* the options every run starts from; a copy to try axis items on */
    const char *axis_items[CLI_JOB_MAX_RUNS];
    int naxis, axis_line, kind_line;
    int *seen;          /* line where each single-valued key of the kind was set */
    int seen_output[8]; /* the same for the output keys */
    char why[512], label[80];
    mulred_error *err;
} job_parse;

/* The kind decides which keys exist, so it is read first. */
static int job_find_kind(job_parse *st, const job_entry *entries, size_t n)
{
    int status = MULRED_OK;
    for (size_t i = 0; status == MULRED_OK && i < n; i++) {
        if (strcmp(entries[i].key, "kind") != 0) continue;
        if (st->kind_line)
            status = job_error(st->err, st->job, entries[i].line, "'kind' already set on line %d",
                               st->kind_line);
        else if (!*entries[i].value)
            status = job_error(st->err, st->job, entries[i].line, "missing value for 'kind'");
        else if (!(st->kind = cli_job_kind_find(entries[i].value)))
            status = job_error(st->err, st->job, entries[i].line,
                               "unsupported kind '%s' (supported: %s)", entries[i].value,
                               cli_job_kind_names());
        st->kind_line = entries[i].line;
    }
    return status;
}

/* The axis key's list (curve = bls12-381, bn254): each item checked now on a copy of the
 * options, applied to its own run later. */
static int job_axis(job_parse *st, const mulred_key *key, const job_entry *e)
{
    int rc = MULRED_OK;
    st->axis_line = e->line;
    for (char *save = NULL, *item = strtok_r(e->value, ",", &save); item && !rc;
         item = strtok_r(NULL, ",", &save)) {
        item = trim(item);
        if (!*item) continue;
        for (int j = 0; j < st->naxis; j++)
            if (strcmp(st->axis_items[j], item) == 0) {
                snprintf(st->why, sizeof st->why, "%s '%s' listed twice", e->key, item);
                rc = CLI_EUSAGE;
            }
        if (!rc && st->naxis == CLI_JOB_MAX_RUNS) {
            snprintf(st->why, sizeof st->why, "more than %d values for '%s'", CLI_JOB_MAX_RUNS,
                     e->key);
            rc = CLI_EUSAGE;
        }
        if (!rc) {
            memcpy(st->scratch, st->base, st->k->opts_size);
            rc = mulred_key_apply(key, st->scratch, item, &st->job->parser, st->label, st->why,
                                  sizeof st->why);
        }
        if (!rc) st->axis_items[st->naxis++] = item;
    }
    if (!rc && st->naxis == 0) {
        snprintf(st->why, sizeof st->why, "missing value for '%s'", e->key);
        rc = CLI_EUSAGE;
    }
    return rc;
}

/* One `key = value` line other than kind: an output key or one of the kind's. */
static int job_entry_apply(job_parse *st, job_entry *e)
{
    const cli_job_kind *k = st->k;
    snprintf(st->label, sizeof st->label, "'%s'", e->key);
    const mulred_key *key = mulred_key_find(cli_output_keys, cli_output_nkeys, e->key);
    void *target = &st->job->out;
    int *seen_at = key ? &st->seen_output[key - cli_output_keys] : NULL;
    if (!key) {
        key = mulred_key_find(k->keys, k->nkeys, e->key);
        if (key && key->command_line_only) key = NULL;
        target = st->base;
        seen_at = key ? &st->seen[key - k->keys] : NULL;
    }
    if (!key) {
        char keys[512];
        job_key_list(keys, sizeof keys, k);
        return job_error(st->err, st->job, e->line, "unknown key '%s' (keys: %s)", e->key, keys);
    }
    if (!*e->value) return job_error(st->err, st->job, e->line, "missing value for '%s'", e->key);
    if (!key->repeatable && *seen_at)
        return job_error(st->err, st->job, e->line, "'%s' already set on line %d", e->key,
                         *seen_at);
    *seen_at = e->line;
    const int rc = k->axis && strcmp(e->key, k->axis) == 0
                       ? job_axis(st, key, e)
                       : mulred_key_apply(key, target, e->value, &st->job->parser, st->label,
                                          st->why, sizeof st->why);
    if (rc == CLI_EUSAGE) return job_error(st->err, st->job, e->line, "%s", st->why);
    return rc ? mulred_error_set(st->err, rc, "%s", st->why) : MULRED_OK;
}

/* One run per axis item (or one run): each checked as a whole, as the command line is, a
 * failure named on the line of the key at fault. */
static int job_runs(job_parse *st)
{
    const cli_job_kind *k = st->k;
    int status = MULRED_OK;
    for (int r = 0; status == MULRED_OK && r < (st->naxis ? st->naxis : 1); r++) {
        void *opts = malloc(k->opts_size);
        if (!opts) return mulred_error_set(st->err, MULRED_ERUNTIME, "out of memory");
        st->job->runs[st->job->nruns++] = opts;
        memcpy(opts, st->base, k->opts_size);
        int rc = MULRED_OK;
        if (st->naxis) {
            snprintf(st->label, sizeof st->label, "'%s'", k->axis);
            rc = mulred_key_apply(mulred_key_find(k->keys, k->nkeys, k->axis), opts,
                                  st->axis_items[r], &st->job->parser, st->label, st->why,
                                  sizeof st->why);
        }
        const char *fault = NULL;
        if (!rc) rc = k->check(opts, "", &fault, st->why, sizeof st->why);
        if (!rc) continue;
        int line = st->kind_line;
        const mulred_key *fk = fault ? mulred_key_find(k->keys, k->nkeys, fault) : NULL;
        if (fk && k->axis && strcmp(fault, k->axis) == 0 && st->axis_line)
            line = st->axis_line;
        else if (fk && st->seen[fk - k->keys])
            line = st->seen[fk - k->keys];
        if (rc == CLI_EUSAGE)
            status = job_error(st->err, st->job, line, "%s", st->why);
        else
            status = mulred_error_set(st->err, rc, "%s", st->why);
    }
    return status;
}

int cli_job_parse(cli_job *job, const char *path, mulred_error *err)
{
    memset(job, 0, sizeof *job);
    job->path = path;
    snprintf(job->dir, sizeof job->dir, "%s", path);
    char *slash = strrchr(job->dir, '/');
    if (slash)
        *(slash == job->dir ? slash + 1 : slash) = '\0';
    else
        strcpy(job->dir, ".");
    job->parser.base_dir = job->dir;

    char *text = NULL;
    int status = job_text(path, &text, err);
    if (status) return status;
    job_entry *entries = NULL;
    size_t n = 0;
    int last_line = 0;
    job_parse st = {.job = job, .err = err};
    status = job_lines(job, text, &entries, &n, &last_line, err);
    if (!status) status = job_find_kind(&st, entries, n);
    /* Without a kind the lines are still checked in order (as the first kind's) so that their
     * errors come first, then the missing kind is reported. */
    st.k = st.kind ? st.kind : cli_job_kind_find("muhash");
    if (!status) {
        st.base = calloc(1, st.k->opts_size);
        st.scratch = calloc(1, st.k->opts_size);
        st.seen = calloc(st.k->nkeys + 1, sizeof *st.seen);
        if (!st.base || !st.scratch || !st.seen)
            status = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        else
            st.k->defaults(st.base);
    }
    for (size_t i = 0; status == MULRED_OK && i < n; i++)
        if (strcmp(entries[i].key, "kind") != 0) status = job_entry_apply(&st, &entries[i]);
    if (status == MULRED_OK && !st.kind)
        status = job_error(err, job, last_line, "missing 'kind' (kind = %s)", cli_job_kind_names());
    if (status == MULRED_OK) status = job_runs(&st);
    MULRED_VERIFY(status != MULRED_OK ||
                  (job->nruns >= 1 && job->nruns == (st.naxis ? st.naxis : 1)));
    job->kind = st.kind;
    free(st.base), free(st.scratch), free(st.seen), free(entries), free(text);
    return status;
}

void cli_job_free(cli_job *job)
{
    for (int r = 0; r < job->nruns; r++) free(job->runs[r]);
    job->nruns = 0;
    mulred_key_parser_free(&job->parser);
}

void cli_warn_note(const char *message, void *data)
{
    (void)data;
    fprintf(stderr, "mulred: warning: %s\n", message);
}

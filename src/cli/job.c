/* The job-file reader (see job.h): a job fills its kind's options struct through the kind's key
 * table, as the command line does (kind.c), so both accept and reject the same values. */
#include "cli/job.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/util.h"

/* ---- kinds ---- */

const cli_job_kind *cli_job_kind_find(const cli_job_kinds *kinds, const char *name)
{
    for (size_t i = 0; i < kinds->n; i++)
        if (strcmp(kinds->kinds[i]->name, name) == 0) return kinds->kinds[i];
    return NULL;
}

void cli_job_kind_names(char *out, size_t cap, const cli_job_kinds *kinds)
{
    out[0] = '\0';
    for (size_t i = 0; i < kinds->n; i++)
        snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? ", " : "",
                 kinds->kinds[i]->name);
}

/* ---- job files ---- */

typedef struct {
    int line;
    char *key, *value; /* point into the file's text */
} job_entry;

static mulred_status job_error(mulred_error *err, const cli_job *job, int line, const char *fmt,
                               ...) __attribute__((format(printf, 4, 5)));
static mulred_status job_error(mulred_error *err, const cli_job *job, int line, const char *fmt,
                               ...)
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
static mulred_status job_lines(cli_job *job, char *text, job_entry **entries, size_t *n,
                               int *last_line, mulred_error *err)
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
    const mulred_key *k;
    for (size_t i = 0; (k = cli_kind_key_at(kind, i)) != NULL; i++)
        if (k->use != MULRED_KEY_COMMAND_LINE)
            snprintf(out + strlen(out), cap - strlen(out), ", %s", k->name);
}

/* Reads the job file whole; a NUL byte is bad input, named by its line and byte. */
static mulred_status job_text(const char *path, char **text, mulred_error *err)
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
    const cli_job_kinds *kinds;
    const cli_job_kind *kind; /* NULL until a valid 'kind' line; k: kind, or the first kind's */
    const cli_job_kind *k;
    void *base; /* the options every run starts from */
    int kind_line;
    int stdin_line;         /* a line whose value is "-" (standard input), else 0 */
    const char *checkpoint; /* the checkpoint key's value as written, without a trailing '/' */
    int *seen;              /* line where each single-valued key of the kind was set */
    int seen_output[8];     /* the same for the output keys */
    char why[512], label[80];
    mulred_error *err;
} job_parse;

/* The kind decides which keys exist, so it is read first. */
static mulred_status job_find_kind(job_parse *st, const job_entry *entries, size_t n)
{
    mulred_status status = MULRED_OK;
    char names[256];
    cli_job_kind_names(names, sizeof names, st->kinds);
    for (size_t i = 0; status == MULRED_OK && i < n; i++) {
        if (strcmp(entries[i].key, "kind") != 0) continue;
        if (st->kind_line)
            status = job_error(st->err, st->job, entries[i].line, "'kind' already set on line %d",
                               st->kind_line);
        else if (!*entries[i].value)
            status = job_error(st->err, st->job, entries[i].line, "missing value for 'kind'");
        else if (!(st->kind = cli_job_kind_find(st->kinds, entries[i].value)))
            status = job_error(st->err, st->job, entries[i].line,
                               "unsupported kind '%s' (supported: %s)", entries[i].value, names);
        st->kind_line = entries[i].line;
    }
    return status;
}

/* A choice key's list (curve = bls12-381, bn254): each item checked now, on a copy of the
 * options (an item that sets the same options as an earlier one is that one again: a synonym),
 * applied to its runs later. */
static mulred_exit job_list(job_parse *st, const mulred_key *key, const job_entry *e)
{
    cli_job *job = st->job;
    const size_t size = st->k->opts_size;
    cli_job_list *l = &job->lists[job->nlists++];
    *l = (cli_job_list){.key = key->name, .line = e->line};
    int n = 1, runs = 1;
    for (const char *c = e->value; *c; c++) n += *c == ',';
    for (int i = 0; i < job->nlists - 1; i++) runs *= job->lists[i].nitems;
    if ((long long)runs * n > CLI_JOB_MAX_RUNS)
        return snprintf(st->why, sizeof st->why,
                        "%lld runs (the product of the lists' lengths): more than a job may hold "
                        "(%d)",
                        (long long)runs * n, CLI_JOB_MAX_RUNS),
               MULRED_OUT_EUSAGE;
    l->items = calloc((size_t)n, sizeof *l->items);
    unsigned char *tried = malloc((size_t)n * size);
    int rc = l->items && tried ? MULRED_OK : MULRED_ERUNTIME;
    if (rc) snprintf(st->why, sizeof st->why, "out of memory");
    for (char *item = e->value, *next; !rc && item; item = next) {
        char *comma = strchr(item, ',');
        next = comma ? comma + 1 : NULL;
        if (comma) *comma = '\0';
        item = trim(item);
        unsigned char *opts = tried + (size_t)l->nitems * size;
        memcpy(opts, st->base, size);
        if (!*item) {
            snprintf(st->why, sizeof st->why, "an empty value in the list of '%s'", e->key);
            rc = MULRED_OUT_EUSAGE;
        } else {
            rc = cli_kind_apply(st->k, key, opts, item, &job->parser, st->label, st->why,
                                sizeof st->why);
        }
        for (int j = 0; !rc && j < l->nitems; j++) {
            if (memcmp(tried + (size_t)j * size, opts, size) != 0) continue;
            if (strcmp(l->items[j], item) == 0)
                snprintf(st->why, sizeof st->why, "%s '%s' listed twice", e->key, item);
            else
                snprintf(st->why, sizeof st->why, "%s '%s' listed twice (as '%s')", e->key, item,
                         l->items[j]);
            rc = MULRED_OUT_EUSAGE;
        }
        if (!rc && !(l->items[l->nitems++] = mulred_key_keep(&job->parser, item))) {
            snprintf(st->why, sizeof st->why, "out of memory");
            rc = MULRED_ERUNTIME;
        }
    }
    free(tried);
    return rc;
}

/* "curve, group, schedule" (the kind's choice keys, for messages). */
static void job_choice_keys(char *out, size_t cap, const cli_job_kind *kind)
{
    out[0] = '\0';
    const mulred_key *k;
    for (size_t i = 0; (k = cli_kind_key_at(kind, i)) != NULL; i++)
        if (k->use == MULRED_KEY_CHOICE)
            snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? ", " : "", k->name);
}

/* One `key = value` line other than kind: an output key or one of the kind's; a choice key's
 * list is kept for job_runs. */
static mulred_status job_entry_apply(job_parse *st, job_entry *e)
{
    const cli_job_kind *k = st->k;
    snprintf(st->label, sizeof st->label, "'%s'", e->key);
    const mulred_key *key = mulred_key_find(cli_output_keys, cli_output_nkeys, e->key);
    void *target = &st->job->out;
    int *seen_at = key ? &st->seen_output[key - cli_output_keys] : NULL;
    if (!key) {
        size_t index;
        key = cli_kind_key(k, e->key, &index);
        if (key && key->use == MULRED_KEY_COMMAND_LINE) key = NULL;
        target = st->base;
        seen_at = key ? &st->seen[index] : NULL;
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
    if (strcmp(e->value, "-") == 0) st->stdin_line = e->line;
    const bool list = key->use == MULRED_KEY_CHOICE && strchr(e->value, ',');
    if (target == st->base && k->checkpoint_key && strcmp(key->name, k->checkpoint_key) == 0) {
        st->checkpoint = e->value; /* DIR/ and DIR alike: a run's subdirectory goes after it */
        for (size_t n = strlen(e->value); n > 1 && e->value[n - 1] == '/'; n--)
            e->value[n - 1] = '\0';
    }
    const int rc = list                 ? job_list(st, key, e)
                   : target == st->base ? cli_kind_apply(k, key, target, e->value, &st->job->parser,
                                                         st->label, st->why, sizeof st->why)
                                        : mulred_key_apply(key, target, e->value, &st->job->parser,
                                                           st->label, st->why, sizeof st->why);
    if (rc == MULRED_OUT_EUSAGE && key->use != MULRED_KEY_CHOICE && strchr(e->value, ',')) {
        char choices[256];
        job_choice_keys(choices, sizeof choices, k);
        return job_error(st->err, st->job, e->line, "%s; a list of values is for %s only", st->why,
                         choices);
    }
    if (rc == MULRED_OUT_EUSAGE) return job_error(st->err, st->job, e->line, "%s", st->why);
    return rc ? mulred_error_set(st->err, rc, "%s", st->why) : MULRED_OK;
}

const char *cli_job_value(const cli_job *job, int run, int list)
{
    int stride = 1;
    for (int l = list + 1; l < job->nlists; l++) stride *= job->lists[l].nitems;
    const cli_job_list *l = &job->lists[list];
    return l->items[run / stride % l->nitems];
}

void cli_job_run_name(char *out, size_t cap, const cli_job *job, int run, const char *eq,
                      const char *sep)
{
    out[0] = '\0';
    for (int l = 0; l < job->nlists; l++)
        snprintf(out + strlen(out), cap - strlen(out), "%s%s%s%s", l ? sep : "", job->lists[l].key,
                 eq, cli_job_value(job, run, l));
}

/* Run r's own values: the item of each list, and with a checkpoint its subdirectory. */
static mulred_exit job_run_values(job_parse *st, void *opts, int r)
{
    const cli_job *job = st->job;
    const cli_job_kind *k = st->k;
    int rc = MULRED_OK;
    size_t index;
    for (int l = 0; rc == MULRED_OK && l < job->nlists; l++) {
        snprintf(st->label, sizeof st->label, "'%s'", job->lists[l].key);
        rc = cli_kind_apply(k, cli_kind_key(k, job->lists[l].key, &index), opts,
                            cli_job_value(job, r, l), &st->job->parser, st->label, st->why,
                            sizeof st->why);
    }
    if (rc != MULRED_OK || !job->checkpoint) return rc;
    char dir[4096 + 512];
    const size_t n = strlen(st->checkpoint);
    snprintf(dir, sizeof dir, "%s%s", st->checkpoint, st->checkpoint[n - 1] == '/' ? "" : "/");
    cli_job_run_name(dir + strlen(dir), sizeof dir - strlen(dir), job, r, "=", ",");
    snprintf(st->label, sizeof st->label, "'%s'", k->checkpoint_key);
    return cli_kind_apply(k, cli_kind_key(k, k->checkpoint_key, &index), opts, dir,
                          &st->job->parser, st->label, st->why, sizeof st->why);
}

/* One run per combination of the lists' items (one run without lists): each checked as a
 * whole, as the command line is, a failure named on the line of the key at fault. */
static mulred_status job_runs(job_parse *st)
{
    cli_job *job = st->job;
    const cli_job_kind *k = st->k;
    int n = 1;
    for (int l = 0; l < job->nlists; l++) n *= job->lists[l].nitems;
    if (n > 1 && st->stdin_line)
        return job_error(st->err, job, st->stdin_line,
                         "'-' (standard input) can be read once; the lists make %d runs", n);
    if (!(job->runs = calloc((size_t)n, sizeof *job->runs)) ||
        (job->nlists && st->checkpoint &&
         !(job->checkpoint = mulred_key_path(&job->parser, st->checkpoint))))
        return mulred_error_set(st->err, MULRED_ERUNTIME, "out of memory");
    int status = MULRED_OK;
    for (int r = 0; status == MULRED_OK && r < n; r++) {
        void *opts = malloc(k->opts_size);
        if (!opts) return mulred_error_set(st->err, MULRED_ERUNTIME, "out of memory");
        job->runs[job->nruns++] = opts;
        memcpy(opts, st->base, k->opts_size);
        int rc = job_run_values(st, opts, r);
        const char *fault = NULL;
        if (!rc) rc = k->check(opts, "", &fault, st->why, sizeof st->why);
        if (!rc) continue;
        int line = st->kind_line;
        size_t index;
        if (fault && cli_kind_key(k, fault, &index) && st->seen[index]) line = st->seen[index];
        if (rc == MULRED_OUT_EUSAGE)
            status = job_error(st->err, job, line, "%s", st->why);
        else
            status = mulred_error_set(st->err, rc, "%s", st->why);
    }
    return status;
}

mulred_status cli_job_parse(cli_job *job, const char *path, const cli_job_kinds *kinds,
                            mulred_error *err)
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
    job_parse st = {.job = job, .kinds = kinds, .err = err};
    status = job_lines(job, text, &entries, &n, &last_line, err);
    if (!status) status = job_find_kind(&st, entries, n);
    /* Without a kind the lines are still checked in order (as the first kind's) so that their
     * errors come first, then the missing kind is reported. */
    st.k = st.kind ? st.kind : kinds->kinds[0];
    if (!status) {
        st.base = calloc(1, st.k->opts_size);
        st.seen = calloc(cli_kind_nkeys(st.k) + 1, sizeof *st.seen);
        job->lists = calloc(cli_kind_nkeys(st.k) + 1, sizeof *job->lists);
        if (!st.base || !st.seen || !job->lists)
            status = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        else
            st.k->defaults(st.base);
    }
    for (size_t i = 0; status == MULRED_OK && i < n; i++)
        if (strcmp(entries[i].key, "kind") != 0) status = job_entry_apply(&st, &entries[i]);
    if (status == MULRED_OK && !st.kind) {
        char names[256];
        cli_job_kind_names(names, sizeof names, kinds);
        status = job_error(err, job, last_line, "missing 'kind' (kind = %s)", names);
    }
    if (status == MULRED_OK) status = job_runs(&st);
    MULRED_VERIFY(status != MULRED_OK || job->nruns >= 1);
    job->kind = st.kind;
    free(st.base), free(st.seen), free(entries), free(text);
    return status;
}

void cli_job_free(cli_job *job)
{
    for (int r = 0; r < job->nruns; r++) free(job->runs[r]);
    free(job->runs);
    job->runs = NULL;
    job->nruns = 0;
    for (int l = 0; l < job->nlists; l++) free(job->lists[l].items);
    free(job->lists);
    job->lists = NULL;
    job->nlists = 0;
    mulred_key_parser_free(&job->parser);
}

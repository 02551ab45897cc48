/* mulred report: turns result JSON files into a strong-scaling table (Markdown on stdout, CSV)
 * and a gnuplot PNG; with --project, a model of the curve up to 1024 nodes.
 *
 * Inputs are what `mulred run --json` writes ({job, status, environment, runs: […]}, also the
 * placeholders slurm/scaling.sh writes before a job starts), bare `mulred muhash --json` and
 * `mulred msm --json` objects, or arrays of either, read with jansson. A file that is missing,
 * failed, still pending or of the wrong shape becomes a row saying so: a sweep with a hole must
 * show the hole. A file that is not JSON at all (RFC 8259 as jansson reads it: no leading zeros, no
 * "1.", no lone surrogates, no raw control characters, no duplicate keys) is bad input: the report
 * stops with exit status 2 naming the file, line and column, and prints nothing.
 *
 * Rows are grouped by workload (muhash: flavor, elements inserted and removed; msm: curve, points
 * and input). In each group the baseline is the smallest successful configuration (fewest cores
 * = ranks × threads, then fewest nodes); speedup, efficiency and the Karp–Flatt fraction are
 * relative to it. The result of every row (MuHash digest, MSM point) is compared with the
 * baseline's: it must not depend on P or T. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r, mkstemp, fdopen */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/report_math.h"
#include "mulred/msm_grid.h"
#include "util/util.h"

typedef struct {
    char source[256];          /* file the row came from */
    char job[256];             /* job file, when known */
    char workload[300];        /* group key; for failures the job (or source) */
    char status[600];          /* "ok", "failed (exit 3)", "missing", "pending", "invalid: …" */
    char result[260];          /* the MuHash digest or the MSM point, hex */
    bool msm;                  /* a `mulred msm` run: points, not elements */
    int nodes, ranks, threads; /* 0 = unknown */
    double seconds, elements;
    /* msm runs: what --project calibrates its model with */
    char curve[16];
    int window, slices, groups, glv;
    double model_msm, msm_max, input_max, validate_max, reduce_min;
    double mpi_reduce_min, finalize_max;
    double busy;                 /* slowest rank's per-thread CPU seconds in read+generate+hash */
    double load_start, load_end; /* host 1-minute load average around the job, NAN if unknown */
    bool ok;
} report_row;

typedef struct {
    report_row *rows;
    size_t n, cap;
} report_rows;

static report_row *rows_add(report_rows *rs)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? 2 * rs->cap : 16;
        report_row *r = realloc(rs->rows, cap * sizeof *r);
        if (!r) {
            fprintf(stderr, "mulred report: out of memory\n");
            exit(MULRED_ERUNTIME);
        }
        rs->rows = r, rs->cap = cap;
    }
    report_row *row = &rs->rows[rs->n++];
    memset(row, 0, sizeof *row);
    row->seconds = row->elements = row->mpi_reduce_min = row->finalize_max = NAN;
    row->load_start = row->load_end = row->busy = NAN;
    return row;
}

/* A member's string (NULL unless a string) or number (fallback unless a number); NULL objects
 * and non-objects have no members. */
static const char *jstr(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

static double jnum(const json_t *obj, const char *key, double fallback)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}

/* A count that fits an int, else 0 (unknown). */
static int jint(const json_t *obj, const char *key)
{
    double v = jnum(obj, key, 0);
    return v >= 0 && v <= 1 << 30 ? (int)v : 0;
}

static int env_int(const json_t *env, const char *key)
{
    const char *s = jstr(env, key);
    return s ? atoi(s) : 0;
}

static double phase(const json_t *run, const char *name, const char *stat)
{
    return jnum(json_object_get(json_object_get(run, "phases"), name), stat, NAN);
}

/* One `mulred msm --json` object. Time is `seconds`: the MSM alone (tiles and reduce). */
static void add_msm_run(report_rows *rs, const json_t *run, const char *source, const char *job)
{
    report_row *row = rows_add(rs);
    snprintf(row->source, sizeof row->source, "%s", source);
    snprintf(row->job, sizeof row->job, "%s", job ? job : "");
    row->msm = true;
    const char *curve = jstr(run, "curve"), *result = jstr(run, "result"),
               *input = jstr(run, "input");
    const json_t *grid = json_object_get(run, "grid");
    row->elements = jnum(run, "points", NAN);
    row->nodes = jint(run, "nodes");
    row->ranks = jint(run, "ranks");
    row->threads = jint(run, "threads");
    row->seconds = jnum(run, "seconds", NAN);
    row->mpi_reduce_min = row->reduce_min = phase(run, "reduce", "min");
    row->msm_max = phase(run, "msm", "max");
    double rd = phase(run, "read", "max"), gen = phase(run, "generate", "max");
    row->input_max = (isnan(rd) ? 0 : rd) + (isnan(gen) ? 0 : gen);
    row->validate_max = phase(run, "validate", "max");
    row->window = jint(run, "window");
    row->glv = json_is_true(json_object_get(run, "glv"));
    row->slices = jint(grid, "slices");
    row->groups = jint(grid, "groups");
    row->model_msm = jnum(grid, "model_msm_seconds", NAN);
    snprintf(row->curve, sizeof row->curve, "%s", curve ? curve : "");
    snprintf(row->result, sizeof row->result, "%s", result ? result : "");
    if (input)
        snprintf(row->workload, sizeof row->workload, "msm %s, %.0f points, file %s",
                 curve ? curve : "?", row->elements, input);
    else
        snprintf(row->workload, sizeof row->workload, "msm %s, %.0f points, synthetic seed %.0f",
                 curve ? curve : "?", row->elements, jnum(run, "seed", NAN));
    row->ok = result && curve && row->ranks > 0 && row->threads > 0 && row->seconds > 0;
    snprintf(row->status, sizeof row->status, "%s", row->ok ? "ok" : "invalid: incomplete result");
}

/* One `mulred muhash --json` object. */
static void add_run(report_rows *rs, const json_t *run, const char *source, const char *job)
{
    if (json_object_get(run, "curve") && json_object_get(run, "result")) {
        add_msm_run(rs, run, source, job);
        return;
    }
    report_row *row = rows_add(rs);
    snprintf(row->source, sizeof row->source, "%s", source);
    snprintf(row->job, sizeof row->job, "%s", job ? job : "");
    const char *flavor = jstr(run, "flavor");
    const char *hash = jstr(run, "muhash");
    double ins = jnum(run, "inserted", NAN);
    double rem = jnum(run, "removed", NAN);
    row->elements = jnum(run, "elements", NAN);
    row->nodes = jint(run, "nodes");
    row->ranks = jint(run, "ranks");
    row->threads = jint(run, "threads");
    row->seconds = jnum(run, "seconds", NAN);
    row->mpi_reduce_min = phase(run, "mpi_reduce", "min");
    row->finalize_max = phase(run, "finalize", "max");
    double rd = phase(run, "read", "max"), gen = phase(run, "generate", "max");
    row->busy = phase(run, "hash", "max") + (isnan(rd) ? 0 : rd) + (isnan(gen) ? 0 : gen);
    snprintf(row->result, sizeof row->result, "%s", hash ? hash : "");
    snprintf(row->workload, sizeof row->workload, "muhash %s, %.0f inserted, %.0f removed",
             flavor ? flavor : "?", ins, rem);
    row->ok = hash && flavor && row->ranks > 0 && row->threads > 0 && row->seconds > 0;
    snprintf(row->status, sizeof row->status, "%s", row->ok ? "ok" : "invalid: incomplete result");
}

static void add_problem(report_rows *rs, const char *source, const char *job, const char *status,
                        const json_t *env)
{
    report_row *row = rows_add(rs);
    snprintf(row->source, sizeof row->source, "%s", source);
    snprintf(row->job, sizeof row->job, "%s", job ? job : "");
    snprintf(row->status, sizeof row->status, "%s", status);
    if (env) {
        row->nodes = env_int(env, "SLURM_JOB_NUM_NODES");
        row->ranks = env_int(env, "SLURM_NTASKS");
        row->threads = env_int(env, "SLURM_CPUS_PER_TASK");
        if (!row->threads && row->ranks) row->threads = 1; /* Slurm's default */
    }
}

static void add_document(report_rows *rs, const json_t *v, const char *source, int depth)
{
    if (json_is_array(v) && depth == 0) {
        for (size_t i = 0; i < json_array_size(v); i++)
            add_document(rs, json_array_get(v, i), source, 1);
        return;
    }
    if (!json_is_object(v)) {
        add_problem(rs, source, NULL, "invalid: not a result object", NULL);
        return;
    }
    const json_t *runs = json_object_get(v, "runs");
    if (!runs) {
        if (json_object_get(v, "muhash") || json_object_get(v, "curve"))
            add_run(rs, v, source, NULL);
        else
            add_problem(rs, source, NULL, "invalid: neither a run nor a job result", NULL);
        return;
    }
    const char *job = jstr(v, "job");
    const char *status = jstr(v, "status");
    const json_t *env = json_object_get(v, "environment");
    const json_t *load = json_object_get(v, "load_average");
    for (size_t i = 0; i < json_array_size(runs); i++) /* 0 unless an array */
        if (json_is_object(json_array_get(runs, i))) {
            add_run(rs, json_array_get(runs, i), source, job);
            rs->rows[rs->n - 1].load_start = jnum(load, "start", NAN);
            rs->rows[rs->n - 1].load_end = jnum(load, "end", NAN);
        }
    if (!status || strcmp(status, "ok") != 0) {
        char why[96];
        const json_t *code = json_object_get(v, "exit_status");
        if (status && strcmp(status, "failed") == 0 && json_is_number(code))
            snprintf(why, sizeof why, "failed (exit %.0f)", json_number_value(code));
        else if (status && strcmp(status, "submitted") == 0) /* scaling.sh placeholder */
            snprintf(why, sizeof why, "no result (submitted, never finished)");
        else
            snprintf(why, sizeof why, "%s", status ? status : "invalid: no status");
        add_problem(rs, source, job, why, env);
    } else if (!json_is_array(runs) || json_array_size(runs) == 0) {
        add_problem(rs, source, job, "invalid: no runs", env);
    }
}

/* jansson's reader of the file: whole read() calls (json_loadfd reads one byte per call, which
 * made a 19 MB result file take 16 s). */
static size_t read_chunk(void *buf, size_t len, void *data)
{
    const int fd = *(const int *)data;
    for (;;) {
        const ssize_t got = read(fd, buf, len);
        if (got >= 0) return (size_t)got;
        if (errno != EINTR) return (size_t)-1;
    }
}

/* Adds the rows of one file. A missing file is a row; a file that is not JSON is bad input
 * (MULRED_EINPUT with "FILE: line L, column C: reason"). Integers beyond 64 bits (a seed of
 * 2^64 − 1 is fine, jansson's integers are signed) are read as reals: the report uses every
 * number as a double. */
static int add_file(report_rows *rs, const char *path, mulred_error *err)
{
    if (access(path, F_OK) != 0) {
        add_problem(rs, path, NULL, "missing", NULL);
        return MULRED_OK;
    }
    /* O_NONBLOCK: a FIFO without a writer must not block the open; once open it reads as
     * empty (bad input) */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode) ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        const int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
        close(fd);
        return mulred_error_set(err, MULRED_EINPUT, "%s: %s", path, strerror(e));
    }
    json_error_t jerr;
    int rfd = fd;
    json_t *v = json_load_callback(read_chunk, &rfd,
                                   JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &jerr);
    close(fd);
    if (!v)
        return mulred_error_set(err, MULRED_EINPUT, "%s: line %d, column %d: %s", path, jerr.line,
                                jerr.column, jerr.text);
    add_document(rs, v, path, 0);
    json_decref(v);
    return MULRED_OK;
}

/* ---- grouping and metrics ---- */

typedef struct {
    report_row *row;
    int group;
    double p, speedup, efficiency, karp_flatt;
    bool hash_matches;
} report_line;

typedef struct {
    char name[300];
    report_row *base;
} report_group;

static int cores(const report_row *r)
{
    return r->ranks * r->threads;
}

static int group_of(report_group *g, int *ng, const char *name)
{
    for (int i = 0; i < *ng; i++)
        if (strcmp(g[i].name, name) == 0) return i;
    snprintf(g[*ng].name, sizeof g[*ng].name, "%s", name);
    g[*ng].base = NULL;
    return (*ng)++;
}

static int line_cmp(const void *a, const void *b)
{
    const report_line *x = a, *y = b;
    if (x->group != y->group) return x->group - y->group;
    int cx = cores(x->row) ? cores(x->row) : 1 << 30, cy = cores(y->row) ? cores(y->row) : 1 << 30;
    if (cx != cy) return cx < cy ? -1 : 1;
    if (x->row->nodes != y->row->nodes) return x->row->nodes - y->row->nodes;
    if (x->row->ok != y->row->ok) return x->row->ok ? -1 : 1;
    return strcmp(x->row->source, y->row->source);
}

/* Appends a line (the array grows by doubling: a failed row may go into several groups). */
static void push_line(report_line **lines, size_t *n, size_t *cap, report_row *r, int group)
{
    if (*n == *cap) {
        const size_t want = 2 * *cap;
        report_line *l = realloc(*lines, want * sizeof *l);
        if (!l) {
            fprintf(stderr, "mulred report: out of memory (%zu lines)\n", want);
            exit(MULRED_ERUNTIME);
        }
        *lines = l, *cap = want;
    }
    memset(&(*lines)[*n], 0, sizeof **lines);
    (*lines)[*n].row = r;
    (*lines)[(*n)++].group = group;
}

/* Builds the lines: every ok row once, every failed row once per workload of its job. */
static report_line *build_lines(report_rows *rs, report_group *groups, int *ngroups, size_t *nlines)
{
    /* every row gives at least one line; a failed row may give more (push_line grows) */
    size_t n = 0, cap = rs->n + 1;
    report_line *lines = malloc(cap * sizeof *lines);
    if (!lines) {
        fprintf(stderr, "mulred report: out of memory (%zu rows)\n", rs->n);
        exit(MULRED_ERUNTIME);
    }
    for (size_t i = 0; i < rs->n; i++) {
        report_row *r = &rs->rows[i];
        if (!r->ok) continue;
        push_line(&lines, &n, &cap, r, group_of(groups, ngroups, r->workload));
    }
    /* A failed row goes once into every group that holds a successful row of its job: one
     * pass over the successful lines per failed row (not per group: thousands of failed
     * files must not take cubic time). */
    const size_t n_ok = n;
    for (size_t i = 0; i < rs->n; i++) {
        report_row *r = &rs->rows[i];
        if (r->ok) continue;
        bool placed = false;
        const size_t first = n;
        for (size_t k = 0; r->job[0] && k < n_ok; k++) {
            if (strcmp(lines[k].row->job, r->job) != 0) continue;
            bool seen = false;
            for (size_t q = first; q < n && !seen; q++) seen = lines[q].group == lines[k].group;
            if (seen) continue;
            push_line(&lines, &n, &cap, r, lines[k].group);
            placed = true;
        }
        if (!placed) {
            char name[300];
            snprintf(name, sizeof name, "job %s", r->job[0] ? r->job : "unknown");
            push_line(&lines, &n, &cap, r, group_of(groups, ngroups, name));
        }
    }
    /* Baselines: the smallest successful configuration of each group. */
    for (size_t k = 0; k < n; k++) {
        report_row *r = lines[k].row;
        report_group *g = &groups[lines[k].group];
        if (!r->ok) continue;
        if (!g->base || cores(r) < cores(g->base) ||
            (cores(r) == cores(g->base) && r->nodes < g->base->nodes))
            g->base = r;
    }
    for (size_t k = 0; k < n; k++) {
        report_line *l = &lines[k];
        report_row *b = groups[l->group].base;
        l->p = l->speedup = l->efficiency = l->karp_flatt = NAN;
        l->hash_matches = true;
        if (!l->row->ok || !b) continue;
        l->p = (double)cores(l->row) / cores(b);
        l->speedup = mulred_speedup(b->seconds, l->row->seconds);
        l->efficiency = mulred_efficiency(l->speedup, l->p);
        l->karp_flatt = mulred_karp_flatt(l->speedup, l->p);
        l->hash_matches = strcmp(l->row->result, b->result) == 0;
    }
    qsort(lines, n, sizeof *lines, line_cmp);
    *nlines = n;
    return lines;
}

static void fmt_num(char *out, size_t cap, double v, const char *fmt)
{
    if (isnan(v))
        snprintf(out, cap, "—");
    else
        snprintf(out, cap, fmt, v);
}

static void fmt_int(char *out, size_t cap, int v)
{
    if (v > 0)
        snprintf(out, cap, "%d", v);
    else
        snprintf(out, cap, "?");
}

static void write_markdown(FILE *out, const report_line *lines, size_t n,
                           const report_group *groups, int ngroups)
{
    fprintf(out, "# Strong scaling\n\n"
                 "Speedup and efficiency are relative to the smallest successful configuration "
                 "of each workload\n(cores = ranks × threads). Karp–Flatt is the experimentally "
                 "determined serial fraction\ne = (1/S − 1/p)/(1 − 1/p). Time is the total wall "
                 "time, max over ranks (MSM: the MSM alone,\ntiles and reduce, not reading, "
                 "generating or validating the points); rate is elements or\npoints per second "
                 "of that time. CPU is the slowest rank's CPU time per thread in read +\n"
                 "generate + hash (MuHash only): about what the time would be on cores of its "
                 "own. Load\nis the host's 1-minute load average before and after the job: "
                 "when time is well above\nCPU and the load above the core count, other "
                 "processes shared the cores and the row\nmeasures the machine as much as "
                 "mulred.\n");
    for (int g = 0; g < ngroups; g++) {
        fprintf(out, "\n## %s\n\n", groups[g].name);
        fprintf(out, "| nodes | ranks | threads | cores | time (s) | CPU (s) | rate | speedup | "
                     "efficiency | Karp–Flatt | result | load | status | source |\n"
                     "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|---:|:---|:---|\n");
        for (size_t k = 0; k < n; k++) {
            const report_line *l = &lines[k];
            if (l->group != g) continue;
            const report_row *r = l->row;
            char nodes[16], ranks[16], threads[16], c[16], t[32], s[32], e[32], kf[32], h[40];
            char load[48], busy[32], rate[48];
            fmt_num(busy, sizeof busy, r->ok && !r->msm ? r->busy : NAN, "%.3f");
            if (r->ok && r->elements > 0)
                mulred_format_rate(rate, sizeof rate, r->elements / r->seconds,
                                   r->msm ? "points" : "elements");
            else
                snprintf(rate, sizeof rate, "—");
            if (isnan(r->load_start))
                snprintf(load, sizeof load, "—");
            else
                snprintf(load, sizeof load, "%.1f → %.1f", r->load_start, r->load_end);
            fmt_int(nodes, sizeof nodes, r->nodes);
            fmt_int(ranks, sizeof ranks, r->ranks);
            fmt_int(threads, sizeof threads, r->threads);
            fmt_int(c, sizeof c, r->ranks > 0 && r->threads > 0 ? cores(r) : 0);
            fmt_num(t, sizeof t, r->ok ? r->seconds : NAN, "%.3f");
            fmt_num(s, sizeof s, l->speedup, "%.2f");
            fmt_num(e, sizeof e, l->efficiency * 100, "%.0f %%");
            fmt_num(kf, sizeof kf, l->karp_flatt, "%.3f");
            if (r->ok) /* an EIP-2537 point starts with 16 zero bytes of padding: skip them */
                snprintf(h, sizeof h, "`%.12s…`%s", r->result + (strlen(r->result) == 256 ? 32 : 0),
                         l->hash_matches ? "" : " MISMATCH");
            else
                snprintf(h, sizeof h, "—");
            fprintf(out,
                    "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                    nodes, ranks, threads, c, t, busy, rate, s, e, kf, h, load,
                    r->ok && !l->hash_matches ? "**MISMATCH**"
                    : r->ok                   ? "ok"
                                              : r->status,
                    r->source);
        }
    }
}

static void csv_field(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_num(FILE *out, double v, const char *fmt)
{
    fputc(',', out);
    if (!isnan(v)) fprintf(out, fmt, v);
}

static void write_csv(FILE *out, const report_line *lines, size_t n, const report_group *groups)
{
    fprintf(out, "workload,nodes,ranks,threads,cores,seconds,cpu_seconds,rate,rate_unit,speedup,"
                 "efficiency,karp_flatt,result,load_start,load_end,status,source\n");
    for (size_t k = 0; k < n; k++) {
        const report_line *l = &lines[k];
        const report_row *r = l->row;
        csv_field(out, groups[l->group].name);
        csv_num(out, r->nodes > 0 ? r->nodes : NAN, "%.0f");
        csv_num(out, r->ranks > 0 ? r->ranks : NAN, "%.0f");
        csv_num(out, r->threads > 0 ? r->threads : NAN, "%.0f");
        csv_num(out, r->ranks > 0 && r->threads > 0 ? cores(r) : NAN, "%.0f");
        csv_num(out, r->ok ? r->seconds : NAN, "%.6f");
        csv_num(out, r->ok && !r->msm ? r->busy : NAN, "%.6f");
        csv_num(out, r->ok && r->elements > 0 ? r->elements / r->seconds : NAN, "%.6g");
        fputc(',', out);
        csv_field(out, r->msm ? "points/s" : "elements/s");
        csv_num(out, l->speedup, "%.4f");
        csv_num(out, l->efficiency, "%.4f");
        csv_num(out, l->karp_flatt, "%.4f");
        fputc(',', out);
        csv_field(out, r->result);
        csv_num(out, r->load_start, "%.2f");
        csv_num(out, r->load_end, "%.2f");
        fputc(',', out);
        csv_field(out, r->ok && !l->hash_matches ? "MISMATCH" : r->status);
        fputc(',', out);
        csv_field(out, r->source);
        fputc('\n', out);
    }
}

/* ---- gnuplot ---- */

static bool have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* Runs a gnuplot script (written to a temporary file so its errors name lines). */
static int run_gnuplot(const char *script, const char *png, mulred_error *err)
{
    char path[] = "/tmp/mulred-plot-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return mulred_error_set(err, MULRED_ERUNTIME, "report: temporary file: %s",
                                strerror(errno));
    fputs(script, f);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "gnuplot '%s'", path);
    int rc = system(cmd);
    unlink(path);
    if (rc != 0 || access(png, F_OK) != 0)
        return mulred_error_set(err, MULRED_ERUNTIME, "report: gnuplot failed to write %s", png);
    return MULRED_OK;
}

/* A growable string for generated scripts. */
typedef struct {
    char *s;
    size_t n, cap;
} strbuf;

static void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(strbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int need = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (need < 0) return;
        if (b->s && b->n + (size_t)need < b->cap) {
            b->n += (size_t)need;
            return;
        }
        size_t cap = (b->cap + (size_t)need + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s) exit(MULRED_ERUNTIME);
        b->s = s, b->cap = cap;
    }
}

static void gp_quote(strbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) sb_printf(b, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
    sb_printf(b, "\"");
}

/* One series per workload and threads-per-rank, so that a sweep of ranks and a sweep of
 * threads (same cores, different layout) are separate lines. */
static int write_png(const char *png, const report_line *lines, size_t n,
                     const report_group *groups, int ngroups, mulred_error *err)
{
    strbuf b = {0};
    int nseries = 0, missing = 0;
    double pmax = 1, smax = 1, base_cores = 0;
    int *series_group = calloc(n + 1, sizeof *series_group),
        *series_threads = calloc(n + 1, sizeof(int));
    if (!series_group || !series_threads) exit(MULRED_ERUNTIME);
    for (size_t k = 0; k < n; k++) {
        const report_row *r = lines[k].row;
        if (!r->ok) {
            missing++;
            continue;
        }
        if (cores(r) > pmax) pmax = cores(r);
        if (lines[k].speedup > smax) smax = lines[k].speedup;
        int s = 0;
        while (s < nseries &&
               !(series_group[s] == lines[k].group && series_threads[s] == r->threads))
            s++;
        if (s == nseries)
            series_group[nseries] = lines[k].group, series_threads[nseries++] = r->threads;
    }
    for (int g = 0; g < ngroups && !base_cores; g++)
        if (groups[g].base) base_cores = cores(groups[g].base);
    if (!base_cores) base_cores = 1;
    for (int s = 0; s < nseries; s++) {
        sb_printf(&b, "$s%d << EOD\n", s);
        for (size_t k = 0; k < n; k++)
            if (lines[k].group == series_group[s] && lines[k].row->ok &&
                lines[k].row->threads == series_threads[s])
                sb_printf(&b, "%d %.6f %.6f\n", cores(lines[k].row), lines[k].speedup,
                          lines[k].efficiency);
        sb_printf(&b, "EOD\n");
    }
    sb_printf(&b, "set terminal pngcairo size 1100,560 noenhanced font \"sans,10\"\nset output ");
    gp_quote(&b, png);
    sb_printf(&b, "\nset multiplot layout 1,2 title \"mulred strong scaling%s\"\n",
              missing ? " (failed or missing runs are listed in the table, not plotted)" : "");
    sb_printf(&b,
              "set key below left Left reverse vertical maxrows 4\nset grid\nset xlabel \"cores "
              "(ranks x threads)\"\n"
              "set xrange [0:%g]\n%s",
              pmax + 1, pmax > 16 ? "" : "set xtics 1\n");
    const char *pts = "with linespoints lw 2 pt 7 ps 1.2";
    for (int panel = 0; panel < 2; panel++) {
        if (panel == 0)
            sb_printf(&b,
                      "set ylabel \"speedup\"\nset yrange [0:%g]\n"
                      "plot x/%g title \"ideal\" dt 2 lc rgb \"gray40\"",
                      (smax > pmax / base_cores ? smax : pmax / base_cores) * 1.15 + 0.2,
                      base_cores);
        else
            sb_printf(&b, "set ylabel \"parallel efficiency\"\nset yrange [0:1.2]\n"
                          "plot 1 title \"ideal\" dt 2 lc rgb \"gray40\"");
        for (int s = 0; s < nseries; s++) {
            char title[400];
            snprintf(title, sizeof title, "%s; %d thread%s/rank", groups[series_group[s]].name,
                     series_threads[s], series_threads[s] == 1 ? "" : "s");
            sb_printf(&b, ", $s%d using 1:%d %s title ", s, panel ? 3 : 2, pts);
            gp_quote(&b, title);
        }
        sb_printf(&b, "\n");
    }
    sb_printf(&b, "unset multiplot\n");
    int rc = nseries ? run_gnuplot(b.s, png, err)
                     : mulred_error_set(err, MULRED_ERUNTIME, "report: no successful run to plot");
    free(b.s);
    free(series_group);
    free(series_threads);
    return rc;
}

/* ---- projection ---- */

/* Built-in workloads. Another workload (an MSM: points, 144-byte Jacobian partials, a point
 * addition as the group op) plugs in by adding a row here or by giving every cost on the
 * command line. The MuHash op multiplies numerator and denominator: two 3072-bit mulmods (GMP
 * mpn_mul_n plus the fold reduction; docs/kernels.md has their cost); 768 bytes travel. */
static const mulred_model_workload builtin_workloads[] = {
    {"muhash-mainnet", "coin", 180e6, 0, 2.2e-6, 768, 60e-6},
};

typedef struct {
    const char *workload, *png, *csv, *output;
    double items, item_cost, op_cost, message_bytes, finalize_cost, latency, bandwidth;
    double cores_per_node, ranks_per_node, memory_per_node;
    int max_nodes;
    /* --net FILE: α and β measured by `mulred bench comm --out FILE` */
    const char *net;
    double net_latency, net_bandwidth;
    char net_source[256];
} project_opts;

/* Reads the network constants of a `mulred bench comm --out FILE` file into o. */
static int load_net(project_opts *o, mulred_error *err)
{
    json_error_t je;
    json_t *v = json_load_file(o->net, 0, &je);
    if (!v && je.line < 1) return mulred_error_set(err, MULRED_EINPUT, "%s", je.text);
    if (!v)
        return mulred_error_set(err, MULRED_EINPUT, "%s:%d:%d: %s", o->net, je.line, je.column,
                                je.text);
    const json_t *lat = json_object_get(v, "latency_seconds"),
                 *bw = json_object_get(v, "bandwidth_bytes_per_second"),
                 *ranks = json_object_get(v, "ranks"), *nodes = json_object_get(v, "nodes");
    int rc = MULRED_OK;
    if (!json_is_number(lat) || !(json_number_value(lat) > 0) || !json_is_number(bw) ||
        !(json_number_value(bw) > 0))
        rc = mulred_error_set(err, MULRED_EINPUT,
                              "%s: no positive latency_seconds and bandwidth_bytes_per_second "
                              "(write it with mpirun -n P mulred bench comm --out FILE, P >= 2)",
                              o->net);
    else {
        o->net_latency = json_number_value(lat);
        o->net_bandwidth = json_number_value(bw);
        snprintf(o->net_source, sizeof o->net_source,
                 "measured by bench comm (%s: %lld ranks on %lld nodes)", o->net,
                 json_is_integer(ranks) ? (long long)json_integer_value(ranks) : 0,
                 json_is_integer(nodes) ? (long long)json_integer_value(nodes) : 0);
    }
    json_decref(v);
    return rc;
}

/* ---- projection of a distributed MSM ----
 * The grid planner of the library (mulred/msm_grid.h) is the model: for N nodes of C cores it
 * picks point slices x window groups, c and GLV, and its single-thread cost of the slowest rank,
 * scaled by a factor measured on the smallest successful msm result, divided by the threads of
 * a rank, plus the reduce, is the prediction. Points-only sharding (DIZK's approach: every rank
 * all windows of n/P points) is the same planner forced to P x 1. */

/* The measured quantities of the smallest successful msm run. */
typedef struct {
    const report_row *base;
    double kappa;       /* measured MSM time x threads / the model's single-thread time */
    double input_ns;    /* read or generate, per point of a slice, per core */
    double validate_ns; /* per point checked, per core */
} msm_calibration;

static void msm_calibrate(msm_calibration *cal, const report_rows *rs)
{
    memset(cal, 0, sizeof *cal);
    cal->kappa = 1;
    for (size_t i = 0; i < rs->n; i++) {
        const report_row *r = &rs->rows[i];
        if (!r->ok || !r->msm || !(r->elements > 0)) continue;
        if (!cal->base || cores(r) < cores(cal->base) ||
            (cores(r) == cores(cal->base) && r->seconds < cal->base->seconds))
            cal->base = r;
    }
    const report_row *b = cal->base;
    if (!b) return;
    const double slice = b->elements / (b->slices > 0 ? b->slices : 1);
    const double checked = slice / (b->groups > 0 ? b->groups : 1);
    if (b->model_msm > 0 && b->msm_max > 0) cal->kappa = b->msm_max * b->threads / b->model_msm;
    if (b->input_max > 0) cal->input_ns = b->input_max * b->threads / slice * 1e9;
    if (b->validate_max > 0) cal->validate_ns = b->validate_max * b->threads / checked * 1e9;
}

typedef struct {
    mulred_msm_grid grid;
    double seconds;
    bool ok;
} msm_prediction;

/* The planner for P ranks of T threads; forced points-only when points_only. */
static msm_prediction msm_predict(mulred_curve curve, double items, int P, int T,
                                  const msm_calibration *cal, double step_s, double memory,
                                  bool points_only, bool resident)
{
    msm_prediction pr = {.ok = false};
    mulred_msm_grid_params p;
    mulred_msm_grid_defaults(&p, curve, MULRED_MSM_INPUT_SYNTHETIC, (uint64_t)items, P, T);
    /* in the planner's single-thread units: the prediction is cost_ns · κ / T */
    p.input_ns = resident ? 0 : cal->input_ns / cal->kappa;
    p.validate_ns = resident ? 0 : cal->validate_ns / cal->kappa;
    p.reduce_step_ns = step_s * 1e9 * T / cal->kappa;
    p.memory_per_rank = memory > 0 ? (uint64_t)memory : 0;
    if (points_only) p.slices = (unsigned)((double)P < items ? P : items), p.groups = 1;
    mulred_error err;
    if (mulred_msm_grid_plan(&pr.grid, curve, &p, &err) != MULRED_OK) return pr;
    pr.seconds = pr.grid.cost_ns * 1e-9 * cal->kappa / T;
    pr.ok = true;
    return pr;
}

static void grid_text(char *out, size_t cap, const msm_prediction *p)
{
    if (!p->ok)
        snprintf(out, cap, "does not fit");
    else
        snprintf(out, cap, "%u×%u, c = %u%s", p->grid.slices, p->grid.groups, p->grid.window_bits,
                 p->grid.glv ? " GLV" : "");
}

static int project_msm(const project_opts *o, const report_rows *rs, mulred_error *err)
{
    msm_calibration cal;
    msm_calibrate(&cal, rs);
    mulred_curve curve = MULRED_CURVE_BLS12_381;
    if (cal.base && mulred_curve_parse(&curve, cal.base->curve) != 0)
        curve = MULRED_CURVE_BLS12_381;
    const double items = o->items > 0 ? o->items : 67108864.0; /* 2^26 */
    /* a Jacobian addition of partials, as mulred bench curve measured it (docs/kernels.md) */
    const double op = o->op_cost > 0 ? o->op_cost : curve == MULRED_CURVE_BN254 ? 0.3e-6 : 0.55e-6;
    const double bytes =
        o->message_bytes > 0 ? o->message_bytes : (double)mulred_msm_jacobian_bytes(curve);
    /* the loopback latency: the fastest rank's reduce in a multi-rank run (a leaf only sends) */
    double latency = NAN;
    for (size_t i = 0; i < rs->n; i++) {
        const report_row *r = &rs->rows[i];
        if (r->ok && r->msm && r->ranks > 1 && r->reduce_min >= 0 && !(latency <= r->reduce_min))
            latency = r->reduce_min;
    }
    const char *src_lat = isnan(latency) ? "default (typical InfiniBand)" : "measured on loopback";
    if (isnan(latency)) latency = 2e-6;
    if (o->net_latency > 0) latency = o->net_latency, src_lat = o->net_source;
    if (o->latency > 0) latency = o->latency, src_lat = "given";
    const double bandwidth = o->bandwidth > 0       ? o->bandwidth
                             : o->net_bandwidth > 0 ? o->net_bandwidth
                                                    : 12.5e9;
    const char *src_bw = o->bandwidth > 0       ? "given"
                         : o->net_bandwidth > 0 ? o->net_source
                                                : "default (100 Gb/s)";
    const double C = o->cores_per_node, R = o->ranks_per_node;
    if (!(R >= 1) || R > C)
        return mulred_error_set(err, CLI_EUSAGE,
                                "report --project: need 1 <= ranks per node <= cores per node");
    const int T = (int)(C / R) > 0 ? (int)(C / R) : 1;
    const double step = op + latency + bytes / bandwidth;
    const double memory = o->memory_per_node > 0 ? o->memory_per_node / R : 0;

    FILE *out = stdout;
    if (o->output && !(out = fopen(o->output, "w")))
        return mulred_error_set(err, MULRED_ERUNTIME, "report: %s: %s", o->output, strerror(errno));
    char lat[32], opc[32], inp[32], val[32];
    mulred_format_seconds(lat, sizeof lat, latency);
    mulred_format_seconds(opc, sizeof opc, op);
    mulred_format_seconds(inp, sizeof inp, cal.input_ns * 1e-9);
    mulred_format_seconds(val, sizeof val, cal.validate_ns * 1e-9);
    fprintf(out,
            "# Projected strong scaling of an MSM — a MODEL, not a measurement\n\n"
            "Workload `%s`: an MSM of %.4g points on %s G1. Nodes of %g cores, each running %g "
            "rank(s) × %d thread(s).\n\n"
            "Model: the grid planner of `mulred msm` (point slices × window groups, window c, "
            "GLV) on P = nodes × ranks-per-node ranks; its single-thread cost of the slowest "
            "rank × κ / threads, + ⌈log₂ P⌉ · (op + α + m/β). Points-only sharding (DIZK's "
            "approach) is the same model forced to P slices × 1 window group.\n\n"
            "| parameter | value | source |\n|---|---|---|\n"
            "| κ, measured MSM time × threads / modelled single-thread time | %.3f | %s |\n"
            "| input (generate or read) per point per core | %s | %s |\n"
            "| validation per point per core | %s | %s |\n"
            "| op, one point addition | %s | %s |\n"
            "| m, bytes per partial (a Jacobian point) | %.0f | %s |\n"
            "| α, message latency | %s | %s |\n"
            "| β, bandwidth | %.3g GB/s | %s |\n"
            "| memory per rank | %s | %s |\n\n"
            "Assumptions: threads of a rank scale as in the measured run (κ holds them); every "
            "rank of a window group's column reads or generates its whole slice; ranks that no "
            "grid cell needs stay idle; a binomial-tree MPI_Reduce; no I/O contention, start-up "
            "or OS noise.\n\n"
            "Two regimes: the points made or read for every MSM (as measured: every rank of a "
            "window group's column pays for its whole slice), and the points resident in memory "
            "(a prover's fixed bases, loaded once: no input cost, which is where splitting "
            "windows pays).\n",
            o->workload, items, mulred_curve_name(curve), C, R, T, cal.kappa,
            cal.base ? "measured (smallest msm run)" : "built-in model (no msm result given)", inp,
            cal.base ? "measured" : "none (no result)", val,
            cal.base ? "measured" : "none (no result)", opc, o->op_cost > 0 ? "given" : "built-in",
            bytes, o->message_bytes > 0 ? "given" : "built-in", lat, src_lat, bandwidth / 1e9,
            src_bw, memory > 0 ? "limited" : "unlimited", memory > 0 ? "given" : "default");
    FILE *csv = NULL;
    if (o->csv && !(csv = fopen(o->csv, "w"))) {
        if (out != stdout) fclose(out);
        return mulred_error_set(err, MULRED_ERUNTIME, "report: %s: %s", o->csv, strerror(errno));
    }
    if (csv)
        fprintf(csv, "regime,nodes,ranks,cores,slices,groups,window,glv,predicted_seconds,speedup,"
                     "efficiency,points_only_window,points_only_seconds,grid_gain\n");
    strbuf data = {0};
    for (int resident = 0; resident < 2; resident++) {
        const char *regime = resident ? "resident" : "input";
        fprintf(out,
                "\n## %s\n\n"
                "| nodes | ranks | cores | grid | predicted (s) | speedup | efficiency | "
                "points-only | predicted (s) | grid gain |\n"
                "|---:|---:|---:|:---|---:|---:|---:|:---|---:|---:|\n",
                resident ? "Points resident in memory (no input cost)"
                         : "Points made or read for every MSM (as measured)");
        sb_printf(&data, "$%s << EOD\n", regime);
        const msm_prediction one =
            msm_predict(curve, items, (int)R, T, &cal, step, memory, false, resident);
        for (int nodes = 1; nodes <= o->max_nodes; nodes *= 2) {
            const int P = (int)(nodes * R);
            const msm_prediction g =
                msm_predict(curve, items, P, T, &cal, step, memory, false, resident);
            const msm_prediction d =
                msm_predict(curve, items, P, T, &cal, step, memory, true, resident);
            const double sp = one.ok && g.ok ? one.seconds / g.seconds : NAN;
            const double e = sp / nodes, gain = g.ok && d.ok ? d.seconds / g.seconds : NAN;
            char gt[48], dt[48], gs[32], ds[32], ss[32], es[32], gn[32];
            grid_text(gt, sizeof gt, &g);
            grid_text(dt, sizeof dt, &d);
            fmt_num(gs, sizeof gs, g.ok ? g.seconds : NAN, "%.4g");
            fmt_num(ds, sizeof ds, d.ok ? d.seconds : NAN, "%.4g");
            fmt_num(ss, sizeof ss, sp, "%.1f");
            fmt_num(es, sizeof es, e * 100, "%.0f %%");
            fmt_num(gn, sizeof gn, gain, "%.2f×");
            fprintf(out, "| %d | %d | %.0f | %s | %s | %s | %s | %s | %s | %s |\n", nodes, P,
                    nodes * C, gt, gs, ss, es, dt, ds, gn);
            if (csv)
                fprintf(csv, "%s,%d,%d,%.0f,%u,%u,%u,%d,%.6g,%.4f,%.4f,%u,%.6g,%.4f\n", regime,
                        nodes, P, nodes * C, g.grid.slices, g.grid.groups, g.grid.window_bits,
                        g.grid.glv, g.seconds, sp, e, d.grid.window_bits, d.seconds, gain);
            sb_printf(&data, "%d %.6g %.6g\n", nodes, sp,
                      one.ok && d.ok ? one.seconds / d.seconds : NAN);
        }
        sb_printf(&data, "EOD\n");
    }
    if (out != stdout) fclose(out);
    if (csv) fclose(csv);
    int rc = MULRED_OK;
    if (o->png) {
        sb_printf(&data,
                  "set terminal pngcairo size 900,520 noenhanced font \"sans,10\"\nset output ");
        gp_quote(&data, o->png);
        sb_printf(&data,
                  "\nset title \"MODEL (not measured): MSM of %.4g points, %s, %g cores/node\"\n"
                  "set logscale xy 2\nset grid\nset key top left\nset xlabel \"nodes\"\n"
                  "set ylabel \"predicted speedup over one node\"\n"
                  "plot [1:%d] x title \"ideal\" dt 2 lc rgb \"gray40\", "
                  "$input using 1:2 with linespoints lw 2 pt 7 title \"grid planner, input per "
                  "MSM\", $input using 1:3 with linespoints lw 2 pt 5 dt 3 title \"points only "
                  "(DIZK), input per MSM\", $resident using 1:2 with linespoints lw 2 pt 9 title "
                  "\"grid planner, points resident\", $resident using 1:3 with linespoints lw 2 "
                  "pt 11 dt 3 title \"points only (DIZK), points resident\"\n",
                  items, mulred_curve_name(curve), C, o->max_nodes);
        rc = run_gnuplot(data.s, o->png, err);
    }
    free(data.s);
    return rc;
}

static int project(const project_opts *o, const report_rows *rs, mulred_error *err)
{
    const mulred_model_workload *bw = NULL;
    for (size_t i = 0; i < sizeof builtin_workloads / sizeof builtin_workloads[0]; i++)
        if (strcmp(builtin_workloads[i].name, o->workload) == 0) bw = &builtin_workloads[i];
    mulred_model_workload w =
        bw ? *bw : (mulred_model_workload){o->workload, "item", 0, 0, 0, 0, 0};
    const char *src_item = "given", *src_lat = "given", *src_fin = "built-in", *src_op = "built-in";
    if (!bw) src_fin = src_op = "given";

    /* Measured from the results: the per-element cost of the smallest successful run
     * (its read + generate + hash CPU time × cores / elements, else its wall time), the
     * finalize phase, and the loopback
     * reduce latency (the fastest rank's mpi_reduce time in a multi-rank run: a leaf of the
     * tree that only sends). */
    const report_row *base = NULL;
    double loop_lat = NAN;
    for (size_t i = 0; i < rs->n; i++) {
        const report_row *r = &rs->rows[i];
        if (!r->ok || !(r->elements > 0)) continue;
        if (!base || cores(r) < cores(base) ||
            (cores(r) == cores(base) && r->seconds < base->seconds))
            base = r;
        if (r->ranks > 1 && r->mpi_reduce_min >= 0 && !(loop_lat <= r->mpi_reduce_min))
            loop_lat = r->mpi_reduce_min;
    }
    if (o->items > 0) w.items = o->items;
    if (o->item_cost > 0)
        w.item_seconds = o->item_cost;
    else if (base) {
        /* CPU time when the result has it: on a shared machine wall time also counts the
         * other processes' share of the cores. */
        bool cpu = base->busy > 0;
        w.item_seconds = (cpu ? base->busy : base->seconds) * cores(base) / base->elements;
        src_item = cpu ? "measured (CPU time, smallest run)" : "measured (wall time, smallest run)";
    }
    if (o->op_cost > 0) w.op_seconds = o->op_cost, src_op = "given";
    if (o->message_bytes > 0) w.message_bytes = o->message_bytes;
    if (o->finalize_cost > 0)
        w.finalize_seconds = o->finalize_cost, src_fin = "given";
    else if (base && base->finalize_max > 0)
        w.finalize_seconds = base->finalize_max, src_fin = "measured";
    mulred_model_machine m = {o->cores_per_node, o->ranks_per_node, 2e-6, 12.5e9};
    if (o->latency > 0)
        m.latency_seconds = o->latency;
    else if (o->net_latency > 0)
        m.latency_seconds = o->net_latency, src_lat = o->net_source;
    else if (!isnan(loop_lat))
        m.latency_seconds = loop_lat, src_lat = "measured on loopback";
    else
        src_lat = "default (typical InfiniBand)";
    const char *src_bw = "default (100 Gb/s)";
    if (o->bandwidth > 0)
        m.bandwidth_bytes_per_second = o->bandwidth, src_bw = "given";
    else if (o->net_bandwidth > 0)
        m.bandwidth_bytes_per_second = o->net_bandwidth, src_bw = o->net_source;
    if (!(w.items > 0) || !(w.item_seconds > 0) || !(w.message_bytes > 0))
        return mulred_error_set(err, CLI_EUSAGE,
                                "report --project: workload '%s' needs --items, --item-cost (or "
                                "result files to measure it) and --message-bytes",
                                o->workload);
    if (!(m.ranks_per_node >= 1) || m.ranks_per_node > m.cores_per_node)
        return mulred_error_set(err, CLI_EUSAGE,
                                "report --project: need 1 <= ranks per node <= cores per node");

    FILE *out = stdout;
    if (o->output && !(out = fopen(o->output, "w")))
        return mulred_error_set(err, MULRED_ERUNTIME, "report: %s: %s", o->output, strerror(errno));
    char ic[32], oc[32], fc[32], lc[32];
    mulred_format_seconds(ic, sizeof ic, w.item_seconds);
    mulred_format_seconds(oc, sizeof oc, w.op_seconds);
    mulred_format_seconds(fc, sizeof fc, w.finalize_seconds);
    mulred_format_seconds(lc, sizeof lc, m.latency_seconds);
    fprintf(
        out,
        "# Projected strong scaling — a MODEL, not a measurement\n\n"
        "Workload `%s`: %.4g %ss. Nodes of %g cores, each running %g rank(s) × %g thread(s).\n\n"
        "Model: T(N) = items · c / (N · cores) + (threads − 1) · op + ⌈log₂ P⌉ · (op + α + "
        "m/β) + finalize\n\n"
        "| parameter | value | source |\n|---|---|---|\n"
        "| c, cost per %s per core | %s | %s |\n"
        "| op, one group operation | %s | %s |\n"
        "| m, bytes per partial | %.0f | %s |\n"
        "| α, message latency | %s | %s |\n"
        "| β, bandwidth | %.3g GB/s | %s |\n"
        "| finalize (rank 0) | %s | %s |\n\n"
        "Assumptions: items spread evenly over all cores (perfect balance, no stragglers);\n"
        "per-core speed independent of node count; a rank's thread partials combined in "
        "sequence;\na binomial-tree MPI_Reduce; no I/O, start-up or OS noise. Real runs fall "
        "below this\ncurve; the gap is what to measure.\n\n"
        "| nodes | ranks | cores | predicted (s) | compute (s) | reduce (s) | speedup | "
        "efficiency |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        w.name, w.items, w.item_name, m.cores_per_node, m.ranks_per_node,
        m.cores_per_node / m.ranks_per_node, w.item_name, ic, src_item, oc, src_op, w.message_bytes,
        bw || o->message_bytes > 0 ? (o->message_bytes > 0 ? "given" : "built-in") : "given", lc,
        src_lat, m.bandwidth_bytes_per_second / 1e9, src_bw, fc, src_fin);
    FILE *csv = NULL;
    if (o->csv && !(csv = fopen(o->csv, "w"))) {
        if (out != stdout) fclose(out);
        return mulred_error_set(err, MULRED_ERUNTIME, "report: %s: %s", o->csv, strerror(errno));
    }
    if (csv)
        fprintf(csv, "nodes,ranks,cores,predicted_seconds,compute_seconds,reduce_seconds,speedup,"
                     "efficiency\n");
    strbuf data = {0};
    sb_printf(&data, "$model << EOD\n");
    mulred_model_time t1 = mulred_model_predict(&w, &m, 1);
    for (int nodes = 1; nodes <= o->max_nodes; nodes *= 2) {
        mulred_model_time t = mulred_model_predict(&w, &m, nodes);
        double s = mulred_speedup(t1.total, t.total), e = mulred_efficiency(s, nodes);
        fprintf(out, "| %d | %.0f | %.0f | %.4g | %.4g | %.3g | %.1f | %.0f %% |\n", nodes,
                nodes * m.ranks_per_node, nodes * m.cores_per_node, t.total, t.compute,
                t.reduce + t.thread_combine, s, e * 100);
        if (csv)
            fprintf(csv, "%d,%.0f,%.0f,%.6g,%.6g,%.6g,%.4f,%.4f\n", nodes, nodes * m.ranks_per_node,
                    nodes * m.cores_per_node, t.total, t.compute, t.reduce + t.thread_combine, s,
                    e);
        sb_printf(&data, "%d %.6g %.6g %.6g\n", nodes, s, e, t.total);
    }
    sb_printf(&data, "EOD\n");
    if (out != stdout) fclose(out);
    if (csv) fclose(csv);
    int rc = MULRED_OK;
    if (o->png) {
        sb_printf(&data,
                  "set terminal pngcairo size 1100,480 noenhanced font \"sans,10\"\nset output ");
        gp_quote(&data, o->png);
        sb_printf(&data,
                  "\nset multiplot layout 1,2 title \"MODEL (not measured): %s, %.3g items, %g "
                  "cores/node\"\n"
                  "set logscale x 2\nset grid\nset key top left\nset xlabel \"nodes\"\n"
                  "set logscale y 2\nset ylabel \"predicted speedup\"\n"
                  "plot [1:%d] x title \"ideal\" dt 2 lc rgb \"gray40\", $model using 1:2 with "
                  "linespoints lw 2 pt 7 title \"model\"\n"
                  "unset logscale y\nset yrange [0:1.1]\nset key bottom left\nset ylabel "
                  "\"predicted efficiency\"\n"
                  "plot [1:%d] 1 title \"ideal\" dt 2 lc rgb \"gray40\", $model using 1:3 with "
                  "linespoints lw 2 pt 7 title \"model\"\n"
                  "unset multiplot\n",
                  w.name, w.items, m.cores_per_node, o->max_nodes, o->max_nodes);
        rc = run_gnuplot(data.s, o->png, err);
    }
    free(data.s);
    return rc;
}

/* ---- command ---- */

static void report_usage(void)
{
    cli_out(
        "Usage: mulred report RESULT.json... [--png FILE] [--csv FILE] [--output FILE]\n"
        "       mulred report --project [RESULT.json...] [model options] [--png FILE] [--csv "
        "FILE]\n"
        "\n"
        "Strong-scaling report of result files ('mulred run --json' output, as written by\n"
        "slurm/mulred.sbatch to results/JOBID.json; bare 'mulred muhash --json' objects work\n"
        "too): a Markdown table (stdout or --output) of nodes, ranks, threads, time, speedup,\n"
        "parallel efficiency and the Karp-Flatt serial fraction per workload, relative to the\n"
        "smallest configuration present. Missing, failed and pending runs are rows too.\n"
        "\n"
        "  --png FILE   plot speedup and efficiency against ideal (needs gnuplot)\n"
        "  --csv FILE   the same table as CSV\n"
        "  --output FILE  write the Markdown table to FILE instead of stdout\n"
        "\n"
        "--project prints a latency-bandwidth MODEL of the curve up to --max-nodes (1024),\n"
        "taking per-element and finalize costs and the loopback reduce latency from the result\n"
        "files when given:\n"
        "  --workload NAME        built-in: muhash-mainnet (180e6 coins), msm-2e26 (an MSM of\n"
        "                         2^26 points: the grid planner against points-only sharding,\n"
        "                         calibrated on the smallest msm result; any msm-* name is an\n"
        "                         MSM of --items points); any other name needs --items,\n"
        "                         --item-cost and --message-bytes. Default: the workload of the\n"
        "                         smallest result given, else muhash-mainnet\n"
        "  --items N  --item-cost SECONDS  --op-cost SECONDS  --message-bytes B\n"
        "  --finalize-cost SECONDS  --latency SECONDS  --bandwidth BYTES_PER_SECOND\n"
        "  --cores-per-node C (default: the largest measured run, else 2)\n"
        "  --ranks-per-node R (default 1)  --max-nodes N (default 1024)\n"
        "  --memory-per-node BYTES (MSM: limits the grid; default unlimited)\n"
        "  --net FILE   α and β from 'mulred bench comm --out FILE' (run under mpirun with\n"
        "               the jobs' launcher options) instead of the loopback figures; --latency\n"
        "               and --bandwidth still win\n"
        "\n"
        "Exit status: 0 report written, 1 usage, 2 a file that is not JSON (named, with its\n"
        "line), 3 gnuplot missing or failed.\n");
}

static int parse_positive(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v > 0) || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int mulred_cmd_report(int argc, char **argv)
{
    enum {
        O_PROJECT = 256,
        O_WORKLOAD,
        O_ITEMS,
        O_ITEM_COST,
        O_OP_COST,
        O_MSG,
        O_FIN,
        O_LAT,
        O_BW,
        O_CPN,
        O_RPN,
        O_MAXN,
        O_MEM,
        O_NET
    };
    static const struct option opts[] = {{"png", required_argument, 0, 'p'},
                                         {"csv", required_argument, 0, 'c'},
                                         {"output", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {"project", no_argument, 0, O_PROJECT},
                                         {"workload", required_argument, 0, O_WORKLOAD},
                                         {"items", required_argument, 0, O_ITEMS},
                                         {"item-cost", required_argument, 0, O_ITEM_COST},
                                         {"op-cost", required_argument, 0, O_OP_COST},
                                         {"message-bytes", required_argument, 0, O_MSG},
                                         {"finalize-cost", required_argument, 0, O_FIN},
                                         {"latency", required_argument, 0, O_LAT},
                                         {"bandwidth", required_argument, 0, O_BW},
                                         {"cores-per-node", required_argument, 0, O_CPN},
                                         {"ranks-per-node", required_argument, 0, O_RPN},
                                         {"max-nodes", required_argument, 0, O_MAXN},
                                         {"memory-per-node", required_argument, 0, O_MEM},
                                         {"net", required_argument, 0, O_NET},
                                         {0, 0, 0, 0}};
    project_opts po = {.workload = NULL, .ranks_per_node = 1, .max_nodes = 1024};
    bool proj = false;
    cli_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        double v = 0;
        bool numeric = c >= O_ITEMS && c <= O_MEM;
        if (numeric && parse_positive(optarg, &v))
            return cli_usage_error(
                "report", "bad value '%s' for a model parameter (a positive number)", optarg);
        switch (c) {
        case 'h':
            report_usage();
            return MULRED_OK;
        case 'p':
            po.png = optarg;
            break;
        case 'c':
            po.csv = optarg;
            break;
        case 'o':
            po.output = optarg;
            break;
        case O_PROJECT:
            proj = true;
            break;
        case O_WORKLOAD:
            po.workload = optarg;
            break;
        case O_ITEMS:
            po.items = v;
            break;
        case O_ITEM_COST:
            po.item_cost = v;
            break;
        case O_OP_COST:
            po.op_cost = v;
            break;
        case O_MSG:
            po.message_bytes = v;
            break;
        case O_FIN:
            po.finalize_cost = v;
            break;
        case O_LAT:
            po.latency = v;
            break;
        case O_BW:
            po.bandwidth = v;
            break;
        case O_CPN:
            po.cores_per_node = v;
            break;
        case O_RPN:
            po.ranks_per_node = v;
            break;
        case O_MAXN:
            po.max_nodes = v > 1 << 20 ? 1 << 20 : (int)v;
            break;
        case O_MEM:
            po.memory_per_node = v;
            break;
        case O_NET:
            po.net = optarg;
            break;
        default:
            return cli_bad_option("report", argc, argv);
        }
    }
    if (!proj && optind >= argc) return cli_usage_error("report", "missing result files");
    if (po.png && !have_gnuplot()) {
        fprintf(stderr,
                "mulred report: gnuplot not found, cannot write %s "
                "(apt-get install gnuplot-nox, or drop --png)\n",
                po.png);
        return MULRED_ERUNTIME;
    }

    report_rows rs = {0};
    mulred_error err;
    mulred_error_clear(&err);
    for (int i = optind; i < argc; i++)
        if (add_file(&rs, argv[i], &err)) {
            free(rs.rows);
            return cli_report(&err);
        }
    int status = MULRED_OK;
    if (proj && po.net && load_net(&po, &err)) {
        free(rs.rows);
        return cli_report(&err);
    }
    if (proj) {
        if (!(po.cores_per_node > 0)) {
            po.cores_per_node = 2; /* this machine kind */
            for (size_t i = 0; i < rs.n; i++)
                if (rs.rows[i].ok && rs.rows[i].nodes > 0 &&
                    (double)cores(&rs.rows[i]) / rs.rows[i].nodes > po.cores_per_node)
                    po.cores_per_node = (double)cores(&rs.rows[i]) / rs.rows[i].nodes;
        }
        /* the workload: given, else that of the smallest successful run (an MSM result gives
         * msm-2e26), else muhash-mainnet */
        if (!po.workload) {
            const report_row *base = NULL;
            for (size_t i = 0; i < rs.n; i++)
                if (rs.rows[i].ok && (!base || cores(&rs.rows[i]) < cores(base)))
                    base = &rs.rows[i];
            po.workload = base && base->msm ? "msm-2e26" : "muhash-mainnet";
        }
        if (strncmp(po.workload, "msm", 3) == 0 && (!po.workload[3] || po.workload[3] == '-'))
            status = project_msm(&po, &rs, &err);
        else
            status = project(&po, &rs, &err);
        free(rs.rows);
        if (status == CLI_EUSAGE) return cli_usage_error("report", "%s", err.message);
        return cli_report(&err);
    }

    report_group *groups = calloc(rs.n + 1, sizeof *groups);
    int ngroups = 0;
    size_t n = 0;
    report_line *lines = build_lines(&rs, groups, &ngroups, &n);
    FILE *out = stdout;
    if (po.output && !(out = fopen(po.output, "w")))
        status =
            mulred_error_set(&err, MULRED_ERUNTIME, "report: %s: %s", po.output, strerror(errno));
    if (!status) {
        write_markdown(out, lines, n, groups, ngroups);
        if (out != stdout && fclose(out))
            status = mulred_error_set(&err, MULRED_ERUNTIME, "report: %s: %s", po.output,
                                      strerror(errno));
    }
    if (!status && po.csv) {
        FILE *csv = fopen(po.csv, "w");
        if (!csv)
            status =
                mulred_error_set(&err, MULRED_ERUNTIME, "report: %s: %s", po.csv, strerror(errno));
        else {
            write_csv(csv, lines, n, groups);
            if (fclose(csv))
                status =
                    mulred_error_set(&err, MULRED_ERUNTIME, "report: %s: write failed", po.csv);
        }
    }
    if (!status && po.png) status = write_png(po.png, lines, n, groups, ngroups, &err);
    size_t problems = 0;
    for (size_t i = 0; i < rs.n; i++) problems += !rs.rows[i].ok;
    if (problems)
        fprintf(stderr,
                "mulred report: %zu of %zu runs failed, missing or pending (shown in the table)\n",
                problems, rs.n);
    free(lines);
    free(groups);
    free(rs.rows);
    return cli_report(&err);
}

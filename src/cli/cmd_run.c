/* mulred run JOBFILE: runs a job file, the "what to compute" half of a batch run (slurm/ is the
 * "where"). A job file is `key = value` lines with `#` comments whose keys mirror the long
 * options of the subcommand named by `kind`; `mulred run` turns it into that subcommand's argv
 * and calls it in-process, so a job behaves exactly like the equivalent command line.
 *
 * One job may hold several runs: `flavor = bitcoin, kaspa` runs the workload once per flavor, in
 * the order written. Every rank parses the job file (ranks share a file system under Slurm and
 * mpirun alike) and reaches the same verdict, so a bad file fails on all ranks before any
 * collective call; only rank 0 prints.
 *
 * Output: human text, or with --json one object
 *   {"job":…, "status":"ok"|"failed", "exit_status":N, "environment":{…},
 *    "load_average":{"start":…, "end":…}, "runs":[…]}
 * whose runs are the subcommand's own --json objects, byte for byte. That envelope is what
 * slurm/mulred.sbatch stores as results/JOBID.json and what `mulred report` reads. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r, mkstemp, fdopen */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mulred/dist.h"
#include "util/json.h"
#include "util/util.h"

#define JOB_MAX_ARGS 256
#define JOB_MAX_RUNS 8

typedef struct {
    const char *path; /* the job file as given */
    char dir[4096];   /* its directory, for relative input paths */
    char *kind;
    char *flavors[JOB_MAX_RUNS];
    int nflavors;
    char *args[JOB_MAX_ARGS]; /* options shared by every run (malloc'd strings) */
    int nargs;
    char *output;
    bool json;
    int seen_line[16]; /* line where each single-valued key was set, for duplicates */
} job_spec;

enum {
    K_KIND,
    K_FLAVOR,
    K_INSERT,
    K_REMOVE,
    K_SNAPSHOT,
    K_TXOUTSET,
    K_SYNTHETIC,
    K_SEED,
    K_THREADS,
    K_OUTPUT,
    K_JSON,
    K_PROGRESS,
    K_COUNT
};
static const struct {
    const char *name;
    bool repeatable;
} job_keys[K_COUNT] = {
    [K_KIND] = {"kind", false},           [K_FLAVOR] = {"flavor", false},
    [K_INSERT] = {"insert", true},        [K_REMOVE] = {"remove", true},
    [K_SNAPSHOT] = {"snapshot", false},   [K_TXOUTSET] = {"txoutset-hash", false},
    [K_SYNTHETIC] = {"synthetic", false}, [K_SEED] = {"seed", false},
    [K_THREADS] = {"threads", false},     [K_OUTPUT] = {"output", false},
    [K_JSON] = {"json", false},           [K_PROGRESS] = {"progress", false},
};

static char *job_strdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "mulred run: out of memory\n");
        exit(MULRED_ERUNTIME);
    }
    return d;
}

static void job_free(job_spec *job)
{
    free(job->kind);
    for (int i = 0; i < job->nflavors; i++) free(job->flavors[i]);
    for (int i = 0; i < job->nargs; i++) free(job->args[i]);
    free(job->output);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) e--;
    *e = '\0';
    return s;
}

static int parse_bool(const char *v, bool *out)
{
    static const char *yes[] = {"true", "yes", "on", "1"}, *no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0) return *out = true, 0;
        if (strcmp(v, no[i]) == 0) return *out = false, 0;
    }
    return -1;
}

static int job_push(job_spec *job, const char *a, const char *b)
{
    if (job->nargs + 2 > JOB_MAX_ARGS) return -1;
    job->args[job->nargs++] = job_strdup(a);
    if (b) job->args[job->nargs++] = job_strdup(b);
    return 0;
}

/* Input paths are relative to the job file's directory, so that a job works from any current
 * directory (sbatch runs in the submit directory, tests in their build directory). */
static char *job_input_path(const job_spec *job, const char *v)
{
    if (v[0] == '/' || strcmp(job->dir, ".") == 0) return job_strdup(v);
    size_t n = strlen(job->dir) + strlen(v) + 2;
    char *p = malloc(n);
    if (!p) return job_strdup(v);
    snprintf(p, n, "%s/%s", job->dir, v);
    return p;
}

static int job_error(mulred_error *err, const job_spec *job, int line, const char *fmt,
                     const char *a, const char *b)
{
    char reason[300];
    snprintf(reason, sizeof reason, fmt, a, b ? b : "");
    return mulred_error_set(err, MULRED_EINPUT, "%s:%d: %s", job->path, line, reason);
}

/* Parses one `key = value`; returns 0 or sets err to "FILE:LINE: reason". */
static int job_set(job_spec *job, int line, const char *key, char *value, mulred_error *err)
{
    int k = 0;
    while (k < K_COUNT && strcmp(job_keys[k].name, key) != 0) k++;
    if (k == K_COUNT)
        return job_error(err, job, line,
                         "unknown key '%s' (keys: kind, flavor, insert, remove, snapshot, "
                         "txoutset-hash, synthetic, seed, threads, output, json, progress)%s",
                         key, NULL);
    if (!*value) return job_error(err, job, line, "missing value for '%s'%s", key, NULL);
    if (!job_keys[k].repeatable) {
        if (job->seen_line[k])
            return mulred_error_set(err, MULRED_EINPUT, "%s:%d: '%s' already set on line %d",
                                    job->path, line, key, job->seen_line[k]);
        job->seen_line[k] = line;
    }
    bool flag;
    uint64_t n;
    char *end;
    switch (k) {
    case K_KIND:
        /* MSM subcommands will join here with their own keys. */
        if (strcmp(value, "muhash") != 0)
            return job_error(err, job, line, "unsupported kind '%s' (supported: muhash)%s", value,
                             NULL);
        job->kind = job_strdup(value);
        return 0;
    case K_FLAVOR:
        for (char *save = NULL, *f = strtok_r(value, ",", &save); f;
             f = strtok_r(NULL, ",", &save)) {
            f = trim(f);
            if (strcmp(f, "bitcoin") != 0 && strcmp(f, "kaspa") != 0)
                return job_error(err, job, line, "bad flavor '%s' (bitcoin or kaspa)%s", f, NULL);
            for (int i = 0; i < job->nflavors; i++)
                if (strcmp(job->flavors[i], f) == 0)
                    return job_error(err, job, line, "flavor '%s' listed twice%s", f, NULL);
            if (job->nflavors == JOB_MAX_RUNS)
                return job_error(err, job, line, "too many flavors%s%s", "", NULL);
            job->flavors[job->nflavors++] = job_strdup(f);
        }
        if (job->nflavors == 0)
            return job_error(err, job, line, "missing value for '%s'%s", key, NULL);
        return 0;
    case K_INSERT:
    case K_REMOVE:
    case K_SNAPSHOT: {
        char *p = job_input_path(job, value);
        char opt[32];
        snprintf(opt, sizeof opt, "--%s", key);
        int r = job_push(job, opt, p);
        free(p);
        if (r) return job_error(err, job, line, "too many options%s%s", "", NULL);
        return 0;
    }
    case K_TXOUTSET:
    case K_JSON:
    case K_PROGRESS:
        if (parse_bool(value, &flag))
            return job_error(err, job, line, "bad value '%s' for '%s' (true or false)", value, key);
        if (k == K_JSON)
            job->json = flag;
        else if (k == K_TXOUTSET && flag)
            job_push(job, "--txoutset-hash", NULL);
        else if (k == K_PROGRESS)
            job_push(job, flag ? "--progress" : "--no-progress", NULL);
        return 0;
    case K_SYNTHETIC:
        if (mulred_parse_count(value, &n) || n == 0)
            return job_error(err, job, line,
                             "bad value '%s' for 'synthetic' (a positive count: 200000, 2e5, "
                             "200k)%s",
                             value, NULL);
        job_push(job, "--synthetic", value);
        return 0;
    case K_SEED:
        errno = 0;
        (void)strtoull(value, &end, 0);
        if (errno || *end || value[0] == '-')
            return job_error(err, job, line, "bad value '%s' for 'seed' (an unsigned integer)%s",
                             value, NULL);
        job_push(job, "--seed", value);
        return 0;
    case K_THREADS:
        errno = 0;
        n = strtoull(value, &end, 10);
        if (errno || *end || value[0] == '-' || n == 0 || n > 4096)
            return job_error(err, job, line, "bad value '%s' for 'threads' (1 to 4096)%s", value,
                             NULL);
        job_push(job, "--threads", value);
        return 0;
    case K_OUTPUT:
        job->output = job_strdup(value); /* relative to the current directory, like --output */
        return 0;
    }
    return 0;
}

/* Reads and checks the whole job file before anything runs. */
static int job_parse(job_spec *job, const char *path, mulred_error *err)
{
    memset(job, 0, sizeof *job);
    job->path = path;
    snprintf(job->dir, sizeof job->dir, "%s", path);
    char *slash = strrchr(job->dir, '/');
    if (slash)
        *(slash == job->dir ? slash + 1 : slash) = '\0';
    else
        strcpy(job->dir, ".");

    char *text;
    size_t len;
    if (mulred_read_file(path, &text, &len, err)) {
        err->status = MULRED_EINPUT; /* a job file we cannot read is bad input */
        return err->status;
    }
    if (strlen(text) != len) {
        free(text);
        return mulred_error_set(err, MULRED_EINPUT, "%s: contains a NUL byte", path);
    }
    int line = 0, status = 0;
    for (char *save = NULL, *l = text; !status && l; l = save) {
        line++;
        char *nl = strchr(l, '\n');
        save = nl && nl[1] ? nl + 1 : NULL;
        if (nl) *nl = '\0';
        char *hash = strchr(l, '#');
        if (hash) *hash = '\0';
        char *s = trim(l);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            status = job_error(err, job, line, "expected 'key = value', got '%s'%s", s, NULL);
            break;
        }
        *eq = '\0';
        char *key = trim(s), *value = trim(eq + 1);
        if (!*key)
            status = job_error(err, job, line, "missing key before '='%s%s", "", NULL);
        else
            status = job_set(job, line, key, value, err);
    }
    free(text);
    if (status) return status;
    if (!job->kind)
        return mulred_error_set(err, MULRED_EINPUT, "%s:%d: missing 'kind' (kind = muhash)", path,
                                line);
    if (job->nflavors == 0) job->flavors[job->nflavors++] = job_strdup("bitcoin");
    return 0;
}

/* The launch environment, recorded so a result file says where it came from. */
static void write_environment(mulred_json_writer *w)
{
    static const char *vars[] = {
        "SLURM_JOB_ID",          "SLURM_JOB_NAME",      "SLURM_JOB_NUM_NODES",
        "SLURM_JOB_NODELIST",    "SLURM_NTASKS",        "SLURM_CPUS_PER_TASK",
        "SLURM_NTASKS_PER_NODE", "SLURM_JOB_PARTITION", "SLURM_CLUSTER_NAME",
        "OMP_NUM_THREADS",       "OMP_PLACES",          "OMP_PROC_BIND",
        "MULRED_LAUNCHER"};
    mulred_jw_object_begin(w, "environment");
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) mulred_jw_string(w, vars[i], v);
    }
    mulred_jw_object_end(w);
}

/* Rank 0: reads one run's result and, for --json, checks it is one object to splice. */
static int collect_run(bool json, const char *tmp, char **text, mulred_error *err)
{
    size_t len;
    if (mulred_read_file(tmp, text, &len, err)) return cli_report(err);
    if (!json) return MULRED_OK;
    mulred_json_value *v = mulred_json_parse(*text, len, "muhash --json", err);
    bool ok = v && v->type == MULRED_JSON_OBJECT;
    mulred_json_free(v);
    if (ok) return MULRED_OK;
    if (v) mulred_error_set(err, MULRED_ERUNTIME, "muhash --json: not an object");
    err->status = MULRED_ERUNTIME;
    return cli_report(err);
}

/* The host's 1-minute load average (Linux), or -1. On a shared machine it explains a slow
 * run: a strong-scaling row measured at load 6 on 2 cores is not a scaling result. */
static double load_average(void)
{
    double load = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1) load = -1;
        fclose(f);
    }
    return load;
}

static void run_usage(void)
{
    cli_out("Usage: mulred run JOBFILE [--json] [--output FILE]\n"
            "\n"
            "Runs a job file: 'key = value' lines ('#' starts a comment) whose keys mirror the\n"
            "long options of the subcommand named by 'kind' (kind = muhash):\n"
            "  kind, flavor, insert, remove, snapshot, txoutset-hash, synthetic, seed, threads,\n"
            "  output, json, progress\n"
            "insert and remove may repeat. 'flavor = bitcoin, kaspa' runs the workload once per\n"
            "flavor. Relative input paths are relative to the job file's directory; output is\n"
            "relative to the current directory.\n"
            "\n"
            "  --json         print one JSON object: {job, status, exit_status, environment,\n"
            "                 runs: [one 'mulred muhash --json' object per run]}\n"
            "  --output FILE  write the result to FILE (overrides the job's 'output')\n"
            "\n"
            "Under mpirun or srun every rank runs the job; rank 0 prints. A bad job file exits\n"
            "with status 2 and 'FILE:LINE: reason' before anything runs.\n");
}

int mulred_cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, 0, 'j'},
                                         {"output", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    bool json = false;
    const char *output = NULL;
    cli_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        if (c == 'h') return run_usage(), MULRED_OK;
        if (c == 'j')
            json = true;
        else if (c == 'o')
            output = optarg;
        else
            return cli_bad_option("run", argc, argv);
    }
    if (optind >= argc) return cli_usage_error("run", "missing JOBFILE");
    if (optind + 1 < argc)
        return cli_usage_error("run", "unexpected argument '%s'", argv[optind + 1]);

    mulred_error err;
    mulred_error_clear(&err);
    job_spec job;
    if (job_parse(&job, argv[optind], &err)) {
        job_free(&job);
        return cli_report(&err);
    }
    json = json || job.json;
    if (!output) output = job.output;

    /* Each run writes its result to a private temporary file on rank 0 (other ranks print
     * nothing and get /dev/null); rank 0 then prints or splices it. */
    char tmp[4096];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/mulred-run-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    bool root = cli_is_root();
    if (root) {
        int fd = mkstemp(tmp);
        if (fd < 0)
            mulred_error_set(&err, MULRED_ERUNTIME, "run: cannot create a temporary file %s: %s",
                             tmp, strerror(errno));
        else
            close(fd);
    }
    /* Collective: a rank that cannot go on must not leave the others in a reduce. */
    if (mulred_dist_agree(&err) != MULRED_OK) {
        job_free(&job);
        return cli_report(&err);
    }
    double load_start = root ? load_average() : -1;
    char *texts[JOB_MAX_RUNS] = {0};
    int status = MULRED_OK, done = 0;
    for (int r = 0; r < job.nflavors && status == MULRED_OK; r++) {
        char *av[JOB_MAX_ARGS + 16];
        int ac = 0;
        av[ac++] = "muhash";
        av[ac++] = "--flavor";
        av[ac++] = job.flavors[r];
        for (int i = 0; i < job.nargs; i++) av[ac++] = job.args[i];
        if (json) av[ac++] = "--json";
        av[ac++] = "--output";
        av[ac++] = root ? tmp : "/dev/null";
        av[ac] = NULL;
        status = mulred_cmd_muhash(ac, av);
        fflush(stdout);
        if (status == MULRED_OK && root) status = collect_run(json, tmp, &texts[r], &err);
        /* Rank 0 alone reads the result; all ranks must agree before the next collective run. */
        mulred_error agreed;
        mulred_error_clear(&agreed);
        agreed.status = status;
        status = mulred_dist_agree(&agreed);
        if (status == MULRED_OK) done = r + 1;
    }
    if (root) unlink(tmp);

    if (root) {
        FILE *out = stdout;
        if (output && !(out = fopen(output, "w"))) {
            fprintf(stderr, "mulred run: %s: %s\n", output, strerror(errno));
            if (status == MULRED_OK) status = MULRED_ERUNTIME;
            out = NULL;
        }
        if (out && json) {
            mulred_json_writer w;
            mulred_jw_init(&w, out);
            mulred_jw_object_begin(&w, NULL);
            mulred_jw_string(&w, "job", job.path);
            mulred_jw_string(&w, "status", status == MULRED_OK ? "ok" : "failed");
            mulred_jw_int(&w, "exit_status", status);
            write_environment(&w);
            if (load_start >= 0) {
                mulred_jw_object_begin(&w, "load_average");
                mulred_jw_double(&w, "start", load_start);
                mulred_jw_double(&w, "end", load_average());
                mulred_jw_object_end(&w);
            }
            mulred_jw_array_begin(&w, "runs");
            for (int r = 0; r < done; r++) {
                char *t = trim(texts[r]);
                fprintf(out, "%s%s", r ? "," : "", t);
            }
            mulred_jw_array_end(&w);
            mulred_jw_object_end(&w);
            mulred_jw_finish(&w);
        } else if (out) {
            for (int r = 0; r < done; r++)
                fprintf(out, "== %s run %d/%d: kind %s, flavor %s\n%s", job.path, r + 1,
                        job.nflavors, job.kind, job.flavors[r], texts[r]);
        }
        if (out && out != stdout && fclose(out) && status == MULRED_OK) {
            fprintf(stderr, "mulred run: %s: %s\n", output, strerror(errno));
            status = MULRED_ERUNTIME;
        }
    }
    for (int r = 0; r < JOB_MAX_RUNS; r++) free(texts[r]);
    job_free(&job);
    return status;
}

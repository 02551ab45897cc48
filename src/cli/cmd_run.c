/* mulred run JOBFILE: runs a job file, the "what to compute" half of a batch run (slurm/ is the
 * "where"). A job file is `key = value` lines with `#` comments; `kind` names a job kind
 * (cli/job.h) whose keys are the long options of the subcommand of that name, parsed by the same
 * setters into the same options struct, so a job behaves exactly like the equivalent command
 * line. The job is read and checked whole before anything runs.
 *
 * One job may hold several runs: `flavor = bitcoin, kaspa` runs the workload once per flavor, in
 * the order written. Every rank parses the job file (ranks share a file system under Slurm and
 * mpirun alike) and reaches the same verdict, so a bad file fails on all ranks before any
 * collective call; only rank 0 prints.
 *
 * Output: human text, or with --json one object
 *   {"job":…, "status":"ok"|"failed", "exit_status":N, "environment":{…},
 *    "load_average":{"start":…, "end":…}, "runs":[…]}
 * whose runs are written by the kind's result writer, the same that `mulred KIND --json` uses,
 * so each is byte for byte that command's object. That envelope is what slurm/mulred.sbatch
 * stores as results/JOBID.json and what `mulred report` reads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_msm.h"
#include "cli/cmd_muhash.h"
#include "cli/job.h"
#include "mulred/mulred_mpi.h"
#include "output/json.h"
#include "output/result_fields.h"

/* The kinds a job file may name: its `kind = NAME`. */
static const cli_job_kind *const kind_list[] = {&cli_kind_muhash, &cli_kind_msm};
static const cli_job_kinds job_kinds = {kind_list, sizeof kind_list / sizeof kind_list[0]};

/* The launch environment, recorded so a result file says where it came from. */
static void write_environment(mulred_json_writer *w)
{
    static const char *vars[] = {
        "SLURM_JOB_ID",          "SLURM_JOB_NAME",      "SLURM_JOB_NUM_NODES",
        "SLURM_JOB_NODELIST",    "SLURM_NTASKS",        "SLURM_CPUS_PER_TASK",
        "SLURM_NTASKS_PER_NODE", "SLURM_JOB_PARTITION", "SLURM_CLUSTER_NAME",
        "OMP_NUM_THREADS",       "OMP_PLACES",          "OMP_PROC_BIND",
        "MULRED_LAUNCHER"};
    mulred_jw_object_begin(w, MULRED_RF_ENVIRONMENT);
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) mulred_jw_string(w, vars[i], v);
    }
    mulred_jw_object_end(w);
}

/* The job keys of a kind, as run_usage lists them: its table's keys but those of the command line
 * alone, a list-taking one (MULRED_KEY_CHOICE) marked *, a repeatable one +, wrapped at 88. */
static void usage_keys(const char *kind, const mulred_key *const *keys, size_t nkeys)
{
    char line[128];
    int len = snprintf(line, sizeof line, "  %s:", kind);
    bool first = true;
    for (size_t i = 0; i < nkeys; i++) {
        if (keys[i]->use == MULRED_KEY_COMMAND_LINE) continue;
        const char *mark = keys[i]->use == MULRED_KEY_CHOICE ? "*" : keys[i]->repeatable ? "+" : "";
        if (!first && len + 2 + (int)(strlen(keys[i]->name) + strlen(mark)) > 88) {
            mulred_out("%s,\n", line);
            len = snprintf(line, sizeof line, "%10s", "");
        } else if (!first) {
            len += snprintf(line + len, sizeof line - (size_t)len, ",");
        }
        len += snprintf(line + len, sizeof line - (size_t)len, "%*s%s%s",
                        first ? 10 - len : (len > 10), "", keys[i]->name, mark);
        first = false;
    }
    mulred_out("%s\n", line);
}

static void run_usage(void)
{
    char names[256];
    cli_job_kind_names(names, sizeof names, &job_kinds);
    mulred_out("Usage: mulred run JOBFILE [--json[=BOOL]] [--output FILE]\n"
               "\n"
               "Runs a job file: 'key = value' lines ('#' starts a comment) whose keys are the\n"
               "long options of the subcommand named by 'kind' (kind = %s), parsed by the\n"
               "same code, so a value means the same in both. The keys of each kind (* takes a\n"
               "list, + may repeat):\n",
               names);
    const mulred_key *keys[64];
    for (size_t k = 0; k < job_kinds.n; k++) {
        const cli_job_kind *kind = job_kinds.kinds[k];
        size_t n = 0;
        for (const mulred_key *key; n < 64 && (key = cli_kind_key_at(kind, n)) != NULL; n++)
            keys[n] = key;
        usage_keys(kind->name, keys, n);
    }
    static const mulred_key kind_key = {"kind", false, false, false, NULL};
    size_t n = 0;
    keys[n++] = &kind_key;
    for (size_t i = 0; i < cli_output_nkeys && n < 8; i++) keys[n++] = &cli_output_keys[i];
    usage_keys("all", keys, n);
    mulred_out("A key marked * takes a comma-separated list of values, one run each:\n"
               "'flavor = bitcoin, kaspa' runs the workload once per flavor,\n"
               "'curve = bls12-381, bn254' once per curve. Several lists run every combination,\n"
               "the first list varying slowest ('curve = bls12-381, bn254' and 'group = g1, g2':\n"
               "4 runs), at most %d. Such a job with 'checkpoint = DIR' keeps the units of each\n"
               "run in a subdirectory of DIR named by its values, DIR/curve=bn254,group=g2 (a job\n"
               "of one run keeps them in DIR).\n"
               "Relative input and checkpoint paths are relative to the job file's directory;\n"
               "output is relative to the current directory; '-' is standard input (a job of one\n"
               "run only). A flag is true/false in a job file and --NAME or --NAME=BOOL on the\n"
               "command line.\n"
               "\n"
               "  --json[=BOOL]  print one JSON object: {job, status, exit_status, environment,\n"
               "                 runs: [one 'mulred KIND --json' object per run]}\n"
               "  --output FILE  write the result to FILE (overrides the job's 'output')\n"
               "\n"
               "Under mpirun or srun every rank runs the job; rank 0 prints. A bad job file exits\n"
               "with status 2 and 'FILE:LINE: reason' before anything runs.\n",
               CLI_JOB_MAX_RUNS);
}

/* The checkpoint directory of a job of several runs, which holds one subdirectory per run:
 * created 0700 when missing and, as each run's own (mulred_checkpoint_open), refused when it is
 * not a directory of this user or others may write to it. Collective: every rank makes sure of
 * it (each opens the directories of its runs' units) and the ranks agree on the verdict. */
static mulred_status run_checkpoint_dir(const char *dir, mulred_error *err)
{
    struct stat st;
    mulred_error_clear(err);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        mulred_error_set(err, errno == ENOENT || errno == ENOTDIR ? MULRED_EINPUT : MULRED_ERUNTIME,
                         "checkpoint directory %s: cannot create: %s", dir, strerror(errno));
    else if (stat(dir, &st) != 0)
        mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot stat: %s", dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        mulred_error_set(err, MULRED_EINPUT, "checkpoint directory %s is not a directory", dir);
    else if (st.st_uid != geteuid())
        mulred_error_set(err, MULRED_EINPUT,
                         "checkpoint directory %s is owned by uid %u, not by this user (uid %u): "
                         "a checkpoint is trusted state",
                         dir, (unsigned)st.st_uid, (unsigned)geteuid());
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        mulred_error_set(err, MULRED_EINPUT,
                         "checkpoint directory %s is writable by %s (mode %04o): a checkpoint is "
                         "trusted state; chmod go-w it or use another",
                         dir, (st.st_mode & S_IWOTH) ? "others" : "its group",
                         (unsigned)(st.st_mode & 07777));
    return mulred_mpi_active() ? mulred_mpi_agree(MPI_COMM_WORLD, err) : err->status;
}

/* --json and --output: the job's own output keys, remembered as given (they override the
 * job file's json and output). */
typedef struct {
    cli_output_opts out;
    bool json_set, output_set;
} run_opts;

static mulred_exit run_set(run_opts *o, const char *name, const char *v, mulred_key_parser *p,
                           char *why, size_t cap)
{
    return mulred_key_find(cli_output_keys, cli_output_nkeys, name)->set(&o->out, v, p, why, cap);
}

static mulred_exit run_set_json(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    ((run_opts *)o)->json_set = true;
    return run_set(o, "json", v, p, why, cap);
}

static mulred_exit run_set_output(void *o, const char *v, mulred_key_parser *p, char *why,
                                  size_t cap)
{
    ((run_opts *)o)->output_set = true;
    return run_set(o, "output", v, p, why, cap);
}

static const mulred_key run_keys[] = {
    {"json", true, false, false, run_set_json},
    {"output", false, false, false, run_set_output},
};

mulred_exit mulred_cmd_run(int argc, char **argv)
{
    run_opts cmd = {0};
    mulred_key_parser p = {0};
    mulred_key_rest rest;
    const mulred_key_table table = {run_keys, sizeof run_keys / sizeof run_keys[0], &cmd};
    const mulred_key_request req = {"run", &table, 1, 1, run_usage};
    mulred_exit rc;
    if (!mulred_key_parse(&req, argc, argv, &p, &rest, &rc)) return mulred_key_parser_free(&p), rc;
    const char *path = rest.nargs ? rest.args[0] : NULL;
    mulred_key_rest_free(&rest);
    if (!path) return mulred_key_parser_free(&p), mulred_out_usage_error("run", "missing JOBFILE");

    mulred_error err;
    mulred_error_clear(&err);
    cli_job job;
    if (cli_job_parse(&job, path, &job_kinds, &err)) {
        cli_job_free(&job);
        mulred_key_parser_free(&p);
        return mulred_out_error(&err);
    }
    const cli_job_kind *kind = job.kind;
    bool json = cmd.json_set ? cmd.out.json : job.out.json;
    const char *output = cmd.output_set ? cmd.out.output : job.out.output;

    bool root = cli_is_root();
    double load_start = root ? mulred_out_load_average() : -1;
    void **results = calloc((size_t)job.nruns, sizeof *results);
    int status = results ? MULRED_OK : mulred_error_set(&err, MULRED_ERUNTIME, "out of memory");
    int done = 0;
    if (status == MULRED_OK && job.checkpoint) status = run_checkpoint_dir(job.checkpoint, &err);
    for (int r = 0; r < job.nruns && status == MULRED_OK; r++) {
        if (!(results[r] = calloc(1, kind->result_size))) {
            status = mulred_error_set(&err, MULRED_ERUNTIME, "out of memory");
            break;
        }
        /* run() ends in agreement: every rank leaves it with the same status. */
        mulred_error_clear(&err);
        status = kind->run(job.runs[r], results[r], &err);
        if (status == MULRED_OK) done = r + 1;
    }
    if (status != MULRED_OK) mulred_out_error(&err);

    if (root) {
        mulred_error werr;
        mulred_error_clear(&werr);
        FILE *out = cli_output_open(output, &werr);
        if (out && json) {
            mulred_json_writer w;
            mulred_jw_init(&w, out);
            mulred_jw_object_begin(&w, NULL);
            mulred_jw_string(&w, MULRED_RF_JOB, job.path);
            mulred_jw_string(&w, MULRED_RF_STATUS, status == MULRED_OK ? "ok" : "failed");
            mulred_jw_int(&w, MULRED_RF_EXIT_STATUS, status);
            write_environment(&w);
            if (load_start >= 0) {
                mulred_jw_object_begin(&w, MULRED_RF_LOAD_AVERAGE);
                mulred_jw_double(&w, MULRED_RF_START, load_start);
                mulred_jw_double(&w, MULRED_RF_END, mulred_out_load_average());
                mulred_jw_object_end(&w);
            }
            mulred_jw_array_begin(&w, MULRED_RF_RUNS);
            for (int r = 0; r < done; r++) kind->write_json(&w, job.runs[r], results[r]);
            mulred_jw_array_end(&w);
            mulred_jw_object_end(&w);
            mulred_jw_finish(&w);
        } else if (out) {
            for (int r = 0; r < done; r++) {
                char what[512];
                if (job.nlists)
                    cli_job_run_name(what, sizeof what, &job, r, " ", ", ");
                else
                    kind->describe(what, sizeof what, job.runs[r]);
                fprintf(out, "== %s run %d/%d: kind %s, %s\n", job.path, r + 1, job.nruns,
                        kind->name, what);
                kind->write_text(out, job.runs[r], results[r]);
            }
        }
        if (out) cli_output_close(out, output, &werr);
        if (werr.status != MULRED_OK) {
            fprintf(stderr, "mulred run: %s\n", werr.message);
            if (status == MULRED_OK) status = werr.status;
        }
    }
    for (int r = 0; results && r < job.nruns; r++) free(results[r]);
    free(results);
    cli_job_free(&job);
    mulred_key_parser_free(&p);
    return status;
}

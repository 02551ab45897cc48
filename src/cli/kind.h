/* Kinds of job: what `mulred KIND [options]` computes and what `kind = KIND` in a job file runs
 * (cli/job.h), with one options struct, key tables, one run function and one result writer per
 * kind.
 *
 * The command line and job files fill the same options struct through the same keys
 * (input/keys.h); run() computes on every rank (a collective: all ranks enter it with equal
 * options) and leaves the result on rank 0; write_json and write_text print it. A kind of a
 * distributed job embeds the library's job struct (mulred/mulred_mpi.h) in its options: its keys
 * write straight into the job's fields, the keys every distributed job has (cli_dist_keys) once
 * for all kinds. A new job-file kind is one more cli_job_kind and one more entry in the list
 * `mulred run` passes to the job-file reader (cmd_run.c). */
#ifndef MULRED_CLI_KIND_H
#define MULRED_CLI_KIND_H

#include <stdbool.h>
#include <stdio.h>

#include "mulred/mulred.h"
#include "mulred/plan.h"
#include "output/json.h"
#include "input/keys.h"

/* The fields every distributed job of the library has under the same names
 * (mulred_mpi_muhash_job, mulred_mpi_msm_job), as cli_dist_keys sets them. */
typedef struct {
    uint64_t *seed;
    int *threads;
    const char **checkpoint;
    uint64_t *checkpoint_unit;
    mulred_schedule *schedule;
    double *stall_timeout;
} cli_dist_opts;
/* The cli_dist_opts of a library job (an lvalue of any distributed job struct). */
#define CLI_DIST_OPTS(job)                                                                         \
    ((cli_dist_opts){&(job).seed, &(job).threads, &(job).checkpoint, &(job).checkpoint_unit,       \
                     &(job).schedule, &(job).stall_timeout})
/* seed, threads, checkpoint, checkpoint-unit, schedule, stall-timeout: one key each, meaning the
 * same in every distributed kind; the table's options are a cli_dist_opts. */
extern const mulred_key cli_dist_keys[];
extern const size_t cli_dist_nkeys;

typedef struct {
    const char *name;       /* "muhash": the job's kind and the subcommand */
    const mulred_key *keys; /* the kind's own keys */
    size_t nkeys;
    /* The fields of the library job in the options that cli_dist_keys set; NULL: the kind has
     * no distributed keys. */
    void (*dist)(void *opts, cli_dist_opts *fields);
    /* Where the distributed keys go among the kind's own, in listings and key numbers: before
     * its own key of this name (NULL: after the last). */
    const char *dist_before;
    /* The key naming a checkpoint directory ("checkpoint"): each run of a job of several runs
     * keeps its units in a subdirectory of it (cli_job). NULL: none. */
    const char *checkpoint_key;
    size_t opts_size, result_size;
    void (*defaults)(void *opts);
    /* Checks the options as a whole once every key is set. Returns 0, or MULRED_OUT_EUSAGE
     * with the reason in why and, in *fault, the name of the key at fault (a job file names the
     * line that set it). dash is "--" on the command line and "" in a job file, for naming keys
     * in the reason. */
    mulred_exit (*check)(const void *opts, const char *dash, const char **fault, char *why,
                         size_t cap);
    /* Collective. Returns MULRED_OK, or a status with err set (the same status on every rank;
     * the message on rank 0). result is meaningful on rank 0. */
    mulred_status (*run)(const void *opts, void *result, mulred_error *err);
    void (*write_json)(mulred_json_writer *w, const void *opts, const void *result);
    void (*write_text)(FILE *out, const void *opts, const void *result);
    /* What a run computes, in a word ("flavor kaspa"), for the header of a job of one run (a
     * job of several names each run by its list values). */
    void (*describe)(char *out, size_t cap, const void *opts);
    void (*usage)(void);
} cli_job_kind;

/* The keys of a kind: its own, with the distributed ones (when it has them) before its own key
 * dist_before, numbered from 0 in that order. The i-th (NULL past the last). */
const mulred_key *cli_kind_key_at(const cli_job_kind *kind, size_t i);
size_t cli_kind_nkeys(const cli_job_kind *kind);
/* The key of that name ('_' and '-' alike) and its number in *index; NULL when there is none. */
const mulred_key *cli_kind_key(const cli_job_kind *kind, const char *name, size_t *index);
/* Sets key (one of the kind's) in opts, as mulred_key_apply does. */
mulred_exit cli_kind_apply(const cli_job_kind *kind, const mulred_key *key, void *opts,
                           const char *value, mulred_key_parser *p, const char *label, char *why,
                           size_t cap);

/* Where and how a result is printed: --json and --output FILE on the command line, json and
 * output in a job file (one parser for both). */
typedef struct {
    bool json;
    const char *output; /* NULL: standard output */
} cli_output_opts;
extern const mulred_key cli_output_keys[];
extern const size_t cli_output_nkeys;

/* `mulred KIND [options]`: parses argv (argv[0] is the subcommand) with the kind's keys plus
 * --json, --output FILE and --help, checks, runs on every rank and prints the result on rank
 * 0. A flag takes an optional value, --json=false, as in a job file. Returns the exit status. */
mulred_exit cli_run_kind(const cli_job_kind *kind, int argc, char **argv);
/* A library note (mulred_mpi_note_fn), printed as "mulred: warning: MESSAGE" on stderr by the
 * rank that saw it. */
void cli_warn_note(const char *message, void *data);

/* Opens the result file on rank 0 (NULL path: stdout). Returns NULL and sets err
 * (MULRED_ERUNTIME) when it cannot. */
FILE *cli_output_open(const char *path, mulred_error *err);
/* Closes what cli_output_open returned; a failed write or close sets err. */
mulred_status cli_output_close(FILE *out, const char *path, mulred_error *err);

#endif

/* Kinds of job: what `mulred KIND [options]` computes and what `kind = KIND` in a job file runs,
 * with one options struct, one key table, one run function and one result writer per kind.
 *
 * The command line and job files fill the same options struct through the same keys
 * (output/keys.h); run() computes on every rank (a collective: all ranks enter it with equal
 * options) and leaves the result on rank 0; write_json and write_text print it. A new kind is
 * one more cli_job_kind and one more entry in the table of cli_job_kind_find. */
#ifndef MULRED_CLI_JOB_H
#define MULRED_CLI_JOB_H

/* A job file longer than this is refused (exit 2) without being read whole. */
#define MULRED_JOB_MAX_BYTES ((size_t)16 << 20)

#include <stdbool.h>
#include <stdio.h>

#include "output/json.h"
#include "output/keys.h"
#include "mulred/mulred.h"

typedef struct {
    const char *name; /* "muhash": the job's kind and the subcommand */
    const mulred_key *keys;
    size_t nkeys;
    /* The key naming a checkpoint directory ("checkpoint"): each run of a job of several runs
     * keeps its units in a subdirectory of it (cli_job). NULL: none. */
    const char *checkpoint_key;
    size_t opts_size, result_size;
    void (*defaults)(void *opts);
    /* Checks the options as a whole once every key is set. Returns MULRED_OK, or
     * CLI_EUSAGE with the reason in why and, in *fault, the name of the key at fault (a job
     * file names the line that set it). dash is "--" on the command line and "" in a job file,
     * for naming keys in the reason. */
    int (*check)(const void *opts, const char *dash, const char **fault, char *why, size_t cap);
    /* Collective. Returns MULRED_OK, or a status with err set (the same status on every rank;
     * the message on rank 0). result is meaningful on rank 0. */
    int (*run)(const void *opts, void *result, mulred_error *err);
    void (*write_json)(mulred_json_writer *w, const void *opts, const void *result);
    void (*write_text)(FILE *out, const void *opts, const void *result);
    /* What a run computes, in a word ("flavor kaspa"), for the header of a job of one run (a
     * job of several names each run by its list values). */
    void (*describe)(char *out, size_t cap, const void *opts);
    void (*usage)(void);
} cli_job_kind;

extern const cli_job_kind cli_kind_muhash;
extern const cli_job_kind cli_kind_msm;
/* Not a job-file kind (one commitment is one fixed-base MSM of 4096 points): the command line
 * only. */
extern const cli_job_kind cli_kind_kzg_commit;

/* The kinds a job file may name; NULL when name is none of them. */
const cli_job_kind *cli_job_kind_find(const char *name);
/* The i-th kind a job file may name (in the order of cli_job_kind_names); NULL past the last. */
const cli_job_kind *cli_job_kind_at(size_t i);
/* "muhash" (the names of all kinds, comma-separated, for messages). */
const char *cli_job_kind_names(void);

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
int cli_run_kind(const cli_job_kind *kind, int argc, char **argv);
/* A library note (mulred_mpi_note_fn), printed as "mulred: warning: MESSAGE" on stderr by the
 * rank that saw it. */
void cli_warn_note(const char *message, void *data);

/* Opens the result file on rank 0 (NULL path: stdout). Returns NULL and sets err
 * (MULRED_ERUNTIME) when it cannot. */
FILE *cli_output_open(const char *path, mulred_error *err);
/* Closes what cli_output_open returned; a failed write or close sets err. */
int cli_output_close(FILE *out, const char *path, mulred_error *err);

/* ---- job files ---- */

/* The most runs one job may hold: the product of the lengths of its lists. */
#define CLI_JOB_MAX_RUNS 64

/* A choice key (MULRED_KEY_CHOICE) given several values: curve = bls12-381, bn254. */
typedef struct {
    const char *key;    /* its name in the kind's table */
    const char **items; /* the values as written, in order (kept by the job's parser) */
    int nitems, line;
} cli_job_list;

typedef struct {
    const char *path; /* the job file as given */
    const cli_job_kind *kind;
    /* The lists, in the order of the file; the job runs once per combination of their items,
     * the first list varying slowest (cli_job_value). No list: one run. */
    cli_job_list *lists;
    int nlists;
    void **runs; /* options of each run (kind->opts_size bytes each) */
    int nruns;
    /* A job of several runs with a checkpoint directory DIR: DIR (relative to the job's
     * directory when written so), whose subdirectory KEY=VALUE,KEY=VALUE (cli_job_run_name)
     * each run's units go to. NULL otherwise (one run keeps its units in DIR itself). */
    const char *checkpoint;
    cli_output_opts out;
    mulred_key_parser parser; /* owns the strings the options point to */
    char dir[4096];           /* the job's directory: relative inputs start there */
} cli_job;

/* Reads and checks a whole job file before anything runs: `key = value` lines, `#` comments,
 * keys kind (required), json, output and the keys of the kind. Returns MULRED_OK, or
 * MULRED_EINPUT with "FILE:LINE: reason" (MULRED_ERUNTIME when out of memory). Every rank
 * parses the file and reaches the same verdict. cli_job_free releases it either way. */
int cli_job_parse(cli_job *job, const char *path, mulred_error *err);
void cli_job_free(cli_job *job);
/* The item of list l that run r takes. */
const char *cli_job_value(const cli_job *job, int run, int list);
/* Run r's list values, KEY EQ VALUE joined by sep: "curve=bn254,group=g2" (eq "=", sep ","), the
 * name of its checkpoint subdirectory; "curve bn254, group g2" (eq " ", sep ", "). "" when the
 * job has no list. */
void cli_job_run_name(char *out, size_t cap, const cli_job *job, int run, const char *eq,
                      const char *sep);

#endif

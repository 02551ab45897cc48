/* Job files: `mulred run JOBFILE` (cmd_run.c) runs a job of one of the kinds of cli/kind.h,
 * read from `key = value` lines through the kind's keys, the same setters the command line of
 * `mulred KIND` uses (kind.c), so a job file and a command line accept and reject the same
 * values. */
#ifndef MULRED_CLI_JOB_H
#define MULRED_CLI_JOB_H

/* A job file longer than this is refused (exit 2) without being read whole. */
#define MULRED_JOB_MAX_BYTES ((size_t)16 << 20)

#include <stdbool.h>
#include <stdio.h>

#include "cli/kind.h"
#include "input/keys.h"
#include "mulred/mulred.h"

/* The kinds a job file may name (`mulred run` lists them), in the order messages name them. */
typedef struct {
    const cli_job_kind *const *kinds;
    size_t n;
} cli_job_kinds;

/* The kind of that name; NULL when name is none of them. */
const cli_job_kind *cli_job_kind_find(const cli_job_kinds *kinds, const char *name);
/* "muhash, msm" (the names of all kinds, comma-separated, for messages) into out. */
void cli_job_kind_names(char *out, size_t cap, const cli_job_kinds *kinds);

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
 * keys kind (required: one of kinds), json, output and the keys of the kind. Returns MULRED_OK, or
 * MULRED_EINPUT with "FILE:LINE: reason" (MULRED_ERUNTIME when out of memory). Every rank
 * parses the file and reaches the same verdict. cli_job_free releases it either way. */
mulred_status cli_job_parse(cli_job *job, const char *path, const cli_job_kinds *kinds,
                            mulred_error *err);
void cli_job_free(cli_job *job);
/* The item of list l that run r takes. */
const char *cli_job_value(const cli_job *job, int run, int list);
/* Run r's list values, KEY EQ VALUE joined by sep: "curve=bn254,group=g2" (eq "=", sep ","), the
 * name of its checkpoint subdirectory; "curve bn254, group g2" (eq " ", sep ", "). "" when the
 * job has no list. */
void cli_job_run_name(char *out, size_t cap, const cli_job *job, int run, const char *eq,
                      const char *sep);

#endif

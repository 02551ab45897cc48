/* The report layer: what `mulred report` does with result files, as a library of the command
 * side (above output and lab, below bench and cli; no printing of its own beyond the files and
 * streams it is given, no exit()).
 *
 *   results.c          result and network files → rows (one per run, failed and missing ones too)
 *   scaling.c          rows → lines grouped by workload, each against its group's baseline
 *   table.c            lines → Markdown and CSV
 *   plot.c             gnuplot scripts and the scaling PNG
 *   project.c          the latency–bandwidth–I/O projection of a MuHash-like workload (model.h)
 *   project_msm.c      the projection of a distributed MSM (the grid planner as model)
 *   project_outputs.c  the output files of both projections
 *   constants.c        every built-in constant of the models, with its provenance
 *
 * Every function that can fail returns a mulred_status with the reason in err: MULRED_EINPUT
 * for a file that is not what it should be, MULRED_OUT_EUSAGE for options that cannot make a
 * model, MULRED_ERUNTIME for an output that cannot be written or memory that cannot be had. */
#ifndef MULRED_REPORT_REPORT_H
#define MULRED_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mulred/common.h"
#include "output/output.h"
#include "report/model.h"
#include "util/util.h"

/* ---- rows: one per run read, or per problem (missing, failed, pending, malformed) ---- */
typedef struct {
    char source[256];          /* file the row came from */
    char job[256];             /* job file, when known */
    char workload[300];        /* group key; for failures the job (or source) */
    char status[600];          /* "ok", "failed (exit 3)", "missing", "pending", "invalid: …" */
    char result[260];          /* the MuHash digest or the MSM point, hex */
    bool msm;                  /* a `mulred msm` run: points, not elements */
    int nodes, ranks, threads; /* 0 = unknown */
    double seconds, elements;
    double input_bytes; /* bytes of the input files, NAN unless read from files */
    /* msm runs: what the MSM projection calibrates its model with */
    char curve[16];
    int window, slices, groups, glv;
    double model_msm, msm_max, input_max, validate_max;
    double mpi_reduce_min; /* the fastest rank's reduce (MuHash: mpi_reduce; MSM: reduce) */
    double finalize_max;
    double compute; /* slowest rank's per-thread CPU seconds in generate + hash (MuHash) */
    double read;    /* slowest rank's per-thread seconds reading and decoding files (MuHash) */
    double load_start, load_end; /* host 1-minute load average around the job, NAN if unknown */
    bool ok;
} mulred_report_row;

typedef struct {
    mulred_report_row *rows;
    size_t n, cap;
} mulred_report_rows;

/* cores = ranks × threads */
int mulred_report_cores(const mulred_report_row *r);
/* The smallest successful run with elements of the kind (MSM or not): fewest cores, then the
 * fastest; NULL when there is none. What the projections measure their costs on. */
const mulred_report_row *mulred_report_smallest(const mulred_report_rows *rs, bool msm);
/* The loopback latency: the fastest rank's reduce in a multi-rank run of the kind (a leaf of the
 * tree only sends); NAN when there is none. */
double mulred_report_loopback(const mulred_report_rows *rs, bool msm);

/* Adds the rows of the result file at path (`mulred run --json` output, a bare `mulred
 * muhash|msm --json` object, or an array of either). A missing file is a row saying so; a file
 * that is not JSON is MULRED_EINPUT naming it with the line and column. */
mulred_status mulred_report_load(mulred_report_rows *rs, const char *path, mulred_error *err);
void mulred_report_rows_free(mulred_report_rows *rs);

/* The network constants `mulred bench comm --out FILE` measured. */
typedef struct {
    double latency, bandwidth;
    char source[256]; /* "measured by bench comm (FILE: R ranks on N nodes)" */
} mulred_report_net;

mulred_status mulred_report_load_net(mulred_report_net *net, const char *path, mulred_error *err);

/* ---- scaling: every ok row once, every failed row once per workload of its job ---- */
typedef struct {
    mulred_report_row *row;
    int group;
    double p, speedup, efficiency, karp_flatt;
    bool result_matches; /* the row's result is its baseline's */
} mulred_report_line;

typedef struct {
    char name[300];
    mulred_report_row *base; /* the smallest successful configuration; NULL if none */
} mulred_report_group;

typedef struct {
    mulred_report_line *lines;
    size_t nlines;
    mulred_report_group *groups;
    int ngroups;
} mulred_report_table;

/* Groups the rows by workload, picks each group's baseline (fewest cores, then fewest nodes)
 * and computes speedup, efficiency and Karp–Flatt against it; lines sorted by group, cores and
 * nodes. The table points into rs, which must outlive it. */
mulred_status mulred_report_scaling(mulred_report_table *t, mulred_report_rows *rs,
                                    mulred_error *err);
void mulred_report_table_free(mulred_report_table *t);

void mulred_report_write_markdown(FILE *out, const mulred_report_table *t);
void mulred_report_write_csv(FILE *out, const mulred_report_table *t);

/* ---- gnuplot ---- */
bool mulred_report_have_gnuplot(void);

/* A growing text for generated scripts; after a failed allocation it stays failed (and
 * mulred_report_gnuplot refuses it). */
typedef struct {
    char *s;
    size_t n, cap;
    bool failed;
} mulred_report_text;

void mulred_report_printf(mulred_report_text *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* s as a gnuplot double-quoted string */
void mulred_report_quote(mulred_report_text *b, const char *s);
/* The start of every plot: a width × height PNG written to png, then a newline. */
void mulred_report_plot_begin(mulred_report_text *b, const char *png, int width, int height);
/* Runs the script (from a temporary file, so its errors name lines); MULRED_ERUNTIME when
 * gnuplot fails or does not write png. */
mulred_status mulred_report_gnuplot(const mulred_report_text *script, const char *png,
                                    mulred_error *err);

/* Speedup and efficiency against cores, one series per workload and threads per rank. */
mulred_status mulred_report_write_png(const char *png, const mulred_report_table *t,
                                      mulred_error *err);

/* ---- projection ---- */

/* The built-in constants of the models (constants.c gives each one's provenance). A constant
 * is used only when neither an option nor a result file gives the figure, and the projection's
 * parameter table then says "built-in" or "default" beside it. */
typedef struct {
    double latency;        /* α, seconds */
    double bandwidth;      /* β, bytes per second */
    double storage_rate;   /* aggregate read rate of the storage inputs come from, bytes/s */
    double cores_per_node; /* when no result says */
    int max_nodes;
    double msm_points;                       /* the MSM workload's size */
    double msm_add_bls12_381, msm_add_bn254; /* one Jacobian addition of partials, seconds */
} mulred_report_constants;

extern const mulred_report_constants mulred_report_k;

/* The built-in MuHash-like workloads (muhash-mainnet); NULL for another name. */
const mulred_model_workload *mulred_report_builtin(const char *name);
/* The per-core read (and decode) rate of a built-in workload's input, bytes per second. */
double mulred_report_builtin_read_rate(const mulred_model_workload *w);

typedef struct {
    const char *workload;           /* NULL: from the results (see mulred_report_project) */
    const char *png, *csv, *output; /* NULL: no PNG, no CSV, Markdown to stdout */
    /* 0 = not given: measured from the results, else built in */
    double items, item_cost, op_cost, message_bytes, finalize_cost, latency, bandwidth;
    double input_bytes, read_rate, storage_rate;
    double cores_per_node, ranks_per_node, memory_per_node;
    int max_nodes;
    const mulred_report_net *net; /* NULL unless --net */
} mulred_report_project_opts;

/* Writes the projection: the MSM model for a workload named msm or msm-*, else the
 * latency–bandwidth–I/O model. A workload left NULL is that of the smallest successful run
 * (msm-2e26 for an MSM result), else muhash-mainnet; cores per node left 0 is the largest
 * measured, else the built-in default. Returns what the command exits with: MULRED_OK, the
 * status of a failure (in err), or MULRED_OUT_EUSAGE when the options do not fit the results
 * (err's message says why, its status MULRED_EINPUT; the command reports a usage error). */
mulred_exit mulred_report_project(const mulred_report_project_opts *o, const mulred_report_rows *rs,
                                  mulred_error *err);
mulred_exit mulred_report_project_generic(const mulred_report_project_opts *o,
                                          const mulred_report_rows *rs, mulred_error *err);
mulred_exit mulred_report_project_msm(const mulred_report_project_opts *o,
                                      const mulred_report_rows *rs, mulred_error *err);

/* The outputs of a projection: out (o->output, else stdout) and csv (o->csv, else NULL), each
 * file written whole or not at all (mulred_whole_open). */
typedef struct {
    FILE *out, *csv;
    mulred_whole_file w[2];
} mulred_report_outputs;
/* Opens them; on failure nothing is left open and nothing written. */
mulred_status mulred_report_open_outputs(const mulred_report_project_opts *o,
                                         mulred_report_outputs *io, mulred_error *err);
/* Closes them, each file renamed onto its name when status is MULRED_OK and every write
 * succeeded, else removed; MULRED_ERUNTIME when a write failed (status stays when already
 * failed). */
mulred_status mulred_report_close_outputs(const mulred_report_project_opts *o,
                                          mulred_report_outputs *io, mulred_status status,
                                          mulred_error *err);

/* "—" for NAN, else v in fmt */
void mulred_report_fmt(char *out, size_t cap, double v, const char *fmt);

#endif

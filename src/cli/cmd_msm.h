/* mulred msm (cmd_msm.c: usage, keys, checks, the library call; cmd_msm_print.c: the result as
 * text and JSON; cmd_msm_bases.c: the base-set mode and its keys): the options and result every
 * part shares. */
#ifndef MULRED_CLI_CMD_MSM_H
#define MULRED_CLI_CMD_MSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cmd_msm_bases.h"
#include "mulred/mulred_mpi.h"
#include "output/json.h"

/* The base-set options come first: their keys (cmd_msm_bases.c) take the options' pointer as
 * a pointer to them. */
typedef struct {
    msm_bases_opts bases; /* --points / --bases with --scalars */
    mulred_curve curve;
    bool has_curve;
    mulred_pairing_group group;
    const char *input;
    bool binary;
    uint64_t synthetic, seed;
    bool has_synthetic;
    const char *write_pairs; /* NULL: none */
    int threads;             /* 0: OMP_NUM_THREADS, else all cores */
    unsigned grid_slices, grid_groups;
    uint64_t memory;          /* 0: from the node's memory */
    const char *checkpoint;   /* NULL: none */
    uint64_t checkpoint_unit; /* points per slice; 0: the default of ckpt_layout */
    mulred_schedule schedule;
    double stall_timeout;
    bool progress; /* a progress bar on stderr (rank 0) */
} msm_opts;
_Static_assert(offsetof(msm_opts, bases) == 0, "the base-set keys set msm_opts through its start");

typedef struct {
    mulred_mpi_msm_result mpi;
    msm_bases_result bases;
} msm_result;

/* The kind's printers (cli_job_kind): the result as JSON and as text, and the run's label. */
void msm_write_json(mulred_json_writer *w, const void *vo, const void *vr);
void msm_write_text(FILE *out, const void *vo, const void *vr);
void msm_describe(char *out, size_t cap, const void *vo);

#endif

/* mulred msm (cmd_msm.c: usage, keys, checks, the library call; cmd_msm_print.c: the result as
 * text and JSON; cmd_msm_bases.c: the base-set mode and its keys): the options and result every
 * part shares, and the printers of the result. */
#ifndef MULRED_CLI_CMD_MSM_PRINT_H
#define MULRED_CLI_CMD_MSM_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cmd_msm_bases.h"
#include "mulred/mulred_mpi.h"
#include "output/json.h"

/* The base-set options come first: their keys (cmd_msm_bases.c) take the options' pointer as
 * a pointer to them. The keys of a pair file or synthetic set write into the library's job:
 * curve, group, input, binary, synthetic (0: none), seed, threads (0: OMP_NUM_THREADS, else all
 * cores), grid, memory-per-rank and the distributed keys (cli/kind.h). */
typedef struct {
    msm_bases_opts bases; /* --points / --bases with --scalars */
    mulred_mpi_msm_job job;
    bool has_curve;
    const char *write_pairs; /* NULL: none */
    bool progress;           /* a progress bar on stderr (rank 0) */
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

/* Shared helpers of the mulred command: the subcommand table and which process prints. The
 * commands print with the output layer's helpers (output/output.h: mulred_out,
 * mulred_out_error, mulred_out_usage_error, MULRED_OUT_EUSAGE). */
#ifndef MULRED_CLI_H
#define MULRED_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mulred/mulred.h"
#include "mulred/plan.h"
#include "output/format.h"
#include "output/json.h"
#include "output/output.h"
#include "input/keys.h"

typedef struct {
    const char *name;
    const char *summary;
    mulred_exit (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    bool uses_mpi;                             /* initialize MPI before run */
} mulred_command;

/* Subcommands (one file each: cmd_NAME.c). */
mulred_exit mulred_cmd_version(int argc, char **argv);
mulred_exit mulred_cmd_muhash(int argc, char **argv);
mulred_exit mulred_cmd_msm(int argc, char **argv);
mulred_exit mulred_cmd_kzg_commit(int argc, char **argv);
mulred_exit mulred_cmd_bench(int argc, char **argv);
mulred_exit mulred_cmd_mix(int argc, char **argv);
mulred_exit mulred_cmd_utxo(int argc, char **argv);
mulred_exit mulred_cmd_run(int argc, char **argv);
mulred_exit mulred_cmd_report(int argc, char **argv);

/* True on the process that prints: rank 0 of MPI_COMM_WORLD once MPI is up, else the process
 * its launcher numbered 0 (or the only process). main installs it as the output's test
 * (mulred_out_set_root_test) before any command runs. */
bool cli_is_root(void);
/* Starts MPI for a command that uses it (mulred_mpi_init) when a launcher started this process;
 * without a launcher it does nothing. MULRED_OK, or the failure's status after the launcher's
 * rank 0 has printed it. mulred_mpi_finalize (main) ends it. */
mulred_status cli_mpi_start(int *argc, char ***argv);
/* "node_names": [ … ] from a result's comma-separated node names (mulred_mpi_node_names). */
void cli_jw_node_names(mulred_json_writer *w, const char *names);
/* "units_per_rank": [ … ] from rank 0's counts (NULL on other ranks: an empty list). */
void cli_jw_units_per_rank(mulred_json_writer *w, const uint64_t *units, int ranks);
/* A buffer of one count per rank of MPI_COMM_WORLD for a job's units_per_rank, kept for the
 * process; NULL when out of memory. */
uint64_t *cli_units_buffer(void);
/* --schedule / schedule = : "static" or "dynamic" into *out; MULRED_OUT_EUSAGE with the reason
 * (naming the key as p labels it) in why otherwise. */
mulred_exit cli_parse_schedule(mulred_schedule *out, const char *v, mulred_key_parser *p, char *why,
                               size_t cap);
/* The version line: "mulred VERSION (git REV)", VERSION the one of mulred_version(). */
const char *cli_version_line(void);

#endif

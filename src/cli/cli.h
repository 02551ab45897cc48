/* Shared helpers of the mulred command: rank-0 output, usage errors, option parsing. */
#ifndef MULRED_CLI_H
#define MULRED_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mulred/mulred.h"

/* The exit status of a usage error (wrong options or arguments); the library's statuses
 * (mulred_status) are the other exit statuses. */
#define CLI_EUSAGE 1

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    bool uses_mpi;                     /* initialize MPI before run */
} mulred_command;

/* Subcommands (one file each: cmd_NAME.c). */
int mulred_cmd_version(int argc, char **argv);
int mulred_cmd_muhash(int argc, char **argv);
int mulred_cmd_msm(int argc, char **argv);
int mulred_cmd_kzg_commit(int argc, char **argv);
int mulred_cmd_bench(int argc, char **argv);
int mulred_cmd_mix(int argc, char **argv);
int mulred_cmd_utxo(int argc, char **argv);
int mulred_cmd_run(int argc, char **argv);
int mulred_cmd_report(int argc, char **argv);

/* True on the process that prints: rank 0 (or the only process). */
bool cli_is_root(void);
/* printf to stdout on rank 0 only. */
void cli_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "mulred: MESSAGE" to stderr (rank 0 only) and returns err->status. */
int cli_report(const mulred_error *err);
/* Prints "mulred CMD: MESSAGE" and a pointer to --help on stderr (rank 0); returns 1. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Resets getopt for a subcommand's argument vector and silences its own messages. */
void cli_getopt_reset(void);
/* Message for an unknown option or missing argument reported by getopt_long. */
int cli_bad_option(const char *cmd, int argc, char **argv);
/* The version line: "mulred 0.1.0 (git REV)". */
const char *cli_version_line(void);

/* A count as options take it (the grammar of cli_parse_count in cli/options.h: 200000, 2e5,
 * 200k; no sign, no leading zeros). Returns 0, or -1 when s is not one. */
int mulred_parse_count(const char *s, uint64_t *out);
/* A rate with an SI prefix ("1.23 M elements/s"), seconds with a unit ("1.20 ms"). */
void mulred_format_seconds(char *out, size_t cap, double seconds);
void mulred_format_rate(char *out, size_t cap, double per_second, const char *unit);

#endif

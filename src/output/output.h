/* What commands and benchmarks print with: standard output on the printing process only, error
 * and usage messages. Under a launcher (mpirun, srun) every process runs the same command and
 * one of them prints; this layer does not know about ranks: the command installs the test that
 * says whether this process prints, and until it does every process prints. Part of mulred_output
 * (commands and benchmarks, not the libraries). */
#ifndef MULRED_OUTPUT_OUTPUT_H
#define MULRED_OUTPUT_OUTPUT_H

#include <stdbool.h>

#include "mulred/mulred.h"

/* Sets the test of whether this process prints (NULL: every process prints). */
void mulred_out_set_root_test(bool (*is_root)(void));
/* The exit status of a command or benchmark: 0 success, MULRED_OUT_EUSAGE after a usage error,
 * or the mulred_status that ended it (2 bad input, 3 runtime or MPI failure). Not a status:
 * what a command's run function returns and main passes to exit. */
typedef int mulred_exit;
/* The exit status of a usage error (wrong options or arguments): the command's 1. */
#define MULRED_OUT_EUSAGE 1

/* True when this process prints. */
bool mulred_out_is_root(void);
/* printf to stdout on the printing process only. */
void mulred_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "mulred: MESSAGE" to stderr (printing process only) unless err->status is MULRED_OK;
 * returns err->status. */
mulred_status mulred_out_error(const mulred_error *err);
/* Prints "mulred CMD: MESSAGE" and a pointer to --help to stderr (printing process only; CMD
 * may be NULL); returns MULRED_OUT_EUSAGE. */
mulred_exit mulred_out_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The machine a figure was measured on: the 1-minute load average (/proc/loadavg) and the CPU
 * family (/proc/cpuinfo's "cpu family"); -1 when unknown. */
double mulred_out_load_average(void);
int mulred_out_cpu_family(void);

#endif

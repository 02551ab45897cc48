/* Benchmark helpers: per-operation medians of thread CPU time, tables and JSON. Speed is only
 * ever reported here, never asserted in tests. */
#ifndef MULRED_BENCH_H
#define MULRED_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Median over `samples` batches of the thread CPU time per call of fn(arg) (each batch runs
 * `reps` calls), in nanoseconds. */
double bench_median_ns(void (*fn)(void *arg), void *arg, int reps, int samples);

/* The seed workload (rusty-kaspa's parallel MuHash bench): `txs` transactions, each removing
 * two and adding two 97-byte Kaspa UTXO elements, finalize included. A configuration is
 * sequential into one state (threads = 0) or every transaction its own identity-seeded
 * partial reduced over `threads` OpenMP threads; short_circuit = 0 disables the
 * multiply-by-one short-circuit. seconds[c] gets the median wall time of configuration c over
 * `samples` rounds in which all configurations take turns. */
typedef struct {
    int threads, short_circuit;
} bench_seed_config;
void bench_seed_workload(double *seconds, const bench_seed_config *configs, int nconfigs, int txs,
                         int samples);

/* Runs this executable with args (args[0] is its name, NULL-terminated) as a fresh process, its
 * output discarded, standard input from stdin_path (NULL: /dev/null). Returns the child's peak
 * resident set size in KiB (wait4's ru_maxrss), or -1 when it could not run or did not exit 0;
 * *wall (when non-NULL) gets its wall time in seconds. */
long bench_peak_rss_kib(const char *const args[], const char *stdin_path, double *wall);

int mulred_bench_muhash(int argc, char **argv);
int mulred_bench_utxo(int argc, char **argv);
int mulred_bench_msm(int argc, char **argv);
int mulred_bench_curve(int argc, char **argv);
int mulred_bench_checkpoint(int argc, char **argv);

/* The 8-lane (AVX-512 IFMA) field rows of mulred bench curve, per element, in ns, from the
 * 8-lane field bench (bench/bench_field_x8.c): curve 0 is BLS12-381 Fp, 1 is BN254 Fp. Returns
 * 0 when measured, -1 when the CPU lacks IFMA or the bench's own checks failed. */
typedef struct {
    double fp_mul_x8_ns, fp_sqr_x8_ns, fp_add_x8_ns;
} bench_x8_rows;
int bench_field_x8_rows(int curve, bench_x8_rows *rows);

#endif

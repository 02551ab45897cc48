/* Benchmark helpers: per-operation medians of thread CPU time, tables and JSON. Speed is only
 * ever reported here, never asserted in tests. */
#ifndef MULRED_BENCH_H
#define MULRED_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "mulred/msm.h"
#include "output/output.h"

/* Median over `samples` batches of the thread CPU time per call of fn(arg) (each batch runs
 * `reps` calls), in nanoseconds. */
double bench_median_ns(void (*fn)(void *arg), void *arg, int reps, int samples);

/* The seed workload (rusty-kaspa's parallel MuHash bench): `txs` transactions, each removing
 * two and adding two 97-byte Kaspa UTXO elements, finalize included. A configuration is a
 * layout, a thread count (the per-transaction layouts: transactions split evenly, each
 * thread's partials combined, then the thread partials in order) and whether the
 * multiply-by-one short-circuit is on:
 *   BENCH_SEED_ONE_STATE:             one state, one element at a time (threads ignored);
 *   BENCH_SEED_PER_TX_ONE_AT_A_TIME:  every transaction its own identity-seeded state, one
 *                                     element at a time;
 *   BENCH_SEED_PER_TX_BATCHED:        the same partials through mulred_muhash_update_many and
 *                                     mulred_muhash_combine_many.
 * seconds[c] gets the median wall time of configuration c over `samples` rounds in which all
 * configurations take turns; every configuration must give the same digest (else abort). */
typedef enum {
    BENCH_SEED_ONE_STATE,
    BENCH_SEED_PER_TX_ONE_AT_A_TIME,
    BENCH_SEED_PER_TX_BATCHED
} bench_seed_layout;
typedef struct {
    bench_seed_layout layout;
    int threads, short_circuit;
} bench_seed_config;
void bench_seed_workload(double *seconds, const bench_seed_config *configs, int nconfigs, int txs,
                         int samples);

/* Runs this executable with args (args[0] is its name, NULL-terminated) as a fresh process, its
 * output discarded, standard input from stdin_path (NULL: /dev/null). Returns the child's peak
 * resident set size in KiB (wait4's ru_maxrss), or -1 when it could not run or did not exit 0;
 * *wall (when non-NULL) gets its wall time in seconds. */
long bench_peak_rss_kib(const char *const args[], const char *stdin_path, double *wall);

mulred_exit mulred_bench_muhash(int argc, char **argv);
mulred_exit mulred_bench_utxo(int argc, char **argv);
mulred_exit mulred_bench_msm(int argc, char **argv);
mulred_exit mulred_bench_curve(int argc, char **argv);
mulred_exit mulred_bench_checkpoint(int argc, char **argv);
/* Base sets (bench_bases.c): prepare, cache, MSMs per level, k vectors. */
mulred_exit mulred_bench_bases(int argc, char **argv);
/* mpirun ... mulred bench bases-mpi: MSMs over a distributed base set against one rank over the
 * whole set (bench_bases_mpi.c). */
mulred_exit mulred_bench_bases_mpi(int argc, char **argv);
/* mpirun ... mulred bench comm: mulred_mpi_reduce per group and by bytes, the network constants
 * of report --project (bench_comm.c). */
mulred_exit mulred_bench_comm(int argc, char **argv);
mulred_exit mulred_bench_jobs(int argc, char **argv);
/* The fast_mix family, perftest form (bench_mix.c); `mulred mix bench` is the same bench, its
 * argv[0] "bench" (argv[0] names the bench in messages). */
mulred_exit mulred_bench_mix(int argc, char **argv);

/* The 8-lane (AVX-512 IFMA) field rows of mulred bench curve, per element, in ns, from the
 * 8-lane field bench (bench/bench_field_x8.c): curve 0 is BLS12-381 Fp, 1 is BN254 Fp. Returns
 * 0 when measured, -1 when the CPU lacks IFMA or the bench's own checks failed. */
typedef struct {
    double fp_mul_x8_ns, fp_sqr_x8_ns, fp_add_x8_ns;
} bench_x8_rows;
int bench_field_x8_rows(int curve, bench_x8_rows *rows);

/* Two one-thread MSMs side by side, one per thread (bench_msm_threads.c): msm (a curve's
 * mulred_G_msm_var, called with 1 thread) on the same points and scalars, result r[i] for
 * thread i. Returns the wall seconds of the pair, or -1 when a thread or an MSM failed: with
 * one MSM's wall time alone, the 2-thread throughput this machine gives the workload, the
 * ceiling of a 2-thread speedup. */
typedef mulred_status (*bench_msm_fn)(void *r, const void *points, const mulred_scalar256 *scalars,
                                      size_t n, const mulred_msm_options *opts, int threads,
                                      mulred_error *err);
double bench_msm_side_by_side(bench_msm_fn msm, void *r[2], const void *points,
                              const mulred_scalar256 *scalars, size_t n);
/* The same with serial (a curve's mulred_G_msm_serial_var) on scratch[i] (msm_scratch_size
 * bytes each, touched before): the pair without its scratch's first-touch faults. */
typedef void (*bench_msm_serial_fn)(void *r, const mulred_msm_plan *plan, const void *points,
                                    const mulred_scalar256 *scalars, size_t n, void *scratch);
double bench_msm_side_by_side_warm(bench_msm_serial_fn serial, void *r[2],
                                   const mulred_msm_plan *plan, const void *points,
                                   const mulred_scalar256 *scalars, size_t n, void *scratch[2]);

#endif

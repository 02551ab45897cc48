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

int mulred_bench_muhash(int argc, char **argv);
int mulred_bench_utxo(int argc, char **argv);

#endif

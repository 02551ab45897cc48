/* Timing of the fast_mix family (mulred mix bench, mulred bench mix): benchmark code, built
 * into the command only.
 * Each call goes through the lab's out-of-line entry point (lab.h), serially dependent through
 * the pool as in the kernel's interrupt path, so a time per call is latency plus call overhead,
 * the quantity the 2014 perftest compared. */
#ifndef MULRED_BENCH_MIX_H
#define MULRED_BENCH_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *label; /* "fastmix2_64/3" */
    const char *variant;
    unsigned rounds;
} mix_bench_entry;

/* The timed configurations: every variant at its published rounds, fastmix2_64 at 2, 3, 4. */
size_t mix_bench_entries(const mix_bench_entry **entries);

typedef struct {
    double seconds; /* this thread's CPU time: immune to being descheduled on a shared host */
    double ticks;   /* time-stamp-counter ticks, wall-clock based (0 where there is no TSC) */
} mix_bench_time;

/* Times `calls` calls of entry i. */
mix_bench_time mix_bench_run(size_t i, uint64_t calls);
/* Times filling `bytes` bytes with mulred_mix_fill (or its portable scalar path), 64 KiB
 * (L2-resident) at a time. */
mix_bench_time mix_bench_fill(uint64_t bytes, bool scalar);

#endif

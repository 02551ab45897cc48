/* Options of the parallel reduction beyond the thread count. */
#ifndef MULRED_MUHASH_THREADS_H
#define MULRED_MUHASH_THREADS_H

#include "mulred/muhash.h"

typedef struct {
    int threads; /* 0: OMP_NUM_THREADS, else all cores */
    /* Called by thread 0 after each chunk it finishes, with chunks done so far and in total. */
    void (*progress)(void *arg, uint64_t done, uint64_t total);
    void *progress_arg;
} mulred_muhash_reduce_opts;

/* Starts the OpenMP team of `threads` threads (0: the default) and loads libcrypto, so that a
 * timed reduction that follows does not pay for thread creation or library set-up. Returns the
 * team size. */
int mulred_muhash_threads_start(int threads);

int mulred_muhash_reduce_ex(mulred_muhash_state *out, mulred_muhash_flavor flavor,
                            const mulred_muhash_source *sources, size_t nsources,
                            const mulred_muhash_reduce_opts *opts, mulred_muhash_stats *stats,
                            mulred_error *err);

#endif

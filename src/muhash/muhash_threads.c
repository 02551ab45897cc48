/* The parallel MuHash reduction (creates OpenMP threads).
 *
 * Each thread owns a partial state seeded with the identity, a hashing context and a sink that
 * batches the elements it is given. Chunks are handed out dynamically (schedule(dynamic, 1)):
 * sources size their chunks at tens of kilobytes or thousands of elements, so the scheduling
 * cost per chunk stays negligible against the work (docs/kernels.md has both). Partials are
 * combined in thread order after the loop; the multiply-by-identity short-circuit makes idle
 * threads free.
 *
 * Errors: the error of the lowest-numbered failing chunk is reported; chunks numbered above a
 * known failure are skipped, so a bad file stops the work early. */
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "muhash/muhash_internal.h"
#include "util/util.h"

enum { SINK_BATCH = 64, SINK_ARENA = 1 << 18 };

struct mulred_muhash_sink {
    mulred_muhash_state *partial;
    mulred_muhash_ctx *ctx;
    uint8_t *arena;
    size_t arena_used;
    mulred_bytes batch[2][SINK_BATCH]; /* [0] inserts, [1] removes */
    size_t nbatch[2];
    uint64_t count[2];
    double hash_wall; /* seconds inside sink_flush (monotonic clock) */
};

static void sink_flush(mulred_muhash_sink *s)
{
    if (!s->nbatch[0] && !s->nbatch[1]) return;
    /* The monotonic clock is read in user space; a thread CPU clock is a system call, dear
     * against a 64-element batch (docs/kernels.md), so it is read only at the ends. */
    double t0 = mulred_wtime();
    mulred_muhash_insert_many(s->partial, s->ctx, s->batch[0], s->nbatch[0]);
    mulred_muhash_remove_many(s->partial, s->ctx, s->batch[1], s->nbatch[1]);
    s->hash_wall += mulred_wtime() - t0;
    s->count[0] += s->nbatch[0];
    s->count[1] += s->nbatch[1];
    s->nbatch[0] = s->nbatch[1] = 0;
    s->arena_used = 0;
}

void mulred_muhash_sink_add(mulred_muhash_sink *s, const uint8_t *data, size_t len, bool remove)
{
    MULRED_CHECK(len <= MULRED_MUHASH_MAX_ELEMENT, "element of %zu bytes (sources check lengths)",
                 len);
    int k = remove ? 1 : 0;
    if (s->nbatch[k] == SINK_BATCH || s->arena_used + len > SINK_ARENA) sink_flush(s);
    uint8_t *copy = s->arena + s->arena_used;
    if (len) memcpy(copy, data, len);
    s->arena_used += len;
    s->batch[k][s->nbatch[k]++] = (mulred_bytes){copy, len};
}

mulred_status mulred_muhash_reduce(mulred_muhash_state *out, mulred_muhash_flavor flavor,
                                   const mulred_muhash_source *sources, size_t nsources,
                                   int threads, mulred_muhash_stats *stats, mulred_error *err)
{
    mulred_muhash_reduce_opts opts = {.threads = threads};
    return mulred_muhash_reduce_ex(out, flavor, sources, nsources, &opts, stats, err);
}

mulred_status mulred_muhash_reduce_ex(mulred_muhash_state *out, mulred_muhash_flavor flavor,
                                      const mulred_muhash_source *sources, size_t nsources,
                                      const mulred_muhash_reduce_opts *opts,
                                      mulred_muhash_stats *stats, mulred_error *err)
{
    int nthreads = mulred_threads_resolve(opts->threads);
    size_t total = 0;
    size_t *first = malloc((nsources + 1) * sizeof *first);
    mulred_muhash_state *partials = malloc((size_t)nthreads * sizeof *partials);
    double *produce = calloc((size_t)nthreads, sizeof *produce);
    double *hash = calloc((size_t)nthreads, sizeof *hash);
    uint64_t *counts = calloc(2 * (size_t)nthreads, sizeof *counts);
    if (!first || !partials || !produce || !hash || !counts) {
        free(first), free(partials), free(produce), free(hash), free(counts);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    for (size_t i = 0; i < nsources; i++) {
        first[i] = total;
        total += sources[i].nchunks;
    }
    first[nsources] = total;

    /* Lowest failing chunk so far (total = none) and its error. */
    _Atomic size_t failed_chunk = total;
    mulred_error first_err;
    mulred_error_clear(&first_err);
    int status = MULRED_OK;
    _Atomic uint64_t done = 0;
    int oom = 0;
    double t_start = mulred_wtime();

#pragma omp parallel num_threads(nthreads)
    {
        int t = omp_get_thread_num();
        /* The partial lives on this thread's stack while it is hot: adjacent array slots would
         * share a cache line (a state is 776 bytes) and every multiply would bounce it. */
        mulred_muhash_state partial;
        mulred_muhash_init(&partial, flavor);
        mulred_muhash_sink sink = {.partial = &partial};
        sink.ctx = mulred_muhash_ctx_new(flavor);
        sink.arena = malloc(SINK_ARENA);
        if (!sink.arena || !sink.ctx) {
#pragma omp atomic write
            oom = 1;
        }
        double cpu0 = mulred_thread_cputime(), wall0 = mulred_wtime();
        size_t src = 0;
#pragma omp for schedule(dynamic, 1)
        for (size_t c = 0; c < total; c++) {
            if (oom || c > atomic_load(&failed_chunk)) continue;
            while (first[src + 1] <= c) src++; /* chunks are taken in increasing order */
            while (first[src] > c) src--;
            mulred_error e;
            mulred_error_clear(&e);
            int st = sources[src].produce(sources[src].ctx, c - first[src], &sink, &e);
            if (st != MULRED_OK) {
#pragma omp critical /* unnamed: a named one is a global symbol of the library */
                {
                    if (c < atomic_load(&failed_chunk)) {
                        atomic_store(&failed_chunk, c);
                        first_err = e;
                        status = st;
                    }
                }
            }
            uint64_t d = atomic_fetch_add(&done, 1) + 1;
            if (opts->progress && t == 0) opts->progress(opts->progress_arg, d, total);
        }
        sink_flush(&sink);
        partials[t] = partial;
        /* The thread's CPU time, split between producing and hashing in the proportion of the
         * wall time spent in each. */
        double cpu = mulred_thread_cputime() - cpu0, wall = mulred_wtime() - wall0;
        double hash_share = wall > 0 ? sink.hash_wall / wall : 0;
        if (hash_share > 1) hash_share = 1;
        hash[t] = cpu * hash_share;
        produce[t] = cpu - hash[t];
        counts[2 * t] = sink.count[0];
        counts[2 * t + 1] = sink.count[1];
        free(sink.arena);
        mulred_muhash_ctx_free(sink.ctx);
    }
    double t_parallel = mulred_wtime();

    int result = MULRED_OK;
    if (oom)
        result = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    else if (status != MULRED_OK) {
        if (err) *err = first_err;
        result = status;
    }
    /* Combine in thread order: partial 0 absorbs the others. */
    mulred_muhash_init(out, flavor);
    if (result == MULRED_OK)
        for (int t = 0; t < nthreads; t++) mulred_muhash_combine(out, &partials[t]);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        for (int t = 0; t < nthreads; t++) {
            stats->produce_cpu += produce[t];
            stats->hash_cpu += hash[t];
            stats->inserted += counts[2 * t];
            stats->removed += counts[2 * t + 1];
        }
        stats->parallel_wall = t_parallel - t_start;
        stats->combine_wall = mulred_wtime() - t_parallel;
        stats->threads = nthreads;
    }
    free(first), free(partials), free(produce), free(hash), free(counts);
    return result;
}

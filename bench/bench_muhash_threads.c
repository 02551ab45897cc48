/* The seed workload of rusty-kaspa's "Muhash parallel reduce" (creates OpenMP threads):
 * 256 transactions × (2 removes + 2 adds) of 97-byte Kaspa UTXO elements. In the parallel
 * forms every transaction is its own identity-seeded MuHash and the transactions are reduced
 * over threads, exactly the shape where `1·x` is frequent.
 *
 * Layouts (bench.h): one state, one element at a time (the baseline: what a node does today);
 * the same per-transaction partials one element at a time (the rusty-kaspa shape); and the
 * per-transaction partials through mulred_muhash_update_many (every transaction's elements in
 * one batch: hashed and expanded in lanes, each transaction's removes and adds multiplied as
 * runs) with each thread's partials folded by mulred_muhash_combine_many. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mulred/muhash.h"
#include "mulred/sources.h"
#include "muhash/muhash_internal.h"
#include "num3072/num3072.h"
#include "util/util.h"

enum { ELEM = 97 };

/* Element k of the workload: a Kaspa UTXO element with a 34-byte script (97 bytes). */
static void seed_element(uint8_t *out, uint64_t k)
{
    uint8_t buf[MULRED_SOURCE_SYNTH_MAX_ELEMENT];
    for (uint64_t i = k * 64;; i++) /* the first synthetic element with a 34-byte script */
        if (mulred_source_synth_element(buf, MULRED_MUHASH_KASPA, 2024, i) == ELEM) break;
    memcpy(out, buf, ELEM);
}

static void tx_mul(mulred_num3072 *acc, const mulred_num3072 *x, int short_circuit)
{
    if (short_circuit)
        mulred_num3072_mul(acc, acc, x);
    else
        num3072_mul_always(acc, acc, x);
}

static void state_combine(mulred_muhash_state *s, const mulred_muhash_state *t, int short_circuit)
{
    tx_mul(&s->num, &t->num, short_circuit);
    tx_mul(&s->den, &t->den, short_circuit);
}

typedef struct {
    uint8_t (*elems)[ELEM];
    mulred_muhash_item *items; /* element k: transaction k / 4, removed when k % 4 < 2 */
    mulred_muhash_state *txs;  /* the per-transaction partials of the batched layout */
    mulred_muhash_ctx **ctxs;  /* one per thread */
    mulred_muhash_state *part; /* thread partials */
    int ntx;
} seed_data;

/* Thread `id` of `threads`: transactions [lo, hi) of a static split. */
static void seed_range(int ntx, int id, int threads, int *lo, int *hi)
{
    *lo = (int)((long)ntx * id / threads);
    *hi = (int)((long)ntx * (id + 1) / threads);
}

/* One run of a configuration: wall seconds, finalize included; the digest into digest. */
static double seed_run(seed_data *d, const bench_seed_config *c, uint8_t digest[32])
{
    const int txs = d->ntx, threads = c->threads, sc = c->short_circuit;
    double t0 = mulred_wtime();
    mulred_muhash_state total;
    mulred_muhash_init(&total, MULRED_MUHASH_KASPA);
    if (c->layout == BENCH_SEED_ONE_STATE) {
        for (int k = 0; k < txs * 4; k++) {
            mulred_num3072 x;
            mulred_muhash_element(&x, d->ctxs[0], d->elems[k], ELEM);
            tx_mul(k % 4 < 2 ? &total.den : &total.num, &x, sc);
        }
    } else if (c->layout == BENCH_SEED_PER_TX_ONE_AT_A_TIME) {
#pragma omp parallel num_threads(threads)
        {
            int id = omp_get_thread_num(), lo, hi;
            seed_range(txs, id, threads, &lo, &hi);
            mulred_muhash_state mine; /* on the stack: array slots would share cache lines */
            mulred_muhash_init(&mine, MULRED_MUHASH_KASPA);
            for (int tx = lo; tx < hi; tx++) {
                mulred_muhash_state st;
                mulred_muhash_init(&st, MULRED_MUHASH_KASPA);
                for (int j = 0; j < 4; j++) {
                    mulred_num3072 x;
                    mulred_muhash_element(&x, d->ctxs[id], d->elems[tx * 4 + j], ELEM);
                    tx_mul(j < 2 ? &st.den : &st.num, &x, sc);
                }
                state_combine(&mine, &st, sc);
            }
            d->part[id] = mine;
        }
        for (int id = 0; id < threads; id++) state_combine(&total, &d->part[id], sc);
    } else {
#pragma omp parallel num_threads(threads)
        {
            int id = omp_get_thread_num(), lo, hi;
            seed_range(txs, id, threads, &lo, &hi);
            mulred_muhash_state mine;
            mulred_muhash_init(&mine, MULRED_MUHASH_KASPA);
            for (int tx = lo; tx < hi; tx++) mulred_muhash_init(&d->txs[tx], MULRED_MUHASH_KASPA);
            /* item indices are global: the whole array of partials, this thread's items */
            muhash_update_many(d->txs, (size_t)txs, d->ctxs[id], d->items + 4 * lo,
                               4 * (size_t)(hi - lo), sc);
            muhash_combine_many(&mine, d->txs + lo, (size_t)(hi - lo), sc);
            d->part[id] = mine;
        }
        for (int id = 0; id < threads; id++) state_combine(&total, &d->part[id], sc);
    }
    mulred_muhash_finalize(digest, &total);
    return mulred_wtime() - t0;
}

void bench_seed_workload(double *seconds, const bench_seed_config *configs, int nconfigs, int txs,
                         int samples)
{
    seed_data d = {.ntx = txs};
    d.elems = malloc((size_t)txs * 4 * ELEM);
    d.items = malloc((size_t)txs * 4 * sizeof *d.items);
    d.txs = malloc((size_t)txs * sizeof *d.txs);
    double *t = malloc((size_t)nconfigs * (size_t)samples * sizeof *t);
    int maxthreads = 1;
    for (int c = 0; c < nconfigs; c++)
        if (configs[c].threads > maxthreads) maxthreads = configs[c].threads;
    d.part = malloc((size_t)maxthreads * sizeof *d.part);
    /* Hashing contexts are per-thread scratch, made once (as a node or prover would). */
    d.ctxs = malloc((size_t)maxthreads * sizeof *d.ctxs);
    if (!d.elems || !d.items || !d.txs || !t || !d.part || !d.ctxs) abort();
    for (int i = 0; i < maxthreads; i++) d.ctxs[i] = mulred_muhash_ctx_new(MULRED_MUHASH_KASPA);
    for (int k = 0; k < txs * 4; k++) {
        seed_element(d.elems[k], (uint64_t)k);
        d.items[k] = (mulred_muhash_item){d.elems[k], ELEM, (size_t)(k / 4), k % 4 < 2};
    }
    /* Configurations take turns within every sample, so that they see the same machine. Every
     * layout must give the same digest (a check that the bench measures real work). */
    uint8_t first[32], digest[32];
    for (int s = 0; s < samples; s++)
        for (int c = 0; c < nconfigs; c++) {
            t[c * samples + s] = seed_run(&d, &configs[c], digest);
            if (s == 0 && c == 0) memcpy(first, digest, 32);
            if (memcmp(digest, first, 32) != 0) {
                fprintf(stderr, "mulred bench: seed workload layout %d gave another digest\n", c);
                abort();
            }
        }
    for (int c = 0; c < nconfigs; c++) seconds[c] = mulred_median(t + c * samples, (size_t)samples);
    for (int i = 0; i < maxthreads; i++) mulred_muhash_ctx_free(d.ctxs[i]);
    free(d.ctxs);
    free(d.part);
    free(t);
    free(d.txs);
    free(d.items);
    free(d.elems);
}

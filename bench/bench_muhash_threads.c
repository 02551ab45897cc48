/* The seed workload of rusty-kaspa's "Muhash parallel reduce" (creates OpenMP threads):
 * 256 transactions × (2 removes + 2 adds) of 97-byte Kaspa UTXO elements. In the parallel form
 * every transaction is its own identity-seeded MuHash and the transactions are reduced over
 * threads, exactly the shape where `1·x` is frequent. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mulred/muhash.h"
#include "mulred/sources.h"
#include "num3072/num3072.h"
#include "util/util.h"

enum { ELEM = 97 };

/* Element k of the workload: a Kaspa UTXO element with a 34-byte script (97 bytes). */
static void seed_element(uint8_t *out, uint64_t k)
{
    uint8_t buf[MULRED_SYNTH_MAX_ELEMENT];
    for (uint64_t i = k * 64;; i++) /* the first synthetic element with a 34-byte script */
        if (mulred_synth_element(buf, MULRED_MUHASH_KASPA, 2024, i) == ELEM) break;
    memcpy(out, buf, ELEM);
}

static void tx_mul(mulred_num3072 *acc, const mulred_num3072 *x, int short_circuit)
{
    if (short_circuit) mulred_num3072_mul(acc, acc, x);
    else num3072_mul_always(acc, acc, x);
}

static void state_combine(mulred_muhash_state *s, const mulred_muhash_state *t, int short_circuit)
{
    tx_mul(&s->num, &t->num, short_circuit);
    tx_mul(&s->den, &t->den, short_circuit);
}

/* One run of a configuration: wall seconds. */
static double seed_run(uint8_t (*elems)[ELEM], int txs, int threads, int short_circuit,
                       mulred_muhash_ctx **ctxs, mulred_muhash_state *part)
{
    uint8_t digest[32];
    double t0 = mulred_wtime();
    mulred_muhash_state total;
    mulred_muhash_init(&total, MULRED_MUHASH_KASPA);
    if (threads == 0) {
        for (int k = 0; k < txs * 4; k++) {
            mulred_num3072 x;
            mulred_muhash_element(&x, ctxs[0], elems[k], ELEM);
            tx_mul(k % 4 < 2 ? &total.den : &total.num, &x, short_circuit);
        }
    } else {
#pragma omp parallel num_threads(threads)
        {
            int id = omp_get_thread_num();
            mulred_muhash_state mine; /* on the stack: array slots would share cache lines */
            mulred_muhash_init(&mine, MULRED_MUHASH_KASPA);
#pragma omp for schedule(static)
            for (int tx = 0; tx < txs; tx++) {
                mulred_muhash_state st;
                mulred_muhash_init(&st, MULRED_MUHASH_KASPA);
                for (int j = 0; j < 4; j++) {
                    mulred_num3072 x;
                    mulred_muhash_element(&x, ctxs[id], elems[tx * 4 + j], ELEM);
                    tx_mul(j < 2 ? &st.den : &st.num, &x, short_circuit);
                }
                state_combine(&mine, &st, short_circuit);
            }
            part[id] = mine;
        }
        for (int id = 0; id < threads; id++) state_combine(&total, &part[id], short_circuit);
    }
    mulred_muhash_finalize(digest, &total);
    return mulred_wtime() - t0;
}

void bench_seed_workload(double *seconds, const bench_seed_config *configs, int nconfigs, int txs,
                         int samples)
{
    uint8_t(*elems)[ELEM] = malloc((size_t)txs * 4 * ELEM);
    double *t = malloc((size_t)nconfigs * (size_t)samples * sizeof *t);
    int maxthreads = 1;
    for (int c = 0; c < nconfigs; c++)
        if (configs[c].threads > maxthreads) maxthreads = configs[c].threads;
    mulred_muhash_state *part = malloc((size_t)maxthreads * sizeof *part);
    /* Hashing contexts are per-thread scratch, made once (as a node or prover would). */
    mulred_muhash_ctx **ctxs = malloc((size_t)maxthreads * sizeof *ctxs);
    if (!elems || !t || !part || !ctxs) abort();
    for (int i = 0; i < maxthreads; i++) ctxs[i] = mulred_muhash_ctx_new(MULRED_MUHASH_KASPA);
    for (int k = 0; k < txs * 4; k++) seed_element(elems[k], (uint64_t)k);
    /* Configurations take turns within every sample, so that they see the same machine. */
    for (int s = 0; s < samples; s++)
        for (int c = 0; c < nconfigs; c++)
            t[c * samples + s] = seed_run(elems, txs, configs[c].threads,
                                          configs[c].short_circuit, ctxs, part);
    for (int c = 0; c < nconfigs; c++) seconds[c] = mulred_median(t + c * samples, (size_t)samples);
    for (int i = 0; i < maxthreads; i++) mulred_muhash_ctx_free(ctxs[i]);
    free(ctxs);
    free(part);
    free(t);
    free(elems);
}

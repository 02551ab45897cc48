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

double bench_seed_workload(int txs, int threads, int short_circuit, int samples)
{
    uint8_t(*elems)[ELEM] = malloc((size_t)txs * 4 * ELEM);
    if (!elems) abort();
    for (int k = 0; k < txs * 4; k++) seed_element(elems[k], (uint64_t)k);
    double *t = malloc((size_t)samples * sizeof *t);
    uint8_t digest[32];
    for (int s = 0; s < samples; s++) {
        double t0 = mulred_wtime();
        mulred_muhash_state total;
        mulred_muhash_init(&total, MULRED_MUHASH_KASPA);
        if (threads == 0) {
            mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_KASPA);
            for (int k = 0; k < txs * 4; k++) {
                mulred_num3072 x;
                mulred_muhash_element(&x, ctx, elems[k], ELEM);
                tx_mul(k % 4 < 2 ? &total.den : &total.num, &x, short_circuit);
            }
            mulred_muhash_ctx_free(ctx);
        } else {
            mulred_muhash_state *part = malloc((size_t)threads * sizeof *part);
#pragma omp parallel num_threads(threads)
            {
                int id = omp_get_thread_num();
                mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_KASPA);
                mulred_muhash_init(&part[id], MULRED_MUHASH_KASPA);
#pragma omp for schedule(static)
                for (int tx = 0; tx < txs; tx++) {
                    mulred_muhash_state st;
                    mulred_muhash_init(&st, MULRED_MUHASH_KASPA);
                    for (int j = 0; j < 4; j++) {
                        mulred_num3072 x;
                        mulred_muhash_element(&x, ctx, elems[tx * 4 + j], ELEM);
                        tx_mul(j < 2 ? &st.den : &st.num, &x, short_circuit);
                    }
                    state_combine(&part[id], &st, short_circuit);
                }
                mulred_muhash_ctx_free(ctx);
            }
            for (int id = 0; id < threads; id++) state_combine(&total, &part[id], short_circuit);
            free(part);
        }
        mulred_muhash_finalize(digest, &total);
        t[s] = mulred_wtime() - t0;
    }
    double m = mulred_median(t, (size_t)samples);
    free(t);
    free(elems);
    return m;
}

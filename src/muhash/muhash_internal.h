/* Internal to src/muhash/. */
#ifndef MULRED_MUHASH_INTERNAL_H
#define MULRED_MUHASH_INTERNAL_H

#include "hash/hash.h"
#include "mulred/muhash.h"
#include "num3072/num3072.h"

struct mulred_muhash_ctx {
    mulred_muhash_flavor flavor;
    mulred_sha256 *sha;                   /* bitcoin, one element at a time (OpenSSL) */
    mulred_blake2b_keyed_state blake_key; /* kaspa: BLAKE2b after the "MuHashElement" block */
    mulred_chacha20 *chacha;              /* one keystream at a time (OpenSSL) */
};

/* key = H(element) for the context's flavor. */
void muhash_element_key(mulred_muhash_ctx *ctx, uint8_t key[32], const uint8_t *data, size_t len);

/* mulred_muhash_update_many and mulred_muhash_combine_many with the identity short-circuit
 * optional (benchmarks measure what it saves; without it every factor is multiplied in, a
 * state at 1 included). */
void muhash_update_many(mulred_muhash_state *states, size_t nstates, mulred_muhash_ctx *ctx,
                        const mulred_muhash_item *items, size_t n, bool short_circuit);
void muhash_combine_many(mulred_muhash_state *s, const mulred_muhash_state *t, size_t n,
                         bool short_circuit);

#endif

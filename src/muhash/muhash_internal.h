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

#endif

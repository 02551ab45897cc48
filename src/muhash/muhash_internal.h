/* Internal to src/muhash/. */
#ifndef MULRED_MUHASH_INTERNAL_H
#define MULRED_MUHASH_INTERNAL_H

#include "hash/hash.h"
#include "mulred/muhash.h"
#include "num3072/num3072.h"

struct mulred_muhash_ctx {
    mulred_muhash_flavor flavor;
    mulred_sha256 *sha;        /* bitcoin */
    mulred_blake2b256 *blake;  /* kaspa, keyed "MuHashElement" (one at a time, OpenSSL) */
    mulred_blake2b_keyed_state blake_x8; /* kaspa: the same key for the 8-lane batched path */
    mulred_chacha20 *chacha;
};

/* key = H(element) for the context's flavor. */
void muhash_element_key(mulred_muhash_ctx *ctx, uint8_t key[32], const uint8_t *data, size_t len);

#endif

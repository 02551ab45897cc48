/* OpenSSL 3 EVP wrappers. Algorithms are fetched once per process (mulred_hash_init: the first
 * fetch loads libcrypto's providers, a one-time cost: docs/kernels.md; implicit fetching on
 * every init would cost a provider lookup each time); contexts are re-initialized, never
 * re-allocated, per message.
 * Misuse or a failing libcrypto call aborts: these calls cannot fail on valid arguments.
 * Constructors return NULL when out of memory. */
#include "hash/hash.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/check.h"

#define hash_check(ok, what) MULRED_CHECK(ok, "libcrypto failure in %s", what)

static EVP_MD *alg_sha256;
static EVP_MAC *alg_blake2bmac;
static EVP_CIPHER *alg_chacha20;
static pthread_once_t alg_once = PTHREAD_ONCE_INIT;

/* Kept for the life of the process: contexts take their own references. */
static void hash_fetch_algorithms(void)
{
    alg_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    alg_blake2bmac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    alg_chacha20 = EVP_CIPHER_fetch(NULL, "ChaCha20", NULL);
    hash_check(alg_sha256 && alg_blake2bmac && alg_chacha20,
               "fetching SHA256, BLAKE2BMAC, ChaCha20");
}

void mulred_hash_init(void)
{
    pthread_once(&alg_once, hash_fetch_algorithms);
}

struct mulred_sha256 {
    EVP_MD *md;
    EVP_MD_CTX *ctx;
};

mulred_sha256 *mulred_sha256_new(void)
{
    mulred_sha256 *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    mulred_hash_init();
    h->md = alg_sha256;
    EVP_MD_up_ref(h->md);
    h->ctx = EVP_MD_CTX_new();
    if (!h->ctx) return mulred_sha256_free(h), NULL;
    return h;
}

void mulred_sha256_free(mulred_sha256 *h)
{
    if (!h) return;
    EVP_MD_CTX_free(h->ctx);
    EVP_MD_free(h->md);
    free(h);
}

void mulred_sha256_init(mulred_sha256 *h)
{
    hash_check(EVP_DigestInit_ex2(h->ctx, h->md, NULL), "sha256 init");
}

void mulred_sha256_update(mulred_sha256 *h, const uint8_t *data, size_t len)
{
    hash_check(EVP_DigestUpdate(h->ctx, data, len), "sha256 update");
}

void mulred_sha256_final(mulred_sha256 *h, uint8_t out[32])
{
    unsigned int n = 0;
    hash_check(EVP_DigestFinal_ex(h->ctx, out, &n) && n == 32, "sha256 final");
}

void mulred_sha256_digest(mulred_sha256 *h, uint8_t out[32], const uint8_t *data, size_t len)
{
    mulred_sha256_init(h);
    mulred_sha256_update(h, data, len);
    mulred_sha256_final(h, out);
}

struct mulred_blake2b256 {
    EVP_MAC *mac;
    EVP_MAC_CTX *ctx;
};

mulred_blake2b256 *mulred_blake2b256_new(const uint8_t *key, size_t keylen)
{
    MULRED_CHECK(keylen <= 64, "a BLAKE2b key has at most 64 bytes, got %zu", keylen);
    mulred_blake2b256 *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    mulred_hash_init();
    h->mac = alg_blake2bmac;
    EVP_MAC_up_ref(h->mac);
    h->ctx = EVP_MAC_CTX_new(h->mac);
    if (!h->ctx) return mulred_blake2b256_free(h), NULL;
    size_t size = 32;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                           OSSL_PARAM_construct_end()};
    hash_check(EVP_MAC_init(h->ctx, key, keylen, params), "blake2b init");
    return h;
}

void mulred_blake2b256_free(mulred_blake2b256 *h)
{
    if (!h) return;
    EVP_MAC_CTX_free(h->ctx);
    EVP_MAC_free(h->mac);
    free(h);
}

void mulred_blake2b256_digest(mulred_blake2b256 *h, uint8_t out[32], const uint8_t *data,
                              size_t len)
{
    size_t n = 0;
    /* A NULL key re-initializes with the key given at creation. */
    hash_check(EVP_MAC_init(h->ctx, NULL, 0, NULL), "blake2b reinit");
    hash_check(EVP_MAC_update(h->ctx, data, len), "blake2b update");
    hash_check(EVP_MAC_final(h->ctx, out, &n, 32) && n == 32, "blake2b final");
}

struct mulred_chacha20 {
    EVP_CIPHER *cipher;
    EVP_CIPHER_CTX *ctx;
};

mulred_chacha20 *mulred_chacha20_new(void)
{
    mulred_chacha20 *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    mulred_hash_init();
    c->cipher = alg_chacha20;
    EVP_CIPHER_up_ref(c->cipher);
    c->ctx = EVP_CIPHER_CTX_new();
    if (!c->ctx) return mulred_chacha20_free(c), NULL;
    /* Bind the cipher once; later inits pass only key and IV. Re-binding the cipher on every
     * element takes a reference on the shared EVP_CIPHER (an atomic on one cache line for all
     * threads), which keeps two threads far from twice as fast as one (docs/kernels.md). */
    hash_check(EVP_EncryptInit_ex2(c->ctx, c->cipher, NULL, NULL, NULL), "chacha20 bind");
    return c;
}

void mulred_chacha20_free(mulred_chacha20 *c)
{
    if (!c) return;
    EVP_CIPHER_CTX_free(c->ctx);
    EVP_CIPHER_free(c->cipher);
    free(c);
}

void mulred_chacha20_keystream(mulred_chacha20 *c, uint8_t *out, size_t len, const uint8_t key[32])
{
    /* OpenSSL's IV is the 32-bit little-endian block counter followed by the 96-bit nonce. */
    static const uint8_t iv[16] = {0};
    int n = 0;
    memset(out, 0, len);
    hash_check(EVP_EncryptInit_ex2(c->ctx, NULL, key, iv, NULL), "chacha20 init");
    hash_check(EVP_EncryptUpdate(c->ctx, out, &n, out, (int)len) && (size_t)n == len,
               "chacha20 update");
}

int mulred_sha256_once(uint8_t out[32], const uint8_t *data, size_t len)
{
    unsigned int n = 0;
    mulred_hash_init();
    return EVP_Digest(data, len, out, &n, alg_sha256, NULL) == 1 && n == 32 ? 0 : -1;
}

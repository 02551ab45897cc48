/* hash layer: thin wrappers over OpenSSL libcrypto (EVP). Each context is created once and
 * reused for every message: nothing is allocated per call. Not shareable between threads.
 * Constructors (…_new) return NULL when out of memory; any other libcrypto failure is a failed
 * check (MULRED_CHECK: the misuse callback, then the end of the process). */
#ifndef MULRED_HASH_H
#define MULRED_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Loads libcrypto's algorithms once per process (a one-time cost: docs/kernels.md). The
 * constructors below call it; a driver calls it before its timers start. Thread-safe. */
void mulred_hash_init(void);

typedef struct mulred_sha256 mulred_sha256;
mulred_sha256 *mulred_sha256_new(void);
void mulred_sha256_free(mulred_sha256 *h);
/* One-shot digest of data. */
void mulred_sha256_digest(mulred_sha256 *h, uint8_t out[32], const uint8_t *data, size_t len);
/* Streaming use: init, update..., final. */
void mulred_sha256_init(mulred_sha256 *h);
void mulred_sha256_update(mulred_sha256 *h, const uint8_t *data, size_t len);
void mulred_sha256_final(mulred_sha256 *h, uint8_t out[32]);

/* BLAKE2b with a 32-byte output and a fixed key (at most 64 bytes) set at creation. */
typedef struct mulred_blake2b256 mulred_blake2b256;
mulred_blake2b256 *mulred_blake2b256_new(const uint8_t *key, size_t keylen);
void mulred_blake2b256_free(mulred_blake2b256 *h);
void mulred_blake2b256_digest(mulred_blake2b256 *h, uint8_t out[32], const uint8_t *data,
                              size_t len);

/* ChaCha20 (RFC 8439 block function) keystream: len bytes for key, 96-bit nonce 0, starting at
 * block counter 0. MuHash uses 384 bytes = blocks 0..5. */
typedef struct mulred_chacha20 mulred_chacha20;
mulred_chacha20 *mulred_chacha20_new(void);
void mulred_chacha20_free(mulred_chacha20 *c);
void mulred_chacha20_keystream(mulred_chacha20 *c, uint8_t *out, size_t len, const uint8_t key[32]);

/* One-shot SHA-256 with the SHA extensions; call only when mulred_cpu()->sha_ni. */
void mulred_sha256_shani(uint8_t out[32], const uint8_t *data, size_t len);
/* The same for four messages at once (their compressions interleaved): out[i] receives the
 * digest of msg[i][0..len[i]); lengths may differ and be 0 (msg[i] is then not read); out[i]
 * may not overlap msg[j]. Call only when mulred_cpu()->sha_ni. */
void mulred_sha256_shani_x4(uint8_t *const out[4], const uint8_t *const msg[4],
                            const size_t len[4]);

/* The 384-byte MuHash keystream (blocks 0..5, nonce 0) for 16 keys at once with AVX-512F;
 * call only when mulred_cpu()->avx512f. out[i] receives 384 bytes for key[i]. */
void mulred_chacha20_384_x16(uint8_t *const out[16], const uint8_t *const key[16]);

/* Keyed BLAKE2b-256 (RFC 7693, digest length 32) for 8 messages at once with AVX-512F; equal to
 * mulred_blake2b256_digest with the same key. The state is the chain value after the key block,
 * computed once per key by mulred_blake2b256_keyed_init (portable C; key of 1..64 bytes, else
 * abort), plus the digest of the empty message. mulred_blake2b256_keyed_x8: call only when
 * mulred_cpu()->avx512f; out[i] receives the 32-byte digest of msg[i][0..len[i]). Lengths may
 * differ per lane and may be 0 (msg[i] is then not read); out[i] may not overlap msg[j].
 * Thread-safe: the state is only read. */
typedef struct mulred_blake2b_keyed_state {
    uint64_t h[8];     /* chain value after compressing the key block (counter 128) */
    uint8_t empty[32]; /* digest of the empty message: the key block is the final block */
} mulred_blake2b_keyed_state;
void mulred_blake2b256_keyed_init(mulred_blake2b_keyed_state *st, const uint8_t *key,
                                  size_t keylen);
/* The same digest for one message, portable C (one compression per 128 bytes, none for the
 * key): out receives the 32-byte digest of msg[0..len); msg is not read when len is 0; out may
 * overlap msg. Thread-safe (the state is only read); any CPU. */
void mulred_blake2b256_keyed(uint8_t out[32], const uint8_t *msg, size_t len,
                             const mulred_blake2b_keyed_state *st);
void mulred_blake2b256_keyed_x8(uint8_t *const out[8], const uint8_t *const msg[8],
                                const size_t len[8], const mulred_blake2b_keyed_state *st);

/* One-shot SHA-256 of data through libcrypto, with no context kept: for data hashed once
 * (snapshot index fingerprints and checksums). Returns 0, or -1 when libcrypto cannot allocate
 * its temporary context (out of memory). Thread-safe. */
int mulred_sha256_once(uint8_t out[32], const uint8_t *data, size_t len);

#endif

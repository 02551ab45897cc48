/* Keyed BLAKE2b-256 (RFC 7693, digest length 32) of one message, portable C. Written from the
 * RFC's description (section 3), its IV and sigma table.
 *
 * Why: MuHash's Kaspa flavor hashes every element with BLAKE2b-256 keyed "MuHashElement". The
 * key block is the first block of every keyed message, so its compression is done once per key
 * (mulred_blake2b256_keyed_init) and a message of up to 128 bytes (a Kaspa UTXO element is
 * 50–110) costs one compression. Through OpenSSL's EVP_MAC the same digest pays per-call
 * dispatch, parameter handling and the key block again for every element; here it costs a
 * fraction of that (docs/kernels.md). Constant time for a given length.
 *
 * The 12 rounds are unrolled so that the sigma indices are constants (the message words stay
 * in registers or at fixed stack offsets). */
#include <stdlib.h>
#include <string.h>

#include "hash/blake2b_internal.h"
#include "hash/hash.h"
#include "util/util.h"

const uint64_t mulred_blake2b_iv[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};

const uint8_t mulred_blake2b_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, int n)
{
    return x >> n | x << (64 - n);
}

#define G(a, b, c, d, x, y)                                                                        \
    do {                                                                                           \
        a += b + (x), d = rotr64(d ^ a, 32), c += d, b = rotr64(b ^ c, 24);                        \
        a += b + (y), d = rotr64(d ^ a, 16), c += d, b = rotr64(b ^ c, 63);                        \
    } while (0)

/* h ← compress(h, block), t = bytes compressed so far including this block (< 2^64 here: the
 * high counter word is 0), last: the finalization flag. */
static void blake2b_compress(uint64_t h[8], const uint8_t block[128], uint64_t t, int last)
{
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++) m[i] = mulred_load_le64(block + 8 * i);
    for (int i = 0; i < 8; i++) v[i] = h[i], v[8 + i] = mulred_blake2b_iv[i];
    v[12] ^= t;
    if (last) v[14] = ~v[14];
#pragma GCC unroll 12
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = mulred_blake2b_sigma[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[8 + i];
}

void mulred_blake2b256_keyed_init(mulred_blake2b_keyed_state *st, const uint8_t *key, size_t keylen)
{
    MULRED_CHECK(keylen >= 1 && keylen <= 64, "a keyed hash needs a 1..64-byte key, got %zu",
                 keylen);
    uint8_t block[128] = {0};
    memcpy(block, key, keylen);
    uint64_t h[8];
    memcpy(h, mulred_blake2b_iv, sizeof h);
    h[0] ^= 0x01010000u ^ (uint64_t)keylen << 8 ^ 32u; /* parameter block: fanout, depth 1 */
    memcpy(st->h, h, sizeof h);
    blake2b_compress(st->h, block, 128, 0); /* the key block before a non-empty message */
    blake2b_compress(h, block, 128, 1);     /* the key block as the final block: empty message */
    for (int i = 0; i < 4; i++) mulred_store_le64(st->empty + 8 * i, h[i]);
}

void mulred_blake2b256_keyed(uint8_t out[32], const uint8_t *msg, size_t len,
                             const mulred_blake2b_keyed_state *st)
{
    if (len == 0) { /* the key block was the final block */
        memcpy(out, st->empty, 32);
        return;
    }
    uint64_t h[8];
    memcpy(h, st->h, sizeof h);
    uint64_t done = 128; /* the key block */
    for (; len > 128; len -= 128, msg += 128) {
        done += 128;
        blake2b_compress(h, msg, done, 0);
    }
    uint8_t last[128] = {0};
    memcpy(last, msg, len);
    blake2b_compress(h, last, done + len, 1);
    for (int i = 0; i < 4; i++) mulred_store_le64(out + 8 * i, h[i]);
}

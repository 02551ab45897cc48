/* The hash layer's own code against OpenSSL: SHA-NI SHA-256, the one-message and 8-lane keyed
 * BLAKE2b-256, the 16-lane ChaCha20 keystream. The OpenSSL wrappers of hash.c are the
 * independent reference (and, for the Kaspa flavor, the published MuHash vectors of
 * test_muhash run through the same code). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hash/hash.h"
#include "util/util.h"

/* The 16-lane keystream against OpenSSL on random keys (skipped without AVX-512F). */
static void test_chacha_x16(void)
{
    if (!mulred_cpu()->avx512f) {
        test_skip("no AVX-512F: the 16-lane keystream is not used on this CPU");
        return;
    }
    mulred_chacha20 *ref = mulred_chacha20_new();
    for (int it = 0; it < 50; it++) {
        uint8_t keys[16][32], out[16][384], want[384];
        const uint8_t *kp[16];
        uint8_t *op[16];
        for (int j = 0; j < 16; j++) {
            test_rand_bytes(keys[j], 32);
            if (it == 0) memset(keys[j], j == 0 ? 0x00 : 0xff, 32);
            kp[j] = keys[j];
            op[j] = out[j];
        }
        mulred_chacha20_384_x16(op, kp);
        for (int j = 0; j < 16; j++) {
            mulred_chacha20_keystream(ref, want, sizeof want, keys[j]);
            CU_ASSERT(memcmp(out[j], want, sizeof want) == 0);
        }
    }
    mulred_chacha20_free(ref);
}

/* SHA-NI SHA-256 against OpenSSL on every length 0..300 (skipped without SHA-NI). */
static void test_sha_ni(void)
{
    if (!mulred_cpu()->sha_ni) {
        test_skip("no SHA-NI on this CPU: the OpenSSL path is used");
        return;
    }
    mulred_sha256 *ref = mulred_sha256_new();
    uint8_t msg[300], a[32], b[32];
    for (size_t len = 0; len <= sizeof msg; len++) {
        test_rand_bytes(msg, len);
        mulred_sha256_shani(a, msg, len);
        mulred_sha256_digest(ref, b, msg, len);
        CU_ASSERT(memcmp(a, b, 32) == 0);
    }
    mulred_sha256_free(ref);
}

/* SHA-NI four messages at once against OpenSSL: lane 0 walks every length 0..300, the other
 * lanes take lengths around the block boundaries (55/56 bytes need one or two final blocks) or
 * random ones, so lanes of different block counts share calls; each message in its own
 * allocation of exactly its length. */
static void test_sha_ni_x4(void)
{
    if (!mulred_cpu()->sha_ni) {
        test_skip("no SHA-NI on this CPU: the OpenSSL path is used");
        return;
    }
    static const size_t edges[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300};
    enum { NEDGE = sizeof edges / sizeof edges[0] };
    mulred_sha256 *ref = mulred_sha256_new();
    int bad = 0;
    for (size_t len0 = 0; len0 <= 300; len0++) {
        uint8_t *msg[4], out[4][32], want[32];
        const uint8_t *mp[4];
        uint8_t *op[4];
        size_t len[4];
        for (int i = 0; i < 4; i++) {
            if (i == 0)
                len[i] = len0;
            else if (i < 3)
                len[i] = edges[(len0 + 5 * (size_t)i) % NEDGE];
            else
                len[i] = test_rand_below(301);
            msg[i] = malloc(len[i] ? len[i] : 1);
            CU_ASSERT_PTR_NOT_NULL_FATAL(msg[i]);
            test_rand_bytes(msg[i], len[i]);
            mp[i] = msg[i];
            op[i] = out[i];
        }
        mulred_sha256_shani_x4(op, mp, len);
        for (int i = 0; i < 4; i++) {
            mulred_sha256_digest(ref, want, msg[i], len[i]);
            if (memcmp(out[i], want, 32) != 0 && !bad++)
                printf("\n    lane %d, length %zu: digest differs", i, len[i]);
            free(msg[i]);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    mulred_sha256_free(ref);
}

/* The 8-lane keyed BLAKE2b-256 against OpenSSL's keyed BLAKE2b: lane 0 walks every length
 * 0..300 while the other lanes take lengths around the block boundaries or random ones, so every
 * call mixes lanes of different block counts; every key length 1..64. Each message sits in its
 * own allocation of exactly its length, so a read past it shows under ASan. */
static void test_blake2b_x8(void)
{
    if (!mulred_cpu()->avx512f) {
        test_skip("no AVX-512F: the 8-lane BLAKE2b is not used on this CPU");
        return;
    }
    static const size_t edges[] = {0, 1, 127, 128, 129, 255, 256, 257, 300};
    enum { NEDGE = sizeof edges / sizeof edges[0] };
    for (size_t keylen = 1; keylen <= 64; keylen++) {
        uint8_t key[64];
        test_rand_bytes(key, keylen);
        mulred_blake2b256 *ref = mulred_blake2b256_new(key, keylen);
        mulred_blake2b_keyed_state st;
        mulred_blake2b256_keyed_init(&st, key, keylen);
        for (size_t len0 = 0; len0 <= 300; len0++) {
            uint8_t *msg[8], out[8][32], want[32];
            const uint8_t *mp[8];
            uint8_t *op[8];
            size_t len[8];
            for (int i = 0; i < 8; i++) {
                if (i == 0)
                    len[i] = len0;
                else if (i < 5)
                    len[i] = edges[(len0 + 3 * (size_t)i) % NEDGE];
                else
                    len[i] = test_rand_below(301);
                msg[i] = malloc(len[i] ? len[i] : 1);
                CU_ASSERT_PTR_NOT_NULL_FATAL(msg[i]);
                test_rand_bytes(msg[i], len[i]);
                mp[i] = msg[i];
                op[i] = out[i];
            }
            mulred_blake2b256_keyed_x8(op, mp, len, &st);
            for (int i = 0; i < 8; i++) {
                mulred_blake2b256_digest(ref, want, msg[i], len[i]);
                CU_ASSERT(memcmp(out[i], want, 32) == 0);
                free(msg[i]);
            }
        }
        mulred_blake2b256_free(ref);
    }
}

/* The portable one-message keyed BLAKE2b-256 against OpenSSL's keyed BLAKE2b: every length
 * 0..300 and a few multi-block lengths, for every key length 1..64; each message in its own
 * allocation of exactly its length (a read past it shows under ASan); then the digest written
 * over its own message. */
static void test_blake2b_one(void)
{
    static const size_t longer[] = {383, 384, 385, 1000, 4096};
    for (size_t keylen = 1; keylen <= 64; keylen++) {
        uint8_t key[64];
        test_rand_bytes(key, keylen);
        mulred_blake2b256 *ref = mulred_blake2b256_new(key, keylen);
        mulred_blake2b_keyed_state st;
        mulred_blake2b256_keyed_init(&st, key, keylen);
        int bad = 0;
        for (size_t k = 0; k <= 300 + sizeof longer / sizeof longer[0]; k++) {
            size_t len = k <= 300 ? k : longer[k - 301];
            uint8_t *msg = malloc(len ? len : 1), out[32], want[32];
            CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
            test_rand_bytes(msg, len);
            mulred_blake2b256_keyed(out, msg, len, &st);
            mulred_blake2b256_digest(ref, want, msg, len);
            if (memcmp(out, want, 32) != 0 && !bad++)
                printf("\n    key length %zu, message length %zu: digest differs", keylen, len);
            if (len >= 32) { /* out overlapping msg */
                mulred_blake2b256_keyed(msg, msg, len, &st);
                if (memcmp(msg, want, 32) != 0 && !bad++)
                    printf("\n    key length %zu, length %zu: in-place digest differs", keylen,
                           len);
            }
            free(msg);
        }
        CU_ASSERT_EQUAL(bad, 0);
        mulred_blake2b256_free(ref);
    }
}

void test_register(void)
{
    TEST_SUITE("hash", {"SHA-NI SHA-256 = OpenSSL", test_sha_ni},
               {"SHA-NI SHA-256, four at once = OpenSSL", test_sha_ni_x4},
               {"keyed BLAKE2b-256, one message = OpenSSL", test_blake2b_one},
               {"8-lane keyed BLAKE2b-256 = OpenSSL", test_blake2b_x8},
               {"16-lane ChaCha20 = OpenSSL", test_chacha_x16});
}

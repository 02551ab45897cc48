/* MuHash serialized states (mulred_muhash_parse, both flavors) against GMP and libcrypto:
 *   bitcoin: accepted iff 768 bytes; serialize(parse(x)) = (num mod p) ‖ (den mod p); the digest
 *            is SHA-256 of the 384 LE bytes of num·den⁻¹ mod p (0 when den ≡ 0);
 *   kaspa:   accepted iff 384 bytes and the value is < p; serialize(parse(x)) = x; the digest is
 *            BLAKE2b-256 keyed "MuHashFinalize" of x.
 * When the input holds two states of a flavor back to back, their combination must serialize to
 * the products mod p (bitcoin: numerators and denominators; kaspa: the values). The reference
 * arithmetic is mpz, the reference digests OpenSSL's EVP. */
#include "fuzz_common.h"

#include <gmp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "mulred/muhash.h"

#define NB MULRED_NUM3072_BYTES

static mpz_t P;

static void from_le(mpz_t r, const uint8_t *b)
{
    mpz_import(r, NB, -1, 1, 0, 0, b);
}

static void to_le(uint8_t out[NB], const mpz_t v)
{
    memset(out, 0, NB);
    size_t n = 0;
    mpz_export(out, &n, -1, 1, 0, 0, v);
    FUZZ_CHECK(n <= NB, "value wider than 3072 bits");
}

static void kaspa_finalize_ref(uint8_t out[32], const uint8_t in[NB])
{
    static EVP_MAC *mac;
    if (!mac) mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    size_t outlen = 32;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &outlen),
                           OSSL_PARAM_construct_end()};
    static const char key[] = "MuHashFinalize";
    FUZZ_CHECK(EVP_MAC_init(c, (const unsigned char *)key, sizeof key - 1, params), "MAC init");
    EVP_MAC_update(c, in, NB);
    size_t got = 0;
    EVP_MAC_final(c, out, &got, 32);
    FUZZ_CHECK(got == 32, "MAC length");
    EVP_MAC_CTX_free(c);
}

static void check_flavor(mulred_muhash_flavor flavor, const uint8_t *data, size_t size)
{
    const size_t want = flavor == MULRED_MUHASH_BITCOIN ? 2 * NB : NB;
    mulred_muhash_state s;
    mulred_error err;
    mulred_error_clear(&err);
    int st = mulred_muhash_parse(&s, flavor, data, size, &err);
    mpz_t a, b, x;
    mpz_inits(a, b, x, NULL);
    bool accept = size == want;
    if (accept && flavor == MULRED_MUHASH_KASPA) {
        from_le(a, data);
        accept = mpz_cmp(a, P) < 0;
    }
    FUZZ_CHECK((st == MULRED_OK) == accept, "%s: %zu bytes: status %d (%s), reference %s",
               mulred_muhash_flavor_name(flavor), size, st, err.message,
               accept ? "accept" : "reject");
    if (st) {
        FUZZ_CHECK(st == MULRED_EINPUT, "rejection status %d", st);
        mpz_clears(a, b, x, NULL);
        return;
    }
    uint8_t ser[2 * NB], want_ser[2 * NB], digest[32], want_digest[32];
    FUZZ_CHECK(mulred_muhash_serialize(ser, &s) == want, "serialized size");
    if (flavor == MULRED_MUHASH_BITCOIN) {
        from_le(a, data);
        from_le(b, data + NB);
        mpz_mod(a, a, P);
        mpz_mod(b, b, P);
        to_le(want_ser, a);
        to_le(want_ser + NB, b);
        if (mpz_sgn(b) == 0)
            mpz_set_ui(x, 0);
        else {
            FUZZ_CHECK(mpz_invert(x, b, P), "mpz_invert");
            mpz_mul(x, x, a);
            mpz_mod(x, x, P);
        }
        uint8_t xb[NB];
        to_le(xb, x);
        fuzz_sha256(want_digest, xb, NB);
    } else {
        memcpy(want_ser, data, NB);
        kaspa_finalize_ref(want_digest, data);
    }
    FUZZ_CHECK(memcmp(ser, want_ser, want) == 0, "%s: serialize(parse(x)) differs from GMP",
               mulred_muhash_flavor_name(flavor));
    mulred_muhash_finalize(digest, &s);
    FUZZ_CHECK(memcmp(digest, want_digest, 32) == 0, "%s: digest differs from the reference",
               mulred_muhash_flavor_name(flavor));
    mpz_clears(a, b, x, NULL);
}

/* Two states back to back: combine, then compare with the products mod p. */
static void check_combine(mulred_muhash_flavor flavor, const uint8_t *data)
{
    const size_t want = flavor == MULRED_MUHASH_BITCOIN ? 2 * NB : NB;
    mulred_muhash_state s, t;
    mulred_error err;
    if (mulred_muhash_parse(&s, flavor, data, want, &err) ||
        mulred_muhash_parse(&t, flavor, data + want, want, &err))
        return;
    mulred_muhash_combine(&s, &t);
    uint8_t ser[2 * NB], ref[2 * NB];
    mulred_muhash_serialize(ser, &s);
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    if (flavor == MULRED_MUHASH_BITCOIN) {
        for (int half = 0; half < 2; half++) {
            from_le(a, data + half * NB);
            from_le(b, data + want + half * NB);
            mpz_mul(a, a, b);
            mpz_mod(a, a, P);
            to_le(ref + half * NB, a);
        }
    } else {
        from_le(a, data);
        from_le(b, data + want);
        mpz_mul(a, a, b);
        mpz_mod(a, a, P);
        to_le(ref, a);
    }
    FUZZ_CHECK(memcmp(ser, ref, want) == 0, "%s: combine differs from the GMP product",
               mulred_muhash_flavor_name(flavor));
    mpz_clears(a, b, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!P->_mp_d) {
        mpz_init_set_ui(P, 1);
        mpz_mul_2exp(P, P, 3072);
        mpz_sub_ui(P, P, 1103717);
    }
    check_flavor(MULRED_MUHASH_BITCOIN, data, size);
    check_flavor(MULRED_MUHASH_KASPA, data, size);
    /* Fixed sizes rarely come out of mutation: also read prefixes of the exact sizes. */
    if (size > NB) check_flavor(MULRED_MUHASH_KASPA, data, NB);
    if (size > 2 * NB) check_flavor(MULRED_MUHASH_BITCOIN, data, 2 * NB);
    if (size >= 2 * NB) check_combine(MULRED_MUHASH_KASPA, data);
    if (size >= 4 * NB) check_combine(MULRED_MUHASH_BITCOIN, data);
    return 0;
}

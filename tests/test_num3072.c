/* num3072: the operations around the kernels (reduction, identity short-circuit, inverse,
 * bytes) against GMP mpz; the kernels are in test_num3072_kernels.c. */
#include <gmp.h>
#include <string.h>

#include "harness.h"
#include "num3072/num3072.h"

static mpz_t P;

static void to_mpz(mpz_t z, const mulred_num3072 *a)
{
    mpz_import(z, MULRED_NUM3072_LIMBS, -1, sizeof(uint64_t), 0, 0, a->limb);
}

/* Edge values: 0, 1, 2, p−1, p, p+1, 2^3072−1, all-ones limbs patterns, single limbs. */
static int edge_count(void)
{
    return 12;
}
static void edge_value(mulred_num3072 *r, int i)
{
    memset(r, 0, sizeof *r);
    mpz_t z;
    mpz_init(z);
    switch (i) {
    case 0:
        break;
    case 1:
        r->limb[0] = 1;
        break;
    case 2:
        r->limb[0] = 2;
        break;
    case 3:
        mpz_sub_ui(z, P, 1);
        break;
    case 4:
        mpz_set(z, P);
        break;
    case 5:
        mpz_add_ui(z, P, 1);
        break;
    case 6:
        memset(r->limb, 0xff, sizeof r->limb);
        break;
    case 7:
        mpz_add_ui(z, P, 1103716);
        break; /* 2^3072 − 1 via p */
    case 8:
        for (int k = 0; k < MULRED_NUM3072_LIMBS; k += 2) r->limb[k] = UINT64_MAX;
        break;
    case 9:
        r->limb[MULRED_NUM3072_LIMBS - 1] = UINT64_MAX;
        break;
    case 10:
        r->limb[0] = UINT64_MAX;
        break;
    case 11:
        mpz_sub_ui(z, P, 2);
        break; /* −2: products near the top */
    }
    if (mpz_sgn(z)) mpz_export(r->limb, NULL, -1, sizeof(uint64_t), 0, 0, z);
    mpz_clear(z);
}

static void random_value(mulred_num3072 *r)
{
    switch (test_rand_below(4)) {
    case 0: /* dense random */
        for (int i = 0; i < MULRED_NUM3072_LIMBS; i++) r->limb[i] = test_rand64();
        break;
    case 1: /* sparse */
        memset(r, 0, sizeof *r);
        for (int k = 0; k < 3; k++) r->limb[test_rand_below(MULRED_NUM3072_LIMBS)] = test_rand64();
        break;
    case 2: /* near p and 2^3072: top limbs all ones */
        for (int i = 0; i < MULRED_NUM3072_LIMBS; i++) r->limb[i] = UINT64_MAX;
        r->limb[0] -= test_rand_below(3 * 1103717);
        break;
    default: /* random bytes with all-ones or zero limbs mixed in */
        for (int i = 0; i < MULRED_NUM3072_LIMBS; i++) {
            uint64_t k = test_rand_below(3);
            r->limb[i] = k == 0 ? 0 : k == 1 ? UINT64_MAX : test_rand64();
        }
    }
}

/* Checks r ≡ a·b (mod p) with mpz (r < 2^3072 holds by type). */
static int check_product(const mulred_num3072 *r, const mulred_num3072 *a, const mulred_num3072 *b)
{
    mpz_t za, zb, zr;
    mpz_inits(za, zb, zr, NULL);
    to_mpz(za, a);
    to_mpz(zb, b);
    to_mpz(zr, r);
    mpz_mul(za, za, zb);
    mpz_mod(za, za, P);
    mpz_mod(zr, zr, P);
    int ok = mpz_cmp(za, zr) == 0;
    mpz_clears(za, zb, zr, NULL);
    return ok;
}

/* The GMP path promises a fully reduced product: r < p and r ≡ a·b, judged by mpz. */
static void test_gmp_fully_reduces(void)
{
    mpz_t zr;
    mpz_init(zr);
    for (int it = 0; it < 2000; it++) {
        mulred_num3072 a, b, r;
        if (it < edge_count() * edge_count()) {
            edge_value(&a, it % edge_count());
            edge_value(&b, it / edge_count());
        } else {
            random_value(&a);
            random_value(&b);
        }
        num3072_mul_gmp(r.limb, a.limb, b.limb);
        to_mpz(zr, &r);
        CU_ASSERT(mpz_cmp(zr, P) < 0);
        CU_ASSERT(check_product(&r, &a, &b));
    }
    mpz_clear(zr);
}

static void test_identity_short_circuit(void)
{
    mulred_num3072 one, x, r;
    mulred_num3072_set_one(&one);
    CU_ASSERT(mulred_num3072_is_one(&one));
    edge_value(&x, 6); /* 2^3072 − 1 >= p: a copy keeps it unreduced, still congruent */
    mulred_num3072_mul(&r, &one, &x);
    CU_ASSERT(memcmp(&r, &x, sizeof x) == 0);
    mulred_num3072_mul(&r, &x, &one);
    CU_ASSERT(memcmp(&r, &x, sizeof x) == 0);
    edge_value(&x, 4); /* p ≡ 0 */
    CU_ASSERT(!mulred_num3072_is_one(&x));
    edge_value(&x, 5); /* p + 1 ≡ 1 but not the representation 1 */
    CU_ASSERT(!mulred_num3072_is_one(&x));
    for (int i = 0; i < 100; i++) {
        random_value(&x);
        mulred_num3072_mul(&r, &x, &one);
        CU_ASSERT(check_product(&r, &x, &one));
    }
}

static void test_reduce_inverse_bytes(void)
{
    for (int it = 0; it < 200; it++) {
        mulred_num3072 a, r, inv;
        if (it < edge_count())
            edge_value(&a, it);
        else
            random_value(&a);
        mulred_num3072_reduce(&r, &a);
        mpz_t za, zr;
        mpz_inits(za, zr, NULL);
        to_mpz(za, &a);
        to_mpz(zr, &r);
        mpz_mod(za, za, P);
        CU_ASSERT(mpz_cmp(za, zr) == 0);
        mulred_num3072_inverse(&inv, &a);
        mpz_t zinv, want;
        mpz_inits(zinv, want, NULL);
        to_mpz(zinv, &inv);
        if (mpz_sgn(za) == 0) {
            CU_ASSERT(mpz_sgn(zr) == 0);
            CU_ASSERT(mpz_sgn(zinv) == 0); /* 0 maps to 0 */
        } else {
            CU_ASSERT_FATAL(mpz_invert(want, za, P) != 0); /* p is prime */
            CU_ASSERT(mpz_cmp(zinv, want) == 0);           /* and it is the reduced inverse */
        }
        mpz_clears(zinv, want, NULL);
        /* bytes: the 384-byte little-endian encoding of the integer, as mpz_export writes it */
        uint8_t bytes[384], want_bytes[384] = {0};
        mulred_num3072 back;
        to_mpz(za, &a);
        mpz_export(want_bytes, NULL, -1, 1, 0, 0, za);
        mulred_num3072_to_bytes(bytes, &a);
        CU_ASSERT(memcmp(bytes, want_bytes, sizeof bytes) == 0);
        test_rand_bytes(bytes, sizeof bytes);
        mpz_import(za, sizeof bytes, -1, 1, 0, 0, bytes);
        mulred_num3072_from_bytes(&back, bytes);
        to_mpz(zr, &back);
        CU_ASSERT(mpz_cmp(zr, za) == 0);
        mpz_clears(za, zr, NULL);
    }
}

void test_register(void)
{
    mpz_init_set_ui(P, 1);
    mpz_mul_2exp(P, P, 3072);
    mpz_sub_ui(P, P, 1103717);
    /* The kernels themselves (gmp, mulx, ifma) are checked against mpz in test_num3072_kernels. */
    TEST_SUITE("num3072", {"gmp path output is below p", test_gmp_fully_reduces},
               {"identity short-circuit", test_identity_short_circuit},
               {"reduce, inverse, bytes", test_reduce_inverse_bytes});
}

/* Fp2 and G2 of BLS12-381 and BN254 (include/mulred/field.h, curve.h; src/field/fp2_impl.h,
 * src/curve/curve_g2.c) against the mpz reference of g2_ref.c: Fp2 arithmetic on edge
 * elements (0, 1, p − 1, u, zero c0 or c1) and random ones; the square root against Euler's
 * criterion on the norm; the twist coefficient, generators, endomorphisms φ (= λ) and ψ
 * (= p mod r) against reference multiples; every coordinate system and addition with P = Q,
 * P = −Q and infinity; batch-affine pairs with ±φ; the ψ subgroup check against r·P = O on
 * points outside G2 (found by trying x until x³ + b′ is a square, no cofactor clearing). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve_internal.h"
#include "curve/g2_batch.h"
#include "field/field_x8.h"
#include "g2_ref.h"
#include "curve_ref.h"
#include "harness.h"
#include "mulred/curve.h"
#include "mulred/field.h"

#define TG g2_381
#define TF fp2_381
#define TB fp381
#define TC 0
#define TN 6
#include "test_g2_impl.h"
#undef TG
#undef TF
#undef TB
#undef TC
#undef TN

#define TG g2_254
#define TF fp2_254
#define TB fp254
#define TC 1
#define TN 4
#include "test_g2_impl.h"
#undef TG
#undef TF
#undef TB
#undef TC
#undef TN

/* ---- encodings ---- */

/* The reference point's coordinates as big-endian bytes in the given order of (x.c0, x.c1,
 * y.c0, y.c1) indices, each in a field of `width` bytes (right-aligned: zero padding). */
static void ref_bytes(uint8_t *out, int c, const ref_point2 *a, const int order[4], size_t width)
{
    const ref_curve2 *rc = ref2_curve(c);
    mpz_srcptr v[4] = {a->x.c0, a->x.c1, a->y.c0, a->y.c1};
    memset(out, 0, 4 * width);
    for (int i = 0; i < 4; i++)
        ref_mpz_to_be(out + i * width + (width - rc->pbytes), rc->pbytes, v[order[i]]);
}

static void t_encodings_381(void)
{
    const ref_curve2 *c = ref2_curve(0);
    static const int eip[4] = {0, 1, 2, 3}, zc[4] = {1, 0, 3, 2};
    mulred_g2_381_affine g, d;
    mulred_decode_reason why;
    mulred_g2_381_generator(&g);
    /* the published compressed generator (ZCash spec / IETF draft) */
    size_t len;
    uint8_t *pub =
        test_unhex("93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d"
                   "57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3"
                   "d1770bac0326a805bbefd48056c8c121bdb8",
                   &len);
    CU_ASSERT_FATAL(len == 96);
    uint8_t buf[256], want[256];
    mulred_g2_381_encode_compressed(buf, &g);
    CU_ASSERT(memcmp(buf, pub, 96) == 0);
    CU_ASSERT(mulred_g2_381_decode_compressed(&d, pub, 0, &why) == MULRED_OK && why == 0);
    CU_ASSERT(mulred_g2_381_affine_equal(&d, &g));
    free(pub);
    mpz_t k;
    mpz_init(k);
    ref_point2 p, q;
    ref_point2_init(&p);
    ref_point2_init(&q);
    for (int it = 0; it < 16; it++) {
        g2_381_t_rand_point(&p, k);
        if (it == 0) ref_point2_set(&p, &c->g);
        mulred_g2_381_affine a;
        ref2_to_affine(0, &a, &p);
        /* EIP-2537: 64-byte fields, c0 first */
        ref_bytes(want, 0, &p, eip, 64);
        mulred_g2_381_encode_eip2537(buf, &a);
        CU_ASSERT(memcmp(buf, want, 256) == 0);
        CU_ASSERT(mulred_g2_381_decode_eip2537(&d, want, 0, &why) == MULRED_OK);
        CU_ASSERT(mulred_g2_381_affine_equal(&d, &a));
        /* uncompressed: 48-byte fields, c1 first */
        ref_bytes(want, 0, &p, zc, 48);
        mulred_g2_381_encode_uncompressed(buf, &a);
        CU_ASSERT(memcmp(buf, want, 192) == 0);
        CU_ASSERT(mulred_g2_381_decode_uncompressed(&d, want, 0, &why) == MULRED_OK);
        CU_ASSERT(mulred_g2_381_affine_equal(&d, &a));
        /* compressed: x as above, the sign of y by the reference (c1 first, then c0) */
        mulred_g2_381_encode_compressed(buf, &a);
        want[0] |= 0x80;
        ref_fp2 ny;
        ref_fp2_init(&ny);
        ref_fp2_neg(c->p, &ny, &p.y);
        const int cmp1 = mpz_cmp(p.y.c1, ny.c1);
        const int larger = cmp1 ? cmp1 > 0 : mpz_cmp(p.y.c0, ny.c0) > 0;
        ref_fp2_clear(&ny);
        if (larger) want[0] |= 0x20;
        CU_ASSERT(memcmp(buf, want, 96) == 0);
        CU_ASSERT(mulred_g2_381_decode_compressed(&d, want, 0, &why) == MULRED_OK);
        CU_ASSERT(mulred_g2_381_affine_equal(&d, &a));
        /* −P flips only the sign bit */
        want[0] ^= 0x20;
        mulred_g2_381_affine na;
        mulred_g2_381_affine_neg(&na, &a);
        CU_ASSERT(mulred_g2_381_decode_compressed(&d, want, 0, &why) == MULRED_OK);
        CU_ASSERT(mulred_g2_381_affine_equal(&d, &na));
    }
    /* infinity */
    mulred_g2_381_affine inf;
    mulred_g2_381_affine_set_infinity(&inf);
    memset(want, 0, sizeof want);
    mulred_g2_381_encode_eip2537(buf, &inf);
    CU_ASSERT(memcmp(buf, want, 256) == 0);
    CU_ASSERT(mulred_g2_381_decode_eip2537(&d, want, 0, &why) == MULRED_OK);
    CU_ASSERT(mulred_g2_381_affine_is_infinity(&d));
    mulred_g2_381_encode_compressed(buf, &inf);
    CU_ASSERT(buf[0] == 0xc0 && memcmp(buf + 1, want, 95) == 0);
    CU_ASSERT(mulred_g2_381_decode_compressed(&d, buf, 0, &why) == MULRED_OK);
    buf[95] = 1;
    CU_ASSERT(mulred_g2_381_decode_compressed(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_EINFINITY);
    mulred_g2_381_encode_uncompressed(buf, &inf);
    CU_ASSERT(buf[0] == 0x40 && memcmp(buf + 1, want, 191) == 0);
    CU_ASSERT(mulred_g2_381_decode_uncompressed(&d, buf, 0, &why) == MULRED_OK);
    memset(buf, 0, 192); /* all zero without the infinity flag: not a point */
    CU_ASSERT(mulred_g2_381_decode_uncompressed(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_ECURVE);
    /* failures, each naming its check */
    ref_bytes(want, 0, &c->g, eip, 64);
    memcpy(buf, want, 256);
    buf[64 + 3] = 1;
    CU_ASSERT(mulred_g2_381_decode_eip2537(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_EPADDING && mulred_g2_381_affine_is_infinity(&d));
    for (int f = 0; f < 4; f++) { /* each coordinate = p */
        memcpy(buf, want, 256);
        ref_mpz_to_be(buf + 64 * f + 16, 48, c->p);
        CU_ASSERT(mulred_g2_381_decode_eip2537(&d, buf, 0, &why) == MULRED_EINPUT &&
                  why == MULRED_DECODE_ERANGE);
    }
    memcpy(buf, want, 256);
    buf[255] ^= 1; /* y.c1 changed: off the curve */
    CU_ASSERT(mulred_g2_381_decode_eip2537(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_ECURVE);
    mulred_g2_381_affine off;
    g2_381_t_off_subgroup(&off, &p, 1);
    ref_bytes(buf, 0, &p, eip, 64);
    CU_ASSERT(mulred_g2_381_decode_eip2537(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_ESUBGROUP_G2);
    CU_ASSERT(mulred_g2_381_decode_eip2537(&d, buf, MULRED_DECODE_SKIP_SUBGROUP_CHECK, &why) ==
              MULRED_OK);
    CU_ASSERT(mulred_g2_381_affine_equal(&d, &off));
    mulred_g2_381_encode_compressed(buf, &off);
    CU_ASSERT(mulred_g2_381_decode_compressed(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_ESUBGROUP_G2);
    buf[0] &= 0x7f;
    CU_ASSERT(mulred_g2_381_decode_compressed(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_EFLAGS);
    mulred_g2_381_encode_uncompressed(buf, &g);
    buf[0] |= 0x20;
    CU_ASSERT(mulred_g2_381_decode_uncompressed(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_EUFLAGS);
    /* a compressed x with no y on E′: try x = (i, 0) until x³ + b′ is a non-square (Euler on
     * the reference's norm) */
    for (unsigned long i = 1;; i++) {
        mpz_t n, t;
        mpz_inits(n, t, NULL);
        ref_fp2 x, rhs;
        ref_fp2_init(&x);
        ref_fp2_init(&rhs);
        mpz_set_ui(x.c0, i);
        ref_fp2_mul(c->p, &rhs, &x, &x);
        ref_fp2_mul(c->p, &rhs, &rhs, &x);
        ref_fp2_add(c->p, &rhs, &rhs, &c->b);
        mpz_mul(n, rhs.c0, rhs.c0);
        mpz_addmul(n, rhs.c1, rhs.c1);
        mpz_mod(n, n, c->p);
        const int sq = mpz_legendre(n, c->p) >= 0;
        memset(buf, 0, 96);
        ref_mpz_to_be(buf + 48, 48, x.c0);
        buf[0] |= 0x80;
        ref_fp2_clear(&x);
        ref_fp2_clear(&rhs);
        mpz_clears(n, t, NULL);
        if (sq) continue;
        CU_ASSERT(mulred_g2_381_decode_compressed(&d, buf, 0, &why) == MULRED_EINPUT &&
                  why == MULRED_DECODE_ECURVE);
        break;
    }
    CU_ASSERT(strcmp(mulred_decode_reason_text(MULRED_DECODE_ESUBGROUP_G2),
                     "point not in the prime-order subgroup G2") == 0);
    mpz_clear(k);
    ref_point2_clear(&p);
    ref_point2_clear(&q);
}

static void t_encodings_254(void)
{
    const ref_curve2 *c = ref2_curve(1);
    static const int eip197[4] = {1, 0, 3, 2};
    mulred_g2_254_affine g, d;
    mulred_decode_reason why;
    mulred_g2_254_generator(&g);
    uint8_t buf[128], want[128];
    mpz_t k;
    mpz_init(k);
    ref_point2 p;
    ref_point2_init(&p);
    for (int it = 0; it < 16; it++) {
        g2_254_t_rand_point(&p, k);
        if (it == 0) ref_point2_set(&p, &c->g); /* EIP-197's generator, from its decimals */
        mulred_g2_254_affine a;
        ref2_to_affine(1, &a, &p);
        ref_bytes(want, 1, &p, eip197, 32);
        mulred_g2_254_encode_eip197(buf, &a);
        CU_ASSERT(memcmp(buf, want, 128) == 0);
        CU_ASSERT(mulred_g2_254_decode_eip197(&d, want, 0, &why) == MULRED_OK);
        CU_ASSERT(mulred_g2_254_affine_equal(&d, &a));
        if (it == 0) CU_ASSERT(mulred_g2_254_affine_equal(&d, &g));
    }
    memset(want, 0, 128);
    CU_ASSERT(mulred_g2_254_decode_eip197(&d, want, 0, &why) == MULRED_OK);
    CU_ASSERT(mulred_g2_254_affine_is_infinity(&d));
    ref_bytes(want, 1, &c->g, eip197, 32);
    for (int f = 0; f < 4; f++) {
        memcpy(buf, want, 128);
        ref_mpz_to_be(buf + 32 * f, 32, c->p);
        CU_ASSERT(mulred_g2_254_decode_eip197(&d, buf, 0, &why) == MULRED_EINPUT &&
                  why == MULRED_DECODE_ERANGE);
    }
    memcpy(buf, want, 128);
    buf[127] ^= 1;
    CU_ASSERT(mulred_g2_254_decode_eip197(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_ECURVE);
    mulred_g2_254_affine off;
    g2_254_t_off_subgroup(&off, &p, 1);
    ref_bytes(buf, 1, &p, eip197, 32);
    CU_ASSERT(mulred_g2_254_decode_eip197(&d, buf, 0, &why) == MULRED_EINPUT &&
              why == MULRED_DECODE_ESUBGROUP_G2);
    CU_ASSERT(mulred_g2_254_decode_eip197(&d, buf, MULRED_DECODE_SKIP_SUBGROUP_CHECK, &why) ==
              MULRED_OK);
    CU_ASSERT(mulred_g2_254_affine_equal(&d, &off));
    mpz_clear(k);
    ref_point2_clear(&p);
}

void test_register(void)
{
    TEST_SUITE("fp2", {"bls12-381 arithmetic", g2_381_t_fp2_arith},
               {"bn254 arithmetic", g2_254_t_fp2_arith}, {"bls12-381 sqrt", g2_381_t_fp2_sqrt},
               {"bn254 sqrt", g2_254_t_fp2_sqrt});
    TEST_SUITE("g2", {"bls12-381 constants", g2_381_t_constants},
               {"bn254 constants", g2_254_t_constants}, {"bls12-381 group ops", g2_381_t_group_ops},
               {"bn254 group ops", g2_254_t_group_ops}, {"bls12-381 batches", g2_381_t_batches},
               {"bn254 batches", g2_254_t_batches}, {"bls12-381 subgroup", g2_381_t_subgroup},
               {"bn254 subgroup", g2_254_t_subgroup}, {"bls12-381 encodings", t_encodings_381},
               {"bn254 encodings", t_encodings_254});
    TEST_SUITE_X8("fp2 8 lanes", {"bls12-381", g2_381_t_fp2_x8}, {"bn254", g2_254_t_fp2_x8});
    TEST_SUITE_X8("g2 8 lanes", {"bls12-381 batches", g2_381_t_batches_x8},
                  {"bn254 batches", g2_254_t_batches_x8});
}

/* The G1 decoders of mulred/curve.h (BLS12-381 EIP-2537 128 bytes and ZCash compressed 48
 * bytes, BN254 EIP-196 64 bytes), differential against a decoder written here with mpz: the
 * status (the first failing check in the documented order: flags, infinity, padding, range,
 * curve, subgroup), and for an accepted point its coordinates (through the canonical
 * encoding: re-encoding an accepted input gives the same bytes), is_on_curve, and in_g1_var
 * against r·P = O computed with the tests' mpz reference (tests/curve_ref.c). With
 * MULRED_DECODE_SKIP_SUBGROUP_CHECK the decoders accept points outside G1.
 *
 * Input: a selector byte (bits 0-1: 0 EIP-2537, 1 compressed, 2 EIP-196; bit 2: skip the
 * subgroup check; bit 3: build the encoding from a curve point: the bytes are then x, and
 * y is derived with mpz, so that on-curve points are reached), then the encoding's bytes
 * (zero-extended to its length). */
#include "fuzz_common.h"

#include <stdlib.h>
#include <gmp.h>

#include "curve_ref.h"
#include "g1_decode.h"
#include "mulred/curve.h"

static mpz_t T1, T2, T3;
static const ref_curve *C381, *C254; /* the tests' mpz reference of G1 (tests/curve_ref.c) */

static void init(void)
{
    static int done;
    if (done) return;
    done = 1;
    mpz_inits(T1, T2, T3, NULL);
    C381 = ref_curve_get(0);
    C254 = ref_curve_get(1);
}

/* (x, y) lies on curve c: y^2 == x^3 + b (mod p), coordinates below p checked by the caller */
static bool on_curve(const ref_curve *c, const mpz_t x, const mpz_t y)
{
    ref_point a;
    ref_point_init(&a);
    mpz_set(a.x, x), mpz_set(a.y, y), a.inf = 0;
    const bool ok = ref_on_curve(c, &a);
    ref_point_clear(&a);
    return ok;
}

/* r·(x, y) == O on BLS12-381 (the reference's double-and-add) */
static bool in_g1_mpz(const mpz_t x, const mpz_t y)
{
    ref_point a, t;
    ref_point_init(&a), ref_point_init(&t);
    mpz_set(a.x, x), mpz_set(a.y, y), a.inf = 0;
    ref_mul(C381, &t, &a, C381->r);
    const bool inf = t.inf;
    ref_point_clear(&a), ref_point_clear(&t);
    return inf;
}

static void import_be(mpz_t r, const uint8_t *b, size_t n)
{
    mpz_import(r, n, 1, 1, 0, 0, b);
}

static void export_be(uint8_t *out, size_t n, const mpz_t v)
{
    memset(out, 0, n);
    size_t cnt = (mpz_sizeinbase(v, 256) + 0);
    if (mpz_sgn(v) == 0) return;
    FUZZ_CHECK(cnt <= n, "value of %zu bytes into %zu", cnt, n);
    mpz_export(out + n - cnt, NULL, 1, 1, 0, 0, v);
}

/* y = sqrt(a) mod p (p = 3 mod 4), false when a is not a square */
static bool sqrt_mod(mpz_t y, const mpz_t a, const mpz_t p)
{
    mpz_add_ui(T1, p, 1);
    mpz_fdiv_q_2exp(T1, T1, 2);
    mpz_powm(y, a, T1, p);
    mpz_mul(T2, y, y);
    mpz_sub(T2, T2, a);
    return mpz_divisible_p(T2, p);
}

/* The status the documented checks give, with mpz; x, y set for a point (not infinity). */
static mulred_decode_reason expect_eip2537(const uint8_t in[128], unsigned flags, mpz_t x, mpz_t y,
                                           bool *inf)
{
    *inf = false;
    for (int i = 0; i < 16; i++)
        if (in[i] || in[64 + i]) return MULRED_DECODE_EPADDING;
    import_be(x, in + 16, 48);
    import_be(y, in + 80, 48);
    if (mpz_cmp(x, C381->p) >= 0 || mpz_cmp(y, C381->p) >= 0) return MULRED_DECODE_ERANGE;
    if (!mpz_sgn(x) && !mpz_sgn(y)) return *inf = true, MULRED_DECODE_VALID;
    if (!on_curve(C381, x, y)) return MULRED_DECODE_ECURVE;
    if (!(flags & MULRED_DECODE_SKIP_SUBGROUP_CHECK) && !in_g1_mpz(x, y))
        return MULRED_DECODE_ESUBGROUP;
    return MULRED_DECODE_VALID;
}

static mulred_decode_reason expect_compressed(const uint8_t in[48], unsigned flags, mpz_t x,
                                              mpz_t y, bool *inf)
{
    *inf = false;
    if (!(in[0] & 0x80)) return MULRED_DECODE_EFLAGS;
    if (in[0] & 0x40) {
        bool rest = (in[0] & 0x3f) != 0;
        for (int i = 1; i < 48; i++) rest |= in[i] != 0;
        if (rest) return MULRED_DECODE_EINFINITY;
        return *inf = true, MULRED_DECODE_VALID;
    }
    uint8_t b[48];
    memcpy(b, in, 48);
    b[0] &= 0x1f;
    import_be(x, b, 48);
    if (mpz_cmp(x, C381->p) >= 0) return MULRED_DECODE_ERANGE;
    mpz_t rhs;
    mpz_init(rhs);
    mpz_powm_ui(rhs, x, 3, C381->p);
    mpz_add_ui(rhs, rhs, 4);
    mpz_mod(rhs, rhs, C381->p);
    const bool sq = sqrt_mod(y, rhs, C381->p);
    mpz_clear(rhs);
    if (!sq) return MULRED_DECODE_ECURVE;
    /* the flag 0x20: y is the larger of y and p - y */
    mpz_sub(T3, C381->p, y);
    const bool larger = mpz_cmp(y, T3) > 0;
    if (mpz_sgn(y) && larger != ((in[0] & 0x20) != 0)) mpz_set(y, T3);
    if (!(flags & MULRED_DECODE_SKIP_SUBGROUP_CHECK) && !in_g1_mpz(x, y))
        return MULRED_DECODE_ESUBGROUP;
    return MULRED_DECODE_VALID;
}

static mulred_decode_reason expect_eip196(const uint8_t in[64], mpz_t x, mpz_t y, bool *inf)
{
    *inf = false;
    import_be(x, in, 32);
    import_be(y, in + 32, 32);
    if (mpz_cmp(x, C254->p) >= 0 || mpz_cmp(y, C254->p) >= 0) return MULRED_DECODE_ERANGE;
    if (!mpz_sgn(x) && !mpz_sgn(y)) return *inf = true, MULRED_DECODE_VALID;
    if (!on_curve(C254, x, y)) return MULRED_DECODE_ECURVE;
    return MULRED_DECODE_VALID;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    if (size < 1) return 0;
    const unsigned kind = data[0] & 3,
                   flags = (data[0] & 4) ? MULRED_DECODE_SKIP_SUBGROUP_CHECK : 0;
    if (kind == 3) return 0;
    const size_t len = kind == 0 ? 128 : kind == 1 ? 48 : 64;
    uint8_t in[128] = {0};
    memcpy(in, data + 1, size - 1 < len ? size - 1 : len);
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    if (data[0] & 8) {
        /* x from the input (mod p), y = a square root of x^3 + b when one exists */
        const mpz_t *p = kind == 2 ? &C254->p : &C381->p;
        const size_t cl = kind == 2 ? 32 : 48;
        import_be(x, in, cl);
        mpz_mod(x, x, *p);
        mpz_powm_ui(y, x, 3, *p);
        mpz_add_ui(y, y, kind == 2 ? 3 : 4);
        mpz_mod(y, y, *p);
        if (sqrt_mod(y, y, *p)) {
            memset(in, 0, sizeof in);
            if (kind == 0) {
                export_be(in + 16, 48, x), export_be(in + 80, 48, y);
            } else if (kind == 1) {
                export_be(in, 48, x);
                in[0] |= 0x80 | (size > 60 && (data[60] & 1) ? 0x20 : 0);
            } else {
                export_be(in, 32, x), export_be(in + 32, 32, y);
            }
        }
    }
    bool inf = false;
    mulred_decode_reason want, got;
    uint8_t again[128];
    if (kind == 2) {
        mulred_g1_254_affine a;
        want = expect_eip196(in, x, y, &inf);
        got = dec_254_eip196(&a, in, flags);
        FUZZ_CHECK(got == want, "eip196: status %d, mpz says %d", (int)got, (int)want);
        if (got == MULRED_DECODE_VALID) {
            FUZZ_CHECK(mulred_g1_254_affine_is_on_curve(&a), "eip196: accepted, not on the curve");
            FUZZ_CHECK(mulred_g1_254_affine_is_infinity(&a) == inf, "eip196: infinity");
            mulred_g1_254_encode_eip196(again, &a);
            FUZZ_CHECK(memcmp(again, in, 64) == 0, "eip196: re-encoding differs");
        } else {
            FUZZ_CHECK(mulred_g1_254_affine_is_infinity(&a), "eip196: refused, not infinity");
        }
    } else {
        mulred_g1_381_affine a;
        if (kind == 0) {
            want = expect_eip2537(in, flags, x, y, &inf);
            got = dec_381_eip2537(&a, in, flags);
        } else {
            want = expect_compressed(in, flags, x, y, &inf);
            got = dec_381_compressed(&a, in, flags);
        }
        FUZZ_CHECK(got == want, "%s: status %d (%s), mpz says %d", kind ? "compressed" : "eip2537",
                   (int)got, mulred_decode_reason_text(got), (int)want);
        if (got == MULRED_DECODE_VALID) {
            FUZZ_CHECK(mulred_g1_381_affine_is_on_curve(&a), "accepted, not on the curve");
            FUZZ_CHECK(mulred_g1_381_affine_is_infinity(&a) == inf, "infinity");
            if (kind == 0)
                mulred_g1_381_encode_eip2537(again, &a);
            else
                mulred_g1_381_encode_compressed(again, &a);
            FUZZ_CHECK(memcmp(again, in, len) == 0, "re-encoding differs");
            /* the coordinates, through the uncompressed encoding */
            uint8_t full[128], want_full[128] = {0};
            mulred_g1_381_encode_eip2537(full, &a);
            if (!inf) export_be(want_full + 16, 48, x), export_be(want_full + 80, 48, y);
            FUZZ_CHECK(memcmp(full, want_full, 128) == 0, "coordinates differ from mpz's");
            const bool g1 = inf || in_g1_mpz(x, y);
            FUZZ_CHECK(mulred_g1_381_affine_in_g1_var(&a) == g1, "in_g1_var says %d, mpz %d", !g1,
                       g1);
        } else {
            FUZZ_CHECK(mulred_g1_381_affine_is_infinity(&a), "refused, not set to infinity");
        }
    }
    mpz_clears(x, y, NULL);
    return 0;
}

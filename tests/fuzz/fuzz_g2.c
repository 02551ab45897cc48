/* The G2 decoders of mulred/curve.h (BLS12-381 EIP-2537 256 bytes, ZCash compressed 96 and
 * uncompressed 192 bytes; BN254 EIP-197 128 bytes), against the tests' mpz reference of G2
 * (tests/g2_ref.c): a coordinate >= p must fail the range check (EIP formats), an in-range
 * point must be accepted exactly when the reference puts it on E′ and, unless the subgroup
 * check is skipped, r·P = O; an accepted point re-encodes to the same bytes, is on the curve,
 * and survives the other formats (BLS12-381: compressed and uncompressed round trips). A
 * rejected input leaves infinity and names a reason of the documented list.
 *
 * Input: a selector byte (bits 0-1: 0 EIP-2537, 1 compressed, 2 uncompressed, 3 EIP-197; bit 2:
 * skip the subgroup check), then the encoding's bytes (zero-extended to its length). */
#include "fuzz_common.h"

#include <gmp.h>
#include <stdlib.h>

#include "g2_ref.h"
#include "mulred/curve.h"

static const size_t LEN[4] = {256, 96, 192, 128};

/* The reference's verdict on an in-range affine point: 0 valid, else the reason. */
static mulred_decode_reason ref_verdict(int c, const ref_point2 *p, bool skip)
{
    const ref_curve2 *rc = ref2_curve(c);
    if (!ref2_on_curve(rc, p)) return MULRED_DECODE_ECURVE;
    if (skip) return MULRED_DECODE_VALID;
    ref_point2 t;
    ref_point2_init(&t);
    ref2_mul(rc, &t, p, rc->r);
    const bool in = t.inf;
    ref_point2_clear(&t);
    return in ? MULRED_DECODE_VALID : MULRED_DECODE_ESUBGROUP_G2;
}

/* The four coordinates of an EIP encoding: (x.c0, x.c1, y.c0, y.c1) at the given offsets,
 * `w` bytes each; returns false when one is >= p. */
static bool ref_coords(int c, ref_point2 *p, const uint8_t *b, const size_t off[4], size_t w)
{
    const ref_curve2 *rc = ref2_curve(c);
    mpz_ptr v[4] = {p->x.c0, p->x.c1, p->y.c0, p->y.c1};
    bool ok = true;
    for (int i = 0; i < 4; i++) {
        mpz_import(v[i], w, 1, 1, 0, 0, b + off[i]);
        if (mpz_cmp(v[i], rc->p) >= 0) ok = false;
    }
    p->inf = ref_fp2_is_zero(&p->x) && ref_fp2_is_zero(&p->y);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const int kind = data[0] & 3;
    const bool skip = data[0] & 4;
    const unsigned flags = skip ? MULRED_DECODE_SKIP_SUBGROUP_CHECK : 0;
    uint8_t in[256] = {0}, again[256];
    memcpy(in, data + 1, size - 1 < LEN[kind] ? size - 1 : LEN[kind]);
    mulred_decode_reason why = MULRED_DECODE_VALID;
    mulred_status st;
    ref_point2 rp;
    ref_point2_init(&rp);
    if (kind == 3) {
        mulred_g2_254_affine a;
        st = mulred_g2_254_decode_eip197(&a, in, flags, &why);
        static const size_t off[4] = {32, 0, 96, 64};
        const bool range = ref_coords(1, &rp, in, off, 32);
        mulred_decode_reason want = !range   ? MULRED_DECODE_ERANGE
                                    : rp.inf ? MULRED_DECODE_VALID
                                             : ref_verdict(1, &rp, skip);
        FUZZ_CHECK(why == want, "eip197: reason %d, reference %d", (int)why, (int)want);
        FUZZ_CHECK((st == MULRED_OK) == (why == MULRED_DECODE_VALID), "eip197: status %d", st);
        if (st == MULRED_OK) {
            mulred_g2_254_encode_eip197(again, &a);
            FUZZ_CHECK(memcmp(again, in, 128) == 0, "eip197: re-encoding differs");
            FUZZ_CHECK(mulred_g2_254_affine_is_on_curve(&a), "eip197: accepted off the curve");
        } else {
            FUZZ_CHECK(mulred_g2_254_affine_is_infinity(&a), "eip197: rejected but not infinity");
        }
        ref_point2_clear(&rp);
        return 0;
    }
    mulred_g2_381_affine a, b;
    if (kind == 0) {
        st = mulred_g2_381_decode_eip2537(&a, in, flags, &why);
        bool pad = true;
        for (int f = 0; f < 4; f++)
            for (int i = 0; i < 16; i++) pad &= in[64 * f + i] == 0;
        static const size_t off[4] = {16, 80, 144, 208};
        const bool range = ref_coords(0, &rp, in, off, 48);
        mulred_decode_reason want = !pad     ? MULRED_DECODE_EPADDING
                                    : !range ? MULRED_DECODE_ERANGE
                                    : rp.inf ? MULRED_DECODE_VALID
                                             : ref_verdict(0, &rp, skip);
        FUZZ_CHECK(why == want, "eip2537: reason %d, reference %d", (int)why, (int)want);
    } else if (kind == 1) {
        st = mulred_g2_381_decode_compressed(&a, in, flags, &why);
        FUZZ_CHECK(why == MULRED_DECODE_VALID || why == MULRED_DECODE_EFLAGS ||
                       why == MULRED_DECODE_EINFINITY || why == MULRED_DECODE_ERANGE ||
                       why == MULRED_DECODE_ECURVE || why == MULRED_DECODE_ESUBGROUP_G2,
                   "compressed: reason %d", (int)why);
        if (st == MULRED_OK && !mulred_g2_381_affine_is_infinity(&a)) {
            ref2_from_affine(0, &rp, &a);
            FUZZ_CHECK(ref_verdict(0, &rp, skip) == MULRED_DECODE_VALID, "compressed: bad point");
        }
    } else {
        st = mulred_g2_381_decode_uncompressed(&a, in, flags, &why);
        if (!(in[0] & 0xe0)) { /* no flags: the coordinates decide */
            uint8_t t[192];
            memcpy(t, in, 192);
            static const size_t off[4] = {48, 0, 144, 96};
            const bool range = ref_coords(0, &rp, t, off, 48);
            /* (0, 0) without the infinity flag is not on E′ */
            mulred_decode_reason want = !range   ? MULRED_DECODE_ERANGE
                                        : rp.inf ? MULRED_DECODE_ECURVE
                                                 : ref_verdict(0, &rp, skip);
            FUZZ_CHECK(why == want, "uncompressed: reason %d, reference %d", (int)why, (int)want);
        }
    }
    FUZZ_CHECK((st == MULRED_OK) == (why == MULRED_DECODE_VALID), "status %d, reason %d", st, why);
    if (st != MULRED_OK) {
        FUZZ_CHECK(mulred_g2_381_affine_is_infinity(&a), "rejected but not infinity");
        ref_point2_clear(&rp);
        return 0;
    }
    FUZZ_CHECK(mulred_g2_381_affine_is_on_curve(&a), "accepted off the curve");
    /* the same bytes again, and the other formats round trip */
    if (kind == 0) mulred_g2_381_encode_eip2537(again, &a);
    if (kind == 1) mulred_g2_381_encode_compressed(again, &a);
    if (kind == 2) mulred_g2_381_encode_uncompressed(again, &a);
    FUZZ_CHECK(memcmp(again, in, LEN[kind]) == 0, "kind %d: re-encoding differs", kind);
    mulred_g2_381_encode_compressed(again, &a);
    FUZZ_CHECK(mulred_g2_381_decode_compressed(&b, again, flags, NULL) == MULRED_OK &&
                   mulred_g2_381_affine_equal(&a, &b),
               "compressed round trip");
    mulred_g2_381_encode_uncompressed(again, &a);
    FUZZ_CHECK(mulred_g2_381_decode_uncompressed(&b, again, flags, NULL) == MULRED_OK &&
                   mulred_g2_381_affine_equal(&a, &b),
               "uncompressed round trip");
    mulred_g2_381_encode_eip2537(again, &a);
    FUZZ_CHECK(mulred_g2_381_decode_eip2537(&b, again, flags, NULL) == MULRED_OK &&
                   mulred_g2_381_affine_equal(&a, &b),
               "eip2537 round trip");
    ref_point2_clear(&rp);
    return 0;
}

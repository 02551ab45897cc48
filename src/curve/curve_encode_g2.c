/* Encodings of G2 points: EIP-2537 and ZCash/IETF (compressed, uncompressed) for BLS12-381,
 * EIP-197 for BN254.
 *
 * Sources: EIP-2537 ("Encoding of G2 points"); the ZCash protocol specification (appendix
 * "BLS12-381", point serialization) and draft-irtf-cfrg-pairing-friendly-curves (appendix C);
 * EIP-197 ("Encoding": an Fp2 element as its imaginary part, then its real part). The decoders
 * treat their input as untrusted and name the first failed check (curve.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "curve/curve_encode_internal.h"
#include "mulred/curve.h"
#include "mulred/field.h"

/* ZCash's sign of an Fp2 y: lexicographically larger than −y, c1 first */
static bool fp2_381_larger(const mulred_fp2_381 *y)
{
    if (!mulred_fp381_is_zero(&y->c1)) return curve_fp381_is_larger(&y->c1);
    return curve_fp381_is_larger(&y->c0);
}

static mulred_decode_reason finish_381(mulred_g2_381_affine *r, const mulred_g2_381_affine *p,
                                       unsigned flags, bool on_curve)
{
    if (!on_curve && !mulred_g2_381_affine_is_on_curve(p)) return MULRED_DECODE_ECURVE;
    if (!(flags & MULRED_DECODE_SKIP_SUBGROUP_CHECK) && !mulred_g2_381_affine_in_g2_var(p))
        return MULRED_DECODE_ESUBGROUP_G2;
    *r = *p;
    return MULRED_DECODE_VALID;
}

/* ---- EIP-2537 ---- */

static mulred_decode_reason decode_eip2537(mulred_g2_381_affine *r, const uint8_t in[256],
                                           unsigned flags)
{
    mulred_g2_381_affine_set_infinity(r);
    for (int i = 0; i < 4; i++)
        if (!curve_all_zero(in + 64 * i, 16)) return MULRED_DECODE_EPADDING;
    mulred_g2_381_affine p;
    if (mulred_fp381_from_bytes(&p.x.c0, in + 16) || mulred_fp381_from_bytes(&p.x.c1, in + 80) ||
        mulred_fp381_from_bytes(&p.y.c0, in + 144) || mulred_fp381_from_bytes(&p.y.c1, in + 208))
        return MULRED_DECODE_ERANGE;
    if (mulred_g2_381_affine_is_infinity(&p)) return MULRED_DECODE_VALID; /* all zero */
    return finish_381(r, &p, flags, false);
}

void mulred_g2_381_encode_eip2537(uint8_t out[256], const mulred_g2_381_affine *a)
{
    memset(out, 0, 256);
    if (mulred_g2_381_affine_is_infinity(a)) return;
    mulred_fp381_to_bytes(out + 16, &a->x.c0);
    mulred_fp381_to_bytes(out + 80, &a->x.c1);
    mulred_fp381_to_bytes(out + 144, &a->y.c0);
    mulred_fp381_to_bytes(out + 208, &a->y.c1);
}

mulred_status mulred_g2_381_decode_eip2537(mulred_g2_381_affine *r, const uint8_t in[256],
                                           unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_eip2537(r, in, flags), reason);
}

/* ---- ZCash / IETF ---- */

static mulred_decode_reason decode_compressed(mulred_g2_381_affine *r, const uint8_t in[96],
                                              unsigned flags)
{
    const uint8_t top = in[0];
    mulred_g2_381_affine_set_infinity(r);
    if (!(top & 0x80)) return MULRED_DECODE_EFLAGS;
    if (top & 0x40) {
        if ((top & 0x3f) || !curve_all_zero(in + 1, 95)) return MULRED_DECODE_EINFINITY;
        return MULRED_DECODE_VALID;
    }
    uint8_t b[48];
    memcpy(b, in, 48);
    b[0] &= 0x1f;
    mulred_g2_381_affine p;
    if (mulred_fp381_from_bytes(&p.x.c1, b) || mulred_fp381_from_bytes(&p.x.c0, in + 48))
        return MULRED_DECODE_ERANGE;
    /* y² = x³ + 4(1 + u) */
    mulred_fp2_381 rhs, b2;
    mulred_fp2_381_sqr(&rhs, &p.x);
    mulred_fp2_381_mul(&rhs, &rhs, &p.x);
    mulred_fp381_set_u64(&b2.c0, 4);
    b2.c1 = b2.c0;
    mulred_fp2_381_add(&rhs, &rhs, &b2);
    if (!mulred_fp2_381_sqrt_var(&p.y, &rhs)) return MULRED_DECODE_ECURVE;
    if (fp2_381_larger(&p.y) != ((top & 0x20) != 0)) mulred_fp2_381_neg(&p.y, &p.y);
    return finish_381(r, &p, flags, true);
}

void mulred_g2_381_encode_compressed(uint8_t out[96], const mulred_g2_381_affine *a)
{
    if (mulred_g2_381_affine_is_infinity(a)) {
        memset(out, 0, 96);
        out[0] = 0xc0;
        return;
    }
    mulred_fp381_to_bytes(out, &a->x.c1);
    mulred_fp381_to_bytes(out + 48, &a->x.c0);
    out[0] |= 0x80;
    if (fp2_381_larger(&a->y)) out[0] |= 0x20;
}

mulred_status mulred_g2_381_decode_compressed(mulred_g2_381_affine *r, const uint8_t in[96],
                                              unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_compressed(r, in, flags), reason);
}

static mulred_decode_reason decode_uncompressed(mulred_g2_381_affine *r, const uint8_t in[192],
                                                unsigned flags)
{
    const uint8_t top = in[0];
    mulred_g2_381_affine_set_infinity(r);
    if (top & 0xa0) return MULRED_DECODE_EUFLAGS;
    if (top & 0x40) {
        if ((top & 0x3f) || !curve_all_zero(in + 1, 191)) return MULRED_DECODE_EINFINITY;
        return MULRED_DECODE_VALID;
    }
    mulred_g2_381_affine p;
    if (mulred_fp381_from_bytes(&p.x.c1, in) || mulred_fp381_from_bytes(&p.x.c0, in + 48) ||
        mulred_fp381_from_bytes(&p.y.c1, in + 96) || mulred_fp381_from_bytes(&p.y.c0, in + 144))
        return MULRED_DECODE_ERANGE;
    /* (0, 0) without the infinity flag is not a point (0 ≠ b′), though it is the affine form
     * of infinity */
    if (mulred_g2_381_affine_is_infinity(&p)) return MULRED_DECODE_ECURVE;
    return finish_381(r, &p, flags, false);
}

void mulred_g2_381_encode_uncompressed(uint8_t out[192], const mulred_g2_381_affine *a)
{
    if (mulred_g2_381_affine_is_infinity(a)) {
        memset(out, 0, 192);
        out[0] = 0x40;
        return;
    }
    mulred_fp381_to_bytes(out, &a->x.c1);
    mulred_fp381_to_bytes(out + 48, &a->x.c0);
    mulred_fp381_to_bytes(out + 96, &a->y.c1);
    mulred_fp381_to_bytes(out + 144, &a->y.c0);
}

mulred_status mulred_g2_381_decode_uncompressed(mulred_g2_381_affine *r, const uint8_t in[192],
                                                unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_uncompressed(r, in, flags), reason);
}

/* ---- EIP-197 ---- */

static mulred_decode_reason decode_eip197(mulred_g2_254_affine *r, const uint8_t in[128],
                                          unsigned flags)
{
    mulred_g2_254_affine_set_infinity(r);
    mulred_g2_254_affine p;
    if (mulred_fp254_from_bytes(&p.x.c1, in) || mulred_fp254_from_bytes(&p.x.c0, in + 32) ||
        mulred_fp254_from_bytes(&p.y.c1, in + 64) || mulred_fp254_from_bytes(&p.y.c0, in + 96))
        return MULRED_DECODE_ERANGE;
    if (mulred_g2_254_affine_is_infinity(&p)) return MULRED_DECODE_VALID; /* all zero */
    if (!mulred_g2_254_affine_is_on_curve(&p)) return MULRED_DECODE_ECURVE;
    if (!(flags & MULRED_DECODE_SKIP_SUBGROUP_CHECK) && !mulred_g2_254_affine_in_g2_var(&p))
        return MULRED_DECODE_ESUBGROUP_G2;
    *r = p;
    return MULRED_DECODE_VALID;
}

void mulred_g2_254_encode_eip197(uint8_t out[128], const mulred_g2_254_affine *a)
{
    /* infinity (0, 0) gives 128 zero bytes */
    mulred_fp254_to_bytes(out, &a->x.c1);
    mulred_fp254_to_bytes(out + 32, &a->x.c0);
    mulred_fp254_to_bytes(out + 64, &a->y.c1);
    mulred_fp254_to_bytes(out + 96, &a->y.c0);
}

mulred_status mulred_g2_254_decode_eip197(mulred_g2_254_affine *r, const uint8_t in[128],
                                          unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_eip197(r, in, flags), reason);
}

/* Encodings of G1 points: ZCash/IETF compressed and uncompressed and EIP-2537 for BLS12-381,
 * EIP-196 for BN254.
 *
 * Sources: the ZCash protocol specification (appendix "BLS12-381", point serialization) and
 * draft-irtf-cfrg-pairing-friendly-curves (appendix C, "ZCash serialization format"); EIP-2537
 * ("Encoding of G1 points"); EIP-196 ("Encoding"). The decoders treat their input as untrusted
 * and name the first failed check (curve.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "curve/curve_encode_internal.h"
#include "mulred/curve.h"
#include "mulred/field.h"

const char *mulred_decode_reason_text(mulred_decode_reason reason)
{
    switch (reason) {
    case MULRED_DECODE_VALID:
        return "valid";
    case MULRED_DECODE_EFLAGS:
        return "compression flag not set";
    case MULRED_DECODE_EINFINITY:
        return "non-canonical point at infinity (bits set beside the infinity flag)";
    case MULRED_DECODE_EPADDING:
        return "non-zero padding bytes";
    case MULRED_DECODE_ERANGE:
        return "coordinate not below the field modulus";
    case MULRED_DECODE_ECURVE:
        return "point not on the curve";
    case MULRED_DECODE_ESUBGROUP:
        return "point not in the prime-order subgroup G1";
    case MULRED_DECODE_ESUBGROUP_G2:
        return "point not in the prime-order subgroup G2";
    case MULRED_DECODE_EUFLAGS:
        return "compression or sign flag set in an uncompressed encoding";
    }
    return "unknown reason";
}

/* on_curve: the caller already knows (a decompressed y satisfies the equation) */
static mulred_decode_reason finish_381(mulred_g1_381_affine *r, mulred_g1_381_affine *p,
                                       unsigned flags, bool on_curve)
{
    if (!on_curve && !mulred_g1_381_affine_is_on_curve(p)) {
        mulred_g1_381_affine_set_infinity(r);
        return MULRED_DECODE_ECURVE;
    }
    if (!(flags & MULRED_DECODE_SKIP_SUBGROUP_CHECK) && !mulred_g1_381_affine_in_g1_var(p)) {
        mulred_g1_381_affine_set_infinity(r);
        return MULRED_DECODE_ESUBGROUP;
    }
    *r = *p;
    return MULRED_DECODE_VALID;
}

static mulred_decode_reason decode_compressed_381(mulred_g1_381_affine *r, const uint8_t in[48],
                                                  unsigned flags)
{
    const uint8_t top = in[0];
    mulred_g1_381_affine_set_infinity(r);
    if (!(top & 0x80)) return MULRED_DECODE_EFLAGS;
    if (top & 0x40) {
        if ((top & 0x3f) || !curve_all_zero(in + 1, 47)) return MULRED_DECODE_EINFINITY;
        return MULRED_DECODE_VALID;
    }
    uint8_t xb[48];
    memcpy(xb, in, 48);
    xb[0] &= 0x1f;
    mulred_g1_381_affine p;
    if (mulred_fp381_from_bytes(&p.x, xb)) return MULRED_DECODE_ERANGE;
    /* y² = x³ + 4 */
    mulred_fp381 rhs, four;
    mulred_fp381_sqr(&rhs, &p.x);
    mulred_fp381_mul(&rhs, &rhs, &p.x);
    mulred_fp381_set_u64(&four, 4);
    mulred_fp381_add(&rhs, &rhs, &four);
    if (!mulred_fp381_sqrt(&p.y, &rhs)) return MULRED_DECODE_ECURVE;
    if (curve_fp381_is_larger(&p.y) != ((top & 0x20) != 0)) mulred_fp381_neg(&p.y, &p.y);
    return finish_381(r, &p, flags, true);
}

void mulred_g1_381_encode_compressed(uint8_t out[48], const mulred_g1_381_affine *a)
{
    if (mulred_g1_381_affine_is_infinity(a)) {
        memset(out, 0, 48);
        out[0] = 0xc0;
        return;
    }
    mulred_fp381_to_bytes(out, &a->x);
    out[0] |= 0x80;
    if (curve_fp381_is_larger(&a->y)) out[0] |= 0x20;
}

/* ZCash / IETF uncompressed (96 bytes): x then y big-endian, byte 0's top bits the flags:
 * compression (0x80) and sign (0x20) clear; infinity (0x40) with every other bit zero. */
static mulred_decode_reason decode_uncompressed_381(mulred_g1_381_affine *r, const uint8_t in[96],
                                                    unsigned flags)
{
    const uint8_t top = in[0];
    mulred_g1_381_affine_set_infinity(r);
    if (top & 0xa0) return MULRED_DECODE_EUFLAGS;
    if (top & 0x40) {
        if ((top & 0x3f) || !curve_all_zero(in + 1, 95)) return MULRED_DECODE_EINFINITY;
        return MULRED_DECODE_VALID;
    }
    mulred_g1_381_affine p;
    if (mulred_fp381_from_bytes(&p.x, in) || mulred_fp381_from_bytes(&p.y, in + 48))
        return MULRED_DECODE_ERANGE;
    /* (0, 0) without the infinity flag is not a point (0 ≠ 4) */
    if (mulred_g1_381_affine_is_infinity(&p)) return MULRED_DECODE_ECURVE;
    return finish_381(r, &p, flags, false);
}

void mulred_g1_381_encode_uncompressed(uint8_t out[96], const mulred_g1_381_affine *a)
{
    if (mulred_g1_381_affine_is_infinity(a)) {
        memset(out, 0, 96);
        out[0] = 0x40;
        return;
    }
    mulred_fp381_to_bytes(out, &a->x);
    mulred_fp381_to_bytes(out + 48, &a->y);
}

mulred_status mulred_g1_381_decode_uncompressed(mulred_g1_381_affine *r, const uint8_t in[96],
                                                unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_uncompressed_381(r, in, flags), reason);
}

static mulred_decode_reason decode_eip2537_381(mulred_g1_381_affine *r, const uint8_t in[128],
                                               unsigned flags)
{
    mulred_g1_381_affine_set_infinity(r);
    if (!curve_all_zero(in, 16) || !curve_all_zero(in + 64, 16)) return MULRED_DECODE_EPADDING;
    mulred_g1_381_affine p;
    if (mulred_fp381_from_bytes(&p.x, in + 16) || mulred_fp381_from_bytes(&p.y, in + 80))
        return MULRED_DECODE_ERANGE;
    if (mulred_g1_381_affine_is_infinity(&p)) return MULRED_DECODE_VALID; /* all zero */
    return finish_381(r, &p, flags, false);
}

void mulred_g1_381_encode_eip2537(uint8_t out[128], const mulred_g1_381_affine *a)
{
    memset(out, 0, 128);
    if (mulred_g1_381_affine_is_infinity(a)) return;
    mulred_fp381_to_bytes(out + 16, &a->x);
    mulred_fp381_to_bytes(out + 80, &a->y);
}

static mulred_decode_reason decode_eip196_254(mulred_g1_254_affine *r, const uint8_t in[64],
                                              unsigned flags)
{
    (void)flags;
    mulred_g1_254_affine_set_infinity(r);
    mulred_g1_254_affine p;
    if (mulred_fp254_from_bytes(&p.x, in) || mulred_fp254_from_bytes(&p.y, in + 32))
        return MULRED_DECODE_ERANGE;
    if (mulred_g1_254_affine_is_infinity(&p)) return MULRED_DECODE_VALID; /* (0, 0) */
    if (!mulred_g1_254_affine_is_on_curve(&p)) return MULRED_DECODE_ECURVE;
    *r = p;
    return MULRED_DECODE_VALID;
}

void mulred_g1_254_encode_eip196(uint8_t out[64], const mulred_g1_254_affine *a)
{
    mulred_fp254_to_bytes(out, &a->x); /* infinity (0, 0) gives 64 zero bytes */
    mulred_fp254_to_bytes(out + 32, &a->y);
}

mulred_status mulred_g1_381_decode_compressed(mulred_g1_381_affine *r, const uint8_t in[48],
                                              unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_compressed_381(r, in, flags), reason);
}

mulred_status mulred_g1_381_decode_eip2537(mulred_g1_381_affine *r, const uint8_t in[128],
                                           unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_eip2537_381(r, in, flags), reason);
}

mulred_status mulred_g1_254_decode_eip196(mulred_g1_254_affine *r, const uint8_t in[64],
                                          unsigned flags, mulred_decode_reason *reason)
{
    return curve_decoded(decode_eip196_254(r, in, flags), reason);
}

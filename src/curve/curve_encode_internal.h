/* Internal: what the G1 and G2 encoders (curve_encode.c, curve_encode_g2.c) share. */
#ifndef MULRED_CURVE_ENCODE_INTERNAL_H
#define MULRED_CURVE_ENCODE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/curve.h"
#include "mulred/field.h"

/* The status of a decoder whose checks ended with `why`. */
static inline mulred_status curve_decoded(mulred_decode_reason why, mulred_decode_reason *reason)
{
    if (reason) *reason = why;
    return why == MULRED_DECODE_VALID ? MULRED_OK : MULRED_EINPUT;
}

static inline bool curve_all_zero(const uint8_t *p, size_t n)
{
    uint8_t z = 0;
    for (size_t i = 0; i < n; i++) z |= p[i];
    return z == 0;
}

/* y is the larger of y and p − y (ZCash's sign bit): y > (p − 1)/2 as integers */
static inline bool curve_fp381_is_larger(const mulred_fp381 *y)
{
    static const uint64_t half[6] = {0xdcff7fffffffd555, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
                                     0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};
    uint64_t a[6];
    mulred_fp381_to_limbs(a, y);
    for (int i = 5; i >= 0; i--)
        if (a[i] != half[i]) return a[i] > half[i];
    return false;
}

#endif

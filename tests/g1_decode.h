/* The G1 decoders as the tests and fuzz harnesses call them: the failed check (MULRED_DECODE_VALID
 * when they accept), after checking that the returned status agrees with it (abort otherwise, so
 * a harness reports it as a crash). */
#ifndef MULRED_TESTS_G1_DECODE_H
#define MULRED_TESTS_G1_DECODE_H

#include <stdlib.h>

#include "mulred/curve.h"

static inline mulred_decode_reason dec_381_compressed(mulred_g1_381_affine *r, const uint8_t *in,
                                                      unsigned f)
{
    mulred_decode_reason why = MULRED_DECODE_ESUBGROUP + 1;
    mulred_status st = mulred_g1_381_decode_compressed(r, in, f, &why);
    if ((st == MULRED_OK) != (why == MULRED_DECODE_VALID)) abort();
    return why;
}
static inline mulred_decode_reason dec_381_eip2537(mulred_g1_381_affine *r, const uint8_t *in,
                                                   unsigned f)
{
    mulred_decode_reason why = MULRED_DECODE_ESUBGROUP + 1;
    mulred_status st = mulred_g1_381_decode_eip2537(r, in, f, &why);
    if ((st == MULRED_OK) != (why == MULRED_DECODE_VALID)) abort();
    return why;
}
static inline mulred_decode_reason dec_254_eip196(mulred_g1_254_affine *r, const uint8_t *in,
                                                  unsigned f)
{
    mulred_decode_reason why = MULRED_DECODE_ESUBGROUP + 1;
    mulred_status st = mulred_g1_254_decode_eip196(r, in, f, &why);
    if ((st == MULRED_OK) != (why == MULRED_DECODE_VALID)) abort();
    return why;
}

#endif

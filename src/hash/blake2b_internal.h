/* Internal to src/hash/: the BLAKE2b constants of RFC 7693 (section 2.6 and 2.7), shared by the
 * one-message code (blake2b.c) and the 8-lane code (blake2b_x8.c). */
#ifndef MULRED_HASH_BLAKE2B_INTERNAL_H
#define MULRED_HASH_BLAKE2B_INTERNAL_H

#include <stdint.h>

extern const uint64_t mulred_blake2b_iv[8];
/* Message word schedule of the 12 rounds (rounds 10 and 11 repeat rows 0 and 1). */
extern const uint8_t mulred_blake2b_sigma[12][16];

#endif

/* Internal interface of base sets (include/mulred/bases.h), for the io layer (src/io/bases_io.c:
 * files and the trusted cache, which writes and reads the object's fields; the KZG setup; the
 * pair readers): the object and its curve's operations (bases_ops.h), what runs on threads
 * (bases_threads.h) and what bases.c makes and computes below. */
#ifndef MULRED_MSM_BASES_INTERNAL_H
#define MULRED_MSM_BASES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msm/bases_ops.h"
#include "msm/bases_threads.h"
#include "mulred/bases.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

/* b->magic of a live set ("BASE"); cleared on free. */
#define BASES_MAGIC UINT32_C(0x45534142)

/* *s = the 32-byte scalar in, big- or little-endian. */
void bases_scalar_from_bytes(mulred_scalar256 *s, const uint8_t in[32], bool big_endian);

/* A set of count points with uninitialised points (and no table); NULL when out of memory. */
mulred_bases *bases_alloc(mulred_curve c, size_t count);

/* A set of n points taking over a fixed-base table made for them with plan (its entries
 * i·windows hold the points themselves, which are copied out): the KZG setup's table (already
 * validated by its loader). NULL when out of memory (the table then stays the caller's). */
mulred_bases *bases_adopt_table(mulred_curve c, size_t n, void *table, const mulred_msm_plan *plan);

/* One MSM (bases.c): what mulred_bases_msm does after its argument checks. */
mulred_status bases_msm_one(void *r, const mulred_bases *b, const void *scalars,
                            mulred_scalar_format f, size_t n, int threads, mulred_error *err);

#endif

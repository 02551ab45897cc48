/* Internals shared by the MSM input files of the io layer (msm_synth.c, msm_synth_threads.c,
 * msm_pairs.c, msm_pairs_threads.c). */
#ifndef MULRED_IO_MSM_IO_INTERNAL_H
#define MULRED_IO_MSM_IO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mulred/curve.h"
#include "mulred/msm_io.h"

/* The logarithms behind the synthetic points (msm_synth.c): α of block k, β of offset j. */
void msm_synth_alpha(uint64_t a[4], mulred_curve c, uint64_t seed, uint64_t block);
void msm_synth_beta(uint64_t b[4], mulred_curve c, uint64_t seed, uint64_t j);

/* Decodes m records of raw (R bytes each) into points[0..m) (the curve's affine type) and
 * scalars, with threads (msm_pairs_threads.c): encoding, range and curve checks, no subgroup
 * check. Returns MULRED_DECODE_VALID, or the failed check of the lowest failing record, its index
 * in *bad. Every record is decoded (the failing ones become infinity). */
mulred_decode_reason msm_pairs_decode(void *points, mulred_scalar256 *scalars, const uint8_t *raw,
                                      size_t m, size_t R, mulred_curve c, int threads, size_t *bad);

#endif

/* The per-pair work of reading pair files, with threads (creates threads): decoding with the
 * curve layer's checked decoders, and the subgroup check. Results are independent of the
 * thread count: every pair is checked, and the lowest failing index is the one reported. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "io/msm_io_internal.h"
#include "msm/bases_internal.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

mulred_decode_reason msm_pairs_decode(void *points, mulred_scalar256 *scalars, const uint8_t *raw,
                                      size_t m, size_t R, mulred_curve c, int threads, size_t *bad)
{
    const int T = mulred_threads_resolve(threads);
#pragma omp parallel for schedule(static) num_threads(T)
    for (size_t k = 0; k < m; k++) bases_scalar_from_bytes(&scalars[k], raw + k * R + R - 32, true);
    /* the points: the base sets' decoder over records of R bytes (a point leads each) */
    return bases_decode(points, raw, m, R, MULRED_POINTS_EVM, bases_ops_of(c), threads, bad);
}

mulred_status mulred_msm_check_subgroup(const void *points, size_t n, mulred_curve c,
                                        uint64_t first_index, const char *name, int threads,
                                        mulred_error *err)
{
    const size_t lowest = msm_subgroup_lowest(points, n, c, threads);
    if (lowest == n) return MULRED_OK;
    return mulred_error_set(err, MULRED_EINPUT, "%s: pair %llu: point: %s", name,
                            (unsigned long long)(first_index + lowest),
                            mulred_decode_reason_text(mulred_curve_group(c) == MULRED_GROUP_G2
                                                          ? MULRED_DECODE_ESUBGROUP_G2
                                                          : MULRED_DECODE_ESUBGROUP));
}

/* The per-pair work of reading pair files, with threads (creates threads): decoding with the
 * curve layer's checked decoders, and the subgroup check. Results are independent of the
 * thread count: every pair is checked, and the lowest failing index is the one reported. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "curve/g1_batch.h"
#include "curve/g2_batch.h"
#include "io/msm_io_internal.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

/* Decodes one record's point without the subgroup check (BN254 G1 has none). */
static mulred_status decode_point(void *points, size_t k, const uint8_t *rec, mulred_curve c,
                                  mulred_g1_reason *why)
{
    const unsigned skip = MULRED_G1_SKIP_SUBGROUP_CHECK;
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        return mulred_g1_381_decode_eip2537((mulred_g1_381_affine *)points + k, rec, skip, why);
    case MULRED_CURVE_BN254:
        return mulred_g1_254_decode_eip196((mulred_g1_254_affine *)points + k, rec, 0, why);
    case MULRED_CURVE_BLS12_381_G2:
        return mulred_g2_381_decode_eip2537((mulred_g2_381_affine *)points + k, rec, skip, why);
    default:
        return mulred_g2_254_decode_eip197((mulred_g2_254_affine *)points + k, rec, skip, why);
    }
}

/* 32 big-endian bytes as 4 little-endian limbs. */
static void scalar_from_be(mulred_scalar256 *s, const uint8_t in[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++) v = v << 8 | in[(3 - i) * 8 + b];
        s->l[i] = v;
    }
}

mulred_g1_reason msm_pairs_decode(void *points, mulred_scalar256 *scalars, const uint8_t *raw,
                                  size_t m, size_t R, mulred_curve c, int threads, size_t *bad)
{
    const int T = mulred_threads_resolve(threads);
    size_t lowest = m;
#pragma omp parallel for schedule(static) num_threads(T) reduction(min : lowest)
    for (size_t k = 0; k < m; k++) {
        const uint8_t *rec = raw + k * R;
        const mulred_status st = decode_point(points, k, rec, c, NULL);
        scalar_from_be(&scalars[k], rec + R - 32);
        if (st != MULRED_OK && k < lowest) lowest = k;
    }
    *bad = lowest;
    if (lowest == m) return MULRED_G1_VALID;
    /* the failed check of the lowest bad record, decoded once more (the loop kept only its
     * index) */
    const uint8_t *rec = raw + lowest * R;
    mulred_g1_reason why = MULRED_G1_VALID;
    decode_point(points, lowest, rec, c, &why);
    return why;
}

size_t msm_pairs_subgroup_lowest(const void *points, size_t n, mulred_curve c, int threads)
{
    if (c == MULRED_CURVE_BN254 || n == 0) return n; /* BN254 G1: cofactor 1 */
    const int T = mulred_threads_resolve(threads);
    /* blocks of SUBGROUP_BLOCK points, checked 8 at a time where the CPU has the 8-lane
     * kernels (curve/g1_batch.h); a block above a failure found by this thread is skipped */
    enum { SUBGROUP_BLOCK = 64 };
    const size_t blocks = (n + SUBGROUP_BLOCK - 1) / SUBGROUP_BLOCK;
    size_t lowest = n;
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) reduction(min : lowest)
    for (size_t b = 0; b < blocks; b++) {
        const size_t i0 = b * SUBGROUP_BLOCK;
        if (i0 >= lowest) continue;
        const size_t m = n - i0 < SUBGROUP_BLOCK ? n - i0 : SUBGROUP_BLOCK;
        bool ok[SUBGROUP_BLOCK];
        if (c == MULRED_CURVE_BLS12_381)
            mulred_g1_381_in_g1_batch_var(ok, (const mulred_g1_381_affine *)points + i0, m, true);
        else if (c == MULRED_CURVE_BLS12_381_G2) /* G2: 8 at a time too (curve/g2_batch.h) */
            mulred_g2_381_in_g2_batch_var(ok, (const mulred_g2_381_affine *)points + i0, m, true);
        else
            mulred_g2_254_in_g2_batch_var(ok, (const mulred_g2_254_affine *)points + i0, m, true);
        for (size_t j = 0; j < m; j++)
            if (!ok[j]) {
                if (i0 + j < lowest) lowest = i0 + j;
                break;
            }
    }
    return lowest;
}

mulred_status mulred_msm_check_subgroup(const void *points, size_t n, mulred_curve c,
                                        uint64_t first_index, const char *name, int threads,
                                        mulred_error *err)
{
    const size_t lowest = msm_pairs_subgroup_lowest(points, n, c, threads);
    if (lowest == n) return MULRED_OK;
    return mulred_error_set(err, MULRED_EINPUT, "%s: pair %llu: point: %s", name,
                            (unsigned long long)(first_index + lowest),
                            mulred_g1_reason_text(mulred_curve_group(c) == MULRED_GROUP_G2
                                                      ? MULRED_G1_ESUBGROUP_G2
                                                      : MULRED_G1_ESUBGROUP));
}

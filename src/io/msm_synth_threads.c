/* Synthetic MSM point sets with threads (creates threads): msm_synth_threads_impl.h per curve. */
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "io/msm_io_internal.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "mulred/msm_io.h"
#include "util/check.h"

#define POINT    g1_381
#define SY_CURVE MULRED_CURVE_BLS12_381
#include "io/msm_synth_threads_impl.h"
#undef POINT
#undef SY_CURVE

#define POINT    g1_254
#define SY_CURVE MULRED_CURVE_BN254
#include "io/msm_synth_threads_impl.h"
#undef POINT
#undef SY_CURVE

/* G2: the same logarithms and scalars as G1 of the curve, the points on G2's generator */
#define POINT    g2_381
#define SY_CURVE MULRED_CURVE_BLS12_381_G2
#include "io/msm_synth_threads_impl.h"
#undef POINT
#undef SY_CURVE

#define POINT    g2_254
#define SY_CURVE MULRED_CURVE_BN254_G2
#include "io/msm_synth_threads_impl.h"
#undef POINT
#undef SY_CURVE

mulred_status mulred_msm_synth(void *points, mulred_scalar256 *scalars, mulred_curve c,
                               uint64_t seed, uint64_t first, size_t n, int threads,
                               mulred_error *err)
{
    (void)mulred_curve_base(c); /* checks c */
    MULRED_CHECK(first <= (UINT64_C(1) << 58) && n <= (UINT64_C(1) << 58) - first,
                 "synthetic pairs [%llu, +%zu) (at most 2^58)", (unsigned long long)first, n);
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        return g1_381_synth_generate(points, scalars, seed, first, n, threads, err);
    case MULRED_CURVE_BN254:
        return g1_254_synth_generate(points, scalars, seed, first, n, threads, err);
    case MULRED_CURVE_BLS12_381_G2:
        return g2_381_synth_generate(points, scalars, seed, first, n, threads, err);
    default:
        return g2_254_synth_generate(points, scalars, seed, first, n, threads, err);
    }
}

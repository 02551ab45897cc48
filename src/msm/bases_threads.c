/* What base sets run on threads (creates threads): decoding, the subgroup checks, the table
 * build, the fixed-base MSM over point slices and MSMs side by side. Every result is
 * independent of the thread count: every point is checked and the lowest bad index reported;
 * tables are the same bytes however they are cut; slice results are added in slice order and
 * made canonical. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "msm/bases_ops.h"
#include "msm/bases_threads.h"
#include "mulred/curve.h"
#include "util/util.h"

mulred_decode_reason bases_decode(void *points, const uint8_t *in, size_t count, size_t B,
                                  mulred_point_encoding e, const bases_ops *ops, int threads,
                                  size_t *bad)
{
    const int T = mulred_threads_resolve(threads);
    const size_t A = ops->affine_bytes;
    size_t lowest = count;
#pragma omp parallel for schedule(static) num_threads(T) reduction(min : lowest)
    for (size_t i = 0; i < count; i++)
        if (ops->decode((uint8_t *)points + i * A, in + i * B, e, NULL) != MULRED_OK && i < lowest)
            lowest = i;
    *bad = lowest;
    if (lowest == count) return MULRED_DECODE_VALID;
    /* the failed check of the lowest bad point, decoded once more (the loop kept its index) */
    mulred_decode_reason why = MULRED_DECODE_VALID;
    ops->decode((uint8_t *)points + lowest * A, in + lowest * B, e, &why);
    return why;
}

size_t msm_subgroup_lowest(const void *points, size_t n, mulred_curve c, int threads)
{
    const bases_ops *ops = bases_ops_of(c);
    if (!ops->in_subgroup || n == 0) return n; /* BN254 G1: cofactor 1 */
    const int T = mulred_threads_resolve(threads);
    /* blocks of SUBGROUP_BLOCK points, checked 8 at a time where the CPU has the 8-lane
     * kernels (curve/g1_batch.h, g2_batch.h); a block above a failure found is skipped */
    enum { SUBGROUP_BLOCK = 64 };
    const size_t blocks = (n + SUBGROUP_BLOCK - 1) / SUBGROUP_BLOCK, A = ops->affine_bytes;
    size_t lowest = n;
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) reduction(min : lowest)
    for (size_t b = 0; b < blocks; b++) {
        const size_t i0 = b * SUBGROUP_BLOCK;
        if (i0 >= lowest) continue;
        const size_t m = n - i0 < SUBGROUP_BLOCK ? n - i0 : SUBGROUP_BLOCK;
        bool ok[SUBGROUP_BLOCK];
        ops->in_subgroup(ok, (const uint8_t *)points + i0 * A, m);
        for (size_t j = 0; j < m; j++)
            if (!ok[j]) {
                if (i0 + j < lowest) lowest = i0 + j;
                break;
            }
    }
    return lowest;
}

/* Points per task of the table build (its scratch: about 300 bytes a point). */
#define BASES_BUILD_CHUNK 4096

void bases_table_build(mulred_bases *b, const mulred_msm_plan *plan, int threads)
{
    const int T = mulred_threads_resolve(threads);
    const size_t A = b->ops->affine_bytes, W = plan->windows;
    const size_t chunks = (b->size + BASES_BUILD_CHUNK - 1) / BASES_BUILD_CHUNK;
    /* the table is point-major: the rows of points [i0, i1) are entries [i0·W, i1·W) */
#pragma omp parallel num_threads(T)
    {
        void *scratch = malloc(b->ops->fixed_build_scratch(BASES_BUILD_CHUNK));
#pragma omp for schedule(dynamic, 1)
        for (size_t ch = 0; ch < chunks; ch++) {
            const size_t i0 = ch * BASES_BUILD_CHUNK,
                         i1 = i0 + BASES_BUILD_CHUNK < b->size ? i0 + BASES_BUILD_CHUNK : b->size;
            void *s = scratch ? scratch : malloc(b->ops->fixed_build_scratch(i1 - i0));
            /* no scratch at all: the rows are left as they were (the caller's memory is the
             * table; an allocation of a few MB failing here is not recoverable) */
            if (s)
                b->ops->fixed_build((uint8_t *)b->table + i0 * W * A, plan,
                                    (const uint8_t *)b->points + i0 * A, i1 - i0, s);
            if (s != scratch) free(s);
        }
        free(scratch);
    }
}

/* Slices of a fixed-base MSM: one per thread, each at least 4 bucket sets' worth of pairs (a
 * slice repeats the reduction of the plan's buckets). */
static size_t fixed_slices(const mulred_msm_plan *plan, size_t n, int T)
{
    const size_t min_points = 4 * (size_t)plan->buckets / (plan->windows ? plan->windows : 1) + 1;
    size_t s = (size_t)T;
    while (s > 1 && n / s < min_points) s--;
    return s;
}

mulred_status bases_fixed_threads(void *r, const mulred_bases *b, const mulred_scalar256 *k,
                                  size_t n, int threads, mulred_error *err)
{
    const mulred_msm_plan *plan = &b->table_plan;
    const int T = mulred_threads_resolve(threads);
    const size_t S = fixed_slices(plan, n, T), J = b->ops->jacobian_bytes;
    const size_t A = b->ops->affine_bytes, W = plan->windows;
    uint8_t *res = malloc(S * J);
    if (!res) return mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
    int failed = 0;
#pragma omp parallel for schedule(static, 1) num_threads((int)S) reduction(| : failed)
    for (size_t s = 0; s < S; s++) {
        const size_t p0 = n * s / S, p1 = n * (s + 1) / S;
        void *scratch = mulred_alloc_large(b->ops->fixed_scratch(plan, p1 - p0));
        if (!scratch) {
            failed = 1;
            continue;
        }
        b->ops->fixed_var(res + s * J, plan, (const uint8_t *)b->table + p0 * W * A, k + p0,
                          p1 - p0, scratch);
        free(scratch);
    }
    if (!failed) {
        b->ops->jacobian_set_infinity(r);
        for (size_t s = 0; s < S; s++) b->ops->jacobian_add(r, res + s * J);
        b->ops->canonical(r);
    }
    free(res);
    return failed ? mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory") : MULRED_OK;
}

void bases_msm_side_by_side(bases_msm_fn one, void *r, const mulred_bases *b,
                            const bases_scalar_lists *lists, int threads, mulred_status *st,
                            mulred_error *errs)
{
    const size_t J = b->ops->jacobian_bytes, k = lists->k;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t j = 0; j < k; j++) {
        mulred_error_clear(&errs[j]);
        st[j] = one((uint8_t *)r + j * J, b, lists->scalars[j], lists->f, lists->n, 1, &errs[j]);
    }
}

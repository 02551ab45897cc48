/* What base sets run on threads (bases_threads.c): decoding, the subgroup checks, the table
 * build, the fixed-base MSM over point slices and MSMs side by side. Below bases.c: it knows the
 * set's layout and ops (bases_ops.h), and the one MSM each side-by-side thread runs is given. */
#ifndef MULRED_MSM_BASES_THREADS_H
#define MULRED_MSM_BASES_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "msm/bases_ops.h"
#include "mulred/bases.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

/* The lowest i < n whose point (decoded, on the curve) is not in the subgroup of the curve, or n
 * when all are, with threads (the batched checks, 8 points at a time where the CPU has the
 * 8-lane kernels). */
size_t msm_subgroup_lowest(const void *points, size_t n, mulred_curve c, int threads);

/* Decodes count points of in (B bytes each, encoding e) into points, with threads, every check
 * but the subgroup; returns MULRED_DECODE_VALID or the failed check of the lowest bad point (its
 * index in *bad). */
mulred_decode_reason bases_decode(void *points, const uint8_t *in, size_t count, size_t B,
                                  mulred_point_encoding e, const bases_ops *ops, int threads,
                                  size_t *bad);

/* Builds the table of b for plan (b->table allocated by the caller), with threads. */
void bases_table_build(mulred_bases *b, const mulred_msm_plan *plan, int threads);

/* r = the MSM of the first n points with limb scalars s through the table, with threads (point
 * slices, combined in a fixed order; r canonical). MULRED_OK or MULRED_ERUNTIME. */
mulred_status bases_fixed_threads(void *r, const mulred_bases *b, const mulred_scalar256 *s,
                                  size_t n, int threads, mulred_error *err);

/* One MSM of a set, as bases_msm_one (bases.c) computes it. */
typedef mulred_status (*bases_msm_fn)(void *r, const mulred_bases *b, const void *scalars,
                                      mulred_scalar_format f, size_t n, int threads,
                                      mulred_error *err);

/* The k scalar lists of one mulred_bases_msm_many call, each of n scalars in format f. */
typedef struct {
    const void *const *scalars;
    size_t k, n;
    mulred_scalar_format f;
} bases_scalar_lists;

/* The MSMs of the k lists side by side with threads, one thread each, each computed by one with
 * one thread into r + j × the set's Jacobian size; statuses in st[0..k), errors in errs. */
void bases_msm_side_by_side(bases_msm_fn one, void *r, const mulred_bases *b,
                            const bases_scalar_lists *lists, int threads, mulred_status *st,
                            mulred_error *errs);

#endif

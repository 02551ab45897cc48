/* A base set's layout and what it needs of its curve (bases_ops.c), below both files of the
 * object: bases.c (making, planning, one MSM) and bases_threads.c (what runs on threads). The
 * io layer reaches them through bases_internal.h. */
#ifndef MULRED_MSM_BASES_OPS_H
#define MULRED_MSM_BASES_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/bases.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

/* What a base set needs of its curve, as one type (points as void *: the curve's mulred_G_affine
 * and mulred_G_jacobian). */
typedef struct {
    size_t affine_bytes, jacobian_bytes;
    /* decodes one point with every check but the subgroup (BN254 G1 has none); encoding e must
     * exist for the curve */
    mulred_status (*decode)(void *pt, const uint8_t *in, mulred_point_encoding e,
                            mulred_decode_reason *why);
    bool (*on_curve)(const void *pt);
    /* ok[i] = points[i] in the subgroup (the batched check); NULL: every point is (BN254 G1) */
    void (*in_subgroup)(bool *ok, const void *points, size_t n);
    mulred_decode_reason subgroup_reason;
    void (*fixed_plan)(mulred_msm_plan *plan, size_t n, const mulred_msm_options *opts);
    double (*cost)(const mulred_msm_plan *plan, size_t n, unsigned windows, unsigned ranges);
    size_t (*fixed_build_scratch)(size_t n);
    void (*fixed_build)(void *table, const mulred_msm_plan *plan, const void *points, size_t n,
                        void *scratch);
    size_t (*fixed_scratch)(const mulred_msm_plan *plan, size_t n);
    void (*fixed_var)(void *r, const mulred_msm_plan *plan, const void *table,
                      const mulred_scalar256 *scalars, size_t n, void *scratch);
    size_t (*serial_scratch)(const mulred_msm_plan *plan, size_t n);
    void (*serial_var)(void *r, const mulred_msm_plan *plan, const void *points,
                       const mulred_scalar256 *scalars, size_t n, void *scratch);
    void (*jacobian_add)(void *acc, const void *in);
    void (*jacobian_set_infinity)(void *r);
    void (*canonical)(void *r); /* Z = 1 or the one form of infinity */
} bases_ops;

/* The ops of curve c (any mulred_curve value). */
const bases_ops *bases_ops_of(mulred_curve c);

struct mulred_bases {
    uint32_t magic;
    mulred_curve curve;
    const bases_ops *ops;
    size_t size;
    void *points;               /* size points (mulred_alloc_large) */
    void *table;                /* NULL, or table_plan.windows · size points, point-major */
    mulred_msm_plan table_plan; /* valid when table != NULL */
    int table_use;              /* mulred_bases_set_table_use */
};

#endif

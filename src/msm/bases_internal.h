/* Internal interface of base sets (include/mulred/bases.h): the object, shared by the msm layer
 * (bases.c: the object and its MSMs; bases_threads.c: what runs on threads) and the io layer
 * (src/io/bases_io.c: files and the trusted cache, which writes and reads the fields below). */
#ifndef MULRED_MSM_BASES_INTERNAL_H
#define MULRED_MSM_BASES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/bases.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

/* b->magic of a live set ("BASE"); cleared on free. */
#define BASES_MAGIC UINT32_C(0x45534142)

/* What a base set needs of its curve, as one type (points as void *: the curve's mulred_G_affine
 * and mulred_G_jacobian). */
typedef struct {
    size_t affine_bytes, jacobian_bytes;
    /* decodes one point with every check but the subgroup (BN254 G1 has none); encoding e must
     * exist for the curve */
    mulred_status (*decode)(void *pt, const uint8_t *in, mulred_point_encoding e,
                            mulred_g1_reason *why);
    bool (*on_curve)(const void *pt);
    /* ok[i] = points[i] in the subgroup (the batched check); NULL: every point is (BN254 G1) */
    void (*in_subgroup)(bool *ok, const void *points, size_t n);
    mulred_g1_reason subgroup_reason;
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

/* *s = the 32-byte scalar in, big- or little-endian. */
void bases_scalar_from_bytes(mulred_scalar256 *s, const uint8_t in[32], bool big_endian);

/* A set of count points with uninitialised points (and no table); NULL when out of memory. */
mulred_bases *bases_alloc(mulred_curve c, size_t count);

/* A set of n points taking over a fixed-base table made for them with plan (its entries
 * i·windows hold the points themselves, which are copied out): the KZG setup's table (already
 * validated by its loader). NULL when out of memory (the table then stays the caller's). */
mulred_bases *bases_adopt_table(mulred_curve c, size_t n, void *table, const mulred_msm_plan *plan);

/* The lowest i < n whose point (decoded, on the curve) is not in the subgroup of the curve, or n
 * when all are, with threads (bases_threads.c; the batched checks, 8 points at a time where the
 * CPU has the 8-lane kernels). */
size_t msm_subgroup_lowest(const void *points, size_t n, mulred_curve c, int threads);

/* Decodes count points of in (B bytes each, encoding e) into points, with threads, every check
 * but the subgroup; returns MULRED_G1_VALID or the failed check of the lowest bad point (its
 * index in *bad). */
mulred_g1_reason bases_decode(void *points, const uint8_t *in, size_t count, size_t B,
                              mulred_point_encoding e, const bases_ops *ops, int threads,
                              size_t *bad);

/* Builds the table of b for plan (b->table allocated by the caller), with threads. */
void bases_table_build(mulred_bases *b, const mulred_msm_plan *plan, int threads);

/* r = the MSM of the first n points with limb scalars s through the table, with threads (point
 * slices, combined in a fixed order; r canonical). MULRED_OK or MULRED_ERUNTIME. */
mulred_status bases_fixed_threads(void *r, const mulred_bases *b, const mulred_scalar256 *s,
                                  size_t n, int threads, mulred_error *err);

/* One MSM (bases.c): what mulred_bases_msm does after its argument checks. */
mulred_status bases_msm_one(void *r, const mulred_bases *b, const void *scalars,
                            mulred_scalar_format f, size_t n, int threads, mulred_error *err);

/* k of them side by side, one thread each (bases_threads.c); statuses in st[0..k). */
void bases_msm_side_by_side(void *r, const mulred_bases *b, const void *const *scalars, size_t k,
                            mulred_scalar_format f, size_t n, int threads, int *st,
                            mulred_error *errs);

#endif

/* What a base set needs of its curve, one table of operations per curve (bases_ops.h): the
 * curve layer's decoders, checks and MSM kernels bound to void * points. */
#include "curve/g1_batch.h"
#include "curve/g2_batch.h"
#include "msm/bases_ops.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

/* Wrappers binding each curve's functions to void * points (one set per curve). */
#define BASES_WRAP(G)                                                                              \
    static bool G##_on_curve(const void *p)                                                        \
    {                                                                                              \
        return mulred_##G##_affine_is_on_curve(p);                                                 \
    }                                                                                              \
    static void G##_fixed_build(void *t, const mulred_msm_plan *p, const void *pts, size_t n,      \
                                void *s)                                                           \
    {                                                                                              \
        mulred_##G##_msm_fixed_table_build(t, p, pts, n, s);                                       \
    }                                                                                              \
    static void G##_fixed_var(void *r, const mulred_msm_plan *p, const void *t,                    \
                              const mulred_scalar256 *k, size_t n, void *s)                        \
    {                                                                                              \
        mulred_##G##_msm_fixed_var(r, p, t, k, n, s);                                              \
    }                                                                                              \
    static void G##_serial_var(void *r, const mulred_msm_plan *p, const void *pts,                 \
                               const mulred_scalar256 *k, size_t n, void *s)                       \
    {                                                                                              \
        mulred_##G##_msm_serial_var(r, p, pts, k, n, s);                                           \
    }                                                                                              \
    static void G##_add(void *acc, const void *in)                                                 \
    {                                                                                              \
        mulred_##G##_jacobian_add(acc, acc, in);                                                   \
    }                                                                                              \
    static void G##_set_inf(void *r)                                                               \
    {                                                                                              \
        mulred_##G##_jacobian_set_infinity(r);                                                     \
    }                                                                                              \
    static void G##_canonical(void *r)                                                             \
    {                                                                                              \
        mulred_##G##_affine a;                                                                     \
        mulred_##G##_jacobian_to_affine(&a, r);                                                    \
        mulred_##G##_jacobian_from_affine(r, &a);                                                  \
    }
BASES_WRAP(g1_381)
BASES_WRAP(g1_254)
BASES_WRAP(g2_381)
BASES_WRAP(g2_254)

#define BASES_OPS(G, decode_fn, subgroup_fn, reason)                                               \
    {                                                                                              \
        sizeof(mulred_##G##_affine), sizeof(mulred_##G##_jacobian), decode_fn, G##_on_curve,       \
            subgroup_fn, reason, mulred_##G##_msm_fixed_plan, mulred_##G##_msm_cost_ns,            \
            mulred_##G##_msm_fixed_build_scratch_size, G##_fixed_build,                            \
            mulred_##G##_msm_fixed_scratch_size, G##_fixed_var, mulred_##G##_msm_scratch_size,     \
            G##_serial_var, G##_add, G##_set_inf, G##_canonical                                    \
    }

static const unsigned SKIP = MULRED_DECODE_SKIP_SUBGROUP_CHECK;

static mulred_status decode_g1_381(void *p, const uint8_t *in, mulred_point_encoding e,
                                   mulred_decode_reason *why)
{
    if (e == MULRED_POINTS_COMPRESSED) return mulred_g1_381_decode_compressed(p, in, SKIP, why);
    if (e == MULRED_POINTS_UNCOMPRESSED) return mulred_g1_381_decode_uncompressed(p, in, SKIP, why);
    return mulred_g1_381_decode_eip2537(p, in, SKIP, why);
}

static mulred_status decode_g1_254(void *p, const uint8_t *in, mulred_point_encoding e,
                                   mulred_decode_reason *why)
{
    (void)e;
    return mulred_g1_254_decode_eip196(p, in, 0, why);
}

static mulred_status decode_g2_381(void *p, const uint8_t *in, mulred_point_encoding e,
                                   mulred_decode_reason *why)
{
    if (e == MULRED_POINTS_COMPRESSED) return mulred_g2_381_decode_compressed(p, in, SKIP, why);
    if (e == MULRED_POINTS_UNCOMPRESSED) return mulred_g2_381_decode_uncompressed(p, in, SKIP, why);
    return mulred_g2_381_decode_eip2537(p, in, SKIP, why);
}

static mulred_status decode_g2_254(void *p, const uint8_t *in, mulred_point_encoding e,
                                   mulred_decode_reason *why)
{
    (void)e;
    return mulred_g2_254_decode_eip197(p, in, SKIP, why);
}

static void sub_g1_381(bool *ok, const void *p, size_t n)
{
    mulred_g1_381_in_g1_batch_var(ok, p, n, true);
}

static void sub_g2_381(bool *ok, const void *p, size_t n)
{
    mulred_g2_381_in_g2_batch_var(ok, p, n, true);
}

static void sub_g2_254(bool *ok, const void *p, size_t n)
{
    mulred_g2_254_in_g2_batch_var(ok, p, n, true);
}

/* In the order of mulred_curve. */
static const bases_ops OPS[4] = {
    BASES_OPS(g1_381, decode_g1_381, sub_g1_381, MULRED_DECODE_ESUBGROUP),
    BASES_OPS(g1_254, decode_g1_254, NULL, MULRED_DECODE_ESUBGROUP),
    BASES_OPS(g2_381, decode_g2_381, sub_g2_381, MULRED_DECODE_ESUBGROUP_G2),
    BASES_OPS(g2_254, decode_g2_254, sub_g2_254, MULRED_DECODE_ESUBGROUP_G2),
};

const bases_ops *bases_ops_of(mulred_curve c)
{
    return &OPS[mulred_curve_with_group(c, mulred_curve_group(c))];
}

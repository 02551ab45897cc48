/* The curves as one type and the point-addition groups of the engine (mulred/msm.h): G1 points
 * in Jacobian form, combined by the curve layer's addition. No MPI here: src/mpi reduces any
 * group the same way, so the distributed MSM needs no MPI code of its own. */
#include <string.h>

#include "mulred/curve.h"
#include "mulred/msm.h"
#include "util/check.h"

/* Elements cross MPI as bytes and are combined in arrays: limbs only, no padding. */
_Static_assert(sizeof(mulred_g1_381_jacobian) == 3 * 6 * 8, "g1_381 Jacobian is plain limbs");
_Static_assert(sizeof(mulred_g1_254_jacobian) == 3 * 4 * 8, "g1_254 Jacobian is plain limbs");
_Static_assert(sizeof(mulred_g2_381_jacobian) == 3 * 12 * 8, "g2_381 Jacobian is plain limbs");
_Static_assert(sizeof(mulred_g2_254_jacobian) == 3 * 8 * 8, "g2_254 Jacobian is plain limbs");

static void g381_identity(void *elem, const mulred_group *g)
{
    (void)g;
    memset(elem, 0, sizeof(mulred_g1_381_jacobian)); /* no stale limbs in the padding-free bytes */
    mulred_g1_381_jacobian_set_infinity(elem);
}

static void g381_combine(void *acc, const void *in, const mulred_group *g)
{
    (void)g;
    mulred_g1_381_jacobian_add(acc, acc, in);
}

static void g254_identity(void *elem, const mulred_group *g)
{
    (void)g;
    memset(elem, 0, sizeof(mulred_g1_254_jacobian));
    mulred_g1_254_jacobian_set_infinity(elem);
}

static void g254_combine(void *acc, const void *in, const mulred_group *g)
{
    (void)g;
    mulred_g1_254_jacobian_add(acc, acc, in);
}

static const mulred_group point_groups[2] = {
    {"bls12-381", sizeof(mulred_g1_381_jacobian), g381_identity, g381_combine, NULL},
    {"bn254", sizeof(mulred_g1_254_jacobian), g254_identity, g254_combine, NULL},
};

static void g2_381_identity(void *elem, const mulred_group *g)
{
    (void)g;
    memset(elem, 0, sizeof(mulred_g2_381_jacobian));
    mulred_g2_381_jacobian_set_infinity(elem);
}

static void g2_381_combine(void *acc, const void *in, const mulred_group *g)
{
    (void)g;
    mulred_g2_381_jacobian_add(acc, acc, in);
}

static void g2_254_identity(void *elem, const mulred_group *g)
{
    (void)g;
    memset(elem, 0, sizeof(mulred_g2_254_jacobian));
    mulred_g2_254_jacobian_set_infinity(elem);
}

static void g2_254_combine(void *acc, const void *in, const mulred_group *g)
{
    (void)g;
    mulred_g2_254_jacobian_add(acc, acc, in);
}

static const mulred_group point_groups_g2[2] = {
    {"bls12-381-g2", sizeof(mulred_g2_381_jacobian), g2_381_identity, g2_381_combine, NULL},
    {"bn254-g2", sizeof(mulred_g2_254_jacobian), g2_254_identity, g2_254_combine, NULL},
};

static void check_curve(mulred_curve c)
{
    MULRED_CHECK(c == MULRED_CURVE_BLS12_381 || c == MULRED_CURVE_BN254 ||
                     c == MULRED_CURVE_BLS12_381_G2 || c == MULRED_CURVE_BN254_G2,
                 "unknown curve %d", (int)c);
}

mulred_curve mulred_curve_base(mulred_curve c)
{
    check_curve(c);
    return c == MULRED_CURVE_BLS12_381 || c == MULRED_CURVE_BLS12_381_G2 ? MULRED_CURVE_BLS12_381
                                                                         : MULRED_CURVE_BN254;
}

mulred_pairing_group mulred_curve_group(mulred_curve c)
{
    check_curve(c);
    return c == MULRED_CURVE_BLS12_381_G2 || c == MULRED_CURVE_BN254_G2 ? MULRED_GROUP_G2
                                                                        : MULRED_GROUP_G1;
}

mulred_curve mulred_curve_with_group(mulred_curve c, mulred_pairing_group g)
{
    MULRED_CHECK(g == MULRED_GROUP_G1 || g == MULRED_GROUP_G2, "unknown group %d", (int)g);
    const mulred_curve b = mulred_curve_base(c);
    if (g == MULRED_GROUP_G1) return b;
    return b == MULRED_CURVE_BLS12_381 ? MULRED_CURVE_BLS12_381_G2 : MULRED_CURVE_BN254_G2;
}

const char *mulred_pairing_group_name(mulred_pairing_group g)
{
    MULRED_CHECK(g == MULRED_GROUP_G1 || g == MULRED_GROUP_G2, "unknown group %d", (int)g);
    return g == MULRED_GROUP_G1 ? "g1" : "g2";
}

mulred_status mulred_pairing_group_parse(mulred_pairing_group *g, const char *name)
{
    if (strcmp(name, "g1") == 0)
        *g = MULRED_GROUP_G1;
    else if (strcmp(name, "g2") == 0)
        *g = MULRED_GROUP_G2;
    else
        return MULRED_EINPUT;
    return MULRED_OK;
}

const mulred_group *mulred_msm_point_group(mulred_curve c)
{
    check_curve(c);
    if (mulred_curve_group(c) == MULRED_GROUP_G2) return &point_groups_g2[mulred_curve_base(c)];
    return &point_groups[c];
}

const mulred_group *mulred_msm_point_group_g2(mulred_curve c)
{
    return mulred_msm_point_group(mulred_curve_with_group(c, MULRED_GROUP_G2));
}

const char *mulred_curve_name(mulred_curve c)
{
    return mulred_curve_base(c) == MULRED_CURVE_BLS12_381 ? "bls12-381" : "bn254";
}

mulred_status mulred_curve_parse(mulred_curve *c, const char *name)
{
    if (strcmp(name, "bls12-381") == 0)
        *c = MULRED_CURVE_BLS12_381;
    else if (strcmp(name, "bn254") == 0)
        *c = MULRED_CURVE_BN254;
    else
        return MULRED_EINPUT;
    return MULRED_OK;
}

size_t mulred_msm_affine_bytes(mulred_curve c)
{
    check_curve(c);
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        return sizeof(mulred_g1_381_affine);
    case MULRED_CURVE_BN254:
        return sizeof(mulred_g1_254_affine);
    case MULRED_CURVE_BLS12_381_G2:
        return sizeof(mulred_g2_381_affine);
    default:
        return sizeof(mulred_g2_254_affine);
    }
}

size_t mulred_msm_jacobian_bytes(mulred_curve c)
{
    check_curve(c);
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        return sizeof(mulred_g1_381_jacobian);
    case MULRED_CURVE_BN254:
        return sizeof(mulred_g1_254_jacobian);
    case MULRED_CURVE_BLS12_381_G2:
        return sizeof(mulred_g2_381_jacobian);
    default:
        return sizeof(mulred_g2_254_jacobian);
    }
}

/* ---- the MSM of any curve (mulred/msm.h): one dispatch for every caller ---- */

void mulred_msm_curve_plan(mulred_curve c, mulred_msm_plan *plan, size_t n,
                           const mulred_msm_options *opts)
{
    check_curve(c);
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        mulred_g1_381_msm_plan(plan, n, opts);
        break;
    case MULRED_CURVE_BN254:
        mulred_g1_254_msm_plan(plan, n, opts);
        break;
    case MULRED_CURVE_BLS12_381_G2:
        mulred_g2_381_msm_plan(plan, n, opts);
        break;
    default:
        mulred_g2_254_msm_plan(plan, n, opts);
        break;
    }
}

mulred_status mulred_msm_curve_windows(mulred_curve c, void *r, const mulred_msm_plan *plan,
                                       unsigned window0, unsigned window1, const void *points,
                                       const mulred_scalar256 *scalars, size_t n, int threads,
                                       mulred_error *err)
{
    MULRED_ARG_CHECK(c == MULRED_CURVE_BLS12_381 || c == MULRED_CURVE_BN254 ||
                     c == MULRED_CURVE_BLS12_381_G2 || c == MULRED_CURVE_BN254_G2);
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        return mulred_g1_381_msm_windows_var(r, plan, window0, window1, points, scalars, n, threads,
                                             err);
    case MULRED_CURVE_BN254:
        return mulred_g1_254_msm_windows_var(r, plan, window0, window1, points, scalars, n, threads,
                                             err);
    case MULRED_CURVE_BLS12_381_G2:
        return mulred_g2_381_msm_windows_var(r, plan, window0, window1, points, scalars, n, threads,
                                             err);
    default:
        return mulred_g2_254_msm_windows_var(r, plan, window0, window1, points, scalars, n, threads,
                                             err);
    }
}

void mulred_msm_curve_shift(mulred_curve c, void *r, const void *a, unsigned bits)
{
    check_curve(c);
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        mulred_g1_381_msm_shift(r, a, bits);
        break;
    case MULRED_CURVE_BN254:
        mulred_g1_254_msm_shift(r, a, bits);
        break;
    case MULRED_CURVE_BLS12_381_G2:
        mulred_g2_381_msm_shift(r, a, bits);
        break;
    default:
        mulred_g2_254_msm_shift(r, a, bits);
        break;
    }
}

size_t mulred_msm_curve_encode(mulred_curve c, uint8_t *out, const void *jacobian)
{
    check_curve(c);
    switch (c) {
    case MULRED_CURVE_BLS12_381: {
        mulred_g1_381_affine a;
        mulred_g1_381_jacobian_to_affine(&a, jacobian);
        mulred_g1_381_encode_eip2537(out, &a);
        return 128;
    }
    case MULRED_CURVE_BN254: {
        mulred_g1_254_affine a;
        mulred_g1_254_jacobian_to_affine(&a, jacobian);
        mulred_g1_254_encode_eip196(out, &a);
        return 64;
    }
    case MULRED_CURVE_BLS12_381_G2: {
        mulred_g2_381_affine a;
        mulred_g2_381_jacobian_to_affine(&a, jacobian);
        mulred_g2_381_encode_eip2537(out, &a);
        return 256;
    }
    default: {
        mulred_g2_254_affine a;
        mulred_g2_254_jacobian_to_affine(&a, jacobian);
        mulred_g2_254_encode_eip197(out, &a);
        return 128;
    }
    }
}

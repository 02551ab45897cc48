/* The point-addition groups of the engine (mulred/msm_grid.h): G1 points in Jacobian form,
 * combined by the curve layer's addition. No MPI here: src/dist reduces any group the same way,
 * so the distributed MSM needs no MPI code of its own. */
#include <string.h>

#include "mulred/curve.h"
#include "mulred/msm_grid.h"
#include "util/check.h"

/* Elements cross MPI as bytes and are combined in arrays: limbs only, no padding. */
_Static_assert(sizeof(mulred_g1_381_jacobian) == 3 * 6 * 8, "g1_381 Jacobian is plain limbs");
_Static_assert(sizeof(mulred_g1_254_jacobian) == 3 * 4 * 8, "g1_254 Jacobian is plain limbs");

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
    {"g1-bls12-381", sizeof(mulred_g1_381_jacobian), g381_identity, g381_combine, NULL},
    {"g1-bn254", sizeof(mulred_g1_254_jacobian), g254_identity, g254_combine, NULL},
};

static void check_curve(mulred_msm_curve c)
{
    MULRED_CHECK(c == MULRED_MSM_BLS12_381 || c == MULRED_MSM_BN254, "unknown curve %d", (int)c);
}

const mulred_group *mulred_msm_point_group(mulred_msm_curve c)
{
    check_curve(c);
    return &point_groups[c];
}

const char *mulred_msm_curve_name(mulred_msm_curve c)
{
    check_curve(c);
    return c == MULRED_MSM_BLS12_381 ? "bls12-381" : "bn254";
}

int mulred_msm_curve_parse(mulred_msm_curve *c, const char *name)
{
    if (strcmp(name, "bls12-381") == 0)
        *c = MULRED_MSM_BLS12_381;
    else if (strcmp(name, "bn254") == 0)
        *c = MULRED_MSM_BN254;
    else
        return -1;
    return 0;
}

size_t mulred_msm_affine_bytes(mulred_msm_curve c)
{
    check_curve(c);
    return c == MULRED_MSM_BLS12_381 ? sizeof(mulred_g1_381_affine) : sizeof(mulred_g1_254_affine);
}

size_t mulred_msm_jacobian_bytes(mulred_msm_curve c)
{
    check_curve(c);
    return c == MULRED_MSM_BLS12_381 ? sizeof(mulred_g1_381_jacobian)
                                     : sizeof(mulred_g1_254_jacobian);
}

/* G1 subgroup checks of many points (g1_batch.h): BLS12-381 on the 8-lane field kernels. */
#include <string.h>

#include "curve/curve_internal.h"
#include "curve/g1_batch.h"
#include "field/field_x8.h"

typedef mulred_fp381x8 fe8;

/* 8 Jacobian points, one a lane. */
typedef struct {
    fe8 x, y, z;
} jac8;

/* r = 2a (a = 0: dbl-2009-l, 2M + 5S). A lane at infinity (Z = 0) stays there (Z3 = 2YZ). */
static void dbl8(jac8 *r, const jac8 *a)
{
    fe8 A, B, C, D, E, F, t;
    mulred_fp381x8_sqr(&A, &a->x);
    mulred_fp381x8_sqr(&B, &a->y);
    mulred_fp381x8_sqr(&C, &B);
    mulred_fp381x8_add(&t, &a->x, &B);
    mulred_fp381x8_sqr(&t, &t);
    mulred_fp381x8_sub(&t, &t, &A);
    mulred_fp381x8_sub(&t, &t, &C);
    mulred_fp381x8_add(&D, &t, &t);
    mulred_fp381x8_add(&E, &A, &A);
    mulred_fp381x8_add(&E, &E, &A);
    mulred_fp381x8_sqr(&F, &E);
    mulred_fp381x8_mul(&t, &a->y, &a->z); /* Z3 = 2YZ, before Y is overwritten */
    mulred_fp381x8_add(&r->z, &t, &t);
    mulred_fp381x8_sub(&r->x, &F, &D);
    mulred_fp381x8_sub(&r->x, &r->x, &D);
    mulred_fp381x8_sub(&t, &D, &r->x);
    mulred_fp381x8_mul(&t, &E, &t);
    mulred_fp381x8_add(&C, &C, &C);
    mulred_fp381x8_add(&C, &C, &C);
    mulred_fp381x8_add(&C, &C, &C); /* 8C */
    mulred_fp381x8_sub(&r->y, &t, &C);
}

/* r = a + (x2, y2, z2) (add-2007-bl; z2 NULL: the affine point (x2, y2), madd-2007-bl). Returns
 * the lanes where the formula does not apply: a or the other operand at infinity, or equal x
 * (H = 0: a doubling or a sum at infinity). Their results are garbage. */
static unsigned add8(jac8 *r, const jac8 *a, const fe8 *x2, const fe8 *y2, const fe8 *z2)
{
    fe8 z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    unsigned bad = mulred_fp381x8_is_zero_mask(&a->z);
    mulred_fp381x8_sqr(&z1z1, &a->z);
    mulred_fp381x8_mul(&u2, x2, &z1z1);
    mulred_fp381x8_mul(&s2, y2, &a->z);
    mulred_fp381x8_mul(&s2, &s2, &z1z1);
    if (z2) {
        bad |= mulred_fp381x8_is_zero_mask(z2);
        mulred_fp381x8_sqr(&z2z2, z2);
        mulred_fp381x8_mul(&u1, &a->x, &z2z2);
        mulred_fp381x8_mul(&s1, &a->y, z2);
        mulred_fp381x8_mul(&s1, &s1, &z2z2);
    } else {
        u1 = a->x;
        s1 = a->y;
    }
    mulred_fp381x8_sub(&h, &u2, &u1);
    bad |= mulred_fp381x8_is_zero_mask(&h);
    mulred_fp381x8_add(&i, &h, &h);
    mulred_fp381x8_sqr(&i, &i); /* I = 4H² */
    mulred_fp381x8_mul(&j, &h, &i);
    mulred_fp381x8_sub(&rr, &s2, &s1);
    mulred_fp381x8_add(&rr, &rr, &rr);
    mulred_fp381x8_mul(&v, &u1, &i);
    /* Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H = 2·Z1·Z2·H (madd: 2·Z1·H) */
    mulred_fp381x8_mul(&t, &a->z, &h);
    if (z2) mulred_fp381x8_mul(&t, &t, z2);
    mulred_fp381x8_add(&r->z, &t, &t);
    mulred_fp381x8_sqr(&t, &rr);
    mulred_fp381x8_sub(&t, &t, &j);
    mulred_fp381x8_sub(&t, &t, &v);
    mulred_fp381x8_sub(&r->x, &t, &v);
    mulred_fp381x8_sub(&t, &v, &r->x);
    mulred_fp381x8_mul(&t, &rr, &t);
    mulred_fp381x8_mul(&s1, &s1, &j);
    mulred_fp381x8_add(&s1, &s1, &s1);
    mulred_fp381x8_sub(&r->y, &t, &s1);
    return bad & 0xff;
}

/* The verdicts of 8 points (lanes whose point is infinity: garbage, the caller's). Returns the
 * lanes to check one at a time; ok bit j the verdict of lane j otherwise. */
static unsigned check8(unsigned *ok, const mulred_g1_381_affine *const p[8])
{
    const uint64_t *xs[8], *ys[8];
    for (int j = 0; j < 8; j++) xs[j] = p[j]->x.l, ys[j] = p[j]->y.l;
    fe8 px, py, beta;
    mulred_fp381x8_load(&px, xs);
    mulred_fp381x8_load(&py, ys);
    const uint64_t *bs[8];
    for (int j = 0; j < 8; j++) bs[j] = G1_381_BETA_SUBGROUP;
    mulred_fp381x8_load(&beta, bs);
    jac8 q, xp;
    q.x = px, q.y = py;
    mulred_fp381x8_set_one(&q.z);
    unsigned redo = 0;
    const int top = 62 - __builtin_clzll(G1_381_SEED_ABS);
    for (int bit = top; bit >= 0; bit--) { /* |x|·P */
        dbl8(&q, &q);
        if ((G1_381_SEED_ABS >> bit) & 1) redo |= add8(&q, &q, &px, &py, NULL);
    }
    xp = q;
    for (int bit = top; bit >= 0; bit--) { /* x²·P = |x|·(|x|·P) */
        dbl8(&q, &q);
        if ((G1_381_SEED_ABS >> bit) & 1) redo |= add8(&q, &q, &xp.x, &xp.y, &xp.z);
    }
    /* φ'(P) = (β'x, y) against (X/Z², −Y/Z³); Z = 0 (x²·P = O ≠ φ'(P)): false */
    const unsigned inf = mulred_fp381x8_is_zero_mask(&q.z);
    fe8 z2, t;
    mulred_fp381x8_mul(&t, &beta, &px);
    mulred_fp381x8_sqr(&z2, &q.z);
    mulred_fp381x8_mul(&t, &t, &z2);
    mulred_fp381x8_sub(&t, &t, &q.x);
    unsigned good = mulred_fp381x8_is_zero_mask(&t);
    mulred_fp381x8_mul(&z2, &z2, &q.z);
    mulred_fp381x8_mul(&t, &py, &z2);
    mulred_fp381x8_add(&t, &t, &q.y);
    good &= mulred_fp381x8_is_zero_mask(&t);
    *ok = good & ~inf & 0xff;
    return redo;
}

static bool is_inf(const mulred_g1_381_affine *a)
{
    for (int i = 0; i < 6; i++)
        if (a->x.l[i] | a->y.l[i]) return false;
    return true;
}

void mulred_g1_381_in_g1_batch_var(bool *ok, const mulred_g1_381_affine *p, size_t n, bool lanes_x8)
{
    size_t i = 0;
    if (lanes_x8 && mulred_fieldx8_have_ifma())
        for (; i + 8 <= n || (i < n && n - i >= 4); i += 8) {
            /* a short last batch repeats its first point in the unused lanes */
            const mulred_g1_381_affine *lane[8];
            const size_t m = n - i < 8 ? n - i : 8;
            for (size_t j = 0; j < 8; j++) lane[j] = &p[i + (j < m ? j : 0)];
            unsigned good, redo = check8(&good, lane);
            for (size_t j = 0; j < m; j++) {
                if (is_inf(lane[j]))
                    ok[i + j] = true;
                else if ((redo >> j) & 1)
                    ok[i + j] = mulred_g1_381_affine_in_g1_var(lane[j]);
                else
                    ok[i + j] = (good >> j) & 1;
            }
        }
    for (; i < n; i++) ok[i] = mulred_g1_381_affine_in_g1_var(&p[i]);
}

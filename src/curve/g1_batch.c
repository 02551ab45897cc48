/* G1 subgroup checks of many points (g1_batch.h): BLS12-381 on the 8-lane field kernels. */
#include <string.h>

#include "curve/curve_internal.h"
#include "curve/g1_batch.h"
#include "field/field_x8.h"

typedef mulred_fp381x8 fe8;

/* 8 Jacobian points, one a lane, with their Y doubled: (X, 2Y, Z) stands for the affine point
 * (X/Z², Y/Z³). With 2Y kept instead of Y the small factors of the formulas fold into the
 * products: a doubling takes 4S + 3M and 7 additions or subtractions instead of dbl-2009-l's
 * 5S + 2M and 14 (about 0.9x the time). */
typedef struct {
    fe8 x, y2, z;
} jac8;

/* The checks run K independent batches of 8 side by side, one field operation of each in turn
 * (K = 4 where there are 32 points, 2 for 16): a doubling is a chain of dependent operations,
 * and the other batches' operations fill the wait for each result (the figures, with and without
 * the 2Y doubling below: docs/kernels.md, curve). */
enum { KMAX = 4 };
#define FOR_K for (int k = 0; k < K; k++)

/* q = 2q (a = 0). With Ŷ = 2Y: A = X², B = Ŷ² = 4Y², C = B² = 16Y⁴, S = X·B = 4XY², M = 3A;
 * X3 = M² − 2S, Ŷ3 = 2(M(S − X3) − 8Y⁴) = 2M(S − X3) − C, Z3 = 2YZ = Ŷ·Z. A lane at infinity
 * (Z = 0) stays there. */
static inline __attribute__((always_inline)) void dbl8(jac8 *q, const int K)
{
    fe8 A[KMAX], B[KMAX], C[KMAX], S[KMAX], M[KMAX], t[KMAX];
    FOR_K mulred_fp381x8_sqr(&A[k], &q[k].x);
    FOR_K mulred_fp381x8_sqr(&B[k], &q[k].y2);
    FOR_K mulred_fp381x8_sqr(&C[k], &B[k]);
    FOR_K mulred_fp381x8_mul(&S[k], &q[k].x, &B[k]);
    FOR_K mulred_fp381x8_add(&M[k], &A[k], &A[k]);
    FOR_K mulred_fp381x8_add(&M[k], &M[k], &A[k]);
    FOR_K mulred_fp381x8_mul(&q[k].z, &q[k].y2, &q[k].z);
    FOR_K mulred_fp381x8_sqr(&t[k], &M[k]);
    FOR_K mulred_fp381x8_sub(&t[k], &t[k], &S[k]);
    FOR_K mulred_fp381x8_sub(&q[k].x, &t[k], &S[k]);
    FOR_K mulred_fp381x8_sub(&t[k], &S[k], &q[k].x);
    FOR_K mulred_fp381x8_mul(&t[k], &M[k], &t[k]);
    FOR_K mulred_fp381x8_add(&t[k], &t[k], &t[k]);
    FOR_K mulred_fp381x8_sub(&q[k].y2, &t[k], &C[k]);
}

/* q += (x2, ŷ2, z2) (add-2007-bl with doubled Y: r = Ŝ2 − Ŝ1 is the formula's 2(S2 − S1);
 * z2 NULL: the affine points (x2, ŷ2 / 2), madd-2007-bl), batch k with operand k. Sets bad[k]
 * to the lanes where the formula does not apply: an operand at infinity, or equal x (H = 0: a
 * doubling or a sum at infinity). Their results are garbage. */
static inline __attribute__((always_inline)) void add8(jac8 *q, unsigned *bad, const fe8 *x2,
                                                       const fe8 *yy2, const fe8 *z2, const int K)
{
    fe8 z1z1[KMAX], z2z2[KMAX], u1[KMAX], u2[KMAX], s1[KMAX], s2[KMAX], h[KMAX], i[KMAX], j[KMAX],
        rr[KMAX], v[KMAX], t[KMAX];
    FOR_K bad[k] = mulred_fp381x8_is_zero_mask(&q[k].z);
    FOR_K mulred_fp381x8_sqr(&z1z1[k], &q[k].z);
    FOR_K mulred_fp381x8_mul(&u2[k], &x2[k], &z1z1[k]);
    FOR_K mulred_fp381x8_mul(&s2[k], &yy2[k], &q[k].z);
    FOR_K mulred_fp381x8_mul(&s2[k], &s2[k], &z1z1[k]);
    if (z2) {
        FOR_K bad[k] |= mulred_fp381x8_is_zero_mask(&z2[k]);
        FOR_K mulred_fp381x8_sqr(&z2z2[k], &z2[k]);
        FOR_K mulred_fp381x8_mul(&u1[k], &q[k].x, &z2z2[k]);
        FOR_K mulred_fp381x8_mul(&s1[k], &q[k].y2, &z2[k]);
        FOR_K mulred_fp381x8_mul(&s1[k], &s1[k], &z2z2[k]);
    } else {
        FOR_K u1[k] = q[k].x, s1[k] = q[k].y2;
    }
    FOR_K mulred_fp381x8_sub(&h[k], &u2[k], &u1[k]);
    FOR_K bad[k] = (bad[k] | mulred_fp381x8_is_zero_mask(&h[k])) & 0xff;
    FOR_K mulred_fp381x8_add(&i[k], &h[k], &h[k]);
    FOR_K mulred_fp381x8_sqr(&i[k], &i[k]); /* I = 4H² */
    FOR_K mulred_fp381x8_mul(&j[k], &h[k], &i[k]);
    FOR_K mulred_fp381x8_sub(&rr[k], &s2[k], &s1[k]);
    FOR_K mulred_fp381x8_mul(&v[k], &u1[k], &i[k]);
    /* Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H = 2·Z1·Z2·H (madd: 2·Z1·H) */
    FOR_K mulred_fp381x8_mul(&t[k], &q[k].z, &h[k]);
    if (z2) FOR_K mulred_fp381x8_mul(&t[k], &t[k], &z2[k]);
    FOR_K mulred_fp381x8_add(&q[k].z, &t[k], &t[k]);
    FOR_K mulred_fp381x8_sqr(&t[k], &rr[k]);
    FOR_K mulred_fp381x8_sub(&t[k], &t[k], &j[k]);
    FOR_K mulred_fp381x8_sub(&t[k], &t[k], &v[k]);
    FOR_K mulred_fp381x8_sub(&q[k].x, &t[k], &v[k]);
    FOR_K mulred_fp381x8_sub(&t[k], &v[k], &q[k].x);
    FOR_K mulred_fp381x8_mul(&t[k], &rr[k], &t[k]);
    FOR_K mulred_fp381x8_mul(&s1[k], &s1[k], &j[k]); /* Ŝ1·J = 2·S1·J */
    FOR_K mulred_fp381x8_sub(&t[k], &t[k], &s1[k]);  /* Y3 */
    FOR_K mulred_fp381x8_add(&q[k].y2, &t[k], &t[k]);
}

/* The verdicts of 8K points, lane j of batch k being point p[8k + j] (lanes whose point is
 * infinity: garbage, the caller's). Sets redo[k] to the lanes of batch k to check one at a
 * time, and ok[k] bit j to the verdict of lane j otherwise. */
static inline __attribute__((always_inline)) void
check8(unsigned *ok, unsigned *redo, const mulred_g1_381_affine *const *p, const int K)
{
    fe8 px[KMAX], py[KMAX], py2[KMAX], beta;
    FOR_K
    {
        const uint64_t *xs[8], *ys[8];
        for (int j = 0; j < 8; j++) xs[j] = p[8 * k + j]->x.l, ys[j] = p[8 * k + j]->y.l;
        mulred_fp381x8_load(&px[k], xs);
        mulred_fp381x8_load(&py[k], ys);
    }
    const uint64_t *bs[8];
    for (int j = 0; j < 8; j++) bs[j] = G1_381_BETA_SUBGROUP;
    mulred_fp381x8_load(&beta, bs);
    jac8 q[KMAX];
    fe8 xpx[KMAX], xpy[KMAX], xpz[KMAX];
    unsigned bad[KMAX];
    FOR_K mulred_fp381x8_add(&py2[k], &py[k], &py[k]);
    FOR_K q[k].x = px[k], q[k].y2 = py2[k], redo[k] = 0;
    FOR_K mulred_fp381x8_set_one(&q[k].z);
    const int top = 62 - __builtin_clzll(G1_381_SEED_ABS);
    for (int bit = top; bit >= 0; bit--) { /* |x|·P */
        dbl8(q, K);
        if ((G1_381_SEED_ABS >> bit) & 1) {
            add8(q, bad, px, py2, NULL, K);
            FOR_K redo[k] |= bad[k];
        }
    }
    FOR_K xpx[k] = q[k].x, xpy[k] = q[k].y2, xpz[k] = q[k].z;
    for (int bit = top; bit >= 0; bit--) { /* x²·P = |x|·(|x|·P) */
        dbl8(q, K);
        if ((G1_381_SEED_ABS >> bit) & 1) {
            add8(q, bad, xpx, xpy, xpz, K);
            FOR_K redo[k] |= bad[k];
        }
    }
    /* φ'(P) = (β'x, y) against (X/Z², −Y/Z³), as β'x·Z² = X and 2y·Z³ = −Ŷ; Z = 0
     * (x²·P = O ≠ φ'(P)): false */
    FOR_K
    {
        const unsigned inf = mulred_fp381x8_is_zero_mask(&q[k].z);
        fe8 z2, t;
        mulred_fp381x8_mul(&t, &beta, &px[k]);
        mulred_fp381x8_sqr(&z2, &q[k].z);
        mulred_fp381x8_mul(&t, &t, &z2);
        mulred_fp381x8_sub(&t, &t, &q[k].x);
        unsigned good = mulred_fp381x8_is_zero_mask(&t);
        mulred_fp381x8_mul(&z2, &z2, &q[k].z);
        mulred_fp381x8_mul(&t, &py2[k], &z2);
        mulred_fp381x8_add(&t, &t, &q[k].y2);
        good &= mulred_fp381x8_is_zero_mask(&t);
        ok[k] = good & ~inf & 0xff;
    }
}

static void check8x1(unsigned *ok, unsigned *redo, const mulred_g1_381_affine *const *p)
{
    check8(ok, redo, p, 1);
}

static void check8x2(unsigned *ok, unsigned *redo, const mulred_g1_381_affine *const *p)
{
    check8(ok, redo, p, 2);
}

static void check8x4(unsigned *ok, unsigned *redo, const mulred_g1_381_affine *const *p)
{
    check8(ok, redo, p, 4);
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
        while (n - i >= 4) {
            /* 32 points as four batches when 28 or more are left, 16 as two when 12 or more,
             * else 8; a short last batch repeats its first point in the unused lanes */
            const int K = n - i >= 28 ? 4 : n - i >= 12 ? 2 : 1;
            const size_t m = n - i < 8 * (size_t)K ? n - i : 8 * (size_t)K;
            const mulred_g1_381_affine *lane[8 * KMAX];
            for (size_t j = 0; j < 8 * (size_t)K; j++) lane[j] = &p[i + (j < m ? j : 0)];
            unsigned good[KMAX], redo[KMAX];
            if (K == 4)
                check8x4(good, redo, lane);
            else if (K == 2)
                check8x2(good, redo, lane);
            else
                check8x1(good, redo, lane);
            for (size_t j = 0; j < m; j++) {
                if (is_inf(lane[j]))
                    ok[i + j] = true;
                else if ((redo[j / 8] >> (j % 8)) & 1)
                    ok[i + j] = mulred_g1_381_affine_in_g1_var(lane[j]);
                else
                    ok[i + j] = (good[j / 8] >> (j % 8)) & 1;
            }
            i += m;
        }
    for (; i < n; i++) ok[i] = mulred_g1_381_affine_in_g1_var(&p[i]);
}

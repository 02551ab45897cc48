/* The 8-lane subgroup check, written once for G1 of BLS12-381 (g1_batch.c) and G2 of both
 * curves (g2_batch.c): each check is "an endomorphism of P equals a multiple of P", computed for
 * 8 points at once, one a lane, and K = 1, 2 or 4 such batches side by side (one field
 * operation of each in turn: a doubling is a chain of dependent operations, and the other
 * batches' operations fill the wait for each result). Points are kept as (X, 2Y, Z), which
 * folds the small factors of the formulas into the products (a doubling: 4S + 3M and 7
 * additions or subtractions instead of dbl-2009-l's 5S + 2M and 14). An instance defines
 *
 *   BC           the group's name (g1_381, g2_381, g2_254): the function is
 *                mulred_BC_in_<BC_GROUP>_batch_var over mulred_BC_affine points
 *   BC_GROUP     g1 or g2
 *   BC_F8        the 8-lane field of the coordinates (fp381x8, fp2_381x8, fp2_254x8)
 *   BC_K_LO, BC_K_HI   the multiple k < 2^128 (|x| for BLS12-381, 6u² for BN254 G2)
 *   BC_TWICE     1: the multiple is k²·P = k·(k·P) (G1 of BLS12-381: x²), 0: k·P
 *   BC_MAP(t, px, py2, c) the endomorphism's image of P in t[0] (x) and t[1] (its 2y), with the
 *                constants c[0], c[1] loaded from BC_C0 and BC_C1 (BC_C1 may be left
 *                undefined when the map does not read c[1]) (G1: β'·x and 2y; G2: ψ's
 *                c_x·conj(x) and c_y·conj(2y))
 *   BC_NEG       1 when the image is −(the multiple), 0 when it is +(the multiple)
 *
 * and includes this file (after curve_internal.h and field_x8.h), which #undefs them. The
 * digits of k are its NAF or its binary form, whichever needs fewer additions (binary is then
 * also no longer): |x| of BLS12-381 is 64 binary digits with 6 ones, its NAF 65 with 6; 6u²
 * of BN254 is 127 with 70 ones, its NAF 128 with 40. */

#ifndef MULRED_BATCH_CHECK_DIGITS
#define MULRED_BATCH_CHECK_DIGITS
/* The signed digits of k = hi·2^64 + lo (k > 0), least significant first, the top one 1: its
 * NAF (digits in {−1, 0, 1}, no two adjacent non-zero), or its binary form when that has no
 * more non-zero digits (and so is no longer). Returns the number of digits (≤ 129). */
static int batch_check_digits(int8_t *d, uint64_t lo, uint64_t hi)
{
    const unsigned __int128 k0 = (unsigned __int128)hi << 64 | lo;
    unsigned __int128 k = k0;
    int len = 0, naf_weight = 0;
    while (k) {
        int8_t v = 0;
        if (k & 1) {
            v = (k & 3) == 1 ? 1 : -1;
            k = v > 0 ? k - 1 : k + 1;
            naf_weight++;
        }
        d[len++] = v;
        k >>= 1;
    }
    if (__builtin_popcountll(lo) + __builtin_popcountll(hi) > naf_weight) return len;
    for (len = 0, k = k0; k; k >>= 1) d[len++] = (int8_t)(k & 1);
    return len;
}
#endif

#define BC_CAT_(a, b) a##b
#define BC_CAT(a, b)  BC_CAT_(a, b)
#define FE8           BC_CAT(mulred_, BC_F8)
#define F8(name)      BC_CAT(BC_CAT(mulred_, BC_F8), _##name)
#define GA            BC_CAT(BC_CAT(mulred_, BC), _affine)
#define GPUB(name)    BC_CAT(BC_CAT(mulred_, BC), _##name)
#define BCL(name)     BC_CAT(BC, _bc_##name) /* file-local */
#define FOR_K         for (int k = 0; k < K; k++)

#define KMAX 4 /* batches of 8 points side by side */

/* 8 Jacobian points, one a lane, with their Y doubled: (X, 2Y, Z) stands for (X/Z², Y/Z³). */
typedef struct {
    FE8 x, y2, z;
} BCL(jac8);

/* q = 2q (a = 0). With Ŷ = 2Y: A = X², B = Ŷ² = 4Y², C = B² = 16Y⁴, S = X·B = 4XY², M = 3A;
 * X3 = M² − 2S, Ŷ3 = 2(M(S − X3) − 8Y⁴) = 2M(S − X3) − C, Z3 = 2YZ = Ŷ·Z. A lane at infinity
 * (Z = 0) stays there. */
static inline __attribute__((always_inline)) void BCL(dbl8)(BCL(jac8) * q, const int K)
{
    FE8 A[KMAX], B[KMAX], C[KMAX], S[KMAX], M[KMAX], t[KMAX];
    FOR_K F8(sqr)(&A[k], &q[k].x);
    FOR_K F8(sqr)(&B[k], &q[k].y2);
    FOR_K F8(sqr)(&C[k], &B[k]);
    FOR_K F8(mul)(&S[k], &q[k].x, &B[k]);
    FOR_K F8(add)(&M[k], &A[k], &A[k]);
    FOR_K F8(add)(&M[k], &M[k], &A[k]);
    FOR_K F8(mul)(&q[k].z, &q[k].y2, &q[k].z);
    FOR_K F8(sqr)(&t[k], &M[k]);
    FOR_K F8(sub)(&t[k], &t[k], &S[k]);
    FOR_K F8(sub)(&q[k].x, &t[k], &S[k]);
    FOR_K F8(sub)(&t[k], &S[k], &q[k].x);
    FOR_K F8(mul)(&t[k], &M[k], &t[k]);
    FOR_K F8(add)(&t[k], &t[k], &t[k]);
    FOR_K F8(sub)(&q[k].y2, &t[k], &C[k]);
}

/* q += (x2, ŷ2, z2) (add-2007-bl with doubled Y: r = Ŝ2 − Ŝ1 is the formula's 2(S2 − S1);
 * z2 NULL: the affine points (x2, ŷ2 / 2), madd-2007-bl), batch k with operand k. Adds to
 * bad[k] the lanes where the formula does not apply: an operand at infinity, or equal x
 * (H = 0: a doubling or a sum at infinity). Their results are garbage. */
static inline __attribute__((always_inline)) void
BCL(add8)(BCL(jac8) * q, unsigned *bad, const FE8 *x2, const FE8 *yy2, const FE8 *z2, const int K)
{
    FE8 z1z1[KMAX], z2z2[KMAX], u1[KMAX], u2[KMAX], s1[KMAX], s2[KMAX], h[KMAX], i[KMAX], j[KMAX],
        rr[KMAX], v[KMAX], t[KMAX];
    unsigned b[KMAX];
    FOR_K b[k] = F8(is_zero_mask)(&q[k].z);
    FOR_K F8(sqr)(&z1z1[k], &q[k].z);
    FOR_K F8(mul)(&u2[k], &x2[k], &z1z1[k]);
    FOR_K F8(mul)(&s2[k], &yy2[k], &q[k].z);
    FOR_K F8(mul)(&s2[k], &s2[k], &z1z1[k]);
    if (z2) {
        FOR_K b[k] |= F8(is_zero_mask)(&z2[k]);
        FOR_K F8(sqr)(&z2z2[k], &z2[k]);
        FOR_K F8(mul)(&u1[k], &q[k].x, &z2z2[k]);
        FOR_K F8(mul)(&s1[k], &q[k].y2, &z2[k]);
        FOR_K F8(mul)(&s1[k], &s1[k], &z2z2[k]);
    } else {
        FOR_K u1[k] = q[k].x, s1[k] = q[k].y2;
    }
    FOR_K F8(sub)(&h[k], &u2[k], &u1[k]);
    FOR_K bad[k] |= (b[k] | F8(is_zero_mask)(&h[k])) & 0xff;
    FOR_K F8(add)(&i[k], &h[k], &h[k]);
    FOR_K F8(sqr)(&i[k], &i[k]); /* I = 4H² */
    FOR_K F8(mul)(&j[k], &h[k], &i[k]);
    FOR_K F8(sub)(&rr[k], &s2[k], &s1[k]);
    FOR_K F8(mul)(&v[k], &u1[k], &i[k]);
    /* Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H = 2·Z1·Z2·H (madd: 2·Z1·H) */
    FOR_K F8(mul)(&t[k], &q[k].z, &h[k]);
    if (z2) FOR_K F8(mul)(&t[k], &t[k], &z2[k]);
    FOR_K F8(add)(&q[k].z, &t[k], &t[k]);
    FOR_K F8(sqr)(&t[k], &rr[k]);
    FOR_K F8(sub)(&t[k], &t[k], &j[k]);
    FOR_K F8(sub)(&t[k], &t[k], &v[k]);
    FOR_K F8(sub)(&q[k].x, &t[k], &v[k]);
    FOR_K F8(sub)(&t[k], &v[k], &q[k].x);
    FOR_K F8(mul)(&t[k], &rr[k], &t[k]);
    FOR_K F8(mul)(&s1[k], &s1[k], &j[k]); /* Ŝ1·J = 2·S1·J */
    FOR_K F8(sub)(&t[k], &t[k], &s1[k]);  /* Y3 */
    FOR_K F8(add)(&q[k].y2, &t[k], &t[k]);
}

/* q = k·(x, ŷ, z) over the signed digits d (least significant first, the top one 1; z NULL:
 * affine operands), lanes where an addition did not apply added to bad. */
static inline __attribute__((always_inline)) void BCL(mul8)(BCL(jac8) * q, unsigned *bad,
                                                            const FE8 *x, const FE8 *y2,
                                                            const FE8 *z, const int8_t *d, int len,
                                                            const int K)
{
    FE8 ny2[KMAX];
    FOR_K F8(neg)(&ny2[k], &y2[k]);
    FOR_K
    {
        q[k].x = x[k], q[k].y2 = y2[k];
        if (z)
            q[k].z = z[k];
        else
            F8(set_one)(&q[k].z);
    }
    for (int i = len - 2; i >= 0; i--) {
        BCL(dbl8)(q, K);
        if (d[i]) BCL(add8)(q, bad, x, d[i] > 0 ? y2 : ny2, z, K);
    }
}

/* The verdicts of 8K points, lane j of batch k being point p[8k + j] (lanes whose point is
 * infinity: garbage, the caller's). Sets redo[k] to the lanes of batch k to check one at a
 * time, and ok[k] bit j to the verdict of lane j otherwise. */
static inline __attribute__((always_inline)) void
BCL(check8)(unsigned *ok, unsigned *redo, const GA *const *p, const int8_t *d, int len, const int K)
{
    FE8 px[KMAX], py2[KMAX], c[2];
    FOR_K
    {
        const uint64_t *xs[8], *ys[8];
        for (int j = 0; j < 8; j++)
            xs[j] = (const uint64_t *)&p[8 * k + j]->x, ys[j] = (const uint64_t *)&p[8 * k + j]->y;
        F8(load)(&px[k], xs);
        F8(load)(&py2[k], ys);
        F8(add)(&py2[k], &py2[k], &py2[k]);
        redo[k] = 0;
    }
    {
        const uint64_t *cs[8];
        for (int j = 0; j < 8; j++) cs[j] = BC_C0;
        F8(load)(&c[0], cs);
#ifdef BC_C1
        for (int j = 0; j < 8; j++) cs[j] = BC_C1;
        F8(load)(&c[1], cs);
#endif
    }
    BCL(jac8) q[KMAX];
    BCL(mul8)(q, redo, px, py2, NULL, d, len, K);
#if BC_TWICE
    {
        FE8 qx[KMAX], qy2[KMAX], qz[KMAX];
        FOR_K qx[k] = q[k].x, qy2[k] = q[k].y2, qz[k] = q[k].z;
        BCL(mul8)(q, redo, qx, qy2, qz, d, len, K);
    }
#endif
    /* the image (mx, mŷ) against (X/Z², ±Ŷ/Z³), as mx·Z² = X and mŷ·Z³ = ±Ŷ; Z = 0 (the
     * multiple is O, the image is not): false */
    FOR_K
    {
        FE8 m[2], z2, t;
        BC_MAP(m, &px[k], &py2[k], c);
        const unsigned inf = F8(is_zero_mask)(&q[k].z);
        F8(sqr)(&z2, &q[k].z);
        F8(mul)(&t, &m[0], &z2);
        F8(sub)(&t, &t, &q[k].x);
        unsigned good = F8(is_zero_mask)(&t);
        F8(mul)(&z2, &z2, &q[k].z);
        F8(mul)(&t, &m[1], &z2);
#if BC_NEG
        F8(add)(&t, &t, &q[k].y2);
#else
        F8(sub)(&t, &t, &q[k].y2);
#endif
        good &= F8(is_zero_mask)(&t);
        ok[k] = good & ~inf & 0xff;
    }
}

static void BCL(check8x1)(unsigned *ok, unsigned *redo, const GA *const *p, const int8_t *d,
                          int len)
{
    BCL(check8)(ok, redo, p, d, len, 1);
}

static void BCL(check8x2)(unsigned *ok, unsigned *redo, const GA *const *p, const int8_t *d,
                          int len)
{
    BCL(check8)(ok, redo, p, d, len, 2);
}

static void BCL(check8x4)(unsigned *ok, unsigned *redo, const GA *const *p, const int8_t *d,
                          int len)
{
    BCL(check8)(ok, redo, p, d, len, 4);
}

void BC_CAT(GPUB(in_), BC_CAT(BC_GROUP, _batch_var))(bool *ok, const GA *p, size_t n, bool lanes_x8)
{
    size_t i = 0;
    if (lanes_x8 && mulred_fieldx8_have_ifma() && n >= 4) {
        int8_t d[130];
        const int len = batch_check_digits(d, BC_K_LO, BC_K_HI);
        while (n - i >= 4) {
            /* 32 points as four batches when 28 or more are left, 16 as two when 12 or more,
             * else 8; a short last batch repeats its first point in the unused lanes */
            const int K = n - i >= 28 ? 4 : n - i >= 12 ? 2 : 1;
            const size_t m = n - i < 8 * (size_t)K ? n - i : 8 * (size_t)K;
            const GA *lane[8 * KMAX];
            for (size_t j = 0; j < 8 * (size_t)K; j++) lane[j] = &p[i + (j < m ? j : 0)];
            unsigned good[KMAX], redo[KMAX];
            if (K == 4)
                BCL(check8x4)(good, redo, lane, d, len);
            else if (K == 2)
                BCL(check8x2)(good, redo, lane, d, len);
            else
                BCL(check8x1)(good, redo, lane, d, len);
            for (size_t j = 0; j < m; j++) {
                if (GPUB(affine_is_infinity)(lane[j]))
                    ok[i + j] = true;
                else if ((redo[j / 8] >> (j % 8)) & 1)
                    ok[i + j] = BC_CAT(GPUB(affine_in_), BC_CAT(BC_GROUP, _var))(lane[j]);
                else
                    ok[i + j] = (good[j / 8] >> (j % 8)) & 1;
            }
            i += m;
        }
    }
    for (; i < n; i++) ok[i] = BC_CAT(GPUB(affine_in_), BC_CAT(BC_GROUP, _var))(&p[i]);
}

#undef KMAX
#undef FOR_K
#undef BCL
#undef GPUB
#undef GA
#undef F8
#undef FE8
#undef BC_CAT
#undef BC_CAT_
#undef BC
#undef BC_GROUP
#undef BC_F8
#undef BC_K_LO
#undef BC_K_HI
#undef BC_TWICE
#undef BC_MAP
#undef BC_C0
#undef BC_C1
#undef BC_NEG

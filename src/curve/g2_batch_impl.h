/* Template of g2_batch.c, included once per curve with:
 *   G2B      the curve's name (g2_381, g2_254): mulred_G2B_affine, mulred_G2B_affine_in_g2_var
 *   X8F      its 8-lane Fp2 (fp2_381x8, fp2_254x8)
 *   G2B_PSI_X, G2B_PSI_Y  ψ's constants (scalar Fp2, Montgomery)
 *   G2B_K_LO, G2B_K_HI    the multiple k < 2^128 (|x| or 6u²)
 *   G2B_NEG  1 when ψ(P) = −k·P, 0 when ψ(P) = k·P */

#define G2B_CAT_(a, b) a##b
#define G2B_CAT(a, b)  G2B_CAT_(a, b)
#define FE8            G2B_CAT(mulred_, X8F)
#define F8(name)       G2B_CAT(G2B_CAT(mulred_, X8F), _##name)
#define GA             G2B_CAT(G2B_CAT(mulred_, G2B), _affine)
#define GB(name)       G2B_CAT(G2B, _b_##name) /* file-local */

typedef struct {
    FE8 x, y, z;
} GB(jac8);

/* r = 2a (dbl-2009-l, 2M + 5S). A lane at infinity (Z = 0) stays there (Z3 = 2YZ). */
static void GB(dbl8)(GB(jac8) * r, const GB(jac8) * a)
{
    FE8 A, B, C, D, E, F, t;
    F8(sqr)(&A, &a->x);
    F8(sqr)(&B, &a->y);
    F8(sqr)(&C, &B);
    F8(add)(&t, &a->x, &B);
    F8(sqr)(&t, &t);
    F8(sub)(&t, &t, &A);
    F8(sub)(&t, &t, &C);
    F8(add)(&D, &t, &t);
    F8(add)(&E, &A, &A);
    F8(add)(&E, &E, &A);
    F8(sqr)(&F, &E);
    F8(mul)(&t, &a->y, &a->z); /* Z3 = 2YZ, before Y is overwritten */
    F8(add)(&r->z, &t, &t);
    F8(sub)(&r->x, &F, &D);
    F8(sub)(&r->x, &r->x, &D);
    F8(sub)(&t, &D, &r->x);
    F8(mul)(&t, &E, &t);
    F8(add)(&C, &C, &C);
    F8(add)(&C, &C, &C);
    F8(add)(&C, &C, &C); /* 8C */
    F8(sub)(&r->y, &t, &C);
}

/* r = a + (x2, y2) affine (madd-2007-bl, 7M + 4S). Returns the lanes where the formula does not
 * apply: a at infinity, or equal x (H = 0: a doubling or a sum at infinity). Their results are
 * garbage. */
static unsigned GB(madd8)(GB(jac8) * r, const GB(jac8) * a, const FE8 *x2, const FE8 *y2)
{
    FE8 z1z1, u2, s2, h, i, j, rr, v, t, y1;
    unsigned bad = F8(is_zero_mask)(&a->z);
    F8(sqr)(&z1z1, &a->z);
    F8(mul)(&u2, x2, &z1z1);
    F8(mul)(&s2, y2, &a->z);
    F8(mul)(&s2, &s2, &z1z1);
    F8(sub)(&h, &u2, &a->x);
    bad |= F8(is_zero_mask)(&h);
    F8(add)(&i, &h, &h);
    F8(sqr)(&i, &i); /* I = 4H² */
    F8(mul)(&j, &h, &i);
    F8(sub)(&rr, &s2, &a->y);
    F8(add)(&rr, &rr, &rr);
    F8(mul)(&v, &a->x, &i);
    y1 = a->y;
    F8(mul)(&t, &a->z, &h); /* Z3 = 2·Z1·H */
    F8(add)(&r->z, &t, &t);
    F8(sqr)(&t, &rr);
    F8(sub)(&t, &t, &j);
    F8(sub)(&t, &t, &v);
    F8(sub)(&r->x, &t, &v);
    F8(sub)(&t, &v, &r->x);
    F8(mul)(&t, &rr, &t);
    F8(mul)(&y1, &y1, &j);
    F8(add)(&y1, &y1, &y1);
    F8(sub)(&r->y, &t, &y1);
    return bad & 0xff;
}

/* The verdicts of 8 points (lanes whose point is infinity: garbage, the caller's). Returns the
 * lanes to check one at a time; ok bit j the verdict of lane j otherwise. */
static unsigned GB(check8)(unsigned *ok, const GA *const p[8], const int8_t *naf, int len)
{
    const uint64_t *xs[8], *ys[8];
    for (int j = 0; j < 8; j++)
        xs[j] = (const uint64_t *)&p[j]->x, ys[j] = (const uint64_t *)&p[j]->y;
    FE8 px, py, ny, cx, cy;
    F8(load)(&px, xs);
    F8(load)(&py, ys);
    F8(neg)(&ny, &py);
    for (int j = 0; j < 8; j++) xs[j] = G2B_PSI_X, ys[j] = G2B_PSI_Y;
    F8(load)(&cx, xs);
    F8(load)(&cy, ys);
    /* k·P over the NAF digits, most significant (1) first */
    GB(jac8) q;
    q.x = px, q.y = py;
    F8(set_one)(&q.z);
    unsigned redo = 0;
    for (int i = len - 2; i >= 0; i--) {
        GB(dbl8)(&q, &q);
        if (naf[i]) redo |= GB(madd8)(&q, &q, &px, naf[i] > 0 ? &py : &ny);
    }
    /* ψ(P) = (c_x·conj(x), c_y·conj(y)) against (X/Z², ±Y/Z³); Z = 0 (k·P = O ≠ ψ(P)): false */
    const unsigned inf = F8(is_zero_mask)(&q.z);
    FE8 z2, t;
    F8(conj)(&t, &px);
    F8(mul)(&t, &t, &cx);
    F8(sqr)(&z2, &q.z);
    F8(mul)(&t, &t, &z2);
    F8(sub)(&t, &t, &q.x);
    unsigned good = F8(is_zero_mask)(&t);
    F8(mul)(&z2, &z2, &q.z);
    F8(conj)(&t, &py);
    F8(mul)(&t, &t, &cy);
    F8(mul)(&t, &t, &z2);
#if G2B_NEG
    F8(add)(&t, &t, &q.y); /* ψy·Z³ = −Y */
#else
    F8(sub)(&t, &t, &q.y); /* ψy·Z³ = Y */
#endif
    good &= F8(is_zero_mask)(&t);
    *ok = good & ~inf & 0xff;
    return redo;
}

void G2B_CAT(G2B_CAT(mulred_, G2B), _in_g2_batch_var)(bool *ok, const GA *p, size_t n,
                                                      bool lanes_x8)
{
    size_t i = 0;
    if (lanes_x8 && mulred_fieldx8_have_ifma() && n >= 2) {
        int8_t naf[130];
        const int len = g2b_naf(naf, G2B_K_LO, G2B_K_HI);
        while (n - i >= 2) {
            /* a short last batch (2 to 7 points) repeats its first point in the unused lanes */
            const GA *lane[8];
            const size_t m = n - i < 8 ? n - i : 8;
            for (size_t j = 0; j < 8; j++) lane[j] = &p[i + (j < m ? j : 0)];
            unsigned good;
            const unsigned redo = GB(check8)(&good, lane, naf, len);
            for (size_t j = 0; j < m; j++) {
                if (G2B_CAT(G2B_CAT(mulred_, G2B), _affine_is_infinity)(lane[j]))
                    ok[i + j] = true;
                else if ((redo >> j) & 1)
                    ok[i + j] = G2B_CAT(G2B_CAT(mulred_, G2B), _affine_in_g2_var)(lane[j]);
                else
                    ok[i + j] = (good >> j) & 1;
            }
            i += m;
        }
    }
    for (; i < n; i++) ok[i] = G2B_CAT(G2B_CAT(mulred_, G2B), _affine_in_g2_var)(&p[i]);
}

#undef G2B_CAT_
#undef G2B_CAT
#undef FE8
#undef F8
#undef GA
#undef GB
#undef G2B
#undef X8F
#undef G2B_PSI_X
#undef G2B_PSI_Y
#undef G2B_K_LO
#undef G2B_K_HI
#undef G2B_NEG

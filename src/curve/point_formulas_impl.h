/* Part of the point template (point_impl.h, which includes it): the point formulas. Affine,
 * Jacobian and XYZZ coordinates (a = 0), from the Explicit-Formulas Database
 * (hyperelliptic.org/EFD, g1p/short-w): Jacobian dbl-2009-l, add-1998-cmo-2, madd (the same
 * with Z2 = 1); XYZZ dbl-2008-s-1, mdbl-2008-s-1, add-2008-s, madd-2008-s. Each addition
 * computes H (the x difference) and R (the y difference) first; H = 0 means P = ±Q, and then
 * R = 0 means P = Q (doubling) and otherwise infinity. No group element of either curve has
 * y = 0 (the group orders are odd), so doubling never meets a vertical tangent. */

/* ---- affine ---------------------------------------------------------------------------- */

void GPUB(generator)(GA *r)
{
    FPUBF(from_limbs)(&r->x, POINT_GEN_X);
    FPUBF(from_limbs)(&r->y, POINT_GEN_Y);
}

void GPUB(affine_set_infinity)(GA *r)
{
    memset(r, 0, sizeof *r);
}

static inline bool GINT(affine_inf)(const GA *a)
{
    return F(is_zero)(&a->x) && F(is_zero)(&a->y);
}

bool GPUB(affine_is_infinity)(const GA *a)
{
    return GINT(affine_inf)(a);
}

bool GPUB(affine_equal)(const GA *a, const GA *b)
{
    return F(equal)(&a->x, &b->x) && F(equal)(&a->y, &b->y);
}

void GPUB(affine_neg)(GA *r, const GA *a)
{
    r->x = a->x;
    F(neg)(&r->y, &a->y); /* infinity (0, 0) stays (0, 0) */
}

bool GPUB(affine_is_on_curve)(const GA *a)
{
    if (GINT(affine_inf)(a)) return true;
    FE lhs, rhs, b;
    memcpy(&b, POINT_B, sizeof b);
    F(sqr)(&lhs, &a->y);
    F(sqr)(&rhs, &a->x);
    F(mul)(&rhs, &rhs, &a->x);
    F(add)(&rhs, &rhs, &b);
    return F(equal)(&lhs, &rhs);
}

/* ---- Jacobian -------------------------------------------------------------------------- */

void GPUB(jacobian_set_infinity)(GJ *r)
{
    F(set_one)(&r->x);
    F(set_one)(&r->y);
    memset(&r->z, 0, sizeof r->z);
}

bool GPUB(jacobian_is_infinity)(const GJ *a)
{
    return F(is_zero)(&a->z);
}

void GPUB(jacobian_from_affine)(GJ *r, const GA *a)
{
    if (GINT(affine_inf)(a)) {
        GPUB(jacobian_set_infinity)(r);
        return;
    }
    r->x = a->x;
    r->y = a->y;
    F(set_one)(&r->z);
}

void GPUB(jacobian_to_affine)(GA *r, const GJ *a)
{
    if (F(is_zero)(&a->z)) {
        GPUB(affine_set_infinity)(r);
        return;
    }
    FE zi, zi2;
    FPUBF(inv_var)(&zi, &a->z);
    F(sqr)(&zi2, &zi);
    F(mul)(&r->x, &a->x, &zi2);
    F(mul)(&zi2, &zi2, &zi);
    F(mul)(&r->y, &a->y, &zi2);
}

bool GPUB(jacobian_equal)(const GJ *a, const GJ *b)
{
    const bool ia = F(is_zero)(&a->z), ib = F(is_zero)(&b->z);
    if (ia || ib) return ia && ib;
    FE z1z1, z2z2, u1, u2, s1, s2;
    F(sqr)(&z1z1, &a->z);
    F(sqr)(&z2z2, &b->z);
    F(mul)(&u1, &a->x, &z2z2);
    F(mul)(&u2, &b->x, &z1z1);
    if (!F(equal)(&u1, &u2)) return false;
    F(mul)(&s1, &a->y, &z2z2);
    F(mul)(&s1, &s1, &b->z);
    F(mul)(&s2, &b->y, &z1z1);
    F(mul)(&s2, &s2, &a->z);
    return F(equal)(&s1, &s2);
}

void GPUB(jacobian_neg)(GJ *r, const GJ *a)
{
    r->x = a->x;
    F(neg)(&r->y, &a->y);
    r->z = a->z;
}

/* dbl-2009-l: 2M + 5S. Infinity (Z = 0) gives Z3 = 2·Y·Z = 0: no branch needed. */
void GPUB(jacobian_double)(GJ *r, const GJ *a)
{
    FE A, B, C, D, E, Fs, t;
    F(sqr)(&A, &a->x);
    F(sqr)(&B, &a->y);
    F(sqr)(&C, &B);
    F(add)(&t, &a->x, &B);
    F(sqr)(&t, &t);
    F(sub)(&t, &t, &A);
    F(sub)(&t, &t, &C);
    F(dbl)(&D, &t);
    F(dbl)(&E, &A);
    F(add)(&E, &E, &A);
    F(sqr)(&Fs, &E);
    F(mul)(&r->z, &a->y, &a->z); /* r may alias a: Y, Z read before X, Y are written */
    F(dbl)(&r->z, &r->z);
    F(sub)(&r->x, &Fs, &D);
    F(sub)(&r->x, &r->x, &D);
    F(sub)(&t, &D, &r->x);
    F(mul)(&t, &E, &t);
    F(dbl)(&C, &C);
    F(dbl)(&C, &C);
    F(dbl)(&C, &C);
    F(sub)(&r->y, &t, &C);
}

/* add-1998-cmo-2: 12M + 4S. */
void GPUB(jacobian_add)(GJ *r, const GJ *a, const GJ *b)
{
    if (F(is_zero)(&a->z)) {
        *r = *b;
        return;
    }
    if (F(is_zero)(&b->z)) {
        *r = *a;
        return;
    }
    FE z1z1, z2z2, u1, u2, s1, s2, h, rr, hh, hhh, v, t;
    F(sqr)(&z1z1, &a->z);
    F(sqr)(&z2z2, &b->z);
    F(mul)(&u1, &a->x, &z2z2);
    F(mul)(&u2, &b->x, &z1z1);
    F(mul)(&s1, &a->y, &b->z);
    F(mul)(&s1, &s1, &z2z2);
    F(mul)(&s2, &b->y, &a->z);
    F(mul)(&s2, &s2, &z1z1);
    F(sub)(&h, &u2, &u1);
    F(sub)(&rr, &s2, &s1);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            GPUB(jacobian_double)(r, a);
        else
            GPUB(jacobian_set_infinity)(r);
        return;
    }
    F(sqr)(&hh, &h);
    F(mul)(&hhh, &h, &hh);
    F(mul)(&v, &u1, &hh);
    F(mul)(&t, &a->z, &b->z);
    F(mul)(&r->z, &t, &h);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &hhh);
    F(sub)(&t, &t, &v);
    F(sub)(&r->x, &t, &v);
    F(sub)(&t, &v, &r->x);
    F(mul)(&t, &rr, &t);
    F(mul)(&s1, &s1, &hhh);
    F(sub)(&r->y, &t, &s1);
}

/* madd (add-1998-cmo-2 with Z2 = 1): 8M + 3S. */
void GPUB(jacobian_add_affine)(GJ *r, const GJ *a, const GA *b)
{
    if (GINT(affine_inf)(b)) {
        *r = *a;
        return;
    }
    if (F(is_zero)(&a->z)) {
        GPUB(jacobian_from_affine)(r, b);
        return;
    }
    FE z1z1, u2, s2, h, rr, hh, hhh, v, t, y1;
    F(sqr)(&z1z1, &a->z);
    F(mul)(&u2, &b->x, &z1z1);
    F(mul)(&s2, &b->y, &a->z);
    F(mul)(&s2, &s2, &z1z1);
    F(sub)(&h, &u2, &a->x);
    F(sub)(&rr, &s2, &a->y);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            GPUB(jacobian_double)(r, a);
        else
            GPUB(jacobian_set_infinity)(r);
        return;
    }
    F(sqr)(&hh, &h);
    F(mul)(&hhh, &h, &hh);
    F(mul)(&v, &a->x, &hh);
    y1 = a->y;
    F(mul)(&r->z, &a->z, &h);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &hhh);
    F(sub)(&t, &t, &v);
    F(sub)(&r->x, &t, &v);
    F(sub)(&t, &v, &r->x);
    F(mul)(&t, &rr, &t);
    F(mul)(&y1, &y1, &hhh);
    F(sub)(&r->y, &t, &y1);
}

/* ---- XYZZ ------------------------------------------------------------------------------ */

void GPUB(xyzz_set_infinity)(GX *r)
{
    F(set_one)(&r->x);
    F(set_one)(&r->y);
    memset(&r->zz, 0, sizeof r->zz);
    memset(&r->zzz, 0, sizeof r->zzz);
}

bool GPUB(xyzz_is_infinity)(const GX *a)
{
    return F(is_zero)(&a->zz);
}

void GPUB(xyzz_from_affine)(GX *r, const GA *a)
{
    if (GINT(affine_inf)(a)) {
        GPUB(xyzz_set_infinity)(r);
        return;
    }
    r->x = a->x;
    r->y = a->y;
    F(set_one)(&r->zz);
    F(set_one)(&r->zzz);
}

void GPUB(xyzz_to_affine)(GA *r, const GX *a)
{
    if (F(is_zero)(&a->zz)) {
        GPUB(affine_set_infinity)(r);
        return;
    }
    /* t = 1/(ZZ·ZZZ): 1/ZZ = ZZZ·t, 1/ZZZ = ZZ·t */
    FE t, u;
    F(mul)(&t, &a->zz, &a->zzz);
    FPUBF(inv_var)(&t, &t);
    F(mul)(&u, &a->zzz, &t);
    F(mul)(&u, &a->x, &u);
    F(mul)(&t, &a->zz, &t);
    F(mul)(&r->y, &a->y, &t);
    r->x = u;
}

/* Z = ZZZ: Z² = ZZZ² = ZZ³, so X_J = (X/ZZ)·ZZ³ = X·ZZ², Y_J = (Y/ZZZ)·ZZZ³ = Y·ZZZ². */
void GPUB(xyzz_to_jacobian)(GJ *r, const GX *a)
{
    if (F(is_zero)(&a->zz)) {
        GPUB(jacobian_set_infinity)(r);
        return;
    }
    FE t;
    F(sqr)(&t, &a->zz);
    F(mul)(&r->x, &a->x, &t);
    F(sqr)(&t, &a->zzz);
    F(mul)(&r->y, &a->y, &t);
    r->z = a->zzz;
}

bool GPUB(xyzz_equal)(const GX *a, const GX *b)
{
    const bool ia = F(is_zero)(&a->zz), ib = F(is_zero)(&b->zz);
    if (ia || ib) return ia && ib;
    FE s, t;
    F(mul)(&s, &a->x, &b->zz);
    F(mul)(&t, &b->x, &a->zz);
    if (!F(equal)(&s, &t)) return false;
    F(mul)(&s, &a->y, &b->zzz);
    F(mul)(&t, &b->y, &a->zzz);
    return F(equal)(&s, &t);
}

void GPUB(xyzz_neg)(GX *r, const GX *a)
{
    *r = *a;
    F(neg)(&r->y, &a->y);
}

/* dbl-2008-s-1: 6M + 3S. */
void GPUB(xyzz_double)(GX *r, const GX *a)
{
    if (F(is_zero)(&a->zz)) {
        GPUB(xyzz_set_infinity)(r);
        return;
    }
    FE u, v, w, s, m, t;
    F(dbl)(&u, &a->y);
    F(sqr)(&v, &u);
    F(mul)(&w, &u, &v);
    F(mul)(&s, &a->x, &v);
    F(sqr)(&m, &a->x);
    F(dbl)(&t, &m);
    F(add)(&m, &m, &t);
    F(mul)(&r->zz, &v, &a->zz);
    F(mul)(&r->zzz, &w, &a->zzz);
    F(mul)(&w, &w, &a->y);
    F(sqr)(&t, &m);
    F(sub)(&t, &t, &s);
    F(sub)(&r->x, &t, &s);
    F(sub)(&t, &s, &r->x);
    F(mul)(&t, &m, &t);
    F(sub)(&r->y, &t, &w);
}

/* mdbl-2008-s-1: the double of an affine point (not infinity), 4M + 2S. */
static void GINT(xyzz_double_affine)(GX *r, const GA *a)
{
    FE u, v, w, s, m, t;
    F(dbl)(&u, &a->y);
    F(sqr)(&v, &u);
    F(mul)(&w, &u, &v);
    F(mul)(&s, &a->x, &v);
    F(sqr)(&m, &a->x);
    F(dbl)(&t, &m);
    F(add)(&m, &m, &t);
    r->zz = v;
    r->zzz = w;
    F(mul)(&w, &w, &a->y);
    F(sqr)(&t, &m);
    F(sub)(&t, &t, &s);
    F(sub)(&r->x, &t, &s);
    F(sub)(&t, &s, &r->x);
    F(mul)(&t, &m, &t);
    F(sub)(&r->y, &t, &w);
}

/* add-2008-s: 12M + 2S. */
void GPUB(xyzz_add)(GX *r, const GX *a, const GX *b)
{
    if (F(is_zero)(&a->zz)) {
        *r = *b;
        return;
    }
    if (F(is_zero)(&b->zz)) {
        *r = *a;
        return;
    }
    FE u1, u2, s1, s2, p, rr, pp, ppp, q, t;
    F(mul)(&u1, &a->x, &b->zz);
    F(mul)(&u2, &b->x, &a->zz);
    F(mul)(&s1, &a->y, &b->zzz);
    F(mul)(&s2, &b->y, &a->zzz);
    F(sub)(&p, &u2, &u1);
    F(sub)(&rr, &s2, &s1);
    if (F(is_zero)(&p)) {
        if (F(is_zero)(&rr))
            GPUB(xyzz_double)(r, a);
        else
            GPUB(xyzz_set_infinity)(r);
        return;
    }
    F(sqr)(&pp, &p);
    F(mul)(&ppp, &p, &pp);
    F(mul)(&q, &u1, &pp);
    F(mul)(&t, &a->zz, &b->zz);
    F(mul)(&r->zz, &t, &pp);
    F(mul)(&t, &a->zzz, &b->zzz);
    F(mul)(&r->zzz, &t, &ppp);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &ppp);
    F(sub)(&t, &t, &q);
    F(sub)(&r->x, &t, &q);
    F(sub)(&t, &q, &r->x);
    F(mul)(&t, &rr, &t);
    F(mul)(&s1, &s1, &ppp);
    F(sub)(&r->y, &t, &s1);
}

/* madd-2008-s: 8M + 2S. b's y is passed separately so sub_affine can negate it. */
static inline void GINT(xyzz_madd)(GX *r, const GX *a, const GA *b, const FE *by)
{
    if (GINT(affine_inf)(b)) {
        *r = *a;
        return;
    }
    if (F(is_zero)(&a->zz)) {
        r->x = b->x;
        r->y = *by;
        F(set_one)(&r->zz);
        F(set_one)(&r->zzz);
        return;
    }
    FE u2, s2, p, rr, pp, ppp, q, t, y1;
    F(mul)(&u2, &b->x, &a->zz);
    F(mul)(&s2, by, &a->zzz);
    F(sub)(&p, &u2, &a->x);
    F(sub)(&rr, &s2, &a->y);
    if (F(is_zero)(&p)) {
        if (F(is_zero)(&rr)) {
            GA bb = {b->x, *by};
            GINT(xyzz_double_affine)(r, &bb);
        } else {
            GPUB(xyzz_set_infinity)(r);
        }
        return;
    }
    F(sqr)(&pp, &p);
    F(mul)(&ppp, &p, &pp);
    F(mul)(&q, &a->x, &pp);
    y1 = a->y;
    F(mul)(&r->zz, &a->zz, &pp);
    F(mul)(&r->zzz, &a->zzz, &ppp);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &ppp);
    F(sub)(&t, &t, &q);
    F(sub)(&r->x, &t, &q);
    F(sub)(&t, &q, &r->x);
    F(mul)(&t, &rr, &t);
    F(mul)(&y1, &y1, &ppp);
    F(sub)(&r->y, &t, &y1);
}

void GPUB(xyzz_add_affine)(GX *r, const GX *a, const GA *b)
{
    GINT(xyzz_madd)(r, a, b, &b->y);
}

void GPUB(xyzz_sub_affine)(GX *r, const GX *a, const GA *b)
{
    FE ny;
    F(neg)(&ny, &b->y);
    GINT(xyzz_madd)(r, a, b, &ny);
}

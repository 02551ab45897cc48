/* Template of the G1 functions (include/mulred/curve.h), written once and included by curve.c
 * once per curve, with:
 *   G1          the curve's name (g1_381, g1_254): public names mulred_G1_*
 *   FP          its base field (fp381, fp254): the inline ops FP_add, FP_mul, ... of
 *               field_internal.h; the public mulred_FP_* for inversions
 *   G1_B        b of y² = x³ + b as a Montgomery residue (uint64_t[])
 *   G1_GEN_X, G1_GEN_Y  the generator as canonical integers (uint64_t[])
 *   FX8         the 8-lane type of FP (field/field_x8.h: fp381x8, fp254x8, fp2_381x8, ...)
 *               for the 8-lane batch-affine path
 *   G1_EXT      1 for G2: coordinates in the extension FP = Fp2 over the base field G1_FB
 *               (β of the endomorphism and of the subgroup check in G1_FB, multiplied in by
 *               FP_mul_base, and on 8 lanes by FX8_mul_base with β in FX8B, the 8-lane type
 *               of G1_FB), no subgroup check here (the instance brings its own)
 * Formulas (a = 0) from the Explicit-Formulas Database (hyperelliptic.org/EFD, g1p/short-w):
 *   Jacobian: dbl-2009-l, add-1998-cmo-2, madd (the same with Z2 = 1);
 *   XYZZ: dbl-2008-s-1, mdbl-2008-s-1, add-2008-s, madd-2008-s.
 * Each addition computes H (the x difference) and R (the y difference) first; H = 0 means
 * P = ±Q, and then R = 0 means P = Q (doubling) and otherwise infinity. No group element of
 * either curve has y = 0 (the group orders are odd), so doubling never meets a vertical
 * tangent. */

#define G1_CAT_(a, b) a##b
#define G1_CAT(a, b)  G1_CAT_(a, b)
#define GPUB(name)    G1_CAT(G1_CAT(mulred_, G1), _##name) /* mulred_G1_name */
#define GA            G1_CAT(G1_CAT(mulred_, G1), _affine)
#define GJ            G1_CAT(G1_CAT(mulred_, G1), _jacobian)
#define GX            G1_CAT(G1_CAT(mulred_, G1), _xyzz)
#define FE            G1_CAT(mulred_, FP)
#define F(name)       G1_CAT(FP, _##name)                  /* inline field op */
#define FPUBF(name)   G1_CAT(G1_CAT(mulred_, FP), _##name) /* public field function */
#define GINT(name)    G1_CAT(G1, _##name)                  /* file-local helper */
#ifndef G1_EXT
#define G1_EXT 0
#endif

/* r = a·β for β given as a Montgomery residue of the base field (G1: FP itself). */
static inline void GINT(mul_beta)(FE *r, const FE *a, const uint64_t *beta_limbs)
{
#if G1_EXT
    G1_CAT(mulred_, G1_FB) beta;
    memcpy(&beta, beta_limbs, sizeof beta);
    F(mul_base)(r, a, &beta);
#else
    FE beta;
    memcpy(&beta, beta_limbs, sizeof beta);
    F(mul)(r, a, &beta);
#endif
}

/* ---- affine ---------------------------------------------------------------------------- */

void GPUB(generator)(GA *r)
{
    FPUBF(from_limbs)(&r->x, G1_GEN_X);
    FPUBF(from_limbs)(&r->y, G1_GEN_Y);
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
    memcpy(&b, G1_B, sizeof b);
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

/* ---- batch normalisation ----------------------------------------------------------------- */

size_t GPUB(batch_to_affine_scratch_size)(size_t n)
{
    return 2 * n * sizeof(FE);
}

void GPUB(jacobian_batch_to_affine_var)(GA *r, const GJ *a, size_t n, void *scratch)
{
    FE *zinv = scratch, *tmp = zinv + n, t;
    for (size_t i = 0; i < n; i++) zinv[i] = a[i].z;
    FPUBF(batch_inv_var)(zinv, zinv, n, tmp); /* zeros (infinity) stay zero */
    for (size_t i = 0; i < n; i++) {
        if (F(is_zero)(&zinv[i])) {
            GPUB(affine_set_infinity)(&r[i]);
            continue;
        }
        F(sqr)(&t, &zinv[i]);
        F(mul)(&r[i].x, &a[i].x, &t);
        F(mul)(&t, &t, &zinv[i]);
        F(mul)(&r[i].y, &a[i].y, &t);
    }
}

void GPUB(xyzz_batch_to_affine_var)(GA *r, const GX *a, size_t n, void *scratch)
{
    FE *d = scratch, *tmp = d + n, t;
    for (size_t i = 0; i < n; i++) F(mul)(&d[i], &a[i].zz, &a[i].zzz);
    FPUBF(batch_inv_var)(d, d, n, tmp);
    for (size_t i = 0; i < n; i++) {
        if (F(is_zero)(&d[i])) {
            GPUB(affine_set_infinity)(&r[i]);
            continue;
        }
        F(mul)(&t, &a[i].zzz, &d[i]);
        F(mul)(&r[i].x, &a[i].x, &t);
        F(mul)(&t, &a[i].zz, &d[i]);
        F(mul)(&r[i].y, &a[i].y, &t);
    }
}

/* ---- batch-affine addition --------------------------------------------------------------- */

/* One non-trivial pair of the batch: its index, whether it doubles, and a fingerprint of its
 * accumulator taken in the forward pass (checked in the backward pass: a repeated acc). */
typedef struct {
    uint32_t index;
    uint32_t doubling;
    uint64_t fingerprint;
} GINT(batch_entry);

size_t GPUB(batch_add_affine_scratch_size)(size_t n)
{
    return n * (sizeof(FE) + sizeof(GINT(batch_entry)));
}

static inline uint64_t GINT(fingerprint)(const GA *a)
{
    const uint64_t *x = (const uint64_t *)&a->x, *y = (const uint64_t *)&a->y;
    return x[0] ^ (y[0] * UINT64_C(0x9e3779b97f4a7c15)) ^ y[1];
}

#define G1_PREFETCH_AHEAD 8

/* neg: NULL (all pairs add) or one byte per pair, non-zero to add −pts[i]; inlined twice so the
 * unsigned form carries no sign tests. */
static inline __attribute__((always_inline)) void GINT(batch_add_core)(GA *const *acc,
                                                                       const GA *const *pts,
                                                                       const uint8_t *neg, size_t n,
                                                                       void *scratch)
{
    MULRED_ARG_CHECK_VOID(n <= UINT32_MAX);
    FE *prefix = scratch;
    GINT(batch_entry) *ent = (GINT(batch_entry) *)(prefix + n);
    size_t m = 0;
    /* Forward: trivial pairs are finished here; the others get their slope denominator
     * (x2 − x1, or 2y for a doubling) multiplied into the running product. */
    for (size_t i = 0; i < n; i++) {
        if (i + G1_PREFETCH_AHEAD < n) {
            mulred_prefetch_write(acc[i + G1_PREFETCH_AHEAD], sizeof(GA));
            mulred_prefetch_read(pts[i + G1_PREFETCH_AHEAD], sizeof(GA));
        }
        GA *a = acc[i];
        const GA *p = pts[i];
        if (GINT(affine_inf)(p)) continue;
        FE py = p->y;
        if (neg && neg[i]) F(neg)(&py, &p->y);
        if (GINT(affine_inf)(a)) {
            a->x = p->x;
            a->y = py;
            continue;
        }
        FE d;
        uint32_t doubling = 0;
        F(sub)(&d, &p->x, &a->x);
        if (F(is_zero)(&d)) {
            if (!F(equal)(&py, &a->y)) { /* P + (−P) */
                GPUB(affine_set_infinity)(a);
                continue;
            }
            F(dbl)(&d, &a->y);
            doubling = 1;
        }
        if (m == 0)
            prefix[0] = d;
        else
            F(mul)(&prefix[m], &prefix[m - 1], &d);
        ent[m].index = (uint32_t)i;
        ent[m].doubling = doubling;
        ent[m].fingerprint = GINT(fingerprint)(a);
        m++;
    }
    if (m == 0) return;
    FE inv;
    FPUBF(inv_var)(&inv, &prefix[m - 1]);
    /* Backward: 1/d_k = inv·prefix[k−1], then inv ← inv·d_k; the slope, x3 = λ² − x1 − x2,
     * y3 = λ(x1 − x3) − y1. */
    for (size_t k = m; k-- > 0;) {
        if (k >= G1_PREFETCH_AHEAD) {
            const size_t j = ent[k - G1_PREFETCH_AHEAD].index;
            mulred_prefetch_write(acc[j], sizeof(GA));
            mulred_prefetch_read(pts[j], sizeof(GA));
        }
        const size_t i = ent[k].index;
        GA *a = acc[i];
        const GA *p = pts[i];
        MULRED_CHECK(GINT(fingerprint)(a) == ent[k].fingerprint,
                     "batch_add_affine: an accumulator appears twice in one batch (pair %zu); "
                     "its earlier result would be lost",
                     i);
        FE d, dinv, lambda, t, x3;
        if (ent[k].doubling)
            F(dbl)(&d, &a->y);
        else
            F(sub)(&d, &p->x, &a->x);
        if (k > 0) {
            F(mul)(&dinv, &inv, &prefix[k - 1]);
            F(mul)(&inv, &inv, &d);
        } else {
            dinv = inv;
        }
        if (ent[k].doubling) { /* λ = 3x²/2y */
            F(sqr)(&t, &a->x);
            F(dbl)(&lambda, &t);
            F(add)(&t, &lambda, &t);
        } else if (neg && neg[i]) { /* λ = (−y2 − y1)/(x2 − x1) */
            F(add)(&t, &p->y, &a->y);
            F(neg)(&t, &t);
        } else { /* λ = (y2 − y1)/(x2 − x1) */
            F(sub)(&t, &p->y, &a->y);
        }
        F(mul)(&lambda, &t, &dinv);
        F(sqr)(&t, &lambda);
        F(sub)(&t, &t, &a->x);
        F(sub)(&x3, &t, &p->x);
        F(sub)(&t, &a->x, &x3);
        F(mul)(&t, &lambda, &t);
        F(sub)(&a->y, &t, &a->y);
        a->x = x3;
    }
}

void GPUB(batch_add_affine_var)(GA *const *acc, const GA *const *pts, size_t n, void *scratch)
{
    GINT(batch_add_core)(acc, pts, NULL, n, scratch);
}

/* ---- batch addition of pairs: ±φ, and the 8-lane executor ------------------------------------ */

#define X8T      G1_CAT(mulred_, FX8)                  /* 8-lane type */
#define X8(name) G1_CAT(G1_CAT(mulred_, FX8), _##name) /* 8-lane op */
#if G1_EXT
#define X8BT        G1_CAT(mulred_, FX8B) /* 8-lane base field: β */
#define X8B(name)   G1_CAT(G1_CAT(mulred_, FX8B), _##name)
#define X8_MUL_BETA X8(mul_base)
#else
#define X8BT        X8T
#define X8B(name)   X8(name)
#define X8_MUL_BETA X8(mul)
#endif
/* the 64-bit words of a coordinate (scalar form, as load and store take them) */
#define X8_WORDS(fe) ((uint64_t *)(fe))
#define GPAIR        G1_CAT(G1_CAT(mulred_, G1), _affine_pair)

/* The pieces of a pairs batch's scratch, carved at 64-byte boundaries (NULL base: sizes only). */
typedef struct {
    /* the scalar path: the pairs unpacked for batch_add_core, φ copies, the core's scratch */
    GA **accs;
    const GA **pts;
    uint8_t *neg;
    GA *q;
    void *core;
    /* the 8-lane path: per group of 8 pairs the loaded coordinates and the prefix products */
    GPAIR *special; /* equal-x pairs taken out of the lanes */
    X8T *pre, *x1, *y1, *x2, *y2;
    GA **dst;       /* 8 per group: where each lane's result goes */
    uint8_t *zmask; /* per group: lanes taken out (equal x) */
    GA *sink;       /* 8 dummy destinations */
} GINT(pairs_ctx);

static size_t GINT(pairs_layout)(GINT(pairs_ctx) * t, size_t n, void *scratch)
{
    char *base = scratch ? (char *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63) : NULL;
    size_t off = 0;
#define G1_CARVE(field, bytes)                                                                     \
    do {                                                                                           \
        off = (off + 63) & ~(size_t)63;                                                            \
        t->field = base ? (void *)(base + off) : NULL;                                             \
        off += (bytes);                                                                            \
    } while (0)
    G1_CARVE(accs, n * sizeof(GA *));
    G1_CARVE(pts, n * sizeof(GA *));
    G1_CARVE(neg, n);
    G1_CARVE(q, n * sizeof(GA));
    G1_CARVE(core, GPUB(batch_add_affine_scratch_size)(n));
    const size_t groups = (n + 7) / 8;
    G1_CARVE(special, n * sizeof(GPAIR));
    G1_CARVE(pre, groups * sizeof(X8T));
    G1_CARVE(x1, groups * sizeof(X8T));
    G1_CARVE(y1, groups * sizeof(X8T));
    G1_CARVE(x2, groups * sizeof(X8T));
    G1_CARVE(y2, groups * sizeof(X8T));
    G1_CARVE(dst, groups * 8 * sizeof(GA *));
    G1_CARVE(zmask, groups);
    G1_CARVE(sink, 8 * sizeof(GA));
#undef G1_CARVE
    return off + 64; /* + the alignment of the base */
}

size_t GPUB(batch_add_pairs_scratch_size)(size_t n)
{
    GINT(pairs_ctx) t;
    return GINT(pairs_layout)(&t, n, NULL);
}

/* q = ±φ(p) per flags (q may equal p). */
static inline void GINT(pair_apply)(GA *q, const GA *p, uint32_t flags)
{
    if (flags & MULRED_PAIR_ENDO)
        GPUB(affine_endomorphism)(q, p); /* infinity stays (0, 0) */
    else if (q != p)
        *q = *p;
    if ((flags & MULRED_PAIR_NEG) && !GINT(affine_inf)(q)) F(neg)(&q->y, &q->y);
}

/* The scalar path: batch_add_core over the pairs, with φ copies where asked. */
static void GINT(pairs_scalar)(GINT(pairs_ctx) * t, const GPAIR *pr, size_t m)
{
    for (size_t i = 0; i < m; i++) {
        t->accs[i] = pr[i].acc;
        t->neg[i] = (uint8_t)(pr[i].flags & MULRED_PAIR_NEG);
        if (pr[i].flags & MULRED_PAIR_ENDO) {
            GINT(pair_apply)(&t->q[i], pr[i].pt, MULRED_PAIR_ENDO);
            t->pts[i] = &t->q[i];
        } else {
            t->pts[i] = pr[i].pt;
        }
    }
    GINT(batch_add_core)(t->accs, t->pts, t->neg, m, t->core);
}

/* Loads one group of 8 pairs (lane j: pair lp[j]) into slot g of the 8-lane arrays and
 * multiplies its slope denominators into the prefix chain. */
static void GINT(x8_forward)(GINT(pairs_ctx) * t, size_t g, const GPAIR *lp, const X8BT *beta8,
                             size_t *nspecial)
{
    const uint64_t *sx1[8], *sy1[8], *sx2[8], *sy2[8];
    unsigned neg = 0, endo = 0;
    for (int j = 0; j < 8; j++) {
        sx1[j] = X8_WORDS(&lp[j].acc->x);
        sy1[j] = X8_WORDS(&lp[j].acc->y);
        sx2[j] = X8_WORDS(&lp[j].pt->x);
        sy2[j] = X8_WORDS(&lp[j].pt->y);
        if (lp[j].flags & MULRED_PAIR_NEG) neg |= 1u << j;
        if (lp[j].flags & MULRED_PAIR_ENDO) endo |= 1u << j;
        t->dst[8 * g + j] = lp[j].acc;
    }
    X8T *x1 = &t->x1[g], *y1 = &t->y1[g], *x2 = &t->x2[g], *y2 = &t->y2[g], d;
    X8(load)(x1, sx1);
    X8(load)(y1, sy1);
    X8(load)(x2, sx2);
    X8(load)(y2, sy2);
    if (neg) {
        X8(neg)(&d, y2);
        X8(select)(y2, y2, &d, neg);
    }
    if (endo) {
        X8_MUL_BETA(&d, x2, beta8);
        X8(select)(x2, x2, &d, endo);
    }
    X8(sub)(&d, x2, x1);
    const unsigned z = X8(is_zero_mask)(&d);
    t->zmask[g] = (uint8_t)z;
    if (z) {
        X8T one;
        X8(set_one)(&one);
        X8(select)(&d, &d, &one, z);
        for (int j = 0; j < 8; j++)
            if (z >> j & 1) {
                if (lp[j].acc != &t->sink[j]) t->special[(*nspecial)++] = lp[j];
                t->dst[8 * g + j] = &t->sink[j];
            }
    }
    if (g == 0)
        t->pre[0] = d;
    else
        X8(mul)(&t->pre[g], &t->pre[g - 1], &d);
}

/* The 8-lane path: lane j of the prefix products is its own Montgomery chain and the 8 chain
 * products are inverted together (one gcd per lane, in the vector). Trivial pairs (an
 * infinity) are finished while the groups are formed; the rare pairs with equal x (a doubling,
 * or P + (−P)) are taken out of the lanes (their lane computes a dummy into a sink) and
 * finished by the scalar path after the lanes. */
static void GINT(pairs_x8)(GINT(pairs_ctx) * t, const GPAIR *pr, size_t m)
{
    X8BT beta8;
    {
        const uint64_t *bp[8];
        for (int j = 0; j < 8; j++) bp[j] = G1_BETA; /* a Montgomery residue of the base field */
        X8B(load)(&beta8, bp);
    }
    GPAIR lp[8];
    size_t g = 0, nspecial = 0;
    int lane = 0;
    for (size_t i = 0; i < m; i++) {
        if (i + G1_PREFETCH_AHEAD < m) { /* the bucket's lines may have left L1 since scheduling */
            mulred_prefetch_write(pr[i + G1_PREFETCH_AHEAD].acc, sizeof(GA));
            mulred_prefetch_read(pr[i + G1_PREFETCH_AHEAD].pt, sizeof(GA));
        }
        GA *a = pr[i].acc;
        const GA *p = pr[i].pt;
        if (GINT(affine_inf)(p)) continue;
        if (GINT(affine_inf)(a)) {
            GINT(pair_apply)(a, p, pr[i].flags);
            continue;
        }
        lp[lane++] = pr[i];
        if (lane == 8) {
            GINT(x8_forward)(t, g++, lp, &beta8, &nspecial);
            lane = 0;
        }
    }
    if (lane) {
        /* pad with dummy pairs into the sink: x = 0 against x = 1, never equal (the values
         * need not be points: only the sink sees the results) */
        GA dummy_pt;
        memset(&dummy_pt, 0, sizeof dummy_pt);
        X8_WORDS(&dummy_pt.x)[0] = 1;
        for (int j = lane; j < 8; j++) {
            GPUB(affine_set_infinity)(&t->sink[j]);
            lp[j] = (GPAIR){&t->sink[j], &dummy_pt, 0};
        }
        GINT(x8_forward)(t, g++, lp, &beta8, &nspecial);
    }
    if (g) {
        X8T inv, dinv, d, lam, x3, t1;
        X8(inv_var)(&inv, &t->pre[g - 1]);
        for (size_t k = g; k-- > 0;) {
            const X8T *x1 = &t->x1[k], *y1 = &t->y1[k], *x2 = &t->x2[k], *y2 = &t->y2[k];
            if (k > 0) {
                X8(mul)(&dinv, &inv, &t->pre[k - 1]);
                X8(sub)(&d, x2, x1);
                if (t->zmask[k]) {
                    X8T one;
                    X8(set_one)(&one);
                    X8(select)(&d, &d, &one, t->zmask[k]);
                }
                X8(mul)(&inv, &inv, &d);
            } else {
                dinv = inv;
            }
            X8(sub)(&t1, y2, y1);
            X8(mul)(&lam, &t1, &dinv);
            X8(sqr)(&t1, &lam);
            X8(sub)(&t1, &t1, x1);
            X8(sub)(&x3, &t1, x2);
            X8(sub)(&t1, x1, &x3);
            X8(mul)(&t1, &lam, &t1);
            X8(sub)(&t1, &t1, y1);
            uint64_t *dx[8], *dy[8];
            for (int j = 0; j < 8; j++) {
                dx[j] = X8_WORDS(&t->dst[8 * k + j]->x);
                dy[j] = X8_WORDS(&t->dst[8 * k + j]->y);
            }
            X8(store)(dx, &x3);
            X8(store)(dy, &t1);
        }
    }
    if (nspecial) GINT(pairs_scalar)(t, t->special, nspecial);
}

void GPUB(batch_add_pairs_var)(const GPAIR *pairs, size_t n, mulred_lanes lanes, void *scratch)
{
    if (lanes == MULRED_LANES_AUTO)
        lanes = mulred_fieldx8_have_ifma() ? MULRED_LANES_X8 : MULRED_LANES_SCALAR;
    MULRED_ARG_CHECK_VOID(lanes == MULRED_LANES_SCALAR || lanes == MULRED_LANES_X8);
    /* 8 lanes asked for on a CPU without AVX-512 IFMA */
    MULRED_ARG_CHECK_VOID(lanes != MULRED_LANES_X8 || mulred_fieldx8_have_ifma());
    if (n == 0) return;
    GINT(pairs_ctx) t;
    GINT(pairs_layout)(&t, n, scratch);
    if (lanes == MULRED_LANES_X8)
        GINT(pairs_x8)(&t, pairs, n);
    else
        GINT(pairs_scalar)(&t, pairs, n);
}

#undef X8T
#undef X8
#undef X8BT
#undef X8B
#undef X8_MUL_BETA
#undef X8_WORDS
#undef GPAIR

/* ---- scalar multiplication ----------------------------------------------------------------- */

#define G1_WNAF_W     5
#define G1_WNAF_TABLE (1 << (G1_WNAF_W - 2)) /* odd multiples 1, 3, ..., 15 */

/* Width-w NAF of a 256-bit k: digits odd in (−2^(w−1), 2^(w−1)) or 0, no two non-zero digits
 * within w positions. Returns the number of digits (<= 257). */
static int GINT(wnaf)(int8_t digits[258], const uint64_t k[4])
{
    uint64_t x[5] = {k[0], k[1], k[2], k[3], 0};
    int len = 0;
    while (x[0] | x[1] | x[2] | x[3] | x[4]) {
        int d = 0;
        if (x[0] & 1) {
            d = (int)(x[0] & ((1u << G1_WNAF_W) - 1));
            if (d >= 1 << (G1_WNAF_W - 1)) d -= 1 << G1_WNAF_W;
            /* x -= d (d odd, |d| < 16): x then has its low w bits zero */
            if (d > 0) {
                uint64_t borrow = (uint64_t)d;
                for (int i = 0; i < 5; i++) {
                    const uint64_t v = x[i];
                    x[i] = v - borrow;
                    borrow = v < borrow;
                }
            } else {
                uint64_t carry = (uint64_t)(-d);
                for (int i = 0; i < 5; i++) {
                    x[i] += carry;
                    carry = x[i] < carry;
                }
            }
        }
        digits[len++] = (int8_t)d;
        for (int i = 0; i < 4; i++) x[i] = x[i] >> 1 | x[i + 1] << 63;
        x[4] >>= 1;
    }
    return len;
}

/* ta[i] = (2i + 1)·a in affine form, i < G1_WNAF_TABLE (a not infinity): the table is built in
 * Jacobian coordinates and normalised with one shared inversion, so the main loop can use
 * mixed additions (8M + 3S instead of 12M + 4S). */
static void GINT(odd_multiples)(GA ta[G1_WNAF_TABLE], const GJ *a)
{
    GJ tj[G1_WNAF_TABLE], twice;
    FE scratch[2 * G1_WNAF_TABLE];
    tj[0] = *a;
    GPUB(jacobian_double)(&twice, a);
    for (int i = 1; i < G1_WNAF_TABLE; i++) GPUB(jacobian_add)(&tj[i], &tj[i - 1], &twice);
    GPUB(jacobian_batch_to_affine_var)(ta, tj, G1_WNAF_TABLE, scratch);
}

/* acc += d·T for a wNAF digit d (odd, |d| < 2^(w−1), or 0) */
static inline void GINT(add_digit)(GJ *acc, const GA table[G1_WNAF_TABLE], int d)
{
    if (d > 0) {
        GPUB(jacobian_add_affine)(acc, acc, &table[d >> 1]);
    } else if (d < 0) {
        GA neg;
        GPUB(affine_neg)(&neg, &table[(-d) >> 1]);
        GPUB(jacobian_add_affine)(acc, acc, &neg);
    }
}

void GPUB(jacobian_mul_var)(GJ *r, const GJ *a, const uint64_t k[4])
{
    int8_t digits[258];
    const int len = GINT(wnaf)(digits, k);
    if (len == 0 || F(is_zero)(&a->z)) {
        GPUB(jacobian_set_infinity)(r);
        return;
    }
    GA ta[G1_WNAF_TABLE];
    GINT(odd_multiples)(ta, a);
    GJ acc;
    GPUB(jacobian_set_infinity)(&acc);
    for (int i = len - 1; i >= 0; i--) {
        GPUB(jacobian_double)(&acc, &acc);
        GINT(add_digit)(&acc, ta, digits[i]);
    }
    *r = acc;
}

/* ---- GLV endomorphism ---------------------------------------------------------------------- */

void GPUB(affine_endomorphism)(GA *r, const GA *a)
{
    GINT(mul_beta)(&r->x, &a->x, G1_BETA); /* infinity (0, 0) stays (0, 0) */
    r->y = a->y;
}

void GPUB(glv_lambda)(uint64_t out[4])
{
    memcpy(out, G1_LAMBDA, 4 * sizeof(uint64_t));
}

/* r[0..3) = a·b mod 2^192 (two's complement: signs come out right) */
static void GINT(mul192)(uint64_t r[3], const uint64_t a[3], const uint64_t b[3])
{
    uint64_t t[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        uint64_t carry = 0;
        for (int j = 0; i + j < 3; j++) {
            const field_u128 x = (field_u128)a[i] * b[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
    }
    memcpy(r, t, sizeof t);
}

static void GINT(sub192)(uint64_t r[3], const uint64_t a[3], const uint64_t b[3])
{
    unsigned char borrow = 0;
    for (int i = 0; i < 3; i++) borrow = fe_subb(borrow, a[i], b[i], &r[i]);
}

/* c = round(k·g / 2^384) for k < 2^256 (4 limbs) and g < 2^320 (5 limbs); c < 2^192 */
static void GINT(round_mul_shift384)(uint64_t c[3], const uint64_t k[4], const uint64_t g[5])
{
    uint64_t t[9] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 5; j++) {
            const field_u128 x = (field_u128)k[i] * g[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        t[i + 5] = carry;
    }
    /* + 2^383, then the limbs from 2^384 up */
    unsigned char carry = fe_addc(0, t[5], UINT64_C(1) << 63, &t[5]);
    for (int i = 6; i < 9; i++) carry = fe_addc(carry, t[i], 0, &t[i]);
    c[0] = t[6], c[1] = t[7], c[2] = t[8];
}

/* |x| of a 192-bit two's-complement value; returns its sign */
static bool GINT(abs192)(uint64_t m[2], const uint64_t x[3])
{
    uint64_t t[3];
    const bool neg = x[2] >> 63;
    if (neg) {
        const uint64_t zero[3] = {0, 0, 0};
        GINT(sub192)(t, zero, x);
    } else {
        memcpy(t, x, sizeof t);
    }
    /* |k_i| < 2^127 by the basis (see the header); unreachable */
    MULRED_CHECK(t[2] == 0, "glv_decompose: half-scalar out of range");
    m[0] = t[0], m[1] = t[1];
    return neg;
}

void GPUB(glv_decompose)(uint64_t k1[2], bool *neg1, uint64_t k2[2], bool *neg2,
                         const uint64_t k[4])
{
    /* k mod r (k < 2^256 < 6r) */
    uint64_t kr[4];
    memcpy(kr, k, sizeof kr);
    while (!fe_less_var(kr, G1_ORDER, 4)) {
        unsigned char borrow = 0;
        for (int i = 0; i < 4; i++) borrow = fe_subb(borrow, kr[i], G1_ORDER[i], &kr[i]);
    }
    /* Babai rounding against the reduced basis v1 = (a1, b1), v2 = (a2, b2), det = r:
     * c1 = round(k·b2/r), c2 = round(−k·b1/r) (g1, g2 = those ratios times 2^384), then
     * k1 = k − c1·a1 − c2·a2, k2 = −c1·b1 − c2·b2, computed mod 2^192: the true values are
     * small, so the wrapped ones are exact. */
    uint64_t c1[3], c2[3], t[3], u[3], k1w[3], k2w[3];
    const uint64_t k3[3] = {kr[0], kr[1], kr[2]};
    GINT(round_mul_shift384)(c1, kr, G1_GLV_G1);
    GINT(round_mul_shift384)(c2, kr, G1_GLV_G2);
    GINT(mul192)(t, c1, G1_GLV_A1);
    GINT(mul192)(u, c2, G1_GLV_A2);
    GINT(sub192)(k1w, k3, t);
    GINT(sub192)(k1w, k1w, u);
    GINT(mul192)(t, c1, G1_GLV_B1);
    GINT(mul192)(u, c2, G1_GLV_B2);
    const uint64_t zero[3] = {0, 0, 0};
    GINT(sub192)(k2w, zero, t);
    GINT(sub192)(k2w, k2w, u);
    *neg1 = GINT(abs192)(k1, k1w);
    *neg2 = GINT(abs192)(k2, k2w);
}

void GPUB(jacobian_mul_glv_var)(GJ *r, const GJ *a, const uint64_t k[4])
{
    if (F(is_zero)(&a->z)) {
        GPUB(jacobian_set_infinity)(r);
        return;
    }
    uint64_t h1[2], h2[2];
    bool n1, n2;
    GPUB(glv_decompose)(h1, &n1, h2, &n2, k);
    const uint64_t w1[4] = {h1[0], h1[1], 0, 0}, w2[4] = {h2[0], h2[1], 0, 0};
    int8_t d1[258], d2[258];
    const int len1 = GINT(wnaf)(d1, w1), len2 = GINT(wnaf)(d2, w2);
    const int len = len1 > len2 ? len1 : len2;
    if (len == 0) {
        GPUB(jacobian_set_infinity)(r);
        return;
    }
    for (int i = len1; i < len; i++) d1[i] = 0;
    for (int i = len2; i < len; i++) d2[i] = 0;
    /* tables: ±(2i + 1)·a and ±(2i + 1)·φ(a) = ±φ((2i + 1)·a) */
    GA t1[G1_WNAF_TABLE], t2[G1_WNAF_TABLE];
    GINT(odd_multiples)(t1, a);
    for (int i = 0; i < G1_WNAF_TABLE; i++) {
        GPUB(affine_endomorphism)(&t2[i], &t1[i]);
        if (n1) F(neg)(&t1[i].y, &t1[i].y);
        if (n2) F(neg)(&t2[i].y, &t2[i].y);
    }
    GJ acc;
    GPUB(jacobian_set_infinity)(&acc);
    for (int i = len - 1; i >= 0; i--) {
        GPUB(jacobian_double)(&acc, &acc);
        GINT(add_digit)(&acc, t1, d1[i]);
        GINT(add_digit)(&acc, t2, d2[i]);
    }
    *r = acc;
}

/* ---- subgroup check ------------------------------------------------------------------------ */

#if !G1_EXT
bool GPUB(affine_in_g1_var)(const GA *a)
{
    if (GINT(affine_inf)(a)) return true;
#if G1_COFACTOR_ONE
    return true; /* the curve's group has prime order: every point is in G1 */
#else
    /* Scott's criterion (ePrint 2021/1130, section 4): on this curve a point is in G1 iff
     * φ'(P) = −x²·P, with φ'(x, y) = (β'x, y) the endomorphism of eigenvalue −x² on G1 and
     * x the curve seed. x²·P by two double-and-add passes over |x| (64 bits, 6 of them set),
     * then φ'(P) = (X/Z², −Y/Z³) compared without an inversion. */
    GJ q, xp;
    const int top = 62 - __builtin_clzll(G1_SEED_ABS);
    GPUB(jacobian_from_affine)(&q, a); /* |x|·P, mixed additions of P */
    for (int bit = top; bit >= 0; bit--) {
        GPUB(jacobian_double)(&q, &q);
        if ((G1_SEED_ABS >> bit) & 1) GPUB(jacobian_add_affine)(&q, &q, a);
    }
    xp = q; /* x²·P = |x|·(|x|·P) */
    for (int bit = top; bit >= 0; bit--) {
        GPUB(jacobian_double)(&q, &q);
        if ((G1_SEED_ABS >> bit) & 1) GPUB(jacobian_add)(&q, &q, &xp);
    }
    if (F(is_zero)(&q.z)) return false; /* φ'(P) ≠ O for P ≠ O */
    FE beta, bx, z2, t;
    memcpy(beta.l, G1_BETA_SUBGROUP, sizeof beta.l);
    F(mul)(&bx, &a->x, &beta);
    F(sqr)(&z2, &q.z);
    F(mul)(&t, &bx, &z2);
    if (!F(equal)(&t, &q.x)) return false;
    F(mul)(&z2, &z2, &q.z);
    F(mul)(&t, &a->y, &z2);
    F(add)(&t, &t, &q.y); /* y·Z³ = −Y */
    return F(is_zero)(&t);
#endif
}
#endif

#undef G1_CAT_
#undef G1_CAT
#undef GPUB
#undef GA
#undef GJ
#undef GX
#undef FE
#undef F
#undef FPUBF
#undef GINT
#undef G1_PREFETCH_AHEAD
#undef G1_WNAF_W
#undef G1_WNAF_TABLE
#undef G1_EXT
/* the instance's parameters, so the next instance defines its own */
#undef FP
#undef FX8
#undef FX8B
#undef G1
#undef G1_FB
#undef G1_B
#undef G1_BETA
#undef G1_BETA_SUBGROUP
#undef G1_COFACTOR_ONE
#undef G1_GEN_X
#undef G1_GEN_Y
#undef G1_GLV_A1
#undef G1_GLV_A2
#undef G1_GLV_B1
#undef G1_GLV_B2
#undef G1_GLV_G1
#undef G1_GLV_G2
#undef G1_LAMBDA
#undef G1_ORDER
#undef G1_SEED_ABS

/* Part of the point template (point_impl.h, which includes it): batch normalisation, batch-affine
 * addition and the pair executor (±φ, on 8 lanes where the field has them). Its own macros
 * are #undef'd at its end. */

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

#define POINT_PREFETCH_AHEAD 8

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
        if (i + POINT_PREFETCH_AHEAD < n) {
            mulred_prefetch_write(acc[i + POINT_PREFETCH_AHEAD], sizeof(GA));
            mulred_prefetch_read(pts[i + POINT_PREFETCH_AHEAD], sizeof(GA));
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
        if (k >= POINT_PREFETCH_AHEAD) {
            const size_t j = ent[k - POINT_PREFETCH_AHEAD].index;
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

#define X8T      POINT_CAT(mulred_, FX8)                     /* 8-lane type */
#define X8(name) POINT_CAT(POINT_CAT(mulred_, FX8), _##name) /* 8-lane op */
#if POINT_EXT
#define X8BT        POINT_CAT(mulred_, FX8B) /* 8-lane base field: β */
#define X8B(name)   POINT_CAT(POINT_CAT(mulred_, FX8B), _##name)
#define X8_MUL_BETA X8(mul_base)
#else
#define X8BT        X8T
#define X8B(name)   X8(name)
#define X8_MUL_BETA X8(mul)
#endif
/* the 64-bit words of a coordinate (scalar form, as load and store take them) */
#define X8_WORDS(fe) ((uint64_t *)(fe))
#define GPAIR        POINT_CAT(POINT_CAT(mulred_, POINT), _affine_pair)

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
#define POINT_CARVE(field, bytes)                                                                  \
    do {                                                                                           \
        off = (off + 63) & ~(size_t)63;                                                            \
        t->field = base ? (void *)(base + off) : NULL;                                             \
        off += (bytes);                                                                            \
    } while (0)
    POINT_CARVE(accs, n * sizeof(GA *));
    POINT_CARVE(pts, n * sizeof(GA *));
    POINT_CARVE(neg, n);
    POINT_CARVE(q, n * sizeof(GA));
    POINT_CARVE(core, GPUB(batch_add_affine_scratch_size)(n));
    const size_t groups = (n + 7) / 8;
    POINT_CARVE(special, n * sizeof(GPAIR));
    POINT_CARVE(pre, groups * sizeof(X8T));
    POINT_CARVE(x1, groups * sizeof(X8T));
    POINT_CARVE(y1, groups * sizeof(X8T));
    POINT_CARVE(x2, groups * sizeof(X8T));
    POINT_CARVE(y2, groups * sizeof(X8T));
    POINT_CARVE(dst, groups * 8 * sizeof(GA *));
    POINT_CARVE(zmask, groups);
    POINT_CARVE(sink, 8 * sizeof(GA));
#undef POINT_CARVE
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
        for (int j = 0; j < 8; j++) bp[j] = POINT_BETA; /* a Montgomery residue of the base field */
        X8B(load)(&beta8, bp);
    }
    GPAIR lp[8];
    size_t g = 0, nspecial = 0;
    int lane = 0;
    for (size_t i = 0; i < m; i++) {
        if (i + POINT_PREFETCH_AHEAD <
            m) { /* the bucket's lines may have left L1 since scheduling */
            mulred_prefetch_write(pr[i + POINT_PREFETCH_AHEAD].acc, sizeof(GA));
            mulred_prefetch_read(pr[i + POINT_PREFETCH_AHEAD].pt, sizeof(GA));
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

#undef POINT_PREFETCH_AHEAD

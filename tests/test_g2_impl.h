/* The G2 suites of one curve (test_g2.c includes this once per curve), with:
 *   TG   g2_381 / g2_254      TF   fp2_381 / fp2_254     TB  fp381 / fp254
 *   TC   0 / 1 (the curve index of g2_ref.h)             TN  limbs of a base element */

#define T_CAT_(a, b) a##b
#define T_CAT(a, b)  T_CAT_(a, b)
#define GP(name)     T_CAT(T_CAT(mulred_, TG), _##name)
#define FPUB(name)   T_CAT(T_CAT(mulred_, TF), _##name)
#define BPUB(name)   T_CAT(T_CAT(mulred_, TB), _##name)
#define EL           T_CAT(mulred_, TF)
#define BE           T_CAT(mulred_, TB)
#define GA           T_CAT(T_CAT(mulred_, TG), _affine)
#define GJ           T_CAT(T_CAT(mulred_, TG), _jacobian)
#define GX           T_CAT(T_CAT(mulred_, TG), _xyzz)
#define GPAIR        T_CAT(T_CAT(mulred_, TG), _affine_pair)
#define L(name)      T_CAT(TG, _t_##name)
#define XT           T_CAT(T_CAT(mulred_, TF), x8) /* 8-lane Fp2 */
#define XB           T_CAT(T_CAT(mulred_, TB), x8) /* 8-lane base field */
#define X(name)      T_CAT(XT, _##name)
#define XBF(name)    T_CAT(XB, _##name)

/* A random element below p of an edge shape (kind < 8) or uniform. */
static void L(rand_ref)(ref_fp2 *a, int kind)
{
    const ref_curve2 *c = ref2_curve(TC);
    mpz_t t;
    mpz_init(t);
    for (int i = 0; i < 2; i++) {
        mpz_ptr z = i ? a->c1 : a->c0;
        uint64_t l[6];
        for (int j = 0; j < 6; j++) l[j] = test_rand64();
        mpz_import(t, 6, -1, 8, 0, 0, l);
        mpz_mod(z, t, c->p);
    }
    switch (kind) {
    case 0:
        mpz_set_ui(a->c0, 0), mpz_set_ui(a->c1, 0);
        break; /* 0 */
    case 1:
        mpz_set_ui(a->c0, 1), mpz_set_ui(a->c1, 0);
        break; /* 1 */
    case 2:
        mpz_sub_ui(a->c0, c->p, 1), mpz_set_ui(a->c1, 0);
        break; /* p − 1 */
    case 3:
        mpz_set_ui(a->c0, 0), mpz_set_ui(a->c1, 1);
        break; /* u */
    case 4:
        mpz_set_ui(a->c0, 0);
        break; /* zero c0 */
    case 5:
        mpz_set_ui(a->c1, 0);
        break; /* zero c1 */
    case 6:
        mpz_sub_ui(a->c0, c->p, 1), mpz_sub_ui(a->c1, c->p, 1);
        break;
    default:
        break;
    }
    mpz_clear(t);
}

static void L(check_eq)(const EL *got, const ref_fp2 *want, const char *what)
{
    ref_fp2 g;
    ref_fp2_init(&g);
    ref_fp2_from_lib(TC, &g, got);
    if (!ref_fp2_equal(&g, want))
        fprintf(stderr, "%s: %s differs from the reference\n", TC ? "bn254" : "bls12-381", what);
    CU_ASSERT(ref_fp2_equal(&g, want));
    ref_fp2_clear(&g);
}

static void L(fp2_arith)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    ref_fp2 a, b, w;
    ref_fp2_init(&a);
    ref_fp2_init(&b);
    ref_fp2_init(&w);
    for (int it = 0; it < 400; it++) {
        L(rand_ref)(&a, it < 64 ? it % 8 : 8);
        L(rand_ref)(&b, it < 64 ? it / 8 : 8);
        EL x, y, r;
        ref_fp2_to_lib(TC, &x, &a);
        ref_fp2_to_lib(TC, &y, &b);
        FPUB(add)(&r, &x, &y);
        ref_fp2_add(c->p, &w, &a, &b);
        L(check_eq)(&r, &w, "add");
        FPUB(sub)(&r, &x, &y);
        ref_fp2_sub(c->p, &w, &a, &b);
        L(check_eq)(&r, &w, "sub");
        FPUB(neg)(&r, &x);
        ref_fp2_neg(c->p, &w, &a);
        L(check_eq)(&r, &w, "neg");
        FPUB(mul)(&r, &x, &y);
        ref_fp2_mul(c->p, &w, &a, &b);
        L(check_eq)(&r, &w, "mul");
        r = x; /* aliasing: r = a and r = b */
        FPUB(mul)(&r, &r, &y);
        L(check_eq)(&r, &w, "mul (r = a)");
        r = y;
        FPUB(mul)(&r, &x, &r);
        L(check_eq)(&r, &w, "mul (r = b)");
        FPUB(sqr)(&r, &x);
        ref_fp2_mul(c->p, &w, &a, &a);
        L(check_eq)(&r, &w, "sqr");
        r = x;
        FPUB(sqr)(&r, &r);
        L(check_eq)(&r, &w, "sqr (r = a)");
        FPUB(conj)(&r, &x);
        mpz_set(w.c0, a.c0);
        mpz_neg(w.c1, a.c1);
        mpz_mod(w.c1, w.c1, c->p);
        L(check_eq)(&r, &w, "conj");
        /* the Frobenius a^p is the conjugate: a^p by the reference's square-and-multiply */
        if (it < 70) {
            ref_fp2 f;
            ref_fp2_init(&f);
            mpz_set_ui(f.c0, 1);
            mpz_set_ui(f.c1, 0);
            for (size_t bit = mpz_sizeinbase(c->p, 2); bit-- > 0;) {
                ref_fp2_mul(c->p, &f, &f, &f);
                if (mpz_tstbit(c->p, bit)) ref_fp2_mul(c->p, &f, &f, &a);
            }
            L(check_eq)(&r, &f, "conj = Frobenius");
            ref_fp2_clear(&f);
        }
        CU_ASSERT(FPUB(is_zero)(&x) == ref_fp2_is_zero(&a));
        CU_ASSERT(FPUB(equal)(&x, &y) == ref_fp2_equal(&a, &b));
        if (!ref_fp2_is_zero(&a)) {
            ref_fp2_inv(c->p, &w, &a);
            FPUB(inv)(&r, &x);
            L(check_eq)(&r, &w, "inv");
            FPUB(inv_var)(&r, &x);
            L(check_eq)(&r, &w, "inv_var");
        } else {
            FPUB(inv_var)(&r, &x);
            CU_ASSERT(FPUB(is_zero)(&r));
        }
        /* bytes: c0 then c1, big-endian */
        uint8_t buf[2 * 8 * TN], want[2 * 8 * TN];
        FPUB(to_bytes)(buf, &x);
        ref_mpz_to_be(want, 8 * TN, a.c0);
        ref_mpz_to_be(want + 8 * TN, 8 * TN, a.c1);
        CU_ASSERT(memcmp(buf, want, sizeof buf) == 0);
        EL back;
        CU_ASSERT(FPUB(from_bytes)(&back, buf) == MULRED_OK && FPUB(equal)(&back, &x));
    }
    /* p in either coefficient is out of range */
    uint8_t buf[2 * 8 * TN];
    EL x;
    for (int i = 0; i < 2; i++) {
        memset(buf, 0, sizeof buf);
        ref_mpz_to_be(buf + i * 8 * TN, 8 * TN, c->p);
        CU_ASSERT(FPUB(from_bytes)(&x, buf) == MULRED_EINPUT && FPUB(is_zero)(&x));
    }
    /* batch inverse with zeros inside */
    EL v[9], inv[9];
    unsigned char scratch[9 * sizeof(EL)];
    for (int i = 0; i < 9; i++) {
        L(rand_ref)(&a, i == 3 || i == 8 ? 0 : 8);
        ref_fp2_to_lib(TC, &v[i], &a);
    }
    FPUB(batch_inv_var)(inv, v, 9, scratch);
    for (int i = 0; i < 9; i++) {
        ref_fp2_from_lib(TC, &a, &v[i]);
        if (ref_fp2_is_zero(&a)) {
            CU_ASSERT(FPUB(is_zero)(&inv[i]));
            continue;
        }
        ref_fp2_inv(c->p, &w, &a);
        L(check_eq)(&inv[i], &w, "batch_inv_var");
    }
    ref_fp2_clear(&a);
    ref_fp2_clear(&b);
    ref_fp2_clear(&w);
}

/* Lane j of an 8-lane coefficient set to the raw x8-form integer w (any w < 2p, so both
 * representatives of an element occur); e = the element it stands for, w / 2^(52 N52) mod p. */
static void L(x8_set_raw)(uint64_t (*l)[8], int lane, const mpz_t w, mpz_t e)
{
    const ref_curve2 *c = ref2_curve(TC);
    const int n52 = TC ? 5 : 8;
    mpz_t t, rinv;
    mpz_inits(t, rinv, NULL);
    mpz_set(t, w);
    for (int i = 0; i < n52; i++) {
        l[i][lane] = mpz_getlimbn(t, 0) & ((UINT64_C(1) << 52) - 1);
        mpz_tdiv_q_2exp(t, t, 52);
    }
    mpz_set_ui(rinv, 1);
    mpz_mul_2exp(rinv, rinv, 52 * (mp_bitcnt_t)n52);
    CU_ASSERT_FATAL(mpz_invert(rinv, rinv, c->p));
    mpz_mul(e, w, rinv);
    mpz_mod(e, e, c->p);
    mpz_clears(t, rinv, NULL);
}

/* Lane j of v against the reference element want[j], through store. */
static void L(x8_check)(const XT *v, const ref_fp2 want[8], const char *what)
{
    EL out[8];
    uint64_t *dst[8];
    for (int j = 0; j < 8; j++) dst[j] = (uint64_t *)&out[j];
    X(store)(dst, v);
    for (int j = 0; j < 8; j++) L(check_eq)(&out[j], &want[j], what);
}

/* The 8-lane Fp2 kernels (src/field/field_x8.h) against the reference, lane by lane: edge and
 * random elements through load, raw x8 values up to 2p − 1 in either coefficient, a long chain
 * of products (every output fed back in), aliasing. Skipped without AVX-512 IFMA. */
static void L(fp2_x8)(void)
{
    if (!test_have_x8()) {
        test_skip("CPU lacks avx512f/avx512vl/avx512ifma: 8-lane Fp2");
        return;
    }
    const ref_curve2 *c = ref2_curve(TC);
    ref_fp2 a[8], b[8], w[8], chain[8];
    mpz_t e, raw;
    mpz_inits(e, raw, NULL);
    for (int j = 0; j < 8; j++) {
        ref_fp2_init(&a[j]);
        ref_fp2_init(&b[j]);
        ref_fp2_init(&w[j]);
        ref_fp2_init(&chain[j]);
    }
    XT x, y, r, ch;
    XB bb;
    for (int it = 0; it < 60; it++) {
        EL ex[8], ey[8];
        const uint64_t *sx[8], *sy[8], *sb[8];
        for (int j = 0; j < 8; j++) {
            const int k = 8 * it + j;
            L(rand_ref)(&a[j], k < 64 ? k % 8 : 8);
            L(rand_ref)(&b[j], k < 64 ? k / 8 : 8);
            ref_fp2_to_lib(TC, &ex[j], &a[j]);
            ref_fp2_to_lib(TC, &ey[j], &b[j]);
            sx[j] = (const uint64_t *)&ex[j];
            sy[j] = (const uint64_t *)&ey[j];
            sb[j] = ey[j].c0.l; /* the base element: b's c0 */
        }
        X(load)(&x, sx);
        X(load)(&y, sy);
        XBF(load)(&bb, sb);
        if (it >= 40) {
            /* raw x8 values: lanes of 2p − 1, p (a zero), p − 1, 2p − 2 in either coefficient */
            for (int j = 0; j < 8; j++) {
                for (int h = 0; h < 4; h++) {
                    const bool ya = h >= 2, c1 = h & 1;
                    const int kind = (it + j + h) % 6;
                    if (kind >= 4) continue; /* keep the loaded value */
                    mpz_set(raw, c->p);
                    if (kind != 1) mpz_mul_2exp(raw, raw, 1);
                    if (kind == 0) mpz_sub_ui(raw, raw, 1);
                    if (kind == 2) mpz_sub_ui(raw, c->p, 1);
                    if (kind == 3) mpz_sub_ui(raw, raw, 2);
                    XB *co = ya ? (c1 ? &y.c1 : &y.c0) : (c1 ? &x.c1 : &x.c0);
                    L(x8_set_raw)(co->l, j, raw, e);
                    ref_fp2 *t = ya ? &b[j] : &a[j];
                    mpz_set(c1 ? t->c1 : t->c0, e);
                }
            }
        }
        for (int j = 0; j < 8; j++) ref_fp2_add(c->p, &w[j], &a[j], &b[j]);
        X(add)(&r, &x, &y);
        L(x8_check)(&r, w, "x8 add");
        for (int j = 0; j < 8; j++) ref_fp2_sub(c->p, &w[j], &a[j], &b[j]);
        X(sub)(&r, &x, &y);
        L(x8_check)(&r, w, "x8 sub");
        for (int j = 0; j < 8; j++) ref_fp2_neg(c->p, &w[j], &a[j]);
        X(neg)(&r, &x);
        L(x8_check)(&r, w, "x8 neg");
        for (int j = 0; j < 8; j++) {
            mpz_set(w[j].c0, a[j].c0);
            mpz_neg(w[j].c1, a[j].c1);
            mpz_mod(w[j].c1, w[j].c1, c->p);
        }
        X(conj)(&r, &x);
        L(x8_check)(&r, w, "x8 conj");
        r = x;
        X(conj)(&r, &r);
        L(x8_check)(&r, w, "x8 conj (r = a)");
        for (int j = 0; j < 8; j++) ref_fp2_mul(c->p, &w[j], &a[j], &b[j]);
        X(mul)(&r, &x, &y);
        L(x8_check)(&r, w, "x8 mul");
        r = x;
        X(mul)(&r, &r, &y);
        L(x8_check)(&r, w, "x8 mul (r = a)");
        r = y;
        X(mul)(&r, &x, &r);
        L(x8_check)(&r, w, "x8 mul (r = b)");
        for (int j = 0; j < 8; j++) ref_fp2_mul(c->p, &w[j], &a[j], &a[j]);
        X(sqr)(&r, &x);
        L(x8_check)(&r, w, "x8 sqr");
        X(mul)(&r, &x, &x);
        L(x8_check)(&r, w, "x8 mul (a = b)");
        r = x;
        X(sqr)(&r, &r);
        L(x8_check)(&r, w, "x8 sqr (r = a)");
        for (int j = 0; j < 8; j++) {
            ref_fp2 t;
            ref_fp2_init(&t);
            ref_fp2_from_lib(TC, &t, &ey[j]);
            mpz_set_ui(t.c1, 0);
            ref_fp2_mul(c->p, &w[j], &a[j], &t);
            ref_fp2_clear(&t);
        }
        X(mul_base)(&r, &x, &bb);
        L(x8_check)(&r, w, "x8 mul_base");
        unsigned zm = 0;
        for (int j = 0; j < 8; j++) {
            if (ref_fp2_is_zero(&a[j])) {
                zm |= 1u << j;
                mpz_set_ui(w[j].c0, 0), mpz_set_ui(w[j].c1, 0);
            } else {
                ref_fp2_inv(c->p, &w[j], &a[j]);
            }
        }
        CU_ASSERT(X(is_zero_mask)(&x) == zm);
        X(inv_var)(&r, &x);
        L(x8_check)(&r, w, "x8 inv_var");
        r = x;
        X(inv_var)(&r, &r);
        L(x8_check)(&r, w, "x8 inv_var (r = a)");
        const unsigned mask = (unsigned)(test_rand64() & 0xff);
        X(select)(&r, &x, &y, mask);
        for (int j = 0; j < 8; j++) ref_fp2_set(&w[j], mask >> j & 1 ? &b[j] : &a[j]);
        L(x8_check)(&r, w, "x8 select");
        X(set_one)(&r);
        for (int j = 0; j < 8; j++) mpz_set_ui(w[j].c0, 1), mpz_set_ui(w[j].c1, 0);
        L(x8_check)(&r, w, "x8 set_one");
        CU_ASSERT(X(is_zero_mask)(&r) == 0);
        /* the chain: ch = ch·y + x, then squared, every output fed back in */
        if (it == 0) {
            ch = x;
            for (int j = 0; j < 8; j++) ref_fp2_set(&chain[j], &a[j]);
        } else {
            X(mul)(&ch, &ch, &y);
            X(add)(&ch, &ch, &x);
            X(sqr)(&ch, &ch);
            X(sub)(&ch, &ch, &y);
            for (int j = 0; j < 8; j++) {
                ref_fp2_mul(c->p, &chain[j], &chain[j], &b[j]);
                ref_fp2_add(c->p, &chain[j], &chain[j], &a[j]);
                ref_fp2_mul(c->p, &chain[j], &chain[j], &chain[j]);
                ref_fp2_sub(c->p, &chain[j], &chain[j], &b[j]);
            }
        }
    }
    L(x8_check)(&ch, chain, "x8 chain");
    /* c0 = a0 b0 − a1 b1 at its most negative: a0 = 0 (raw 0 or p), a1 and b1 raw in
     * [p, 2p) (for BN254 about one lane in twenty would come out wrong if the multiple of p
     * added before the reduction were too small) */
    for (int it = 0; it < 40; it++) {
        for (int j = 0; j < 8; j++) {
            L(rand_ref)(&b[j], 8);
            mpz_set(raw, b[j].c0); /* random below p */
            L(x8_set_raw)(y.c0.l, j, raw, b[j].c0);
            mpz_set_ui(raw, 0);
            if (j & 1) mpz_set(raw, c->p);
            L(x8_set_raw)(x.c0.l, j, raw, a[j].c0);
            mpz_add(raw, b[j].c1, c->p); /* random in [p, 2p) */
            L(x8_set_raw)(y.c1.l, j, raw, b[j].c1);
            mpz_sub_ui(raw, c->p, 1 + (unsigned long)(test_rand64() & 0xffff));
            mpz_add(raw, raw, c->p); /* just below 2p */
            L(x8_set_raw)(x.c1.l, j, raw, a[j].c1);
            ref_fp2_mul(c->p, &w[j], &a[j], &b[j]);
        }
        X(mul)(&r, &x, &y);
        L(x8_check)(&r, w, "x8 mul (c0 most negative)");
        X(mul)(&r, &y, &x);
        L(x8_check)(&r, w, "x8 mul (c0 most negative, swapped)");
    }
    for (int j = 0; j < 8; j++) {
        ref_fp2_clear(&a[j]);
        ref_fp2_clear(&b[j]);
        ref_fp2_clear(&w[j]);
        ref_fp2_clear(&chain[j]);
    }
    mpz_clears(e, raw, NULL);
}

static void L(fp2_sqrt)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    ref_fp2 a, w;
    ref_fp2_init(&a);
    ref_fp2_init(&w);
    mpz_t n;
    mpz_init(n);
    int squares = 0, non = 0;
    for (int it = 0; it < 200; it++) {
        L(rand_ref)(&a, it < 16 ? it % 8 : 8);
        EL x, r;
        ref_fp2_to_lib(TC, &x, &a);
        /* the reference's criterion: a is a square in Fp2 iff its norm is a square in Fp */
        mpz_mul(n, a.c0, a.c0);
        mpz_addmul(n, a.c1, a.c1);
        mpz_mod(n, n, c->p);
        const int is_sq = mpz_legendre(n, c->p) >= 0;
        const bool got = FPUB(sqrt_var)(&r, &x);
        CU_ASSERT(got == (is_sq != 0));
        if (got) {
            ref_fp2_from_lib(TC, &w, &r);
            ref_fp2_mul(c->p, &w, &w, &w);
            CU_ASSERT(ref_fp2_equal(&w, &a));
            squares++;
        } else {
            non++;
        }
        /* a² always has a root, ±a */
        ref_fp2_mul(c->p, &w, &a, &a);
        ref_fp2_to_lib(TC, &x, &w);
        CU_ASSERT(FPUB(sqrt_var)(&r, &x));
        ref_fp2 g;
        ref_fp2_init(&g);
        ref_fp2_from_lib(TC, &g, &r);
        ref_fp2 na;
        ref_fp2_init(&na);
        ref_fp2_neg(c->p, &na, &a);
        CU_ASSERT(ref_fp2_equal(&g, &a) || ref_fp2_equal(&g, &na));
        ref_fp2_clear(&g);
        ref_fp2_clear(&na);
    }
    CU_ASSERT(squares > 20 && non > 20);
    mpz_clear(n);
    ref_fp2_clear(&a);
    ref_fp2_clear(&w);
}

/* ---- curve ---- */

/* A random point of G2: k·G by the reference (k random below r). */
static void L(rand_point)(ref_point2 *p, mpz_t k)
{
    const ref_curve2 *c = ref2_curve(TC);
    uint64_t l[4];
    for (int j = 0; j < 4; j++) l[j] = test_rand64();
    ref_mpz_from_u256(k, l);
    mpz_mod(k, k, c->r);
    ref2_mul(c, p, &c->g, k);
}

/* A point of E′ outside G2: x = (x0 + i, 1) for the first i with x³ + b′ a square (the
 * library's square root supplies y; the reference checks the point and that r·P ≠ O). */
static void L(off_subgroup)(GA *out, ref_point2 *rp, unsigned long x0)
{
    const ref_curve2 *c = ref2_curve(TC);
    ref_fp2 rhs;
    ref_fp2_init(&rhs);
    for (unsigned long i = x0;; i++) {
        mpz_set_ui(rp->x.c0, i);
        mpz_set_ui(rp->x.c1, 1);
        ref_fp2_mul(c->p, &rhs, &rp->x, &rp->x);
        ref_fp2_mul(c->p, &rhs, &rhs, &rp->x);
        ref_fp2_add(c->p, &rhs, &rhs, &c->b);
        EL r, y;
        ref_fp2_to_lib(TC, &r, &rhs);
        if (!FPUB(sqrt_var)(&y, &r)) continue;
        ref_fp2_from_lib(TC, &rp->y, &y);
        rp->inf = 0;
        CU_ASSERT_FATAL(ref2_on_curve(c, rp));
        ref_point2 t;
        ref_point2_init(&t);
        ref2_mul(c, &t, rp, c->r);
        const int outside = !t.inf;
        ref_point2_clear(&t);
        if (outside) break;
    }
    ref2_to_affine(TC, out, rp);
    ref_fp2_clear(&rhs);
}

static void L(constants)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    /* b′ against the reference's own 4(1 + u) / 3·(9 + u)^(−1) */
    EL b;
    memcpy(&b, TC == 0 ? (const void *)G2_381_B : (const void *)G2_254_B, sizeof b);
    L(check_eq)(&b, &c->b, "b′");
    GA g;
    GP(generator)(&g);
    ref_point2 rg, t;
    ref_point2_init(&rg);
    ref_point2_init(&t);
    ref2_from_affine(TC, &rg, &g);
    CU_ASSERT(ref_point2_equal(&rg, &c->g));
    CU_ASSERT(ref2_on_curve(c, &c->g));
    CU_ASSERT(GP(affine_is_on_curve)(&g));
    ref2_mul(c, &t, &c->g, c->r);
    CU_ASSERT(t.inf); /* the generator has order r */
    GJ j, jr;
    GP(jacobian_from_affine)(&j, &g);
    uint64_t rl[4];
    ref_mpz_to_u256(rl, c->r);
    GP(jacobian_mul_var)(&jr, &j, rl);
    CU_ASSERT(GP(jacobian_is_infinity)(&jr));
    /* φ = (β′x, y) acts as G1's λ on G2; ψ as p mod r */
    uint64_t lam[4];
    GP(glv_lambda)(lam);
    mpz_t k;
    mpz_init(k);
    ref_mpz_from_u256(k, lam);
    ref2_mul(c, &t, &c->g, k);
    GA e;
    GP(affine_endomorphism)(&e, &g);
    ref2_from_affine(TC, &rg, &e);
    CU_ASSERT(ref_point2_equal(&rg, &t));
    mpz_mod(k, c->p, c->r);
    ref2_mul(c, &t, &c->g, k);
    GP(affine_psi)(&e, &g);
    ref2_from_affine(TC, &rg, &e);
    CU_ASSERT(ref_point2_equal(&rg, &t));
    mpz_clear(k);
    ref_point2_clear(&rg);
    ref_point2_clear(&t);
}

/* Jacobian, XYZZ and mixed additions, doubling, negation and scalar multiplications against
 * the reference, with the exceptional cases. */
static void L(group_ops)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    mpz_t k1, k2;
    mpz_inits(k1, k2, NULL);
    ref_point2 a, b, w, g;
    ref_point2_init(&a);
    ref_point2_init(&b);
    ref_point2_init(&w);
    ref_point2_init(&g);
    for (int it = 0; it < 12; it++) {
        L(rand_point)(&a, k1);
        L(rand_point)(&b, k2);
        if (it == 1) ref_point2_set(&b, &a); /* P + P */
        if (it == 2) ref2_neg(c, &b, &a);    /* P + (−P) */
        if (it == 3) b.inf = 1;              /* P + O */
        if (it == 4) a.inf = 1;              /* O + Q */
        GA pa, pb, ra;
        ref2_to_affine(TC, &pa, &a);
        ref2_to_affine(TC, &pb, &b);
        CU_ASSERT(GP(affine_is_on_curve)(&pa) && GP(affine_is_on_curve)(&pb));
        CU_ASSERT(GP(affine_in_g2_var)(&pa) && GP(affine_in_g2_var)(&pb));
        ref2_add(c, &w, &a, &b);
        GJ ja, jb, jr;
        GP(jacobian_from_affine)(&ja, &pa);
        GP(jacobian_from_affine)(&jb, &pb);
        /* a random projective scaling of jb: (X·z², Y·z³, Z·z) */
        if (!b.inf) {
            EL z, z2;
            ref_fp2 rz;
            ref_fp2_init(&rz);
            L(rand_ref)(&rz, 8);
            ref_fp2_to_lib(TC, &z, &rz);
            ref_fp2_clear(&rz);
            FPUB(sqr)(&z2, &z);
            FPUB(mul)(&jb.x, &jb.x, &z2);
            FPUB(mul)(&z2, &z2, &z);
            FPUB(mul)(&jb.y, &jb.y, &z2);
            FPUB(mul)(&jb.z, &jb.z, &z);
        }
        GP(jacobian_add)(&jr, &ja, &jb);
        ref2_from_jacobian(TC, &g, &jr);
        CU_ASSERT(ref_point2_equal(&g, &w));
        GP(jacobian_add_affine)(&jr, &ja, &pb);
        ref2_from_jacobian(TC, &g, &jr);
        CU_ASSERT(ref_point2_equal(&g, &w));
        GX xa, xr;
        GP(xyzz_from_affine)(&xa, &pa);
        GP(xyzz_add_affine)(&xr, &xa, &pb);
        GP(xyzz_to_affine)(&ra, &xr);
        ref2_from_affine(TC, &g, &ra);
        CU_ASSERT(ref_point2_equal(&g, &w));
        GX xb;
        GP(xyzz_from_affine)(&xb, &pb);
        GP(xyzz_add)(&xr, &xa, &xb);
        GP(xyzz_to_affine)(&ra, &xr);
        ref2_from_affine(TC, &g, &ra);
        CU_ASSERT(ref_point2_equal(&g, &w));
        /* a − b */
        ref_point2 nb;
        ref_point2_init(&nb);
        ref2_neg(c, &nb, &b);
        ref2_add(c, &w, &a, &nb);
        ref_point2_clear(&nb);
        GP(xyzz_sub_affine)(&xr, &xa, &pb);
        GP(xyzz_to_affine)(&ra, &xr);
        ref2_from_affine(TC, &g, &ra);
        CU_ASSERT(ref_point2_equal(&g, &w));
        /* 2a */
        ref2_add(c, &w, &a, &a);
        GP(jacobian_double)(&jr, &ja);
        ref2_from_jacobian(TC, &g, &jr);
        CU_ASSERT(ref_point2_equal(&g, &w));
        GP(xyzz_double)(&xr, &xa);
        GP(xyzz_to_affine)(&ra, &xr);
        ref2_from_affine(TC, &g, &ra);
        CU_ASSERT(ref_point2_equal(&g, &w));
        /* k·a by wNAF and by GLV, with edge scalars */
        uint64_t kl[4];
        for (int j = 0; j < 4; j++) kl[j] = test_rand64();
        if (it == 5) memset(kl, 0xff, sizeof kl); /* 2^256 − 1 */
        if (it == 6) ref_mpz_to_u256(kl, c->r);   /* r */
        if (it == 7) memset(kl, 0, sizeof kl);
        ref_mpz_from_u256(k1, kl);
        ref2_mul(c, &w, &a, k1);
        GP(jacobian_mul_var)(&jr, &ja, kl);
        ref2_from_jacobian(TC, &g, &jr);
        CU_ASSERT(ref_point2_equal(&g, &w));
        GP(jacobian_mul_glv_var)(&jr, &ja, kl);
        ref2_from_jacobian(TC, &g, &jr);
        CU_ASSERT(ref_point2_equal(&g, &w));
        CU_ASSERT(GP(jacobian_equal)(&jr, &jr));
    }
    mpz_clears(k1, k2, NULL);
    ref_point2_clear(&a);
    ref_point2_clear(&b);
    ref_point2_clear(&w);
    ref_point2_clear(&g);
}

/* Batch-affine additions of pairs with P = Q, P = −Q, infinity on either side, ±φ, on
 * the scalar path and (where the CPU has it) on 8 lanes. */
static void L(batches_lanes)(mulred_lanes lanes)
{
    const ref_curve2 *c = ref2_curve(TC);
    enum { N = 24 };
    GA acc[N], pts[N];
    ref_point2 ra[N], rp[N], w, g;
    mpz_t k;
    mpz_init(k);
    ref_point2_init(&w);
    ref_point2_init(&g);
    uint32_t flags[N];
    for (int i = 0; i < N; i++) {
        ref_point2_init(&ra[i]);
        ref_point2_init(&rp[i]);
        L(rand_point)(&ra[i], k);
        L(rand_point)(&rp[i], k);
        flags[i] = (uint32_t)(i % 4);                         /* none, NEG, ENDO, both */
        if (i == 1 || i == 5) ref_point2_set(&rp[i], &ra[i]); /* equal (i = 5: −P added) */
        if (i == 2) ref_point2_set(&rp[i], &ra[i]);           /* φ(P) added: no doubling */
        if (i == 4 || i == 9) ref2_neg(c, &rp[i], &ra[i]);    /* P + (−P); i = 9: −(−P) */
        if (i == 6) rp[i].inf = 1;
        if (i == 7) ra[i].inf = 1;
        if (i == 8) ra[i].inf = rp[i].inf = 1;
        ref2_to_affine(TC, &acc[i], &ra[i]);
        ref2_to_affine(TC, &pts[i], &rp[i]);
    }
    GPAIR pairs[N];
    for (int i = 0; i < N; i++) pairs[i] = (GPAIR){&acc[i], &pts[i], flags[i]};
    const size_t bytes = GP(batch_add_pairs_scratch_size)(N);
    void *scratch = malloc(bytes);
    CU_ASSERT_FATAL(scratch != NULL);
    GP(batch_add_pairs_var)(pairs, N, lanes, scratch);
    uint64_t lam[4];
    GP(glv_lambda)(lam);
    for (int i = 0; i < N; i++) {
        ref_point2 q;
        ref_point2_init(&q);
        ref_point2_set(&q, &rp[i]);
        if (flags[i] & MULRED_PAIR_ENDO) {
            ref_mpz_from_u256(k, lam);
            ref2_mul(c, &q, &q, k);
        }
        if (flags[i] & MULRED_PAIR_NEG) ref2_neg(c, &q, &q);
        ref2_add(c, &w, &ra[i], &q);
        ref2_from_affine(TC, &g, &acc[i]);
        if (!ref_point2_equal(&g, &w))
            fprintf(stderr, "%s batch pair %d differs\n", TC ? "bn254" : "bls12-381", i);
        CU_ASSERT(ref_point2_equal(&g, &w));
        ref_point2_clear(&q);
    }
    /* the plain form: acc[i] += pts[i], with acc = pts for one pair (a doubling) */
    GA *accp[N];
    const GA *ptp[N];
    for (int i = 0; i < N; i++) {
        ref2_to_affine(TC, &acc[i], &ra[i]);
        accp[i] = &acc[i];
        ptp[i] = i == 3 ? &acc[i] : &pts[i];
    }
    GP(batch_add_affine_var)(accp, ptp, N, scratch);
    for (int i = 0; i < N; i++) {
        ref2_add(c, &w, &ra[i], i == 3 ? &ra[i] : &rp[i]);
        ref2_from_affine(TC, &g, &acc[i]);
        CU_ASSERT(ref_point2_equal(&g, &w));
    }
    /* batch normalisation with infinity inside */
    GJ j[N];
    GA back[N];
    for (int i = 0; i < N; i++) {
        GP(jacobian_from_affine)(&j[i], &pts[i]);
        GP(jacobian_double)(&j[i], &j[i]);
    }
    void *s2 = malloc(GP(batch_to_affine_scratch_size)(N));
    GP(jacobian_batch_to_affine_var)(back, j, N, s2);
    for (int i = 0; i < N; i++) {
        ref2_add(c, &w, &rp[i], &rp[i]);
        ref2_from_affine(TC, &g, &back[i]);
        CU_ASSERT(ref_point2_equal(&g, &w));
    }
    free(s2);
    free(scratch);
    for (int i = 0; i < N; i++) {
        ref_point2_clear(&ra[i]);
        ref_point2_clear(&rp[i]);
    }
    ref_point2_clear(&w);
    ref_point2_clear(&g);
    mpz_clear(k);
}

static void L(batches)(void)
{
    L(batches_lanes)(MULRED_LANES_SCALAR);
}

/* the same on the 8-lane path (the 8-lane part of the suite) */
static void L(batches_x8)(void)
{
    if (!test_have_x8()) {
        test_skip("CPU lacks avx512f/avx512vl/avx512ifma: 8-lane batches");
        return;
    }
    L(batches_lanes)(MULRED_LANES_X8);
}

/* A point of E′ of small prime order ℓ (the smallest prime factor of the cofactor h, #E′ = r·h):
 * [r·h/ℓ]P for a point P outside G2. h = 2p − r on BN254; on BLS12-381
 * h = (x⁸ − 4x⁷ + 5x⁶ − 4x⁴ + 6x³ − 4x² − 4x + 13)/9 with x = −0xd201000000010000 the seed.
 * Both are checked here: [r·h]P = O and [ℓ]T = O with T ≠ O. */
static void L(small_order)(ref_point2 *T)
{
    const ref_curve2 *c = ref2_curve(TC);
    mpz_t h, x, t, n;
    mpz_inits(h, x, t, n, NULL);
    if (TC) {
        mpz_mul_2exp(h, c->p, 1);
        mpz_sub(h, h, c->r);
    } else {
        static const int coef[9] = {13, -4, -4, 6, -4, 0, 5, -4, 1}; /* of x^0 .. x^8 */
        mpz_set_str(x, "-d201000000010000", 16);
        mpz_set_ui(h, 0);
        for (int i = 8; i >= 0; i--) { /* Horner */
            mpz_mul(h, h, x);
            if (coef[i] >= 0)
                mpz_add_ui(h, h, (unsigned long)coef[i]);
            else
                mpz_sub_ui(h, h, (unsigned long)-coef[i]);
        }
        CU_ASSERT_FATAL(mpz_divisible_ui_p(h, 9));
        mpz_divexact_ui(h, h, 9);
    }
    unsigned long ell = 2;
    while (!mpz_divisible_ui_p(h, ell)) ell++; /* the smallest factor: prime */
    CU_ASSERT_FATAL(ell < 1000000);
    mpz_mul(n, c->r, h);
    ref_point2 p, z;
    ref_point2_init(&p);
    ref_point2_init(&z);
    GA a;
    /* T0 = [n/ℓ^e]P (ℓ^e ‖ n) has order a power of ℓ (ℓ-torsion may be two-dimensional, so
     * [n/ℓ]P can be O for every P); multiplied by ℓ until the next step would give O */
    mpz_set(t, n);
    while (mpz_divisible_ui_p(t, ell)) mpz_divexact_ui(t, t, ell);
    unsigned long x0 = 900;
    for (int tries = 0;; tries++) {
        CU_ASSERT_FATAL(tries < 8);
        L(off_subgroup)(&a, &p, x0);
        x0 = mpz_get_ui(p.x.c0) + 1;
        if (tries == 0) {
            ref2_mul(c, &z, &p, n);
            CU_ASSERT_FATAL(z.inf); /* #E′ = r·h */
        }
        ref2_mul(c, T, &p, t);
        if (!T->inf) break;
    }
    mpz_set_ui(t, ell);
    for (;;) {
        ref2_mul(c, &z, T, t);
        if (z.inf) break;
        ref_point2_set(T, &z);
    }
    ref_point2_clear(&p);
    ref_point2_clear(&z);
    mpz_clears(h, x, t, n, NULL);
}

/* The ψ subgroup check against r·P = O of the reference, on G2 points and on points of E′
 * outside G2. */
static void L(subgroup)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    ref_point2 p, t;
    ref_point2_init(&p);
    ref_point2_init(&t);
    GA a, inf;
    GP(affine_set_infinity)(&inf);
    CU_ASSERT(GP(affine_in_g2_var)(&inf));
    unsigned long x0 = 1;
    for (int i = 0; i < 6; i++) {
        L(off_subgroup)(&a, &p, x0);
        x0 = mpz_get_ui(p.x.c0) + 1;
        CU_ASSERT(GP(affine_is_on_curve)(&a));
        CU_ASSERT(!GP(affine_in_g2_var)(&a));
        /* in G2 after multiplying by the cofactor's part outside r: r·P has order dividing
         * the cofactor, so it is outside G2 unless infinity; (h·P for the true cofactor h is
         * not needed: the check is tested on both sides by G2 points above and below) */
        GA psi;
        GP(affine_psi)(&psi, &a);
        CU_ASSERT(GP(affine_is_on_curve)(&psi));
    }
    /* G2 points: multiples of the generator */
    mpz_t k;
    mpz_init(k);
    for (int i = 0; i < 6; i++) {
        L(rand_point)(&p, k);
        ref2_to_affine(TC, &a, &p);
        CU_ASSERT(GP(affine_in_g2_var)(&a));
    }
    /* a point off the curve is not on it */
    a.x.c0 = a.y.c0;
    CU_ASSERT(!GP(affine_is_on_curve)(&a));
    /* the batch check (g2_batch.h): distinct points with their verdict r·P = O by the reference
     * (G2 points, points of E′ outside G2, their r-multiples (in the cofactor's part), those
     * added to G2 points, infinity, a point of small prime order ℓ alone and added to a G2
     * point: its multiples meet the exceptional additions that the batch hands back to the
     * one-point check), then arrays of every length 1..40 drawn from them, on 8
     * lanes and on the scalar path: the same verdicts as r·P = O and as the one-point check */
    enum { NB = 22, NA = 40 };
    GA pool[NB], arr[NA];
    bool want[NB], got[NA];
    ref_point2 q, small;
    ref_point2_init(&q);
    ref_point2_init(&small);
    L(small_order)(&small);
    x0 = 100;
    for (int i = 0; i < NB; i++) {
        const int kind = i % 5;
        if (i >= 20) { /* a point of small order, and one added to a G2 point */
            ref_point2_set(&p, &small);
            if (i == 21) {
                L(rand_point)(&q, k);
                ref2_add(c, &p, &p, &q);
            }
        } else if (kind == 0 || kind == 4) {
            L(rand_point)(&p, k);
        } else {
            L(off_subgroup)(&pool[i], &p, x0);
            x0 = mpz_get_ui(p.x.c0) + 1;
            if (kind >= 2) ref2_mul(c, &p, &p, c->r); /* order dividing the cofactor */
            if (kind == 3) {
                L(rand_point)(&q, k);
                ref2_add(c, &p, &p, &q); /* a G2 point plus a cofactor-order one */
            }
        }
        if (i == 4 || i == 19) p.inf = 1;
        ref2_to_affine(TC, &pool[i], &p);
        ref2_mul(c, &t, &p, c->r);
        want[i] = t.inf != 0;
        CU_ASSERT(GP(affine_is_on_curve)(&pool[i]));
        CU_ASSERT(GP(affine_in_g2_var)(&pool[i]) == want[i]);
    }
    CU_ASSERT(!want[1] && !want[2] && !want[3] && want[0] && want[4] && !want[20] && !want[21]);
    int idx[NA];
    for (int len = 1; len <= NA; len++)
        for (int x8 = 0; x8 < 2; x8++) {
            for (int i = 0; i < len; i++) {
                idx[i] = (int)(test_rand64() % NB);
                arr[i] = pool[idx[i]];
            }
            memset(got, 0, sizeof got);
            T_CAT(T_CAT(mulred_, TG), _in_g2_batch_var)(got, arr, (size_t)len, x8 != 0);
            for (int i = 0; i < len; i++) {
                if (got[i] != want[idx[i]])
                    fprintf(stderr, "%s: batch check n=%d x8=%d point %d (pool %d) differs\n",
                            TC ? "bn254" : "bls12-381", len, x8, i, idx[i]);
                CU_ASSERT(got[i] == want[idx[i]]);
            }
        }
    ref_point2_clear(&q);
    ref_point2_clear(&small);
    mpz_clear(k);
    ref_point2_clear(&p);
    ref_point2_clear(&t);
    (void)c;
}

#undef T_CAT_
#undef T_CAT
#undef GP
#undef FPUB
#undef BPUB
#undef EL
#undef BE
#undef GA
#undef GJ
#undef GX
#undef GPAIR
#undef L
#undef XT
#undef XB
#undef X
#undef XBF

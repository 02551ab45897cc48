/* Part of the point template (point_impl.h, which includes it): scalar multiplication (wNAF),
 * the GLV endomorphism and, for POINT, the subgroup check. Its own macros are #undef'd at its
 * end. */

/* ---- scalar multiplication ----------------------------------------------------------------- */

#define POINT_WNAF_W     5
#define POINT_WNAF_TABLE (1 << (POINT_WNAF_W - 2)) /* odd multiples 1, 3, ..., 15 */

/* Width-w NAF of a 256-bit k: digits odd in (−2^(w−1), 2^(w−1)) or 0, no two non-zero digits
 * within w positions. Returns the number of digits (<= 257). */
static int GINT(wnaf)(int8_t digits[258], const uint64_t k[4])
{
    uint64_t x[5] = {k[0], k[1], k[2], k[3], 0};
    int len = 0;
    while (x[0] | x[1] | x[2] | x[3] | x[4]) {
        int d = 0;
        if (x[0] & 1) {
            d = (int)(x[0] & ((1u << POINT_WNAF_W) - 1));
            if (d >= 1 << (POINT_WNAF_W - 1)) d -= 1 << POINT_WNAF_W;
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

/* ta[i] = (2i + 1)·a in affine form, i < POINT_WNAF_TABLE (a not infinity): the table is built in
 * Jacobian coordinates and normalised with one shared inversion, so the main loop can use
 * mixed additions (8M + 3S instead of 12M + 4S). */
static void GINT(odd_multiples)(GA ta[POINT_WNAF_TABLE], const GJ *a)
{
    GJ tj[POINT_WNAF_TABLE], twice;
    FE scratch[2 * POINT_WNAF_TABLE];
    tj[0] = *a;
    GPUB(jacobian_double)(&twice, a);
    for (int i = 1; i < POINT_WNAF_TABLE; i++) GPUB(jacobian_add)(&tj[i], &tj[i - 1], &twice);
    GPUB(jacobian_batch_to_affine_var)(ta, tj, POINT_WNAF_TABLE, scratch);
}

/* acc += d·T for a wNAF digit d (odd, |d| < 2^(w−1), or 0) */
static inline void GINT(add_digit)(GJ *acc, const GA table[POINT_WNAF_TABLE], int d)
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
    GA ta[POINT_WNAF_TABLE];
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
    GINT(mul_beta)(&r->x, &a->x, POINT_BETA); /* infinity (0, 0) stays (0, 0) */
    r->y = a->y;
}

void GPUB(glv_lambda)(uint64_t out[4])
{
    memcpy(out, POINT_LAMBDA, 4 * sizeof(uint64_t));
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
    while (!fe_less_var(kr, POINT_ORDER, 4)) {
        unsigned char borrow = 0;
        for (int i = 0; i < 4; i++) borrow = fe_subb(borrow, kr[i], POINT_ORDER[i], &kr[i]);
    }
    /* Babai rounding against the reduced basis v1 = (a1, b1), v2 = (a2, b2), det = r:
     * c1 = round(k·b2/r), c2 = round(−k·b1/r) (g1, g2 = those ratios times 2^384), then
     * k1 = k − c1·a1 − c2·a2, k2 = −c1·b1 − c2·b2, computed mod 2^192: the true values are
     * small, so the wrapped ones are exact. */
    uint64_t c1[3], c2[3], t[3], u[3], k1w[3], k2w[3];
    const uint64_t k3[3] = {kr[0], kr[1], kr[2]};
    GINT(round_mul_shift384)(c1, kr, POINT_GLV_G1);
    GINT(round_mul_shift384)(c2, kr, POINT_GLV_G2);
    GINT(mul192)(t, c1, POINT_GLV_A1);
    GINT(mul192)(u, c2, POINT_GLV_A2);
    GINT(sub192)(k1w, k3, t);
    GINT(sub192)(k1w, k1w, u);
    GINT(mul192)(t, c1, POINT_GLV_B1);
    GINT(mul192)(u, c2, POINT_GLV_B2);
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
    GA t1[POINT_WNAF_TABLE], t2[POINT_WNAF_TABLE];
    GINT(odd_multiples)(t1, a);
    for (int i = 0; i < POINT_WNAF_TABLE; i++) {
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

#if !POINT_EXT
bool GPUB(affine_in_g1_var)(const GA *a)
{
    if (GINT(affine_inf)(a)) return true;
#if POINT_COFACTOR_ONE
    return true; /* the curve's group has prime order: every point is in G1 */
#else
    /* Scott's criterion (ePrint 2021/1130, section 4): on this curve a point is in G1 iff
     * φ'(P) = −x²·P, with φ'(x, y) = (β'x, y) the endomorphism of eigenvalue −x² on G1 and
     * x the curve seed. x²·P by two double-and-add passes over |x| (64 bits, 6 of them set),
     * then φ'(P) = (X/Z², −Y/Z³) compared without an inversion. */
    GJ q, xp;
    const int top = 62 - __builtin_clzll(POINT_SEED_ABS);
    GPUB(jacobian_from_affine)(&q, a); /* |x|·P, mixed additions of P */
    for (int bit = top; bit >= 0; bit--) {
        GPUB(jacobian_double)(&q, &q);
        if ((POINT_SEED_ABS >> bit) & 1) GPUB(jacobian_add_affine)(&q, &q, a);
    }
    xp = q; /* x²·P = |x|·(|x|·P) */
    for (int bit = top; bit >= 0; bit--) {
        GPUB(jacobian_double)(&q, &q);
        if ((POINT_SEED_ABS >> bit) & 1) GPUB(jacobian_add)(&q, &q, &xp);
    }
    if (F(is_zero)(&q.z)) return false; /* φ'(P) ≠ O for P ≠ O */
    FE bx, z2, t;
    GINT(mul_beta)(&bx, &a->x, POINT_BETA_SUBGROUP);
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

#undef POINT_WNAF_W
#undef POINT_WNAF_TABLE

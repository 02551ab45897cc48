/* Template of the public field functions (include/mulred/field.h), included once per field by
 * field.c with:
 *   FIELD      the name (fp381, fr381, fp254, fr254)
 *   FIELD_N    limbs; FIELD_P, FIELD_N0, FIELD_ONE, FIELD_R2, FIELD_R3 (field_internal.h)
 *   FIELD_K    limbs of the signed-62 form used by the inversion (62·K > 64·N + 1)
 *   FIELD_SQRT 1 for the base fields (p ≡ 3 mod 4): sqrt, is_square, is_odd
 * The generic helpers (fe_*, s62_*, divsteps62_var) come from field.c. */

#define FIELD_CAT_(a, b) a##b
#define FIELD_CAT(a, b)  FIELD_CAT_(a, b)
#define FT               FIELD_CAT(mulred_, FIELD) /* the type */
#define FPUB(name)       FIELD_CAT(FT, _##name)    /* mulred_F_name */
#define FIN(name)        FIELD_CAT(FIELD, _##name) /* F_name, field_internal.h */
#define FNB              (8 * FIELD_N)

void FPUB(set_zero)(FT *r)
{
    memset(r, 0, sizeof *r);
}

void FPUB(set_one)(FT *r)
{
    FIN(set_one)(r);
}

/* integer limbs -> Montgomery form, in < p */
static inline void FIELD_CAT(FIELD, _from_int)(FT *r, const uint64_t in[FIELD_N])
{
    FT t, r2;
    memcpy(t.l, in, sizeof t.l);
    memcpy(r2.l, FIELD_R2, sizeof r2.l);
    FIN(mul)(r, &t, &r2); /* in·R²·R^(−1) */
}

void FPUB(set_u64)(FT *r, uint64_t v)
{
    uint64_t in[FIELD_N] = {v}; /* every modulus here exceeds 2^64 */
    FIELD_CAT(FIELD, _from_int)(r, in);
}

bool FPUB(is_zero)(const FT *a)
{
    return FIN(is_zero)(a);
}

bool FPUB(is_one)(const FT *a)
{
    return FIN(is_one)(a);
}

bool FPUB(equal)(const FT *a, const FT *b)
{
    return FIN(equal)(a, b);
}

void FPUB(add)(FT *r, const FT *a, const FT *b)
{
    FIN(add)(r, a, b);
}

void FPUB(sub)(FT *r, const FT *a, const FT *b)
{
    FIN(sub)(r, a, b);
}

void FPUB(neg)(FT *r, const FT *a)
{
    FIN(neg)(r, a);
}

void FPUB(mul)(FT *r, const FT *a, const FT *b)
{
    FIN(mul)(r, a, b);
}

void FPUB(sqr)(FT *r, const FT *a)
{
    FIN(sqr)(r, a);
}

void FPUB(pow)(FT *r, const FT *a, const uint64_t e[FIELD_N])
{
    /* Fixed 4-bit windows from the top: 4 squarings and one multiplication by a table entry
     * selected with masks (every entry read) per window. */
    FT table[16], acc, sel;
    FIN(set_one)(&table[0]);
    table[1] = *a;
    for (int i = 2; i < 16; i++) FIN(mul)(&table[i], &table[i - 1], a);
    FIN(set_one)(&acc);
    for (int w = 16 * FIELD_N - 1; w >= 0; w--) {
        if (w != 16 * FIELD_N - 1)
            for (int s = 0; s < 4; s++) FIN(sqr)(&acc, &acc);
        const uint64_t digit = (e[w / 16] >> (4 * (w % 16))) & 15;
        memset(&sel, 0, sizeof sel);
        for (uint64_t j = 0; j < 16; j++) {
            const uint64_t mask = 0 - (uint64_t)(j == digit);
            for (int k = 0; k < FIELD_N; k++) sel.l[k] |= table[j].l[k] & mask;
        }
        FIN(mul)(&acc, &acc, &sel);
    }
    *r = acc;
}

/* r = a^e for a PUBLIC exponent e (here: p − 2, (p + 1)/4, (p − 1)/2): sliding windows of up
 * to 5 bits over the odd powers a, a³, ..., a^31. The sequence of operations depends on e
 * only, so the time is constant in a. About bits(e) squarings and bits(e)/6 + 16
 * multiplications, against bits(e)/4 + 14 and a masked 16-entry scan per window in pow. */
static void FIELD_CAT(FIELD, _pow_pubexp)(FT *r, const FT *a, const uint64_t e[FIELD_N])
{
    FT odd[16], a2, acc;
    odd[0] = *a;
    FIN(sqr)(&a2, a);
    for (int i = 1; i < 16; i++) FIN(mul)(&odd[i], &odd[i - 1], &a2);
    int i = 64 * FIELD_N - 1;
    while (i >= 0 && !((e[i / 64] >> (i % 64)) & 1)) i--;
    if (i < 0) {
        FIN(set_one)(r);
        return;
    }
    bool first = true;
    while (i >= 0) {
        if (!((e[i / 64] >> (i % 64)) & 1)) {
            FIN(sqr)(&acc, &acc);
            i--;
            continue;
        }
        /* the window [j, i]: at most 5 bits, ending on a set bit */
        int j = i - 4 < 0 ? 0 : i - 4;
        while (!((e[j / 64] >> (j % 64)) & 1)) j++;
        unsigned v = 0;
        for (int b = i; b >= j; b--) v = v << 1 | (unsigned)((e[b / 64] >> (b % 64)) & 1);
        if (first) {
            acc = odd[v >> 1];
            first = false;
        } else {
            for (int b = i; b >= j; b--) FIN(sqr)(&acc, &acc);
            FIN(mul)(&acc, &acc, &odd[v >> 1]);
        }
        i = j - 1;
    }
    *r = acc;
}

void FPUB(inv)(FT *r, const FT *a)
{
    uint64_t e[FIELD_N];
    fe_sub_small(e, FIELD_P, 2, FIELD_N); /* p − 2 */
    FIELD_CAT(FIELD, _pow_pubexp)(r, a, e);
}

void FPUB(inv_var)(FT *r, const FT *a)
{
    /* The divsteps invert the Montgomery residue A = a·R as an integer: A^(−1) = a^(−1)·R^(−1);
     * one Montgomery multiplication by R³ gives a^(−1)·R. */
    uint64_t x[FIELD_N];
    FT t, r3;
    modinv_var(x, a->l, FIELD_P, FIELD_N, FIELD_K);
    memcpy(t.l, x, sizeof t.l);
    memcpy(r3.l, FIELD_R3, sizeof r3.l);
    FIN(mul)(r, &t, &r3);
}

size_t FPUB(batch_inv_scratch_size)(size_t n)
{
    return n * sizeof(FT);
}

void FPUB(batch_inv_var)(FT *r, const FT *a, size_t n, void *scratch)
{
    FT *prefix = scratch, acc, inv, t;
    if (n == 0) return;
    FIN(set_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        if (!FIN(is_zero)(&a[i])) FIN(mul)(&acc, &acc, &a[i]);
        prefix[i] = acc; /* product of the non-zero a[0..i] */
    }
    FPUB(inv_var)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FIN(is_zero)(&a[i])) {
            FPUB(set_zero)(&r[i]);
            continue;
        }
        if (i > 0)
            FIN(mul)(&t, &inv, &prefix[i - 1]);
        else
            t = inv;
        FIN(mul)(&inv, &inv, &a[i]); /* read a[i] before r[i] (= a[i] in place) is written */
        r[i] = t;
    }
}

mulred_status FPUB(from_limbs)(FT *r, const uint64_t in[FIELD_N])
{
    if (!fe_less_var(in, FIELD_P, FIELD_N)) {
        FPUB(set_zero)(r);
        return MULRED_EINPUT;
    }
    FIELD_CAT(FIELD, _from_int)(r, in);
    return MULRED_OK;
}

void FPUB(to_limbs)(uint64_t out[FIELD_N], const FT *a)
{
    FT one_int = {{1}};
    FT t;
    FIN(mul)(&t, a, &one_int); /* a·R·1·R^(−1) */
    memcpy(out, t.l, sizeof t.l);
}

mulred_status FPUB(from_bytes)(FT *r, const uint8_t in[FNB])
{
    uint64_t x[FIELD_N];
    for (int i = 0; i < FIELD_N; i++) {
        uint64_t w = 0;
        for (int b = 0; b < 8; b++) w = w << 8 | in[FNB - 8 * (i + 1) + b];
        x[i] = w;
    }
    return FPUB(from_limbs)(r, x);
}

void FPUB(to_bytes)(uint8_t out[FNB], const FT *a)
{
    uint64_t x[FIELD_N];
    FPUB(to_limbs)(x, a);
    for (int i = 0; i < FIELD_N; i++)
        for (int b = 0; b < 8; b++) out[FNB - 8 * (i + 1) + b] = (uint8_t)(x[i] >> (56 - 8 * b));
}

#if FIELD_SQRT
bool FIELD_CAT(FT, _sqrt)(FT *r, const FT *a)
{
    /* p ≡ 3 mod 4: a^((p+1)/4) squares to a·a^((p−1)/2) = ±a. */
    uint64_t e[FIELD_N];
    FT s, check;
    fe_add_small_shift2(e, FIELD_P, FIELD_N); /* (p + 1) / 4 */
    FIELD_CAT(FIELD, _pow_pubexp)(&s, a, e);
    FIN(sqr)(&check, &s);
    *r = s;
    return FIN(equal)(&check, a);
}

bool FIELD_CAT(FT, _is_square)(const FT *a)
{
    uint64_t e[FIELD_N];
    FT s;
    fe_sub_small(e, FIELD_P, 1, FIELD_N);
    fe_shr1(e, FIELD_N); /* (p − 1) / 2 */
    FIELD_CAT(FIELD, _pow_pubexp)(&s, a, e);
    return FIN(is_zero)(&s) || FIN(is_one)(&s);
}

bool FIELD_CAT(FT, _is_odd)(const FT *a)
{
    uint64_t x[FIELD_N];
    FPUB(to_limbs)(x, a);
    return x[0] & 1;
}
#endif

#undef FIELD_CAT_
#undef FIELD_CAT
#undef FT
#undef FPUB
#undef FIN
#undef FNB

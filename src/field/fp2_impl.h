/* Template of the public Fp2 functions (include/mulred/field.h), included once per base field
 * by field.c with:
 *   FP2     the extension's name (fp2_381, fp2_254): the inline ops of field_internal.h
 *   FP2_F   its base field (fp381, fp254)
 *   FP2_N   limbs of a base-field element */

#define FP2_CAT_(a, b) a##b
#define FP2_CAT(a, b)  FP2_CAT_(a, b)
#define ET             FP2_CAT(mulred_, FP2)                     /* the type */
#define BT             FP2_CAT(mulred_, FP2_F)                   /* the base type */
#define EPUB(name)     FP2_CAT(ET, _##name)                      /* mulred_FP2_name */
#define EIN(name)      FP2_CAT(FP2, _##name)                     /* inline Fp2 op */
#define BIN(name)      FP2_CAT(FP2_F, _##name)                   /* inline base op */
#define BPUB(name)     FP2_CAT(FP2_CAT(mulred_, FP2_F), _##name) /* public base function */

void EPUB(set_zero)(ET *r)
{
    memset(r, 0, sizeof *r);
}

void EPUB(set_one)(ET *r)
{
    EIN(set_one)(r);
}

bool EPUB(is_zero)(const ET *a)
{
    return EIN(is_zero)(a);
}

bool EPUB(equal)(const ET *a, const ET *b)
{
    return EIN(equal)(a, b);
}

void EPUB(add)(ET *r, const ET *a, const ET *b)
{
    EIN(add)(r, a, b);
}

void EPUB(sub)(ET *r, const ET *a, const ET *b)
{
    EIN(sub)(r, a, b);
}

void EPUB(neg)(ET *r, const ET *a)
{
    EIN(neg)(r, a);
}

void EPUB(mul)(ET *r, const ET *a, const ET *b)
{
    EIN(mul)(r, a, b);
}

void EPUB(sqr)(ET *r, const ET *a)
{
    EIN(sqr)(r, a);
}

void EPUB(conj)(ET *r, const ET *a)
{
    EIN(conj)(r, a);
}

/* 1/(c0 + c1·u) = (c0 − c1·u)/(c0² + c1²); base_inv is the base field's inv or inv_var. */
static inline void FP2_CAT(FP2, _inv_with)(ET *r, const ET *a, void (*base_inv)(BT *, const BT *))
{
    BT n, t;
    BIN(sqr)(&n, &a->c0);
    BIN(sqr)(&t, &a->c1);
    BIN(add)(&n, &n, &t);
    base_inv(&n, &n); /* 0 stays 0 */
    BIN(mul)(&r->c0, &a->c0, &n);
    BIN(mul)(&t, &a->c1, &n);
    BIN(neg)(&r->c1, &t);
}

void EPUB(inv)(ET *r, const ET *a)
{
    FP2_CAT(FP2, _inv_with)(r, a, BPUB(inv));
}

void EPUB(inv_var)(ET *r, const ET *a)
{
    FP2_CAT(FP2, _inv_with)(r, a, BPUB(inv_var));
}

size_t EPUB(batch_inv_scratch_size)(size_t n)
{
    return n * sizeof(ET);
}

void EPUB(batch_inv_var)(ET *r, const ET *a, size_t n, void *scratch)
{
    ET *prefix = scratch, acc, inv, t;
    if (n == 0) return;
    EIN(set_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        if (!EIN(is_zero)(&a[i])) EIN(mul)(&acc, &acc, &a[i]);
        prefix[i] = acc; /* product of the non-zero a[0..i] */
    }
    EPUB(inv_var)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (EIN(is_zero)(&a[i])) {
            EPUB(set_zero)(&r[i]);
            continue;
        }
        if (i > 0)
            EIN(mul)(&t, &inv, &prefix[i - 1]);
        else
            t = inv;
        EIN(mul)(&inv, &inv, &a[i]); /* read a[i] before r[i] (= a[i] in place) is written */
        r[i] = t;
    }
}

mulred_status EPUB(from_bytes)(ET *r, const uint8_t in[2 * 8 * FP2_N])
{
    if (BPUB(from_bytes)(&r->c0, in) || BPUB(from_bytes)(&r->c1, in + 8 * FP2_N)) {
        EPUB(set_zero)(r);
        return MULRED_EINPUT;
    }
    return MULRED_OK;
}

void EPUB(to_bytes)(uint8_t out[2 * 8 * FP2_N], const ET *a)
{
    BPUB(to_bytes)(out, &a->c0);
    BPUB(to_bytes)(out + 8 * FP2_N, &a->c1);
}

mulred_status EPUB(from_limbs)(ET *r, const uint64_t in[2 * FP2_N])
{
    if (BPUB(from_limbs)(&r->c0, in) || BPUB(from_limbs)(&r->c1, in + FP2_N)) {
        EPUB(set_zero)(r);
        return MULRED_EINPUT;
    }
    return MULRED_OK;
}

void EPUB(to_limbs)(uint64_t out[2 * FP2_N], const ET *a)
{
    BPUB(to_limbs)(out, &a->c0);
    BPUB(to_limbs)(out + FP2_N, &a->c1);
}

bool EPUB(sqrt_var)(ET *r, const ET *a)
{
    ET cand, check;
    if (BIN(is_zero)(&a->c1)) {
        /* a in Fp: √c0 if c0 is a square in Fp, else √(−c0)·u ((x·u)² = −x²) */
        memset(&cand, 0, sizeof cand);
        if (!BPUB(sqrt)(&cand.c0, &a->c0)) {
            BT m;
            BIN(neg)(&m, &a->c0);
            memset(&cand.c0, 0, sizeof cand.c0);
            if (!BPUB(sqrt)(&cand.c1, &m)) goto none; /* unreachable: −1 is a non-square */
        }
    } else {
        /* (x0 + x1·u)² = a: x0² − x1² = c0, 2·x0·x1 = c1, so x0² = (c0 ± s)/2, s² = c0² + c1² */
        BT s, n, t, half, x0;
        BIN(sqr)(&n, &a->c0);
        BIN(sqr)(&t, &a->c1);
        BIN(add)(&n, &n, &t);
        if (!BPUB(sqrt)(&s, &n)) goto none; /* the norm of a square is a square */
        BPUB(set_u64)(&half, 2);
        BPUB(inv_var)(&half, &half);
        BIN(add)(&t, &a->c0, &s);
        BIN(mul)(&t, &t, &half);
        if (!BPUB(sqrt)(&x0, &t)) {
            BIN(sub)(&t, &a->c0, &s);
            BIN(mul)(&t, &t, &half);
            if (!BPUB(sqrt)(&x0, &t)) goto none;
        }
        /* x0 ≠ 0 here: x0 = 0 would make c1 = 0 */
        cand.c0 = x0;
        BIN(dbl)(&t, &x0);
        BPUB(inv_var)(&t, &t);
        BIN(mul)(&cand.c1, &a->c1, &t);
    }
    EIN(sqr)(&check, &cand);
    if (!EIN(equal)(&check, a)) goto none;
    *r = cand;
    return true;
none:
    EPUB(set_zero)(r);
    return false;
}

#undef FP2_CAT_
#undef FP2_CAT
#undef ET
#undef BT
#undef EPUB
#undef EIN
#undef BIN
#undef BPUB

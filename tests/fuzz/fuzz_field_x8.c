/* The 8-lane IFMA field kernels (src/field/field_x8.h) of both curves' Fp, differential against
 * the scalar kernels (mulred/field.h; the portable and MULX Montgomery multiplies of
 * src/field/field_kernels.h for mul and sqr). Returns at once on a CPU without AVX-512 IFMA.
 *
 * Input: a control byte (bit 0: BN254 instead of BLS12-381; bits 1-3: how many operations
 * follow), then the operations (one byte each: operation in the low nibble, operand choice in
 * the high nibble), then operand bytes. Lane j of the two batches a and b is loaded from
 * 8 or 6 (BLS12-381) or 4 (BN254) 64-bit words of the input (little-endian, zero-extended;
 * any value < 2^(64n) is accepted by load and is taken mod p) or, when the input runs out,
 * one of the edge values 0, 1, p − 1. Each operation updates a (and b for some) on both
 * paths: mul, sqr, add, sub, neg, inv, inv_var, select, batch_inv (a and b as a 2-element
 * chain), and a round trip through store and load. After every operation every lane of the
 * 8-lane value must keep the invariant (limbs < 2^52, value < 2p) and equal the scalar path
 * (is_zero_mask and store compared). */
#include "fuzz_common.h"

#include <gmp.h>

#include "field/field_kernels.h"
#include "field/field_x8.h"
#include "mulred/field.h"

#define MAXW 6

typedef struct {
    bool bn;
    int n;     /* 64-bit words: 6 or 4 */
    int limbs; /* 52-bit limbs: 8 or 5 */
    const mulred_fieldx8_consts *k;
    uint64_t n0; /* -p^-1 mod 2^64 */
} field;

/* Scalar path: one element in the scalar form (Montgomery, fully reduced). */
typedef struct {
    uint64_t w[MAXW];
} elem;

typedef union {
    mulred_fp381x8 a;
    mulred_fp254x8 b;
} batch;

static void s_mul(const field *f, elem *r, const elem *a, const elem *b, unsigned which)
{
    elem t;
    memset(&t, 0, sizeof t);
    if (f->bn) {
        if (which == 0)
            mulred_fp254_mul((mulred_fp254 *)t.w, (const mulred_fp254 *)a->w,
                             (const mulred_fp254 *)b->w);
        else if (which == 1 || !mulred_field_have_mulx())
            mulred_mont_mul4_portable(t.w, a->w, b->w, f->k->p64, f->n0);
        else
            mulred_mont_mul4_mulx(t.w, a->w, b->w, f->k->p64, f->n0);
    } else {
        if (which == 0)
            mulred_fp381_mul((mulred_fp381 *)t.w, (const mulred_fp381 *)a->w,
                             (const mulred_fp381 *)b->w);
        else if (which == 1 || !mulred_field_have_mulx())
            mulred_mont_mul6_portable(t.w, a->w, b->w, f->k->p64, f->n0);
        else
            mulred_mont_mul6_mulx(t.w, a->w, b->w, f->k->p64, f->n0);
    }
    *r = t;
}

static void s_sqr(const field *f, elem *r, const elem *a, unsigned which)
{
    elem t;
    memset(&t, 0, sizeof t);
    if (f->bn) {
        if (which == 0)
            mulred_fp254_sqr((mulred_fp254 *)t.w, (const mulred_fp254 *)a->w);
        else if (which == 1 || !mulred_field_have_mulx())
            mulred_mont_sqr4_portable(t.w, a->w, f->k->p64, f->n0);
        else
            mulred_mont_sqr4_mulx(t.w, a->w, f->k->p64, f->n0);
    } else {
        if (which == 0)
            mulred_fp381_sqr((mulred_fp381 *)t.w, (const mulred_fp381 *)a->w);
        else if (which == 1 || !mulred_field_have_mulx())
            mulred_mont_sqr6_portable(t.w, a->w, f->k->p64, f->n0);
        else
            mulred_mont_sqr6_mulx(t.w, a->w, f->k->p64, f->n0);
    }
    *r = t;
}

#define S_OP(name)                                                                                 \
    static void s_##name(const field *f, elem *r, const elem *a, const elem *b)                    \
    {                                                                                              \
        elem t;                                                                                    \
        memset(&t, 0, sizeof t);                                                                   \
        if (f->bn)                                                                                 \
            mulred_fp254_##name((mulred_fp254 *)t.w, (const mulred_fp254 *)a->w,                   \
                                (const mulred_fp254 *)b->w);                                       \
        else                                                                                       \
            mulred_fp381_##name((mulred_fp381 *)t.w, (const mulred_fp381 *)a->w,                   \
                                (const mulred_fp381 *)b->w);                                       \
        *r = t;                                                                                    \
    }
S_OP(add)
S_OP(sub)

static void s_neg(const field *f, elem *r, const elem *a)
{
    elem t;
    memset(&t, 0, sizeof t);
    if (f->bn)
        mulred_fp254_neg((mulred_fp254 *)t.w, (const mulred_fp254 *)a->w);
    else
        mulred_fp381_neg((mulred_fp381 *)t.w, (const mulred_fp381 *)a->w);
    *r = t;
}

static void s_inv(const field *f, elem *r, const elem *a)
{
    elem t;
    memset(&t, 0, sizeof t);
    if (f->bn)
        mulred_fp254_inv((mulred_fp254 *)t.w, (const mulred_fp254 *)a->w);
    else
        mulred_fp381_inv((mulred_fp381 *)t.w, (const mulred_fp381 *)a->w);
    *r = t;
}

/* The scalar form of a 64n-bit value, reduced mod p with mpz (load's contract). */
static void reduce(const field *f, elem *e)
{
    mpz_t v, p;
    mpz_inits(v, p, NULL);
    mpz_import(v, (size_t)f->n, -1, 8, 0, 0, e->w);
    mpz_import(p, (size_t)f->n, -1, 8, 0, 0, f->k->p64);
    mpz_mod(v, v, p);
    memset(e->w, 0, sizeof e->w);
    mpz_export(e->w, NULL, -1, 8, 0, 0, v);
    mpz_clears(v, p, NULL);
}

/* Every lane: limbs < 2^52 and value < 2p. */
static void check_invariant(const field *f, const batch *x, const char *after)
{
    const uint64_t(*l)[8] = f->bn ? (const uint64_t(*)[8])x->b.l : (const uint64_t(*)[8])x->a.l;
    mpz_t w, p2, limb;
    mpz_inits(w, p2, limb, NULL);
    mpz_import(p2, (size_t)f->n, -1, 8, 0, 0, f->k->p64);
    mpz_mul_2exp(p2, p2, 1);
    for (int j = 0; j < 8; j++) {
        mpz_set_ui(w, 0);
        for (int i = f->limbs - 1; i >= 0; i--) {
            FUZZ_CHECK(l[i][j] >> 52 == 0, "%s: lane %d limb %d = %#llx is not below 2^52", after,
                       j, i, (unsigned long long)l[i][j]);
            mpz_mul_2exp(w, w, 52);
            mpz_set_ui(limb, l[i][j]);
            mpz_add(w, w, limb);
        }
        FUZZ_CHECK(mpz_cmp(w, p2) < 0, "%s: lane %d not below 2p", after, j);
    }
    mpz_clears(w, p2, limb, NULL);
}

static void x_store(const field *f, elem out[8], const batch *x)
{
    uint64_t *dst[8];
    memset(out, 0, 8 * sizeof *out);
    for (int j = 0; j < 8; j++) dst[j] = out[j].w;
    if (f->bn)
        mulred_fp254x8_store(dst, &x->b);
    else
        mulred_fp381x8_store(dst, &x->a);
}

static void x_load(const field *f, batch *x, const elem in[8])
{
    const uint64_t *src[8];
    for (int j = 0; j < 8; j++) src[j] = in[j].w;
    if (f->bn)
        mulred_fp254x8_load(&x->b, src);
    else
        mulred_fp381x8_load(&x->a, src);
}

static void compare(const field *f, const batch *x, const elem s[8], const char *after)
{
    check_invariant(f, x, after);
    elem got[8];
    x_store(f, got, x);
    unsigned zero = f->bn ? mulred_fp254x8_is_zero_mask(&x->b) : mulred_fp381x8_is_zero_mask(&x->a);
    for (int j = 0; j < 8; j++) {
        bool s_zero = true;
        for (int i = 0; i < f->n; i++) s_zero &= s[j].w[i] == 0;
        FUZZ_CHECK(memcmp(got[j].w, s[j].w, 8 * (size_t)f->n) == 0,
                   "%s (%s): lane %d differs from the scalar kernels", after,
                   f->bn ? "bn254" : "bls12-381", j);
        FUZZ_CHECK(((zero >> j) & 1) == s_zero, "%s: is_zero_mask lane %d", after, j);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!mulred_fieldx8_have_ifma() || size < 1) return 0;
    field f = {.bn = data[0] & 1};
    f.n = f.bn ? 4 : 6;
    f.limbs = f.bn ? 5 : 8;
    f.k = f.bn ? mulred_fp254x8_consts : mulred_fp381x8_consts;
    uint64_t inv = f.k->p64[0];
    for (int i = 0; i < 6; i++) inv *= 2 - f.k->p64[0] * inv;
    f.n0 = -inv;
    const size_t nops = (data[0] >> 1) & 7;
    size_t pos = 1;
    const uint8_t *ops = data + pos;
    const size_t have_ops = size - pos < nops ? size - pos : nops;
    pos += have_ops;

    /* operands: 16 lanes (a then b) */
    elem s[2][8];
    for (int k = 0; k < 16; k++) {
        elem *e = &s[k / 8][k % 8];
        memset(e, 0, sizeof *e);
        const size_t want = 8 * (size_t)f.n;
        if (pos + want <= size) {
            memcpy(e->w, data + pos, want);
            pos += want;
        } else {
            const int edge = k % 3;
            if (edge == 1) e->w[0] = 1;
            if (edge == 2) memcpy(e->w, f.k->p64, 8 * (size_t)f.n), e->w[0] -= 1;
        }
    }
    batch x[2];
    memset(x, 0, sizeof x);
    for (int v = 0; v < 2; v++) {
        x_load(&f, &x[v], s[v]);
        for (int j = 0; j < 8; j++) reduce(&f, &s[v][j]);
        compare(&f, &x[v], s[v], "load");
    }
    static const char *names[] = {"mul",     "sqr",    "add",       "sub",        "neg",  "inv",
                                  "inv_var", "select", "batch_inv", "round trip", "mul b"};
    for (size_t o = 0; o < have_ops; o++) {
        const unsigned op = ops[o] & 15, arg = ops[o] >> 4;
        const unsigned which = arg % 3;
        elem t[8];
        switch (op % 11) {
        case 0: /* a = a * b (aliasing r == a) */
            for (int j = 0; j < 8; j++) s_mul(&f, &s[0][j], &s[0][j], &s[1][j], which);
            if (f.bn)
                mulred_fp254x8_mul(&x[0].b, &x[0].b, &x[1].b);
            else
                mulred_fp381x8_mul(&x[0].a, &x[0].a, &x[1].a);
            break;
        case 1: /* a = a^2 */
            for (int j = 0; j < 8; j++) s_sqr(&f, &s[0][j], &s[0][j], which);
            if (f.bn)
                mulred_fp254x8_sqr(&x[0].b, &x[0].b);
            else
                mulred_fp381x8_sqr(&x[0].a, &x[0].a);
            break;
        case 2: /* a = a + b, or a + a */
            for (int j = 0; j < 8; j++) s_add(&f, &s[0][j], &s[0][j], &s[arg & 1][j]);
            if (f.bn)
                mulred_fp254x8_add(&x[0].b, &x[0].b, &x[arg & 1].b);
            else
                mulred_fp381x8_add(&x[0].a, &x[0].a, &x[arg & 1].a);
            break;
        case 3: /* a = a - b, or a - a */
            for (int j = 0; j < 8; j++) s_sub(&f, &s[0][j], &s[0][j], &s[arg & 1][j]);
            if (f.bn)
                mulred_fp254x8_sub(&x[0].b, &x[0].b, &x[arg & 1].b);
            else
                mulred_fp381x8_sub(&x[0].a, &x[0].a, &x[arg & 1].a);
            break;
        case 4: /* b = -a */
            for (int j = 0; j < 8; j++) s_neg(&f, &s[1][j], &s[0][j]);
            if (f.bn)
                mulred_fp254x8_neg(&x[1].b, &x[0].b);
            else
                mulred_fp381x8_neg(&x[1].a, &x[0].a);
            break;
        case 5: /* a = a^-1 (0 -> 0) */
        case 6:
            for (int j = 0; j < 8; j++) s_inv(&f, &s[0][j], &s[0][j]);
            if (f.bn)
                (op % 11 == 5 ? mulred_fp254x8_inv : mulred_fp254x8_inv_var)(&x[0].b, &x[0].b);
            else
                (op % 11 == 5 ? mulred_fp381x8_inv : mulred_fp381x8_inv_var)(&x[0].a, &x[0].a);
            break;
        case 7: /* a = select(a, b, mask) */
            for (int j = 0; j < 8; j++)
                if ((arg * 0x9u >> j) & 1) s[0][j] = s[1][j];
            if (f.bn)
                mulred_fp254x8_select(&x[0].b, &x[0].b, &x[1].b, (arg * 0x9u) & 0xff);
            else
                mulred_fp381x8_select(&x[0].a, &x[0].a, &x[1].a, (arg * 0x9u) & 0xff);
            break;
        case 8: { /* (a, b) = (a^-1, b^-1) by one batch inversion */
            for (int v = 0; v < 2; v++)
                for (int j = 0; j < 8; j++) s_inv(&f, &s[v][j], &s[v][j]);
            batch in[2] = {x[0], x[1]}, outb[2];
            uint8_t scratch[4096];
            if (f.bn) {
                mulred_fp254x8 ia[2] = {in[0].b, in[1].b}, ra[2];
                FUZZ_CHECK(mulred_fp254x8_batch_inv_scratch_size(2) <= sizeof scratch, "scratch");
                (arg & 1 ? mulred_fp254x8_batch_inv_var : mulred_fp254x8_batch_inv)(ra, ia, 2,
                                                                                    scratch);
                outb[0].b = ra[0], outb[1].b = ra[1];
            } else {
                mulred_fp381x8 ia[2] = {in[0].a, in[1].a}, ra[2];
                FUZZ_CHECK(mulred_fp381x8_batch_inv_scratch_size(2) <= sizeof scratch, "scratch");
                (arg & 1 ? mulred_fp381x8_batch_inv_var : mulred_fp381x8_batch_inv)(ra, ia, 2,
                                                                                    scratch);
                outb[0].a = ra[0], outb[1].a = ra[1];
            }
            x[0] = outb[0], x[1] = outb[1];
            break;
        }
        case 9: /* a through store and load */
            x_store(&f, t, &x[0]);
            x_load(&f, &x[0], t);
            break;
        case 10: /* b = a * b, r aliasing b */
            for (int j = 0; j < 8; j++) s_mul(&f, &s[1][j], &s[0][j], &s[1][j], which);
            if (f.bn)
                mulred_fp254x8_mul(&x[1].b, &x[0].b, &x[1].b);
            else
                mulred_fp381x8_mul(&x[1].a, &x[0].a, &x[1].a);
            break;
        }
        compare(&f, &x[0], s[0], names[op % 11]);
        compare(&f, &x[1], s[1], names[op % 11]);
    }
    return 0;
}

/* The mpz reference for Fp2 and G2 (g2_ref.h). */
#include "g2_ref.h"

#include <string.h>

#include "mulred/curve.h"
#include "mulred/field.h"

static ref_curve2 curves[2];
static int ready;

void ref_fp2_init(ref_fp2 *a)
{
    mpz_inits(a->c0, a->c1, NULL);
}

void ref_fp2_clear(ref_fp2 *a)
{
    mpz_clears(a->c0, a->c1, NULL);
}

void ref_fp2_set(ref_fp2 *r, const ref_fp2 *a)
{
    mpz_set(r->c0, a->c0);
    mpz_set(r->c1, a->c1);
}

int ref_fp2_equal(const ref_fp2 *a, const ref_fp2 *b)
{
    return mpz_cmp(a->c0, b->c0) == 0 && mpz_cmp(a->c1, b->c1) == 0;
}

int ref_fp2_is_zero(const ref_fp2 *a)
{
    return mpz_sgn(a->c0) == 0 && mpz_sgn(a->c1) == 0;
}

void ref_fp2_add(const mpz_t p, ref_fp2 *r, const ref_fp2 *a, const ref_fp2 *b)
{
    mpz_add(r->c0, a->c0, b->c0);
    mpz_mod(r->c0, r->c0, p);
    mpz_add(r->c1, a->c1, b->c1);
    mpz_mod(r->c1, r->c1, p);
}

void ref_fp2_sub(const mpz_t p, ref_fp2 *r, const ref_fp2 *a, const ref_fp2 *b)
{
    mpz_sub(r->c0, a->c0, b->c0);
    mpz_mod(r->c0, r->c0, p);
    mpz_sub(r->c1, a->c1, b->c1);
    mpz_mod(r->c1, r->c1, p);
}

void ref_fp2_neg(const mpz_t p, ref_fp2 *r, const ref_fp2 *a)
{
    mpz_neg(r->c0, a->c0);
    mpz_mod(r->c0, r->c0, p);
    mpz_neg(r->c1, a->c1);
    mpz_mod(r->c1, r->c1, p);
}

/* schoolbook: (a0 + a1u)(b0 + b1u) = a0b0 − a1b1 + (a0b1 + a1b0)u */
void ref_fp2_mul(const mpz_t p, ref_fp2 *r, const ref_fp2 *a, const ref_fp2 *b)
{
    mpz_t t0, t1;
    mpz_inits(t0, t1, NULL);
    mpz_mul(t0, a->c0, b->c0);
    mpz_submul(t0, a->c1, b->c1);
    mpz_mul(t1, a->c0, b->c1);
    mpz_addmul(t1, a->c1, b->c0);
    mpz_mod(r->c0, t0, p);
    mpz_mod(r->c1, t1, p);
    mpz_clears(t0, t1, NULL);
}

void ref_fp2_inv(const mpz_t p, ref_fp2 *r, const ref_fp2 *a)
{
    mpz_t n, t;
    mpz_inits(n, t, NULL);
    mpz_mul(n, a->c0, a->c0);
    mpz_addmul(n, a->c1, a->c1);
    mpz_mod(n, n, p);
    mpz_invert(n, n, p);
    mpz_mul(t, a->c0, n);
    mpz_mod(r->c0, t, p);
    mpz_mul(t, a->c1, n);
    mpz_neg(t, t);
    mpz_mod(r->c1, t, p);
    mpz_clears(n, t, NULL);
}

void ref_point2_init(ref_point2 *a)
{
    ref_fp2_init(&a->x);
    ref_fp2_init(&a->y);
    a->inf = 1;
}

void ref_point2_clear(ref_point2 *a)
{
    ref_fp2_clear(&a->x);
    ref_fp2_clear(&a->y);
}

void ref_point2_set(ref_point2 *r, const ref_point2 *a)
{
    ref_fp2_set(&r->x, &a->x);
    ref_fp2_set(&r->y, &a->y);
    r->inf = a->inf;
}

int ref_point2_equal(const ref_point2 *a, const ref_point2 *b)
{
    if (a->inf || b->inf) return a->inf && b->inf;
    return ref_fp2_equal(&a->x, &b->x) && ref_fp2_equal(&a->y, &b->y);
}

static void set_hex(ref_fp2 *a, const char *c0, const char *c1, int base)
{
    mpz_set_str(a->c0, c0, base);
    mpz_set_str(a->c1, c1, base);
}

static void setup(void)
{
    if (ready) return;
    ref_curve2 *c = &curves[0];
    c->name = "bls12-381";
    c->limbs = 6;
    c->pbytes = 48;
    mpz_init_set_str(c->p,
                     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153"
                     "ffffb9feffffffffaaab",
                     16);
    mpz_init_set_str(c->r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    ref_fp2_init(&c->b);
    set_hex(&c->b, "4", "4", 16); /* 4(1 + u) */
    ref_point2_init(&c->g);
    set_hex(&c->g.x,
            "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd4"
            "8056c8c121bdb8",
            "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5"
            "ac7d055d042b7e",
            16);
    set_hex(&c->g.y,
            "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e1"
            "93548608b82801",
            "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aa"
            "a9075ff05f79be",
            16);
    c->g.inf = 0;
    c = &curves[1];
    c->name = "bn254";
    c->limbs = 4;
    c->pbytes = 32;
    mpz_init_set_str(
        c->p, "21888242871839275222246405745257275088696311157297823662689037894645226208583", 10);
    mpz_init_set_str(
        c->r, "21888242871839275222246405745257275088548364400416034343698204186575808495617", 10);
    ref_fp2_init(&c->b); /* 3/(9 + u) */
    {
        ref_fp2 xi, three;
        ref_fp2_init(&xi);
        ref_fp2_init(&three);
        set_hex(&xi, "9", "1", 10);
        set_hex(&three, "3", "0", 10);
        ref_fp2_inv(c->p, &xi, &xi);
        ref_fp2_mul(c->p, &c->b, &three, &xi);
        ref_fp2_clear(&xi);
        ref_fp2_clear(&three);
    }
    ref_point2_init(&c->g); /* EIP-197: x = x_re + x_im·u (c0 = real) */
    set_hex(&c->g.x,
            "10857046999023057135944570762232829481370756359578518086990519993285655852781",
            "11559732032986387107991004021392285783925812861821192530917403151452391805634", 10);
    set_hex(&c->g.y, "8495653923123431417604973247489272438418190587263600148770280649306958101930",
            "4082367875863433681332203403145435568316851327593401208105741076214120093531", 10);
    c->g.inf = 0;
    ready = 1;
}

const ref_curve2 *ref2_curve(int c)
{
    setup();
    return &curves[c];
}

void ref2_add(const ref_curve2 *c, ref_point2 *r, const ref_point2 *a, const ref_point2 *b)
{
    if (a->inf || b->inf) {
        ref_point2_set(r, a->inf ? b : a);
        return;
    }
    ref_fp2 lam, t, x3;
    ref_fp2_init(&lam);
    ref_fp2_init(&t);
    ref_fp2_init(&x3);
    if (ref_fp2_equal(&a->x, &b->x)) {
        ref_fp2_add(c->p, &t, &a->y, &b->y);
        if (ref_fp2_is_zero(&t)) {
            r->inf = 1;
            goto out;
        }
        ref_fp2_mul(c->p, &lam, &a->x, &a->x);
        ref_fp2 three;
        ref_fp2_init(&three);
        mpz_set_ui(three.c0, 3);
        ref_fp2_mul(c->p, &lam, &lam, &three);
        ref_fp2_clear(&three);
        ref_fp2_add(c->p, &t, &a->y, &a->y);
    } else {
        ref_fp2_sub(c->p, &lam, &b->y, &a->y);
        ref_fp2_sub(c->p, &t, &b->x, &a->x);
    }
    ref_fp2_inv(c->p, &t, &t);
    ref_fp2_mul(c->p, &lam, &lam, &t);
    ref_fp2_mul(c->p, &x3, &lam, &lam);
    ref_fp2_sub(c->p, &x3, &x3, &a->x);
    ref_fp2_sub(c->p, &x3, &x3, &b->x);
    ref_fp2_sub(c->p, &t, &a->x, &x3);
    ref_fp2_mul(c->p, &t, &t, &lam);
    ref_fp2_sub(c->p, &r->y, &t, &a->y);
    ref_fp2_set(&r->x, &x3);
    r->inf = 0;
out:
    ref_fp2_clear(&lam);
    ref_fp2_clear(&t);
    ref_fp2_clear(&x3);
}

void ref2_neg(const ref_curve2 *c, ref_point2 *r, const ref_point2 *a)
{
    ref_point2_set(r, a);
    if (!a->inf) ref_fp2_neg(c->p, &r->y, &a->y);
}

void ref2_mul(const ref_curve2 *c, ref_point2 *r, const ref_point2 *a, const mpz_t k)
{
    ref_point2 acc, base;
    ref_point2_init(&acc);
    ref_point2_init(&base);
    ref_point2_set(&base, a);
    for (size_t i = 0, bits = mpz_sizeinbase(k, 2); mpz_sgn(k) && i < bits; i++) {
        if (mpz_tstbit(k, i)) ref2_add(c, &acc, &acc, &base);
        ref2_add(c, &base, &base, &base);
    }
    ref_point2_set(r, &acc);
    ref_point2_clear(&acc);
    ref_point2_clear(&base);
}

int ref2_on_curve(const ref_curve2 *c, const ref_point2 *a)
{
    if (a->inf) return 1;
    ref_fp2 l, rr;
    ref_fp2_init(&l);
    ref_fp2_init(&rr);
    ref_fp2_mul(c->p, &l, &a->y, &a->y);
    ref_fp2_mul(c->p, &rr, &a->x, &a->x);
    ref_fp2_mul(c->p, &rr, &rr, &a->x);
    ref_fp2_add(c->p, &rr, &rr, &c->b);
    const int ok = ref_fp2_equal(&l, &rr);
    ref_fp2_clear(&l);
    ref_fp2_clear(&rr);
    return ok;
}

void ref_fp2_from_lib(int c, ref_fp2 *r, const void *elem)
{
    uint64_t l[12];
    if (c == 0) {
        mulred_fp2_381_to_limbs(l, elem);
        mpz_import(r->c0, 6, -1, 8, 0, 0, l);
        mpz_import(r->c1, 6, -1, 8, 0, 0, l + 6);
    } else {
        mulred_fp2_254_to_limbs(l, elem);
        mpz_import(r->c0, 4, -1, 8, 0, 0, l);
        mpz_import(r->c1, 4, -1, 8, 0, 0, l + 4);
    }
}

void ref_fp2_to_lib(int c, void *elem, const ref_fp2 *a)
{
    uint64_t l[12];
    const int n = c == 0 ? 6 : 4;
    memset(l, 0, sizeof l);
    mpz_export(l, NULL, -1, 8, 0, 0, a->c0);
    mpz_export(l + n, NULL, -1, 8, 0, 0, a->c1);
    if (c == 0)
        mulred_fp2_381_from_limbs(elem, l);
    else
        mulred_fp2_254_from_limbs(elem, l);
}

void ref2_from_affine(int c, ref_point2 *r, const void *affine)
{
    if (c == 0) {
        const mulred_g2_381_affine *a = affine;
        if (mulred_g2_381_affine_is_infinity(a)) {
            r->inf = 1;
            return;
        }
        ref_fp2_from_lib(c, &r->x, &a->x);
        ref_fp2_from_lib(c, &r->y, &a->y);
    } else {
        const mulred_g2_254_affine *a = affine;
        if (mulred_g2_254_affine_is_infinity(a)) {
            r->inf = 1;
            return;
        }
        ref_fp2_from_lib(c, &r->x, &a->x);
        ref_fp2_from_lib(c, &r->y, &a->y);
    }
    r->inf = 0;
}

void ref2_to_affine(int c, void *affine, const ref_point2 *a)
{
    if (c == 0) {
        mulred_g2_381_affine *p = affine;
        if (a->inf) {
            mulred_g2_381_affine_set_infinity(p);
            return;
        }
        ref_fp2_to_lib(c, &p->x, &a->x);
        ref_fp2_to_lib(c, &p->y, &a->y);
    } else {
        mulred_g2_254_affine *p = affine;
        if (a->inf) {
            mulred_g2_254_affine_set_infinity(p);
            return;
        }
        ref_fp2_to_lib(c, &p->x, &a->x);
        ref_fp2_to_lib(c, &p->y, &a->y);
    }
}

void ref2_from_jacobian(int c, ref_point2 *r, const void *jacobian)
{
    if (c == 0) {
        mulred_g2_381_affine a;
        mulred_g2_381_jacobian_to_affine(&a, jacobian);
        ref2_from_affine(c, r, &a);
    } else {
        mulred_g2_254_affine a;
        mulred_g2_254_jacobian_to_affine(&a, jacobian);
        ref2_from_affine(c, r, &a);
    }
}

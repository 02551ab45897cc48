/* The mpz reference for G1 (curve_ref.h). Constants: the published parameters of BLS12-381
 * (the IETF pairing-friendly curves draft, ZCash's spec) and of BN254 (EIP-196). */
#include "curve_ref.h"

#include <string.h>

#include "mulred/curve.h"
#include "mulred/field.h"

static ref_curve curves[2];
static int ready;

static void setup(void)
{
    if (ready) return;
    ref_curve *c = &curves[0];
    c->name = "bls12-381";
    c->pbytes = 48;
    mpz_init_set_str(c->p,
                     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153"
                     "ffffb9feffffffffaaab",
                     16);
    mpz_init_set_str(c->r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    mpz_init_set_ui(c->b, 4);
    mpz_init_set_str(c->h, "396c8c005555e1568c00aaab0000aaab", 16);
    ref_point_init(&c->g);
    mpz_set_str(c->g.x,
                "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1a"
                "effb3af00adb22c6bb",
                16);
    mpz_set_str(c->g.y,
                "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888a"
                "e40caa232946c5e7e1",
                16);
    c->g.inf = 0;
    c = &curves[1];
    c->name = "bn254";
    c->pbytes = 32;
    mpz_init_set_str(
        c->p, "21888242871839275222246405745257275088696311157297823662689037894645226208583", 10);
    mpz_init_set_str(
        c->r, "21888242871839275222246405745257275088548364400416034343698204186575808495617", 10);
    mpz_init_set_ui(c->b, 3);
    mpz_init_set_ui(c->h, 1);
    ref_point_init(&c->g);
    mpz_set_ui(c->g.x, 1);
    mpz_set_ui(c->g.y, 2);
    c->g.inf = 0;
    ready = 1;
}

const ref_curve *ref_curve_get(int c)
{
    setup();
    return &curves[c];
}

void ref_point_init(ref_point *a)
{
    mpz_inits(a->x, a->y, NULL);
    a->inf = 1;
}

void ref_point_clear(ref_point *a)
{
    mpz_clears(a->x, a->y, NULL);
}

void ref_point_set(ref_point *r, const ref_point *a)
{
    mpz_set(r->x, a->x);
    mpz_set(r->y, a->y);
    r->inf = a->inf;
}

int ref_point_equal(const ref_point *a, const ref_point *b)
{
    if (a->inf || b->inf) return a->inf && b->inf;
    return mpz_cmp(a->x, b->x) == 0 && mpz_cmp(a->y, b->y) == 0;
}

void ref_add(const ref_curve *c, ref_point *r, const ref_point *a, const ref_point *b)
{
    if (a->inf || b->inf) {
        ref_point_set(r, a->inf ? b : a);
        return;
    }
    mpz_t lam, t, x3;
    mpz_inits(lam, t, x3, NULL);
    if (mpz_cmp(a->x, b->x) == 0) {
        mpz_add(t, a->y, b->y);
        if (mpz_divisible_p(t, c->p)) { /* a = −b (also a = b of order 2: none on these curves) */
            r->inf = 1;
            mpz_clears(lam, t, x3, NULL);
            return;
        }
        mpz_mul(lam, a->x, a->x);
        mpz_mul_ui(lam, lam, 3);
        mpz_mul_ui(t, a->y, 2);
    } else {
        mpz_sub(lam, b->y, a->y);
        mpz_sub(t, b->x, a->x);
    }
    mpz_mod(t, t, c->p);
    mpz_invert(t, t, c->p);
    mpz_mul(lam, lam, t);
    mpz_mod(lam, lam, c->p);
    mpz_mul(x3, lam, lam);
    mpz_sub(x3, x3, a->x);
    mpz_sub(x3, x3, b->x);
    mpz_mod(x3, x3, c->p);
    mpz_sub(t, a->x, x3);
    mpz_mul(t, t, lam);
    mpz_sub(t, t, a->y);
    mpz_mod(r->y, t, c->p);
    mpz_set(r->x, x3);
    r->inf = 0;
    mpz_clears(lam, t, x3, NULL);
}

void ref_neg(const ref_curve *c, ref_point *r, const ref_point *a)
{
    ref_point_set(r, a);
    if (!a->inf && mpz_sgn(a->y)) mpz_sub(r->y, c->p, a->y);
}

void ref_mul(const ref_curve *c, ref_point *r, const ref_point *a, const mpz_t k)
{
    ref_point acc, base;
    ref_point_init(&acc);
    ref_point_init(&base);
    ref_point_set(&base, a);
    for (size_t i = 0, bits = mpz_sizeinbase(k, 2); mpz_sgn(k) && i < bits; i++) {
        if (mpz_tstbit(k, i)) ref_add(c, &acc, &acc, &base);
        ref_add(c, &base, &base, &base);
    }
    ref_point_set(r, &acc);
    ref_point_clear(&acc);
    ref_point_clear(&base);
}

int ref_on_curve(const ref_curve *c, const ref_point *a)
{
    if (a->inf) return 1;
    mpz_t l, rr;
    mpz_inits(l, rr, NULL);
    mpz_mul(l, a->y, a->y);
    mpz_mod(l, l, c->p);
    mpz_powm_ui(rr, a->x, 3, c->p);
    mpz_add(rr, rr, c->b);
    mpz_mod(rr, rr, c->p);
    int ok = mpz_cmp(l, rr) == 0 && mpz_cmp(a->x, c->p) < 0 && mpz_cmp(a->y, c->p) < 0;
    mpz_clears(l, rr, NULL);
    return ok;
}

void ref_point_off_subgroup(const ref_curve *c, ref_point *r, unsigned long x0)
{
    mpz_t rhs, e, y, y2;
    mpz_inits(rhs, e, y, y2, NULL);
    mpz_add_ui(e, c->p, 1);
    mpz_fdiv_q_2exp(e, e, 2); /* (p + 1)/4: p ≡ 3 mod 4, so rhs^e is a root when one exists */
    for (unsigned long x = x0;; x++) {
        mpz_set_ui(r->x, x);
        mpz_powm_ui(rhs, r->x, 3, c->p);
        mpz_add(rhs, rhs, c->b);
        mpz_mod(rhs, rhs, c->p);
        mpz_powm(y, rhs, e, c->p);
        mpz_mul(y2, y, y);
        mpz_mod(y2, y2, c->p);
        if (mpz_cmp(y2, rhs) != 0) continue;
        mpz_set(r->y, y);
        r->inf = 0;
        ref_point t;
        ref_point_init(&t);
        ref_mul(c, &t, r, c->r);
        const int outside = !t.inf;
        ref_point_clear(&t);
        if (outside) break;
    }
    mpz_clears(rhs, e, y, y2, NULL);
}

void ref_mpz_from_u256(mpz_t z, const uint64_t l[4])
{
    mpz_import(z, 4, -1, 8, 0, 0, l);
}

void ref_mpz_to_u256(uint64_t l[4], const mpz_t z)
{
    memset(l, 0, 4 * sizeof *l);
    mpz_export(l, NULL, -1, 8, 0, 0, z);
}

void ref_mpz_to_be(uint8_t *out, size_t len, const mpz_t z)
{
    memset(out, 0, len);
    size_t count = 0;
    uint8_t tmp[128];
    mpz_export(tmp, &count, 1, 1, 1, 0, z);
    memcpy(out + len - count, tmp, count);
}

static void from_limbs(mpz_t z, const uint64_t *l, int n)
{
    mpz_import(z, (size_t)n, -1, 8, 0, 0, l);
}

void ref_from_affine(int c, ref_point *r, const void *affine)
{
    if (c == 0) {
        const mulred_g1_381_affine *a = affine;
        if (mulred_g1_381_affine_is_infinity(a)) {
            r->inf = 1;
            return;
        }
        uint64_t l[6];
        mulred_fp381_to_limbs(l, &a->x);
        from_limbs(r->x, l, 6);
        mulred_fp381_to_limbs(l, &a->y);
        from_limbs(r->y, l, 6);
    } else {
        const mulred_g1_254_affine *a = affine;
        if (mulred_g1_254_affine_is_infinity(a)) {
            r->inf = 1;
            return;
        }
        uint64_t l[4];
        mulred_fp254_to_limbs(l, &a->x);
        from_limbs(r->x, l, 4);
        mulred_fp254_to_limbs(l, &a->y);
        from_limbs(r->y, l, 4);
    }
    r->inf = 0;
}

void ref_from_jacobian(int c, ref_point *r, const void *jacobian)
{
    if (c == 0) {
        mulred_g1_381_affine a;
        mulred_g1_381_jacobian_to_affine(&a, jacobian);
        ref_from_affine(c, r, &a);
    } else {
        mulred_g1_254_affine a;
        mulred_g1_254_jacobian_to_affine(&a, jacobian);
        ref_from_affine(c, r, &a);
    }
}

int ref_affine_matches(int c, const void *affine, const ref_point *want)
{
    ref_point got;
    ref_point_init(&got);
    ref_from_affine(c, &got, affine);
    const int ok = ref_point_equal(&got, want);
    ref_point_clear(&got);
    return ok;
}

int ref_jacobian_matches(int c, const void *jacobian, const ref_point *want)
{
    ref_point got;
    ref_point_init(&got);
    ref_from_jacobian(c, &got, jacobian);
    const int ok = ref_point_equal(&got, want);
    ref_point_clear(&got);
    return ok;
}

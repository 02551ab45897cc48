/* The 3072-bit multiply kernels mod p = 2^3072 − 1103717, differential: the GMP path, every
 * MULX kernel and every IFMA kernel (64-bit limbs, squaring, and the radix-2^52 domain, also
 * chained on unreduced domain values) on fuzzer-chosen operands, each output checked to be
 * below 2^3072 (or, in the domain, within its limb bounds) and congruent to the mpz product mod
 * p; the public multiply (with its identity short-circuit), reduce and inverse against mpz.
 * Kernels the CPU lacks are not called.
 *
 * Input: a selector byte (low nibble a, high nibble b), a flag byte (bit 0, 1: flip bits of a,
 * b; bit 2: b = a), then operand bytes. Each operand is either raw input bytes (little-endian,
 * zero-extended) or one of 12 edge values (0, 1, p − 1, p, p + 1, 2^3072 − 1, C, 2^3071, …),
 * optionally xor-ed in its low limbs with input bytes, so short inputs reach the edges. */
#include "fuzz_common.h"

#include <gmp.h>

#include "num3072/num3072.h"
#include "num3072/num3072_kernels.h"

#define L 48

static mpz_t P, R, T;

static void to_mpz(mpz_t r, const uint64_t *a, size_t n)
{
    mpz_import(r, n, -1, 8, 0, 0, a);
}

/* The edge value k (0 <= k < 12) as 48 limbs. */
static void edge(uint64_t a[L], unsigned k)
{
    memset(a, 0, 8 * L);
    switch (k) {
    case 0: /* 0 */
        break;
    case 1: /* 1 */
        a[0] = 1;
        break;
    case 2: /* p - 1 */
    case 3: /* p */
    case 4: /* p + 1 */
        memset(a, 0xff, 8 * L);
        a[0] = ~(uint64_t)MULRED_NUM3072_C + (k - 2); /* p's low limb is 2^64 - C */
        break;
    case 5: /* 2^3072 - 1 */
        memset(a, 0xff, 8 * L);
        break;
    case 6: /* C = 2^3072 mod p */
        a[0] = MULRED_NUM3072_C;
        break;
    case 7: /* 2^3071 */
        a[L - 1] = 1ull << 63;
        break;
    case 8: /* 2^1536 - 1 */
        memset(a, 0xff, 8 * L / 2);
        break;
    case 9: /* 2^1536 */
        a[L / 2] = 1;
        break;
    case 10: /* alternating zero and all-ones limbs */
        for (int i = 0; i < L; i++) a[i] = i % 2 ? ~0ull : 0;
        break;
    default: /* the top 64 bits set */
        a[L - 1] = ~0ull;
        break;
    }
}

/* Operand: selector < 4 takes the next 384 input bytes (little-endian, zero-extended), else the
 * edge value (selector − 4), with its low 4 limbs xor-ed with input bytes when flip is set. */
static void operand(uint64_t a[L], unsigned sel, bool flip, const uint8_t **p, const uint8_t *e)
{
    size_t n = (size_t)(e - *p) < 8 * L ? (size_t)(e - *p) : 8 * L;
    uint8_t bytes[8 * L] = {0};
    memcpy(bytes, *p, n);
    *p += n;
    uint64_t raw[L];
    for (int i = 0; i < L; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--) v = v << 8 | bytes[8 * i + j];
        raw[i] = v;
    }
    if (sel < 4) {
        memcpy(a, raw, sizeof raw);
        return;
    }
    edge(a, sel - 4);
    if (flip)
        for (int i = 0; i < 4; i++) a[i] ^= raw[i];
}

/* r must be < 2^3072 (48 limbs, guaranteed by the type) and ≡ a·b (mod p). */
static void check(const char *name, const uint64_t r[L])
{
    to_mpz(T, r, L);
    mpz_mod(T, T, P);
    FUZZ_CHECK(mpz_cmp(T, R) == 0, "%s: result not congruent to a*b mod p", name);
}

static void check_domain(const char *name, const uint64_t x[64])
{
    for (int i = 0; i < 60; i++) FUZZ_CHECK(x[i] >> 52 == 0, "%s: domain limb %d >= 2^52", name, i);
    for (int i = 60; i < 64; i++) FUZZ_CHECK(x[i] == 0, "%s: domain pad limb %d nonzero", name, i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    static int have_mulx, have_ifma;
    if (!init) {
        mpz_inits(P, R, T, NULL);
        mpz_set_ui(P, 1);
        mpz_mul_2exp(P, P, 3072);
        mpz_sub_ui(P, P, MULRED_NUM3072_C);
        have_mulx = mulred_num3072_kernels_have_mulx();
        have_ifma = mulred_num3072_kernels_have_ifma();
        init = true;
    }
    if (size < 2) return 0;
    const uint8_t *p = data + 2, *e = data + size;
    uint64_t a[L], b[L], r[L];
    operand(a, data[0] & 15, data[1] & 1, &p, e);
    if (data[1] & 4)
        memcpy(b, a, sizeof b); /* a square */
    else
        operand(b, data[0] >> 4, data[1] & 2, &p, e);

    mpz_t A, B;
    mpz_inits(A, B, NULL);
    to_mpz(A, a, L);
    to_mpz(B, b, L);
    mpz_mul(R, A, B);
    mpz_mod(R, R, P);

    num3072_mul_gmp(r, a, b);
    check("gmp", r);
    memcpy(r, a, sizeof r);
    num3072_mul_gmp(r, r, b); /* r aliases a */
    check("gmp, aliased", r);
    if (have_mulx) {
        mulred_num3072_mul_mulx(r, a, b);
        check("mulx", r);
        mulred_num3072_mul_mulx_school(r, a, b);
        check("mulx_school", r);
        mulred_num3072_mul_mulx_kara2(r, a, b);
        check("mulx_kara2", r);
        memcpy(r, b, sizeof r);
        mulred_num3072_mul_mulx(r, a, r); /* r aliases b */
        check("mulx, aliased", r);
    }
    if (have_ifma) {
        mulred_num3072_mul_ifma(r, a, b);
        check("ifma", r);
        if (memcmp(a, b, sizeof a) == 0) {
            mulred_num3072_sqr_ifma(r, a);
            check("sqr_ifma", r);
        }
        uint64_t x[64], y[64], z[64];
        mulred_num3072_ifma_from64(x, a);
        mulred_num3072_ifma_from64(y, b);
        check_domain("from64", x);
        check_domain("from64", y);
        mulred_num3072_ifma_mul_r52(z, x, y);
        check_domain("mul_r52", z);
        mulred_num3072_ifma_to64(r, z);
        check("ifma domain", r);
        /* Chained on unreduced domain values: (a·b)·(a·b) and (a·b)² against R². */
        uint64_t w[64];
        mulred_num3072_ifma_mul_r52(w, z, z);
        check_domain("mul_r52 chained", w);
        mulred_num3072_ifma_sqr_r52(z, z); /* r aliases a */
        check_domain("sqr_r52 chained", z);
        mpz_mul(R, R, R);
        mpz_mod(R, R, P);
        mulred_num3072_ifma_to64(r, w);
        check("ifma domain chain (mul)", r);
        mulred_num3072_ifma_to64(r, z);
        check("ifma domain chain (sqr)", r);
        mpz_mul(R, A, B);
        mpz_mod(R, R, P);
    }

    /* The public operations. */
    mulred_num3072 na, nb, nr;
    memcpy(na.limb, a, sizeof a);
    memcpy(nb.limb, b, sizeof b);
    mulred_num3072_mul(&nr, &na, &nb);
    check("mulred_num3072_mul", nr.limb);
    mulred_num3072_reduce(&nr, &na);
    to_mpz(T, nr.limb, L);
    mpz_mod(R, A, P);
    FUZZ_CHECK(mpz_cmp(T, R) == 0, "reduce: not a mod p in [0, p)");
    mulred_num3072_inverse(&nr, &na);
    to_mpz(T, nr.limb, L);
    FUZZ_CHECK(mpz_cmp(T, P) < 0, "inverse: not below p");
    if (mpz_sgn(R) == 0)
        FUZZ_CHECK(mpz_sgn(T) == 0, "inverse of 0 is not 0");
    else {
        FUZZ_CHECK(mpz_invert(R, R, P), "mpz_invert");
        FUZZ_CHECK(mpz_cmp(T, R) == 0, "inverse differs from mpz_invert");
    }
    mpz_clears(A, B, NULL);
    return 0;
}

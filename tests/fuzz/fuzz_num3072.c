/* The 3072-bit multiply kernels mod p = 2^3072 − 1103717, differential: every kernel of the
 * library's table the CPU runs (gmp, mulx, ifma, ifma_kara, ifma256, ifma256_kara), its single
 * multiply (also with r aliasing a, b or both) and its mul_many (a chain of 0..7 factors, the
 * accumulator kept in the kernel's representation between them, so unreduced intermediates are
 * reached), each output checked to be congruent to the mpz product mod p (every value is below
 * 2^3072 by its type); the dispatch num3072_mul_many with and without the identity
 * short-circuit for each selected kernel; the public multiply (with its identity
 * short-circuit), reduce and inverse against mpz. Kernels the CPU lacks are not called.
 *
 * Input: a selector byte (low nibble a, high nibble b), a flag byte (bit 0, 1: flip bits of a,
 * b; bit 2: b = a; bits 3-5: the number of mul_many factors, which alternate b, a, b, …), then
 * operand bytes. Each operand is either raw input bytes (little-endian,
 * zero-extended) or one of 12 edge values (0, 1, p − 1, p, p + 1, 2^3072 − 1, C, 2^3071, …),
 * optionally xor-ed in its low limbs with input bytes, so short inputs reach the edges. */
#include "fuzz_common.h"

#include <gmp.h>

#include "num3072/num3072.h"

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

/* check() for the kernel `kernel`, operation `what`. */
static void check_kernel(const char *kernel, const char *what, const uint64_t r[L])
{
    char name[80];
    snprintf(name, sizeof name, "%s, %s", kernel, what);
    check(name, r);
}

/* The factors of a mul_many chain: b, a, b, a, … (n of them); R = a·b mod p on entry and
 * acc·x[0]⋯x[n−1] mod p for acc = a on return. */
static void chain_ref(const mpz_t A, const mpz_t B, size_t n)
{
    mpz_mod(R, A, P);
    for (size_t j = 0; j < n; j++) {
        mpz_mul(R, R, j % 2 ? A : B);
        mpz_mod(R, R, P);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    static const num3072_kernel *ks;
    static int nk;
    static const char *active;
    if (!init) {
        mpz_inits(P, R, T, NULL);
        mpz_set_ui(P, 1);
        mpz_mul_2exp(P, P, 3072);
        mpz_sub_ui(P, P, MULRED_NUM3072_C);
        ks = num3072_kernels(&nk);
        active = num3072_kernel_active()->name;
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

    const size_t nchain = (size_t)(data[1] >> 3 & 7);
    const uint64_t *chain[8];
    for (size_t j = 0; j < nchain; j++) chain[j] = j % 2 ? a : b;

    num3072_mul_gmp(r, a, b);
    check("gmp direct", r);
    for (int k = 0; k < nk; k++) {
        const num3072_kernel *kn = &ks[k];
        if (!kn->available()) continue;
        kn->mul(r, a, b);
        check_kernel(kn->name, "mul", r);
        memcpy(r, a, sizeof r);
        kn->mul(r, r, b);
        check_kernel(kn->name, "mul, r aliases a", r);
        memcpy(r, b, sizeof r);
        kn->mul(r, a, r);
        check_kernel(kn->name, "mul, r aliases b", r);
        if (data[1] & 4) {
            memcpy(r, a, sizeof r);
            kn->mul(r, r, r);
            check_kernel(kn->name, "square, r aliases both", r);
        }
        /* mul_many on a chain, then the dispatch with this kernel selected. */
        chain_ref(A, B, nchain);
        if (kn->mul_many) {
            memcpy(r, a, sizeof r);
            kn->mul_many(r, chain, nchain);
            check_kernel(kn->name, "mul_many", r);
        }
        FUZZ_CHECK(num3072_kernel_select(kn->name) == 0, "%s: available but not selectable",
                   kn->name);
        for (int sc = 0; sc < 2; sc++) {
            mulred_num3072 acc;
            memcpy(acc.limb, a, sizeof a);
            num3072_mul_many(&acc, chain, nchain, sc);
            check_kernel(kn->name, sc ? "num3072_mul_many, short-circuit" : "num3072_mul_many",
                         acc.limb);
        }
        mpz_mul(R, A, B);
        mpz_mod(R, R, P);
    }
    FUZZ_CHECK(num3072_kernel_select(active) == 0, "the active kernel %s", active);

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

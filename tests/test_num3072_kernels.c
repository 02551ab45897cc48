/* num3072 kernels (src/num3072/num3072_kernels.h): every kernel of the table and the
 * radix-2^52 domain API against GMP mpz (mpz_mul, then mpz_mod by p).
 *
 * Per kernel: all pairs of edge values (with r aliasing a, b, and both), random inputs (dense,
 * sparse limbs, sparse bits, near p, near 2^3072, all-ones/zero limb mixes, single limbs;
 * equal operands now and then), and a chain x <- x*y of 10,000 steps. A kernel is skipped,
 * with a message, only when the CPU lacks its instructions.
 * MULRED_KERNEL_TEST_ITERS sets the random iterations per kernel (default 100000; use a
 * smaller value under valgrind). Valgrind 3.19 executes MULX/ADCX/ADOX but its virtual CPUID
 * hides ADX (and it has no AVX-512 at all): MULRED_KERNEL_TEST_FORCE_MULX=1 runs the MULX
 * kernels regardless of CPUID. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "num3072/num3072.h"
#include "num3072/num3072_kernels.h"

#define L  MULRED_NUM3072_LIMBS
#define CP MULRED_NUM3072_C

static mpz_t P;

typedef struct {
    const char *name;
    void (*mul)(uint64_t *, const uint64_t *, const uint64_t *);
    int (*available)(void);
    const char *needs;
} kernel;

/* ---- the domain API wrapped as 64-bit kernels (they also check the domain invariants) ---- */

static int domain_bad; /* set when a domain value breaks the invariant */

static void check_domain(const uint64_t x[64])
{
    for (int i = 0; i < 60; i++)
        if (x[i] >> 52) domain_bad = 1;
    for (int i = 60; i < 64; i++)
        if (x[i]) domain_bad = 1;
}

static void mul_r52_wrap(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    uint64_t x[64], y[64];
    mulred_num3072_ifma_from64(x, a);
    mulred_num3072_ifma_from64(y, b);
    check_domain(x);
    check_domain(y);
    mulred_num3072_ifma_mul_r52(x, x, y); /* r aliases a */
    check_domain(x);
    mulred_num3072_ifma_to64(r, x);
}

static int always_available(void)
{
    return 1;
}

static const kernel kernels[] = {
    {"mul_gmp (portable path)", num3072_mul_gmp, always_available, "-"},
    {"mul_mulx (karatsuba 1)", mulred_num3072_mul_mulx, mulred_num3072_kernels_have_mulx,
     "bmi2+adx"},
    {"mul_ifma", mulred_num3072_mul_ifma, mulred_num3072_kernels_have_ifma, "avx512ifma"},
    {"ifma_mul_r52 (domain)", mul_r52_wrap, mulred_num3072_kernels_have_ifma, "avx512ifma"},
};
#define NKERNELS (int)(sizeof kernels / sizeof kernels[0])

/* ---- values ----------------------------------------------------------------------------- */

static void to_mpz(mpz_t z, const uint64_t *a)
{
    mpz_import(z, L, -1, sizeof(uint64_t), 0, 0, a);
}

static void from_mpz(uint64_t *a, const mpz_t z)
{
    memset(a, 0, L * sizeof(uint64_t));
    mpz_export(a, NULL, -1, sizeof(uint64_t), 0, 0, z);
}

#define NEDGES 16
/* 0, 1, 2, p-1, p, p+1, 2^3072-1, 2^3072-2C, C, 2^64-1, 2^3071, 2^3068-1 (all 52-bit limbs
 * ones), alternating all-ones limbs, top limb only, p-2, 2^3072-C-1 (= p-1 again via limbs) */
static void edge_value(uint64_t *a, int i)
{
    mpz_t z;
    mpz_init(z);
    switch (i) {
    case 0:
        break;
    case 1:
        mpz_set_ui(z, 1);
        break;
    case 2:
        mpz_set_ui(z, 2);
        break;
    case 3:
        mpz_sub_ui(z, P, 1);
        break;
    case 4:
        mpz_set(z, P);
        break;
    case 5:
        mpz_add_ui(z, P, 1);
        break;
    case 6:
        mpz_add_ui(z, P, CP - 1);
        break;
    case 7:
        mpz_sub_ui(z, P, CP);
        break;
    case 8:
        mpz_set_ui(z, CP);
        break;
    case 9:
        mpz_set_ui(z, UINT64_MAX);
        break;
    case 10:
        mpz_setbit(z, 3071);
        break;
    case 11:
        mpz_setbit(z, 3068), mpz_sub_ui(z, z, 1);
        break;
    case 14:
        mpz_sub_ui(z, P, 2);
        break;
    case 15:
        mpz_add_ui(z, P, CP / 2);
        break;
    default:
        break;
    }
    from_mpz(a, z);
    mpz_clear(z);
    if (i == 12)
        for (int k = 0; k < L; k += 2) a[k] = UINT64_MAX;
    if (i == 13) a[L - 1] = UINT64_MAX;
}

static void random_value(uint64_t *a)
{
    switch (test_rand_below(8)) {
    case 0:
    case 1: /* dense */
        for (int i = 0; i < L; i++) a[i] = test_rand64();
        break;
    case 2: /* sparse limbs */
        memset(a, 0, L * sizeof *a);
        for (int k = (int)test_rand_below(5); k >= 0; k--)
            a[test_rand_below(L)] = test_rand64() >> test_rand_below(64);
        break;
    case 3: /* sparse bits */
        memset(a, 0, L * sizeof *a);
        for (int k = (int)test_rand_below(6); k >= 0; k--)
            a[test_rand_below(L)] |= UINT64_C(1) << test_rand_below(64);
        break;
    case 4: { /* near p: p + d, |d| < 2^21, kept below 2^3072 */
        int64_t d = (int64_t)test_rand_below(2 * CP) - (int64_t)CP;
        for (int i = 1; i < L; i++) a[i] = UINT64_MAX;
        a[0] = (uint64_t)0 - CP + (uint64_t)d; /* 2^3072 - C + d, C - d > 0 */
        break;
    }
    case 5: /* near 2^3072, possibly with a hole somewhere */
        for (int i = 0; i < L; i++) a[i] = UINT64_MAX;
        a[0] -= test_rand_below(UINT64_C(1) << 24);
        if (test_rand_below(2)) a[test_rand_below(L)] ^= test_rand64() & test_rand64();
        break;
    case 6: /* all-ones / zero / random limbs mixed */
        for (int i = 0; i < L; i++) {
            uint64_t k = test_rand_below(3);
            a[i] = k == 0 ? 0 : k == 1 ? UINT64_MAX : test_rand64();
        }
        break;
    default: /* single limb */
        memset(a, 0, L * sizeof *a);
        a[test_rand_below(L)] = test_rand64();
    }
}

/* r == a*b (mod p); r < 2^3072 holds by type */
static int congruent(const uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mpz_t za, zb, zr;
    mpz_inits(za, zb, zr, NULL);
    to_mpz(za, a);
    to_mpz(zb, b);
    to_mpz(zr, r);
    mpz_mul(za, za, zb);
    mpz_sub(za, za, zr);
    mpz_mod(za, za, P);
    int ok = mpz_sgn(za) == 0;
    mpz_clears(za, zb, zr, NULL);
    return ok;
}

static long iterations(void)
{
    const char *e = getenv("MULRED_KERNEL_TEST_ITERS");
    long n = e && *e ? strtol(e, NULL, 10) : 100000;
    return n > 0 ? n : 100000;
}

/* One product and its aliasing variants; returns 0 on any mismatch. */
static int check_one(const kernel *k, const uint64_t *a, const uint64_t *b0, int aliases)
{
    const uint64_t *b = b0;
    uint64_t r[L], x[L];
    k->mul(r, a, b);
    if (!congruent(r, a, b)) return 0;
    if (!aliases) return 1;
    memcpy(x, a, sizeof x); /* r == a */
    k->mul(x, x, b);
    if (memcmp(x, r, sizeof x)) return 0;
    memcpy(x, b, sizeof x); /* r == b */
    k->mul(x, a, x);
    if (memcmp(x, r, sizeof x)) return 0;
    uint64_t s[L]; /* a == b, then r == a == b */
    k->mul(s, a, a);
    if (!congruent(s, a, a)) return 0;
    memcpy(x, a, sizeof x);
    k->mul(x, x, x);
    if (memcmp(x, s, sizeof x)) return 0;
    return 1;
}

static void report_failure(const kernel *k, const char *what, const uint64_t *a, const uint64_t *b)
{
    mpz_t za, zb;
    mpz_inits(za, zb, NULL);
    to_mpz(za, a);
    to_mpz(zb, b);
    gmp_printf("\n    kernel %s: %s failed\n    a = %Zx\n    b = %Zx", k->name, what, za, zb);
    mpz_clears(za, zb, NULL);
}

static int skip(const kernel *k)
{
    if (k->available()) return 0;
    const char *force = getenv("MULRED_KERNEL_TEST_FORCE_MULX");
    if (force && *force == '1' && k->available == mulred_num3072_kernels_have_mulx) {
        printf("\n    (kernel %s: CPUID says no %s; forced by MULRED_KERNEL_TEST_FORCE_MULX)",
               k->name, k->needs);
        return 0;
    }
    printf("\n    (kernel %s: CPU lacks %s, skipped)", k->name, k->needs);
    return 1;
}

static void test_edges(void)
{
    for (int ki = 0; ki < NKERNELS; ki++) {
        const kernel *k = &kernels[ki];
        if (skip(k)) continue;
        int bad = 0;
        domain_bad = 0;
        for (int i = 0; i < NEDGES; i++)
            for (int j = 0; j < NEDGES; j++) {
                uint64_t a[L], b[L];
                edge_value(a, i);
                edge_value(b, j);
                if (!check_one(k, a, b, 1)) {
                    if (!bad++) report_failure(k, "edge product", a, b);
                }
            }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(domain_bad, 0);
    }
}

static void test_random(void)
{
    const long n = iterations();
    printf("\n    %ld random inputs per kernel", n);
    for (int ki = 0; ki < NKERNELS; ki++) {
        const kernel *k = &kernels[ki];
        if (skip(k)) continue;
        long bad = 0;
        domain_bad = 0;
        for (long it = 0; it < n; it++) {
            uint64_t a[L], b[L];
            random_value(a);
            if (test_rand_below(16) == 0)
                memcpy(b, a, sizeof b);
            else
                random_value(b);
            if (!check_one(k, a, b, it % 16 == 0)) {
                if (!bad++) report_failure(k, "random product", a, b);
            }
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(domain_bad, 0);
    }
}

static void test_chain(void)
{
    for (int ki = 0; ki < NKERNELS; ki++) {
        const kernel *k = &kernels[ki];
        if (skip(k)) continue;
        uint64_t x[L], y[L];
        random_value(x);
        do random_value(y);
        while (y[0] == 0 && y[1] == 0); /* keep the chain interesting; zero is still allowed */
        mpz_t zx, zy, zr;
        mpz_inits(zx, zy, zr, NULL);
        to_mpz(zx, x);
        to_mpz(zy, y);
        for (int i = 0; i < 10000; i++) {
            k->mul(x, x, y);
            mpz_mul(zx, zx, zy);
            mpz_mod(zx, zx, P);
        }
        to_mpz(zr, x);
        mpz_mod(zr, zr, P);
        if (mpz_cmp(zr, zx) != 0) printf("\n    kernel %s: chain differs from mpz", k->name);
        CU_ASSERT(mpz_cmp(zr, zx) == 0);
        mpz_clears(zx, zy, zr, NULL);
    }
}

/* The domain API on its own: round trip, and a long product accumulated in radix 2^52. */
static void test_domain(void)
{
    if (!mulred_num3072_kernels_have_ifma()) {
        printf("\n    (domain API: CPU lacks avx512ifma, skipped)");
        return;
    }
    domain_bad = 0;
    for (int it = 0; it < 2000; it++) {
        uint64_t a[L], back[L], x[64];
        if (it < NEDGES)
            edge_value(a, it);
        else
            random_value(a);
        mulred_num3072_ifma_from64(x, a);
        check_domain(x);
        mulred_num3072_ifma_to64(back, x);
        CU_ASSERT(memcmp(back, a, sizeof a) == 0); /* exact: from64 is a change of radix */
    }
    /* acc <- acc * e_i for 10,000 random e_i, kept in the domain, against mpz */
    uint64_t acc52[64], e52[64], e[L], out[L];
    uint64_t one[L] = {1};
    mpz_t zacc, ze, zr;
    mpz_inits(zacc, ze, zr, NULL);
    mpz_set_ui(zacc, 1);
    mulred_num3072_ifma_from64(acc52, one);
    for (int i = 0; i < 10000; i++) {
        random_value(e);
        if (i % 1000 == 999) edge_value(e, 5); /* p + 1 == 1: an unreduced element */
        mulred_num3072_ifma_from64(e52, e);
        mulred_num3072_ifma_mul_r52(acc52, acc52, e52);
        check_domain(acc52);
        to_mpz(ze, e);
        mpz_mul(zacc, zacc, ze);
        mpz_mod(zacc, zacc, P);
    }
    mulred_num3072_ifma_to64(out, acc52);
    to_mpz(zr, out);
    mpz_mod(zr, zr, P);
    CU_ASSERT(mpz_cmp(zr, zacc) == 0);
    CU_ASSERT_EQUAL(domain_bad, 0);
    mpz_clears(zacc, ze, zr, NULL);
}

void test_register(void)
{
    mpz_init_set_ui(P, 1);
    mpz_mul_2exp(P, P, 3072);
    mpz_sub_ui(P, P, CP);
    TEST_SUITE("num3072_kernels", {"edge values and aliasing", test_edges},
               {"random inputs against mpz", test_random},
               {"chains of 10,000 products", test_chain}, {"radix-2^52 domain API", test_domain});
}

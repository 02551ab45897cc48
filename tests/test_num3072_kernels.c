/* num3072 kernels (src/num3072/num3072.h, num3072_kernels.h): every kernel of the library's
 * table, its multiply and its product of many factors, against GMP mpz (mpz_mul, then mpz_mod
 * by p), and the choice of the kernel at first use.
 *
 * Per kernel: all pairs of edge values (with r aliasing a, b, and both), random inputs (dense,
 * sparse limbs, sparse bits, near p, near 2^3072, all-ones/zero limb mixes, single limbs;
 * equal operands now and then), a chain x <- x*y of 10,000 steps, and mul_many over runs of
 * 0..40 factors (edge and random, repeated factors, the accumulator at 0, 1 and p + 1) and over
 * 10,000 factors in runs of random length, through the kernel and through num3072_mul_many
 * with and without the identity short-circuit. A kernel is skipped, with a message, only when
 * the CPU lacks its instructions.
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

#define L MULRED_NUM3072_LIMBS
#define CP                                                                                         \
    1103717u /* p = 2^3072 - CP, written out here: the tests do not take it from the code          \
              */

static mpz_t P;

typedef num3072_kernel kernel;

static const kernel *kernels;
static int nkernels;

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
    char why[96];
    snprintf(why, sizeof why, "kernel %s: CPU lacks %s", k->name, k->needs);
    test_skip(why);
    return 1;
}

static void test_edges(void)
{
    for (int ki = 0; ki < nkernels; ki++) {
        const kernel *k = &kernels[ki];
        if (skip(k)) continue;
        int bad = 0;
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
    }
}

static void test_random(void)
{
    const long n = iterations();
    printf("\n    %ld random inputs per kernel", n);
    for (int ki = 0; ki < nkernels; ki++) {
        const kernel *k = &kernels[ki];
        if (skip(k)) continue;
        long bad = 0;
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
    }
}

static void test_chain(void)
{
    for (int ki = 0; ki < nkernels; ki++) {
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

/* acc = acc0 * x[0] * ... * x[n-1] (mod p), judged by mpz */
static int product_ok(const uint64_t *acc, const uint64_t *acc0, uint64_t (*x)[L], size_t n)
{
    mpz_t want, f, got;
    mpz_inits(want, f, got, NULL);
    to_mpz(want, acc0);
    mpz_mod(want, want, P);
    for (size_t j = 0; j < n; j++) {
        to_mpz(f, x[j]);
        mpz_mul(want, want, f);
        mpz_mod(want, want, P);
    }
    to_mpz(got, acc);
    mpz_mod(got, got, P);
    int ok = mpz_cmp(got, want) == 0;
    mpz_clears(want, f, got, NULL);
    return ok;
}

enum { MANY = 40 };

/* Factors for a mul_many run: edge and random values, some repeated (x[j] may alias x[i]). */
static void many_factors(uint64_t (*x)[L], const uint64_t **xp, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        if (test_rand_below(8) == 0)
            edge_value(x[j], (int)test_rand_below(NEDGES));
        else
            random_value(x[j]);
        xp[j] = x[j];
        if (j > 0 && test_rand_below(8) == 0) xp[j] = xp[test_rand_below(j)];
    }
}

/* mul_many through the kernel itself and through num3072_mul_many (with this kernel active,
 * with and without the short-circuit), for every run length 0..40 and accumulators 0, 1, p+1,
 * random; each result against mpz. */
static void test_many(void)
{
    const char *active = mulred_num3072_kernel_name();
    static uint64_t x[MANY][L];
    static uint64_t flat[MANY][L];
    const uint64_t *xp[MANY];
    for (int ki = 0; ki < nkernels; ki++) {
        const kernel *k = &kernels[ki];
        if (skip(k)) continue;
        int forced = !k->available();
        long bad = 0;
        for (int rep = 0; rep < 20; rep++)
            for (size_t n = 0; n <= MANY; n++) {
                uint64_t acc0[L], acc[L];
                switch (rep % 4) {
                case 0:
                    random_value(acc0);
                    break;
                case 1:
                    edge_value(acc0, 1);
                    break; /* 1 */
                case 2:
                    edge_value(acc0, 5);
                    break; /* p + 1 == 1, not the representation 1 */
                default:
                    edge_value(acc0, (int)test_rand_below(NEDGES));
                }
                many_factors(x, xp, n);
                for (size_t j = 0; j < n; j++) memcpy(flat[j], xp[j], sizeof flat[j]);
                if (k->mul_many) {
                    memcpy(acc, acc0, sizeof acc);
                    k->mul_many(acc, xp, n);
                    if (!product_ok(acc, acc0, flat, n) && !bad++)
                        printf("\n    kernel %s: mul_many of %zu factors differs", k->name, n);
                }
                if (forced) continue; /* num3072_kernel_select refuses what CPUID hides */
                CU_ASSERT_FATAL(num3072_kernel_select(k->name) == 0);
                for (int sc = 0; sc < 2; sc++) {
                    mulred_num3072 m;
                    memcpy(m.limb, acc0, sizeof acc0);
                    num3072_mul_many(&m, xp, n, sc);
                    if (!product_ok(m.limb, acc0, flat, n) && !bad++)
                        printf("\n    kernel %s: num3072_mul_many (short-circuit %d) of %zu "
                               "factors differs",
                               k->name, sc, n);
                }
            }
        CU_ASSERT_EQUAL(bad, 0);
    }
    num3072_kernel_select(active);
}

/* 10,000 factors in runs of 1..64 into one accumulator, per kernel, against mpz. */
static void test_many_chain(void)
{
    static uint64_t x[64][L];
    const uint64_t *xp[64];
    for (int ki = 0; ki < nkernels; ki++) {
        const kernel *k = &kernels[ki];
        if (skip(k) || !k->mul_many) continue;
        uint64_t acc[L];
        mpz_t want, f, got;
        mpz_inits(want, f, got, NULL);
        random_value(acc);
        to_mpz(want, acc);
        for (int done = 0; done < 10000;) {
            size_t n = 1 + test_rand_below(64);
            many_factors(x, xp, n);
            for (size_t j = 0; j < n; j++) {
                to_mpz(f, xp[j]);
                mpz_mul(want, want, f);
                mpz_mod(want, want, P);
            }
            k->mul_many(acc, xp, n);
            done += (int)n;
        }
        to_mpz(got, acc);
        mpz_mod(got, got, P);
        if (mpz_cmp(got, want) != 0) printf("\n    kernel %s: chain of mul_many differs", k->name);
        CU_ASSERT(mpz_cmp(got, want) == 0);
        mpz_clears(want, f, got, NULL);
    }
}

/* The choice at first use: an available kernel, chosen by one of the documented ways; when
 * measured, the preferred kernel and every kernel that beat it were timed, and a kernel other
 * than the preferred one won by the margin. MULRED_KERNEL's effect is checked by the command
 * tests (a fresh process per value). */
static void test_selection(void)
{
    const num3072_selection *s = num3072_kernel_selection();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->kernel);
    CU_ASSERT(s->kernel->available());
    CU_ASSERT(strcmp(s->how, "forced") == 0 || strcmp(s->how, "measured") == 0 ||
              strcmp(s->how, "default") == 0);
    printf("\n    chosen: %s (%s, %.1f us)", s->kernel->name, s->how, s->seconds * 1e6);
    if (strcmp(s->how, "measured") == 0) {
        int preferred = -1, chosen = -1;
        for (int k = 0; k < nkernels; k++) {
            if (kernels[k].available()) preferred = k;
            if (&kernels[k] == s->kernel) chosen = k;
            if (s->ns[k] > 0) printf(" %s %.0f ns", kernels[k].name, s->ns[k]);
        }
        CU_ASSERT_FATAL(preferred >= 0 && chosen >= 0);
        CU_ASSERT(kernels[chosen].candidate);
        CU_ASSERT(s->ns[preferred] > 0 && s->ns[chosen] > 0);
        if (chosen != preferred) CU_ASSERT(s->ns[chosen] < 0.92 * s->ns[preferred]);
    }
}

void test_register(void)
{
    mpz_init_set_ui(P, 1);
    mpz_mul_2exp(P, P, 3072);
    mpz_sub_ui(P, P, CP);
    kernels = num3072_kernels(&nkernels);
    TEST_SUITE("num3072_kernels", {"edge values and aliasing", test_edges},
               {"random inputs against mpz", test_random},
               {"chains of 10,000 products", test_chain},
               {"mul_many, every run length 0..40", test_many},
               {"mul_many, 10,000 factors in runs", test_many_chain},
               {"the kernel chosen at first use", test_selection});
}

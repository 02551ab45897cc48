/* Arithmetic mod p = 2^3072 − 1103717 on 48 64-bit limbs.
 *
 * Reduction: a 6144-bit product H·2^3072 + L ≡ L + H·C (C = 1103717 < 2^21). One fold leaves
 * at most 3072 + 22 bits; the second fold of that small excess leaves at most one carry, worth
 * another +C; a final conditional subtraction of p gives a result < p. Cost on top of the
 * 48×48-limb product: one mpn_mul_1 and a few additions (docs/kernels.md has their share).
 *
 * The identity short-circuit: multiplying by 1 is a copy. Identity-seeded partials (one per
 * thread, per rank, per transaction) make this case frequent; without it every partial costs
 * a full multiply against 1. */
#include "num3072/num3072.h"
#include "num3072/num3072_kernels.h"

#include <gmp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

_Static_assert(sizeof(mp_limb_t) == sizeof(uint64_t), "GMP limbs must be 64-bit");

static int limb_all_ones_above(const uint64_t *a)
{
    for (int i = 1; i < MULRED_NUM3072_LIMBS; i++)
        if (a[i] != UINT64_MAX) return 0;
    return 1;
}

/* a >= p  ⇔  limbs 1..47 are all ones and limb 0 >= 2^64 − C. */
static int num3072_is_overflow(const uint64_t *a)
{
    return a[0] >= (uint64_t)0 - MULRED_NUM3072_C && limb_all_ones_above(a);
}

/* a − p = a + C − 2^3072 for a >= p: add C and drop the carry. */
static void num3072_sub_p(uint64_t *a)
{
    mpn_add_1((mp_limb_t *)a, (const mp_limb_t *)a, MULRED_NUM3072_LIMBS, MULRED_NUM3072_C);
}

void num3072_mul_gmp(uint64_t r[MULRED_NUM3072_LIMBS], const uint64_t a[MULRED_NUM3072_LIMBS],
                     const uint64_t b[MULRED_NUM3072_LIMBS])
{
    mp_limb_t t[2 * MULRED_NUM3072_LIMBS], f[MULRED_NUM3072_LIMBS];
    if (a == b)
        mpn_sqr(t, (const mp_limb_t *)a, MULRED_NUM3072_LIMBS);
    else
        mpn_mul_n(t, (const mp_limb_t *)a, (const mp_limb_t *)b, MULRED_NUM3072_LIMBS);
    /* First fold: L + H·C. */
    mp_limb_t hi = mpn_mul_1(f, t + MULRED_NUM3072_LIMBS, MULRED_NUM3072_LIMBS, MULRED_NUM3072_C);
    hi += mpn_add_n((mp_limb_t *)r, t, f, MULRED_NUM3072_LIMBS);
    /* Second fold: hi < 2^22, so hi·C < 2^43 fits a limb. */
    if (mpn_add_1((mp_limb_t *)r, (mp_limb_t *)r, MULRED_NUM3072_LIMBS, hi * MULRED_NUM3072_C))
        mpn_add_1((mp_limb_t *)r, (mp_limb_t *)r, MULRED_NUM3072_LIMBS,
                  MULRED_NUM3072_C); /* cannot carry */
    if (num3072_is_overflow(r)) num3072_sub_p(r);
}

static int kernel_always(void)
{
    return 1;
}

/* From the most portable to the preferred kernel: gmp, mulx (Karatsuba over a 24-limb MULX/ADX
 * basecase) and ifma (512-bit schoolbook) are each faster than the one before on AMD Zen 5
 * (docs/kernels.md has the figures of mulred bench muhash); the 512-bit Karatsuba and the
 * 256-bit kernels are slower there and are candidates for CPUs that split 512-bit
 * instructions (Zen 4): the measurement at first use decides. */
static const num3072_kernel kernel_table[] = {
    {"gmp", "-", kernel_always, num3072_mul_gmp, NULL, false},
    {"mulx", "bmi2+adx", mulred_num3072_kernels_have_mulx, mulred_num3072_mul_mulx, NULL, false},
    {"ifma256_kara", "avx512ifma+avx512vl", mulred_num3072_kernels_have_ifma,
     mulred_num3072_mul_ifma256_kara, mulred_num3072_mul_many_ifma256_kara, true},
    {"ifma256", "avx512ifma+avx512vl", mulred_num3072_kernels_have_ifma, mulred_num3072_mul_ifma256,
     mulred_num3072_mul_many_ifma256, true},
    {"ifma_kara", "avx512ifma+avx512vl", mulred_num3072_kernels_have_ifma,
     mulred_num3072_mul_ifma_kara, mulred_num3072_mul_many_ifma_kara, true},
    {"ifma", "avx512ifma+avx512vl", mulred_num3072_kernels_have_ifma, mulred_num3072_mul_ifma,
     mulred_num3072_mul_many_ifma, true},
};
#define NKERNELS ((int)(sizeof kernel_table / sizeof kernel_table[0]))
_Static_assert(NKERNELS <= 8, "num3072_selection.ns holds 8 kernels");

const num3072_kernel *num3072_kernels(int *count)
{
    *count = NKERNELS;
    return kernel_table;
}

const num3072_kernel *num3072_kernel_find(const char *name)
{
    for (int i = 0; i < NKERNELS; i++)
        if (strcmp(kernel_table[i].name, name) == 0) return &kernel_table[i];
    return NULL;
}

/* ---- choosing the kernel --------------------------------------------------------------
 * The same build runs on CPUs whose vector units differ (Zen 5 executes a 512-bit IFMA in one
 * slot, Zen 4 in two), so where several candidates run, each is timed once at first use:
 * SELECT_ROUNDS rounds in which every candidate in turn runs a chain of SELECT_CHAIN
 * multiplies (r = r·b: dependent, like an accumulator), timed by the monotonic clock; a
 * candidate's figure is its fastest round (an interrupt or a noisy neighbour only slows a
 * round down). The preferred kernel stays unless another is faster by SELECT_MARGIN: a near
 * tie is noise and goes to the kernel measured best across runs. Cost: 4 candidates × 9 × 8
 * multiplies, once per process (docs/kernels.md has its time). */
enum { SELECT_ROUNDS = 9, SELECT_CHAIN = 8 };
#define SELECT_MARGIN 0.92

static num3072_selection selection;
static _Atomic(const num3072_kernel *) active_kernel;
static pthread_once_t selection_once = PTHREAD_ONCE_INIT;

static void kernel_measure(int preferred)
{
    uint64_t r[MULRED_NUM3072_LIMBS], b[MULRED_NUM3072_LIMBS];
    for (int i = 0; i < MULRED_NUM3072_LIMBS; i++) { /* dense values (any value would do) */
        r[i] = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
        b[i] = 0xc2b2ae3d27d4eb4full * (uint64_t)(i + 3);
    }
    const uint64_t *factors[SELECT_CHAIN];
    for (int j = 0; j < SELECT_CHAIN; j++) factors[j] = b;
    double best[NKERNELS];
    for (int k = 0; k < NKERNELS; k++) best[k] = 0;
    for (int round = 0; round < SELECT_ROUNDS; round++)
        for (int k = 0; k < NKERNELS; k++) {
            const num3072_kernel *kn = &kernel_table[k];
            if (!kn->candidate || !kn->available()) continue;
            /* half single multiplies (one element at a time), half a run (batches) */
            double t0 = mulred_wtime();
            for (int j = 0; j < SELECT_CHAIN / 2; j++) kn->mul(r, r, b);
            if (kn->mul_many)
                kn->mul_many(r, factors, SELECT_CHAIN / 2);
            else
                for (int j = 0; j < SELECT_CHAIN / 2; j++) kn->mul(r, r, b);
            double t = (mulred_wtime() - t0) / SELECT_CHAIN;
            if (round > 0 && (best[k] == 0 || t < best[k])) best[k] = t; /* round 0 warms up */
        }
    int choice = preferred;
    for (int k = 0; k < NKERNELS; k++)
        if (best[k] > 0 && best[k] < SELECT_MARGIN * best[preferred] && best[k] < best[choice])
            choice = k;
    for (int k = 0; k < NKERNELS; k++) selection.ns[k] = best[k] * 1e9;
    selection.kernel = &kernel_table[choice];
    selection.how = "measured";
}

static void kernel_choose(void)
{
    double t0 = mulred_wtime();
    const char *forced = getenv("MULRED_KERNEL");
    if (forced && *forced) {
        const num3072_kernel *k = num3072_kernel_find(forced);
        if (k && k->available()) {
            selection.kernel = k;
            selection.how = "forced";
        } else { /* ignored (the library prints nothing); the record says why */
            char names[128] = "";
            for (int i = 0; i < NKERNELS; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         kernel_table[i].name);
            snprintf(selection.ignored, sizeof selection.ignored, "MULRED_KERNEL=%.40s is %s",
                     forced, k ? "not supported by this CPU" : "not a kernel name");
            if (!k)
                snprintf(selection.ignored + strlen(selection.ignored),
                         sizeof selection.ignored - strlen(selection.ignored), " (kernels: %s)",
                         names);
        }
    }
    if (!selection.kernel) {
        int preferred = 0, candidates = 0;
        for (int k = 0; k < NKERNELS; k++)
            if (kernel_table[k].available()) {
                preferred = k;
                candidates += kernel_table[k].candidate;
            }
        if (candidates > 1 && kernel_table[preferred].candidate)
            kernel_measure(preferred);
        else {
            selection.kernel = &kernel_table[preferred];
            selection.how = "default";
        }
    }
    selection.seconds = mulred_wtime() - t0;
    atomic_store_explicit(&active_kernel, selection.kernel, memory_order_release);
}

const num3072_kernel *num3072_kernel_active(void)
{
    const num3072_kernel *k = atomic_load_explicit(&active_kernel, memory_order_acquire);
    if (k) return k;
    pthread_once(&selection_once, kernel_choose);
    return atomic_load_explicit(&active_kernel, memory_order_acquire);
}

const char *mulred_num3072_kernel_ignored(void)
{
    return atomic_load_explicit(&active_kernel, memory_order_acquire) ? selection.ignored : "";
}

const num3072_selection *num3072_kernel_selection(void)
{
    num3072_kernel_active();
    return &selection;
}

int num3072_kernel_select(const char *name)
{
    const num3072_kernel *k = num3072_kernel_find(name);
    if (!k || !k->available()) return -1;
    num3072_kernel_active(); /* the first choice happens once, before any override */
    atomic_store_explicit(&active_kernel, k, memory_order_release);
    return 0;
}

const char *mulred_num3072_kernel_name(void)
{
    return num3072_kernel_active()->name;
}

void mulred_num3072_set_one(mulred_num3072 *r)
{
    memset(r, 0, sizeof *r);
    r->limb[0] = 1;
}

bool mulred_num3072_is_one(const mulred_num3072 *a)
{
    if (a->limb[0] != 1) return false;
    uint64_t any = 0; /* no early exit: a branch-free OR of 47 limbs vectorises */
    for (int i = 1; i < MULRED_NUM3072_LIMBS; i++) any |= a->limb[i];
    return any == 0;
}

void num3072_mul_always(mulred_num3072 *r, const mulred_num3072 *a, const mulred_num3072 *b)
{
    num3072_kernel_active()->mul(r->limb, a->limb, b->limb);
}

void mulred_num3072_mul(mulred_num3072 *r, const mulred_num3072 *a, const mulred_num3072 *b)
{
    if (mulred_num3072_is_one(a)) {
        if (r != b) *r = *b;
    } else if (mulred_num3072_is_one(b)) {
        if (r != a) *r = *a;
    } else {
        num3072_kernel_active()->mul(r->limb, a->limb, b->limb);
    }
}

void num3072_mul_many(mulred_num3072 *acc, const uint64_t *const x[], size_t n, bool short_circuit)
{
    if (n == 0) return;
    const num3072_kernel *k = num3072_kernel_active();
    if (short_circuit && mulred_num3072_is_one(acc)) {
        /* 1·x0·x1 = x0·x1: one multiply straight into acc, no copy of x0 first */
        if (n == 1)
            memcpy(acc->limb, x[0], sizeof acc->limb);
        else
            k->mul(acc->limb, x[0], x[1]);
        x += n == 1 ? 1 : 2;
        n -= n == 1 ? 1 : 2;
    }
    if (n == 0) return;
    if (k->mul_many)
        k->mul_many(acc->limb, x, n);
    else
        for (size_t j = 0; j < n; j++) k->mul(acc->limb, acc->limb, x[j]);
}

void mulred_num3072_reduce(mulred_num3072 *r, const mulred_num3072 *a)
{
    if (r != a) *r = *a;
    if (num3072_is_overflow(r->limb)) num3072_sub_p(r->limb);
}

void mulred_num3072_inverse(mulred_num3072 *r, const mulred_num3072 *a)
{
    /* Once per finalize: GMP's mpz_invert (docs/kernels.md has its cost). */
    mpz_t x, p, inv;
    mulred_num3072 t;
    mulred_num3072_reduce(&t, a);
    mpz_roinit_n(x, (const mp_limb_t *)t.limb, MULRED_NUM3072_LIMBS);
    mpz_init_set_ui(p, 1);
    mpz_mul_2exp(p, p, 3072);
    mpz_sub_ui(p, p, MULRED_NUM3072_C);
    mpz_init(inv);
    memset(r, 0, sizeof *r);
    if (mpz_sgn(x) != 0 && mpz_invert(inv, x, p)) {
        size_t n = mpz_size(inv);
        memcpy(r->limb, mpz_limbs_read(inv), n * sizeof(uint64_t));
    }
    mpz_clear(inv);
    mpz_clear(p);
}

void mulred_num3072_from_bytes(mulred_num3072 *r, const uint8_t in[384])
{
    for (int i = 0; i < MULRED_NUM3072_LIMBS; i++) r->limb[i] = mulred_load_le64(in + 8 * i);
}

void mulred_num3072_to_bytes(uint8_t out[384], const mulred_num3072 *a)
{
    for (int i = 0; i < MULRED_NUM3072_LIMBS; i++) mulred_store_le64(out + 8 * i, a->limb[i]);
}

/* Arithmetic mod p = 2^3072 − 1103717 on 48 64-bit limbs.
 *
 * Reduction: a 6144-bit product H·2^3072 + L ≡ L + H·C (C = 1103717 < 2^21). One fold leaves
 * at most 3072 + 22 bits; the second fold of that small excess leaves at most one carry, worth
 * another +C; a final conditional subtraction of p gives a result < p. Cost on top of the
 * 48×48-limb product: one mpn_mul_1 and a few additions (≈ 6% of mpn_mul_n).
 *
 * The identity short-circuit: multiplying by 1 is a copy. Identity-seeded partials (one per
 * thread, per rank, per transaction) make this case frequent; without it every partial costs
 * a full multiply against 1. */
#include "num3072/num3072.h"
#include "num3072/num3072_kernels.h"

#include <gmp.h>
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

/* From slowest to fastest, as measured on AMD EPYC (Zen 5) by mulred bench muhash:
 * gmp 1.02 x mpn_mul_n, mulx (Karatsuba over a 24-limb MULX/ADX basecase) 0.78 x,
 * ifma (60 × 52-bit limbs, AVX-512 IFMA) 0.23 x. */
static const num3072_kernel kernel_table[] = {
    {"gmp", num3072_mul_gmp, kernel_always},
    {"mulx", mulred_num3072_mul_mulx, mulred_num3072_kernels_have_mulx},
    {"ifma", mulred_num3072_mul_ifma, mulred_num3072_kernels_have_ifma},
};

const num3072_kernel *num3072_kernels(int *count)
{
    *count = (int)(sizeof kernel_table / sizeof kernel_table[0]);
    return kernel_table;
}

const num3072_kernel *num3072_kernel_find(const char *name)
{
    int n;
    const num3072_kernel *k = num3072_kernels(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(k[i].name, name) == 0) return &k[i];
    return NULL;
}

static _Atomic(const num3072_kernel *) active_kernel;

static const num3072_kernel *kernel_autoselect(void)
{
    const char *forced = getenv("MULRED_KERNEL");
    if (forced && *forced) {
        const num3072_kernel *k = num3072_kernel_find(forced);
        if (k && k->available()) return k;
        fprintf(stderr, "mulred: MULRED_KERNEL=%s is %s; using the default kernel\n", forced,
                k ? "not supported by this CPU" : "unknown (gmp, mulx, ifma)");
    }
    /* The table lists kernels from slowest to fastest (measured, see num3072_kernels). */
    int n;
    const num3072_kernel *k = num3072_kernels(&n);
    for (int i = n - 1; i > 0; i--)
        if (k[i].available()) return &k[i];
    return &k[0];
}

const num3072_kernel *num3072_kernel_active(void)
{
    const num3072_kernel *k = atomic_load_explicit(&active_kernel, memory_order_acquire);
    if (!k) {
        k = kernel_autoselect();
        atomic_store_explicit(&active_kernel, k, memory_order_release);
    }
    return k;
}

int num3072_kernel_select(const char *name)
{
    const num3072_kernel *k = num3072_kernel_find(name);
    if (!k || !k->available()) return -1;
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
    for (int i = 1; i < MULRED_NUM3072_LIMBS; i++)
        if (a->limb[i]) return false;
    return true;
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

void mulred_num3072_reduce(mulred_num3072 *r, const mulred_num3072 *a)
{
    if (r != a) *r = *a;
    if (num3072_is_overflow(r->limb)) num3072_sub_p(r->limb);
}

void mulred_num3072_inverse(mulred_num3072 *r, const mulred_num3072 *a)
{
    /* Once per finalize: GMP's mpz_invert (≈ 18 µs for 3072 bits). */
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

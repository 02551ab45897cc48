/* mulred bench fieldx8: 8-lane IFMA field kernels against scalar Montgomery multiplies measured
 * in the same run.
 *
 * The baselines are written here, independent of the field layer's scalar kernels: the CIOS
 * Montgomery multiply (R = 2^(64n), output fully reduced) for n = 6 and n = 4 limbs, once in
 * portable C with unsigned __int128 and once with the MULX / ADC intrinsics. The headline ratio
 * is "8-lane multiply per element / scalar multiply", both as throughput (independent
 * operations in flight, what batch-affine addition does) and as a dependent chain. */
#include "bench_field_x8.h"

#include <gmp.h>
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "field/field_x8.h"
#include "mulred/field.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

typedef unsigned __int128 u128;

/* ---- scalar baselines ------------------------------------------------------------------------ */

typedef struct {
    uint64_t p[6];
    uint64_t n0; /* -p^-1 mod 2^64 */
    int n;
} scalar_field;

/* CIOS: t = (t + a b_i + m p) / 2^64 per limb of b, then one conditional subtraction. */
static inline __attribute__((always_inline)) void
mont_mul_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const scalar_field *f, const int n)
{
    uint64_t t[8] = {0};
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        u128 c = 0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) {
            c = (u128)a[j] * b[i] + t[j] + (uint64_t)(c >> 64);
            t[j] = (uint64_t)c;
        }
        c = (u128)t[n] + (uint64_t)(c >> 64);
        t[n] = (uint64_t)c;
        t[n + 1] = (uint64_t)(c >> 64);
        const uint64_t m = t[0] * f->n0;
        c = (u128)m * f->p[0] + t[0];
#pragma GCC unroll 8
        for (int j = 1; j < n; j++) {
            c = (u128)m * f->p[j] + t[j] + (uint64_t)(c >> 64);
            t[j - 1] = (uint64_t)c;
        }
        c = (u128)t[n] + (uint64_t)(c >> 64);
        t[n - 1] = (uint64_t)c;
        t[n] = t[n + 1] + (uint64_t)(c >> 64);
    }
    uint64_t s[8], borrow = 0;
    for (int j = 0; j < n; j++) {
        u128 d = (u128)t[j] - f->p[j] - borrow;
        s[j] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    const uint64_t keep = 0 - (uint64_t)(borrow > t[n]); /* t < p: keep t */
    for (int j = 0; j < n; j++) r[j] = (t[j] & keep) | (s[j] & ~keep);
}

#define MULX_TARGET __attribute__((target("bmi2,adx")))

/* CIOS with MULX: each row's products are formed first, then added with single-flag ADC chains
 * (low halves, then high halves one word up), which is what gcc compiles well from intrinsics. */
static inline __attribute__((always_inline)) MULX_TARGET void
mont_mul_mulx(uint64_t *r, const uint64_t *a, const uint64_t *b, const scalar_field *f, const int n)
{
    unsigned long long t[8] = {0}, lo[8], hi[8];
    unsigned char c;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) lo[j] = _mulx_u64(a[j], b[i], &hi[j]);
        c = 0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) c = _addcarry_u64(c, t[j], lo[j], &t[j]);
        c = _addcarry_u64(c, t[n], 0, &t[n]);
        t[n + 1] = c;
        c = 0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) c = _addcarry_u64(c, t[j + 1], hi[j], &t[j + 1]);
        t[n + 1] += c;
        const unsigned long long m = t[0] * f->n0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) lo[j] = _mulx_u64(m, f->p[j], &hi[j]);
        c = 0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) c = _addcarry_u64(c, t[j], lo[j], &t[j]); /* t[0] -> 0 */
        c = _addcarry_u64(c, t[n], 0, &t[n]);
        t[n + 1] += c;
        c = 0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) c = _addcarry_u64(c, t[j + 1], hi[j], &t[j]); /* shift down */
        c = _addcarry_u64(c, t[n + 1], 0, &t[n]);
        t[n + 1] = 0;
    }
    unsigned long long s[8];
    unsigned char borrow = 0;
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) borrow = _subborrow_u64(borrow, t[j], f->p[j], &s[j]);
    const uint64_t keep = 0 - (uint64_t)(borrow > t[n]);
#pragma GCC unroll 8
    for (int j = 0; j < n; j++) r[j] = (t[j] & keep) | (s[j] & ~keep);
}

static scalar_field sf381, sf254;

static __attribute__((noinline)) void mul6_c(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_mul_c(r, a, b, &sf381, 6);
}
static __attribute__((noinline)) void mul4_c(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_mul_c(r, a, b, &sf254, 4);
}
static __attribute__((noinline)) MULX_TARGET void mul6_mulx(uint64_t *r, const uint64_t *a,
                                                            const uint64_t *b)
{
    mont_mul_mulx(r, a, b, &sf381, 6);
}
static __attribute__((noinline)) MULX_TARGET void mul4_mulx(uint64_t *r, const uint64_t *a,
                                                            const uint64_t *b)
{
    mont_mul_mulx(r, a, b, &sf254, 4);
}

static void scalar_field_init(scalar_field *f, const mulred_fieldx8_consts *c)
{
    f->n = c->words64;
    memcpy(f->p, c->p64, sizeof f->p);
    uint64_t inv = c->p64[0]; /* Newton: 3 -> 96 correct bits */
    for (int k = 0; k < 5; k++) inv *= 2 - c->p64[0] * inv;
    f->n0 = 0 - inv;
}

/* ---- operations timed ---------------------------------------------------------------------- */

#define BATCH_INV_N 128 /* x8 values per chain: 1024 elements */

typedef struct {
    int field; /* 0: BLS12-381, 1: BN254 */
    void (*smul)(uint64_t *, const uint64_t *, const uint64_t *);
    uint64_t sa[8][8], sb[8][8], sr[8][8];
    mulred_fp381x8 a381[8], b381[8], r381[8];
    mulred_fp254x8 a254[8], b254[8], r254[8];
    mulred_fp2_381 f2a381[8], f2b381[8], f2r381[8];
    mulred_fp2_254 f2a254[8], f2b254[8], f2r254[8];
    mulred_fp2_381x8 x2a381[8], x2b381[8], x2r381[8];
    mulred_fp2_254x8 x2a254[8], x2b254[8], x2r254[8];
    uint64_t words[8][8];
    const uint64_t *src[8];
    uint64_t *dst[8];
    mulred_fp381x8 *bi381, *bs381;
    mulred_fp254x8 *bi254, *bs254;
    void *scratch;
    unsigned next;
} op_arg;

static void op_smul_chain(void *v)
{
    op_arg *o = v;
    o->smul(o->sa[0], o->sa[0], o->sb[0]);
}
static void op_smul_tput(void *v) /* 8 products */
{
    op_arg *o = v;
    for (int k = 0; k < 8; k++) o->smul(o->sr[k], o->sa[k], o->sb[k]);
}

/* x8 operations: one body per field and operation */
#define X8_OPS(F, T)                                                                               \
    static void op_mul_chain_##F(void *v)                                                          \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_##F##_mul(&o->a##T[0], &o->a##T[0], &o->b##T[0]);                                   \
    }                                                                                              \
    static void op_mul_##F(void *v) /* 8 batches = 64 elements */                                  \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        for (int k = 0; k < 8; k++) mulred_##F##_mul(&o->r##T[k], &o->a##T[k], &o->b##T[k]);       \
    }                                                                                              \
    static void op_sqr_##F(void *v)                                                                \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        for (int k = 0; k < 8; k++) mulred_##F##_sqr(&o->r##T[k], &o->a##T[k]);                    \
    }                                                                                              \
    static void op_add_##F(void *v)                                                                \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        for (int k = 0; k < 8; k++) mulred_##F##_add(&o->r##T[k], &o->a##T[k], &o->b##T[k]);       \
    }                                                                                              \
    static void op_sub_##F(void *v)                                                                \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        for (int k = 0; k < 8; k++) mulred_##F##_sub(&o->r##T[k], &o->a##T[k], &o->b##T[k]);       \
    }                                                                                              \
    static void op_load_##F(void *v) /* 8 elements */                                              \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_##F##_load(&o->r##T[0], o->src);                                                    \
    }                                                                                              \
    static void op_store_##F(void *v)                                                              \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_##F##_store(o->dst, &o->a##T[1]);                                                   \
    }                                                                                              \
    static void op_inv_##F(void *v)                                                                \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_##F##_inv(&o->r##T[0], &o->a##T[2]);                                                \
    }                                                                                              \
    static void op_batch_inv_##F(void *v) /* BATCH_INV_N x8 values */                              \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_##F##_batch_inv(o->bs##T, o->bi##T, BATCH_INV_N, o->scratch);                       \
    }                                                                                              \
    static void op_inv_var_##F(void *v) /* lanes differ from call to call */                       \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_##F##_inv_var(&o->r##T[0], &o->a##T[(o->next++) & 7]);                              \
    }                                                                                              \
    static void op_batch_inv_var_##F(void *v)                                                      \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_##F##_batch_inv_var(o->bs##T, o->bi##T, BATCH_INV_N, o->scratch);                   \
    }

X8_OPS(fp381x8, 381)
X8_OPS(fp254x8, 254)

/* Fp2: the library's scalar multiply (8 independent products) and the 8-lane kernels */
#define FP2_OPS(T)                                                                                 \
    static void op_f2mul_##T(void *v)                                                              \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        for (int k = 0; k < 8; k++)                                                                \
            mulred_fp2_##T##_mul(&o->f2r##T[k], &o->f2a##T[k], &o->f2b##T[k]);                     \
    }                                                                                              \
    static void op_f2mul_x8_##T(void *v) /* 64 elements */                                         \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        for (int k = 0; k < 8; k++)                                                                \
            mulred_fp2_##T##x8_mul(&o->x2r##T[k], &o->x2a##T[k], &o->x2b##T[k]);                   \
    }                                                                                              \
    static void op_f2mul_x8_chain_##T(void *v)                                                     \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        mulred_fp2_##T##x8_mul(&o->x2a##T[0], &o->x2a##T[0], &o->x2b##T[0]);                       \
    }                                                                                              \
    static void op_f2sqr_x8_##T(void *v)                                                           \
    {                                                                                              \
        op_arg *o = v;                                                                             \
        for (int k = 0; k < 8; k++) mulred_fp2_##T##x8_sqr(&o->x2r##T[k], &o->x2a##T[k]);          \
    }                                                                                              \
    static void fp2_setup_##T(op_arg *o, int ifma)                                                 \
    {                                                                                              \
        const size_t w = sizeof o->f2a##T[0].c0;                                                   \
        for (int k = 0; k < 8; k++) {                                                              \
            memcpy(&o->f2a##T[k].c0, o->sa[k], w);                                                 \
            memcpy(&o->f2a##T[k].c1, o->sb[(k + 1) % 8], w);                                       \
            memcpy(&o->f2b##T[k].c0, o->sb[k], w);                                                 \
            memcpy(&o->f2b##T[k].c1, o->sa[(k + 5) % 8], w);                                       \
        }                                                                                          \
        if (!ifma) return;                                                                         \
        const uint64_t *src[8];                                                                    \
        for (int k = 0; k < 8; k++) {                                                              \
            for (int j = 0; j < 8; j++) src[j] = (const uint64_t *)&o->f2a##T[(k + j) % 8];        \
            mulred_fp2_##T##x8_load(&o->x2a##T[k], src);                                           \
            for (int j = 0; j < 8; j++) src[j] = (const uint64_t *)&o->f2b##T[(k + 3 * j) % 8];    \
            mulred_fp2_##T##x8_load(&o->x2b##T[k], src);                                           \
        }                                                                                          \
    }

FP2_OPS(381)
FP2_OPS(254)

static uint64_t rng_state = 0x243f6a8885a308d3u;
static uint64_t rng(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    uint64_t x = rng_state;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9u;
    return x ^ (x >> 32);
}

/* Random scalar-form values below p (the top word masked below p's). */
static void random_scalar(uint64_t *w, const scalar_field *f)
{
    for (int i = 0; i < f->n; i++) w[i] = rng();
    w[f->n - 1] %= f->p[f->n - 1];
}

/* The baselines must compute what they claim: r R64 == a b (mod p) by GMP, the MULX one equal
 * to the C one, and the x8 path (load, mul, store) equal too, on `n` random pairs per field.
 * Returns 0, or 1 after printing what differed. */
static int baselines_check(int n)
{
    const int ifma = mulred_fieldx8_have_ifma();
    const int mulx = mulred_cpu()->bmi2 && mulred_cpu()->adx;
    mpz_t p, x, y, z;
    mpz_inits(p, x, y, z, NULL);
    int bad = 0;
    for (int f = 0; f < 2 && !bad; f++) {
        const scalar_field *sf = f ? &sf254 : &sf381;
        mpz_import(p, (size_t)sf->n, -1, 8, 0, 0, sf->p);
        for (int it = 0; it < n && !bad; it++) {
            uint64_t a[8][6], b[8][6], r[6], r2[6], rx[8][6];
            for (int k = 0; k < 8; k++) random_scalar(a[k], sf), random_scalar(b[k], sf);
            (f ? mul4_c : mul6_c)(r, a[0], b[0]);
            mpz_import(x, (size_t)sf->n, -1, 8, 0, 0, r);
            bad |= mpz_cmp(x, p) >= 0;                     /* fully reduced */
            mpz_mul_2exp(x, x, (mp_bitcnt_t)(64 * sf->n)); /* r R64 - a b == 0 (mod p) */
            mpz_import(y, (size_t)sf->n, -1, 8, 0, 0, a[0]);
            mpz_import(z, (size_t)sf->n, -1, 8, 0, 0, b[0]);
            mpz_submul(x, y, z);
            bad |= !mpz_divisible_p(x, p);
            if (mulx) {
                (f ? mul4_mulx : mul6_mulx)(r2, a[0], b[0]);
                bad |= memcmp(r, r2, (size_t)sf->n * 8) != 0;
            }
            if (ifma) {
                const uint64_t *sa[8], *sb[8];
                uint64_t *d[8];
                for (int k = 0; k < 8; k++) sa[k] = a[k], sb[k] = b[k], d[k] = rx[k];
                if (f) {
                    mulred_fp254x8 u, v;
                    mulred_fp254x8_load(&u, sa), mulred_fp254x8_load(&v, sb);
                    mulred_fp254x8_mul(&u, &u, &v);
                    mulred_fp254x8_store(d, &u);
                } else {
                    mulred_fp381x8 u, v;
                    mulred_fp381x8_load(&u, sa), mulred_fp381x8_load(&v, sb);
                    mulred_fp381x8_mul(&u, &u, &v);
                    mulred_fp381x8_store(d, &u);
                }
                for (int k = 0; k < 8; k++) {
                    (f ? mul4_c : mul6_c)(r2, a[k], b[k]);
                    bad |= memcmp(rx[k], r2, (size_t)sf->n * 8) != 0;
                }
            }
            if (bad)
                fprintf(stderr, "mulred: bench fieldx8: %s baselines disagree\n",
                        f ? "bn254" : "bls12_381");
        }
    }
    mpz_clears(p, x, y, z, NULL);
    return bad;
}

mulred_status bench_fieldx8_measure(bench_fieldx8_row rows[2], int samples)
{
    scalar_field_init(&sf381, mulred_fp381x8_consts);
    scalar_field_init(&sf254, mulred_fp254x8_consts);
    if (baselines_check(1000)) return MULRED_ERUNTIME;
    const int ifma = mulred_fieldx8_have_ifma();
    const int mulx = mulred_cpu()->bmi2 && mulred_cpu()->adx;
    op_arg *o = aligned_alloc(64, (sizeof(op_arg) + 63) / 64 * 64);
    if (!o) abort();
    memset(o, 0, sizeof *o);
    for (int f = 0; f < 2; f++) {
        bench_fieldx8_row *row = &rows[f];
        const scalar_field *sf = f ? &sf254 : &sf381;
        memset(row, 0, sizeof *row);
        row->curve = f ? "bn254" : "bls12_381";
        row->limbs64 = sf->n;
        for (int k = 0; k < 8; k++) {
            random_scalar(o->sa[k], sf);
            random_scalar(o->sb[k], sf);
            random_scalar(o->words[k], sf);
            o->src[k] = o->words[(k * 5) % 8]; /* scattered, not in order */
            o->dst[k] = o->sr[(k * 3) % 8];
        }
        o->smul = f ? mul4_c : mul6_c;
        row->mul_c_ns = bench_median_ns(op_smul_chain, o, 2000, samples);
        row->mul_c_tput_ns = bench_median_ns(op_smul_tput, o, 250, samples) / 8;
        if (mulx) {
            o->smul = f ? mul4_mulx : mul6_mulx;
            row->mul_mulx_ns = bench_median_ns(op_smul_chain, o, 2000, samples);
            row->mul_mulx_tput_ns = bench_median_ns(op_smul_tput, o, 250, samples) / 8;
        }
        if (f)
            fp2_setup_254(o, ifma);
        else
            fp2_setup_381(o, ifma);
        row->fp2_mul_ns = bench_median_ns(f ? op_f2mul_254 : op_f2mul_381, o, 250, samples) / 8;
        if (!ifma) continue;
        const uint64_t *src[8];
        for (int k = 0; k < 8; k++) {
            for (int j = 0; j < 8; j++) src[j] = o->sa[(k + j) % 8];
            if (f) {
                mulred_fp254x8_load(&o->a254[k], src);
            } else {
                mulred_fp381x8_load(&o->a381[k], src);
            }
            for (int j = 0; j < 8; j++) src[j] = o->sb[(k + 3 * j) % 8];
            if (f) {
                mulred_fp254x8_load(&o->b254[k], src);
            } else {
                mulred_fp381x8_load(&o->b381[k], src);
            }
        }
        size_t n = BATCH_INV_N;
        if (f) {
            o->bi254 = aligned_alloc(64, n * sizeof(mulred_fp254x8));
            o->bs254 = aligned_alloc(64, n * sizeof(mulred_fp254x8));
            o->scratch = aligned_alloc(64, mulred_fp254x8_batch_inv_scratch_size(n));
            if (!o->bi254 || !o->bs254 || !o->scratch) abort();
            for (size_t i = 0; i < n; i++)
                mulred_fp254x8_mul(&o->bi254[i], &o->a254[i % 8], &o->b254[i / 8 % 8]);
        } else {
            o->bi381 = aligned_alloc(64, n * sizeof(mulred_fp381x8));
            o->bs381 = aligned_alloc(64, n * sizeof(mulred_fp381x8));
            o->scratch = aligned_alloc(64, mulred_fp381x8_batch_inv_scratch_size(n));
            if (!o->bi381 || !o->bs381 || !o->scratch) abort();
            for (size_t i = 0; i < n; i++)
                mulred_fp381x8_mul(&o->bi381[i], &o->a381[i % 8], &o->b381[i / 8 % 8]);
        }
#define MEASURE(F)                                                                                 \
    do {                                                                                           \
        row->mul_x8_ns = bench_median_ns(op_mul_##F, o, 100, samples) / 64;                        \
        row->mul_x8_chain_ns = bench_median_ns(op_mul_chain_##F, o, 800, samples) / 8;             \
        row->sqr_x8_ns = bench_median_ns(op_sqr_##F, o, 100, samples) / 64;                        \
        row->add_x8_ns = bench_median_ns(op_add_##F, o, 400, samples) / 64;                        \
        row->sub_x8_ns = bench_median_ns(op_sub_##F, o, 400, samples) / 64;                        \
        row->load_x8_ns = bench_median_ns(op_load_##F, o, 2000, samples) / 8;                      \
        row->store_x8_ns = bench_median_ns(op_store_##F, o, 2000, samples) / 8;                    \
        row->inv_x8_ns = bench_median_ns(op_inv_##F, o, 4, samples) / 8;                           \
        row->batch_inv_x8_ns =                                                                     \
            bench_median_ns(op_batch_inv_##F, o, 4, samples) / (8 * BATCH_INV_N);                  \
        row->inv_var_x8_ns = bench_median_ns(op_inv_var_##F, o, 40, samples) / 8;                  \
        row->batch_inv_var_x8_ns =                                                                 \
            bench_median_ns(op_batch_inv_var_##F, o, 4, samples) / (8 * BATCH_INV_N);              \
    } while (0)
#define MEASURE_FP2(T)                                                                             \
    do {                                                                                           \
        row->fp2_mul_x8_ns = bench_median_ns(op_f2mul_x8_##T, o, 50, samples) / 64;                \
        row->fp2_mul_x8_chain_ns = bench_median_ns(op_f2mul_x8_chain_##T, o, 400, samples) / 8;    \
        row->fp2_sqr_x8_ns = bench_median_ns(op_f2sqr_x8_##T, o, 50, samples) / 64;                \
    } while (0)
        if (f) {
            MEASURE(fp254x8);
            MEASURE_FP2(254);
            free(o->bi254), free(o->bs254);
        } else {
            MEASURE(fp381x8);
            MEASURE_FP2(381);
            free(o->bi381), free(o->bs381);
        }
#undef MEASURE
#undef MEASURE_FP2
        free(o->scratch);
    }
    free(o);
    return MULRED_OK;
}

/* ---- the command ------------------------------------------------------------------------------
 */

static void bench_fieldx8_usage(void)
{
    mulred_out("Usage: mulred bench fieldx8 [--samples N] [--json]\n\n"
               "The 8-lane AVX-512 IFMA field kernels (Fp of BLS12-381 and BN254) per element,\n"
               "beside scalar Montgomery multiplies (portable C and MULX) measured in the same\n"
               "run. One thread; medians of thread CPU time over N samples (default 15).\n"
               "  --samples N  timed batches per figure\n"
               "  --json       one JSON object, nested by curve, units in the names\n");
}

typedef struct {
    uint64_t samples;
    bool json;
} fieldx8_opts;

MULRED_KEY_COUNT(set_samples, fieldx8_opts, samples, 1, 100000)
MULRED_KEY_FLAG(set_json, fieldx8_opts, json)

static const mulred_key fieldx8_keys[] = {
    {"samples", false, false, false, set_samples},
    {"json", true, false, false, set_json},
};

/* One curve's figures: the JSON member (in the curve's object), the operation, ns and (printed
 * only) the ratio to the scalar C multiply. */
static const bench_column fieldx8_columns[] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "operation", NULL, BENCH_TEXT, 0},
    {"ns", "ns", "%.2f", BENCH_REAL, 0},
    {NULL, "vs scalar C mul", "%.2f", BENCH_REAL, 0},
};

static void x8_row(bench_table *t, const char *key, const char *label, double ns, double base)
{
    BENCH_ROW(t, BENCH_S(key), BENCH_S(label), BENCH_R(ns), BENCH_R(ns / base));
}

/* The figures of one curve: its object in w, or its Markdown table. */
static void print_curve(mulred_json_writer *w, const bench_fieldx8_row *r, int ifma)
{
    const double base = r->mul_c_tput_ns;
    bench_table t;
    if (w)
        mulred_jw_object_begin(w, r->curve);
    else
        mulred_out("\n%s (Fp, %d x 64-bit limbs scalar, %d x 52-bit limbs x8)\n\n", r->curve,
                   r->limbs64, r->limbs64 == 4 ? 5 : 8);
    bench_table_begin(&t, w, NULL, fieldx8_columns,
                      sizeof fieldx8_columns / sizeof fieldx8_columns[0]);
    x8_row(&t, "fp_mul_c_ns", "scalar mul, portable C, chain", r->mul_c_ns, base);
    x8_row(&t, "fp_mul_c_tput_ns", "scalar mul, portable C, independent", r->mul_c_tput_ns, base);
    if (r->mul_mulx_ns) {
        x8_row(&t, "fp_mul_mulx_ns", "scalar mul, MULX, chain", r->mul_mulx_ns, base);
        x8_row(&t, "fp_mul_mulx_tput_ns", "scalar mul, MULX, independent", r->mul_mulx_tput_ns,
               base);
    }
    x8_row(&t, "fp2_mul_ns", "Fp2 scalar mul (library), independent", r->fp2_mul_ns, base);
    if (ifma) {
        char label[2][64];
        snprintf(label[0], sizeof label[0], "x8 batch inversion, 8 chains of %d, per element",
                 BATCH_INV_N);
        snprintf(label[1], sizeof label[1], "x8 batch inversion, gcd, 8 chains of %d, per el.",
                 BATCH_INV_N);
        x8_row(&t, "fp_mul_x8_ns", "x8 mul per element, independent", r->mul_x8_ns, base);
        x8_row(&t, "fp_mul_x8_chain_ns", "x8 mul per element, chain", r->mul_x8_chain_ns, base);
        x8_row(&t, "fp_sqr_x8_ns", "x8 sqr per element", r->sqr_x8_ns, base);
        x8_row(&t, "fp_add_x8_ns", "x8 add per element", r->add_x8_ns, base);
        x8_row(&t, "fp_sub_x8_ns", "x8 sub per element", r->sub_x8_ns, base);
        x8_row(&t, "fp_load_x8_ns", "x8 load (scalar form -> x8) per element", r->load_x8_ns, base);
        x8_row(&t, "fp_store_x8_ns", "x8 store (x8 -> scalar form) per element", r->store_x8_ns,
               base);
        x8_row(&t, "fp_inv_x8_ns", "x8 inversion (Fermat) per element", r->inv_x8_ns, base);
        x8_row(&t, "fp_batch_inv_x8_ns", label[0], r->batch_inv_x8_ns, base);
        x8_row(&t, "fp_inv_var_x8_ns", "x8 inversion, gcd (variable-time) per element",
               r->inv_var_x8_ns, base);
        x8_row(&t, "fp_batch_inv_var_x8_ns", label[1], r->batch_inv_var_x8_ns, base);
        x8_row(&t, "fp2_mul_x8_ns", "Fp2 x8 mul per element, independent", r->fp2_mul_x8_ns, base);
        x8_row(&t, "fp2_mul_x8_chain_ns", "Fp2 x8 mul per element, chain", r->fp2_mul_x8_chain_ns,
               base);
        x8_row(&t, "fp2_sqr_x8_ns", "Fp2 x8 sqr per element", r->fp2_sqr_x8_ns, base);
    }
    bench_table_end(&t);
    const double best_tput =
        r->mul_mulx_tput_ns && r->mul_mulx_tput_ns < base ? r->mul_mulx_tput_ns : base;
    const double best_chain =
        r->mul_mulx_ns && r->mul_mulx_ns < r->mul_c_ns ? r->mul_mulx_ns : r->mul_c_ns;
    if (ifma) {
        if (!w) mulred_out("\n");
        bench_table_begin(&t, w, NULL, bench_figure_columns, BENCH_NCOLS(bench_figure_columns));
        bench_figure_row(&t, "ratio_mul_x8_to_best_scalar",
                         "x8 mul per element / best scalar mul, independent",
                         r->mul_x8_ns / best_tput);
        bench_figure_row(&t, NULL, "x8 mul per element / best scalar mul, chains",
                         r->mul_x8_chain_ns / best_chain);
        bench_figure_row(&t, "ratio_fp2_mul_x8_to_scalar",
                         "Fp2 x8 mul per element / Fp2 scalar mul, independent",
                         r->fp2_mul_x8_ns / r->fp2_mul_ns);
        bench_table_end(&t);
    }
    if (w) mulred_jw_object_end(w);
}

mulred_exit mulred_bench_fieldx8(int argc, char **argv)
{
    fieldx8_opts o = {15, false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    const bool run = bench_options(
        "fieldx8",
        &(const mulred_key_table){fieldx8_keys, sizeof fieldx8_keys / sizeof fieldx8_keys[0], &o},
        argc, argv, bench_fieldx8_usage, &p, &rc);
    mulred_key_parser_free(&p);
    if (!run) return rc;
    bench_fieldx8_row rows[2];
    int st = bench_fieldx8_measure(rows, (int)o.samples);
    if (st) return st;
    const int ifma = mulred_fieldx8_have_ifma();
    mulred_json_writer jw, *w = o.json ? &jw : NULL;
    if (w) {
        mulred_jw_init(w, stdout);
        mulred_jw_object_begin(w, NULL);
        mulred_jw_string(w, "cpu", mulred_cpu_describe());
        mulred_jw_int(w, "cpu_family", mulred_out_cpu_family());
        mulred_jw_bool(w, "ifma", ifma);
        mulred_jw_int(w, "samples", (int64_t)o.samples);
    } else {
        mulred_out("Field kernels, one thread, medians of thread CPU time over %d samples\n"
                   "(cpu family %d; %s)\n",
                   (int)o.samples, mulred_out_cpu_family(), mulred_cpu_describe());
        if (!ifma)
            mulred_out("The CPU lacks AVX-512 IFMA: only the scalar baselines are measured.\n");
    }
    for (int f = 0; f < 2; f++) print_curve(w, &rows[f], ifma);
    if (w) {
        mulred_jw_object_end(w);
        mulred_jw_finish(w);
    }
    return MULRED_OK;
}

/* The 8-lane rows of mulred bench curve (bench.h): both fields measured once, on first use. */
int bench_field_x8_rows(int curve, bench_x8_rows *rows)
{
    static bench_fieldx8_row measured[2];
    static int state; /* 0 not yet, 1 measured, -1 failed */
    if (curve < 0 || curve > 1) return -1;
    if (state == 0) state = bench_fieldx8_measure(measured, 15) == MULRED_OK ? 1 : -1;
    if (state < 0 || measured[curve].mul_x8_ns <= 0) return -1; /* failed, or no IFMA */
    rows->fp_mul_x8_ns = measured[curve].mul_x8_ns;
    rows->fp_sqr_x8_ns = measured[curve].sqr_x8_ns;
    rows->fp_add_x8_ns = measured[curve].add_x8_ns;
    return 0;
}

/* The MSM kernels: msm_impl.h instantiated once per curve, with each curve's GLV constants and
 * cost model.
 *
 * GLV. Both curves have an endomorphism φ(x, y) = (βx, y) = λ·(x, y), β a cube root of unity in
 * Fp and λ one in Fr (λ² + λ + 1 ≡ 0 mod r). A scalar k < r is split as k ≡ k1 + k2·λ (mod r)
 * by Babai rounding against a short basis (a1, b1), (a2, b2) of the lattice {(x, y) : x + yλ ≡ 0}
 * (extended Euclid on (r, λ); a1·b2 − a2·b1 = r):
 *     c1 = round(k·b2 / r), c2 = round(−k·b1 / r),  k1 = k − c1·a1 − c2·a2,  k2 = −c1·b1 − c2·b2,
 * with the divisions by r replaced by g = round(2^384·b / r) and a shift (error below 2^−120).
 * Then (k1, k2) = f·basis with f ∈ [−1/2, 1/2]² (plus that error), so |k1| <= (|a1| + |a2|)/2 and
 * |k2| <= (|b1| + |b2|)/2: below 2^126.43 for BLS12-381 (basis (λ, −1), (1, λ + 1), λ = z² − 1)
 * and below 2^125.80 for BN254. The halves are computed in 192-bit two's complement (they are
 * small, so wrapping is exact), and their signs ride in bit 127 of each recoded half.
 * λ, β and the basis were derived from the curve parameters (β: the root of unity with
 * (βx, y) = λ·(x, y) on the generator); tests/test_msm.c checks each property with GMP and the
 * curve layer. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/field_internal.h"
#include "field/field_x8.h"
#include "msm/msm_internal.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

_Noreturn void msm_misuse(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mulred: msm: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* ---- GLV splitting ------------------------------------------------------------------------- */

typedef struct {
    uint64_t g1[5], g2[5];  /* round(2^384·b2 / r), round(−2^384·b1 / r) */
    uint64_t a1[3], a2[3];  /* the basis, as 192-bit integers (all four positive) */
    uint64_t nb1[3], b2[3]; /* −b1 and b2 */
} msm_glv_basis;

/* floor((k·g + 2^383) / 2^384), which is below 2^192. */
static void glv_round(uint64_t c[3], const uint64_t k[4], const uint64_t g[5])
{
    uint64_t t[9] = {0};
    for (int i = 0; i < 4; i++) {
        field_u128 carry = 0;
        for (int j = 0; j < 5; j++) {
            carry += (field_u128)k[i] * g[j] + t[i + j];
            t[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
        t[i + 5] = (uint64_t)carry;
    }
    field_u128 s = (field_u128)t[5] + (UINT64_C(1) << 63);
    uint64_t carry = (uint64_t)(s >> 64);
    for (int i = 6; i < 9; i++) {
        s = (field_u128)t[i] + carry;
        c[i - 6] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
}

/* r = a·b mod 2^192 */
static void mul192(uint64_t r[3], const uint64_t a[3], const uint64_t b[3])
{
    uint64_t t[3] = {0};
    for (int i = 0; i < 3; i++) {
        field_u128 carry = 0;
        for (int j = 0; i + j < 3; j++) {
            carry += (field_u128)a[i] * b[j] + t[i + j];
            t[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
    }
    memcpy(r, t, sizeof t);
}

static void sub192(uint64_t r[3], const uint64_t a[3], const uint64_t b[3])
{
    uint64_t borrow = 0;
    for (int i = 0; i < 3; i++) {
        const field_u128 x = (field_u128)a[i] - b[i] - borrow;
        r[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
}

/* A small two's-complement value: magnitude (< 2^127 here) and sign. */
static void split_sign(uint64_t mag[2], int *neg, const uint64_t v[3])
{
    *neg = (int)(v[2] >> 63);
    uint64_t x[3] = {v[0], v[1], v[2]};
    if (*neg) {
        const uint64_t zero[3] = {0, 0, 0};
        sub192(x, zero, x);
    }
    mag[0] = x[0];
    mag[1] = x[1];
}

static void glv_split_with(const msm_glv_basis *B, uint64_t k1[2], uint64_t k2[2], int *n1, int *n2,
                           const uint64_t k[4])
{
    uint64_t c1[3], c2[3], t[3], u[3];
    glv_round(c1, k, B->g1);
    glv_round(c2, k, B->g2);
    const uint64_t klo[3] = {k[0], k[1], k[2]};
    mul192(t, c1, B->a1);
    sub192(u, klo, t);
    mul192(t, c2, B->a2);
    sub192(u, u, t); /* k1 = k − c1·a1 − c2·a2 */
    split_sign(k1, n1, u);
    mul192(t, c1, B->nb1);
    mul192(u, c2, B->b2);
    sub192(u, t, u); /* k2 = c1·(−b1) − c2·b2 */
    split_sign(k2, n2, u);
}

static const msm_glv_basis GLV_381 = {
    .g1 = {0xda5e4f8d896c72da, 0x389f49a7268bf7a3, 0x63f6e522f6cfee30, 0x7c6becf1e01faadd, 1},
    .g2 = {0x38b5dcb707e08ed3, 0x355094edfede377c, 2, 0, 0},
    .a1 = {0x00000000ffffffff, 0xac45a4010001a402, 0}, /* λ */
    .a2 = {1, 0, 0},
    .nb1 = {1, 0, 0},
    .b2 = {0x0000000100000000, 0xac45a4010001a402, 0}, /* λ + 1 */
};
static const msm_glv_basis GLV_254 = {
    .g1 = {0x8fa7d32d2fafba64, 0x6eb9c714773a6ef2, 0xd91d232ec7e0b3d7, 2, 0},
    .g2 = {0x869375169b9bdffa, 0xa5e38cfb5eaa26d9, 0x7a7bd9d4391eb18d, 0x4ccef014a773d2cf, 2},
    .a1 = {0x89d3256894d213e3, 0, 0},
    .a2 = {0x0be4e1541221250b, 0x6f4d8248eeb859fd, 0},
    .nb1 = {0x8211bbeb7d4f1128, 0x6f4d8248eeb859fc, 0},
    .b2 = {0x89d3256894d213e3, 0, 0},
};

static void g1_381_msm_glv_split(uint64_t k1[2], uint64_t k2[2], int *n1, int *n2,
                                 const uint64_t k[4])
{
    glv_split_with(&GLV_381, k1, k2, n1, n2, k);
}
static void g1_254_msm_glv_split(uint64_t k1[2], uint64_t k2[2], int *n1, int *n2,
                                 const uint64_t k[4])
{
    glv_split_with(&GLV_254, k1, k2, n1, n2, k);
}

/* β in Montgomery form (the root with (βx, y) = λ·(x, y)). */
static const uint64_t BETA_381[6] = {0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95,
                                     0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2, 0x18f0206554638741};
static const uint64_t BETA_254[4] = {0x71930c11d782e155, 0xa6bb947cffbe3323, 0xaa303344d4741444,
                                     0x2c3b3f0d26594943};

/* ---- cost model ------------------------------------------------------------------------------ */

/* Nanoseconds per operation, measured on Zen 5 (see the table in bench/bench_msm.c, `mulred
 * bench msm --model`); the plan picks the window width, bucket form and GLV that minimise the
 * modelled time (msm_impl.h, model_window). */
typedef struct {
    double scan;          /* per point-digit read (once per bucket range) */
    double window;        /* fixed per window and bucket range */
    double dbl;           /* a Jacobian doubling (Horner: c per window) */
    double xyzz_add;      /* an XYZZ mixed addition (accumulation, side buckets) */
    double xyzz_full;     /* an XYZZ full addition (running sums) */
    double aff_add[2];    /* a batch-affine pair without its share of the inversion [scalar, x8] */
    double inv[2];        /* one batch inversion [scalar, x8] */
    double glv_factor;    /* a GLV pair costs this times a plain one (φ, two digits a point) */
    unsigned affine_from; /* the AUTO bucket form is AFFINE from this c up */
    unsigned batch_max;   /* the automatic batch */
    int glv_auto;         /* GLV considered by the automatic plan */
} msm_cost;

static const msm_cost COST_381 = {
    .scan = 3,
    .window = 2000,
    .dbl = 280,
    .xyzz_add = 380,
    .xyzz_full = 500,
    .aff_add = {240, 70},
    .inv = {4300, 3500},
    .glv_factor = 1.15,
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};
static const msm_cost COST_254 = {
    .scan = 3,
    .window = 1500,
    .dbl = 160,
    .xyzz_add = 220,
    .xyzz_full = 300,
    .aff_add = {98, 38},
    .inv = {5600, 3100},
    .glv_factor = 1.15,
    .affine_from = 7,
    .batch_max = 512,
    .glv_auto = 1,
};

/* ---- instances ----------------------------------------------------------------------------- */

#define G1           g1_381
#define FP           fp381
#define FX8          fp381x8
#define MSM_MAGIC    MSM_MAGIC_G1_381
#define MSM_NAME     "g1_381"
#define MSM_R        FR381_P
#define MSM_RBITS    255
#define MSM_GLV_BITS 127
#define MSM_BETA     BETA_381
#define MSM_COST     COST_381
#include "msm/msm_impl.h"
#undef G1
#undef FP
#undef FX8
#undef MSM_MAGIC
#undef MSM_NAME
#undef MSM_R
#undef MSM_RBITS
#undef MSM_GLV_BITS
#undef MSM_BETA
#undef MSM_COST

#define G1           g1_254
#define FP           fp254
#define FX8          fp254x8
#define MSM_MAGIC    MSM_MAGIC_G1_254
#define MSM_NAME     "g1_254"
#define MSM_R        FR254_P
#define MSM_RBITS    254
#define MSM_GLV_BITS 126
#define MSM_BETA     BETA_254
#define MSM_COST     COST_254
#include "msm/msm_impl.h"

/* Synthetic MSM sets, the scalar part (mulred/msm_io.h): scalars and discrete logarithms of
 * pair i as pure functions of (curve, seed, i). The points themselves are made in
 * msm_synth_threads.c from the logarithms drawn here.
 *
 * Stream layout (mulred_mix_stream(seed, index), 128 bits a call): item j of a kind draws
 * from indices tag + 8j .. tag + 8j + 7, two per attempt of the rejection sampling below, with
 * tag 0 for scalars, 2^62 for the block logarithms α and 2^63 for the in-block logarithms β.
 * Indices of different kinds never meet while j < 2^59. */
#include <string.h>

#include "mix/mix_stream.h"
#include "mulred/field.h"
#include "mulred/msm_io.h"
#include "util/check.h"

#define TAG_SCALAR 0
#define TAG_ALPHA  (UINT64_C(1) << 62)
#define TAG_BETA   (UINT64_C(1) << 63)

/* Is the 4-limb integer k below r? (The scalar field's own range check.) */
static bool below_r(const uint64_t k[4], mulred_curve c)
{
    if (mulred_curve_base(c) == MULRED_CURVE_BLS12_381) {
        mulred_fr381 t;
        return mulred_fr381_from_limbs(&t, k) == MULRED_OK;
    }
    mulred_fr254 t;
    return mulred_fr254_from_limbs(&t, k) == MULRED_OK;
}

/* Uniform below r: up to 4 draws of bits(r) bits, keeping the first below r (a draw fails with
 * probability 0.09 for BLS12-381's r, 0.25 for BN254's); after 4 failures (one set in 250 for
 * BN254) the last draw with its top bit cleared, which is below 2^(bits−1) < r. */
static void draw_below_r(uint64_t k[4], mulred_curve c, uint64_t seed, uint64_t base)
{
    const unsigned bits = mulred_curve_base(c) == MULRED_CURVE_BLS12_381 ? 255 : 254;
    const uint64_t top_mask = (UINT64_C(1) << (bits - 192)) - 1;
    for (unsigned attempt = 0; attempt < 4; attempt++) {
        const mulred_u128 lo = mulred_mix_stream(seed, base + 2 * attempt);
        const mulred_u128 hi = mulred_mix_stream(seed, base + 2 * attempt + 1);
        k[0] = lo.lo, k[1] = lo.hi, k[2] = hi.lo, k[3] = hi.hi & top_mask;
        if (below_r(k, c)) return;
    }
    k[3] &= top_mask >> 1;
}

static void check_index(mulred_curve c, uint64_t i)
{
    (void)mulred_curve_base(c); /* checks c */
    MULRED_CHECK(i < (UINT64_C(1) << 58), "synthetic pair %llu (at most 2^58)",
                 (unsigned long long)i);
}

void mulred_msm_synth_scalar(mulred_scalar256 *s, mulred_curve c, uint64_t seed, uint64_t i)
{
    check_index(c, i);
    draw_below_r(s->l, c, seed, TAG_SCALAR + 8 * i);
}

void mulred_msm_synth_dlog(uint64_t a[4], mulred_curve c, uint64_t seed, uint64_t i)
{
    check_index(c, i);
    uint64_t alpha[4], beta[4];
    draw_below_r(alpha, c, seed, TAG_ALPHA + 8 * (i / MULRED_MSM_SYNTH_BLOCK));
    draw_below_r(beta, c, seed, TAG_BETA + 8 * (i % MULRED_MSM_SYNTH_BLOCK));
    if (mulred_curve_base(c) == MULRED_CURVE_BLS12_381) {
        mulred_fr381 x, y;
        MULRED_CHECK(!mulred_fr381_from_limbs(&x, alpha) && !mulred_fr381_from_limbs(&y, beta),
                     "drawn logarithm not below r");
        mulred_fr381_add(&x, &x, &y);
        mulred_fr381_to_limbs(a, &x);
    } else {
        mulred_fr254 x, y;
        MULRED_CHECK(!mulred_fr254_from_limbs(&x, alpha) && !mulred_fr254_from_limbs(&y, beta),
                     "drawn logarithm not below r");
        mulred_fr254_add(&x, &x, &y);
        mulred_fr254_to_limbs(a, &x);
    }
}

/* The logarithms of the generation tables (msm_synth_threads.c): α_k of block k, β_j. */
void msm_synth_alpha(uint64_t a[4], mulred_curve c, uint64_t seed, uint64_t block)
{
    draw_below_r(a, c, seed, TAG_ALPHA + 8 * block);
}

void msm_synth_beta(uint64_t b[4], mulred_curve c, uint64_t seed, uint64_t j)
{
    draw_below_r(b, c, seed, TAG_BETA + 8 * j);
}

/* The MSM on G2 (include/mulred/msm.h's G2 section: the msm_impl.h template over Fp2) against
 * the mpz reference of g2_ref.c.
 *
 * Points are Pᵢ = aᵢ·G with known aᵢ (made by the curve layer, whose G2 operations test_g2.c
 * checks against the reference), so the expected sum is (Σ aᵢ·sᵢ mod r)·G: a sum of products in
 * mpz and one affine double-and-add over the reference's Fp2, independent of src/msm.
 *
 * Covered on both curves: n = 1…300 (sampled) and 2^12; both bucket forms and GLV on and off
 * at several widths; the traps of the G1 suite (one point, every scalar 0, infinity as input,
 * all points equal, P = ±Q inside one batch, scalars r, r ± 1, 2^256 − 1, 2^256 − r, the carry
 * out of the last window, the top window with c dividing the scalar bits, few distinct
 * points, small scalars, queues of several depths and a batch of 8); threads 1–3 giving the
 * same Jacobian bytes; calls nested in a parallel region and in tasks; the G2 point group. */
#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_ref.h"
#include "g2_ref.h"
#include "harness.h"
#include "mulred/curve.h"
#include "mulred/msm.h"

static void random_below(mpz_t z, const mpz_t m)
{
    uint64_t l[4];
    for (int i = 0; i < 4; i++) l[i] = test_rand64();
    ref_mpz_from_u256(z, l);
    mpz_mod(z, z, m);
}

static void random_scalar(mulred_scalar256 *s)
{
    for (int i = 0; i < 4; i++) s->l[i] = test_rand64();
}

#define TG     g2_381
#define TC     0
#define TRBITS 255
#include "test_msm_g2_impl.h"
#undef TG
#undef TC
#undef TRBITS

#define TG     g2_254
#define TC     1
#define TRBITS 254
#include "test_msm_g2_impl.h"
#undef TG
#undef TC
#undef TRBITS

void test_register(void)
{
    TEST_SUITE("msm g2", {"bls12-381 sizes", g2_381_m_sizes}, {"bn254 sizes", g2_254_m_sizes},
               {"bls12-381 traps", g2_381_m_traps}, {"bn254 traps", g2_254_m_traps},
               {"bls12-381 threads", g2_381_m_threads}, {"bn254 threads", g2_254_m_threads});
}

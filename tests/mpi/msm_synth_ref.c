/* The expected MSM of a synthetic set, for tests/mpi/msm_mpi.sh: prints the result of
 * `mulred msm --curve CURVE --synthetic N --seed SEED` as (Σ aᵢ·sᵢ mod r)·G, with aᵢ and sᵢ
 * the set's declared logarithms and scalars (mulred/msm_io.h) and everything else in mpz
 * (tests/curve_ref.c): no line of the MSM, the grid or the curve layer's formulas is used.
 * With a fourth argument "log", prints Σ aᵢ·sᵢ mod r itself in decimal instead (the logarithm of
 * the set's MSM to the generator, in G1 and G2 alike: tests/tools/msm_ref.py g2mul takes it).
 *   msm_synth_ref bls12-381|bn254 N SEED [log] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_ref.h"
#include "mulred/msm_grid.h"
#include "mulred/msm_io.h"

int main(int argc, char **argv)
{
    mulred_curve c;
    if ((argc != 4 && (argc != 5 || strcmp(argv[4], "log") != 0)) ||
        mulred_curve_parse(&c, argv[1])) {
        fprintf(stderr, "usage: msm_synth_ref bls12-381|bn254 N SEED [log]\n");
        return 1;
    }
    const uint64_t n = strtoull(argv[2], NULL, 0), seed = strtoull(argv[3], NULL, 0);
    const ref_curve *rc = ref_curve_get((int)c);
    mpz_t k, a, s;
    mpz_inits(k, a, s, NULL);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t al[4];
        mulred_scalar256 sc;
        mulred_msm_synth_dlog(al, c, seed, i);
        mulred_msm_synth_scalar(&sc, c, seed, i);
        ref_mpz_from_u256(a, al);
        ref_mpz_from_u256(s, sc.l);
        mpz_addmul(k, a, s);
    }
    mpz_mod(k, k, rc->r);
    if (argc == 5) {
        gmp_printf("%Zd\n", k);
        mpz_clears(k, a, s, NULL);
        return 0;
    }
    ref_point r;
    ref_point_init(&r);
    ref_mul(rc, &r, &rc->g, k);
    const size_t w = c == MULRED_CURVE_BLS12_381 ? 64 : 32;
    uint8_t out[128];
    memset(out, 0, sizeof out);
    if (!r.inf) {
        ref_mpz_to_be(out + w - rc->pbytes, rc->pbytes, r.x);
        ref_mpz_to_be(out + 2 * w - rc->pbytes, rc->pbytes, r.y);
    }
    for (size_t i = 0; i < 2 * w; i++) printf("%02x", out[i]);
    printf("\n");
    ref_point_clear(&r);
    mpz_clears(k, a, s, NULL);
    return 0;
}

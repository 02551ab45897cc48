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
 * same Jacobian bytes; calls nested in a parallel region and in tasks; the G2 point group. The
 * runs with GLV take the scalar batch path here; the 8-lane part (--part x8, CTest's
 * unit.test_msm_g2.x8: skipped without AVX-512 IFMA) runs them on the 8-lane one.
 * And the published EIP-2537 G2 vectors (tests/vectors/eip2537/, README.md there): G2ADD as an
 * MSM with scalars 1, 1 (without GLV and subgroup check: G2ADD checks neither, and one case
 * adds a point outside G2), G2MUL as an MSM of one pair, and the failing inputs of G2ADD,
 * G2MUL and G2MSM, each with the check the decoder must name. */
#include <gmp.h>
#include <jansson.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_ref.h"
#include "field/field_x8.h"
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

/* 1 while a case of the 8-lane part runs (the runs with GLV forced onto 8 lanes), else 0 */
static int x8_part;

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

/* ---- EIP-2537 vectors ---- */

/* The MSM of the records in `in` (288 bytes each: 256-byte point, 32-byte big-endian scalar),
 * as the precompile computes it; subgroup: check G2 membership (G2MUL, G2MSM) or not (G2ADD,
 * which then runs without GLV). Returns the decoder's reason of the first bad record, or
 * MULRED_DECODE_VALID with the 256-byte result in out; -1 for a bad length. */
static int eip2537_g2msm(uint8_t out[256], const uint8_t *in, size_t len, int subgroup)
{
    if (len == 0 || len % 288) return -1;
    const size_t n = len / 288;
    mulred_g2_381_affine *pts = malloc(n * sizeof *pts);
    mulred_scalar256 *s = calloc(n, sizeof *s);
    CU_ASSERT_FATAL(pts && s);
    for (size_t i = 0; i < n; i++) {
        mulred_decode_reason why;
        if (mulred_g2_381_decode_eip2537(&pts[i], in + 288 * i,
                                         subgroup ? 0 : MULRED_DECODE_SKIP_SUBGROUP_CHECK,
                                         &why) != MULRED_OK) {
            free(pts);
            free(s);
            return (int)why;
        }
        for (int b = 0; b < 32; b++)
            s[i].l[(31 - b) / 8] |= (uint64_t)in[288 * i + 256 + b] << (8 * ((31 - b) % 8));
    }
    mulred_msm_options o = {.glv = subgroup ? 0 : -1};
    mulred_g2_381_jacobian r;
    mulred_error err;
    CU_ASSERT(mulred_g2_381_msm_var(&r, pts, s, n, &o, 2, &err) == MULRED_OK);
    mulred_g2_381_affine a;
    mulred_g2_381_jacobian_to_affine(&a, &r);
    mulred_g2_381_encode_eip2537(out, &a);
    free(pts);
    free(s);
    return MULRED_DECODE_VALID;
}

static json_t *load_vectors(const char *name)
{
    json_error_t e;
    json_t *v = json_load_file(test_vector_path(name), 0, &e);
    if (!v) printf("\n    %s: %s (line %d)", name, e.text, e.line);
    CU_ASSERT_FATAL(v != NULL && json_is_array(v));
    return v;
}

/* Input as the MSM's records: G2ADD's two points get scalar 1 each. */
static uint8_t *records_of(const char *hex, int add, size_t *len)
{
    size_t n;
    uint8_t *raw = test_unhex(hex, &n);
    if (!add || n != 512) {
        *len = add && n ? n + 1 : n; /* a bad G2ADD length stays a bad record length */
        return raw;
    }
    uint8_t *rec = calloc(2, 288);
    CU_ASSERT_FATAL(rec != NULL);
    for (int i = 0; i < 2; i++) {
        memcpy(rec + 288 * i, raw + 256 * i, 256);
        rec[288 * i + 287] = 1;
    }
    free(raw);
    *len = 576;
    return rec;
}

static void t_eip2537_g2(void)
{
    static const char *ok_files[] = {"eip2537/add_G2_bls.json", "eip2537/mul_G2_bls.json"};
    size_t cases = 0;
    for (int f = 0; f < 2; f++) {
        json_t *v = load_vectors(ok_files[f]);
        size_t i;
        json_t *c;
        json_array_foreach(v, i, c)
        {
            const char *name = json_string_value(json_object_get(c, "Name"));
            size_t len, elen;
            uint8_t *in = records_of(json_string_value(json_object_get(c, "Input")), f == 0, &len);
            uint8_t *want = test_unhex(json_string_value(json_object_get(c, "Expected")), &elen);
            CU_ASSERT_FATAL(elen == 256);
            uint8_t got[256];
            const int why = eip2537_g2msm(got, in, len, f == 1);
            if (why != MULRED_DECODE_VALID || memcmp(got, want, 256) != 0)
                printf("\n    %s: %s (reason %d)", ok_files[f], name, why);
            CU_ASSERT(why == MULRED_DECODE_VALID && memcmp(got, want, 256) == 0);
            free(in);
            free(want);
            cases++;
        }
        json_decref(v);
    }
    CU_ASSERT(cases == 20);
    static const char *fail_files[] = {"eip2537/fail-add_G2_bls.json",
                                       "eip2537/fail-mul_G2_bls.json",
                                       "eip2537/fail-msm_G2_bls.json"};
    cases = 0;
    for (int f = 0; f < 3; f++) {
        json_t *v = load_vectors(fail_files[f]);
        size_t i;
        json_t *c;
        json_array_foreach(v, i, c)
        {
            const char *name = json_string_value(json_object_get(c, "Name"));
            const char *error = json_string_value(json_object_get(c, "ExpectedError"));
            int want = -2;
            if (strstr(error, "input length")) want = -1;
            if (strstr(error, "top bytes")) want = MULRED_DECODE_EPADDING;
            if (strstr(error, "fp.Element")) want = MULRED_DECODE_ERANGE;
            if (strstr(error, "not on curve")) want = MULRED_DECODE_ECURVE;
            if (strstr(error, "subgroup")) want = MULRED_DECODE_ESUBGROUP_G2;
            CU_ASSERT(want != -2);
            size_t len;
            uint8_t *in = records_of(json_string_value(json_object_get(c, "Input")), f == 0, &len);
            uint8_t got[256];
            const int why = eip2537_g2msm(got, in, len, f != 0);
            if (why != want) printf("\n    %s: %s gave %d, not %d", fail_files[f], name, why, want);
            CU_ASSERT(why == want);
            free(in);
            cases++;
        }
        json_decref(v);
    }
    CU_ASSERT(cases == 23);
}

void test_register(void)
{
    TEST_SUITE("msm g2", {"bls12-381 sizes", g2_381_m_sizes}, {"bn254 sizes", g2_254_m_sizes},
               {"bls12-381 traps", g2_381_m_traps}, {"bn254 traps", g2_254_m_traps},
               {"bls12-381 threads", g2_381_m_threads}, {"bn254 threads", g2_254_m_threads});
    TEST_SUITE_X8("msm g2 8 lanes", {"bls12-381 sizes", g2_381_m_sizes_x8},
                  {"bn254 sizes", g2_254_m_sizes_x8}, {"bls12-381 traps", g2_381_m_traps_x8},
                  {"bn254 traps", g2_254_m_traps_x8});
    TEST_SUITE("eip-2537 g2 vectors", {"add, mul and failures", t_eip2537_g2});
}

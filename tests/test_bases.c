/* Base sets (include/mulred/bases.h, bases_io.h): points validated once, many MSMs.
 *
 * References, none made by the code under test:
 *   - published vectors: every EIP-2537 G1 MSM and G1/G2 multiplication case and every EIP-196
 *     multiplication case (tests/vectors), split into a points set and a scalar vector, through
 *     the set with and without a table, 1 and 3 threads;
 *   - the mpz references (curve_ref.h, g2_ref.h): synthetic points whose logarithms aᵢ are
 *     declared (and checked against mpz by test_msm_io), so Σ sᵢ·Pᵢ = (Σ aᵢ·sᵢ mod r)·G in mpz,
 *     for both curves and both groups, with infinity points, zero scalars, scalars >= r,
 *     n = 0 and 1, prefixes n < size, the three scalar layouts, every table level, k vectors.
 * Bad input: a bad point names its index and failed check (lowest one, any thread count), sizes
 * off the point size, a vector longer than the set, a scalars file off the record size, a
 * tampered / truncated / extended / foreign cache refused; misuse (NULL, a foreign object) goes
 * to the callback. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "curve_ref.h"
#include "g2_ref.h"
#include "harness.h"
#include "mulred/bases.h"
#include "mulred/bases_io.h"
#include "hash/hash.h"
#include "msm/bases_internal.h"
#include "mulred/msm_io.h"

/* Big enough for any Jacobian point (G2 of BLS12-381: 288 bytes). */
typedef struct {
    uint64_t l[36];
} jbuf;

/* ---- the mpz reference ---- */

/* Does the Jacobian r of curve c equal (Σ a[i]·s[i] mod r)·G (mpz)? */
static int matches_dlog(mulred_curve c, const void *r, const uint64_t (*a)[4],
                        const mulred_scalar256 *s, size_t n)
{
    const int base = mulred_curve_base(c) == MULRED_CURVE_BLS12_381 ? 0 : 1;
    const int g2 = mulred_curve_group(c) == MULRED_GROUP_G2;
    mpz_t acc, x, y;
    mpz_inits(acc, x, y, NULL);
    for (size_t i = 0; i < n; i++) {
        ref_mpz_from_u256(x, a[i]);
        ref_mpz_from_u256(y, s[i].l);
        mpz_addmul(acc, x, y);
    }
    int ok;
    if (!g2) {
        const ref_curve *rc = ref_curve_get(base);
        mpz_mod(acc, acc, rc->r);
        ref_point want, got;
        ref_point_init(&want), ref_point_init(&got);
        ref_mul(rc, &want, &rc->g, acc);
        ref_from_jacobian(base, &got, r);
        ok = ref_point_equal(&want, &got);
        ref_point_clear(&want), ref_point_clear(&got);
    } else {
        const ref_curve2 *rc = ref2_curve(base);
        mpz_mod(acc, acc, rc->r);
        ref_point2 want, got;
        ref_point2_init(&want), ref_point2_init(&got);
        ref2_mul(rc, &want, &rc->g, acc);
        ref2_from_jacobian(base, &got, r);
        ok = ref_point2_equal(&want, &got);
        ref_point2_clear(&want), ref_point2_clear(&got);
    }
    mpz_clears(acc, x, y, NULL);
    return ok;
}

static const mulred_curve CURVES[4] = {MULRED_CURVE_BLS12_381, MULRED_CURVE_BN254,
                                       MULRED_CURVE_BLS12_381_G2, MULRED_CURVE_BN254_G2};

/* A synthetic set of n points (point 3 and the last replaced by infinity, logarithm 0) with its
 * logarithms and scalars (scalar 1 zero, scalar 2 >= r: r + 5, scalar 4 = 2^256 − 1). */
typedef struct {
    mulred_curve c;
    size_t n;
    uint8_t *points;
    mulred_scalar256 *s;
    uint64_t (*a)[4];
} synth_set;

static void synth_make(synth_set *t, mulred_curve c, size_t n, uint64_t seed)
{
    const size_t A = mulred_msm_affine_bytes(c);
    t->c = c, t->n = n;
    t->points = calloc(n ? n : 1, A);
    t->s = calloc(n ? n : 1, sizeof *t->s);
    t->a = calloc(n ? n : 1, sizeof *t->a);
    mulred_error err;
    CU_ASSERT_FATAL(mulred_msm_synth(t->points, t->s, c, seed, 0, n, 2, &err) == MULRED_OK);
    for (size_t i = 0; i < n; i++) mulred_msm_synth_dlog(t->a[i], c, seed, i);
    const ref_curve *rc = ref_curve_get(mulred_curve_base(c) == MULRED_CURVE_BLS12_381 ? 0 : 1);
    if (n > 3) memset(t->points + 3 * A, 0, A), memset(t->a[3], 0, 32);
    if (n > 6) memset(t->points + (n - 1) * A, 0, A), memset(t->a[n - 1], 0, 32);
    if (n > 1) memset(&t->s[1], 0, 32);
    if (n > 2) {
        mpz_t z;
        mpz_init(z);
        mpz_add_ui(z, rc->r, 5);
        ref_mpz_to_u256(t->s[2].l, z);
        mpz_clear(z);
    }
    if (n > 4) memset(&t->s[4], 0xff, 32);
}

static void synth_free(synth_set *t)
{
    free(t->points), free(t->s), free(t->a);
}

/* The scalars in layout f (BE32, LE32: 32n bytes; LIMBS: the array itself). */
static void *scalars_in(const mulred_scalar256 *s, size_t n, mulred_scalar_format f)
{
    uint8_t *out = malloc(n ? 32 * n : 1);
    for (size_t i = 0; i < n; i++)
        for (int l = 0; l < 4; l++)
            for (int b = 0; b < 8; b++) {
                const uint8_t v = (uint8_t)(s[i].l[l] >> (8 * b));
                if (f == MULRED_SCALARS_BE32)
                    out[32 * i + 31 - (8 * l + b)] = v;
                else if (f == MULRED_SCALARS_LE32)
                    out[32 * i + 8 * l + b] = v;
            }
    if (f == MULRED_SCALARS_LIMBS) memcpy(out, s, 32 * n);
    return out;
}

/* Every prefix length of interest, every layout, threads 1 and 3, against the reference. */
static void check_set_against_ref_once(const mulred_bases *b, const synth_set *t);

/* With the model's choice, and with a table forced on (every n, even where the model would not
 * read it), and off. */
static void check_set_against_ref(mulred_bases *b, const synth_set *t)
{
    check_set_against_ref_once(b, t);
    if (!mulred_bases_level(b)) return;
    mulred_bases_set_table_use(b, 1);
    bool table = false;
    mulred_msm_plan plan;
    mulred_bases_plan(b, t->n, &plan, &table);
    CU_ASSERT(table || t->n == 0);
    check_set_against_ref_once(b, t);
    mulred_bases_set_table_use(b, -1);
    mulred_bases_plan(b, t->n, &plan, &table);
    CU_ASSERT(!table);
    check_set_against_ref_once(b, t);
    mulred_bases_set_table_use(b, 0);
}

static void check_set_against_ref_once(const mulred_bases *b, const synth_set *t)
{
    const size_t ns[] = {1, 2, t->n / 2 + 1, t->n}; /* n = 0: test_bad_points */
    for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++) {
        const size_t n = ns[q] <= t->n ? ns[q] : t->n;
        for (int f = 0; f < 3; f++) {
            void *sc = scalars_in(t->s, n, (mulred_scalar_format)f);
            for (int threads = 1; threads <= 3; threads += 2) {
                jbuf r;
                mulred_error err;
                CU_ASSERT_EQUAL(
                    mulred_bases_msm(&r, b, sc, (mulred_scalar_format)f, n, threads, &err),
                    MULRED_OK);
                const int ok = matches_dlog(t->c, &r, t->a, t->s, n);
                CU_ASSERT(ok);
                if (!ok)
                    printf("\n    %s %s n=%zu format %d threads %d level %u: wrong result",
                           mulred_curve_name(t->c),
                           mulred_pairing_group_name(mulred_curve_group(t->c)), n, f, threads,
                           mulred_bases_level(b));
            }
            free(sc);
        }
    }
}

static void test_random_against_ref(void)
{
    for (int ci = 0; ci < 4; ci++) {
        const mulred_curve c = CURVES[ci];
        synth_set t;
        synth_make(&t, c, 40 + (size_t)test_rand_below(30), test_rand64());
        mulred_bases *b;
        mulred_error err;
        CU_ASSERT_FATAL(mulred_bases_from_affine(&b, c, t.points, t.n, "t", 2, &err) == MULRED_OK);
        CU_ASSERT_EQUAL(mulred_bases_size(b), t.n);
        CU_ASSERT_EQUAL(mulred_bases_curve(b), c);
        CU_ASSERT_EQUAL(mulred_bases_level(b), 0);
        check_set_against_ref(b, &t);
        /* every table the levels give (GLV or not, several widths), and back to none */
        const unsigned levels[] = {8, 16, 32, 64, 0};
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            CU_ASSERT_EQUAL(mulred_bases_precompute(b, levels[l], 0, 2, &err), MULRED_OK);
            CU_ASSERT(mulred_bases_level(b) <= levels[l]);
            CU_ASSERT(levels[l] < 8 || mulred_bases_level(b) > 0);
            const size_t A = mulred_msm_affine_bytes(c);
            CU_ASSERT(mulred_bases_memory(b) >= t.n * A * (1 + mulred_bases_level(b)));
            check_set_against_ref(b, &t);
        }
        /* a budget below the points' own size builds nothing; a level too low for any plan too */
        CU_ASSERT_EQUAL(mulred_bases_precompute(b, 64, t.n, 1, &err), MULRED_OK);
        CU_ASSERT_EQUAL(mulred_bases_level(b), 0);
        CU_ASSERT_EQUAL(mulred_bases_precompute(b, 4, 0, 1, &err), MULRED_OK);
        CU_ASSERT_EQUAL(mulred_bases_level(b), 0);
        mulred_bases_free(b);
        synth_free(&t);
    }
}

/* A set larger than the slices of the threaded paths, with a table the plan uses, checked by the
 * logarithm reference (one mpz multiplication). */
static void test_larger_with_table(void)
{
    for (int ci = 0; ci < 4; ci++) {
        const mulred_curve c = CURVES[ci];
        synth_set t;
        synth_make(&t, c, ci < 2 ? 3000 : 700, test_rand64());
        mulred_bases *b;
        mulred_error err;
        CU_ASSERT_FATAL(mulred_bases_from_affine(&b, c, t.points, t.n, "t", 2, &err) == MULRED_OK);
        for (int pass = 0; pass < 2; pass++) {
            for (int threads = 1; threads <= 4; threads += 3) {
                jbuf r;
                CU_ASSERT_EQUAL(
                    mulred_bases_msm(&r, b, t.s, MULRED_SCALARS_LIMBS, t.n, threads, &err),
                    MULRED_OK);
                CU_ASSERT(matches_dlog(c, &r, t.a, t.s, t.n));
                CU_ASSERT_EQUAL(
                    mulred_bases_msm(&r, b, t.s, MULRED_SCALARS_LIMBS, t.n - 7, threads, &err),
                    MULRED_OK);
                CU_ASSERT(matches_dlog(c, &r, t.a, t.s, t.n - 7));
            }
            CU_ASSERT_EQUAL(mulred_bases_precompute(b, 16, 0, 3, &err), MULRED_OK);
            CU_ASSERT(mulred_bases_level(b) > 0);
            bool table = false;
            mulred_msm_plan plan;
            mulred_bases_plan(b, t.n, &plan, &table);
            CU_ASSERT(table); /* the model reads the table at this size */
        }
        mulred_bases_free(b);
        synth_free(&t);
    }
}

/* k vectors in one call: each result exactly (bytes) the single call's. */
static void test_many(void)
{
    for (int ci = 0; ci < 4; ci++) {
        const mulred_curve c = CURVES[ci];
        synth_set t;
        synth_make(&t, c, 200, test_rand64());
        mulred_bases *b;
        mulred_error err;
        CU_ASSERT_FATAL(mulred_bases_from_affine(&b, c, t.points, t.n, "t", 1, &err) == MULRED_OK);
        enum { K = 5 };
        mulred_scalar256 *v[K];
        const void *vp[K];
        for (int j = 0; j < K; j++) {
            v[j] = malloc(t.n * sizeof *v[j]);
            for (size_t i = 0; i < t.n; i++)
                for (int l = 0; l < 4; l++) v[j][i].l[l] = test_rand64();
            vp[j] = v[j];
        }
        const size_t J = mulred_msm_jacobian_bytes(c);
        for (int level = 0; level <= 16; level += 16) {
            CU_ASSERT_EQUAL(mulred_bases_precompute(b, (unsigned)level, 0, 1, &err), MULRED_OK);
            mulred_bases_set_table_use(b, level ? 1 : 0);
            for (int threads = 1; threads <= 6; threads += 2) { /* 1, 3, 5: K >= T and K < T */
                jbuf many[K], one;
                CU_ASSERT_EQUAL(
                    mulred_bases_msm_many(many, b, vp, K, MULRED_SCALARS_LIMBS, t.n, threads, &err),
                    MULRED_OK);
                for (int j = 0; j < K; j++) {
                    CU_ASSERT_EQUAL(
                        mulred_bases_msm(&one, b, v[j], MULRED_SCALARS_LIMBS, t.n, 1, &err),
                        MULRED_OK);
                    CU_ASSERT(memcmp((uint8_t *)many + j * J, &one, J) == 0);
                    CU_ASSERT(matches_dlog(c, &one, t.a, v[j], t.n));
                }
            }
        }
        jbuf r[K];
        CU_ASSERT_EQUAL(mulred_bases_msm_many(r, b, vp, 0, MULRED_SCALARS_LIMBS, t.n, 2, &err),
                        MULRED_OK);
        /* a vector longer than the set */
        CU_ASSERT_EQUAL(mulred_bases_msm_many(r, b, vp, K, MULRED_SCALARS_LIMBS, t.n + 1, 2, &err),
                        MULRED_EINPUT);
        char want[96];
        snprintf(want, sizeof want, "scalar vector of %zu points, the set has %zu", t.n + 1, t.n);
        CU_ASSERT_STRING_EQUAL(err.message, want);
        /* vectors of no scalars: bad input, as one is */
        CU_ASSERT_EQUAL(mulred_bases_msm_many(r, b, vp, K, MULRED_SCALARS_LIMBS, 0, 2, &err),
                        MULRED_EINPUT);
        CU_ASSERT_STRING_EQUAL(err.message, "no scalars (empty input)");
        for (int j = 0; j < K; j++) free(v[j]);
        mulred_bases_free(b);
        synth_free(&t);
    }
}

/* ---- published vectors ---- */

/* The ZCash uncompressed form of a BLS12-381 EIP-2537 point, by moving bytes: the 48-byte
 * big-endian coordinates without EIP-2537's 16 zero bytes each, an Fp2 element c1 first (EIP-2537
 * writes c0 first); infinity (all zero) as the 0x40 flag and zeros. */
static void evm_to_uncompressed(uint8_t *out, const uint8_t *evm, size_t coords)
{
    bool zero = true;
    for (size_t i = 0; i < 64 * coords; i++) zero = zero && evm[i] == 0;
    for (size_t k = 0; k < coords; k++) {
        const size_t from = coords == 4 ? (k ^ 1) : k; /* G2: (x.c1, x.c0, y.c1, y.c0) */
        memcpy(out + 48 * k, evm + 64 * from + 16, 48);
    }
    if (zero) out[0] = 0x40;
}

/* Every case of a precompile's vector file: records (point, 32-byte scalar) split into a set
 * and a vector; e UNCOMPRESSED: the points moved into that form (evm_to_uncompressed). */
static int check_vectors_in(const char *rel, mulred_curve c, mulred_point_encoding e)
{
    json_t *v = test_load_json(rel);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const size_t R = mulred_point_encoding_bytes(c, MULRED_POINTS_EVM) + 32,
                 B = mulred_point_encoding_bytes(c, e);
    int cases = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *k = json_array_get(v, i);
        size_t in_len, want_len;
        uint8_t *in = test_unhex(json_string_value(json_object_get(k, "Input")), &in_len);
        uint8_t *want = test_unhex(json_string_value(json_object_get(k, "Expected")), &want_len);
        if (in_len % R) { /* EIP-196 cases with short or long inputs: not records */
            free(in), free(want);
            continue;
        }
        const size_t n = in_len / R;
        uint8_t *pts = malloc(n * B + 1), *sc = malloc(n * 32 + 1);
        for (size_t j = 0; j < n; j++) {
            if (e == MULRED_POINTS_UNCOMPRESSED)
                evm_to_uncompressed(pts + j * B, in + j * R, B / 48);
            else
                memcpy(pts + j * B, in + j * R, B);
            memcpy(sc + j * 32, in + j * R + R - 32, 32);
        }
        mulred_bases *b;
        mulred_error err;
        CU_ASSERT_FATAL(mulred_bases_make(&b, c, e, pts, n * B, "v", 2, &err) == MULRED_OK);
        for (int level = 0; level <= 16; level += 16) {
            CU_ASSERT_EQUAL(mulred_bases_precompute(b, (unsigned)level, 0, 1, &err), MULRED_OK);
            mulred_bases_set_table_use(b, 1); /* tiny sets: the model would not read it */
            for (int threads = 1; threads <= 3; threads += 2) {
                uint8_t out[256];
                CU_ASSERT_EQUAL(mulred_bases_msm_encoded(out, sizeof out, b, sc,
                                                         MULRED_SCALARS_BE32, n, threads, &err),
                                MULRED_OK);
                const int ok = memcmp(out, want, want_len) == 0;
                CU_ASSERT(ok);
                if (!ok)
                    printf("\n    %s: %s: level %d threads %d", rel,
                           json_string_value(json_object_get(k, "Name")), level, threads);
            }
        }
        mulred_bases_free(b);
        free(pts), free(sc), free(in), free(want);
        cases++;
    }
    json_decref(v);
    return cases;
}

static int check_vectors(const char *rel, mulred_curve c)
{
    return check_vectors_in(rel, c, MULRED_POINTS_EVM);
}

static void test_vectors(void)
{
    CU_ASSERT(check_vectors("eip2537/msm_G1_bls.json", MULRED_CURVE_BLS12_381) >= 100);
    CU_ASSERT(check_vectors("eip2537/mul_G1_bls.json", MULRED_CURVE_BLS12_381) >= 10);
    CU_ASSERT(check_vectors("eip2537/mul_G2_bls.json", MULRED_CURVE_BLS12_381_G2) >= 10);
    CU_ASSERT(check_vectors("eip196/bn256ScalarMul.json", MULRED_CURVE_BN254) >= 10);
    /* the same BLS12-381 cases with the points in the ZCash uncompressed form */
    CU_ASSERT(check_vectors_in("eip2537/msm_G1_bls.json", MULRED_CURVE_BLS12_381,
                               MULRED_POINTS_UNCOMPRESSED) >= 100);
    CU_ASSERT(check_vectors_in("eip2537/mul_G2_bls.json", MULRED_CURVE_BLS12_381_G2,
                               MULRED_POINTS_UNCOMPRESSED) >= 10);
}

/* The other encodings: the same points compressed (and G2 uncompressed), written from mpz
 * coordinates by the reference's own rules would need a square-root reference; instead the
 * library's encoders write them and the set must give the mpz reference's results, and a flag
 * error in them is named. */
static void test_encodings(void)
{
    struct {
        mulred_curve c;
        mulred_point_encoding e;
    } cases[] = {{MULRED_CURVE_BLS12_381, MULRED_POINTS_COMPRESSED},
                 {MULRED_CURVE_BLS12_381_G2, MULRED_POINTS_COMPRESSED},
                 {MULRED_CURVE_BLS12_381_G2, MULRED_POINTS_UNCOMPRESSED},
                 {MULRED_CURVE_BN254_G2, MULRED_POINTS_EVM},
                 {MULRED_CURVE_BLS12_381_G2, MULRED_POINTS_EVM}};
    for (size_t q = 0; q < sizeof cases / sizeof cases[0]; q++) {
        const mulred_curve c = cases[q].c;
        const mulred_point_encoding e = cases[q].e;
        synth_set t;
        synth_make(&t, c, 30, test_rand64());
        const size_t B = mulred_point_encoding_bytes(c, e), A = mulred_msm_affine_bytes(c);
        CU_ASSERT_FATAL(B > 0);
        uint8_t *enc = malloc(t.n * B);
        for (size_t i = 0; i < t.n; i++) {
            const void *p = t.points + i * A;
            uint8_t *o = enc + i * B;
            if (c == MULRED_CURVE_BLS12_381) mulred_g1_381_encode_compressed(o, p);
            if (c == MULRED_CURVE_BN254_G2) mulred_g2_254_encode_eip197(o, p);
            if (c == MULRED_CURVE_BLS12_381_G2 && e == MULRED_POINTS_COMPRESSED)
                mulred_g2_381_encode_compressed(o, p);
            if (c == MULRED_CURVE_BLS12_381_G2 && e == MULRED_POINTS_UNCOMPRESSED)
                mulred_g2_381_encode_uncompressed(o, p);
            if (c == MULRED_CURVE_BLS12_381_G2 && e == MULRED_POINTS_EVM)
                mulred_g2_381_encode_eip2537(o, p);
        }
        mulred_bases *b;
        mulred_error err;
        CU_ASSERT_FATAL(mulred_bases_make(&b, c, e, enc, t.n * B, "enc", 3, &err) == MULRED_OK);
        check_set_against_ref(b, &t);
        mulred_bases_free(b);
        /* a byte off the encoding's size; a flag error (compressed without its flag) */
        CU_ASSERT_EQUAL(mulred_bases_make(&b, c, e, enc, t.n * B - 1, "enc", 1, &err),
                        MULRED_EINPUT);
        if (e == MULRED_POINTS_COMPRESSED) {
            enc[7 * B] &= 0x7f;
            CU_ASSERT_EQUAL(mulred_bases_make(&b, c, e, enc, t.n * B, "enc", 2, &err),
                            MULRED_EINPUT);
            char want[160];
            snprintf(want, sizeof want, "enc: point 7: %s",
                     mulred_decode_reason_text(MULRED_DECODE_EFLAGS));
            CU_ASSERT_STRING_EQUAL(err.message, want);
        }
        free(enc);
        synth_free(&t);
    }
    /* encodings a curve does not have */
    mulred_bases *b;
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_point_encoding_bytes(MULRED_CURVE_BN254, MULRED_POINTS_COMPRESSED), 0);
    CU_ASSERT_EQUAL(
        mulred_bases_make(&b, MULRED_CURVE_BN254, MULRED_POINTS_COMPRESSED, NULL, 0, "x", 1, &err),
        MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, "x: bn254 g1 has no compressed encoding");
    mulred_point_encoding pe;
    CU_ASSERT(mulred_point_encoding_parse(&pe, "uncompressed") == MULRED_OK &&
              pe == MULRED_POINTS_UNCOMPRESSED);
    CU_ASSERT_EQUAL(mulred_point_encoding_parse(&pe, "EVM"), MULRED_EINPUT);
}

/* ---- bad points ---- */

/* A point of the vector file rel's case whose name has `what` (its first record's point). */
static uint8_t *vector_point(const char *rel, const char *what, size_t B)
{
    json_t *v = test_load_json(rel);
    uint8_t *p = NULL;
    for (size_t i = 0; v && i < json_array_size(v) && !p; i++) {
        const json_t *k = json_array_get(v, i);
        if (!strstr(json_string_value(json_object_get(k, "Name")), what)) continue;
        size_t len;
        uint8_t *in = test_unhex(json_string_value(json_object_get(k, "Input")), &len);
        if (len >= B)
            p = in;
        else
            free(in);
    }
    json_decref(v);
    return p;
}

/* The ZCash uncompressed G1 form's own refusals: each at index 2 of 4 points (the generator
 * of EIP-2537's vectors, moved into the form by evm_to_uncompressed), named with its check. */
static void test_uncompressed_g1(void)
{
    uint8_t *g = vector_point("eip2537/mul_G1_bls.json", "g1", 128);
    uint8_t *outside = vector_point("eip2537/fail-msm_G1_bls.json", "not_in_correct_subgroup", 128);
    CU_ASSERT_FATAL(g && outside);
    uint8_t good[96], bad_sub[96];
    evm_to_uncompressed(good, g, 2);
    evm_to_uncompressed(bad_sub, outside, 2);
    struct {
        const char *what;
        uint8_t byte0_or, byte0_and;
        int pos, flip; /* pos >= 0: byte pos ^= flip */
        const uint8_t *base;
        mulred_decode_reason why; /* MULRED_DECODE_VALID: accepted */
    } cases[] = {
        {"compression flag", 0x80, 0xff, -1, 0, good, MULRED_DECODE_EUFLAGS},
        {"sign flag", 0x20, 0xff, -1, 0, good, MULRED_DECODE_EUFLAGS},
        {"infinity flag on a point", 0x40, 0xff, -1, 0, good, MULRED_DECODE_EINFINITY},
        {"x >= p", 0x1f, 0xff, 1, 0xff, good, MULRED_DECODE_ERANGE},
        {"off the curve", 0, 0xff, 95, 1, good, MULRED_DECODE_ECURVE},
        {"(0, 0) without the flag", 0, 0, -2, 0, good, MULRED_DECODE_ECURVE},
        {"outside G1", 0, 0xff, -1, 0, bad_sub, MULRED_DECODE_ESUBGROUP},
    };
    for (size_t q = 0; q < sizeof cases / sizeof cases[0]; q++) {
        uint8_t pts[4 * 96];
        for (int i = 0; i < 4; i++) memcpy(pts + 96 * i, good, 96);
        uint8_t *p = pts + 2 * 96;
        memcpy(p, cases[q].base, 96);
        p[0] = (uint8_t)((p[0] | cases[q].byte0_or) & cases[q].byte0_and);
        if (cases[q].pos >= 0) p[cases[q].pos] ^= (uint8_t)cases[q].flip;
        if (cases[q].pos == -2) memset(p, 0, 96);
        mulred_bases *b = NULL;
        mulred_error err;
        CU_ASSERT_EQUAL(mulred_bases_make(&b, MULRED_CURVE_BLS12_381, MULRED_POINTS_UNCOMPRESSED,
                                          pts, sizeof pts, "u", 2, &err),
                        MULRED_EINPUT);
        char want[160];
        snprintf(want, sizeof want, "u: point 2: %s", mulred_decode_reason_text(cases[q].why));
        CU_ASSERT_STRING_EQUAL(err.message, want);
        if (strcmp(err.message, want) != 0) printf("\n    %s: %s", cases[q].what, err.message);
        mulred_bases_free(b);
    }
    /* infinity: 0x40 and zeros is a point: G + ∞ + G + 0·G is the vectors' 2·G */
    uint8_t pts[4 * 96], sc[4 * 32] = {0};
    for (int i = 0; i < 4; i++) memcpy(pts + 96 * i, good, 96), sc[32 * i + 31] = i < 3;
    memset(pts + 96, 0, 96);
    pts[96] = 0x40;
    mulred_bases *b = NULL;
    mulred_error err;
    CU_ASSERT_FATAL(mulred_bases_make(&b, MULRED_CURVE_BLS12_381, MULRED_POINTS_UNCOMPRESSED, pts,
                                      sizeof pts, "u", 1, &err) == MULRED_OK);
    uint8_t out[128];
    CU_ASSERT_EQUAL(
        mulred_bases_msm_encoded(out, sizeof out, b, sc, MULRED_SCALARS_BE32, 4, 1, &err),
        MULRED_OK);
    json_t *v = test_load_json("eip2537/mul_G1_bls.json");
    size_t len;
    uint8_t *two_g =
        test_unhex(json_string_value(json_object_get(json_array_get(v, 0), "Expected")), &len);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(v, 0), "Name")),
                           "bls_g1mul_(g1+g1=2*g1)");
    CU_ASSERT(len == 128 && memcmp(out, two_g, 128) == 0);
    free(two_g);
    json_decref(v);
    mulred_bases_free(b);
    free(g), free(outside);
}

static void test_bad_points(void)
{
    /* G1 and G2 of BLS12-381: points outside the subgroup from the published failure cases,
     * put at index 37 and 90 of 120 good points: index 37 is named, whatever the threads */
    const struct {
        mulred_curve c;
        const char *rel;
        mulred_decode_reason why;
    } sub[] = {
        {MULRED_CURVE_BLS12_381, "eip2537/fail-msm_G1_bls.json", MULRED_DECODE_ESUBGROUP},
        {MULRED_CURVE_BLS12_381_G2, "eip2537/fail-msm_G2_bls.json", MULRED_DECODE_ESUBGROUP_G2}};
    for (int q = 0; q < 2; q++) {
        const mulred_curve c = sub[q].c;
        const size_t B = mulred_point_encoding_bytes(c, MULRED_POINTS_EVM);
        uint8_t *bad = vector_point(sub[q].rel, "not_in_correct_subgroup", B);
        CU_ASSERT_FATAL(bad != NULL);
        synth_set t;
        synth_make(&t, c, 120, test_rand64());
        uint8_t *enc = malloc(t.n * B);
        const size_t A = mulred_msm_affine_bytes(c);
        for (size_t i = 0; i < t.n; i++) {
            if (c == MULRED_CURVE_BLS12_381)
                mulred_g1_381_encode_eip2537(enc + i * B, (const void *)(t.points + i * A));
            else
                mulred_g2_381_encode_eip2537(enc + i * B, (const void *)(t.points + i * A));
        }
        memcpy(enc + 90 * B, bad, B);
        memcpy(enc + 37 * B, bad, B);
        for (int threads = 1; threads <= 3; threads++) {
            mulred_bases *b = NULL;
            mulred_error err;
            CU_ASSERT_EQUAL(
                mulred_bases_make(&b, c, MULRED_POINTS_EVM, enc, t.n * B, "pts", threads, &err),
                MULRED_EINPUT);
            char want[160];
            snprintf(want, sizeof want, "pts: point 37: %s", mulred_decode_reason_text(sub[q].why));
            CU_ASSERT_STRING_EQUAL(err.message, want);
            CU_ASSERT_PTR_NULL(b);
        }
        /* an encoding error above it does not hide it: index 60 off the curve, 37 named */
        enc[60 * B + B - 1] ^= 1;
        for (int threads = 1; threads <= 2; threads++) {
            mulred_bases *b2 = NULL;
            mulred_error err2;
            CU_ASSERT_EQUAL(
                mulred_bases_make(&b2, c, MULRED_POINTS_EVM, enc, t.n * B, "pts", threads, &err2),
                MULRED_EINPUT);
            char want2[160];
            snprintf(want2, sizeof want2, "pts: point 37: %s",
                     mulred_decode_reason_text(sub[q].why));
            CU_ASSERT_STRING_EQUAL(err2.message, want2);
        }
        enc[60 * B + B - 1] ^= 1;
        /* an encoding error below it wins: index 12 off the curve (y + 1) */
        enc[12 * B + B - 1] ^= 1;
        mulred_bases *b;
        mulred_error err;
        CU_ASSERT_EQUAL(mulred_bases_make(&b, c, MULRED_POINTS_EVM, enc, t.n * B, "pts", 2, &err),
                        MULRED_EINPUT);
        char want[160];
        snprintf(want, sizeof want, "pts: point 12: %s",
                 mulred_decode_reason_text(MULRED_DECODE_ECURVE));
        CU_ASSERT_STRING_EQUAL(err.message, want);
        /* the same through engine-form points */
        memcpy(t.points + 5 * A, t.points + 6 * A, A);
        ((uint8_t *)t.points)[5 * A] ^= 1; /* x changed: off the curve (overwhelmingly) */
        CU_ASSERT_EQUAL(mulred_bases_from_affine(&b, c, t.points, t.n, "aff", 1, &err),
                        MULRED_EINPUT);
        snprintf(want, sizeof want, "aff: point 5: %s",
                 mulred_decode_reason_text(MULRED_DECODE_ECURVE));
        CU_ASSERT_STRING_EQUAL(err.message, want);
        free(enc), free(bad);
        synth_free(&t);
    }
    /* BN254: a coordinate >= p; non-zero EIP-2537 padding */
    uint8_t p254[64];
    memset(p254, 0xff, sizeof p254);
    mulred_bases *b;
    mulred_error err;
    CU_ASSERT_EQUAL(
        mulred_bases_make(&b, MULRED_CURVE_BN254, MULRED_POINTS_EVM, p254, 64, "f", 1, &err),
        MULRED_EINPUT);
    char want[160];
    snprintf(want, sizeof want, "f: point 0: %s", mulred_decode_reason_text(MULRED_DECODE_ERANGE));
    CU_ASSERT_STRING_EQUAL(err.message, want);
    uint8_t p381[128] = {0};
    p381[3] = 1;
    CU_ASSERT_EQUAL(
        mulred_bases_make(&b, MULRED_CURVE_BLS12_381, MULRED_POINTS_EVM, p381, 128, "f", 1, &err),
        MULRED_EINPUT);
    snprintf(want, sizeof want, "f: point 0: %s",
             mulred_decode_reason_text(MULRED_DECODE_EPADDING));
    CU_ASSERT_STRING_EQUAL(err.message, want);
    /* no points: bad input (an MSM over nothing is, everywhere); a shard of a larger set may be
     * empty, and its MSMs refuse n = 0 (no scalars) and n = 1 (too long) */
    CU_ASSERT_EQUAL(
        mulred_bases_make(&b, MULRED_CURVE_BLS12_381, MULRED_POINTS_EVM, NULL, 0, "e", 1, &err),
        MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, "e: no points (empty input)");
    CU_ASSERT_EQUAL(mulred_bases_from_affine(&b, MULRED_CURVE_BN254_G2, NULL, 0, "a", 1, &err),
                    MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, "a: no points (empty input)");
    CU_ASSERT_FATAL(mulred_bases_make_shard(&b, MULRED_CURVE_BLS12_381, MULRED_POINTS_EVM, NULL, 0,
                                            "e", 5, 1, &err) == MULRED_OK);
    jbuf r;
    CU_ASSERT_EQUAL(mulred_bases_msm(&r, b, NULL, MULRED_SCALARS_BE32, 0, 1, &err), MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, "no scalars (empty input)");
    uint8_t one[32] = {0};
    one[31] = 1;
    CU_ASSERT_EQUAL(mulred_bases_msm(&r, b, one, MULRED_SCALARS_BE32, 1, 1, &err), MULRED_EINPUT);
    CU_ASSERT_EQUAL(mulred_bases_precompute(b, 16, 0, 1, &err), MULRED_OK);
    CU_ASSERT_EQUAL(mulred_bases_level(b), 0);
    mulred_bases_free(b);
}

/* ---- files and the cache ---- */

static char *write_tmp(const char *name, const void *data, size_t len)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(p, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT(fwrite(data, 1, len, f) == len);
    fclose(f);
    return p;
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_FATAL(f != NULL);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    uint8_t *buf = malloc(*len + 1);
    CU_ASSERT(fread(buf, 1, *len, f) == *len);
    fclose(f);
    return buf;
}

static void test_files(void)
{
    /* hex text with blanks, "0x" tokens and upper case; binary; bad bytes and sizes */
    const char *hex = "0x0A0b \n 0c0d\r\n0x0e0f";
    uint8_t *out;
    size_t len;
    mulred_error err;
    char *p = write_tmp("s.hex", hex, strlen(hex));
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, p, false, 2, &err), MULRED_OK);
    CU_ASSERT(len == 6 && memcmp(out, "\x0a\x0b\x0c\x0d\x0e\x0f", 6) == 0);
    free(out);
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, p, false, 4, &err), MULRED_EINPUT);
    char want[600];
    snprintf(want, sizeof want,
             "%s: record 1: incomplete, 2 of 4 bytes (6 bytes: not a whole number of 4-byte "
             "records)",
             p);
    CU_ASSERT_STRING_EQUAL(err.message, want);
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, p, true, 0, &err), MULRED_OK);
    CU_ASSERT_EQUAL(len, strlen(hex));
    free(out);
    p = write_tmp("bad.hex", "0a0b0g", 6);
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, p, false, 0, &err), MULRED_EINPUT);
    snprintf(want, sizeof want, "%s: byte 5: 'g' is not a hex digit", p);
    CU_ASSERT_STRING_EQUAL(err.message, want);
    p = write_tmp("odd.hex", "0a0b0", 5);
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, p, false, 0, &err), MULRED_EINPUT);
    snprintf(want, sizeof want,
             "%s: line 1, byte 4: an odd number of hex digits (5): this one "
             "has no pair",
             p);
    CU_ASSERT_STRING_EQUAL(err.message, want);
    p = write_tmp("odd2.hex", "0a0b\r\n0x0c\n 0d 0\n", 17); /* the lone digit: line 3, byte 15 */
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, p, false, 0, &err), MULRED_EINPUT);
    snprintf(want, sizeof want,
             "%s: line 3, byte 15: an odd number of hex digits (9): this one "
             "has no pair",
             p);
    CU_ASSERT_STRING_EQUAL(err.message, want);
    /* a directory: bad input, as a missing file */
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, test_tmpdir(), false, 0, &err),
                    MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, ": cannot read: Is a directory") != NULL);
    CU_ASSERT_EQUAL(mulred_bases_read_file(&out, &len, "/nonexistent/x", false, 0, &err),
                    MULRED_EINPUT);
}

/* Saves a set with a table, loads it back: the same points, table and results; then every kind
 * of damage is refused. */
static void test_cache(void)
{
    for (int ci = 0; ci < 4; ci++) {
        const mulred_curve c = CURVES[ci];
        synth_set t;
        synth_make(&t, c, 90, test_rand64());
        mulred_bases *b, *l;
        mulred_error err;
        CU_ASSERT_FATAL(mulred_bases_from_affine(&b, c, t.points, t.n, "t", 1, &err) == MULRED_OK);
        CU_ASSERT_EQUAL(mulred_bases_precompute(b, ci == 0 ? 16 : 8, 0, 1, &err), MULRED_OK);
        char path[512];
        snprintf(path, sizeof path, "%s/set-%d.cache", test_tmpdir(), ci);
        CU_ASSERT_EQUAL_FATAL(mulred_bases_save(b, path, &err), MULRED_OK);
        CU_ASSERT_EQUAL_FATAL(mulred_bases_load(&l, path, (int)c, &err), MULRED_OK);
        CU_ASSERT_EQUAL(mulred_bases_size(l), t.n);
        CU_ASSERT_EQUAL(mulred_bases_level(l), mulred_bases_level(b));
        CU_ASSERT_EQUAL(mulred_bases_memory(l), mulred_bases_memory(b));
        check_set_against_ref(l, &t);
        mulred_bases_free(l);
        /* the wrong curve asked for */
        const mulred_curve other = CURVES[(ci + 1) % 4];
        CU_ASSERT_EQUAL(mulred_bases_load(&l, path, (int)other, &err), MULRED_EINPUT);
        CU_ASSERT(strstr(err.message, ": byte 16: a set of another curve or group") != NULL);
        size_t len;
        uint8_t *file = read_all(path, &len);
        /* one bit flipped anywhere: in the header, a point, the table, the digest */
        const size_t at[] = {9, 64 + 5, len / 2, len - 40, len - 1};
        for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
            file[at[k]] ^= 0x10;
            char *q = write_tmp("flip.cache", file, len);
            CU_ASSERT_EQUAL(mulred_bases_load(&l, q, -1, &err), MULRED_EINPUT);
            CU_ASSERT(strncmp(err.message, q, strlen(q)) == 0 && strstr(err.message, ": byte "));
            file[at[k]] ^= 0x10;
        }
        /* truncated, extended, empty, another file altogether: the byte where the fault is */
        char want[700];
        char *q = write_tmp("short.cache", file, len - 1);
        CU_ASSERT_EQUAL(mulred_bases_load(&l, q, -1, &err), MULRED_EINPUT);
        snprintf(want, sizeof want, "%s: byte %zu: the file ends here", q, len - 1);
        CU_ASSERT(strncmp(err.message, want, strlen(want)) == 0);
        CU_ASSERT(strstr(err.message, "truncated") != NULL);
        uint8_t *longer = malloc(len + 1);
        memcpy(longer, file, len), longer[len] = 0;
        q = write_tmp("long.cache", longer, len + 1);
        CU_ASSERT_EQUAL(mulred_bases_load(&l, q, -1, &err), MULRED_EINPUT);
        snprintf(want, sizeof want, "%s: byte %zu: the file should end here", q, len);
        CU_ASSERT(strncmp(err.message, want, strlen(want)) == 0);
        q = write_tmp("header.cache", file, 40);
        CU_ASSERT_EQUAL(mulred_bases_load(&l, q, -1, &err), MULRED_EINPUT);
        snprintf(want, sizeof want, "%s: byte 40: the file ends inside its 64-byte header", q);
        CU_ASSERT_STRING_EQUAL(err.message, want);
        q = write_tmp("empty.cache", "", 0);
        CU_ASSERT_EQUAL(mulred_bases_load(&l, q, -1, &err), MULRED_EINPUT);
        snprintf(want, sizeof want, "%s: byte 0: the file ends inside its 64-byte header", q);
        CU_ASSERT_STRING_EQUAL(err.message, want);
        q = write_tmp("foreign.cache", t.points, 200);
        CU_ASSERT_EQUAL(mulred_bases_load(&l, q, -1, &err), MULRED_EINPUT);
        snprintf(want, sizeof want, "%s: byte 0: not a mulred bases file (magic)", q);
        CU_ASSERT_STRING_EQUAL(err.message, want);
        /* a byte-swapped machine's file (the byte-order mark, bytes 12-15) */
        memcpy(longer, file, len);
        const uint8_t bom[4] = {longer[12], longer[13], longer[14], longer[15]};
        for (int i = 0; i < 4; i++) longer[12 + i] = bom[3 - i];
        q = write_tmp("swapped.cache", longer, len);
        CU_ASSERT_EQUAL(mulred_bases_load(&l, q, -1, &err), MULRED_EINPUT);
        CU_ASSERT(strstr(err.message, ": byte 12: ") && strstr(err.message, "byte order"));
        /* missing, a directory: bad input, as for every reader */
        CU_ASSERT_EQUAL(mulred_bases_load(&l, "/nonexistent/x.cache", -1, &err), MULRED_EINPUT);
        CU_ASSERT(strstr(err.message, "/nonexistent/x.cache: cannot open") == err.message);
        CU_ASSERT_EQUAL(mulred_bases_load(&l, test_tmpdir(), -1, &err), MULRED_EINPUT);
        CU_ASSERT(strstr(err.message, "Is a directory") != NULL);
        free(longer), free(file);
        mulred_bases_free(b);
        synth_free(&t);
    }
}

/* Tables past 16 bits (2^16 and 2^19 buckets), every group: a plan forced to c = 17 (and 20 on
 * BLS12-381 G1 and BN254 G2) without GLV, the table adopted by a set, its MSMs (1 and 2 threads,
 * prefixes, the three scalar layouts) against the mpz reference, with the fold's edges among the
 * scalars: r − 1, (r + 1)/2 (both folded), (r − 1)/2 (the largest kept). */
static void test_wide_tables(void)
{
    for (int ci = 0; ci < 4; ci++) {
        const mulred_curve c = CURVES[ci];
        const bases_ops *ops = bases_ops_of(c);
        synth_set t;
        synth_make(&t, c, ci < 2 ? 400 : 150, test_rand64());
        const int base = mulred_curve_base(c) == MULRED_CURVE_BLS12_381 ? 0 : 1;
        mpz_t e;
        mpz_init(e);
        for (int k = 0; k < 3; k++) {
            mpz_set(e, ref_curve_get(base)->r);
            if (k == 0) mpz_sub_ui(e, e, 1);
            if (k == 1) mpz_add_ui(e, e, 1), mpz_fdiv_q_2exp(e, e, 1);
            if (k == 2) mpz_fdiv_q_2exp(e, e, 1);
            ref_mpz_to_u256(t.s[10 + k].l, e);
        }
        mpz_clear(e);
        for (int c_bits = 17; c_bits <= (ci == 0 || ci == 3 ? 20 : 17); c_bits += 3) {
            mulred_msm_plan plan;
            const mulred_msm_options o = {.window_bits = c_bits, .glv = -1};
            ops->fixed_plan(&plan, t.n, &o);
            CU_ASSERT_FATAL(plan.magic && plan.window_bits == (unsigned)c_bits);
            /* folded scalars: one bit fewer than r, so c = 17 needs 15 rows (r of 255 bits) */
            CU_ASSERT_EQUAL(plan.windows, (base == 0 ? 254u : 253u) / (unsigned)c_bits + 1);
            void *table = malloc(t.n * plan.windows * ops->affine_bytes);
            void *bs = malloc(ops->fixed_build_scratch(t.n));
            CU_ASSERT_FATAL(table && bs);
            ops->fixed_build(table, &plan, t.points, t.n, bs);
            free(bs);
            mulred_bases *b = bases_adopt_table(c, t.n, table, &plan);
            CU_ASSERT_FATAL(b != NULL);
            CU_ASSERT_EQUAL(mulred_bases_level(b), plan.windows);
            check_set_against_ref(b, &t);
            mulred_bases_free(b);
        }
        synth_free(&t);
    }
}

/* A version 1 file, written before scalars were folded: a table of c = 15 without GLV had 18
 * rows (255/15 + 1), the plan now has 17 (254/15 + 1). It loads, its last row dropped (filled
 * with garbage here: never read), and gives the reference's results; version 3 is refused. */
static void test_cache_v1(void)
{
    const mulred_curve c = MULRED_CURVE_BLS12_381;
    synth_set t;
    synth_make(&t, c, 60, test_rand64());
    mulred_msm_plan plan;
    const mulred_msm_options o = {.window_bits = 15, .glv = -1};
    mulred_g1_381_msm_fixed_plan(&plan, t.n, &o);
    CU_ASSERT_EQUAL_FATAL(plan.windows, 17);
    const size_t A = sizeof(mulred_g1_381_affine), R = 18, W = plan.windows;
    uint8_t *tab = malloc(t.n * W * A);
    void *bs = malloc(mulred_g1_381_msm_fixed_build_scratch_size(t.n));
    CU_ASSERT_FATAL(tab && bs);
    mulred_g1_381_msm_fixed_table_build((mulred_g1_381_affine *)tab, &plan,
                                        (const mulred_g1_381_affine *)t.points, t.n, bs);
    const size_t body = t.n * A * (1 + R), len = 64 + body + 32;
    uint8_t *file = calloc(1, len);
    CU_ASSERT_FATAL(file != NULL);
    const uint32_t h32[4] = {1, 0x01020304, (uint32_t)c, (uint32_t)A}; /* version 1, the BOM */
    const uint64_t count = t.n;
    const uint32_t t32[4] = {(uint32_t)R, 15, 0, plan.batch}; /* rows, c, no GLV, batch */
    memcpy(file, "MULREDBS", 8), memcpy(file + 8, h32, 16), memcpy(file + 24, &count, 8);
    memcpy(file + 32, t32, 16);
    memcpy(file + 64, t.points, t.n * A);
    for (size_t i = 0; i < t.n; i++) {
        uint8_t *row = file + 64 + t.n * A + i * R * A;
        memcpy(row, tab + i * W * A, W * A);
        memset(row + W * A, 0xa5, A);
    }
    mulred_sha256_once(file + 64 + body, file, 64 + body);
    char *q = write_tmp("v1.cache", file, len);
    mulred_bases *l = NULL;
    mulred_error err;
    CU_ASSERT_EQUAL_FATAL(mulred_bases_load(&l, q, (int)c, &err), MULRED_OK);
    CU_ASSERT_EQUAL(mulred_bases_level(l), 17);
    mulred_msm_plan got;
    CU_ASSERT(mulred_bases_table_plan(l, &got) && got.window_bits == 15 && !got.glv);
    check_set_against_ref(l, &t);
    mulred_bases_free(l);
    file[8] = 3; /* a version to come */
    mulred_sha256_once(file + 64 + body, file, 64 + body);
    q = write_tmp("v3.cache", file, len);
    CU_ASSERT_EQUAL(mulred_bases_load(&l, q, (int)c, &err), MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, ": byte 8: another format version") != NULL);
    free(file), free(bs), free(tab);
    synth_free(&t);
}

static void test_cache_path(void)
{
    char dir[600], path[1024];
    snprintf(dir, sizeof dir, "%s/xdg", test_tmpdir());
    const char *old = getenv("XDG_CACHE_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_CACHE_HOME", dir, 1);
    char *p = write_tmp("pts.hex", "00", 2);
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_bases_cache_path(path, sizeof path, p, MULRED_CURVE_BN254,
                                            MULRED_POINTS_EVM, 16, &err),
                    MULRED_OK);
    char want[700];
    snprintf(want, sizeof want, "%s/mulred/bases-", dir);
    CU_ASSERT(strncmp(path, want, strlen(want)) == 0 && strstr(path, ".cache") != NULL);
    char other[1024];
    CU_ASSERT_EQUAL(mulred_bases_cache_path(other, sizeof other, p, MULRED_CURVE_BN254,
                                            MULRED_POINTS_EVM, 8, &err),
                    MULRED_OK);
    CU_ASSERT(strcmp(path, other) != 0); /* the level is part of the name */
    if (saved)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    free(saved);
}

/* ---- misuse ---- */

static int misuse_calls;
static void count_misuse(const char *msg, void *data)
{
    (void)msg, (void)data;
    misuse_calls++;
}

static void test_misuse(void)
{
    mulred_set_illegal_callback(count_misuse, NULL);
    misuse_calls = 0;
    jbuf r;
    uint8_t s[32] = {0};
    mulred_error err;
    /* an object that is not a set (another struct's memory: a foreign pointer) */
    uint64_t foreign[16] = {0};
    const mulred_bases *fb = (const mulred_bases *)foreign;
    CU_ASSERT_EQUAL(mulred_bases_msm(&r, NULL, s, MULRED_SCALARS_BE32, 1, 1, &err), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(mulred_bases_msm(&r, fb, s, MULRED_SCALARS_BE32, 1, 1, &err), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(mulred_bases_size(fb), 0);
    CU_ASSERT_EQUAL(mulred_bases_save(fb, "/tmp/x", &err), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(misuse_calls, 4);
    mulred_bases *b;
    CU_ASSERT_FATAL(mulred_bases_make_shard(&b, MULRED_CURVE_BN254, MULRED_POINTS_EVM, NULL, 0, "e",
                                            0, 1, &err) == MULRED_OK);
    CU_ASSERT_EQUAL(mulred_bases_msm(&r, b, s, (mulred_scalar_format)7, 0, 1, &err),
                    MULRED_EMISUSE);
    CU_ASSERT_EQUAL(mulred_bases_msm(NULL, b, s, MULRED_SCALARS_BE32, 0, 1, &err), MULRED_EMISUSE);
    uint8_t out[64];
    CU_ASSERT_EQUAL(mulred_bases_msm_encoded(out, 63, b, s, MULRED_SCALARS_BE32, 0, 1, &err),
                    MULRED_EMISUSE);
    CU_ASSERT_EQUAL(mulred_bases_precompute(b, 65, 0, 1, &err), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(mulred_bases_precompute(b, 1, 0, 1, &err), MULRED_EMISUSE); /* 0 or 2..64 */
    CU_ASSERT_EQUAL(misuse_calls, 9);
    mulred_bases_free(b);
    mulred_set_illegal_callback(NULL, NULL);
}

/* The default callback aborts on a set that was freed (its magic cleared; the child process
 * keeps the freed block's memory mapped, so the check reads it). */
static void use_after_free(void)
{
    mulred_bases *b;
    mulred_error err;
    mulred_bases_make_shard(&b, MULRED_CURVE_BN254, MULRED_POINTS_EVM, NULL, 0, "e", 0, 1, &err);
    /* a copy of the object as it is after free: the same bytes with the magic cleared */
    uint64_t copy[64];
    memcpy(copy, b, sizeof copy < 64 ? sizeof copy : 64);
    mulred_bases_free(b);
    copy[0] = 0;
    jbuf r;
    mulred_bases_msm(&r, (const mulred_bases *)copy, NULL, MULRED_SCALARS_BE32, 0, 1, &err);
}

static void test_misuse_aborts(void)
{
    int ws;
    char *msg = test_run_child(use_after_free, &ws);
    CU_ASSERT(!WIFEXITED(ws) || WEXITSTATUS(ws) != 0);
    CU_ASSERT(msg && strstr(msg, "BASES_OK") != NULL);
    free(msg);
}

void test_register(void)
{
    TEST_SUITE("bases", {"random sets against the mpz reference", test_random_against_ref},
               {"larger sets, threads and tables", test_larger_with_table},
               {"k vectors in one call", test_many}, {"published vectors", test_vectors},
               {"every encoding", test_encodings}, {"bad points", test_bad_points},
               {"ZCash uncompressed G1", test_uncompressed_g1}, {"files", test_files},
               {"the trusted cache", test_cache}, {"a version 1 cache", test_cache_v1},
               {"tables past 16 bits, every group", test_wide_tables},
               {"the default cache path", test_cache_path}, {"misuse", test_misuse},
               {"misuse aborts by default", test_misuse_aborts});
}

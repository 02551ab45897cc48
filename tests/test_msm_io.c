/* MSM inputs (include/mulred/msm_io.h): synthetic sets and pair files.
 *
 * Synthetic sets: point i equals aᵢ·G computed in mpz (curve_ref.h) from the logarithm the set
 * declares, every point is on the curve and in G1, every scalar below r; any split of an index
 * range into pieces, generated with any thread count, gives the same bytes.
 *
 * Pair files: records are written by this test from mpz coordinates (not by the library's
 * encoders) in every text layout the format allows (one line, "0x" prefixes, upper case, one
 * record per line with CRLF, whitespace between any two digits) and in binary; the digit count
 * runs over units as small as one byte, in any split over "ranks", and every slice read with
 * 1-3 threads decodes to the reference points and scalars. Bad files: a bad byte (its offset),
 * an 'x' inside a token, a partial record, empty input, a binary size off the record size,
 * non-zero padding, a coordinate >= p, a point off the curve, a point outside G1 (also with
 * scalar 0): each names the file, the pair index (the lowest bad one whatever the threads),
 * its byte offset and the failed check.
 *
 * Bytes in, bytes out (mulred_msm_encoded): every EIP-2537 G1MSM vector (tests/vectors/eip2537)
 * and every EIP-196 scalar multiplication vector (tests/vectors/eip196) with 1 and 3 threads;
 * the EIP-2537 failure vectors with bad points are bad input naming record and check, a length
 * off the record size is bad input, and so are no records (EIP-2537's empty-input vector), a
 * short output is misuse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "curve_ref.h"
#include "harness.h"
#include "mulred/curve.h"
#include "mulred/msm_io.h"

typedef struct {
    uint64_t l[12];
} abuf;

static int aff_matches(int c, const void *aff, const ref_point *want)
{
    ref_point got;
    ref_point_init(&got);
    ref_from_affine(c, &got, aff);
    const int ok = ref_point_equal(&got, want);
    ref_point_clear(&got);
    return ok;
}

static int in_g1(int c, const void *aff)
{
    if (c == 0) return mulred_g1_381_affine_is_on_curve(aff) && mulred_g1_381_affine_in_g1_var(aff);
    return mulred_g1_254_affine_is_on_curve(aff);
}

/* ---- synthetic sets ---- */

static void test_synth_points(void)
{
    static const uint64_t firsts[] = {0, 1000, 5 * 1024 - 3};
    for (int c = 0; c < 2; c++) {
        const ref_curve *rc = ref_curve_get(c);
        const size_t aff = mulred_msm_affine_bytes((mulred_curve)c), n = 300;
        uint8_t *pts = malloc(n * aff);
        mulred_scalar256 *s = malloc(n * sizeof *s);
        CU_ASSERT_FATAL(pts && s);
        for (size_t f = 0; f < 3; f++) {
            const uint64_t seed = test_rand64();
            mulred_error err;
            CU_ASSERT_FATAL(mulred_msm_synth(pts, s, (mulred_curve)c, seed, firsts[f], n, 2,
                                             &err) == MULRED_OK);
            mpz_t a, z;
            mpz_inits(a, z, NULL);
            ref_point want;
            ref_point_init(&want);
            int all_in = 1, below = 1, logs = 1;
            for (size_t i = 0; i < n; i++) {
                all_in &= in_g1(c, pts + i * aff);
                ref_mpz_from_u256(z, s[i].l);
                below &= mpz_cmp(z, rc->r) < 0;
                mulred_scalar256 again;
                mulred_msm_synth_scalar(&again, (mulred_curve)c, seed, firsts[f] + i);
                below &= memcmp(&again, &s[i], sizeof again) == 0;
                if (i % 23 == 0 || i + 1 == n || (firsts[f] + i) % 1024 == 0) {
                    uint64_t al[4];
                    mulred_msm_synth_dlog(al, (mulred_curve)c, seed, firsts[f] + i);
                    ref_mpz_from_u256(a, al);
                    logs &= mpz_cmp(a, rc->r) < 0;
                    ref_mul(rc, &want, &rc->g, a);
                    logs &= aff_matches(c, pts + i * aff, &want);
                }
            }
            CU_ASSERT(all_in);
            CU_ASSERT(below);
            CU_ASSERT(logs);
            ref_point_clear(&want);
            mpz_clears(a, z, NULL);
        }
        free(pts), free(s);
    }
}

static void test_synth_split(void)
{
    for (int c = 0; c < 2; c++) {
        const size_t aff = mulred_msm_affine_bytes((mulred_curve)c), n = 5000;
        uint8_t *whole = malloc(n * aff), *parts = malloc(n * aff);
        mulred_scalar256 *sw = malloc(n * sizeof *sw), *sp = malloc(n * sizeof *sp);
        CU_ASSERT_FATAL(whole && parts && sw && sp);
        mulred_error err;
        const uint64_t seed = 42, base = 77;
        CU_ASSERT_FATAL(mulred_msm_synth(whole, sw, (mulred_curve)c, seed, base, n, 3, &err) ==
                        MULRED_OK);
        /* cuts at random places, each piece with its own thread count */
        size_t at = 0;
        while (at < n) {
            size_t len = 1 + (size_t)test_rand_below(at ? 1500 : 1);
            if (len > n - at) len = n - at;
            CU_ASSERT_FATAL(mulred_msm_synth(parts + at * aff, sp + at, (mulred_curve)c, seed,
                                             base + at, len, 1 + (int)test_rand_below(3),
                                             &err) == MULRED_OK);
            at += len;
        }
        CU_ASSERT(memcmp(whole, parts, n * aff) == 0);
        CU_ASSERT(memcmp(sw, sp, n * sizeof *sw) == 0);
        /* another seed is another set */
        CU_ASSERT_FATAL(mulred_msm_synth(parts, sp, (mulred_curve)c, seed + 1, base, 64, 1, &err) ==
                        MULRED_OK);
        CU_ASSERT(memcmp(whole, parts, 64 * aff) != 0);
        /* n = 0 is nothing */
        CU_ASSERT(mulred_msm_synth(parts, sp, (mulred_curve)c, seed, 0, 0, 1, &err) == MULRED_OK);
        free(whole), free(parts), free(sw), free(sp);
    }
}

/* ---- pair files written from mpz ---- */

typedef struct {
    int c;
    size_t n, R;
    ref_point *pts;  /* reference points */
    mpz_t *scalars;  /* 256-bit scalars */
    uint8_t *binary; /* the records, built from the mpz values */
} pair_set;

static void record_point(uint8_t *rec, int c, const ref_point *p)
{
    const ref_curve *rc = ref_curve_get(c);
    const size_t cb = c == 0 ? 64 : 32; /* an encoded coordinate */
    memset(rec, 0, 2 * cb);
    if (p->inf) return;
    ref_mpz_to_be(rec + cb - rc->pbytes, rc->pbytes, p->x);
    ref_mpz_to_be(rec + 2 * cb - rc->pbytes, rc->pbytes, p->y);
}

static void pairs_make(pair_set *ps, int c, size_t n)
{
    const ref_curve *rc = ref_curve_get(c);
    ps->c = c;
    ps->n = n;
    ps->R = mulred_msm_record_bytes((mulred_curve)c);
    CU_ASSERT_EQUAL(ps->R, c == 0 ? 160 : 96);
    ps->pts = malloc(n * sizeof *ps->pts);
    ps->scalars = malloc(n * sizeof *ps->scalars);
    ps->binary = malloc(n * ps->R);
    CU_ASSERT_FATAL(ps->pts && ps->scalars && ps->binary);
    mpz_t a;
    mpz_init(a);
    for (size_t i = 0; i < n; i++) {
        ref_point_init(&ps->pts[i]);
        mpz_init(ps->scalars[i]);
        if (i % 7 != 3) { /* every 7th an infinity */
            uint64_t k[4];
            for (int j = 0; j < 4; j++) k[j] = test_rand64();
            ref_mpz_from_u256(a, k);
            mpz_mod(a, a, rc->r);
            ref_mul(rc, &ps->pts[i], &rc->g, a);
        }
        uint64_t s[4];
        for (int j = 0; j < 4; j++) s[j] = test_rand64();
        if (i % 5 == 1) memset(s, 0, sizeof s);
        if (i % 6 == 2) memset(s, 0xff, sizeof s);
        ref_mpz_from_u256(ps->scalars[i], s);
        uint8_t *rec = ps->binary + i * ps->R;
        record_point(rec, c, &ps->pts[i]);
        ref_mpz_to_be(rec + ps->R - 32, 32, ps->scalars[i]);
    }
    mpz_clear(a);
}

static void pairs_free(pair_set *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        ref_point_clear(&ps->pts[i]);
        mpz_clear(ps->scalars[i]);
    }
    free(ps->pts), free(ps->scalars), free(ps->binary);
}

enum { LAYOUT_LINE, LAYOUT_PREFIX_UPPER, LAYOUT_LINES_CRLF, LAYOUT_SCATTERED, LAYOUT_BINARY };

static const char *write_layout(const pair_set *ps, int layout, const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    const size_t bytes = ps->n * ps->R;
    if (layout == LAYOUT_BINARY) {
        fwrite(ps->binary, 1, bytes, f);
        fclose(f);
        return path;
    }
    if (layout == LAYOUT_PREFIX_UPPER) fputs("0X", f);
    for (size_t i = 0; i < bytes; i++) {
        const uint8_t b = ps->binary[i];
        if (layout == LAYOUT_LINES_CRLF && i % ps->R == 0) fputs(i ? "\r\n0x" : "0x", f);
        if (layout == LAYOUT_SCATTERED) {
            static const char *const spaces[] = {"", "", " ", "\n", "\t", "  \n ", "\r\n"};
            const unsigned k = (unsigned)test_rand_below(7);
            fputs(spaces[k], f);
            if (k >= 2 && test_rand_below(4) == 0) fputs(test_rand_below(2) ? "0x" : "0X", f);
        }
        fprintf(f, layout == LAYOUT_PREFIX_UPPER ? "%02X" : "%02x", b);
        if (layout == LAYOUT_SCATTERED && test_rand_below(5) == 0) fputc(' ', f);
    }
    if (layout != LAYOUT_LINE) fputs("\n", f);
    fclose(f);
    return path;
}

/* Counts the digits of every unit in `runs` random runs, indexes, and checks the pair count. */
static mulred_msm_file *open_indexed(const char *path, int c, bool binary, size_t unit, int runs,
                                     mulred_error *err)
{
    mulred_msm_file *f;
    if (mulred_msm_file_open(&f, path, (mulred_curve)c, binary, unit, err)) return NULL;
    const uint64_t units = mulred_msm_file_units(f);
    if (binary) {
        CU_ASSERT_EQUAL(units, 0);
        return f;
    }
    uint64_t *digits = calloc(units + 1, sizeof *digits);
    CU_ASSERT_FATAL(digits != NULL);
    int rc = MULRED_OK;
    for (int r = 0; r < runs && rc == MULRED_OK; r++) {
        const uint64_t a = units * (uint64_t)r / (uint64_t)runs,
                       b = units * (uint64_t)(r + 1) / (uint64_t)runs;
        rc = mulred_msm_file_count(digits + a, f, a, b, err);
    }
    if (rc == MULRED_OK) rc = mulred_msm_file_index(f, digits, err);
    free(digits);
    if (rc) {
        mulred_msm_file_close(f);
        return NULL;
    }
    return f;
}

static int slice_matches(const pair_set *ps, const uint8_t *pts, const mulred_scalar256 *s,
                         uint64_t first, uint64_t end)
{
    const size_t aff = mulred_msm_affine_bytes((mulred_curve)ps->c);
    int ok = 1;
    mpz_t z;
    mpz_init(z);
    for (uint64_t i = first; i < end; i++) {
        ok &= aff_matches(ps->c, pts + (i - first) * aff, &ps->pts[i]);
        ref_mpz_from_u256(z, s[i - first].l);
        ok &= mpz_cmp(z, ps->scalars[i]) == 0;
    }
    mpz_clear(z);
    return ok;
}

static void test_pair_layouts(void)
{
    for (int c = 0; c < 2; c++) {
        pair_set ps;
        pairs_make(&ps, c, 29);
        const size_t aff = mulred_msm_affine_bytes((mulred_curve)c);
        uint8_t *pts = malloc(ps.n * aff);
        mulred_scalar256 *s = malloc(ps.n * sizeof *s);
        for (int layout = LAYOUT_LINE; layout <= LAYOUT_BINARY; layout++) {
            const char *path = write_layout(&ps, layout, "pairs");
            static const size_t units[] = {1, 2, 3, 7, 64, 0};
            for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
                mulred_error err;
                const bool binary = layout == LAYOUT_BINARY;
                mulred_msm_file *f =
                    open_indexed(path, c, binary, units[u], 1 + (int)test_rand_below(5), &err);
                if (!f) {
                    fprintf(stderr, "layout %d unit %zu: %s\n", layout, units[u], err.message);
                    CU_FAIL("open");
                    continue;
                }
                CU_ASSERT_EQUAL(mulred_msm_file_pairs(f), ps.n);
                /* the whole file, then random slices */
                CU_ASSERT_FATAL(mulred_msm_file_read(pts, s, f, 0, ps.n, 2, &err) == MULRED_OK);
                CU_ASSERT(slice_matches(&ps, pts, s, 0, ps.n));
                for (int round = 0; round < 6; round++) {
                    uint64_t a = test_rand_below(ps.n + 1), b = test_rand_below(ps.n + 1);
                    if (a > b) {
                        const uint64_t t = a;
                        a = b, b = t;
                    }
                    CU_ASSERT_FATAL(mulred_msm_file_read(pts, s, f, a, b,
                                                         1 + (int)test_rand_below(3),
                                                         &err) == MULRED_OK);
                    CU_ASSERT(slice_matches(&ps, pts, s, a, b));
                }
                mulred_msm_file_close(f);
            }
        }
        free(pts), free(s);
        pairs_free(&ps);
    }
}

/* A unit boundary between the '0' and the 'x' of a prefix, and inside a record. */
static void test_prefix_across_units(void)
{
    pair_set ps;
    pairs_make(&ps, 1, 3);
    char path[512];
    snprintf(path, sizeof path, "%s/prefix", test_tmpdir());
    for (size_t unit = 1; unit <= 9; unit++) {
        FILE *f = fopen(path, "wb");
        CU_ASSERT_FATAL(f != NULL);
        /* "  0x" + record 0, "\n0x" + records 1 and 2 in two tokens */
        fputs("  0x", f);
        for (size_t i = 0; i < ps.R; i++) fprintf(f, "%02x", ps.binary[i]);
        fputs("\n0X", f);
        for (size_t i = ps.R; i < 2 * ps.R; i++) fprintf(f, "%02x", ps.binary[i]);
        fputs(" 0x", f);
        for (size_t i = 2 * ps.R; i < 3 * ps.R; i++) fprintf(f, "%02x", ps.binary[i]);
        fclose(f);
        mulred_error err;
        mulred_msm_file *pf = open_indexed(path, 1, false, unit, 3, &err);
        CU_ASSERT_FATAL(pf != NULL);
        CU_ASSERT_EQUAL(mulred_msm_file_pairs(pf), 3);
        abuf pts[3];
        mulred_scalar256 s[3];
        CU_ASSERT_FATAL(mulred_msm_file_read(pts, s, pf, 1, 3, 1, &err) == MULRED_OK);
        CU_ASSERT(slice_matches(&ps, (const uint8_t *)pts, s, 1, 3));
        mulred_msm_file_close(pf);
    }
    pairs_free(&ps);
}

/* ---- bad files ---- */

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    if (len) fwrite(data, 1, len, f);
    fclose(f);
}

static void write_hex(const char *path, const uint8_t *data, size_t len)
{
    char *text = malloc(2 * len + 2);
    for (size_t i = 0; i < len; i++) sprintf(text + 2 * i, "%02x", data[i]);
    text[2 * len] = '\n';
    write_bytes(path, text, 2 * len + 1);
    free(text);
}

/* Opens, counts, indexes and reads everything; returns the status, the message in err. */
static int read_all(const char *path, int c, bool binary, int threads, mulred_error *err)
{
    mulred_msm_file *f = open_indexed(path, c, binary, 5, 3, err);
    if (!f) return err->status;
    const uint64_t n = mulred_msm_file_pairs(f);
    const size_t aff = mulred_msm_affine_bytes((mulred_curve)c);
    void *pts = malloc(n * aff + 1);
    mulred_scalar256 *s = malloc(n * sizeof *s + 1);
    int rc = mulred_msm_file_read(pts, s, f, 0, n, threads, err);
    if (rc == MULRED_OK)
        rc = mulred_msm_check_subgroup(pts, n, (mulred_curve)c, 0, path, threads, err);
    free(pts), free(s);
    mulred_msm_file_close(f);
    return rc;
}

static void expect_error(const char *path, int c, bool binary, const char *what)
{
    for (int threads = 1; threads <= 3; threads++) {
        mulred_error err;
        mulred_error_clear(&err);
        const int rc = read_all(path, c, binary, threads, &err);
        CU_ASSERT_EQUAL(rc, MULRED_EINPUT);
        char want[700];
        snprintf(want, sizeof want, "%s: %s", path, what);
        if (rc != MULRED_EINPUT || strcmp(err.message, want) != 0) {
            fprintf(stderr, "got  '%s'\nwant '%s'\n", err.message, want);
            CU_FAIL("error message");
        }
    }
}

static void test_bad_text(void)
{
    pair_set ps;
    pairs_make(&ps, 1, 4);
    char path[512], want[200];
    snprintf(path, sizeof path, "%s/bad", test_tmpdir());
    const size_t len = ps.n * ps.R;
    char *text = malloc(2 * len + 16);
    for (size_t i = 0; i < len; i++) sprintf(text + 2 * i, "%02x", ps.binary[i]);
    /* a bad letter at byte 301 */
    char keep = text[301];
    text[301] = 'g';
    write_bytes(path, text, 2 * len);
    expect_error(path, 1, false, "byte 301: 'g' is not a hex digit");
    /* a control byte */
    text[301] = 1;
    write_bytes(path, text, 2 * len);
    expect_error(path, 1, false, "byte 301: 0x01 is not a hex digit");
    /* an 'x' inside a token: "...0x..." at 300 is no prefix */
    text[300] = '0', text[301] = 'x';
    write_bytes(path, text, 2 * len);
    expect_error(path, 1, false, "byte 301: 'x' is not a hex digit");
    text[301] = keep;
    /* one digit missing: pair 3 (4 of 96 bytes) starts at byte 3 * 192 of line 1 */
    write_bytes(path, text, 2 * len - 1);
    snprintf(want, sizeof want,
             "pair 3 (line 1, byte 576): incomplete: 191 of 192 hex digits (%zu hex digits: not "
             "a whole number of 96-byte pairs)",
             2 * len - 1);
    expect_error(path, 1, false, want);
    /* one record per line ("0x" + 192 digits + "\r\n": 196 bytes), the last cut after 36 digits:
     * pair 3 starts on line 4, at byte 3 * 196 + 2 */
    char *lines = malloc(4 * 196 + 1), *at = lines;
    for (size_t i = 0; i < 4; i++) at += sprintf(at, "0x%.192s\r\n", text + 192 * i);
    write_bytes(path, lines, 3 * 196 + 2 + 36);
    expect_error(path, 1, false,
                 "pair 3 (line 4, byte 590): incomplete: 36 of 192 hex digits (612 hex digits: "
                 "not a whole number of 96-byte pairs)");
    free(lines);
    /* empty, blank, a lone prefix */
    write_bytes(path, "", 0);
    expect_error(path, 1, false, "no pairs (empty input)");
    write_bytes(path, " \n\t\r\n", 5);
    expect_error(path, 1, false, "no pairs (empty input)");
    write_bytes(path, "0x\n", 3);
    expect_error(path, 1, false, "no pairs (empty input)");
    /* binary: a size off the record, empty */
    write_bytes(path, ps.binary, len - 1);
    snprintf(want, sizeof want,
             "pair 3 (byte 288): incomplete: 95 of 96 bytes (%zu bytes: not a whole number of "
             "96-byte pairs)",
             len - 1);
    expect_error(path, 1, true, want);
    write_bytes(path, "", 0);
    expect_error(path, 1, true, "no pairs (empty input)");
    /* missing file, a directory */
    mulred_msm_file *f;
    mulred_error err;
    snprintf(path, sizeof path, "%s/no-such-file", test_tmpdir());
    CU_ASSERT_EQUAL(mulred_msm_file_open(&f, path, MULRED_CURVE_BN254, false, 0, &err),
                    MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "no-such-file: cannot open") != NULL);
    CU_ASSERT_EQUAL(mulred_msm_file_open(&f, test_tmpdir(), MULRED_CURVE_BN254, false, 0, &err),
                    MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "not a regular file") != NULL);
    /* a FIFO without a writer: refused at once, not waited on */
    snprintf(path, sizeof path, "%s/fifo", test_tmpdir());
    unlink(path);
    CU_ASSERT_FATAL(mkfifo(path, 0600) == 0);
    CU_ASSERT_EQUAL(mulred_msm_file_open(&f, path, MULRED_CURVE_BLS12_381, true, 0, &err),
                    MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "fifo: not a regular file") != NULL);
    unlink(path);
    free(text);
    pairs_free(&ps);
}

/* Bad points: the record of pair k spoiled in one way; the lowest bad pair is reported. */
static void test_bad_points(void)
{
    for (int c = 0; c < 2; c++) {
        const ref_curve *rc = ref_curve_get(c);
        pair_set ps;
        pairs_make(&ps, c, 40);
        const size_t R = ps.R, cb = c == 0 ? 64 : 32;
        uint8_t *bad = malloc(ps.n * R);
        char path[512], want[300];
        snprintf(path, sizeof path, "%s/badpt", test_tmpdir());
        for (int kind = 0; kind < 4; kind++) {
            if (c == 1 && kind == 0) continue; /* EIP-196 has no padding */
            memcpy(bad, ps.binary, ps.n * R);
            const size_t k = 9 + (size_t)kind; /* the pair that fails (its scalar set to 0) */
            const size_t k2 = 33;              /* a second bad pair, higher */
            mulred_decode_reason st = MULRED_DECODE_VALID;
            for (int which = 0; which < 2; which++) {
                uint8_t *rec = bad + (which ? k2 : k) * R;
                if (!which) memset(rec + R - 32, 0, 32);
                switch (kind) {
                case 0: /* padding byte of y */
                    rec[cb + 3] = 1;
                    st = MULRED_DECODE_EPADDING;
                    break;
                case 1: /* x = p */
                    ref_mpz_to_be(rec + cb - rc->pbytes, rc->pbytes, rc->p);
                    st = MULRED_DECODE_ERANGE;
                    break;
                case 2: { /* y + 1: off the curve */
                    ref_point q;
                    ref_point_init(&q);
                    ref_point_set(&q, &ps.pts[5]);
                    mpz_add_ui(q.y, q.y, 1);
                    record_point(rec, c, &q);
                    ref_point_clear(&q);
                    st = MULRED_DECODE_ECURVE;
                    break;
                }
                case 3: { /* x = 0, y = 0 is infinity; (0, 1) is not on the curve either */
                    memset(rec, 0, 2 * cb);
                    rec[2 * cb - 1] = 1;
                    st = MULRED_DECODE_ECURVE;
                    break;
                }
                }
            }
            write_bytes(path, bad, ps.n * R);
            snprintf(want, sizeof want, "pair %zu (byte %zu): point: %s", k, k * R,
                     mulred_decode_reason_text(st));
            expect_error(path, c, true, want);
            write_hex(path, bad, ps.n * R);
            snprintf(want, sizeof want, "pair %zu (byte %zu): point: %s", k, 2 * k * R,
                     mulred_decode_reason_text(st));
            expect_error(path, c, false, want);
        }
        if (c == 0) { /* on the curve, outside G1, scalar 0 */
            memcpy(bad, ps.binary, ps.n * R);
            ref_point q;
            ref_point_init(&q);
            ref_point_off_subgroup(rc, &q, 7);
            CU_ASSERT(ref_on_curve(rc, &q));
            record_point(bad + 17 * R, c, &q);
            memset(bad + 17 * R + R - 32, 0, 32);
            record_point(bad + 30 * R, c, &q);
            ref_point_clear(&q);
            write_bytes(path, bad, ps.n * R);
            snprintf(want, sizeof want, "pair 17: point: %s",
                     mulred_decode_reason_text(MULRED_DECODE_ESUBGROUP));
            expect_error(path, c, true, want);
            /* the subgroup check of a slice names pairs by their file index */
            abuf pts[40];
            mulred_scalar256 s[40];
            mulred_error err;
            mulred_msm_file *f = open_indexed(path, c, true, 0, 1, &err);
            CU_ASSERT_FATAL(f != NULL);
            CU_ASSERT_FATAL(mulred_msm_file_read(pts, s, f, 20, 40, 2, &err) == MULRED_OK);
            CU_ASSERT_EQUAL(
                mulred_msm_check_subgroup(pts, 20, MULRED_CURVE_BLS12_381, 20, "F", 3, &err),
                MULRED_EINPUT);
            snprintf(want, sizeof want, "F: pair 30: point: %s",
                     mulred_decode_reason_text(MULRED_DECODE_ESUBGROUP));
            CU_ASSERT_STRING_EQUAL(err.message, want);
            mulred_msm_file_close(f);
        }
        free(bad);
        pairs_free(&ps);
    }
}

/* mulred_msm_encode_pairs writes what the mpz-built records hold. */
static void test_encode_pairs(void)
{
    for (int c = 0; c < 2; c++) {
        pair_set ps;
        pairs_make(&ps, c, 15);
        char path[512];
        snprintf(path, sizeof path, "%s/enc", test_tmpdir());
        write_bytes(path, ps.binary, ps.n * ps.R);
        mulred_error err;
        mulred_msm_file *f = open_indexed(path, c, true, 0, 1, &err);
        CU_ASSERT_FATAL(f != NULL);
        abuf pts[15];
        mulred_scalar256 s[15];
        CU_ASSERT_FATAL(mulred_msm_file_read(pts, s, f, 0, 15, 1, &err) == MULRED_OK);
        uint8_t *out = malloc(ps.n * ps.R);
        mulred_msm_encode_pairs(out, pts, s, ps.n, (mulred_curve)c);
        CU_ASSERT(memcmp(out, ps.binary, ps.n * ps.R) == 0);
        free(out);
        mulred_msm_file_close(f);
        pairs_free(&ps);
    }
}

/* ---- bytes in, bytes out ---- */

/* Every case of a precompile's vector file through mulred_msm_encoded. */
static int check_encoded_vectors(const char *rel, mulred_curve c)
{
    json_t *v = test_load_json(rel);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    int cases = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *k = json_array_get(v, i);
        size_t in_len, want_len;
        uint8_t *in = test_unhex(json_string_value(json_object_get(k, "Input")), &in_len);
        uint8_t *want = test_unhex(json_string_value(json_object_get(k, "Expected")), &want_len);
        CU_ASSERT_EQUAL(want_len, mulred_msm_result_bytes(c));
        for (int threads = 1; threads <= 3; threads += 2) {
            uint8_t out[128];
            mulred_error err;
            mulred_error_clear(&err);
            const int st = mulred_msm_encoded(out, sizeof out, c, in, in_len, threads, &err);
            CU_ASSERT_EQUAL(st, MULRED_OK);
            CU_ASSERT(st == MULRED_OK && memcmp(out, want, want_len) == 0);
            if (st != MULRED_OK || memcmp(out, want, want_len) != 0)
                printf("\n    %s: %s: %s", rel, json_string_value(json_object_get(k, "Name")),
                       err.message);
        }
        free(in), free(want);
        cases++;
    }
    json_decref(v);
    return cases;
}

static void test_encoded_vectors(void)
{
    CU_ASSERT(check_encoded_vectors("eip2537/msm_G1_bls.json", MULRED_CURVE_BLS12_381) >= 100);
    CU_ASSERT(check_encoded_vectors("eip196/bn256ScalarMul.json", MULRED_CURVE_BN254) >= 18);
}

static void test_encoded_bad(void)
{
    json_t *v = test_load_json("eip2537/fail-msm_G1_bls.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    int points = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *k = json_array_get(v, i);
        size_t in_len;
        uint8_t *in = test_unhex(json_string_value(json_object_get(k, "Input")), &in_len);
        uint8_t out[128];
        mulred_error err;
        mulred_error_clear(&err);
        const int st =
            mulred_msm_encoded(out, sizeof out, MULRED_CURVE_BLS12_381, in, in_len, 2, &err);
        if (in_len == 0) {
            /* bls_g1msm_empty_input: "invalid input length" */
            CU_ASSERT_EQUAL(st, MULRED_EINPUT);
            CU_ASSERT_STRING_EQUAL(err.message, "no pairs (empty input)");
        } else if (in_len % 160) {
            CU_ASSERT_EQUAL(st, MULRED_EINPUT);
            char want[64];
            snprintf(want, sizeof want, "%zu bytes: not a whole number of 160-byte records",
                     in_len);
            CU_ASSERT_STRING_EQUAL(err.message, want);
        } else {
            /* a bad point: the record and the failed check named */
            CU_ASSERT_EQUAL(st, MULRED_EINPUT);
            CU_ASSERT(strncmp(err.message, "record ", 7) == 0 &&
                      strstr(err.message, ": point: ") != NULL);
            const char *name = json_string_value(json_object_get(k, "Name"));
            char msg[160];
            snprintf(msg, sizeof msg, "record 0: point: %s",
                     mulred_decode_reason_text(strstr(name, "not_in_correct_subgroup")
                                                   ? MULRED_DECODE_ESUBGROUP
                                               : strstr(name, "curve") ? MULRED_DECODE_ECURVE
                                                                       : MULRED_DECODE_VALID));
            if (strstr(name, "subgroup") || strstr(name, "curve"))
                CU_ASSERT_STRING_EQUAL(err.message, msg);
            points++;
        }
        free(in);
    }
    CU_ASSERT(points >= 4);
    json_decref(v);
    /* the lowest bad record is named, here record 2 of 4 (records 0, 1 and 3 good) */
    json_t *good = test_load_json("eip2537/msm_G1_bls.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(good);
    size_t glen, blen;
    uint8_t *g =
        test_unhex(json_string_value(json_object_get(json_array_get(good, 0), "Input")), &glen);
    json_t *bad = test_load_json("eip2537/fail-msm_G1_bls.json");
    uint8_t *b = NULL;
    for (size_t i = 0; i < json_array_size(bad) && !b; i++) {
        const json_t *k = json_array_get(bad, i);
        if (strstr(json_string_value(json_object_get(k, "Name")), "not_in_correct_subgroup"))
            b = test_unhex(json_string_value(json_object_get(k, "Input")), &blen);
    }
    CU_ASSERT_FATAL(b != NULL && glen == 160 && blen == 320);
    uint8_t rec[4 * 160];
    memcpy(rec, g, 160), memcpy(rec + 160, g, 160), memcpy(rec + 480, g, 160);
    memcpy(rec + 320, b, 160); /* the first record of that case is the point outside G1 */
    mulred_error err;
    uint8_t out[128];
    mulred_error_clear(&err);
    CU_ASSERT_EQUAL(mulred_msm_encoded(out, 128, MULRED_CURVE_BLS12_381, rec, sizeof rec, 3, &err),
                    MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "record 2: point: point not in the prime-order subgroup G1");
    free(g), free(b);
    json_decref(good), json_decref(bad);
}

static int misuse_calls;
static void count_misuse(const char *msg, void *data)
{
    (void)msg, (void)data;
    misuse_calls++;
}

static void test_encoded_misuse(void)
{
    uint8_t out[128];
    mulred_error err;
    mulred_set_illegal_callback(count_misuse, NULL);
    misuse_calls = 0;
    CU_ASSERT_EQUAL(mulred_msm_encoded(out, 127, MULRED_CURVE_BLS12_381, NULL, 0, 0, &err),
                    MULRED_EMISUSE);
    CU_ASSERT_EQUAL(misuse_calls, 1);
    CU_ASSERT_EQUAL(mulred_msm_encoded(out, 64, MULRED_CURVE_BN254, NULL, 0, 0, &err),
                    MULRED_EINPUT);
    CU_ASSERT_EQUAL(misuse_calls, 1);
    CU_ASSERT_EQUAL(mulred_msm_result_bytes(MULRED_CURVE_BN254), 64);
    CU_ASSERT_EQUAL(mulred_msm_result_bytes(MULRED_CURVE_BLS12_381), 128);
    mulred_set_illegal_callback(NULL, NULL);
}

void test_register(void)
{
    TEST_SUITE("msm_io", {"synthetic points are their logarithms times G", test_synth_points},
               {"synthetic sets do not depend on the split", test_synth_split},
               {"pair files: every layout, unit size and slice", test_pair_layouts},
               {"pair files: a prefix across a unit boundary", test_prefix_across_units},
               {"pair files: bad text", test_bad_text},
               {"pair files: bad points name the lowest pair", test_bad_points},
               {"pair files: encoding", test_encode_pairs},
               {"encoded MSM: EIP-2537 and EIP-196 vectors", test_encoded_vectors},
               {"encoded MSM: bad records and lengths", test_encoded_bad},
               {"encoded MSM: misuse", test_encoded_misuse});
}

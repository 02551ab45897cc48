/* The pair-file readers of both curves (mulred/msm_io.h), text and binary, differential against
 * a decoder written here from the documented layout: the hex rules (digits of either case,
 * ASCII whitespace ignored, "0x" at a token start ignored, any other byte bad, its offset
 * named), the record length, and per record the curve layer's decoder (EIP-2537 / EIP-196,
 * without the subgroup check, as the reader) and the big-endian scalar. The reader's verdict
 * (accepted, or the message naming the first bad byte, the digit count, or the lowest bad pair
 * and its byte offset) must be the one computed here, and its points and scalars the decoded
 * ones; then the subgroup check of the points agrees with the curve layer's in_g1_var. The
 * count pass runs with tiny units (chosen by the input) and is summed in two halves, as two
 * ranks would; the pairs are read in two slices.
 *
 * Input: a control byte (bit 0: BN254; bit 1: binary; bits 2-4: unit size 1..8 bytes or
 * MULRED_MSM_FILE_UNIT; bits 5-7: where the slices split), then the file's bytes. */
#include "fuzz_common.h"

#include "g1_decode.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "mulred/msm_io.h"

static bool is_space(int b)
{
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f';
}

static int hexval(int b)
{
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

/* The documented hex decode: bytes out (digits / 2), the offset of each digit; returns the
 * offset of the first bad byte, or SIZE_MAX. */
static size_t hex_decode(const uint8_t *t, size_t n, uint8_t *out, size_t *digits, size_t *where)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        const int b = t[i];
        if (is_space(b)) continue;
        const bool start = i == 0 || is_space(t[i - 1]);
        if (b == '0' && start && i + 1 < n && (t[i + 1] == 'x' || t[i + 1] == 'X')) {
            i++; /* the prefix: '0' and 'x' */
            continue;
        }
        const int v = hexval(b);
        if (v < 0) return i;
        where[d] = i;
        if (d & 1)
            out[d / 2] |= (uint8_t)v;
        else
            out[d / 2] = (uint8_t)(v << 4);
        d++;
    }
    *digits = d;
    return SIZE_MAX;
}

static void want_in(const char *msg, const char *want)
{
    FUZZ_CHECK(strstr(msg, want) != NULL, "message '%s' lacks '%s'", msg, want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20)) return 0;
    const mulred_curve c = data[0] & 1 ? MULRED_CURVE_BN254 : MULRED_CURVE_BLS12_381;
    const bool binary = data[0] & 2;
    const unsigned u = (data[0] >> 2) & 7;
    const size_t unit = u == 7 ? 0 : u + 1;
    const uint8_t *t = data + 1;
    const size_t n = size - 1, R = mulred_msm_record_bytes(c), P = R - 32; /* P: point bytes */
    char path[64];
    const int fd = fuzz_memfile(path, t, n);

    /* the reference */
    uint8_t *raw = malloc(n + 1);
    size_t *where = malloc((n + 1) * sizeof *where);
    FUZZ_CHECK(raw && where, "out of memory");
    size_t bytes = n, bad = SIZE_MAX, digits = 2 * n;
    char want[256] = "";
    if (binary) {
        memcpy(raw, t, n);
    } else {
        bad = hex_decode(t, n, raw, &digits, where);
        bytes = digits / 2;
    }
    if (bad != SIZE_MAX)
        snprintf(want, sizeof want, "%s: byte %zu: ", path, bad);
    else if (digits == 0)
        snprintf(want, sizeof want, "%s: no pairs (empty input)", path);
    else if (binary && n % R)
        snprintf(want, sizeof want,
                 "%s: pair %zu (byte %zu): incomplete: %zu of %zu bytes (%zu bytes: not a whole "
                 "number of %zu-byte pairs)",
                 path, n / R, n / R * R, n % R, R, n, R);
    else if (!binary && digits % (2 * R)) {
        /* the cut record: its first digit's byte and line (newlines before it, from 1) */
        const size_t pair = digits / (2 * R), at = where[pair * 2 * R];
        size_t line = 1;
        for (size_t i = 0; i < at; i++) line += t[i] == '\n';
        snprintf(want, sizeof want,
                 "%s: pair %zu (line %zu, byte %zu): incomplete: %zu of %zu hex digits (%zu hex "
                 "digits: not a whole number of %zu-byte pairs)",
                 path, pair, line, at, digits - pair * 2 * R, 2 * R, digits, R);
    }
    const size_t pairs = want[0] ? 0 : bytes / R;
    const size_t aff = mulred_msm_affine_bytes(c);
    uint8_t *ref = calloc(pairs + 1, aff);
    size_t lowest = SIZE_MAX;
    mulred_decode_reason lowest_st = MULRED_DECODE_VALID;
    for (size_t i = 0; i < pairs && lowest == SIZE_MAX; i++) {
        const uint8_t *rec = raw + i * R;
        const mulred_decode_reason st =
            c == MULRED_CURVE_BN254
                ? dec_254_eip196((mulred_g1_254_affine *)(ref + i * aff), rec, 0)
                : dec_381_eip2537((mulred_g1_381_affine *)(ref + i * aff), rec,
                                  MULRED_DECODE_SKIP_SUBGROUP_CHECK);
        if (st != MULRED_DECODE_VALID) lowest = i, lowest_st = st;
    }
    if (lowest != SIZE_MAX)
        snprintf(want, sizeof want, "%s: pair %zu (byte %zu): point: %s", path, lowest,
                 binary ? lowest * R : where[2 * lowest * R], mulred_decode_reason_text(lowest_st));

    /* the reader, as two ranks would drive it */
    mulred_error err;
    mulred_error_clear(&err);
    mulred_msm_file *f = NULL;
    int rc = mulred_msm_file_open(&f, path, c, binary, unit, &err);
    if (rc == MULRED_OK && !binary) {
        const uint64_t units = mulred_msm_file_units(f), half = units / 2;
        uint64_t *cnt = calloc(units, sizeof *cnt);
        FUZZ_CHECK(cnt, "out of memory");
        rc = mulred_msm_file_count(cnt + half, f, half, units, &err);
        mulred_error e0;
        mulred_error_clear(&e0);
        const int rc0 = mulred_msm_file_count(cnt, f, 0, half, &e0);
        if (rc0 != MULRED_OK) rc = rc0, err = e0; /* the lower rank's error comes first */
        if (rc == MULRED_OK) rc = mulred_msm_file_index(f, cnt, &err);
        free(cnt);
    }
    void *pts = NULL;
    mulred_scalar256 *sc = NULL;
    uint64_t got_pairs = 0;
    if (rc == MULRED_OK) {
        got_pairs = mulred_msm_file_pairs(f);
        FUZZ_CHECK(got_pairs == bytes / R, "%llu pairs, the layout gives %zu",
                   (unsigned long long)got_pairs, bytes / R);
        pts = calloc(got_pairs + 1, aff);
        sc = calloc(got_pairs + 1, sizeof *sc);
        FUZZ_CHECK(pts && sc, "out of memory");
        const uint64_t split = got_pairs * ((data[0] >> 5) & 7) / 7;
        mulred_error e1;
        mulred_error_clear(&e1);
        const int rc1 = mulred_msm_file_read((uint8_t *)pts + split * aff, sc + split, f, split,
                                             got_pairs, 1, &e1);
        rc = mulred_msm_file_read(pts, sc, f, 0, split, 1, &err);
        if (rc == MULRED_OK && rc1 != MULRED_OK) rc = rc1, err = e1;
    }
    if (want[0]) {
        FUZZ_CHECK(rc == MULRED_EINPUT, "accepted (status %d); expected '%s'", rc, want);
        want_in(err.message, want);
    } else {
        FUZZ_CHECK(rc == MULRED_OK, "refused: '%s'", err.message);
        FUZZ_CHECK(memcmp(pts, ref, got_pairs * aff) == 0, "points differ from the decoder's");
        for (size_t i = 0; i < got_pairs; i++)
            for (int l = 0; l < 4; l++) {
                uint64_t v = 0;
                for (int b = 0; b < 8; b++) v = v << 8 | raw[i * R + P + 8 * (3 - l) + b];
                FUZZ_CHECK(sc[i].l[l] == v, "scalar %zu limb %d", i, l);
            }
        /* the subgroup check names the lowest point outside G1 */
        size_t out = SIZE_MAX;
        for (size_t i = 0; c == MULRED_CURVE_BLS12_381 && i < got_pairs && out == SIZE_MAX; i++)
            if (!mulred_g1_381_affine_in_g1_var((const mulred_g1_381_affine *)pts + i)) out = i;
        mulred_error_clear(&err);
        rc = mulred_msm_check_subgroup(pts, got_pairs, c, 0, path, 1, &err);
        if (out == SIZE_MAX) {
            FUZZ_CHECK(rc == MULRED_OK, "subgroup check refused: %s", err.message);
        } else {
            char w[96];
            snprintf(w, sizeof w, "%s: pair %zu: ", path, out);
            FUZZ_CHECK(rc == MULRED_EINPUT, "subgroup check accepted pair %zu", out);
            want_in(err.message, w);
        }
    }
    mulred_msm_file_close(f);
    free(pts), free(sc), free(ref), free(raw), free(where);
    close(fd);
    return 0;
}

/* The KZG trusted-setup and blob readers (mulred/kzg.h).
 *
 * Input: a mode byte, then bytes.
 *   mode 0: a blob, differential against the documented rule written here (blanks and
 *           newlines around, an optional 0x, then exactly 262144 hex digits, every 32-byte
 *           big-endian element below r; else the first bad byte's offset, an odd count, the
 *           wrong length, or the first element >= r and the offset of its digits named, in
 *           one line); an accepted blob's bytes are its digits'.
 *   mode 1: the bytes as a whole setup file (no cache): refused with a message naming the
 *           file and a line, or accepted and able to commit.
 *   mode 2: tests/vectors/kzg/trusted_setup.txt (from MULRED_VECTORS or the source tree)
 *           with the bytes spliced in at an offset below 8 KiB (2 bytes of offset, 1 of
 *           length to replace, then the new bytes): the counts and the first Lagrange points
 *           are reached with everything after them valid.
 *   mode 3: blob elements (2 bytes of index, 32 bytes of value, repeated) committed with the
 *           real setup: refused exactly when an element is not below r (mpz), naming the
 *           first such element. */
#include "fuzz_common.h"

#include <gmp.h>

#include "mulred/kzg.h"

#ifndef MULRED_VECTORS_DIR_DEFAULT
#define MULRED_VECTORS_DIR_DEFAULT "tests/vectors"
#endif

static const char *R_HEX = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static int hexval(int b)
{
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

static bool blank(int b)
{
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
}

static void want_in(const char *msg, const char *want)
{
    FUZZ_CHECK(strstr(msg, want) != NULL, "message '%s' lacks '%s'", msg, want);
}

static char *setup_text;
static size_t setup_len;

static void load_vector_setup(void)
{
    if (setup_text) return;
    const char *dir = getenv("MULRED_VECTORS");
    char path[4096];
    snprintf(path, sizeof path, "%s/kzg/trusted_setup.txt", dir ? dir : MULRED_VECTORS_DIR_DEFAULT);
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f, "cannot open %s (set MULRED_VECTORS)", path);
    setup_text = malloc(1 << 20);
    FUZZ_CHECK(setup_text, "out of memory");
    setup_len = fread(setup_text, 1, 1 << 20, f);
    fclose(f);
    FUZZ_CHECK(setup_len > 8192 && setup_len < (1 << 20), "setup of %zu bytes", setup_len);
}

static void blob_case(const uint8_t *t, size_t n)
{
    /* the documented rule */
    size_t a = 0, b = n;
    while (a < b && blank(t[a])) a++;
    while (b > a && blank(t[b - 1])) b--;
    if (b - a >= 2 && t[a] == '0' && (t[a + 1] == 'x' || t[a + 1] == 'X')) a += 2;
    char want[128] = "";
    size_t bad = SIZE_MAX;
    for (size_t i = a; i < b && bad == SIZE_MAX; i++)
        if (hexval(t[i]) < 0) bad = i;
    if (bad != SIZE_MAX)
        snprintf(want, sizeof want, "blob: byte %zu: ", bad);
    else if ((b - a) % 2)
        snprintf(want, sizeof want, "blob: odd number of hex digits (%zu)", b - a);
    else if ((b - a) / 2 != MULRED_KZG_BLOB_BYTES)
        snprintf(want, sizeof want, "blob: %zu bytes of hex, a blob is %d", (b - a) / 2,
                 MULRED_KZG_BLOB_BYTES);
    else
        for (size_t e = 0; e < MULRED_KZG_BLOB_BYTES / 32 && !want[0]; e++) {
            /* 64 lowercase hex digits against R_HEX: same length, so the order of the values is
             * the order of the digit strings */
            char v[65];
            for (int i = 0; i < 64; i++) v[i] = "0123456789abcdef"[hexval(t[a + 64 * e + i])];
            v[64] = '\0';
            if (strcmp(v, R_HEX) >= 0)
                snprintf(want, sizeof want, "blob: byte %zu: field element %zu is not below",
                         a + 64 * e, e);
        }
    uint8_t *blob = malloc(MULRED_KZG_BLOB_BYTES);
    FUZZ_CHECK(blob, "out of memory");
    mulred_error err;
    mulred_error_clear(&err);
    const int rc = mulred_kzg_blob_parse(blob, (const char *)t, n, "blob", &err);
    if (want[0]) {
        FUZZ_CHECK(rc == MULRED_EINPUT, "blob accepted; expected '%s'", want);
        want_in(err.message, want);
        FUZZ_CHECK(!strchr(err.message, '\n'), "a newline in the message");
    } else {
        FUZZ_CHECK(rc == MULRED_OK, "blob refused: %s", err.message);
        for (size_t i = 0; i < MULRED_KZG_BLOB_BYTES; i++)
            FUZZ_CHECK(blob[i] == (hexval(t[a + 2 * i]) << 4 | hexval(t[a + 2 * i + 1])),
                       "blob byte %zu", i);
    }
    free(blob);
}

static void setup_case(const char *text, size_t len)
{
    char path[64];
    const int fd = fuzz_memfile(path, (const uint8_t *)text, len);
    mulred_kzg_setup *s = NULL;
    mulred_kzg_load_info info;
    mulred_error err;
    mulred_error_clear(&err);
    const int rc = mulred_kzg_setup_load(&s, path, "", &info, &err);
    if (rc == MULRED_OK) {
        /* a commitment to a blob of ones (every element 1) is the sum of the Lagrange points */
        uint8_t *blob = calloc(1, MULRED_KZG_BLOB_BYTES), out[48];
        FUZZ_CHECK(blob, "out of memory");
        for (size_t i = 0; i < MULRED_KZG_FIELD_ELEMENTS; i++) blob[32 * i + 31] = 1;
        FUZZ_CHECK(mulred_kzg_blob_to_commitment(out, s, blob, &err) == MULRED_OK,
                   "commitment refused: %s", err.message);
        FUZZ_CHECK(out[0] & 0x80, "commitment without the compression flag");
        free(blob);
        mulred_kzg_setup_free(s);
    } else {
        FUZZ_CHECK(rc == MULRED_EINPUT, "setup: status %d: %s", rc, err.message);
        char want[80];
        snprintf(want, sizeof want, "%s:", path);
        FUZZ_CHECK(strncmp(err.message, want, strlen(want)) == 0, "message '%s' lacks '%s'",
                   err.message, want);
        FUZZ_CHECK(!strchr(err.message, '\n'), "a newline in the message");
        FUZZ_CHECK(s == NULL, "setup returned on failure");
    }
    close(fd);
}

/* The element-range check of blob_to_commitment against mpz, with any loaded setup. */
static void range_case(const uint8_t *t, size_t n)
{
    static mulred_kzg_setup *s;
    if (!s) {
        load_vector_setup();
        char path[64];
        const int fd = fuzz_memfile(path, (const uint8_t *)setup_text, setup_len);
        mulred_error err;
        mulred_error_clear(&err);
        FUZZ_CHECK(mulred_kzg_setup_load(&s, path, "", NULL, &err) == MULRED_OK, "%s", err.message);
        close(fd);
    }
    uint8_t *blob = calloc(1, MULRED_KZG_BLOB_BYTES), out[48];
    FUZZ_CHECK(blob, "out of memory");
    /* the input's bytes go to elements chosen by its first bytes */
    size_t first = SIZE_MAX;
    mpz_t r, v;
    mpz_inits(r, v, NULL);
    mpz_set_str(r, R_HEX, 16);
    for (size_t k = 0; k + 34 <= n; k += 34) {
        const size_t i = ((size_t)t[k] << 8 | t[k + 1]) % MULRED_KZG_FIELD_ELEMENTS;
        memcpy(blob + 32 * i, t + k + 2, 32);
    }
    for (size_t i = 0; i < MULRED_KZG_FIELD_ELEMENTS && first == SIZE_MAX; i++) {
        mpz_import(v, 32, 1, 1, 0, 0, blob + 32 * i);
        if (mpz_cmp(v, r) >= 0) first = i;
    }
    mulred_error err;
    mulred_error_clear(&err);
    const int rc = mulred_kzg_blob_to_commitment(out, s, blob, &err);
    if (first == SIZE_MAX) {
        FUZZ_CHECK(rc == MULRED_OK, "refused: %s", err.message);
    } else {
        char want[64];
        snprintf(want, sizeof want, "field element %zu (byte offset %zu)", first, 32 * first);
        FUZZ_CHECK(rc == MULRED_EINPUT, "element %zu >= r accepted", first);
        want_in(err.message, want);
    }
    mpz_clears(r, v, NULL);
    free(blob);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const uint8_t *t = data + 1;
    const size_t n = size - 1;
    switch (data[0] & 3) {
    case 0:
        blob_case(t, n);
        break;
    case 1:
        setup_case((const char *)t, n);
        break;
    case 2: {
        if (n < 3) return 0;
        load_vector_setup();
        const size_t off = ((size_t)t[0] << 8 | t[1]) % 8192, cut = t[2];
        const size_t tail = off + cut < setup_len ? setup_len - off - cut : 0;
        char *text = malloc(setup_len + n);
        FUZZ_CHECK(text, "out of memory");
        memcpy(text, setup_text, off);
        memcpy(text + off, t + 3, n - 3);
        memcpy(text + off + n - 3, setup_text + setup_len - tail, tail);
        setup_case(text, off + n - 3 + tail);
        free(text);
        break;
    }
    case 3:
        range_case(t, n);
        break;
    }
    return 0;
}

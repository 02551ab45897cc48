/* EIP-4844 commitments (include/mulred/kzg.h, src/io/kzg.c).
 *
 * Conformance: every blob_to_kzg_commitment case of c-kzg-4844 (tests/vectors/kzg/): valid blobs
 * give the published commitment, invalid ones are rejected. Independently of the library: sparse
 * random blobs against a reference written here (the setup's compressed points decoded with mpz,
 * Σ blob[i]·L[bitreverse(i)] by affine double-and-add, compressed by hand). The cache: written,
 * loaded, and rebuilt when truncated, corrupted, made for another setup, or another width; no
 * cache; an unwritable one. Bad setup files and blobs fail with the line or index. */
#include <dirent.h>
#include <gmp.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "mulred/bases.h"
#include "mulred/curve.h"
#include "mulred/kzg.h"

static const char *setup_path(void)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s", test_vector_path("kzg/trusted_setup.txt"));
    return path;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = '\0';
    *len = (size_t)n;
    return b;
}

static void spit(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_FATAL(fwrite(data, 1, len, f) == len);
    fclose(f);
}

/* One loaded setup for the whole run (built once, cached in the test's temporary directory). */
static mulred_kzg_setup *shared_setup(void)
{
    static mulred_kzg_setup *s;
    if (!s) {
        char cache[4200];
        snprintf(cache, sizeof cache, "%s/shared.table", test_tmpdir());
        mulred_error err;
        mulred_kzg_load_info info;
        CU_ASSERT_FATAL(mulred_kzg_setup_load(&s, setup_path(), cache, &info, &err) == MULRED_OK);
    }
    return s;
}

/* ---- the published cases ------------------------------------------------------------------- */

/* The value of `key: '...'` or `key: null` in a YAML case file (NULL for null). */
static char *yaml_value(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    CU_ASSERT_FATAL(p != NULL);
    p += strlen(key);
    while (*p == ' ') p++;
    if (strncmp(p, "null", 4) == 0) return NULL;
    CU_ASSERT_FATAL(*p == '\'');
    const char *e = strchr(p + 1, '\'');
    CU_ASSERT_FATAL(e != NULL);
    char *v = malloc((size_t)(e - p));
    memcpy(v, p + 1, (size_t)(e - p - 1));
    v[e - p - 1] = '\0';
    return v;
}

static void check_vectors(const mulred_kzg_setup *setup)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", test_vector_path("kzg/blob_to_kzg_commitment"));
    DIR *d = opendir(dir);
    CU_ASSERT_FATAL(d != NULL);
    int valid = 0, invalid = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strstr(de->d_name, ".yaml")) continue;
        char path[8300];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t len;
        char *text = slurp(path, &len);
        CU_ASSERT_FATAL(text != NULL);
        char *blob_hex = yaml_value(text, "blob:"), *want = yaml_value(text, "output:");
        static uint8_t blob[MULRED_KZG_BLOB_BYTES];
        mulred_error err;
        int st = mulred_kzg_blob_parse(blob, blob_hex, strlen(blob_hex), de->d_name, &err);
        uint8_t c[48];
        if (st == MULRED_OK) st = mulred_kzg_blob_to_commitment(c, setup, blob, &err);
        if (want) {
            char got[2 + 97] = "0x";
            for (int i = 0; i < 48; i++) sprintf(got + 2 + 2 * i, "%02x", c[i]);
            CU_ASSERT(st == MULRED_OK);
            CU_ASSERT(st == MULRED_OK && strcmp(got, want) == 0);
            if (st != MULRED_OK || strcmp(got, want) != 0)
                printf("\n    %s: got %s (%s), want %s", de->d_name, got, err.message, want);
            valid++;
        } else {
            CU_ASSERT(st == MULRED_EINPUT);
            invalid++;
        }
        free(blob_hex), free(want), free(text);
    }
    closedir(d);
    CU_ASSERT(valid >= 7 && invalid >= 4); /* the c-kzg-4844 set: 7 valid, 4 invalid */
}

static void test_vectors(void)
{
    check_vectors(shared_setup());
}

/* The setup from bytes in memory: the same commitments, with no cache and through the default
 * cache directory (a fresh XDG_CACHE_HOME: the file is created there, 0700, named by the
 * setup's digest, and loaded the second time). */
static void test_setup_bytes(void)
{
    size_t len;
    char *text = slurp(setup_path(), &len);
    CU_ASSERT_FATAL(text != NULL);
    mulred_kzg_setup *s = NULL;
    mulred_kzg_load_info info;
    mulred_error err;
    CU_ASSERT_FATAL(mulred_kzg_setup_load_bytes(&s, (const uint8_t *)text, len, "", &info, &err) ==
                    MULRED_OK);
    CU_ASSERT_EQUAL(info.cache, MULRED_KZG_CACHE_MEMORY);
    check_vectors(s);
    mulred_kzg_setup_free(s);

    char xdg[4200], dir[4300];
    snprintf(xdg, sizeof xdg, "%s/xdg-cache", test_tmpdir());
    snprintf(dir, sizeof dir, "%s/mulred", xdg);
    char *old = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    setenv("XDG_CACHE_HOME", xdg, 1);
    for (int round = 0; round < 2; round++) {
        CU_ASSERT_FATAL(mulred_kzg_setup_load_bytes(&s, (const uint8_t *)text, len, NULL, &info,
                                                    &err) == MULRED_OK);
        CU_ASSERT_EQUAL(info.cache, round ? MULRED_KZG_CACHE_LOADED : MULRED_KZG_CACHE_WRITTEN);
        CU_ASSERT(strncmp(info.cache_path, dir, strlen(dir)) == 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(info.cache_path, "/kzg-"));
        if (round) check_vectors(s);
        mulred_kzg_setup_free(s);
    }
    struct stat st;
    CU_ASSERT(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
    /* the file loader finds the same cache */
    CU_ASSERT_FATAL(mulred_kzg_setup_load(&s, setup_path(), NULL, &info, &err) == MULRED_OK);
    CU_ASSERT_EQUAL(info.cache, MULRED_KZG_CACHE_LOADED);
    mulred_kzg_setup_free(s);
    /* a cache directory that cannot be made: a note, never a failure */
    char blocked[4300];
    snprintf(blocked, sizeof blocked, "%s/file", test_tmpdir());
    FILE *f = fopen(blocked, "w");
    CU_ASSERT_FATAL(f != NULL);
    fclose(f);
    setenv("XDG_CACHE_HOME", blocked, 1);
    CU_ASSERT_FATAL(mulred_kzg_setup_load_bytes(&s, (const uint8_t *)text, len, NULL, &info,
                                                &err) == MULRED_OK);
    CU_ASSERT_EQUAL(info.cache, MULRED_KZG_CACHE_MEMORY);
    CU_ASSERT(info.note[0] != '\0');
    mulred_kzg_setup_free(s);
    if (old)
        setenv("XDG_CACHE_HOME", old, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    free(old);
    /* bad bytes: messages name "setup" and the line */
    text[0] = 'x';
    CU_ASSERT_EQUAL(mulred_kzg_setup_load_bytes(&s, (const uint8_t *)text, len, "", &info, &err),
                    MULRED_EINPUT);
    CU_ASSERT(strncmp(err.message, "setup:1: ", 9) == 0);
    CU_ASSERT_PTR_NULL(s);
    free(text);
}

/* ---- an independent reference -----------------------------------------------------------------
 */

typedef struct {
    mpz_t x, y;
    int inf;
} rpt;

static mpz_t P, R;

static void rp_add(rpt *r, const rpt *a, const rpt *b)
{
    if (a->inf || b->inf) {
        const rpt *s = a->inf ? b : a;
        mpz_set(r->x, s->x), mpz_set(r->y, s->y), r->inf = s->inf;
        return;
    }
    mpz_t l, t, x3;
    mpz_inits(l, t, x3, NULL);
    if (mpz_cmp(a->x, b->x) == 0) {
        mpz_add(t, a->y, b->y);
        if (mpz_divisible_p(t, P)) {
            r->inf = 1;
            mpz_clears(l, t, x3, NULL);
            return;
        }
        mpz_mul(l, a->x, a->x), mpz_mul_ui(l, l, 3), mpz_mul_ui(t, a->y, 2);
    } else {
        mpz_sub(l, b->y, a->y), mpz_sub(t, b->x, a->x);
    }
    mpz_mod(t, t, P), mpz_invert(t, t, P), mpz_mul(l, l, t), mpz_mod(l, l, P);
    mpz_mul(x3, l, l), mpz_sub(x3, x3, a->x), mpz_sub(x3, x3, b->x), mpz_mod(x3, x3, P);
    mpz_sub(t, a->x, x3), mpz_mul(t, t, l), mpz_sub(t, t, a->y), mpz_mod(r->y, t, P);
    mpz_set(r->x, x3);
    r->inf = 0;
    mpz_clears(l, t, x3, NULL);
}

static void rp_mul(rpt *r, const rpt *a, const mpz_t k)
{
    rpt acc, base;
    mpz_inits(acc.x, acc.y, base.x, base.y, NULL);
    acc.inf = 1;
    mpz_set(base.x, a->x), mpz_set(base.y, a->y), base.inf = a->inf;
    for (size_t i = 0, n = mpz_sizeinbase(k, 2); i < n; i++) {
        if (mpz_tstbit(k, i)) rp_add(&acc, &acc, &base);
        rp_add(&base, &base, &base);
    }
    if (mpz_sgn(k) == 0) acc.inf = 1;
    mpz_set(r->x, acc.x), mpz_set(r->y, acc.y), r->inf = acc.inf;
    mpz_clears(acc.x, acc.y, base.x, base.y, NULL);
}

/* ZCash compressed: flags in the top 3 bits; y = (x³ + 4)^((p+1)/4), the larger root when the
 * sign flag is set. */
static void rp_decompress(rpt *r, const uint8_t in[48])
{
    uint8_t b[48];
    memcpy(b, in, 48);
    CU_ASSERT_FATAL(b[0] & 0x80);
    if (b[0] & 0x40) {
        r->inf = 1;
        return;
    }
    const int sign = (b[0] >> 5) & 1;
    b[0] &= 0x1f;
    mpz_import(r->x, 48, 1, 1, 0, 0, b);
    mpz_t t, e, h;
    mpz_inits(t, e, h, NULL);
    mpz_powm_ui(t, r->x, 3, P), mpz_add_ui(t, t, 4), mpz_mod(t, t, P);
    mpz_add_ui(e, P, 1), mpz_fdiv_q_2exp(e, e, 2), mpz_powm(r->y, t, e, P);
    mpz_sub_ui(h, P, 1), mpz_fdiv_q_2exp(h, h, 1);
    if ((mpz_cmp(r->y, h) > 0) != sign) mpz_sub(r->y, P, r->y);
    r->inf = 0;
    mpz_clears(t, e, h, NULL);
}

static void rp_compress(uint8_t out[48], const rpt *a)
{
    memset(out, 0, 48);
    if (a->inf) {
        out[0] = 0xc0;
        return;
    }
    size_t n;
    uint8_t b[48] = {0};
    mpz_export(b, &n, 1, 1, 0, 0, a->x);
    memcpy(out + 48 - n, b, n);
    mpz_t h;
    mpz_init(h);
    mpz_sub_ui(h, P, 1), mpz_fdiv_q_2exp(h, h, 1);
    out[0] |= 0x80 | (mpz_cmp(a->y, h) > 0 ? 0x20 : 0);
    mpz_clear(h);
}

static unsigned bitrev12(unsigned i)
{
    unsigned r = 0;
    for (int b = 0; b < 12; b++) r |= ((i >> b) & 1u) << (11 - b);
    return r;
}

/* Blobs with a few non-zero elements (random, r − 1, 1) against the reference. */
static void test_sparse_reference(void)
{
    size_t len;
    char *text = slurp(setup_path(), &len);
    CU_ASSERT_FATAL(text != NULL);
    /* line 3 + j holds Lagrange point j */
    const char *lines[4096 + 2];
    const char *p = text;
    for (int i = 0; i < 4096 + 2; i++) {
        lines[i] = p;
        p = strchr(p, '\n');
        CU_ASSERT_FATAL(p != NULL);
        p++;
    }
    static uint8_t blob[MULRED_KZG_BLOB_BYTES];
    for (int round = 0; round < 6; round++) {
        memset(blob, 0, sizeof blob);
        rpt acc, pt, term;
        mpz_inits(acc.x, acc.y, pt.x, pt.y, term.x, term.y, NULL);
        acc.inf = 1;
        for (int k = 0; k < 5; k++) {
            const unsigned i = (unsigned)test_rand_below(4096);
            if (blob[32 * i + 31] || blob[32 * i]) continue; /* chosen twice: keep the first */
            mpz_t s;
            mpz_init(s);
            uint64_t l[4];
            for (int j = 0; j < 4; j++) l[j] = test_rand64();
            mpz_import(s, 4, -1, 8, 0, 0, l);
            mpz_mod(s, s, R);
            if (k == 0) mpz_sub_ui(s, R, 1);
            if (k == 1) mpz_set_ui(s, 1 + (unsigned)round);
            if (mpz_sgn(s) == 0) mpz_set_ui(s, 7);
            size_t n;
            uint8_t be[32] = {0};
            mpz_export(be, &n, 1, 1, 0, 0, s);
            memcpy(blob + 32 * i + 32 - n, be, n);
            uint8_t comp[48];
            for (int j = 0; j < 48; j++) {
                char hx[3] = {lines[2 + bitrev12(i)][2 * j], lines[2 + bitrev12(i)][2 * j + 1], 0};
                comp[j] = (uint8_t)strtoul(hx, NULL, 16);
            }
            rp_decompress(&pt, comp);
            rp_mul(&term, &pt, s);
            rp_add(&acc, &acc, &term);
            mpz_clear(s);
        }
        uint8_t want[48], got[48];
        rp_compress(want, &acc);
        mulred_error err;
        CU_ASSERT(mulred_kzg_blob_to_commitment(got, shared_setup(), blob, &err) == MULRED_OK);
        CU_ASSERT(memcmp(got, want, 48) == 0);
        mpz_clears(acc.x, acc.y, pt.x, pt.y, term.x, term.y, NULL);
    }
    free(text);
}

/* ---- bad blobs --------------------------------------------------------------------------------
 */

static void test_bad_blobs(void)
{
    static uint8_t blob[MULRED_KZG_BLOB_BYTES];
    static char hex[2 * MULRED_KZG_BLOB_BYTES + 16];
    mulred_error err;
    memset(hex, '0', 2 * MULRED_KZG_BLOB_BYTES);
    hex[2 * MULRED_KZG_BLOB_BYTES] = '\0';
    CU_ASSERT(mulred_kzg_blob_parse(blob, hex, strlen(hex), "b", &err) == MULRED_OK);
    /* surrounding blanks and 0x are fine; a blank inside is not */
    char *wrapped = malloc(sizeof hex + 8);
    sprintf(wrapped, " \n0x%s\r\n", hex);
    CU_ASSERT(mulred_kzg_blob_parse(blob, wrapped, strlen(wrapped), "b", &err) == MULRED_OK);
    wrapped[100] = ' ';
    CU_ASSERT(mulred_kzg_blob_parse(blob, wrapped, strlen(wrapped), "b", &err) == MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "byte 100") != NULL);
    /* a byte that is not printable is shown as 0xNN (a newline would cut the message) */
    wrapped[100] = '\n';
    CU_ASSERT(mulred_kzg_blob_parse(blob, wrapped, strlen(wrapped), "b", &err) == MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "byte 100: 0x0a is not a hex digit") != NULL);
    CU_ASSERT(strchr(err.message, '\n') == NULL);
    free(wrapped);
    CU_ASSERT(mulred_kzg_blob_parse(blob, hex, strlen(hex) - 2, "b", &err) == MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "131071 bytes") != NULL);
    CU_ASSERT(mulred_kzg_blob_parse(blob, hex, strlen(hex) - 1, "b", &err) == MULRED_EINPUT);
    hex[77] = 'g';
    CU_ASSERT(mulred_kzg_blob_parse(blob, hex, strlen(hex), "b", &err) == MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "byte 77") != NULL);
    CU_ASSERT(mulred_kzg_blob_parse(blob, "", 0, "b", &err) == MULRED_EINPUT);
    /* element 1234 = r (0x73eda753…00000001) is rejected with its index; r − 1 is accepted */
    static const uint8_t r_be[32] = {0x73, 0xed, 0xa7, 0x53, 0x29, 0x9d, 0x7d, 0x48,
                                     0x33, 0x39, 0xd8, 0x08, 0x09, 0xa1, 0xd8, 0x05,
                                     0x53, 0xbd, 0xa4, 0x02, 0xff, 0xfe, 0x5b, 0xfe,
                                     0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01};
    uint8_t c[48];
    memset(blob, 0, sizeof blob);
    memcpy(blob + 32 * 1234, r_be, 32);
    CU_ASSERT(mulred_kzg_blob_to_commitment(c, shared_setup(), blob, &err) == MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "field element 1234") != NULL);
    blob[32 * 1234 + 31] = 0;
    CU_ASSERT(mulred_kzg_blob_to_commitment(c, shared_setup(), blob, &err) == MULRED_OK);
    memset(blob + 32 * 4095, 0xff, 32);
    CU_ASSERT(mulred_kzg_blob_to_commitment(c, shared_setup(), blob, &err) == MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "field element 4095") != NULL);
    /* the parser rejects an element >= r too, at the text offset where its 64 digits start:
     * 3 blanks and 0x, then 64 digits per element (element 1234 at 5 + 64·1234 = 78981) */
    char *text = malloc(sizeof hex + 8);
    memset(hex, '0', 2 * MULRED_KZG_BLOB_BYTES);
    for (int i = 0; i < 32; i++) sprintf(hex + 64 * 1234 + 2 * i, "%02x", r_be[i]);
    hex[64 * 1235] = '0'; /* sprintf's NUL */
    sprintf(text, " \t 0x%s\n", hex);
    CU_ASSERT(mulred_kzg_blob_parse(blob, text, strlen(text), "b.hex", &err) == MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "b.hex: byte 78981: field element 1234 is not below") != NULL);
    text[5 + 64 * 1234 + 63] = '0'; /* r - 1 */
    CU_ASSERT(mulred_kzg_blob_parse(blob, text, strlen(text), "b.hex", &err) == MULRED_OK);
    free(text);
}

/* ---- the cache ------------------------------------------------------------------------------- */

static void commit_zero_one(uint8_t out[48], mulred_kzg_setup *s)
{
    static uint8_t blob[MULRED_KZG_BLOB_BYTES];
    memset(blob, 0, sizeof blob);
    for (int i = 0; i < 4096; i += 17) blob[32 * i + 31] = (uint8_t)i, blob[32 * i + 5] = 3;
    mulred_error err;
    CU_ASSERT(mulred_kzg_blob_to_commitment(out, s, blob, &err) == MULRED_OK);
}

static int load(const char *cache, mulred_kzg_load_info *info, uint8_t commit[48])
{
    mulred_kzg_setup *s;
    mulred_error err;
    const int st = mulred_kzg_setup_load(&s, setup_path(), cache, info, &err);
    if (st == MULRED_OK) {
        commit_zero_one(commit, s);
        mulred_kzg_setup_free(s);
    }
    return st;
}

static void test_cache(void)
{
    char cache[4200], other[4200];
    snprintf(cache, sizeof cache, "%s/cache.table", test_tmpdir());
    snprintf(other, sizeof other, "%s/no-such-dir/cache.table", test_tmpdir());
    mulred_kzg_load_info info;
    uint8_t ref[48], c[48];
    unlink(cache);
    CU_ASSERT_FATAL(load(cache, &info, ref) == MULRED_OK);
    CU_ASSERT(info.cache == MULRED_KZG_CACHE_WRITTEN);
    CU_ASSERT(load(cache, &info, c) == MULRED_OK);
    CU_ASSERT(info.cache == MULRED_KZG_CACHE_LOADED && memcmp(c, ref, 48) == 0);
    size_t len;
    char *good = slurp(cache, &len);
    CU_ASSERT_FATAL(good != NULL && len > 100000);
    /* damage: truncation, one flipped bit in the table, in the header digest of the setup, in
     * the window width (the digest then no longer matches either) */
    const size_t flips[4] = {len / 2, 40, 12, len - 5};
    for (int k = 0; k < 5; k++) {
        if (k == 4) {
            spit(cache, good, len - 1000);
        } else {
            good[flips[k]] ^= 0x10;
            spit(cache, good, len);
            good[flips[k]] ^= 0x10;
        }
        CU_ASSERT(load(cache, &info, c) == MULRED_OK);
        CU_ASSERT(info.cache == MULRED_KZG_CACHE_WRITTEN && memcmp(c, ref, 48) == 0);
        CU_ASSERT(strstr(info.note, "rebuilt") != NULL);
        CU_ASSERT(load(cache, &info, c) == MULRED_OK); /* the rewritten cache is good */
        CU_ASSERT(info.cache == MULRED_KZG_CACHE_LOADED);
    }
    /* well-formed caches whose tables lie, their digests recomputed: (a) the points rotated by
     * one (each entry still 2^c times the one below, but the base multiples are not the setup);
     * (b) the multiples of every point reversed (the base right, the doubling relation broken
     * everywhere above it). The table is point-major: point i's W multiples side by side. */
    const size_t head = 64, pt = 96, table = len - head - 32, W = table / (4096 * pt);
    for (int k = 0; k < 2; k++) {
        char *lie = malloc(len);
        memcpy(lie, good, len);
        if (k == 0) {
            memmove(lie + head, good + head + W * pt, table - W * pt);
            memcpy(lie + head + table - W * pt, good + head, W * pt);
        } else {
            for (size_t i = 0; i < 4096; i++)
                for (size_t w = 1; w < W; w++)
                    memcpy(lie + head + (i * W + w) * pt, good + head + (i * W + W - w) * pt, pt);
        }
        unsigned dlen = 0;
        EVP_Digest(lie, len - 32, (unsigned char *)lie + len - 32, &dlen, EVP_sha256(), NULL);
        spit(cache, lie, len);
        free(lie);
        CU_ASSERT(load(cache, &info, c) == MULRED_OK);
        CU_ASSERT(info.cache == MULRED_KZG_CACHE_WRITTEN && memcmp(c, ref, 48) == 0);
        CU_ASSERT(strstr(info.note, "not a table of this setup") != NULL);
        if (!strstr(info.note, "not a table of this setup"))
            printf("\n    lie %d: %s", k, info.note);
    }
    free(good);
    /* a FIFO without a writer at the cache path: not waited on, replaced by the table */
    unlink(cache);
    CU_ASSERT_FATAL(mkfifo(cache, 0600) == 0);
    CU_ASSERT(load(cache, &info, c) == MULRED_OK);
    CU_ASSERT(info.cache == MULRED_KZG_CACHE_WRITTEN && memcmp(c, ref, 48) == 0);
    CU_ASSERT(strstr(info.note, "not a regular file") != NULL);
    CU_ASSERT(load(cache, &info, c) == MULRED_OK);
    CU_ASSERT(info.cache == MULRED_KZG_CACHE_LOADED);
    CU_ASSERT(load("", &info, c) == MULRED_OK);
    CU_ASSERT(info.cache == MULRED_KZG_CACHE_MEMORY && memcmp(c, ref, 48) == 0);
    CU_ASSERT(load(other, &info, c) == MULRED_OK);
    CU_ASSERT(info.cache == MULRED_KZG_CACHE_MEMORY && memcmp(c, ref, 48) == 0);
    CU_ASSERT(strstr(info.note, "not written") != NULL);
}

/* ---- bad setup files ---------------------------------------------------------------------------
 */

static void test_bad_setups(void)
{
    size_t len;
    char *text = slurp(setup_path(), &len);
    CU_ASSERT_FATAL(text != NULL);
    char path[4200];
    snprintf(path, sizeof path, "%s/setup.txt", test_tmpdir());
    struct {
        size_t at; /* byte to change (from the start of line `line`) */
        int line;  /* 1-based */
        char to;   /* new character, or 0: cut the file there */
        const char *msg;
    } cases[] = {
        {0, 1, '5', ":1:"}, /* count 5096 */
        {0, 2, '7', ":2:"}, /* count 75 */
        {10, 3, 'z', ":3: G1 Lagrange point 0: 'z'"},
        {0, 3, '0', ":3: G1 Lagrange point 0:"},  /* no compression flag */
        {95, 7, '0', ":7: G1 Lagrange point 4:"}, /* x changed: off the curve or outside G1 */
        {0, 4100, 'q', ":4100: G2 point 1:"},
        {50, 5000, 0, ":5000:"}, /* truncated inside the monomial section */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *copy = malloc(len + 1);
        memcpy(copy, text, len + 1);
        size_t off = 0;
        for (int l = 1; l < cases[k].line; l++) off = (size_t)(strchr(copy + off, '\n') - copy) + 1;
        size_t n = len;
        if (cases[k].to)
            copy[off + cases[k].at] = cases[k].to;
        else
            n = off + cases[k].at;
        spit(path, copy, n);
        mulred_kzg_setup *s = NULL;
        mulred_error err;
        const int st = mulred_kzg_setup_load(&s, path, "", NULL, &err);
        CU_ASSERT(st == MULRED_EINPUT && s == NULL);
        CU_ASSERT(strstr(err.message, cases[k].msg) != NULL);
        if (st != MULRED_EINPUT || !strstr(err.message, cases[k].msg))
            printf("\n    case %zu: status %d, '%s'", k, st, err.message);
        free(copy);
    }
    /* the setup file missing: a runtime error (cannot read), not bad data */
    mulred_kzg_setup *s = NULL;
    mulred_error err;
    snprintf(path, sizeof path, "%s/missing.txt", test_tmpdir());
    CU_ASSERT(mulred_kzg_setup_load(&s, path, "", NULL, &err) != MULRED_OK && s == NULL);
    free(text);
}

/* Many blobs in one call (threads across blobs): the published commitments, in order, for every
 * thread count; a bad blob in the batch is named by its index; the setup's base set gives the
 * same point from the blob's big-endian elements. */
static void test_many_blobs(void)
{
    const mulred_kzg_setup *setup = shared_setup();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", test_vector_path("kzg/blob_to_kzg_commitment"));
    DIR *d = opendir(dir);
    CU_ASSERT_FATAL(d != NULL);
    enum { MAX = 24 };
    uint8_t *blobs = malloc((size_t)MAX * MULRED_KZG_BLOB_BYTES), want[MAX][48];
    size_t k = 0;
    struct dirent *de;
    while ((de = readdir(d)) && k < MAX / 2) {
        if (!strstr(de->d_name, ".yaml")) continue;
        char path[8300];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t len;
        char *text = slurp(path, &len);
        char *blob_hex = yaml_value(text, "blob:"), *out = yaml_value(text, "output:");
        mulred_error err;
        uint8_t *b = blobs + k * MULRED_KZG_BLOB_BYTES;
        const int st = mulred_kzg_blob_parse(b, blob_hex, strlen(blob_hex), "b", &err);
        if (out && st == MULRED_OK) {
            size_t wl;
            uint8_t *w = test_unhex(out + 2, &wl);
            CU_ASSERT_FATAL(wl == 48);
            memcpy(want[k++], w, 48);
            free(w);
        }
        free(blob_hex), free(out), free(text);
    }
    closedir(d);
    CU_ASSERT_FATAL(k >= 6);
    /* the batch twice over */
    memcpy(blobs + k * MULRED_KZG_BLOB_BYTES, blobs, k * MULRED_KZG_BLOB_BYTES);
    memcpy(want[k], want[0], 48 * k);
    const size_t K = 2 * k;
    uint8_t got[MAX][48];
    mulred_error err;
    for (int threads = 1; threads <= 3; threads++) {
        memset(got, 0, sizeof got);
        CU_ASSERT_EQUAL(mulred_kzg_blobs_to_commitments(got[0], setup, blobs, K, threads, &err),
                        MULRED_OK);
        CU_ASSERT(memcmp(got, want, 48 * K) == 0);
    }
    CU_ASSERT_EQUAL(mulred_kzg_blobs_to_commitments(NULL, setup, NULL, 0, 2, &err), MULRED_OK);
    /* the base set: the same point from the blob's elements, big-endian */
    const mulred_bases *bs = mulred_kzg_setup_bases(setup);
    CU_ASSERT_EQUAL(mulred_bases_size(bs), MULRED_KZG_FIELD_ELEMENTS);
    CU_ASSERT(mulred_bases_level(bs) > 0);
    mulred_g1_381_jacobian r;
    mulred_g1_381_affine a;
    uint8_t c[48];
    CU_ASSERT_EQUAL(
        mulred_bases_msm(&r, bs, blobs, MULRED_SCALARS_BE32, MULRED_KZG_FIELD_ELEMENTS, 2, &err),
        MULRED_OK);
    mulred_g1_381_jacobian_to_affine(&a, &r);
    mulred_g1_381_encode_compressed(c, &a);
    CU_ASSERT(memcmp(c, want[0], 48) == 0);
    /* an element not below r (element 17 all ones) in blob 5 of the batch (and in blob 9): blob 5
     * named */
    uint8_t *bad_blob = malloc(MULRED_KZG_BLOB_BYTES);
    memcpy(bad_blob, blobs, MULRED_KZG_BLOB_BYTES);
    memset(bad_blob + 17 * 32, 0xff, 32);
    memcpy(blobs + 9 * MULRED_KZG_BLOB_BYTES, bad_blob, MULRED_KZG_BLOB_BYTES);
    memcpy(blobs + 5 * MULRED_KZG_BLOB_BYTES, bad_blob, MULRED_KZG_BLOB_BYTES);
    for (int threads = 1; threads <= 3; threads += 2) {
        CU_ASSERT_EQUAL(mulred_kzg_blobs_to_commitments(got[0], setup, blobs, K, threads, &err),
                        MULRED_EINPUT);
        CU_ASSERT_STRING_EQUAL(err.message, "blob 5: field element 17 (byte offset 544) is not "
                                            "below the BLS12-381 group order");
    }
    free(bad_blob), free(blobs);
}

void test_register(void)
{
    mpz_inits(P, R, NULL);
    mpz_set_str(P,
                "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffff"
                "b9feffffffffaaab",
                16);
    mpz_set_str(R, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    TEST_SUITE("kzg", {"blob_to_kzg_commitment vectors (c-kzg-4844)", test_vectors},
               {"many blobs in one call", test_many_blobs},
               {"the setup from bytes; the default cache directory", test_setup_bytes},
               {"sparse blobs against an mpz reference", test_sparse_reference},
               {"bad blobs and elements >= r", test_bad_blobs},
               {"the table cache: written, loaded, rebuilt", test_cache},
               {"bad setup files", test_bad_setups});
}

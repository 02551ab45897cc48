#define _GNU_SOURCE
/* Bitcoin Core snapshots: primitives, headers, Core-written vectors (muhash and txoutset_hash),
 * synthetic snapshots against an independent slow path (a separate decoder in this file →
 * TxOutSer → mpz product), parallel results for 1-4 simulated ranks × 1-2 threads with and
 * without an index, the index lifecycle (reuse, staleness, corruption, lies, read-only
 * directories) and bad input (each case, random truncations and bit flips). */
#include <errno.h>
#include <fcntl.h>
#include <gmp.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <secp256k1.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "io/utxo_index.h"
#include "io/utxo_internal.h"
#include "mulred/muhash.h"
#include "mulred/plan.h"
#include "mulred/utxo.h"
#include "util/util.h"

#define DUMP_MUHASH "dd659196637ca2e8cb75e822474d74af7003d25da349eb6ddd98cea49b9c2d38"

/* ---- helpers ---- */

static char *tmp_path(const char *name)
{
    static char buf[8][4096];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 4096, "%s/%s", test_tmpdir(), name);
    return p;
}

static void write_bytes(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(data, 1, len, f), len);
    fclose(f);
}

static uint8_t *read_bytes(const char *path, size_t *len)
{
    char *data = NULL;
    mulred_error err;
    CU_ASSERT_EQUAL_FATAL(mulred_read_file(path, &data, len, SIZE_MAX, NULL, &err), MULRED_OK);
    return (uint8_t *)data;
}

/* MuHash of a snapshot through the library: nranks simulated ranks, each its own source and
 * reduction with `threads` threads, states combined as MPI_Reduce would. */
static int lib_muhash(char hex[65], const char *path, int nranks, int threads,
                      const mulred_utxo_options *opt, mulred_error *err)
{
    mulred_muhash_state total;
    mulred_muhash_init(&total, MULRED_MUHASH_BITCOIN);
    uint64_t coins = 0;
    for (int r = 0; r < nranks; r++) {
        mulred_utxo_source *s;
        int rc = mulred_utxo_source_open(&s, path, opt, err);
        if (rc) return rc;
        const uint64_t *coins_before;
        uint64_t units = mulred_utxo_source_units(s, &coins_before);
        mulred_unit_range u = mulred_plan_weighted(coins_before, units, r, nranks);
        mulred_utxo_source_select(s, u.first, u.end);
        mulred_muhash_state st;
        mulred_muhash_stats stats;
        rc = mulred_muhash_reduce(&st, MULRED_MUHASH_BITCOIN, mulred_utxo_source_muhash(s), 1,
                                  threads, &stats, err);
        coins += mulred_utxo_source_coins(s);
        if (rc == MULRED_OK) CU_ASSERT_EQUAL(stats.inserted, mulred_utxo_source_coins(s));
        const mulred_utxo_header *h = mulred_utxo_source_header(s);
        if (rc == MULRED_OK && r == nranks - 1) CU_ASSERT_EQUAL(coins, h->coins);
        mulred_utxo_source_close(s);
        if (rc) return rc;
        mulred_muhash_combine(&total, &st);
    }
    uint8_t digest[32];
    mulred_muhash_finalize(digest, &total);
    mulred_muhash_display(hex, digest, MULRED_MUHASH_BITCOIN);
    return MULRED_OK;
}

/* ---- the independent slow path: a second decoder, written from the format description ---- */

typedef struct {
    uint8_t **ser;
    size_t *len;
    uint32_t *vout;
    size_t *group; /* group number of each coin */
    size_t n;
} ref_coins;

static uint64_t ref_varint(const uint8_t **p)
{
    uint64_t n = 0;
    for (;;) {
        uint8_t c = *(*p)++;
        n = (n << 7) | (c & 0x7f);
        if (!(c & 0x80)) return n;
        n++;
    }
}

static uint64_t ref_compact(const uint8_t **p)
{
    uint8_t c = *(*p)++;
    uint64_t v = c;
    if (c == 253)
        v = (uint64_t)(*p)[0] | (uint64_t)(*p)[1] << 8, *p += 2;
    else if (c == 254)
        v = mulred_load_le32(*p), *p += 4;
    else if (c == 255)
        v = mulred_load_le64(*p), *p += 8;
    return v;
}

static uint64_t ref_amount(uint64_t x)
{
    if (!x) return 0;
    x--;
    uint64_t e = x % 10, n;
    x /= 10;
    if (e < 9)
        n = (x / 9) * 10 + x % 9 + 1;
    else
        n = x + 1;
    while (e--) n *= 10;
    return n;
}

/* Decodes a well-formed snapshot (trusted: test files only). */
static void ref_decode(ref_coins *rc, const uint8_t *f, size_t size)
{
    static secp256k1_context *ctx;
    if (!ctx) ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    bool v2 = size >= 5 && memcmp(f, "utxo\xff", 5) == 0;
    const uint8_t *p = f + (v2 ? 51 : 40), *end = f + size;
    uint64_t count = mulred_load_le64(p - 8);
    rc->ser = calloc(count + 1, sizeof *rc->ser);
    rc->len = calloc(count + 1, sizeof *rc->len);
    rc->vout = calloc(count + 1, sizeof *rc->vout);
    rc->group = calloc(count + 1, sizeof *rc->group);
    rc->n = 0;
    size_t group = 0;
    const uint8_t *prev_txid = NULL;
    while (p < end) {
        const uint8_t *txid = p;
        uint64_t k = 1;
        p += 32;
        if (v2) k = ref_compact(&p);
        if (!v2 && prev_txid && memcmp(prev_txid, txid, 32) != 0) group++;
        prev_txid = txid;
        for (uint64_t i = 0; i < k; i++) {
            uint32_t vout;
            if (v2)
                vout = (uint32_t)ref_compact(&p);
            else
                vout = mulred_load_le32(p), p += 4;
            uint32_t code = (uint32_t)ref_varint(&p);
            uint64_t value = ref_amount(ref_varint(&p));
            uint64_t t = ref_varint(&p);
            uint8_t script[10100];
            size_t sl;
            if (t == 0) {
                memcpy(script, "\x76\xa9\x14", 3), memcpy(script + 3, p, 20);
                memcpy(script + 23, "\x88\xac", 2), sl = 25, p += 20;
            } else if (t == 1) {
                memcpy(script, "\xa9\x14", 2), memcpy(script + 2, p, 20), script[22] = 0x87;
                sl = 23, p += 20;
            } else if (t == 2 || t == 3) {
                script[0] = 33, script[1] = (uint8_t)t, memcpy(script + 2, p, 32);
                script[34] = 0xac, sl = 35, p += 32;
            } else if (t == 4 || t == 5) {
                uint8_t in[33];
                in[0] = (uint8_t)(t - 2), memcpy(in + 1, p, 32);
                secp256k1_pubkey pk;
                CU_ASSERT_FATAL(secp256k1_ec_pubkey_parse(ctx, &pk, in, 33));
                size_t ol = 65;
                script[0] = 65;
                secp256k1_ec_pubkey_serialize(ctx, script + 1, &ol, &pk, SECP256K1_EC_UNCOMPRESSED);
                script[66] = 0xac, sl = 67, p += 32;
            } else {
                sl = t - 6;
                memcpy(script, p, sl), p += sl;
            }
            uint8_t *s = malloc(48 + 9 + sl);
            memcpy(s, txid, 32);
            mulred_store_le32(s + 32, vout);
            mulred_store_le32(s + 36, code);
            mulred_store_le64(s + 40, value);
            size_t n = 48;
            if (sl < 253)
                s[n++] = (uint8_t)sl;
            else
                s[n++] = 253, s[n++] = (uint8_t)sl, s[n++] = (uint8_t)(sl >> 8);
            memcpy(s + n, script, sl);
            CU_ASSERT_FATAL(rc->n < count);
            rc->ser[rc->n] = s;
            rc->len[rc->n] = n + sl;
            rc->vout[rc->n] = vout;
            rc->group[rc->n] = group;
            rc->n++;
        }
        if (v2) group++;
    }
    CU_ASSERT_EQUAL(rc->n, count);
}

static void ref_free(ref_coins *rc)
{
    for (size_t i = 0; i < rc->n; i++) free(rc->ser[i]);
    free(rc->ser), free(rc->len), free(rc->vout), free(rc->group);
}

/* MuHash3072 from its definition, with mpz: element → SHA-256 → ChaCha20 keystream (384 bytes,
 * little-endian number) → product mod 2^3072 − 1103717 → SHA-256 of its 384 LE bytes. */
static void ref_muhash(char hex[65], const ref_coins *rc)
{
    mpz_t p, acc, x;
    mpz_inits(p, acc, x, NULL);
    mpz_set_ui(p, 1);
    mpz_mul_2exp(p, p, 3072);
    mpz_sub_ui(p, p, 1103717);
    mpz_set_ui(acc, 1);
    EVP_CIPHER_CTX *cc = EVP_CIPHER_CTX_new();
    for (size_t i = 0; i < rc->n; i++) {
        uint8_t key[32], iv[16] = {0}, zero[384] = {0}, ks[384];
        EVP_Digest(rc->ser[i], rc->len[i], key, NULL, EVP_sha256(), NULL);
        int ol;
        EVP_EncryptInit_ex(cc, EVP_chacha20(), NULL, key, iv);
        EVP_EncryptUpdate(cc, ks, &ol, zero, 384);
        mpz_import(x, 384, -1, 1, 0, 0, ks);
        mpz_mul(acc, acc, x);
        mpz_mod(acc, acc, p);
    }
    EVP_CIPHER_CTX_free(cc);
    uint8_t out[384] = {0}, d[32];
    size_t cnt = 0;
    mpz_export(out, &cnt, -1, 1, 0, 0, acc);
    EVP_Digest(out, 384, d, NULL, EVP_sha256(), NULL);
    mulred_hex_encode_reversed(hex, d, 32);
    mpz_clears(p, acc, x, NULL);
}

static int cmp_vout_idx(const void *a, const void *b, void *ctx)
{
    const ref_coins *rc = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (rc->vout[i] != rc->vout[j]) return rc->vout[i] < rc->vout[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

static void ref_txoutset(char hex[65], const ref_coins *rc)
{
    size_t *order = malloc((rc->n + 1) * sizeof *order);
    for (size_t i = 0; i < rc->n; i++) order[i] = i;
    for (size_t i = 0; i < rc->n;) { /* sort each group by vout */
        size_t j = i;
        while (j < rc->n && rc->group[j] == rc->group[i]) j++;
        qsort_r(order + i, j - i, sizeof *order, cmp_vout_idx, (void *)rc);
        i = j;
    }
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    for (size_t i = 0; i < rc->n; i++) EVP_DigestUpdate(md, rc->ser[order[i]], rc->len[order[i]]);
    uint8_t d1[32], d2[32];
    EVP_DigestFinal_ex(md, d1, NULL);
    EVP_MD_CTX_free(md);
    EVP_Digest(d1, 32, d2, NULL, EVP_sha256(), NULL);
    mulred_hex_encode_reversed(hex, d2, 32);
    free(order);
}

/* ---- primitives ---- */

static void test_primitives(void)
{
    uint8_t buf[16];
    const uint8_t *p;
    uint64_t v;
    /* CompactSize: the bytes the protocol defines (one byte below 253; else a marker 0xfd,
     * 0xfe or 0xff and the value as a little-endian u16, u32 or u64), reading them back, every
     * shorter prefix truncated. */
    static const struct {
        uint64_t value;
        const char *hex;
    } cs[] = {
        {0, "00"},
        {1, "01"},
        {252, "fc"},
        {253, "fdfd00"},
        {0xffff, "fdffff"},
        {0x10000, "fe00000100"},
        {0x02000000, "fe00000002"}, /* Core's MAX_SIZE */
        {0xffffffffu, "feffffffff"},
        {0x100000000ull, "ff0000000001000000"},
        {UINT64_MAX, "ffffffffffffffffff"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        size_t n = utxo_write_compact_size(buf, cs[i].value), want_len;
        uint8_t *want = test_unhex(cs[i].hex, &want_len);
        CU_ASSERT_EQUAL(n, want_len);
        CU_ASSERT(memcmp(buf, want, want_len) == 0);
        free(want);
        if (cs[i].value > 0x02000000) continue; /* above MAX_SIZE: refused when read (below) */
        p = buf;
        CU_ASSERT_EQUAL(utxo_read_compact_size(&v, &p, buf + n), UTXO_OK);
        CU_ASSERT_EQUAL(v, cs[i].value);
        CU_ASSERT_EQUAL((size_t)(p - buf), n);
        for (size_t k = 0; k < n; k++) {
            p = buf;
            CU_ASSERT_EQUAL(utxo_read_compact_size(&v, &p, buf + k), UTXO_TRUNCATED);
        }
    }
    static const uint8_t nc1[] = {253, 252, 0}, nc2[] = {254, 0xff, 0xff, 0, 0},
                         nc3[] = {255, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0},
                         big[] = {254, 1, 0, 0, 2};
    p = nc1;
    CU_ASSERT_EQUAL(utxo_read_compact_size(&v, &p, nc1 + 3), UTXO_NONCANONICAL);
    p = nc2;
    CU_ASSERT_EQUAL(utxo_read_compact_size(&v, &p, nc2 + 5), UTXO_NONCANONICAL);
    p = nc3;
    CU_ASSERT_EQUAL(utxo_read_compact_size(&v, &p, nc3 + 9), UTXO_NONCANONICAL);
    p = big;
    CU_ASSERT_EQUAL(utxo_read_compact_size(&v, &p, big + 5), UTXO_TOO_LARGE);

    /* VARINT: Bitcoin Core's published bit patterns (src/test/serialize_tests.cpp,
     * varints_bitpattern), plus 127/128 and 16511/16512 (the 1-2 and 2-3 byte boundaries:
     * 0x7f, 0x8000, 0xff7f, 0x808000) and 2^32 (just past the 32-bit range), written and read
     * back at 64 and 32 bits. */
    static const struct {
        uint64_t value;
        const char *hex;
    } vi[] = {
        {0, "00"},
        {0x7f, "7f"},
        {0x80, "8000"},
        {0x1234, "a334"},
        {0xffff, "82fe7f"},
        {0x123456, "c7e756"},
        {0x80123456u, "86ffc7e756"},
        {0xffffffffu, "8efefefe7f"},
        {0x7fffffffffffffffull, "fefefefefefefefe7f"},
        {0xffffffffffffffffull, "80fefefefefefefefe7f"},
        {16511, "ff7f"},
        {16512, "808000"},
        {0x100000000ull, "8efefeff00"},
    };
    for (size_t i = 0; i < sizeof vi / sizeof vi[0]; i++) {
        size_t n = utxo_write_varint(buf, vi[i].value), want_len;
        uint8_t *want = test_unhex(vi[i].hex, &want_len);
        CU_ASSERT_EQUAL(n, want_len);
        CU_ASSERT(memcmp(buf, want, want_len) == 0);
        free(want);
        p = buf;
        CU_ASSERT_EQUAL(utxo_read_varint(&v, &p, buf + n, 64), UTXO_OK);
        CU_ASSERT_EQUAL(v, vi[i].value);
        p = buf;
        CU_ASSERT_EQUAL(utxo_read_varint(&v, &p, buf + n, 32),
                        vi[i].value <= 0xffffffffu ? UTXO_OK : UTXO_TOO_LARGE);
    }
    for (int i = 0; i < 2000; i++) {
        uint64_t x = test_rand64() >> test_rand_below(64);
        size_t n = utxo_write_varint(buf, x);
        p = buf;
        CU_ASSERT(utxo_read_varint(&v, &p, buf + n, 64) == UTXO_OK && v == x);
    }
    memset(buf, 0xff, 11);
    buf[11] = 0;
    p = buf;
    CU_ASSERT_EQUAL(utxo_read_varint(&v, &p, buf + 12, 64), UTXO_TOO_LARGE);
    p = buf;
    CU_ASSERT_EQUAL(utxo_read_varint(&v, &p, buf + 3, 64), UTXO_TRUNCATED);

    /* Amounts: Core's compressor_tests values, and round trips. */
    CU_ASSERT_EQUAL(utxo_compress_amount(0), 0);
    CU_ASSERT_EQUAL(utxo_compress_amount(1), 1);
    CU_ASSERT_EQUAL(utxo_compress_amount(1000000), 7);
    CU_ASSERT_EQUAL(utxo_compress_amount(100000000), 9);
    CU_ASSERT_EQUAL(utxo_compress_amount(5000000000ull), 50);
    CU_ASSERT_EQUAL(utxo_compress_amount(2100000000000000ull), 21000000);
    for (int i = 0; i < 5000; i++) {
        uint64_t a = test_rand_below(2100000000000001ull);
        if (i % 3 == 0) a = (a / 1000000) * 1000000;
        CU_ASSERT_EQUAL(utxo_decompress_amount(utxo_compress_amount(a)), a);
        CU_ASSERT_EQUAL(ref_amount(utxo_compress_amount(a)), a);
    }
}

/* ---- hand-built snapshots ---- */

typedef struct {
    uint8_t b[1 << 16];
    size_t n;
} bld;

static void put(bld *x, const void *d, size_t n)
{
    memcpy(x->b + x->n, d, n);
    x->n += n;
}
static void put_byte(bld *x, uint8_t c)
{
    x->b[x->n++] = c;
}
static void put_varint(bld *x, uint64_t v)
{
    x->n += utxo_write_varint(x->b + x->n, v);
}
static void put_header(bld *x, uint64_t coins)
{
    x->n = 0;
    put(x, "utxo\xff\x02\x00\xfa\xbf\xb5\xda", 11);
    uint8_t h[32] = {0};
    h[0] = 0x42;
    put(x, h, 32);
    uint8_t c[8];
    mulred_store_le64(c, coins);
    put(x, c, 8);
}
/* One P2PKH coin: vout, height code, amount, type 0 + 20 bytes. */
static void put_coin(bld *x, uint32_t vout)
{
    x->n += utxo_write_compact_size(x->b + x->n, vout);
    put_varint(x, 2 * 150 + 1);
    put_varint(x, utxo_compress_amount(5000000000ull));
    put_byte(x, 0);
    for (int i = 0; i < 20; i++) put_byte(x, (uint8_t)i);
}
static void put_group(bld *x, uint8_t tag, uint64_t k)
{
    uint8_t txid[32];
    memset(txid, tag, 32);
    put(x, txid, 32);
    x->n += utxo_write_compact_size(x->b + x->n, k);
}

/* Expects every reader entry point to reject the file with EINPUT and a message naming the byte
 * offset (and `offset` when >= 0, and `reason` when non-NULL). */
static void expect_bad(const char *name, const bld *x, long offset, const char *reason)
{
    char *path = tmp_path(name);
    write_bytes(path, x->b, x->n);
    mulred_error err;
    mulred_error_clear(&err);
    mulred_utxo_stats st;
    int rc = mulred_utxo_stats_scan(&st, path, &err);
    CU_ASSERT_EQUAL(rc, MULRED_EINPUT);
    if (rc != MULRED_EINPUT) fprintf(stderr, "\n%s: accepted\n", name);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, ": byte "));
    if (offset >= 0) {
        char want[64];
        snprintf(want, sizeof want, ": byte %ld: ", offset);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, want));
        if (!strstr(err.message, want))
            fprintf(stderr, "\n%s: %s (want %s)\n", name, err.message, want);
    }
    if (reason) {
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, reason));
        if (!strstr(err.message, reason))
            fprintf(stderr, "\n%s: %s (want %s)\n", name, err.message, reason);
    }
    uint8_t h[32];
    mulred_error_clear(&err);
    CU_ASSERT_EQUAL(mulred_utxo_txoutset_hash(h, path, &err), MULRED_EINPUT);
    mulred_utxo_options opt = {.no_save = true, .chunk_bytes = 1};
    mulred_utxo_source *s = NULL;
    mulred_error_clear(&err);
    CU_ASSERT_EQUAL(mulred_utxo_source_open(&s, path, &opt, &err), MULRED_EINPUT);
    CU_ASSERT_PTR_NULL(s);
    bool written = true;
    CU_ASSERT_EQUAL(mulred_utxo_index_ensure(path, NULL, &written, &err), MULRED_EINPUT);
    CU_ASSERT_FALSE(written);
    char idx[4200];
    snprintf(idx, sizeof idx, "%s.idx", path);
    CU_ASSERT_NOT_EQUAL(access(idx, F_OK), 0); /* no index for a bad file */
}

static void test_handmade(void)
{
    bld *x = malloc(sizeof *x);
    /* A valid file: two groups (2 coins, then 1). */
    put_header(x, 3);
    put_group(x, 1, 2);
    put_coin(x, 0);
    put_coin(x, 300);
    put_group(x, 2, 1);
    put_coin(x, 7);
    const size_t good = x->n;
    char *path = tmp_path("good.dat");
    write_bytes(path, x->b, x->n);
    mulred_error err;
    mulred_utxo_stats st;
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_stats_scan(&st, path, &err), MULRED_OK);
    CU_ASSERT_EQUAL(st.coins, 3);
    CU_ASSERT_EQUAL(st.groups, 2);
    CU_ASSERT_EQUAL(st.max_vout, 300);
    CU_ASSERT_EQUAL(st.class_count[MULRED_UTXO_P2PKH], 3);
    CU_ASSERT_EQUAL(st.coinbase, 3);
    CU_ASSERT_EQUAL(st.max_height, 150);

    bld *y = malloc(sizeof *y);
    memcpy(y, x, sizeof *x);
    y->b[4] = 0xfe;
    expect_bad("magic.dat", y, 0, "bad magic");
    memcpy(y, x, sizeof *x);
    y->b[0] = 'X', y->b[31 + 0] = 0xff; /* not v2; block hash not proof-of-work-like */
    expect_bad("magic2.dat", y, 0, "bad magic");
    memcpy(y, x, sizeof *x);
    y->b[5] = 3;
    expect_bad("version.dat", y, 5, "unsupported snapshot version 3");
    memcpy(y, x, sizeof *x);
    y->b[7] = 0x00;
    expect_bad("network.dat", y, 7, "unknown network magic");
    memcpy(y, x, sizeof *x);
    y->n = 30;
    expect_bad("header.dat", y, 30, "truncated header");
    memcpy(y, x, sizeof *x);
    y->n = 0;
    expect_bad("empty.dat", y, 0, NULL);
    memcpy(y, x, sizeof *x);
    y->n = good - 1;
    expect_bad("body.dat", y, (long)(good - 1), "unexpected end of file");
    memcpy(y, x, sizeof *x);
    y->n = good - 21 - 3; /* ends right after the last group's header */
    expect_bad("body2.dat", y, -1, "unexpected end of file");
    memcpy(y, x, sizeof *x);
    put_byte(y, 0);
    expect_bad("trailing.dat", y, (long)good, "trailing bytes");
    memcpy(y, x, sizeof *x);
    mulred_store_le64(y->b + 43, 4);
    expect_bad("count_high.dat", y, (long)good, "the header says 4");
    memcpy(y, x, sizeof *x);
    mulred_store_le64(y->b + 43, 2);
    expect_bad("count_low.dat", y, 136, "trailing bytes");
    memcpy(y, x, sizeof *x);
    mulred_store_le64(y->b + 43, 1);
    expect_bad("count_group.dat", y, 51 + 32, "coin count mismatch");
    memcpy(y, x, sizeof *x);
    mulred_store_le64(y->b + 43, 0);
    expect_bad("count_zero.dat", y, 51, "trailing bytes");

    /* Non-canonical CompactSize (group count 2 as fd 02 00). */
    put_header(y, 1);
    put_group(y, 1, 0);
    y->n--;
    put(y, "\xfd\x01\x00", 3);
    put_coin(y, 0);
    expect_bad("noncanonical.dat", y, 51 + 32, "non-canonical CompactSize");
    /* CompactSize over Core's MAX_SIZE (vout 2^25 + 1). */
    put_header(y, 1);
    put_group(y, 1, 1);
    put(y, "\xfe\x01\x00\x00\x02", 5);
    expect_bad("vout_large.dat", y, 51 + 33, "too large");
    /* Zero-coin group. */
    put_header(y, 1);
    put_group(y, 1, 0);
    put_group(y, 2, 1);
    put_coin(y, 0);
    expect_bad("empty_group.dat", y, 51 + 32, "no coins");
    /* VARINT overflow: height code past 32 bits. */
    put_header(y, 1);
    put_group(y, 1, 1);
    put_byte(y, 0);
    put_varint(y, 0x100000000ull);
    expect_bad("varint32.dat", y, 51 + 34, "VARINT overflow");
    /* VARINT overflow: amount past 64 bits. */
    put_header(y, 1);
    put_group(y, 1, 1);
    put_byte(y, 0);
    put_byte(y, 2);
    for (int i = 0; i < 11; i++) put_byte(y, 0xff);
    put_byte(y, 0);
    expect_bad("varint64.dat", y, 51 + 35, "VARINT overflow");
    /* Amount over 21e6 BTC. */
    put_header(y, 1);
    put_group(y, 1, 1);
    put_byte(y, 0);
    put_byte(y, 2);
    put_varint(y, utxo_compress_amount(2100000000000001ull));
    put_byte(y, 6);
    expect_bad("amount.dat", y, 51 + 35, "amount out of range");
    /* Type 4 key whose x is not on the curve. */
    uint8_t xbad[32] = {0};
    for (int i = 1; i < 256; i++) {
        xbad[31] = (uint8_t)i;
        if (!utxo_x_on_curve(xbad)) break;
    }
    CU_ASSERT_FATAL(!utxo_x_on_curve(xbad));
    for (unsigned t = 4; t <= 5; t++) {
        put_header(y, 1);
        put_group(y, 1, 1);
        put_byte(y, 0);
        put_byte(y, 2);
        put_byte(y, 0);
        put_byte(y, (uint8_t)t);
        put(y, xbad, 32);
        expect_bad(t == 4 ? "curve4.dat" : "curve5.dat", y, 51 + 37, "not on the curve");
    }
    /* Script over 10,000 bytes (size code 10001 + 6), and exactly 10,000 (accepted). */
    for (int len = 10000; len <= 10001; len++) {
        put_header(y, 1);
        put_group(y, 1, 1);
        put_byte(y, 0);
        put_byte(y, 2);
        put_byte(y, 0);
        put_varint(y, (uint64_t)len + 6);
        memset(y->b + y->n, 0x51, (size_t)len);
        y->n += (size_t)len;
        if (len == 10001) {
            expect_bad("script.dat", y, 51 + 36, "over 10000 bytes");
        } else {
            char *p = tmp_path("script_ok.dat");
            write_bytes(p, y->b, y->n);
            CU_ASSERT_EQUAL(mulred_utxo_stats_scan(&st, p, &err), MULRED_OK);
            CU_ASSERT_EQUAL(st.max_script, 10000);
        }
    }
    /* Legacy: vout 2^32 − 1. */
    y->n = 0;
    uint8_t h[32] = {0};
    put(y, h, 32);
    uint8_t c[8];
    mulred_store_le64(c, 1);
    put(y, c, 8);
    put(y, h, 32);
    put(y, "\xff\xff\xff\xff", 4);
    put_byte(y, 0), put_byte(y, 0), put_byte(y, 6);
    expect_bad("legacy_vout.dat", y, 72, "vout 4294967295");
    free(x);
    free(y);
}

/* ---- vectors ---- */

static void check_vector(const char *dat, const char *muhash, const char *txoutset, uint64_t coins,
                         const char *network, const char *block)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", test_vector_path(dat));
    mulred_error err;
    mulred_error_clear(&err);
    mulred_utxo_header h;
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_read_header(&h, path, &err), MULRED_OK);
    CU_ASSERT_EQUAL(h.coins, coins);
    if (network) CU_ASSERT_STRING_EQUAL(h.network, network);
    char hex[65];
    if (block) {
        mulred_utxo_block_hash_hex(hex, &h);
        CU_ASSERT_STRING_EQUAL(hex, block);
    }
    /* The index lives in memory (no_save): nothing is written into tests/vectors. */
    for (int nranks = 1; nranks <= 4; nranks++)
        for (int threads = 1; threads <= 2; threads++) {
            /* no_save: never write next to the repository's vectors */
            mulred_utxo_options opt = {.no_save = true,
                                       .chunk_bytes = nranks == 1 ? 0 : 512u * (unsigned)threads};
            int rc = lib_muhash(hex, path, nranks, threads, &opt, &err);
            CU_ASSERT_EQUAL(rc, MULRED_OK);
            if (rc) fprintf(stderr, "\n%s\n", err.message);
            CU_ASSERT_STRING_EQUAL(hex, muhash);
        }
    uint8_t d[32];
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_txoutset_hash(d, path, &err), MULRED_OK);
    mulred_hex_encode_reversed(hex, d, 32);
    if (txoutset) CU_ASSERT_STRING_EQUAL(hex, txoutset);
    /* The independent path agrees too. */
    size_t len;
    uint8_t *f = read_bytes(path, &len);
    ref_coins rc;
    ref_decode(&rc, f, len);
    ref_muhash(hex, &rc);
    CU_ASSERT_STRING_EQUAL(hex, muhash);
    ref_txoutset(hex, &rc);
    if (txoutset) CU_ASSERT_STRING_EQUAL(hex, txoutset);
    ref_free(&rc);
    free(f);
}

static void test_dump_vectors(void)
{
    const char *block = "000002cfbc285703a0d485b4d308476e85da6876e3d6ae229dc969fa9fe02d1d";
    check_vector("bitcoin/dump-28_0.dat", DUMP_MUHASH, NULL, 100, "signet", block);
    check_vector("bitcoin/dump-27_0.dat", DUMP_MUHASH, NULL, 100, "", block);
    mulred_utxo_header h;
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_utxo_read_header(&h, test_vector_path("bitcoin/dump-28_0.dat"), &err),
                    0);
    CU_ASSERT_EQUAL(h.format_version, 2);
    CU_ASSERT_EQUAL(mulred_utxo_read_header(&h, test_vector_path("bitcoin/dump-27_0.dat"), &err),
                    0);
    CU_ASSERT_EQUAL(h.format_version, 0);
}

static void test_core_vectors(void)
{
    const char *names[] = {"regtest-small", "regtest-medium"};
    for (int i = 0; i < 2; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "bitcoin/%s.json", names[i]);
        json_error_t jerr;
        json_t *j = json_load_file(test_vector_path(rel), JSON_REJECT_DUPLICATES, &jerr);
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        const json_t *coins = json_object_get(j, "coins");
        CU_ASSERT_FATAL(json_is_integer(coins));
        snprintf(rel, sizeof rel, "bitcoin/%s.dat", names[i]);
        check_vector(rel, json_string_value(json_object_get(j, "muhash")),
                     json_string_value(json_object_get(j, "txoutset_hash")),
                     (uint64_t)json_integer_value(coins),
                     json_string_value(json_object_get(j, "network")),
                     json_string_value(json_object_get(j, "base_hash")));
        json_decref(j);
    }
}

/* ---- the size bound of synthetic snapshots, against their sizes on disk ---- */

static void test_synth_size_bound(void)
{
    /* n = 1 and 13: the first coins (one 10,000-byte script is coin 12); 2 * 10^5: the
     * bound is within 20% of the size, so that it refuses only files near the free space */
    const uint64_t counts[] = {1, 13, 14, 1000, 200000};
    const uint64_t seed = test_seed();
    char path[4096];
    snprintf(path, sizeof path, "%s", tmp_path("bound.dat"));
    for (int legacy = 0; legacy < 2; legacy++)
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            for (uint64_t s = seed; s < seed + 3; s++) {
                mulred_error err;
                CU_ASSERT_EQUAL_FATAL(mulred_utxo_synth(path, counts[i], s, legacy, &err),
                                      MULRED_OK);
                struct stat st;
                CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
                const uint64_t bound = mulred_utxo_synth_bytes(counts[i], legacy);
                CU_ASSERT((uint64_t)st.st_size <= bound);
                if (counts[i] >= 200000) CU_ASSERT((double)bound <= 1.2 * (double)st.st_size);
            }
    /* n coins of the largest size bound every file */
    CU_ASSERT(mulred_utxo_synth_bytes(1, false) <= 51 + 16384 + 41);
    CU_ASSERT_EQUAL(mulred_utxo_synth_bytes(UINT64_MAX, false), UINT64_MAX);
}

/* ---- synthetic snapshots against the slow path ---- */

static void test_synthetic(void)
{
    uint64_t seed = test_seed();
    char v2[4096], legacy[4096];
    snprintf(v2, sizeof v2, "%s", tmp_path("synth.dat"));
    snprintf(legacy, sizeof legacy, "%s", tmp_path("synth-legacy.dat"));
    mulred_error err;
    const uint64_t n = 6000;
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_synth(v2, n, seed, false, &err), MULRED_OK);
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_synth(legacy, n, seed, true, &err), MULRED_OK);

    mulred_utxo_stats st;
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_stats_scan(&st, v2, &err), MULRED_OK);
    CU_ASSERT_EQUAL(st.coins, n);
    for (int k = 0; k < MULRED_UTXO_NCLASSES; k++)
        if (k != MULRED_UTXO_WITNESS_OTHER && k != MULRED_UTXO_OP_RETURN)
            CU_ASSERT(st.class_count[k] > 0);
    CU_ASSERT(st.max_vout > 252);
    CU_ASSERT(st.max_height > 127);
    CU_ASSERT(st.max_group > 1);

    size_t len;
    uint8_t *f = read_bytes(v2, &len);
    ref_coins rc;
    ref_decode(&rc, f, len);
    char want[65], want_tx[65], hex[65];
    ref_muhash(want, &rc);
    ref_txoutset(want_tx, &rc);
    ref_free(&rc);
    free(f);

    const char *files[] = {v2, legacy};
    for (int fi = 0; fi < 2; fi++) {
        for (int nranks = 1; nranks <= 4; nranks++)
            for (int threads = 1; threads <= 2; threads++) {
                /* With an index on disk (chunks of 4 KiB) and without (in memory). */
                mulred_utxo_options with = {.chunk_bytes = 4096};
                mulred_utxo_options without = {.no_save = true, .chunk_bytes = 1000};
                CU_ASSERT_EQUAL(lib_muhash(hex, files[fi], nranks, threads, &with, &err), 0);
                CU_ASSERT_STRING_EQUAL(hex, want);
                CU_ASSERT_EQUAL(lib_muhash(hex, files[fi], nranks, threads, &without, &err), 0);
                CU_ASSERT_STRING_EQUAL(hex, want);
            }
        uint8_t d[32];
        CU_ASSERT_EQUAL(mulred_utxo_txoutset_hash(d, files[fi], &err), MULRED_OK);
        mulred_hex_encode_reversed(hex, d, 32);
        CU_ASSERT_STRING_EQUAL(hex, want_tx);
    }
}

/* Database key order differs from numeric order past vout 16511: a group written in key order
 * must be sorted for the txoutset hash, and the muhash does not care. */
static void test_key_order(void)
{
    bld *x = malloc(sizeof *x);
    uint32_t vouts[] = {16511, 16512, 5, 70000, 200};
    /* key order: VARINT bytes compared as strings */
    uint32_t keyorder[5];
    memcpy(keyorder, vouts, sizeof vouts);
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++) {
            uint8_t a[10], b[10];
            size_t la = utxo_write_varint(a, keyorder[i]), lb = utxo_write_varint(b, keyorder[j]);
            int c = memcmp(a, b, la < lb ? la : lb);
            if (c > 0 || (c == 0 && la > lb)) {
                uint32_t t = keyorder[i];
                keyorder[i] = keyorder[j], keyorder[j] = t;
            }
        }
    CU_ASSERT(!(keyorder[0] < keyorder[1] && keyorder[1] < keyorder[2] &&
                keyorder[2] < keyorder[3] && keyorder[3] < keyorder[4]));
    put_header(x, 5);
    put_group(x, 9, 5);
    for (int i = 0; i < 5; i++) put_coin(x, keyorder[i]);
    char *a = tmp_path("keyorder.dat");
    write_bytes(a, x->b, x->n);
    /* The same coins in numeric order. */
    uint32_t sorted[5] = {5, 200, 16511, 16512, 70000};
    put_header(x, 5);
    put_group(x, 9, 5);
    for (int i = 0; i < 5; i++) put_coin(x, sorted[i]);
    char *b = tmp_path("numorder.dat");
    write_bytes(b, x->b, x->n);
    uint8_t da[32], db[32];
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_utxo_txoutset_hash(da, a, &err), 0);
    CU_ASSERT_EQUAL(mulred_utxo_txoutset_hash(db, b, &err), 0);
    CU_ASSERT_EQUAL(memcmp(da, db, 32), 0);
    char ha[65], hb[65];
    mulred_utxo_options opt = {.no_save = true};
    CU_ASSERT_EQUAL(lib_muhash(ha, a, 1, 1, &opt, &err), 0);
    CU_ASSERT_EQUAL(lib_muhash(hb, b, 1, 1, &opt, &err), 0);
    CU_ASSERT_STRING_EQUAL(ha, hb);
    free(x);
}

/* ---- index ---- */

static void test_index_lifecycle(void)
{
    char path[4096], idx[4200];
    snprintf(path, sizeof path, "%s", tmp_path("life.dat"));
    snprintf(idx, sizeof idx, "%s.idx", path);
    mulred_error err;
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_synth(path, 3000, 7, false, &err), MULRED_OK);
    mulred_utxo_index_info info;
    mulred_utxo_options opt = {.chunk_bytes = 2048};
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_index_build(&info, path, &opt, false, &err), MULRED_OK);
    CU_ASSERT_FALSE(info.loaded);
    CU_ASSERT_TRUE(info.saved);
    CU_ASSERT_STRING_EQUAL(info.path, idx);
    CU_ASSERT(info.chunks > 20);
    CU_ASSERT_EQUAL(info.coins, 3000);
    CU_ASSERT_EQUAL(access(idx, R_OK), 0);
    /* Reused. */
    CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, NULL, false, &err), MULRED_OK);
    CU_ASSERT_TRUE(info.loaded);
    CU_ASSERT_EQUAL(info.chunk_bytes, 2048);
    bool written = false;
    CU_ASSERT_EQUAL(mulred_utxo_index_ensure(path, NULL, &written, &err), MULRED_OK);
    CU_ASSERT_TRUE(written);
    /* A different explicit chunk size rebuilds. */
    opt.chunk_bytes = 4096;
    CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, &opt, false, &err), MULRED_OK);
    CU_ASSERT_FALSE(info.loaded);
    /* Corrupt index: rebuilt. */
    size_t len;
    uint8_t *b = read_bytes(idx, &len);
    b[len / 2] ^= 1;
    write_bytes(idx, b, len);
    free(b);
    CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, NULL, false, &err), MULRED_OK);
    CU_ASSERT_FALSE(info.loaded);
    CU_ASSERT_TRUE(info.saved);
    /* Snapshot rewritten (mtime changes): stale, rebuilt. */
    b = read_bytes(path, &len);
    struct timespec ts[2] = {{0, UTIME_OMIT}, {12345, 0}};
    write_bytes(path, b, len);
    CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, ts, 0), 0);
    free(b);
    CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, NULL, false, &err), MULRED_OK);
    CU_ASSERT_FALSE(info.loaded);
    CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, NULL, false, &err), MULRED_OK);
    CU_ASSERT_TRUE(info.loaded);
    /* Force. */
    CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, NULL, true, &err), MULRED_OK);
    CU_ASSERT_FALSE(info.loaded);
    /* MULRED_UTXO_INDEX_DIR. */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", tmp_path("idxdir"));
    mkdir(dir, 0755);
    setenv("MULRED_UTXO_INDEX_DIR", dir, 1);
    CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, NULL, false, &err), MULRED_OK);
    char want[4200];
    snprintf(want, sizeof want, "%s/life.dat.idx", dir);
    CU_ASSERT_STRING_EQUAL(info.path, want);
    CU_ASSERT_TRUE(info.saved);
    CU_ASSERT_EQUAL(access(want, R_OK), 0);
    unsetenv("MULRED_UTXO_INDEX_DIR");
    /* Unwritable location: works in memory, reports not written. */
    mulred_utxo_options ro = {.index_path = "/nonexistent-dir/x.idx"};
    CU_ASSERT_EQUAL(mulred_utxo_index_ensure(path, &ro, &written, &err), MULRED_OK);
    CU_ASSERT_FALSE(written);
    char hex[65];
    CU_ASSERT_EQUAL(lib_muhash(hex, path, 3, 2, &ro, &err), MULRED_OK);
    /* A directory whose mode denies writing is left alone, even by root. */
    char rodir[4096], rofile[4200], roidx[4300];
    snprintf(rodir, sizeof rodir, "%s", tmp_path("ro"));
    snprintf(rofile, sizeof rofile, "%s/snap.dat", rodir);
    snprintf(roidx, sizeof roidx, "%s.idx", rofile);
    mkdir(rodir, 0755);
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_synth(rofile, 500, 2, false, &err), MULRED_OK);
    CU_ASSERT_EQUAL(chmod(rodir, 0555), 0);
    written = true;
    CU_ASSERT_EQUAL(mulred_utxo_index_ensure(rofile, NULL, &written, &err), MULRED_OK);
    CU_ASSERT_FALSE(written);
    CU_ASSERT_NOT_EQUAL(access(roidx, F_OK), 0);
    CU_ASSERT_EQUAL(lib_muhash(hex, rofile, 2, 2, NULL, &err), MULRED_OK);
    chmod(rodir, 0755);
}

/* An index that passes every load check but lies cannot change the result: it fails. */
static void test_index_lies(void)
{
    char path[4096], idx[4200];
    snprintf(path, sizeof path, "%s", tmp_path("lies.dat"));
    snprintf(idx, sizeof idx, "%s.idx", path);
    mulred_error err;
    CU_ASSERT_EQUAL_FATAL(mulred_utxo_synth(path, 2000, 3, false, &err), MULRED_OK);
    int fd;
    mulred_utxo_header h;
    CU_ASSERT_EQUAL_FATAL(utxo_open(&fd, &h, path, &err), MULRED_OK);
    for (int kind = 0; kind < 3; kind++) {
        utxo_index x;
        const mulred_utxo_options one_byte = {.chunk_bytes = 1};
        CU_ASSERT_EQUAL_FATAL(utxo_index_scan(&x, fd, &h, path, &one_byte, &err), MULRED_OK);
        CU_ASSERT_FATAL(x.nchunks > 10);
        uint64_t c = 1 + test_rand_below(x.nchunks - 2);
        if (kind == 0 && x.ord[c] + 1 < x.ord[c + 1])
            x.ord[c]++;
        else if (kind == 0)
            x.ord[c]--;
        if (kind == 1) x.off[c]++;
        if (kind == 2) { /* drop a boundary: chunk c-1 absorbs c, ordinals stay consistent */
            memmove(x.off + c, x.off + c + 1, (x.nchunks - c) * sizeof *x.off);
            memmove(x.ord + c, x.ord + c + 1, (x.nchunks - c) * sizeof *x.ord);
            x.nchunks--;
            x.ord[c]++; /* ... but claim one coin less for chunk c-1 */
        }
        bool consistent = true;
        for (uint64_t i = 1; i <= x.nchunks; i++)
            consistent = consistent && x.off[i] > x.off[i - 1] && x.ord[i] > x.ord[i - 1];
        if (!consistent) {
            utxo_index_free(&x);
            continue;
        }
        CU_ASSERT_EQUAL_FATAL(utxo_index_save(&x, idx, &err), MULRED_OK);
        utxo_index_free(&x);
        for (int nranks = 1; nranks <= 3; nranks++) {
            char hex[65];
            mulred_error_clear(&err);
            int rc = lib_muhash(hex, path, nranks, 2, NULL, &err);
            CU_ASSERT_EQUAL(rc, MULRED_EINPUT);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "byte "));
        }
    }
    close(fd);
}

/* ---- what sits at the path: not a snapshot, not an index ---- */

/* Bugs the corpus found: a FIFO (snapshot or index path) hung the open or the read; /dev/zero
 * behind the index path was read without end; a 4-byte file "utxo" was reported as bad magic
 * with an uninitialized byte in the message. */
static void test_file_kinds(void)
{
    mulred_error err;
    mulred_utxo_header h;
    char *four = tmp_path("four.dat");
    write_bytes(four, (const uint8_t *)"utxo", 4);
    mulred_error_clear(&err);
    CU_ASSERT_EQUAL(mulred_utxo_read_header(&h, four, &err), MULRED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "four.dat: byte 4: truncated header (4 bytes;"));

    char *fifo = tmp_path("fifo.dat");
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    char *dangling = tmp_path("dangling.dat");
    unlink(dangling);
    CU_ASSERT_EQUAL_FATAL(symlink("/nonexistent/snapshot.dat", dangling), 0);
    const char *paths[] = {fifo, "/dev/null", test_tmpdir(), dangling};
    const char *why[] = {"not a regular file", "not a regular file", "not a regular file",
                         "cannot open"};
    for (int i = 0; i < 4; i++) {
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(mulred_utxo_read_header(&h, paths[i], &err), MULRED_EINPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, why[i]));
        mulred_utxo_stats st;
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(mulred_utxo_stats_scan(&st, paths[i], &err), MULRED_EINPUT);
        mulred_utxo_source *s = NULL;
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(mulred_utxo_source_open(&s, paths[i], NULL, &err), MULRED_EINPUT);
    }
    unlink(fifo);
    unlink(dangling);

    /* At the index path: a FIFO (replaced by the rebuilt index), /dev/zero behind a symlink and
     * a sparse file larger than any index of this snapshot (both rejected unread, then replaced),
     * a directory (left alone; the index lives in memory). The result is right every time. */
    char path[4096], idx[4200], want[65], hex[65];
    snprintf(path, sizeof path, "%s", tmp_path("kinds.dat"));
    snprintf(idx, sizeof idx, "%s.idx", path);
    size_t len;
    uint8_t *b = read_bytes(test_vector_path("bitcoin/dump-28_0.dat"), &len);
    write_bytes(path, b, len);
    free(b);
    for (int kind = 0; kind < 4; kind++) {
        unlink(idx);
        rmdir(idx);
        if (kind == 0) CU_ASSERT_EQUAL_FATAL(mkfifo(idx, 0600), 0);
        if (kind == 1) CU_ASSERT_EQUAL_FATAL(symlink("/dev/zero", idx), 0);
        if (kind == 2) {
            int fd = open(idx, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            CU_ASSERT_FATAL(fd >= 0);
            CU_ASSERT_EQUAL(ftruncate(fd, (off_t)1 << 36), 0); /* 64 GiB, no blocks */
            close(fd);
        }
        if (kind == 3) CU_ASSERT_EQUAL_FATAL(mkdir(idx, 0755), 0);
        mulred_utxo_index_info info;
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(mulred_utxo_index_build(&info, path, NULL, false, &err), MULRED_OK);
        CU_ASSERT_FALSE(info.loaded);
        CU_ASSERT_EQUAL(info.saved, kind != 3);
        struct stat st;
        CU_ASSERT_EQUAL(lstat(idx, &st), 0);
        CU_ASSERT(kind == 3 ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode) && st.st_size < 4096);
        CU_ASSERT_EQUAL(lib_muhash(hex, path, 2, 1, NULL, &err), MULRED_OK);
        snprintf(want, sizeof want, "%s", DUMP_MUHASH);
        CU_ASSERT_STRING_EQUAL(hex, want);
    }
    rmdir(idx);
}

/* ---- random corruption ---- */

static void corrupt_file(const char *vector, int header_bytes)
{
    size_t len;
    uint8_t *orig = read_bytes(test_vector_path(vector), &len);
    uint8_t *buf = malloc(len);
    char *path = tmp_path("corrupt.dat");
    mulred_error err;
    char want[65], hex[65], seq[65];
    mulred_utxo_options mem = {.no_save = true, .chunk_bytes = 4096};
    write_bytes(path, orig, len);
    CU_ASSERT_EQUAL_FATAL(lib_muhash(want, path, 1, 1, &mem, &err), MULRED_OK);
    /* Truncations: always bad input, on every path. */
    for (int i = 0; i < 40; i++) {
        size_t n = i == 0 ? 0 : i == 1 ? 51 : (size_t)test_rand_below(len);
        write_bytes(path, orig, n);
        uint8_t d[32];
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(mulred_utxo_txoutset_hash(d, path, &err), MULRED_EINPUT);
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(lib_muhash(hex, path, 1 + i % 4, 2, &mem, &err), MULRED_EINPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "byte "));
    }
    /* Bit flips: bad input, or a valid file whose parallel and sequential results agree (a flip
     * inside a txid or key hash is still a valid snapshot). Never anything else. 100 anywhere,
     * 40 in the first 400 bytes, and 10 in the header's coin count (its last 8 bytes), which
     * then disagrees with the coins that follow: always bad input. Random flips alone are
     * rejected rarely enough (about 3% each in dump-27_0) that a run could see none. */
    int rejected = 0;
    for (int i = 0; i < 150; i++) {
        memcpy(buf, orig, len);
        const bool count_field = i >= 140;
        size_t at;
        if (i < 100)
            at = (size_t)test_rand_below(len);
        else if (!count_field)
            at = (size_t)test_rand_below(400);
        else
            at = (size_t)header_bytes - 8 + (size_t)test_rand_below(8);
        buf[at] ^= (uint8_t)(1u << test_rand_below(8));
        write_bytes(path, buf, len);
        mulred_error_clear(&err);
        int r1 = lib_muhash(seq, path, 1, 1, &mem, &err);
        CU_ASSERT(r1 == MULRED_OK || r1 == MULRED_EINPUT);
        mulred_error_clear(&err);
        int r2 = lib_muhash(hex, path, 3, 2, &mem, &err);
        CU_ASSERT_EQUAL(r1, r2);
        if (count_field) CU_ASSERT_EQUAL(r1, MULRED_EINPUT);
        if (r1 == MULRED_OK) {
            CU_ASSERT_STRING_EQUAL(hex, seq);
            if (at >= (size_t)header_bytes) CU_ASSERT_STRING_NOT_EQUAL(hex, want);
        } else {
            rejected++;
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "byte "));
        }
    }
    CU_ASSERT(rejected > 0);
    free(buf);
    free(orig);
}

static void test_corruption(void)
{
    corrupt_file("bitcoin/regtest-medium.dat", 51);
    corrupt_file("bitcoin/dump-27_0.dat", 40); /* legacy */
}

void test_register(void)
{
    TEST_SUITE("utxo", {"primitives", test_primitives},
               {"hand-made files, each bad input", test_handmade},
               {"dump-28_0 and dump-27_0", test_dump_vectors},
               {"Core-written regtest vectors", test_core_vectors},
               {"synthetic vs slow path, 1-4 ranks x 1-2 threads", test_synthetic},
               {"size bound of synthetic snapshots", test_synth_size_bound},
               {"database key order", test_key_order}, {"index lifecycle", test_index_lifecycle},
               {"lying index", test_index_lies}, {"truncations and bit flips", test_corruption},
               {"FIFOs, devices, directories, symlinks", test_file_kinds});
}

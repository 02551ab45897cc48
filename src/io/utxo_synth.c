#define _GNU_SOURCE
/* Synthetic snapshots for tests and benchmarks.
 *
 * The mix of script classes is roughly mainnet's, so decode costs are realistic: P2PKH 30%, P2SH
 * 10%, P2PK compressed 0.2% and uncompressed 0.05% (valid curve points; mainnet has ~0.03%, and
 * each costs a square root), P2WPKH 24.75%, P2WSH 5%, P2TR 20%, P2A 1%, bare multisig 2%,
 * empty 0.5%, large raw scripts (521..10,000 bytes) 0.6%, other raw scripts 5.9%. The first 14
 * coins cycle through every class (with both parities of types 2-5), so any file of 13 coins
 * or more covers them all. Groups: 80% single coins,
 * the rest 2..701 coins; some groups use vouts above 252 and some cross 16,511, where database
 * key order (VARINT bytes) stops being numeric order; each group is written in key order, as
 * Core does. The coins come from mulred_mix_stream (synth_random), so the file depends
 * only on (n, seed, format). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "io/utxo_internal.h"
#include "mix/mix_stream.h"
#include "util/util.h"

/* The one source of randomness: 64 bits for (seed, counter) from mulred's counter-based
 * stream (a pure function: the file depends only on its parameters). */
static uint64_t synth_random(uint64_t seed, uint64_t counter)
{
    return mulred_mix_stream(seed, counter).lo;
}

typedef struct {
    uint64_t seed, counter;
} synth_rng;

static uint64_t rnd(synth_rng *r)
{
    return synth_random(r->seed, r->counter++);
}
static uint64_t rnd_below(synth_rng *r, uint64_t n)
{
    return rnd(r) % n;
}
static void rnd_bytes(synth_rng *r, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = rnd(r);
        for (size_t j = 0; j < 8 && i + j < n; j++) out[i + j] = (uint8_t)(v >> (8 * j));
    }
}

typedef struct {
    uint32_t vout;
    uint8_t key[5];
    uint8_t keylen;
} vout_key;

static int cmp_key(const void *a, const void *b)
{
    const vout_key *x = a, *y = b;
    size_t n = x->keylen < y->keylen ? x->keylen : y->keylen;
    int c = memcmp(x->key, y->key, n);
    return c ? c : (int)x->keylen - (int)y->keylen;
}

/* Appends a compressed script (VARINT size/type and data) to out; returns bytes written. */
static size_t synth_script(uint8_t *out, synth_rng *r, uint64_t coin_index)
{
    /* The first coins cycle through the classes (every file of >= 14 coins has them all). */
    static const uint16_t first[14] = {0,    3000, 4000, 4019, 4020, 4021, 4100,
                                       6600, 7100, 9000, 9200, 9300, 9400, 9500};
    uint64_t u = coin_index < 14 ? first[coin_index] : rnd_below(r, 10000);
    uint8_t data[MULRED_UTXO_MAX_SCRIPT];
    size_t n;
    if (u < 3000) { /* P2PKH */
        out[0] = 0;
        rnd_bytes(r, out + 1, 20);
        return 21;
    }
    if (u < 4000) { /* P2SH */
        out[0] = 1;
        rnd_bytes(r, out + 1, 20);
        return 21;
    }
    if (u < 4025) { /* P2PK: types 2/3 (compressed key) and 4/5 (uncompressed, stored as x) */
        do rnd_bytes(r, out + 1, 32);
        while (!utxo_x_on_curve(out + 1));
        out[0] = (uint8_t)(u < 4020 ? 2 + (u & 1) : 4 + (u & 1));
        return 33;
    }
    if (u < 6500) { /* P2WPKH */
        data[0] = 0x00, data[1] = 20;
        rnd_bytes(r, data + 2, 20);
        n = 22;
    } else if (u < 7000) { /* P2WSH */
        data[0] = 0x00, data[1] = 32;
        rnd_bytes(r, data + 2, 32);
        n = 34;
    } else if (u < 9000) { /* P2TR */
        data[0] = 0x51, data[1] = 32;
        rnd_bytes(r, data + 2, 32);
        n = 34;
    } else if (u < 9100) { /* P2A */
        data[0] = 0x51, data[1] = 0x02, data[2] = 0x4e, data[3] = 0x73;
        n = 4;
    } else if (u < 9300) { /* bare multisig m-of-k, compressed keys */
        unsigned k = 1 + (unsigned)rnd_below(r, 3), m = 1 + (unsigned)rnd_below(r, k);
        n = 0;
        data[n++] = (uint8_t)(0x50 + m);
        for (unsigned i = 0; i < k; i++) {
            data[n++] = 33;
            data[n++] = (uint8_t)(2 + rnd_below(r, 2));
            rnd_bytes(r, data + n, 32);
            n += 32;
        }
        data[n++] = (uint8_t)(0x50 + k);
        data[n++] = 0xae;
    } else if (u < 9350) { /* empty */
        n = 0;
    } else if (u < 9410) { /* large: up to the 10,000-byte limit */
        n = u == 9400 || u == 9409 ? MULRED_UTXO_MAX_SCRIPT
                                   : 521 + rnd_below(r, MULRED_UTXO_MAX_SCRIPT - 520);
        rnd_bytes(r, data, n);
    } else { /* other raw scripts */
        n = 1 + rnd_below(r, 100);
        rnd_bytes(r, data, n);
    }
    size_t h = utxo_write_varint(out, n + 6);
    memcpy(out + h, data, n);
    return h + n;
}

/* Writes one Coin (height code, amount, script) to out; returns bytes written. */
static size_t synth_coin(uint8_t *out, synth_rng *r, uint64_t coin_index)
{
    uint64_t height = rnd_below(r, 100) == 0 ? rnd_below(r, 128) : rnd_below(r, 900000);
    uint64_t code = height * 2 + (rnd_below(r, 100) < 3);
    uint64_t kind = rnd_below(r, 10), value;
    if (kind == 0)
        value = 0;
    else if (kind < 5) {
        value = 1 + rnd_below(r, 99);
        for (uint64_t e = rnd_below(r, 10); e; e--) value *= 10;
    } else {
        value = rnd_below(r, 5000000000ull);
    }
    size_t n = utxo_write_varint(out, code);
    n += utxo_write_varint(out + n, utxo_compress_amount(value));
    return n + synth_script(out + n, r, coin_index);
}

/* ---- the file's size ----
 * Coins differ in size (scripts of 0 to 10,000 bytes), so the exact size is known only once
 * they are drawn, which is the whole cost of writing them. The bound is the mean plus 8
 * standard deviations of a sum of n coins, plus what the fixed first coins add (one
 * 10,000-byte script), and never above n coins of the largest size. Measured: files of 10^7
 * coins (seeds 1 and 5) hold 74.8-74.9 bytes a coin in v2 and 102.3-102.4 in legacy; files of
 * 10^4 coins over 200 seeds deviate by 519 bytes times the root of the count, groups included. */
#define SYNTH_MEAN_V2     76.0 /* bytes per coin, rounded up */
#define SYNTH_MEAN_LEGACY 104.0
#define SYNTH_SIGMA       600.0 /* bytes per coin, rounded up (both formats) */
#define SYNTH_FIRST_EXTRA 16384.0
#define SYNTH_COIN_MAX    (UTXO_COIN_MAX_BYTES + 32 + 9) /* a coin, its txid and group count */

uint64_t mulred_utxo_synth_bytes(uint64_t n, bool legacy)
{
    const double header = legacy ? 40 : MULRED_UTXO_V2_HEADER_BYTES;
    const double mean = legacy ? SYNTH_MEAN_LEGACY : SYNTH_MEAN_V2, dn = (double)n;
    const double bound = header + SYNTH_FIRST_EXTRA + dn * mean + 8 * SYNTH_SIGMA * sqrt(dn);
    const double worst = header + dn * SYNTH_COIN_MAX;
    const double b = bound < worst ? bound : worst;
    return b >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)b;
}

/* bytes as "12.3 GB" (decimal units). */
static const char *size_text(char *out, size_t cap, uint64_t bytes)
{
    static const char *const unit[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1000 && u < 6) v /= 1000, u++;
    snprintf(out, cap, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
    return out;
}

/* Refuses a file that cannot fit: the free space of path's file system (for an unprivileged
 * user; a name that is not a regular file, such as /dev/null, is not checked). */
static mulred_status synth_space_check(const char *path, uint64_t ncoins, bool legacy,
                                       mulred_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return MULRED_OK;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    struct statvfs fs;
    const int rc = dir ? statvfs(dir, &fs) : -1;
    free(dir);
    if (rc != 0) return MULRED_OK; /* the open that follows names the problem */
    const uint64_t need = mulred_utxo_synth_bytes(ncoins, legacy);
    const uint64_t avail = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
    if (need <= avail) return MULRED_OK;
    char a[32], b[32];
    return mulred_error_set(err, MULRED_ERUNTIME,
                            "%s: %" PRIu64 " coins need up to %" PRIu64
                            " bytes (%s); its file system has %" PRIu64 " bytes (%s) free",
                            path, ncoins, need, size_text(a, sizeof a, need), avail,
                            size_text(b, sizeof b, avail));
}

/* Coins between progress reports. */
#define SYNTH_PROGRESS_COINS (UINT64_C(1) << 16)

mulred_status mulred_utxo_synth(const char *path, uint64_t ncoins, uint64_t seed, bool legacy,
                                mulred_error *err)
{
    return mulred_utxo_synth_opt(path, ncoins, seed, legacy, NULL, err);
}

mulred_status mulred_utxo_synth_opt(const char *path, uint64_t ncoins, uint64_t seed, bool legacy,
                                    const mulred_utxo_options *opt, mulred_error *err)
{
    if (synth_space_check(path, ncoins, legacy, err)) return err->status;
    mulred_whole_file w;
    if (mulred_whole_open(&w, path, MULRED_WHOLE_IN_PLACE, err)) return err->status;
    FILE *f = w.f;
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    synth_rng r = {seed, 0};
    uint8_t hdr[MULRED_UTXO_V2_HEADER_BYTES], hash[32];
    rnd_bytes(&r, hash, 32);
    hash[31] = hash[30] = 0; /* looks like a proof-of-work hash */
    size_t hlen = 0;
    if (!legacy) {
        memcpy(hdr, "utxo\xff", 5);
        hdr[5] = 2, hdr[6] = 0;
        memcpy(hdr + 7, "\xfa\xbf\xb5\xda", 4); /* regtest */
        hlen = 11;
    }
    memcpy(hdr + hlen, hash, 32);
    mulred_store_le64(hdr + hlen + 32, ncoins);
    hlen += 40;
    fwrite(hdr, 1, hlen, f);

    vout_key *keys = malloc(701 * sizeof *keys);
    uint8_t *coin = malloc(UTXO_COIN_MAX_BYTES);
    if (!keys || !coin) {
        free(keys), free(coin), mulred_whole_discard(&w);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    uint64_t left = ncoins, reported = 0;
    void (*progress)(void *, uint64_t, uint64_t) = opt ? opt->progress : NULL;
    while (left > 0 && !ferror(f)) {
        if (progress && ncoins - left - reported >= SYNTH_PROGRESS_COINS)
            progress(opt->progress_data, reported = ncoins - left, ncoins);
        uint64_t u = rnd_below(&r, 1000), k;
        if (u < 800)
            k = 1;
        else if (u < 920)
            k = 2 + rnd_below(&r, 3);
        else if (u < 990)
            k = 5 + rnd_below(&r, 26);
        else if (u < 998)
            k = 31 + rnd_below(&r, 270);
        else
            k = 301 + rnd_below(&r, 401);
        if (k > left) k = left;
        uint64_t style = rnd_below(&r, 100);
        uint32_t vout = style < 85   ? (uint32_t)rnd_below(&r, 3)
                        : style < 95 ? 200 + (uint32_t)rnd_below(&r, 100)
                                     : 16000 + (uint32_t)rnd_below(&r, 500);
        for (uint64_t i = 0; i < k; i++) {
            keys[i].vout = vout;
            keys[i].keylen = (uint8_t)utxo_write_varint(keys[i].key, vout);
            vout += 1 + (uint32_t)(rnd_below(&r, 4) == 0);
        }
        qsort(keys, k, sizeof *keys, cmp_key); /* database key order */
        uint8_t txid[32], cs[9];
        rnd_bytes(&r, txid, 32);
        if (!legacy) {
            fwrite(txid, 1, 32, f);
            fwrite(cs, 1, utxo_write_compact_size(cs, k), f);
        }
        for (uint64_t i = 0; i < k; i++) {
            size_t n;
            if (legacy) {
                memcpy(coin, txid, 32);
                mulred_store_le32(coin + 32, keys[i].vout);
                n = 36;
            } else {
                n = utxo_write_compact_size(coin, keys[i].vout);
            }
            n += synth_coin(coin + n, &r, ncoins - left + i);
            fwrite(coin, 1, n, f);
        }
        left -= k;
    }
    free(keys);
    free(coin);
    if (mulred_whole_commit(&w, err)) return err->status;
    if (progress) progress(opt->progress_data, ncoins, ncoins);
    return MULRED_OK;
}

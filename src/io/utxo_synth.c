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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

mulred_status mulred_utxo_synth(const char *path, uint64_t ncoins, uint64_t seed, bool legacy,
                                mulred_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f) return mulred_error_set(err, MULRED_ERUNTIME, "%s: %s", path, strerror(errno));
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
        free(keys), free(coin), fclose(f);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    uint64_t left = ncoins;
    while (left > 0) {
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
    bool ok = !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok) return mulred_error_set(err, MULRED_ERUNTIME, "%s: write error", path);
    return MULRED_OK;
}

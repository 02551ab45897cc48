/* Shared by the snapshot harnesses: a digest of the coins a decode visits (count, then SHA-256
 * over every TxOutSer with its length, in visiting order) and the sequential reference decode. */
#ifndef MULRED_FUZZ_UTXO_H
#define MULRED_FUZZ_UTXO_H

#include "fuzz_common.h"

#include "io/utxo_index.h"
#include "io/utxo_internal.h"
#include "io/utxo_source.h"
#include "mulred/plan.h"
#include "mulred/utxo.h"

typedef struct {
    EVP_MD_CTX *md;
    uint64_t coins;
} coin_digest;

static inline int on_coin(void *ctx, const utxo_coin *c, mulred_error *err)
{
    (void)err;
    coin_digest *d = ctx;
    FUZZ_CHECK(c->ser_len <= MULRED_UTXO_MAX_TXOUTSER, "TxOutSer of %zu bytes", c->ser_len);
    uint8_t len[8];
    for (int i = 0; i < 8; i++) len[i] = (uint8_t)(c->ser_len >> (8 * i));
    EVP_DigestUpdate(d->md, len, 8);
    EVP_DigestUpdate(d->md, c->ser, c->ser_len);
    d->coins++;
    return 0;
}

static inline void digest_begin(coin_digest *d)
{
    if (!d->md) d->md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(d->md, EVP_sha256(), NULL);
    d->coins = 0;
}

/* The sequential decode: the header, every coin from the body start, nothing after the last. */
static inline int sequential(coin_digest *d, uint8_t out[32], const char *path, uint8_t *buf,
                             mulred_error *err)
{
    digest_begin(d);
    int fd = -1;
    mulred_utxo_header h;
    int rc = utxo_open(&fd, &h, path, err);
    if (rc) return rc;
    utxo_visitor v = {.coin = on_coin, .ctx = d};
    uint64_t end = 0;
    const utxo_range whole = {fd, &h, path, h.body_offset, h.file_size, 0, h.coins};
    rc = utxo_decode_range(&end, &whole, &v, buf, err);
    if (rc == MULRED_OK && end != h.file_size)
        rc = utxo_fail(err, path, end, "%llu trailing bytes after the last of %llu coins",
                       (unsigned long long)(h.file_size - end), (unsigned long long)h.coins);
    close(fd);
    if (rc == MULRED_OK) FUZZ_CHECK(d->coins == h.coins, "sequential: coins != header");
    EVP_DigestFinal_ex(d->md, out, NULL);
    return rc;
}

/* The indexed path for nranks ranks with the given options; the lowest failing rank's error
 * wins, as in mulred_mpi_agree. Checks that the ranks' chunk ranges are contiguous and cover
 * the index. */
static inline int indexed(coin_digest *d, uint8_t out[32], const char *path,
                          const mulred_utxo_options *opt, int nranks, uint8_t *buf,
                          mulred_error *err)
{
    digest_begin(d);
    utxo_visitor v = {.coin = on_coin, .ctx = d};
    int rc = MULRED_OK;
    uint64_t covered = 0, total = 0;
    for (int rank = 0; rank < nranks && rc == MULRED_OK; rank++) {
        mulred_utxo_source *s = NULL;
        rc = mulred_utxo_source_open(&s, path, opt, err);
        if (rc) break;
        const uint64_t *coins_before;
        uint64_t units = mulred_utxo_source_units(s, &coins_before);
        mulred_unit_range r = mulred_plan_weighted(coins_before, units, rank, nranks);
        mulred_utxo_source_select(s, r.first, r.end);
        uint64_t first, end;
        mulred_utxo_source_range(s, &first, &end, &total);
        FUZZ_CHECK(first == covered, "rank %d starts at chunk %llu, previous ended at %llu", rank,
                   (unsigned long long)first, (unsigned long long)covered);
        covered = end;
        for (uint64_t i = 0; i < end - first && rc == MULRED_OK; i++)
            rc = utxo_source_decode_chunk(s, (size_t)i, &v, buf, err);
        mulred_utxo_source_close(s);
    }
    if (rc == MULRED_OK)
        FUZZ_CHECK(covered == total, "ranks cover %llu of %llu chunks", (unsigned long long)covered,
                   (unsigned long long)total);
    EVP_DigestFinal_ex(d->md, out, NULL);
    return rc;
}

#endif

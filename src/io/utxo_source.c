#define _GNU_SOURCE
/* A snapshot's index chunks as work units, and the sequential scans (txoutset hash,
 * statistics).
 *
 * Whole-file validity across ranks: the index was built by a validating scan; still, each chunk
 * decoder checks that its bytes hold exactly ord[c+1] − ord[c] coins and end exactly at
 * off[c+1], and the last chunk checks that off[n] is the end of the file. Every rank validates
 * the chunks it selected, so when the selections cover every chunk (as a plan's do) the union
 * of the ranks' checks is the whole-file check, whatever P. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash/hash.h"
#include "io/utxo_index.h"
#include "io/utxo_source.h"
#include "util/util.h"

mulred_status mulred_utxo_source_open(mulred_utxo_source **out, const char *path,
                                      const mulred_utxo_options *opt, mulred_error *err)
{
    *out = NULL;
    mulred_utxo_source *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    s->fd = -1;
    mulred_status rc = utxo_open(&s->fd, &s->header, path, err);
    if (rc == MULRED_OK)
        rc = utxo_index_get(&s->index, NULL, s->fd, &s->header, path, opt, false, err);
    if (rc) {
        if (s->fd >= 0) close(s->fd);
        free(s->path);
        free(s);
        return rc;
    }
    mulred_utxo_source_select(s, 0, s->index.nchunks);
    *out = s;
    return MULRED_OK;
}

uint64_t mulred_utxo_source_units(const mulred_utxo_source *s, const uint64_t **coins_before)
{
    if (coins_before) *coins_before = s->index.ord;
    return s->index.nchunks;
}

void mulred_utxo_source_select(mulred_utxo_source *s, uint64_t first, uint64_t end)
{
    MULRED_CHECK(first <= end && end <= s->index.nchunks, "units [%llu, %llu) of %llu",
                 (unsigned long long)first, (unsigned long long)end,
                 (unsigned long long)s->index.nchunks);
    s->first = first;
    s->end = end;
}

const mulred_utxo_header *mulred_utxo_source_header(const mulred_utxo_source *s)
{
    return &s->header;
}

uint64_t mulred_utxo_source_coins(const mulred_utxo_source *s)
{
    return s->index.ord[s->end] - s->index.ord[s->first];
}

void mulred_utxo_source_range(const mulred_utxo_source *s, uint64_t *first_chunk,
                              uint64_t *end_chunk, uint64_t *total_chunks)
{
    if (first_chunk) *first_chunk = s->first;
    if (end_chunk) *end_chunk = s->end;
    if (total_chunks) *total_chunks = s->index.nchunks;
}

void mulred_utxo_source_close(mulred_utxo_source *s)
{
    if (!s) return;
    if (s->fd >= 0) close(s->fd);
    utxo_index_free(&s->index);
    free(s->path);
    free(s);
}

mulred_status utxo_source_decode_chunk(const mulred_utxo_source *s, size_t i, const utxo_visitor *v,
                                       uint8_t *buf, mulred_error *err)
{
    uint64_t c = s->first + i;
    const utxo_index *x = &s->index;
    MULRED_CHECK(c < s->end, "chunk %zu of %llu", i, (unsigned long long)(s->end - s->first));
    uint64_t end = 0;
    const utxo_range chunk = {
        s->fd, &s->header, s->path, x->off[c], x->off[c + 1], x->ord[c], x->ord[c + 1] - x->ord[c]};
    mulred_status rc = utxo_decode_range(&end, &chunk, v, buf, err);
    if (rc) return rc;
    if (end != x->off[c + 1])
        return utxo_fail(err, s->path, end,
                         "%llu bytes left in the chunk after its %llu coins (stale index?)",
                         (unsigned long long)(x->off[c + 1] - end),
                         (unsigned long long)(x->ord[c + 1] - x->ord[c]));
    if (c + 1 == x->nchunks && end != s->header.file_size)
        return utxo_fail(err, s->path, end, "%llu trailing bytes after the last of %llu coins",
                         (unsigned long long)(s->header.file_size - end),
                         (unsigned long long)s->header.coins);
    return MULRED_OK;
}

/* ---- txoutset hash ---- */

typedef struct {
    uint32_t vout;
    uint32_t seq;
    size_t off, len;
} group_item;

typedef struct {
    mulred_sha256 *md;
    uint8_t txid[32];
    bool open;
    uint8_t *bytes;
    size_t nbytes, capbytes;
    group_item *items;
    size_t nitems, capitems;
} txoutset_ctx;

static int cmp_item(const void *a, const void *b)
{
    const group_item *x = a, *y = b;
    if (x->vout != y->vout) return x->vout < y->vout ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void txoutset_flush(txoutset_ctx *t)
{
    if (t->nitems > 1) qsort(t->items, t->nitems, sizeof *t->items, cmp_item);
    for (size_t i = 0; i < t->nitems; i++)
        mulred_sha256_update(t->md, t->bytes + t->items[i].off, t->items[i].len);
    t->nitems = t->nbytes = 0;
    t->open = false;
}

/* Coins of one txid are consecutive in both formats (database order). Core's coinstats groups
 * consecutive equal txids of its cursor into a std::map by vout; this does the same. */
static int txoutset_coin(void *ctx, const utxo_coin *c, mulred_error *err)
{
    txoutset_ctx *t = ctx;
    if (t->open && memcmp(t->txid, c->ser, 32) != 0) txoutset_flush(t);
    if (!t->open) {
        memcpy(t->txid, c->ser, 32);
        t->open = true;
    }
    if (t->nbytes + c->ser_len > t->capbytes) {
        size_t ncap = (t->capbytes ? t->capbytes * 2 : 65536) + c->ser_len;
        uint8_t *nb = realloc(t->bytes, ncap);
        if (!nb) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        t->bytes = nb, t->capbytes = ncap;
    }
    if (t->nitems == t->capitems) {
        size_t ncap = t->capitems ? t->capitems * 2 : 1024;
        group_item *ni = realloc(t->items, ncap * sizeof *ni);
        if (!ni) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        t->items = ni, t->capitems = ncap;
    }
    memcpy(t->bytes + t->nbytes, c->ser, c->ser_len);
    t->items[t->nitems++] = (group_item){c->vout, (uint32_t)t->nitems, t->nbytes, c->ser_len};
    t->nbytes += c->ser_len;
    return 0;
}

/* One validating sequential scan with a coin visitor; checks the end of the file. */
static mulred_status scan_file(mulred_utxo_header *h, const char *path, const utxo_visitor *v,
                               mulred_error *err)
{
    int fd = -1;
    mulred_status rc = utxo_open(&fd, h, path, err);
    if (rc) return rc;
    uint8_t *buf = malloc(UTXO_READ_BUFFER);
    if (!buf) {
        close(fd);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    uint64_t end = 0;
    const utxo_range whole = {fd, h, path, h->body_offset, h->file_size, 0, h->coins};
    rc = utxo_decode_range(&end, &whole, v, buf, err);
    if (rc == MULRED_OK && end != h->file_size)
        rc = utxo_fail(err, path, end, "%llu trailing bytes after the last of %llu coins",
                       (unsigned long long)(h->file_size - end), (unsigned long long)h->coins);
    free(buf);
    close(fd);
    return rc;
}

mulred_status mulred_utxo_txoutset_hash(uint8_t out[32], const char *path, mulred_error *err)
{
    txoutset_ctx t = {0};
    if (!(t.md = mulred_sha256_new()))
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    mulred_sha256_init(t.md);
    utxo_visitor v = {.coin = txoutset_coin, .ctx = &t};
    mulred_utxo_header h;
    mulred_status rc = scan_file(&h, path, &v, err);
    if (rc == MULRED_OK) {
        txoutset_flush(&t);
        uint8_t first[32];
        mulred_sha256_final(t.md, first);
        mulred_sha256_digest(t.md, out, first, 32); /* SHA256d, as HashWriter */
    }
    mulred_sha256_free(t.md);
    free(t.bytes);
    free(t.items);
    return rc;
}

/* ---- statistics ---- */

typedef struct {
    mulred_utxo_stats *st;
    uint8_t txid[32];
    uint64_t group_len;
} stats_ctx;

static int stats_coin(void *ctx, const utxo_coin *c, mulred_error *err)
{
    (void)err;
    stats_ctx *x = ctx;
    mulred_utxo_stats *st = x->st;
    if (st->coins == 0 || memcmp(x->txid, c->ser, 32) != 0) {
        memcpy(x->txid, c->ser, 32);
        st->groups++;
        x->group_len = 0;
    }
    x->group_len++;
    if (x->group_len > st->max_group) st->max_group = x->group_len;
    st->coins++;
    st->coinbase += c->code & 1;
    mulred_utxo_script_class k = utxo_classify(c);
    st->class_count[k]++;
    st->class_script_bytes[k] += c->script_len;
    st->total_amount += (uint64_t)c->value;
    if ((c->code >> 1) > st->max_height) st->max_height = c->code >> 1;
    if (c->vout > st->max_vout) st->max_vout = c->vout;
    if (c->script_len > st->max_script) st->max_script = c->script_len;
    st->txoutser_bytes += c->ser_len;
    return 0;
}

mulred_status mulred_utxo_stats_scan(mulred_utxo_stats *st, const char *path, mulred_error *err)
{
    memset(st, 0, sizeof *st);
    stats_ctx x = {.st = st};
    utxo_visitor v = {.coin = stats_coin, .ctx = &x};
    double t0 = mulred_wtime();
    mulred_status rc = scan_file(&st->header, path, &v, err);
    st->seconds = mulred_wtime() - t0;
    st->body_bytes = st->header.file_size - st->header.body_offset;
    return rc;
}

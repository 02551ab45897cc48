#define _GNU_SOURCE
/* Snapshot format: header, primitives (CompactSize, VARINT, amounts, script decompression), the
 * coin decoder and the range decoder.
 *
 * Design: the reader keeps a 256 KiB buffer filled by pread; before each group header or coin it
 * makes UTXO_COIN_MAX_BYTES (16 KiB, more than the largest coin) available, or everything up to
 * the limit, so the decoder works on one contiguous span with explicit bounds and never reads
 * past its range. Memory is bounded by the buffer whatever the file size or group size. Every
 * length is checked against the span before it is used; running out of span means the file (or
 * the chunk) ends inside a coin. Costs per coin: a few branches and one TxOutSer copy, except
 * type 4/5 keys (one secp256k1 square root, far dearer: rare in real sets). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <secp256k1.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/utxo_internal.h"
#include "util/util.h"

static const uint8_t v2_magic[5] = {'u', 't', 'x', 'o', 0xff};

static const struct {
    const char *name;
    uint8_t magic[4];
} networks[] = {
    {"main", {0xf9, 0xbe, 0xb4, 0xd9}},     {"test", {0x0b, 0x11, 0x09, 0x07}},
    {"testnet4", {0x1c, 0x16, 0x3f, 0x28}}, {"signet", {0x0a, 0x03, 0xcf, 0x40}},
    {"regtest", {0xfa, 0xbf, 0xb5, 0xda}},
};

mulred_status utxo_fail(mulred_error *err, const char *path, uint64_t offset, const char *fmt, ...)
{
    char reason[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return mulred_error_set(err, MULRED_EINPUT, "%s: byte %llu: %s", path,
                            (unsigned long long)offset, reason);
}

/* ---- header ---- */

mulred_status utxo_parse_header(mulred_utxo_header *h, const uint8_t *buf, size_t len,
                                uint64_t file_size, const char *path, mulred_error *err)
{
    memset(h, 0, sizeof *h);
    h->file_size = file_size;
    if (len >= 5 && memcmp(buf, v2_magic, 5) == 0) {
        if (len < MULRED_UTXO_V2_HEADER_BYTES)
            return utxo_fail(err, path, len, "truncated header (%zu of %d bytes)", len,
                             MULRED_UTXO_V2_HEADER_BYTES);
        unsigned version = mulred_load_le16(buf + 5);
        if (version != 2)
            return utxo_fail(err, path, 5, "unsupported snapshot version %u (supported: 2)",
                             version);
        size_t i;
        for (i = 0; i < sizeof networks / sizeof networks[0]; i++)
            if (memcmp(buf + 7, networks[i].magic, 4) == 0) break;
        if (i == sizeof networks / sizeof networks[0])
            return utxo_fail(err, path, 7, "unknown network magic %02x%02x%02x%02x", buf[7], buf[8],
                             buf[9], buf[10]);
        h->format_version = 2;
        snprintf(h->network, sizeof h->network, "%s", networks[i].name);
        memcpy(h->network_magic, buf + 7, 4);
        memcpy(h->base_block_hash, buf + 11, 32);
        h->coins = mulred_load_le64(buf + 43);
        h->body_offset = MULRED_UTXO_V2_HEADER_BYTES;
        return MULRED_OK;
    }
    /* Legacy has no magic. Accept it only when it is plausible: a proof-of-work hash (the most
     * significant byte, stored last, is < 0x80 on every network) and a coin count that fits
     * (a legacy coin takes at least 39 bytes). Anything else starting like the magic, or
     * implausible, is "bad magic". */
    if (len >= 5 && memcmp(buf, v2_magic, 4) == 0)
        return utxo_fail(err, path, 0, "bad magic (not a snapshot: 'utxo' followed by 0x%02x)",
                         buf[4]);
    if (len < MULRED_UTXO_LEGACY_HEADER_BYTES) {
        if (len == 0) return utxo_fail(err, path, 0, "empty file (truncated header)");
        return utxo_fail(err, path, len,
                         "truncated header (%zu bytes; neither a v2 nor a legacy snapshot)", len);
    }
    uint64_t coins = mulred_load_le64(buf + 32);
    uint64_t body = file_size - MULRED_UTXO_LEGACY_HEADER_BYTES;
    if (buf[31] >= 0x80 || coins > body / 39)
        return utxo_fail(err, path, 0,
                         "bad magic (no v2 magic 7574786fff, and not a plausible legacy "
                         "snapshot header)");
    h->format_version = 0;
    memcpy(h->base_block_hash, buf, 32);
    h->coins = coins;
    h->body_offset = MULRED_UTXO_LEGACY_HEADER_BYTES;
    return MULRED_OK;
}

/* O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused as not a regular
 * file); it changes nothing for regular files. A path that names nothing readable (missing,
 * permission denied, a dangling symlink, a loop) is bad input; running out of descriptors or
 * memory is a runtime failure. */
mulred_status utxo_open(int *fd, mulred_utxo_header *h, const char *path, mulred_error *err)
{
    int f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (f < 0) {
        int e = errno;
        bool runtime = e == EMFILE || e == ENFILE || e == ENOMEM || e == EIO || e == EINTR;
        return mulred_error_set(err, runtime ? MULRED_ERUNTIME : MULRED_EINPUT,
                                "%s: cannot open: %s", path, strerror(e));
    }
    struct stat st;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f);
        return mulred_error_set(err, MULRED_EINPUT, "%s: not a regular file", path);
    }
    uint8_t buf[MULRED_UTXO_V2_HEADER_BYTES];
    size_t want = (uint64_t)st.st_size < sizeof buf ? (size_t)st.st_size : sizeof buf;
    ssize_t got = pread(f, buf, want, 0);
    if (got != (ssize_t)want) {
        close(f);
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: read error: %s", path,
                                got < 0 ? strerror(errno) : "short read");
    }
    mulred_status rc = utxo_parse_header(h, buf, want, (uint64_t)st.st_size, path, err);
    if (rc) {
        close(f);
        return rc;
    }
    *fd = f;
    return MULRED_OK;
}

mulred_status mulred_utxo_read_header(mulred_utxo_header *h, const char *path, mulred_error *err)
{
    int fd = -1;
    mulred_status rc = utxo_open(&fd, h, path, err);
    if (rc == MULRED_OK) close(fd);
    return rc;
}

void mulred_utxo_block_hash_hex(char hex[65], const mulred_utxo_header *h)
{
    mulred_hex_encode_reversed(hex, h->base_block_hash, 32);
}

/* ---- primitives ---- */

utxo_prim_status utxo_read_compact_size(uint64_t *v, const uint8_t **pp, const uint8_t *e)
{
    const uint8_t *p = *pp;
    if (p >= e) return UTXO_TRUNCATED;
    uint8_t c = *p++;
    uint64_t x;
    if (c < 253) {
        x = c;
    } else if (c == 253) {
        if (e - p < 2) return UTXO_TRUNCATED;
        x = mulred_load_le16(p), p += 2;
        if (x < 253) return UTXO_NONCANONICAL;
    } else if (c == 254) {
        if (e - p < 4) return UTXO_TRUNCATED;
        x = mulred_load_le32(p), p += 4;
        if (x < 0x10000u) return UTXO_NONCANONICAL;
    } else {
        if (e - p < 8) return UTXO_TRUNCATED;
        x = mulred_load_le64(p), p += 8;
        if (x < 0x100000000ull) return UTXO_NONCANONICAL;
    }
    if (x > UTXO_MAX_COMPACT_SIZE) return UTXO_TOO_LARGE;
    *v = x;
    *pp = p;
    return UTXO_OK;
}

utxo_prim_status utxo_read_varint(uint64_t *v, const uint8_t **pp, const uint8_t *e, int bits)
{
    const uint64_t max = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    const uint8_t *p = *pp;
    uint64_t n = 0;
    for (;;) {
        if (p >= e) return UTXO_TRUNCATED;
        uint8_t c = *p++;
        if (n > (max >> 7)) return UTXO_TOO_LARGE;
        n = (n << 7) | (c & 0x7f);
        if (!(c & 0x80)) break;
        if (n == max) return UTXO_TOO_LARGE;
        n++;
    }
    *v = n;
    *pp = p;
    return UTXO_OK;
}

size_t utxo_write_varint(uint8_t *out, uint64_t v)
{
    uint8_t tmp[10];
    size_t len = 0;
    for (;;) {
        tmp[len] = (uint8_t)((v & 0x7f) | (len ? 0x80 : 0x00));
        if (v <= 0x7f) break;
        v = (v >> 7) - 1;
        len++;
    }
    for (size_t i = 0; i <= len; i++) out[i] = tmp[len - i];
    return len + 1;
}

size_t utxo_write_compact_size(uint8_t *out, uint64_t v)
{
    if (v < 253) {
        out[0] = (uint8_t)v;
        return 1;
    }
    if (v <= 0xffff) {
        out[0] = 253, out[1] = (uint8_t)v, out[2] = (uint8_t)(v >> 8);
        return 3;
    }
    if (v <= 0xffffffffu) {
        out[0] = 254;
        mulred_store_le32(out + 1, (uint32_t)v);
        return 5;
    }
    out[0] = 255;
    mulred_store_le64(out + 1, v);
    return 9;
}

/* Core's CompressAmount / DecompressAmount (src/compressor.cpp), including its wrap-around on
 * absurd inputs (the MoneyRange check afterwards rejects those, as Core does). */
uint64_t utxo_compress_amount(uint64_t n)
{
    if (n == 0) return 0;
    int e = 0;
    while ((n % 10) == 0 && e < 9) n /= 10, e++;
    if (e < 9) {
        int d = (int)(n % 10);
        n /= 10;
        return 1 + (n * 9 + (uint64_t)d - 1) * 10 + (uint64_t)e;
    }
    return 1 + (n - 1) * 10 + 9;
}

uint64_t utxo_decompress_amount(uint64_t x)
{
    if (x == 0) return 0;
    x--;
    int e = (int)(x % 10);
    x /= 10;
    uint64_t n;
    if (e < 9) {
        uint64_t d = (x % 9) + 1;
        x /= 9;
        n = x * 10 + d;
    } else {
        n = x + 1;
    }
    while (e) n *= 10, e--;
    return n;
}

size_t utxo_special_script_size(unsigned type)
{
    return type <= 1 ? 20 : 32;
}

static secp256k1_context *secp_ctx;
static pthread_once_t secp_once = PTHREAD_ONCE_INIT;
static void secp_init(void)
{
    secp_ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
}

bool utxo_decompress_pubkey(uint8_t out[65], unsigned type, const uint8_t x[32])
{
    pthread_once(&secp_once, secp_init);
    uint8_t in[33];
    in[0] = (uint8_t)(type - 2); /* 4 → 0x02 (even y), 5 → 0x03 (odd y) */
    memcpy(in + 1, x, 32);
    secp256k1_pubkey pk;
    if (!secp256k1_ec_pubkey_parse(secp_ctx, &pk, in, 33)) return false;
    size_t len = 65;
    secp256k1_ec_pubkey_serialize(secp_ctx, out, &len, &pk, SECP256K1_EC_UNCOMPRESSED);
    return len == 65;
}

bool utxo_x_on_curve(const uint8_t x[32])
{
    uint8_t out[65];
    return utxo_decompress_pubkey(out, 4, x);
}

/* ---- coins ---- */

static const char *prim_reason(utxo_prim_status s)
{
    switch (s) {
    case UTXO_TRUNCATED:
        return "truncated";
    case UTXO_NONCANONICAL:
        return "non-canonical CompactSize";
    case UTXO_TOO_LARGE:
        return "too large";
    default:
        return "ok";
    }
}

/* Reports a primitive failure at p (truncation gets its own wording). */
static size_t prim_fail(mulred_error *err, const char *path, uint64_t off, utxo_prim_status s,
                        const char *field, bool at_eof)
{
    if (s == UTXO_TRUNCATED)
        utxo_fail(err, path, off, "%s while reading %s",
                  at_eof ? "unexpected end of file" : "coin crosses the chunk end (stale index?)",
                  field);
    else if (s == UTXO_TOO_LARGE && strstr(field, "VARINT"))
        utxo_fail(err, path, off, "VARINT overflow in %s", field);
    else
        utxo_fail(err, path, off, "%s: %s", field, prim_reason(s));
    return 0;
}

size_t utxo_decode_coin(utxo_coin *c, const uint8_t *p0, const uint8_t *e, const uint8_t txid[32],
                        uint64_t base, const utxo_range *r, mulred_error *err)
{
    const char *path = r->path;
    const bool legacy = r->h->format_version == 0, at_eof = r->limit >= r->h->file_size;
    const uint8_t *p = p0;
    uint8_t *s = c->ser;
    utxo_prim_status st;
    uint64_t v;
#define OFF(q) (base + (uint64_t)((q)-p0))
#define NEED(n, what)                                                                              \
    do {                                                                                           \
        if ((size_t)(e - p) < (size_t)(n))                                                         \
            return prim_fail(err, path, OFF(e), UTXO_TRUNCATED, what, at_eof);                     \
    } while (0)
    c->offset = base;
    if (legacy) {
        NEED(36, "outpoint");
        memcpy(s, p, 32);
        c->vout = mulred_load_le32(p + 32);
        p += 36;
        if (c->vout == UINT32_MAX)
            return utxo_fail(err, path, OFF(p - 4), "vout 4294967295 out of range"), 0;
    } else {
        memcpy(s, txid, 32);
        const uint8_t *q = p;
        if ((st = utxo_read_compact_size(&v, &p, e)))
            return prim_fail(err, path, OFF(st == UTXO_TRUNCATED ? e : q), st, "vout", at_eof);
        c->vout = (uint32_t)v;
    }
    mulred_store_le32(s + 32, c->vout);

    const uint8_t *q = p;
    if ((st = utxo_read_varint(&v, &p, e, 32)))
        return prim_fail(err, path, OFF(st == UTXO_TRUNCATED ? e : q), st, "height/coinbase VARINT",
                         at_eof);
    c->code = (uint32_t)v;
    mulred_store_le32(s + 36, c->code);

    q = p;
    if ((st = utxo_read_varint(&v, &p, e, 64)))
        return prim_fail(err, path, OFF(st == UTXO_TRUNCATED ? e : q), st, "amount VARINT", at_eof);
    c->value = (int64_t)utxo_decompress_amount(v);
    if (c->value < 0 || c->value > UTXO_MAX_MONEY)
        return utxo_fail(err, path, OFF(q), "amount out of range (compressed %llu)",
                         (unsigned long long)v),
               0;
    mulred_store_le64(s + 40, (uint64_t)c->value);

    q = p;
    if ((st = utxo_read_varint(&v, &p, e, 32)))
        return prim_fail(err, path, OFF(st == UTXO_TRUNCATED ? e : q), st, "script size VARINT",
                         at_eof);
    uint8_t *o = s + 48;
    if (v < 6) {
        unsigned type = (unsigned)v;
        size_t n = utxo_special_script_size(type);
        NEED(n, "compressed script");
        c->script_type = type;
        switch (type) {
        case 0: /* OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG */
            o[0] = 25, o[1] = 0x76, o[2] = 0xa9, o[3] = 20;
            memcpy(o + 4, p, 20);
            o[24] = 0x88, o[25] = 0xac;
            c->script_len = 25;
            break;
        case 1: /* OP_HASH160 <20> OP_EQUAL */
            o[0] = 23, o[1] = 0xa9, o[2] = 20;
            memcpy(o + 3, p, 20);
            o[23] = 0x87;
            c->script_len = 23;
            break;
        case 2:
        case 3: /* <33-byte key> OP_CHECKSIG */
            o[0] = 35, o[1] = 33, o[2] = (uint8_t)type;
            memcpy(o + 3, p, 32);
            o[35] = 0xac;
            c->script_len = 35;
            break;
        default: /* <65-byte key> OP_CHECKSIG */
            o[0] = 67, o[1] = 65;
            if (!utxo_decompress_pubkey(o + 2, type, p))
                return utxo_fail(err, path, OFF(p),
                                 "script type %u: x coordinate is not on the curve", type),
                       0;
            o[67] = 0xac;
            c->script_len = 67;
            break;
        }
        p += n;
        c->script_off = 49;
    } else {
        v -= 6;
        if (v > MULRED_UTXO_MAX_SCRIPT)
            return utxo_fail(err, path, OFF(q), "script size %llu over %d bytes",
                             (unsigned long long)v, MULRED_UTXO_MAX_SCRIPT),
                   0;
        NEED(v, "script");
        size_t cs = utxo_write_compact_size(o, v);
        memcpy(o + cs, p, (size_t)v);
        p += v;
        c->script_type = 6;
        c->script_len = (size_t)v;
        c->script_off = 48 + cs;
    }
    c->ser_len = c->script_off + c->script_len;
    return (size_t)(p - p0);
#undef NEED
#undef OFF
}

mulred_utxo_script_class utxo_classify(const utxo_coin *c)
{
    switch (c->script_type) {
    case 0:
        return MULRED_UTXO_P2PKH;
    case 1:
        return MULRED_UTXO_P2SH;
    case 2:
    case 3:
        return MULRED_UTXO_P2PK_COMP;
    case 4:
    case 5:
        return MULRED_UTXO_P2PK_UNCOMP;
    default:
        break;
    }
    const uint8_t *s = c->ser + c->script_off;
    size_t n = c->script_len;
    if (n == 0) return MULRED_UTXO_EMPTY;
    if (n == 22 && s[0] == 0x00 && s[1] == 20) return MULRED_UTXO_P2WPKH;
    if (n == 34 && s[0] == 0x00 && s[1] == 32) return MULRED_UTXO_P2WSH;
    if (n == 34 && s[0] == 0x51 && s[1] == 32) return MULRED_UTXO_P2TR;
    if (n == 4 && s[0] == 0x51 && s[1] == 2 && s[2] == 0x4e && s[3] == 0x73) return MULRED_UTXO_P2A;
    if (n >= 4 && n <= 42 && (s[0] == 0x00 || (s[0] >= 0x51 && s[0] <= 0x60)) && s[1] + 2u == n)
        return MULRED_UTXO_WITNESS_OTHER;
    if (s[0] == 0x6a) return MULRED_UTXO_OP_RETURN;
    if (n >= 3 && s[n - 1] == 0xae && s[0] >= 0x51 && s[0] <= 0x60) return MULRED_UTXO_MULTISIG;
    return MULRED_UTXO_OTHER;
}

const char *mulred_utxo_script_class_name(mulred_utxo_script_class c)
{
    static const char *names[MULRED_UTXO_NCLASSES] = {
        "p2pkh", "p2sh",          "p2pk_compressed", "p2pk_uncompressed", "p2wpkh", "p2wsh", "p2tr",
        "p2a",   "witness_other", "multisig",        "op_return",         "empty",  "other"};
    return (unsigned)c < MULRED_UTXO_NCLASSES ? names[c] : "?";
}

/* ---- reader and range decoder ---- */

/* Makes min(want, limit − offset) bytes available at the cursor. Returns the number available
 * or -1 on an I/O error (err set). */
static ssize_t reader_ensure(utxo_reader *r, size_t want, mulred_error *err)
{
    size_t have = r->len - r->pos;
    uint64_t cur = r->buf_off + r->pos;
    uint64_t left = r->limit - cur;
    if (want > left) want = (size_t)left;
    if (have >= want) return (ssize_t)have;
    memmove(r->buf, r->buf + r->pos, have);
    r->buf_off = cur;
    r->pos = 0;
    r->len = have;
    while (r->len < want) {
        uint64_t room = r->cap - r->len, rest = r->limit - (r->buf_off + r->len);
        size_t n = (size_t)(room < rest ? room : rest);
        ssize_t got = pread(r->fd, r->buf + r->len, n, (off_t)(r->buf_off + r->len));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            mulred_error_set(err, MULRED_ERUNTIME, "%s: read error at byte %llu: %s", r->path,
                             (unsigned long long)(r->buf_off + r->len), strerror(errno));
            return -1;
        }
        if (got == 0) {
            mulred_error_set(err, MULRED_ERUNTIME, "%s: file shrank while reading (byte %llu)",
                             r->path, (unsigned long long)(r->buf_off + r->len));
            return -1;
        }
        r->len += (size_t)got;
    }
    /* The contract of the reader: nothing at or past the limit is ever read. */
    MULRED_VERIFY(r->pos <= r->len && r->len <= r->cap && r->buf_off + r->len <= r->limit);
    return (ssize_t)(r->len - r->pos);
}

/* The per-coin check, inlined: a call only when less than a maximal coin is buffered. */
static inline ssize_t reader_ready(utxo_reader *r, mulred_error *err)
{
    size_t have = r->len - r->pos;
    if (have >= UTXO_COIN_MAX_BYTES) return (ssize_t)have;
    return reader_ensure(r, UTXO_COIN_MAX_BYTES, err);
}

mulred_status utxo_decode_range(uint64_t *end, const utxo_range *range, const utxo_visitor *v,
                                uint8_t *buf, mulred_error *err)
{
    const mulred_utxo_header *h = range->h;
    const char *path = range->path;
    const uint64_t limit = range->limit, ncoins = range->ncoins;
    uint64_t ordinal = range->ordinal;
    utxo_reader r = {.fd = range->fd,
                     .path = path,
                     .buf = buf,
                     .cap = UTXO_READ_BUFFER,
                     .buf_off = range->begin,
                     .limit = limit,
                     .file_size = h->file_size};
    const bool legacy = h->format_version == 0;
    const bool at_eof = limit >= h->file_size;
    const bool whole = range->begin == h->body_offset && ncoins == h->coins && at_eof;
    utxo_coin coin;
    uint64_t left = ncoins;
    int rc;
    while (left > 0) {
        ssize_t avail = reader_ready(&r, err);
        if (avail < 0) return MULRED_ERUNTIME;
        uint64_t goff = r.buf_off + r.pos;
        if (avail == 0) {
            if (at_eof)
                return utxo_fail(err, path, goff,
                                 "unexpected end of file: %llu coins read, the header says %llu",
                                 (unsigned long long)(ordinal), (unsigned long long)h->coins);
            return utxo_fail(err, path, goff,
                             "chunk ends after %llu of its %llu coins (stale index?)",
                             (unsigned long long)(ncoins - left), (unsigned long long)ncoins);
        }
        if (v && v->group && (rc = v->group(v->ctx, goff, ordinal, err))) return rc;
        const uint8_t *p = r.buf + r.pos, *e = r.buf + r.len;
        if (legacy) {
            size_t used = utxo_decode_coin(&coin, p, e, NULL, goff, range, err);
            if (!used) return MULRED_EINPUT;
            MULRED_VERIFY(used <= (size_t)(e - p) && coin.ser_len <= MULRED_UTXO_MAX_TXOUTSER);
            r.pos += used;
            ordinal++, left--;
            if (v && v->coin && (rc = v->coin(v->ctx, &coin, err))) return rc;
            continue;
        }
        uint8_t txid[32];
        if (e - p < 32)
            return prim_fail(err, path, goff + (uint64_t)(e - p), UTXO_TRUNCATED, "txid", at_eof),
                   MULRED_EINPUT;
        memcpy(txid, p, 32);
        const uint8_t *q = p + 32;
        uint64_t n;
        utxo_prim_status st = utxo_read_compact_size(&n, &q, e);
        if (st)
            return prim_fail(err, path, goff + (st == UTXO_TRUNCATED ? (uint64_t)(e - p) : 32), st,
                             "coin count of a txid group", at_eof),
                   MULRED_EINPUT;
        if (n == 0) return utxo_fail(err, path, goff + 32, "txid group with no coins");
        if (n > left) {
            if (whole)
                return utxo_fail(err, path, goff + 32,
                                 "txid group holds %llu coins but only %llu remain of the "
                                 "header's %llu (coin count mismatch)",
                                 (unsigned long long)n, (unsigned long long)left,
                                 (unsigned long long)h->coins);
            return utxo_fail(err, path, goff + 32,
                             "txid group holds %llu coins but only %llu remain of the %llu the "
                             "index assigns to this chunk (stale index or count mismatch)",
                             (unsigned long long)n, (unsigned long long)left,
                             (unsigned long long)ncoins);
        }
        r.pos += (size_t)(q - p);
        for (uint64_t k = 0; k < n; k++) {
            avail = reader_ready(&r, err);
            if (avail < 0) return MULRED_ERUNTIME;
            uint64_t coff = r.buf_off + r.pos;
            size_t used =
                utxo_decode_coin(&coin, r.buf + r.pos, r.buf + r.len, txid, coff, range, err);
            if (!used) return MULRED_EINPUT;
            MULRED_VERIFY(used <= r.len - r.pos && coin.ser_len <= MULRED_UTXO_MAX_TXOUTSER);
            r.pos += used;
            ordinal++, left--;
            if (v && v->coin && (rc = v->coin(v->ctx, &coin, err))) return rc;
        }
    }
    *end = r.buf_off + r.pos;
    MULRED_VERIFY(left == 0 && *end <= limit);
    return MULRED_OK;
}

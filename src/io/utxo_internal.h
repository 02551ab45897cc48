/* Internals of the snapshot reader shared by src/io/utxo_*.c: the bounded pread reader, the coin
 * decoder and the range decoder every path (index scan, chunk, stats, txoutset hash) uses. */
#ifndef MULRED_IO_UTXO_INTERNAL_H
#define MULRED_IO_UTXO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/utxo.h"

/* Bitcoin Core's MAX_SIZE for CompactSize values read with range checking. */
#define UTXO_MAX_COMPACT_SIZE 0x02000000u
/* Core's MAX_MONEY: 21e6 BTC in satoshis. */
#define UTXO_MAX_MONEY 2100000000000000LL
/* The most bytes one coin can take in either format (legacy: 32 + 4 + 5 + 10 + 5 + 10000;
 * v2 has a 9-byte CompactSize vout instead of txid+u32). The reader makes this much available
 * before each coin, so the decoder works on one contiguous span. */
#define UTXO_COIN_MAX_BYTES 16384u
/* Reader buffer: large enough to amortize pread calls, small enough for one per thread. */
#define UTXO_READ_BUFFER (256u * 1024u)

/* A decoded coin: its TxOutSer (the MuHash element) and the parts statistics need. */
typedef struct {
    uint8_t ser[MULRED_UTXO_MAX_TXOUTSER];
    size_t ser_len;
    uint32_t vout, code; /* code = height·2 + coinbase */
    int64_t value;
    unsigned script_type;          /* compression type 0-5, or 6 for a raw script */
    size_t script_off, script_len; /* the script inside ser */
    uint64_t offset;               /* file offset of the coin's first byte */
} utxo_coin;

/* Buffered pread over [.., limit) of one file. Never reads at or beyond limit. */
typedef struct {
    int fd;
    const char *path;
    uint8_t *buf;
    size_t cap;
    uint64_t buf_off; /* file offset of buf[0] */
    size_t len, pos;  /* valid bytes in buf; cursor */
    uint64_t limit;
    uint64_t file_size;
} utxo_reader;

/* Callbacks of the range decoder. group: at the start of every txid group (legacy: every coin);
 * coin: for every coin. Either may be NULL. A nonzero return stops decoding with that status
 * (err set by the callback). */
typedef struct {
    int (*group)(void *ctx, uint64_t offset, uint64_t ordinal, mulred_error *err);
    int (*coin)(void *ctx, const utxo_coin *coin, mulred_error *err);
    void *ctx;
} utxo_visitor;

/* Parses a header from its first bytes (at least min(file_size, 51) bytes of the file). */
mulred_status utxo_parse_header(mulred_utxo_header *h, const uint8_t *buf, size_t len,
                                uint64_t file_size, const char *path, mulred_error *err);
/* Opens path read-only, reads and parses the header; *fd stays open on success. Errors as
 * mulred_utxo_read_header. */
mulred_status utxo_open(int *fd, mulred_utxo_header *h, const char *path, mulred_error *err);

/* A range of coins to decode: exactly ncoins coins of the snapshot open as fd (its header h,
 * its name path) from the group boundary begin, reading nothing at or past limit (the file
 * size for a whole-file scan, the next chunk's offset for a chunk); ordinal is the first coin's
 * ordinal (for the group callback). */
typedef struct {
    int fd;
    const mulred_utxo_header *h;
    const char *path;
    uint64_t begin, limit;
    uint64_t ordinal, ncoins;
} utxo_range;

/* Decodes the coins of range r; *end gets the offset just past the last coin. Errors:
 * truncation (at the file end, or a group crossing a chunk limit), a group with more coins
 * than remain, and every coin-level check. buf has UTXO_READ_BUFFER bytes (caller scratch, so
 * threads reuse it). The caller checks *end against the expected end. */
mulred_status utxo_decode_range(uint64_t *end, const utxo_range *r, const utxo_visitor *v,
                                uint8_t *buf, mulred_error *err);

/* Coin-level decoding of one coin of range r from [p, e): a legacy record (txid and vout read
 * here) or, in a v2 snapshot, a coin of the group of txid (vout read here). Returns bytes
 * consumed, or 0 with err set; offsets in messages are base + (position − p), and a
 * truncation is the end of the file when r ends there. */
size_t utxo_decode_coin(utxo_coin *c, const uint8_t *p, const uint8_t *e, const uint8_t txid[32],
                        uint64_t base, const utxo_range *r, mulred_error *err);

/* Primitives (exposed for tests). Return 0 on success, else a reason string is written by the
 * caller; all read from [*p, e) and advance *p. */
typedef enum {
    UTXO_OK = 0,
    UTXO_TRUNCATED,
    UTXO_NONCANONICAL,
    UTXO_TOO_LARGE,
} utxo_prim_status;
utxo_prim_status utxo_read_compact_size(uint64_t *v, const uint8_t **p, const uint8_t *e);
/* Bitcoin VARINT of an unsigned integer of `bits` bits (32 or 64), with Core's overflow checks. */
utxo_prim_status utxo_read_varint(uint64_t *v, const uint8_t **p, const uint8_t *e, int bits);
/* Writers (synthetic snapshots, tests). Return bytes written (out has >= 10 bytes). */
size_t utxo_write_varint(uint8_t *out, uint64_t v);
size_t utxo_write_compact_size(uint8_t *out, uint64_t v);
uint64_t utxo_compress_amount(uint64_t n);
uint64_t utxo_decompress_amount(uint64_t x);
/* Core's script compression sizes for types 0-5. */
size_t utxo_special_script_size(unsigned type);
/* Decompresses a type 4/5 key (x given) into the 65-byte uncompressed encoding; false when x is
 * not on the curve. Thread-safe (one shared secp256k1 context). */
bool utxo_decompress_pubkey(uint8_t out[65], unsigned type, const uint8_t x[32]);
/* True when 0x02 ‖ x is a valid compressed key. */
bool utxo_x_on_curve(const uint8_t x[32]);
mulred_utxo_script_class utxo_classify(const utxo_coin *c);

/* The "FILE: byte OFFSET: reason" error. */
mulred_status utxo_fail(mulred_error *err, const char *path, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif

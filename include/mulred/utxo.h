/* Bitcoin Core UTXO snapshots (`dumptxoutset` files): header, streaming decoder, the sidecar
 * index that lets ranks and threads read a snapshot in parallel, the MuHash source (the input of
 * `gettxoutsetinfo muhash`), the sequential txoutset hash (hash_serialized_3), statistics and a
 * writer of synthetic snapshots.
 *
 * Formats (Bitcoin Core src/node/utxo_snapshot.h, src/kernel/coinstats.cpp, src/compressor.h):
 *   v2 (Core >= 28): 51-byte header: "utxo\xff" ‖ u16 LE version 2 ‖ 4-byte network magic ‖
 *     32-byte base block hash ‖ u64 LE coin count; body: groups txid(32) ‖ CompactSize(n) ‖
 *     n × [CompactSize(vout) ‖ Coin].
 *   legacy (Core <= 27): 40-byte header: base block hash ‖ u64 LE coin count; body: coins
 *     txid(32) ‖ u32 LE vout ‖ Coin. There is no magic: a file without the v2 magic is read as
 *     legacy only when its block hash looks like a proof-of-work hash (top byte < 0x80, true on
 *     every network including regtest) and the coin count fits in the file; otherwise the error
 *     is "bad magic".
 *   Coin = VARINT(height·2 + coinbase) ‖ VARINT(CompressAmount(value)) ‖ compressed script.
 * Each coin becomes the MuHash element TxOutSer = txid ‖ u32 vout ‖ u32 (height·2 + coinbase) ‖
 * i64 value ‖ CompactSize(script length) ‖ script (bitcoin flavor).
 *
 * Snapshots are untrusted files: every length is checked before use; bad data returns
 * MULRED_EINPUT with "FILE: byte OFFSET: reason" and no result. Checks: magic, version,
 * network magic, truncation, canonical CompactSize (<= 0x02000000, as Core), VARINT overflow (of
 * the field's width), script size <= 10,000, type 4/5 keys on the curve, vout < 2^32 − 1,
 * amounts in [0, 21e14] (Core's MoneyRange), the header's coin count equal to the body's, no
 * trailing bytes. Stricter than Core: a txid group with zero coins is rejected (Core never
 * writes one).
 *
 * Threading: every function here may be called from several threads on different objects; a
 * source's produce callback is called concurrently for different chunks (that is its purpose).
 * Everything is variable-time: snapshots are public data. */
#ifndef MULRED_UTXO_H
#define MULRED_UTXO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/muhash.h"
#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MULRED_UTXO_V2_HEADER_BYTES     51
#define MULRED_UTXO_LEGACY_HEADER_BYTES 40
/* Largest TxOutSer: 48 fixed bytes + CompactSize(10000) (3) + 10000 script bytes. */
#define MULRED_UTXO_MAX_SCRIPT   10000
#define MULRED_UTXO_MAX_TXOUTSER (48 + 3 + MULRED_UTXO_MAX_SCRIPT)
/* Default target size of an index chunk (the unit of work of a thread). */
#define MULRED_UTXO_DEFAULT_CHUNK_BYTES (128u * 1024u)

/* The header of a snapshot. */
typedef struct {
    int format_version;          /* 2, or 0 for legacy (<= Core 27) */
    char network[16];            /* "main","test","testnet4","signet","regtest"; "" for legacy */
    uint8_t network_magic[4];    /* zeros for legacy */
    uint8_t base_block_hash[32]; /* internal order; display reversed */
    uint64_t coins;              /* coin count from the header */
    uint64_t file_size;
    uint64_t body_offset; /* 51 (v2) or 40 (legacy) */
} mulred_utxo_header;

/* Reads and checks the header (magic, version, network magic, size) of the snapshot at path.
 * Does not read the body. MULRED_EINPUT on a bad header or when path is not a readable regular
 * file (missing, permission denied, a directory, FIFO or device: never waits on a FIFO);
 * MULRED_ERUNTIME on a read error or when descriptors or memory run out. */
MULRED_API mulred_status mulred_utxo_read_header(mulred_utxo_header *h, const char *path,
                                                 mulred_error *err);
/* The block hash in display order (64 hex chars + NUL). */
MULRED_API void mulred_utxo_block_hash_hex(char hex[65], const mulred_utxo_header *h);

/* ---- sidecar index ----
 * FILE.idx records (byte offset, coin ordinal) of the txid group that starts each chunk: a new
 * chunk starts at the first group boundary at least chunk_bytes after the previous chunk's start
 * (legacy files: at any coin, each coin is its own group). It is built by one sequential scan
 * that validates the whole file, so an index exists only for a valid file. It also holds the
 * file size, mtime, SHA-256 of the header bytes and of the last 64 KiB (staleness) and a
 * SHA-256 of itself (corruption). A stale or corrupt index is ignored and rebuilt.
 *
 * Where it lives: opt->index_path if set, else $MULRED_UTXO_INDEX_DIR/BASENAME.idx if that
 * variable is set (for read-only snapshot directories), else FILE.idx. When it cannot be
 * written the index is kept in memory (every process then scans the file once). */
typedef struct {
    const char *index_path; /* NULL: the default location above */
    uint32_t chunk_bytes;   /* 0: MULRED_UTXO_DEFAULT_CHUNK_BYTES; an existing index with a
                               different explicit chunk size is rebuilt */
    bool no_save;           /* build in memory only, never write the index */
    /* Progress of a long run, called on the calling thread: done of total bytes scanned by an
     * index build, coins written by mulred_utxo_synth_opt. NULL: none. */
    void (*progress)(void *data, uint64_t done, uint64_t total);
    void *progress_data;
} mulred_utxo_options;

/* The default index location of a snapshot (see above) into out (cap bytes). Returns MULRED_OK,
 * MULRED_EINPUT when it does not fit, or MULRED_ERUNTIME when out of memory. */
MULRED_API mulred_status mulred_utxo_index_path(char *out, size_t cap, const char *path);

/* Makes sure a valid, fresh index exists at the index location: loads it, or scans the file
 * (validating it) and writes the index. A failure to write (read-only directory) is not an
 * error: *written (when non-NULL) tells whether a usable index is on disk afterwards. Bad input
 * → MULRED_EINPUT. The lead's `mulred muhash --snapshot` calls this on rank 0 before a barrier. */
MULRED_API mulred_status mulred_utxo_index_ensure(const char *path, const mulred_utxo_options *opt,
                                                  bool *written, mulred_error *err);

/* Summary of an index (for `mulred utxo index` and tests). */
typedef struct {
    uint64_t chunks; /* number of chunks */
    uint64_t groups; /* txid groups (legacy: coins) */
    uint64_t coins;
    uint64_t body_end; /* offset just past the last coin (= file size for a valid file) */
    uint32_t chunk_bytes;
    bool loaded;     /* true: read from disk; false: built by a scan now */
    bool saved;      /* true: written to disk now */
    char path[4096]; /* where it lives (or would) */
} mulred_utxo_index_info;
/* Like mulred_utxo_index_ensure, and reports what it found or built. force: rebuild even when
 * a fresh index exists. */
MULRED_API mulred_status mulred_utxo_index_build(mulred_utxo_index_info *info, const char *path,
                                                 const mulred_utxo_options *opt, bool force,
                                                 mulred_error *err);

/* ---- parallel MuHash source ----
 * The work units of a snapshot are its index chunks; their coin counts differ, so a rank plans
 * its share by coins (mulred_plan_weighted over mulred_utxo_source_units). Each selected chunk
 * is read with pread and decoded; every coin's TxOutSer goes to mulred_muhash_sink_add(sink,
 * bytes, len, false). The chunk's decoder checks that it decodes exactly the coins the index
 * says (ordinals) and ends on the next chunk's first byte; the chunk that is last in the file
 * checks that the coins end at the end of the file. So the whole-file checks hold however the
 * chunks are shared out. opt may be NULL (defaults). */
typedef struct mulred_utxo_source mulred_utxo_source;
MULRED_API mulred_status mulred_utxo_source_open(mulred_utxo_source **out, const char *path,
                                                 const mulred_utxo_options *opt, mulred_error *err);
/* The number of units (index chunks) and, in *coins_before, the running coin counts: unit u
 * holds coins [coins_before[u], coins_before[u+1]); coins_before[0] = 0 and
 * coins_before[units] = the coin count. The array lives as long as s. */
MULRED_API uint64_t mulred_utxo_source_units(const mulred_utxo_source *s,
                                             const uint64_t **coins_before);
/* Selects the units [first, end) (first <= end <= units; all of them after open). */
MULRED_API void mulred_utxo_source_select(mulred_utxo_source *s, uint64_t first, uint64_t end);
/* The selected units as a source whose chunk i is unit first + i; lives as long as s. */
MULRED_API const mulred_muhash_source *mulred_utxo_source_muhash(mulred_utxo_source *s);
MULRED_API const mulred_utxo_header *mulred_utxo_source_header(const mulred_utxo_source *s);
/* Coins of the selected units, and their range [first, end) among the index's chunks. */
MULRED_API uint64_t mulred_utxo_source_coins(const mulred_utxo_source *s);
MULRED_API void mulred_utxo_source_range(const mulred_utxo_source *s, uint64_t *first_chunk,
                                         uint64_t *end_chunk, uint64_t *total_chunks);
MULRED_API void mulred_utxo_source_close(mulred_utxo_source *s);

/* ---- sequential results ---- */
/* hash_serialized_3 (`dumptxoutset`'s txoutset_hash): double SHA-256 over every coin's TxOutSer,
 * txid groups in file order, each group's coins sorted by numeric vout (the file holds them in
 * database key order). Sequential by nature. out is in hash output order (display reversed).
 * Validates the whole file. */
MULRED_API mulred_status mulred_utxo_txoutset_hash(uint8_t out[32], const char *path,
                                                   mulred_error *err);

/* Script classes for statistics. */
typedef enum {
    MULRED_UTXO_P2PKH,       /* compressed type 0 */
    MULRED_UTXO_P2SH,        /* type 1 */
    MULRED_UTXO_P2PK_COMP,   /* types 2, 3 */
    MULRED_UTXO_P2PK_UNCOMP, /* types 4, 5 */
    MULRED_UTXO_P2WPKH,      /* raw scripts from here on */
    MULRED_UTXO_P2WSH,
    MULRED_UTXO_P2TR,
    MULRED_UTXO_P2A,
    MULRED_UTXO_WITNESS_OTHER,
    MULRED_UTXO_MULTISIG,
    MULRED_UTXO_OP_RETURN,
    MULRED_UTXO_EMPTY,
    MULRED_UTXO_OTHER,
    MULRED_UTXO_NCLASSES
} mulred_utxo_script_class;
MULRED_API const char *mulred_utxo_script_class_name(mulred_utxo_script_class c);

typedef struct {
    mulred_utxo_header header;
    uint64_t coins, groups, coinbase;
    uint64_t class_count[MULRED_UTXO_NCLASSES];
    uint64_t class_script_bytes[MULRED_UTXO_NCLASSES]; /* decompressed script bytes */
    uint64_t total_amount;                             /* satoshis */
    uint64_t max_height, max_vout, max_group, max_script;
    uint64_t body_bytes;     /* file bytes after the header */
    uint64_t txoutser_bytes; /* sum of TxOutSer lengths (what MuHash hashes) */
    double seconds;          /* time of the scan */
} mulred_utxo_stats;
/* One sequential validating scan (decode only, no hashing). */
MULRED_API mulred_status mulred_utxo_stats_scan(mulred_utxo_stats *st, const char *path,
                                                mulred_error *err);

/* ---- synthetic snapshots ----
 * Writes a v2 (or legacy) snapshot of n coins derived from seed: every script class (types 0-5
 * with valid curve points, P2WPKH, P2WSH, P2TR, P2A, bare multisig, empty, large scripts up to
 * 10,000 bytes), txid groups of 1 to 701 coins (some with vouts above 16,511 so that database key
 * order differs from numeric order), heights above 127. Deterministic for (n, seed, legacy). */
MULRED_API mulred_status mulred_utxo_synth(const char *path, uint64_t n, uint64_t seed, bool legacy,
                                           mulred_error *err);
/* The same with options (NULL: the defaults); of them it uses the progress callback. The file
 * appears under path only when complete (written under a temporary name beside it and renamed);
 * a file system without room for mulred_utxo_synth_bytes(n, legacy) is refused before anything
 * is written (MULRED_ERUNTIME, the message giving both sizes). */
MULRED_API mulred_status mulred_utxo_synth_opt(const char *path, uint64_t n, uint64_t seed,
                                               bool legacy, const mulred_utxo_options *opt,
                                               mulred_error *err);
/* An upper bound of the size of that file in bytes: the mean size of n coins plus 8 standard
 * deviations (the coins' sizes are drawn, so the exact size is known only once written), and
 * never above n coins of the largest size. */
MULRED_API uint64_t mulred_utxo_synth_bytes(uint64_t n, bool legacy);

#ifdef __cplusplus
}
#endif
#endif

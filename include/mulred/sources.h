/* Element sources for the MuHash reduction: hex element files (one element per line) and
 * synthetic UTXO sets generated from (seed, index). Each is cut into work units that do not
 * depend on the number of ranks (see mulred/plan.h); a rank selects its run of units and gets
 * it as a mulred_muhash_source whose chunks (one per unit) its threads take. */
#ifndef MULRED_SOURCES_H
#define MULRED_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "mulred/muhash.h"
#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- element files ----
 * One element per line as hex (upper or lower case); blank lines and lines starting with '#'
 * are ignored; leading/trailing spaces, tabs and a CR before the newline are ignored; the last
 * line needs no newline. A line holds at most 2·MULRED_MUHASH_MAX_ELEMENT + 256 characters
 * before its newline (a longer one is an error wherever it sits). The units are fixed byte
 * ranges of chunk_bytes (0: 256 KiB; tests use small ones to put boundaries inside lines); a
 * line belongs to the unit holding its first byte, so ranks and threads read only their ranges
 * and need no line-boundary planning. Errors read "FILE:LINE: reason" (MULRED_EINPUT); a
 * missing file or a directory is MULRED_EINPUT too, out of memory MULRED_ERUNTIME.
 *
 * A regular file is only opened here (its units are read later with pread, by whichever rank
 * selects them). A stream ("-" for standard input, a pipe such as <(zcat list.gz), a character
 * device, a named FIFO — which must have its writer attached when it is opened: one without is
 * an error, never a wait) can be read only once. With read_stream true it is opened here and
 * read while its source is reduced, in blocks of 1 MiB of whole lines that the threads take
 * in turn (memory: a block per thread, whatever the stream's length; mulred_source_file_bytes
 * then counts the bytes read so far); its units are not parts of the stream, and all of them
 * must be selected and reduced in one mulred_muhash_reduce. With read_stream false it is not
 * read at all (0 units): exactly one rank should read a stream and reduce all its units. */
typedef struct mulred_source_file mulred_source_file;
MULRED_API mulred_status mulred_source_file_open(mulred_source_file **out, const char *path,
                                                 bool remove, size_t chunk_bytes, bool read_stream,
                                                 mulred_error *err);
/* True when the file is a stream (read once, at open). */
MULRED_API bool mulred_source_file_is_stream(const mulred_source_file *f);
/* Its number of units: ⌈bytes / chunk_bytes⌉. */
MULRED_API uint64_t mulred_source_file_units(const mulred_source_file *f);
/* Selects the units [first, end) (first <= end <= units; all of them after open) and returns
 * them as a source whose chunk i is unit first + i. The source lives as long as f. */
MULRED_API const mulred_muhash_source *mulred_source_file_select(mulred_source_file *f,
                                                                 uint64_t first, uint64_t end);
/* Bytes of the file in the selected units. */
MULRED_API uint64_t mulred_source_file_bytes(const mulred_source_file *f);
MULRED_API void mulred_source_file_close(mulred_source_file *f);

/* ---- streams in blocks of whole lines ----
 * A line reader reads a stream (as mulred_source_file_open does: "-", a pipe, a FIFO with its
 * writer attached) in blocks of at most MULRED_SOURCE_LINE_BLOCK bytes that end at a newline (or at
 * the stream's end, or hold MULRED_SOURCE_LINE_BLOCK bytes of a line too long), with the 1-based
 * number of each block's first line. Memory: two blocks. Not thread-safe: one caller at a time. */
#define MULRED_SOURCE_LINE_BLOCK (1 << 20)
typedef struct mulred_source_lines mulred_source_lines;
MULRED_API mulred_status mulred_source_lines_open(mulred_source_lines **out, const char *path,
                                                  mulred_error *err);
/* The next block into buf (MULRED_SOURCE_LINE_BLOCK bytes): *len bytes (0: the stream ended) whose
 * first line is *first_line. A read error is MULRED_EINPUT "PATH: read error at byte N: ...". */
MULRED_API mulred_status mulred_source_lines_next(mulred_source_lines *r, char *buf, size_t *len,
                                                  uint64_t *first_line, mulred_error *err);
/* Bytes read from the stream so far. */
MULRED_API uint64_t mulred_source_lines_bytes(const mulred_source_lines *r);
MULRED_API void mulred_source_lines_close(mulred_source_lines *r);

/* A source of blocks of whole lines, as mulred_source_lines_next gives them (buf holds
 * MULRED_SOURCE_LINE_BLOCK bytes; *len 0: no more blocks; an error ends the stream with err's
 * message, reported whole). Called by one thread at a time, any of the reducing team's. */
typedef mulred_status (*mulred_source_block_fn)(void *ctx, char *buf, size_t *len,
                                                uint64_t *first_line, mulred_error *err);
/* Makes f, a stream opened with read_stream false, read its blocks from next(ctx) instead:
 * its units (as for a read stream) must then all be selected and reduced in one
 * mulred_muhash_reduce, and its errors name f's path and the line that next numbered.
 * mulred_source_file_bytes counts the bytes of the blocks taken. */
MULRED_API mulred_status mulred_source_file_stream_from(mulred_source_file *f,
                                                        mulred_source_block_fn next, void *ctx,
                                                        mulred_error *err);

/* ---- synthetic UTXO sets ----
 * Element i of a set is a pure function of (seed, i): txid, vout, height, coinbase flag, amount
 * and a script drawn from a realistic mix (P2WPKH 22 B, P2PKH 25 B, P2TR 34 B, P2SH 23 B,
 * P2WSH 34 B, occasional large scripts), serialized as Bitcoin's TxOutSer or as Kaspa's UTXO
 * element (txid ‖ index u32 ‖ DAA score u64 ‖ amount u64 ‖ coinbase u8 ‖ script version u16 ‖
 * script length u64 ‖ script). */
#define MULRED_SOURCE_SYNTH_MAX_ELEMENT 1728 /* 63 fixed bytes (kaspa) + a 1650-byte script */
MULRED_API size_t mulred_source_synth_element(uint8_t out[MULRED_SOURCE_SYNTH_MAX_ELEMENT],
                                              mulred_muhash_flavor flavor, uint64_t seed,
                                              uint64_t index);
/* The elements [first, first + count) as a source with chunks of MULRED_SOURCE_SYNTH_CHUNK elements
 * counted from first. The source keeps a pointer to set. */
typedef struct {
    mulred_muhash_flavor flavor;
    uint64_t seed, first, count;
    bool remove;
} mulred_source_synth_set;
MULRED_API void mulred_source_synth_source(mulred_muhash_source *out, mulred_source_synth_set *set);
/* The units of a synthetic set of n elements are blocks of MULRED_SOURCE_SYNTH_CHUNK elements (the
 * scheduling cost of a chunk is negligible against the work of 1024 elements, docs/kernels.md
 * has both; the last chunk a thread takes bounds the imbalance at the end); the last may be
 * shorter. */
#define MULRED_SOURCE_SYNTH_CHUNK 1024
MULRED_API uint64_t mulred_source_synth_units(uint64_t n);
/* Sets set->first and set->count to the elements of units [first, end) of a set of n elements
 * (first <= end <= mulred_source_synth_units(n)), so that its chunks are those units. */
MULRED_API void mulred_source_synth_select(mulred_source_synth_set *set, uint64_t n, uint64_t first,
                                           uint64_t end);

/* The 0.2 names, kept for one release (CHANGELOG.md). */
#define mulred_element_file             mulred_source_file
#define mulred_element_file_open        mulred_source_file_open
#define mulred_element_file_is_stream   mulred_source_file_is_stream
#define mulred_element_file_units       mulred_source_file_units
#define mulred_element_file_select      mulred_source_file_select
#define mulred_element_file_bytes       mulred_source_file_bytes
#define mulred_element_file_close       mulred_source_file_close
#define mulred_element_file_stream_from mulred_source_file_stream_from
#define MULRED_LINE_BLOCK               MULRED_SOURCE_LINE_BLOCK
#define mulred_line_reader              mulred_source_lines
#define mulred_line_reader_open         mulred_source_lines_open
#define mulred_line_reader_next         mulred_source_lines_next
#define mulred_line_reader_bytes        mulred_source_lines_bytes
#define mulred_line_reader_close        mulred_source_lines_close
#define mulred_line_block_fn            mulred_source_block_fn
#define MULRED_SYNTH_MAX_ELEMENT        MULRED_SOURCE_SYNTH_MAX_ELEMENT
#define mulred_synth_element            mulred_source_synth_element
#define mulred_synth_set                mulred_source_synth_set
#define mulred_synth_source             mulred_source_synth_source
#define MULRED_SYNTH_CHUNK              MULRED_SOURCE_SYNTH_CHUNK
#define mulred_synth_units              mulred_source_synth_units
#define mulred_synth_select             mulred_source_synth_select

#ifdef __cplusplus
}
#endif
#endif

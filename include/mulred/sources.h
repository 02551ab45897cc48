/* Element sources for the MuHash reduction: hex element files (one element per line) and
 * synthetic UTXO sets generated from (seed, index). Each is split for `nranks` ranks; rank
 * `rank` gets its share as a mulred_muhash_source whose chunks its threads take. */
#ifndef MULRED_SOURCES_H
#define MULRED_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "mulred/muhash.h"
#include "mulred/mulred.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- element files ----
 * One element per line as hex (upper or lower case); blank lines and lines starting with '#'
 * are ignored; leading/trailing spaces, tabs and a CR before the newline are ignored; the last
 * line needs no newline. A line holds at most 2·MULRED_MUHASH_MAX_ELEMENT + 256 characters
 * before its newline (a longer one is an error wherever it sits). "-" is standard input; it and
 * other streams (pipes, a named FIFO, which must have its writer attached when it is opened:
 * one without is an error, never a wait) are read whole by rank 0. A regular file is cut into
 * fixed byte ranges; a line belongs to the range holding its first byte, so ranks and threads
 * read only their ranges and need no line-boundary planning. Errors read "FILE:LINE: reason". */
typedef struct mulred_element_file mulred_element_file;
int mulred_element_file_open(mulred_element_file **out, const char *path, bool remove, int rank,
                             int nranks, mulred_error *err);
/* Chunk size in bytes (tests use small ones to put boundaries inside lines); 0 = default. */
int mulred_element_file_open_chunked(mulred_element_file **out, const char *path, bool remove,
                                     int rank, int nranks, size_t chunk_bytes, mulred_error *err);
const mulred_muhash_source *mulred_element_file_source(mulred_element_file *f);
/* Bytes of the file this rank reads. */
uint64_t mulred_element_file_bytes(const mulred_element_file *f);
void mulred_element_file_close(mulred_element_file *f);

/* ---- synthetic UTXO sets ----
 * Element i of a set is a pure function of (seed, i): txid, vout, height, coinbase flag, amount
 * and a script drawn from a realistic mix (P2WPKH 22 B, P2PKH 25 B, P2TR 34 B, P2SH 23 B,
 * P2WSH 34 B, occasional large scripts), serialized as Bitcoin's TxOutSer or as Kaspa's UTXO
 * element (txid ‖ index u32 ‖ DAA score u64 ‖ amount u64 ‖ coinbase u8 ‖ script version u16 ‖
 * script length u64 ‖ script). */
#define MULRED_SYNTH_MAX_ELEMENT 1728 /* 63 fixed bytes (kaspa) + a 1650-byte script */
size_t mulred_synth_element(uint8_t out[MULRED_SYNTH_MAX_ELEMENT], mulred_muhash_flavor flavor,
                            uint64_t seed, uint64_t index);
/* The elements [first, first + count) as a source (chunks of 1024 elements). */
typedef struct {
    mulred_muhash_flavor flavor;
    uint64_t seed, first, count;
    bool remove;
} mulred_synth_set;
void mulred_synth_source(mulred_muhash_source *out, mulred_synth_set *set);
/* The share of rank `rank` among `nranks` of n items: [*first, *first + *count). */
void mulred_split_range(uint64_t *first, uint64_t *count, uint64_t n, int rank, int nranks);

#ifdef __cplusplus
}
#endif
#endif

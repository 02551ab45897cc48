/* EIP-4844 KZG commitments on BLS12-381 G1: commitment = Σ blob[i]·L[bitreverse₁₂(i)] over the
 * 4096 Lagrange points L of the trusted setup (c-kzg-4844's blob_to_kzg_commitment).
 *
 * The setup is fixed, so its points are precomputed once into a fixed-base table (every window
 * multiple 2^(c·w)·L[j], include/mulred/msm.h) and cached in a file: a commitment is then one
 * bucket accumulation and one reduction (no doublings, no per-window reductions). The loaded
 * setup is a base set (mulred/bases.h) holding that table: mulred_kzg_setup_bases.
 *
 * Files (untrusted: every check fails with MULRED_EINPUT and a message naming the file and the
 * line or byte offset):
 *   setup  c-kzg-4844's trusted_setup.txt: a line "4096", a line "65", 4096 lines of 48-byte
 *          compressed G1 Lagrange points in hex (natural order), 65 lines of 96-byte G2 points,
 *          4096 lines of monomial G1 points. The Lagrange points are decoded and checked (flags,
 *          range, on the curve, in G1); the other sections are checked for shape (hex of the
 *          right length) but not decoded (commitments do not use them).
 *   blob   131072 bytes as hex (2 hex digits per byte, either case), an optional 0x, blanks and
 *          newlines around (not inside); 4096 big-endian 32-byte field elements, each < r.
 *   cache  mulred's own table file: a header (magic, version, window width, counts, the SHA-256
 *          of the setup file), the table, and a SHA-256 of all that. It is used only when every
 *          header field matches the setup and the plan in use, the digest matches, every
 *          coordinate is below p, and 64 entries picked by the digest are on the curve and
 *          2^c times the entry of the row below. Anything else (truncation, a flipped bit,
 *          another setup, another window width) is noted in the load info and the table is
 *          rebuilt and rewritten.
 *          The checks are for corruption and staleness; the file is as trusted as its directory.
 *
 * Threading: a loaded setup is read-only; commitments may be computed from several threads at
 * once. Everything is variable time (commitments are public). */
#ifndef MULRED_KZG_H
#define MULRED_KZG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/bases.h"
#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MULRED_KZG_FIELD_ELEMENTS   4096
#define MULRED_KZG_BLOB_BYTES       (32 * MULRED_KZG_FIELD_ELEMENTS)
#define MULRED_KZG_COMMITMENT_BYTES 48
/* Bounds on the text files: a longer file is refused (MULRED_EINPUT) as soon as the bound is
 * passed, not read whole. A blob is 262144 hex digits (0x and whitespace allowed); the
 * mainnet setup is about 0.8 MB. */
#define MULRED_KZG_BLOB_MAX_BYTES  ((size_t)4 << 20)
#define MULRED_KZG_SETUP_MAX_BYTES ((size_t)64 << 20)

typedef struct mulred_kzg_setup mulred_kzg_setup;

/* What the cache did. */
typedef enum {
    MULRED_KZG_CACHE_LOADED = 0,  /* a valid cache was used */
    MULRED_KZG_CACHE_WRITTEN = 1, /* none or an invalid one: built and written */
    MULRED_KZG_CACHE_MEMORY = 2,  /* built; not written (no cache asked, or the write failed) */
} mulred_kzg_cache_state;

typedef struct {
    mulred_kzg_cache_state cache;
    char cache_path[4096];
    char note[256];       /* why a cache was not used or not written ("" when loaded) */
    unsigned window_bits; /* of the table */
    /* seconds: reading and hashing the setup, decoding its points, building the table,
     * reading and checking (or writing) the cache */
    double read_s, decode_s, build_s, cache_s;
} mulred_kzg_load_info;

/* Loads a setup and its table. cache_path: NULL = the user's cache directory
 * ($XDG_CACHE_HOME/mulred when XDG_CACHE_HOME is absolute, else $HOME/.cache/mulred; created
 * with mode 0700), file kzg-DIGEST.table with DIGEST the first 16 bytes of the setup's SHA-256
 * in hex; "" = no cache file (the table is built in memory every time). info may be NULL.
 * Returns MULRED_OK, MULRED_EINPUT (a bad setup file: "FILE:LINE: reason") or MULRED_ERUNTIME
 * (cannot read the setup, out of memory). A cache that cannot be written (or a cache directory
 * that cannot be made) is not an error: info says so (cache MEMORY, note). */
MULRED_API mulred_status mulred_kzg_setup_load(mulred_kzg_setup **out, const char *setup_path,
                                               const char *cache_path, mulred_kzg_load_info *info,
                                               mulred_error *err);
/* The same from the setup's text in memory (text[0..len), the file's bytes; not kept): the
 * same parser, checks, cache and errors, messages naming "setup" instead of a file
 * ("setup:LINE: reason"). len above MULRED_KZG_SETUP_MAX_BYTES is MULRED_EINPUT. */
MULRED_API mulred_status mulred_kzg_setup_load_bytes(mulred_kzg_setup **out, const uint8_t *text,
                                                     size_t len, const char *cache_path,
                                                     mulred_kzg_load_info *info, mulred_error *err);
MULRED_API void mulred_kzg_setup_free(mulred_kzg_setup *s);

/* Parses a blob from text (len bytes; see "blob" above) and checks that every element is below
 * r. name labels messages. MULRED_EINPUT with "NAME: byte OFFSET: reason" (OFFSET in text: the
 * bad character, or where the 64 hex digits of an element >= r start) or "NAME: N bytes of hex,
 * a blob is 131072". */
MULRED_API mulred_status mulred_kzg_blob_parse(uint8_t blob[MULRED_KZG_BLOB_BYTES],
                                               const char *text, size_t len, const char *name,
                                               mulred_error *err);
/* Reads and parses a blob file ("-" = standard input). */
MULRED_API mulred_status mulred_kzg_blob_read(uint8_t blob[MULRED_KZG_BLOB_BYTES], const char *path,
                                              mulred_error *err);

/* out = the 48-byte compressed commitment to blob. MULRED_EINPUT when an element is not below
 * r: "field element I (byte offset 32·I) is not below the BLS12-381 group order". One thread,
 * no allocation beyond one scratch buffer (ERUNTIME if that fails). */
MULRED_API mulred_status mulred_kzg_blob_to_commitment(uint8_t out[MULRED_KZG_COMMITMENT_BYTES],
                                                       const mulred_kzg_setup *s,
                                                       const uint8_t blob[MULRED_KZG_BLOB_BYTES],
                                                       mulred_error *err);

/* out[j] = the commitment to blobs[j] for j < k (k blobs of MULRED_KZG_BLOB_BYTES, out k·48
 * bytes), with threads across the blobs (0 = mulred_threads_resolve(0)): each out[j] is exactly
 * what mulred_kzg_blob_to_commitment gives. MULRED_EINPUT "blob J: field element I (byte offset
 * 32·I) is not below the BLS12-381 group order" for the lowest such blob J (out unspecified);
 * MULRED_ERUNTIME (out of memory). */
MULRED_API mulred_status mulred_kzg_blobs_to_commitments(uint8_t *out, const mulred_kzg_setup *s,
                                                         const uint8_t *blobs, size_t k,
                                                         int threads, mulred_error *err);

/* The setup's Lagrange points (in bit-reversed order, as the commitment pairs them with a blob's
 * elements) as a base set with the setup's fixed-base table: MSMs of any scalars over them
 * (mulred/bases.h). Owned by the setup: valid until mulred_kzg_setup_free, never freed by the
 * caller. */
MULRED_API const mulred_bases *mulred_kzg_setup_bases(const mulred_kzg_setup *s);

#ifdef __cplusplus
}
#endif
#endif

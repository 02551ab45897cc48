/* Base sets from files, and the trusted cache (io layer, src/io/bases_io.c). The object and its
 * MSMs are in mulred/bases.h.
 *
 * Point and scalar files: raw bytes (binary = true) or hex text, as the pair files
 * (mulred/msm_io.h): hex digits of either case, ASCII whitespace anywhere ignored, a "0x" at the
 * start of a token ignored, any other byte bad input. A points file holds count encoded points
 * (mulred_point_encoding_bytes each); a scalars file holds 32-byte records (big-endian unless
 * the caller says little-endian), one per point.
 *
 * The cache file (mulred_bases_save / mulred_bases_load): a prepared set as the engine holds
 * it, so that loading it validates nothing again:
 *   header  64 bytes: magic "MULREDBS", format version (u32), a byte-order mark (u32
 *           0x01020304 as written by the host), the curve (mulred_curve, u32), bytes of a point
 *           (u32), the count (u64), the table: rows (u32, 0 = none), window width, GLV (0/1) and
 *           batch of its plan (u32 each), then zeros;
 *   points  count affine points (Montgomery limbs, host order);
 *   table   rows · count affine points (point-major), when rows > 0;
 *   digest  SHA-256 of everything before it.
 * Integers are in host byte order: a file is for machines of one kind (as MPI's raw elements
 * are); the byte-order mark refuses another kind. A file whose magic, version, byte-order mark,
 * curve, sizes or digest do not match, or that is truncated or longer, is refused with
 * MULRED_EINPUT and a message naming what differs; a refused file is never used. The digest
 * detects corruption and truncation; like the KZG table cache, the file is as trusted as its
 * directory (anyone who can write it can write a consistent one), so keep it in the user's own
 * cache directory: the default (mulred_bases_cache_path) is $XDG_CACHE_HOME/mulred (an absolute
 * XDG_CACHE_HOME) or $HOME/.cache/mulred, made with mode 0700, never beside the input. */
#ifndef MULRED_BASES_IO_H
#define MULRED_BASES_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/bases.h"
#include "mulred/common.h"
#include "mulred/msm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a whole points or scalars file ("-" = standard input) into *out (malloc'd, *len bytes):
 * the raw bytes (binary), or the bytes the hex text encodes. record_bytes > 0: the decoded
 * length must be a multiple of it. MULRED_EINPUT: "PATH: byte OFFSET: 'c' is not a hex digit",
 * "PATH: line L, byte OFFSET: an odd number of hex digits (D): this one has no pair" (the
 * unpaired digit), "PATH: record I: incomplete, K of R bytes (N bytes: not a whole number of
 * R-byte records)",
 * or "PATH: cannot open: REASON"; MULRED_ERUNTIME (out of memory, a read error). */
MULRED_API mulred_status mulred_bases_read_file(uint8_t **out, size_t *len, const char *path,
                                                bool binary, size_t record_bytes,
                                                mulred_error *err);

/* mulred_bases_make over the points of a file (messages "PATH: point I: REASON"). */
MULRED_API mulred_status mulred_bases_make_file(mulred_bases **out, const char *path,
                                                mulred_curve c, mulred_point_encoding e,
                                                bool binary, int threads, mulred_error *err);

/* Writes the cache file of b at path (a temporary file renamed into place). MULRED_OK or
 * MULRED_ERUNTIME ("PATH: cannot write: REASON", errno left at the cause: ENOENT for a missing
 * folder, EISDIR for a directory at path, EACCES, ENOSPC, ...). */
MULRED_API mulred_status mulred_bases_save(const mulred_bases *b, const char *path,
                                           mulred_error *err);
/* Loads a cache file written by mulred_bases_save, checking the header and the digest (and that
 * 64 points picked by the digest are on the curve) but not the subgroup again. want_curve: the
 * curve the caller expects (a file of another curve or group is refused), or -1 for any.
 * MULRED_OK; MULRED_EINPUT (a file that cannot be opened or is a directory, "PATH: cannot open:
 * REASON", "PATH: cannot read: Is a directory"; a refused file, "PATH: byte N: REASON" with N
 * where the fault is: "byte 0: not a mulred bases file (magic)", a header field of another curve,
 * "byte N: the file ends here" for a cut file, "the file should end here" for a longer one, the
 * digest's first byte for a changed file); MULRED_ERUNTIME (a read error, out of memory). */
MULRED_API mulred_status mulred_bases_load(mulred_bases **out, const char *path, int want_curve,
                                           mulred_error *err);

/* The default cache file of a set made from the points file `points_path` (its bytes are hashed
 * with the curve, the encoding and the level): DIR/bases-DIGEST.cache, DIR as above (created).
 * MULRED_OK, or MULRED_ERUNTIME when there is no cache directory (neither variable set, or it
 * cannot be made) or the file cannot be read. out: cap bytes. */
MULRED_API mulred_status mulred_bases_cache_path(char *out, size_t cap, const char *points_path,
                                                 mulred_curve c, mulred_point_encoding e,
                                                 unsigned level, mulred_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* Base sets: points validated once, multiplied by new scalars many times (src/msm/bases.c).
 *
 * A prover multiplies the same proving key or SRS by new scalars for every proof, a KZG service
 * commits every blob against the same setup. A base set decodes and validates its points once
 * (encoding, range, on the curve, in the subgroup: the batched checks, over threads), keeps them
 * in the engine's form (affine, Montgomery), and then runs MSMs over them with no decoding or
 * validation: Σ sᵢ·Pᵢ over a prefix 0 < n <= size, for one scalar vector or many. Files and the
 * trusted cache are in mulred/bases_io.h.
 *
 * Nothing empty: a set of no points and an MSM of no scalars are bad input (MULRED_EINPUT "NAME:
 * no points (empty input)", "no scalars (empty input)"), as an MSM over no pairs is everywhere in
 * mulred (mulred/msm_io.h; EIP-2537's MSM precompile refuses an empty input too): an empty input
 * is far more often a mistake upstream than a request, and the identity it would give is also a
 * valid result that would hide it. Only a shard of a larger set (mulred_bases_make_shard) may be
 * empty.
 *
 * Precomputation (optional, mulred_bases_precompute): a fixed-base table of L multiples
 * 2^(c·w)·Pᵢ of every point (w < L; L·size points, L times the points' own memory), so that every
 * window's digits go to one bucket set: no per-window reductions and doublings, which allows a
 * larger window (fewer bucket additions) than the plain MSM. With GLV the table holds the rows of
 * the 127-bit halves, both halves read it (the second through φ): half the rows for the same
 * work. Each call plans with the engine's cost model (include/mulred/msm.h): the table's plan or
 * the plain plan of that n, whichever the model finds cheaper.
 *
 * VARIABLE TIME, like every MSM here: public data only.
 *
 * Threads: a set is read-only after it is made (and after precompute): any number of threads may
 * run MSMs over it at once. threads arguments: 0 = mulred_threads_resolve(0). Every result is the
 * same point, with the same bytes, for every thread count.
 *
 * Misuse (a NULL or foreign set, a NULL output, an unknown curve, encoding or scalar format)
 * calls the misuse callback (mulred/common.h); if it returns, the function returns
 * MULRED_EMISUSE (0 or NULL for queries). A set's magic is cleared when it is freed, so a freed
 * set whose memory was not reused is caught too; a use after free is still undefined behaviour.
 * n above the set's size is bad input, not misuse (see each function). */
#ifndef MULRED_BASES_H
#define MULRED_BASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/common.h"
#include "mulred/msm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mulred_bases mulred_bases;

/* How points are encoded (every encoding the MSM reads):
 *   EVM           BLS12-381: EIP-2537 (G1 128 bytes, G2 256 bytes); BN254: EIP-196 (G1 64
 *                 bytes), EIP-197 (G2 128 bytes). All zero = infinity.
 *   COMPRESSED    BLS12-381 only, ZCash / IETF compressed: G1 48 bytes, G2 96 bytes.
 *   UNCOMPRESSED  BLS12-381 only, ZCash / IETF uncompressed: G1 96 bytes, G2 192 bytes. */
typedef enum {
    MULRED_POINTS_EVM = 0,
    MULRED_POINTS_COMPRESSED = 1,
    MULRED_POINTS_UNCOMPRESSED = 2,
} mulred_point_encoding;

/* Bytes of one point of curve c (a mulred_curve value, G1 or G2) in encoding e, or 0 when the
 * curve has no such encoding. "evm", "compressed", "uncompressed" name them;
 * mulred_point_encoding_parse takes exactly those (MULRED_EINPUT, *e left, for anything else). */
MULRED_API size_t mulred_point_encoding_bytes(mulred_curve c, mulred_point_encoding e);
MULRED_API const char *mulred_point_encoding_name(mulred_point_encoding e);
MULRED_API mulred_status mulred_point_encoding_parse(mulred_point_encoding *e, const char *name);

/* How a scalar vector is laid out:
 *   BE32   32-byte big-endian records (the pair files' scalars, EIP-2537, c-kzg blobs);
 *   LE32   32-byte little-endian records (arkworks' and gnark's serialisation of Fr);
 *   LIMBS  mulred_scalar256 (4 little-endian 64-bit limbs, native byte order).
 * Any 256-bit value: the MSM reduces it mod r. */
typedef enum {
    MULRED_SCALARS_BE32 = 0,
    MULRED_SCALARS_LE32 = 1,
    MULRED_SCALARS_LIMBS = 2,
} mulred_scalar_format;

/* Makes a set from count encoded points (in[0..len), len = count · mulred_point_encoding_bytes)
 * of curve c (G1 or G2 value of mulred_curve): decodes and checks every point (encoding, range,
 * on the curve, in the subgroup) with threads. name labels messages (e.g. the file). Returns
 * MULRED_OK; MULRED_EINPUT "NAME: no points (empty input)" (len = 0), "NAME: point I: REASON" (I
 * the lowest bad index from 0, REASON a mulred_decode_reason_text: the failed check) or "NAME: N
 * bytes: not a whole number of B-byte points", or "NAME: the curve has no ENCODING encoding";
 * MULRED_ERUNTIME (out of memory). *out is set only on MULRED_OK. */
MULRED_API mulred_status mulred_bases_make(mulred_bases **out, mulred_curve c,
                                           mulred_point_encoding e, const uint8_t *in, size_t len,
                                           const char *name, int threads, mulred_error *err);
/* The same for a shard of a larger set: the points are numbered from first in messages
 * ("NAME: point first+I: REASON"), so a rank that holds points [first, first + count) of a set
 * names a bad one by its index in the whole set. A shard may be empty (len = 0: a set of no
 * points, whose MSMs all refuse n = 0); the whole set should not be. */
MULRED_API mulred_status mulred_bases_make_shard(mulred_bases **out, mulred_curve c,
                                                 mulred_point_encoding e, const uint8_t *in,
                                                 size_t len, const char *name, size_t first,
                                                 int threads, mulred_error *err);
/* Makes a set from points already in the engine's form (mulred_G_affine of c, count of them,
 * copied: Montgomery coordinates, fully reduced, which is not checked), checking that each is
 * on the curve and in the subgroup (they may come from anywhere). Same errors as mulred_bases_make
 * ("NAME: point I: REASON", "NAME: no points (empty input)" for count = 0). */
MULRED_API mulred_status mulred_bases_from_affine(mulred_bases **out, mulred_curve c,
                                                  const void *points, size_t count,
                                                  const char *name, int threads, mulred_error *err);
/* Frees the set (NULL: nothing). */
MULRED_API void mulred_bases_free(mulred_bases *b);

/* The curve (with its group), the number of points, and the bytes the set holds (points and
 * table). */
MULRED_API mulred_curve mulred_bases_curve(const mulred_bases *b);
MULRED_API size_t mulred_bases_size(const mulred_bases *b);
MULRED_API size_t mulred_bases_memory(const mulred_bases *b);
/* The points (mulred_G_affine of the set's curve, size of them; read-only, valid while the set
 * lives). */
MULRED_API const void *mulred_bases_points(const mulred_bases *b);

/* Precomputation levels: rows of the table (multiples kept per point). The table costs level
 * times the points' memory. A level is 0 (none) or 2..MULRED_BASES_LEVEL_MAX; every table has at
 * least MULRED_BASES_LEVEL_TABLE_MIN rows (16-bit windows, the widest the planner takes, with GLV:
 * 127/16 + 1), so a level from 2 to 7 is a bound no table meets. Without GLV the scalars are folded
 * to at most (r − 1)/2: 16 rows at c = 16, 17 at c = 15. */
#define MULRED_BASES_LEVEL_MAX       64
#define MULRED_BASES_LEVEL_TABLE_MIN 8

/* Builds (or replaces, or with level 0 drops) the fixed-base table, with threads: level = the
 * most rows per point (0 = none, else 2..MULRED_BASES_LEVEL_MAX; 1 or above the maximum is
 * misuse); when budget_bytes > 0 the level is lowered until the table fits in it. Among the
 * fixed plans with at most that many rows (GLV on and off, every window width), the cost model
 * picks the cheapest at n = size. No table is built for an empty set or a level (given or
 * lowered) below MULRED_BASES_LEVEL_TABLE_MIN (16 without GLV). Returns MULRED_OK
 * (mulred_bases_level says what was built: at most level rows, 0 for none) or MULRED_ERUNTIME
 * (out of memory: the set keeps no table). Not concurrent with MSMs on b. */
MULRED_API mulred_status mulred_bases_precompute(mulred_bases *b, unsigned level,
                                                 size_t budget_bytes, int threads,
                                                 mulred_error *err);
/* Rows of the table (0: none), and its plan (*plan untouched when there is none). */
MULRED_API unsigned mulred_bases_level(const mulred_bases *b);
MULRED_API bool mulred_bases_table_plan(const mulred_bases *b, mulred_msm_plan *plan);

/* Whether MSMs read the table: 0 = as the cost model says (the default), 1 = always (when
 * there is one), -1 = never. For benchmarks and tests; not concurrent with MSMs on b. */
MULRED_API void mulred_bases_set_table_use(mulred_bases *b, int use);

/* What an MSM over n points of the set will do: the plan, and whether it reads the table. */
MULRED_API void mulred_bases_plan(const mulred_bases *b, size_t n, mulred_msm_plan *plan,
                                  bool *uses_table);

/* r = Σ_{i<n} sᵢ·Pᵢ over the first n points of the set, sᵢ read from scalars in format f (n
 * records: 32n bytes, or n mulred_scalar256), as a Jacobian point of the set's curve
 * (mulred_G_jacobian, Z = 1 or the one form of infinity: the same bytes for every thread
 * count and plan). Allocates only the scalars as limbs (not for LIMBS), the recoded scalars and
 * per-thread scratch. Returns MULRED_OK; MULRED_EINPUT "no scalars (empty input)" when n = 0,
 * "scalar vector of N points, the set has M" when n > size; MULRED_ERUNTIME (out of memory, r
 * untouched). */
MULRED_API mulred_status mulred_bases_msm(void *r, const mulred_bases *b, const void *scalars,
                                          mulred_scalar_format f, size_t n, int threads,
                                          mulred_error *err);
/* The same with the result encoded (EIP-2537 / EIP-196 / EIP-197 as mulred_msm_curve_encode:
 * out_len >= mulred_msm_result_bytes of the curve, else misuse). */
MULRED_API mulred_status mulred_bases_msm_encoded(uint8_t *out, size_t out_len,
                                                  const mulred_bases *b, const void *scalars,
                                                  mulred_scalar_format f, size_t n, int threads,
                                                  mulred_error *err);
/* k MSMs over the same first n points: r[j] (k Jacobian points, laid out as an array of the
 * curve's mulred_G_jacobian) = the MSM of scalars[j] (k vectors, each n records in format f).
 * Each r[j] is exactly what mulred_bases_msm gives for scalars[j]. With threads T and k >= T the
 * vectors run side by side (one thread each); otherwise one after another with T threads each.
 * Same errors as mulred_bases_msm; on an error no r[j] is reliable. */
MULRED_API mulred_status mulred_bases_msm_many(void *r, const mulred_bases *b,
                                               const void *const *scalars, size_t k,
                                               mulred_scalar_format f, size_t n, int threads,
                                               mulred_error *err);

#ifdef __cplusplus
}
#endif
#endif

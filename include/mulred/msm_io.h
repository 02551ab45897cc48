/* Inputs of an MSM (io layer, src/io/msm_*.c): pair files and synthetic point sets. Both give
 * a rank exactly the pairs of its slice (mulred/msm_grid.h), as affine points of the curve
 * layer (Montgomery coordinates, infinity = (0, 0)) and 256-bit scalars. Points are arrays of
 * mulred_g1_381_affine or mulred_g1_254_affine by the curve (void * here).
 *
 * ---- pair files ----
 * A pair file holds k >= 1 records, each a point then its scalar:
 *   bls12-381  160 bytes: the 128-byte EIP-2537 G1 encoding (x, y as 16 zero bytes + 48 bytes
 *              big-endian; all zero = infinity), then a 32-byte big-endian scalar;
 *   bn254       96 bytes: x, y (32 bytes big-endian each; (0, 0) = infinity, EIP-196), then a
 *              32-byte big-endian scalar.
 * The input of the EIP-2537 G1MSM precompile is exactly such a file (as hex). Scalars may be any
 * 256-bit value (the MSM reduces them mod r); every point is checked before any arithmetic,
 * whatever its scalar: encoding (padding), coordinates below p, on the curve, and in G1 (the
 * subgroup check, BLS12-381 only: BN254's G1 is the whole curve).
 *
 * Formats: raw bytes (binary = true), or hex text (the default): hex digits of either case;
 * ASCII whitespace anywhere is ignored (records may be split over lines or run together on
 * one); a "0x" or "0X" at the start of a token (the file's start, or after whitespace) is
 * ignored. Any other byte is bad input.
 *
 * Parallel reading. Binary files: pair i sits at byte i·R, so a rank reads its slice at once.
 * Hex text can put any whitespace anywhere, so a pair's byte offset is only known from the
 * digits before it. The file is cut into units of MULRED_MSM_FILE_UNIT bytes (the same units for
 * every rank count); the ranks first count the digits of their runs of units in parallel
 * (mulred_msm_file_count: the file is read once in total), exchange the counts (the caller's
 * collective), and from the running totals (mulred_msm_file_index) each rank finds where its
 * first pair starts: in the unit where the total crosses 2R·point0, by one scan of that unit.
 * Then it reads only its slice. A regular file is required (a pipe cannot be read at offsets).
 *
 * Errors (MULRED_EINPUT, the message starting "FILE: "): "byte OFFSET: 'g' is not a hex digit",
 * "no pairs (empty input)" (no bytes, or only whitespace and bare 0x prefixes: an MSM over no
 * pairs is bad input everywhere in mulred, as for EIP-2537's MSM precompile), "pair I (byte
 * OFFSET): incomplete: K of R bytes (N bytes: not a whole number of R-byte pairs)" (binary),
 * "pair I (line L, byte OFFSET): incomplete: K of 2R hex digits (N hex digits: not a whole
 * number of R-byte pairs)" (hex: the line and byte of the cut record's first digit, lines
 * counted from 1), "pair I (byte OFFSET): point: REASON" with REASON one of
 * mulred_decode_reason_text (non-zero padding, coordinate not below p, not on the curve, not in the
 * subgroup G1); the index I counts pairs from 0. A file that cannot be opened or read is
 * MULRED_EINPUT too (the input is what is wrong); out of memory MULRED_ERUNTIME. */
#ifndef MULRED_MSM_IO_H
#define MULRED_MSM_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/msm.h"
#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one record: 160 (bls12-381) or 96 (bn254); G2 (MULRED_CURVE_*_G2): 288 (the 256-byte
 * EIP-2537 G2 point) or 160 (the 128-byte EIP-197 point), with the same 32-byte scalar. Every
 * function here takes the G2 values of mulred_curve too: G2 points, the G2 subgroup check. */
MULRED_API size_t mulred_msm_record_bytes(mulred_curve c);

/* Bytes per unit of the digit count (1 MiB: a 2^26-pair hex file has about 20 000). */
#define MULRED_MSM_FILE_UNIT (1u << 20)

typedef struct mulred_msm_file mulred_msm_file;

/* Opens path (a regular file) and takes its size. Binary files know their pair count at once
 * (and are checked: a size not a multiple of R, or 0, is bad input); hex files after
 * mulred_msm_file_index. unit_bytes: the units of the count pass (1..MULRED_MSM_FILE_UNIT; 0 =
 * MULRED_MSM_FILE_UNIT; tests use tiny ones to put unit boundaries everywhere). */
MULRED_API mulred_status mulred_msm_file_open(mulred_msm_file **out, const char *path,
                                              mulred_curve c, bool binary, size_t unit_bytes,
                                              mulred_error *err);
MULRED_API void mulred_msm_file_close(mulred_msm_file *f);
/* Hex files: the number of units, ⌈size / unit_bytes⌉ (at least 1); binary files: 0 (no
 * count pass). */
MULRED_API uint64_t mulred_msm_file_units(const mulred_msm_file *f);
/* Hex files: digits[u − first] = the hex digits in unit u, for u in [first, end) (end <= units),
 * checking every byte of those units. A bad byte is bad input (its offset named). */
MULRED_API mulred_status mulred_msm_file_count(uint64_t *digits, mulred_msm_file *f, uint64_t first,
                                               uint64_t end, mulred_error *err);
/* Hex files: takes the digit counts of every unit (digits[0..units), e.g. summed over ranks)
 * and fixes the pair count; a total that is 0 or not a multiple of 2R is bad input. The
 * counts are copied. No-op for binary files. */
MULRED_API mulred_status mulred_msm_file_index(mulred_msm_file *f, const uint64_t *digits,
                                               mulred_error *err);
/* The number of pairs (after index for hex files). */
MULRED_API uint64_t mulred_msm_file_pairs(const mulred_msm_file *f);
/* Reads pairs [first, end) (end <= pairs) into points[0..end−first) and scalars, checking
 * encoding, range and curve of every point (NOT the subgroup: mulred_msm_check_subgroup, so that
 * the ranks holding the same slice can share that work). threads: decoding threads (0: the
 * OpenMP default). On bad input the message names the lowest bad pair of the range. */
MULRED_API mulred_status mulred_msm_file_read(void *points, mulred_scalar256 *scalars,
                                              mulred_msm_file *f, uint64_t first, uint64_t end,
                                              int threads, mulred_error *err);

/* Checks that points[0..n) (decoded and on the curve) lie in G1, with threads (0: default).
 * BLS12-381: Scott's endomorphism test (about 128 doublings a point; 8 points at a time on
 * the 8-lane field kernels where the CPU has AVX-512 IFMA), by far the dearest step of reading
 * a file; BN254: nothing to check. On failure MULRED_EINPUT
 * "NAME: pair I: point: not in the subgroup G1", I = first_index + the lowest failing offset
 * (name: the file, for the message). */
MULRED_API mulred_status mulred_msm_check_subgroup(const void *points, size_t n, mulred_curve c,
                                                   uint64_t first_index, const char *name,
                                                   int threads, mulred_error *err);

/* Writes pairs (points[0..n), scalars) as a pair file's records (binary) into out
 * (n·R bytes): the inverse of reading, for tools and tests. */
MULRED_API void mulred_msm_encode_pairs(uint8_t *out, const void *points,
                                        const mulred_scalar256 *scalars, size_t n, mulred_curve c);

/* ---- bytes in, bytes out ---- */

/* Bytes of an encoded MSM result: 128 (bls12-381, EIP-2537) or 64 (bn254, EIP-196). */
MULRED_API size_t mulred_msm_result_bytes(mulred_curve c);

/* out[0..mulred_msm_result_bytes(c)) = the encoded Σ sᵢ·Pᵢ over records[0..len): binary pair
 * records as above (mulred_msm_record_bytes(c) each: the point, then its 32-byte big-endian
 * scalar), the same bytes as a `mulred msm --binary` file. Every point is checked (encoding,
 * range, on the curve, in G1) before any arithmetic. threads: 0 = mulred_threads_resolve(0).
 * Returns MULRED_OK; MULRED_EINPUT "no pairs (empty input)" for len = 0 (as a pair file, and as
 * EIP-2537's MSM precompile refuses an empty input), "record I: point: REASON" (REASON a
 * mulred_decode_reason_text; I the lowest bad record, from 0) or "N bytes: not a whole number of
 * R-byte records"; MULRED_ERUNTIME (out of memory); MULRED_EMISUSE
 * (misuse: out_len below the result size, records NULL with len > 0). out is written only on
 * MULRED_OK. */
MULRED_API mulred_status mulred_msm_encoded(uint8_t *out, size_t out_len, mulred_curve c,
                                            const uint8_t *records, size_t len, int threads,
                                            mulred_error *err);

/* ---- synthetic point sets ----
 * Pair i of the set (seed) is a pure function of (curve, seed, i), never of the ranks or
 * threads that make it:
 *   scalar sᵢ  uniform below r (mulred_mix_stream words, rejection sampling: a prover's
 *              scalars are field elements);
 *   point  Pᵢ = aᵢ·G, aᵢ = α_⌊i/1024⌋ + β_(i mod 1024) mod r, with α and β drawn like the
 *              scalars from their own stream indices.
 * The two-level form makes a point one affine addition A_⌊i/1024⌋ + B_(i mod 1024) (batched:
 * about 6 field multiplications and a share of one inversion) instead of a scalar
 * multiplication (about 300 additions), once the 1024 Bⱼ = βⱼ·G and the slice's Aₖ = αₖ·G are
 * made with a fixed-base table of G (32 mixed additions each). The points are in G1 by
 * construction and differ with overwhelming probability; aᵢ is known, so any MSM over the set
 * can be checked as (Σ aᵢ·sᵢ mod r)·G. */
#define MULRED_MSM_SYNTH_BLOCK 1024

MULRED_API void mulred_msm_synth_scalar(mulred_scalar256 *s, mulred_curve c, uint64_t seed,
                                        uint64_t i);
/* aᵢ, the discrete logarithm of point i to the curve's generator: 4 limbs, < r. */
MULRED_API void mulred_msm_synth_dlog(uint64_t a[4], mulred_curve c, uint64_t seed, uint64_t i);
/* points[0..n) and scalars[0..n) = pairs [first, first + n) of the set, with threads (0:
 * default). Allocates the generator table (32·255 points) and the block tables; MULRED_OK or
 * MULRED_ERUNTIME (out of memory). first + n <= 2^58. */
MULRED_API mulred_status mulred_msm_synth(void *points, mulred_scalar256 *scalars, mulred_curve c,
                                          uint64_t seed, uint64_t first, size_t n, int threads,
                                          mulred_error *err);

/* The 0.2 names, kept for one release (CHANGELOG.md). */
#define mulred_pair_record_bytes mulred_msm_record_bytes
#define MULRED_PAIR_UNIT         MULRED_MSM_FILE_UNIT
#define mulred_pair_file         mulred_msm_file
#define mulred_pair_file_open    mulred_msm_file_open
#define mulred_pair_file_close   mulred_msm_file_close
#define mulred_pair_file_units   mulred_msm_file_units
#define mulred_pair_file_count   mulred_msm_file_count
#define mulred_pair_file_index   mulred_msm_file_index
#define mulred_pair_file_pairs   mulred_msm_file_pairs
#define mulred_pair_file_read    mulred_msm_file_read
#define mulred_pair_encode       mulred_msm_encode_pairs

#ifdef __cplusplus
}
#endif
#endif

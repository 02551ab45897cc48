/* util layer: hex and bytes, little-endian helpers, timers, CPU features, files, checks.
 * Internal to libmulred and its command; nothing here depends on another layer. */
#ifndef MULRED_UTIL_H
#define MULRED_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mulred/common.h"
#include "util/check.h"

/* ---- bytes ---- */
static inline uint32_t mulred_load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t mulred_load_le64(const uint8_t *p)
{
    return (uint64_t)mulred_load_le32(p) | (uint64_t)mulred_load_le32(p + 4) << 32;
}
static inline void mulred_store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16),
    p[3] = (uint8_t)(v >> 24);
}
static inline void mulred_store_le64(uint8_t *p, uint64_t v)
{
    mulred_store_le32(p, (uint32_t)v);
    mulred_store_le32(p + 4, (uint32_t)(v >> 32));
}
static inline uint16_t mulred_load_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* Value of one hex digit, or -1. */
int mulred_hex_digit(int c);
/* Decodes exactly 2*len hex characters from hex into out. Returns 0, or -1 on a non-hex
 * character (and *bad, when non-NULL, gets its index). */
int mulred_hex_decode(uint8_t *out, const char *hex, size_t len, size_t *bad);
/* mulred_hex_encode and mulred_hex_encode_reversed: mulred/common.h. */
void mulred_bytes_reverse(uint8_t *buf, size_t len);

/* ---- time ---- */
/* mulred_wtime: mulred/common.h */
double mulred_thread_cputime(void);                  /* this thread's CPU time, seconds */
int mulred_cmp_double(const void *a, const void *b); /* for qsort */
double mulred_median(double *v, size_t n);           /* sorts v */
/* The q-quantile (0..1) of v[0..n), n >= 1, by nearest rank; sorts v. */
double mulred_quantile(double *v, int n, double q);

/* ---- CPU features (x86-64 cpuid; all false elsewhere) ---- */
typedef struct {
    bool adx, bmi2, avx2, avx512f, avx512vl, avx512ifma, sha_ni;
    int family, model; /* cpuid leaf 1 with the extended fields folded in (0 elsewhere) */
    bool amd;
} mulred_cpu_features;
const mulred_cpu_features *mulred_cpu(void);
/* The AMD generation when it is known ("Zen 5" for family 26; "Zen 4" for family 25 with
 * AVX-512, which Zen 3 lacks), else "": benchmarks print it beside their figures, since Zen 4
 * executes 512-bit instructions in two halves and Zen 5 does not. */
const char *mulred_cpu_generation(void);
/* Space-separated list of the features above that this CPU has. */
const char *mulred_cpu_describe(void);
/* Number of online processors. */
int mulred_cpu_count(void);

/* ---- memory ---- */
/* mulred_alloc_large: mulred/common.h */

/* Prefetches every cache line of the object of `bytes` bytes at p (bytes a compile-time
 * constant: the loop unrolls), for writing or for reading. A G2 affine point is 192 bytes,
 * three lines or four when not aligned to 64: its first and last byte alone miss one. */
#define MULRED_CACHE_LINE 64
static inline __attribute__((always_inline)) void mulred_prefetch_write(const void *p, size_t bytes)
{
    const char *c = p;
    for (size_t o = 0; o < bytes; o += MULRED_CACHE_LINE) __builtin_prefetch(c + o, 1);
    __builtin_prefetch(c + bytes - 1, 1);
}
static inline __attribute__((always_inline)) void mulred_prefetch_read(const void *p, size_t bytes)
{
    const char *c = p;
    for (size_t o = 0; o < bytes; o += MULRED_CACHE_LINE) __builtin_prefetch(c + o, 0);
    __builtin_prefetch(c + bytes - 1, 0);
}

/* ---- files ---- */
/* Reads a whole file ("-" is standard input) into a NUL-terminated malloc'd buffer. Never waits
 * for a writer: a named FIFO with no writer attached is MULRED_EINPUT ("a FIFO with no writer").
 * More than max bytes (SIZE_MAX: no bound) is MULRED_EINPUT naming the file and what it should
 * be (`what`, e.g. "a job file"), read no further: /dev/zero or a wrong file given as a small
 * input ends at once instead of filling memory. Open and read failures are MULRED_EINPUT
 * naming the file (and the byte offset of a failed read); out of memory is MULRED_ERUNTIME. */
int mulred_read_file(const char *path, char **data, size_t *len, size_t max, const char *what,
                     mulred_error *err);

#endif

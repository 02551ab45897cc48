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
mulred_status mulred_read_file(const char *path, char **data, size_t *len, size_t max,
                               const char *what, mulred_error *err);

/* ---- files that appear whole or not at all ----
 * Every file mulred writes (results, base sets, caches, indexes, snapshots, pair files) is
 * written under a temporary name in its own directory (".NAME.tmp.PID.N", created exclusively,
 * mode 0666 or 0600 less the umask), then flushed, optionally fsynced, and renamed onto NAME: a
 * crash, a kill or a failed write never leaves part of a file under NAME (at most the temporary,
 * which a failure removes). A directory is refused. Whatever else NAME is (a file, a symbolic
 * link, a FIFO) is replaced, unless MULRED_WHOLE_IN_PLACE (for names a user gives): then a
 * symbolic link is followed (its target is replaced, the link stays), and a name under /dev/
 * or /proc/ or reached through a link there (/dev/stdout, /dev/fd/N, /dev/null, /dev/full),
 * or one that exists and is not a regular file (a FIFO, a device), is written in place, as a
 * user who names it means. */
enum {
    MULRED_WHOLE_SYNC = 1,     /* fsync the file before the rename and its directory after */
    MULRED_WHOLE_IN_PLACE = 2, /* links followed, devices and FIFOs written in place */
    MULRED_WHOLE_PRIVATE = 4,  /* mode 0600 rather than 0666 (both less the umask) */
};
typedef struct {
    FILE *f;    /* where to write */
    char *path; /* the final name, as given (for messages) */
    char *dest; /* the final name with its symbolic links followed */
    char *tmp;  /* the temporary name; NULL when NAME is written in place */
    bool sync;
} mulred_whole_file;

/* Opens w for writing path (binary; stdio buffered); flags: MULRED_WHOLE_*. MULRED_ERUNTIME
 * "PATH: cannot write: REASON" (errno kept) when the temporary cannot be created. */
mulred_status mulred_whole_open(mulred_whole_file *w, const char *path, int flags,
                                mulred_error *err);
/* Flushes and closes w's file and renames it onto its name. MULRED_ERUNTIME "PATH: cannot
 * write (STEP): REASON" (errno kept) when a write, the close, the fsync or the rename failed
 * (the temporary is removed). w is closed either way. */
int mulred_whole_commit(mulred_whole_file *w, mulred_error *err);
/* Closes w's file and removes the temporary: nothing appears under the name (a file written in
 * place keeps what was written). A closed or zeroed w is left alone. */
void mulred_whole_discard(mulred_whole_file *w);

#endif

/* mulred — what every part of the library shares: the status of a call, error reports, the
 * misuse callback, the thread count, the version. Every other public header includes this one;
 * mulred/mulred.h includes every core header.
 *
 * Three kinds of failure are kept apart:
 *   - bad data from outside (files, encodings) returns MULRED_EINPUT, with a message naming
 *     the file and the byte offset, line or record when the function takes a mulred_error;
 *   - runtime failures (out of memory, I/O errors on a good file) return MULRED_ERUNTIME;
 *   - API misuse (a programming error: an argument outside the contract) calls the illegal-
 *     argument callback (mulred_set_illegal_callback). The default callback prints the file,
 *     line and failed condition to stderr and aborts; when a caller-set callback returns, the
 *     function returns MULRED_EMISUSE (functions returning void just return), having changed
 *     nothing the caller can rely on.
 * Predicates (is_on_curve, is_zero, ...) return bool; they cannot fail. */
#ifndef MULRED_COMMON_H
#define MULRED_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Marks the library's API: every function declared in the installed headers. The libraries
 * are compiled with -fvisibility=hidden, so a shared libmulred or libmulred_mpi exports
 * exactly these functions and nothing else. */
#if defined(__GNUC__) || defined(__clang__)
#define MULRED_API __attribute__((visibility("default")))
#else
#define MULRED_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The status of every library function that can fail. The values are also the exit statuses
 * of the command (which uses 1 for its own usage errors). */
typedef enum {
    MULRED_OK = 0,
    MULRED_EINPUT = 2,   /* bad input data; the message names file and position */
    MULRED_ERUNTIME = 3, /* runtime, resource or I/O failure */
    MULRED_EMISUSE = 4,  /* misuse, reported only when the illegal-argument callback returns */
} mulred_status;

/* An error report: the status and a one-line human message. */
typedef struct {
    mulred_status status;
    char message[512];
} mulred_error;

/* Sets err (when non-NULL) to status and the printf-style message, and returns status. */
MULRED_API mulred_status mulred_error_set(mulred_error *err, mulred_status status, const char *fmt,
                                          ...) __attribute__((format(printf, 3, 4)));

/* Clears err to MULRED_OK with an empty message. */
MULRED_API void mulred_error_clear(mulred_error *err);

/* Sets the function called on API misuse, for every thread of the process: fn(msg, data) with
 * msg "FILE:LINE: CONDITION" naming the failed check. fn NULL restores the default, which
 * prints msg to stderr and aborts. A callback that returns makes the misused function return
 * (MULRED_EMISUSE where it returns a status). The callback may be called from several threads
 * at once. Set it before other threads use the library. */
MULRED_API void mulred_set_illegal_callback(void (*fn)(const char *msg, void *data), void *data);
/* Reports misuse: calls the current callback with msg (what every argument check inside the
 * library does), for libraries built on libmulred (libmulred_mpi). Returns when a caller-set
 * callback returns. */
MULRED_API void mulred_illegal(const char *msg) __attribute__((cold));
/* Reports a failed check that the library cannot return from (misuse found inside a
 * computation): calls the current callback with "FILE:LINE: COND: DETAIL" (DETAIL from fmt),
 * then, if the callback returns, the default one, which ends the process. For libraries built
 * on libmulred (libmulred_mpi's MULRED_CHECK); never returns. */
MULRED_API void mulred_check_fail(const char *file, int line, const char *cond, const char *fmt,
                                  ...) __attribute__((cold, noreturn, format(printf, 4, 5)));

/* The thread count a call with `requested` threads uses: requested itself when > 0, else
 * OMP_NUM_THREADS when set (OpenMP's default, omp_get_max_threads), else every core; clamped
 * to 1..4096. */
MULRED_API int mulred_threads_resolve(int requested);

/* Resolves requested (mulred_threads_resolve) and starts the OpenMP team of that many threads,
 * so that a timed phase after it pays no team start-up. Optional; idempotent; returns the
 * resolved count. */
MULRED_API int mulred_threads_start(int requested);

/* The project version, "0.2.0" (CMake project(VERSION)). */
MULRED_API const char *mulred_version(void);
/* The git revision the library was built from, or "" when not built from a checkout. */
MULRED_API const char *mulred_git_revision(void);

/* Writes 2*len lowercase hex digits and a NUL into out (2*len + 1 bytes). */
MULRED_API void mulred_hex_encode(char *out, const uint8_t *in, size_t len);
/* Same, bytes in reverse order (Bitcoin's display order for hashes). */
MULRED_API void mulred_hex_encode_reversed(char *out, const uint8_t *in, size_t len);
/* A monotonic wall clock in seconds (CLOCK_MONOTONIC), for the phase timings jobs report. */
MULRED_API double mulred_wtime(void);

/* malloc for a large array written in bulk: the points and scalars of a large MSM, for one.
 * From 2 MiB up it is aligned to 2 MiB and advised as transparent huge pages where the kernel
 * offers them (Linux, madvise mode), so first touch costs one fault per 2 MiB instead of 512 and
 * a pass over the array misses the TLB 512 times less (under a hypervisor, where a fault is
 * dear, both matter). Smaller sizes are plain malloc. Release with free(); NULL when out of
 * memory. mulred's own readers allocate their points with it. */
MULRED_API void *mulred_alloc_large(size_t bytes);

#ifdef __cplusplus
}
#endif
#endif

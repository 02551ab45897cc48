/* mulred — large commutative-group products (MuHash3072, MSM) on clusters.
 *
 * Status codes shared by the library and the command. Three kinds of failure are kept apart:
 * API misuse aborts with a message (a programming error); bad data from files returns
 * MULRED_EINPUT with a message naming the file and the byte offset, line or record; runtime
 * failures (out of memory, I/O errors on a good file, MPI) return MULRED_ERUNTIME. */
#ifndef MULRED_MULRED_H
#define MULRED_MULRED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values are the command's exit statuses. */
typedef enum {
    MULRED_OK = 0,
    MULRED_EUSAGE = 1,   /* wrong options or arguments */
    MULRED_EINPUT = 2,   /* bad input data; the message names file and position */
    MULRED_ERUNTIME = 3, /* runtime, resource or MPI failure */
} mulred_status;

/* An error report: the status and a one-line human message. */
typedef struct {
    int status;
    char message[512];
} mulred_error;

/* Sets err (when non-NULL) and returns status. printf-style message. */
int mulred_error_set(mulred_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears err to MULRED_OK with an empty message. */
void mulred_error_clear(mulred_error *err);

/* "0.1.0" */
const char *mulred_version(void);
/* The git revision the library was built from, or "" when not built from a checkout. */
const char *mulred_git_revision(void);

#ifdef __cplusplus
}
#endif
#endif

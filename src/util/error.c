#include "mulred/common.h"

#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "mulred_version.h"
#include "util/check.h"

/* mulred: the default misuse callback */
static void illegal_default(const char *msg, void *data)
{
    (void)data;
    fprintf(stderr, "mulred: %s\n", msg);
    fflush(stderr);
    abort();
}

/* The callback and its data, set and read together under a lock (a failed check is rare: the
 * lock costs nothing that matters). */
static pthread_mutex_t illegal_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*illegal_fn)(const char *msg, void *data) = illegal_default;
static void *illegal_data;

void mulred_set_illegal_callback(void (*fn)(const char *msg, void *data), void *data)
{
    pthread_mutex_lock(&illegal_lock);
    illegal_fn = fn ? fn : illegal_default;
    illegal_data = fn ? data : NULL;
    pthread_mutex_unlock(&illegal_lock);
}

void mulred_illegal(const char *msg)
{
    pthread_mutex_lock(&illegal_lock);
    void (*fn)(const char *, void *) = illegal_fn;
    void *data = illegal_data;
    pthread_mutex_unlock(&illegal_lock);
    fn(msg, data);
}

void mulred_check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "%s:%d: %s: ", file, line, cond);
    if (n < 0) n = 0;
    if ((size_t)n < sizeof msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    mulred_illegal(msg);
    /* the library cannot go on from here: a callback that returned ends the process too */
    illegal_default(msg, NULL);
    __builtin_unreachable();
}

mulred_status mulred_error_set(mulred_error *err, mulred_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void mulred_error_clear(mulred_error *err)
{
    if (err) {
        err->status = MULRED_OK;
        err->message[0] = '\0';
    }
}

const char *mulred_version(void)
{
    return MULRED_VERSION_STRING;
}

const char *mulred_git_revision(void)
{
    return MULRED_GIT_REVISION;
}

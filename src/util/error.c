#include "mulred/mulred.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mulred_version.h"
#include "util/check.h"

void mulred_check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mulred: %s:%d: check failed: %s: ", file, line, cond);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}

int mulred_error_set(mulred_error *err, int status, const char *fmt, ...)
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

/* What the distributed layer needs beside libmulred's public functions (libmulred_mpi links
 * against those only: the core's internals are hidden in its shared library): SHA-256 straight
 * from libcrypto, and its own path for failed invariant checks. */
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>

#include "dist/dist_internal.h"
#include "util/check.h"

int dist_sha256(uint8_t out[32], const uint8_t *data, size_t len)
{
    unsigned int n = 0;
    return EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) == 1 && n == 32 ? 0 : -1;
}

/* MULRED_CHECK in this layer (util/check.h): the message to the caller's misuse callback
 * (mulred_illegal, public); when that returns, to the default one, which ends the process. */
void dist_check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
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
    mulred_set_illegal_callback(NULL, NULL);
    mulred_illegal(msg);
    __builtin_unreachable();
}

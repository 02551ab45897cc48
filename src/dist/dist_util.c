/* The few helpers of the lower layers' internals that the distributed layer uses, as its own
 * copies: libmulred_mpi is linked against libmulred's public functions only (its internals are
 * hidden in the shared library). */
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "dist/dist_internal.h"
#include "util/check.h"

static const char hex_digits[] = "0123456789abcdef";

void dist_hex_encode(char *out, const uint8_t *in, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = hex_digits[in[i] >> 4];
        out[2 * i + 1] = hex_digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

void dist_hex_encode_reversed(char *out, const uint8_t *in, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const uint8_t b = in[len - 1 - i];
        out[2 * i] = hex_digits[b >> 4];
        out[2 * i + 1] = hex_digits[b & 15];
    }
    out[2 * len] = '\0';
}

double dist_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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

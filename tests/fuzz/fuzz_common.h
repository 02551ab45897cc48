/* Shared helpers of the libFuzzer harnesses: inputs as files (the readers take paths), a check
 * that aborts with a message (libFuzzer saves the input as a crash), SHA-256 and a cheap
 * deterministic hash of the input that picks chunk sizes and rank counts. */
#ifndef MULRED_FUZZ_COMMON_H
#define MULRED_FUZZ_COMMON_H

#define _GNU_SOURCE
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A disagreement between two paths, or a broken contract: print and abort. */
static void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FUZZ CHECK FAILED: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) fuzz_fail(__VA_ARGS__);                                                       \
    } while (0)

/* The bytes as an anonymous regular file (memfd); *path receives "/proc/self/fd/N", which the
 * readers open like any path. Returns the descriptor (close it when done). */
static inline int fuzz_memfile(char path[64], const uint8_t *data, size_t size)
{
    int fd = memfd_create("mulred-fuzz", MFD_CLOEXEC);
    FUZZ_CHECK(fd >= 0, "memfd_create failed");
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        FUZZ_CHECK(w > 0, "write to memfd failed");
        done += (size_t)w;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

static inline void fuzz_sha256(uint8_t out[32], const void *data, size_t len)
{
    EVP_Digest(data, len, out, NULL, EVP_sha256(), NULL);
}

/* FNV-1a of the input: a deterministic choice of chunk sizes and rank counts per input. */
static inline uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

#endif

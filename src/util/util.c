#define _GNU_SOURCE
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

int mulred_hex_digit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int mulred_hex_decode(uint8_t *out, const char *hex, size_t len, size_t *bad)
{
    for (size_t i = 0; i < len; i++) {
        int hi = mulred_hex_digit((unsigned char)hex[2 * i]);
        int lo = mulred_hex_digit((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            if (bad) *bad = 2 * i + (hi < 0 ? 0 : 1);
            return -1;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

void mulred_hex_encode(char *out, const uint8_t *in, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

void mulred_hex_encode_reversed(char *out, const uint8_t *in, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        uint8_t b = in[len - 1 - i];
        out[2 * i] = digits[b >> 4];
        out[2 * i + 1] = digits[b & 15];
    }
    out[2 * len] = '\0';
}

void mulred_bytes_reverse(uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len / 2; i++) {
        uint8_t t = buf[i];
        buf[i] = buf[len - 1 - i];
        buf[len - 1 - i] = t;
    }
}

double mulred_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double mulred_thread_cputime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int mulred_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mulred_median(double *v, size_t n)
{
    if (n == 0) return 0.0;
    qsort(v, n, sizeof *v, mulred_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static mulred_cpu_features cpu_features;
static char cpu_description[128];
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void cpu_describe(void)
{
    const mulred_cpu_features *f = &cpu_features;
    char *buf = cpu_description;
    snprintf(buf, sizeof cpu_description, "%s%s%s%s%s%s%s", f->adx ? "adx " : "",
             f->bmi2 ? "bmi2 " : "", f->avx2 ? "avx2 " : "", f->avx512f ? "avx512f " : "",
             f->avx512vl ? "avx512vl " : "", f->avx512ifma ? "avx512ifma " : "",
             f->sha_ni ? "sha_ni " : "");
    size_t n = strlen(buf);
    if (n) buf[n - 1] = '\0';
}

static void cpu_probe(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    cpu_features.bmi2 = __builtin_cpu_supports("bmi2");
    cpu_features.avx2 = __builtin_cpu_supports("avx2");
    cpu_features.avx512f = __builtin_cpu_supports("avx512f");
    cpu_features.avx512vl = __builtin_cpu_supports("avx512vl");
    cpu_features.avx512ifma = __builtin_cpu_supports("avx512ifma");
    /* gcc 12's __builtin_cpu_supports has no "sha" and clang 14's no "adx": read cpuid leaf 7,
     * EBX bits 19 (ADX) and 29 (SHA). */
    unsigned int a = 7, b = 0, c = 0, d = 0;
    __asm__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
    cpu_features.adx = (b >> 19) & 1;
    cpu_features.sha_ni = (b >> 29) & 1;
    a = 0, c = 0;
    __asm__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
    cpu_features.amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u; /* AuthenticAMD */
    a = 1, c = 0;
    __asm__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
    int base = (int)(a >> 8) & 0xf, ext = (int)(a >> 20) & 0xff;
    cpu_features.family = base == 0xf ? base + ext : base;
    cpu_features.model = (int)(a >> 4) & 0xf;
    if (base == 0xf || base == 6) cpu_features.model |= (int)((a >> 16) & 0xf) << 4;
#endif
    cpu_describe();
}

/* Probed once, whichever thread asks first. */
const mulred_cpu_features *mulred_cpu(void)
{
    pthread_once(&cpu_once, cpu_probe);
    return &cpu_features;
}

const char *mulred_cpu_describe(void)
{
    mulred_cpu();
    return cpu_description;
}

const char *mulred_cpu_generation(void)
{
    const mulred_cpu_features *f = mulred_cpu();
    if (!f->amd) return "";
    if (f->family == 26) return "Zen 5";
    if (f->family == 25) return f->avx512f ? "Zen 4" : "Zen 3";
    return "";
}

int mulred_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Opening a named FIFO for reading waits until a writer opens it, forever if none comes: a
 * forgotten writer, or a FIFO given where a file was meant, would hang a job (and every rank
 * waiting for rank 0). So the open does not wait (O_NONBLOCK), and a named FIFO must have a
 * writer attached at that moment: a non-blocking read then returns data or EAGAIN, and end of
 * file only when no writer is attached. Anonymous pipes (shell pipelines, <(...) process
 * substitution: they had a writer from the start) are read to their end as before. */
#define LARGE_PAGE ((size_t)2 << 20)

void *mulred_alloc_large(size_t bytes)
{
    if (bytes < LARGE_PAGE) return malloc(bytes);
    if (bytes > SIZE_MAX - LARGE_PAGE) return NULL;
    const size_t rounded = (bytes + LARGE_PAGE - 1) & ~(LARGE_PAGE - 1);
    void *p = aligned_alloc(LARGE_PAGE, rounded);
#ifdef MADV_HUGEPAGE
    if (p) (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only: 4 KiB pages if refused */
#endif
    return p;
}

mulred_status mulred_read_file(const char *path, char **data, size_t *len, size_t max,
                               const char *what, mulred_error *err)
{
    const bool is_stdin = strcmp(path, "-") == 0;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", path);
    int fd = STDIN_FILENO;
    mulred_status st = MULRED_OK;
    if (!is_stdin) {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            free(buf);
            return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path,
                                    strerror(errno));
        }
        struct stat sb;
        struct statfs sf;
        if (fstat(fd, &sb) == 0 && S_ISFIFO(sb.st_mode) &&
            !(fstatfs(fd, &sf) == 0 && sf.f_type == PIPEFS_MAGIC)) {
            ssize_t r;
            do r = read(fd, buf, 1);
            while (r < 0 && errno == EINTR);
            if (r == 0) {
                st = mulred_error_set(err, MULRED_EINPUT,
                                      "%s: a FIFO with no writer (start its writer first)", path);
                goto out;
            }
            if (r < 0 && errno != EAGAIN) {
                st = mulred_error_set(err, MULRED_EINPUT, "%s: read error at byte 0: %s", path,
                                      strerror(errno));
                goto out;
            }
            n = r == 1 ? 1 : 0;
        }
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
            st = mulred_error_set(err, MULRED_ERUNTIME, "%s: fcntl: %s", path, strerror(errno));
            goto out;
        }
    }
    for (;;) {
        if (n == cap) {
            char *grown = realloc(buf, 2 * cap + 1);
            if (!grown) {
                st = mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", path);
                goto out;
            }
            buf = grown;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            st = mulred_error_set(err, MULRED_EINPUT, "%s: read error at byte %zu: %s", path, n,
                                  strerror(errno));
            goto out;
        }
        if (r == 0) break;
        n += (size_t)r;
        if (n > max) {
            st = mulred_error_set(err, MULRED_EINPUT, "%s: byte %zu: longer than %zu bytes, not %s",
                                  path, max, max, what ? what : "an input of this kind");
            goto out;
        }
    }
out:
    if (!is_stdin) close(fd);
    if (st) {
        free(buf);
        return st;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return MULRED_OK;
}

double mulred_quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, mulred_cmp_double);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

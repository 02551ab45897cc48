/* Hex element files, read in fixed byte ranges.
 *
 * Chunk c covers bytes [c·S, (c+1)·S) and owns the lines whose first byte lies there. To find
 * its first line a chunk looks at the byte before its start; its last line may run past its end,
 * so it reads up to one maximal line further. Chunks are the file's work units: ranks select
 * contiguous runs of them (the plan is the caller's, mulred/plan.h). Memory per
 * chunk in flight: S + one maximal line. Line numbers are needed only for error messages, so a
 * failing chunk counts newlines from the start of the file then, and never otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mulred/sources.h"
#include "util/util.h"

enum { DEFAULT_CHUNK = 1 << 18 };
/* A line holds at most one element of MULRED_MUHASH_MAX_ELEMENT bytes as hex, plus slack for
 * surrounding blanks and a CR. */
#define MAX_LINE (2 * MULRED_MUHASH_MAX_ELEMENT + 256)

struct mulred_element_file {
    char *path;
    int fd; /* -1 when the contents are in memory (standard input) */
    char *memory;
    uint64_t size;
    size_t chunk;
    uint64_t units;                /* ⌈size / chunk⌉ */
    uint64_t first_chunk, nchunks; /* the selected units */
    bool remove, stream;
    mulred_muhash_source source;
};

static int ef_read(const mulred_element_file *f, char *buf, uint64_t off, size_t len, size_t *got,
                   mulred_error *err)
{
    if (off >= f->size) {
        *got = 0;
        return MULRED_OK;
    }
    if (len > f->size - off) len = (size_t)(f->size - off);
    if (f->fd < 0) {
        memcpy(buf, f->memory + off, len);
        *got = len;
        return MULRED_OK;
    }
    size_t n = 0;
    while (n < len) {
        ssize_t r = pread(f->fd, buf + n, len - n, (off_t)(off + n));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0)
            return mulred_error_set(err, MULRED_EINPUT, "%s: read error at byte %llu: %s", f->path,
                                    (unsigned long long)(off + n), strerror(errno));
        if (r == 0) break;
        n += (size_t)r;
    }
    *got = n;
    return MULRED_OK;
}

/* 1-based line number of the line starting at byte `off`. */
static uint64_t ef_line_number(const mulred_element_file *f, uint64_t off)
{
    uint64_t line = 1, pos = 0;
    char buf[1 << 16];
    while (pos < off) {
        size_t want = off - pos < sizeof buf ? (size_t)(off - pos) : sizeof buf, got = 0;
        if (ef_read(f, buf, pos, want, &got, NULL) || got == 0) break;
        for (size_t i = 0; i < got; i++) line += buf[i] == '\n';
        pos += got;
    }
    return line;
}

static int ef_line_error(const mulred_element_file *f, uint64_t line_off, mulred_error *err,
                         const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int ef_line_error(const mulred_element_file *f, uint64_t line_off, mulred_error *err,
                         const char *fmt, ...)
{
    char why[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return mulred_error_set(err, MULRED_EINPUT, "%s:%llu: %s", f->path,
                            (unsigned long long)ef_line_number(f, line_off), why);
}

static mulred_status ef_produce(void *vf, size_t c, mulred_muhash_sink *sink, mulred_error *err)
{
    const mulred_element_file *f = vf;
    uint64_t lo = (f->first_chunk + c) * f->chunk, hi = lo + f->chunk;
    if (hi > f->size) hi = f->size;
    uint64_t start = lo ? lo - 1 : 0;
    size_t cap = (size_t)(hi - start) + MAX_LINE + 1, got;
    char *buf = malloc(cap);
    uint8_t *elem = malloc(MULRED_MUHASH_MAX_ELEMENT);
    int st = MULRED_OK;
    if (!buf || !elem) {
        st = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        goto out;
    }
    if ((st = ef_read(f, buf, start, cap - 1, &got, err))) goto out;
    size_t pos = 0;
    if (lo) { /* skip the line that started in the previous chunk */
        while (pos < got && buf[pos] != '\n') pos++;
        pos++;
    }
    while (start + pos < hi && pos < got) {
        MULRED_VERIFY(start + pos >= lo); /* a line belongs to the chunk holding its first byte */
        size_t line = pos, end = pos;
        while (end < got && buf[end] != '\n') end++;
        /* The limit holds wherever the line sits: the buffer reaches at least MAX_LINE + 1 bytes
         * past any line start before hi (so a line that does not end in it is too long), and a
         * line must not be accepted or refused depending on the chunk size. */
        if (end - line > MAX_LINE) {
            st = ef_line_error(f, start + line, err, "line longer than %zu characters",
                               (size_t)MAX_LINE);
            goto out;
        }
        pos = end + 1;
        size_t a = line, b = end;
        while (a < b && (buf[a] == ' ' || buf[a] == '\t')) a++;
        while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\t' || buf[b - 1] == '\r')) b--;
        if (a == b || buf[a] == '#') continue;
        size_t nhex = b - a;
        for (size_t i = a; i < b; i++)
            if (mulred_hex_digit((unsigned char)buf[i]) < 0) {
                st = ef_line_error(f, start + line, err, "column %zu: '%c' is not a hex digit",
                                   i - line + 1, (unsigned char)buf[i] >= 0x20 ? buf[i] : '?');
                goto out;
            }
        if (nhex % 2) {
            st = ef_line_error(f, start + line, err, "odd number of hex digits (%zu)", nhex);
            goto out;
        }
        if (nhex / 2 > MULRED_MUHASH_MAX_ELEMENT) {
            st = ef_line_error(f, start + line, err, "element longer than %zu bytes",
                               (size_t)MULRED_MUHASH_MAX_ELEMENT);
            goto out;
        }
        mulred_hex_decode(elem, buf + a, nhex / 2, NULL);
        mulred_muhash_sink_add(sink, elem, nhex / 2, f->remove);
    }
out:
    free(buf);
    free(elem);
    return st;
}

mulred_status mulred_element_file_open(mulred_element_file **out, const char *path, bool remove,
                                       size_t chunk_bytes, bool read_stream, mulred_error *err)
{
    *out = NULL;
    mulred_element_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    f->fd = -1;
    f->remove = remove;
    f->chunk = chunk_bytes ? chunk_bytes : DEFAULT_CHUNK;
    /* Regular files are read in ranges by every rank. Streams (standard input, pipes such as
     * <(zcat list.gz), character devices) can be read only once, so one rank reads them whole. */
    struct stat sb;
    bool stream = strcmp(path, "-") == 0;
    if (!stream) {
        if (stat(path, &sb) != 0) {
            int e = errno;
            mulred_element_file_close(f);
            return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(e));
        }
        if (S_ISDIR(sb.st_mode)) {
            mulred_element_file_close(f);
            return mulred_error_set(err, MULRED_EINPUT, "%s: is a directory", path);
        }
        stream = !S_ISREG(sb.st_mode);
    }
    f->stream = stream;
    if (stream) {
        if (read_stream) {
            size_t len;
            if (mulred_read_file(path, &f->memory, &len, SIZE_MAX, NULL, err)) {
                mulred_element_file_close(f);
                return err->status;
            }
            f->size = len;
        }
    } else {
        f->fd = open(path, O_RDONLY);
        if (f->fd < 0 || fstat(f->fd, &sb) != 0) {
            int e = errno;
            mulred_element_file_close(f);
            return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(e));
        }
        f->size = (uint64_t)sb.st_size;
    }
    f->units = f->size / f->chunk + (f->size % f->chunk != 0);
    mulred_element_file_select(f, 0, f->units);
    *out = f;
    return MULRED_OK;
}

bool mulred_element_file_is_stream(const mulred_element_file *f)
{
    return f->stream;
}

uint64_t mulred_element_file_units(const mulred_element_file *f)
{
    return f->units;
}

const mulred_muhash_source *mulred_element_file_select(mulred_element_file *f, uint64_t first,
                                                       uint64_t end)
{
    MULRED_CHECK(first <= end && end <= f->units, "units [%llu, %llu) of %llu",
                 (unsigned long long)first, (unsigned long long)end, (unsigned long long)f->units);
    f->first_chunk = first;
    f->nchunks = end - first;
    f->source = (mulred_muhash_source){(size_t)f->nchunks, ef_produce, f};
    return &f->source;
}

uint64_t mulred_element_file_bytes(const mulred_element_file *f)
{
    uint64_t lo = f->first_chunk * f->chunk, hi = (f->first_chunk + f->nchunks) * f->chunk;
    if (hi > f->size) hi = f->size;
    return hi > lo ? hi - lo : 0;
}

void mulred_element_file_close(mulred_element_file *f)
{
    if (!f) return;
    if (f->fd >= 0) close(f->fd);
    free(f->memory);
    free(f->path);
    free(f);
}

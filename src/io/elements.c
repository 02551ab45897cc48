/* Hex element files, read in fixed byte ranges, and element streams, read in blocks.
 *
 * Chunk c covers bytes [c·S, (c+1)·S) and owns the lines whose first byte lies there. To find
 * its first line a chunk looks at the byte before its start; its last line may run past its end,
 * so it reads a little further, and up to one maximal line further only when that line needs
 * it. Chunks are the file's work units: ranks select contiguous runs of them (the plan is the
 * caller's, mulred/plan.h). Memory per chunk in flight: S + one maximal line. Line numbers are
 * needed only for error messages, so a failing chunk counts newlines from the start of the
 * file then, and never otherwise.
 *
 * Lines are found with memchr and decoded with the hex kernels (hex_kernels.h: AVX-512, AVX2 or
 * scalar, chosen at run time) into one element buffer, from which the sink copies them into its
 * batch. Only a line the kernel does not decode whole (a bad byte, an odd or too large count)
 * goes through the byte-by-byte checks, which name the line, the column and the byte exactly
 * as they always did.
 *
 * Streams (standard input, pipes, character devices, FIFOs) cannot be read at offsets. A read
 * stream is a source of STREAM_CHUNKS chunks that do not stand for parts of the input: every
 * chunk's call takes the next block of whole lines (under a lock), parses it without the lock,
 * and takes the next, until the blocks end; so the threads that run the chunks parse and hash
 * blocks in parallel, and memory is one block per thread, whatever the stream's length. Blocks
 * come from a line reader (the carried partial line of the block before, then reads up to
 * MULRED_SOURCE_LINE_BLOCK bytes, up to its last newline), the stream's own or, under several
 * ranks, one on rank 0 that hands blocks out (mulred_source_file_stream_from). MuHash is a product,
 * so the order in which blocks are hashed does not change the digest. Each block carries the number
 * of its first line, so a failing block names its line; every call waits for the blocks in flight
 * before it returns, so the error returned is always the one of the first failing line among the
 * blocks taken. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "io/hex_kernels.h"
#include "mulred/sources.h"
#include "util/util.h"

enum { DEFAULT_CHUNK = 1 << 18 };
/* A line holds at most one element of MULRED_MUHASH_MAX_ELEMENT bytes as hex, plus slack for
 * surrounding blanks and a CR. */
#define MAX_LINE (2 * MULRED_MUHASH_MAX_ELEMENT + 256)
/* Bytes read past a chunk's end at first: enough for the last line of element files as they
 * are (elements of tens to hundreds of bytes); a longer last line is read when met. */
#define CHUNK_SLACK 4096
/* Streams: the number of chunks of the source (the threads that can share it). Blocks
 * (MULRED_SOURCE_LINE_BLOCK bytes) are longer than MAX_LINE + 1, so a block with no newline holds a
 * line too long. */
#define STREAM_CHUNKS 256
_Static_assert(MULRED_SOURCE_LINE_BLOCK > MAX_LINE + 1, "a block holds a longest line");

/* A failure found while parsing: the byte offset of its line in the buffer, and the reason
 * (the part of the message after "FILE:LINE: "). */
typedef struct {
    size_t line;
    char why[160];
} parse_failure;

/* Lines to parse: those of buf[0..got) that start at pos and before hi; whole: the buffer ends
 * at the end of the input (its last line may end there, without a newline). */
typedef struct {
    const char *buf;
    size_t got, pos, hi;
    bool whole;
} line_span;

/* A stream read in blocks of whole lines (mulred_source_lines_next). */
struct mulred_source_lines {
    char *path;
    int fd;
    bool close_fd, owns_stdin, eof;
    /* MULRED_SOURCE_LINE_BLOCK bytes: the partial line after the last block's newline */
    char *carry;
    size_t carry_len;
    uint64_t bytes; /* bytes read from the stream */
    uint64_t line;  /* the number of the next block's first line */
};

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t idle;
    mulred_source_lines *reader; /* the stream's own reader, or NULL: blocks come from next */
    mulred_source_block_fn next;
    void *ctx;
    bool done;           /* the source has no more blocks */
    uint64_t bytes;      /* bytes of the blocks taken */
    int in_flight;       /* blocks taken and not finished */
    bool failed;         /* a block failed; no more are taken */
    uint64_t fail_line;  /* the failing line (UINT64_MAX: a failure of the source) */
    bool fail_is_source; /* fail_why is the whole message */
    mulred_status fail_status;
    char fail_why[512];
} stream_state;

/* Set while an open element file streams standard input. */
static atomic_int stdin_taken;

struct mulred_source_file {
    char *path;
    int fd; /* -1 for a stream */
    uint64_t size;
    size_t chunk;
    uint64_t units;                /* ⌈size / chunk⌉; STREAM_CHUNKS for a read stream */
    uint64_t first_chunk, nchunks; /* the selected units */
    bool remove, stream;
    stream_state *st; /* a read stream */
    mulred_muhash_source source;
};

static mulred_status ef_read(const mulred_source_file *f, char *buf, uint64_t off, size_t len,
                             size_t *got, mulred_error *err)
{
    if (off >= f->size) {
        *got = 0;
        return MULRED_OK;
    }
    if (len > f->size - off) len = (size_t)(f->size - off);
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
static uint64_t ef_line_number(const mulred_source_file *f, uint64_t off)
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

static mulred_status fail(parse_failure *pf, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static mulred_status fail(parse_failure *pf, size_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pf->why, sizeof pf->why, fmt, ap);
    va_end(ap);
    pf->line = line;
    return MULRED_EINPUT;
}

/* The checks of one line buf[line..end) (end: its newline or the buffer's end) that the kernel
 * did not pass, byte by byte, in the order that decides which error a bad line reports. */
static mulred_status line_failure(const char *buf, size_t line, size_t a, size_t b,
                                  parse_failure *pf)
{
    for (size_t i = a; i < b; i++)
        if (mulred_hex_digit((unsigned char)buf[i]) < 0)
            return fail(pf, line, "column %zu: '%c' is not a hex digit", i - line + 1,
                        (unsigned char)buf[i] >= 0x20 ? buf[i] : '?');
    const size_t nhex = b - a;
    if (nhex % 2) return fail(pf, line, "odd number of hex digits (%zu)", nhex);
    return fail(pf, line, "element longer than %zu bytes", (size_t)MULRED_MUHASH_MAX_ELEMENT);
}

/* Parses the lines of span into sink (elem: scratch for one element). A line must end inside
 * the buffer unless the buffer ends at the end of the input (whole); otherwise *more is set to
 * the offset of the line that needs more bytes, and parsing stops there (MULRED_OK). */
static mulred_status parse_lines(const line_span *span, uint8_t *elem, mulred_muhash_sink *sink,
                                 bool remove, size_t *more, parse_failure *pf)
{
    const mulred_hex_kernel *k = mulred_hex_kernel_active();
    const char *buf = span->buf;
    const size_t got = span->got, hi = span->hi;
    const bool whole = span->whole;
    size_t pos = span->pos;
    mulred_status rc = MULRED_OK;
    *more = SIZE_MAX;
    while (pos < hi && pos < got) {
        const size_t line = pos;
        const char *q = memchr(buf + pos, '\n', got - pos);
        size_t end = q ? (size_t)(q - buf) : got;
        if (!q && !whole && end - line <= MAX_LINE) {
            *more = line;
            break;
        }
        /* The limit holds wherever the line sits (a line must not be accepted or refused
         * depending on the chunk size). */
        if (end - line > MAX_LINE) {
            rc = fail(pf, line, "line longer than %zu characters", (size_t)MAX_LINE);
            break;
        }
        pos = end + 1;
        size_t a = line, b = end;
        while (a < b && (buf[a] == ' ' || buf[a] == '\t')) a++;
        while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\t' || buf[b - 1] == '\r')) b--;
        if (a == b || buf[a] == '#') continue;
        const size_t nhex = b - a;
        if (nhex % 2 || nhex / 2 > MULRED_MUHASH_MAX_ELEMENT ||
            k->decode(elem, buf + a, nhex / 2) != nhex) {
            rc = line_failure(buf, line, a, b, pf);
            break;
        }
        mulred_muhash_sink_add(sink, elem, nhex / 2, remove);
    }
    return rc;
}

static mulred_status ef_produce(void *vf, size_t c, mulred_muhash_sink *sink, mulred_error *err)
{
    const mulred_source_file *f = vf;
    uint64_t lo = (f->first_chunk + c) * f->chunk, hi = lo + f->chunk;
    if (hi > f->size) hi = f->size;
    uint64_t start = lo ? lo - 1 : 0;
    /* the buffer reaches MAX_LINE + 1 bytes past any line start before hi, so a line that does
     * not end in it is too long */
    size_t cap = (size_t)(hi - start) + MAX_LINE + 1, got;
    char *buf = malloc(cap + MULRED_MUHASH_MAX_ELEMENT);
    uint8_t *elem = (uint8_t *)buf + cap;
    mulred_status st = MULRED_OK;
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    size_t first =
        (size_t)(hi - start) + CHUNK_SLACK < cap ? (size_t)(hi - start) + CHUNK_SLACK : cap;
    if ((st = ef_read(f, buf, start, first, &got, err))) goto out;
    size_t pos = 0;
    if (lo) { /* skip the line that started in the previous chunk */
        const char *q = memchr(buf, '\n', got);
        if (q)
            pos = (size_t)(q - buf) + 1;
        else { /* it runs past the first read: read the rest, and look again */
            size_t more;
            if ((st = ef_read(f, buf + got, start + got, cap - got, &more, err))) goto out;
            got += more;
            q = memchr(buf, '\n', got);
            pos = q ? (size_t)(q - buf) + 1 : got + 1;
        }
    }
    bool whole = start + got >= f->size || got == cap;
    for (;;) {
        size_t more;
        parse_failure pf;
        const line_span span = {buf, got, pos, (size_t)(hi - start), whole};
        mulred_status rc = parse_lines(&span, elem, sink, f->remove, &more, &pf);
        if (rc) {
            st = mulred_error_set(err, MULRED_EINPUT, "%s:%llu: %s", f->path,
                                  (unsigned long long)ef_line_number(f, start + pf.line), pf.why);
            break;
        }
        if (more == SIZE_MAX) break;
        /* the last line needs the bytes after the first read */
        size_t n;
        if ((st = ef_read(f, buf + got, start + got, cap - got, &n, err))) break;
        got += n;
        pos = more;
        whole = true; /* up to MAX_LINE + 1 bytes past the line or the input's end */
    }
out:
    free(buf);
    return st;
}

/* ---- streams ---- */

/* Takes the next block into buf (MULRED_SOURCE_LINE_BLOCK bytes): returns its length and first
 * line, or 0 when the stream is done (ended or failed). Called with the lock held. */
static size_t stream_take(stream_state *s, char *buf, uint64_t *first_line)
{
    if (s->failed || s->done) return 0;
    size_t len = 0;
    mulred_error e;
    mulred_error_clear(&e);
    if (s->next(s->ctx, buf, &len, first_line, &e)) {
        s->failed = true;
        s->fail_line = UINT64_MAX;
        s->fail_is_source = true;
        s->fail_status = e.status;
        snprintf(s->fail_why, sizeof s->fail_why, "%s", e.message);
        return 0;
    }
    if (len == 0) {
        s->done = true;
        return 0;
    }
    s->bytes += len;
    s->in_flight++;
    return len;
}

static void stream_done(stream_state *s, uint64_t first_line, mulred_status rc, const char *buf,
                        const parse_failure *pf)
{
    if (rc) {
        uint64_t line = first_line;
        for (size_t i = 0; i < pf->line; i++) line += buf[i] == '\n';
        if (!s->failed || line < s->fail_line) {
            s->failed = true;
            s->fail_line = line;
            s->fail_is_source = false;
            s->fail_status = MULRED_EINPUT;
            snprintf(s->fail_why, sizeof s->fail_why, "%s", pf->why);
        }
    }
    s->in_flight--;
    pthread_cond_broadcast(&s->idle);
}

static mulred_status stream_produce(void *vf, size_t c, mulred_muhash_sink *sink, mulred_error *err)
{
    (void)c; /* every chunk takes blocks until the stream is done */
    const mulred_source_file *f = vf;
    stream_state *s = f->st;
    char *buf = malloc(MULRED_SOURCE_LINE_BLOCK + MULRED_MUHASH_MAX_ELEMENT);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    uint8_t *elem = (uint8_t *)buf + MULRED_SOURCE_LINE_BLOCK;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        uint64_t first_line;
        const size_t len = stream_take(s, buf, &first_line);
        if (!len) break;
        pthread_mutex_unlock(&s->lock);
        size_t more;
        parse_failure pf;
        const line_span span = {buf, len, 0, len, true};
        mulred_status rc = parse_lines(&span, elem, sink, f->remove, &more, &pf);
        pthread_mutex_lock(&s->lock);
        stream_done(s, first_line, rc, buf, &pf);
    }
    while (s->in_flight) pthread_cond_wait(&s->idle, &s->lock);
    mulred_status st = MULRED_OK;
    if (s->failed) {
        if (s->fail_is_source)
            st = mulred_error_set(err, s->fail_status, "%s", s->fail_why);
        else
            st = mulred_error_set(err, MULRED_EINPUT, "%s:%llu: %s", f->path,
                                  (unsigned long long)s->fail_line, s->fail_why);
    }
    pthread_mutex_unlock(&s->lock);
    free(buf);
    return st;
}

mulred_status mulred_source_lines_next(mulred_source_lines *r, char *buf, size_t *len,
                                       uint64_t *first_line, mulred_error *err)
{
    *len = 0;
    *first_line = r->line;
    size_t n = r->carry_len;
    memcpy(buf, r->carry, n);
    r->carry_len = 0;
    while (n < MULRED_SOURCE_LINE_BLOCK && !r->eof) {
        ssize_t got = read(r->fd, buf + n, MULRED_SOURCE_LINE_BLOCK - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            return mulred_error_set(err, MULRED_EINPUT, "%s: read error at byte %llu: %s", r->path,
                                    (unsigned long long)r->bytes, strerror(errno));
        if (got == 0) r->eof = true;
        n += (size_t)got;
        r->bytes += (uint64_t)got;
    }
    if (n == 0) return MULRED_OK;
    if (!r->eof) { /* up to the last newline; a block without one holds a line too long */
        const char *q = memrchr(buf, '\n', n);
        if (q) {
            const size_t cut = (size_t)(q - buf) + 1;
            r->carry_len = n - cut;
            memcpy(r->carry, buf + cut, r->carry_len);
            n = cut;
        }
    }
    for (const char *p = buf, *end = buf + n; (p = memchr(p, '\n', (size_t)(end - p))); p++)
        r->line++;
    *len = n;
    return MULRED_OK;
}

uint64_t mulred_source_lines_bytes(const mulred_source_lines *r)
{
    return r->bytes;
}

static mulred_status reader_next(void *ctx, char *buf, size_t *len, uint64_t *first_line,
                                 mulred_error *err)
{
    return mulred_source_lines_next(ctx, buf, len, first_line, err);
}

/* Opens a stream for reading: standard input, or path (a FIFO without a writer is refused, as
 * mulred_read_file does, and never waited for). */
mulred_status mulred_source_lines_open(mulred_source_lines **out, const char *path,
                                       mulred_error *err)
{
    *out = NULL;
    mulred_source_lines *r = calloc(1, sizeof *r);
    if (!r || !(r->carry = malloc(MULRED_SOURCE_LINE_BLOCK)) || !(r->path = strdup(path))) {
        if (r) free(r->carry);
        free(r);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    r->line = 1;
    r->fd = STDIN_FILENO;
    if (strcmp(path, "-") == 0) {
        /* "-" given twice in one job: the first takes the whole stream, the second finds it at
         * its end (as when standard input was read whole at the first open) */
        int expected = 0;
        if (!atomic_compare_exchange_strong(&stdin_taken, &expected, 1))
            r->eof = true;
        else
            r->owns_stdin = true;
        *out = r;
        return MULRED_OK;
    }
    mulred_status st = MULRED_OK;
    r->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (r->fd < 0) {
        st = mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        goto fail;
    }
    r->close_fd = true;
    struct stat sb;
    struct statfs sf;
    if (fstat(r->fd, &sb) == 0 && S_ISFIFO(sb.st_mode) &&
        !(fstatfs(r->fd, &sf) == 0 && sf.f_type == PIPEFS_MAGIC)) {
        ssize_t n;
        do n = read(r->fd, r->carry, 1);
        while (n < 0 && errno == EINTR);
        if (n == 0) {
            st = mulred_error_set(err, MULRED_EINPUT,
                                  "%s: a FIFO with no writer (start its writer first)", path);
            goto fail;
        }
        if (n < 0 && errno != EAGAIN) {
            st = mulred_error_set(err, MULRED_EINPUT, "%s: read error at byte 0: %s", path,
                                  strerror(errno));
            goto fail;
        }
        r->carry_len = n == 1 ? 1 : 0;
        r->bytes = r->carry_len;
    }
    int flags = fcntl(r->fd, F_GETFL);
    if (flags < 0 || fcntl(r->fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        st = mulred_error_set(err, MULRED_ERUNTIME, "%s: fcntl: %s", path, strerror(errno));
        goto fail;
    }
    *out = r;
    return MULRED_OK;
fail:
    mulred_source_lines_close(r);
    return st;
}

void mulred_source_lines_close(mulred_source_lines *r)
{
    if (!r) return;
    if (r->close_fd && r->fd >= 0) close(r->fd);
    if (r->owns_stdin) atomic_store(&stdin_taken, 0);
    free(r->carry);
    free(r->path);
    free(r);
}

static stream_state *stream_new(void)
{
    stream_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->idle, NULL);
    return s;
}

static void stream_close(stream_state *s)
{
    if (!s) return;
    mulred_source_lines_close(s->reader);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->idle);
    free(s);
}

static void stream_attach(mulred_source_file *f, stream_state *s)
{
    f->st = s;
    f->units = STREAM_CHUNKS;
    mulred_source_file_select(f, 0, f->units);
}

mulred_status mulred_source_file_stream_from(mulred_source_file *f, mulred_source_block_fn next,
                                             void *ctx, mulred_error *err)
{
    MULRED_CHECK(f->stream && !f->st, "an unread stream");
    stream_state *s = stream_new();
    if (!s) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    s->next = next, s->ctx = ctx;
    stream_attach(f, s);
    return MULRED_OK;
}

mulred_status mulred_source_file_open(mulred_source_file **out, const char *path, bool remove,
                                      size_t chunk_bytes, bool read_stream, mulred_error *err)
{
    *out = NULL;
    mulred_source_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    f->fd = -1;
    f->remove = remove;
    f->chunk = chunk_bytes ? chunk_bytes : DEFAULT_CHUNK;
    /* Regular files are read in ranges by every rank. Streams (standard input, pipes such as
     * <(zcat list.gz), character devices) can be read only once, so one rank reads them. */
    struct stat sb;
    bool stream = strcmp(path, "-") == 0;
    if (!stream) {
        if (stat(path, &sb) != 0) {
            int e = errno;
            mulred_source_file_close(f);
            return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(e));
        }
        if (S_ISDIR(sb.st_mode)) {
            mulred_source_file_close(f);
            return mulred_error_set(err, MULRED_EINPUT, "%s: is a directory", path);
        }
        stream = !S_ISREG(sb.st_mode);
    }
    f->stream = stream;
    if (stream) {
        if (read_stream) {
            stream_state *s = stream_new();
            if (!s || mulred_source_lines_open(&s->reader, path, err)) {
                if (!s) mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
                stream_close(s);
                mulred_source_file_close(f);
                return err->status;
            }
            s->next = reader_next, s->ctx = s->reader;
            stream_attach(f, s);
            *out = f;
            return MULRED_OK;
        }
    } else {
        f->fd = open(path, O_RDONLY);
        if (f->fd < 0 || fstat(f->fd, &sb) != 0) {
            int e = errno;
            mulred_source_file_close(f);
            return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(e));
        }
        f->size = (uint64_t)sb.st_size;
        f->units = f->size / f->chunk + (f->size % f->chunk != 0);
    }
    mulred_source_file_select(f, 0, f->units);
    *out = f;
    return MULRED_OK;
}

bool mulred_source_file_is_stream(const mulred_source_file *f)
{
    return f->stream;
}

uint64_t mulred_source_file_units(const mulred_source_file *f)
{
    return f->units;
}

const mulred_muhash_source *mulred_source_file_select(mulred_source_file *f, uint64_t first,
                                                      uint64_t end)
{
    MULRED_CHECK(first <= end && end <= f->units, "units [%llu, %llu) of %llu",
                 (unsigned long long)first, (unsigned long long)end, (unsigned long long)f->units);
    f->first_chunk = first;
    f->nchunks = end - first;
    f->source = (mulred_muhash_source){(size_t)f->nchunks, f->st ? stream_produce : ef_produce, f};
    return &f->source;
}

uint64_t mulred_source_file_bytes(const mulred_source_file *f)
{
    if (f->st) {
        pthread_mutex_lock(&f->st->lock);
        const uint64_t n = f->st->bytes;
        pthread_mutex_unlock(&f->st->lock);
        return n;
    }
    uint64_t lo = f->first_chunk * f->chunk, hi = (f->first_chunk + f->nchunks) * f->chunk;
    if (hi > f->size) hi = f->size;
    return hi > lo ? hi - lo : 0;
}

void mulred_source_file_close(mulred_source_file *f)
{
    if (!f) return;
    if (f->fd >= 0) close(f->fd);
    stream_close(f->st);
    free(f->path);
    free(f);
}

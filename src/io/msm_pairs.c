/* Pair files of an MSM (mulred/msm_io.h): binary or hex records of a point and a scalar, read
 * by slices. The per-record work (decoding, the checks) is in msm_pairs_threads.c; this file
 * finds and reads bytes.
 *
 * Hex text. Whether a byte is a digit depends on at most its two predecessors and its
 * successor (a '0' followed by 'x' at a token start is a prefix, not a digit), so any byte
 * range is classified on its own from the bytes around it: the count pass reads each unit
 * with 2 bytes before and 1 after, and a slice is parsed from the byte of its first digit. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/hex_kernels.h"
#include "io/msm_io_internal.h"
#include "msm/bases_internal.h"
#include "mulred/msm_io.h"
#include "util/check.h"
#include "util/util.h"

struct mulred_msm_file {
    char *path;
    int fd;
    uint64_t size;
    mulred_curve curve;
    bool binary;
    size_t record; /* R */
    uint64_t unit; /* bytes per unit of the count pass */
    uint64_t units;
    uint64_t *cum; /* hex: digits before unit u, u = 0..units (after index) */
    uint64_t pairs;
    bool indexed;
};

size_t mulred_msm_record_bytes(mulred_curve c)
{
    return mulred_msm_result_bytes(c) + 32; /* a point as the result's encoding, a scalar */
}

mulred_status mulred_msm_file_open(mulred_msm_file **out, const char *path, mulred_curve c,
                                   bool binary, size_t unit_bytes, mulred_error *err)
{
    *out = NULL;
    mulred_msm_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    f->fd = -1;
    f->curve = c;
    f->binary = binary;
    f->record = mulred_msm_record_bytes(c);
    f->unit = unit_bytes ? unit_bytes : MULRED_MSM_FILE_UNIT;
    MULRED_CHECK(f->unit >= 1 && f->unit <= MULRED_MSM_FILE_UNIT, "unit of %zu bytes (1..%u)",
                 unit_bytes, MULRED_MSM_FILE_UNIT);
    struct stat st;
    int rc = MULRED_OK;
    /* O_NONBLOCK: a FIFO without a writer must not block the open (it is refused below as
     * not a regular file); reads of a regular file ignore the flag */
    if ((f->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
        rc = mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    else if (fstat(f->fd, &st) != 0)
        rc = mulred_error_set(err, MULRED_EINPUT, "%s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = mulred_error_set(err, MULRED_EINPUT,
                              "%s: not a regular file (pair files are read at offsets by every "
                              "rank)",
                              path);
    if (rc) {
        mulred_msm_file_close(f);
        return rc;
    }
    f->size = (uint64_t)st.st_size;
    if (binary) {
        f->pairs = f->size / f->record;
        if (f->size == 0)
            rc = mulred_error_set(err, MULRED_EINPUT, "%s: no pairs (empty input)", path);
        else if (f->size % f->record)
            rc = mulred_error_set(err, MULRED_EINPUT,
                                  "%s: pair %llu (byte %llu): incomplete: %llu of %zu bytes (%llu "
                                  "bytes: not a whole number of %zu-byte pairs)",
                                  path, (unsigned long long)f->pairs,
                                  (unsigned long long)(f->pairs * f->record),
                                  (unsigned long long)(f->size % f->record), f->record,
                                  (unsigned long long)f->size, f->record);
        f->indexed = true;
    } else {
        f->units = f->size / f->unit + (f->size % f->unit != 0);
        if (!f->units) f->units = 1;
    }
    if (rc) {
        mulred_msm_file_close(f);
        return rc;
    }
    *out = f;
    return MULRED_OK;
}

void mulred_msm_file_close(mulred_msm_file *f)
{
    if (!f) return;
    if (f->fd >= 0) close(f->fd);
    free(f->cum);
    free(f->path);
    free(f);
}

uint64_t mulred_msm_file_units(const mulred_msm_file *f)
{
    return f->binary ? 0 : f->units;
}

uint64_t mulred_msm_file_pairs(const mulred_msm_file *f)
{
    MULRED_CHECK(f->indexed, "%s: pair count asked before mulred_msm_file_index", f->path);
    return f->pairs;
}

/* Reads exactly len bytes at off (len may be 0). */
static mulred_status read_at(const mulred_msm_file *f, uint8_t *buf, size_t len, uint64_t off,
                             mulred_error *err)
{
    while (len) {
        ssize_t got = pread(f->fd, buf, len, (off_t)off);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            return mulred_error_set(err, MULRED_EINPUT, "%s: byte %llu: %s", f->path,
                                    (unsigned long long)off,
                                    got < 0 ? strerror(errno) : "file shrank while read");
        buf += got, len -= (size_t)got, off += (uint64_t)got;
    }
    return MULRED_OK;
}

/* ---- hex classification ---- */

static bool is_space(int b)
{
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f';
}

enum { BYTE_SPACE, BYTE_DIGIT, BYTE_PREFIX, BYTE_BAD };

/* A window of the file: bytes [base, base + len) in buf. */
typedef struct {
    const uint8_t *buf;
    uint64_t base, len;
} window;

/* Byte at offset i, or -1 outside the window (the file's start or end; windows always hold
 * the neighbours that exist). */
static int byte_at(const window *w, uint64_t i)
{
    return i >= w->base && i - w->base < w->len ? w->buf[i - w->base] : -1;
}

/* The class of byte i (needs bytes i − 2 .. i + 1 in the window when they exist). */
static int classify(const window *w, uint64_t i)
{
    const int b = byte_at(w, i);
    if (is_space(b)) return BYTE_SPACE;
    const int prev = i ? byte_at(w, i - 1) : -1;
    const bool token_start = i == 0 || is_space(prev);
    if (b == '0' && token_start) {
        const int next = byte_at(w, i + 1);
        if (next == 'x' || next == 'X') return BYTE_PREFIX;
    }
    if (mulred_hex_digit(b) >= 0) return BYTE_DIGIT;
    if ((b == 'x' || b == 'X') && prev == '0' &&
        (i == 1 || (i >= 2 && is_space(byte_at(w, i - 2)))))
        return BYTE_PREFIX;
    return BYTE_BAD;
}

/* The fast path of classify: 0..15 the value of a hex digit, HX_SPACE, HX_X ('x', 'X': a
 * prefix's second byte or bad) or HX_BAD. A digit '0' may still be a prefix's first byte
 * (zero_is_prefix). One table load a byte: the full classify of every byte is far dearer
 * (docs/kernels.md). */
enum { HX_SPACE = 16, HX_X = 17, HX_BAD = 18 };
/* clang-format off */
static const uint8_t hex_classes[256] = {
    18, 18, 18, 18, 18, 18, 18, 18, 18, 16, 16, 16, 16, 16, 18, 18,  /* 0x00 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0x10 */
    16, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0x20 */
     0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 18, 18, 18, 18, 18, 18,  /* 0x30 */
    18, 10, 11, 12, 13, 14, 15, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0x40 */
    18, 18, 18, 18, 18, 18, 18, 18, 17, 18, 18, 18, 18, 18, 18, 18,  /* 0x50 */
    18, 10, 11, 12, 13, 14, 15, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0x60 */
    18, 18, 18, 18, 18, 18, 18, 18, 17, 18, 18, 18, 18, 18, 18, 18,  /* 0x70 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0x80 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0x90 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0xa0 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0xb0 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0xc0 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0xd0 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0xe0 */
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,  /* 0xf0 */
};
/* clang-format on */
static inline int hex_class(unsigned b)
{
    return hex_classes[b & 0xff];
}

/* Is the '0' at offset i the first byte of a "0x" prefix? */
static inline bool zero_is_prefix(const window *w, uint64_t i)
{
    const int next = byte_at(w, i + 1);
    return (next == 'x' || next == 'X') && (i == 0 || is_space(byte_at(w, i - 1)));
}

/* Reads [lo − 2, hi + 1) ∩ [0, size) into buf (hi − lo + 3 bytes) as a window. */
static int read_window(window *w, uint8_t *buf, const mulred_msm_file *f, uint64_t lo, uint64_t hi,
                       mulred_error *err)
{
    const uint64_t a = lo >= 2 ? lo - 2 : 0, b = hi + 1 < f->size ? hi + 1 : f->size;
    w->buf = buf, w->base = a, w->len = b - a;
    return read_at(f, buf, (size_t)(b - a), a, err);
}

static mulred_status bad_byte(const mulred_msm_file *f, const window *w, uint64_t i,
                              mulred_error *err)
{
    const int b = byte_at(w, i);
    if (b >= 0x21 && b < 0x7f)
        return mulred_error_set(err, MULRED_EINPUT, "%s: byte %llu: '%c' is not a hex digit",
                                f->path, (unsigned long long)i, b);
    return mulred_error_set(err, MULRED_EINPUT, "%s: byte %llu: 0x%02x is not a hex digit", f->path,
                            (unsigned long long)i, (unsigned)b);
}

static int incomplete_record(const mulred_msm_file *f, uint64_t total, mulred_error *err);

mulred_status mulred_msm_file_count(uint64_t *digits, mulred_msm_file *f, uint64_t first,
                                    uint64_t end, mulred_error *err)
{
    MULRED_CHECK(!f->binary, "%s: a binary pair file has no count pass", f->path);
    MULRED_CHECK(first <= end && end <= f->units, "units [%llu, %llu) of %llu",
                 (unsigned long long)first, (unsigned long long)end, (unsigned long long)f->units);
    uint8_t *buf = malloc(f->unit + 3);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    const mulred_hex_kernel *kern = mulred_hex_kernel_active();
    int rc = MULRED_OK;
    for (uint64_t u = first; u < end && rc == MULRED_OK; u++) {
        const uint64_t lo = u * f->unit;
        const uint64_t hi = lo + f->unit < f->size ? lo + f->unit : f->size;
        window w;
        uint64_t count = 0;
        if ((rc = read_window(&w, buf, f, lo, hi, err))) break;
        const uint8_t *p = w.buf - w.base;
        for (uint64_t i = lo; i < hi; i++) {
            /* The kernel counts the digits and blanks of [i, hi − 1) up to the first other
             * byte; a '0' it counted just before an 'x' may be a prefix. That byte (or the
             * unit's last one, whose successor the kernel does not see) is classified below. */
            if (i + 1 < hi) {
                size_t stop;
                count += kern->count((const char *)p + i, (size_t)(hi - 1 - i), &stop);
                if (stop && p[i + stop - 1] == '0' && zero_is_prefix(&w, i + stop - 1)) count--;
                i += stop;
            }
            const int k = hex_class(p[i]);
            if (k < 16) {
                count += !(p[i] == '0' && zero_is_prefix(&w, i));
            } else if (k != HX_SPACE && classify(&w, i) != BYTE_PREFIX) {
                rc = bad_byte(f, &w, i, err);
                break;
            }
        }
        digits[u - first] = count;
    }
    free(buf);
    return rc;
}

mulred_status mulred_msm_file_index(mulred_msm_file *f, const uint64_t *digits, mulred_error *err)
{
    if (f->binary) return MULRED_OK;
    free(f->cum);
    f->cum = malloc((f->units + 1) * sizeof *f->cum);
    if (!f->cum) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    f->cum[0] = 0;
    for (uint64_t u = 0; u < f->units; u++) {
        MULRED_CHECK(digits[u] <= f->unit, "unit %llu holds %llu digits", (unsigned long long)u,
                     (unsigned long long)digits[u]);
        f->cum[u + 1] = f->cum[u] + digits[u];
    }
    const uint64_t total = f->cum[f->units], per = 2 * (uint64_t)f->record;
    if (total == 0)
        return mulred_error_set(err, MULRED_EINPUT, "%s: no pairs (empty input)", f->path);
    if (total % per) return incomplete_record(f, total, err);
    f->pairs = total / per;
    f->indexed = true;
    return MULRED_OK;
}

/* ---- reading a slice ---- */

/* A forward reader of hex digits from a byte offset: digits come out as bytes of records,
 * with the byte offset of each record's first digit. */
typedef struct {
    const mulred_msm_file *f;
    uint8_t *buf; /* MULRED_MSM_FILE_UNIT + 3 */
    window w;
    uint64_t pos;     /* next byte to classify */
    uint64_t buf_end; /* classification is valid below this offset in w */
} hex_reader;

static mulred_status hex_refill(hex_reader *r, mulred_error *err)
{
    const uint64_t hi =
        r->pos + MULRED_MSM_FILE_UNIT < r->f->size ? r->pos + MULRED_MSM_FILE_UNIT : r->f->size;
    if (read_window(&r->w, r->buf, r->f, r->pos, hi, err)) return err->status;
    r->buf_end = hi;
    return MULRED_OK;
}

/* The next digit's value and offset; -1 at the end of the file (not reached for a slice of an
 * indexed file). Bytes are known good: the count pass checked them. */
static int hex_next(hex_reader *r, uint64_t *offset, mulred_error *err)
{
    for (;;) {
        if (r->pos >= r->f->size) return -1;
        if (r->pos >= r->buf_end && hex_refill(r, err)) return -2;
        const uint64_t i = r->pos++;
        const int k = classify(&r->w, i);
        if (k == BYTE_DIGIT) {
            *offset = i;
            return mulred_hex_digit(byte_at(&r->w, i));
        }
        if (k == BYTE_BAD) return bad_byte(r->f, &r->w, i, err), -2;
    }
}

/* Positions the reader on the digit number d (counted from 0 over the file). */
static mulred_status hex_seek_digit(hex_reader *r, uint64_t d, mulred_error *err)
{
    const mulred_msm_file *f = r->f;
    uint64_t lo = 0, hi = f->units; /* the unit u with cum[u] <= d < cum[u + 1] */
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (f->cum[mid] <= d)
            lo = mid;
        else
            hi = mid;
    }
    while (lo < f->units && f->cum[lo + 1] <= d) lo++; /* skip units without digits */
    MULRED_CHECK(lo < f->units, "digit %llu beyond the file", (unsigned long long)d);
    r->pos = lo * f->unit;
    r->buf_end = 0;
    uint64_t skip = d - f->cum[lo], off;
    for (;;) {
        const int v = hex_next(r, &off, err);
        if (v == -2) return err->status;
        MULRED_CHECK(v >= 0, "digit %llu not found", (unsigned long long)d);
        if (!skip--) {
            r->pos = off; /* the next hex_next returns this digit again */
            return MULRED_OK;
        }
    }
}

/* The error of a hex file whose digits end inside a record: the record's index, and the line
 * and byte of its first digit (lines counted by '\n' from 1; a second read of the file's start,
 * on this error alone). */
static int incomplete_record(const mulred_msm_file *f, uint64_t total, mulred_error *err)
{
    const uint64_t per = 2 * (uint64_t)f->record, pair = total / per;
    uint8_t *buf = malloc(MULRED_MSM_FILE_UNIT + 3);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    hex_reader r = {.f = f, .buf = buf};
    uint64_t off = 0, line = 1;
    int rc = hex_seek_digit(&r, pair * per, err);
    if (rc == MULRED_OK) off = r.pos;
    for (uint64_t at = 0; rc == MULRED_OK && at < off;) {
        const size_t len =
            off - at < MULRED_MSM_FILE_UNIT ? (size_t)(off - at) : (size_t)MULRED_MSM_FILE_UNIT;
        if ((rc = read_at(f, buf, len, at, err))) break;
        for (size_t i = 0; i < len; i++) line += buf[i] == '\n';
        at += len;
    }
    free(buf);
    if (rc) return rc;
    return mulred_error_set(err, MULRED_EINPUT,
                            "%s: pair %llu (line %llu, byte %llu): incomplete: %llu of %llu hex "
                            "digits (%llu hex digits: not a whole number of %zu-byte pairs)",
                            f->path, (unsigned long long)pair, (unsigned long long)line,
                            (unsigned long long)off, (unsigned long long)(total - pair * per),
                            (unsigned long long)per, (unsigned long long)total, f->record);
}

/* Fills raw with m records from the reader, offsets[k] = the byte of record k's first digit:
 * one pass over the window's bytes, the rare ones ('0' before 'x', 'x') classified in full. */
static mulred_status hex_records(hex_reader *r, uint8_t *raw, uint64_t *offsets, size_t m, size_t R,
                                 mulred_error *err)
{
    const uint64_t need = 2 * (uint64_t)R * m, per = 2 * (uint64_t)R;
    const mulred_hex_kernel *kern = mulred_hex_kernel_active();
    uint64_t got = 0; /* digits so far */
    while (got < need) {
        MULRED_CHECK(r->pos < r->f->size, "%s: the file changed after its count pass", r->f->path);
        if (r->pos >= r->buf_end && hex_refill(r, err)) return err->status;
        const uint8_t *p = r->w.buf - r->w.base;
        uint64_t i = r->pos;
        while (i < r->buf_end && got < need) {
            const int k = hex_class(p[i]);
            if (k >= 16) {
                if (k != HX_SPACE && classify(&r->w, i) != BYTE_PREFIX)
                    return bad_byte(r->f, &r->w, i, err);
                i++;
                continue;
            }
            if (p[i] == '0' && zero_is_prefix(&r->w, i)) {
                i++;
                continue;
            }
            /* a run of digits from i: the kernel decodes it while got is even (a '0' inside a
             * run follows a digit, so it is never a prefix); one digit at a time otherwise */
            uint64_t run = 1;
            if (!(got & 1)) {
                const uint64_t avail = r->buf_end - i, left = need - got;
                const size_t pairs = (size_t)((avail < left ? avail : left) / 2);
                if (pairs) run = kern->decode(raw + (got >> 1), (const char *)p + i, pairs);
                if (run == 0) run = 1; /* the lone digit before a non-digit: below */
            }
            if (run & 1) { /* the last digit of the run is a high nibble or a low one */
                const uint64_t d = got + run - 1;
                const uint8_t v = (uint8_t)hex_class(p[i + run - 1]);
                if (d & 1)
                    raw[d >> 1] = (uint8_t)((raw[d >> 1] & 0xf0) | v);
                else
                    raw[d >> 1] = (uint8_t)(v << 4);
            }
            for (uint64_t d = (got + per - 1) / per * per; d < got + run; d += per)
                offsets[d / per] = i + (d - got);
            got += run;
            i += run;
        }
        r->pos = i;
    }
    return MULRED_OK;
}

/* Records per block: decoded by threads, then the next block is read. */
#define PAIR_BLOCK 16384

mulred_status mulred_msm_file_read(void *points, mulred_scalar256 *scalars, mulred_msm_file *f,
                                   uint64_t first, uint64_t end, int threads, mulred_error *err)
{
    MULRED_CHECK(f->indexed, "%s: read before mulred_msm_file_index", f->path);
    MULRED_CHECK(first <= end && end <= f->pairs, "pairs [%llu, %llu) of %llu",
                 (unsigned long long)first, (unsigned long long)end, (unsigned long long)f->pairs);
    if (first == end) return MULRED_OK;
    const size_t R = f->record, aff = mulred_msm_affine_bytes(f->curve);
    uint8_t *raw = malloc((size_t)PAIR_BLOCK * R);
    uint64_t *offsets = malloc(PAIR_BLOCK * sizeof *offsets);
    hex_reader hr = {.f = f, .buf = f->binary ? NULL : malloc(MULRED_MSM_FILE_UNIT + 3)};
    int rc = MULRED_OK;
    if (!raw || !offsets || (!f->binary && !hr.buf)) {
        rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        goto done;
    }
    if (!f->binary) rc = hex_seek_digit(&hr, first * 2 * R, err);
    for (uint64_t p = first; p < end && rc == MULRED_OK; p += PAIR_BLOCK) {
        const size_t m = end - p < PAIR_BLOCK ? (size_t)(end - p) : PAIR_BLOCK;
        if (f->binary) {
            rc = read_at(f, raw, m * R, p * R, err);
            for (size_t k = 0; k < m; k++) offsets[k] = (p + k) * R;
        } else {
            rc = hex_records(&hr, raw, offsets, m, R, err);
        }
        if (rc) break;
        size_t bad = m;
        mulred_decode_reason st =
            msm_pairs_decode((uint8_t *)points + (p - first) * aff, scalars + (p - first), raw, m,
                             R, f->curve, threads, &bad);
        if (st != MULRED_DECODE_VALID)
            rc = mulred_error_set(err, MULRED_EINPUT, "%s: pair %llu (byte %llu): point: %s",
                                  f->path, (unsigned long long)(p + bad),
                                  (unsigned long long)offsets[bad], mulred_decode_reason_text(st));
    }
done:
    free(raw);
    free(offsets);
    free(hr.buf);
    return rc;
}

static void scalar_to_be(uint8_t out[32], const mulred_scalar256 *s)
{
    for (int i = 0; i < 4; i++)
        for (int b = 0; b < 8; b++) out[(3 - i) * 8 + b] = (uint8_t)(s->l[i] >> (56 - 8 * b));
}

void mulred_msm_encode_pairs(uint8_t *out, const void *points, const mulred_scalar256 *scalars,
                             size_t n, mulred_curve c)
{
    const size_t R = mulred_msm_record_bytes(c);
    for (size_t i = 0; i < n; i++) {
        uint8_t *rec = out + i * R;
        if (c == MULRED_CURVE_BLS12_381)
            mulred_g1_381_encode_eip2537(rec, (const mulred_g1_381_affine *)points + i);
        else if (c == MULRED_CURVE_BN254)
            mulred_g1_254_encode_eip196(rec, (const mulred_g1_254_affine *)points + i);
        else if (c == MULRED_CURVE_BLS12_381_G2)
            mulred_g2_381_encode_eip2537(rec, (const mulred_g2_381_affine *)points + i);
        else
            mulred_g2_254_encode_eip197(rec, (const mulred_g2_254_affine *)points + i);
        scalar_to_be(rec + R - 32, &scalars[i]);
    }
}

/* ---- bytes in, bytes out ---- */

size_t mulred_msm_result_bytes(mulred_curve c)
{
    MULRED_CHECK(c == MULRED_CURVE_BLS12_381 || c == MULRED_CURVE_BN254 ||
                     c == MULRED_CURVE_BLS12_381_G2 || c == MULRED_CURVE_BN254_G2,
                 "unknown curve %d", (int)c);
    static const size_t bytes[4] = {128, 64, 256, 128};
    return bytes[c];
}

mulred_status mulred_msm_encoded(uint8_t *out, size_t out_len, mulred_curve c,
                                 const uint8_t *records, size_t len, int threads, mulred_error *err)
{
    MULRED_ARG_CHECK(c == MULRED_CURVE_BLS12_381 || c == MULRED_CURVE_BN254 ||
                     c == MULRED_CURVE_BLS12_381_G2 || c == MULRED_CURVE_BN254_G2);
    MULRED_ARG_CHECK(out != NULL);
    MULRED_ARG_CHECK(out_len >= mulred_msm_result_bytes(c));
    MULRED_ARG_CHECK(records != NULL || len == 0);
    const size_t R = mulred_msm_record_bytes(c);
    if (len % R)
        return mulred_error_set(err, MULRED_EINPUT,
                                "%zu bytes: not a whole number of %zu-byte records", len, R);
    const size_t n = len / R;
    /* as a pair file and EIP-2537's MSM precompile: an empty input is an error, not infinity */
    if (n == 0) return mulred_error_set(err, MULRED_EINPUT, "no pairs (empty input)");
    const size_t aff = mulred_msm_affine_bytes(c);
    if (n > SIZE_MAX / aff) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    void *points = mulred_alloc_large(n * aff);
    mulred_scalar256 *scalars = mulred_alloc_large(n * sizeof *scalars);
    int rc = MULRED_OK;
    if (!points || !scalars) {
        rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        goto done;
    }
    size_t bad = n;
    mulred_decode_reason why = msm_pairs_decode(points, scalars, records, n, R, c, threads, &bad);
    if (why == MULRED_DECODE_VALID) {
        bad = msm_subgroup_lowest(points, n, c, threads);
        if (bad < n)
            why = mulred_curve_group(c) == MULRED_GROUP_G2 ? MULRED_DECODE_ESUBGROUP_G2
                                                           : MULRED_DECODE_ESUBGROUP;
    }
    if (why != MULRED_DECODE_VALID) {
        rc = mulred_error_set(err, MULRED_EINPUT, "record %zu: point: %s", bad,
                              mulred_decode_reason_text(why));
        goto done;
    }
    union {
        mulred_g1_381_jacobian b381;
        mulred_g1_254_jacobian b254;
        mulred_g2_381_jacobian c381;
        mulred_g2_254_jacobian c254;
    } sum;
    mulred_msm_plan plan;
    mulred_msm_curve_plan(c, &plan, n, NULL);
    rc =
        mulred_msm_curve_windows(c, &sum, &plan, 0, plan.windows, points, scalars, n, threads, err);
    if (rc == MULRED_OK) mulred_msm_curve_encode(c, out, &sum);
done:
    free(points);
    free(scalars);
    return rc;
}

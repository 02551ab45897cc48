/* Base sets from files and the trusted cache (include/mulred/bases_io.h). The cache holds the
 * points as the engine keeps them, so loading costs a read and one SHA-256 over the file instead
 * of decoding and the subgroup checks (about 127 doublings a point on BLS12-381). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash/hash.h"
#include "io/cache_dir.h"
#include "msm/bases_internal.h"
#include "msm/msm_internal.h"
#include "mulred/bases_io.h"
#include "util/check.h"
#include "util/util.h"

/* ---- files ----------------------------------------------------------------------------------- */

/* The whole of path ("-": standard input) into *out. */
static mulred_status slurp(uint8_t **out, size_t *len, const char *path, mulred_error *err)
{
    const bool in = strcmp(path, "-") == 0;
    FILE *f = in ? stdin : fopen(path, "rb");
    if (!f)
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (!in && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) { /* bad input, as missing */
        fclose(f);
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot read: %s", path, strerror(EISDIR));
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got = 1; buf && got > 0;) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb) free(buf);
            buf = nb;
            if (!buf) break;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    }
    const bool bad = buf && ferror(f);
    if (!in) fclose(f);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", path);
    if (bad) {
        free(buf);
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: read error", path);
    }
    *out = buf, *len = n;
    return MULRED_OK;
}

static int hex_value(uint8_t c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool is_blank(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Decodes hex text in place (buf[0..*len) becomes the bytes): whitespace anywhere, "0x" at the
 * start of a token. */
static mulred_status unhex(uint8_t *buf, size_t *len, const char *path, mulred_error *err)
{
    size_t out = 0, digits = 0, last = 0, line = 1, last_line = 1;
    int hi = 0;
    for (size_t i = 0; i < *len; i++) {
        const uint8_t c = buf[i];
        line += c == '\n';
        if (is_blank(c)) continue;
        const bool token_start = i == 0 || is_blank(buf[i - 1]);
        if (token_start && c == '0' && i + 1 < *len && (buf[i + 1] == 'x' || buf[i + 1] == 'X')) {
            i++;
            continue;
        }
        const int v = hex_value(c);
        if (v < 0) {
            if (c >= 0x21 && c < 0x7f)
                return mulred_error_set(err, MULRED_EINPUT, "%s: byte %zu: '%c' is not a hex digit",
                                        path, i, c);
            return mulred_error_set(err, MULRED_EINPUT, "%s: byte %zu: 0x%02x is not a hex digit",
                                    path, i, c);
        }
        if (digits++ & 1)
            buf[out++] = (uint8_t)(hi << 4 | v);
        else
            hi = v, last = i, last_line = line;
    }
    if (digits & 1) /* a cut file: the digit left without its pair */
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s: line %zu, byte %zu: an odd number of hex digits (%zu): this "
                                "one has no pair",
                                path, last_line, last, digits);
    *len = out;
    return MULRED_OK;
}

mulred_status mulred_bases_read_file(uint8_t **out, size_t *len, const char *path, bool binary,
                                     size_t record_bytes, mulred_error *err)
{
    MULRED_ARG_CHECK(out && len && path);
    uint8_t *buf;
    size_t n;
    mulred_status st = slurp(&buf, &n, path, err);
    if (st != MULRED_OK) return st;
    if (!binary && (st = unhex(buf, &n, path, err)) != MULRED_OK) {
        free(buf);
        return st;
    }
    if (record_bytes && n % record_bytes) {
        free(buf);
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s: record %zu: incomplete, %zu of %zu bytes (%zu bytes: not a "
                                "whole number of %zu-byte records)",
                                path, n / record_bytes, n % record_bytes, record_bytes, n,
                                record_bytes);
    }
    *out = buf, *len = n;
    return MULRED_OK;
}

mulred_status mulred_bases_make_file(mulred_bases **out, const char *path, mulred_curve c,
                                     mulred_point_encoding e, bool binary, int threads,
                                     mulred_error *err)
{
    MULRED_ARG_CHECK(out && path);
    uint8_t *buf;
    size_t n;
    mulred_status st = mulred_bases_read_file(&buf, &n, path, binary, 0, err);
    if (st != MULRED_OK) return st;
    st = mulred_bases_make(out, c, e, buf, n, path, threads, err);
    free(buf);
    return st;
}

/* ---- the cache ------------------------------------------------------------------------------- */

#define CACHE_MAGIC "MULREDBS"
/* Version 2: a table without GLV has the rows of scalars folded to at most (r − 1)/2 (one row
 * fewer where c divides the bits of r, as c = 15 and 17), and windows up to 22 bits. A version 1
 * file loads: a row it has beyond the plan's is dropped. */
#define CACHE_VERSION 2u
#define CACHE_BOM     UINT32_C(0x01020304)
#define CACHE_HEADER  64

typedef struct {
    char magic[8];
    uint32_t version, bom, curve, point_bytes;
    uint64_t count;
    uint32_t rows, window_bits, glv, batch;
    uint8_t zero[16];
} cache_header;
_Static_assert(sizeof(cache_header) == CACHE_HEADER, "the cache header is 64 bytes");

mulred_status mulred_bases_save(const mulred_bases *b, const char *path, mulred_error *err)
{
    MULRED_ARG_CHECK(b && b->magic == BASES_MAGIC && path);
    const size_t A = b->ops->affine_bytes, rows = b->table ? b->table_plan.windows : 0;
    cache_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CACHE_MAGIC, 8);
    h.version = CACHE_VERSION, h.bom = CACHE_BOM, h.curve = (uint32_t)b->curve;
    h.point_bytes = (uint32_t)A, h.count = b->size, h.rows = (uint32_t)rows;
    if (rows)
        h.window_bits = b->table_plan.window_bits, h.glv = b->table_plan.glv,
        h.batch = b->table_plan.batch;
    mulred_sha256 *sh = mulred_sha256_new();
    uint8_t digest[32];
    mulred_sha256_init(sh);
    mulred_sha256_update(sh, (const uint8_t *)&h, sizeof h);
    mulred_sha256_update(sh, b->points, b->size * A);
    if (rows) mulred_sha256_update(sh, b->table, rows * b->size * A);
    mulred_sha256_final(sh, digest);
    mulred_sha256_free(sh);
    mulred_whole_file w;
    if (mulred_whole_open(&w, path, MULRED_WHOLE_IN_PLACE, err)) return err->status;
    FILE *f = w.f;
    if (!(fwrite(&h, sizeof h, 1, f) == 1 && fwrite(b->points, A, b->size, f) == b->size &&
          (!rows || fwrite(b->table, A * rows, b->size, f) == b->size) &&
          fwrite(digest, 32, 1, f) == 1)) {
        const int e = errno;
        mulred_whole_discard(&w);
        mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write: %s", path, strerror(e));
        errno = e; /* the cause, for a caller that maps it (the Python module's OSError) */
        return MULRED_ERUNTIME;
    }
    if (mulred_whole_commit(&w, err)) return err->status;
    return MULRED_OK;
}

/* Checks the header against itself and the file size; "" when it is sound, else why not, with
 * *at the byte of the file where the fault is (the field, or where the file ends or should end). */
static const char *header_problem(const cache_header *h, uint64_t file_bytes, int want_curve,
                                  uint64_t *at)
{
    static const uint8_t zero[16];
#define AT(field) (*at = offsetof(cache_header, field))
    if (memcmp(h->magic, CACHE_MAGIC, 8) != 0) return AT(magic), "not a mulred bases file (magic)";
    if (h->bom != CACHE_BOM) return AT(bom), "written on a machine of another byte order";
    if (h->version != CACHE_VERSION && h->version != 1)
        return AT(version), "another format version";
    if (h->curve > MULRED_CURVE_BN254_G2) return AT(curve), "unknown curve";
    if (want_curve >= 0 && h->curve != (uint32_t)want_curve)
        return AT(curve), "a set of another curve or group";
    if (h->point_bytes != mulred_msm_affine_bytes((mulred_curve)h->curve))
        return AT(point_bytes), "points of another size (another build)";
    if (h->count == 0) return AT(count), "no points (a set is never empty)";
    if (h->rows > MULRED_BASES_LEVEL_MAX) return AT(rows), "bad header fields";
    if (memcmp(h->zero, zero, sizeof zero) != 0) return AT(zero), "bad header fields";
    if (h->rows && (h->window_bits < 2 || h->window_bits > MSM_MAX_WINDOW_BITS || h->glv > 1 ||
                    h->batch < 8 || h->batch > 4096))
        return AT(window_bits), "bad table fields";
#undef AT
    if (h->count > (UINT64_MAX - 96) / 288 / 65)
        return *at = offsetof(cache_header, count), "bad count";
    const uint64_t end = CACHE_HEADER + h->count * (1 + (uint64_t)h->rows) * h->point_bytes + 32;
    if (file_bytes < end)
        return *at = file_bytes, "the file ends here, before the end its header gives (truncated)";
    if (file_bytes > end) return *at = end, "the file should end here, by its header (extended)";
    return "";
}

static mulred_status refuse(mulred_error *err, const char *path, uint64_t at, const char *why)
{
    return mulred_error_set(err, MULRED_EINPUT, "%s: byte %llu: %s", path, (unsigned long long)at,
                            why);
}

/* Fills b's table plan from the header; false when the engine would make another one. The
 * rows of a version 1 table past the plan's (scalars not folded: one more) are dropped. */
static bool table_plan_from(mulred_bases *b, const cache_header *h)
{
    const mulred_msm_options o = {
        .window_bits = (int)h->window_bits, .glv = h->glv ? 1 : -1, .batch = (int)h->batch};
    b->ops->fixed_plan(&b->table_plan, b->size, &o);
    const size_t W = b->table_plan.windows, A = b->ops->affine_bytes;
    if (b->table_plan.magic == 0) return false;
    if (h->version == 1 && !h->glv && h->rows == W + 1) {
        for (size_t i = 1; i < b->size; i++) /* point-major: rows [0, W) of point i move down */
            memmove((uint8_t *)b->table + i * W * A, (uint8_t *)b->table + i * h->rows * A, W * A);
        return true;
    }
    return W == h->rows;
}

/* 64 points picked by the digest are on the curve (a cheap guard against a consistent file of
 * garbage; the digest is the check against corruption): the index of one that is not, or
 * SIZE_MAX. */
static size_t spot_check(const mulred_bases *b, const uint8_t digest[32])
{
    for (size_t k = 0; k < 64 && b->size; k++) {
        const uint64_t r = (uint64_t)digest[k % 32] << 8 | digest[(k * 7 + 3) % 32];
        const size_t i = (size_t)((r * 2654435761u + k) % b->size);
        if (!b->ops->on_curve((const uint8_t *)b->points + i * b->ops->affine_bytes)) return i;
    }
    return SIZE_MAX;
}

mulred_status mulred_bases_load(mulred_bases **out, const char *path, int want_curve,
                                mulred_error *err)
{
    MULRED_ARG_CHECK(out && path && want_curve >= -1 && want_curve <= MULRED_CURVE_BN254_G2);
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) /* missing or unreadable: the input is what is wrong, as for every reader */
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    cache_header h;
    const bool stat_ok = fstat(fd, &st) == 0;
    if (!stat_ok || !S_ISREG(st.st_mode)) { /* a directory: bad input, as a missing file */
        close(fd);
        if (!stat_ok) return mulred_error_set(err, MULRED_ERUNTIME, "%s: read error", path);
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot read: %s", path,
                                S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
    }
    const ssize_t got = read(fd, &h, sizeof h);
    if (got != (ssize_t)sizeof h) {
        close(fd);
        if (got < 0) return mulred_error_set(err, MULRED_ERUNTIME, "%s: read error", path);
        return refuse(err, path, (uint64_t)got, "the file ends inside its 64-byte header");
    }
    uint64_t at = 0;
    const char *why = header_problem(&h, (uint64_t)st.st_size, want_curve, &at);
    if (why[0]) {
        close(fd);
        return refuse(err, path, at, why);
    }
    mulred_bases *b = bases_alloc((mulred_curve)h.curve, (size_t)h.count);
    const size_t A = h.point_bytes, tbytes = (size_t)h.rows * h.count * A;
    if (b && h.rows && !(b->table = mulred_alloc_large(tbytes))) mulred_bases_free(b), b = NULL;
    if (!b) {
        close(fd);
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", path);
    }
    uint8_t digest[32], stored[32];
    FILE *f = fdopen(fd, "rb");
    bool ok = f && fread(b->points, A, b->size, f) == b->size &&
              (!h.rows || fread(b->table, A * h.rows, b->size, f) == b->size) &&
              fread(stored, 32, 1, f) == 1;
    f ? fclose(f) : close(fd);
    if (!ok) {
        mulred_bases_free(b);
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: read error", path);
    }
    mulred_sha256 *sh = mulred_sha256_new();
    mulred_sha256_init(sh);
    mulred_sha256_update(sh, (const uint8_t *)&h, sizeof h);
    mulred_sha256_update(sh, b->points, b->size * A);
    if (h.rows) mulred_sha256_update(sh, b->table, tbytes);
    mulred_sha256_final(sh, digest);
    mulred_sha256_free(sh);
    const uint64_t points_at = CACHE_HEADER, digest_at = (uint64_t)st.st_size - 32;
    size_t off_curve = SIZE_MAX;
    why = "";
    if (memcmp(digest, stored, 32) != 0)
        why = "digest does not match (changed or corrupt)", at = digest_at;
    else if (h.rows && !table_plan_from(b, &h))
        why = "table plan not valid here", at = offsetof(cache_header, rows);
    else if ((off_curve = spot_check(b, digest)) != SIZE_MAX)
        why = "point not on the curve", at = points_at + (uint64_t)off_curve * A;
    if (why[0]) {
        mulred_bases_free(b);
        return refuse(err, path, at, why);
    }
    *out = b;
    return MULRED_OK;
}

mulred_status mulred_bases_cache_path(char *out, size_t cap, const char *points_path,
                                      mulred_curve c, mulred_point_encoding e, unsigned level,
                                      mulred_error *err)
{
    MULRED_ARG_CHECK(out && cap > 0 && points_path);
    char dir[4000], note[256];
    if (!io_cache_dir(dir, sizeof dir, note, sizeof note))
        return mulred_error_set(err, MULRED_ERUNTIME, "%s", note);
    uint8_t *buf;
    size_t n;
    mulred_status st = slurp(&buf, &n, points_path, err);
    if (st != MULRED_OK) return st;
    mulred_sha256 *sh = mulred_sha256_new();
    uint8_t digest[32];
    const uint32_t params[3] = {(uint32_t)c, (uint32_t)e, level};
    mulred_sha256_init(sh);
    mulred_sha256_update(sh, (const uint8_t *)params, sizeof params);
    mulred_sha256_update(sh, buf, n);
    mulred_sha256_final(sh, digest);
    mulred_sha256_free(sh);
    free(buf);
    char hex[65];
    mulred_hex_encode(hex, digest, 16);
    if ((size_t)snprintf(out, cap, "%s/bases-%s.cache", dir, hex) >= cap)
        return mulred_error_set(err, MULRED_ERUNTIME, "cache path too long");
    return MULRED_OK;
}

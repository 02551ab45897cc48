#define _GNU_SOURCE
/* The sidecar index of a snapshot (FILE.idx).
 *
 * Why: a snapshot can only be parsed from its start (groups have variable length), so ranks and
 * threads need known group boundaries to start at. One sequential scan (decode only; its time
 * on a mainnet set is in docs/kernels.md) records them; every later run reads ~16 bytes per
 * 128 KiB of snapshot (~1 MB for mainnet) instead.
 *
 * What: chunk c covers bytes [off[c], off[c+1]) and coins [ord[c], ord[c+1]); a new chunk starts
 * at the first group boundary at least chunk_bytes after the previous chunk's start, so chunks
 * are chunk_bytes plus at most one group (a group larger than chunk_bytes is a chunk by itself).
 * Sentinel: off[n] = end of the last coin, ord[n] = coin count.
 *
 * Trust: the scan that builds an index validates the whole file (structure, every coin, coin
 * count, no trailing bytes), so an index is written only for a valid file. A loaded index is
 * checked for corruption (its own SHA-256), staleness (snapshot size, mtime, SHA-256 of the
 * header and of the last 64 KiB) and consistency (offsets increasing from the body start to the
 * file end, ordinals from 0 to the header's count). Even an index that passed all that but lies
 * cannot change a result: each chunk decoder must decode exactly its coins and end exactly on the
 * next chunk's first byte, and parsing from the body start is deterministic, so by induction
 * every chunk starts on a true group boundary; a lie can only produce an error.
 *
 * File layout (little-endian): "MULRDIDX" ‖ u32 version 1 ‖ u32 chunk_bytes ‖ u64 file size ‖
 * i64 mtime s ‖ i64 mtime ns ‖ 32 header SHA-256 ‖ 32 tail SHA-256 ‖ u64 groups ‖ u64 nchunks ‖
 * (nchunks + 1) × (u64 offset ‖ u64 ordinal) ‖ 32 SHA-256 of everything before. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash/hash.h"
#include "io/utxo_index.h"
#include "util/util.h"

#define INDEX_MAGIC       "MULRDIDX"
#define INDEX_VERSION     1u
#define INDEX_FIXED_BYTES (8 + 4 + 4 + 8 + 8 + 8 + 32 + 32 + 8 + 8)
#define TAIL_BYTES        (64u * 1024u)

void utxo_index_free(utxo_index *x)
{
    free(x->off);
    free(x->ord);
    memset(x, 0, sizeof *x);
}

mulred_status mulred_utxo_index_path(char *out, size_t cap, const char *path)
{
    const char *dir = getenv("MULRED_UTXO_INDEX_DIR");
    int n;
    if (dir && dir[0]) {
        char *copy = strdup(path);
        if (!copy) return MULRED_ERUNTIME;
        n = snprintf(out, cap, "%s/%s.idx", dir, basename(copy));
        free(copy);
    } else {
        n = snprintf(out, cap, "%s.idx", path);
    }
    return n < 0 || (size_t)n >= cap ? MULRED_EINPUT : MULRED_OK;
}

mulred_status utxo_fingerprint(utxo_fingerprint_t *fp, int fd, const mulred_utxo_header *h,
                               const char *path, mulred_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: stat: %s", path, strerror(errno));
    memset(fp, 0, sizeof *fp);
    fp->file_size = (uint64_t)st.st_size;
    fp->mtime_s = (int64_t)st.st_mtim.tv_sec;
    fp->mtime_ns = (int64_t)st.st_mtim.tv_nsec;
    uint8_t *buf = malloc(TAIL_BYTES);
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    size_t hlen = (size_t)h->body_offset;
    uint64_t tail_start =
        fp->file_size > h->body_offset + TAIL_BYTES ? fp->file_size - TAIL_BYTES : h->body_offset;
    size_t tlen = (size_t)(fp->file_size - tail_start);
    if (pread(fd, buf, hlen, 0) != (ssize_t)hlen) goto io;
    if (mulred_sha256_once(fp->header_digest, buf, hlen)) goto oom;
    if (pread(fd, buf, tlen, (off_t)tail_start) != (ssize_t)tlen) goto io;
    if (mulred_sha256_once(fp->tail_digest, buf, tlen)) goto oom;
    free(buf);
    return MULRED_OK;
io:
    free(buf);
    return mulred_error_set(err, MULRED_ERUNTIME, "%s: read error while fingerprinting", path);
oom:
    free(buf);
    return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
}

/* ---- building ---- */

typedef struct {
    utxo_index *x;
    uint64_t cap;
    const mulred_utxo_options *opt; /* its progress callback, once per chunk; NULL: none */
    const mulred_utxo_header *h;
} build_ctx;

static int grow(utxo_index *x, uint64_t *cap)
{
    if (x->nchunks + 1 < *cap) return 0;
    uint64_t ncap = *cap ? *cap * 2 : 1024;
    uint64_t *o = realloc(x->off, ncap * sizeof *o);
    if (!o) return -1;
    x->off = o;
    uint64_t *d = realloc(x->ord, ncap * sizeof *d);
    if (!d) return -1;
    x->ord = d;
    *cap = ncap;
    return 0;
}

static int on_group(void *ctx, uint64_t offset, uint64_t ordinal, mulred_error *err)
{
    build_ctx *b = ctx;
    utxo_index *x = b->x;
    x->groups++;
    if (x->nchunks > 0 && offset - x->off[x->nchunks - 1] < x->chunk_bytes) return 0;
    if (grow(x, &b->cap)) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    x->off[x->nchunks] = offset;
    x->ord[x->nchunks] = ordinal;
    x->nchunks++;
    if (b->opt && b->opt->progress)
        b->opt->progress(b->opt->progress_data, offset - b->h->body_offset,
                         b->h->file_size - b->h->body_offset);
    return 0;
}

mulred_status utxo_index_scan(utxo_index *x, int fd, const mulred_utxo_header *h, const char *path,
                              const mulred_utxo_options *opt, mulred_error *err)
{
    memset(x, 0, sizeof *x);
    x->chunk_bytes = opt && opt->chunk_bytes ? opt->chunk_bytes : MULRED_UTXO_DEFAULT_CHUNK_BYTES;
    build_ctx b = {x, 0, opt, h};
    uint8_t *buf = malloc(UTXO_READ_BUFFER);
    if (!buf || grow(x, &b.cap)) {
        free(buf);
        utxo_index_free(x);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    utxo_visitor v = {.group = on_group, .ctx = &b};
    uint64_t end = 0;
    const utxo_range whole = {fd, h, path, h->body_offset, h->file_size, 0, h->coins};
    mulred_status rc = utxo_decode_range(&end, &whole, &v, buf, err);
    free(buf);
    if (rc == MULRED_OK && end != h->file_size)
        rc = utxo_fail(err, path, end, "%llu trailing bytes after the last of %llu coins",
                       (unsigned long long)(h->file_size - end), (unsigned long long)h->coins);
    if (rc) {
        utxo_index_free(x);
        return rc;
    }
    x->off[x->nchunks] = end;
    x->ord[x->nchunks] = h->coins;
    if (opt && opt->progress)
        opt->progress(opt->progress_data, end - h->body_offset, h->file_size - h->body_offset);
    return utxo_fingerprint(&x->fp, fd, h, path, err);
}

/* ---- saving and loading ---- */

/* A directory whose mode grants no write permission is read-only by intent, also for root
 * (which access(2) would let write): shared snapshot and vector directories stay untouched. */
static bool dir_writable(const char *file)
{
    char *copy = strdup(file);
    if (!copy) return false;
    struct stat st;
    bool ok = stat(dirname(copy), &st) == 0 && (st.st_mode & 0222) != 0;
    free(copy);
    return ok;
}

mulred_status utxo_index_save(const utxo_index *x, const char *idx_path, mulred_error *err)
{
    if (!dir_writable(idx_path))
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: directory is read-only", idx_path);
    size_t n = INDEX_FIXED_BYTES + (size_t)(x->nchunks + 1) * 16 + 32;
    uint8_t *b = malloc(n), *p = b;
    if (!b) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    memcpy(p, INDEX_MAGIC, 8), p += 8;
    mulred_store_le32(p, INDEX_VERSION), p += 4;
    mulred_store_le32(p, x->chunk_bytes), p += 4;
    mulred_store_le64(p, x->fp.file_size), p += 8;
    mulred_store_le64(p, (uint64_t)x->fp.mtime_s), p += 8;
    mulred_store_le64(p, (uint64_t)x->fp.mtime_ns), p += 8;
    memcpy(p, x->fp.header_digest, 32), p += 32;
    memcpy(p, x->fp.tail_digest, 32), p += 32;
    mulred_store_le64(p, x->groups), p += 8;
    mulred_store_le64(p, x->nchunks), p += 8;
    for (uint64_t i = 0; i <= x->nchunks; i++) {
        mulred_store_le64(p, x->off[i]), p += 8;
        mulred_store_le64(p, x->ord[i]), p += 8;
    }
    if (mulred_sha256_once(p, b, (size_t)(p - b))) {
        free(b);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    /* whole or not at all: readers (other ranks) never see a partial index */
    mulred_whole_file w;
    mulred_status rc = mulred_whole_open(&w, idx_path, 0, err);
    if (rc == MULRED_OK && fwrite(b, 1, n, w.f) != n) {
        rc = mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write index: %s", idx_path,
                              strerror(errno));
        mulred_whole_discard(&w);
    } else if (rc == MULRED_OK) {
        rc = mulred_whole_commit(&w, err);
    }
    free(b);
    return rc;
}

/* Reads the index file whole, only when it is a regular file no larger than an index of this
 * snapshot can be (chunks <= coins): whatever sits at the index path (a FIFO, /dev/zero behind a
 * symlink, a huge file) must neither hang the loader nor fill memory. 0, or 1 with why set. */
static int read_index_file(char **data, size_t *len, const char *path, const mulred_utxo_header *h,
                           char *why, size_t whycap)
{
    uint64_t max_chunks = h->coins < h->file_size ? h->coins : h->file_size;
    uint64_t max_len = max_chunks < (UINT64_MAX - INDEX_FIXED_BYTES - 64) / 16
                           ? INDEX_FIXED_BYTES + 32 + 16 * (max_chunks + 1)
                           : UINT64_MAX;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(why, whycap, "missing");
        return 1;
    }
    struct stat st;
    const char *bad = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        bad = "not a regular file";
    else if ((uint64_t)st.st_size > max_len)
        bad = "too large for this snapshot";
    char *buf = bad ? NULL : malloc((size_t)st.st_size + 1);
    size_t n = bad ? 0 : (size_t)st.st_size, got = 0;
    if (!bad && !buf) bad = "out of memory";
    while (!bad && got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            bad = "unreadable";
        else
            got += (size_t)r;
    }
    close(fd);
    if (bad) {
        free(buf);
        snprintf(why, whycap, "%s", bad);
        return 1;
    }
    *data = buf;
    *len = n;
    return 0;
}

/* Loads idx_path; returns 0 when it is a valid, fresh index for this snapshot (fingerprint fp),
 * else 1 (missing, corrupt, stale, inconsistent) with a short reason in why. */
int utxo_index_load(utxo_index *x, const char *idx_path, const mulred_utxo_header *h,
                    const utxo_fingerprint_t *fp, uint32_t want_chunk_bytes, char *why,
                    size_t whycap)
{
    memset(x, 0, sizeof *x);
    char *data = NULL;
    size_t len = 0;
    if (read_index_file(&data, &len, idx_path, h, why, whycap)) return 1;
    const uint8_t *b = (const uint8_t *)data, *p = b + 8;
    uint8_t digest[32];
#define REJECT(msg)                                                                                \
    do {                                                                                           \
        snprintf(why, whycap, "%s", msg);                                                          \
        goto reject;                                                                               \
    } while (0)
    if (len < INDEX_FIXED_BYTES + 16 + 32 || memcmp(b, INDEX_MAGIC, 8) != 0) REJECT("not an index");
    if (mulred_load_le32(p) != INDEX_VERSION) REJECT("other index version");
    if (mulred_sha256_once(digest, b, len - 32)) REJECT("out of memory");
    if (memcmp(digest, b + len - 32, 32) != 0) REJECT("corrupt (checksum)");
    x->chunk_bytes = mulred_load_le32(p + 4), p += 8;
    x->fp.file_size = mulred_load_le64(p), p += 8;
    x->fp.mtime_s = (int64_t)mulred_load_le64(p), p += 8;
    x->fp.mtime_ns = (int64_t)mulred_load_le64(p), p += 8;
    memcpy(x->fp.header_digest, p, 32), p += 32;
    memcpy(x->fp.tail_digest, p, 32), p += 32;
    x->groups = mulred_load_le64(p), p += 8;
    x->nchunks = mulred_load_le64(p), p += 8;
    if (memcmp(&x->fp, fp, sizeof *fp) != 0) REJECT("stale (snapshot changed)");
    if (want_chunk_bytes && want_chunk_bytes != x->chunk_bytes) REJECT("other chunk size");
    if (x->nchunks > (len - INDEX_FIXED_BYTES - 32) / 16 - 1 ||
        (x->nchunks + 1) * 16 != len - INDEX_FIXED_BYTES - 32)
        REJECT("inconsistent size");
    x->off = malloc((x->nchunks + 1) * sizeof *x->off);
    x->ord = malloc((x->nchunks + 1) * sizeof *x->ord);
    if (!x->off || !x->ord) REJECT("out of memory");
    for (uint64_t i = 0; i <= x->nchunks; i++) {
        x->off[i] = mulred_load_le64(p), p += 8;
        x->ord[i] = mulred_load_le64(p), p += 8;
        if (i > 0 && (x->off[i] <= x->off[i - 1] || x->ord[i] <= x->ord[i - 1]))
            REJECT("inconsistent entries");
    }
    if (x->off[0] != h->body_offset || x->ord[0] != 0 || x->off[x->nchunks] != h->file_size ||
        x->ord[x->nchunks] != h->coins || x->groups < x->nchunks)
        REJECT("inconsistent with the snapshot header");
#undef REJECT
    free(data);
    return 0;
reject:
    free(data);
    utxo_index_free(x);
    return 1;
}

static mulred_status index_location(char *out, size_t cap, const char *path,
                                    const mulred_utxo_options *opt, mulred_error *err)
{
    if (opt && opt->index_path) {
        if ((size_t)snprintf(out, cap, "%s", opt->index_path) >= cap)
            return mulred_error_set(err, MULRED_EINPUT, "index path too long");
        return MULRED_OK;
    }
    if (mulred_utxo_index_path(out, cap, path))
        return mulred_error_set(err, MULRED_EINPUT, "%s: path too long", path);
    return MULRED_OK;
}

mulred_status utxo_index_get(utxo_index *x, mulred_utxo_index_info *info, int fd,
                             const mulred_utxo_header *h, const char *path,
                             const mulred_utxo_options *opt, bool force, mulred_error *err)
{
    mulred_utxo_index_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    mulred_status rc = index_location(info->path, sizeof info->path, path, opt, err);
    if (rc) return rc;
    utxo_fingerprint_t fp;
    if ((rc = utxo_fingerprint(&fp, fd, h, path, err))) return rc;
    uint32_t want = opt ? opt->chunk_bytes : 0;
    char why[64];
    if (!force && utxo_index_load(x, info->path, h, &fp, want, why, sizeof why) == 0) {
        info->loaded = true;
    } else {
        if ((rc = utxo_index_scan(x, fd, h, path, opt, err))) return rc;
        if (!(opt && opt->no_save)) {
            mulred_error werr;
            info->saved = utxo_index_save(x, info->path, &werr) == MULRED_OK;
        }
    }
    info->chunks = x->nchunks;
    info->groups = x->groups;
    info->coins = h->coins;
    info->body_end = x->off[x->nchunks];
    info->chunk_bytes = x->chunk_bytes;
    return MULRED_OK;
}

mulred_status mulred_utxo_index_build(mulred_utxo_index_info *info, const char *path,
                                      const mulred_utxo_options *opt, bool force, mulred_error *err)
{
    int fd = -1;
    mulred_utxo_header h;
    mulred_status rc = utxo_open(&fd, &h, path, err);
    if (rc) return rc;
    utxo_index x;
    rc = utxo_index_get(&x, info, fd, &h, path, opt, force, err);
    if (rc == MULRED_OK) utxo_index_free(&x);
    close(fd);
    return rc;
}

mulred_status mulred_utxo_index_ensure(const char *path, const mulred_utxo_options *opt,
                                       bool *written, mulred_error *err)
{
    mulred_utxo_index_info info;
    mulred_status rc = mulred_utxo_index_build(&info, path, opt, false, err);
    if (written) *written = rc == MULRED_OK && (info.loaded || info.saved);
    return rc;
}

/* The checkpoint store (mulred/checkpoint.h): unit files in a directory, written atomically,
 * checked by SHA-256 and by the job header they carry.
 *
 * Opening reads every unit file of the directory, not only the units this process will work
 * on: a file of another job is then refused by every rank alike (they all see the same
 * directory), and a rank learns of every finished unit with one directory scan. A unit file is
 * a few hundred bytes to a few kilobytes and a unit is sized so that its work dwarfs saving it
 * (docs/kernels.md), so the scan costs far less than one unit. */
#include "mulred/checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash/hash.h"
#include "util/util.h"

static const char ckpt_magic[8] = {'m', 'u', 'l', 'r', 'e', 'd', 'c', 'k'};
enum { CKPT_FIXED = 16, CKPT_TAIL = 20, CKPT_SUM = 32, CKPT_HEAD_BYTES = 4096 };

struct mulred_checkpoint_job {
    const mulred_group *group;
    uint64_t units;
    char *text; /* "name=value\n" lines */
    size_t len, cap;
};

struct mulred_checkpoint {
    char *dir;
    int dir_fd;
    const mulred_group *group;
    uint64_t units, loaded;
    char *header; /* the job header this store expects and writes */
    size_t header_len;
    uint8_t *state;       /* mulred_checkpoint_unit_state per unit */
    uint64_t *items;      /* per unit */
    unsigned char **elem; /* per unit: the element of a loaded unit, else NULL */
    char **note;          /* per unit: why a corrupt unit is corrupt, else NULL */
};

/* ---- the job ---- */

static mulred_status job_append(mulred_checkpoint_job *job, const char *s, size_t n,
                                mulred_error *err)
{
    if (job->len + n > MULRED_CHECKPOINT_MAX_HEADER)
        return mulred_error_set(err, MULRED_ERUNTIME, "checkpoint job header exceeds %d bytes",
                                MULRED_CHECKPOINT_MAX_HEADER);
    if (job->len + n + 1 > job->cap) {
        size_t cap = job->cap ? job->cap : 256;
        while (cap < job->len + n + 1) cap *= 2;
        char *grown = realloc(job->text, cap);
        if (!grown) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        job->text = grown, job->cap = cap;
    }
    memcpy(job->text + job->len, s, n);
    job->len += n;
    job->text[job->len] = '\0';
    return MULRED_OK;
}

static bool name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 1 || n > 64) return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

/* The value of field name in header text, or NULL; *vlen gets its length. */
static const char *field_find(const char *text, size_t len, const char *name, size_t *vlen)
{
    size_t n = strlen(name);
    for (size_t at = 0; at < len;) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - line) : len - at;
        if (ll > n && memcmp(line, name, n) == 0 && line[n] == '=') {
            *vlen = ll - n - 1;
            return line + n + 1;
        }
        at += ll + 1;
    }
    return NULL;
}

static mulred_status job_vadd(mulred_checkpoint_job *job, mulred_error *err, const char *name,
                              const char *fmt, va_list ap)
{
    MULRED_ARG_CHECK(job && name_ok(name));
    size_t dummy;
    /* a field added twice */
    MULRED_ARG_CHECK(!field_find(job->text ? job->text : "", job->len, name, &dummy));
    char value[1024];
    int n = vsnprintf(value, sizeof value, fmt, ap);
    MULRED_ARG_CHECK(n >= 0 && (size_t)n < sizeof value && !strchr(value, '\n'));
    if (job_append(job, name, strlen(name), err) || job_append(job, "=", 1, err) ||
        job_append(job, value, (size_t)n, err) || job_append(job, "\n", 1, err))
        return err->status;
    return MULRED_OK;
}

mulred_status mulred_checkpoint_job_add(mulred_checkpoint_job *job, mulred_error *err,
                                        const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mulred_status rc = job_vadd(job, err, name, fmt, ap);
    va_end(ap);
    return rc;
}

mulred_checkpoint_job *mulred_checkpoint_job_new(const mulred_group *g, uint64_t units)
{
    MULRED_CHECK(g && g->name && g->elem_bytes >= 1 && units >= 1,
                 "a checkpoint job needs a group and at least one unit");
    mulred_checkpoint_job *job = calloc(1, sizeof *job);
    if (!job) return NULL;
    job->group = g, job->units = units;
    mulred_error err;
    if (mulred_checkpoint_job_add(job, &err, "format", "%d", MULRED_CHECKPOINT_FORMAT) ||
        mulred_checkpoint_job_add(job, &err, "version", "%s", mulred_version()) ||
        mulred_checkpoint_job_add(job, &err, "group", "%s", g->name) ||
        mulred_checkpoint_job_add(job, &err, "elem_bytes", "%zu", g->elem_bytes) ||
        mulred_checkpoint_job_add(job, &err, "units", "%" PRIu64, units)) {
        mulred_checkpoint_job_free(job);
        return NULL;
    }
    return job;
}

void mulred_checkpoint_job_free(mulred_checkpoint_job *job)
{
    if (!job) return;
    free(job->text);
    free(job);
}

mulred_status mulred_checkpoint_job_add_file(mulred_checkpoint_job *job, const char *name,
                                             const char *path, mulred_error *err)
{
    MULRED_ARG_CHECK(path && name && strlen(name) <= 58);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s: not a regular file: a checkpointed job cannot resume "
                                "reading a stream",
                                path);
    }
    uint8_t head[CKPT_HEAD_BYTES];
    size_t got = 0;
    while (got < sizeof head) {
        ssize_t r = pread(fd, head + got, sizeof head - got, (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return mulred_error_set(err, MULRED_EINPUT, "%s: read failed at byte %zu: %s", path,
                                    got, strerror(e));
        }
        if (r == 0) break;
        got += (size_t)r;
    }
    close(fd);
    uint8_t digest[32];
    if (mulred_sha256_once(digest, head, got))
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    char hex[65];
    mulred_hex_encode(hex, digest, 32);
    char field[80];
    mulred_status rc;
    snprintf(field, sizeof field, "%s.size", name);
    if ((rc = mulred_checkpoint_job_add(job, err, field, "%lld", (long long)st.st_size))) return rc;
    snprintf(field, sizeof field, "%s.mtime", name);
    if ((rc = mulred_checkpoint_job_add(job, err, field, "%lld.%09ld", (long long)st.st_mtim.tv_sec,
                                        (long)st.st_mtim.tv_nsec)))
        return rc;
    snprintf(field, sizeof field, "%s.head", name);
    return mulred_checkpoint_job_add(job, err, field, "%s", hex);
}

/* ---- opening ---- */

/* The unit index in a name "unit-DDDDDDDDDD.ckpt" (ten or more digits), or -1. */
static int unit_from_name(const char *name, uint64_t *u)
{
    if (strncmp(name, "unit-", 5) != 0) return -1;
    const char *p = name + 5;
    uint64_t v = 0;
    size_t digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        if (v > (UINT64_MAX - 9) / 10) return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (digits < 10 || strcmp(p, ".ckpt") != 0) return -1;
    /* only the name mulred_checkpoint_path gives (no zero beyond ten digits): one file per unit */
    if (digits > 10 && name[5] == '0') return -1;
    *u = v;
    return 0;
}

void mulred_checkpoint_path(const mulred_checkpoint *ck, uint64_t u, char *out, size_t cap)
{
    snprintf(out, cap, "%s/unit-%010" PRIu64 ".ckpt", ck->dir, u);
}

static void set_note(mulred_checkpoint *ck, uint64_t u, const char *path, const char *why)
{
    free(ck->note[u]);
    size_t n = strlen(path) + strlen(why) + 3;
    ck->note[u] = malloc(n);
    if (ck->note[u]) snprintf(ck->note[u], n, "%s: %s", path, why);
    ck->state[u] = MULRED_CHECKPOINT_CORRUPT;
}

/* The order in which a header mismatch is named, so that the message names what the user
 * changed: 0, the fields the job was given (curve, flavor, seed, input.size, ...); 1, the
 * store's own, which the first fields of every header are (mulred_checkpoint_job_new: the
 * group's name, the unit count); 2, how the work is cut, which follows from the others
 * (fields named plan.*, msm.* and tiles.*). */
static int field_rank(const char *name)
{
    static const char *const store[] = {"format", "version", "group", "elem_bytes", "units"};
    static const char *const layout[] = {"plan.", "msm.", "tiles."};
    for (size_t i = 0; i < sizeof store / sizeof store[0]; i++)
        if (strcmp(name, store[i]) == 0) return 1;
    for (size_t i = 0; i < sizeof layout / sizeof layout[0]; i++)
        if (strncmp(name, layout[i], strlen(layout[i])) == 0) return 2;
    return 0;
}

/* Compares a whole file's header with ours: MULRED_OK, or MULRED_EINPUT naming the first
 * field that differs, by field_rank and then in our order, then the first of theirs. */
static mulred_status header_compare(const mulred_checkpoint *ck, const char *path,
                                    const char *theirs, size_t tlen, mulred_error *err)
{
    const char *ours = ck->header;
    size_t olen = ck->header_len;
    if (tlen == olen && memcmp(theirs, ours, olen) == 0) return MULRED_OK;
    /* The first of our fields that they lack or hold another value for. */
    for (size_t rank = 0, at = 0; rank < 3; rank++, at = 0)
        for (; at < olen;) {
            const char *line = ours + at;
            const char *nl = memchr(line, '\n', olen - at);
            size_t ll = (size_t)(nl - line);
            const char *eq = memchr(line, '=', ll);
            char name[80];
            size_t nn = (size_t)(eq - line);
            memcpy(name, line, nn);
            name[nn] = '\0';
            at += ll + 1;
            if ((size_t)field_rank(name) != rank) continue;
            size_t vlen;
            const char *v = field_find(theirs, tlen, name, &vlen);
            size_t olv = ll - nn - 1;
            if (!v)
                return mulred_error_set(err, MULRED_EINPUT,
                                        "%s belongs to another job: it has no field '%s' ('%.*s' "
                                        "here); use another checkpoint directory",
                                        path, name, (int)olv, eq + 1);
            if (vlen != olv || memcmp(v, eq + 1, olv) != 0)
                return mulred_error_set(err, MULRED_EINPUT,
                                        "%s belongs to another job: '%s' is '%.*s' there, '%.*s' "
                                        "here; use another checkpoint directory",
                                        path, name, (int)(vlen > 200 ? 200 : vlen), v, (int)olv,
                                        eq + 1);
        }
    /* Every field of ours matches: they have one more (or another order). */
    for (size_t at = 0; at < tlen;) {
        const char *line = theirs + at;
        const char *lnl = memchr(line, '\n', tlen - at);
        size_t ll = lnl ? (size_t)(lnl - line) : tlen - at;
        const char *eq = memchr(line, '=', ll);
        size_t nn = eq ? (size_t)(eq - line) : ll;
        char name[80];
        snprintf(name, sizeof name, "%.*s", (int)(nn > 64 ? 64 : nn), line);
        size_t vlen;
        if (!field_find(ours, olen, name, &vlen))
            return mulred_error_set(err, MULRED_EINPUT,
                                    "%s belongs to another job: it has a field '%s' this job "
                                    "does not have; use another checkpoint directory",
                                    path, name);
        at += ll + 1;
    }
    return mulred_error_set(err, MULRED_EINPUT,
                            "%s belongs to another job: its header fields are in another "
                            "order; use another checkpoint directory",
                            path);
}

/* Reads the unit file `name` into *buf (*n bytes): up to one byte more than a unit file of this
 * job can hold, to see trailing bytes (a longer header of another job is read whole). A file
 * that is not a regular file is damage (why, *buf NULL); a failed open or read is
 * MULRED_ERUNTIME. */
static mulred_status unit_read(const mulred_checkpoint *ck, const char *name, const char *path,
                               uint8_t **buf, size_t *n, char *why, size_t why_cap,
                               mulred_error *err)
{
    *buf = NULL, *n = 0;
    int fd = openat(ck->dir_fd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        snprintf(why, why_cap, "not a regular file");
        return MULRED_OK;
    }
    const size_t most = CKPT_FIXED + MULRED_CHECKPOINT_MAX_HEADER + CKPT_TAIL +
                        ck->group->elem_bytes + CKPT_SUM + 1;
    const size_t cap = (size_t)st.st_size + 1 < most ? (size_t)st.st_size + 1 : most;
    if (!(*buf = malloc(cap))) {
        close(fd);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    while (*n < cap) {
        ssize_t r = pread(fd, *buf + *n, cap - *n, (off_t)*n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            free(*buf), *buf = NULL;
            close(fd);
            return mulred_error_set(err, MULRED_ERUNTIME, "%s: read failed at byte %zu: %s", path,
                                    *n, strerror(e));
        }
        if (r == 0) break;
        *n += (size_t)r;
    }
    close(fd);
    return MULRED_OK;
}

/* The whole-file checks of a unit file of n bytes: magic, lengths, trailing bytes and the
 * SHA-256. Damage goes to why; *h, *e and *total get the header length, the element length and
 * the file's length. MULRED_ERUNTIME only when hashing cannot run. */
static mulred_status unit_whole(const uint8_t *buf, size_t n, uint32_t *h, uint32_t *e,
                                size_t *total, char *why, size_t cap, mulred_error *err)
{
    if (n < CKPT_FIXED)
        return snprintf(why, cap, "truncated at byte %zu: the fixed header is %d bytes", n,
                        CKPT_FIXED),
               MULRED_OK;
    if (memcmp(buf, ckpt_magic, 8) != 0)
        return snprintf(why, cap, "bad magic at offset 0: not a mulred unit file"), MULRED_OK;
    *h = mulred_load_le32(buf + 12);
    if (*h > MULRED_CHECKPOINT_MAX_HEADER)
        return snprintf(why, cap, "header length %" PRIu32 " at offset 12 exceeds %d", *h,
                        MULRED_CHECKPOINT_MAX_HEADER),
               MULRED_OK;
    if (n < CKPT_FIXED + (size_t)*h + CKPT_TAIL)
        return snprintf(why, cap,
                        "truncated at byte %zu: the header and unit fields end at byte %zu", n,
                        CKPT_FIXED + (size_t)*h + CKPT_TAIL),
               MULRED_OK;
    *e = mulred_load_le32(buf + CKPT_FIXED + *h + 16);
    *total = CKPT_FIXED + (size_t)*h + CKPT_TAIL + (size_t)*e + CKPT_SUM;
    if (n < *total)
        return snprintf(why, cap, "truncated at byte %zu: the file ends at byte %zu", n, *total),
               MULRED_OK;
    if (n > *total) return snprintf(why, cap, "trailing bytes at offset %zu", *total), MULRED_OK;
    uint8_t sum[32];
    if (mulred_sha256_once(sum, buf, *total - CKPT_SUM))
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    if (memcmp(sum, buf + *total - CKPT_SUM, CKPT_SUM) != 0)
        snprintf(why, cap,
                 "checksum mismatch (the SHA-256 at offset %zu does not match bytes 0-%zu)",
                 *total - CKPT_SUM, *total - CKPT_SUM - 1);
    return MULRED_OK;
}

/* A whole unit file: from here on a difference is another job, not damage. Keeps its element
 * as unit u's. */
static mulred_status unit_adopt(mulred_checkpoint *ck, const char *path, uint64_t u,
                                const uint8_t *buf, uint32_t h, uint32_t e, size_t total,
                                mulred_error *err)
{
    const size_t elem_bytes = ck->group->elem_bytes;
    const uint32_t format = mulred_load_le32(buf + 8);
    if (format != MULRED_CHECKPOINT_FORMAT)
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s belongs to another job: 'format' is '%" PRIu32
                                "' there, '%d' here; use another checkpoint directory",
                                path, format, MULRED_CHECKPOINT_FORMAT);
    mulred_status rc = header_compare(ck, path, (const char *)buf + CKPT_FIXED, h, err);
    if (rc) return rc;
    const uint64_t index = mulred_load_le64(buf + CKPT_FIXED + h);
    if (u >= ck->units)
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s belongs to another job: unit %" PRIu64 " of a job of %" PRIu64
                                " units; use another checkpoint directory",
                                path, u, ck->units);
    if (index != u || e != elem_bytes ||
        total != CKPT_FIXED + ck->header_len + CKPT_TAIL + elem_bytes + CKPT_SUM)
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s holds unit %" PRIu64 " (%" PRIu32
                                "-byte element), not the unit its name says; use another "
                                "checkpoint directory",
                                path, index, e);
    if (!(ck->elem[u] = malloc(elem_bytes)))
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    memcpy(ck->elem[u], buf + CKPT_FIXED + h + CKPT_TAIL, elem_bytes);
    ck->items[u] = mulred_load_le64(buf + CKPT_FIXED + h + 8);
    ck->state[u] = MULRED_CHECKPOINT_LOADED;
    ck->loaded++;
    return MULRED_OK;
}

/* Reads and checks the unit file `name` (unit u by its name). A damaged file becomes a note;
 * a whole file of another job is MULRED_EINPUT. */
static int load_unit(mulred_checkpoint *ck, const char *name, uint64_t u, mulred_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", ck->dir, name);
    char why[256] = "";
    uint8_t *buf;
    size_t n;
    uint32_t h = 0, e = 0;
    size_t total = 0;
    mulred_status rc = unit_read(ck, name, path, &buf, &n, why, sizeof why, err);
    if (rc == MULRED_OK && buf) rc = unit_whole(buf, n, &h, &e, &total, why, sizeof why, err);
    if (rc == MULRED_OK && buf && !why[0]) rc = unit_adopt(ck, path, u, buf, h, e, total, err);
    free(buf);
    if (rc == MULRED_OK && why[0]) {
        /* A damaged file of a unit this job does not have cannot be recomputed: it is not
         * this job's. */
        if (u >= ck->units)
            return mulred_error_set(err, MULRED_EINPUT,
                                    "%s: %s, and unit %" PRIu64 " is beyond this job's %" PRIu64
                                    " units; use another checkpoint directory",
                                    path, why, u, ck->units);
        set_note(ck, u, path, why);
    }
    return rc;
}

static mulred_status check_dir(const char *dir, int fd, mulred_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot stat: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return mulred_error_set(err, MULRED_EINPUT, "checkpoint directory %s is not a directory",
                                dir);
    if (st.st_uid != geteuid())
        return mulred_error_set(err, MULRED_EINPUT,
                                "checkpoint directory %s is owned by uid %u, not by this user "
                                "(uid %u): a checkpoint is trusted state",
                                dir, (unsigned)st.st_uid, (unsigned)geteuid());
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return mulred_error_set(err, MULRED_EINPUT,
                                "checkpoint directory %s is writable by %s (mode %04o): a "
                                "checkpoint is trusted state; chmod go-w it or use another",
                                dir, (st.st_mode & S_IWOTH) ? "others" : "its group",
                                (unsigned)(st.st_mode & 07777));
    return MULRED_OK;
}

mulred_status mulred_checkpoint_open(mulred_checkpoint **out, const char *dir,
                                     const mulred_checkpoint_job *job, mulred_error *err)
{
    MULRED_ARG_CHECK(out && dir && job);
    *out = NULL;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return mulred_error_set(
            err, errno == ENOENT || errno == ENOTDIR ? MULRED_EINPUT : MULRED_ERUNTIME,
            "checkpoint directory %s: cannot create: %s", dir, strerror(errno));
    /* O_NOFOLLOW is not used: a symbolic link to a directory of this user is fine; its target
     * is what gets checked. */
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return mulred_error_set(err, errno == ENOTDIR ? MULRED_EINPUT : MULRED_ERUNTIME,
                                "checkpoint directory %s: %s", dir,
                                errno == ENOTDIR ? "not a directory" : strerror(errno));
    if (check_dir(dir, fd, err)) {
        close(fd);
        return err->status;
    }
    mulred_checkpoint *ck = calloc(1, sizeof *ck);
    if (!ck) {
        close(fd);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    ck->dir_fd = fd;
    ck->group = job->group;
    ck->units = job->units;
    ck->dir = strdup(dir);
    ck->header = malloc(job->len + 1);
    ck->state = calloc(job->units, 1);
    ck->items = calloc(job->units, sizeof *ck->items);
    ck->elem = calloc(job->units, sizeof *ck->elem);
    ck->note = calloc(job->units, sizeof *ck->note);
    if (!ck->dir || !ck->header || !ck->state || !ck->items || !ck->elem || !ck->note) {
        mulred_checkpoint_close(ck);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    memcpy(ck->header, job->text, job->len + 1);
    ck->header_len = job->len;

    int dfd = dup(fd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0) close(dfd);
        mulred_checkpoint_close(ck);
        return mulred_error_set(err, MULRED_ERUNTIME, "checkpoint directory %s: cannot list: %s",
                                dir, strerror(errno));
    }
    mulred_status rc = MULRED_OK;
    struct dirent *de;
    while (rc == MULRED_OK && (errno = 0, de = readdir(d)) != NULL) {
        uint64_t u;
        if (unit_from_name(de->d_name, &u) == 0) rc = load_unit(ck, de->d_name, u, err);
    }
    if (rc == MULRED_OK && errno != 0)
        rc = mulred_error_set(err, MULRED_ERUNTIME, "checkpoint directory %s: cannot list: %s", dir,
                              strerror(errno));
    closedir(d);
    if (rc) {
        mulred_checkpoint_close(ck);
        return rc;
    }
    *out = ck;
    return MULRED_OK;
}

void mulred_checkpoint_close(mulred_checkpoint *ck)
{
    if (!ck) return;
    if (ck->elem)
        for (uint64_t u = 0; u < ck->units; u++) free(ck->elem[u]);
    if (ck->note)
        for (uint64_t u = 0; u < ck->units; u++) free(ck->note[u]);
    free(ck->elem);
    free(ck->note);
    free(ck->items);
    free(ck->state);
    free(ck->header);
    free(ck->dir);
    close(ck->dir_fd);
    free(ck);
}

mulred_checkpoint_unit_state mulred_checkpoint_state(const mulred_checkpoint *ck, uint64_t u)
{
    MULRED_CHECK(ck && u < ck->units, "unit %" PRIu64 " of %" PRIu64, u, ck ? ck->units : 0);
    return (mulred_checkpoint_unit_state)ck->state[u];
}

uint64_t mulred_checkpoint_get(const mulred_checkpoint *ck, uint64_t u, void *elem)
{
    MULRED_CHECK(mulred_checkpoint_state(ck, u) == MULRED_CHECKPOINT_LOADED,
                 "unit %" PRIu64 " not loaded", u);
    memcpy(elem, ck->elem[u], ck->group->elem_bytes);
    return ck->items[u];
}

const char *mulred_checkpoint_note(const mulred_checkpoint *ck, uint64_t u)
{
    if (mulred_checkpoint_state(ck, u) != MULRED_CHECKPOINT_CORRUPT) return "";
    return ck->note[u] ? ck->note[u] : "(out of memory describing the damage)";
}

uint64_t mulred_checkpoint_loaded(const mulred_checkpoint *ck)
{
    return ck->loaded;
}

/* ---- saving ---- */

mulred_status mulred_checkpoint_save(mulred_checkpoint *ck, uint64_t u, const void *elem,
                                     uint64_t items, mulred_error *err)
{
    MULRED_ARG_CHECK(ck && elem && u < ck->units);
    size_t eb = ck->group->elem_bytes, h = ck->header_len;
    size_t total = CKPT_FIXED + h + CKPT_TAIL + eb + CKPT_SUM;
    uint8_t *buf = malloc(total);
    unsigned char *copy = ck->elem[u] ? ck->elem[u] : malloc(eb);
    if (!buf || !copy) {
        free(buf);
        if (copy != ck->elem[u]) free(copy);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    memcpy(buf, ckpt_magic, 8);
    mulred_store_le32(buf + 8, MULRED_CHECKPOINT_FORMAT);
    mulred_store_le32(buf + 12, (uint32_t)h);
    memcpy(buf + CKPT_FIXED, ck->header, h);
    mulred_store_le64(buf + CKPT_FIXED + h, u);
    mulred_store_le64(buf + CKPT_FIXED + h + 8, items);
    mulred_store_le32(buf + CKPT_FIXED + h + 16, (uint32_t)eb);
    memcpy(buf + CKPT_FIXED + h + CKPT_TAIL, elem, eb);
    if (mulred_sha256_once(buf + total - CKPT_SUM, buf, total - CKPT_SUM)) {
        free(buf);
        if (copy != ck->elem[u]) free(copy);
        return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }

    char path[4200];
    mulred_checkpoint_path(ck, u, path, sizeof path);
    /* whole or not at all, fsynced with its directory; the pid in the temporary's name keeps
     * ranks on one node apart, O_EXCL ranks of several (units are planned to one rank) */
    mulred_whole_file w;
    mulred_status rc = mulred_whole_open(&w, path, MULRED_WHOLE_SYNC | MULRED_WHOLE_PRIVATE, err);
    if (rc == MULRED_OK && fwrite(buf, 1, total, w.f) != total) {
        const int e = errno;
        mulred_whole_discard(&w);
        rc = mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write: %s", path, strerror(e));
    } else if (rc == MULRED_OK) {
        rc = mulred_whole_commit(&w, err);
    }
    free(buf);
    if (rc != MULRED_OK) {
        if (copy != ck->elem[u]) free(copy);
        return rc;
    }
    memcpy(copy, elem, eb);
    if (ck->state[u] != MULRED_CHECKPOINT_LOADED) ck->loaded++;
    ck->elem[u] = copy;
    ck->items[u] = items;
    ck->state[u] = MULRED_CHECKPOINT_LOADED;
    free(ck->note[u]);
    ck->note[u] = NULL;
    return MULRED_OK;
}

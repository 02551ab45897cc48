/* Files that appear whole or not at all (util/util.h): the temporary beside the final name is
 * what Git does for its index and refs; a rename within one directory is atomic on POSIX file
 * systems, so a reader sees the old file or the new one, never a part. */
#define _GNU_SOURCE
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporaries of one process differ by this counter, of several processes by the pid; O_EXCL
 * catches the rest (hosts sharing a file system), and the next number is tried. */
static atomic_uint whole_counter;

/* The directory part of path ("." when it has none) into a malloc'd string. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* path with its symbolic links followed (a link stays a link: its target is replaced), into a
 * malloc'd string; *in_place when a name on the way is under /dev/ or /proc/ (/dev/stdout,
 * /dev/fd/N and /proc/self/fd/N lead to whatever a descriptor holds, which a rename would
 * replace or bypass), *isdir when it is a directory, *special when it exists and is neither a
 * regular file nor a directory (a device, a FIFO, a socket). */
static char *resolve(const char *path, bool *in_place, bool *isdir, bool *special)
{
    char *cur = strdup(path);
    *in_place = *isdir = *special = false;
    for (int hops = 0; cur && hops < 40; hops++) {
        if (strncmp(cur, "/dev/", 5) == 0 || strncmp(cur, "/proc/", 6) == 0) *in_place = true;
        struct stat st;
        char target[4096];
        const ssize_t n = lstat(cur, &st) == 0 && S_ISLNK(st.st_mode)
                              ? readlink(cur, target, sizeof target - 1)
                              : -1;
        if (n < 0) break;
        target[n] = '\0';
        char *dir = target[0] == '/' ? strdup("") : dir_of(cur);
        char *next = dir ? malloc(strlen(dir) + (size_t)n + 2) : NULL;
        if (next) sprintf(next, "%s%s%s", dir, *dir ? "/" : "", target);
        free(dir), free(cur);
        cur = next;
    }
    struct stat st;
    if (cur && stat(cur, &st) == 0) *isdir = S_ISDIR(st.st_mode), *special = !S_ISREG(st.st_mode);
    *special = *special && !*isdir;
    return cur;
}

/* Creates w->tmp beside w->dest and opens it as w->f; false (errno set) when it cannot. */
static bool open_temporary(mulred_whole_file *w, int flags)
{
    const char *slash = strrchr(w->dest, '/');
    const size_t dir_len = slash ? (size_t)(slash - w->dest) + 1 : 0;
    const size_t cap = strlen(w->dest) + 48;
    if (!(w->tmp = malloc(cap))) return false;
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        snprintf(w->tmp, cap, "%.*s.%s.tmp.%ld.%u", (int)dir_len, w->dest, w->dest + dir_len,
                 (long)getpid(), atomic_fetch_add(&whole_counter, 1));
        fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                  flags & MULRED_WHOLE_PRIVATE ? 0600 : 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd >= 0 && !(w->f = fdopen(fd, "wb"))) {
        const int e = errno;
        close(fd);
        unlink(w->tmp);
        errno = e;
    }
    if (w->f) return true;
    free(w->tmp);
    w->tmp = NULL;
    return false;
}

mulred_status mulred_whole_open(mulred_whole_file *w, const char *path, int flags,
                                mulred_error *err)
{
    memset(w, 0, sizeof *w);
    w->sync = (flags & MULRED_WHOLE_SYNC) != 0;
    bool in_place, isdir, special;
    w->path = strdup(path);
    if (flags & MULRED_WHOLE_IN_PLACE) {
        w->dest = w->path ? resolve(path, &in_place, &isdir, &special) : NULL;
    } else { /* NAME itself replaced, whatever it is (a link, a FIFO), unless a directory */
        struct stat st;
        w->dest = w->path ? strdup(path) : NULL;
        in_place = special = false;
        isdir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    }
    if (!w->dest) {
        mulred_whole_discard(w);
        return mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", path);
    }
    if (isdir) {
        errno = EISDIR; /* found now, not by the rename after the whole file is written */
    } else if (in_place || special) {
        if ((w->f = fopen(path, "wb"))) return MULRED_OK; /* written in place */
    } else if (open_temporary(w, flags)) {
        return MULRED_OK;
    }
    const int e = errno;
    mulred_whole_discard(w);
    mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write: %s", path, strerror(e));
    errno = e; /* for a caller that words its own message */
    return MULRED_ERUNTIME;
}

int mulred_whole_commit(mulred_whole_file *w, mulred_error *err)
{
    const char *what = "write";
    bool ok = fflush(w->f) == 0 && !ferror(w->f);
    int e = ok ? 0 : errno ? errno : EIO;
    if (ok && w->sync && w->tmp && fsync(fileno(w->f)) != 0) ok = false, e = errno, what = "fsync";
    if (fclose(w->f) != 0 && ok) ok = false, e = errno, what = "close";
    w->f = NULL;
    const bool replace = w->tmp != NULL;
    if (ok && replace && rename(w->tmp, w->dest) != 0) ok = false, e = errno, what = "rename";
    if (ok && replace) { /* the temporary is gone: nothing left to remove */
        free(w->tmp);
        w->tmp = NULL;
    }
    if (ok && replace && w->sync) { /* the rename itself on disk */
        char *dir = dir_of(w->dest);
        const int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        if (dfd < 0 || fsync(dfd) != 0) ok = false, e = errno, what = "fsync of the directory";
        if (dfd >= 0) close(dfd);
        free(dir);
    }
    int rc = MULRED_OK;
    if (!ok)
        rc = mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write (%s): %s", w->path, what,
                              strerror(e));
    mulred_whole_discard(w);
    if (!ok) errno = e; /* for a caller that words its own message */
    return rc;
}

void mulred_whole_discard(mulred_whole_file *w)
{
    if (w->f) fclose(w->f);
    w->f = NULL;
    if (w->tmp) unlink(w->tmp);
    free(w->tmp);
    free(w->dest);
    free(w->path);
    w->tmp = w->dest = w->path = NULL;
}

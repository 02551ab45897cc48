#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "input/json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_FLAGS (JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL)

static mulred_status refused(const char *name, const json_error_t *e, mulred_error *err)
{
    return mulred_error_set(err, MULRED_EINPUT, "%s: line %d, column %d: %s", name, e->line,
                            e->column, e->text);
}

/* jansson's reader of a file: whole read() calls (json_loadfd reads one byte per call, which
 * made a 19 MB result file take 16 s). */
static size_t read_chunk(void *buf, size_t len, void *data)
{
    const int fd = *(const int *)data;
    for (;;) {
        const ssize_t got = read(fd, buf, len);
        if (got >= 0) return (size_t)got;
        if (errno != EINTR) return (size_t)-1;
    }
}

mulred_status mulred_json_read_file(json_t **out, const char *path, mulred_error *err)
{
    *out = NULL;
    /* O_NONBLOCK: a FIFO without a writer must not block the open; once open it reads as
     * empty (bad input) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode) ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        const int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
        close(fd);
        return mulred_error_set(err, MULRED_EINPUT, "%s: %s", path, strerror(e));
    }
    json_error_t je;
    *out = json_load_callback(read_chunk, &fd, READ_FLAGS, &je);
    close(fd);
    return *out ? MULRED_OK : refused(path, &je, err);
}

mulred_status mulred_json_read_buffer(json_t **out, const char *text, size_t len, const char *name,
                                      mulred_error *err)
{
    json_error_t je;
    *out = json_loadb(text, len, READ_FLAGS, &je);
    return *out ? MULRED_OK : refused(name, &je, err);
}

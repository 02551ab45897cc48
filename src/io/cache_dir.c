/* The user's cache directory (io/cache_dir.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/cache_dir.h"

bool io_cache_dir(char *dir, size_t cap, char *note, size_t note_cap)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(dir, cap, "%s/mulred", xdg);
    else if (home && home[0])
        n = snprintf(dir, cap, "%s/.cache/mulred", home);
    else {
        snprintf(note, note_cap, "no cache directory (neither XDG_CACHE_HOME nor HOME is set)");
        return false;
    }
    if (n < 0 || (size_t)n >= cap) {
        snprintf(note, note_cap, "cache directory name too long");
        return false;
    }
    /* every missing component, each 0700 */
    for (char *p = dir + 1;; p++) {
        const bool last = *p == '\0';
        if (*p != '/' && !last) continue;
        *p = '\0';
        const int rc = mkdir(dir, 0700);
        const int e = errno;
        if (!last) *p = '/';
        if (rc != 0 && e != EEXIST) {
            snprintf(note, note_cap, "cache directory %.160s: %s", dir, strerror(e));
            return false;
        }
        if (last) break;
    }
    return true;
}

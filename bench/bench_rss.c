/* Peak resident memory of the command itself: a fresh `mulred ...` process per measurement, so
 * that nothing of the bench's own history (its buffers, the file it just wrote) counts. The
 * figure is wait4's ru_maxrss for that child: the kernel's high-water mark of its resident set
 * (KiB), the same figure `/usr/bin/time -v` prints, without depending on that package. Page cache
 * is not resident set: a reader that streams a file through fixed buffers stays flat however
 * large the file. */
#include "bench.h"
#include "bench_child.h"

long bench_peak_rss_kib(const char *const args[], const char *stdin_path, double *wall)
{
    const char *self = bench_child_self();
    if (!self) return -1;
    const bench_child_opts o = {
        .file = self, .stdin_path = stdin_path, .discard_stdout = true, .quiet = true};
    bench_child c;
    bench_child_start(&c, args, &o);
    const bool ok = bench_child_wait(&c);
    bench_child_free(&c);
    if (wall && c.maxrss_kib >= 0) *wall = c.wall_s;
    return ok ? c.maxrss_kib : -1;
}

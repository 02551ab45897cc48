/* Peak resident memory of the command itself: a fresh `mulred ...` process per measurement, so
 * that nothing of the bench's own history (its buffers, the file it just wrote) counts. The
 * figure is wait4's ru_maxrss for that child: the kernel's high-water mark of its resident set
 * (KiB), the same figure `/usr/bin/time -v` prints, without depending on that package. Page cache
 * is not resident set: a reader that streams a file through fixed buffers stays flat however
 * large the file. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "util/util.h"

long bench_peak_rss_kib(const char *const args[], const char *stdin_path, double *wall)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return -1;
    self[n] = '\0';
    double t0 = mulred_wtime();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
        int out = open("/dev/null", O_WRONLY);
        if (in < 0 || out < 0) _exit(127);
        dup2(in, STDIN_FILENO);
        dup2(out, STDOUT_FILENO);
        dup2(out, STDERR_FILENO);
        execv(self, (char *const *)args);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) return -1;
    if (wall) *wall = mulred_wtime() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return ru.ru_maxrss;
}

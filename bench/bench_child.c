/* Child processes of the benchmarks (see bench_child.h). Everything the child needs (its
 * argument vector, its environment, its descriptors) is made before fork, so that between fork
 * and exec it only moves descriptors: the parent may have threads. */
#define _GNU_SOURCE
#include "bench_child.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input/json_read.h"
#include "util/util.h"

extern char **environ;

const char *bench_child_self(void)
{
    static char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return NULL;
    self[n] = '\0';
    return self;
}

static size_t count(const char *const *v)
{
    size_t n = 0;
    while (v && v[n]) n++;
    return n;
}

/* launcher..., the program, argv[1..], NULL; NULL when out of memory. */
static const char **command_argv(const char *const argv[], const bench_child_opts *o)
{
    const size_t nl = count(o->launcher), na = count(argv);
    const char **v = malloc((nl + na + 2) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < nl; i++) v[k++] = o->launcher[i];
    v[k++] = nl ? (o->file ? o->file : argv[0]) : argv[0];
    for (size_t i = 1; i < na; i++) v[k++] = argv[i];
    v[k] = NULL;
    return v;
}

/* The length of the name of "NAME=VALUE". */
static size_t name_len(const char *entry)
{
    const char *eq = strchr(entry, '=');
    return eq ? (size_t)(eq - entry) : strlen(entry);
}

/* The additions, then the inherited entries they do not replace; NULL when out of memory. */
static char **command_env(const char *const *add)
{
    const size_t na = count(add), ne = count((const char *const *)environ);
    char **v = malloc((na + ne + 1) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < na; i++) v[k++] = (char *)add[i];
    for (size_t i = 0; i < ne; i++) {
        const size_t len = name_len(environ[i]);
        bool replaced = false;
        for (size_t j = 0; j < na && !replaced; j++)
            replaced = name_len(add[j]) == len && strncmp(add[j], environ[i], len) == 0;
        if (!replaced) v[k++] = environ[i];
    }
    v[k] = NULL;
    return v;
}

/* The writer of a piped standard input: copies path into fd, then ends. */
static void write_stdin(int fd, const char *path)
{
    const int in = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    char buf[1 << 16];
    ssize_t n;
    while (in >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        for (ssize_t off = 0; off < n;) {
            const ssize_t w = write(fd, buf + off, (size_t)(n - off));
            if (w <= 0) _exit(1);
            off += w;
        }
    _exit(0);
}

/* In the child: fd becomes descriptor to, open across exec. */
static void move_fd(int fd, int to)
{
    if (fd < 0) return;
    if (fd == to)
        fcntl(fd, F_SETFD, 0);
    else
        dup2(fd, to);
}

/* The child's standard input, output and error (err -1: inherited), or -1 in *in on failure. */
static void open_stdio(bench_child *c, const bench_child_opts *o, int *in, int *out, int *err)
{
    int fds[2];
    *in = *out = *err = -1;
    if (o->stdin_pipe) {
        if (pipe2(fds, O_CLOEXEC) != 0) return;
        c->writer = fork();
        if (c->writer == 0) write_stdin(fds[1], o->stdin_path);
        close(fds[1]);
        if (c->writer < 0) {
            close(fds[0]);
            return;
        }
        *in = fds[0];
    } else if ((*in = open(o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
        return;
    if (o->discard_stdout)
        *out = open("/dev/null", O_WRONLY | O_CLOEXEC);
    else if (pipe2(fds, O_CLOEXEC) == 0)
        c->fd = fds[0], *out = fds[1];
    if (o->quiet) *err = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (*out < 0 || (o->quiet && *err < 0)) {
        close(*in);
        *in = -1;
    }
}

bool bench_child_start(bench_child *c, const char *const argv[], const bench_child_opts *o)
{
    static const bench_child_opts none = {0};
    if (!o) o = &none;
    *c = (bench_child){.status = -1, .maxrss_kib = -1, .pid = -1, .writer = -1, .fd = -1};
    const char **args = command_argv(argv, o);
    char **env = o->env ? command_env(o->env) : environ;
    const char *prog = !args ? NULL : o->launcher ? args[0] : o->file ? o->file : argv[0];
    int in = -1, out = -1, err = -1;
    if (args && env) open_stdio(c, o, &in, &out, &err);
    if (in >= 0) {
        c->t0 = mulred_wtime();
        c->pid = fork();
        if (c->pid == 0) {
            move_fd(in, STDIN_FILENO);
            move_fd(out, STDOUT_FILENO);
            move_fd(err, STDERR_FILENO);
            execvpe(prog, (char *const *)args, env);
            _exit(127);
        }
    }
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    if (err >= 0) close(err);
    if (c->pid < 0 && c->fd >= 0) close(c->fd), c->fd = -1;
    free(args);
    if (env != environ) free(env);
    return c->pid > 0;
}

/* Reads fd to its end into c->out (a buffer that grows; out of memory: the rest is read and
 * dropped, and c->out is NULL). */
static void read_all(bench_child *c, int fd)
{
    size_t cap = 1 << 12;
    char *buf = malloc(cap), spill[1 << 12];
    size_t n = 0;
    for (;;) {
        if (buf && cap - n < 2) {
            char *more = realloc(buf, cap * 2);
            if (!more) free(buf);
            buf = more, cap *= 2;
        }
        const ssize_t got = buf ? read(fd, buf + n, cap - n - 1) : read(fd, spill, sizeof spill);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        if (buf) n += (size_t)got;
    }
    if (buf) buf[n] = '\0';
    c->out = buf;
    c->len = buf ? n : 0;
}

bool bench_child_wait(bench_child *c)
{
    if (c->fd >= 0) {
        read_all(c, c->fd);
        close(c->fd);
        c->fd = -1;
    }
    if (c->pid > 0) {
        int st = 0;
        struct rusage ru;
        pid_t got = wait4(c->pid, &st, 0, &ru);
        while (got < 0 && errno == EINTR) got = wait4(c->pid, &st, 0, &ru);
        c->wall_s = mulred_wtime() - c->t0;
        if (got == c->pid) {
            c->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
            c->maxrss_kib = ru.ru_maxrss;
            c->cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
        }
        c->pid = -1;
    }
    if (c->writer > 0) {
        pid_t got = waitpid(c->writer, NULL, 0);
        while (got < 0 && errno == EINTR) got = waitpid(c->writer, NULL, 0);
        c->writer = -1;
    }
    return c->status == 0;
}

json_t *bench_child_json(const bench_child *c, const char *what)
{
    json_t *v = NULL;
    mulred_error err;
    if (c->out && mulred_json_read_buffer(&v, c->out, c->len, what, &err) != MULRED_OK) v = NULL;
    return v;
}

void bench_child_free(bench_child *c)
{
    if (c->pid > 0 || c->writer > 0 || c->fd >= 0) bench_child_wait(c);
    free(c->out);
    c->out = NULL;
    c->len = 0;
}

json_t *bench_child_json_run(bench_child *c, const char *const argv[], const bench_child_opts *o)
{
    bench_child_start(c, argv, o);
    return bench_child_wait(c) ? bench_child_json(c, argv[0]) : NULL;
}

/* Appends s to buf (length *len, capacity cap), quoted when it holds a space or a quote. */
static void append(char *buf, size_t cap, size_t *len, const char *s)
{
    const bool quote = strpbrk(s, " \t'\"") != NULL;
    const int n = snprintf(buf + *len, cap - *len, "%s%s%s%s", *len ? " " : "", quote ? "'" : "", s,
                           quote ? "'" : "");
    if (n > 0) *len += (size_t)n < cap - *len ? (size_t)n : cap - *len - 1;
}

void bench_child_describe(char *buf, size_t cap, const char *const argv[],
                          const bench_child_opts *o)
{
    static const bench_child_opts none = {0};
    if (!o) o = &none;
    size_t len = 0;
    if (!cap) return;
    buf[0] = '\0';
    for (size_t i = 0; o->env && o->env[i]; i++) append(buf, cap, &len, o->env[i]);
    for (size_t i = 0; o->launcher && o->launcher[i]; i++) append(buf, cap, &len, o->launcher[i]);
    append(buf, cap, &len, o->file ? o->file : argv[0]);
    for (size_t i = 1; argv[i]; i++) append(buf, cap, &len, argv[i]);
}

/* Child processes of the benchmarks: a command (this executable, mpirun, a baseline script) run
 * as argv with no shell, its standard output captured whole, its exit status, peak resident set
 * and CPU time from wait4, and its --json output parsed.
 *
 *     const char *const argv[] = {bench_child_self(), "muhash", "--synthetic", "1000", "--json",
 *                                 NULL};
 *     const char *const env[] = {"OMP_NUM_THREADS=1", NULL};
 *     bench_child c;
 *     json_t *v = bench_child_json_run(&c, argv, &(bench_child_opts){.env = env});
 *     ... json_decref(v); bench_child_free(&c);
 *
 * The program is looked up on PATH when argv[0] (or file) holds no '/'. A launcher prefix runs
 * the same command under it: launcher[0..] then the program then argv[1..]. Several children may
 * run at once (bench_child_start each, then bench_child_wait each): every descriptor the helper
 * opens is close-on-exec, so a child holds only its own pipes. */
#ifndef MULRED_BENCH_CHILD_H
#define MULRED_BENCH_CHILD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
    const char *file;            /* the program; NULL: argv[0] */
    const char *const *launcher; /* NULL-terminated prefix (mpirun -n 2 ...); NULL: none */
    const char *const *env;      /* NULL-terminated "NAME=VALUE" set in the child's environment
                                  * (added, or replacing the inherited value); NULL: none */
    const char *stdin_path;      /* standard input; NULL: /dev/null */
    bool stdin_pipe;             /* stdin_path through a pipe fed by a writer process (the child
                                  * reads a stream, not a file it could seek or map) */
    bool discard_stdout;         /* standard output to /dev/null (else captured into out) */
    bool quiet;                  /* standard error to /dev/null (else inherited) */
} bench_child_opts;

typedef struct {
    int status; /* the exit code; 128 + N after signal N; -1: not run (or not waited) */
    char *out;  /* standard output, NUL-terminated (len bytes before the NUL) */
    size_t len;
    long maxrss_kib;   /* wait4's ru_maxrss: the child's peak resident set, or that of the
                        * largest descendant it reaped (a launcher's ranks) */
    double cpu_s;      /* user + system CPU seconds of the child and the descendants it reaped */
    double wall_s;     /* from the start to the end of the wait */
    pid_t pid, writer; /* (the running child and its stdin writer; -1: none) */
    int fd;            /* (the read end of its standard output; -1: none) */
    double t0;
} bench_child;

/* The path of this executable (/proc/self/exe resolved), or NULL. */
const char *bench_child_self(void);

/* Starts argv (NULL-terminated) as described by o (NULL: all defaults). Returns true when the
 * child was started (an exec failure shows as exit status 127); false, with c->status -1, when
 * no process could be made. Either way bench_child_wait, then bench_child_free. */
bool bench_child_start(bench_child *c, const char *const argv[], const bench_child_opts *o);
/* Reads the child's standard output to its end, then waits for it (and for its stdin writer).
 * Returns true when it exited 0. */
bool bench_child_wait(bench_child *c);
/* The captured output parsed as one JSON document (json_decref it), or NULL; what names the
 * output in nothing but the reader's message, which is dropped. */
json_t *bench_child_json(const bench_child *c, const char *what);
void bench_child_free(bench_child *c);

/* Start, wait and parse: the JSON of a child that exited 0, else NULL (c->status tells why). */
json_t *bench_child_json_run(bench_child *c, const char *const argv[], const bench_child_opts *o);

/* The command line of argv under o, for a message: "NAME=VALUE ... launcher ... program args",
 * cut to cap - 1 bytes. */
void bench_child_describe(char *buf, size_t cap, const char *const argv[],
                          const bench_child_opts *o);

#endif

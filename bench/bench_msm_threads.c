/* mulred bench msm: the ceiling of a 2-thread speedup on this machine (creates threads).
 *
 * Two one-thread MSMs run side by side, one per thread, each called as a caller would call it
 * (mulred_G_msm_var with 1 thread: its own scratch, allocated and touched by the call, and its
 * own result): nothing is shared between them but what the machine shares (caches, memory
 * bandwidth, page faults, the host under a VM). Their wall time against one MSM alone tells
 * what two cores give this workload here, so a 2-thread speedup can be read against it: on a
 * VM whose two vCPUs give 1.5x the MSM throughput of one, a speedup of 1.45 is 97% of what
 * exists. The calling thread runs one and a POSIX thread the other, both outside any OpenMP
 * team, so each MSM takes the one-thread path exactly as the 1-thread row does (inside a team
 * it would share its tasks).
 *
 * The warm variant runs mulred_G_msm_serial_var on scratch allocated and touched before the
 * timing: the pair without the first-touch of its scratch and recoded scalars, which the 1- and
 * 2-thread runs pay; a stricter reference for the 2-thread run. */
#include <pthread.h>

#include "bench.h"
#include "util/util.h"

/* What both pairs share: run(arg, 1) on a new thread and run(arg, 0) on this one, started
 * together; the wall seconds from the start to both ends, or -1 when the thread could not be
 * made or a run failed. */
typedef int (*side_fn)(void *arg, int i);
typedef struct {
    side_fn run;
    void *arg;
    int status;
    pthread_barrier_t *start;
} side;

static void *side_run(void *p)
{
    side *s = p;
    pthread_barrier_wait(s->start);
    s->status = s->run(s->arg, 1);
    return NULL;
}

static double side_by_side(side_fn run, void *arg)
{
    pthread_barrier_t start;
    if (pthread_barrier_init(&start, NULL, 2)) return -1;
    side other = {run, arg, -1, &start};
    pthread_t th;
    if (pthread_create(&th, NULL, side_run, &other)) {
        pthread_barrier_destroy(&start);
        return -1;
    }
    pthread_barrier_wait(&start);
    const double t = mulred_wtime();
    const int status = run(arg, 0);
    pthread_join(th, NULL);
    const double wall = mulred_wtime() - t;
    pthread_barrier_destroy(&start);
    return status || other.status ? -1 : wall;
}

typedef struct {
    bench_msm_fn msm;
    bench_msm_serial_fn serial;
    void **r;
    const mulred_msm_plan *plan;
    const void *points;
    const mulred_scalar256 *scalars;
    size_t n;
    void **scratch;
} pair;

static int pair_msm(void *arg, int i)
{
    const pair *p = arg;
    mulred_error err;
    return p->msm(p->r[i], p->points, p->scalars, p->n, NULL, 1, &err);
}

static int pair_serial(void *arg, int i)
{
    const pair *p = arg;
    p->serial(p->r[i], p->plan, p->points, p->scalars, p->n, p->scratch[i]);
    return 0;
}

double bench_msm_side_by_side(bench_msm_fn msm, void *r[2], const void *points,
                              const mulred_scalar256 *scalars, size_t n)
{
    pair p = {.msm = msm, .r = r, .points = points, .scalars = scalars, .n = n};
    return side_by_side(pair_msm, &p);
}

double bench_msm_side_by_side_warm(bench_msm_serial_fn serial, void *r[2],
                                   const mulred_msm_plan *plan, const void *points,
                                   const mulred_scalar256 *scalars, size_t n, void *scratch[2])
{
    pair p = {.serial = serial,
              .r = r,
              .plan = plan,
              .points = points,
              .scalars = scalars,
              .n = n,
              .scratch = scratch};
    return side_by_side(pair_serial, &p);
}

/* mulred bench msm: the ceiling of a 2-thread speedup on this machine (creates threads).
 *
 * Two one-thread MSMs run side by side, one per thread, each called as a caller would call it
 * (mulred_G_msm_var with 1 thread: its own scratch, allocated and touched by the call, and its
 * own result): nothing is shared between them but what the machine shares (caches, memory
 * bandwidth, page faults, the host under a VM). Their wall time against one MSM alone tells
 * what two cores give this workload here, so a 2-thread speedup can be read against it: on a
 * VM whose two vCPUs give 1.5x the MSM throughput of one, a speedup of 1.45 is 97% of what
 * exists. The threads are plain POSIX threads, outside any OpenMP team, so each MSM takes the
 * one-thread path exactly as the 1-thread row does (inside a team it would share its tasks).
 *
 * The warm variant runs mulred_G_msm_serial_var on scratch allocated and touched before the
 * timing: the pair without the first-touch of its scratch and recoded scalars, which the 1- and
 * 2-thread runs pay; a stricter reference for the 2-thread run. */
#include <omp.h>
#include <pthread.h>

#include "bench.h"
#include "util/util.h"

typedef struct {
    bench_msm_fn msm;
    void *r;
    const void *points;
    const mulred_scalar256 *scalars;
    size_t n;
    pthread_barrier_t *start;
    int status;
} side;

static void *side_run(void *arg)
{
    side *s = arg;
    mulred_error err;
    pthread_barrier_wait(s->start);
    s->status = s->msm(s->r, s->points, s->scalars, s->n, NULL, 1, &err);
    return NULL;
}

double bench_msm_side_by_side(bench_msm_fn msm, void *r[2], const void *points,
                              const mulred_scalar256 *scalars, size_t n)
{
    pthread_barrier_t start;
    if (pthread_barrier_init(&start, NULL, 3)) return -1;
    side sd[2];
    pthread_t th[2];
    int made = 0;
    for (int i = 0; i < 2; i++) {
        sd[i] = (side){msm, r[i], points, scalars, n, &start, -1};
        if (pthread_create(&th[i], NULL, side_run, &sd[i])) break;
        made++;
    }
    if (made < 2) { /* release the one that started, then report the failure */
        if (made == 1) {
            pthread_barrier_destroy(&start);
            pthread_join(th[0], NULL);
        }
        return -1;
    }
    pthread_barrier_wait(&start);
    const double t = mulred_wtime();
    pthread_join(th[0], NULL);
    pthread_join(th[1], NULL);
    const double wall = mulred_wtime() - t;
    pthread_barrier_destroy(&start);
    return sd[0].status || sd[1].status ? -1 : wall;
}

double bench_msm_side_by_side_warm(bench_msm_serial_fn serial, void *r[2],
                                   const mulred_msm_plan *plan, const void *points,
                                   const mulred_scalar256 *scalars, size_t n, void *scratch[2])
{
    double t = 0;
#pragma omp parallel num_threads(2)
    {
        const int id = omp_get_thread_num();
#pragma omp barrier
#pragma omp single
        t = mulred_wtime();
        if (id < 2) serial(r[id], plan, points, scalars, n, scratch[id]);
#pragma omp barrier
#pragma omp single
        t = mulred_wtime() - t;
    }
    return t;
}

/* mulred bench msm: the ceiling of a 2-thread speedup on this machine (creates threads).
 *
 * Two one-thread MSMs run side by side, one per thread of a team of 2, each with its own
 * scratch and result: nothing is shared between them but what the machine shares (caches,
 * memory bandwidth, the host under a VM). Their wall time against one MSM alone tells what two
 * cores give this workload here, so a 2-thread speedup can be read against it: on a VM whose
 * two vCPUs give 1.5x the MSM throughput of one, a speedup of 1.45 is 97% of what exists. */
#include <omp.h>

#include "bench.h"
#include "util/util.h"

double bench_msm_side_by_side(bench_msm_serial_fn serial, void *r[2], const mulred_msm_plan *plan,
                              const void *points, const mulred_scalar256 *scalars, size_t n,
                              void *scratch[2])
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

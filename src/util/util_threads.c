/* The default thread count, resolved in one place, and the start of the OpenMP team. */
#include <omp.h>

#include "mulred/common.h"

#define THREADS_MAX 4096

int mulred_threads_resolve(int requested)
{
    /* omp_get_max_threads: OMP_NUM_THREADS when set, else every core */
    int n = requested > 0 ? requested : omp_get_max_threads();
    if (n < 1) n = 1;
    if (n > THREADS_MAX) n = THREADS_MAX;
    return n;
}

int mulred_threads_start(int requested)
{
    const int n = mulred_threads_resolve(requested);
#pragma omp parallel num_threads(n)
    {
        /* nothing: the team starts and stays for the regions that follow */
    }
    return n;
}

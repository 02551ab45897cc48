/* The avalanche lab's entry point and its threads: blocks of differences are independent and
 * write disjoint counter rows, so the result does not depend on the schedule. Dynamic
 * scheduling because block cost is uniform but the machine is shared. */
#include "lab/avalanche_internal.h"
#include "util/util.h"

int mulred_mix_avalanche(mulred_mix_avalanche_result *out, const mulred_mix_avalanche_params *p)
{
    avalanche_lab lab;
    if (avalanche_lab_init(&lab, p) != 0) return -1;
    double t0 = mulred_wtime();
    if (p->threads <= 0) {
#pragma omp parallel for schedule(dynamic, 1)
        for (unsigned b = 0; b < AVALANCHE_NBLOCKS; b++) avalanche_count_block(&lab, b);
    } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(p->threads)
        for (unsigned b = 0; b < AVALANCHE_NBLOCKS; b++) avalanche_count_block(&lab, b);
    }
    double seconds = mulred_wtime() - t0;
    avalanche_lab_finish(&lab, out);
    out->seconds = seconds;
    return 0;
}

/* Threads for the avalanche lab: blocks of differences are independent and write disjoint
 * counter rows, so the result does not depend on the schedule. Dynamic scheduling because
 * block cost is uniform but the machine is shared. */
#include "mix/mix_avalanche_internal.h"

void mix_lab_run_blocks(const mix_lab *lab, int threads)
{
    if (threads <= 0) {
#pragma omp parallel for schedule(dynamic, 1)
        for (unsigned b = 0; b < MIX_LAB_NBLOCKS; b++) mix_lab_run_block(lab, b);
    } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (unsigned b = 0; b < MIX_LAB_NBLOCKS; b++) mix_lab_run_block(lab, b);
    }
}

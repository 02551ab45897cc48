/* A distributed MSM through libmulred_mpi, under mpirun (or alone, as one rank):
 *
 *   mpirun -n 2 mpi_msm [N]
 *
 * Two ways to give the ranks their pairs, with the same sum:
 *   1. a synthetic set of N pairs (default 4096) that every rank generates its own slice of:
 *      the library chooses the grid of ranks, reads nothing, and reduces the tiles;
 *   2. pairs each rank already holds in memory (here the same set, each rank generating the
 *      part ⌊N·r/P⌋..⌊N·(r+1)/P⌋ itself): each rank sums its own, the partials meet in the
 *      library's reduce.
 * Rank 0 prints both results; the program fails when they differ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mulred/mulred_mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 4096;
    const mulred_curve curve = MULRED_CURVE_BLS12_381;
    mulred_error err;

    /* 1. a synthetic set: the same job on every rank */
    mulred_mpi_msm_job job;
    mulred_mpi_msm_job_init(&job, curve);
    job.synthetic = n;
    job.seed = 7;
    mulred_mpi_msm_result synth;
    int rc = mulred_mpi_msm(MPI_COMM_WORLD, &job, &synth, &err);

    /* 2. pairs in memory: each rank its own */
    const uint64_t first = n * (uint64_t)rank / (uint64_t)size,
                   end = n * (uint64_t)(rank + 1) / (uint64_t)size;
    mulred_g1_381_affine *points = malloc((end - first + 1) * sizeof *points);
    mulred_scalar256 *scalars = malloc((end - first + 1) * sizeof *scalars);
    mulred_mpi_msm_result mem;
    if (rc == MULRED_OK) {
        if (!points || !scalars) {
            fprintf(stderr, "rank %d: out of memory\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        rc = mulred_msm_synth(points, scalars, curve, 7, first, (size_t)(end - first), 0, &err);
        mulred_mpi_msm_job_init(&job, curve);
        job.points = points;
        job.scalars = scalars;
        job.count = (size_t)(end - first);
        job.points_checked = true; /* generated in G1 */
        /* a collective: every rank enters it, and a failure on one is reported by all */
        if (rc != MULRED_OK) job.count = 0;
        int rc2 = mulred_mpi_msm(MPI_COMM_WORLD, &job, &mem, &err);
        if (rc == MULRED_OK) rc = rc2;
    }
    free(points);
    free(scalars);
    int status = rc;
    if (rank == 0) {
        if (rc != MULRED_OK) {
            fprintf(stderr, "mpi_msm: %s\n", err.message);
        } else {
            printf("synthetic, %d ranks (grid %ux%u): %s\n", synth.ranks, synth.grid.slices,
                   synth.grid.groups, synth.hex);
            printf("in memory, %d ranks:              %s\n", mem.ranks, mem.hex);
            status = strcmp(synth.hex, mem.hex) == 0 ? 0 : 1;
            printf("%s\n", status ? "the two sums differ" : "the two sums agree");
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}

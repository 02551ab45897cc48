/* A distributed MSM through libmulred_mpi, under mpirun (or alone, as one rank):
 *
 *   mpirun -n 2 mpi_msm [N]
 *
 * The N pairs (default 4096) are spread over the ranks, each rank holding only its own part in
 * memory (here the pairs ⌊N·rank/P⌋..⌊N·(rank+1)/P⌋ of P ranks, made by the rank itself). One
 * collective call sums them all: each rank computes the MSM of its own pairs with its threads,
 * and the partial sums meet in the library's reduce. Rank 0 prints the sum Σ sᵢ·Pᵢ as a 128-byte
 * EIP-2537 point in hex.
 *
 * The pairs are chosen so that the sum can be checked without mulred: point i is (i + 1)·G and
 * scalar i a 254-bit number (below r) whose 64-bit words are outputs of splitmix64, so
 *     Σ sᵢ·Pᵢ = (Σ (i + 1)·sᵢ mod r)·G,
 * which tests/tools/mpi_msm_ref.py computes with Python integers from the curve's published
 * constants (CTest compares the printed sum with its output). */
#include <stdio.h>
#include <stdlib.h>

#include <mulred/mulred_mpi.h>

/* The k-th output (k >= 1) of splitmix64 started at 0: its finaliser applied to k times the
 * golden-ratio increment. Any reproducible 64-bit values would do for the scalars. */
static uint64_t splitmix64(uint64_t k)
{
    uint64_t z = k * UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Pairs first..first+count-1: points[j] = (first + j + 1)·G, one addition of G after another;
 * scalars[j] word w = output 4·(first + j) + w + 1 of splitmix64, the top word cut to 62 bits. */
static void make_pairs(mulred_g1_381_affine *points, mulred_scalar256 *scalars, uint64_t first,
                       size_t count)
{
    mulred_g1_381_affine g;
    mulred_g1_381_jacobian p;
    mulred_g1_381_generator(&g);
    mulred_g1_381_jacobian_from_affine(&p, &g);
    const uint64_t k[4] = {first + 1, 0, 0, 0};
    mulred_g1_381_jacobian_mul_var(&p, &p, k); /* (first + 1)·G */
    for (size_t j = 0; j < count; j++) {
        mulred_g1_381_jacobian_to_affine(&points[j], &p);
        mulred_g1_381_jacobian_add_affine(&p, &p, &g);
        for (int w = 0; w < 4; w++) scalars[j].l[w] = splitmix64(4 * (first + j) + (uint64_t)w + 1);
        scalars[j].l[3] >>= 2; /* below 2^254 < r */
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 4096;

    /* this rank's part of the pairs */
    const uint64_t first = n * (uint64_t)rank / (uint64_t)size,
                   end = n * (uint64_t)(rank + 1) / (uint64_t)size;
    const size_t count = (size_t)(end - first);
    mulred_g1_381_affine *points = malloc((count + 1) * sizeof *points);
    mulred_scalar256 *scalars = malloc((count + 1) * sizeof *scalars);
    if (!points || !scalars) {
        fprintf(stderr, "rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    make_pairs(points, scalars, first, count);

    /* a collective: every rank passes its own pairs, and a failure on one is reported by all */
    mulred_mpi_msm_job job;
    mulred_mpi_msm_job_init(&job, MULRED_CURVE_BLS12_381);
    job.points = points;
    job.scalars = scalars;
    job.count = count;
    job.points_checked = true; /* multiples of G: in G1 by construction */
    mulred_mpi_msm_result res;
    mulred_error err;
    const int rc = mulred_mpi_msm(MPI_COMM_WORLD, &job, &res, &err);
    free(points);
    free(scalars);

    if (rank == 0) {
        if (rc != MULRED_OK)
            fprintf(stderr, "mpi_msm: %s\n", err.message);
        else
            printf("sum of %llu pairs over %d ranks: %s\n", (unsigned long long)res.points,
                   res.ranks, res.hex);
    }
    MPI_Finalize();
    return rc == MULRED_OK ? 0 : 1;
}

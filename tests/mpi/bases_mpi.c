/* Distributed base sets across real ranks (run by tests/mpi/mpi_layer.sh under mpiexec with 1-3
 * ranks). The points are a synthetic set (mulred/msm_io.h: each point's discrete logarithm aᵢ
 * is declared), so the expected sum of every MSM is (Σ aᵢ·sᵢ mod r)·G computed in mpz
 * (tests/curve_ref.c), with nothing of the MSM, the curve formulas or the reduction.
 *
 *   - a shared points file opened by every rank (each reads its own range), with and without a
 *     table, several MSMs with new scalars, to rank 0 and to every rank, full and prefix shards;
 *   - shards each rank made itself (mulred_mpi_bases_adopt);
 *   - a bad point in one rank's range: every rank gets MULRED_EINPUT, rank 0's message names
 *     the point's index in the whole file; a vector longer than a shard is refused everywhere.
 *   - no points (an empty file, empty shards on every rank) and no scalars on any rank: refused
 *     on every rank, as the empty MSM is everywhere.
 *
 * Usage: bases_mpi SEED DIR (the same on every rank; DIR a directory every rank sees). Exit
 * status 0 when every check passed on every rank. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_ref.h"
#include "mulred/msm_io.h"
#include "mulred/mulred_mpi.h"

static int checks, failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", mulred_mpi_rank(MPI_COMM_WORLD), \
                    __FILE__, __LINE__, #cond);                                                    \
        }                                                                                          \
    } while (0)

enum { N = 1500 };

/* The synthetic set's points [0, N) of curve c, encoded (EIP-2537 / EIP-196). */
static uint8_t *encoded_points(mulred_curve c, uint64_t seed, size_t *B)
{
    const size_t A = mulred_msm_affine_bytes(c);
    *B = mulred_point_encoding_bytes(c, MULRED_POINTS_EVM);
    uint8_t *aff = malloc(N * A), *enc = malloc(N * *B);
    mulred_scalar256 *unused = malloc(N * sizeof *unused);
    mulred_error err;
    CHECK(mulred_msm_synth(aff, unused, c, seed, 0, N, 2, &err) == MULRED_OK);
    for (size_t i = 0; i < N; i++) {
        if (c == MULRED_CURVE_BLS12_381)
            mulred_g1_381_encode_eip2537(enc + i * *B, (const void *)(aff + i * A));
        else
            mulred_g1_254_encode_eip196(enc + i * *B, (const void *)(aff + i * A));
    }
    free(aff), free(unused);
    return enc;
}

/* Scalar i of vector v: the synthetic scalar of pair i under seed v (big-endian). */
static void scalar_be(uint8_t out[32], mulred_curve c, uint64_t v, size_t i)
{
    mulred_scalar256 s;
    mulred_msm_synth_scalar(&s, c, v, i);
    for (int k = 0; k < 32; k++) out[31 - k] = (uint8_t)(s.l[k / 8] >> (8 * (k % 8)));
}

/* The expected sum over the points [lo_q, lo_q + n_q) of every rank q (n_q from counts). */
static void expected(ref_point *r, mulred_curve c, uint64_t seed, uint64_t v, const size_t *first,
                     const size_t *counts, int ranks)
{
    const ref_curve *rc = ref_curve_get((int)c);
    mpz_t k, a, s;
    mpz_inits(k, a, s, NULL);
    for (int q = 0; q < ranks; q++)
        for (size_t i = first[q]; i < first[q] + counts[q]; i++) {
            uint64_t al[4];
            mulred_scalar256 sc;
            mulred_msm_synth_dlog(al, c, seed, i);
            mulred_msm_synth_scalar(&sc, c, v, i);
            ref_mpz_from_u256(a, al);
            ref_mpz_from_u256(s, sc.l);
            mpz_addmul(k, a, s);
        }
    mpz_mod(k, k, rc->r);
    ref_mul(rc, r, &rc->g, k);
    mpz_clears(k, a, s, NULL);
}

/* MSMs over b with vectors 1..3, this rank passing n = its size minus drop scalars. */
static void check_msms(const mulred_mpi_bases *b, mulred_curve c, uint64_t seed, size_t drop)
{
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD), size = mulred_mpi_size(MPI_COMM_WORLD);
    const size_t mine = mulred_bases_size(mulred_mpi_bases_local(b)), n = mine - drop,
                 lo = mulred_mpi_bases_first(b);
    CHECK(mulred_mpi_bases_size(b) == N);
    size_t first[8], counts[8];
    unsigned long long m[2] = {lo, n}, all[16];
    MPI_Allgather(m, 2, MPI_UNSIGNED_LONG_LONG, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    for (int q = 0; q < size; q++) first[q] = all[2 * q], counts[q] = all[2 * q + 1];
    uint8_t *sc = malloc(32 * mine + 1);
    for (uint64_t v = 1; v <= 3; v++) {
        for (size_t i = 0; i < n; i++) scalar_be(sc + 32 * i, c, v, lo + i);
        uint8_t r[MULRED_MSM_RESULT_MAX * 2];
        const int root = v == 2 ? -1 : 0;
        mulred_error err;
        CHECK(mulred_mpi_bases_msm(r, b, sc, MULRED_SCALARS_BE32, n, root, 2, &err) == MULRED_OK);
        if (root < 0 || rank == root) {
            ref_point want, got;
            ref_point_init(&want), ref_point_init(&got);
            expected(&want, c, seed, v, first, counts, size);
            ref_from_jacobian((int)c, &got, r);
            CHECK(ref_point_equal(&want, &got));
            ref_point_clear(&want), ref_point_clear(&got);
        }
    }
    free(sc);
}

static void check_curve(mulred_curve c, uint64_t seed, const char *dir)
{
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD);
    size_t B;
    uint8_t *enc = encoded_points(c, seed, &B);
    char path[4096], bad_path[4200];
    snprintf(path, sizeof path, "%s/points-%s.bin", dir, mulred_curve_name(c));
    snprintf(bad_path, sizeof bad_path, "%s.bad", path);
    if (rank == 0) {
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(enc, B, N, f) == N && fclose(f) == 0);
        enc[(N - 3) * B + B - 1] ^= 1; /* point N-3 (the last rank's range): off the curve */
        f = fopen(bad_path, "wb");
        CHECK(f && fwrite(enc, B, N, f) == N && fclose(f) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    mulred_error err;
    for (unsigned level = 0; level <= 8; level += 8) {
        mulred_mpi_bases *b = NULL;
        CHECK(mulred_mpi_bases_open(&b, MPI_COMM_WORLD, path, c, MULRED_POINTS_EVM, level, 2,
                                    &err) == MULRED_OK);
        if (!b) continue;
        check_msms(b, c, seed, 0);
        check_msms(b, c, seed, (size_t)rank * 7); /* prefixes of the shards */
        /* a vector longer than this rank's shard on one rank: refused on every rank */
        const size_t mine = mulred_bases_size(mulred_mpi_bases_local(b));
        uint8_t *sc = calloc(mine + 1, 32), r[MULRED_MSM_RESULT_MAX * 2];
        const size_t n = rank == 0 ? mine + 1 : mine;
        CHECK(mulred_mpi_bases_msm(r, b, sc, MULRED_SCALARS_BE32, n, -1, 1, &err) == MULRED_EINPUT);
        if (rank == 0) CHECK(strstr(err.message, "scalar vector of") != NULL);
        /* no scalar on any rank: the empty MSM, refused on every rank */
        CHECK(mulred_mpi_bases_msm(r, b, sc, MULRED_SCALARS_BE32, 0, -1, 1, &err) == MULRED_EINPUT);
        if (rank == 0) CHECK(strstr(err.message, "no scalars (empty input) on any rank") != NULL);
        free(sc);
        mulred_mpi_bases_free(b);
    }
    /* the bad point: named by its index in the whole file, on every rank's status */
    mulred_mpi_bases *bad = NULL;
    CHECK(mulred_mpi_bases_open(&bad, MPI_COMM_WORLD, bad_path, c, MULRED_POINTS_EVM, 0, 2, &err) ==
          MULRED_EINPUT);
    CHECK(bad == NULL);
    if (rank == 0) {
        char want[64];
        snprintf(want, sizeof want, ": point %d: ", N - 3);
        CHECK(strstr(err.message, want) != NULL);
        if (!strstr(err.message, want)) fprintf(stderr, "message: %s\n", err.message);
    }
    /* an empty points file, and shards that are all empty: no points, on every rank */
    char empty_path[4200];
    snprintf(empty_path, sizeof empty_path, "%s.empty", path);
    if (rank == 0) {
        FILE *f = fopen(empty_path, "wb");
        CHECK(f && fclose(f) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mulred_mpi_bases_open(&bad, MPI_COMM_WORLD, empty_path, c, MULRED_POINTS_EVM, 0, 1,
                                &err) == MULRED_EINPUT);
    if (rank == 0) CHECK(strstr(err.message, ": no points (empty input)") != NULL);
    mulred_bases *none = NULL;
    CHECK(mulred_bases_make_shard(&none, c, MULRED_POINTS_EVM, NULL, 0, "shard", 0, 1, &err) ==
          MULRED_OK);
    CHECK(mulred_mpi_bases_adopt(&bad, MPI_COMM_WORLD, none, &err) == MULRED_EINPUT);
    if (rank == 0) CHECK(strstr(err.message, "no points (empty input) on any rank") != NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) remove(empty_path);
    /* shards the ranks made themselves: points [N·r/P, N·(r+1)/P) again, via adopt */
    const mulred_unit_range u = mulred_plan_units(N, rank, mulred_mpi_size(MPI_COMM_WORLD));
    mulred_bases *local = NULL;
    uint8_t *mine = encoded_points(c, seed, &B);
    CHECK(mulred_bases_make(&local, c, MULRED_POINTS_EVM, mine + u.first * B,
                            (size_t)(u.end - u.first) * B, "shard", 2, &err) == MULRED_OK);
    mulred_mpi_bases *adopted = NULL;
    CHECK(mulred_mpi_bases_adopt(&adopted, MPI_COMM_WORLD, local, &err) == MULRED_OK);
    if (adopted) {
        CHECK(mulred_mpi_bases_first(adopted) == u.first);
        check_msms(adopted, c, seed, 0);
        mulred_mpi_bases_free(adopted);
    }
    free(mine), free(enc);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) remove(path), remove(bad_path);
}

int main(int argc, char **argv)
{
    mulred_error err;
    if (mulred_mpi_init(&argc, &argv, &err) != MULRED_OK || argc != 3) {
        fprintf(stderr, "usage: bases_mpi SEED DIR (under mpiexec)\n");
        return 1;
    }
    const uint64_t seed = strtoull(argv[1], NULL, 0);
    check_curve(MULRED_CURVE_BLS12_381, seed, argv[2]);
    check_curve(MULRED_CURVE_BN254, seed, argv[2]);
    int bad = failures, all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD), size = mulred_mpi_size(MPI_COMM_WORLD);
    if (rank == 0)
        printf("bases_mpi: %d rank(s), %d checks on rank 0, %d failed\n", size, checks, all);
    mulred_mpi_finalize();
    return all ? 1 : 0;
}

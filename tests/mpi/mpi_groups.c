/* The generic group reduction across real ranks (run by tests/mpi/mpi_layer.sh under mpiexec with
 * 1-4 ranks): three groups described outside src/mpi, of different element sizes, reduced in
 * one process through the same MPI op, interleaved, to different roots. Each rank computes the
 * expected results on its own from every rank's inputs (a pure function of the seed and the
 * rank) with an independent sequential path: plain integer arithmetic, GMP, and one MuHash
 * state fed element by element.
 *
 *   add61: 5 lanes of addition mod 2^61 − 1 (40-byte elements)
 *   mul127: multiplication mod 2^127 − 1 (16-byte elements; GMP in the combine)
 *   MuHash: the library's own descriptor (776-byte states)
 *
 * Usage: mpi_groups SEED (the same on every rank). Exit status 0 when every check passed
 * on every rank. */
#include <gmp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mulred/mulred_mpi.h"
#include "mulred/group.h"
#include "mulred/muhash.h"

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

static uint64_t splitmix64(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- add61 ---- */
#define P61 ((1ull << 61) - 1)
typedef struct {
    uint64_t lane[5];
} add61;

static void add61_identity(void *e, const mulred_group *g)
{
    (void)g;
    memset(e, 0, sizeof(add61));
}

static void add61_combine(void *acc, const void *in, const mulred_group *g)
{
    (void)g;
    add61 *a = acc;
    const add61 *b = in;
    for (int i = 0; i < 5; i++) {
        uint64_t s = a->lane[i] + b->lane[i]; /* both < 2^61: no overflow */
        a->lane[i] = s >= P61 ? s - P61 : s;
    }
}

static const mulred_group add61_group = {"add61", sizeof(add61), add61_identity, add61_combine,
                                         NULL};

static add61 add61_input(uint64_t seed, int round, int rank)
{
    add61 x;
    for (int i = 0; i < 5; i++)
        x.lane[i] =
            splitmix64(seed ^ (uint64_t)round << 40 ^ (uint64_t)rank << 8 ^ (uint64_t)i) % P61;
    return x;
}

/* ---- mul127 ---- */
typedef struct {
    uint64_t limb[2]; /* little-endian, < 2^127 − 1 */
} mul127;

static void mul127_identity(void *e, const mulred_group *g)
{
    (void)g;
    mul127 *x = e;
    x->limb[0] = 1, x->limb[1] = 0;
}

static void mul127_combine(void *acc, const void *in, const mulred_group *g)
{
    const mpz_t *p = g->params;
    mul127 *a = acc;
    const mul127 *b = in;
    mpz_t x, y;
    mpz_init(x), mpz_init(y);
    mpz_import(x, 2, -1, 8, 0, 0, a->limb);
    mpz_import(y, 2, -1, 8, 0, 0, b->limb);
    mpz_mul(x, x, y);
    mpz_mod(x, x, *p);
    a->limb[0] = a->limb[1] = 0;
    mpz_export(a->limb, NULL, -1, 8, 0, 0, x);
    mpz_clear(x), mpz_clear(y);
}

static mul127 mul127_input(uint64_t seed, int round, int rank)
{
    uint64_t h = splitmix64(seed + 7 * (uint64_t)round + ((uint64_t)rank << 32));
    mul127 x = {{h, splitmix64(h) >> 2}}; /* < 2^126 < p, never 0 below */
    if (!x.limb[0] && !x.limb[1]) x.limb[0] = 1;
    return x;
}

/* ---- MuHash: elements (seed, round, rank, i), i < 3 + rank ---- */
static void muhash_element(uint8_t out[16], uint64_t seed, int round, int rank, int i)
{
    uint64_t a =
        splitmix64(seed ^ 0x5555 ^ (uint64_t)round << 48 ^ (uint64_t)rank << 24 ^ (uint64_t)i);
    uint64_t b = splitmix64(a);
    memcpy(out, &a, 8);
    memcpy(out + 8, &b, 8);
}

static void muhash_input(mulred_muhash_state *s, mulred_muhash_ctx *ctx, uint64_t seed, int round,
                         int rank)
{
    memset(s, 0, sizeof *s);
    mulred_muhash_init(s, MULRED_MUHASH_KASPA);
    for (int i = 0; i < 3 + rank; i++) {
        uint8_t e[16];
        muhash_element(e, seed, round, rank, i);
        if (i % 3 == 2)
            mulred_muhash_remove(s, ctx, e, sizeof e);
        else
            mulred_muhash_insert(s, ctx, e, sizeof e);
    }
}

static void digest_of(uint8_t out[32], const mulred_muhash_state *s)
{
    mulred_muhash_finalize(out, s);
}

int main(int argc, char **argv)
{
    mulred_error err;
    mulred_error_clear(&err);
    if (argc != 2) {
        fprintf(stderr, "usage: %s SEED\n", argv[0]);
        return 1;
    }
    uint64_t seed = strtoull(argv[1], NULL, 0);
    if (mulred_mpi_init(&argc, &argv, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 3;
    }
    int rank = mulred_mpi_rank(MPI_COMM_WORLD), P = mulred_mpi_size(MPI_COMM_WORLD);
    mpz_t p127;
    mpz_init(p127);
    mpz_ui_pow_ui(p127, 2, 127);
    mpz_sub_ui(p127, p127, 1);
    const mulred_group mul127_group = {"mul127", sizeof(mul127), mul127_identity, mul127_combine,
                                       &p127};
    const mulred_group *muhash_group = mulred_muhash_group(MULRED_MUHASH_KASPA);
    CHECK(muhash_group->elem_bytes == sizeof(mulred_muhash_state));
    mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_KASPA);
    CHECK(ctx != NULL);
    /* the 0.2 names of mulred_mpi.h, kept one release, name what the new names name (the JSON
     * phase keys of docs/cli.md) */
    const mulred_muhash_phase old_muhash = MULRED_MUHASH_PHASE_HASH;
    const mulred_msm_phase old_msm = MULRED_MSM_PHASE_READ;
    CHECK(strcmp(mulred_muhash_phase_name(old_muhash), "hash") == 0);
    CHECK(strcmp(mulred_msm_phase_name(old_msm), mulred_mpi_msm_phase_name(old_msm)) == 0);
    CHECK(MULRED_NODE_NAMES_MAX == MULRED_MPI_NODE_NAMES_MAX);
    /* the launcher's rank before MPI_Init: each launcher's own variable alone (Open MPI's
     * mpirun sets OMPI_COMM_WORLD_RANK, and PMIX_RANK only with its PMIx launch) */
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                            "SLURM_PROCID"};
    for (size_t only = 0; only < 4; only++) {
        for (size_t i = 0; i < 4; i++) unsetenv(rank_vars[i]);
        setenv(rank_vars[only], "5", 1);
        CHECK(mulred_mpi_env_rank() == 5);
        CHECK(mulred_mpi_launched());
    }

    for (int round = 0; round < 6; round++) {
        int root_a = round % P, root_c = (P - 1 - round % P + P) % P;

        /* add61 to root_a; expected: the lane sums of every rank's input, mod p */
        add61 a = add61_input(seed, round, rank), mine = a, want = {{0}};
        for (int r = 0; r < P; r++) {
            add61 x = add61_input(seed, round, r);
            for (int i = 0; i < 5; i++) want.lane[i] = (want.lane[i] + x.lane[i]) % P61;
        }
        CHECK(mulred_mpi_reduce(MPI_COMM_WORLD, &a, &add61_group, root_a, &err) == MULRED_OK);
        if (rank == root_a)
            CHECK(memcmp(&a, &want, sizeof a) == 0);
        else
            CHECK(memcmp(&a, &mine, sizeof a) == 0); /* other ranks: unchanged */

        /* mul127 on every rank; expected with GMP, one product */
        mul127 m = mul127_input(seed, round, rank);
        mpz_t prod, x;
        mpz_init_set_ui(prod, 1), mpz_init(x);
        for (int r = 0; r < P; r++) {
            mul127 in = mul127_input(seed, round, r);
            mpz_import(x, 2, -1, 8, 0, 0, in.limb);
            mpz_mul(prod, prod, x);
        }
        mpz_mod(prod, prod, p127);
        mul127 wm = {{0, 0}};
        mpz_export(wm.limb, NULL, -1, 8, 0, 0, prod);
        mpz_clear(prod), mpz_clear(x);
        CHECK(mulred_mpi_allreduce(MPI_COMM_WORLD, &m, &mul127_group, &err) == MULRED_OK);
        CHECK(memcmp(&m, &wm, sizeof m) == 0);

        /* MuHash to root_c; expected: one state fed every rank's elements in turn */
        mulred_muhash_state s, ref;
        muhash_input(&s, ctx, seed, round, rank);
        uint8_t before[32], got[32], expect[32];
        digest_of(before, &s);
        mulred_muhash_init(&ref, MULRED_MUHASH_KASPA);
        for (int r = 0; r < P; r++)
            for (int i = 0; i < 3 + r; i++) {
                uint8_t e[16];
                muhash_element(e, seed, round, r, i);
                if (i % 3 == 2)
                    mulred_muhash_remove(&ref, ctx, e, sizeof e);
                else
                    mulred_muhash_insert(&ref, ctx, e, sizeof e);
            }
        digest_of(expect, &ref);
        CHECK(mulred_mpi_reduce(MPI_COMM_WORLD, &s, muhash_group, root_c, &err) == MULRED_OK);
        digest_of(got, &s);
        CHECK(memcmp(got, rank == root_c ? expect : before, 32) == 0);

        /* the identity is neutral through the op: a rank may contribute nothing */
        add61 z;
        add61_group.identity(&z, &add61_group);
        if (rank != 0) z = add61_input(seed, round, rank);
        add61 wz = {{0}};
        for (int r = 1; r < P; r++) {
            add61 in = add61_input(seed, round, r);
            for (int i = 0; i < 5; i++) wz.lane[i] = (wz.lane[i] + in.lane[i]) % P61;
        }
        CHECK(mulred_mpi_allreduce(MPI_COMM_WORLD, &z, &add61_group, &err) == MULRED_OK);
        CHECK(memcmp(&z, &wz, sizeof z) == 0);
    }
    mulred_muhash_ctx_free(ctx);
    mpz_clear(p127);

    /* Every rank learns whether any rank failed. */
    mulred_error_clear(&err);
    if (failures) err.status = MULRED_EINPUT, snprintf(err.message, sizeof err.message, "failed");
    int verdict = mulred_mpi_agree(MPI_COMM_WORLD, &err);
    uint64_t total_checks = 0, total_failures = 0;
    mulred_error e2;
    mulred_error_clear(&e2);
    mulred_mpi_sum_u64(MPI_COMM_WORLD, &total_checks, (uint64_t)checks, &e2);
    mulred_mpi_sum_u64(MPI_COMM_WORLD, &total_failures, (uint64_t)failures, &e2);
    if (rank == 0)
        printf("mpi_groups: %d rank%s, seed %" PRIu64 ": %" PRIu64 " checks, %" PRIu64 " failed\n",
               P, P == 1 ? "" : "s", seed, total_checks, total_failures);
    mulred_mpi_finalize();
    return verdict == MULRED_OK && e2.status == MULRED_OK ? 0 : 1;
}

/* mpirun -n P mulred bench bases-mpi: repeated MSMs over a distributed base set (mulred_mpi_bases,
 * each rank holding and having prepared its shard) against one rank computing the same MSM over
 * the whole set, in the same run.
 *
 * Rank 0 writes a synthetic points file of 2^log2n points (mulred/msm_io.h) into --dir (a
 * directory every rank sees); every rank opens its shard of it; rank 0 also makes the whole set.
 * Then --reps rounds, each: the distributed MSM (each rank its shard's scalars, one thread per
 * rank, summed on rank 0) and rank 0 alone over the whole set (one thread), both timed in wall
 * time on rank 0 between barriers. The two results must agree (else exit 3). Reported: the
 * medians, the speedup (one rank ÷ P ranks) and the spread of the per-round ratios. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "mulred/msm_io.h"
#include "mulred/mulred_mpi.h"
#include "output/json.h"
#include "input/keys.h"
#include "util/util.h"

typedef struct {
    uint64_t log2n, reps, level;
    mulred_curve curve;
    bool json;
    const char *dir;
} bases_mpi_opts;

MULRED_KEY_COUNT(set_log2n, bases_mpi_opts, log2n, 8, 24)
MULRED_KEY_COUNT(set_reps, bases_mpi_opts, reps, 1, 99)
static mulred_exit set_level(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    uint64_t x;
    if (mulred_key_parse_uint(&x, v, MULRED_BASES_LEVEL_MAX, p, why, cap)) return MULRED_OUT_EUSAGE;
    if (x == 1) return mulred_key_bad_value(p, v, "0 (none) or 2 to 64", why, cap);
    ((bases_mpi_opts *)o)->level = x;
    return MULRED_OK;
}
MULRED_KEY_TEXT(set_dir, bases_mpi_opts, dir)
MULRED_KEY_FLAG(set_json, bases_mpi_opts, json)

static mulred_exit set_curve(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    if (mulred_curve_parse(&((bases_mpi_opts *)o)->curve, v) != MULRED_OK)
        return mulred_key_bad_value(p, v, "bls12-381 or bn254", why, cap);
    return MULRED_OK;
}

static const mulred_key keys[] = {
    {"log2n", false, false, false, set_log2n}, {"reps", false, false, false, set_reps},
    {"level", false, false, false, set_level}, {"curve", false, false, false, set_curve},
    {"dir", false, false, false, set_dir},     {"json", true, false, false, set_json},
};

static void usage(void)
{
    mulred_out("Usage: mpirun -n P mulred bench bases-mpi [--log2n L] [--curve C] [--level L]\n"
               "                                     [--reps R] [--dir DIR] [--json]\n"
               "\n"
               "Repeated MSMs over a distributed base set (each rank its prepared shard, one\n"
               "thread per rank) against rank 0 alone over the whole set, one thread, in the\n"
               "same run: medians of R rounds (default 7) at 2^L points (default 18), curve\n"
               "bls12-381 (or bn254), table level L (default 0: none). DIR (default $TMPDIR or\n"
               "/tmp) holds the points file and must be seen by every rank.\n");
}

/* Rank 0 writes the synthetic points [0, n) of c as EIP-2537 / EIP-196 records. */
static int write_points(const char *path, mulred_curve c, size_t n, mulred_error *err)
{
    const size_t A = mulred_msm_affine_bytes(c), B = mulred_point_encoding_bytes(c, 0);
    uint8_t *aff = malloc(n * A), *enc = malloc(n * B);
    mulred_scalar256 *unused = malloc(n * sizeof *unused);
    int rc =
        aff && enc && unused ? MULRED_OK : mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    if (rc == MULRED_OK) rc = mulred_msm_synth(aff, unused, c, 1, 0, n, 0, err);
    for (size_t i = 0; rc == MULRED_OK && i < n; i++) {
        if (c == MULRED_CURVE_BLS12_381)
            mulred_g1_381_encode_eip2537(enc + i * B, (const void *)(aff + i * A));
        else
            mulred_g1_254_encode_eip196(enc + i * B, (const void *)(aff + i * A));
    }
    FILE *f = rc == MULRED_OK ? fopen(path, "wb") : NULL;
    if (rc == MULRED_OK && (!f || fwrite(enc, B, n, f) != n || fclose(f) != 0))
        rc = mulred_error_set(err, MULRED_ERUNTIME, "%s: cannot write", path);
    free(aff), free(enc), free(unused);
    return rc;
}

typedef struct {
    double prepare, one, many, ratio_lo, ratio_hi;
} bases_mpi_figures;

/* The rounds: wall seconds of the distributed MSM and of rank 0 alone; results compared. */
static int rounds(bases_mpi_figures *fig, const mulred_mpi_bases *db, const mulred_bases *whole,
                  const uint8_t *all_scalars, int reps, mulred_error *err)
{
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD);
    const mulred_bases *local = mulred_mpi_bases_local(db);
    const size_t n = mulred_mpi_bases_size(db), first = mulred_mpi_bases_first(db);
    const mulred_curve c = mulred_bases_curve(local);
    double one[100], many[100], ratio[100];
    int rc = MULRED_OK;
    for (int r = 0; r < reps && rc == MULRED_OK; r++) {
        uint8_t a[MULRED_MSM_RESULT_MAX], b[MULRED_MSM_RESULT_MAX];
        rc = mulred_mpi_barrier(MPI_COMM_WORLD, err);
        double t0 = mulred_wtime();
        if (rc == MULRED_OK)
            rc = mulred_mpi_bases_msm_encoded(a, sizeof a, db, all_scalars + 32 * first,
                                              MULRED_SCALARS_BE32, mulred_bases_size(local), 0, 1,
                                              err);
        many[r] = mulred_wtime() - t0;
        if (rc == MULRED_OK) rc = mulred_mpi_barrier(MPI_COMM_WORLD, err);
        t0 = mulred_wtime();
        if (rc == MULRED_OK && rank == 0)
            rc = mulred_bases_msm_encoded(b, sizeof b, whole, all_scalars, MULRED_SCALARS_BE32, n,
                                          1, err);
        one[r] = mulred_wtime() - t0;
        if (rc == MULRED_OK && rank == 0 && memcmp(a, b, mulred_msm_result_bytes(c)) != 0)
            rc = mulred_error_set(err, MULRED_ERUNTIME, "round %d: the two sums differ", r);
        ratio[r] = one[r] / many[r];
    }
    if (rc == MULRED_OK) rc = mulred_mpi_agree(MPI_COMM_WORLD, err);
    fig->one = mulred_median(one, (size_t)reps);
    fig->many = mulred_median(many, (size_t)reps);
    qsort(ratio, (size_t)reps, sizeof *ratio, mulred_cmp_double);
    fig->ratio_lo = ratio[0], fig->ratio_hi = ratio[reps - 1];
    return rc;
}

/* The result: one record. */
static const bench_column bases_mpi_columns[] = {
    {"bench", NULL, NULL, BENCH_TEXT, 0},
    {"curve", "curve", NULL, BENCH_TEXT, 0},
    {"log2n", "n", "2^%lld", BENCH_INT, 0},
    {"ranks", "ranks", NULL, BENCH_INT, 0},
    {"level", "level", NULL, BENCH_INT, 0},
    {"reps", NULL, NULL, BENCH_INT, 0},
    {"prepare_seconds", "prepare s", "%.3f", BENCH_REAL, 0},
    {"one_rank_seconds", "1 rank s/call", "%.4f", BENCH_REAL, 0},
    {"ranks_seconds", "P ranks s/call", "%.4f", BENCH_REAL, 0},
    {"speedup", "speedup", "%.2f", BENCH_REAL, 0},
    {"speedup_min", "min of rounds", "%.2f", BENCH_REAL, 0},
    {"speedup_max", "max of rounds", "%.2f", BENCH_REAL, 0},
};

static void print(const bases_mpi_opts *o, const bases_mpi_figures *f, int P)
{
    mulred_json_writer jw, *w = o->json ? &jw : NULL;
    if (w) {
        mulred_jw_init(w, stdout);
        mulred_jw_object_begin(w, NULL);
    }
    bench_table t;
    bench_table_begin(&t, w, NULL, bases_mpi_columns,
                      sizeof bases_mpi_columns / sizeof bases_mpi_columns[0]);
    BENCH_ROW(&t, BENCH_S("bases-mpi"), BENCH_S(mulred_curve_name(o->curve)), BENCH_I(o->log2n),
              BENCH_I(P), BENCH_I(o->level), BENCH_I(o->reps), BENCH_R(f->prepare), BENCH_R(f->one),
              BENCH_R(f->many), BENCH_R(f->one / f->many), BENCH_R(f->ratio_lo),
              BENCH_R(f->ratio_hi));
    bench_table_end(&t);
    if (w) {
        mulred_jw_object_end(w);
        mulred_jw_finish(w);
    }
}

/* Everything after the options, on every rank. */
static int run(const bases_mpi_opts *o, mulred_error *err)
{
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD), P = mulred_mpi_size(MPI_COMM_WORLD);
    const size_t n = (size_t)1 << o->log2n;
    char path[4200];
    snprintf(path, sizeof path, "%s/mulred-bench-bases-%ld.bin", o->dir, (long)getppid());
    int rc = rank == 0 ? write_points(path, o->curve, n, err) : MULRED_OK;
    rc = mulred_mpi_agree(MPI_COMM_WORLD, err);
    mulred_mpi_bases *db = NULL;
    mulred_bases *whole = NULL;
    bases_mpi_figures fig = {0};
    double t0 = mulred_wtime();
    if (rc == MULRED_OK)
        rc = mulred_mpi_bases_open(&db, MPI_COMM_WORLD, path, o->curve, 0, (unsigned)o->level, 1,
                                   err);
    fig.prepare = mulred_wtime() - t0;
    if (rc == MULRED_OK && rank == 0) {
        rc = mulred_bases_make_file(&whole, path, o->curve, 0, true, 0, err);
        if (rc == MULRED_OK && o->level)
            rc = mulred_bases_precompute(whole, (unsigned)o->level, 0, 0, err);
    }
    uint8_t *scalars = malloc(32 * n);
    if (!scalars && rc == MULRED_OK) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    for (size_t i = 0; rc == MULRED_OK && i < n; i++) {
        mulred_scalar256 s;
        mulred_msm_synth_scalar(&s, o->curve, 2, i);
        for (int k = 0; k < 32; k++)
            scalars[32 * i + 31 - k] = (uint8_t)(s.l[k / 8] >> (8 * (k % 8)));
    }
    rc = mulred_mpi_agree(MPI_COMM_WORLD, err);
    if (rc == MULRED_OK) rc = rounds(&fig, db, whole, scalars, (int)o->reps, err);
    if (rc == MULRED_OK && rank == 0) print(o, &fig, P);
    if (rank == 0) remove(path);
    free(scalars);
    mulred_bases_free(whole);
    mulred_mpi_bases_free(db);
    return rc;
}

mulred_exit mulred_bench_bases_mpi(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    bases_mpi_opts o = {18, 7, 0, MULRED_CURVE_BLS12_381, false, tmp && *tmp ? tmp : "/tmp"};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    if (!bench_options("bases-mpi",
                       &(const mulred_key_table){keys, sizeof keys / sizeof keys[0], &o}, argc,
                       argv, usage, &p, &rc)) {
        mulred_key_parser_free(&p);
        return rc;
    }
    mulred_error err;
    mulred_error_clear(&err);
    rc = run(&o, &err);
    if (rc != MULRED_OK) mulred_out_error(&err);
    mulred_key_parser_free(&p);
    return rc;
}

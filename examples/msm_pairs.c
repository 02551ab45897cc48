/* A multi-scalar multiplication over an EIP-2537 pair file with libmulred alone (no MPI).
 *
 *   msm_pairs [PAIR_FILE]
 *
 * A pair file holds records of a 128-byte EIP-2537 G1 point and a 32-byte big-endian scalar,
 * as hex (what `mulred msm --curve bls12-381 --input FILE` reads). With no argument the program
 * writes one itself: the points i·G with the scalars i for i = 1..8, whose sum is
 * (1² + … + 8²)·G = 204·G, and checks the result against 204·G computed by additions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mulred/mulred.h>

enum { N = 8 };

/* k·G by repeated addition (k small). */
static void multiple_of_g(mulred_g1_381_jacobian *r, unsigned k)
{
    mulred_g1_381_affine g;
    mulred_g1_381_generator(&g);
    mulred_g1_381_jacobian_set_infinity(r);
    for (unsigned i = 0; i < k; i++) mulred_g1_381_jacobian_add_affine(r, r, &g);
}

static int write_pairs(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    for (unsigned i = 1; i <= N; i++) {
        mulred_g1_381_jacobian p;
        mulred_g1_381_affine a;
        uint8_t point[128], scalar[32] = {0};
        multiple_of_g(&p, i);
        mulred_g1_381_jacobian_to_affine(&a, &p);
        mulred_g1_381_encode_eip2537(point, &a);
        scalar[31] = (uint8_t)i;
        for (int b = 0; b < 128; b++) fprintf(f, "%02x", point[b]);
        for (int b = 0; b < 32; b++) fprintf(f, "%02x", scalar[b]);
        fputc('\n', f);
    }
    return fclose(f);
}

/* Reads, validates and sums the pairs of path into *sum with the default threads. */
static int msm_of_file(mulred_g1_381_jacobian *sum, uint64_t *pairs, const char *path,
                       mulred_error *err)
{
    const mulred_curve c = MULRED_CURVE_BLS12_381;
    mulred_msm_file *f = NULL;
    uint64_t *digits = NULL;
    mulred_g1_381_affine *points = NULL;
    mulred_scalar256 *scalars = NULL;
    int rc = mulred_msm_file_open(&f, path, c, false, 0, err);
    if (rc == MULRED_OK) { /* a hex file: count its digits, then it knows its pairs */
        const uint64_t units = mulred_msm_file_units(f);
        digits = calloc(units, sizeof *digits);
        if (!digits) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        if (rc == MULRED_OK) rc = mulred_msm_file_count(digits, f, 0, units, err);
    }
    if (rc == MULRED_OK) rc = mulred_msm_file_index(f, digits, err);
    const uint64_t n = rc == MULRED_OK ? mulred_msm_file_pairs(f) : 0;
    if (rc == MULRED_OK) {
        points = malloc(n * sizeof *points);
        scalars = malloc(n * sizeof *scalars);
        if (!points || !scalars) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    }
    /* every point decoded and on the curve, then in G1, before any arithmetic */
    if (rc == MULRED_OK) rc = mulred_msm_file_read(points, scalars, f, 0, n, 0, err);
    if (rc == MULRED_OK) rc = mulred_msm_check_subgroup(points, n, c, 0, path, 0, err);
    if (rc == MULRED_OK) {
        mulred_msm_plan plan;
        mulred_msm_curve_plan(c, &plan, n, NULL); /* window width, GLV, buckets: automatic */
        rc = mulred_msm_curve_windows(c, sum, &plan, 0, plan.windows, points, scalars, n, 0, err);
    }
    *pairs = n;
    free(points);
    free(scalars);
    free(digits);
    mulred_msm_file_close(f);
    return rc;
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/mulred-example-XXXXXX", path[64];
    if (argc > 1) {
        snprintf(path, sizeof path, "%s", argv[1]);
    } else {
        if (!mkdtemp(dir)) return perror("mkdtemp"), 3;
        snprintf(path, sizeof path, "%s/pairs.hex", dir);
        if (write_pairs(path)) return perror("writing the pair file"), 3;
    }
    mulred_error err;
    mulred_error_clear(&err);
    mulred_g1_381_jacobian sum;
    uint64_t n = 0;
    int rc = msm_of_file(&sum, &n, path, &err);
    if (argc == 1) unlink(path), rmdir(dir);
    if (rc != MULRED_OK) {
        fprintf(stderr, "msm_pairs: %s\n", err.message);
        return rc;
    }
    uint8_t out[128];
    mulred_msm_curve_encode(MULRED_CURVE_BLS12_381, out, &sum);
    printf("msm of %llu pairs: ", (unsigned long long)n);
    for (int i = 0; i < 128; i++) printf("%02x", out[i]);
    printf("\n");
    if (argc == 1) {
        mulred_g1_381_jacobian want;
        multiple_of_g(&want, 204);
        int same = mulred_g1_381_jacobian_equal(&sum, &want);
        printf("equals 204*G: %s\n", same ? "yes" : "NO");
        return same ? 0 : 1;
    }
    return 0;
}

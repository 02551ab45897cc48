/* The base-set readers (mulred/bases.h, bases_io.h): the point decoder over every curve and
 * encoding, and the trusted-cache loader.
 *
 * Points: the input after a control byte is a points buffer for the curve and encoding the byte
 * picks; mulred_bases_make must accept exactly when every point decodes with the curve layer's
 * decoder and lies in the subgroup (checked here one point at a time), and otherwise name the
 * lowest bad point. Cache: the input is a cache file; mulred_bases_load must refuse it or, when
 * it accepts, the set saved again must be the same bytes (nothing unchecked got in), and an MSM
 * over it must run.
 *
 * Input: a control byte (bit 0: cache; bits 1-2: the curve; bits 3-4: the encoding), then the
 * bytes. */
#include "fuzz_common.h"

#include "mulred/bases.h"
#include "mulred/bases_io.h"
#include "mulred/curve.h"

/* One point through the curve layer, every check: true when valid. */
static bool point_ok(mulred_curve c, mulred_point_encoding e, const uint8_t *in)
{
    mulred_g1_381_affine a1;
    mulred_g1_254_affine a2;
    mulred_g2_381_affine b1;
    mulred_g2_254_affine b2;
    switch (c) {
    case MULRED_CURVE_BLS12_381:
        return (e == MULRED_POINTS_COMPRESSED
                    ? mulred_g1_381_decode_compressed(&a1, in, 0, NULL)
                    : mulred_g1_381_decode_eip2537(&a1, in, 0, NULL)) == MULRED_OK;
    case MULRED_CURVE_BN254:
        return mulred_g1_254_decode_eip196(&a2, in, 0, NULL) == MULRED_OK;
    case MULRED_CURVE_BLS12_381_G2:
        if (e == MULRED_POINTS_COMPRESSED)
            return mulred_g2_381_decode_compressed(&b1, in, 0, NULL) == MULRED_OK;
        if (e == MULRED_POINTS_UNCOMPRESSED)
            return mulred_g2_381_decode_uncompressed(&b1, in, 0, NULL) == MULRED_OK;
        return mulred_g2_381_decode_eip2537(&b1, in, 0, NULL) == MULRED_OK;
    default:
        return mulred_g2_254_decode_eip197(&b2, in, 0, NULL) == MULRED_OK;
    }
}

static void fuzz_points(mulred_curve c, mulred_point_encoding e, const uint8_t *d, size_t n)
{
    const size_t B = mulred_point_encoding_bytes(c, e);
    mulred_bases *b = NULL;
    mulred_error err;
    const int st = mulred_bases_make(&b, c, e, d, n, "f", 2, &err);
    if (B == 0 || n % B) {
        FUZZ_CHECK(st == MULRED_EINPUT, "no encoding or a partial point accepted");
        return;
    }
    size_t bad = n / B;
    for (size_t i = 0; i < n / B && bad == n / B; i++)
        if (!point_ok(c, e, d + i * B)) bad = i;
    if (bad == n / B) {
        FUZZ_CHECK(st == MULRED_OK, "valid points refused: %s", err.message);
        mulred_bases_free(b);
        return;
    }
    char want[48];
    snprintf(want, sizeof want, "f: point %zu: ", bad);
    FUZZ_CHECK(st == MULRED_EINPUT && strncmp(err.message, want, strlen(want)) == 0,
               "point %zu bad, got status %d '%s'", bad, st, err.message);
}

static void fuzz_cache(const uint8_t *d, size_t n)
{
    char path[64];
    const int fd = fuzz_memfile(path, d, n);
    mulred_bases *b = NULL;
    mulred_error err;
    const int st = mulred_bases_load(&b, path, -1, &err);
    close(fd);
    if (st != MULRED_OK) {
        FUZZ_CHECK(st == MULRED_EINPUT || st == MULRED_ERUNTIME, "status %d", st);
        return;
    }
    char out[] = "/tmp/mulred-fuzz-bases-XXXXXX";
    const int ofd = mkstemp(out);
    FUZZ_CHECK(ofd >= 0, "mkstemp");
    close(ofd);
    FUZZ_CHECK(mulred_bases_save(b, out, &err) == MULRED_OK, "save: %s", err.message);
    FILE *f = fopen(out, "rb");
    uint8_t *again = malloc(n + 1);
    const size_t got = fread(again, 1, n + 1, f);
    fclose(f);
    unlink(out);
    FUZZ_CHECK(got == n && memcmp(again, d, n) == 0, "an accepted cache saves differently");
    free(again);
    uint8_t zero[32] = {0}, r[288];
    FUZZ_CHECK(mulred_bases_msm(r, b, zero, MULRED_SCALARS_BE32, mulred_bases_size(b) ? 1 : 0, 1,
                                &err) == MULRED_OK,
               "msm over a loaded set");
    mulred_bases_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20)) return 0;
    if (data[0] & 1) {
        fuzz_cache(data + 1, size - 1);
        return 0;
    }
    const mulred_curve c = (mulred_curve)((data[0] >> 1) & 3);
    const mulred_point_encoding e = (mulred_point_encoding)(((data[0] >> 3) & 3) % 3);
    fuzz_points(c, e, data + 1, size - 1);
    return 0;
}

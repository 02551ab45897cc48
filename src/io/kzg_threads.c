/* Many KZG commitments at once (mulred_kzg_blobs_to_commitments, include/mulred/kzg.h): threads
 * across blobs (creates threads), each blob the single call's one-thread MSM over the setup's
 * base set, so every commitment is the single call's bytes. */
#include <stdlib.h>
#include <string.h>

#include "mulred/kzg.h"
#include "util/check.h"

mulred_status mulred_kzg_blobs_to_commitments(uint8_t *out, const mulred_kzg_setup *s,
                                              const uint8_t *blobs, size_t k, int threads,
                                              mulred_error *err)
{
    MULRED_ARG_CHECK(s != NULL && (k == 0 || (out != NULL && blobs != NULL)));
    const int T = mulred_threads_resolve(threads);
    size_t bad = k; /* the lowest blob that failed */
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) reduction(min : bad)
    for (size_t j = 0; j < k; j++)
        if (mulred_kzg_blob_to_commitment(out + j * MULRED_KZG_COMMITMENT_BYTES, s,
                                          blobs + j * (size_t)MULRED_KZG_BLOB_BYTES,
                                          NULL) != MULRED_OK &&
            j < bad)
            bad = j;
    if (bad == k) return MULRED_OK;
    /* its message: the lowest bad blob once more (the loop kept only its index) */
    mulred_error e;
    mulred_error_clear(&e);
    uint8_t c[MULRED_KZG_COMMITMENT_BYTES];
    const int st =
        mulred_kzg_blob_to_commitment(c, s, blobs + bad * (size_t)MULRED_KZG_BLOB_BYTES, &e);
    return mulred_error_set(err, st, "blob %zu: %s", bad, e.message);
}

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
    int bad_status = MULRED_OK;
    mulred_error bad_err;
    mulred_error_clear(&bad_err);
#pragma omp parallel for schedule(dynamic, 1) num_threads(T)
    for (size_t j = 0; j < k; j++) {
        mulred_error e;
        mulred_error_clear(&e);
        const mulred_status st =
            mulred_kzg_blob_to_commitment(out + j * MULRED_KZG_COMMITMENT_BYTES, s,
                                          blobs + j * (size_t)MULRED_KZG_BLOB_BYTES, &e);
        if (st != MULRED_OK) {
#pragma omp critical(mulred_kzg_many)
            if (j < bad) bad = j, bad_status = st, bad_err = e;
        }
    }
    if (bad == k) return MULRED_OK;
    return mulred_error_set(err, bad_status, "blob %zu: %s", bad, bad_err.message);
}

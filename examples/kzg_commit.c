/* A KZG commitment (EIP-4844) with libmulred alone: the commitment to a blob.
 *
 *   kzg_commit [TRUSTED_SETUP [BLOB_FILE]]
 *
 * The setup is the Ethereum trusted setup in c-kzg-4844's text format (the project ships it as
 * tests/vectors/kzg/trusted_setup.txt, the default). With no blob file it commits to the blob
 * whose first field element is 1 and all others 0: that commitment is the setup's first
 * Lagrange point, the third line of the setup file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mulred/mulred.h>

#ifndef MULRED_EXAMPLE_SETUP
#define MULRED_EXAMPLE_SETUP "trusted_setup.txt"
#endif

int main(int argc, char **argv)
{
    const char *setup_path = argc > 1 ? argv[1] : MULRED_EXAMPLE_SETUP;
    static uint8_t blob[MULRED_KZG_BLOB_BYTES];
    mulred_error err;
    mulred_error_clear(&err);
    int rc = MULRED_OK;
    if (argc > 2)
        rc = mulred_kzg_blob_read(blob, argv[2], &err);
    else
        blob[31] = 1; /* element 0 = 1: 32 big-endian bytes */

    mulred_kzg_setup *setup = NULL;
    if (rc == MULRED_OK) /* cache "": the table is built in memory, nothing written */
        rc = mulred_kzg_setup_load(&setup, setup_path, "", NULL, &err);
    uint8_t commitment[MULRED_KZG_COMMITMENT_BYTES];
    if (rc == MULRED_OK) rc = mulred_kzg_blob_to_commitment(commitment, setup, blob, &err);
    mulred_kzg_setup_free(setup);
    if (rc != MULRED_OK) {
        fprintf(stderr, "kzg_commit: %s\n", err.message);
        return rc;
    }
    printf("commitment ");
    for (size_t i = 0; i < sizeof commitment; i++) printf("%02x", commitment[i]);
    printf("\n");
    return 0;
}

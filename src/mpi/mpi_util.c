/* What the MPI layer needs beside libmulred's public functions (libmulred_mpi links
 * against those only: the core's internals are hidden in its shared library): SHA-256 straight
 * from libcrypto. */
#include <openssl/evp.h>

#include "mpi/mpi_internal.h"

int mpi_sha256(uint8_t out[32], const uint8_t *data, size_t len)
{
    unsigned int n = 0;
    return EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) == 1 && n == 32 ? 0 : -1;
}

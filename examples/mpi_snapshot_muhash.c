/* The MuHash3072 of a Bitcoin Core UTXO snapshot (dumptxoutset) through libmulred_mpi: what
 * `bitcoin-cli gettxoutsetinfo muhash` prints for the snapshot's chain tip.
 *
 *   mpirun -n 2 mpi_snapshot_muhash [SNAPSHOT]
 *
 * Every rank reads its share of the coins (through the sidecar index SNAPSHOT.idx, which rank 0
 * builds on first use beside the file, or under $MULRED_UTXO_INDEX_DIR) with its threads; the
 * partials meet in the library's reduce. The default snapshot is the regtest one the project
 * ships (tests/vectors/bitcoin/regtest-small.dat), whose muhash Bitcoin Core reported as
 * 6c543f508c9ceba0441ea8b53b1d3443ab6bc810b46ac904096b3a1f8cef03a4. */
#include <stdio.h>

#include <mulred/mulred_mpi.h>

#ifndef MULRED_EXAMPLE_SNAPSHOT
#define MULRED_EXAMPLE_SNAPSHOT "regtest-small.dat"
#endif

int main(int argc, char **argv)
{
    mulred_error err;
    if (mulred_mpi_init(&argc, &argv, &err) != MULRED_OK) {
        fprintf(stderr, "mpi_snapshot_muhash: %s\n", err.message);
        return 3;
    }
    const char *path = argc > 1 ? argv[1] : MULRED_EXAMPLE_SNAPSHOT;
    mulred_mpi_muhash_job job;
    mulred_mpi_muhash_job_init(&job); /* flavor bitcoin */
    job.snapshot = &path;
    job.nsnapshot = 1;
    mulred_mpi_muhash_result res;
    int rc = mulred_mpi_muhash(MPI_COMM_WORLD, &job, &res, &err);
    if (mulred_mpi_rank(MPI_COMM_WORLD) == 0) {
        if (rc != MULRED_OK) {
            fprintf(stderr, "mpi_snapshot_muhash: %s\n", err.message);
        } else {
            char block[65];
            mulred_utxo_block_hash_hex(block, &res.snapshot_header);
            printf("muhash %s\n", res.hex);
            printf("%llu coins at block %s, %d ranks x %d threads\n", (unsigned long long)res.coins,
                   block, res.ranks, res.threads);
        }
    }
    mulred_mpi_finalize();
    return rc;
}

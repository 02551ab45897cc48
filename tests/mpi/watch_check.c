/* The stall watch of the MPI layer on real ranks (run by tests/mpi/stall.sh under mpiexec).
 *
 * Usage: watch_check MODE STALL_SECONDS
 *   lost   rank 0 waits for a message no rank sends, the others in a barrier rank 0 never
 *          enters: every rank is alive and waiting, nothing arrives. The watch must end the job
 *          (exit 3, "every rank has waited") within about the stall timeout.
 *   busy   rank 1 computes for three stall timeouts and then sends rank 0 the message it waits
 *          for: computing is a sign of life, so the job must end normally (exit 0, "busy: ok").
 *   late   rank 1 starts the watch two stall timeouts after the others: the set-up deadline must
 *          end the job (exit 3, "not every rank took part").
 * Each waits through the layer's own WAITED() marking, as the jobs do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    mulred_error err;
    mulred_error_clear(&err);
    if (argc != 3 || mulred_mpi_init(&argc, &argv, &err) != MULRED_OK) {
        fprintf(stderr, "usage: watch_check lost|busy|late STALL_SECONDS (%s)\n", err.message);
        return 1;
    }
    const char *mode = argv[1];
    const double stall = atof(argv[2]);
    const int rank = mulred_mpi_rank(MPI_COMM_WORLD), size = mulred_mpi_size(MPI_COMM_WORLD);
    if (size < 2) {
        fprintf(stderr, "watch_check needs at least 2 ranks\n");
        return 1;
    }
    if (strcmp(mode, "late") == 0 && rank == 1) {
        struct timespec pause = {(time_t)(2 * stall), 0};
        nanosleep(&pause, NULL);
    }
    if (mpi_watch_start(MPI_COMM_WORLD, stall, "watch_check", NULL, NULL, &err) != MULRED_OK) {
        fprintf(stderr, "watch_check: %s\n", err.message);
        return 1;
    }
    int v = 0, rc = MPI_SUCCESS;
    if (strcmp(mode, "lost") == 0) {
        if (rank == 0)
            rc = WAITED(MPI_Recv(&v, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        else
            rc = WAITED(MPI_Barrier(MPI_COMM_WORLD));
    } else if (strcmp(mode, "busy") == 0) {
        if (rank == 1) {
            volatile double x = 1; /* computing, outside any wait */
            const double until = now() + 3 * stall;
            while (now() < until) x = x * 1.0000001 + 1e-9;
            v = 42;
            rc = WAITED(MPI_Send(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD));
        } else if (rank == 0) {
            rc = WAITED(MPI_Recv(&v, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
    }
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "watch_check: MPI failed\n");
        return 1;
    }
    if (mpi_watch_stop(&err) != MULRED_OK) {
        fprintf(stderr, "watch_check: %s\n", err.message);
        return 1;
    }
    if (rank == 0) printf("%s: ok%s\n", mode, v == 42 ? " (message 42 arrived)" : "");
    mulred_mpi_finalize();
    return 0;
}

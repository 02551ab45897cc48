#!/usr/bin/env bash
# The MPI layer and the launch scripts against MPICH (Debian's mpich 4.0, installed beside Open
# MPI, which stays the default mpirun and mpicc): a build of its own in build-mpich with MPICH's
# compiler wrapper and launcher, without the Python module (Debian's mpi4py is built with Open
# MPI) and with the invariant checks compiled into the library (one build of it serves the
# command and the MPI test programs); only the targets the tests run are built. Then a sample of
# CTest's MPI tests, kept short for CI: mpi.mpi_layer (the group reduction and distributed base
# sets on 1-4 ranks), mpi.stall (the stall watch, a stopped rank, both schedules' hand-out) and
# mpi.checkpoint_kill (a SIGKILLed rank, resumed on another rank count), and cli.launch
# (mulred-launch and mulred.sbatch in MPICH's spelling, a 2-rank job through mulred.sbatch), and
# the option matrix's sample of run cases (cli.matrix with MULRED_MATRIX=runs: ranks, schedules,
# checkpoints resumed on other rank counts, job lists).
# MPICH_TESTS='^mpi\.' runs every MPI test (their programs are all built).
#   bash scripts/mpich.sh [ctest options]      MPICH_BUILD_DIR, MPICH_TESTS, MPICH_EXCLUDE
. "$(dirname "$0")/common.sh"
install_packages "${MULRED_PACKAGES[@]}" python3 mpich libmpich-dev
BUILD_DIR=${MPICH_BUILD_DIR:-$MULRED_ROOT/build-mpich}
MULRED_BUILD_TARGETS="mulred_cli mpi_groups watch_check bases_mpi msm_synth_ref" build_mulred \
    -DMPI_C_COMPILER=/usr/bin/mpicc.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich \
    -DMULRED_VERIFY=ON -DMULRED_BUILD_EXAMPLES=OFF
# the command must run on MPICH's library, not Open MPI's (no grep -q in a pipe: with pipefail,
# ldd ended by SIGPIPE would fail the check)
if [[ "$(ldd "$BUILD_DIR/mulred")" != *libmpich* ]]; then
    echo "scripts/mpich.sh: $BUILD_DIR/mulred is not linked with MPICH (a build folder configured" \
        "for another MPI? remove it)" >&2
    exit 1
fi
cd "$BUILD_DIR"
MULRED_MATRIX=runs ctest --output-on-failure -j "$(nproc)" \
    -R "${MPICH_TESTS:-^(mpi\.(mpi_layer|stall|checkpoint_kill)|cli\.(launch|matrix))\$}" \
    ${MPICH_EXCLUDE:+-E "$MPICH_EXCLUDE"} "$@"

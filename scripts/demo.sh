#!/usr/bin/env bash
# The README's first command: install, build, run mulred's main job on its embedded default
# (synthetic MuHash sets under mpirun with 2 ranks), printing the results and throughput.
. "$(dirname "$0")/common.sh"
install_packages "${MULRED_PACKAGES[@]}"
MULRED_BUILD_TARGETS=mulred_cli build_mulred # the command only; scripts/test.sh builds the rest
cd "$MULRED_ROOT"
mpirun -n 2 --bind-to none -x OMP_NUM_THREADS=1 "$BUILD_DIR/mulred" run jobs/demo.job

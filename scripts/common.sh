# Shared steps of the README's commands (sourced). Idempotent: packages already installed and
# an up-to-date build are skipped.
set -euo pipefail
MULRED_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$MULRED_ROOT/build}

# Debian 12 packages mulred builds, tests and runs with.
MULRED_PACKAGES=(gcc libc6-dev make cmake pkg-config git ca-certificates
    libopenmpi-dev openmpi-bin libgmp-dev libssl-dev libsecp256k1-dev libcunit1-dev
    libjansson-dev gnuplot-nox)
# What the test suite needs beyond that: python3 reads JSON in the script tests (a minimal
# Debian image has none of it); python3-dev, python3-mpi4py and python3-pytest build and test
# the Python module (-DMULRED_PYTHON=ON, docs/python.md); everything else they call is in
# Debian's essential set (coreutils, grep, sed, mawk, diffutils, findutils, hostname).
MULRED_TEST_PACKAGES=(python3 python3-dev python3-mpi4py python3-pytest python3-numpy)
# The Python package as docs/python.md installs it (pip install ., python3 -m build, a venv) and
# its type check (CTest python.venv and python.mypy).
MULRED_TEST_PACKAGES+=(python3-pip python3-venv python3-setuptools python3-wheel python3-build mypy)
# The source format check (CTest repo.format).
MULRED_TEST_PACKAGES+=(clang-format)

install_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    echo "==> installing: ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Builds everything, or only the targets named in MULRED_BUILD_TARGETS (the demo: the command).
build_mulred() { # extra cmake arguments
    if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
        # the README's configuration and nothing more, so that the README's and
        # docs/install.md's commands on this build directory give the layout they document
        # (tests/install/docs_layout.sh)
        cmake -S "$MULRED_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@"
    fi
    # shellcheck disable=SC2086 # target names are words
    cmake --build "$BUILD_DIR" -j "$(nproc)" ${MULRED_BUILD_TARGETS:+--target $MULRED_BUILD_TARGETS}
}

# run_limited JOBS COMMAND ITEM...: runs "COMMAND ITEM" for every ITEM in the background, at
# most JOBS at a time, and waits for them all. COMMAND records its own outcome (a log and a
# status file): the statuses of the background runs are not collected here.
run_limited() {
    local jobs=$1 cmd=$2 running=0 item
    shift 2
    for item in "$@"; do
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true
            running=$((running - 1))
        fi
        "$cmd" "$item" &
        running=$((running + 1))
    done
    wait
}

# mpirun as root needs explicit consent; more ranks than cores needs oversubscription.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

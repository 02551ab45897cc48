# Shared helpers of the script tests (sourced). CTest sets MULRED, MULRED_VECTORS, MPIEXEC,
# MPIEXEC_NUMPROC_FLAG, MPIEXEC_FLAGS, MULRED_TEST_MPI (openmpi or mpich: the MPI of the build,
# told by its launcher's --version) and TEST_TMP.
set -euo pipefail
: "${MULRED:?set by CTest}"
: "${TEST_TMP:=$(mktemp -d)}"
# (read-only copies made by readonly_vectors below are made writable again before removal)
[ -d "$TEST_TMP" ] && chmod -R u+w "$TEST_TMP"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
failures=0
checks=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { checks=$((checks + 1)); }

# expect_status WANT CMD... : runs CMD, checks its exit status; stdout in $out, stderr in $err.
expect_status() {
    local want=$1; shift
    local got=0
    "$@" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr" || got=$?
    out=$(cat "$TEST_TMP/stdout"); err=$(cat "$TEST_TMP/stderr")
    if [ "$got" -ne "$want" ]; then
        fail "exit $got (want $want): $*"; echo "  stdout: $out" >&2; echo "  stderr: $err" >&2
    else
        pass
    fi
}
expect_contains() { # HAYSTACK NEEDLE WHAT
    case "$1" in *"$2"*) pass ;; *) fail "$3: '$2' not in: $1" ;; esac
}
expect_equal() { # GOT WANT WHAT
    if [ "$1" = "$2" ]; then pass; else fail "$3: got '$1', want '$2'"; fi
}

# mpi_root_flag: prints the launcher's consent to run as root when it needs one (Open MPI's
# --allow-run-as-root; MPICH's Hydra needs none), else nothing.
mpi_root_flag() {
    if [ "$(id -u)" = 0 ] && [ "${MULRED_TEST_MPI:-openmpi}" = openmpi ]; then echo --allow-run-as-root; fi
}

# mpi N CMD... : runs CMD under the MPI launcher with N ranks (MPIEXEC_FLAGS: oversubscribed and
# unbound; as root Open MPI needs its explicit consent).
mpi() {
    local n=$1; shift
    local root_flags=()
    [ -n "$(mpi_root_flag)" ] && root_flags=(--allow-run-as-root)
    # In sanitizer builds, leak checking stays on for single-process runs only: Open MPI unloads
    # its components before LeakSanitizer reports, so their allocations show up as leaks from an
    # "<unknown module>" that no suppression can name. (Ignored by builds without ASan.)
    # shellcheck disable=SC2086
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        "${MPIEXEC:-mpiexec}" "${MPIEXEC_NUMPROC_FLAG:--n}" "$n" ${MPIEXEC_FLAGS---oversubscribe} \
        "${root_flags[@]}" "$@"
}

# readonly_vectors SUBDIR: prints the path of a copy of $MULRED_VECTORS/SUBDIR in $TEST_TMP whose
# directory mode grants no write permission. mulred treats such a directory as read-only by
# intent, also for root, so runs on the copy keep their sidecar index in memory and never write
# next to the repository's vectors.
readonly_vectors() {
    local dst="$TEST_TMP/vectors/$1"
    if [ ! -d "$dst" ]; then
        mkdir -p "$(dirname "$dst")"
        cp -R "$MULRED_VECTORS/$1" "$dst"
        chmod -R a-w "$dst"
    fi
    printf '%s\n' "$dst"
}

finish() {
    echo "$checks passed, $failures failed"
    [ "$failures" -eq 0 ]
}

# mpi_rank_pid JOB RANK: the pid of MPI rank RANK among the descendants of process JOB (a
# launcher started in the background: timeout -> mpiexec -> ranks, perhaps through an orted),
# found through the rank's environment (Open MPI's OMPI_COMM_WORLD_RANK, MPICH's PMI_RANK);
# nothing when there is none.
mpi_rank_pid() {
    local family=" $1 " pair pid
    for _ in 1 2 3 4; do
        for pair in $(ps -e -o pid=,ppid= | awk '{ print $1 ":" $2 }'); do
            case "$family" in *" ${pair#*:} "*) case "$family" in *" ${pair%:*} "*) ;;
                *) family="$family${pair%:*} " ;; esac ;; esac
        done
    done
    for pid in $family; do
        { tr '\0' '\n' < "/proc/$pid/environ" | grep -qxE "(OMPI_COMM_WORLD_RANK|PMI_RANK)=$2"; } 2>/dev/null &&
            { echo "$pid"; return 0; }
    done
    return 0
}

# mpi_rank_pid_wait JOB RANK: mpi_rank_pid as soon as the rank's process exists (polled every
# 0.05 s for up to 60 s); empty when JOB ended first.
mpi_rank_pid_wait() {
    local pid=""
    for _ in $(seq 1 1200); do
        pid=$(mpi_rank_pid "$1" "$2")
        [ -n "$pid" ] || ! kill -0 "$1" 2>/dev/null && break
        sleep 0.05
    done
    echo "$pid"
}

# units_in DIR: how many checkpoint unit files DIR holds (0 before it exists).
units_in() {
    if [ -d "$1" ]; then find "$1" -maxdepth 1 -name 'unit-*.ckpt' | wc -l; else echo 0; fi
}

# kill_and_wait PID JOB SAVED: SIGKILL process PID (a rank of the background launcher JOB,
# SAVED unit files on disk) and wait for JOB: it must end with a non-zero status, not by its
# timeout (124), and within 60 s of the kill.
kill_and_wait() {
    local t0 status=0 elapsed
    kill -KILL "$1"
    t0=$(date +%s)
    wait "$2" || status=$?
    elapsed=$(( $(date +%s) - t0 ))
    echo "killed rank 1 (pid $1) with $3 unit files saved; the job ended with status $status" \
        "after $elapsed s"
    [ "$status" -ne 0 ] && pass || fail "the job whose rank was killed exited 0"
    [ "$status" -ne 124 ] && pass || fail "the job whose rank was killed hung until the timeout"
    [ "$elapsed" -le 60 ] && pass || fail "the job took $elapsed s to end after the kill"
}

# wait_units DIR COUNT JOB TRIES PAUSE: waits until DIR holds COUNT checkpoint unit files, the
# background job JOB has ended, or TRIES pauses of PAUSE seconds have passed.
wait_units() {
    local _
    for _ in $(seq 1 "$4"); do
        [ "$(units_in "$1")" -ge "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || return 0
        sleep "$5"
    done
}

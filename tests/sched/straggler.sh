# The straggler check of the dynamic schedule (not part of the CTest suite: it runs for about
# half a minute and measures time; CI's cluster step and docs/performance.md run it standalone):
#
#   MULRED=build/mulred bash tests/sched/straggler.sh        (exit 0: every check passed)
#
# A MuHash job of many units (a synthetic set: STRAGGLER_ELEMENTS elements, blocks of 1024) runs
# on 2 ranks x 1 thread twice, static and dynamic, while one rank (STRAGGLER_RANK, default 1) is
# slowed from a background loop: SIGSTOP for STRAGGLER_STOP_MS, SIGCONT for STRAGGLER_RUN_MS
# (default 100 and 50 ms: the rank runs a third of the time, so its share of a static split takes
# 3x as long; ideal ratio dynamic/static 0.5, against 0.67 at half the time, which a shared
# machine's noise brings too close to the bound). Checks: both give the
# digest of one unslowed process; under dynamic the slow rank reduced fewer units (units_per_rank).
# The time of the dynamic job against the static one (their JSON "seconds": opening the inputs to
# the digest, the slowest rank) is a figure, printed as "ratio dynamic/static", not a check: on a
# shared machine its noise is no verdict on the schedule. Extra
# launcher options (a host list, a TCP interface) go in MPIEXEC_FLAGS; the slowed rank is found
# among the launcher's descendant processes on this machine (as with scripts/cluster.sh's
# namespaces), through its OMPI_COMM_WORLD_RANK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${MULRED:=$here/../../build/mulred}"
export MULRED
: "${TEST_TMP:=$(mktemp -d)}"
export TEST_TMP
MPIEXEC_FLAGS=${MPIEXEC_FLAGS:---oversubscribe --bind-to none}
. "$here/../lib.sh"

n=${STRAGGLER_ELEMENTS:-3000000}
slow=${STRAGGLER_RANK:-1}
stop_ms=${STRAGGLER_STOP_MS:-100} run_ms=${STRAGGLER_RUN_MS:-50}
stop_s=$(awk -v m="$stop_ms" 'BEGIN { printf "%.3f", m / 1000 }')
run_s=$(awk -v m="$run_ms" 'BEGIN { printf "%.3f", m / 1000 }')
args=(muhash --synthetic "$n" --seed 9 --threads 1 --json)

digest() { awk -F'"' '{ for (i = 1; i < NF; i++) if ($i == "result") print $(i + 2) }'; }
seconds() { sed -n 's/.*"seconds":\([0-9.e+-]*\),.*/\1/p' | head -n 1; }
per_rank() { sed -n 's/.*"units_per_rank":\[\([0-9,]*\)\].*/\1/p'; }

ref=$("$MULRED" "${args[@]}" | digest)
[ ${#ref} -eq 64 ] || { fail "no reference digest"; finish; exit 1; }

# run SCHEDULE: the job on 2 ranks with rank $slow slowed; its JSON in $out
run() {
    mpi 2 "$MULRED" "${args[@]}" --schedule "$1" > "$TEST_TMP/$1.out" 2> "$TEST_TMP/$1.err" &
    local job=$! pid="" _
    for _ in $(seq 1 200); do
        pid=$(mpi_rank_pid "$job" "$slow")
        [ -n "$pid" ] && break
        sleep 0.05
    done
    if [ -n "$pid" ]; then
        (
            trap 'kill -CONT "$pid" 2>/dev/null; exit 0' TERM
            while kill -0 "$pid" 2>/dev/null; do
                kill -STOP "$pid" 2>/dev/null || break
                sleep "$stop_s"
                kill -CONT "$pid" 2>/dev/null || break
                sleep "$run_s"
            done
        ) &
        local slower=$!
    else
        fail "$1: rank $slow not found"
    fi
    local status=0
    wait "$job" || status=$?
    [ -n "$pid" ] && { kill -TERM "$slower" 2>/dev/null || true; wait "$slower" 2>/dev/null || true; }
    expect_equal "$status" 0 "$1: exit status ($(cat "$TEST_TMP/$1.err"))"
    out=$(cat "$TEST_TMP/$1.out")
}

run static
t_static=$(printf '%s\n' "$out" | seconds) u_static=$(printf '%s\n' "$out" | per_rank)
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "static: the digest of one process"
run dynamic
t_dynamic=$(printf '%s\n' "$out" | seconds) u_dynamic=$(printf '%s\n' "$out" | per_rank)
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "dynamic: the digest of one process"

ratio=$(awk -v d="${t_dynamic:-0}" -v s="${t_static:-0}" 'BEGIN { printf "%.3f", (s > 0 ? d / s : 99) }')
echo "straggler: $n elements, 2 ranks x 1 thread, rank $slow stopped $stop_ms ms of every $((stop_ms + run_ms)) ms"
echo "static:  ${t_static} s, units per rank [$u_static]"
echo "dynamic: ${t_dynamic} s, units per rank [$u_dynamic]"
echo "ratio dynamic/static: $ratio (a figure, not a check; ideal 1/3 to 1/2 here)"
IFS=, read -r -a units <<< "$u_dynamic"
fast=$((1 - slow))
[ "${#units[@]}" -eq 2 ] && [ "${units[$slow]}" -lt "${units[$fast]}" ] && pass ||
    fail "the slow rank $slow did not reduce fewer units: [$u_dynamic]"
finish

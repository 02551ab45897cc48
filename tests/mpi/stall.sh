# Deadlines of the distributed jobs (docs/reliability.md) on one host:
#  - the stall watch itself (tests/mpi/watch_check.c): ranks all alive and waiting on a message
#    that never comes end within the stall timeout (exit 3); a rank computing for three stall
#    timeouts does not trip it; a rank that joins late ends the set-up;
#  - a stopped rank (SIGSTOP: alive for the kernel and the launcher, silent for the job) ends a
#    checkpointed 3-rank MuHash job within the stall timeout + 15 s, exit non-zero, the rank
#    and node named, no digest; the rerun on 2 ranks resumes to the uninterrupted digest;
#  - one MSM tile longer than the stall timeout does not trip it (same result as one process);
#  - the dynamic schedule's hand-out falls back to messages when MPI has no one-sided component
#    (OMPI_MCA_osc excluding all; under MPICH, which has no such switch, MULRED_HANDOUT asks for
#    the same hand-out), with the one-process results, and says which it used;
#  - bad --stall-timeout values (exit 1), a bad stall_timeout in a job file (exit 2, file:line),
#    a bad MULRED_STALL_TIMEOUT (exit 2).
. "$(dirname "$0")/../lib.sh"
: "${MULRED_TEST_BIN_DIR:?set by CTest}"
W=$MULRED_TEST_BIN_DIR/watch_check
digest() { sed -n 's/.*"result":"\([0-9a-f]*\)".*/\1/p'; }
result() { sed -n 's/.*"result":"\([0-9a-f]*\)".*/\1/p'; }
field() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }
# timed STATUS_VAR SECONDS_VAR CMD...: runs CMD (stdout, stderr in $out, $err)
timed() {
    local _t0 _st=0
    _t0=$(date +%s.%N)
    "${@:3}" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr" || _st=$?
    out=$(cat "$TEST_TMP/stdout"); err=$(cat "$TEST_TMP/stderr")
    printf -v "$1" '%s' "$_st"
    printf -v "$2" '%.1f' "$(awk -v a="$_t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')"
}
within() { # SECONDS BOUND WHAT
    if awk -v s="$1" -v b="$2" 'BEGIN { exit !(s <= b) }'; then pass; else fail "$3 took $1 s (bound $2 s)"; fi
}

# ---- the watch itself ----
timed st secs mpi 3 "$W" lost 2
echo "lost message: exit $st after $secs s"
[ "$st" -ne 0 ] && pass || fail "ranks waiting on a lost message exited 0"
expect_contains "$err" "every rank has waited on the others for" "the lost message is named"
within "$secs" 14 "ending the job on a lost message (stall 2 s)"
timed st secs mpi 2 "$W" busy 1
echo "busy rank: exit $st after $secs s"
expect_equal "$st" 0 "a rank computing for three stall timeouts is alive"
expect_contains "$out" "busy: ok (message 42 arrived)" "the busy rank's message arrived"
timed st secs mpi 2 "$W" late 1
echo "late rank: exit $st after $secs s"
[ "$st" -ne 0 ] && pass || fail "a rank joining two stall timeouts late was waited for"
expect_contains "$err" "watch_check: not every rank took part within 1 s" "the late rank is named"

# ---- a stopped rank in a checkpointed MuHash job, then the rerun ----
args=(muhash --synthetic 12000000 --seed 5 --threads 1 --json)
ref=$(OMP_NUM_THREADS=2 "$MULRED" "${args[@]}" --threads 2 | digest)
[ ${#ref} -eq 64 ] || fail "no one-process digest"
dir=$TEST_TMP/ck
mpi 3 "$MULRED" "${args[@]}" --checkpoint "$dir" --stall-timeout 2 \
    >"$TEST_TMP/stopped.out" 2>"$TEST_TMP/stopped.err" &
job=$!
wait_units "$dir" 2 "$job" 600 0.1
pid=$(mpi_rank_pid "$job" 2)
if [ -n "$pid" ] && kill -0 "$job" 2>/dev/null; then
    saved=$(units_in "$dir")
    kill -STOP "$pid"
    t0=$(date +%s)
    st=0
    wait "$job" || st=$?
    elapsed=$(($(date +%s) - t0))
    kill -CONT "$pid" 2>/dev/null || true
    echo "stopped rank 2 (pid $pid) with $saved units saved: exit $st after $elapsed s"
    [ "$st" -ne 0 ] && pass || fail "the job with a stopped rank exited 0"
    [ "$elapsed" -le 17 ] && pass || fail "the job took $elapsed s to end after the stop (stall 2 s)"
    expect_contains "$(cat "$TEST_TMP/stopped.err")" "rank 2 (" "the silent rank is named"
    expect_equal "$(digest <"$TEST_TMP/stopped.out")" "" "no digest printed after the stall"
    expect_status 0 mpi 2 "$MULRED" "${args[@]}" --checkpoint "$dir"
    expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "the rerun's digest"
    resumed=$(field "$out" resumed_units)
    [ "${resumed:-0}" -gt 0 ] && pass || fail "the rerun resumed nothing: $out"
else
    wait "$job" || true
    fail "the job ended before a rank could be stopped: $(cat "$TEST_TMP/stopped.err")"
fi

# ---- a tile longer than the stall timeout ----
msm=(msm --curve bls12-381 --synthetic 1048576 --seed 9 --json)
ref_msm=$("$MULRED" "${msm[@]}" | result)
expect_status 0 mpi 2 "$MULRED" "${msm[@]}" --threads 1 --stall-timeout 0.5
expect_equal "$(printf '%s\n' "$out" | result)" "$ref_msm" "MSM with tiles longer than the stall timeout"
tile=$(printf '%s\n' "$out" | sed -n 's/.*"msm":{"min":\([0-9.e-]*\),.*/\1/p')
awk -v t="${tile:-0}" 'BEGIN { exit !(t > 0.5) }' && pass || fail "the tile took ${tile:-?} s: too short to test"

# ---- the hand-out without a one-sided component ----
syn=(muhash --synthetic 300000 --seed 7 --json --schedule dynamic)
ref_syn=$("$MULRED" "${syn[@]}" | digest)
expect_status 0 mpi 3 "$MULRED" "${syn[@]}"
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref_syn" "dynamic MuHash, default hand-out"
expect_contains "$out" '"handout":"window"' "the window hands out by default here"
dmsm=(msm --curve bls12-381 --synthetic 4096 --seed 3 --json --schedule dynamic --checkpoint-unit 512)
ref_dmsm=$("$MULRED" msm --curve bls12-381 --synthetic 4096 --seed 3 --json | result)
if [ "${MULRED_TEST_MPI:-openmpi}" = mpich ]; then
    # MPICH has no switch that takes its one-sided component away: the coordinator's hand-out is
    # asked for instead (MULRED_HANDOUT), so that it still runs under MPICH
    no_window=MULRED_HANDOUT=coordinator
else
    no_window='OMPI_MCA_osc=^sm,pt2pt,rdma,ucx,monitoring'
fi
export "${no_window?}"
expect_status 0 mpi 3 "$MULRED" "${syn[@]}"
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref_syn" "dynamic MuHash without one-sided MPI"
expect_contains "$out" '"handout":"coordinator"' "the coordinator hands out without a window"
expect_status 0 mpi 3 "$MULRED" "${dmsm[@]}"
expect_equal "$(printf '%s\n' "$out" | result)" "$ref_dmsm" "dynamic MSM without one-sided MPI"
expect_contains "$out" '"handout":"coordinator"' "the MSM's coordinator hand-out"
unset "${no_window%%=*}"

# ---- bad values ----
for v in 0 -1 abc 1e3 86401 ''; do
    expect_status 1 "$MULRED" muhash --synthetic 10 --stall-timeout "$v"
    expect_contains "$err" "for '--stall-timeout'" "--stall-timeout '$v' is named"
done
printf 'kind = muhash\nsynthetic = 10\nstall_timeout = 0\n' >"$TEST_TMP/bad.job"
expect_status 2 "$MULRED" run "$TEST_TMP/bad.job"
expect_contains "$err" "$TEST_TMP/bad.job:3: bad value '0' for 'stall_timeout'" "the job file's line"
expect_equal "$out" "" "no result for a bad job file"
printf 'kind = muhash\nsynthetic = 10\nstall_timeout = 2.5\n' >"$TEST_TMP/good.job"
expect_status 0 "$MULRED" run "$TEST_TMP/good.job" --json
MULRED_STALL_TIMEOUT=soon expect_status 2 mpi 2 "$MULRED" muhash --synthetic 10
expect_contains "$err" "MULRED_STALL_TIMEOUT='soon'" "a bad MULRED_STALL_TIMEOUT is named"
finish

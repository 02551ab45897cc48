# Checkpoints of mulred muhash (--checkpoint DIR): a checkpointed run gives the digest of an
# uncheckpointed one for ranks 1-3 x threads 1-2, and resumes under either schedule; a 3-rank
# run whose rank 1 is SIGKILLed after some units are saved ends non-zero, without a digest,
# within a time bound (no rank hangs in MPI_Reduce); rerun on a copy of its directory with 3
# ranks (static) and with 2 ranks (dynamic), it resumes (resumed_units > 0) and gives the
# uninterrupted digest. A directory of another job and a
# world-writable one are refused (exit 2, no digest); a damaged unit file is reported, naming
# the file and the offset, and its unit recomputed; `checkpoint = DIR` in a job file resumes too.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { fail "python3 is needed to write the test input"; finish; }

digest() { awk -F'"' '{ for (i = 1; i < NF; i++) if ($i == "result") print $(i + 2) }'; }
field() { # JSON NAME: the unsigned integer value of NAME
    printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}

# ---- small inputs: every rank and thread count, units of one 256 KiB range ----
head -c 300000 /dev/urandom | od -An -v -tx1 | tr -d ' \n' |
    awk 'BEGIN { srand(11) } { s = $0; p = 1; n = 0
         while (p < length(s) - 240 && n < 5000) { l = 2 * (1 + int(rand() * 90))
             printf "%s\n", substr(s, p, l); p += l; n++ } }' > "$TEST_TMP/small"
head -n 5 "$TEST_TMP/small" > "$TEST_TMP/small-rem"
args=(--insert "$TEST_TMP/small" --remove "$TEST_TMP/small-rem" --synthetic 5000 --seed 3)
ref=$(OMP_NUM_THREADS=1 "$MULRED" muhash "${args[@]}" --threads 1 --json | digest)
[ ${#ref} -eq 64 ] || fail "no reference digest for the small inputs"
for ranks in 1 2 3; do
    for threads in 1 2; do
        dir="$TEST_TMP/small-$ranks-$threads"
        expect_status 0 mpi "$ranks" "$MULRED" muhash "${args[@]}" --threads "$threads" --json \
            --checkpoint "$dir" --checkpoint-unit 1
        expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "small, $ranks ranks x $threads threads"
        # 2 units of the insert file, 1 of the remove file, 5 blocks of 1024 synthetic elements
        expect_contains "$out" '"inserted":10000,"removed":5,' "counts ($ranks x $threads)"
        expect_contains "$out" '"resumed_units":0,"computed_units":8,' "computed ($ranks x $threads)"
        expect_equal "$(units_in "$dir")" 8 "unit files ($ranks x $threads)"
        expect_equal "$(stat -c %a "$dir")" 700 "directory mode ($ranks x $threads)"
        # everything resumed, on another rank count: the same digest and the same counts (with
        # 2 threads under the dynamic schedule: whoever draws a saved unit loads it)
        sched=static; [ "$threads" = 2 ] && sched=dynamic
        expect_status 0 mpi $((4 - ranks)) "$MULRED" muhash "${args[@]}" --threads "$threads" \
            --json --checkpoint "$dir" --checkpoint-unit 1 --schedule $sched
        expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "small resumed, $((4 - ranks)) ranks"
        expect_contains "$out" '"inserted":10000,"removed":5,' "counts resumed ($ranks x $threads)"
        expect_contains "$out" '"resumed_units":8,"computed_units":0,' "resumed ($ranks x $threads)"
    done
done
expect_equal "$(find "$TEST_TMP/small-1-1" -type f ! -perm 600 | wc -l)" 0 "unit files are 0600"

# A damaged unit file is reported and recomputed; a truncated one too.
dir="$TEST_TMP/small-2-1"
f3=$(printf '%s/unit-%010d.ckpt' "$dir" 3)
f5=$(printf '%s/unit-%010d.ckpt' "$dir" 5)
printf '\x55' | dd of="$f3" bs=1 seek=100 conv=notrunc status=none
truncate -s 40 "$f5"
expect_status 0 mpi 2 "$MULRED" muhash "${args[@]}" --json --checkpoint "$dir" --checkpoint-unit 1
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "digest after recomputing damaged units"
expect_contains "$out" '"resumed_units":6,"computed_units":2,' "two units recomputed"
expect_contains "$err" "$f3: checksum mismatch (the SHA-256 at offset" "the flipped byte is reported"
expect_contains "$err" "$f5: truncated at byte 40" "the truncation is reported"
expect_status 0 mpi 2 "$MULRED" muhash "${args[@]}" --json --checkpoint "$dir" --checkpoint-unit 1
expect_contains "$out" '"resumed_units":8,"computed_units":0,' "the recomputed units were saved"
expect_equal "$err" "" "no warning once repaired"

# Another job's directory: other inputs, another flavor, another unit size. Exit 2, no digest.
for other in "--synthetic 5000 --seed 4" "--synthetic 5000 --seed 3 --flavor kaspa" \
    "--checkpoint-unit 2"; do
    # shellcheck disable=SC2086
    expect_status 2 mpi 2 "$MULRED" muhash "${args[@]}" $other --checkpoint "$dir"
    expect_contains "$err" "belongs to another job" "another job refused ($other)"
    expect_equal "$out" "" "no digest for another job ($other)"
done
expect_contains "$err" "'units' is '8' there" "the differing field is named"
# shellcheck disable=SC2086
expect_status 2 mpi 1 "$MULRED" muhash "${args[@]}" --flavor kaspa --checkpoint "$dir" --checkpoint-unit 1
expect_contains "$err" "'flavor' is 'bitcoin' there, 'kaspa' here" "another flavor"
# A changed input (same size, another mtime) is another job.
cp -p "$TEST_TMP/small" "$TEST_TMP/small.bak" && touch -d '2001-01-01' "$TEST_TMP/small"
expect_status 2 mpi 2 "$MULRED" muhash "${args[@]}" --checkpoint "$dir" --checkpoint-unit 1
expect_contains "$err" "'insert0.mtime' is" "a touched input is another job"
mv "$TEST_TMP/small.bak" "$TEST_TMP/small"

# Directories others may write, or that are not directories; a stream as input.
mkdir -m 0777 "$TEST_TMP/open-dir" && chmod 0777 "$TEST_TMP/open-dir"
expect_status 2 mpi 2 "$MULRED" muhash "${args[@]}" --checkpoint "$TEST_TMP/open-dir"
expect_contains "$err" "is writable by others (mode 0777)" "world-writable directory refused"
expect_equal "$out" "" "no digest with a world-writable directory"
expect_status 2 "$MULRED" muhash --synthetic 100 --checkpoint "$TEST_TMP/small"
expect_contains "$err" "not a directory" "a file as checkpoint directory"
expect_status 2 "$MULRED" muhash --insert - --checkpoint "$TEST_TMP/ck-stream" < "$TEST_TMP/small"
expect_contains "$err" "cannot resume reading a stream" "a stream cannot be checkpointed"
expect_status 1 "$MULRED" muhash --synthetic 100 --checkpoint-unit 4
expect_contains "$err" "--checkpoint-unit needs --checkpoint" "unit size without a directory"

# A job file: checkpoint = DIR, relative to the job's directory.
mkdir -p "$TEST_TMP/job"
cp "$TEST_TMP/small" "$TEST_TMP/job/elements"
printf 'kind = muhash\ninsert = elements\ncheckpoint = ck\ncheckpoint-unit = 1\n' > "$TEST_TMP/job/resume.job"
ref_job=$("$MULRED" muhash --insert "$TEST_TMP/small" --json | digest)
expect_status 0 mpi 2 "$MULRED" run "$TEST_TMP/job/resume.job" --json
expect_contains "$out" '"resumed_units":0,"computed_units":2,' "job file: computed"
expect_contains "$out" "$ref_job" "job file: digest"
expect_equal "$(units_in "$TEST_TMP/job/ck")" 2 "job file: the directory is relative to the job"
expect_status 0 mpi 1 "$MULRED" run "$TEST_TMP/job/resume.job" --json
expect_contains "$out" '"resumed_units":2,"computed_units":0,' "job file: resumed"
expect_contains "$out" "$ref_job" "job file: digest resumed"

# ---- the killed rank ----
# 3 million 32-byte elements (195 MB; about 2.5 core-seconds of hashing and multiplying), in
# units of 8 x 256 KiB (about 32000 elements each): 93 units.
big="$TEST_TMP/big"
python3 - "$big" <<'EOF'
import os, sys
with open(sys.argv[1], "w") as f:
    for _ in range(30):
        h = os.urandom(32 * 100000).hex()
        f.write("".join(h[i:i + 64] + "\n" for i in range(0, len(h), 64)))
EOF
big_units=$(( ($(stat -c %s "$big") + 2097151) / 2097152 ))
big_ref=$(mpi 3 "$MULRED" muhash --insert "$big" --threads 1 --json | digest)
[ ${#big_ref} -eq 64 ] || fail "no digest for the uninterrupted run"
ck="$TEST_TMP/ck-kill"
run_args=(--insert "$big" --threads 1 --json --checkpoint "$ck" --checkpoint-unit 8)
timeout 300 "${MPIEXEC:-mpiexec}" "${MPIEXEC_NUMPROC_FLAG:--n}" 3 ${MPIEXEC_FLAGS---oversubscribe} \
    $(mpi_root_flag) "$MULRED" muhash "${run_args[@]}" \
    > "$TEST_TMP/kill.out" 2> "$TEST_TMP/kill.err" &
job=$!
# Find the process that is rank 1 (through its environment among the launcher's descendants)
# as soon as it exists, then wait for 3 unit files and SIGKILL it: the search (a few ps passes)
# stays out of the window between the third unit and the kill, which on an idle machine is the
# last ~1 s of a run.
victim=$(mpi_rank_pid_wait "$job" 1)
wait_units "$ck" 3 "$job" 1200 0.05
saved_before=$(units_in "$ck")
if [ -z "$victim" ] || ! kill -0 "$victim" 2>/dev/null; then
    fail "rank 1 of the checkpointed run not found or already gone (the run ended before 3 units were saved?)"
else
    kill_and_wait "$victim" "$job" "$saved_before"
    expect_equal "$(digest < "$TEST_TMP/kill.out")" "" "no digest from the killed job"
    saved=$(units_in "$ck")
    [ "$saved" -ge 3 ] && [ "$saved" -lt "$big_units" ] && pass ||
        fail "$saved unit files after the kill (want 3 to $((big_units - 1)))"
    cp -a "$ck" "$ck-2"
    for ranks in 3 2; do
        dir=$ck; [ "$ranks" = 2 ] && dir=$ck-2
        # 2 ranks: under the dynamic schedule (the saved units are the same units)
        sched=static; [ "$ranks" = 2 ] && sched=dynamic
        expect_status 0 mpi "$ranks" "$MULRED" muhash --insert "$big" --threads 1 --json \
            --checkpoint "$dir" --checkpoint-unit 8 --schedule $sched
        expect_contains "$out" "\"schedule\":\"$sched\"" "resumed under the $sched schedule"
        expect_equal "$(printf '%s\n' "$out" | digest)" "$big_ref" "resumed on $ranks ranks"
        resumed=$(field "$out" resumed_units) computed=$(field "$out" computed_units)
        echo "rerun on $ranks ranks: resumed $resumed, computed $computed"
        [ "${resumed:-0}" -ge "$saved" ] && pass || fail "resumed_units '$resumed' < $saved saved"
        expect_equal "$((resumed + computed))" "$big_units" "every unit resumed or computed ($ranks ranks)"
        expect_contains "$out" '"inserted":3000000,' "every element counted ($ranks ranks)"
    done
fi
finish

# Checkpoints of mulred msm (--checkpoint DIR): a checkpointed MSM equals independent references
# (tests/mpi/msm_synth_ref.c for synthetic sets, tests/tools/msm_ref.py for pair files) on ranks
# 1-3 x threads 1-2 (1x1, 2x2, 3x1), both curves, hex and binary files, and resumes entirely on another rank
# count. A 3-rank run whose rank 1 is SIGKILLed once some tiles are saved ends non-zero without a
# result; rerun on copies of its directory with 3 ranks x 2 threads and 2 ranks x 1 thread, it
# resumes (resumed_units > 0) and gives the uninterrupted result. A deleted, a damaged and a
# truncated unit file are recomputed (the damage reported with file and offset); a directory of
# another job (seed, curve, N, unit size, input file) is refused with exit 2 naming the field;
# bad pairs still exit 2 naming the pair; `checkpoint = DIR` in a job file resumes too. G2 tiles
# (a published EIP-2537 sum, a BN254 synthetic set) checkpoint and resume, static and dynamic.
. "$(dirname "$0")/../lib.sh"
: "${MULRED_SOURCE_DIR:?set by CTest}" "${MULRED_TEST_BIN_DIR:?set by CTest}"
REF=$MULRED_SOURCE_DIR/tests/tools/msm_ref.py
T=$TEST_TMP

result() { sed -n 's/.*"result":"\([0-9a-f]*\)".*/\1/p'; }
field() { # JSON NAME: the unsigned integer value of NAME
    printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}
unit_file() { printf '%s/unit-%010d.ckpt' "$1" "$2"; }

# ---- synthetic sets: ranks x threads, then everything resumed on another rank count ----
# 16384 points in slices of 4096: 4 units (a slice each, every window)
want_bn=$("$MULRED_TEST_BIN_DIR/msm_synth_ref" bn254 16384 6)
[ ${#want_bn} -eq 128 ] || fail "no reference from msm_synth_ref"
syn=(--curve bn254 --synthetic 16384 --seed 6)
for layout in 1x1 2x2 3x1; do
    ranks=${layout%x*} threads=${layout#*x}
    {
        dir="$T/syn-$ranks-$threads"
        expect_status 0 mpi $ranks "$MULRED" msm "${syn[@]}" --threads $threads --json \
            --checkpoint "$dir" --checkpoint-unit 4096
        expect_equal "$(printf '%s\n' "$out" | result)" "$want_bn" "synthetic, $ranks ranks x $threads threads"
        expect_contains "$out" '"resumed_units":0,"computed_units":4,"units":4,"unit_points":4096,"unit_window_groups":1,' \
            "computed ($ranks x $threads)"
        expect_equal "$(units_in "$dir")" 4 "unit files ($ranks x $threads)"
        expect_equal "$(stat -c %a "$dir")" 700 "directory mode ($ranks x $threads)"
        resume=(mpi $((4 - ranks)))
        [ $ranks = 3 ] && resume=() # one rank: no launcher
        expect_status 0 "${resume[@]}" "$MULRED" msm "${syn[@]}" --threads $((3 - threads)) \
            --json --checkpoint "$dir" --checkpoint-unit 4096
        expect_equal "$(printf '%s\n' "$out" | result)" "$want_bn" "synthetic resumed on $((4 - ranks)) ranks"
        expect_contains "$out" '"resumed_units":4,"computed_units":0,' "resumed ($ranks x $threads)"
    }
done
# a job of one slice: its windows in 2 groups, 2 units; the third rank idle
want_one=$("$MULRED_TEST_BIN_DIR/msm_synth_ref" bn254 3000 6)
expect_status 0 mpi 3 "$MULRED" msm --curve bn254 --synthetic 3000 --seed 6 --json --checkpoint "$T/one"
expect_equal "$(printf '%s\n' "$out" | result)" "$want_one" "one slice in two window groups"
expect_contains "$out" '"resumed_units":0,"computed_units":2,"units":2,"unit_points":65536,"unit_window_groups":2,' \
    "one slice: two window groups"
rm "$(unit_file "$T/one" 1)"
expect_status 0 "$MULRED" msm --curve bn254 --synthetic 3000 --seed 6 --json --checkpoint "$T/one"
expect_equal "$(printf '%s\n' "$out" | result)" "$want_one" "the upper window group recomputed"
expect_contains "$out" '"resumed_units":1,"computed_units":1,' "one group resumed, one computed"
expect_equal "$(find "$T/syn-1-1" -type f ! -perm 600 | wc -l)" 0 "unit files are 0600"
# the text output names the tiles and the counts
expect_status 0 "$MULRED" msm "${syn[@]}" --checkpoint "$T/syn-1-1" --checkpoint-unit 4096
expect_contains "$out" "msm      $want_bn" "text result"
expect_contains "$out" "tiles    4 slices of 4096 points x 1 window group; c = " "text tiles"
expect_contains "$out" "checkpoint 4 units resumed, 0 computed ($T/syn-1-1)" "text counts"

# ---- pair files of both curves: 3000 pairs, slices of 512: 6 units ----
for curve in bls12-381 bn254; do
    want=$(python3 "$REF" pairs --curve $curve --n 3000 --seed 7 --out "$T/$curve")
    [ ${#want} -ge 128 ] || fail "$curve: no reference from msm_ref.py"
    dir="$T/file-$curve"
    files=(--curve $curve --input "$T/$curve.hex" --checkpoint "$dir" --checkpoint-unit 512 --json)
    expect_status 0 mpi 3 "$MULRED" msm "${files[@]}" --threads 2
    expect_equal "$(printf '%s\n' "$out" | result)" "$want" "$curve hex, 3 ranks"
    expect_contains "$out" '"resumed_units":0,"computed_units":6,' "$curve hex: computed"
    expect_status 0 mpi 2 "$MULRED" msm --curve $curve --input "$T/$curve.bin" --binary --threads 1 \
        --checkpoint "$T/bin-$curve" --checkpoint-unit 700 --json
    expect_equal "$(printf '%s\n' "$out" | result)" "$want" "$curve binary, 2 ranks"
    # a deleted, a damaged and a truncated unit file: recomputed, the damage reported
    f5=$(unit_file "$dir" 3) f7=$(unit_file "$dir" 5)
    rm "$(unit_file "$dir" 1)"
    printf '\x55' | dd of="$f5" bs=1 seek=100 conv=notrunc status=none
    truncate -s 40 "$f7"
    expect_status 0 mpi 2 "$MULRED" msm "${files[@]}" --threads 1
    expect_equal "$(printf '%s\n' "$out" | result)" "$want" "$curve: result after recomputing units"
    expect_contains "$out" '"resumed_units":3,"computed_units":3,' "$curve: three units recomputed"
    expect_contains "$err" "$f5: checksum mismatch (the SHA-256 at offset" "$curve: the flipped byte is reported"
    expect_contains "$err" "$f7: truncated at byte 40" "$curve: the truncation is reported"
    expect_status 0 "$MULRED" msm "${files[@]}"
    expect_contains "$out" '"resumed_units":6,"computed_units":0,' "$curve: the recomputed units were saved"
    expect_equal "$err" "" "$curve: no warning once repaired"
    expect_equal "$(printf '%s\n' "$out" | result)" "$want" "$curve: result all resumed"
done
# the same file as binary, or touched, is another job
expect_status 2 "$MULRED" msm --curve bn254 --input "$T/bn254.hex" --checkpoint "$T/bin-bn254" \
    --checkpoint-unit 700
expect_contains "$err" "belongs to another job: 'input.size' is" "another input file refused"
touch -d '2001-01-01' "$T/bn254.hex"
expect_status 2 "$MULRED" msm --curve bn254 --input "$T/bn254.hex" --checkpoint "$T/file-bn254" \
    --checkpoint-unit 512
expect_contains "$err" "'input.mtime' is" "a touched input is another job"
expect_equal "$out" "" "no result for a touched input"

# bad pairs with a checkpoint: exit 2 naming the pair on every rank count, no result
python3 "$REF" pairs --curve bls12-381 --n 3000 --seed 7 --out "$T/bad" --bad curve --at 2100 >/dev/null
for ranks in 3; do
    expect_status 2 mpi $ranks "$MULRED" msm --curve bls12-381 --input "$T/bad.hex" \
        --checkpoint "$T/bad-$ranks" --checkpoint-unit 512
    expect_contains "$err" "bad.hex: pair 2100 (byte " "bad pair named ($ranks ranks)"
    expect_contains "$err" "point not on the curve" "bad pair's check named ($ranks ranks)"
    expect_equal "$out" "" "no result for bad pairs ($ranks ranks)"
done

# ---- another job's directory: exit 2 naming the field, no result ----
dir="$T/syn-2-2"
for case in "--seed 7:'seed' is '6' there, '7' here" \
    "--synthetic 16000:'points' is '16384' there, '16000' here" \
    "--checkpoint-unit 4097:'tiles.slice_points' is '4096' there, '4097' here" \
    "--checkpoint-unit 2048:'units' is '4' there, '8' here" \
    "--curve bls12-381:'curve' is 'bn254' there, 'bls12-381' here" \
    "--group g2:'group' is 'bn254' there, 'bn254-g2' here"; do
    other=${case%%:*} why=${case#*:}
    # shellcheck disable=SC2086
    expect_status 2 "$MULRED" msm "${syn[@]}" --checkpoint-unit 4096 $other --checkpoint "$dir"
    expect_contains "$err" "belongs to another job: $why" "another job refused ($other)"
    expect_equal "$out" "" "no result for another job ($other)"
done
mkdir -m 0777 "$T/open-dir" && chmod 0777 "$T/open-dir"
expect_status 2 "$MULRED" msm "${syn[@]}" --checkpoint "$T/open-dir"
expect_contains "$err" "is writable by others (mode 0777)" "world-writable directory refused"
expect_status 1 "$MULRED" msm "${syn[@]}" --checkpoint-unit 4
expect_contains "$err" "--checkpoint-unit needs --checkpoint" "unit size without a directory"
expect_status 1 "$MULRED" msm "${syn[@]}" --checkpoint "$T/g" --grid 1x1
expect_contains "$err" "--grid chooses the grid, which --checkpoint does not use" "no grid with checkpoints"

# ---- G2: tiles of G2 sums, saved and resumed like G1's, static and dynamic ----
# EIP-2537's G2ADD case as two pairs with scalar 1 in one-point slices (2 units): the published
# sum, computed and then resumed; a BN254 G2 synthetic set in slices of 1024 (3 units) equal to
# its uncheckpointed MSM on 1 rank, computed on 2 ranks and resumed on 1 and 3
python3 - "$MULRED_SOURCE_DIR/tests/vectors/eip2537" "$T" <<'EOF2'
import json, sys
v, t = sys.argv[1], sys.argv[2]
one = "00" * 31 + "01"
case = json.load(open(f"{v}/add_G2_bls.json"))[0]
open(t + "/g2add.hex", "w").write(case["Input"][:512] + one + "\n" + case["Input"][512:] + one + "\n")
open(t + "/g2add.want", "w").write(case["Expected"])
EOF2
for sched in static dynamic; do
    g2=(--curve bls12-381 --group g2 --input "$T/g2add.hex" --checkpoint-unit 1 --json --schedule $sched)
    expect_status 0 mpi 2 "$MULRED" msm "${g2[@]}" --checkpoint "$T/g2add-$sched"
    expect_equal "$(printf '%s\n' "$out" | result)" "$(cat "$T/g2add.want")" "g2 add file checkpointed ($sched)"
    expect_contains "$out" '"resumed_units":0,"computed_units":2,' "g2 add file: computed ($sched)"
    expect_status 0 "$MULRED" msm "${g2[@]}" --checkpoint "$T/g2add-$sched"
    expect_equal "$(printf '%s\n' "$out" | result)" "$(cat "$T/g2add.want")" "g2 add file resumed ($sched)"
    expect_contains "$out" '"resumed_units":2,"computed_units":0,' "g2 add file: resumed ($sched)"
done
expect_status 0 "$MULRED" msm --curve bn254 --group g2 --synthetic 3000 --seed 4 --json
want_g2=$(printf '%s\n' "$out" | result)
[ ${#want_g2} -eq 256 ] || fail "no uncheckpointed bn254 g2 result"
for sched in static dynamic; do
    g2=(--curve bn254 --group g2 --synthetic 3000 --seed 4 --checkpoint-unit 1024 --json --schedule $sched)
    expect_status 0 mpi 2 "$MULRED" msm "${g2[@]}" --checkpoint "$T/g2syn-$sched"
    expect_equal "$(printf '%s\n' "$out" | result)" "$want_g2" "bn254 g2 checkpointed, 2 ranks ($sched)"
    expect_contains "$out" '"resumed_units":0,"computed_units":3,' "bn254 g2: computed ($sched)"
    rm "$(unit_file "$T/g2syn-$sched" 1)"
    expect_status 0 mpi 3 "$MULRED" msm "${g2[@]}" --checkpoint "$T/g2syn-$sched"
    expect_equal "$(printf '%s\n' "$out" | result)" "$want_g2" "bn254 g2 resumed, 3 ranks ($sched)"
    expect_contains "$out" '"resumed_units":2,"computed_units":1,' "bn254 g2: two resumed, one computed ($sched)"
done

# ---- a job file: checkpoint = DIR, relative to the job's directory ----
mkdir -p "$T/job"
printf 'kind = msm\ncurve = bn254\nsynthetic = 16384\nseed = 6\ncheckpoint = ck\ncheckpoint-unit = 4096\n' \
    > "$T/job/msm.job"
expect_status 0 mpi 2 "$MULRED" run "$T/job/msm.job" --json
expect_contains "$out" '"resumed_units":0,"computed_units":4,' "job file: computed"
expect_contains "$out" "\"result\":\"$want_bn\"" "job file: result"
expect_equal "$(units_in "$T/job/ck")" 4 "job file: the directory is relative to the job"
expect_status 0 "$MULRED" run "$T/job/msm.job" --json
expect_contains "$out" '"resumed_units":4,"computed_units":0,' "job file: resumed"
expect_contains "$out" "\"result\":\"$want_bn\"" "job file: result resumed"

# ---- the killed rank ----
# 16384 BLS12-381 points in slices of 256: 64 units, a second or two of work for 3 ranks of
# one thread (each slice generates its points and repeats the bucket reductions).
want=$("$MULRED_TEST_BIN_DIR/msm_synth_ref" bls12-381 16384 5)
[ ${#want} -eq 256 ] || fail "no reference from msm_synth_ref (bls12-381)"
ck="$T/ck-kill"
big=(--curve bls12-381 --synthetic 16384 --seed 5 --json --checkpoint-unit 256)
timeout 300 "${MPIEXEC:-mpiexec}" "${MPIEXEC_NUMPROC_FLAG:--n}" 3 ${MPIEXEC_FLAGS---oversubscribe} \
    $(mpi_root_flag) "$MULRED" msm "${big[@]}" --threads 1 \
    --checkpoint "$ck" > "$T/kill.out" 2> "$T/kill.err" &
job=$!
# Find the process that is rank 1 (through its environment among the launcher's descendants)
# as soon as it exists, then wait for 3 unit files and SIGKILL it: the search stays out of the
# window between the third unit and the kill.
victim=$(mpi_rank_pid_wait "$job" 1)
wait_units "$ck" 3 "$job" 3000 0.02
saved_before=$(units_in "$ck")
if [ -z "$victim" ] || ! kill -0 "$victim" 2>/dev/null; then
    fail "rank 1 of the checkpointed run not found or already gone (did the run end before 3 units were saved?)"
    wait "$job" || true
else
    kill_and_wait "$victim" "$job" "$saved_before"
    expect_equal "$(result < "$T/kill.out")" "" "no result from the killed job"
    saved=$(units_in "$ck")
    [ "$saved" -ge 3 ] && [ "$saved" -lt 64 ] && pass ||
        fail "$saved unit files after the kill (want 3 to 63)"
    cp -a "$ck" "$ck-2"
    for layout in 3x2 2x1; do
        ranks=${layout%x*} threads=${layout#*x}
        dir=$ck; [ "$ranks" = 2 ] && dir=$ck-2
        expect_status 0 mpi "$ranks" "$MULRED" msm "${big[@]}" --threads "$threads" --checkpoint "$dir"
        expect_equal "$(printf '%s\n' "$out" | result)" "$want" "resumed on $ranks ranks x $threads threads"
        resumed=$(field "$out" resumed_units) computed=$(field "$out" computed_units)
        echo "rerun on $ranks ranks x $threads threads: resumed $resumed, computed $computed"
        [ "${resumed:-0}" -ge "$saved" ] && pass || fail "resumed_units '$resumed' < $saved saved"
        expect_equal "$((resumed + computed))" 64 "every unit resumed or computed ($ranks ranks)"
    done
fi
finish

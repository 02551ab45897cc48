# The distributed MSM under mpiexec: the same result for ranks 1-4 x threads 1-3 and for every
# grid the planner can choose (forced with --grid: every S x G with S*G <= ranks), on pair files
# of both curves (hex text with whitespace everywhere, and binary) and on synthetic sets, equal
# to references computed independently: tests/tools/msm_ref.py (Python integers) for the files,
# tests/mpi/msm_synth_ref.c (mpz, from the set's declared logarithms) for synthetic sets. Bad pair
# files exit 2 on 3 ranks (the bad pair read by the last rank; one process: the corpus), with the
# pair index and the check named, and no result.
# The dynamic schedule (tiles drawn at run time) gives the same results on ranks 1-3 x threads 1-2.
# And one G2 case of each kind (--group g2).
. "$(dirname "$0")/../lib.sh"
: "${MULRED_SOURCE_DIR:?set by CTest}" "${MULRED_TEST_BIN_DIR:?set by CTest}"
REF=$MULRED_SOURCE_DIR/tests/tools/msm_ref.py
T=$TEST_TMP

result() { awk '/^msm / { print $2 }'; }

# every grid of P ranks: S x G with S*G <= P
grids() {
    local P=$1 s g
    for ((s = 1; s <= P; s++)); do for ((g = 1; s * g <= P; g++)); do echo "${s}x$g"; done; done
}

for curve in bls12-381 bn254; do
    # 5000 BLS12-381 pairs are 1.6 MB of hex: two count units, slices across them
    n=$([ $curve = bls12-381 ] && echo 5000 || echo 9000)
    want=$(python3 "$REF" pairs --curve $curve --n $n --seed 7 --out "$T/$curve")
    [ ${#want} -ge 128 ] || fail "$curve: no reference from msm_ref.py"
    want_syn=$("$MULRED_TEST_BIN_DIR/msm_synth_ref" $curve 20000 5)
    for input in hex bin synthetic; do
        case $input in
            hex) args=(--input "$T/$curve.hex"); w=$want ;;
            bin) args=(--input "$T/$curve.bin" --binary); w=$want ;;
            synthetic) args=(--synthetic 20000 --seed 5); w=$want_syn ;;
        esac
        # ranks x threads, the planner's own grid (2 threads: the grid and dynamic runs below): the
        # hex file and the synthetic set each take half of the ranks x threads product, together
        # all of it (the option matrix, tests/matrix, combines them with everything else)
        for ranks in 1 2 3 4; do
            for threads in 1 3; do
                case $input:$(( (ranks + threads / 3) % 2 )) in hex:0 | synthetic:1 | bin:*) ;; *) continue ;; esac
                [ $input = bin ] && [ $ranks != 1 ] && [ $ranks != 4 ] && continue # binary: fewer
                expect_status 0 mpi $ranks "$MULRED" msm --curve $curve "${args[@]}" --threads $threads
                expect_equal "$(printf '%s\n' "$out" | result)" "$w" "$curve $input, $ranks ranks x $threads threads"
                expect_equal "$(printf '%s\n' "$out" | grep -c '^msm ')" 1 "$curve $input: only rank 0 prints"
            done
        done
        # every grid of 4 ranks (those of 1-3 ranks are among them), on a file for BLS12-381 and
        # on a synthetic set for BN254: the grid does not depend on the file's form, and each
        # input kind meets every grid on one curve
        case $curve:$input in bls12-381:hex | bn254:synthetic) ;; *) continue ;; esac
        for ranks in 4; do
            for grid in $(grids $ranks); do
                expect_status 0 mpi $ranks "$MULRED" msm --curve $curve "${args[@]}" --threads 2 --grid "$grid" --json
                expect_contains "$out" "\"result\":\"$w\"" "$curve $input, $ranks ranks, grid $grid"
                s=${grid%x*} g=${grid#*x}
                expect_contains "$out" "\"grid\":{\"slices\":$s,\"groups\":$g," "$curve $input: grid $grid used"
            done
        done
    done
    # the dynamic schedule: tiles of 3000 points (7 of the synthetic set, 3 of the bn254 file)
    # drawn at run time give the same result on ranks 1-3 x threads 1-2
    for layout in 1x2 2x1 2x2 3x1 3x2; do
        ranks=${layout%x*} threads=${layout#*x}
        if [ $curve = bls12-381 ]; then args=(--synthetic 20000 --seed 5) w=$want_syn
        else args=(--input "$T/$curve.hex") w=$want; fi
        expect_status 0 mpi $ranks "$MULRED" msm --curve $curve "${args[@]}" --threads $threads \
            --schedule dynamic --checkpoint-unit 3000 --json
        expect_contains "$out" "\"result\":\"$w\"" "$curve dynamic, $ranks ranks x $threads threads"
        expect_contains "$out" '"schedule":"dynamic","units_per_rank":[' "$curve: schedule reported"
    done
    expect_status 1 "$MULRED" msm --curve $curve --synthetic 100 --schedule dynamic --grid 1x1
    expect_contains "$err" "--grid chooses the grid, which --schedule dynamic does not use" \
        "$curve: dynamic with a forced grid"
    # a grid larger than the job fails on every rank (exit 3: the launch does not fit the job)
    expect_status 3 mpi 2 "$MULRED" msm --curve $curve --synthetic 100 --grid 2x2
    expect_contains "$err" "--grid 2x2 needs 4 ranks; this job has 2" "$curve: grid too large"

    # bad files on 3 ranks: the last pairs are read by the last rank; every rank exits 2, rank 0
    # reports (one process: tests/cli and the corpus)
    bads=(range curve hexchar)
    [ $curve = bls12-381 ] && bads+=(padding subgroup)
    for bad in "${bads[@]}"; do
        at=$((n - 3))
        python3 "$REF" pairs --curve $curve --n $n --seed 7 --out "$T/bad" --bad $bad --at $at >/dev/null
        case $bad in
            range) why="pair $at (byte [0-9]*): point: coordinate not below the field modulus" ;;
            curve) why="pair $at (byte [0-9]*): point: point not on the curve" ;;
            padding) why="pair $at (byte [0-9]*): point: non-zero padding bytes" ;;
            subgroup) why="pair $at: point: point not in the prime-order subgroup G1" ;;
            hexchar) why="byte [0-9]*: 'g' is not a hex digit" ;;
        esac
        for ranks in 3; do
            for form in hex bin; do
                [ $bad = hexchar ] && [ $form = bin ] && continue
                bin=()
                [ $form = bin ] && bin=(--binary)
                expect_status 2 mpi $ranks "$MULRED" msm --curve $curve --input "$T/bad.$form" "${bin[@]}" --threads 2
                if grep -q "^mulred: $T/bad.$form: $why\$" <<<"$err"; then pass; else
                    fail "$curve $bad $form, $ranks ranks: '$why' not in: $err"
                fi
                expect_equal "$out" "" "$curve $bad $form, $ranks ranks: no result"
                expect_equal "$(printf '%s\n' "$err" | grep -c '^mulred:')" 1 "$curve $bad: one message"
            done
        done
    done
    # a partial record: the length is checked before anything is read
    head -c $(( $(wc -c <"$T/$curve.bin") - 5 )) "$T/$curve.bin" >"$T/short.bin"
    expect_status 2 mpi 3 "$MULRED" msm --curve $curve --input "$T/short.bin" --binary
    size=$(( $(wc -c <"$T/$curve.bin") - 5 )) R=$(( $(wc -c <"$T/$curve.bin") / n ))
    expect_contains "$err" "short.bin: pair $((n - 1)) (byte $(( (n - 1) * R ))): incomplete: $((R - 5)) of $R bytes ($size bytes: not a whole number of $R-byte pairs)" "$curve: partial record, the cut pair named"
done
# G2 (--group g2): a two-pair BLS12-381 file made of EIP-2537's G2ADD case g2 + p2 (scalars 1),
# equal to the published sum, and a BN254 synthetic set, the same result for ranks 1-2 x
# threads 1-2; a point outside G2 exits 2 on every rank with the pair and the check named
python3 - "$MULRED_SOURCE_DIR/tests/vectors/eip2537" "$T" <<'EOF2'
import json, sys
v, t = sys.argv[1], sys.argv[2]
one = "00" * 31 + "01"
case = json.load(open(f"{v}/add_G2_bls.json"))[0]
open(t + "/g2add.hex", "w").write(case["Input"][:512] + one + "\n" + case["Input"][512:] + one + "\n")
open(t + "/g2add.want", "w").write(case["Expected"])
bad = [c for c in json.load(open(f"{v}/fail-msm_G2_bls.json")) if "subgroup" in c["ExpectedError"]][0]
open(t + "/g2bad.hex", "w").write(case["Input"][:512] + one + bad["Input"])
EOF2
expect_status 0 mpi 2 "$MULRED" msm --curve bls12-381 --group g2 --input "$T/g2add.hex" --threads 2
expect_equal "$(printf '%s\n' "$out" | result)" "$(cat "$T/g2add.want")" "g2 add file, 2 ranks x 2 threads"
g2syn=""
for rt in "1 1" "1 2" "2 1" "2 2"; do
    read -r nr nt <<<"$rt"
    expect_status 0 mpi $nr "$MULRED" msm --curve bn254 --group g2 --synthetic 3000 --threads $nt
    r=$(printf '%s\n' "$out" | result)
    [ -n "$g2syn" ] || g2syn=$r
    expect_equal "$r" "$g2syn" "bn254 g2 synthetic, $nr ranks x $nt threads"
done
expect_status 2 mpi 2 "$MULRED" msm --curve bls12-381 --group g2 --input "$T/g2bad.hex"
expect_contains "$err" "g2bad.hex: pair 1: point: point not in the prime-order subgroup G2" "g2 subgroup, 2 ranks"
expect_equal "$out" "" "g2 bad file, 2 ranks: no result"
finish

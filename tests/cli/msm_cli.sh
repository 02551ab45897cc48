# mulred msm and mulred kzg-commit through the command: help, usage errors, the published
# vectors (EIP-2537 G1MSM and G1MUL cases of the EIPs repository, valid and failing, and the
# G2MUL, G2ADD and G2 failure cases with --group g2; EIP-196
# ecMul cases of go-ethereum, whose 96-byte input is one BN254 pair), the text and binary forms
# of the same file, job files of kind msm, and the KZG commitments of the c-kzg-4844 cases.
. "$(dirname "$0")/../lib.sh"
V=$MULRED_VECTORS
T=$TEST_TMP

# help and usage
expect_status 0 "$MULRED" msm --help
expect_contains "$out" "Usage: mulred msm --curve bls12-381|bn254" "msm --help"
expect_contains "$out" "--grid SxG" "msm --help lists --grid"
expect_status 0 "$MULRED" kzg-commit --help
expect_contains "$out" "Usage: mulred kzg-commit --setup FILE --blob FILE" "kzg-commit --help"
expect_status 0 "$MULRED" --help
expect_contains "$out" "kzg-commit" "mulred --help lists kzg-commit"
usage() { # WANT-IN-STDERR ARGS...
    local want=$1; shift
    expect_status 1 "$MULRED" "$@"
    expect_contains "$err" "$want" "usage: $*"
    expect_equal "$out" "" "usage: no output for $*"
}
usage "no curve: give --curve" msm --synthetic 10
usage "bad value 'bls12_381' for '--curve' (bls12-381 or bn254)" msm --curve bls12_381 --synthetic 10
usage "give exactly one input: --input FILE or --synthetic N" msm --curve bn254
usage "give exactly one input" msm --curve bn254 --synthetic 10 --input x
usage "--binary applies to --input" msm --curve bn254 --synthetic 10 --binary
usage "bad value '2y2' for '--grid'" msm --curve bn254 --synthetic 10 --grid 2y2
usage "bad value '0x1' for '--grid'" msm --curve bn254 --synthetic 10 --grid 0x1
usage "bad value '0' for '--threads'" msm --curve bn254 --synthetic 10 --threads 0
usage "bad value '0' for '--synthetic'" msm --curve bn254 --synthetic 0
usage "bad value '010' for '--seed'" msm --curve bn254 --synthetic 10 --seed 010
usage "--write-pairs writes a synthetic set: give --synthetic N" msm --curve bn254 --input x --write-pairs y

# --write-pairs: the synthetic set as a pair file (hex, one pair per line) that --input reads;
# each point on the curve and the printed sum equal to the sum over the file's pairs by the
# independent Python reference (tests/tools/msm_ref.py: affine additions)
for curve in bn254 bls12-381; do
    expect_status 0 "$MULRED" msm --curve "$curve" --synthetic 12 --seed 0x2a --threads 2 --write-pairs "$T/syn-$curve.hex"
    made=$(sed -n 's/^msm  *//p' <<<"$out")
    expect_equal "$(wc -l <"$T/syn-$curve.hex")" 12 "--write-pairs $curve: one line per pair"
    expect_status 0 python3 - "$MULRED_SOURCE_DIR/tests/tools" "$curve" "$T/syn-$curve.hex" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from msm_ref import CURVES, add, encode, mul
c = CURVES[sys.argv[2]]
w, p, total = c["coord"], c["p"], None
for line in open(sys.argv[3]):
    rec = bytes.fromhex(line)
    x, y = int.from_bytes(rec[:w], "big"), int.from_bytes(rec[w:2 * w], "big")
    assert (y * y - x ** 3 - c["b"]) % p == 0, "a point off the curve"
    total = add(c, total, mul(c, int.from_bytes(rec[2 * w:], "big"), (x, y)))
print(encode(c, total).hex())
PY
    expect_equal "$made" "$out" "--write-pairs $curve: the printed sum is the reference's over the file"
    expect_status 0 "$MULRED" msm --curve "$curve" --input "$T/syn-$curve.hex"
    expect_contains "$out" "msm      $made" "--write-pairs $curve: the file read back"
done
expect_status 3 "$MULRED" msm --curve bn254 --synthetic 2 --write-pairs "$T/no-such-dir/x.hex"
expect_contains "$err" "$T/no-such-dir/x.hex: cannot write" "--write-pairs: an unwritable file named"
expect_status 3 "$MULRED" msm --curve bn254 --synthetic 10 --grid 1x2
expect_contains "$err" "--grid 1x2 needs 2 ranks; this job has 1" "grid larger than the job: exit 3"
usage "is unknown" msm --curve bn254 --synthetic 10 --flavor kaspa
usage "give --setup FILE and --blob FILE" kzg-commit --setup x
usage "--cache and --no-cache exclude each other" kzg-commit --setup x --blob y --cache z --no-cache

# The vector cases as files: NAME.in (hex), NAME.want (hex or "error: TEXT").
python3 - "$V" "$T" <<'EOF'
import json, os, sys
v, t = sys.argv[1], sys.argv[2]
os.makedirs(t + "/vec", exist_ok=True)
for sub, name in [("eip2537", "msm_G1_bls"), ("eip2537", "mul_G1_bls"), ("eip2537", "fail-msm_G1_bls"),
                  ("eip2537", "fail-mul_G1_bls"), ("eip196", "bn256ScalarMul")]:
    for i, case in enumerate(json.load(open(f"{v}/{sub}/{name}.json"))):
        base = f"{t}/vec/{name}.{i:03d}"
        open(base + ".in", "w").write(case["Input"])
        open(base + ".want", "w").write(case.get("Expected") or "error: " + case["ExpectedError"])
EOF
count=0
for f in "$T"/vec/*.in; do
    base=${f%.in} want=$(cat "$base.want")
    curve=bls12-381
    case $base in *bn256*) curve=bn254 ;; esac
    case $want in
        error:*)
            # the precompile's reason mapped to mulred's check (a zero-length input is "empty")
            case $want in
                *"invalid input length"*) why="no pairs \(empty input\)|incomplete: [0-9]+ of 320 hex digits \([0-9]+ hex digits: not a whole number of 160-byte pairs\)" ;;
                *"top bytes"*) why="point: non-zero padding bytes" ;;
                *"fp.Element"* | *"invalid field element"*) why="point: coordinate not below the field modulus" ;;
                *"not on curve"*) why="point: point not on the curve" ;;
                *subgroup*) why="point: point not in the prime-order subgroup G1" ;;
                *) why="UNMAPPED $want" ;;
            esac
            expect_status 2 "$MULRED" msm --curve $curve --input "$f"
            if printf '%s\n' "$err" | grep -Eq "^mulred: $f: (pair [0-9]+( \((line [0-9]+, )?byte [0-9]+\))?: )?($why)"; then pass
            else fail "$(basename "$base"): '$why' not in: $err"; fi
            expect_equal "$out" "" "$(basename "$base"): no result" ;;
        *)
            expect_status 0 "$MULRED" msm --curve $curve --input "$f" --threads 2
            expect_equal "$(printf '%s\n' "$out" | awk '/^msm / {print $2}')" "$want" "$(basename "$base")" ;;
    esac
    count=$((count + 1))
done
[ $count -ge 200 ] || fail "only $count vector cases found"
echo "$count vector cases"

# one case in every form: binary, 0x prefix, one line per record, JSON
multi=$(grep -l . "$T"/vec/msm_G1_bls.010.in) # bls_g1msm_multiple: 7 pairs
want=$(cat "${multi%.in}.want")
python3 -c 'import sys; open(sys.argv[2], "wb").write(bytes.fromhex(open(sys.argv[1]).read()))' "$multi" "$T/multi.bin"
expect_status 0 "$MULRED" msm --curve bls12-381 --input "$T/multi.bin" --binary
expect_equal "$(printf '%s\n' "$out" | awk '/^msm / {print $2}')" "$want" "binary form"
{ printf '0x'; cat "$multi"; } | fold -w 320 | sed 's/^/  /' >"$T/multi.lines"
expect_status 0 "$MULRED" msm --curve bls12-381 --input "$T/multi.lines" --json
expect_contains "$out" "\"result\":\"$want\"" "one record per line, indented, 0x"
expect_contains "$out" "\"points\":7," "JSON points"
for key in seconds points_per_second window glv windows grid ranks threads nodes phases version git_revision; do
    expect_contains "$out" "\"$key\":" "JSON key $key"
done
expect_status 2 "$MULRED" msm --curve bls12-381 --input "$T/multi.bin"
expect_contains "$err" "multi.bin: byte 0: 0x00 is not a hex digit" "binary read as hex"
expect_status 2 "$MULRED" msm --curve bls12-381 --input "$T/nonexistent"
expect_contains "$err" "nonexistent: cannot open" "missing file"

# job files: kind = msm, curve as a list
cp "$multi" "$T/multi.hex"
printf 'kind = msm\ncurve = bls12-381\ninput = multi.hex\nthreads = 2\n' >"$T/m.job"
expect_status 0 "$MULRED" run "$T/m.job" --json
expect_contains "$out" "\"result\":\"$want\"" "job file of kind msm"
printf 'kind = msm\ncurve = bls12-381, bn254\nsynthetic = 3000\nseed = 9\n' >"$T/c.job"
expect_status 0 "$MULRED" run "$T/c.job"
expect_contains "$out" "run 1/2: kind msm, curve bls12-381" "first curve"
expect_contains "$out" "run 2/2: kind msm, curve bn254" "second curve"
a=$("$MULRED" msm --curve bn254 --synthetic 3000 --seed 9 | awk '/^msm / {print $2}')
expect_contains "$out" "msm      $a" "job run = command line"
printf 'kind = msm\ncurve = bn254\nsynthetic = 30\ngrid = 3\n' >"$T/g.job"
expect_status 2 "$MULRED" run "$T/g.job"
expect_contains "$err" "g.job:4: bad value '3' for 'grid'" "job grid refused with its line"
printf 'kind = msm\nsynthetic = 30\n' >"$T/n.job"
expect_status 2 "$MULRED" run "$T/n.job"
expect_contains "$err" "n.job:1: no curve: give curve bls12-381 or curve bn254" "job without curve"

# G2 (--group g2): the EIP-2537 G2MUL cases and the G2MUL and G2MSM failures through the
# command (288-byte records), G2ADD's first case as a two-pair MSM with scalars 1, and job
# files with group = g2
expect_contains "$(cat /dev/null; "$MULRED" msm --help)" "--group G" "msm --help lists --group"
usage "bad value 'g3' for '--group' (g1 or g2)" msm --curve bn254 --group g3 --synthetic 10
python3 - "$V" "$T" <<'EOF2'
import json, os, sys
v, t = sys.argv[1], sys.argv[2]
os.makedirs(t + "/vg2", exist_ok=True)
for name in ["mul_G2_bls", "fail-msm_G2_bls", "fail-mul_G2_bls"]:
    for i, case in enumerate(json.load(open(f"{v}/eip2537/{name}.json"))):
        base = f"{t}/vg2/{name}.{i:03d}"
        open(base + ".in", "w").write(case["Input"])
        open(base + ".want", "w").write(case.get("Expected") or "error: " + case["ExpectedError"])
case = json.load(open(f"{v}/eip2537/add_G2_bls.json"))[0]  # g2 + p2
one = "00" * 31 + "01"
open(t + "/vg2/add.in", "w").write(case["Input"][:512] + one + case["Input"][512:] + one)
open(t + "/vg2/add.want", "w").write(case["Expected"])
EOF2
n_g2=0
for f in "$T"/vg2/*.in; do
    base=${f%.in} want=$(cat "$base.want")
    case $want in
        error:*)
            case $want in
                *"invalid input length"*) why="no pairs \(empty input\)|incomplete: [0-9]+ of 576 hex digits \([0-9]+ hex digits: not a whole number of 288-byte pairs\)" ;;
                *"top bytes"*) why="point: non-zero padding bytes" ;;
                *"fp.Element"* | *"invalid field element"*) why="point: coordinate not below the field modulus" ;;
                *"not on curve"*) why="point: point not on the curve" ;;
                *subgroup*) why="point: point not in the prime-order subgroup G2" ;;
                *) why="UNMAPPED $want" ;;
            esac
            expect_status 2 "$MULRED" msm --curve bls12-381 --group g2 --input "$f"
            if printf '%s\n' "$err" | grep -Eq "^mulred: $f: (pair [0-9]+( \((line [0-9]+, )?byte [0-9]+\))?: )?($why)"; then pass
            else fail "$(basename "$base"): '$why' not in: $err"; fi
            expect_equal "$out" "" "$(basename "$base"): no result" ;;
        *)
            expect_status 0 "$MULRED" msm --curve bls12-381 --group g2 --input "$f" --threads 2
            expect_equal "$(printf '%s\n' "$out" | awk '/^msm / {print $2}')" "$want" "g2 $(basename "$base")" ;;
    esac
    n_g2=$((n_g2 + 1))
done
expect_equal "$n_g2" 28 "G2 vector cases"
expect_status 0 "$MULRED" msm --curve bn254 --group g2 --synthetic 2000 --seed 4 --json
expect_contains "$out" '"curve":"bn254","group":"g2"' "JSON group"
g2syn=$(printf '%s\n' "$out" | sed 's/.*"result":"\([0-9a-f]*\)".*/\1/')
expect_equal "${#g2syn}" 256 "bn254 G2 result: 128 bytes (EIP-197)"
printf 'kind = msm\ncurve = bn254\ngroup = g2\nsynthetic = 2000\nseed = 4\nthreads = 1\n' >"$T/g2.job"
expect_status 0 "$MULRED" run "$T/g2.job" --json
expect_contains "$out" "\"result\":\"$g2syn\"" "job file with group = g2 = command line"

# KZG: every c-kzg-4844 blob_to_kzg_commitment case (a read-only copy of the setup, so the
# cache goes where --cache says)
K=$(readonly_vectors kzg)
n_kzg=0
for y in "$K"/blob_to_kzg_commitment/*.yaml; do
    blob=$(sed -n "s/^ *blob: *'\{0,1\}\([^']*\)'\{0,1\}$/\1/p" "$y")
    want=$(sed -n "s/^output: *'\{0,1\}\([^']*\)'\{0,1\}$/\1/p" "$y")
    printf '%s\n' "$blob" >"$T/blob"
    if [ "$want" = null ]; then
        expect_status 2 "$MULRED" kzg-commit --setup "$K/trusted_setup.txt" --blob "$T/blob" --cache "$T/kzg.table"
        expect_contains "$err" "mulred: $T/blob: " "$(basename "$y"): rejected, the blob named"
        expect_equal "$out" "" "$(basename "$y"): no commitment"
    else
        expect_status 0 "$MULRED" kzg-commit --setup "$K/trusted_setup.txt" --blob "$T/blob" --cache "$T/kzg.table"
        expect_equal "$out" "${want#0x}" "$(basename "$y"): the commitment, hex without 0x"
    fi
    n_kzg=$((n_kzg + 1))
done
expect_equal "$n_kzg" 11 "KZG cases"
expect_status 0 "$MULRED" kzg-commit --setup "$K/trusted_setup.txt" --blob "$T/blob" --no-cache --json
for key in result commitment seconds setup_seconds cache window version; do
    expect_contains "$out" "\"$key\":" "kzg JSON key $key"
done
expect_contains "$out" "\"result\":\"${want#0x}\",\"commitment\":\"$want\"" \
    "kzg JSON: result without 0x, commitment (kept until 0.4) with it"
expect_contains "$out" '"cache":"memory"' "--no-cache builds in memory"
# the default cache: the user's cache directory, 0700, named by the setup's digest; a cache
# that cannot be written is a warning, not a failure
expect_status 0 env XDG_CACHE_HOME="$T/xdg" "$MULRED" kzg-commit --setup "$K/trusted_setup.txt" --blob "$T/blob" --json
expect_contains "$out" "\"cache\":\"written\",\"cache_path\":\"$T/xdg/mulred/kzg-" "default cache in XDG_CACHE_HOME"
expect_equal "$(stat -c %a "$T/xdg/mulred")" 700 "cache directory mode"
expect_status 0 env XDG_CACHE_HOME="$T/xdg" "$MULRED" kzg-commit --setup "$K/trusted_setup.txt" --blob "$T/blob" --json
expect_contains "$out" '"cache":"loaded"' "default cache loaded the second time"
: >"$T/not-a-dir"
expect_status 0 env XDG_CACHE_HOME="$T/not-a-dir" "$MULRED" kzg-commit --setup "$K/trusted_setup.txt" --blob "$T/blob"
expect_contains "$err" "mulred: warning: KZG table cache" "unwritable cache: a warning"
# --progress: a bar on stderr (as muhash's) reaching 100%, and the same result; none without it
expect_status 0 "$MULRED" msm --curve bn254 --synthetic 20000 --seed 7 --threads 2
plain=$(printf '%s\n' "$out" | head -n 1)
expect_equal "$err" "" "msm: no progress bar unless asked"
expect_status 0 "$MULRED" msm --curve bn254 --synthetic 20000 --seed 7 --threads 2 --progress
expect_equal "$(printf '%s\n' "$out" | head -n 1)" "$plain" "msm --progress: the same result"
expect_contains "$err" "100.0%" "msm --progress: the bar reaches 100%"
expect_contains "$err" "[#" "msm --progress: the bar on stderr"
expect_status 0 "$MULRED" msm --curve bn254 --synthetic 20000 --seed 7 --threads 2 --progress \
    --checkpoint "$T/progress-ckpt" --checkpoint-unit 2000
expect_equal "$(printf '%s\n' "$out" | head -n 1)" "$plain" "msm --progress --checkpoint: the same result"
expect_contains "$err" "100.0%" "msm --progress --checkpoint: tiles to 100%"
finish

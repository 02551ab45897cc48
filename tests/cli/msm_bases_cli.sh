# mulred msm over a base set: --points (validated once) and one --scalars file per MSM, --json
# as an array, --save / --bases and --cache, the other encodings, and bad input (exit 2, the
# file and record named, no result printed). Expected results are the published EIP-2537 G1MSM
# and EIP-196 ecMul outputs (tests/vectors), never outputs of mulred itself; a saved or cached
# set must give the same published results.
. "$(dirname "$0")/../lib.sh"
V=$MULRED_VECTORS
T=$TEST_TMP
export XDG_CACHE_HOME=$T/xdg

usage() { # WANT-IN-STDERR ARGS...
    local want=$1; shift
    expect_status 1 "$MULRED" "$@"
    expect_contains "$err" "$want" "usage: $*"
    expect_equal "$out" "" "usage: no output for $*"
}
usage "no scalars: give --scalars FILE" msm --curve bn254 --points x
usage "--input does not apply to an MSM over --points" msm --curve bn254 --points x --input y --scalars z
usage "--grid does not apply" msm --curve bn254 --points x --scalars z --grid 1x1
usage "--scalars applies to --points or --bases" msm --curve bn254 --synthetic 4 --scalars z
usage "--precompute applies to --points" msm --bases x --scalars z --precompute 16
usage "give --cache or --save, not both" msm --curve bn254 --points x --scalars z --cache --save y
usage "no curve" msm --points x --scalars z
usage "bad value 'zcash' for '--encoding'" msm --curve bn254 --points x --scalars z --encoding zcash
expect_status 0 "$MULRED" msm --help
expect_contains "$out" "--points FILE" "msm --help lists --points"

# The EIP-2537 G1MSM and EIP-196 ecMul cases as a points file and a scalars file each (hex with
# "0x" and a line break, binary, and the scalars little-endian): every form must give the
# published result, twice in one run for two --scalars files.
python3 - "$V" "$T" <<'PY'
import json, os, sys
v, t = sys.argv[1], sys.argv[2]
os.makedirs(t + "/b", exist_ok=True)
for sub, name, R in [("eip2537", "msm_G1_bls", 160), ("eip196", "bn256ScalarMul", 96)]:
    for i, case in enumerate(json.load(open(f"{v}/{sub}/{name}.json"))):
        raw = bytes.fromhex(case["Input"])
        if not raw or len(raw) % R or "Expected" not in case:
            continue
        k = len(raw) // R
        base = f"{t}/b/{name}.{i:03d}"
        pts = b"".join(raw[j * R:j * R + R - 32] for j in range(k))
        sc = b"".join(raw[j * R + R - 32:j * R + R] for j in range(k))
        le = b"".join(raw[j * R + R - 32:j * R + R][::-1] for j in range(k))
        open(base + ".points", "w").write(pts.hex())
        open(base + ".points.bin", "wb").write(pts)
        open(base + ".scalars", "w").write("0x" + sc.hex()[:64] + "\n" + sc.hex()[64:])
        open(base + ".scalars.bin", "wb").write(sc)
        open(base + ".scalars.le", "w").write(le.hex())
        open(base + ".want", "w").write(case["Expected"])
PY
count=0
for p in $(ls "$T"/b/bn256ScalarMul.*.points | head -8) $(ls -S "$T"/b/msm_G1_bls.*.points | head -8); do
    base=${p%.points} want=$(cat "$base.want")
    curve=bls12-381
    case $base in *bn256*) curve=bn254 ;; esac
    expect_status 0 "$MULRED" msm --curve $curve --points "$p" --scalars "$base.scalars" \
        --scalars "$base.scalars" --threads 2
    expect_equal "$(grep -c '^msm ' <<<"$out")" 2 "$base: two results"
    expect_equal "$(sed -n 1p <<<"$out")" "msm      $want" "$base: first"
    expect_equal "$(sed -n 2p <<<"$out")" "msm      $want" "$base: second"
    expect_status 0 "$MULRED" msm --curve $curve --points "$p" --scalars "$base.scalars.le" \
        --little-endian --precompute 16 --threads 1
    expect_equal "$(sed -n 1p <<<"$out")" "msm      $want" "$base: little-endian, table"
    expect_status 0 "$MULRED" msm --curve $curve --points "$base.points.bin" --binary \
        --scalars "$base.scalars.bin" --json
    expect_equal "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d), d[0]["result"])' <<<"$out")" \
        "1 $want" "$base: --json is an array"
    count=$((count + 1))
done
[ $count -eq 16 ] || fail "only $count vector cases"

# save, then use the saved set; the cache: made and saved the first time, loaded the second
# (the largest case with a result other than infinity)
for p in $(ls -S "$T"/b/msm_G1_bls.*.points); do
    base=${p%.points} want=$(cat "$base.want")
    [ -n "$(tr -d '0' <"$base.want")" ] && break
done
[ "$(wc -c <"$base.points.bin")" -ge 256 ] || fail "no case of two points or more with a finite result"

expect_status 0 "$MULRED" msm --curve bls12-381 --points "$p" --precompute 16 --save "$T/set.cache" \
    --scalars "$base.scalars"
expect_contains "$out" "msm      $want" "--save: the result"
expect_status 0 "$MULRED" msm --bases "$T/set.cache" --scalars "$base.scalars" --scalars "$base.scalars"
expect_equal "$(grep -c "msm      $want" <<<"$out")" 2 "--bases: the results"
expect_contains "$out" "loaded" "--bases: loaded"
expect_status 2 "$MULRED" msm --bases "$T/set.cache" --curve bn254 --scalars "$base.scalars"
expect_contains "$err" "set.cache: byte 16: a set of another curve or group" "--bases of another curve"
expect_equal "$out" "" "--bases of another curve: no result"
# a changed byte, a truncated file: refused, exit 2, no result
python3 - "$T/set.cache" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[200] ^= 4
open(sys.argv[1] + ".flip", "wb").write(d)
open(sys.argv[1] + ".short", "wb").write(d[:-100])
PY
for bad in flip short; do
    expect_status 2 "$MULRED" msm --bases "$T/set.cache.$bad" --scalars "$base.scalars"
    expect_contains "$err" "set.cache.$bad: byte " "--bases: $bad refused, the byte named"
    expect_equal "$out" "" "--bases: $bad: no result"
done
expect_status 0 "$MULRED" msm --curve bls12-381 --points "$p" --cache --scalars "$base.scalars"
expect_contains "$out" "saved to the cache: $XDG_CACHE_HOME/mulred/bases-" "--cache: made and saved"
expect_status 0 "$MULRED" msm --curve bls12-381 --points "$p" --cache --scalars "$base.scalars"
expect_contains "$out" "loaded from the cache" "--cache: loaded"
expect_contains "$out" "msm      $want" "--cache: the result"
[ -z "$(ls "$T"/b/*.cache 2>/dev/null)" ] || fail "--cache wrote beside the input"

# a job file: the same keys, scalars on one line per file
printf 'kind = msm\ncurve = bls12-381\npoints = %s\nscalars = %s\nscalars = %s\n' "$p" \
    "$base.scalars" "$base.scalars" > "$T/bases.job"
expect_status 0 "$MULRED" run "$T/bases.job"
expect_equal "$(grep -c "^msm      $want\$" <<<"$out")" 2 "job file: two results"

# bad input: a point off the curve at record 1 (exit 2, file and index named, no result);
# more scalars than points; a scalars file not of whole records; a bad hex byte
python3 - "$p" "$T" <<'PY'
import sys
pts = bytearray.fromhex(open(sys.argv[1]).read())
pts[128 + 127] ^= 1
open(sys.argv[2] + "/badpt.points", "w").write(pts.hex())
PY
expect_status 2 "$MULRED" msm --curve bls12-381 --points "$T/badpt.points" --scalars "$base.scalars"
expect_contains "$err" "badpt.points: point 1: point not on the curve" "bad point named"
expect_equal "$out" "" "bad point: no result"
k=$(( $(wc -c <"$base.points.bin") / 128 ))
head -c $((32 * (k + 1))) /dev/zero > "$T/long.bin"
expect_status 2 "$MULRED" msm --curve bls12-381 --points "$base.points.bin" --binary --scalars "$T/long.bin"
expect_contains "$err" "long.bin: $((k + 1)) scalars, the set has $k points" "vector longer than the set"
expect_equal "$out" "" "too many scalars: no result"
head -c 33 /dev/zero > "$T/odd.bin"
expect_status 2 "$MULRED" msm --curve bls12-381 --points "$base.points.bin" --binary --scalars "$T/odd.bin"
expect_contains "$err" "odd.bin: record 1: incomplete, 1 of 32 bytes (33 bytes: not a whole number of 32-byte records)" "scalars off the record size"
printf 'zz' > "$T/bad.hex"
expect_status 2 "$MULRED" msm --curve bls12-381 --points "$p" --scalars "$base.scalars" --scalars "$T/bad.hex"
expect_contains "$err" "bad.hex: byte 0: 'z' is not a hex digit" "bad scalars file named"
expect_equal "$out" "" "second file bad: no result at all"
finish

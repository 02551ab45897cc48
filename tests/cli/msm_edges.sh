#!/usr/bin/env bash
# mulred msm at its edges: an MSM over nothing is bad input at every entry point, every input
# that cannot be read is bad input (exit 2, named), a saved set that is cut or foreign is named
# with its byte, and --precompute takes 0 or 2 to 64 and says when it builds no table. Expected
# values: the BN254 generator (1, 2) of EIP-196, and sums computed here with affine formulas.
source "$(dirname "$0")/../lib.sh"
T=$TEST_TMP
msm_line() { printf '%s\n' "$1" | awk '/^msm / {print $2}'; }

: >"$T/empty"
printf ' \n\t\r\n0x \n' >"$T/blank.hex"
printf '%063d1\n' 0 >"$T/s1.hex" # the scalar 1 (32 bytes)
g1=$(printf '%064x%064x' 1 2)                             # the BN254 generator, EIP-196
printf '%s\n' "$g1" >"$T/g.hex"
mkdir -p "$T/dir"

# ---- one rule: no pairs, no points, no scalars: exit 2 naming the file, nothing printed ----
for f in "$T/empty" "$T/blank.hex"; do
    expect_status 2 "$MULRED" msm --curve bn254 --points "$T/g.hex" --scalars "$f"
    expect_contains "$err" "mulred: $f: no scalars (empty input)" "--scalars $(basename "$f"): named"
    expect_equal "$out" "" "--scalars $(basename "$f"): no result"
    expect_status 2 "$MULRED" msm --curve bn254 --points "$f" --scalars "$T/s1.hex"
    expect_contains "$err" "mulred: $f: no points (empty input)" "--points $(basename "$f"): named"
    expect_equal "$out" "" "--points $(basename "$f"): no result"
done
# an empty vector after a good one: the good one is not printed either (no result on error)
expect_status 2 "$MULRED" msm --curve bn254 --points "$T/g.hex" --scalars "$T/s1.hex" --scalars "$T/empty"
expect_contains "$err" "mulred: $T/empty: no scalars (empty input)" "second --scalars empty: named"
expect_status 2 "$MULRED" msm --curve bls12-381 --group g2 --points "$T/empty" --scalars "$T/s1.hex" --binary
expect_contains "$err" "mulred: $T/empty: no points (empty input)" "--binary --points empty, G2"
expect_status 2 "$MULRED" msm --curve bn254 --input "$T/empty"
expect_contains "$err" "mulred: $T/empty: no pairs (empty input)" "--input empty: named"
# the set itself works: 1*G = G
expect_status 0 "$MULRED" msm --curve bn254 --points "$T/g.hex" --scalars "$T/s1.hex"
expect_equal "$(msm_line "$out")" "$g1" "1*G = G"

# ---- a file that cannot be read is bad input (exit 2), named ----
for opt in points scalars; do
    other=(--points "$T/g.hex")
    [ $opt = points ] && other=(--scalars "$T/s1.hex")
    for f in "$T/dir" "$T/nope"; do
        expect_status 2 "$MULRED" msm --curve bn254 "${other[@]}" --$opt "$f"
        expect_contains "$err" "mulred: $f: " "--$opt $(basename "$f"): named"
        expect_equal "$out" "" "--$opt $(basename "$f"): no result"
    done
done
expect_status 0 "$MULRED" msm --curve bn254 --points "$T/g.hex" --scalars "$T/s1.hex" --save "$T/g.set"
for b in "$T/nope.set" "$T/dir"; do
    expect_status 2 "$MULRED" msm --bases "$b" --scalars "$T/s1.hex"
    expect_contains "$err" "mulred: $b: " "--bases $(basename "$b"): the file named"
    expect_equal "$out" "" "--bases $(basename "$b"): no result"
done
if [ "$(id -u)" != 0 ]; then
    cp "$T/g.set" "$T/locked.set" && chmod 000 "$T/locked.set"
    expect_status 2 "$MULRED" msm --bases "$T/locked.set" --scalars "$T/s1.hex"
    expect_contains "$err" "mulred: $T/locked.set: cannot open" "--bases unreadable: named"
fi

# ---- a saved set cut or foreign: the byte named (a 64-byte header, 64-byte points, a 32-byte
# digest: 160 bytes for one BN254 G1 point) ----
expect_equal "$(wc -c <"$T/g.set")" 160 "a one-point saved set: 64 + 64 + 32 bytes"
head -c 100 "$T/g.set" >"$T/cut.set"
head -c 40 "$T/g.set" >"$T/header.set"
{ cat "$T/g.set"; printf x; } >"$T/long.set"
{ printf 'PNG!'; tail -c +5 "$T/g.set"; } >"$T/foreign.set"
for c in "cut.set:byte 100: the file ends here" "header.set:byte 40: the file ends inside its 64-byte header" \
    "long.set:byte 160: the file should end here" "foreign.set:byte 0: not a mulred bases file (magic)" \
    "empty:byte 0: the file ends inside its 64-byte header"; do
    f=$T/${c%%:*}
    expect_status 2 "$MULRED" msm --bases "$f" --scalars "$T/s1.hex"
    expect_contains "$err" "mulred: $f: ${c#*:}" "--bases ${c%%:*}: the byte named"
done

# ---- --precompute: 0 (none) or 2 to 64, the same words everywhere ----
for l in 1 65; do
    expect_status 1 "$MULRED" msm --curve bn254 --points "$T/g.hex" --precompute $l --scalars "$T/s1.hex"
    expect_contains "$err" "bad value '$l' for '--precompute' (0 (none) or 2 to 64)" "--precompute $l refused"
done
printf 'kind = msm\ncurve = bn254\npoints = %s\nscalars = %s\nprecompute = 1\n' "$T/g.hex" "$T/s1.hex" >"$T/p1.job"
expect_status 2 "$MULRED" run "$T/p1.job"
expect_contains "$err" "(0 (none) or 2 to 64)" "precompute = 1 in a job file: refused (exit 2)"
expect_contains "$("$MULRED" msm --help)" "0 (none) or 2 to 64" "--help gives the same range"
# 5 points k*G (k = 1..5) and the scalars 1: the sum is 15*G
python3 - "$T" <<'EOF'
import sys
p = 21888242871839275222246405745257275088696311157297823662689037894645226208583
def add(a, b):
    if a == b:
        l = 3 * a[0] * a[0] * pow(2 * a[1], -1, p) % p
    else:
        l = (b[1] - a[1]) * pow(b[0] - a[0], -1, p) % p
    x = (l * l - a[0] - b[0]) % p
    return (x, (l * (a[0] - x) - a[1]) % p)
g = (1, 2)
pts, q = [], g
for _ in range(5):
    pts.append(q)
    q = add(q, g)
open(sys.argv[1] + "/five.hex", "w").write("".join("%064x%064x\n" % pt for pt in pts))
open(sys.argv[1] + "/fives.hex", "w").write("".join("%064x\n" % 1 for _ in pts))
s = pts[0]
for pt in pts[1:]:
    s = add(s, pt)
open(sys.argv[1] + "/five.want", "w").write("%064x%064x" % s)  # 15*G
EOF
for l in 2 4 7; do
    expect_status 0 "$MULRED" msm --curve bn254 --points "$T/five.hex" --precompute $l --scalars "$T/fives.hex" --json
    expect_contains "$err" "mulred: note: --precompute $l: no table built for the 5 points (every table has at least 8 rows" "--precompute $l: the note"
    expect_contains "$out" '"precompute":0' "--precompute $l: JSON gives the level built"
    expect_contains "$out" "\"result\":\"$(cat "$T/five.want")\"" "--precompute $l: 15G"
done
expect_status 0 "$MULRED" msm --curve bn254 --points "$T/five.hex" --precompute 8 --scalars "$T/fives.hex" --json
expect_equal "$err" "" "--precompute 8: a table, no note"
expect_contains "$out" '"precompute":8' "--precompute 8 on 5 points: 8 rows"
expect_contains "$out" "\"result\":\"$(cat "$T/five.want")\"" "--precompute 8: 15G"
finish

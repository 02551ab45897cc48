# mulred mix: avalanche lab and bench contract (small trial counts; speed is never asserted).
# Known answers come from tests/tools/mix_kat.py (the variants written in Python from their
# descriptions, nothing taken from mulred's C code): the linear mix's mean flip probability is
# exact whatever the trials (over GF(2), f(x) ^ f(x ^ d) depends on d alone), and the difference
# that mulred names as fastmix2_32's worst must leave its output unchanged for every base state.
. "$(dirname "$0")/../lib.sh"

json_field() { # JSON FIELD -> the number after "FIELD":
    python3 -c 'import json,sys; v=json.loads(sys.argv[1]); print(v[sys.argv[2]])' "$1" "$2"
}

expect_status 0 "$MULRED" mix --help
expect_contains "$out" "Usage: mulred mix avalanche" "mix --help"
expect_status 0 "$MULRED" --help
expect_contains "$out" "mix" "mulred --help lists mix"

# The generator reaches full avalanche; a weak mixer (half a round) does not.
expect_status 0 "$MULRED" mix avalanche --variant generator --trials 300 --json
score=$(json_field "$out" score)
[ "$score" -ge 127 ] && pass || fail "generator score $score < 127"
expect_equal "$(json_field "$out" inverse_score)" 128 "generator inverse score"
expect_status 0 "$MULRED" mix avalanche --variant fastmix2_64 --rounds 0.5 --trials 200 --json
score=$(json_field "$out" score)
[ "$score" -le 4 ] && pass || fail "half-round fastmix2_64 score $score > 4"
expect_status 0 "$MULRED" mix avalanche --variant linear --trials 100 --json
expect_equal "$(json_field "$out" score)" 0 "linear mix score"
kat="$(dirname "$0")/../tools"
want=$(python3 - "$kat" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import mix_kat as m
pool = (0x0123456789ABCDEF, 0xFEDCBA9876543210)  # any pool: the difference is linear
base = m.linear(pool, (0, 0))
flips = 0
for i in range(128):
    o = m.linear(pool, ((1 << i) & m.M64, (1 << i) >> 64))
    flips += bin((o[0] ^ base[0]) | (o[1] ^ base[1]) << 64).count("1")
print(flips, "%.9f" % (flips / 128 / 128))
PY
)
expect_equal "$want" "4788 0.292236328" "Python linear mix: 4788 of 128 x 128 bits flip"
expect_equal "$(python3 -c 'import json,sys; print("%.9f" % json.loads(sys.argv[1])["mean_flip"])' "$out")" \
    "${want#* }" "linear mean flip = the exact 4788/16384"
expect_status 0 "$MULRED" mix avalanche --variant fastmix2_32 --rounds 3 --trials 200 --json
expect_equal "$(json_field "$out" score_2bit)" 0 "fastmix2_32 2-bit score"
check=$(python3 - "$kat" "$out" <<'PY'
import json, random, sys
sys.path.insert(0, sys.argv[1])
import mix_kat as m
bits = json.loads(sys.argv[2])["forward"]["worst_difference"]
d = sum(1 << b for b in bits)
rng = random.Random(5)
for _ in range(1000):
    x = rng.getrandbits(128)
    y = x ^ d
    f = [m.xor_first(m.fastmix2_32, (v & m.M64, v >> 64), (0, 0), 6) for v in (x, y)]
    if f[0] != f[1]:
        print("difference", bits, "changes the output")
        break
else:
    print("ok" if len(bits) == 2 else "not a pair: %s" % bits)
PY
)
expect_equal "$check" "ok" "fastmix2_32's worst difference never changes its output (Python)"
expect_equal "$(json_field "$out" inverse_score)" None "linear has no inverse score"
expect_status 0 "$MULRED" mix avalanche --variant spelvin32 --rounds 2 --trials 200
expect_contains "$out" "inverse" "human output has the inverse row"
expect_contains "$out" "2 rounds (4 half-rounds)" "human output names the rounds"
# Thread count does not change the result.
a=$("$MULRED" mix avalanche --variant linux316 --trials 200 --seed 7 --threads 1 --json | python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["score"], v["mean_flip"], v["inverse"]["score"])')
b=$("$MULRED" mix avalanche --variant linux316 --trials 200 --seed 7 --threads 2 --json | python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["score"], v["mean_flip"], v["inverse"]["score"])')
expect_equal "$a" "$b" "lab result independent of threads"

# Usage errors exit 1 with a message.
expect_status 1 "$MULRED" mix
expect_status 1 "$MULRED" mix nonsense
expect_status 1 "$MULRED" mix avalanche
expect_contains "$err" "--variant is required" "missing variant"
expect_status 1 "$MULRED" mix avalanche --variant fast_mix
expect_contains "$err" "bad value 'fast_mix' for '--variant'" "unknown variant"
expect_contains "$err" "Try 'mulred mix avalanche --help'" "usage hint"
expect_status 1 "$MULRED" mix avalanche --variant linux316 --rounds 0
expect_contains "$err" "--rounds" "rounds out of range"
expect_status 1 "$MULRED" mix avalanche --variant linux316 --rounds 9
expect_status 1 "$MULRED" mix avalanche --variant linux316 --rounds 1.3
expect_status 1 "$MULRED" mix avalanche --variant linux316 --rounds two
expect_status 1 "$MULRED" mix avalanche --variant generator --rounds 3
expect_status 1 "$MULRED" mix avalanche --variant linear --rounds 2
expect_status 1 "$MULRED" mix avalanche --variant linux316 --trials abc
expect_contains "$err" "--trials" "non-numeric trials"
expect_status 1 "$MULRED" mix avalanche --variant linux316 --trials 0
expect_status 1 "$MULRED" mix avalanche --variant linux316 --window 0.8:0.2
expect_status 1 "$MULRED" mix avalanche --variant linux316 --bogus
expect_status 1 "$MULRED" mix avalanche --variant linux316 extra
expect_status 1 "$MULRED" mix bench --runs 0
expect_status 1 "$MULRED" mix bench --runs x

# Bench: one run, every variant and the generator line in the JSON.
expect_status 0 "$MULRED" mix bench --runs 1 --json
n=$(python3 -c 'import json,sys; v=json.loads(sys.argv[1]); print(len(v["variants"]), v["generator"]["gb_per_s"] > 0, all(x["ns_per_call"] > 0 for x in v["variants"]))' "$out")
expect_equal "$n" "8 True True" "bench JSON: 8 timed variants and a generator rate"

# Only rank 0 prints.
expect_status 0 mpi 2 "$MULRED" mix avalanche --variant generator --trials 50 --json
expect_equal "$(printf '%s\n' "$out" | grep -c '"score"')" 1 "one JSON document under 2 ranks"
finish

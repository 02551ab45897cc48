#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer harnesses of tests/fuzz with clang (ASan + UBSan, MULRED_FUZZ=ON)
# in build-fuzz and runs each for FUZZ_SECONDS (default 33), one per core at a time (FUZZ_JOBS),
# seeded from the bad-input corpus (tests/corpus, and the cases tests/corpus/make.py derives)
# and from tests/vectors. What the fuzzer adds stays in build-fuzz/fuzz/corpus/HARNESS (kept
# between runs, never in the repository); a crash, a sanitizer report, a failed differential
# check, a leak or an input running over 30 s is saved to build-fuzz/fuzz/artifacts/HARNESS
# and fails the script.
# Prints executions per harness. FUZZ_HARNESSES="elements num3072" runs a subset.
. "$(dirname "$0")/common.sh"
# What fuzzing needs beyond the build (CI installs it here, not in the README's commands):
# clang, its libFuzzer and sanitizer runtimes, and clang's OpenMP runtime.
install_packages "${MULRED_PACKAGES[@]}" "${MULRED_TEST_PACKAGES[@]}" clang libclang-rt-14-dev \
    libomp-14-dev
FUZZ_BUILD_DIR=${FUZZ_BUILD_DIR:-$MULRED_ROOT/build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-33} # 10 harnesses on 2 cores: 5 rounds, about 2.5 minutes in all
# Without AVX-512 IFMA the 8-lane field kernels are built with their intrinsics emulated in C
# (src/util/avx512.h), so fuzz_field_x8 still compares them with the scalar kernels.
emulate=OFF
grep -qw avx512ifma /proc/cpuinfo || emulate=ON
if [ ! -f "$FUZZ_BUILD_DIR/CMakeCache.txt" ]; then
    CC=clang cmake -S "$MULRED_ROOT" -B "$FUZZ_BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DMULRED_FUZZ=ON -DMULRED_BUILD_TESTS=OFF -DMULRED_AVX512_EMULATE=$emulate
fi
cmake --build "$FUZZ_BUILD_DIR" -j "$(nproc)" --target fuzz_all

W=$FUZZ_BUILD_DIR/fuzz
rm -rf "$W/seeds" "$W/logs"
mkdir -p "$W/seeds" "$W/logs"
python3 "$MULRED_ROOT/tests/corpus/make.py" "$MULRED_ROOT/tests/vectors" "$W/seeds/generated" \
    >/dev/null
# Seeds, one folder per harness, built from the corpus and the vectors.
python3 - "$MULRED_ROOT" "$W/seeds" <<'EOF'
import glob, json, os, re, struct, sys
root, out = sys.argv[1], sys.argv[2]
vec = os.path.join(root, "tests", "vectors")
gen = os.path.join(out, "generated")

def put(harness, name, data):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def regular_files(folder):
    for p in sorted(glob.glob(os.path.join(folder, "**", "*"), recursive=True)):
        if os.path.isfile(p) and not os.path.islink(p) and os.path.basename(p) != "MANIFEST" \
                and os.path.getsize(p) <= (1 << 20):
            yield p

n = 0
for folder in (os.path.join(root, "tests", "corpus", "elements"), os.path.join(gen, "elements")):
    for p in regular_files(folder):
        put("elements", f"e{n}", open(p, "rb").read()); n += 1
snaps = [os.path.join(vec, "bitcoin", v + ".dat") for v in ("dump-28_0", "dump-27_0",
                                                             "regtest-small")]
for p in snaps + [p for p in regular_files(os.path.join(gen, "snapshot")) if p.endswith(".dat")]:
    put("utxo_decode", f"s{n}", open(p, "rb").read()); n += 1
# The index harness: mode ‖ u32 snapshot length ‖ snapshot ‖ rest (see fuzz_utxo_index.c).
for p in snaps:
    d = open(p, "rb").read()
    for ranks in range(3):
        put("utxo_index", f"true{n}", bytes([3 | ranks << 2]) + struct.pack("<I", len(d)) + d +
            struct.pack("<H", 511)); n += 1
for idx in sorted(glob.glob(os.path.join(gen, "index", "*", "snap.dat.idx"))):
    if os.path.isfile(idx) and not os.path.islink(idx) and os.path.getsize(idx) < (1 << 20):
        d = open(idx[:-4], "rb").read()
        put("utxo_index", f"i{n}", bytes([2]) + struct.pack("<I", len(d)) + d +
            open(idx, "rb").read()); n += 1
# MuHash states: every long hex string of the MuHash vectors (serializations, must-fail parses).
for j in ("bitcoin/muhash.json", "kaspa/muhash.json"):
    for h in re.findall(r'"([0-9a-fA-F]{700,})"', open(os.path.join(vec, j)).read()):
        put("muhash_parse", f"m{n}", bytes.fromhex(h)); n += 1
# Kernels: every pair of edge values (selector bytes), and the vectors' states as raw operands.
for a in range(4, 16):
    for b in range(4, 16):
        put("num3072", f"k{a}-{b}", bytes([a | b << 4, 0]))
for j in ("bitcoin/muhash.json", "kaspa/muhash.json"):
    for h in re.findall(r'"([0-9a-fA-F]{700,})"', open(os.path.join(vec, j)).read()):
        put("num3072", f"m{n}", bytes([0, 0]) + bytes.fromhex(h)[:768]); n += 1
# Pair files: every regular file of the pairs corpus (up to 64 KiB) under both curves and both
# forms (the control byte of fuzz_pairs.c), and the published EIP-2537 / EIP-196 inputs.
pair_files = [open(p, "rb").read() for folder in (os.path.join(root, "tests", "corpus", "pairs"),
                                                  os.path.join(gen, "pairs"))
              for p in regular_files(folder) if os.path.getsize(p) <= 65536]
for name in ("eip2537/msm_G1_bls.json", "eip2537/fail-msm_G1_bls.json",
             "eip196/bn256ScalarMul.json"):
    for case in json.load(open(os.path.join(vec, name)))[:40]:
        pair_files.append(case["Input"].encode())
        pair_files.append(bytes.fromhex(case["Input"]))
for d in pair_files:
    for control in (0, 1, 2, 3, 0x1c | 0x60):
        put("pairs", f"p{n}", bytes([control]) + d); n += 1
# G1 encodings: the points of the EIP vectors (EIP-2537 128 bytes, EIP-196 64 bytes), the KZG
# setup's first compressed points, each also as "x only" (bit 3: y derived).
for case in json.load(open(os.path.join(vec, "eip2537", "msm_G1_bls.json")))[:30]:
    pt = bytes.fromhex(case["Input"])[:128]
    put("g1", f"g{n}", bytes([0]) + pt); put("g1", f"gx{n}", bytes([8]) + pt[16:64]); n += 1
for case in json.load(open(os.path.join(vec, "eip196", "bn256ScalarMul.json"))):
    pt = bytes.fromhex(case["Input"])[:64]
    put("g1", f"g{n}", bytes([2]) + pt); put("g1", f"gx{n}", bytes([10]) + pt[:32]); n += 1
setup = open(os.path.join(vec, "kzg", "trusted_setup.txt"), "rb").read().split(b"\n")
for line in setup[2:34]:
    put("g1", f"c{n}", bytes([1]) + bytes.fromhex(line.decode())); n += 1
# G2 encodings: the points of the EIP-2537 G2 vectors as EIP-2537 (selector 0) and reordered
# into ZCash uncompressed (2: x.c1, x.c0, y.c1, y.c0 without padding), the published compressed
# generator (1), EIP-197's generator from its decimal coordinates (3); each with bit 2 too.
g2pts = []
for name in ("add_G2_bls", "mul_G2_bls", "fail-msm_G2_bls"):
    for case in json.load(open(os.path.join(vec, "eip2537", name + ".json"))):
        raw = bytes.fromhex(case["Input"])
        g2pts += [raw[i:i + 256] for i in range(0, len(raw) - 255, 288 if "mul" in name or
                                                 "msm" in name else 256)]
for pt in g2pts:
    c = [pt[64 * i + 16:64 * i + 64] for i in range(4)]
    for skip in (0, 4):
        put("g2", f"e{n}", bytes([0 | skip]) + pt)
        put("g2", f"u{n}", bytes([2 | skip]) + c[1] + c[0] + c[3] + c[2]); n += 1
put("g2", "zgen", bytes([1]) + bytes.fromhex(
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d0"
    "42b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056"
    "c8c121bdb8"))
bn = [11559732032986387107991004021392285783925812861821192530917403151452391805634,
      10857046999023057135944570762232829481370756359578518086990519993285655852781,
      4082367875863433681332203403145435568316851327593401208105741076214120093531,
      8495653923123431417604973247489272438418190587263600148770280649306958101930]
put("g2", "bngen", bytes([3]) + b"".join(v.to_bytes(32, "big") for v in bn))
put("g2", "bngen-skip", bytes([7]) + b"".join(v.to_bytes(32, "big") for v in bn))
# KZG: the c-kzg-4844 blobs (mode 0), the small setups of the corpus (mode 1), splices of the
# real setup (mode 2: offset, bytes replaced, new bytes), elements against r (mode 3).
for y in sorted(glob.glob(os.path.join(vec, "kzg", "blob_to_kzg_commitment", "*.yaml"))):
    blob = re.search(r"blob: '?(0x[0-9a-fA-F]*)", open(y).read()).group(1)
    put("kzg", f"b{n}", b"\0" + blob.encode()); n += 1
for p in list(regular_files(os.path.join(root, "tests", "corpus", "kzg"))) + \
        [p for p in regular_files(os.path.join(gen, "kzg")) if os.path.getsize(p) < 4096]:
    put("kzg", f"s{n}", b"\1" + open(p, "rb").read()); n += 1
for off, cut, new in [(0, 4, b"4097"), (5, 2, b"64"), (8, 96, b""), (8, 1, b"8"),
                      (8 + 97 * 3, 96, setup[2]), (8 + 97 * 40, 2, b"zz")]:
    put("kzg", f"m{n}", b"\2" + struct.pack(">H", off) + bytes([cut % 256]) + new); n += 1
r_bytes = bytes.fromhex("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001")
for i in (0, 1, 4095):
    put("kzg", f"r{n}", b"\3" + struct.pack(">H", i) + r_bytes); n += 1
# 8-lane field kernels: each curve and operation on edge operands and on input operands.
for curve in (0, 1):
    for op in range(11):
        put("field_x8", f"f{n}", bytes([curve | 2, op])); n += 1
        put("field_x8", f"f{n}", bytes([curve | 14]) + bytes(range(op, op + 7)) +
            bytes((i * 37 + op) % 256 for i in range(16 * 48))); n += 1
EOF
rm -rf "$W/seeds/generated"

declare -A max_len=([elements]=8192 [utxo_decode]=131072 [utxo_index]=200000 \
    [muhash_parse]=4096 [num3072]=1024 [pairs]=65536 [g1]=160 [g2]=257 [kzg]=270000 \
    [field_x8]=1024)
# 10 harnesses on 2 cores run in 5 rounds, as 9 did: fuzz_g2 adds no time there
harnesses=${FUZZ_HARNESSES:-elements utxo_decode utxo_index muhash_parse num3072 pairs g1 g2 kzg \
    field_x8}
# One harness per core at a time (each is one process with one thread), so every harness gets
# a whole core for its SECONDS_EACH and the step takes about harnesses / cores of that (nproc
# before OMP_NUM_THREADS is set: nproc honours it).
jobs=${FUZZ_JOBS:-$(nproc)}
export OMP_NUM_THREADS=1 # the harnesses reduce with one thread; no idle team
export MULRED_VECTORS=${MULRED_VECTORS:-$MULRED_ROOT/tests/vectors} # fuzz_kzg's setup
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# fuzz HARNESS: one harness for SECONDS_EACH seconds; its exit status goes to logs/HARNESS.rc
fuzz() {
    local h=$1 rc=0
    mkdir -p "$W/corpus/$h" "$W/artifacts/$h"
    touch "$W/logs/$h.log" # exists even when the harness cannot be started (unknown name)
    "$FUZZ_BUILD_DIR/tests/fuzz/fuzz_$h" "$W/corpus/$h" "$W/seeds/$h" \
        -max_total_time="$SECONDS_EACH" -max_len="${max_len[$h]}" -timeout=30 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$W/artifacts/$h/" \
        >"$W/logs/$h.log" 2>&1 || rc=$?
    echo "$rc" >"$W/logs/$h.rc"
}
echo "== fuzzing: $harnesses; $SECONDS_EACH s each, $jobs at a time"
# shellcheck disable=SC2086 # harness names are words
run_limited "$jobs" fuzz $harnesses
status=0
summary=()
for h in $harnesses; do
    rc=$(cat "$W/logs/$h.rc" 2>/dev/null || echo "none: the harness did not run")
    # (a harness that fails on its seeds prints no coverage line: grep finding nothing must
    # not end the script under pipefail before the failure is reported)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/logs/$h.log" | tail -1)
    secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$W/logs/$h.log" | tail -1)
    cov=$({ grep -o 'cov: [0-9]*' "$W/logs/$h.log" || true; } | tail -1)
    if [ "$rc" != 0 ] || grep -q -e 'ERROR: \(AddressSanitizer\|LeakSanitizer\|libFuzzer\)' \
        -e 'runtime error:' -e 'FUZZ CHECK FAILED' "$W/logs/$h.log"; then
        status=1
        echo "FAILED (exit $rc): fuzz_$h; log $W/logs/$h.log, input in $W/artifacts/$h/" >&2
        grep -m 5 -e 'ERROR' -e 'runtime error' -e 'FUZZ CHECK' "$W/logs/$h.log" >&2 || true
        ls "$W/artifacts/$h" >&2
    fi
    summary+=("$(printf '%-14s %10s executions  %6s exec/s  %-10s  corpus %s files' "$h" \
        "${execs:-?}" "${secs:-?}" "${cov:-cov: ?}" "$(ls "$W/corpus/$h" | wc -l)")")
done
echo "== fuzzing, $SECONDS_EACH s per harness:"
printf '  %s\n' "${summary[@]}"
exit $status

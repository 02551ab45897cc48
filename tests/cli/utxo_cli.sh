# mulred utxo index|info|synth: help and usage errors, the Core-written vectors (metadata and
# txoutset_hash), index build and reuse, read-only directories, and bad input → exit 2 with the
# byte offset.
. "$(dirname "$0")/../lib.sh"
V=$(readonly_vectors bitcoin)  # read-only: no index is written beside them
jget() { # KEY: a string or number member of the one-line JSON in $out
    printf '%s\n' "$out" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}

expect_status 0 "$MULRED" utxo --help
expect_contains "$out" "Usage: mulred utxo index" "help"
expect_contains "$out" "SEQUENTIAL" "help says the txoutset hash is sequential"
expect_status 1 "$MULRED" utxo
expect_status 1 "$MULRED" utxo frobnicate x
expect_status 1 "$MULRED" utxo info
expect_status 1 "$MULRED" utxo synth 12x "$TEST_TMP/x.dat"
expect_status 1 "$MULRED" utxo index --chunk-bytes 0 x
expect_status 1 "$MULRED" utxo info --bogus x

# Core-written vectors: metadata and txoutset_hash from Core's own RPC output.
for name in regtest-small regtest-medium; do
    json=$(tr -d '\n ' < "$V/$name.json")
    want() { printf '%s\n' "$json" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"; }
    expect_status 0 "$MULRED" utxo info "$V/$name.dat" --txoutset-hash --json
    expect_equal "$(jget txoutset_hash)" "$(want txoutset_hash)" "$name txoutset_hash"
    expect_equal "$(jget coins)" "$(want coins)" "$name coins"
    expect_equal "$(jget base_block_hash)" "$(want base_hash)" "$name base block hash"
    expect_equal "$(jget network)" "regtest" "$name network"
    expect_equal "$(jget format_version)" "2" "$name format"
done
expect_status 0 "$MULRED" utxo info "$V/dump-27_0.dat"
expect_contains "$out" "format_version: 0 (legacy)" "legacy detected"
expect_contains "$out" "p2wpkh" "histogram"
expect_status 0 "$MULRED" utxo info "$V/dump-28_0.dat" --json
expect_equal "$(jget network)" "signet" "v2 network"
expect_equal "$(jget base_block_hash)" \
    "000002cfbc285703a0d485b4d308476e85da6876e3d6ae229dc969fa9fe02d1d" "v2 block hash"

# Synthetic snapshots: both formats hold the same coins, so the same txoutset hash.
expect_status 0 "$MULRED" utxo synth 5000 "$TEST_TMP/s.dat" --seed 9
expect_status 0 "$MULRED" utxo synth 5k "$TEST_TMP/l.dat" --seed 9 --legacy
expect_status 0 "$MULRED" utxo info "$TEST_TMP/s.dat" --txoutset-hash --json
h1=$(jget txoutset_hash)
expect_equal "$(jget coins)" 5000 "synth coin count"
expect_status 0 "$MULRED" utxo info "$TEST_TMP/l.dat" --txoutset-hash --json
expect_equal "$(jget txoutset_hash)" "$h1" "v2 and legacy synth agree"
cmp -s <("$MULRED" utxo synth 5000 /dev/stdout --seed 9 >/dev/null; cat "$TEST_TMP/s.dat") \
    "$TEST_TMP/s.dat" && pass || fail "synth output differs"
"$MULRED" utxo synth 5000 "$TEST_TMP/s2.dat" --seed 9 >/dev/null
cmp -s "$TEST_TMP/s.dat" "$TEST_TMP/s2.dat" && pass || fail "synth is not deterministic"

# Index: built, then reused; a rewritten snapshot makes it stale.
expect_status 0 "$MULRED" utxo index "$TEST_TMP/s.dat" --json --chunk-bytes 8192
expect_equal "$(jget status)" built "index built"
[ -f "$TEST_TMP/s.dat.idx" ] && pass || fail "no index file"
expect_status 0 "$MULRED" utxo index "$TEST_TMP/s.dat" --json
expect_equal "$(jget status)" fresh "index reused"
expect_equal "$(jget chunk_bytes)" 8192 "index keeps its chunk size"
touch -d '2001-01-01' "$TEST_TMP/s.dat"
expect_status 0 "$MULRED" utxo index "$TEST_TMP/s.dat" --json
expect_equal "$(jget status)" built "stale index rebuilt"
# Read-only snapshot directory: an error for 'utxo index', fine with MULRED_UTXO_INDEX_DIR.
expect_status 3 "$MULRED" utxo index "$V/regtest-small.dat"
expect_contains "$err" "MULRED_UTXO_INDEX_DIR" "hint for read-only directories"
mkdir -p "$TEST_TMP/idx"
expect_status 0 env MULRED_UTXO_INDEX_DIR="$TEST_TMP/idx" "$MULRED" utxo index "$V/regtest-small.dat"
[ -f "$TEST_TMP/idx/regtest-small.dat.idx" ] && pass || fail "index not in MULRED_UTXO_INDEX_DIR"
expect_status 0 "$MULRED" utxo index "$V/regtest-small.dat" --index "$TEST_TMP/idx/other.idx"
[ -f "$TEST_TMP/idx/other.idx" ] && pass || fail "--index ignored"

# Bad input: exit 2, "FILE: byte N: reason", nothing on stdout.
bad() { # NAME OFFSET REASON: checks info and index on $TEST_TMP/NAME
    expect_status 2 "$MULRED" utxo info "$TEST_TMP/$1" --txoutset-hash
    expect_contains "$err" "$TEST_TMP/$1: byte $2: $3" "$1"
    expect_equal "$out" "" "$1: no output"
    expect_status 2 "$MULRED" utxo index "$TEST_TMP/$1"
    [ -f "$TEST_TMP/$1.idx" ] && fail "$1: index written for a bad file" || pass
}
src="$V/regtest-small.dat"
size=$(stat -c %s "$src")
{ printf 'utxo\376'; tail -c +6 "$src"; } > "$TEST_TMP/magic.dat"; bad magic.dat 0 "bad magic"
{ head -c 5 "$src"; printf '\003'; tail -c +7 "$src"; } > "$TEST_TMP/version.dat"
bad version.dat 5 "unsupported snapshot version 3"
head -c 40 "$src" > "$TEST_TMP/header.dat"; bad header.dat 40 "truncated header"
head -c $((size - 10)) "$src" > "$TEST_TMP/trunc.dat"; bad trunc.dat $((size - 10)) "unexpected end of file"
{ cat "$src"; printf '\000'; } > "$TEST_TMP/trailing.dat"; bad trailing.dat "$size" "1 trailing bytes"
# Coin count 297 or 299 instead of 298 (u64 at byte 43).
{ head -c 43 "$src"; printf '\051\001'; tail -c +46 "$src"; } > "$TEST_TMP/count297.dat"
bad count297.dat 85281 "72 trailing bytes after the last of 297 coins"
{ head -c 43 "$src"; printf '\053\001'; tail -c +46 "$src"; } > "$TEST_TMP/count299.dat"
bad count299.dat "$size" "unexpected end of file: 298 coins read, the header says 299"
: > "$TEST_TMP/empty.dat"; bad empty.dat 0 "empty file"
expect_status 2 "$MULRED" utxo info "$TEST_TMP/does-not-exist.dat"

# Under mpirun (no MPI used) only rank 0 prints.
expect_status 0 mpi 2 "$MULRED" utxo info "$V/dump-28_0.dat"
expect_equal "$(printf '%s\n' "$out" | grep -c '^coins:')" 1 "one report under 2 ranks"
# --progress on synth and index: a bar on stderr reaching 100%; the same files as without
expect_status 0 "$MULRED" utxo synth 70000 "$TEST_TMP/prog.dat" --seed 3 --progress
expect_contains "$err" "100.0%" "utxo synth --progress: the bar reaches 100%"
expect_status 0 "$MULRED" utxo synth 70000 "$TEST_TMP/plain.dat" --seed 3
expect_equal "$err" "" "utxo synth: no bar unless asked"
cmp -s "$TEST_TMP/prog.dat" "$TEST_TMP/plain.dat" && pass || fail "utxo synth --progress: another file"
expect_status 0 "$MULRED" utxo index "$TEST_TMP/prog.dat" --progress
expect_contains "$err" "100.0%" "utxo index --progress: the bar reaches 100%"
finish

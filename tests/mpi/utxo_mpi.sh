# mulred muhash --snapshot under mpiexec: the same muhash, coin count and metadata for 1-4 ranks
# (1 and 2 threads in turn), with and without the sidecar index, on the Core-written vectors
# (their own gettxoutsetinfo muhash and txoutset_hash; also under the dynamic schedule) and on
# synthetic v2 and legacy snapshots; bad files end every rank with exit 2 and no digest, also
# when the index is stale but undetectably so (each rank validates its own chunks).
. "$(dirname "$0")/../lib.sh"
V=$(readonly_vectors bitcoin)  # read-only: no index is written beside them
jget() { # KEY: a string or number member of the one-line JSON in $out
    printf '%s\n' "$out" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}
LAUNCH=0
run_all() { # NAME FILE MUHASH COINS RANKS...: muhash for each rank count, threads 1 and 2 in turn
    # (a list of two rank counts or more meets both; the option matrix, tests/matrix, crosses
    # ranks and threads with every input kind)
    local name=$1 file=$2 want=$3 coins=$4 threads; shift 4
    for ranks in "$@"; do
        threads=$((1 + LAUNCH % 2)) LAUNCH=$((LAUNCH + 1))
        expect_status 0 mpi "$ranks" "$MULRED" muhash --snapshot "$file" --threads "$threads" --json
        expect_equal "$(jget muhash)" "$want" "$name: $ranks ranks x $threads threads"
        expect_equal "$(jget coins)" "$coins" "$name: coins ($ranks x $threads)"
        expect_equal "$(printf '%s\n' "$out" | grep -c '"result"')" 1 "$name: only rank 0 prints"
    done
}

# Core-written vectors (read-only directory: the index lives in memory, or in
# MULRED_UTXO_INDEX_DIR with small chunks so that 4 ranks really split the file).
for name in regtest-small regtest-medium; do
    json=$(tr -d '\n ' < "$V/$name.json")
    want() { printf '%s\n' "$json" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"; }
    run_all "$name (no index)" "$V/$name.dat" "$(want muhash)" "$(want coins)" 1 3
    mkdir -p "$TEST_TMP/idx"
    MULRED_UTXO_INDEX_DIR="$TEST_TMP/idx" "$MULRED" utxo index "$V/$name.dat" --chunk-bytes 2048 >/dev/null
    export MULRED_UTXO_INDEX_DIR="$TEST_TMP/idx"
    run_all "$name (index)" "$V/$name.dat" "$(want muhash)" "$(want coins)" 1 2 3 4
    expect_status 0 mpi 3 "$MULRED" muhash --snapshot "$V/$name.dat" --txoutset-hash --json
    expect_equal "$(jget txoutset_hash)" "$(want txoutset_hash)" "$name txoutset_hash"
    expect_equal "$(jget base_block_hash)" "$(want base_hash)" "$name base_block_hash"
    expect_equal "$(jget network)" regtest "$name network"
    expect_equal "$(jget format_version)" 2 "$name format_version"
    # the dynamic schedule: chunks drawn by coins, largest first; the same muhash and coins
    expect_status 0 mpi 3 "$MULRED" muhash --snapshot "$V/$name.dat" --threads 2 --json \
        --schedule dynamic
    expect_equal "$(jget muhash)" "$(want muhash)" "$name: dynamic schedule"
    expect_equal "$(jget coins)" "$(want coins)" "$name: coins (dynamic)"
    unset MULRED_UTXO_INDEX_DIR
done
dump=dd659196637ca2e8cb75e822474d74af7003d25da349eb6ddd98cea49b9c2d38
run_all dump-28_0 "$V/dump-28_0.dat" $dump 100 1 4
run_all dump-27_0 "$V/dump-27_0.dat" $dump 100 1 4
expect_status 0 mpi 2 "$MULRED" muhash --snapshot "$V/dump-27_0.dat" --json
expect_equal "$(jget format_version)" 0 "legacy format_version"
expect_equal "$(jget network)" "" "legacy network"
expect_equal "$(jget base_block_hash)" \
    000002cfbc285703a0d485b4d308476e85da6876e3d6ae229dc969fa9fe02d1d "legacy block hash"

# Synthetic snapshots in a writable directory: the first run builds FILE.idx (rank 0, before
# the others open it), later runs reuse it; v2 and legacy hold the same coins.
"$MULRED" utxo synth 20000 "$TEST_TMP/s.dat" --seed 11 >/dev/null
"$MULRED" utxo synth 20000 "$TEST_TMP/l.dat" --seed 11 --legacy >/dev/null
expect_status 0 "$MULRED" muhash --snapshot "$TEST_TMP/s.dat" --threads 1 --json
ref=$(jget muhash)
[ ${#ref} -eq 64 ] && pass || fail "no reference digest"
rm -f "$TEST_TMP/s.dat.idx" "$TEST_TMP/l.dat.idx"
run_all "synthetic v2 (index built by the run)" "$TEST_TMP/s.dat" "$ref" 20000 4
[ -f "$TEST_TMP/s.dat.idx" ] && pass || fail "the run did not write s.dat.idx"
run_all "synthetic v2 (index reused)" "$TEST_TMP/s.dat" "$ref" 20000 1 2 3 4
"$MULRED" utxo index "$TEST_TMP/l.dat" --chunk-bytes 4096 --force >/dev/null
run_all "synthetic legacy" "$TEST_TMP/l.dat" "$ref" 20000 1 2 3 4

# Bad input: exit 2 on every rank count, a byte offset, no digest.
bad() { # NAME WHAT
    for ranks in 1 2 3 4; do
        expect_status 2 mpi "$ranks" "$MULRED" muhash --snapshot "$TEST_TMP/$1" --threads 2 --json
        expect_contains "$err" "$TEST_TMP/$1: byte " "$2 ($ranks ranks)"
        expect_equal "$out" "" "$2: no digest ($ranks ranks)"
    done
}
size=$(stat -c %s "$TEST_TMP/s.dat")
head -c $((size - 100)) "$TEST_TMP/s.dat" > "$TEST_TMP/trunc.dat"; bad trunc.dat "truncated body"
{ cat "$TEST_TMP/s.dat"; printf '\000'; } > "$TEST_TMP/trailing.dat"; bad trailing.dat "trailing byte"
{ head -c 43 "$TEST_TMP/s.dat"; printf '\041\116'; tail -c +46 "$TEST_TMP/s.dat"; } > "$TEST_TMP/count.dat"
bad count.dat "coin count 20001"
{ printf 'utxo\000'; tail -c +6 "$TEST_TMP/s.dat"; } > "$TEST_TMP/magic.dat"; bad magic.dat "bad magic"
{ head -c 5 "$TEST_TMP/s.dat"; printf '\001'; tail -c +7 "$TEST_TMP/s.dat"; } > "$TEST_TMP/version.dat"
bad version.dat "unknown version"
# Corrupted in the middle with the index's fingerprint intact (same size, header, tail and
# mtime): the index is reused and the rank owning the damaged chunk reports it. The damage is
# the coin count of the group that starts the middle chunk (offset read from the index: entries
# of u64 offset and u64 ordinal after a 120-byte fixed part): 0xff... is a CompactSize too large.
cp -p "$TEST_TMP/s.dat" "$TEST_TMP/stale.dat"
"$MULRED" utxo index "$TEST_TMP/stale.dat" --chunk-bytes 8192 >/dev/null
nchunks=$(od -An -t u8 -j 112 -N 8 "$TEST_TMP/stale.dat.idx" | tr -d ' ')
middle=$(od -An -t u8 -j $((120 + 16 * (nchunks / 2))) -N 8 "$TEST_TMP/stale.dat.idx" | tr -d ' ')
[ "$nchunks" -gt 20 ] && [ "$middle" -gt 51 ] && pass || fail "index layout: $nchunks chunks, middle at $middle"
printf '\377%.0s' $(seq 16) | dd of="$TEST_TMP/stale.dat" bs=1 seek=$((middle + 32)) conv=notrunc status=none
touch -r "$TEST_TMP/s.dat" "$TEST_TMP/stale.dat"
cp -p "$TEST_TMP/stale.dat.idx" "$TEST_TMP/stale.idx.keep"
bad stale.dat "corruption behind a fresh-looking index"
expect_contains "$err" "byte $((middle + 32)): coin count of a txid group: too large" "the chunk's rank names the damage"
cmp -s "$TEST_TMP/stale.dat.idx" "$TEST_TMP/stale.idx.keep" && pass || fail "index was rewritten"
expect_status 0 "$MULRED" utxo index "$TEST_TMP/stale.dat" --json
expect_contains "$out" '"status":"fresh"' "the index looked fresh (so chunk decoders, not a scan, found it)"
finish

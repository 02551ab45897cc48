# Checkpoints of snapshot MuHash runs (mulred muhash --snapshot FILE --checkpoint DIR): on the
# Core-written regtest vectors, a checkpointed run gives Core's own gettxoutsetinfo muhash on
# ranks 1-3 and resumes entirely on another rank count; the state a killed run leaves (some unit
# files missing, a temporary file) and deleted, damaged or truncated unit files still give the
# published digest (the damage reported with file and offset); another snapshot, the same
# snapshot indexed anew with other chunks, another unit size are refused with exit 2 naming the
# field; the txoutset hash and the job-file key work with checkpoints.
. "$(dirname "$0")/../lib.sh"
V=$(readonly_vectors bitcoin) # read-only: the index lives in MULRED_UTXO_INDEX_DIR
T=$TEST_TMP
jget() { # KEY: a string or number member of the one-line JSON in $out
    printf '%s\n' "$out" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}
unit_file() { printf '%s/unit-%010d.ckpt' "$1" "$2"; }
json=$(tr -d '\n ' < "$V/regtest-medium.json")
want() { printf '%s\n' "$json" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"; }
snap=$V/regtest-medium.dat
muhash=$(want muhash) coins=$(want coins)
[ ${#muhash} -eq 64 ] || fail "no published muhash"

# small chunks (21 of them) in checkpoint units of 2 chunks: 11 units
mkdir -p "$T/idx"
export MULRED_UTXO_INDEX_DIR="$T/idx"
"$MULRED" utxo index "$snap" --chunk-bytes 2048 >/dev/null
args=(--snapshot "$snap" --checkpoint-unit 2 --json)
for layout in 1x2 2x1 3x2; do
    ranks=${layout%x*} threads=${layout#*x}
    dir="$T/ck-$ranks"
    expect_status 0 mpi "$ranks" "$MULRED" muhash "${args[@]}" --threads "$threads" --checkpoint "$dir"
    expect_equal "$(jget muhash)" "$muhash" "$ranks ranks x $threads threads"
    expect_equal "$(jget coins)" "$coins" "coins ($ranks x $threads)"
    expect_equal "$(jget inserted)" "$coins" "inserted ($ranks x $threads)"
    expect_equal "$(jget base_block_hash)" "$(want base_hash)" "base block ($ranks x $threads)"
    expect_contains "$out" '"resumed_units":0,"computed_units":11,' "computed ($ranks x $threads)"
    expect_equal "$(units_in "$dir")" 11 "unit files ($ranks x $threads)"
    expect_status 0 mpi $((4 - ranks)) "$MULRED" muhash "${args[@]}" --checkpoint "$dir"
    expect_equal "$(jget muhash)" "$muhash" "resumed on $((4 - ranks)) ranks"
    expect_equal "$(jget inserted)" "$coins" "inserted, resumed ($ranks x $threads)"
    expect_contains "$out" '"resumed_units":11,"computed_units":0,' "resumed ($ranks x $threads)"
done

# What a killed run leaves: some units saved, a temporary file of an unfinished save.
dir="$T/ck-2"
for u in 0 4 5 9; do rm "$(unit_file "$dir" $u)"; done
printf 'partial' > "$dir/.tmp-unit-0000000004.ckpt.XXXXXX"
expect_status 0 mpi 3 "$MULRED" muhash "${args[@]}" --checkpoint "$dir"
expect_equal "$(jget muhash)" "$muhash" "after a killed run"
expect_contains "$out" '"resumed_units":7,"computed_units":4,' "the missing units computed"
expect_equal "$err" "" "a temporary file is ignored"
# Damaged and truncated unit files: reported and recomputed.
f3=$(unit_file "$dir" 3) f7=$(unit_file "$dir" 7)
printf '\x55' | dd of="$f3" bs=1 seek=200 conv=notrunc status=none
truncate -s 40 "$f7"
expect_status 0 mpi 2 "$MULRED" muhash "${args[@]}" --checkpoint "$dir" --txoutset-hash
expect_equal "$(jget muhash)" "$muhash" "after recomputing damaged units"
expect_equal "$(jget txoutset_hash)" "$(want txoutset_hash)" "txoutset_hash with a checkpoint"
expect_contains "$out" '"resumed_units":9,"computed_units":2,' "two units recomputed"
expect_contains "$err" "$f3: checksum mismatch (the SHA-256 at offset" "the flipped byte is reported"
expect_contains "$err" "$f7: truncated at byte 40" "the truncation is reported"
expect_status 0 "$MULRED" muhash "${args[@]}" --checkpoint "$dir"
expect_contains "$out" '"resumed_units":11,"computed_units":0,' "the recomputed units were saved"
expect_equal "$err" "" "no warning once repaired"

# Another job: another snapshot, other unit size, the snapshot indexed anew. Exit 2, no digest.
"$MULRED" utxo index "$V/regtest-small.dat" --chunk-bytes 2048 >/dev/null
expect_status 2 mpi 2 "$MULRED" muhash --snapshot "$V/regtest-small.dat" --checkpoint-unit 2 --checkpoint "$dir"
expect_contains "$err" "belongs to another job: '" "another snapshot refused"
expect_equal "$out" "" "no digest for another snapshot"
expect_status 2 "$MULRED" muhash --snapshot "$snap" --checkpoint-unit 3 --checkpoint "$dir"
expect_contains "$err" "belongs to another job: 'units' is '11' there, '7' here" "another unit size"
# (one unit of up to 100 chunks either way, so that the chunks are the first difference)
expect_status 0 "$MULRED" muhash --snapshot "$snap" --checkpoint-unit 100 --checkpoint "$T/ck-one"
"$MULRED" utxo index "$snap" --chunk-bytes 4096 --force >/dev/null
expect_status 2 mpi 2 "$MULRED" muhash --snapshot "$snap" --checkpoint-unit 100 --checkpoint "$T/ck-one"
expect_contains "$err" "'snapshot0.chunks' is '21 coin ordinals sha256 " "the snapshot indexed anew"
expect_equal "$out" "" "no digest after indexing anew"

# A job file: checkpoint = DIR, relative to the job's directory.
mkdir -p "$T/job"
printf 'kind = muhash\nsnapshot = %s\ncheckpoint = ck\n' "$snap" > "$T/job/snap.job"
expect_status 0 mpi 2 "$MULRED" run "$T/job/snap.job" --json
expect_contains "$out" "\"muhash\":\"$muhash\"" "job file: digest"
expect_contains "$out" '"resumed_units":0,"computed_units":1,' "job file: one unit (the default size)"
expect_status 0 "$MULRED" run "$T/job/snap.job" --json
expect_contains "$out" '"resumed_units":1,"computed_units":0,' "job file: resumed"
expect_contains "$out" "\"muhash\":\"$muhash\"" "job file: digest resumed"
finish

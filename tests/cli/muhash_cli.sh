# mulred muhash: the published vectors through the command, input handling and bad input.
. "$(dirname "$0")/../lib.sh"
V=$MULRED_VECTORS

# Writes the insert/remove lists of the vector case named $2 in JSON file $1 to
# $TEST_TMP/ins and $TEST_TMP/rem, and prints its display digest.
vector_case() {
    awk -v want="$2" -v ins="$TEST_TMP/ins" -v rem="$TEST_TMP/rem" '
        BEGIN { printf "" > ins; printf "" > rem }
        /"name":/ { inside = index($0, "\"" want "\"") > 0; list = "" }
        inside && /"insert":/ { list = ins }
        inside && /"remove":/ { list = rem }
        inside && /^ *"[0-9a-f]+",?$/ && list != "" { gsub(/[", ]/, ""); print > list }
        inside && /\]/ { list = "" }
        inside && /"display":/ { gsub(/.*"display": *"|".*/, ""); print; exit }
    ' "$1"
}

for flavor in bitcoin kaspa; do
    json=$V/$flavor/muhash.json
    [ "$flavor" = bitcoin ] && cases=("empty set" "FromInt(0) * FromInt(1) / FromInt(2)") \
        || cases=("EMPTY_MUHASH" "test_new_pre_computed: add(0), add(1), remove(2)")
    for c in "${cases[@]}"; do
        want=$(vector_case "$json" "$c")
        [ ${#want} -eq 64 ] || fail "could not read vector '$c' from $json"
        expect_status 0 "$MULRED" muhash --flavor "$flavor" --insert "$TEST_TMP/ins" --remove "$TEST_TMP/rem" --json
        expect_contains "$out" "\"muhash\":\"$want\"" "$flavor vector '$c'"
        expect_contains "$out" "\"flavor\":\"$flavor\"" "flavor in JSON"
    done
done

# Kaspa cumulative vectors: the three elements inserted at once give the last cumulative digest;
# standard input works as a file.
data=$(grep '"data"' "$V/kaspa/muhash.json" | sed 's/.*"data": *"\([0-9a-f]*\)".*/\1/')
want=$(grep '"cumulative"' "$V/kaspa/muhash.json" | tail -n 1 | sed 's/.*"cumulative": *"\([0-9a-f]*\)".*/\1/')
printf '%s\n' "$data" > "$TEST_TMP/kaspa3"
expect_status 0 "$MULRED" muhash --flavor kaspa --insert "$TEST_TMP/kaspa3"
expect_contains "$out" "$want" "kaspa cumulative vector"
expect_equal "$(printf '%s' "$data" | "$MULRED" muhash --flavor kaspa --insert - | awk '/^muhash/ {print $2}')" "$want" "standard input"
# a pipe (process substitution) is read like standard input
expect_status 0 "$MULRED" muhash --flavor kaspa --insert <(printf '%s\n' "$data")
expect_contains "$out" "$want" "a pipe as input"
# standard input is read in blocks of 1 MiB (src/io/elements.c): a pipe of several blocks gives the
# file's digest at 1 and 2 threads, and a bad line in its third block is named as in the file
head -c 1200000 /dev/urandom | od -An -v -tx1 | tr -d ' ' > "$TEST_TMP/blocks"
file_digest=$("$MULRED" muhash --insert "$TEST_TMP/blocks" | awk '/^muhash/ {print $2}')
for t in 1 2; do
    expect_equal "$(cat "$TEST_TMP/blocks" | "$MULRED" muhash --insert - --threads $t | awk '/^muhash/ {print $2}')" "$file_digest" "a pipe of several blocks, $t threads"
done
{ head -n 70000 "$TEST_TMP/blocks"; echo "zz"; tail -n +70001 "$TEST_TMP/blocks"; echo "0g"; } > "$TEST_TMP/blocks_bad"
expect_status 2 "$MULRED" muhash --insert "$TEST_TMP/blocks_bad" --threads 2
expect_contains "$err" "blocks_bad:70001: column 1: 'z' is not a hex digit" "bad line in a file"
expect_status 2 sh -c "cat '$TEST_TMP/blocks_bad' | '$MULRED' muhash --insert - --threads 2"
expect_contains "$err" "-:70001: column 1: 'z' is not a hex digit" "bad line in the third block of a pipe"
# the same elements, as uppercase, CRLF, comments, no final newline
{ echo "# three coins"; printf '%s\r\n' "$data" | tr a-f A-F; } | head -c -2 > "$TEST_TMP/kaspa3b"
expect_status 0 "$MULRED" muhash --flavor kaspa --insert "$TEST_TMP/kaspa3b" --json
expect_contains "$out" "\"muhash\":\"$want\"" "uppercase, CRLF, comment, no newline"
expect_contains "$out" '"inserted":3' "inserted count"
# insert then remove the same set: the empty digest
expect_status 0 "$MULRED" muhash --flavor kaspa --insert "$TEST_TMP/kaspa3" --remove "$TEST_TMP/kaspa3b"
expect_contains "$out" "544eb3142c000f0ad2c76ac41f4222abbababed830eeafee4b6dc56b52d5cac0" "insert+remove = empty"

# MULRED_KERNEL forces a multiply kernel: every kernel gives the same digests (a vector and a
# synthetic set, batched and one at a time); a kernel this CPU lacks, or an unknown name, is
# reported on stderr and the kernel is chosen as usual.
synth_want=$(MULRED_KERNEL=gmp "$MULRED" muhash --flavor kaspa --synthetic 3000 --threads 2 --json | sed 's/.*"result":"\([0-9a-f]*\)".*/\1/')
for kernel in gmp mulx ifma ifma_kara ifma256 ifma256_kara nosuchkernel; do
    expect_status 0 env MULRED_KERNEL=$kernel "$MULRED" muhash --flavor kaspa --insert "$TEST_TMP/kaspa3" --json
    expect_contains "$out" "\"muhash\":\"$want\"" "kaspa vector with MULRED_KERNEL=$kernel"
    if [ -z "$err" ]; then
        expect_contains "$out" "\"kernel\":\"$kernel\"" "MULRED_KERNEL=$kernel in use"
    else
        expect_contains "$err" "MULRED_KERNEL=$kernel is not" "MULRED_KERNEL=$kernel refused"
    fi
    expect_status 0 env MULRED_KERNEL=$kernel "$MULRED" muhash --flavor kaspa --synthetic 3000 --threads 2 --json
    expect_contains "$out" "\"muhash\":\"$synth_want\"" "synthetic set with MULRED_KERNEL=$kernel"
done
expect_status 0 env MULRED_KERNEL=nosuchkernel "$MULRED" version
expect_contains "$err" "kernels: gmp, mulx" "unknown kernel lists the kernels"

# --output writes the result to a file, nothing to stdout
expect_status 0 "$MULRED" muhash --synthetic 1000 --json --output "$TEST_TMP/result.json"
expect_equal "$out" "" "stdout with --output"
expect_contains "$(cat "$TEST_TMP/result.json")" '"inserted":1000' "result file"

# --progress forces the bar on stderr (not a terminal here); by default and with --no-progress
# stderr stays empty.
expect_status 0 "$MULRED" muhash --synthetic 20000 --threads 1 --progress
expect_contains "$err" "100.0%" "progress bar reaches 100%"
expect_status 0 "$MULRED" muhash --synthetic 20000 --threads 1
expect_equal "$err" "" "no progress bar when stderr is not a terminal"
expect_status 0 "$MULRED" muhash --synthetic 20000 --threads 1 --progress --no-progress
expect_equal "$err" "" "--no-progress wins when given last"

# Bad input: exit 2, FILE:LINE: reason, no digest.
printf '00\n0g\n' > "$TEST_TMP/bad1"
expect_status 2 "$MULRED" muhash --insert "$TEST_TMP/bad1"
expect_contains "$err" "$TEST_TMP/bad1:2: column 2: 'g' is not a hex digit" "non-hex"
expect_equal "$out" "" "no digest on bad input"
printf '00\n\nabc\n' > "$TEST_TMP/bad2"
expect_status 2 "$MULRED" muhash --insert "$TEST_TMP/kaspa3" --remove "$TEST_TMP/bad2" --json
expect_contains "$err" "$TEST_TMP/bad2:3: odd number of hex digits (3)" "odd length"
expect_equal "$out" "" "no JSON on bad input"
expect_status 2 "$MULRED" muhash --insert "$TEST_TMP/does-not-exist"
expect_contains "$err" "does-not-exist: cannot open" "missing file"
expect_status 2 "$MULRED" muhash --insert "$TEST_TMP"
expect_contains "$err" "is a directory" "a directory as input"
# Usage errors: exit 1.
expect_status 1 "$MULRED" muhash
expect_status 1 "$MULRED" muhash --flavor dogecoin --synthetic 1
expect_status 1 "$MULRED" muhash --synthetic lots
expect_status 1 "$MULRED" muhash --synthetic 10 --threads 0
expect_status 1 "$MULRED" muhash --synthetic 10 extra
expect_status 0 "$MULRED" muhash --help
expect_contains "$out" "--synthetic N" "muhash --help"
finish

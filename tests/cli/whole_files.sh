# Files appear whole or not at all (docs/cli.md, "Results and the files mulred writes"): a
# snapshot written by `utxo synth` and killed with SIGKILL leaves nothing under its name; a write
# that fails (a full file system: a 1 MiB tmpfs filled up) leaves no file under the name and no
# temporary, and a file already under the name keeps its content, for --output, --write-pairs,
# --save, `utxo synth`, `utxo index` and `report --output`; a run that succeeds leaves exactly
# its file; a device is written in place (/dev/full: exit 3). `utxo synth` refuses a file system without room for its size
# bound before writing (exit 3, both sizes named). The tmpfs cases need mount rights (root) and
# are skipped, saying so, without them.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMP

# only NAME in DIR: no temporary beside it, nothing else
only() { # DIR NAME WHAT
    expect_equal "$(cd "$1" && ls -A | tr '\n' ' ')" "${2:+$2 }" "$3: what the directory holds"
}

# ---- success: exactly the file ----
mkdir -p "$T/ok"
expect_status 0 "$MULRED" muhash --synthetic 100 --json --output "$T/ok/result.json"
only "$T/ok" result.json "--output"
expect_contains "$(cat "$T/ok/result.json")" '"result":"' "--output: the result"
mv "$T/ok/result.json" "$T/result.json"
expect_status 0 "$MULRED" utxo synth 3000 "$T/ok/s.dat" --seed 4
only "$T/ok" s.dat "utxo synth"
expect_status 0 "$MULRED" utxo index "$T/ok/s.dat"
only "$T/ok" "s.dat s.dat.idx" "utxo index"
rm -f "$T/ok/"*
expect_status 0 "$MULRED" msm --curve bn254 --synthetic 100 --seed 3 --write-pairs "$T/ok/pairs.hex"
only "$T/ok" pairs.hex "--write-pairs"
expect_equal "$(wc -l <"$T/ok/pairs.hex")" 100 "--write-pairs: one line a pair"
# a device is written in place, not replaced; a write error there is a runtime failure
expect_status 0 "$MULRED" utxo synth 100 /dev/null
[ -c /dev/null ] && pass || fail "/dev/null is no longer a device"
expect_status 3 "$MULRED" muhash --synthetic 100 --output /dev/full
expect_contains "$err" "/dev/full: cannot write the result" "/dev/full: the file named"
expect_status 3 "$MULRED" utxo synth 1000 /dev/full
expect_contains "$err" "/dev/full: cannot write" "utxo synth to /dev/full"
[ -c /dev/full ] && pass || fail "/dev/full is no longer a device"
expect_status 0 "$MULRED" muhash --synthetic 100 --json --output /dev/stdout
expect_contains "$out" '"result":"' "--output /dev/stdout: written in place"
# a symbolic link given as --output: its target replaced, the link kept
printf 'old\n' >"$T/ok/target.json"
ln -s target.json "$T/ok/link.json"
expect_status 0 "$MULRED" muhash --synthetic 100 --json --output "$T/ok/link.json"
[ -L "$T/ok/link.json" ] && pass || fail "--output through a link: the link replaced"
expect_contains "$(cat "$T/ok/target.json")" '"result":"' "--output through a link: the target written"
only "$T/ok" "link.json pairs.hex target.json" "--output through a link"
rm -f "$T/ok/link.json" "$T/ok/target.json"
# a FIFO is written in place: its reader gets the result
mkfifo "$T/ok/fifo"
cat "$T/ok/fifo" >"$T/fifo.out" &
reader=$!
expect_status 0 "$MULRED" muhash --synthetic 100 --output "$T/ok/fifo"
wait $reader
expect_equal "$(head -n 1 "$T/fifo.out")" "$("$MULRED" muhash --synthetic 100 | head -n 1)" \
    "--output FIFO: the digest line, as on standard output"
[ -p "$T/ok/fifo" ] && pass || fail "the FIFO was replaced"
rm -f "$T/ok/fifo"

# ---- a synth killed mid-write: nothing under its name ----
mkdir -p "$T/kill"
"$MULRED" utxo synth 2e8 "$T/kill/big.dat" >"$T/kill.out" 2>"$T/kill.err" &
job=$!
seen=""
for _ in $(seq 1 400); do # up to 20 s for the first bytes
    for f in "$T"/kill/.big.dat.tmp.* "$T/kill/big.dat"; do
        [ -s "$f" ] && seen=$f
    done
    [ -n "$seen" ] && break
    kill -0 $job 2>/dev/null || break
    sleep 0.05
done
if [ -z "$seen" ] && grep -q "free" "$T/kill.err"; then
    echo "skipped the kill: this file system lacks room for 2e8 coins ($(cat "$T/kill.err"))"
    wait $job || true
else
    kill -KILL $job 2>/dev/null || true
    wait $job 2>/dev/null || true
    expect_contains "$seen" "/.big.dat.tmp." "the snapshot is written under a temporary name"
    [ ! -e "$T/kill/big.dat" ] && pass || fail "a killed synth left big.dat ($(stat -c %s "$T/kill/big.dat") bytes)"
fi
rm -f "$T"/kill/.big.dat.tmp.*

# ---- a synth whose write fails (a file size limit; SIGXFSZ ignored, so writes fail with
# EFBIG): nothing under its name ----
mkdir -p "$T/limit"
expect_status 3 bash -c 'trap "" XFSZ; ulimit -f 64; exec "$0" utxo synth 20000 "$1"' \
    "$MULRED" "$T/limit/s.dat"
expect_contains "$err" "$T/limit/s.dat: cannot write" "a failed synth: the file named"
only "$T/limit" "" "a failed synth"

# ---- no room: refused before writing ----
expect_status 3 "$MULRED" utxo synth 1e15 "$T/ok/huge.dat"
expect_contains "$err" "$T/ok/huge.dat: 1000000000000000 coins need up to " "no room: the file named"
expect_contains "$err" "bytes (76.0 PB); its file system has " "no room: both sizes"
only "$T/ok" "pairs.hex" "no room: nothing written"

# ---- a full file system ----
small=$T/small
mkdir -p "$small"
if mount -t tmpfs -o size=1m tmpfs "$small" 2>/dev/null; then
    trap 'umount "$small" 2>/dev/null || true' EXIT
    # an impossible size is refused at once, before anything is written
    expect_status 3 "$MULRED" utxo synth 1e12 "$small/s.dat"
    expect_contains "$err" "$small/s.dat: 1000000000000 coins need up to " "1e12 coins: refused"
    expect_contains "$err" "its file system has " "1e12 coins: the free space named"
    only "$small" "" "refused: nothing written"
    # an existing result, then fill the disk: every writer fails, leaves no temporary, and the
    # file under the name keeps its content
    printf 'old result\n' >"$small/result.json"
    dd if=/dev/zero of="$small/fill" bs=4k 2>/dev/null || true
    expect_status 3 "$MULRED" muhash --synthetic 100 --json --output "$small/result.json"
    expect_contains "$err" "$small/result.json: cannot write the result" "--output: the failure named"
    only "$small" "fill result.json" "--output to a full file system"
    expect_equal "$(cat "$small/result.json")" "old result" "--output: the old file kept"
    expect_status 3 "$MULRED" report "$T/result.json" --output "$small/result.json"
    only "$small" "fill result.json" "report --output to a full file system"
    expect_equal "$(cat "$small/result.json")" "old result" "report --output: the old file kept"
    rm -f "$small/result.json"
    expect_status 3 "$MULRED" msm --curve bn254 --synthetic 100 --write-pairs "$small/pairs.hex"
    only "$small" fill "--write-pairs to a full file system"
    cut -c1-128 "$T/ok/pairs.hex" >"$T/points.hex"
    cut -c129-192 "$T/ok/pairs.hex" >"$T/scalars.hex"
    expect_status 3 "$MULRED" msm --curve bn254 --points "$T/points.hex" --scalars "$T/scalars.hex" \
        --save "$small/set.cache"
    only "$small" fill "--save to a full file system"
    # the index of a snapshot in a full directory: kept in memory, nothing written
    rm -f "$small/fill"
    expect_status 0 "$MULRED" utxo synth 1000 "$small/s.dat"
    dd if=/dev/zero of="$small/fill" bs=1k 2>/dev/null || true
    expect_status 3 "$MULRED" utxo index "$small/s.dat"
    only "$small" "fill s.dat" "utxo index in a full directory"
    umount "$small" && trap - EXIT
else
    echo "skipped the full file system cases: cannot mount a tmpfs here"
fi
finish

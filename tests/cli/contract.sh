# The error contract of docs/cli.md ("Errors: one contract"), every command cell as written
# there (tests/tools/contract_table.py reads the tables; python/tests/test_contract.py runs the
# Python cells). For each cell the fault is made (an empty file, a missing one, a directory, an
# unreadable copy of a valid file, a valid file cut in the middle of a record, a file of another
# kind; an output in a missing folder, onto a directory, on a full file system) and the command
# run: the exit status must be the cell's; on failure the message names the file (and, for a cut
# or foreign file, the place: byte, line, pair, record, point or offset), nothing is printed on
# standard output, and a failed write leaves neither the file nor a temporary beside it. The two
# success cells: the empty element list prints the MuHash of the empty set, computed here from
# its definition (SHA-256 of the number 1 in 384 little-endian bytes, shown reversed), and a
# missing result file is a report row saying so.
. "$(dirname "$0")/../lib.sh"
: "${MULRED_SOURCE_DIR:?set by CTest}"
T=$TEST_TMP
V=$MULRED_VECTORS

# ---- the valid files the faults start from, and the other operands (S, P, B, SETUP) ----
scalar=$(printf '%063d1' 0)
printf '%s\n' "$scalar" >"$T/S"
g=$(printf '%063d1%063d2' 0 0) # BN254's generator (1, 2), EIP-196
printf '%s\n' "$g" >"$T/P"
printf '%s\n%s\n' "$g" "$g" >"$T/valid.points"
printf '%s%s\n%s%s\n' "$g" "$scalar" "$g" "$scalar" >"$T/valid.pairs"
printf '%s\n' "$scalar" >"$T/valid.scalars"
python3 -c 'print("00" * 131072)' >"$T/B"
cp "$T/B" "$T/valid.blob"
cp "$V/kzg/trusted_setup.txt" "$T/valid.setup"
cp "$V/bitcoin/regtest-small.dat" "$T/valid.snapshot"
printf 'aa\nbb\n' >"$T/valid.elements"
printf 'kind = muhash\nsynthetic = 10\n' >"$T/valid.job"
"$MULRED" muhash --synthetic 10 --json >"$T/valid.result"
"$MULRED" msm --curve bn254 --points "$T/valid.points" --scalars "$T/S" --save "$T/valid.bases" >/dev/null
for f in S P B valid.setup; do [ -s "$T/$f" ] || fail "no operand $f"; done
SETUP=$T/valid.setup
empty_digest=$(python3 -c 'import hashlib; print(hashlib.sha256((1).to_bytes(384, "little")).digest()[::-1].hex())')

# the valid file of each input kind of the reading table
declare -A valid=([element list]=valid.elements [snapshot]=valid.snapshot [pair file]=valid.pairs
    [points]=valid.points [scalars]=valid.scalars [saved set]=valid.bases [setup]=valid.setup
    [blob]=valid.blob [job file]=valid.job [result file]=valid.result)

# cut SRC DST: SRC cut inside a record: half its bytes, one byte off a line end (so that a hex
# record loses a digit, and a text file its last line's end)
cut_file() {
    local n
    n=$(( $(wc -c <"$1") / 2 ))
    [ "$n" -gt 2 ] || n=2
    head -c "$n" "$1" >"$2"
    if [ "$(tail -c 1 "$2" | od -An -c | tr -d ' ')" = '\n' ]; then truncate -s -2 "$2"; fi
}

# the command of a cell as words, F the fault's path; the other operands by name
words_of() { # COMMAND F
    local w cmd=()
    for w in ${1#mulred }; do
        case $w in
        F) cmd+=("$2") ;;
        S) cmd+=("$T/S") ;;
        P) cmd+=("$T/P") ;;
        B) cmd+=("$T/B") ;;
        SETUP) cmd+=("$SETUP") ;;
        *) cmd+=("$w") ;;
        esac
    done
    printf '%s\n' "${cmd[@]}"
}

run_cell() { # WHAT WANT F RUNNER WORDS...
    local what=$1 want=$2 f=$3 got=0
    shift 3
    timeout -k 5 120 "$@" </dev/null >"$T/stdout" 2>"$T/stderr" || got=$?
    out=$(<"$T/stdout") err=$(<"$T/stderr")
    if [ "$got" -ne "$want" ]; then
        fail "$what: exit $got, want $want"
        echo "  stderr: $(head -c 400 <<<"$err")" >&2
        return
    fi
    pass
    [ "$want" = 0 ] && return
    expect_equal "$out" "" "$what: nothing on standard output"
    expect_contains "$err" "$f" "$what: the message names the file"
}

full_fs=""
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=1M tmpfs "$T/full" 2>/dev/null; then
    full_fs=$T/full
    trap 'umount "$full_fs" 2>/dev/null || true' EXIT
    dd if=/dev/zero of="$full_fs/filler" bs=64k 2>/dev/null || true
else
    echo "SKIP: the full-disk cells need root and a tmpfs mount"
fi

cells=0
while IFS=$'\t' read -r table input command fault want; do
    cells=$((cells + 1))
    what="$command [$fault]"
    case $table in
    reading)
        src=$T/${valid[$input]}
        d=$T/r$cells && mkdir -p "$d"
        f=$d/input
        runner=("$MULRED")
        case $fault in
        empty) : >"$f" ;;
        missing) ;;
        directory) mkdir "$f" ;;
        truncated) cut_file "$src" "$f" ;;
        foreign) { printf '\211PNG\r\n\032\n'; head -c 600 "$V/bitcoin/regtest-small.dat" | tail -c 300; } >"$f" ;;
        unreadable) # root reads any file: then the command runs as nobody, from /tmp
            if [ "$(id -u)" = 0 ]; then
                d=$(mktemp -d /tmp/mulred-contract.XXXXXX) && chmod 755 "$d"
                cp "$MULRED" "$d/mulred"
                for x in S P B valid.setup; do cp "$T/$x" "$d/$x" && chmod 644 "$d/$x"; done
                runner=(setpriv --reuid=65534 --regid=65534 --clear-groups "$d/mulred")
                f=$d/input
            fi
            cp "$src" "$f" && chmod 000 "$f" ;;
        esac
        mapfile -t cmd < <(words_of "$command" "$f")
        if [ "$fault" = unreadable ] && [ "$(id -u)" = 0 ]; then
            cmd=("${cmd[@]//$T\//$d/}")
        fi
        run_cell "$what" "$want" "$f" "${runner[@]}" "${cmd[@]}"
        if [ "$want" = 0 ] && [ "$input" = "element list" ]; then
            expect_contains "$out" "muhash   $empty_digest" "$what: the MuHash of the empty set"
        elif [ "$want" = 0 ]; then
            expect_contains "$out" "| missing | $f |" "$what: a row saying the run is missing"
        fi
        case $fault in truncated | foreign)
            [ "$want" = 2 ] && case $err in *byte* | *line* | *pair* | *record* | *point* | *offset* | *:[0-9]*) pass ;;
                *) fail "$what: the message names no place: $err" ;; esac ;;
        esac
        [ "$fault" = unreadable ] && [ "$(id -u)" = 0 ] && rm -rf "$d" ;;
    writing)
        d=$T/w$cells && mkdir -p "$d"
        case $fault in
        "missing folder") f=$d/no-such-folder/out ;;
        directory) f=$d/out && mkdir "$f" ;;
        "full disk")
            [ -n "$full_fs" ] || continue
            f=$full_fs/out$cells ;;
        esac
        mapfile -t cmd < <(words_of "$command" "$f")
        run_cell "$what" "$want" "$f" "$MULRED" "${cmd[@]}"
        parent=$(dirname "$f")
        if [ -d "$parent" ]; then
            left=$(find "$parent" -maxdepth 1 -mindepth 1 ! -name filler ! -path "$f" | wc -l)
            expect_equal "$left" 0 "$what: nothing left beside the file"
        fi
        [ "$fault" = directory ] && expect_equal "$(find "$f" | wc -l)" 1 "$what: the directory untouched"
        [ "$fault" = "full disk" ] && expect_equal "$([ -e "$f" ] && echo there || echo absent)" absent \
            "$what: no partial file"
        rm -rf "$f" ;;
    number)
        f=$T/n$cells.job
        printf 'kind = msm\ncurve = bn254\nsynthetic = 1x\n' >"$f"
        mapfile -t cmd < <(words_of "$command" "$f")
        run_cell "$what" "$want" "" "$MULRED" "${cmd[@]}"
        expect_contains "$err" "$input" "$what: the message names $input" ;;
    esac
done < <(python3 "$MULRED_SOURCE_DIR/tests/tools/contract_table.py" "$MULRED_SOURCE_DIR/docs/cli.md")
echo "$cells cells of docs/cli.md's contract"
[ "$cells" -ge 90 ] || fail "only $cells cells read from docs/cli.md"
finish

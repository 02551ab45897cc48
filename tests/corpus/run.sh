# The bad-input corpus through the real command: every case of tests/corpus/*/MANIFEST (tiny
# checked-in files) and of the cases tests/corpus/make.py derives from the vectors into
# $TEST_TMP/generated. For each case: the exit status (never a signal, never the time bound:
# no crash, no hang), the message (a substring naming the file and the byte offset, line or
# record) on standard error and nothing on standard output when it fails, the expected result
# on standard output when it succeeds, and no file left behind (nothing *.tmp* beside the input;
# a failing run leaves the input's directory exactly as it found it: no index, no half-written
# anything; a runtime failure, exit 3, may have saved work). Prints the number of cases per
# reader. Format: tests/corpus/README.md.
#
# MULRED_CORPUS=full (scripts/sanitize.sh, under ASan + UBSan) runs every case; the default,
# quick (the README's test command), runs every checked-in case and every 4th derived input of
# each reader (the first, the fifth, …, with every case on that input: a case may check what
# the one before it left), so each structural family still meets the command.
. "$(dirname "$0")/../lib.sh"
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=$TEST_TMP/generated
BOUND=${CORPUS_TIMEOUT:-60} # seconds per case; a case that needs it has hung
case ${MULRED_CORPUS:-quick} in
full) EVERY=1 ;;
quick) EVERY=4 ;;
*) echo "MULRED_CORPUS: '$MULRED_CORPUS' is neither full nor quick" >&2; exit 2 ;;
esac
python3 "$HERE/make.py" "$MULRED_VECTORS" "$GEN"

declare -A cases failed_by
shopt -s nullglob dotglob
# listing DIR FILE: every name in DIR, and the size, mtime and type of FILE and of what is named
# after it (FILE.idx, FILE.idx.tmp.*). Globs, not ls: thousands of cases run it twice each.
listing() {
    local names=("$1"/*)
    printf '%s\n' "${names[@]}"
    local own=("$2"*)
    [ ${#own[@]} -eq 0 ] || stat -c '%n %s %y %F' "${own[@]}" 2>&1
}

# unreadable INPUT: a copy of INPUT that the command cannot read. Root reads any file, so as root
# the command runs as nobody (setpriv), from a directory under /tmp that nobody can enter, with
# its own copy of the binary (the build tree may sit where nobody cannot reach it).
unreadable() {
    local src=$1
    if [ "$(id -u)" = 0 ]; then
        NB=$(mktemp -d /tmp/mulred-corpus.XXXXXX)
        chmod 755 "$NB"
        cp "$MULRED" "$NB/mulred"
        cp "$src" "$NB/$(basename "$src")"
        chmod 000 "$NB/$(basename "$src")"
        runner=(setpriv --reuid=65534 --regid=65534 --clear-groups "$NB/mulred")
        f=$NB/$(basename "$src")
    else
        NB=$(mktemp -d "$TEST_TMP/unreadable.XXXXXX")
        cp "$src" "$NB/$(basename "$src")"
        chmod 000 "$NB/$(basename "$src")"
        runner=("$MULRED")
        f=$NB/$(basename "$src")
    fi
}

run_case() { # READER DIR NAME INPUT COMMAND STATUS EXPECT
    local reader=$1 dir=$2 name=$3 input=$4 command=$5 want=$6 expect=$7
    local f=$dir/$input runner=("$MULRED") launch=() stdin=/dev/null NB=""
    local words=($command) # commands are space-separated words; paths hold no spaces
    case ${words[0]} in
    mpi2) # as lib.sh's mpi, spelled out for timeout (which runs programs, not functions)
        words=("${words[@]:1}")
        launch=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
                "${MPIEXEC:-mpiexec}" "${MPIEXEC_NUMPROC_FLAG:--n}" 2 ${MPIEXEC_FLAGS:---oversubscribe})
        [ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root) ;;
    stdin) words=("${words[@]:1}"); stdin=$f ;;
    nobody) words=("${words[@]:1}"); unreadable "$f"
        # the other files the command names (a good setup beside a bad blob, say) must stay
        # readable to the user the command runs as: copies beside the input, mode 0644
        local i
        for i in "${!words[@]}"; do
            if [ "${words[$i]}" != "{f}" ] && [ -f "${words[$i]}" ] && [ -n "$NB" ] &&
               [ "$(id -u)" = 0 ]; then
                cp "${words[$i]}" "$NB/arg$i-$(basename "${words[$i]}")"
                chmod 644 "$NB/arg$i-$(basename "${words[$i]}")"
                words[$i]=$NB/arg$i-$(basename "${words[$i]}")
            fi
        done ;;
    esac
    words=("${words[@]//\{f\}/$f}")
    expect=${expect//\{f\}/$f}
    local parent before after got=0
    parent=$(dirname "$f")
    before=$(listing "$parent" "$f")
    timeout -k 5 "$BOUND" "${launch[@]}" "${runner[@]}" "${words[@]}" \
        <"$stdin" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr" || got=$?
    out=$(<"$TEST_TMP/stdout")
    err=$(<"$TEST_TMP/stderr")
    local what="$reader/$name: mulred ${words[*]}" ok=1
    cases[$reader]=$((${cases[$reader]:-0} + 1))
    if [ "$got" -eq 124 ] || [ "$got" -eq 137 ]; then
        fail "$what: no exit within $BOUND s (hang)"; ok=0
    elif [ "$got" -gt 128 ]; then
        fail "$what: killed by signal $((got - 128)) (crash)"; ok=0
    elif [ "$got" -ne "$want" ]; then
        fail "$what: exit $got, want $want"; ok=0
    elif [ "$want" -ne 0 ]; then
        case $err in *"$expect"*) pass ;; *) fail "$what: '$expect' not in stderr"; ok=0 ;; esac
        [ -z "$out" ] && pass || { fail "$what: printed on stdout"; ok=0; }
    else
        case $out in *"$expect"*) pass ;; *) fail "$what: '$expect' not in stdout"; ok=0 ;; esac
    fi
    local tmps=("$parent"/*.tmp*)
    if [ ${#tmps[@]} -gt 0 ]; then
        fail "$what: left a temporary file: ${tmps[*]}"; ok=0
        rm -f "${tmps[@]}"
    fi
    if [ "$want" -eq 2 ]; then # bad input; a runtime failure (3) may have saved work
        after=$(listing "$parent" "$f")
        [ "$before" = "$after" ] || { fail "$what: changed the directory"; ok=0
            diff <(echo "$before") <(echo "$after") >&2 || true; }
    fi
    if [ $ok = 0 ]; then
        failed_by[$reader]=$((${failed_by[$reader]:-0} + 1))
        echo "  stdout: $(head -c 300 <<<"$out")" >&2
        echo "  stderr: $(head -c 600 <<<"$err")" >&2
    fi
    if [ -n "$NB" ]; then rm -rf "$NB"; fi
}

for manifest in "$HERE"/*/MANIFEST "$GEN"/*/MANIFEST; do
    [ -f "$manifest" ] || continue
    dir=$(dirname "$manifest")
    reader=$(basename "$dir")
    # CORPUS_READERS="pairs kzg": only those readers (while working on one)
    case " ${CORPUS_READERS:-$reader} " in *" $reader "*) ;; *) continue ;; esac
    step=1
    case $manifest in "$GEN"/*) step=$EVERY ;; esac
    declare -A nth=() # each input's place among the manifest's inputs, by first appearance
    while IFS=$'\t' read -r name input command status expect; do
        case $name in '' | '#'*) continue ;; esac
        [ -n "${nth[$input]:-}" ] || nth[$input]=${#nth[@]}
        [ $((nth[$input] % step)) -eq 0 ] || continue
        run_case "$reader" "$dir" "$name" "$input" "$command" "$status" "$expect"
    done <"$manifest"
done

echo "cases per reader (MULRED_CORPUS=${MULRED_CORPUS:-quick}):"
for reader in $(printf '%s\n' "${!cases[@]}" | sort); do
    echo "  $reader: ${cases[$reader]} (${failed_by[$reader]:-0} failed)"
done
finish

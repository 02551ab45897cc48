# `mulred run --help` lists the keys of each job kind, and the list is whole and true. Checked by
# routes other than the help's own: every key it lists for a kind is accepted as a key by a job
# file of that kind (not refused as an unknown key); every --option of `mulred KIND --help` that
# a job file accepts as a key is listed; a key marked * (a list) takes a list in a job file and a
# key not marked * with a number for value does not.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMP
cd "$T"

expect_status 0 "$MULRED" run --help
help=$out
# listed KIND: the keys the help lists for KIND ("all" included), one a line, marks kept.
listed() {
    printf '%s\n' "$help" | awk -v kind="$1" '
        function emit() { gsub(/,/, " "); for (i = 1; i <= NF; i++) print $i }
        /^  [a-z0-9-]+: / { k = $1; sub(/:$/, "", k); on = (k == kind || k == "all")
                            $1 = ""; if (on) emit(); next }
        /^          [a-z]/ { if (on) emit(); next }
        { on = 0 }'
}
# refused_as_unknown KIND KEY VALUE: whether a job file of KIND setting KEY is refused as an
# unknown key.
refused_as_unknown() {
    printf 'kind = %s\n%s = %s\n' "$1" "$2" "$3" >k.job
    "$MULRED" run k.job >k.out 2>k.err && return 1
    grep -q "unknown key '$2'" k.err
}

for kind in muhash msm; do
    keys=$(listed "$kind" | tr -d '*+')
    [ -n "$keys" ] && pass || fail "run --help lists no key for $kind"
    for key in $keys; do
        [ "$key" = kind ] && continue
        if refused_as_unknown "$kind" "$key" x; then
            fail "run --help lists '$key' for $kind, which a job file refuses: $(cat k.err)"
        else pass; fi
    done
    expect_status 0 "$MULRED" "$kind" --help
    opts=$(printf '%s\n' "$out" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
    n=0
    for opt in $opts; do
        key=${opt#--}
        [ "$key" = help ] && continue
        refused_as_unknown "$kind" "$key" x && continue
        n=$((n + 1))
        if grep -qx -- "$key" <<<"$keys"; then pass
        else fail "$kind accepts the job key '$key' ($opt), which run --help does not list"; fi
    done
    [ "$n" -ge 10 ] && pass || fail "only $n options of $kind --help are job keys"
    # the * marks: a marked key takes a list (its items are checked one by one); an unmarked
    # key that takes a number is refused with a note naming the keys that do
    for key in $(listed "$kind" | grep '\*$' | tr -d '*'); do
        printf 'kind = %s\n%s = nosuch1, nosuch2\n' "$kind" "$key" >l.job
        st=0; "$MULRED" run l.job >l.out 2>l.err || st=$?
        expect_equal "$st" 2 "$kind: $key = a list of bad values exits 2"
        expect_contains "$(cat l.err)" "l.job:2: bad " "$kind: $key = a list: a bad value"
        expect_contains "$(cat l.err)" "'nosuch1'" "$kind: $key takes a list (its first item alone)"
    done
    printf 'kind = %s\nseed = 1, 2\n' "$kind" >s.job
    expect_status 2 "$MULRED" run s.job
    expect_contains "$err" "a list of values is for $(listed "$kind" | grep '\*$' | tr -d '*' |
        paste -sd , - | sed 's/,/, /g') only" "$kind: the keys marked * are the ones taking lists"
done
# a repeatable key is marked +
expect_equal "$(listed muhash | grep '+$' | paste -sd ' ' -)" "insert+ remove+ snapshot+" \
    "muhash: the repeatable keys"
finish

# MuHash under 1-4 ranks x 1-3 threads. Element files (a shard boundary inside a line, no
# trailing newline, a removal file only one rank reads), in both flavors, must give the digest of
# an independent reference (tests/tools/muhash_ref.py: Python integers, hashlib and a written-out
# ChaCha20, itself checked against the published Bitcoin Core and Kaspa vectors first).
# Synthetic sets have no reference outside mulred (their elements come from mulred's stream
# generator): there the check is only that every rank and thread count, on the fastest kernel,
# gives the digest of one thread on the portable GMP path. A bad line found by any rank ends
# every rank with exit 2.
. "$(dirname "$0")/../lib.sh"

# 6000 random elements of 1..120 bytes, one per line, no trailing newline (~0.7 MB: several
# 256 KiB shards, so boundaries fall inside lines).
head -c 400000 /dev/urandom | od -An -v -tx1 | tr -d ' \n' |
    awk 'BEGIN { srand(7) } { s = $0; p = 1; n = 0
         while (p < length(s) - 240 && n < 6000) { l = 2 * (1 + int(rand() * 120))
             printf "%s%s", (n ? "\n" : ""), substr(s, p, l); p += l; n++ } }' > "$TEST_TMP/ins"
head -n 3 "$TEST_TMP/ins" > "$TEST_TMP/rem"
[ "$(wc -l < "$TEST_TMP/ins")" -eq 5999 ] || fail "test input has $(wc -l < "$TEST_TMP/ins") newlines"

digest() { awk -F'"' '{ for (i = 1; i < NF; i++) if ($i == "result") print $(i + 2) }'; }

refpy="$(dirname "$0")/../tools/muhash_ref.py"
for input in files-bitcoin files-kaspa synthetic-bitcoin synthetic-kaspa; do
    case $input in
        files-*) args=(--insert "$TEST_TMP/ins" --remove "$TEST_TMP/rem" --flavor "${input#files-}")
                 ref=$(python3 "$refpy" --flavor "${input#files-}" --insert "$TEST_TMP/ins" \
                     --remove "$TEST_TMP/rem") || fail "$input: muhash_ref.py failed" ;;
        synthetic-*) args=(--synthetic 30000 --seed 5 --flavor "${input#synthetic-}")
                     ref=$(MULRED_KERNEL=gmp OMP_NUM_THREADS=1 "$MULRED" muhash "${args[@]}" \
                         --threads 1 --json | digest) ;;
    esac
    [ ${#ref} -eq 64 ] || fail "$input: no reference digest"
    for ranks in 1 2 3 4; do
        for threads in 1 2 3; do
            [ "$ranks" -ge 3 ] && [ "$threads" = 2 ] && continue # 3-4 ranks: 1 and 3 threads
            # files and synthetic sets each take half of these layouts (by the flavor), together
            # all of them (the option matrix, tests/matrix, combines them with everything else)
            case $input in *-bitcoin) [ $(( (ranks + threads) % 2 )) = 0 ] || continue ;;
                           *) [ $(( (ranks + threads) % 2 )) = 1 ] || continue ;; esac
            expect_status 0 mpi "$ranks" "$MULRED" muhash "${args[@]}" --threads "$threads" --json
            expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "$input, $ranks ranks x $threads threads"
            expect_equal "$(printf '%s\n' "$out" | grep -c '"result"')" 1 "$input: only rank 0 prints"
            expect_contains "$out" "\"ranks\":$ranks," "$input: ranks reported"
        done
    done
    # the dynamic schedule: the same digest; every unit drawn once (units_per_rank sums to units)
    case $input in files-bitcoin | synthetic-kaspa) ;; *) continue ;; esac
    for layout in 1x2 2x1 3x2; do
        ranks=${layout%x*} threads=${layout#*x}
        expect_status 0 mpi "$ranks" "$MULRED" muhash "${args[@]}" --threads "$threads" --json \
            --schedule dynamic
        expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "$input dynamic, $ranks ranks x $threads threads"
        read -r -a nums <<< "$(printf '%s\n' "$out" | tr ',' ' ' |
            sed -n 's/.*"units":\([0-9]*\) "units_per_rank":\[\([0-9 ]*\)\].*/\1 \2/p')"
        drawn=0
        for u in "${nums[@]:1}"; do drawn=$((drawn + u)); done
        expect_equal "$((${#nums[@]} - 1)) $drawn" "$ranks ${nums[0]:-none}" \
            "$input dynamic: units per rank ($ranks x $threads)"
        expect_contains "$out" '"schedule":"dynamic"' "$input: schedule reported"
    done
done
# the hand-out by messages (MULRED_HANDOUT=coordinator, kept to measure against the counter)
ref=$(python3 "$refpy" --flavor bitcoin --insert "$TEST_TMP/ins" --remove "$TEST_TMP/rem")
MULRED_HANDOUT=coordinator expect_status 0 mpi 3 "$MULRED" muhash --insert "$TEST_TMP/ins" \
    --remove "$TEST_TMP/rem" --threads 2 --json --schedule dynamic
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "dynamic through the coordinator, 3 ranks x 2 threads"
# a stream under the dynamic schedule: rank 0 reads and reduces it, the file's units are drawn
expect_status 0 mpi 3 "$MULRED" muhash --insert "$TEST_TMP/ins" --remove - --schedule dynamic \
    --json < "$TEST_TMP/rem"
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "a stream under the dynamic schedule"
# Standard input under several ranks: rank 0 hands it out in blocks of whole lines (1 MiB) to
# every rank (src/mpi/mpi_stream.c). 2.6 MB of 250-byte elements (three blocks) give the
# reference digest at 2-3 ranks x 1-2 threads (2 x 1: the 60 MB pipe below), under both
# schedules.
head -c 1300000 /dev/urandom | od -An -v -tx1 -w250 | tr -d ' ' > "$TEST_TMP/long"
ref_long=$(python3 "$refpy" --flavor bitcoin --insert "$TEST_TMP/long")
for layout in 3x2 2x2d; do
    ranks=${layout%x*} threads=${layout#*x} sched=()
    [ "$threads" = 2d ] && threads=2 sched=(--schedule dynamic)
    expect_status 0 mpi "$ranks" "$MULRED" muhash --insert - --threads "$threads" --json \
        "${sched[@]}" < "$TEST_TMP/long"
    expect_equal "$(printf '%s\n' "$out" | digest)" "$ref_long" "standard input, $layout"
done
# two streams, one after the other (standard input inserted, a FIFO removed)
head -n 3 "$TEST_TMP/long" > "$TEST_TMP/long3" && mkfifo "$TEST_TMP/fifo"
timeout 60 cat "$TEST_TMP/long3" > "$TEST_TMP/fifo" &
expect_status 0 mpi 3 "$MULRED" muhash --insert - --remove "$TEST_TMP/fifo" --threads 1 --json \
    < "$TEST_TMP/long"
wait
expect_equal "$(printf '%s\n' "$out" | digest)" \
    "$(python3 "$refpy" --flavor bitcoin --insert "$TEST_TMP/long" --remove "$TEST_TMP/long3")" \
    "standard input and a FIFO, 3 ranks"
# a bad line in the third block: named as with one rank (under both schedules), exit 2 on every
# rank, nothing printed
{ head -n 4500 "$TEST_TMP/long"; echo "zz"; tail -n +4501 "$TEST_TMP/long"; } > "$TEST_TMP/long_bad"
for ranks in 1 2 3d; do
    sched=(); [ "$ranks" = 3d ] && ranks=3 sched=(--schedule dynamic)
    run=(mpi "$ranks"); [ "$ranks" = 1 ] && run=()
    expect_status 2 "${run[@]}" "$MULRED" muhash --insert - --threads 2 "${sched[@]}" \
        < "$TEST_TMP/long_bad"
    expect_contains "$err" "mulred: -:4501: column 1: 'z' is not a hex digit" "bad line in a stream ($ranks ranks)"
    expect_equal "$out" "" "no digest on a bad stream ($ranks ranks)"
done
# 60 MB through a pipe to 2 ranks: both hash blocks, and each keeps its resident set far below the
# input (each rank run under a wrapper that reports its peak RSS; not in sanitizer builds)
for _ in $(seq 23); do cat "$TEST_TMP/long"; done > "$TEST_TMP/long23"
ref23=$("$MULRED" muhash --insert "$TEST_TMP/long23" --threads 2 --json | digest)
rss_py='import resource, subprocess, sys
r = subprocess.run(sys.argv[1:]).returncode
print("rss_kib", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(r)'
expect_status 0 mpi 2 python3 -c "$rss_py" "$MULRED" muhash --insert - --threads 1 --json \
    < <(cat "$TEST_TMP/long23")
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref23" "60 MB pipe, 2 ranks"
per_rank=$(printf '%s\n' "$out" | sed -n 's/.*"units_per_rank":\[\([0-9]*\),\([0-9]*\)\].*/\1 \2/p')
read -r b0 b1 <<< "$per_rank"
[ "${b0:-0}" -gt 0 ] && [ "${b1:-0}" -gt 0 ] && pass || fail "60 MB pipe: blocks per rank '$per_rank'"
if ldd "$MULRED" 2>/dev/null | grep -q libasan; then
    echo "skip: peak RSS bound (sanitizer build)"
else
    for kib in $(printf '%s\n' "$err" | awk '/^rss_kib/ {print $2}'); do
        [ "$kib" -lt 32768 ] && pass || fail "60 MB pipe: a rank's peak RSS is $kib KiB (want < 32 MiB)"
        echo "60 MB pipe: a rank's peak RSS: $kib KiB"
    done
    expect_equal "$(printf '%s\n' "$err" | grep -c '^rss_kib')" 2 "60 MB pipe: RSS of both ranks"
fi
# schedule = dynamic in a job file
printf 'kind = muhash\ninsert = %s\nremove = %s\nschedule = dynamic\n' "$TEST_TMP/ins" \
    "$TEST_TMP/rem" > "$TEST_TMP/dynamic.job"
expect_status 0 mpi 2 "$MULRED" run "$TEST_TMP/dynamic.job" --json
expect_equal "$(printf '%s\n' "$out" | digest)" "$ref" "schedule = dynamic in a job file"
expect_contains "$out" '"schedule":"dynamic"' "job file: schedule reported"
expect_status 1 "$MULRED" muhash --synthetic 10 --schedule guided
expect_contains "$err" "bad value 'guided' for '--schedule' (static or dynamic)" "an unknown schedule"
expect_contains "$(mpi 2 "$MULRED" muhash --insert "$TEST_TMP/ins" --remove "$TEST_TMP/rem" --json)" \
    '"inserted":6000,"removed":3' "element counts summed over ranks"

# A bad line near the end: only the last rank reads it; every rank exits 2, rank 0 reports it.
cp "$TEST_TMP/ins" "$TEST_TMP/bad" && printf '\nzz00\n' >> "$TEST_TMP/bad"
for ranks in 1 3 4 3d; do
    sched=(); [ "$ranks" = 3d ] && ranks=3 sched=(--schedule dynamic)
    expect_status 2 mpi "$ranks" "$MULRED" muhash --insert "$TEST_TMP/bad" --threads 2 "${sched[@]}"
    expect_contains "$err" "$TEST_TMP/bad:6001: column 1: 'z' is not a hex digit" "error from the last rank ($ranks ranks)"
    expect_equal "$out" "" "no digest on bad input ($ranks ranks)"
done
finish

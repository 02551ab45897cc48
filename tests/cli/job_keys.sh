# One parser per key: every key of a job file and its command-line option give the same verdict
# for the same value, for the keys of both kinds (muhash, msm). Either both accept it and compute the same thing (same digest and counts),
# or both refuse it: the job with "FILE:LINE: …" and exit 2, the command line with a usage
# error and exit 1. A value that parses but names a missing input fails the same way in both.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMP
cd "$T"
printf '00\n0102\n' >elems.txt # the base input of every run (also a file named by a value below)
printf '0a\n' >16                # so that "16" is an existing input file too

# verdict_cmd ARGS... / verdict_job FILE: prints "refused", "ok <digest> <counts>" or
# "failed <status>".
verdict_cmd() {
    local st=0
    "$MULRED" "$@" >cmd.out 2>cmd.err || st=$?
    if [ "$st" -eq 1 ]; then echo refused
    elif [ "$st" -eq 0 ]; then echo "ok $(grep -E '^(muhash|elements|msm|input) ' cmd.out | tr -s ' ' | paste -sd ' ' -)"
    else echo "failed $st"; fi
}
verdict_job() {
    local st=0
    "$MULRED" run "$1" >job.out 2>job.err || st=$?
    if [ "$st" -eq 2 ] && grep -q "^mulred: $1:[0-9]*: " job.err; then echo refused
    elif [ "$st" -eq 0 ]; then echo "ok $(grep -E '^(muhash|elements|msm|input) ' job.out | tr -s ' ' | paste -sd ' ' -)"
    else echo "failed $st"; fi
}

values=(0x10 010 16 0 1e1 1e6 1. 1.5 -1 1k 18446744073709551615 18446744073709551616 ''
        true maybe kaspa elements.txt)

# Keys of kind muhash that take a value, and flags (--KEY=VALUE on the command line).
for key in seed synthetic threads flavor insert remove snapshot txoutset-hash progress; do
    for v in "${values[@]}"; do
        case $key in
        txoutset-hash | progress) opt=("--$key=$v") ;;
        *) opt=("--$key" "$v") ;;
        esac
        # Values both forms accept but that would run for long are left to the unit test of
        # the grammar (tests/test_cli.c): 10^6 and more synthetic elements, 1000 threads.
        case "$key=$v" in synthetic=1e6 | synthetic=1844* | threads=1k) continue ;; esac
        extra=(--threads 1)
        printf 'kind = muhash\ninsert = elems.txt\n%s = %s\n' "$key" "$v" >k.job
        if [ "$key" = threads ]; then extra=(); else printf 'threads = 1\n' >>k.job; fi
        a=$(verdict_cmd muhash --insert elems.txt "${opt[@]}" "${extra[@]}")
        b=$(verdict_job k.job)
        if [ "$a" = "$b" ]; then pass; else
            fail "$key = '$v': command line '$a', job file '$b'"
            sed 's/^/  cmd: /' cmd.err >&2; sed 's/^/  job: /' job.err >&2
        fi
    done
done

# Keys of kind msm, on a BN254 pair file (one pair, go-ethereum's ecMul case cdetrio5) or a small
# synthetic set. Values both forms accept but that would run long (10^6 and more points, 1000
# threads, a memory limit of 1 byte that no grid fits is quick) are left out as above.
printf '1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe31a2f3c951f6dadcc7ee9007dff81504b0fcd6d7cf59996efdc33d92bf7f9f8f60000000000000000000000000000000000000000000000000000000000000001\n' >pair.hex
msm_values=("${values[@]}" bn254 bls12-381 pair.hex 1x1 2x1 1y1 4G 1M)
for key in curve input binary synthetic seed threads grid memory-per-rank; do
    for v in "${msm_values[@]}"; do
        case $key in
        binary) opt=("--$key=$v") ;;
        *) opt=("--$key" "$v") ;;
        esac
        case "$key=$v" in synthetic=1e6 | synthetic=1844* | synthetic=4G | synthetic=1M | threads=1k) continue ;; esac
        case $key in
        curve) base=(--synthetic 40) ;;
        input | synthetic) base=(--curve bn254) ;;
        binary) base=(--curve bn254 --input pair.hex) ;;
        *) base=(--curve bn254 --synthetic 40) ;;
        esac
        extra=(--threads 1)
        { echo 'kind = msm'; for ((i = 0; i < ${#base[@]}; i += 2)); do
              printf '%s = %s\n' "${base[i]#--}" "${base[i + 1]}"; done
          printf '%s = %s\n' "$key" "$v"; } >k.job
        if [ "$key" = threads ]; then extra=(); else printf 'threads = 1\n' >>k.job; fi
        a=$(verdict_cmd msm "${base[@]}" "${opt[@]}" "${extra[@]}")
        b=$(verdict_job k.job)
        if [ "$a" = "$b" ]; then pass; else
            fail "msm $key = '$v': command line '$a', job file '$b'"
            sed 's/^/  cmd: /' cmd.err >&2; sed 's/^/  job: /' job.err >&2
        fi
    done
done

# schedule, both kinds: the two names, and what is not one of them.
for v in static dynamic Dynamic guided ''; do
    printf 'kind = muhash\ninsert = elems.txt\nthreads = 1\nschedule = %s\n' "$v" >k.job
    a=$(verdict_cmd muhash --insert elems.txt --threads 1 --schedule "$v")
    b=$(verdict_job k.job)
    expect_equal "$a" "$b" "schedule = '$v' (muhash)"
    printf 'kind = msm\ncurve = bn254\nsynthetic = 40\nthreads = 1\nschedule = %s\n' "$v" >k.job
    a=$(verdict_cmd msm --curve bn254 --synthetic 40 --threads 1 --schedule "$v")
    b=$(verdict_job k.job)
    expect_equal "$a" "$b" "schedule = '$v' (msm)"
    case $v in static | dynamic) expect_contains "$a" "ok " "schedule = $v accepted" ;; esac
done

# The run command's own keys: --json[=BOOL] and --output FILE against json = / output =.
printf 'kind = muhash\ninsert = elems.txt\n' >base.job
for v in "${values[@]}"; do
    for key in json output; do
        rm -f 0x10 0X10 010 out.a out.b
        if [ $key = json ]; then opt=("--json=$v"); else opt=(--output "$v"); fi
        st_a=0
        "$MULRED" run base.job "${opt[@]}" >a.out 2>a.err || st_a=$?
        { cat base.job; printf '%s = %s\n' "$key" "$v"; } >o.job
        st_b=0
        "$MULRED" run o.job >b.out 2>b.err || st_b=$?
        if [ "$st_a" -eq 1 ] && [ "$st_b" -eq 2 ] && grep -q '^mulred: o.job:3: ' b.err; then pass
        elif [ "$st_a" -eq "$st_b" ] && [ "$st_a" -ne 1 ]; then pass
        else fail "$key = '$v': command line exit $st_a, job file exit $st_b ($(cat a.err b.err))"; fi
    done
done

# The seed rule of the issue, spelled out: 0x10 is 16 both ways, 010 is refused both ways.
a=$(verdict_cmd muhash --synthetic 300 --seed 0x10 --threads 1)
b=$(verdict_cmd muhash --synthetic 300 --seed 16 --threads 1)
printf 'kind = muhash\nsynthetic = 300\nseed = 0x10\nthreads = 1\n' >s.job
c=$(verdict_job s.job)
expect_equal "$a" "$b" "--seed 0x10 = --seed 16"
expect_equal "$c" "$b" "seed = 0x10 in a job = --seed 16"
printf 'kind = muhash\nsynthetic = 300\nseed = 010\n' >s8.job
expect_status 2 "$MULRED" run s8.job
expect_contains "$err" "s8.job:3: bad value '010' for 'seed'" "seed = 010 refused, line named"
expect_status 1 "$MULRED" muhash --synthetic 300 --seed 010
expect_contains "$err" "bad value '010' for '--seed'" "--seed 010 refused"

# Cross-key checks name the line of the key at fault.
printf 'kind = muhash\nsnapshot = x.dat\n\nflavor = bitcoin, kaspa\n' >x.job
expect_status 2 "$MULRED" run x.job
expect_contains "$err" "x.job:4: snapshot needs flavor bitcoin" "check names the flavor line"
printf 'kind = muhash\nsynthetic = 5\ntxoutset-hash = yes\n' >y.job
expect_status 2 "$MULRED" run y.job
expect_contains "$err" "y.job:3: txoutset-hash needs exactly one snapshot" "check names its key"
printf '# nothing to do\nkind = muhash\nthreads = 2\n' >z.job
expect_status 2 "$MULRED" run z.job
expect_contains "$err" "z.job:2: no input: give insert, remove, synthetic or snapshot" "no input"
finish

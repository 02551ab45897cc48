# mulred run (job files) and mulred report (tables, CSV, PNG, projection), without Slurm.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMP

# jfield FILE KEY : the values of KEY in mulred's one-line JSON, space-separated, in order
# (grep, not a JSON library: CI machines need not have python or jq).
jfield() { grep -o "\"$2\":\(\"[^\"]*\"\|[^,}]*\)" "$1" | sed 's/^[^:]*://; s/"//g' | paste -sd ' ' -; }

# ---- job file errors: exit 2, FILE:LINE: reason, nothing on stdout ----
bad_job() { # NAME LINE REASON CONTENT
    printf '%b' "$4" >"$T/$1.job"
    expect_status 2 "$MULRED" run "$T/$1.job"
    expect_contains "$err" "$T/$1.job:$2: $3" "job error $1"
    expect_equal "$out" "" "no result printed for $1"
}
bad_job unknown_key 3 "unknown key 'flavour'" "kind = muhash\n# comment\nflavour = bitcoin\n"
bad_job bad_synthetic 2 "bad value 'lots' for 'synthetic'" "kind = muhash\nsynthetic = lots\n"
bad_job zero_synthetic 2 "bad value '0' for 'synthetic'" "kind = muhash\nsynthetic = 0\n"
bad_job missing_value 2 "missing value for 'seed'" "kind = muhash\nseed =\nsynthetic = 10\n"
bad_job no_equals 2 "expected 'key = value'" "kind = muhash\nsynthetic 10\n"
bad_job bad_flavor 1 "bad value 'litecoin' for 'flavor'" "flavor = bitcoin, litecoin\nkind = muhash\n"
bad_job twice_flavor 1 "flavor 'kaspa' listed twice" "flavor = kaspa, kaspa\n"
bad_job duplicate 3 "'synthetic' already set on line 2" "kind = muhash\nsynthetic = 10\nsynthetic = 20\n"
bad_job bad_threads 2 "bad value '0' for 'threads'" "kind = muhash\nthreads = 0\n"
bad_job bad_bool 2 "bad value 'maybe' for 'json'" "kind = muhash\njson = maybe\n"
bad_job bad_kind 1 "unsupported kind 'kzg-commit' (supported: muhash, msm)" "kind = kzg-commit\n"
bad_job no_kind 2 "missing 'kind'" "synthetic = 10\nseed = 3\n"
expect_status 2 "$MULRED" run "$T/does-not-exist.job"
expect_contains "$err" "does-not-exist.job" "unreadable job file named"
expect_status 1 "$MULRED" run
expect_status 1 "$MULRED" run "$T/a.job" "$T/b.job"
expect_status 0 "$MULRED" run --help
expect_contains "$out" "flavor = bitcoin, kaspa" "run --help documents multi-flavor jobs"

# ---- a good job: both flavors, same MuHash as the direct command, JSON envelope ----
cat >"$T/small.job" <<'JOB'
# two runs: one per flavor
kind = muhash
flavor = bitcoin, kaspa   # trailing comment
synthetic = 3k
seed = 5
threads = 2
JOB
expect_status 0 "$MULRED" run "$T/small.job" --json --output "$T/small.json"
expect_equal "$out" "" "--output leaves stdout empty"
expect_equal "$(jfield "$T/small.json" status) $(jfield "$T/small.json" exit_status)" "ok 0" "envelope"
expect_contains "$(cat "$T/small.json")" '"load_average":{"start":' "host load recorded"
expect_equal "$(jfield "$T/small.json" flavor)" "bitcoin kaspa" "one run per flavor, in order"
read -r -a hashes <<<"$(jfield "$T/small.json" muhash)"
i=0
for flavor in bitcoin kaspa; do
    "$MULRED" muhash --flavor "$flavor" --synthetic 3000 --seed 5 --threads 1 --json >"$T/direct.json"
    expect_equal "${hashes[i]:-}" "$(jfield "$T/direct.json" muhash)" "run = muhash ($flavor)"
    i=$((i + 1))
done
expect_status 0 "$MULRED" run "$T/small.job"
expect_contains "$out" "run 2/2: kind muhash, flavor kaspa" "human output names each run"
expect_equal "$(printf '%s\n' "$out" | grep -c '^muhash ')" 2 "two human results"

# Relative inputs are relative to the job file's directory; the job may set json and output.
mkdir -p "$T/jobdir"
printf '00\n0102\n' >"$T/jobdir/elems.txt"
printf 'kind = muhash\ninsert = elems.txt\njson = true\noutput = %s\n' "$T/rel.json" >"$T/jobdir/rel.job"
(cd / && "$MULRED" run "$T/jobdir/rel.job") >"$T/rel.out" 2>&1 && pass || fail "relative insert: $(cat "$T/rel.out")"
expect_equal "$(jfield "$T/rel.json" inserted)" 2 "relative insert path"

# A snapshot job (the shape of jobs/utxo-snapshot.job) gives the same MuHash as the command.
"$MULRED" utxo synth 2000 "$T/jobdir/snap.dat" --seed 3 >/dev/null 2>&1 || fail "utxo synth"
printf 'kind = muhash\nflavor = bitcoin\nsnapshot = snap.dat\ntxoutset-hash = true\n' >"$T/jobdir/snap.job"
expect_status 0 "$MULRED" run "$T/jobdir/snap.job" --json --output "$T/snap.json"
"$MULRED" muhash --snapshot "$T/jobdir/snap.dat" --txoutset-hash --json >"$T/snap-direct.json"
expect_equal "$(jfield "$T/snap.json" muhash)" "$(jfield "$T/snap-direct.json" muhash)" "snapshot job = muhash --snapshot"
expect_contains "$(cat "$T/snap.json")" '"txoutset_hash"' "txoutset-hash passed on"

# A failing run (bad input file) keeps its exit status and reports status failed.
printf 'kind = muhash\ninsert = /nonexistent/elements.txt\n' >"$T/fail.job"
expect_status 2 "$MULRED" run "$T/fail.job" --json --output "$T/fail.json"
expect_equal "$(jfield "$T/fail.json" status) $(jfield "$T/fail.json" exit_status)" "failed 2" "failed envelope"
expect_contains "$(cat "$T/fail.json")" '"runs":[]' "no runs in a failed envelope"

# Two ranks give the same MuHash and say so.
expect_status 0 mpi 2 "$MULRED" run "$T/small.job" --json --output "$T/small2.json"
expect_equal "$(jfield "$T/small2.json" ranks)" "2 2" "2 ranks recorded"
expect_equal "$(jfield "$T/small2.json" result)" "$(jfield "$T/small.json" result)" "same MuHash on 2 ranks"

# ---- report from hand-written results: speedup, efficiency, Karp-Flatt, holes ----
R=$T/results
mkdir -p "$R"
run_obj() { # RANKS THREADS SECONDS HASH (under the key $KEY: muhash, as mulred 0.2 wrote it)
    printf '{"%s":"%s","flavor":"bitcoin","inserted":1000000,"removed":0,"elements":1000000,"ranks":%s,"threads":%s,"nodes":1,"seconds":%s,"elements_per_second":1,"phases":{"hash":{"min":1,"avg":1,"max":%s},"mpi_reduce":{"min":1e-05,"avg":1e-05,"max":1e-05},"finalize":{"min":5e-05,"avg":5e-05,"max":5e-05}},"version":"0.1.0","git_revision":"x"}' "${KEY:-muhash}" "$4" "$1" "$2" "$3" "$3"
}
envelope() { # STATUS EXIT RUNS NTASKS
    printf '{"job":"jobs/x.job","status":"%s","exit_status":%s,"environment":{"SLURM_JOB_NUM_NODES":"1","SLURM_NTASKS":"%s","SLURM_CPUS_PER_TASK":"1"},"load_average":{"start":0.5,"end":1.25},"runs":[%s]}\n' "$1" "$2" "$4" "$3"
}
envelope ok 0 "$(run_obj 1 1 10.0 abcdef0123456789abcd)" 1 >"$R/101.json"
envelope ok 0 "$(run_obj 2 1 5.5 abcdef0123456789abcd)" 2 >"$R/102.json"
KEY=result run_obj 4 1 3.0 abcdef0123456789abcd >"$R/104.json" # a bare muhash --json object
envelope failed 3 "" 8 >"$R/108.json"
envelope submitted null "" 16 >"$R/116.json"
envelope ok 0 "$(run_obj 2 2 2.0 ffffffffffffffffffff)" 2 >"$R/105.json"
printf '[1, {"job": "x.job"}]' >"$R/107.json"                 # JSON, but not results
expect_status 0 "$MULRED" report "$R/101.json" "$R/102.json" "$R/104.json" "$R/108.json" \
    "$R/116.json" "$R/105.json" "$R/107.json" "$R/999.json" --csv "$T/report.csv" \
    --png "$T/report.png" --output "$T/report.md"
md=$(cat "$T/report.md")
expect_contains "$md" "| 1 | 1 | 1 | 1 | 10.000 | 10.000 | 100.00 k elements/s | 1.00 | 100 % | — |" "baseline row"
expect_contains "$md" "| 1 | 2 | 1 | 2 | 5.500 | 5.500 | 181.82 k elements/s | 1.82 | 91 % | 0.100 |" "2-rank row: S, E, Karp-Flatt"
expect_contains "$md" "| 1 | 4 | 1 | 4 | 3.000 | 3.000 | 333.33 k elements/s | 3.33 | 83 % | 0.067 | \`abcdef012345…\` | — | ok |" "4-rank row (no load)"
expect_contains "$md" "| 0.5 → 1.2 | ok | $R/102.json |" "host load shown"
expect_contains "$md" "| 1 | 8 | 1 | 8 | — | — | — | — | — | — | — | — | failed (exit 3) |" "failed run shown"
expect_contains "$md" "| 1 | 16 | 1 | 16 | — | — | — | — | — | — | — | — | no result (submitted, never finished) |" "pending run shown"
expect_contains "$md" "**MISMATCH**" "a different MuHash is flagged"
expect_contains "$md" "missing | $R/999.json" "missing file shown"
expect_contains "$md" "invalid: " "unparsable file shown"
expect_equal "$(grep -c ',"ok",' "$T/report.csv")" 3 "CSV ok rows"
expect_equal "$(grep -c '"failed (exit 3)"' "$T/report.csv")" 1 "CSV failed row"
expect_contains "$(head -n 1 "$T/report.csv")" "karp_flatt" "CSV header"
expect_equal "$(head -c 4 "$T/report.png" | od -An -c | tr -d ' ')" '211PNG' "PNG written"
expect_contains "$err" "runs failed, missing or pending" "holes summarized on stderr"

# A file that is not JSON (RFC 8259, as jansson reads it) is bad input: exit 2, the file, line
# and column named, nothing printed or written.
bad_json() { # NAME TEXT
    printf '%b' "$2" >"$R/$1.json"
    rm -f "$T/bad.md"
    expect_status 2 "$MULRED" report "$R/101.json" "$R/$1.json" --output "$T/bad.md"
    expect_contains "$err" "$R/$1.json: line 1, column " "malformed JSON named ($1)"
    expect_equal "$out" "" "nothing printed for malformed JSON ($1)"
    [ ! -e "$T/bad.md" ] && pass || fail "report written despite malformed JSON ($1)"
}
bad_json truncated '{"job": "truncated'
bad_json leading_zero '{"muhash":"ab","ranks":01}'
bad_json bare_point '{"muhash":"ab","seconds":1.}'
bad_json lone_surrogate '{"muhash":"\\ud800"}'
bad_json unpaired_surrogate '{"muhash":"\\ud800\\u0041"}'
bad_json low_surrogate '{"muhash":"\\udc00"}'
bad_json control_char '{"muhash":"a\x01b"}'
bad_json raw_newline '{"muhash":"a\nb"}'
bad_json not_utf8 '{"muhash":"\xff"}'
bad_json duplicate_key '{"muhash":"ab","muhash":"cd"}'
expect_contains "$(cat "$R/lone_surrogate.json")" '\ud800' "the test file holds the escape itself"

# Without gnuplot the PNG is an error, not a silent skip.
expect_status 3 env PATH=/nonexistent "$MULRED" report "$R/101.json" --png "$T/nogp.png"
expect_contains "$err" "gnuplot not found" "gnuplot missing message"
expect_status 1 "$MULRED" report
expect_status 0 "$MULRED" report "$R/101.json"
expect_contains "$out" "# Strong scaling" "report to stdout"

# ---- projection: a labelled model, measured costs, up to 1024 nodes ----
expect_status 0 "$MULRED" report --project "$R/101.json" "$R/102.json" --cores-per-node 2 \
    --csv "$T/model.csv" --png "$T/model.png"
expect_contains "$out" "a MODEL, not a measurement" "model labelled"
expect_contains "$out" "| c, cost per coin per core | 10.00 us | measured (CPU time, smallest run) |" "item cost measured"
expect_contains "$out" "measured on loopback" "latency from results"
expect_contains "$out" "| 1024 |" "up to 1024 nodes"
expect_equal "$(wc -l <"$T/model.csv")" 12 "11 node counts + header"
expect_equal "$(head -c 4 "$T/model.png" | od -An -c | tr -d ' ')" '211PNG' "model PNG"
expect_status 0 "$MULRED" report --project --workload other-2e26 --items 67108864 --item-cost 2e-6 \
    --op-cost 4e-7 --message-bytes 144 --max-nodes 64
expect_contains "$out" "Workload \`other-2e26\`" "other workloads plug in"
# --net FILE (as mulred bench comm --out writes it): α and β from the file; hand-worked reduce
# at 2 nodes of 2 cores (1 rank x 2 threads each): one tree step op + α + m/β = 2.2e-6 + 1e-3
# + 768 / 1e6 = 1.7702e-3, plus the thread combine (2 - 1) x op: 1.7724e-3 s
printf '{"bench":"comm","ranks":2,"nodes":2,"latency_seconds":1e-3,"bandwidth_bytes_per_second":1e6}\n' > "$T/net.json"
expect_status 0 "$MULRED" report --project --workload muhash-mainnet --item-cost 2.2e-6 \
    --cores-per-node 2 --net "$T/net.json" --max-nodes 4
expect_contains "$out" "| α, message latency | 1.00 ms | measured by bench comm ($T/net.json: 2 ranks on 2 nodes) |" "latency from --net"
expect_contains "$out" "| β, bandwidth | 0.001 GB/s | measured by bench comm" "bandwidth from --net"
# and the read of muhash-mainnet's 13.5e9 bytes by 4 cores at the built-in 1.28e9 B/s each
# (5.12e9 B/s together, under the 10e9 of the storage): 13.5 / 5.12 = 2.63671875 s; compute
# 180e6 x 2.2e-6 / 4 = 99 s; total 99 + 0.0017724 + 60e-6 (finalize) + 2.6367 = 101.64 s
expect_contains "$out" "| 2 | 2 | 4 | 101.6 | 99 | 0.00177 | 2.637 |" "the reduce from --net's constants"
# The built-in workload alone: every parameter built in or defaulted, and the I/O term: from 4
# nodes the storage (10e9 B/s) limits the read to 13.5e9 / 10e9 = 1.35 s, and at 64 nodes
# (128 cores) reading costs more than computing 180e6 x 0.357e-6 / 128 = 0.502 s
expect_status 0 "$MULRED" report --project --workload muhash-mainnet --max-nodes 64
expect_contains "$out" "| c, cost per coin per core | 357.0 ns | built-in |" "built-in coin cost"
expect_contains "$out" "| 4 | 4 | 8 | " "4 nodes"
expect_contains "$(grep '^| 4 | 4 | 8 ' <<<"$out")" "| 1.35 |" "storage-bound read at 4 nodes"
expect_contains "$(grep '^| 64 | 64 | 128 ' <<<"$out")" "| 0.502 |" "compute at 64 nodes"
# A measured read rate: a snapshot run of 1 rank x 2 threads that read 3e9 bytes, its slowest
# thread reading for 0.5 s, is 3e9 / 2 / 0.5 = 3e9 B/s per core; --storage-rate 4e9 then limits
# 1 node (2 cores, 6e9 B/s) to 4e9: 13.5e9 / 4e9 = 3.375 s
printf '{"muhash":"ab","flavor":"bitcoin","inserted":1000000,"removed":0,"elements":1000000,"input_bytes":3e9,"ranks":1,"threads":2,"nodes":1,"seconds":1,"phases":{"read":{"min":0.5,"avg":0.5,"max":0.5},"hash":{"min":0.4,"avg":0.4,"max":0.4}}}\n' >"$T/snap.json"
expect_status 0 "$MULRED" report --project "$T/snap.json" --storage-rate 4e9 --max-nodes 2
expect_contains "$out" "| r, read and decode rate per core | 3 GB/s | measured (smallest run) |" "read rate measured"
expect_contains "$out" "| c, cost per coin per core | 800.0 ns | measured (CPU time, smallest run) |" "hash cost without the read: 0.4 x 2 / 1e6"
expect_contains "$(grep '^| 1 | 1 | 2 ' <<<"$out")" "| 3.375 |" "storage-limited read on 1 node"
expect_status 1 "$MULRED" report --project --workload muhash-mainnet --storage-rate 0
expect_contains "$err" "bad value '0' for '--storage-rate' (a positive number)" "bad storage rate named"
printf '{"bench":"comm","ranks":1}\n' > "$T/net1.json"
expect_status 2 "$MULRED" report --project --workload muhash-mainnet --item-cost 2.2e-6 --net "$T/net1.json"
expect_contains "$err" "net1.json: no positive latency_seconds" "a file without the constants"

# ---- msm results: points/s, the point compared, and the MSM projection ----
msm_obj() { # RANKS THREADS SECONDS RESULT
    printf '{"result":"%s","curve":"bls12-381","points":1000000,"synthetic":1000000,"seed":1,"ranks":%s,"threads":%s,"nodes":1,"seconds":%s,"points_per_second":1,"window":13,"glv":true,"windows":10,"grid":{"slices":%s,"groups":1,"ranks_used":%s,"top_group_windows":10,"forced":false,"model_seconds":1.2,"model_msm_seconds":1.0},"phases":{"read":{"min":0,"avg":0,"max":0},"generate":{"min":0.5,"avg":0.5,"max":0.5},"validate":{"min":0,"avg":0,"max":0},"msm":{"min":2,"avg":2,"max":%s},"reduce":{"min":3e-05,"avg":3e-05,"max":3e-05},"total":{"min":3,"avg":3,"max":3}},"version":"0.1.0","git_revision":"x"}' \
        "$4" "$1" "$2" "$3" "$1" "$1" "$3"
}
# 128-byte EIP-2537 points as hex: 16 zero bytes, x (48 bytes), 16 zero bytes, y
P0=$(printf '%032d' 0) Z64=$(printf '%064d' 0)
R1=${P0}17f1d3a73197d7942695638c4fa9ac0f$Z64$P0$Z64$P0
R2=${P0}08b3f481e3aaa0f1a09e30ed741d8ae4$Z64$P0$Z64$P0
[ ${#R1} -eq 256 ] || fail "test point is ${#R1} digits"
envelope ok 0 "$(msm_obj 1 2 2.0 "$R1")" 1 >"$R/201.json"
envelope ok 0 "$(msm_obj 2 2 1.0 "$R1")" 2 >"$R/202.json"
msm_obj 4 2 0.6 "$R2" >"$R/204.json"
expect_status 0 "$MULRED" report "$R/201.json" "$R/202.json" "$R/204.json" --csv "$T/msm.csv"
expect_contains "$out" "## msm bls12-381, 1000000 points, synthetic seed 1" "msm workload group"
expect_contains "$out" "| 1 | 1 | 2 | 2 | 2.000 | — | 500.00 k points/s | 1.00 | 100 % | — | \`17f1d3a73197…\` |" "msm baseline row: points/s, the point's x"
expect_contains "$out" "| 1 | 2 | 2 | 4 | 1.000 | — | 1.00 M points/s | 2.00 | 100 % | 0.000 |" "msm 2-rank row"
expect_contains "$out" "**MISMATCH**" "a different MSM result is flagged"
expect_contains "$(cat "$T/msm.csv")" '"points/s"' "CSV rate unit"
expect_status 0 "$MULRED" report --project "$R/201.json" "$R/202.json" --cores-per-node 64 \
    --csv "$T/msm-model.csv"
expect_contains "$out" "# Projected strong scaling of an MSM — a MODEL, not a measurement" "MSM model labelled"
expect_contains "$out" "Workload \`msm-2e26\`: an MSM of 6.711e+07 points on bls12-381 G1" "msm-2e26 chosen from the results"
expect_contains "$out" "| κ, measured MSM time × threads / modelled single-thread time | 4.000 | measured (smallest msm run) |" "κ = 2 s x 2 threads / 1 s"
expect_contains "$out" "| input (generate or read) per point per core | 1.00 us | measured |" "input = 0.5 s x 2 / 10^6"
expect_contains "$out" "| α, message latency | 30.00 us | measured on loopback |" "latency from the msm runs"
expect_contains "$out" "## Points resident in memory (no input cost)" "resident regime"
expect_contains "$out" "| 1024 | 1024 | 65536 |" "up to 1024 nodes"
expect_equal "$(wc -l <"$T/msm-model.csv")" 23 "2 regimes x 11 node counts + header"
expect_status 1 "$MULRED" report --project --workload other
expect_status 1 "$MULRED" report --project --latency -1
finish

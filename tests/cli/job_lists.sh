# Job files with lists: every choice key (msm: curve, group, schedule, encoding; muhash: flavor,
# schedule) may list several values, and several lists run as their product, the first list
# varying slowest. Each run's result must equal an independent reference: the mpz reference
# tests/mpi/msm_synth_ref for G1 synthetic sets, its logarithm times G2 in tests/tools/msm_ref.py
# for G2, tests/tools/muhash_ref.py for MuHash. With
# `checkpoint = DIR` each run keeps its units in DIR/KEY=VALUE,KEY=VALUE and a rerun resumes
# every run; a job of one run keeps them in DIR. Bad lists exit 2 naming FILE:LINE.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMP
cd "$T"

# jfield FILE KEY: the values of KEY in mulred's one-line JSON, space-separated, in order.
jfield() { grep -o "\"$2\":\(\"[^\"]*\"\|[^,}]*\)" "$1" | sed 's/^[^:]*://; s/"//g' | paste -sd ' ' -; }

N=300
SEED=7
# ---- msm: curve x group with a checkpoint, 4 runs ----
ref_g1_bls=$("$MULRED_TEST_BIN_DIR/msm_synth_ref" bls12-381 $N $SEED)
ref_g1_bn=$("$MULRED_TEST_BIN_DIR/msm_synth_ref" bn254 $N $SEED)
[ ${#ref_g1_bls} -eq 256 ] && [ ${#ref_g1_bn} -eq 128 ] || fail "no reference from msm_synth_ref"
# G2: the set's logarithm k from msm_synth_ref, k*G2 in Python's Fp2 arithmetic (msm_ref.py,
# itself checked here against EIP-2537's 2*g2)
g2ref() { python3 "$MULRED_SOURCE_DIR/tests/tools/msm_ref.py" g2mul --curve "$1" --k "$2"; }
g2twice=$(python3 -c 'import json, sys; print([c["Expected"] for c in json.load(open(sys.argv[1]))
    if c["Name"] == "bls_g2mul_(g2+g2=2*g2)"][0])' "$MULRED_VECTORS/eip2537/mul_G2_bls.json")
expect_equal "$(g2ref bls12-381 2)" "$g2twice" "the G2 reference: EIP-2537's 2*g2"
ref_g2_bls=$(g2ref bls12-381 "$("$MULRED_TEST_BIN_DIR/msm_synth_ref" bls12-381 $N $SEED log)")
ref_g2_bn=$(g2ref bn254 "$("$MULRED_TEST_BIN_DIR/msm_synth_ref" bn254 $N $SEED log)")
[ ${#ref_g2_bls} -eq 512 ] && [ ${#ref_g2_bn} -eq 256 ] || fail "no G2 reference from msm_ref.py"
want_results="$ref_g1_bls $ref_g2_bls $ref_g1_bn $ref_g2_bn"
mkdir -p jobs elsewhere
cat >jobs/msm.job <<JOB
kind = msm
curve = bls12-381, bn254
synthetic = $N
group = g1,g2   # no blank after the comma
seed = $SEED
threads = 1
checkpoint = ck/
JOB
cd elsewhere # the checkpoint directory is relative to the job file's directory
expect_status 0 "$MULRED" run ../jobs/msm.job --json --output ../msm1.json
cd "$T"
expect_equal "$(jfield msm1.json curve)" "bls12-381 bls12-381 bn254 bn254" "runs: curves in order"
expect_equal "$(jfield msm1.json group)" "g1 g2 g1 g2" "runs: groups in order"
expect_equal "$(jfield msm1.json result)" "$want_results" "each run's result = its reference"
expect_equal "$(jfield msm1.json resumed_units | tr -d '0 ')" "" "first run: nothing resumed"
expect_equal "$(stat -c %a jobs/ck)" 700 "the checkpoint directory is made 0700"
for run in curve=bls12-381,group=g1 curve=bls12-381,group=g2 curve=bn254,group=g1 \
    curve=bn254,group=g2; do
    [ -d "jobs/ck/$run" ] && pass || fail "no run directory jobs/ck/$run"
    [ "$(units_in "jobs/ck/$run")" -gt 0 ] && pass || fail "no units in jobs/ck/$run"
done
expect_equal "$(units_in jobs/ck)" 0 "no units in the job's directory itself"
# the rerun resumes every run: all its units, none computed, the same results
expect_status 0 "$MULRED" run jobs/msm.job --json --output msm2.json
expect_equal "$(jfield msm2.json resumed_units)" "$(jfield msm1.json units)" "rerun: every unit resumed"
expect_equal "$(jfield msm2.json computed_units)" "0 0 0 0" "rerun: nothing computed"
expect_equal "$(jfield msm2.json result)" "$want_results" "rerun: the same results"
# the human output names each run by its list values
expect_status 0 "$MULRED" run jobs/msm.job
expect_contains "$out" "run 2/4: kind msm, curve bls12-381, group g2" "text names run 2's values"
expect_contains "$out" "run 3/4: kind msm, curve bn254, group g1" "text names run 3's values"
expect_contains "$out" "jobs/ck/curve=bn254,group=g2)" "text names run 4's checkpoint directory"

# a job of one run keeps its units in DIR itself (as before lists existed)
printf 'kind = msm\ncurve = bn254\nsynthetic = %s\nseed = %s\nthreads = 1\ncheckpoint = one\n' \
    $N $SEED >one.job
expect_status 0 "$MULRED" run one.job --json
expect_contains "$out" "\"result\":\"$ref_g1_bn\"" "one run: result"
[ "$(units_in one)" -gt 0 ] && pass || fail "one run: no units in its directory"
expect_equal "$(find one -mindepth 1 -type d | wc -l)" 0 "one run: no subdirectory"
# a checkpoint directory others may write is refused, before anything runs
mkdir -m 0777 open
sed 's/^checkpoint = .*/checkpoint = open/' jobs/msm.job >open.job
expect_status 2 "$MULRED" run open.job
expect_contains "$err" "checkpoint directory open is writable by others" "open directory refused"
expect_equal "$(find open -mindepth 1 | wc -l)" 0 "nothing written into an open directory"

# schedule is a list too; with curve: 2 x 2 runs, each the curve's reference
cat >sched.job <<JOB
kind = msm
schedule = static, dynamic
curve = bn254, bls12-381
synthetic = $N
seed = $SEED
threads = 1
JOB
expect_status 0 mpi 2 "$MULRED" run sched.job --json --output sched.json
expect_equal "$(jfield sched.json schedule)" "static static dynamic dynamic" "schedule varies slowest"
expect_equal "$(jfield sched.json result)" "$ref_g1_bn $ref_g1_bls $ref_g1_bn $ref_g1_bls" \
    "schedule x curve: each run's reference"

# ---- muhash: flavor x schedule with a checkpoint, each flavor's digest from muhash_ref.py ----
python3 -c 'import random; r = random.Random(5)
for i in range(500): print(r.randbytes(1 + r.randrange(80)).hex())' >jobs/elements
head -n 7 jobs/elements >jobs/removed
for f in bitcoin kaspa; do
    eval "ref_$f=\$(python3 \"\$MULRED_SOURCE_DIR/tests/tools/muhash_ref.py\" --flavor $f \
        --insert jobs/elements --remove jobs/removed)"
done
[ ${#ref_bitcoin} -eq 64 ] && [ ${#ref_kaspa} -eq 64 ] || fail "no reference from muhash_ref.py"
cat >jobs/muhash.job <<'JOB'
kind = muhash
flavor = bitcoin, kaspa
schedule = static, dynamic
insert = elements
remove = removed
threads = 1
checkpoint = mck
JOB
expect_status 0 "$MULRED" run jobs/muhash.job --json --output mh1.json
expect_equal "$(jfield mh1.json flavor)" "bitcoin bitcoin kaspa kaspa" "muhash: flavors in order"
expect_equal "$(jfield mh1.json schedule)" "static dynamic static dynamic" "muhash: schedules"
expect_equal "$(jfield mh1.json muhash)" "$ref_bitcoin $ref_bitcoin $ref_kaspa $ref_kaspa" \
    "muhash: each run = muhash_ref.py"
for run in flavor=bitcoin,schedule=static flavor=bitcoin,schedule=dynamic \
    flavor=kaspa,schedule=static flavor=kaspa,schedule=dynamic; do
    expect_equal "$(units_in "jobs/mck/$run")" 2 "muhash: 2 units (insert, remove) in jobs/mck/$run"
done
expect_status 0 "$MULRED" run jobs/muhash.job --json --output mh2.json
expect_equal "$(jfield mh2.json resumed_units)" "2 2 2 2" "muhash rerun: every unit resumed"
expect_equal "$(jfield mh2.json computed_units)" "0 0 0 0" "muhash rerun: nothing computed"
expect_equal "$(jfield mh2.json muhash)" "$(jfield mh1.json muhash)" "muhash rerun: same digests"

# ---- bad lists: exit 2, FILE:LINE: reason, nothing printed ----
bad_job() { # NAME LINE REASON CONTENT
    printf '%b' "$4" >"$T/$1.job"
    expect_status 2 "$MULRED" run "$T/$1.job"
    expect_contains "$err" "$T/$1.job:$2: $3" "job error $1"
    expect_equal "$out" "" "no result printed for $1"
}
msm='kind = msm\nsynthetic = 10\n'
bad_job seed_list 3 "bad value '1, 2' for 'seed'" "${msm}seed = 1, 2\n"
expect_contains "$err" "; a list of values is for curve, group, schedule, encoding only" \
    "a list on seed: the keys that take one named"
bad_job threads_list 4 "bad value '1,2' for 'threads'" "${msm}curve = bn254\nthreads = 1,2\n"
bad_job mh_seed_list 3 "bad value '1,2' for 'seed'" "kind = muhash\nsynthetic = 10\nseed = 1,2\n"
expect_contains "$err" "; a list of values is for flavor, schedule only" "muhash: the list keys named"
bad_job curve_twice 3 "curve 'bn254' listed twice" "${msm}curve = bn254, bls12-381, bn254\n"
bad_job group_twice 4 "group 'g2' listed twice" "${msm}curve = bn254\ngroup = g2,g2\n"
bad_job flavor_twice 2 "flavor 'kaspa' listed twice" "kind = muhash\nflavor = kaspa, bitcoin, kaspa\n"
bad_job trailing_comma 3 "an empty value in the list of 'curve'" "${msm}curve = bn254,\n"
bad_job leading_comma 3 "an empty value in the list of 'curve'" "${msm}curve = , bn254\n"
bad_job double_comma 3 "an empty value in the list of 'curve'" "${msm}curve = bn254,,bls12-381\n"
bad_job blank_item 4 "an empty value in the list of 'schedule'" "${msm}curve = bn254\nschedule = static, ,dynamic\n"
bad_job bad_item 3 "bad value 'bn256' for 'curve'" "${msm}curve = bn254, bn256\n"
bad_job stdin_list 2 "'-' (standard input) can be read once; the lists make 2 runs" \
    "kind = muhash\ninsert = -\nflavor = bitcoin, kaspa\n"
items=$(printf 'c%d,' $(seq 1 65)); items=${items%,}
bad_job too_many 3 "65 runs (the product of the lists' lengths): more than a job may hold (64)" \
    "${msm}curve = $items\n"
groups=$(printf 'g%d,' $(seq 1 33)); groups=${groups%,}
bad_job too_many_product 4 "66 runs (the product of the lists' lengths)" \
    "${msm}curve = bn254, bls12-381\ngroup = $groups\n"
finish

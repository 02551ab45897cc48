#!/usr/bin/env bash
# CI: a 3-node cluster on this machine (scripts/cluster.sh: network namespaces on a bridge, one
# slurmd each) and mulred across its nodes:
#  - both kinds through Slurm (sbatch -N 3, 1 thread per rank, srun; sbatch -N 2 -c 2, mpirun
#    inside the allocation): MuHash of an element file, a Bitcoin Core snapshot and a synthetic
#    set, MSM of a pair file and a synthetic set; each result equals an independent value (Core's
#    gettxoutsetinfo muhash, tests/tools/msm_ref.py) or the one-process run, and the JSON names
#    the nodes it ran on;
#  - the same through `mpirun -H node1,node2,node3` (the cluster's rsh agent, no ssh), with the
#    links' byte counters read before and after: the MPI traffic crossed the veth links;
#  - node loss in a checkpointed 3-node job with Open MPI's and Slurm's default timeouts and
#    stall_timeout = 30: every process in node3's namespace SIGKILLed, node3's link set down,
#    node3's rank process stopped (its daemons left running). The job must end non-zero without
#    a result within LOSS_BOUND (60 = the stall timeout + 30) s; resubmitted on the two other
#    nodes (--exclude=node3) with the same checkpoint directory it resumes (resumed_units > 0)
#    and gives the uninterrupted result;
#  - the straggler check (its digests and unit counts; its time ratio is printed as a figure);
#  - a soak (tests/cluster/soak.sh, reduced): consecutive jobs through srun, mpirun inside
#    Slurm and mpirun -H, MuHash and MSM, static and dynamic, two of them losing node3 and
#    resumed; no hang, no wrong result; and three plain hosts (tests/cluster/plain_hosts.sh:
#    ip netns exec, Open MPI's defaults) where the dynamic schedule falls back to messages;
#  - a sweep over 1, 2 and 3 nodes (slurm/scaling.sh --nodes) and its report by node count.
# The cluster is torn down on exit, whatever happened (trap).
#
#   bash .ci/cluster.sh           the CI step: installs packages, builds, runs everything
#   bash .ci/cluster.sh --quick   the CTest test cluster.quick (under a minute): MULRED set by
#                                 CTest; exits 77 (skipped) saying why when this is not root,
#                                 network namespaces cannot be made, or a cluster is already up
# A state directory whose daemons are all gone (a run killed before its trap ran) is taken
# down first; a cluster that still runs is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
QUICK=0
[ "${1:-}" = --quick ] && QUICK=1
start=$(date +%s)
LOSS_BOUND=${LOSS_BOUND:-60}
JOB_TIMEOUT=${JOB_TIMEOUT:-120}
export MULRED_CLUSTER_DIR=${MULRED_CLUSTER_DIR:-/run/mulred-cluster}
CLUSTER=(bash "$ROOT/scripts/cluster.sh")
# cluster_in_use: true if a cluster runs in MULRED_CLUSTER_DIR; one left behind with no daemon
# alive (a run killed before its trap ran) is taken down and the answer is false
cluster_in_use() {
    [ -e "$MULRED_CLUSTER_DIR/nodes" ] || return 1
    "${CLUSTER[@]}" live && return 0
    echo "== cluster: $MULRED_CLUSTER_DIR was left by a stopped run (no daemon alive): taking it down"
    "${CLUSTER[@]}" down >/dev/null 2>&1
    return 1
}

log() { echo "== cluster: $*"; }
skip() { echo "SKIPPED: $*"; exit 77; }
die() {
    echo "FAIL: $*" >&2
    for f in "$MULRED_CLUSTER_DIR"/log/*.log; do
        [ -f "$f" ] && { echo "--- tail $f" >&2; tail -n 8 "$f" >&2; }
    done
    exit 1
}

if [ "$QUICK" = 1 ]; then
    [ "$(id -u)" = 0 ] || skip "the cluster test needs root (network namespaces, a bridge, Slurm daemons)"
    { command -v ip >/dev/null && ip netns list >/dev/null 2>&1; } || skip "no 'ip netns' (iproute2)"
    probe=mulred-probe-$$
    ip netns add "$probe" 2>/dev/null || skip "cannot create a network namespace here (ip netns add failed)"
    ip netns del "$probe"
    ! cluster_in_use ||
        skip "a cluster is already up in $MULRED_CLUSTER_DIR (scripts/cluster.sh down first)"
    : "${MULRED:?set by CTest}"
    WORK=${TEST_TMP:-$(mktemp -d)}
    rm -rf "$WORK" && mkdir -p "$WORK"
else
    # shellcheck source=scripts/common.sh disable=SC1091
    . scripts/common.sh
    install_packages "${MULRED_PACKAGES[@]}" python3
    # shellcheck disable=SC2119  # no extra cmake arguments
    build_mulred
    MULRED=$BUILD_DIR/mulred
    ! cluster_in_use || die "a cluster is already up in $MULRED_CLUSTER_DIR"
    WORK=$(mktemp -d /tmp/mulred-cluster-ci.XXXXXX)
fi
export MULRED
cleanup() {
    local rc=$?
    for l in /sys/class/net/mrv-node*; do [ -e "$l" ] && ip link set "${l##*/}" up 2>/dev/null; done
    "${CLUSTER[@]}" down >/dev/null 2>&1 || echo "cluster: down failed" >&2
    [ "$QUICK" = 1 ] || rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "up 3"
"${CLUSTER[@]}" up 3
# shellcheck disable=SC1091
. "$MULRED_CLUSTER_DIR/env"
cd "$WORK"   # sbatch's submit directory: results/ and slurm-*.out land here
log "cluster up after $(($(date +%s) - start)) s"

# ---- inputs and their references ----
N_ELEMENTS=20000 N_PAIRS=600
[ "$QUICK" = 1 ] && N_ELEMENTS=5000 N_PAIRS=64
python3 - "$N_ELEMENTS" <<'EOF'
import random, sys
r = random.Random(7)
with open("elements", "w") as f:
    for _ in range(int(sys.argv[1])):
        f.write(r.randbytes(r.randint(1, 80)).hex() + "\n")
EOF
SNAPSHOT=$ROOT/tests/vectors/bitcoin/regtest-medium.dat
cp "$SNAPSHOT" snapshot.dat
SNAPSHOT_MUHASH=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["muhash"])' \
    "$ROOT/tests/vectors/bitcoin/regtest-medium.json")
PAIRS_RESULT=$(python3 "$ROOT/tests/tools/msm_ref.py" pairs --curve bls12-381 --n "$N_PAIRS" --seed 3 --out pairs)
mkjob() { printf '%s\n' "${@:2}" >"$1.job"; }
mkjob elements 'kind = muhash' 'insert = elements'
mkjob snapshot 'kind = muhash' 'snapshot = snapshot.dat'
mkjob synthetic 'kind = muhash' 'synthetic = 300000' 'seed = 4'
mkjob pairs 'kind = msm' 'curve = bls12-381' 'input = pairs.hex'
mkjob msm-synthetic 'kind = msm' 'curve = bn254' 'synthetic = 6000' 'seed = 2'
# value JSON: the result of the first run (MuHash digest or MSM point)
value() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; print(r["result"])' "$1"; }
declare -A REF
REF[snapshot]=$SNAPSHOT_MUHASH
REF[pairs]=$PAIRS_RESULT
one_process=(elements synthetic msm-synthetic) independent=(snapshot pairs)
[ "$QUICK" = 1 ] && one_process=(elements) independent=(pairs)
for j in "${one_process[@]}"; do
    timeout 120 "$MULRED" run "$j.job" --json --output "ref-$j.json"
    REF[$j]=$(value "ref-$j.json")
done
# the one-process run agrees with the independent values too
for j in "${independent[@]}"; do
    timeout 120 "$MULRED" run "$j.job" --json --output "ref-$j.json"
    [ "$(value "ref-$j.json")" = "${REF[$j]}" ] || die "one process: $j gives $(value "ref-$j.json")"
done
log "references ready after $(($(date +%s) - start)) s"

# The cluster's MCA file keeps UCX out of the ranks (scripts/cluster.sh, docs/cluster.md): a
# one-rank step lists the shared objects its rank loaded.
timeout 60 srun -N 1 -n 1 --mpi=pmix --export=ALL,LD_DEBUG=files,OMP_NUM_THREADS=1 \
    "$MULRED" muhash --synthetic 10 >/dev/null 2>loaded.txt ||
    die "srun -n 1: $(tail -n 3 loaded.txt)"
grep -q 'file=.*mca_pml_ob1' loaded.txt || die "srun -n 1: no Open MPI component in LD_DEBUG's list"
if grep -q 'file=[^ ]*libucs' loaded.txt; then
    die "a rank loaded UCX: $(grep -o 'file=[^ ]*_ucx[^ ]*' loaded.txt | sort -u | tr '\n' ' ')"
fi
echo "  ok: a rank loads no UCX"
# ... and Slurm's PMIx plugin runs every fence on a tree (docs/reliability.md)
timeout 10 scontrol show config | grep -q '^PMIxCollFence *= tree' ||
    die "slurmctld does not read the cluster's mpi.conf"

# ---- Slurm helpers (as .ci/slurm.sh: poll scontrol, trust only the job's own output) ----
job_state() { timeout 5 scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
job_end() { # ID [DEADLINE_SECONDS [COMPLETING]]: polls until the job ends; prints "STATE EXITCODE"
    # (with a third argument, COMPLETING counts as ended: the batch script has returned, and Slurm
    # only waits to hear from a node it cannot reach before it calls the job FAILED)
    local id=$1 deadline=$(($(date +%s) + ${2:-$JOB_TIMEOUT})) line st ec
    while :; do
        line=$(timeout 5 scontrol -o show job "$id" 2>/dev/null || true)
        st=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$line")
        ec=$(sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' <<<"$line")
        case "$st" in
        COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
            echo "$st $ec"; return 0 ;;
        COMPLETING) [ -n "${3:-}" ] && { echo "$st $ec"; return 0; } ;;
        esac
        if [ "$(date +%s)" -ge "$deadline" ]; then echo "TIMEOUT-WAITING ${st:-unknown}"; return 0; fi
        sleep 0.25
    done
}
submit() { timeout 30 sbatch --parsable "$@"; }
# check FILE JOB RANKS THREADS NODES…: status ok, the reference value, the layout, the node names
check() {
    local file=$1 job=$2 ranks=$3 threads=$4
    shift 4
    [ -s "$file" ] || die "no result file $file"
    python3 - "$file" "${REF[$job]}" "$ranks" "$threads" "$@" <<'EOF' || die "$file ($job) is wrong"
import json, sys
doc = json.load(open(sys.argv[1]))
want, ranks, threads, nodes = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
if "runs" not in doc:
    doc = {"status": "ok", "exit_status": 0, "runs": [doc]}
assert doc["status"] == "ok" and doc["exit_status"] == 0, doc["status"]
r = doc["runs"][0]
got = r.get("result")
assert got == want, (got, want)
assert (r["ranks"], r["threads"]) == (ranks, threads), (r["ranks"], r["threads"])
assert r["nodes"] == len(nodes) and r["node_names"] == nodes, (r["nodes"], r["node_names"], nodes)
print(f"  ok: {sys.argv[1]}: {got[:16]}..., {ranks} ranks x {threads} threads on {','.join(nodes)}")
EOF
}
# sbatch_submit JOB NODES THREADS [ENV=VALUE…]: one sbatch of slurm/mulred.sbatch; the jobs
# are checked together afterwards (sbatch_check_all), so that they queue and run side by side
SUBMITTED=()
sbatch_submit() {
    local job=$1 n=$2 threads=$3 id
    shift 3
    id=$(env "$@" timeout 30 sbatch --parsable -N "$n" -c "$threads" -t 5 "$ROOT/slurm/mulred.sbatch" "$job.job")
    SUBMITTED+=("$id $job $n $threads")
}
sbatch_check_all() {
    local id job n threads end names
    for entry in "${SUBMITTED[@]}"; do
        read -r id job n threads <<<"$entry"
        end=$(job_end "$id")
        [ "$end" = "COMPLETED 0:0" ] || { sed 's/^/  | /' "slurm-$id.out" >&2; die "job $id ($job) ended '$end'"; }
        grep -q 'launcher: mpirun' "slurm-$id.out" ||
            grep -qx '  SLURM_PMIX_FENCE=tree' "slurm-$id.out" ||
            die "job $id: its srun step does not set SLURM_PMIX_FENCE=tree"
        mapfile -t names < <(seq -f 'node%g' "$n")
        check "results/$id.json" "$job" "$n" "$threads" "${names[@]}"
    done
    SUBMITTED=()
}

# ---- both kinds across nodes through Slurm ----
if [ "$QUICK" = 1 ]; then
    log "sbatch -N 3: MuHash of an element file"
    sbatch_submit elements 3 1
else
    log "sbatch -N 3 (srun) and sbatch -N 2 -c 2 (mpirun): elements, snapshot, synthetic, pairs, msm-synthetic"
    for job in elements snapshot synthetic pairs msm-synthetic; do
        sbatch_submit "$job" 3 1
        sbatch_submit "$job" 2 2 MULRED_LAUNCHER=mpirun
    done
fi
sbatch_check_all

# ---- mpirun -H through the rsh agent; the links' byte counters ----
counters() { # the bytes each node's link carried so far, both directions, one line per node
    local k
    for k in 1 2 3; do
        echo $(($(cat /sys/class/net/mrv-node$k/statistics/rx_bytes) + $(cat /sys/class/net/mrv-node$k/statistics/tx_bytes)))
    done
}
mpirun_check() { # JOB HOSTS THREADS
    local job=$1 hosts=$2 threads=$3 n before after k moved names
    n=$(tr ',' '\n' <<<"$hosts" | wc -l)
    mapfile -t before < <(counters)
    timeout 120 mpirun -H "$hosts" -n "$n" -x OMP_NUM_THREADS="$threads" \
        "$MULRED" run "$job.job" --json --output "mpirun-$job.json" >/dev/null
    mapfile -t after < <(counters)
    mapfile -t names < <(tr ',' '\n' <<<"$hosts")
    check "mpirun-$job.json" "$job" "$n" "$threads" "${names[@]}"
    for k in $(seq "$n"); do
        moved=$((after[k - 1] - before[k - 1]))
        echo "  node$k's link carried $moved bytes"
        # the launch, the wire-up and the reduce of a run are tens of kB; Slurm's pings during
        # one run are a few hundred bytes
        [ "$moved" -gt 10000 ] || die "node$k's link carried only $moved bytes during mpirun"
    done
}
log "mpirun -H node1,node2,node3 (rsh agent, TCP on the cluster subnet)"
mpirun_check pairs node1,node2,node3 1
if [ "$QUICK" = 0 ]; then
    mpirun_check elements node1,node2,node3 1
    mpirun_check msm-synthetic node1,node2 2
fi

# ---- node loss ----
# A checkpointed MuHash job of LOSS_N synthetic elements in units of LOSS_UNIT x 1024 elements:
# 123 units (the quick version: 147 smaller ones).
LOSS_N=2000000 LOSS_UNIT=16
[ "$QUICK" = 1 ] && LOSS_N=600000 LOSS_UNIT=4
LOSS_UNITS=$(((LOSS_N + LOSS_UNIT * 1024 - 1) / (LOSS_UNIT * 1024)))
LOSS_STALL=$((LOSS_BOUND - 30))
mkjob loss 'kind = muhash' "synthetic = $LOSS_N" 'seed = 9' 'checkpoint = ck' "checkpoint-unit = $LOSS_UNIT" \
    "stall_timeout = $LOSS_STALL"
timeout 300 "$MULRED" muhash --synthetic "$LOSS_N" --seed 9 --json >ref-loss.json
REF[loss]=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"])' ref-loss.json)
units() { if [ -d ck ]; then find ck -maxdepth 1 -name 'unit-*.ckpt' | wc -l; else echo 0; fi; }
wait_units() { # N: until N units are saved
    for _ in $(seq 600); do [ "$(units)" -ge "$1" ] && return 0; sleep 0.1; done
    die "no $1 units saved after 60 s"
}
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
within_bound() { awk -v s="$1" -v b="$LOSS_BOUND" 'BEGIN { exit !(s < b) }'; }
lose_node3() { # HOW: kill | link | stop
    local pids p
    case $1 in
    kill)
        pids=$(ip netns pids node3 | tr '\n' ' ')
        echo "  SIGKILL to every process in node3: $pids"
        # shellcheck disable=SC2086
        kill -9 $pids ;;
    link)
        echo "  ip link set mrv-node3 down"
        ip link set mrv-node3 down ;;
    stop)
        for p in $(ip netns pids node3); do
            tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q '^[^ ]*mulred[^ /]* run' || continue
            echo "  SIGSTOP to node3's rank process $p (its daemons run on)"
            kill -STOP "$p"
        done ;;
    esac
}
# kill_leftovers ID: processes of ended job ID still in a node (proctrack/linuxproc loses those
# whose parent died first, such as the srun that mpirun starts for its daemons)
kill_leftovers() {
    local k pid
    for k in 1 2 3; do
        for pid in $(ip netns pids "node$k"); do
            tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "SLURM_JOB_ID=$1" || continue
            echo "  job $1 left pid $pid in node$k: $(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -c1-60)"
            kill -9 "$pid" 2>/dev/null || true
        done
    done
}
restore_node3() {
    ip link set mrv-node3 up
    local p
    for p in $(ip netns pids node3); do
        tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q 'mulred[^ /]* run' && kill -9 "$p" 2>/dev/null
    done
    "${CLUSTER[@]}" up 3 >/dev/null
}
# resume_check HOW: resubmit on node1,node2 with the same directory; resumes, same digest
resume_check() {
    local id end
    id=$(submit -N 2 --exclude=node3 -t 5 "$ROOT/slurm/mulred.sbatch" loss.job)
    end=$(job_end "$id")
    [ "$end" = "COMPLETED 0:0" ] || { sed 's/^/  | /' "slurm-$id.out" >&2; die "resubmitted job $id ended '$end'"; }
    check "results/$id.json" loss 2 1 node1 node2
    python3 - "results/$id.json" "$LOSS_UNITS" <<'EOF' || die "results/$id.json did not resume"
import json, sys
r, n = json.load(open(sys.argv[1]))["runs"][0], int(sys.argv[2])
assert r["resumed_units"] > 0 and r["resumed_units"] + r["computed_units"] == n, r
print(f'  ok: resumed {r["resumed_units"]}, computed {r["computed_units"]} of {n} units')
EOF
}
# loss_check HOW LAUNCHER: a 3-node sbatch loses node3 once units are saved
loss_check() {
    local how=$1 launcher=$2 id t0 end secs
    rm -rf ck
    id=$(MULRED_LAUNCHER=$launcher submit --no-requeue -N 3 -t 5 "$ROOT/slurm/mulred.sbatch" loss.job)
    wait_units 3
    [ "$(job_state "$id")" = RUNNING ] || die "job $id is $(job_state "$id") before the loss"
    t0=$(date +%s.%N)
    lose_node3 "$how"
    end=$(job_end "$id" $((LOSS_BOUND + 30)) completing)
    secs=$(elapsed "$t0")
    echo "  job $id ($launcher) ended '$end' $secs s after node3 was lost ($how), $(units) units saved"
    sed -n 's/^end: .*exit status/  batch script: exit status/p' "slurm-$id.out"
    case "$end" in "COMPLETED 0:0" | *" 0:0" | TIMEOUT-WAITING*) die "job $id: '$end' after losing node3 ($how)" ;; esac
    within_bound "$secs" || die "job $id took $secs s to end (bound $LOSS_BOUND s)"
    if [ -f "results/$id.json" ]; then
        grep -q '"status":"failed"' "results/$id.json" || die "job $id wrote a result: $(cat "results/$id.json")"
    fi
    LOSS_SECONDS+=("$how/$launcher: $secs s")
    restore_node3
    kill_leftovers "$id"
    resume_check
}
# mpirun_loss_check HOW: the same with mpirun -H outside Slurm, resumed by mpirun -H node1,node2
mpirun_loss_check() {
    local how=$1 pid t0 rc=0 secs
    rm -rf ck
    # through mulred-launch: a bare mpirun waits for its daemon behind a cut link until Open
    # MPI's out-of-band keepalive gives up (about 8 minutes by default)
    timeout 300 "$ROOT/slurm/mulred-launch" mpirun -H node1,node2,node3 -n 3 -x OMP_NUM_THREADS=1 \
        "$MULRED" run loss.job --json >loss-mpirun.out 2>loss-mpirun.err &
    pid=$!
    wait_units 3
    t0=$(date +%s.%N)
    lose_node3 "$how"
    wait "$pid" || rc=$?
    secs=$(elapsed "$t0")
    echo "  mpirun -H ended with status $rc $secs s after node3 was lost ($how)"
    [ "$rc" != 0 ] || die "mpirun -H exited 0 after losing node3"
    [ ! -s loss-mpirun.out ] || die "mpirun -H printed a result: $(cat loss-mpirun.out)"
    within_bound "$secs" || die "mpirun -H took $secs s to end (bound $LOSS_BOUND s)"
    LOSS_SECONDS+=("$how/mpirun -H: $secs s")
    restore_node3
    timeout 120 mpirun -H node1,node2 -n 2 -x OMP_NUM_THREADS=1 "$MULRED" run loss.job --json \
        --output loss-resumed.json >/dev/null
    check loss-resumed.json loss 2 1 node1 node2
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; assert r["resumed_units"] > 0, r; print("  ok: resumed", r["resumed_units"], "units")' \
        loss-resumed.json || die "mpirun -H node1,node2 did not resume"
}
LOSS_SECONDS=()
if [ "$QUICK" = 1 ]; then
    log "node loss: mpirun -H, SIGKILL to node3"
    mpirun_loss_check kill
else
    log "node loss: sbatch -N 3, SIGKILL to every process of node3 (srun launcher)"
    loss_check kill srun
    log "node loss: sbatch -N 3, node3's link down (srun launcher, SlurmdTimeout 300 s)"
    loss_check link srun
    log "node loss: sbatch -N 3, node3's rank process stopped (mpirun launcher)"
    loss_check stop mpirun
    log "node loss: mpirun -H, node3's link down (Open MPI's default keepalive)"
    mpirun_loss_check link
fi

# straggler_check: tests/sched/straggler.sh across two nodes (mpirun -H node1,node2 over the
# cluster's TCP links): one rank SIGSTOPped four fifths of the time, static against dynamic (the
# same digest, the slow rank fewer units; the time ratio is printed, a figure)
straggler_check() {
    [ "$QUICK" = 1 ] && return 0
    log "straggler: 2 nodes, rank 1 slowed, --schedule static vs dynamic"
    mkdir -p "$WORK/straggler"
    MPIEXEC=mpirun MPIEXEC_FLAGS="-H node1,node2 -x OMP_NUM_THREADS=1" \
        STRAGGLER_ELEMENTS=${STRAGGLER_ELEMENTS:-2000000} STRAGGLER_STOP_MS=200 \
        STRAGGLER_RUN_MS=50 TEST_TMP="$WORK/straggler" \
        timeout 300 bash "$ROOT/tests/sched/straggler.sh" || die "the straggler check failed"
}
straggler_check

# ---- the soak, reduced: consecutive jobs of every kind, two losing node3; no hang ----
if [ "$QUICK" = 0 ]; then
    log "soak: ${SOAK_JOBS:-12} jobs"
    MULRED=$MULRED bash "$ROOT/tests/cluster/soak.sh" --jobs "${SOAK_JOBS:-12}" --fault-every 6 \
        --stall 15 || die "the soak had a hang or a wrong result"
    # hosts built the plain way (ip netns exec, only btl tcp,self and the subnet): the dynamic
    # schedule's hand-out falls back to the coordinator there (its own subnet and namespaces)
    log "plain hosts: --schedule dynamic, 3 runs each"
    MULRED=$MULRED bash "$ROOT/tests/cluster/plain_hosts.sh" --runs 3 --faults none ||
        die "the plain hosts' dynamic runs failed"
fi

# ---- a sweep by node count and its report ----
if [ "$QUICK" = 0 ]; then
    log "sweep: slurm/scaling.sh synthetic.job --nodes 1,2,3 and its report"
    rm -rf results
    bash "$ROOT/slurm/scaling.sh" synthetic.job --nodes 1,2,3 --chain --time 00:05:00 \
        --report nodes >sweep.out
    cat sweep.out
    mapfile -t ids < <(sed -n 's/^submitted job \([0-9]*\).*/\1/p' sweep.out)
    [ ${#ids[@]} -eq 4 ] || die "expected 3 runs and a collect job, got: ${ids[*]}"
    for id in "${ids[@]}"; do
        end=$(job_end "$id")
        [ "$end" = "COMPLETED 0:0" ] || die "sweep job $id ended '$end'"
    done
    for i in 0 1 2; do
        mapfile -t names < <(seq -f 'node%g' $((i + 1)))
        check "results/${ids[i]}.json" synthetic $((i + 1)) 1 "${names[@]}"
    done
    cat results/nodes.md
    for f in nodes.md nodes.csv nodes.png; do [ -s "results/$f" ] || die "no results/$f"; done
    python3 - results/nodes.csv <<'EOF' || die "the report lacks a row per node count"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
assert sorted(int(r["nodes"]) for r in rows) == [1, 2, 3], rows
print("  ok: report rows for 1, 2 and 3 nodes")
EOF
fi

log "time to end after losing a node: ${LOSS_SECONDS[*]}"
log "passed in $(($(date +%s) - start)) s"

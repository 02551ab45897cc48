#!/usr/bin/env bash
# CI: a real one-node Slurm cluster on this machine, and mulred's Slurm launcher, sweep and
# report run on it. Self-contained: run as root on a fresh Debian 12 machine (packages are
# installed if missing) or again on the same machine (idempotent). Target: well under 3 minutes.
#
# What this machine kind needs, and why (docs/slurm.md):
#  - no systemd: the daemons are started here, in the foreground, backgrounded by this script,
#    so $! is each daemon's own PID; the EXIT trap stops exactly those PIDs, also on failure.
#  - everything private under $SLURM_CI_DIR (config, state, spool, logs, munge socket) and
#    non-default ports: a system Slurm or munged on this machine is neither used nor disturbed;
#    clients find the config through SLURM_CONF, which sbatch passes on to the job.
#  - cgroup plugins fail in this VM ("cgroup namespace 'freezer' not mounted") while Slurm still
#    reports COMPLETED, so: ProctrackType=proctrack/linuxproc, JobAcctGatherType=none; and the
#    job's own output files are checked, never only Slurm's state. TaskPlugin=task/affinity
#    (sched_setaffinity, no cgroups) works and binds each srun task to its own cores; with
#    task/none every rank sees the whole node and OMP_PROC_BIND=close would stack all ranks on
#    core 0 (slurm/mulred.sbatch detects that and drops the OpenMP binding).
#  - RealMemory must not exceed what `slurmd -C` reports (else the node drains): both CPUs and
#    RealMemory are taken from `slurmd -C`; NodeName is `hostname -s`.
#  - running as root: SlurmUser=root (state directories need no chown) and Open MPI's
#    run-as-root consent inside jobs (slurm/mulred.sbatch sets it when it runs as root).
#  - munged must not run as root and wants its own directories owned by munge; the key must be
#    owned by munge with mode 0400 (created here when missing).
#  - more tasks than CPUs pends forever: EnforcePartLimits=ALL turns it into a rejection.
#  - `sbatch --wait` polls at 2 s, 10 s, 42 s… and returns 0 for a job cancelled while pending:
#    jobs are polled with `scontrol -o show job` every 0.5 s under a deadline instead.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=scripts/common.sh
. scripts/common.sh
start=$(date +%s)

SLURM_CI_DIR=${SLURM_CI_DIR:-/run/mulred-slurm-ci}
JOB_TIMEOUT=${JOB_TIMEOUT:-90}   # seconds per job, queued or running
PIDS=()

log() { echo "== slurm: $*"; }
die() {
    echo "FAIL: $*" >&2
    for f in "$SLURM_CI_DIR"/log/*.log; do
        [ -f "$f" ] && { echo "--- tail $f" >&2; tail -n 15 "$f" >&2; }
    done
    exit 1
}

stop_daemons() {
    local rc=$? pid
    # Newest first: slurmd, slurmctld, then munged (the others still need it to shut down).
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        pid=${PIDS[i]}
        kill "$pid" 2>/dev/null || continue
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    done
    [ ${#PIDS[@]} -gt 0 ] && log "stopped daemons ${PIDS[*]}"
    exit "$rc"
}
trap stop_daemons EXIT
trap 'exit 130' INT TERM

# ---- packages and build ----
log "packages"
install_packages "${MULRED_PACKAGES[@]}" munge slurmctld slurmd slurm-client python3  # python3: JSON checks
# shellcheck disable=SC2119  # no extra cmake arguments
build_mulred
MULRED_BIN=$BUILD_DIR/mulred

# ---- cluster ----
NODE=$(hostname -s)
read -r CPUS MEM < <(slurmd -C | awk '/^NodeName/ {
    for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    print v["CPUs"], v["RealMemory"] }')
[[ ${CPUS:-} =~ ^[0-9]+$ && ${MEM:-} =~ ^[0-9]+$ ]] || die "cannot read CPUs and RealMemory from slurmd -C"

rm -rf "$SLURM_CI_DIR"
install -d -m 0755 "$SLURM_CI_DIR" "$SLURM_CI_DIR"/{etc,state,spool,log}
install -d -o munge -g munge -m 0755 "$SLURM_CI_DIR/munge"  # o+x: clients reach the socket
export SLURM_CONF=$SLURM_CI_DIR/etc/slurm.conf
MUNGE_SOCKET=$SLURM_CI_DIR/munge/munge.socket

cat >"$SLURM_CONF" <<EOF
# One-node CI cluster written by .ci/slurm.sh (see the comments there).
ClusterName=mulredci
SlurmctldHost=$NODE
SlurmctldPort=6917
SlurmdPort=6918
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
SlurmUser=root
StateSaveLocation=$SLURM_CI_DIR/state
SlurmdSpoolDir=$SLURM_CI_DIR/spool
SlurmctldPidFile=$SLURM_CI_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_CI_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_CI_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_CI_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
EnforcePartLimits=ALL
SchedulerParameters=sched_interval=1
NodeName=$NODE CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=30 State=UP
EOF

KEY=/etc/munge/munge.key
if [ ! -s "$KEY" ]; then
    log "creating munge key $KEY"
    install -d -o munge -g munge -m 0700 /etc/munge
    dd if=/dev/urandom of="$KEY" bs=1024 count=1 status=none
fi
chown munge:munge "$KEY" && chmod 0400 "$KEY"

log "starting munged, slurmctld, slurmd (node $NODE, $CPUS CPUs, $MEM MB)"
# setpriv execs munged as the munge user, so $! is munged itself.
setpriv --reuid munge --regid munge --init-groups -- /usr/sbin/munged -F \
    --socket="$MUNGE_SOCKET" --key-file="$KEY" --log-file="$SLURM_CI_DIR/munge/munged.log" \
    --pid-file="$SLURM_CI_DIR/munge/munged.pid" --seed-file="$SLURM_CI_DIR/munge/munged.seed" \
    >"$SLURM_CI_DIR/log/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$MUNGE_SOCKET" ] && break; sleep 0.1; done
munge -S "$MUNGE_SOCKET" -n | unmunge -S "$MUNGE_SOCKET" >/dev/null ||
    die "munged does not answer on $MUNGE_SOCKET"
/usr/sbin/slurmctld -D -c -f "$SLURM_CONF" >"$SLURM_CI_DIR/log/slurmctld.out" 2>&1 &
PIDS+=($!)
/usr/sbin/slurmd -D -f "$SLURM_CONF" -N "$NODE" >"$SLURM_CI_DIR/log/slurmd.out" 2>&1 &
PIDS+=($!)

state=""
for _ in $(seq 60); do
    state=$(timeout 5 sinfo -h -n "$NODE" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || die "node $NODE not idle after 30 s (state '${state:-none}')"
log "node $NODE idle after $(( $(date +%s) - start )) s"

# ---- jobs ----
# job_end ID: polls until the job ends (deadline JOB_TIMEOUT s); prints "STATE EXITCODE".
job_end() {
    local id=$1 deadline=$(( $(date +%s) + JOB_TIMEOUT )) line st ec
    while :; do
        line=$(timeout 5 scontrol -o show job "$id" 2>/dev/null || true)
        st=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$line")
        ec=$(sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' <<<"$line")
        case "$st" in
        COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
            echo "$st $ec"; return 0 ;;
        esac
        if [ "$(date +%s)" -ge "$deadline" ]; then
            timeout 5 scancel "$id" || true
            echo "TIMEOUT-WAITING ${st:-unknown}"; return 0
        fi
        sleep 0.5
    done
}

# wait_job ID: fails on anything but COMPLETED with exit code 0:0.
wait_job() {
    local end
    end=$(job_end "$1")
    if [ "$end" != "COMPLETED 0:0" ]; then
        sed 's/^/  | /' "slurm-$1.out" 2>/dev/null || true
        die "job $1 ended '$end' (want COMPLETED 0:0)"
    fi
}

# check_result FILE RANKS [THREADS]: the job's own result, not Slurm's word: both flavors,
# status ok, the layout asked for, and MuHash values equal to the local reference run.
check_result() {
    local file=$1 ranks=$2 threads=${3:-1}
    [ -s "$file" ] || die "no result file $file"
    python3 - "$file" "$ranks" "$REFERENCE" "$threads" <<'EOF' || die "result $file is wrong"
import json, sys
doc, ranks, threads = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[4])
ref = {r["flavor"]: r["result"] for r in json.load(open(sys.argv[3]))["runs"]}
assert doc["status"] == "ok" and doc["exit_status"] == 0, doc["status"]
runs = doc["runs"]
assert sorted(r["flavor"] for r in runs) == ["bitcoin", "kaspa"], runs
for r in runs:
    assert r["ranks"] == ranks and r["threads"] == threads, (r["ranks"], r["threads"])
    assert r["result"] == ref[r["flavor"]], (r["flavor"], r["result"], ref[r["flavor"]])
    assert r["elements"] > 0 and r["seconds"] > 0
print("  ok:", sys.argv[1], ", ".join(f'{r["flavor"]} {r["result"][:16]}… in {r["seconds"]:.3f} s' for r in runs))
EOF
}

WORK=$SLURM_CI_DIR/work
mkdir -p "$WORK"
cd "$WORK"   # sbatch's submit directory: results/ and slurm-*.out land here
export MULRED=$MULRED_BIN

log "reference: mulred run jobs/demo.job on one process"
REFERENCE=$WORK/reference.json
timeout 120 "$MULRED" run "$ROOT/jobs/demo.job" --json --output "$REFERENCE"

log "sbatch -n 2 slurm/mulred.sbatch jobs/demo.job"
id=$(timeout 30 sbatch --parsable -n 2 -t 5 "$ROOT/slurm/mulred.sbatch" "$ROOT/jobs/demo.job")
wait_job "$id"
grep -q "^mulred " "slurm-$id.out" || die "slurm-$id.out lacks the version line"
check_result "results/$id.json" 2

log "MULRED_LAUNCHER=mpirun sbatch -n 1 -c $CPUS slurm/mulred.sbatch jobs/demo.job"
id=$(MULRED_LAUNCHER=mpirun timeout 30 sbatch --parsable -n 1 -c "$CPUS" -t 5 "$ROOT/slurm/mulred.sbatch" \
    "$ROOT/jobs/demo.job")
wait_job "$id"
grep -q "launcher: mpirun" "slurm-$id.out" || die "slurm-$id.out: mpirun launcher not used"
check_result "results/$id.json" 1 "$CPUS"

log "a failing job: its result file must say so, and Slurm must not say COMPLETED"
printf 'kind = muhash\nsynthetic = 1000\nflavour = kaspa\n' >bad.job
id=$(timeout 30 sbatch --parsable -n 1 -t 5 "$ROOT/slurm/mulred.sbatch" bad.job)
end=$(job_end "$id")
[ "$end" = "FAILED 2:0" ] || die "bad job $id ended '$end', want 'FAILED 2:0'"
grep -q 'bad.job:3: unknown key' "slurm-$id.out" || die "slurm-$id.out lacks the job file error"
grep -q '"status":"failed","exit_status":2' "results/$id.json" || die "results/$id.json: $(cat "results/$id.json")"
echo "  ok: job $id FAILED 2:0 with a failed result file"

log "sweep: slurm/scaling.sh jobs/demo.job --tasks 1,2"
rm -rf results
timeout 20 bash "$ROOT/slurm/scaling.sh" "$ROOT/jobs/demo.job" --tasks 1,2 --chain --time 00:05:00 \
    --report sweep >sweep.out 2>&1 || { cat sweep.out; die "scaling.sh failed"; }
cat sweep.out
mapfile -t ids < <(sed -n 's/^submitted job \([0-9]*\).*/\1/p' sweep.out)
[ ${#ids[@]} -eq 3 ] || die "expected 2 runs and a collect job, got: ${ids[*]}"
for id in "${ids[@]}"; do wait_job "$id"; done
check_result "results/${ids[0]}.json" 1
check_result "results/${ids[1]}.json" 2

log "report"
for f in sweep.md sweep.csv sweep.png; do [ -s "results/$f" ] || die "collect step wrote no results/$f"; done
head -c 8 results/sweep.png | od -An -c | grep -q 'P   N   G' || die "results/sweep.png is not a PNG"
cat results/sweep.md
# Both rows (1 and 2 ranks) of both flavors, ok, in the CSV and in the Markdown table.
python3 - results/sweep.csv <<'EOF' || die "report table lacks rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for flavor in ("bitcoin", "kaspa"):
    got = sorted(int(r["ranks"]) for r in rows if f"muhash {flavor}," in r["workload"] and r["status"] == "ok")
    assert got == [1, 2], (flavor, got)
print("  ok: report rows for 1 and 2 ranks of both flavors")
EOF
[ "$(grep -c '^| 1 | [12] | 1 | [12] | .* | ok | results/' results/sweep.md)" = 4 ] ||
    die "results/sweep.md lacks the 4 ok rows"

log "msm: sbatch -n 2 slurm/mulred.sbatch jobs/msm-2e20.job, and a sweep over 1 and 2 tasks"
MSM_REFERENCE=$WORK/msm-reference.json
timeout 120 "$MULRED" run "$ROOT/jobs/msm-2e20.job" --json --output "$MSM_REFERENCE"
check_msm() { # FILE RANKS: the job's own result equals the one-process run
    python3 - "$1" "$2" "$MSM_REFERENCE" <<'EOF' || die "msm result $1 is wrong"
import json, sys
doc, ranks = json.load(open(sys.argv[1])), int(sys.argv[2])
ref = json.load(open(sys.argv[3]))["runs"][0]
assert doc["status"] == "ok" and doc["exit_status"] == 0, doc["status"]
(run,) = doc["runs"]
assert run["ranks"] == ranks and run["curve"] == "bls12-381", (run["ranks"], run["curve"])
assert run["result"] == ref["result"] and run["points"] == 1 << 20, run["result"]
print(f'  ok: {sys.argv[1]}: {run["points"]} points, grid {run["grid"]["slices"]}x{run["grid"]["groups"]}, msm {run["seconds"]:.3f} s')
EOF
}
id=$(timeout 30 sbatch --parsable -n 2 -t 5 "$ROOT/slurm/mulred.sbatch" "$ROOT/jobs/msm-2e20.job")
wait_job "$id"
check_msm "results/$id.json" 2
rm -rf results
timeout 20 bash "$ROOT/slurm/scaling.sh" "$ROOT/jobs/msm-2e20.job" --tasks 1,2 --chain --time 00:05:00 \
    --report msm-sweep >msm-sweep.out 2>&1 || { cat msm-sweep.out; die "scaling.sh failed (msm)"; }
mapfile -t ids < <(sed -n 's/^submitted job \([0-9]*\).*/\1/p' msm-sweep.out)
[ ${#ids[@]} -eq 3 ] || die "expected 2 msm runs and a collect job, got: ${ids[*]}"
for id in "${ids[@]}"; do wait_job "$id"; done
check_msm "results/${ids[0]}.json" 1
check_msm "results/${ids[1]}.json" 2
cat results/msm-sweep.md
[ "$(grep -c '^| 1 | [12] | 1 | [12] | .* points/s .* | ok | results/' results/msm-sweep.md)" = 2 ] ||
    die "results/msm-sweep.md lacks the 2 ok msm rows"

log "checkpoint: a checkpointed msm job cancelled (scancel) once tiles are saved, then resubmitted"
# The 2^20-point MSM of msm-2e20.job (its reference is above) in tiles of 2^15 points: 32
# units, several seconds on 2 ranks. The directory is relative to the job file.
printf 'kind = msm\ncurve = bls12-381\nsynthetic = 1048576\nseed = 1\ncheckpoint = ck-msm\ncheckpoint-unit = 32768\n' \
    >ckpt.job
rm -rf ck-msm results
tiles() { if [ -d ck-msm ]; then find ck-msm -maxdepth 1 -name 'unit-*.ckpt' | wc -l; else echo 0; fi; }
id=$(timeout 30 sbatch --parsable -n 2 -t 5 "$ROOT/slurm/mulred.sbatch" ckpt.job)
saved=0
deadline=$(( $(date +%s) + JOB_TIMEOUT ))
while [ "$(date +%s)" -lt "$deadline" ]; do
    saved=$(tiles)
    [ "$saved" -ge 2 ] && break
    st=$({ timeout 5 scontrol -o show job "$id" 2>/dev/null || true; } |
        sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case "$st" in PENDING | RUNNING | CONFIGURING | "") ;; *) break ;; esac
    sleep 0.2
done
[ "$saved" -ge 2 ] || { sed 's/^/  | /' "slurm-$id.out" 2>/dev/null || true; die "job $id saved no tiles"; }
timeout 10 scancel "$id"
end=$(job_end "$id")
saved=$(tiles)
[ "${end%% *}" = CANCELLED ] || die "cancelled job $id ended '$end', want CANCELLED"
[ "$saved" -lt 32 ] || die "job $id finished all 32 tiles before scancel"
echo "  ok: job $id $end with $saved of 32 tiles saved"
id=$(timeout 30 sbatch --parsable -n 2 -t 5 "$ROOT/slurm/mulred.sbatch" ckpt.job)
wait_job "$id"
python3 - "results/$id.json" "$MSM_REFERENCE" "$saved" <<'EOF' || die "resumed msm result results/$id.json is wrong"
import json, sys
doc, ref, saved = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["runs"][0], int(sys.argv[3])
assert doc["status"] == "ok" and doc["exit_status"] == 0, doc["status"]
(run,) = doc["runs"]
assert run["result"] == ref["result"], (run["result"], ref["result"])
assert run["resumed_units"] >= saved > 0, (run["resumed_units"], saved)
assert run["resumed_units"] + run["computed_units"] == run["units"] == 32, run
print(f'  ok: {sys.argv[1]}: resumed {run["resumed_units"]}, computed {run["computed_units"]} of {run["units"]} tiles; the uninterrupted result')
EOF

log "passed in $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# A soak of consecutive 3-node jobs on the cluster of scripts/cluster.sh: it counts hangs.
#
#   bash tests/cluster/soak.sh [--jobs N] [--fault-every K] [--stall S] [--hang-after S]
#
# Job i runs through one of three launchers in turn (sbatch -N 3 with srun, sbatch -N 3 with
# mpirun, mpirun -H node1,node2,node3 outside Slurm; the last two through slurm/mulred-launch),
# computes a MuHash or an MSM (a synthetic set of one of five seeds), under the static or the
# dynamic schedule. Every K-th job (default 10) is a checkpointed one with --stall-timeout S
# (default 15) that loses node3 once units are saved, in turn: every process of node3 killed,
# node3's link cut, node3's rank process stopped (its daemons left running); it must end
# non-zero without a result, and its rerun on node1 and node2 must resume to the uninterrupted
# result. Every result is checked against the one-process run. A job still running HANG s
# (default 150) after its start, or after its fault, is a hang: its ranks' stacks are saved in
# the work directory and it is cancelled. Prints the counts and the longest time from a fault to
# the end of its job, and exits non-zero on any hang or wrong result.
#
# Uses the cluster that is up (MULRED_CLUSTER_DIR, default /run/mulred-cluster), else brings one
# up and takes it down at the end. MULRED is the binary (default build/mulred).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
JOBS=200 EVERY=10 STALL=15 HANG=150
while [ $# -gt 0 ]; do
    case $1 in
    --jobs) JOBS=$2; shift 2 ;;
    --fault-every) EVERY=$2; shift 2 ;;
    --stall) STALL=$2; shift 2 ;;
    --hang-after) HANG=$2; shift 2 ;;
    *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1 ;;
    esac
done
MULRED=${MULRED:-$ROOT/build/mulred}
LAUNCH=$ROOT/slurm/mulred-launch
export MULRED_CLUSTER_DIR=${MULRED_CLUSTER_DIR:-/run/mulred-cluster}
CLUSTER=(bash "$ROOT/scripts/cluster.sh")
ours=0
if [ ! -e "$MULRED_CLUSTER_DIR/nodes" ]; then
    "${CLUSTER[@]}" up 3 >/dev/null
    ours=1
fi
# shellcheck disable=SC1091
. "$MULRED_CLUSTER_DIR/env"
W=$(mktemp -d /tmp/mulred-soak.XXXXXX)
cleanup() {
    ip link set mrv-node3 up 2>/dev/null || true
    [ "$ours" = 1 ] && "${CLUSTER[@]}" down >/dev/null 2>&1
    return 0
}
trap cleanup EXIT
cd "$W"
echo "soak: $JOBS jobs, a fault every $EVERY, stall timeout $STALL s; work in $W"

value() { sed -n 's/.*"\(muhash\|result\)":"\([0-9a-f]*\)".*/\2/p' "$1" 2>/dev/null | head -n 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
declare -A REF
ref() { # KEY ARGS...: the one-process value of a job's arguments
    [ -n "${REF[$1]:-}" ] && return 0
    "$MULRED" "${@:2}" --json >"ref.json"
    REF[$1]=$(value ref.json)
}
job_args() { # WORKLOAD SEED: the command's arguments
    case $1 in
    muhash) echo "muhash --synthetic 200000 --seed $2" ;;
    msm) echo "msm --curve $([ $(($2 % 2)) = 0 ] && echo bn254 || echo bls12-381) --synthetic 4096 --seed $2" ;;
    loss-muhash) echo "muhash --synthetic 3000000 --seed $2" ;;
    loss-msm) echo "msm --curve bn254 --synthetic 131072 --seed $2" ;;
    esac
}
write_job() { # FILE ARGS...: a job file of command arguments (--key value pairs)
    local f=$1 kind=$2 k
    shift 2
    echo "kind = $kind" >"$f"
    while [ $# -gt 0 ]; do
        k=${1#--}
        if [ $# -ge 2 ] && [ "${2#--}" = "$2" ]; then echo "$k = $2" >>"$f"; shift 2; else echo "$k = true" >>"$f"; shift; fi
    done
}
stacks() { # TAG: where every mulred process of the cluster waits
    local k p
    for k in 1 2 3; do
        for p in $(ip netns pids "node$k"); do
            tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q 'mulred' || continue
            echo "== node$k pid $p: $(tr '\0' ' ' <"/proc/$p/cmdline" | cut -c1-100)"
            timeout 20 gdb -p "$p" -batch -ex 'thread apply all bt' 2>/dev/null | grep -E '^#|^Thread' | head -80
        done
    done >"stacks-$1.txt"
}
kill_job_leftovers() { # any mulred process left in a node
    local k p
    for k in 1 2 3; do
        for p in $(ip netns pids "node$k"); do
            tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q 'mulred[^ /]* run\|mulred-rank' && kill -9 "$p" 2>/dev/null
        done
    done
    return 0
}
slurm_state() { timeout 5 scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
slurm_exit() { timeout 5 scontrol -o show job "$1" 2>/dev/null | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p'; }

# run LAUNCHER NODES JOBFILE TAG [FAULT]: runs a job; sets RUN_STATUS, RUN_RESULT (the file),
# RUN_HUNG, RUN_FAULT_SECONDS (from the fault to the end)
run() {
    local launcher=$1 nodes=$2 job=$3 tag=$4 fault=${5:-} id pid t0 tf="" st
    RUN_STATUS=0 RUN_HUNG=0 RUN_FAULT_SECONDS="" RUN_RESULT=""
    t0=$(now)
    case $launcher in
    srun | mpirun)
        local ex=()
        [ "$nodes" = 2 ] && ex=(--exclude=node3)
        id=$(MULRED=$MULRED MULRED_LAUNCH=$LAUNCH MULRED_LAUNCHER=$launcher timeout 30 sbatch --parsable --no-requeue -N "$nodes" \
            "${ex[@]}" -t 10 "$ROOT/slurm/mulred.sbatch" "$job")
        RUN_RESULT=results/$id.json
        ;;
    direct)
        local hosts=node1,node2,node3
        [ "$nodes" = 2 ] && hosts=node1,node2
        "$LAUNCH" mpirun -H "$hosts" -n "$nodes" -x OMP_NUM_THREADS=1 "$MULRED" run "$job" --json \
            --output "direct-$tag.json" >/dev/null 2>"direct-$tag.err" &
        pid=$!
        RUN_RESULT=direct-$tag.json
        ;;
    esac
    running() {
        if [ "$launcher" = direct ]; then kill -0 "$pid" 2>/dev/null; else
            case "$(slurm_state "$id")" in PENDING | CONFIGURING | RUNNING | "") return 0 ;; *) return 1 ;; esac
        fi
    }
    if [ -n "$fault" ]; then
        for _ in $(seq 1200); do
            [ "$(find ck -maxdepth 1 -name 'unit-*.ckpt' 2>/dev/null | wc -l)" -ge 2 ] && break
            running || break
            sleep 0.1
        done
        tf=$(now)
        case $fault in
        kill) ip netns pids node3 | xargs -r kill -9 ;;
        link) ip link set mrv-node3 down ;;
        stop) for p in $(ip netns pids node3); do
                  tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q '^[^ ]*mulred[^ /]* run' && kill -STOP "$p"
              done ;;
        esac
    fi
    while running; do
        if awk -v s="$(since "${tf:-$t0}")" -v b="$HANG" 'BEGIN { exit !(s > b) }'; then
            RUN_HUNG=1
            echo "  HUNG: $tag ($launcher${id:+, job $id}) after $(since "${tf:-$t0}") s; stacks in $W/stacks-$tag.txt"
            stacks "$tag"
            if [ "$launcher" = direct ]; then kill -9 "$pid" 2>/dev/null; else scancel "$id"; fi
            kill_job_leftovers
            break
        fi
        sleep 0.25
    done
    [ -n "$tf" ] && RUN_FAULT_SECONDS=$(since "$tf")
    if [ "$launcher" = direct ]; then
        st=0
        wait "$pid" 2>/dev/null || st=$?
        RUN_STATUS=$st
    else
        RUN_STATUS=$(slurm_exit "$id")
    fi
    if [ -n "$fault" ]; then
        ip link set mrv-node3 up
        for p in $(ip netns pids node3); do kill -CONT "$p" 2>/dev/null || true; done
        kill_job_leftovers
        "${CLUSTER[@]}" up 3 >/dev/null 2>&1 || true
        for _ in $(seq 240); do # node3 back in service
            sinfo -h -n node3 -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
            scontrol update nodename=node3 state=resume >/dev/null 2>&1 || true
            sleep 0.5
        done
    fi
}

launchers=(srun mpirun direct)
ran=0 right=0 wrong=0 faulted=0 late=0 hung=0 longest=0
for i in $(seq 0 $((JOBS - 1))); do
    launcher=${launchers[i % 3]}
    workload=$([ $(((i / 3) % 2)) = 0 ] && echo muhash || echo msm)
    schedule=$([ $(((i / 6) % 2)) = 0 ] && echo static || echo dynamic)
    seed=$((i % 5))
    tag=$i-$launcher-$workload-$schedule
    if [ $((i % EVERY)) = $((EVERY - 1)) ]; then
        faults=(kill link stop)
        fault=${faults[(i / EVERY) % 3]}
        # shellcheck disable=SC2046
        ref "loss-$workload-$seed" $(job_args "loss-$workload" "$seed")
        rm -rf ck
        # shellcheck disable=SC2046
        unit=16
        [ "$workload" = msm ] && unit=4096
        write_job "$tag.job" $(job_args "loss-$workload" "$seed") --schedule "$schedule" \
            --checkpoint ck --checkpoint-unit "$unit" --stall-timeout "$STALL"
        run "$launcher" 3 "$tag.job" "$tag" "$fault"
        ran=$((ran + 1))
        tag_fault="$tag ($fault)"
        if [ "$RUN_HUNG" = 1 ]; then
            hung=$((hung + 1))
        elif [ "$RUN_STATUS" != 0 ] && [ -z "$(value "$RUN_RESULT")" ]; then
            faulted=$((faulted + 1))
            longest=$(awk -v a="$longest" -v b="$RUN_FAULT_SECONDS" 'BEGIN { print (b > a ? b : a) }')
            if awk -v s="$RUN_FAULT_SECONDS" -v b="$((STALL + 30))" 'BEGIN { exit !(s > b) }'; then
                late=$((late + 1))
                echo "  LATE: $tag_fault ended $RUN_FAULT_SECONDS s after the fault (bound $((STALL + 30)) s)"
            fi
        else
            wrong=$((wrong + 1))
            echo "  WRONG: $tag_fault: status $RUN_STATUS, result '$(value "$RUN_RESULT")' after the fault"
        fi
        echo "job $i: $tag_fault ended with status $RUN_STATUS $RUN_FAULT_SECONDS s after the fault"
        run "$launcher" 2 "$tag.job" "$tag-resume"
        ran=$((ran + 1))
        resumed=$(sed -n 's/.*"resumed_units":\([0-9]*\).*/\1/p' "$RUN_RESULT" 2>/dev/null | head -n 1)
        if [ "$RUN_HUNG" = 1 ]; then
            hung=$((hung + 1))
        elif [ "$RUN_STATUS" = 0 ] && [ "$(value "$RUN_RESULT")" = "${REF[loss-$workload-$seed]}" ] &&
            [ "${resumed:-0}" -gt 0 ]; then
            right=$((right + 1))
        else
            wrong=$((wrong + 1))
            echo "  WRONG: $tag resumed: status $RUN_STATUS, resumed ${resumed:-0}, '$(value "$RUN_RESULT")'"
        fi
        continue
    fi
    # shellcheck disable=SC2046
    ref "$workload-$seed" $(job_args "$workload" "$seed")
    # shellcheck disable=SC2046
    write_job "$tag.job" $(job_args "$workload" "$seed") --schedule "$schedule"
    run "$launcher" 3 "$tag.job" "$tag"
    ran=$((ran + 1))
    if [ "$RUN_HUNG" = 1 ]; then
        hung=$((hung + 1))
    elif [ "$RUN_STATUS" = 0 ] && [ "$(value "$RUN_RESULT")" = "${REF[$workload-$seed]}" ]; then
        right=$((right + 1))
    else
        wrong=$((wrong + 1))
        echo "  WRONG: $tag: status $RUN_STATUS, '$(value "$RUN_RESULT")'"
    fi
    [ $((i % 20)) = 19 ] && echo "soak: $((i + 1)) of $JOBS: $right right, $wrong wrong, $faulted ended by a fault, $hung hung"
done
echo "soak: $ran jobs ran: $right gave the expected result, $faulted ended by a fault" \
    "($late of them later than the stall timeout + 30 s), $wrong wrong, $hung hung; longest" \
    "fault to exit ${longest} s (stall timeout $STALL s)"
[ "$hung" = 0 ] && [ "$wrong" = 0 ] && [ "$late" = 0 ]

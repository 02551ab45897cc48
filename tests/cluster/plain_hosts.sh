#!/usr/bin/env bash
# mulred across hosts built the plain way, with Open MPI's defaults: three network namespaces on
# a private bridge, ranks started with `ip netns exec` (one shared /tmp and host name), and
# mpirun given only `--mca btl tcp,self` and the subnet for btl_tcp_if_include and
# oob_tcp_if_include: no keepalives, no timeouts, no one-sided or transport settings. Checks:
#  - `--schedule dynamic` gives the one-process result for MuHash and MSM, RUNS times each, and
#    says which hand-out it used (this MPI's one-sided component fails here: the coordinator);
#  - a checkpointed 3-host MuHash job with --stall-timeout STALL, once per fault: node3's link
#    cut, every process of node3 killed, node3's rank process stopped (its daemon left running).
#    Each must end non-zero within STALL + 30 s with no result printed, and the rerun on two
#    hosts resume (resumed_units > 0) to the uninterrupted digest.
#
#   bash tests/cluster/plain_hosts.sh [--runs N] [--stall S] [--faults all|none]
#
# Needs root and iproute2; MULRED is the binary (default build/mulred). The subnet is
# MULRED_PLAIN_NET (default 10.213.78: the bridge .1, hostK .(10+K)); only these addresses are
# contacted. Everything it made is removed on exit. Exits 77 when namespaces cannot be made.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
RUNS=20 STALL=30 FAULTS=all
while [ $# -gt 0 ]; do
    case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --stall) STALL=$2; shift 2 ;;
    --faults) FAULTS=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--stall S] [--faults all|none]" >&2; exit 1 ;;
    esac
done
MULRED=${MULRED:-$ROOT/build/mulred}
NET=${MULRED_PLAIN_NET:-10.213.78}
BR=mrplainbr0
W=$(mktemp -d /tmp/mulred-plain.XXXXXX)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI's defaults: no MCA settings from the environment (a cluster's parameter file, say)
for v in $(env | sed -n 's/^\(OMPI_MCA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
failures=0 checks=0
log() { echo "== plain hosts: $*"; }
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { checks=$((checks + 1)); }

[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root"; exit 77; }
ip netns add mrplain-probe-$$ 2>/dev/null || { echo "SKIPPED: cannot make network namespaces"; exit 77; }
ip netns del mrplain-probe-$$
[ -x "$MULRED" ] || { echo "no mulred binary at $MULRED" >&2; exit 1; }
if ip -4 -o addr show | grep -F " $NET." | grep -vq " $BR "; then
    echo "subnet $NET.0/24 is in use here; set MULRED_PLAIN_NET" >&2
    exit 1
fi

teardown() {
    local k
    for k in 1 2 3; do
        ip netns pids "plainhost$k" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "plainhost$k" 2>/dev/null || true
        ip link del "mrp-host$k" 2>/dev/null || true
    done
    ip link del "$BR" 2>/dev/null || true
    rm -rf "$W"
}
trap teardown EXIT
trap 'exit 130' INT TERM

ip link add "$BR" type bridge
ip addr add "$NET.1/24" dev "$BR"
ip link set "$BR" up
for k in 1 2 3; do
    ip netns add "plainhost$k"
    ip link add "mrp-host$k" type veth peer name eth0 netns "plainhost$k"
    ip link set "mrp-host$k" master "$BR" up
    ip -n "plainhost$k" addr add "$NET.$((10 + k))/24" dev eth0
    ip -n "plainhost$k" link set eth0 up
    ip -n "plainhost$k" link set lo up
done
# Open MPI's rsh agent: the command inside the namespace named as the host. Each host gets its
# own TMPDIR under the shared /tmp: Open MPI names its session directories by host name, which
# the namespaces share, and three daemons making the same directory at once fail now and then
# ("mkdir ... File exists", exit 213) whatever runs in them.
cat >"$W/agent" <<EOF
#!/bin/sh
while [ \$# -gt 0 ] && [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1
shift
mkdir -p "$W/tmp-\$host"
TMPDIR="$W/tmp-\$host" exec ip netns exec "\$host" sh -c "\$*"
EOF
chmod 0755 "$W/agent"
HOSTS=plainhost1,plainhost2,plainhost3
plain_mpirun() { # HOSTS: PM is mpirun with nothing but the plain settings, for these hosts
    PM=(mpirun --mca plm_rsh_agent "$W/agent" --mca btl tcp,self --mca btl_tcp_if_include "$NET.0/24"
        --mca oob_tcp_if_include "$NET.0/24" -H "$1" -n "$(tr ',' '\n' <<<"$1" | wc -l)"
        --bind-to none -x OMP_NUM_THREADS=1)
}
value() { sed -n 's/.*"\(muhash\|result\)":"\([0-9a-f]*\)".*/\2/p'; }
handout() { sed -n 's/.*"handout":"\([a-z]*\)".*/\1/p'; }

# ---- the dynamic schedule, RUNS times per workload ----
cd "$W"
declare -A REF
REF[muhash]=$("$MULRED" muhash --synthetic 1000000 --seed 7 --json | value)
REF[msm]=$("$MULRED" msm --curve bls12-381 --synthetic 8192 --seed 3 --json | value)
args_muhash=(muhash --synthetic 1000000 --seed 7 --schedule dynamic --json)
args_msm=(msm --curve bls12-381 --synthetic 8192 --seed 3 --schedule dynamic --checkpoint-unit 1024 --json)
for kind in muhash msm; do
    ok=0 hand=""
    declare -n args=args_$kind
    for run in $(seq "$RUNS"); do
        st=0
        plain_mpirun "$HOSTS"
        timeout 300 "${PM[@]}" "$MULRED" "${args[@]}" >out 2>err || st=$?
        if [ "$st" = 0 ] && [ "$(value <out)" = "${REF[$kind]}" ]; then
            ok=$((ok + 1)) hand=$(handout <out)
        else
            echo "  run $run of $kind: exit $st, $(head -c 300 err)" >&2
        fi
    done
    unset -n args
    log "--schedule dynamic, $kind: $ok of $RUNS runs gave the one-process result (hand-out: ${hand:-?})"
    [ "$ok" = "$RUNS" ] && pass || fail "$kind: only $ok of $RUNS dynamic runs right"
done

# ---- faults with Open MPI's default timeouts ----
units() { if [ -d "$W/ck" ]; then find "$W/ck" -maxdepth 1 -name 'unit-*.ckpt' | wc -l; else echo 0; fi; }
rank_pid() { # the pid of the mulred rank in namespace NS
    local pid
    for pid in $(ip netns pids "$1"); do
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q '^[^ ]*mulred[^ /]* muhash' &&
            { echo "$pid"; return 0; }
    done
    return 0
}
LOSS=(muhash --synthetic 4000000 --seed 9 --checkpoint "$W/ck" --checkpoint-unit 16 --json)
fault() { # HOW: link | kill | stop
    local how=$1 pid t0 st=0 secs
    rm -rf "$W/ck"
    # through mulred-launch: a bare mpirun waits for its daemon behind a cut link until Open MPI's
    # out-of-band keepalive gives up (300 s idle, then 9 probes 20 s apart, by default)
    plain_mpirun "$HOSTS"
    timeout $((STALL * 10 + 600)) "$ROOT/slurm/mulred-launch" "${PM[@]}" "$MULRED" "${LOSS[@]}" \
        --stall-timeout "$STALL" >fault.out 2>fault.err &
    pid=$!
    for _ in $(seq 1200); do [ "$(units)" -ge 3 ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    t0=$(date +%s.%N)
    case $how in
    link) ip link set mrp-host3 down ;;
    kill) ip netns pids plainhost3 | xargs -r kill -9 ;;
    stop) pid3=$(rank_pid plainhost3); [ -n "$pid3" ] && kill -STOP "$pid3" ;;
    esac
    wait "$pid" || st=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    ip link set mrp-host3 up
    ip netns pids plainhost3 | xargs -r kill -9 2>/dev/null || true
    log "fault '$how' with $(units) units saved: exit $st after $secs s (stall timeout $STALL s): $(grep -m1 'silent\|waited' fault.err || true)"
    [ "$st" != 0 ] && [ "$st" != 124 ] && pass || fail "fault $how: exit $st"
    awk -v s="$secs" -v b=$((STALL + 30)) 'BEGIN { exit !(s <= b) }' && pass ||
        fail "fault $how: the job took $secs s to end (bound $((STALL + 30)) s)"
    [ -z "$(value <fault.out)" ] && pass || fail "fault $how: a result was printed"
    st=0
    plain_mpirun plainhost1,plainhost2
    timeout 300 "${PM[@]}" "$MULRED" "${LOSS[@]}" >resume.out 2>resume.err || st=$?
    local resumed
    resumed=$(sed -n 's/.*"resumed_units":\([0-9]*\).*/\1/p' resume.out)
    log "  rerun on 2 hosts: exit $st, resumed ${resumed:-0} units"
    [ "$st" = 0 ] && [ "${resumed:-0}" -gt 0 ] && [ "$(value <resume.out)" = "$LOSS_REF" ] && pass ||
        fail "fault $how: the rerun did not resume to the uninterrupted digest: $(head -c 300 resume.err)"
}
if [ "$FAULTS" = all ]; then
    LOSS_REF=$("$MULRED" muhash --synthetic 4000000 --seed 9 --json | value)
    for how in link kill stop; do fault "$how"; done
fi
echo "$checks passed, $failures failed"
[ "$failures" = 0 ]

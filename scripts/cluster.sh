#!/usr/bin/env bash
# A test cluster of N hosts on this machine: each node is a network namespace with its own
# address on a private bridge, its own slurmd, reachable by Open MPI without ssh.
#
#   bash scripts/cluster.sh up N [--bandwidth RATE]   nodes node1…nodeN (idempotent: restarts
#                                                     daemons that are gone, keeps the rest)
#   bash scripts/cluster.sh exec NODE CMD…            CMD inside NODE (or "host": this machine's
#                                                     namespace) with the cluster's environment:
#                                                     sbatch, srun, scontrol talk to this cluster
#   bash scripts/cluster.sh env                       the export lines of that environment
#   bash scripts/cluster.sh status                    nodes, daemons, Slurm's view
#   bash scripts/cluster.sh live                      exit 0 if a daemon this cluster started
#                                                     still runs (a state directory without one
#                                                     was left by a run that was killed)
#   bash scripts/cluster.sh down                      stops what it started, removes all it made
#
# Needs root (Debian 12; packages installed when missing). Everything lives in
# MULRED_CLUSTER_DIR (default /run/mulred-cluster): slurm.conf and mpi.conf, Open MPI's MCA
# file, the host file, the rsh agent, munge key and socket, Slurm state, spools, logs and pid
# files. The subnet is MULRED_CLUSTER_NET (default 10.213.77; the bridge is .1, nodeK is
# .(10+K)); `up` refuses a subnet this machine already routes. Only these addresses are ever
# contacted.
#
# What the cluster is made of:
#  - bridge mulredbr0 with the subnet's .1; per node a veth pair mrv-nodeK (host side, in the
#    bridge) / eth0 (in namespace nodeK), loopback up; --bandwidth RATE (tc syntax, e.g.
#    100mbit) puts a tbf qdisc on both ends of each pair;
#  - munged with the cluster's own key and socket, run as user munge;
#  - slurmctld on this machine (SlurmctldHost=$(hostname)(bridge address), port 6937) and one
#    `slurmd -N nodeK` per node (port 6938 in its namespace), started through
#    `nsenter --net=/var/run/netns/nodeK` (`ip netns exec` remounts /sys and slurmd then fails
#    on its cgroup plugin) and a private mount namespace where TmpFS is the node's own
#    directory (PMIx names its directories by job and step only); proctrack/linuxproc, task/none, no accounting (cgroups do not work
#    in this VM); Slurm's default timeouts (a lost node: mulred's own stall timeout ends the job);
#  - Open MPI: an rsh agent (bin/rsh-agent) that runs the remote daemon inside the node's
#    namespace with MULRED_NODE_NAME=nodeK and TMPDIR the node's own directory, and an MCA file:
#    pml ob1 with btl tcp,self (without `pml ob1` Open MPI takes libfabric's provider and ignores
#    the btl line), Debian's exclusions repeated (osc ucx, mtl ofi: no UCX in the ranks) and the
#    OOB on the cluster subnet only; Open MPI's default timeouts.
# Different ports, state directory and cluster name from .ci/slurm.sh, so the two can coexist.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/common.sh disable=SC1091
. "$here/common.sh"

S=${MULRED_CLUSTER_DIR:-/run/mulred-cluster}
NET=${MULRED_CLUSTER_NET:-10.213.77}
BRIDGE=mulredbr0
CTLD_PORT=6937
SLURMD_PORT=6938
CLUSTER_PACKAGES=(iproute2 util-linux munge slurmctld slurmd slurm-client openmpi-bin)

log() { echo "cluster: $*" >&2; }
die() { echo "cluster: error: $*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 1; }

node_addr() { echo "$NET.$((10 + ${1#node}))"; }
nodes_up() { # the nodes this cluster made, in order
    [ -f "$S/nodes" ] && cat "$S/nodes"
    return 0
}

# ---- processes: only those whose pid file this script wrote, and only if still the same ----
# alive NAME PATTERN: true if the pid in $S/pids/NAME.pid runs a command line matching PATTERN.
alive() {
    local f=$S/pids/$1.pid pid
    [ -s "$f" ] || return 1
    pid=$(cat "$f")
    [ -r "/proc/$pid/cmdline" ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$2"
}
stop() { # NAME PATTERN: stops that process (TERM, then KILL after 10 s) and removes its pid file
    local f=$S/pids/$1.pid pid
    if alive "$1" "$2"; then
        pid=$(cat "$f")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
        log "stopped $1 (pid $pid)"
    fi
    rm -f "$f"
}
# spawn NAME CMD…: starts a daemon in the foreground mode, detached from this shell, and
# records its pid (CMD execs the daemon, so $! is the daemon itself).
spawn() {
    local name=$1
    shift
    setsid "$@" >"$S/log/$name.out" 2>&1 </dev/null &
    echo $! >"$S/pids/$name.pid"
}

write_config() { # N
    local n=$1 cpus k
    cpus=$(nproc --all)
    install -d -m 0755 "$S" "$S"/{etc,bin,state,spool,log,pids,tmp}
    install -d -m 1777 "$S/nodetmp"
    install -d -o munge -g munge -m 0755 "$S/munge"
    if [ ! -s "$S/munge/munge.key" ]; then
        dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 status=none
        chown munge:munge "$S/munge/munge.key"
        chmod 0400 "$S/munge/munge.key"
    fi
    : >"$S/hostfile"
    for k in $(seq "$n"); do echo "node$k slots=$cpus" >>"$S/hostfile"; done
    seq -f 'node%g' "$n" >"$S/nodes"
    cat >"$S/etc/slurm.conf" <<EOF
# Written by scripts/cluster.sh: $n nodes in network namespaces on this machine.
ClusterName=mulredcluster
SlurmctldHost=$(hostname)($NET.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/munge.socket
SlurmUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool/%n
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.%n.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
EnforcePartLimits=ALL
SchedulerParameters=sched_interval=1
KillWait=5
# Each node's slurmd runs in a mount namespace where this path is the node's own directory:
# PMIx's per-step directories (named by job and step, not node) would collide in a shared /tmp.
TmpFS=$S/nodetmp
# ... and every task's TMPDIR (Open MPI's session directories are named by host name).
TaskProlog=$S/bin/task-prolog
NodeName=DEFAULT CPUs=$cpus State=UNKNOWN
EOF
    for k in $(seq "$n"); do echo "NodeName=node$k NodeAddr=$(node_addr "$k")" >>"$S/etc/slurm.conf"; done
    echo "PartitionName=cluster Nodes=ALL Default=YES MaxTime=60 State=UP" >>"$S/etc/slurm.conf"
    # Slurm's PMIx plugin (beside slurm.conf): every fence on a tree, not "mixed"
    # (docs/reliability.md, rank 0's SIGSEGV at the start of an srun step)
    echo "PMIxCollFence=tree" >"$S/etc/mpi.conf"

    cat >"$S/etc/openmpi-mca-params.conf" <<EOF
# Open MPI across the namespaces of scripts/cluster.sh: TCP on the cluster subnet only, no ssh.
plm_rsh_agent = $S/bin/rsh-agent
# ob1, so that the TCP transport named below is the one used: left to itself Open MPI picks pml
# cm with libfabric's provider, which ignores btl settings and lost a rank's last message when
# the rank exited (docs/reliability.md, the hang at the end of an srun step)
pml = ob1
btl = tcp,self
# This file replaces Debian's /etc/openmpi/openmpi-mca-params.conf, so its exclusions are repeated:
# without them every rank loads UCX (osc ucx) and its memory hooks, for a transport not used here.
osc = ^ucx,pt2pt
mtl = ^ofi
btl_tcp_if_include = $NET.0/24
oob_tcp_if_include = $NET.0/24
rmaps_base_oversubscribe = 1
hwloc_base_binding_policy = none
EOF
    # Open MPI calls AGENT [options] HOST COMMAND…; the command runs in HOST's namespace.
    cat >"$S/bin/rsh-agent" <<EOF
#!/bin/sh
# Open MPI's rsh agent for scripts/cluster.sh: runs the command inside node HOST's namespace.
while [ \$# -gt 0 ] && [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1
shift
[ -e "/var/run/netns/\$host" ] || { echo "rsh-agent: no node \$host" >&2; exit 255; }
# The node's own temporary directory: Open MPI's session directories (and PMIx's shared-memory
# store in them) are named by host name, which every namespace shares.
mkdir -p "$S/tmp/\$host" && chmod 1777 "$S/tmp/\$host"
MULRED_NODE_NAME=\$host TMPDIR=$S/tmp/\$host exec nsenter --net="/var/run/netns/\$host" -- /bin/sh -c "\$*"
EOF
    chmod 0755 "$S/bin/rsh-agent"
    printf '#!/bin/sh\necho "export TMPDIR=%s"\n' "$S/nodetmp" >"$S/bin/task-prolog"
    chmod 0755 "$S/bin/task-prolog"
    env_lines >"$S/env"
}

env_lines() {
    cat <<EOF
export SLURM_CONF=$S/etc/slurm.conf
export OMPI_MCA_mca_base_param_files=$S/etc/openmpi-mca-params.conf
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MULRED_CLUSTER_DIR=$S
export PMIX_MCA_gds=hash
EOF
}

check_subnet() {
    # The bridge of an earlier `up` owns the subnet; anything else routing it is a conflict.
    local other
    other=$(ip -4 route show to match "$NET.1" | grep -v "dev $BRIDGE" | grep -v '^default' || true)
    [ -z "$other" ] || die "subnet $NET.0/24 is already routed here ($other); set MULRED_CLUSTER_NET"
    other=$(ip -4 -o addr show | grep -F " $NET." | grep -v " $BRIDGE " || true)
    [ -z "$other" ] || die "an interface already has an address in $NET.0/24: $other"
}

make_network() { # N RATE
    local n=$1 rate=$2 k ns veth
    if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
        ip link add "$BRIDGE" type bridge
        ip addr add "$NET.1/24" dev "$BRIDGE"
    fi
    ip link set "$BRIDGE" up
    for k in $(seq "$n"); do
        ns=node$k veth=mrv-node$k
        [ -e "/var/run/netns/$ns" ] || ip netns add "$ns"
        if ! ip link show "$veth" >/dev/null 2>&1; then
            ip link add "$veth" type veth peer name eth0 netns "$ns"
            ip link set "$veth" master "$BRIDGE"
        fi
        ip link set "$veth" up
        ip -n "$ns" link set lo up
        ip -n "$ns" addr replace "$(node_addr "$k")/24" dev eth0
        ip -n "$ns" link set eth0 up
        if [ -n "$rate" ]; then
            tc qdisc replace dev "$veth" root tbf rate "$rate" burst 64kb latency 100ms
            tc -n "$ns" qdisc replace dev eth0 root tbf rate "$rate" burst 64kb latency 100ms
        else
            tc qdisc del dev "$veth" root 2>/dev/null || true
            tc -n "$ns" qdisc del dev eth0 root 2>/dev/null || true
        fi
    done
}

start_daemons() { # N
    local n=$1 k state idle deadline
    if ! alive munged "munged"; then
        rm -f "$S/munge/munge.socket" "$S/munge/munge.socket.lock"
        spawn munged setpriv --reuid munge --regid munge --init-groups -- /usr/sbin/munged -F \
            --socket="$S/munge/munge.socket" --key-file="$S/munge/munge.key" \
            --log-file="$S/munge/munged.log" --pid-file="$S/munge/munged.pid" \
            --seed-file="$S/munge/munged.seed"
        for _ in $(seq 50); do [ -S "$S/munge/munge.socket" ] && break; sleep 0.1; done
        munge -S "$S/munge/munge.socket" -n | unmunge -S "$S/munge/munge.socket" >/dev/null ||
            die "munged does not answer on $S/munge/munge.socket"
    fi
    if ! alive slurmctld "slurmctld.*$S/etc/slurm.conf"; then
        spawn slurmctld /usr/sbin/slurmctld -D -c -f "$S/etc/slurm.conf"
    else
        # a changed node count: slurmctld reads slurm.conf again
        SLURM_CONF=$S/etc/slurm.conf scontrol reconfigure >/dev/null 2>&1 || true
    fi
    for k in $(seq "$n"); do
        alive "slurmd.node$k" "slurmd.*-N node$k" && continue
        install -d -m 0755 "$S/spool/node$k"
        install -d -m 1777 "$S/tmp/node$k"
        # nsenter and unshare exec, so the recorded pid is slurmd's.
        # shellcheck disable=SC2016  # expanded by that shell
        # PMIX_MCA_gds=hash: the PMIx servers of the steps keep job data in their own memory and
        # answer over their socket; the default store (gds ds21/ds12: files, shared memory and
        # pthread locks beside them) crashed a rank at start-up now and then (docs/cluster.md).
        spawn "slurmd.node$k" env PMIX_MCA_gds=hash nsenter --net="/var/run/netns/node$k" -- \
            unshare --mount --propagation private -- /bin/sh -c \
            'mount --bind "$1" "$2" && exec /usr/sbin/slurmd -D -f "$3" -N "$4"' sh \
            "$S/tmp/node$k" "$S/nodetmp" "$S/etc/slurm.conf" "node$k"
    done
    export SLURM_CONF=$S/etc/slurm.conf
    deadline=$(($(date +%s) + 40))
    while :; do
        idle=0
        for k in $(seq "$n"); do
            state=$(timeout 5 sinfo -h -n "node$k" -o %T 2>/dev/null || true)
            case "$state" in
            idle | mixed | allocated | completing) idle=$((idle + 1)) ;;
            down* | drain*) timeout 5 scontrol update NodeName="node$k" State=RESUME >/dev/null 2>&1 || true ;;
            esac
        done
        [ "$idle" = "$n" ] && break
        [ "$(date +%s)" -lt "$deadline" ] || die "only $idle of $n nodes up after 40 s (see $S/log)"
        sleep 0.5
    done
}

cmd_up() {
    local n="" rate="" t0
    t0=$(date +%s)
    while [ $# -gt 0 ]; do
        case "$1" in
        --bandwidth) rate=${2:?--bandwidth RATE}; shift 2 ;;
        [1-9] | [1-9][0-9]) n=$1; shift ;;
        *) usage ;;
        esac
    done
    [ -n "$n" ] || usage
    [ "$(id -u)" = 0 ] || die "must run as root (namespaces, bridge, daemons)"
    install_packages "${CLUSTER_PACKAGES[@]}"
    local old
    old=$(nodes_up | wc -l)
    if [ "$old" -gt "$n" ]; then die "$old nodes are up; run down first to have $n"; fi
    check_subnet
    # more nodes than before: slurmctld learns new nodes only when it starts
    [ "$old" -gt 0 ] && [ "$old" -lt "$n" ] && stop slurmctld "slurmctld.*$S/etc/slurm.conf"
    write_config "$n"
    make_network "$n" "$rate"
    start_daemons "$n"
    log "up: $n nodes ($NET.11-$((10 + n))) in $(($(date +%s) - t0)) s; state in $S"
}

cmd_down() {
    local ns k pids
    if [ -d "$S" ]; then
        # every slurmd told first, then each waited for: they stop in parallel
        for f in "$S"/pids/slurmd.node*.pid; do
            [ -e "$f" ] || continue
            k=$(basename "$f" .pid)
            alive "$k" "slurmd.*-N ${k#slurmd.}" && kill "$(cat "$f")" 2>/dev/null
        done
        for f in "$S"/pids/slurmd.node*.pid; do
            [ -e "$f" ] || continue
            k=$(basename "$f" .pid)
            stop "$k" "slurmd.*-N ${k#slurmd.}"
        done
        stop slurmctld "slurmctld.*$S/etc/slurm.conf"
        stop munged "munged"
    fi
    # the namespaces and links this cluster made (named in $S/nodes)
    for ns in $(nodes_up); do
        ip link del "mrv-$ns" 2>/dev/null || true
        if [ -e "/var/run/netns/$ns" ]; then
            # What still runs in the node was started through this cluster (a job's leftovers:
            # proctrack/linuxproc loses a process whose parent died, such as the srun that
            # mpirun starts): stop it, then the namespace goes.
            pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
            if [ -n "${pids// /}" ]; then
                log "stopping what still runs in $ns: $pids"
                # shellcheck disable=SC2086
                kill $pids 2>/dev/null || true
                for _ in $(seq 30); do [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break; sleep 0.1; done
                pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
                # shellcheck disable=SC2086
                [ -z "${pids// /}" ] || kill -9 $pids 2>/dev/null || true
            fi
            ip netns del "$ns" 2>/dev/null || true
        fi
    done
    ip link del "$BRIDGE" 2>/dev/null || true
    rm -rf "$S"
    log "down"
}

cmd_status() {
    local ns k
    if [ ! -f "$S/nodes" ]; then echo "cluster: not up"; return 0; fi
    echo "state: $S; bridge $BRIDGE $NET.1/24"
    for ns in $(nodes_up); do
        k=${ns#node}
        printf '%s %s slurmd %s, link %s, rx %s tx %s bytes\n' "$ns" "$(node_addr "$k")" \
            "$(alive "slurmd.$ns" "slurmd.*-N $ns" && echo running || echo stopped)" \
            "$(cat "/sys/class/net/mrv-$ns/operstate" 2>/dev/null || echo gone)" \
            "$(cat "/sys/class/net/mrv-$ns/statistics/tx_bytes" 2>/dev/null || echo -)" \
            "$(cat "/sys/class/net/mrv-$ns/statistics/rx_bytes" 2>/dev/null || echo -)"
    done
    echo "munged $(alive munged munged && echo running || echo stopped)," \
        "slurmctld $(alive slurmctld slurmctld && echo running || echo stopped)"
    SLURM_CONF=$S/etc/slurm.conf timeout 5 sinfo -N -o '%N %T %c' 2>/dev/null || true
}

cmd_live() {
    local f k
    [ -f "$S/nodes" ] || return 1
    alive munged munged && return 0
    alive slurmctld "slurmctld.*$S/etc/slurm.conf" && return 0
    for f in "$S"/pids/slurmd.node*.pid; do
        [ -e "$f" ] || continue
        k=$(basename "$f" .pid)
        alive "$k" "slurmd.*-N ${k#slurmd.}" && return 0
    done
    return 1
}

cmd_exec() {
    local node=${1:?exec NODE CMD…}
    shift
    [ $# -gt 0 ] || usage
    [ -f "$S/env" ] || die "the cluster is not up"
    # shellcheck disable=SC1091
    . "$S/env"
    if [ "$node" = host ]; then exec "$@"; fi
    [ -e "/var/run/netns/$node" ] || die "no node $node"
    exec nsenter --net="/var/run/netns/$node" -- "$@"
}

case "${1:-}" in
up) shift; cmd_up "$@" ;;
down) cmd_down ;;
status) cmd_status ;;
live) cmd_live ;;
exec) shift; cmd_exec "$@" ;;
env) [ -f "$S/env" ] || die "the cluster is not up"; cat "$S/env" ;;
*) usage ;;
esac

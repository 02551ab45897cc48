#!/usr/bin/env bash
# Strong-scaling sweep: one sbatch job per configuration (job arrays cannot vary node counts),
# then a collect job that runs `mulred report` over all of them, failed ones included.
#
#   bash slurm/scaling.sh jobs/muhash-1e8.job --nodes 1,2,4,8 --tasks-per-node 1 --cpus-per-task 32
#   bash slurm/scaling.sh jobs/demo.job --tasks 1,2            # ranks on one node
#
# Options:
#   --nodes LIST           node counts (sbatch -N); with --tasks-per-node (default 1)
#   --tasks LIST           task counts (sbatch -n), for sweeps inside one node
#   --tasks-per-node N     ranks per node with --nodes
#   --cpus-per-task C      OpenMP threads per rank (default 1)
#   --chain                run the jobs one after another (--dependency=afterok): runs of a
#                          sweep then never share nodes or network; a failure cancels the rest
#                          (--kill-on-invalid-dep), and the report shows them as never finished
#   --report NAME          collect into results/NAME.{md,csv,png} (default scaling-<first id>)
#   --time T               sbatch time limit per job (default 01:00:00)
#   -- ARGS                further sbatch options for every job (partition, account, …)
#
# Prints one "submitted job ID: …" line per job, the collect job last. Before each job runs, its
# results/ID.json holds a {"status":"submitted"} placeholder, so a job that never produces a
# result still appears in the report.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 1; }

JOB=${1:-}
if [ -z "$JOB" ] || [ "${JOB#-}" != "$JOB" ]; then usage; fi
shift
nodes="" tasks="" tpn=1 cpt=1 chain=0 name="" time=01:00:00 extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    --nodes) nodes=${2:?}; shift 2 ;;
    --tasks) tasks=${2:?}; shift 2 ;;
    --tasks-per-node) tpn=${2:?}; shift 2 ;;
    --cpus-per-task) cpt=${2:?}; shift 2 ;;
    --chain) chain=1; shift ;;
    --report) name=${2:?}; shift 2 ;;
    --time) time=${2:?}; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) usage ;;
    *) echo "scaling.sh: unknown option $1" >&2; usage ;;
    esac
done
[ -r "$JOB" ] || { echo "scaling.sh: cannot read job file $JOB" >&2; exit 2; }
if { [ -n "$nodes" ] && [ -n "$tasks" ]; } || { [ -z "$nodes" ] && [ -z "$tasks" ]; }; then
    echo "scaling.sh: give exactly one of --nodes LIST and --tasks LIST" >&2; exit 1
fi
list=${nodes:-$tasks}
[[ $list =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || { echo "scaling.sh: bad list '$list'" >&2; exit 1; }
for v in "$tpn" "$cpt"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: bad count '$v'" >&2; exit 1; }
done

results=${MULRED_RESULTS:-results}
mkdir -p "$results"
ids=() files=() prev=""
IFS=, read -r -a counts <<<"$list"
for n in "${counts[@]}"; do
    if [ -n "$nodes" ]; then
        shape=(-N "$n" --ntasks-per-node="$tpn"); ranks=$((n * tpn)); nn=$n
    else
        shape=(-n "$n"); ranks=$n; nn=1
    fi
    dep=()
    [ "$chain" = 1 ] && [ -n "$prev" ] && dep=(--dependency=afterok:"$prev" --kill-on-invalid-dep=yes)
    id=$(sbatch --parsable "${shape[@]}" --cpus-per-task="$cpt" --time="$time" \
        --job-name="mulred-scaling" "${dep[@]}" "${extra[@]}" "$here/mulred.sbatch" "$JOB")
    id=${id%%;*}
    # Placeholder, created only if the job has not already written its result (noclobber).
    job_json=$(printf '%s' "$JOB" | sed 's/\\/\\\\/g; s/"/\\"/g')
    (set -o noclobber
     printf '{"job":"%s","status":"submitted","exit_status":null,"environment":{"SLURM_JOB_ID":"%s","SLURM_JOB_NUM_NODES":"%s","SLURM_NTASKS":"%s","SLURM_CPUS_PER_TASK":"%s"},"runs":[]}\n' \
        "$job_json" "$id" "$nn" "$ranks" "$cpt" >"$results/$id.json") 2>/dev/null || true
    echo "submitted job $id: $nn node(s), $ranks rank(s) x $cpt thread(s)"
    ids+=("$id"); files+=("$results/$id.json"); prev=$id
done

name=${name:-scaling-${ids[0]}}
printf '%s\n' "${files[@]}" >"$results/$name.files"
# afterany: the report runs whatever happened, and shows failures as rows.
cid=$(sbatch --parsable -n 1 --time=00:10:00 --job-name=mulred-collect \
    --dependency=afterany:"$(IFS=:; echo "${ids[*]}")" "${extra[@]}" \
    --output="$results/$name.collect.out" "$here/collect.sbatch" "$name" "${files[@]}")
echo "submitted job ${cid%%;*}: collect into $results/$name.{md,csv,png}"

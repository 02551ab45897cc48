# slurm/mulred-launch and slurm/mulred.sbatch's launcher line, with Open MPI and MPICH:
#  - mulred-launch --help and -h print the usage and exit 0; no launcher, an unknown option and a
#    bad --grace are usage errors (1);
#  - the fault file reaches the ranks in each MPI's spelling (Open MPI: -x NAME; MPICH's Hydra:
#    -genv NAME VALUE), told by the launcher's --version (stand-in launchers that print their
#    arguments and answer --version as Open MPI 4.1 and MPICH 4.0 do), or by MULRED_MPI;
#  - the real launchers, Open MPI's mpiexec.openmpi and MPICH's mpiexec.mpich where installed,
#    start ranks that see MULRED_FAULT_FILE;
#  - the launcher's status is passed on; a fault file ends a launcher that outlives it (exit 3);
#  - mulred.sbatch outside Slurm (MULRED_LAUNCHER=mpirun): Open MPI's --map-by slot:PE=T or
#    Hydra's -bind-to core:T, and mulred-launch found beside the binary (the build directory
#    holds a copy, as an install does); and a real 2-rank job through it with the build's MPI.
. "$(dirname "$0")/../lib.sh"
src=${MULRED_SOURCE_DIR:?set by CTest}
launch=$src/slurm/mulred-launch

# 1. usage
for h in --help -h; do
    expect_status 0 bash "$launch" "$h"
    expect_contains "$out" "usage: mulred-launch [--grace SECONDS] LAUNCHER [ARGS...]" "$h"
    expect_contains "$out" "MULRED_FAULT_FILE" "$h: the environment"
    expect_equal "$err" "" "$h: nothing on stderr"
done
expect_status 1 bash "$launch"
expect_contains "$err" "no launcher given" "no arguments"
expect_status 1 bash "$launch" --frobnicate mpirun
expect_contains "$err" "unknown option --frobnicate" "an unknown option"
expect_status 1 bash "$launch" --grace soon mpirun
expect_contains "$err" "--grace needs a whole number of seconds" "a bad --grace"

# 2. stand-in launchers: print each argument on a line; --version as the real ones answer
mkdir -p "$TEST_TMP/ompi" "$TEST_TMP/hydra"
cat >"$TEST_TMP/ompi/mpirun" <<'EOF'
#!/bin/sh
if [ "$1" = --version ]; then printf 'mpirun (Open MPI) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n'; exit 0; fi
printf 'arg %s\n' "$@"
EOF
cat >"$TEST_TMP/hydra/mpiexec" <<'EOF'
#!/bin/sh
if [ "$1" = --version ]; then printf 'HYDRA build details:\n    Version:                                 4.0.2\n'; exit 0; fi
printf 'arg %s\n' "$@"
EOF
chmod +x "$TEST_TMP/ompi/mpirun" "$TEST_TMP/hydra/mpiexec"
fault=$TEST_TMP/job.fault
expect_status 0 env MULRED_FAULT_FILE="$fault" bash "$launch" "$TEST_TMP/ompi/mpirun" -n 2 prog
expect_equal "$out" "$(printf 'arg %s\n' -x MULRED_FAULT_FILE -n 2 prog)" "Open MPI: -x"
expect_status 0 env MULRED_FAULT_FILE="$fault" bash "$launch" "$TEST_TMP/hydra/mpiexec" -n 2 prog
expect_equal "$out" "$(printf 'arg %s\n' -genv MULRED_FAULT_FILE "$fault" -n 2 prog)" "MPICH: -genv"
expect_status 0 env MULRED_MPI=mpich MULRED_FAULT_FILE="$fault" bash "$launch" "$TEST_TMP/ompi/mpirun" -n 1 prog
expect_equal "$out" "$(printf 'arg %s\n' -genv MULRED_FAULT_FILE "$fault" -n 1 prog)" "MULRED_MPI=mpich"

# 3. the real launchers of both MPIs, where installed (Debian: openmpi-bin, mpich)
ran=0
for l in mpiexec.openmpi mpiexec.mpich; do
    command -v "$l" >/dev/null || { echo "$l is not installed: not run"; continue; }
    flags=(-n 2)
    if [ "$l" = mpiexec.openmpi ]; then
        flags+=(--oversubscribe)
        [ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
    fi
    expect_status 0 env MULRED_FAULT_FILE="$fault" bash "$launch" "$l" "${flags[@]}" printenv MULRED_FAULT_FILE
    expect_equal "$out" "$(printf '%s\n' "$fault" "$fault")" "$l: the ranks see the fault file"
    ran=$((ran + 1))
done
[ "$ran" -gt 0 ] && pass || fail "neither mpiexec.openmpi nor mpiexec.mpich is installed"

# 4. the launcher's status; a fault file ends a launcher that outlives it
expect_status 5 bash "$launch" sh -c 'exit 5'
t0=$(date +%s)
expect_status 3 env MULRED_FAULT_FILE="$fault" bash "$launch" --grace 1 \
    sh -c 'echo "rank 1 silent" > "$MULRED_FAULT_FILE"; sleep 60'
[ $(($(date +%s) - t0)) -lt 30 ] && pass || fail "a launcher outliving the fault ran on"
expect_contains "$err" "rank 1 silent" "the fault named"
[ ! -e "$fault" ] && pass || fail "the fault file was left behind"

# 5. mulred.sbatch's launcher line for either MPI (outside Slurm; the stand-ins run nothing, so
# the job ends 3 without a result), and mulred-launch beside the binary
build_dir=$(dirname "$MULRED")
[ -x "$build_dir/mulred-launch" ] && pass || fail "no mulred-launch beside $MULRED"
cmp -s "$build_dir/mulred-launch" "$launch" && pass || fail "$build_dir/mulred-launch is not slurm/mulred-launch"
mkdir -p "$TEST_TMP/submit"
printf 'kind = muhash\nsynthetic = 10\n' >"$TEST_TMP/submit/tiny.job"
cd "$TEST_TMP/submit"
expect_status 3 env -u MULRED_LAUNCH MULRED_LAUNCHER=mpirun MULRED_MPIRUN="$TEST_TMP/ompi/mpirun" \
    SLURM_NTASKS=2 SLURM_CPUS_PER_TASK=3 bash "$src/slurm/mulred.sbatch" tiny.job
expect_contains "$out" "launcher: $TEST_TMP/ompi/mpirun -n 2 --map-by slot:PE=3 --bind-to core" "sbatch, Open MPI"
expect_contains "$out" "arg -x" "sbatch, Open MPI: through mulred-launch"
expect_status 3 env -u MULRED_LAUNCH MULRED_LAUNCHER=mpirun MULRED_MPIRUN="$TEST_TMP/hydra/mpiexec" \
    SLURM_NTASKS=2 SLURM_CPUS_PER_TASK=3 bash "$src/slurm/mulred.sbatch" tiny.job
expect_contains "$out" "launcher: $TEST_TMP/hydra/mpiexec -n 2 -bind-to core:3" "sbatch, MPICH"
expect_contains "$out" "arg -genv" "sbatch, MPICH: through mulred-launch"

# 6. a real job through mulred.sbatch (outside Slurm) with the build's MPI ($MPIEXEC: Open MPI or
# MPICH), 2 ranks: the snapshot's published MuHash (Bitcoin Core's gettxoutsetinfo)
snap=$(readonly_vectors bitcoin)/regtest-small.dat
printf 'kind = muhash\nsnapshot = %s\nthreads = 1\n' "$snap" >"$TEST_TMP/submit/snap.job"
expect_status 0 env -u MULRED_LAUNCH MULRED_LAUNCHER=mpirun MULRED_MPIRUN="${MPIEXEC:-mpiexec}" \
    SLURM_NTASKS=2 SLURM_CPUS_PER_TASK=1 SLURM_JOB_ID=launch-test bash "$src/slurm/mulred.sbatch" snap.job
expect_contains "$(cat results/launch-test.json 2>/dev/null)" \
    '"muhash":"6c543f508c9ceba0441ea8b53b1d3443ab6bc810b46ac904096b3a1f8cef03a4"' \
    "mulred.sbatch with ${MULRED_TEST_MPI:-openmpi}: the snapshot's MuHash"
finish

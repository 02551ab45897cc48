# Smoke test of mulred bench msm-ranks: it runs end to end (a small size, few rounds) and checks
# only the table's shape, i.e. that the table and the JSON have every row. No figure is compared
# with anything (the distributed MSM's results are checked by mpi/msm_mpi.sh).
. "$(dirname "$0")/../lib.sh"
export MPIEXEC MPIEXEC_NUMPROC_FLAG
expect_status 0 "$MULRED" bench msm-ranks --help
expect_contains "$out" "Usage: mulred bench msm-ranks" "help"
expect_status 0 "$MULRED" bench msm-ranks --log2n 10 --reps 2
for how in mpirun in-process "points only" "windows only"; do
    expect_contains "$out" "| $how" "row $how"
done
expect_contains "$out" "| ceiling |" "the mpirun rows' ceiling column"
expect_status 0 "$MULRED" bench msm-ranks --log2n 9 --reps 1 --no-mpirun --json
expect_contains "$out" '"curve":"bls12-381"' "JSON curve"
expect_contains "$out" '"kind":"windows only","grid":"1x2' "JSON forced 1x2 grid"
case $out in *'"mpirun"'*) fail "--no-mpirun ran mpirun" ;; *) pass ;; esac
expect_status 1 "$MULRED" bench msm-ranks --log2n 99
finish

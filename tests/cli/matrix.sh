# The option matrix (tests/matrix/matrix.py): every key of every key table has values; bad values
# are refused naming their key; every pair of options runs and gives the one-process reference
# result or is a pair docs/cli.md lists as not combining; a pairwise covering of the run
# dimensions of msm and muhash (ranks, threads, schedule, checkpoint and resume, job lists, ...).
# The README's test command runs a sample (--quick); MULRED_MATRIX=full (scripts/sanitize.sh, under
# ASan + UBSan) runs the whole; MULRED_MATRIX=runs the sample of run cases alone (the MPI part:
# scripts/mpich.sh runs it under MPICH).
. "$(dirname "$0")/../lib.sh"
case ${MULRED_MATRIX:-quick} in
full) mode= ;;
runs) mode="--only runs --quick" ;;
*) mode=--quick ;;
esac
# shellcheck disable=SC2086
if python3 "$MULRED_SOURCE_DIR/tests/matrix/matrix.py" $mode; then pass; else fail "the option matrix"; fi
finish

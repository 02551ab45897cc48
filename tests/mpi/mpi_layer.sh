# The generic group reduction across 1-4 real ranks: add61, mul127 and MuHash reduced in one
# process through the one MPI op, interleaved, to varying roots (tests/mpi/mpi_groups.c); then
# distributed base sets on 1-3 ranks (tests/mpi/bases_mpi.c).
. "$(dirname "$0")/../lib.sh"
: "${MULRED_TEST_BIN_DIR:?set by CTest}"
seed=${MULRED_TEST_SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "seed $seed (rerun with MULRED_TEST_SEED=$seed)"
for ranks in 1 2 3 4; do
    expect_status 0 mpi "$ranks" "$MULRED_TEST_BIN_DIR/mpi_groups" "$seed"
    expect_contains "$out" "mpi_groups: $ranks rank" "ran on $ranks ranks"
    expect_contains "$out" " 0 failed" "every check passed on $ranks ranks"
    echo "$out"
done
# distributed base sets (tests/mpi/bases_mpi.c): a shared points file, tables, prefixes, adopted
# shards and a bad point, against the mpz reference
for ranks in 1 2 3; do
    expect_status 0 mpi "$ranks" "$MULRED_TEST_BIN_DIR/bases_mpi" "$seed" "$TEST_TMP"
    expect_contains "$out" "bases_mpi: $ranks rank" "base sets ran on $ranks ranks"
    expect_contains "$out" " 0 failed" "every base-set check passed on $ranks ranks"
    echo "$out"
done
finish

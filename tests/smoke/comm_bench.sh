# Smoke test of mulred bench comm: under the launcher with 2 ranks and few rounds it runs end to
# end and writes its network file with every field; no figure is compared with anything (the
# reduce itself is checked by mpi/mpi_layer.sh, the file's use by cli/run_report.sh).
. "$(dirname "$0")/../lib.sh"
expect_status 0 "$MULRED" bench comm --help
expect_contains "$out" "Usage: mpirun -n P" "help"
expect_status 0 mpi 2 "$MULRED" bench comm --reps 3 --out "$TEST_TMP/net.json"
for row in muhash-bitcoin bls12-381 bn254 1048576 "latency α" "start-up" "network constants written"; do
    expect_contains "$out" "$row" "row $row"
done
net=$(cat "$TEST_TMP/net.json")
for key in '"ranks":2' '"tree_steps":1' '"latency_seconds":' '"bandwidth_bytes_per_second":' \
    '"startup_seconds":' '"group":"muhash-bitcoin","bytes_per_rank":' '"group":"bn254","bytes_per_rank":' '"reduce_share":'; do
    expect_contains "$net" "$key" "file: $key"
done
expect_status 0 "$MULRED" report --project --workload muhash-mainnet --item-cost 2e-6 --net "$TEST_TMP/net.json"
expect_contains "$out" "measured by bench comm" "report --project reads it"
expect_status 1 "$MULRED" bench comm --reps 0
finish

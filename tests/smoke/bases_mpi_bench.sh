# Smoke test of mulred bench bases-mpi: on 2 ranks at a tiny size it runs end to end (the bench
# itself compares the distributed sum with one rank's every round and fails if they differ) and
# its JSON has every field; no figure is compared with anything.
. "$(dirname "$0")/../lib.sh"
expect_status 0 "$MULRED" bench bases-mpi --help
expect_contains "$out" "Usage: mpirun -n P mulred bench bases-mpi" "help"
expect_status 1 "$MULRED" bench bases-mpi --log2n 99
expect_status 1 "$MULRED" bench bases-mpi --curve secp256k1
expect_status 1 "$MULRED" bench bases-mpi extra
for curve in bls12-381 bn254; do
    expect_status 0 mpi 2 "$MULRED" bench bases-mpi --log2n 9 --reps 2 --level 8 --curve "$curve" \
        --dir "$TEST_TMP" --json
    check=$(python3 - "$out" "$curve" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["curve"] == sys.argv[2] and r["ranks"] == 2 and r["log2n"] == 9 and r["level"] == 8, r
assert all(r[k] > 0 for k in ("prepare_seconds", "one_rank_seconds", "ranks_seconds",
                              "speedup", "speedup_min", "speedup_max")), r
print("ok")
PY
)
    expect_equal "$check" "ok" "$curve: every field"
done
expect_status 0 mpi 2 "$MULRED" bench bases-mpi --log2n 8 --reps 1 --dir "$TEST_TMP"
expect_contains "$out" "| bls12-381 | 2^8 | 2 |" "the text row"
finish

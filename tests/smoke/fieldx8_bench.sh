# Smoke test of mulred bench fieldx8: it checks only the table's shape, i.e. the command
# contract and that every figure is present and positive (one sample). No figure is compared
# with anything; the arithmetic is checked by the benchmark's own GMP cross-check (exit 3).
. "$(dirname "$0")/../lib.sh"

expect_status 0 "$MULRED" bench --help
expect_contains "$out" "fieldx8" "bench --help lists fieldx8"
expect_status 0 "$MULRED" bench fieldx8 --help
expect_contains "$out" "Usage: mulred bench fieldx8" "bench fieldx8 --help"

# Every figure of both curves is present and positive (x8 figures only with IFMA); the
# baselines passed their GMP cross-check, or the command would have exited 3.
expect_status 0 "$MULRED" bench fieldx8 --samples 1 --json
check=$(python3 - "$out" <<'PY'
import json, sys
v = json.loads(sys.argv[1])
keys = ["fp_mul_c_ns", "fp_mul_c_tput_ns", "fp2_mul_ns"]
if v["ifma"]:
    keys += ["fp_mul_x8_ns", "fp_mul_x8_chain_ns", "fp_sqr_x8_ns", "fp_add_x8_ns", "fp_sub_x8_ns",
             "fp_load_x8_ns", "fp_store_x8_ns", "fp_inv_x8_ns", "fp_batch_inv_x8_ns",
             "ratio_mul_x8_to_best_scalar", "fp2_mul_x8_ns", "fp2_mul_x8_chain_ns", "fp2_sqr_x8_ns",
             "ratio_fp2_mul_x8_to_scalar"]
bad = [c + "." + k for c in ("bls12_381", "bn254") for k in keys if not v[c].get(k, 0) > 0]
print("ok" if not bad else "missing or not positive: " + " ".join(bad))
PY
)
expect_equal "$check" "ok" "bench fieldx8 JSON"
expect_status 0 "$MULRED" bench fieldx8 --samples 1
expect_contains "$out" "bls12_381" "table names BLS12-381"
expect_contains "$out" "bn254" "table names BN254"

expect_status 1 "$MULRED" bench fieldx8 --samples 0
expect_contains "$err" "--samples" "zero samples"
expect_status 1 "$MULRED" bench fieldx8 --samples x
expect_status 1 "$MULRED" bench fieldx8 extra
expect_status 1 "$MULRED" bench fieldx8 --bogus
finish

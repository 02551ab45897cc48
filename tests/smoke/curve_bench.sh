# Smoke test of mulred bench curve: it checks only the table's shape, i.e. the option contract
# and that every row of the JSON exists for both curves and is positive (the 8-lane ones may be
# null). No figure is compared with anything: a benchmark's timings have no reference.
. "$(dirname "$0")/../lib.sh"

expect_status 0 "$MULRED" bench curve --help
expect_contains "$out" "Usage: mulred bench curve" "bench curve --help"
expect_status 1 "$MULRED" bench curve --bogus
expect_status 1 "$MULRED" bench curve extra

expect_status 0 "$MULRED" bench curve --quick --json
check=$(python3 - "$out" <<'PY'
import json, sys
v = json.loads(sys.argv[1])
common = ["fp_mul_ns", "fp_mul_portable_ns", "fp_sqr_ns", "fp_add_ns", "fp_inv_ns",
          "fp_inv_fermat_ns", "fp_sqrt_ns", "fr_mul_ns", "g1_add_jacobian_ns", "g1_add_mixed_ns",
          "g1_add_mixed_jacobian_ns", "g1_add_xyzz_ns", "g1_double_ns", "g1_double_xyzz_ns",
          "g1_add_batch_affine_ns", "g1_mul_ns", "g1_mul_wnaf_ns", "g1_subgroup_check_ns",
          "g1_on_curve_ns"]
extra = {"bls12_381": ["g1_decompress_ns", "g1_decompress_no_subgroup_ns", "g1_decode_eip2537_ns"],
         "bn254": ["g1_decompress_ns", "g1_decode_eip196_ns"]}
bad = []
for curve in ("bls12_381", "bn254"):
    c = v[curve]
    for k in common + extra[curve]:
        if not isinstance(c.get(k), (int, float)) or c[k] <= 0:
            bad.append(curve + "." + k)
    for k in ("fp_mul_x8_ns", "fp_sqr_x8_ns", "fp_add_x8_ns"):
        if k not in c or not (c[k] is None or c[k] > 0):
            bad.append(curve + "." + k)
    sizes = c.get("g1_add_batch_affine_ns_by_batch", {})
    if sorted(sizes, key=int) != ["64", "128", "256", "512", "1024"] or min(sizes.values()) <= 0:
        bad.append(curve + ".g1_add_batch_affine_ns_by_batch")
print(" ".join(bad) if bad else "ok")
PY
)
expect_equal "$check" "ok" "bench curve JSON: every row for both curves"
finish

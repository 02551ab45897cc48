# mulred bench msm: the option contract and every row of the JSON (speed is never asserted; the
# rows must exist and be positive, and the commitment must agree with the plain MSM).
. "$(dirname "$0")/../lib.sh"

expect_status 0 "$MULRED" bench msm --help
expect_contains "$out" "Usage: mulred bench msm" "bench msm --help"
expect_status 1 "$MULRED" bench msm --bogus
expect_status 1 "$MULRED" bench msm extra
expect_status 1 "$MULRED" bench msm --max 99
expect_status 1 "$MULRED" bench msm --min 12 --max 10
expect_status 1 "$MULRED" bench msm --max 23
expect_status 1 "$MULRED" bench msm --group g3

expect_status 0 "$MULRED" bench msm --min 8 --max 9 --worth 9 --reps 2 \
    --setup "$MULRED_VECTORS/kzg/trusted_setup.txt" --json
check=$(python3 - "$out" <<'PY'
import json, sys
v = json.loads(sys.argv[1])
bad = []
rows = v["rows"]
if sorted((r["group"], r["curve"], r["log2n"]) for r in rows) != [
        (g, c, n) for g in ("g1", "g2") for c in ("bls12-381", "bn254") for n in (8, 9)]:
    bad.append("rows")
for r in rows:
    for k in ("window_bits", "windows", "ms_1_thread", "cpu_ms_1_thread", "ns_per_point",
              "ms_2_threads", "speedup_2_threads", "speedup_ceiling_2_threads", "of_ceiling",
              "peak_rss_kb"):
        if not isinstance(r.get(k), (int, float)) or r[k] <= 0:
            bad.append("%s/%d.%s" % (r["curve"], r["log2n"], k))
w = v["worth"]
if v["worth_log2n"] != 9 or len(w) != 4 * 9:
    bad.append("worth")
for x in w:
    if not x["ratio_to_default"] > 0 or not x["cpu_ms"] > 0:
        bad.append("worth." + x["variant"])
k = v["kzg"]
if not k["ok"] or not k["commit_ms"] > 0 or not k["plain_msm_ms"] > 0 or not k["table_build_s"] > 0:
    bad.append("kzg %s" % k)
print(" ".join(bad) if bad else "ok")
PY
)
expect_equal "$check" "ok" "bench msm JSON: every row"
finish

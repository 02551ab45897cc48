# Smoke test of mulred bench bases: at tiny sizes it runs end to end and every row of its JSON
# has every field, for both curves and groups; no figure is compared with anything.
. "$(dirname "$0")/../lib.sh"
expect_status 0 "$MULRED" bench bases --help
expect_contains "$out" "Usage: mulred bench bases" "help"
expect_status 1 "$MULRED" bench bases --min 0
expect_status 1 "$MULRED" bench bases --levels 8,x
expect_status 0 "$MULRED" bench bases --min 6 --max 7 --group all --levels 0,16 --reps 1 --k 3 --json
check=$(python3 - "$out" <<'PY'
import json, sys
rows = json.loads(sys.argv[1])
keys = ["prepare_seconds", "save_seconds", "load_seconds", "plain_msm_seconds",
        "bases_msm_seconds", "many_seconds", "k_single_seconds"]
seen = set()
for r in rows:
    seen.add((r["curve"], r["group"], r["points"]))
    assert all(r[k] > 0 for k in keys), r
    assert r["k"] == 3 and len(r["levels"]) == 2 and r["levels"][0]["rows"] == 0, r
    assert r["levels"][1]["rows"] >= 8 and r["levels"][1]["msm_seconds"] > 0, r
    assert r["blst_fixed_base"].startswith("skipped"), r
assert len(seen) == 8, seen
print("ok")
PY
)
expect_equal "$check" "ok" "every row and field"
expect_status 0 "$MULRED" bench bases --min 6 --max 6 --group g1 --reps 1
expect_contains "$out" "| level | rows |" "the levels table"
finish

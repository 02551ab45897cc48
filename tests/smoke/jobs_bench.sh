# Smoke test of mulred bench jobs: the option contract and the shape of its JSON (every input
# kind at 1 and 2 threads and at 2 ranks x 1 thread, required when mpirun is on the PATH;
# positive seconds and peak RSS, a parse share in [0, 1]; --pairs sets the pair file's size). No figure is
# compared with anything: a benchmark's timings have no reference.
. "$(dirname "$0")/../lib.sh"

expect_status 0 "$MULRED" bench jobs --help
expect_contains "$out" "Usage: mulred bench jobs" "bench jobs --help"
expect_status 1 "$MULRED" bench jobs --bogus
expect_status 1 "$MULRED" bench jobs --size 5
expect_status 1 "$MULRED" bench jobs --pairs 0

expect_status 0 "$MULRED" bench jobs --size 3000 --pairs 80 --dir "$TEST_TMP" --json
# the 2-rank rows are expected whenever mpirun is on the PATH (the bench looks there): a skip
# is then a failure, not a silently shorter table
have_mpirun=0
command -v mpirun >/dev/null && have_mpirun=1
check=$(python3 - "$out" "$have_mpirun" <<'PY'
import json, sys
v = json.loads(sys.argv[1])
bad = []
if sys.argv[2] == "1" and "ranks_skipped" in v:
    bad.append("2-rank rows skipped although mpirun is on the PATH: %s" % v["ranks_skipped"])
kinds = [(j["input"], j["ranks"], j["threads"]) for j in v["jobs"]]
layouts = [(1, 1), (1, 2)] + ([] if "ranks_skipped" in v else [(2, 1)])
for k in ("element file", "snapshot", "pair file", "stdin"):
    for r, t in layouts:
        if (k, r, t) not in kinds:
            bad.append("missing %s at %d x %d" % (k, r, t))
if v["pairs"] != 80:
    bad.append("pairs %s" % v["pairs"])
for j in v["jobs"]:
    if not (j["seconds"] > 0 and j["peak_rss_kib"] > 0 and j["bytes"] > 0 and 0 <= j["parse_share"] <= 1):
        bad.append(repr(j))
print(" ".join(bad) if bad else "ok")
PY
)
expect_equal "$check" "ok" "bench jobs JSON shape"
[ -z "$(ls "$TEST_TMP" | grep mulred-bench-jobs)" ] || fail "bench jobs left its directory"
finish

# Smoke test of mulred bench jobs: the option contract and the shape of its JSON (every input
# kind at 1 and 2 threads, positive seconds and peak RSS, a parse share in [0, 1]). No figure is
# compared with anything: a benchmark's timings have no reference.
. "$(dirname "$0")/../lib.sh"

expect_status 0 "$MULRED" bench jobs --help
expect_contains "$out" "Usage: mulred bench jobs" "bench jobs --help"
expect_status 1 "$MULRED" bench jobs --bogus
expect_status 1 "$MULRED" bench jobs --size 5

expect_status 0 "$MULRED" bench jobs --size 3000 --dir "$TEST_TMP" --json
check=$(python3 - "$out" <<'PY'
import json, sys
v = json.loads(sys.argv[1])
bad = []
kinds = [(j["input"], j["threads"]) for j in v["jobs"]]
for k in ("element file", "snapshot", "pair file", "stdin"):
    for t in (1, 2):
        if (k, t) not in kinds:
            bad.append("missing %s at %d threads" % (k, t))
for j in v["jobs"]:
    if not (j["seconds"] > 0 and j["peak_rss_kib"] > 0 and j["bytes"] > 0 and 0 <= j["parse_share"] <= 1):
        bad.append(repr(j))
print(" ".join(bad) if bad else "ok")
PY
)
expect_equal "$check" "ok" "bench jobs JSON shape"
[ -z "$(ls "$TEST_TMP" | grep mulred-bench-jobs)" ] || fail "bench jobs left its directory"
finish

# Smoke test of mulred bench muhash: the option contract and, with --scaling, that every layout of
# the scaling table ran (1 rank x 1 thread, 1 x 2, 2 ranks x 1 through the MPI launcher, and the
# reduction alone at 1 and 2 threads) with positive times over the set size asked for. No figure
# is compared with anything: a benchmark's timings have no reference (MuHash results are checked
# by the unit, command and MPI tests).
. "$(dirname "$0")/../lib.sh"
export MPIEXEC MPIEXEC_NUMPROC_FLAG
expect_status 0 "$MULRED" bench muhash --help
expect_contains "$out" "Usage: mulred bench muhash" "help"
expect_status 1 "$MULRED" bench muhash --bogus
expect_status 1 "$MULRED" bench muhash --elements 0
expect_status 0 "$MULRED" bench muhash --scaling --elements 2000 --json
check=$(python3 - "$out" <<'PY'
import json, sys
s = json.loads(sys.argv[1])["scaling"]
bad = [] if s["elements"] == 2000 else ["elements %r, not 2000" % s["elements"]]
for k in ("r1t1_s", "r1t2_s", "r2t1_s", "engine_threads1_s", "engine_threads2_s"):
    if not (isinstance(s.get(k), (int, float)) and s[k] > 0):
        bad.append("%s: %r" % (k, s.get(k)))
print("; ".join(bad) or "ok")
PY
)
expect_equal "$check" ok "bench muhash --scaling: every layout timed"
finish

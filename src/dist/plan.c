/* The plan of work units over ranks (see mulred/plan.h). No MPI here: the plan is a pure
 * function of (units, rank, rank count), so every rank computes its own share and the shares
 * agree without communication. */
#include "mulred/plan.h"

#include "util/check.h"

/* ⌊w·r/P⌋ without overflow: w < 2^64, r <= P < 2^31. */
static uint64_t plan_target(uint64_t w, int r, int nranks)
{
    return (uint64_t)((unsigned __int128)w * (unsigned)r / (unsigned)nranks);
}

static void plan_check(int rank, int nranks)
{
    MULRED_CHECK(nranks >= 1 && rank >= 0 && rank < nranks, "rank %d of %d", rank, nranks);
}

mulred_unit_range mulred_plan_units(uint64_t n, int rank, int nranks)
{
    plan_check(rank, nranks);
    return (mulred_unit_range){plan_target(n, rank, nranks), plan_target(n, rank + 1, nranks)};
}

/* The first unit of rank r: the first u in [0, n] with cum[u] >= ⌊W·r/P⌋; 0 for r = 0 and n
 * for r = P, so that units of zero work at either end are covered. */
static uint64_t plan_start(const uint64_t *cum, uint64_t n, int r, int nranks)
{
    if (r == 0) return 0;
    if (r == nranks) return n;
    uint64_t target = plan_target(cum[n], r, nranks);
    uint64_t lo = 0, hi = n; /* cum[hi] = W >= target: the answer is in [lo, hi] */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (cum[mid] >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

mulred_unit_range mulred_plan_weighted(const uint64_t *cum, uint64_t n, int rank, int nranks)
{
    plan_check(rank, nranks);
    MULRED_CHECK(cum && cum[0] == 0, "running totals must start at 0");
    mulred_unit_range r = {plan_start(cum, n, rank, nranks), plan_start(cum, n, rank + 1, nranks)};
    MULRED_VERIFY(r.first <= r.end && r.end <= n);
    return r;
}

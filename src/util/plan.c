/* The plan of work units over ranks (see mulred/plan.h). No MPI here: the plan is a pure
 * function of (units, rank, rank count), so every rank computes its own share and the shares
 * agree without communication. */
#include "mulred/plan.h"

#include <stdlib.h>
#include <string.h>

#include "util/check.h"

/* ⌊w·r/P⌋ without overflow: w < 2^64, r <= P < 2^31. */
static uint64_t plan_target(uint64_t w, int r, int nranks)
{
    return (uint64_t)((unsigned __int128)w * (unsigned)r / (unsigned)nranks);
}

/* What the plan functions return on misuse when the illegal-argument callback returns. */
static const mulred_unit_range no_units = {0, 0};

mulred_unit_range mulred_plan_units(uint64_t n, int rank, int nranks)
{
    MULRED_ARG_CHECK_RETURN(nranks >= 1 && rank >= 0 && rank < nranks, no_units);
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
    MULRED_ARG_CHECK_RETURN(nranks >= 1 && rank >= 0 && rank < nranks, no_units);
    MULRED_ARG_CHECK_RETURN(cum && cum[0] == 0, no_units);
    mulred_unit_range r = {plan_start(cum, n, rank, nranks), plan_start(cum, n, rank + 1, nranks)};
    MULRED_VERIFY(r.first <= r.end && r.end <= n);
    return r;
}

const char *mulred_schedule_name(mulred_schedule s)
{
    MULRED_CHECK(s == MULRED_SCHEDULE_STATIC || s == MULRED_SCHEDULE_DYNAMIC, "schedule %d",
                 (int)s);
    return s == MULRED_SCHEDULE_STATIC ? "static" : "dynamic";
}

mulred_status mulred_schedule_parse(mulred_schedule *s, const char *name)
{
    if (!name) return MULRED_EINPUT;
    if (!strcmp(name, "static"))
        *s = MULRED_SCHEDULE_STATIC;
    else if (!strcmp(name, "dynamic"))
        *s = MULRED_SCHEDULE_DYNAMIC;
    else
        return MULRED_EINPUT;
    return MULRED_OK;
}

static int item_compare(const void *a, const void *b)
{
    const mulred_plan_item *x = a, *y = b;
    if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
    return (x->unit > y->unit) - (x->unit < y->unit);
}

void mulred_plan_order(mulred_plan_item *items, uint64_t n)
{
    if (n > 1) qsort(items, (size_t)n, sizeof *items, item_compare);
}

uint64_t mulred_plan_batches(uint64_t *ends, const mulred_plan_item *items, uint64_t n, int nranks,
                             uint64_t min_batch)
{
    MULRED_ARG_CHECK_RETURN(nranks >= 1 && min_batch >= 1, 0);
    unsigned __int128 left = 0;
    for (uint64_t i = 0; i < n; i++) left += items[i].cost;
    uint64_t nb = 0;
    for (uint64_t s = 0; s < n;) {
        const unsigned __int128 div = 2 * (unsigned __int128)(unsigned)nranks;
        const unsigned __int128 target = (left + div - 1) / div;
        unsigned __int128 got = 0;
        uint64_t e = s;
        while (e < n && (got < target || e - s < min_batch)) got += items[e++].cost;
        ends[nb++] = e;
        left -= got;
        s = e;
    }
    return nb;
}

/* The plan of work units over ranks (src/util/plan.c): every unit to exactly one rank, in rank
 * order, balanced, for every small unit and rank count, and for counts near 2^64 (boundaries
 * checked with GMP). */
#include <gmp.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"
#include "mulred/plan.h"

/* Checks that the ranges of all P ranks are contiguous, in rank order and cover [0, n) exactly
 * once, by counting how often each unit is handed out. */
static void check_cover(const mulred_unit_range *r, int P, uint64_t n)
{
    unsigned char *count = calloc(n + 1, 1);
    CU_ASSERT_FATAL(count != NULL);
    uint64_t next = 0;
    for (int k = 0; k < P; k++) {
        CU_ASSERT_EQUAL(r[k].first, next);
        CU_ASSERT(r[k].first <= r[k].end && r[k].end <= n);
        for (uint64_t u = r[k].first; u < r[k].end && u < n; u++) count[u]++;
        next = r[k].end;
    }
    CU_ASSERT_EQUAL(next, n);
    for (uint64_t u = 0; u < n; u++) CU_ASSERT_EQUAL(count[u], 1);
    free(count);
}

static void test_units_small(void)
{
    mulred_unit_range r[40];
    for (uint64_t n = 0; n <= 100; n++)
        for (int P = 1; P <= 40; P++) {
            uint64_t smallest = UINT64_MAX, largest = 0;
            for (int k = 0; k < P; k++) {
                r[k] = mulred_plan_units(n, k, P);
                uint64_t size = r[k].end - r[k].first;
                if (size < smallest) smallest = size;
                if (size > largest) largest = size;
            }
            check_cover(r, P, n);
            /* balanced: every share is ⌊n/P⌋ or ⌈n/P⌉ units */
            CU_ASSERT(largest - smallest <= 1);
            CU_ASSERT_EQUAL(smallest, n / (uint64_t)P);
        }
}

/* Random running totals with zero-work units, equal units and one huge unit mixed in. */
static uint64_t *random_cum(uint64_t n, uint64_t *maxw)
{
    uint64_t *cum = malloc((n + 1) * sizeof *cum);
    CU_ASSERT_FATAL(cum != NULL);
    cum[0] = 0;
    *maxw = 0;
    int style = (int)test_rand_below(4);
    for (uint64_t u = 0; u < n; u++) {
        uint64_t w = style == 0   ? test_rand_below(3)                    /* many zeros */
                     : style == 1 ? 7                                     /* equal */
                     : style == 2 ? (test_rand_below(10) == 0 ? 1000 : 1) /* spiky */
                                  : test_rand_below(1000);
        cum[u + 1] = cum[u] + w;
        if (w > *maxw) *maxw = w;
    }
    return cum;
}

static void test_weighted_small(void)
{
    mulred_unit_range r[24];
    for (int trial = 0; trial < 400; trial++) {
        uint64_t n = test_rand_below(60), maxw;
        uint64_t *cum = random_cum(n, &maxw);
        double W = (double)cum[n];
        for (int P = 1; P <= 24; P++) {
            for (int k = 0; k < P; k++) {
                r[k] = mulred_plan_weighted(cum, n, k, P);
                /* each rank's work is within the largest unit of the ideal W/P */
                double w = (double)(cum[r[k].end] - cum[r[k].first]);
                CU_ASSERT(w <= W / P + (double)maxw + 1e-9);
                CU_ASSERT(w >= W / P - (double)maxw - 1e-9);
            }
            check_cover(r, P, n);
        }
        free(cum);
    }
    /* Equal units make the weighted rule the even one: one rule for every source. */
    for (uint64_t n = 0; n <= 50; n++) {
        uint64_t *cum = malloc((n + 1) * sizeof *cum);
        for (uint64_t u = 0; u <= n; u++) cum[u] = u;
        for (int P = 1; P <= 20; P++)
            for (int k = 0; k < P; k++) {
                mulred_unit_range a = mulred_plan_weighted(cum, n, k, P);
                mulred_unit_range b = mulred_plan_units(n, k, P);
                CU_ASSERT(a.first == b.first && a.end == b.end);
            }
        free(cum);
    }
    /* All work in the last unit; units of no work at the ends are still covered. */
    uint64_t zeros[] = {0, 0, 0, 0, 5, 5, 5};
    for (int P = 1; P <= 8; P++) {
        for (int k = 0; k < P; k++) r[k] = mulred_plan_weighted(zeros, 6, k, P);
        check_cover(r, P, 6);
    }
}

/* ⌊a·r/P⌋ with GMP. */
static uint64_t gmp_boundary(uint64_t a, uint64_t r, uint64_t P)
{
    mpz_t x;
    mpz_init_set_ui(x, a);
    mpz_mul_ui(x, x, r);
    mpz_fdiv_q_ui(x, x, P);
    uint64_t v = mpz_get_ui(x);
    mpz_clear(x);
    return v;
}

static void test_huge(void)
{
    const uint64_t ns[] = {UINT64_MAX, UINT64_MAX - 1, (uint64_t)1 << 63, 0xfedcba9876543210ull};
    const int Ps[] = {1, 2, 3, 7, 1000003, INT_MAX};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (size_t j = 0; j < sizeof Ps / sizeof Ps[0]; j++) {
            int P = Ps[j];
            const int ks[] = {0, 1, P / 2, P - 2, P - 1};
            for (size_t t = 0; t < 5; t++) {
                int k = ks[t];
                if (k < 0 || k >= P) continue;
                mulred_unit_range r = mulred_plan_units(ns[i], k, P);
                CU_ASSERT_EQUAL(r.first, gmp_boundary(ns[i], (uint64_t)k, (uint64_t)P));
                CU_ASSERT_EQUAL(r.end, gmp_boundary(ns[i], (uint64_t)k + 1, (uint64_t)P));
                if (k + 1 < P) CU_ASSERT_EQUAL(r.end, mulred_plan_units(ns[i], k + 1, P).first);
            }
            CU_ASSERT_EQUAL(mulred_plan_units(ns[i], P - 1, P).end, ns[i]);
        }
    /* Work near 2^64: two units of 2^63 and 2^63 − 1 over 3 ranks. */
    uint64_t cum[] = {0, (uint64_t)1 << 63, UINT64_MAX};
    mulred_unit_range r[3];
    for (int k = 0; k < 3; k++) r[k] = mulred_plan_weighted(cum, 2, k, 3);
    check_cover(r, 3, 2);
    /* ⌊W/3⌋ ≈ 0.33·2^64 <= 2^63: rank 1 starts at unit 1; ⌊2W/3⌋ > 2^63: rank 2 at unit 2. */
    CU_ASSERT(r[0].end == 1 && r[1].first == 1 && r[1].end == 2 && r[2].first == 2);
}

static void plan_bad_rank(void)
{
    mulred_plan_units(10, 3, 3);
}

static void plan_bad_cum(void)
{
    uint64_t cum[] = {1, 2};
    mulred_plan_weighted(cum, 1, 0, 1);
}

/* The dynamic schedule's order and batches, worked by hand from the rule in mulred/plan.h. */
static void test_batches(void)
{
    /* 10 units of cost 1 over 2 ranks: ⌈10/4⌉ = 3, ⌈7/4⌉ = 2, ⌈5/4⌉ = 2, then ⌈3/4⌉ = ⌈2/4⌉ =
     * ⌈1/4⌉ = 1 */
    mulred_plan_item eq[10];
    uint64_t ends[10];
    for (int i = 0; i < 10; i++) eq[i] = (mulred_plan_item){(uint64_t)i, 1};
    mulred_plan_order(eq, 10);
    for (int i = 0; i < 10; i++) CU_ASSERT_EQUAL(eq[i].unit, (uint64_t)i);
    const uint64_t want[] = {3, 5, 7, 8, 9, 10};
    CU_ASSERT_EQUAL(mulred_plan_batches(ends, eq, 10, 2, 1), 6);
    for (int k = 0; k < 6; k++) CU_ASSERT_EQUAL(ends[k], want[k]);

    /* costs 5, 1, 3, 1 (units 0-3): order 0, 2, 1, 3 (equal costs by unit) */
    mulred_plan_item it[4] = {{0, 5}, {1, 1}, {2, 3}, {3, 1}};
    mulred_plan_order(it, 4);
    const uint64_t order[] = {0, 2, 1, 3};
    for (int i = 0; i < 4; i++) CU_ASSERT_EQUAL(it[i].unit, order[i]);
    /* one rank: ⌈10/2⌉ = 5 takes unit 0; ⌈5/2⌉ = 3 takes unit 2; then 1 and 1 */
    CU_ASSERT_EQUAL(mulred_plan_batches(ends, it, 4, 1, 1), 4);
    for (int k = 0; k < 4; k++) CU_ASSERT_EQUAL(ends[k], (uint64_t)k + 1);
    /* two ranks, at least 2 per batch: ⌈10/4⌉ = 3 is reached by unit 0 alone but the batch
     * needs 2 items: {0, 2}; then {1, 3} */
    CU_ASSERT_EQUAL(mulred_plan_batches(ends, it, 4, 2, 2), 2);
    CU_ASSERT_EQUAL(ends[0], 2);
    CU_ASSERT_EQUAL(ends[1], 4);
    /* zero costs: batches of min_batch; the last one shorter */
    mulred_plan_item z[5] = {{4, 0}, {3, 0}, {2, 0}, {1, 0}, {0, 0}};
    mulred_plan_order(z, 5);
    for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(z[i].unit, (uint64_t)i);
    CU_ASSERT_EQUAL(mulred_plan_batches(ends, z, 5, 3, 2), 3);
    CU_ASSERT_EQUAL(ends[0], 2);
    CU_ASSERT_EQUAL(ends[1], 4);
    CU_ASSERT_EQUAL(ends[2], 5);
    CU_ASSERT_EQUAL(mulred_plan_batches(ends, z, 0, 3, 2), 0);

    mulred_schedule sc = MULRED_SCHEDULE_STATIC;
    CU_ASSERT_EQUAL(mulred_schedule_parse(&sc, "dynamic"), MULRED_OK);
    CU_ASSERT_EQUAL(sc, MULRED_SCHEDULE_DYNAMIC);
    CU_ASSERT_EQUAL(mulred_schedule_parse(&sc, "guided"), MULRED_EINPUT);
    CU_ASSERT_EQUAL(mulred_schedule_parse(&sc, "Static"), MULRED_EINPUT);
    CU_ASSERT_EQUAL(mulred_schedule_parse(&sc, NULL), MULRED_EINPUT);
    CU_ASSERT_EQUAL(sc, MULRED_SCHEDULE_DYNAMIC);
    CU_ASSERT_EQUAL(mulred_schedule_parse(&sc, "static"), MULRED_OK);
    CU_ASSERT_EQUAL(sc, MULRED_SCHEDULE_STATIC);
    CU_ASSERT_STRING_EQUAL(mulred_schedule_name(MULRED_SCHEDULE_STATIC), "static");
}

/* The default callback aborts with the failed condition. */
static void test_misuse(void)
{
    int ws = 0;
    char *err = test_run_child(plan_bad_rank, &ws);
    CU_ASSERT(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "src/util/plan.c:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "rank < nranks"));
    free(err);
    err = test_run_child(plan_bad_cum, &ws);
    CU_ASSERT(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cum[0] == 0"));
    free(err);
}

static int misuse_calls;
static void count_misuse(const char *msg, void *data)
{
    (void)msg, (void)data;
    misuse_calls++;
}

/* A callback that returns: each misused function returns what mulred/plan.h says, the empty
 * range or no batches, and writes nothing. */
static void test_misuse_returns(void)
{
    mulred_set_illegal_callback(count_misuse, NULL);
    misuse_calls = 0;
    mulred_unit_range r = mulred_plan_units(10, 3, 3);
    CU_ASSERT(r.first == 0 && r.end == 0);
    r = mulred_plan_units(10, -1, 3);
    CU_ASSERT(r.first == 0 && r.end == 0);
    r = mulred_plan_units(10, 0, 0);
    CU_ASSERT(r.first == 0 && r.end == 0);
    const uint64_t bad[] = {1, 2}, good[] = {0, 5};
    r = mulred_plan_weighted(bad, 1, 0, 1);
    CU_ASSERT(r.first == 0 && r.end == 0);
    r = mulred_plan_weighted(NULL, 1, 0, 1);
    CU_ASSERT(r.first == 0 && r.end == 0);
    r = mulred_plan_weighted(good, 1, 1, 1);
    CU_ASSERT(r.first == 0 && r.end == 0);
    CU_ASSERT_EQUAL(misuse_calls, 6);
    mulred_plan_item it[2] = {{0, 1}, {1, 1}};
    uint64_t ends[2] = {7, 7};
    CU_ASSERT_EQUAL(mulred_plan_batches(ends, it, 2, 0, 1), 0);
    CU_ASSERT_EQUAL(mulred_plan_batches(ends, it, 2, 1, 0), 0);
    CU_ASSERT(ends[0] == 7 && ends[1] == 7);
    CU_ASSERT_EQUAL(misuse_calls, 8);
    /* a valid call still answers: rank 0 of 1 gets every unit, [0, 1) */
    r = mulred_plan_weighted(good, 1, 0, 1);
    CU_ASSERT(r.first == 0 && r.end == 1);
    CU_ASSERT_EQUAL(misuse_calls, 8);
    mulred_set_illegal_callback(NULL, NULL);
}

void test_register(void)
{
    TEST_SUITE("plan", {"equal units: every n <= 100 over every P <= 40", test_units_small},
               {"weighted units: cover, order, balance", test_weighted_small},
               {"counts near 2^64 (GMP boundaries)", test_huge},
               {"dynamic schedule: order and batches (hand-worked)", test_batches},
               {"misuse aborts with a message", test_misuse},
               {"misuse through a returning callback", test_misuse_returns});
}

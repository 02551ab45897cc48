/* The strong-scaling arithmetic of `mulred report` (src/cli/report_math.h): speedup,
 * efficiency, Karp-Flatt, tree depth and the latency-bandwidth projection. */
#include <math.h>

#include "cli/report_math.h"
#include "harness.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-12 + 1e-9 * fabs(b))

static void test_speedup_efficiency(void)
{
    NEAR(mulred_speedup(10.0, 5.5), 10.0 / 5.5);
    NEAR(mulred_efficiency(mulred_speedup(10.0, 5.5), 2), 10.0 / 11.0);
    NEAR(mulred_efficiency(4.0, 4), 1.0);
    CU_ASSERT(isnan(mulred_speedup(10.0, 0)));
    CU_ASSERT(isnan(mulred_speedup(NAN, 1)));
    CU_ASSERT(isnan(mulred_efficiency(1.0, 0)));
}

static void test_karp_flatt(void)
{
    /* Amdahl with serial fraction f: S(p) = 1 / (f + (1 - f)/p); Karp-Flatt recovers f. */
    const double fractions[] = {0.0, 0.01, 0.1, 0.5};
    const double ps[] = {2, 3, 8, 1024};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            double f = fractions[i], p = ps[j];
            NEAR(mulred_karp_flatt(1.0 / (f + (1 - f) / p), p), f);
        }
    NEAR(mulred_karp_flatt(10.0 / 5.5, 2), 0.1);
    CU_ASSERT(isnan(mulred_karp_flatt(1.0, 1))); /* undefined for the baseline */
    CU_ASSERT(isnan(mulred_karp_flatt(0.0, 2)));
    /* Superlinear speedup gives a negative fraction; it is reported, not hidden. */
    CU_ASSERT(mulred_karp_flatt(3.0, 2) < 0);
}

static void test_tree_steps(void)
{
    CU_ASSERT_EQUAL(mulred_tree_steps(1), 0);
    CU_ASSERT_EQUAL(mulred_tree_steps(2), 1);
    CU_ASSERT_EQUAL(mulred_tree_steps(3), 2);
    CU_ASSERT_EQUAL(mulred_tree_steps(4), 2);
    CU_ASSERT_EQUAL(mulred_tree_steps(1024), 10);
    CU_ASSERT_EQUAL(mulred_tree_steps(1025), 11);
}

static void test_model(void)
{
    const mulred_model_workload w = {"t", "item", 1e6, 1e-6, 2e-6, 1000, 5e-5};
    const mulred_model_machine m = {4, 2, 1e-6, 1e9};
    mulred_model_time t = mulred_model_predict(&w, &m, 1);
    NEAR(t.compute, 1e6 * 1e-6 / 4);
    NEAR(t.thread_combine, 1 * 2e-6);               /* 2 threads per rank: one step */
    NEAR(t.reduce, 1 * (2e-6 + 1e-6 + 1000 / 1e9)); /* 2 ranks: one step */
    NEAR(t.finalize, 5e-5);
    NEAR(t.total, t.compute + t.thread_combine + t.reduce + t.finalize);
    mulred_model_time t8 = mulred_model_predict(&w, &m, 8); /* 16 ranks: 4 steps */
    NEAR(t8.compute, t.compute / 8);
    NEAR(t8.reduce, 4 * (2e-6 + 1e-6 + 1e-6));
    /* Efficiency falls with nodes: the reduce grows while compute shrinks. */
    double e8 = mulred_efficiency(mulred_speedup(t.total, t8.total), 8);
    CU_ASSERT(e8 < 1.0 && e8 > 0.5);
}

void test_register(void)
{
    TEST_SUITE("report", {"speedup and efficiency", test_speedup_efficiency},
               {"Karp-Flatt recovers Amdahl's serial fraction", test_karp_flatt},
               {"binomial tree steps", test_tree_steps}, {"latency-bandwidth model", test_model});
}

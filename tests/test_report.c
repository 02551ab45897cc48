/* The strong-scaling arithmetic of `mulred report` (src/cli/report_math.h): speedup,
 * efficiency, Karp-Flatt, tree depth and the latency-bandwidth projection. */
#include <math.h>

#include "cli/report_math.h"
#include "harness.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-12 + 1e-9 * fabs(b))

/* Worked by hand: a job of 10 s on one rank and 5.5 s on two runs 10/5.5 = 20/11
 * = 1.818181... times faster, each rank at 20/11 / 2 = 10/11 = 0.909090... of its share;
 * 12 s → 3 s is 4x, on 8 ranks half the ideal; 7 s → 7 s on 4 ranks is 1x, a quarter. */
static void test_speedup_efficiency(void)
{
    NEAR(mulred_speedup(10.0, 5.5), 1.8181818181818181);
    NEAR(mulred_efficiency(mulred_speedup(10.0, 5.5), 2), 0.9090909090909091);
    NEAR(mulred_speedup(12.0, 3.0), 4.0);
    NEAR(mulred_efficiency(4.0, 8), 0.5);
    NEAR(mulred_speedup(7.0, 7.0), 1.0);
    NEAR(mulred_efficiency(1.0, 4), 0.25);
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
    /* by hand, e = (1/S − 1/p) / (1 − 1/p): S = 20/11 on 2 ranks: (0.55 − 0.5) / 0.5 = 0.1;
     * S = 3 on 4: (1/3 − 1/4) / (3/4) = (1/12) / (3/4) = 1/9; S = 4 on 4: 0 */
    NEAR(mulred_karp_flatt(1.8181818181818181, 2), 0.1);
    NEAR(mulred_karp_flatt(3.0, 4), 0.1111111111111111);
    NEAR(mulred_karp_flatt(4.0, 4), 0.0);
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

/* The projection against numbers worked by hand (not through its formula), for the engine as
 * it runs: thread partials combined one after another, rank partials in a binomial tree.
 *
 * Workload: 10^6 items of 1 µs, op 2 µs, 1000-byte partials, finalize 50 µs.
 * Machine A: 4 cores and 2 ranks per node (2 threads per rank), α = 1 µs, β = 10^9 B/s:
 *   1 node:  compute 10^6 × 1 µs / 4 cores                  = 250 000 µs
 *            threads: 2 partials, 1 combine × 2 µs           =       2 µs
 *            ranks: 2, ⌈log₂ 2⌉ = 1 step × (2 + 1 + 1000/10^9 s = 1 µs) = 4 µs
 *            finalize                                        =      50 µs
 *            total                                           = 250 056 µs
 *   8 nodes: compute 10^6 µs / 32 cores                      =  31 250 µs
 *            threads: still 2 per rank                       =       2 µs
 *            ranks: 16, 4 steps × 4 µs                       =      16 µs
 *            total 31 250 + 2 + 16 + 50                      =  31 318 µs
 * Machine B: 16 cores, 2 ranks per node (8 threads per rank), same network:
 *   1 node:  compute 10^6 µs / 16                            =  62 500 µs
 *            threads: 8 partials, 7 combines × 2 µs          =      14 µs
 *            (a tree would take 3 × 2 µs = 6 µs: the model must say 14)
 *            ranks: 2, 1 step                                =       4 µs
 *            total 62 500 + 14 + 4 + 50                      =  62 568 µs
 * One rank of one thread per node (machine C: 1 core, 1 rank): 1 node has no combine and no
 * reduce step: 10^6 µs + 50 µs = 1 000 050 µs. */
static void test_model(void)
{
    const mulred_model_workload w = {"t", "item", 1e6, 1e-6, 2e-6, 1000, 50e-6};
    const mulred_model_machine a = {4, 2, 1e-6, 1e9}, b = {16, 2, 1e-6, 1e9}, c = {1, 1, 1e-6, 1e9};
    mulred_model_time t = mulred_model_predict(&w, &a, 1);
    NEAR(t.compute, 0.250000);
    NEAR(t.thread_combine, 0.000002);
    NEAR(t.reduce, 0.000004);
    NEAR(t.finalize, 0.000050);
    NEAR(t.total, 0.250056);
    t = mulred_model_predict(&w, &a, 8);
    NEAR(t.compute, 0.031250);
    NEAR(t.thread_combine, 0.000002);
    NEAR(t.reduce, 0.000016);
    NEAR(t.total, 0.031318);
    t = mulred_model_predict(&w, &b, 1);
    NEAR(t.compute, 0.062500);
    NEAR(t.thread_combine, 0.000014);
    NEAR(t.reduce, 0.000004);
    NEAR(t.total, 0.062568);
    t = mulred_model_predict(&w, &c, 1);
    NEAR(t.thread_combine, 0.0);
    NEAR(t.reduce, 0.0);
    NEAR(t.total, 1.000050);
    /* Efficiency falls with nodes: the reduce grows while compute shrinks. On machine A,
     * 250 056 / 31 318 = 7.9845 on 8 nodes: 99.81 %. */
    mulred_model_time t1 = mulred_model_predict(&w, &a, 1), t8 = mulred_model_predict(&w, &a, 8);
    NEAR(mulred_speedup(t1.total, t8.total), 250056.0 / 31318.0);
    CU_ASSERT_DOUBLE_EQUAL(mulred_efficiency(mulred_speedup(t1.total, t8.total), 8), 0.998052,
                           1e-6);
}

void test_register(void)
{
    TEST_SUITE("report", {"speedup and efficiency", test_speedup_efficiency},
               {"Karp-Flatt recovers Amdahl's serial fraction", test_karp_flatt},
               {"binomial tree steps", test_tree_steps}, {"latency-bandwidth model", test_model});
}

/* The strong-scaling arithmetic of `mulred report` (src/report/model.h): speedup, efficiency,
 * Karp-Flatt, tree depth and the latency-bandwidth-I/O projection. */
#include <math.h>

#include "report/model.h"
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
    /* nothing read: no I/O term */
    const mulred_model_workload w = {"t", "item", 1e6, 1e-6, 2e-6, 1000, 50e-6, 0};
    const mulred_model_machine a = {4, 2, 1e-6, 1e9, 0, 0}, b = {16, 2, 1e-6, 1e9, 0, 0},
                               c = {1, 1, 1e-6, 1e9, 0, 0};
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

/* The I/O term against numbers worked by hand: 13.5·10⁹ bytes, each core reading at 1.25·10⁹ B/s,
 * all of them together at most 10·10⁹ B/s (shared storage):
 *   1 node of 2 cores:  min(2 × 1.25e9, 10e9) = 2.5e9 B/s   → 13.5e9 / 2.5e9 = 5.4 s
 *   4 nodes (8 cores):  min(10e9, 10e9)       = 10e9        → 1.35 s
 *   32 nodes:           the storage, 10e9                   → 1.35 s (no longer shrinks)
 * With 10^8 items of 0.4 µs and nothing else, 32 nodes compute 10^8 × 0.4 µs / 64 = 0.625 s,
 * so reading (1.35 s) costs more than computing: the total is 1.975 s.
 * No storage limit: 32 nodes read at 64 × 1.25e9 = 80e9 B/s → 0.16875 s. Nothing read: 0. */
static void test_model_io(void)
{
    NEAR(mulred_model_io(13.5e9, 2, 1.25e9, 10e9), 5.4);
    NEAR(mulred_model_io(13.5e9, 8, 1.25e9, 10e9), 1.35);
    NEAR(mulred_model_io(13.5e9, 64, 1.25e9, 10e9), 1.35);
    NEAR(mulred_model_io(13.5e9, 64, 1.25e9, 0), 0.16875);
    NEAR(mulred_model_io(13.5e9, 64, 0, 10e9), 1.35);
    NEAR(mulred_model_io(0, 64, 1.25e9, 10e9), 0.0);
    const mulred_model_workload w = {"t", "coin", 1e8, 0.4e-6, 0, 768, 0, 13.5e9};
    const mulred_model_machine m = {2, 1, 1e-6, 1e9, 1.25e9, 10e9};
    mulred_model_time t = mulred_model_predict(&w, &m, 32);
    NEAR(t.compute, 0.625);
    NEAR(t.io, 1.35);
    /* 2 threads: one combine of op 0; 32 ranks: 5 steps × (0 + 1 µs + 768 / 10^9 s) */
    NEAR(t.reduce, 5 * (1e-6 + 768e-9));
    NEAR(t.total, 0.625 + 1.35 + 5 * (1e-6 + 768e-9));
    t = mulred_model_predict(&w, &m, 1);
    NEAR(t.io, 5.4);
    NEAR(t.total, 20.0 + 5.4);
}

void test_register(void)
{
    TEST_SUITE("report", {"speedup and efficiency", test_speedup_efficiency},
               {"Karp-Flatt recovers Amdahl's serial fraction", test_karp_flatt},
               {"binomial tree steps", test_tree_steps}, {"latency-bandwidth model", test_model},
               {"I/O term: per-core reads, then the storage", test_model_io});
}

/* Test harness: every tests/test_NAME.c defines test_register(), which adds CUnit suites; the
 * runner (harness.c) prints the random seed, accepts --seed N (or MULRED_TEST_SEED) and
 * --part base|x8 (TEST_SUITE_X8 below), runs all
 * suites and exits non-zero when any assertion failed. */
#ifndef MULRED_TEST_HARNESS_H
#define MULRED_TEST_HARNESS_H

#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

void test_register(void);

/* Adds a suite with the given tests: TEST_SUITE("name", {"case", fn}, ...). */
typedef struct {
    const char *name;
    void (*fn)(void);
} test_case;
void test_add_suite(const char *name, const test_case *cases, size_t n);
#define TEST_SUITE(name, ...)                                                                      \
    do {                                                                                           \
        static const test_case cases_[] = {__VA_ARGS__};                                           \
        test_add_suite(name, cases_, sizeof cases_ / sizeof cases_[0]);                            \
    } while (0)

/* The 8-lane part of a suite binary (cases of the AVX-512 IFMA kernels): TEST_SUITE_X8 adds a
 * suite like TEST_SUITE but marks it 8-lane. The binary runs every suite by default; with
 * `--part base` all but the 8-lane ones, with `--part x8` only those. CTest runs a binary that
 * has such suites twice, as unit.NAME (--part base) and unit.NAME.x8 (--part x8), so on a CPU
 * without IFMA the 8-lane part reports Skipped and the rest still counts (tests/CMakeLists.txt
 * finds TEST_SUITE_X8 in the source). */
void test_add_suite_x8(const char *name, const test_case *cases, size_t n);
#define TEST_SUITE_X8(name, ...)                                                                   \
    do {                                                                                           \
        static const test_case cases_[] = {__VA_ARGS__};                                           \
        test_add_suite_x8(name, cases_, sizeof cases_ / sizeof cases_[0]);                         \
    } while (0)
/* Whether the 8-lane kernels can run here: mulred_fieldx8_have_ifma() (always in the emulated
 * build), unless MULRED_TEST_NO_X8=1, which makes an IFMA machine take the skip path of a CPU
 * without it (the library still chooses its kernels by the CPU). */
int test_have_x8(void);

/* Deterministic pseudo-random numbers from the run's seed (xoshiro256**). */
/* Records that part of the suite could not run on this CPU (a kernel or a lane width it lacks),
 * printing "(WHY, skipped)". A suite with a skip and no failure exits 77, which CTest reports as
 * skipped (SKIP_RETURN_CODE), never as passed. */
void test_skip(const char *why);
uint64_t test_seed(void);
uint64_t test_rand64(void);
void test_rand_bytes(uint8_t *buf, size_t n);
/* Uniform in [0, n). */
uint64_t test_rand_below(uint64_t n);

/* Directory of the conformance vectors: $MULRED_VECTORS, else tests/vectors of the source tree
 * (set by CMake). Returns "DIR/rel" in a static buffer (one at a time). */
const char *test_vector_path(const char *rel);
/* The JSON vector file test_vector_path(rel), duplicate keys refused; NULL (the reason printed)
 * when it cannot be read or parsed. */
json_t *test_load_json(const char *rel);
/* Directory for temporary files of this test run (created on first use). */
const char *test_tmpdir(void);
/* Runs fn in a child process (forked: fn may abort) and returns what it wrote to stderr
 * (malloc'd, NUL-terminated, at most 4 KiB); *wstatus gets waitpid's status. */
char *test_run_child(void (*fn)(void), int *wstatus);
/* Hex string to bytes; asserts it is well-formed. Returns malloc'd buffer, length in *len. */
uint8_t *test_unhex(const char *hex, size_t *len);

#endif

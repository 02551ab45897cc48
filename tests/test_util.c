#define _GNU_SOURCE
/* util layer: hex, little-endian, median, the checked assertion, reading a file with a bound,
 * large allocations. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "mulred/msm.h"
#include "util/util.h"

static void test_hex(void)
{
    uint8_t buf[4];
    char out[9];
    CU_ASSERT_EQUAL(mulred_hex_decode(buf, "00fFa9", 3, NULL), 0);
    CU_ASSERT_EQUAL(buf[0], 0x00);
    CU_ASSERT_EQUAL(buf[1], 0xff);
    CU_ASSERT_EQUAL(buf[2], 0xa9);
    mulred_hex_encode(out, buf, 3);
    CU_ASSERT_STRING_EQUAL(out, "00ffa9");
    mulred_hex_encode_reversed(out, buf, 3);
    CU_ASSERT_STRING_EQUAL(out, "a9ff00");
    size_t bad = 0;
    CU_ASSERT_EQUAL(mulred_hex_decode(buf, "0g", 1, &bad), -1);
    CU_ASSERT_EQUAL(bad, 1);
    for (int i = 0; i < 1000; i++) {
        uint8_t r[32], back[32];
        char h[65];
        test_rand_bytes(r, sizeof r);
        mulred_hex_encode(h, r, sizeof r);
        CU_ASSERT_EQUAL_FATAL(mulred_hex_decode(back, h, sizeof back, NULL), 0);
        CU_ASSERT_EQUAL(memcmp(r, back, sizeof r), 0);
    }
}

static void test_le(void)
{
    uint8_t b[8];
    uint64_t x = test_rand64();
    mulred_store_le64(b, x);
    CU_ASSERT_EQUAL(mulred_load_le64(b), x);
    CU_ASSERT_EQUAL(b[0], (uint8_t)x);
    CU_ASSERT_EQUAL(b[7], (uint8_t)(x >> 56));
}

static void test_median(void)
{
    double v[] = {5, 1, 3, 2, 4};
    CU_ASSERT_DOUBLE_EQUAL(mulred_median(v, 5), 3, 0);
    double w[] = {4, 1, 3, 2};
    CU_ASSERT_DOUBLE_EQUAL(mulred_median(w, 4), 2.5, 0);
}

#ifndef MULRED_VERIFY_CHECKS
#error "the unit suites are built with MULRED_VERIFY_CHECKS (tests/CMakeLists.txt)"
#endif

static void fail_check(void)
{
    int three = 3;
    MULRED_CHECK(three == 4, "three is %d", three);
}
static const int fail_check_line = __LINE__ - 2; /* the check's line */

static int count_evaluation(void)
{
    static int evaluations;
    return ++evaluations;
}
static void fail_verify(void)
{
    MULRED_VERIFY(count_evaluation() == 0);
}

/* MULRED_CHECK prints file, line, condition and message, then aborts. MULRED_VERIFY does the
 * same in this build (the suites link the library and compile themselves with
 * MULRED_VERIFY_CHECKS on, see tests/CMakeLists.txt). */
static void test_checks(void)
{
    int ws = 0;
    char *err = test_run_child(fail_check, &ws);
    CU_ASSERT(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
    char want[128];
    snprintf(want, sizeof want, "mulred: tests/test_util.c:%d: three == 4: three is 3\n",
             fail_check_line);
    CU_ASSERT_STRING_EQUAL(err, want);
    free(err);
    MULRED_CHECK(1 + 1 == 2, "not reached"); /* a true check returns */
    err = test_run_child(fail_verify, &ws);
    CU_ASSERT(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ": count_evaluation() == 0: invariant broken"));
    free(err);
}

/* mulred_read_file's bound: a file of exactly max bytes is read; one byte more is bad input
 * naming the file and the offset of that byte; an endless file ends at the bound. */
static void test_read_bound(void)
{
    char path[] = "/tmp/mulred-test-util-XXXXXX";
    const int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    char bytes[100];
    memset(bytes, 'a', sizeof bytes);
    CU_ASSERT_FATAL(write(fd, bytes, sizeof bytes) == (ssize_t)sizeof bytes);
    close(fd);
    char *data = NULL;
    size_t len = 0;
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_read_file(path, &data, &len, 100, "a test file", &err), MULRED_OK);
    CU_ASSERT_EQUAL(len, 100);
    CU_ASSERT(data && data[100] == '\0' && data[0] == 'a' && data[99] == 'a');
    free(data);
    data = NULL;
    CU_ASSERT_EQUAL(mulred_read_file(path, &data, &len, 99, "a test file", &err), MULRED_EINPUT);
    CU_ASSERT_PTR_NULL(data);
    char want[600];
    snprintf(want, sizeof want, "%s: byte 99: longer than 99 bytes, not a test file", path);
    CU_ASSERT_STRING_EQUAL(err.message, want);
    unlink(path);
    CU_ASSERT_EQUAL(mulred_read_file("/dev/zero", &data, &len, 1 << 20, "a blob", &err),
                    MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "/dev/zero: byte 1048576: longer than 1048576 bytes, not a blob");
}

/* The misuse callback: a caller-set callback sees "FILE:LINE: COND" for a failed argument check
 * and the function returns MULRED_EMISUSE (a library function: an MSM window range outside the
 * plan; a local one); a callback that longjmps out of a check that cannot return
 * (MULRED_CHECK) gets control back; NULL restores the default (print and abort). */
typedef struct {
    int calls;
    char msg[256];
    jmp_buf *jump;
} misuse_log;

static void record_misuse(const char *msg, void *data)
{
    misuse_log *log = data;
    log->calls++;
    snprintf(log->msg, sizeof log->msg, "%s", msg);
    if (log->jump) longjmp(*log->jump, 1);
}

static mulred_status needs_positive(int v)
{
    MULRED_ARG_CHECK(v > 0);
    return MULRED_OK;
}
static const int needs_positive_line = __LINE__ - 3;

/* mulred_alloc_large: sizes near SIZE_MAX fail instead of wrapping when rounded up to 2 MiB;
 * large blocks are aligned to 2 MiB and usable to their last byte; small ones are plain. */
static void test_alloc_large(void)
{
    CU_ASSERT_PTR_NULL(mulred_alloc_large(SIZE_MAX));
    CU_ASSERT_PTR_NULL(mulred_alloc_large(SIZE_MAX - ((size_t)1 << 20)));
    const size_t big = ((size_t)5 << 20) + 3;
    unsigned char *p = mulred_alloc_large(big);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL((uintptr_t)p & (((uintptr_t)2 << 20) - 1), 0);
    memset(p, 0xa5, big);
    CU_ASSERT_EQUAL(p[big - 1], 0xa5);
    free(p);
    char *q = mulred_alloc_large(100);
    CU_ASSERT_PTR_NOT_NULL(q);
    free(q);
}

static void misuse_default_child(void)
{
    needs_positive(-1);
    exit(0); /* not reached: the default aborts */
}

static void test_illegal_callback(void)
{
    misuse_log log = {0};
    mulred_set_illegal_callback(record_misuse, &log);
    CU_ASSERT_EQUAL(needs_positive(1), MULRED_OK);
    CU_ASSERT_EQUAL(log.calls, 0);
    CU_ASSERT_EQUAL(needs_positive(0), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(log.calls, 1);
    char want[128];
    snprintf(want, sizeof want, "tests/test_util.c:%d: v > 0", needs_positive_line);
    CU_ASSERT_STRING_EQUAL(log.msg, want);

    /* a library entry point: windows [3, 2) are outside any plan */
    mulred_msm_plan plan;
    mulred_g1_254_msm_plan(&plan, 16, NULL);
    CU_ASSERT_EQUAL(log.calls, 1);
    mulred_g1_254_jacobian r;
    mulred_g1_254_jacobian_set_infinity(&r);
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_g1_254_msm_windows_var(&r, &plan, 3, 2, NULL, NULL, 0, 1, &err),
                    MULRED_EMISUSE);
    CU_ASSERT_EQUAL(log.calls, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(log.msg, "src/msm/msm_threads_impl.h:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(log.msg, "window0 < window1"));
    /* misuse in a plan's options: the plan stays invalid and the MSM reports it */
    mulred_msm_options bad = {.window_bits = 23}; /* past the widest, 22 */
    CU_ASSERT_EQUAL(mulred_g1_254_msm_var(&r, NULL, NULL, 4, &bad, 1, &err), MULRED_EMISUSE);
    CU_ASSERT_EQUAL(log.calls, 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(log.msg, "window_bits"));

    /* a check that cannot return: the callback leaves by longjmp */
    jmp_buf jump;
    log.jump = &jump;
    if (setjmp(jump) == 0) {
        fail_check();
        CU_FAIL("MULRED_CHECK returned");
    }
    CU_ASSERT_EQUAL(log.calls, 4);
    snprintf(want, sizeof want, "tests/test_util.c:%d: three == 4: three is 3", fail_check_line);
    CU_ASSERT_STRING_EQUAL(log.msg, want);

    mulred_set_illegal_callback(NULL, NULL);
    int ws = 0;
    char *out = test_run_child(misuse_default_child, &ws);
    CU_ASSERT(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
    snprintf(want, sizeof want, "mulred: tests/test_util.c:%d: v > 0\n", needs_positive_line);
    CU_ASSERT_STRING_EQUAL(out, want);
    free(out);
}

void test_register(void)
{
    TEST_SUITE("util", {"hex", test_hex}, {"little-endian", test_le}, {"median", test_median},
               {"checked assertions", test_checks}, {"read a file with a bound", test_read_bound},
               {"the misuse callback", test_illegal_callback},
               {"large allocations", test_alloc_large});
}

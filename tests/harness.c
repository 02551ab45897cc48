#define _GNU_SOURCE
#include "harness.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "field/field_x8.h"
#include "util/util.h"

static uint64_t seed_value;
static uint64_t rng_state[4];

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t test_seed(void)
{
    return seed_value;
}

uint64_t test_rand64(void)
{
    uint64_t *s = rng_state;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void test_rand_bytes(uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t r = test_rand64();
        for (size_t j = 0; j < 8 && i + j < n; j++) buf[i + j] = (uint8_t)(r >> (8 * j));
    }
}

uint64_t test_rand_below(uint64_t n)
{
    return n ? test_rand64() % n : 0;
}

const char *test_vector_path(const char *rel)
{
    static char path[4096];
    const char *dir = getenv("MULRED_VECTORS");
    if (!dir || !*dir) dir = MULRED_VECTORS_DIR;
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return path;
}

const char *test_tmpdir(void)
{
    static char dir[256];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/mulred-test-XXXXXX",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(3);
        }
    }
    return dir;
}

char *test_run_child(void (*fn)(void), int *wstatus)
{
    int fds[2];
    CU_ASSERT_FATAL(pipe(fds) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        fn();
        _exit(0);
    }
    close(fds[1]);
    char *text = calloc(1, 4096);
    CU_ASSERT_FATAL(text != NULL);
    size_t n = 0;
    ssize_t r;
    while (n < 4095 && (r = read(fds[0], text + n, 4095 - n)) > 0) n += (size_t)r;
    close(fds[0]);
    CU_ASSERT_FATAL(waitpid(pid, wstatus, 0) == pid);
    return text;
}

uint8_t *test_unhex(const char *hex, size_t *len)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(hex);
    size_t n = strlen(hex);
    if (n >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex += 2, n -= 2;
    CU_ASSERT_FATAL(n % 2 == 0);
    uint8_t *out = malloc(n / 2 + 1);
    CU_ASSERT_FATAL(out != NULL);
    CU_ASSERT_FATAL(mulred_hex_decode(out, hex, n / 2, NULL) == 0);
    *len = n / 2;
    return out;
}

/* which suites this run registers: all, all but the 8-lane ones, or only those (--part) */
static enum { PART_ALL, PART_BASE, PART_X8 } part;

static void add_suite(const char *name, const test_case *cases, size_t n)
{
    CU_pSuite suite = CU_add_suite(name, NULL, NULL);
    if (!suite) {
        fprintf(stderr, "CU_add_suite(%s): %s\n", name, CU_get_error_msg());
        exit(3);
    }
    for (size_t i = 0; i < n; i++)
        if (!CU_add_test(suite, cases[i].name, cases[i].fn)) {
            fprintf(stderr, "CU_add_test(%s): %s\n", cases[i].name, CU_get_error_msg());
            exit(3);
        }
}

void test_add_suite(const char *name, const test_case *cases, size_t n)
{
    if (part != PART_X8) add_suite(name, cases, n);
}

void test_add_suite_x8(const char *name, const test_case *cases, size_t n)
{
    if (part != PART_BASE) add_suite(name, cases, n);
}

int test_have_x8(void)
{
    const char *no = getenv("MULRED_TEST_NO_X8");
    if (no && strcmp(no, "1") == 0) return 0;
    return mulred_fieldx8_have_ifma();
}

static unsigned skips;

void test_skip(const char *why)
{
    printf("\n    (%s, skipped)", why);
    skips++;
}

int main(int argc, char **argv)
{
    const char *env = getenv("MULRED_TEST_SEED");
    seed_value =
        env && *env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed_value = strtoull(argv[++i], NULL, 0);
        else if (strncmp(argv[i], "--seed=", 7) == 0)
            seed_value = strtoull(argv[i] + 7, NULL, 0);
        else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc &&
                 (strcmp(argv[i + 1], "base") == 0 || strcmp(argv[i + 1], "x8") == 0))
            part = strcmp(argv[++i], "x8") == 0 ? PART_X8 : PART_BASE;
        else {
            fprintf(stderr, "usage: %s [--seed N] [--part base|x8]\n", argv[0]);
            return 1;
        }
    }
    uint64_t x = seed_value;
    for (int i = 0; i < 4; i++) rng_state[i] = splitmix64(&x);
    printf("%s: seed %llu (rerun with --seed %llu)\n", argv[0], (unsigned long long)seed_value,
           (unsigned long long)seed_value);
    fflush(stdout);

    if (CU_initialize_registry() != CUE_SUCCESS) return 3;
    test_register();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures();
    int error = CU_get_error();
    CU_cleanup_registry();
    if (failures)
        printf("%s: %u assertion(s) failed; seed %llu\n", argv[0], failures,
               (unsigned long long)seed_value);
    if (!failures && !error && skips)
        printf("%s: %u part(s) skipped on this CPU: reported as skipped (77)\n", argv[0], skips);
    return failures ? 1 : error ? error : skips ? 77 : 0;
}

json_t *test_load_json(const char *rel)
{
    json_error_t jerr;
    json_t *v = json_load_file(test_vector_path(rel), JSON_REJECT_DUPLICATES, &jerr);
    if (!v) printf("\n    %s: line %d: %s\n", rel, jerr.line, jerr.text);
    return v;
}

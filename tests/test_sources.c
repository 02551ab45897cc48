/* Element files and synthetic sets: any split into ranks and chunks yields the same multiset. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "mulred/muhash.h"
#include "mulred/plan.h"
#include "mulred/sources.h"

static void digest_hex(char hex[65], const mulred_muhash_state *s)
{
    uint8_t d[32];
    mulred_muhash_finalize(d, s);
    mulred_muhash_display(hex, d, s->flavor);
}

/* Reduces `path` as rank r of n (its units by the plan) with the given chunk size, for every r,
 * combining the ranks. */
static int file_digest(char hex[65], const char *path, int nranks, size_t chunk, int threads,
                       mulred_error *err)
{
    mulred_muhash_state total, part;
    mulred_muhash_init(&total, MULRED_MUHASH_BITCOIN);
    for (int r = 0; r < nranks; r++) {
        mulred_source_file *f;
        if (mulred_source_file_open(&f, path, false, chunk, true, err)) return err->status;
        CU_ASSERT(!mulred_source_file_is_stream(f));
        mulred_unit_range u = mulred_plan_units(mulred_source_file_units(f), r, nranks);
        const mulred_muhash_source *src = mulred_source_file_select(f, u.first, u.end);
        int st = mulred_muhash_reduce(&part, MULRED_MUHASH_BITCOIN, src, 1, threads, NULL, err);
        mulred_source_file_close(f);
        if (st) return st;
        mulred_muhash_combine(&total, &part);
    }
    digest_hex(hex, &total);
    return MULRED_OK;
}

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_file_splits(void)
{
    /* Lines of varied lengths, comments, blanks, CRLF, spaces, no trailing newline. */
    char text[8192] = "# comment line\n\n";
    size_t n = strlen(text);
    mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_BITCOIN);
    mulred_muhash_state ref;
    mulred_muhash_init(&ref, MULRED_MUHASH_BITCOIN);
    for (int i = 0; i < 60; i++) {
        uint8_t e[40];
        size_t len = 1 + test_rand_below(sizeof e);
        test_rand_bytes(e, len);
        mulred_muhash_insert(&ref, ctx, e, len);
        if (i % 7 == 3) n += (size_t)snprintf(text + n, sizeof text - n, "  ");
        for (size_t j = 0; j < len; j++)
            n += (size_t)snprintf(text + n, sizeof text - n, i % 2 ? "%02X" : "%02x", e[j]);
        n += (size_t)snprintf(text + n, sizeof text - n, "%s",
                              i == 59       ? ""
                              : i % 5 == 0  ? "\r\n"
                              : i % 11 == 0 ? "\t\n\n# x\n"
                                            : "\n");
    }
    mulred_muhash_ctx_free(ctx);
    char want[65], got[65];
    digest_hex(want, &ref);
    const char *path = write_file("split.txt", text);
    static const size_t chunks[] = {1, 2, 3, 5, 16, 17, 64, 100, 1000, 0};
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
        for (int nranks = 1; nranks <= 5; nranks++) {
            mulred_error err;
            mulred_error_clear(&err);
            CU_ASSERT_EQUAL_FATAL(file_digest(got, path, nranks, chunks[k], 1 + nranks % 3, &err),
                                  MULRED_OK);
            CU_ASSERT_STRING_EQUAL(got, want);
        }
}

static void expect_file_error(const char *text, const char *message, size_t chunk)
{
    const char *path = write_file("bad.txt", text);
    char full[600], got[65];
    snprintf(full, sizeof full, "%s%s", path, message);
    mulred_error err;
    mulred_error_clear(&err);
    CU_ASSERT_EQUAL(file_digest(got, path, 3, chunk, 2, &err), MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, full);
}

static void test_file_errors(void)
{
    for (size_t chunk = 1; chunk <= 64; chunk *= 4) {
        expect_file_error("00\n0g\n", ":2: column 2: 'g' is not a hex digit", chunk);
        expect_file_error("00\n# fine\n\nabc\n", ":4: odd number of hex digits (3)", chunk);
        expect_file_error("00\n11 22\n", ":2: column 3: ' ' is not a hex digit", chunk);
        /* the lowest failing line wins even when later chunks fail too */
        expect_file_error("00\nzz\nyy\nxx", ":2: column 1: 'z' is not a hex digit", chunk);
    }
    mulred_source_file *f;
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_source_file_open(&f, "/nonexistent/elements", false, 0, true, &err),
                    MULRED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/nonexistent/elements: cannot open"));
    CU_ASSERT_EQUAL(mulred_source_file_open(&f, "/tmp", false, 0, true, &err), MULRED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/tmp: is a directory"));
}

/* Random files with one bad byte at a random column of a random line (every kind of byte, at
 * every offset from the line start across the decoding kernels' 32- and 64-byte blocks): the
 * message names the line, the column and the byte as counted here, for chunk sizes that put
 * chunk boundaries inside lines; and the good files give the reference digest. */
static void test_file_bad_bytes(void)
{
    static const char SHOWN[] = "gGzx:/@`\x01\x7f";
    char *text = malloc(1 << 16);
    for (int it = 0; it < 40; it++) {
        size_t n = 0;
        const int lines = 1 + (int)test_rand_below(60), bad_line = 1 + (int)test_rand_below(lines);
        char want[160] = "";
        mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_BITCOIN);
        mulred_muhash_state ref;
        mulred_muhash_init(&ref, MULRED_MUHASH_BITCOIN);
        const bool corrupt = it % 4 != 0;
        for (int l = 1; l <= lines; l++) {
            uint8_t e[100];
            const size_t len = 1 + test_rand_below(sizeof e);
            test_rand_bytes(e, len);
            const size_t line_start = n;
            const size_t lead = test_rand_below(3);
            for (size_t j = 0; j < lead; j++) text[n++] = j % 2 ? '\t' : ' ';
            for (size_t j = 0; j < len; j++)
                n += (size_t)snprintf(text + n, 3, test_rand_below(2) ? "%02X" : "%02x", e[j]);
            if (corrupt && l == bad_line) {
                const size_t col = lead + test_rand_below(2 * len); /* 0-based */
                const char b = SHOWN[test_rand_below(sizeof SHOWN - 1)];
                text[line_start + col] = b;
                snprintf(want, sizeof want, ":%d: column %zu: '%c' is not a hex digit", l, col + 1,
                         (unsigned char)b >= 0x20 ? b : '?');
            }
            mulred_muhash_insert(&ref, ctx, e, len);
            n += (size_t)snprintf(text + n, 3, "%s", l % 3 ? "\n" : "\r\n");
        }
        text[n] = 0;
        mulred_muhash_ctx_free(ctx);
        const char *path = write_file("bad_bytes.txt", text);
        char full[700], got[65], ref_hex[65];
        digest_hex(ref_hex, &ref);
        snprintf(full, sizeof full, "%s%s", path, want);
        static const size_t chunks[] = {0, 7, 100};
        for (size_t k = 0; k < 3; k++) {
            mulred_error err;
            mulred_error_clear(&err);
            const int st = file_digest(got, path, 1 + it % 3, chunks[k], 1 + it % 2, &err);
            CU_ASSERT_EQUAL(st, corrupt ? MULRED_EINPUT : MULRED_OK);
            if (corrupt) {
                CU_ASSERT_STRING_EQUAL(err.message, full);
            } else {
                CU_ASSERT_STRING_EQUAL(got, ref_hex);
            }
        }
    }
    free(text);
}

/* The digest of an element stream read whole by one rank (all its units). */
static int stream_digest(char hex[65], const char *path, mulred_error *err)
{
    mulred_source_file *f;
    if (mulred_source_file_open(&f, path, false, 0, true, err)) return err->status;
    CU_ASSERT(mulred_source_file_is_stream(f));
    const mulred_muhash_source *src = mulred_source_file_select(f, 0, mulred_source_file_units(f));
    mulred_muhash_state s;
    int st = mulred_muhash_reduce(&s, MULRED_MUHASH_BITCOIN, src, 1, 1, NULL, err);
    mulred_source_file_close(f);
    if (st) return st;
    uint8_t d[32];
    mulred_muhash_finalize(d, &s);
    mulred_muhash_display(hex, d, MULRED_MUHASH_BITCOIN);
    return MULRED_OK;
}

/* A line longer than the limit is refused wherever it sits and whatever the chunk size (it was
 * accepted when its chunk's buffer happened to hold it whole: at the start of a large chunk). */
static void test_line_limit(void)
{
    const size_t limit = 2 * MULRED_MUHASH_MAX_ELEMENT + 256;
    char *text = malloc(limit + 16);
    for (int over = 0; over <= 1; over++) {
        memset(text, ' ', limit + over);
        text[0] = '#';
        strcpy(text + limit + over, "\n00\n");
        const char *path = write_file("long.txt", text);
        /* (Chunks of a few bytes would each read a maximal line: 10^5 of them, too slow for
         * the sanitizer build.) The default chunk holds the whole line; 4096 does not. */
        static const size_t chunks[] = {4096, 0};
        for (size_t k = 0; k < 2; k++) {
            char got[65], full[600];
            mulred_error err;
            mulred_error_clear(&err);
            int st = file_digest(got, path, 1, chunks[k], 1, &err);
            CU_ASSERT_EQUAL(st, over ? MULRED_EINPUT : MULRED_OK);
            snprintf(full, sizeof full, "%s:1: line longer than %zu characters", path, limit);
            if (over) CU_ASSERT_STRING_EQUAL(err.message, full);
        }
    }
    free(text);
}

/* A named FIFO without a writer is refused at once (it hung the open); with its writer attached
 * it is read to its end like a pipe. */
static void test_fifo(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/elements.fifo", test_tmpdir());
    unlink(path);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
    mulred_source_file *f = NULL;
    mulred_error err;
    mulred_error_clear(&err);
    CU_ASSERT_EQUAL(mulred_source_file_open(&f, path, false, 0, true, &err), MULRED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "elements.fifo: a FIFO with no writer"));
    /* A writer attached: a child holds the write end and writes after a pause, so the reader
     * usually meets a writer without data yet; `keep`, a second reader, keeps the FIFO's buffer
     * alive whichever runs first. */
    int keep = open(path, O_RDONLY | O_NONBLOCK), w = open(path, O_WRONLY | O_NONBLOCK);
    CU_ASSERT_FATAL(keep >= 0 && w >= 0);
    const char text[] = "0001\n# x\n02\n";
    pid_t child = fork();
    if (child == 0) {
        usleep(100000);
        _exit(write(w, text, sizeof text - 1) == (ssize_t)(sizeof text - 1) ? 0 : 1);
    }
    close(w);
    mulred_error_clear(&err);
    char got[65], want[65];
    int st = stream_digest(got, path, &err), status = -1;
    waitpid(child, &status, 0);
    close(keep);
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_EQUAL(st, MULRED_OK);
    CU_ASSERT_STRING_EQUAL(err.message, "");
    CU_ASSERT_EQUAL(file_digest(want, write_file("fifo_ref.txt", text), 1, 0, 1, &err), MULRED_OK);
    CU_ASSERT_STRING_EQUAL(got, want);
    unlink(path);
}

/* Units of a synthetic set: blocks of MULRED_SOURCE_SYNTH_CHUNK elements, the last one shorter. */
static void test_synthetic_units(void)
{
    static const struct {
        uint64_t n, units;
    } cases[] = {{0, 0},    {1, 1},    {1023, 1}, {1024, 1},
                 {1025, 2}, {2048, 2}, {2049, 3}, {UINT64_MAX, UINT64_MAX / 1024 + 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t n = cases[i].n, u = mulred_source_synth_units(n);
        CU_ASSERT_EQUAL(u, cases[i].units);
        mulred_source_synth_set set = {MULRED_MUHASH_BITCOIN, 1, 99, 99, false};
        mulred_source_synth_select(&set, n, 0, u);
        CU_ASSERT(set.first == 0 && set.count == n); /* all units: the whole set */
        if (u == 0) continue;
        mulred_source_synth_select(&set, n, u - 1, u);
        CU_ASSERT_EQUAL(set.first, (u - 1) * 1024);
        CU_ASSERT_EQUAL(set.count, n - (u - 1) * 1024); /* the last block: the remainder */
        mulred_source_synth_select(&set, n, u, u);
        CU_ASSERT_EQUAL(set.count, 0);
    }
}

static void test_synthetic(void)
{
    for (int f = 0; f < 2; f++) {
        mulred_muhash_flavor flavor = (mulred_muhash_flavor)f;
        uint8_t a[MULRED_SOURCE_SYNTH_MAX_ELEMENT], b[MULRED_SOURCE_SYNTH_MAX_ELEMENT];
        size_t lens[2000];
        int kinds[5] = {0};
        for (uint64_t i = 0; i < 2000; i++) {
            size_t n = mulred_source_synth_element(a, flavor, 42, i);
            CU_ASSERT_EQUAL(mulred_source_synth_element(b, flavor, 42, i), n);
            CU_ASSERT(memcmp(a, b, n) == 0); /* a pure function */
            size_t fixed =
                flavor == MULRED_MUHASH_BITCOIN ? 32 + 4 + 4 + 8 : 32 + 4 + 8 + 8 + 1 + 2 + 8;
            CU_ASSERT(n > fixed && n <= MULRED_SOURCE_SYNTH_MAX_ELEMENT);
            size_t script =
                flavor == MULRED_MUHASH_BITCOIN ? n - fixed - (n - fixed > 253 ? 3 : 1) : n - fixed;
            kinds[script == 22 ? 0 : script == 25 ? 1 : script == 34 ? 2 : script == 23 ? 3 : 4]++;
            lens[i] = n;
            CU_ASSERT(mulred_source_synth_element(b, flavor, 43, i) != n || memcmp(a, b, n) != 0);
        }
        for (int k = 0; k < 5; k++) CU_ASSERT(kinds[k] > 0); /* every script class occurs */
        (void)lens;
        if (flavor == MULRED_MUHASH_KASPA) { /* 97-byte elements for 34-byte scripts */
            size_t n = 0;
            for (uint64_t i = 0; i < 200 && n != 97; i++)
                n = mulred_source_synth_element(a, flavor, 1, i);
            CU_ASSERT_EQUAL(n, 97);
        }
        /* a set reduced whole equals the same set split into ranges */
        char whole[65], split[65];
        mulred_source_synth_set set = {flavor, 9, 0, 10000, false};
        mulred_muhash_source src;
        mulred_source_synth_source(&src, &set);
        mulred_muhash_state s, t, u;
        mulred_error err;
        CU_ASSERT_EQUAL(mulred_muhash_reduce(&s, flavor, &src, 1, 2, NULL, &err), MULRED_OK);
        digest_hex(whole, &s);
        for (int nranks = 1; nranks <= 12; nranks += 1 + nranks / 2) {
            mulred_muhash_init(&t, flavor);
            uint64_t covered = 0;
            for (int r = 0; r < nranks; r++) {
                mulred_source_synth_set part = {flavor, 9, 0, 0, false};
                mulred_unit_range rr =
                    mulred_plan_units(mulred_source_synth_units(10000), r, nranks);
                mulred_source_synth_select(&part, 10000, rr.first, rr.end);
                CU_ASSERT_EQUAL(part.first, covered); /* units of 1024 elements, in order */
                CU_ASSERT(part.first % MULRED_SOURCE_SYNTH_CHUNK == 0);
                covered += part.count;
                mulred_source_synth_source(&src, &part);
                CU_ASSERT_EQUAL(mulred_muhash_reduce(&u, flavor, &src, 1, 1 + r % 3, NULL, &err),
                                MULRED_OK);
                mulred_muhash_combine(&t, &u);
            }
            CU_ASSERT_EQUAL(covered, 10000);
            digest_hex(split, &t);
            CU_ASSERT_STRING_EQUAL(whole, split);
        }
    }
}

void test_register(void)
{
    TEST_SUITE("sources", {"element files: every rank/chunk split", test_file_splits},
               {"element files: errors name FILE:LINE", test_file_errors},
               {"element files: a bad byte anywhere", test_file_bad_bytes},
               {"element files: line limit", test_line_limit},
               {"element files: named FIFOs", test_fifo}, {"synthetic units", test_synthetic_units},
               {"synthetic UTXO sets", test_synthetic});
}

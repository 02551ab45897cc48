/* Hex kernels (src/io/hex_kernels.h): every kernel the CPU has against a plain reference written
 * here, on random text and on hostile text: every length up to a few blocks, a bad byte at every
 * position (so on both sides of every SIMD lane and block boundary), upper and lower case, every
 * whitespace byte, every byte value, inputs that end at a page the process may not read. A kernel
 * the CPU lacks is skipped with a message. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "io/hex_kernels.h"

/* The reference: the value of a hex digit, else -1. */
static int ref_digit(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int ref_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static size_t ref_decode(uint8_t *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < 2 * n; i++) {
        const int v = ref_digit((unsigned char)src[i]);
        if (v < 0) return i;
        if (i % 2)
            dst[i / 2] |= (uint8_t)v;
        else
            dst[i / 2] = (uint8_t)(v << 4);
    }
    return 2 * n;
}

static size_t ref_count(const char *src, size_t len, size_t *stop)
{
    size_t count = 0;
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)src[i];
        if (ref_digit(c) < 0 && !ref_space(c)) {
            *stop = i;
            return count;
        }
        count += ref_digit(c) >= 0;
    }
    *stop = len;
    return count;
}

static const char DIGITS[] = "0123456789abcdefABCDEF";
static const unsigned char BAD[] = {'g',  'G',  '/',  ':',  '@',  '`',     'x',
                                    'X',  ' ',  '\t', '\n', '\r', 0,       0x7f,
                                    0x80, 0xc1, 0xe6, 0xff, 'h',  'F' + 1, 'f' + 1};

static void fill_digits(char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) s[i] = DIGITS[test_rand_below(sizeof DIGITS - 1)];
}

/* One decode check of kernel k on src[0..2n) placed at the end of a readable page (the next one
 * is not readable) and at an odd address. */
static int failures;

static void check_decode(const mulred_hex_kernel *k, const char *text, size_t n, char *page_end)
{
    uint8_t want[512], got[512 + 64];
    memset(want, 0, sizeof want);
    const size_t wk = ref_decode(want, text, n);
    char *src = page_end - 2 * n;
    memcpy(src, text, 2 * n);
    memset(got, 0xa5, sizeof got);
    const size_t gk = k->decode(got, src, n);
    int bad = gk != wk || memcmp(got, want, wk / 2) != 0;
    for (size_t i = n; i < sizeof got; i++) bad |= got[i] != 0xa5; /* nothing written past n */
    if (bad && failures++ < 5)
        printf("\n    kernel %s: decode of %zu characters: %zu, want %zu", k->name, 2 * n, gk, wk);
    CU_ASSERT(!bad);
}

static void check_count(const mulred_hex_kernel *k, const char *text, size_t len, char *page_end)
{
    size_t ws, gs;
    const size_t wc = ref_count(text, len, &ws);
    char *src = page_end - len;
    memcpy(src, text, len);
    const size_t gc = k->count(src, len, &gs);
    const int bad = gc != wc || gs != ws;
    if (bad && failures++ < 5)
        printf("\n    kernel %s: count of %zu bytes: %zu stop %zu, want %zu stop %zu", k->name, len,
               gc, gs, wc, ws);
    CU_ASSERT(!bad);
}

/* Two pages, the second unreadable: returns the end of the first. */
static char *guarded(void **map, size_t *maplen)
{
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    *maplen = 2 * pg;
    char *m = mmap(NULL, *maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(m != MAP_FAILED);
    CU_ASSERT_FATAL(mprotect(m + pg, pg, PROT_NONE) == 0);
    *map = m;
    return m + pg;
}

static int skip(const mulred_hex_kernel *k)
{
    if (k->available()) return 0;
    char why[96];
    snprintf(why, sizeof why, "kernel %s: CPU lacks %s", k->name, k->needs);
    test_skip(why);
    return 1;
}

static void test_decode(void)
{
    int nk;
    const mulred_hex_kernel *ks = mulred_hex_kernels(&nk);
    void *map;
    size_t maplen;
    char *end = guarded(&map, &maplen);
    char text[1024];
    for (int ki = 0; ki < nk; ki++) {
        if (skip(&ks[ki])) continue;
        /* every length up to 3 AVX-512 blocks and then some, all good, then a bad byte at every
         * position (each bad byte in turn at some lengths, one of them at random otherwise) */
        for (size_t n = 0; n <= 200; n++) {
            fill_digits(text, 2 * n);
            check_decode(&ks[ki], text, n, end);
            check_decode(&ks[ki], text, n, end - 1);
            for (size_t p = 0; p < 2 * n; p++) {
                const char keep = text[p];
                if (n % 16 == 0 || n == 33 || n == 65)
                    for (size_t b = 0; b < sizeof BAD; b++) {
                        text[p] = (char)BAD[b];
                        check_decode(&ks[ki], text, n, end);
                    }
                else {
                    text[p] = (char)BAD[test_rand_below(sizeof BAD)];
                    check_decode(&ks[ki], text, n, end);
                }
                text[p] = keep;
            }
        }
        /* every byte value at the positions around block and lane boundaries */
        for (int c = 0; c < 256; c++)
            for (size_t p = 0; p < 130; p++) {
                fill_digits(text, 130);
                text[p] = (char)c;
                check_decode(&ks[ki], text, 65, end);
            }
        /* random text: runs of digits with bad bytes sprinkled, long inputs */
        for (int it = 0; it < 2000; it++) {
            const size_t n = test_rand_below(sizeof text / 2 + 1);
            fill_digits(text, 2 * n);
            const unsigned bads = (unsigned)test_rand_below(3);
            for (unsigned b = 0; b < bads && n; b++)
                text[test_rand_below(2 * n)] = (char)test_rand_below(256);
            check_decode(&ks[ki], text, n, end);
        }
    }
    munmap(map, maplen);
}

static void test_count(void)
{
    int nk;
    const mulred_hex_kernel *ks = mulred_hex_kernels(&nk);
    void *map;
    size_t maplen;
    char *end = guarded(&map, &maplen);
    char text[1024];
    static const char SPACE[] = " \t\n\v\f\r";
    for (int ki = 0; ki < nk; ki++) {
        if (skip(&ks[ki])) continue;
        for (int it = 0; it < 3000; it++) {
            const size_t len = it < 300 ? (size_t)it : test_rand_below(sizeof text + 1);
            const unsigned density = (unsigned)test_rand_below(4); /* whitespace share */
            for (size_t i = 0; i < len; i++)
                text[i] = test_rand_below(8) < density ? SPACE[test_rand_below(6)]
                                                       : DIGITS[test_rand_below(22)];
            check_count(&ks[ki], text, len, end);
            if (len) { /* one other byte at a random place, then at every place of short ones */
                const size_t p = test_rand_below(len);
                const char keep = text[p];
                text[p] = (char)BAD[test_rand_below(sizeof BAD)];
                if (ref_space((unsigned char)text[p])) text[p] = 'x';
                check_count(&ks[ki], text, len, end);
                text[p] = keep;
            }
            if (it < 200)
                for (size_t p = 0; p < len; p++) {
                    const char keep = text[p];
                    text[p] = (char)(p % 2 ? 0x80 : 'g');
                    check_count(&ks[ki], text, len, end);
                    text[p] = keep;
                }
        }
    }
    munmap(map, maplen);
}

/* The kernel in use is one of the table that the CPU has. */
static void test_choice(void)
{
    const mulred_hex_kernel *k = mulred_hex_kernel_active();
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT(k->available());
    printf("\n    kernel in use: %s", k->name);
}

void test_register(void)
{
    TEST_SUITE("hex_kernels", {"decode against the reference", test_decode},
               {"count against the reference", test_count}, {"the kernel in use", test_choice});
}

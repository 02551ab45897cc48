/* The command layer's value grammar (src/cli/options.c: one parser per key for the command
 * line and job files) and the JSON writer (src/output/json.c), whose output is read back with
 * jansson, the reader every command uses; and the malformed JSON jansson must refuse. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "output/json.h"
#include "input/json_read.h"
#include "input/keys.h"
#include "harness.h"

typedef struct {
    const char *text;
    int ok;
    uint64_t value;
} num_case;

static void test_uint(void)
{
    static const num_case cases[] = {
        {"0", 1, 0},
        {"16", 1, 16},
        {"0x10", 1, 16},
        {"0X1f", 1, 31},
        {"0x0010", 1, 16},
        {"18446744073709551615", 1, UINT64_MAX},
        {"0xffffffffffffffff", 1, UINT64_MAX},
        {"010", 0, 0}, /* octal in C, ten elsewhere: refused */
        {"00", 0, 0},
        {"", 0, 0},
        {"0x", 0, 0},
        {"0x1g", 0, 0},
        {"-1", 0, 0},
        {"+1", 0, 0},
        {" 1", 0, 0},
        {"1 ", 0, 0},
        {"1e6", 0, 0},
        {"1k", 0, 0},
        {"1.0", 0, 0},
        {"18446744073709551616", 0, 0},
        {"0x10000000000000000", 0, 0},
        {"99999999999999999999999", 0, 0},
    };
    mulred_key_parser p = {.label = "'seed'"};
    char why[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v = 12345;
        int rc = mulred_key_parse_uint(&v, cases[i].text, UINT64_MAX, &p, why, sizeof why);
        CU_ASSERT_EQUAL(rc == 0, cases[i].ok);
        if (cases[i].ok) CU_ASSERT_EQUAL(v, cases[i].value);
        if (!cases[i].ok) {
            char want[64];
            snprintf(want, sizeof want, "bad value '%s' for 'seed' (", cases[i].text);
            CU_ASSERT_NSTRING_EQUAL(why, want, strlen(want));
        }
    }
    /* printf writes what the parser must read back, in both bases. */
    for (int i = 0; i < 2000; i++) {
        uint64_t x = test_rand64() >> test_rand_below(64), v = 0;
        char text[32];
        snprintf(text, sizeof text, i % 2 ? "%" PRIu64 : "0x%" PRIx64, x);
        CU_ASSERT(mulred_key_parse_uint(&v, text, UINT64_MAX, &p, why, sizeof why) == 0 && v == x);
    }
    uint64_t v;
    CU_ASSERT_EQUAL(mulred_key_parse_uint(&v, "101", 100, &p, why, sizeof why), MULRED_OUT_EUSAGE);
    CU_ASSERT_EQUAL(mulred_key_parse_uint(&v, "100", 100, &p, why, sizeof why), 0);
}

static void test_count(void)
{
    static const num_case cases[] = {
        {"0", 1, 0},
        {"200000", 1, 200000},
        {"2e5", 1, 200000},
        {"2E5", 1, 200000},
        {"2e+5", 1, 200000},
        {"2.5e5", 1, 250000},
        {"2.50e5", 1, 250000},
        {"12.5e1", 1, 125},
        {"0.5e1", 1, 5},
        {"2.0", 1, 2},
        {"200k", 1, 200000},
        {"200K", 1, 200000},
        {"3M", 1, 3000000},
        {"3G", 1, 3000000000},
        {"1e19", 1, 10000000000000000000ull},
        {"18446744073709551615", 1, UINT64_MAX},
        {"1.5", 0, 0},    /* not a whole number */
        {"1.25e1", 0, 0}, /* 12.5 */
        {"1.", 0, 0},     /* no digits after the point (JSON refuses it too) */
        {".5e1", 0, 0},
        {"1e", 0, 0},
        {"1e-3", 0, 0},
        {"010", 0, 0},
        {"00", 0, 0},
        {"-1", 0, 0},
        {"+1", 0, 0},
        {"", 0, 0},
        {" 7", 0, 0},
        {"0x10", 0, 0},
        {"1km", 0, 0},
        {"1m", 0, 0},
        {"1e20", 0, 0},
        {"18446744073709551616", 0, 0},
        {"18446744073709552k", 0, 0},
        {"1e99999", 0, 0},
    };
    mulred_key_parser p = {.label = "'synthetic'"};
    char why[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v = 12345;
        int rc = mulred_key_parse_count(&v, cases[i].text, 0, UINT64_MAX, &p, why, sizeof why);
        CU_ASSERT_EQUAL(rc == 0, cases[i].ok);
        if (rc == 0 && !cases[i].ok)
            printf("\n    accepted '%s' as %" PRIu64 "\n", cases[i].text, v);
        if (cases[i].ok) CU_ASSERT_EQUAL(v, cases[i].value);
    }
    for (int i = 0; i < 2000; i++) {
        uint64_t x = test_rand64() >> test_rand_below(64), v = 0;
        char text[40];
        snprintf(text, sizeof text, "%" PRIu64, x);
        CU_ASSERT(mulred_key_parse_count(&v, text, 0, UINT64_MAX, &p, why, sizeof why) == 0 &&
                  v == x);
        x >>= 10;
        snprintf(text, sizeof text, "%" PRIu64 "k", x);
        CU_ASSERT(mulred_key_parse_count(&v, text, 0, UINT64_MAX, &p, why, sizeof why) == 0 &&
                  v == x * 1000);
        /* m·10^e with a fraction: 1234e3 written as 1.234e6 */
        uint64_t m = 1 + test_rand_below(100000);
        snprintf(text, sizeof text, "%" PRIu64 ".%03" PRIu64 "e6", m / 1000, m % 1000);
        CU_ASSERT(mulred_key_parse_count(&v, text, 0, UINT64_MAX, &p, why, sizeof why) == 0 &&
                  v == m * 1000);
    }
    /* bounds: threads take 1..4096 */
    uint64_t v;
    p.label = "'threads'";
    CU_ASSERT_EQUAL(mulred_key_parse_count(&v, "0", 1, 4096, &p, why, sizeof why),
                    MULRED_OUT_EUSAGE);
    CU_ASSERT_STRING_EQUAL(why, "bad value '0' for 'threads' (a count from 1 to 4096)");
    CU_ASSERT_EQUAL(mulred_key_parse_count(&v, "4097", 1, 4096, &p, why, sizeof why),
                    MULRED_OUT_EUSAGE);
    CU_ASSERT(mulred_key_parse_count(&v, "4096", 1, 4096, &p, why, sizeof why) == 0 && v == 4096);
    CU_ASSERT(mulred_key_parse_count(&v, "4k", 1, 4096, &p, why, sizeof why) == 0 && v == 4000);
    /* the other commands' form */
    CU_ASSERT(mulred_parse_count("2e5", &v) == 0 && v == 200000);
    CU_ASSERT(mulred_parse_count("010", &v) == -1);
}

static void test_bool(void)
{
    mulred_key_parser p = {.label = "'json'"};
    char why[128];
    bool b;
    static const char *yes[] = {"true", "yes", "on", "1"}, *no[] = {"false", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        CU_ASSERT(mulred_key_parse_bool(&b, yes[i], &p, why, sizeof why) == 0 && b);
        CU_ASSERT(mulred_key_parse_bool(&b, no[i], &p, why, sizeof why) == 0 && !b);
    }
    CU_ASSERT_EQUAL(mulred_key_parse_bool(&b, "maybe", &p, why, sizeof why), MULRED_OUT_EUSAGE);
    CU_ASSERT_STRING_EQUAL(why, "bad value 'maybe' for 'json' (true or false)");
    CU_ASSERT_EQUAL(mulred_key_parse_bool(&b, "True", &p, why, sizeof why), MULRED_OUT_EUSAGE);
}

static void test_paths(void)
{
    mulred_key_parser p = {.base_dir = "jobs"};
    CU_ASSERT_STRING_EQUAL(mulred_key_path(&p, "a.txt"), "jobs/a.txt");
    CU_ASSERT_STRING_EQUAL(mulred_key_path(&p, "/abs/a.txt"), "/abs/a.txt");
    p.base_dir = NULL; /* the command line: as given */
    CU_ASSERT_STRING_EQUAL(mulred_key_path(&p, "a.txt"), "a.txt");
    for (int i = 0; i < 100; i++) CU_ASSERT_PTR_NOT_NULL(mulred_key_keep(&p, "x"));
    CU_ASSERT_EQUAL(p.nstrings, 103);
    mulred_key_parser_free(&p);
    CU_ASSERT_EQUAL(p.nstrings, 0);
}

/* Writes with the writer into memory; returns the text (malloc'd). */
static char *written(void (*fill)(mulred_json_writer *w))
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    mulred_json_writer w;
    mulred_jw_init(&w, f);
    fill(&w);
    mulred_jw_finish(&w);
    fclose(f);
    return text;
}

static void fill_small(mulred_json_writer *w)
{
    mulred_jw_object_begin(w, NULL);
    mulred_jw_uint(w, "a", 1);
    mulred_jw_array_begin(w, "b");
    mulred_jw_bool(w, NULL, true);
    mulred_jw_null(w, NULL);
    mulred_jw_double(w, NULL, 0.25);
    mulred_jw_object_begin(w, NULL);
    mulred_jw_object_end(w);
    mulred_jw_array_end(w);
    mulred_jw_object_end(w);
}

static const char *strings[] = {
    "plain",
    "quote \" backslash \\ slash /",
    "\n\t\r\x01\x1f\x7f",
    "caf\xc3\xa9 \xf0\x9f\x98\x80", /* é, U+1F600 */
    "bad \xff byte",                /* not UTF-8 */
    "cut \xe2\x82",                 /* a truncated sequence */
    "overlong \xc0\xaf",            /* '/' in two bytes */
    "surrogate \xed\xa0\x80",       /* U+D800 in UTF-8 */
    "beyond \xf4\x90\x80\x80",      /* U+110000 */
};
/* What a reader must get back: invalid bytes become U+FFFD, one per byte. */
static const char *strings_read[] = {
    "plain",
    "quote \" backslash \\ slash /",
    "\n\t\r\x01\x1f\x7f",
    "caf\xc3\xa9 \xf0\x9f\x98\x80",
    "bad \xef\xbf\xbd byte",
    "cut \xef\xbf\xbd\xef\xbf\xbd",
    "overlong \xef\xbf\xbd\xef\xbf\xbd",
    "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
    "beyond \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
};
#define NSTRINGS (sizeof strings / sizeof strings[0])

static void fill_all(mulred_json_writer *w)
{
    mulred_jw_object_begin(w, NULL);
    mulred_jw_array_begin(w, "s");
    for (size_t i = 0; i < NSTRINGS; i++) mulred_jw_string(w, NULL, strings[i]);
    mulred_jw_array_end(w);
    mulred_jw_string(w, "key \"\xff\"", "v");
    mulred_jw_uint(w, "umax", UINT64_MAX);
    mulred_jw_int(w, "imin", INT64_MIN);
    mulred_jw_double(w, "d", 1.5e-7);
    mulred_jw_double(w, "nan", 0.0 / 0.0);
    mulred_jw_double(w, "inf", 1.0 / 0.0);
    mulred_jw_object_end(w);
}

static void test_writer(void)
{
    char *text = written(fill_small);
    CU_ASSERT_STRING_EQUAL(text, "{\"a\":1,\"b\":[true,null,0.25,{}]}\n");
    free(text);

    text = written(fill_all);
    json_error_t e;
    /* Integers as reals: jansson's integers are signed 64-bit, 2^64 − 1 is not one. */
    json_t *v = json_loads(text, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &e);
    if (!v) printf("\n    %s: %s\n", text, e.text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const json_t *s = json_object_get(v, "s");
    CU_ASSERT_EQUAL_FATAL(json_array_size(s), NSTRINGS);
    for (size_t i = 0; i < NSTRINGS; i++)
        CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(s, i)), strings_read[i]);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(v, "key \"\xef\xbf\xbd\"")), "v");
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(v, "umax")), 18446744073709551615.0,
                           0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(v, "imin")), -9223372036854775808.0,
                           0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(v, "d")), 1.5e-7, 1e-22);
    CU_ASSERT(json_is_null(json_object_get(v, "nan")));
    CU_ASSERT(json_is_null(json_object_get(v, "inf")));
    /* the integers exactly, as text */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"umax\":18446744073709551615,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"imin\":-9223372036854775808,"));
    json_decref(v);
    free(text);
}

/* mulred's one JSON reader (input/json_read.h: report, the benchmarks) refuses what RFC 8259
 * forbids and a lenient reader lets through, each with the name, line and column: the cases
 * from RFC 8259 §6 (numbers), §7 (strings: control characters, escapes, surrogates), §8.1
 * (UTF-8), §4 (duplicate names, which the RFC leaves open and mulred refuses) and §2 (one value,
 * no trailing comma). The column is that of the last character read, counted from 1: in
 * {"a":.5} the '.' is the 6th; in {"a":1,"a":2} the second key's closing quote the 10th. */
static void test_reader_refuses(void)
{
    static const struct {
        const char *text;
        const char *why; /* start of the message */
    } bad[] = {
        {"{\"a\":01}", "t.json: line 1, column 6:"},       /* leading zero */
        {"{\"a\":-01}", "t.json: line 1, column 7:"},      /* leading zero after a sign */
        {"{\"a\":1.}", "t.json: line 1, column 7:"},       /* no digit after the point */
        {"{\"a\":.5}", "t.json: line 1, column 6:"},       /* no digit before it */
        {"{\"a\":+1}", "t.json: line 1, column 6:"},       /* plus sign */
        {"{\"a\":\"\\ud800\"}", "t.json: line 1,"},        /* lone high surrogate */
        {"{\"a\":\"\\udc00\"}", "t.json: line 1,"},        /* lone low surrogate */
        {"{\"a\":\"\\ud800\\u0041\"}", "t.json: line 1,"}, /* high surrogate, then no low */
        {"{\"a\":\"\\ud800\\ud800\"}", "t.json: line 1,"}, /* two high surrogates */
        {"{\"a\":\"x\x01y\"}", "t.json: line 1,"},         /* raw control character */
        {"{\"a\":\"x\ny\"}", "t.json: line 1,"},           /* raw newline in a string */
        {"{\"a\":\"\x80\"}", "t.json: line 1,"},           /* not UTF-8 */
        {"{\"a\":\"\\u0000\"}", "t.json: line 1,"},        /* NUL */
        {"{\"a\":1,\"a\":2}", "t.json: line 1, column 10: duplicate object key"},
        {"{\"a\":1} x", "t.json: line 1, column 9: end of file expected"},
        {"{\"a\":1e999}", "t.json: line 1, column 10: real number overflow"},
        {"[1,]", "t.json: line 1, column 4:"},
        {"", "t.json: line 1, column 0:"},
        {"{\"a\":1}\n{\"b\":2}", "t.json: line 2, column 1: end of file expected"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *v = (json_t *)1;
        mulred_error err;
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(
            mulred_json_read_buffer(&v, bad[i].text, strlen(bad[i].text), "t.json", &err),
            MULRED_EINPUT);
        CU_ASSERT_PTR_NULL(v);
        CU_ASSERT_EQUAL(strncmp(err.message, bad[i].why, strlen(bad[i].why)), 0);
        if (strncmp(err.message, bad[i].why, strlen(bad[i].why)) != 0)
            printf("\n    case %zu: %s\n", i, err.message);
        json_decref(v);
    }
    /* accepted: a proper surrogate pair (U+1F600, F0 9F 98 80 in UTF-8), -0, an exponent, and
     * an integer beyond 64 bits, read as a double */
    static const char good[] =
        "{\"a\":\"\\ud83d\\ude00\",\"b\":-0,\"c\":1e2,\"d\":36893488147419103232}";
    json_t *ok = NULL;
    mulred_error err;
    CU_ASSERT_EQUAL_FATAL(mulred_json_read_buffer(&ok, good, strlen(good), "t.json", &err),
                          MULRED_OK);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(ok, "a")), "\xf0\x9f\x98\x80");
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(ok, "c")), 100.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(ok, "d")), 36893488147419103232.0, 0);
    json_decref(ok);
    /* a file: the path names the message; a directory is refused as one */
    CU_ASSERT_EQUAL(mulred_json_read_file(&ok, "/", &err), MULRED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/: Is a directory"));
    CU_ASSERT_EQUAL(mulred_json_read_file(&ok, "/nonexistent/r.json", &err), MULRED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/nonexistent/r.json: cannot open"));
}

/* The argv parser over key tables: two tables, positional arguments in order wherever they
 * stand, flags with and without a value, "--", and each refusal with its reason. */
typedef struct {
    uint64_t n;
    bool on;
} argv_opts;

static int set_n(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    return mulred_key_parse_uint(&((argv_opts *)o)->n, v, 100, p, why, cap) ? MULRED_OUT_EUSAGE
                                                                            : MULRED_OK;
}

static int set_on(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    return mulred_key_parse_bool(&((argv_opts *)o)->on, v, p, why, cap) ? MULRED_OUT_EUSAGE
                                                                        : MULRED_OK;
}

static int parse_argv(argv_opts *a, argv_opts *b, mulred_key_rest *rest, size_t max_args, char *why,
                      int argc, char **argv)
{
    static const mulred_key ka[] = {{"count", false, false, false, set_n}};
    static const mulred_key kb[] = {{"json", true, false, false, set_on}};
    *a = (argv_opts){0}, *b = (argv_opts){0};
    const mulred_key_table tables[] = {{ka, 1, a}, {kb, 1, b}};
    mulred_key_parser p = {0};
    const mulred_key_request req = {"test", tables, 2, max_args, NULL};
    int rc = mulred_key_argv(&req, argc, argv, &p, rest, why, 200);
    mulred_key_parser_free(&p);
    return rc;
}

static void test_argv(void)
{
    argv_opts a, b;
    mulred_key_rest rest;
    char why[200];
    char *ok[] = {"x", "one", "--count", "7", "two", "--json", "--", "--three", NULL};
    CU_ASSERT_EQUAL(parse_argv(&a, &b, &rest, 3, why, 8, ok), MULRED_OK);
    CU_ASSERT_EQUAL(a.n, 7);
    CU_ASSERT_TRUE(b.on);
    CU_ASSERT_EQUAL_FATAL(rest.nargs, 3);
    CU_ASSERT_STRING_EQUAL(rest.args[0], "one");
    CU_ASSERT_STRING_EQUAL(rest.args[1], "two");
    CU_ASSERT_STRING_EQUAL(rest.args[2], "--three");
    mulred_key_rest_free(&rest);
    /* any number of positional arguments when max_args is SIZE_MAX */
    char *many[] = {"x", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "--json", NULL};
    CU_ASSERT_EQUAL(parse_argv(&a, &b, &rest, SIZE_MAX, why, 12, many), MULRED_OK);
    CU_ASSERT_EQUAL_FATAL(rest.nargs, 10);
    CU_ASSERT_STRING_EQUAL(rest.args[9], "10");
    CU_ASSERT_TRUE(b.on);
    mulred_key_rest_free(&rest);
    char *eq[] = {"x", "--count=9", "--json=false", NULL};
    CU_ASSERT_EQUAL(parse_argv(&a, &b, &rest, 0, why, 3, eq), MULRED_OK);
    CU_ASSERT_EQUAL(a.n, 9);
    CU_ASSERT_FALSE(b.on);
    char *help[] = {"x", "--help", "--bogus", NULL};
    CU_ASSERT_EQUAL(parse_argv(&a, &b, &rest, 0, why, 3, help), MULRED_OK);
    CU_ASSERT_TRUE(rest.help);
    struct {
        char *argv[4];
        int argc;
        size_t max_args;
        const char *why;
    } bad[] = {
        {{"x", "--bogus", NULL}, 2, 0, "option '--bogus' is unknown or needs an argument"},
        {{"x", "--count", NULL}, 2, 0, "option '--count' is unknown or needs an argument"},
        {{"x", "--count", "101", NULL}, 3, 0, "bad value '101' for '--count'"},
        {{"x", "--count=", NULL}, 2, 0, "missing value for '--count'"},
        {{"x", "--json=maybe", NULL}, 2, 0, "bad value 'maybe' for '--json'"},
        {{"x", "a", "b", NULL}, 3, 1, "unexpected argument 'b'"},
        {{"x", "--", "a", NULL}, 3, 0, "unexpected argument 'a'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(parse_argv(&a, &b, &rest, bad[i].max_args, why, bad[i].argc, bad[i].argv),
                        MULRED_OUT_EUSAGE);
        mulred_key_rest_free(&rest);
        CU_ASSERT_EQUAL(strncmp(why, bad[i].why, strlen(bad[i].why)), 0);
        if (strncmp(why, bad[i].why, strlen(bad[i].why)) != 0)
            printf("\n    case %zu: %s\n", i, why);
    }
}

void test_register(void)
{
    TEST_SUITE("cli", {"unsigned integers (seed)", test_uint}, {"counts", test_count},
               {"booleans", test_bool}, {"argv over key tables", test_argv},
               {"paths and the string pool", test_paths},
               {"JSON writer, read back with jansson", test_writer},
               {"jansson refuses malformed JSON", test_reader_refuses});
}

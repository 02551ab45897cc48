#define _GNU_SOURCE
/* util layer: hex, counts, JSON reader/writer round trip, reading vectors. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "util/json.h"
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

static void test_counts(void)
{
    uint64_t v;
    CU_ASSERT(mulred_parse_count("200000", &v) == 0 && v == 200000);
    CU_ASSERT(mulred_parse_count("2e5", &v) == 0 && v == 200000);
    CU_ASSERT(mulred_parse_count("1M", &v) == 0 && v == 1000000);
    CU_ASSERT(mulred_parse_count("3k", &v) == 0 && v == 3000);
    CU_ASSERT(mulred_parse_count("-1", &v) != 0);
    CU_ASSERT(mulred_parse_count("1.5", &v) != 0);
    CU_ASSERT(mulred_parse_count("12x", &v) != 0);
    CU_ASSERT(mulred_parse_count("", &v) != 0);
    CU_ASSERT(mulred_parse_count("99999999999999999999999", &v) != 0);
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

static void test_json_roundtrip(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mulred_json_writer w;
    mulred_jw_init(&w, f);
    mulred_jw_object_begin(&w, NULL);
    mulred_jw_string(&w, "s", "a\"b\\c\n\x01");
    mulred_jw_uint(&w, "u", 18446744073709551615ull);
    mulred_jw_double(&w, "d", 1.5e-7);
    mulred_jw_bool(&w, "t", true);
    mulred_jw_null(&w, "n");
    mulred_jw_array_begin(&w, "a");
    mulred_jw_int(&w, NULL, -3);
    mulred_jw_object_begin(&w, NULL);
    mulred_jw_object_end(&w);
    mulred_jw_array_end(&w);
    mulred_jw_object_end(&w);
    mulred_jw_finish(&w);
    fclose(f);

    mulred_error err;
    mulred_json_value *v = mulred_json_parse(text, len, "mem", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(mulred_json_get_string(v, "s"), "a\"b\\c\n\x01");
    CU_ASSERT_STRING_EQUAL(mulred_json_get(v, "u")->string, "18446744073709551615");
    CU_ASSERT_DOUBLE_EQUAL(mulred_json_get_number(v, "d", 0), 1.5e-7, 1e-15);
    CU_ASSERT(mulred_json_get(v, "t")->boolean);
    CU_ASSERT_EQUAL(mulred_json_get(v, "n")->type, MULRED_JSON_NULL);
    const mulred_json_value *a = mulred_json_get(v, "a");
    CU_ASSERT_EQUAL_FATAL(a->count, 2);
    CU_ASSERT_DOUBLE_EQUAL(a->items[0].number, -3, 0);
    CU_ASSERT_EQUAL(a->items[1].type, MULRED_JSON_OBJECT);
    mulred_json_free(v);
    free(text);
}

static void test_json_errors(void)
{
    static const char *bad[] = {"", "{", "[1,]", "{\"a\" 1}", "\"abc", "tru", "[1] x", "{\"a\":-}",
                                "\"\\q\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mulred_error err;
        mulred_error_clear(&err);
        mulred_json_value *v = mulred_json_parse(bad[i], strlen(bad[i]), "t.json", &err);
        CU_ASSERT_PTR_NULL(v);
        CU_ASSERT_EQUAL(err.status, MULRED_EINPUT);
        CU_ASSERT_NSTRING_EQUAL(err.message, "t.json: byte ", 13);
        mulred_json_free(v);
    }
    mulred_error err;
    const char *unicode = "\"\\u00e9\\ud83d\\ude00\"";
    mulred_json_value *v = mulred_json_parse(unicode, strlen(unicode), "u", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(v->string, "\xc3\xa9\xf0\x9f\x98\x80");
    mulred_json_free(v);
}

static void test_vectors_readable(void)
{
    mulred_error err;
    mulred_json_value *v = mulred_json_parse_file(test_vector_path("bitcoin/muhash.json"), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_PTR_NOT_NULL(mulred_json_get(v, "cases"));
    mulred_json_free(v);
    mulred_error_clear(&err);
    CU_ASSERT_PTR_NULL(mulred_json_parse_file("/nonexistent/x.json", &err));
    CU_ASSERT_EQUAL(err.status, MULRED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/nonexistent/x.json"));
}

static void test_median(void)
{
    double v[] = {5, 1, 3, 2, 4};
    CU_ASSERT_DOUBLE_EQUAL(mulred_median(v, 5), 3, 0);
    double w[] = {4, 1, 3, 2};
    CU_ASSERT_DOUBLE_EQUAL(mulred_median(w, 4), 2.5, 0);
}

void test_register(void)
{
    TEST_SUITE("util", {"hex", test_hex}, {"counts", test_counts}, {"little-endian", test_le},
               {"json round trip", test_json_roundtrip}, {"json errors", test_json_errors},
               {"vectors readable", test_vectors_readable}, {"median", test_median});
}

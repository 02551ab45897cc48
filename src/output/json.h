/* The JSON writer of the commands' and benchmarks' --json output. A streaming writer: values go
 * to the FILE as they come, in the order written, compact (no spaces), numbers as C prints them
 * (integers exactly, doubles with 9 significant digits, NaN and infinities as null), strings
 * escaped per RFC 8259 with bytes that are not UTF-8 replaced by U+FFFD, so the output is always
 * valid JSON. JSON is read with jansson, never here. Part of mulred_output (commands and
 * benchmarks): nothing in libmulred writes or reads JSON. */
#ifndef MULRED_OUTPUT_JSON_H
#define MULRED_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MULRED_JSON_MAX_DEPTH 16
typedef struct {
    FILE *out;
    int depth;
    bool first[MULRED_JSON_MAX_DEPTH];
} mulred_json_writer;

/* Every value function takes a key: pass the member name inside an object, NULL in an array
 * or at the top level. Nesting deeper than MULRED_JSON_MAX_DEPTH aborts (misuse). Write
 * errors are the caller's to find (ferror/fclose on out). */
void mulred_jw_init(mulred_json_writer *w, FILE *out);
void mulred_jw_object_begin(mulred_json_writer *w, const char *key);
void mulred_jw_object_end(mulred_json_writer *w);
void mulred_jw_array_begin(mulred_json_writer *w, const char *key);
void mulred_jw_array_end(mulred_json_writer *w);
void mulred_jw_string(mulred_json_writer *w, const char *key, const char *value);
void mulred_jw_uint(mulred_json_writer *w, const char *key, uint64_t value);
void mulred_jw_int(mulred_json_writer *w, const char *key, int64_t value);
void mulred_jw_double(mulred_json_writer *w, const char *key, double value);
void mulred_jw_bool(mulred_json_writer *w, const char *key, bool value);
void mulred_jw_null(mulred_json_writer *w, const char *key);
/* Ends the top-level value with a newline and flushes. */
void mulred_jw_finish(mulred_json_writer *w);

#endif

/* A small JSON writer (for --json output) and reader (for test vectors, job results and
 * reports). The reader builds a tree; numbers are kept as double and as their source text. */
#ifndef MULRED_JSON_H
#define MULRED_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mulred/mulred.h"

/* ---- writer ---- */
#define MULRED_JSON_MAX_DEPTH 16
typedef struct {
    FILE *out;
    int depth;
    bool first[MULRED_JSON_MAX_DEPTH];
} mulred_json_writer;

/* Every value function takes a key: pass the member name inside an object, NULL in an array
 * or at the top level. */
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
/* Ends the top-level value with a newline. */
void mulred_jw_finish(mulred_json_writer *w);

/* ---- reader ---- */
typedef enum {
    MULRED_JSON_NULL,
    MULRED_JSON_BOOL,
    MULRED_JSON_NUMBER,
    MULRED_JSON_STRING,
    MULRED_JSON_ARRAY,
    MULRED_JSON_OBJECT,
} mulred_json_type;

typedef struct mulred_json_value {
    mulred_json_type type;
    bool boolean;
    double number;
    char *string;   /* STRING: the decoded text; NUMBER: the source text */
    size_t count;   /* ARRAY/OBJECT: number of items */
    struct mulred_json_value *items;
    char **keys;    /* OBJECT: member names, parallel to items */
} mulred_json_value;

/* Parses text (len bytes). On error returns NULL and sets err to MULRED_EINPUT with
 * "NAME: byte OFFSET: reason" (name labels the source in messages). */
mulred_json_value *mulred_json_parse(const char *text, size_t len, const char *name,
                                     mulred_error *err);
/* Reads and parses a file. */
mulred_json_value *mulred_json_parse_file(const char *path, mulred_error *err);
void mulred_json_free(mulred_json_value *v);
/* Member lookup; NULL when v is not an object or has no such member. */
const mulred_json_value *mulred_json_get(const mulred_json_value *v, const char *key);
/* Convenience: a member's string (NULL unless a string) or number (fallback unless a number). */
const char *mulred_json_get_string(const mulred_json_value *v, const char *key);
double mulred_json_get_number(const mulred_json_value *v, const char *key, double fallback);

#endif

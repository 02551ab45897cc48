/* The one JSON reader of the command side: `mulred report` (result and network files), the
 * benchmarks that read a child's --json output, and the tests read JSON through it, with one
 * set of rules: RFC 8259 as jansson reads it (no leading zeros, no "1.", no lone surrogates, no
 * raw control characters or NUL, only UTF-8, one document), no duplicate keys, and every number
 * as a double (integers beyond 64 bits included). A refusal is MULRED_EINPUT with
 * "NAME: line L, column C: reason". */
#ifndef MULRED_INPUT_JSON_READ_H
#define MULRED_INPUT_JSON_READ_H

#include <stddef.h>

#include <jansson.h>

#include "mulred/common.h"

/* Reads the file at path into *out (json_decref it). A directory, a FIFO without a writer (read
 * as empty) and an unreadable file are MULRED_EINPUT naming the path. */
mulred_status mulred_json_read_file(json_t **out, const char *path, mulred_error *err);

/* Reads len bytes of text into *out; name labels the messages (a file name, "output of …"). */
mulred_status mulred_json_read_buffer(json_t **out, const char *text, size_t len, const char *name,
                                      mulred_error *err);

#endif

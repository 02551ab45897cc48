/* Key tables: the options of every command and benchmark, one definition per key, shared by the
 * command line and job files.
 *
 * A key (--seed on the command line, `seed = …` in a job file) has one setter that parses its
 * value into the options struct of its job kind, so a value gets the same verdict both ways:
 * accepted with the same meaning, or rejected with the same reason (a usage error, exit 1, on
 * the command line; "FILE:LINE: reason", exit 2, in a job file). A flag (--json) takes no
 * argument on the command line and true/false in a job file.
 *
 * Repeats: a repeatable key (--insert) adds a value each time. Any other key given twice is an
 * error in a job file (a job is a document: a second value is a mistake); on the command line
 * the last one wins, as with any GNU tool (--progress --no-progress). */
#ifndef MULRED_INPUT_KEYS_H
#define MULRED_INPUT_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/mulred.h"
#include "output/output.h"

/* What a setter needs besides the value: how to name the key in messages, where relative
 * input paths start, and a pool that keeps the strings it stores. */
typedef struct {
    const char *label;    /* "'seed'" in a job file, "'--seed'" on the command line */
    const char *base_dir; /* job files: the job's directory; NULL on the command line */
    char **strings;       /* kept strings, freed by mulred_key_parser_free */
    size_t nstrings, cap;
} mulred_key_parser;

/* Where a key is given besides the command line, and how (a table's lines write false or true
 * for the first two). */
typedef enum {
    MULRED_KEY_ANYWHERE = 0,     /* the command line and job files, one value */
    MULRED_KEY_COMMAND_LINE = 1, /* the command line only: --no-progress (a job says progress =
                                  * false) */
    MULRED_KEY_CHOICE = 2,       /* a value out of a few names (curve, flavor, schedule): a job
                                  * file may list several, comma-separated, one run each */
} mulred_key_use;

typedef struct {
    const char *name;   /* --NAME on the command line, NAME in a job file */
    bool flag;          /* no argument on the command line; true/false in a job file */
    bool repeatable;    /* each use adds a value */
    mulred_key_use use; /* false (MULRED_KEY_ANYWHERE), true (MULRED_KEY_COMMAND_LINE), or
                         * MULRED_KEY_CHOICE */
    /* Parses value into opts. Returns MULRED_OK; MULRED_OUT_EUSAGE with the reason in why (bad
     * value); MULRED_ERUNTIME with why (out of memory). A flag's value is "true" from the
     * command line, and from a job file whatever was written (the setter parses it). */
    mulred_exit (*set)(void *opts, const char *value, mulred_key_parser *p, char *why, size_t cap);
} mulred_key;

/* The value parsers every setter uses. Each returns MULRED_OK, or MULRED_OUT_EUSAGE after writing
 * "bad value 'V' for LABEL (what is expected)" into why (what a setter returns for a bad value).
 * None accepts an empty value, a sign, blanks or a value that does not fit. */
/* An unsigned integer: decimal without leading zeros ("010" is ambiguous: octal in C, decimal
 * elsewhere), or hex with 0x. At most max. */
mulred_exit mulred_key_parse_uint(uint64_t *out, const char *value, uint64_t max,
                                  mulred_key_parser *p, char *why, size_t cap);
/* A count in [min, max]: decimal without leading zeros, a decimal with a k, M or G suffix
 * (powers of 1000: 200k), or an exponent form that is a whole number (2e5, 2.5e5). */
mulred_exit mulred_key_parse_count(uint64_t *out, const char *value, uint64_t min, uint64_t max,
                                   mulred_key_parser *p, char *why, size_t cap);
/* Seconds in (0, max]: digits with at most one decimal point ("30", "2.5", "0.5"; no exponent). */
mulred_exit mulred_key_parse_seconds(double *out, const char *value, double max,
                                     mulred_key_parser *p, char *why, size_t cap);
/* true/yes/on/1 or false/no/off/0. */
mulred_exit mulred_key_parse_bool(bool *out, const char *value, mulred_key_parser *p, char *why,
                                  size_t cap);
/* Writes "bad value 'V' for LABEL (expected)" into why and returns MULRED_OUT_EUSAGE. */
mulred_exit mulred_key_bad_value(mulred_key_parser *p, const char *value, const char *expected,
                                 char *why, size_t cap);

/* Setters of one field of an options struct, for key tables (a key is one line of the table and
 * one line of these): fn(opts, value, ...) parses value with the parser of its kind into
 * ((type *)opts)->field, rejecting a bad value with that parser's message. */
/* A count in [lo, hi] (mulred_key_parse_count: 200000, 2e5, 200k) into an integer field. */
#define MULRED_KEY_COUNT(fn, type, field, lo, hi)                                                  \
    static mulred_exit fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)     \
    {                                                                                              \
        uint64_t x;                                                                                \
        if (mulred_key_parse_count(&x, v, (lo), (hi), p, why, cap)) return MULRED_OUT_EUSAGE;      \
        ((type *)o)->field = x;                                                                    \
        return MULRED_OK;                                                                          \
    }
/* An unsigned integer in [0, hi] (mulred_key_parse_uint: decimal or 0x hex). */
#define MULRED_KEY_UINT(fn, type, field, hi)                                                       \
    static mulred_exit fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)     \
    {                                                                                              \
        uint64_t x;                                                                                \
        if (mulred_key_parse_uint(&x, v, (hi), p, why, cap)) return MULRED_OUT_EUSAGE;             \
        ((type *)o)->field = x;                                                                    \
        return MULRED_OK;                                                                          \
    }
/* Seconds in (0, hi] into a double field. */
#define MULRED_KEY_SECONDS(fn, type, field, hi)                                                    \
    static mulred_exit fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)     \
    {                                                                                              \
        return mulred_key_parse_seconds(&((type *)o)->field, v, (hi), p, why, cap);                \
    }
/* A flag into a bool field (true from the command line). */
#define MULRED_KEY_FLAG(fn, type, field)                                                           \
    static mulred_exit fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)     \
    {                                                                                              \
        return mulred_key_parse_bool(&((type *)o)->field, v, p, why, cap);                         \
    }
/* A string (a path, a name checked later) into a const char * field, kept by the parser. */
#define MULRED_KEY_TEXT(fn, type, field)                                                           \
    static mulred_exit fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)     \
    {                                                                                              \
        (void)why, (void)cap;                                                                      \
        return (((type *)o)->field = mulred_key_keep(p, v)) ? MULRED_OK : MULRED_ERUNTIME;         \
    }

/* Keeps a copy of s for the life of the parser; NULL when out of memory. */
const char *mulred_key_keep(mulred_key_parser *p, const char *s);
/* Same, for an input path: a relative path in a job file is taken relative to the job's
 * directory, so a job works from any current directory; "-" (standard input) stays "-". */
const char *mulred_key_path(mulred_key_parser *p, const char *path);
void mulred_key_parser_free(mulred_key_parser *p);

/* Finds a key by name ('_' and '-' alike); NULL when there is none. */
const mulred_key *mulred_key_find(const mulred_key *keys, size_t nkeys, const char *name);

/* Sets one key from the command line or a job file: value NULL for a flag given without one
 * (it means true); an empty value is "missing value for LABEL". Returns MULRED_OK,
 * MULRED_OUT_EUSAGE with the reason in why, or MULRED_ERUNTIME. */
mulred_exit mulred_key_apply(const mulred_key *k, void *opts, const char *value,
                             mulred_key_parser *p, const char *label, char *why, size_t cap);

/* One key table and the options struct its setters fill. */
typedef struct {
    const mulred_key *keys;
    size_t nkeys;
    void *opts;
} mulred_key_table;

/* What a command line held besides its keys (free it with mulred_key_rest_free). */
typedef struct {
    bool help;         /* --help or -h was given (parsing stopped there) */
    const char **args; /* the positional arguments, in order (argv's own strings) */
    size_t nargs;
} mulred_key_rest;

/* A command line to parse: its key tables, what it takes besides and how it is named. */
typedef struct {
    const char *cmd; /* "utxo", "bench comm": the command, in usage errors */
    const mulred_key_table *tables;
    size_t ntables;
    size_t max_args;     /* positional arguments at most (SIZE_MAX: any number) */
    void (*usage)(void); /* prints the help (--help, -h) */
} mulred_key_request;

/* Parses argv[1..argc) (argv[0] names the command) against the request's key tables in order:
 * --NAME VALUE, --NAME=VALUE, and for a flag --NAME or --NAME=true|false, exactly what its
 * job-file form accepts. Positional arguments (anywhere, or after "--") go to rest->args, at most
 * req->max_args of them. Returns MULRED_OK; MULRED_OUT_EUSAGE with the reason in why (an unknown
 * option, a missing or bad value, too many arguments); MULRED_ERUNTIME with why (out of memory).
 * Strings a setter keeps live in p (mulred_key_parser_free). */
mulred_exit mulred_key_argv(const mulred_key_request *req, int argc, char **argv,
                            mulred_key_parser *p, mulred_key_rest *rest, char *why, size_t cap);
void mulred_key_rest_free(mulred_key_rest *rest);
/* The command line of `mulred CMD` (CMD: "utxo", "bench comm", ...): mulred_key_argv, then what
 * every command does with its outcome. Returns true when the command is to run, its positional
 * arguments in *rest (mulred_key_rest_free). Otherwise *rest is empty and *status is what the
 * command returns: MULRED_OK after --help or -h (req->usage printed), MULRED_OUT_EUSAGE after a
 * usage error (printed as "mulred CMD: REASON" with a pointer to --help), or MULRED_ERUNTIME
 * (printed as "mulred: REASON"). */
bool mulred_key_parse(const mulred_key_request *req, int argc, char **argv, mulred_key_parser *p,
                      mulred_key_rest *rest, mulred_exit *status);

#endif

/* Options of the commands: one definition per key, shared by the command line and job files.
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
#ifndef MULRED_CLI_OPTIONS_H
#define MULRED_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "mulred/mulred.h"

/* What a setter needs besides the value: how to name the key in messages, where relative
 * input paths start, and a pool that keeps the strings it stores. */
typedef struct {
    const char *label;    /* "'seed'" in a job file, "'--seed'" on the command line */
    const char *base_dir; /* job files: the job's directory; NULL on the command line */
    char **strings;       /* kept strings, freed by cli_parser_free */
    size_t nstrings, cap;
} cli_parser;

typedef struct {
    const char *name;       /* --NAME on the command line, NAME in a job file */
    bool flag;              /* no argument on the command line; true/false in a job file */
    bool repeatable;        /* each use adds a value */
    bool command_line_only; /* --no-progress: a job says progress = false */
    /* Parses value into opts. Returns MULRED_OK; CLI_EUSAGE with the reason in why (bad
     * value); MULRED_ERUNTIME with why (out of memory). A flag's value is "true" from the
     * command line, and from a job file whatever was written (the setter parses it). */
    int (*set)(void *opts, const char *value, cli_parser *p, char *why, size_t cap);
} cli_key;

/* The value parsers every setter uses. Each returns 0, or -1 after writing "bad value 'V' for
 * LABEL (what is expected)" into why. None accepts an empty value, a sign, blanks or a value
 * that does not fit. */
/* An unsigned integer: decimal without leading zeros ("010" is ambiguous: octal in C, decimal
 * elsewhere), or hex with 0x. At most max. */
int cli_parse_uint(uint64_t *out, const char *value, uint64_t max, cli_parser *p, char *why,
                   size_t cap);
/* A count in [min, max]: decimal without leading zeros, a decimal with a k, M or G suffix
 * (powers of 1000: 200k), or an exponent form that is a whole number (2e5, 2.5e5). */
int cli_parse_count(uint64_t *out, const char *value, uint64_t min, uint64_t max, cli_parser *p,
                    char *why, size_t cap);
/* Seconds in (0, max]: digits with at most one decimal point ("30", "2.5", "0.5"; no exponent). */
int cli_parse_seconds(double *out, const char *value, double max, cli_parser *p, char *why,
                      size_t cap);
/* true/yes/on/1 or false/no/off/0. */
int cli_parse_bool(bool *out, const char *value, cli_parser *p, char *why, size_t cap);
/* Writes "bad value 'V' for LABEL (expected)" into why and returns CLI_EUSAGE. */
int cli_bad_value(cli_parser *p, const char *value, const char *expected, char *why, size_t cap);

/* Keeps a copy of s for the life of the parser; NULL when out of memory. */
const char *cli_parser_keep(cli_parser *p, const char *s);
/* Same, for an input path: a relative path in a job file is taken relative to the job's
 * directory, so a job works from any current directory. */
const char *cli_parser_path(cli_parser *p, const char *path);
void cli_parser_free(cli_parser *p);

/* Finds a key by name ('_' and '-' alike); NULL when there is none. */
const cli_key *cli_key_find(const cli_key *keys, size_t nkeys, const char *name);

#endif

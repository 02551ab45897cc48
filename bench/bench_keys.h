/* The options of the benchmarks on key tables (output/keys.h): the setters of the common value
 * kinds, and the command-line step every bench starts with.
 *
 * A bench keeps its options in a struct of its own and declares a mulred_key table over it; the
 * BENCH_KEY_* macros define the setter of one field of that struct, so a key is one line of the
 * table and one line here:
 *
 *     BENCH_KEY_COUNT(set_reps, ckpt_opts, reps, 1, 64)
 *     static const mulred_key keys[] = {{"reps", false, false, false, set_reps}, ...};
 *
 * Each setter parses with the keys.h parser of its kind, so a bad value is rejected with the
 * same message a command gives ("bad value 'V' for '--reps' (a count from 1 to 64)"). */
#ifndef MULRED_BENCH_KEYS_H
#define MULRED_BENCH_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "output/keys.h"
#include "output/output.h"

/* A count in [lo, hi] (mulred_key_parse_count: 200000, 2e5, 200k) into an integer field. */
#define BENCH_KEY_COUNT(fn, type, field, lo, hi)                                                   \
    static int fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)             \
    {                                                                                              \
        uint64_t x;                                                                                \
        if (mulred_key_parse_count(&x, v, (lo), (hi), p, why, cap)) return MULRED_OUT_EUSAGE;      \
        ((type *)o)->field = x;                                                                    \
        return MULRED_OK;                                                                          \
    }
/* An unsigned integer in [0, hi] (mulred_key_parse_uint: decimal or 0x hex). */
#define BENCH_KEY_UINT(fn, type, field, hi)                                                        \
    static int fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)             \
    {                                                                                              \
        uint64_t x;                                                                                \
        if (mulred_key_parse_uint(&x, v, (hi), p, why, cap)) return MULRED_OUT_EUSAGE;             \
        ((type *)o)->field = x;                                                                    \
        return MULRED_OK;                                                                          \
    }
/* Seconds in (0, hi] into a double field. */
#define BENCH_KEY_SECONDS(fn, type, field, hi)                                                     \
    static int fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)             \
    {                                                                                              \
        return mulred_key_parse_seconds(&((type *)o)->field, v, (hi), p, why, cap)                 \
                   ? MULRED_OUT_EUSAGE                                                             \
                   : MULRED_OK;                                                                    \
    }
/* A flag into a bool field (true from the command line). */
#define BENCH_KEY_FLAG(fn, type, field)                                                            \
    static int fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)             \
    {                                                                                              \
        return mulred_key_parse_bool(&((type *)o)->field, v, p, why, cap) ? MULRED_OUT_EUSAGE      \
                                                                          : MULRED_OK;             \
    }
/* A string (a path, a name checked later) into a const char * field, kept by the parser. */
#define BENCH_KEY_TEXT(fn, type, field)                                                            \
    static int fn(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)             \
    {                                                                                              \
        (void)why, (void)cap;                                                                      \
        return (((type *)o)->field = mulred_key_keep(p, v)) ? MULRED_OK : MULRED_ERUNTIME;         \
    }

/* The command line of `mulred bench CMD`: argv[1..argc) against keys (nkeys of them) into opts,
 * no positional argument. Returns true when the bench is to run. Otherwise *status is what the
 * bench returns: MULRED_OK after --help or -h (usage printed), MULRED_OUT_EUSAGE after a usage
 * error (printed as "mulred bench CMD: REASON", the reason naming the option), or
 * MULRED_ERUNTIME (out of memory, printed). Strings the setters keep live in p
 * (mulred_key_parser_free, in every case). */
bool bench_options(const char *cmd, const mulred_key *keys, size_t nkeys, void *opts, int argc,
                   char **argv, void (*usage)(void), mulred_key_parser *p, int *status);

#endif

/* The options of the benchmarks on key tables (input/keys.h): the setters of the common value
 * kinds, and the command-line step every bench starts with.
 *
 * A bench keeps its options in a struct of its own and declares a mulred_key table over it; the
 * MULRED_KEY_* macros of input/keys.h define the setter of one field of that struct, so a key
 * is one line of the table and one line here:
 *
 *     MULRED_KEY_COUNT(set_reps, ckpt_opts, reps, 1, 64)
 *     static const mulred_key keys[] = {{"reps", false, false, false, set_reps}, ...};
 *
 * Each setter parses with the keys.h parser of its kind, so a bad value is rejected with the
 * same message a command gives ("bad value 'V' for '--reps' (a count from 1 to 64)"). */
#ifndef MULRED_BENCH_KEYS_H
#define MULRED_BENCH_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "input/keys.h"
#include "output/output.h"

/* The command line of `mulred bench CMD`: argv[1..argc) against the key table (its keys into its
 * options struct), no positional argument. Returns true when the bench is to run. Otherwise *status
 * is what the bench returns: MULRED_OK after --help or -h (usage printed), MULRED_OUT_EUSAGE after
 * a usage error (printed as "mulred bench CMD: REASON", the reason naming the option), or
 * MULRED_ERUNTIME (out of memory, printed). Strings the setters keep live in p
 * (mulred_key_parser_free, in every case). */
bool bench_options(const char *cmd, const mulred_key_table *table, int argc, char **argv,
                   void (*usage)(void), mulred_key_parser *p, int *status);
/* The same for a bench reached under another command's name as well (`mulred mix bench`, the
 * bench `mix`): what is the name its messages give ("mix bench", "bench mix"). */
bool bench_options_as(const char *what, const mulred_key_table *table, int argc, char **argv,
                      void (*usage)(void), mulred_key_parser *p, int *status);

#endif

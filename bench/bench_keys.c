/* The benchmarks' command line on key tables (see bench_keys.h). */
#include "bench_keys.h"

#include <stdio.h>

bool bench_options(const char *cmd, const mulred_key *keys, size_t nkeys, void *opts, int argc,
                   char **argv, void (*usage)(void), mulred_key_parser *p, int *status)
{
    char what[64], why[512];
    snprintf(what, sizeof what, "bench %s", cmd);
    const mulred_key_table table = {keys, nkeys, opts};
    mulred_key_rest rest;
    int rc = mulred_key_argv(&table, 1, argc, argv, p, &rest, 0, why, sizeof why);
    const bool help = rc == MULRED_OK && rest.help;
    mulred_key_rest_free(&rest);
    if (rc == MULRED_OK && !help) return true;
    if (help)
        usage();
    else if (rc == MULRED_OUT_EUSAGE)
        mulred_out_usage_error(what, "%s", why);
    else
        fprintf(stderr, "mulred %s: %s\n", what, why);
    *status = rc;
    return false;
}

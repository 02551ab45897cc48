/* The benchmarks' command line on key tables (see bench_keys.h). */
#include "bench_keys.h"

#include <stdio.h>

bool bench_options(const char *cmd, const mulred_key_table *table, int argc, char **argv,
                   void (*usage)(void), mulred_key_parser *p, int *status)
{
    char what[64];
    snprintf(what, sizeof what, "bench %s", cmd);
    return bench_options_as(what, table, argc, argv, usage, p, status);
}

bool bench_options_as(const char *what, const mulred_key_table *table, int argc, char **argv,
                      void (*usage)(void), mulred_key_parser *p, int *status)
{
    mulred_key_rest rest;
    const mulred_key_request req = {what, table, 1, 0, usage};
    if (!mulred_key_parse(&req, argc, argv, p, &rest, status)) return false;
    mulred_key_rest_free(&rest);
    return true;
}

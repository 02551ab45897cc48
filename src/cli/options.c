/* Value parsers of the command line and job files (see options.h). Numbers are parsed by hand
 * (output/format.h), digit by digit with overflow checks: strtoull accepts leading blanks, a sign
 * (it negates "-1" to 2^64 − 1) and, with base 0, octal, and strtod rounds 2^64 + 1 to 2^64;
 * none of that may reach a job. */
#include "cli/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "output/format.h"

int cli_bad_value(cli_parser *p, const char *value, const char *expected, char *why, size_t cap)
{
    snprintf(why, cap, "bad value '%s' for %s (%s)", value, p && p->label ? p->label : "option",
             expected);
    return CLI_EUSAGE;
}

int cli_parse_uint(uint64_t *out, const char *value, uint64_t max, cli_parser *p, char *why,
                   size_t cap)
{
    static const char expected[] =
        "an unsigned integer: decimal without leading zeros, or hex with 0x";
    uint64_t v = 0;
    if (value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
        const char *h = value + 2;
        size_t n = strlen(h);
        if (n == 0) return cli_bad_value(p, value, expected, why, cap), -1;
        for (size_t i = 0; i < n; i++) {
            int d = h[i] >= '0' && h[i] <= '9'   ? h[i] - '0'
                    : h[i] >= 'a' && h[i] <= 'f' ? h[i] - 'a' + 10
                    : h[i] >= 'A' && h[i] <= 'F' ? h[i] - 'A' + 10
                                                 : -1;
            if (d < 0) return cli_bad_value(p, value, expected, why, cap), -1;
            if (v >> 60) goto too_large;
            v = v << 4 | (uint64_t)d;
        }
    } else {
        int rc = mulred_parse_decimal(&v, value, strlen(value));
        if (rc == -2) goto too_large;
        if (rc) return cli_bad_value(p, value, expected, why, cap), -1;
    }
    if (v > max) goto too_large;
    *out = v;
    return 0;
too_large:;
    char what[64];
    snprintf(what, sizeof what, "at most %llu", (unsigned long long)max);
    return cli_bad_value(p, value, what, why, cap), -1;
}

int cli_parse_count(uint64_t *out, const char *value, uint64_t min, uint64_t max, cli_parser *p,
                    char *why, size_t cap)
{
    char expected[160];
    if (max == UINT64_MAX)
        snprintf(expected, sizeof expected, "a count of at least %llu: 200000, 2e5, 200k",
                 (unsigned long long)min);
    else
        snprintf(expected, sizeof expected, "a count from %llu to %llu", (unsigned long long)min,
                 (unsigned long long)max);
    uint64_t v = 0;
    if (mulred_parse_count(value, &v) != 0 || v < min || v > max)
        return cli_bad_value(p, value, expected, why, cap), -1;
    *out = v;
    return 0;
}

int cli_parse_seconds(double *out, const char *value, double max, cli_parser *p, char *why,
                      size_t cap)
{
    char expected[96];
    snprintf(expected, sizeof expected, "seconds, more than 0 and at most %.0f: 30, 2.5", max);
    double v = 0, scale = 1;
    int digits = 0, points = 0;
    for (const char *c = value; *c; c++) {
        if (*c == '.' && points++ == 0) continue;
        if (*c < '0' || *c > '9' || digits > 15)
            return cli_bad_value(p, value, expected, why, cap), -1;
        digits++;
        if (points) scale /= 10;
        v = v * 10 + (*c - '0');
    }
    v *= scale;
    if (!digits || !(v > 0) || v > max) return cli_bad_value(p, value, expected, why, cap), -1;
    *out = v;
    return 0;
}

int cli_parse_bool(bool *out, const char *value, cli_parser *p, char *why, size_t cap)
{
    static const char *yes[] = {"true", "yes", "on", "1"}, *no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(value, yes[i]) == 0) return *out = true, 0;
        if (strcmp(value, no[i]) == 0) return *out = false, 0;
    }
    return cli_bad_value(p, value, "true or false", why, cap), -1;
}

const char *cli_parser_keep(cli_parser *p, const char *s)
{
    if (p->nstrings == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        char **grown = realloc(p->strings, cap * sizeof *grown);
        if (!grown) return NULL;
        p->strings = grown, p->cap = cap;
    }
    char *copy = strdup(s);
    if (copy) p->strings[p->nstrings++] = copy;
    return copy;
}

const char *cli_parser_path(cli_parser *p, const char *path)
{
    if (!p->base_dir || path[0] == '/' || strcmp(p->base_dir, ".") == 0)
        return cli_parser_keep(p, path);
    size_t n = strlen(p->base_dir) + strlen(path) + 2;
    char *joined = malloc(n);
    if (!joined) return NULL;
    snprintf(joined, n, "%s/%s", p->base_dir, path);
    const char *kept = cli_parser_keep(p, joined);
    free(joined);
    return kept;
}

void cli_parser_free(cli_parser *p)
{
    for (size_t i = 0; i < p->nstrings; i++) free(p->strings[i]);
    free(p->strings);
    p->strings = NULL;
    p->nstrings = p->cap = 0;
}

/* Key names compare with '_' and '-' alike: stall_timeout is stall-timeout. */
static bool key_name_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (*a != *b && !((*a == '_' || *a == '-') && (*b == '_' || *b == '-'))) return false;
    return *a == *b;
}

const cli_key *cli_key_find(const cli_key *keys, size_t nkeys, const char *name)
{
    for (size_t i = 0; i < nkeys; i++)
        if (key_name_equal(keys[i].name, name)) return &keys[i];
    return NULL;
}

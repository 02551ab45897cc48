/* Value parsers of the command line and job files (see options.h), and the count and time
 * formats of the command's output. Numbers are parsed by hand, digit by digit with overflow
 * checks: strtoull accepts leading blanks, a sign (it negates "-1" to 2^64 − 1) and, with base
 * 0, octal, and strtod rounds 2^64 + 1 to 2^64; none of that may reach a job. */
#include "cli/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cli_bad_value(cli_parser *p, const char *value, const char *expected, char *why, size_t cap)
{
    snprintf(why, cap, "bad value '%s' for %s (%s)", value, p && p->label ? p->label : "option",
             expected);
    return CLI_EUSAGE;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Decimal digits s[0..n) into *v, checking overflow. A leading zero is refused unless the
 * number is the single digit 0 (when no_leading_zero). Returns 0, -1 (not digits, empty or a
 * leading zero) or -2 (overflow). */
static int parse_digits(uint64_t *v, const char *s, size_t n, bool no_leading_zero)
{
    if (n == 0) return -1;
    if (no_leading_zero && n > 1 && s[0] == '0') return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i])) return -1;
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10) return -2;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
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
        int rc = parse_digits(&v, value, strlen(value), true);
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

/* The count grammar: INT [kMG] | INT[.FRAC][(e|E)[+]EXP] that is a whole number. Returns 0,
 * -1 (not a count) or -2 (larger than 2^64 − 1). */
static int count_value(uint64_t *out, const char *s)
{
    size_t n = strlen(s), i = 0;
    while (i < n && is_digit(s[i])) i++;
    size_t int_len = i;
    if (int_len == 0 || (int_len > 1 && s[0] == '0')) return -1;
    uint64_t mult = 0;
    if (i + 1 == n && (s[i] == 'k' || s[i] == 'K')) mult = 1000;
    if (i + 1 == n && s[i] == 'M') mult = 1000000;
    if (i + 1 == n && s[i] == 'G') mult = 1000000000;
    if (mult || i == n) {
        uint64_t v;
        int rc = parse_digits(&v, s, int_len, true);
        if (rc) return rc;
        if (mult && v > UINT64_MAX / mult) return -2;
        *out = mult ? v * mult : v;
        return 0;
    }
    /* Mantissa digits (integer and fraction) as one integer m, with the decimal exponent e
     * that makes the value m·10^e. */
    const char *frac = "";
    size_t frac_len = 0;
    if (s[i] == '.') {
        frac = s + ++i;
        while (i < n && is_digit(s[i])) i++;
        frac_len = (size_t)(s + i - frac);
        if (frac_len == 0) return -1; /* "1." */
    }
    long e = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && s[i] == '+') i++;
        size_t exp_start = i;
        while (i < n && is_digit(s[i])) i++;
        if (i == exp_start || i - exp_start > 4) return i == exp_start ? -1 : -2;
        e = strtol(s + exp_start, NULL, 10);
    }
    if (i != n) return -1;
    while (frac_len > 0 && frac[frac_len - 1] == '0') frac_len--; /* 2.50e5 = 2.5e5 */
    e -= (long)frac_len;
    unsigned __int128 m = 0;
    for (size_t k = 0; k < int_len + frac_len; k++) {
        char c = k < int_len ? s[k] : frac[k - int_len];
        m = m * 10 + (unsigned)(c - '0');
        if (m > UINT64_MAX) return -2;
    }
    for (; e < 0; e++) {
        if (m % 10) return -1; /* not a whole number: 1.5, 2.55e1 */
        m /= 10;
    }
    for (; e > 0 && m; e--) {
        m *= 10;
        if (m > UINT64_MAX) return -2;
    }
    *out = (uint64_t)m;
    return 0;
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
    if (count_value(&v, value) != 0 || v < min || v > max)
        return cli_bad_value(p, value, expected, why, cap), -1;
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

const cli_key *cli_key_find(const cli_key *keys, size_t nkeys, const char *name)
{
    for (size_t i = 0; i < nkeys; i++)
        if (strcmp(keys[i].name, name) == 0) return &keys[i];
    return NULL;
}

/* ---- the count and time formats of the other commands ---- */

int mulred_parse_count(const char *s, uint64_t *out)
{
    return s && count_value(out, s) == 0 ? 0 : -1;
}

void mulred_format_seconds(char *out, size_t cap, double s)
{
    if (s < 1e-6)
        snprintf(out, cap, "%.1f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(out, cap, "%.2f us", s * 1e6);
    else if (s < 1.0)
        snprintf(out, cap, "%.2f ms", s * 1e3);
    else
        snprintf(out, cap, "%.3f s", s);
}

void mulred_format_rate(char *out, size_t cap, double r, const char *unit)
{
    if (r >= 1e9)
        snprintf(out, cap, "%.2f G %s/s", r / 1e9, unit);
    else if (r >= 1e6)
        snprintf(out, cap, "%.2f M %s/s", r / 1e6, unit);
    else if (r >= 1e3)
        snprintf(out, cap, "%.2f k %s/s", r / 1e3, unit);
    else
        snprintf(out, cap, "%.2f %s/s", r, unit);
}

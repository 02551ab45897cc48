/* Numbers in the text of commands and benchmarks (output/format.h). Parsed by hand, digit by
 * digit with overflow checks: strtoull accepts leading blanks, a sign (it negates "-1" to
 * 2^64 − 1) and, with base 0, octal, and strtod rounds 2^64 + 1 to 2^64. */
#include "output/format.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int mulred_parse_decimal(uint64_t *v, const char *s, size_t n)
{
    if (n == 0) return -1;
    if (n > 1 && s[0] == '0') return -1;
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
        int rc = mulred_parse_decimal(&v, s, int_len);
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

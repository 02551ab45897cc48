/* Numbers in the text of commands and benchmarks: counts as options take them, seconds and
 * rates as tables show them. Part of mulred_output (commands and benchmarks). */
#ifndef MULRED_OUTPUT_FORMAT_H
#define MULRED_OUTPUT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* The decimal digits s[0..n) as an unsigned integer, without leading zeros ("010" is ambiguous:
 * octal in C, decimal elsewhere; "0" is fine). Returns 0, -1 (empty, not digits or a leading
 * zero) or -2 (larger than 2^64 − 1). */
int mulred_parse_decimal(uint64_t *out, const char *s, size_t n);
/* A count: decimal without leading zeros, a decimal with a k, M or G suffix (powers of 1000:
 * 200k), or an exponent form that is a whole number (2e5, 2.5e5). No sign, no blanks. Returns 0,
 * or -1 when s is NULL or not a count that fits in 64 bits. */
int mulred_parse_count(const char *s, uint64_t *out);
/* Seconds with a unit ("1.20 ms"), a rate with an SI prefix ("1.23 M elements/s"). */
void mulred_format_seconds(char *out, size_t cap, double seconds);
void mulred_format_rate(char *out, size_t cap, double per_second, const char *unit);

#endif

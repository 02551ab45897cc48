/* Key tables and the value parsers of the command line and job files (see keys.h). Numbers are
 * parsed by hand (output/format.h), digit by digit with overflow checks: strtoull accepts leading
 * blanks, a sign (it negates "-1" to 2^64 − 1) and, with base 0, octal, and strtod rounds 2^64 + 1
 * to 2^64; none of that may reach a job. */
#include "input/keys.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/format.h"

mulred_exit mulred_key_bad_value(mulred_key_parser *p, const char *value, const char *expected,
                                 char *why, size_t cap)
{
    snprintf(why, cap, "bad value '%s' for %s (%s)", value, p && p->label ? p->label : "option",
             expected);
    return MULRED_OUT_EUSAGE;
}

mulred_exit mulred_key_parse_uint(uint64_t *out, const char *value, uint64_t max,
                                  mulred_key_parser *p, char *why, size_t cap)
{
    static const char expected[] =
        "an unsigned integer: decimal without leading zeros, or hex with 0x";
    uint64_t v = 0;
    if (value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
        const char *h = value + 2;
        size_t n = strlen(h);
        if (n == 0) return mulred_key_bad_value(p, value, expected, why, cap);
        for (size_t i = 0; i < n; i++) {
            int d = h[i] >= '0' && h[i] <= '9'   ? h[i] - '0'
                    : h[i] >= 'a' && h[i] <= 'f' ? h[i] - 'a' + 10
                    : h[i] >= 'A' && h[i] <= 'F' ? h[i] - 'A' + 10
                                                 : -1;
            if (d < 0) return mulred_key_bad_value(p, value, expected, why, cap);
            if (v >> 60) goto too_large;
            v = v << 4 | (uint64_t)d;
        }
    } else {
        int rc = mulred_parse_decimal(&v, value, strlen(value));
        if (rc == -2) goto too_large;
        if (rc) return mulred_key_bad_value(p, value, expected, why, cap);
    }
    if (v > max) goto too_large;
    *out = v;
    return MULRED_OK;
too_large:;
    char what[64];
    snprintf(what, sizeof what, "at most %llu", (unsigned long long)max);
    return mulred_key_bad_value(p, value, what, why, cap);
}

mulred_exit mulred_key_parse_count(uint64_t *out, const char *value, uint64_t min, uint64_t max,
                                   mulred_key_parser *p, char *why, size_t cap)
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
        return mulred_key_bad_value(p, value, expected, why, cap);
    *out = v;
    return MULRED_OK;
}

mulred_exit mulred_key_parse_seconds(double *out, const char *value, double max,
                                     mulred_key_parser *p, char *why, size_t cap)
{
    char expected[96];
    snprintf(expected, sizeof expected, "seconds, more than 0 and at most %.0f: 30, 2.5", max);
    double v = 0, scale = 1;
    int digits = 0, points = 0;
    for (const char *c = value; *c; c++) {
        if (*c == '.' && points++ == 0) continue;
        if (*c < '0' || *c > '9' || digits > 15)
            return mulred_key_bad_value(p, value, expected, why, cap);
        digits++;
        if (points) scale /= 10;
        v = v * 10 + (*c - '0');
    }
    v *= scale;
    if (!digits || !(v > 0) || v > max) return mulred_key_bad_value(p, value, expected, why, cap);
    *out = v;
    return MULRED_OK;
}

mulred_exit mulred_key_parse_bool(bool *out, const char *value, mulred_key_parser *p, char *why,
                                  size_t cap)
{
    static const char *yes[] = {"true", "yes", "on", "1"}, *no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(value, yes[i]) == 0) return *out = true, MULRED_OK;
        if (strcmp(value, no[i]) == 0) return *out = false, MULRED_OK;
    }
    return mulred_key_bad_value(p, value, "true or false", why, cap);
}

const char *mulred_key_keep(mulred_key_parser *p, const char *s)
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

const char *mulred_key_path(mulred_key_parser *p, const char *path)
{
    /* "-" is standard input (or output) wherever it is written, not a file beside the job */
    if (!p->base_dir || path[0] == '/' || strcmp(path, "-") == 0 || strcmp(p->base_dir, ".") == 0)
        return mulred_key_keep(p, path);
    size_t n = strlen(p->base_dir) + strlen(path) + 2;
    char *joined = malloc(n);
    if (!joined) return NULL;
    snprintf(joined, n, "%s/%s", p->base_dir, path);
    const char *kept = mulred_key_keep(p, joined);
    free(joined);
    return kept;
}

void mulred_key_parser_free(mulred_key_parser *p)
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

const mulred_key *mulred_key_find(const mulred_key *keys, size_t nkeys, const char *name)
{
    for (size_t i = 0; i < nkeys; i++)
        if (key_name_equal(keys[i].name, name)) return &keys[i];
    return NULL;
}

mulred_exit mulred_key_apply(const mulred_key *k, void *opts, const char *value,
                             mulred_key_parser *p, const char *label, char *why, size_t cap)
{
    p->label = label;
    if (!k->flag && !*value)
        return snprintf(why, cap, "missing value for %s", label), MULRED_OUT_EUSAGE;
    return k->set(opts, k->flag && !value ? "true" : value, p, why, cap);
}

/* getopt_long's table: key j of table t is val 256·(t+1) + j; --help is 'h'. */
static struct option *key_longopts(const mulred_key_table *tables, size_t ntables)
{
    size_t total = 2;
    for (size_t t = 0; t < ntables; t++) total += tables[t].nkeys;
    struct option *longopts = calloc(total, sizeof *longopts);
    if (!longopts) return NULL;
    size_t n = 0;
    for (size_t t = 0; t < ntables; t++)
        for (size_t j = 0; j < tables[t].nkeys; j++) {
            const mulred_key *k = &tables[t].keys[j];
            longopts[n++] =
                (struct option){k->name, k->flag ? optional_argument : required_argument, NULL,
                                256 * (int)(t + 1) + (int)j};
        }
    longopts[n] = (struct option){"help", no_argument, NULL, 'h'};
    return longopts;
}

static mulred_exit key_unknown(int argc, char **argv, char *why, size_t cap)
{
    const char *arg = optind - 1 < argc && optind >= 1 ? argv[optind - 1] : "?";
    if (optopt && optopt != '?' && optopt < 256)
        snprintf(why, cap, "option '-%c' is unknown or needs an argument", optopt);
    else
        snprintf(why, cap, "option '%s' is unknown or needs an argument", arg);
    return MULRED_OUT_EUSAGE;
}

/* Keeps one positional argument, or refuses it when max_args are already there; rest->args
 * has room for every argument of argv (argc). */
static mulred_exit key_positional(mulred_key_rest *rest, size_t max_args, int argc, const char *arg,
                                  char *why, size_t cap)
{
    if (rest->nargs >= max_args) {
        snprintf(why, cap, "unexpected argument '%s'", arg);
        return MULRED_OUT_EUSAGE;
    }
    if (!rest->args && !(rest->args = calloc((size_t)argc, sizeof *rest->args))) {
        snprintf(why, cap, "out of memory");
        return MULRED_ERUNTIME;
    }
    rest->args[rest->nargs++] = arg;
    return MULRED_OK;
}

void mulred_key_rest_free(mulred_key_rest *rest)
{
    free(rest->args);
    *rest = (mulred_key_rest){0};
}

mulred_exit mulred_key_argv(const mulred_key_request *req, int argc, char **argv,
                            mulred_key_parser *p, mulred_key_rest *rest, char *why, size_t cap)
{
    const mulred_key_table *tables = req->tables;
    const size_t ntables = req->ntables;
    *rest = (mulred_key_rest){0};
    struct option *longopts = key_longopts(tables, ntables);
    if (!longopts) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    optind = 0; /* glibc: 0 reinitializes getopt for this argument vector */
    opterr = 0; /* its own messages silenced: a bad key is reported below */
    int c;
    mulred_exit status = MULRED_OK;
    char label[80];
    /* "-": positional arguments come back in order as option 1, wherever they stand */
    while (status == MULRED_OK && (c = getopt_long(argc, argv, "-h", longopts, NULL)) != -1) {
        size_t t = (size_t)c / 256, j = (size_t)c % 256;
        if (c == 'h') {
            rest->help = true;
            break;
        } else if (c == 1) {
            status = key_positional(rest, req->max_args, argc, optarg, why, cap);
        } else if (t >= 1 && t <= ntables && j < tables[t - 1].nkeys) {
            const mulred_key *k = &tables[t - 1].keys[j];
            snprintf(label, sizeof label, "'--%s'", k->name);
            status = mulred_key_apply(k, tables[t - 1].opts, optarg, p, label, why, cap);
        } else {
            status = key_unknown(argc, argv, why, cap);
        }
    }
    /* after "--", getopt stops: the rest are positional */
    for (; status == MULRED_OK && !rest->help && optind < argc; optind++) {
        status = key_positional(rest, req->max_args, argc, argv[optind], why, cap);
    }
    free(longopts);
    return status;
}

bool mulred_key_parse(const mulred_key_request *req, int argc, char **argv, mulred_key_parser *p,
                      mulred_key_rest *rest, mulred_exit *status)
{
    char why[512];
    mulred_exit rc = mulred_key_argv(req, argc, argv, p, rest, why, sizeof why);
    if (rc == MULRED_OK && !rest->help) return true;
    const bool help = rc == MULRED_OK;
    mulred_key_rest_free(rest);
    if (help) {
        req->usage();
    } else if (rc == MULRED_OUT_EUSAGE) {
        rc = mulred_out_usage_error(req->cmd, "%s", why);
    } else {
        mulred_error err;
        mulred_error_set(&err, rc, "%s", why);
        rc = mulred_out_error(&err);
    }
    *status = rc;
    return false;
}

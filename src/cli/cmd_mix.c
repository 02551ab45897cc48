/* mulred mix: the fast_mix avalanche lab and timing (src/lab, docs/mix.md). Serial per process:
 * under mpirun every rank runs the same measurement and rank 0 prints. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli/cli.h"
#include "lab/lab.h"
#include "output/json.h"
#include "input/keys.h"

#define DEFAULT_TRIALS 4000
#define MAX_TRIALS     100000000ull

static void mix_help(void)
{
    mulred_out(
        "Usage: mulred mix avalanche --variant V [--rounds R] [--trials N] [--seed S]\n"
        "                            [--window LO:HI] [--threads T] [--json]\n"
        "       mulred mix bench [--runs N] [--json]\n"
        "\n"
        "The fast_mix family of 128-bit pool mixers (Linux random driver, 2014-2022) and\n"
        "mulred's counter-based generator built on fastmix2_64.\n"
        "\n"
        "avalanche: for every 1-bit and 2-bit input difference over N random base states,\n"
        "  count the output bits that flip with probability in [1/4, 3/4]; the score is the\n"
        "  minimum over all differences. Reports the 1-bit and 2-bit minima, the mean flip\n"
        "  probability, the worst bias |2P-1| over input bit x output bit, and the same for\n"
        "  the inverse permutation when the mixer is invertible.\n"
        "  --variant V      linux316 spelvin32 fastmix2_32 fastmix2_64 siphash13 linear\n"
        "                   generator\n"
        "  --rounds R       rounds (a round is two half-rounds; R may end in .5); default:\n"
        "                   the published count (linux316 2, spelvin32 3, fastmix2_32 3,\n"
        "                   fastmix2_64 3, siphash13 1 per word); linear and generator are\n"
        "                   fixed (1 and 4); 0.5-8 otherwise\n"
        "  --trials N       base states (default %d; suffixes k, M)\n"
        "  --seed S         seed of the base states (default 1)\n"
        "  --window LO:HI   flip-probability window (default 0.25:0.75)\n"
        "  --threads T      OpenMP threads (default: all)\n"
        "bench: ns and TSC ticks per call for every variant, median of --runs runs\n"
        "  (default 10), in the form of the 2014 perftest, and the generator's output\n"
        "  rate per core.\n"
        "  --json           machine-readable output\n",
        DEFAULT_TRIALS);
}

/* "R", "R.5" or "R.0" -> half-rounds; false for anything else. */
static bool parse_rounds(const char *s, unsigned *half)
{
    char *end;
    errno = 0;
    if (!(*s >= '0' && *s <= '9')) return false;
    unsigned long whole = strtoul(s, &end, 10);
    if (errno || whole > 64) return false;
    unsigned extra = 0;
    if (*end == '.') {
        if (strcmp(end, ".5") == 0)
            extra = 1;
        else if (strcmp(end, ".0") != 0)
            return false;
    } else if (*end) {
        return false;
    }
    *half = (unsigned)(2 * whole + extra);
    return true;
}

/* "LO:HI" with 0 <= LO <= HI <= 1; false for anything else. */
static bool parse_window(const char *s, double *lo, double *hi)
{
    char *end;
    errno = 0;
    *lo = strtod(s, &end);
    if (errno || end == s || *end != ':') return false;
    const char *t = end + 1;
    *hi = strtod(t, &end);
    if (errno || end == t || *end) return false;
    return *lo >= 0 && *lo <= *hi && *hi <= 1;
}

static void print_rounds(char *out, size_t cap, unsigned half)
{
    snprintf(out, cap, half % 2 ? "%u.5" : "%u", half / 2);
}

static void json_result(mulred_json_writer *w, const char *key,
                        const mulred_mix_avalanche_result *r)
{
    mulred_jw_object_begin(w, key);
    mulred_jw_uint(w, "score", r->score);
    mulred_jw_uint(w, "score_1bit", r->score1);
    mulred_jw_uint(w, "score_2bit", r->score2);
    mulred_jw_array_begin(w, "worst_difference");
    mulred_jw_uint(w, NULL, r->worst_bits[0]);
    if (r->worst_bits[1] != r->worst_bits[0]) mulred_jw_uint(w, NULL, r->worst_bits[1]);
    mulred_jw_array_end(w);
    mulred_jw_double(w, "mean_flip", r->mean_flip);
    mulred_jw_double(w, "worst_bias", r->worst_bias);
    mulred_jw_double(w, "seconds", r->seconds);
    mulred_jw_object_end(w);
}

static void human_result(const char *label, const mulred_mix_avalanche_result *r)
{
    char diff[32];
    if (r->worst_bits[0] == r->worst_bits[1])
        snprintf(diff, sizeof diff, "bit %u", r->worst_bits[0]);
    else
        snprintf(diff, sizeof diff, "bits %u+%u", r->worst_bits[0], r->worst_bits[1]);
    mulred_out("%-9s %5u  %5u  %5u  %-15s  %10.4f  %10.4f  %6.2f s\n", label, r->score, r->score1,
               r->score2, diff, r->mean_flip, r->worst_bias, r->seconds);
}

/* ---- keys: one table per action ---- */

typedef struct {
    const char *variant, *rounds;
    uint64_t trials, seed, threads;
    double lo, hi;
    bool json;
} avalanche_opts;

MULRED_KEY_TEXT(set_variant, avalanche_opts, variant)
/* checked against the variant's range once both are known (avalanche_params) */
MULRED_KEY_TEXT(set_rounds, avalanche_opts, rounds)
MULRED_KEY_COUNT(set_trials, avalanche_opts, trials, 1, MAX_TRIALS)
MULRED_KEY_UINT(set_seed, avalanche_opts, seed, UINT64_MAX)

static mulred_exit set_window(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    avalanche_opts *a = o;
    if (!parse_window(v, &a->lo, &a->hi))
        return mulred_key_bad_value(p, v, "LO:HI with 0 <= LO <= HI <= 1", why, cap);
    return MULRED_OK;
}

MULRED_KEY_COUNT(set_threads, avalanche_opts, threads, 1, 4096)

/* the json key's table points at the flag itself */
static mulred_exit set_json(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    return mulred_key_parse_bool((bool *)o, v, p, why, cap) ? MULRED_OUT_EUSAGE : MULRED_OK;
}

static const mulred_key avalanche_keys[] = {
    {"variant", false, false, false, set_variant}, {"rounds", false, false, false, set_rounds},
    {"trials", false, false, false, set_trials},   {"seed", false, false, false, set_seed},
    {"window", false, false, false, set_window},   {"threads", false, false, false, set_threads},
};

static const mulred_key json_key[] = {{"json", true, false, false, set_json}};

/* Parses an action's options (its key table, and --json into json); the strings they keep live
 * in p. True when the action is to run; otherwise *status is what it returns (MULRED_OK after
 * --help, a usage error's status after reporting it), as mulred_key_parse. */
static bool mix_parse(const char *action, const mulred_key_table *table, bool *json,
                      mulred_key_parser *p, int argc, char **argv, mulred_exit *status)
{
    mulred_key_rest rest;
    const mulred_key_table tables[] = {*table, {json_key, 1, json}};
    const mulred_key_request req = {action, tables, 2, 0, mix_help};
    if (!mulred_key_parse(&req, argc, argv, p, &rest, status)) return false;
    mulred_key_rest_free(&rest);
    return true;
}

/* ---- avalanche ---- */

/* The lab's parameters for the options; a usage error (reported) when the rounds do not fit
 * the variant. */
static mulred_exit avalanche_params(mulred_mix_avalanche_params *p, const avalanche_opts *o,
                                    mulred_mix_variant *v)
{
    if (!o->variant) return mulred_out_usage_error("mix avalanche", "--variant is required");
    if (mulred_mix_variant_parse(o->variant, v))
        return mulred_out_usage_error("mix avalanche", "bad value '%s' for '--variant' (%s)",
                                      o->variant, "see --help");
    const mulred_mix_info *info = mulred_mix_variant_info(*v);
    mulred_mix_avalanche_defaults(p, *v);
    if (o->rounds) {
        unsigned half;
        char lo_s[16], hi_s[16];
        print_rounds(lo_s, sizeof lo_s, info->half_min);
        print_rounds(hi_s, sizeof hi_s, info->half_max);
        bool bad =
            !parse_rounds(o->rounds, &half) || half < info->half_min || half > info->half_max;
        if (bad && info->half_min == info->half_max)
            return mulred_out_usage_error("mix avalanche",
                                          "--rounds for %s is fixed at %s, got '%s'", o->variant,
                                          lo_s, o->rounds);
        if (bad)
            return mulred_out_usage_error("mix avalanche",
                                          "--rounds for %s must be %s-%s in steps of 0.5, got '%s'",
                                          o->variant, lo_s, hi_s, o->rounds);
        p->half_rounds = half;
    }
    p->trials = o->trials;
    p->seed = o->seed;
    p->window_lo = o->lo, p->window_hi = o->hi;
    p->threads = (int)o->threads;
    return MULRED_OK;
}

static void avalanche_json(const avalanche_opts *o, const mulred_mix_avalanche_params *p,
                           const mulred_mix_avalanche_result *fwd,
                           const mulred_mix_avalanche_result *inv)
{
    mulred_json_writer w;
    mulred_jw_init(&w, stdout);
    mulred_jw_object_begin(&w, NULL);
    mulred_jw_string(&w, "variant", o->variant);
    mulred_jw_double(&w, "rounds", p->half_rounds / 2.0);
    mulred_jw_uint(&w, "half_rounds", p->half_rounds);
    mulred_jw_uint(&w, "trials", p->trials);
    mulred_jw_uint(&w, "seed", p->seed);
    mulred_jw_array_begin(&w, "window");
    mulred_jw_double(&w, NULL, o->lo);
    mulred_jw_double(&w, NULL, o->hi);
    mulred_jw_array_end(&w);
    mulred_jw_uint(&w, "score", fwd->score);
    mulred_jw_uint(&w, "score_1bit", fwd->score1);
    mulred_jw_uint(&w, "score_2bit", fwd->score2);
    mulred_jw_double(&w, "mean_flip", fwd->mean_flip);
    mulred_jw_double(&w, "worst_bias", fwd->worst_bias);
    json_result(&w, "forward", fwd);
    if (inv) {
        mulred_jw_uint(&w, "inverse_score", inv->score);
        json_result(&w, "inverse", inv);
    } else {
        mulred_jw_null(&w, "inverse_score");
    }
    mulred_jw_object_end(&w);
    mulred_jw_finish(&w);
}

static void avalanche_text(const avalanche_opts *o, const mulred_mix_avalanche_params *p,
                           mulred_mix_variant v, const mulred_mix_avalanche_result *fwd,
                           const mulred_mix_avalanche_result *inv)
{
    char rs[16];
    print_rounds(rs, sizeof rs, p->half_rounds);
    mulred_out("avalanche of %s, %s rounds (%u half-rounds), %llu trials, seed %llu, "
               "window [%g, %g]\n",
               o->variant, rs, p->half_rounds, (unsigned long long)p->trials,
               (unsigned long long)p->seed, o->lo, o->hi);
    mulred_out("%-9s %5s  %5s  %5s  %-15s  %10s  %10s  %8s\n", "direction", "score", "1-bit",
               "2-bit", "worst diff", "mean P", "worst bias", "time");
    human_result("forward", fwd);
    if (inv)
        human_result("inverse", inv);
    else
        mulred_out("inverse   (not a bijection of the input: %s)\n",
                   v == MULRED_MIX_FASTMIX2_32 ? "outputs depend on a+b and c+d only"
                                               : "input absorbed in steps, no inverse map");
}

static mulred_exit avalanche_run(const avalanche_opts *o)
{
    mulred_mix_avalanche_params p;
    mulred_mix_variant v;
    int rc = avalanche_params(&p, o, &v);
    if (rc) return rc;
    const bool invertible = mulred_mix_variant_info(v)->invertible;
    mulred_mix_avalanche_result fwd, inv;
    if (mulred_mix_avalanche(&fwd, &p) ||
        (invertible && (p.inverse = true, mulred_mix_avalanche(&inv, &p)))) {
        if (cli_is_root()) fprintf(stderr, "mulred mix avalanche: out of memory\n");
        return MULRED_ERUNTIME;
    }
    if (!cli_is_root()) return MULRED_OK;
    if (o->json)
        avalanche_json(o, &p, &fwd, invertible ? &inv : NULL);
    else
        avalanche_text(o, &p, v, &fwd, invertible ? &inv : NULL);
    return MULRED_OK;
}

static mulred_exit cmd_avalanche(int argc, char **argv)
{
    avalanche_opts o = {.trials = DEFAULT_TRIALS, .seed = 1, .lo = 0.25, .hi = 0.75};
    mulred_key_parser p = {0};
    const mulred_key_table table = {avalanche_keys,
                                    sizeof avalanche_keys / sizeof avalanche_keys[0], &o};
    mulred_exit rc;
    if (mix_parse("mix avalanche", &table, &o.json, &p, argc, argv, &rc)) rc = avalanche_run(&o);
    mulred_key_parser_free(&p);
    return rc;
}

mulred_exit mulred_cmd_mix(int argc, char **argv)
{
    if (argc < 2) return mulred_out_usage_error("mix", "missing action: avalanche or bench");
    const char *action = argv[1];
    if (strcmp(action, "--help") == 0 || strcmp(action, "-h") == 0 || strcmp(action, "help") == 0) {
        mix_help();
        return MULRED_OK;
    }
    if (strcmp(action, "avalanche") == 0) return cmd_avalanche(argc - 1, argv + 1);
    /* the bench `mix` (bench/bench_mix.c), under this name as well */
    if (strcmp(action, "bench") == 0) return mulred_bench_mix(argc - 1, argv + 1);
    return mulred_out_usage_error("mix", "unknown action '%s' (avalanche or bench)", action);
}

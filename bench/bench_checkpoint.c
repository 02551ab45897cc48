/* mulred bench checkpoint: what --checkpoint costs a MuHash run or an MSM. Child processes of
 * this executable run `mulred muhash --synthetic N --json` (or `mulred msm --curve C
 * --synthetic N --json`) without and with --checkpoint (into a fresh directory each time,
 * removed after), in alternating order, `reps` rounds; each run's own time from opening the
 * inputs to the result (muhash: "seconds"; msm: the total phase's max over ranks, since a
 * checkpointed MSM generates its slices between tiles; the unit saves and the directory scan
 * are inside, process start-up is not). Reported: the medians, and the median, min and max of
 * the per-round ratio with/without, whose excess over 1 is the overhead; and, measured inside
 * the checkpointed runs themselves, the share of their time spent in the store (their JSON
 * checkpoint_seconds), which the run-to-run noise of a shared machine does not blur. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "mulred/sources.h"
#include "output/format.h"
#include "output/json.h"
#include "output/json_read.h"
#include "output/output.h"
#include "util/util.h"

/* Runs cmd; returns the "seconds" of its JSON output, or with msm its phases.total.max (and
 * its computed_units and checkpoint_seconds: the slowest rank's time inside the store), or -1. */
static double ckpt_run(const char *cmd, bool msm, long *units, double *store)
{
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    if (pclose(p) != 0) return -1;
    json_t *v;
    mulred_error err;
    if (mulred_json_read_buffer(&v, buf, n, "the job's --json", &err)) return -1;
    const json_t *s =
        msm ? json_object_get(json_object_get(json_object_get(v, "phases"), "total"), "max")
            : json_object_get(v, "seconds");
    const json_t *u = json_object_get(v, "computed_units");
    double seconds = json_is_number(s) ? json_number_value(s) : -1;
    if (units && json_is_number(u)) *units = (long)json_number_value(u);
    const json_t *cs = json_object_get(v, "checkpoint_seconds");
    if (store) *store = json_is_number(cs) ? json_number_value(cs) : -1;
    json_decref(v);
    return seconds;
}

static void ckpt_usage(void)
{
    mulred_out(
        "Usage: mulred bench checkpoint [--elements N] [--msm CURVE] [--threads T]\n"
        "                               [--reps R] [--unit U] [--dir BASE] [--json]\n"
        "\n"
        "Runs 'mulred muhash --synthetic N' (default 10^7 elements), or with --msm\n"
        "'mulred msm --curve CURVE --synthetic N' (default 2^18 points), as child processes,\n"
        "without and with --checkpoint (a fresh directory under BASE, default $TMPDIR or\n"
        "/tmp, removed after each run), alternating, R rounds (default 5), T threads\n"
        "(default 2); U: --checkpoint-unit (default: the command's). Prints the medians\n"
        "and the per-round ratio with/without (median, min, max), and the share of a\n"
        "checkpointed run spent inside the store (saving and opening it).\n");
}

int mulred_bench_checkpoint(int argc, char **argv)
{
    enum {
        OPT_ELEMENTS = 256,
        OPT_MSM,
        OPT_THREADS,
        OPT_REPS,
        OPT_UNIT,
        OPT_DIR,
        OPT_JSON,
        OPT_HELP
    };
    static const struct option longopts[] = {
        {"elements", required_argument, 0, OPT_ELEMENTS},
        {"msm", required_argument, 0, OPT_MSM},
        {"threads", required_argument, 0, OPT_THREADS},
        {"reps", required_argument, 0, OPT_REPS},
        {"unit", required_argument, 0, OPT_UNIT},
        {"dir", required_argument, 0, OPT_DIR},
        {"json", no_argument, 0, OPT_JSON},
        {"help", no_argument, 0, OPT_HELP},
        {0, 0, 0, 0},
    };
    uint64_t elements = 0, unit = 0;
    const char *curve = NULL; /* NULL: muhash */
    int threads = 2, reps = 5, json = 0, c;
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        uint64_t v = 0;
        switch (c) {
        case OPT_ELEMENTS:
            if (mulred_parse_count(optarg, &elements) || elements == 0)
                return mulred_out_usage_error("bench checkpoint", "bad --elements '%s'", optarg);
            break;
        case OPT_MSM:
            if (strcmp(optarg, "bls12-381") != 0 && strcmp(optarg, "bn254") != 0)
                return mulred_out_usage_error("bench checkpoint",
                                              "bad --msm '%s' (bls12-381 or bn254)", optarg);
            curve = optarg;
            break;
        case OPT_THREADS:
            if (mulred_parse_count(optarg, &v) || v < 1 || v > 4096)
                return mulred_out_usage_error("bench checkpoint", "bad --threads '%s'", optarg);
            threads = (int)v;
            break;
        case OPT_REPS:
            if (mulred_parse_count(optarg, &v) || v < 1 || v > 64)
                return mulred_out_usage_error("bench checkpoint", "bad --reps '%s' (1-64)", optarg);
            reps = (int)v;
            break;
        case OPT_UNIT:
            if (mulred_parse_count(optarg, &unit) || unit == 0)
                return mulred_out_usage_error("bench checkpoint", "bad --unit '%s'", optarg);
            break;
        case OPT_DIR:
            base = optarg;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_HELP:
        case 'h':
            ckpt_usage();
            return MULRED_OK;
        default:
            return MULRED_OUT_EUSAGE;
        }
    }
    if (!elements) elements = curve ? UINT64_C(1) << 18 : 10000000;
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        fprintf(stderr, "mulred bench checkpoint: cannot find this executable\n");
        return MULRED_ERUNTIME;
    }
    self[len] = '\0';
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/mulred-bench-ckpt.%ld", base, (long)getpid());
    char unit_arg[64] = "";
    if (unit)
        snprintf(unit_arg, sizeof unit_arg, "--checkpoint-unit %llu", (unsigned long long)unit);

    double t[2][64], ratio[64], share[64];
    long units = 0;
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            int with = (r + k) % 2; /* alternate which goes first */
            char cmd[12288];
            char what[64];
            if (curve)
                snprintf(what, sizeof what, "msm --curve %s", curve);
            else
                snprintf(what, sizeof what, "muhash --no-progress");
            snprintf(cmd, sizeof cmd,
                     "OMP_NUM_THREADS=%d '%s' %s --synthetic %llu --threads %d --json "
                     "%s%s%s %s",
                     threads, self, what, (unsigned long long)elements, threads,
                     with ? "--checkpoint '" : "", with ? dir : "", with ? "'" : "",
                     with ? unit_arg : "");
            double store = 0;
            t[with][r] = ckpt_run(cmd, curve != NULL, with ? &units : NULL, with ? &store : NULL);
            if (with) share[r] = store >= 0 ? store / t[1][r] : -1;
            if (with) {
                char rm[4200];
                snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
                if (system(rm) != 0) t[with][r] = -1;
            }
            if (t[with][r] < 0) {
                fprintf(stderr, "mulred bench checkpoint: failed: %s\n", cmd);
                return MULRED_ERUNTIME;
            }
        }
    for (int r = 0; r < reps; r++) ratio[r] = t[1][r] / t[0][r];
    double rmin = ratio[0], rmax = ratio[0];
    for (int r = 1; r < reps; r++) {
        if (ratio[r] < rmin) rmin = ratio[r];
        if (ratio[r] > rmax) rmax = ratio[r];
    }
    double without = mulred_median(t[0], (size_t)reps), with = mulred_median(t[1], (size_t)reps);
    double rmed = mulred_median(ratio, (size_t)reps);
    /* the direct measure: the share of a checkpointed run spent inside the store (saving,
     * and opening it), immune to the run-to-run noise that the ratio carries */
    double smed = mulred_median(share, (size_t)reps);
    if (json) {
        mulred_json_writer w;
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "command", curve ? "msm" : "muhash");
        if (curve) mulred_jw_string(&w, "curve", curve);
        mulred_jw_uint(&w, "elements", elements);
        mulred_jw_int(&w, "threads", threads);
        mulred_jw_int(&w, "reps", reps);
        mulred_jw_int(&w, "units", (int)units);
        mulred_jw_double(&w, "seconds_without", without);
        mulred_jw_double(&w, "seconds_with", with);
        mulred_jw_double(&w, "ratio_median", rmed);
        mulred_jw_double(&w, "ratio_min", rmin);
        mulred_jw_double(&w, "ratio_max", rmax);
        mulred_jw_double(&w, "store_share_median", smed);
        mulred_jw_object_end(&w);
        fputc('\n', stdout);
        return MULRED_OK;
    }
    mulred_out("checkpoint overhead: mulred %s%s --synthetic %llu, %d thread%s, %d rounds\n",
               curve ? "msm --curve " : "muhash", curve ? curve : "", (unsigned long long)elements,
               threads, threads == 1 ? "" : "s", reps);
    mulred_out("  without --checkpoint   %8.3f s (median)\n", without);
    mulred_out("  with --checkpoint      %8.3f s (median; %ld unit files)\n", with, units);
    mulred_out("  ratio with/without     %8.4f median, %.4f min, %.4f max (per round)\n", rmed,
               rmin, rmax);
    mulred_out(
        "  time inside the store  %8.4f of a checkpointed run (median; saving and opening)\n",
        smed);
    return MULRED_OK;
}

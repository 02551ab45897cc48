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
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_child.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "mulred/sources.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

/* Runs argv; returns the "seconds" of its JSON output, or with msm its phases.total.max (and
 * its computed_units and checkpoint_seconds: the slowest rank's time inside the store), or -1. */
static double ckpt_run(const char *const argv[], const bench_child_opts *co, bool msm, long *units,
                       double *store)
{
    bench_child c;
    json_t *v = bench_child_json_run(&c, argv, co);
    bench_child_free(&c);
    if (!v) return -1;
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

/* rm -rf dir; true when it exited 0. */
static bool remove_tree(const char *dir)
{
    const char *const argv[] = {"rm", "-rf", dir, NULL};
    bench_child c;
    bench_child_start(&c, argv, &(bench_child_opts){.discard_stdout = true});
    const bool ok = bench_child_wait(&c);
    bench_child_free(&c);
    return ok;
}

typedef struct {
    uint64_t elements, unit, threads, reps; /* elements, unit 0: the command's default */
    const char *curve;                      /* NULL: muhash */
    const char *base;
    bool json;
} ckpt_opts;

static int set_msm(void *o, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    if (strcmp(v, "bls12-381") != 0 && strcmp(v, "bn254") != 0)
        return mulred_key_bad_value(p, v, "bls12-381 or bn254", why, cap);
    return (((ckpt_opts *)o)->curve = mulred_key_keep(p, v)) ? MULRED_OK : MULRED_ERUNTIME;
}
MULRED_KEY_COUNT(set_elements, ckpt_opts, elements, 1, UINT64_MAX)
MULRED_KEY_COUNT(set_threads, ckpt_opts, threads, 1, 4096)
MULRED_KEY_COUNT(set_reps, ckpt_opts, reps, 1, 64)
MULRED_KEY_COUNT(set_unit, ckpt_opts, unit, 1, UINT64_MAX)
MULRED_KEY_TEXT(set_dir, ckpt_opts, base)
MULRED_KEY_FLAG(set_json, ckpt_opts, json)

static const mulred_key ckpt_keys[] = {
    {"elements", false, false, false, set_elements}, {"msm", false, false, false, set_msm},
    {"threads", false, false, false, set_threads},   {"reps", false, false, false, set_reps},
    {"unit", false, false, false, set_unit},         {"dir", false, false, false, set_dir},
    {"json", true, false, false, set_json},
};

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

/* The figures: one record. */
static const bench_column ckpt_columns[] = {
    {"units", "unit files", NULL, BENCH_INT, 0},
    {"seconds_without", "without --checkpoint s", "%.3f", BENCH_REAL, 0},
    {"seconds_with", "with --checkpoint s", "%.3f", BENCH_REAL, 0},
    {"ratio_median", "ratio with/without", "%.4f", BENCH_REAL, 0},
    {"ratio_min", "ratio min", "%.4f", BENCH_REAL, 0},
    {"ratio_max", "ratio max", "%.4f", BENCH_REAL, 0},
    {"store_share_median", "time inside the store", "%.4f", BENCH_REAL, 0},
};

/* The rounds: t[0][r] without, t[1][r] with --checkpoint, share[r] the store's share of the
 * checkpointed run; *units the unit files of a checkpointed run. Returns MULRED_OK, or
 * MULRED_ERUNTIME with a message on standard error. */
static mulred_status ckpt_rounds(const ckpt_opts *o, double t[2][64], double *share, long *units)
{
    const char *self = bench_child_self();
    if (!self) {
        fprintf(stderr, "mulred bench checkpoint: cannot find this executable\n");
        return MULRED_ERUNTIME;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/mulred-bench-ckpt.%ld", o->base, (long)getpid());
    char elements[24], threads[24], unit[24], omp[48];
    snprintf(elements, sizeof elements, "%llu", (unsigned long long)o->elements);
    snprintf(threads, sizeof threads, "%d", (int)o->threads);
    snprintf(unit, sizeof unit, "%llu", (unsigned long long)o->unit);
    snprintf(omp, sizeof omp, "OMP_NUM_THREADS=%d", (int)o->threads);
    const char *const env[] = {omp, NULL};
    const bench_child_opts co = {.env = env};
    for (int r = 0; r < (int)o->reps; r++)
        for (int k = 0; k < 2; k++) {
            int with = (r + k) % 2; /* alternate which goes first */
            const char *argv[16];
            int a = 0;
            argv[a++] = self;
            if (o->curve)
                argv[a++] = "msm", argv[a++] = "--curve", argv[a++] = o->curve;
            else
                argv[a++] = "muhash", argv[a++] = "--no-progress";
            argv[a++] = "--synthetic", argv[a++] = elements, argv[a++] = "--threads";
            argv[a++] = threads, argv[a++] = "--json";
            if (with) argv[a++] = "--checkpoint", argv[a++] = dir;
            if (with && o->unit) argv[a++] = "--checkpoint-unit", argv[a++] = unit;
            argv[a] = NULL;
            double store = 0;
            t[with][r] =
                ckpt_run(argv, &co, o->curve != NULL, with ? units : NULL, with ? &store : NULL);
            if (with) share[r] = store >= 0 ? store / t[1][r] : -1;
            if (with && !remove_tree(dir)) t[with][r] = -1;
            if (t[with][r] < 0) {
                char cmd[8192];
                bench_child_describe(cmd, sizeof cmd, argv, &co);
                fprintf(stderr, "mulred bench checkpoint: failed: %s\n", cmd);
                return MULRED_ERUNTIME;
            }
        }
    return MULRED_OK;
}

mulred_exit mulred_bench_checkpoint(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    ckpt_opts o = {0, 0, 2, 5, NULL, tmp ? tmp : "/tmp", false};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    if (!bench_options(
            "checkpoint",
            &(const mulred_key_table){ckpt_keys, sizeof ckpt_keys / sizeof ckpt_keys[0], &o}, argc,
            argv, ckpt_usage, &p, &rc)) {
        mulred_key_parser_free(&p);
        return rc;
    }
    if (!o.elements) o.elements = o.curve ? UINT64_C(1) << 18 : 10000000;
    const int reps = (int)o.reps;
    double t[2][64], ratio[64], share[64];
    long units = 0;
    rc = ckpt_rounds(&o, t, share, &units);
    if (rc != MULRED_OK) {
        mulred_key_parser_free(&p);
        return rc;
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
    mulred_json_writer w;
    if (o.json) {
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_string(&w, "command", o.curve ? "msm" : "muhash");
        if (o.curve) mulred_jw_string(&w, "curve", o.curve);
        mulred_jw_uint(&w, "elements", o.elements);
        mulred_jw_int(&w, "threads", (int)o.threads);
        mulred_jw_int(&w, "reps", reps);
    } else
        mulred_out("checkpoint overhead: mulred %s%s --synthetic %llu, %d thread%s, %d rounds\n"
                   "(medians; the ratio per round; the store's share of a checkpointed run: "
                   "saving and opening it)\n\n",
                   o.curve ? "msm --curve " : "muhash", o.curve ? o.curve : "",
                   (unsigned long long)o.elements, (int)o.threads, o.threads == 1 ? "" : "s", reps);
    bench_table tab;
    bench_table_begin(&tab, o.json ? &w : NULL, NULL, ckpt_columns,
                      sizeof ckpt_columns / sizeof ckpt_columns[0]);
    BENCH_ROW(&tab, BENCH_I(units), BENCH_R(without), BENCH_R(with), BENCH_R(rmed), BENCH_R(rmin),
              BENCH_R(rmax), BENCH_R(smed));
    bench_table_end(&tab);
    if (o.json) {
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
    }
    mulred_key_parser_free(&p);
    return MULRED_OK;
}

/* mulred bench jobs: whole jobs as a user runs them, input kind by input kind. Each job is this
 * executable run as a fresh process (`mulred muhash ... --json`, `mulred msm ... --json`), so
 * its peak resident set (wait4's ru_maxrss) is its own; its phases come from its JSON. Inputs
 * are made first in a temporary directory: an element file of random 58-82-byte elements as
 * hex, a synthetic snapshot (mulred_utxo_synth), a hex pair file of valid BLS12-381 points
 * (mulred_msm_synth, as records), and the element file again through a pipe to standard input
 * (a writer process copies it into the pipe). Reported per job: its bytes, its seconds, each
 * phase's seconds and the input's bytes per second over it, the parse share (read, for MSM
 * read + validate, over the sum of the work phases read, hash, validate and msm: the jobs' own
 * figures, which the machine's other load inflates less than wall time), and peak RSS. The
 * machine's other load shows in the figures: compare the rows of one run.
 *
 * Ranks: when mpirun is on the PATH, every job runs once more as `mpirun -n 2` of this
 * executable with one thread a rank (OMP_NUM_THREADS=1; as root with Open MPI's consent
 * variables and --allow-run-as-root); its phases are the JSON's maxima over ranks and its peak
 * RSS the largest of mpirun and its ranks (wait4 counts the descendants it reaped). Without
 * mpirun these rows are skipped, and the reason printed. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "bench_child.h"
#include "bench_keys.h"
#include "bench_table.h"
#include "mulred/msm_io.h"
#include "mulred/utxo.h"
#include "output/format.h"
#include "output/json.h"
#include "output/output.h"
#include "util/util.h"

static void jobs_usage(void)
{
    mulred_out(
        "Usage: mulred bench jobs [--size N] [--pairs M] [--no-ranks] [--dir BASE] [--json]\n"
        "\n"
        "Whole jobs per input kind, as fresh child processes at 1 and 2 threads and,\n"
        "when mpirun is found (and not --no-ranks), 2 ranks of 1 thread: an element\n"
        "file (N elements of 58-82 bytes as hex; default N = 200000, ~28 MB), a\n"
        "synthetic snapshot (N coins), a hex pair file of BLS12-381 (M pairs; default\n"
        "N/50, at least 64) and the element file piped to standard input. For each:\n"
        "bytes, seconds, every\n"
        "phase's seconds and MB/s of the input over it, the parse share of the job\n"
        "(read, or read + validate for MSM, over the work phases) and peak RSS.\n"
        "Inputs go to a directory under BASE (default $TMPDIR or /tmp), removed at\n"
        "the end.\n");
}

/* Runs args (args[0] names this executable) as a child, standard input from in_path through a
 * pipe fed by a writer process (pipe_in), from in_path directly, or /dev/null (NULL); with
 * mpirun, as `mpirun -n 2 --oversubscribe` of it with one thread a rank. Returns its peak RSS in
 * KiB and its JSON output in *v, or -1 when it failed. */
static long run_child(const char *const args[], const char *in_path, bool pipe_in,
                      const char *mpirun, json_t **v)
{
    const bool root = getuid() == 0; /* as root: Open MPI's consent (a NULL ends a list early) */
    const char *const launcher[] = {
        mpirun, "-n", "2", "--oversubscribe", root ? "--allow-run-as-root" : NULL, NULL};
    const char *const env[] = {"OMP_NUM_THREADS=1", root ? "OMPI_ALLOW_RUN_AS_ROOT=1" : NULL,
                               "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", NULL};
    const bench_child_opts o = {.file = bench_child_self(),
                                .launcher = mpirun ? launcher : NULL,
                                .env = mpirun ? env : NULL,
                                .stdin_path = in_path,
                                .stdin_pipe = pipe_in,
                                .quiet = true};
    bench_child c;
    *v = o.file ? bench_child_json_run(&c, args, &o) : NULL;
    const long rss = *v ? c.maxrss_kib : -1;
    if (o.file) bench_child_free(&c);
    return rss;
}

static double phase(const json_t *v, const char *name)
{
    const json_t *p = json_object_get(json_object_get(json_object_get(v, "phases"), name), "max");
    return json_is_number(p) ? json_number_value(p) : 0;
}

static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The inputs: returns 0, or -1 with a message on standard error. */
static int make_element_file(const char *path, uint64_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (uint64_t i = 0; i < n; i++) {
        uint8_t e[82];
        char hex[165];
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const size_t len = 58 + (size_t)(s % 25);
        for (size_t j = 0; j < len; j++) s ^= s << 13, s ^= s >> 7, s ^= s << 17, e[j] = (uint8_t)s;
        mulred_hex_encode(hex, e, len);
        hex[2 * len] = '\n';
        if (fwrite(hex, 1, 2 * len + 1, f) != 2 * len + 1) break;
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int make_pair_file(const char *path, uint64_t n)
{
    const mulred_curve c = MULRED_CURVE_BLS12_381;
    const size_t R = mulred_msm_record_bytes(c), aff = mulred_msm_affine_bytes(c);
    void *pts = malloc(n * aff);
    mulred_scalar256 *sc = malloc(n * sizeof *sc);
    uint8_t *rec = malloc(n * R);
    char *hex = malloc(2 * R + 1);
    mulred_error err;
    int rc = -1;
    FILE *f = NULL;
    if (pts && sc && rec && hex && mulred_msm_synth(pts, sc, c, 1, 0, n, 0, &err) == MULRED_OK &&
        (f = fopen(path, "w"))) {
        mulred_msm_encode_pairs(rec, pts, sc, n, c);
        rc = 0;
        for (uint64_t i = 0; i < n && rc == 0; i++) {
            mulred_hex_encode(hex, rec + i * R, R);
            hex[2 * R] = '\n';
            if (fwrite(hex, 1, 2 * R + 1, f) != 2 * R + 1) rc = -1;
        }
        if (fclose(f) != 0) rc = -1;
    }
    free(pts), free(sc), free(rec), free(hex);
    return rc;
}

/* The path of mpirun on the PATH into buf, or NULL. */
static const char *find_mpirun(char *buf, size_t cap)
{
    const char *path = getenv("PATH");
    if (!path) return NULL;
    for (const char *p = path; *p;) {
        const char *e = strchr(p, ':');
        const size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && (size_t)snprintf(buf, cap, "%.*s/mpirun", (int)len, p) < cap &&
            access(buf, X_OK) == 0)
            return buf;
        if (!e) break;
        p = e + 1;
    }
    return NULL;
}

typedef struct {
    const char *kind;
    int ranks, threads;
    uint64_t bytes;
    double seconds, read, hash, validate, msm, share;
    long rss_kib;
} job_row;

typedef struct {
    uint64_t size, pairs; /* pairs 0: size / 50, at least 64 */
    bool no_ranks, json;
    const char *base;
} jobs_opts;

MULRED_KEY_COUNT(set_size, jobs_opts, size, 100, UINT64_MAX)
MULRED_KEY_COUNT(set_pairs, jobs_opts, pairs, 1, UINT64_C(1) << 24)
MULRED_KEY_FLAG(set_no_ranks, jobs_opts, no_ranks)
MULRED_KEY_TEXT(set_dir, jobs_opts, base)
MULRED_KEY_FLAG(set_json, jobs_opts, json)

static const mulred_key jobs_keys[] = {
    {"size", false, false, false, set_size},        {"pairs", false, false, false, set_pairs},
    {"no-ranks", true, false, false, set_no_ranks}, {"dir", false, false, false, set_dir},
    {"json", true, false, false, set_json},
};

/* The input files of the jobs, in a directory of their own. */
typedef struct {
    char dir[4096], elems[4200], snap[4200], pairs[4200];
} jobs_files;

/* The jobs: every input kind at 1 rank x 1 thread, 1 x 2 and (with mpirun) 2 x 1, into rows.
 * Returns MULRED_OK, or MULRED_ERUNTIME with a message on standard error. */
static mulred_status jobs_run(job_row *rows, int *nrows, const jobs_files *f, const char *mpirun)
{
    static const char *kinds[4] = {"element file", "snapshot", "pair file", "stdin"};
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < 3; l++) {
            const int t = l == 1 ? 2 : 1, nr = l == 2 ? 2 : 1;
            if (nr == 2 && !mpirun) continue;
            char threads[16];
            snprintf(threads, sizeof threads, "%d", t);
            const char *args[16];
            int a = 0;
            args[a++] = "mulred";
            if (k == 2) {
                args[a++] = "msm", args[a++] = "--curve", args[a++] = "bls12-381";
                args[a++] = "--input", args[a++] = f->pairs;
            } else {
                args[a++] = "muhash", args[a++] = "--no-progress";
                args[a++] = k == 1 ? "--snapshot" : "--insert";
                args[a++] = k == 0 ? f->elems : k == 1 ? f->snap : "-";
            }
            args[a++] = "--threads", args[a++] = threads, args[a++] = "--json", args[a] = NULL;
            job_row *r = &rows[(*nrows)++];
            memset(r, 0, sizeof *r);
            r->kind = kinds[k];
            r->ranks = nr;
            r->threads = t;
            r->bytes = file_bytes(k == 1 ? f->snap : k == 2 ? f->pairs : f->elems);
            json_t *v;
            r->rss_kib =
                run_child(args, k == 3 ? f->elems : NULL, k == 3, nr > 1 ? mpirun : NULL, &v);
            if (!v) {
                fprintf(stderr,
                        "mulred bench jobs: the %s job at %d rank(s) x %d thread(s) failed\n",
                        r->kind, nr, t);
                return MULRED_ERUNTIME;
            }
            r->seconds = phase(v, "total");
            r->read = phase(v, "read");
            r->hash = phase(v, "hash");
            r->validate = phase(v, "validate");
            r->msm = phase(v, "msm");
            const double work = r->read + r->validate + r->hash + r->msm;
            r->share = work > 0 ? (r->read + r->validate) / work : 0;
            json_decref(v);
        }
    return MULRED_OK;
}

/* The jobs' table: MB/s is the input's bytes over a phase (printed only; "-" without it). */
static const bench_column jobs_columns[] = {
    {"input", "input", NULL, BENCH_TEXT, 0},
    {"ranks", "ranks", NULL, BENCH_INT, 0},
    {"threads", "threads", NULL, BENCH_INT, 0},
    {"bytes", "MB", "%.1f", BENCH_INT, 1e-6},
    {"seconds", "seconds", "%.3f", BENCH_REAL, 0},
    {"read", "read s", "%.3f", BENCH_REAL, 0},
    {NULL, "read MB/s", "%.0f", BENCH_REAL, 0},
    {"hash", "hash s", "%.3f", BENCH_REAL, 0},
    {"msm", "msm s", "%.3f", BENCH_REAL, 0},
    {NULL, "hash or msm MB/s", "%.0f", BENCH_REAL, 0},
    {"validate", "validate s", "%.3f", BENCH_REAL, 0},
    {NULL, "validate MB/s", "%.0f", BENCH_REAL, 0},
    {"parse_share", "parse", "%.0f%%", BENCH_REAL, 100},
    {"peak_rss_kib", "peak RSS MiB", "%.1f", BENCH_INT, 1.0 / 1024},
};

/* MB/s of bytes over seconds; NaN (printed "-") without the phase. */
static double mb_per_s(uint64_t bytes, double seconds)
{
    return seconds > 0 ? bytes / 1e6 / seconds : NAN;
}

static void jobs_print(const jobs_opts *o, const job_row *rows, int nrows, const char *no_ranks)
{
    mulred_json_writer w;
    if (o->json) {
        mulred_jw_init(&w, stdout);
        mulred_jw_object_begin(&w, NULL);
        mulred_jw_uint(&w, "size", o->size);
        mulred_jw_uint(&w, "pairs", o->pairs);
        mulred_jw_string(&w, "cpu", mulred_cpu_describe());
        if (no_ranks) mulred_jw_string(&w, "ranks_skipped", no_ranks);
    } else
        mulred_out("Whole jobs (fresh processes; phases: max over ranks; MB/s of the input over "
                   "each phase)\nCPU: %s %s\n\n",
                   mulred_cpu_generation(), mulred_cpu_describe());
    bench_table t;
    bench_table_begin(&t, o->json ? &w : NULL, "jobs", jobs_columns,
                      sizeof jobs_columns / sizeof jobs_columns[0]);
    for (int i = 0; i < nrows; i++) {
        const job_row *r = &rows[i];
        BENCH_ROW(&t, BENCH_S(r->kind), BENCH_I(r->ranks), BENCH_I(r->threads), BENCH_I(r->bytes),
                  BENCH_R(r->seconds), BENCH_R(r->read), BENCH_R(mb_per_s(r->bytes, r->read)),
                  BENCH_R(r->hash), BENCH_R(r->msm),
                  BENCH_R(mb_per_s(r->bytes, r->hash > 0 ? r->hash : r->msm)), BENCH_R(r->validate),
                  BENCH_R(mb_per_s(r->bytes, r->validate)), BENCH_R(r->share), BENCH_I(r->rss_kib));
    }
    bench_table_end(&t);
    if (o->json) {
        mulred_jw_object_end(&w);
        mulred_jw_finish(&w);
        return;
    }
    mulred_out("\nparse: read (MuHash) or read + validate (MSM) over the sum of the work phases\n"
               "(read, hash, validate, msm: the jobs' own figures; seconds is the wall time of\n"
               "the whole job). 2 ranks: mpirun -n 2, one thread a rank; phases are maxima over\n"
               "ranks, peak RSS the largest of mpirun and its ranks.\n");
    if (no_ranks) mulred_out("2 ranks: skipped (%s)\n", no_ranks);
}

mulred_exit mulred_bench_jobs(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    jobs_opts o = {200000, 0, false, false, tmp ? tmp : "/tmp"};
    mulred_key_parser p = {0};
    int rc = MULRED_OK;
    if (!bench_options(
            "jobs",
            &(const mulred_key_table){jobs_keys, sizeof jobs_keys / sizeof jobs_keys[0], &o}, argc,
            argv, jobs_usage, &p, &rc)) {
        mulred_key_parser_free(&p);
        return rc;
    }
    jobs_files f;
    snprintf(f.dir, sizeof f.dir, "%s/mulred-bench-jobs.%ld", o.base, (long)getpid());
    mulred_key_parser_free(&p);
    if (mkdir(f.dir, 0700) != 0) {
        fprintf(stderr, "mulred bench jobs: cannot create %s\n", f.dir);
        return MULRED_ERUNTIME;
    }
    snprintf(f.elems, sizeof f.elems, "%s/elements.hex", f.dir);
    snprintf(f.snap, sizeof f.snap, "%s/snapshot.dat", f.dir);
    snprintf(f.pairs, sizeof f.pairs, "%s/pairs.hex", f.dir);
    if (!o.pairs) o.pairs = o.size / 50 < 64 ? 64 : o.size / 50;
    char mpirun_buf[4200];
    const char *mpirun = !o.no_ranks ? find_mpirun(mpirun_buf, sizeof mpirun_buf) : NULL;
    const char *no_ranks = o.no_ranks ? "--no-ranks" : !mpirun ? "no mpirun on the PATH" : NULL;
    mulred_error err;
    if (make_element_file(f.elems, o.size) || make_pair_file(f.pairs, o.pairs) ||
        mulred_utxo_synth(f.snap, o.size, 1, false, &err) != MULRED_OK) {
        fprintf(stderr, "mulred bench jobs: cannot write the inputs in %s\n", f.dir);
        rc = MULRED_ERUNTIME;
    }
    job_row rows[12];
    int nrows = 0;
    if (rc == MULRED_OK) rc = jobs_run(rows, &nrows, &f, mpirun);
    unlink(f.elems), unlink(f.snap), unlink(f.pairs);
    char idx[4300];
    snprintf(idx, sizeof idx, "%s.idx", f.snap);
    unlink(idx);
    rmdir(f.dir);
    if (rc == MULRED_OK) jobs_print(&o, rows, nrows, no_ranks);
    return rc;
}

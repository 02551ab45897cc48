/* Result files → rows. Inputs are what `mulred run --json` writes ({job, status, environment,
 * runs: […]}, also the placeholders slurm/scaling.sh writes before a job starts), bare
 * `mulred muhash --json` and `mulred msm --json` objects, or arrays of either. A file that is
 * missing, failed, still pending or of the wrong shape becomes a row saying so: a sweep with a
 * hole must show the hole. A file that is not JSON at all is bad input. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mulred/mulred_mpi.h"
#include "input/json_read.h"
#include "output/result_fields.h"
#include "report/report.h"

int mulred_report_cores(const mulred_report_row *r)
{
    return r->ranks * r->threads;
}

const mulred_report_row *mulred_report_smallest(const mulred_report_rows *rs, bool msm)
{
    const mulred_report_row *base = NULL;
    for (size_t i = 0; i < rs->n; i++) {
        const mulred_report_row *r = &rs->rows[i];
        if (!r->ok || r->msm != msm || !(r->elements > 0)) continue;
        const int c = mulred_report_cores(r);
        if (!base || c < mulred_report_cores(base) ||
            (c == mulred_report_cores(base) && r->seconds < base->seconds))
            base = r;
    }
    return base;
}

double mulred_report_loopback(const mulred_report_rows *rs, bool msm)
{
    double latency = NAN;
    for (size_t i = 0; i < rs->n; i++) {
        const mulred_report_row *r = &rs->rows[i];
        if (r->ok && r->msm == msm && r->ranks > 1 && r->mpi_reduce_min >= 0 &&
            !(latency <= r->mpi_reduce_min))
            latency = r->mpi_reduce_min;
    }
    return latency;
}

static mulred_report_row *rows_add(mulred_report_rows *rs, mulred_error *err)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? 2 * rs->cap : 16;
        mulred_report_row *r = realloc(rs->rows, cap * sizeof *r);
        if (!r) {
            mulred_error_set(err, MULRED_ERUNTIME, "report: out of memory (%zu rows)", cap);
            return NULL;
        }
        rs->rows = r, rs->cap = cap;
    }
    mulred_report_row *row = &rs->rows[rs->n++];
    memset(row, 0, sizeof *row);
    row->seconds = row->elements = row->mpi_reduce_min = row->finalize_max = NAN;
    row->load_start = row->load_end = row->compute = row->read = row->input_bytes = NAN;
    return row;
}

void mulred_report_rows_free(mulred_report_rows *rs)
{
    free(rs->rows);
    *rs = (mulred_report_rows){0};
}

/* A member's string (NULL unless a string) or number (fallback unless a number); NULL objects
 * and non-objects have no members. */
static const char *jstr(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

static double jnum(const json_t *obj, const char *key, double fallback)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}

/* A count that fits an int, else 0 (unknown). */
static int jint(const json_t *obj, const char *key)
{
    double v = jnum(obj, key, 0);
    return v >= 0 && v <= 1 << 30 ? (int)v : 0;
}

static int env_int(const json_t *env, const char *key)
{
    const char *s = jstr(env, key);
    return s ? atoi(s) : 0;
}

static double phase(const json_t *run, const char *name, const char *stat)
{
    return jnum(json_object_get(json_object_get(run, MULRED_RF_PHASES), name), stat, NAN);
}

static double or0(double v)
{
    return isnan(v) ? 0 : v;
}

static void row_origin(mulred_report_row *row, const char *source, const char *job)
{
    snprintf(row->source, sizeof row->source, "%s", source);
    snprintf(row->job, sizeof row->job, "%s", job ? job : "");
}

static void row_layout(mulred_report_row *row, const json_t *run)
{
    row->nodes = jint(run, MULRED_RF_NODES);
    row->ranks = jint(run, MULRED_RF_RANKS);
    row->threads = jint(run, MULRED_RF_THREADS);
    row->seconds = jnum(run, MULRED_RF_SECONDS, NAN);
}

/* One `mulred msm --json` object. Time is `seconds`: the MSM alone (tiles and reduce). */
static void msm_row(mulred_report_row *row, const json_t *run)
{
    const char *curve = jstr(run, MULRED_RF_CURVE), *result = jstr(run, MULRED_RF_RESULT),
               *input = jstr(run, MULRED_RF_INPUT);
    const json_t *grid = json_object_get(run, MULRED_RF_GRID);
    row->msm = true;
    row->elements = jnum(run, MULRED_RF_POINTS, NAN);
    row_layout(row, run);
    row->mpi_reduce_min =
        phase(run, mulred_mpi_msm_phase_name(MULRED_MPI_MSM_PHASE_REDUCE), MULRED_RF_MIN);
    row->msm_max = phase(run, mulred_mpi_msm_phase_name(MULRED_MPI_MSM_PHASE_MSM), MULRED_RF_MAX);
    row->input_max =
        or0(phase(run, mulred_mpi_msm_phase_name(MULRED_MPI_MSM_PHASE_READ), MULRED_RF_MAX)) +
        or0(phase(run, mulred_mpi_msm_phase_name(MULRED_MPI_MSM_PHASE_GENERATE), MULRED_RF_MAX));
    row->validate_max =
        phase(run, mulred_mpi_msm_phase_name(MULRED_MPI_MSM_PHASE_VALIDATE), MULRED_RF_MAX);
    row->window = jint(run, MULRED_RF_WINDOW);
    row->glv = json_is_true(json_object_get(run, MULRED_RF_GLV));
    row->slices = jint(grid, MULRED_RF_SLICES);
    row->groups = jint(grid, MULRED_RF_GROUPS);
    row->model_msm = jnum(grid, MULRED_RF_MODEL_MSM_SECONDS, NAN);
    snprintf(row->curve, sizeof row->curve, "%s", curve ? curve : "");
    snprintf(row->result, sizeof row->result, "%s", result ? result : "");
    if (input)
        snprintf(row->workload, sizeof row->workload, "msm %s, %.0f points, file %s",
                 curve ? curve : "?", row->elements, input);
    else
        snprintf(row->workload, sizeof row->workload, "msm %s, %.0f points, synthetic seed %.0f",
                 curve ? curve : "?", row->elements, jnum(run, MULRED_RF_SEED, NAN));
    row->ok = result && curve && row->ranks > 0 && row->threads > 0 && row->seconds > 0;
}

/* One `mulred muhash --json` object. */
static void muhash_row(mulred_report_row *row, const json_t *run)
{
    const char *flavor = jstr(run, MULRED_RF_FLAVOR), *hash = jstr(run, MULRED_RF_RESULT);
    if (!hash) hash = jstr(run, MULRED_RF_MUHASH); /* results of mulred 0.2 and older */
    row->elements = jnum(run, MULRED_RF_ELEMENTS, NAN);
    row->input_bytes = jnum(run, MULRED_RF_INPUT_BYTES, NAN);
    row_layout(row, run);
    row->mpi_reduce_min =
        phase(run, mulred_mpi_muhash_phase_name(MULRED_MPI_MUHASH_PHASE_MPI), MULRED_RF_MIN);
    row->finalize_max =
        phase(run, mulred_mpi_muhash_phase_name(MULRED_MPI_MUHASH_PHASE_FINALIZE), MULRED_RF_MAX);
    row->read =
        or0(phase(run, mulred_mpi_muhash_phase_name(MULRED_MPI_MUHASH_PHASE_READ), MULRED_RF_MAX));
    row->compute =
        phase(run, mulred_mpi_muhash_phase_name(MULRED_MPI_MUHASH_PHASE_HASH), MULRED_RF_MAX) +
        or0(phase(run, mulred_mpi_muhash_phase_name(MULRED_MPI_MUHASH_PHASE_GENERATE),
                  MULRED_RF_MAX));
    snprintf(row->result, sizeof row->result, "%s", hash ? hash : "");
    snprintf(row->workload, sizeof row->workload, "muhash %s, %.0f inserted, %.0f removed",
             flavor ? flavor : "?", jnum(run, MULRED_RF_INSERTED, NAN),
             jnum(run, MULRED_RF_REMOVED, NAN));
    row->ok = hash && flavor && row->ranks > 0 && row->threads > 0 && row->seconds > 0;
}

static mulred_status add_run(mulred_report_rows *rs, const json_t *run, const char *source,
                             const char *job, mulred_error *err)
{
    mulred_report_row *row = rows_add(rs, err);
    if (!row) return MULRED_ERUNTIME;
    row_origin(row, source, job);
    if (json_object_get(run, MULRED_RF_CURVE) && json_object_get(run, MULRED_RF_RESULT))
        msm_row(row, run);
    else
        muhash_row(row, run);
    snprintf(row->status, sizeof row->status, "%s", row->ok ? "ok" : "invalid: incomplete result");
    return MULRED_OK;
}

static mulred_status add_problem(mulred_report_rows *rs, const char *source, const char *job,
                                 const char *status, const json_t *env, mulred_error *err)
{
    mulred_report_row *row = rows_add(rs, err);
    if (!row) return MULRED_ERUNTIME;
    row_origin(row, source, job);
    snprintf(row->status, sizeof row->status, "%s", status);
    if (env) {
        row->nodes = env_int(env, "SLURM_JOB_NUM_NODES");
        row->ranks = env_int(env, "SLURM_NTASKS");
        row->threads = env_int(env, "SLURM_CPUS_PER_TASK");
        if (!row->threads && row->ranks) row->threads = 1; /* Slurm's default */
    }
    return MULRED_OK;
}

/* A job's status as a row's: "failed (exit 3)", "no result (…)", or what it says. */
static void job_problem(char *why, size_t cap, const json_t *v, const char *status)
{
    const json_t *code = json_object_get(v, MULRED_RF_EXIT_STATUS);
    if (status && strcmp(status, "failed") == 0 && json_is_number(code))
        snprintf(why, cap, "failed (exit %.0f)", json_number_value(code));
    else if (status && strcmp(status, "submitted") == 0) /* scaling.sh placeholder */
        snprintf(why, cap, "no result (submitted, never finished)");
    else
        snprintf(why, cap, "%s", status ? status : "invalid: no status");
}

/* A `mulred run --json` job: its runs, and a row for its failure if it failed. */
static mulred_status add_job(mulred_report_rows *rs, const json_t *v, const char *source,
                             mulred_error *err)
{
    const json_t *runs = json_object_get(v, MULRED_RF_RUNS);
    const char *job = jstr(v, MULRED_RF_JOB), *status = jstr(v, MULRED_RF_STATUS);
    const json_t *env = json_object_get(v, MULRED_RF_ENVIRONMENT);
    const json_t *load = json_object_get(v, MULRED_RF_LOAD_AVERAGE);
    for (size_t i = 0; i < json_array_size(runs); i++) { /* 0 unless an array */
        if (!json_is_object(json_array_get(runs, i))) continue;
        if (add_run(rs, json_array_get(runs, i), source, job, err)) return MULRED_ERUNTIME;
        rs->rows[rs->n - 1].load_start = jnum(load, MULRED_RF_START, NAN);
        rs->rows[rs->n - 1].load_end = jnum(load, MULRED_RF_END, NAN);
    }
    if (!status || strcmp(status, "ok") != 0) {
        char why[96];
        job_problem(why, sizeof why, v, status);
        return add_problem(rs, source, job, why, env, err);
    }
    if (!json_is_array(runs) || json_array_size(runs) == 0)
        return add_problem(rs, source, job, "invalid: no runs", env, err);
    return MULRED_OK;
}

static mulred_status add_document(mulred_report_rows *rs, const json_t *v, const char *source,
                                  int depth, mulred_error *err)
{
    if (json_is_array(v) && depth == 0) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (add_document(rs, json_array_get(v, i), source, 1, err)) return MULRED_ERUNTIME;
        return MULRED_OK;
    }
    if (!json_is_object(v))
        return add_problem(rs, source, NULL, "invalid: not a result object", NULL, err);
    if (json_object_get(v, MULRED_RF_RUNS)) return add_job(rs, v, source, err);
    if (json_object_get(v, MULRED_RF_RESULT) || json_object_get(v, MULRED_RF_MUHASH) ||
        json_object_get(v, MULRED_RF_CURVE))
        return add_run(rs, v, source, NULL, err);
    return add_problem(rs, source, NULL, "invalid: neither a run nor a job result", NULL, err);
}

mulred_status mulred_report_load(mulred_report_rows *rs, const char *path, mulred_error *err)
{
    if (access(path, F_OK) != 0) return add_problem(rs, path, NULL, "missing", NULL, err);
    json_t *v;
    mulred_status status = mulred_json_read_file(&v, path, err);
    if (status) return status;
    status = add_document(rs, v, path, 0, err);
    json_decref(v);
    return status;
}

mulred_status mulred_report_load_net(mulred_report_net *net, const char *path, mulred_error *err)
{
    json_t *v;
    mulred_status status = mulred_json_read_file(&v, path, err);
    if (status) return status;
    const double lat = jnum(v, MULRED_RF_LATENCY, NAN), bw = jnum(v, MULRED_RF_BANDWIDTH, NAN);
    if (!(lat > 0) || !(bw > 0))
        status =
            mulred_error_set(err, MULRED_EINPUT,
                             "%s: no positive latency_seconds and bandwidth_bytes_per_second "
                             "(write it with mpirun -n P mulred bench comm --out FILE, P >= 2)",
                             path);
    else {
        net->latency = lat;
        net->bandwidth = bw;
        snprintf(net->source, sizeof net->source,
                 "measured by bench comm (%s: %.0f ranks on %.0f nodes)", path,
                 jnum(v, MULRED_RF_RANKS, 0), jnum(v, MULRED_RF_NODES, 0));
    }
    json_decref(v);
    return status;
}

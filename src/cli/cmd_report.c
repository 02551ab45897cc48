/* mulred report: result JSON files → a strong-scaling table (Markdown on stdout, CSV) and a
 * gnuplot PNG; with --project, a model of the curve up to 1024 nodes. The work is the report
 * layer's (src/report/report.h); this file declares the keys, calls it and reports. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/kind.h"
#include "input/keys.h"
#include "report/report.h"

static void report_usage(void)
{
    mulred_out(
        "Usage: mulred report RESULT.json... [--png FILE] [--csv FILE] [--output FILE]\n"
        "       mulred report --project [RESULT.json...] [model options] [--png FILE] [--csv "
        "FILE]\n"
        "\n"
        "Strong-scaling report of result files ('mulred run --json' output, as written by\n"
        "slurm/mulred.sbatch to results/JOBID.json; bare 'mulred muhash --json' objects work\n"
        "too): a Markdown table (stdout or --output) of nodes, ranks, threads, time, speedup,\n"
        "parallel efficiency and the Karp-Flatt serial fraction per workload, relative to the\n"
        "smallest configuration present. Missing, failed and pending runs are rows too.\n"
        "\n"
        "  --png FILE   plot speedup and efficiency against ideal (needs gnuplot)\n"
        "  --csv FILE   the same table as CSV\n"
        "  --output FILE  write the Markdown table to FILE instead of stdout\n"
        "\n"
        "--project prints a latency-bandwidth-I/O MODEL of the curve up to --max-nodes (1024),\n"
        "taking per-element, read and finalize costs and the loopback reduce latency from the\n"
        "result files when given:\n"
        "  --workload NAME        built-in: muhash-mainnet (180e6 coins, a 13.5 GB snapshot),\n"
        "                         msm-2e26 (an MSM of 2^26 points: the grid planner against\n"
        "                         points-only sharding, calibrated on the smallest msm result;\n"
        "                         any msm-* name is an MSM of --items points); any other name\n"
        "                         needs --items, --item-cost and --message-bytes. Default: the\n"
        "                         workload of the smallest result given, else muhash-mainnet\n"
        "  --items N  --item-cost SECONDS  --op-cost SECONDS  --message-bytes B\n"
        "  --finalize-cost SECONDS  --latency SECONDS  --bandwidth BYTES_PER_SECOND\n"
        "  --input-bytes B        bytes the job reads (muhash-mainnet: 13.5e9)\n"
        "  --read-rate BYTES_PER_SECOND   one core's read and decode rate (default: measured\n"
        "                         on a result that read files, else built in)\n"
        "  --storage-rate BYTES_PER_SECOND  all nodes together, from shared storage (10e9)\n"
        "  --cores-per-node C (default: the largest measured run, else 2)\n"
        "  --ranks-per-node R (default 1)  --max-nodes N (default 1024)\n"
        "  --memory-per-node BYTES (MSM: limits the grid; default unlimited)\n"
        "  --net FILE   α and β from 'mulred bench comm --out FILE' (run under mpirun with\n"
        "               the jobs' launcher options) instead of the loopback figures; --latency\n"
        "               and --bandwidth still win\n"
        "\n"
        "Exit status: 0 report written, 1 usage, 2 a file that is not JSON (named, with its\n"
        "line), 3 gnuplot missing or failed.\n");
}

typedef struct {
    mulred_report_project_opts project;
    bool projecting;
    const char *net;
} report_opts;

#define PROJECT(o) (&((report_opts *)(o))->project)

/* A model parameter: a positive finite number (2e-6, 67108864, 12.5e9). */
static mulred_exit set_positive(double *field, const char *v, mulred_key_parser *p, char *why,
                                size_t cap)
{
    char *end;
    errno = 0;
    const double x = strtod(v, &end);
    if (errno || *end || !(x > 0) || !isfinite(x))
        return mulred_key_bad_value(p, v, "a positive number", why, cap);
    *field = x;
    return MULRED_OK;
}

#define NUMBER_KEY(name)                                                                           \
    static mulred_exit set_##name(void *o, const char *v, mulred_key_parser *p, char *why,         \
                                  size_t cap)                                                      \
    {                                                                                              \
        return set_positive(&PROJECT(o)->name, v, p, why, cap);                                    \
    }

MULRED_KEY_TEXT(set_png, report_opts, project.png)
MULRED_KEY_TEXT(set_csv, report_opts, project.csv)
MULRED_KEY_TEXT(set_output, report_opts, project.output)
MULRED_KEY_TEXT(set_workload, report_opts, project.workload)
MULRED_KEY_TEXT(set_net, report_opts, net)
NUMBER_KEY(items)
NUMBER_KEY(item_cost)
NUMBER_KEY(op_cost)
NUMBER_KEY(message_bytes)
NUMBER_KEY(finalize_cost)
NUMBER_KEY(latency)
NUMBER_KEY(bandwidth)
NUMBER_KEY(input_bytes)
NUMBER_KEY(read_rate)
NUMBER_KEY(storage_rate)
NUMBER_KEY(cores_per_node)
NUMBER_KEY(ranks_per_node)
/* bytes, in the grammar of msm --memory-per-rank (4G = 4e9) */
static mulred_exit set_memory_per_node(void *o, const char *v, mulred_key_parser *p, char *why,
                                       size_t cap)
{
    uint64_t n;
    if (mulred_key_parse_count(&n, v, 1, UINT64_MAX, p, why, cap)) return MULRED_OUT_EUSAGE;
    PROJECT(o)->memory_per_node = (double)n;
    return MULRED_OK;
}

MULRED_KEY_COUNT(set_max_nodes, report_opts, project.max_nodes, 1, UINT64_C(1) << 20)
MULRED_KEY_FLAG(set_projecting, report_opts, projecting)

static const mulred_key report_keys[] = {
    {"png", false, false, false, set_png},
    {"csv", false, false, false, set_csv},
    {"output", false, false, false, set_output},
    {"project", true, false, false, set_projecting},
    {"workload", false, false, false, set_workload},
    {"net", false, false, false, set_net},
    {"items", false, false, false, set_items},
    {"item-cost", false, false, false, set_item_cost},
    {"op-cost", false, false, false, set_op_cost},
    {"message-bytes", false, false, false, set_message_bytes},
    {"finalize-cost", false, false, false, set_finalize_cost},
    {"latency", false, false, false, set_latency},
    {"bandwidth", false, false, false, set_bandwidth},
    {"input-bytes", false, false, false, set_input_bytes},
    {"read-rate", false, false, false, set_read_rate},
    {"storage-rate", false, false, false, set_storage_rate},
    {"cores-per-node", false, false, false, set_cores_per_node},
    {"ranks-per-node", false, false, false, set_ranks_per_node},
    {"max-nodes", false, false, false, set_max_nodes},
    {"memory-per-node", false, false, false, set_memory_per_node},
};

/* The scaling table to Markdown, CSV and PNG as asked. */
static mulred_status write_scaling(const mulred_report_project_opts *o, mulred_report_rows *rs,
                                   mulred_error *err)
{
    mulred_report_table t;
    mulred_status status = mulred_report_scaling(&t, rs, err);
    FILE *f;
    if (!status && (f = cli_output_open(o->output, err))) {
        mulred_report_write_markdown(f, &t);
        status = cli_output_close(f, o->output, err);
    } else if (!status) {
        status = err->status;
    }
    if (!status && o->csv) {
        if ((f = cli_output_open(o->csv, err))) {
            mulred_report_write_csv(f, &t);
            status = cli_output_close(f, o->csv, err);
        } else {
            status = err->status;
        }
    }
    if (!status && o->png) status = mulred_report_write_png(o->png, &t, err);
    mulred_report_table_free(&t);
    size_t problems = 0;
    for (size_t i = 0; i < rs->n; i++) problems += !rs->rows[i].ok;
    if (!status && problems)
        fprintf(stderr,
                "mulred report: %zu of %zu runs failed, missing or pending (shown in the table)\n",
                problems, rs->n);
    return status;
}

/* What the command exits with: MULRED_OK, a failure's status (in err), or MULRED_OUT_EUSAGE when
 * the projection's options do not fit the results (err's message says why). */
static mulred_exit report_run(report_opts *o, const mulred_key_rest *rest, mulred_error *err)
{
    mulred_report_rows rs = {0};
    mulred_report_net net;
    mulred_exit status = MULRED_OK;
    for (size_t i = 0; i < rest->nargs && !status; i++)
        status = mulred_report_load(&rs, rest->args[i], err);
    if (!status && o->projecting && o->net && !(status = mulred_report_load_net(&net, o->net, err)))
        o->project.net = &net;
    if (!status && o->projecting)
        status = mulred_report_project(&o->project, &rs, err);
    else if (!status)
        status = write_scaling(&o->project, &rs, err);
    mulred_report_rows_free(&rs);
    return status;
}

mulred_exit mulred_cmd_report(int argc, char **argv)
{
    report_opts o = {.project = {.ranks_per_node = 1, .max_nodes = 1024}};
    mulred_key_parser p = {0};
    mulred_key_rest rest;
    const mulred_key_table table = {report_keys, sizeof report_keys / sizeof report_keys[0], &o};
    const mulred_key_request req = {"report", &table, 1, SIZE_MAX, report_usage};
    mulred_exit rc;
    if (!mulred_key_parse(&req, argc, argv, &p, &rest, &rc)) return mulred_key_parser_free(&p), rc;
    mulred_error err;
    mulred_error_clear(&err);
    if (!o.projecting && rest.nargs == 0) {
        rc = mulred_out_usage_error("report", "missing result files");
    } else if (o.project.png && !mulred_report_have_gnuplot()) {
        rc = mulred_error_set(&err, MULRED_ERUNTIME,
                              "gnuplot not found, cannot write %s (apt-get install gnuplot-nox, "
                              "or drop --png)",
                              o.project.png);
        rc = mulred_out_error(&err);
    } else {
        rc = report_run(&o, &rest, &err);
        if (rc == MULRED_OUT_EUSAGE)
            rc = mulred_out_usage_error("report", "%s", err.message);
        else
            rc = mulred_out_error(&err);
    }
    mulred_key_rest_free(&rest);
    mulred_key_parser_free(&p);
    return rc;
}

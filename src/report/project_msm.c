/* The projection of a distributed MSM. The grid planner of the library (mulred/msm_grid.h) is
 * the model: for N nodes of C cores it picks point slices × window groups, c and GLV, and its
 * single-thread cost of the slowest rank, scaled by a factor κ measured on the smallest
 * successful msm result, divided by the threads of a rank, plus the reduce, is the prediction.
 * Points-only sharding (DIZK's approach: every rank all windows of n/P points) is the same
 * planner forced to P × 1. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "mulred/msm_grid.h"
#include "output/format.h"
#include "report/report.h"

/* The measured quantities of the smallest successful msm run. */
typedef struct {
    const mulred_report_row *base;
    double kappa;       /* measured MSM time × threads / the model's single-thread time */
    double input_ns;    /* read or generate, per point of a slice, per core */
    double validate_ns; /* per point checked, per core */
} calibration;

static void calibrate(calibration *cal, const mulred_report_rows *rs)
{
    memset(cal, 0, sizeof *cal);
    cal->kappa = 1;
    const mulred_report_row *b = cal->base = mulred_report_smallest(rs, true);
    if (!b) return;
    const double slice = b->elements / (b->slices > 0 ? b->slices : 1);
    const double checked = slice / (b->groups > 0 ? b->groups : 1);
    if (b->model_msm > 0 && b->msm_max > 0) cal->kappa = b->msm_max * b->threads / b->model_msm;
    if (b->input_max > 0) cal->input_ns = b->input_max * b->threads / slice * 1e9;
    if (b->validate_max > 0) cal->validate_ns = b->validate_max * b->threads / checked * 1e9;
}

/* The MSM model's parameters and where each came from. */
typedef struct {
    mulred_curve curve;
    double items, op, bytes, latency, bandwidth, memory, step, C, R;
    int T;
    const char *src_lat, *src_bw;
    calibration cal;
} msm_model;

typedef struct {
    mulred_msm_grid grid;
    double seconds;
    bool ok;
} prediction;

/* The planner for P ranks of T threads; forced points-only when points_only. */
static prediction predict(const msm_model *md, int P, bool points_only, bool resident)
{
    prediction pr = {.ok = false};
    mulred_msm_grid_params p;
    mulred_msm_grid_defaults(&p, md->curve, MULRED_MSM_INPUT_SYNTHETIC, (uint64_t)md->items, P,
                             md->T);
    /* in the planner's single-thread units: the prediction is cost_ns · κ / T */
    p.input_ns = resident ? 0 : md->cal.input_ns / md->cal.kappa;
    p.validate_ns = resident ? 0 : md->cal.validate_ns / md->cal.kappa;
    p.reduce_step_ns = md->step * 1e9 * md->T / md->cal.kappa;
    p.memory_per_rank = md->memory > 0 ? (uint64_t)md->memory : 0;
    if (points_only) p.slices = (unsigned)((double)P < md->items ? P : md->items), p.groups = 1;
    mulred_error err;
    if (mulred_msm_grid_plan(&pr.grid, md->curve, &p, &err) != MULRED_OK) return pr;
    pr.seconds = pr.grid.cost_ns * 1e-9 * md->cal.kappa / md->T;
    pr.ok = true;
    return pr;
}

static void grid_text(char *out, size_t cap, const prediction *p)
{
    if (!p->ok)
        snprintf(out, cap, "does not fit");
    else
        snprintf(out, cap, "%u×%u, c = %u%s", p->grid.slices, p->grid.groups, p->grid.window_bits,
                 p->grid.glv ? " GLV" : "");
}

/* Every parameter: given, else --net, else measured on the msm results, else built in. */
static mulred_exit model_of(msm_model *md, const mulred_report_project_opts *o,
                            const mulred_report_rows *rs, mulred_error *err)
{
    memset(md, 0, sizeof *md);
    calibrate(&md->cal, rs);
    md->curve = MULRED_CURVE_BLS12_381;
    if (md->cal.base && mulred_curve_parse(&md->curve, md->cal.base->curve) != MULRED_OK)
        md->curve = MULRED_CURVE_BLS12_381;
    md->items = o->items > 0 ? o->items : mulred_report_k.msm_points;
    md->op = o->op_cost > 0                    ? o->op_cost
             : md->curve == MULRED_CURVE_BN254 ? mulred_report_k.msm_add_bn254
                                               : mulred_report_k.msm_add_bls12_381;
    md->bytes =
        o->message_bytes > 0 ? o->message_bytes : (double)mulred_msm_jacobian_bytes(md->curve);
    md->latency = mulred_report_loopback(rs, true);
    md->src_lat = isnan(md->latency) ? "default (typical InfiniBand)" : "measured on loopback";
    if (isnan(md->latency)) md->latency = mulred_report_k.latency;
    if (o->net) md->latency = o->net->latency, md->src_lat = o->net->source;
    if (o->latency > 0) md->latency = o->latency, md->src_lat = "given";
    md->bandwidth = o->bandwidth > 0 ? o->bandwidth
                    : o->net         ? o->net->bandwidth
                                     : mulred_report_k.bandwidth;
    md->src_bw = o->bandwidth > 0 ? "given" : o->net ? o->net->source : "default (100 Gb/s)";
    md->C = o->cores_per_node, md->R = o->ranks_per_node;
    if (!(md->R >= 1) || md->R > md->C)
        return mulred_error_set(err, MULRED_EINPUT,
                                "report --project: need 1 <= ranks per node <= cores per node"),
               MULRED_OUT_EUSAGE;
    md->T = (int)(md->C / md->R) > 0 ? (int)(md->C / md->R) : 1;
    md->step = md->op + md->latency + md->bytes / md->bandwidth;
    md->memory = o->memory_per_node > 0 ? o->memory_per_node / md->R : 0;
    return MULRED_OK;
}

static void write_parameters(FILE *out, const mulred_report_project_opts *o, const msm_model *md)
{
    char lat[32], opc[32], inp[32], val[32];
    mulred_format_seconds(lat, sizeof lat, md->latency);
    mulred_format_seconds(opc, sizeof opc, md->op);
    mulred_format_seconds(inp, sizeof inp, md->cal.input_ns * 1e-9);
    mulred_format_seconds(val, sizeof val, md->cal.validate_ns * 1e-9);
    const bool measured = md->cal.base != NULL;
    fprintf(
        out,
        "# Projected strong scaling of an MSM — a MODEL, not a measurement\n\n"
        "Workload `%s`: an MSM of %.4g points on %s G1. Nodes of %g cores, each running %g "
        "rank(s) × %d thread(s).\n\n"
        "Model: the grid planner of `mulred msm` (point slices × window groups, window c, "
        "GLV) on P = nodes × ranks-per-node ranks; its single-thread cost of the slowest "
        "rank × κ / threads, + ⌈log₂ P⌉ · (op + α + m/β). Points-only sharding (DIZK's "
        "approach) is the same model forced to P slices × 1 window group.\n\n"
        "| parameter | value | source |\n|---|---|---|\n"
        "| κ, measured MSM time × threads / modelled single-thread time | %.3f | %s |\n"
        "| input (generate or read) per point per core | %s | %s |\n"
        "| validation per point per core | %s | %s |\n"
        "| op, one point addition | %s | %s |\n"
        "| m, bytes per partial (a Jacobian point) | %.0f | %s |\n"
        "| α, message latency | %s | %s |\n"
        "| β, bandwidth | %.3g GB/s | %s |\n"
        "| memory per rank | %s | %s |\n\n"
        "Assumptions: threads of a rank scale as in the measured run (κ holds them); every "
        "rank of a window group's column reads or generates its whole slice; ranks that no "
        "grid cell needs stay idle; a binomial-tree MPI_Reduce; no I/O contention, start-up "
        "or OS noise.\n\n"
        "Two regimes: the points made or read for every MSM (as measured: every rank of a "
        "window group's column pays for its whole slice), and the points resident in memory "
        "(a prover's fixed bases, loaded once: no input cost, which is where splitting "
        "windows pays).\n",
        o->workload, md->items, mulred_curve_name(md->curve), md->C, md->R, md->T, md->cal.kappa,
        measured ? "measured (smallest msm run)" : "built-in model (no msm result given)", inp,
        measured ? "measured" : "none (no result)", val, measured ? "measured" : "none (no result)",
        opc, o->op_cost > 0 ? "given" : "built-in", md->bytes,
        o->message_bytes > 0 ? "given" : "built-in", lat, md->src_lat, md->bandwidth / 1e9,
        md->src_bw, md->memory > 0 ? "limited" : "unlimited", md->memory > 0 ? "given" : "default");
}

/* One regime's table: for each node count, the grid planner against points-only sharding. */
static void write_regime(FILE *out, FILE *csv, mulred_report_text *data,
                         const mulred_report_project_opts *o, const msm_model *md, bool resident)
{
    const char *regime = resident ? "resident" : "input";
    fprintf(out,
            "\n## %s\n\n"
            "| nodes | ranks | cores | grid | predicted (s) | speedup | efficiency | "
            "points-only | predicted (s) | grid gain |\n"
            "|---:|---:|---:|:---|---:|---:|---:|:---|---:|---:|\n",
            resident ? "Points resident in memory (no input cost)"
                     : "Points made or read for every MSM (as measured)");
    mulred_report_printf(data, "$%s << EOD\n", regime);
    const prediction one = predict(md, (int)md->R, false, resident);
    for (int nodes = 1; nodes <= o->max_nodes; nodes *= 2) {
        const int P = (int)(nodes * md->R);
        const prediction g = predict(md, P, false, resident), d = predict(md, P, true, resident);
        const double sp = one.ok && g.ok ? one.seconds / g.seconds : NAN;
        const double e = sp / nodes, gain = g.ok && d.ok ? d.seconds / g.seconds : NAN;
        char gt[48], dt[48], gs[32], ds[32], ss[32], es[32], gn[32];
        grid_text(gt, sizeof gt, &g);
        grid_text(dt, sizeof dt, &d);
        mulred_report_fmt(gs, sizeof gs, g.ok ? g.seconds : NAN, "%.4g");
        mulred_report_fmt(ds, sizeof ds, d.ok ? d.seconds : NAN, "%.4g");
        mulred_report_fmt(ss, sizeof ss, sp, "%.1f");
        mulred_report_fmt(es, sizeof es, e * 100, "%.0f %%");
        mulred_report_fmt(gn, sizeof gn, gain, "%.2f×");
        fprintf(out, "| %d | %d | %.0f | %s | %s | %s | %s | %s | %s | %s |\n", nodes, P,
                nodes * md->C, gt, gs, ss, es, dt, ds, gn);
        if (csv)
            fprintf(csv, "%s,%d,%d,%.0f,%u,%u,%u,%d,%.6g,%.4f,%.4f,%u,%.6g,%.4f\n", regime, nodes,
                    P, nodes * md->C, g.grid.slices, g.grid.groups, g.grid.window_bits, g.grid.glv,
                    g.seconds, sp, e, d.grid.window_bits, d.seconds, gain);
        mulred_report_printf(data, "%d %.6g %.6g\n", nodes, sp,
                             one.ok && d.ok ? one.seconds / d.seconds : NAN);
    }
    mulred_report_printf(data, "EOD\n");
}

static mulred_status write_plot(const mulred_report_project_opts *o, const msm_model *md,
                                mulred_report_text *data, mulred_error *err)
{
    mulred_report_plot_begin(data, o->png, 900, 520);
    mulred_report_printf(
        data,
        "set title \"MODEL (not measured): MSM of %.4g points, %s, %g cores/node\"\n"
        "set logscale xy 2\nset grid\nset key top left\nset xlabel \"nodes\"\n"
        "set ylabel \"predicted speedup over one node\"\n"
        "plot [1:%d] x title \"ideal\" dt 2 lc rgb \"gray40\", "
        "$input using 1:2 with linespoints lw 2 pt 7 title \"grid planner, input per "
        "MSM\", $input using 1:3 with linespoints lw 2 pt 5 dt 3 title \"points only "
        "(DIZK), input per MSM\", $resident using 1:2 with linespoints lw 2 pt 9 title "
        "\"grid planner, points resident\", $resident using 1:3 with linespoints lw 2 "
        "pt 11 dt 3 title \"points only (DIZK), points resident\"\n",
        md->items, mulred_curve_name(md->curve), md->C, o->max_nodes);
    return mulred_report_gnuplot(data, o->png, err);
}

mulred_exit mulred_report_project_msm(const mulred_report_project_opts *o,
                                      const mulred_report_rows *rs, mulred_error *err)
{
    msm_model md;
    mulred_exit status = model_of(&md, o, rs, err);
    if (status) return status;
    mulred_report_outputs io;
    if ((status = mulred_report_open_outputs(o, &io, err))) return status;
    FILE *out = io.out, *csv = io.csv;
    write_parameters(out, o, &md);
    if (csv)
        fprintf(csv, "regime,nodes,ranks,cores,slices,groups,window,glv,predicted_seconds,speedup,"
                     "efficiency,points_only_window,points_only_seconds,grid_gain\n");
    mulred_report_text data = {0};
    write_regime(out, csv, &data, o, &md, false);
    write_regime(out, csv, &data, o, &md, true);
    status = mulred_report_close_outputs(o, &io, MULRED_OK, err);
    if (!status && o->png) status = write_plot(o, &md, &data, err);
    free(data.s);
    return status;
}

/* The projection of a MuHash-like workload (model.h): items spread over every core, thread
 * partials combined in sequence, a binomial-tree reduce over the ranks, rank 0's finalize, and
 * the input read once from storage. Every parameter is given, measured from the result files,
 * or built in (constants.c), and the parameter table says which. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "output/format.h"
#include "output/output.h"
#include "report/report.h"

/* The model's parameters and where each came from. */
typedef struct {
    mulred_model_workload w;
    mulred_model_machine m;
    const char *src_item, *src_op, *src_msg, *src_fin, *src_lat, *src_bw, *src_bytes, *src_read,
        *src_storage;
} model;

/* Items and their costs: given, else measured on the smallest run (its CPU seconds per thread
 * × cores / elements; reading counted apart when the model reads input), else built in. */
static void model_workload(model *md, const mulred_report_project_opts *o,
                           const mulred_report_row *base)
{
    const mulred_model_workload *bw = mulred_report_builtin(o->workload);
    md->w = bw ? *bw : (mulred_model_workload){o->workload, "item", 0, 0, 0, 0, 0, 0};
    md->src_item = md->src_op = md->src_msg = md->src_fin = md->src_bytes =
        bw ? "built-in" : "given";
    if (o->items > 0) md->w.items = o->items;
    if (o->input_bytes > 0) md->w.input_bytes = o->input_bytes, md->src_bytes = "given";
    if (o->item_cost > 0) {
        md->w.item_seconds = o->item_cost, md->src_item = "given";
    } else if (base) {
        /* CPU time when the result has it: on a shared machine wall time also counts the other
         * processes' share of the cores */
        const bool cpu = base->compute > 0;
        const double read = md->w.input_bytes > 0 || isnan(base->read) ? 0 : base->read;
        md->w.item_seconds = (cpu ? base->compute + read : base->seconds) *
                             mulred_report_cores(base) / base->elements;
        md->src_item =
            cpu ? "measured (CPU time, smallest run)" : "measured (wall time, smallest run)";
    }
    if (o->op_cost > 0) md->w.op_seconds = o->op_cost, md->src_op = "given";
    if (o->message_bytes > 0) md->w.message_bytes = o->message_bytes, md->src_msg = "given";
    if (o->finalize_cost > 0)
        md->w.finalize_seconds = o->finalize_cost, md->src_fin = "given";
    else if (base && base->finalize_max > 0)
        md->w.finalize_seconds = base->finalize_max, md->src_fin = "measured";
}

/* The network and the storage: given, else --net, else measured (the loopback latency: the
 * fastest rank's reduce in a multi-rank run, a leaf of the tree that only sends; the read rate
 * of the smallest run that read files), else the defaults. */
static void model_machine(model *md, const mulred_report_project_opts *o,
                          const mulred_report_rows *rs, const mulred_report_row *base)
{
    md->m = (mulred_model_machine){o->cores_per_node,
                                   o->ranks_per_node,
                                   mulred_report_k.latency,
                                   mulred_report_k.bandwidth,
                                   0,
                                   mulred_report_k.storage_rate};
    const double loop = mulred_report_loopback(rs, false);
    md->src_lat = "default (typical InfiniBand)", md->src_bw = "default (100 Gb/s)";
    if (o->latency > 0)
        md->m.latency_seconds = o->latency, md->src_lat = "given";
    else if (o->net)
        md->m.latency_seconds = o->net->latency, md->src_lat = o->net->source;
    else if (!isnan(loop))
        md->m.latency_seconds = loop, md->src_lat = "measured on loopback";
    if (o->bandwidth > 0)
        md->m.bandwidth_bytes_per_second = o->bandwidth, md->src_bw = "given";
    else if (o->net)
        md->m.bandwidth_bytes_per_second = o->net->bandwidth, md->src_bw = o->net->source;
    const mulred_model_workload *bw = mulred_report_builtin(o->workload);
    md->src_read = "none: reading not modelled";
    if (o->read_rate > 0) {
        md->m.read_bytes_per_second_per_core = o->read_rate, md->src_read = "given";
    } else if (base && base->input_bytes > 0 && base->read > 0) {
        md->m.read_bytes_per_second_per_core =
            base->input_bytes / mulred_report_cores(base) / base->read;
        md->src_read = "measured (smallest run)";
    } else if (bw && mulred_report_builtin_read_rate(bw) > 0) {
        md->m.read_bytes_per_second_per_core = mulred_report_builtin_read_rate(bw);
        md->src_read = "built-in";
    }
    md->src_storage = "default (a parallel file system)";
    if (o->storage_rate > 0)
        md->m.storage_bytes_per_second = o->storage_rate, md->src_storage = "given";
}

static void write_parameters(FILE *out, const model *md)
{
    const mulred_model_workload *w = &md->w;
    const mulred_model_machine *m = &md->m;
    char ic[32], oc[32], fc[32], lc[32], rr[48], sr[48];
    mulred_format_seconds(ic, sizeof ic, w->item_seconds);
    mulred_format_seconds(oc, sizeof oc, w->op_seconds);
    mulred_format_seconds(fc, sizeof fc, w->finalize_seconds);
    mulred_format_seconds(lc, sizeof lc, m->latency_seconds);
    mulred_report_fmt(
        rr, sizeof rr,
        m->read_bytes_per_second_per_core > 0 ? m->read_bytes_per_second_per_core / 1e9 : NAN,
        "%.3g GB/s");
    mulred_report_fmt(sr, sizeof sr, m->storage_bytes_per_second / 1e9, "%.3g GB/s");
    fprintf(out,
            "# Projected strong scaling — a MODEL, not a measurement\n\n"
            "Workload `%s`: %.4g %ss. Nodes of %g cores, each running %g rank(s) × %g "
            "thread(s).\n\n"
            "Model: T(N) = items · c / (N · cores) + (threads − 1) · op + ⌈log₂ P⌉ · (op + α + "
            "m/β) + finalize + input / min(N · cores · r, storage)\n\n"
            "| parameter | value | source |\n|---|---|---|\n"
            "| c, cost per %s per core | %s | %s |\n"
            "| op, one group operation | %s | %s |\n"
            "| m, bytes per partial | %.0f | %s |\n"
            "| α, message latency | %s | %s |\n"
            "| β, bandwidth | %.3g GB/s | %s |\n"
            "| finalize (rank 0) | %s | %s |\n"
            "| input, bytes read | %.4g | %s |\n"
            "| r, read and decode rate per core | %s | %s |\n"
            "| storage, read rate of all nodes together | %s | %s |\n\n"
            "Assumptions: items spread evenly over all cores (perfect balance, no stragglers);\n"
            "per-core speed independent of node count; a rank's thread partials combined in "
            "sequence;\na binomial-tree MPI_Reduce; the input read once, every core reading its "
            "share, all of\nthem together no faster than the storage; no start-up or OS noise. "
            "Real runs fall below\nthis curve; the gap is what to measure.\n\n"
            "| nodes | ranks | cores | predicted (s) | compute (s) | reduce (s) | I/O (s) | "
            "speedup | efficiency |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            w->name, w->items, w->item_name, m->cores_per_node, m->ranks_per_node,
            m->cores_per_node / m->ranks_per_node, w->item_name, ic, md->src_item, oc, md->src_op,
            w->message_bytes, md->src_msg, lc, md->src_lat, m->bandwidth_bytes_per_second / 1e9,
            md->src_bw, fc, md->src_fin, w->input_bytes,
            w->input_bytes > 0 ? md->src_bytes : "none", rr, md->src_read, sr, md->src_storage);
}

static mulred_status write_plot(const mulred_report_project_opts *o, const model *md,
                                mulred_report_text *data, mulred_error *err)
{
    mulred_report_plot_begin(data, o->png, 1100, 480);
    mulred_report_printf(
        data,
        "set multiplot layout 1,2 title \"MODEL (not measured): %s, %.3g items, %g "
        "cores/node\"\n"
        "set logscale x 2\nset grid\nset key top left\nset xlabel \"nodes\"\n"
        "set logscale y 2\nset ylabel \"predicted speedup\"\n"
        "plot [1:%d] x title \"ideal\" dt 2 lc rgb \"gray40\", $model using 1:2 with "
        "linespoints lw 2 pt 7 title \"model\"\n"
        "unset logscale y\nset yrange [0:1.1]\nset key bottom left\nset ylabel "
        "\"predicted efficiency\"\n"
        "plot [1:%d] 1 title \"ideal\" dt 2 lc rgb \"gray40\", $model using 1:3 with "
        "linespoints lw 2 pt 7 title \"model\"\n"
        "unset multiplot\n",
        md->w.name, md->w.items, md->m.cores_per_node, o->max_nodes, o->max_nodes);
    return mulred_report_gnuplot(data, o->png, err);
}

mulred_exit mulred_report_project_generic(const mulred_report_project_opts *o,
                                          const mulred_report_rows *rs, mulred_error *err)
{
    const mulred_report_row *base = mulred_report_smallest(rs, false);
    model md;
    model_workload(&md, o, base);
    model_machine(&md, o, rs, base);
    const mulred_model_workload *w = &md.w;
    const mulred_model_machine *m = &md.m;
    if (!(w->items > 0) || !(w->item_seconds > 0) || !(w->message_bytes > 0))
        return mulred_error_set(err, MULRED_EINPUT,
                                "report --project: workload '%s' needs --items, --item-cost (or "
                                "result files to measure it) and --message-bytes",
                                o->workload),
               MULRED_OUT_EUSAGE;
    if (!(m->ranks_per_node >= 1) || m->ranks_per_node > m->cores_per_node)
        return mulred_error_set(err, MULRED_EINPUT,
                                "report --project: need 1 <= ranks per node <= cores per node"),
               MULRED_OUT_EUSAGE;
    mulred_report_outputs io;
    mulred_status status = mulred_report_open_outputs(o, &io, err);
    if (status) return status;
    FILE *out = io.out, *csv = io.csv;
    write_parameters(out, &md);
    if (csv)
        fprintf(csv, "nodes,ranks,cores,predicted_seconds,compute_seconds,reduce_seconds,"
                     "io_seconds,speedup,efficiency\n");
    mulred_report_text data = {0};
    mulred_report_printf(&data, "$model << EOD\n");
    const mulred_model_time t1 = mulred_model_predict(w, m, 1);
    for (int nodes = 1; nodes <= o->max_nodes; nodes *= 2) {
        const mulred_model_time t = mulred_model_predict(w, m, nodes);
        const double s = mulred_speedup(t1.total, t.total), e = mulred_efficiency(s, nodes);
        fprintf(out, "| %d | %.0f | %.0f | %.4g | %.4g | %.3g | %.4g | %.1f | %.0f %% |\n", nodes,
                nodes * m->ranks_per_node, nodes * m->cores_per_node, t.total, t.compute,
                t.reduce + t.thread_combine, t.io, s, e * 100);
        if (csv)
            fprintf(csv, "%d,%.0f,%.0f,%.6g,%.6g,%.6g,%.6g,%.4f,%.4f\n", nodes,
                    nodes * m->ranks_per_node, nodes * m->cores_per_node, t.total, t.compute,
                    t.reduce + t.thread_combine, t.io, s, e);
        mulred_report_printf(&data, "%d %.6g %.6g %.6g\n", nodes, s, e, t.total);
    }
    mulred_report_printf(&data, "EOD\n");
    status = mulred_report_close_outputs(o, &io, MULRED_OK, err);
    if (!status && o->png) status = write_plot(o, &md, &data, err);
    free(data.s);
    return status;
}

mulred_exit mulred_report_project(const mulred_report_project_opts *given,
                                  const mulred_report_rows *rs, mulred_error *err)
{
    mulred_report_project_opts o = *given;
    if (!(o.cores_per_node > 0)) {
        o.cores_per_node = mulred_report_k.cores_per_node;
        for (size_t i = 0; i < rs->n; i++) {
            const mulred_report_row *r = &rs->rows[i];
            if (r->ok && r->nodes > 0 &&
                (double)mulred_report_cores(r) / r->nodes > o.cores_per_node)
                o.cores_per_node = (double)mulred_report_cores(r) / r->nodes;
        }
    }
    if (!o.max_nodes) o.max_nodes = mulred_report_k.max_nodes;
    if (!(o.ranks_per_node > 0)) o.ranks_per_node = 1;
    if (!o.workload) {
        const mulred_report_row *base = NULL;
        for (size_t i = 0; i < rs->n; i++)
            if (rs->rows[i].ok &&
                (!base || mulred_report_cores(&rs->rows[i]) < mulred_report_cores(base)))
                base = &rs->rows[i];
        o.workload = base && base->msm ? "msm-2e26" : "muhash-mainnet";
    }
    if (strncmp(o.workload, "msm", 3) == 0 && (!o.workload[3] || o.workload[3] == '-'))
        return mulred_report_project_msm(&o, rs, err);
    return mulred_report_project_generic(&o, rs, err);
}

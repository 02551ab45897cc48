/* mulred msm: the result as JSON (the field names the report reads are output/result_fields.h's)
 * and as text. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd_msm_print.h"
#include "output/format.h"
#include "output/result_fields.h"

static double points_per_second(const mulred_mpi_msm_result *res)
{
    return res->seconds > 0 ? (double)res->points / res->seconds : 0;
}

void msm_write_json(mulred_json_writer *w, const void *vo, const void *vr)
{
    const msm_opts *o = vo;
    if (o->bases.points || o->bases.bases) {
        msm_bases_write_json(w, &o->bases, &((const msm_result *)vr)->bases);
        return;
    }
    const mulred_mpi_msm_result *res = &((const msm_result *)vr)->mpi;
    const mulred_msm_grid *g = &res->grid;
    mulred_jw_object_begin(w, NULL);
    mulred_jw_string(w, MULRED_RF_RESULT, res->hex);
    mulred_jw_string(w, MULRED_RF_CURVE, mulred_curve_name(o->job.curve));
    mulred_jw_string(w, "group", mulred_pairing_group_name(o->job.group));
    mulred_jw_uint(w, MULRED_RF_POINTS, res->points);
    if (o->job.input) {
        mulred_jw_string(w, MULRED_RF_INPUT, o->job.input);
        mulred_jw_bool(w, "binary", o->job.binary);
    } else {
        mulred_jw_uint(w, "synthetic", o->job.synthetic);
        mulred_jw_uint(w, MULRED_RF_SEED, o->job.seed);
    }
    mulred_jw_int(w, MULRED_RF_RANKS, res->ranks);
    mulred_jw_int(w, MULRED_RF_THREADS, res->threads);
    mulred_jw_int(w, MULRED_RF_NODES, res->nodes);
    mulred_jw_string(w, "schedule", mulred_schedule_name(res->schedule));
    cli_jw_units_per_rank(w, res->units_per_rank, res->ranks);
    if (res->handout != MULRED_MPI_HANDOUT_NONE)
        mulred_jw_string(w, "handout", mulred_mpi_handout_name(res->handout));
    cli_jw_node_names(w, res->node_names);
    mulred_jw_double(w, MULRED_RF_SECONDS, res->seconds);
    mulred_jw_double(w, "points_per_second", points_per_second(res));
    if (o->job.checkpoint || o->job.schedule == MULRED_SCHEDULE_DYNAMIC) {
        mulred_jw_uint(w, "resumed_units", res->resumed_units);
        mulred_jw_uint(w, "computed_units", res->computed_units);
        mulred_jw_uint(w, "units", res->units);
        mulred_jw_uint(w, "unit_points", res->slice_points);
        mulred_jw_int(w, "unit_window_groups", (int)g->groups);
        mulred_jw_double(w, "checkpoint_seconds", res->checkpoint_seconds);
    }
    mulred_jw_int(w, MULRED_RF_WINDOW, (int)g->window_bits);
    mulred_jw_bool(w, MULRED_RF_GLV, g->glv);
    mulred_jw_int(w, "windows", (int)g->windows);
    mulred_jw_object_begin(w, MULRED_RF_GRID);
    mulred_jw_int(w, MULRED_RF_SLICES, (int)g->slices);
    mulred_jw_int(w, MULRED_RF_GROUPS, (int)g->groups);
    /* with --checkpoint: the tiles' slices x window groups, on every rank that has units */
    const uint64_t used =
        o->job.checkpoint || o->job.schedule == MULRED_SCHEDULE_DYNAMIC
            ? (res->units < (uint64_t)res->ranks ? res->units : (uint64_t)res->ranks)
            : (uint64_t)g->slices * g->groups;
    mulred_jw_int(w, "ranks_used", (int)used);
    mulred_jw_int(w, "top_group_windows", (int)g->top_windows);
    mulred_jw_bool(w, "forced", o->job.grid_slices != 0);
    /* the model's single-thread seconds: the whole grid (slowest rank + reduce) and the
     * slowest rank's tile alone (what mulred report --project calibrates against) */
    mulred_jw_double(w, "model_seconds", g->cost_ns * 1e-9);
    mulred_jw_double(w, MULRED_RF_MODEL_MSM_SECONDS, g->msm_ns * 1e-9);
    mulred_jw_object_end(w);
    mulred_jw_object_begin(w, MULRED_RF_PHASES);
    for (int p = 0; p < MULRED_MPI_MSM_PHASES; p++) {
        mulred_jw_object_begin(w, mulred_mpi_msm_phase_name(p));
        mulred_jw_double(w, MULRED_RF_MIN, res->phases[p].min);
        mulred_jw_double(w, MULRED_RF_AVG, res->phases[p].avg);
        mulred_jw_double(w, MULRED_RF_MAX, res->phases[p].max);
        mulred_jw_object_end(w);
    }
    mulred_jw_object_end(w);
    mulred_jw_string(w, "version", mulred_version());
    mulred_jw_string(w, "git_revision", mulred_git_revision());
    mulred_jw_object_end(w);
}

void msm_write_text(FILE *out, const void *vo, const void *vr)
{
    const msm_opts *o = vo;
    if (o->bases.points || o->bases.bases) {
        msm_bases_write_text(out, &o->bases, &((const msm_result *)vr)->bases);
        return;
    }
    const mulred_mpi_msm_result *res = &((const msm_result *)vr)->mpi;
    const mulred_msm_grid *g = &res->grid;
    char t[32], r[48], in[32], v[32], red[32], tot[32];
    mulred_format_seconds(t, sizeof t, res->seconds);
    mulred_format_rate(r, sizeof r, points_per_second(res), "points");
    mulred_format_seconds(
        in, sizeof in,
        res->phases[o->job.input ? MULRED_MPI_MSM_PHASE_READ : MULRED_MPI_MSM_PHASE_GENERATE].max);
    mulred_format_seconds(v, sizeof v, res->phases[MULRED_MPI_MSM_PHASE_VALIDATE].max);
    mulred_format_seconds(red, sizeof red, res->phases[MULRED_MPI_MSM_PHASE_REDUCE].max);
    mulred_format_seconds(tot, sizeof tot, res->phases[MULRED_MPI_MSM_PHASE_TOTAL].max);
    fprintf(out, "msm      %s\n", res->hex);
    if (o->job.input)
        fprintf(out, "input    %s, %llu pairs, curve %s%s\n", o->job.input,
                (unsigned long long)res->points, mulred_curve_name(o->job.curve),
                o->job.group == MULRED_GROUP_G2 ? " g2" : "");
    else
        fprintf(out, "input    %llu synthetic pairs (seed %llu), curve %s%s\n",
                (unsigned long long)res->points, (unsigned long long)o->job.seed,
                mulred_curve_name(o->job.curve), o->job.group == MULRED_GROUP_G2 ? " g2" : "");
    if (o->job.checkpoint) {
        fprintf(
            out, "tiles    %u slice%s of %llu points x %u window group%s; c = %u, %s, %u windows\n",
            g->slices, g->slices == 1 ? "" : "s", (unsigned long long)res->slice_points, g->groups,
            g->groups == 1 ? "" : "s", g->window_bits, g->glv ? "GLV" : "no GLV", g->windows);
        fprintf(out, "checkpoint %llu units resumed, %llu computed (%s)\n",
                (unsigned long long)res->resumed_units, (unsigned long long)res->computed_units,
                o->job.checkpoint);
    } else {
        fprintf(out, "grid     %u slice%s x %u window group%s; c = %u, %s, %u windows\n", g->slices,
                g->slices == 1 ? "" : "s", g->groups, g->groups == 1 ? "" : "s", g->window_bits,
                g->glv ? "GLV" : "no GLV", g->windows);
    }
    fprintf(out, "layout   %d rank%s x %d thread%s on %d node%s\n", res->ranks,
            res->ranks == 1 ? "" : "s", res->threads, res->threads == 1 ? "" : "s", res->nodes,
            res->nodes == 1 ? "" : "s");
    fprintf(out, "time     msm %s (%s); %s %s, validate %s, reduce %s, total %s\n", t, r,
            o->job.input ? "read" : "generate", in, v, red, tot);
}

void msm_describe(char *out, size_t cap, const void *vo)
{
    const msm_opts *o = vo;
    if (o->bases.bases && !o->has_curve) {
        snprintf(out, cap, "bases %s", o->bases.bases);
        return;
    }
    snprintf(out, cap, "curve %s%s", mulred_curve_name(o->job.curve),
             o->job.group == MULRED_GROUP_G2 ? " g2" : "");
}

/* The scaling table as Markdown (one section per workload) and as CSV (one row per line). */
#include <string.h>

#include "output/format.h"
#include "report/report.h"

void mulred_report_fmt(char *out, size_t cap, double v, const char *fmt)
{
    if (isnan(v))
        snprintf(out, cap, "—");
    else
        snprintf(out, cap, fmt, v);
}

static void fmt_count(char *out, size_t cap, int v)
{
    if (v > 0)
        snprintf(out, cap, "%d", v);
    else
        snprintf(out, cap, "?");
}

/* The slowest rank's CPU seconds per thread reading and computing (MuHash runs). */
static double cpu_seconds(const mulred_report_row *r)
{
    return r->ok && !r->msm ? r->compute + (isnan(r->read) ? 0 : r->read) : NAN;
}

static const char *row_status(const mulred_report_line *l, bool markdown)
{
    if (l->row->ok && !l->result_matches) return markdown ? "**MISMATCH**" : "MISMATCH";
    return l->row->ok && markdown ? "ok" : l->row->status;
}

static const char *const markdown_intro =
    "# Strong scaling\n\n"
    "Speedup and efficiency are relative to the smallest successful configuration of each "
    "workload\n(cores = ranks × threads). Karp–Flatt is the experimentally determined serial "
    "fraction\ne = (1/S − 1/p)/(1 − 1/p). Time is the total wall time, max over ranks (MSM: the "
    "MSM alone,\ntiles and reduce, not reading, generating or validating the points); rate is "
    "elements or\npoints per second of that time. CPU is the slowest rank's CPU time per thread "
    "in read +\ngenerate + hash (MuHash only): about what the time would be on cores of its own. "
    "Load\nis the host's 1-minute load average before and after the job: when time is well "
    "above\nCPU and the load above the core count, other processes shared the cores and the "
    "row\nmeasures the machine as much as mulred.\n";

static void markdown_line(FILE *out, const mulred_report_line *l)
{
    const mulred_report_row *r = l->row;
    char nodes[16], ranks[16], threads[16], c[16], t[32], s[32], e[32], kf[32], h[40];
    char load[48], cpu[32], rate[48];
    mulred_report_fmt(cpu, sizeof cpu, cpu_seconds(r), "%.3f");
    if (r->ok && r->elements > 0)
        mulred_format_rate(rate, sizeof rate, r->elements / r->seconds,
                           r->msm ? "points" : "elements");
    else
        snprintf(rate, sizeof rate, "—");
    if (isnan(r->load_start))
        snprintf(load, sizeof load, "—");
    else
        snprintf(load, sizeof load, "%.1f → %.1f", r->load_start, r->load_end);
    fmt_count(nodes, sizeof nodes, r->nodes);
    fmt_count(ranks, sizeof ranks, r->ranks);
    fmt_count(threads, sizeof threads, r->threads);
    fmt_count(c, sizeof c, r->ranks > 0 && r->threads > 0 ? mulred_report_cores(r) : 0);
    mulred_report_fmt(t, sizeof t, r->ok ? r->seconds : NAN, "%.3f");
    mulred_report_fmt(s, sizeof s, l->speedup, "%.2f");
    mulred_report_fmt(e, sizeof e, l->efficiency * 100, "%.0f %%");
    mulred_report_fmt(kf, sizeof kf, l->karp_flatt, "%.3f");
    if (r->ok) /* an EIP-2537 point starts with 16 zero bytes of padding: skip them */
        snprintf(h, sizeof h, "`%.12s…`%s", r->result + (strlen(r->result) == 256 ? 32 : 0),
                 l->result_matches ? "" : " MISMATCH");
    else
        snprintf(h, sizeof h, "—");
    fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", nodes,
            ranks, threads, c, t, cpu, rate, s, e, kf, h, load, row_status(l, true), r->source);
}

void mulred_report_write_markdown(FILE *out, const mulred_report_table *t)
{
    fputs(markdown_intro, out);
    for (int g = 0; g < t->ngroups; g++) {
        fprintf(out, "\n## %s\n\n", t->groups[g].name);
        fprintf(out, "| nodes | ranks | threads | cores | time (s) | CPU (s) | rate | speedup | "
                     "efficiency | Karp–Flatt | result | load | status | source |\n"
                     "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|---:|:---|:---|\n");
        for (size_t k = 0; k < t->nlines; k++)
            if (t->lines[k].group == g) markdown_line(out, &t->lines[k]);
    }
}

static void csv_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_text(FILE *out, const char *s)
{
    fputc(',', out);
    csv_quoted(out, s);
}

static void csv_num(FILE *out, double v, const char *fmt)
{
    fputc(',', out);
    if (!isnan(v)) fprintf(out, fmt, v);
}

static double known(int v)
{
    return v > 0 ? v : NAN;
}

void mulred_report_write_csv(FILE *out, const mulred_report_table *t)
{
    fprintf(out, "workload,nodes,ranks,threads,cores,seconds,cpu_seconds,rate,rate_unit,speedup,"
                 "efficiency,karp_flatt,result,load_start,load_end,status,source\n");
    for (size_t k = 0; k < t->nlines; k++) {
        const mulred_report_line *l = &t->lines[k];
        const mulred_report_row *r = l->row;
        csv_quoted(out, t->groups[l->group].name);
        csv_num(out, known(r->nodes), "%.0f");
        csv_num(out, known(r->ranks), "%.0f");
        csv_num(out, known(r->threads), "%.0f");
        csv_num(out, r->ranks > 0 && r->threads > 0 ? mulred_report_cores(r) : NAN, "%.0f");
        csv_num(out, r->ok ? r->seconds : NAN, "%.6f");
        csv_num(out, cpu_seconds(r), "%.6f");
        csv_num(out, r->ok && r->elements > 0 ? r->elements / r->seconds : NAN, "%.6g");
        csv_text(out, r->msm ? "points/s" : "elements/s");
        csv_num(out, l->speedup, "%.4f");
        csv_num(out, l->efficiency, "%.4f");
        csv_num(out, l->karp_flatt, "%.4f");
        csv_text(out, r->result);
        csv_num(out, r->load_start, "%.2f");
        csv_num(out, r->load_end, "%.2f");
        csv_text(out, row_status(l, false));
        csv_text(out, r->source);
        fputc('\n', out);
    }
}

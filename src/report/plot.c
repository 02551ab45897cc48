/* gnuplot: generated scripts, run from a temporary file, and the scaling PNG. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

bool mulred_report_have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

void mulred_report_printf(mulred_report_text *b, const char *fmt, ...)
{
    while (!b->failed) {
        va_list ap;
        va_start(ap, fmt);
        int need = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (need < 0) {
            b->failed = true;
            return;
        }
        if (b->s && b->n + (size_t)need < b->cap) {
            b->n += (size_t)need;
            return;
        }
        size_t cap = (b->cap + (size_t)need + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s)
            b->failed = true;
        else
            b->s = s, b->cap = cap;
    }
}

void mulred_report_quote(mulred_report_text *b, const char *s)
{
    mulred_report_printf(b, "\"");
    for (; *s; s++) mulred_report_printf(b, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
    mulred_report_printf(b, "\"");
}

void mulred_report_plot_begin(mulred_report_text *b, const char *png, int width, int height)
{
    mulred_report_printf(b,
                         "set terminal pngcairo size %d,%d noenhanced font \"sans,10\"\n"
                         "set output ",
                         width, height);
    mulred_report_quote(b, png);
    mulred_report_printf(b, "\n");
}

mulred_status mulred_report_gnuplot(const mulred_report_text *script, const char *png,
                                    mulred_error *err)
{
    if (script->failed || !script->s)
        return mulred_error_set(err, MULRED_ERUNTIME, "report: out of memory writing a plot");
    char path[] = "/tmp/mulred-plot-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) close(fd), unlink(path);
        return mulred_error_set(err, MULRED_ERUNTIME, "report: temporary file: %s",
                                strerror(errno));
    }
    const bool written = fputs(script->s, f) >= 0;
    if (fclose(f) != 0 || !written) {
        unlink(path);
        return mulred_error_set(err, MULRED_ERUNTIME, "report: cannot write %s", path);
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "gnuplot '%s'", path);
    int rc = system(cmd);
    unlink(path);
    if (rc != 0 || access(png, F_OK) != 0)
        return mulred_error_set(err, MULRED_ERUNTIME, "report: gnuplot failed to write %s", png);
    return MULRED_OK;
}

/* The series of the scaling plot: one per workload and threads per rank, so that a sweep of
 * ranks and a sweep of threads (same cores, different layout) are separate lines. */
typedef struct {
    int group, threads;
} series;

static int series_of(series *s, int *ns, int group, int threads)
{
    for (int i = 0; i < *ns; i++)
        if (s[i].group == group && s[i].threads == threads) return i;
    s[*ns] = (series){group, threads};
    return (*ns)++;
}

static void plot_panels(mulred_report_text *b, const mulred_report_table *t, const series *s,
                        int ns, double pmax, double smax, double base_cores)
{
    const char *pts = "with linespoints lw 2 pt 7 ps 1.2";
    for (int panel = 0; panel < 2; panel++) {
        if (panel == 0)
            mulred_report_printf(b,
                                 "set ylabel \"speedup\"\nset yrange [0:%g]\n"
                                 "plot x/%g title \"ideal\" dt 2 lc rgb \"gray40\"",
                                 (smax > pmax / base_cores ? smax : pmax / base_cores) * 1.15 + 0.2,
                                 base_cores);
        else
            mulred_report_printf(b, "set ylabel \"parallel efficiency\"\nset yrange [0:1.2]\n"
                                    "plot 1 title \"ideal\" dt 2 lc rgb \"gray40\"");
        for (int i = 0; i < ns; i++) {
            char title[400];
            snprintf(title, sizeof title, "%s; %d thread%s/rank", t->groups[s[i].group].name,
                     s[i].threads, s[i].threads == 1 ? "" : "s");
            mulred_report_printf(b, ", $s%d using 1:%d %s title ", i, panel ? 3 : 2, pts);
            mulred_report_quote(b, title);
        }
        mulred_report_printf(b, "\n");
    }
}

mulred_status mulred_report_write_png(const char *png, const mulred_report_table *t,
                                      mulred_error *err)
{
    series *s = calloc(t->nlines + 1, sizeof *s);
    if (!s) return mulred_error_set(err, MULRED_ERUNTIME, "report: out of memory");
    int ns = 0, missing = 0;
    double pmax = 1, smax = 1, base_cores = 0;
    for (size_t k = 0; k < t->nlines; k++) {
        const mulred_report_row *r = t->lines[k].row;
        if (!r->ok) {
            missing++;
            continue;
        }
        if (mulred_report_cores(r) > pmax) pmax = mulred_report_cores(r);
        if (t->lines[k].speedup > smax) smax = t->lines[k].speedup;
        series_of(s, &ns, t->lines[k].group, r->threads);
    }
    for (int g = 0; g < t->ngroups && !base_cores; g++)
        if (t->groups[g].base) base_cores = mulred_report_cores(t->groups[g].base);
    if (!base_cores) base_cores = 1;
    mulred_report_text b = {0};
    for (int i = 0; i < ns; i++) {
        mulred_report_printf(&b, "$s%d << EOD\n", i);
        for (size_t k = 0; k < t->nlines; k++) {
            const mulred_report_line *l = &t->lines[k];
            if (l->group == s[i].group && l->row->ok && l->row->threads == s[i].threads)
                mulred_report_printf(&b, "%d %.6f %.6f\n", mulred_report_cores(l->row), l->speedup,
                                     l->efficiency);
        }
        mulred_report_printf(&b, "EOD\n");
    }
    mulred_report_plot_begin(&b, png, 1100, 560);
    mulred_report_printf(&b, "set multiplot layout 1,2 title \"mulred strong scaling%s\"\n",
                         missing ? " (failed or missing runs are listed in the table, not plotted)"
                                 : "");
    mulred_report_printf(&b,
                         "set key below left Left reverse vertical maxrows 4\nset grid\n"
                         "set xlabel \"cores (ranks x threads)\"\nset xrange [0:%g]\n%s",
                         pmax + 1, pmax > 16 ? "" : "set xtics 1\n");
    plot_panels(&b, t, s, ns, pmax, smax, base_cores);
    mulred_report_printf(&b, "unset multiplot\n");
    mulred_status rc = MULRED_ERUNTIME;
    if (ns)
        rc = mulred_report_gnuplot(&b, png, err);
    else
        mulred_error_set(err, rc, "report: no successful run to plot");
    free(b.s);
    free(s);
    return rc;
}

/* Rows → lines grouped by workload (muhash: flavor, elements inserted and removed; msm: curve,
 * points and input). In each group the baseline is the smallest successful configuration
 * (fewest cores = ranks × threads, then fewest nodes); speedup, efficiency and the Karp–Flatt
 * fraction are relative to it. The result of every row (MuHash digest, MSM point) is compared
 * with the baseline's: it must not depend on P or T. */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

typedef struct {
    mulred_report_table *t;
    size_t cap;
    mulred_error *err;
} builder;

static int group_of(mulred_report_table *t, const char *name)
{
    for (int i = 0; i < t->ngroups; i++)
        if (strcmp(t->groups[i].name, name) == 0) return i;
    snprintf(t->groups[t->ngroups].name, sizeof t->groups[t->ngroups].name, "%s", name);
    t->groups[t->ngroups].base = NULL;
    return t->ngroups++;
}

static int cores_or_last(const mulred_report_row *r)
{
    return mulred_report_cores(r) ? mulred_report_cores(r) : 1 << 30;
}

static int line_cmp(const void *a, const void *b)
{
    const mulred_report_line *x = a, *y = b;
    if (x->group != y->group) return x->group - y->group;
    const int cx = cores_or_last(x->row), cy = cores_or_last(y->row);
    if (cx != cy) return cx < cy ? -1 : 1;
    if (x->row->nodes != y->row->nodes) return x->row->nodes - y->row->nodes;
    if (x->row->ok != y->row->ok) return x->row->ok ? -1 : 1;
    return strcmp(x->row->source, y->row->source);
}

/* Appends a line (the array grows by doubling: a failed row may go into several groups). */
static mulred_status push_line(builder *b, mulred_report_row *r, int group)
{
    mulred_report_table *t = b->t;
    if (t->nlines == b->cap) {
        const size_t want = b->cap ? 2 * b->cap : 16;
        mulred_report_line *l = realloc(t->lines, want * sizeof *l);
        if (!l)
            return mulred_error_set(b->err, MULRED_ERUNTIME, "report: out of memory (%zu lines)",
                                    want);
        t->lines = l, b->cap = want;
    }
    memset(&t->lines[t->nlines], 0, sizeof *t->lines);
    t->lines[t->nlines].row = r;
    t->lines[t->nlines++].group = group;
    return MULRED_OK;
}

/* A failed row goes once into every group that holds a successful row of its job (the first
 * n_ok lines), else into a group of its own job: one pass over the successful lines per
 * failed row, not per group, so thousands of failed files do not take cubic time. */
static mulred_status place_failed(builder *b, mulred_report_row *r, size_t n_ok)
{
    mulred_report_table *t = b->t;
    const size_t first = t->nlines;
    for (size_t k = 0; r->job[0] && k < n_ok; k++) {
        if (strcmp(t->lines[k].row->job, r->job) != 0) continue;
        bool seen = false;
        for (size_t q = first; q < t->nlines && !seen; q++)
            seen = t->lines[q].group == t->lines[k].group;
        if (!seen && push_line(b, r, t->lines[k].group)) return MULRED_ERUNTIME;
    }
    if (t->nlines > first) return MULRED_OK;
    char name[300];
    snprintf(name, sizeof name, "job %s", r->job[0] ? r->job : "unknown");
    return push_line(b, r, group_of(t, name));
}

/* Each group's baseline, then every line's figures against it. */
static void measure(mulred_report_table *t)
{
    for (size_t k = 0; k < t->nlines; k++) {
        mulred_report_row *r = t->lines[k].row, **base = &t->groups[t->lines[k].group].base;
        if (!r->ok) continue;
        const int c = mulred_report_cores(r);
        if (!*base || c < mulred_report_cores(*base) ||
            (c == mulred_report_cores(*base) && r->nodes < (*base)->nodes))
            *base = r;
    }
    for (size_t k = 0; k < t->nlines; k++) {
        mulred_report_line *l = &t->lines[k];
        const mulred_report_row *b = t->groups[l->group].base;
        l->p = l->speedup = l->efficiency = l->karp_flatt = NAN;
        l->result_matches = true;
        if (!l->row->ok || !b) continue;
        l->p = (double)mulred_report_cores(l->row) / mulred_report_cores(b);
        l->speedup = mulred_speedup(b->seconds, l->row->seconds);
        l->efficiency = mulred_efficiency(l->speedup, l->p);
        l->karp_flatt = mulred_karp_flatt(l->speedup, l->p);
        l->result_matches = strcmp(l->row->result, b->result) == 0;
    }
}

mulred_status mulred_report_scaling(mulred_report_table *t, mulred_report_rows *rs,
                                    mulred_error *err)
{
    *t = (mulred_report_table){0};
    builder b = {t, 0, err};
    /* at most one group per row (a failed row's own group replaces none of the ok rows') */
    t->groups = calloc(rs->n + 1, sizeof *t->groups);
    if (!t->groups) return mulred_error_set(err, MULRED_ERUNTIME, "report: out of memory");
    for (size_t i = 0; i < rs->n; i++)
        if (rs->rows[i].ok && push_line(&b, &rs->rows[i], group_of(t, rs->rows[i].workload)))
            return MULRED_ERUNTIME;
    const size_t n_ok = t->nlines;
    for (size_t i = 0; i < rs->n; i++)
        if (!rs->rows[i].ok && place_failed(&b, &rs->rows[i], n_ok)) return MULRED_ERUNTIME;
    measure(t);
    if (t->nlines) qsort(t->lines, t->nlines, sizeof *t->lines, line_cmp);
    return MULRED_OK;
}

void mulred_report_table_free(mulred_report_table *t)
{
    free(t->lines);
    free(t->groups);
    *t = (mulred_report_table){0};
}

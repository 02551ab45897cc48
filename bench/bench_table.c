/* The benchmarks' result tables as Markdown or JSON (see bench_table.h). */
#include "bench_table.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

static void print_header(const bench_table *t)
{
    const bench_column *cols = t->cols;
    const size_t ncols = t->ncols;
    for (size_t c = 0; c < ncols; c++)
        if (cols[c].title) mulred_out("| %s ", cols[c].title);
    mulred_out("|\n");
    for (size_t c = 0; c < ncols; c++)
        if (cols[c].title) mulred_out("|---");
    mulred_out("|\n");
}

void bench_table_begin(bench_table *t, mulred_json_writer *w, const char *key,
                       const bench_column *cols, size_t ncols)
{
    *t = (bench_table){w, key, cols, ncols, 0, ncols, ncols, false, false};
    for (size_t c = 0; c < ncols; c++)
        if (cols[c].kind == BENCH_NAME)
            t->name = c;
        else if (cols[c].key && t->value == ncols)
            t->value = c;
    if (w) {
        if (key && t->name == ncols) mulred_jw_array_begin(w, *key ? key : NULL);
        return;
    }
    print_header(t);
}

static void write_member(mulred_json_writer *w, const bench_column *col, bench_value v)
{
    switch (col->kind) {
    case BENCH_INT:
        mulred_jw_int(w, col->key, v.i);
        break;
    case BENCH_REAL:
        mulred_jw_double(w, col->key, v.r);
        break;
    case BENCH_BOOL:
        mulred_jw_bool(w, col->key, v.i != 0);
        break;
    case BENCH_REALS:
        mulred_jw_array_begin(w, col->key);
        for (size_t i = 0; i < v.reals.n; i++) mulred_jw_double(w, NULL, v.reals.v[i]);
        mulred_jw_array_end(w);
        break;
    case BENCH_TEXT:
    case BENCH_NAME:
        if (v.s)
            mulred_jw_string(w, col->key, v.s);
        else
            mulred_jw_null(w, col->key);
        break;
    }
}

/* The cell of a series: each value (times the scale) in the column's format, space-separated,
 * as many as fit. */
static void print_reals(char *cell, size_t cap, const bench_column *col, bench_value v)
{
    const double scale = col->scale != 0 ? col->scale : 1;
    size_t len = 0;
    cell[0] = '\0';
    for (size_t i = 0; i < v.reals.n; i++) {
        char one[64];
        const double x = v.reals.v[i] * scale;
        if (isnan(x))
            snprintf(one, sizeof one, "-");
        else
            snprintf(one, sizeof one, col->format ? col->format : "%.4g", x);
        const size_t n = strlen(one) + (i > 0);
        if (len + n >= cap) break;
        snprintf(cell + len, cap - len, "%s%s", i > 0 ? " " : "", one);
        len += n;
    }
}

/* The "| cell " of one value. The format is the column's own (a declaration, never input). */
static void print_cell(const bench_column *col, bench_value v)
{
    const double scale = col->scale != 0 ? col->scale : 1;
    const char *fmt = col->format;
    char cell[256];
    if (v.none)
        snprintf(cell, sizeof cell, "-");
    else if (col->kind == BENCH_BOOL)
        snprintf(cell, sizeof cell, fmt ? fmt : "%s", v.i ? "yes" : "no");
    else if (col->kind == BENCH_TEXT || col->kind == BENCH_NAME)
        snprintf(cell, sizeof cell, fmt ? fmt : "%s", v.s ? v.s : "-");
    else if (col->kind == BENCH_REALS)
        print_reals(cell, sizeof cell, col, v);
    else if (col->kind == BENCH_INT && col->scale == 0)
        snprintf(cell, sizeof cell, fmt ? fmt : "%lld", (long long)v.i);
    else {
        const double x = (col->kind == BENCH_INT ? (double)v.i : v.r) * scale;
        if (isnan(x))
            snprintf(cell, sizeof cell, "-");
        else
            snprintf(cell, sizeof cell, fmt ? fmt : "%.4g", x);
    }
    mulred_out("| %s ", cell);
}

/* Writes or prints one row; with open, the JSON object stays open (bench_table_row_close). */
static void table_row(bench_table *t, const bench_value *values, size_t nvalues, bool open)
{
    const bool named = t->name < t->ncols;
    if (nvalues != t->ncols || (t->w && !t->key && !named && t->nrows > 0) ||
        (named && (t->key || t->value == t->ncols)) || t->open || (open && (!t->key || named))) {
        fprintf(stderr, "mulred: bench_table_row misused: %zu values for %zu columns, row %zu\n",
                nvalues, t->ncols, t->nrows + 1);
        abort();
    }
    t->nrows++;
    t->open = open;
    if (t->w && named) {
        const bench_value name = values[t->name];
        if (!name.none && name.s && !values[t->value].none) {
            bench_column col = t->cols[t->value];
            col.key = name.s;
            write_member(t->w, &col, values[t->value]);
        }
        return;
    }
    if (t->w) {
        if (t->key) mulred_jw_object_begin(t->w, NULL);
        for (size_t c = 0; c < t->ncols; c++)
            if (t->cols[c].key && !values[c].none) write_member(t->w, &t->cols[c], values[c]);
        if (t->key && !open) mulred_jw_object_end(t->w);
        return;
    }
    if (t->header) {
        mulred_out("\n");
        print_header(t);
        t->header = false;
    }
    for (size_t c = 0; c < t->ncols; c++)
        if (t->cols[c].title) print_cell(&t->cols[c], values[c]);
    mulred_out("|\n");
    if (open) mulred_out("\n");
}

void bench_table_row(bench_table *t, const bench_value *values, size_t nvalues)
{
    table_row(t, values, nvalues, false);
}

void bench_table_row_open(bench_table *t, const bench_value *values, size_t nvalues)
{
    table_row(t, values, nvalues, true);
}

void bench_table_row_close(bench_table *t)
{
    if (!t->open) {
        fprintf(stderr, "mulred: bench_table_row_close without an open row\n");
        abort();
    }
    t->open = false;
    if (t->w)
        mulred_jw_object_end(t->w);
    else
        t->header = true;
}

void bench_table_end(bench_table *t)
{
    if (t->w && t->key && t->name == t->ncols) mulred_jw_array_end(t->w);
}

const bench_column bench_op_columns[4] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "operation", NULL, BENCH_TEXT, 0},
    {"ns", "ns", "%.1f", BENCH_REAL, 0},
    {NULL, "ratio", NULL, BENCH_TEXT, 0},
};

void bench_op_row(bench_table *t, const char *key, const char *label, double ns, double ratio,
                  const char *of)
{
    char r[64] = "";
    if (of && ratio == ratio) snprintf(r, sizeof r, "%.2f x %s", ratio, of);
    BENCH_ROW(t, key ? BENCH_S(key) : BENCH_NONE, BENCH_S(label), BENCH_R(ns), BENCH_S(r));
}

const bench_column bench_figure_columns[3] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "figure", NULL, BENCH_TEXT, 0},
    {"value", "value", "%.4g", BENCH_REAL, 0},
};

void bench_figure_row(bench_table *t, const char *key, const char *label, double value)
{
    BENCH_ROW(t, key ? BENCH_S(key) : BENCH_NONE, BENCH_S(label), BENCH_R(value));
}

const bench_column bench_rss_columns[5] = {
    {NULL, NULL, NULL, BENCH_NAME, 0},
    {NULL, "run", NULL, BENCH_TEXT, 0},
    {"kib", "MiB", "%.1f", BENCH_REAL, 1.0 / 1024},
    {NULL, "min", "%.1f", BENCH_REAL, 1.0 / 1024},
    {NULL, "max", "%.1f", BENCH_REAL, 1.0 / 1024},
};

/* The result tables of the benchmarks: each column declared once, each row given once, printed
 * as a Markdown table (the human form) or written as JSON (--json) from the same declaration, so
 * a figure has one description and a new column is one edit.
 *
 * A column has a JSON key, a title (with its unit: "seconds", "read s"), a printf conversion for
 * its cell and a kind (integer, real, text, a yes/no: JSON true/false, or a series of reals). A row
 * is one value per column, in column order (BENCH_ROW checks the count). The human form goes
 * through mulred_out (the printing process only): a header when the table begins, a line per row as
 * it comes, so a long bench shows its rows as it measures them. The JSON form goes through a
 * mulred_json_writer the caller has open: an array of objects under the table's key in the
 * enclosing object, one object per row with a member per column (key "": an unnamed array, the
 * document itself or an element of an enclosing array); or, when the key is NULL, the members of a
 * single row written straight into the enclosing object (a bench whose result is one record).
 *
 * Nested tables: a row given by bench_table_row_open stays open until bench_table_row_close, and
 * a table begun in between is written inside it, as its member (JSON), or printed after it as a
 * table of its own (Markdown; the outer table prints its header again at its next row).
 *
 * Named figures: a table with a BENCH_NAME column (a text the human table need not show) is a
 * list of figures, one a row, as a bench reports its operations: in JSON each row is one member
 * of the enclosing object, named by that column's value, whose value is the row's one other
 * column with a key (that key marks the column; it is not written). Such a table takes any
 * number of rows and no key; a row whose name is NULL or BENCH_NONE is printed only.
 *
 * Series: a BENCH_REALS column holds a run of reals (a figure per run of a bench), written as a
 * JSON array of numbers and printed as the values one after the other, cut to the cell's width.
 *
 * Missing figures: a real that is NaN is JSON null and "-" in its cell, a NULL text likewise;
 * a BENCH_NONE value is left out of the JSON object and "-" in its cell.
 * A column without a key is printed only (a derived figure such as a rate); one without a title
 * is written only (a figure the human table shows in another column). */
#ifndef MULRED_BENCH_TABLE_H
#define MULRED_BENCH_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/json.h"

typedef enum { BENCH_INT, BENCH_REAL, BENCH_TEXT, BENCH_NAME, BENCH_BOOL, BENCH_REALS } bench_kind;

typedef struct {
    const char *key;    /* JSON member name; NULL: the human table only */
    const char *title;  /* column title, unit included; NULL: JSON only */
    const char *format; /* printf conversion of the cell: "%.3f", "%lld", "%s"; NULL: the kind's
                         * default ("%lld", "%.4g", "%s") */
    bench_kind kind;
    double scale; /* the cell shows value × scale (0: the value itself); an integer column with a
                   * scale prints as a real, so its format converts a double ("%.1f") */
} bench_column;

/* One cell: .i for BENCH_INT (printed with "%lld"-style conversions as long long) and BENCH_BOOL
 * (non-zero: true, printed "yes"), .r for BENCH_REAL, .s for BENCH_TEXT and BENCH_NAME, .reals
 * (n values at v, kept by reference until the row is given) for BENCH_REALS; none: no figure in
 * this row (BENCH_NONE), left out of the row's JSON object, "-" in its cell. */
typedef struct {
    union {
        int64_t i;
        double r;
        const char *s;
        struct {
            const double *v;
            size_t n;
        } reals;
    };
    bool none;
} bench_value;

#define BENCH_I(x)     ((bench_value){.i = (int64_t)(x)})
#define BENCH_R(x)     ((bench_value){.r = (double)(x)})
#define BENCH_S(x)     ((bench_value){.s = (x)})
#define BENCH_RS(v, n) ((bench_value){.reals = {(v), (n)}})
#define BENCH_NONE     ((bench_value){.none = true})

typedef struct {
    mulred_json_writer *w; /* NULL: the human table */
    const char *key;
    const bench_column *cols;
    size_t ncols, nrows;
    size_t name, value; /* a named-figure table: its BENCH_NAME and its valued column */
    bool open, header;  /* a row is open; (Markdown) the header is to be printed again */
} bench_table;

/* Begins a table of cols (ncols of them, kept by reference until bench_table_end): with w, the
 * JSON form under key (NULL: one row, its members in the enclosing object; a named-figure
 * table: NULL), else the Markdown header. */
void bench_table_begin(bench_table *t, mulred_json_writer *w, const char *key,
                       const bench_column *cols, size_t ncols);
/* One row: nvalues values, one per column in order; a count other than ncols, or a second row
 * of a keyless table written as JSON (named figures aside), aborts (misuse). The human form takes
 * any number of rows whatever the key. */
void bench_table_row(bench_table *t, const bench_value *values, size_t nvalues);
#define BENCH_ROW(t, ...)                                                                          \
    bench_table_row((t), (const bench_value[]){__VA_ARGS__},                                       \
                    sizeof((const bench_value[]){__VA_ARGS__}) / sizeof(bench_value))
/* The same, leaving the row open for the tables nested in it (a table with a key, not a
 * named-figure one); bench_table_row_close ends it. */
void bench_table_row_open(bench_table *t, const bench_value *values, size_t nvalues);
#define BENCH_ROW_OPEN(t, ...)                                                                     \
    bench_table_row_open((t), (const bench_value[]){__VA_ARGS__},                                  \
                         sizeof((const bench_value[]){__VA_ARGS__}) / sizeof(bench_value))
void bench_table_row_close(bench_table *t);
/* Closes the JSON array (nothing for the human form or a keyless table). */
void bench_table_end(bench_table *t);

/* The columns of a static array of them. */
#define BENCH_NCOLS(cols) (sizeof(cols) / sizeof((cols)[0]))

/* Named operation figures, the form of `bench muhash` and `bench curve`: the JSON member (the
 * BENCH_NAME column), the operation, its ns, and (printed only) a ratio. bench_op_row writes a
 * row of them: key NULL prints the row only; the ratio shows as "R x of" when of is non-NULL
 * and ratio a number. */
extern const bench_column bench_op_columns[4];
void bench_op_row(bench_table *t, const char *key, const char *label, double ns, double ratio,
                  const char *of);
/* Named figures of a run, one a row: the JSON member (the BENCH_NAME column; NULL or BENCH_NONE:
 * printed only), what it is, its value. bench_figure_row writes one. */
extern const bench_column bench_figure_columns[3];
void bench_figure_row(bench_table *t, const char *key, const char *label, double value);
/* Peak resident set sizes of a run (KiB, shown in MiB): the JSON member, the run, the median
 * and (printed only) the least and the most of the rounds. */
extern const bench_column bench_rss_columns[5];

#endif

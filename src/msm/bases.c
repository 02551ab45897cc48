/* Base sets (include/mulred/bases.h): the object, planning and one MSM. The per-curve
 * operations are in bases_ops.c, what runs on threads in bases_threads.c, files and the cache in
 * src/io/bases_io.c.
 *
 * A call plans with the engine's cost model: the plain plan of n (mulred_G_msm_plan) against
 * the table's fixed plan, at n; the cheaper runs. Both are the engine's own kernels
 * (msm_windows_var / msm_serial_var over the stored points, msm_fixed_var over the table):
 * nothing here adds up points itself. */
#include <stdlib.h>
#include <string.h>

#include "msm/bases_internal.h"
#include "msm/msm_internal.h"
#include "mulred/bases.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "util/check.h"
#include "util/util.h"

/* ---- encodings ------------------------------------------------------------------------------- */

size_t mulred_point_encoding_bytes(mulred_curve c, mulred_point_encoding e)
{
    static const size_t bytes[4][3] = {
        {128, 48, 96},  /* BLS12-381 G1: EIP-2537, compressed, uncompressed */
        {64, 0, 0},     /* BN254 G1: EIP-196 */
        {256, 96, 192}, /* BLS12-381 G2: EIP-2537, compressed, uncompressed */
        {128, 0, 0},    /* BN254 G2: EIP-197 */
    };
    MULRED_ARG_CHECK_RETURN(c >= MULRED_CURVE_BLS12_381 && c <= MULRED_CURVE_BN254_G2, 0);
    MULRED_ARG_CHECK_RETURN(e >= MULRED_POINTS_EVM && e <= MULRED_POINTS_UNCOMPRESSED, 0);
    return bytes[c][e];
}

static const char *const ENCODING_NAMES[3] = {"evm", "compressed", "uncompressed"};

const char *mulred_point_encoding_name(mulred_point_encoding e)
{
    MULRED_ARG_CHECK_RETURN(e >= MULRED_POINTS_EVM && e <= MULRED_POINTS_UNCOMPRESSED, "?");
    return ENCODING_NAMES[e];
}

mulred_status mulred_point_encoding_parse(mulred_point_encoding *e, const char *name)
{
    MULRED_ARG_CHECK(e && name);
    for (int i = 0; i < 3; i++)
        if (strcmp(name, ENCODING_NAMES[i]) == 0) {
            *e = (mulred_point_encoding)i;
            return MULRED_OK;
        }
    return MULRED_EINPUT;
}

/* ---- making and freeing ---------------------------------------------------------------------- */

#define BASES_OK(b) ((b) && (b)->magic == BASES_MAGIC)

mulred_bases *bases_alloc(mulred_curve c, size_t count)
{
    mulred_bases *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->curve = c;
    b->ops = bases_ops_of(c);
    b->size = count;
    b->points = mulred_alloc_large(count ? count * b->ops->affine_bytes : 1);
    if (!b->points) {
        free(b);
        return NULL;
    }
    b->magic = BASES_MAGIC;
    return b;
}

void mulred_bases_free(mulred_bases *b)
{
    if (!b) return;
    MULRED_ARG_CHECK_VOID(BASES_OK(b));
    b->magic = 0;
    free(b->points);
    free(b->table);
    free(b);
}

static bool curve_ok(mulred_curve c)
{
    return c >= MULRED_CURVE_BLS12_381 && c <= MULRED_CURVE_BN254_G2;
}

/* The subgroup check of a made set: MULRED_OK, or the set freed and MULRED_EINPUT. */
static mulred_status check_subgroup(mulred_bases *b, const char *name, size_t first, int threads,
                                    mulred_error *err)
{
    const size_t bad = msm_subgroup_lowest(b->points, b->size, b->curve, threads);
    if (bad == b->size) return MULRED_OK;
    const mulred_decode_reason why = b->ops->subgroup_reason;
    mulred_bases_free(b);
    return mulred_error_set(err, MULRED_EINPUT, "%s: point %zu: %s", name, first + bad,
                            mulred_decode_reason_text(why));
}

/* A set of no points: bad input, as an MSM over no pairs is (mulred/msm_io.h). A shard of a
 * larger set may be empty (a rank of mulred_mpi_bases_open when the set has fewer points than
 * ranks). */
static mulred_status no_points(const char *name, mulred_error *err)
{
    return mulred_error_set(err, MULRED_EINPUT, "%s: no points (empty input)",
                            name ? name : "points");
}

mulred_status mulred_bases_make(mulred_bases **out, mulred_curve c, mulred_point_encoding e,
                                const uint8_t *in, size_t len, const char *name, int threads,
                                mulred_error *err)
{
    MULRED_ARG_CHECK(out && curve_ok(c) && (in || len == 0));
    if (len == 0 && mulred_point_encoding_bytes(c, e)) return no_points(name, err);
    return mulred_bases_make_shard(out, c, e, in, len, name, 0, threads, err);
}

mulred_status mulred_bases_make_shard(mulred_bases **out, mulred_curve c, mulred_point_encoding e,
                                      const uint8_t *in, size_t len, const char *name, size_t first,
                                      int threads, mulred_error *err)
{
    MULRED_ARG_CHECK(out && curve_ok(c) && (in || len == 0));
    MULRED_ARG_CHECK(e >= MULRED_POINTS_EVM && e <= MULRED_POINTS_UNCOMPRESSED);
    if (!name) name = "points";
    const size_t B = mulred_point_encoding_bytes(c, e);
    if (B == 0)
        return mulred_error_set(
            err, MULRED_EINPUT, "%s: %s %s has no %s encoding", name, mulred_curve_name(c),
            mulred_pairing_group_name(mulred_curve_group(c)), mulred_point_encoding_name(e));
    if (len % B != 0)
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s: %zu bytes: not a whole number of %zu-byte "
                                "points",
                                name, len, B);
    mulred_bases *b = bases_alloc(c, len / B);
    if (!b) return mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", name);
    size_t bad = 0;
    const mulred_decode_reason why =
        bases_decode(b->points, in, b->size, B, e, b->ops, threads, &bad);
    if (why != MULRED_DECODE_VALID) {
        /* the lowest bad point may be one below it that decodes but is not in the subgroup */
        const size_t sub = msm_subgroup_lowest(b->points, bad, c, threads);
        const mulred_decode_reason r = sub < bad ? b->ops->subgroup_reason : why;
        mulred_bases_free(b);
        return mulred_error_set(err, MULRED_EINPUT, "%s: point %zu: %s", name,
                                first + (sub < bad ? sub : bad), mulred_decode_reason_text(r));
    }
    const mulred_status st = check_subgroup(b, name, first, threads, err);
    if (st == MULRED_OK) *out = b;
    return st;
}

mulred_status mulred_bases_from_affine(mulred_bases **out, mulred_curve c, const void *points,
                                       size_t count, const char *name, int threads,
                                       mulred_error *err)
{
    MULRED_ARG_CHECK(out && curve_ok(c) && (points || count == 0));
    if (!name) name = "points";
    if (count == 0) return no_points(name, err);
    mulred_bases *b = bases_alloc(c, count);
    if (!b) return mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", name);
    if (count) memcpy(b->points, points, count * b->ops->affine_bytes);
    for (size_t i = 0; i < count; i++)
        if (!b->ops->on_curve((const uint8_t *)b->points + i * b->ops->affine_bytes)) {
            mulred_bases_free(b);
            return mulred_error_set(err, MULRED_EINPUT, "%s: point %zu: %s", name, i,
                                    mulred_decode_reason_text(MULRED_DECODE_ECURVE));
        }
    const mulred_status st = check_subgroup(b, name, 0, threads, err);
    if (st == MULRED_OK) *out = b;
    return st;
}

/* ---- queries --------------------------------------------------------------------------------- */

mulred_curve mulred_bases_curve(const mulred_bases *b)
{
    MULRED_ARG_CHECK_RETURN(BASES_OK(b), MULRED_CURVE_BLS12_381);
    return b->curve;
}

size_t mulred_bases_size(const mulred_bases *b)
{
    MULRED_ARG_CHECK_RETURN(BASES_OK(b), 0);
    return b->size;
}

size_t mulred_bases_memory(const mulred_bases *b)
{
    MULRED_ARG_CHECK_RETURN(BASES_OK(b), 0);
    const size_t rows = b->table ? b->table_plan.windows : 0;
    return sizeof *b + b->size * b->ops->affine_bytes * (1 + rows);
}

const void *mulred_bases_points(const mulred_bases *b)
{
    MULRED_ARG_CHECK_RETURN(BASES_OK(b), NULL);
    return b->points;
}

unsigned mulred_bases_level(const mulred_bases *b)
{
    MULRED_ARG_CHECK_RETURN(BASES_OK(b), 0);
    return b->table ? b->table_plan.windows : 0;
}

bool mulred_bases_table_plan(const mulred_bases *b, mulred_msm_plan *plan)
{
    MULRED_ARG_CHECK_RETURN(BASES_OK(b) && plan, false);
    if (!b->table) return false;
    *plan = b->table_plan;
    return true;
}

/* ---- precomputation -------------------------------------------------------------------------- */

/* The cheapest fixed plan at n with at most `rows` rows; false when none fits. */
static bool best_fixed_plan(mulred_msm_plan *best, const bases_ops *ops, size_t n, unsigned rows)
{
    bool have = false;
    double best_cost = 0;
    for (int glv = -1; glv <= 1; glv += 2)
        for (int c = 2; c <= MSM_AUTO_WINDOW_BITS; c++)
            for (int batch = 0; batch <= 4096; batch = batch ? 2 * batch : 1024) {
                if (glv < 0 && c < 4) continue; /* at most 64 windows */
                /* a longer batch than the engine's own (0: its choice) only where the buckets
                 * hold 16 of them: the model counts no collisions, which longer batches make */
                if (batch && (size_t)16 * (size_t)batch > (size_t)1 << (c - 1)) continue;
                const mulred_msm_options o = {.window_bits = c, .glv = glv, .batch = batch};
                mulred_msm_plan p;
                ops->fixed_plan(&p, n, &o);
                if (p.magic == 0 || p.windows > rows) continue;
                const double cost = ops->cost(&p, n, p.windows, 1);
                if (!have || cost < best_cost) *best = p, best_cost = cost, have = true;
            }
    return have;
}

mulred_status mulred_bases_precompute(mulred_bases *b, unsigned level, size_t budget_bytes,
                                      int threads, mulred_error *err)
{
    MULRED_ARG_CHECK(BASES_OK(b) && level != 1 && level <= MULRED_BASES_LEVEL_MAX);
    free(b->table);
    b->table = NULL;
    const size_t point_bytes = b->size * b->ops->affine_bytes;
    if (budget_bytes && point_bytes) {
        const size_t fit = budget_bytes / point_bytes;
        if (fit < level) level = (unsigned)fit;
    }
    mulred_msm_plan plan;
    if (level < 2 || b->size == 0 || !best_fixed_plan(&plan, b->ops, b->size, level))
        return MULRED_OK;
    b->table = mulred_alloc_large((size_t)plan.windows * point_bytes);
    if (!b->table) return mulred_error_set(err, MULRED_ERUNTIME, "precompute: out of memory");
    bases_table_build(b, &plan, threads);
    b->table_plan = plan;
    return MULRED_OK;
}

mulred_bases *bases_adopt_table(mulred_curve c, size_t n, void *table, const mulred_msm_plan *plan)
{
    mulred_bases *b = bases_alloc(c, n);
    if (!b) return NULL;
    const size_t A = b->ops->affine_bytes;
    for (size_t i = 0; i < n; i++)
        memcpy((uint8_t *)b->points + i * A, (const uint8_t *)table + i * plan->windows * A, A);
    b->table = table;
    b->table_plan = *plan;
    return b;
}

/* ---- MSMs ------------------------------------------------------------------------------------ */

void mulred_bases_set_table_use(mulred_bases *b, int use)
{
    MULRED_ARG_CHECK_VOID(BASES_OK(b) && use >= -1 && use <= 1);
    b->table_use = use;
}

void mulred_bases_plan(const mulred_bases *b, size_t n, mulred_msm_plan *plan, bool *uses_table)
{
    MULRED_ARG_CHECK_VOID(BASES_OK(b) && plan);
    mulred_msm_curve_plan(b->curve, plan, n, NULL);
    bool table = false;
    if (b->table && n > 0 && b->table_use >= 0) {
        const double plain = b->ops->cost(plan, n, plan->windows, 1);
        const double fixed = b->ops->cost(&b->table_plan, n, b->table_plan.windows, 1);
        if (fixed < plain || b->table_use > 0) *plan = b->table_plan, table = true;
    }
    if (uses_table) *uses_table = table;
}

void bases_scalar_from_bytes(mulred_scalar256 *s, const uint8_t in[32], bool big_endian)
{
    for (int l = 0; l < 4; l++) {
        uint64_t v = 0;
        if (big_endian)
            for (int i = 0; i < 8; i++) v = v << 8 | in[(3 - l) * 8 + i];
        else
            v = mulred_load_le64(in + 8 * l);
        s->l[l] = v;
    }
}

/* Scalars in format f as limbs: s itself (LIMBS), or *buf (allocated) filled. */
static const mulred_scalar256 *scalars_as_limbs(const void *s, mulred_scalar_format f, size_t n,
                                                mulred_scalar256 **buf)
{
    *buf = NULL;
    if (f == MULRED_SCALARS_LIMBS) return s;
    mulred_scalar256 *k = mulred_alloc_large(n * sizeof *k);
    if (!k) return NULL;
    const uint8_t *in = s;
    for (size_t i = 0; i < n; i++)
        bases_scalar_from_bytes(&k[i], in + 32 * i, f == MULRED_SCALARS_BE32);
    *buf = k;
    return k;
}

mulred_status bases_msm_one(void *r, const mulred_bases *b, const void *scalars,
                            mulred_scalar_format f, size_t n, int threads, mulred_error *err)
{
    if (n > b->size)
        return mulred_error_set(err, MULRED_EINPUT, "scalar vector of %zu points, the set has %zu",
                                n, b->size);
    if (n == 0) /* as a pair file of no pairs */
        return mulred_error_set(err, MULRED_EINPUT, "no scalars (empty input)");
    mulred_scalar256 *buf;
    const mulred_scalar256 *k = scalars_as_limbs(scalars, f, n, &buf);
    if (!k) return mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
    mulred_msm_plan plan;
    bool table;
    mulred_bases_plan(b, n, &plan, &table);
    const int T = mulred_threads_resolve(threads);
    mulred_status st = MULRED_OK;
    if (table && T > 1) {
        st = bases_fixed_threads(r, b, k, n, T, err);
    } else if (T > 1) {
        st = mulred_msm_curve_windows(b->curve, r, &plan, 0, plan.windows, b->points, k, n, T, err);
    } else { /* the engine's one-thread kernels on one scratch */
        const size_t bytes =
            table ? b->ops->fixed_scratch(&plan, n) : b->ops->serial_scratch(&plan, n);
        void *scratch = mulred_alloc_large(bytes);
        if (!scratch) {
            st = mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
        } else {
            if (table)
                b->ops->fixed_var(r, &plan, b->table, k, n, scratch);
            else
                b->ops->serial_var(r, &plan, b->points, k, n, scratch);
            b->ops->canonical(r);
            free(scratch);
        }
    }
    free(buf);
    return st;
}

static bool format_ok(mulred_scalar_format f)
{
    return f >= MULRED_SCALARS_BE32 && f <= MULRED_SCALARS_LIMBS;
}

mulred_status mulred_bases_msm(void *r, const mulred_bases *b, const void *scalars,
                               mulred_scalar_format f, size_t n, int threads, mulred_error *err)
{
    MULRED_ARG_CHECK(BASES_OK(b) && r && (scalars || n == 0) && format_ok(f));
    return bases_msm_one(r, b, scalars, f, n, threads, err);
}

mulred_status mulred_bases_msm_encoded(uint8_t *out, size_t out_len, const mulred_bases *b,
                                       const void *scalars, mulred_scalar_format f, size_t n,
                                       int threads, mulred_error *err)
{
    MULRED_ARG_CHECK(BASES_OK(b) && out && (scalars || n == 0) && format_ok(f));
    static const size_t result_bytes[4] = {128, 64, 256, 128}; /* mulred_msm_curve_encode */
    MULRED_ARG_CHECK(out_len >= result_bytes[b->curve]);
    mulred_g2_381_jacobian r; /* the largest Jacobian point */
    const mulred_status st = bases_msm_one(&r, b, scalars, f, n, threads, err);
    if (st == MULRED_OK) mulred_msm_curve_encode(b->curve, out, &r);
    return st;
}

mulred_status mulred_bases_msm_many(void *r, const mulred_bases *b, const void *const *scalars,
                                    size_t k, mulred_scalar_format f, size_t n, int threads,
                                    mulred_error *err)
{
    MULRED_ARG_CHECK(BASES_OK(b) && (r || k == 0) && (scalars || k == 0) && format_ok(f));
    for (size_t j = 0; j < k; j++) MULRED_ARG_CHECK(scalars[j] || n == 0);
    if (k && (n > b->size || n == 0)) return bases_msm_one(r, b, NULL, f, n, 1, err); /* why */
    const int T = mulred_threads_resolve(threads);
    const size_t J = b->ops->jacobian_bytes;
    if (T > 1 && k >= (size_t)T) {
        mulred_status *st = malloc(k * sizeof *st);
        mulred_error *errs = malloc(k * sizeof *errs);
        if (!st || !errs) {
            free(st), free(errs);
            return mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
        }
        const bases_scalar_lists lists = {scalars, k, n, f};
        bases_msm_side_by_side(bases_msm_one, r, b, &lists, T, st, errs);
        mulred_status status = MULRED_OK;
        for (size_t j = 0; j < k && status == MULRED_OK; j++)
            if (st[j] != MULRED_OK) {
                status = st[j];
                if (err) *err = errs[j];
            }
        free(st), free(errs);
        return status;
    }
    for (size_t j = 0; j < k; j++) {
        const mulred_status st = bases_msm_one((uint8_t *)r + j * J, b, scalars[j], f, n, T, err);
        if (st != MULRED_OK) return st;
    }
    return MULRED_OK;
}

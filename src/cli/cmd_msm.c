/* mulred msm: Σ sᵢ·Pᵢ on G1 of BLS12-381 or BN254 over every rank of the MPI job and its OpenMP
 * threads; also `kind = msm` in a job file (one options struct and one key table for both,
 * cli/job.h).
 *
 * Phases, each timed (min/avg/max over ranks):
 *   read / generate  hex files: every rank counts the digits of its run of units and the counts
 *                    are summed over ranks (an allreduce of a vector group), so each rank finds
 *                    its slice; then each rank reads and decodes its slice (binary files: at
 *                    once); synthetic sets: each rank generates its slice
 *   validate         the subgroup check, the points of a slice shared by the ranks of its column
 *   msm              each rank's tile: its slice x its window group, with its threads, shifted
 *   reduce           mulred_dist_reduce with the curve's point-addition group
 * The grid (point slices x window groups, mulred/msm_grid.h) is computed by every rank from
 * the same inputs; the ranks then check that they agree (a fingerprint's min and max), since a
 * rank with another grid would silently add the wrong tiles. A failure on any rank is agreed
 * on by all before the next collective: a bad file ends every rank with exit 2, no result.
 * With --checkpoint the grid is not used: the ranks share tiles fixed by the job alone, save
 * each and resume from them (see "checkpoints" below), and meet in the same reduce. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/job.h"
#include "mulred/checkpoint.h"
#include "mulred/curve.h"
#include "mulred/dist.h"
#include "mulred/msm.h"
#include "mulred/msm_grid.h"
#include "mulred/msm_io.h"
#include "mulred/plan.h"
#include "util/util.h"

static void msm_usage(void)
{
    cli_out(
        "Usage: mulred msm --curve bls12-381|bn254 (--input FILE [--binary] | --synthetic N\n"
        "                  [--seed S]) [--threads T] [--grid SxG] [--memory-per-rank BYTES]\n"
        "                  [--checkpoint DIR [--checkpoint-unit N]] [--json] [--output FILE]\n"
        "\n"
        "Multi-scalar multiplication R = s1*P1 + ... + sk*Pk on G1 of BLS12-381 or BN254\n"
        "(Pippenger with signed digits, batch-affine buckets, GLV). Under mpirun the ranks form\n"
        "a grid of point slices x window groups chosen by a cost model; each rank reads or\n"
        "generates only its slice, computes its tile with its threads, and the partial sums\n"
        "meet in MPI_Reduce. The result does not depend on the ranks, threads or grid.\n"
        "Variable time: for public data (commitments, provers' inputs), never secret scalars.\n"
        "\n"
        "Inputs (exactly one):\n"
        "  --input FILE      pairs of a point and a 32-byte big-endian scalar:\n"
        "                    bls12-381: 160-byte records, the 128-byte EIP-2537 point\n"
        "                    (x, y: 16 zero bytes + 48 bytes each; all zero = infinity);\n"
        "                    bn254: 96-byte records, x and y of 32 bytes (EIP-196; (0, 0) =\n"
        "                    infinity). Hex text (either case; whitespace anywhere and a 0x\n"
        "                    at the start of a token are ignored), or raw bytes with --binary.\n"
        "                    Scalars may be any 256-bit value. Every point is checked before\n"
        "                    any arithmetic (padding, coordinates < p, on the curve, in G1).\n"
        "                    A regular file: ranks read it at offsets.\n"
        "  --synthetic N     N valid G1 points and scalars below r generated from (seed, index)\n"
        "                    on every rank (no file); point i is a known multiple of G\n"
        "  --seed S          seed of the synthetic set: decimal or 0x hex (default 1)\n"
        "\n"
        "Options:\n"
        "  --curve C         bls12-381 or bn254 (required)\n"
        "  --binary          --input holds raw bytes, not hex\n"
        "  --threads T       threads per rank, 1-4096 (default: OMP_NUM_THREADS, else all\n"
        "                    cores)\n"
        "  --grid SxG        force S point slices x G window groups (S*G <= ranks, else exit\n"
        "                    3; the rest idle); default: the grid of least modelled time\n"
        "  --memory-per-rank BYTES  the most a rank may hold (points, scalars, scratch; 4G =\n"
        "                    4e9); default 80%% of the node's memory over its ranks\n"
        "  --checkpoint DIR  keep finished tiles in DIR (created 0700; refused when others may\n"
        "                    write it) and resume from it: a rerun, with any rank or thread\n"
        "                    count, loads the finished tiles. Tiles are slices of points x\n"
        "                    window groups of a plan made from the point count alone (not\n"
        "                    with --grid or --memory-per-rank); --json adds resumed_units,\n"
        "                    computed_units and the tile layout\n"
        "  --checkpoint-unit N  points per slice (default: 2^16, or 2^(c+3) for window\n"
        "                    width c above 13; each slice at least 0.3 s of one thread's work)\n"
        "  --json            one JSON object: result, curve, points, seconds (the MSM alone:\n"
        "                    tiles and reduce, not reading), points_per_second, window, glv,\n"
        "                    windows, grid, ranks, threads, nodes, phases (read, generate,\n"
        "                    validate, msm, reduce, total: min/avg/max over ranks), version,\n"
        "                    git_revision\n"
        "  --output FILE     write the result to FILE instead of standard output\n"
        "  -h, --help        this help\n"
        "A flag may carry a value, as in a job file: --binary=false, --json=true.\n"
        "\n"
        "Output: the result as hex: bls12-381 its 128-byte EIP-2537 encoding, bn254 its 64-byte\n"
        "x || y (all zero: the point at infinity).\n"
        "Exit status: 0 success, 1 usage error, 2 bad input (the message names the file, the\n"
        "pair index or byte offset and the failed check; no result is printed), 3 runtime or\n"
        "MPI failure.\n");
}

typedef struct {
    mulred_msm_curve curve;
    bool has_curve;
    const char *input;
    bool binary;
    uint64_t synthetic, seed;
    bool has_synthetic;
    int threads; /* 0: OMP_NUM_THREADS, else all cores */
    unsigned grid_slices, grid_groups;
    uint64_t memory;          /* 0: from the node's memory */
    const char *checkpoint;   /* NULL: none */
    uint64_t checkpoint_unit; /* points per slice; 0: the default of ckpt_layout */
} msm_opts;

/* ---- keys ---- */

static int set_curve(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    msm_opts *o = vo;
    if (mulred_msm_curve_parse(&o->curve, v))
        return cli_bad_value(p, v, "bls12-381 or bn254", why, cap);
    o->has_curve = true;
    return MULRED_OK;
}

static int set_input(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    const char *kept = cli_parser_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((msm_opts *)vo)->input = kept;
    return MULRED_OK;
}

static int set_binary(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    return cli_parse_bool(&((msm_opts *)vo)->binary, v, p, why, cap) ? CLI_EUSAGE : MULRED_OK;
}

static int set_synthetic(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    msm_opts *o = vo;
    if (cli_parse_count(&o->synthetic, v, 1, UINT64_C(1) << 40, p, why, cap)) return CLI_EUSAGE;
    o->has_synthetic = true;
    return MULRED_OK;
}

static int set_seed(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    return cli_parse_uint(&((msm_opts *)vo)->seed, v, UINT64_MAX, p, why, cap) ? CLI_EUSAGE
                                                                               : MULRED_OK;
}

static int set_threads(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    uint64_t n;
    if (cli_parse_count(&n, v, 1, 4096, p, why, cap)) return CLI_EUSAGE;
    ((msm_opts *)vo)->threads = (int)n;
    return MULRED_OK;
}

/* SxG: two counts from 1 to 2^20 joined by an 'x'. */
static int set_grid(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    static const char expected[] = "SLICESxGROUPS, two counts from 1 to 1048576: 2x1, 1x4";
    msm_opts *o = vo;
    const char *x = strchr(v, 'x');
    char a[32], b[32];
    uint64_t s, g;
    if (!x || (size_t)(x - v) >= sizeof a || strlen(x + 1) >= sizeof b)
        return cli_bad_value(p, v, expected, why, cap);
    memcpy(a, v, (size_t)(x - v));
    a[x - v] = '\0';
    strcpy(b, x + 1);
    if (mulred_parse_count(a, &s) || mulred_parse_count(b, &g) || s < 1 || g < 1 ||
        s > (1u << 20) || g > (1u << 20))
        return cli_bad_value(p, v, expected, why, cap);
    o->grid_slices = (unsigned)s;
    o->grid_groups = (unsigned)g;
    return MULRED_OK;
}

static int set_memory(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    return cli_parse_count(&((msm_opts *)vo)->memory, v, 1, UINT64_MAX, p, why, cap) ? CLI_EUSAGE
                                                                                     : MULRED_OK;
}

static int set_checkpoint(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    const char *kept = cli_parser_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((msm_opts *)vo)->checkpoint = kept;
    return MULRED_OK;
}

static int set_checkpoint_unit(void *vo, const char *v, cli_parser *p, char *why, size_t cap)
{
    return cli_parse_count(&((msm_opts *)vo)->checkpoint_unit, v, 1, UINT32_MAX, p, why, cap)
               ? CLI_EUSAGE
               : MULRED_OK;
}

static const cli_key msm_keys[] = {
    /* name, flag, repeatable, command line only, setter */
    {"curve", false, false, false, set_curve},
    {"input", false, false, false, set_input},
    {"binary", true, false, false, set_binary},
    {"synthetic", false, false, false, set_synthetic},
    {"seed", false, false, false, set_seed},
    {"threads", false, false, false, set_threads},
    {"grid", false, false, false, set_grid},
    {"memory-per-rank", false, false, false, set_memory},
    {"checkpoint", false, false, false, set_checkpoint},
    {"checkpoint-unit", false, false, false, set_checkpoint_unit},
};

static void msm_defaults(void *vo)
{
    msm_opts *o = vo;
    memset(o, 0, sizeof *o);
    o->seed = 1;
}

static int msm_check(const void *vo, const char *dash, const char **fault, char *why, size_t cap)
{
    const msm_opts *o = vo;
    if (!o->has_curve) {
        *fault = NULL;
        snprintf(why, cap, "no curve: give %scurve bls12-381 or %scurve bn254", dash, dash);
        return CLI_EUSAGE;
    }
    if (!o->input == !o->has_synthetic) {
        *fault = o->input ? "synthetic" : NULL;
        snprintf(why, cap, "give exactly one input: %sinput FILE or %ssynthetic N", dash, dash);
        return CLI_EUSAGE;
    }
    if (o->binary && !o->input) {
        *fault = "binary";
        snprintf(why, cap, "%sbinary applies to %sinput", dash, dash);
        return CLI_EUSAGE;
    }
    if (o->checkpoint_unit && !o->checkpoint) {
        *fault = "checkpoint-unit";
        snprintf(why, cap, "%scheckpoint-unit needs %scheckpoint", dash, dash);
        return CLI_EUSAGE;
    }
    if (o->checkpoint && (o->grid_slices || o->memory)) {
        *fault = o->grid_slices ? "grid" : "memory-per-rank";
        snprintf(why, cap,
                 "%s%s chooses the grid, which %scheckpoint does not use (its tiles are slices "
                 "of %scheckpoint-unit points)",
                 dash, o->grid_slices ? "grid" : "memory-per-rank", dash, dash);
        return CLI_EUSAGE;
    }
    return MULRED_OK;
}

/* ---- run ---- */

enum { PH_READ, PH_GENERATE, PH_VALIDATE, PH_MSM, PH_REDUCE, PH_TOTAL, NPHASES };
static const char *phase_names[NPHASES] = {"read", "generate", "validate",
                                           "msm",  "reduce",   "total"};

typedef struct {
    char hex[2 * 128 + 1];
    uint64_t points;
    int ranks, threads, nodes;
    mulred_msm_grid grid;
    double phases[NPHASES][3];
    double seconds; /* rank 0: from the validated inputs to the reduced result */
    /* with --checkpoint: the tile layout, and units over all ranks */
    uint64_t slice_points, units, resumed_units, computed_units;
    double checkpoint_seconds; /* the slowest rank's time opening the store and saving */
} msm_result;

/* A Jacobian point of either curve. */
typedef struct {
    uint64_t l[18];
} msm_jac;

/* Per-curve entry points. */
typedef struct {
    void (*plan)(mulred_msm_plan *plan, size_t n, const mulred_msm_options *opts);
    int (*windows)(void *r, const mulred_msm_plan *plan, unsigned w0, unsigned w1,
                   const void *points, const mulred_scalar256 *scalars, size_t n, int threads,
                   mulred_error *err);
    void (*shift)(void *r, const void *a, unsigned bits);
    size_t result_bytes;
    void (*encode)(uint8_t *out, const void *jac);
} msm_ops;

static int g381_windows(void *r, const mulred_msm_plan *plan, unsigned w0, unsigned w1,
                        const void *points, const mulred_scalar256 *scalars, size_t n, int threads,
                        mulred_error *err)
{
    return mulred_g1_381_msm_windows_var(r, plan, w0, w1, points, scalars, n, threads, err);
}
static void g381_shift(void *r, const void *a, unsigned bits)
{
    mulred_g1_381_msm_shift(r, a, bits);
}
static void g381_encode(uint8_t *out, const void *jac)
{
    mulred_g1_381_affine a;
    mulred_g1_381_jacobian_to_affine(&a, jac);
    mulred_g1_381_encode_eip2537(out, &a);
}
static int g254_windows(void *r, const mulred_msm_plan *plan, unsigned w0, unsigned w1,
                        const void *points, const mulred_scalar256 *scalars, size_t n, int threads,
                        mulred_error *err)
{
    return mulred_g1_254_msm_windows_var(r, plan, w0, w1, points, scalars, n, threads, err);
}
static void g254_shift(void *r, const void *a, unsigned bits)
{
    mulred_g1_254_msm_shift(r, a, bits);
}
static void g254_encode(uint8_t *out, const void *jac)
{
    mulred_g1_254_affine a;
    mulred_g1_254_jacobian_to_affine(&a, jac);
    mulred_g1_254_encode_eip196(out, &a);
}

static const msm_ops ops[2] = {
    {mulred_g1_381_msm_plan, g381_windows, g381_shift, 128, g381_encode},
    {mulred_g1_254_msm_plan, g254_windows, g254_shift, 64, g254_encode},
};

/* Digit counts of a hex pair file summed over ranks: a vector of u64 as one group element. */
static void counts_identity(void *elem, const mulred_group *g)
{
    memset(elem, 0, g->elem_bytes);
}

static void counts_combine(void *acc, const void *in, const mulred_group *g)
{
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i < g->elem_bytes / sizeof *a; i++) a[i] += b[i];
}

/* Every rank counts its run of units; the sums reach every rank; the file learns its pairs. */
static int index_hex_file(mulred_pair_file *f, int rank, int nranks, mulred_error *err)
{
    const uint64_t units = mulred_pair_file_units(f);
    if (!units) return mulred_dist_agree(err);
    if (units > (uint64_t)INT32_MAX / sizeof(uint64_t)) {
        mulred_error_set(err, MULRED_ERUNTIME, "msm: pair file too large to index (%llu units)",
                         (unsigned long long)units);
        return mulred_dist_agree(err);
    }
    uint64_t *digits = calloc(units, sizeof *digits);
    if (!digits) mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    const mulred_unit_range r = mulred_plan_units(units, rank, nranks);
    if (err->status == MULRED_OK) mulred_pair_file_count(digits + r.first, f, r.first, r.end, err);
    if (mulred_dist_agree(err)) {
        free(digits);
        return err->status;
    }
    const mulred_group sum = {"digit-counts", units * sizeof *digits, counts_identity,
                              counts_combine, NULL};
    if (mulred_dist_allreduce(digits, &sum, err) == MULRED_OK)
        mulred_pair_file_index(f, digits, err);
    free(digits);
    return mulred_dist_agree(err);
}

/* 80% of the node's memory shared by its ranks. */
static uint64_t default_memory(int nranks, int nodes)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    const uint64_t per_node = (uint64_t)pages * (uint64_t)page / 10 * 8;
    const uint64_t ranks_here = (uint64_t)((nranks + nodes - 1) / (nodes > 0 ? nodes : 1));
    return per_node / (ranks_here ? ranks_here : 1);
}

/* A number every rank computes from its grid; equal on all ranks iff their grids are. */
static double grid_fingerprint(const mulred_msm_grid *g)
{
    uint64_t h = 1469598103934665603ull;
    const uint64_t v[5] = {g->slices, g->groups, g->window_bits, g->glv, g->top_windows};
    for (int i = 0; i < 5; i++) h = (h ^ v[i]) * 1099511628211ull;
    return (double)(h >> 12); /* 52 bits: exact in a double */
}

/* ---- checkpoints ----
 * A checkpointed MSM is cut into tiles that depend on the job alone: the window width c and the
 * GLV choice come from the plan for all n points (made with the scalar lanes' cost model, so
 * that a machine with 8-lane kernels plans the same c), the points into slices of slice_points
 * (the last one shorter), each slice's W windows into `groups` contiguous window groups. Unit
 * u = slice·groups + group is the tile (slice) x (windows [⌊W·k/G⌋, ⌊W·(k+1)/G⌋)), shifted by
 * 2^(c·w0): the units partition points x windows, so their sum is the MSM, on any ranks.
 * Sizes: a slice repeats the bucket reduction of each window (2^(c−1) buckets, about 2
 * additions each, against 2 bucket additions per point with GLV), so a slice holds at least
 * 2^(c+3) points (overhead <= 1/16) and at least 2^16 (about 0.3 s of one thread's work for
 * all windows, against about 4 ms to save a unit). A job of one slice splits its windows into
 * two groups, so that two ranks can share it; otherwise a unit holds every window, because the
 * threads of mulred_G_msm_windows_var share a unit's windows as whole tiles while they are at
 * least 2 per thread: 5 windows on 2 threads leave one idle a fifth of the time (measured: a
 * 2^18-point MSM in 2 slices x 2 groups took 1.21x the uncheckpointed time at 2 threads, in 2
 * slices 1.03x; medians of 9 interleaved rounds). The units are planned over ranks by count
 * (mulred_plan_units): a rank's units are consecutive, mostly whole slices, and it reads or
 * generates a slice only when one of its units of that slice is not saved. */
enum { CKPT_SLICE_MIN_LOG = 16, CKPT_MIN_UNITS = 2 };

typedef struct {
    unsigned window_bits, windows, groups;
    bool glv;
    uint64_t slice_points, slices, units;
} ckpt_layout;

static void ckpt_layout_make(ckpt_layout *L, const msm_opts *o, uint64_t n)
{
    mulred_msm_options po;
    memset(&po, 0, sizeof po);
    po.lanes = MULRED_MSM_LANES_SCALAR;
    mulred_msm_plan plan;
    ops[o->curve].plan(&plan, (size_t)n, &po);
    L->window_bits = plan.window_bits;
    L->glv = plan.glv;
    L->windows = plan.windows;
    unsigned lg =
        plan.window_bits + 3 > CKPT_SLICE_MIN_LOG ? plan.window_bits + 3 : CKPT_SLICE_MIN_LOG;
    L->slice_points = o->checkpoint_unit ? o->checkpoint_unit : UINT64_C(1) << lg;
    L->slices = mulred_plan_unit_count(n, L->slice_points);
    uint64_t g =
        L->slices >= CKPT_MIN_UNITS ? 1 : mulred_plan_unit_count(CKPT_MIN_UNITS, L->slices);
    L->groups = g < L->windows ? (unsigned)g : L->windows;
    L->units = L->slices * L->groups;
}

/* Describes the job to the store: curve (also in the group name), input, plan and tiles. */
static int ckpt_describe(mulred_ckpt_job *job, const msm_opts *o, uint64_t n, const ckpt_layout *L,
                         mulred_error *err)
{
    int rc = mulred_ckpt_job_add(job, err, "curve", "%s", mulred_msm_curve_name(o->curve));
    if (rc == MULRED_OK && o->input) rc = mulred_ckpt_job_add_file(job, "input", o->input, err);
    if (rc == MULRED_OK && o->input)
        rc = mulred_ckpt_job_add(job, err, "input.format", "%s", o->binary ? "binary" : "hex");
    if (rc == MULRED_OK)
        rc = mulred_ckpt_job_add(job, err, "points", "%llu", (unsigned long long)n);
    if (rc == MULRED_OK && !o->input)
        rc = mulred_ckpt_job_add(job, err, "seed", "%llu", (unsigned long long)o->seed);
    if (rc == MULRED_OK)
        rc = mulred_ckpt_job_add(job, err, "msm.window_bits", "%u", L->window_bits);
    if (rc == MULRED_OK) rc = mulred_ckpt_job_add(job, err, "msm.glv", "%d", L->glv ? 1 : 0);
    if (rc == MULRED_OK) rc = mulred_ckpt_job_add(job, err, "msm.windows", "%u", L->windows);
    if (rc == MULRED_OK)
        rc = mulred_ckpt_job_add(job, err, "tiles.slice_points", "%llu",
                                 (unsigned long long)L->slice_points);
    if (rc == MULRED_OK) rc = mulred_ckpt_job_add(job, err, "tiles.window_groups", "%u", L->groups);
    if (rc == MULRED_OK)
        rc = mulred_ckpt_job_add(job, err, "tiles.rule",
                                 "unit s*G+k: points [s*P, s*P+P), windows [W*k/G, W*(k+1)/G), "
                                 "shifted by c*(W*k/G)");
    return rc;
}

/* This rank's share of the units: loads the saved ones, computes (reading or generating their
 * slices) and saves the others, and combines all into *acc (the identity on entry). */
static int ckpt_msm(const msm_opts *o, msm_result *res, mulred_pair_file *file, uint64_t n, int T,
                    int rank, int nranks, msm_jac *acc, double local[], mulred_error *err)
{
    const mulred_msm_curve c = o->curve;
    const msm_ops *op = &ops[c];
    const mulred_group *group = mulred_msm_point_group(c);
    const size_t aff = mulred_msm_affine_bytes(c);
    ckpt_layout L;
    ckpt_layout_make(&L, o, n);
    res->slice_points = L.slice_points;
    res->units = L.units;
    res->grid.slices = (unsigned)(L.slices < UINT32_MAX ? L.slices : UINT32_MAX);
    res->grid.groups = L.groups;
    res->grid.window_bits = L.window_bits;
    res->grid.glv = L.glv;
    res->grid.windows = L.windows;

    double t = mulred_wtime();
    mulred_ckpt *ck = NULL;
    mulred_ckpt_job *job = mulred_ckpt_job_new(group, L.units);
    int rc = job ? MULRED_OK : mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    if (rc == MULRED_OK) rc = ckpt_describe(job, o, n, &L, err);
    if (rc == MULRED_OK) rc = mulred_ckpt_open(&ck, o->checkpoint, job, err);
    mulred_ckpt_job_free(job);
    res->checkpoint_seconds = mulred_wtime() - t;

    /* the plan of the tiles: c and GLV forced, the rest (speed only) for this CPU and slice */
    mulred_msm_options mo;
    memset(&mo, 0, sizeof mo);
    mo.window_bits = (int)L.window_bits;
    mo.glv = L.glv ? 1 : -1;
    mulred_msm_plan plan;
    op->plan(&plan, (size_t)(L.slice_points < n ? L.slice_points : n), &mo);
    if (plan.windows != L.windows)
        rc = mulred_error_set(err, MULRED_ERUNTIME, "msm: the tile plan has %u windows, not %u",
                              plan.windows, L.windows);

    const uint64_t cap = L.slice_points < n ? L.slice_points : n;
    void *points = NULL;
    mulred_scalar256 *scalars = NULL;
    const mulred_unit_range share = mulred_plan_units(L.units, rank, nranks);
    uint64_t resumed = 0, computed = 0;
    for (uint64_t s = share.first / L.groups; rc == MULRED_OK && s * L.groups < share.end; s++) {
        const uint64_t u0 = s * L.groups > share.first ? s * L.groups : share.first;
        const uint64_t u1 = (s + 1) * L.groups < share.end ? (s + 1) * L.groups : share.end;
        bool need = false;
        for (uint64_t u = u0; u < u1; u++) {
            if (mulred_ckpt_state(ck, u) != MULRED_CKPT_LOADED) {
                need = true;
                continue;
            }
            msm_jac part;
            mulred_ckpt_get(ck, u, &part);
            group->combine(acc, &part, group);
            resumed++;
        }
        if (!need) continue;

        /* read or generate the slice, and validate it, before any unit of it is saved */
        const uint64_t p0 = s * L.slice_points, p1 = p0 + cap < n ? p0 + cap : n;
        const size_t ns = (size_t)(p1 - p0);
        if (!points) {
            points = malloc(cap * aff + 1);
            scalars = malloc(cap * sizeof *scalars + 1);
            if (!points || !scalars) {
                rc = mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
                break;
            }
        }
        t = mulred_wtime();
        if (file)
            rc = mulred_pair_file_read(points, scalars, file, p0, p1, T, err);
        else
            rc = mulred_msm_synth(points, scalars, c, o->seed, p0, ns, T, err);
        local[file ? PH_READ : PH_GENERATE] += mulred_wtime() - t;
        t = mulred_wtime();
        if (rc == MULRED_OK && file)
            rc = mulred_msm_check_subgroup(points, ns, c, p0, o->input, T, err);
        local[PH_VALIDATE] += mulred_wtime() - t;

        for (uint64_t u = u0; u < u1 && rc == MULRED_OK; u++) {
            if (mulred_ckpt_state(ck, u) == MULRED_CKPT_LOADED) continue;
            if (mulred_ckpt_state(ck, u) == MULRED_CKPT_CORRUPT)
                fprintf(stderr, "mulred: warning: %s; recomputing unit %llu\n",
                        mulred_ckpt_note(ck, u), (unsigned long long)u);
            const unsigned k = (unsigned)(u % L.groups);
            const unsigned w0 = (unsigned)((uint64_t)L.windows * k / L.groups),
                           w1 = (unsigned)((uint64_t)L.windows * (k + 1) / L.groups);
            msm_jac part;
            group->identity(&part, group); /* every byte defined: the element is saved whole */
            t = mulred_wtime();
            rc = op->windows(&part, &plan, w0, w1, points, scalars, ns, T, err);
            if (rc) break;
            op->shift(&part, &part, L.window_bits * w0);
            const double t1 = mulred_wtime();
            local[PH_MSM] += t1 - t;
            rc = mulred_ckpt_save(ck, u, &part, ns, err);
            res->checkpoint_seconds += mulred_wtime() - t1;
            if (rc) break;
            group->combine(acc, &part, group);
            computed++;
        }
    }
    free(points);
    free(scalars);
    mulred_ckpt_close(ck);
    res->resumed_units = resumed;
    res->computed_units = computed;
    return rc;
}

static int msm_run(const void *vo, void *vr, mulred_error *err)
{
    const msm_opts *o = vo;
    msm_result *res = vr;
    memset(res, 0, sizeof *res);
    const int rank = mulred_dist_rank(), nranks = mulred_dist_size();
    const mulred_msm_curve c = o->curve;
    const msm_ops *op = &ops[c];
    const size_t aff = mulred_msm_affine_bytes(c);
    /* outside the timed phases, like MPI_Init: the OpenMP team starts */
    const int T = mulred_threads_start(o->threads);
    double local[NPHASES] = {0};
    const double t0 = mulred_wtime();

    mulred_pair_file *file = NULL;
    void *points = NULL;
    mulred_scalar256 *scalars = NULL;
    uint64_t n = o->synthetic;
    if (o->input) {
        mulred_pair_file_open(&file, o->input, c, o->binary, 0, err);
        if (mulred_dist_agree(err) || index_hex_file(file, rank, nranks, err)) goto done;
        n = mulred_pair_file_pairs(file);
    }

    int nodes = 1;
    if (mulred_dist_node_count(&nodes, err)) goto done;
    if (o->checkpoint) {
        /* tiles of the job, each rank its share, then the reduce as below */
        msm_jac acc;
        const mulred_group *group = mulred_msm_point_group(c);
        group->identity(&acc, group);
        if (file) local[PH_READ] = mulred_wtime() - t0; /* opening and indexing the file */
        ckpt_msm(o, res, file, n, T, rank, nranks, &acc, local, err);
        if (mulred_dist_agree(err)) goto done;
        const double t4 = mulred_wtime();
        mulred_dist_reduce(&acc, group, 0, err);
        local[PH_REDUCE] = mulred_wtime() - t4;
        if (mulred_dist_agree(err)) goto done;
        if (rank == 0) {
            uint8_t out[128];
            op->encode(out, &acc);
            mulred_hex_encode(res->hex, out, op->result_bytes);
        }
        local[PH_TOTAL] = mulred_wtime() - t0;
        for (int p = 0; p < NPHASES && err->status == MULRED_OK; p++)
            mulred_dist_minavgmax(local[p], res->phases[p], err);
        double ck[3] = {0, 0, 0};
        uint64_t r = 0, k = 0;
        if (err->status == MULRED_OK) mulred_dist_minavgmax(res->checkpoint_seconds, ck, err);
        if (err->status == MULRED_OK) mulred_dist_sum_u64(&r, res->resumed_units, err);
        if (err->status == MULRED_OK) mulred_dist_sum_u64(&k, res->computed_units, err);
        res->checkpoint_seconds = ck[2];
        res->resumed_units = r, res->computed_units = k;
        /* the MSM alone: the slowest rank's tiles and the reduce */
        res->seconds = res->phases[PH_MSM][2] + res->phases[PH_REDUCE][2];
        res->points = n;
        res->ranks = nranks;
        res->threads = T;
        res->nodes = nodes;
        goto done;
    }

    /* the grid: the same on every rank, which the ranks check */
    mulred_msm_grid_params gp;
    mulred_msm_grid_defaults(&gp, c,
                             !o->input   ? MULRED_MSM_INPUT_SYNTHETIC
                             : o->binary ? MULRED_MSM_INPUT_BINARY
                                         : MULRED_MSM_INPUT_FILE,
                             n, nranks, T);
    gp.memory_per_rank = o->memory ? o->memory : default_memory(nranks, nodes);
    if (o->grid_slices) {
        if ((uint64_t)o->grid_slices * o->grid_groups > (uint64_t)nranks) {
            mulred_error_set(err, MULRED_ERUNTIME,
                             "msm: --grid %ux%u needs %llu ranks; this job has %d", o->grid_slices,
                             o->grid_groups, (unsigned long long)o->grid_slices * o->grid_groups,
                             nranks);
            mulred_dist_agree(err);
            goto done;
        }
        gp.slices = o->grid_slices, gp.groups = o->grid_groups;
    }
    if (mulred_msm_grid_plan(&res->grid, c, &gp, err) != MULRED_OK) {
        /* name the input and the way out: more ranks, or a larger --memory-per-rank */
        char why[sizeof err->message];
        const char *m = strncmp(err->message, "msm: ", 5) ? err->message : err->message + 5;
        snprintf(why, sizeof why, "%s", m);
        mulred_error_set(err, err->status,
                         "msm: %s%s%s; run on more ranks or raise --memory-per-rank",
                         o->input ? o->input : "", o->input ? ": " : "", why);
    }
    if (mulred_dist_agree(err)) goto done;
    double fp[3];
    if (mulred_dist_minavgmax(grid_fingerprint(&res->grid), fp, err)) goto done;
    if (fp[0] != fp[2]) {
        mulred_error_set(err, MULRED_ERUNTIME,
                         "msm: the ranks chose different grids (nodes of different kinds?)");
        mulred_dist_agree(err);
        goto done;
    }
    const mulred_msm_share share = mulred_msm_grid_share(&res->grid, n, rank);
    const size_t ns = (size_t)(share.point1 - share.point0);

    /* read or generate the slice */
    points = malloc(ns * aff + 1);
    scalars = malloc(ns * sizeof *scalars + 1);
    if (!points || !scalars) mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
    const double t1 = mulred_wtime();
    if (err->status == MULRED_OK) {
        if (file)
            mulred_pair_file_read(points, scalars, file, share.point0, share.point1, T, err);
        else
            mulred_msm_synth(points, scalars, c, o->seed, share.point0, ns, T, err);
    }
    const double t2 = mulred_wtime();
    local[file ? PH_READ : PH_GENERATE] = t2 - (file ? t0 : t1);
    if (mulred_dist_agree(err)) goto done;

    /* validate this rank's part of its column's points */
    const double t2v = mulred_wtime();
    if (file)
        mulred_msm_check_subgroup((uint8_t *)points + (share.check0 - share.point0) * aff,
                                  (size_t)(share.check1 - share.check0), c, share.check0, o->input,
                                  T, err);
    local[PH_VALIDATE] = mulred_wtime() - t2v;
    if (mulred_dist_agree(err)) goto done;
    const double t3 = mulred_wtime();

    /* the tile: slice x window group, shifted to its windows' weight */
    msm_jac partial;
    const mulred_group *group = mulred_msm_point_group(c);
    group->identity(&partial, group);
    if (!share.idle && ns) {
        const mulred_msm_options mo = mulred_msm_grid_options(&res->grid);
        mulred_msm_plan plan;
        op->plan(&plan, ns, &mo);
        if (op->windows(&partial, &plan, share.window0, share.window1, points, scalars, ns, T,
                        err) == MULRED_OK)
            op->shift(&partial, &partial, plan.window_bits * share.window0);
    }
    local[PH_MSM] = mulred_wtime() - t3;
    if (mulred_dist_agree(err)) goto done;
    const double t4 = mulred_wtime();
    mulred_dist_reduce(&partial, group, 0, err);
    const double t5 = mulred_wtime();
    local[PH_REDUCE] = t5 - t4;
    if (mulred_dist_agree(err)) goto done;
    if (rank == 0) {
        uint8_t out[128];
        op->encode(out, &partial);
        mulred_hex_encode(res->hex, out, op->result_bytes);
        res->seconds = t5 - t3;
    }
    local[PH_TOTAL] = mulred_wtime() - t0;
    for (int p = 0; p < NPHASES && err->status == MULRED_OK; p++)
        mulred_dist_minavgmax(local[p], res->phases[p], err);
    res->points = n;
    res->ranks = nranks;
    res->threads = T;
    res->nodes = nodes;
done:
    free(points);
    free(scalars);
    mulred_pair_file_close(file);
    return err->status;
}

/* ---- results ---- */

static double points_per_second(const msm_result *res)
{
    return res->seconds > 0 ? (double)res->points / res->seconds : 0;
}

static void msm_write_json(mulred_json_writer *w, const void *vo, const void *vr)
{
    const msm_opts *o = vo;
    const msm_result *res = vr;
    const mulred_msm_grid *g = &res->grid;
    mulred_jw_object_begin(w, NULL);
    mulred_jw_string(w, "result", res->hex);
    mulred_jw_string(w, "curve", mulred_msm_curve_name(o->curve));
    mulred_jw_uint(w, "points", res->points);
    if (o->input) {
        mulred_jw_string(w, "input", o->input);
        mulred_jw_bool(w, "binary", o->binary);
    } else {
        mulred_jw_uint(w, "synthetic", o->synthetic);
        mulred_jw_uint(w, "seed", o->seed);
    }
    mulred_jw_int(w, "ranks", res->ranks);
    mulred_jw_int(w, "threads", res->threads);
    mulred_jw_int(w, "nodes", res->nodes);
    mulred_jw_double(w, "seconds", res->seconds);
    mulred_jw_double(w, "points_per_second", points_per_second(res));
    if (o->checkpoint) {
        mulred_jw_uint(w, "resumed_units", res->resumed_units);
        mulred_jw_uint(w, "computed_units", res->computed_units);
        mulred_jw_uint(w, "units", res->units);
        mulred_jw_uint(w, "unit_points", res->slice_points);
        mulred_jw_int(w, "unit_window_groups", (int)g->groups);
        mulred_jw_double(w, "checkpoint_seconds", res->checkpoint_seconds);
    }
    mulred_jw_int(w, "window", (int)g->window_bits);
    mulred_jw_bool(w, "glv", g->glv);
    mulred_jw_int(w, "windows", (int)g->windows);
    mulred_jw_object_begin(w, "grid");
    mulred_jw_int(w, "slices", (int)g->slices);
    mulred_jw_int(w, "groups", (int)g->groups);
    /* with --checkpoint: the tiles' slices x window groups, on every rank that has units */
    const uint64_t used =
        o->checkpoint ? (res->units < (uint64_t)res->ranks ? res->units : (uint64_t)res->ranks)
                      : (uint64_t)g->slices * g->groups;
    mulred_jw_int(w, "ranks_used", (int)used);
    mulred_jw_int(w, "top_group_windows", (int)g->top_windows);
    mulred_jw_bool(w, "forced", o->grid_slices != 0);
    /* the model's single-thread seconds: the whole grid (slowest rank + reduce) and the
     * slowest rank's tile alone (what mulred report --project calibrates against) */
    mulred_jw_double(w, "model_seconds", g->cost_ns * 1e-9);
    mulred_jw_double(w, "model_msm_seconds", g->msm_ns * 1e-9);
    mulred_jw_object_end(w);
    mulred_jw_object_begin(w, "phases");
    for (int p = 0; p < NPHASES; p++) {
        mulred_jw_object_begin(w, phase_names[p]);
        mulred_jw_double(w, "min", res->phases[p][0]);
        mulred_jw_double(w, "avg", res->phases[p][1]);
        mulred_jw_double(w, "max", res->phases[p][2]);
        mulred_jw_object_end(w);
    }
    mulred_jw_object_end(w);
    mulred_jw_string(w, "version", mulred_version());
    mulred_jw_string(w, "git_revision", mulred_git_revision());
    mulred_jw_object_end(w);
}

static void msm_write_text(FILE *out, const void *vo, const void *vr)
{
    const msm_opts *o = vo;
    const msm_result *res = vr;
    const mulred_msm_grid *g = &res->grid;
    char t[32], r[48], in[32], v[32], red[32], tot[32];
    mulred_format_seconds(t, sizeof t, res->seconds);
    mulred_format_rate(r, sizeof r, points_per_second(res), "points");
    mulred_format_seconds(in, sizeof in, res->phases[o->input ? PH_READ : PH_GENERATE][2]);
    mulred_format_seconds(v, sizeof v, res->phases[PH_VALIDATE][2]);
    mulred_format_seconds(red, sizeof red, res->phases[PH_REDUCE][2]);
    mulred_format_seconds(tot, sizeof tot, res->phases[PH_TOTAL][2]);
    fprintf(out, "msm      %s\n", res->hex);
    if (o->input)
        fprintf(out, "input    %s, %llu pairs, curve %s\n", o->input,
                (unsigned long long)res->points, mulred_msm_curve_name(o->curve));
    else
        fprintf(out, "input    %llu synthetic pairs (seed %llu), curve %s\n",
                (unsigned long long)res->points, (unsigned long long)o->seed,
                mulred_msm_curve_name(o->curve));
    if (o->checkpoint) {
        fprintf(
            out, "tiles    %u slice%s of %llu points x %u window group%s; c = %u, %s, %u windows\n",
            g->slices, g->slices == 1 ? "" : "s", (unsigned long long)res->slice_points, g->groups,
            g->groups == 1 ? "" : "s", g->window_bits, g->glv ? "GLV" : "no GLV", g->windows);
        fprintf(out, "checkpoint %llu units resumed, %llu computed (%s)\n",
                (unsigned long long)res->resumed_units, (unsigned long long)res->computed_units,
                o->checkpoint);
    } else {
        fprintf(out, "grid     %u slice%s x %u window group%s; c = %u, %s, %u windows\n", g->slices,
                g->slices == 1 ? "" : "s", g->groups, g->groups == 1 ? "" : "s", g->window_bits,
                g->glv ? "GLV" : "no GLV", g->windows);
    }
    fprintf(out, "layout   %d rank%s x %d thread%s on %d node%s\n", res->ranks,
            res->ranks == 1 ? "" : "s", res->threads, res->threads == 1 ? "" : "s", res->nodes,
            res->nodes == 1 ? "" : "s");
    fprintf(out, "time     msm %s (%s); %s %s, validate %s, reduce %s, total %s\n", t, r,
            o->input ? "read" : "generate", in, v, red, tot);
}

static void msm_describe(char *out, size_t cap, const void *vo)
{
    snprintf(out, cap, "curve %s", mulred_msm_curve_name(((const msm_opts *)vo)->curve));
}

const cli_job_kind cli_kind_msm = {
    .name = "msm",
    .keys = msm_keys,
    .nkeys = sizeof msm_keys / sizeof msm_keys[0],
    .axis = "curve",
    .opts_size = sizeof(msm_opts),
    .result_size = sizeof(msm_result),
    .defaults = msm_defaults,
    .check = msm_check,
    .run = msm_run,
    .write_json = msm_write_json,
    .write_text = msm_write_text,
    .describe = msm_describe,
    .usage = msm_usage,
};

int mulred_cmd_msm(int argc, char **argv)
{
    return cli_run_kind(&cli_kind_msm, argc, argv);
}

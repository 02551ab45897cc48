/* mulred msm: Σ sᵢ·Pᵢ on G1 or G2 of BLS12-381 or BN254 over every rank of the MPI job and its
 * OpenMP threads; also `kind = msm` in a job file (one options struct and one key table for both,
 * cli/job.h). The options become one mulred_mpi_msm job (mulred/mulred_mpi.h, src/mpi/mpi_msm.c,
 * which describes the phases, the grid and the checkpoints); this file parses and prints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_msm.h"
#include "cli/cmd_msm_print.h"
#include "cli/kind.h"
#include "cli/progress.h"
#include "mulred/mulred_mpi.h"
#include "output/result_fields.h"
#include "util/util.h"

static void msm_usage(void)
{
    mulred_out(
        "Usage: mulred msm --curve bls12-381|bn254 [--group g1|g2]\n"
        "                  (--input FILE [--binary] | --synthetic N\n"
        "                  [--seed S] [--write-pairs FILE]) [--threads T] [--grid SxG]\n"
        "                  [--memory-per-rank BYTES] [--checkpoint DIR] [--checkpoint-unit N]\n"
        "                  [--schedule S] [--stall-timeout S] [--json] [--output FILE]\n"
        "       mulred msm --curve C [--group G] --points FILE [--encoding E] [--binary]\n"
        "                  [--precompute L] [--cache | --save FILE] --scalars FILE\n"
        "                  [--scalars FILE ...] [--little-endian] [--threads T] [--json]\n"
        "       mulred msm --bases FILE [--curve C [--group G]] --scalars FILE ... [...]\n"
        "\n"
        "Multi-scalar multiplication R = s1*P1 + ... + sk*Pk on G1 or G2 of BLS12-381 or BN254\n"
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
        "                    --group g2: G2 points, 288-byte records with the 256-byte\n"
        "                    EIP-2537 G2 point (x.c0, x.c1, y.c0, y.c1) for bls12-381, 160-byte\n"
        "                    records with the 128-byte EIP-197 point (x imaginary, x real,\n"
        "                    y imaginary, y real) for bn254; the result in the same encoding.\n"
        "                    Scalars may be any 256-bit value. Every point is checked before\n"
        "                    any arithmetic (padding, coordinates < p, on the curve, in G1).\n"
        "                    A regular file: ranks read it at offsets.\n"
        "  --synthetic N     N valid G1 (or G2) points and scalars below r generated from\n"
        "                    (seed, index)\n"
        "                    on every rank (no file); point i is a known multiple of G\n"
        "  --seed S          seed of the synthetic set: decimal or 0x hex (default 1)\n"
        "  --write-pairs FILE  also write the synthetic set to FILE as a pair file (hex, one\n"
        "                    pair per line: what --input reads) before computing its MSM\n"
        "\n"
        "Base sets (one process; the points are validated once, then one MSM per\n"
        "scalars file, in order; one result line each, --json an array):\n"
        "  --points FILE     the points alone (no scalars), in --encoding E: evm (the\n"
        "                    EIP-2537 / EIP-196 / EIP-197 points above, the default),\n"
        "                    compressed (bls12-381: ZCash 48 or 96 bytes), uncompressed\n"
        "                    (bls12-381: ZCash 96 or 192 bytes); hex, or raw with --binary\n"
        "  --scalars FILE    32-byte big-endian scalars (--little-endian: little-endian),\n"
        "                    at most one per point (fewer: the first points); repeatable\n"
        "  --precompute L    a fixed-base table of at most L rows per point (L times the\n"
        "                    points' memory; 16 or more makes MSMs faster, see\n"
        "                    docs/performance.md); 0 (none) or 2 to 64, default 0;\n"
        "                    below 8 no table is built (a note says so)\n"
        "  --save FILE       save the prepared set (points, table, SHA-256) to FILE\n"
        "  --bases FILE      use a saved set: loaded without validating again; a changed,\n"
        "                    truncated or foreign file is refused (exit 2)\n"
        "  --cache           load the set from the user's cache directory\n"
        "                    ($XDG_CACHE_HOME/mulred or ~/.cache/mulred), keyed by the points\n"
        "                    file, curve, encoding and --precompute; make and save it there\n"
        "                    when missing or invalid\n"
        "\n"
        "Options:\n"
        "  --curve C         bls12-381 or bn254 (required, but with --bases)\n"
        "  --group G         g1 (the default) or g2: the group of the points\n"
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
        "  --schedule S      static (default): the grid, one tile per rank (the checkpoint's\n"
        "                    tiles shared out by count with --checkpoint); dynamic: the\n"
        "                    checkpoint's tiles (with or without --checkpoint) drawn by the\n"
        "                    ranks at run time, largest first, so a slow rank takes fewer;\n"
        "                    the same result; --json adds schedule and units_per_rank\n"
        "  --stall-timeout S seconds a rank may wait for another that shows no sign of life\n"
        "                    (dead, stopped or cut off) before every rank ends with exit 3\n"
        "                    (default 60, or $MULRED_STALL_TIMEOUT); computing never trips it;\n"
        "                    --json adds handout (window or coordinator) under dynamic\n"
        "  --json            one JSON object: result, curve, points, seconds (the MSM alone:\n"
        "                    tiles and reduce, not reading), points_per_second, window, glv,\n"
        "                    windows, grid, ranks, threads, nodes, phases (read, generate,\n"
        "                    validate, msm, reduce, total: min/avg/max over ranks), version,\n"
        "                    git_revision\n"
        "  --output FILE     write the result to FILE instead of standard output\n"
        "  --progress        a progress bar on stderr (rank 0: its steps or tiles)\n"
        "  -h, --help        this help\n"
        "A flag may carry a value, as in a job file: --binary=false, --json=true.\n"
        "\n"
        "Output: the result as hex: bls12-381 its 128-byte EIP-2537 encoding, bn254 its 64-byte\n"
        "x || y (all zero: the point at infinity).\n"
        "Exit status: 0 success, 1 usage error, 2 bad input (the message names the file, the\n"
        "pair index or byte offset and the failed check; no result is printed), 3 runtime or\n"
        "MPI failure.\n");
}

/* ---- keys ---- */

static mulred_exit set_curve(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    msm_opts *o = vo;
    if (mulred_curve_parse(&o->job.curve, v))
        return mulred_key_bad_value(p, v, "bls12-381 or bn254", why, cap);
    o->has_curve = true;
    return MULRED_OK;
}

static mulred_exit set_group(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    if (mulred_pairing_group_parse(&((msm_opts *)vo)->job.group, v))
        return mulred_key_bad_value(p, v, "g1 or g2", why, cap);
    return MULRED_OK;
}

static mulred_exit set_input(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    const char *kept = mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((msm_opts *)vo)->job.input = kept;
    return MULRED_OK;
}

MULRED_KEY_FLAG(set_binary, msm_opts, job.binary)
MULRED_KEY_FLAG(set_progress, msm_opts, progress)

/* At least 1: a synthetic set of 0 points is no input (the job's 0). */
MULRED_KEY_COUNT(set_synthetic, msm_opts, job.synthetic, 1, UINT64_C(1) << 40)

static mulred_exit set_write_pairs(void *vo, const char *v, mulred_key_parser *p, char *why,
                                   size_t cap)
{
    const char *kept = mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    ((msm_opts *)vo)->write_pairs = kept;
    return MULRED_OK;
}

/* SxG: two counts from 1 to 2^20 joined by an 'x'. */
static mulred_exit set_grid(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    static const char expected[] = "SLICESxGROUPS, two counts from 1 to 1048576: 2x1, 1x4";
    msm_opts *o = vo;
    const char *x = strchr(v, 'x');
    char a[32], b[32];
    uint64_t s, g;
    if (!x || (size_t)(x - v) >= sizeof a || strlen(x + 1) >= sizeof b)
        return mulred_key_bad_value(p, v, expected, why, cap);
    memcpy(a, v, (size_t)(x - v));
    a[x - v] = '\0';
    strcpy(b, x + 1);
    if (mulred_parse_count(a, &s) || mulred_parse_count(b, &g) || s < 1 || g < 1 ||
        s > (1u << 20) || g > (1u << 20))
        return mulred_key_bad_value(p, v, expected, why, cap);
    o->job.grid_slices = (unsigned)s;
    o->job.grid_groups = (unsigned)g;
    return MULRED_OK;
}

MULRED_KEY_COUNT(set_memory, msm_opts, job.memory_per_rank, 1, UINT64_MAX)

static const mulred_key msm_keys[] = {
    /* name, flag, repeatable, command line only (true) or a choice, setter */
    {"curve", false, false, MULRED_KEY_CHOICE, set_curve},
    {"group", false, false, MULRED_KEY_CHOICE, set_group},
    {"input", false, false, false, set_input},
    {"binary", true, false, false, set_binary},
    {"synthetic", false, false, false, set_synthetic},
    {"write-pairs", false, false, true, set_write_pairs},
    {"grid", false, false, false, set_grid},
    {"memory-per-rank", false, false, false, set_memory},
    {"progress", true, false, false, set_progress},
    {"points", false, false, false, msm_bases_set_points},
    {"bases", false, false, false, msm_bases_set_bases},
    {"scalars", false, true, false, msm_bases_set_scalars},
    {"encoding", false, false, MULRED_KEY_CHOICE, msm_bases_set_encoding},
    {"precompute", false, false, false, msm_bases_set_precompute},
    {"cache", true, false, false, msm_bases_set_cache},
    {"save", false, false, false, msm_bases_set_save},
    {"little-endian", true, false, false, msm_bases_set_little_endian},
};

static void msm_defaults(void *vo)
{
    msm_opts *o = vo;
    memset(o, 0, sizeof *o);
    mulred_mpi_msm_job_init(&o->job, o->job.curve);
}

static void msm_dist(void *vo, cli_dist_opts *fields)
{
    *fields = CLI_DIST_OPTS(((msm_opts *)vo)->job);
}

static mulred_exit msm_check(const void *vo, const char *dash, const char **fault, char *why,
                             size_t cap)
{
    const msm_opts *o = vo;
    if (o->bases.points || o->bases.bases) {
        const char *other = o->job.input             ? "input"
                            : o->job.synthetic       ? "synthetic"
                            : o->job.grid_slices     ? "grid"
                            : o->job.memory_per_rank ? "memory-per-rank"
                            : o->job.checkpoint      ? "checkpoint"
                            : o->job.checkpoint_unit ? "checkpoint-unit"
                            : o->job.schedule        ? "schedule"
                                                     : NULL;
        return msm_bases_check(&o->bases, o->has_curve, other, dash, fault, why, cap);
    }
    if (msm_bases_check_unused(&o->bases, dash, fault, why, cap)) return MULRED_OUT_EUSAGE;
    if (!o->has_curve) {
        *fault = NULL;
        snprintf(why, cap, "no curve: give %scurve bls12-381 or %scurve bn254", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (!o->job.input == !o->job.synthetic) {
        *fault = o->job.input ? "synthetic" : NULL;
        snprintf(why, cap, "give exactly one input: %sinput FILE or %ssynthetic N", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->write_pairs && !o->job.synthetic) {
        *fault = "write-pairs";
        snprintf(why, cap, "%swrite-pairs writes a synthetic set: give %ssynthetic N", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->job.binary && !o->job.input) {
        *fault = "binary";
        snprintf(why, cap, "%sbinary applies to %sinput", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->job.checkpoint_unit && !o->job.checkpoint &&
        o->job.schedule != MULRED_SCHEDULE_DYNAMIC) {
        *fault = "checkpoint-unit";
        snprintf(why, cap, "%scheckpoint-unit needs %scheckpoint or %sschedule dynamic", dash, dash,
                 dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->job.schedule == MULRED_SCHEDULE_DYNAMIC &&
        (o->job.grid_slices || o->job.memory_per_rank)) {
        *fault = o->job.grid_slices ? "grid" : "memory-per-rank";
        snprintf(why, cap, "%s%s chooses the grid, which %sschedule dynamic does not use", dash,
                 o->job.grid_slices ? "grid" : "memory-per-rank", dash);
        return MULRED_OUT_EUSAGE;
    }
    if (o->job.checkpoint && (o->job.grid_slices || o->job.memory_per_rank)) {
        *fault = o->job.grid_slices ? "grid" : "memory-per-rank";
        snprintf(why, cap,
                 "%s%s chooses the grid, which %scheckpoint does not use (its tiles are slices "
                 "of %scheckpoint-unit points)",
                 dash, o->job.grid_slices ? "grid" : "memory-per-rank", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    return MULRED_OK;
}

/* ---- run: one call of the library ---- */

/* --write-pairs: the synthetic set as a pair file in hex, one pair per line, made in blocks of
 * 2^16 pairs (pair i depends on (curve, seed, i) alone, so the blocks join into the set). */
static mulred_status write_pairs_file(const msm_opts *o, mulred_error *err)
{
    const mulred_mpi_msm_job *job = &o->job;
    const mulred_curve c = mulred_curve_with_group(job->curve, job->group);
    const size_t block = (size_t)1 << 16, R = mulred_msm_record_bytes(c);
    void *points = malloc(block * mulred_msm_affine_bytes(c));
    mulred_scalar256 *scalars = malloc(block * sizeof *scalars);
    uint8_t *records = malloc(block * R);
    char *line = malloc(2 * R + 2);
    mulred_whole_file w = {0};
    mulred_status st = MULRED_OK;
    if (!points || !scalars || !records || !line) {
        st = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        goto done;
    }
    if ((st = mulred_whole_open(&w, o->write_pairs, MULRED_WHOLE_IN_PLACE, err))) goto done;
    for (uint64_t first = 0; first < job->synthetic && st == MULRED_OK; first += block) {
        const size_t n = job->synthetic - first < block ? (size_t)(job->synthetic - first) : block;
        st = mulred_msm_synth(points, scalars, c, job->seed, first, n, job->threads, err);
        if (st != MULRED_OK) break;
        mulred_msm_encode_pairs(records, points, scalars, n, c);
        for (size_t i = 0; i < n; i++) {
            mulred_hex_encode(line, records + i * R, R);
            line[2 * R] = '\n';
            if (fwrite(line, 1, 2 * R + 1, w.f) != 2 * R + 1) {
                st = mulred_error_set(err, MULRED_ERUNTIME, "%s: %s", o->write_pairs,
                                      strerror(errno));
                break;
            }
        }
    }
    if (st == MULRED_OK) st = mulred_whole_commit(&w, err);
done:
    mulred_whole_discard(&w); /* after a failure: no partial file under its name */
    free(points), free(scalars), free(records), free(line);
    return st;
}

static mulred_status msm_run(const void *vo, void *vr, mulred_error *err)
{
    const msm_opts *o = vo;
    const mulred_mpi_msm_job *opts = &o->job;
    if (o->bases.points || o->bases.bases)
        return msm_bases_run(&o->bases, mulred_curve_with_group(opts->curve, opts->group),
                             o->has_curve, opts->binary, opts->threads, &((msm_result *)vr)->bases,
                             err);
    const int nranks = mulred_mpi_size(MPI_COMM_WORLD);
    if ((uint64_t)opts->grid_slices * opts->grid_groups > (uint64_t)nranks) {
        memset(vr, 0, sizeof(msm_result));
        return mulred_error_set(err, MULRED_ERUNTIME,
                                "msm: --grid %ux%u needs %llu ranks; this job has %d",
                                opts->grid_slices, opts->grid_groups,
                                (unsigned long long)opts->grid_slices * opts->grid_groups, nranks);
    }
    if (o->write_pairs) { /* rank 0 writes; every rank learns whether it could */
        mulred_error_clear(err);
        if (mulred_mpi_rank(MPI_COMM_WORLD) == 0) write_pairs_file(o, err);
        const mulred_status st =
            mulred_mpi_active() ? mulred_mpi_agree(MPI_COMM_WORLD, err) : err->status;
        if (st != MULRED_OK) {
            memset(vr, 0, sizeof(msm_result));
            return st;
        }
    }
    /* The job as the keys wrote it (the library folds the group into the curve), with what
     * belongs to this run: the callbacks. */
    mulred_mpi_msm_job job = *opts;
    job.units_per_rank = cli_units_buffer();
    job.note = cli_warn_note;
    cli_progress bar;
    cli_progress_init(&bar, o->progress ? 1 : -1, 0, NULL);
    if (bar.enabled) job.progress = cli_progress_update, job.progress_data = &bar;
    const mulred_status rc = mulred_mpi_msm(MPI_COMM_WORLD, &job, &((msm_result *)vr)->mpi, err);
    cli_progress_finish(&bar);
    return rc;
}

const cli_job_kind cli_kind_msm = {
    .name = "msm",
    .keys = msm_keys,
    .nkeys = sizeof msm_keys / sizeof msm_keys[0],
    .dist = msm_dist,
    .dist_before = "grid",
    .checkpoint_key = "checkpoint",
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

mulred_exit mulred_cmd_msm(int argc, char **argv)
{
    return cli_run_kind(&cli_kind_msm, argc, argv);
}

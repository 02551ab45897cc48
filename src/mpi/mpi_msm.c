/* The distributed MSM job (mulred/mulred_mpi.h, mulred_mpi_msm): Σ sᵢ·Pᵢ on G1 or G2 of BLS12-381
 * or BN254 over the ranks of a communicator and their OpenMP threads.
 *
 * Phases, each timed (min/avg/max over ranks):
 *   read / generate  hex files: every rank counts the digits of its run of units and the counts
 *                    are summed over ranks (an allreduce of a vector group), so each rank finds
 *                    its slice; then each rank reads and decodes its slice (binary files: at
 *                    once); synthetic sets: each rank generates its slice
 *   validate         the subgroup check, the points of a slice shared by the ranks of its column
 *   msm              each rank's tile: its slice x its window group, with its threads, shifted
 *   reduce           mulred_mpi_reduce with the curve's point-addition group
 * The grid (point slices x window groups, mulred/msm_grid.h) is computed by every rank from
 * the same inputs; the ranks then check that they agree (a fingerprint's min and max), since a
 * rank with another grid would silently add the wrong tiles. A failure on any rank is agreed
 * on by all before the next collective: a bad file ends every rank with MULRED_EINPUT.
 * With a checkpoint the grid is not used: the ranks share tiles fixed by the job alone, save
 * each and resume from them (see "checkpoints" below), and meet in the same reduce. Pairs held
 * in memory need no grid either: each rank's pairs are its own slice with every window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"
#include "mulred/checkpoint.h"
#include "mulred/curve.h"
#include "mulred/msm_io.h"
#include "util/check.h"
#include "util/util.h"

static const char *phase_names[MULRED_MPI_MSM_PHASES] = {"read", "generate", "validate",
                                                         "msm",  "reduce",   "total"};

const char *mulred_mpi_msm_phase_name(mulred_mpi_msm_phase p)
{
    MULRED_CHECK((unsigned)p < MULRED_MPI_MSM_PHASES, "msm phase %d", (int)p);
    return phase_names[p];
}

void mulred_mpi_msm_job_init(mulred_mpi_msm_job *job, mulred_curve curve)
{
    memset(job, 0, sizeof *job);
    job->curve = curve;
    job->seed = 1;
}

/* A Jacobian point of any curve (G2 of BLS12-381: 3 × 96 bytes). */
typedef struct {
    uint64_t l[36];
} msm_jac;

/* Rank 0's result: the encoding of the sum and its hex. */
static void result_encode(mulred_mpi_msm_result *res, mulred_curve c, const msm_jac *sum)
{
    res->encoded_bytes = mulred_msm_curve_encode(c, res->encoded, sum);
    mulred_hex_encode(res->hex, res->encoded, res->encoded_bytes);
}

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
static mulred_status index_hex_file(MPI_Comm comm, mulred_msm_file *f, int rank, int nranks,
                                    mulred_error *err)
{
    const uint64_t units = mulred_msm_file_units(f);
    if (!units) return mulred_mpi_agree(comm, err);
    if (units > (uint64_t)INT32_MAX / sizeof(uint64_t)) {
        mulred_error_set(err, MULRED_ERUNTIME, "msm: pair file too large to index (%llu units)",
                         (unsigned long long)units);
        return mulred_mpi_agree(comm, err);
    }
    uint64_t *digits = calloc(units, sizeof *digits);
    if (!digits) mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    const mulred_unit_range r = mulred_plan_units(units, rank, nranks);
    if (err->status == MULRED_OK) mulred_msm_file_count(digits + r.first, f, r.first, r.end, err);
    if (mulred_mpi_agree(comm, err)) {
        free(digits);
        return err->status;
    }
    const mulred_group sum = {"digit-counts", units * sizeof *digits, counts_identity,
                              counts_combine, NULL};
    if (mulred_mpi_allreduce(comm, digits, &sum, err) == MULRED_OK)
        mulred_msm_file_index(f, digits, err);
    free(digits);
    return mulred_mpi_agree(comm, err);
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
 * 2^(c+3) points (overhead <= 1/16) and at least 2^16, so that saving a unit is small against
 * its work (docs/kernels.md has both). A job of one slice splits its windows into
 * two groups, so that two ranks can share it; otherwise a unit holds every window, because the
 * threads of mulred_G_msm_windows_var share a unit's windows as whole tiles while they are at
 * least 2 per thread: 5 windows on 2 threads leave one idle a fifth of the time
 * (docs/kernels.md has what window groups cost a checkpointed MSM). The units are planned over
 * ranks by count (mulred_plan_units): a rank's units are consecutive, mostly whole slices, and
 * it reads or generates a slice only when one of its units of that slice is not saved. */
enum { CKPT_SLICE_MIN_LOG = 16, CKPT_MIN_UNITS = 2 };

typedef struct {
    unsigned window_bits, windows, groups;
    bool glv;
    uint64_t slice_points, slices, units;
} ckpt_layout;

static void ckpt_layout_make(ckpt_layout *L, const mulred_mpi_msm_job *o, uint64_t n)
{
    mulred_msm_options po;
    memset(&po, 0, sizeof po);
    po.lanes = MULRED_MSM_LANES_SCALAR;
    mulred_msm_plan plan;
    mulred_msm_curve_plan(o->curve, &plan, (size_t)n, &po);
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
static mulred_status ckpt_describe(mulred_checkpoint_job *job, const mulred_mpi_msm_job *o,
                                   uint64_t n, const ckpt_layout *L, mulred_error *err)
{
    /* the store's "group" field names the group of the tiles' sums: "bn254-g2" for G2 */
    mulred_status rc =
        mulred_checkpoint_job_add(job, err, "curve", "%s", mulred_curve_name(o->curve));
    if (rc == MULRED_OK && o->input)
        rc = mulred_checkpoint_job_add_file(job, "input", o->input, err);
    if (rc == MULRED_OK && o->input)
        rc =
            mulred_checkpoint_job_add(job, err, "input.format", "%s", o->binary ? "binary" : "hex");
    if (rc == MULRED_OK)
        rc = mulred_checkpoint_job_add(job, err, "points", "%llu", (unsigned long long)n);
    if (rc == MULRED_OK && !o->input)
        rc = mulred_checkpoint_job_add(job, err, "seed", "%llu", (unsigned long long)o->seed);
    if (rc == MULRED_OK)
        rc = mulred_checkpoint_job_add(job, err, "msm.window_bits", "%u", L->window_bits);
    if (rc == MULRED_OK) rc = mulred_checkpoint_job_add(job, err, "msm.glv", "%d", L->glv ? 1 : 0);
    if (rc == MULRED_OK) rc = mulred_checkpoint_job_add(job, err, "msm.windows", "%u", L->windows);
    if (rc == MULRED_OK)
        rc = mulred_checkpoint_job_add(job, err, "tiles.slice_points", "%llu",
                                       (unsigned long long)L->slice_points);
    if (rc == MULRED_OK)
        rc = mulred_checkpoint_job_add(job, err, "tiles.window_groups", "%u", L->groups);
    if (rc == MULRED_OK)
        rc = mulred_checkpoint_job_add(
            job, err, "tiles.rule",
            "unit s*G+k: points [s*P, s*P+P), windows [W*k/G, W*(k+1)/G), "
            "shifted by c*(W*k/G)");
    return rc;
}

/* The store's state of tile u; without a store (a dynamic schedule without checkpoints)
 * every tile is to be computed. */
static mulred_checkpoint_unit_state tile_state(const mulred_checkpoint *ck, uint64_t u)
{
    return ck ? mulred_checkpoint_state(ck, u) : MULRED_CHECKPOINT_ABSENT;
}

/* The cost of each tile for the dynamic schedule's order: its points times its windows. NULL
 * when out of memory. */
static uint64_t *tile_costs(const ckpt_layout *L, uint64_t n)
{
    uint64_t *cost = malloc(L->units * sizeof *cost + 1);
    for (uint64_t u = 0; cost && u < L->units; u++) {
        const uint64_t s = u / L->groups, k = u % L->groups, p0 = s * L->slice_points;
        const uint64_t pts = n - p0 < L->slice_points ? n - p0 : L->slice_points;
        const uint64_t w0 = (uint64_t)L->windows * k / L->groups,
                       w1 = (uint64_t)L->windows * (k + 1) / L->groups;
        cost[u] = pts * (w1 - w0);
    }
    return cost;
}

/* One MSM job over a pair file or a synthetic set, as its two paths share it. */
typedef struct {
    MPI_Comm comm;
    const mulred_mpi_msm_job *o;
    mulred_mpi_msm_result *res;
    mulred_curve c;
    mulred_msm_file *file; /* NULL: synthetic */
    uint64_t n;            /* pairs of the job */
    int rank, nranks, T, nodes;
    double t0, local[MULRED_MPI_MSM_PHASES]; /* this rank's phase times */
} msm_run;

/* The tiles of a checkpointed or dynamic MSM as one rank runs them. */
typedef struct {
    msm_run *m;   /* the job, its input and this rank's phase times */
    uint64_t cap; /* pairs of a slice */
    const mulred_group *group;
    ckpt_layout L;
    mulred_msm_plan plan;
    mulred_checkpoint *ck; /* NULL: no checkpoint */
    msm_jac *acc;
    double *local;
    void *points; /* one slice, made at the first slice computed */
    mulred_scalar256 *scalars;
    uint64_t resumed, computed;
} tile_run;

/* Units u0..u1 of one slice: those the checkpoint holds combined as they are; if any is left,
 * the slice read or generated and validated (before any unit of it is saved), then each left
 * unit computed, saved and combined. */
static mulred_status tiles_of_slice(tile_run *t, uint64_t u0, uint64_t u1, mulred_error *err)
{
    const ckpt_layout *L = &t->L;
    bool need = false;
    for (uint64_t u = u0; u < u1; u++) {
        if (tile_state(t->ck, u) != MULRED_CHECKPOINT_LOADED) {
            need = true;
            continue;
        }
        msm_jac part;
        mulred_checkpoint_get(t->ck, u, &part);
        t->group->combine(t->acc, &part, t->group);
        t->resumed++;
    }
    if (!need) return MULRED_OK;
    const uint64_t p0 = u0 / L->groups * L->slice_points,
                   p1 = p0 + t->cap < t->m->n ? p0 + t->cap : t->m->n;
    const size_t ns = (size_t)(p1 - p0);
    if (!t->points) {
        t->points = mulred_alloc_large(t->cap * mulred_msm_affine_bytes(t->m->c) + 1);
        t->scalars = mulred_alloc_large(t->cap * sizeof *t->scalars + 1);
        if (!t->points || !t->scalars)
            return mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
    }
    double t0 = mulred_wtime();
    mulred_status rc =
        t->m->file
            ? mulred_msm_file_read(t->points, t->scalars, t->m->file, p0, p1, t->m->T, err)
            : mulred_msm_synth(t->points, t->scalars, t->m->c, t->m->o->seed, p0, ns, t->m->T, err);
    t->m->local[t->m->file ? MULRED_MPI_MSM_PHASE_READ : MULRED_MPI_MSM_PHASE_GENERATE] +=
        mulred_wtime() - t0;
    t0 = mulred_wtime();
    if (rc == MULRED_OK && t->m->file)
        rc = mulred_msm_check_subgroup(t->points, ns, t->m->c, p0, t->m->o->input, t->m->T, err);
    t->m->local[MULRED_MPI_MSM_PHASE_VALIDATE] += mulred_wtime() - t0;
    for (uint64_t u = u0; u < u1 && rc == MULRED_OK; u++) {
        if (tile_state(t->ck, u) == MULRED_CHECKPOINT_LOADED) continue;
        if (tile_state(t->ck, u) == MULRED_CHECKPOINT_CORRUPT)
            mpi_note_recompute(t->m->o->note, t->m->o->note_data, mulred_checkpoint_note(t->ck, u),
                               u);
        const unsigned k = (unsigned)(u % L->groups);
        const unsigned w0 = (unsigned)((uint64_t)L->windows * k / L->groups),
                       w1 = (unsigned)((uint64_t)L->windows * (k + 1) / L->groups);
        msm_jac part;
        t->group->identity(&part, t->group); /* every byte defined: the element is saved whole */
        t0 = mulred_wtime();
        rc = mulred_msm_curve_windows(t->m->c, &part, &t->plan, w0, w1, t->points, t->scalars, ns,
                                      t->m->T, err);
        if (rc) break;
        mulred_msm_curve_shift(t->m->c, &part, &part, L->window_bits * w0);
        const double t1 = mulred_wtime();
        t->m->local[MULRED_MPI_MSM_PHASE_MSM] += t1 - t0;
        if (t->ck) rc = mulred_checkpoint_save(t->ck, u, &part, ns, err);
        t->m->res->checkpoint_seconds += mulred_wtime() - t1;
        if (rc) break;
        t->group->combine(t->acc, &part, t->group);
        t->computed++;
    }
    return rc;
}

/* The layout of the tiles into the result, the checkpoint opened (its time the checkpoint's),
 * and the tiles' plan: c and GLV forced, the rest (speed only) for this CPU and slice. */
static mulred_status tiles_begin(tile_run *t, mulred_error *err)
{
    const mulred_mpi_msm_job *o = t->m->o;
    mulred_mpi_msm_result *res = t->m->res;
    ckpt_layout_make(&t->L, o, t->m->n);
    res->slice_points = t->L.slice_points;
    res->units = t->L.units;
    res->grid.slices = (unsigned)(t->L.slices < UINT32_MAX ? t->L.slices : UINT32_MAX);
    res->grid.groups = t->L.groups;
    res->grid.window_bits = t->L.window_bits;
    res->grid.glv = t->L.glv;
    res->grid.windows = t->L.windows;
    t->cap = t->L.slice_points < t->m->n ? t->L.slice_points : t->m->n;

    const double t0 = mulred_wtime();
    mulred_status rc = MULRED_OK;
    if (o->checkpoint) {
        mulred_checkpoint_job *job = mulred_checkpoint_job_new(t->group, t->L.units);
        rc = job ? MULRED_OK : mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        if (rc == MULRED_OK) rc = ckpt_describe(job, o, t->m->n, &t->L, err);
        if (rc == MULRED_OK) rc = mulred_checkpoint_open(&t->ck, o->checkpoint, job, err);
        mulred_checkpoint_job_free(job);
    }
    res->checkpoint_seconds = mulred_wtime() - t0;
    mulred_msm_options mo;
    memset(&mo, 0, sizeof mo);
    mo.window_bits = (int)t->L.window_bits;
    mo.glv = t->L.glv ? 1 : -1;
    mulred_msm_curve_plan(t->m->c, &t->plan, (size_t)t->cap, &mo);
    if (t->plan.windows != t->L.windows)
        rc = mulred_error_set(err, MULRED_ERUNTIME, "msm: the tile plan has %u windows, not %u",
                              t->plan.windows, t->L.windows);
    return rc;
}

/* This rank's units under the job's schedule (its share, or the tiles it draws): loads the
 * saved ones, computes (reading or generating their slices) and saves the others, and combines
 * all into *acc (the identity on entry). Without a checkpoint directory (the dynamic schedule
 * alone) nothing is loaded or saved. Collective under the dynamic schedule. *drawn: the tiles
 * this rank got. */
static mulred_status ckpt_msm(msm_run *m, msm_jac *acc, uint64_t *drawn, mulred_error *err)
{
    const mulred_mpi_msm_job *o = m->o;
    mulred_mpi_msm_result *res = m->res;
    tile_run t = {.m = m, .acc = acc};
    t.group = mulred_msm_point_group(m->c);
    mulred_status rc = tiles_begin(&t, err);
    const mulred_unit_range share = mulred_plan_units(t.L.units, m->rank, m->nranks);
    mpi_units d;
    uint64_t *cost = tile_costs(&t.L, m->n);
    if (rc == MULRED_OK && !cost) rc = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    rc = mpi_units_open(&d, m->comm, o->schedule, cost, t.L.units, share, 1, err);
    free(cost);
    res->handout = d.handout;
    /* runs of consecutive units within one slice: the slice is read once for them */
    const uint64_t total =
        o->schedule == MULRED_SCHEDULE_DYNAMIC ? t.L.units : share.end - share.first;
    for (uint64_t u0 = 0, u1; rc == MULRED_OK && mpi_units_run(&d, t.L.groups, &u0, &u1);) {
        /* rank 0 answers draws while it reads and computes (no MPI call until the next run) */
        mpi_units_serve_begin(&d);
        rc = tiles_of_slice(&t, u0, u1, err);
        mpi_units_serve_end(&d);
        if (o->progress && rc == MULRED_OK) o->progress(o->progress_data, d.before + d.pos, total);
    }
    rc = mpi_units_close(&d, err);
    *drawn = d.drawn;
    free(t.points);
    free(t.scalars);
    mulred_checkpoint_close(t.ck);
    res->resumed_units = t.resumed;
    res->computed_units = t.computed;
    return rc;
}

/* The schedule and the units per rank into the result (collective). */
static void msm_units_gather(MPI_Comm comm, const mulred_mpi_msm_job *o, mulred_mpi_msm_result *res,
                             uint64_t drawn, mulred_error *err)
{
    const bool root = mulred_mpi_rank(comm) == 0;
    res->schedule = o->schedule;
    res->units_per_rank = root ? o->units_per_rank : NULL;
    mpi_gather_counts(comm, drawn, root ? o->units_per_rank : NULL, err);
}

/* What both paths record once the sum is on rank 0: the phases over the ranks, the units each
 * rank took, and the job's shape. */
static void msm_finish(msm_run *m, uint64_t drawn, mulred_error *err)
{
    m->local[MULRED_MPI_MSM_PHASE_TOTAL] = mulred_wtime() - m->t0;
    if (err->status == MULRED_OK)
        mpi_phases(m->comm, m->local, m->res->phases, MULRED_MPI_MSM_PHASES, err);
    if (err->status == MULRED_OK) msm_units_gather(m->comm, m->o, m->res, drawn, err);
    m->res->points = m->n;
    m->res->ranks = m->nranks;
    m->res->threads = m->T;
    m->res->nodes = m->nodes;
}

/* Checkpointed or dynamic: tiles of the job, each rank its share or what it draws, then the
 * reduce. */
static void msm_by_units(msm_run *m, mulred_error *err)
{
    mulred_mpi_msm_result *res = m->res;
    msm_jac acc;
    const mulred_group *group = mulred_msm_point_group(m->c);
    group->identity(&acc, group);
    if (m->file) /* opening and indexing the file */
        m->local[MULRED_MPI_MSM_PHASE_READ] = mulred_wtime() - m->t0;
    uint64_t drawn = 0;
    ckpt_msm(m, &acc, &drawn, err);
    if (mulred_mpi_agree(m->comm, err)) return;
    const double t4 = mulred_wtime();
    mulred_mpi_reduce(m->comm, &acc, group, 0, err);
    m->local[MULRED_MPI_MSM_PHASE_REDUCE] = mulred_wtime() - t4;
    if (mulred_mpi_agree(m->comm, err)) return;
    if (m->rank == 0) result_encode(res, m->c, &acc);
    msm_finish(m, drawn, err);
    double ck[3] = {0, 0, 0};
    uint64_t r = 0, k = 0;
    if (err->status == MULRED_OK) mulred_mpi_minavgmax(m->comm, res->checkpoint_seconds, ck, err);
    if (err->status == MULRED_OK) mulred_mpi_sum_u64(m->comm, &r, res->resumed_units, err);
    if (err->status == MULRED_OK) mulred_mpi_sum_u64(m->comm, &k, res->computed_units, err);
    res->checkpoint_seconds = ck[2];
    res->resumed_units = r, res->computed_units = k;
    /* the MSM alone: the slowest rank's tiles and the reduce */
    res->seconds =
        res->phases[MULRED_MPI_MSM_PHASE_MSM].max + res->phases[MULRED_MPI_MSM_PHASE_REDUCE].max;
}

/* The grid, the same on every rank, which the ranks check. */
static mulred_status msm_grid_agreed(msm_run *m, mulred_error *err)
{
    const mulred_mpi_msm_job *o = m->o;
    mulred_msm_grid_params gp;
    mulred_msm_grid_defaults(&gp, m->c,
                             !o->input   ? MULRED_MSM_INPUT_SYNTHETIC
                             : o->binary ? MULRED_MSM_INPUT_BINARY
                                         : MULRED_MSM_INPUT_FILE,
                             m->n, m->nranks, m->T);
    gp.memory_per_rank =
        o->memory_per_rank ? o->memory_per_rank : default_memory(m->nranks, m->nodes);
    if (o->grid_slices) {
        if ((uint64_t)o->grid_slices * o->grid_groups > (uint64_t)m->nranks) {
            mulred_error_set(err, MULRED_ERUNTIME,
                             "msm: a grid of %ux%u needs %llu ranks; this job has %d",
                             o->grid_slices, o->grid_groups,
                             (unsigned long long)o->grid_slices * o->grid_groups, m->nranks);
            return mulred_mpi_agree(m->comm, err);
        }
        gp.slices = o->grid_slices, gp.groups = o->grid_groups;
    }
    if (mulred_msm_grid_plan(&m->res->grid, m->c, &gp, err) != MULRED_OK) {
        /* name the input and the way out: more ranks, or more memory per rank */
        char why[sizeof err->message];
        const char *msg = strncmp(err->message, "msm: ", 5) ? err->message : err->message + 5;
        snprintf(why, sizeof why, "%s", msg);
        mulred_error_set(err, err->status,
                         "msm: %s%s%s; run on more ranks or raise the memory per rank",
                         o->input ? o->input : "", o->input ? ": " : "", why);
    }
    if (mulred_mpi_agree(m->comm, err)) return err->status;
    double fp[3];
    if (mulred_mpi_minavgmax(m->comm, grid_fingerprint(&m->res->grid), fp, err)) return err->status;
    if (fp[0] != fp[2]) {
        mulred_error_set(err, MULRED_ERUNTIME,
                         "msm: the ranks chose different grids (nodes of different kinds?)");
        return mulred_mpi_agree(m->comm, err);
    }
    return MULRED_OK;
}

/* The parts a rank's tile of the grid is computed in when progress is reported: its windows
 * in groups of at least 2 per thread (fewer would cut windows into bucket ranges that rescan
 * every digit), at most 8; 1 without progress. */
static uint64_t grid_parts(const msm_run *m, const mulred_msm_share *share)
{
    if (!m->o->progress || share->idle) return 1;
    const uint64_t windows = share->window1 - share->window0, least = 2 * (uint64_t)m->T;
    const uint64_t parts = windows / least;
    return parts < 1 ? 1 : parts > 8 ? 8 : parts;
}

/* *partial = the tile's windows [window0, window1) of the share, shifted to their weight, in
 * grid_parts parts (each part's windows computed, shifted and added: the same point), with
 * progress after each. */
static void tile_windows(msm_run *m, msm_jac *partial, const mulred_msm_plan *plan,
                         const mulred_msm_share *share, const void *points,
                         const mulred_scalar256 *scalars, size_t ns, mulred_error *err)
{
    const mulred_group *group = mulred_msm_point_group(m->c);
    const uint64_t parts = grid_parts(m, share), W = share->window1 - share->window0;
    for (uint64_t k = 0; k < parts; k++) {
        const unsigned w0 = share->window0 + (unsigned)(W * k / parts),
                       w1 = share->window0 + (unsigned)(W * (k + 1) / parts);
        msm_jac part;
        if (mulred_msm_curve_windows(m->c, &part, plan, w0, w1, points, scalars, ns, m->T, err))
            return;
        mulred_msm_curve_shift(m->c, &part, &part, plan->window_bits * w0);
        group->combine(partial, &part, group);
        if (m->o->progress) m->o->progress(m->o->progress_data, 3 + k, 2 + parts);
    }
}

/* This rank's tile of the grid: its slice read or generated, its part of its column's points
 * validated, the tile (slice × window group, shifted to its windows' weight), the reduce. */
static void msm_by_grid(msm_run *m, mulred_error *err)
{
    if (msm_grid_agreed(m, err)) return;
    const mulred_msm_share share = mulred_msm_grid_share(&m->res->grid, m->n, m->rank);
    const size_t ns = (size_t)(share.point1 - share.point0), aff = mulred_msm_affine_bytes(m->c);
    void *points = mulred_alloc_large(ns * aff + 1);
    mulred_scalar256 *scalars = mulred_alloc_large(ns * sizeof *scalars + 1);
    if (!points || !scalars) mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
    const double t1 = mulred_wtime();
    if (err->status == MULRED_OK) {
        if (m->file)
            mulred_msm_file_read(points, scalars, m->file, share.point0, share.point1, m->T, err);
        else
            mulred_msm_synth(points, scalars, m->c, m->o->seed, share.point0, ns, m->T, err);
    }
    const uint64_t steps = 2 + grid_parts(m, &share);
    if (m->o->progress && err->status == MULRED_OK) m->o->progress(m->o->progress_data, 1, steps);
    const double t2 = mulred_wtime();
    m->local[m->file ? MULRED_MPI_MSM_PHASE_READ : MULRED_MPI_MSM_PHASE_GENERATE] =
        t2 - (m->file ? m->t0 : t1);
    if (mulred_mpi_agree(m->comm, err)) goto done;
    if (m->file)
        mulred_msm_check_subgroup((uint8_t *)points + (share.check0 - share.point0) * aff,
                                  (size_t)(share.check1 - share.check0), m->c, share.check0,
                                  m->o->input, m->T, err);
    m->local[MULRED_MPI_MSM_PHASE_VALIDATE] = mulred_wtime() - t2;
    if (m->o->progress && err->status == MULRED_OK) m->o->progress(m->o->progress_data, 2, steps);
    if (mulred_mpi_agree(m->comm, err)) goto done;
    const double t3 = mulred_wtime();
    msm_jac partial;
    const mulred_group *group = mulred_msm_point_group(m->c);
    group->identity(&partial, group);
    if (!share.idle && ns) {
        const mulred_msm_options mo = mulred_msm_grid_options(&m->res->grid);
        mulred_msm_plan plan;
        mulred_msm_curve_plan(m->c, &plan, ns, &mo);
        tile_windows(m, &partial, &plan, &share, points, scalars, ns, err);
    }
    m->local[MULRED_MPI_MSM_PHASE_MSM] = mulred_wtime() - t3;
    if (mulred_mpi_agree(m->comm, err)) goto done;
    const double t4 = mulred_wtime();
    mulred_mpi_reduce(m->comm, &partial, group, 0, err);
    const double t5 = mulred_wtime();
    m->local[MULRED_MPI_MSM_PHASE_REDUCE] = t5 - t4;
    if (mulred_mpi_agree(m->comm, err)) goto done;
    if (m->rank == 0) {
        result_encode(m->res, m->c, &partial);
        m->res->seconds = t5 - t3;
    }
    msm_finish(m, !share.idle && ns ? 1 : 0, err);
done:
    free(points);
    free(scalars);
}

static mulred_status msm_file_or_synthetic(MPI_Comm comm, const mulred_mpi_msm_job *o,
                                           mulred_mpi_msm_result *res, mulred_error *err)
{
    msm_run m = {.comm = comm, .o = o, .res = res, .c = o->curve, .n = o->synthetic};
    m.rank = mulred_mpi_rank(comm), m.nranks = mulred_mpi_size(comm);
    /* outside the timed phases, like MPI_Init: the OpenMP team starts */
    m.T = mulred_threads_start(o->threads);
    m.t0 = mulred_wtime();
    m.nodes = 1;
    if (o->input) {
        mulred_msm_file_open(&m.file, o->input, m.c, o->binary, 0, err);
        if (mulred_mpi_agree(comm, err) || index_hex_file(comm, m.file, m.rank, m.nranks, err))
            goto done;
        m.n = mulred_msm_file_pairs(m.file);
    }
    if (mulred_mpi_node_count(comm, &m.nodes, err) ||
        mulred_mpi_node_names(comm, res->node_names, sizeof res->node_names, err))
        goto done;
    if (o->checkpoint || o->schedule == MULRED_SCHEDULE_DYNAMIC)
        msm_by_units(&m, err);
    else
        msm_by_grid(&m, err);
done:
    mulred_msm_file_close(m.file);
    return err->status;
}

/* Pairs each rank holds in memory: each rank checks its points, computes the MSM of its own
 * pairs with every window, and the partial sums meet in the reduce. */
static mulred_status msm_in_memory(MPI_Comm comm, const mulred_mpi_msm_job *o,
                                   mulred_mpi_msm_result *res, mulred_error *err)
{
    const int rank = mulred_mpi_rank(comm), nranks = mulred_mpi_size(comm);
    const mulred_curve c = o->curve;
    const int T = mulred_threads_start(o->threads);
    double local[MULRED_MPI_MSM_PHASES] = {0};
    const double t0 = mulred_wtime();
    if (!o->points_checked && o->count) {
        char name[32];
        snprintf(name, sizeof name, "rank %d", rank);
        mulred_msm_check_subgroup(o->points, o->count, c, 0, name, T, err);
    }
    const double t1 = mulred_wtime();
    local[MULRED_MPI_MSM_PHASE_VALIDATE] = t1 - t0;
    if (mulred_mpi_agree(comm, err)) return err->status;

    msm_jac partial;
    const mulred_group *group = mulred_msm_point_group(c);
    group->identity(&partial, group);
    if (o->count) {
        mulred_msm_plan plan;
        mulred_msm_curve_plan(c, &plan, o->count, NULL);
        res->grid.window_bits = plan.window_bits;
        res->grid.glv = plan.glv;
        res->grid.windows = plan.windows;
        mulred_msm_curve_windows(c, &partial, &plan, 0, plan.windows, o->points, o->scalars,
                                 o->count, T, err);
    }
    const double t2 = mulred_wtime();
    local[MULRED_MPI_MSM_PHASE_MSM] = t2 - t1;
    if (mulred_mpi_agree(comm, err)) return err->status;
    mulred_mpi_reduce(comm, &partial, group, 0, err);
    const double t3 = mulred_wtime();
    local[MULRED_MPI_MSM_PHASE_REDUCE] = t3 - t2;
    if (mulred_mpi_agree(comm, err)) return err->status;
    if (rank == 0) result_encode(res, c, &partial);
    local[MULRED_MPI_MSM_PHASE_TOTAL] = t3 - t0;
    int nodes = 1;
    if (mpi_phases(comm, local, res->phases, MULRED_MPI_MSM_PHASES, err) == MULRED_OK &&
        mulred_mpi_sum_u64(comm, &res->points, o->count, err) == MULRED_OK &&
        mulred_mpi_node_count(comm, &nodes, err) == MULRED_OK)
        mulred_mpi_node_names(comm, res->node_names, sizeof res->node_names, err);
    if (err->status == MULRED_OK) msm_units_gather(comm, o, res, o->count ? 1 : 0, err);
    res->seconds =
        res->phases[MULRED_MPI_MSM_PHASE_MSM].max + res->phases[MULRED_MPI_MSM_PHASE_REDUCE].max;
    res->grid.slices = (unsigned)nranks;
    res->grid.groups = 1;
    res->ranks = nranks;
    res->threads = T;
    res->nodes = nodes;
    return err->status;
}

/* A job the library cannot run: not exactly one input, or options that do not go together. */
static mulred_status job_check(const mulred_mpi_msm_job *o, mulred_error *err)
{
    const int inputs = (o->input != NULL) + (o->synthetic != 0) + (o->points != NULL);
    if (o->curve != MULRED_CURVE_BLS12_381 && o->curve != MULRED_CURVE_BN254 &&
        o->curve != MULRED_CURVE_BLS12_381_G2 && o->curve != MULRED_CURVE_BN254_G2)
        return mulred_error_set(err, MULRED_EINPUT, "msm: unknown curve %d", (int)o->curve);
    if (o->group != MULRED_GROUP_G1 && o->group != MULRED_GROUP_G2)
        return mulred_error_set(err, MULRED_EINPUT, "msm: unknown group %d", (int)o->group);
    if (inputs != 1)
        return mulred_error_set(err, MULRED_EINPUT,
                                "msm: give exactly one input (a pair file, a synthetic set or "
                                "pairs in memory)");
    if (o->points && (!o->scalars && o->count))
        return mulred_error_set(err, MULRED_EINPUT, "msm: points in memory without scalars");
    if (o->checkpoint && o->points)
        return mulred_error_set(err, MULRED_EINPUT,
                                "msm: pairs in memory cannot be checkpointed (a rerun cannot "
                                "find them)");
    if (o->schedule == MULRED_SCHEDULE_DYNAMIC && o->points)
        return mulred_error_set(err, MULRED_EINPUT,
                                "msm: pairs in memory are each rank's own: there are no units to "
                                "hand out (schedule dynamic needs a file or a synthetic set)");
    if (o->schedule == MULRED_SCHEDULE_DYNAMIC && (o->grid_slices || o->memory_per_rank))
        return mulred_error_set(err, MULRED_EINPUT,
                                "msm: a forced grid or memory limit chooses the grid, which the "
                                "dynamic schedule does not use");
    if (o->checkpoint && (o->grid_slices || o->memory_per_rank))
        return mulred_error_set(err, MULRED_EINPUT,
                                "msm: a forced grid or memory limit chooses the grid, which a "
                                "checkpointed job does not use");
    if (!o->grid_slices != !o->grid_groups)
        return mulred_error_set(err, MULRED_EINPUT, "msm: force both grid slices and groups");
    return MULRED_OK;
}

mulred_status mulred_mpi_msm(MPI_Comm comm, const mulred_mpi_msm_job *job,
                             mulred_mpi_msm_result *res, mulred_error *err)
{
    memset(res, 0, sizeof *res);
    mulred_error_clear(err);
    if (job_check(job, err) ||
        mpi_watch_start(comm, job->stall_timeout, "the MSM job", job->note, job->note_data, err))
        return err->status;
    /* The job as the rest of this file reads it: the curve says the group (mulred_curve's G2
     * values), the 0.2 group field folded into it here, once. */
    mulred_mpi_msm_job o = *job;
    if (o.group == MULRED_GROUP_G2) o.curve = mulred_curve_with_group(o.curve, MULRED_GROUP_G2);
    o.group = MULRED_GROUP_G1;
    if (o.points)
        msm_in_memory(comm, &o, res, err);
    else
        msm_file_or_synthetic(comm, &o, res, err);
    return mpi_watch_stop(err);
}

/* Template of the OpenMP MSM driver (mulred_G_msm_var, include/mulred/msm.h), included by
 * msm_threads.c once per group with POINT set (g1_381, g1_254, g2_381, g2_254). Creates threads.
 *
 * Work split. The unit is a tile of one window, or of the plan's group of windows (those the
 * one-thread run accumulates side by side, sharing batches: fewer collisions and shared
 * inversions in the reduction) when there are at least 4T such units: units are independent and
 * cost about the same (n bucket additions a window plus a reduction of 2^(c−1) buckets), so U
 * tiles, one per unit, keep T threads busy when U >= 2T (the workers take them dynamically). The
 * threads would then end unevenly by up to one unit, so the last T units go in as two slices
 * of the points each (the tail, msm_split_windows: a slice repeats only the unit's reduction,
 * where a bucket range would rescan every digit). With fewer windows each window
 * is cut into R bucket ranges (digit magnitudes), R = ceil(2T / W) up to 8: every range
 * rescans the window's n digits (a digit read is far cheaper than a bucket addition) but adds
 * only its own points, so nothing is done twice except the scan. Only when W·8 ranges are still
 * fewer than 2T tasks are the points cut into slices too (every slice repeats the reduction of
 * its buckets).
 *
 * Determinism: tile results are stored by index and summed in a fixed order (slices, then
 * ranges, within a window; Horner over windows), so the Jacobian result, not only the point,
 * is the same for every schedule; and the result is returned with Z = 1, so its bytes are the
 * same for every thread count too (the split, and so the tiles' Jacobian forms, follow it).
 *
 * Order: the tiles are taken in index order (big units first, the tail last) by one worker
 * task per thread, each taking the next index from an atomic counter until none is left. Tasks
 * of one tile each would run in the runtime's order: libgomp's creating thread takes the most
 * recent task first, so it ran the tail first and the run ended on whole units (G1 at 2^16:
 * one thread finished 3.3 ms, 4.5%, after the other).
 *
 * Nesting: called outside any active parallel region, it starts one team of `threads` and a
 * single thread creates the tasks; called inside one (a parallel region or a task), it
 * creates the tasks in the enclosing team under a taskgroup and waits for them there, so the
 * caller's thread executes tasks while it waits: no new team, no deadlock, no more threads
 * than the enclosing team has. Scratch is one per worker, allocated when it takes its first
 * tile and freed when it ends: a worker runs one tile at a time. Large
 * arrays come from mulred_alloc_large (huge pages: first-touch faults were 5-8% of an MSM at
 * 2^20 on a VM). */

#define MT_CAT_(a, b) a##b
#define MT_CAT(a, b)  MT_CAT_(a, b)
#define GPUB(name)    MT_CAT(MT_CAT(mulred_, POINT), _##name)
#define GA            MT_CAT(MT_CAT(mulred_, POINT), _affine)
#define GJ            MT_CAT(MT_CAT(mulred_, POINT), _jacobian)
#define MT(name)      MT_CAT(POINT, _mt_##name)

typedef struct {
    const mulred_msm_plan *plan;
    unsigned window0; /* tile windows are window0 + the split's window index */
    const GA *points;
    const mulred_msm_rscalar *k;
    msm_split split;
    GJ *results; /* [window][range][slice] */
    size_t scratch_bytes;
    int workers;
    _Atomic size_t next; /* the next tile to take */
    _Atomic int failed;
} MT(job);

static void MT(run_tile)(MT(job) * j, size_t idx, void *scratch)
{
    const msm_split *s = &j->split;
    const unsigned head = s->windows - s->tail; /* windows before the tail */
    const size_t head_tiles = msm_split_first_tile(s, head);
    const unsigned w = idx < head_tiles ? (unsigned)(idx / ((size_t)s->ranges * s->slices))
                                        : head + (unsigned)((idx - head_tiles) / s->tail_slices);
    const unsigned ranges = msm_split_ranges(s, w), slices = msm_split_slices(s, w);
    const size_t in = idx - msm_split_first_tile(s, w);
    const size_t slice = in % slices, range = in / slices;
    const unsigned wa = w * s->span, wb = wa + s->span < s->total ? wa + s->span : s->total;
    mulred_msm_tile tile = {j->window0 + wa, j->window0 + wb, 0, 0};
    if (ranges > 1) {
        const unsigned M = j->plan->buckets;
        tile.bucket0 = (unsigned)((uint64_t)M * range / ranges);
        tile.bucket1 = (unsigned)((uint64_t)M * (range + 1) / ranges);
    }
    const size_t p0 = s->n * slice / slices, p1 = s->n * (slice + 1) / slices;
    GPUB(msm_tile_var)
    (&j->results[idx], j->plan, &tile, j->points + p0, j->k + p0, p1 - p0, scratch);
}

/* One worker: tiles in index order until none is left (or a worker failed), on its own
 * scratch, allocated when it takes its first tile. */
static void MT(work)(MT(job) * j)
{
    const size_t ntiles = msm_split_tiles(&j->split);
    void *scratch = NULL;
    for (size_t i; !atomic_load(&j->failed) && (i = atomic_fetch_add(&j->next, 1)) < ntiles;) {
        if (!scratch && !(scratch = mulred_alloc_large(j->scratch_bytes))) {
            atomic_store(&j->failed, 1);
            break;
        }
        MT(run_tile)(j, i, scratch);
    }
    free(scratch);
}

static void MT(recode_chunk)(MT(job) * j, const mulred_scalar256 *scalars, size_t c)
{
    const size_t p0 = c * MSM_RECODE_CHUNK,
                 p1 = p0 + MSM_RECODE_CHUNK < j->split.n ? p0 + MSM_RECODE_CHUNK : j->split.n;
    GPUB(msm_recode)((mulred_msm_rscalar *)j->k + p0, scalars + p0, p1 - p0, j->plan);
}

/* Creates the tasks of the job and waits for them (taskgroup): recoding, then the tiles. */
static void MT(tasks)(MT(job) * j, const mulred_scalar256 *scalars)
{
    const size_t chunks = (j->split.n + MSM_RECODE_CHUNK - 1) / MSM_RECODE_CHUNK;
#pragma omp taskgroup
    {
        for (size_t c = 0; c < chunks; c++) {
#pragma omp task firstprivate(c) shared(j, scalars)
            MT(recode_chunk)(j, scalars, c);
        }
    }
#pragma omp taskgroup
    {
        for (int w = 0; w < j->workers; w++) {
#pragma omp task shared(j)
            MT(work)(j);
        }
    }
}

/* r = a with Z = 1 (or the one form of infinity): the bytes of the result do not depend on
 * how the work was split (thread count), only on the point. One inversion. */
static void MT(canonical)(GJ *r, const GJ *a)
{
    GA t;
    GPUB(jacobian_to_affine)(&t, a);
    GPUB(jacobian_from_affine)(r, &t);
}

mulred_status GPUB(msm_var)(GJ *r, const GA *points, const mulred_scalar256 *scalars, size_t n,
                            const mulred_msm_options *opts, int threads, mulred_error *err)
{
    mulred_msm_plan plan;
    GPUB(msm_plan)(&plan, n, opts);
    if (plan.magic == 0) return MULRED_EMISUSE; /* opts were misuse (the callback returned) */
    return GPUB(msm_windows_var)(r, &plan, 0, plan.windows, points, scalars, n, threads, err);
}

mulred_status GPUB(msm_windows_var)(GJ *r, const mulred_msm_plan *plan_in, unsigned window0,
                                    unsigned window1, const GA *points,
                                    const mulred_scalar256 *scalars, size_t n, int threads,
                                    mulred_error *err)
{
    MULRED_ARG_CHECK(plan_in && !plan_in->fixed);
    const mulred_msm_plan plan = *plan_in;
    MULRED_ARG_CHECK(window0 < window1 && window1 <= plan.windows);
    const int T = mulred_threads_resolve(threads);
    const bool nested = omp_in_parallel();
    if (n == 0) {
        GPUB(jacobian_set_infinity)(r);
        return MULRED_OK;
    }
    if (T == 1 && !nested) { /* no team at all: one tile over the whole window range */
        void *scratch = mulred_alloc_large(GPUB(msm_scratch_size)(&plan, n));
        if (!scratch) return mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
        mulred_msm_rscalar *k = (mulred_msm_rscalar *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
        GPUB(msm_recode)(k, scalars, n, &plan);
        const mulred_msm_tile tile = {window0, window1, 0, 0};
        GJ acc;
        GPUB(msm_tile_var)(&acc, &plan, &tile, points, k, n, k + n);
        free(scratch);
        MT(canonical)(r, &acc);
        return MULRED_OK;
    }
    MT(job) j = {.plan = &plan, .window0 = window0, .points = points};
    j.split = msm_split_windows(&plan, window1 - window0, n, T);
    const size_t ntiles = msm_split_tiles(&j.split);
    j.workers = nested ? omp_get_num_threads() : T;
    if ((size_t)j.workers > ntiles) j.workers = (int)ntiles;
    j.scratch_bytes = GPUB(msm_tile_scratch_size)(&plan);
    mulred_msm_rscalar *k = mulred_alloc_large(n * sizeof *k);
    j.k = k;
    j.results = malloc(ntiles * sizeof *j.results);
    atomic_init(&j.failed, 0);
    atomic_init(&j.next, 0);
    int status = MULRED_OK;
    if (!k || !j.results) {
        status = mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
        goto done;
    }
    if (nested) {
        MT(tasks)(&j, scalars);
    } else {
#pragma omp parallel num_threads(T)
#pragma omp single
        MT(tasks)(&j, scalars);
    }
    if (atomic_load(&j.failed)) {
        status = mulred_error_set(err, MULRED_ERUNTIME, "msm: out of memory");
        goto done;
    }
    /* Horner over the units (span windows each); within a unit, ranges then slices in index
     * order */
    GJ acc;
    GPUB(jacobian_set_infinity)(&acc);
    for (unsigned w = j.split.windows; w-- > 0;) {
        GPUB(msm_shift)(&acc, &acc, plan.window_bits * j.split.span);
        const size_t t0 = msm_split_first_tile(&j.split, w),
                     t1 = msm_split_first_tile(&j.split, w + 1);
        for (size_t i = t0; i < t1; i++) GPUB(jacobian_add)(&acc, &acc, &j.results[i]);
    }
    MT(canonical)(r, &acc);
done:
    free(j.results);
    free(k);
    return status;
}

#undef MT_CAT_
#undef MT_CAT
#undef GPUB
#undef GA
#undef GJ
#undef MT

/* Template of the MSM kernels (include/mulred/msm.h), written once and included by msm.c once
 * per group (G1 and G2 of each curve), with:
 *   POINT         the group (g1_381, g1_254, g2_381, g2_254): public names mulred_POINT_msm_*
 *   FP            its base field (fp381, fp254): the inline ops of field/field_internal.h
 *   MSM_MAGIC     plan->magic of this curve
 *   MSM_R         the group order r (uint64_t[4], the scalar field's modulus)
 *   MSM_RBITS     bits of r (255, 254)
 *   MSM_COST      the cost-model constants of this curve (msm_cost, msm.c)
 *   MSM_GLV_BITS  the bound on the GLV halves of the curve layer's decomposition (< 2^127)
 *   MSM_EXT       1 for G2 (coordinates in Fp2; the batch path runs on the 8-lane Fp2 kernels
 *                 like G1's on the base ones)
 *
 * Design and costs (M, S: one field multiplication, squaring)
 *
 * Buckets. Window w sends each point Pᵢ with Booth digit d ≠ 0 to bucket |d| (negated when
 * d < 0). Two bucket forms:
 *   XYZZ: one mixed addition per point, 8M + 2S, scalar code. No batching, so it is the form
 *     for small c, where batches would be short.
 *   AFFINE (batch-affine): a pair (bucket, point) joins the current batch; a full batch is
 *     added with one shared inversion (Montgomery's trick): 5M + 1S per pair for the slope and
 *     result, 3M for the trick, so about 6M per point against 10 for XYZZ, plus one inversion
 *     per batch. A bucket may appear only once per batch: a point whose bucket is already in
 *     the batch waits in the collision queue, which refills the next batch first; when the
 *     queue is full the point goes to an XYZZ side bucket (8M + 2S, folded into the affine
 *     bucket before the reduction). An empty bucket just takes the point (a copy, no addition).
 *     A full batch goes to the curve layer's batch addition of pairs (±φ per pair, curve.h),
 *     on its 8-lane path where the CPU has AVX-512 IFMA (plan.lanes): eight pairs share every
 *     vector operation: the 8-lane pair costs a fraction of the scalar one (docs/kernels.md
 *     has the multiplies of both).
 *
 * Reduction of a window: Σ_j j·B_j by running sums (S += B_j, T += S from the top), which is
 *   inherently serial. With affine buckets it runs on K interleaved segments of L = M/K
 *   buckets each: step t adds bucket sL + t into S_s for every segment s in one batch, then
 *   S_s into T_s in a second batch, so 2M batch-affine additions in 2L batches of K pairs. The
 *   segments meet in a short XYZZ running sum: Σ_j j·B_j = Σ_s T_s + L·Σ_s s·S_s (3K mixed or
 *   full XYZZ additions). K ≈ sqrt(M) balances the 2L batch inversions against the 3K serial
 *   XYZZ additions.
 *
 * Tiles and windows: every window of a tile is accumulated and reduced in turn (the buckets
 *   are reused), then the window sums meet by Horner (c doublings per window).
 *
 * Everything here is variable time. */

#define MSM_CAT_(a, b) a##b
#define MSM_CAT(a, b)  MSM_CAT_(a, b)
#define GPUB(name)     MSM_CAT(MSM_CAT(mulred_, POINT), _##name) /* mulred_POINT_name */
#define GA             MSM_CAT(MSM_CAT(mulred_, POINT), _affine)
#define GJ             MSM_CAT(MSM_CAT(mulred_, POINT), _jacobian)
#define GX             MSM_CAT(MSM_CAT(mulred_, POINT), _xyzz)
#define FE             MSM_CAT(mulred_, FP)
#define F(name)        MSM_CAT(FP, _##name)        /* inline field op */
#define MI(name)       MSM_CAT(POINT, _msm_##name) /* file-local helper */
#define NLIMBS         (sizeof(FE) / 8)

/* Flags of a pair (the curve layer's batch pairs): the point enters negated and/or through the
 * endomorphism φ. */
#define PAIR_NEG  MULRED_PAIR_NEG
#define PAIR_ENDO MULRED_PAIR_ENDO

/* Bucket flags. */
#define BUCKET_AFF  1u /* the affine bucket holds a point (else: empty, stale contents) */
#define BUCKET_SIDE 2u /* the XYZZ side bucket holds a point */

typedef MSM_CAT(MSM_CAT(mulred_, POINT), _affine_pair) MI(pair);

/* One window of a group: window w, digit magnitudes (b0, b0 + nb], rep replicas of nb slots
 * from slot base (see window_slots). */
typedef struct {
    unsigned w, nb, rep;
    uint32_t base;
    const GA *pts; /* point i of this window is pts[i·stride] (fixed base: 2^(cw)·Pᵢ) */
    size_t stride;
} MI(win);

/* Segments of the reduction and the chunk of side buckets folded at once. */
#define MSM_FOLD_CHUNK 64

/* Everything a tile works in, carved from the caller's scratch. */
typedef struct {
    const mulred_msm_plan *plan;
    unsigned G; /* windows in the current group (their slots side by side) */
    MI(win) win[MSM_MAX_GROUP];
    GA *bucket;
    GX *side;
    uint32_t *mark; /* epoch of the batch a bucket is in */
    uint8_t *flag;
    uint32_t epoch;
    MI(pair) * batch;
    size_t nbatch, cap;
    MI(pair) * queue;
    size_t nqueue, qcap;
    /* executor (cap_exec = max(batch, segments) pairs): the curve layer's batch addition */
    size_t cap_exec;
    void *exec_scratch;
    /* reduction */
    unsigned segments;
    GA *seg_s, *seg_t;
    MI(pair) * rpairs;
    GX *fold_x;
    GA *fold_a;
    void *fold_scratch;
} MI(ctx);

/* ---- small helpers ------------------------------------------------------------------------- */

static inline bool MI(inf)(const GA *a)
{
    return F(is_zero)(&a->x) && F(is_zero)(&a->y);
}

static inline void MI(set_inf)(GA *a)
{
    memset(a, 0, sizeof *a);
}

/* q = ±φ(p) per flags (q may equal p). */
static inline void MI(apply)(GA *q, const GA *p, uint32_t flags)
{
    if (flags & PAIR_ENDO)
        GPUB(affine_endomorphism)(q, p); /* infinity stays (0, 0) */
    else if (q != p)
        *q = *p;
    if ((flags & PAIR_NEG) && !MI(inf)(q)) F(neg)(&q->y, &q->y);
}

/* A plan made by this curve's msm_plan or msm_fixed_plan (the condition of the misuse checks). */
#define MI_PLAN_OK(plan) ((plan) && (plan)->magic == MSM_MAGIC)

/* ---- scratch layout ------------------------------------------------------------------------ */

typedef struct {
    char *base;
    size_t off;
} MI(carver);

static void *MI(carve)(MI(carver) * c, size_t bytes)
{
    c->off = (c->off + 63) & ~(size_t)63;
    void *p = c->base ? c->base + c->off : NULL;
    c->off += bytes;
    return p;
}

static unsigned MI(segments)(unsigned buckets, unsigned batch)
{
    /* K ≈ sqrt(3M) rounded to a multiple of 8 (whole 8-lane groups), 8 <= K <= 512 */
    unsigned k = 8;
    while (k < 512 && (size_t)(k + 8) * (k + 8) <= 3 * (size_t)buckets) k += 8;
    (void)batch;
    return k;
}

/* Lays out the context over scratch (NULL: only sizes it). Returns the bytes used. */
static size_t MI(layout)(MI(ctx) * t, const mulred_msm_plan *plan, void *scratch)
{
    MI(carver) c = {NULL, 0};
    if (scratch) c.base = (char *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    const size_t M = (size_t)plan->buckets * plan->group; /* bucket slots */
    const bool aff = plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE;
    memset(t, 0, sizeof *t);
    t->plan = plan;
    t->side = MI(carve)(&c, M * sizeof(GX));
    t->flag = MI(carve)(&c, M);
    t->fold_x = MI(carve)(&c, MSM_FOLD_CHUNK * sizeof(GX));
    t->fold_a = MI(carve)(&c, MSM_FOLD_CHUNK * sizeof(GA));
    t->fold_scratch = MI(carve)(&c, GPUB(batch_to_affine_scratch_size)(MSM_FOLD_CHUNK));
    if (aff) {
        t->bucket = MI(carve)(&c, M * sizeof(GA));
        t->mark = MI(carve)(&c, M * sizeof(uint32_t));
        t->cap = plan->batch;
        t->qcap = plan->queue;
        t->batch = MI(carve)(&c, t->cap * sizeof(MI(pair)));
        t->queue = MI(carve)(&c, (t->qcap ? t->qcap : 1) * sizeof(MI(pair)));
        t->segments = MI(segments)(plan->buckets, plan->batch);
        size_t ce = t->cap > t->segments ? t->cap : t->segments;
        if (ce < MSM_FOLD_CHUNK) ce = MSM_FOLD_CHUNK;
        t->cap_exec = ce;
        const size_t nseg = (size_t)t->segments * plan->group;
        t->seg_s = MI(carve)(&c, nseg * sizeof(GA));
        t->seg_t = MI(carve)(&c, nseg * sizeof(GA));
        t->rpairs = MI(carve)(&c, (nseg > ce ? nseg : ce) * sizeof(MI(pair)));
        t->exec_scratch = MI(carve)(&c, GPUB(batch_add_pairs_scratch_size)(ce));
    }
    return c.off + 64; /* + the alignment of the base */
}

/* ---- the executor: m pairs *acc += ±φ(*pt), distinct accs, no pt among the accs -------- */

static void MI(exec)(MI(ctx) * t, const MI(pair) * pr, size_t m)
{
    GPUB(batch_add_pairs_var)(pr, m, t->plan->lanes, t->exec_scratch);
}

/* ---- accumulation ---------------------------------------------------------------------------- */

/* side[b] += ±φ(p) */
static void MI(side_add)(MI(ctx) * t, uint32_t b, const GA *p, uint32_t flags)
{
    GA q;
    const GA *pp = p;
    if (flags & PAIR_ENDO) {
        MI(apply)(&q, p, flags & PAIR_ENDO);
        pp = &q;
    }
    if (!(t->flag[b] & BUCKET_SIDE)) {
        GPUB(xyzz_from_affine)(&t->side[b], pp);
        if (flags & PAIR_NEG) GPUB(xyzz_neg)(&t->side[b], &t->side[b]);
        t->flag[b] |= BUCKET_SIDE;
    } else if (flags & PAIR_NEG) {
        GPUB(xyzz_sub_affine)(&t->side[b], &t->side[b], pp);
    } else {
        GPUB(xyzz_add_affine)(&t->side[b], &t->side[b], pp);
    }
}

/* Executes the batch, then refills the next one from the queue (oldest first); repeats while
 * the refill fills it. */
static void MI(flush)(MI(ctx) * t)
{
    do {
        MI(exec)(t, t->batch, t->nbatch);
        t->nbatch = 0;
        t->epoch++;
        size_t keep = 0;
        for (size_t i = 0; i < t->nqueue; i++) {
            const MI(pair) e = t->queue[i];
            const size_t b = (size_t)(e.acc - t->bucket);
            if (t->mark[b] == t->epoch || t->nbatch == t->cap) {
                t->queue[keep++] = e;
            } else {
                t->mark[b] = t->epoch;
                t->batch[t->nbatch++] = e;
            }
        }
        t->nqueue = keep;
    } while (t->nbatch == t->cap);
}

static inline void MI(schedule)(MI(ctx) * t, uint32_t b, const GA *p, uint32_t flags)
{
    if (t->mark[b] == t->epoch) { /* the bucket is in this batch */
        if (t->nqueue < t->qcap)
            t->queue[t->nqueue++] = (MI(pair)){&t->bucket[b], p, flags};
        else
            MI(side_add)(t, b, p, flags);
        return;
    }
    if (!(t->flag[b] & BUCKET_AFF)) { /* empty: take the point */
        MI(apply)(&t->bucket[b], p, flags);
        t->flag[b] |= BUCKET_AFF;
        return;
    }
    t->mark[b] = t->epoch;
    t->batch[t->nbatch++] = (MI(pair)){&t->bucket[b], p, flags};
    if (t->nbatch == t->cap) MI(flush)(t);
}

/* The slots of window j of the current group: digit magnitudes (b0, nb + b0] (the tile's
 * range cut to what the window can hold: the top window of a b-bit scalar holds b − c·w bits,
 * so |d| <= 2^(b − c·w), 1 when c divides b), in rep replicas of nb slots from base: the pair
 * of magnitude m and point i goes to slot base + (m − 1 − b0) + nb·(i mod rep). Few buckets for
 * many points would make every batch collide, so a narrow window spreads over replicas (a
 * power of two, up to the window's M slots or 16 batches), summed before the reduction (rep − 1
 * additions per bucket, at most M). */

static MI(win) MI(window_slots)(const MI(ctx) * t, unsigned w, unsigned j, unsigned b0, unsigned b1)
{
    const mulred_msm_plan *plan = t->plan;
    const unsigned c = plan->window_bits, M = plan->buckets;
    MI(win) r = {w, 0, 1, j * M, NULL, 1};
    if (w == plan->windows - 1) {
        const unsigned top = plan->scalar_bits - c * w; /* < c */
        if ((1u << top) < b1) b1 = 1u << top;
    }
    r.nb = b1 > b0 ? b1 - b0 : 0;
    if (r.nb && plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE)
        while ((size_t)r.nb * r.rep * 2 <= M && (size_t)r.nb * r.rep < 16 * (size_t)t->cap)
            r.rep *= 2;
    return r;
}

/* Points per block of the accumulation: the digits of a block are extracted first (a tight
 * loop over the scalars), then its pairs are scheduled with the bucket and its mark
 * prefetched MSM_SCHED_AHEAD pairs ahead. */
#define MSM_BLOCK_PAIRS 512
#define MSM_SCHED_AHEAD 12

typedef struct {
    uint32_t slot, flags;
    const GA *pt;
} MI(entry);

/* Appends the pair of digit d of window wi (replica of point i) to e. */
static inline size_t MI(entry_add)(MI(entry) * e, size_t m, int d, const GA *p, uint32_t flags,
                                   unsigned b0, const MI(win) * wi, size_t i)
{
    const unsigned mag = (unsigned)(d < 0 ? -d : d);
    if (mag <= b0 || mag > b0 + wi->nb) return m; /* also d = 0 */
    e[m].slot = wi->base + (mag - 1 - b0) + wi->nb * ((uint32_t)i & (wi->rep - 1));
    e[m].flags = flags ^ (d < 0 ? PAIR_NEG : 0);
    e[m].pt = p;
    return m + 1;
}

/* An accumulation: begin (empty buckets and batch), feed the points in one or more runs, end
 * (the batch and queue flushed). */
static void MI(acc_begin)(MI(ctx) * t)
{
    memset(t->flag, 0, (size_t)t->plan->group * t->plan->buckets);
    t->nbatch = t->nqueue = 0;
    t->epoch++;
}

static void MI(acc_end)(MI(ctx) * t)
{
    if (t->plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE)
        while (t->nbatch || t->nqueue) MI(flush)(t);
}

/* Feeds the windows t->win[0..G) of points 0..n (of the windows' pts) into their buckets. */
static void MI(acc_feed)(MI(ctx) * t, const mulred_msm_rscalar *k, size_t n, unsigned b0)
{
    const mulred_msm_plan *plan = t->plan;
    const unsigned c = plan->window_bits, G = t->G;
    const bool aff = plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE;
    const size_t per_point = (size_t)G * (plan->glv ? 2 : 1);
    const size_t block = per_point < MSM_BLOCK_PAIRS ? MSM_BLOCK_PAIRS / per_point : 1;
    MI(entry) e[MSM_BLOCK_PAIRS > 2 * MSM_MAX_GROUP ? MSM_BLOCK_PAIRS : 2 * MSM_MAX_GROUP];
    for (size_t i0 = 0; i0 < n; i0 += block) {
        const size_t i1 = i0 + block < n ? i0 + block : n;
        size_t m = 0;
        if (plan->glv) {
            const uint64_t top = ~(UINT64_C(1) << 63);
            for (size_t i = i0; i < i1; i++) {
                const uint64_t h1[2] = {k[i].l[0], k[i].l[1] & top},
                               h2[2] = {k[i].l[2], k[i].l[3] & top};
                /* the signs of the halves ride in bit 63 of their top limbs (see recode) */
                const uint32_t s1 = (uint32_t)(k[i].l[1] >> 63), s2 = (uint32_t)(k[i].l[3] >> 63);
                for (unsigned j = 0; j < G; j++) {
                    const MI(win) *wi = &t->win[j];
                    m = MI(entry_add)(e, m, msm_booth_digit(h1, 2, wi->w, c),
                                      &wi->pts[i * wi->stride], s1 * PAIR_NEG, b0, wi, i);
                    m = MI(entry_add)(e, m, msm_booth_digit(h2, 2, wi->w, c),
                                      &wi->pts[i * wi->stride], PAIR_ENDO | s2 * PAIR_NEG, b0, wi,
                                      i);
                }
            }
        } else {
            const uint64_t top = ~(UINT64_C(1) << 63);
            for (size_t i = i0; i < i1; i++) {
                /* a folded scalar's sign rides in bit 63 of its top limb (see recode) */
                const uint64_t kk[4] = {k[i].l[0], k[i].l[1], k[i].l[2], k[i].l[3] & top};
                const uint32_t s = (uint32_t)(k[i].l[3] >> 63) * PAIR_NEG;
                for (unsigned j = 0; j < G; j++) {
                    const MI(win) *wi = &t->win[j];
                    m = MI(entry_add)(e, m, msm_booth_digit(kk, 4, wi->w, c),
                                      &wi->pts[i * wi->stride], s, b0, wi, i);
                }
            }
        }
        /* infinity needs no test here: the executor skips it, and an empty bucket that takes
         * it stays infinity */
        if (!aff) {
            for (size_t j = 0; j < m; j++) MI(side_add)(t, e[j].slot, e[j].pt, e[j].flags);
            continue;
        }
        for (size_t j = 0; j < m; j++) {
            if (j + MSM_SCHED_AHEAD < m) {
                const uint32_t b = e[j + MSM_SCHED_AHEAD].slot;
                __builtin_prefetch(&t->mark[b], 1);
                mulred_prefetch_write(&t->bucket[b], sizeof(GA));
            }
            MI(schedule)(t, e[j].slot, e[j].pt, e[j].flags);
        }
    }
}

/* Accumulates the windows t->win[0..G) of the points into their buckets. */
static void MI(accumulate)(MI(ctx) * t, const mulred_msm_rscalar *k, size_t n, unsigned b0)
{
    MI(acc_begin)(t);
    MI(acc_feed)(t, k, n, b0);
    MI(acc_end)(t);
}

/* ---- reduction ------------------------------------------------------------------------------- */

/* Runs m pairs in executor-sized pieces (the pairs of one call have distinct accumulators). */
static void MI(exec_all)(MI(ctx) * t, MI(pair) * pr, size_t m)
{
    for (size_t o = 0; o < m; o += t->cap_exec)
        MI(exec)(t, pr + o, m - o < t->cap_exec ? m - o : t->cap_exec);
}

/* Side buckets are folded into the affine ones (normalised in chunks, then batch-added). */
static void MI(fold_side)(MI(ctx) * t, uint32_t lo, uint32_t hi)
{
    size_t m = 0;
    uint32_t idx[MSM_FOLD_CHUNK];
    for (uint32_t j = lo; j <= hi; j++) {
        if (j < hi && (t->flag[j] & BUCKET_SIDE)) {
            t->fold_x[m] = t->side[j];
            idx[m++] = j;
        }
        if (m == MSM_FOLD_CHUNK || (j == hi && m)) {
            GPUB(xyzz_batch_to_affine_var)(t->fold_a, t->fold_x, m, t->fold_scratch);
            for (size_t i = 0; i < m; i++)
                t->rpairs[i] = (MI(pair)){&t->bucket[idx[i]], &t->fold_a[i], 0};
            MI(exec)(t, t->rpairs, m);
            m = 0;
        }
    }
}

/* out[j] = Σ_i (b0 + i + 1)·B_(j,i) for every window j of the group (affine buckets), as
 * Jacobian points. The segments of all the windows share each batch. */
static void MI(reduce_affine)(MI(ctx) * t, GJ *out, unsigned b0)
{
    const unsigned G = t->G;
    unsigned K[MSM_MAX_GROUP], L[MSM_MAX_GROUP], Lmax = 0;
    for (unsigned j = 0; j < G; j++) {
        const MI(win) *wi = &t->win[j];
        const uint32_t slots = wi->nb * wi->rep;
        for (uint32_t s = wi->base; s < wi->base + slots; s++)
            if (!(t->flag[s] & BUCKET_AFF)) MI(set_inf)(&t->bucket[s]);
        MI(fold_side)(t, wi->base, wi->base + slots);
        /* replicas: halve their number per round, pairs (s, s + half·nb) */
        for (unsigned half = wi->rep / 2; half >= 1; half /= 2) {
            const size_t total = (size_t)wi->nb * half;
            for (size_t o = 0; o < total; o += t->cap_exec) {
                const size_t len = total - o < t->cap_exec ? total - o : t->cap_exec;
                GA *bk = t->bucket + wi->base;
                for (size_t i = 0; i < len; i++)
                    t->rpairs[i] = (MI(pair)){&bk[o + i], &bk[o + i + total], 0};
                MI(exec)(t, t->rpairs, len);
            }
        }
        K[j] = t->segments < wi->nb ? t->segments : wi->nb;
        L[j] = K[j] ? (wi->nb + K[j] - 1) / K[j] : 0;
        K[j] = L[j] ? (wi->nb + L[j] - 1) / L[j] : 0;
        if (L[j] > Lmax) Lmax = L[j];
    }
    /* running sums on K segments of L buckets per window: step st adds bucket sL + st into
     * S_s, then S_s into T_s */
    GA *S = t->seg_s, *T = t->seg_t;
    for (unsigned j = 0; j < G; j++)
        for (unsigned s = 0; s < K[j]; s++) {
            MI(set_inf)(&S[j * t->segments + s]);
            MI(set_inf)(&T[j * t->segments + s]);
        }
    for (unsigned st = Lmax; st-- > 0;) {
        size_t m = 0;
        for (unsigned j = 0; j < G; j++) {
            if (st >= L[j]) continue;
            for (unsigned s = 0; s < K[j]; s++) {
                const unsigned i = s * L[j] + st;
                if (i < t->win[j].nb)
                    t->rpairs[m++] =
                        (MI(pair)){&S[j * t->segments + s], &t->bucket[t->win[j].base + i], 0};
            }
        }
        MI(exec_all)(t, t->rpairs, m);
        m = 0;
        for (unsigned j = 0; j < G; j++) {
            if (st >= L[j]) continue;
            for (unsigned s = 0; s < K[j]; s++)
                t->rpairs[m++] = (MI(pair)){&T[j * t->segments + s], &S[j * t->segments + s], 0};
        }
        MI(exec_all)(t, t->rpairs, m);
    }
    /* per window: Σ T_s + L·Σ s·S_s + b0·Σ S_s, a running sum over the segments */
    for (unsigned j = 0; j < G; j++) {
        const GA *Sj = S + j * t->segments, *Tj = T + j * t->segments;
        GX run, u, tsum;
        GPUB(xyzz_set_infinity)(&run);
        GPUB(xyzz_set_infinity)(&u);
        GPUB(xyzz_set_infinity)(&tsum);
        for (unsigned s = K[j]; s-- > 0;) {
            GPUB(xyzz_add_affine)(&run, &run, &Sj[s]);
            if (s) GPUB(xyzz_add)(&u, &u, &run);
            GPUB(xyzz_add_affine)(&tsum, &tsum, &Tj[s]);
        }
        GJ a, b;
        GPUB(xyzz_to_jacobian)(&out[j], &tsum);
        GPUB(xyzz_to_jacobian)(&a, &u);
        if ((L[j] & (L[j] - 1)) == 0) {
            unsigned sh = 0;
            while ((1u << sh) < L[j]) sh++;
            GPUB(msm_shift)(&a, &a, sh);
        } else {
            const uint64_t k[4] = {L[j], 0, 0, 0};
            GPUB(jacobian_mul_var)(&a, &a, k);
        }
        GPUB(jacobian_add)(&out[j], &out[j], &a);
        if (b0) {
            const uint64_t k[4] = {b0, 0, 0, 0};
            GPUB(xyzz_to_jacobian)(&b, &run);
            GPUB(jacobian_mul_var)(&b, &b, k);
            GPUB(jacobian_add)(&out[j], &out[j], &b);
        }
    }
}

/* The same over XYZZ buckets (the side array), by one running sum per window. */
static void MI(reduce_xyzz)(MI(ctx) * t, GJ *out, unsigned b0)
{
    for (unsigned j = 0; j < t->G; j++) {
        const MI(win) *wi = &t->win[j];
        GX run, sum;
        GPUB(xyzz_set_infinity)(&run);
        GPUB(xyzz_set_infinity)(&sum);
        for (unsigned i = wi->nb; i-- > 0;) {
            if (t->flag[wi->base + i] & BUCKET_SIDE)
                GPUB(xyzz_add)(&run, &run, &t->side[wi->base + i]);
            GPUB(xyzz_add)(&sum, &sum, &run);
        }
        GPUB(xyzz_to_jacobian)(&out[j], &sum);
        if (b0) {
            GJ b;
            const uint64_t k[4] = {b0, 0, 0, 0};
            GPUB(xyzz_to_jacobian)(&b, &run);
            GPUB(jacobian_mul_var)(&b, &b, k);
            GPUB(jacobian_add)(&out[j], &out[j], &b);
        }
    }
}

/* ---- public functions --------------------------------------------------------------------------
 */

void GPUB(msm_shift)(GJ *r, const GJ *a, unsigned bits)
{
    if (r != a) *r = *a;
    for (unsigned i = 0; i < bits && !GPUB(jacobian_is_infinity)(r); i++)
        GPUB(jacobian_double)(r, r);
}

size_t GPUB(msm_tile_scratch_size)(const mulred_msm_plan *plan)
{
    MULRED_ARG_CHECK_RETURN(MI_PLAN_OK(plan), 0);
    MI(ctx) t;
    return MI(layout)(&t, plan, NULL);
}

void GPUB(msm_tile_var)(GJ *r, const mulred_msm_plan *plan, const mulred_msm_tile *tile,
                        const GA *points, const mulred_msm_rscalar *scalars, size_t n,
                        void *scratch)
{
    MULRED_ARG_CHECK_VOID(MI_PLAN_OK(plan) && !plan->fixed);
    unsigned b0 = tile->bucket0, b1 = tile->bucket1;
    if (b1 == 0) b0 = 0, b1 = plan->buckets;
    /* the tile lies inside the plan */
    MULRED_ARG_CHECK_VOID(tile->window0 < tile->window1 && tile->window1 <= plan->windows &&
                          b0 < b1 && b1 <= plan->buckets);
    MULRED_ARG_CHECK_VOID(n <= UINT32_MAX);
    MI(ctx) t;
    MI(layout)(&t, plan, scratch);
    if (t.mark) memset(t.mark, 0, (size_t)plan->group * plan->buckets * sizeof *t.mark);
    GPUB(jacobian_set_infinity)(r);
    /* groups of windows from the top; Horner over the windows */
    for (unsigned hi = tile->window1; hi > tile->window0;) {
        const unsigned lo = hi - tile->window0 > plan->group ? hi - plan->group : tile->window0;
        t.G = 0;
        for (unsigned w = hi; w-- > lo;) {
            MI(win) wi = MI(window_slots)(&t, w, t.G, b0, b1);
            wi.pts = points;
            if (wi.nb) t.win[t.G++] = wi;
        }
        GJ s[MSM_MAX_GROUP];
        if (t.G) {
            MI(accumulate)(&t, scalars, n, b0);
            if (plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE)
                MI(reduce_affine)(&t, s, b0);
            else
                MI(reduce_xyzz)(&t, s, b0);
        }
        unsigned j = 0;
        for (unsigned w = hi; w-- > lo;) {
            GPUB(msm_shift)(r, r, plan->window_bits);
            if (j < t.G && t.win[j].w == w) GPUB(jacobian_add)(r, r, &s[j++]);
        }
        hi = lo;
    }
}

/* Reduction mod r: k < 2^256 < 6r for both curves, so a few subtractions. */
static void MI(reduce_mod_r)(uint64_t k[4])
{
    while (!fe_less_var(k, MSM_R, 4)) {
        uint64_t borrow = 0;
        for (int i = 0; i < 4; i++) {
            const field_u128 x = (field_u128)k[i] - MSM_R[i] - borrow;
            k[i] = (uint64_t)x;
            borrow = (uint64_t)(x >> 64) & 1;
        }
    }
}

void GPUB(msm_recode)(mulred_msm_rscalar *out, const mulred_scalar256 *in, size_t n,
                      const mulred_msm_plan *plan)
{
    MULRED_ARG_CHECK_VOID(MI_PLAN_OK(plan));
    /* a fixed plan without GLV folds k > (r − 1)/2 to r − k on −P: one bit fewer (fold) */
    const bool fold = plan->fixed && !plan->glv;
    const uint64_t half[4] = {MSM_R[0] >> 1 | MSM_R[1] << 63, MSM_R[1] >> 1 | MSM_R[2] << 63,
                              MSM_R[2] >> 1 | MSM_R[3] << 63, MSM_R[3] >> 1}; /* (r − 1)/2 */
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        memcpy(k, in[i].l, sizeof k);
        MI(reduce_mod_r)(k);
        if (fold && fe_less_var(half, k, 4)) {
            fe_neg(k, k, MSM_R, 4); /* r − k */
            memcpy(out[i].l, k, sizeof k);
            out[i].l[3] |= UINT64_C(1) << 63;
        } else if (plan->glv) {
            uint64_t k1[2], k2[2];
            bool n1, n2;
            GPUB(glv_decompose)(k1, &n1, k2, &n2, k);
            out[i].l[0] = k1[0];
            out[i].l[1] = k1[1] | (uint64_t)n1 << 63;
            out[i].l[2] = k2[0];
            out[i].l[3] = k2[1] | (uint64_t)n2 << 63;
        } else {
            memcpy(out[i].l, k, sizeof k);
        }
    }
}

size_t GPUB(msm_scratch_size)(const mulred_msm_plan *plan, size_t n)
{
    return GPUB(msm_tile_scratch_size)(plan) + n * sizeof(mulred_msm_rscalar) + 64;
}

void GPUB(msm_serial_var)(GJ *r, const mulred_msm_plan *plan, const GA *points,
                          const mulred_scalar256 *scalars, size_t n, void *scratch)
{
    MULRED_ARG_CHECK_VOID(MI_PLAN_OK(plan));
    mulred_msm_rscalar *k = (mulred_msm_rscalar *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    void *tile_scratch = k + n;
    GPUB(msm_recode)(k, scalars, n, plan);
    const mulred_msm_tile tile = {0, plan->windows, 0, 0};
    GPUB(msm_tile_var)(r, plan, &tile, points, k, n, tile_scratch);
}

/* ---- plan and cost model --------------------------------------------------------------------- */

/* The cost model (constants: msm_cost in msm.c; linear in them). One window accumulating
 * `pairs` pairs into nb buckets, reading `digits` digits (n, 2n with GLV; scan is what a digit
 * costs outside the batch addition: extracting, scheduling, the bucket's cache miss): */
static double MI(model_window)(const mulred_msm_plan *p, const mulred_msm_cost *cm, double pairs,
                               double digits, unsigned nb, unsigned rep)
{
    const int x8 = p->lanes == MULRED_MSM_LANES_X8;
    double t = digits * cm->scan + p->window_bits * cm->dbl + cm->window;
    if (p->bucket_form == MULRED_MSM_BUCKETS_XYZZ)
        return t + pairs * cm->xyzz_add + 2.0 * nb * cm->xyzz_full;
    const double a = cm->aff_add[x8], inv = cm->inv[x8];
    t += pairs * (a + (p->glv ? cm->glv_pair[x8] : 0.0) + inv / p->batch);
    t += (rep - 1.0) * nb * (a + inv / p->batch); /* replicas */
    unsigned K = MI(segments)(p->buckets, p->batch);
    if (K > nb) K = nb;
    const double L = K ? (nb + K - 1) / K : 0;
    /* the group's windows share the 2L reduction batches */
    t += 2.0 * nb * a + 2.0 * L * inv / p->group + 3.0 * K * cm->xyzz_full;
    return t;
}

static double MI(cost)(const mulred_msm_plan *plan, const mulred_msm_cost *cm, size_t n,
                       unsigned windows, unsigned bucket_ranges)
{
    if (bucket_ranges == 0) bucket_ranges = 1;
    const double pts = (double)n * (plan->glv ? 2 : 1);
    if (plan->fixed) { /* one bucket set for every window's table row */
        double t =
            MI(model_window)(plan, cm, pts * plan->windows, pts * plan->windows, plan->buckets, 1);
        /* the top row's digits have 2^top magnitudes; a batch carries batch/W of them, and
         * beyond 2^top distinct buckets the rest collide: what the queue cannot take back goes
         * to XYZZ side buckets (c = 18 on 254 bits: 2 bits, 4 buckets; 88% of that row) */
        const unsigned top = plan->scalar_bits - plan->window_bits * (plan->windows - 1);
        const double nb = (double)(1u << top), per = (double)plan->batch / plan->windows;
        if (plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE && per > nb) {
            const int x8 = plan->lanes == MULRED_MSM_LANES_X8;
            t += pts * (1.0 - nb / per) * (cm->xyzz_add - cm->aff_add[x8]);
        }
        return t;
    }
    double total = 0;
    for (unsigned w = 0; w < windows; w++) {
        unsigned nb = plan->buckets, rep = 1;
        if (windows == plan->windows && w == windows - 1) { /* the top window, as window_slots */
            const unsigned top = plan->scalar_bits - plan->window_bits * w;
            if ((1u << top) < nb) nb = 1u << top;
            if (plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE)
                while ((size_t)nb * rep * 2 <= plan->buckets &&
                       (size_t)nb * rep < 16 * (size_t)plan->batch)
                    rep *= 2;
        }
        const double per = (double)nb / plan->buckets / bucket_ranges;
        /* every range reads every digit: two a point with GLV */
        total +=
            bucket_ranges * MI(model_window)(plan, cm, pts * per, pts, nb / bucket_ranges, rep);
    }
    return total;
}

double GPUB(msm_cost_ns)(const mulred_msm_plan *plan, size_t n, unsigned windows,
                         unsigned bucket_ranges)
{
    MULRED_ARG_CHECK_RETURN(MI_PLAN_OK(plan), 0);
    return MI(cost)(plan, &MSM_COST.op, n, windows, bucket_ranges);
}

void GPUB(msm_cost_constants)(mulred_msm_cost *cost)
{
    MULRED_ARG_CHECK_VOID(cost);
    *cost = MSM_COST.op;
}

double GPUB(msm_cost_with)(const mulred_msm_plan *plan, size_t n, const mulred_msm_cost *cost)
{
    MULRED_ARG_CHECK_RETURN(MI_PLAN_OK(plan) && cost, 0);
    return MI(cost)(plan, cost, n, plan->windows, 1);
}

static void MI(plan_fill)(mulred_msm_plan *p, unsigned c, bool glv, bool fixed,
                          mulred_msm_buckets form, mulred_msm_lanes lanes,
                          const mulred_msm_options *o)
{
    memset(p, 0, sizeof *p);
    p->magic = MSM_MAGIC;
    p->window_bits = c;
    p->glv = glv;
    p->fixed = fixed;
    /* folded scalars of a fixed plan are <= (r − 1)/2 < 2^(MSM_RBITS − 1) (recode) */
    p->scalar_bits = glv ? MSM_GLV_BITS : fixed ? MSM_RBITS - 1 : MSM_RBITS;
    p->windows = msm_windows(p->scalar_bits, c);
    p->buckets = 1u << (c - 1);
    p->lanes = lanes;
    if (form == MULRED_MSM_BUCKETS_AUTO)
        form = c >= MSM_COST.affine_from ? MULRED_MSM_BUCKETS_AFFINE : MULRED_MSM_BUCKETS_XYZZ;
    p->bucket_form = form;
    /* batch: long enough to amortise the inversion (one per batch); windows are accumulated
     * side by side until the bucket slots reach 16 batches, so that a pair collides with one
     * already in the batch with probability below batch/(2·slots) ≈ 3% (a fixed-base MSM has
     * one bucket set for all its windows) */
    const unsigned forced = (unsigned)(o && o->batch > 0 ? o->batch : 0);
    unsigned batch = forced ? forced : MSM_COST.batch_max;
    unsigned group = 1;
    if (form == MULRED_MSM_BUCKETS_AFFINE) {
        while (!fixed && group < p->windows && group < MSM_MAX_GROUP &&
               (size_t)group * p->buckets < 16 * (size_t)batch)
            group++;
        const size_t slots = (size_t)group * p->buckets;
        if (!forced && slots < 16 * (size_t)batch)
            batch = slots / 16 < 32 ? 32 : (unsigned)(slots / 16);
    }
    /* queue: a batch's worth. A collision that finds the queue full costs an XYZZ addition, 4x
     * (G1) to 8x (BN254 G2) a batch pair on the 8-lane kernels (queue = batch against batch / 4:
     * docs/kernels.md, msm) */
    unsigned queue = o && o->queue > 0 ? (unsigned)o->queue : batch;
    if (o && o->queue < 0) queue = 0;
    p->batch = batch;
    p->queue = queue;
    p->group = group;
}

static void MI(plan_any)(mulred_msm_plan *plan, size_t n, const mulred_msm_options *opts,
                         bool fixed)
{
    const mulred_msm_options none = {0};
    const mulred_msm_options *o = opts ? opts : &none;
    MULRED_ARG_CHECK_VOID(plan);
    memset(plan, 0, sizeof *plan); /* on misuse the plan stays invalid (magic 0) */
    MULRED_ARG_CHECK_VOID(o->window_bits >= 0 && o->window_bits <= MSM_MAX_WINDOW_BITS);
    MULRED_ARG_CHECK_VOID(o->batch == 0 || (o->batch >= 8 && o->batch <= 4096));
    MULRED_ARG_CHECK_VOID(o->queue <= 4096);
    mulred_msm_lanes lanes = o->lanes;
    MULRED_ARG_CHECK_VOID(lanes == MULRED_MSM_LANES_AUTO || lanes == MULRED_MSM_LANES_SCALAR ||
                          lanes == MULRED_MSM_LANES_X8);
    /* 8 lanes forced on a CPU without AVX-512 IFMA */
    MULRED_ARG_CHECK_VOID(lanes != MULRED_MSM_LANES_X8 || mulred_fieldx8_have_ifma());
    if (lanes == MULRED_MSM_LANES_AUTO)
        lanes = mulred_fieldx8_have_ifma() ? MULRED_MSM_LANES_X8 : MULRED_MSM_LANES_SCALAR;
    MULRED_ARG_CHECK_VOID(o->buckets == MULRED_MSM_BUCKETS_AUTO ||
                          o->buckets == MULRED_MSM_BUCKETS_XYZZ ||
                          o->buckets == MULRED_MSM_BUCKETS_AFFINE);
    /* a forced fixed-base window width gives at most MSM_MAX_GROUP windows (c >= 4; with GLV,
     * c >= 2) */
    MULRED_ARG_CHECK_VOID(!fixed || !o->window_bits ||
                          msm_windows(o->glv > 0 ? MSM_GLV_BITS : MSM_RBITS,
                                      (unsigned)o->window_bits) <= MSM_MAX_GROUP);
    double best = 0;
    bool have = false;
    for (int gi = 0; gi < 2; gi++) {
        const bool glv = gi == 1;
        /* a fixed-base table takes GLV only when asked (a table of P serves both halves, φ
         * applied per pair: half the rows for the same pairs) */
        if ((o->glv > 0 && !glv) || (o->glv < 0 && glv) || (fixed && glv && o->glv <= 0)) continue;
        if (o->glv == 0 && glv && !MSM_COST.glv_auto) continue;
        for (unsigned c = 1; c <= MSM_MAX_WINDOW_BITS; c++) {
            if (o->window_bits && c != (unsigned)o->window_bits) continue;
            if (!o->window_bits && c > MSM_AUTO_WINDOW_BITS) continue;
            mulred_msm_plan p;
            MI(plan_fill)(&p, c, glv, fixed, o->buckets, lanes, o);
            if (fixed && p.windows > MSM_MAX_GROUP) continue;
            const double cost = GPUB(msm_cost_ns)(&p, n, p.windows, 1);
            if (!have || cost < best) {
                best = cost;
                *plan = p;
                have = true;
            }
        }
    }
}

void GPUB(msm_plan)(mulred_msm_plan *plan, size_t n, const mulred_msm_options *opts)
{
    MI(plan_any)(plan, n, opts, false);
}

/* ---- fixed base ------------------------------------------------------------------------------ */

void GPUB(msm_fixed_plan)(mulred_msm_plan *plan, size_t n, const mulred_msm_options *opts)
{
    MI(plan_any)(plan, n, opts, true);
}

size_t GPUB(msm_fixed_table_size)(const mulred_msm_plan *plan, size_t n)
{
    MULRED_ARG_CHECK_RETURN(MI_PLAN_OK(plan), 0);
    return (size_t)plan->windows * n;
}

size_t GPUB(msm_fixed_build_scratch_size)(size_t n)
{
    return n * (sizeof(GJ) + sizeof(GA)) + GPUB(batch_to_affine_scratch_size)(n) + 64;
}

void GPUB(msm_fixed_table_build)(GA *table, const mulred_msm_plan *plan, const GA *points, size_t n,
                                 void *scratch)
{
    MULRED_ARG_CHECK_VOID(MI_PLAN_OK(plan) && plan->fixed);
    GJ *j = (GJ *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    GA *row = (GA *)(j + n);
    void *norm = row + n;
    for (size_t i = 0; i < n; i++) {
        table[i * plan->windows] = points[i];
        GPUB(jacobian_from_affine)(&j[i], &points[i]);
    }
    for (unsigned w = 1; w < plan->windows; w++) {
        for (size_t i = 0; i < n; i++) GPUB(msm_shift)(&j[i], &j[i], plan->window_bits);
        GPUB(jacobian_batch_to_affine_var)(row, j, n, norm);
        for (size_t i = 0; i < n; i++) table[i * plan->windows + w] = row[i];
    }
}

/* Points recoded at a time by msm_fixed_var (on its stack): the scratch does not grow with n,
 * and a call touches no fresh pages for its scalars. */
#define MSM_FIXED_CHUNK 256

size_t GPUB(msm_fixed_scratch_size)(const mulred_msm_plan *plan, size_t n)
{
    (void)n;
    return GPUB(msm_tile_scratch_size)(plan);
}

void GPUB(msm_fixed_var)(GJ *r, const mulred_msm_plan *plan, const GA *table,
                         const mulred_scalar256 *scalars, size_t n, void *scratch)
{
    MULRED_ARG_CHECK_VOID(MI_PLAN_OK(plan) && plan->fixed);
    MULRED_ARG_CHECK_VOID(n <= UINT32_MAX);
    MI(ctx) t;
    MI(layout)(&t, plan, scratch);
    if (t.mark) memset(t.mark, 0, plan->buckets * sizeof *t.mark);
    /* every window's digits go to the one bucket set, window w reading table row w; the scalars
     * recoded a chunk at a time */
    const size_t W = plan->windows;
    t.G = plan->windows;
    MI(acc_begin)(&t);
    mulred_msm_rscalar k[MSM_FIXED_CHUNK];
    for (size_t p0 = 0; p0 < n; p0 += MSM_FIXED_CHUNK) {
        const size_t m = n - p0 < MSM_FIXED_CHUNK ? n - p0 : MSM_FIXED_CHUNK;
        GPUB(msm_recode)(k, scalars + p0, m, plan);
        for (unsigned w = 0; w < W; w++)
            t.win[w] = (MI(win)){w, plan->buckets, 1, 0, table + p0 * W + w, W};
        MI(acc_feed)(&t, k, m, 0);
    }
    MI(acc_end)(&t);
    t.G = 1;
    t.win[0] = (MI(win)){0, plan->buckets, 1, 0, NULL, 1};
    if (plan->bucket_form == MULRED_MSM_BUCKETS_AFFINE)
        MI(reduce_affine)(&t, r, 0);
    else
        MI(reduce_xyzz)(&t, r, 0);
}

#undef MSM_CAT_
#undef MSM_CAT
#undef GPUB
#undef GA
#undef GJ
#undef GX
#undef FE
#undef F
#undef MI
#undef NLIMBS
#undef PAIR_NEG
#undef PAIR_ENDO
#undef BUCKET_AFF
#undef BUCKET_SIDE
#undef MSM_FOLD_CHUNK
#undef MSM_FIXED_CHUNK

/* Template of the synthetic point generation (mulred_msm_synth, include/mulred/msm_io.h),
 * included by msm_synth_threads.c once per curve with POINT (g1_381, g1_254, g2_381, g2_254) and
 * SY_CURVE (its mulred_curve) defined. Creates threads.
 *
 * Costs (M: one field multiplication):
 *   generator table  32 windows x 255 points d·2^(8w)·G, Jacobian additions and one batch
 *                    normalisation per window: 8160 additions, every call;
 *   A_k, B_j         Σ_w table[w][byte w of the logarithm]: 32 mixed additions (~11M each),
 *                    about 1024 + n/1024 of them;
 *   a point          A_k + B_j by batch-affine addition over its block of 1024: 5M + 1S, 3M of
 *                    Montgomery's trick and 1/1024 of an inversion.
 * Blocks are independent tasks (dynamic schedule); each thread owns its batch scratch. */

#define SY_CAT_(a, b) a##b
#define SY_CAT(a, b)  SY_CAT_(a, b)
#define GPUB(name)    SY_CAT(SY_CAT(mulred_, POINT), _##name)
#define GA            SY_CAT(SY_CAT(mulred_, POINT), _affine)
#define GJ            SY_CAT(SY_CAT(mulred_, POINT), _jacobian)
#define SY(name)      SY_CAT(POINT, _synth_##name)

#define SY_WINDOWS 32  /* 8-bit windows of a logarithm below 2^256 */
#define SY_ENTRIES 255 /* non-zero bytes */

/* r = a·G from the table (a < 2^256, 4 limbs). */
static void SY(comb_mul)(GJ *r, const GA *table, const uint64_t a[4])
{
    GPUB(jacobian_set_infinity)(r);
    for (unsigned w = 0; w < SY_WINDOWS; w++) {
        const unsigned d = (unsigned)(a[w / 8] >> (8 * (w % 8))) & 0xff;
        if (d) GPUB(jacobian_add_affine)(r, r, &table[w * SY_ENTRIES + d - 1]);
    }
}

/* The generator table: table[w·255 + d − 1] = d·2^(8w)·G. */
static int SY(build_table)(GA *table, int T)
{
    GJ base[SY_WINDOWS];
    GA g;
    GPUB(generator)(&g);
    GPUB(jacobian_from_affine)(&base[0], &g);
    for (unsigned w = 1; w < SY_WINDOWS; w++) GPUB(msm_shift)(&base[w], &base[w - 1], 8);
    _Atomic int failed = 0;
#pragma omp parallel for schedule(dynamic) num_threads(T)
    for (unsigned w = 0; w < SY_WINDOWS; w++) {
        GJ *row = malloc(SY_ENTRIES * sizeof *row);
        void *scratch = malloc(GPUB(batch_to_affine_scratch_size)(SY_ENTRIES));
        if (row && scratch) {
            row[0] = base[w];
            for (unsigned d = 1; d < SY_ENTRIES; d++)
                GPUB(jacobian_add)(&row[d], &row[d - 1], &base[w]);
            GPUB(jacobian_batch_to_affine_var)(table + w * SY_ENTRIES, row, SY_ENTRIES, scratch);
        } else {
            failed = 1;
        }
        free(row);
        free(scratch);
    }
    return failed ? -1 : 0;
}

static int SY(generate)(GA *points, mulred_scalar256 *scalars, uint64_t seed, uint64_t first,
                        size_t n, int threads, mulred_error *err)
{
    if (n == 0) return MULRED_OK;
    const int T = mulred_threads_resolve(threads);
    const size_t B = MULRED_MSM_SYNTH_BLOCK;
    GA *table = malloc((size_t)SY_WINDOWS * SY_ENTRIES * sizeof *table);
    GA *beta = malloc(B * sizeof *beta);
    GJ *beta_j = malloc(B * sizeof *beta_j);
    void *norm = malloc(GPUB(batch_to_affine_scratch_size)(B));
    _Atomic int failed = 0;
    if (!table || !beta || !beta_j || !norm || SY(build_table)(table, T)) {
        failed = 1;
        goto done;
    }
    /* B_j = β_j·G for every offset of a block (the slice may touch any of them) */
#pragma omp parallel for schedule(static) num_threads(T)
    for (size_t j = 0; j < B; j++) {
        uint64_t b[4];
        msm_synth_beta(b, SY_CURVE, seed, j);
        SY(comb_mul)(&beta_j[j], table, b);
    }
    GPUB(jacobian_batch_to_affine_var)(beta, beta_j, B, norm);

    const uint64_t block0 = first / B, block1 = (first + n - 1) / B + 1;
#pragma omp parallel num_threads(T)
    {
        GA **acc = malloc(B * sizeof *acc);
        const GA **pts = malloc(B * sizeof *pts);
        void *scratch = malloc(GPUB(batch_add_affine_scratch_size)(B));
        if (!acc || !pts || !scratch) failed = 1;
#pragma omp for schedule(dynamic)
        for (uint64_t k = block0; k < block1; k++) {
            if (failed) continue;
            uint64_t a[4];
            GJ aj;
            GA ak;
            msm_synth_alpha(a, SY_CURVE, seed, k);
            SY(comb_mul)(&aj, table, a);
            GPUB(jacobian_to_affine)(&ak, &aj);
            const uint64_t lo = k * B > first ? k * B : first;
            const uint64_t hi = (k + 1) * B < first + n ? (k + 1) * B : first + n;
            size_t m = 0;
            for (uint64_t i = lo; i < hi; i++, m++) {
                points[i - first] = ak;
                acc[m] = &points[i - first];
                pts[m] = &beta[i % B];
                mulred_msm_synth_scalar(&scalars[i - first], SY_CURVE, seed, i);
            }
            GPUB(batch_add_affine_var)(acc, pts, m, scratch);
        }
        free(acc);
        free(pts);
        free(scratch);
    }
done:
    free(table);
    free(beta);
    free(beta_j);
    free(norm);
    if (failed) return mulred_error_set(err, MULRED_ERUNTIME, "msm: synthetic set: out of memory");
    return MULRED_OK;
}

#undef SY_CAT_
#undef SY_CAT
#undef GPUB
#undef GA
#undef GJ
#undef SY
#undef SY_WINDOWS
#undef SY_ENTRIES

/* The G2 MSM suites of one curve (test_msm_g2.c includes this once per curve), with
 *   TG  g2_381 / g2_254     TC  0 / 1 (g2_ref.h's curve index)     TRBITS  bits of r */

#define T_CAT_(a, b) a##b
#define T_CAT(a, b)  T_CAT_(a, b)
#define GP(name)     T_CAT(T_CAT(mulred_, TG), _##name)
#define GA           T_CAT(T_CAT(mulred_, TG), _affine)
#define GJ           T_CAT(T_CAT(mulred_, TG), _jacobian)
#define L(name)      T_CAT(TG, _m_##name)

typedef struct {
    size_t n;
    mpz_t *a; /* discrete logs to G (0: infinity) */
    GA *pts;
    mulred_scalar256 *s;
} L(inst);

static void L(alloc)(L(inst) * I, size_t n)
{
    I->n = n;
    I->a = malloc(n * sizeof *I->a);
    I->pts = malloc(n * sizeof *I->pts);
    I->s = calloc(n, sizeof *I->s);
    CU_ASSERT_FATAL(I->a && I->pts && I->s);
    for (size_t i = 0; i < n; i++) mpz_init(I->a[i]);
}

static void L(free)(L(inst) * I)
{
    for (size_t i = 0; i < I->n; i++) mpz_clear(I->a[i]);
    free(I->a);
    free(I->pts);
    free(I->s);
}

/* Points aᵢ·G by the curve layer's scalar multiplication (checked against the reference in
 * test_g2.c), normalised together. */
static void L(points)(L(inst) * I)
{
    GJ *j = malloc(I->n * sizeof *j);
    void *scratch = malloc(GP(batch_to_affine_scratch_size)(I->n));
    CU_ASSERT_FATAL(j && scratch);
    GA g;
    GJ gj;
    GP(generator)(&g);
    GP(jacobian_from_affine)(&gj, &g);
    for (size_t i = 0; i < I->n; i++) {
        uint64_t k[4] = {0};
        mpz_export(k, NULL, -1, 8, 0, 0, I->a[i]);
        GP(jacobian_mul_glv_var)(&j[i], &gj, k);
    }
    GP(jacobian_batch_to_affine_var)(I->pts, j, I->n, scratch);
    free(j);
    free(scratch);
}

/* Logs in an arithmetic progression a0 + i·d (one addition a point: the 2^12 instance). */
static void L(progression)(L(inst) * I)
{
    const ref_curve2 *c = ref2_curve(TC);
    mpz_t a0, d;
    mpz_inits(a0, d, NULL);
    random_below(a0, c->r);
    random_below(d, c->r);
    GA g;
    GJ p, step, *j = malloc(I->n * sizeof *j);
    void *scratch = malloc(GP(batch_to_affine_scratch_size)(I->n));
    CU_ASSERT_FATAL(j && scratch);
    GP(generator)(&g);
    GP(jacobian_from_affine)(&p, &g);
    uint64_t k[4] = {0};
    mpz_export(k, NULL, -1, 8, 0, 0, d);
    GP(jacobian_mul_var)(&step, &p, k);
    memset(k, 0, sizeof k);
    mpz_export(k, NULL, -1, 8, 0, 0, a0);
    GP(jacobian_mul_var)(&p, &p, k);
    for (size_t i = 0; i < I->n; i++) {
        mpz_set(I->a[i], a0);
        mpz_addmul_ui(I->a[i], d, i);
        mpz_mod(I->a[i], I->a[i], c->r);
        j[i] = p;
        GP(jacobian_add)(&p, &p, &step);
    }
    GP(jacobian_batch_to_affine_var)(I->pts, j, I->n, scratch);
    free(j);
    free(scratch);
    mpz_clears(a0, d, NULL);
}

/* The expected (Σ aᵢ·sᵢ mod r)·G by the reference. */
static void L(expect)(const L(inst) * I, ref_point2 *want)
{
    const ref_curve2 *c = ref2_curve(TC);
    mpz_t acc, s;
    mpz_inits(acc, s, NULL);
    for (size_t i = 0; i < I->n; i++) {
        ref_mpz_from_u256(s, I->s[i].l);
        mpz_addmul(acc, I->a[i], s);
    }
    mpz_mod(acc, acc, c->r);
    ref2_mul(c, want, &c->g, acc);
    mpz_clears(acc, s, NULL);
}

static int L(matches)(const GJ *r, const ref_point2 *want)
{
    ref_point2 got;
    ref_point2_init(&got);
    ref2_from_jacobian(TC, &got, r);
    const int ok = ref_point2_equal(&got, want);
    ref_point2_clear(&got);
    return ok;
}

static int L(serial)(const L(inst) * I, const mulred_msm_options *o, const ref_point2 *want,
                     const char *what)
{
    mulred_msm_plan plan;
    GP(msm_plan)(&plan, I->n, o);
    const mulred_msm_lanes asked = o ? o->lanes : MULRED_MSM_LANES_AUTO;
    CU_ASSERT(plan.lanes == (asked != MULRED_MSM_LANES_AUTO ? asked
                             : mulred_fieldx8_have_ifma()   ? MULRED_MSM_LANES_X8
                                                            : MULRED_MSM_LANES_SCALAR));
    void *scratch = malloc(GP(msm_scratch_size)(&plan, I->n));
    CU_ASSERT_FATAL(scratch != NULL);
    GJ r;
    GP(msm_serial_var)(&r, &plan, I->pts, I->s, I->n, scratch);
    free(scratch);
    const int ok = L(matches)(&r, want);
    if (!ok)
        printf("\n    MISMATCH %s %s n=%zu c=%u form=%s glv=%d batch=%u queue=%u (seed %llu)",
               ref2_curve(TC)->name, what, I->n, plan.window_bits,
               plan.bucket_form == MULRED_MSM_BUCKETS_AFFINE ? "affine" : "xyzz", plan.glv,
               plan.batch, plan.queue, (unsigned long long)test_seed());
    return ok;
}

/* The lanes of the runs with GLV: the 8-lane batch path in the 8-lane part (x8_part), else the
 * scalar one. */
static mulred_msm_lanes L(glv_lanes)(void)
{
    return x8_part ? MULRED_MSM_LANES_X8 : MULRED_MSM_LANES_SCALAR;
}

/* Both bucket forms and GLV on and off at width c (0: the cost model), all scalar; in the 8-lane
 * part only the runs with GLV, on 8 lanes. */
static int L(variants)(const L(inst) * I, int c, const ref_point2 *want, const char *what)
{
    int ok = 1;
    for (int form = 1; form <= 2; form++)
        for (int glv = -1; glv <= 1; glv += 2) {
            if (x8_part && glv < 0) continue;
            mulred_msm_options o = {.window_bits = c,
                                    .glv = glv,
                                    .buckets = (mulred_msm_buckets)form,
                                    .lanes = glv > 0 ? L(glv_lanes)() : MULRED_MSM_LANES_SCALAR};
            ok &= L(serial)(I, &o, want, what);
        }
    return ok;
}

/* n in 1…300 (sampled) with the automatic plan and a few widths, and 2^12. */
static void L(sizes_run)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    const size_t sizes[] = {1, 2, 3, 5, 8, 17, 64, 100, 129, 255, 300};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        L(inst) I;
        L(alloc)(&I, sizes[si]);
        for (size_t i = 0; i < I.n; i++) {
            random_below(I.a[i], c->r);
            random_scalar(&I.s[i]);
        }
        L(points)(&I);
        ref_point2 want;
        ref_point2_init(&want);
        L(expect)(&I, &want);
        int ok = x8_part || L(serial)(&I, NULL, &want, "auto");
        const int widths[] = {1, 4, 8};
        for (int w = 0; w < 3; w++)
            if (si % 3 == (size_t)w || si == 0) ok &= L(variants)(&I, widths[w], &want, "size");
        CU_ASSERT(ok);
        ref_point2_clear(&want);
        L(free)(&I);
    }
    L(inst) I;
    L(alloc)(&I, 4096);
    L(progression)(&I);
    for (size_t i = 0; i < I.n; i++) random_scalar(&I.s[i]);
    ref_point2 want;
    ref_point2_init(&want);
    L(expect)(&I, &want);
    int ok = x8_part || L(serial)(&I, NULL, &want, "2^12 auto");
    mulred_msm_options o = {
        .window_bits = 11, .glv = 1, .buckets = MULRED_MSM_BUCKETS_AFFINE, .lanes = L(glv_lanes)()};
    ok &= L(serial)(&I, &o, &want, "2^12 c=11 glv");
    o = (mulred_msm_options){.window_bits = 9, .glv = -1, .buckets = MULRED_MSM_BUCKETS_XYZZ};
    if (!x8_part) ok &= L(serial)(&I, &o, &want, "2^12 c=9 xyzz");
    CU_ASSERT(ok);
    ref_point2_clear(&want);
    L(free)(&I);
}

/* The traps of the G1 suite, on G2. */
static void L(traps_run)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    const size_t n = 300;
    for (int trap = 0; trap < 9; trap++) {
        L(inst) I;
        L(alloc)(&I, trap == 0 ? 1 : n);
        mpz_t t, a0;
        mpz_inits(t, a0, NULL);
        random_below(a0, c->r);
        for (size_t i = 0; i < I.n; i++) {
            random_below(I.a[i], c->r);
            random_scalar(&I.s[i]);
            switch (trap) {
            case 1: /* every scalar 0 */
                memset(&I.s[i], 0, sizeof I.s[i]);
                break;
            case 2: /* infinity as input: every third point */
                if (i % 3 == 0) mpz_set_ui(I.a[i], 0);
                break;
            case 3: /* all points equal */
                mpz_set(I.a[i], a0);
                break;
            case 4: /* only P and −P with small scalars: P = ±Q in every batch */
                mpz_set(I.a[i], a0);
                if (i % 2) mpz_sub(I.a[i], c->r, a0);
                I.s[i] = (mulred_scalar256){{1 + test_rand_below(40), 0, 0, 0}};
                break;
            case 5: /* scalars r, r + 1, r − 1, 2^256 − 1, 2^256 − r */
                switch (i % 5) {
                case 0:
                    mpz_set(t, c->r);
                    break;
                case 1:
                    mpz_add_ui(t, c->r, 1);
                    break;
                case 2:
                    mpz_sub_ui(t, c->r, 1);
                    break;
                case 3:
                    mpz_ui_pow_ui(t, 2, 256), mpz_sub_ui(t, t, 1);
                    break;
                default:
                    mpz_ui_pow_ui(t, 2, 256), mpz_sub(t, t, c->r);
                    break;
                }
                memset(&I.s[i], 0, sizeof I.s[i]);
                mpz_export(I.s[i].l, NULL, -1, 8, 0, 0, t);
                break;
            case 6: /* the carry out of the last window */
                mpz_ui_pow_ui(t, 2, TRBITS - 1 - (i % 3));
                mpz_sub_ui(t, t, 1 + (i % 7 == 0));
                memset(&I.s[i], 0, sizeof I.s[i]);
                mpz_export(I.s[i].l, NULL, -1, 8, 0, 0, t);
                break;
            case 7: /* few distinct points, mixed with their negatives */
                mpz_set_ui(I.a[i], 1 + i % 5);
                if (i % 4 == 1) mpz_sub(I.a[i], c->r, I.a[i]);
                break;
            case 8: /* small scalars (few buckets), some zero */
                I.s[i] = (mulred_scalar256){{test_rand_below(5), 0, 0, 0}};
                break;
            }
        }
        L(points)(&I);
        ref_point2 want;
        ref_point2_init(&want);
        L(expect)(&I, &want);
        int ok = x8_part || L(serial)(&I, NULL, &want, "trap auto");
        /* the top window: c dividing the scalar bits (255: 3, 5, 15; 254: 2, 127: 1) */
        const int widths[] = {1, 2, 3, 5, 8, 15};
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
            if ((size_t)trap % 3 == wi % 3 || trap == 0)
                ok &= L(variants)(&I, widths[wi], &want, "trap");
        const int queues[] = {-1, 1, 0};
        for (int q = 0; q < 3; q++) {
            if (x8_part && q == 1) continue; /* the scalar batch of 8 */
            mulred_msm_options o = {.window_bits = 7,
                                    .buckets = MULRED_MSM_BUCKETS_AFFINE,
                                    .queue = queues[q],
                                    .batch = q == 1 ? 8 : 0,
                                    .glv = q == 2 ? 1 : -1,
                                    .lanes = q == 1 ? MULRED_MSM_LANES_SCALAR : L(glv_lanes)()};
            ok &= L(serial)(&I, &o, &want, "queue");
        }
        if (!ok) printf("\n    (trap %d)", trap);
        CU_ASSERT(ok);
        ref_point2_clear(&want);
        mpz_clears(t, a0, NULL);
        L(free)(&I);
    }
}

static void L(sizes)(void)
{
    x8_part = 0;
    L(sizes_run)();
}

static void L(traps)(void)
{
    x8_part = 0;
    L(traps_run)();
}

/* The 8-lane part: the runs of sizes and traps that can take the 8-lane batch path, on it. */
static void L(sizes_x8)(void)
{
    if (!test_have_x8()) {
        test_skip("CPU lacks avx512f/avx512vl/avx512ifma: 8-lane G2 MSM");
        return;
    }
    x8_part = 1;
    L(sizes_run)();
    x8_part = 0;
}

static void L(traps_x8)(void)
{
    if (!test_have_x8()) {
        test_skip("CPU lacks avx512f/avx512vl/avx512ifma: 8-lane G2 MSM");
        return;
    }
    x8_part = 1;
    L(traps_run)();
    x8_part = 0;
}

/* Threads 1–3: the same Jacobian bytes; nested inside a parallel region and from tasks. */
static void L(threads)(void)
{
    const ref_curve2 *c = ref2_curve(TC);
    L(inst) I;
    L(alloc)(&I, 700);
    for (size_t i = 0; i < I.n; i++) {
        random_below(I.a[i], c->r);
        random_scalar(&I.s[i]);
    }
    L(points)(&I);
    ref_point2 want;
    ref_point2_init(&want);
    L(expect)(&I, &want);
    for (int variant = 0; variant < 2; variant++) {
        mulred_msm_options o = {0};
        if (variant == 1) o.glv = 1, o.window_bits = 13; /* 10 windows: ranges for 3 threads */
        GJ r[4];
        memset(r, 0, sizeof r);
        mulred_error err;
        for (int t = 0; t < 4; t++) {
            CU_ASSERT(GP(msm_var)(&r[t], I.pts, I.s, I.n, &o, t, &err) == MULRED_OK);
            CU_ASSERT(L(matches)(&r[t], &want));
        }
        for (int t = 0; t < 3; t++) CU_ASSERT(memcmp(&r[t], &r[t + 1], sizeof r[t]) == 0);
    }
    GJ nested[4];
    int st[4];
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(dynamic, 1)
        for (int k = 0; k < 2; k++) {
            mulred_error err;
            st[k] = GP(msm_var)(&nested[k], I.pts, I.s, I.n, NULL, 2, &err);
        }
#pragma omp single
        {
            for (int k = 2; k < 4; k++) {
#pragma omp task firstprivate(k) shared(nested, st, I)
                {
                    mulred_error err;
                    st[k] = GP(msm_var)(&nested[k], I.pts, I.s, I.n, NULL, 3, &err);
                }
            }
#pragma omp taskwait
        }
    }
    for (int k = 0; k < 4; k++) {
        CU_ASSERT(st[k] == MULRED_OK);
        CU_ASSERT(L(matches)(&nested[k], &want));
    }
    /* the point group: identity and combine (the distributed reduction's view) */
    const mulred_group *g =
        mulred_msm_point_group(TC == 0 ? MULRED_CURVE_BLS12_381_G2 : MULRED_CURVE_BN254_G2);
    CU_ASSERT(g->elem_bytes == sizeof(GJ));
    /* the 0.2 spelling names the same group */
    CU_ASSERT(mulred_msm_point_group_g2(TC == 0 ? MULRED_CURVE_BLS12_381 : MULRED_CURVE_BN254) ==
              g);
    mulred_pairing_group pg = MULRED_GROUP_G1;
    CU_ASSERT(mulred_group_parse(&pg, "g2") == MULRED_OK && pg == MULRED_GROUP_G2);
    CU_ASSERT(strcmp(mulred_group_name(MULRED_GROUP_G2), "g2") == 0);
    GJ acc, half[2];
    g->identity(&acc, g);
    mulred_error err;
    CU_ASSERT(GP(msm_var)(&half[0], I.pts, I.s, 350, NULL, 1, &err) == MULRED_OK);
    CU_ASSERT(GP(msm_var)(&half[1], I.pts + 350, I.s + 350, 350, NULL, 1, &err) == MULRED_OK);
    g->combine(&acc, &half[1], g);
    g->combine(&acc, &half[0], g);
    CU_ASSERT(L(matches)(&acc, &want));
    ref_point2_clear(&want);
    L(free)(&I);
}

#undef T_CAT_
#undef T_CAT
#undef GP
#undef GA
#undef GJ
#undef L

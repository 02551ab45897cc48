/* MuHash3072: the published vectors of Bitcoin Core and Kaspa, and the multiset properties,
 * through the library; the parallel engine against the sequential path. */
#include <gmp.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mulred/muhash.h"
#include "hash/hash.h"
#include "num3072/num3072.h"
#include "util/util.h"

static json_t *load(const char *rel)
{
    json_error_t err;
    json_t *v = json_load_file(test_vector_path(rel), JSON_REJECT_DUPLICATES, &err);
    if (!v) printf("\n    %s: line %d: %s\n", rel, err.line, err.text);
    return v;
}

/* A member's string; NULL when absent or not a string. */
static const char *str_of(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* Applies a vector case's insert/remove lists (hex strings) to s. */
static void apply_lists(mulred_muhash_state *s, mulred_muhash_ctx *ctx, const json_t *c)
{
    static const char *keys[] = {"insert", "remove"};
    for (int k = 0; k < 2; k++) {
        const json_t *list = json_object_get(c, keys[k]);
        for (size_t i = 0; i < json_array_size(list); i++) {
            size_t len;
            uint8_t *b = test_unhex(json_string_value(json_array_get(list, i)), &len);
            if (k == 0)
                mulred_muhash_insert(s, ctx, b, len);
            else
                mulred_muhash_remove(s, ctx, b, len);
            free(b);
        }
    }
}

static void display_of(char hex[65], const mulred_muhash_state *s)
{
    uint8_t d[32];
    mulred_muhash_finalize(d, s);
    mulred_muhash_display(hex, d, s->flavor);
}

static void check_cases(const char *rel, mulred_muhash_flavor flavor)
{
    json_t *v = load(rel);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const json_t *cases = json_object_get(v, "cases");
    CU_ASSERT_FATAL(json_array_size(cases) >= 2);
    mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(flavor);
    for (size_t i = 0; i < json_array_size(cases); i++) {
        mulred_muhash_state s;
        char hex[65];
        mulred_muhash_init(&s, flavor);
        apply_lists(&s, ctx, json_array_get(cases, i));
        display_of(hex, &s);
        const char *want = str_of(json_array_get(cases, i), "display");
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        CU_ASSERT_STRING_EQUAL(hex, want);
    }
    /* serialization */
    const json_t *ser = json_object_get(v, "serialization");
    mulred_muhash_state s;
    mulred_muhash_init(&s, flavor);
    apply_lists(&s, ctx, ser);
    uint8_t out[768];
    size_t n = mulred_muhash_serialize(out, &s);
    size_t want_len;
    uint8_t *want = test_unhex(str_of(ser, "hex"), &want_len);
    CU_ASSERT_EQUAL(n, want_len);
    CU_ASSERT(memcmp(out, want, n) == 0);
    /* parse round trip */
    mulred_muhash_state back;
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_muhash_parse(&back, flavor, want, want_len, &err), MULRED_OK);
    char h1[65], h2[65];
    display_of(h1, &s);
    display_of(h2, &back);
    CU_ASSERT_STRING_EQUAL(h1, h2);
    free(want);
    mulred_muhash_ctx_free(ctx);
    json_decref(v);
}

/* The vectors through every multiply kernel this CPU runs. */
static void check_cases_all_kernels(const char *rel, mulred_muhash_flavor flavor)
{
    const char *active = mulred_num3072_kernel_name();
    int n;
    const num3072_kernel *k = num3072_kernels(&n);
    for (int i = 0; i < n; i++) {
        if (num3072_kernel_select(k[i].name) != 0) continue;
        check_cases(rel, flavor);
    }
    num3072_kernel_select(active);
}

static void test_bitcoin_vectors(void)
{
    check_cases_all_kernels("bitcoin/muhash.json", MULRED_MUHASH_BITCOIN);
}

static void test_kaspa_vectors(void)
{
    check_cases_all_kernels("kaspa/muhash.json", MULRED_MUHASH_KASPA);
}

/* mulred_muhash_update_raw over the published cases: the elements of a case concatenated in
 * one buffer (inserts, then removes), with 1 and 3 threads; an element above the limit is bad
 * input naming its index. */
static void check_raw_cases(const char *rel, mulred_muhash_flavor flavor)
{
    json_t *v = load(rel);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const json_t *cases = json_object_get(v, "cases");
    static const char *keys[] = {"insert", "remove"};
    for (size_t i = 0; i < json_array_size(cases); i++) {
        const json_t *c = json_array_get(cases, i);
        for (int threads = 1; threads <= 3; threads += 2) {
            mulred_muhash_state s;
            mulred_muhash_init(&s, flavor);
            for (int k = 0; k < 2; k++) {
                const json_t *list = json_object_get(c, keys[k]);
                const size_t n = json_array_size(list);
                size_t *lens = calloc(n + 1, sizeof *lens), total = 0;
                uint8_t *data = NULL;
                for (size_t j = 0; j < n; j++) {
                    size_t len;
                    uint8_t *b = test_unhex(json_string_value(json_array_get(list, j)), &len);
                    data = realloc(data, total + len + 1);
                    memcpy(data + total, b, len);
                    total += len, lens[j] = len;
                    free(b);
                }
                mulred_error err;
                CU_ASSERT_EQUAL(mulred_muhash_update_raw(&s, data, lens, n, k == 1, threads, &err),
                                MULRED_OK);
                free(data), free(lens);
            }
            char hex[65];
            display_of(hex, &s);
            CU_ASSERT_STRING_EQUAL(hex, str_of(c, "display"));
        }
    }
    json_decref(v);
}

static void test_update_raw(void)
{
    check_raw_cases("bitcoin/muhash.json", MULRED_MUHASH_BITCOIN);
    check_raw_cases("kaspa/muhash.json", MULRED_MUHASH_KASPA);
    /* many elements of every length 0..700 (several chunks): equal to inserting one by one */
    enum { N = 3000 };
    size_t *lens = malloc(N * sizeof *lens), total = 0;
    for (size_t i = 0; i < N; i++) total += lens[i] = (i * 7919) % 701;
    uint8_t *data = malloc(total);
    test_rand_bytes(data, total);
    mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_BITCOIN);
    mulred_muhash_state a, b;
    mulred_muhash_init(&a, MULRED_MUHASH_BITCOIN);
    mulred_muhash_init(&b, MULRED_MUHASH_BITCOIN);
    const uint8_t *p = data;
    for (size_t i = 0; i < N; i++) {
        if (i % 3 == 0) mulred_muhash_insert(&a, ctx, p, lens[i]);
        p += lens[i];
    }
    mulred_muhash_insert(&b, ctx, data, 5); /* b starts non-empty: the update combines into it */
    mulred_muhash_insert(&a, ctx, data, 5);
    mulred_error err;
    CU_ASSERT_EQUAL(mulred_muhash_update_raw(&b, data, lens, N, false, 2, &err), MULRED_OK);
    p = data;
    size_t *rl = malloc(N * sizeof *rl), rn = 0, rtotal = 0;
    uint8_t *rdata = malloc(total);
    for (size_t i = 0; i < N; i++) {
        if (i % 3) memcpy(rdata + rtotal, p, lens[i]), rtotal += lens[i], rl[rn++] = lens[i];
        p += lens[i];
    }
    CU_ASSERT_EQUAL(mulred_muhash_update_raw(&b, rdata, rl, rn, true, 2, &err), MULRED_OK);
    char ha[65], hb[65];
    display_of(ha, &a);
    display_of(hb, &b);
    CU_ASSERT_STRING_EQUAL(ha, hb);
    /* an element above the limit: bad input, the state unchanged */
    size_t big[3] = {1, MULRED_MUHASH_MAX_ELEMENT + 1, 1};
    uint8_t *bigdata = calloc(1, MULRED_MUHASH_MAX_ELEMENT + 3);
    CU_ASSERT_EQUAL(mulred_muhash_update_raw(&b, bigdata, big, 3, false, 1, &err), MULRED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, "element 1: 65537 bytes, at most 65536");
    display_of(hb, &b);
    CU_ASSERT_STRING_EQUAL(ha, hb);
    free(bigdata), free(rdata), free(rl), free(data), free(lens);
    mulred_muhash_ctx_free(ctx);
}

static void test_bitcoin_overflow(void)
{
    json_t *v = load("bitcoin/muhash.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const json_t *o = json_object_get(v, "overflow");
    size_t nl, dl, rl;
    uint8_t *num = test_unhex(str_of(o, "numerator_hex"), &nl);
    uint8_t *den = test_unhex(str_of(o, "denominator_hex"), &dl);
    uint8_t *raw = test_unhex(str_of(o, "raw"), &rl);
    CU_ASSERT_FATAL(nl == 384 && dl == 384 && rl == 32);
    uint8_t buf[768];
    memcpy(buf, num, 384);
    memcpy(buf + 384, den, 384);
    mulred_muhash_state s;
    mulred_error err;
    CU_ASSERT_EQUAL_FATAL(mulred_muhash_parse(&s, MULRED_MUHASH_BITCOIN, buf, 768, &err),
                          MULRED_OK);
    uint8_t d[32];
    mulred_muhash_finalize(d, &s);
    CU_ASSERT(memcmp(d, raw, 32) == 0);
    /* wrong length is bad input */
    CU_ASSERT_EQUAL(mulred_muhash_parse(&s, MULRED_MUHASH_BITCOIN, buf, 767, &err), MULRED_EINPUT);
    free(num), free(den), free(raw);
    json_decref(v);
}

static void test_kaspa_parse_and_cumulative(void)
{
    json_t *v = load("kaspa/muhash.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const json_t *parse = json_object_get(v, "parse");
    static const char *lists[] = {"must_fail", "must_parse"};
    for (int k = 0; k < 2; k++) {
        const json_t *l = json_object_get(parse, lists[k]);
        CU_ASSERT_FATAL(json_array_size(l) > 0);
        for (size_t i = 0; i < json_array_size(l); i++) {
            size_t len;
            uint8_t *b = test_unhex(json_string_value(json_array_get(l, i)), &len);
            mulred_muhash_state s;
            mulred_error err;
            mulred_error_clear(&err);
            int st = mulred_muhash_parse(&s, MULRED_MUHASH_KASPA, b, len, &err);
            CU_ASSERT_EQUAL(st, k == 0 ? MULRED_EINPUT : MULRED_OK);
            if (k == 0) CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "modulus"));
            free(b);
        }
    }
    /* single and cumulative digests; then removing in reverse walks back to empty */
    const json_t *tv = json_object_get(v, "test_vectors");
    size_t ntv = json_array_size(tv);
    CU_ASSERT_FATAL(ntv > 0);
    mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_KASPA);
    mulred_muhash_state cum, single;
    mulred_muhash_init(&cum, MULRED_MUHASH_KASPA);
    char hex[65];
    char **cum_hex = calloc(ntv, sizeof *cum_hex);
    for (size_t i = 0; i < ntv; i++) {
        const json_t *t = json_array_get(tv, i);
        size_t len;
        uint8_t *b = test_unhex(str_of(t, "data"), &len);
        mulred_muhash_init(&single, MULRED_MUHASH_KASPA);
        mulred_muhash_insert(&single, ctx, b, len);
        display_of(hex, &single);
        CU_ASSERT_STRING_EQUAL(hex, str_of(t, "single"));
        mulred_muhash_insert(&cum, ctx, b, len);
        display_of(hex, &cum);
        CU_ASSERT_STRING_EQUAL(hex, str_of(t, "cumulative"));
        cum_hex[i] = strdup(hex);
        free(b);
    }
    const char *empty = str_of(json_array_get(json_object_get(v, "cases"), 0), "display");
    CU_ASSERT_PTR_NOT_NULL_FATAL(empty);
    for (size_t i = ntv; i-- > 0;) {
        display_of(hex, &cum);
        CU_ASSERT_STRING_EQUAL(hex, cum_hex[i]);
        size_t len;
        uint8_t *b = test_unhex(str_of(json_array_get(tv, i), "data"), &len);
        mulred_muhash_remove(&cum, ctx, b, len);
        free(b);
        free(cum_hex[i]);
    }
    free(cum_hex);
    display_of(hex, &cum);
    CU_ASSERT_STRING_EQUAL(hex, empty);
    mulred_muhash_ctx_free(ctx);
    json_decref(v);
}

/* ---- properties on random multisets, both flavors ---- */

enum { NELEM = 300 };
static uint8_t elem_data[NELEM][120];
static size_t elem_len[NELEM];

static void random_elements(void)
{
    for (int i = 0; i < NELEM; i++) {
        elem_len[i] = test_rand_below(sizeof elem_data[i] + 1);
        test_rand_bytes(elem_data[i], elem_len[i]);
    }
}

static void digest_of_order(char hex[65], mulred_muhash_flavor f, const int *order, int n, int rem)
{
    mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(f);
    mulred_muhash_state s;
    mulred_muhash_init(&s, f);
    for (int i = 0; i < n; i++) {
        int e = order[i];
        if (rem && e % 3 == 0)
            mulred_muhash_remove(&s, ctx, elem_data[e], elem_len[e]);
        else
            mulred_muhash_insert(&s, ctx, elem_data[e], elem_len[e]);
    }
    display_of(hex, &s);
    mulred_muhash_ctx_free(ctx);
}

static void test_properties(void)
{
    random_elements();
    for (int f = 0; f < 2; f++) {
        mulred_muhash_flavor flavor = (mulred_muhash_flavor)f;
        int order[NELEM];
        for (int i = 0; i < NELEM; i++) order[i] = i;
        char a[65], b[65], empty[65];
        digest_of_order(a, flavor, order, NELEM, 1);
        for (int i = NELEM - 1; i > 0; i--) { /* shuffle */
            int j = (int)test_rand_below((uint64_t)i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        digest_of_order(b, flavor, order, NELEM, 1);
        CU_ASSERT_STRING_EQUAL(a, b); /* order independence */

        mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(flavor);
        mulred_muhash_state s, t, u, both;
        mulred_muhash_init(&s, flavor);
        display_of(empty, &s);
        for (int i = 0; i < NELEM; i++) mulred_muhash_insert(&s, ctx, elem_data[i], elem_len[i]);
        for (int i = 0; i < NELEM; i++) mulred_muhash_remove(&s, ctx, elem_data[i], elem_len[i]);
        display_of(a, &s);
        CU_ASSERT_STRING_EQUAL(a, empty); /* insert then remove returns to empty */

        /* combine equals inserting both sets; insert_many equals insert */
        mulred_muhash_init(&t, flavor);
        mulred_muhash_init(&u, flavor);
        mulred_muhash_init(&both, flavor);
        mulred_bytes batch[NELEM];
        for (int i = 0; i < NELEM; i++) {
            batch[i] = (mulred_bytes){elem_data[i], elem_len[i]};
            mulred_muhash_insert(i < NELEM / 2 ? &t : &u, ctx, elem_data[i], elem_len[i]);
        }
        mulred_muhash_insert_many(&both, ctx, batch, NELEM);
        mulred_muhash_remove_many(&both, ctx, batch, 7);
        mulred_muhash_combine(&t, &u);
        for (int i = 0; i < 7; i++) mulred_muhash_remove(&t, ctx, elem_data[i], elem_len[i]);
        display_of(a, &t);
        display_of(b, &both);
        CU_ASSERT_STRING_EQUAL(a, b);

        /* serialize / parse round trip */
        uint8_t ser[768], ser2[768];
        size_t n = mulred_muhash_serialize(ser, &t);
        CU_ASSERT_EQUAL(n, mulred_muhash_serialized_size(flavor));
        mulred_muhash_state back;
        mulred_error err;
        CU_ASSERT_EQUAL(mulred_muhash_parse(&back, flavor, ser, n, &err), MULRED_OK);
        CU_ASSERT_EQUAL(mulred_muhash_serialize(ser2, &back), n);
        CU_ASSERT(memcmp(ser, ser2, n) == 0);
        display_of(b, &back);
        CU_ASSERT_STRING_EQUAL(a, b);
        mulred_muhash_ctx_free(ctx);
    }
}

/* The product mod p recomputed with mpz from the element numbers: the normalized value must
 * match the kaspa serialization (num/den mod p). */
static void test_against_mpz(void)
{
    random_elements();
    mpz_t p, num, den, x;
    mpz_inits(p, num, den, x, NULL);
    mpz_set_ui(p, 1);
    mpz_mul_2exp(p, p, 3072);
    mpz_sub_ui(p, p, 1103717);
    mpz_set_ui(num, 1);
    mpz_set_ui(den, 1);
    mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(MULRED_MUHASH_KASPA);
    mulred_muhash_state s;
    mulred_muhash_init(&s, MULRED_MUHASH_KASPA);
    for (int i = 0; i < NELEM; i++) {
        mulred_num3072 e;
        mulred_muhash_element(&e, ctx, elem_data[i], elem_len[i]);
        mpz_import(x, 48, -1, 8, 0, 0, e.limb);
        if (i % 4 == 1) {
            mpz_mul(den, den, x);
            mpz_mod(den, den, p);
            mulred_muhash_remove(&s, ctx, elem_data[i], elem_len[i]);
        } else {
            mpz_mul(num, num, x);
            mpz_mod(num, num, p);
            mulred_muhash_insert(&s, ctx, elem_data[i], elem_len[i]);
        }
    }
    CU_ASSERT(mpz_invert(den, den, p));
    mpz_mul(num, num, den);
    mpz_mod(num, num, p);
    uint8_t ser[384], ref[384] = {0};
    mulred_muhash_serialize(ser, &s);
    mpz_export(ref, NULL, -1, 1, 0, 0, num);
    CU_ASSERT(memcmp(ser, ref, 384) == 0);
    mulred_muhash_ctx_free(ctx);
    mpz_clears(p, num, den, x, NULL);
}

/* ---- the parallel engine ---- */

typedef struct {
    size_t per_chunk;
    int remove_every; /* every k-th element is removed (0: none) */
    int fail_chunk;   /* -1: none */
} par_src;

static mulred_status par_produce(void *vctx, size_t c, mulred_muhash_sink *sink, mulred_error *err)
{
    const par_src *ps = vctx;
    if ((int)c == ps->fail_chunk)
        return mulred_error_set(err, MULRED_EINPUT, "chunk %zu is bad", c);
    for (size_t i = c * ps->per_chunk; i < (c + 1) * ps->per_chunk && i < NELEM; i++)
        mulred_muhash_sink_add(sink, elem_data[i], elem_len[i],
                               ps->remove_every && i % (size_t)ps->remove_every == 0);
    return MULRED_OK;
}

static void test_parallel_engine(void)
{
    random_elements();
    for (int f = 0; f < 2; f++) {
        mulred_muhash_flavor flavor = (mulred_muhash_flavor)f;
        char want[65], got[65];
        /* sequential reference: same removes as par_src with remove_every 5 */
        mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(flavor);
        mulred_muhash_state ref;
        mulred_muhash_init(&ref, flavor);
        for (int i = 0; i < NELEM; i++) {
            if (i % 5 == 0)
                mulred_muhash_remove(&ref, ctx, elem_data[i], elem_len[i]);
            else
                mulred_muhash_insert(&ref, ctx, elem_data[i], elem_len[i]);
        }
        display_of(want, &ref);
        mulred_muhash_ctx_free(ctx);
        static const size_t chunkings[] = {1, 7, 64, 1000};
        for (int threads = 1; threads <= 4; threads++)
            for (size_t k = 0; k < sizeof chunkings / sizeof chunkings[0]; k++) {
                par_src ps = {chunkings[k], 5, -1};
                size_t nch = (NELEM + ps.per_chunk - 1) / ps.per_chunk;
                /* split into two sources, the second possibly empty */
                par_src ps2 = ps;
                mulred_muhash_source src[2] = {{nch, par_produce, &ps}, {0, par_produce, &ps2}};
                mulred_muhash_state out;
                mulred_muhash_stats st;
                mulred_error err;
                mulred_error_clear(&err);
                CU_ASSERT_EQUAL(mulred_muhash_reduce(&out, flavor, src, 2, threads, &st, &err),
                                MULRED_OK);
                display_of(got, &out);
                CU_ASSERT_STRING_EQUAL(got, want);
                CU_ASSERT_EQUAL(st.inserted + st.removed, NELEM);
                CU_ASSERT_EQUAL(st.removed, (NELEM + 4) / 5);
                CU_ASSERT_EQUAL(st.threads, threads);
            }
        /* errors: the lowest failing chunk is reported */
        par_src bad = {3, 0, 17};
        mulred_muhash_source src = {(NELEM + 2) / 3, par_produce, &bad};
        mulred_muhash_state out;
        mulred_error err;
        mulred_error_clear(&err);
        CU_ASSERT_EQUAL(mulred_muhash_reduce(&out, flavor, &src, 1, 3, NULL, &err), MULRED_EINPUT);
        CU_ASSERT_STRING_EQUAL(err.message, "chunk 17 is bad");
    }
}

/* insert_many (batched hashing) against one-at-a-time inserts for every batch length 0..40. */
static void test_insert_many_lengths(void)
{
    random_elements();
    for (int f = 0; f < 2; f++) {
        mulred_muhash_ctx *ctx = mulred_muhash_ctx_new((mulred_muhash_flavor)f);
        mulred_bytes batch[40];
        for (size_t n = 0; n <= 40; n++) {
            mulred_muhash_state a, b;
            mulred_muhash_init(&a, (mulred_muhash_flavor)f);
            mulred_muhash_init(&b, (mulred_muhash_flavor)f);
            for (size_t i = 0; i < n; i++) {
                batch[i] = (mulred_bytes){elem_data[i + n], elem_len[i + n]};
                mulred_muhash_insert(&a, ctx, batch[i].data, batch[i].len);
            }
            mulred_muhash_insert_many(&b, ctx, batch, n);
            uint8_t sa[768], sb[768];
            size_t la = mulred_muhash_serialize(sa, &a), lb = mulred_muhash_serialize(sb, &b);
            CU_ASSERT(la == lb && memcmp(sa, sb, la) == 0);
        }
        mulred_muhash_ctx_free(ctx);
    }
}

/* ---- many states at once ---- */

/* The serialization of every state as mpz computes it from the element numbers: bitcoin
 * num ‖ den reduced, kaspa num/den mod p (the multiplications and the inverse are mpz's). */
static void mpz_serialization(uint8_t *out, mulred_muhash_flavor f, mpz_t num, mpz_t den,
                              const mpz_t p)
{
    mpz_t t;
    mpz_init(t);
    if (f == MULRED_MUHASH_BITCOIN) {
        memset(out, 0, 768);
        mpz_export(out, NULL, -1, 1, 0, 0, num);
        mpz_export(out + 384, NULL, -1, 1, 0, 0, den);
    } else {
        memset(out, 0, 384);
        CU_ASSERT_FATAL(mpz_invert(t, den, p) != 0);
        mpz_mul(t, t, num);
        mpz_mod(t, t, p);
        mpz_export(out, NULL, -1, 1, 0, 0, t);
    }
    mpz_clear(t);
}

enum { MAXSTATES = 100 };

/* Destination patterns: 0 all one state, 1 uniform random, 2 runs of random length per state,
 * 3 transaction-like (state k gets 2 removes then 2 inserts), 4 alternating directions. */
static void make_items(mulred_muhash_item *it, size_t n, size_t nstates, int pattern)
{
    size_t st = 0, left = 0;
    for (size_t i = 0; i < n; i++) {
        size_t e = test_rand_below(NELEM);
        bool rm = test_rand_below(3) == 0;
        switch (pattern) {
        case 0:
            st = 0;
            break;
        case 1:
            st = test_rand_below(nstates);
            break;
        case 2:
            if (!left) st = test_rand_below(nstates), left = 1 + test_rand_below(9);
            left--;
            break;
        case 3:
            st = (i / 4) % nstates;
            rm = i % 4 < 2;
            break;
        default:
            st = test_rand_below(nstates);
            rm = i % 2;
        }
        it[i] = (mulred_muhash_item){elem_data[e], elem_len[e], st, rm};
    }
}

/* update_many against one item at a time (the same serialization) and against mpz products of
 * the element numbers, for batch sizes around the lane counts (8, 16) and the block (32), every
 * destination pattern, states starting empty or not, both flavors, every kernel. */
static void test_update_many(void)
{
    static const size_t sizes[] = {0,  1,  2,  3,  4,  7,  8,  9,  15, 16,
                                   17, 31, 32, 33, 47, 63, 64, 65, 200};
    static const size_t nstates_list[] = {1, 2, 7, MAXSTATES};
    static mulred_muhash_item items[200];
    static mulred_muhash_state batched[MAXSTATES], ref[MAXSTATES];
    const char *active = mulred_num3072_kernel_name();
    int nk;
    const num3072_kernel *k = num3072_kernels(&nk);
    mpz_t p, x, num[MAXSTATES], den[MAXSTATES];
    mpz_inits(p, x, NULL);
    for (size_t i = 0; i < MAXSTATES; i++) mpz_inits(num[i], den[i], NULL);
    mpz_set_ui(p, 1);
    mpz_mul_2exp(p, p, 3072);
    mpz_sub_ui(p, p, 1103717);
    random_elements();
    long bad = 0, checked = 0;
    for (int ki = 0; ki < nk; ki++) {
        if (num3072_kernel_select(k[ki].name) != 0) continue;
        for (int f = 0; f < 2; f++) {
            mulred_muhash_flavor flavor = (mulred_muhash_flavor)f;
            mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(flavor);
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
                for (size_t ni = 0; ni < sizeof nstates_list / sizeof nstates_list[0]; ni++) {
                    const size_t n = sizes[si], nstates = nstates_list[ni];
                    const int pattern = (int)test_rand_below(5);
                    make_items(items, n, nstates, pattern);
                    for (size_t i = 0; i < nstates; i++) {
                        mulred_muhash_init(&ref[i], flavor);
                        mpz_set_ui(num[i], 1);
                        mpz_set_ui(den[i], 1);
                        if (test_rand_below(2)) { /* a state that already holds an element */
                            size_t e = test_rand_below(NELEM);
                            mulred_num3072 v;
                            mulred_muhash_element(&v, ctx, elem_data[e], elem_len[e]);
                            mulred_muhash_insert(&ref[i], ctx, elem_data[e], elem_len[e]);
                            mpz_import(num[i], 48, -1, 8, 0, 0, v.limb);
                            mpz_mod(num[i], num[i], p);
                        }
                        batched[i] = ref[i];
                    }
                    for (size_t i = 0; i < n; i++) {
                        mulred_muhash_state *r = &ref[items[i].state];
                        mulred_num3072 v;
                        mulred_muhash_element(&v, ctx, items[i].data, items[i].len);
                        mpz_import(x, 48, -1, 8, 0, 0, v.limb);
                        mpz_t *side = items[i].remove ? den : num;
                        mpz_mul(side[items[i].state], side[items[i].state], x);
                        mpz_mod(side[items[i].state], side[items[i].state], p);
                        if (items[i].remove)
                            mulred_muhash_remove(r, ctx, items[i].data, items[i].len);
                        else
                            mulred_muhash_insert(r, ctx, items[i].data, items[i].len);
                    }
                    mulred_muhash_update_many(batched, nstates, ctx, items, n);
                    for (size_t i = 0; i < nstates; i++) {
                        uint8_t sa[768], sb[768], sm[768];
                        size_t la = mulred_muhash_serialize(sa, &ref[i]);
                        size_t lb = mulred_muhash_serialize(sb, &batched[i]);
                        mpz_serialization(sm, flavor, num[i], den[i], p);
                        int ok = la == lb && memcmp(sa, sb, la) == 0 && memcmp(sm, sb, lb) == 0;
                        if (!ok && !bad++)
                            printf("\n    kernel %s, %s: %zu items, %zu states, pattern %d: state "
                                   "%zu differs",
                                   k[ki].name, mulred_muhash_flavor_name(flavor), n, nstates,
                                   pattern, i);
                        checked++;
                    }
                }
            mulred_muhash_ctx_free(ctx);
        }
    }
    printf("\n    %ld states checked", checked);
    CU_ASSERT_EQUAL(bad, 0);
    num3072_kernel_select(active);
    for (size_t i = 0; i < MAXSTATES; i++) mpz_clears(num[i], den[i], NULL);
    mpz_clears(p, x, NULL);
}

/* combine_many against combine one state at a time and against mpz, with states at the
 * identity among them, both flavors. */
static void test_combine_many(void)
{
    random_elements();
    for (int f = 0; f < 2; f++) {
        mulred_muhash_flavor flavor = (mulred_muhash_flavor)f;
        mulred_muhash_ctx *ctx = mulred_muhash_ctx_new(flavor);
        for (size_t n = 0; n <= 70; n += 1 + n / 8) {
            mulred_muhash_state t[70], a, b;
            mpz_t p, num, den, x;
            mpz_inits(p, num, den, x, NULL);
            mpz_set_ui(p, 1);
            mpz_mul_2exp(p, p, 3072);
            mpz_sub_ui(p, p, 1103717);
            mpz_set_ui(num, 1);
            mpz_set_ui(den, 1);
            for (size_t i = 0; i < n; i++) {
                mulred_muhash_init(&t[i], flavor);
                for (int j = (int)test_rand_below(4); j > 0; j--) { /* 0..3 elements */
                    size_t e = test_rand_below(NELEM);
                    bool rm = test_rand_below(2);
                    mulred_num3072 v;
                    mulred_muhash_element(&v, ctx, elem_data[e], elem_len[e]);
                    mpz_import(x, 48, -1, 8, 0, 0, v.limb);
                    mpz_mul(rm ? den : num, rm ? den : num, x);
                    if (rm)
                        mulred_muhash_remove(&t[i], ctx, elem_data[e], elem_len[e]);
                    else
                        mulred_muhash_insert(&t[i], ctx, elem_data[e], elem_len[e]);
                }
            }
            mpz_mod(num, num, p);
            mpz_mod(den, den, p);
            mulred_muhash_init(&a, flavor);
            mulred_muhash_init(&b, flavor);
            for (size_t i = 0; i < n; i++) mulred_muhash_combine(&a, &t[i]);
            mulred_muhash_combine_many(&b, t, n);
            uint8_t sa[768], sb[768], sm[768];
            size_t la = mulred_muhash_serialize(sa, &a), lb = mulred_muhash_serialize(sb, &b);
            mpz_serialization(sm, flavor, num, den, p);
            CU_ASSERT(la == lb && memcmp(sa, sb, la) == 0);
            CU_ASSERT(memcmp(sm, sb, lb) == 0);
            mpz_clears(p, num, den, x, NULL);
        }
        mulred_muhash_ctx_free(ctx);
    }
}

void test_register(void)
{
    TEST_SUITE("muhash vectors", {"bitcoin cases and serialization", test_bitcoin_vectors},
               {"bitcoin numerator >= p", test_bitcoin_overflow},
               {"kaspa cases and serialization", test_kaspa_vectors},
               {"kaspa parse rejection, single and cumulative", test_kaspa_parse_and_cumulative},
               {"update_raw: the cases from one buffer, any threads", test_update_raw});
    TEST_SUITE("muhash properties", {"order, removal, combine, round trip", test_properties},
               {"against an mpz product", test_against_mpz},
               {"parallel engine = sequential", test_parallel_engine},
               {"insert_many = insert, every batch length", test_insert_many_lengths},
               {"update_many = one at a time = mpz, many states", test_update_many},
               {"combine_many = combine = mpz", test_combine_many});
}

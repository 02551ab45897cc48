/* MuHash over a buffer of raw elements (mulred_muhash_update_raw): a source over the buffer for
 * the parallel reduction, its chunks fixed runs of elements. */
#include <stdlib.h>

#include "mulred/muhash.h"
#include "util/check.h"

/* Elements per chunk: small enough to spread a few thousand elements over the threads. */
enum { RAW_CHUNK = 512 };

typedef struct {
    const uint8_t *data;
    const size_t *lens;
    const size_t *offsets; /* byte offset of the first element of each chunk */
    size_t n;
    bool remove;
} raw_source;

static mulred_status raw_produce(void *vctx, size_t chunk, mulred_muhash_sink *sink,
                                 mulred_error *err)
{
    (void)err;
    const raw_source *r = vctx;
    const size_t lo = chunk * RAW_CHUNK, hi = lo + RAW_CHUNK < r->n ? lo + RAW_CHUNK : r->n;
    const uint8_t *p = r->data + r->offsets[chunk];
    for (size_t i = lo; i < hi; i++) {
        mulred_muhash_sink_add(sink, p, r->lens[i], r->remove);
        p += r->lens[i];
    }
    return MULRED_OK;
}

mulred_status mulred_muhash_update_raw(mulred_muhash_state *s, const uint8_t *data,
                                       const size_t *lens, size_t n, bool remove, int threads,
                                       mulred_error *err)
{
    MULRED_ARG_CHECK(s != NULL);
    MULRED_ARG_CHECK(lens != NULL || n == 0);
    MULRED_ARG_CHECK(s->flavor == MULRED_MUHASH_BITCOIN || s->flavor == MULRED_MUHASH_KASPA);
    const size_t nchunks = n / RAW_CHUNK + (n % RAW_CHUNK != 0);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (lens[i] > MULRED_MUHASH_MAX_ELEMENT)
            return mulred_error_set(err, MULRED_EINPUT, "element %zu: %zu bytes, at most %d", i,
                                    lens[i], MULRED_MUHASH_MAX_ELEMENT);
        total += lens[i];
    }
    MULRED_ARG_CHECK(data != NULL || total == 0);
    if (n == 0) return MULRED_OK;
    size_t *offsets = malloc(nchunks * sizeof *offsets);
    if (!offsets) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % RAW_CHUNK == 0) offsets[i / RAW_CHUNK] = off;
        off += lens[i];
    }
    raw_source r = {data, lens, offsets, n, remove};
    const mulred_muhash_source src = {nchunks, raw_produce, &r};
    const mulred_muhash_reduce_opts opts = {.threads = threads};
    mulred_muhash_state part;
    mulred_status st = mulred_muhash_reduce_ex(&part, s->flavor, &src, 1, &opts, NULL, err);
    free(offsets);
    if (st == MULRED_OK) mulred_muhash_combine(s, &part);
    return st;
}

/* Element lists (src/io/elements.c): the hex line parser and the chunked reader, against a
 * reference parser written here from the format's definition (include/mulred/sources.h).
 *
 * Every input is read three ways: as one chunk by one rank; in small chunks (sizes chosen from
 * the input's hash, so that chunk boundaries fall inside lines, on newlines and on CRs) split
 * over 1 to 3 ranks whose partial states are combined in rank order; and as a pipe (the
 * in-memory stream path). Each
 * must agree with the reference: the same status, the same message ("PATH:LINE: reason", the
 * first bad line of the file) or the same MuHash state as inserting (or removing) the
 * reference's elements one at a time. */
#include "fuzz_common.h"

#include <errno.h>
#include <fcntl.h>

#include "mulred/muhash.h"
#include "mulred/plan.h"
#include "mulred/sources.h"

/* The reader's limits, from its contract: an element of at most MULRED_MUHASH_MAX_ELEMENT bytes;
 * a line of at most 2·MULRED_MUHASH_MAX_ELEMENT + 256 characters before its newline. */
#define REF_MAX_LINE (2 * MULRED_MUHASH_MAX_ELEMENT + 256)

typedef struct {
    int status;
    uint64_t line;    /* the failing line (1-based) */
    char reason[160]; /* the text after "PATH:LINE: " */
    mulred_muhash_state state;
    uint64_t elements;
} ref_result;

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void reference(ref_result *r, const uint8_t *d, size_t n, mulred_muhash_flavor flavor,
                      bool remove, mulred_muhash_ctx *ctx)
{
    memset(r, 0, sizeof *r);
    mulred_muhash_init(&r->state, flavor);
    static uint8_t elem[MULRED_MUHASH_MAX_ELEMENT];
    size_t pos = 0;
    for (uint64_t line = 1; pos < n; line++) {
        size_t start = pos, end = pos;
        while (end < n && d[end] != '\n') end++;
        pos = end + 1;
        if (end - start > REF_MAX_LINE) {
            r->status = MULRED_EINPUT, r->line = line;
            snprintf(r->reason, sizeof r->reason, "line longer than %d characters", REF_MAX_LINE);
            return;
        }
        size_t a = start, b = end;
        while (a < b && (d[a] == ' ' || d[a] == '\t')) a++;
        while (b > a && (d[b - 1] == ' ' || d[b - 1] == '\t' || d[b - 1] == '\r')) b--;
        if (a == b || d[a] == '#') continue;
        for (size_t i = a; i < b; i++)
            if (hexval(d[i]) < 0) {
                r->status = MULRED_EINPUT, r->line = line;
                snprintf(r->reason, sizeof r->reason, "column %zu: '%c' is not a hex digit",
                         i - start + 1, d[i] >= 0x20 ? (char)d[i] : '?');
                return;
            }
        size_t nhex = b - a;
        if (nhex % 2) {
            r->status = MULRED_EINPUT, r->line = line;
            snprintf(r->reason, sizeof r->reason, "odd number of hex digits (%zu)", nhex);
            return;
        }
        if (nhex / 2 > MULRED_MUHASH_MAX_ELEMENT) {
            r->status = MULRED_EINPUT, r->line = line;
            snprintf(r->reason, sizeof r->reason, "element longer than %d bytes",
                     MULRED_MUHASH_MAX_ELEMENT);
            return;
        }
        for (size_t i = 0; i < nhex / 2; i++)
            elem[i] = (uint8_t)(hexval(d[a + 2 * i]) << 4 | hexval(d[a + 2 * i + 1]));
        if (remove)
            mulred_muhash_remove(&r->state, ctx, elem, nhex / 2);
        else
            mulred_muhash_insert(&r->state, ctx, elem, nhex / 2);
        r->elements++;
    }
}

/* Reads path as nranks ranks with the given chunk size; the lowest failing rank's error wins,
 * as in mulred_mpi_agree. */
static int read_ranks(mulred_muhash_state *out, const char *path, mulred_muhash_flavor flavor,
                      bool remove, size_t chunk, int nranks, mulred_error *err)
{
    mulred_muhash_init(out, flavor);
    for (int rank = 0; rank < nranks; rank++) {
        mulred_source_file *f = NULL;
        int st = mulred_source_file_open(&f, path, remove, chunk, rank == 0, err);
        if (st) return st;
        mulred_unit_range r = mulred_plan_units(mulred_source_file_units(f), rank, nranks);
        const mulred_muhash_source *src = mulred_source_file_select(f, r.first, r.end);
        mulred_muhash_state part;
        mulred_muhash_stats stats;
        st = mulred_muhash_reduce(&part, flavor, src, 1, 1, &stats, err);
        mulred_source_file_close(f);
        if (st) return st;
        mulred_muhash_combine(out, &part);
    }
    return MULRED_OK;
}

static void expect(const ref_result *r, int st, const mulred_error *err,
                   const mulred_muhash_state *s, const char *path, const char *how)
{
    FUZZ_CHECK(st == r->status, "%s: status %d, reference %d (%s)", how, st, r->status,
               st ? err->message : r->reason);
    if (st) {
        char want[sizeof err->message];
        snprintf(want, sizeof want, "%s:%llu: %s", path, (unsigned long long)r->line, r->reason);
        FUZZ_CHECK(strcmp(want, err->message) == 0, "%s: message '%s', reference '%s'", how,
                   err->message, want);
        return;
    }
    uint8_t a[2 * MULRED_NUM3072_BYTES], b[2 * MULRED_NUM3072_BYTES];
    size_t na = mulred_muhash_serialize(a, s), nb = mulred_muhash_serialize(b, &r->state);
    FUZZ_CHECK(na == nb && memcmp(a, b, na) == 0,
               "%s: state differs from the reference (%llu "
               "elements)",
               how, (unsigned long long)r->elements);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mulred_muhash_ctx *ctx[2];
    uint64_t h = fuzz_hash(data, size);
    mulred_muhash_flavor flavor = (h >> 60) & 1 ? MULRED_MUHASH_KASPA : MULRED_MUHASH_BITCOIN;
    bool remove = (h >> 61) & 1;
    if (!ctx[flavor]) ctx[flavor] = mulred_muhash_ctx_new(flavor);
    ref_result ref;
    reference(&ref, data, size, flavor, remove, ctx[flavor]);

    char path[64];
    int fd = fuzz_memfile(path, data, size);
    mulred_muhash_state s;
    mulred_error err;
    mulred_error_clear(&err);
    int st = read_ranks(&s, path, flavor, remove, 0, 1, &err);
    expect(&ref, st, &err, &s, path, "one chunk, one rank");

    /* At most about 16 chunks: each costs the reader a buffer of its size plus a maximal line,
     * which ASan maps and unmaps (the dominant cost per execution). */
    size_t chunk = 1 + size / 16 + (size_t)(h % 64);
    int nranks = 1 + (int)((h >> 8) % 3);
    mulred_error_clear(&err);
    st = read_ranks(&s, path, flavor, remove, chunk, nranks, &err);
    char how[64];
    snprintf(how, sizeof how, "%zu-byte chunks, %d ranks", chunk, nranks);
    expect(&ref, st, &err, &s, path, how);
    close(fd);

    /* A pipe holding the whole input (its writer closed): the stream path reads it whole. */
    if (size <= 60000) {
        int p[2];
        FUZZ_CHECK(pipe2(p, O_CLOEXEC) == 0, "pipe2: %s", strerror(errno));
        size_t done = 0;
        while (done < size) {
            ssize_t w = write(p[1], data + done, size - done);
            FUZZ_CHECK(w > 0, "write to pipe failed");
            done += (size_t)w;
        }
        close(p[1]);
        char ppath[64];
        snprintf(ppath, sizeof ppath, "/proc/self/fd/%d", p[0]);
        mulred_error_clear(&err);
        st = read_ranks(&s, ppath, flavor, remove, 0, 1, &err);
        expect(&ref, st, &err, &s, ppath, "pipe");
        close(p[0]);
    }
    return 0;
}

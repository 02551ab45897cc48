/* EIP-4844 KZG commitments (include/mulred/kzg.h): the trusted-setup reader, the fixed-base
 * table and its cache file, the blob reader and the commitment.
 *
 * Cost: decoding the 4096 Lagrange points (square root and subgroup check each) and building
 * the table (c doublings per entry, one normalisation per row) are the dear part
 * (docs/kernels.md); they happen once, when no valid cache exists. Loading a cache is
 * reading ~8 MB and one SHA-256 over it. A commitment is one fixed-base MSM over the table.
 *
 * Cache file layout (native byte order; another order fails the header check and is rebuilt):
 *   "MRKZGTBL" ‖ u32 version 1 ‖ u32 window_bits ‖ u32 windows ‖ u32 points (4096) ‖
 *   u32 bytes per point (96) ‖ u32 0 ‖ 32-byte SHA-256 of the setup file ‖
 *   points·windows affine points, point-major (entry i·windows + w = 2^(c·w)·L[bitrev(i)];
 *   x, y: 6 little-endian Montgomery limbs each, < p) ‖
 *   32-byte SHA-256 of everything before.
 * It is written to a temporary file and renamed, so a reader never sees a partial table. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "field/field_internal.h"
#include "hash/hash.h"
#include "io/cache_dir.h"
#include "io/hex_kernels.h"
#include "msm/bases_internal.h"
#include "mulred/bases.h"
#include "mulred/curve.h"
#include "mulred/kzg.h"
#include "mulred/msm.h"
#include "util/check.h"
#include "util/util.h"

#define N_G1          MULRED_KZG_FIELD_ELEMENTS
#define N_G2          65
#define CACHE_MAGIC   "MRKZGTBL"
#define CACHE_VERSION 1u
#define CACHE_HEADER  (8 + 6 * 4 + 32)
#define SPOT_CHECKS   64

struct mulred_kzg_setup {
    mulred_msm_plan plan;
    mulred_g1_381_affine *table; /* entry i·windows + w: 2^(c·w)·L[bitrev(i)]; while loading */
    mulred_bases *bases;         /* then the base set holding the points and that table */
};

void mulred_kzg_setup_free(mulred_kzg_setup *s)
{
    if (!s) return;
    free(s->table);
    if (s->bases) mulred_bases_free(s->bases);
    free(s);
}

/* The loaded table becomes the table of a base set (which takes it over): commitments are that
 * set's MSMs, always through the table. */
static mulred_status setup_to_bases(mulred_kzg_setup *s, mulred_error *err)
{
    s->bases = bases_adopt_table(MULRED_CURVE_BLS12_381, N_G1, s->table, &s->plan);
    if (!s->bases) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    s->table = NULL;
    mulred_bases_set_table_use(s->bases, 1);
    return MULRED_OK;
}

const mulred_bases *mulred_kzg_setup_bases(const mulred_kzg_setup *s)
{
    MULRED_ARG_CHECK_RETURN(s != NULL, NULL);
    return s->bases;
}

static unsigned bitrev12(unsigned i)
{
    unsigned r = 0;
    for (int b = 0; b < 12; b++) r |= ((i >> b) & 1u) << (11 - b);
    return r;
}

static void sha256(uint8_t out[32], const void *data, size_t len)
{
    mulred_sha256 *h = mulred_sha256_new();
    mulred_sha256_digest(h, out, data, len);
    mulred_sha256_free(h);
}

/* A byte that is not a hex digit, for messages: 'g', or 0xNN when it is not printable ASCII
 * (a newline or a NUL inside a message would cut it). */
static const char *shown_byte(char out[8], unsigned char b)
{
    if (b >= 0x21 && b < 0x7f)
        snprintf(out, 8, "'%c'", b);
    else
        snprintf(out, 8, "0x%02x", b);
    return out;
}

/* ---- the setup file ---------------------------------------------------------------------- */

/* The next line of text[*pos..len): start and length without the newline, a CR before it and
 * surrounding blanks. Returns 0 at the end of the text. */
static int next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n)
{
    if (*pos >= len) return 0;
    size_t a = *pos, b = a;
    while (b < len && text[b] != '\n') b++;
    *pos = b < len ? b + 1 : b;
    while (a < b && (text[a] == ' ' || text[a] == '\t')) a++;
    while (b > a && (text[b - 1] == '\r' || text[b - 1] == ' ' || text[b - 1] == '\t')) b--;
    *line = text + a;
    *n = b - a;
    return 1;
}

/* Checks the shape of the setup text (counts, lines of hex of the right lengths, nothing
 * after) and copies the compressed Lagrange points (natural order) into comp. */
static int parse_setup(uint8_t (*comp)[48], const char *text, size_t len, const char *path,
                       mulred_error *err)
{
    size_t pos = 0, n;
    const char *line;
    unsigned lineno = 0;
    const size_t want[3] = {N_G1, N_G2, N_G1}, hexlen[3] = {96, 192, 96};
    static const char *what[3] = {"G1 Lagrange point", "G2 point", "G1 monomial point"};
    for (int k = 0; k < 2; k++) {
        lineno++;
        if (!next_line(text, len, &pos, &line, &n))
            return mulred_error_set(err, MULRED_EINPUT, "%s:%u: missing the %s count", path, lineno,
                                    k ? "G2" : "G1");
        char buf[16];
        bool text_line = n > 0;
        for (size_t i = 0; i < n && i < sizeof buf; i++)
            text_line &= line[i] >= 0x20 && line[i] < 0x7f;
        if (n >= sizeof buf || !text_line) /* quoted only when printable */
            return mulred_error_set(err, MULRED_EINPUT, "%s:%u: expected the count %zu", path,
                                    lineno, want[k]);
        memcpy(buf, line, n);
        buf[n] = '\0';
        char *end;
        errno = 0;
        const unsigned long v = strtoul(buf, &end, 10);
        if (errno || *end || v != want[k])
            return mulred_error_set(err, MULRED_EINPUT, "%s:%u: '%s' is not %zu (the %s count)",
                                    path, lineno, buf, want[k], k ? "G2" : "G1");
    }
    for (int sec = 0; sec < 3; sec++) {
        for (size_t i = 0; i < want[sec]; i++) {
            lineno++;
            if (!next_line(text, len, &pos, &line, &n))
                return mulred_error_set(err, MULRED_EINPUT,
                                        "%s:%u: the file ends before %s %zu of %zu", path, lineno,
                                        what[sec], i, want[sec]);
            if (n != hexlen[sec])
                return mulred_error_set(err, MULRED_EINPUT,
                                        "%s:%u: %s %zu: %zu characters, expected %zu hex digits",
                                        path, lineno, what[sec], i, n, hexlen[sec]);
            uint8_t bytes[96];
            size_t bad = 0;
            if (mulred_hex_decode(bytes, line, n / 2, &bad) != 0) {
                char shown[8];
                return mulred_error_set(err, MULRED_EINPUT, "%s:%u: %s %zu: %s is not a hex digit",
                                        path, lineno, what[sec], i,
                                        shown_byte(shown, (unsigned char)line[bad]));
            }
            if (sec == 0) memcpy(comp[i], bytes, 48);
        }
    }
    while (next_line(text, len, &pos, &line, &n)) {
        lineno++;
        if (n)
            return mulred_error_set(err, MULRED_EINPUT, "%s:%u: text after the last point", path,
                                    lineno);
    }
    return MULRED_OK;
}

/* ---- the cache file ------------------------------------------------------------------------ */

static size_t cache_bytes(const mulred_msm_plan *plan)
{
    return CACHE_HEADER + (size_t)plan->windows * N_G1 * sizeof(mulred_g1_381_affine) + 32;
}

static void cache_header(uint8_t *h, const mulred_msm_plan *plan, const uint8_t setup_digest[32])
{
    const uint32_t f[6] = {CACHE_VERSION,
                           plan->window_bits,
                           plan->windows,
                           N_G1,
                           (uint32_t)sizeof(mulred_g1_381_affine),
                           0};
    memcpy(h, CACHE_MAGIC, 8);
    memcpy(h + 8, f, sizeof f);
    memcpy(h + 8 + sizeof f, setup_digest, 32);
}

static bool below_p(const mulred_fp381 *a)
{
    return fe_less_var(a->l, FP381_P, 6);
}

/* Reads and checks the cache; on success the table is in s->table. Returns false with a note.
 * comp: the setup's compressed points, which row 0 must encode to (in bit-reversed order). */
static bool cache_load(mulred_kzg_setup *s, const char *path, const uint8_t setup_digest[32],
                       const uint8_t (*comp)[48], char *note, size_t cap)
{
    /* O_NONBLOCK: a FIFO at the path must not block the open; only a regular file is read */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(note, cap, "no cache (%s)", strerror(errno));
        return false;
    }
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "rb"))) {
        snprintf(note, cap, "cache is not a regular file: rebuilt");
        close(fd);
        return false;
    }
    const size_t want = cache_bytes(&s->plan);
    uint8_t *buf = malloc(want + 1);
    if (!buf) {
        fclose(f);
        snprintf(note, cap, "out of memory reading the cache");
        return false;
    }
    const size_t got = fread(buf, 1, want + 1, f);
    fclose(f);
    bool ok = false;
    uint8_t head[CACHE_HEADER], digest[32];
    cache_header(head, &s->plan, setup_digest);
    if (got != want) {
        snprintf(note, cap, "cache of %zu bytes, expected %zu: rebuilt", got, want);
    } else if (memcmp(buf, head, 8 + 24) != 0) {
        snprintf(note, cap,
                 "cache header (magic, version, window width or counts) differs: "
                 "rebuilt");
    } else if (memcmp(buf + 32, setup_digest, 32) != 0) {
        snprintf(note, cap, "cache made for another setup file: rebuilt");
    } else {
        sha256(digest, buf, want - 32);
        if (memcmp(digest, buf + want - 32, 32) != 0) {
            snprintf(note, cap, "cache digest does not match (corrupt): rebuilt");
        } else {
            const size_t npts = (size_t)s->plan.windows * N_G1;
            mulred_g1_381_affine *t = (mulred_g1_381_affine *)(void *)(buf + CACHE_HEADER);
            ok = true;
            for (size_t i = 0; i < npts && ok; i++) ok = below_p(&t[i].x) && below_p(&t[i].y);
            /* the multiples 2^0 are the setup itself: compress and compare (no square roots) */
            const size_t W = s->plan.windows;
            for (unsigned i = 0; i < N_G1 && ok; i++) {
                uint8_t enc[48];
                mulred_g1_381_encode_compressed(enc, &t[i * W]);
                ok = memcmp(enc, comp[bitrev12(i)], 48) == 0 &&
                     mulred_g1_381_affine_is_on_curve(&t[i * W]);
            }
            /* 64 entries chosen by the digest: on the curve and 2^c times the multiple below */
            for (int k = 0; k < SPOT_CHECKS && ok; k++) {
                const uint32_t r = (uint32_t)digest[k % 32] << 8 | digest[(k * 7 + 3) % 32];
                const size_t i = ((size_t)r * 2654435761u + (size_t)k) % N_G1;
                const unsigned w = 1 + (unsigned)((r + (unsigned)k) % (s->plan.windows - 1));
                const mulred_g1_381_affine *hi = &t[i * W + w], *lo = &t[i * W + w - 1];
                mulred_g1_381_jacobian a, b;
                mulred_g1_381_jacobian_from_affine(&a, lo);
                mulred_g1_381_msm_shift(&a, &a, s->plan.window_bits);
                mulred_g1_381_jacobian_from_affine(&b, hi);
                ok = mulred_g1_381_affine_is_on_curve(hi) && mulred_g1_381_jacobian_equal(&a, &b);
            }
            if (!ok) snprintf(note, cap, "cache entries are not a table of this setup: rebuilt");
        }
    }
    if (ok) {
        s->table = mulred_alloc_large(want - CACHE_HEADER - 32);
        if (!s->table) {
            snprintf(note, cap, "out of memory loading the cache");
            ok = false;
        } else {
            memcpy(s->table, buf + CACHE_HEADER, want - CACHE_HEADER - 32);
        }
    }
    free(buf);
    return ok;
}

/* Writes the cache (a temporary file renamed into place). Returns false with a note. */
static bool cache_write(const mulred_kzg_setup *s, const char *path, const uint8_t setup_digest[32],
                        char *note, size_t cap)
{
    const size_t want = cache_bytes(&s->plan);
    uint8_t *buf = malloc(want);
    if (!buf) {
        snprintf(note, cap, "out of memory writing the cache");
        return false;
    }
    cache_header(buf, &s->plan, setup_digest);
    memcpy(buf + CACHE_HEADER, s->table, want - CACHE_HEADER - 32);
    sha256(buf + want - 32, buf, want - 32);
    mulred_whole_file w;
    mulred_error werr;
    bool ok = mulred_whole_open(&w, path, 0, &werr) == MULRED_OK;
    if (ok && fwrite(buf, 1, want, w.f) != want) {
        const int e = errno;
        mulred_whole_discard(&w);
        errno = e, ok = false;
    } else if (ok) {
        ok = mulred_whole_commit(&w, &werr) == MULRED_OK;
    }
    if (!ok)
        snprintf(note, cap, "cache not written (%s): the table stays in memory", strerror(errno));
    free(buf);
    return ok;
}

/* ---- loading ------------------------------------------------------------------------------- */

/* The default cache file: DIR/kzg-DIGEST.table, DIR = $XDG_CACHE_HOME/mulred (an absolute
 * XDG_CACHE_HOME), else $HOME/.cache/mulred, created with mode 0700 when missing; DIGEST the
 * first 16 bytes of the setup's SHA-256 in hex. Returns false with a note when there is no
 * such directory and it cannot be created. */
static bool default_cache_path(char *out, size_t cap, const uint8_t setup_digest[32], char *note,
                               size_t note_cap)
{
    char dir[4000]; /* room for the file name in info->cache_path */
    if (!io_cache_dir(dir, sizeof dir, note, note_cap)) return false;
    char hex[33];
    mulred_hex_encode(hex, setup_digest, 16);
    hex[32] = '\0';
    snprintf(out, cap, "%s/kzg-%s.table", dir, hex);
    return true;
}

/* Loads from the setup text (borrowed); name labels messages. */
static mulred_status setup_load_text(mulred_kzg_setup **out, const char *text, size_t len,
                                     const char *name, const char *cache_path,
                                     mulred_kzg_load_info *info, double t_read, mulred_error *err)
{
    double t0;
    int st;
    uint8_t setup_digest[32];
    sha256(setup_digest, text, len);

    mulred_kzg_setup *s = calloc(1, sizeof *s);
    if (!s) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    mulred_g1_381_msm_fixed_plan(&s->plan, N_G1, NULL);
    info->window_bits = s->plan.window_bits;
    bool use_cache = true;
    if (!cache_path)
        use_cache = default_cache_path(info->cache_path, sizeof info->cache_path, setup_digest,
                                       info->note, sizeof info->note);
    else
        snprintf(info->cache_path, sizeof info->cache_path, "%s", cache_path);
    use_cache = use_cache && info->cache_path[0] != '\0';

    /* the file's shape is checked every time, cache or not */
    uint8_t(*comp)[48] = malloc(N_G1 * sizeof *comp);
    mulred_g1_381_affine *brp = NULL;
    void *scratch = NULL;
    if (!comp) {
        st = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        goto fail;
    }
    st = parse_setup(comp, text, len, name, err);
    if (st != MULRED_OK) goto fail;
    info->read_s = mulred_wtime() - t_read;

    t0 = mulred_wtime();
    if (use_cache && cache_load(s, info->cache_path, setup_digest, (const uint8_t(*)[48])comp,
                                info->note, sizeof info->note)) {
        info->cache = MULRED_KZG_CACHE_LOADED;
        info->cache_s = mulred_wtime() - t0;
        free(comp);
        comp = NULL;
        if ((st = setup_to_bases(s, err)) != MULRED_OK) goto fail;
        *out = s;
        return MULRED_OK;
    }
    info->cache_s = mulred_wtime() - t0;
    if (!use_cache && !info->note[0])
        snprintf(info->note, sizeof info->note, "no cache file asked for");

    /* decode with every check, in bit-reversed order: table column i is L[bitrev(i)] */
    t0 = mulred_wtime();
    brp = malloc(N_G1 * sizeof *brp);
    const size_t table_pts = mulred_g1_381_msm_fixed_table_size(&s->plan, N_G1);
    s->table = mulred_alloc_large(table_pts * sizeof *s->table);
    scratch = malloc(mulred_g1_381_msm_fixed_build_scratch_size(N_G1));
    if (!brp || !s->table || !scratch) {
        st = mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        goto fail;
    }
    for (unsigned j = 0; j < N_G1; j++) {
        mulred_decode_reason gs;
        if (mulred_g1_381_decode_compressed(&brp[bitrev12(j)], comp[j], 0, &gs) != MULRED_OK) {
            st = mulred_error_set(err, MULRED_EINPUT, "%s:%u: G1 Lagrange point %u: %s", name,
                                  3 + j, j, mulred_decode_reason_text(gs));
            goto fail;
        }
    }
    info->decode_s = mulred_wtime() - t0;
    t0 = mulred_wtime();
    mulred_g1_381_msm_fixed_table_build(s->table, &s->plan, brp, N_G1, scratch);
    info->build_s = mulred_wtime() - t0;
    info->cache = MULRED_KZG_CACHE_MEMORY;
    if (use_cache) {
        char note[256];
        t0 = mulred_wtime();
        if (cache_write(s, info->cache_path, setup_digest, note, sizeof note))
            info->cache = MULRED_KZG_CACHE_WRITTEN;
        else
            snprintf(info->note, sizeof info->note, "%s", note);
        info->cache_s += mulred_wtime() - t0;
    }
    free(comp), free(brp), free(scratch);
    comp = NULL, brp = NULL, scratch = NULL;
    if ((st = setup_to_bases(s, err)) != MULRED_OK) goto fail;
    *out = s;
    return MULRED_OK;
fail:
    free(comp), free(brp), free(scratch);
    mulred_kzg_setup_free(s);
    return st;
}

mulred_status mulred_kzg_setup_load(mulred_kzg_setup **out, const char *setup_path,
                                    const char *cache_path, mulred_kzg_load_info *info,
                                    mulred_error *err)
{
    MULRED_ARG_CHECK(out != NULL && setup_path != NULL);
    mulred_kzg_load_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    *out = NULL;
    const double t_read = mulred_wtime();
    char *text = NULL;
    size_t len = 0;
    int st = mulred_read_file(setup_path, &text, &len, MULRED_KZG_SETUP_MAX_BYTES,
                              "a KZG trusted setup", err);
    if (st != MULRED_OK) return st;
    st = setup_load_text(out, text, len, setup_path, cache_path, info, t_read, err);
    free(text);
    return st;
}

mulred_status mulred_kzg_setup_load_bytes(mulred_kzg_setup **out, const uint8_t *text, size_t len,
                                          const char *cache_path, mulred_kzg_load_info *info,
                                          mulred_error *err)
{
    MULRED_ARG_CHECK(out != NULL);
    MULRED_ARG_CHECK(text != NULL || len == 0);
    mulred_kzg_load_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    *out = NULL;
    if (len > MULRED_KZG_SETUP_MAX_BYTES)
        return mulred_error_set(err, MULRED_EINPUT, "setup: %zu bytes, more than %zu", len,
                                MULRED_KZG_SETUP_MAX_BYTES);
    return setup_load_text(out, (const char *)(text ? text : (const uint8_t *)""), len, "setup",
                           cache_path, info, mulred_wtime(), err);
}

/* ---- blobs ----------------------------------------------------------------------------------- */

/* k = the big-endian 32-byte element e as 4 little-endian limbs; true when k < r. */
static bool blob_element(uint64_t k[4], const uint8_t *e)
{
    for (int l = 0; l < 4; l++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++) v = v << 8 | e[8 * (3 - l) + b];
        k[l] = v;
    }
    return fe_less_var(k, FR381_P, 4);
}

mulred_status mulred_kzg_blob_parse(uint8_t blob[MULRED_KZG_BLOB_BYTES], const char *text,
                                    size_t len, const char *name, mulred_error *err)
{
    size_t a = 0, b = len;
    while (a < b && (text[a] == ' ' || text[a] == '\t' || text[a] == '\n' || text[a] == '\r')) a++;
    while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\n' ||
                     text[b - 1] == '\r'))
        b--;
    if (b - a >= 2 && text[a] == '0' && (text[a + 1] == 'x' || text[a + 1] == 'X')) a += 2;
    /* the hex kernel decodes a blob of the right length whole; anything else is checked byte
     * by byte below, for the message */
    const bool whole = b - a == 2 * (size_t)MULRED_KZG_BLOB_BYTES &&
                       mulred_hex_decode_fast(blob, text + a, MULRED_KZG_BLOB_BYTES) == b - a;
    for (size_t i = a; i < b && !whole; i++)
        if (mulred_hex_digit((unsigned char)text[i]) < 0) {
            char shown[8];
            return mulred_error_set(err, MULRED_EINPUT, "%s: byte %zu: %s is not a hex digit", name,
                                    i, shown_byte(shown, (unsigned char)text[i]));
        }
    if ((b - a) % 2)
        return mulred_error_set(err, MULRED_EINPUT, "%s: odd number of hex digits (%zu)", name,
                                b - a);
    if ((b - a) / 2 != MULRED_KZG_BLOB_BYTES)
        return mulred_error_set(err, MULRED_EINPUT, "%s: %zu bytes of hex, a blob is %d", name,
                                (b - a) / 2, MULRED_KZG_BLOB_BYTES);
    for (size_t i = 0; i < N_G1; i++) {
        uint64_t k[4];
        if (!blob_element(k, blob + 32 * i)) /* named where its 64 hex digits start */
            return mulred_error_set(err, MULRED_EINPUT,
                                    "%s: byte %zu: field element %zu is not below the BLS12-381 "
                                    "group order",
                                    name, a + 64 * i, i);
    }
    return MULRED_OK;
}

mulred_status mulred_kzg_blob_read(uint8_t blob[MULRED_KZG_BLOB_BYTES], const char *path,
                                   mulred_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int st = mulred_read_file(path, &text, &len, MULRED_KZG_BLOB_MAX_BYTES, "a blob", err);
    if (st != MULRED_OK) return st;
    st = mulred_kzg_blob_parse(blob, text, len, path, err);
    free(text);
    return st;
}

/* ---- commitment --------------------------------------------------------------------------------
 */

mulred_status mulred_kzg_blob_to_commitment(uint8_t out[MULRED_KZG_COMMITMENT_BYTES],
                                            const mulred_kzg_setup *s,
                                            const uint8_t blob[MULRED_KZG_BLOB_BYTES],
                                            mulred_error *err)
{
    mulred_scalar256 *k = malloc(N_G1 * sizeof *k);
    if (!k) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    for (size_t i = 0; i < N_G1; i++) {
        if (!blob_element(k[i].l, blob + 32 * i)) {
            free(k);
            return mulred_error_set(err, MULRED_EINPUT,
                                    "field element %zu (byte offset %zu) is not below the "
                                    "BLS12-381 group order",
                                    i, 32 * i);
        }
    }
    mulred_g1_381_jacobian r;
    mulred_g1_381_affine a;
    const mulred_status st = mulred_bases_msm(&r, s->bases, k, MULRED_SCALARS_LIMBS, N_G1, 1, err);
    if (st == MULRED_OK) {
        mulred_g1_381_jacobian_to_affine(&a, &r);
        mulred_g1_381_encode_compressed(out, &a);
    }
    free(k);
    return st;
}

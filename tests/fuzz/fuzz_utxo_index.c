/* The sidecar index loader (src/io/utxo_index.c) and what the chunk decoders do with whatever it
 * accepts. Input: mode (1 byte) ‖ snapshot length (u32 LE) ‖ snapshot ‖ rest. The rest becomes
 * the index file, by mode & 3:
 *   0  the rest as is (the loader must reject it or survive it);
 *   1  the rest with its last 32 bytes replaced by the SHA-256 of the bytes before (past the
 *      corruption check);
 *   2  as 1, with magic, version and the snapshot's true fingerprint written in (past the
 *      staleness check: only the chunk size, counts and entries are the fuzzer's);
 *   3  the snapshot's true index (scanned here, chunk size from the first two bytes of the rest),
 *      serialized here from the documented layout, then xor-patched by the rest's (u16 position,
 *      u8 value) triples and re-checksummed; an invalid snapshot falls back to mode 2.
 * Then 1 to 3 ranks open the snapshot with that index (never saving) and decode their chunks.
 * Property (the design note of utxo_index.c: a lying index can only produce an error):
 *   - the sequential decode fails → the indexed path fails with MULRED_EINPUT;
 *   - it succeeds → the indexed path gives exactly its coins, or (only if the loader accepted an
 *     index that differs from the true one) fails with MULRED_EINPUT naming the snapshot and a
 *     byte offset. An index that was rejected, or equals the true one, must give the coins. */
#include "fuzz_utxo.h"

#define FIXED 120 /* magic 8, version 4, chunk 4, fingerprint 88, groups 8, nchunks 8 */

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put_fingerprint(uint8_t *b, const utxo_fingerprint_t *fp)
{
    memcpy(b, "MULRDIDX", 8);
    b[8] = 1, b[9] = b[10] = b[11] = 0;
    put64(b + 16, fp->file_size);
    put64(b + 24, (uint64_t)fp->mtime_s);
    put64(b + 32, (uint64_t)fp->mtime_ns);
    memcpy(b + 40, fp->header_digest, 32);
    memcpy(b + 72, fp->tail_digest, 32);
}

/* The layout of utxo_index.c's design note, written independently of utxo_index_save. */
static uint8_t *serialize(const utxo_index *x, size_t *len)
{
    *len = FIXED + (size_t)(x->nchunks + 1) * 16 + 32;
    uint8_t *b = calloc(1, *len);
    put_fingerprint(b, &x->fp);
    b[12] = (uint8_t)x->chunk_bytes, b[13] = (uint8_t)(x->chunk_bytes >> 8);
    b[14] = (uint8_t)(x->chunk_bytes >> 16), b[15] = (uint8_t)(x->chunk_bytes >> 24);
    put64(b + 104, x->groups);
    put64(b + 112, x->nchunks);
    for (uint64_t i = 0; i <= x->nchunks; i++) {
        put64(b + FIXED + 16 * i, x->off[i]);
        put64(b + FIXED + 16 * i + 8, x->ord[i]);
    }
    return b;
}

static void checksum(uint8_t *b, size_t len)
{
    if (len >= 32) fuzz_sha256(b + len - 32, b, len - 32);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *buf;
    static coin_digest d;
    if (!buf) buf = malloc(UTXO_READ_BUFFER);
    if (size < 5) return 0;
    unsigned mode = data[0] & 3;
    int nranks = 1 + (data[0] >> 2) % 3;
    size_t snaplen =
        (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16 | (size_t)data[4] << 24;
    if (snaplen > size - 5) snaplen = size - 5;
    const uint8_t *snap = data + 5, *rest = snap + snaplen;
    size_t nrest = size - 5 - snaplen;

    char path[64];
    int fd = fuzz_memfile(path, snap, snaplen);
    mulred_error es;
    mulred_error_clear(&es);
    uint8_t ds[32], di[32];
    int rs = sequential(&d, ds, path, buf, &es);
    uint64_t coins_s = d.coins;

    /* The snapshot's header and fingerprint, and its true index when it is valid. */
    mulred_utxo_header h;
    utxo_fingerprint_t fp;
    utxo_index truth = {0};
    bool have_fp = false, have_truth = false;
    int sfd = -1;
    mulred_error e2;
    if (utxo_open(&sfd, &h, path, &e2) == MULRED_OK) {
        have_fp = utxo_fingerprint(&fp, sfd, &h, path, &e2) == MULRED_OK;
        if (mode == 3 && nrest >= 2) {
            const mulred_utxo_options o = {.chunk_bytes =
                                               1u + ((uint32_t)rest[0] | (uint32_t)rest[1] << 8)};
            have_truth = utxo_index_scan(&truth, sfd, &h, path, &o, &e2) == MULRED_OK;
        }
        close(sfd);
    }

    uint8_t *ib = NULL;
    size_t ilen = 0;
    if (mode == 3 && have_truth) {
        ib = serialize(&truth, &ilen);
        for (size_t k = 2; k + 3 <= nrest; k += 3) {
            size_t pos = ((size_t)rest[k] | (size_t)rest[k + 1] << 8) % (ilen - 32);
            ib[pos] ^= rest[k + 2];
        }
        checksum(ib, ilen);
    } else {
        ilen = nrest;
        if (mode >= 2 && ilen < FIXED + 16 + 32) ilen = FIXED + 16 + 32;
        ib = calloc(1, ilen ? ilen : 1);
        memcpy(ib, rest, nrest);
        if (mode >= 2 && have_fp) put_fingerprint(ib, &fp);
        if (mode >= 1) checksum(ib, ilen);
    }
    char ipath[64];
    int ifd = fuzz_memfile(ipath, ib, ilen);

    /* Did the loader accept it? (It is never rewritten: no_save.) */
    mulred_utxo_options opt = {.index_path = ipath, .no_save = true};
    mulred_utxo_index_info info;
    mulred_error eb;
    mulred_error_clear(&eb);
    int rb = mulred_utxo_index_build(&info, path, &opt, false, &eb);
    bool loaded = rb == MULRED_OK && info.loaded;
    bool equal_truth = false;
    if (loaded && have_truth) {
        size_t tlen;
        uint8_t *tb = serialize(&truth, &tlen);
        checksum(tb, tlen);
        equal_truth = tlen == ilen && memcmp(tb, ib, ilen) == 0;
        free(tb);
    }

    mulred_error ei;
    mulred_error_clear(&ei);
    int ri = indexed(&d, di, path, &opt, nranks, buf, &ei);
    if (rs) {
        FUZZ_CHECK(ri == MULRED_EINPUT,
                   "invalid snapshot (%s) but the indexed path returned %d "
                   "(%s)",
                   es.message, ri, ei.message);
    } else if (ri == MULRED_OK) {
        FUZZ_CHECK(d.coins == coins_s && memcmp(ds, di, 32) == 0,
                   "indexed path succeeded with other coins (%llu, sequential %llu; index %s)",
                   (unsigned long long)d.coins, (unsigned long long)coins_s,
                   loaded ? "loaded" : "rebuilt");
    } else {
        FUZZ_CHECK(ri == MULRED_EINPUT, "valid snapshot, indexed path returned %d (%s)", ri,
                   ei.message);
        FUZZ_CHECK(loaded && !equal_truth, "valid snapshot and a %s index, but: %s",
                   loaded ? "true" : "rebuilt", ei.message);
        size_t n = strlen(path);
        FUZZ_CHECK(strncmp(ei.message, path, n) == 0 && strncmp(ei.message + n, ": byte ", 7) == 0,
                   "message does not name the snapshot and a byte offset: %s", ei.message);
    }
    utxo_index_free(&truth);
    free(ib);
    close(ifd);
    close(fd);
    return 0;
}

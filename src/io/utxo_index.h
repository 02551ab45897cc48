/* Internal: the in-memory sidecar index (see the design note at the top of utxo_index.c). */
#ifndef MULRED_IO_UTXO_INDEX_H
#define MULRED_IO_UTXO_INDEX_H

#include "io/utxo_internal.h"

/* What identifies the snapshot an index was built from. No padding: compared with memcmp. */
typedef struct {
    uint64_t file_size;
    int64_t mtime_s, mtime_ns;
    uint8_t header_digest[32]; /* SHA-256 of the header bytes */
    uint8_t tail_digest[32];   /* SHA-256 of the last 64 KiB of the body (or all of it) */
} utxo_fingerprint_t;

typedef struct {
    uint64_t nchunks;
    uint64_t *off; /* nchunks + 1 entries; off[nchunks] = end of the last coin */
    uint64_t *ord; /* nchunks + 1 entries; ord[nchunks] = coin count */
    uint64_t groups;
    uint32_t chunk_bytes;
    utxo_fingerprint_t fp;
} utxo_index;

void utxo_index_free(utxo_index *x);
mulred_status utxo_fingerprint(utxo_fingerprint_t *fp, int fd, const mulred_utxo_header *h,
                               const char *path, mulred_error *err);
/* One validating sequential scan of the whole file, in chunks of opt->chunk_bytes (0 or opt
 * NULL: the default), reporting to opt->progress (when set) at each chunk. */
mulred_status utxo_index_scan(utxo_index *x, int fd, const mulred_utxo_header *h, const char *path,
                              const mulred_utxo_options *opt, mulred_error *err);
mulred_status utxo_index_save(const utxo_index *x, const char *idx_path, mulred_error *err);
int utxo_index_load(utxo_index *x, const char *idx_path, const mulred_utxo_header *h,
                    const utxo_fingerprint_t *fp, uint32_t want_chunk_bytes, char *why,
                    size_t whycap);
/* Load a fresh index, or scan (and save unless opt->no_save; a failed save is not an error). */
mulred_status utxo_index_get(utxo_index *x, mulred_utxo_index_info *info, int fd,
                             const mulred_utxo_header *h, const char *path,
                             const mulred_utxo_options *opt, bool force, mulred_error *err);

#endif

/* Internal: the layout of a snapshot source (shared by the chunk decoder in utxo_source.c and
 * the MuHash adapter in utxo_muhash.c). */
#ifndef MULRED_IO_UTXO_SOURCE_H
#define MULRED_IO_UTXO_SOURCE_H

#include "io/utxo_index.h"

struct mulred_utxo_source {
    char *path;
    int fd;
    mulred_utxo_header header;
    utxo_index index;
    uint64_t first, end; /* the selected chunks [first, end) */
    mulred_muhash_source muhash;
};

/* Decodes chunk i of the selection (0 <= i < end − first) with the visitor, checking that it
 * holds exactly its coins, ends on the next chunk's first byte and, for the file's last chunk,
 * at the end of the file. buf: UTXO_READ_BUFFER bytes of caller scratch. */
mulred_status utxo_source_decode_chunk(const mulred_utxo_source *s, size_t i, const utxo_visitor *v,
                                       uint8_t *buf, mulred_error *err);
/* The mulred_muhash_source produce callback (utxo_muhash.c). */
mulred_status utxo_source_produce_muhash(void *ctx, size_t i, mulred_muhash_sink *sink,
                                         mulred_error *err);

#endif

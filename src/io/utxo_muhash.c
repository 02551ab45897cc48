/* The snapshot source as a mulred_muhash_source: the engine's threads call produce for
 * different chunks at once; each call reads its chunk with pread into its own buffer and adds
 * every coin's TxOutSer to the calling thread's sink. */
#include <stdlib.h>

#include "io/utxo_source.h"
#include "mulred/muhash.h"

static int sink_coin(void *ctx, const utxo_coin *c, mulred_error *err)
{
    (void)err;
    mulred_muhash_sink_add(ctx, c->ser, c->ser_len, false);
    return 0;
}

mulred_status utxo_source_produce_muhash(void *ctx, size_t i, mulred_muhash_sink *sink,
                                         mulred_error *err)
{
    const mulred_utxo_source *s = ctx;
    uint8_t *buf = malloc(UTXO_READ_BUFFER); /* one per chunk: 256 KiB vs ~2000 coins hashed */
    if (!buf) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    utxo_visitor v = {.coin = sink_coin, .ctx = sink};
    mulred_status rc = utxo_source_decode_chunk(s, i, &v, buf, err);
    free(buf);
    return rc;
}

/* Filled here, not at open, so that code using only the decoder does not link the engine. */
const mulred_muhash_source *mulred_utxo_source_muhash(mulred_utxo_source *s)
{
    s->muhash.nchunks = (size_t)(s->end - s->first);
    s->muhash.produce = utxo_source_produce_muhash;
    s->muhash.ctx = s;
    return &s->muhash;
}

/* Bitcoin Core snapshots (src/io/utxo_*.c): header and body decode, without and with the sidecar
 * index. Differential: on every input,
 *   - the sequential decode of the whole body (the path of `utxo info` and the txoutset hash),
 *   - the public statistics scan and txoutset hash,
 *   - the indexed path: an index built in memory with a small chunk size (64 bytes to 4 KiB,
 *     chosen from the input's hash), then every chunk decoded by its rank for 1 to 3 ranks,
 * must all give the same status and, on an error, the same message; on success the same number
 * of coins (the header's) and the same coins in the same order (SHA-256 over every TxOutSer). */
#include "fuzz_utxo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *buf;
    static coin_digest d;
    if (!buf) buf = malloc(UTXO_READ_BUFFER);
    uint64_t hh = fuzz_hash(data, size);
    char path[64];
    int fd = fuzz_memfile(path, data, size);

    mulred_error es, ei, ex, et;
    mulred_error_clear(&es);
    uint8_t ds[32], di[32];
    int rs = sequential(&d, ds, path, buf, &es);
    uint64_t coins_s = d.coins;

    uint32_t chunk_bytes = 64u + (uint32_t)(hh % 4033);
    int nranks = 1 + (int)((hh >> 16) % 3);
    mulred_error_clear(&ei);
    mulred_utxo_options opt = {.chunk_bytes = chunk_bytes, .no_save = true};
    int ri = indexed(&d, di, path, &opt, nranks, buf, &ei);
    FUZZ_CHECK(rs == ri, "status: sequential %d (%s), indexed %d (%s)", rs, es.message, ri,
               ei.message);
    if (rs) {
        FUZZ_CHECK(strcmp(es.message, ei.message) == 0, "message: sequential '%s', indexed '%s'",
                   es.message, ei.message);
        FUZZ_CHECK(rs == MULRED_EINPUT, "status %d on a memory file: %s", rs, es.message);
    } else {
        FUZZ_CHECK(coins_s == d.coins && memcmp(ds, di, 32) == 0,
                   "coins: sequential %llu, indexed %llu (chunk %u, %d ranks)%s",
                   (unsigned long long)coins_s, (unsigned long long)d.coins, chunk_bytes, nranks,
                   coins_s == d.coins ? ", different bytes" : "");
    }

    mulred_utxo_stats st;
    mulred_error_clear(&ex);
    int rx = mulred_utxo_stats_scan(&st, path, &ex);
    FUZZ_CHECK(rx == rs && (rs ? strcmp(ex.message, es.message) == 0 : st.coins == coins_s),
               "stats scan: %d '%s', sequential %d '%s'", rx, ex.message, rs, es.message);
    uint8_t th[32];
    mulred_error_clear(&et);
    int rt = mulred_utxo_txoutset_hash(th, path, &et);
    FUZZ_CHECK(rt == rs && (rs == 0 || strcmp(et.message, es.message) == 0),
               "txoutset hash: %d '%s', sequential %d '%s'", rt, et.message, rs, es.message);
    close(fd);
    return 0;
}

/* Synthetic UTXO sets: element i is a pure function of (seed, i), drawn from the counter-based
 * mixer stream (blocks i·128 onward, 2 KiB per element, more than the largest element needs),
 * so every rank and thread generates its own index range with no I/O. The script mix roughly
 * follows today's Bitcoin UTXO set: P2WPKH 43%, P2PKH 22%, P2TR 18%, P2SH 12%, P2WSH 4%,
 * large scripts (35–1650 bytes) 1%. */
#include <string.h>

#include "mix/mix_stream.h"
#include "mulred/sources.h"
#include "util/util.h"

enum { SYNTH_CHUNK = MULRED_SOURCE_SYNTH_CHUNK, STREAM_BLOCKS_PER_ELEMENT = 128 };

/* Writes the script for selector `sel` (0..999) using random bytes rnd; returns its length. */
static size_t synth_script(uint8_t *out, unsigned sel, const uint8_t *rnd, uint64_t w)
{
    if (sel < 430) { /* P2WPKH */
        out[0] = 0x00, out[1] = 0x14;
        memcpy(out + 2, rnd, 20);
        return 22;
    }
    if (sel < 650) { /* P2PKH */
        out[0] = 0x76, out[1] = 0xa9, out[2] = 0x14;
        memcpy(out + 3, rnd, 20);
        out[23] = 0x88, out[24] = 0xac;
        return 25;
    }
    if (sel < 830) { /* P2TR */
        out[0] = 0x51, out[1] = 0x20;
        memcpy(out + 2, rnd, 32);
        return 34;
    }
    if (sel < 950) { /* P2SH */
        out[0] = 0xa9, out[1] = 0x14;
        memcpy(out + 2, rnd, 20);
        out[22] = 0x87;
        return 23;
    }
    if (sel < 990) { /* P2WSH */
        out[0] = 0x00, out[1] = 0x20;
        memcpy(out + 2, rnd, 32);
        return 34;
    }
    size_t len = 35 + (size_t)(w % 1616); /* large: multisig, inscriptions, odd scripts */
    _Static_assert(63 + 35 + 1615 <= MULRED_SOURCE_SYNTH_MAX_ELEMENT, "largest synthetic element");
    memcpy(out, rnd, len);
    return len;
}

size_t mulred_source_synth_element(uint8_t out[MULRED_SOURCE_SYNTH_MAX_ELEMENT],
                                   mulred_muhash_flavor flavor, uint64_t seed, uint64_t index)
{
    /* 16 control bytes, 32 txid bytes, up to 1650 script bytes. */
    uint8_t rnd[16 + 32 + 1656];
    mulred_u128 ctl = mulred_mix_stream(seed, index * STREAM_BLOCKS_PER_ELEMENT);
    unsigned sel = (unsigned)(ctl.lo % 1000);
    size_t need = sel < 990 ? 16 + 32 + 32 : sizeof rnd;
    mulred_mix_fill(rnd, need, seed, index * STREAM_BLOCKS_PER_ELEMENT);
    uint64_t w0 = ctl.lo >> 10, w1 = ctl.hi;
    uint32_t height = (uint32_t)(w1 % 870000);
    unsigned coinbase = (w0 & 127) == 0;
    uint32_t vout = (w0 >> 7) % 8 == 0 ? (uint32_t)((w0 >> 10) % 3000) : (uint32_t)((w0 >> 10) % 4);
    uint64_t pow10 = 1;
    for (unsigned e = (unsigned)((w1 >> 20) % 10); e; e--) pow10 *= 10;
    int64_t amount = (int64_t)(((w1 >> 32) % 100000 + 1) * pow10 % 2100000000000001ull);
    uint8_t script[1656];
    size_t slen = synth_script(script, sel, rnd + 48, w1 >> 40);

    size_t n = 0;
    memcpy(out, rnd + 16, 32), n = 32; /* txid */
    if (flavor == MULRED_MUHASH_BITCOIN) {
        /* TxOutSer: txid ‖ vout u32 ‖ (height·2 + coinbase) u32 ‖ value i64 ‖ CompactSize
         * ‖ script */
        mulred_store_le32(out + n, vout), n += 4;
        mulred_store_le32(out + n, height * 2 + coinbase), n += 4;
        mulred_store_le64(out + n, (uint64_t)amount), n += 8;
        if (slen < 253)
            out[n++] = (uint8_t)slen;
        else
            out[n++] = 0xfd, out[n++] = (uint8_t)slen, out[n++] = (uint8_t)(slen >> 8);
    } else {
        /* Kaspa: txid ‖ index u32 ‖ DAA score u64 ‖ amount u64 ‖ coinbase u8 ‖ script version
         * u16 ‖ script length u64 ‖ script */
        mulred_store_le32(out + n, vout), n += 4;
        mulred_store_le64(out + n, (uint64_t)height * 10 + (w0 >> 40) % 10), n += 8;
        mulred_store_le64(out + n, (uint64_t)amount), n += 8;
        out[n++] = (uint8_t)coinbase;
        out[n++] = 0, out[n++] = 0;
        mulred_store_le64(out + n, slen), n += 8;
    }
    memcpy(out + n, script, slen);
    return n + slen;
}

static mulred_status synth_produce(void *vset, size_t c, mulred_muhash_sink *sink,
                                   mulred_error *err)
{
    (void)err;
    const mulred_source_synth_set *set = vset;
    uint8_t buf[MULRED_SOURCE_SYNTH_MAX_ELEMENT];
    uint64_t lo = set->first + (uint64_t)c * SYNTH_CHUNK;
    uint64_t hi =
        lo + SYNTH_CHUNK < set->first + set->count ? lo + SYNTH_CHUNK : set->first + set->count;
    for (uint64_t i = lo; i < hi; i++) {
        size_t n = mulred_source_synth_element(buf, set->flavor, set->seed, i);
        mulred_muhash_sink_add(sink, buf, n, set->remove);
    }
    return MULRED_OK;
}

uint64_t mulred_source_synth_units(uint64_t n)
{
    return n / SYNTH_CHUNK + (n % SYNTH_CHUNK != 0);
}

void mulred_source_synth_select(mulred_source_synth_set *set, uint64_t n, uint64_t first,
                                uint64_t end)
{
    MULRED_CHECK(first <= end && end <= mulred_source_synth_units(n), "units [%llu, %llu) of %llu",
                 (unsigned long long)first, (unsigned long long)end,
                 (unsigned long long)mulred_source_synth_units(n));
    uint64_t lo = first * SYNTH_CHUNK,
             hi = end == mulred_source_synth_units(n) ? n : end * SYNTH_CHUNK;
    set->first = lo;
    set->count = first == end ? 0 : hi - lo;
}

void mulred_source_synth_source(mulred_muhash_source *out, mulred_source_synth_set *set)
{
    out->nchunks = (size_t)((set->count + SYNTH_CHUNK - 1) / SYNTH_CHUNK);
    out->produce = synth_produce;
    out->ctx = set;
}

/* Keyed BLAKE2b-256 (RFC 7693) for 8 messages at once with AVX-512F: lane i of each 512-bit
 * register holds 64-bit word w of message i, so one pass of the 12 rounds compresses one
 * 128-byte block of 8 messages. Written from the RFC's description (section 3) and its IV and
 * sigma table.
 *
 * Why: Kaspa maps every MuHash element through BLAKE2b-256 keyed "MuHashElement". Through
 * OpenSSL's EVP_MAC most of an element's cost is per-call dispatch and the key block, which
 * keyed BLAKE2b compresses again for every message (it is the first block). Here the chain
 * value after the key block is computed once per key (mulred_blake2b256_keyed_init) and a
 * 58-byte element costs one compression shared by 8 lanes.
 *
 * Lanes of different lengths: block b of lane i is a full message block while b < nblocks_i - 1,
 * the zero-padded final block (with the finalization flag) when b = nblocks_i - 1, and a dummy
 * after that; masked updates leave the chain value of a finished lane untouched. A lane with an
 * empty message has no block of its own (per RFC 7693 the key block is then the final block):
 * its digest is a constant of the key, computed at init. Messages are read only within their
 * length; the final blocks are copied into a padded buffer.
 *
 * Loading: the 8 lanes' blocks (2 × 64 bytes each) are loaded with plain loads and transposed
 * in registers (8×8 64-bit transposes: 24 unpack/shuffle operations per 64 bytes of 8 lanes),
 * which is faster than 16 vpgatherqq per block for short and long messages alike
 * (docs/kernels.md has the figures). The 12 rounds (≈ 1350 vector operations per block)
 * dominate: fully unrolling them (sigma indices as constants) gains nothing. Constant time for
 * given lengths.
 *
 * The OpenSSL path (mulred_blake2b256_digest) stays the reference: the tests compare both on
 * every length 0..300 in mixed lanes and on keys of 1..64 bytes. The portable one-message code
 * (blake2b.c) is the fallback. */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "hash/blake2b_internal.h"
#include "hash/hash.h"

/* Message words and digests are read and written as little-endian 64-bit words directly. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "x86-64 is little-endian");

#define X8_TARGET __attribute__((target("avx512f")))

/* ---- 8 lanes ---- */

#define G8(a, b, c, d, x, y)                                                                       \
    do {                                                                                           \
        a = _mm512_add_epi64(_mm512_add_epi64(a, b), x);                                           \
        d = _mm512_ror_epi64(_mm512_xor_si512(d, a), 32);                                          \
        c = _mm512_add_epi64(c, d);                                                                \
        b = _mm512_ror_epi64(_mm512_xor_si512(b, c), 24);                                          \
        a = _mm512_add_epi64(_mm512_add_epi64(a, b), y);                                           \
        d = _mm512_ror_epi64(_mm512_xor_si512(d, a), 16);                                          \
        c = _mm512_add_epi64(c, d);                                                                \
        b = _mm512_ror_epi64(_mm512_xor_si512(b, c), 63);                                          \
    } while (0)

/* Words 0..7 of r[0..7] (r[i] = 64 bytes of lane i) into m[0..7] (m[w] = word w of each lane):
 * unpacks pair the lanes inside 128-bit blocks, two rounds of 128-bit block shuffles finish. */
X8_TARGET
static inline void transpose8(__m512i m[8], const __m512i r[8])
{
    __m512i t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);     /* words 0,2,4,6 */
        t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]); /* words 1,3,5,7 */
    }
    for (int i = 0; i < 2; i++)
        for (int o = 0; o < 2; o++) { /* o: even or odd words; lanes 4i..4i+3 */
            u[4 * i + o] = _mm512_shuffle_i64x2(t[4 * i + o], t[4 * i + 2 + o], 0x88);
            u[4 * i + 2 + o] = _mm512_shuffle_i64x2(t[4 * i + o], t[4 * i + 2 + o], 0xdd);
        }
    /* u[4i+w], w < 4: words w and w+4 of lanes 4i..4i+3, as 128-bit blocks
     * (w: lanes 4i, 4i+1), (w+4: same), (w: lanes 4i+2, 4i+3), (w+4: same) */
    for (int w = 0; w < 4; w++) {
        m[w] = _mm512_shuffle_i64x2(u[w], u[4 + w], 0x88);
        m[w + 4] = _mm512_shuffle_i64x2(u[w], u[4 + w], 0xdd);
    }
}

X8_TARGET
void mulred_blake2b256_keyed_x8(uint8_t *const out[8], const uint8_t *const msg[8],
                                const size_t len[8], const mulred_blake2b_keyed_state *st)
{
    /* final blocks, zero-padded; also the dummy block of lanes that are done */
    uint8_t pad[8][128] __attribute__((aligned(64)));
    size_t nblk[8], maxblk = 0;
    for (int i = 0; i < 8; i++) {
        nblk[i] = (len[i] + 127) / 128;
        if (nblk[i] > maxblk) maxblk = nblk[i];
        size_t tail = len[i] - (nblk[i] ? 128 * (nblk[i] - 1) : 0);
        memset(pad[i], 0, sizeof pad[i]);
        if (tail) memcpy(pad[i], msg[i] + 128 * (nblk[i] - 1), tail);
    }
    __m512i h[8];
    for (int w = 0; w < 8; w++) h[w] = _mm512_set1_epi64((long long)st->h[w]);
    for (size_t b = 0; b < maxblk; b++) {
        const uint8_t *p[8];
        uint64_t t0[8], t1[8];
        __mmask8 active = 0, last = 0;
        for (int i = 0; i < 8; i++) {
            /* bytes compressed so far, the key block included */
            size_t done = b + 1 < nblk[i] ? 128 * (b + 1) : len[i];
            t0[i] = 128 + (uint64_t)done;
            t1[i] = t0[i] < 128; /* carry into the high counter word */
            p[i] = b + 1 < nblk[i] ? msg[i] + 128 * b : pad[i];
            if (b < nblk[i]) active |= (__mmask8)(1u << i);
            if (b + 1 == nblk[i]) last |= (__mmask8)(1u << i);
        }
        __m512i m[16], r[8];
        for (int half = 0; half < 2; half++) {
            for (int i = 0; i < 8; i++) r[i] = _mm512_loadu_si512(p[i] + 64 * half);
            transpose8(m + 8 * half, r);
        }
        __m512i v[16];
        for (int w = 0; w < 8; w++) v[w] = h[w];
        for (int w = 0; w < 8; w++) v[8 + w] = _mm512_set1_epi64((long long)mulred_blake2b_iv[w]);
        v[12] = _mm512_xor_si512(v[12], _mm512_loadu_si512(t0));
        v[13] = _mm512_xor_si512(v[13], _mm512_loadu_si512(t1));
        v[14] = _mm512_mask_xor_epi64(v[14], last, v[14], _mm512_set1_epi64(-1));
        for (int rd = 0; rd < 12; rd++) {
            const uint8_t *s = mulred_blake2b_sigma[rd];
            G8(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
            G8(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
            G8(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
            G8(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
            G8(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
            G8(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
            G8(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
            G8(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
        }
        /* h ^= v[0..7] ^ v[8..15] in the lanes that compressed a block of their own */
        for (int w = 0; w < 8; w++)
            h[w] = _mm512_mask_ternarylogic_epi64(h[w], active, v[w], v[8 + w], 0x96);
    }
    uint64_t d[4][8];
    for (int w = 0; w < 4; w++) _mm512_storeu_si512(d[w], h[w]);
    for (int i = 0; i < 8; i++) {
        if (len[i] == 0)
            memcpy(out[i], st->empty, 32);
        else
            for (int w = 0; w < 4; w++) memcpy(out[i] + 8 * w, &d[w][i], 8);
    }
}

/* One-shot SHA-256 with the x86 SHA extensions, for the short messages MuHash hashes (a UTXO
 * serialization is 50–100 bytes: two compressions). EVP's per-call dispatch costs about as much
 * as the compressions themselves (docs/kernels.md has EVP's, this code's and the four-message
 * figures). OpenSSL stays the reference (the tests compare both on every length 0..300)
 * and the fallback on CPUs without SHA-NI. Constant time for given lengths.
 *
 * State layout of sha256rnds2: one register holds (A, B, E, F) in lanes 3, 2, 1, 0, the other
 * (C, D, G, H); each rnds2 performs two rounds and returns the new ABEF, and the old ABEF is
 * the CDGH of the next two rounds. */
#include <immintrin.h>
#include <string.h>

#include "hash/hash.h"

#define SHANI_TARGET __attribute__((target("sha,sse4.1,ssse3")))

static const uint32_t sha256_k[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/* n independent compressions (n <= 4, a constant after inlining), interleaved round group by
 * round group: each sha256rnds2 depends on the one before it in the same message, so one
 * message leaves the unit waiting; four keep it busy, although four states and their schedules
 * do not fit the 16 xmm registers that the legacy-encoded SHA instructions can use
 * (docs/kernels.md has the figures). */
static inline __attribute__((always_inline, target("sha,sse4.1,ssse3"))) void
shani_compress_n(__m128i *abef, __m128i *cdgh, const uint8_t *const *block, const int n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    __m128i s0[4], s1[4], w[4][4];
#pragma GCC unroll 4
    for (int q = 0; q < n; q++) {
        s0[q] = abef[q];
        s1[q] = cdgh[q];
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++)
            w[q][i] =
                _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block[q] + 16 * i)), bswap);
    }
#pragma GCC unroll 16
    for (int g = 0; g < 16; g++) {
        const __m128i k = _mm_load_si128((const __m128i *)(sha256_k + 4 * g));
#pragma GCC unroll 4
        for (int q = 0; q < n; q++) {
            if (g >= 4) /* W[4g..4g+3] from the four previous groups */
                w[q][g & 3] = _mm_sha256msg2_epu32(
                    _mm_add_epi32(_mm_sha256msg1_epu32(w[q][g & 3], w[q][(g + 1) & 3]),
                                  _mm_alignr_epi8(w[q][(g + 3) & 3], w[q][(g + 2) & 3], 4)),
                    w[q][(g + 3) & 3]);
            const __m128i m = _mm_add_epi32(w[q][g & 3], k);
            s1[q] = _mm_sha256rnds2_epu32(s1[q], s0[q], m);
            s0[q] = _mm_sha256rnds2_epu32(s0[q], s1[q], _mm_shuffle_epi32(m, 0x0e));
        }
    }
#pragma GCC unroll 4
    for (int q = 0; q < n; q++) {
        abef[q] = _mm_add_epi32(abef[q], s0[q]);
        cdgh[q] = _mm_add_epi32(cdgh[q], s1[q]);
    }
}

SHANI_TARGET
static void shani_compress(__m128i *abef, __m128i *cdgh, const uint8_t *block)
{
    shani_compress_n(abef, cdgh, &block, 1);
}

/* The initial state H0 as (A,B,C,D), (E,F,G,H) rearranged into ABEF / CDGH. */
SHANI_TARGET
static void shani_init(__m128i *abef, __m128i *cdgh)
{
    __m128i abcd = _mm_set_epi32(0xa54ff53a, 0x3c6ef372, (int)0xbb67ae85, 0x6a09e667);
    __m128i efgh = _mm_set_epi32(0x5be0cd19, 0x1f83d9ab, (int)0x9b05688c, 0x510e527f);
    __m128i t = _mm_shuffle_epi32(abcd, 0xb1), u = _mm_shuffle_epi32(efgh, 0x1b);
    *abef = _mm_alignr_epi8(t, u, 8);
    *cdgh = _mm_blend_epi16(u, t, 0xf0);
}

/* The digest from ABEF / CDGH: back to (A,B,C,D), (E,F,G,H), each word big-endian. */
SHANI_TARGET
static void shani_store(uint8_t out[32], __m128i abef, __m128i cdgh)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    __m128i t = _mm_shuffle_epi32(abef, 0x1b), u = _mm_shuffle_epi32(cdgh, 0xb1);
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(_mm_blend_epi16(t, u, 0xf0), bswap));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_shuffle_epi8(_mm_alignr_epi8(u, t, 8), bswap));
}

/* The padded final blocks of a message of len bytes whose first `full` bytes (a multiple of
 * 64) are compressed from the message itself; returns the number of final blocks (1 or 2). */
static size_t sha256_tail(uint8_t tail[128], const uint8_t *data, size_t len, size_t full)
{
    size_t n = len - full;
    memset(tail, 0, 128);
    if (n) memcpy(tail, data + full, n);
    tail[n] = 0x80;
    size_t tail_len = n + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) tail[tail_len - 1 - i] = (uint8_t)(bits >> (8 * i));
    return tail_len / 64;
}

SHANI_TARGET
void mulred_sha256_shani(uint8_t out[32], const uint8_t *data, size_t len)
{
    __m128i abef, cdgh;
    shani_init(&abef, &cdgh);
    const size_t full = len / 64 * 64;
    for (size_t off = 0; off < full; off += 64) shani_compress(&abef, &cdgh, data + off);
    uint8_t tail[128];
    const size_t nt = sha256_tail(tail, data, len, full);
    for (size_t b = 0; b < nt; b++) shani_compress(&abef, &cdgh, tail + 64 * b);
    shani_store(out, abef, cdgh);
}

/* Lanes of different lengths: block b of lane q is read from the message while b < full/64,
 * then from its padded tail; a lane with no block b left computes on a copy of its state and
 * a zero block (discarded), which costs a slot but keeps the four chains in step (MuHash's
 * elements of one batch mostly have the same block count). */
SHANI_TARGET
void mulred_sha256_shani_x4(uint8_t *const out[4], const uint8_t *const msg[4], const size_t len[4])
{
    static const uint8_t zero_block[64];
    uint8_t tail[4][128];
    size_t full[4], nblk[4], maxblk = 0;
    __m128i abef[4], cdgh[4];
    for (int q = 0; q < 4; q++) {
        full[q] = len[q] / 64 * 64;
        nblk[q] = full[q] / 64 + sha256_tail(tail[q], msg[q], len[q], full[q]);
        if (nblk[q] > maxblk) maxblk = nblk[q];
        shani_init(&abef[q], &cdgh[q]);
    }
    for (size_t b = 0; b < maxblk; b++) {
        const uint8_t *blk[4];
        __m128i a[4], c[4];
        for (int q = 0; q < 4; q++) {
            a[q] = abef[q], c[q] = cdgh[q];
            blk[q] = b >= nblk[q]       ? zero_block
                     : 64 * b < full[q] ? msg[q] + 64 * b
                                        : tail[q] + (64 * b - full[q]);
        }
        shani_compress_n(a, c, blk, 4);
        for (int q = 0; q < 4; q++)
            if (b < nblk[q]) abef[q] = a[q], cdgh[q] = c[q];
    }
    for (int q = 0; q < 4; q++) shani_store(out[q], abef[q], cdgh[q]);
}

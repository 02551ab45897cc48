/* ChaCha20 keystreams for 16 keys at once with AVX-512: lane i of each 512-bit register holds
 * state word w of key i, so one pass of the 20 rounds produces one 64-byte block for 16 keys.
 * MuHash needs 384 bytes (blocks 0..5) per element under a fresh key, which a one-key
 * implementation pays for with a setup per element (through EVP: docs/kernels.md has its
 * cost); here the cost is 6 × 20 rounds of 16-lane vector work shared by 16 elements. Constant
 * time.
 *
 * The OpenSSL path (mulred_chacha20_keystream) stays the reference: the tests compare both on
 * random keys. */
#include <immintrin.h>
#include <string.h>

#include "hash/hash.h"
#include "util/util.h"

/* The stores below write the little-endian word order directly. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "x86-64 is little-endian");

#define X16_TARGET __attribute__((target("avx512f")))

#define QR(a, b, c, d)                                                                             \
    a = _mm512_add_epi32(a, b), d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16),                  \
    c = _mm512_add_epi32(c, d), b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12),                  \
    a = _mm512_add_epi32(a, b), d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8),                   \
    c = _mm512_add_epi32(c, d), b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7)

X16_TARGET
void mulred_chacha20_384_x16(uint8_t *const out[16], const uint8_t *const key[16])
{
    static const uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    uint32_t kw[8][16];
    for (int lane = 0; lane < 16; lane++)
        for (int w = 0; w < 8; w++) kw[w][lane] = mulred_load_le32(key[lane] + 4 * w);
    __m512i k[8];
    for (int w = 0; w < 8; w++) k[w] = _mm512_loadu_si512(kw[w]);
    for (uint32_t ctr = 0; ctr < 6; ctr++) {
        __m512i x[16], in[16];
        for (int w = 0; w < 4; w++) in[w] = _mm512_set1_epi32((int)sigma[w]);
        for (int w = 0; w < 8; w++) in[4 + w] = k[w];
        in[12] = _mm512_set1_epi32((int)ctr);
        in[13] = in[14] = in[15] = _mm512_setzero_si512();
        for (int w = 0; w < 16; w++) x[w] = in[w];
        for (int r = 0; r < 10; r++) {
            QR(x[0], x[4], x[8], x[12]);
            QR(x[1], x[5], x[9], x[13]);
            QR(x[2], x[6], x[10], x[14]);
            QR(x[3], x[7], x[11], x[15]);
            QR(x[0], x[5], x[10], x[15]);
            QR(x[1], x[6], x[11], x[12]);
            QR(x[2], x[7], x[8], x[13]);
            QR(x[3], x[4], x[9], x[14]);
        }
        for (int w = 0; w < 16; w++) x[w] = _mm512_add_epi32(x[w], in[w]);
        /* Transpose the 16×16 word matrix (row w = word w of every lane) in registers: 32-bit
         * and 64-bit unpacks transpose the 4×4 blocks inside each 128-bit block, then two
         * rounds of 128-bit shuffles transpose the 4×4 matrix of blocks. */
        __m512i u[4][4];
        for (int g = 0; g < 4; g++) {
            __m512i t0 = _mm512_unpacklo_epi32(x[4 * g], x[4 * g + 1]);
            __m512i t1 = _mm512_unpackhi_epi32(x[4 * g], x[4 * g + 1]);
            __m512i t2 = _mm512_unpacklo_epi32(x[4 * g + 2], x[4 * g + 3]);
            __m512i t3 = _mm512_unpackhi_epi32(x[4 * g + 2], x[4 * g + 3]);
            u[g][0] = _mm512_unpacklo_epi64(t0, t2);
            u[g][1] = _mm512_unpackhi_epi64(t0, t2);
            u[g][2] = _mm512_unpacklo_epi64(t1, t3);
            u[g][3] = _mm512_unpackhi_epi64(t1, t3);
        }
        for (int q = 0; q < 4; q++) { /* u[g][q], block j = words 4g..4g+3 of lane 4j+q */
            __m512i a = _mm512_shuffle_i32x4(u[0][q], u[1][q], 0x44);
            __m512i b = _mm512_shuffle_i32x4(u[0][q], u[1][q], 0xee);
            __m512i c = _mm512_shuffle_i32x4(u[2][q], u[3][q], 0x44);
            __m512i d = _mm512_shuffle_i32x4(u[2][q], u[3][q], 0xee);
            _mm512_storeu_si512(out[q] + 64 * ctr, _mm512_shuffle_i32x4(a, c, 0x88));
            _mm512_storeu_si512(out[4 + q] + 64 * ctr, _mm512_shuffle_i32x4(a, c, 0xdd));
            _mm512_storeu_si512(out[8 + q] + 64 * ctr, _mm512_shuffle_i32x4(b, d, 0x88));
            _mm512_storeu_si512(out[12 + q] + 64 * ctr, _mm512_shuffle_i32x4(b, d, 0xdd));
        }
    }
}

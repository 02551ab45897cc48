/* Prime fields of BLS12-381 and BN254: the base fields Fp (coordinates of G1 points) and the
 * scalar fields Fr (exponents, MSM scalars).
 *
 *   mulred_fp381  Fp of BLS12-381, p = 0x1a0111ea…ffffaaab (381 bits), 6 limbs, 48 bytes
 *   mulred_fr381  Fr of BLS12-381, r = 0x73eda753…00000001 (255 bits), 4 limbs, 32 bytes
 *   mulred_fp254  Fp of BN254, p = 0x30644e72…d87cfd47 (254 bits), 4 limbs, 32 bytes
 *   mulred_fr254  Fr of BN254, r = 0x30644e72…f0000001 (254 bits), 4 limbs, 32 bytes
 *
 * Representation (every type): l[] holds the Montgomery residue a·R mod p of the element a,
 * R = 2^(64·limbs), as little-endian 64-bit limbs, FULLY REDUCED: in [0, p). Every function
 * requires this of its inputs and guarantees it of its outputs; only from_bytes and from_limbs
 * accept outside data, and they check it. Equal elements have equal limbs, so memcmp compares.
 * A zero-filled object is the element 0.
 *
 * Aliasing: outputs may alias any inputs of the same type, unless stated.
 * Timing: constant time (no branches or memory accesses that depend on values) unless the
 * name ends in _var. The multiplication kernel (portable C or x86-64 MULX/ADX) is chosen
 * once, from CPUID; MULRED_FIELD_KERNEL=portable|mulx in the environment overrides it.
 *
 * The same functions exist for each field F in {fp381, fr381, fp254, fr254}, on T = mulred_F
 * with N limbs and NB = 8N bytes (declared below by MULRED_FIELD_DECLARE):
 *
 *   void mulred_F_set_zero(T *r);                       r = 0
 *   void mulred_F_set_one(T *r);                        r = 1
 *   void mulred_F_set_u64(T *r, uint64_t v);            r = v mod p
 *   bool mulred_F_is_zero(const T *a);
 *   bool mulred_F_is_one(const T *a);
 *   bool mulred_F_equal(const T *a, const T *b);
 *   void mulred_F_add(T *r, const T *a, const T *b);    r = a + b
 *   void mulred_F_sub(T *r, const T *a, const T *b);    r = a − b
 *   void mulred_F_neg(T *r, const T *a);                r = −a
 *   void mulred_F_mul(T *r, const T *a, const T *b);    r = a·b
 *   void mulred_F_sqr(T *r, const T *a);                r = a²
 *   void mulred_F_pow(T *r, const T *a, const uint64_t e[N]);
 *        r = a^e, e an N-limb little-endian integer (any value; a^0 = 1, also for a = 0).
 *        Constant time in a and e (fixed 4-bit windows).
 *   void mulred_F_inv(T *r, const T *a);
 *        r = a^(p−2): 1/a, and 0 for a = 0. Constant time (Fermat).
 *   void mulred_F_inv_var(T *r, const T *a);
 *        The same value, variable time (Bernstein–Yang divsteps with trailing-zero skipping,
 *        62 at a time), several times faster.
 *   size_t mulred_F_batch_inv_scratch_size(size_t n);   bytes of scratch for n elements
 *   void mulred_F_batch_inv_var(T *r, const T *a, size_t n, void *scratch);
 *        r[i] = 1/a[i] for i < n with one inversion and 3(n−1) multiplications (Montgomery's
 *        trick); a zero a[i] gives r[i] = 0 and does not disturb the others. r may equal a
 *        (in place) but must not otherwise overlap it. scratch: the size above (any
 *        alignment of 8), caller-owned. Variable time.
 *   bool mulred_F_from_bytes(T *r, const uint8_t in[NB]);
 *        in: the big-endian canonical encoding of an integer. Returns false and sets r = 0
 *        when the integer is >= p (non-canonical); true otherwise.
 *   void mulred_F_to_bytes(uint8_t out[NB], const T *a); the canonical big-endian encoding.
 *   bool mulred_F_from_limbs(T *r, const uint64_t in[N]);
 *        in: an integer as N little-endian 64-bit limbs (not Montgomery). false and r = 0
 *        when >= p.
 *   void mulred_F_to_limbs(uint64_t out[N], const T *a); the integer a in [0, p).
 *
 * Only for the base fields fp381 and fp254 (p ≡ 3 mod 4):
 *   bool mulred_F_sqrt(T *r, const T *a);
 *        If a is a square: r = a^((p+1)/4), one of its two square roots, and true. Otherwise
 *        false (r is then a^((p+1)/4), not a root). Constant time.
 *   bool mulred_F_is_square(const T *a);   Euler's criterion: true for 0 and the squares.
 *   bool mulred_F_is_odd(const T *a);      the canonical integer a is odd (the "sign" of a
 *        coordinate in some encodings; ZCash uses lexicographic order, see curve.h). */
#ifndef MULRED_FIELD_H
#define MULRED_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t l[6];
} mulred_fp381;
typedef struct {
    uint64_t l[4];
} mulred_fr381;
typedef struct {
    uint64_t l[4];
} mulred_fp254;
typedef struct {
    uint64_t l[4];
} mulred_fr254;

#define MULRED_FP381_BYTES 48
#define MULRED_FR381_BYTES 32
#define MULRED_FP254_BYTES 32
#define MULRED_FR254_BYTES 32

#define MULRED_FIELD_DECLARE(F, N, NB)                                                             \
    void mulred_##F##_set_zero(mulred_##F *r);                                                     \
    void mulred_##F##_set_one(mulred_##F *r);                                                      \
    void mulred_##F##_set_u64(mulred_##F *r, uint64_t v);                                          \
    bool mulred_##F##_is_zero(const mulred_##F *a);                                                \
    bool mulred_##F##_is_one(const mulred_##F *a);                                                 \
    bool mulred_##F##_equal(const mulred_##F *a, const mulred_##F *b);                             \
    void mulred_##F##_add(mulred_##F *r, const mulred_##F *a, const mulred_##F *b);                \
    void mulred_##F##_sub(mulred_##F *r, const mulred_##F *a, const mulred_##F *b);                \
    void mulred_##F##_neg(mulred_##F *r, const mulred_##F *a);                                     \
    void mulred_##F##_mul(mulred_##F *r, const mulred_##F *a, const mulred_##F *b);                \
    void mulred_##F##_sqr(mulred_##F *r, const mulred_##F *a);                                     \
    void mulred_##F##_pow(mulred_##F *r, const mulred_##F *a, const uint64_t e[N]);                \
    void mulred_##F##_inv(mulred_##F *r, const mulred_##F *a);                                     \
    void mulred_##F##_inv_var(mulred_##F *r, const mulred_##F *a);                                 \
    size_t mulred_##F##_batch_inv_scratch_size(size_t n);                                          \
    void mulred_##F##_batch_inv_var(mulred_##F *r, const mulred_##F *a, size_t n, void *scratch);  \
    bool mulred_##F##_from_bytes(mulred_##F *r, const uint8_t in[NB]);                             \
    void mulred_##F##_to_bytes(uint8_t out[NB], const mulred_##F *a);                              \
    bool mulred_##F##_from_limbs(mulred_##F *r, const uint64_t in[N]);                             \
    void mulred_##F##_to_limbs(uint64_t out[N], const mulred_##F *a);

MULRED_FIELD_DECLARE(fp381, 6, 48)
MULRED_FIELD_DECLARE(fr381, 4, 32)
MULRED_FIELD_DECLARE(fp254, 4, 32)
MULRED_FIELD_DECLARE(fr254, 4, 32)

bool mulred_fp381_sqrt(mulred_fp381 *r, const mulred_fp381 *a);
bool mulred_fp381_is_square(const mulred_fp381 *a);
bool mulred_fp381_is_odd(const mulred_fp381 *a);
bool mulred_fp254_sqrt(mulred_fp254 *r, const mulred_fp254 *a);
bool mulred_fp254_is_square(const mulred_fp254 *a);
bool mulred_fp254_is_odd(const mulred_fp254 *a);

/* The multiplication kernel in use: "portable" or "mulx". */
const char *mulred_field_kernel_name(void);
/* Chooses the kernel ("portable", "mulx"), for tests and benchmarks; returns -1 (and changes
 * nothing) when the name is unknown or the CPU lacks the instructions. Call it only while no
 * other thread is computing with the fields. */
int mulred_field_kernel_select(const char *name);

#ifdef __cplusplus
}
#endif
#endif

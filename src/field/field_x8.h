/* Internal (field layer): 8-lane batches of field elements for AVX-512 IFMA.
 *
 * Fields: Fp of BLS12-381 (p < 2^381, type mulred_fp381x8) and Fp of BN254 (p < 2^254, type
 * mulred_fp254x8). One value of a batch type holds 8 independent field elements ("lanes").
 *
 * Representation ("x8 form"): limb-major, radix 2^52. Limb i of lane j is l[i][j]; lane j holds
 * the integer  w_j = sum_i l[i][j] * 2^(52 i)  over N limbs (N = 8 for fp381x8, 5 for fp254x8),
 * which is the Montgomery form of the element x_j with R52 = 2^(52 N): w_j = x_j * R52 (mod p)
 * (R52 = 2^416 for BLS12-381, 2^260 for BN254). So one 512-bit register holds limb i of all 8
 * lanes, and an 8-lane multiply is the schoolbook of one element with every operation a vector.
 *
 * Invariant of every value that a function here takes or returns, in every lane:
 *   every limb < 2^52 ("normalised") and  0 <= w_j < 2p  ("weakly reduced": the element has
 *   two possible representatives, w and w + p; compare elements with is_zero_mask of the
 *   difference, or after store, which reduces fully).
 * A function given a value outside this invariant returns garbage (nothing is checked on the
 * hot path; the tests check that every output keeps the invariant).
 *
 * Scalar form (the form of the field layer's scalar kernels): Montgomery with R64 = 2^(64 n),
 * n = 6 words for BLS12-381 (R64 = 2^384) and n = 4 for BN254 (R64 = 2^256), fully reduced,
 * little-endian 64-bit words in a plain uint64_t[n]. load and store convert between the two:
 * w = u * 2^D (mod p) with D = 52 N - 64 n (32 for BLS12-381, 4 for BN254), so a domain change
 * is a multiplication by 2^D (load: a shift and a one-digit quotient estimate, q*p subtracted
 * with 2N IFMAs) or by 2^-D (store: one D-bit Montgomery reduction step, 2N IFMAs, then one
 * conditional subtraction of p), and the radix change is shifts plus an 8x8 transpose.
 *
 * Cost (instruction counts for 8 elements): a multiply is 4N^2 + N IFMAs (264 for N = 8, 105
 * for N = 5), a square 3N^2 + 2N; load and store about 2N IFMAs, 24 shuffles and ~8N shifts.
 * docs/kernels.md has per-element times of every function here against the scalar kernels
 * (`mulred bench fieldx8`); they move with the CPU generation.
 *
 * All functions here:
 *   - require AVX512F, AVX512VL and AVX512IFMA: call them only when mulred_fieldx8_have_ifma()
 *     returns 1 (they are compiled with function-level target attributes; elsewhere they fault);
 *   - are constant-time with respect to the data (no data-dependent branches or addresses),
 *     except the functions whose names end in _var;
 *   - allocate nothing; outputs may alias inputs (r == a, r == b, r == a == b) unless stated;
 *   - accept any memory alignment (64 bytes, the types' alignment, is the fast case).
 * Lanes are independent: a lane's result depends only on the same lane of the inputs.
 */
#ifndef MULRED_FIELD_X8_H
#define MULRED_FIELD_X8_H

#include <stddef.h>
#include <stdint.h>

/* 8 elements of Fp(BLS12-381): 8 limbs of 52 bits, limb-major. */
typedef struct {
    _Alignas(64) uint64_t l[8][8];
} mulred_fp381x8;

/* 8 elements of Fp(BN254): 5 limbs of 52 bits, limb-major. */
typedef struct {
    _Alignas(64) uint64_t l[5][8];
} mulred_fp254x8;

/* 1 when the CPU has AVX512F, AVX512VL and AVX512IFMA (cached CPUID probe), else 0. */
int mulred_fieldx8_have_ifma(void);

/* ---- constants ---------------------------------------------------------------------------- */

/* Per-field constants, all derived from p (the only literal) when the library is loaded.
 * Radix-2^52 arrays use N limbs (the rest zero); 64-bit arrays use n words. Exposed so that
 * the tests can derive each one independently with GMP and compare. */
typedef struct {
    int limbs52;        /* N: 8 or 5 */
    int words64;        /* n: 6 or 4 */
    int shift_d;        /* D = 52 N - 64 n: x8 form = scalar form * 2^D (mod p) */
    int top_shift;      /* S: load's quotient estimate reads u >> S */
    int mu_shift;       /* K: q = floor((u >> S) * mu / 2^K) */
    uint64_t p64[8];    /* p, 64-bit words */
    uint64_t p[8];      /* p, radix 2^52 */
    uint64_t p2[8];     /* 2p, radix 2^52 */
    uint64_t pd[8];     /* p * 2^D, radix 2^52 (< 2^(52N)) */
    uint64_t negp[8];   /* 2^(52N) - p, radix 2^52 */
    uint64_t one[8];    /* R52 mod p, radix 2^52: the element 1 in x8 form */
    uint64_t r3[8];     /* R52^3 mod p, radix 2^52 (inv_var: integer inverse -> x8 form) */
    uint64_t n0;        /* -p^-1 mod 2^52 */
    uint64_t mu;        /* floor(2^(D+S+K) / p) < 2^52 */
    uint64_t pm2_64[8]; /* p - 2, 64-bit words (the Fermat exponent) */
} mulred_fieldx8_consts;

extern const mulred_fieldx8_consts *const mulred_fp381x8_consts;
extern const mulred_fieldx8_consts *const mulred_fp254x8_consts;

/* ---- Fp of BLS12-381, 8 lanes --------------------------------------------------------------- */

/* r = a * b (Montgomery: a * b / R52 mod p). Inputs and output in [0, 2p). */
void mulred_fp381x8_mul(mulred_fp381x8 *r, const mulred_fp381x8 *a, const mulred_fp381x8 *b);
/* r = a^2 (Montgomery), same value as mul(r, a, a), fewer IFMAs. */
void mulred_fp381x8_sqr(mulred_fp381x8 *r, const mulred_fp381x8 *a);
/* r = a + b, a - b, -a (mod p). Inputs and output in [0, 2p). */
void mulred_fp381x8_add(mulred_fp381x8 *r, const mulred_fp381x8 *a, const mulred_fp381x8 *b);
void mulred_fp381x8_sub(mulred_fp381x8 *r, const mulred_fp381x8 *a, const mulred_fp381x8 *b);
void mulred_fp381x8_neg(mulred_fp381x8 *r, const mulred_fp381x8 *a);
/* Bit j set when lane j of a is the element 0 (w_j == 0 or w_j == p). a in [0, 2p). */
unsigned mulred_fp381x8_is_zero_mask(const mulred_fp381x8 *a);
/* Every lane = the element 1 (R52 mod p). */
void mulred_fp381x8_set_one(mulred_fp381x8 *r);
/* r = a with the lanes whose bit is set in mask replaced by the same lane of b. */
void mulred_fp381x8_select(mulred_fp381x8 *r, const mulred_fp381x8 *a, const mulred_fp381x8 *b,
                           unsigned mask);

/* Lane j of r = the element whose scalar form is src[j][0..5] (Montgomery R64 = 2^384, 6
 * little-endian words). Any src value < 2^384 is accepted (values >= p are taken mod p).
 * Output in [0, 2p). The 8 pointers may repeat; r must not overlap them. */
void mulred_fp381x8_load(mulred_fp381x8 *r, const uint64_t *const src[8]);
/* dst[j][0..5] = scalar form of lane j of a (Montgomery R64 = 2^384), fully reduced (< p).
 * a in [0, 2p). The 8 destinations must not overlap each other or a. */
void mulred_fp381x8_store(uint64_t *const dst[8], const mulred_fp381x8 *a);

/* r = a^-1 per lane (Fermat: a^(p-2), 4-bit fixed windows: 380 squarings and 105 multiplies,
 * 14 of them for the table); a lane holding 0 gives 0. Inputs and output in [0, 2p). */
void mulred_fp381x8_inv(mulred_fp381x8 *r, const mulred_fp381x8 *a);

/* The same, variable-time: the 8 lanes are combined by prefix and suffix products across lanes
 * and their product is inverted once with GMP's extended gcd (mpn_gcdext; no heap allocation
 * at this size): 9 multiplies plus one gcd, about 15x cheaper than inv. Time depends on a. */
void mulred_fp381x8_inv_var(mulred_fp381x8 *r, const mulred_fp381x8 *a);

/* Batch inversion, 8 independent Montgomery-trick chains (lane j of a[0..n-1] is chain j):
 * r[i] = a[i]^-1 per lane, with a lane holding 0 giving 0 and leaving the rest of its chain
 * unaffected. Cost: 3(n-1) multiplies + one inversion of the 8 chain products. Inputs and
 * outputs in [0, 2p); r may be a (in place) but must not otherwise overlap a; scratch holds
 * mulred_fp381x8_batch_inv_scratch_size(n) bytes (any alignment, 64 is the fast case), not
 * overlapping r or a. n may be 0: nothing is written (begin gives total = 1).
 * The two halves are exposed for callers that invert the 8 chain products their own way
 * (e.g. store them, combine the 8 into one scalar inversion, load the results):
 *   begin:  total = product of the non-zero a[i] per lane (1 where all are 0); fills scratch.
 *   finish: given inv_total = total^-1, writes r. a and scratch as passed to begin. */
size_t mulred_fp381x8_batch_inv_scratch_size(size_t n);
void mulred_fp381x8_batch_inv(mulred_fp381x8 *r, const mulred_fp381x8 *a, size_t n, void *scratch);
/* The same with inv_var for the chain products: variable-time; saves most of an inv. */
void mulred_fp381x8_batch_inv_var(mulred_fp381x8 *r, const mulred_fp381x8 *a, size_t n,
                                  void *scratch);
void mulred_fp381x8_batch_inv_begin(mulred_fp381x8 *total, const mulred_fp381x8 *a, size_t n,
                                    void *scratch);
void mulred_fp381x8_batch_inv_finish(mulred_fp381x8 *r, const mulred_fp381x8 *a, size_t n,
                                     const void *scratch, const mulred_fp381x8 *inv_total);

/* ---- Fp of BN254, 8 lanes: the same functions and contracts ---------------------------------- */
/* Scalar form: Montgomery R64 = 2^256, 4 little-endian words; load accepts any value < 2^256.
 * inv: 252 squarings and 73 multiplies. */

void mulred_fp254x8_mul(mulred_fp254x8 *r, const mulred_fp254x8 *a, const mulred_fp254x8 *b);
void mulred_fp254x8_sqr(mulred_fp254x8 *r, const mulred_fp254x8 *a);
void mulred_fp254x8_add(mulred_fp254x8 *r, const mulred_fp254x8 *a, const mulred_fp254x8 *b);
void mulred_fp254x8_sub(mulred_fp254x8 *r, const mulred_fp254x8 *a, const mulred_fp254x8 *b);
void mulred_fp254x8_neg(mulred_fp254x8 *r, const mulred_fp254x8 *a);
unsigned mulred_fp254x8_is_zero_mask(const mulred_fp254x8 *a);
void mulred_fp254x8_set_one(mulred_fp254x8 *r);
void mulred_fp254x8_select(mulred_fp254x8 *r, const mulred_fp254x8 *a, const mulred_fp254x8 *b,
                           unsigned mask);
void mulred_fp254x8_load(mulred_fp254x8 *r, const uint64_t *const src[8]);
void mulred_fp254x8_store(uint64_t *const dst[8], const mulred_fp254x8 *a);
void mulred_fp254x8_inv(mulred_fp254x8 *r, const mulred_fp254x8 *a);
void mulred_fp254x8_inv_var(mulred_fp254x8 *r, const mulred_fp254x8 *a);
size_t mulred_fp254x8_batch_inv_scratch_size(size_t n);
void mulred_fp254x8_batch_inv(mulred_fp254x8 *r, const mulred_fp254x8 *a, size_t n, void *scratch);
void mulred_fp254x8_batch_inv_var(mulred_fp254x8 *r, const mulred_fp254x8 *a, size_t n,
                                  void *scratch);
void mulred_fp254x8_batch_inv_begin(mulred_fp254x8 *total, const mulred_fp254x8 *a, size_t n,
                                    void *scratch);
void mulred_fp254x8_batch_inv_finish(mulred_fp254x8 *r, const mulred_fp254x8 *a, size_t n,
                                     const void *scratch, const mulred_fp254x8 *inv_total);

/* ---- Fp2 = Fp[u]/(u^2 + 1) of both curves, 8 lanes ------------------------------------------- */

/* 8 elements c0 + c1 u of Fp2: the two coefficients as 8-lane base batches (x8 form each, same
 * invariant: every limb normalised, each coefficient in [0, 2p)). */
typedef struct {
    mulred_fp381x8 c0, c1;
} mulred_fp2_381x8;
typedef struct {
    mulred_fp254x8 c0, c1;
} mulred_fp2_254x8;

/* The same contracts as the base functions above (IFMA only, outputs may alias inputs, lanes
 * independent), lane by lane over Fp2:
 *   mul      Karatsuba: the three products a0 b0, a1 b1, (a0 + a1)(b0 + b1) unreduced, combined
 *            limb-wise (a multiple of p keeps c0 non-negative) and two Montgomery reductions:
 *            3 products + 2 reductions instead of 3 full multiplies
 *   sqr      complex squaring: (a0 + a1)(a0 - a1) and (2 a0) a1, two multiplies
 *   mul_base r = a b for b in Fp (8 lanes of the base field): two multiplies
 *   conj     c0 - c1 u (the Frobenius map)
 *   inv_var  through the norm: 1/a = conj(a) / (c0^2 + c1^2), one 8-lane base inv_var; a lane
 *            holding 0 gives 0; variable-time
 *   is_zero_mask  bit j set when lane j is 0 (both coefficients)
 *   load / store  lane j from / to the scalar Fp2 element at src[j] / dst[j]: c0 then c1, each
 *            in the base field's scalar form (2 x 6 words for BLS12-381, 2 x 4 for BN254) */
void mulred_fp2_381x8_mul(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a,
                          const mulred_fp2_381x8 *b);
void mulred_fp2_381x8_sqr(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a);
void mulred_fp2_381x8_mul_base(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a,
                               const mulred_fp381x8 *b);
void mulred_fp2_381x8_add(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a,
                          const mulred_fp2_381x8 *b);
void mulred_fp2_381x8_sub(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a,
                          const mulred_fp2_381x8 *b);
void mulred_fp2_381x8_neg(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a);
void mulred_fp2_381x8_conj(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a);
unsigned mulred_fp2_381x8_is_zero_mask(const mulred_fp2_381x8 *a);
void mulred_fp2_381x8_set_one(mulred_fp2_381x8 *r);
void mulred_fp2_381x8_select(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a,
                             const mulred_fp2_381x8 *b, unsigned mask);
void mulred_fp2_381x8_load(mulred_fp2_381x8 *r, const uint64_t *const src[8]);
void mulred_fp2_381x8_store(uint64_t *const dst[8], const mulred_fp2_381x8 *a);
void mulred_fp2_381x8_inv_var(mulred_fp2_381x8 *r, const mulred_fp2_381x8 *a);

void mulred_fp2_254x8_mul(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a,
                          const mulred_fp2_254x8 *b);
void mulred_fp2_254x8_sqr(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a);
void mulred_fp2_254x8_mul_base(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a,
                               const mulred_fp254x8 *b);
void mulred_fp2_254x8_add(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a,
                          const mulred_fp2_254x8 *b);
void mulred_fp2_254x8_sub(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a,
                          const mulred_fp2_254x8 *b);
void mulred_fp2_254x8_neg(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a);
void mulred_fp2_254x8_conj(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a);
unsigned mulred_fp2_254x8_is_zero_mask(const mulred_fp2_254x8 *a);
void mulred_fp2_254x8_set_one(mulred_fp2_254x8 *r);
void mulred_fp2_254x8_select(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a,
                             const mulred_fp2_254x8 *b, unsigned mask);
void mulred_fp2_254x8_load(mulred_fp2_254x8 *r, const uint64_t *const src[8]);
void mulred_fp2_254x8_store(uint64_t *const dst[8], const mulred_fp2_254x8 *a);
void mulred_fp2_254x8_inv_var(mulred_fp2_254x8 *r, const mulred_fp2_254x8 *a);

#endif

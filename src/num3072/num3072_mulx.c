/* MULX/ADCX/ADOX kernels for products mod p = 2^3072 - 1103717 (MuHash3072).
 *
 * Basecase (operand scanning with two carry chains, ADCX and ADOX): an 8-limb block of a
 * against all of b, the 9-limb running window in r8..r15 + one register, one store per row of
 * 8 products (docs/kernels.md has its cycles per product).
 * On top of it: one level of subtractive Karatsuba (|a0-a1|*|b0-b1| with a sign, so no carry
 * limbs): 3 x 24x24. Slower than it, and so not used: the plain 48x48 schoolbook, a second
 * Karatsuba level over a 12x12 row-wise basecase (the row-wise basecase takes more cycles per
 * product), and a Karatsuba squaring (three half-size squares; it needs a triangle basecase to
 * beat mul_mulx(r, a, a)).
 *
 * Reduction (fused): 2^3072 == C (mod p), C = 1103717, so H*2^3072 + L == L + H*C; the
 * 49-word result folds its top word once more, and a final carry out of 2^3072 adds C again.
 *
 * VARIABLE-TIME: Karatsuba compares the halves (branches on data) and the final carry fix-up
 * is a data-dependent loop. Fine for MuHash (public data); not for secrets.
 */
#include "num3072/num3072_kernels.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "util/util.h"

#define MULX_TARGET __attribute__((target("bmi2,adx")))
#define C_P         ((uint64_t)MULRED_NUM3072_C)

typedef unsigned __int128 u128;

int mulred_num3072_kernels_have_mulx(void)
{
    const mulred_cpu_features *f = mulred_cpu(); /* the project's cached CPUID probe */
    return f->bmi2 && f->adx;
}

/* Register-window basecase: for an 8-limb block a8 of a, the running window T0..T7 (r8..r15)
 * of the block's partial product stays in registers; each row (one limb b[i]) is 8 x (mulx,
 * adox lo -> Tj, adcx hi -> Tj+1), plus one adcx that brings in the sum t[k] left by earlier
 * blocks and one store of the finished limb T0. t[0..n+8) relative to the block must hold the
 * earlier blocks' sums; the first block has no such sums (every limb of t is written before it
 * is read, so t needs no clearing). bend is a memory operand: with a frame pointer (sanitizer
 * builds) only 14 general registers are free and the asm needs all of them. */
static const uint64_t mulx_zero64 = 0;

/* ASan would move bend into its instrumented frame, which needs one more base register than
 * the asm leaves free; ASan does not look inside inline asm anyway. */
#define NO_ASAN __attribute__((no_sanitize_address))

#define DEFINE_MUL_BLOCK8(NAME, ADD_T)                                                             \
    static MULX_TARGET NO_ASAN void mul_block8_##NAME(uint64_t *t, const uint64_t *a8,             \
                                                      const uint64_t *b, const uint64_t *bend)     \
    {                                                                                              \
        uint64_t lo, hi;                                                                           \
        __asm__ volatile("xorl %%r8d, %%r8d\n\t"                                                   \
                         "xorl %%r9d, %%r9d\n\t"                                                   \
                         "xorl %%r10d, %%r10d\n\t"                                                 \
                         "xorl %%r11d, %%r11d\n\t"                                                 \
                         "xorl %%r12d, %%r12d\n\t"                                                 \
                         "xorl %%r13d, %%r13d\n\t"                                                 \
                         "xorl %%r14d, %%r14d\n\t"                                                 \
                         "xorl %%r15d, %%r15d\n\t"                                                 \
                         "1:\n\t"                                                                  \
                         "movq (%[b]), %%rdx\n\t"                                                  \
                         "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */                               \
                         ADD_T "mulx 0(%[a]), %[lo], %[hi]\n\t"                                    \
                         "adox %[lo], %%r8\n\t"                                                    \
                         "adcx %[hi], %%r9\n\t"                                                    \
                         "mulx 8(%[a]), %[lo], %[hi]\n\t"                                          \
                         "adox %[lo], %%r9\n\t"                                                    \
                         "adcx %[hi], %%r10\n\t"                                                   \
                         "mulx 16(%[a]), %[lo], %[hi]\n\t"                                         \
                         "adox %[lo], %%r10\n\t"                                                   \
                         "adcx %[hi], %%r11\n\t"                                                   \
                         "mulx 24(%[a]), %[lo], %[hi]\n\t"                                         \
                         "adox %[lo], %%r11\n\t"                                                   \
                         "adcx %[hi], %%r12\n\t"                                                   \
                         "mulx 32(%[a]), %[lo], %[hi]\n\t"                                         \
                         "adox %[lo], %%r12\n\t"                                                   \
                         "adcx %[hi], %%r13\n\t"                                                   \
                         "mulx 40(%[a]), %[lo], %[hi]\n\t"                                         \
                         "adox %[lo], %%r13\n\t"                                                   \
                         "adcx %[hi], %%r14\n\t"                                                   \
                         "mulx 48(%[a]), %[lo], %[hi]\n\t"                                         \
                         "adox %[lo], %%r14\n\t"                                                   \
                         "adcx %[hi], %%r15\n\t"                                                   \
                         "mulx 56(%[a]), %[lo], %[hi]\n\t"                                         \
                         "adox %[lo], %%r15\n\t"                                                   \
                         "adcx %[zero], %[hi]\n\t"                                                 \
                         "adox %[zero], %[hi]\n\t"                                                 \
                         "movq %%r8, (%[t])\n\t"                                                   \
                         "movq %%r9, %%r8\n\t"                                                     \
                         "movq %%r10, %%r9\n\t"                                                    \
                         "movq %%r11, %%r10\n\t"                                                   \
                         "movq %%r12, %%r11\n\t"                                                   \
                         "movq %%r13, %%r12\n\t"                                                   \
                         "movq %%r14, %%r13\n\t"                                                   \
                         "movq %%r15, %%r14\n\t"                                                   \
                         "movq %[hi], %%r15\n\t"                                                   \
                         "leaq 8(%[t]), %[t]\n\t"                                                  \
                         "leaq 8(%[b]), %[b]\n\t"                                                  \
                         "cmpq %[bend], %[b]\n\t"                                                  \
                         "jb 1b\n\t"                                                               \
                         "movq %%r8, 0(%[t])\n\t"                                                  \
                         "movq %%r9, 8(%[t])\n\t"                                                  \
                         "movq %%r10, 16(%[t])\n\t"                                                \
                         "movq %%r11, 24(%[t])\n\t"                                                \
                         "movq %%r12, 32(%[t])\n\t"                                                \
                         "movq %%r13, 40(%[t])\n\t"                                                \
                         "movq %%r14, 48(%[t])\n\t"                                                \
                         "movq %%r15, 56(%[t])\n\t"                                                \
                         : [t] "+r"(t), [b] "+r"(b), [lo] "=&r"(lo), [hi] "=&r"(hi)                \
                         : [a] "r"(a8), [bend] "m"(bend), [zero] "m"(mulx_zero64)                  \
                         : "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc",      \
                           "memory");                                                              \
    }

/* first block: nothing to add from t; later blocks: add the earlier blocks' sums */
DEFINE_MUL_BLOCK8(first, "")
DEFINE_MUL_BLOCK8(acc, "adcx (%[t]), %%r8\n\t")

/* t[0..2N) = a[0..N) * b[0..N), N a multiple of 8 */
#define DEFINE_MUL_BLOCKED(N)                                                                      \
    static MULX_TARGET void mul_blocked_##N(uint64_t *t, const uint64_t *a, const uint64_t *b)     \
    {                                                                                              \
        mul_block8_first(t, a, b, b + (N));                                                        \
        for (int jb = 1; jb < (N) / 8; jb++) mul_block8_acc(t + 8 * jb, a + 8 * jb, b, b + (N));   \
    }
DEFINE_MUL_BLOCKED(24)

/* ---- multi-word helpers (plain C; GCC emits adc/sbb chains) ---------------------------- */

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* n is a compile-time constant at every call site: the loops unroll into one adc/sbb chain */
ALWAYS_INLINE uint64_t add_n(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    unsigned char c = 0;
#pragma GCC unroll 48
    for (int i = 0; i < n; i++) {
        unsigned long long s;
        c = _addcarry_u64(c, a[i], b[i], &s);
        r[i] = s;
    }
    return c;
}

ALWAYS_INLINE uint64_t sub_n(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    unsigned char c = 0;
#pragma GCC unroll 48
    for (int i = 0; i < n; i++) {
        unsigned long long s;
        c = _subborrow_u64(c, a[i], b[i], &s);
        r[i] = s;
    }
    return c;
}

/* r[0..n) += c (c small); returns the carry out */
static inline uint64_t add_1(uint64_t *r, uint64_t c, int n)
{
    for (int i = 0; i < n && c; i++) {
        r[i] += c;
        c = r[i] < c;
    }
    return c;
}

/* d = |x - y| (n words); returns 1 if x < y. Variable-time (compares from the top). */
ALWAYS_INLINE int absdiff(uint64_t *d, const uint64_t *x, const uint64_t *y, int n)
{
    int i = n - 1;
    while (i >= 0 && x[i] == y[i]) i--;
    if (i >= 0 && x[i] < y[i]) {
        sub_n(d, y, x, n);
        return 1;
    }
    sub_n(d, x, y, n);
    return 0;
}

/* r[0..2n) holds z0 = a0*b0 (low n words) and z2 = a1*b1 (high n words); m = |a0-a1|*|b0-b1|
 * (n words), neg = sign of (a0-a1)(b0-b1). Adds the middle term z0 + z2 -/+ m at r[n/2]. */
ALWAYS_INLINE void kara_combine(uint64_t *r, const uint64_t *m, int neg, int n)
{
    uint64_t t[48];
    const int h = n / 2;
    uint64_t c = add_n(t, r, r + n, n);
    if (neg)
        c += add_n(t, t, m, n);
    else
        c -= sub_n(t, t, m, n);
    c += add_n(r + h, r + h, t, n);
    add_1(r + h + n, c, n - h);
}

/* ---- multiplication --------------------------------------------------------------------- */

/* t[0..96) = a*b: one Karatsuba level over the 24x24 blocked basecase */
static MULX_TARGET void kara_48(uint64_t *t, const uint64_t *a, const uint64_t *b)
{
    uint64_t da[24], db[24], m[48];
    int neg = absdiff(da, a, a + 24, 24) ^ absdiff(db, b, b + 24, 24);
    mul_blocked_24(t, a, b);
    mul_blocked_24(t + 48, a + 24, b + 24);
    mul_blocked_24(m, da, db);
    kara_combine(t, m, neg, 48);
}

/* r[0..48) = t[0..96) mod p, up to the final representative: result < 2^3072.
 * First fold: w = L + H*C as one MULX row (ADCX chains the high words, ADOX adds L). */
static MULX_TARGET void fold96(uint64_t r[48], const uint64_t t[96])
{
    uint64_t w[48];
    uint64_t top;
    __asm__ volatile("movl %[c], %%edx\n\t"
                     "xorl %%eax, %%eax\n\t"
                     "xorl %%r11d, %%r11d\n\t"
                     ".set MULRED_J, 0\n\t"
                     ".rept 24\n\t"
                     "mulx 384+MULRED_J*8(%[t]), %%r8, %%r9\n\t"
                     "adcx %%r11, %%r8\n\t"
                     "adox MULRED_J*8(%[t]), %%r8\n\t"
                     "movq %%r8, MULRED_J*8(%[w])\n\t"
                     "mulx 384+MULRED_J*8+8(%[t]), %%r10, %%r11\n\t"
                     "adcx %%r9, %%r10\n\t"
                     "adox MULRED_J*8+8(%[t]), %%r10\n\t"
                     "movq %%r10, MULRED_J*8+8(%[w])\n\t"
                     ".set MULRED_J, MULRED_J+2\n\t"
                     ".endr\n\t"
                     "adcx %%rax, %%r11\n\t"
                     "adox %%rax, %%r11\n\t"
                     "movq %%r11, %[top]\n\t"
                     : [top] "=r"(top)
                     : [t] "r"(t), [w] "r"(w), [c] "i"(MULRED_NUM3072_C)
                     : "rax", "rdx", "r8", "r9", "r10", "r11", "cc", "memory");
    /* value = w + top*2^3072 == w + top*C, top < 2^21 */
    u128 x = (u128)top * C_P + w[0];
    w[0] = (uint64_t)x;
    uint64_t c = (uint64_t)(x >> 64);
    c = add_1(w + 1, c, 47);
    while (c) { /* wrapped past 2^3072: add C again (the wrapped value is small) */
        c = add_1(w, C_P, 48);
    }
    memcpy(r, w, sizeof w);
}

MULX_TARGET void mulred_num3072_mul_mulx(uint64_t r[48], const uint64_t a[48], const uint64_t b[48])
{
    uint64_t t[96];
    kara_48(t, a, b);
    fold96(r, t);
}

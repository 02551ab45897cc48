/* MULX/ADCX/ADOX Montgomery multiplication for 4- and 6-limb moduli (x86-64, BMI2 + ADX).
 *
 * Operand scanning, the whole product in registers: the accumulator t is a window of n + 1
 * registers. Round i:
 *   1. t += a·b[i]: n MULX with two carry chains (ADCX adds the low halves into t[j], ADOX the
 *      high halves into t[j+1]); t[n] starts at 0 and takes both final carries.
 *   2. m = t[0]·n0 (IMUL), t += m·p the same way: t[0] becomes 0 and the window slides down one
 *      register (the macros rotate the register names), the zeroed register becoming the next
 *      round's t[n].
 * No carry leaves t[n]: with a, b < p and t < 2p, t + a·b[i] + m·p < 2^64·2p <= 2^(64(n+1))
 * (p < 2^(64n−1)), the bound proved in field_portable.c. 2n² MULX per product; one conditional
 * subtraction of p (SUB/SBB then CMOV) at the end. Constant time.
 *
 * Registers: n + 1 window, lo, hi, rdx, the pointers a, b, p = n + 7 (13 for n = 6). With a
 * frame pointer (sanitizer builds) 14 are free, so n0 is a memory operand; a and b are reused
 * as scratch for the final subtraction. The result leaves the asm in registers and C stores it,
 * so r may alias a or b. */
#include <stdint.h>

#include "field/field_kernels.h"
#include "util/util.h"

int mulred_field_have_mulx(void)
{
    const mulred_cpu_features *f = mulred_cpu();
    return f->bmi2 && f->adx;
}

/* The assembly below is laid out one instruction per line, by hand. */
// clang-format off
#define OPND(x) "%[" #x "]"

/* t(T0..Tn) += a·b[i], Tn cleared first (xor also clears CF and OF). */
#define MULADD4(BOFF, T0, T1, T2, T3, T4)                                                          \
    "movq " #BOFF "(%[b]), %%rdx\n\t"                                                              \
    "xorl %k[" #T4 "], %k[" #T4 "]\n\t"                                                            \
    "mulxq 0(%[a]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T0) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T1) "\n\t"                                                                \
    "mulxq 8(%[a]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T1) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T2) "\n\t"                                                                \
    "mulxq 16(%[a]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T2) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T3) "\n\t"                                                                \
    "mulxq 24(%[a]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T3) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T4) "\n\t"                                                                \
    "adcq $0, " OPND(T4) "\n\t"

/* m = T0·n0; t += m·p; T0 becomes 0 (used as the zero for the last carry). */
#define REDUCE4(T0, T1, T2, T3, T4)                                                                \
    "movq " OPND(T0) ", %%rdx\n\t"                                                                 \
    "imulq %[n0], %%rdx\n\t"                                                                       \
    "xorl %k[lo], %k[lo]\n\t"                                                                      \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T0) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T1) "\n\t"                                                                \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T1) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T2) "\n\t"                                                                \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T2) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T3) "\n\t"                                                                \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T3) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T4) "\n\t"                                                                \
    "adcxq " OPND(T0) ", " OPND(T4) "\n\t"

#define ROUND4(BOFF, T0, T1, T2, T3, T4)                                                           \
    MULADD4(BOFF, T0, T1, T2, T3, T4) REDUCE4(T0, T1, T2, T3, T4)

void mulred_mont_mul4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                           const uint64_t p[4], uint64_t n0)
{
    uint64_t A, B, C, D, E, lo, hi;
    __asm__("xorl %k[A], %k[A]\n\t"
            "xorl %k[B], %k[B]\n\t"
            "xorl %k[C], %k[C]\n\t"
            "xorl %k[D], %k[D]\n\t"
            ROUND4(0, A, B, C, D, E)
            ROUND4(8, B, C, D, E, A)
            ROUND4(16, C, D, E, A, B)
            ROUND4(24, D, E, A, B, C)
            /* result (E, A, B, C); D is zero: subtract p into (rdx, lo, hi, D) */
            "movq %[E], %%rdx\n\t"
            "subq 0(%[p]), %%rdx\n\t"
            "movq %[A], %[lo]\n\t"
            "sbbq 8(%[p]), %[lo]\n\t"
            "movq %[B], %[hi]\n\t"
            "sbbq 16(%[p]), %[hi]\n\t"
            "movq %[C], %[D]\n\t"
            "sbbq 24(%[p]), %[D]\n\t"
            "cmovncq %%rdx, %[E]\n\t"
            "cmovncq %[lo], %[A]\n\t"
            "cmovncq %[hi], %[B]\n\t"
            "cmovncq %[D], %[C]\n\t"
            : [A] "=&r"(A), [B] "=&r"(B), [C] "=&r"(C), [D] "=&r"(D), [E] "=&r"(E),
              [lo] "=&r"(lo), [hi] "=&r"(hi)
            : [a] "r"(a), [b] "r"(b), [p] "r"(p), [n0] "m"(n0)
            : "rdx", "cc", "memory");
    r[0] = E;
    r[1] = A;
    r[2] = B;
    r[3] = C;
}

#define MULADD6(BOFF, T0, T1, T2, T3, T4, T5, T6)                                                  \
    "movq " #BOFF "(%[b]), %%rdx\n\t"                                                              \
    "xorl %k[" #T6 "], %k[" #T6 "]\n\t"                                                            \
    "mulxq 0(%[a]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T0) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T1) "\n\t"                                                                \
    "mulxq 8(%[a]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T1) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T2) "\n\t"                                                                \
    "mulxq 16(%[a]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T2) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T3) "\n\t"                                                                \
    "mulxq 24(%[a]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T3) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T4) "\n\t"                                                                \
    "mulxq 32(%[a]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T4) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T5) "\n\t"                                                                \
    "mulxq 40(%[a]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T5) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T6) "\n\t"                                                                \
    "adcq $0, " OPND(T6) "\n\t"

#define REDUCE6(T0, T1, T2, T3, T4, T5, T6)                                                        \
    "movq " OPND(T0) ", %%rdx\n\t"                                                                 \
    "imulq %[n0], %%rdx\n\t"                                                                       \
    "xorl %k[lo], %k[lo]\n\t"                                                                      \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T0) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T1) "\n\t"                                                                \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"                                                              \
    "adcxq %[lo], " OPND(T1) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T2) "\n\t"                                                                \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T2) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T3) "\n\t"                                                                \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T3) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T4) "\n\t"                                                                \
    "mulxq 32(%[p]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T4) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T5) "\n\t"                                                                \
    "mulxq 40(%[p]), %[lo], %[hi]\n\t"                                                             \
    "adcxq %[lo], " OPND(T5) "\n\t"                                                                \
    "adoxq %[hi], " OPND(T6) "\n\t"                                                                \
    "adcxq " OPND(T0) ", " OPND(T6) "\n\t"

#define ROUND6(BOFF, T0, T1, T2, T3, T4, T5, T6)                                                   \
    MULADD6(BOFF, T0, T1, T2, T3, T4, T5, T6) REDUCE6(T0, T1, T2, T3, T4, T5, T6)

/* ASan would want a register of its own for n0's frame slot; it does not look inside asm. */
__attribute__((no_sanitize_address)) void mulred_mont_mul6_mulx(uint64_t r[6], const uint64_t a[6],
                                                                const uint64_t b[6],
                                                                const uint64_t p[6], uint64_t n0)
{
    uint64_t A, B, C, D, E, F, G, lo, hi;
    const uint64_t *pa = a, *pb = b; /* clobbered by the final subtraction */
    __asm__("xorl %k[A], %k[A]\n\t"
            "xorl %k[B], %k[B]\n\t"
            "xorl %k[C], %k[C]\n\t"
            "xorl %k[D], %k[D]\n\t"
            "xorl %k[E], %k[E]\n\t"
            "xorl %k[F], %k[F]\n\t"
            ROUND6(0, A, B, C, D, E, F, G)
            ROUND6(8, B, C, D, E, F, G, A)
            ROUND6(16, C, D, E, F, G, A, B)
            ROUND6(24, D, E, F, G, A, B, C)
            ROUND6(32, E, F, G, A, B, C, D)
            ROUND6(40, F, G, A, B, C, D, E)
            /* result (G, A, B, C, D, E); F is zero: subtract p into (rdx, lo, hi, F, a, b) */
            "movq %[G], %%rdx\n\t"
            "subq 0(%[p]), %%rdx\n\t"
            "movq %[A], %[lo]\n\t"
            "sbbq 8(%[p]), %[lo]\n\t"
            "movq %[B], %[hi]\n\t"
            "sbbq 16(%[p]), %[hi]\n\t"
            "movq %[C], %[F]\n\t"
            "sbbq 24(%[p]), %[F]\n\t"
            "movq %[D], %[a]\n\t"
            "sbbq 32(%[p]), %[a]\n\t"
            "movq %[E], %[b]\n\t"
            "sbbq 40(%[p]), %[b]\n\t"
            "cmovncq %%rdx, %[G]\n\t"
            "cmovncq %[lo], %[A]\n\t"
            "cmovncq %[hi], %[B]\n\t"
            "cmovncq %[F], %[C]\n\t"
            "cmovncq %[a], %[D]\n\t"
            "cmovncq %[b], %[E]\n\t"
            : [A] "=&r"(A), [B] "=&r"(B), [C] "=&r"(C), [D] "=&r"(D), [E] "=&r"(E),
              [F] "=&r"(F), [G] "=&r"(G), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+r"(pa),
              [b] "+r"(pb)
            : [p] "r"(p), [n0] "m"(n0)
            : "rdx", "cc", "memory");
    r[0] = G;
    r[1] = A;
    r[2] = B;
    r[3] = C;
    r[4] = D;
    r[5] = E;
}

void mulred_mont_sqr4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0)
{
    mulred_mont_mul4_mulx(r, a, a, p, n0);
}

void mulred_mont_sqr6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0)
{
    mulred_mont_mul6_mulx(r, a, a, p, n0);
}
// clang-format on

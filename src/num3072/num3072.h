/* Internal interface of the num3072 layer: the multiply kernels behind mulred_num3072_mul and
 * the batched products of src/muhash, and how one of them is chosen. */
#ifndef MULRED_NUM3072_INTERNAL_H
#define MULRED_NUM3072_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/num3072.h"

/* A multiply kernel. Values are 48 64-bit limbs, any value in [0, 2^3072); results are in
 * [0, 2^3072) and congruent mod p (not necessarily below p). Variable-time. No allocation.
 *   mul:      r ≡ a·b. r may alias a and/or b.
 *   mul_many: acc ≡ acc·x[0]⋯x[n−1]; n may be 0; no x[j] may overlap acc (the x[j] may
 *             overlap each other). A kernel with a cheaper internal representation keeps acc
 *             in it from one factor to the next; NULL: a loop of mul.
 *   candidate: the one-time measurement at first use considers it (see num3072_kernel_active).
 */
typedef struct {
    const char *name;  /* "gmp", "mulx", "ifma", ... */
    const char *needs; /* the CPU features it requires, for messages */
    int (*available)(void);
    void (*mul)(uint64_t r[MULRED_NUM3072_LIMBS], const uint64_t a[MULRED_NUM3072_LIMBS],
                const uint64_t b[MULRED_NUM3072_LIMBS]);
    void (*mul_many)(uint64_t acc[MULRED_NUM3072_LIMBS], const uint64_t *const x[], size_t n);
    bool candidate;
} num3072_kernel;

/* The portable path: GMP mpn_mul_n / mpn_sqr, then fold the high half twice with ×C and one
 * conditional subtraction (output < p). */
void num3072_mul_gmp(uint64_t r[MULRED_NUM3072_LIMBS], const uint64_t a[MULRED_NUM3072_LIMBS],
                     const uint64_t b[MULRED_NUM3072_LIMBS]);

/* Every kernel compiled in, from the most portable to the preferred one, and a lookup by name
 * (NULL if unknown). */
const num3072_kernel *num3072_kernels(int *count);
const num3072_kernel *num3072_kernel_find(const char *name);

/* How the active kernel was chosen (once, at first use):
 *   "forced":   MULRED_KERNEL named an available kernel;
 *   "measured": several candidates were available; each ran `rounds` rounds of a short chain
 *               of multiplies, taking turns; ns[i] is the minimum per multiply of candidate i
 *               of the table (0 for kernels not measured); the preferred kernel (the last
 *               available one in table order) stays unless another is faster by the margin;
 *   "default":  the preferred available kernel (one candidate or none).
 * num3072_kernel_select changes the active kernel afterwards, not this record. */
typedef struct {
    const num3072_kernel *kernel;
    const char *how;
    double ns[8];
    double seconds;    /* wall time the choice took */
    char ignored[256]; /* why MULRED_KERNEL was ignored, or "" */
} num3072_selection;

/* The kernel mulred_num3072_mul uses, chosen at the first call (thread-safe). */
const num3072_kernel *num3072_kernel_active(void);
const num3072_selection *num3072_kernel_selection(void);
/* Forces a kernel (tests and benchmarks); returns -1 if it is not available on this CPU. */
int num3072_kernel_select(const char *name);
/* The active kernel's multiply without the identity short-circuit (benchmarks). */
void num3072_mul_always(mulred_num3072 *r, const mulred_num3072 *a, const mulred_num3072 *b);

/* acc ≡ acc·x[0]⋯x[n−1] with the active kernel (x[j]: 48 limbs each, not overlapping acc).
 * With short_circuit, an accumulator holding the representation 1 takes a copy of x[0]
 * instead of a multiply (as mulred_num3072_mul does); without, every factor is multiplied in
 * (benchmarks measure what the short-circuit saves). */
void num3072_mul_many(mulred_num3072 *acc, const uint64_t *const x[], size_t n, bool short_circuit);

#endif

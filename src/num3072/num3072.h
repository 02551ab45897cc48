/* Internal interface of the num3072 layer: the multiply kernels behind mulred_num3072_mul. */
#ifndef MULRED_NUM3072_INTERNAL_H
#define MULRED_NUM3072_INTERNAL_H

#include <stdint.h>

#include "mulred/num3072.h"

/* A kernel: r ≡ a·b (mod p), inputs and output in [0, 2^3072), r may alias a or b. */
typedef void (*num3072_mul_fn)(uint64_t r[MULRED_NUM3072_LIMBS],
                               const uint64_t a[MULRED_NUM3072_LIMBS],
                               const uint64_t b[MULRED_NUM3072_LIMBS]);

typedef struct {
    const char *name; /* "gmp", "mulx", "ifma" */
    num3072_mul_fn mul;
    int (*available)(void); /* CPU support */
} num3072_kernel;

/* The portable path: GMP mpn_mul_n / mpn_sqr, then fold the high half twice with ×C and one
 * conditional subtraction (output < p). */
void num3072_mul_gmp(uint64_t r[MULRED_NUM3072_LIMBS], const uint64_t a[MULRED_NUM3072_LIMBS],
                     const uint64_t b[MULRED_NUM3072_LIMBS]);

/* Every kernel compiled in (the GMP one first), and a lookup by name (NULL if unknown). */
const num3072_kernel *num3072_kernels(int *count);
const num3072_kernel *num3072_kernel_find(const char *name);
/* The kernel mulred_num3072_mul uses: MULRED_KERNEL if set and available, else the fastest
 * available. Selected once. */
const num3072_kernel *num3072_kernel_active(void);
/* Forces a kernel (tests and benchmarks); returns -1 if it is not available on this CPU. */
int num3072_kernel_select(const char *name);
/* The active kernel's multiply without the identity short-circuit (benchmarks). */
void num3072_mul_always(mulred_num3072 *r, const mulred_num3072 *a, const mulred_num3072 *b);

#endif

/* AVX-512 IFMA kernels (512-bit vectors) for products mod p = 2^3072 - 1103717: the
 * schoolbook one ("ifma", the default) and one Karatsuba level ("ifma_kara"). The building
 * blocks and the representation are described in num3072_ifma_impl.h.
 *
 * On AMD Zen 5 (full-width 512-bit units, 2 IFMAs per cycle) the schoolbook product (about
 * 1020 IFMAs) is bound by IFMA throughput; the Karatsuba kernel issues 18% fewer IFMAs but its
 * three 30x30 products have too little independent work per step to keep both units busy, and
 * with the halves, differences and recombination it is slower there (docs/kernels.md has the
 * figures). It is kept for CPUs that execute 512-bit IFMAs in two halves (Zen 4), where the
 * IFMA count weighs more; the one-time measurement at first use decides.
 */
#include "num3072/num3072_kernels.h"

#include "num3072/num3072_ifma_impl.h"
#include "util/util.h"

int mulred_num3072_kernels_have_ifma(void)
{
    const mulred_cpu_features *f = mulred_cpu(); /* the project's cached CPUID probe */
    return f->avx512f && f->avx512vl && f->avx512ifma;
}

/* The kernels over the 512-bit windows of num3072_ifma_impl.h. */
#define IFMA_SUFFIX                ifma
#define IFMA_PRODUCT120(z, pa, bb) product120(z, pa, bb)
#define IFMA_PRODUCT60(z, half, b) product60(z, half, b)
#include "num3072/num3072_ifma_kernels_impl.h"

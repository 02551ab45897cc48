/* The MULX/ADCX/ADOX kernels' CPU check. The kernels themselves are in field_mulx.S (x86-64
 * assembly: two carry chains, the reduction interleaved per row, a dedicated squaring); see
 * field_kernels.h for their contract. Elsewhere the MULX kernels forward to the portable ones,
 * so the library links, and mulred_field_have_mulx() is never true there. */
#include <stdint.h>

#include "field/field_kernels.h"
#include "util/util.h"

int mulred_field_have_mulx(void)
{
#if defined(__x86_64__) && defined(__ELF__)
    const mulred_cpu_features *f = mulred_cpu();
    return f->bmi2 && f->adx;
#else
    return 0;
#endif
}

#if !(defined(__x86_64__) && defined(__ELF__))
void mulred_mont_mul4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                           const uint64_t p[4], uint64_t n0)
{
    mulred_mont_mul4_portable(r, a, b, p, n0);
}

void mulred_mont_mul6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                           const uint64_t p[6], uint64_t n0)
{
    mulred_mont_mul6_portable(r, a, b, p, n0);
}

void mulred_mont_sqr4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0)
{
    mulred_mont_sqr4_portable(r, a, p, n0);
}

void mulred_mont_sqr6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0)
{
    mulred_mont_sqr6_portable(r, a, p, n0);
}
#endif

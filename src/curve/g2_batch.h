/* Internal (curve layer): G2 subgroup checks of many points at once (g2_batch.c).
 *
 * ok[i] = mulred_g2_381_affine_in_g2_var(&p[i]) (resp. mulred_g2_254_affine_in_g2_var) for
 * i < n: exactly its verdicts (infinity and points in G2 true; every other point on E′ false).
 * Where the CPU has AVX-512 IFMA (mulred_fieldx8_have_ifma()) the points go 8 at a time (up to 4
 * such batches side by side) through the same criterion on the 8-lane Fp2 kernels (field_x8.h):
 * ψ(P) = −|x|·P on BLS12-381 (x the seed), ψ(P) = [6u²]·P on BN254, with the multiple by a
 * double-and-add over signed digits of the scalar in Jacobian coordinates and ψ(P) compared
 * without an inversion (the engine G1 uses too: batch_check_impl.h). A lane whose addition
 * meets an exceptional case (an operand at infinity, or equal x coordinates: only points
 * outside G2 get there) is checked again by the one-point function; so is a batch on a CPU
 * without the kernels (lanes_x8 false forces that path, for tests and benchmarks). Points must
 * be decoded and on the curve. Variable time (public inputs). */
#ifndef MULRED_CURVE_G2_BATCH_H
#define MULRED_CURVE_G2_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "mulred/curve.h"

void mulred_g2_381_in_g2_batch_var(bool *ok, const mulred_g2_381_affine *p, size_t n,
                                   bool lanes_x8);
void mulred_g2_254_in_g2_batch_var(bool *ok, const mulred_g2_254_affine *p, size_t n,
                                   bool lanes_x8);

#endif

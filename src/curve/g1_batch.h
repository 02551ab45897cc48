/* Internal (curve layer): G1 subgroup checks of many points at once (g1_batch.c).
 *
 * ok[i] = mulred_g1_381_affine_in_g1_var(&p[i]) for i < n: exactly its verdicts (infinity and
 * points in G1 true; every other point on the curve false). Where the CPU has AVX-512 IFMA
 * (mulred_fieldx8_have_ifma()) the points go 8 at a time (up to 4 such batches side by side)
 * through the same criterion on the 8-lane field kernels (field_x8.h): φ'(P) = −x²·P with x²·P by
 * two double-and-add passes over |x|, in Jacobian coordinates (the engine G2 uses too:
 * batch_check_impl.h). A lane whose addition meets an
 * exceptional case (an operand at infinity, or equal x coordinates: only points of small order get
 * there) is checked again by the one-point function; so is a batch on a CPU without the kernels
 * (lanes_x8 false forces that path, for tests and benchmarks). Points must be decoded and on
 * the curve. Variable time (public inputs). BN254: every point is in G1 (cofactor 1). */
#ifndef MULRED_CURVE_G1_BATCH_H
#define MULRED_CURVE_G1_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "mulred/curve.h"

void mulred_g1_381_in_g1_batch_var(bool *ok, const mulred_g1_381_affine *p, size_t n,
                                   bool lanes_x8);

#endif

/* mulred — large commutative-group products (MuHash3072, MSM): the core library, libmulred.
 *
 * This umbrella header includes every public header of the core (no MPI in any of them):
 *   mulred/common.h      status codes, error reports, the misuse callback, thread count, version
 *   mulred/num3072.h     arithmetic mod 2^3072 − 1103717
 *   mulred/muhash.h      MuHash3072 (Bitcoin Core and Kaspa flavors) and its threaded reduction
 *   mulred/field.h       the prime fields of BLS12-381 and BN254
 *   mulred/curve.h       G1 of BLS12-381 and BN254, encodings
 *   mulred/msm.h         multi-scalar multiplication
 *   mulred/bases.h       base sets: points validated once, many MSMs over them
 *   mulred/group.h       a commutative group as a reduction sees it
 *   mulred/msm_io.h      MSM inputs: pair files and synthetic point sets
 *   mulred/sources.h     MuHash element sources: element files, synthetic UTXO sets
 *   mulred/utxo.h        Bitcoin Core UTXO snapshots
 *   mulred/bases_io.h    base sets from files; their trusted cache
 *   mulred/kzg.h         EIP-4844 KZG commitments
 *   mulred/checkpoint.h  the checkpoint store
 * The MPI layer, libmulred_mpi, has its own header. */
#ifndef MULRED_MULRED_H
#define MULRED_MULRED_H

#include "mulred/common.h"
#include "mulred/num3072.h"
#include "mulred/muhash.h"
#include "mulred/field.h"
#include "mulred/curve.h"
#include "mulred/msm.h"
#include "mulred/bases.h"
#include "mulred/group.h"
#include "mulred/msm_io.h"
#include "mulred/sources.h"
#include "mulred/utxo.h"
#include "mulred/bases_io.h"
#include "mulred/kzg.h"
#include "mulred/checkpoint.h"
#include "mulred/plan.h"
#include "mulred/msm_grid.h"

#endif

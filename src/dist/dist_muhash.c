/* The MuHash reduction across ranks: an MPI datatype for a state's numbers (numerator ‖
 * denominator, 96 uint64 limbs) and a commutative user op that multiplies states. MPI may
 * combine partials in any order (commute = 1); the product mod p does not depend on it.
 * Ranks with no elements contribute the identity, which the multiply short-circuits. */
#include <mpi.h>
#include <string.h>

#include "dist/dist_internal.h"
#include "mulred/muhash.h"

typedef struct {
    mulred_num3072 num, den;
} muhash_wire;

static MPI_Datatype wire_type = MPI_DATATYPE_NULL;
static MPI_Op wire_op = MPI_OP_NULL;

static void muhash_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const muhash_wire *a = in;
    muhash_wire *b = inout;
    for (int i = 0; i < *len; i++) {
        mulred_num3072_mul(&b[i].num, &b[i].num, &a[i].num);
        mulred_num3072_mul(&b[i].den, &b[i].den, &a[i].den);
    }
}

static int muhash_mpi_setup(mulred_error *err)
{
    if (wire_op != MPI_OP_NULL) return MULRED_OK;
    if (MPI_Type_contiguous(2 * MULRED_NUM3072_LIMBS, MPI_UINT64_T, &wire_type) != MPI_SUCCESS ||
        MPI_Type_commit(&wire_type) != MPI_SUCCESS ||
        MPI_Op_create(muhash_op, 1, &wire_op) != MPI_SUCCESS)
        return mulred_error_set(err, MULRED_ERUNTIME, "cannot create the MuHash MPI op");
    return MULRED_OK;
}

static int muhash_collective(mulred_muhash_state *s, int root, mulred_error *err)
{
    if (!mulred_dist_active() || mulred_dist_size() == 1) return MULRED_OK;
    if (muhash_mpi_setup(err)) return err->status;
    muhash_wire mine = {s->num, s->den}, out;
    int rc = root < 0 ? MPI_Allreduce(&mine, &out, 1, wire_type, wire_op, MPI_COMM_WORLD)
                      : MPI_Reduce(&mine, &out, 1, wire_type, wire_op, root, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return mulred_error_set(err, MULRED_ERUNTIME, "MPI reduction failed");
    if (root < 0 || mulred_dist_rank() == root) {
        s->num = out.num;
        s->den = out.den;
    }
    return MULRED_OK;
}

int mulred_dist_reduce_muhash(mulred_muhash_state *s, int root, mulred_error *err)
{
    return muhash_collective(s, root, err);
}

int mulred_dist_allreduce_muhash(mulred_muhash_state *s, mulred_error *err)
{
    return muhash_collective(s, -1, err);
}

int mulred_dist_node_count(void)
{
    if (!mulred_dist_active() || mulred_dist_size() == 1) return 1;
    /* Ranks sharing memory are on one node: count the ranks that lead a shared-memory
     * communicator. */
    MPI_Comm node;
    int node_rank = 0, leaders = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    int lead = node_rank == 0;
    MPI_Allreduce(&lead, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_free(&node);
    return leaders;
}

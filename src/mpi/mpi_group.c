/* The generic reduction of group elements across ranks: one MPI op for every group.
 *
 * MPI calls a user op as fn(in, inout, len, datatype) with no context pointer, so the op has to
 * learn the group from the datatype. Each reduction makes its own datatype (MPI_BYTE ×
 * elem_bytes) and hangs the group descriptor on it as an attribute; the op reads the attribute
 * back and calls the group's combine on each of the len elements. A datatype made per call
 * cannot outlive its descriptor (a cache keyed by descriptor address could, once a descriptor
 * on the stack is gone and another takes its place), and its cost is paid once per reduction,
 * against at least one group operation per rank (docs/kernels.md has both).
 *
 * The op is commutative (commute = 1): MPI may combine partials in any order and grouping, which
 * the group contract allows. Root and allreduce work in place (MPI_IN_PLACE): no buffer is
 * allocated here whatever the element size.
 *
 * FUNNELED: the op, the attribute key and every datatype are made and used only on the thread
 * that initialized MPI (mpi_multi_rank checks it), and the op runs inside the collective on
 * that thread, so the two statics below need no lock. */
#include <limits.h>
#include <stdio.h>

#include "mpi/mpi_internal.h"
#include "util/check.h"

static MPI_Op group_op = MPI_OP_NULL;
static int group_keyval = MPI_KEYVAL_INVALID;

static void group_op_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    void *attr = NULL;
    int found = 0;
    int rc = MPI_Type_get_attr(*type, group_keyval, &attr, &found);
    MULRED_CHECK(rc == MPI_SUCCESS && found && attr,
                 "the reduce op got a datatype without a group");
    const mulred_group *g = attr;
    const unsigned char *a = in;
    unsigned char *acc = inout;
    for (int i = 0; i < *len; i++)
        g->combine(acc + (size_t)i * g->elem_bytes, a + (size_t)i * g->elem_bytes, g);
}

static mulred_status group_setup(mulred_error *err)
{
    int rc = MPI_SUCCESS;
    if (group_keyval == MPI_KEYVAL_INVALID)
        rc = MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &group_keyval,
                                    NULL);
    if (rc == MPI_SUCCESS && group_op == MPI_OP_NULL) rc = MPI_Op_create(group_op_fn, 1, &group_op);
    return mpi_rc_status(rc, "creating the group reduce op", err);
}

void mpi_group_free(void)
{
    if (group_op != MPI_OP_NULL)
        MULRED_CHECK(MPI_Op_free(&group_op) == MPI_SUCCESS, "freeing the group reduce op");
    if (group_keyval != MPI_KEYVAL_INVALID)
        MULRED_CHECK(MPI_Type_free_keyval(&group_keyval) == MPI_SUCCESS,
                     "freeing the group attribute key");
}

/* root >= 0: MPI_Reduce to root; root < 0: MPI_Allreduce. */
static mulred_status group_collective(MPI_Comm comm, void *elem, const mulred_group *g, int root,
                                      mulred_error *err)
{
    MULRED_CHECK(g && g->combine && g->identity, "a group needs identity and combine");
    MULRED_CHECK(g->elem_bytes >= 1 && g->elem_bytes <= INT_MAX, "group %s: %zu-byte elements",
                 g->name, g->elem_bytes);
    if (!mpi_multi_rank(comm)) return MULRED_OK;
    int rank = mulred_mpi_rank(comm), size = mulred_mpi_size(comm);
    MULRED_CHECK(root < size, "root %d of %d ranks", root, size);
    if (group_setup(err) || mpi_watch_start(comm, 0, "the group reduce", NULL, NULL, err))
        return err->status;

    MPI_Datatype type = MPI_DATATYPE_NULL;
    int rc = MPI_Type_contiguous((int)g->elem_bytes, MPI_BYTE, &type);
    /* The op only reads the descriptor; MPI's attribute slot is not const-qualified. */
    if (rc == MPI_SUCCESS) rc = MPI_Type_set_attr(type, group_keyval, (void *)g);
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&type);
    if (rc == MPI_SUCCESS) {
        if (root < 0)
            rc = WAITED(MPI_Allreduce(MPI_IN_PLACE, elem, 1, type, group_op, comm));
        else if (rank == root)
            rc = WAITED(MPI_Reduce(MPI_IN_PLACE, elem, 1, type, group_op, root, comm));
        else
            rc = WAITED(MPI_Reduce(elem, NULL, 1, type, group_op, root, comm));
    }
    if (type != MPI_DATATYPE_NULL) {
        int rc_free = MPI_Type_free(&type);
        if (rc == MPI_SUCCESS) rc = rc_free;
    }
    if (rc != MPI_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "reducing %s over %d ranks", g->name, size);
        mpi_rc_status(rc, what, err);
    }
    return mpi_watch_stop(err);
}

mulred_status mulred_mpi_reduce(MPI_Comm comm, void *elem, const mulred_group *g, int root,
                                mulred_error *err)
{
    MULRED_CHECK(root >= 0, "root %d", root);
    return group_collective(comm, elem, g, root, err);
}

mulred_status mulred_mpi_allreduce(MPI_Comm comm, void *elem, const mulred_group *g,
                                   mulred_error *err)
{
    return group_collective(comm, elem, g, -1, err);
}

/* A commutative group as the engine sees it: fixed-size elements, an identity and a combine.
 *
 * The engine reduces partials of any such group the same way: every thread and rank starts from
 * the identity, combines its share in, and the partials meet (in the thread order, then in
 * MPI_Reduce with one generic op; see mulred/mulred_mpi.h). MuHash describes its group in
 * mulred/muhash.h (mulred_muhash_group); a point-addition group describes itself the same way,
 * without touching the engine. This header has no MPI in it, so any layer can describe a group.
 *
 * Elements cross MPI as raw bytes (MPI_BYTE), so an element must be plain data: no pointers,
 * and the same representation on every rank (mulred supports homogeneous clusters only). Its
 * size must be a multiple of its alignment (arrays of elements are combined in place). */
#ifndef MULRED_GROUP_H
#define MULRED_GROUP_H

#include <stddef.h>

#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mulred_group mulred_group;
struct mulred_group {
    const char *name;  /* for messages: "muhash-bitcoin" */
    size_t elem_bytes; /* bytes of one element, 1..INT_MAX */
    /* Sets *elem to the identity. */
    void (*identity)(void *elem, const mulred_group *g);
    /* *acc ← *acc ∘ *in. Must be commutative and associative: MPI and the thread reduction
     * combine partials in any grouping and order. acc and in do not overlap. Must not fail on
     * elements made by identity and combine; a programming error (e.g. partials of two
     * different groups) may abort with a message. Reentrant: called from several threads at
     * once on different elements. Variable time is allowed (the partials are public data). */
    void (*combine)(void *acc, const void *in, const mulred_group *g);
    /* Read-only parameters of identity and combine (a modulus, a flavor, a curve), or NULL. */
    const void *params;
};

#ifdef __cplusplus
}
#endif
#endif

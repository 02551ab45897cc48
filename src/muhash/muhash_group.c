/* MuHash as a group of the engine (mulred/group.h): states multiply componentwise, so the
 * distributed reduction of MuHash partials is the generic one with this descriptor. */
#include "mulred/group.h"
#include "mulred/muhash.h"
#include "util/check.h"

static void muhash_group_identity(void *elem, const mulred_group *g)
{
    mulred_muhash_init(elem, *(const mulred_muhash_flavor *)g->params);
}

static void muhash_group_combine(void *acc, const void *in, const mulred_group *g)
{
    (void)g;
    mulred_muhash_combine(acc, in);
}

static const mulred_muhash_flavor muhash_group_flavors[] = {MULRED_MUHASH_BITCOIN,
                                                            MULRED_MUHASH_KASPA};
static const mulred_group muhash_groups[] = {
    {"muhash-bitcoin", sizeof(mulred_muhash_state), muhash_group_identity, muhash_group_combine,
     &muhash_group_flavors[0]},
    {"muhash-kaspa", sizeof(mulred_muhash_state), muhash_group_identity, muhash_group_combine,
     &muhash_group_flavors[1]},
};

const mulred_group *mulred_muhash_group(mulred_muhash_flavor flavor)
{
    MULRED_CHECK(flavor == MULRED_MUHASH_BITCOIN || flavor == MULRED_MUHASH_KASPA,
                 "no MuHash flavor %d", (int)flavor);
    return &muhash_groups[flavor];
}

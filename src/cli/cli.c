#include "cli/cli.h"

#include <stdio.h>

#include "mulred/mpi.h"

bool cli_is_root(void)
{
    return (mulred_dist_active() ? mulred_dist_rank(MPI_COMM_WORLD) : mulred_dist_env_rank()) == 0;
}

const char *cli_version_line(void)
{
    static char line[128];
    const char *rev = mulred_git_revision();
    if (rev[0]) snprintf(line, sizeof line, "mulred %s (git %s)", mulred_version(), rev);
    else snprintf(line, sizeof line, "mulred %s", mulred_version());
    return line;
}

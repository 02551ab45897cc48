#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

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

void cli_jw_node_names(mulred_json_writer *w, const char *names)
{
    mulred_jw_array_begin(w, "node_names");
    for (const char *p = names; *p;) {
        const size_t len = strcspn(p, ",");
        char name[MULRED_NODE_NAMES_MAX];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        mulred_jw_string(w, NULL, name);
        p += len + (p[len] == ',');
    }
    mulred_jw_array_end(w);
}

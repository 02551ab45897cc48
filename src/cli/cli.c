#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mulred/mulred_mpi.h"

bool cli_is_root(void)
{
    return (mulred_mpi_active() ? mulred_mpi_rank(MPI_COMM_WORLD) : mulred_mpi_env_rank()) == 0;
}

mulred_status cli_mpi_start(int *argc, char ***argv)
{
    if (!mulred_mpi_launched()) return MULRED_OK;
    mulred_error err;
    mulred_error_clear(&err);
    if (mulred_mpi_init(argc, argv, &err) == MULRED_OK) return MULRED_OK;
    if (mulred_mpi_env_rank() == 0) fprintf(stderr, "mulred: %s\n", err.message);
    return err.status;
}

const char *cli_version_line(void)
{
    static char line[128];
    const char *rev = mulred_git_revision();
    if (rev[0])
        snprintf(line, sizeof line, "mulred %s (git %s)", mulred_version(), rev);
    else
        snprintf(line, sizeof line, "mulred %s", mulred_version());
    return line;
}

void cli_jw_node_names(mulred_json_writer *w, const char *names)
{
    mulred_jw_array_begin(w, "node_names");
    for (const char *p = names; *p;) {
        const size_t len = strcspn(p, ",");
        char name[MULRED_MPI_NODE_NAMES_MAX];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        mulred_jw_string(w, NULL, name);
        p += len + (p[len] == ',');
    }
    mulred_jw_array_end(w);
}

void cli_jw_units_per_rank(mulred_json_writer *w, const uint64_t *units, int ranks)
{
    mulred_jw_array_begin(w, "units_per_rank");
    for (int r = 0; units && r < ranks; r++) mulred_jw_uint(w, NULL, units[r]);
    mulred_jw_array_end(w);
}

mulred_exit cli_parse_schedule(mulred_schedule *out, const char *v, mulred_key_parser *p, char *why,
                               size_t cap)
{
    if (mulred_schedule_parse(out, v) != MULRED_OK)
        return mulred_key_bad_value(p, v, "static or dynamic", why, cap);
    return MULRED_OK;
}

uint64_t *cli_units_buffer(void)
{
    static uint64_t *buf;
    static size_t cap;
    const size_t n = (size_t)mulred_mpi_size(MPI_COMM_WORLD);
    if (n > cap) {
        uint64_t *b = realloc(buf, n * sizeof *b);
        if (!b) return NULL;
        buf = b, cap = n;
    }
    return buf;
}

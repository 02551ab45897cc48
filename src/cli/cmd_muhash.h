/* mulred muhash as a kind of job (cli/kind.h): `mulred muhash` and `kind = muhash` in a job
 * file. */
#ifndef MULRED_CLI_CMD_MUHASH_H
#define MULRED_CLI_CMD_MUHASH_H

#include "cli/kind.h"

extern const cli_job_kind cli_kind_muhash;

#endif

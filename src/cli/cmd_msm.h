/* mulred msm as a kind of job (cli/kind.h): `mulred msm` and `kind = msm` in a job file. */
#ifndef MULRED_CLI_CMD_MSM_H
#define MULRED_CLI_CMD_MSM_H

#include "cli/kind.h"

extern const cli_job_kind cli_kind_msm;

#endif

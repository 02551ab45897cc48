/* The outputs of a projection (report.h): its text on o->output or stdout and its CSV on o->csv,
 * each file written whole or not at all. Shared by project.c and project_msm.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "report/report.h"

mulred_status mulred_report_open_outputs(const mulred_report_project_opts *o,
                                         mulred_report_outputs *io, mulred_error *err)
{
    memset(io, 0, sizeof *io);
    io->out = stdout;
    mulred_error werr;
    if (o->output && mulred_whole_open(&io->w[0], o->output, MULRED_WHOLE_IN_PLACE, &werr))
        return mulred_error_set(err, MULRED_ERUNTIME, "report: %s: %s", o->output, strerror(errno));
    if (o->output) io->out = io->w[0].f;
    if (o->csv && mulred_whole_open(&io->w[1], o->csv, MULRED_WHOLE_IN_PLACE, &werr)) {
        const int e = errno;
        mulred_whole_discard(&io->w[0]);
        return mulred_error_set(err, MULRED_ERUNTIME, "report: %s: %s", o->csv, strerror(e));
    }
    io->csv = o->csv ? io->w[1].f : NULL;
    return MULRED_OK;
}

mulred_status mulred_report_close_outputs(const mulred_report_project_opts *o,
                                          mulred_report_outputs *io, mulred_status status,
                                          mulred_error *err)
{
    const char *name[2] = {o->output, o->csv};
    mulred_error werr;
    for (int i = 0; i < 2; i++) {
        if (!io->w[i].f) continue;
        if (status)
            mulred_whole_discard(&io->w[i]);
        else if (mulred_whole_commit(&io->w[i], &werr))
            status = mulred_error_set(err, MULRED_ERUNTIME, "report: %s: write failed", name[i]);
    }
    if (io->out == stdout && fflush(stdout) != 0 && !status)
        status = mulred_error_set(err, MULRED_ERUNTIME, "report: standard output: write failed");
    return status;
}

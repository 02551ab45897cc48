#include "cli/cli.h"

#include <stdarg.h>
#include <string.h>

#include "mulred/dist.h"

bool cli_is_root(void)
{
    return mulred_dist_rank() == 0;
}

void cli_out(const char *fmt, ...)
{
    if (!cli_is_root()) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
}

int cli_report(const mulred_error *err)
{
    if (cli_is_root() && err->status != MULRED_OK) fprintf(stderr, "mulred: %s\n", err->message);
    return err->status;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    if (cli_is_root()) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "mulred%s%s: ", cmd ? " " : "", cmd ? cmd : "");
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\nTry 'mulred%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
    }
    return CLI_EUSAGE;
}

void cli_getopt_reset(void)
{
    optind = 0; /* glibc: 0 forces a full reinitialization */
    opterr = 0;
}

int cli_bad_option(const char *cmd, int argc, char **argv)
{
    const char *arg = optind - 1 < argc && optind >= 1 ? argv[optind - 1] : "?";
    if (optopt && optopt != '?')
        return cli_usage_error(cmd, "option '-%c' is unknown or needs an argument", optopt);
    return cli_usage_error(cmd, "option '%s' is unknown or needs an argument", arg);
}

const char *cli_version_line(void)
{
    static char line[128];
    const char *rev = mulred_git_revision();
    if (rev[0]) snprintf(line, sizeof line, "mulred %s (git %s)", mulred_version(), rev);
    else snprintf(line, sizeof line, "mulred %s", mulred_version());
    return line;
}

#include "output/output.h"

#include <stdarg.h>
#include <stdio.h>

static bool (*root_test)(void);

void mulred_out_set_root_test(bool (*is_root)(void))
{
    root_test = is_root;
}

bool mulred_out_is_root(void)
{
    return root_test ? root_test() : true;
}

void mulred_out(const char *fmt, ...)
{
    if (!mulred_out_is_root()) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
}

mulred_status mulred_out_error(const mulred_error *err)
{
    if (err->status != MULRED_OK && mulred_out_is_root())
        fprintf(stderr, "mulred: %s\n", err->message);
    return err->status;
}

mulred_exit mulred_out_usage_error(const char *cmd, const char *fmt, ...)
{
    if (mulred_out_is_root()) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "mulred%s%s: ", cmd ? " " : "", cmd ? cmd : "");
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\nTry 'mulred%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
    }
    return MULRED_OUT_EUSAGE;
}

double mulred_out_load_average(void)
{
    double load = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1) load = -1;
        fclose(f);
    }
    return load;
}

int mulred_out_cpu_family(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    char line[256];
    int fam = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "cpu family : %d", &fam) == 1) break;
    fclose(f);
    return fam;
}

#include "cli/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/util.h"

void cli_progress_init(cli_progress *p, int force, uint64_t items, const char *unit)
{
    p->enabled = cli_is_root() && (force > 0 || (force == 0 && isatty(STDERR_FILENO)));
    p->start = p->last = mulred_wtime();
    p->items = items;
    p->unit = unit;
}

void cli_progress_update(void *vp, uint64_t done, uint64_t total)
{
    cli_progress *p = vp;
    double now = mulred_wtime();
    if (!p->enabled || total == 0 || (now - p->last < 0.2 && done < total)) return;
    p->last = now;
    double frac = (double)done / (double)total, elapsed = now - p->start;
    char bar[31], rate[48] = "", eta[32] = "";
    int fill = (int)(frac * 30);
    for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    if (p->items && elapsed > 0)
        mulred_format_rate(rate, sizeof rate, frac * (double)p->items / elapsed, p->unit);
    if (frac > 0 && done < total)
        snprintf(eta, sizeof eta, "ETA %.0f s", elapsed * (1 - frac) / frac);
    fprintf(stderr, "\r[%s] %5.1f%%  %s  %s   ", bar, 100 * frac, rate, eta);
    fflush(stderr);
}

void cli_progress_finish(cli_progress *p)
{
    if (p->enabled) {
        fprintf(stderr, "\r%78s\r", "");
        fflush(stderr);
    }
}

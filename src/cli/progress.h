/* A one-line progress bar with rate and ETA on stderr (rank 0 only). */
#ifndef MULRED_CLI_PROGRESS_H
#define MULRED_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    bool enabled;
    double start, last;
    uint64_t items;   /* expected items for the rate (0: unknown, no rate shown) */
    const char *unit; /* "elements", "coins" */
} cli_progress;

/* Enabled when force > 0, or when force == 0 and stderr is a terminal; only on rank 0. */
void cli_progress_init(cli_progress *p, int force, uint64_t items, const char *unit);
/* Callback for mulred_muhash_reduce_opts.progress; redraws at most 5 times a second. */
void cli_progress_update(void *p, uint64_t done, uint64_t total);
void cli_progress_finish(cli_progress *p);

#endif

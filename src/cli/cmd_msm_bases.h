/* mulred msm over a base set (--points / --bases with --scalars, cmd_msm_bases.c): the points
 * validated once, one MSM per scalar file. Its options are part of msm's (cmd_msm.c). */
#ifndef MULRED_CLI_CMD_MSM_BASES_H
#define MULRED_CLI_CMD_MSM_BASES_H

#include <stdbool.h>
#include <stdio.h>

#include "mulred/mulred.h"
#include "output/json.h"
#include "input/keys.h"

/* Most --scalars files of one run. */
#define MSM_BASES_MAX_SCALARS 64

typedef struct {
    const char *points; /* --points FILE, or NULL */
    const char *bases;  /* --bases FILE (a saved set), or NULL */
    const char *save;   /* --save FILE, or NULL */
    const char *scalars[MSM_BASES_MAX_SCALARS];
    int nscalars;
    mulred_point_encoding encoding;
    unsigned precompute; /* --precompute LEVEL */
    bool cache;          /* --cache: the XDG cache */
    bool little_endian;  /* --little-endian scalars */
} msm_bases_opts;

typedef struct {
    mulred_curve curve;
    uint64_t set_points;
    unsigned level;
    uint64_t memory;
    const char *cache_state; /* "made", "loaded", "made, saved" */
    double prepare_s;        /* making (decode + checks + table) or loading the set */
    int n;
    uint64_t points[MSM_BASES_MAX_SCALARS];
    double seconds[MSM_BASES_MAX_SCALARS];
    char hex[MSM_BASES_MAX_SCALARS][2 * MULRED_MSM_RESULT_MAX + 1];
    char cache_path[4096];
} msm_bases_result;

/* The base-set keys of `mulred msm` (its key table lists them): opts is the msm_bases_opts
 * (cli/cmd_msm_print.h keeps it first in msm's options, so the table's pointer is one to it too).
 */
mulred_exit msm_bases_set_points(void *opts, const char *v, mulred_key_parser *p, char *why,
                                 size_t cap);
mulred_exit msm_bases_set_bases(void *opts, const char *v, mulred_key_parser *p, char *why,
                                size_t cap);
mulred_exit msm_bases_set_save(void *opts, const char *v, mulred_key_parser *p, char *why,
                               size_t cap);
mulred_exit msm_bases_set_scalars(void *opts, const char *v, mulred_key_parser *p, char *why,
                                  size_t cap);
mulred_exit msm_bases_set_encoding(void *opts, const char *v, mulred_key_parser *p, char *why,
                                   size_t cap);
mulred_exit msm_bases_set_precompute(void *opts, const char *v, mulred_key_parser *p, char *why,
                                     size_t cap);
mulred_exit msm_bases_set_cache(void *opts, const char *v, mulred_key_parser *p, char *why,
                                size_t cap);
mulred_exit msm_bases_set_little_endian(void *opts, const char *v, mulred_key_parser *p, char *why,
                                        size_t cap);

/* The base-set mode's options checked as a whole (as a job kind's check): has_curve whether
 * --curve was given, other the first option of the plain MSM given with them (NULL: none). */
mulred_exit msm_bases_check(const msm_bases_opts *b, bool has_curve, const char *other,
                            const char *dash, const char **fault, char *why, size_t cap);
/* A plain MSM's check that no base-set option was given. */
mulred_exit msm_bases_check_unused(const msm_bases_opts *b, const char *dash, const char **fault,
                                   char *why, size_t cap);

/* Makes or loads the set (curve: the --curve and --group given, has_curve false when none),
 * then one MSM per scalar file. Status and err as a job kind's run. */
mulred_status msm_bases_run(const msm_bases_opts *o, mulred_curve curve, bool has_curve,
                            bool binary, int threads, msm_bases_result *r, mulred_error *err);
void msm_bases_write_json(mulred_json_writer *w, const msm_bases_opts *o,
                          const msm_bases_result *r);
void msm_bases_write_text(FILE *out, const msm_bases_opts *o, const msm_bases_result *r);

#endif

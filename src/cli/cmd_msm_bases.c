/* mulred msm --points / --bases with --scalars: a base set (mulred/bases.h) made once (or loaded
 * from a saved one), then one MSM per scalar file, in order. One process: under mpirun every
 * rank computes the same results (the sharded set is the MPI layer's). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_msm_bases.h"

/* The set: loaded (--bases, or a valid --cache file), else made from --points (and saved to
 * --save, or to the cache). */
/* ---- keys ---- */

static mulred_exit set_path(const char **dst, const char *v, mulred_key_parser *p, char *why,
                            size_t cap)
{
    const char *kept = mulred_key_path(p, v);
    if (!kept) return snprintf(why, cap, "out of memory"), MULRED_ERUNTIME;
    *dst = kept;
    return MULRED_OK;
}

mulred_exit msm_bases_set_points(void *vo, const char *v, mulred_key_parser *p, char *why,
                                 size_t cap)
{
    return set_path(&((msm_bases_opts *)vo)->points, v, p, why, cap);
}

mulred_exit msm_bases_set_bases(void *vo, const char *v, mulred_key_parser *p, char *why,
                                size_t cap)
{
    return set_path(&((msm_bases_opts *)vo)->bases, v, p, why, cap);
}

mulred_exit msm_bases_set_save(void *vo, const char *v, mulred_key_parser *p, char *why, size_t cap)
{
    return set_path(&((msm_bases_opts *)vo)->save, v, p, why, cap);
}

mulred_exit msm_bases_set_scalars(void *vo, const char *v, mulred_key_parser *p, char *why,
                                  size_t cap)
{
    msm_bases_opts *b = vo;
    if (b->nscalars == MSM_BASES_MAX_SCALARS)
        return snprintf(why, cap, "at most %d scalar files", MSM_BASES_MAX_SCALARS),
               MULRED_OUT_EUSAGE;
    return set_path(&b->scalars[b->nscalars++], v, p, why, cap);
}

mulred_exit msm_bases_set_encoding(void *vo, const char *v, mulred_key_parser *p, char *why,
                                   size_t cap)
{
    if (mulred_point_encoding_parse(&((msm_bases_opts *)vo)->encoding, v))
        return mulred_key_bad_value(p, v, "evm, compressed or uncompressed", why, cap);
    return MULRED_OK;
}

mulred_exit msm_bases_set_precompute(void *vo, const char *v, mulred_key_parser *p, char *why,
                                     size_t cap)
{
    uint64_t n;
    if (mulred_key_parse_uint(&n, v, UINT64_MAX, p, why, cap)) return MULRED_OUT_EUSAGE;
    if (n == 1 || n > MULRED_BASES_LEVEL_MAX) { /* a table has at least 2 rows */
        char expected[48];
        snprintf(expected, sizeof expected, "0 (none) or 2 to %d", MULRED_BASES_LEVEL_MAX);
        return mulred_key_bad_value(p, v, expected, why, cap);
    }
    ((msm_bases_opts *)vo)->precompute = (unsigned)n;
    return MULRED_OK;
}

mulred_exit msm_bases_set_cache(void *vo, const char *v, mulred_key_parser *p, char *why,
                                size_t cap)
{
    return mulred_key_parse_bool(&((msm_bases_opts *)vo)->cache, v, p, why, cap) ? MULRED_OUT_EUSAGE
                                                                                 : MULRED_OK;
}

mulred_exit msm_bases_set_little_endian(void *vo, const char *v, mulred_key_parser *p, char *why,
                                        size_t cap)
{
    return mulred_key_parse_bool(&((msm_bases_opts *)vo)->little_endian, v, p, why, cap)
               ? MULRED_OUT_EUSAGE
               : MULRED_OK;
}

/* The options of the base-set mode (--points or --bases) checked as a whole: other is the first
 * option of the plain MSM given with them (NULL: none), which does not apply. */
mulred_exit msm_bases_check(const msm_bases_opts *b, bool has_curve, const char *other,
                            const char *dash, const char **fault, char *why, size_t cap)
{
    if (!other && b->points && b->bases) other = "bases";
    if (other) {
        *fault = other;
        snprintf(why, cap, "%s%s does not apply to an MSM over %s%s", dash, other, dash,
                 b->points ? "points" : "bases");
        return MULRED_OUT_EUSAGE;
    }
    if (b->nscalars == 0) {
        *fault = NULL;
        snprintf(why, cap, "no scalars: give %sscalars FILE (once per MSM)", dash);
        return MULRED_OUT_EUSAGE;
    }
    if (!has_curve && b->points) {
        *fault = NULL;
        snprintf(why, cap, "no curve: give %scurve bls12-381 or %scurve bn254", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    if (b->bases && (b->precompute || b->cache || b->save)) {
        *fault = b->precompute ? "precompute" : b->cache ? "cache" : "save";
        snprintf(why, cap, "%s%s applies to %spoints (a saved set is used as it is)", dash, *fault,
                 dash);
        return MULRED_OUT_EUSAGE;
    }
    if (b->cache && b->save) {
        *fault = "save";
        snprintf(why, cap, "give %scache or %ssave, not both", dash, dash);
        return MULRED_OUT_EUSAGE;
    }
    return MULRED_OK;
}

mulred_exit msm_bases_check_unused(const msm_bases_opts *b, const char *dash, const char **fault,
                                   char *why, size_t cap)
{
    if (!(b->nscalars || b->precompute || b->cache || b->save || b->little_endian || b->encoding))
        return MULRED_OK;
    *fault = b->nscalars        ? "scalars"
             : b->precompute    ? "precompute"
             : b->cache         ? "cache"
             : b->save          ? "save"
             : b->little_endian ? "little-endian"
                                : "encoding";
    snprintf(why, cap, "%s%s applies to %spoints or %sbases", dash, *fault, dash, dash);
    return MULRED_OUT_EUSAGE;
}

/* ---- run ---- */

static mulred_status get_set(mulred_bases **b, const msm_bases_opts *o, mulred_curve curve,
                             bool has_curve, bool binary, int threads, msm_bases_result *r,
                             mulred_error *err)
{
    const double t0 = mulred_wtime();
    int st;
    r->cache_path[0] = '\0';
    if (o->bases) {
        st = mulred_bases_load(b, o->bases, has_curve ? (int)curve : -1, err);
        r->cache_state = "loaded";
        r->prepare_s = mulred_wtime() - t0;
        return st;
    }
    if (o->cache) {
        mulred_error cerr;
        if (mulred_bases_cache_path(r->cache_path, sizeof r->cache_path, o->points, curve,
                                    o->encoding, o->precompute, &cerr) != MULRED_OK)
            r->cache_path[0] = '\0';
        else if (mulred_bases_load(b, r->cache_path, (int)curve, &cerr) == MULRED_OK) {
            r->cache_state = "loaded from the cache";
            r->prepare_s = mulred_wtime() - t0;
            return MULRED_OK;
        }
    }
    st = mulred_bases_make_file(b, o->points, curve, o->encoding, binary, threads, err);
    if (st == MULRED_OK && o->precompute) {
        st = mulred_bases_precompute(*b, o->precompute, 0, threads, err);
        if (st == MULRED_OK && mulred_bases_level(*b) == 0 && cli_is_root())
            fprintf(stderr,
                    "mulred: note: --precompute %u: no table built for the %zu points (every "
                    "table has at least %d rows: 16-bit windows with GLV); the MSMs run without "
                    "one\n",
                    o->precompute, mulred_bases_size(*b), MULRED_BASES_LEVEL_TABLE_MIN);
    }
    r->prepare_s = mulred_wtime() - t0;
    r->cache_state = "made";
    if (st != MULRED_OK) return st;
    const char *save = o->save ? o->save : r->cache_path[0] ? r->cache_path : NULL;
    if (save) {
        st = mulred_bases_save(*b, save, err);
        r->cache_state = o->save ? "made, saved" : "made, saved to the cache";
    }
    return st;
}

mulred_status msm_bases_run(const msm_bases_opts *o, mulred_curve curve, bool has_curve,
                            bool binary, int threads, msm_bases_result *r, mulred_error *err)
{
    memset(r, 0, sizeof *r);
    mulred_bases *b = NULL;
    int st = get_set(&b, o, curve, has_curve, binary, threads, r, err);
    if (st != MULRED_OK) {
        mulred_bases_free(b); /* made, but not saved */
        return st;
    }
    r->curve = mulred_bases_curve(b);
    r->set_points = mulred_bases_size(b);
    r->level = mulred_bases_level(b);
    r->memory = mulred_bases_memory(b);
    const mulred_scalar_format f = o->little_endian ? MULRED_SCALARS_LE32 : MULRED_SCALARS_BE32;
    for (int i = 0; i < o->nscalars && st == MULRED_OK; i++) {
        uint8_t *s = NULL;
        size_t len = 0;
        st = mulred_bases_read_file(&s, &len, o->scalars[i], binary, 32, err);
        if (st == MULRED_OK && len == 0) /* as an empty --input: an MSM over nothing */
            st =
                mulred_error_set(err, MULRED_EINPUT, "%s: no scalars (empty input)", o->scalars[i]);
        else if (st == MULRED_OK && len / 32 > r->set_points)
            st = mulred_error_set(err, MULRED_EINPUT,
                                  "%s: %zu scalars, the set has %llu points (record %llu is the "
                                  "first without a point)",
                                  o->scalars[i], len / 32, (unsigned long long)r->set_points,
                                  (unsigned long long)r->set_points);
        uint8_t out[MULRED_MSM_RESULT_MAX];
        const double t0 = mulred_wtime();
        if (st == MULRED_OK)
            st = mulred_bases_msm_encoded(out, sizeof out, b, s, f, len / 32, threads, err);
        r->seconds[i] = mulred_wtime() - t0;
        if (st == MULRED_OK) {
            r->points[i] = len / 32;
            mulred_hex_encode(r->hex[i], out, mulred_msm_result_bytes(r->curve));
            r->n = i + 1;
        }
        free(s);
    }
    mulred_bases_free(b);
    return st;
}

void msm_bases_write_json(mulred_json_writer *w, const msm_bases_opts *o, const msm_bases_result *r)
{
    mulred_jw_array_begin(w, NULL);
    for (int i = 0; i < r->n; i++) {
        mulred_jw_object_begin(w, NULL);
        mulred_jw_string(w, "result", r->hex[i]);
        mulred_jw_string(w, "scalars", o->scalars[i]);
        mulred_jw_uint(w, "points", r->points[i]);
        mulred_jw_double(w, "seconds", r->seconds[i]);
        mulred_jw_string(w, "curve", mulred_curve_name(r->curve));
        mulred_jw_string(w, "group", mulred_pairing_group_name(mulred_curve_group(r->curve)));
        mulred_jw_string(w, "bases", o->bases ? o->bases : o->points);
        mulred_jw_uint(w, "bases_points", r->set_points);
        mulred_jw_uint(w, "precompute", r->level);
        mulred_jw_uint(w, "bases_bytes", r->memory);
        mulred_jw_string(w, "bases_state", r->cache_state);
        mulred_jw_double(w, "prepare_seconds", r->prepare_s);
        mulred_jw_object_end(w);
    }
    mulred_jw_array_end(w);
}

void msm_bases_write_text(FILE *out, const msm_bases_opts *o, const msm_bases_result *r)
{
    for (int i = 0; i < r->n; i++) fprintf(out, "msm      %s\n", r->hex[i]);
    fprintf(out,
            "bases    %s, %llu points, curve %s %s, precompute %u, %.1f MB (%s%s%s) in %.3f s\n",
            o->bases ? o->bases : o->points, (unsigned long long)r->set_points,
            mulred_curve_name(r->curve), mulred_pairing_group_name(mulred_curve_group(r->curve)),
            r->level, (double)r->memory / 1e6, r->cache_state, r->cache_path[0] ? ": " : "",
            r->cache_path, r->prepare_s);
    for (int i = 0; i < r->n; i++)
        fprintf(out, "scalars  %s: %llu points, msm %.3f s\n", o->scalars[i],
                (unsigned long long)r->points[i], r->seconds[i]);
}

#include "output/json.h"

#include <math.h>

#include "util/check.h"

void mulred_jw_init(mulred_json_writer *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->first[0] = true;
}

/* Length of the valid UTF-8 sequence (RFC 3629: shortest form, no surrogates, at most
 * U+10FFFF) at s, or 0 when s does not start one. */
static int utf8_valid_length(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int n = c >= 0xc2 && c <= 0xdf   ? 2
            : c >= 0xe0 && c <= 0xef ? 3
            : c >= 0xf0 && c <= 0xf4 ? 4
                                     : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))) return 0;
    if (n == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))) return 0;
    return n;
}

static void jw_escaped(FILE *out, const char *str)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)str; *p;) {
        switch (*p) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        default:
            if (*p < 0x20) {
                fprintf(out, "\\u%04x", *p);
            } else {
                int n = utf8_valid_length(p);
                if (n == 0) {
                    fputs("\\ufffd", out);
                    n = 1;
                } else {
                    fwrite(p, 1, (size_t)n, out);
                }
                p += n;
                continue;
            }
        }
        p++;
    }
    fputc('"', out);
}

static void jw_key(mulred_json_writer *w, const char *key)
{
    if (!w->first[w->depth]) fputc(',', w->out);
    w->first[w->depth] = false;
    if (key) {
        jw_escaped(w->out, key);
        fputc(':', w->out);
    }
}

static void jw_open(mulred_json_writer *w, const char *key, char c)
{
    MULRED_CHECK(w->depth + 1 < MULRED_JSON_MAX_DEPTH, "JSON nesting deeper than %d",
                 MULRED_JSON_MAX_DEPTH);
    jw_key(w, key);
    fputc(c, w->out);
    w->first[++w->depth] = true;
}

static void jw_close(mulred_json_writer *w, char c)
{
    MULRED_CHECK(w->depth > 0, "closing a JSON value that was not opened");
    fputc(c, w->out);
    w->depth--;
}

void mulred_jw_object_begin(mulred_json_writer *w, const char *key)
{
    jw_open(w, key, '{');
}
void mulred_jw_object_end(mulred_json_writer *w)
{
    jw_close(w, '}');
}
void mulred_jw_array_begin(mulred_json_writer *w, const char *key)
{
    jw_open(w, key, '[');
}
void mulred_jw_array_end(mulred_json_writer *w)
{
    jw_close(w, ']');
}
void mulred_jw_string(mulred_json_writer *w, const char *key, const char *value)
{
    jw_key(w, key);
    jw_escaped(w->out, value);
}
void mulred_jw_uint(mulred_json_writer *w, const char *key, uint64_t value)
{
    jw_key(w, key);
    fprintf(w->out, "%llu", (unsigned long long)value);
}
void mulred_jw_int(mulred_json_writer *w, const char *key, int64_t value)
{
    jw_key(w, key);
    fprintf(w->out, "%lld", (long long)value);
}
void mulred_jw_double(mulred_json_writer *w, const char *key, double value)
{
    jw_key(w, key);
    if (isfinite(value))
        fprintf(w->out, "%.9g", value);
    else
        fputs("null", w->out);
}
void mulred_jw_bool(mulred_json_writer *w, const char *key, bool value)
{
    jw_key(w, key);
    fputs(value ? "true" : "false", w->out);
}
void mulred_jw_null(mulred_json_writer *w, const char *key)
{
    jw_key(w, key);
    fputs("null", w->out);
}
void mulred_jw_finish(mulred_json_writer *w)
{
    fputc('\n', w->out);
    fflush(w->out);
}

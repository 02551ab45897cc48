#include "util/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- writer ---- */

void mulred_jw_init(mulred_json_writer *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->first[0] = true;
}

static void jw_key(mulred_json_writer *w, const char *key)
{
    if (!w->first[w->depth]) fputc(',', w->out);
    w->first[w->depth] = false;
    if (key) {
        fputc('"', w->out);
        for (const char *p = key; *p; p++) {
            if (*p == '"' || *p == '\\') fputc('\\', w->out);
            fputc(*p, w->out);
        }
        fputs("\":", w->out);
    }
}

static void jw_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

static void jw_open(mulred_json_writer *w, const char *key, char c)
{
    jw_key(w, key);
    fputc(c, w->out);
    if (w->depth + 1 >= MULRED_JSON_MAX_DEPTH) abort(); /* misuse: nesting too deep */
    w->first[++w->depth] = true;
}

void mulred_jw_object_begin(mulred_json_writer *w, const char *key)
{
    jw_open(w, key, '{');
}
void mulred_jw_object_end(mulred_json_writer *w)
{
    fputc('}', w->out);
    w->depth--;
}
void mulred_jw_array_begin(mulred_json_writer *w, const char *key)
{
    jw_open(w, key, '[');
}
void mulred_jw_array_end(mulred_json_writer *w)
{
    fputc(']', w->out);
    w->depth--;
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
    if (isfinite(value)) fprintf(w->out, "%.9g", value);
    else fputs("null", w->out);
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

/* ---- reader: recursive descent with a depth limit ---- */

typedef struct {
    const char *s;
    size_t len, pos;
    const char *name;
    mulred_error *err;
    int failed;
} jr;

static int jr_fail(jr *r, const char *why)
{
    if (!r->failed)
        mulred_error_set(r->err, MULRED_EINPUT, "%s: byte %zu: %s", r->name, r->pos, why);
    r->failed = 1;
    return -1;
}

static void jr_ws(jr *r)
{
    while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]) && r->s[r->pos]) r->pos++;
}

static int jr_value(jr *r, mulred_json_value *v, int depth);

static void json_clear(mulred_json_value *v)
{
    if (v->type == MULRED_JSON_ARRAY || v->type == MULRED_JSON_OBJECT) {
        for (size_t i = 0; i < v->count; i++) {
            json_clear(&v->items[i]);
            if (v->keys) free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
    free(v->string);
    memset(v, 0, sizeof *v);
}

static void utf8_put(char *out, size_t *n, unsigned cp)
{
    if (cp < 0x80) out[(*n)++] = (char)cp;
    else if (cp < 0x800) {
        out[(*n)++] = (char)(0xc0 | cp >> 6);
        out[(*n)++] = (char)(0x80 | (cp & 63));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xe0 | cp >> 12);
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 63));
        out[(*n)++] = (char)(0x80 | (cp & 63));
    } else {
        out[(*n)++] = (char)(0xf0 | cp >> 18);
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 63));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 63));
        out[(*n)++] = (char)(0x80 | (cp & 63));
    }
}

static int jr_hex4(jr *r, unsigned *cp)
{
    if (r->len - r->pos < 4) return jr_fail(r, "truncated \\u escape");
    *cp = 0;
    for (int i = 0; i < 4; i++) {
        int d = mulred_hex_digit((unsigned char)r->s[r->pos + i]);
        if (d < 0) return jr_fail(r, "bad \\u escape");
        *cp = *cp << 4 | (unsigned)d;
    }
    r->pos += 4;
    return 0;
}

static int jr_string(jr *r, char **out)
{
    r->pos++; /* opening quote */
    size_t start = r->pos, end = start;
    while (end < r->len && r->s[end] != '"') end += (r->s[end] == '\\') ? 2 : 1;
    if (end >= r->len) return jr_fail(r, "unterminated string");
    char *buf = malloc(end - start + 1);
    if (!buf) return jr_fail(r, "out of memory");
    size_t n = 0;
    while (r->pos < end) {
        char c = r->s[r->pos++];
        if ((unsigned char)c < 0x20) {
            free(buf);
            r->pos--;
            return jr_fail(r, "control character in string");
        }
        if (c != '\\') {
            buf[n++] = c;
            continue;
        }
        char e = r->s[r->pos++];
        unsigned cp;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u':
            if (jr_hex4(r, &cp)) {
                free(buf);
                return -1;
            }
            if (cp >= 0xd800 && cp < 0xdc00 && r->pos + 6 <= end && r->s[r->pos] == '\\' &&
                r->s[r->pos + 1] == 'u') {
                unsigned lo;
                r->pos += 2;
                if (jr_hex4(r, &lo)) {
                    free(buf);
                    return -1;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            utf8_put(buf, &n, cp); /* an escape is 6 bytes, its UTF-8 at most 4 */
            break;
        default: free(buf); return jr_fail(r, "bad escape");
        }
    }
    r->pos = end + 1;
    buf[n] = '\0';
    *out = buf;
    return 0;
}

static int jr_push(mulred_json_value *v, size_t *cap, bool keyed)
{
    if (v->count == *cap) {
        size_t ncap = *cap ? 2 * *cap : 8;
        mulred_json_value *items = realloc(v->items, ncap * sizeof *items);
        if (!items) return -1;
        v->items = items;
        if (keyed) {
            char **keys = realloc(v->keys, ncap * sizeof *keys);
            if (!keys) return -1;
            v->keys = keys;
        }
        *cap = ncap;
    }
    memset(&v->items[v->count], 0, sizeof v->items[0]);
    if (keyed) v->keys[v->count] = NULL;
    v->count++;
    return 0;
}

static int jr_value(jr *r, mulred_json_value *v, int depth)
{
    memset(v, 0, sizeof *v);
    if (depth > 64) return jr_fail(r, "nesting too deep");
    jr_ws(r);
    if (r->pos >= r->len) return jr_fail(r, "unexpected end of input");
    char c = r->s[r->pos];
    if (c == '{' || c == '[') {
        bool obj = c == '{';
        v->type = obj ? MULRED_JSON_OBJECT : MULRED_JSON_ARRAY;
        r->pos++;
        size_t cap = 0;
        jr_ws(r);
        if (r->pos < r->len && r->s[r->pos] == (obj ? '}' : ']')) {
            r->pos++;
            return 0;
        }
        for (;;) {
            if (jr_push(v, &cap, obj)) return jr_fail(r, "out of memory");
            jr_ws(r);
            if (obj) {
                if (r->pos >= r->len || r->s[r->pos] != '"') return jr_fail(r, "expected a key");
                if (jr_string(r, &v->keys[v->count - 1])) return -1;
                jr_ws(r);
                if (r->pos >= r->len || r->s[r->pos] != ':') return jr_fail(r, "expected ':'");
                r->pos++;
            }
            if (jr_value(r, &v->items[v->count - 1], depth + 1)) return -1;
            jr_ws(r);
            if (r->pos < r->len && r->s[r->pos] == ',') {
                r->pos++;
                continue;
            }
            if (r->pos < r->len && r->s[r->pos] == (obj ? '}' : ']')) {
                r->pos++;
                return 0;
            }
            return jr_fail(r, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    if (c == '"') {
        v->type = MULRED_JSON_STRING;
        return jr_string(r, &v->string);
    }
    static const struct {
        const char *word;
        mulred_json_type type;
        bool value;
    } words[] = {{"true", MULRED_JSON_BOOL, true},
                 {"false", MULRED_JSON_BOOL, false},
                 {"null", MULRED_JSON_NULL, false}};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(words[i].word);
        if (r->len - r->pos >= n && memcmp(r->s + r->pos, words[i].word, n) == 0) {
            v->type = words[i].type;
            v->boolean = words[i].value;
            r->pos += n;
            return 0;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        size_t start = r->pos;
        while (r->pos < r->len && strchr("+-0123456789.eE", r->s[r->pos]) && r->s[r->pos])
            r->pos++;
        size_t n = r->pos - start;
        v->string = malloc(n + 1);
        if (!v->string) return jr_fail(r, "out of memory");
        memcpy(v->string, r->s + start, n);
        v->string[n] = '\0';
        char *end;
        v->number = strtod(v->string, &end);
        v->type = MULRED_JSON_NUMBER;
        if (*end) {
            r->pos = start;
            return jr_fail(r, "bad number");
        }
        return 0;
    }
    return jr_fail(r, "unexpected character");
}

mulred_json_value *mulred_json_parse(const char *text, size_t len, const char *name,
                                     mulred_error *err)
{
    jr r = {text, len, 0, name ? name : "json", err, 0};
    mulred_json_value *v = calloc(1, sizeof *v);
    if (!v) {
        mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", r.name);
        return NULL;
    }
    if (jr_value(&r, v, 0) == 0) {
        jr_ws(&r);
        if (r.pos == r.len) return v;
        jr_fail(&r, "trailing characters");
    }
    mulred_json_free(v);
    return NULL;
}

mulred_json_value *mulred_json_parse_file(const char *path, mulred_error *err)
{
    char *text;
    size_t len;
    if (mulred_read_file(path, &text, &len, err)) return NULL;
    mulred_json_value *v = mulred_json_parse(text, len, path, err);
    free(text);
    return v;
}

void mulred_json_free(mulred_json_value *v)
{
    if (!v) return;
    json_clear(v);
    free(v);
}

const mulred_json_value *mulred_json_get(const mulred_json_value *v, const char *key)
{
    if (!v || v->type != MULRED_JSON_OBJECT) return NULL;
    for (size_t i = 0; i < v->count; i++)
        if (strcmp(v->keys[i], key) == 0) return &v->items[i];
    return NULL;
}

const char *mulred_json_get_string(const mulred_json_value *v, const char *key)
{
    const mulred_json_value *m = mulred_json_get(v, key);
    return m && m->type == MULRED_JSON_STRING ? m->string : NULL;
}

double mulred_json_get_number(const mulred_json_value *v, const char *key, double fallback)
{
    const mulred_json_value *m = mulred_json_get(v, key);
    return m && m->type == MULRED_JSON_NUMBER ? m->number : fallback;
}

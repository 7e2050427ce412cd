/* harness.c — see harness.h. */
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- checks ------------------------------------------------------------ */

void th_begin(th *t, const char *name)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->max_print = 200;
}

void th_args(th *t, int argc, char **argv)
{
    static const char prefix[] = "--part=";
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], prefix, sizeof prefix - 1) == 0 &&
            argv[i][sizeof prefix - 1] != 0 && t->part == NULL) {
            t->part = argv[i] + sizeof prefix - 1;
        } else {
            fprintf(stderr, "%s: unknown argument '%s' (usage: %s [--part=NAME])\n",
                    t->name, argv[i], argv[0]);
            exit(2);
        }
    }
    if (t->part != NULL)
        printf("%s: part '%s' only\n", t->name, t->part);
}

bool th_part(const th *t, const char *part)
{
    return t->part == NULL || strcmp(t->part, part) == 0;
}

bool th_require_all(void)
{
    const char *v = getenv("WENC_TEST_REQUIRE_ALL");
    return v != NULL && strcmp(v, "1") == 0;
}

static void vskip(th *t, th_skip_reason why, const char *what, va_list ap)
{
    static const char *const reasons[] = {
        [TH_SKIP_CONFIG] = "not built in this configuration",
        [TH_SKIP_DATA] = "data absent",
        [TH_SKIP_CPU] = "this CPU cannot run it",
    };
    if (why == TH_SKIP_DATA && th_require_all()) {
        printf("%s: FAILED (data absent, and WENC_TEST_REQUIRE_ALL=1 requires "
               "it): ", t->name);
        t->failed++;
    } else {
        printf("%s: SKIPPED (%s): ", t->name, reasons[why]);
        t->skipped++;
    }
    vprintf(what, ap);
    printf("\n");
}

void th_skip(th *t, th_skip_reason why, const char *what, ...)
{
    va_list ap;
    va_start(ap, what);
    vskip(t, why, what, ap);
    va_end(ap);
}

int th_end(th *t)
{
    if (t->printed > t->max_print)
        printf("%s: (%lu failure messages not printed)\n", t->name,
               t->printed - t->max_print);
    if (t->skipped)
        printf("%s: %lu checks passed, %lu failed, %lu groups SKIPPED\n",
               t->name, t->passed, t->failed, t->skipped);
    else
        printf("%s: %lu checks passed, %lu failed\n", t->name, t->passed,
               t->failed);
    fflush(stdout);
    return t->failed != 0 ? 1 : t->skipped != 0 ? 77 : 0;
}

#ifndef WENC_TEST_CJK
#define WENC_TEST_CJK 1
#endif

bool th_has_cjk(void)
{
    return WENC_TEST_CJK != 0;
}

bool th_is_cjk(wenc_id id)
{
    return id >= WENC_GBK && id <= WENC_EUC_KR;
}

bool th_cjk(th *t, const char *what, ...)
{
    if (WENC_TEST_CJK)
        return true;
    va_list ap;
    va_start(ap, what);
    vskip(t, TH_SKIP_CONFIG, what, ap);
    va_end(ap);
    return false;
}

void th_ctx(th *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->ctx, sizeof t->ctx, fmt, ap);
    va_end(ap);
}

void th_ctx_clear(th *t)
{
    t->ctx[0] = 0;
}

static bool fail_header(th *t, const char *file, int line)
{
    t->failed++;
    t->printed++;
    if (t->printed > t->max_print)
        return false;
    printf("FAIL %s:%d", file, line);
    if (t->ctx[0])
        printf(" [%s]", t->ctx);
    printf(": ");
    return true;
}

bool th_check(th *t, bool cond, const char *file, int line, const char *fmt,
              ...)
{
    if (cond) {
        t->passed++;
        return true;
    }
    if (fail_header(t, file, line)) {
        va_list ap;
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
    return false;
}

void th_note(th *t, const char *fmt, ...)
{
    va_list ap;
    printf("%s: ", t->name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

bool th_check_u64(th *t, const char *file, int line, const char *what,
                  uint64_t expected, uint64_t actual)
{
    return th_check(t, expected == actual, file, line,
                    "%s: expected %llu (0x%llX), actual %llu (0x%llX)", what,
                    (unsigned long long)expected, (unsigned long long)expected,
                    (unsigned long long)actual, (unsigned long long)actual);
}

/* Prints a window of both sequences around the first difference. */
static bool check_seq(th *t, const char *file, int line, const char *what,
                      const void *e, size_t elen, const void *a, size_t alen,
                      size_t unit)
{
    size_t i = 0, common = elen < alen ? elen : alen;
    if (unit == 1) {
        const uint8_t *x = e, *y = a;
        while (i < common && x[i] == y[i])
            i++;
    } else {
        const uint16_t *x = e, *y = a;
        while (i < common && x[i] == y[i])
            i++;
    }
    if (i == common && elen == alen) {
        t->passed++;
        return true;
    }
    if (!fail_header(t, file, line))
        return false;
    size_t from = i > 16 ? i - 16 : 0;
    char eh[512], ah[512];
    if (unit == 1) {
        th_hex(eh, sizeof eh, (const uint8_t *)e + from, elen - from, 48);
        th_hex(ah, sizeof ah, (const uint8_t *)a + from, alen - from, 48);
    } else {
        th_hex16(eh, sizeof eh, (const uint16_t *)e + from, elen - from, 32);
        th_hex16(ah, sizeof ah, (const uint16_t *)a + from, alen - from, 32);
    }
    printf("%s: differ at %s %zu (expected length %zu, actual %zu)\n"
           "    expected [from %zu]: %s\n"
           "    actual   [from %zu]: %s\n",
           what, unit == 1 ? "byte" : "unit", i, elen, alen, from, eh, from,
           ah);
    return false;
}

bool th_check_bytes(th *t, const char *file, int line, const char *what,
                    const uint8_t *expected, size_t expected_len,
                    const uint8_t *actual, size_t actual_len)
{
    return check_seq(t, file, line, what, expected, expected_len, actual,
                     actual_len, 1);
}

bool th_check_units(th *t, const char *file, int line, const char *what,
                    const uint16_t *expected, size_t expected_len,
                    const uint16_t *actual, size_t actual_len)
{
    return check_seq(t, file, line, what, expected, expected_len, actual,
                     actual_len, 2);
}

/* ---- growable buffers ---------------------------------------------------- */

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "harness: out of memory\n");
        abort();
    }
    return q;
}

static void grow(void **p, size_t *cap, size_t need, size_t unit)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    *p = xrealloc(*p, c * unit);
    *cap = c;
}

void th_bytes_put(th_bytes *b, const void *data, size_t n)
{
    void *p = b->p;
    grow(&p, &b->cap, b->len + n, 1);
    b->p = p;
    if (n)
        memcpy(b->p + b->len, data, n);
    b->len += n;
}

void th_bytes_byte(th_bytes *b, uint8_t byte)
{
    th_bytes_put(b, &byte, 1);
}

void th_bytes_str(th_bytes *b, const char *s)
{
    th_bytes_put(b, s, strlen(s));
}

size_t th_utf8_len(uint32_t cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

void th_bytes_cp(th_bytes *b, uint32_t cp)
{
    uint8_t s[4];
    size_t n = th_utf8_len(cp);
    switch (n) {
    case 1:
        s[0] = (uint8_t)cp;
        break;
    case 2:
        s[0] = (uint8_t)(0xC0 | (cp >> 6));
        s[1] = (uint8_t)(0x80 | (cp & 0x3F));
        break;
    case 3:
        s[0] = (uint8_t)(0xE0 | (cp >> 12));
        s[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        s[2] = (uint8_t)(0x80 | (cp & 0x3F));
        break;
    default:
        s[0] = (uint8_t)(0xF0 | (cp >> 18));
        s[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        s[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        s[3] = (uint8_t)(0x80 | (cp & 0x3F));
        break;
    }
    th_bytes_put(b, s, n);
}

void th_bytes_free(th_bytes *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void th_units_put(th_units *u, const uint16_t *data, size_t n)
{
    void *p = u->p;
    grow(&p, &u->cap, u->len + n, sizeof(uint16_t));
    u->p = p;
    if (n)
        memcpy(u->p + u->len, data, n * sizeof(uint16_t));
    u->len += n;
}

void th_units_unit(th_units *u, uint16_t unit)
{
    th_units_put(u, &unit, 1);
}

void th_units_cp(th_units *u, uint32_t cp)
{
    if (cp < 0x10000) {
        th_units_unit(u, (uint16_t)cp);
        return;
    }
    cp -= 0x10000;
    th_units_unit(u, (uint16_t)(0xD800 + (cp >> 10)));
    th_units_unit(u, (uint16_t)(0xDC00 + (cp & 0x3FF)));
}

void th_units_free(th_units *u)
{
    free(u->p);
    memset(u, 0, sizeof *u);
}

bool th_utf8_valid(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t b = p[i];
        size_t need;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b < 0x80) {
            i++;
            continue;
        } else if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            if (b == 0xE0)
                lo = 0xA0;
            if (b == 0xED)
                hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            if (b == 0xF0)
                lo = 0x90;
            if (b == 0xF4)
                hi = 0x8F;
        } else {
            return false;
        }
        if (n - i - 1 < need)
            return false;
        if (p[i + 1] < lo || p[i + 1] > hi)
            return false;
        for (size_t k = 2; k <= need; k++)
            if (p[i + k] < 0x80 || p[i + k] > 0xBF)
                return false;
        i += need + 1;
    }
    return true;
}

bool th_utf16_valid(const uint16_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= 0xDC00 && p[i] <= 0xDFFF)
            return false;
        if (p[i] >= 0xD800 && p[i] <= 0xDBFF) {
            if (i + 1 >= n || p[i + 1] < 0xDC00 || p[i + 1] > 0xDFFF)
                return false;
            i++;
        }
    }
    return true;
}

void th_hex(char *out, size_t out_size, const uint8_t *p, size_t n,
            size_t max)
{
    size_t o = 0;
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == max) {
            snprintf(out + o, out_size - o, " ...");
            return;
        }
        if (o + 4 >= out_size)
            return;
        o += (size_t)snprintf(out + o, out_size - o, i ? " %02X" : "%02X",
                              p[i]);
    }
    if (n == 0)
        snprintf(out, out_size, "(empty)");
}

void th_hex16(char *out, size_t out_size, const uint16_t *p, size_t n,
              size_t max)
{
    size_t o = 0;
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == max) {
            snprintf(out + o, out_size - o, " ...");
            return;
        }
        if (o + 6 >= out_size)
            return;
        o += (size_t)snprintf(out + o, out_size - o, i ? " %04X" : "%04X",
                              p[i]);
    }
    if (n == 0)
        snprintf(out, out_size, "(empty)");
}

/* ---- specs ------------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads one token starting at *s (after spaces). Returns its length, 0 at
 * the end. */
static size_t next_token(const char **s)
{
    while (**s == ' ')
        (*s)++;
    const char *p = *s;
    if (*p == 0)
        return 0;
    if (*p == '\'') {
        const char *q = strchr(p + 1, '\'');
        if (!q)
            return strlen(p);
        return (size_t)(q - p) + 1;
    }
    while (*p && *p != ' ')
        p++;
    return (size_t)(p - *s);
}

static bool parse_hex_run(const char *s, size_t n, uint32_t *v)
{
    uint32_t x = 0;
    if (n == 0 || n > 8)
        return false;
    for (size_t i = 0; i < n; i++) {
        int h = hexval(s[i]);
        if (h < 0)
            return false;
        x = x * 16 + (uint32_t)h;
    }
    *v = x;
    return true;
}

static bool parse_dec_run(const char *s, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *v = x;
    return true;
}

static bool quoted(const char *s, size_t n)
{
    return n >= 2 && s[0] == '\'' && s[n - 1] == '\'';
}

bool th_parse_bytes(const char *spec, th_bytes *out)
{
    const char *s = spec;
    size_t n;
    while ((n = next_token(&s)) != 0) {
        if (quoted(s, n)) {
            th_bytes_put(out, s + 1, n - 2);
        } else {
            if (n % 2)
                return false;
            for (size_t i = 0; i < n; i += 2) {
                uint32_t v;
                if (!parse_hex_run(s + i, 2, &v))
                    return false;
                th_bytes_byte(out, (uint8_t)v);
            }
        }
        s += n;
    }
    return true;
}

bool th_parse_units(const char *spec, th_units *out)
{
    const char *s = spec;
    size_t n;
    while ((n = next_token(&s)) != 0) {
        if (quoted(s, n)) {
            for (size_t i = 1; i + 1 < n; i++)
                th_units_unit(out, (uint8_t)s[i]);
        } else {
            uint32_t v;
            if (n > 4 || !parse_hex_run(s, n, &v))
                return false;
            th_units_unit(out, (uint16_t)v);
        }
        s += n;
    }
    return true;
}

static void x_item(th_expect *x, uint32_t v)
{
    void *p = x->items;
    grow(&p, &x->cap, x->n + 1, sizeof(uint32_t));
    x->items = p;
    x->items[x->n++] = v;
}

static void x_err(th_expect *x, uint32_t cp, uint64_t off, uint64_t len)
{
    void *p = x->errs;
    grow(&p, &x->errcap, x->nerr + 1, sizeof(th_xerr));
    x->errs = p;
    x->errs[x->nerr].code_point = cp;
    x->errs[x->nerr].offset = off;
    x->errs[x->nerr].length = (size_t)len;
    x_item(x, TH_ERR_FLAG | (uint32_t)x->nerr);
    x->nerr++;
}

/* "!OFF+LEN" (decode) or "!CP@OFF+LEN" (encode) */
static bool parse_err_token(th_expect *x, const char *s, size_t n, bool enc)
{
    uint32_t cp = 0;
    uint64_t off, len;
    const char *p = s + 1, *end = s + n;
    if (enc) {
        const char *at = memchr(p, '@', (size_t)(end - p));
        if (!at || !parse_hex_run(p, (size_t)(at - p), &cp))
            return false;
        p = at + 1;
    }
    const char *plus = memchr(p, '+', (size_t)(end - p));
    if (!plus || !parse_dec_run(p, (size_t)(plus - p), &off) ||
        !parse_dec_run(plus + 1, (size_t)(end - plus - 1), &len))
        return false;
    x_err(x, cp, off, len);
    return true;
}

static bool expect_parse(th_expect *x, const char *spec, bool enc)
{
    const char *s = spec;
    size_t n;
    memset(x, 0, sizeof *x);
    while ((n = next_token(&s)) != 0) {
        if (quoted(s, n)) {
            for (size_t i = 1; i + 1 < n; i++)
                x_item(x, (uint8_t)s[i]);
        } else if (s[0] == '!') {
            if (!parse_err_token(x, s, n, enc))
                return false;
        } else if (enc) {
            if (n % 2)
                return false;
            for (size_t i = 0; i < n; i += 2) {
                uint32_t v;
                if (!parse_hex_run(s + i, 2, &v))
                    return false;
                x_item(x, v);
            }
        } else {
            uint32_t v;
            if (!parse_hex_run(s, n, &v) || v > 0x10FFFF ||
                (v >= 0xD800 && v <= 0xDFFF))
                return false;
            x_item(x, v);
        }
        s += n;
    }
    return true;
}

bool th_expect_parse_decode(th_expect *x, const char *spec)
{
    return expect_parse(x, spec, false);
}

bool th_expect_parse_encode(th_expect *x, const char *spec)
{
    return expect_parse(x, spec, true);
}

void th_expect_free(th_expect *x)
{
    free(x->items);
    free(x->errs);
    memset(x, 0, sizeof *x);
}

/* ---- data files ---------------------------------------------------------- */

const char *th_data_dir(void)
{
    const char *d = getenv("WENC_DATA_DIR");
    return d && *d ? d : "../shared/whatwg";
}

uint8_t *th_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    th_bytes b = {0};
    uint8_t chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        th_bytes_put(&b, chunk, n);
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        th_bytes_free(&b);
        return NULL;
    }
    th_bytes_byte(&b, 0); /* NUL terminator for text parsing, not counted */
    *len = b.len - 1;
    return b.p;
}

uint8_t *th_read_data_file(const char *name, size_t *len)
{
    const char *dir = th_data_dir();
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = xrealloc(NULL, n);
    snprintf(path, n, "%s/%s", dir, name);
    uint8_t *data = th_read_file(path, len);
    free(path);
    return data;
}

/* §5 Indexes: lines split on LF; empty lines and lines starting with '#'
 * ignored; fields split on TAB; pointer decimal, code point 0x-hex. */
bool th_index_load(th_index *ix, const char *name)
{
    size_t len;
    memset(ix, 0, sizeof *ix);
    uint8_t *data = th_read_data_file(name, &len);
    if (!data)
        return false;
    size_t cap = 0;
    bool ok = true;
    const char *p = (const char *)data, *end = p + len;
    while (p < end && ok) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if (le > p && *p != '#') {
            /* pointer: optional spaces, decimal digits */
            const char *q = p;
            while (q < le && *q == ' ')
                q++;
            uint64_t ptr = 0;
            const char *d = q;
            while (q < le && *q >= '0' && *q <= '9')
                ptr = ptr * 10 + (uint64_t)(*q++ - '0');
            if (q == d || q >= le || *q != '\t' || ptr > 100000) {
                ok = false;
                break;
            }
            q++;
            if (le - q < 3 || q[0] != '0' || (q[1] != 'x' && q[1] != 'X')) {
                ok = false;
                break;
            }
            q += 2;
            uint32_t cp = 0;
            const char *h = q;
            while (q < le && hexval(*q) >= 0)
                cp = cp * 16 + (uint32_t)hexval(*q++);
            if (q == h || cp > 0x10FFFF) {
                ok = false;
                break;
            }
            if (ptr >= cap) {
                size_t ncap = cap ? cap : 256;
                while (ncap <= ptr)
                    ncap *= 2;
                ix->cp = xrealloc(ix->cp, ncap * sizeof(uint32_t));
                for (size_t i = cap; i < ncap; i++)
                    ix->cp[i] = TH_NO_CP;
                cap = ncap;
            }
            if (ix->cp[ptr] != TH_NO_CP) {
                ok = false; /* a pointer listed twice */
                break;
            }
            ix->cp[ptr] = cp;
            if (ptr + 1 > ix->size)
                ix->size = (size_t)ptr + 1;
            ix->count++;
        }
        p = le + 1;
    }
    free(data);
    if (!ok || ix->count == 0) {
        th_index_free(ix);
        return false;
    }
    return true;
}

void th_index_free(th_index *ix)
{
    free(ix->cp);
    memset(ix, 0, sizeof *ix);
}

uint32_t th_index_cp(const th_index *ix, size_t pointer)
{
    return pointer < ix->size ? ix->cp[pointer] : TH_NO_CP;
}

long th_index_pointer(const th_index *ix, uint32_t cp)
{
    for (size_t i = 0; i < ix->size; i++)
        if (ix->cp[i] == cp)
            return (long)i;
    return -1;
}

/* ---- encodings.json ---------------------------------------------------------
 * A tokenizer for strings and punctuation; objects are tracked on a stack.
 * When an object closes that had both a "name" string and a "labels" array,
 * its labels are emitted with that name (the keys may come in any order). */

typedef struct json_frame {
    char name[32];
    bool has_name;
    size_t labels_from; /* index in pending */
} json_frame;

static bool json_string(const char **p, const char *end, char *out,
                        size_t out_size)
{
    size_t o = 0;
    (*p)++; /* opening quote */
    while (*p < end && **p != '"') {
        char c = **p;
        if (c == '\\') {
            (*p)++;
            if (*p >= end)
                return false;
            c = **p;
            if (c == 'u') {
                uint32_t v;
                if (end - *p < 5 || !parse_hex_run(*p + 1, 4, &v) || v > 0x7F)
                    return false;
                c = (char)v;
                *p += 4;
            } else if (c == 'n') {
                c = '\n';
            } else if (c == 't') {
                c = '\t';
            } else if (c != '"' && c != '\\' && c != '/') {
                return false;
            }
        }
        if (o + 1 >= out_size)
            return false;
        out[o++] = c;
        (*p)++;
    }
    if (*p >= end)
        return false;
    (*p)++; /* closing quote */
    out[o] = 0;
    return true;
}

bool th_labels_load(th_labels *l)
{
    size_t len;
    memset(l, 0, sizeof *l);
    uint8_t *data = th_read_data_file("encodings.json", &len);
    if (!data)
        return false;
    const char *p = (const char *)data, *end = p + len;
    json_frame stack[16];
    int depth = 0;
    char key[64] = "";      /* last key seen in the current object */
    bool in_labels = false; /* inside the "labels" array */
    bool after_colon = false;
    char (*pending)[64] = NULL;
    size_t npending = 0, pending_cap = 0, items_cap = 0, names_cap = 0;
    bool ok = true;
    while (p < end && ok) {
        char c = *p;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',') {
            p++;
        } else if (c == '{') {
            if (depth == 16) {
                ok = false;
                break;
            }
            memset(&stack[depth], 0, sizeof stack[depth]);
            stack[depth].labels_from = npending;
            depth++;
            after_colon = false;
            key[0] = 0;
            p++;
        } else if (c == '}') {
            if (depth == 0) {
                ok = false;
                break;
            }
            json_frame *f = &stack[--depth];
            if (f->has_name && npending > f->labels_from) {
                for (size_t i = f->labels_from; i < npending; i++) {
                    void *q = l->items;
                    grow(&q, &items_cap, l->count + 1, sizeof(th_label));
                    l->items = q;
                    memcpy(l->items[l->count].name, f->name, 32);
                    memcpy(l->items[l->count].label, pending[i], 64);
                    l->count++;
                }
                void *q = l->names;
                grow(&q, &names_cap, l->name_count + 1, 32);
                l->names = q;
                memcpy(l->names[l->name_count++], f->name, 32);
            }
            npending = f->labels_from; /* this object's labels are done */
            after_colon = false;
            p++;
        } else if (c == '[') {
            in_labels = after_colon && strcmp(key, "labels") == 0;
            after_colon = false;
            p++;
        } else if (c == ']') {
            in_labels = false;
            p++;
        } else if (c == ':') {
            after_colon = true;
            p++;
        } else if (c == '"') {
            char s[64];
            if (!json_string(&p, end, s, sizeof s)) {
                ok = false;
                break;
            }
            if (in_labels) {
                void *q = pending;
                grow(&q, &pending_cap, npending + 1, 64);
                pending = q;
                memcpy(pending[npending++], s, 64);
            } else if (after_colon) {
                if (strcmp(key, "name") == 0 && depth > 0) {
                    if (strlen(s) >= 32) {
                        ok = false;
                        break;
                    }
                    memcpy(stack[depth - 1].name, s, 32);
                    stack[depth - 1].has_name = true;
                }
                after_colon = false;
            } else {
                memcpy(key, s, sizeof key);
            }
        } else {
            ok = false; /* numbers, true/false/null: not in this file */
        }
    }
    free(pending);
    free(data);
    if (!ok || depth != 0 || l->count == 0) {
        th_labels_free(l);
        return false;
    }
    return true;
}

void th_labels_free(th_labels *l)
{
    free(l->items);
    free(l->names);
    memset(l, 0, sizeof *l);
}

/* ---- PRNG ------------------------------------------------------------------ */

void th_rng_seed(th_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t th_rng_next(th_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

size_t th_rng_below(th_rng *r, size_t n)
{
    return (size_t)(th_rng_next(r) % (uint64_t)n);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

size_t th_random_splits(th_rng *r, size_t n, size_t *splits, size_t max)
{
    size_t limit = n + 4 < max ? n + 4 : max;
    size_t k = th_rng_below(r, limit + 1);
    for (size_t i = 0; i < k; i++)
        splits[i] = th_rng_below(r, n + 1);
    qsort(splits, k, sizeof *splits, cmp_size);
    return k;
}

/* ---- drivers --------------------------------------------------------------- */

static void problem(char *buf, size_t size, const char *fmt, ...)
    TH_PRINTF(3, 4);
static void problem(char *buf, size_t size, const char *fmt, ...)
{
    if (buf[0])
        return; /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

#define PROBLEM(r, ...) problem((r)->problem, sizeof (r)->problem, __VA_ARGS__)

static bool splits_ok(const size_t *s, size_t k, size_t n)
{
    for (size_t i = 0; i < k; i++)
        if (s[i] > n || (i > 0 && s[i] < s[i - 1]))
            return false;
    return true;
}

/* An output area whose end is the end of a heap block, so that writing
 * past the capacity is caught by ASan. */
typedef struct out_area {
    uint8_t *block;
    size_t size; /* bytes */
} out_area;

static void *area_for(out_area *a, size_t bytes)
{
    if (bytes > a->size) {
        free(a->block);
        a->block = xrealloc(NULL, bytes);
        a->size = bytes;
    }
    if (a->block == NULL)
        return NULL; /* zero capacity before any allocation */
    return a->block + (a->size - bytes);
}

bool th_decode(const th_dec_opts *o, const uint8_t *src, size_t n,
               th_dec_result *r)
{
    memset(r, 0, sizeof *r);
    r->encoding = WENC_INVALID;
    if (!splits_ok(o->splits, o->n_splits, n)) {
        PROBLEM(r, "harness: bad split list");
        return false;
    }
    wenc_decoder dec;
    if (!wenc_decoder_init(&dec, o->id, o->bom, o->err)) {
        PROBLEM(r, "wenc_decoder_init(%d, %d, %d) failed", (int)o->id,
                (int)o->bom, (int)o->err);
        return false;
    }
    const bool fatal = o->err == WENC_ERRORS_FATAL;
    const size_t unit = o->utf16 ? 2 : 1;
    const size_t progress_cap = o->utf16 ? 2 : 4;
    out_area area = {0};
    uint64_t pos = 0;
    size_t out_total = 0;
    unsigned long guard_max = 1000 + 40ul * (unsigned long)(n + o->n_splits);
    for (size_t c = 0; c <= o->n_splits; c++) {
        size_t at = c == 0 ? 0 : o->splits[c - 1];
        size_t cend = c < o->n_splits ? o->splits[c] : n;
        bool last = c == o->n_splits;
        size_t extra = 0;
        for (;;) {
            if (++r->calls > guard_max) {
                PROBLEM(r, "no end after %lu calls", r->calls);
                goto done;
            }
            size_t rem = cend - at;
            size_t helper = o->utf16 ? wenc_decoder_max_utf16_len(&dec, rem)
                                     : wenc_decoder_max_utf8_len(&dec, rem);
            size_t cap = o->capacity ? o->capacity + extra : helper;
            if (cap > ((size_t)1 << 28)) {
                PROBLEM(r, "max-length helper gave %zu for %zu bytes", helper,
                        rem);
                goto done;
            }
            void *dst = area_for(&area, cap * unit);
            size_t in_len = rem, out_len = cap;
            const uint8_t *sp = rem ? src + at : NULL;
            wenc_status st;
            if (o->utf16)
                st = wenc_decode_to_utf16(&dec, sp, &in_len,
                                          cap ? dst : NULL, &out_len, last);
            else
                st = wenc_decode_to_utf8(&dec, sp, &in_len, cap ? dst : NULL,
                                         &out_len, last);
            if (in_len > rem || out_len > cap) {
                PROBLEM(r, "call %lu: consumed %zu of %zu, wrote %zu of %zu",
                        r->calls, in_len, rem, out_len, cap);
                goto done;
            }
            if (out_len > helper)
                PROBLEM(r,
                        "call %lu: wrote %zu units, more than the max-length "
                        "helper's %zu for %zu bytes",
                        r->calls, out_len, helper, rem);
            if (o->utf16) {
                if (!th_utf16_valid(dst, out_len))
                    PROBLEM(r, "call %lu: output not well-formed UTF-16",
                            r->calls);
                th_units_put(&r->out16, dst, out_len);
            } else {
                if (!th_utf8_valid(dst, out_len))
                    PROBLEM(r, "call %lu: output not well-formed UTF-8",
                            r->calls);
                th_bytes_put(&r->out8, dst, out_len);
            }
            out_total += out_len;
            at += in_len;
            pos += in_len;
            if (st == WENC_INPUT_EMPTY) {
                if (at != cend)
                    PROBLEM(r,
                            "call %lu: WENC_INPUT_EMPTY but %zu bytes not "
                            "consumed",
                            r->calls, cend - at);
                break;
            } else if (st == WENC_OUTPUT_FULL) {
                if (cap >= helper)
                    PROBLEM(r,
                            "call %lu: WENC_OUTPUT_FULL with capacity %zu >= "
                            "max-length helper %zu",
                            r->calls, cap, helper);
                if (in_len == 0 && out_len == 0) {
                    if (cap >= progress_cap || !o->capacity) {
                        PROBLEM(r,
                                "call %lu: WENC_OUTPUT_FULL without progress "
                                "at capacity %zu",
                                r->calls, cap);
                        goto done;
                    }
                    extra++;
                } else {
                    extra = 0;
                }
            } else if (st == WENC_ERROR) {
                wenc_decode_error e;
                extra = 0;
                if (!fatal)
                    PROBLEM(r, "call %lu: WENC_ERROR in replacement mode",
                            r->calls);
                if (!wenc_decoder_error(&dec, &e)) {
                    PROBLEM(r,
                            "call %lu: WENC_ERROR but wenc_decoder_error() "
                            "false",
                            r->calls);
                    goto done;
                }
                if (e.length < 1 || e.length > WENC_MAX_MALFORMED ||
                    e.offset + e.length > pos) {
                    PROBLEM(r,
                            "call %lu: error offset %llu length %zu beyond "
                            "the %llu bytes consumed",
                            r->calls, (unsigned long long)e.offset, e.length,
                            (unsigned long long)pos);
                }
                if (e.length > WENC_MAX_MALFORMED)
                    e.length = WENC_MAX_MALFORMED;
                if (r->n_errors > 0) {
                    const th_derr *pe = &r->errors[r->n_errors - 1];
                    if (e.offset < pe->offset + pe->length)
                        PROBLEM(r,
                                "call %lu: error at offset %llu overlaps the "
                                "previous one",
                                r->calls, (unsigned long long)e.offset);
                }
                void *q = r->errors;
                grow(&q, &r->errors_cap, r->n_errors + 1, sizeof(th_derr));
                r->errors = q;
                th_derr *d = &r->errors[r->n_errors++];
                memset(d, 0, sizeof *d);
                d->offset = e.offset;
                d->length = e.length;
                memcpy(d->bytes, e.bytes, e.length);
                d->position = pos;
                d->out_pos = out_total;
                if (r->n_errors > n + 8) {
                    PROBLEM(r, "more errors than input bytes");
                    goto done;
                }
            } else {
                PROBLEM(r, "call %lu: invalid status %d", r->calls, (int)st);
                goto done;
            }
        }
    }
    r->encoding = wenc_decoder_encoding(&dec);
done:
    free(area.block);
    return r->problem[0] == 0;
}

void th_dec_result_free(th_dec_result *r)
{
    th_bytes_free(&r->out8);
    th_units_free(&r->out16);
    free(r->errors);
    memset(r, 0, sizeof *r);
}

bool th_encode(const th_enc_opts *o, const void *src, size_t n,
               th_enc_result *r)
{
    memset(r, 0, sizeof *r);
    r->encoding = WENC_INVALID;
    if (!splits_ok(o->splits, o->n_splits, n)) {
        PROBLEM(r, "harness: bad split list");
        return false;
    }
    wenc_encoder enc;
    if (!wenc_encoder_init(&enc, o->id, o->err)) {
        PROBLEM(r, "wenc_encoder_init(%d, %d) failed", (int)o->id,
                (int)o->err);
        return false;
    }
    r->encoding = wenc_encoder_encoding(&enc);
    const bool fatal = o->err == WENC_ERRORS_FATAL;
    out_area area = {0};
    uint64_t pos = 0;
    unsigned long guard_max = 1000 + 60ul * (unsigned long)(n + o->n_splits);
    for (size_t c = 0; c <= o->n_splits; c++) {
        size_t at = c == 0 ? 0 : o->splits[c - 1];
        size_t cend = c < o->n_splits ? o->splits[c] : n;
        bool last = c == o->n_splits;
        size_t extra = 0;
        for (;;) {
            if (++r->calls > guard_max) {
                PROBLEM(r, "no end after %lu calls", r->calls);
                goto done;
            }
            size_t rem = cend - at;
            size_t helper = wenc_encoder_max_len(&enc, rem);
            size_t cap = o->capacity ? o->capacity + extra : helper;
            if (cap > ((size_t)1 << 28)) {
                PROBLEM(r, "max-length helper gave %zu for %zu units", helper,
                        rem);
                goto done;
            }
            uint8_t *dst = area_for(&area, cap);
            size_t in_len = rem, out_len = cap;
            wenc_status st;
            if (o->from_utf16)
                st = wenc_encode_from_utf16(
                    &enc, rem ? (const uint16_t *)src + at : NULL, &in_len,
                    cap ? dst : NULL, &out_len, last);
            else
                st = wenc_encode_from_utf8(
                    &enc, rem ? (const uint8_t *)src + at : NULL, &in_len,
                    cap ? dst : NULL, &out_len, last);
            if (in_len > rem || out_len > cap) {
                PROBLEM(r, "call %lu: consumed %zu of %zu, wrote %zu of %zu",
                        r->calls, in_len, rem, out_len, cap);
                goto done;
            }
            if (out_len > helper)
                PROBLEM(r,
                        "call %lu: wrote %zu bytes, more than the max-length "
                        "helper's %zu for %zu units",
                        r->calls, out_len, helper, rem);
            th_bytes_put(&r->out, dst, out_len);
            at += in_len;
            pos += in_len;
            if (st == WENC_INPUT_EMPTY) {
                if (at != cend)
                    PROBLEM(r,
                            "call %lu: WENC_INPUT_EMPTY but %zu units not "
                            "consumed",
                            r->calls, cend - at);
                break;
            } else if (st == WENC_OUTPUT_FULL) {
                if (cap >= helper)
                    PROBLEM(r,
                            "call %lu: WENC_OUTPUT_FULL with capacity %zu >= "
                            "max-length helper %zu",
                            r->calls, cap, helper);
                if (in_len == 0 && out_len == 0) {
                    if (cap >= 4 || !o->capacity) {
                        PROBLEM(r,
                                "call %lu: WENC_OUTPUT_FULL without progress "
                                "at capacity %zu",
                                r->calls, cap);
                        goto done;
                    }
                    extra++;
                } else {
                    extra = 0;
                }
            } else if (st == WENC_ERROR) {
                wenc_encode_error e;
                extra = 0;
                if (!fatal)
                    PROBLEM(r, "call %lu: WENC_ERROR in html mode", r->calls);
                if (!wenc_encoder_error(&enc, &e)) {
                    PROBLEM(r,
                            "call %lu: WENC_ERROR but wenc_encoder_error() "
                            "false",
                            r->calls);
                    goto done;
                }
                if (e.length < 1 || e.length > 4 || e.offset + e.length > pos)
                    PROBLEM(r,
                            "call %lu: error offset %llu length %zu beyond "
                            "the %llu units consumed",
                            r->calls, (unsigned long long)e.offset, e.length,
                            (unsigned long long)pos);
                void *q = r->errors;
                grow(&q, &r->errors_cap, r->n_errors + 1, sizeof(th_eerr));
                r->errors = q;
                th_eerr *d = &r->errors[r->n_errors++];
                d->code_point = e.code_point;
                d->offset = e.offset;
                d->length = e.length;
                d->position = pos;
                d->out_pos = r->out.len;
                if (r->n_errors > n + 8) {
                    PROBLEM(r, "more errors than input units");
                    goto done;
                }
            } else {
                PROBLEM(r, "call %lu: invalid status %d", r->calls, (int)st);
                goto done;
            }
        }
    }
    r->encoding = wenc_encoder_encoding(&enc);
done:
    free(area.block);
    return r->problem[0] == 0;
}

void th_enc_result_free(th_enc_result *r)
{
    th_bytes_free(&r->out);
    free(r->errors);
    memset(r, 0, sizeof *r);
}

/* ---- comparisons ------------------------------------------------------------- */

void th_check_decode_result(th *t, const char *file, int line,
                            const th_expect *x, const uint8_t *src, size_t n,
                            bool fatal, bool utf16, bool one_call,
                            const th_dec_result *r)
{
    th_bytes e8 = {0};
    th_units e16 = {0};
    size_t nerr = 0;
    char what[64];
    th_check(t, r->problem[0] == 0, file, line, "%s", r->problem);
    for (size_t i = 0; i < x->n; i++) {
        uint32_t v = x->items[i];
        if (v & TH_ERR_FLAG) {
            const th_xerr *xe = &x->errs[v & ~TH_ERR_FLAG];
            if (!fatal) {
                th_bytes_cp(&e8, 0xFFFD);
                th_units_cp(&e16, 0xFFFD);
                continue;
            }
            if (nerr < r->n_errors) {
                const th_derr *d = &r->errors[nerr];
                snprintf(what, sizeof what, "error %zu offset", nerr);
                th_check_u64(t, file, line, what, xe->offset, d->offset);
                snprintf(what, sizeof what, "error %zu length", nerr);
                th_check_u64(t, file, line, what, xe->length, d->length);
                snprintf(what, sizeof what, "error %zu output position",
                         nerr);
                th_check_u64(t, file, line, what, utf16 ? e16.len : e8.len,
                             d->out_pos);
                if (xe->offset + xe->length <= n &&
                    d->length <= WENC_MAX_MALFORMED) {
                    snprintf(what, sizeof what, "error %zu bytes", nerr);
                    th_check_bytes(t, file, line, what, src + xe->offset,
                                   xe->length, d->bytes, d->length);
                }
                if (one_call) {
                    snprintf(what, sizeof what,
                             "error %zu: bytes consumed when reported", nerr);
                    th_check_u64(t, file, line, what, xe->offset + xe->length,
                                 d->position);
                }
            }
            nerr++;
        } else {
            th_bytes_cp(&e8, v);
            th_units_cp(&e16, v);
        }
    }
    th_check_u64(t, file, line, "number of errors", fatal ? nerr : 0,
                 r->n_errors);
    if (utf16)
        th_check_units(t, file, line, "UTF-16 output", e16.p, e16.len,
                       r->out16.p, r->out16.len);
    else
        th_check_bytes(t, file, line, "UTF-8 output", e8.p, e8.len,
                       r->out8.p, r->out8.len);
    th_bytes_free(&e8);
    th_units_free(&e16);
}

void th_check_encode_result(th *t, const char *file, int line,
                            const th_expect *x, bool fatal, bool one_call,
                            const th_enc_result *r)
{
    th_bytes e = {0};
    size_t nerr = 0;
    char what[64];
    th_check(t, r->problem[0] == 0, file, line, "%s", r->problem);
    for (size_t i = 0; i < x->n; i++) {
        uint32_t v = x->items[i];
        if (v & TH_ERR_FLAG) {
            const th_xerr *xe = &x->errs[v & ~TH_ERR_FLAG];
            if (!fatal) {
                char ncr[16];
                snprintf(ncr, sizeof ncr, "&#%lu;",
                         (unsigned long)xe->code_point);
                th_bytes_str(&e, ncr);
                continue;
            }
            if (nerr < r->n_errors) {
                const th_eerr *d = &r->errors[nerr];
                snprintf(what, sizeof what, "error %zu code point", nerr);
                th_check_u64(t, file, line, what, xe->code_point,
                             d->code_point);
                snprintf(what, sizeof what, "error %zu offset", nerr);
                th_check_u64(t, file, line, what, xe->offset, d->offset);
                snprintf(what, sizeof what, "error %zu length", nerr);
                th_check_u64(t, file, line, what, xe->length, d->length);
                snprintf(what, sizeof what, "error %zu output position",
                         nerr);
                th_check_u64(t, file, line, what, e.len, d->out_pos);
                if (one_call) {
                    snprintf(what, sizeof what,
                             "error %zu: units consumed when reported", nerr);
                    th_check_u64(t, file, line, what, xe->offset + xe->length,
                                 d->position);
                }
            }
            nerr++;
        } else {
            th_bytes_byte(&e, (uint8_t)v);
        }
    }
    th_check_u64(t, file, line, "number of errors", fatal ? nerr : 0,
                 r->n_errors);
    th_check_bytes(t, file, line, "encoder output", e.p, e.len, r->out.p,
                   r->out.len);
    th_bytes_free(&e);
}

bool th_same_decode(th *t, const char *file, int line, const char *what,
                    const th_dec_result *ref, const th_dec_result *r)
{
    bool same = r->problem[0] == 0 && ref->encoding == r->encoding &&
                ref->n_errors == r->n_errors &&
                ref->out8.len == r->out8.len &&
                ref->out16.len == r->out16.len &&
                (ref->out8.len == 0 ||
                 memcmp(ref->out8.p, r->out8.p, ref->out8.len) == 0) &&
                (ref->out16.len == 0 ||
                 memcmp(ref->out16.p, r->out16.p, ref->out16.len * 2) == 0);
    for (size_t i = 0; same && i < r->n_errors; i++) {
        const th_derr *a = &ref->errors[i], *b = &r->errors[i];
        same = a->offset == b->offset && a->length == b->length &&
               a->out_pos == b->out_pos &&
               memcmp(a->bytes, b->bytes, a->length) == 0;
    }
    if (same) {
        t->passed++;
        return true;
    }
    th_check(t, false, file, line, "%s: differs from the one-call result%s%s",
             what, r->problem[0] ? ": " : "", r->problem);
    if (t->printed <= t->max_print) {
        char a[400], b[400];
        if (ref->out16.len || r->out16.len) {
            th_hex16(a, sizeof a, ref->out16.p, ref->out16.len, 48);
            th_hex16(b, sizeof b, r->out16.p, r->out16.len, 48);
        } else {
            th_hex(a, sizeof a, ref->out8.p, ref->out8.len, 64);
            th_hex(b, sizeof b, r->out8.p, r->out8.len, 64);
        }
        printf("    one call: %s (%zu errors, encoding %d)\n", a,
               ref->n_errors, (int)ref->encoding);
        printf("    this run: %s (%zu errors, encoding %d)\n", b, r->n_errors,
               (int)r->encoding);
        for (size_t i = 0; i < ref->n_errors || i < r->n_errors; i++) {
            if (i < ref->n_errors)
                printf("    one-call error %zu: offset %llu length %zu out %zu\n",
                       i, (unsigned long long)ref->errors[i].offset,
                       ref->errors[i].length, ref->errors[i].out_pos);
            if (i < r->n_errors)
                printf("    this-run error %zu: offset %llu length %zu out %zu\n",
                       i, (unsigned long long)r->errors[i].offset,
                       r->errors[i].length, r->errors[i].out_pos);
        }
    }
    return false;
}

bool th_same_encode(th *t, const char *file, int line, const char *what,
                    const th_enc_result *ref, const th_enc_result *r)
{
    bool same = r->problem[0] == 0 && ref->encoding == r->encoding &&
                ref->n_errors == r->n_errors && ref->out.len == r->out.len &&
                (ref->out.len == 0 ||
                 memcmp(ref->out.p, r->out.p, ref->out.len) == 0);
    for (size_t i = 0; same && i < r->n_errors; i++) {
        const th_eerr *a = &ref->errors[i], *b = &r->errors[i];
        same = a->code_point == b->code_point && a->offset == b->offset &&
               a->length == b->length && a->out_pos == b->out_pos;
    }
    if (same) {
        t->passed++;
        return true;
    }
    th_check(t, false, file, line, "%s: differs from the one-call result%s%s",
             what, r->problem[0] ? ": " : "", r->problem);
    if (t->printed <= t->max_print) {
        char a[400], b[400];
        th_hex(a, sizeof a, ref->out.p, ref->out.len, 64);
        th_hex(b, sizeof b, r->out.p, r->out.len, 64);
        printf("    one call: %s (%zu errors)\n", a, ref->n_errors);
        printf("    this run: %s (%zu errors)\n", b, r->n_errors);
        for (size_t i = 0; i < ref->n_errors || i < r->n_errors; i++) {
            if (i < ref->n_errors)
                printf("    one-call error %zu: U+%04lX offset %llu length %zu "
                       "out %zu\n",
                       i, (unsigned long)ref->errors[i].code_point,
                       (unsigned long long)ref->errors[i].offset,
                       ref->errors[i].length, ref->errors[i].out_pos);
            if (i < r->n_errors)
                printf("    this-run error %zu: U+%04lX offset %llu length %zu "
                       "out %zu\n",
                       i, (unsigned long)r->errors[i].code_point,
                       (unsigned long long)r->errors[i].offset,
                       r->errors[i].length, r->errors[i].out_pos);
        }
    }
    return false;
}

static const char *bom_name(wenc_bom_mode m)
{
    return m == WENC_BOM_SNIFF ? "sniff" : m == WENC_BOM_STRIP ? "strip" : "keep";
}

void th_check_decode_raw(th *t, const char *file, int line, wenc_id id,
                         wenc_bom_mode bom, const uint8_t *src, size_t n,
                         const th_expect *x, wenc_id expect_encoding)
{
    /* one byte per call, with an empty call before each byte and after the
     * last: splits 0,0,1,1,...,n,n */
    size_t *splits = xrealloc(NULL, (2 * n + 2) * sizeof *splits);
    for (size_t i = 0; i <= n; i++)
        splits[2 * i] = splits[2 * i + 1] = i;
    char saved[sizeof t->ctx];
    memcpy(saved, t->ctx, sizeof saved);
    char in_hex[200];
    th_hex(in_hex, sizeof in_hex, src, n, 40);
    for (int fatal = 0; fatal < 2; fatal++) {
        for (int utf16 = 0; utf16 < 2; utf16++) {
            for (int split = 0; split < 2; split++) {
                th_dec_opts o = {id, bom, fatal ? WENC_ERRORS_FATAL
                                                : WENC_ERRORS_REPLACEMENT,
                                 utf16 != 0, split ? splits : NULL,
                                 split ? 2 * n + 2 : 0, 0};
                th_dec_result r;
                th_ctx(t, "%s%sdecode %s [%s] bom=%s %s to %s%s",
                       saved, saved[0] ? "; " : "", wenc_name(id), in_hex,
                       bom_name(bom), fatal ? "fatal" : "replacement",
                       utf16 ? "UTF-16" : "UTF-8",
                       split ? ", byte per call" : ", one call");
                th_decode(&o, src, n, &r);
                th_check_decode_result(t, file, line, x, src, n, fatal != 0,
                                       utf16 != 0, split == 0, &r);
                if (expect_encoding != WENC_INVALID)
                    th_check_u64(t, file, line, "wenc_decoder_encoding",
                                 (uint64_t)expect_encoding,
                                 (uint64_t)r.encoding);
                th_dec_result_free(&r);
            }
        }
    }
    memcpy(t->ctx, saved, sizeof saved);
    free(splits);
}

void th_check_decode_at(th *t, const char *file, int line, wenc_id id,
                        wenc_bom_mode bom, const char *in, const char *expect,
                        wenc_id expect_encoding)
{
    th_bytes src = {0};
    th_expect x;
    memset(&x, 0, sizeof x);
    if (!th_parse_bytes(in, &src) || !th_expect_parse_decode(&x, expect)) {
        th_check(t, false, file, line, "test bug: bad spec [%s] / [%s]", in,
                 expect);
        th_bytes_free(&src);
        th_expect_free(&x);
        return;
    }
    th_check_decode_raw(t, file, line, id, bom, src.p, src.len, &x,
                        expect_encoding);
    th_bytes_free(&src);
    th_expect_free(&x);
}

void th_check_encode_raw(th *t, const char *file, int line, wenc_id id,
                         bool from_utf16, const void *src, size_t n,
                         const th_expect *x)
{
    size_t *splits = xrealloc(NULL, (2 * n + 2) * sizeof *splits);
    for (size_t i = 0; i <= n; i++)
        splits[2 * i] = splits[2 * i + 1] = i;
    char saved[sizeof t->ctx];
    memcpy(saved, t->ctx, sizeof saved);
    char in_hex[260];
    if (from_utf16)
        th_hex16(in_hex, sizeof in_hex, src, n, 32);
    else
        th_hex(in_hex, sizeof in_hex, src, n, 40);
    for (int fatal = 0; fatal < 2; fatal++) {
        for (int split = 0; split < 2; split++) {
            th_enc_opts o = {id, fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML,
                             from_utf16, split ? splits : NULL,
                             split ? 2 * n + 2 : 0, 0};
            th_enc_result r;
            th_ctx(t, "%s%sencode to %s from %s [%s] %s%s", saved,
                   saved[0] ? "; " : "", wenc_name(id),
                   from_utf16 ? "UTF-16" : "UTF-8", in_hex,
                   fatal ? "fatal" : "html",
                   split ? ", unit per call" : ", one call");
            th_encode(&o, src, n, &r);
            th_check_encode_result(t, file, line, x, fatal != 0, split == 0,
                                   &r);
            th_enc_result_free(&r);
        }
    }
    memcpy(t->ctx, saved, sizeof saved);
    free(splits);
}

void th_check_encode_at(th *t, const char *file, int line, wenc_id id,
                        bool from_utf16, const char *in, const char *expect)
{
    th_bytes b = {0};
    th_units u = {0};
    th_expect x;
    memset(&x, 0, sizeof x);
    bool ok = from_utf16 ? th_parse_units(in, &u) : th_parse_bytes(in, &b);
    if (!ok || !th_expect_parse_encode(&x, expect)) {
        th_check(t, false, file, line, "test bug: bad spec [%s] / [%s]", in,
                 expect);
    } else if (from_utf16) {
        th_check_encode_raw(t, file, line, id, true, u.p, u.len, &x);
    } else {
        th_check_encode_raw(t, file, line, id, false, b.p, b.len, &x);
    }
    th_bytes_free(&b);
    th_units_free(&u);
    th_expect_free(&x);
}

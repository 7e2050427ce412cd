/*
 * test_mb_reference.c — the multi-byte codecs against the reference vectors
 * of encoding_rs (its src/test_data, installed by Debian's
 * librust-encoding-rs-dev under /usr/share/cargo/registry), read where they
 * live:
 *
 *   X_in.txt decodes (no BOM handling, replacement) to X_in_ref.txt (UTF-8),
 *   X_out.txt (UTF-8) encodes (html mode) to X_out_ref.txt,
 *
 * for big5, euc_kr, gb18030, iso_2022_jp, jis0208 (EUC-JP), jis0212 (EUC-JP,
 * decode only) and shift_jis; to UTF-8 and to UTF-16, from UTF-8 and from
 * UTF-16. The data predates GB18030-2022: the gb18030 results may differ
 * from it exactly as DESIGN.md lists, pointer by pointer, and nowhere else.
 * Each file is also decoded split at every 7th byte (two calls, forking the
 * decoder by copy at line starts), and in 100 random multi-split runs with
 * a fixed seed, to UTF-8 and UTF-16, in both error modes, compared with the
 * one-call result.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANDOM_RUNS 100
#define RANDOM_ENCODE_RUNS 24
#define MAX_SPLITS 256

/* The 18 entries of index gb18030 that GB18030-2022 changed (DESIGN.md):
 * bytes, pointer, the 2005 Private Use code point, the new code point. */
typedef struct change {
    uint8_t b1, b2;
    uint32_t pointer, old_cp, new_cp;
} change;

static const change changes[18] = {
    {0xA6, 0xD9, 7182, 0xE78D, 0xFE10},  {0xA6, 0xDA, 7183, 0xE78E, 0xFE12},
    {0xA6, 0xDB, 7184, 0xE78F, 0xFE11},  {0xA6, 0xDC, 7185, 0xE790, 0xFE13},
    {0xA6, 0xDD, 7186, 0xE791, 0xFE14},  {0xA6, 0xDE, 7187, 0xE792, 0xFE15},
    {0xA6, 0xDF, 7188, 0xE793, 0xFE16},  {0xA6, 0xEC, 7201, 0xE794, 0xFE17},
    {0xA6, 0xED, 7202, 0xE795, 0xFE18},  {0xA6, 0xF3, 7208, 0xE796, 0xFE19},
    {0xFE, 0x59, 23775, 0xE81E, 0x9FB4}, {0xFE, 0x61, 23783, 0xE826, 0x9FB5},
    {0xFE, 0x66, 23788, 0xE82B, 0x9FB6}, {0xFE, 0x67, 23789, 0xE82C, 0x9FB7},
    {0xFE, 0x6D, 23795, 0xE832, 0x9FB8}, {0xFE, 0x7E, 23812, 0xE843, 0x9FB9},
    {0xFE, 0x90, 23829, 0xE854, 0x9FBA}, {0xFE, 0xA0, 23845, 0xE864, 0x9FBB},
};

typedef struct pair {
    const char *name; /* file prefix in test_data */
    wenc_id id;
    bool encode; /* X_out.txt / X_out_ref.txt exist */
} pair;

static const pair pairs[] = {
    {"big5", WENC_BIG5, true},
    {"euc_kr", WENC_EUC_KR, true},
    {"gb18030", WENC_GB18030, true},
    {"iso_2022_jp", WENC_ISO_2022_JP, true},
    {"jis0208", WENC_EUC_JP, true},
    {"jis0212", WENC_EUC_JP, false},
    {"shift_jis", WENC_SHIFT_JIS, true},
};

/* ---- small helpers ------------------------------------------------------ */

typedef struct file {
    uint8_t *p;
    size_t n;
} file;

static bool load(const char *dir, const char *name, const char *suffix,
                 file *f)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix);
    f->p = th_read_file(path, &f->n);
    return f->p != NULL;
}

/* Well-formed UTF-8 (checked by the caller) to UTF-16, written out here. */
static void utf8_to_units(const uint8_t *s, size_t n, th_units *u)
{
    size_t i = 0;
    while (i < n) {
        uint8_t b = s[i];
        uint32_t cp;
        size_t k;
        if (b < 0x80)
            cp = b, k = 1;
        else if (b < 0xE0)
            cp = b & 0x1Fu, k = 2;
        else if (b < 0xF0)
            cp = b & 0x0Fu, k = 3;
        else
            cp = b & 0x07u, k = 4;
        for (size_t j = 1; j < k && i + j < n; j++)
            cp = (cp << 6) | (s[i + j] & 0x3Fu);
        th_units_cp(u, cp);
        i += k;
    }
}

/* Line boundaries: starts[i] is where line i begins; a line includes its
 * '\n'. Returns the number of lines (the last may lack '\n'). */
static size_t split_lines(const uint8_t *p, size_t n, size_t **starts)
{
    size_t count = 0, cap = 1024;
    size_t *s = malloc(cap * sizeof *s);
    if (!s)
        abort();
    size_t at = 0;
    while (at < n) {
        if (count + 1 >= cap) {
            cap *= 2;
            s = realloc(s, cap * sizeof *s);
            if (!s)
                abort();
        }
        s[count++] = at;
        const uint8_t *nl = memchr(p + at, '\n', n - at);
        at = nl ? (size_t)(nl - p) + 1 : n;
    }
    s[count] = n; /* sentinel: the end */
    *starts = s;
    return count;
}

/* ---- decoding ------------------------------------------------------------ */

/*
 * The expected UTF-8 for the gb18030 file: the reference, except on the
 * lines whose input is one of the 18 changed byte pairs, where the
 * reference must hold the old Private Use code point and we expect the new
 * code point. Returns false (with failures recorded) when the reference
 * does not have the shape this needs.
 */
static bool gb18030_expected(th *t, const file *in, const file *ref,
                             th_bytes *expect)
{
    size_t *li, *lr;
    size_t ni = split_lines(in->p, in->n, &li);
    size_t nr = split_lines(ref->p, ref->n, &lr);
    bool ok = CHECKF(t, ni == nr,
                     "gb18030_in.txt has %zu lines, gb18030_in_ref.txt %zu",
                     ni, nr);
    int seen[18] = {0};
    size_t documented = 0;
    for (size_t i = 0; ok && i < ni; i++) {
        const uint8_t *a = in->p + li[i];
        size_t alen = li[i + 1] - li[i];
        const uint8_t *r = ref->p + lr[i];
        size_t rlen = lr[i + 1] - lr[i];
        int row = -1;
        for (int k = 0; k < 18; k++)
            if (alen == 3 && a[0] == changes[k].b1 &&
                a[1] == changes[k].b2 && a[2] == '\n')
                row = k;
        if (row < 0) {
            th_bytes_put(expect, r, rlen);
            continue;
        }
        th_bytes old = {0};
        th_bytes_cp(&old, changes[row].old_cp);
        th_bytes_byte(&old, '\n');
        CHECKF(t, rlen == old.len && memcmp(r, old.p, rlen) == 0,
               "gb18030_in_ref.txt line %zu (bytes %02X %02X, pointer %lu): "
               "expected the GB18030-2005 code point U+%04lX",
               i + 1, changes[row].b1, changes[row].b2,
               (unsigned long)changes[row].pointer,
               (unsigned long)changes[row].old_cp);
        th_bytes_free(&old);
        th_bytes_cp(expect, changes[row].new_cp);
        th_bytes_byte(expect, '\n');
        seen[row]++;
        documented++;
    }
    for (int k = 0; ok && k < 18; k++)
        CHECKF(t, seen[k] == 1,
               "gb18030 pointer %lu (%02X %02X) appears %d times in "
               "gb18030_in.txt, expected once",
               (unsigned long)changes[k].pointer, changes[k].b1,
               changes[k].b2, seen[k]);
    if (ok)
        th_note(t, "gb18030 decode: %zu lines differ from encoding_rs's "
                   "data, each a documented GB18030-2022 change",
                documented);
    free(li);
    free(lr);
    return ok;
}

/* Decodes in one call with the harness (contract checks included). */
static void one_call(const uint8_t *src, size_t n, wenc_id id, bool fatal,
                     bool utf16, th_dec_result *r)
{
    th_dec_opts o = {id,   WENC_BOM_KEEP, fatal ? WENC_ERRORS_FATAL
                                                : WENC_ERRORS_REPLACEMENT,
                     utf16, NULL,          0,
                     0};
    th_decode(&o, src, n, r);
}

/* Output of one decoder call sequence into out8/out16. */
typedef struct sink {
    uint8_t *b8;
    uint16_t *b16;
    size_t cap;
} sink;

/* Feeds src[0..n) to dec in one call (replacement mode), appending the
 * output to *o8 or *o16. Returns false on an API misbehaviour. */
static bool feed(wenc_decoder *dec, const uint8_t *src, size_t n, bool last,
                 bool utf16, sink *s, th_bytes *o8, th_units *o16)
{
    size_t need = utf16 ? wenc_decoder_max_utf16_len(dec, n)
                        : wenc_decoder_max_utf8_len(dec, n);
    if (need > s->cap) {
        s->cap = need * 2;
        s->b8 = realloc(s->b8, s->cap);
        s->b16 = realloc(s->b16, s->cap * sizeof *s->b16);
        if (!s->b8 || !s->b16)
            abort();
    }
    size_t in_len = n, out_len = need;
    wenc_status st =
        utf16 ? wenc_decode_to_utf16(dec, n ? src : NULL, &in_len, s->b16,
                                     &out_len, last)
              : wenc_decode_to_utf8(dec, n ? src : NULL, &in_len, s->b8,
                                    &out_len, last);
    if (st != WENC_INPUT_EMPTY || in_len != n || out_len > need)
        return false;
    if (utf16)
        th_units_put(o16, s->b16, out_len);
    else
        th_bytes_put(o8, s->b8, out_len);
    return true;
}

/*
 * Split at every 7th byte: a decoder P is fed the file a line per call; at
 * each line start its state is copied into Q, which takes the line in two
 * calls split at each multiple of 7 inside it, then the next line in one
 * call; Q's output must equal P's for those two lines. (Forking by copy is
 * allowed by the API; the line calls make the scan linear.)
 */
static void split_every_7th(th *t, const char *name, wenc_id id,
                            const uint8_t *src, size_t n, bool utf16,
                            const th_dec_result *ref)
{
    size_t *ls;
    size_t nl = split_lines(src, n, &ls);
    wenc_decoder p, q;
    sink s = {NULL, NULL, 0};
    th_bytes p8 = {0}, q8 = {0};
    th_units p16 = {0}, q16 = {0};
    size_t *pout = malloc((nl + 1) * sizeof *pout); /* P's output per line */
    wenc_decoder *snap = malloc((nl + 1) * sizeof *snap);
    if (!pout || !snap)
        abort();
    wenc_decoder_init(&p, id, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
    bool ok = true;
    for (size_t i = 0; i < nl && ok; i++) {
        snap[i] = p;
        pout[i] = utf16 ? p16.len : p8.len;
        ok = feed(&p, src + ls[i], ls[i + 1] - ls[i], i + 1 == nl, utf16, &s,
                  &p8, &p16);
    }
    pout[nl] = utf16 ? p16.len : p8.len;
    CHECKF(t, ok, "%s: line-per-call decoding misbehaved", name);
    /* the line-per-call output is the one-call output */
    if (utf16)
        CHECK_UNITS(t, "line per call vs one call (UTF-16)", ref->out16.p,
                    ref->out16.len, p16.p, p16.len);
    else
        CHECK_BYTES(t, "line per call vs one call (UTF-8)", ref->out8.p,
                    ref->out8.len, p8.p, p8.len);
    size_t splits = 0;
    for (size_t i = 0; ok && i < nl; i++) {
        size_t first = (ls[i] + 6) / 7 * 7;
        if (first == 0)
            first = 7;
        for (size_t at = first; at < ls[i + 1]; at += 7) {
            bool last_line = i + 1 == nl;
            q = snap[i];
            q8.len = 0;
            q16.len = 0;
            bool fine =
                feed(&q, src + ls[i], at - ls[i], false, utf16, &s, &q8,
                     &q16) &&
                feed(&q, src + at, ls[i + 1] - at, last_line, utf16, &s, &q8,
                     &q16);
            size_t to = last_line ? i + 1 : i + 2;
            if (fine && !last_line)
                fine = feed(&q, src + ls[i + 1], ls[i + 2] - ls[i + 1],
                            i + 2 == nl, utf16, &s, &q8, &q16);
            size_t from_out = pout[i], len = pout[to] - pout[i];
            bool same =
                fine &&
                (utf16 ? q16.len == len &&
                             (len == 0 || memcmp(q16.p, p16.p + from_out,
                                                 len * 2) == 0)
                       : q8.len == len &&
                             (len == 0 ||
                              memcmp(q8.p, p8.p + from_out, len) == 0));
            splits++;
            if (same) {
                t->passed++;
            } else {
                char h[120];
                th_hex(h, sizeof h, src + ls[i], ls[i + 1] - ls[i], 24);
                CHECKF(t, false,
                       "%s to %s: split at byte %zu (line %zu [%s]) gives "
                       "other output than one call",
                       name, utf16 ? "UTF-16" : "UTF-8", at, i + 1, h);
            }
        }
    }
    CHECKF(t, splits + 1 >= n / 7, "%s: only %zu split points", name,
           splits);
    free(ls);
    free(pout);
    free(snap);
    free(s.b8);
    free(s.b16);
    th_bytes_free(&p8);
    th_bytes_free(&q8);
    th_units_free(&p16);
    th_units_free(&q16);
}

static void decode_file(th *t, const char *dir, const pair *pr, th_rng *rng)
{
    file in = {0}, ref = {0};
    if (!load(dir, pr->name, "_in.txt", &in) ||
        !load(dir, pr->name, "_in_ref.txt", &ref)) {
        CHECKF(t, false, "%s/%s_in.txt or _in_ref.txt unreadable", dir,
               pr->name);
        free(in.p);
        free(ref.p);
        return;
    }
    th_ctx(t, "%s_in.txt as %s", pr->name, wenc_name(pr->id));
    CHECKF(t, th_utf8_valid(ref.p, ref.n), "%s_in_ref.txt is not UTF-8",
           pr->name);
    th_bytes expect = {0};
    if (pr->id == WENC_GB18030) {
        if (!gb18030_expected(t, &in, &ref, &expect))
            th_bytes_put(&expect, ref.p, ref.n);
    } else {
        th_bytes_put(&expect, ref.p, ref.n);
    }
    th_units expect16 = {0};
    utf8_to_units(expect.p, expect.len, &expect16);

    /* one call, both sinks, both modes */
    th_dec_result r[2][2]; /* [fatal][utf16] */
    for (int fatal = 0; fatal < 2; fatal++)
        for (int utf16 = 0; utf16 < 2; utf16++) {
            one_call(in.p, in.n, pr->id, fatal != 0, utf16 != 0,
                     &r[fatal][utf16]);
            CHECKF(t, r[fatal][utf16].problem[0] == 0, "one call: %s",
                   r[fatal][utf16].problem);
        }
    CHECK_BYTES(t, "decoded UTF-8 vs reference", expect.p, expect.len,
                r[0][0].out8.p, r[0][0].out8.len);
    CHECK_UNITS(t, "decoded UTF-16 vs reference", expect16.p, expect16.len,
                r[0][1].out16.p, r[0][1].out16.len);
    /* fatal mode: the output is the replacement output without the U+FFFDs
     * the errors produced there, and there are as many errors as U+FFFDs
     * that the reference's input did not hold literally */
    CHECK_EQ(t, "fatal errors (UTF-8 vs UTF-16 sink)", r[1][0].n_errors,
             r[1][1].n_errors);
    {
        th_bytes rebuilt = {0};
        const th_bytes *o = &r[1][0].out8;
        size_t at = 0;
        for (size_t e = 0; e < r[1][0].n_errors; e++) {
            size_t to = r[1][0].errors[e].out_pos;
            th_bytes_put(&rebuilt, o->p + at, to - at);
            th_bytes_cp(&rebuilt, 0xFFFD);
            at = to;
        }
        th_bytes_put(&rebuilt, o->p + at, o->len - at);
        CHECK_BYTES(t, "fatal output with U+FFFD at each error vs reference",
                    expect.p, expect.len, rebuilt.p, rebuilt.len);
        th_bytes_free(&rebuilt);
    }
    th_note(t, "%s_in.txt: %zu bytes, %zu errors", pr->name, in.n,
            r[1][0].n_errors);

    /* every 7th split point, replacement mode, both sinks */
    split_every_7th(t, pr->name, pr->id, in.p, in.n, false, &r[0][0]);
    split_every_7th(t, pr->name, pr->id, in.p, in.n, true, &r[0][1]);

    /* random multi-splits (a few with small output capacities) */
    size_t splits[MAX_SPLITS];
    for (int i = 0; i < RANDOM_RUNS; i++) {
        int fatal = i % 2, utf16 = (i / 2) % 2;
        size_t k = th_random_splits(rng, in.n, splits, MAX_SPLITS);
        th_dec_opts o = {pr->id,
                         WENC_BOM_KEEP,
                         fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT,
                         utf16 != 0,
                         splits,
                         k,
                         i % 25 == 3 ? (size_t)(1 + i % 7) : 0};
        th_dec_result x;
        th_decode(&o, in.p, in.n, &x);
        char what[96];
        snprintf(what, sizeof what, "random run %d: %zu splits, %s, %s", i, k,
                 fatal ? "fatal" : "replacement", utf16 ? "UTF-16" : "UTF-8");
        th_same_decode(t, __FILE__, __LINE__, what, &r[fatal][utf16], &x);
        th_dec_result_free(&x);
    }
    for (int fatal = 0; fatal < 2; fatal++)
        for (int utf16 = 0; utf16 < 2; utf16++)
            th_dec_result_free(&r[fatal][utf16]);
    th_ctx_clear(t);
    th_bytes_free(&expect);
    th_units_free(&expect16);
    free(in.p);
    free(ref.p);
}

/* ---- encoding ---------------------------------------------------------------- */

/* For gb18030: the encoder output may differ from the 2005 reference only
 * on lines holding one of the 18 new code points. Checks that, line by
 * line, and returns the number of such lines. */
static size_t gb18030_encode_diffs(th *t, const file *text, const file *ref,
                                   const th_bytes *out)
{
    size_t *lt, *lr, *lo;
    size_t nt = split_lines(text->p, text->n, &lt);
    size_t nr = split_lines(ref->p, ref->n, &lr);
    size_t no = split_lines(out->p, out->len, &lo);
    size_t diffs = 0;
    if (CHECKF(t, nt == nr && nr == no,
               "gb18030_out: %zu text lines, %zu reference lines, %zu "
               "output lines",
               nt, nr, no)) {
        for (size_t i = 0; i < nt; i++) {
            size_t rl = lr[i + 1] - lr[i], ol = lo[i + 1] - lo[i];
            if (rl == ol && memcmp(ref->p + lr[i], out->p + lo[i], rl) == 0)
                continue;
            diffs++;
            /* the line must be one new code point (and '\n') */
            int row = -1;
            for (int k = 0; k < 18; k++) {
                th_bytes b = {0};
                th_bytes_cp(&b, changes[k].new_cp);
                th_bytes_byte(&b, '\n');
                if (lt[i + 1] - lt[i] == b.len &&
                    memcmp(text->p + lt[i], b.p, b.len) == 0)
                    row = k;
                th_bytes_free(&b);
            }
            if (!CHECKF(t, row >= 0,
                        "gb18030_out line %zu differs from the reference "
                        "and holds none of the 18 new code points",
                        i + 1))
                continue;
            const uint8_t want[3] = {changes[row].b1, changes[row].b2, '\n'};
            CHECK_BYTES(t, "new code point: two bytes now", want, 3,
                        out->p + lo[i], ol);
            CHECKF(t, rl == 5, "the 2005 reference has four bytes there");
        }
    }
    free(lt);
    free(lr);
    free(lo);
    return diffs;
}

static void encode_file(th *t, const char *dir, const pair *pr, th_rng *rng)
{
    file text = {0}, ref = {0};
    if (!load(dir, pr->name, "_out.txt", &text) ||
        !load(dir, pr->name, "_out_ref.txt", &ref)) {
        CHECKF(t, false, "%s/%s_out.txt or _out_ref.txt unreadable", dir,
               pr->name);
        free(text.p);
        free(ref.p);
        return;
    }
    th_ctx(t, "%s_out.txt to %s", pr->name, wenc_name(pr->id));
    if (!CHECKF(t, th_utf8_valid(text.p, text.n), "%s_out.txt is not UTF-8",
                pr->name)) {
        free(text.p);
        free(ref.p);
        th_ctx_clear(t);
        return;
    }
    th_units text16 = {0};
    utf8_to_units(text.p, text.n, &text16);
    th_enc_result r8, r16;
    th_enc_opts o8 = {pr->id, WENC_ERRORS_HTML, false, NULL, 0, 0};
    th_enc_opts o16 = {pr->id, WENC_ERRORS_HTML, true, NULL, 0, 0};
    th_encode(&o8, text.p, text.n, &r8);
    th_encode(&o16, text16.p, text16.len, &r16);
    CHECKF(t, r8.problem[0] == 0, "from UTF-8: %s", r8.problem);
    CHECKF(t, r16.problem[0] == 0, "from UTF-16: %s", r16.problem);
    if (pr->id == WENC_GB18030) {
        size_t diffs = gb18030_encode_diffs(t, &text, &ref, &r8.out);
        th_note(t, "gb18030 encode: %zu lines differ from encoding_rs's "
                   "data (only lines holding a GB18030-2022 code point may)",
                diffs);
    } else {
        CHECK_BYTES(t, "encoded from UTF-8 vs reference", ref.p, ref.n,
                    r8.out.p, r8.out.len);
    }
    CHECK_BYTES(t, "encoded from UTF-16 vs from UTF-8", r8.out.p, r8.out.len,
                r16.out.p, r16.out.len);
    /* fatal mode: every error is an unmappable code point, and the html
     * output is the fatal output with "&#N;" at each error */
    for (int from16 = 0; from16 < 2; from16++) {
        th_enc_result f;
        th_enc_opts of = {pr->id, WENC_ERRORS_FATAL, from16 != 0, NULL, 0, 0};
        th_encode(&of, from16 ? (const void *)text16.p : text.p,
                  from16 ? text16.len : text.n, &f);
        CHECKF(t, f.problem[0] == 0, "fatal: %s", f.problem);
        th_bytes rebuilt = {0};
        size_t at = 0;
        for (size_t e = 0; e < f.n_errors; e++) {
            char ncr[16];
            th_bytes_put(&rebuilt, f.out.p + at, f.errors[e].out_pos - at);
            snprintf(ncr, sizeof ncr, "&#%lu;",
                     (unsigned long)f.errors[e].code_point);
            th_bytes_str(&rebuilt, ncr);
            at = f.errors[e].out_pos;
        }
        th_bytes_put(&rebuilt, f.out.p + at, f.out.len - at);
        CHECK_BYTES(t, "fatal output + NCRs vs html output", r8.out.p,
                    r8.out.len, rebuilt.p, rebuilt.len);
        if (from16 == 0)
            th_note(t, "%s_out.txt: %zu code points the encoding cannot "
                       "represent",
                    pr->name, f.n_errors);
        th_bytes_free(&rebuilt);
        th_enc_result_free(&f);
    }
    /* random multi-splits */
    size_t splits[MAX_SPLITS];
    for (int i = 0; i < RANDOM_ENCODE_RUNS; i++) {
        int from16 = i % 2;
        size_t n = from16 ? text16.len : text.n;
        size_t k = th_random_splits(rng, n, splits, MAX_SPLITS);
        th_enc_opts o = {pr->id, WENC_ERRORS_HTML, from16 != 0, splits, k,
                         i % 8 == 5 ? (size_t)(1 + i % 5) : 0};
        th_enc_result x;
        th_encode(&o, from16 ? (const void *)text16.p : text.p, n, &x);
        char what[96];
        snprintf(what, sizeof what, "random encode run %d: %zu splits from %s",
                 i, k, from16 ? "UTF-16" : "UTF-8");
        th_same_encode(t, __FILE__, __LINE__, what, from16 ? &r16 : &r8, &x);
        th_enc_result_free(&x);
    }
    th_enc_result_free(&r8);
    th_enc_result_free(&r16);
    th_units_free(&text16);
    th_ctx_clear(t);
    free(text.p);
    free(ref.p);
}

/* The new code points are not in gb18030_out.txt (it lists the 2005
 * index): their two bytes, by hand from DESIGN.md. */
static void gb18030_new_code_points(th *t)
{
    for (size_t k = 0; k < 18; k++) {
        char in[16], out[16];
        snprintf(in, sizeof in, "%lX", (unsigned long)changes[k].new_cp);
        snprintf(out, sizeof out, "%02X%02X", changes[k].b1, changes[k].b2);
        th_check_encode(t, WENC_GB18030, true, in, out);
        snprintf(in, sizeof in, "%lX", (unsigned long)changes[k].old_cp);
        th_check_encode(t, WENC_GB18030, true, in, out);
        uint32_t p = (uint32_t)(changes[k].b1 - 0x81) * 190 +
                     (uint32_t)(changes[k].b2 -
                                (changes[k].b2 < 0x7F ? 0x40 : 0x41));
        CHECKF(t, p == changes[k].pointer, "test bug: row %zu", k);
    }
}

int main(void)
{
    th t;
    th_begin(&t, "test_mb_reference");
    if (!th_cjk(&t, "every check: all are of the legacy multi-byte encodings"))
        return th_end(&t);
    glob_t g;
    memset(&g, 0, sizeof g);
    int gr = glob("/usr/share/cargo/registry/encoding_rs-*/src/test_data",
                  0, NULL, &g);
    if (gr != 0 || g.gl_pathc == 0) {
        th_skip(&t, TH_SKIP_DATA,
                "every check: encoding_rs test data not installed "
                "(apt-get install librust-encoding-rs-dev)");
        if (gr == 0)
            globfree(&g);
        return th_end(&t);
    }
    /* glob sorts: the last is the highest version */
    const char *dir = g.gl_pathv[g.gl_pathc - 1];
    th_note(&t, "reference data: %s", dir);
    th_rng rng;
    th_rng_seed(&rng, 0x6D627265ull); /* fixed */
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        decode_file(&t, dir, &pairs[i], &rng);
        if (pairs[i].encode)
            encode_file(&t, dir, &pairs[i], &rng);
    }
    gb18030_new_code_points(&t);
    globfree(&g);
    return th_end(&t);
}

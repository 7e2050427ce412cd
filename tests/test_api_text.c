/* test_api_text.c — the Standard's API (§7) in C: TextDecoder (constructor,
 * getters, decode with stream, BOM handling of serialize I/O queue, fatal
 * errors), TextDecoderStream, TextEncoder (encode, encodeInto) and
 * TextEncoderStream. Every expected value is written by hand from §7. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALL SIZE_MAX /* "consumed: the whole input" */

static th_bytes spec_bytes(th *t, const char *spec)
{
    th_bytes b = {0};
    if (!th_parse_bytes(spec, &b))
        CHECKF(t, false, "test bug: bad byte spec [%s]", spec);
    return b;
}

static th_units spec_units(th *t, const char *spec)
{
    th_units u = {0};
    if (!th_parse_units(spec, &u))
        CHECKF(t, false, "test bug: bad unit spec [%s]", spec);
    return u;
}

/* Expected code points ("41 20AC", "'text'") in UTF-8 and in UTF-16. */
static void spec_text(th *t, const char *spec, th_bytes *u8, th_units *u16)
{
    th_expect x;
    if (!th_expect_parse_decode(&x, spec) || x.nerr != 0) {
        CHECKF(t, false, "test bug: bad text spec [%s]", spec);
        th_expect_free(&x);
        return;
    }
    for (size_t i = 0; i < x.n; i++) {
        th_bytes_cp(u8, x.items[i]);
        th_units_cp(u16, x.items[i]);
    }
    th_expect_free(&x);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- TextDecoder: one decoder writing UTF-8, one writing UTF-16 ---------- */

typedef struct dpair {
    wenc_text_decoder d8, d16;
    bool skip; /* an encoding not built in: th_cjk() said SKIPPED */
} dpair;

/* Whether the label's encoding is one th_cjk() skips; says so when it is. */
static bool skip_label(th *t, int line, const char *label)
{
    return th_is_cjk(wenc_lookup(label, strlen(label))) &&
           !th_cjk(t, "line %d: TextDecoder for %s", line, label);
}

/* What new TextDecoder(label) gives for a label of an encoding but
 * replacement: OK, or for the CJK ones in a build without them (the
 * configuration's, WENC_TEST_CJK) WENC_TEXT_NOT_BUILT_IN. */
static wenc_text_status status_of(const char *label)
{
    return th_is_cjk(wenc_lookup(label, strlen(label))) && !th_has_cjk()
               ? WENC_TEXT_NOT_BUILT_IN
               : WENC_TEXT_OK;
}

static void dpair_init(th *t, int line, dpair *p, const char *label,
                       bool fatal, bool ignore_bom)
{
    size_t n = strlen(label);
    p->skip = skip_label(t, line, label);
    if (p->skip)
        return;
    th_check(t, wenc_text_decoder_init(&p->d8, label, n, fatal,
                                       ignore_bom) == WENC_TEXT_OK,
             __FILE__, line, "init %s", label);
    th_check(t, wenc_text_decoder_init(&p->d16, label, n, fatal,
                                       ignore_bom) == WENC_TEXT_OK,
             __FILE__, line, "init %s", label);
}

/* decode(input, {stream}) on both, with exactly the capacity the
 * max-length helper asks for; checks status, consumed and output. */
static void step_raw(th *t, int line, dpair *p, const uint8_t *in, size_t len,
                     bool stream, wenc_text_status expect_st,
                     const char *expect, size_t expect_consumed)
{
    if (p->skip)
        return;
    th_bytes x8 = {0};
    th_units x16 = {0};
    spec_text(t, expect, &x8, &x16);
    if (expect_consumed == ALL)
        expect_consumed = len;

    size_t cap8 = wenc_text_decoder_max_utf8_len(&p->d8, len);
    size_t cap16 = wenc_text_decoder_max_utf16_len(&p->d16, len);
    uint8_t *o8 = xmalloc(cap8);
    uint16_t *o16 = xmalloc(cap16 * sizeof *o16);
    size_t m8 = cap8, m16 = cap16, c8 = 99, c16 = 99;

    wenc_text_status s8 = wenc_text_decoder_decode_utf8(&p->d8, in, len,
                                                        stream, o8, &m8, &c8);
    wenc_text_status s16 = wenc_text_decoder_decode_utf16(
        &p->d16, in, len, stream, o16, &m16, &c16);
    th_check_u64(t, __FILE__, line, "utf8 status", expect_st, s8);
    th_check_u64(t, __FILE__, line, "utf16 status", expect_st, s16);
    th_check_u64(t, __FILE__, line, "utf8 consumed", expect_consumed, c8);
    th_check_u64(t, __FILE__, line, "utf16 consumed", expect_consumed, c16);
    th_check_bytes(t, __FILE__, line, "utf8 output", x8.p, x8.len, o8, m8);
    th_check_units(t, __FILE__, line, "utf16 output", x16.p, x16.len, o16,
                   m16);
    free(o8);
    free(o16);
    th_bytes_free(&x8);
    th_units_free(&x16);
}

static void step(th *t, int line, dpair *p, const char *in, bool stream,
                 wenc_text_status expect_st, const char *expect,
                 size_t expect_consumed)
{
    th_bytes b = spec_bytes(t, in);
    th_ctx(t, "decode [%s] stream=%d", in, (int)stream);
    step_raw(t, line, p, b.p, b.len, stream, expect_st, expect,
             expect_consumed);
    th_ctx_clear(t);
    th_bytes_free(&b);
}

#define OK WENC_TEXT_OK
#define TYPE_ERROR WENC_TEXT_TYPE_ERROR
#define S(in, expect) step(t, __LINE__, &p, (in), true, OK, (expect), ALL)
#define F(in, expect) step(t, __LINE__, &p, (in), false, OK, (expect), ALL)
/* decode() with no input (the flush) */
#define FLUSH(expect) step(t, __LINE__, &p, "", false, OK, (expect), ALL)

/* A capacity one below the helper's: WENC_TEXT_BUFFER_TOO_SMALL, nothing
 * written, nothing consumed. Whether the state was left alone shows in the
 * steps that follow. */
static void too_small(th *t, int line, dpair *p, const char *in, bool stream)
{
    if (p->skip)
        return;
    th_bytes b = spec_bytes(t, in);
    th_ctx(t, "too small [%s] stream=%d", in, (int)stream);
    size_t cap8 = wenc_text_decoder_max_utf8_len(&p->d8, b.len);
    size_t cap16 = wenc_text_decoder_max_utf16_len(&p->d16, b.len);
    th_check(t, cap8 > 0 && cap16 > 0, __FILE__, line, "helper gave 0");
    if (cap8 > 0 && cap16 > 0) {
        uint8_t *o8 = xmalloc(cap8);
        uint16_t *o16 = xmalloc(cap16 * sizeof *o16);
        size_t m8 = cap8 - 1, m16 = cap16 - 1, c8 = 99, c16 = 99;
        wenc_text_status s8 = wenc_text_decoder_decode_utf8(
            &p->d8, b.p, b.len, stream, o8, &m8, &c8);
        wenc_text_status s16 = wenc_text_decoder_decode_utf16(
            &p->d16, b.p, b.len, stream, o16, &m16, &c16);
        th_check_u64(t, __FILE__, line, "utf8 status",
                     WENC_TEXT_BUFFER_TOO_SMALL, s8);
        th_check_u64(t, __FILE__, line, "utf16 status",
                     WENC_TEXT_BUFFER_TOO_SMALL, s16);
        th_check_u64(t, __FILE__, line, "utf8 written", 0, m8);
        th_check_u64(t, __FILE__, line, "utf16 written", 0, m16);
        th_check_u64(t, __FILE__, line, "utf8 consumed", 0, c8);
        th_check_u64(t, __FILE__, line, "utf16 consumed", 0, c16);
        free(o8);
        free(o16);
    }
    th_ctx_clear(t);
    th_bytes_free(&b);
}

/* ---- constructor and getters ----------------------------------------------- */

typedef struct label_name {
    const char *label;
    const char *name; /* the encoding getter: name, ASCII lowercase */
} label_name;

/* One label of each of the 39 encodings that TextDecoder accepts, with the
 * encoding's name lowercased (the Standard's table of encodings). */
static const label_name getter_table[] = {
    {"unicode-1-1-utf-8", "utf-8"},
    {"866", "ibm866"},
    {"latin2", "iso-8859-2"},
    {"l3", "iso-8859-3"},
    {"ISO_8859-4:1988", "iso-8859-4"},
    {"cyrillic", "iso-8859-5"},
    {"arabic", "iso-8859-6"},
    {"greek8", "iso-8859-7"},
    {"visual", "iso-8859-8"},
    {"logical", "iso-8859-8-i"},
    {"l6", "iso-8859-10"},
    {"iso885913", "iso-8859-13"},
    {"iso8859-14", "iso-8859-14"},
    {"l9", "iso-8859-15"},
    {"iso-8859-16", "iso-8859-16"},
    {"koi", "koi8-r"},
    {"koi8-ru", "koi8-u"},
    {"mac", "macintosh"},
    {"tis-620", "windows-874"},
    {"x-cp1250", "windows-1250"},
    {"cp1251", "windows-1251"},
    {"ascii", "windows-1252"},
    {"cp1253", "windows-1253"},
    {"latin5", "windows-1254"},
    {"cp1255", "windows-1255"},
    {"x-cp1256", "windows-1256"},
    {"windows-1257", "windows-1257"},
    {"cp1258", "windows-1258"},
    {"x-mac-ukrainian", "x-mac-cyrillic"},
    {"gb2312", "gbk"},
    {"GB18030", "gb18030"},
    {"big5-hkscs", "big5"},
    {"x-euc-jp", "euc-jp"},
    {"csiso2022jp", "iso-2022-jp"},
    {"sjis", "shift_jis"},
    {"windows-949", "euc-kr"},
    {"unicodefffe", "utf-16be"},
    {"utf-16", "utf-16le"},
    {"x-user-defined", "x-user-defined"},
};

static const char *const replacement_labels[] = {
    "csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext",
    "iso-2022-kr", "replacement", "REPLACEMENT", " hz-gb-2312\n",
    "ISO-2022-CN-ext",
};

static const char *const non_labels[] = {
    "",        "utf-7",   "utf-32",   "utf8 ", /* trailing space is trimmed */
    "utf 8",   "utf_8",   "latin-1",  "x-mac-roman2",
    "\vutf-8", "us ascii", "\xC3\xA9", "shift-jis\x01",
};

static void test_constructor_every_label(th *t)
{
    /* every label of encodings.json: the getter is the name lowercased,
     * replacement's labels are RangeErrors (and the same in upper case) */
    wenc_text_decoder td;
    th_labels l;
    if (!th_labels_load(&l)) {
        th_skip(t, TH_SKIP_DATA, "every label of encodings.json: cannot read "
                                 "or parse %s/encodings.json",
                th_data_dir());
    } else {
        CHECK_EQ(t, "labels in encodings.json", 228, l.count);
        for (size_t i = 0; i < l.count; i++) {
            char want[32], upper[64];
            size_t j;
            for (j = 0; l.items[i].name[j] && j + 1 < sizeof want; j++) {
                char c = l.items[i].name[j];
                want[j] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
            }
            want[j] = 0;
            for (j = 0; l.items[i].label[j] && j + 1 < sizeof upper; j++) {
                char c = l.items[i].label[j];
                upper[j] = (c >= 'a' && c <= 'z') ? (char)(c - 32) : c;
            }
            upper[j] = 0;
            bool repl = strcmp(l.items[i].name, "replacement") == 0;
            const char *forms[2] = {l.items[i].label, upper};
            for (int k = 0; k < 2; k++) {
                th_ctx(t, "label %s", forms[k]);
                wenc_text_status st = wenc_text_decoder_init(
                    &td, forms[k], strlen(forms[k]), false, false);
                if (repl) {
                    CHECK(t, st == WENC_TEXT_RANGE_ERROR);
                } else {
                    CHECK(t, st == status_of(forms[k]));
                    if (st == WENC_TEXT_OK)
                        CHECKF(t, strcmp(wenc_text_decoder_encoding(&td),
                                         want) == 0,
                               "encoding %s, expected %s",
                               wenc_text_decoder_encoding(&td), want);
                }
                th_ctx_clear(t);
            }
        }
        th_labels_free(&l);
    }
}

static void test_constructor(th *t)
{
    wenc_text_decoder td;
    size_t n = sizeof getter_table / sizeof getter_table[0];
    CHECK_EQ(t, "getter table size", 39, n);
    for (size_t i = 0; i < n; i++) {
        const label_name *e = &getter_table[i];
        th_ctx(t, "label %s", e->label);
        wenc_text_status want = status_of(e->label);
        CHECK(t, wenc_text_decoder_init(&td, e->label, strlen(e->label), false,
                                        false) == want);
        if (want != WENC_TEXT_OK) {
            th_ctx_clear(t);
            continue;
        }
        const char *got = wenc_text_decoder_encoding(&td);
        CHECKF(t, got && strcmp(got, e->name) == 0, "encoding %s, expected %s",
               got ? got : "(null)", e->name);
        th_ctx_clear(t);
    }

    /* every replacement label is a RangeError */
    n = sizeof replacement_labels / sizeof replacement_labels[0];
    for (size_t i = 0; i < n; i++) {
        th_ctx(t, "replacement label [%s]", replacement_labels[i]);
        CHECK(t, wenc_text_decoder_init(&td, replacement_labels[i],
                                        strlen(replacement_labels[i]), false,
                                        false) == WENC_TEXT_RANGE_ERROR);
        CHECK(t, wenc_text_decoder_init(&td, replacement_labels[i],
                                        strlen(replacement_labels[i]), true,
                                        true) == WENC_TEXT_RANGE_ERROR);
        th_ctx_clear(t);
    }
    /* so is a non-label */
    n = sizeof non_labels / sizeof non_labels[0];
    for (size_t i = 0; i < n; i++) {
        th_ctx(t, "non-label [%s]", non_labels[i]);
        wenc_text_status want = i == 3 ? WENC_TEXT_OK : WENC_TEXT_RANGE_ERROR;
        CHECK(t, wenc_text_decoder_init(&td, non_labels[i],
                                        strlen(non_labels[i]), false,
                                        false) == want);
        th_ctx_clear(t);
    }
    CHECK(t, wenc_text_decoder_init(&td, NULL, 0, false, false) ==
                 WENC_TEXT_RANGE_ERROR);
    /* the length counts, not a NUL: "utf-8\0" is not a label */
    CHECK(t, wenc_text_decoder_init(&td, "utf-8", 6, false, false) ==
                 WENC_TEXT_RANGE_ERROR);
    CHECK(t, wenc_text_decoder_init(&td, "utf-8xyz", 5, false, false) ==
                 WENC_TEXT_OK);
    CHECK(t, strcmp(wenc_text_decoder_encoding(&td), "utf-8") == 0);
    CHECK(t, wenc_text_decoder_init(&td, " \t\r\n\fUTF-16BE\f\n\r\t ", 18,
                                    false, false) == WENC_TEXT_OK);
    CHECK(t, strcmp(wenc_text_decoder_encoding(&td), "utf-16be") == 0);

    /* fatal and ignoreBOM getters */
    for (int f = 0; f < 2; f++)
        for (int b = 0; b < 2; b++) {
            th_ctx(t, "fatal=%d ignoreBOM=%d", f, b);
            CHECK(t, wenc_text_decoder_init(&td, "utf-8", 5, f != 0, b != 0) ==
                         WENC_TEXT_OK);
            CHECK(t, wenc_text_decoder_fatal(&td) == (f != 0));
            CHECK(t, wenc_text_decoder_ignore_bom(&td) == (b != 0));
            CHECK(t, wenc_text_decoder_init(&td, "gbk", 3, f != 0, b != 0) ==
                         status_of("gbk"));
            if (status_of("gbk") == WENC_TEXT_OK) {
                CHECK(t, wenc_text_decoder_fatal(&td) == (f != 0));
                CHECK(t, wenc_text_decoder_ignore_bom(&td) == (b != 0));
            }
            th_ctx_clear(t);
        }
}

/* ---- decode(): stream ---------------------------------------------------- */

static void test_stream(th *t)
{
    dpair p;

    /* state survives stream=true; the call after stream=false starts anew */
    dpair_init(t, __LINE__, &p, "utf-8", false, false);
    S("E2 82", "");
    F("AC", "20AC");
    F("AC", "FFFD");
    F("", "");
    S("E2", "");
    S("", "");
    S("82", "");
    S("AC 41 F0 9F", "20AC 41");
    S("98", "");
    F("80", "1F600");
    /* an incomplete sequence at a flush is U+FFFD, then a new stream */
    S("41 E2 82", "41");
    FLUSH("FFFD");
    F("82 AC", "FFFD FFFD");
    /* empty calls */
    FLUSH("");
    S("", "");
    FLUSH("");

    /* UTF-16LE: a code unit and a surrogate pair across calls */
    dpair_init(t, __LINE__, &p, "utf-16le", false, false);
    S("41", "");
    S("00 3D", "41");
    S("D8", "");
    S("00", "");
    F("DE 42 00", "1F600 42");
    S("3D D8", "");
    F("", "FFFD");
    F("00", "FFFD");

    /* UTF-16BE */
    dpair_init(t, __LINE__, &p, "utf-16be", false, false);
    S("00", "");
    S("41 D8", "41");
    S("3D DE", "");
    F("00", "1F600");

    /* a legacy multi-byte decoder keeps its lead byte */
    dpair_init(t, __LINE__, &p, "shift_jis", false, false);
    S("41 82", "41");
    F("A0", "3042");
    S("82", "");
    F("", "FFFD");
    dpair_init(t, __LINE__, &p, "gb18030", false, false);
    S("81", "");
    S("30", "");
    S("81", "");
    F("30", "80");
    /* ISO-2022-JP keeps its state across stream calls, not across flushes */
    dpair_init(t, __LINE__, &p, "iso-2022-jp", false, false);
    S("1B 24", "");
    S("42 24", "");
    S("22", "3042");
    F("24 22", "3042");
    F("24 22", "24 22");

    /* a single-byte decoder needs no state at all */
    dpair_init(t, __LINE__, &p, "windows-1252", false, false);
    S("80", "20AC");
    F("41", "41");
}

/* ---- decode(): BOM handling (serialize I/O queue, §7.1) -------------------- */

static void test_bom(th *t)
{
    dpair p;

    /* UTF-8: stripped when ignoreBOM is false, once, at the start */
    dpair_init(t, __LINE__, &p, "utf-8", false, false);
    F("EF BB BF 41", "41");
    F("EF BB BF", "");
    F("EF BB BF EF BB BF", "FEFF");
    F("EF BB BF EF BB BF 41", "FEFF 41");
    F("41 EF BB BF", "41 FEFF");
    /* BOM seen is set by the first scalar value, whatever it is */
    F("FF EF BB BF", "FFFD FEFF");
    F("C3 A9 EF BB BF", "E9 FEFF");
    /* a BOM in the second streamed chunk, after output, is kept */
    S("41", "41");
    S("EF BB BF", "FEFF");
    FLUSH("");
    /* a BOM split across chunks is stripped */
    S("EF", "");
    S("BB", "");
    S("BF", "");
    S("41", "41");
    F("EF BB BF", "FEFF");
    /* BOM seen is reset by the call after a flush */
    F("EF BB BF 41", "41");
    F("EF BB BF 42", "42");
    S("43", "43");
    FLUSH("");
    F("EF BB BF 44", "44");
    /* a chunk that is only the BOM yields nothing; the next one is kept */
    S("EF BB BF", "");
    S("EF BB BF", "FEFF");
    FLUSH("");
    /* a partial BOM is a truncated sequence */
    S("EF BB", "");
    F("", "FFFD");
    F("EF BB 41", "FFFD 41");

    /* UTF-8, ignoreBOM true: kept */
    dpair_init(t, __LINE__, &p, "utf8", false, true);
    F("EF BB BF 41", "FEFF 41");
    S("EF", "");
    S("BB", "");
    F("BF", "FEFF");
    F("EF BB BF EF BB BF", "FEFF FEFF");

    /* UTF-16LE */
    dpair_init(t, __LINE__, &p, "utf-16le", false, false);
    F("FF FE 41 00", "41");
    F("FF FE FF FE", "FEFF");
    F("41 00 FF FE", "41 FEFF");
    S("FF", "");
    S("FE", "");
    F("41 00", "41");
    S("41 00", "41");
    F("FF FE", "FEFF");
    /* under utf-16le, FE FF is no BOM: U+FFFE */
    F("FE FF 41 00", "FFFE 41");
    /* a lone first byte of a BOM is an odd byte: U+FFFD */
    F("FF", "FFFD");
    S("FF", "");
    F("", "FFFD");
    dpair_init(t, __LINE__, &p, "utf-16le", false, true);
    F("FF FE 41 00", "FEFF 41");

    /* UTF-16BE */
    dpair_init(t, __LINE__, &p, "utf-16be", false, false);
    F("FE FF 00 41", "41");
    F("FE FF FE FF", "FEFF");
    S("FE", "");
    F("FF", "");
    F("FF FE 00 41", "FFFE 41");
    dpair_init(t, __LINE__, &p, "unicodefffe", false, true);
    F("FE FF 00 41", "FEFF 41");

    /* no sniffing: TextDecoder never switches encoding on a BOM */
    dpair_init(t, __LINE__, &p, "utf-8", false, false);
    F("FF FE 41 00", "FFFD FFFD 41 0");
    F("FE FF 00 41", "FFFD FFFD 0 41");
    dpair_init(t, __LINE__, &p, "utf-16le", false, false);
    F("EF BB BF 41", "BBEF 41BF");

    /* other encodings never strip anything */
    dpair_init(t, __LINE__, &p, "windows-1252", false, false);
    F("EF BB BF 41", "EF BB BF 41");
    dpair_init(t, __LINE__, &p, "gb18030", false, false);
    /* U+FEFF is gb18030's 84 31 95 33 (a four-byte range pointer) */
    F("84 31 95 33 41", "FEFF 41");
    dpair_init(t, __LINE__, &p, "x-user-defined", false, false);
    F("EF BB BF", "F7EF F7BB F7BF");
}

/* §7.2: a TypeError is thrown before serialize I/O queue runs, so BOM seen
 * stays false after it; the I/O queue and the decoder are kept when stream
 * was true (the caller passes the unread rest in front of the next input). */
static void test_bom_after_error(th *t)
{
    dpair p;
    dpair_init(t, __LINE__, &p, "utf-8", true, false);
    step(t, __LINE__, &p, "41 FF", true, TYPE_ERROR, "41", 2);
    F("EF BB BF 42", "42");

    dpair_init(t, __LINE__, &p, "utf-8", true, false);
    step(t, __LINE__, &p, "EF BB BF FF", true, TYPE_ERROR, "", 4);
    F("EF BB BF 42", "42");

    dpair_init(t, __LINE__, &p, "utf-16le", true, false);
    step(t, __LINE__, &p, "41 00 00 DC", true, TYPE_ERROR, "41", 4);
    F("FF FE 42 00", "42");
}

/* ---- decode(): fatal ------------------------------------------------------ */

static void test_fatal(th *t)
{
    dpair p;

    dpair_init(t, __LINE__, &p, "utf-8", true, false);
    /* truncated at a flush */
    step(t, __LINE__, &p, "E2 82", false, TYPE_ERROR, "", 2);
    F("41", "41");
    S("41 42 E2 82", "41 42");
    step(t, __LINE__, &p, "", false, TYPE_ERROR, "", 0);
    F("41", "41");
    /* streaming on after an error: the rest is passed again */
    step(t, __LINE__, &p, "41 FF 42", true, TYPE_ERROR, "41", 2);
    F("42", "42");
    /* the malformed sequence ends before a byte that is restored */
    step(t, __LINE__, &p, "E2 82 41", false, TYPE_ERROR, "", 2);
    step(t, __LINE__, &p, "ED A0 80", false, TYPE_ERROR, "", 1);
    step(t, __LINE__, &p, "F0 9F 98 F0 9F 98 80", false, TYPE_ERROR, "", 3);
    F("F0 9F 98 80", "1F600");
    /* the partial sequence from an earlier call is part of the error */
    S("41 F0 9F", "41");
    step(t, __LINE__, &p, "98 41", false, TYPE_ERROR, "", 1);
    F("41", "41");

    /* an error after a BOM: the BOM does not count as output */
    step(t, __LINE__, &p, "EF BB BF 41 C0", false, TYPE_ERROR, "41", 5);

    dpair_init(t, __LINE__, &p, "utf-16be", true, false);
    step(t, __LINE__, &p, "00 41 D8 00 00 42", false, TYPE_ERROR, "41", 4);
    F("00 42", "42");
    step(t, __LINE__, &p, "00 41 00", false, TYPE_ERROR, "41", 3);
    S("D8 3D", "");
    step(t, __LINE__, &p, "", false, TYPE_ERROR, "", 0);

    dpair_init(t, __LINE__, &p, "shift_jis", true, false);
    step(t, __LINE__, &p, "82 A0 82 20", false, TYPE_ERROR, "3042", 3);
    F("20", "20");
    dpair_init(t, __LINE__, &p, "iso-2022-jp", true, false);
    step(t, __LINE__, &p, "41 1B 28 42 1B 28 42", false, TYPE_ERROR, "41", 7);
}

/* Fatal errors at every position: base text with a malformed sequence
 * inserted before each of its characters and at its end. */
typedef struct fatal_case {
    const char *label;
    const char *base;      /* byte spec */
    size_t lens[6];        /* bytes of each character of base (0 ends) */
    const char *cps[6];    /* each character's code point */
    const char *bad;       /* the malformed sequence */
    size_t bad_consumed;   /* bytes of it in the error (before a restore) */
    bool truncated;        /* malformed only at the end of the stream */
} fatal_case;

#define HELLO {1, 1, 1, 1, 1, 0}, {"'h'", "'e'", "'l'", "'l'", "'o'", NULL}

static const fatal_case fatal_cases[] = {
    {"utf-8", "'hello'", HELLO, "FF", 1, false},
    {"utf-8", "'hello'", HELLO, "80", 1, false},
    {"utf-8", "'hello'", HELLO, "C0", 1, false},
    {"utf-8", "'hello'", HELLO, "E2 82", 2, true},
    {"utf-8", "C3A9 E282AC F09F9880 'A'", {2, 3, 4, 1, 0, 0},
     {"E9", "20AC", "1F600", "41", NULL, NULL}, "F0 9F 98", 3, true},
    {"utf-16le", "68 00 AC 20 3D D8 00 DE 6F 00", {2, 2, 4, 2, 0, 0},
     {"68", "20AC", "1F600", "6F", NULL, NULL}, "00 D8", 2, true},
    {"utf-16le", "68 00 AC 20 6F 00", {2, 2, 2, 0, 0, 0},
     {"68", "20AC", "6F", NULL, NULL, NULL}, "00 DC", 2, false},
    {"utf-16be", "00 68 D8 3D DE 00 00 6F", {2, 4, 2, 0, 0, 0},
     {"68", "1F600", "6F", NULL, NULL, NULL}, "D8 3D", 2, true},
    {"shift_jis", "82 A0 'h' B1 'o'", {2, 1, 1, 1, 0, 0},
     {"3042", "68", "FF71", "6F", NULL, NULL}, "FF", 1, false},
    {"euc-kr", "'h' B0 A1 'o'", {1, 2, 1, 0, 0, 0},
     {"68", "AC00", "6F", NULL, NULL, NULL}, "80", 1, false},
};

static void test_fatal_every_position(th *t)
{
    size_t ncases = sizeof fatal_cases / sizeof fatal_cases[0];
    for (size_t ci = 0; ci < ncases; ci++) {
        const fatal_case *c = &fatal_cases[ci];
        if (skip_label(t, __LINE__, c->label))
            continue;
        th_bytes base = spec_bytes(t, c->base);
        th_bytes bad = spec_bytes(t, c->bad);
        size_t nchars = 0;
        while (nchars < 6 && c->cps[nchars])
            nchars++;
        size_t off = 0;
        for (size_t i = 0; i <= nchars; i++) {
            /* input: base[0..off) bad base[off..) */
            th_bytes in = {0};
            th_bytes_put(&in, base.p, off);
            th_bytes_put(&in, bad.p, bad.len);
            th_bytes_put(&in, base.p + off, base.len - off);
            char before[64] = "", after[64] = "";
            for (size_t k = 0; k < nchars; k++) {
                char *d = k < i ? before : after;
                strcat(d, c->cps[k]);
                strcat(d, " ");
            }
            th_ctx(t, "%s [%s] + [%s] at %zu", c->label, c->base, c->bad, off);
            bool at_end = i == nchars;
            dpair p;
            for (int stream = 0; stream < 2; stream++) {
                dpair_init(t, __LINE__, &p, c->label, true, false);
                if (c->truncated && at_end && stream) {
                    /* not an error yet: the flush reports it */
                    step_raw(t, __LINE__, &p, in.p, in.len, true, OK, before,
                             ALL);
                    step_raw(t, __LINE__, &p, NULL, 0, false, TYPE_ERROR, "",
                             0);
                    continue;
                }
                size_t consumed = off + c->bad_consumed;
                step_raw(t, __LINE__, &p, in.p, in.len, stream != 0,
                         TYPE_ERROR, before, consumed);
                /* go on with the unread rest */
                step_raw(t, __LINE__, &p, in.p + consumed, in.len - consumed,
                         false, OK, after, ALL);
            }
            th_ctx_clear(t);
            th_bytes_free(&in);
            if (i < nchars)
                off += c->lens[i];
        }
        CHECKF(t, off == base.len, "test bug: char lengths of case %zu", ci);
        th_bytes_free(&base);
        th_bytes_free(&bad);
    }
}

/* ---- capacity -------------------------------------------------------------- */

static void test_capacity(th *t)
{
    dpair p;
    dpair_init(t, __LINE__, &p, "utf-8", false, false);
    too_small(t, __LINE__, &p, "41 42 43", false);
    F("41 42 43", "'ABC'");
    S("E2 82", "");
    too_small(t, __LINE__, &p, "AC", false);
    too_small(t, __LINE__, &p, "AC", true);
    too_small(t, __LINE__, &p, "", false);
    F("AC", "20AC");
    /* the flush of a pending sequence needs room for U+FFFD */
    S("F0 9F", "");
    too_small(t, __LINE__, &p, "", false);
    FLUSH("FFFD");
    /* a too-small call does not end a stream ... */
    S("41", "41");
    too_small(t, __LINE__, &p, "EF BB BF 42", false);
    S("EF BB BF 42", "FEFF 42");
    FLUSH("");
    /* ... nor carry on the one a flush ended: the next call starts anew */
    too_small(t, __LINE__, &p, "EF BB BF 42", true);
    S("EF BB BF 42", "42");
    FLUSH("");

    dpair_init(t, __LINE__, &p, "utf-16le", false, false);
    S("3D D8", "");
    too_small(t, __LINE__, &p, "00", false);
    S("00", "");
    F("DE", "1F600");

    /* overflow */
    wenc_text_decoder td;
    wenc_text_decoder_init(&td, "utf-8", 5, false, false);
    CHECK(t, wenc_text_decoder_max_utf8_len(&td, SIZE_MAX) == SIZE_MAX);
    CHECK(t, wenc_text_decoder_max_utf16_len(&td, SIZE_MAX) == SIZE_MAX);
    CHECK(t, wenc_text_decoder_max_utf8_len(&td, SIZE_MAX / 2) == SIZE_MAX);
}

/* ---- TextDecoderStream (§7.5) ------------------------------------------------ */

/* Runs `in` through a decoder stream in the chunks given by the split
 * points (each chunk: decode and enqueue a chunk = decode(chunk, stream
 * true); at the end: flush and enqueue = decode() with no input) and returns
 * the concatenated output, or false at a TypeError. */
static bool stream_run(const char *label, bool fatal, const uint8_t *in,
                       size_t n, const size_t *splits, size_t nsplits,
                       th_bytes *o8, th_units *o16)
{
    wenc_text_decoder d8, d16;
    wenc_text_decoder_init(&d8, label, strlen(label), fatal, false);
    wenc_text_decoder_init(&d16, label, strlen(label), fatal, false);
    size_t start = 0;
    bool ok = true;
    for (size_t k = 0; k <= nsplits + 1 && ok; k++) {
        bool flush = k == nsplits + 1;
        size_t end = flush ? n : k < nsplits ? splits[k] : n;
        size_t len = flush ? 0 : end - start;
        const uint8_t *src = flush ? NULL : in + start;
        size_t cap8 = wenc_text_decoder_max_utf8_len(&d8, len);
        size_t cap16 = wenc_text_decoder_max_utf16_len(&d16, len);
        uint8_t *b8 = xmalloc(cap8);
        uint16_t *b16 = xmalloc(cap16 * sizeof *b16);
        size_t m8 = cap8, m16 = cap16;
        wenc_text_status s8 = wenc_text_decoder_decode_utf8(&d8, src, len,
                                                            !flush, b8, &m8,
                                                            NULL);
        wenc_text_status s16 = wenc_text_decoder_decode_utf16(
            &d16, src, len, !flush, b16, &m16, NULL);
        if (s8 != WENC_TEXT_OK || s16 != WENC_TEXT_OK)
            ok = false;
        else {
            th_bytes_put(o8, b8, m8);
            th_units_put(o16, b16, m16);
        }
        free(b8);
        free(b16);
        start = end;
    }
    return ok;
}

typedef struct stream_case {
    const char *label;
    const char *in;
    const char *expect;
} stream_case;

static const stream_case stream_cases[] = {
    {"utf-8", "EF BB BF 41 C3 A9 E2 82 AC F0 9F 98 80 EF BB BF",
     "41 E9 20AC 1F600 FEFF"},
    {"utf-8", "41 E2 82 42 F0 9F 98 C0 80 ED A0 80 F0 9F 98",
     "41 FFFD 42 FFFD FFFD FFFD FFFD FFFD FFFD FFFD"},
    {"utf-16le", "FF FE 41 00 3D D8 00 DE FF FE 00 D8", "41 1F600 FEFF FFFD"},
    {"utf-16be", "FE FF D8 3D DE 00 00 41 00", "1F600 41 FFFD"},
    {"shift_jis", "82 A0 41 B1 82", "3042 41 FF71 FFFD"},
    {"iso-2022-jp", "1B 24 42 24 22 1B 28 42 41 1B 28 4A 5C",
     "3042 41 A5"},
    {"gb18030", "81 30 81 30 B0 A1 84 31 A5 30 41", "80 554A FFFD 41"},
    {"big5", "A4 40 88 62 41", "4E00 CA 304 41"},
    {"euc-jp", "A4 A2 8E B1 8F B0 A1", "3042 FF71 4E02"},
};

static void test_decoder_stream(th *t)
{
    size_t ncases = sizeof stream_cases / sizeof stream_cases[0];
    for (size_t ci = 0; ci < ncases; ci++) {
        const stream_case *c = &stream_cases[ci];
        if (skip_label(t, __LINE__, c->label))
            continue;
        th_bytes in = spec_bytes(t, c->in);
        th_bytes x8 = {0};
        th_units x16 = {0};
        spec_text(t, c->expect, &x8, &x16);
        size_t n = in.len;
        size_t splits[64];
        /* one chunk; every byte its own chunk; every 2- and 3-way split */
        for (int mode = 0; mode < 4; mode++) {
            size_t i_max = mode >= 2 ? n : 0;
            for (size_t i = 0; i <= i_max; i++) {
                size_t j_max = mode == 3 ? n : i;
                for (size_t j = i; j <= j_max; j++) {
                    size_t ns = 0;
                    if (mode == 1)
                        for (size_t k = 1; k < n; k++)
                            splits[ns++] = k;
                    else if (mode == 2)
                        splits[ns++] = i;
                    else if (mode == 3) {
                        splits[ns++] = i;
                        splits[ns++] = j;
                    }
                    th_bytes o8 = {0};
                    th_units o16 = {0};
                    th_ctx(t, "stream %s [%s] mode %d split %zu,%zu",
                           c->label, c->in, mode, i, j);
                    CHECK(t, stream_run(c->label, false, in.p, n, splits, ns,
                                        &o8, &o16));
                    CHECK_BYTES(t, "utf8", x8.p, x8.len, o8.p, o8.len);
                    CHECK_UNITS(t, "utf16", x16.p, x16.len, o16.p, o16.len);
                    th_ctx_clear(t);
                    th_bytes_free(&o8);
                    th_units_free(&o16);
                }
            }
        }
        th_bytes_free(&in);
        th_bytes_free(&x8);
        th_units_free(&x16);
    }

    /* fatal: the flush raises the error for an incomplete sequence */
    dpair p;
    dpair_init(t, __LINE__, &p, "utf-8", true, false);
    S("41 E2", "41");
    S("82", "");
    step(t, __LINE__, &p, "", false, TYPE_ERROR, "", 0);
    dpair_init(t, __LINE__, &p, "utf-16le", true, false);
    S("41 00 3D", "41");
    step(t, __LINE__, &p, "", false, TYPE_ERROR, "", 0);
    dpair_init(t, __LINE__, &p, "utf-16le", true, false);
    S("3D D8", "");
    step(t, __LINE__, &p, "", false, TYPE_ERROR, "", 0);
    dpair_init(t, __LINE__, &p, "euc-jp", true, false);
    S("8F B0", "");
    step(t, __LINE__, &p, "", false, TYPE_ERROR, "", 0);
    /* and a chunk raises it for malformed input */
    dpair_init(t, __LINE__, &p, "utf-8", true, false);
    S("41", "41");
    step(t, __LINE__, &p, "42 80", true, TYPE_ERROR, "42", 2);
    /* non-fatal: the flush enqueues U+FFFD */
    dpair_init(t, __LINE__, &p, "utf-8", false, false);
    S("41 E2", "41");
    S("82", "");
    FLUSH("FFFD");
}

/* ---- TextEncoder (§7.4) ---------------------------------------------------- */

static void encode_case(th *t, int line, const char *in, const char *expect)
{
    th_units u = spec_units(t, in);
    th_bytes x = spec_bytes(t, expect);
    uint8_t *dst = xmalloc(3 * u.len); /* exactly what the API asks for */
    th_ctx(t, "encode [%s]", in);
    size_t m = wenc_text_encode(u.p, u.len, dst);
    th_check_bytes(t, __FILE__, line, "bytes", x.p, x.len, dst, m);
    th_ctx_clear(t);
    free(dst);
    th_units_free(&u);
    th_bytes_free(&x);
}

static void test_encode(th *t)
{
    encode_case(t, __LINE__, "", "");
    encode_case(t, __LINE__, "'Hi!'", "486921");
    encode_case(t, __LINE__, "0 7F", "00 7F");
    encode_case(t, __LINE__, "80 E9 7FF", "C280 C3A9 DFBF");
    encode_case(t, __LINE__, "800 20AC FEFF FFFD FFFF", "E0A080 E282AC EFBBBF "
                                                        "EFBFBD EFBFBF");
    encode_case(t, __LINE__, "D800 DC00 D83D DE00 DBFF DFFF",
                "F0908080 F09F9880 F48FBFBF");
    encode_case(t, __LINE__, "D800", "EFBFBD");
    encode_case(t, __LINE__, "DFFF", "EFBFBD");
    encode_case(t, __LINE__, "41 D83D", "41 EFBFBD");
    encode_case(t, __LINE__, "D83D 41", "EFBFBD 41");
    encode_case(t, __LINE__, "DE00 D83D", "EFBFBD EFBFBD");
    encode_case(t, __LINE__, "D83D D83D DE00", "EFBFBD F09F9880");
    encode_case(t, __LINE__, "D83D DE00 DE00", "F09F9880 EFBFBD");
    encode_case(t, __LINE__, "DC00 DC00 DC00", "EFBFBD EFBFBD EFBFBD");
}

/* TextEncoder.encode over a string held as UTF-8 bytes. */
static void encode_utf8_case(th *t, int line, const char *in, const char *expect)
{
    th_bytes u = spec_bytes(t, in);
    th_bytes x = spec_bytes(t, expect);
    uint8_t *dst = xmalloc(3 * u.len + 1);
    th_ctx(t, "encode utf8 [%s]", in);
    size_t m = wenc_text_encode_utf8(u.p, u.len, dst);
    th_check_bytes(t, __FILE__, line, "bytes", x.p, x.len, dst, m);
    th_ctx_clear(t);
    free(dst);
    th_bytes_free(&u);
    th_bytes_free(&x);
}

static void test_encode_utf8(th *t)
{
    encode_utf8_case(t, __LINE__, "", "");
    encode_utf8_case(t, __LINE__, "41 C3A9 E282AC F09F9880", "41 C3A9 E282AC F09F9880");
    /* one U+FFFD per maximal subpart (§8.1.1) */
    encode_utf8_case(t, __LINE__, "FF", "EFBFBD");
    encode_utf8_case(t, __LINE__, "E0 80 80", "EFBFBD EFBFBD EFBFBD");
    encode_utf8_case(t, __LINE__, "ED A0 80", "EFBFBD EFBFBD EFBFBD");
    encode_utf8_case(t, __LINE__, "F0 9F 98", "EFBFBD");
    encode_utf8_case(t, __LINE__, "E2 82 41", "EFBFBD 41");
    encode_utf8_case(t, __LINE__, "F4 90 80 80", "EFBFBD EFBFBD EFBFBD EFBFBD");
}

/* The text for encodeInto, one scalar value per piece: the UTF-16 units it
 * reads and the UTF-8 bytes it writes. */
typedef struct piece {
    const char *units;
    size_t nunits;
    const char *bytes;
} piece;

static void encode_into_case(th *t, int line, const piece *pieces, size_t np)
{
    th_units src = {0};
    for (size_t i = 0; i < np; i++) {
        th_units u = spec_units(t, pieces[i].units);
        th_check(t, u.len == pieces[i].nunits, __FILE__, line,
                 "test bug: piece %zu", i);
        th_units_put(&src, u.p, u.len);
        th_units_free(&u);
    }
    th_bytes all = {0};
    size_t *ends = xmalloc((np + 1) * sizeof *ends); /* bytes after piece */
    ends[0] = 0;
    for (size_t i = 0; i < np; i++) {
        th_bytes b = spec_bytes(t, pieces[i].bytes);
        th_bytes_put(&all, b.p, b.len);
        ends[i + 1] = all.len;
        th_bytes_free(&b);
    }
    /* every capacity from 0 to the full length (and one more) */
    for (size_t cap = 0; cap <= all.len + 1; cap++) {
        size_t k = 0, want_read = 0;
        while (k < np && ends[k + 1] <= cap) {
            want_read += pieces[k].nunits;
            k++;
        }
        size_t want_written = ends[k];
        uint8_t *dst = xmalloc(cap + 8);
        memset(dst, 0xAA, cap + 8);
        size_t rd = 99, wr = 99;
        th_ctx(t, "encodeInto capacity %zu", cap);
        wenc_text_encode_into(src.p, src.len, dst, cap, &rd, &wr);
        th_check_u64(t, __FILE__, line, "read", want_read, rd);
        th_check_u64(t, __FILE__, line, "written", want_written, wr);
        th_check_bytes(t, __FILE__, line, "bytes", all.p, want_written, dst,
                       wr <= cap ? wr : cap);
        bool untouched = true;
        for (size_t b = want_written; b < cap + 8; b++)
            if (dst[b] != 0xAA)
                untouched = false;
        th_check(t, untouched, __FILE__, line,
                 "bytes after `written` were modified");
        th_ctx_clear(t);
        free(dst);
    }
    free(ends);
    th_units_free(&src);
    th_bytes_free(&all);
}

static void test_encode_into(th *t)
{
    static const piece mixed[] = {
        {"41", 1, "41"},             {"E9", 1, "C3A9"},
        {"20AC", 1, "E282AC"},       {"D83D DE00", 2, "F09F9880"},
        {"D800", 1, "EFBFBD"},       {"42", 1, "42"},
        {"DFFF", 1, "EFBFBD"},       {"7FF", 1, "DFBF"},
        {"DBFF DFFF", 2, "F48FBFBF"}, {"0", 1, "00"},
        {"D83D", 1, "EFBFBD"},
    };
    encode_into_case(t, __LINE__, mixed, sizeof mixed / sizeof mixed[0]);
    static const piece emoji[] = {
        {"41", 1, "41"},
        {"D83D DE00", 2, "F09F9880"},
    };
    encode_into_case(t, __LINE__, emoji, 2);
    static const piece pairs[] = {
        {"D83D DE00", 2, "F09F9880"},
        {"D800 DC00", 2, "F0908080"},
        {"DC00", 1, "EFBFBD"},
        {"D800 DFFF", 2, "F0908FBF"},
    };
    encode_into_case(t, __LINE__, pairs, 4);
    encode_into_case(t, __LINE__, NULL, 0);

    /* the example of the brief, spelled out: "A😀" into 4 bytes */
    const uint16_t a_emoji[3] = {0x41, 0xD83D, 0xDE00};
    uint8_t dst[4];
    size_t rd, wr;
    wenc_text_encode_into(a_emoji, 3, dst, 4, &rd, &wr);
    CHECK_EQ(t, "A+emoji cap 4 read", 1, rd);
    CHECK_EQ(t, "A+emoji cap 4 written", 1, wr);
    CHECK(t, dst[0] == 0x41);
    wenc_text_encode_into(a_emoji, 3, NULL, 0, &rd, &wr);
    CHECK_EQ(t, "cap 0 read", 0, rd);
    CHECK_EQ(t, "cap 0 written", 0, wr);
}

/* ---- TextEncoderStream (§7.6) -------------------------------------------- */

typedef struct es_step {
    const char *chunk; /* unit spec; NULL: encode and flush */
    const char *out;   /* bytes enqueued (empty: nothing) */
} es_step;

static void encoder_stream_case(th *t, int line, const es_step *steps,
                                size_t n)
{
    wenc_text_encoder_stream ts;
    wenc_text_encoder_stream_init(&ts);
    for (size_t i = 0; i < n; i++) {
        th_bytes x = spec_bytes(t, steps[i].out);
        th_ctx(t, "encoder stream step %zu [%s]", i,
               steps[i].chunk ? steps[i].chunk : "flush");
        if (steps[i].chunk) {
            th_units u = spec_units(t, steps[i].chunk);
            uint8_t *dst = xmalloc(3 * (u.len + 1)); /* what the API asks */
            size_t m = wenc_text_encoder_stream_chunk(&ts, u.p, u.len, dst);
            th_check_bytes(t, __FILE__, line, "chunk", x.p, x.len, dst, m);
            free(dst);
            th_units_free(&u);
        } else {
            uint8_t *dst = xmalloc(3);
            size_t m = wenc_text_encoder_stream_flush(&ts, dst);
            th_check_bytes(t, __FILE__, line, "flush", x.p, x.len, dst, m);
            free(dst);
        }
        th_ctx_clear(t);
        th_bytes_free(&x);
    }
}

#define ES(...)                                                           \
    do {                                                                  \
        static const es_step s_[] = {__VA_ARGS__};                        \
        encoder_stream_case(t, __LINE__, s_, sizeof s_ / sizeof s_[0]);   \
    } while (0)

static void test_encoder_stream(th *t)
{
    /* a pair split across chunks reassembles */
    ES({"D83D", ""}, {"DE00", "F09F9880"}, {NULL, ""});
    ES({"41 D83D", "41"}, {"DE00 42", "F09F9880 42"}, {NULL, ""});
    /* an empty chunk in between keeps the pending surrogate */
    ES({"D83D", ""}, {"", ""}, {"DE00", "F09F9880"}, {NULL, ""});
    /* a pending high surrogate at close: EF BF BD from the flush */
    ES({"41 D83D", "41"}, {NULL, "EFBFBD"});
    ES({"D800", ""}, {NULL, "EFBFBD"});
    /* a lone high, then a non-trail in the next chunk: U+FFFD then it */
    ES({"D800", ""}, {"41", "EFBFBD 41"}, {NULL, ""});
    ES({"D800", ""}, {"E9 20AC", "EFBFBD C3A9 E282AC"}, {NULL, ""});
    /* ... or another high: U+FFFD, and the new one is pending */
    ES({"D800", ""}, {"D83D", "EFBFBD"}, {"DE00", "F09F9880"}, {NULL, ""});
    ES({"D800", ""}, {"D800", "EFBFBD"}, {NULL, "EFBFBD"});
    /* lone trail surrogates */
    ES({"DC00", "EFBFBD"}, {"41 DE00", "41 EFBFBD"}, {NULL, ""});
    ES({"D83D DE00 DE00", "F09F9880 EFBFBD"}, {NULL, ""});
    /* the worst case for the output size: pending, then all lone */
    ES({"D800", ""}, {"DC00", "F0908080"}, {NULL, ""});
    ES({"DBFF", ""}, {"DBFF DBFF DBFF", "EFBFBD EFBFBD EFBFBD"},
       {NULL, "EFBFBD"});
    ES({"D800", ""}, {"DC01 DC02 DC03", "F0908081 EFBFBD EFBFBD"},
       {NULL, ""});
    /* nothing at all */
    ES({NULL, ""});
    ES({"", ""}, {NULL, ""});
}

int main(int argc, char **argv)
{
    th t;
    th_begin(&t, "test_api_text");
    th_args(&t, argc, argv);
    if (th_part(&t, "core")) {
        test_constructor(&t);
        test_stream(&t);
        test_bom(&t);
        test_bom_after_error(&t);
        test_fatal(&t);
        test_fatal_every_position(&t);
        test_capacity(&t);
        test_decoder_stream(&t);
        test_encode(&t);
        test_encode_utf8(&t);
        test_encode_into(&t);
        test_encoder_stream(&t);
    }
    if (th_part(&t, "data"))
        test_constructor_every_label(&t);
    return th_end(&t);
}

/* test_labels.c — names, labels, get an encoding (§4.2), get an output
 * encoding (§4.3), BOM sniff (§6), wenc_has_encoder. Expected values come
 * from encodings.json (read at test time) and from the Standard's text. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Standard's table of encodings, in order (§4.2). */
static const char *const expected_names[WENC_ENCODING_COUNT] = {
    "UTF-8",          "IBM866",         "ISO-8859-2",     "ISO-8859-3",
    "ISO-8859-4",     "ISO-8859-5",     "ISO-8859-6",     "ISO-8859-7",
    "ISO-8859-8",     "ISO-8859-8-I",   "ISO-8859-10",    "ISO-8859-13",
    "ISO-8859-14",    "ISO-8859-15",    "ISO-8859-16",    "KOI8-R",
    "KOI8-U",         "macintosh",      "windows-874",    "windows-1250",
    "windows-1251",   "windows-1252",   "windows-1253",   "windows-1254",
    "windows-1255",   "windows-1256",   "windows-1257",   "windows-1258",
    "x-mac-cyrillic", "GBK",            "gb18030",        "Big5",
    "EUC-JP",         "ISO-2022-JP",    "Shift_JIS",      "EUC-KR",
    "replacement",    "UTF-16BE",       "UTF-16LE",       "x-user-defined",
};

/* Looks up exactly n bytes copied into a heap block of exactly that size, so
 * that reading past the label is caught by ASan. */
static wenc_id lookup_exact(const void *label, size_t n)
{
    char *p = malloc(n ? n : 1);
    if (!p)
        abort();
    if (n)
        memcpy(p, label, n);
    wenc_id id = wenc_lookup(n ? p : NULL, n);
    free(p);
    return id;
}

static wenc_id id_of_name(const char *name)
{
    for (int i = 0; i < WENC_ENCODING_COUNT; i++)
        if (strcmp(expected_names[i], name) == 0)
            return (wenc_id)i;
    return WENC_INVALID;
}

static void hexlabel(char *out, size_t size, const void *p, size_t n)
{
    th_hex(out, size, p, n, 120);
}

static void test_names(th *t)
{
    th_ctx(t, "wenc_name");
    for (int i = 0; i < WENC_ENCODING_COUNT; i++) {
        const char *n = wenc_name((wenc_id)i);
        CHECKF(t, n != NULL && strcmp(n, expected_names[i]) == 0,
               "wenc_name(%d): expected \"%s\", actual \"%s\"", i,
               expected_names[i], n ? n : "(null)");
    }
    CHECK(t, wenc_name(WENC_INVALID) == NULL);
    CHECK(t, wenc_name(WENC_ENCODING_COUNT) == NULL);
    CHECK(t, wenc_name((wenc_id)41) == NULL);
    CHECK(t, wenc_name((wenc_id)1000) == NULL);
    CHECK(t, wenc_name((wenc_id)-2) == NULL);
    CHECK(t, wenc_name((wenc_id)-1000) == NULL);
    CHECK_EQ(t, "WENC_ENCODING_COUNT", 40, WENC_ENCODING_COUNT);
    CHECK(t, strcmp(wenc_version(), WENC_VERSION_STRING) == 0);
}

static void test_output_encoding_and_encoders(th *t)
{
    th_ctx(t, "wenc_output_encoding / wenc_has_encoder");
    for (int i = 0; i < WENC_ENCODING_COUNT; i++) {
        wenc_id id = (wenc_id)i;
        bool special = id == WENC_REPLACEMENT || id == WENC_UTF_16BE ||
                       id == WENC_UTF_16LE;
        wenc_id out = wenc_output_encoding(id);
        CHECKF(t, out == (special ? WENC_UTF_8 : id),
               "wenc_output_encoding(%s) = %d", expected_names[i], (int)out);
        CHECKF(t, wenc_has_encoder(id) == !special,
               "wenc_has_encoder(%s) = %d", expected_names[i],
               (int)wenc_has_encoder(id));
    }
    CHECK(t, wenc_output_encoding(WENC_INVALID) == WENC_INVALID);
    CHECK(t, wenc_output_encoding(WENC_ENCODING_COUNT) == WENC_INVALID);
    CHECK(t, wenc_output_encoding((wenc_id)-7) == WENC_INVALID);
    CHECK(t, wenc_output_encoding((wenc_id)500) == WENC_INVALID);
    CHECK(t, !wenc_has_encoder(WENC_INVALID));
    CHECK(t, !wenc_has_encoder(WENC_ENCODING_COUNT));
    CHECK(t, !wenc_has_encoder((wenc_id)500));
    CHECK(t, !wenc_has_encoder((wenc_id)-7));
}

/* Random ASCII case and random ASCII whitespace around the label. */
static size_t mangle(th_rng *rng, const char *label, char *out)
{
    static const char ws[5] = {0x09, 0x0A, 0x0C, 0x0D, 0x20};
    size_t o = 0;
    size_t lead = th_rng_below(rng, 5), trail = th_rng_below(rng, 5);
    for (size_t i = 0; i < lead; i++)
        out[o++] = ws[th_rng_below(rng, 5)];
    for (const char *p = label; *p; p++) {
        char c = *p;
        if (th_rng_below(rng, 2)) {
            if (c >= 'a' && c <= 'z')
                c = (char)(c - 'a' + 'A');
            else if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
        }
        out[o++] = c;
    }
    for (size_t i = 0; i < trail; i++)
        out[o++] = ws[th_rng_below(rng, 5)];
    return o;
}

static void test_labels_from_json(th *t)
{
    th_labels l;
    if (!th_labels_load(&l)) {
        th_skip(t, TH_SKIP_DATA,
                "label checks against encodings.json: cannot read or parse "
                "%s/encodings.json",
                th_data_dir());
        return;
    }
    th_ctx(t, "encodings.json");
    CHECK_EQ(t, "labels in encodings.json", 228, l.count);
    CHECK_EQ(t, "encodings in encodings.json", 40, l.name_count);
    for (size_t i = 0; i < l.name_count && i < WENC_ENCODING_COUNT; i++) {
        const char *n = wenc_name((wenc_id)i);
        CHECKF(t, n && strcmp(n, l.names[i]) == 0,
               "encoding %zu: encodings.json says \"%s\", wenc_name \"%s\"", i,
               l.names[i], n ? n : "(null)");
    }
    /* wenc_label_at lists the labels in the file's order */
    CHECK_EQ(t, "wenc_label_count()", l.count, wenc_label_count());
    for (size_t i = 0; i < l.count; i++) {
        wenc_id id = (wenc_id)-100;
        const char *s = wenc_label_at(i, &id);
        th_ctx(t, "wenc_label_at(%zu), expected \"%s\" (%s)", i,
               l.items[i].label, l.items[i].name);
        CHECKF(t, s && strcmp(s, l.items[i].label) == 0, "label \"%s\"",
               s ? s : "(null)");
        CHECKF(t, id == id_of_name(l.items[i].name) && id != WENC_INVALID,
               "id %d", (int)id);
        CHECK(t, wenc_label_at(i, NULL) == s);
    }
    /* every label resolves to its encoding, as is and mangled */
    th_rng rng;
    th_rng_seed(&rng, 0x1ABE15);
    for (size_t i = 0; i < l.count; i++) {
        const char *label = l.items[i].label;
        wenc_id want = id_of_name(l.items[i].name);
        th_ctx(t, "label \"%s\" -> %s", label, l.items[i].name);
        wenc_id got = lookup_exact(label, strlen(label));
        CHECKF(t, got == want && wenc_name(got) &&
                      strcmp(wenc_name(got), l.items[i].name) == 0,
               "wenc_lookup gave %d (%s)", (int)got,
               wenc_name(got) ? wenc_name(got) : "null");
        for (int k = 0; k < 30; k++) {
            char buf[128];
            size_t n = mangle(&rng, label, buf);
            got = lookup_exact(buf, n);
            if (!CHECKF(t, got == want, "wenc_lookup of mangled form gave %d",
                        (int)got)) {
                char hx[400];
                hexlabel(hx, sizeof hx, buf, n);
                printf("    mangled label bytes: %s\n", hx);
            }
        }
        /* all upper case, no whitespace */
        char up[64];
        size_t n = strlen(label);
        for (size_t k = 0; k < n; k++)
            up[k] = (label[k] >= 'a' && label[k] <= 'z')
                        ? (char)(label[k] - 'a' + 'A')
                        : label[k];
        CHECKF(t, lookup_exact(up, n) == want, "upper-case form: %d",
               (int)lookup_exact(up, n));
        /* with a trailing dot or a trailing 'x': not a label (unless the
         * result happens to be one) */
        char more[80];
        memcpy(more, label, n);
        const char extra[3] = {'.', 'x', '_'};
        for (int e = 0; e < 3; e++) {
            more[n] = extra[e];
            more[n + 1] = 0;
            bool is_label = false;
            for (size_t j = 0; j < l.count; j++)
                if (strcmp(l.items[j].label, more) == 0)
                    is_label = true;
            if (!is_label)
                CHECKF(t, lookup_exact(more, n + 1) == WENC_INVALID,
                       "\"%s\" is not a label but resolved", more);
        }
        /* with its last character dropped: not a label unless it is */
        if (n > 1) {
            memcpy(more, label, n - 1);
            more[n - 1] = 0;
            bool is_label = false;
            wenc_id as = WENC_INVALID;
            for (size_t j = 0; j < l.count; j++)
                if (strcmp(l.items[j].label, more) == 0) {
                    is_label = true;
                    as = id_of_name(l.items[j].name);
                }
            CHECKF(t, lookup_exact(more, n - 1) == (is_label ? as : WENC_INVALID),
                   "prefix \"%s\" gave %d", more,
                   (int)lookup_exact(more, n - 1));
        }
    }
    th_labels_free(&l);
}

typedef struct bad_label {
    const char *bytes;
    size_t len; /* 0: strlen */
} bad_label;

#define BL(s) {s, sizeof(s) - 1}

static void test_non_labels(th *t)
{
    static const bad_label bad[] = {
        BL(""),
        BL(" "),
        BL("\t\n\f\r "),
        BL("\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"),
        BL("utf -8"),
        BL("utf- 8"),
        BL("u tf-8"),
        BL("utf\t-8"),
        BL("utf\n8"),
        BL(" utf 8 "),
        BL("\x0butf-8"),
        BL("utf-8\x0b"),
        BL("\x0b"),
        BL("\xc2\xa0utf-8"),
        BL("utf-8\xc2\xa0"),
        BL("\xa0utf-8"),
        BL("utf-8\xa0"),
        BL("\xc2\x85utf-8"),
        BL("utf-8\x85"),
        BL("\xe3\x80\x80utf-8"), /* U+3000 IDEOGRAPHIC SPACE */
        BL("\xef\xbb\xbfutf-8"), /* a BOM before the label */
        BL("utf-8\0"),
        BL("utf\0-8"),
        BL("\0utf-8"),
        BL("utf-8\0 "),
        BL("\0"),
        BL("latin1\0\0"),
        BL("\xe2\x84\xaaoi8-r"),  /* U+212A KELVIN SIGN for k */
        BL("\xe2\x84\xaaOI8-U"),
        BL("\xc5\xbfhift_jis"),   /* U+017F LONG S */
        BL("\xc4\xb1so-8859-1"),  /* U+0131 DOTLESS I */
        BL("\xc4\xb0SO-8859-1"),  /* U+0130 CAPITAL I WITH DOT */
        BL("utf8x"),
        BL("utf-7"),
        BL("utf7"),
        BL("utf-32"),
        BL("utf-32le"),
        BL("ucs-4"),
        BL("utf_8"),
        BL("utf16be"),
        BL("utf-16-le"),
        BL("iso-8859-12"),
        BL("windows-1259"),
        BL("windows1252"),
        BL("cp-1252"),
        BL("latin10"),
        BL("latin7"),
        BL("latin9"),
        BL("latin"),
        BL("l10"),
        BL("iso8859_1"),
        BL("iso885916"),
        BL("eucjp"),
        BL("ks_c_5601"),
        BL("big-5"),
        BL("gb-18030"),
        BL("cp874"),
        BL("tis620"),
        BL("xmacroman"),
        BL("utf-8."),
        BL("latin1."),
        BL("utf-16."),
        BL("x-user-defined."),
        BL(".utf-8"),
        BL("\"utf-8\""),
        BL("'utf-8'"),
        BL("utf-8;"),
        BL("utf-8,"),
        BL("text/html; charset=utf-8"),
        BL("charset=utf-8"),
        BL("qwertyuiopasdfghjklzx"),
        BL("abcdefghijklmnopqrstuvwxyz0123456789"),
        BL("unicode-1-1-utf-8x"),
        BL("xunicode-1-1-utf-8"),
        BL("iso_8859-1:1987x"),
        BL("utf--8"),
        BL("utf-88"),
        BL("\x7f" "utf-8"),
        BL("utf-8\x7f"),
        BL("\x1futf-8"),
        BL("utf-8\x80"),
        BL("\xff"),
        BL("UTF-8\xef\xbf\xbd"),
    };
    char hx[400];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hexlabel(hx, sizeof hx, bad[i].bytes, bad[i].len);
        th_ctx(t, "non-label [%s]", hx);
        wenc_id got = lookup_exact(bad[i].bytes, bad[i].len);
        CHECKF(t, got == WENC_INVALID, "wenc_lookup gave %d (%s)", (int)got,
               wenc_name(got) ? wenc_name(got) : "null");
    }
    CHECK_EQ(t, "number of hand-written non-labels >= 50", 1,
             (sizeof bad / sizeof bad[0]) >= 50);

    /* A 100-byte label and a long one */
    char big[300];
    memset(big, 'a', sizeof big);
    memcpy(big, "utf-8", 5);
    th_ctx(t, "100-byte non-label");
    CHECK(t, lookup_exact(big, 100) == WENC_INVALID);
    th_ctx(t, "300-byte non-label");
    CHECK(t, lookup_exact(big, 300) == WENC_INVALID);
    memset(big, ' ', sizeof big);
    th_ctx(t, "300 spaces");
    CHECK(t, lookup_exact(big, 300) == WENC_INVALID);
    /* a label after a lot of whitespace is still a label (trimming is not
     * bounded) */
    memcpy(big + 150, "utf-8", 5);
    th_ctx(t, "150 spaces, utf-8, 145 spaces");
    CHECK(t, lookup_exact(big, 300) == WENC_UTF_8);
    th_ctx(t, "wenc_lookup(NULL, 0)");
    CHECK(t, wenc_lookup(NULL, 0) == WENC_INVALID);
    /* The length is what counts, not a NUL: "utf-8" given 3 bytes is "utf" */
    th_ctx(t, "explicit lengths");
    CHECK(t, wenc_lookup("utf-8", 3) == WENC_INVALID);
    CHECK(t, wenc_lookup("utf-8", 4) == WENC_INVALID);
    CHECK(t, wenc_lookup("utf-8", 5) == WENC_UTF_8);
    CHECK(t, wenc_lookup("utf-8xyz", 5) == WENC_UTF_8);
    CHECK(t, wenc_lookup("utf8", 4) == WENC_UTF_8);
    CHECK(t, wenc_lookup("l1 junk", 2) == WENC_WINDOWS_1252);
}

/* Spot checks written from the Standard's table (§4.2), independent of
 * encodings.json. */
static void test_known_labels(th *t)
{
    static const struct {
        const char *label;
        wenc_id id;
    } known[] = {
        {"utf-8", WENC_UTF_8},
        {"UTF8", WENC_UTF_8},
        {"unicode-1-1-utf-8", WENC_UTF_8},
        {"x-unicode20utf8", WENC_UTF_8},
        {"866", WENC_IBM866},
        {"latin1", WENC_WINDOWS_1252},
        {"iso-8859-1", WENC_WINDOWS_1252},
        {"ascii", WENC_WINDOWS_1252},
        {"us-ascii", WENC_WINDOWS_1252},
        {"ansi_x3.4-1968", WENC_WINDOWS_1252},
        {"iso-8859-9", WENC_WINDOWS_1254},
        {"iso-8859-11", WENC_WINDOWS_874},
        {"tis-620", WENC_WINDOWS_874},
        {"dos-874", WENC_WINDOWS_874},
        {"iso-8859-8-i", WENC_ISO_8859_8_I},
        {"logical", WENC_ISO_8859_8_I},
        {"visual", WENC_ISO_8859_8},
        {"l9", WENC_ISO_8859_15},
        {"latin6", WENC_ISO_8859_10},
        {"iso-8859-16", WENC_ISO_8859_16},
        {"koi", WENC_KOI8_R},
        {"koi8_r", WENC_KOI8_R},
        {"koi8-ru", WENC_KOI8_U},
        {"mac", WENC_MACINTOSH},
        {"x-mac-ukrainian", WENC_X_MAC_CYRILLIC},
        {"gb2312", WENC_GBK},
        {"x-gbk", WENC_GBK},
        {"iso-ir-58", WENC_GBK},
        {"chinese", WENC_GBK},
        {"gb18030", WENC_GB18030},
        {"big5-hkscs", WENC_BIG5},
        {"x-x-big5", WENC_BIG5},
        {"x-euc-jp", WENC_EUC_JP},
        {"csiso2022jp", WENC_ISO_2022_JP},
        {"sjis", WENC_SHIFT_JIS},
        {"windows-31j", WENC_SHIFT_JIS},
        {"shift-jis", WENC_SHIFT_JIS},
        {"korean", WENC_EUC_KR},
        {"windows-949", WENC_EUC_KR},
        {"csiso2022kr", WENC_REPLACEMENT},
        {"hz-gb-2312", WENC_REPLACEMENT},
        {"iso-2022-cn-ext", WENC_REPLACEMENT},
        /* The brief for these tests said "replacement" is not a label; the
         * Standard's table (and encodings.json, 228 labels) lists it as a
         * label of replacement, so the Standard wins. */
        {"replacement", WENC_REPLACEMENT},
        {"utf-16be", WENC_UTF_16BE},
        {"unicodefffe", WENC_UTF_16BE},
        {"utf-16", WENC_UTF_16LE},
        {"utf-16le", WENC_UTF_16LE},
        {"ucs-2", WENC_UTF_16LE},
        {"unicode", WENC_UTF_16LE},
        {"csunicode", WENC_UTF_16LE},
        {"x-user-defined", WENC_X_USER_DEFINED},
        {" \t\n\f\rX-User-Defined\r\f\n\t ", WENC_X_USER_DEFINED},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        th_ctx(t, "label \"%s\"", known[i].label);
        wenc_id got = lookup_exact(known[i].label, strlen(known[i].label));
        CHECKF(t, got == known[i].id, "expected %s, got %d (%s)",
               expected_names[known[i].id], (int)got,
               wenc_name(got) ? wenc_name(got) : "null");
    }
    th_ctx(t, "label list");
    CHECK_EQ(t, "wenc_label_count()", 228, wenc_label_count());
    wenc_id keep = (wenc_id)12345;
    CHECK(t, wenc_label_at(228, &keep) == NULL && keep == (wenc_id)12345);
    CHECK(t, wenc_label_at(wenc_label_count(), NULL) == NULL);
    CHECK(t, wenc_label_at((size_t)-1, &keep) == NULL && keep == (wenc_id)12345);
    /* every listed label is lower case, resolves to the id listed with it */
    size_t per_id[WENC_ENCODING_COUNT] = {0};
    for (size_t i = 0; i < wenc_label_count() && i < 1000; i++) {
        wenc_id id = WENC_INVALID;
        const char *s = wenc_label_at(i, &id);
        th_ctx(t, "wenc_label_at(%zu)", i);
        if (!CHECK(t, s != NULL))
            continue;
        bool lower = true;
        for (const char *p = s; *p; p++)
            if ((*p >= 'A' && *p <= 'Z') || (unsigned char)*p > 0x7F ||
                *p <= ' ')
                lower = false;
        CHECKF(t, lower, "label \"%s\" not lower-case ASCII", s);
        CHECKF(t, wenc_lookup(s, strlen(s)) == id, "\"%s\" resolves to %d, listed with %d",
               s, (int)wenc_lookup(s, strlen(s)), (int)id);
        if (id >= 0 && id < WENC_ENCODING_COUNT)
            per_id[id]++;
    }
    /* label counts per encoding, from the Standard's table */
    static const size_t want_per_id[WENC_ENCODING_COUNT] = {
        6, 4, 9, 9, 9, 8, 14, 12, 11, 3, 7, 3, 3, 6, 1, 5, 2, 4, 6, 3,
        3, 17, 3, 12, 3, 3, 3, 3, 2, 9, 1, 5, 3, 2, 8, 10, 6, 2, 7, 1};
    for (int i = 0; i < WENC_ENCODING_COUNT; i++) {
        th_ctx(t, "labels of %s", expected_names[i]);
        CHECK_EQ(t, "number of labels", want_per_id[i], per_id[i]);
    }
}

typedef struct sniff_case {
    const char *spec;
    size_t len;      /* bytes given to wenc_bom_sniff */
    wenc_id id;
    size_t bom_len;
} sniff_case;

static void test_bom_sniff(th *t)
{
    static const sniff_case cases[] = {
        {"EF BB BF", 0, WENC_INVALID, 0},
        {"EF BB BF", 1, WENC_INVALID, 0},
        {"EF BB BF", 2, WENC_INVALID, 0},
        {"EF BB BF", 3, WENC_UTF_8, 3},
        {"FE FF", 0, WENC_INVALID, 0},
        {"FE FF", 1, WENC_INVALID, 0},
        {"FE FF", 2, WENC_UTF_16BE, 2},
        {"FF FE", 0, WENC_INVALID, 0},
        {"FF FE", 1, WENC_INVALID, 0},
        {"FF FE", 2, WENC_UTF_16LE, 2},
        {"FE FF 00", 3, WENC_UTF_16BE, 2},
        {"FF FE 00", 3, WENC_UTF_16LE, 2},
        {"FF FE 00 00", 4, WENC_UTF_16LE, 2}, /* no UTF-32 */
        {"FE FF FE FF", 4, WENC_UTF_16BE, 2},
        {"EF BB BF 41", 4, WENC_UTF_8, 3},
        {"EF BB BF EF BB BF", 6, WENC_UTF_8, 3},
        {"EF BB BF FF FE", 5, WENC_UTF_8, 3},
        {"FE FF 41", 1, WENC_INVALID, 0},
        {"EF BB BE", 3, WENC_INVALID, 0},
        {"EF BB 41", 3, WENC_INVALID, 0},
        {"EF BF BB", 3, WENC_INVALID, 0},
        {"EF BB", 2, WENC_INVALID, 0},
        {"BB BF", 2, WENC_INVALID, 0},
        {"FE FE", 2, WENC_INVALID, 0},
        {"FF FF", 2, WENC_INVALID, 0},
        {"FE", 1, WENC_INVALID, 0},
        {"FF", 1, WENC_INVALID, 0},
        {"FE 00 FF", 3, WENC_INVALID, 0},
        {"00 FE FF", 3, WENC_INVALID, 0},
        {"00 00 FE FF", 4, WENC_INVALID, 0},
        {"41 EF BB BF", 4, WENC_INVALID, 0},
        {"20 EF BB BF", 4, WENC_INVALID, 0},
        {"C3 AF C2 BB C2 BF", 6, WENC_INVALID, 0},
        {"2B 2F 76 38", 4, WENC_INVALID, 0}, /* UTF-7 BOM: not sniffed */
        {"0E FE FF", 3, WENC_INVALID, 0},    /* SCSU BOM: not sniffed */
        {"DD 73 66 73", 4, WENC_INVALID, 0}, /* UTF-EBCDIC: not sniffed */
        {"", 0, WENC_INVALID, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_bytes b = {0};
        th_parse_bytes(cases[i].spec, &b);
        th_ctx(t, "wenc_bom_sniff([%s], %zu)", cases[i].spec, cases[i].len);
        /* exact-size heap copy: no reading past len */
        uint8_t *p = malloc(cases[i].len ? cases[i].len : 1);
        if (!p)
            abort();
        if (cases[i].len)
            memcpy(p, b.p, cases[i].len);
        size_t bl = 777;
        wenc_id got = wenc_bom_sniff(cases[i].len ? p : NULL, cases[i].len, &bl);
        CHECK_EQ(t, "encoding", (uint64_t)(int64_t)cases[i].id,
                 (uint64_t)(int64_t)got);
        CHECK_EQ(t, "bom_len", cases[i].bom_len, bl);
        got = wenc_bom_sniff(cases[i].len ? p : NULL, cases[i].len, NULL);
        CHECK_EQ(t, "encoding with bom_len NULL", (uint64_t)(int64_t)cases[i].id,
                 (uint64_t)(int64_t)got);
        free(p);
        th_bytes_free(&b);
    }
    /* every 1..3-byte input that is not a BOM prefix, exhaustively for the
     * first byte and around the BOM bytes */
    th_ctx(t, "wenc_bom_sniff exhaustive short inputs");
    unsigned long bad = 0;
    for (unsigned a = 0; a < 256; a++) {
        for (unsigned b2 = 0; b2 < 256; b2++) {
            uint8_t buf[3] = {(uint8_t)a, (uint8_t)b2, 0xBF};
            wenc_id want = WENC_INVALID;
            size_t want_len = 0;
            if (a == 0xFE && b2 == 0xFF)
                want = WENC_UTF_16BE, want_len = 2;
            else if (a == 0xFF && b2 == 0xFE)
                want = WENC_UTF_16LE, want_len = 2;
            else if (a == 0xEF && b2 == 0xBB)
                want = WENC_UTF_8, want_len = 3;
            size_t bl = 99;
            wenc_id got = wenc_bom_sniff(buf, 3, &bl);
            if (got != want || bl != want_len) {
                if (bad++ < 5)
                    CHECKF(t, false, "[%02X %02X BF]: got %d/%zu, want %d/%zu",
                           a, b2, (int)got, bl, (int)want, want_len);
            }
            bl = 99;
            got = wenc_bom_sniff(buf, 1, &bl);
            if (got != WENC_INVALID || bl != 0) {
                if (bad++ < 5)
                    CHECKF(t, false, "[%02X] alone: got %d/%zu", a, (int)got,
                           bl);
            }
        }
    }
    CHECKF(t, bad == 0, "%lu wrong answers for short inputs", bad);
}

int main(int argc, char **argv)
{
    th t;
    th_begin(&t, "test_labels");
    th_args(&t, argc, argv);
    if (th_part(&t, "core")) {
        test_names(&t);
        test_output_encoding_and_encoders(&t);
        test_known_labels(&t);
        test_non_labels(&t);
        test_bom_sniff(&t);
    }
    if (th_part(&t, "data"))
        test_labels_from_json(&t);
    return th_end(&t);
}

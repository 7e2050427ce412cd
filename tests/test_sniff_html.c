/* test_sniff_html.c — the HTML Standard's encoding sniffing (extension):
 * wenc_sniff_html, wenc_sniff_xml_encoding, wenc_html_default_encoding.
 *
 * Every expectation is written by hand from the HTML Standard's steps
 * (§13.2.3.2 and the meta-element extraction algorithm) and its table of
 * locale defaults, or from the W3C's i18n tests of the input byte stream,
 * which tests/data/w3c-i18n/ holds (its README.md names their source); a
 * missing file fails the test. html5lib-tests' encoding cases are
 * test_sniff_html5lib's.
 *
 * Each input is copied into a heap block of exactly its size, so that a read
 * past the bytes given is caught under ASan. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W3C_DIR "tests/data/w3c-i18n"

typedef struct expected {
    wenc_id encoding;
    wenc_confidence confidence;
    wenc_sniff_source source;
    size_t offset, length;
    bool need_more;
} expected;

static wenc_sniff_result sniff_exact(const void *bytes, size_t len,
                                     const char *label, wenc_id fallback)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        abort();
    if (len)
        memcpy(copy, bytes, len);
    wenc_sniff_result r = wenc_sniff_html(len ? copy : NULL, len, label,
                                          label ? strlen(label) : 0, fallback);
    free(copy);
    return r;
}

static void check_result(th *t, int line, wenc_sniff_result r, expected e)
{
    CHECKF(t, r.encoding == e.encoding, "line %d: encoding %s, expected %s",
           line, wenc_name(r.encoding), wenc_name(e.encoding));
    CHECKF(t, r.confidence == e.confidence, "line %d: confidence %d, expected %d",
           line, (int)r.confidence, (int)e.confidence);
    CHECKF(t, r.source == e.source, "line %d: source %s, expected %s", line,
           wenc_sniff_source_name(r.source), wenc_sniff_source_name(e.source));
    CHECKF(t, r.offset == e.offset && r.length == e.length,
           "line %d: decided by bytes [%zu, +%zu), expected [%zu, +%zu)", line,
           r.offset, r.length, e.offset, e.length);
    CHECKF(t, r.need_more == e.need_more, "line %d: need_more %d, expected %d",
           line, (int)r.need_more, (int)e.need_more);
}

/* Expectations in brief: tentative answers of the prescan (meta, xml, utf-16
 * xml) and of the default; certain ones of a BOM and a transport label. */
static expected meta(wenc_id id, size_t offset, size_t length)
{
    return (expected){id, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_META, offset, length, false};
}
static expected fallback(wenc_id id, bool need_more)
{
    return (expected){id, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_DEFAULT, 0, 0, need_more};
}
static expected xml_decl(wenc_id id, size_t length, bool need_more)
{
    return (expected){id, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_XML_DECLARATION, 0,
                      length, need_more};
}
static expected bom(wenc_id id, size_t length)
{
    return (expected){id, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_BOM, 0, length, false};
}
static expected transport(wenc_id id, bool need_more)
{
    return (expected){id, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_TRANSPORT, 0, 0, need_more};
}

/* A document without a label, sniffed with windows-1252 as the default. */
#define HTML(t, doc, exp) \
    check_result((t), __LINE__, sniff_exact((doc), sizeof(doc) - 1, NULL, WENC_INVALID), (exp))

static void test_bom_and_transport(th *t)
{
    th_ctx(t, "BOM and transport layer");
    check_result(t, __LINE__, sniff_exact("\xEF\xBB\xBF<meta charset=gbk>", 22, NULL, WENC_INVALID),
                 bom(WENC_UTF_8, 3));
    check_result(t, __LINE__, sniff_exact("\xFE\xFF\x00<", 4, "gbk", WENC_INVALID),
                 bom(WENC_UTF_16BE, 2));
    check_result(t, __LINE__, sniff_exact("\xFF\xFE", 2, "gbk", WENC_INVALID),
                 bom(WENC_UTF_16LE, 2));
    /* The transport label wins over a meta, is matched as get an encoding
     * matches (whitespace, case), and a label that is not one is ignored. */
    check_result(t, __LINE__,
                 sniff_exact("<meta charset=gbk>", 18, " \tSHIFT_jis\n", WENC_INVALID),
                 transport(WENC_SHIFT_JIS, false));
    check_result(t, __LINE__, sniff_exact("<meta charset=gbk>", 18, "x-bogus", WENC_INVALID),
                 meta(WENC_GBK, 0, 18));
    check_result(t, __LINE__, sniff_exact("<meta charset=gbk>", 18, "", WENC_INVALID),
                 meta(WENC_GBK, 0, 18));
    check_result(t, __LINE__, sniff_exact("", 0, "iso-2022-kr", WENC_INVALID),
                 transport(WENC_REPLACEMENT, true));
    /* Fewer than three bytes that begin a BOM: more bytes could make it one. */
    check_result(t, __LINE__, sniff_exact("\xEF\xBB", 2, "koi8-r", WENC_INVALID),
                 transport(WENC_KOI8_R, true));
    check_result(t, __LINE__, sniff_exact("\xFE", 1, "koi8-r", WENC_INVALID),
                 transport(WENC_KOI8_R, true));
    check_result(t, __LINE__, sniff_exact("\xEF\xBC", 2, "koi8-r", WENC_INVALID),
                 transport(WENC_KOI8_R, false));
    check_result(t, __LINE__, sniff_exact("\xEF\xBB", 2, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, true));
    /* Nothing at all: the default, windows-1252 unless the caller says. */
    check_result(t, __LINE__, sniff_exact(NULL, 0, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, true));
    check_result(t, __LINE__, sniff_exact("<p>", 3, NULL, WENC_UTF_8),
                 fallback(WENC_UTF_8, true));
    check_result(t, __LINE__, sniff_exact("<p>", 3, NULL, (wenc_id)WENC_ENCODING_COUNT),
                 fallback(WENC_WINDOWS_1252, true));
}

static void test_meta_charset(th *t)
{
    th_ctx(t, "meta charset");
    HTML(t, "<meta charset=\"shift_jis\">", meta(WENC_SHIFT_JIS, 0, 26));
    HTML(t, "<meta charset=euc-kr>", meta(WENC_EUC_KR, 0, 21));
    HTML(t, "<meta charset='koi8-u'>", meta(WENC_KOI8_U, 0, 23));
    HTML(t, "<META CHARSET=\"SHIFT_JIS\">", meta(WENC_SHIFT_JIS, 0, 26));
    HTML(t, "<MeTa/charset=big5>", meta(WENC_BIG5, 0, 19));
    HTML(t, "<meta\ncharset = \" gbk \" >", meta(WENC_GBK, 0, 25));
    HTML(t, "<html><head><meta charset=utf-8>", meta(WENC_UTF_8, 12, 20));
    HTML(t, "<!DOCTYPE html><meta charset=gbk>", meta(WENC_GBK, 15, 18));
    /* The adjustments: UTF-16BE/LE become UTF-8, x-user-defined
     * windows-1252; a replacement label stays the replacement encoding. */
    HTML(t, "<meta charset=utf-16le>", meta(WENC_UTF_8, 0, 23));
    HTML(t, "<meta charset=UTF-16>", meta(WENC_UTF_8, 0, 21));
    HTML(t, "<meta charset=utf-16be>", meta(WENC_UTF_8, 0, 23));
    HTML(t, "<meta charset=x-user-defined>", meta(WENC_WINDOWS_1252, 0, 29));
    HTML(t, "<meta charset=iso-2022-kr>", meta(WENC_REPLACEMENT, 0, 26));
    HTML(t, "<meta http-equiv=content-type content=charset=utf-16be>",
         meta(WENC_UTF_8, 0, 55));
    HTML(t, "<meta http-equiv=content-type content=charset=x-user-defined>",
         meta(WENC_WINDOWS_1252, 0, 61));
    HTML(t, "<meta http-equiv=content-type content=charset=csiso2022kr>",
         meta(WENC_REPLACEMENT, 0, 58));
    /* Not labels: the empty value, a byte outside ASCII, an inner space. */
    HTML(t, "<meta charset>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta charset=>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta charset=\"\xE9\">", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta charset=\"shift jis\">", fallback(WENC_WINDOWS_1252, true));
    /* A failed meta does not end the prescan: the next one decides. */
    HTML(t, "<meta charset=bogus><meta charset=big5>", meta(WENC_BIG5, 20, 19));
    /* Not a meta: "<meta" must be followed by whitespace or '/'. */
    HTML(t, "<metadata charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta>charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "</meta charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<xmeta charset=gbk>", fallback(WENC_WINDOWS_1252, true));
}

static void test_meta_content(th *t)
{
    th_ctx(t, "meta http-equiv and content");
    HTML(t, "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-2\">",
         meta(WENC_ISO_8859_2, 0, 72));
    HTML(t, "<meta content=\"charset=koi8-u\" http-equiv=content-type>",
         meta(WENC_KOI8_U, 0, 55));
    HTML(t, "<meta http-equiv=CONTENT-TYPE content=text/html;charset=gbk>",
         meta(WENC_GBK, 0, 60));
    /* content without http-equiv, or with another pragma, decides nothing. */
    HTML(t, "<meta content=\"text/html; charset=koi8-u\">", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta http-equiv=refresh content=\"charset=koi8-u\">",
         fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta http-equiv=\" content-type\" content=\"charset=koi8-u\">",
         fallback(WENC_WINDOWS_1252, true));
    /* http-equiv without content decides nothing either. */
    HTML(t, "<meta http-equiv=content-type>", fallback(WENC_WINDOWS_1252, true));
    /* charset wins over content in either order; a failed charset is not
     * null, so a later content cannot set one. */
    HTML(t, "<meta content=\"charset=koi8-u\" charset=gbk http-equiv=content-type>",
         meta(WENC_GBK, 0, 67));
    HTML(t, "<meta charset=gbk content=\"charset=koi8-u\">", meta(WENC_GBK, 0, 43));
    HTML(t, "<meta charset=bogus content=\"charset=koi8-u\" http-equiv=content-type>",
         fallback(WENC_WINDOWS_1252, true));
    /* The extraction algorithm: the first "charset" followed by '=' counts,
     * its value quoted (nested in the attribute's other quotes) or up to
     * whitespace or ';'; an unmatched quote gives nothing. */
    HTML(t, "<meta content='text/html; charset=\"koi8-r\"' http-equiv=content-type>",
         meta(WENC_KOI8_R, 0, 68));
    HTML(t, "<meta content=\"text/html; charset='koi8-r\" http-equiv=content-type>",
         fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta content=\"charsetcharset=gbk\" http-equiv=content-type>",
         meta(WENC_GBK, 0, 59));
    HTML(t, "<meta content=\"xCHARSET = gbk;foo\" http-equiv=content-type>",
         meta(WENC_GBK, 0, 59));
    HTML(t, "<meta content=\"charset=x charset=koi8-u\" http-equiv=content-type>",
         fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta content=\"charset=\" http-equiv=content-type>",
         fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta content=\"charset = \" http-equiv=content-type>",
         fallback(WENC_WINDOWS_1252, true));
    /* A failed content leaves charset null: a later charset attribute
     * still counts, but the same name again is ignored. */
    HTML(t, "<meta content=\"charset=bogus\" charset=big5>", meta(WENC_BIG5, 0, 43));
    HTML(t, "<meta http-equiv=content-type content=\"charset=bogus\" content=\"charset=gbk\">",
         fallback(WENC_WINDOWS_1252, true));
}

static void test_get_an_attribute(th *t)
{
    th_ctx(t, "get an attribute");
    /* Duplicate attributes: the first of a name counts. */
    HTML(t, "<meta charset=big5 charset=gbk>", meta(WENC_BIG5, 0, 31));
    HTML(t, "<meta http-equiv=refresh http-equiv=content-type content=\"charset=gbk\">",
         fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta http-equiv=content-type http-equiv=refresh content=\"charset=gbk\">",
         meta(WENC_GBK, 0, 71));
    /* Attributes without values: a name ended by '/' or '>' or by
     * whitespace not followed by '=' has the empty value, and takes its
     * name's place. */
    HTML(t, "<meta charset/ charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta charset charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta http-equiv content=\"charset=gbk\">", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta foo bar/baz charset=gbk>", meta(WENC_GBK, 0, 30));
    /* A name may begin with '=': "=charset" is not "charset". */
    HTML(t, "<meta =charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta = charset=gbk>", meta(WENC_GBK, 0, 20));
    /* An unquoted value ends at whitespace or '>', not at '/' or a quote. */
    HTML(t, "<meta charset=gbk/>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta charset=gbk />", meta(WENC_GBK, 0, 20));
    HTML(t, "<meta charset=>gbk>", fallback(WENC_WINDOWS_1252, true));
    /* A quoted value may hold '>' and the other quote. */
    HTML(t, "<meta name=\"a>'b\" charset='gbk'>", meta(WENC_GBK, 0, 32));
    /* Other tags' attributes are read and skipped, quotes and all. */
    HTML(t, "<a title=\"<meta charset=gbk>\"><meta charset=big5>", meta(WENC_BIG5, 30, 19));
    HTML(t, "<a title=x <meta charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<a\ttitle='>'><meta charset=big5>", meta(WENC_BIG5, 13, 19));
    HTML(t, "<p/><meta charset=big5>", meta(WENC_BIG5, 4, 19));
    /* Whitespace is TAB, LF, FF, CR and SPACE; not VT (0x0B), which is
     * then part of a name or value. */
    HTML(t, "<meta\x0C charset\r=\ngbk\x0C>", meta(WENC_GBK, 0, 22));
    HTML(t, "<meta charset=gbk\r>", meta(WENC_GBK, 0, 19));
    HTML(t, "<meta\x0Bcharset=gbk>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta charset=gbk\x0B>", fallback(WENC_WINDOWS_1252, true));
}

static void test_skipped_markup(th *t)
{
    th_ctx(t, "comments, <!, </, <?");
    HTML(t, "<!-- <meta charset=gbk> --><meta charset=koi8-r>", meta(WENC_KOI8_R, 27, 21));
    /* "-->" may share its dashes with "<!--". */
    HTML(t, "<!--><meta charset=big5>", meta(WENC_BIG5, 5, 19));
    HTML(t, "<!---><meta charset=big5>", meta(WENC_BIG5, 6, 19));
    HTML(t, "<!-- -> <meta charset=gbk> -- > --><meta charset=big5>",
         meta(WENC_BIG5, 35, 19));
    /* An unclosed comment runs to the end of the bytes. */
    HTML(t, "<!-- <meta charset=gbk>", fallback(WENC_WINDOWS_1252, true));
    /* <! (not a comment), </ (not a tag) and <? end at the first '>'. */
    HTML(t, "<!x <meta charset=gbk><meta charset=big5>", meta(WENC_BIG5, 22, 19));
    HTML(t, "</ <meta charset=gbk><meta charset=big5>", meta(WENC_BIG5, 21, 19));
    HTML(t, "<? <meta charset=gbk> ?>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "</1 <meta charset=gbk> <meta charset=big5>", meta(WENC_BIG5, 23, 19));
    /* A lone '<' is any other byte. */
    HTML(t, "< <meta charset=big5>", meta(WENC_BIG5, 2, 19));
    HTML(t, "<<meta charset=big5>", meta(WENC_BIG5, 1, 19));
}

static void test_non_ascii_compatible(th *t)
{
    th_ctx(t, "bytes that are not ASCII-compatible");
    /* UTF-16LE and UTF-16BE text without a BOM: the prescan sees no meta. */
    static const char le_meta[] = "<\0m\0e\0t\0a\0 \0c\0h\0a\0r\0s\0e\0t\0=\0g\0b\0k\0>\0";
    HTML(t, le_meta, fallback(WENC_WINDOWS_1252, true));
    static const char be_meta[] = "\0<\0m\0e\0t\0a\0 \0c\0h\0a\0r\0s\0e\0t\0=\0g\0b\0k\0>";
    HTML(t, be_meta, fallback(WENC_WINDOWS_1252, true));
    /* The prescan's UTF-16 '<?x' check (six bytes exactly). */
    check_result(t, __LINE__, sniff_exact("<\0?\0x\0", 6, NULL, WENC_INVALID),
                 (expected){WENC_UTF_16LE, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_UTF16_XML, 0,
                            6, false});
    check_result(t, __LINE__, sniff_exact("\0<\0?\0x\0m\0l", 10, NULL, WENC_INVALID),
                 (expected){WENC_UTF_16BE, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_UTF16_XML, 0,
                            6, false});
    check_result(t, __LINE__, sniff_exact("<\0?\0X\0", 6, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, true));
    check_result(t, __LINE__, sniff_exact("<\0?\0x", 5, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, true));
    /* EBCDIC '<meta charset=gbk>' (cp037) and bytes 80-FF in attributes. */
    HTML(t, "\x4C\x94\x85\xA3\x81\x40\x83\x88\x81\x99\xA2\x85\xA3\x7E\x87\x82\x92\x6E",
         fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<meta \xC3\xA9=1 charset=gbk>", meta(WENC_GBK, 0, 23));
    HTML(t, "<p \xFF\xFE='>'><meta charset=gbk>", meta(WENC_GBK, 10, 18));
}

static void test_xml_declaration(th *t)
{
    th_ctx(t, "get an XML encoding");
    HTML(t, "<?xml version=\"1.0\" encoding=\"ISO-8859-5\"?>",
         xml_decl(WENC_ISO_8859_5, 41, true));
    HTML(t, "<?xml version='1.0' encoding = \t'koi8-r'?><p>", xml_decl(WENC_KOI8_R, 40, true));
    /* Declared UTF-16 becomes UTF-8; x-user-defined stays (only the meta
     * path changes it). */
    HTML(t, "<?xml version=\"1.0\" encoding=\"utf-16\"?>", xml_decl(WENC_UTF_8, 37, true));
    HTML(t, "<?xml encoding=\"x-user-defined\">", xml_decl(WENC_X_USER_DEFINED, 31, true));
    /* A meta after the declaration wins: <? is skipped to its '>'. */
    HTML(t, "<?xml version=\"1.0\" encoding=\"koi8-r\"?><meta charset=gbk>",
         meta(WENC_GBK, 39, 18));
    /* Failures: unquoted, inner space, no '>', upper case, no '='. */
    HTML(t, "<?xml encoding=koi8-r?>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml encoding=\"koi8-r \"?>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml encoding=\"koi8-r\"", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?XML encoding=\"koi8-r\"?>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml encoding \"koi8-r\"?>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, " <?xml encoding=\"koi8-r\"?>", fallback(WENC_WINDOWS_1252, true));
    /* Bytes up to 0x20 (not only whitespace) may stand around '=', and none
     * inside the label. */
    HTML(t, "<?xml encoding\x01=\x1F'koi8-r'?>", xml_decl(WENC_KOI8_R, 25, true));
    HTML(t, "<?xml encoding=\"\x01koi8-r\"?>", fallback(WENC_WINDOWS_1252, true));
    /* "encoding" counts only before the declaration's first '>' (the
     * HTML Standard's xmlDeclarationEnd): after it, the prescan has no
     * declaration and the default decides. */
    HTML(t, "<?xml version='1.0'?><p encoding='iso-8859-2'>",
         fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml version=\"1.0\"?><x encoding=\"koi8-r\">", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml /> encoding=\"koi8-r\"", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml encoding>=\"koi8-r\"?>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml encoding=>\"koi8-r\"?>", fallback(WENC_WINDOWS_1252, true));
    /* ...and the first "encoding" before it is the one read. */
    HTML(t, "<?xml encoding encoding='koi8-r'?>", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml xencoding='koi8-r'?>", xml_decl(WENC_KOI8_R, 24, true));
    /* A quote opened before the '>' and closed after it holds the '>',
     * which no label does. */
    HTML(t, "<?xml encoding='gbk?>'", fallback(WENC_WINDOWS_1252, true));
    HTML(t, "<?xml encoding='>koi8-r'", fallback(WENC_WINDOWS_1252, true));

    th_ctx(t, "wenc_sniff_xml_encoding");
    static const char utf16_decl[] = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><r/>";
    wenc_sniff_result r = wenc_sniff_xml_encoding((const uint8_t *)utf16_decl,
                                                  sizeof utf16_decl - 1);
    check_result(t, __LINE__, r, xml_decl(WENC_UTF_16LE, 37, false));
    static const struct {
        const char *bytes;
        bool need_more;
    } failures[] = {
        {"", true},
        {"<?xm", true},
        {"<?xml version=\"1.0\"", true},
        {"<?xml encoding", true},
        {"<?xml encoding=\"", true},
        {"<?xml encoding=\"gbk", true},
        {"<?xml version=\"1.0\"?>", false},
        {"<?xml version=\"1.0\"?> encoding=\"gbk\"", false},
        {"<?xml encoding=\"gbk?>", false},
        {"<html>", false},
        {"<?xml encoding=\"bogus\"?>", false},
        {"<?xml encoding=gbk?>", false},
        {"<?xml encoding:\"gbk\"?>", false},
    };
    for (size_t i = 0; i < sizeof failures / sizeof failures[0]; i++) {
        size_t n = strlen(failures[i].bytes);
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy)
            abort();
        memcpy(copy, failures[i].bytes, n);
        r = wenc_sniff_xml_encoding(n ? copy : NULL, n);
        free(copy);
        th_ctx(t, "wenc_sniff_xml_encoding(\"%s\")", failures[i].bytes);
        check_result(t, __LINE__, r,
                     (expected){WENC_INVALID, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_NONE, 0, 0,
                                failures[i].need_more});
    }
}

/* A document of `total` bytes: `before` filler bytes, then `tail`, then
 * filler up to `total`. */
static uint8_t *padded(size_t before, const char *tail, size_t total)
{
    uint8_t *doc = malloc(total);
    if (!doc)
        abort();
    memset(doc, 'x', total);
    memcpy(doc + before, tail, strlen(tail));
    return doc;
}

static void test_1024_boundary(th *t)
{
    th_ctx(t, "the prescan's 1024 bytes");
    static const char decl[] = "<meta charset=\"windows-1251\">"; /* 29 bytes */
    size_t n = sizeof decl - 1;
    /* The meta's '>' is byte 1023: found. */
    uint8_t *doc = padded(1024 - n, decl, 2048);
    check_result(t, __LINE__, sniff_exact(doc, 2048, NULL, WENC_INVALID),
                 meta(WENC_WINDOWS_1251, 1024 - n, n));
    free(doc);
    /* One byte later, the '>' is byte 1024 and the charset is split by the
     * boundary: never found, however many bytes follow. */
    doc = padded(1025 - n, decl, 2048);
    check_result(t, __LINE__, sniff_exact(doc, 2048, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, false));
    check_result(t, __LINE__, sniff_exact(doc, 1024, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, false));
    /* ...while fewer than 1024 bytes mean more could still decide. */
    check_result(t, __LINE__, sniff_exact(doc, 1023, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, true));
    free(doc);
    /* "<meta" ends at byte 1023, its space would be byte 1024. */
    doc = padded(1019, "<meta charset=gbk>", 1100);
    check_result(t, __LINE__, sniff_exact(doc, 1100, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, false));
    free(doc);
    doc = padded(1000, "<meta charset=\"windows-1251\">", 1100);
    check_result(t, __LINE__, sniff_exact(doc, 1100, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, false));
    free(doc);
    /* A comment opened before byte 1024 hides what follows it. */
    doc = padded(1020, "<!--", 1100);
    memcpy(doc + 1030, "--><meta charset=gbk>", 21);
    check_result(t, __LINE__, sniff_exact(doc, 1100, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, false));
    free(doc);
    /* The XML declaration is read in the same 1024 bytes, its '>' too. */
    doc = padded(0, "<?xml version=\"1.0\"", 1100);
    memcpy(doc + 1000, "encoding=\"gbk\"?>", 16);
    check_result(t, __LINE__, sniff_exact(doc, 1100, NULL, WENC_INVALID),
                 xml_decl(WENC_GBK, 1014, false));
    free(doc);
    doc = padded(0, "<?xml version=\"1.0\"", 1100);
    memcpy(doc + 1009, "encoding=\"gbk\"?>", 16);
    check_result(t, __LINE__, sniff_exact(doc, 1100, NULL, WENC_INVALID),
                 fallback(WENC_WINDOWS_1252, false));
    free(doc);
}

/* Documents made of markup pieces by a small local generator; for each, the
 * answer for every prefix must equal the whole document's when the prefix's
 * answer says no more bytes could change it, and the prefix must never be
 * read past (ASan). */
static void test_prefixes(th *t)
{
    static const char *const pieces[] = {
        "<meta", " ", "charset", "=", "gbk", "\"", "'", "<!--", "-->", ">", "<", "/",
        "http-equiv=content-type", "content=", "text/html;charset=koi8-r", ";", "\t",
        "<?xml", " encoding=", "\"big5\"", "\xEF", "\xBB", "\xBF", "\xFE", "\xFF",
        "<a", "</", "<!", "<?", "x", "-", "<\0?\0x\0", "utf-16", "CHARSET",
    };
    const size_t piece_count = sizeof pieces / sizeof pieces[0];
    static const size_t piece_len[] = {
        5, 1, 7, 1, 3, 1, 1, 4, 3, 1, 1, 1, 23, 8, 24, 1, 1,
        5, 10, 6, 1, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 6, 6, 7,
    };
    _Static_assert(sizeof piece_len / sizeof piece_len[0] ==
                       sizeof pieces / sizeof pieces[0],
                   "one length per piece");
    uint64_t state = 0x9E3779B97F4A7C15u;
    uint8_t doc[1200];
    unsigned long documents = 0, decided_early = 0;
    for (int round = 0; round < 3000; round++) {
        size_t len = 0;
        size_t target = (size_t)(round % 3 == 0 ? 1100 : 5 + round % 90);
        while (len < target) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            size_t k = (size_t)(state >> 33) % piece_count;
            size_t n = piece_len[k];
            if (len + n > sizeof doc)
                break;
            memcpy(doc + len, pieces[k], n);
            len += n;
        }
        const char *label = round % 7 == 0 ? "latin2" : NULL;
        wenc_sniff_result whole = sniff_exact(doc, len, label, WENC_INVALID);
        documents++;
        for (size_t k = 0; k <= len; k++) {
            wenc_sniff_result part = sniff_exact(doc, k, label, WENC_INVALID);
            if (k >= WENC_SNIFF_PRESCAN_BYTES && part.need_more) {
                CHECKF(t, false, "document %d: need_more at %zu bytes", round, k);
                break;
            }
            if (part.need_more)
                continue;
            if (k < len)
                decided_early++;
            bool same = part.encoding == whole.encoding && part.source == whole.source &&
                        part.confidence == whole.confidence &&
                        part.offset == whole.offset && part.length == whole.length;
            if (!CHECKF(t, same,
                        "document %d: %zu of %zu bytes answer %s by %s, the whole %s by %s",
                        round, k, len, wenc_name(part.encoding),
                        wenc_sniff_source_name(part.source), wenc_name(whole.encoding),
                        wenc_sniff_source_name(whole.source)))
                break;
        }
    }
    th_note(t, "prefixes: %lu generated documents, %lu prefixes decided before the end",
            documents, decided_early);
}

static void test_locale_defaults(th *t)
{
    th_ctx(t, "locale defaults");
    /* The HTML Standard's table, row by row. */
    static const struct {
        const char *tag;
        wenc_id encoding;
    } rows[] = {
        {"ar", WENC_WINDOWS_1256},      {"az", WENC_WINDOWS_1254},
        {"ba", WENC_WINDOWS_1251},      {"be", WENC_WINDOWS_1251},
        {"bg", WENC_WINDOWS_1251},      {"cs", WENC_WINDOWS_1250},
        {"el", WENC_ISO_8859_7},        {"et", WENC_WINDOWS_1257},
        {"fa", WENC_WINDOWS_1256},      {"he", WENC_WINDOWS_1255},
        {"hr", WENC_WINDOWS_1250},      {"hu", WENC_ISO_8859_2},
        {"ja", WENC_SHIFT_JIS},         {"kk", WENC_WINDOWS_1251},
        {"ko", WENC_EUC_KR},            {"ku", WENC_WINDOWS_1254},
        {"ky", WENC_WINDOWS_1251},      {"lt", WENC_WINDOWS_1257},
        {"lv", WENC_WINDOWS_1257},      {"mk", WENC_WINDOWS_1251},
        {"pl", WENC_ISO_8859_2},        {"ru", WENC_WINDOWS_1251},
        {"sah", WENC_WINDOWS_1251},     {"sk", WENC_WINDOWS_1250},
        {"sl", WENC_ISO_8859_2},        {"sr", WENC_WINDOWS_1251},
        {"tg", WENC_WINDOWS_1251},      {"th", WENC_WINDOWS_874},
        {"tr", WENC_WINDOWS_1254},      {"tt", WENC_WINDOWS_1251},
        {"uk", WENC_WINDOWS_1251},      {"vi", WENC_WINDOWS_1258},
        {"zh-Hans", WENC_GBK},          {"zh-CN", WENC_GBK},
        {"zh-SG", WENC_GBK},            {"zh-Hant", WENC_BIG5},
        {"zh-HK", WENC_BIG5},           {"zh-MO", WENC_BIG5},
        {"zh-TW", WENC_BIG5},
        /* Longer tags, other spellings. */
        {"JA-jp", WENC_SHIFT_JIS},      {"ja_JP.UTF-8", WENC_SHIFT_JIS},
        {"pl_PL.UTF-8", WENC_ISO_8859_2}, {"sr@latin", WENC_WINDOWS_1251},
        {"ru-RU-x-private", WENC_WINDOWS_1251},
        {"zh-Hans-HK", WENC_GBK},       {"zh-Hant-CN", WENC_BIG5},
        {"zh-Latn-TW", WENC_BIG5},      {"zh_CN.GB18030", WENC_GBK},
        {"ZH-tw", WENC_BIG5},
        /* All other locales. */
        {"en", WENC_WINDOWS_1252},      {"en-US", WENC_WINDOWS_1252},
        {"de", WENC_WINDOWS_1252},      {"zh", WENC_WINDOWS_1252},
        {"zh-yue-HK", WENC_WINDOWS_1252}, {"zh-US", WENC_WINDOWS_1252},
        {"", WENC_WINDOWS_1252},        {"-", WENC_WINDOWS_1252},
        {"sahx", WENC_WINDOWS_1252},    {"j", WENC_WINDOWS_1252},
        {"jaa", WENC_WINDOWS_1252},     {"averylongtag-ja", WENC_WINDOWS_1252},
        {"C", WENC_WINDOWS_1252},       {"POSIX", WENC_WINDOWS_1252},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        size_t n = strlen(rows[i].tag);
        char *copy = malloc(n ? n : 1);
        if (!copy)
            abort();
        memcpy(copy, rows[i].tag, n);
        wenc_id got = wenc_html_default_encoding(n ? copy : NULL, n);
        free(copy);
        CHECKF(t, got == rows[i].encoding, "\"%s\": %s, expected %s", rows[i].tag,
               wenc_name(got), wenc_name(rows[i].encoding));
    }
    CHECK(t, wenc_html_default_encoding(NULL, 0) == WENC_WINDOWS_1252);
    CHECK(t, wenc_html_default_encoding("ja-JP", 2) == WENC_SHIFT_JIS);
}

static void test_source_names(th *t)
{
    th_ctx(t, "source names");
    CHECK(t, strcmp(wenc_sniff_source_name(WENC_SNIFF_NONE), "none") == 0);
    CHECK(t, strcmp(wenc_sniff_source_name(WENC_SNIFF_BOM), "bom") == 0);
    CHECK(t, strcmp(wenc_sniff_source_name(WENC_SNIFF_TRANSPORT), "transport") == 0);
    CHECK(t, strcmp(wenc_sniff_source_name(WENC_SNIFF_UTF16_XML), "utf-16-xml") == 0);
    CHECK(t, strcmp(wenc_sniff_source_name(WENC_SNIFF_META), "meta") == 0);
    CHECK(t, strcmp(wenc_sniff_source_name(WENC_SNIFF_XML_DECLARATION), "xml-declaration") == 0);
    CHECK(t, strcmp(wenc_sniff_source_name(WENC_SNIFF_DEFAULT), "default") == 0);
    CHECK(t, strcmp(wenc_sniff_source_name((wenc_sniff_source)99), "none") == 0);
}

/* The W3C i18n tests of the input byte stream: what each file's title and
 * assertion say a browser must find, the HTTP ones served with
 * "charset=iso-8859-15" (as the W3C's test server serves them). */
static void test_w3c_files(th *t)
{
    static const struct {
        const char *file;
        const char *http_label;
        expected e;
    } cases[] = {
        {"HTTP-charset.html", "iso-8859-15", {WENC_ISO_8859_15, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_TRANSPORT, 0, 0, false}},
        {"HTTP-vs-UTF-8-BOM.html", "iso-8859-15", {WENC_UTF_8, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_BOM, 0, 3, false}},
        {"HTTP-vs-meta-charset.html", "iso-8859-15", {WENC_ISO_8859_15, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_TRANSPORT, 0, 0, false}},
        {"HTTP-vs-meta-content.html", "iso-8859-15", {WENC_ISO_8859_15, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_TRANSPORT, 0, 0, false}},
        {"No-encoding-declaration.html", NULL, {WENC_UTF_8, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_DEFAULT, 0, 0, false}},
        {"UTF-16BE-BOM.html", NULL, {WENC_UTF_16BE, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_BOM, 0, 2, false}},
        {"UTF-16LE-BOM.html", NULL, {WENC_UTF_16LE, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_BOM, 0, 2, false}},
        {"UTF-8-BOM-vs-meta-charset.html", NULL, {WENC_UTF_8, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_BOM, 0, 3, false}},
        {"UTF-8-BOM-vs-meta-content.html", NULL, {WENC_UTF_8, WENC_CONFIDENCE_CERTAIN, WENC_SNIFF_BOM, 0, 3, false}},
        {"meta-charset-attribute.html", NULL, {WENC_ISO_8859_15, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_META, 43, 28, false}},
        {"meta-content-attribute.html", NULL, {WENC_ISO_8859_15, WENC_CONFIDENCE_TENTATIVE, WENC_SNIFF_META, 43, 73, false}},
    };
    const char *source_dir = getenv("WENC_SOURCE_DIR");
    if (!source_dir || !*source_dir)
        source_dir = ".";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/%s", source_dir, W3C_DIR, cases[i].file);
        th_ctx(t, "W3C %s", path);
        size_t len = 0;
        uint8_t *doc = th_read_file(path, &len);
        if (!CHECKF(t, doc != NULL, "cannot read the file"))
            continue;
        /* No-encoding-declaration asserts UTF-8: the default of a caller
         * that chose UTF-8, as the W3C's test expects. */
        check_result(t, __LINE__, sniff_exact(doc, len, cases[i].http_label, WENC_UTF_8),
                     cases[i].e);
        free(doc);
    }
}

int main(void)
{
    th t;
    th_begin(&t, "test_sniff_html");
    test_bom_and_transport(&t);
    test_meta_charset(&t);
    test_meta_content(&t);
    test_get_an_attribute(&t);
    test_skipped_markup(&t);
    test_non_ascii_compatible(&t);
    test_xml_declaration(&t);
    test_1024_boundary(&t);
    test_prefixes(&t);
    test_locale_defaults(&t);
    test_source_names(&t);
    test_w3c_files(&t);
    return th_end(&t);
}

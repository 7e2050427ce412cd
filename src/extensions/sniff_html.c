/* Extension: the HTML Standard's encoding sniffing (HTML §13.2.3.2: the
 * encoding sniffing algorithm, the prescan, "get an attribute", "get an
 * XML encoding") and its "algorithm for extracting a character encoding
 * from a meta element" (HTML §2.5.3 "Extracting character encodings from
 * meta elements"), over the Encoding Standard's labels. */
#include "../internal.h"

#include <string.h>

/* A window of the caller's bytes the prescan may read: [0, end). */
typedef struct byte_window {
    const uint8_t *bytes;
    size_t end;
} byte_window;

typedef struct byte_range {
    size_t start;
    size_t len;
} byte_range;

/* An attribute as "get an attribute" produces it. Its name and value are
 * ranges of the window read with A-Z lowered: the algorithm appends bytes
 * in order, so each is contiguous. */
typedef struct sniffed_attribute {
    byte_range name;
    byte_range value;
} sniffed_attribute;

typedef enum attribute_step {
    ATTRIBUTE_FOUND,
    ATTRIBUTE_NONE, /* at a '>': "there isn't one" */
    ATTRIBUTE_OUT_OF_BYTES
} attribute_step;

static bool is_space(uint8_t b)
{
    return b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D || b == 0x20;
}

static uint8_t ascii_lower(uint8_t b)
{
    return (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 0x20) : b;
}

static bool range_equals(const uint8_t *bytes, byte_range r, const char *word)
{
    size_t n = strlen(word);
    if (r.len != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (ascii_lower(bytes[r.start + i]) != (uint8_t)word[i])
            return false;
    return true;
}

/* The window's bytes from `pos` begin `pattern` (pattern_len bytes, each
 * matched exactly or, with fold, after lowering the window's byte). */
typedef enum prefix_match { PREFIX_NO, PREFIX_YES, PREFIX_OUT_OF_BYTES } prefix_match;

static prefix_match starts_with(const byte_window *w, size_t pos,
                                const uint8_t *pattern, size_t pattern_len,
                                bool fold)
{
    for (size_t i = 0; i < pattern_len; i++) {
        if (pos + i >= w->end)
            return PREFIX_OUT_OF_BYTES;
        uint8_t b = fold ? ascii_lower(w->bytes[pos + i]) : w->bytes[pos + i];
        if (b != pattern[i])
            return PREFIX_NO;
    }
    return PREFIX_YES;
}

/* HTML §13.2.3.2 "get an attribute", from *pos. */
static attribute_step get_attribute(const byte_window *w, size_t *pos,
                                    sniffed_attribute *attr)
{
    const uint8_t *b = w->bytes;
    size_t p = *pos;
    while (p < w->end && (is_space(b[p]) || b[p] == '/'))
        p++;
    if (p >= w->end)
        return ATTRIBUTE_OUT_OF_BYTES;
    if (b[p] == '>') {
        *pos = p;
        return ATTRIBUTE_NONE;
    }
    attr->name.start = p;
    attr->value.start = p;
    attr->value.len = 0;
    for (;;) {
        if (p >= w->end)
            return ATTRIBUTE_OUT_OF_BYTES;
        if (b[p] == '=' && p > attr->name.start) {
            attr->name.len = p - attr->name.start;
            p++;
            break;
        }
        if (is_space(b[p])) {
            attr->name.len = p - attr->name.start;
            while (p < w->end && is_space(b[p]))
                p++;
            if (p >= w->end)
                return ATTRIBUTE_OUT_OF_BYTES;
            if (b[p] != '=') {
                *pos = p;
                return ATTRIBUTE_FOUND;
            }
            p++;
            break;
        }
        if (b[p] == '/' || b[p] == '>') {
            attr->name.len = p - attr->name.start;
            *pos = p;
            return ATTRIBUTE_FOUND;
        }
        p++;
    }
    /* "Value" */
    while (p < w->end && is_space(b[p]))
        p++;
    if (p >= w->end)
        return ATTRIBUTE_OUT_OF_BYTES;
    if (b[p] == '"' || b[p] == '\'') {
        uint8_t quote = b[p];
        size_t start = ++p;
        while (p < w->end && b[p] != quote)
            p++;
        if (p >= w->end)
            return ATTRIBUTE_OUT_OF_BYTES;
        attr->value.start = start;
        attr->value.len = p - start;
        *pos = p + 1;
        return ATTRIBUTE_FOUND;
    }
    if (b[p] == '>') {
        *pos = p;
        return ATTRIBUTE_FOUND;
    }
    attr->value.start = p;
    p++;
    while (p < w->end && !is_space(b[p]) && b[p] != '>')
        p++;
    if (p >= w->end)
        return ATTRIBUTE_OUT_OF_BYTES;
    attr->value.len = p - attr->value.start;
    *pos = p;
    return ATTRIBUTE_FOUND;
}

/* HTML §2.5.3 "algorithm for extracting a character encoding from a meta
 * element", over a content attribute's value. */
static wenc_id encoding_from_content(const uint8_t *s, size_t n)
{
    static const uint8_t charset[] = {'c', 'h', 'a', 'r', 's', 'e', 't'};
    size_t pos = 0;
    for (;;) {
        size_t found = n;
        for (size_t i = pos; i + sizeof charset <= n; i++) {
            size_t k = 0;
            while (k < sizeof charset && ascii_lower(s[i + k]) == charset[k])
                k++;
            if (k == sizeof charset) {
                found = i;
                break;
            }
        }
        if (found == n)
            return WENC_INVALID;
        pos = found + sizeof charset;
        while (pos < n && is_space(s[pos]))
            pos++;
        if (pos >= n || s[pos] != '=')
            continue;
        pos++;
        while (pos < n && is_space(s[pos]))
            pos++;
        if (pos >= n)
            return WENC_INVALID;
        if (s[pos] == '"' || s[pos] == '\'') {
            const uint8_t *close = memchr(s + pos + 1, s[pos], n - pos - 1);
            if (!close)
                return WENC_INVALID;
            return wenc_lookup((const char *)s + pos + 1,
                               (size_t)(close - (s + pos + 1)));
        }
        size_t end = pos;
        while (end < n && !is_space(s[end]) && s[end] != ';')
            end++;
        return wenc_lookup((const char *)s + pos, end - pos);
    }
}

enum { NAME_HTTP_EQUIV = 1, NAME_CONTENT = 2, NAME_CHARSET = 4 };

typedef enum meta_step { META_ENCODING, META_NONE, META_OUT_OF_BYTES } meta_step;

/* The prescan's steps for a <meta> whose attributes start at *pos; on
 * META_ENCODING, *found is the encoding and *pos the meta's '>'. */
static meta_step prescan_meta(const byte_window *w, size_t *pos, wenc_id *found)
{
    unsigned seen_names = 0;
    bool got_pragma = false;
    enum { PRAGMA_NULL, PRAGMA_NEEDED, PRAGMA_NOT_NEEDED } need_pragma = PRAGMA_NULL;
    bool charset_set = false;
    wenc_id charset = WENC_INVALID;
    sniffed_attribute attr;
    for (;;) {
        attribute_step step = get_attribute(w, pos, &attr);
        if (step == ATTRIBUTE_OUT_OF_BYTES)
            return META_OUT_OF_BYTES;
        if (step == ATTRIBUTE_NONE)
            break;
        unsigned name;
        if (range_equals(w->bytes, attr.name, "http-equiv"))
            name = NAME_HTTP_EQUIV;
        else if (range_equals(w->bytes, attr.name, "content"))
            name = NAME_CONTENT;
        else if (range_equals(w->bytes, attr.name, "charset"))
            name = NAME_CHARSET;
        else
            continue;
        if (seen_names & name)
            continue;
        seen_names |= name;
        const uint8_t *value = w->bytes + attr.value.start;
        if (name == NAME_HTTP_EQUIV) {
            if (range_equals(w->bytes, attr.value, "content-type"))
                got_pragma = true;
        } else if (name == NAME_CONTENT) {
            wenc_id id = encoding_from_content(value, attr.value.len);
            if (id != WENC_INVALID && !charset_set) {
                charset = id;
                charset_set = true;
                need_pragma = PRAGMA_NEEDED;
            }
        } else {
            charset = wenc_lookup((const char *)value, attr.value.len);
            charset_set = true;
            need_pragma = PRAGMA_NOT_NEEDED;
        }
    }
    /* "Processing" */
    if (need_pragma == PRAGMA_NULL)
        return META_NONE;
    if (need_pragma == PRAGMA_NEEDED && !got_pragma)
        return META_NONE;
    if (charset == WENC_INVALID)
        return META_NONE;
    if (charset == WENC_UTF_16BE || charset == WENC_UTF_16LE)
        charset = WENC_UTF_8;
    if (charset == WENC_X_USER_DEFINED)
        charset = WENC_WINDOWS_1252;
    *found = charset;
    return META_ENCODING;
}

/* The next byte at or after `from` equal to `target`, or w->end. */
static size_t find_byte(const byte_window *w, size_t from, uint8_t target)
{
    if (from >= w->end)
        return w->end;
    const uint8_t *hit = memchr(w->bytes + from, target, w->end - from);
    return hit ? (size_t)(hit - w->bytes) : w->end;
}

/* HTML §13.2.3.2 "prescan a byte stream to determine its encoding", up to
 * running out of bytes or a found encoding (returns true, filling *r). */
static bool prescan(const byte_window *w, wenc_sniff_result *r)
{
    static const uint8_t utf16le_xml[] = {0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00};
    static const uint8_t utf16be_xml[] = {0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78};
    static const uint8_t comment_open[] = {'<', '!', '-', '-'};
    static const uint8_t meta_open[] = {'<', 'm', 'e', 't', 'a'};
    const uint8_t *b = w->bytes;

    if (starts_with(w, 0, utf16le_xml, sizeof utf16le_xml, false) == PREFIX_YES ||
        starts_with(w, 0, utf16be_xml, sizeof utf16be_xml, false) == PREFIX_YES) {
        r->encoding = b[0] == 0x3C ? WENC_UTF_16LE : WENC_UTF_16BE;
        r->source = WENC_SNIFF_UTF16_XML;
        r->offset = 0;
        r->length = sizeof utf16le_xml;
        return true;
    }
    size_t pos = 0;
    while (pos < w->end) {
        if (b[pos] != '<') {
            const uint8_t *next = memchr(b + pos, '<', w->end - pos);
            if (!next)
                return false;
            pos = (size_t)(next - b);
        }
        size_t tag = pos;
        prefix_match m = starts_with(w, pos, comment_open, sizeof comment_open, false);
        if (m == PREFIX_OUT_OF_BYTES)
            return false;
        if (m == PREFIX_YES) {
            /* The first '>' after the '<' that follows two '-' (which may
             * be the comment opener's own). */
            size_t p = pos + 4;
            for (;;) {
                p = find_byte(w, p, '>');
                if (p >= w->end)
                    return false;
                if (b[p - 1] == '-' && b[p - 2] == '-')
                    break;
                p++;
            }
            pos = p + 1;
            continue;
        }
        m = starts_with(w, pos, meta_open, sizeof meta_open, true);
        if (m == PREFIX_OUT_OF_BYTES)
            return false;
        if (m == PREFIX_YES && pos + 5 < w->end) {
            if (is_space(b[pos + 5]) || b[pos + 5] == '/') {
                pos += 5;
                wenc_id found;
                meta_step step = prescan_meta(w, &pos, &found);
                if (step == META_OUT_OF_BYTES)
                    return false;
                if (step == META_ENCODING) {
                    r->encoding = found;
                    r->source = WENC_SNIFF_META;
                    r->offset = tag;
                    r->length = pos + 1 - tag;
                    return true;
                }
                pos++;
                continue;
            }
        }
        if (pos + 1 >= w->end)
            return false;
        uint8_t after = b[pos + 1];
        size_t letter_at = after == '/' ? pos + 2 : pos + 1;
        if (letter_at >= w->end)
            return false;
        uint8_t letter = ascii_lower(b[letter_at]);
        if (letter >= 'a' && letter <= 'z') {
            while (pos < w->end && !is_space(b[pos]) && b[pos] != '>')
                pos++;
            sniffed_attribute attr;
            attribute_step step;
            do
                step = get_attribute(w, &pos, &attr);
            while (step == ATTRIBUTE_FOUND);
            if (step == ATTRIBUTE_OUT_OF_BYTES)
                return false;
            pos++;
            continue;
        }
        if (after == '!' || after == '/' || after == '?') {
            pos = find_byte(w, pos + 1, '>');
            if (pos >= w->end)
                return false;
        }
        pos++;
    }
    return false;
}

/* HTML §13.2.3.2 "get an XML encoding", before its UTF-16BE/LE step;
 * *out_of_bytes tells whether more bytes could change a failure. */
static wenc_id xml_declared_encoding(const uint8_t *b, size_t n,
                                     size_t *decl_len, bool *out_of_bytes)
{
    static const uint8_t xml_open[] = {'<', '?', 'x', 'm', 'l'};
    static const uint8_t word[] = {'e', 'n', 'c', 'o', 'd', 'i', 'n', 'g'};
    *out_of_bytes = true;
    for (size_t i = 0; i < sizeof xml_open; i++) {
        if (i >= n)
            return WENC_INVALID;
        if (b[i] != xml_open[i]) {
            *out_of_bytes = false;
            return WENC_INVALID;
        }
    }
    const uint8_t *declaration_end = memchr(b, '>', n);
    if (!declaration_end)
        return WENC_INVALID;
    *out_of_bytes = false;
    /* "encoding" is looked for before the declaration's '>' only, and the
     * steps after it stop at that '>' at the latest. A closing quote past
     * it would put the '>' in the label, which no label holds: once the
     * '>' is in, no byte that follows changes the answer. */
    size_t declaration_len = (size_t)(declaration_end - b);
    size_t pos = declaration_len;
    for (size_t i = 0; i + sizeof word <= declaration_len; i++) {
        if (memcmp(b + i, word, sizeof word) == 0) {
            pos = i + sizeof word;
            break;
        }
    }
    if (pos == declaration_len)
        return WENC_INVALID;
    while (b[pos] <= 0x20)
        pos++;
    if (b[pos] != '=')
        return WENC_INVALID;
    pos++;
    while (b[pos] <= 0x20)
        pos++;
    uint8_t quote = b[pos];
    if (quote != '"' && quote != '\'')
        return WENC_INVALID;
    pos++;
    const uint8_t *close = memchr(b + pos, quote, n - pos);
    if (!close)
        return WENC_INVALID;
    size_t label_len = (size_t)(close - (b + pos));
    for (size_t i = 0; i < label_len; i++)
        if (b[pos + i] <= 0x20)
            return WENC_INVALID;
    *decl_len = (size_t)(close - b) + 1;
    return wenc_lookup((const char *)b + pos, label_len);
}

static wenc_sniff_result empty_result(void)
{
    wenc_sniff_result r;
    r.encoding = WENC_INVALID;
    r.confidence = WENC_CONFIDENCE_TENTATIVE;
    r.source = WENC_SNIFF_NONE;
    r.offset = 0;
    r.length = 0;
    r.need_more = false;
    return r;
}

wenc_sniff_result wenc_sniff_xml_encoding(const uint8_t *bytes, size_t len)
{
    wenc_sniff_result r = empty_result();
    if (!bytes)
        len = 0;
    size_t decl_len = 0;
    bool out_of_bytes;
    wenc_id id = xml_declared_encoding(bytes, len, &decl_len, &out_of_bytes);
    if (id != WENC_INVALID) {
        r.encoding = id;
        r.source = WENC_SNIFF_XML_DECLARATION;
        r.length = decl_len;
    } else {
        r.need_more = out_of_bytes;
    }
    return r;
}

/* The bytes are fewer than a BOM's and could still become one. */
static bool begins_bom(const uint8_t *b, size_t len)
{
    if (len == 0)
        return true;
    if (len == 1)
        return b[0] == 0xEF || b[0] == 0xFE || b[0] == 0xFF;
    return len == 2 && b[0] == 0xEF && b[1] == 0xBB;
}

/* HTML §13.2.3.2 "encoding sniffing algorithm", the steps on bytes. */
wenc_sniff_result wenc_sniff_html(const uint8_t *bytes, size_t len,
                                  const char *transport_label,
                                  size_t label_len, wenc_id fallback)
{
    wenc_sniff_result r = empty_result();
    if (!bytes)
        len = 0;
    size_t bom_len;
    wenc_id bom = wenc_bom_sniff(bytes, len, &bom_len);
    if (bom != WENC_INVALID) {
        r.encoding = bom;
        r.confidence = WENC_CONFIDENCE_CERTAIN;
        r.source = WENC_SNIFF_BOM;
        r.length = bom_len;
        return r;
    }
    /* Until the prescan's answer, only a BOM could still change one. */
    r.need_more = begins_bom(bytes, len);
    wenc_id transport = transport_label && label_len
                            ? wenc_lookup(transport_label, label_len)
                            : WENC_INVALID;
    if (transport != WENC_INVALID) {
        r.encoding = transport;
        r.confidence = WENC_CONFIDENCE_CERTAIN;
        r.source = WENC_SNIFF_TRANSPORT;
        return r;
    }
    byte_window w = {bytes, len < WENC_SNIFF_PRESCAN_BYTES ? len : WENC_SNIFF_PRESCAN_BYTES};
    if (prescan(&w, &r))
        return r;
    r.need_more = len < WENC_SNIFF_PRESCAN_BYTES;
    size_t decl_len = 0;
    bool out_of_bytes;
    wenc_id declared = xml_declared_encoding(bytes, w.end, &decl_len, &out_of_bytes);
    if (declared != WENC_INVALID) {
        if (declared == WENC_UTF_16BE || declared == WENC_UTF_16LE)
            declared = WENC_UTF_8;
        r.encoding = declared;
        r.source = WENC_SNIFF_XML_DECLARATION;
        r.length = decl_len;
        return r;
    }
    r.encoding = fallback >= 0 && fallback < WENC_ENCODING_COUNT
                     ? fallback
                     : WENC_WINDOWS_1252;
    r.source = WENC_SNIFF_DEFAULT;
    return r;
}

const char *wenc_sniff_source_name(wenc_sniff_source source)
{
    switch (source) {
    case WENC_SNIFF_BOM:
        return "bom";
    case WENC_SNIFF_TRANSPORT:
        return "transport";
    case WENC_SNIFF_UTF16_XML:
        return "utf-16-xml";
    case WENC_SNIFF_META:
        return "meta";
    case WENC_SNIFF_XML_DECLARATION:
        return "xml-declaration";
    case WENC_SNIFF_DEFAULT:
        return "default";
    case WENC_SNIFF_NONE:
        break;
    }
    return "none";
}

/* The subtag of tag[*pos..len) up to '-', '_' or the end, lowered into
 * subtag, and *pos past its separator; its length, or the empty string
 * and 9 for one longer than eight letters, which no row names. */
static size_t next_subtag(const char *tag, size_t len, size_t *pos,
                          char subtag[9])
{
    size_t n = 0;
    for (; *pos < len && tag[*pos] != '-' && tag[*pos] != '_'; ++*pos, n++)
        if (n < 8)
            subtag[n] = (char)ascii_lower((uint8_t)tag[*pos]);
    ++*pos;
    subtag[n < 9 ? n : 0] = '\0';
    return n < 9 ? n : 9;
}

/* HTML §13.2.3.2, the table of suggested defaults by locale language. */
wenc_id wenc_html_default_encoding(const char *tag, size_t len)
{
    static const struct {
        char language[4];
        wenc_id encoding;
    } by_language[] = {
        {"ar", WENC_WINDOWS_1256},  {"az", WENC_WINDOWS_1254},
        {"ba", WENC_WINDOWS_1251},  {"be", WENC_WINDOWS_1251},
        {"bg", WENC_WINDOWS_1251},  {"cs", WENC_WINDOWS_1250},
        {"el", WENC_ISO_8859_7},    {"et", WENC_WINDOWS_1257},
        {"fa", WENC_WINDOWS_1256},  {"he", WENC_WINDOWS_1255},
        {"hr", WENC_WINDOWS_1250},  {"hu", WENC_ISO_8859_2},
        {"ja", WENC_SHIFT_JIS},     {"kk", WENC_WINDOWS_1251},
        {"ko", WENC_EUC_KR},        {"ku", WENC_WINDOWS_1254},
        {"ky", WENC_WINDOWS_1251},  {"lt", WENC_WINDOWS_1257},
        {"lv", WENC_WINDOWS_1257},  {"mk", WENC_WINDOWS_1251},
        {"pl", WENC_ISO_8859_2},    {"ru", WENC_WINDOWS_1251},
        {"sah", WENC_WINDOWS_1251}, {"sk", WENC_WINDOWS_1250},
        {"sl", WENC_ISO_8859_2},    {"sr", WENC_WINDOWS_1251},
        {"tg", WENC_WINDOWS_1251},  {"th", WENC_WINDOWS_874},
        {"tr", WENC_WINDOWS_1254},  {"tt", WENC_WINDOWS_1251},
        {"uk", WENC_WINDOWS_1251},  {"vi", WENC_WINDOWS_1258},
    };
    if (!tag)
        len = 0;
    for (size_t i = 0; i < len; i++) {
        if (tag[i] == '.' || tag[i] == '@') {
            len = i;
            break;
        }
    }
    char subtag[9];
    size_t pos = 0;
    next_subtag(tag, len, &pos, subtag);
    if (strcmp(subtag, "zh") != 0) {
        for (size_t i = 0; i < sizeof by_language / sizeof by_language[0]; i++)
            if (strcmp(subtag, by_language[i].language) == 0)
                return by_language[i].encoding;
        return WENC_WINDOWS_1252;
    }
    /* Chinese: a script subtag (four letters) or the region after it. */
    while (pos <= len) {
        size_t n = next_subtag(tag, len, &pos, subtag);
        if (strcmp(subtag, "hans") == 0 || strcmp(subtag, "cn") == 0 ||
            strcmp(subtag, "sg") == 0)
            return WENC_GBK;
        if (strcmp(subtag, "hant") == 0 || strcmp(subtag, "hk") == 0 ||
            strcmp(subtag, "mo") == 0 || strcmp(subtag, "tw") == 0)
            return WENC_BIG5;
        if (n != 4)
            break;
    }
    return WENC_WINDOWS_1252;
}

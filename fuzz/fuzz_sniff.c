/* fuzz_sniff.c — the HTML encoding sniffing extension (wenc_sniff_html,
 * wenc_sniff_xml_encoding, wenc_html_default_encoding).
 *
 * Input: [flags] [label length] [label...] [document...]. Flags bit 0 gives a
 * transport label, bits 1-7 pick a prefix length. Invariants:
 *  - the answer is an encoding, its confidence follows its source (certain
 *    for a BOM and a transport label, tentative otherwise), and the bytes it
 *    names lie inside the document: a BOM at 0, a meta from '<' to '>', an
 *    XML declaration from '<?xml' to a quote;
 *  - a prefix whose answer has need_more false answers as the whole document
 *    does, and 1024 bytes or more never need more;
 *  - bytes past the 1024th change nothing;
 *  - wenc_sniff_xml_encoding agrees with the XML step it feeds, and the
 *    default-by-locale helper always names an encoding.
 * Every call gets exactly its bytes, so ASan sees any read past them. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

/* A heap block of exactly `len` bytes holding them (NULL when len is 0). */
static void *exact_copy(const void *bytes, size_t len)
{
    if (len == 0)
        return NULL;
    void *copy = malloc(len);
    FUZZ_CHECK(copy != NULL, "out of memory");
    memcpy(copy, bytes, len);
    return copy;
}

static wenc_sniff_result sniff_copy(const uint8_t *doc, size_t len,
                                    const char *label, size_t label_len)
{
    uint8_t *copy = exact_copy(doc, len);
    wenc_sniff_result r = wenc_sniff_html(copy, len, label, label_len,
                                          WENC_INVALID);
    free(copy);
    return r;
}

static bool same_answer(wenc_sniff_result a, wenc_sniff_result b)
{
    return a.encoding == b.encoding && a.confidence == b.confidence &&
           a.source == b.source && a.offset == b.offset && a.length == b.length;
}

static void check_shape(const uint8_t *doc, size_t len, wenc_sniff_result r)
{
    FUZZ_CHECK(r.encoding >= 0 && r.encoding < WENC_ENCODING_COUNT, "encoding %d",
               (int)r.encoding);
    bool certain = r.source == WENC_SNIFF_BOM || r.source == WENC_SNIFF_TRANSPORT;
    FUZZ_CHECK(r.confidence == (certain ? WENC_CONFIDENCE_CERTAIN : WENC_CONFIDENCE_TENTATIVE),
               "confidence %d from %s", (int)r.confidence, wenc_sniff_source_name(r.source));
    FUZZ_CHECK(r.offset <= len && r.length <= len - r.offset, "bytes [%zu, +%zu) of %zu",
               r.offset, r.length, len);
    FUZZ_CHECK(len < WENC_SNIFF_PRESCAN_BYTES || !r.need_more, "need_more at %zu bytes", len);
    switch (r.source) {
    case WENC_SNIFF_BOM:
        FUZZ_CHECK(r.offset == 0 && (r.length == 2 || r.length == 3), "BOM length %zu",
                   r.length);
        break;
    case WENC_SNIFF_META:
        FUZZ_CHECK(r.length >= 7 && doc[r.offset] == '<' &&
                       doc[r.offset + r.length - 1] == '>' &&
                       r.offset + r.length <= WENC_SNIFF_PRESCAN_BYTES,
                   "meta at [%zu, +%zu)", r.offset, r.length);
        break;
    case WENC_SNIFF_XML_DECLARATION:
        FUZZ_CHECK(r.offset == 0 && r.length >= 5 && memcmp(doc, "<?xml", 5) == 0 &&
                       (doc[r.length - 1] == '"' || doc[r.length - 1] == '\'') &&
                       r.length <= WENC_SNIFF_PRESCAN_BYTES,
                   "XML declaration of %zu bytes", r.length);
        FUZZ_CHECK(r.encoding != WENC_UTF_16BE && r.encoding != WENC_UTF_16LE,
                   "UTF-16 left unchanged");
        break;
    case WENC_SNIFF_UTF16_XML:
        FUZZ_CHECK(r.offset == 0 && r.length == 6, "UTF-16 '<?x' of %zu bytes", r.length);
        break;
    case WENC_SNIFF_TRANSPORT:
    case WENC_SNIFF_DEFAULT:
        FUZZ_CHECK(r.offset == 0 && r.length == 0, "bytes named for %s",
                   wenc_sniff_source_name(r.source));
        break;
    case WENC_SNIFF_NONE:
        FUZZ_CHECK(false, "no source");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = fuzz_input_of(data, size);
    uint8_t flags = fuzz_take_byte(&in);
    fuzz_input label_bytes = fuzz_take_bytes(&in, fuzz_take_byte(&in) % 24);
    size_t label_len = flags & 1 ? label_bytes.size : 0;
    char *label = exact_copy(label_bytes.data, label_len);
    const uint8_t *doc = in.data;
    size_t len = in.size;

    wenc_sniff_result whole = sniff_copy(doc, len, label, label_len);
    check_shape(doc, len, whole);

    size_t cuts[3] = {len * (flags >> 1) / 127, len / 2, len > 0 ? len - 1 : 0};
    for (int i = 0; i < 3; i++) {
        size_t k = cuts[i] < len ? cuts[i] : len;
        wenc_sniff_result part = sniff_copy(doc, k, label, label_len);
        check_shape(doc, k, part);
        if (!part.need_more)
            FUZZ_CHECK(same_answer(part, whole),
                       "%zu of %zu bytes: %s by %s, the whole: %s by %s", k, len,
                       wenc_name(part.encoding), wenc_sniff_source_name(part.source),
                       wenc_name(whole.encoding), wenc_sniff_source_name(whole.source));
    }
    if (len > WENC_SNIFF_PRESCAN_BYTES) {
        wenc_sniff_result first = sniff_copy(doc, WENC_SNIFF_PRESCAN_BYTES, label, label_len);
        FUZZ_CHECK(same_answer(first, whole), "bytes past the 1024th changed the answer");
    }

    if (whole.source == WENC_SNIFF_XML_DECLARATION) {
        size_t window = len < WENC_SNIFF_PRESCAN_BYTES ? len : WENC_SNIFF_PRESCAN_BYTES;
        uint8_t *copy = exact_copy(doc, window);
        wenc_sniff_result xml = wenc_sniff_xml_encoding(copy, window);
        free(copy);
        wenc_id expected = xml.encoding == WENC_UTF_16BE || xml.encoding == WENC_UTF_16LE
                               ? WENC_UTF_8
                               : xml.encoding;
        FUZZ_CHECK(xml.source == WENC_SNIFF_XML_DECLARATION && expected == whole.encoding &&
                       xml.length == whole.length,
                   "wenc_sniff_xml_encoding answers %s", wenc_name(xml.encoding));
    }

    char *tag = exact_copy(doc, len);
    wenc_id locale_default = wenc_html_default_encoding(tag, len);
    free(tag);
    free(label);
    FUZZ_CHECK(locale_default >= 0 && locale_default < WENC_ENCODING_COUNT,
               "locale default %d", (int)locale_default);
    return 0;
}

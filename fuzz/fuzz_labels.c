/* fuzz_labels.c — wenc_lookup and the registry around it.
 *
 * Input: [label index] [padding] [case flips...] [arbitrary bytes...]; the
 * whole input is also tried as a label as it is.
 *
 * The reference is the Standard's "get an encoding" (§4.2) over the label
 * table generated from encodings.json (reference_data.h): strip leading and
 * trailing ASCII whitespace (TAB, LF, FF, CR, SPACE), lower-case A-Z only,
 * compare bytes exactly with each label. Invariants:
 *  - wenc_lookup agrees with the reference, for the raw input and for a real
 *    label with random case, whitespace padding and a random byte inserted;
 *  - new TextDecoder(label) is a RangeError exactly when the lookup fails or
 *    names replacement, and its encoding getter is the name lower-cased;
 *  - wenc_bom_sniff agrees with §6 BOM sniff on the input's first bytes;
 *  - once: wenc_name / wenc_label_count / wenc_label_at match encodings.json,
 *    get an output encoding and wenc_has_encoder follow §4.3/§4.2, and ids
 *    out of range are refused.
 */
#include "common.h"
#include "reference_data.h"

#include <string.h>

static bool ascii_whitespace(uint8_t c)
{
    return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20;
}

static uint8_t ascii_lower(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 0x20) : c;
}

static int reference_lookup(const uint8_t *s, size_t n)
{
    while (n > 0 && ascii_whitespace(s[0])) {
        s++;
        n--;
    }
    while (n > 0 && ascii_whitespace(s[n - 1]))
        n--;
    for (size_t i = 0; i < REFERENCE_LABEL_COUNT; i++) {
        const char *label = reference_labels[i].label;
        if (strlen(label) != n)
            continue;
        size_t k = 0;
        while (k < n && ascii_lower(s[k]) == (uint8_t)label[k])
            k++;
        if (k == n)
            return reference_labels[i].encoding;
    }
    return -1;
}

static int reference_output_encoding(int id)
{
    return (id == WENC_REPLACEMENT || id == WENC_UTF_16BE ||
            id == WENC_UTF_16LE)
               ? WENC_UTF_8
               : id;
}

static void check_registry_once(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    FUZZ_CHECK(WENC_ENCODING_COUNT == REFERENCE_ENCODING_COUNT,
               "%d encodings, encodings.json has %d", WENC_ENCODING_COUNT,
               REFERENCE_ENCODING_COUNT);
    for (int id = 0; id < REFERENCE_ENCODING_COUNT; id++) {
        const char *name = wenc_name((wenc_id)id);
        FUZZ_CHECK(name && strcmp(name, reference_names[id]) == 0,
                   "wenc_name(%d) is %s, encodings.json says %s", id,
                   name ? name : "NULL", reference_names[id]);
        FUZZ_CHECK((int)wenc_output_encoding((wenc_id)id) ==
                       reference_output_encoding(id),
                   "get an output encoding of %s", name);
        FUZZ_CHECK(wenc_has_encoder((wenc_id)id) ==
                       (reference_output_encoding(id) == id),
                   "wenc_has_encoder(%s)", name);
    }
    static const int out_of_range[] = {-2, -1, WENC_ENCODING_COUNT,
                                       WENC_ENCODING_COUNT + 1, 1000};
    for (size_t i = 0; i < sizeof out_of_range / sizeof *out_of_range; i++) {
        wenc_id id = (wenc_id)out_of_range[i];
        wenc_decoder dec;
        wenc_encoder enc;
        FUZZ_CHECK(wenc_name(id) == NULL && !wenc_has_encoder(id) &&
                       wenc_output_encoding(id) == WENC_INVALID &&
                       !wenc_decoder_init(&dec, id, WENC_BOM_SNIFF,
                                          WENC_ERRORS_REPLACEMENT) &&
                       !wenc_encoder_init(&enc, id, WENC_ERRORS_HTML),
                   "id %d out of range is accepted", out_of_range[i]);
    }
    FUZZ_CHECK(wenc_label_count() == REFERENCE_LABEL_COUNT,
               "wenc_label_count() is %zu", wenc_label_count());
    for (size_t i = 0; i < REFERENCE_LABEL_COUNT; i++) {
        wenc_id id = WENC_INVALID;
        const char *label = wenc_label_at(i, &id);
        FUZZ_CHECK(label && strcmp(label, reference_labels[i].label) == 0 &&
                       (int)id == reference_labels[i].encoding,
                   "wenc_label_at(%zu) is %s", i, label ? label : "NULL");
    }
    wenc_id untouched = WENC_UTF_8;
    FUZZ_CHECK(wenc_label_at(REFERENCE_LABEL_COUNT, &untouched) == NULL &&
                   untouched == WENC_UTF_8,
               "wenc_label_at past the end");
}

static void check_label(const uint8_t *s, size_t n)
{
    int expected = reference_lookup(s, n);
    wenc_id actual = wenc_lookup((const char *)s, n);
    if ((int)actual != expected) {
        dump_hex("label", s, n);
        FUZZ_CHECK(0, "wenc_lookup gives %d, get an encoding gives %d",
                   (int)actual, expected);
    }
    wenc_text_decoder td;
    wenc_text_status status =
        wenc_text_decoder_init(&td, (const char *)s, n, n & 1, n & 2);
    bool range_error = expected < 0 || expected == WENC_REPLACEMENT;
    FUZZ_CHECK(status == (range_error ? WENC_TEXT_RANGE_ERROR : WENC_TEXT_OK),
               "new TextDecoder(label) gives %d for encoding %d",
               (int)status, expected);
    if (range_error)
        return;
    const char *name = reference_names[expected];
    const char *getter = wenc_text_decoder_encoding(&td);
    size_t len = strlen(name);
    FUZZ_CHECK(getter && strlen(getter) == len,
               "encoding getter for %s is %s", name, getter ? getter : "NULL");
    for (size_t i = 0; i < len; i++)
        FUZZ_CHECK((uint8_t)getter[i] == ascii_lower((uint8_t)name[i]),
                   "encoding getter for %s is %s", name, getter);
    FUZZ_CHECK(wenc_text_decoder_fatal(&td) == (bool)(n & 1) &&
                   wenc_text_decoder_ignore_bom(&td) == (bool)(n & 2),
               "fatal / ignoreBOM getters");
}

static void check_bom_sniff(const uint8_t *s, size_t n)
{
    size_t expected_len;
    wenc_id expected = reference_bom_sniff(s, n, &expected_len);
    size_t bom_len = 99;
    wenc_id actual = wenc_bom_sniff(s, n, &bom_len);
    FUZZ_CHECK(actual == expected && bom_len == expected_len,
               "BOM sniff gives %d/%zu, expected %d/%zu", (int)actual,
               bom_len, (int)expected, expected_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t whitespace[8] = {0x09, 0x0A, 0x0C, 0x0D,
                                          0x20, 0x0B, 0x00, 0xA0};
    check_registry_once();
    fuzz_input in = fuzz_input_of(data, size);
    check_label(in.data, in.size);
    check_bom_sniff(in.data, in.size);

    /* A real label, with case flipped, whitespace (and near-whitespace:
     * VT, NUL, NBSP) around it and possibly one byte changed. */
    const char *label =
        reference_labels[fuzz_take_byte(&in) % REFERENCE_LABEL_COUNT].label;
    uint8_t padding = fuzz_take_byte(&in);
    uint8_t edit = fuzz_take_byte(&in);
    uint8_t edit_byte = fuzz_take_byte(&in);
    uint8_t built[64];
    size_t n = 0;
    for (unsigned i = 0; i < (padding & 3u); i++)
        built[n++] = whitespace[fuzz_take_byte(&in) & 7];
    for (size_t i = 0; label[i]; i++) {
        uint8_t c = (uint8_t)label[i];
        if ((fuzz_take_byte(&in) & 1) && c >= 'a' && c <= 'z')
            c = (uint8_t)(c - 0x20);
        built[n++] = c;
    }
    for (unsigned i = 0; i < ((padding >> 2) & 3u); i++)
        built[n++] = whitespace[fuzz_take_byte(&in) & 7];
    if (edit & 0x80)
        built[edit % n] = edit_byte;
    check_label(built, n);
    return 0;
}

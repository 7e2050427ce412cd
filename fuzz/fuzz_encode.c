/* fuzz_encode.c — the streaming encoders (wenc_encode_from_utf8/_utf16).
 *
 * Input: [encoding] [flags] [plan length] [plan bytes...] [text]
 *   encoding % 40; flags: bit 0 fatal (else html), bit 1 the text is
 *   little-endian UTF-16 code units (else UTF-8 bytes), bit 2 also the
 *   UTF-16 output extension (bit 3 big-endian, bit 4 with a BOM); the plan
 *   gives chunk lengths and output capacities as in fuzz_decode.c.
 *
 * The text is read as the Standard reads a string: ill-formed UTF-8 as one
 * U+FFFD per maximal subpart, lone surrogates as U+FFFD (our reference
 * conversion in common.c). Invariants:
 *  - every call: output within wenc_encoder_max_len, progress with 4 bytes of
 *    room, no OUTPUT_FULL with the helper's capacity (run_encoder);
 *  - split invariance: the plan's chunking and 1-unit chunks give the output
 *    and errors of one call;
 *  - fatal errors name the code point at their offset, and its input units;
 *    for ISO-2022-JP, U+000E, U+000F and U+001B are "error with U+FFFD"
 *    (§14.2.2 step 3);
 *  - the raw text, its well-formed UTF-8 and its UTF-16 encode alike;
 *  - html mode is fatal mode on the text with each unmappable code point
 *    replaced by "&#N;" (§4.1: html mode prepends the NCR's code points to
 *    the input), and that text encodes with no error;
 *  - round trip: decoding the html output (output encoding, no BOM
 *    handling) gives back that NCR-substituted text exactly, except where
 *    the Standard's encoder deliberately maps one code point to another's
 *    bytes:
 *      EUC-JP, Shift_JIS: U+00A5 -> 5C, U+203E -> 7E (decode as U+005C,
 *        U+007E), U+2212 -> as U+FF0D (§13.2.2, §13.3.2);
 *      ISO-2022-JP: U+2212 -> as U+FF0D, U+FF61..U+FF9F -> index
 *        ISO-2022-JP katakana (§14.2.2); U+00A5/U+203E round-trip through
 *        the Roman state;
 *      GBK, gb18030: the 18 Private Use code points the GB18030-2022 index
 *        replaced (U+E78D -> A6 D9, which decodes as U+FE10, ...);
 *    every other encodable code point round-trips: single-byte, Big5 (its
 *    encoder skips the HKSCS pointers below (0xA1 - 0x81) * 157, the only
 *    ones that decode to two code points), EUC-KR, x-user-defined, UTF-8;
 *  - the UTF-16 output extension writes the text's UTF-16 code units (after
 *    U+FEFF when asked), whatever the chunks, with no error.
 */
#include "common.h"
#include "reference_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect_same(const char *what, const stream_result *expected,
                        const stream_result *actual)
{
    if (stream_results_equal(expected, actual))
        return;
    dump_hex("expected", expected->output.data, expected->output.len);
    dump_hex("actual", actual->output.data, actual->output.len);
    fprintf(stderr, "errors: expected %zu, actual %zu\n",
            expected->error_count, actual->error_count);
    FUZZ_CHECK(0, "%s", what);
}

/* The index of the scalar value starting at input offset `offset`. */
static size_t scalar_at(const buffer *starts, uint64_t offset)
{
    const uint64_t *at = starts->data;
    size_t lo = 0, hi = starts->len - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (at[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    FUZZ_CHECK(lo < starts->len - 1 && at[lo] == offset,
               "error offset %llu is not the start of a code point",
               (unsigned long long)offset);
    return lo;
}

static uint32_t reported_code_point(wenc_id id, uint32_t scalar)
{
    if (id == WENC_ISO_2022_JP &&
        (scalar == 0x0E || scalar == 0x0F || scalar == 0x1B))
        return 0xFFFD;
    return scalar;
}

/* Checks each fatal error against the scalar values and their starts, and
 * marks the unmappable ones in `unmappable` (a byte per scalar value). */
static void check_errors(wenc_id id, const stream_result *r,
                         const buffer *scalars, const buffer *starts,
                         uint8_t *unmappable)
{
    const uint32_t *s = scalars->data;
    const uint64_t *at = starts->data;
    for (size_t i = 0; i < r->error_count; i++) {
        const stream_error *e = &r->errors[i];
        size_t k = scalar_at(starts, e->offset);
        FUZZ_CHECK(e->code_point == reported_code_point(id, s[k]),
                   "error %zu reports U+%04X for U+%04X", i,
                   (unsigned)e->code_point, (unsigned)s[k]);
        FUZZ_CHECK(e->length == at[k + 1] - at[k],
                   "error %zu spans %zu units, the code point %llu", i,
                   e->length, (unsigned long long)(at[k + 1] - at[k]));
        if (unmappable)
            unmappable[k] = 1;
    }
}

static uint32_t round_trip_image(wenc_id id, uint32_t cp)
{
    static const uint32_t gb_pua[18][2] = {
        {0xE78D, 0xFE10}, {0xE78E, 0xFE12}, {0xE78F, 0xFE11},
        {0xE790, 0xFE13}, {0xE791, 0xFE14}, {0xE792, 0xFE15},
        {0xE793, 0xFE16}, {0xE794, 0xFE17}, {0xE795, 0xFE18},
        {0xE796, 0xFE19}, {0xE81E, 0x9FB4}, {0xE826, 0x9FB5},
        {0xE82B, 0x9FB6}, {0xE82C, 0x9FB7}, {0xE832, 0x9FB8},
        {0xE843, 0x9FB9}, {0xE854, 0x9FBA}, {0xE864, 0x9FBB}};
    switch (id) {
    case WENC_EUC_JP:
    case WENC_SHIFT_JIS:
        if (cp == 0xA5)
            return 0x5C;
        if (cp == 0x203E)
            return 0x7E;
        return cp == 0x2212 ? 0xFF0D : cp;
    case WENC_ISO_2022_JP:
        if (cp >= 0xFF61 && cp <= 0xFF9F)
            return reference_katakana[cp - 0xFF61];
        return cp == 0x2212 ? 0xFF0D : cp;
    case WENC_GBK:
    case WENC_GB18030:
        for (size_t i = 0; i < 18; i++)
            if (gb_pua[i][0] == cp)
                return gb_pua[i][1];
        return cp;
    default:
        return cp;
    }
}

static void append_ncr(buffer *scalars, uint32_t cp)
{
    char text[16];
    int len = snprintf(text, sizeof text, "&#%u;", (unsigned)cp);
    for (int i = 0; i < len; i++) {
        uint32_t c = (uint8_t)text[i];
        buffer_append(scalars, &c, 1);
    }
}

static void check_html_and_round_trip(wenc_id id, const buffer *scalars)
{
    stream_plan whole = {NULL, 0};
    buffer utf8, starts, substituted, substituted_utf8, image, image_utf8;
    stream_result fatal, html, again, decoded;
    buffer_init(&utf8, 1);
    buffer_init(&starts, 8);
    buffer_init(&substituted, 4);
    buffer_init(&substituted_utf8, 1);
    buffer_init(&image, 4);
    buffer_init(&image_utf8, 1);
    scalars_to_utf8(scalars->data, scalars->len, &utf8);
    {
        buffer again_scalars;
        buffer_init(&again_scalars, 4);
        reference_utf8_scalars(utf8.data, utf8.len, &again_scalars, &starts);
        buffer_free(&again_scalars);
    }
    run_encoder(id, WENC_ERRORS_FATAL, utf8.data, utf8.len, 1, whole,
                &fatal);
    run_encoder(id, WENC_ERRORS_HTML, utf8.data, utf8.len, 1, whole, &html);
    uint8_t *unmappable = calloc(scalars->len + 1, 1);
    FUZZ_CHECK(unmappable != NULL, "out of memory");
    check_errors(id, &fatal, scalars, &starts, unmappable);
    const uint32_t *s = scalars->data;
    for (size_t k = 0; k < scalars->len; k++) {
        if (unmappable[k])
            append_ncr(&substituted, reported_code_point(id, s[k]));
        else
            buffer_append(&substituted, &s[k], 1);
    }
    free(unmappable);
    scalars_to_utf8(substituted.data, substituted.len, &substituted_utf8);
    run_encoder(id, WENC_ERRORS_FATAL, substituted_utf8.data,
                substituted_utf8.len, 1, whole, &again);
    FUZZ_CHECK(again.error_count == 0,
               "the NCR-substituted text still fails to encode");
    if (!buffer_equal(&again.output, &html.output)) {
        dump_hex("html mode", html.output.data, html.output.len);
        dump_hex("fatal mode on the substituted text", again.output.data,
                 again.output.len);
        FUZZ_CHECK(0, "html mode is not fatal mode with NCRs substituted");
    }

    wenc_encoder probe;
    wenc_encoder_init(&probe, id, WENC_ERRORS_HTML);
    wenc_id output_encoding = wenc_encoder_encoding(&probe);
    FUZZ_CHECK(output_encoding == wenc_output_encoding(id),
               "encoder writes %d, get an output encoding says %d",
               (int)output_encoding, (int)wenc_output_encoding(id));
    run_decoder(output_encoding, WENC_BOM_KEEP, WENC_ERRORS_FATAL, SINK_UTF8,
                html.output.data, html.output.len, whole, &decoded);
    const uint32_t *t = substituted.data;
    for (size_t k = 0; k < substituted.len; k++) {
        uint32_t cp = round_trip_image(id, t[k]);
        buffer_append(&image, &cp, 1);
    }
    scalars_to_utf8(image.data, image.len, &image_utf8);
    if (decoded.error_count != 0 ||
        !buffer_equal(&decoded.output, &image_utf8)) {
        dump_hex("text (UTF-8)", substituted_utf8.data, substituted_utf8.len);
        dump_hex("encoded", html.output.data, html.output.len);
        dump_hex("decoded", decoded.output.data, decoded.output.len);
        dump_hex("expected", image_utf8.data, image_utf8.len);
        FUZZ_CHECK(0, "round trip through %s fails (%zu decode errors)",
                   wenc_name(id), decoded.error_count);
    }
    stream_result_free(&fatal);
    stream_result_free(&html);
    stream_result_free(&again);
    stream_result_free(&decoded);
    buffer_free(&utf8);
    buffer_free(&starts);
    buffer_free(&substituted);
    buffer_free(&substituted_utf8);
    buffer_free(&image);
    buffer_free(&image_utf8);
}

static void check_same_code_points(const stream_result *a,
                                   const stream_result *b, const char *what)
{
    FUZZ_CHECK(buffer_equal(&a->output, &b->output) &&
                   a->error_count == b->error_count,
               "%s: output or error count differs", what);
    for (size_t i = 0; i < a->error_count; i++)
        FUZZ_CHECK(a->errors[i].code_point == b->errors[i].code_point &&
                       a->errors[i].output_position ==
                           b->errors[i].output_position,
                   "%s: error %zu differs", what, i);
}

/* The UTF-16 output extension (wenc_encoder_init_utf16): the text's scalar
 * values as UTF-16 code units in the byte order asked for, after U+FEFF
 * with bom; the same for the plan's chunks and 1-unit chunks; never an
 * error. */
static void check_utf16_output(wenc_id id, bool bom, const buffer *raw,
                               size_t unit, const buffer *scalars,
                               stream_plan plan, stream_plan unit_plan)
{
    stream_plan whole_plan = {NULL, 0};
    buffer units, want;
    buffer_init(&units, 2);
    buffer_init(&want, 1);
    if (bom) {
        uint32_t feff = 0xFEFF;
        scalars_to_utf16(&feff, 1, &units);
    }
    scalars_to_utf16(scalars->data, scalars->len, &units);
    const uint16_t *u = units.data;
    for (size_t k = 0; k < units.len; k++) {
        uint8_t pair[2] = {(uint8_t)u[k], (uint8_t)(u[k] >> 8)};
        if (id == WENC_UTF_16BE) {
            uint8_t first = pair[0];
            pair[0] = pair[1];
            pair[1] = first;
        }
        buffer_append(&want, pair, 2);
    }
    stream_result whole, split;
    run_utf16_output_encoder(id, bom, raw->data, raw->len, unit, whole_plan,
                             &whole);
    FUZZ_CHECK(whole.error_count == 0 && whole.encoding == id,
               "UTF-16 output: %zu errors, encoding %d", whole.error_count,
               (int)whole.encoding);
    if (!buffer_equal(&whole.output, &want)) {
        dump_hex("UTF-16 output", whole.output.data, whole.output.len);
        dump_hex("expected", want.data, want.len);
        FUZZ_CHECK(0, "UTF-16 output is not the text's code units");
    }
    run_utf16_output_encoder(id, bom, raw->data, raw->len, unit, plan,
                             &split);
    expect_same("UTF-16 output: split output differs", &whole, &split);
    stream_result_free(&split);
    run_utf16_output_encoder(id, bom, raw->data, raw->len, unit, unit_plan,
                             &split);
    expect_same("UTF-16 output: 1-unit chunks differ", &whole, &split);
    stream_result_free(&split);
    stream_result_free(&whole);
    buffer_free(&units);
    buffer_free(&want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t one_unit_chunks[1] = {0x88};
    fuzz_input in = fuzz_input_of(data, size);
    wenc_id id = (wenc_id)(fuzz_take_byte(&in) % WENC_ENCODING_COUNT);
    uint8_t flags = fuzz_take_byte(&in);
    wenc_error_mode mode =
        (flags & 1) ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML;
    size_t unit = (flags & 2) ? 2 : 1;
    fuzz_input plan_part = fuzz_take_bytes(&in, fuzz_take_byte(&in) % 16);
    stream_plan plan = {plan_part.data, plan_part.size};
    stream_plan whole_plan = {NULL, 0};
    stream_plan unit_plan = {one_unit_chunks, 1};

    buffer raw, scalars, starts, well_formed_8, well_formed_16;
    buffer_init(&raw, unit);
    buffer_init(&scalars, 4);
    buffer_init(&starts, 8);
    buffer_init(&well_formed_8, 1);
    buffer_init(&well_formed_16, 2);
    if (unit == 1) {
        buffer_append(&raw, in.data, in.size);
        reference_utf8_scalars(raw.data, raw.len, &scalars, &starts);
    } else {
        bytes_to_units(in.data, in.size, &raw);
        reference_utf16_scalars(raw.data, raw.len, &scalars, &starts);
    }
    scalars_to_utf8(scalars.data, scalars.len, &well_formed_8);
    scalars_to_utf16(scalars.data, scalars.len, &well_formed_16);

    stream_result whole, split, other;
    run_encoder(id, mode, raw.data, raw.len, unit, whole_plan, &whole);
    check_errors(id, &whole, &scalars, &starts, NULL);
    run_encoder(id, mode, raw.data, raw.len, unit, plan, &split);
    expect_same("split output differs from one call", &whole, &split);
    stream_result_free(&split);
    run_encoder(id, mode, raw.data, raw.len, unit, unit_plan, &split);
    expect_same("1-unit chunks differ from one call", &whole, &split);
    stream_result_free(&split);

    run_encoder(id, mode, well_formed_8.data, well_formed_8.len, 1,
                whole_plan, &other);
    check_same_code_points(&whole, &other, "well-formed UTF-8 input");
    stream_result_free(&other);
    run_encoder(id, mode, well_formed_16.data, well_formed_16.len, 2,
                whole_plan, &other);
    check_same_code_points(&whole, &other, "UTF-16 input");
    stream_result_free(&other);
    stream_result_free(&whole);

    check_html_and_round_trip(id, &scalars);
    if (flags & 4)
        check_utf16_output((flags & 8) ? WENC_UTF_16BE : WENC_UTF_16LE,
                           (flags & 16) != 0, &raw, unit, &scalars, plan,
                           unit_plan);

    buffer_free(&raw);
    buffer_free(&scalars);
    buffer_free(&starts);
    buffer_free(&well_formed_8);
    buffer_free(&well_formed_16);
    return 0;
}

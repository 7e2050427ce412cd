/* fuzz_decode.c — the streaming decoders (wenc_decode_to_utf8/_utf16).
 *
 * Input: [encoding] [flags] [plan length] [plan bytes...] [bytes to decode]
 *   encoding % 40; flags: bits 0-1 BOM mode (3 is sniff), bit 2 fatal,
 *   bit 3 UTF-16 output; the plan gives chunk lengths (0 to 8, or the rest)
 *   and output capacities (1 to 8 units, or the max-length helper's).
 *
 * Invariants (any violation aborts with a message):
 *  - every call: output within the max-length helper for its input, output
 *    well-formed on its own (no partial UTF-8, no split surrogate pair),
 *    progress with 4 bytes / 2 units of room, no OUTPUT_FULL with the
 *    helper's capacity, errors only in fatal mode, each reported malformed
 *    sequence equal to the input bytes at its offset (run_decoder);
 *  - split invariance: the plan's chunking and 1-byte chunks give the output
 *    and error details of one call;
 *  - UTF-8 and UTF-16 output carry the same code points and errors;
 *  - fatal and replacement agree exactly: the replacement output is the
 *    fatal output with one U+FFFD at each place fatal mode stopped (§4.1:
 *    an error is one U+FFFD in replacement mode; the fatal decoder resumes
 *    after the malformed sequence), so with no fatal error they are equal;
 *  - BOM modes: sniff decodes as "the BOM's encoding, without the BOM"
 *    when the input starts with EF BB BF, FE FF or FF FE (§6.1 decode);
 *    strip removes only the decoder's own encoding's BOM; each is otherwise
 *    the same as keep.
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

static void expect_same(const char *what, const stream_result *expected,
                        const stream_result *actual, const uint8_t *src,
                        size_t n)
{
    if (stream_results_equal(expected, actual))
        return;
    dump_hex("input", src, n);
    dump_hex("expected output", expected->output.data,
             expected->output.len * expected->output.unit);
    dump_hex("actual output", actual->output.data,
             actual->output.len * actual->output.unit);
    fprintf(stderr, "errors: expected %zu, actual %zu\n",
            expected->error_count, actual->error_count);
    FUZZ_CHECK(0, "%s", what);
}

/* The code points of a UTF-8 or UTF-16 result, for comparing sinks. */
static void result_scalars(const stream_result *r, buffer *scalars)
{
    buffer_init(scalars, 4);
    if (r->output.unit == 1)
        reference_utf8_scalars(r->output.data, r->output.len, scalars, NULL);
    else
        reference_utf16_scalars(r->output.data, r->output.len, scalars,
                                NULL);
}

static void check_sinks_agree(const stream_result *a, const stream_result *b)
{
    buffer sa, sb;
    result_scalars(a, &sa);
    result_scalars(b, &sb);
    FUZZ_CHECK(buffer_equal(&sa, &sb),
               "UTF-8 and UTF-16 output differ (%zu vs %zu code points)",
               sa.len, sb.len);
    FUZZ_CHECK(a->error_count == b->error_count,
               "UTF-8 and UTF-16 output met %zu vs %zu errors",
               a->error_count, b->error_count);
    for (size_t i = 0; i < a->error_count; i++)
        FUZZ_CHECK(a->errors[i].offset == b->errors[i].offset &&
                       a->errors[i].length == b->errors[i].length,
                   "error %zu differs between UTF-8 and UTF-16 output", i);
    buffer_free(&sa);
    buffer_free(&sb);
}

static void check_fatal_matches_replacement(const stream_result *fatal,
                                            const stream_result *replaced)
{
    static const uint8_t fffd_utf8[3] = {0xEF, 0xBF, 0xBD};
    static const uint16_t fffd_utf16[1] = {0xFFFD};
    const buffer *f = &fatal->output;
    const void *fffd = f->unit == 1 ? (const void *)fffd_utf8
                                    : (const void *)fffd_utf16;
    size_t fffd_len = f->unit == 1 ? 3 : 1;
    buffer expected;
    buffer_init(&expected, f->unit);
    size_t from = 0;
    for (size_t i = 0; i < fatal->error_count; i++) {
        size_t to = fatal->errors[i].output_position;
        buffer_append(&expected, (const uint8_t *)f->data + from * f->unit,
                      to - from);
        buffer_append(&expected, fffd, fffd_len);
        from = to;
    }
    buffer_append(&expected, (const uint8_t *)f->data + from * f->unit,
                  f->len - from);
    if (!buffer_equal(&expected, &replaced->output)) {
        dump_hex("fatal output with U+FFFD at each error", expected.data,
                 expected.len * expected.unit);
        dump_hex("replacement output", replaced->output.data,
                 replaced->output.len * replaced->output.unit);
        FUZZ_CHECK(0, "fatal and replacement modes disagree (%zu errors)",
                   fatal->error_count);
    }
    buffer_free(&expected);
}

/* How many leading bytes the BOM mode removes, and the encoding then used. */
static size_t expected_bom(wenc_id id, wenc_bom_mode bom, const uint8_t *s,
                           size_t n, wenc_id *used)
{
    size_t len;
    wenc_id found = reference_bom_sniff(s, n, &len);
    *used = id;
    if (found == WENC_INVALID || bom == WENC_BOM_KEEP)
        return 0;
    if (bom == WENC_BOM_SNIFF) {
        *used = found;
        return len;
    }
    return found == id ? len : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t one_byte_chunks[1] = {0x88};
    fuzz_input in = fuzz_input_of(data, size);
    wenc_id id = (wenc_id)(fuzz_take_byte(&in) % WENC_ENCODING_COUNT);
    uint8_t flags = fuzz_take_byte(&in);
    wenc_bom_mode bom = (wenc_bom_mode)((flags & 3) % 3);
    wenc_error_mode mode =
        (flags & 4) ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT;
    wenc_error_mode other_mode =
        (flags & 4) ? WENC_ERRORS_REPLACEMENT : WENC_ERRORS_FATAL;
    sink_kind sink = (flags & 8) ? SINK_UTF16 : SINK_UTF8;
    fuzz_input plan_part = fuzz_take_bytes(&in, fuzz_take_byte(&in) % 16);
    stream_plan plan = {plan_part.data, plan_part.size};
    stream_plan whole_plan = {NULL, 0};
    stream_plan byte_plan = {one_byte_chunks, 1};
    const uint8_t *src = in.data;
    size_t n = in.size;

    stream_result whole, split, other_sink, other_mode_result;
    run_decoder(id, bom, mode, sink, src, n, whole_plan, &whole);
    run_decoder(id, bom, mode, sink, src, n, plan, &split);
    expect_same("split output differs from one call", &whole, &split, src,
                n);
    stream_result_free(&split);
    run_decoder(id, bom, mode, sink, src, n, byte_plan, &split);
    expect_same("1-byte chunks differ from one call", &whole, &split, src,
                n);
    stream_result_free(&split);

    run_decoder(id, bom, mode, sink == SINK_UTF8 ? SINK_UTF16 : SINK_UTF8,
                src, n, whole_plan, &other_sink);
    check_sinks_agree(&whole, &other_sink);
    stream_result_free(&other_sink);

    run_decoder(id, bom, other_mode, sink, src, n, whole_plan,
                &other_mode_result);
    const stream_result *fatal =
        mode == WENC_ERRORS_FATAL ? &whole : &other_mode_result;
    const stream_result *replaced =
        mode == WENC_ERRORS_FATAL ? &other_mode_result : &whole;
    check_fatal_matches_replacement(fatal, replaced);

    if (bom != WENC_BOM_KEEP) {
        wenc_id used;
        size_t skip = expected_bom(id, bom, src, n, &used);
        stream_result kept;
        run_decoder(used, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT, sink,
                    src + skip, n - skip, whole_plan, &kept);
        FUZZ_CHECK(buffer_equal(&kept.output, &replaced->output),
                   "BOM mode %d differs from keep mode on the input after "
                   "the %zu-byte BOM",
                   (int)bom, skip);
        stream_result_free(&kept);
    }
    stream_result_free(&other_mode_result);
    stream_result_free(&whole);
    return 0;
}

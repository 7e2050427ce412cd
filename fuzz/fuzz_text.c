/* fuzz_text.c — TextDecoder, TextEncoder, encodeInto and TextEncoderStream
 * semantics (wenc_text_*).
 *
 * Input: [label index] [flags] [plan length] [plan bytes...] [bytes...]
 *   label: one of the 228 labels (index % 228); flags: bit 0 fatal, bit 1
 *   ignoreBOM, bit 2 UTF-16 output (else UTF-8), bits 3-7 encodeInto's
 *   capacity. Each plan byte p is one decode() call: p % 9 more input bytes
 *   (all the rest when p >= 0xF0), {stream: false} when (p & 0x60) == 0x60,
 *   and a first try with one unit less than the max-length helper when
 *   p & 0x80. A final call {stream: false} takes what is left.
 *
 * TextDecoder invariants, against a model of §7.2 decode() built from a
 * wenc_decoder in keep-BOM mode (fuzzed on its own by fuzz_decode):
 *  - a label of replacement is a RangeError; others construct;
 *  - a capacity below the helper's is refused (BUFFER_TOO_SMALL) and the
 *    object is unchanged (later output still matches the model);
 *  - each call without error returns exactly the model's output: the
 *    decoder is renewed by the first call after {stream: false}; "serialize
 *    I/O queue" drops one leading U+FEFF for UTF-8/UTF-16BE/LE unless
 *    ignoreBOM, deciding on the first call that yields output; a call that
 *    throws does not serialize, so it does not settle "BOM seen";
 *  - fatal: TypeError exactly where the model errors, consumed bytes equal;
 *    the binding re-queues input[consumed..] in front of the next call when
 *    stream was true, as the Standard's I/O queue keeps it. (The output
 *    left in dst by a throwing call is not checked: a binding discards it.)
 * TextEncoder invariants (the bytes read as UTF-16 code units):
 *  - encode() is the UTF-8 of the code units' scalar values (lone
 *    surrogates to U+FFFD); encode_utf8() likewise from the bytes as UTF-8;
 *  - encodeInto(cap): the longest prefix of whole scalar values that fits,
 *    read counting UTF-16 units, nothing written past `written`;
 *  - TextEncoderStream over the plan's chunks (empty ones too), then flush,
 *    concatenates to encode() of the whole (a high surrogate waits for the
 *    next chunk, §7.6), each chunk within 3 * (len + 1) bytes.
 */
#include "common.h"
#include "reference_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct decode_model {
    wenc_decoder decoder;
    wenc_id id;
    bool ignore_bom;
    bool bom_seen;
    bool do_not_flush;
} decode_model;

typedef struct call_result {
    bool error;
    size_t consumed;
    buffer output;
} call_result;

/* One decode(input, {stream}) of the model. */
static void model_decode(decode_model *m, sink_kind sink,
                         const uint8_t *input, size_t len, bool stream,
                         call_result *r)
{
    if (!m->do_not_flush) {
        wenc_decoder_reset(&m->decoder);
        m->bom_seen = false;
    }
    m->do_not_flush = stream;
    size_t unit = sink == SINK_UTF8 ? 1 : 2;
    buffer_init(&r->output, unit);
    size_t cap = sink == SINK_UTF8
                     ? wenc_decoder_max_utf8_len(&m->decoder, len)
                     : wenc_decoder_max_utf16_len(&m->decoder, len);
    buffer_reserve(&r->output, cap);
    size_t src_len = len, dst_len = cap;
    wenc_status status =
        sink == SINK_UTF8
            ? wenc_decode_to_utf8(&m->decoder, input, &src_len,
                                  r->output.data, &dst_len, !stream)
            : wenc_decode_to_utf16(&m->decoder, input, &src_len,
                                   r->output.data, &dst_len, !stream);
    FUZZ_CHECK(status != WENC_OUTPUT_FULL,
               "model decoder full with the helper's capacity");
    r->output.len = dst_len;
    r->error = status == WENC_ERROR;
    r->consumed = src_len;
    if (r->error || dst_len == 0 || m->ignore_bom || m->bom_seen ||
        !(m->id == WENC_UTF_8 || m->id == WENC_UTF_16BE ||
          m->id == WENC_UTF_16LE))
        return;
    m->bom_seen = true;
    const uint8_t *bytes = r->output.data;
    const uint16_t *units = r->output.data;
    size_t drop = 0;
    if (sink == SINK_UTF8 && dst_len >= 3 && bytes[0] == 0xEF &&
        bytes[1] == 0xBB && bytes[2] == 0xBF)
        drop = 3;
    else if (sink == SINK_UTF16 && units[0] == 0xFEFF)
        drop = 1;
    memmove(r->output.data, bytes + drop * unit, (dst_len - drop) * unit);
    r->output.len -= drop;
}

static wenc_text_status text_decode(wenc_text_decoder *td, sink_kind sink,
                                    const uint8_t *input, size_t len,
                                    bool stream, void *dst, size_t *dst_len,
                                    size_t *consumed)
{
    return sink == SINK_UTF8
               ? wenc_text_decoder_decode_utf8(td, input, len, stream, dst,
                                               dst_len, consumed)
               : wenc_text_decoder_decode_utf16(td, input, len, stream, dst,
                                                dst_len, consumed);
}

static void check_decoder(const char *label, bool fatal, bool ignore_bom,
                          sink_kind sink, stream_plan plan,
                          const uint8_t *src, size_t n)
{
    wenc_text_decoder td;
    wenc_text_status status =
        wenc_text_decoder_init(&td, label, strlen(label), fatal, ignore_bom);
    wenc_id id = wenc_lookup(label, strlen(label));
    if (id == WENC_REPLACEMENT) {
        FUZZ_CHECK(status == WENC_TEXT_RANGE_ERROR,
                   "TextDecoder(\"%s\") is not a RangeError", label);
        return;
    }
    FUZZ_CHECK(status == WENC_TEXT_OK, "TextDecoder(\"%s\") fails", label);
    decode_model model = {.id = id, .ignore_bom = ignore_bom};
    wenc_decoder_init(&model.decoder, id, WENC_BOM_KEEP,
                      fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT);

    size_t unit = sink == SINK_UTF8 ? 1 : 2;
    buffer input, dst;
    buffer_init(&input, 1);
    buffer_init(&dst, unit);
    size_t pos = 0;
    for (size_t call = 0; pos < n || call <= plan.len; call++) {
        bool final_call = call >= plan.len;
        uint8_t p = final_call ? 0x60 : plan.bytes[call];
        size_t chunk = n - pos;
        if (!final_call && p < 0xF0 && (size_t)(p % 9) < chunk)
            chunk = p % 9;
        bool stream = (p & 0x60) != 0x60;
        buffer_append(&input, src + pos, chunk);
        pos += chunk;

        size_t max = sink == SINK_UTF8
                         ? wenc_text_decoder_max_utf8_len(&td, input.len)
                         : wenc_text_decoder_max_utf16_len(&td, input.len);
        FUZZ_CHECK(max != SIZE_MAX, "max-length helper overflows");
        buffer_reserve(&dst, max + 1);
        size_t dst_len, consumed;
        if ((p & 0x80) && max > 0) {
            dst_len = max - 1;
            consumed = 12345;
            status = text_decode(&td, sink, input.data, input.len, stream,
                                 dst.data, &dst_len, &consumed);
            FUZZ_CHECK(status == WENC_TEXT_BUFFER_TOO_SMALL,
                       "capacity %zu below the helper's %zu gives %d",
                       max - 1, max, (int)status);
        }
        dst_len = max;
        consumed = 12345;
        status = text_decode(&td, sink, input.data, input.len, stream,
                             dst.data, &dst_len, &consumed);
        call_result expected;
        model_decode(&model, sink, input.data, input.len, stream, &expected);
        FUZZ_CHECK(status == (expected.error ? WENC_TEXT_TYPE_ERROR
                                             : WENC_TEXT_OK),
                   "call %zu (%zu bytes, stream %d) gives %d, model %s", call,
                   input.len, (int)stream, (int)status,
                   expected.error ? "throws" : "returns");
        FUZZ_CHECK(consumed == expected.consumed,
                   "call %zu consumed %zu, model %zu", call, consumed,
                   expected.consumed);
        FUZZ_CHECK(dst_len <= max, "wrote %zu past the helper's %zu",
                   dst_len, max);
        dst.len = dst_len;
        if (!expected.error && !buffer_equal(&dst, &expected.output)) {
            dump_hex("input", input.data, input.len);
            dump_hex("expected", expected.output.data,
                     expected.output.len * unit);
            dump_hex("actual", dst.data, dst.len * unit);
            FUZZ_CHECK(0, "call %zu (stream %d) output differs", call,
                       (int)stream);
        }
        buffer_free(&expected.output);
        dst.len = 0;
        size_t keep = expected.error && stream ? input.len - consumed : 0;
        memmove(input.data, (uint8_t *)input.data + input.len - keep, keep);
        input.len = keep;
    }
    buffer_free(&input);
    buffer_free(&dst);
}

static void check_encode_into(const uint16_t *units, size_t n,
                              const buffer *scalars, const buffer *starts,
                              const buffer *utf8, size_t cap)
{
    const uint32_t *s = scalars->data;
    const uint64_t *at = starts->data;
    size_t expected_read = 0, expected_written = 0;
    for (size_t k = 0; k < scalars->len; k++) {
        size_t len = utf8_length(s[k]);
        if (expected_written + len > cap)
            break;
        expected_written += len;
        expected_read = at[k + 1];
    }
    uint8_t *dst = malloc(cap + 16);
    FUZZ_CHECK(dst != NULL, "out of memory");
    memset(dst, 0xAA, cap + 16);
    size_t read = 99, written = 99;
    wenc_text_encode_into(units, n, dst, cap, &read, &written);
    FUZZ_CHECK(read == expected_read && written == expected_written,
               "encodeInto(%zu units, cap %zu): read %zu written %zu, "
               "expected %zu and %zu",
               n, cap, read, written, expected_read, expected_written);
    FUZZ_CHECK(memcmp(dst, utf8->data ? utf8->data : "", written) == 0,
               "encodeInto wrote other bytes than encode()");
    for (size_t i = written; i < cap + 16; i++)
        FUZZ_CHECK(dst[i] == 0xAA, "encodeInto wrote byte %zu of %zu", i,
                   written);
    free(dst);
}

static void check_encoder_stream(const uint16_t *units, size_t n,
                                 stream_plan plan, const buffer *utf8)
{
    wenc_text_encoder_stream ts;
    wenc_text_encoder_stream_init(&ts);
    buffer out;
    buffer_init(&out, 1);
    size_t pos = 0;
    for (size_t call = 0; pos < n || call < plan.len; call++) {
        size_t chunk = n - pos;
        if (call < plan.len && plan.bytes[call] < 0xF0 &&
            (size_t)(plan.bytes[call] % 9) < chunk)
            chunk = plan.bytes[call] % 9;
        buffer_reserve(&out, 3 * (chunk + 1));
        size_t written = wenc_text_encoder_stream_chunk(
            &ts, units + pos, chunk, (uint8_t *)out.data + out.len);
        FUZZ_CHECK(written <= 3 * (chunk + 1),
                   "a %zu-unit chunk wrote %zu bytes", chunk, written);
        out.len += written;
        pos += chunk;
    }
    buffer_reserve(&out, 3);
    out.len += wenc_text_encoder_stream_flush(&ts,
                                              (uint8_t *)out.data + out.len);
    if (!buffer_equal(&out, utf8)) {
        dump_hex("TextEncoderStream", out.data, out.len);
        dump_hex("encode()", utf8->data, utf8->len);
        FUZZ_CHECK(0, "TextEncoderStream differs from encode()");
    }
    buffer_free(&out);
}

static void check_encoder(const uint8_t *src, size_t n, stream_plan plan,
                          size_t into_cap)
{
    static const uint16_t nothing[1] = {0};
    buffer units, scalars, starts, expected;
    buffer_init(&units, 2);
    buffer_init(&scalars, 4);
    buffer_init(&starts, 8);
    buffer_init(&expected, 1);
    bytes_to_units(src, n, &units);
    const uint16_t *u = units.data ? units.data : nothing;
    reference_utf16_scalars(u, units.len, &scalars, &starts);
    scalars_to_utf8(scalars.data, scalars.len, &expected);
    uint8_t *dst = malloc(3 * n + 1);
    FUZZ_CHECK(dst != NULL, "out of memory");
    size_t written = wenc_text_encode(u, units.len, dst);
    FUZZ_CHECK(written == expected.len &&
                   memcmp(dst, expected.data ? expected.data : "", written) ==
                       0,
               "TextEncoder.encode differs (%zu bytes, expected %zu)",
               written, expected.len);
    check_encode_into(u, units.len, &scalars, &starts, &expected, into_cap);
    check_encoder_stream(u, units.len, plan, &expected);

    buffer_free(&scalars);
    buffer_free(&expected);
    buffer_init(&scalars, 4);
    buffer_init(&expected, 1);
    reference_utf8_scalars(src, n, &scalars, NULL);
    scalars_to_utf8(scalars.data, scalars.len, &expected);
    written = wenc_text_encode_utf8(src, n, dst);
    FUZZ_CHECK(written == expected.len &&
                   memcmp(dst, expected.data ? expected.data : "", written) ==
                       0,
               "TextEncoder.encode from UTF-8 differs (%zu bytes, expected "
               "%zu)",
               written, expected.len);
    free(dst);
    buffer_free(&units);
    buffer_free(&scalars);
    buffer_free(&starts);
    buffer_free(&expected);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = fuzz_input_of(data, size);
    const char *label =
        reference_labels[fuzz_take_byte(&in) % REFERENCE_LABEL_COUNT].label;
    uint8_t flags = fuzz_take_byte(&in);
    fuzz_input plan_part = fuzz_take_bytes(&in, fuzz_take_byte(&in) % 24);
    stream_plan plan = {plan_part.data, plan_part.size};
    check_decoder(label, flags & 1, flags & 2,
                  (flags & 4) ? SINK_UTF16 : SINK_UTF8, plan, in.data,
                  in.size);
    check_encoder(in.data, in.size, plan, flags >> 3);
    return 0;
}

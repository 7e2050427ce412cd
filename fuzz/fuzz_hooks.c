/* fuzz_hooks.c — the one-shot hooks (wenc_hook_*).
 *
 * Input: [encoding] [bytes...]; encoding % 40, or an id out of range when
 * the byte is 0xF8 or above. The bytes are the hooks' input: as bytes, as
 * UTF-8 text, and as little-endian UTF-16 code units.
 *
 * Invariants: each hook gives exactly its streaming equivalent's output
 * (the modes its comment in wenc.h names), NUL-terminated; the UTF-8 hooks
 * also equal our reference UTF-8 decoder (§6: UTF-8 decode strips EF BB BF,
 * without BOM keeps it, without BOM or fail fails exactly on ill-formed
 * input and otherwise returns a copy); UTF-8 encode equals the reference
 * UTF-16 conversion (lone surrogates to U+FFFD); decode's `used` is the
 * BOM's encoding or the fallback; ids out of range give
 * WENC_INVALID_ARGUMENT with no output.
 */
#include "common.h"

#include <stdlib.h>
#include <string.h>

static void check_result(const char *hook, wenc_result result, uint8_t *out,
                         size_t out_len, wenc_result expected_result,
                         const buffer *expected)
{
    FUZZ_CHECK(result == expected_result, "%s returns %d, expected %d", hook,
               (int)result, (int)expected_result);
    if (result != WENC_OK) {
        FUZZ_CHECK(out == NULL && out_len == 0,
                   "%s fails but leaves output", hook);
        return;
    }
    FUZZ_CHECK(out != NULL && out[out_len] == 0,
               "%s output is not NUL-terminated", hook);
    if (out_len != expected->len ||
        memcmp(out, expected->data ? expected->data : "", out_len) != 0) {
        dump_hex("expected", expected->data, expected->len);
        dump_hex("actual", out, out_len);
        FUZZ_CHECK(0, "%s output differs", hook);
    }
    free(out);
}

static void reference_utf8_text(const uint8_t *s, size_t n, buffer *out)
{
    buffer scalars;
    buffer_init(&scalars, 4);
    reference_utf8_scalars(s, n, &scalars, NULL);
    buffer_init(out, 1);
    scalars_to_utf8(scalars.data, scalars.len, out);
    buffer_free(&scalars);
}

static void check_decode(wenc_id fallback, bool valid, const uint8_t *s,
                         size_t n)
{
    uint8_t *out = (uint8_t *)1;
    size_t out_len = 99;
    wenc_id used = (wenc_id)99;
    wenc_result result = wenc_hook_decode(s, n, fallback, &out, &out_len,
                                          &used);
    if (!valid) {
        check_result("decode", result, out, out_len, WENC_INVALID_ARGUMENT,
                     NULL);
        return;
    }
    stream_result streamed;
    stream_plan whole = {NULL, 0};
    run_decoder(fallback, WENC_BOM_SNIFF, WENC_ERRORS_REPLACEMENT, SINK_UTF8,
                s, n, whole, &streamed);
    check_result("decode", result, out, out_len, WENC_OK, &streamed.output);
    stream_result_free(&streamed);
    size_t bom_len;
    wenc_id expected = reference_bom_sniff(s, n, &bom_len);
    if (expected == WENC_INVALID)
        expected = fallback;
    FUZZ_CHECK(used == expected, "decode used %d, expected %d", (int)used,
               (int)expected);
}

static void check_utf8_hooks(const uint8_t *s, size_t n)
{
    uint8_t *out;
    size_t out_len;
    buffer expected;
    size_t bom_len;
    bool bom = reference_bom_sniff(s, n, &bom_len) == WENC_UTF_8;
    wenc_result result;

    /* Each hook runs before check_result() reads out and out_len: the
     * order in which a call's arguments are evaluated is unspecified (gcc
     * takes them right to left). */
    reference_utf8_text(s + (bom ? 3 : 0), n - (bom ? 3 : 0), &expected);
    result = wenc_hook_utf8_decode(s, n, &out, &out_len);
    check_result("UTF-8 decode", result, out, out_len, WENC_OK, &expected);
    buffer_free(&expected);

    reference_utf8_text(s, n, &expected);
    result = wenc_hook_utf8_decode_without_bom(s, n, &out, &out_len);
    check_result("UTF-8 decode without BOM", result, out, out_len, WENC_OK,
                 &expected);
    bool well_formed = buffer_equal(&expected, &(buffer){(void *)s, n, n, 1});
    FUZZ_CHECK(well_formed == utf8_well_formed(s, n),
               "reference UTF-8 checks disagree");
    buffer_free(&expected);

    buffer copy;
    buffer_init(&copy, 1);
    buffer_append(&copy, s, n);
    result = wenc_hook_utf8_decode_without_bom_or_fail(s, n, &out, &out_len);
    check_result("UTF-8 decode without BOM or fail", result, out, out_len,
                 well_formed ? WENC_OK : WENC_FAILURE, &copy);
    buffer_free(&copy);
}

static void check_utf8_encode(const uint8_t *s, size_t n)
{
    buffer units, scalars, expected;
    buffer_init(&units, 2);
    buffer_init(&scalars, 4);
    buffer_init(&expected, 1);
    bytes_to_units(s, n, &units);
    reference_utf16_scalars(units.data, units.len, &scalars, NULL);
    scalars_to_utf8(scalars.data, scalars.len, &expected);
    uint8_t *out;
    size_t out_len;
    wenc_result result =
        wenc_hook_utf8_encode(units.data, units.len, &out, &out_len);
    check_result("UTF-8 encode", result, out, out_len, WENC_OK, &expected);
    buffer_free(&units);
    buffer_free(&scalars);
    buffer_free(&expected);
}

static void check_encode(wenc_id id, bool valid, const uint8_t *s, size_t n)
{
    uint8_t *out = (uint8_t *)1;
    size_t out_len = 99;
    wenc_result result = wenc_hook_encode(s, n, id, &out, &out_len);
    if (!valid) {
        check_result("encode", result, out, out_len, WENC_INVALID_ARGUMENT,
                     NULL);
        return;
    }
    stream_result streamed;
    stream_plan whole = {NULL, 0};
    run_encoder(id, WENC_ERRORS_HTML, s, n, 1, whole, &streamed);
    check_result("encode", result, out, out_len, WENC_OK, &streamed.output);
    stream_result_free(&streamed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int out_of_range[8] = {-1, -2, WENC_ENCODING_COUNT,
                                        WENC_ENCODING_COUNT + 1, 255, 1000,
                                        -1000, WENC_ENCODING_COUNT};
    fuzz_input in = fuzz_input_of(data, size);
    uint8_t selector = fuzz_take_byte(&in);
    bool valid = selector < 0xF8;
    wenc_id id = valid ? (wenc_id)(selector % WENC_ENCODING_COUNT)
                       : (wenc_id)out_of_range[selector - 0xF8];
    check_decode(id, valid, in.data, in.size);
    check_encode(id, valid, in.data, in.size);
    check_utf8_hooks(in.data, in.size);
    check_utf8_encode(in.data, in.size);
    return 0;
}

/* The Standard's hooks for other standards (§6, §6.1), one-shot and
 * allocating, over the streaming decoder and encoder. */
#include "../internal.h"

#include <stdlib.h>

static wenc_result fail(uint8_t **out, size_t *out_len, wenc_result r)
{
    if (out)
        *out = NULL;
    if (out_len)
        *out_len = 0;
    return r;
}

/* Runs a whole buffer through a decoder into a malloc'd UTF-8 string. */
static wenc_result decode_all(wenc_decoder *dec, const uint8_t *src,
                              size_t len, uint8_t **out, size_t *out_len)
{
    size_t cap = wenc_decoder_max_utf8_len(dec, len);
    if (cap == SIZE_MAX)
        return fail(out, out_len, WENC_NO_MEMORY);
    uint8_t *buf = malloc(cap + 1);
    if (buf == NULL)
        return fail(out, out_len, WENC_NO_MEMORY);
    size_t n = len, m = cap;
    wenc_status st = wenc_decode_to_utf8(dec, src, &n, buf, &m, true);
    if (st != WENC_INPUT_EMPTY) {
        free(buf);
        return fail(out, out_len, WENC_FAILURE);
    }
    buf[m] = 0;
    *out = buf;
    *out_len = m;
    return WENC_OK;
}

static bool bad_args(const uint8_t *src, size_t len, uint8_t **out,
                     const size_t *out_len)
{
    return out == NULL || out_len == NULL || (src == NULL && len > 0);
}

/* §6.1 decode */
wenc_result wenc_hook_decode(const uint8_t *src, size_t len, wenc_id fallback,
                             uint8_t **out, size_t *out_len, wenc_id *used)
{
    wenc_decoder dec;
    if (bad_args(src, len, out, out_len) || wenc_name(fallback) == NULL)
        return fail(out, out_len, WENC_INVALID_ARGUMENT);
    if (!wenc_decoder_init(&dec, fallback, WENC_BOM_SNIFF,
                           WENC_ERRORS_REPLACEMENT))
        return fail(out, out_len, WENC_NOT_BUILT_IN);
    wenc_result r = decode_all(&dec, src, len, out, out_len);
    if (used)
        *used = wenc_decoder_encoding(&dec);
    return r;
}

static wenc_result utf8_decode(const uint8_t *src, size_t len, uint8_t **out,
                               size_t *out_len, wenc_bom_mode bom,
                               wenc_error_mode mode)
{
    wenc_decoder dec;
    if (bad_args(src, len, out, out_len))
        return fail(out, out_len, WENC_INVALID_ARGUMENT);
    wenc_decoder_init(&dec, WENC_UTF_8, bom, mode);
    return decode_all(&dec, src, len, out, out_len);
}

/* §6 UTF-8 decode */
wenc_result wenc_hook_utf8_decode(const uint8_t *src, size_t len,
                                  uint8_t **out, size_t *out_len)
{
    return utf8_decode(src, len, out, out_len, WENC_BOM_STRIP,
                       WENC_ERRORS_REPLACEMENT);
}

/* §6 UTF-8 decode without BOM */
wenc_result wenc_hook_utf8_decode_without_bom(const uint8_t *src, size_t len,
                                              uint8_t **out, size_t *out_len)
{
    return utf8_decode(src, len, out, out_len, WENC_BOM_KEEP,
                       WENC_ERRORS_REPLACEMENT);
}

/* §6 UTF-8 decode without BOM or fail */
wenc_result wenc_hook_utf8_decode_without_bom_or_fail(const uint8_t *src,
                                                      size_t len,
                                                      uint8_t **out,
                                                      size_t *out_len)
{
    return utf8_decode(src, len, out, out_len, WENC_BOM_KEEP,
                       WENC_ERRORS_FATAL);
}

/* Runs a whole input through an encoder into a malloc'd byte string. */
static wenc_result encode_all(wenc_encoder *enc, const void *src, size_t len,
                              int utf16, uint8_t **out, size_t *out_len)
{
    size_t cap = wenc_encoder_max_len(enc, len);
    if (cap == SIZE_MAX)
        return fail(out, out_len, WENC_NO_MEMORY);
    uint8_t *buf = malloc(cap + 1);
    if (buf == NULL)
        return fail(out, out_len, WENC_NO_MEMORY);
    size_t n = len, m = cap;
    wenc_status st =
        utf16 ? wenc_encode_from_utf16(enc, (const uint16_t *)src, &n, buf, &m, true)
              : wenc_encode_from_utf8(enc, (const uint8_t *)src, &n, buf, &m, true);
    if (st != WENC_INPUT_EMPTY) {
        free(buf);
        return fail(out, out_len, WENC_FAILURE);
    }
    buf[m] = 0;
    *out = buf;
    *out_len = m;
    return WENC_OK;
}

/* §6 UTF-8 encode */
wenc_result wenc_hook_utf8_encode(const uint16_t *src, size_t len,
                                  uint8_t **out, size_t *out_len)
{
    wenc_encoder enc;
    if (out == NULL || out_len == NULL || (src == NULL && len > 0))
        return fail(out, out_len, WENC_INVALID_ARGUMENT);
    wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_HTML);
    return encode_all(&enc, src, len, 1, out, out_len);
}

/* §6.1 encode (after get an output encoding) */
wenc_result wenc_hook_encode(const uint8_t *src, size_t len, wenc_id id,
                             uint8_t **out, size_t *out_len)
{
    wenc_encoder enc;
    if (bad_args(src, len, out, out_len) || wenc_name(id) == NULL)
        return fail(out, out_len, WENC_INVALID_ARGUMENT);
    if (!wenc_encoder_init(&enc, id, WENC_ERRORS_HTML))
        return fail(out, out_len, WENC_NOT_BUILT_IN);
    return encode_all(&enc, src, len, 0, out, out_len);
}

/* TextDecoder, TextEncoder and their streams (§7) over the streaming core. */
#include "../internal.h"

/* new TextDecoder(label, options) (§7.2) */
wenc_text_status wenc_text_decoder_init(wenc_text_decoder *td,
                                        const char *label, size_t label_len,
                                        bool fatal, bool ignore_bom)
{
    wenc_id id = wenc_lookup(label, label_len);
    if (id == WENC_INVALID || id == WENC_REPLACEMENT)
        return WENC_TEXT_RANGE_ERROR;
    if (!wenc_is_built_in(id))
        return WENC_TEXT_NOT_BUILT_IN;
    memset(td, 0, sizeof *td);
    td->encoding_ = (int16_t)id;
    td->fatal_ = fatal;
    td->ignore_bom_ = ignore_bom;
    /* The BOM is handled on the output, by serialize I/O queue. */
    wenc_decoder_init(&td->decoder_, id, WENC_BOM_KEEP,
                      fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT);
    return WENC_TEXT_OK;
}

const char *wenc_text_decoder_encoding(const wenc_text_decoder *td)
{
    return wenc_lowercase_names[td->encoding_];
}

bool wenc_text_decoder_fatal(const wenc_text_decoder *td)
{
    return td->fatal_;
}

bool wenc_text_decoder_ignore_bom(const wenc_text_decoder *td)
{
    return td->ignore_bom_;
}

/* The output decode() may need: after a streaming call, the decoder says;
 * else it is renewed first, and a renewed decoder holds no bytes. */
static size_t text_max_len(const wenc_text_decoder *td, size_t len, int utf16)
{
    if (td->do_not_flush_)
        return utf16 ? wenc_decoder_max_utf16_len(&td->decoder_, len)
                     : wenc_decoder_max_utf8_len(&td->decoder_, len);
    return wenc_decoded_max_len(0, len, utf16);
}

size_t wenc_text_decoder_max_utf16_len(const wenc_text_decoder *td,
                                       size_t len)
{
    return text_max_len(td, len, 1);
}

size_t wenc_text_decoder_max_utf8_len(const wenc_text_decoder *td, size_t len)
{
    return text_max_len(td, len, 0);
}

/* §7.1 serialize I/O queue: the first code point serialized since the
 * decoder was renewed is dropped if it is U+FEFF, for UTF-8 and UTF-16BE/LE
 * unless ignoreBOM. After a TypeError nothing was serialized (`seen` false):
 * the output before the error is shown as it would have been. */
static void serialize(wenc_text_decoder *td, void *dst, size_t *dst_len,
                      int utf16, bool seen)
{
    int id = td->encoding_;
    if (td->ignore_bom_ || td->bom_seen_ || *dst_len == 0 ||
        (id != WENC_UTF_8 && id != WENC_UTF_16BE && id != WENC_UTF_16LE))
        return;
    td->bom_seen_ = seen;
    if (utf16) {
        uint16_t *d = dst;
        if (d[0] == 0xFEFF) {
            memmove(d, d + 1, (*dst_len - 1) * sizeof *d);
            *dst_len -= 1;
        }
    } else {
        uint8_t *d = dst;
        if (*dst_len >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) {
            memmove(d, d + 3, *dst_len - 3);
            *dst_len -= 3;
        }
    }
}

/* TextDecoder decode(input, options) (§7.2) */
static wenc_text_status text_decode(wenc_text_decoder *td,
                                    const uint8_t *input, size_t len,
                                    bool stream, void *dst, size_t *dst_len,
                                    size_t *consumed, int utf16)
{
    size_t need = text_max_len(td, len, utf16);
    if (consumed)
        *consumed = 0;
    if (*dst_len < need) {
        *dst_len = 0;
        return WENC_TEXT_BUFFER_TOO_SMALL;
    }
    if (!td->do_not_flush_) {
        wenc_decoder_reset(&td->decoder_);
        td->bom_seen_ = 0;
    }
    td->do_not_flush_ = stream;
    size_t n = len;
    wenc_status st =
        utf16 ? wenc_decode_to_utf16(&td->decoder_, input, &n, (uint16_t *)dst,
                                     dst_len, !stream)
              : wenc_decode_to_utf8(&td->decoder_, input, &n, (uint8_t *)dst,
                                    dst_len, !stream);
    if (consumed)
        *consumed = n;
    serialize(td, dst, dst_len, utf16, st != WENC_ERROR);
    return st == WENC_ERROR ? WENC_TEXT_TYPE_ERROR : WENC_TEXT_OK;
}

wenc_text_status wenc_text_decoder_decode_utf16(wenc_text_decoder *td,
                                                const uint8_t *input,
                                                size_t len, bool stream,
                                                uint16_t *dst, size_t *dst_len,
                                                size_t *consumed)
{
    return text_decode(td, input, len, stream, dst, dst_len, consumed, 1);
}

wenc_text_status wenc_text_decoder_decode_utf8(wenc_text_decoder *td,
                                               const uint8_t *input,
                                               size_t len, bool stream,
                                               uint8_t *dst, size_t *dst_len,
                                               size_t *consumed)
{
    return text_decode(td, input, len, stream, dst, dst_len, consumed, 0);
}

/* The UTF-8 encoder (§8.1.2) over a whole UTF-16 string from a new encoder,
 * through its codec directly: the driver's replayed and held units never
 * arise, as UTF-8 encodes every scalar value and, this being the last
 * input, a lone surrogate at the end is replaced rather than held. Stops
 * before the first code point that does not fit whole. */
static void utf8_of_utf16(const uint16_t *src, size_t len, uint8_t *dst,
                          size_t cap, size_t *read, size_t *written)
{
    uint8_t none[1] = {0};
    *read = *written = 0;
    if (len == 0)
        return;
    if (dst == NULL)
        dst = none, cap = 0;
    wenc_encoder enc;
    wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_FATAL);
    wenc_utf8_encoder.from_utf16(&enc, src, len, read, dst, cap, written,
                                 true);
}

/* TextEncoder encode(input) (§7.4) */
size_t wenc_text_encode(const uint16_t *input, size_t len, uint8_t *dst)
{
    size_t read, written;
    utf8_of_utf16(input, len, dst, len * 3, &read, &written);
    return written;
}

size_t wenc_text_encode_utf8(const uint8_t *input, size_t len, uint8_t *dst)
{
    wenc_encoder enc;
    wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_FATAL);
    size_t n = len, m = len * 3;
    wenc_encode_from_utf8(&enc, input, &n, dst, &m, true);
    return m;
}

/* TextEncoder encodeInto(source, destination) (§7.4): the encoder stops
 * before the first code point that does not fit whole. */
void wenc_text_encode_into(const uint16_t *src, size_t len, uint8_t *dst,
                           size_t cap, size_t *read, size_t *written)
{
    utf8_of_utf16(src, len, dst, cap, read, written);
}

/* TextEncoderStream (§7.6) */
void wenc_text_encoder_stream_init(wenc_text_encoder_stream *ts)
{
    wenc_encoder_init(&ts->encoder_, WENC_UTF_8, WENC_ERRORS_FATAL);
}

/* encode and enqueue a chunk */
size_t wenc_text_encoder_stream_chunk(wenc_text_encoder_stream *ts,
                                      const uint16_t *chunk, size_t len,
                                      uint8_t *dst)
{
    size_t n = len, m = 3 * (len + 1);
    wenc_encode_from_utf16(&ts->encoder_, chunk, &n, dst, &m, false);
    return m;
}

/* encode and flush */
size_t wenc_text_encoder_stream_flush(wenc_text_encoder_stream *ts,
                                      uint8_t *dst)
{
    size_t n = 0, m = 3;
    wenc_encode_from_utf16(&ts->encoder_, NULL, &n, dst, &m, true);
    wenc_encoder_reset(&ts->encoder_);
    return m;
}

/* x-user-defined (§14.5): bytes 0x80–0xFF ↔ U+F780–U+F7FF. */
#include "loops.h"

/* §14.5.1 x-user-defined decoder */
WENC_INLINE codec_status xud_decode(const uint8_t *src, size_t len,
                                    size_t *consumed, void *dst, size_t cap,
                                    size_t *written, int utf16)
{
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    while (pos < len) {
        uint8_t b = src[pos];
        if (b < 0x80) {
            size_t n = len - pos < cap - out ? len - pos : cap - out;
            if (n == 0) {
                st = CODEC_OUTPUT_FULL;
                break;
            }
            n = sink_ascii(src + pos, dst, out, n, utf16);
            pos += n;
            out += n;
            continue;
        }
        uint32_t cp = 0xF780u + b - 0x80u;
        if (cap - out < sink_units(cp, utf16)) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        out = sink_put(dst, out, cp, utf16);
        pos++;
    }
    *consumed = pos;
    *written = out;
    return st;
}

WENC_INLINE codec_status xud_decode_loop(wenc_decoder *dec,
                                         const uint8_t *src, size_t len,
                                         size_t *consumed, void *dst,
                                         size_t cap, size_t *written,
                                         bool last, int utf16)
{
    (void)dec;
    (void)last;
    return xud_decode(src, len, consumed, dst, cap, written, utf16);
}

DEFINE_DECODE_SINKS(xud, xud_decode_loop)

static size_t xud_held(const wenc_decoder *dec)
{
    (void)dec;
    return 0;
}

const decoder_codec wenc_x_user_defined_decoder = {xud_to_utf8, xud_to_utf16,
                                                   xud_held};

/* §14.5.2 x-user-defined encoder */
static size_t xud_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
    (void)enc;
    if (cp < 0xF780 || cp > 0xF7FF)
        return 0;
    out[0] = (uint8_t)(cp - 0xF780 + 0x80);
    return 1;
}

WENC_INLINE codec_status xud_encode(wenc_encoder *enc, const void *src,
                                    size_t len, size_t *consumed, uint8_t *dst,
                                    size_t cap, size_t *written, bool last,
                                    int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, xud_step);
}

DEFINE_ENCODE_READERS(xud, xud_encode)

const encoder_codec wenc_x_user_defined_encoder = {xud_from_utf8,
                                                   xud_from_utf16, 8, 0};

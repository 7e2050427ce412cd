/* The legacy single-byte encodings (§9): one decoder and one encoder over
 * the index of the encoding in use (src/tables/single_byte.c). */
#include "loops.h"

static const single_byte_table *table_of(int id)
{
    return &wenc_single_byte_tables[id - WENC_IBM866];
}

/* §9.1 single-byte decoder; also x-user-defined's (§14.5.1), whose index
 * is computed */
WENC_INLINE codec_status sb_decode(wenc_decoder *dec, const uint8_t *src,
                                   size_t len, size_t *consumed, void *dst,
                                   size_t cap, size_t *written, bool last,
                                   int utf16)
{
    const uint16_t *index = dec->encoding_ == WENC_X_USER_DEFINED
                                ? wenc_x_user_defined_decode
                                : table_of(dec->encoding_)->decode;
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    (void)last;
    while (pos < len) {
        /* With room for the worst case (3 UTF-8 bytes or 1 UTF-16 unit per
         * byte), nothing is checked per byte until an error. */
        size_t room = utf16 ? cap - out : (cap - out) / 3;
        size_t end = pos + (len - pos < room ? len - pos : room);
        if (utf16) {
            uint16_t *d = (uint16_t *)dst;
            while (pos < end) {
                uint8_t b = src[pos];
                if (b < 0x80 && end - pos >= 16) {
                    uint64_t eight;
                    memcpy(&eight, src + pos, sizeof eight);
                    if ((eight & UINT64_C(0x8080808080808080)) == 0) {
                        fast_ascii_step(src, &pos, end, dst, &out, utf16);
                        continue;
                    }
                }
                uint16_t unit = b < 0x80 ? b : index[b & 0x7F];
                if (unit == 0 && b >= 0x80)
                    break;
                d[out++] = unit;
                pos++;
            }
        }
        while (pos < end) {
            uint8_t b = src[pos];
            if (b < 0x80) {
                fast_ascii_step(src, &pos, end, dst, &out, utf16);
                continue;
            }
            uint32_t cp = index[b - 0x80];
            if (cp == 0)
                break;
            out = sink_put(dst, out, cp, utf16);
            pos++;
        }
        if (pos == len)
            break;
        if (!sink_ascii_run(src, &pos, len, dst, &out, cap, utf16)) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        if (pos == len)
            break;
        uint32_t cp = index[src[pos] - 0x80];
        if (cp == 0) {
            st = sink_error(dec, NULL, 0, src + pos, 1, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                break;
            pos++;
            if (st == CODEC_ERROR)
                break;
            continue;
        }
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

DEFINE_DECODE_SINKS(sb, sb_decode)

static size_t sb_held(const wenc_decoder *dec)
{
    (void)dec;
    return 0;
}

const decoder_codec wenc_single_byte_decoder = {sb_to_utf8, sb_to_utf16,
                                                sb_held};

/* §9.2 single-byte encoder */
static size_t sb_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
    const uint8_t *page_of = table_of(enc->encoding_)->encode_page;
    if (cp > 0xFFFF)
        return 0;
    out[0] = wenc_single_byte_pages[page_of[cp >> 8]][cp & 0xFF];
    return out[0] != 0;
}

WENC_INLINE codec_status sb_encode(wenc_encoder *enc, const void *src,
                                   size_t len, size_t *consumed, uint8_t *dst,
                                   size_t cap, size_t *written, bool last,
                                   int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, sb_step);
}

DEFINE_ENCODE_READERS(sb, sb_encode)

/* "&#65533;" (8 bytes) for one input unit at most. */
const encoder_codec wenc_single_byte_encoder = {sb_from_utf8, sb_from_utf16,
                                                8, 0};

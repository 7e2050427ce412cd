/* The legacy single-byte encodings (§9): one decoder and one encoder over
 * the index of the encoding in use (src/tables/single_byte.c). */
#include "loops.h"

static const single_byte_table *table_of(int id)
{
    return &wenc_single_byte_tables[id - WENC_IBM866];
}

/* Units for all 256 bytes: themselves below 0x80, the index's above (0 for
 * a byte the index has no code point for). */
static void sb_units_of_bytes(const uint16_t *index, uint16_t units_of[256])
{
    for (unsigned b = 0; b < 0x80; b++)
        units_of[b] = (uint16_t)b;
    memcpy(units_of + 0x80, index, 0x80 * sizeof *index);
}

/* Decodes to UTF-16 eight bytes at a time through units_of[] with no branch
 * per byte, handing words of ASCII to the ASCII kernel. Stops before a word
 * holding a unit 0 (an unmapped byte, or a NUL) or when fewer than 16 bytes
 * are left; returns the bytes read, one unit written for each at
 * d[*out_io..]. */
static size_t sb_words_to_utf16(const uint8_t *s, size_t n,
                                const uint16_t units_of[256], uint16_t *d,
                                size_t *out_io)
{
    size_t pos = 0, out = *out_io;
    while (n - pos >= 16) {
        uint64_t eight;
        memcpy(&eight, s + pos, sizeof eight);
        if ((eight & UINT64_C(0x8080808080808080)) == 0) {
            fast_ascii_step(s, &pos, n, d, &out, 1);
            continue;
        }
        uint16_t units[8];
        uint32_t zero_seen = 0;
        for (int i = 0; i < 8; i++) {
            units[i] = units_of[s[pos + i]];
            zero_seen |= (uint32_t)units[i] - 1;
        }
        if (zero_seen & 0x10000)
            break;
        memcpy(d + out, units, sizeof units);
        pos += 8;
        out += 8;
    }
    *out_io = out;
    return pos;
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
    uint16_t units_of[256];
    const bool by_words = utf16 && len >= 64;
    (void)last;
    if (by_words)
        sb_units_of_bytes(index, units_of);
    while (pos < len) {
        /* With room for the worst case (3 UTF-8 bytes or 1 UTF-16 unit per
         * byte), nothing is checked per byte until an error. */
        size_t room = utf16 ? cap - out : (cap - out) / 3;
        size_t end = pos + (len - pos < room ? len - pos : room);
        while (by_words && end - pos >= 16) {
            uint16_t *d = (uint16_t *)dst;
            pos += sb_words_to_utf16(src + pos, end - pos, units_of, d, &out);
            if (end - pos < 16)
                break;
            /* The word with a unit 0, byte by byte up to an unmapped one. */
            size_t word_end = pos + 8;
            while (pos < word_end && (units_of[src[pos]] != 0 || src[pos] == 0))
                d[out++] = units_of[src[pos++]];
            if (pos < word_end)
                break;
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

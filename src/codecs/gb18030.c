/* gb18030 and GBK (§10): decoder shared, encoders differing in two steps. */
#include "loops.h"

/* Decoder state: bytes_[0..2] = gb18030 first, second, third (0 = none). */
enum { FIRST, SECOND, THIRD };

/* §10.1 index gb18030 ranges code point */
static uint32_t ranges_code_point(uint32_t pointer)
{
    if ((pointer > 39419 && pointer < 189000) || pointer > 1237575)
        return 0;
    if (pointer == 7457)
        return 0xE7C7;
    size_t lo = 0, hi = wenc_gb18030_range_count;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (wenc_gb18030_ranges[mid].pointer <= pointer)
            lo = mid;
        else
            hi = mid;
    }
    return wenc_gb18030_ranges[lo].code_point + pointer -
           wenc_gb18030_ranges[lo].pointer;
}

/* §10.1 index gb18030 ranges pointer */
static uint32_t ranges_pointer(uint32_t cp)
{
    if (cp == 0xE7C7)
        return 7457;
    size_t lo = 0, hi = wenc_gb18030_range_count;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (wenc_gb18030_ranges[mid].code_point <= cp)
            lo = mid;
        else
            hi = mid;
    }
    return wenc_gb18030_ranges[lo].pointer + cp -
           wenc_gb18030_ranges[lo].code_point;
}

/* The gb18030 decoder's one- and two-byte cases, for lead_trail_fast();
 * four-byte sequences and errors are left to the general loop. */
WENC_INLINE first_byte gb18030_first(uint8_t byte, uint32_t *cp)
{
    if (byte == 0x80) {
        *cp = 0x20AC;
        return FIRST_CODE_POINT;
    }
    return byte == 0xFF ? FIRST_ERROR : FIRST_LEAD;
}

WENC_INLINE size_t gb18030_two_bytes(uint8_t lead, uint8_t byte,
                                     uint32_t cps[2])
{
    if ((uint8_t)(byte - 0x40) > 0xFE - 0x40 || byte == 0x7F)
        return 0;
    /* the offset by comparison, not by branch: text makes it random */
    cps[0] = wenc_gb18030_index[(uint32_t)(lead - 0x81) * 190 + byte - 0x40u -
                                (byte > 0x7F)];
    return cps[0] != 0;
}

/* §10.2.1's two-byte pointer as tables for the scalar loop (0x80 and
 * four-byte sequences left to the general loop) */
#define GB18030_LEAD(b)                                                       \
    DOUBLE_BYTE_OFFSET(b, 0x81, 0xFE, 0x81, 0x81, 0xFE, 0x81, 190)
#define GB18030_TRAIL(b)                                                      \
    DOUBLE_BYTE_OFFSET(b, 0x40, 0x7E, 0x40, 0x80, 0xFE, 0x41, 1)
static const uint16_t gb18030_pointer_of_lead[256] = {BYTE_TABLE(GB18030_LEAD)};
static const uint16_t gb18030_pointer_of_trail[256] = {BYTE_TABLE(GB18030_TRAIL)};

/* The vector path: two-byte sequences (0x80 and four-byte sequences are
 * left to the loop). The ranges, offsets and 190 are §10.2.1's two-byte
 * case: offset 0x40 below 0x7F, else 0x41. */
static const double_byte_spec gb18030_vectors = {
    .lead = {{0x81, 0xFE}, {0x81, 0xFE}},
    .slow = {{0x00, 0x00}, {0x00, 0x00}, {0x00, 0x00}},
    .trail = {{0x40, 0x7E}, {0x80, 0xFE}},
    .lead_split = 0x81,
    .trail_split = 0x7F,
    .lead_base = {0x81, 0x81},
    .trail_base = {0x40, 0x41},
    .trail_count = 190,
    .index = wenc_gb18030_index,
    .index_size = &wenc_gb18030_index_size,
    .pointer_of_lead = gb18030_pointer_of_lead,
    .pointer_of_trail = gb18030_pointer_of_trail,
};

/* §10.2.1 gb18030 decoder */
WENC_INLINE codec_status gb18030_decode(wenc_decoder *dec, const uint8_t *src,
                                        size_t len, size_t *consumed,
                                        void *dst, size_t cap, size_t *written,
                                        bool last, int utf16)
{
    uint8_t *g = dec->bytes_;
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    for (;;) {
        if (g[FIRST] == 0) {
            lead_trail_fast(src, &pos, len, dst, &out, cap, utf16,
                            gb18030_first, gb18030_two_bytes,
                            &gb18030_vectors);
            if (!sink_ascii_run(src, &pos, len, dst, &out, cap, utf16)) {
                st = CODEC_OUTPUT_FULL;
                goto done;
            }
        }
        if (pos == len) {
            if (last && g[FIRST]) {
                size_t n = g[THIRD] ? 3 : g[SECOND] ? 2 : 1;
                st = sink_error(dec, g, n, NULL, 0, dst, cap, &out, utf16);
                if (st != CODEC_OUTPUT_FULL)
                    g[FIRST] = g[SECOND] = g[THIRD] = 0;
            }
            goto done;
        }
        uint8_t b = src[pos];
        uint32_t cp;
        if (g[THIRD]) {
            if (b < 0x30 || b > 0x39) {
                st = sink_error(dec, g, 1, NULL, 0, dst, cap, &out, utf16);
                if (st == CODEC_OUTPUT_FULL)
                    goto done;
                uint8_t again[2] = {g[SECOND], g[THIRD]};
                g[FIRST] = g[SECOND] = g[THIRD] = 0;
                codec_status r = unread(dec, again, 2, &pos);
                if (st == CODEC_ERROR || r == CODEC_REPLAY) {
                    if (st != CODEC_ERROR)
                        st = r;
                    goto done;
                }
                continue;
            }
            uint32_t pointer = (uint32_t)(g[FIRST] - 0x81) * 12600 +
                               (uint32_t)(g[SECOND] - 0x30) * 1260 +
                               (uint32_t)(g[THIRD] - 0x81) * 10 + (b - 0x30u);
            cp = ranges_code_point(pointer);
            if (cp == 0) {
                st = sink_error(dec, g, 3, &b, 1, dst, cap, &out, utf16);
                if (st == CODEC_OUTPUT_FULL)
                    goto done;
                g[FIRST] = g[SECOND] = g[THIRD] = 0;
                pos++;
                if (st == CODEC_ERROR)
                    goto done;
                continue;
            }
        } else if (g[SECOND]) {
            if (b >= 0x81 && b <= 0xFE) {
                g[THIRD] = b;
                pos++;
                continue;
            }
            st = sink_error(dec, g, 1, NULL, 0, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                goto done;
            uint8_t again[1] = {g[SECOND]};
            g[FIRST] = g[SECOND] = 0;
            codec_status r = unread(dec, again, 1, &pos);
            if (st == CODEC_ERROR || r == CODEC_REPLAY) {
                if (st != CODEC_ERROR)
                    st = r;
                goto done;
            }
            continue;
        } else if (g[FIRST]) {
            if (b >= 0x30 && b <= 0x39) {
                g[SECOND] = b;
                pos++;
                continue;
            }
            cp = 0;
            if ((b >= 0x40 && b <= 0x7E) || (b >= 0x80 && b <= 0xFE)) {
                uint32_t pointer = (uint32_t)(g[FIRST] - 0x81) * 190 +
                                   (b - (b < 0x7F ? 0x40u : 0x41u));
                cp = wenc_gb18030_index[pointer];
            }
            if (cp == 0) {
                /* An ASCII byte is read again; any other is part of the error. */
                size_t n = b < 0x80 ? 0 : 1;
                st = sink_error(dec, g, 1, &b, n, dst, cap, &out, utf16);
                if (st == CODEC_OUTPUT_FULL)
                    goto done;
                g[FIRST] = 0;
                pos += n;
                if (st == CODEC_ERROR)
                    goto done;
                continue;
            }
        } else if (b == 0x80) {
            cp = 0x20AC;
        } else if (b >= 0x81 && b <= 0xFE) {
            g[FIRST] = b;
            pos++;
            continue;
        } else {
            st = sink_error(dec, NULL, 0, &b, 1, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                goto done;
            pos++;
            if (st == CODEC_ERROR)
                goto done;
            continue;
        }
        if (cap - out < sink_units(cp, utf16)) {
            st = CODEC_OUTPUT_FULL;
            goto done;
        }
        out = sink_put(dst, out, cp, utf16);
        g[FIRST] = g[SECOND] = g[THIRD] = 0;
        pos++;
    }
done:
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_DECODE_SINKS(gb18030, gb18030_decode)

static size_t gb18030_held(const wenc_decoder *dec, uint8_t *bytes)
{
    const uint8_t *g = dec->bytes_;
    size_t n = g[THIRD] ? 3 : g[SECOND] ? 2 : g[FIRST] ? 1 : 0;
    if (bytes)
        memcpy(bytes, g, n);
    return n;
}

/* What an error in the states of a second or third byte reads again
 * (§10.2.1): the second byte, or the second and third. */
static bool gb18030_rereads(const wenc_decoder *dec, const uint8_t *bytes,
                            size_t n)
{
    if (dec->bytes_[FIRST] || n < 1 || n > 2 || bytes[0] < 0x30 ||
        bytes[0] > 0x39)
        return false;
    return n == 1 || (bytes[1] >= 0x81 && bytes[1] <= 0xFE);
}

const decoder_codec wenc_gb18030_decoder = {
    .to_utf8 = gb18030_to_utf8,
    .to_utf16 = gb18030_to_utf16,
    .held = gb18030_held,
    .rereads = gb18030_rereads,
};

/* §10.2.2 gb18030 encoder; GBK's (§10.3.2) when enc->encoding_ is WENC_GBK.
 * The generated maps hold the two-byte steps (U+E5E5 left out; GBK's 0x80
 * for U+20AC); without them they are taken here, with the index pointer
 * or one of the GB18030-2022 note's Private Use code points. */
static uint32_t gb18030_bytes_of(const wenc_encoder *enc, uint32_t cp)
{
#ifdef WENC_NO_ENCODE_TABLES
    if (cp == 0xE5E5)
        return 0;
    if (cp == 0x20AC && enc->encoding_ == WENC_GBK)
        return 0x80;
    size_t pointer = index_find(wenc_gb18030_index, 0, wenc_gb18030_index_size, cp);
    if (pointer == wenc_gb18030_index_size) {
        for (size_t i = 0; i < wenc_gb18030_pua_extra_count; i++)
            if (wenc_gb18030_pua_extras[i].code_point == cp)
                pointer = wenc_gb18030_pua_extras[i].pointer;
        if (pointer == wenc_gb18030_index_size)
            return 0;
    }
    uint32_t trail = (uint32_t)(pointer % 190);
    return (uint32_t)(pointer / 190 + 0x81) << 8 |
           (trail + (trail < 0x3F ? 0x40 : 0x41));
#else
    return byte_lookup(enc->encoding_ == WENC_GBK ? &wenc_gbk_bytes
                                                  : &wenc_gb18030_bytes,
                       cp);
#endif
}

static size_t gb18030_step(const wenc_encoder *enc, uint32_t cp,
                           uint8_t out[4])
{
    if (cp == 0xE5E5)
        return 0;
    size_t size = put_mapped(gb18030_bytes_of(enc, cp), out);
    if (size != 0 || enc->encoding_ == WENC_GBK)
        return size;
    uint32_t pointer = ranges_pointer(cp);
    out[0] = (uint8_t)(pointer / 12600 + 0x81);
    pointer %= 12600;
    out[1] = (uint8_t)(pointer / 1260 + 0x30);
    pointer %= 1260;
    out[2] = (uint8_t)(pointer / 10 + 0x81);
    out[3] = (uint8_t)(pointer % 10 + 0x30);
    return 4;
}

#ifdef WENC_NO_ENCODE_TABLES
#define gb18030_vector NULL
#else
static size_t gb18030_vector(const wenc_encoder *enc, const void *src,
                             size_t n, uint8_t *dst, size_t room,
                             size_t *written, int utf16)
{
    (void)room;
    return wenc_byte_map_vectors(enc->encoding_ == WENC_GBK
                                     ? &wenc_gbk_bytes
                                     : &wenc_gb18030_bytes,
                                 src, n, dst, written, utf16);
}
#endif

WENC_INLINE codec_status gb18030_encode(wenc_encoder *enc, const void *src,
                                        size_t len, size_t *consumed,
                                        uint8_t *dst, size_t cap,
                                        size_t *written, bool last, int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, gb18030_step, gb18030_bytes_of,
                            gb18030_vector);
}

DEFINE_ENCODE_READERS(gb18030, gb18030_encode)

/* Four bytes or "&#65533;" (8) per input unit at most. */
const encoder_codec wenc_gb18030_encoder = {
    .from_utf8 = gb18030_from_utf8,
    .from_utf16 = gb18030_from_utf16,
    .max_per_unit = 8,
    .max_closing = 0,
};

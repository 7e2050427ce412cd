/* Big5 (§11.1). */
#include "loops.h"

WENC_INLINE first_byte big5_first(uint8_t byte, uint32_t *cp)
{
    (void)cp;
    return byte >= 0x81 && byte <= 0xFE ? FIRST_LEAD : FIRST_ERROR;
}

WENC_INLINE size_t big5_pair(uint8_t lead, uint8_t byte, uint32_t cps[2])
{
    if ((uint8_t)(byte - 0x40) > 0xFE - 0x40 ||
        (uint8_t)(byte - 0x7F) < 0xA1 - 0x7F)
        return 0;
    /* the offset by comparison, not by branch: text makes it random */
    uint32_t pointer = (uint32_t)(lead - 0x81) * 157 + byte - 0x40u -
                       0x22u * (byte > 0x7F);
    /* Leads A1-F9 but C8 (most text) have neither the pointers of two code
     * points nor those of plane 2 (see big5_vectors below), and their
     * pointers, up to 18996, are all in the index. */
    if (WENC_LIKELY((uint8_t)(lead - 0xA1) <= 0xF9 - 0xA1 && lead != 0xC8)) {
        cps[0] = wenc_big5_index[pointer];
        return cps[0] != 0;
    }
    /* The four pointers that stand for two code points. */
    if (WENC_UNLIKELY(pointer - 1133 <= 1166 - 1133)) {
        switch (pointer) {
        case 1133: cps[0] = 0x00CA, cps[1] = 0x0304; return 2;
        case 1135: cps[0] = 0x00CA, cps[1] = 0x030C; return 2;
        case 1164: cps[0] = 0x00EA, cps[1] = 0x0304; return 2;
        case 1166: cps[0] = 0x00EA, cps[1] = 0x030C; return 2;
        default: break;
        }
    }
    if (pointer >= wenc_big5_index_size || wenc_big5_index[pointer] == 0)
        return 0;
    cps[0] = wenc_big5_index[pointer] |
             (uint32_t)((wenc_big5_plane2[pointer >> 3] >> (pointer & 7)) & 1)
                 << 17;
    return 1;
}

/* §11.1.1's lead and trail offsets as tables for the scalar loop (leads
 * 0x81-0xA0, 0xC8 and 0xFA-0xFE left to big5_pair(), as below: the leads
 * taken are 0xA1-0xC7 and 0xC9-0xF9) */
#define BIG5_LEAD(b)                                                          \
    DOUBLE_BYTE_OFFSET(b, 0xA1, 0xC7, 0x81, 0xC9, 0xF9, 0x81, 157)
#define BIG5_TRAIL(b)                                                         \
    DOUBLE_BYTE_OFFSET(b, 0x40, 0x7E, 0x40, 0xA1, 0xFE, 0x62, 1)
static const uint16_t big5_pointer_of_lead[256] = {BYTE_TABLE(BIG5_LEAD)};
static const uint16_t big5_pointer_of_trail[256] = {BYTE_TABLE(BIG5_TRAIL)};

/* The vector path: leads 0x81-0xA0, 0xC8 and 0xFA-0xFE (the pointers of
 * two code points and of plane 2) left to big5_pair(). The ranges, offsets
 * and 157 are §11.1.1's: offset 0x40 below 0x7F, else 0x62. */
static const double_byte_spec big5_vectors = {
    .lead = {{0x81, 0xFE}, {0x81, 0xFE}},
    .slow = {{0x81, 0xA0}, {0xC8, 0xC8}, {0xFA, 0xFE}},
    .trail = {{0x40, 0x7E}, {0xA1, 0xFE}},
    .lead_split = 0x81,
    .trail_split = 0x7F,
    .lead_base = {0x81, 0x81},
    .trail_base = {0x40, 0x62},
    .trail_count = 157,
    .index = wenc_big5_index,
    .index_size = &wenc_big5_index_size,
    .pointer_of_lead = big5_pointer_of_lead,
    .pointer_of_trail = big5_pointer_of_trail,
};

/* §11.1.1 Big5 decoder */
WENC_INLINE codec_status big5_decode(wenc_decoder *dec, const uint8_t *src,
                                     size_t len, size_t *consumed, void *dst,
                                     size_t cap, size_t *written, bool last,
                                     int utf16)
{
    return lead_trail_decode(dec, src, len, consumed, dst, cap, written, last,
                             utf16, big5_first, big5_pair,
                             &big5_vectors);
}

DEFINE_DECODE_SINKS(big5, big5_decode)

const decoder_codec wenc_big5_decoder = {
    .to_utf8 = big5_to_utf8,
    .to_utf16 = big5_to_utf16,
    .held = lead_byte_held,
};

#ifdef WENC_NO_ENCODE_TABLES
/* §5 index Big5 pointer, searched for: index Big5 from pointer
 * (0xA1 - 0x81) * 157 on, whose entries are a code point's low 16 bits and
 * its bit in wenc_big5_plane2 (U+20000 on); the last pointer for six code
 * points. wenc_big5_index_size for none. */
static size_t big5_pointer(uint32_t cp)
{
    size_t size = wenc_big5_index_size, found = size;
    unsigned plane2 = cp >> 16 == 2;
    bool last = cp == 0x2550 || cp == 0x255E || cp == 0x2561 ||
                cp == 0x256A || cp == 0x5341 || cp == 0x5345;
    if (cp >> 16 != 0 && !plane2)
        return size;
    for (size_t p = (size_t)(0xA1 - 0x81) * 157;; p++) {
        p = index_find(wenc_big5_index, p, size, cp & 0xFFFF);
        if (p == size)
            return found;
        if ((unsigned)((wenc_big5_plane2[p >> 3] >> (p & 7)) & 1) == plane2) {
            found = p;
            if (!last)
                return found;
        }
    }
}
#endif

/* §11.1.2 Big5 encoder, with the index Big5 pointer rules built into the
 * generated map (up to U+FFFF) and list (above), or without them
 * big5_pointer(). */
static uint32_t big5_bytes_of(const wenc_encoder *enc, uint32_t cp)
{
    (void)enc;
#ifdef WENC_NO_ENCODE_TABLES
    size_t pointer = big5_pointer(cp);
    if (pointer == wenc_big5_index_size)
        return 0;
    uint32_t trail = (uint32_t)(pointer % 157);
    return (uint32_t)(pointer / 157 + 0x81) << 8 |
           (trail + (trail < 0x3F ? 0x40 : 0x62));
#else
    return byte_lookup(&wenc_big5_bytes, cp);
#endif
}

static size_t big5_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
#ifdef WENC_NO_ENCODE_TABLES
    return put_mapped(big5_bytes_of(enc, cp), out);
#else
    uint32_t pointer;
    if (cp <= 0xFFFF) {
        return put_mapped(big5_bytes_of(enc, cp), out);
    } else {
        size_t lo = 0, hi = wenc_big5_astral_count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (wenc_big5_astral_code_points[mid] < cp)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == wenc_big5_astral_count || wenc_big5_astral_code_points[lo] != cp)
            return 0;
        pointer = wenc_big5_astral_pointers[lo];
    }
    uint32_t trail = pointer % 157;
    out[0] = (uint8_t)(pointer / 157 + 0x81);
    out[1] = (uint8_t)(trail + (trail < 0x3F ? 0x40 : 0x62));
    return 2;
#endif
}

#ifdef WENC_NO_ENCODE_TABLES
#define big5_vector NULL
#else
static size_t big5_vector(const wenc_encoder *enc, const void *src,
                          size_t n, uint8_t *dst, size_t room,
                          size_t *written, int utf16)
{
    (void)room;
    (void)enc;
    return wenc_byte_map_vectors(&wenc_big5_bytes, src, n, dst, written, utf16);
}
#endif

WENC_INLINE codec_status big5_encode(wenc_encoder *enc, const void *src,
                                     size_t len, size_t *consumed,
                                     uint8_t *dst, size_t cap, size_t *written,
                                     bool last, int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, big5_step, big5_bytes_of,
                            big5_vector);
}

DEFINE_ENCODE_READERS(big5, big5_encode)

const encoder_codec wenc_big5_encoder = {
    .from_utf8 = big5_from_utf8,
    .from_utf16 = big5_from_utf16,
    .max_per_unit = 8,
    .max_closing = 0,
};

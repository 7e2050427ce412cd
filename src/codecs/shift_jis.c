/* Shift_JIS (§12.3). */
#include "loops.h"

WENC_INLINE first_byte shift_jis_first(uint8_t byte, uint32_t *cp)
{
    if (byte <= 0x80) {
        *cp = byte;
        return FIRST_CODE_POINT;
    }
    if (byte >= 0xA1 && byte <= 0xDF) {
        *cp = 0xFF61u - 0xA1u + byte;
        return FIRST_CODE_POINT;
    }
    if ((byte >= 0x81 && byte <= 0x9F) || (byte >= 0xE0 && byte <= 0xFC))
        return FIRST_LEAD;
    return FIRST_ERROR;
}

WENC_INLINE size_t shift_jis_pair(uint8_t lead, uint8_t byte, uint32_t cps[2])
{
    if ((uint8_t)(byte - 0x40) > 0xFC - 0x40 || byte == 0x7F)
        return 0;
    /* the offsets by comparison, not by branch: kanji make them random */
    uint32_t pointer = (lead - 0x81u - 0x40u * (lead >= 0xA0)) * 188 +
                       byte - 0x40u - (byte > 0x7F);
    if (pointer >= 8836 && pointer <= 10715) {
        cps[0] = 0xE000 - 8836 + pointer; /* EUDC: Private Use */
        return 1;
    }
    if (pointer >= wenc_jis0208_index_size || wenc_jis0208_index[pointer] == 0)
        return 0;
    cps[0] = wenc_jis0208_index[pointer];
    return 1;
}

/* §12.3.1's lead and trail offsets as tables for the scalar loop (leads
 * 0xF0-0xFC left to shift_jis_pair(), as below) */
#define SHIFT_JIS_LEAD(b)                                                     \
    DOUBLE_BYTE_OFFSET(b, 0x81, 0x9F, 0x81, 0xE0, 0xEF, 0xC1, 188)
#define SHIFT_JIS_TRAIL(b)                                                    \
    DOUBLE_BYTE_OFFSET(b, 0x40, 0x7E, 0x40, 0x80, 0xFC, 0x41, 1)
static const uint16_t shift_jis_pointer_of_lead[256] = {BYTE_TABLE(SHIFT_JIS_LEAD)};
static const uint16_t shift_jis_pointer_of_trail[256] = {BYTE_TABLE(SHIFT_JIS_TRAIL)};

/* The vector path: leads 0xF0-0xFC (the EUDC pointers, 8836 on) left to
 * shift_jis_pair(). The ranges, offsets and 188 are §12.3.1's: lead offset
 * 0x81 below 0xA0, else 0xC1; offset 0x40 below 0x7F, else 0x41. */
static const double_byte_spec shift_jis_vectors = {
    .lead = {{0x81, 0x9F}, {0xE0, 0xFC}},
    .slow = {{0xF0, 0xFC}, {0xF0, 0xFC}, {0xF0, 0xFC}},
    .trail = {{0x40, 0x7E}, {0x80, 0xFC}},
    .lead_split = 0xA0,
    .trail_split = 0x7F,
    .lead_base = {0x81, 0xC1},
    .trail_base = {0x40, 0x41},
    .trail_count = 188,
    .index = wenc_jis0208_index,
    .index_size = &wenc_jis0208_index_size,
    .pointer_of_lead = shift_jis_pointer_of_lead,
    .pointer_of_trail = shift_jis_pointer_of_trail,
};

/* §12.3.1 Shift_JIS decoder */
WENC_INLINE codec_status shift_jis_decode(wenc_decoder *dec,
                                          const uint8_t *src, size_t len,
                                          size_t *consumed, void *dst,
                                          size_t cap, size_t *written,
                                          bool last, int utf16)
{
    return lead_trail_decode(dec, src, len, consumed, dst, cap, written, last,
                             utf16, shift_jis_first, shift_jis_pair,
                             &shift_jis_vectors);
}

DEFINE_DECODE_SINKS(shift_jis, shift_jis_decode)

const decoder_codec wenc_shift_jis_decoder = {
    .to_utf8 = shift_jis_to_utf8,
    .to_utf16 = shift_jis_to_utf16,
    .held = lead_byte_held,
};

/* §12.3.2 Shift_JIS encoder, its steps built into the generated map, or
 * without it taken here, with the index Shift_JIS pointer (§5: index
 * jis0208 without pointers 8272 to 8835) */
static uint32_t shift_jis_bytes_of(const wenc_encoder *enc, uint32_t cp)
{
    (void)enc;
#ifdef WENC_NO_ENCODE_TABLES
    if (cp == 0x80)
        return 0x80;
    if (cp == 0xA5)
        return 0x5C;
    if (cp == 0x203E)
        return 0x7E;
    if (cp >= 0xFF61 && cp <= 0xFF9F)
        return cp - 0xFF61 + 0xA1;
    if (cp == 0x2212)
        cp = 0xFF0D;
    size_t pointer = index_find(wenc_jis0208_index, 0, 8272, cp);
    if (pointer == 8272)
        pointer = index_find(wenc_jis0208_index, 8836, wenc_jis0208_index_size, cp);
    if (pointer == wenc_jis0208_index_size)
        return 0;
    uint32_t lead = (uint32_t)(pointer / 188), trail = (uint32_t)(pointer % 188);
    return (lead + (lead < 0x1F ? 0x81 : 0xC1)) << 8 |
           (trail + (trail < 0x3F ? 0x40 : 0x41));
#else
    return byte_lookup(&wenc_shift_jis_bytes, cp);
#endif
}

static size_t shift_jis_step(const wenc_encoder *enc, uint32_t cp,
                             uint8_t out[4])
{
    return put_mapped(shift_jis_bytes_of(enc, cp), out);
}

#ifdef WENC_NO_ENCODE_TABLES
#define shift_jis_vector NULL
#else
static size_t shift_jis_vector(const wenc_encoder *enc, const void *src,
                               size_t n, uint8_t *dst, size_t room,
                               size_t *written, int utf16)
{
    (void)room;
    (void)enc;
    return wenc_byte_map_vectors(&wenc_shift_jis_bytes, src, n, dst, written, utf16);
}
#endif

WENC_INLINE codec_status shift_jis_encode(wenc_encoder *enc, const void *src,
                                          size_t len, size_t *consumed,
                                          uint8_t *dst, size_t cap,
                                          size_t *written, bool last,
                                          int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, shift_jis_step,
                            shift_jis_bytes_of, shift_jis_vector);
}

DEFINE_ENCODE_READERS(shift_jis, shift_jis_encode)

const encoder_codec wenc_shift_jis_encoder = {
    .from_utf8 = shift_jis_from_utf8,
    .from_utf16 = shift_jis_from_utf16,
    .max_per_unit = 8,
    .max_closing = 0,
};

/* EUC-KR (§13.1). */
#include "loops.h"

WENC_INLINE first_byte euc_kr_first(uint8_t byte, uint32_t *cp)
{
    (void)cp;
    return byte >= 0x81 && byte <= 0xFE ? FIRST_LEAD : FIRST_ERROR;
}

WENC_INLINE size_t euc_kr_pair(uint8_t lead, uint8_t byte, uint32_t cps[2])
{
    if (byte < 0x41 || byte > 0xFE)
        return 0;
    uint32_t pointer = (uint32_t)(lead - 0x81) * 190 + (byte - 0x41u);
    if (pointer >= wenc_euc_kr_index_size || wenc_euc_kr_index[pointer] == 0)
        return 0;
    cps[0] = wenc_euc_kr_index[pointer];
    return 1;
}

/* §13.1.1's pointer as tables for the scalar loop (lead 0xFE's row,
 * pointers 23750 on, is past the end of index EUC-KR: left to
 * euc_kr_pair()) */
#define EUC_KR_LEAD(b)                                                        \
    DOUBLE_BYTE_OFFSET(b, 0x81, 0xFD, 0x81, 0x81, 0xFD, 0x81, 190)
#define EUC_KR_TRAIL(b)                                                       \
    DOUBLE_BYTE_OFFSET(b, 0x41, 0xFE, 0x41, 0x41, 0xFE, 0x41, 1)
static const uint16_t euc_kr_pointer_of_lead[256] = {BYTE_TABLE(EUC_KR_LEAD)};
static const uint16_t euc_kr_pointer_of_trail[256] = {BYTE_TABLE(EUC_KR_TRAIL)};

/* The vector path: every pair. The ranges, offsets and 190 are
 * §13.1.1's. */
static const double_byte_spec euc_kr_vectors = {
    .lead = {{0x81, 0xFE}, {0x81, 0xFE}},
    .slow = {{0x00, 0x00}, {0x00, 0x00}, {0x00, 0x00}},
    .trail = {{0x41, 0xFE}, {0x41, 0xFE}},
    .lead_split = 0x81,
    .trail_split = 0x41,
    .lead_base = {0x81, 0x81},
    .trail_base = {0x41, 0x41},
    .trail_count = 190,
    .index = wenc_euc_kr_index,
    .index_size = &wenc_euc_kr_index_size,
    .pointer_of_lead = euc_kr_pointer_of_lead,
    .pointer_of_trail = euc_kr_pointer_of_trail,
};

/* §13.1.1 EUC-KR decoder */
WENC_INLINE codec_status euc_kr_decode(wenc_decoder *dec, const uint8_t *src,
                                       size_t len, size_t *consumed,
                                       void *dst, size_t cap, size_t *written,
                                       bool last, int utf16)
{
    return lead_trail_decode(dec, src, len, consumed, dst, cap, written, last,
                             utf16, euc_kr_first, euc_kr_pair,
                             &euc_kr_vectors);
}

DEFINE_DECODE_SINKS(euc_kr, euc_kr_decode)

const decoder_codec wenc_euc_kr_decoder = {
    .to_utf8 = euc_kr_to_utf8,
    .to_utf16 = euc_kr_to_utf16,
    .held = lead_byte_held,
};

/* §13.1.2 EUC-KR encoder, its steps built into the generated map, or
 * without it the index pointer's lead and trail */
static uint32_t euc_kr_bytes_of(const wenc_encoder *enc, uint32_t cp)
{
    (void)enc;
#ifdef WENC_NO_ENCODE_TABLES
    size_t pointer = index_find(wenc_euc_kr_index, 0, wenc_euc_kr_index_size, cp);
    if (pointer == wenc_euc_kr_index_size)
        return 0;
    return (uint32_t)(pointer / 190 + 0x81) << 8 | (uint32_t)(pointer % 190 + 0x41);
#else
    return byte_lookup(&wenc_euc_kr_bytes, cp);
#endif
}

static size_t euc_kr_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
    return put_mapped(euc_kr_bytes_of(enc, cp), out);
}

#ifdef WENC_NO_ENCODE_TABLES
#define euc_kr_vector NULL
#else
static size_t euc_kr_vector(const wenc_encoder *enc, const void *src,
                            size_t n, uint8_t *dst, size_t room,
                            size_t *written, int utf16)
{
    (void)room;
    (void)enc;
    return wenc_byte_map_vectors(&wenc_euc_kr_bytes, src, n, dst, written, utf16);
}
#endif

WENC_INLINE codec_status euc_kr_encode(wenc_encoder *enc, const void *src,
                                       size_t len, size_t *consumed,
                                       uint8_t *dst, size_t cap,
                                       size_t *written, bool last, int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, euc_kr_step, euc_kr_bytes_of,
                            euc_kr_vector);
}

DEFINE_ENCODE_READERS(euc_kr, euc_kr_encode)

const encoder_codec wenc_euc_kr_encoder = {
    .from_utf8 = euc_kr_from_utf8,
    .from_utf16 = euc_kr_from_utf16,
    .max_per_unit = 8,
    .max_closing = 0,
};

/* x-user-defined (§14.5): bytes 0x80–0xFF ↔ U+F780–U+F7FF. */
#include "loops.h"

/* §14.5.1 x-user-defined decoder: the single-byte decoder loop over the
 * computed table wenc_x_user_defined_table (src/tables/single_byte.c). */

/* §14.5.2 x-user-defined encoder */
static uint32_t xud_bytes_of(const wenc_encoder *enc, uint32_t cp)
{
    (void)enc;
    return cp >= 0xF780 && cp <= 0xF7FF ? cp - 0xF780 + 0x80 : 0;
}

static size_t xud_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
    return put_mapped(xud_bytes_of(enc, cp), out);
}

WENC_INLINE codec_status xud_encode(wenc_encoder *enc, const void *src,
                                    size_t len, size_t *consumed, uint8_t *dst,
                                    size_t cap, size_t *written, bool last,
                                    int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, xud_step, xud_bytes_of, NULL);
}

DEFINE_ENCODE_READERS(xud, xud_encode)

const encoder_codec wenc_x_user_defined_encoder = {
    .from_utf8 = xud_from_utf8,
    .from_utf16 = xud_from_utf16,
    .max_per_unit = 8,
    .max_closing = 0,
};

/* EUC-JP (§12.1). */
#include "loops.h"

/* Decoder state: bytes_[0] = EUC-JP lead (0 = none), state_[0] = EUC-JP
 * jis0212 (then 0x8F came before the lead). */

/* The EUC-JP decoder's two-byte cases, for lead_trail_fast(); jis0212's
 * three-byte sequences and errors are left to the general loop. */
WENC_INLINE first_byte euc_jp_first(uint8_t byte, uint32_t *cp)
{
    (void)cp;
    return byte == 0x8E || (byte >= 0xA1 && byte <= 0xFE) ? FIRST_LEAD
                                                          : FIRST_ERROR;
}

WENC_INLINE size_t euc_jp_two_bytes(uint8_t lead, uint8_t byte, uint32_t cps[2])
{
    if (byte < 0xA1 || byte > 0xFE)
        return 0;
    if (lead == 0x8E) {
        cps[0] = 0xFF61u - 0xA1u + byte;
        return byte <= 0xDF;
    }
    uint32_t pointer = (uint32_t)(lead - 0xA1) * 94 + byte - 0xA1u;
    cps[0] = pointer < wenc_jis0208_index_size ? wenc_jis0208_index[pointer]
                                               : 0;
    return cps[0] != 0;
}

/* §12.1.1's jis0208 pointer as tables for the scalar loop (0x8E and 0x8F
 * left to euc_jp_two_bytes() and the general loop) */
#define EUC_JP_LEAD(b)                                                        \
    DOUBLE_BYTE_OFFSET(b, 0xA1, 0xFE, 0xA1, 0xA1, 0xFE, 0xA1, 94)
#define EUC_JP_TRAIL(b)                                                       \
    DOUBLE_BYTE_OFFSET(b, 0xA1, 0xFE, 0xA1, 0xA1, 0xFE, 0xA1, 1)
static const uint16_t euc_jp_pointer_of_lead[256] = {BYTE_TABLE(EUC_JP_LEAD)};
static const uint16_t euc_jp_pointer_of_trail[256] = {BYTE_TABLE(EUC_JP_TRAIL)};

/* The vector path: jis0208's pairs (0x8E and 0x8F are left to the loop).
 * The ranges and 94 are §12.1.1's. */
static const double_byte_spec euc_jp_vectors = {
    .lead = {{0xA1, 0xFE}, {0xA1, 0xFE}},
    .slow = {{0x00, 0x00}, {0x00, 0x00}, {0x00, 0x00}},
    .trail = {{0xA1, 0xFE}, {0xA1, 0xFE}},
    .lead_split = 0xA1,
    .trail_split = 0xA1,
    .lead_base = {0xA1, 0xA1},
    .trail_base = {0xA1, 0xA1},
    .trail_count = 94,
    .index = wenc_jis0208_index,
    .index_size = &wenc_jis0208_index_size,
    .pointer_of_lead = euc_jp_pointer_of_lead,
    .pointer_of_trail = euc_jp_pointer_of_trail,
};

/* §12.1.1 EUC-JP decoder */
WENC_INLINE codec_status euc_jp_decode(wenc_decoder *dec, const uint8_t *src,
                                       size_t len, size_t *consumed,
                                       void *dst, size_t cap, size_t *written,
                                       bool last, int utf16)
{
    uint8_t lead = dec->bytes_[0], jis0212 = dec->state_[0];
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    for (;;) {
        if (!lead) {
            lead_trail_fast(src, &pos, len, dst, &out, cap, utf16,
                            euc_jp_first, euc_jp_two_bytes, &euc_jp_vectors);
            if (!sink_ascii_run(src, &pos, len, dst, &out, cap, utf16)) {
                st = CODEC_OUTPUT_FULL;
                goto done;
            }
        }
        uint8_t held[2] = {0x8F, lead};
        const uint8_t *held_at = jis0212 ? held : held + 1;
        size_t held_len = jis0212 ? 2 : 1;
        if (pos == len) {
            if (last && lead) {
                st = sink_error(dec, held_at, held_len, NULL, 0, dst, cap, &out,
                                utf16);
                if (st != CODEC_OUTPUT_FULL)
                    lead = 0, jis0212 = 0;
            }
            goto done;
        }
        uint8_t b = src[pos];
        uint32_t cp = 0;
        if (lead == 0x8E && b >= 0xA1 && b <= 0xDF) {
            cp = 0xFF61u - 0xA1u + b;
        } else if (lead == 0x8F && b >= 0xA1 && b <= 0xFE) {
            jis0212 = 1;
            lead = b;
            pos++;
            continue;
        } else if (lead) {
            if (lead >= 0xA1 && lead <= 0xFE && b >= 0xA1 && b <= 0xFE) {
                uint32_t pointer = (uint32_t)(lead - 0xA1) * 94 + b - 0xA1u;
                if (jis0212)
                    cp = pointer < wenc_jis0212_index_size
                             ? wenc_jis0212_index[pointer] : 0;
                else
                    cp = pointer < wenc_jis0208_index_size
                             ? wenc_jis0208_index[pointer] : 0;
            }
            if (cp == 0) {
                size_t taken = b < 0x80 ? 0 : 1; /* ASCII is read again */
                st = sink_error(dec, held_at, held_len, &b, taken, dst, cap,
                                &out, utf16);
                if (st == CODEC_OUTPUT_FULL)
                    goto done;
                lead = 0, jis0212 = 0;
                pos += taken;
                if (st == CODEC_ERROR)
                    goto done;
                continue;
            }
        } else if (b == 0x8E || b == 0x8F || (b >= 0xA1 && b <= 0xFE)) {
            lead = b;
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
        lead = 0, jis0212 = 0;
        pos++;
    }
done:
    dec->bytes_[0] = lead;
    dec->state_[0] = jis0212;
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_DECODE_SINKS(euc_jp, euc_jp_decode)

static size_t euc_jp_held(const wenc_decoder *dec, uint8_t *bytes)
{
    const uint8_t held[2] = {0x8F, dec->bytes_[0]};
    size_t n = dec->bytes_[0] ? 1u + dec->state_[0] : 0u;
    if (bytes)
        memcpy(bytes, held + 2 - n, n);
    return n;
}

const decoder_codec wenc_euc_jp_decoder = {
    .to_utf8 = euc_jp_to_utf8,
    .to_utf16 = euc_jp_to_utf16,
    .held = euc_jp_held,
};

#ifdef WENC_NO_ENCODE_TABLES
/* §12.1.2 EUC-JP encoder's steps for cp (U+0080 on) without the map: the
 * bytes it would hold */
uint32_t wenc_euc_jp_bytes_of(uint32_t cp)
{
    if (cp == 0xA5)
        return 0x5C;
    if (cp == 0x203E)
        return 0x7E;
    if (cp >= 0xFF61 && cp <= 0xFF9F)
        return 0x8E00 | (cp - 0xFF61 + 0xA1);
    if (cp == 0x2212)
        cp = 0xFF0D;
    size_t pointer = index_find(wenc_jis0208_index, 0, wenc_jis0208_index_size, cp);
    if (pointer == wenc_jis0208_index_size)
        return 0;
    return (uint32_t)(pointer / 94 + 0xA1) << 8 | (uint32_t)(pointer % 94 + 0xA1);
}
#endif

/* §12.1.2 EUC-JP encoder, its steps built into the generated map (or
 * wenc_euc_jp_bytes_of() without it) */
static uint32_t euc_jp_bytes_of(const wenc_encoder *enc, uint32_t cp)
{
    (void)enc;
    return wenc_euc_jp_bytes_of(cp);
}

static size_t euc_jp_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
    return put_mapped(euc_jp_bytes_of(enc, cp), out);
}

#ifdef WENC_NO_ENCODE_TABLES
#define euc_jp_vector NULL
#else
static size_t euc_jp_vector(const wenc_encoder *enc, const void *src,
                            size_t n, uint8_t *dst, size_t room,
                            size_t *written, int utf16)
{
    (void)room;
    (void)enc;
    return wenc_byte_map_vectors(&wenc_euc_jp_bytes, src, n, dst, written, utf16);
}
#endif

WENC_INLINE codec_status euc_jp_encode(wenc_encoder *enc, const void *src,
                                       size_t len, size_t *consumed,
                                       uint8_t *dst, size_t cap,
                                       size_t *written, bool last, int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, euc_jp_step, euc_jp_bytes_of, euc_jp_vector);
}

DEFINE_ENCODE_READERS(euc_jp, euc_jp_encode)

const encoder_codec wenc_euc_jp_encoder = {
    .from_utf8 = euc_jp_from_utf8,
    .from_utf16 = euc_jp_from_utf16,
    .max_per_unit = 8,
    .max_closing = 0,
};

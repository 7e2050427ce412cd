/* ISO-2022-JP (§12.2). */
#include "loops.h"

/* Decoder states; state_[0] = decoder state, state_[1] = decoder output
 * state, state_[2] = ISO-2022-JP output, bytes_[0] = ISO-2022-JP lead. */
enum { D_ASCII, D_ROMAN, D_KATAKANA, D_LEAD_BYTE, D_TRAIL_BYTE,
       D_ESCAPE_START, D_ESCAPE };
enum { STATE, OUTPUT_STATE, OUTPUT };

#define ESC 0x1B

/* §12.2.1's trail byte state for a lead and a byte: the code point of
 * index jis0208, 0 when either byte is out of 0x21-0x7E or the pointer has
 * none (every pointer of those bytes, up to 8835, is in the index). */
WENC_INLINE uint32_t jis0208_pair(uint8_t lead, uint8_t byte)
{
    if ((uint8_t)(lead - 0x21) > 0x7E - 0x21 ||
        (uint8_t)(byte - 0x21) > 0x7E - 0x21)
        return 0;
    return wenc_jis0208_index[(lead - 0x21u) * 94 + byte - 0x21u];
}

/* §12.2.1 ISO-2022-JP decoder */
WENC_INLINE codec_status iso_2022_jp_decode(wenc_decoder *dec,
                                            const uint8_t *src, size_t len,
                                            size_t *consumed, void *dst,
                                            size_t cap, size_t *written,
                                            bool last, int utf16)
{
    uint8_t *s = dec->state_;
    uint8_t lead = dec->bytes_[0];
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    for (;;) {
        if (s[STATE] == D_LEAD_BYTE) {
            /* the lead and trail byte states' pairs, while they decode */
            size_t room = utf16 ? cap - out : (cap - out) / 3;
            size_t pairs_end = pos + (len - pos < room ? len - pos : room);
            size_t start = pos;
            while (pairs_end - pos >= 2) {
                uint32_t cp = jis0208_pair(src[pos], src[pos + 1]);
                if (cp == 0)
                    break;
                out = sink_put(dst, out, cp, utf16);
                pos += 2;
            }
            if (pos > start)
                s[OUTPUT] = 0;
        }
        if (s[STATE] == D_ASCII) {
            size_t start = pos;
            while (pos < len && out < cap && src[pos] < 0x80 &&
                   src[pos] != 0x0E && src[pos] != 0x0F && src[pos] != ESC) {
                out = sink_put(dst, out, src[pos], utf16);
                pos++;
            }
            if (pos > start)
                s[OUTPUT] = 0;
        }
        /* Each case sets cp to a code point to write, or `error` with the
         * malformed bytes, or continues. */
        uint32_t cp = 0;
        uint8_t bad[3];
        size_t bad_len = 0;
        int error = 0;
        if (pos == len) {
            if (!last)
                goto done;
            switch (s[STATE]) {
            case D_TRAIL_BYTE:
                bad[0] = lead, bad_len = 1;
                break;
            case D_ESCAPE_START:
            case D_ESCAPE:
                bad[0] = ESC, bad_len = 1;
                break;
            default:
                goto done;
            }
            st = sink_error(dec, bad, bad_len, NULL, 0, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                goto done;
            if (s[STATE] == D_TRAIL_BYTE) {
                s[STATE] = D_LEAD_BYTE;
            } else {
                uint8_t again = lead;
                int had_lead = s[STATE] == D_ESCAPE;
                s[OUTPUT] = 0;
                s[STATE] = s[OUTPUT_STATE];
                lead = 0;
                if (had_lead && unread(dec, &again, 1, &pos) == CODEC_REPLAY &&
                    st != CODEC_ERROR)
                    st = CODEC_REPLAY;
            }
            if (st == CODEC_ERROR || st == CODEC_REPLAY)
                goto done;
            continue;
        }
        uint8_t b = src[pos];
        size_t taken = 1; /* bytes of src the step consumes */
        switch (s[STATE]) {
        case D_ASCII:
        case D_ROMAN:
        case D_KATAKANA:
        case D_LEAD_BYTE:
            if (b == ESC) {
                s[STATE] = D_ESCAPE_START;
                pos++;
                continue;
            }
            if (s[STATE] == D_ASCII || s[STATE] == D_ROMAN) {
                if (b < 0x80 && b != 0x0E && b != 0x0F)
                    cp = s[STATE] == D_ROMAN && b == 0x5C   ? 0xA5
                         : s[STATE] == D_ROMAN && b == 0x7E ? 0x203E
                                                            : b;
            } else if (s[STATE] == D_KATAKANA) {
                if (b >= 0x21 && b <= 0x5F)
                    cp = 0xFF61u - 0x21u + b;
            } else if (b >= 0x21 && b <= 0x7E) {
                s[OUTPUT] = 0;
                lead = b;
                s[STATE] = D_TRAIL_BYTE;
                pos++;
                continue;
            }
            if (cp == 0 && !(b == 0 && s[STATE] <= D_ROMAN)) {
                bad[0] = b, bad_len = 1, error = 1;
            }
            break;
        case D_TRAIL_BYTE:
            if (b == ESC) {
                /* The lead byte is the error; ESC, read again in the lead
                 * byte state, starts an escape as the Standard's step does. */
                bad[0] = lead, bad_len = 1, error = 1;
                taken = 0;
                break;
            }
            bad[0] = lead, bad[1] = b, bad_len = 2;
            cp = jis0208_pair(lead, b);
            error = cp == 0;
            break;
        case D_ESCAPE_START:
            if (b == 0x24 || b == 0x28) {
                lead = b;
                s[STATE] = D_ESCAPE;
                pos++;
                continue;
            }
            bad[0] = ESC, bad_len = 1, error = 1;
            taken = 0; /* the byte is read again */
            break;
        default: { /* D_ESCAPE */
            int next = -1;
            if (lead == 0x28 && b == 0x42)
                next = D_ASCII;
            else if (lead == 0x28 && b == 0x4A)
                next = D_ROMAN;
            else if (lead == 0x28 && b == 0x49)
                next = D_KATAKANA;
            else if (lead == 0x24 && (b == 0x40 || b == 0x42))
                next = D_LEAD_BYTE;
            if (next >= 0) {
                if (!s[OUTPUT]) {
                    s[STATE] = s[OUTPUT_STATE] = (uint8_t)next;
                    s[OUTPUT] = 1;
                    lead = 0;
                    pos++;
                    continue;
                }
                /* Two escape sequences with nothing between them. */
                bad[0] = ESC, bad[1] = lead, bad[2] = b, bad_len = 3, error = 1;
                break;
            }
            bad[0] = ESC, bad_len = 1, error = 1;
            taken = 0;
            break;
        }
        }
        if (error) {
            st = sink_error(dec, bad, bad_len, NULL, 0, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                goto done;
            pos += taken;
            codec_status replay = CODEC_INPUT_EMPTY;
            switch (s[STATE]) {
            case D_TRAIL_BYTE:
                s[STATE] = D_LEAD_BYTE;
                break;
            case D_ESCAPE_START:
                s[OUTPUT] = 0;
                s[STATE] = s[OUTPUT_STATE];
                break;
            case D_ESCAPE:
                if (bad_len == 3) {
                    int next = lead == 0x24 ? D_LEAD_BYTE
                               : b == 0x42  ? D_ASCII
                               : b == 0x4A  ? D_ROMAN
                                            : D_KATAKANA;
                    s[STATE] = s[OUTPUT_STATE] = (uint8_t)next;
                    s[OUTPUT] = 1;
                } else {
                    uint8_t again = lead;
                    s[OUTPUT] = 0;
                    s[STATE] = s[OUTPUT_STATE];
                    replay = unread(dec, &again, 1, &pos);
                }
                lead = 0;
                break;
            default:
                s[OUTPUT] = 0;
                break;
            }
            if (st == CODEC_ERROR)
                goto done;
            if (replay == CODEC_REPLAY) {
                st = CODEC_REPLAY;
                goto done;
            }
            continue;
        }
        if (cap - out < sink_units(cp, utf16)) {
            st = CODEC_OUTPUT_FULL;
            goto done;
        }
        out = sink_put(dst, out, cp, utf16);
        s[OUTPUT] = 0;
        if (s[STATE] == D_TRAIL_BYTE)
            s[STATE] = D_LEAD_BYTE;
        pos++;
    }
done:
    dec->bytes_[0] = lead;
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_DECODE_SINKS(iso_2022_jp, iso_2022_jp_decode)

static size_t iso_2022_jp_held(const wenc_decoder *dec, uint8_t *bytes)
{
    const uint8_t escape[2] = {ESC, dec->bytes_[0]};
    const uint8_t *held = escape;
    size_t n;
    switch (dec->state_[STATE]) {
    case D_TRAIL_BYTE: held = escape + 1, n = 1; break;
    case D_ESCAPE_START: n = 1; break;
    case D_ESCAPE: n = 2; break;
    default: n = 0; break;
    }
    if (bytes)
        memcpy(bytes, held, n);
    return n;
}

/* Saved: the output state (bits 0-1) and the output flag (bit 2). Before a
 * lead byte, an ESC or an escape's second byte, the decoder state was the
 * output state: the two differ in no other state. Reading a lead byte
 * clears the output flag, so a lead byte's state saves it cleared. */
static uint32_t iso_2022_jp_save(const wenc_decoder *dec)
{
    _Static_assert(D_ASCII == 0 && D_LEAD_BYTE == 3,
                   "the output states are 0-3");
    return (uint32_t)dec->state_[OUTPUT_STATE] |
           (uint32_t)dec->state_[OUTPUT] << 2;
}

static bool iso_2022_jp_restore(wenc_decoder *dec, uint32_t flags)
{
    if (flags > 7)
        return false;
    dec->state_[STATE] = dec->state_[OUTPUT_STATE] = (uint8_t)(flags & 3);
    dec->state_[OUTPUT] = (uint8_t)(flags >> 2);
    return true;
}

/* What an escape sequence's error reads again (§12.2.1, escape state):
 * its second byte, after which the output flag is unset. */
static bool iso_2022_jp_rereads(const wenc_decoder *dec, const uint8_t *bytes,
                                size_t n)
{
    return n == 1 && (bytes[0] == 0x24 || bytes[0] == 0x28) &&
           dec->state_[STATE] <= D_KATAKANA && !dec->state_[OUTPUT];
}

const decoder_codec wenc_iso_2022_jp_decoder = {
    .to_utf8 = iso_2022_jp_to_utf8,
    .to_utf16 = iso_2022_jp_to_utf16,
    .held = iso_2022_jp_held,
    .save = iso_2022_jp_save,
    .restore = iso_2022_jp_restore,
    .rereads = iso_2022_jp_rereads,
};

/* Encoder state in enc->state_. */
enum { E_ASCII, E_ROMAN, E_JIS0208 };

static const uint8_t to_ascii[3] = {ESC, 0x28, 0x42};
static const uint8_t to_roman[3] = {ESC, 0x28, 0x4A};
static const uint8_t to_jis0208[3] = {ESC, 0x24, 0x42};

#ifndef WENC_NO_ENCODE_TABLES
/* Whether the ISO-2022-JP encoder cannot encode `c` (U+0080 on), given
 * its bytes in EUC-JP's map: jis0208 lacks it (the map gives U+2212 the
 * bytes of U+FF0D, as both encoders do), and it is none of those the
 * encoder maps another way (U+00A5, U+203E, half-width katakana) nor a
 * surrogate. */
WENC_INLINE bool iso_2022_jp_unmappable(uint32_t c, uint32_t euc)
{
    return euc < 0xA1A1 && c != 0xA5 && c != 0x203E &&
           !(c >= 0xFF61 && c <= 0xFF9F) && (c & 0xF800) != 0xD800;
}

/* §12.2.2 for UTF-16 text that turns between ASCII and jis0208, from the
 * state *jis0208 (in and out): runs of jis0208 code points by the vector
 * path, runs of ASCII here, and each turn's escape sequence; with html, a
 * code point the encoder cannot encode as its NCR (§4.3 encode), in ASCII
 * as the encoder writes it. Stops before anything else (0x0E, 0x0F, ESC;
 * U+00A5, U+203E, half-width katakana; a surrogate), which
 * iso_2022_jp_encode() takes, or where what it writes would leave less
 * than two bytes a unit left of the `room` bytes at dst (at least 2 * n).
 * Returns the units read; the bytes written go to *written. */
WENC_INLINE size_t iso_2022_jp_turns16(const uint16_t *units, size_t n,
                                       uint8_t *dst, size_t room, bool html,
                                       size_t *written, bool *jis0208)
{
    size_t pos = 0, out = 0;
    bool jis = *jis0208;
    while (pos < n) {
        uint32_t c = units[pos], euc = 0;
        const uint8_t *turn = NULL;
        if (jis) {
            size_t made = 0;
            pos += wenc_iso_2022_jp_jis0208_vectors(units + pos, n - pos,
                                                    dst + out, &made);
            out += made;
            /* what the vector path left of the run (all of it on a CPU
             * without one), a code point at a time */
            for (; pos < n && units[pos] >= 0x80; pos++) {
                euc = wenc_euc_jp_bytes_of(units[pos]);
                if (euc < 0xA1A1)
                    break;
                dst[out] = (uint8_t)((euc >> 8) - 0x80);
                dst[out + 1] = (uint8_t)((euc & 0xFF) - 0x80);
                out += 2;
            }
            if (pos == n)
                break;
            /* the run takes every code point of jis0208: ASCII turns to
             * ASCII (where 0x0E, 0x0F and ESC are errors, which the ASCII
             * loop stops at) */
            c = units[pos];
            if (c < 0x80)
                turn = to_ascii;
            else
                euc = wenc_euc_jp_bytes_of(c);
        } else {
            size_t start = pos;
            for (; pos < n; pos++) {
                c = units[pos];
                if (c >= 0x80 || c == 0x0E || c == 0x0F || c == ESC)
                    break;
                dst[out + pos - start] = (uint8_t)c;
            }
            out += pos - start;
            if (pos == n || c < 0x80)
                break;
            euc = wenc_euc_jp_bytes_of(c);
            if (euc >= 0xA1A1)
                turn = to_jis0208;
        }
        if (turn) {
            if (room - out < 3 + 2 * (n - pos))
                break;
            memcpy(dst + out, turn, 3);
            out += 3;
            jis = !jis;
            continue;
        }
        /* in html mode an unmappable code point's NCR, in ASCII */
        if (!html || !iso_2022_jp_unmappable(c, euc) ||
            room - out < 3 + NCR_MAX_LEN + 2 * (n - pos - 1))
            break;
        if (jis) {
            memcpy(dst + out, to_ascii, 3);
            out += 3;
            jis = false;
        }
        out += ncr_put(c, dst + out);
        pos++;
    }
    *jis0208 = jis;
    *written = out;
    return pos;
}

/* The same over UTF-8, transcoded to UTF-16 by wenc_utf8_valid_to_utf16()
 * (as far as it is whole, valid sequences: the vector kernels where they
 * run, then a sequence at a time) into room for 128 units (less, and the
 * kernel measured to take much less than it is given), twice as many after
 * each chunk taken whole, up to 1024 (where it stops, what is past the
 * stop was transcoded for nothing), as wenc_utf8_encode_via_utf16() does,
 * with `room` bytes at dst (at least n). Returns the bytes read. */
static size_t iso_2022_jp_turns8(const uint8_t *bytes, size_t n,
                                 uint8_t *dst, size_t room, bool html,
                                 size_t *written, bool *jis0208)
{
    uint16_t units[1024];
    size_t pos = 0, out = 0, size = 128;
    while (pos < n) {
        size_t count = 0, made = 0;
        size_t fit = (room - out) / 2; /* two bytes a unit at most */
        size_t read = wenc_utf8_valid_to_utf16(
            bytes + pos, n - pos, units, fit < size ? fit : size, &count);
        if (count == 0)
            break;
        size_t used = iso_2022_jp_turns16(units, count, dst + out, room - out,
                                          html, &made, jis0208);
        out += made;
        if (used < count) {
            /* it never takes a surrogate: the units read are the BMP's */
            pos += utf8_bmp_bytes_of(bytes + pos, used);
            break;
        }
        pos += read;
        if (size < 1024)
            size *= 2;
    }
    *written = out;
    return pos;
}
#endif

/* §12.2.2 ISO-2022-JP encoder */
WENC_INLINE codec_status iso_2022_jp_encode(wenc_encoder *enc, const void *src,
                                            size_t len, size_t *consumed,
                                            uint8_t *dst, size_t cap,
                                            size_t *written, bool last,
                                            int utf16)
{
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
#ifndef WENC_NO_ENCODE_TABLES
    /* where the vector path may run next: after it took nothing, `skip`
     * units on, twice as far each time (a run of half-width katakana, say) */
    size_t vectors_from =
        len >= 64 ? 0 : SIZE_MAX;
    size_t skip = 16;
#endif
    for (;;) {
#ifndef WENC_NO_ENCODE_TABLES
        if ((enc->state_ == E_ASCII || enc->state_ == E_JIS0208) &&
            pos >= vectors_from && len - pos >= 64) {
            size_t room = cap - out, limit = utf16 ? room / 2 : room;
            size_t made = 0;
            bool jis0208 = enc->state_ == E_JIS0208;
            size_t n = len - pos < limit ? len - pos : limit;
            bool html = enc->error_mode_ == WENC_ERRORS_HTML;
            size_t read =
                utf16 ? iso_2022_jp_turns16((const uint16_t *)src + pos, n,
                                            dst + out, room, html, &made,
                                            &jis0208)
                      : iso_2022_jp_turns8((const uint8_t *)src + pos, n,
                                           dst + out, room, html, &made,
                                           &jis0208);
            enc->state_ = jis0208 ? E_JIS0208 : E_ASCII;
            if (read == 0) {
                vectors_from = pos + skip;
                skip = skip < 4096 ? 2 * skip : skip;
            } else {
                skip = 16;
            }
            pos += read;
            out += made;
        }
#endif
        if (enc->state_ == E_ASCII) {
            /* a run of ASCII but the three bytes that are errors here */
            size_t i = 0, end = len - pos < cap - out ? len - pos : cap - out;
            for (; i < end; i++) {
                uint32_t c = utf16 ? ((const uint16_t *)src)[pos + i]
                                   : ((const uint8_t *)src)[pos + i];
                if (c >= 0x80 || c == 0x0E || c == 0x0F || c == ESC)
                    break;
                dst[out + i] = (uint8_t)c;
            }
            pos += i;
            out += i;
        }
        if (pos == len) {
            if (last && enc->state_ != E_ASCII) {
                if (cap - out < 3) {
                    st = CODEC_OUTPUT_FULL;
                    break;
                }
                memcpy(dst + out, to_ascii, 3);
                out += 3;
                enc->state_ = E_ASCII;
            }
            break;
        }
        uint32_t cp;
        size_t k = reader_next(src, pos, len, last, &cp, utf16);
        if (k == 0)
            break;
        uint8_t state = enc->state_, next = state, bytes[3];
        const uint8_t *write = bytes;
        size_t size = 0;
        int take = 1; /* 0: the code point is read again after a switch */
        if (state != E_JIS0208 && (cp == 0x0E || cp == 0x0F || cp == ESC)) {
            enc->error_code_point_ = 0xFFFD; /* not the code point: attacks */
            enc->error_len_ = (uint8_t)k;
            pos += k;
            st = CODEC_UNMAPPABLE;
            break;
        }
        if (state == E_ASCII && cp < 0x80) {
            bytes[0] = (uint8_t)cp, size = 1;
        } else if (state == E_ROMAN &&
                   ((cp < 0x80 && cp != 0x5C && cp != 0x7E) || cp == 0xA5 ||
                    cp == 0x203E)) {
            bytes[0] = cp == 0xA5 ? 0x5C : cp == 0x203E ? 0x7E : (uint8_t)cp;
            size = 1;
        } else if (cp < 0x80) {
            write = to_ascii, size = 3, next = E_ASCII, take = 0;
        } else if (cp == 0xA5 || cp == 0x203E) {
            write = to_roman, size = 3, next = E_ROMAN, take = 0;
        } else {
            uint32_t c = cp == 0x2212 ? 0xFF0D : cp;
            if (c >= 0xFF61 && c <= 0xFF9F)
                c = wenc_iso_2022_jp_katakana_index[c - 0xFF61];
            /* EUC-JP's two bytes from 0xA1A1 on are an index jis0208
             * pointer's; the katakana were made jis0208 code points */
            uint32_t euc = wenc_euc_jp_bytes_of(c);
            bool in_jis0208 = euc >= 0xA1A1;
            if (!in_jis0208 && state == E_JIS0208) {
                write = to_ascii, size = 3, next = E_ASCII, take = 0;
            } else if (!in_jis0208) {
                enc->error_code_point_ = cp;
                enc->error_len_ = (uint8_t)k;
                pos += k;
                st = CODEC_UNMAPPABLE;
                break;
            } else if (state != E_JIS0208) {
                write = to_jis0208, size = 3, next = E_JIS0208, take = 0;
            } else {
                bytes[0] = (uint8_t)((euc >> 8) - 0x80);
                bytes[1] = (uint8_t)((euc & 0xFF) - 0x80);
                size = 2;
            }
        }
        if (cap - out < size) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        memcpy(dst + out, write, size);
        out += size;
        enc->state_ = next;
        if (take)
            pos += k;
    }
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_ENCODE_READERS(iso_2022_jp, iso_2022_jp_encode)

/* Per input unit at most an escape and an NCR ("&#65533;"): 11 bytes; the
 * closing ESC ( B at the end. */
const encoder_codec wenc_iso_2022_jp_encoder = {
    .from_utf8 = iso_2022_jp_from_utf8,
    .from_utf16 = iso_2022_jp_from_utf16,
    .max_per_unit = 11,
    .max_closing = 3,
};

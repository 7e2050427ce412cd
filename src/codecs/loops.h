/* Loops shared by several codecs. Each codec passes its per-byte or
 * per-code-point step as a function that the compiler inlines, and
 * instantiates the loop once per sink or reader. */
#ifndef WENC_CODEC_LOOPS_H
#define WENC_CODEC_LOOPS_H

#include "../internal.h"

/* What a lead-byte decoder makes of a byte read with no lead byte held. */
typedef enum first_byte {
    FIRST_CODE_POINT, /* *cp is the code point */
    FIRST_LEAD,       /* the byte becomes the lead byte */
    FIRST_ERROR       /* the byte is an error on its own */
} first_byte;

typedef first_byte (*first_fn)(uint8_t byte, uint32_t *cp);
/* Decodes lead + byte into one or two code points; returns how many, or 0
 * for an error (the byte is then restored when it is ASCII). */
typedef size_t (*pair_fn)(uint8_t lead, uint8_t byte, uint32_t cps[2]);

/* A byte table of 256 entries, F(0) to F(255): F is a macro of one byte
 * that gives a constant expression. */
#define BYTE_TABLE_4(F, b) F(b), F((b) + 1), F((b) + 2), F((b) + 3)
#define BYTE_TABLE_16(F, b)                                                   \
    BYTE_TABLE_4(F, b), BYTE_TABLE_4(F, (b) + 4), BYTE_TABLE_4(F, (b) + 8),   \
        BYTE_TABLE_4(F, (b) + 12)
#define BYTE_TABLE_64(F, b)                                                   \
    BYTE_TABLE_16(F, b), BYTE_TABLE_16(F, (b) + 16),                          \
        BYTE_TABLE_16(F, (b) + 32), BYTE_TABLE_16(F, (b) + 48)
#define BYTE_TABLE(F)                                                         \
    BYTE_TABLE_64(F, 0), BYTE_TABLE_64(F, 64), BYTE_TABLE_64(F, 128),         \
        BYTE_TABLE_64(F, 192)

/* A double_byte_spec's pointer_of_lead or pointer_of_trail entry for a byte
 * that is no lead (or a `slow` one) or no trail: the sum of two entries is
 * DOUBLE_BYTE_NOT_A_POINTER or more exactly when either is. Every pointer
 * of the five encodings is below it (EUC-KR's and gb18030's, up to
 * 125 * 190 + 189, are the largest), and a codec's tables give only
 * pointers inside its index (test_mb_index decodes every pair, under the
 * sanitizers too). */
#define DOUBLE_BYTE_NOT_A_POINTER 0x8000

/* The entry of byte b in a pointer_of_lead (count: the trail count) or
 * pointer_of_trail (count 1) table, for BYTE_TABLE(): (b - base0) * count
 * for b in first0..last0, (b - base1) * count in first1..last1 (a range may
 * repeat the other), else DOUBLE_BYTE_NOT_A_POINTER. The distance is taken
 * modulo 256 so that the arm a byte does not take stays in range of a
 * uint16_t too (clang checks each arm). */
#define DOUBLE_BYTE_OFFSET(b, first0, last0, base0, first1, last1, base1,    \
                           count)                                            \
    ((b) >= (first0) && (b) <= (last0)                                       \
         ? (((b) - (base0)) & 0xFF) * (count)                                \
     : (b) >= (first1) && (b) <= (last1)                                     \
         ? (((b) - (base1)) & 0xFF) * (count)                                \
         : DOUBLE_BYTE_NOT_A_POINTER)

/* Copies the ASCII bytes that start src (8 readable bytes, the first one
 * ASCII) to the sink at dst[out], as many as the sink and `limit` input bytes
 * allow; returns how many. Writes up to 8 units past the ASCII bytes it
 * counts, so the caller must have room for max(8, limit) units at out. */
WENC_INLINE size_t fast_ascii(const uint8_t *src, size_t limit, void *dst,
                              size_t out, int utf16)
{
    uint64_t word;
    size_t k = 0;
    memcpy(&word, src, sizeof word);
    if (utf16) {
        uint16_t *d = (uint16_t *)dst + out;
        for (size_t i = 0; i < 8; i++)
            d[i] = src[i];
    } else {
        memcpy((uint8_t *)dst + out, &word, sizeof word);
    }
    if ((word & UINT64_C(0x8080808080808080)) == 0) {
        if (limit == 8)
            return 8;
        return 8 + (utf16 ? wenc_ascii_to_utf16(src + 8,
                                                (uint16_t *)dst + out + 8,
                                                limit - 8)
                          : wenc_ascii_to_utf8(src + 8,
                                               (uint8_t *)dst + out + 8,
                                               limit - 8));
    }
    while (src[k] < 0x80)
        k++;
    return k;
}

/* Copies the ASCII byte at src[*pos] and the ASCII bytes after it, up to
 * end, in a block sized as lead_trail_fast() sizes it. */
WENC_INLINE void fast_ascii_step(const uint8_t *src, size_t *pos, size_t end,
                                 void *dst, size_t *out, int utf16)
{
    size_t k = 1;
    if (end - *pos >= 8)
        k = fast_ascii(src + *pos, end - *pos, dst, *out, utf16);
    else
        sink_put(dst, *out, src[*pos], utf16);
    *pos += k;
    *out += k;
}

/*
 * The common case of a lead-byte decoder with no byte held: ASCII, code
 * points of one byte and complete pairs, over the input that fits the worst
 * case in the room left (3 UTF-8 bytes or 1 UTF-16 unit per input byte), so
 * that nothing is checked per code point. A pair's pointer comes from the
 * spec's two byte tables, one sum and one bound for the ranges of both
 * bytes; the slow leads, single bytes and errors go through `first` and
 * `pair`. `first` answering FIRST_ERROR, or `pair` answering 0, stops it
 * before that byte: the codec's general loop then takes over, errors and
 * longer sequences included. The vector path takes what it can
 * (wenc_double_byte_vectors()); after it stops this loop decodes one
 * character, or 64 bytes when the vector path took less than that, before
 * handing back.
 */
WENC_INLINE void lead_trail_fast(const uint8_t *src, size_t *pos_io,
                                 size_t len, void *dst, size_t *out_io,
                                 size_t cap, int utf16, first_fn first,
                                 pair_fn pair, const double_byte_spec *spec)
{
    size_t pos = *pos_io, out = *out_io;
    size_t room = utf16 ? cap - out : (cap - out) / 3;
    size_t end = pos + (len - pos < room ? len - pos : room);
    size_t vectors_from =
        !utf16 && end - pos >= 64 && wenc_cpu_has_avx2() ? pos : SIZE_MAX;
    /* in locals: a byte written to dst could alias the spec */
    const uint16_t *pointer_of_lead = spec->pointer_of_lead;
    const uint16_t *pointer_of_trail = spec->pointer_of_trail;
    const uint16_t *index = spec->index;
    while (pos < end) {
        if (pos >= vectors_from && end - pos >= 64) {
            size_t made = 0;
            size_t read = wenc_double_byte_vectors(spec, src + pos, end - pos,
                                                   (uint8_t *)dst + out, &made);
            pos += read;
            out += made;
            vectors_from = pos + (read < 64 ? 64 : 1);
            if (pos == end)
                break;
        }
        uint8_t b = src[pos];
        uint32_t cps[2];
        if (b < 0x80) {
            /* a lone ASCII byte among pairs without the cost of looking for
             * a run */
            if (end - pos < 2 || src[pos + 1] >= 0x80) {
                out = sink_put(dst, out, b, utf16);
                pos++;
            } else {
                fast_ascii_step(src, &pos, end, dst, &out, utf16);
            }
            continue;
        }
        /* pairs, up to where the vector path goes on */
        size_t pairs_end =
            vectors_from > pos && vectors_from < end ? vectors_from : end;
        size_t pairs_from = pos;
        while (pairs_end - pos >= 2) {
            uint32_t pointer = (uint32_t)pointer_of_lead[src[pos]] +
                               pointer_of_trail[src[pos + 1]];
            if (pointer >= DOUBLE_BYTE_NOT_A_POINTER ||
                (cps[0] = index[pointer]) == 0)
                break;
            out = sink_put(dst, out, cps[0], utf16);
            pos += 2;
        }
        if (pos != pairs_from)
            continue;
        /* single bytes, the slow leads, and errors */
        first_byte r = first(b, &cps[0]);
        if (r == FIRST_CODE_POINT) {
            out = sink_put(dst, out, cps[0], utf16);
            pos++;
            continue;
        }
        if (r == FIRST_ERROR || end - pos < 2)
            break;
        size_t n = pair(b, src[pos + 1], cps);
        if (n == 0)
            break;
        out = sink_put(dst, out, cps[0], utf16);
        if (n == 2)
            out = sink_put(dst, out, cps[1], utf16);
        pos += 2;
    }
    *pos_io = pos;
    *out_io = out;
}

/*
 * The decoder loop of Big5 (§11.1.1), Shift_JIS (§12.3.1) and EUC-KR
 * (§13.1.1): a lead byte (dec->bytes_[0], 0 = none), then a trail byte;
 * end of queue with a lead byte is an error.
 */
WENC_INLINE codec_status lead_trail_decode(wenc_decoder *dec,
                                           const uint8_t *src, size_t len,
                                           size_t *consumed, void *dst,
                                           size_t cap, size_t *written,
                                           bool last, int utf16,
                                           first_fn first, pair_fn pair,
                                           const double_byte_spec *spec)
{
    uint8_t lead = dec->bytes_[0];
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    for (;;) {
        if (!lead) {
            lead_trail_fast(src, &pos, len, dst, &out, cap, utf16, first, pair,
                            spec);
            if (!sink_ascii_run(src, &pos, len, dst, &out, cap, utf16)) {
                st = CODEC_OUTPUT_FULL;
                goto done;
            }
        }
        if (pos == len) {
            if (last && lead) {
                st = sink_error(dec, &lead, 1, NULL, 0, dst, cap, &out, utf16);
                if (st != CODEC_OUTPUT_FULL)
                    lead = 0;
            }
            goto done;
        }
        uint8_t b = src[pos];
        uint32_t cps[2];
        size_t n = 1;
        if (lead) {
            n = pair(lead, b, cps);
            if (n == 0) {
                size_t taken = b < 0x80 ? 0 : 1; /* ASCII is read again */
                st = sink_error(dec, &lead, 1, &b, taken, dst, cap, &out, utf16);
                if (st == CODEC_OUTPUT_FULL)
                    goto done;
                lead = 0;
                pos += taken;
                if (st == CODEC_ERROR)
                    goto done;
                continue;
            }
        } else {
            first_byte r = first(b, &cps[0]);
            if (r == FIRST_LEAD) {
                lead = b;
                pos++;
                continue;
            }
            if (r == FIRST_ERROR) {
                st = sink_error(dec, NULL, 0, &b, 1, dst, cap, &out, utf16);
                if (st == CODEC_OUTPUT_FULL)
                    goto done;
                pos++;
                if (st == CODEC_ERROR)
                    goto done;
                continue;
            }
        }
        size_t need = sink_units(cps[0], utf16);
        if (n == 2)
            need += sink_units(cps[1], utf16);
        if (cap - out < need) {
            st = CODEC_OUTPUT_FULL;
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            out = sink_put(dst, out, cps[i], utf16);
        lead = 0;
        pos++;
    }
done:
    dec->bytes_[0] = lead;
    *consumed = pos;
    *written = out;
    return st;
}

WENC_INLINE size_t lead_byte_held(const wenc_decoder *dec, uint8_t *bytes)
{
    if (!dec->bytes_[0])
        return 0;
    if (bytes)
        bytes[0] = dec->bytes_[0];
    return 1;
}

/* Encodes one non-ASCII code point into out[0..4); returns the byte count,
 * or 0 when the encoding cannot represent it. */
typedef size_t (*encode_fn)(const wenc_encoder *enc, uint32_t cp,
                            uint8_t out[4]);

#ifdef WENC_NO_ENCODE_TABLES
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The first of the 32 entries at p that is `value` (0-31), or 32: with
 * SSE2 8 a compare, else 4 a 64-bit word (a lane of word ^ key is zero),
 * then that word's entries. */
WENC_INLINE size_t block_find(const uint16_t *p, uint16_t value)
{
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    __m128i key = _mm_set1_epi16((short)value);
    uint64_t lanes = 0; /* two bits an entry */
    for (size_t i = 0; i < 32; i += 8) {
        __m128i same = _mm_cmpeq_epi16(
            _mm_loadu_si128((const __m128i *)(const void *)(p + i)), key);
        lanes |= (uint64_t)(unsigned)_mm_movemask_epi8(same) << (2 * i);
    }
    return lanes ? (size_t)__builtin_ctzll(lanes) / 2 : 32;
#else
    const uint64_t ones = UINT64_C(0x0001000100010001);
    uint64_t key = value * ones;
    for (size_t i = 0; i < 32; i += 4) {
        uint64_t word;
        memcpy(&word, p + i, sizeof word);
        word ^= key;
        if ((word - ones) & ~word & (ones << 15))
            for (size_t k = i;; k++)
                if (p[k] == value)
                    return k;
    }
    return 32;
#endif
}

/* §5 index pointer, for the encoders of a build without their tables: the
 * first pointer from `from` on whose entry of index[0..size) is `value`, or
 * `size` for none; 32 entries a step, the rest one by one. */
WENC_INLINE size_t index_find(const uint16_t *index, size_t from, size_t size,
                              uint32_t value)
{
    size_t p = from;
    if (value > 0xFFFF)
        return size;
    for (; size - p >= 32; p += 32) {
        size_t k = block_find(index + p, (uint16_t)value);
        if (k < 32)
            return p + k;
    }
    for (; p < size; p++)
        if (index[p] == value)
            return p;
    return size;
}
#endif

/* The bytes an encoder writes for a BMP code point from U+0080 on, none a
 * surrogate: one byte (below 0x100), lead << 8 | trail, or 0 when `step`
 * decides (unmappable, or a rule the table leaves to it). */
typedef uint32_t (*bmp_bytes_fn)(const wenc_encoder *enc, uint32_t cp);

/* An encoder's vector kernel: encodes what it can of src[0..n) (units or
 * bytes), whose worst case fits at dst as mapped_fast() sizes it (room, the
 * bytes there, may be more: a kernel that writes more for some input than
 * that worst case, as an NCR, keeps to room), and stops before what it
 * cannot take; returns the input read, the bytes written go to *written. */
typedef size_t (*vector_fn)(const wenc_encoder *enc, const void *src,
                            size_t n, uint8_t *dst, size_t room,
                            size_t *written, int utf16);

/* The two- or three-byte UTF-8 sequence at p (avail bytes there), within
 * §8.1.1's bounds: returns its length and sets *cp; 0 for anything else
 * (ASCII, a four-byte, ill-formed or cut-off sequence). */
WENC_INLINE size_t utf8_two_or_three(const uint8_t *p, size_t avail,
                                     uint32_t *cp)
{
    uint32_t first = p[0];
    if (first >= 0xC2 && first <= 0xDF && avail >= 2 &&
        (p[1] & 0xC0) == 0x80) {
        *cp = (first & 0x1F) << 6 | (p[1] & 0x3Fu);
        return 2;
    }
    if (first >= 0xE0 && first <= 0xEF && avail >= 3 &&
        (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80) {
        uint32_t v = (first & 0x0F) << 12 | (p[1] & 0x3Fu) << 6 |
                     (p[2] & 0x3Fu);
        if (v < 0x800 || (v & 0xF800) == 0xD800)
            return 0; /* overlong, or a surrogate: ill-formed */
        *cp = v;
        return 3;
    }
    return 0;
}

/*
 * The common case of a stateless encoder: ASCII, and BMP code points that
 * `bytes_of` maps, over the input whose worst case (two bytes per UTF-16
 * unit, one per UTF-8 byte) fits in the room left, so that nothing is
 * checked per code point but the table's answer. It stops before anything
 * else (a surrogate, a four-byte or ill-formed UTF-8 sequence, one cut at
 * the end, a code point `bytes_of` leaves to `step`), which the general
 * loop of stateless_encode() then takes. A `vector` kernel (or NULL) is
 * tried on every 64 units or more from *vector_from_io on, again one code
 * point after it stops having read 64, or 16 after it stopped sooner (also
 * when this loop stops before: a run of code points the kernel leaves
 * is not handed to it again one at a time).
 */
WENC_INLINE void mapped_fast(const wenc_encoder *enc, const void *src,
                             size_t *pos_io, size_t len, uint8_t *dst,
                             size_t *out_io, size_t cap, int utf16,
                             bmp_bytes_fn bytes_of, vector_fn vector,
                             size_t *vector_from_io)
{
    size_t pos = *pos_io, out = *out_io;
    size_t room = utf16 ? (cap - out) / 2 : cap - out;
    size_t end = pos + (len - pos < room ? len - pos : room);
    const uint16_t *units = (const uint16_t *)src;
    const uint8_t *bytes = (const uint8_t *)src;
    size_t vector_from = *vector_from_io;
    while (pos < end) {
        uint32_t cp;
        size_t k = 1;
        if (vector && end - pos >= 64 && pos >= vector_from) {
            size_t made = 0;
            size_t taken = vector(enc,
                                  utf16 ? (const void *)(units + pos)
                                        : (const void *)(bytes + pos),
                                  end - pos, dst + out, cap - out, &made,
                                  utf16);
            pos += taken;
            out += made;
            vector_from = pos + (taken >= 64 ? 1 : 16);
            /* the kernel may have written more than the worst case of
             * what it read (NCRs): the rest's worst case must fit again */
            room = utf16 ? (cap - out) / 2 : cap - out;
            end = pos + (len - pos < room ? len - pos : room);
            if (pos == end)
                break;
        }
        /* ASCII: one unit here, a run of eight or more by the kernels */
        if (utf16) {
            cp = units[pos];
            if (cp < 0x80) {
                dst[out++] = (uint8_t)cp;
                pos++;
                if (end - pos >= 8 && units[pos + 7] < 0x80) {
                    size_t n = wenc_utf16_ascii_to_bytes(
                        units + pos, dst + out, end - pos);
                    pos += n;
                    out += n;
                }
                continue;
            }
            if ((cp & 0xF800) == 0xD800)
                break;
        } else {
            cp = bytes[pos];
            if (cp < 0x80) {
                ascii_byte_then_run(bytes, end, dst, &pos, &out);
                continue;
            }
            k = utf8_two_or_three(bytes + pos, end - pos, &cp);
            if (k == 0)
                break;
        }
        uint32_t v = bytes_of(enc, cp);
        if (v == 0)
            break;
        out += put_mapped(v, dst + out);
        pos += k;
    }
    *pos_io = pos;
    *out_io = out;
    *vector_from_io = vector_from;
}

/*
 * The encoder loop of every stateless encoder (all but ISO-2022-JP, and
 * the UTF-16 encoders of the extension, which have their own): ASCII is copied, other code points go through `step`;
 * with `bytes_of` (not NULL), mapped_fast() takes what it can first, with
 * `vector` (or NULL).
 */
WENC_INLINE codec_status stateless_encode(wenc_encoder *enc, const void *src,
                                          size_t len, size_t *consumed,
                                          uint8_t *dst, size_t cap,
                                          size_t *written, bool last,
                                          int utf16, encode_fn step,
                                          bmp_bytes_fn bytes_of,
                                          vector_fn vector)
{
    size_t pos = 0, out = 0, vector_from = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    while (pos < len) {
        if (bytes_of) {
            mapped_fast(enc, src, &pos, len, dst, &out, cap, utf16, bytes_of,
                        vector, &vector_from);
            if (pos == len)
                break;
        }
        size_t n = len - pos < cap - out ? len - pos : cap - out;
        size_t a = reader_ascii(src, pos, dst + out, n, utf16);
        pos += a;
        out += a;
        if (pos == len)
            break;
        uint32_t cp;
        size_t k = reader_next(src, pos, len, last, &cp, utf16);
        if (k == 0)
            break;
        uint8_t bytes[4];
        size_t size;
        if (cp < 0x80) {
            bytes[0] = (uint8_t)cp;
            size = 1;
        } else {
            size = step(enc, cp, bytes);
        }
        if (size == 0 && enc->error_mode_ == WENC_ERRORS_HTML &&
            cap - out >= NCR_MAX_LEN) {
            /* the NCR the driver would write, written here (these
             * encoders write ASCII as it is) */
            out += ncr_put(cp, dst + out);
            pos += k;
            continue;
        }
        if (size == 0) {
            enc->error_code_point_ = cp;
            enc->error_len_ = (uint8_t)k;
            pos += k;
            st = CODEC_UNMAPPABLE;
            break;
        }
        if (cap - out < size) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        memcpy(dst + out, bytes, size);
        out += size;
        pos += k;
    }
    *consumed = pos;
    *written = out;
    return st;
}

/* Defines NAME_to_utf8 / NAME_to_utf16 over an inline decode loop taking
 * (dec, src, len, consumed, dst, cap, written, last, utf16). */
#define DEFINE_DECODE_SINKS(name, loop)                                       \
    static codec_status name##_to_utf8(wenc_decoder *dec, const uint8_t *src, \
                                       size_t len, size_t *consumed,          \
                                       void *dst, size_t cap,                 \
                                       size_t *written, bool last)            \
    {                                                                         \
        return loop(dec, src, len, consumed, dst, cap, written, last, 0);     \
    }                                                                         \
    static codec_status name##_to_utf16(wenc_decoder *dec,                    \
                                        const uint8_t *src, size_t len,       \
                                        size_t *consumed, void *dst,          \
                                        size_t cap, size_t *written,          \
                                        bool last)                            \
    {                                                                         \
        return loop(dec, src, len, consumed, dst, cap, written, last, 1);     \
    }

/* Defines NAME_from_utf8 / NAME_from_utf16 over an inline encode loop taking
 * (enc, src, len, consumed, dst, cap, written, last, utf16). */
#define DEFINE_ENCODE_READERS(name, loop)                                     \
    static codec_status name##_from_utf8(wenc_encoder *enc,                   \
                                         const uint8_t *src, size_t len,      \
                                         size_t *consumed, uint8_t *dst,      \
                                         size_t cap, size_t *written,         \
                                         bool last)                           \
    {                                                                         \
        return loop(enc, src, len, consumed, dst, cap, written, last, 0);     \
    }                                                                         \
    static codec_status name##_from_utf16(wenc_encoder *enc,                  \
                                          const uint16_t *src, size_t len,    \
                                          size_t *consumed, uint8_t *dst,     \
                                          size_t cap, size_t *written,        \
                                          bool last)                          \
    {                                                                         \
        return loop(enc, src, len, consumed, dst, cap, written, last, 1);     \
    }

#endif /* WENC_CODEC_LOOPS_H */

/*
 * UTF-8 validation a vector at a time, by the lookup method of Keiser and
 * Lemire ("Validating UTF-8 in less than one instruction per byte", 2021):
 * each byte is checked against the byte before it with three 16-entry tables
 * indexed by nibbles, whose entries are bit sets of error classes; a byte is
 * in error when the three sets it draws share a bit. Continuation bytes that
 * must be the second or third after a lead (two or three bytes back stands a
 * lead of three or four bytes) are checked with the class of two
 * continuations in a row.
 *
 * The classes below are derived from §8.1.1 (the bytes each lead accepts);
 * each is a product of a set of high nibbles of the previous byte, a set of
 * its low nibbles and a set of high nibbles of this byte, so that it holds a
 * bit of its own in each table:
 *
 *   SHORT      lead C0-FF, then a byte that is not a continuation 80-BF
 *   LONG       ASCII 00-7F, then a continuation
 *   OVERLONG_2 C0-C1, then a continuation
 *   OVERLONG_3 E0, then 80-9F
 *   SURROGATE  ED, then A0-BF
 *   OVERLONG_4 F0, then 80-8F; or F5-FF, then 80-8F (sharing a bit is sound:
 *              the product F x {0,5-F} x 8 holds no valid pair)
 *   TOO_LARGE  F4-FF, then 90-BF
 *   TWO_CONTS  a continuation after a continuation: an error exactly where
 *              the byte is not required to be a second or third one
 *
 * The bytes after the last vector checked may complete its last sequence;
 * utf8_incomplete_tail() says how many of its bytes begin one.
 *
 * Used by the kernels of utf8_validate.c (UTF-8 -> UTF-8) and those that
 * transcode UTF-8 to UTF-16. At the end: packing UTF-16 units (from UTF-16
 * input, or from a decoder's table) into UTF-8, for the encoder and the
 * decoders' UTF-8 sinks. Every function here is static and compiled only
 * where its target attribute is available (WENC_HAVE_RUNTIME_AVX2 / _AVX512).
 */
#ifndef WENC_UTF8_SIMD_H
#define WENC_UTF8_SIMD_H

#include "../internal.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#ifdef WENC_HAVE_NEON
#include <arm_neon.h>
#endif

enum {
    UTF8_CLASS_SHORT = 0x01,
    UTF8_CLASS_LONG = 0x02,
    UTF8_CLASS_OVERLONG_3 = 0x04,
    UTF8_CLASS_TOO_LARGE = 0x08,
    UTF8_CLASS_SURROGATE = 0x10,
    UTF8_CLASS_OVERLONG_2 = 0x20,
    UTF8_CLASS_OVERLONG_4 = 0x40,
    UTF8_CLASS_TWO_CONTS = 0x80
};

#define UTF8_ANY_LOW (UTF8_CLASS_SHORT | UTF8_CLASS_LONG | UTF8_CLASS_TWO_CONTS)
#define UTF8_F_LOW (UTF8_ANY_LOW | UTF8_CLASS_TOO_LARGE | UTF8_CLASS_OVERLONG_4)
#define UTF8_CONT_80_8F                                                      \
    (UTF8_CLASS_LONG | UTF8_CLASS_OVERLONG_3 | UTF8_CLASS_OVERLONG_2 |       \
     UTF8_CLASS_OVERLONG_4 | UTF8_CLASS_TWO_CONTS)
#define UTF8_CONT_90_9F                                                      \
    (UTF8_CLASS_LONG | UTF8_CLASS_OVERLONG_3 | UTF8_CLASS_TOO_LARGE |        \
     UTF8_CLASS_OVERLONG_2 | UTF8_CLASS_TWO_CONTS)
#define UTF8_CONT_A0_BF                                                      \
    (UTF8_CLASS_LONG | UTF8_CLASS_TOO_LARGE | UTF8_CLASS_SURROGATE |         \
     UTF8_CLASS_OVERLONG_2 | UTF8_CLASS_TWO_CONTS)

/* The classes the previous byte's high nibble allows. */
static const uint8_t utf8_prev_high_classes[16] = {
    UTF8_CLASS_LONG, UTF8_CLASS_LONG, UTF8_CLASS_LONG, UTF8_CLASS_LONG,
    UTF8_CLASS_LONG, UTF8_CLASS_LONG, UTF8_CLASS_LONG, UTF8_CLASS_LONG,
    UTF8_CLASS_TWO_CONTS, UTF8_CLASS_TWO_CONTS, UTF8_CLASS_TWO_CONTS,
    UTF8_CLASS_TWO_CONTS,
    UTF8_CLASS_SHORT | UTF8_CLASS_OVERLONG_2,                        /* C */
    UTF8_CLASS_SHORT,                                                /* D */
    UTF8_CLASS_SHORT | UTF8_CLASS_OVERLONG_3 | UTF8_CLASS_SURROGATE, /* E */
    UTF8_CLASS_SHORT | UTF8_CLASS_TOO_LARGE | UTF8_CLASS_OVERLONG_4  /* F */
};

/* The classes the previous byte's low nibble allows. */
static const uint8_t utf8_prev_low_classes[16] = {
    UTF8_ANY_LOW | UTF8_CLASS_OVERLONG_3 | UTF8_CLASS_OVERLONG_2 |
        UTF8_CLASS_OVERLONG_4,                                       /* 0 */
    UTF8_ANY_LOW | UTF8_CLASS_OVERLONG_2,                            /* 1 */
    UTF8_ANY_LOW, UTF8_ANY_LOW,
    UTF8_ANY_LOW | UTF8_CLASS_TOO_LARGE,                             /* 4 */
    UTF8_F_LOW, UTF8_F_LOW, UTF8_F_LOW, UTF8_F_LOW,                  /* 5-8 */
    UTF8_F_LOW, UTF8_F_LOW, UTF8_F_LOW, UTF8_F_LOW,                  /* 9-C */
    UTF8_F_LOW | UTF8_CLASS_SURROGATE,                               /* D */
    UTF8_F_LOW, UTF8_F_LOW                                           /* E-F */
};

/* The classes a byte's own high nibble allows. */
static const uint8_t utf8_this_high_classes[16] = {
    UTF8_CLASS_SHORT, UTF8_CLASS_SHORT, UTF8_CLASS_SHORT, UTF8_CLASS_SHORT,
    UTF8_CLASS_SHORT, UTF8_CLASS_SHORT, UTF8_CLASS_SHORT, UTF8_CLASS_SHORT,
    UTF8_CONT_80_8F, UTF8_CONT_90_9F, UTF8_CONT_A0_BF, UTF8_CONT_A0_BF,
    UTF8_CLASS_SHORT, UTF8_CLASS_SHORT, UTF8_CLASS_SHORT, UTF8_CLASS_SHORT
};

/* How many of the last bytes of s[0..n) (n >= 3) begin a sequence that the
 * bytes after them would have to complete; the bytes before them are whole
 * sequences when s[0..n) has passed the vector check. */
WENC_INLINE size_t utf8_incomplete_tail(const uint8_t *s, size_t n)
{
    if (s[n - 1] >= 0xC0)
        return 1;
    if (s[n - 2] >= 0xE0)
        return 2;
    if (s[n - 3] >= 0xF0)
        return 3;
    return 0;
}

/* Whether lead, c1, c2 are a valid three-byte sequence (§8.1.1: E0 needs
 * A0-BF after it, ED 80-9F, the others 80-BF; then a continuation), in one
 * test: the scalar loops' runs of CJK, Thai and Indic text take it for
 * every character. */
WENC_INLINE bool utf8_three_bytes_valid(uint32_t lead, uint32_t c1, uint32_t c2)
{
    /* the second byte's range, by the lead's low four bits: its lower
     * bound and its span (E0: A0-BF, ED: 80-9F, the others 80-BF) */
    static const uint8_t lower[16] = {0xA0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                      0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
    static const uint8_t span[16] = {0x1F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F,
                                     0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x3F, 0x3F};
    return ((lead & 0xF0u) == 0xE0u) &
           ((uint32_t)(uint8_t)(c1 - lower[lead & 0x0F]) <= span[lead & 0x0F]) &
           ((c2 & 0xC0u) == 0x80u);
}

/* §8.1.1 for one sequence that is not ASCII, at s[*pos] of s[0..n): writes
 * its code unit or units to d[*out..cap) and moves *pos and *out past them;
 * false, changing nothing, when it is malformed, cut off at n, or does not
 * fit. */
WENC_INLINE bool utf8_sequence_to_utf16(const uint8_t *s, size_t *pos, size_t n,
                                        uint16_t *d, size_t *out, size_t cap)
{
    size_t i = *pos, o = *out;
    size_t avail = n - i, room = cap - o;
    s += i;
    d += o;
    uint32_t lead = s[0];
    if (lead < 0xE0) {
        if (lead < 0xC2 || avail < 2 || room < 1)
            return false;
        uint32_t c = s[1] ^ 0x80u;
        if (c > 0x3F)
            return false;
        d[0] = (uint16_t)((lead & 0x1F) << 6 | c);
        *pos = i + 2;
        *out = o + 1;
        return true;
    }
    if (lead < 0xF0) {
        if (avail < 3 || room < 1)
            return false;
        uint32_t c1 = s[1], c2 = s[2];
        if (!utf8_three_bytes_valid(lead, c1, c2))
            return false;
        d[0] = (uint16_t)((lead & 0x0F) << 12 | (c1 & 0x3F) << 6 | (c2 & 0x3F));
        *pos = i + 3;
        *out = o + 1;
        return true;
    }
    if (lead > 0xF4 || avail < 4 || room < 2)
        return false;
    uint32_t c1 = s[1], c2 = s[2] ^ 0x80u, c3 = s[3] ^ 0x80u;
    uint32_t lower = lead == 0xF0 ? 0x90 : 0x80;
    uint32_t upper = lead == 0xF4 ? 0x8F : 0xBF;
    if (c1 < lower || c1 > upper || (c2 | c3) > 0x3F)
        return false;
    uint32_t cp = ((lead & 0x07) << 18 | (c1 & 0x3F) << 12 | c2 << 6 | c3) -
                  0x10000;
    d[0] = (uint16_t)(0xD800 | cp >> 10);
    d[1] = (uint16_t)(0xDC00 | (cp & 0x3FF));
    *pos = i + 4;
    *out = o + 2;
    return true;
}

/* How many of the 8 bytes at p are ASCII before the first that is not. */
WENC_INLINE size_t utf8_ascii_in_word(const uint8_t *p)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__)
    uint64_t word;
    memcpy(&word, p, sizeof word);
    uint64_t high = word & UINT64_C(0x8080808080808080);
    if (high == 0)
        return 8;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)__builtin_ctzll(high) >> 3;
#else
    return (size_t)__builtin_clzll(high) >> 3;
#endif
#else
    size_t k = 0;
    while (k < 8 && p[k] < 0x80)
        k++;
    return k;
#endif
}

/* The 8 bytes at p as a little-endian word. */
WENC_INLINE uint64_t utf8_load_le64(const uint8_t *p)
{
    uint64_t word;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&word, p, sizeof word);
#elif defined(__BYTE_ORDER__) && (defined(__GNUC__) || defined(__clang__))
    memcpy(&word, p, sizeof word);
    word = __builtin_bswap64(word);
#else
    word = 0;
    for (int k = 7; k >= 0; k--)
        word = word << 8 | p[k];
#endif
    return word;
}

/* The code units of the little-endian word x with their bytes swapped. */
WENC_INLINE uint64_t utf16_swap_lanes(uint64_t x)
{
    const uint64_t low = UINT64_C(0x00FF00FF00FF00FF);
    return (x >> 8 & low) | (x & low) << 8;
}

/* Narrows the 8 UTF-16 code units at s (little-endian, or big-endian where
 * be) to 8 bytes at d, whatever the units are (a unit above U+007F gives a
 * byte the caller overwrites), and returns a bit a unit, the first unit's
 * lowest, set where the unit is not ASCII. One test for a run of ASCII
 * however long it is, for text whose runs are short (Czech, Turkish,
 * French between accented letters). */
WENC_INLINE unsigned utf16_narrow8(const uint8_t *s, bool be, uint8_t *d)
{
#if defined(__SSE2__)
    __m128i units = _mm_loadu_si128((const __m128i *)(const void *)s);
    if (be)
        units = _mm_or_si128(_mm_slli_epi16(units, 8), _mm_srli_epi16(units, 8));
    __m128i high = _mm_and_si128(units, _mm_set1_epi16((short)0xFF80));
    __m128i ascii = _mm_cmpeq_epi16(high, _mm_setzero_si128());
    _mm_storel_epi64((__m128i *)(void *)d, _mm_packus_epi16(units, units));
    return ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(ascii, ascii)) & 0xFF;
#elif defined(WENC_HAVE_NEON)
    static const uint16_t bits[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t raw = vld1q_u8(s);
    if (be)
        raw = vrev16q_u8(raw);
    uint16x8_t units = vreinterpretq_u16_u8(raw);
    vst1_u8(d, vqmovn_u16(units));
    return vaddvq_u16(vandq_u16(vcgtq_u16(units, vdupq_n_u16(0x7F)),
                                vld1q_u16(bits)));
#else
    const uint64_t lanes = UINT64_C(0x0001000100010001);
    unsigned mask = 0;
    for (int h = 0; h < 2; h++) {
        uint64_t x = utf8_load_le64(s + 8 * h);
        if (be)
            x = utf16_swap_lanes(x);
        uint8_t bytes[4] = {(uint8_t)x, (uint8_t)(x >> 16), (uint8_t)(x >> 32),
                            (uint8_t)(x >> 48)};
        memcpy(d + 4 * h, bytes, sizeof bytes);
        /* bit 15 of a lane set where its top nine bits are not all 0 (no
         * lane carries: 0x7FC0 + 0x7FFF < 0x10000) */
        uint64_t high = (((x & (lanes * 0xFF80)) >> 1) + lanes * 0x7FFF) &
                        (lanes * 0x8000);
        /* the four bits 15, 31, 47, 63 gathered at 60-63 */
        mask |= (unsigned)((high * (UINT64_C(1) << 45 | UINT64_C(1) << 30 |
                                    UINT64_C(1) << 15 | 1)) >> 60)
                << 4 * h;
    }
    return mask;
#endif
}

/* Stores the low `size` bytes (4 or 8) of `word` at p, its low byte
 * first. */
WENC_INLINE void utf8_store_le(uint8_t *p, uint64_t word, size_t size)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t low = (uint32_t)word;
    if (size == 4)
        memcpy(p, &low, sizeof low);
    else
        memcpy(p, &word, sizeof word);
#else
    for (size_t k = 0; k < size; k++)
        p[k] = (uint8_t)(word >> 8 * k);
#endif
}

/* The UTF-8 of the code unit u (0x80-0x7FF) as a little-endian word of
 * two bytes, and of u (0x800 and more, not a surrogate) of three. */
WENC_INLINE uint32_t utf8_two_of_unit(uint32_t u)
{
    return 0x80C0 | u >> 6 | (u & 0x3F) << 8;
}
WENC_INLINE uint32_t utf8_three_of_unit(uint32_t u)
{
    return 0x8080E0 | u >> 12 | (u >> 6 & 0x3F) << 8 | (u & 0x3F) << 16;
}

/* Writes the UTF-8 of the code unit u (not a surrogate) at d, storing 4
 * bytes; returns its length. */
WENC_INLINE size_t utf8_put_unit(uint8_t *d, uint32_t u)
{
    if (u < 0x80) {
        d[0] = (uint8_t)u;
        return 1;
    }
    if (u < 0x800) {
        utf8_store_le(d, utf8_two_of_unit(u), 4);
        return 2;
    }
    utf8_store_le(d, utf8_three_of_unit(u), 4);
    return 3;
}

/* The code unit at p: little-endian, or big-endian where be. */
WENC_INLINE uint32_t utf16_unit_at(const uint8_t *p, bool be)
{
    return be ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

/* §8.1.2 UTF-8 encoder: the four code units of the little-endian word
 * `four`, none a surrogate, to UTF-8 at d. Where none takes three bytes
 * (Cyrillic, Greek, Arabic, Hebrew), without a branch: each unit's one or
 * two bytes in a lane, shifted to their place by the count of two-byte
 * units before it, stored as one word. Else a unit at a time (CJK, Korean
 * mixed with spaces: branches measured faster than a branch-free length
 * there). Writes up to 12 bytes, some past those it returns. */
WENC_INLINE size_t utf16_four_to_utf8(uint64_t four, uint8_t *d)
{
    const uint64_t lanes = UINT64_C(0x0001000100010001);
    if ((four & (lanes * 0xF800)) == 0) {
        /* 1 in the lanes of two bytes (no lane carries: 0x7FF + 0x7F80 <
         * 0x10000) */
        uint64_t two = ((four + lanes * 0x7F80) >> 15) & lanes;
        uint64_t both = two * 0xFFFF;
        uint64_t pairs = ((four >> 6) & (lanes * 0x1F)) |
                         ((four & (lanes * 0x3F)) << 8) | (lanes * 0x80C0);
        uint64_t bytes = (four & ~both) | (pairs & both);
        /* lane k: the units of two bytes up to and including lane k */
        uint64_t sums = two * lanes;
        uint64_t word = (bytes & 0xFFFF) |
                        (bytes >> 16 & 0xFFFF) << (8 + 8 * (sums & 0xFF)) |
                        (bytes >> 32 & 0xFFFF) << (16 + 8 * (sums >> 16 & 0xFF)) |
                        (bytes >> 48) << (24 + 8 * (sums >> 32 & 0xFF));
        utf8_store_le(d, word, 8);
        return 4 + (size_t)(sums >> 48);
    }
    size_t out = 0;
    for (int k = 0; k < 4; k++)
        out += utf8_put_unit(d + out, (uint32_t)(four >> 16 * k) & 0xFFFF);
    return out;
}

/* Whether the little-endian word of four code units holds a surrogate (a
 * lane whose top five bits are 11011). */
WENC_INLINE bool utf16_four_has_surrogate(uint64_t four)
{
    const uint64_t lanes = UINT64_C(0x0001000100010001);
    uint64_t x = (four & (lanes * 0xF800)) ^ (lanes * 0xD800);
    return ((x - lanes) & ~x & (lanes * 0x8000)) != 0;
}

/* Bit 15 of each lane of the little-endian word of four code units set
 * where the unit is 0x800 or more (no lane carries: 0x7C00 + 0x7C00 <
 * 0x10000). */
WENC_INLINE uint64_t utf16_four_three_byte(uint64_t four)
{
    const uint64_t lanes = UINT64_C(0x0001000100010001);
    return (((four & (lanes * 0xF800)) >> 1) + lanes * 0x7C00) &
           (lanes * 0x8000);
}

/*
 * §8.1.2 UTF-8 encoder over code units that are not surrogates (of UTF-16
 * text: the UTF-8 encoder's and the UTF-16 decoders' loops), 8 units a step
 * at s (little-endian, or big-endian where be), to d[*out_io...), while at
 * least `left` units are left; the caller's room holds 3 bytes a unit.
 * Each step narrows its 8 units (utf16_narrow8()) and then by what they are:
 *   - all ASCII: done, a constant step (the next load's address does not
 *     wait for this one's test);
 *   - units that are not ASCII each alone (Latin script): the ASCII bytes
 *     before each are the narrowed word shifted to its place, stored whole,
 *     the unit's bytes after them;
 *   - two units in a row that are not ASCII (other scripts): all eight of
 *     three bytes at fixed places, else utf16_four_to_utf8() twice.
 * Surrogate pairs are converted where a step meets them; stops before a
 * lone surrogate. Returns the units read. Bytes past those reported are
 * written, up to 8 past, and within the room of the step's
 * units: a caller that must leave its output's rest untouched (encodeInto)
 * passes `left` of 17 or more, so that the 9 units left after the last step
 * write over them.
 */
WENC_INLINE size_t utf16_to_utf8_steps(const uint8_t *s, size_t n, bool be,
                                       uint8_t *d, size_t *out_io,
                                       size_t left)
{
    const uint64_t lanes = UINT64_C(0x0001000100010001);
    size_t out = *out_io, i = 0;
    while (n - i >= left) {
        unsigned high = utf16_narrow8(s + 2 * i, be, d + out);
        if (WENC_LIKELY(high == 0)) {
            i += 8;
            out += 8;
            continue;
        }
        if (high & high >> 1) {
            uint64_t first = utf8_load_le64(s + 2 * i);
            uint64_t second = utf8_load_le64(s + 2 * i + 8);
            if (be) {
                first = utf16_swap_lanes(first);
                second = utf16_swap_lanes(second);
            }
            if (utf16_four_has_surrogate(first) ||
                utf16_four_has_surrogate(second)) {
                /* a unit at a time, pairs (emoji) too: 8 units, or 9 where
                 * the last is a pair's lead; a lone surrogate ends the
                 * steps */
                size_t k = 0;
                while (k < 8) {
                    const uint8_t *p = s + 2 * (i + k);
                    uint32_t unit = utf16_unit_at(p, be);
                    uint32_t next = utf16_unit_at(p + 2, be);
                    if ((unit & 0xF800) != 0xD800) {
                        out += utf8_put_unit(d + out, unit);
                    } else if (unit <= 0xDBFF && (next & 0xFC00) == 0xDC00) {
                        uint32_t cp = 0x10000 + ((unit - 0xD800) << 10) +
                                      (next - 0xDC00);
                        d[out] = (uint8_t)(0xF0 | cp >> 18);
                        d[out + 1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
                        d[out + 2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
                        d[out + 3] = (uint8_t)(0x80 | (cp & 0x3F));
                        out += 4;
                        k += 2;
                        continue;
                    } else {
                        *out_io = out;
                        return i + k;
                    }
                    k++;
                }
                i += k;
                continue;
            }
            if ((utf16_four_three_byte(first) & utf16_four_three_byte(second)) ==
                lanes * 0x8000) {
                for (size_t k = 0; k < 8; k++) {
                    uint64_t word = k < 4 ? first : second;
                    uint32_t unit = (uint32_t)(word >> 16 * (k & 3)) & 0xFFFF;
                    utf8_store_le(d + out + 3 * k, utf8_three_of_unit(unit), 4);
                }
                out += 24;
            } else {
                out += utf16_four_to_utf8(first, d + out);
                out += utf16_four_to_utf8(second, d + out);
            }
            i += 8;
            continue;
        }
        uint64_t narrowed = utf8_load_le64(d + out);
        unsigned from = 0;
        do {
#if defined(__GNUC__) || defined(__clang__)
            unsigned at = (unsigned)__builtin_ctz(high);
#else
            unsigned at = 0;
            while ((high >> at & 1) == 0)
                at++;
#endif
            utf8_store_le(d + out, narrowed >> 8 * from, 8);
            out += at - from;
            uint32_t unit = utf16_unit_at(s + 2 * (i + at), be);
            if ((unit & 0xF800) == 0xD800) {
                *out_io = out;
                return i + at;
            }
            if (unit < 0x800) {
                utf8_store_le(d + out, utf8_two_of_unit(unit), 4);
                out += 2;
            } else {
                utf8_store_le(d + out, utf8_three_of_unit(unit), 4);
                out += 3;
            }
            from = at + 1;
            high &= high - 1;
        } while (high != 0);
        /* (from is 1 to 8: a shift of 64 bits would be undefined) */
        utf8_store_le(d + out, narrowed >> (8 * from - 1) >> 1, 8);
        out += 8 - from;
        i += 8;
    }
    *out_io = out;
    return i;
}

/* §8.1.1 UTF-8 decoder's validity of the 16 bytes at s where they are ASCII
 * and sequences of two bytes (Latin script, Cyrillic, Greek, Arabic,
 * Hebrew) or, with SSE2, of three (CJK, Thai, Korean), s at the start of a
 * sequence: the bytes that are not ASCII are exactly leads C2-DF and
 * E0-EF and the continuation bytes 80-BF each needs, the one after E0 at
 * least A0 and the one after ED below A0. Returns how many bytes are whole
 * valid sequences, 16, or 14 or 15 where a sequence starts there and ends
 * after them, and *ascii whether all 16 are ASCII; 0 where the rule does
 * not hold (a lead of four bytes, a lone continuation, a lead without its
 * continuations, an overlong or surrogate form: the caller checks those
 * bytes another way). */
WENC_INLINE size_t utf8_bmp_block16(const uint8_t *s, bool *ascii)
{
#if defined(__SSE2__)
    __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i offset = _mm_xor_si128(bytes, _mm_set1_epi8((char)0x80));
    /* less 0x80, as signed bytes: C2-DF are 0x42-0x5F, E0-EF 0x60-0x6F */
    __m128i lead2 = _mm_and_si128(_mm_cmpgt_epi8(offset, _mm_set1_epi8(0x41)),
                                  _mm_cmplt_epi8(offset, _mm_set1_epi8(0x60)));
    __m128i cont = _mm_cmpeq_epi8(_mm_and_si128(bytes, _mm_set1_epi8((char)0xC0)),
                                  _mm_set1_epi8((char)0x80));
    unsigned high = (unsigned)_mm_movemask_epi8(bytes);
    unsigned leads2 = (unsigned)_mm_movemask_epi8(lead2);
    unsigned conts = (unsigned)_mm_movemask_epi8(cont);
    *ascii = high == 0;
    if (high == (leads2 | conts) && conts == ((leads2 << 1) & 0xFFFF))
        return 16 - ((leads2 >> 15) & 1); /* ASCII and two-byte sequences */
    __m128i lead3 = _mm_and_si128(_mm_cmpgt_epi8(offset, _mm_set1_epi8(0x5F)),
                                  _mm_cmplt_epi8(offset, _mm_set1_epi8(0x70)));
    unsigned leads3 = (unsigned)_mm_movemask_epi8(lead3);
    /* continuations A0-BF; leads E0 and ED */
    unsigned upper = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_and_si128(bytes, _mm_set1_epi8((char)0xE0)), _mm_set1_epi8((char)0xA0)));
    unsigned e0 = (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(bytes, _mm_set1_epi8((char)0xE0)));
    unsigned ed = (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(bytes, _mm_set1_epi8((char)0xED)));
    unsigned needed = ((leads2 | leads3) << 1 | leads3 << 2) & 0xFFFF;
    if (high != (leads2 | leads3 | conts) || conts != needed ||
        ((e0 << 1) & ~upper & 0xFFFF) != 0 || ((ed << 1) & upper) != 0)
        return 0;
    if ((leads3 >> 14) & 1)
        return 14;
    return 16 - (((leads2 | leads3) >> 15) & 1);
#else
    const uint64_t top = UINT64_C(0x8080808080808080);
    const uint64_t halves[2] = {utf8_load_le64(s), utf8_load_le64(s + 8)};
    uint64_t high = 0, leads = 0, conts = 0;
    for (int h = 0; h < 2; h++) {
        uint64_t x = halves[h];
        /* bit 7 of a byte: 10xxxxxx; 110xxxxx with bits 1-4 not all 0 */
        uint64_t cont = x & ~(x << 1) & top;
        uint64_t not_c0_c1 =
            ((x & UINT64_C(0x1E1E1E1E1E1E1E1E)) + UINT64_C(0x7E7E7E7E7E7E7E7E)) &
            top;
        uint64_t lead = x & (x << 1) & ~(x << 2) & not_c0_c1 & top;
        /* a bit a byte: bit 7 of byte k to bit k (no two products meet) */
        const uint64_t gather = UINT64_C(0x0002040810204081);
        high |= ((x & top) * gather >> 56) << 8 * h;
        leads |= (lead * gather >> 56) << 8 * h;
        conts |= (cont * gather >> 56) << 8 * h;
    }
    *ascii = high == 0;
    if (high != (leads | conts) || conts != ((leads << 1) & 0xFFFF))
        return 0;
    return 16 - ((leads >> 15) & 1);
#endif
}

/* Whether the first 6 bytes of the little-endian word x are two valid
 * three-byte sequences (§8.1.1): leads E0-EF and continuations where the
 * masks put them, and each code point's top five bits (the lead's low four
 * and bit 5 of the byte after it, in bits 0-4 and 24-28 of `tops`) neither
 * 0 (an overlong form, below U+0800) nor 11011 (a surrogate): adding 1F to
 * a field carries into its bit 5 unless it is 0. Branch-free, for runs of
 * Chinese, Japanese, Thai. */
WENC_INLINE bool utf8_two_three_byte_valid(uint64_t x)
{
    const uint64_t carry = 0x1F00001F, carried = 0x20000020;
    uint64_t tops = (x & 0x0F00000F) << 1 | (x >> 13 & 0x01000001);
    uint64_t not_surrogate = (tops ^ 0x1B00001B) + carry;
    return ((x & UINT64_C(0xC0C0F0C0C0F0)) == UINT64_C(0x8080E08080E0)) &
           (((tops + carry) & not_surrogate & carried) == carried);
}

/* The code units of the two three-byte sequences utf8_two_three_byte_valid()
 * accepted in x, to d[0] and d[1]. */
WENC_INLINE void utf8_two_three_byte_units(uint64_t x, uint16_t *d)
{
    d[0] = (uint16_t)((x & 0x0F) << 12 | (x >> 2 & 0x0FC0) | (x >> 16 & 0x3F));
    d[1] = (uint16_t)((x >> 12 & 0xF000) | (x >> 26 & 0x0FC0) |
                      (x >> 40 & 0x3F));
}

/* Whether the little-endian word x is four valid two-byte sequences
 * (§8.1.1): leads C2-DF (C0-DF by the mask, then the low bits 1-4 of each
 * not all 0: adding 7E to them carries into bit 7 unless they are) and
 * continuations after them. For runs of Cyrillic, Greek, Arabic, Hebrew. */
WENC_INLINE bool utf8_four_two_byte_valid(uint64_t x)
{
    const uint64_t lead_bits = UINT64_C(0x001E001E001E001E);
    const uint64_t carried = UINT64_C(0x0080008000800080);
    return ((x & UINT64_C(0xC0E0C0E0C0E0C0E0)) ==
            UINT64_C(0x80C080C080C080C0)) &
           ((((x & lead_bits) + UINT64_C(0x007E007E007E007E)) & carried) ==
            carried);
}

/* The code units of the four two-byte sequences utf8_four_two_byte_valid()
 * accepted in x, to d[0..4): each 16-bit lane's unit from its lead (low
 * byte) and continuation (high byte). */
WENC_INLINE void utf8_four_two_byte_units(uint64_t x, uint16_t *d)
{
    uint64_t units = (x & UINT64_C(0x001F001F001F001F)) << 6 |
                     (x >> 8 & UINT64_C(0x003F003F003F003F));
    d[0] = (uint16_t)units;
    d[1] = (uint16_t)(units >> 16);
    d[2] = (uint16_t)(units >> 32);
    d[3] = (uint16_t)(units >> 48);
}

/* The code unit of a valid three-byte sequence. */
WENC_INLINE uint16_t utf8_three_bytes_unit(const uint8_t *p)
{
    return (uint16_t)((p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu));
}

/* Copies the `length` bytes, 8 to 32, at src to dst with two overlapping
 * copies of a fixed size: a memcpy() of a variable length, a call or REP
 * MOVS, cost more than the packing on short inputs (27 units of Japanese
 * encoded 1.7 times as fast without it). */
WENC_INLINE void utf8_copy_8_to_32(uint8_t *dst, const uint8_t *src,
                                   size_t length)
{
    if (length >= 16) {
        memcpy(dst, src, 16);
        memcpy(dst + length - 16, src + length - 16, 16);
    } else {
        memcpy(dst, src, 8);
        memcpy(dst + length - 8, src + length - 8, 8);
    }
}

#ifdef WENC_HAVE_NEON
#include <arm_neon.h>

/* The error classes of the 16 bytes `in`, preceded by the 16 bytes `prev`
 * (zeros at the start of a buffer): nonzero where a byte is in error. The
 * check of utf8_error_classes_avx2(), with TBL for its lookups and EXT for
 * the bytes one, two and three places before. */
static inline uint8x16_t utf8_errors_neon(uint8x16_t in, uint8x16_t prev)
{
    uint8x16_t prev1 = vextq_u8(prev, in, 15);
    uint8x16_t prev2 = vextq_u8(prev, in, 14);
    uint8x16_t prev3 = vextq_u8(prev, in, 13);
    uint8x16_t classes = vandq_u8(
        vandq_u8(vqtbl1q_u8(vld1q_u8(utf8_prev_high_classes), vshrq_n_u8(prev1, 4)),
                 vqtbl1q_u8(vld1q_u8(utf8_prev_low_classes),
                            vandq_u8(prev1, vdupq_n_u8(0x0F)))),
        vqtbl1q_u8(vld1q_u8(utf8_this_high_classes), vshrq_n_u8(in, 4)));
    /* 0x80 where two or three bytes back stands a lead of 3 or 4 bytes */
    uint8x16_t required = vandq_u8(vorrq_u8(vqsubq_u8(prev2, vdupq_n_u8(0xE0 - 0x80)),
                                            vqsubq_u8(prev3, vdupq_n_u8(0xF0 - 0x80))),
                                   vdupq_n_u8(0x80));
    return veorq_u8(classes, required);
}

/* Widens the 16 ASCII bytes `v` to 16 code units at dst. */
static inline void ascii_widen16_neon(uint8x16_t v, uint16_t *dst)
{
    vst1q_u16(dst, vmovl_u8(vget_low_u8(v)));
    vst1q_u16(dst + 8, vmovl_high_u8(v));
}

/* The first of the 16 lanes of `lanes` (each 0 or 0xFF) that is set, 16
 * when none is: SHRN keeps four bits of each lane. */
static inline size_t first_lane_set_neon(uint8x16_t lanes)
{
    uint64_t bits = vget_lane_u64(
        vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(lanes), 4)), 0);
    return bits == 0 ? 16 : (size_t)__builtin_ctzll(bits) >> 2;
}

/* Widens the ASCII run at src (n bytes) to code units at dst, 32 bytes a
 * step, then 64 after two such steps (in French text the runs of ASCII,
 * some 30 bytes, end before a longer step pays). Returns the bytes
 * widened: up to the first byte that is not ASCII where one of the first
 * two steps meets it (all 32 units of the step are written), else up to
 * the first step of 64 that is not all ASCII. */
static inline size_t ascii_widen_run_neon(const uint8_t *src, size_t n,
                                          uint16_t *dst)
{
    size_t i = 0;
    for (int step = 0; step < 2 && n - i >= 32; step++) {
        uint8x16_t a = vld1q_u8(src + i), b = vld1q_u8(src + i + 16);
        ascii_widen16_neon(a, dst + i);
        ascii_widen16_neon(b, dst + i + 16);
        if (vmaxvq_u8(vorrq_u8(a, b)) >= 0x80) {
            size_t first = first_lane_set_neon(vcltzq_s8(vreinterpretq_s8_u8(a)));
            if (first == 16)
                first += first_lane_set_neon(vcltzq_s8(vreinterpretq_s8_u8(b)));
            return i + first;
        }
        i += 32;
    }
    for (; n - i >= 64; i += 64) {
        uint8x16x4_t in = vld1q_u8_x4(src + i);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(in.val[0], in.val[1]),
                               vorrq_u8(in.val[2], in.val[3]))) >= 0x80)
            break;
        for (int half = 0; half < 2; half++) {
            uint8x16_t a = in.val[2 * half], b = in.val[2 * half + 1];
            uint16x8x4_t units = {{vmovl_u8(vget_low_u8(a)), vmovl_high_u8(a),
                                   vmovl_u8(vget_low_u8(b)), vmovl_high_u8(b)}};
            vst1q_u16_x4(dst + i + 32 * half, units);
        }
    }
    return i;
}

/* The lanes of `lanes` (each 0 or 0xFF) as bits, lane i in bit i. */
static inline unsigned utf8_lane_bits_neon(uint8x16_t lanes)
{
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                        1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t bits = vandq_u8(lanes, vld1q_u8(weights));
    return (unsigned)vaddv_u8(vget_low_u8(bits)) |
           (unsigned)vaddv_u8(vget_high_u8(bits)) << 8;
}

/* Encodes 8 units, none of them a surrogate, to UTF-8 at dst and returns
 * the bytes: where none is above U+07FF, each unit's one or two bytes are
 * made in its 16-bit lane and packed by TBL (wenc_one_or_two_shuffle);
 * else each half's forms of up to three bytes in 32-bit lanes, packed as
 * utf8_pack8_avx2() packs them (wenc_utf8_pack_shuffle). With `spill`,
 * stores of 16 bytes may reach up to 12 bytes past the output; without,
 * nothing is written past it. */
static inline size_t utf8_pack8_neon(uint16x8_t units, uint8_t *dst, int spill)
{
    uint16x8_t over1 = vcgtq_u16(units, vdupq_n_u16(0x7F));
    uint16x8_t over2 = vcgtq_u16(units, vdupq_n_u16(0x7FF));
    unsigned forms = utf8_lane_bits_neon(
        vcombine_u8(vmovn_u16(over1), vmovn_u16(over2)));
    uint8x16_t packed0, packed1 = vdupq_n_u8(0);
    size_t length0, length;
    if ((forms >> 8) == 0) {
        uint16x8_t two = vorrq_u16(
            vorrq_u16(vshrq_n_u16(units, 6), vdupq_n_u16(0xC0)),
            vshlq_n_u16(vorrq_u16(vandq_u16(units, vdupq_n_u16(0x3F)),
                                  vdupq_n_u16(0x80)),
                        8));
        packed0 = vqtbl1q_u8(vreinterpretq_u8_u16(vbslq_u16(over1, two, units)),
                             vld1q_u8(wenc_one_or_two_shuffle[forms]));
        length0 = length = 8 + (size_t)__builtin_popcount(forms);
    } else {
        const uint32x4_t low6 = vdupq_n_u32(0x3F);
        const uint32x4_t continuation = vdupq_n_u32(0x80);
        const uint32x4_t halves[2] = {vmovl_u16(vget_low_u16(units)),
                                      vmovl_high_u16(units)};
        uint8x16_t packed[2];
        for (int h = 0; h < 2; h++) {
            uint32x4_t u = halves[h];
            uint32x4_t last6 = vorrq_u32(vandq_u32(u, low6), continuation);
            uint32x4_t middle6 = vorrq_u32(
                vandq_u32(vshrq_n_u32(u, 6), low6), continuation);
            uint32x4_t two =
                vorrq_u32(vorrq_u32(vshrq_n_u32(u, 6), vdupq_n_u32(0xC0)),
                          vshlq_n_u32(last6, 8));
            uint32x4_t three = vorrq_u32(
                vorrq_u32(vshrq_n_u32(u, 12), vdupq_n_u32(0xE0)),
                vorrq_u32(vshlq_n_u32(middle6, 8), vshlq_n_u32(last6, 16)));
            uint32x4_t slots = vbslq_u32(
                vcgtq_u32(u, vdupq_n_u32(0x7FF)), three,
                vbslq_u32(vcgtq_u32(u, vdupq_n_u32(0x7F)), two, u));
            unsigned key = (forms >> (4 * h) & 0xF) | (forms >> (4 + 4 * h) & 0xF0);
            packed[h] = vqtbl1q_u8(vreinterpretq_u8_u32(slots),
                                   vld1q_u8(wenc_utf8_pack_shuffle[key]));
            if (h == 0)
                length0 = wenc_utf8_pack_length[key];
            else
                length = length0 + wenc_utf8_pack_length[key];
        }
        packed0 = packed[0];
        packed1 = packed[1];
    }
    if (spill) {
        vst1q_u8(dst, packed0);
        if (length > length0)
            vst1q_u8(dst + length0, packed1);
    } else {
        uint8_t exact[32];
        vst1q_u8(exact, packed0);
        vst1q_u8(exact + length0, packed1);
        utf8_copy_8_to_32(dst, exact, length);
    }
    return length;
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX2
#include <immintrin.h>

/* The upper 16 bytes of `prev` and the lower 16 of `in`: the 16 bytes
 * before each 128-bit lane of `in`. (VEXTRACTI128 and VINSERTI128, not
 * VPERM2I128, which Zen 1 splits into eight micro-ops.) */
WENC_TARGET_AVX2 static inline __m256i utf8_lanes_before_avx2(__m256i prev,
                                                              __m256i in)
{
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm256_extracti128_si256(prev, 1)),
        _mm256_castsi256_si128(in), 1);
}

/* The error classes of the 32 bytes `in`, given the bytes one, two and
 * three places before each of them: nonzero where a byte is in error. */
WENC_TARGET_AVX2 static inline __m256i
utf8_error_classes_avx2(__m256i in, __m256i prev1, __m256i prev2,
                        __m256i prev3)
{
    const __m256i prev_high_classes = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)utf8_prev_high_classes));
    const __m256i prev_low_classes = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)utf8_prev_low_classes));
    const __m256i this_high_classes = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)utf8_this_high_classes));
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i classes = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(prev_high_classes,
                                _mm256_and_si256(
                                    _mm256_srli_epi16(prev1, 4), nibble)),
            _mm256_shuffle_epi8(prev_low_classes,
                                _mm256_and_si256(prev1, nibble))),
        _mm256_shuffle_epi8(
            this_high_classes,
            _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble)));
    /* 0x80 where two or three bytes back stands a lead of 3 or 4 bytes */
    __m256i required = _mm256_and_si256(
        _mm256_or_si256(
            _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80))),
            _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)))),
        _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(classes, required);
}

/* The error classes of the 32 bytes `in`, preceded by the 32 bytes `prev`
 * (zeros at the start of a buffer): nonzero where a byte is in error. */
WENC_TARGET_AVX2 static inline __m256i utf8_errors_avx2(__m256i in,
                                                        __m256i prev)
{
    __m256i before = utf8_lanes_before_avx2(prev, in);
    return utf8_error_classes_avx2(in, _mm256_alignr_epi8(in, before, 15),
                                   _mm256_alignr_epi8(in, before, 14),
                                   _mm256_alignr_epi8(in, before, 13));
}

/* As utf8_errors_avx2() for the 32 bytes at p, whose 3 bytes before are
 * readable: the bytes before each byte are loaded, not shifted in (loads
 * run beside the vector work; on Zen 1 the shifts and the lookups share
 * two pipes). */
WENC_TARGET_AVX2 static inline __m256i utf8_errors_at_avx2(const uint8_t *p)
{
    return utf8_error_classes_avx2(
        _mm256_loadu_si256((const __m256i *)(const void *)p),
        _mm256_loadu_si256((const __m256i *)(const void *)(p - 1)),
        _mm256_loadu_si256((const __m256i *)(const void *)(p - 2)),
        _mm256_loadu_si256((const __m256i *)(const void *)(p - 3)));
}

/* As utf8_pack8_avx2() for 8 units none of them above U+07FF (Latin,
 * Greek, Cyrillic, Hebrew, Arabic), as utf8_pack8_neon() does: each unit's
 * one or two bytes in its 16-bit lane, packed by wenc_one_or_two_shuffle.
 * The UTF-8 encoder's kernel takes it where a test of the 8 units finds
 * none above U+07FF, the single-byte decoders where a test of the 32 bytes'
 * units does; inside utf8_pack8_avx2(), for each 8 units, the same test
 * cost windows-1252 -> UTF-8 of French a quarter of its speed. */
WENC_TARGET_AVX2 static inline size_t
utf8_pack8_one_or_two_avx2(__m128i units, uint8_t *dst, int spill)
{
    __m128i over1 = _mm_cmpgt_epi16(units, _mm_set1_epi16(0x7F));
    __m128i two = _mm_or_si128(
        _mm_or_si128(_mm_srli_epi16(units, 6), _mm_set1_epi16(0xC0)),
        _mm_slli_epi16(_mm_or_si128(_mm_and_si128(units, _mm_set1_epi16(0x3F)),
                                    _mm_set1_epi16(0x80)),
                       8));
    unsigned forms =
        (unsigned)_mm_movemask_epi8(_mm_packs_epi16(over1, over1)) & 0xFF;
    __m128i packed = _mm_shuffle_epi8(
        _mm_blendv_epi8(units, two, over1),
        _mm_loadu_si128(
            (const __m128i *)(const void *)wenc_one_or_two_shuffle[forms]));
    size_t length = 8 + (size_t)_mm_popcnt_u32(forms);
    if (spill) {
        _mm_storeu_si128((__m128i *)(void *)dst, packed);
    } else {
        uint8_t exact[16];
        _mm_storeu_si128((__m128i *)(void *)exact, packed);
        utf8_copy_8_to_32(dst, exact, length);
    }
    return length;
}

/* utf8_pack8_one_or_two_avx2() for 16 units, none above U+07FF and not all
 * ASCII, given `over1` (their lanes above U+007F) and `forms` (the mask of
 * over1 packed to bytes: bit k for unit k of the first 8, bit 16 + k for
 * unit k of the others): each unit's one or two bytes in its 16-bit lane,
 * each half packed by PSHUFB with its row of wenc_one_or_two_shuffle. The
 * second half's store may reach 8 bytes past the output (the caller has room
 * for it, and writes those bytes again later). Returns the bytes written. */
WENC_TARGET_AVX2 static inline size_t
utf8_pack16_one_or_two_avx2(__m256i units, __m256i over1, unsigned forms,
                            uint8_t *dst)
{
    __m256i two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi16(units, 6), _mm256_set1_epi16(0xC0)),
        _mm256_slli_epi16(_mm256_or_si256(_mm256_and_si256(units,
                                                           _mm256_set1_epi16(0x3F)),
                                          _mm256_set1_epi16(0x80)),
                          8));
    unsigned forms_low = forms & 0xFF, forms_high = forms >> 16 & 0xFF;
    __m256i shuffle = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(
            (const __m128i *)(const void *)wenc_one_or_two_shuffle[forms_low])),
        _mm_loadu_si128(
            (const __m128i *)(const void *)wenc_one_or_two_shuffle[forms_high]),
        1);
    __m256i packed =
        _mm256_shuffle_epi8(_mm256_blendv_epi8(units, two, over1), shuffle);
    size_t length_low = 8 + (size_t)_mm_popcnt_u32(forms_low);
    _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(packed));
    _mm_storeu_si128((__m128i *)(void *)(dst + length_low),
                     _mm256_extracti128_si256(packed, 1));
    return length_low + 8 + (size_t)_mm_popcnt_u32(forms_high);
}

/* Whether the 16 units are all of three bytes in UTF-8: U+0800-U+FFFF, none
 * a surrogate (their top five bits neither 00000 nor 11011). */
WENC_TARGET_AVX2 static inline bool utf8_all_three16_avx2(__m256i units)
{
    __m256i top = _mm256_and_si256(units, _mm256_set1_epi16((short)0xF800));
    __m256i other = _mm256_or_si256(
        _mm256_cmpeq_epi16(top, _mm256_setzero_si256()),
        _mm256_cmpeq_epi16(top, _mm256_set1_epi16((short)0xD800)));
    return _mm256_testz_si256(other, other);
}

/* Of each unit's three-byte form, its first two bytes in its 16-bit lane
 * (1110xxxx, 10xxxxxx), and its third byte (10xxxxxx). */
WENC_TARGET_AVX2 static inline __m256i utf8_three_first_two_avx2(__m256i units)
{
    return _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi16(units, 12),
                        _mm256_set1_epi16((short)0x80E0)),
        _mm256_and_si256(_mm256_slli_epi16(units, 2), _mm256_set1_epi16(0x3F00)));
}

WENC_TARGET_AVX2 static inline __m256i utf8_three_third_avx2(__m256i units)
{
    return _mm256_or_si256(_mm256_and_si256(units, _mm256_set1_epi16(0x3F)),
                           _mm256_set1_epi16(0x80));
}

/* 16 units that utf8_all_three16_avx2() accepted (Chinese, Japanese, Thai)
 * to their 48 bytes at dst: each unit's first two bytes in its 16-bit lane
 * and its third in the same lane of another vector, the two interleaved to
 * 32-bit slots, whose fourth byte one fixed PSHUFB drops. The last store
 * reaches 4 bytes past the 48. */
WENC_TARGET_AVX2 static inline void utf8_pack16_three_avx2(__m256i units,
                                                          uint8_t *dst)
{
    const __m256i drop_fourth = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    __m256i first_two = utf8_three_first_two_avx2(units);
    __m256i third = utf8_three_third_avx2(units);
    /* units 0-3 and 8-11; 4-7 and 12-15 */
    __m256i low = _mm256_shuffle_epi8(_mm256_unpacklo_epi16(first_two, third),
                                      drop_fourth);
    __m256i high = _mm256_shuffle_epi8(_mm256_unpackhi_epi16(first_two, third),
                                       drop_fourth);
    _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(low));
    _mm_storeu_si128((__m128i *)(void *)(dst + 12), _mm256_castsi256_si128(high));
    _mm_storeu_si128((__m128i *)(void *)(dst + 24), _mm256_extracti128_si256(low, 1));
    _mm_storeu_si128((__m128i *)(void *)(dst + 36), _mm256_extracti128_si256(high, 1));
}

/* Whether none of the 16 units is a surrogate. */
WENC_TARGET_AVX2 static inline bool utf8_no_surrogate16_avx2(__m256i units)
{
    __m256i found = _mm256_cmpeq_epi16(
        _mm256_and_si256(units, _mm256_set1_epi16((short)0xF800)),
        _mm256_set1_epi16((short)0xD800));
    return _mm256_testz_si256(found, found);
}

/* Rows `low` and `high` of wenc_utf8_pack_shuffle as the two halves of one
 * VPSHUFB control. */
WENC_TARGET_AVX2 static inline __m256i utf8_pack_rows_avx2(unsigned low,
                                                           unsigned high)
{
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(
            (const __m128i *)(const void *)wenc_utf8_pack_shuffle[low])),
        _mm_loadu_si128((const __m128i *)(const void *)wenc_utf8_pack_shuffle[high]),
        1);
}

/* utf8_pack8_avx2() for 16 units, none a surrogate, in 16-bit lanes: each
 * unit's first two bytes in its lane and its third in the same lane of
 * another vector, interleaved to 32-bit slots (as utf8_pack16_three_avx2()
 * does), each four slots packed by their row of wenc_utf8_pack_shuffle.
 * Stores of 16 bytes may reach 12 bytes past the output. Returns the bytes
 * written. */
WENC_TARGET_AVX2 static inline size_t utf8_pack16_avx2(__m256i units,
                                                       uint8_t *dst)
{
    __m256i ascii = _mm256_cmpeq_epi16(
        _mm256_and_si256(units, _mm256_set1_epi16((short)0xFF80)),
        _mm256_setzero_si256());
    __m256i below800 = _mm256_cmpeq_epi16(
        _mm256_and_si256(units, _mm256_set1_epi16((short)0xF800)),
        _mm256_setzero_si256());
    __m256i three = utf8_three_first_two_avx2(units);
    __m256i two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi16(units, 6),
                        _mm256_set1_epi16((short)0x80C0)),
        _mm256_and_si256(_mm256_slli_epi16(units, 8),
                         _mm256_set1_epi16(0x3F00)));
    __m256i first_two = _mm256_blendv_epi8(
        _mm256_blendv_epi8(three, two, below800), units, ascii);
    __m256i third = _mm256_andnot_si256(below800, utf8_three_third_avx2(units));
    /* wenc_utf8_pack_shuffle's key of units 4g to 4g + 3 is byte g of
     * `keys`: bit i unit 4g + i not ASCII, bit 4 + i of three bytes. The
     * pack puts each 128-bit lane's ASCII flags before its short ones; the
     * PSHUFB orders them by fours (four ASCII flags, then the same four
     * units' short flags). */
    const __m256i by_fours = _mm256_setr_epi8(
        0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15,
        0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
    unsigned keys = ~(unsigned)_mm256_movemask_epi8(_mm256_shuffle_epi8(
        _mm256_packs_epi16(ascii, below800), by_fours));
    unsigned k0 = keys & 0xFF, k1 = keys >> 8 & 0xFF, k2 = keys >> 16 & 0xFF,
             k3 = keys >> 24;
    __m256i low = _mm256_shuffle_epi8(_mm256_unpacklo_epi16(first_two, third),
                                      utf8_pack_rows_avx2(k0, k2));
    __m256i high = _mm256_shuffle_epi8(_mm256_unpackhi_epi16(first_two, third),
                                       utf8_pack_rows_avx2(k1, k3));
    size_t at1 = wenc_utf8_pack_length[k0];
    size_t at2 = at1 + wenc_utf8_pack_length[k1];
    size_t at3 = at2 + wenc_utf8_pack_length[k2];
    _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(low));
    _mm_storeu_si128((__m128i *)(void *)(dst + at1), _mm256_castsi256_si128(high));
    _mm_storeu_si128((__m128i *)(void *)(dst + at2), _mm256_extracti128_si256(low, 1));
    _mm_storeu_si128((__m128i *)(void *)(dst + at3), _mm256_extracti128_si256(high, 1));
    return at3 + wenc_utf8_pack_length[k3];
}

/* 16 units with one above U+07FF and no surrogate, written as UTF-8 at dst
 * (utf8_pack16_three_avx2() when all take three bytes, else
 * utf8_pack16_avx2(); stores may reach 12 bytes past the output); returns
 * the bytes written, or 0, writing nothing, for 16 units with a surrogate
 * or with none above U+07FF. */
WENC_TARGET_AVX2 static inline size_t utf8_pack16_bmp_avx2(__m256i units,
                                                           uint8_t *dst)
{
    __m256i top = _mm256_and_si256(units, _mm256_set1_epi16((short)0xF800));
    /* per 128-bit lane: bits 0-7 its units below U+0800, 8-15 its
     * surrogates */
    unsigned kinds = (unsigned)_mm256_movemask_epi8(_mm256_packs_epi16(
        _mm256_cmpeq_epi16(top, _mm256_setzero_si256()),
        _mm256_cmpeq_epi16(top, _mm256_set1_epi16((short)0xD800))));
    if ((kinds & 0xFF00FF00u) != 0 || kinds == 0x00FF00FFu)
        return 0;
    if (kinds != 0)
        return utf8_pack16_avx2(units, dst);
    utf8_pack16_three_avx2(units, dst);
    return 48;
}

/* Encodes 8 units, none of them a surrogate, to UTF-8 at dst: each unit's
 * one, two and three byte forms are made in a 32-bit slot, the right one
 * kept by its size, and each four slots packed with a mask from
 * wenc_utf8_pack_shuffle. With `spill`, two 16-byte stores that may reach
 * 12 bytes past the 8 to 24 bytes made (the caller has room for them, and
 * writes those bytes again later); else exactly what is made. Returns the
 * bytes made. */
WENC_TARGET_AVX2 static inline size_t utf8_pack8_avx2(__m128i units,
                                                      uint8_t *dst, int spill)
{
    const __m256i low6 = _mm256_set1_epi32(0x3F);
    const __m256i continuation = _mm256_set1_epi32(0x80);
    __m256i u = _mm256_cvtepu16_epi32(units);
    __m256i last6 = _mm256_or_si256(_mm256_and_si256(u, low6), continuation);
    __m256i middle6 = _mm256_or_si256(
        _mm256_and_si256(_mm256_srli_epi32(u, 6), low6), continuation);
    __m256i two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32(u, 6), _mm256_set1_epi32(0xC0)),
        _mm256_slli_epi32(last6, 8));
    __m256i three = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32(u, 12), _mm256_set1_epi32(0xE0)),
        _mm256_or_si256(_mm256_slli_epi32(middle6, 8),
                        _mm256_slli_epi32(last6, 16)));
    __m256i over1 = _mm256_cmpgt_epi32(u, _mm256_set1_epi32(0x7F));
    __m256i over2 = _mm256_cmpgt_epi32(u, _mm256_set1_epi32(0x7FF));
    __m256i slots = _mm256_blendv_epi8(_mm256_blendv_epi8(u, two, over1),
                                       three, over2);
    unsigned long_forms =
        (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(over1));
    unsigned three_forms =
        (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(over2));
    unsigned key0 = (long_forms & 0xF) | (three_forms & 0xF) << 4;
    unsigned key1 = long_forms >> 4 | (three_forms & 0xF0);
    __m128i packed0 = _mm_shuffle_epi8(
        _mm256_castsi256_si128(slots),
        _mm_loadu_si128(
            (const __m128i *)(const void *)wenc_utf8_pack_shuffle[key0]));
    __m128i packed1 = _mm_shuffle_epi8(
        _mm256_extracti128_si256(slots, 1),
        _mm_loadu_si128(
            (const __m128i *)(const void *)wenc_utf8_pack_shuffle[key1]));
    size_t length0 = wenc_utf8_pack_length[key0];
    size_t length = length0 + wenc_utf8_pack_length[key1];
    if (spill) {
        _mm_storeu_si128((__m128i *)(void *)dst, packed0);
        _mm_storeu_si128((__m128i *)(void *)(dst + length0), packed1);
    } else {
        uint8_t exact[32];
        _mm_storeu_si128((__m128i *)(void *)exact, packed0);
        _mm_storeu_si128((__m128i *)(void *)(exact + length0), packed1);
        utf8_copy_8_to_32(dst, exact, length);
    }
    return length;
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX512
/*
 * The same for 64 bytes at a time, with VBMI: VPERMB looks a byte up in 64
 * entries by its low six bits and ignores the other two, so the tables are
 * read by the previous byte's bits 2-7 and 0-5 and this byte's bits 2-7
 * with no masking; which bytes must be continuations is found on bit masks
 * (leads of 3 and 4 bytes, shifted by 2 and 3) instead of vectors.
 */
typedef struct utf8_checker512 {
    __m512i prev_high, prev_low, this_high; /* the tables, 64 entries */
    __m512i prev;                           /* the 64 bytes before */
    uint64_t leads3, leads4; /* where prev holds leads E0-FF, F0-FF */
} utf8_checker512;

WENC_TARGET_AVX512 static inline void utf8_check512_init(utf8_checker512 *c)
{
    /* entry i: table[i >> 2] */
    const __m512i by_high_nibble = _mm512_set_epi32(
        0x0F0F0F0F, 0x0E0E0E0E, 0x0D0D0D0D, 0x0C0C0C0C, 0x0B0B0B0B,
        0x0A0A0A0A, 0x09090909, 0x08080808, 0x07070707, 0x06060606,
        0x05050505, 0x04040404, 0x03030303, 0x02020202, 0x01010101, 0);
    c->prev_high = _mm512_permutexvar_epi8(
        by_high_nibble,
        _mm512_broadcast_i32x4(_mm_loadu_si128(
            (const __m128i *)(const void *)utf8_prev_high_classes)));
    c->prev_low = _mm512_broadcast_i32x4(
        _mm_loadu_si128((const __m128i *)(const void *)utf8_prev_low_classes));
    c->this_high = _mm512_permutexvar_epi8(
        by_high_nibble,
        _mm512_broadcast_i32x4(_mm_loadu_si128(
            (const __m128i *)(const void *)utf8_this_high_classes)));
    c->prev = _mm512_setzero_si512();
    c->leads3 = c->leads4 = 0;
}

/* Checks the 64 bytes `in` after those checked before; returns the mask of
 * the bytes in error. */
WENC_TARGET_AVX512 static inline uint64_t utf8_check512(utf8_checker512 *c,
                                                        __m512i in)
{
    /* The 16 bytes before each lane: prev's last lane, then in's first three */
    __m512i before = _mm512_alignr_epi64(in, c->prev, 6);
    __m512i prev1 = _mm512_alignr_epi8(in, before, 15);
    __m512i classes = _mm512_ternarylogic_epi64(
        _mm512_permutexvar_epi8(_mm512_srli_epi16(prev1, 2), c->prev_high),
        _mm512_permutexvar_epi8(prev1, c->prev_low),
        _mm512_permutexvar_epi8(_mm512_srli_epi16(in, 2), c->this_high),
        0x80); /* a & b & c */
    uint64_t two_conts =
        _mm512_test_epi8_mask(classes, _mm512_set1_epi8((char)0x80));
    uint64_t others = _mm512_test_epi8_mask(classes, _mm512_set1_epi8(0x7F));
    uint64_t leads3 =
        _mm512_cmpge_epu8_mask(in, _mm512_set1_epi8((char)0xE0));
    uint64_t leads4 =
        _mm512_cmpge_epu8_mask(in, _mm512_set1_epi8((char)0xF0));
    uint64_t required = leads3 << 2 | c->leads3 >> 62 | leads4 << 3 |
                        c->leads4 >> 61;
    c->prev = in;
    c->leads3 = leads3;
    c->leads4 = leads4;
    return (two_conts ^ required) | others;
}

/* Checks the 64 bytes `in`, none of them E0-FF, whose continuations are
 * `conts`, after checked bytes whose last three hold no lead E0-FF
 * (c->leads3 >> 61 is 0): every continuation must follow a lead C2-DF,
 * every such lead precede one, and C0/C1 are errors. Returns nonzero, a
 * mask of bytes in error, where utf8_check512 would. */
WENC_TARGET_AVX512 static inline uint64_t
utf8_check512_two(utf8_checker512 *c, __m512i in, uint64_t conts)
{
    const __m512i lead_min = _mm512_set1_epi8((char)0xC0);
    const __m512i lead2_min = _mm512_set1_epi8((char)0xC2);
    uint64_t prev_leads = _mm512_cmpge_epu8_mask(c->prev, lead_min);
    uint64_t prev_overlong =
        _mm512_mask_cmplt_epu8_mask(prev_leads, c->prev, lead2_min);
    uint64_t leads = _mm512_cmpge_epu8_mask(in, lead_min);
    uint64_t overlong = _mm512_mask_cmplt_epu8_mask(leads, in, lead2_min);
    c->prev = in;
    c->leads3 = c->leads4 = 0;
    /* a C0 or C1 that ended the bytes before is reported at in's first */
    return (conts ^ (leads << 1 | prev_leads >> 63)) | overlong |
           prev_overlong >> 63;
}

/* Goes on after `before`, checked and ending where a sequence ends, as
 * after utf8_check512() of it. */
WENC_TARGET_AVX512 static inline void utf8_check512_resume(utf8_checker512 *c,
                                                           __m512i before)
{
    c->prev = before;
    c->leads3 = c->leads4 = 0;
}

/* Takes 64 ASCII bytes after ASCII bytes as checked: they hold no error. */
WENC_TARGET_AVX512 static inline void utf8_check512_ascii(utf8_checker512 *c,
                                                          __m512i in)
{
    c->prev = in;
    c->leads3 = c->leads4 = 0;
}

#endif


#ifdef WENC_HAVE_RUNTIME_AVX512
/* Each unit's two-byte form in its 16-bit lane: C0 | u >> 6, then
 * 80 | (u & 3F) (for a unit below U+0800). */
WENC_TARGET_AVX512 static inline __m512i utf8_two_byte_forms512(__m512i units)
{
    return _mm512_or_si512(
        _mm512_ternarylogic_epi32(_mm512_srli_epi16(units, 6),
                                  _mm512_slli_epi16(units, 8),
                                  _mm512_set1_epi16(0x3F00),
                                  0xF8), /* a | (b & c) */
        _mm512_set1_epi16((short)0x80C0));
}

/* Encodes `count` of the 32 units `units`, none of those above U+07FF, to
 * UTF-8 at dst, exactly: forms of one or two bytes in 16-bit lanes packed
 * by VPCOMPRESSB, the first byte of each unit kept where `firsts` says
 * (even bits), the second where it is above U+007F (`over1`). Returns the
 * bytes written. */
WENC_TARGET_AVX512 static inline size_t
utf8_pack32_two_of_avx512(__m512i units, __mmask64 firsts, __mmask32 over1,
                          size_t count, uint8_t *dst)
{
    __m512i forms =
        _mm512_mask_mov_epi16(units, over1, utf8_two_byte_forms512(units));
    __mmask64 bytes =
        firsts | _pdep_u64(over1, UINT64_C(0xAAAAAAAAAAAAAAAA));
    size_t length = count + (size_t)_mm_popcnt_u32(over1);
    _mm512_mask_storeu_epi8((void *)dst,
                            _bzhi_u64(~UINT64_C(0), (unsigned)length),
                            _mm512_maskz_compress_epi8(bytes, forms));
    return length;
}

/* Encodes the 32 units `units`, none above U+07FF, to UTF-8 at dst,
 * exactly; returns the bytes written. */
WENC_TARGET_AVX512 static inline size_t utf8_pack32_two_avx512(__m512i units,
                                                              uint8_t *dst)
{
    return utf8_pack32_two_of_avx512(
        units, UINT64_C(0x5555555555555555),
        _mm512_test_epi16_mask(units, _mm512_set1_epi16((short)0xFF80)), 32,
        dst);
}

/* Encodes the units `live` of 32, none of them a surrogate, to UTF-8 at
 * dst, exactly; `over1` and `over2` are the live units above U+007F and
 * above U+07FF. Each unit's first
 * two bytes are made in its 16-bit lane and its third in another vector;
 * two VPERMT2B interleave them into three bytes a unit (96 in all) and
 * VPCOMPRESSB keeps those of each form. Returns the bytes written. */
WENC_TARGET_AVX512 static inline size_t
utf8_pack32_three_avx512(__m512i units, __mmask32 live, __mmask32 over1,
                         __mmask32 over2, uint8_t *dst)
{
    /* byte j of the interleaving, of unit k = j / 3: bytes 2k and 2k + 1
     * of the first two, then byte 2k of the thirds (64 + 2k) */
    static const uint8_t interleave[96] = {
        0,  1,  64,  2,  3,  66,  4,  5,  68,  6,  7,  70,  8,  9,  72,  10,
        11, 74, 12,  13, 76, 14,  15, 78, 16,  17, 80, 18,  19, 82, 20,  21,
        84, 22, 23,  86, 24, 25,  88, 26, 27,  90, 28, 29,  92, 30, 31,  94,
        32, 33, 96,  34, 35, 98,  36, 37, 100, 38, 39, 102, 40, 41, 104, 42,
        43, 106, 44, 45, 108, 46, 47, 110, 48, 49, 112, 50, 51, 114, 52, 53,
        116, 54, 55, 118, 56, 57, 120, 58, 59, 122, 60, 61, 124, 62, 63, 126};
    /* E0 | u >> 12, 80 | (u >> 6 & 3F) */
    __m512i first_two3 = _mm512_or_si512(
        _mm512_ternarylogic_epi32(_mm512_srli_epi16(units, 12),
                                  _mm512_slli_epi16(units, 2),
                                  _mm512_set1_epi16(0x3F00),
                                  0xF8), /* a | (b & c) */
        _mm512_set1_epi16((short)0x80E0));
    __m512i first_two = _mm512_mask_mov_epi16(
        _mm512_mask_mov_epi16(units, over1, utf8_two_byte_forms512(units)),
        over2, first_two3);
    __m512i thirds = _mm512_ternarylogic_epi32(
        units, _mm512_set1_epi16(0x3F), _mm512_set1_epi16(0x80),
        0xEA); /* (a & b) | c */
    __m512i low = _mm512_permutex2var_epi8(
        first_two, _mm512_loadu_si512((const void *)interleave), thirds);
    __m512i high = _mm512_permutex2var_epi8(
        first_two,
        _mm512_castsi256_si512(
            _mm256_loadu_si256((const __m256i *)(const void *)(interleave + 64))),
        thirds);
    /* which of the 96 bytes are kept: a unit's first if live, its second
     * if above U+007F, its third if above U+07FF */
    uint64_t keep_low = _pdep_u64(live, UINT64_C(0x9249249249249249)) |
                        _pdep_u64(over1, UINT64_C(0x2492492492492492)) |
                        _pdep_u64(over2, UINT64_C(0x4924924924924924));
    uint32_t keep_high = _pdep_u32(live >> 22, 0x24924924u) |
                         _pdep_u32(over1 >> 21, 0x49249249u) |
                         _pdep_u32(over2 >> 21, 0x92492492u);
    size_t length_low = (size_t)_mm_popcnt_u64(keep_low);
    size_t length_high = (size_t)_mm_popcnt_u32(keep_high);
    _mm512_mask_storeu_epi8((void *)dst,
                            _bzhi_u64(~UINT64_C(0), (unsigned)length_low),
                            _mm512_maskz_compress_epi8(keep_low, low));
    _mm256_mask_storeu_epi8(
        (void *)(dst + length_low), _bzhi_u32(~0u, (unsigned)length_high),
        _mm512_castsi512_si256(_mm512_maskz_compress_epi8(keep_high, high)));
    return length_low + length_high;
}

/* Encodes the first `count` of 32 units, none of them a surrogate, to UTF-8
 * at dst, exactly (no byte written past those made): ASCII narrowed by
 * VPMOVWB; units up to U+07FF by utf8_pack32_two_of_avx512(); others by
 * utf8_pack32_three_avx512(). Returns the bytes written. */
WENC_TARGET_AVX512 static inline size_t
utf8_pack32_avx512(__m512i units, unsigned count, uint8_t *dst)
{
    const __m512i non_ascii = _mm512_set1_epi16((short)0xFF80);
    __mmask32 live = _bzhi_u32(~0u, count);
    __mmask32 over1 = _mm512_mask_test_epi16_mask(live, units, non_ascii);
    if (over1 == 0) {
        _mm256_mask_storeu_epi8((void *)dst, live,
                                _mm512_cvtepi16_epi8(units));
        return count;
    }
    __mmask32 over2 = _mm512_mask_test_epi16_mask(
        live, units, _mm512_set1_epi16((short)0xF800));
    if (over2 == 0)
        return utf8_pack32_two_of_avx512(
            units, _pdep_u64(live, UINT64_C(0x5555555555555555)), over1,
            count, dst);
    return utf8_pack32_three_avx512(units, live, over1, over2, dst);
}
#endif

#endif

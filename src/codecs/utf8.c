/* UTF-8 (§8.1): decoder and encoder. */
#include "loops.h"
#include "../simd/utf8_simd.h"

/*
 * Decoder state: state_[0] bytes needed (0 = idle), state_[1] bytes seen,
 * state_[2]/state_[3] lower/upper boundary, code_point_ the bits so far,
 * bytes_[0..seen] the bytes of the partial sequence (for error reports).
 */
enum { NEEDED, SEEN, LOWER, UPPER };

static void clear_state(wenc_decoder *dec)
{
    dec->state_[NEEDED] = 0;
    dec->state_[SEEN] = 0;
    dec->code_point_ = 0;
}

/* Writes the ASCII at s[*pos] (pos < n, *out < cap) and those after it to
 * d[*out..cap) as UTF-16: a lone byte (a space or a digit among letters of
 * other scripts) without looking for a run, a short run (a word between
 * letters of Vietnamese or Czech) 8 bytes widened at once, as many kept as
 * are ASCII, a longer one by wenc_ascii_to_utf16(). Inline at each place
 * ASCII comes next, so that each has branches of its own to predict. */
WENC_INLINE void utf8_ascii_to_utf16(const uint8_t *s, size_t *pos, size_t n,
                                     uint16_t *d, size_t *out, size_t cap)
{
    size_t i = *pos, o = *out;
    d[o++] = s[i++];
    if (i < n && o < cap && s[i] < 0x80) {
        size_t ascii = 0;
        if (n - i >= 8 && cap - o >= 8) {
            ascii = utf8_ascii_in_word(s + i);
            for (size_t k = 0; k < 8; k++)
                d[o + k] = s[i + k];
        }
        i += ascii;
        o += ascii;
        if (ascii == 8 || ascii == 0) {
            size_t run = n - i < cap - o ? n - i : cap - o;
            run = wenc_ascii_to_utf16(s + i, d + o, run);
            i += run;
            o += run;
        }
    }
    *pos = i;
    *out = o;
}

/* Decodes the longest prefix of whole, valid sequences of src[0..n) into
 * dst[*out..cap) as UTF-16; returns the bytes read. */
static size_t utf8_valid_to_utf16(const uint8_t *s, size_t n, uint16_t *d,
                                  size_t *out, size_t cap)
{
    size_t i = 0, o = *out;
    if (n >= 48 && cap - o >= 32) {
        /* less input or room measured faster one sequence at a time */
        size_t made = 0;
        i = wenc_utf8_to_utf16_vectors(s, n, d + o, cap - o, &made);
        o += made;
    } else if (n >= 16 && cap - o >= n &&
               ((utf8_load_le64(s) | utf8_load_le64(s + 8)) &
                UINT64_C(0x8080808080808080)) == 0) {
        /* a short call that starts with 16 bytes of ASCII: its ASCII 16
         * bytes a step */
        i = wenc_ascii_to_utf16(s, d + o, n);
        o += i;
    }
    while (i < n && o < cap) {
        uint32_t b = s[i];
        if (b < 0x80) {
            utf8_ascii_to_utf16(s, &i, n, d, &o, cap);
            continue;
        }
        if (!utf8_sequence_to_utf16(s, &i, n, d, &o, cap))
            break;
        /* after one, a run of two-byte sequences (Cyrillic, Greek, Arabic,
         * Hebrew), four characters a test, then one, and the ASCII after
         * it */
        if (b < 0xE0) {
            if (i < n && s[i] >= 0xC2) {
                size_t most = (n - i) / 2 < cap - o ? (n - i) / 2 : cap - o;
                const uint8_t *p = s + i, *end = p + 2 * most;
                uint16_t *q = d + o;
                while (end - p >= 8) {
                    uint64_t x = utf8_load_le64(p);
                    if (!utf8_four_two_byte_valid(x))
                        break;
                    utf8_four_two_byte_units(x, q);
                    q += 4;
                    p += 8;
                }
                while (p != end && (uint32_t)(p[0] - 0xC2) <= 0x1Du &&
                       (p[1] & 0xC0) == 0x80) {
                    *q++ = (uint16_t)((p[0] & 0x1Fu) << 6 | (p[1] & 0x3Fu));
                    p += 2;
                }
                i = (size_t)(p - s);
                o = (size_t)(q - d);
            }
            if (i < n && o < cap && s[i] < 0x80)
                utf8_ascii_to_utf16(s, &i, n, d, &o, cap);
            continue;
        }
        /* or of three-byte sequences, two characters a step, and the words
         * after them with one ASCII byte between (Korean) */
        for (;;) {
            unsigned pairs = 0;
            while (n - i >= 8 && cap - o >= 2) {
                uint64_t x = utf8_load_le64(s + i);
                if (!utf8_two_three_byte_valid(x))
                    break;
                utf8_two_three_byte_units(x, d + o);
                o += 2;
                i += 6;
                if (++pairs < 2)
                    continue;
                /* a long run (Chinese, Japanese, Thai; Korean words are
                 * shorter): bounded once, by the steps that surely fit */
                size_t most = (n - i) / 8 < (cap - o) / 2 ? (n - i) / 8 : (cap - o) / 2;
                const uint8_t *p = s + i, *end = p + 6 * most;
                uint16_t *q = d + o;
                while (p != end) {
                    x = utf8_load_le64(p);
                    if (!utf8_two_three_byte_valid(x))
                        break;
                    utf8_two_three_byte_units(x, q);
                    q += 2;
                    p += 6;
                }
                i = (size_t)(p - s);
                o = (size_t)(q - d);
                pairs = 0;
                if (p != end)
                    break;
            }
            if (n - i >= 3 && o < cap && utf8_three_bytes_valid(s[i], s[i + 1], s[i + 2])) {
                d[o++] = utf8_three_bytes_unit(s + i);
                i += 3;
            }
            if (n - i < 4 || cap - o < 2 || s[i] >= 0x80 ||
                !utf8_three_bytes_valid(s[i + 1], s[i + 2], s[i + 3]))
                break;
            d[o] = s[i];
            d[o + 1] = utf8_three_bytes_unit(s + i + 1);
            o += 2;
            i += 4;
        }
    }
    *out = o;
    return i;
}

size_t wenc_utf8_valid_to_utf16(const uint8_t *src, size_t n, uint16_t *dst,
                                size_t cap, size_t *written)
{
    size_t made = 0;
    size_t read = utf8_valid_to_utf16(src, n, dst, &made, cap);
    *written = made;
    return read;
}

/* §8.1.1 UTF-8 decoder */
WENC_INLINE codec_status utf8_decode(wenc_decoder *dec, const uint8_t *src,
                                     size_t len, size_t *consumed, void *dst,
                                     size_t cap, size_t *written, bool last,
                                     int utf16)
{
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;

    /* A sequence begun in an earlier call, one byte at a time. */
    while (dec->state_[NEEDED]) {
        size_t seen = dec->state_[SEEN];
        if (pos == len) {
            if (last) {
                st = sink_error(dec, dec->bytes_, seen + 1, NULL, 0, dst, cap,
                               &out, utf16);
                if (st != CODEC_OUTPUT_FULL)
                    clear_state(dec);
            }
            goto done;
        }
        uint8_t b = src[pos];
        if (b < dec->state_[LOWER] || b > dec->state_[UPPER]) {
            st = sink_error(dec, dec->bytes_, seen + 1, NULL, 0, dst, cap, &out,
                           utf16);
            if (st == CODEC_OUTPUT_FULL)
                goto done;
            clear_state(dec); /* b is read again */
            if (st == CODEC_ERROR)
                goto done;
            break;
        }
        uint32_t cp = (dec->code_point_ << 6) | (b & 0x3Fu);
        if (seen + 1 == dec->state_[NEEDED]) {
            if (cap - out < sink_units(cp, utf16)) {
                st = CODEC_OUTPUT_FULL;
                goto done;
            }
            out = sink_put(dst, out, cp, utf16);
            pos++;
            clear_state(dec);
            break;
        }
        dec->code_point_ = cp;
        dec->bytes_[seen + 1] = b;
        dec->state_[SEEN] = (uint8_t)(seen + 1);
        dec->state_[LOWER] = 0x80;
        dec->state_[UPPER] = 0xBF;
        pos++;
    }

    while (pos < len) {
        if (!utf16) {
            /* Valid UTF-8 is copied as it is; the scan below only sees the
             * sequences that are malformed, cut off, or do not fit. */
            size_t room = len - pos < cap - out ? len - pos : cap - out;
            size_t valid =
                wenc_utf8_copy_valid(src + pos, (uint8_t *)dst + out, room);
            pos += valid;
            out += valid;
            if (pos == len)
                break;
        } else {
            pos += utf8_valid_to_utf16(src + pos, len - pos, (uint16_t *)dst,
                                       &out, cap);
            if (pos == len)
                break;
        }
        if (!sink_ascii_run(src, &pos, len, dst, &out, cap, utf16)) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        if (pos == len)
            break;
        uint32_t cp = 0;
        size_t k;
        utf8_scan_result r = utf8_scan(src + pos, len - pos, &cp, &k);
        if (r == UTF8_VALID) {
            if (cap - out < sink_units(cp, utf16)) {
                st = CODEC_OUTPUT_FULL;
                break;
            }
            out = sink_put(dst, out, cp, utf16);
            pos += k;
            continue;
        }
        if (r == UTF8_INCOMPLETE && !last) {
            uint8_t lead = src[pos];
            size_t need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
            memcpy(dec->bytes_, src + pos, k);
            dec->state_[NEEDED] = (uint8_t)need;
            dec->state_[SEEN] = (uint8_t)(k - 1);
            dec->code_point_ = cp;
            dec->state_[LOWER] = 0x80;
            dec->state_[UPPER] = 0xBF;
            if (k == 1) {
                if (lead == 0xE0)
                    dec->state_[LOWER] = 0xA0;
                else if (lead == 0xED)
                    dec->state_[UPPER] = 0x9F;
                else if (lead == 0xF0)
                    dec->state_[LOWER] = 0x90;
                else if (lead == 0xF4)
                    dec->state_[UPPER] = 0x8F;
            }
            pos = len;
            break;
        }
        st = sink_error(dec, NULL, 0, src + pos, k, dst, cap, &out, utf16);
        if (st == CODEC_OUTPUT_FULL)
            break;
        pos += k;
        if (st == CODEC_ERROR)
            break;
    }
done:
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_DECODE_SINKS(utf8, utf8_decode)

static size_t utf8_held(const wenc_decoder *dec, uint8_t *bytes)
{
    size_t n = dec->state_[NEEDED] ? dec->state_[SEEN] + 1u : 0;
    if (bytes)
        memcpy(bytes, dec->bytes_, n);
    return n;
}

const decoder_codec wenc_utf8_decoder = {
    .to_utf8 = utf8_to_utf8,
    .to_utf16 = utf8_to_utf16,
    .held = utf8_held,
};

/* §8.1.2 UTF-8 encoder */
static size_t utf8_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
    (void)enc;
    return sink_put(out, 0, cp, 0);
}

WENC_INLINE codec_status utf8_encode(wenc_encoder *enc, const void *src,
                                     size_t len, size_t *consumed,
                                     uint8_t *dst, size_t cap, size_t *written,
                                     bool last, int utf16)
{
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, utf8_step, NULL, NULL);
}

DEFINE_ENCODE_READERS(utf8, utf8_encode)

#ifdef WENC_HAVE_RUNTIME_AVX2
#include <immintrin.h>

/* The ASCII units at src narrowed to bytes at dst, 32 a step while 32 or
 * more are left and all are ASCII; returns how many (a multiple of 32).
 * VPACKUSWB packs within 128-bit lanes; VPERMQ puts the quarters in order. */
WENC_TARGET_AVX2 static inline size_t
utf16_ascii_steps32_avx2(const uint16_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0;
    for (; n - i >= 32; i += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        __m256i b =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 16));
        if (!_mm256_testz_si256(_mm256_or_si256(a, b),
                                _mm256_set1_epi16((short)0xFF80)))
            break;
        _mm256_storeu_si256(
            (__m256i *)(void *)(dst + i),
            _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
    }
    return i;
}

/* Text of units of one and two bytes (Latin, Cyrillic, Greek, Hebrew,
 * Arabic), 16 a step (utf8_pack16_one_or_two_avx2()); 16 units of ASCII
 * narrowed, and the rest of their run 32 a step. Taking the accented
 * letters of French text here with the ASCII around them, rather than 8
 * units with each and the ASCII between in the caller's loop, measured
 * 1.4-3.6 times as fast.
 * Stops before 16 units that hold a unit above U+07FF (or a surrogate),
 * and where fewer than 30 are left: a step's second store may reach 8
 * bytes past its output, which the units after it rewrite. Returns the
 * units read; the bytes written go to *written. */
WENC_TARGET_AVX2 static size_t
utf16_one_or_two_to_utf8_avx2(const uint16_t *src, size_t n, uint8_t *dst,
                              size_t *written)
{
    const __m256i high_bits = _mm256_set1_epi16((short)0xF800);
    const __m256i ascii_max = _mm256_set1_epi16(0x7F);
    size_t pos = 0, out = 0;
    while (n - pos >= 16 + 14) {
        __m256i units =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        if (!_mm256_testz_si256(units, high_bits))
            break;
        __m256i over1 = _mm256_cmpgt_epi16(units, ascii_max);
        unsigned forms = (unsigned)_mm256_movemask_epi8(
            _mm256_packs_epi16(over1, _mm256_setzero_si256()));
        if (forms == 0) {
            /* 16 of ASCII, then the run's rest 32 units a step */
            _mm_storeu_si128(
                (__m128i *)(void *)(dst + out),
                _mm_packus_epi16(_mm256_castsi256_si128(units),
                                 _mm256_extracti128_si256(units, 1)));
            pos += 16;
            out += 16;
            size_t run = utf16_ascii_steps32_avx2(src + pos, n - pos, dst + out);
            pos += run;
            out += run;
            continue;
        }
        out += utf8_pack16_one_or_two_avx2(units, over1, forms, dst + out);
        pos += 16;
    }
    *written = out;
    return pos;
}

/* Text whose blocks of 16 units each hold a unit of three bytes and no
 * surrogate (Chinese, Japanese, Thai, Korean's syllables and spaces,
 * Vietnamese), 16 a step (utf8_pack16_bmp_avx2()); a block of one- and
 * two-byte units among them (Vietnamese) as utf16_one_or_two_to_utf8_avx2()
 * packs it. Stops before a block with a surrogate or all ASCII, and where
 * fewer than 30 units are left (a step's last store may reach 12 bytes
 * past its output, which the units after it rewrite). A loop of its own,
 * out of line: inside the caller's, gcc rebuilt four of the packing's
 * constants every step. Returns the units read; the bytes written go to
 * *written. */
__attribute__((noinline)) WENC_TARGET_AVX2 static size_t
utf16_bmp_to_utf8_avx2(const uint16_t *src, size_t n, uint8_t *dst,
                       size_t *written)
{
    size_t pos = 0, out = 0;
    while (n - pos >= 16 + 14) {
        __m256i units =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        size_t made = utf8_pack16_bmp_avx2(units, dst + out);
        if (made == 0) {
            /* a block of one- and two-byte units within the run
             * (Vietnamese) goes on here; ASCII and surrogates go back */
            if (!_mm256_testz_si256(units, _mm256_set1_epi16((short)0xF800)) ||
                _mm256_testz_si256(units, _mm256_set1_epi16((short)0xFF80)))
                break;
            __m256i over1 = _mm256_cmpgt_epi16(units, _mm256_set1_epi16(0x7F));
            made = utf8_pack16_one_or_two_avx2(
                units, over1,
                (unsigned)_mm256_movemask_epi8(
                    _mm256_packs_epi16(over1, _mm256_setzero_si256())),
                dst + out);
        }
        pos += 16;
        out += made;
    }
    *written = out;
    return pos;
}

/* Encodes 8 units at a time (utf8_pack8_avx2) while none is a surrogate,
 * ASCII runs included; text of one- and two-byte units 16 at a time
 * (utf16_one_or_two_to_utf8_avx2()), and 16 units with a longer one and no
 * surrogate by utf8_pack16_avx2(), the blocks after them that hold such
 * units too by utf16_bmp_to_utf8_avx2(). The caller leaves room for 3 bytes
 * per unit and encodes every unit up to n but the last one or two. Stores
 * of 16 bytes reach up to 12 bytes past the UTF-8 of their 8 units; they
 * are used while 14 units or more follow, which rewrite those bytes, and
 * the last steps write only what they make. Returns the units read; the
 * bytes written go to *written. */
WENC_TARGET_AVX2 static size_t
utf16_to_utf8_avx2(const uint16_t *src, size_t n, uint8_t *dst,
                   size_t *written)
{
    const __m128i surrogate_bits = _mm_set1_epi16((short)0xF800);
    const __m128i surrogate = _mm_set1_epi16((short)0xD800);
    const __m128i non_ascii = _mm_set1_epi16((short)0xFF80);
    size_t pos = 0, out = 0;
    while (n - pos >= 8) {
        __m128i units =
            _mm_loadu_si128((const __m128i *)(const void *)(src + pos));
        if (_mm_testz_si128(units, non_ascii)) {
            /* ASCII: 16 units a step, 32 after two such steps, then 8.
             * Calling the ASCII kernel (wenc_utf16_ascii_to_bytes) for each
             * run instead measured a fifth slower on French and Japanese
             * text, whose ASCII runs are short. */
            for (int steps = 0; n - pos >= 16; steps++) {
                __m128i next = _mm_loadu_si128(
                    (const __m128i *)(const void *)(src + pos + 8));
                if (!_mm_testz_si128(_mm_or_si128(units, next), non_ascii))
                    break;
                _mm_storeu_si128((__m128i *)(void *)(dst + out),
                                 _mm_packus_epi16(units, next));
                out += 16;
                pos += 16;
                if (steps >= 1) {
                    size_t run =
                        utf16_ascii_steps32_avx2(src + pos, n - pos, dst + out);
                    pos += run;
                    out += run;
                }
                if (n - pos < 8)
                    break;
                units = _mm_loadu_si128(
                    (const __m128i *)(const void *)(src + pos));
            }
            if (n - pos < 8 || !_mm_testz_si128(units, non_ascii))
                continue;
            _mm_storel_epi64((__m128i *)(void *)(dst + out),
                             _mm_packus_epi16(units, units));
            out += 8;
            pos += 8;
            continue;
        }
        __m128i surrogates =
            _mm_cmpeq_epi16(_mm_and_si128(units, surrogate_bits), surrogate);
        if (!_mm_testz_si128(surrogates, surrogates))
            break;
        if (_mm_testz_si128(units, _mm_set1_epi16((short)0xF800))) {
            /* 16 units a step where the next 8 are such too (not where
             * they hold a unit of three bytes, as in Japanese text between
             * its punctuation and its letters) */
            if (n - pos >= 16 + 14 &&
                _mm_testz_si128(_mm_loadu_si128((const __m128i *)(const void *)(
                                    src + pos + 8)),
                                _mm_set1_epi16((short)0xF800))) {
                size_t made = 0;
                pos += utf16_one_or_two_to_utf8_avx2(src + pos, n - pos,
                                                     dst + out, &made);
                out += made;
                continue;
            }
            out += utf8_pack8_one_or_two_avx2(units, dst + out,
                                              n - pos >= 8 + 14);
        } else {
            if (n - pos >= 16 + 14) {
                __m256i sixteen = _mm256_loadu_si256(
                    (const __m256i *)(const void *)(src + pos));
                if (utf8_no_surrogate16_avx2(sixteen)) {
                    out += utf8_pack16_avx2(sixteen, dst + out);
                    pos += 16;
                    /* the loop only where the next 16 hold a unit above
                     * U+07FF too: in HTML, a run of such blocks is often
                     * one block long */
                    if (n - pos >= 16 + 14 &&
                        !_mm256_testz_si256(
                            _mm256_loadu_si256(
                                (const __m256i *)(const void *)(src + pos)),
                            _mm256_set1_epi16((short)0xF800))) {
                        size_t made = 0;
                        pos += utf16_bmp_to_utf8_avx2(src + pos, n - pos,
                                                      dst + out, &made);
                        out += made;
                    }
                    continue;
                }
            }
            /* a surrogate in the next 8 units, or fewer than 30 left */
            out += utf8_pack8_avx2(units, dst + out, n - pos >= 8 + 14);
        }
        pos += 8;
    }
    *written = out;
    return pos;
}

WENC_TARGET_AVX2 size_t wenc_utf16_to_utf8_avx2(const uint16_t *src, size_t n,
                                                uint8_t *dst, size_t *written)
{
    return utf16_to_utf8_avx2(src, n, dst, written);
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX512
/* Encodes units 32 at a time (utf8_pack32_avx512) up to the first
 * surrogate, the last fewer than 32 under a mask; the caller leaves room for
 * 3 bytes per unit. Returns the units read; the bytes written go to
 * *written. */
WENC_TARGET_AVX512 static size_t
utf16_to_utf8_avx512(const uint16_t *src, size_t n, uint8_t *dst,
                     size_t *written)
{
    const __m512i non_ascii = _mm512_set1_epi16((short)0xFF80);
    const __m512i surrogate_bits = _mm512_set1_epi16((short)0xF800);
    const __m512i surrogate = _mm512_set1_epi16((short)0xD800);
    size_t pos = 0, out = 0;
    while (n - pos >= 32) {
        __m512i units = _mm512_loadu_si512((const void *)(src + pos));
        if (_mm512_test_epi16_mask(units, non_ascii) == 0) {
            _mm256_storeu_si256((__m256i *)(void *)(dst + out),
                                _mm512_cvtepi16_epi8(units));
            pos += 32;
            out += 32;
            /* the rest of an ASCII run 64 units a step: VPACKUSWB packs
             * within 128-bit lanes, VPERMQ puts the eighths in order */
            while (n - pos >= 64) {
                __m512i a = _mm512_loadu_si512((const void *)(src + pos));
                __m512i b = _mm512_loadu_si512((const void *)(src + pos + 32));
                if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), non_ascii) != 0)
                    break;
                _mm512_storeu_si512(
                    (void *)(dst + out),
                    _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                                             _mm512_packus_epi16(a, b)));
                pos += 64;
                out += 64;
            }
            continue;
        }
        if (_mm512_test_epi16_mask(units, surrogate_bits) == 0) {
            /* none above U+07FF: forms of one or two bytes, all 32 */
            out += utf8_pack32_two_avx512(units, dst + out);
            pos += 32;
            continue;
        }
        uint32_t surrogates = _mm512_cmpeq_epi16_mask(
            _mm512_and_si512(units, surrogate_bits), surrogate);
        unsigned count = surrogates ? (unsigned)__builtin_ctz(surrogates) : 32;
        out += utf8_pack32_avx512(units, count, dst + out);
        pos += count;
        if (count < 32)
            break;
    }
    if (n - pos < 32) {
        /* the last units (after a surrogate this finds it again at once
         * and takes none) */
        __mmask32 live = _bzhi_u32(~0u, (unsigned)(n - pos));
        __m512i units = _mm512_maskz_loadu_epi16(live, (const void *)(src + pos));
        uint32_t surrogates = _mm512_mask_cmpeq_epi16_mask(
            live, _mm512_and_si512(units, surrogate_bits), surrogate);
        unsigned count = surrogates ? (unsigned)__builtin_ctz(surrogates)
                                    : (unsigned)(n - pos);
        out += utf8_pack32_avx512(units, count, dst + out);
        pos += count;
    }
    *written = out;
    return pos;
}

WENC_TARGET_AVX512 size_t wenc_utf16_to_utf8_avx512(const uint16_t *src,
                                                    size_t n, uint8_t *dst,
                                                    size_t *written)
{
    return utf16_to_utf8_avx512(src, n, dst, written);
}
#endif

#ifdef WENC_HAVE_NEON
/* Latin-script text: 16 units a step narrowed to bytes (UQXTN: units
 * above U+00FF give 0xFF, so a byte's top bit says the unit is not ASCII),
 * up to the first unit that is not ASCII; that unit written here when it
 * takes two bytes and the unit after it is ASCII. After two steps of
 * ASCII, 32 units a step. Stops at the first unit it does not write (more
 * than two bytes, or two units in a row not ASCII), and where fewer than 32
 * units are left: a step stores 16 bytes, some past its output, which the
 * units after it rewrite. Returns the units read; the bytes written go to
 * *written. */
static size_t utf16_latin_to_utf8_neon(const uint16_t *src, size_t n,
                                       uint8_t *dst, size_t *written)
{
    size_t pos = 0, out = 0;
    unsigned ascii_steps = 0;
    while (n - pos >= 32) {
        uint8x16_t bytes = vqmovn_high_u16(vqmovn_u16(vld1q_u16(src + pos)),
                                           vld1q_u16(src + pos + 8));
        vst1q_u8(dst + out, bytes);
        size_t ascii = first_lane_set_neon(vcltzq_s8(vreinterpretq_s8_u8(bytes)));
        pos += ascii;
        out += ascii;
        if (ascii == 16) {
            if (++ascii_steps < 2)
                continue;
            const uint16_t *from = src + pos;
            uint8_t *to = dst + out;
            for (const uint16_t *last = src + n - 64; from <= last;
                 from += 32, to += 32) {
                uint16x8x4_t in = vld1q_u16_x4(from);
                if (vmaxvq_u16(vorrq_u16(vorrq_u16(in.val[0], in.val[1]),
                                         vorrq_u16(in.val[2], in.val[3]))) >=
                    0x80)
                    break;
                uint8x16x2_t narrow = {
                    {vuzp1q_u8(vreinterpretq_u8_u16(in.val[0]),
                               vreinterpretq_u8_u16(in.val[1])),
                     vuzp1q_u8(vreinterpretq_u8_u16(in.val[2]),
                               vreinterpretq_u8_u16(in.val[3]))}};
                vst1q_u8_x2(to, narrow);
            }
            pos = (size_t)(from - src);
            out = (size_t)(to - dst);
            continue;
        }
        ascii_steps = 0;
        uint32_t u = src[pos];
        if (u >= 0x800 || src[pos + 1] >= 0x80)
            break;
        dst[out] = (uint8_t)(0xC0 | u >> 6);
        dst[out + 1] = (uint8_t)(0x80 | (u & 0x3F));
        out += 2;
        pos++;
    }
    *written = out;
    return pos;
}

/* What utf16_to_utf8_avx2() does, with utf8_pack8_neon(); ASCII and text
 * where units that are not ASCII come alone by utf16_latin_to_utf8_neon(). */
static size_t utf16_to_utf8_neon(const uint16_t *src, size_t n, uint8_t *dst,
                                 size_t *written)
{
    size_t pos = 0, out = 0;
    while (n - pos >= 8) {
        uint16x8_t units = vld1q_u16(src + pos);
        if (vmaxvq_u16(units) < 0x80) {
            size_t made = 0, taken = 0;
            if (n - pos >= 32)
                taken = utf16_latin_to_utf8_neon(src + pos, n - pos,
                                                 dst + out, &made);
            if (taken == 0)
                taken = made = wenc_utf16_ascii_to_bytes(
                    src + pos, dst + out, (n - pos) & ~(size_t)7);
            pos += taken;
            out += made;
            continue;
        }
        uint16x8_t surrogates = vceqq_u16(
            vandq_u16(units, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800));
        if (vmaxvq_u16(surrogates) != 0)
            break;
        out += utf8_pack8_neon(units, dst + out, n - pos >= 8 + 14);
        pos += 8;
    }
    *written = out;
    return pos;
}
#endif

#if defined(WENC_HAVE_NEON)
#define utf16_to_utf8_eights utf16_to_utf8_neon
#elif defined(WENC_HAVE_RUNTIME_AVX2)
#define utf16_to_utf8_eights utf16_to_utf8_avx2
#endif

/* Converts UTF-16 units to UTF-8 while the room left holds 3 bytes per unit,
 * so that nothing is checked per code point; stops before a lead surrogate
 * whose pair ends outside that block. Returns the units read. The bytes are
 * written here rather than by sink_put(), which measured a third slower in
 * this loop. */
static size_t utf16_to_utf8_block(const uint16_t *src, size_t len,
                                  uint8_t *dst, size_t *out_io, size_t cap,
                                  bool last)
{
    size_t pos = 0, out = *out_io;
#if defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
    /* After the kernel stops at a surrogate: where it may try again */
    size_t kernel_from = 0;
#endif
#ifdef WENC_HAVE_RUNTIME_AVX512
    bool avx512 = len >= 8 && wenc_cpu_has_avx512();
#elif defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
    bool avx512 = false;
#endif
#ifdef WENC_HAVE_NEON
    const bool eights = true;
#elif defined(WENC_HAVE_RUNTIME_AVX2)
    bool eights = wenc_cpu_has_avx2();
#endif
#if defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
    const bool vectors = avx512 || eights;
#else
    const bool vectors = false;
#endif
    for (;;) {
        size_t room = (cap - out) / 3;
        size_t end = len - pos < room ? len : pos + room;
        if (end == pos)
            break;
        size_t block_start = pos;
        while (pos < end) {
            uint32_t u = src[pos];
#ifdef WENC_HAVE_RUNTIME_AVX512
            if (avx512 && end - pos >= 8) {
                size_t made = 0;
                size_t taken = utf16_to_utf8_avx512(src + pos, end - pos,
                                                    dst + out, &made);
                pos += taken;
                out += made;
                if (pos == end)
                    continue;
                u = src[pos]; /* a surrogate, or the last units */
            }
#endif
#if defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
            /* Two non-ASCII units in a row: text the kernel pays off on
             * (not an accented letter among ASCII ones) */
            if (!avx512 && u >= 0x80 && end - pos >= 8 &&
                src[pos + 1] >= 0x80 && pos >= kernel_from && eights) {
                size_t made = 0;
                size_t taken = utf16_to_utf8_eights(src + pos, end - pos,
                                                    dst + out, &made);
                pos += taken;
                out += made;
                if (taken > 0)
                    continue;
                kernel_from = pos + 8;
            }
#endif
            /* Without vector kernels: 17 units or more left, so that the
             * steps' bytes past their output are written over by those of
             * the 9 or more after them */
            if (!vectors && end - pos >= 17) {
                size_t taken = utf16_to_utf8_steps(
                    (const uint8_t *)(const void *)(src + pos), end - pos,
                    !host_is_little_endian(), dst, &out, 17);
                pos += taken;
                if (taken > 0)
                    continue;
            }
            if (u < 0x80) {
                if (end - pos >= 4) {
                    uint64_t four;
                    memcpy(&four, src + pos, sizeof four);
                    if ((four & UINT64_C(0xFF80FF80FF80FF80)) == 0) {
                        size_t n = wenc_utf16_ascii_to_bytes(
                            src + pos, dst + out, end - pos);
                        out += n;
                        pos += n;
                        continue;
                    }
                }
                dst[out++] = (uint8_t)u;
                pos++;
            } else if (u < 0x800) {
                dst[out] = (uint8_t)(0xC0 | (u >> 6));
                dst[out + 1] = (uint8_t)(0x80 | (u & 0x3F));
                out += 2;
                pos++;
            } else if ((u & 0xF800) != 0xD800) {
                dst[out] = (uint8_t)(0xE0 | (u >> 12));
                dst[out + 1] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
                dst[out + 2] = (uint8_t)(0x80 | (u & 0x3F));
                out += 3;
                pos++;
            } else {
                uint32_t next = pos + 1 < len ? src[pos + 1] : 0;
                if (u <= 0xDBFF && (next & 0xFC00) == 0xDC00) {
                    if (pos + 1 >= end)
                        break;
                    uint32_t cp = 0x10000 + ((u - 0xD800) << 10) +
                                  (next - 0xDC00);
                    dst[out] = (uint8_t)(0xF0 | (cp >> 18));
                    dst[out + 1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
                    dst[out + 2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
                    dst[out + 3] = (uint8_t)(0x80 | (cp & 0x3F));
                    out += 4;
                    pos += 2;
                    continue;
                }
                if (u <= 0xDBFF && pos + 1 == len && !last)
                    break; /* the trail may come with the next call */
                dst[out] = 0xEF; /* a lone surrogate: U+FFFD */
                dst[out + 1] = 0xBF;
                dst[out + 2] = 0xBD;
                out += 3;
                pos++;
            }
        }
        if (pos < end || pos == block_start)
            break;
    }
    *out_io = out;
    return pos;
}

/* §8.1.2 UTF-8 encoder over UTF-16: the block loop, then the general loop
 * for what is left (a pair across the block's end, a short room). */
static codec_status utf8_from_utf16_fast(wenc_encoder *enc,
                                         const uint16_t *src, size_t len,
                                         size_t *consumed, uint8_t *dst,
                                         size_t cap, size_t *written,
                                         bool last)
{
    size_t out = 0, pos = 0;
    if (len > 0 && cap >= len && src[0] < 0x80) {
        /* leading ASCII first: a short call of ASCII (TextEncoder's common
         * case) is done without the block loop's set-up, which costs as
         * much as narrowing 16 units */
        pos = out = wenc_utf16_ascii_to_bytes(src, dst, len);
        if (pos == len) {
            *consumed = pos;
            *written = out;
            return CODEC_INPUT_EMPTY;
        }
    }
    pos += utf16_to_utf8_block(src + pos, len - pos, dst, &out, cap, last);
    if (pos == len) {
        *consumed = pos;
        *written = out;
        return CODEC_INPUT_EMPTY;
    }
    size_t used = 0, wrote = 0;
    codec_status st = utf8_from_utf16(enc, src + pos, len - pos, &used,
                                      dst + out, cap - out, &wrote, last);
    *consumed = pos + used;
    *written = out + wrote;
    return st;
}

/* §8.1.2 UTF-8 encoder over UTF-8: valid input is copied as it is (the
 * vector validator), the general loop reads what stops the copy (an
 * ill-formed sequence, one cut at the end, a full output) four bytes at a
 * time: they hold the first sequence or maximal subpart whole, and one cut
 * by the window's end is read again with the bytes after it. */
static codec_status utf8_from_utf8_fast(wenc_encoder *enc, const uint8_t *src,
                                        size_t len, size_t *consumed,
                                        uint8_t *dst, size_t cap,
                                        size_t *written, bool last)
{
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    for (;;) {
        size_t room = len - pos < cap - out ? len - pos : cap - out;
        size_t valid = wenc_utf8_copy_valid(src + pos, dst + out, room);
        pos += valid;
        out += valid;
        if (pos == len)
            break;
        size_t window = len - pos < 4 ? len - pos : 4;
        size_t used = 0, wrote = 0;
        st = utf8_from_utf8(enc, src + pos, window, &used, dst + out,
                            cap - out, &wrote, pos + window == len && last);
        pos += used;
        out += wrote;
        if (st != CODEC_INPUT_EMPTY || used == 0)
            break;
    }
    *consumed = pos;
    *written = out;
    return st;
}

/* Three bytes per input unit at most: U+FFFD for one ill-formed byte. */
const encoder_codec wenc_utf8_encoder = {
    .from_utf8 = utf8_from_utf8_fast,
    .from_utf16 = utf8_from_utf16_fast,
    .max_per_unit = 3,
    .max_closing = 0,
};

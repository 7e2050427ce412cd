/* UTF-16BE and UTF-16LE (§14.2–§14.4): the shared UTF-16 decoder. */
#include "loops.h"
#include "../simd/utf8_simd.h"

/*
 * State: state_[0] = 1 when a lead byte is held in bytes_[0]; code_point_ =
 * the lead surrogate (0 = none; a lead surrogate is never 0).
 */

/* The two bytes of a code unit in stream order. */
static void unit_bytes(uint32_t unit, int be, uint8_t out[2])
{
    out[be ? 0 : 1] = (uint8_t)(unit >> 8);
    out[be ? 1 : 0] = (uint8_t)(unit & 0xFF);
}

/* Copies whole code units that are not surrogates to d[*out..cap), four at
 * a time as one 64-bit word, stopping before a word that holds a surrogate;
 * returns the units copied. */
static size_t bmp_units_to_utf16(const uint8_t *s, size_t units, int be,
                                 uint16_t *d, size_t *out_io, size_t cap)
{
    const uint64_t lanes = UINT64_C(0x0001000100010001);
    const bool swap = (be != 0) == host_is_little_endian();
    size_t out = *out_io;
    size_t n = units < cap - out ? units : cap - out;
    size_t i = 0;
    for (; n - i >= 4; i += 4) {
        uint64_t four;
        memcpy(&four, s + 2 * i, sizeof four);
        if (swap)
            four = ((four >> 8) & (lanes * 0x00FF)) |
                   ((four & (lanes * 0x00FF)) << 8);
        /* a lane is a surrogate when its top five bits are 11011 */
        uint64_t x = (four & (lanes * 0xF800)) ^ (lanes * 0xD800);
        if ((x - lanes) & ~x & (lanes * 0x8000))
            break;
        memcpy(d + out + i, &four, sizeof four);
    }
    *out_io = out + i;
    return i;
}

/* Converts whole code units to UTF-8 at d[*out..cap) while the room holds
 * 3 bytes a unit: utf16_to_utf8_steps() (which takes surrogate pairs where
 * it meets them), then the last units one at a time, written here
 * (sink_put() measured slower on Russian text). Stops before a lone
 * surrogate, and in the last units before any. Returns the units
 * read; bytes past those it reports may have been written, within the
 * room. */
static size_t bmp_units_to_utf8(const uint8_t *s, size_t units, int be,
                                uint8_t *d, size_t *out_io, size_t cap)
{
    const size_t low = be ? 1 : 0; /* the byte of a unit with its low bits */
    size_t out = *out_io;
    size_t n = units < (cap - out) / 3 ? units : (cap - out) / 3;
    size_t i = n >= 9 ? utf16_to_utf8_steps(s, n, be != 0, d, &out, 9) : 0;
    for (; i < n; i++) {
        uint32_t unit = (uint32_t)s[2 * i + 1 - low] << 8 | s[2 * i + low];
        if (unit < 0x80) {
            d[out++] = (uint8_t)unit;
        } else if (unit < 0x800) {
            d[out] = (uint8_t)(0xC0 | (unit >> 6));
            d[out + 1] = (uint8_t)(0x80 | (unit & 0x3F));
            out += 2;
        } else if ((unit & 0xF800) != 0xD800) {
            d[out] = (uint8_t)(0xE0 | (unit >> 12));
            d[out + 1] = (uint8_t)(0x80 | ((unit >> 6) & 0x3F));
            d[out + 2] = (uint8_t)(0x80 | (unit & 0x3F));
            out += 3;
        } else {
            break;
        }
    }
    *out_io = out;
    return i;
}

#ifdef WENC_HAVE_RUNTIME_AVX512
/* Decodes whole code units 32 at a time (bytes swapped for the other byte
 * order): to UTF-16 while they are not surrogates or are whole pairs, stored
 * as they are; to UTF-8 while they are not surrogates, packed by
 * utf8_pack32_avx512. Stops before anything else, or with fewer than 32
 * units left; the caller leaves room for them (3 bytes each to UTF-8).
 * Returns the units read; the units or bytes written go to *written. */
WENC_TARGET_AVX512 static size_t utf16_units_avx512(const uint8_t *s,
                                                    size_t units, bool swap,
                                                    void *dst, int utf16,
                                                    size_t *written)
{
    const __m512i swap_bytes = _mm512_set_epi64(
        0x0E0F0C0D0A0B0809, 0x0607040502030001, 0x0E0F0C0D0A0B0809,
        0x0607040502030001, 0x0E0F0C0D0A0B0809, 0x0607040502030001,
        0x0E0F0C0D0A0B0809, 0x0607040502030001);
    const __m512i ten_bits = _mm512_set1_epi16((short)0xFC00);
    const __m512i five_bits = _mm512_set1_epi16((short)0xF800);
    const __m512i surrogate = _mm512_set1_epi16((short)0xD800);
    size_t i = 0, out = 0;
    /* To UTF-16, 64 units a step while none is a surrogate: a copy */
    while (utf16 && units - i >= 64) {
        __m512i a = _mm512_loadu_si512((const void *)(s + 2 * i));
        __m512i b = _mm512_loadu_si512((const void *)(s + 2 * i + 64));
        if (swap) {
            a = _mm512_shuffle_epi8(a, swap_bytes);
            b = _mm512_shuffle_epi8(b, swap_bytes);
        }
        if ((_mm512_cmpeq_epi16_mask(_mm512_and_si512(a, five_bits), surrogate) |
             _mm512_cmpeq_epi16_mask(_mm512_and_si512(b, five_bits), surrogate)) != 0)
            break;
        uint16_t *d = (uint16_t *)dst + out;
        _mm512_storeu_si512((void *)d, a);
        _mm512_storeu_si512((void *)(d + 32), b);
        i += 64;
        out += 64;
    }
    while (units - i >= 32) {
        __m512i v = _mm512_loadu_si512((const void *)(s + 2 * i));
        if (swap)
            v = _mm512_shuffle_epi8(v, swap_bytes);
        __m512i top = _mm512_and_si512(v, ten_bits);
        uint32_t lead = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16((short)0xD800));
        uint32_t trail = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16((short)0xDC00));
        unsigned count = 32;
        if (utf16) {
            uint32_t fine = ~(lead | trail) | (lead & trail >> 1) | (trail & lead << 1);
            if (fine != ~0u)
                count = (unsigned)__builtin_ctz(~fine);
            _mm512_mask_storeu_epi16((void *)((uint16_t *)dst + out),
                                     _bzhi_u32(~0u, count), v);
            out += count;
        } else if (_mm512_test_epi16_mask(v, _mm512_set1_epi16((short)0xFF80)) == 0) {
            _mm256_storeu_si256((__m256i *)(void *)((uint8_t *)dst + out),
                                _mm512_cvtepi16_epi8(v));
            out += 32;
        } else {
            if ((lead | trail) != 0)
                count = (unsigned)__builtin_ctz(lead | trail);
            out += utf8_pack32_avx512(v, count, (uint8_t *)dst + out);
        }
        i += count;
        if (count < 32)
            break;
    }
    *written = out;
    return i;
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX2
/* The 16 code units at s, in the host's order when `swap`. */
WENC_TARGET_AVX2 static inline __m256i utf16_load16_avx2(const uint8_t *s,
                                                         bool swap)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
    if (swap)
        v = _mm256_shuffle_epi8(
            v, _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12,
                                15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
                                13, 12, 15, 14));
    return v;
}

/* Bit i: lane i of the 16 is all ones. */
WENC_TARGET_AVX2 static inline uint32_t utf16_lanes16_avx2(__m256i lanes)
{
    return (uint32_t)_mm_movemask_epi8(
        _mm_packs_epi16(_mm256_castsi256_si128(lanes),
                        _mm256_extracti128_si256(lanes, 1)));
}

/* What utf16_units_avx512 does, 16 units a step: to UTF-16 while the units
 * are not surrogates or are whole pairs, stored as they are; to UTF-8 while
 * they are not surrogates, ASCII narrowed and the rest packed 16 at a time
 * (utf8_pack16_one_or_two_avx2(), utf8_pack16_three_avx2(),
 * utf8_pack16_avx2()), or by halves (utf8_pack8_avx2()) before a surrogate,
 * whose stores may reach 12 bytes past their output while 14 units or more
 * follow. Stops before anything else, or with fewer than
 * 16 units left; the caller leaves room for them (3 bytes each to UTF-8).
 * Returns the units read; the units or bytes written go to *written. */
WENC_TARGET_AVX2 static size_t utf16_units_avx2(const uint8_t *s,
                                                size_t units, bool swap,
                                                void *dst, int utf16,
                                                size_t *written)
{
    const __m256i ten_bits = _mm256_set1_epi16((short)0xFC00);
    const __m256i five_bits = _mm256_set1_epi16((short)0xF800);
    const __m256i surrogate = _mm256_set1_epi16((short)0xD800);
    const __m256i non_ascii = _mm256_set1_epi16((short)0xFF80);
    size_t i = 0, out = 0;
    /* To UTF-16, 32 units a step while none is a surrogate: a copy */
    while (utf16 && units - i >= 32) {
        __m256i a = utf16_load16_avx2(s + 2 * i, swap);
        __m256i b = utf16_load16_avx2(s + 2 * i + 32, swap);
        __m256i found = _mm256_or_si256(
            _mm256_cmpeq_epi16(_mm256_and_si256(a, five_bits), surrogate),
            _mm256_cmpeq_epi16(_mm256_and_si256(b, five_bits), surrogate));
        if (!_mm256_testz_si256(found, found))
            break;
        uint16_t *d = (uint16_t *)dst + out;
        _mm256_storeu_si256((__m256i *)(void *)d, a);
        _mm256_storeu_si256((__m256i *)(void *)(d + 16), b);
        i += 32;
        out += 32;
    }
    while (units - i >= 16) {
        __m256i v = utf16_load16_avx2(s + 2 * i, swap);
        unsigned count = 16;
        if (utf16) {
            __m256i top = _mm256_and_si256(v, ten_bits);
            uint32_t lead = utf16_lanes16_avx2(
                _mm256_cmpeq_epi16(top, _mm256_set1_epi16((short)0xD800)));
            uint32_t trail = utf16_lanes16_avx2(
                _mm256_cmpeq_epi16(top, _mm256_set1_epi16((short)0xDC00)));
            uint32_t fine = (~(lead | trail) | (lead & trail >> 1) |
                             (trail & lead << 1)) & 0xFFFF;
            if (fine != 0xFFFF) {
                count = (unsigned)__builtin_ctz(~fine);
                uint16_t units16[16];
                _mm256_storeu_si256((__m256i *)(void *)units16, v);
                memcpy((uint16_t *)dst + out, units16, count * sizeof units16[0]);
            } else {
                _mm256_storeu_si256(
                    (__m256i *)(void *)((uint16_t *)dst + out), v);
            }
            out += count;
        } else if (_mm256_testz_si256(v, non_ascii)) {
            _mm_storeu_si128(
                (__m128i *)(void *)((uint8_t *)dst + out),
                _mm_packus_epi16(_mm256_castsi256_si128(v),
                                 _mm256_extracti128_si256(v, 1)));
            out += 16;
            i += 16;
            /* the rest of an ASCII run, 32 units a step */
            while (units - i >= 32) {
                __m256i a = utf16_load16_avx2(s + 2 * i, swap);
                __m256i b = utf16_load16_avx2(s + 2 * i + 32, swap);
                if (!_mm256_testz_si256(_mm256_or_si256(a, b), non_ascii))
                    break;
                _mm256_storeu_si256(
                    (__m256i *)(void *)((uint8_t *)dst + out),
                    _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
                out += 32;
                i += 32;
            }
            continue;
        } else if (_mm256_testz_si256(v, five_bits) && units - i >= 16 + 14) {
            /* units of one and two bytes (Latin, Cyrillic, Greek, Hebrew,
             * Arabic), 16 at once */
            __m256i over1 = _mm256_cmpgt_epi16(v, _mm256_set1_epi16(0x7F));
            unsigned forms = (unsigned)_mm256_movemask_epi8(
                _mm256_packs_epi16(over1, _mm256_setzero_si256()));
            out += utf8_pack16_one_or_two_avx2(v, over1, forms,
                                               (uint8_t *)dst + out);
        } else if (units - i >= 16 + 14 && utf8_all_three16_avx2(v)) {
            /* 16 units of three bytes (Chinese, Japanese, Thai) */
            utf8_pack16_three_avx2(v, (uint8_t *)dst + out);
            out += 48;
        } else if (units - i >= 16 + 14 && utf8_no_surrogate16_avx2(v)) {
            /* units of every length (Korean, Vietnamese) */
            out += utf8_pack16_avx2(v, (uint8_t *)dst + out);
        } else {
            uint32_t surrogates = utf16_lanes16_avx2(
                _mm256_cmpeq_epi16(_mm256_and_si256(v, five_bits), surrogate));
            /* whole halves without a surrogate; the codec's loop takes the
             * rest */
            count = surrogates == 0 ? 16 : (surrogates & 0xFF) == 0 ? 8 : 0;
            uint8_t *d = (uint8_t *)dst + out;
            if (count > 0)
                out += utf8_pack8_avx2(_mm256_castsi256_si128(v), d,
                                       units - i >= 8 + 14);
            if (count > 8)
                out += utf8_pack8_avx2(_mm256_extracti128_si256(v, 1),
                                       (uint8_t *)dst + out,
                                       units - i >= 16 + 14);
        }
        i += count;
        if (count < 16)
            break;
    }
    *written = out;
    return i;
}
#endif

#ifdef WENC_HAVE_NEON
/* The 8 code units at s, in the host's order when `swap`. */
static inline uint16x8_t utf16_load8_neon(const uint8_t *s, bool swap)
{
    uint8x16_t v = vld1q_u8(s);
    return vreinterpretq_u16_u8(swap ? vrev16q_u8(v) : v);
}

/* Whether any of the 8 units of v is a surrogate. */
static inline bool utf16_any_surrogate_neon(uint16x8_t v)
{
    return vmaxvq_u16(vceqq_u16(vandq_u16(v, vdupq_n_u16(0xF800)),
                                vdupq_n_u16(0xD800))) != 0;
}

/* What utf16_units_avx2 does, with NEON: 8 units a step, 32 while a copy
 * to UTF-16 or an ASCII run to UTF-8 lasts, utf8_pack8_neon() for the
 * rest. The caller leaves room for the units (3 bytes each to UTF-8). */
static size_t utf16_units_neon(const uint8_t *s, size_t units, bool swap,
                               void *dst, int utf16, size_t *written)
{
    size_t i = 0, out = 0;
    while (utf16 && units - i >= 32) {
        uint16x8_t a = utf16_load8_neon(s + 2 * i, swap);
        uint16x8_t b = utf16_load8_neon(s + 2 * i + 16, swap);
        uint16x8_t c = utf16_load8_neon(s + 2 * i + 32, swap);
        uint16x8_t d = utf16_load8_neon(s + 2 * i + 48, swap);
        /* the top five bits of a surrogate are its only ones at 11011 */
        uint16x8_t five_bits = vdupq_n_u16(0xF800);
        uint16x8_t tops = vorrq_u16(
            vorrq_u16(vceqq_u16(vandq_u16(a, five_bits), vdupq_n_u16(0xD800)),
                      vceqq_u16(vandq_u16(b, five_bits), vdupq_n_u16(0xD800))),
            vorrq_u16(vceqq_u16(vandq_u16(c, five_bits), vdupq_n_u16(0xD800)),
                      vceqq_u16(vandq_u16(d, five_bits), vdupq_n_u16(0xD800))));
        if (vmaxvq_u16(tops) != 0)
            break;
        uint16x8x4_t copy = {{a, b, c, d}};
        vst1q_u16_x4((uint16_t *)dst + out, copy);
        i += 32;
        out += 32;
    }
    while (units - i >= 8) {
        uint16x8_t v = utf16_load8_neon(s + 2 * i, swap);
        size_t count = 8;
        if (utf16) {
            uint16x8_t top = vandq_u16(v, vdupq_n_u16(0xFC00));
            uint8x8_t lead = vmovn_u16(vceqq_u16(top, vdupq_n_u16(0xD800)));
            uint8x8_t trail = vmovn_u16(vceqq_u16(top, vdupq_n_u16(0xDC00)));
            unsigned bits = utf8_lane_bits_neon(vcombine_u8(lead, trail));
            unsigned leads = bits & 0xFF, trails = bits >> 8;
            unsigned fine = (~(leads | trails) | (leads & trails >> 1) |
                             (trails & leads << 1)) & 0xFF;
            vst1q_u16((uint16_t *)dst + out, v);
            if (fine != 0xFF)
                count = (size_t)__builtin_ctz(~fine);
            out += count;
        } else if (vmaxvq_u16(v) < 0x80) {
            vst1_u8((uint8_t *)dst + out, vmovn_u16(v));
            out += 8;
            i += 8;
            /* the rest of an ASCII run, 32 units a step */
            while (units - i >= 32) {
                uint16x8_t a = utf16_load8_neon(s + 2 * i, swap);
                uint16x8_t b = utf16_load8_neon(s + 2 * i + 16, swap);
                uint16x8_t c = utf16_load8_neon(s + 2 * i + 32, swap);
                uint16x8_t d = utf16_load8_neon(s + 2 * i + 48, swap);
                if (vmaxvq_u16(vorrq_u16(vorrq_u16(a, b), vorrq_u16(c, d))) >= 0x80)
                    break;
                uint8x16x2_t bytes = {{vcombine_u8(vmovn_u16(a), vmovn_u16(b)),
                                       vcombine_u8(vmovn_u16(c), vmovn_u16(d))}};
                vst1q_u8_x2((uint8_t *)dst + out, bytes);
                out += 32;
                i += 32;
            }
            continue;
        } else if (utf16_any_surrogate_neon(v)) {
            count = 0; /* the codec's loop takes it */
        } else {
            out += utf8_pack8_neon(v, (uint8_t *)dst + out, units - i >= 8 + 14);
        }
        i += count;
        if (count < 8)
            break;
    }
    *written = out;
    return i;
}
#endif

/* §14.2.1 shared UTF-16 decoder */
WENC_INLINE codec_status utf16_decode(wenc_decoder *dec, const uint8_t *src,
                                      size_t len, size_t *consumed, void *dst,
                                      size_t cap, size_t *written, bool last,
                                      int utf16)
{
    const int be = dec->encoding_ == WENC_UTF_16BE;
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    int have_lead = dec->state_[0];
    uint8_t lead_byte = dec->bytes_[0];
    uint32_t lead_surrogate = dec->code_point_;
    uint8_t held[3];
#ifdef WENC_HAVE_RUNTIME_AVX2
#ifdef WENC_HAVE_RUNTIME_AVX512
    bool avx512 = len >= 64 && wenc_cpu_has_avx512();
#endif
    bool avx2 = len >= 32 && wenc_cpu_has_avx2();
#endif

    for (;;) {
#if defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
        if (!have_lead && !lead_surrogate) {
            size_t room = utf16 ? cap - out : (cap - out) / 3;
            size_t units = (len - pos) / 2 < room ? (len - pos) / 2 : room;
            void *at = utf16 ? (void *)((uint16_t *)dst + out)
                             : (void *)((uint8_t *)dst + out);
            bool swap = (be != 0) == host_is_little_endian();
            size_t made = 0;
#ifdef WENC_HAVE_NEON
            pos += 2 * utf16_units_neon(src + pos, units, swap, at, utf16,
                                        &made);
#endif
#ifdef WENC_HAVE_RUNTIME_AVX512
            if (avx512 && !utf16 && !swap &&
                ((uintptr_t)(const void *)(src + pos) & 1) == 0)
                /* units in the host's order: the UTF-8 encoder's kernel */
                pos += 2 * wenc_utf16_to_utf8_avx512(
                               (const uint16_t *)(const void *)(src + pos),
                               units, (uint8_t *)at, &made);
            else if (avx512)
                pos += 2 * utf16_units_avx512(src + pos, units, swap, at,
                                              utf16, &made);
            else
#endif
#ifdef WENC_HAVE_RUNTIME_AVX2
            if (avx2 && !utf16 && !swap &&
                ((uintptr_t)(const void *)(src + pos) & 1) == 0)
                /* units in the host's order: the UTF-8 encoder's kernel */
                pos += 2 * wenc_utf16_to_utf8_avx2(
                               (const uint16_t *)(const void *)(src + pos),
                               units, (uint8_t *)at, &made);
            else if (avx2)
                pos += 2 * utf16_units_avx2(src + pos, units, swap, at, utf16,
                                            &made);
#endif
            out += made;
        }
#endif
        if (!have_lead && !lead_surrogate && utf16)
            pos += 2 * bmp_units_to_utf16(src + pos, (len - pos) / 2, be,
                                          (uint16_t *)dst, &out, cap);
        else if (!have_lead && !lead_surrogate)
            pos += 2 * bmp_units_to_utf8(src + pos, (len - pos) / 2, be,
                                         (uint8_t *)dst, &out, cap);
        if (!have_lead && !lead_surrogate) {
            /* Whole BMP code units that need no state. */
            while (len - pos >= 2) {
                uint32_t unit = be ? (uint32_t)src[pos] << 8 | src[pos + 1]
                                   : (uint32_t)src[pos + 1] << 8 | src[pos];
                if ((unit & 0xF800) == 0xD800)
                    break;
                if (cap - out < sink_units(unit, utf16)) {
                    st = CODEC_OUTPUT_FULL;
                    goto done;
                }
                out = sink_put(dst, out, unit, utf16);
                pos += 2;
            }
        }
        if (pos == len) {
            if (last && (have_lead || lead_surrogate)) {
                size_t n = 0;
                if (lead_surrogate) {
                    unit_bytes(lead_surrogate, be, held);
                    n = 2;
                }
                if (have_lead)
                    held[n++] = lead_byte;
                st = sink_error(dec, held, n, NULL, 0, dst, cap, &out, utf16);
                if (st != CODEC_OUTPUT_FULL)
                    have_lead = 0, lead_surrogate = 0;
            }
            goto done;
        }
        uint8_t b = src[pos];
        if (!have_lead) {
            have_lead = 1;
            lead_byte = b;
            pos++;
            continue;
        }
        uint32_t unit = be ? (uint32_t)lead_byte << 8 | b
                           : (uint32_t)b << 8 | lead_byte;
        if (lead_surrogate) {
            if (unit >= 0xDC00 && unit <= 0xDFFF) {
                uint32_t cp = 0x10000 + ((lead_surrogate - 0xD800) << 10) +
                              (unit - 0xDC00);
                if (cap - out < sink_units(cp, utf16)) {
                    st = CODEC_OUTPUT_FULL;
                    goto done;
                }
                out = sink_put(dst, out, cp, utf16);
                pos++;
                have_lead = 0;
                lead_surrogate = 0;
                continue;
            }
            unit_bytes(lead_surrogate, be, held);
            st = sink_error(dec, held, 2, NULL, 0, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                goto done;
            /* Restore the code unit's two bytes: b is still unread; its lead
             * byte is the byte before it, in src or from an earlier call. */
            lead_surrogate = 0;
            have_lead = 0;
            if (pos > 0) {
                pos--;
            } else {
                wenc_decoder_push_replay(dec, &lead_byte, 1);
                if (st != CODEC_ERROR)
                    st = CODEC_REPLAY;
                goto done;
            }
            if (st == CODEC_ERROR)
                goto done;
            continue;
        }
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            lead_surrogate = unit;
            have_lead = 0;
            pos++;
            continue;
        }
        if (unit >= 0xDC00 && unit <= 0xDFFF) {
            held[0] = lead_byte;
            held[1] = b;
            st = sink_error(dec, held, 2, NULL, 0, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                goto done;
            pos++;
            have_lead = 0;
            if (st == CODEC_ERROR)
                goto done;
            continue;
        }
        if (cap - out < sink_units(unit, utf16)) {
            st = CODEC_OUTPUT_FULL;
            goto done;
        }
        out = sink_put(dst, out, unit, utf16);
        pos++;
        have_lead = 0;
    }
done:
    dec->state_[0] = (uint8_t)have_lead;
    dec->bytes_[0] = lead_byte;
    dec->code_point_ = lead_surrogate;
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_DECODE_SINKS(utf16, utf16_decode)

static size_t utf16_held(const wenc_decoder *dec, uint8_t *bytes)
{
    size_t n = 0;
    uint8_t local[3];
    uint8_t *out = bytes ? bytes : local;
    if (dec->code_point_) {
        unit_bytes(dec->code_point_, dec->encoding_ == WENC_UTF_16BE, out);
        n = 2;
    }
    if (dec->state_[0])
        out[n++] = dec->bytes_[0];
    return n;
}

const decoder_codec wenc_utf16_decoder = {
    .to_utf8 = utf16_to_utf8,
    .to_utf16 = utf16_to_utf16,
    .held = utf16_held,
};

/* Writes the code unit u at d, little- or big-endian. */
WENC_INLINE void utf16_unit_put(uint8_t *d, uint32_t u, bool big_endian)
{
    d[big_endian ? 0 : 1] = (uint8_t)(u >> 8);
    d[big_endian ? 1 : 0] = (uint8_t)u;
}

/* Extension, beyond the Standard (which has no UTF-16 encoder): each code
 * point as its UTF-16 code unit, or a surrogate pair from U+10000 on; the
 * input read as every encoder reads it (§8.1.1 for UTF-8, unpaired
 * surrogates as U+FFFD). */
WENC_INLINE codec_status utf16_encode(wenc_encoder *enc, const void *src,
                                      size_t len, size_t *consumed,
                                      uint8_t *dst, size_t cap,
                                      size_t *written, bool last, int utf16)
{
    bool big_endian = enc->encoding_ == WENC_UTF_16BE;
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    while (pos < len) {
        uint32_t cp = reader_unit(src, pos, utf16);
        size_t k = 1;
        if (cp >= 0x80) {
            k = reader_next(src, pos, len, last, &cp, utf16);
            if (k == 0)
                break; /* held for the next call */
        }
        size_t size = cp >= 0x10000 ? 4 : 2;
        if (cap - out < size) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        if (cp >= 0x10000) {
            utf16_unit_put(dst + out, 0xD800 | (cp - 0x10000) >> 10,
                           big_endian);
            utf16_unit_put(dst + out + 2, 0xDC00 | (cp & 0x3FF), big_endian);
        } else {
            utf16_unit_put(dst + out, cp, big_endian);
        }
        out += size;
        pos += k;
    }
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_ENCODE_READERS(utf16, utf16_encode)

/* Two bytes for each input unit: an ASCII byte, a sequence of two or three
 * UTF-8 bytes, a UTF-16 unit; four for a four-byte sequence or a pair. */
const encoder_codec wenc_utf16_encoder = {
    .from_utf8 = utf16_from_utf8,
    .from_utf16 = utf16_from_utf16,
    .max_per_unit = 2,
    .max_closing = 0,
};

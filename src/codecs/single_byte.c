/* The legacy single-byte encodings (§9): one decoder and one encoder over
 * the index of the encoding in use (src/tables/single_byte.c). */
#include "loops.h"
#include "../simd/utf8_simd.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define SB_HAVE_SSE2 1
#endif

#ifdef WENC_HAVE_RUNTIME_AVX2
#include <immintrin.h>
#endif

static const single_byte_table *table_of(int id)
{
    if (id == WENC_X_USER_DEFINED)
        return &wenc_x_user_defined_table;
    return &wenc_single_byte_tables[id - WENC_IBM866];
}

#ifdef SB_HAVE_SSE2
/* The table's linear ranges as vectors: a byte b is in range i when
 * (b - first[i]) mod 256 <= span[i], unsigned. */
typedef struct sb_linear {
    __m128i first[2], span[2], delta;
} sb_linear;

static void sb_linear_init(sb_linear *lin, const single_byte_table *table)
{
    for (int i = 0; i < 2; i++) {
        lin->first[i] = _mm_set1_epi8((char)table->linear_first[i]);
        lin->span[i] = _mm_set1_epi8(
            (char)(table->linear_last[i] - table->linear_first[i]));
    }
    lin->delta = _mm_set1_epi16((short)table->linear_delta);
}

WENC_INLINE __m128i sb_in_range(__m128i bytes, __m128i first, __m128i span)
{
    __m128i offset = _mm_sub_epi8(bytes, first);
    return _mm_cmpeq_epi8(_mm_min_epu8(offset, span), offset);
}

typedef enum { LINEAR_NONE, LINEAR_DONE, LINEAR_ASCII } linear_result;

/* Decodes 16 bytes to d[0..16) when each is ASCII (a NUL included) or in a
 * linear range, and some is not ASCII, with no table; else writes nothing
 * and says whether all 16 are ASCII (for the ASCII kernel, which is
 * faster). */
WENC_INLINE linear_result sb_linear16(const uint8_t *s, const sb_linear *lin,
                                      uint16_t *d)
{
    __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i ascii = _mm_cmpgt_epi8(bytes, _mm_set1_epi8(-1));
    __m128i known = _mm_or_si128(
        ascii, _mm_or_si128(sb_in_range(bytes, lin->first[0], lin->span[0]),
                            sb_in_range(bytes, lin->first[1], lin->span[1])));
    if (_mm_movemask_epi8(known) != 0xFFFF)
        return LINEAR_NONE;
    if (_mm_movemask_epi8(ascii) == 0xFFFF)
        return LINEAR_ASCII;
    __m128i zero = _mm_setzero_si128();
    __m128i low = _mm_unpacklo_epi8(bytes, zero);
    __m128i high = _mm_unpackhi_epi8(bytes, zero);
    __m128i add_low =
        _mm_andnot_si128(_mm_unpacklo_epi8(ascii, ascii), lin->delta);
    __m128i add_high =
        _mm_andnot_si128(_mm_unpackhi_epi8(ascii, ascii), lin->delta);
    _mm_storeu_si128((__m128i *)(void *)d, _mm_add_epi16(low, add_low));
    _mm_storeu_si128((__m128i *)(void *)(d + 8),
                     _mm_add_epi16(high, add_high));
    return LINEAR_DONE;
}
#endif

#if defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
/* The UTF-8 of a unit from U+0080 on at dst, two or three bytes; returns
 * how many (the sparse loops' own: sink_put(), which tests for one and four
 * bytes too, measured 6-12% slower on French and Czech). */
WENC_INLINE size_t sb_put_two_or_three(uint8_t *dst, uint32_t unit)
{
    if (unit < 0x800) {
        dst[0] = (uint8_t)(0xC0 | unit >> 6);
        dst[1] = (uint8_t)(0x80 | (unit & 0x3F));
        return 2;
    }
    dst[0] = (uint8_t)(0xE0 | unit >> 12);
    dst[1] = (uint8_t)(0x80 | (unit >> 6 & 0x3F));
    dst[2] = (uint8_t)(0x80 | (unit & 0x3F));
    return 3;
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX2
/* The table's upper half in registers as two byte planes (low and high byte
 * of each unit) of eight 16-entry groups, looked up with PSHUFB: the index
 * byte b ^ 0x80 minus 16 * g picks entry (b & 15) of group g for groups up
 * to b's own and gives 0 for later ones (the index is negative), so with
 * group g stored as the XOR of table groups g and g - 1, the XOR of the
 * eight lookups is b's unit. */
typedef struct sb_planes_avx2 {
    __m256i low[8], high[8];
} sb_planes_avx2;

/* Entry `index` (0-127 in each byte) of the 128 held as XOR-chained groups
 * of 16, as above. */
WENC_TARGET_AVX2 static inline __m256i
sb_groups_lookup_avx2(const __m256i groups[8], __m256i index)
{
    __m256i found = _mm256_shuffle_epi8(groups[0], index);
    for (size_t g = 1; g < 8; g++) {
        index = _mm256_sub_epi8(index, _mm256_set1_epi8(16));
        found = _mm256_xor_si256(found, _mm256_shuffle_epi8(groups[g], index));
    }
    return found;
}

WENC_TARGET_AVX2 static void sb_planes_init_avx2(sb_planes_avx2 *planes,
                                                 const uint16_t *code_point_of)
{
    const __m256i split_planes = _mm256_setr_epi8(
        0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, /* lane 0 */
        0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    __m256i previous_low = _mm256_setzero_si256();
    __m256i previous_high = _mm256_setzero_si256();
    for (size_t g = 0; g < 8; g++) {
        __m256i units = _mm256_loadu_si256(
            (const __m256i *)(const void *)(code_point_of + 0x80 + 16 * g));
        /* 64-bit quarters: low bytes 0-7, 8-15, then high bytes 0-7, 8-15 */
        __m256i split = _mm256_permute4x64_epi64(
            _mm256_shuffle_epi8(units, split_planes), 0xD8);
        __m256i low = _mm256_broadcastsi128_si256(
            _mm256_castsi256_si128(split));
        __m256i high = _mm256_broadcastsi128_si256(
            _mm256_extracti128_si256(split, 1));
        planes->low[g] = _mm256_xor_si256(low, previous_low);
        planes->high[g] = _mm256_xor_si256(high, previous_high);
        previous_low = low;
        previous_high = high;
    }
}

/* The units of the 32 bytes, not all ASCII, as byte planes (*low: ASCII
 * bytes kept; *high: 0 for them); false when one is unmapped. */
WENC_TARGET_AVX2 static inline bool sb_lookup32_avx2(
    const sb_planes_avx2 *planes, __m256i bytes, __m256i *low, __m256i *high)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i upper = _mm256_cmpgt_epi8(zero, bytes);
    __m256i index = _mm256_xor_si256(bytes, _mm256_set1_epi8((char)0x80));
    __m256i found_low = sb_groups_lookup_avx2(planes->low, index);
    __m256i found_high = sb_groups_lookup_avx2(planes->high, index);
    __m256i unmapped = _mm256_and_si256(
        _mm256_cmpeq_epi8(_mm256_or_si256(found_low, found_high), zero),
        upper);
    *high = _mm256_and_si256(found_high, upper);
    *low = _mm256_blendv_epi8(bytes, found_low, upper);
    return _mm256_testz_si256(unmapped, unmapped);
}

/* Whether each byte is in a linear range of the table (sb_linear's test). */
WENC_TARGET_AVX2 static inline uint32_t
sb_linear_bits_avx2(__m256i bytes, const __m256i first[2],
                    const __m256i span[2])
{
    __m256i in_range = _mm256_setzero_si256();
    for (int i = 0; i < 2; i++) {
        __m256i offset = _mm256_sub_epi8(bytes, first[i]);
        in_range = _mm256_or_si256(
            in_range,
            _mm256_cmpeq_epi8(_mm256_min_epu8(offset, span[i]), offset));
    }
    return (uint32_t)_mm256_movemask_epi8(in_range);
}

/* The run of ASCII at the start of s[0..n), 64 bytes a step, copied to
 * dst; returns its length (a multiple of 64). */
WENC_TARGET_AVX2 static inline size_t sb_ascii_run64_avx2(const uint8_t *s,
                                                          size_t n,
                                                          uint8_t *dst)
{
    size_t run = 0;
    while (n - run >= 64) {
        __m256i next0 =
            _mm256_loadu_si256((const __m256i *)(const void *)(s + run));
        __m256i next1 =
            _mm256_loadu_si256((const __m256i *)(const void *)(s + run + 32));
        if (_mm256_movemask_epi8(_mm256_or_si256(next0, next1)))
            break;
        _mm256_storeu_si256((__m256i *)(void *)(dst + run), next0);
        _mm256_storeu_si256((__m256i *)(void *)(dst + run + 32), next1);
        run += 64;
    }
    return run;
}

/* To UTF-8, blocks with at most this many upper bytes (one in 4 bytes:
 * Latin-script text) go to sb_sparse_to_utf8_avx2(): 8 measured faster
 * than 1, 4, 6 and 12 on French, German, Czech, Turkish and Vietnamese. */
enum { SB_SPARSE_UPPER = 8 };

/* Decodes text whose upper bytes are sparse (Latin-script text) to UTF-8,
 * 32 bytes a step: a block of ASCII as it is (and the run of ASCII after
 * it, 64 bytes a step); from a block with at most SB_SPARSE_UPPER upper
 * bytes, each of them in turn: the ASCII up to it and its sequence. Stops
 * at a block with more, at an unmapped byte, with fewer than 32 bytes left,
 * or at a block not all ASCII with fewer than 64 bytes left (the 32 bytes
 * after its last upper byte are stored again). dst has room for 3 bytes a
 * byte.
 * Returns the bytes read; the bytes written go to *written. */
__attribute__((noinline)) WENC_TARGET_AVX2 static size_t
sb_sparse_to_utf8_avx2(const uint8_t *s, size_t n,
                       const uint16_t *code_point_of, uint8_t *dst,
                       size_t *written)
{
    size_t pos = 0, out = 0;
    while (n - pos >= 32) {
        __m256i bytes =
            _mm256_loadu_si256((const __m256i *)(const void *)(s + pos));
        uint32_t upper = (uint32_t)_mm256_movemask_epi8(bytes);
        _mm256_storeu_si256((__m256i *)(void *)(dst + out), bytes);
        if (upper == 0) {
            size_t run = 32 + sb_ascii_run64_avx2(s + pos + 32, n - pos - 32,
                                                  dst + out + 32);
            out += run;
            pos += run;
            continue;
        }
        if (_mm_popcnt_u32(upper) > SB_SPARSE_UPPER || n - pos < 64)
            break;
        /* each upper byte of the block, its sequence written after the
         * ASCII before it, then the next 32 bytes again after that: the
         * bytes taken come from the block's mask, not from loads that wait
         * on the byte before (the next block may start 31 bytes on) */
        size_t block = pos;
        do {
            size_t at = block + (size_t)__builtin_ctz(upper);
            upper &= upper - 1;
            out += at - pos;
            pos = at;
            uint32_t unit = code_point_of[s[pos]];
            if (unit == 0) {
                *written = out;
                return pos;
            }
            out += sb_put_two_or_three(dst + out, unit);
            pos++;
            _mm256_storeu_si256(
                (__m256i *)(void *)(dst + out),
                _mm256_loadu_si256((const __m256i *)(const void *)(s + pos)));
        } while (upper != 0);
        out += block + 32 - pos;
        pos = block + 32;
    }
    *written = out;
    return pos;
}

/* Decodes 32 bytes a step to UTF-16 or to UTF-8: a block of ASCII as it
 * is, one whose upper bytes are all in the table's linear ranges by one
 * addition, others through the planes; to UTF-8, blocks with few upper
 * bytes (or none) through sb_sparse_to_utf8_avx2(). Stops before a block
 * with an unmapped byte (or at it, in the sparse loop), or with fewer than
 * 32 bytes left. To UTF-8,
 * each 8 bytes that are all ASCII are stored as they are, others packed by
 * utf8_pack8_one_or_two_avx2 where the block's units are all below U+0800
 * (for a linear block, the ranges' are; for the others, the high plane
 * says), else by utf8_pack8_avx2; their stores may reach 12 bytes past
 * their output where more follows in this call. The caller leaves room for
 * a unit or 3 bytes per byte. Returns the bytes read; the units or bytes
 * written go to *written. */
WENC_TARGET_AVX2 WENC_INLINE size_t sb_blocks32_avx2(
    const uint8_t *s, size_t n, const single_byte_table *table, void *dst,
    int utf16, size_t *written)
{
    uint8_t *d = (uint8_t *)dst;
    uint16_t *d16 = (uint16_t *)dst;
    sb_planes_avx2 planes;
    sb_planes_init_avx2(&planes, table->decode);
    __m256i range_first[2], span[2];
    for (int i = 0; i < 2; i++) {
        range_first[i] = _mm256_set1_epi8((char)table->linear_first[i]);
        span[i] = _mm256_set1_epi8(
            (char)(table->linear_last[i] - table->linear_first[i]));
    }
    const __m256i delta = _mm256_set1_epi16((short)table->linear_delta);
    const __m256i zero = _mm256_setzero_si256();
    const bool linear = table->linear_last[0] != 0;
    /* whether the linear ranges' units are all below U+0800 (Latin-1's
     * upper half, Cyrillic, Greek, Hebrew, Arabic): UTF-8 of one or two
     * bytes, packed in 16-bit lanes */
    bool linear_two_byte = linear;
    for (int i = 0; i < 2; i++)
        if (table->linear_last[i] != 0 &&
            ((uint16_t)(table->linear_first[i] + table->linear_delta) > 0x7FF ||
             (uint16_t)(table->linear_last[i] + table->linear_delta) > 0x7FF))
            linear_two_byte = false;
    /* a looked-up block is tested for units below U+0800 unless the table's
     * letters are above (windows-874's Thai: 0.93x with the test) */
    const bool lookup_two_byte = !linear || linear_two_byte;
    size_t pos = 0, out = 0;
    while (n - pos >= 32) {
        __m256i bytes =
            _mm256_loadu_si256((const __m256i *)(const void *)(s + pos));
        uint32_t upper = (uint32_t)_mm256_movemask_epi8(bytes);
        if (!utf16 && _mm_popcnt_u32(upper) <= SB_SPARSE_UPPER) {
            size_t made = 0;
            size_t read = sb_sparse_to_utf8_avx2(s + pos, n - pos,
                                                 table->decode, d + out, &made);
            pos += read;
            out += made;
            if (read == 0)
                break;
            continue;
        }
        if (upper == 0) {
            if (utf16) {
                _mm256_storeu_si256(
                    (__m256i *)(void *)(d16 + out),
                    _mm256_cvtepu8_epi16(_mm256_castsi256_si128(bytes)));
                _mm256_storeu_si256(
                    (__m256i *)(void *)(d16 + out + 16),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(bytes, 1)));
            } else {
                _mm256_storeu_si256((__m256i *)(void *)(d + out), bytes);
            }
            out += 32;
            pos += 32;
            continue;
        }
        __m256i first, second;
        bool two_byte = false;
        if (linear &&
            (upper & ~sb_linear_bits_avx2(bytes, range_first, span)) == 0) {
            two_byte = linear_two_byte;
            __m256i upper_lanes = _mm256_cmpgt_epi8(zero, bytes);
            first = _mm256_add_epi16(
                _mm256_unpacklo_epi8(bytes, zero),
                _mm256_and_si256(
                    _mm256_unpacklo_epi8(upper_lanes, upper_lanes), delta));
            second = _mm256_add_epi16(
                _mm256_unpackhi_epi8(bytes, zero),
                _mm256_and_si256(
                    _mm256_unpackhi_epi8(upper_lanes, upper_lanes), delta));
        } else {
            __m256i low, high;
            if (!sb_lookup32_avx2(&planes, bytes, &low, &high))
                break;
            two_byte = lookup_two_byte &&
                       _mm256_testz_si256(high, _mm256_set1_epi8((char)0xF8));
            first = _mm256_unpacklo_epi8(low, high);
            second = _mm256_unpackhi_epi8(low, high);
        }
        if (utf16) {
            _mm256_storeu_si256((__m256i *)(void *)(d16 + out),
                                _mm256_permute2x128_si256(first, second, 0x20));
            _mm256_storeu_si256((__m256i *)(void *)(d16 + out + 16),
                                _mm256_permute2x128_si256(first, second, 0x31));
            out += 32;
            pos += 32;
            continue;
        }
        /* the units of bytes 0-7, 8-15, 16-23, 24-31 */
        const __m128i groups[4] = {
            _mm256_castsi256_si128(first), _mm256_castsi256_si128(second),
            _mm256_extracti128_si256(first, 1),
            _mm256_extracti128_si256(second, 1)};
        for (unsigned g = 0; g < 4; g++) {
            int spill = g < 2 || n - pos >= 64;
            if ((upper >> (8 * g) & 0xFF) == 0) {
                _mm_storel_epi64((__m128i *)(void *)(d + out),
                                 _mm_packus_epi16(groups[g], groups[g]));
                out += 8;
            } else {
                out += two_byte ? utf8_pack8_one_or_two_avx2(groups[g],
                                                             d + out, spill)
                                : utf8_pack8_avx2(groups[g], d + out, spill);
            }
        }
        pos += 32;
    }
    *written = out;
    return pos;
}

WENC_TARGET_AVX2 static size_t sb_blocks32_utf8_avx2(
    const uint8_t *s, size_t n, const single_byte_table *table, void *dst,
    size_t *written)
{
    return sb_blocks32_avx2(s, n, table, dst, 0, written);
}

WENC_TARGET_AVX2 static size_t sb_blocks32_utf16_avx2(
    const uint8_t *s, size_t n, const single_byte_table *table, void *dst,
    size_t *written)
{
    return sb_blocks32_avx2(s, n, table, dst, 1, written);
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX512
/* Decodes 64 bytes a step: the table's upper half held as two byte planes
 * (the low and high byte of each unit) of 128 entries, each in two
 * registers, which VPERMI2B reads by the byte's low seven bits; ASCII bytes
 * are kept. Units go to UTF-16 as they are, or to UTF-8 packed by
 * utf8_pack32_avx512. Stops at the first unmapped byte, or with fewer than
 * 64 bytes left; the caller leaves room for a unit or 3 bytes per byte.
 * Returns the bytes read; the units written go to *written. */
WENC_TARGET_AVX512 static size_t sb_table64_avx512(const uint8_t *s, size_t n,
                                                   const uint16_t *code_point_of,
                                                   void *dst, int utf16,
                                                   size_t *written)
{
    __m512i low_plane[2], high_plane[2];
    for (size_t h = 0; h < 2; h++) {
        __m512i first = _mm512_loadu_si512(
            (const void *)(code_point_of + 0x80 + 64 * h));
        __m512i second = _mm512_loadu_si512(
            (const void *)(code_point_of + 0x80 + 64 * h + 32));
        low_plane[h] = _mm512_inserti64x4(
            _mm512_castsi256_si512(_mm512_cvtepi16_epi8(first)),
            _mm512_cvtepi16_epi8(second), 1);
        high_plane[h] = _mm512_inserti64x4(
            _mm512_castsi256_si512(
                _mm512_cvtepi16_epi8(_mm512_srli_epi16(first, 8))),
            _mm512_cvtepi16_epi8(_mm512_srli_epi16(second, 8)), 1);
    }
    size_t pos = 0, out = 0;
    while (n - pos >= 64) {
        if (!utf16) {
            /* ASCII to UTF-8, two steps at a time while it lasts */
            while (n - pos >= 128) {
                __m512i a = _mm512_loadu_si512((const void *)(s + pos));
                __m512i b = _mm512_loadu_si512((const void *)(s + pos + 64));
                if (_mm512_movepi8_mask(_mm512_or_si512(a, b)) != 0)
                    break;
                _mm512_storeu_si512((void *)((uint8_t *)dst + out), a);
                _mm512_storeu_si512((void *)((uint8_t *)dst + out + 64), b);
                pos += 128;
                out += 128;
            }
            if (n - pos < 64)
                break;
        }
        __m512i bytes = _mm512_loadu_si512((const void *)(s + pos));
        __mmask64 upper = _mm512_movepi8_mask(bytes);
        if (upper == 0 && !utf16) {
            _mm512_storeu_si512((void *)((uint8_t *)dst + out), bytes);
            pos += 64;
            out += 64;
            continue;
        }
        if (upper == 0) {
            /* ASCII to UTF-16: this step, and the next while they are
             * ASCII too (markup), without the lookups' blends */
            for (;;) {
                uint16_t *d = (uint16_t *)dst + out;
                _mm512_storeu_si512(
                    (void *)d,
                    _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes)));
                _mm512_storeu_si512(
                    (void *)(d + 32),
                    _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(bytes, 1)));
                pos += 64;
                out += 64;
                if (n - pos < 64)
                    break;
                bytes = _mm512_loadu_si512((const void *)(s + pos));
                if (_mm512_movepi8_mask(bytes) != 0)
                    break;
            }
            continue;
        }
        __m512i found_low =
            _mm512_permutex2var_epi8(low_plane[0], bytes, low_plane[1]);
        __m512i found_high =
            _mm512_permutex2var_epi8(high_plane[0], bytes, high_plane[1]);
        uint64_t unmapped = _mm512_mask_cmpeq_epi8_mask(
            upper, _mm512_or_si512(found_low, found_high),
            _mm512_setzero_si512());
        unsigned count =
            unmapped != 0 ? (unsigned)__builtin_ctzll(unmapped) : 64;
        __m512i low = _mm512_mask_blend_epi8(upper, bytes, found_low);
        __m512i high = _mm512_maskz_mov_epi8(upper, found_high);
        __m512i units0 = _mm512_or_si512(
            _mm512_cvtepu8_epi16(_mm512_castsi512_si256(low)),
            _mm512_slli_epi16(
                _mm512_cvtepu8_epi16(_mm512_castsi512_si256(high)), 8));
        __m512i units1 = _mm512_or_si512(
            _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(low, 1)),
            _mm512_slli_epi16(
                _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(high, 1)), 8));
        unsigned count0 = count < 32 ? count : 32;
        if (utf16) {
            uint16_t *d = (uint16_t *)dst + out;
            _mm512_mask_storeu_epi16((void *)d, _bzhi_u32(~0u, count0),
                                     units0);
            if (count > 32)
                _mm512_mask_storeu_epi16((void *)(d + 32),
                                         _bzhi_u32(~0u, count - 32), units1);
            out += count;
        } else {
            uint8_t *d = (uint8_t *)dst + out;
            size_t made = utf8_pack32_avx512(units0, count0, d);
            if (count > 32)
                made += utf8_pack32_avx512(units1, count - 32, d + made);
            out += made;
        }
        pos += count;
        if (count < 64)
            break;
    }
    *written = out;
    return pos;
}
#endif

/* Decodes to UTF-16 with no branch per byte: where SSE2 is available, 16
 * bytes at a time while they are ASCII or in the table's linear ranges; else
 * eight bytes at a time through the decode table, handing words of ASCII to
 * the ASCII kernel. Stops before a word holding a unit 0 (an unmapped byte,
 * or a NUL) or when fewer than 8 bytes are left; returns the bytes read, one
 * unit written for each at d[*out_io..]. */
static size_t sb_words_to_utf16(const uint8_t *s, size_t n,
                                const single_byte_table *table, uint16_t *d,
                                size_t *out_io)
{
    const uint16_t *code_point_of = table->decode;
    size_t pos = 0, out = *out_io;
#ifdef SB_HAVE_SSE2
    /* After the linear path fails, words to take by table before it is
     * tried again: none, then 2, 6, 14, 30 as it keeps failing (text whose
     * letters lie outside the ranges); none again once it succeeds. A table
     * without linear ranges never takes it. */
    unsigned backoff = 0;
    size_t skip = table->linear_last[0] == 0 ? SIZE_MAX : 0;
    sb_linear lin;
    sb_linear_init(&lin, table);
#ifdef WENC_HAVE_RUNTIME_AVX2
    /* After the kernel stops at an unmapped byte: where it may try again */
    size_t kernel_from = 0;
#endif
#endif
    while (n - pos >= 8) {
#ifdef SB_HAVE_SSE2
        if (skip > 0) {
#ifdef WENC_HAVE_RUNTIME_AVX2
            /* The words to take by table go to the AVX2 kernel instead,
             * 32 bytes at least. */
            if (n - pos >= 32 && pos >= kernel_from &&
                wenc_cpu_has_avx2()) {
                size_t limit = n - pos;
                if (skip != SIZE_MAX && skip < limit / 8)
                    limit = skip < 4 ? 32 : skip * 8;
                size_t made = 0;
                size_t taken = sb_blocks32_utf16_avx2(s + pos, limit, table,
                                                      d + out, &made);
                pos += taken;
                out += made;
                if (taken > 0) {
                    if (skip != SIZE_MAX)
                        skip = skip > taken / 8 ? skip - taken / 8 : 0;
                    continue;
                }
                kernel_from = pos + 32;
            }
#endif
            skip--;
        } else if (n - pos >= 16) {
            linear_result r;
            size_t start = pos;
            while ((r = sb_linear16(s + pos, &lin, d + out)) == LINEAR_DONE) {
                pos += 16;
                out += 16;
                if (n - pos < 16)
                    break;
            }
            if (pos > start)
                backoff = 0;
            if (r == LINEAR_DONE)
                continue;
            if (r == LINEAR_ASCII) {
                fast_ascii_step(s, &pos, n, d, &out, 1);
                continue;
            }
            backoff += backoff < 5;
            skip = (1u << backoff) - 2;
        }
#endif
        uint64_t eight;
        memcpy(&eight, s + pos, sizeof eight);
        if ((eight & UINT64_C(0x8080808080808080)) == 0) {
            fast_ascii_step(s, &pos, n, d, &out, 1);
            continue;
        }
        uint16_t units[8];
        uint32_t zero_seen = 0;
        for (int i = 0; i < 8; i++) {
            units[i] = code_point_of[s[pos + i]];
            zero_seen |= (uint32_t)units[i] - 1;
        }
        if (zero_seen & 0x10000)
            break;
        memcpy(d + out, units, sizeof units);
        pos += 8;
        out += 8;
    }
    *out_io = out;
    return pos;
}

#ifdef WENC_HAVE_NEON
/* The second half of a table, entries 80-FF, split for TBX: split[0..1] the
 * low bytes of entries 0-63 and 64-127 of that half, split[2..3] their high
 * bytes. Each is read back as one four-register table in the loops (GCC 12
 * spills four-register tuples kept across a loop, and they would not
 * survive the calls for ASCII). */
static inline void sb_split_upper_neon(const uint16_t *code_point_of,
                                uint8_t split[4][64])
{
    const uint8_t *upper = (const uint8_t *)(code_point_of + 128);
    for (int k = 0; k < 8; k++) {
        uint8x16x2_t bytes = vld2q_u8(upper + 32 * k);
        vst1q_u8(split[k / 4] + 16 * (k % 4), bytes.val[0]);
        vst1q_u8(split[2 + k / 4] + 16 * (k % 4), bytes.val[1]);
    }
}

/* The code units of the 16 bytes b by TBX over split (entries 0-63 of the
 * upper half, then 64-127; ASCII is out of range of both and passes
 * through as the low byte), as low and high bytes; true when none is an
 * unmapped byte (its entry 0). */
static inline bool sb_units16_neon(uint8x16_t b, uint8_t split[4][64],
                                   uint8x16_t *low_out, uint8x16_t *high_out)
{
    uint8x16_t first = vsubq_u8(b, vdupq_n_u8(0x80));
    uint8x16_t second = vsubq_u8(b, vdupq_n_u8(0xC0));
    uint8x16_t low = vqtbx4q_u8(vqtbx4q_u8(b, vld1q_u8_x4(split[0]), first),
                                vld1q_u8_x4(split[1]), second);
    uint8x16_t high = vqtbx4q_u8(vqtbl4q_u8(vld1q_u8_x4(split[2]), first),
                                 vld1q_u8_x4(split[3]), second);
    uint8x16_t unmapped = vandq_u8(vcltzq_s8(vreinterpretq_s8_u8(b)),
                                   vceqzq_u8(vorrq_u8(low, high)));
    *low_out = low;
    *high_out = high;
    return vmaxvq_u8(unmapped) == 0;
}

/* §9.1 to UTF-16 with NEON, 16 bytes a step (sb_units16_neon()). Stops
 * before the 16 bytes holding an unmapped byte, or with fewer than 16
 * left; returns the bytes read, one unit each. */
static size_t sb_table16_utf16_neon(const uint8_t *src, size_t n,
                                    const uint16_t *code_point_of,
                                    uint16_t *dst)
{
    uint8_t split[4][64];
    sb_split_upper_neon(code_point_of, split);
    size_t pos = 0;
    while (n - pos >= 16) {
        uint8x16_t b = vld1q_u8(src + pos);
        if (vmaxvq_u8(b) < 0x80) {
            pos += wenc_ascii_to_utf16(src + pos, dst + pos, n - pos);
            continue;
        }
        uint8x16_t low, high;
        if (!sb_units16_neon(b, split, &low, &high))
            break;
        vst1q_u8((uint8_t *)(dst + pos), vzip1q_u8(low, high));
        vst1q_u8((uint8_t *)(dst + pos + 8), vzip2q_u8(low, high));
        pos += 16;
    }
    return pos;
}

/* Blocks of 16 with at most this many upper bytes go one upper byte at a
 * time (as in the AVX2 kernel's sparse loop): 2 counted fewer instructions
 * on French than 1 and 4, the same on Russian. */
enum { SB_SPARSE_NEON = 2 };

/* §9.1 to UTF-8 with NEON, 16 bytes a step: ASCII as it is; a block with
 * few upper bytes (Latin-script text) stored as it is, then each upper
 * byte's sequence written after the ASCII before it and the next 16 bytes
 * stored again after that; the
 * other blocks' units by sb_units16_neon(), packed by utf8_pack8_neon().
 * Stops at an unmapped byte (the dense step before its block), and where
 * fewer than 32 bytes are left: the room of 3 bytes a byte then holds the
 * packing's stores past its output. Returns the bytes read; the bytes
 * written go to *written. */
static size_t sb_table16_utf8_neon(const uint8_t *src, size_t n,
                                   const uint16_t *code_point_of,
                                   uint8_t *dst, size_t *written)
{
    uint8_t split[4][64];
    sb_split_upper_neon(code_point_of, split);
    size_t pos = 0, out = 0;
    while (n - pos >= 32) {
        uint8x16_t b = vld1q_u8(src + pos);
        uint8x16_t upper = vcltzq_s8(vreinterpretq_s8_u8(b));
        vst1q_u8(dst + out, b);
        unsigned count = vaddvq_u8(vshrq_n_u8(upper, 7));
        if (count == 0) {
            /* then the rest of an ASCII run, 32 bytes a step */
            const uint8_t *from = src + pos + 16;
            uint8_t *to = dst + out + 16;
            for (const uint8_t *last = src + n - 64; from <= last;
                 from += 32, to += 32) {
                uint8x16_t first = vld1q_u8(from), second = vld1q_u8(from + 16);
                if (vmaxvq_u8(vorrq_u8(first, second)) >= 0x80)
                    break;
                vst1q_u8(to, first);
                vst1q_u8(to + 16, second);
            }
            pos = (size_t)(from - src);
            out = (size_t)(to - dst);
            continue;
        }
        if (count <= SB_SPARSE_NEON) {
            /* each upper byte in turn, from the block's mask (four bits a
             * lane), as in sb_sparse_to_utf8_avx2() */
            uint64_t lanes = vget_lane_u64(
                vreinterpret_u64_u8(
                    vshrn_n_u16(vreinterpretq_u16_u8(upper), 4)),
                0);
            size_t block = pos;
            do {
                unsigned bit = (unsigned)__builtin_ctzll(lanes);
                lanes &= ~(UINT64_C(0xF) << bit);
                size_t at = block + (bit >> 2);
                out += at - pos;
                pos = at;
                uint32_t cp = code_point_of[src[pos]];
                if (cp == 0) {
                    *written = out;
                    return pos;
                }
                out += sb_put_two_or_three(dst + out, cp);
                pos++;
                vst1q_u8(dst + out, vld1q_u8(src + pos));
            } while (lanes != 0);
            out += block + 16 - pos;
            pos = block + 16;
            continue;
        }
        uint8x16_t low, high;
        if (!sb_units16_neon(b, split, &low, &high))
            break;
        out += utf8_pack8_neon(vreinterpretq_u16_u8(vzip1q_u8(low, high)),
                               dst + out, 1);
        out += utf8_pack8_neon(vreinterpretq_u16_u8(vzip2q_u8(low, high)),
                               dst + out, 1);
        pos += 16;
    }
    *written = out;
    return pos;
}
#endif

/* §9.1 single-byte decoder; also x-user-defined's (§14.5.1), whose index
 * is computed */
WENC_INLINE codec_status sb_decode(wenc_decoder *dec, const uint8_t *src,
                                   size_t len, size_t *consumed, void *dst,
                                   size_t cap, size_t *written, bool last,
                                   int utf16)
{
    const single_byte_table *table = table_of(dec->encoding_);
    const uint16_t *code_point_of = table->decode;
    size_t pos = 0, out = 0;
    codec_status st = CODEC_INPUT_EMPTY;
    (void)last;
#ifdef WENC_HAVE_RUNTIME_AVX2
#ifdef WENC_HAVE_RUNTIME_AVX512
    bool avx512 = len >= 64 && wenc_cpu_has_avx512();
#else
    const bool avx512 = false;
#endif
    /* To UTF-16, tables without linear ranges measured faster through
     * sb_words_to_utf16() */
    bool avx2 = !avx512 && len >= 32 &&
                (!utf16 || table->linear_last[0] != 0) && wenc_cpu_has_avx2();
#endif
    while (pos < len) {
        /* With room for the worst case (3 UTF-8 bytes or 1 UTF-16 unit per
         * byte), nothing is checked per byte until an error. */
        size_t room = utf16 ? cap - out : (cap - out) / 3;
        size_t end = pos + (len - pos < room ? len - pos : room);
#ifdef WENC_HAVE_RUNTIME_AVX512
        if (avx512 && end - pos >= 64) {
            size_t made = 0;
            void *at = utf16 ? (void *)((uint16_t *)dst + out)
                             : (void *)((uint8_t *)dst + out);
            pos += sb_table64_avx512(src + pos, end - pos, code_point_of, at,
                                     utf16, &made);
            out += made;
        }
#endif
#ifdef WENC_HAVE_RUNTIME_AVX2
        if (avx2 && end - pos >= 32) {
            size_t made = 0;
            void *at = utf16 ? (void *)((uint16_t *)dst + out)
                             : (void *)((uint8_t *)dst + out);
            pos += utf16 ? sb_blocks32_utf16_avx2(src + pos, end - pos, table,
                                                  at, &made)
                         : sb_blocks32_utf8_avx2(src + pos, end - pos, table,
                                                 at, &made);
            out += made;
        }
#endif
        if (utf16) {
            uint16_t *d = (uint16_t *)dst;
#ifdef WENC_HAVE_NEON
            if (end - pos >= 16) {
                size_t taken = sb_table16_utf16_neon(src + pos, end - pos,
                                                     code_point_of, d + out);
                pos += taken;
                out += taken;
            }
#endif
            for (;;) {
                pos += sb_words_to_utf16(src + pos, end - pos, table, d, &out);
                /* Fewer than 8 bytes left, or a word with a unit 0: byte by
                 * byte up to an unmapped byte, or the end of the word. */
                size_t word_end = end - pos < 8 ? end : pos + 8;
                while (pos < word_end &&
                       (code_point_of[src[pos]] != 0 || src[pos] == 0))
                    d[out++] = code_point_of[src[pos++]];
                if (pos < word_end || word_end == end)
                    break;
            }
        } else {
            uint8_t *d = (uint8_t *)dst;
#ifdef WENC_HAVE_NEON
            if (end - pos >= 32) {
                size_t made = 0;
                pos += sb_table16_utf8_neon(src + pos, end - pos,
                                            code_point_of, d + out, &made);
                out += made;
            }
#endif
            while (pos < end) {
                uint8_t b = src[pos];
                if (b < 0x80) {
                    /* a lone ASCII byte (a space between words of other
                     * scripts) without the cost of looking for a run */
                    if (end - pos < 2 || src[pos + 1] >= 0x80) {
                        d[out++] = b;
                        pos++;
                    } else {
                        fast_ascii_step(src, &pos, end, dst, &out, utf16);
                    }
                    continue;
                }
                uint32_t cp = code_point_of[b];
                if (cp == 0)
                    break;
                /* (two-byte forms written here: sink_put() in this loop
                 * measured half the speed on Cyrillic text) */
                if (cp < 0x800) {
                    d[out] = (uint8_t)(0xC0 | (cp >> 6));
                    d[out + 1] = (uint8_t)(0x80 | (cp & 0x3F));
                    out += 2;
                } else {
                    out = sink_put(dst, out, cp, utf16);
                }
                pos++;
            }
        }
        if (pos == len)
            break;
        if (!sink_ascii_run(src, &pos, len, dst, &out, cap, utf16)) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        if (pos == len)
            break;
        uint32_t cp = code_point_of[src[pos]];
        if (cp == 0) {
            st = sink_error(dec, NULL, 0, src + pos, 1, dst, cap, &out, utf16);
            if (st == CODEC_OUTPUT_FULL)
                break;
            pos++;
            if (st == CODEC_ERROR)
                break;
            continue;
        }
        if (cap - out < sink_units(cp, utf16)) {
            st = CODEC_OUTPUT_FULL;
            break;
        }
        out = sink_put(dst, out, cp, utf16);
        pos++;
    }
    *consumed = pos;
    *written = out;
    return st;
}

DEFINE_DECODE_SINKS(sb, sb_decode)

static size_t sb_held(const wenc_decoder *dec, uint8_t *bytes)
{
    (void)dec;
    (void)bytes;
    return 0;
}

const decoder_codec wenc_single_byte_decoder = {
    .to_utf8 = sb_to_utf8,
    .to_utf16 = sb_to_utf16,
    .held = sb_held,
};

/* The encoder's vector kernels read the encode pages: none without them. */
#if defined(WENC_HAVE_RUNTIME_AVX2) && !defined(WENC_NO_ENCODE_TABLES)
#define SB_ENCODE_AVX2 1
#endif
#if defined(WENC_HAVE_RUNTIME_AVX512) && !defined(WENC_NO_ENCODE_TABLES)
#define SB_ENCODE_AVX512 1
#endif
#if defined(WENC_HAVE_NEON) && !defined(WENC_NO_ENCODE_TABLES)
#define SB_ENCODE_NEON 1
#endif

/* §9.2 single-byte encoder: the byte of the index pointer, from the
 * generated pages, or without them by searching the index */
static uint32_t sb_bytes_of(const wenc_encoder *enc, uint32_t cp)
{
#ifdef WENC_NO_ENCODE_TABLES
    size_t pointer =
        index_find(table_of(enc->encoding_)->decode + 0x80, 0, 128, cp);
    return pointer < 128 ? (uint32_t)(0x80 + pointer) : 0;
#else
    const uint8_t *page_of = table_of(enc->encoding_)->encode_page;
    if (cp > 0xFFFF)
        return 0;
    return wenc_single_byte_pages[page_of[cp >> 8]][cp & 0xFF];
#endif
}

static size_t sb_step(const wenc_encoder *enc, uint32_t cp, uint8_t out[4])
{
    return put_mapped(sb_bytes_of(enc, cp), out);
}

#if defined(SB_ENCODE_AVX2) || defined(SB_ENCODE_NEON)
/* The encoder's bytes of the 128 code points of `block` (cp >> 7), 0 where
 * unmapped. */
static const uint8_t *sb_block_at(const uint8_t *page_of, unsigned block)
{
    return wenc_single_byte_pages[page_of[block >> 1]] +
           (size_t)(block & 1) * 128;
}

/* Whether the table's encode_block lies below U+0800 (cp >> 7 below 16),
 * its letters two bytes each in UTF-8: the kernels over UTF-8 look up the
 * two-byte sequences of U+0080-U+00FF and of that block; a table whose
 * letters take three (windows-874's Thai) goes another way. */
WENC_INLINE bool sb_block_two_byte(const single_byte_table *table)
{
    return table->encode_block < 16;
}

/* A code point a kernel's step stops at, taken in the kernel's loop so that
 * it goes on (§9.2 for one outside its two blocks; with html, §4.3 encode's
 * NCR for one unmapped, where `spare` bytes of room, beyond what the rest
 * of the input may need, hold the longest): returns the bytes written, 0
 * when the caller's loop is to take it. */
WENC_INLINE size_t sb_take_stop(const uint8_t *page_of, uint32_t cp, bool html,
                                uint8_t *dst, size_t spare)
{
    uint8_t byte = wenc_single_byte_pages[page_of[cp >> 8]][cp & 0xFF];
    if (byte != 0) {
        *dst = byte;
        return 1;
    }
    if (!html || spare < NCR_MAX_LEN)
        return 0;
    return ncr_put(cp, dst);
}

/* Over UTF-8, the two- or three-byte sequence (§8.1.1's bounds) a kernel's
 * step stopped at, by sb_take_stop(), the room kept for the rest as there:
 * false when the caller's loop is to take it (anything else). */
WENC_INLINE bool sb_take_utf8_stop(const uint8_t *page_of, const uint8_t *src,
                                   size_t n, size_t *pos_io, uint8_t *dst,
                                   size_t *out_io, size_t room, bool html)
{
    size_t pos = *pos_io, out = *out_io;
    uint32_t cp;
    size_t k = utf8_two_or_three(src + pos, n - pos, &cp);
    if (k == 0)
        return false;
    size_t made =
        sb_take_stop(page_of, cp, html, dst + out, room - out - (n - pos - k));
    if (made == 0)
        return false;
    *pos_io = pos + k;
    *out_io = out + made;
    return true;
}

/* Whether a kernel step stops at `unit` for its block: neither ASCII,
 * U+0080-U+00FF nor the table's encode_block. */
WENC_INLINE bool sb_outside(uint32_t unit, unsigned block)
{
    return unit >> 7 > 1 && unit >> 7 != block;
}

/* Over UTF-16, the unit a kernel's step stopped at, by sb_take_stop(), and
 * what follows while one of the next two units is outside the step's
 * blocks (a word of another script: a step for each letter would cost
 * more), ASCII among them as it is; the bytes at dst + *out_io, whose
 * `room` holds a byte for each unit left of src[0..n). Returns false,
 * stopped before a unit for the caller's loop (a surrogate, or one
 * sb_take_stop() leaves), true with *pos_io where the next step starts. */
WENC_INLINE bool sb_take_stops(const single_byte_table *table,
                               const uint16_t *src, size_t n, size_t *pos_io,
                               uint8_t *dst, size_t *out_io, size_t room,
                               bool html)
{
    size_t pos = *pos_io, out = *out_io;
    unsigned block = table->encode_block;
    bool taken = true;
    do {
        uint32_t unit = src[pos];
        if (unit < 0x80) {
            dst[out++] = (uint8_t)unit;
            pos++;
            continue;
        }
        size_t made = 0;
        if ((unit & 0xF800) != 0xD800)
            made = sb_take_stop(table->encode_page, unit, html, dst + out,
                                room - out - (n - pos - 1));
        taken = made != 0;
        pos += taken;
        out += made;
    } while (taken && pos < n &&
             (sb_outside(src[pos], block) ||
              (n - pos > 1 && sb_outside(src[pos + 1], block))));
    *pos_io = pos;
    *out_io = out;
    return taken;
}
#endif

#ifdef SB_ENCODE_AVX512
/* The bytes of the 128 code points of `block` (cp >> 7) as two registers,
 * which VPERMI2B reads by a code point's low seven bits. */
WENC_TARGET_AVX512 static inline void sb_block_bytes(const uint8_t *page_of,
                                                     unsigned block,
                                                     __m512i bytes[2])
{
    const uint8_t *first = sb_block_at(page_of, block);
    bytes[0] = _mm512_loadu_si512((const void *)first);
    bytes[1] = _mm512_loadu_si512((const void *)(first + 64));
}

/* §9.2 for 64 units a step: ASCII as it is, U+0080-U+00FF and the
 * table's encode_block by lookups in their 128 bytes; any other unit but a
 * surrogate by sb_take_stop(), the step starting again after it. Writes
 * one byte per unit read but for NCRs, in `room` bytes at dst (at least
 * n). Returns the units read; the bytes written go to *written. */
WENC_TARGET_AVX512 static size_t sb_from_utf16_avx512(
    const single_byte_table *table, const uint16_t *src, size_t n,
    uint8_t *dst, size_t room, bool html, size_t *written)
{
    __m512i latin[2], rich[2];
    sb_block_bytes(table->encode_page, 1, latin);
    sb_block_bytes(table->encode_page, table->encode_block, rich);
    const __m512i rich_block = _mm512_set1_epi16((short)table->encode_block);
    const __m512i latin_block = _mm512_set1_epi16(1);
    size_t pos = 0, out = 0;
    while (pos < n) {
        /* the last step reads the units left under a mask: zeros after
         * them, which are ASCII */
        uint64_t live = ~UINT64_C(0);
        __m512i first, second;
        if (n - pos >= 64) {
            first = _mm512_loadu_si512((const void *)(src + pos));
            second = _mm512_loadu_si512((const void *)(src + pos + 32));
        } else {
            live = _bzhi_u64(live, (unsigned)(n - pos));
            first = _mm512_maskz_loadu_epi16((__mmask32)live,
                                             (const void *)(src + pos));
            second = _mm512_maskz_loadu_epi16((__mmask32)(live >> 32),
                                              (const void *)(src + pos + 32));
        }
        __m512i low = _mm512_inserti64x4(
            _mm512_castsi256_si512(_mm512_cvtepi16_epi8(first)),
            _mm512_cvtepi16_epi8(second), 1);
        if (live == ~UINT64_C(0) &&
            _mm512_test_epi16_mask(_mm512_or_si512(first, second),
                                   _mm512_set1_epi16((short)0xFF80)) == 0) {
            /* ASCII, the most common step in markup */
            _mm512_storeu_si512((void *)(dst + out), low);
            pos += 64;
            out += 64;
            continue;
        }
        __m512i first_blocks = _mm512_srli_epi16(first, 7);
        __m512i second_blocks = _mm512_srli_epi16(second, 7);
        uint64_t in_ascii =
            (uint64_t)_mm512_cmpeq_epi16_mask(first_blocks,
                                              _mm512_setzero_si512()) |
            (uint64_t)_mm512_cmpeq_epi16_mask(second_blocks,
                                              _mm512_setzero_si512())
                << 32;
        uint64_t in_latin =
            (uint64_t)_mm512_cmpeq_epi16_mask(first_blocks, latin_block) |
            (uint64_t)_mm512_cmpeq_epi16_mask(second_blocks, latin_block)
                << 32;
        uint64_t in_rich =
            (uint64_t)_mm512_cmpeq_epi16_mask(first_blocks, rich_block) |
            (uint64_t)_mm512_cmpeq_epi16_mask(second_blocks, rich_block)
                << 32;
        __m512i bytes = _mm512_mask_mov_epi8(
            low, in_latin, _mm512_permutex2var_epi8(latin[0], low, latin[1]));
        bytes = _mm512_mask_mov_epi8(
            bytes, in_rich, _mm512_permutex2var_epi8(rich[0], low, rich[1]));
        uint64_t fine = in_ascii | ((in_latin | in_rich) &
                                    _mm512_test_epi8_mask(bytes, bytes));
        if (fine == ~UINT64_C(0)) {
            size_t count = (size_t)_mm_popcnt_u64(live);
            if (live == ~UINT64_C(0))
                _mm512_storeu_si512((void *)(dst + out), bytes);
            else
                _mm512_mask_storeu_epi8((void *)(dst + out), live, bytes);
            pos += count;
            out += count;
            continue;
        }
        /* the lanes past the live ones are ASCII: the stop is live */
        unsigned count = (unsigned)__builtin_ctzll(~fine);
        _mm512_mask_storeu_epi8((void *)(dst + out),
                                _bzhi_u64(~UINT64_C(0), count), bytes);
        pos += count;
        out += count;
        if (!sb_take_stops(table, src, n, &pos, dst, &out, room, html))
            break;
    }
    *written = out;
    return pos;
}

/* The same over UTF-8, 64 bytes a step: ASCII, and two-byte sequences of
 * U+0080-U+00FF and of the encode_block (below U+0800 here); any other
 * two- or three-byte sequence (§8.1.1's bounds) by sb_take_stop(); stops
 * before anything else (a four-byte or ill-formed sequence, one cut off at
 * the end). One byte at most per byte read but for NCRs, in `room` bytes
 * at dst (at least n). */
WENC_TARGET_AVX512 static size_t sb_from_utf8_avx512(
    const single_byte_table *table, const uint8_t *src, size_t n,
    uint8_t *dst, size_t room, bool html, size_t *written)
{
    __m512i latin[2], rich[2];
    unsigned block = table->encode_block;
    sb_block_bytes(table->encode_page, 1, latin);
    sb_block_bytes(table->encode_page, block, rich);
    const __m512i rich_block = _mm512_set1_epi8((char)block);
    const __m512i latin_block = _mm512_set1_epi8(1);
    /* byte i of the result: byte i - 1 of the input */
    const __m512i previous = _mm512_set_epi64(
        0x3E3D3C3B3A393837, 0x363534333231302F, 0x2E2D2C2B2A292827,
        0x262524232221201F, 0x1E1D1C1B1A191817, 0x161514131211100F,
        0x0E0D0C0B0A090807, 0x060504030201003F);
    size_t pos = 0, out = 0;
    while (n - pos >= 64) {
        __m512i in = _mm512_loadu_si512((const void *)(src + pos));
        uint64_t ascii = ~(uint64_t)_mm512_movepi8_mask(in);
        if (ascii == ~UINT64_C(0)) {
            _mm512_storeu_si512((void *)(dst + out), in);
            pos += 64;
            out += 64;
            continue;
        }
        uint64_t lead =
            _mm512_cmpge_epu8_mask(in, _mm512_set1_epi8((char)0xC2)) &
            _mm512_cmple_epu8_mask(in, _mm512_set1_epi8((char)0xDF));
        uint64_t continuation = _mm512_cmpeq_epi8_mask(
            _mm512_and_si512(in, _mm512_set1_epi8((char)0xC0)),
            _mm512_set1_epi8((char)0x80));
        uint64_t after_lead = continuation & lead << 1;
        /* per continuation after a lead: the code point's block (cp >> 7,
         * the lead's bits 1-4) and low seven bits */
        __m512i lead_byte = _mm512_permutexvar_epi8(previous, in);
        __m512i blocks = _mm512_and_si512(_mm512_srli_epi16(lead_byte, 1),
                                          _mm512_set1_epi8(0x0F));
        __m512i low7 = _mm512_ternarylogic_epi64(
            _mm512_slli_epi16(lead_byte, 6), in, _mm512_set1_epi8(0x40),
            0xE4); /* bit 6 from the lead's bit 0, the rest from `in` */
        uint64_t in_latin =
            after_lead & _mm512_cmpeq_epi8_mask(blocks, latin_block);
        uint64_t in_rich =
            after_lead & _mm512_cmpeq_epi8_mask(blocks, rich_block);
        __m512i bytes = _mm512_mask_mov_epi8(
            in, in_latin, _mm512_permutex2var_epi8(latin[0], low7, latin[1]));
        bytes = _mm512_mask_mov_epi8(
            bytes, in_rich, _mm512_permutex2var_epi8(rich[0], low7, rich[1]));
        uint64_t mapped = (in_latin | in_rich) &
                          _mm512_test_epi8_mask(bytes, bytes);
        /* a lead is taken with its continuation, which must be mapped */
        uint64_t fine = ascii | mapped | (lead & mapped >> 1);
        unsigned count =
            fine == ~UINT64_C(0) ? 64 : (unsigned)__builtin_ctzll(~fine);
        uint64_t kept = (ascii | mapped) & _bzhi_u64(~UINT64_C(0), count);
        size_t length = (size_t)_mm_popcnt_u64(kept);
        _mm512_mask_storeu_epi8((void *)(dst + out),
                                _bzhi_u64(~UINT64_C(0), (unsigned)length),
                                _mm512_maskz_compress_epi8(kept, bytes));
        pos += count;
        out += length;
        if (count == 64)
            continue;
        if (!sb_take_utf8_stop(table->encode_page, src, n, &pos, dst, &out,
                               room, html))
            break;
    }
    *written = out;
    return pos;
}

/* No NCRs here: the transcoding's output must not outgrow its input */
static size_t sb_units(const void *table, const uint16_t *units, size_t n,
                       uint8_t *dst, size_t *written)
{
    return sb_from_utf16_avx512((const single_byte_table *)table, units, n,
                                dst, n, false, written);
}

static size_t sb_vector(const wenc_encoder *enc, const void *src, size_t n,
                        uint8_t *dst, size_t room, size_t *written, int utf16)
{
    const single_byte_table *table = table_of(enc->encoding_);
    bool html = enc->error_mode_ == WENC_ERRORS_HTML;
    if (utf16)
        return sb_from_utf16_avx512(table, (const uint16_t *)src, n, dst,
                                    room, html, written);
    /* The kernel over UTF-8 takes two-byte sequences only: a block from
     * U+0800 on (Thai, say) is read through UTF-16. */
    if (!sb_block_two_byte(table))
        return wenc_utf8_encode_via_utf16((const uint8_t *)src, n, dst,
                                          written, sb_units, table);
    return sb_from_utf8_avx512(table, (const uint8_t *)src, n, dst, room,
                               html, written);
}
#endif

#ifdef SB_ENCODE_AVX2
/* The 128 bytes of `block` (cp >> 7) as eight 16-entry groups for PSHUFB,
 * each stored as the XOR of groups g and g - 1 (sb_planes_avx2's method:
 * an index i of 0-127 less 16 * g reads group g up to i's own, and 0
 * after it, so the XOR of the eight reads is entry i). */
WENC_TARGET_AVX2 static void sb_block_groups_avx2(const uint8_t *page_of,
                                                  unsigned block,
                                                  __m256i groups[8])
{
    const uint8_t *first = sb_block_at(page_of, block);
    __m128i previous = _mm_setzero_si128();
    for (size_t g = 0; g < 8; g++) {
        __m128i group =
            _mm_loadu_si128((const __m128i *)(const void *)(first + 16 * g));
        groups[g] = _mm256_broadcastsi128_si256(_mm_xor_si128(group, previous));
        previous = group;
    }
}

/* The 16-bit lanes of a, then of b, in order, as bytes: 32 units below
 * 0x80, or 32 masks of 16 bits (signed saturation keeps 0xFFFF whole). */
WENC_TARGET_AVX2 static inline __m256i sb_narrow_avx2(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xD8);
}

/* Whether the table maps U+00A0-U+00FF to the bytes A0-FF. */
WENC_TARGET_AVX2 static inline bool sb_latin1_identity(
    const single_byte_table *table)
{
    const uint8_t *latin = sb_block_at(table->encode_page, 1) + 0x20;
    __m256i first = _mm256_loadu_si256((const __m256i *)(const void *)latin);
    __m256i second =
        _mm256_loadu_si256((const __m256i *)(const void *)(latin + 32));
    __m256i third =
        _mm256_loadu_si256((const __m256i *)(const void *)(latin + 64));
    __m256i values = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
        20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    __m256i a0 = _mm256_add_epi8(values, _mm256_set1_epi8((char)0xA0));
    __m256i same = _mm256_and_si256(
        _mm256_cmpeq_epi8(first, a0),
        _mm256_and_si256(
            _mm256_cmpeq_epi8(second,
                              _mm256_add_epi8(a0, _mm256_set1_epi8(32))),
            _mm256_cmpeq_epi8(third,
                              _mm256_add_epi8(a0, _mm256_set1_epi8(64)))));
    return _mm256_movemask_epi8(same) == -1;
}

/* §9.2 for 32 units a step, as sb_from_utf16_avx512 does it: ASCII as it
 * is, U+0080-U+00FF and the table's encode_block by lookups in their 128
 * bytes, any other unit but a surrogate by sb_take_stops(); stops before
 * what that leaves, or with fewer than 32 units left. One byte per unit
 * read but for NCRs, in `room` bytes at dst (at least n). Returns the
 * units read; the bytes written go to *written. */
WENC_TARGET_AVX2 static size_t sb_from_utf16_avx2(
    const single_byte_table *table, const uint16_t *src, size_t n,
    uint8_t *dst, size_t room, bool html, size_t *written)
{
    /* each block's groups made when a unit of it first comes: a call that
     * stops at once (as in markup, at every unmappable character) makes
     * none */
    __m256i latin[8], rich[8];
    bool have_latin = false, have_rich = false;
    const __m256i rich_block = _mm256_set1_epi16((short)table->encode_block);
    const __m256i latin_block = _mm256_set1_epi16(1);
    const __m256i low7 = _mm256_set1_epi16(0x7F);
    const __m256i zero = _mm256_setzero_si256();
    const bool latin1 = sb_latin1_identity(table);
    size_t pos = 0, out = 0;
    while (n - pos >= 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        __m256i b =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos + 16));
        __m256i either = _mm256_or_si256(a, b);
        if (_mm256_testz_si256(either, _mm256_set1_epi16((short)0xFF80))) {
            _mm256_storeu_si256((__m256i *)(void *)(dst + out),
                                sb_narrow_avx2(a, b));
            pos += 32;
            out += 32;
            continue;
        }
        /* ASCII and U+00A0-U+00FF, where the table maps them to their own
         * values (windows-1252: Western European text) */
        if (latin1 &&
            _mm256_testz_si256(either, _mm256_set1_epi16((short)0xFF00)) &&
            _mm256_testz_si256(
                _mm256_or_si256(
                    _mm256_cmpeq_epi16(
                        _mm256_and_si256(a, _mm256_set1_epi16(0xE0)),
                        _mm256_set1_epi16(0x80)),
                    _mm256_cmpeq_epi16(
                        _mm256_and_si256(b, _mm256_set1_epi16(0xE0)),
                        _mm256_set1_epi16(0x80))),
                _mm256_set1_epi8(-1))) {
            _mm256_storeu_si256(
                (__m256i *)(void *)(dst + out),
                _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
            pos += 32;
            out += 32;
            continue;
        }
        __m256i a_blocks = _mm256_srli_epi16(a, 7);
        __m256i b_blocks = _mm256_srli_epi16(b, 7);
        __m256i in_ascii = sb_narrow_avx2(_mm256_cmpeq_epi16(a_blocks, zero),
                                          _mm256_cmpeq_epi16(b_blocks, zero));
        __m256i in_latin =
            sb_narrow_avx2(_mm256_cmpeq_epi16(a_blocks, latin_block),
                           _mm256_cmpeq_epi16(b_blocks, latin_block));
        __m256i in_rich =
            sb_narrow_avx2(_mm256_cmpeq_epi16(a_blocks, rich_block),
                           _mm256_cmpeq_epi16(b_blocks, rich_block));
        __m256i index = sb_narrow_avx2(_mm256_and_si256(a, low7),
                                       _mm256_and_si256(b, low7));
        /* ASCII bytes as they are (index is the unit there) */
        __m256i bytes = _mm256_and_si256(index, in_ascii);
        if (!_mm256_testz_si256(in_latin, in_latin)) {
            if (!have_latin) {
                sb_block_groups_avx2(table->encode_page, 1, latin);
                have_latin = true;
            }
            bytes = _mm256_or_si256(
                bytes, _mm256_and_si256(sb_groups_lookup_avx2(latin, index),
                                        in_latin));
        }
        if (!_mm256_testz_si256(in_rich, in_rich)) {
            if (!have_rich) {
                sb_block_groups_avx2(table->encode_page, table->encode_block,
                                     rich);
                have_rich = true;
            }
            bytes = _mm256_or_si256(
                bytes, _mm256_and_si256(sb_groups_lookup_avx2(rich, index),
                                        in_rich));
        }
        uint32_t fine = (uint32_t)_mm256_movemask_epi8(in_ascii) |
                        ((uint32_t)_mm256_movemask_epi8(
                             _mm256_or_si256(in_latin, in_rich)) &
                         ~(uint32_t)_mm256_movemask_epi8(
                             _mm256_cmpeq_epi8(bytes, zero)));
        if (fine == ~0u) {
            _mm256_storeu_si256((__m256i *)(void *)(dst + out), bytes);
            pos += 32;
            out += 32;
            continue;
        }
        unsigned count = (unsigned)__builtin_ctz(~fine);
        uint8_t made[32];
        _mm256_storeu_si256((__m256i *)(void *)made, bytes);
        memcpy(dst + out, made, count);
        pos += count;
        out += count;
        if (!sb_take_stops(table, src, n, &pos, dst, &out, room, html))
            break;
    }
    *written = out;
    return pos;
}

/* sb_from_utf16_avx2() for all of units[0..n), the last n % 32 through a
 * padded copy (without NCRs): what wenc_utf8_encode_via_utf16() hands
 * over, a chunk at a time, is to be taken whole where it can be. */
WENC_TARGET_AVX2 static size_t sb_all_units_avx2(const single_byte_table *t,
                                                 const uint16_t *units,
                                                 size_t n, uint8_t *dst,
                                                 size_t room, bool html,
                                                 size_t *written)
{
    size_t out = 0;
    size_t taken = sb_from_utf16_avx2(t, units, n, dst, room, html, &out);
    if (n - taken < 32 && taken < n) {
        uint16_t last[32] = {0};
        uint8_t made[32];
        size_t made_count = 0;
        memcpy(last, units + taken, (n - taken) * sizeof last[0]);
        size_t more =
            sb_from_utf16_avx2(t, last, 32, made, 32, false, &made_count);
        if (more > n - taken)
            more = n - taken; /* one byte a unit: no NCR here */
        memcpy(dst + out, made, more);
        taken += more;
        out += more;
    }
    *written = out;
    return taken;
}

/* No NCRs here: the transcoding's output must not outgrow its input */
static size_t sb_units_avx2(const void *table, const uint16_t *units,
                            size_t n, uint8_t *dst, size_t *written)
{
    return sb_all_units_avx2((const single_byte_table *)table, units, n, dst,
                             n, false, written);
}

/* §9.2 over UTF-8 for 32 bytes a step, as sb_from_utf8_avx512() does it:
 * ASCII as it is, two-byte sequences of U+0080-U+00FF and of the table's
 * encode_block (when that lies below U+0800) by lookups in their 128 bytes,
 * the bytes kept packed by PSHUFB on wenc_compact8_shuffle eight at a time;
 * any other two- or three-byte sequence by sb_take_stop(); stops before
 * anything else, or with fewer than 32 bytes left. One byte at most per
 * byte read but for NCRs, in `room` bytes at dst (at least n). */
WENC_TARGET_AVX2 static size_t sb_from_utf8_avx2(
    const single_byte_table *table, const uint8_t *src, size_t n,
    uint8_t *dst, size_t room, bool html, size_t *written)
{
    __m256i latin[8], rich[8];
    bool have_latin = false, have_rich = false;
    /* a lead's block (cp >> 7) is below 16: a table whose block is not
     * meets none */
    unsigned block = table->encode_block;
    char rich_lead_block = -1;
    if (sb_block_two_byte(table))
        rich_lead_block = (char)block;
    const __m256i rich_block = _mm256_set1_epi8(rich_lead_block);
    const __m256i latin_block = _mm256_set1_epi8(1);
    const __m256i zero = _mm256_setzero_si256();
    size_t pos = 0, out = 0;
    while (n - pos >= 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        uint32_t upper = (uint32_t)_mm256_movemask_epi8(in);
        if (upper == 0) {
            _mm256_storeu_si256((__m256i *)(void *)(dst + out), in);
            pos += 32;
            out += 32;
            continue;
        }
        /* C2-DF less 0x42 are the signed bytes below -98; 80-BF, below -64 */
        __m256i lead = _mm256_cmpgt_epi8(
            _mm256_set1_epi8(-98), _mm256_sub_epi8(in, _mm256_set1_epi8(0x42)));
        __m256i continuation = _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), in);
        /* byte i - 1 of the step (0 before the first): leads before
         * continuations, and the lead byte of each */
        __m256i lead_before = _mm256_alignr_epi8(
            lead, _mm256_permute2x128_si256(lead, lead, 0x08), 15);
        __m256i previous = _mm256_alignr_epi8(
            in, _mm256_permute2x128_si256(in, in, 0x08), 15);
        __m256i after_lead = _mm256_and_si256(lead_before, continuation);
        __m256i blocks = _mm256_and_si256(_mm256_srli_epi16(previous, 1),
                                          _mm256_set1_epi8(0x0F));
        __m256i index = _mm256_or_si256(
            _mm256_and_si256(_mm256_slli_epi16(previous, 6),
                             _mm256_set1_epi8(0x40)),
            _mm256_and_si256(in, _mm256_set1_epi8(0x3F)));
        __m256i in_latin = _mm256_and_si256(
            after_lead, _mm256_cmpeq_epi8(blocks, latin_block));
        __m256i in_rich = _mm256_and_si256(
            after_lead, _mm256_cmpeq_epi8(blocks, rich_block));
        __m256i bytes = in;
        if (!_mm256_testz_si256(in_latin, in_latin)) {
            if (!have_latin) {
                sb_block_groups_avx2(table->encode_page, 1, latin);
                have_latin = true;
            }
            bytes = _mm256_blendv_epi8(
                bytes, sb_groups_lookup_avx2(latin, index), in_latin);
        }
        if (!_mm256_testz_si256(in_rich, in_rich)) {
            if (!have_rich) {
                sb_block_groups_avx2(table->encode_page, block, rich);
                have_rich = true;
            }
            bytes = _mm256_blendv_epi8(
                bytes, sb_groups_lookup_avx2(rich, index), in_rich);
        }
        uint32_t mapped =
            (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(in_latin, in_rich)) &
            ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, zero));
        /* a lead is taken with its continuation, which must be mapped */
        uint32_t fine = ~upper | mapped |
                        ((uint32_t)_mm256_movemask_epi8(lead) & mapped >> 1);
        unsigned count = fine == ~0u ? 32 : (unsigned)__builtin_ctz(~fine);
        uint32_t kept = (~upper | mapped) &
                        (count == 32 ? ~0u : (1u << count) - 1);
        __m128i halves[2] = {_mm256_castsi256_si128(bytes),
                             _mm256_extracti128_si256(bytes, 1)};
        for (size_t q = 0; q < 4; q++) {
            unsigned keys = kept >> (8 * q) & 0xFF;
            __m128i eight = (q & 1) ? _mm_srli_si128(halves[q >> 1], 8)
                                    : halves[q >> 1];
            __m128i mask = _mm_loadl_epi64(
                (const __m128i *)(const void *)wenc_compact8_shuffle[keys]);
            _mm_storel_epi64((__m128i *)(void *)(dst + out),
                             _mm_shuffle_epi8(eight, mask));
            out += (size_t)_mm_popcnt_u32(keys);
        }
        pos += count;
        if (count == 32)
            continue;
        if (!sb_take_utf8_stop(table->encode_page, src, n, &pos, dst, &out,
                               room, html))
            break;
    }
    *written = out;
    return pos;
}

/* Over UTF-16; over UTF-8 directly, or through UTF-16 for a table whose
 * letters take three bytes in UTF-8, at which sb_from_utf8_avx2() would
 * stop one by one. */
static size_t sb_vector_avx2(const wenc_encoder *enc, const void *src,
                             size_t n, uint8_t *dst, size_t room,
                             size_t *written, int utf16)
{
    const single_byte_table *table = table_of(enc->encoding_);
    bool html = enc->error_mode_ == WENC_ERRORS_HTML;
    if (utf16)
        return sb_all_units_avx2(table, (const uint16_t *)src, n, dst, room,
                                 html, written);
    if (!sb_block_two_byte(table))
        return wenc_utf8_encode_via_utf16((const uint8_t *)src, n, dst,
                                          written, sb_units_avx2, table);
    return sb_from_utf8_avx2(table, (const uint8_t *)src, n, dst, room, html,
                             written);
}
#endif

#ifdef SB_ENCODE_NEON
/* The bytes of the 128 code points at `block` (sb_block_at()) for the
 * code points' low seven bits in `index`: entries 0-63 by TBL, 64-127 by
 * TBX over them. */
static inline uint8x16_t sb_block_lookup_neon(const uint8_t *block,
                                              uint8x16_t index)
{
    return vqtbx4q_u8(vqtbl4q_u8(vld1q_u8_x4(block), index),
                      vld1q_u8_x4(block + 64),
                      vsubq_u8(index, vdupq_n_u8(64)));
}

/* The 16-bit lanes of a, then of b, narrowed to bytes. */
static inline uint8x16_t sb_narrow_neon(uint16x8_t a, uint16x8_t b)
{
    return vcombine_u8(vmovn_u16(a), vmovn_u16(b));
}

/* §9.2 for 16 units a step, as sb_from_utf16_avx2() does it, each block's
 * 128 bytes read by sb_block_lookup_neon(); same contract. */
static size_t sb_from_utf16_neon(const single_byte_table *table,
                                 const uint16_t *src, size_t n, uint8_t *dst,
                                 size_t room, bool html, size_t *written)
{
    const uint8_t *latin = sb_block_at(table->encode_page, 1);
    const uint8_t *rich = sb_block_at(table->encode_page, table->encode_block);
    const uint16x8_t latin_block = vdupq_n_u16(1);
    const uint16x8_t rich_block = vdupq_n_u16(table->encode_block);
    size_t pos = 0, out = 0;
    while (n - pos >= 16) {
        uint16x8_t a = vld1q_u16(src + pos), b = vld1q_u16(src + pos + 8);
        uint8x16_t low = sb_narrow_neon(a, b);
        if (vmaxvq_u16(vorrq_u16(a, b)) < 0x80) {
            vst1q_u8(dst + out, low);
            pos += 16;
            out += 16;
            /* the rest of a run of ASCII (markup), 32 units a step */
            size_t run = wenc_utf16_ascii_to_bytes(src + pos, dst + out,
                                                   (n - pos) & ~(size_t)15);
            pos += run;
            out += run;
            continue;
        }
        uint16x8_t a_blocks = vshrq_n_u16(a, 7), b_blocks = vshrq_n_u16(b, 7);
        uint8x16_t in_ascii =
            sb_narrow_neon(vceqzq_u16(a_blocks), vceqzq_u16(b_blocks));
        uint8x16_t in_latin = sb_narrow_neon(vceqq_u16(a_blocks, latin_block),
                                             vceqq_u16(b_blocks, latin_block));
        uint8x16_t in_rich = sb_narrow_neon(vceqq_u16(a_blocks, rich_block),
                                            vceqq_u16(b_blocks, rich_block));
        uint8x16_t index = vandq_u8(low, vdupq_n_u8(0x7F));
        uint8x16_t bytes = vandq_u8(low, in_ascii);
        if (vmaxvq_u8(in_latin) != 0)
            bytes = vorrq_u8(bytes, vandq_u8(sb_block_lookup_neon(latin, index),
                                             in_latin));
        if (vmaxvq_u8(in_rich) != 0)
            bytes = vorrq_u8(bytes, vandq_u8(sb_block_lookup_neon(rich, index),
                                             in_rich));
        uint8x16_t fine = vorrq_u8(
            in_ascii, vbicq_u8(vorrq_u8(in_latin, in_rich), vceqzq_u8(bytes)));
        if (vminvq_u8(fine) == 0xFF) {
            vst1q_u8(dst + out, bytes);
            pos += 16;
            out += 16;
            continue;
        }
        size_t count = first_lane_set_neon(vmvnq_u8(fine));
        uint8_t made[16];
        vst1q_u8(made, bytes);
        memcpy(dst + out, made, count);
        pos += count;
        out += count;
        if (!sb_take_stops(table, src, n, &pos, dst, &out, room, html))
            break;
    }
    *written = out;
    return pos;
}

/* §9.2 over UTF-8 for 16 bytes a step, as sb_from_utf8_avx2() does it, the
 * lookups by sb_block_lookup_neon() and the bytes kept packed by TBL on
 * wenc_compact8_shuffle, eight at a time (their keys summed from one bit a
 * lane); same contract. */
static size_t sb_from_utf8_neon(const single_byte_table *table,
                                const uint8_t *src, size_t n, uint8_t *dst,
                                size_t room, bool html, size_t *written)
{
    bool two_byte = sb_block_two_byte(table);
    const uint8_t *latin = sb_block_at(table->encode_page, 1);
    const uint8_t *rich =
        two_byte ? sb_block_at(table->encode_page, table->encode_block) : latin;
    /* a lead's block (cp >> 7) is below 16: a table whose block is not
     * meets none */
    const uint8x16_t rich_block =
        vdupq_n_u8(two_byte ? (uint8_t)table->encode_block : 0xFF);
    const uint8x16_t zero = vdupq_n_u8(0);
    const uint8x16_t lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const uint8x8_t bit = {1, 2, 4, 8, 16, 32, 64, 128};
    size_t pos = 0, out = 0;
    while (n - pos >= 16) {
        uint8x16_t in = vld1q_u8(src + pos);
        if (vmaxvq_u8(in) < 0x80) {
            vst1q_u8(dst + out, in);
            pos += 16;
            out += 16;
            /* the rest of a run of ASCII (markup), 32 bytes a step */
            while (n - pos >= 32) {
                uint8x16_t first = vld1q_u8(src + pos);
                uint8x16_t second = vld1q_u8(src + pos + 16);
                if (vmaxvq_u8(vorrq_u8(first, second)) >= 0x80)
                    break;
                vst1q_u8(dst + out, first);
                vst1q_u8(dst + out + 16, second);
                pos += 32;
                out += 32;
            }
            continue;
        }
        uint8x16_t ascii = vcltq_u8(in, vdupq_n_u8(0x80));
        uint8x16_t lead = vcleq_u8(vsubq_u8(in, vdupq_n_u8(0xC2)),
                                   vdupq_n_u8(0xDF - 0xC2));
        uint8x16_t continuation = vceqq_u8(vandq_u8(in, vdupq_n_u8(0xC0)),
                                           vdupq_n_u8(0x80));
        /* byte i - 1 of the step (0 before the first) */
        uint8x16_t previous = vextq_u8(zero, in, 15);
        uint8x16_t after_lead =
            vandq_u8(vextq_u8(zero, lead, 15), continuation);
        uint8x16_t blocks = vandq_u8(vshrq_n_u8(previous, 1), vdupq_n_u8(0x0F));
        uint8x16_t index = vbslq_u8(vdupq_n_u8(0x40), vshlq_n_u8(previous, 6),
                                    vandq_u8(in, vdupq_n_u8(0x3F)));
        uint8x16_t in_latin =
            vandq_u8(after_lead, vceqq_u8(blocks, vdupq_n_u8(1)));
        uint8x16_t in_rich = vandq_u8(after_lead, vceqq_u8(blocks, rich_block));
        uint8x16_t bytes = in;
        if (vmaxvq_u8(in_latin) != 0)
            bytes = vbslq_u8(in_latin, sb_block_lookup_neon(latin, index), bytes);
        if (vmaxvq_u8(in_rich) != 0)
            bytes = vbslq_u8(in_rich, sb_block_lookup_neon(rich, index), bytes);
        uint8x16_t mapped =
            vandq_u8(vorrq_u8(in_latin, in_rich), vtstq_u8(bytes, bytes));
        /* a lead is taken with its continuation, which must be mapped */
        uint8x16_t fine = vorrq_u8(
            vorrq_u8(ascii, mapped), vandq_u8(lead, vextq_u8(mapped, zero, 1)));
        size_t count = first_lane_set_neon(vmvnq_u8(fine));
        uint8x16_t kept = vandq_u8(vorrq_u8(ascii, mapped),
                                   vcltq_u8(lane, vdupq_n_u8((uint8_t)count)));
        unsigned keys_low = vaddv_u8(vand_u8(vget_low_u8(kept), bit));
        unsigned keys_high = vaddv_u8(vand_u8(vget_high_u8(kept), bit));
        vst1_u8(dst + out, vtbl1_u8(vget_low_u8(bytes),
                                    vld1_u8(wenc_compact8_shuffle[keys_low])));
        out += (size_t)__builtin_popcount(keys_low);
        vst1_u8(dst + out, vtbl1_u8(vget_high_u8(bytes),
                                    vld1_u8(wenc_compact8_shuffle[keys_high])));
        out += (size_t)__builtin_popcount(keys_high);
        pos += count;
        if (count == 16)
            continue;
        if (!sb_take_utf8_stop(table->encode_page, src, n, &pos, dst, &out,
                               room, html))
            break;
    }
    *written = out;
    return pos;
}

/* Over UTF-16 by the kernel above; over UTF-8 by the one before, but for
 * Thai (letters of three bytes each: the portable loop). */
static size_t sb_run_portable(const wenc_encoder *enc, const void *src,
                              size_t n, uint8_t *dst, size_t room,
                              size_t *written, int utf16);
static size_t sb_vector_neon(const wenc_encoder *enc, const void *src,
                             size_t n, uint8_t *dst, size_t room,
                             size_t *written, int utf16)
{
    const single_byte_table *table = table_of(enc->encoding_);
    bool html = enc->error_mode_ == WENC_ERRORS_HTML;
    if (utf16)
        return sb_from_utf16_neon(table, (const uint16_t *)src, n, dst, room,
                                  html, written);
    if (!sb_block_two_byte(table))
        return sb_run_portable(enc, src, n, dst, room, written, utf16);
    return sb_from_utf8_neon(table, (const uint8_t *)src, n, dst, room, html,
                             written);
}
#endif

#ifndef WENC_NO_ENCODE_TABLES
/* §9.2 over a run, where no vector kernel runs: ASCII as it is (runs of it
 * by the ASCII kernels), the rest through the encode pages, whose address
 * is held here rather than read again after every byte written, as the
 * generic loop must; stops before a code point the pages do not map (a
 * surrogate among them) or a sequence it does not take. A vector_fn. */
static size_t sb_run_portable(const wenc_encoder *enc, const void *src, size_t n,
                              uint8_t *dst, size_t room, size_t *written, int utf16)
{
    const uint8_t *page_of = table_of(enc->encoding_)->encode_page;
    size_t end = n < room ? n : room, pos = 0, out = 0;
    if (utf16) {
        const uint16_t *units = (const uint16_t *)src;
        /* the page of the last letter: a script's letters share one */
        uint32_t page_high = 0;
        const uint8_t *page = wenc_single_byte_pages[page_of[0]];
        while (pos < end) {
            uint32_t cp = units[pos];
            if (cp < 0x80) {
                dst[out++] = (uint8_t)cp;
                pos++;
                if (end - pos >= 8 && units[pos + 7] < 0x80) {
                    size_t run = wenc_utf16_ascii_to_bytes(units + pos, dst + out, end - pos);
                    pos += run;
                    out += run;
                }
                continue;
            }
            if (cp >> 8 != page_high) {
                page_high = cp >> 8;
                page = wenc_single_byte_pages[page_of[page_high]];
            }
            uint8_t byte = page[cp & 0xFF];
            if (byte == 0)
                break;
            dst[out++] = byte;
            pos++;
            /* the rest of the word: letters of the same page */
            while (pos < end && units[pos] >> 8 == page_high) {
                byte = page[units[pos] & 0xFF];
                if (byte == 0)
                    break;
                dst[out++] = byte;
                pos++;
            }
        }
    } else {
        const uint8_t *bytes = (const uint8_t *)src;
        while (pos < end) {
            uint32_t b = bytes[pos];
            if (b < 0x80) {
                ascii_byte_then_run(bytes, end, dst, &pos, &out);
                continue;
            }
            uint32_t cp;
            size_t k = utf8_two_or_three(bytes + pos, n - pos, &cp);
            uint8_t byte = k ? wenc_single_byte_pages[page_of[cp >> 8]][cp & 0xFF] : 0;
            if (byte == 0)
                break;
            dst[out++] = byte;
            pos += k;
            /* then a run of sequences of that length (the letters of
             * Cyrillic, Greek, Hebrew, Arabic; of Thai), one test each */
            if (k == 2) {
                while (end - pos >= 2 && (uint32_t)(bytes[pos] - 0xC2) <= 0x1Du &&
                       (bytes[pos + 1] & 0xC0) == 0x80) {
                    cp = (bytes[pos] & 0x1Fu) << 6 | (bytes[pos + 1] & 0x3Fu);
                    byte = wenc_single_byte_pages[page_of[cp >> 8]][cp & 0xFF];
                    if (byte == 0)
                        break;
                    dst[out++] = byte;
                    pos += 2;
                }
            } else {
                while (end - pos >= 3 &&
                       utf8_three_bytes_valid(bytes[pos], bytes[pos + 1], bytes[pos + 2])) {
                    cp = utf8_three_bytes_unit(bytes + pos);
                    byte = wenc_single_byte_pages[page_of[cp >> 8]][cp & 0xFF];
                    if (byte == 0)
                        break;
                    dst[out++] = byte;
                    pos += 3;
                }
            }
        }
    }
    *written = out;
    return pos;
}
#endif

WENC_INLINE codec_status sb_encode(wenc_encoder *enc, const void *src,
                                   size_t len, size_t *consumed, uint8_t *dst,
                                   size_t cap, size_t *written, bool last,
                                   int utf16)
{
    vector_fn vector = NULL;
#ifndef WENC_NO_ENCODE_TABLES
    if (len >= 64)
        vector = sb_run_portable; /* unless a vector kernel takes it, below */
#endif
#ifdef SB_ENCODE_AVX2
    if (len >= 64 && table_of(enc->encoding_)->encode_block != 0) {
#ifdef SB_ENCODE_AVX512
        if (wenc_cpu_has_avx512())
            vector = sb_vector;
        else
#endif
        if (wenc_cpu_has_avx2())
            vector = sb_vector_avx2;
    }
#endif
#ifdef SB_ENCODE_NEON
    if (len >= 64 && table_of(enc->encoding_)->encode_block != 0)
        vector = sb_vector_neon;
#endif
    return stateless_encode(enc, src, len, consumed, dst, cap, written, last,
                            utf16, sb_step, sb_bytes_of, vector);
}

DEFINE_ENCODE_READERS(sb, sb_encode)

/* "&#65533;" (8 bytes) for one input unit at most. */
const encoder_codec wenc_single_byte_encoder = {
    .from_utf8 = sb_from_utf8,
    .from_utf16 = sb_from_utf16,
    .max_per_unit = 8,
    .max_closing = 0,
};

/*
 * UTF-8 -> UTF-16 for whole, valid sequences, a vector at a time: the UTF-8
 * decoder's path for valid input when it writes UTF-16 (§8.1.1).
 *
 * Each block of input is validated with the shared checks (utf8_simd.h) one
 * block ahead of its transcoding, so that the byte after a block is known to
 * be valid when the block is transcoded. Transcoding follows the idea of
 * Lemire and Muła ("Transcoding Unicode characters with AVX-512
 * instructions", 2023): every byte position gets, in a 16-bit lane, the
 * code unit of the sequence that would end there, computed from the byte
 * and the two before it; the lanes where a sequence does end (the next byte
 * is not a continuation) are then compressed into the output. A block
 * holding a lead of four bytes (or continuing one) is decoded one sequence
 * at a time instead.
 */
#include "utf8_simd.h"

#ifdef WENC_HAVE_RUNTIME_AVX512
/* Where decoding resumes when the blocks before `at` are done: `at`, or the
 * lead of the sequence that the byte at `at` continues. src[0..at] passed
 * the check. */
static size_t utf8_sequence_start(const uint8_t *src, size_t at)
{
    while (at > 0 && (src[at] & 0xC0) == 0x80)
        at--;
    return at;
}

/* Decodes the sequences of src[from..end) that end before `end`; they passed
 * the check. The caller leaves room for one unit per byte. Returns where it
 * stopped (the lead of a sequence that `end` cuts, or end). */
static size_t utf8_checked_to_utf16(const uint8_t *src, size_t from,
                                    size_t end, uint16_t *dst, size_t *out)
{
    size_t i = from, o = *out;
    while (i < end) {
        uint32_t b = src[i];
        if (b < 0x80) {
            dst[o++] = (uint16_t)b;
            i++;
        } else if (b < 0xE0) {
            if (end - i < 2)
                break;
            dst[o++] = (uint16_t)((b & 0x1F) << 6 | (src[i + 1] & 0x3Fu));
            i += 2;
        } else if (b < 0xF0) {
            if (end - i < 3)
                break;
            dst[o++] = (uint16_t)((b & 0x0F) << 12 | (src[i + 1] & 0x3Fu) << 6 |
                                  (src[i + 2] & 0x3Fu));
            i += 3;
        } else {
            if (end - i < 4)
                break;
            uint32_t cp = (b & 0x07) << 18 | (src[i + 1] & 0x3Fu) << 12 |
                          (src[i + 2] & 0x3Fu) << 6 | (src[i + 3] & 0x3Fu);
            cp -= 0x10000;
            dst[o++] = (uint16_t)(0xD800 | (cp >> 10));
            dst[o++] = (uint16_t)(0xDC00 | (cp & 0x3FF));
            i += 4;
        }
    }
    *out = o;
    return i;
}
#endif

/*
 * The kernels below decode src[0..n) into dst[0..cap) and return how many
 * leading bytes they decoded, all whole, valid sequences; *written gets the
 * units. They stop before the block whose next block holds an error, or
 * whose units do not fit; they never write past dst[cap - 1]. src starts a
 * sequence.
 *
 * In a block, lane i stands for the sequence ending at byte i, whose unit
 * is b[i] for ASCII, else (b[i-1] & 0x3F) << 6 | (b[i] & 0x3F), plus
 * b[i-2] << 12 (its low four bits in 16 bits) when b[i-1] is a continuation
 * too. Lane i is kept when b[i+1] is not a continuation.
 */
#ifdef WENC_HAVE_RUNTIME_AVX512
/* The 64 bytes at src (n >= 64), or the n there and zeros after them. */
WENC_TARGET_AVX512 static inline __m512i utf8_block512(const uint8_t *src,
                                                       size_t n)
{
    if (n >= 64)
        return _mm512_loadu_si512((const void *)src);
    return _mm512_maskz_loadu_epi8(_bzhi_u64(~UINT64_C(0), (unsigned)n),
                                   (const void *)src);
}

/* The units of the sequences ending in lanes 32 * half .. 32 * half + 31 of
 * `cur` (after `prev`), compressed to the lanes in `ends`. `three`: the
 * lanes ending a sequence of three bytes; `ascii`: the ASCII lanes. */
WENC_TARGET_AVX512 static inline __m512i
utf8_units512(__m512i prev, __m512i cur, unsigned half, uint32_t ascii,
              uint32_t three, uint32_t ends)
{
    /* byte pair k: b[i] and b[i-1] for lane i = 32 * half + k, as indices
     * into prev (0-63) and cur (64-127) */
    const __m512i lane_pairs = _mm512_mullo_epi16(
        _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19,
                         18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4,
                         3, 2, 1, 0),
        _mm512_set1_epi16(0x0101));
    const __m512i at_i = _mm512_add_epi16(
        lane_pairs, _mm512_set1_epi16((short)(0x3F40 + 0x2020 * half)));
    const __m512i at_i2 = _mm512_add_epi16(
        lane_pairs, _mm512_set1_epi16((short)(0x3E3E + 0x2020 * half)));
    /* b[i-1] only where b[i] is not ASCII */
    __mmask64 keep = UINT64_C(0x5555555555555555) |
                     _pdep_u64(~ascii & 0xFFFFFFFFu,
                               UINT64_C(0xAAAAAAAAAAAAAAAA));
    __m512i pair = _mm512_maskz_permutex2var_epi8(keep, prev, at_i, cur);
    __m512i lead3 = _mm512_permutex2var_epi8(prev, at_i2, cur);
    __m512i units = _mm512_maddubs_epi16(
        _mm512_and_si512(pair, _mm512_set1_epi16(0x3F7F)),
        _mm512_set1_epi16(0x4001)); /* low byte + 64 x high byte */
    units = _mm512_mask_add_epi16(units, three, units,
                                  _mm512_slli_epi16(lead3, 12));
    return _mm512_maskz_compress_epi16(ends, units);
}

WENC_TARGET_AVX512 static size_t utf8_to_utf16_avx512(const uint8_t *src,
                                                      size_t n, uint16_t *dst,
                                                      size_t cap,
                                                      size_t *written)
{
    const __m512i continuation_max = _mm512_set1_epi8(-64); /* 0xC0 */
    const __m512i lead4_min = _mm512_set1_epi8((char)0xF0);
    utf8_checker512 check;
    utf8_check512_init(&check);
    __m512i prev = _mm512_setzero_si512();
    __m512i cur = utf8_block512(src, n);
    uint64_t cur_non_ascii = _mm512_movepi8_mask(cur);
    uint64_t prev_conts = 0, prev_leads4 = 0;
    size_t pos = 0, out = 0;
    if (cur_non_ascii == 0)
        utf8_check512_ascii(&check, cur);
    else if (utf8_check512(&check, cur) != 0)
        goto stopped;
    while (pos < n) {
        size_t next_at = pos + 64;
        __m512i next = next_at < n ? utf8_block512(src + next_at, n - next_at)
                                   : _mm512_setzero_si512();
        uint64_t next_non_ascii = _mm512_movepi8_mask(next);
        if ((next_non_ascii | cur_non_ascii) == 0)
            utf8_check512_ascii(&check, next);
        else if (utf8_check512(&check, next) != 0)
            break;
        size_t live = n - pos < 64 ? n - pos : 64;
        uint64_t live_mask = _bzhi_u64(~UINT64_C(0), (unsigned)live);
        if (cur_non_ascii == 0) {
            if (cap - out < live)
                break;
            _mm512_mask_storeu_epi16(
                (void *)(dst + out), (__mmask32)live_mask,
                _mm512_cvtepu8_epi16(_mm512_castsi512_si256(cur)));
            _mm512_mask_storeu_epi16(
                (void *)(dst + out + 32), (__mmask32)(live_mask >> 32),
                _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(cur, 1)));
            out += live;
            prev_conts = prev_leads4 = 0;
        } else {
            uint64_t conts = _mm512_cmplt_epi8_mask(cur, continuation_max);
            uint64_t leads4 = _mm512_cmpge_epu8_mask(cur, lead4_min);
            uint64_t next_cont =
                next_at < n && (src[next_at] & 0xC0) == 0x80;
            uint64_t ends = ~(conts >> 1 | next_cont << 63) & live_mask;
            if ((leads4 | prev_leads4 >> 61) != 0) {
                size_t from = utf8_sequence_start(src, pos);
                if (cap - out < pos + live - from)
                    break;
                utf8_checked_to_utf16(src, from, pos + live, dst, &out);
            } else {
                size_t count = (size_t)_mm_popcnt_u64(ends);
                if (cap - out < count)
                    break;
                uint64_t three = conts & (conts << 1 | prev_conts >> 63);
                uint64_t ascii = ~cur_non_ascii;
                size_t count0 = (size_t)_mm_popcnt_u32((uint32_t)ends);
                __m512i units0 = utf8_units512(prev, cur, 0, (uint32_t)ascii,
                                               (uint32_t)three, (uint32_t)ends);
                __m512i units1 = utf8_units512(
                    prev, cur, 1, (uint32_t)(ascii >> 32),
                    (uint32_t)(three >> 32), (uint32_t)(ends >> 32));
                _mm512_mask_storeu_epi16((void *)(dst + out),
                                         _bzhi_u32(~0u, (unsigned)count0),
                                         units0);
                _mm512_mask_storeu_epi16(
                    (void *)(dst + out + count0),
                    _bzhi_u32(~0u, (unsigned)(count - count0)), units1);
                out += count;
            }
            prev_conts = conts;
            prev_leads4 = leads4;
        }
        prev = cur;
        cur = next;
        cur_non_ascii = next_non_ascii;
        pos = next_at < n ? next_at : n;
    }
stopped:
    *written = out;
    return pos < n ? utf8_sequence_start(src, pos) : n;
}
#endif

size_t wenc_utf8_to_utf16_vectors(const uint8_t *src, size_t n, uint16_t *dst,
                                  size_t cap, size_t *written)
{
    switch (wenc_utf8_vector_width(n)) {
#ifdef WENC_HAVE_RUNTIME_AVX512
    case 64:
        return utf8_to_utf16_avx512(src, n, dst, cap, written);
#endif
    default:
        (void)src;
        (void)dst;
        (void)cap;
        *written = 0;
        return 0;
    }
}

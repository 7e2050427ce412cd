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
 * is not a continuation) are then compressed into the output. A sequence
 * of four bytes puts its high surrogate in the lane of its third byte and
 * its low one in that of its fourth; the block after one whose third byte
 * ends the block is decoded one sequence at a time instead. A block of
 * ASCII and two-byte sequences only (Latin-script text) takes a shorter
 * path in both steps: its check compares where continuations are with
 * where leads are, and each lane's unit comes from the byte and the one
 * before it, widened. With AVX-512, from the second block on, text without
 * sequences of four bytes goes to a loop that checks and decodes each
 * block alone (no block ahead: a sequence open at a block's end waits for
 * the next), its check by masks (where leads of two and three bytes and
 * continuations are, and the byte after E0 and ED), the bytes before each
 * sequence's last loaded into its lane by masked loads one and two bytes
 * back. With AVX2 alone, text whose longer sequences are few
 * (Latin-script text, markup) takes another way: ASCII a vector at a time;
 * from a two-byte sequence on, blocks of ASCII and two-byte sequences
 * checked by their masks alone (continuations exactly after leads C2-DF)
 * and decoded as above, until a longer sequence, an error or 128 bytes of
 * ASCII; each other sequence checked and decoded on its own; and runs of
 * three-byte sequences (Chinese, Japanese, Thai) five at a time by two
 * fixed shuffles. The AVX2 kernel hands the text back and
 * forth between that and the blocks above by how many sequences it has to
 * take one by one in 32 bytes. The NEON kernels do the same 16 bytes a
 * step, but decode a block holding a lead of four bytes, or after one whose
 * last three bytes do, a sequence at a time, and take runs of three-byte
 * sequences 48 bytes at a time, split by VLD3.
 */
#include "utf8_simd.h"

#if defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
#define WENC_UTF8_BLOCKS 1
#endif

#ifdef WENC_HAVE_RUNTIME_AVX2
/* Widens the 32 ASCII bytes `in` to dst[0..32). */
WENC_TARGET_AVX2 static inline void utf8_widen256(__m256i in, uint16_t *dst)
{
    _mm256_storeu_si256((__m256i *)(void *)dst,
                        _mm256_cvtepu8_epi16(_mm256_castsi256_si128(in)));
    _mm256_storeu_si256((__m256i *)(void *)(dst + 16),
                        _mm256_cvtepu8_epi16(_mm256_extracti128_si256(in, 1)));
}
#endif

#ifdef WENC_UTF8_BLOCKS
/* How many sequences longer than one byte in 32 bytes of input make the
 * run kernel hand over to the block kernel. Measured on the corpus with
 * AVX2: 2 to 4
 * ran the same but on Czech and Turkish, which gained from the block
 * kernel's handing back at a block of ASCII (cs 1.02x -> 1.09x, tr 1.00x ->
 * 1.19x the best peer). */
enum { UTF8_DENSE_SEQUENCES = 4 };

/* What a kernel read (whole sequences) and the units it made, returned in
 * registers (through a pointer, its caller kept more on the stack and
 * measured slower). */
typedef struct utf8_progress {
    size_t read, made;
} utf8_progress;

/* The run kernels' count of the sequences they take one by one, by
 * windows of 32 bytes of input. */
typedef struct utf8_density {
    size_t window_end;
    unsigned in_window;
} utf8_density;

/* Counts `turns` more at pos of n; true when more than
 * UTF8_DENSE_SEQUENCES have come within a window and 64 bytes or more
 * follow: text for the block kernel. */
static inline bool utf8_dense_after(utf8_density *d, unsigned turns,
                                    size_t pos, size_t n)
{
    if (pos >= d->window_end) {
        d->window_end = pos + 32;
        d->in_window = 0;
    }
    d->in_window += turns;
    return d->in_window > UTF8_DENSE_SEQUENCES && n - pos >= 64;
}

/* A run kernel (utf8_runs_to_utf16_avx2()) and a block kernel
 * (utf8_blocks_to_utf16_avx2()) of one instruction set. */
typedef size_t (*utf8_runs_fn)(const uint8_t *src, size_t n, uint16_t *dst,
                               size_t cap, size_t *written, bool *dense);
typedef size_t (*utf8_blocks_fn)(const uint8_t *src, size_t n, uint16_t *dst,
                                 size_t cap, size_t *written);

/* The run kernel and the block kernel in turn (from the block kernel when
 * `dense`), each taking the text it is faster on. Where the block kernel
 * stops short of an error or of the end of its room, the run kernel goes
 * on to them; each of its turns but the last takes three sequences or more
 * (it hands over when more than UTF8_DENSE_SEQUENCES sequences and stops
 * of its windows come within 32 bytes, a sequence and a stop counting 2).
 * The kernels' contract (below) for the pair. */
static inline size_t utf8_kernels_in_turn(utf8_runs_fn runs,
                                          utf8_blocks_fn blocks, bool dense,
                                          const uint8_t *src, size_t n,
                                          uint16_t *dst, size_t cap,
                                          size_t *written)
{
    size_t pos = 0, out = 0;
    for (;;) {
        size_t made = 0;
        if (!dense) {
            pos += runs(src + pos, n - pos, dst + out, cap - out, &made,
                        &dense);
            out += made;
            if (!dense)
                break;
            made = 0;
        }
        pos += blocks(src + pos, n - pos, dst + out, cap - out, &made);
        out += made;
        dense = false;
    }
    *written = out;
    return pos;
}

/* Where decoding resumes when the blocks before `at` are done: `at`, or the
 * lead of the sequence that the byte at `at` continues. src[0..at] passed
 * the check. */
static size_t utf8_sequence_start(const uint8_t *src, size_t at)
{
    while (at > 0 && (src[at] & 0xC0) == 0x80)
        at--;
    return at;
}

/* Decodes the sequences of src[from..end) that end before `end` (they passed
 * the check) into dst, a unit per byte at most; returns the units. */
static size_t utf8_checked_to_utf16(const uint8_t *src, size_t from,
                                    size_t end, uint16_t *dst)
{
    size_t i = from, o = 0;
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
    return o;
}

/* A block that starts with the last byte of a sequence of four, a sequence
 * at a time: the sequences ending in src[at..end) and the one `at` continues,
 * into dst[0..room) when they fit; returns the units, or SIZE_MAX when they
 * do not fit (nothing written). */
static size_t utf8_block_to_utf16(const uint8_t *src, size_t at, size_t end,
                                  uint16_t *dst, size_t room)
{
    uint16_t units[64 + 4];
    size_t made =
        utf8_checked_to_utf16(src, utf8_sequence_start(src, at), end, units);
    if (made > room)
        return SIZE_MAX;
    memcpy(dst, units, made * sizeof units[0]);
    return made;
}
#endif

/*
 * The kernels below decode src[0..n) into dst[0..cap) and return how many
 * leading bytes they decoded, all whole, valid sequences; *written gets the
 * units. They stop before the block whose next block holds an error, or
 * whose units do not fit; they change nothing past their output. src starts
 * a sequence.
 *
 * In a block, lane i stands for the sequence ending at byte i, whose unit
 * is b[i] for ASCII, else (b[i-1] & 0x3F) << 6 | (b[i] & 0x3F), plus
 * b[i-2] << 12 (its low four bits in 16 bits) when b[i-1] is a continuation
 * too. Lane i is kept when b[i+1] is not a continuation, or b[i-2] is a
 * lead of four bytes.
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

/* Widens the 64 ASCII bytes `in` to dst[0..64). */
WENC_TARGET_AVX512 static inline void utf8_widen512(__m512i in, uint16_t *dst)
{
    _mm512_storeu_si512((void *)dst,
                        _mm512_cvtepu8_epi16(_mm512_castsi512_si256(in)));
    _mm512_storeu_si512((void *)(dst + 32),
                        _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(in, 1)));
}

/* Widens the ASCII bytes of `in` in the lanes `live` to dst. */
WENC_TARGET_AVX512 static inline void utf8_widen512_live(__m512i in,
                                                        uint64_t live,
                                                        uint16_t *dst)
{
    _mm512_mask_storeu_epi16((void *)dst, (__mmask32)live,
                             _mm512_cvtepu8_epi16(_mm512_castsi512_si256(in)));
    _mm512_mask_storeu_epi16(
        (void *)(dst + 32), (__mmask32)(live >> 32),
        _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(in, 1)));
}

/* The units of lanes 32 * half .. 32 * half + 31 of `cur` (after `prev`)
 * but those of four bytes. Bit i of `ascii`: b[i] is ASCII; of `three`: b[i]
 * and b[i-1] are continuations. */
WENC_TARGET_AVX512 static inline __m512i utf8_units512(__m512i prev,
                                                       __m512i cur,
                                                       unsigned half,
                                                       uint32_t ascii,
                                                       uint32_t three)
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
                     _pdep_u64(~ascii, UINT64_C(0xAAAAAAAAAAAAAAAA));
    __m512i pair = _mm512_maskz_permutex2var_epi8(keep, prev, at_i, cur);
    __m512i lead3 = _mm512_permutex2var_epi8(prev, at_i2, cur);
    __m512i units = _mm512_maddubs_epi16(
        _mm512_and_si512(pair, _mm512_set1_epi16(0x3F7F)),
        _mm512_set1_epi16(0x4001)); /* low byte + 64 x high byte */
    return _mm512_mask_add_epi16(units, three, units,
                                 _mm512_slli_epi16(lead3, 12));
}

/* Sequences of four bytes: the lane of the third byte (`thirds`) holds the
 * code point >> 6, that of the fourth (`fourths`) its low 12 bits; they
 * become the high and the low surrogate. */
WENC_TARGET_AVX512 static inline __m512i
utf8_surrogates512(__m512i units, uint32_t thirds, uint32_t fourths)
{
    units = _mm512_mask_add_epi16(
        units, thirds, _mm512_srli_epi16(units, 4),
        _mm512_set1_epi16((short)(0xD800 - (0x10000 >> 10))));
    return _mm512_mask_add_epi16(
        units, fourths, _mm512_and_si512(units, _mm512_set1_epi16(0x3FF)),
        _mm512_set1_epi16((short)0xDC00));
}

/* The units of the 64 bytes `cur`, none of them E0-FF, whose byte i follows
 * byte i of `before`: lanes 0-31 in *units0, 32-63 in *units1; a
 * continuation's lane holds its sequence's unit, an ASCII byte's its byte.
 * Bit i of `conts`: b[i] is a continuation. */
WENC_TARGET_AVX512 static inline void utf8_two_units512(__m512i cur,
                                                       __m512i before,
                                                       uint64_t conts,
                                                       __m512i *units0,
                                                       __m512i *units1)
{
    const __m512i lead_bits = _mm512_set1_epi16(0x07C0);
    __m512i low0 = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(cur));
    __m512i low1 = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(cur, 1));
    __m512i high0 = _mm512_slli_epi16(
        _mm512_cvtepu8_epi16(_mm512_castsi512_si256(before)), 6);
    __m512i high1 = _mm512_slli_epi16(
        _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(before, 1)), 6);
    /* (lead & 0x1F) << 6 | (continuation & 0x3F): high where lead_bits,
     * else low */
    *units0 = _mm512_mask_mov_epi16(
        low0, (__mmask32)conts,
        _mm512_ternarylogic_epi32(low0, high0, lead_bits, 0xD8));
    *units1 = _mm512_mask_mov_epi16(
        low1, (__mmask32)(conts >> 32),
        _mm512_ternarylogic_epi32(low1, high1, lead_bits, 0xD8));
}

/* Stores the units of the lanes `ends` of units0 (lanes 0-31) and units1
 * (32-63), in order, at dst; returns how many. */
WENC_TARGET_AVX512 static inline size_t
utf8_store_ends512(__m512i units0, __m512i units1, uint64_t ends,
                   uint16_t *dst)
{
    size_t count = (size_t)_mm_popcnt_u64(ends);
    size_t count0 = (size_t)_mm_popcnt_u32((uint32_t)ends);
    units0 = _mm512_maskz_compress_epi16((__mmask32)ends, units0);
    units1 = _mm512_maskz_compress_epi16((__mmask32)(ends >> 32), units1);
    _mm512_mask_storeu_epi16((void *)dst, _bzhi_u32(~0u, (unsigned)count0),
                             units0);
    _mm512_mask_storeu_epi16((void *)(dst + count0),
                             _bzhi_u32(~0u, (unsigned)(count - count0)),
                             units1);
    return count;
}

/* The units of the 32 lanes `low` (each byte's low seven bits) whose
 * sequences end there, `middle` holding the byte before each sequence's
 * last (its lead of two bytes, or its second of three) and zero in the
 * other lanes: low | (middle & 0x3F) << 6. The lead of three bytes is the
 * caller's. */
WENC_TARGET_AVX512 static inline __m512i utf8_lane_units512(__m256i low,
                                                           __m256i middle)
{
    return _mm512_ternarylogic_epi32(
        _mm512_cvtepu8_epi16(low),
        _mm512_slli_epi16(_mm512_cvtepu8_epi16(middle), 6),
        _mm512_set1_epi16(0x0FC0), 0xF8); /* a | (b & c) */
}

/* Blocks of sequences of one to three bytes from src[pos] (pos >= 2, a
 * sequence's start, all bytes before it checked), each checked by its masks
 * alone: every byte ASCII, a lead C2-DF or E0-EF or a continuation, the
 * continuations exactly where the leads want them, the byte after E0 A0-BF
 * and after ED 80-9F. Stops at the first block that is not such a block
 * or whose units do not fit, or when 64 bytes or fewer are left. Returns
 * where it stopped, the start of the sequence open there; adds the units
 * it made to *out. */
WENC_TARGET_AVX512 static size_t utf8_bmp_blocks_avx512(const uint8_t *src,
                                                       size_t pos, size_t n,
                                                       uint16_t *dst,
                                                       size_t cap, size_t *out)
{
    const __m512i continuation_max = _mm512_set1_epi8(-64); /* 0xC0 */
    const __m512i lead2_min = _mm512_set1_epi8((char)0xC2);
    const __m512i lead2_count = _mm512_set1_epi8(0xDF - 0xC2 + 1);
    const __m512i lead3_min = _mm512_set1_epi8((char)0xE0);
    const __m512i lead3_count = _mm512_set1_epi8(0xEF - 0xE0 + 1);
    const __m512i overlong_lead = _mm512_set1_epi8((char)0xE0);
    const __m512i surrogate_lead = _mm512_set1_epi8((char)0xED);
    const __m512i second_split = _mm512_set1_epi8((char)0xA0);
    const __m512i low7 = _mm512_set1_epi8(0x7F);
    size_t made = *out;
    /* the last block's leads (of two and three bytes), E0 and ED */
    uint64_t last2 = 0, last3 = 0, last_e0 = 0, last_ed = 0;
    while (n - pos > 64) {
        __m512i in = _mm512_loadu_si512((const void *)(src + pos));
        uint64_t non_ascii = _mm512_movepi8_mask(in);
        uint64_t open = last2 >> 63 | last3 >> 62;
        if ((non_ascii | open) == 0) {
            /* ASCII while it lasts, each block loaded before the stores of
             * the one before (a step of the loop around, for ASCII, measured
             * English text 0.6x) */
            if (cap - made < 64)
                break;
            while (n - pos >= 192 && cap - made >= 128) {
                __m512i next =
                    _mm512_loadu_si512((const void *)(src + pos + 64));
                utf8_widen512(in, dst + made);
                made += 64;
                pos += 64;
                in = next;
                if (_mm512_movepi8_mask(next) != 0)
                    break;
            }
            if (_mm512_movepi8_mask(in) != 0)
                continue;
            utf8_widen512(in, dst + made);
            made += 64;
            pos += 64;
            continue;
        }
        uint64_t conts = _mm512_cmplt_epi8_mask(in, continuation_max);
        uint64_t leads2 = _mm512_cmplt_epu8_mask(
            _mm512_sub_epi8(in, lead2_min), lead2_count);
        __m512i low = _mm512_and_si512(in, low7);
        __m512i units0, units1;
        uint64_t ends;
        if ((conts | leads2) == non_ascii &&
            conts == (leads2 << 1 | last2 >> 63) && (last3 >> 62) == 0) {
            /* ASCII and two-byte sequences: each lead loaded into the
             * lane of its continuation */
            __m512i before =
                _mm512_maskz_loadu_epi8(conts, (const void *)(src + pos - 1));
            units0 = utf8_lane_units512(_mm512_castsi512_si256(low),
                                        _mm512_castsi512_si256(before));
            units1 = utf8_lane_units512(_mm512_extracti64x4_epi64(low, 1),
                                        _mm512_extracti64x4_epi64(before, 1));
            ends = ~leads2;
            if (cap - made < (size_t)_mm_popcnt_u64(ends))
                break;
            last3 = last_e0 = last_ed = 0;
        } else {
            uint64_t leads3 = _mm512_cmplt_epu8_mask(
                _mm512_sub_epi8(in, lead3_min), lead3_count);
            uint64_t seconds = leads3 << 1 | last3 >> 63;
            uint64_t thirds = leads3 << 2 | last3 >> 62;
            uint64_t e0 = _mm512_cmpeq_epi8_mask(in, overlong_lead);
            uint64_t ed = _mm512_cmpeq_epi8_mask(in, surrogate_lead);
            uint64_t after_e0 = e0 << 1 | last_e0 >> 63;
            uint64_t after_ed = ed << 1 | last_ed >> 63;
            uint64_t below_a0 = _mm512_cmplt_epu8_mask(in, second_split);
            if ((conts | leads2 | leads3) != non_ascii ||
                conts != (leads2 << 1 | last2 >> 63 | seconds | thirds) ||
                (after_e0 & below_a0) != 0 || (after_ed & ~below_a0) != 0)
                break;
            /* a sequence's last lane: the byte before it (a lead of two
             * or a continuation) and, for three bytes, the one before that
             * (the lead) loaded into its lane */
            __m512i middle =
                _mm512_maskz_loadu_epi8(conts, (const void *)(src + pos - 1));
            __m512i first =
                _mm512_maskz_loadu_epi8(thirds, (const void *)(src + pos - 2));
            units0 = _mm512_or_si512(
                utf8_lane_units512(_mm512_castsi512_si256(low),
                                   _mm512_castsi512_si256(middle)),
                _mm512_slli_epi16(
                    _mm512_cvtepu8_epi16(_mm512_castsi512_si256(first)), 12));
            units1 = _mm512_or_si512(
                utf8_lane_units512(_mm512_extracti64x4_epi64(low, 1),
                                   _mm512_extracti64x4_epi64(middle, 1)),
                _mm512_slli_epi16(
                    _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(first, 1)),
                    12));
            ends = ~(leads2 | leads3 | seconds);
            if (cap - made < (size_t)_mm_popcnt_u64(ends))
                break;
            last3 = leads3;
            last_e0 = e0;
            last_ed = ed;
        }
        made += utf8_store_ends512(units0, units1, ends, dst + made);
        last2 = leads2;
        pos += 64;
    }
    *out = made;
    return pos - ((last3 >> 62 & 1) != 0 ? 2 : (last2 | last3) >> 63);
}

WENC_TARGET_AVX512 static size_t utf8_blocks_to_utf16_avx512(
    const uint8_t *src, size_t n, uint16_t *dst, size_t cap, size_t *written)
{
    const __m512i continuation_max = _mm512_set1_epi8(-64); /* 0xC0 */
    const __m512i lead3_min = _mm512_set1_epi8((char)0xE0);
    const __m512i lead4_min = _mm512_set1_epi8((char)0xF0);
    utf8_checker512 check;
    utf8_check512_init(&check);
    __m512i prev = _mm512_setzero_si512();
    __m512i cur = utf8_block512(src, n);
    uint64_t cur_non_ascii = _mm512_movepi8_mask(cur);
    uint64_t cur_leads3 = _mm512_cmpge_epu8_mask(cur, lead3_min);
    uint64_t cur_conts = _mm512_cmplt_epi8_mask(cur, continuation_max);
    uint64_t prev_conts = 0, prev_leads3 = 0, prev_leads4 = 0;
    size_t pos = 0, out = 0;
    if (cur_non_ascii == 0)
        utf8_check512_ascii(&check, cur);
    else if (utf8_check512(&check, cur) != 0)
        goto stopped;
    while (pos < n) {
        if (cur_non_ascii == 0 && n - pos >= 128 && cap - out >= 64) {
            /* ASCII after ASCII needs no check: widen while it lasts (two
             * blocks a step measured no faster) */
            do {
                __m512i next =
                    _mm512_loadu_si512((const void *)(src + pos + 64));
                if (_mm512_movepi8_mask(next) != 0)
                    break;
                utf8_widen512(cur, dst + out);
                out += 64;
                pos += 64;
                cur = next;
            } while (n - pos >= 128 && cap - out >= 64);
            utf8_check512_ascii(&check, cur);
            prev_conts = prev_leads3 = prev_leads4 = 0;
        }
        if (cur_non_ascii != 0 && pos > 0 && n - pos >= 128 &&
            (prev_leads4 >> 61) == 0 &&
            _mm512_cmpge_epu8_mask(cur, lead4_min) == 0) {
            /* to the loop of blocks of sequences of one to three bytes,
             * from the sequence open here; then on from where it stopped
             * (a sequence's start) as from the start, with the 64 bytes
             * before as checked */
            size_t start = utf8_sequence_start(src, pos);
            size_t at = utf8_bmp_blocks_avx512(src, start, n, dst, cap, &out);
            if (at != start) {
                pos = at;
                prev = _mm512_loadu_si512((const void *)(src + pos - 64));
                prev_conts = prev_leads3 = prev_leads4 = 0;
                utf8_check512_resume(&check, prev);
                cur = utf8_block512(src + pos, n - pos);
                cur_non_ascii = _mm512_movepi8_mask(cur);
                cur_leads3 = _mm512_cmpge_epu8_mask(cur, lead3_min);
                cur_conts = _mm512_cmplt_epi8_mask(cur, continuation_max);
                if (utf8_check512(&check, cur) != 0) {
                    /* at a sequence's start: not utf8_sequence_start()
                     * past a lone continuation */
                    *written = out;
                    return pos;
                }
                continue;
            }
        }
        size_t next_at = pos + 64;
        __m512i next = next_at < n ? utf8_block512(src + next_at, n - next_at)
                                   : _mm512_setzero_si512();
        uint64_t next_non_ascii = _mm512_movepi8_mask(next);
        uint64_t next_leads3 = 0, next_conts = 0;
        if (next_non_ascii != 0) {
            next_leads3 = _mm512_cmpge_epu8_mask(next, lead3_min);
            next_conts = _mm512_cmplt_epi8_mask(next, continuation_max);
        }
        if ((next_non_ascii | cur_non_ascii) == 0)
            utf8_check512_ascii(&check, next);
        else if ((next_leads3 | check.leads3 >> 61) == 0) {
            /* ASCII and sequences of two bytes: Latin-script text */
            if (utf8_check512_two(&check, next, next_conts) != 0)
                break;
        } else if (utf8_check512(&check, next) != 0)
            break;
        size_t live = n - pos < 64 ? n - pos : 64;
        uint64_t live_mask = _bzhi_u64(~UINT64_C(0), (unsigned)live);
        if (cur_non_ascii == 0) {
            if (cap - out < live)
                break;
            utf8_widen512_live(cur, live_mask, dst + out);
            out += live;
            prev_conts = prev_leads4 = 0;
        } else if ((cur_leads3 | prev_leads3 >> 61) == 0 && pos > 0) {
            /* sequences of one and two bytes only */
            uint64_t conts = cur_conts;
            uint64_t ends = ~(conts >> 1 | next_conts << 63) & live_mask;
            if (cap - out < (size_t)_mm_popcnt_u64(ends))
                break;
            __m512i units0, units1;
            utf8_two_units512(
                cur, utf8_block512(src + pos - 1, live), conts, &units0,
                &units1);
            out += utf8_store_ends512(units0, units1, ends, dst + out);
            prev_conts = conts;
            prev_leads4 = 0;
        } else {
            uint64_t conts = cur_conts;
            uint64_t leads4 = _mm512_cmpge_epu8_mask(cur, lead4_min);
            uint64_t ends = ~(conts >> 1 | next_conts << 63);
            if ((prev_leads4 >> 61 & 1) != 0) {
                size_t made = utf8_block_to_utf16(src, pos, pos + live,
                                                  dst + out, cap - out);
                if (made == SIZE_MAX)
                    break;
                out += made;
            } else {
                uint64_t ascii = ~cur_non_ascii;
                uint64_t three = conts & (conts << 1 | prev_conts >> 63);
                __m512i units0 = utf8_units512(prev, cur, 0, (uint32_t)ascii,
                                               (uint32_t)three);
                __m512i units1 =
                    utf8_units512(prev, cur, 1, (uint32_t)(ascii >> 32),
                                  (uint32_t)(three >> 32));
                if ((leads4 | prev_leads4) != 0) {
                    uint64_t thirds = leads4 << 2 | prev_leads4 >> 62;
                    uint64_t fourths = leads4 << 3 | prev_leads4 >> 61;
                    units0 = utf8_surrogates512(units0, (uint32_t)thirds,
                                                (uint32_t)fourths);
                    units1 = utf8_surrogates512(units1,
                                                (uint32_t)(thirds >> 32),
                                                (uint32_t)(fourths >> 32));
                    /* the high surrogate is kept, but in lane 63: the next
                     * block would hold the low one, and decodes the whole
                     * sequence one at a time */
                    ends |= thirds & ~(UINT64_C(1) << 63);
                }
                ends &= live_mask;
                if (cap - out < (size_t)_mm_popcnt_u64(ends))
                    break;
                out += utf8_store_ends512(units0, units1, ends, dst + out);
            }
            prev_conts = conts;
            prev_leads4 = leads4;
        }
        prev = cur;
        cur = next;
        cur_non_ascii = next_non_ascii;
        prev_leads3 = cur_leads3;
        cur_leads3 = next_leads3;
        cur_conts = next_conts;
        pos = next_at < n ? next_at : n;
    }
stopped:
    *written = out;
    return pos < n ? utf8_sequence_start(src, pos) : n;
}

/* Leading ASCII is widened before the checker is set up, which short
 * inputs measured to notice. */
WENC_TARGET_AVX512 static size_t utf8_to_utf16_avx512(const uint8_t *src,
                                                      size_t n, uint16_t *dst,
                                                      size_t cap,
                                                      size_t *written)
{
    size_t pos = 0;
    while (n - pos >= 64 && cap - pos >= 64) {
        __m512i in = _mm512_loadu_si512((const void *)(src + pos));
        if (_mm512_movepi8_mask(in) != 0)
            break;
        utf8_widen512(in, dst + pos);
        pos += 64;
    }
    if (n - pos < 64 && cap - pos >= n - pos) {
        __mmask64 live = _bzhi_u64(~UINT64_C(0), (unsigned)(n - pos));
        __m512i in = _mm512_maskz_loadu_epi8(live, (const void *)(src + pos));
        if (_mm512_movepi8_mask(in) == 0) {
            utf8_widen512_live(in, live, dst + pos);
            *written = n;
            return n;
        }
    }
    size_t made = 0;
    size_t read = utf8_blocks_to_utf16_avx512(src + pos, n - pos, dst + pos,
                                              cap - pos, &made);
    *written = pos + made;
    return pos + read;
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX2

/* The 32 bytes at src (n >= 32), or the n there and zeros after them. */
WENC_TARGET_AVX2 static inline __m256i utf8_block256(const uint8_t *src,
                                                     size_t n)
{
    if (n >= 32)
        return _mm256_loadu_si256((const __m256i *)(const void *)src);
    uint8_t last[32] = {0};
    memcpy(last, src, n);
    return _mm256_loadu_si256((const __m256i *)(const void *)last);
}

/* Moves the units of `units` in the lanes `keep_low` of its low half (8
 * lanes) to the front of that half, and those in `keep_high` of the high
 * half to the front of that one. */
WENC_TARGET_AVX2 static inline __m256i utf8_compress_halves(__m256i units,
                                                            unsigned keep_low,
                                                            unsigned keep_high)
{
    __m256i control = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(
            (const __m128i *)(const void *)wenc_compact16_shuffle[keep_low & 0xFF])),
        _mm_loadu_si128(
            (const __m128i *)(const void *)wenc_compact16_shuffle[keep_high & 0xFF]),
        1);
    return _mm256_shuffle_epi8(units, control);
}

/* Stores the units of the lanes `keep` of a block at dst, in order:
 * units_a holds lanes 0-7 and 16-23, units_b lanes 8-15 and 24-31. The
 * stores reach 8 units past the last kept lane of each group of eight, so
 * up to 32 units in all. Returns how many were kept. */
WENC_TARGET_AVX2 static inline size_t utf8_store_kept256(__m256i units_a,
                                                         __m256i units_b,
                                                         uint32_t keep,
                                                         uint16_t *dst)
{
    size_t first = (size_t)_mm_popcnt_u32(keep & 0xFF);
    size_t two = (size_t)_mm_popcnt_u32(keep & 0xFFFF);
    size_t three = (size_t)_mm_popcnt_u32(keep & 0xFFFFFF);
    units_a = utf8_compress_halves(units_a, keep, keep >> 16);
    units_b = utf8_compress_halves(units_b, keep >> 8, keep >> 24);
    _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(units_a));
    _mm_storeu_si128((__m128i *)(void *)(dst + first),
                     _mm256_castsi256_si128(units_b));
    _mm_storeu_si128((__m128i *)(void *)(dst + two),
                     _mm256_extracti128_si256(units_a, 1));
    _mm_storeu_si128((__m128i *)(void *)(dst + three),
                     _mm256_extracti128_si256(units_b, 1));
    return (size_t)_mm_popcnt_u32(keep);
}

/* The units of the sequences ending in the 32 bytes `cur` (after `prev`)
 * in the lanes `ends`, stored at dst; the caller leaves room for those and
 * 8 more. `four`: whether sequences of four bytes end in `cur`. Returns how
 * many. */
WENC_TARGET_AVX2 static inline size_t
utf8_units256(__m256i prev, __m256i cur, uint32_t ends, bool four,
              uint16_t *dst)
{
    const __m256i continuation_max = _mm256_set1_epi8(-64); /* 0xC0 */
    const __m256i zero = _mm256_setzero_si256();
    __m256i before = utf8_lanes_before_avx2(prev, cur);
    __m256i prev1 = _mm256_alignr_epi8(cur, before, 15);
    __m256i prev2 = _mm256_alignr_epi8(cur, before, 14);
    /* b[i-1] only where b[i] is not ASCII; b[i-2] where a sequence of
     * three bytes ends */
    __m256i pair_high = _mm256_and_si256(prev1, _mm256_cmpgt_epi8(zero, cur));
    __m256i lead3 = _mm256_and_si256(
        prev2, _mm256_and_si256(_mm256_cmpgt_epi8(continuation_max, cur),
                                _mm256_cmpgt_epi8(continuation_max, prev1)));
    const __m256i low_bits = _mm256_set1_epi16(0x3F7F);
    const __m256i weights = _mm256_set1_epi16(0x4001);
    /* bytes 0-7 and 16-23, then 8-15 and 24-31 */
    __m256i units_a = _mm256_add_epi16(
        _mm256_maddubs_epi16(
            _mm256_and_si256(_mm256_unpacklo_epi8(cur, pair_high), low_bits),
            weights),
        _mm256_slli_epi16(_mm256_unpacklo_epi8(lead3, zero), 12));
    __m256i units_b = _mm256_add_epi16(
        _mm256_maddubs_epi16(
            _mm256_and_si256(_mm256_unpackhi_epi8(cur, pair_high), low_bits),
            weights),
        _mm256_slli_epi16(_mm256_unpackhi_epi8(lead3, zero), 12));
    if (four) {
        /* the third byte's lane holds the code point >> 6, the fourth's
         * its low 12 bits */
        const __m256i lead4_min = _mm256_set1_epi8((char)0xEF); /* signed */
        __m256i prev3 = _mm256_alignr_epi8(cur, before, 13);
        __m256i thirds = _mm256_and_si256(_mm256_cmpgt_epi8(prev2, lead4_min),
                                          _mm256_cmpgt_epi8(zero, prev2));
        __m256i fourths = _mm256_and_si256(_mm256_cmpgt_epi8(prev3, lead4_min),
                                           _mm256_cmpgt_epi8(zero, prev3));
        const __m256i high_base =
            _mm256_set1_epi16((short)(0xD800 - (0x10000 >> 10)));
        const __m256i low_base = _mm256_set1_epi16((short)0xDC00);
        const __m256i low_bits10 = _mm256_set1_epi16(0x3FF);
        units_a = _mm256_blendv_epi8(
            units_a,
            _mm256_add_epi16(_mm256_srli_epi16(units_a, 4), high_base),
            _mm256_unpacklo_epi8(thirds, thirds));
        units_a = _mm256_blendv_epi8(
            units_a, _mm256_or_si256(_mm256_and_si256(units_a, low_bits10),
                                     low_base),
            _mm256_unpacklo_epi8(fourths, fourths));
        units_b = _mm256_blendv_epi8(
            units_b,
            _mm256_add_epi16(_mm256_srli_epi16(units_b, 4), high_base),
            _mm256_unpackhi_epi8(thirds, thirds));
        units_b = _mm256_blendv_epi8(
            units_b, _mm256_or_si256(_mm256_and_si256(units_b, low_bits10),
                                     low_base),
            _mm256_unpackhi_epi8(fourths, fourths));
    }
    return utf8_store_kept256(units_a, units_b, ends, dst);
}

/* The block kernel: as the kernels above, but it also stops after a block
 * of ASCII, or after a block that looks like a run of three-byte sequences
 * (no ASCII here or in the next block, no lead of four bytes, two thirds
 * continuations), for utf8_runs_to_utf16_avx2() to go on. */
WENC_TARGET_AVX2 static size_t
utf8_blocks_to_utf16_avx2(const uint8_t *src, size_t n, uint16_t *dst,
                          size_t cap, size_t *written)
{
    const __m256i continuation_max = _mm256_set1_epi8(-64); /* 0xC0 */
    const __m256i lead4_min = _mm256_set1_epi8((char)0xEF); /* and ASCII */
    __m256i prev = _mm256_setzero_si256();
    __m256i cur = utf8_block256(src, n);
    uint32_t cur_non_ascii = (uint32_t)_mm256_movemask_epi8(cur);
    uint32_t prev_leads4 = 0;
    size_t pos = 0, out = 0;
    if (cur_non_ascii != 0) {
        __m256i errors = utf8_errors_avx2(cur, prev);
        if (!_mm256_testz_si256(errors, errors))
            goto stopped;
    }
    while (pos < n) {
        if (cur_non_ascii == 0 && n - pos >= 64 && cap - out >= 32) {
            /* ASCII after ASCII needs no check: widen while it lasts */
            do {
                __m256i next = _mm256_loadu_si256(
                    (const __m256i *)(const void *)(src + pos + 32));
                if (_mm256_movemask_epi8(next) != 0)
                    break;
                utf8_widen256(cur, dst + out);
                out += 32;
                pos += 32;
                cur = next;
            } while (n - pos >= 64 && cap - out >= 32);
            prev_leads4 = 0;
        }
        size_t next_at = pos + 32;
        __m256i next = next_at < n ? utf8_block256(src + next_at, n - next_at)
                                   : _mm256_setzero_si256();
        uint32_t next_non_ascii = (uint32_t)_mm256_movemask_epi8(next);
        if ((next_non_ascii | cur_non_ascii) != 0) {
            __m256i errors = utf8_errors_avx2(next, cur);
            if (!_mm256_testz_si256(errors, errors))
                break;
        }
        size_t live = n - pos < 32 ? n - pos : 32;
        uint32_t live_mask = live == 32 ? ~0u : (1u << live) - 1;
        bool ascii = cur_non_ascii == 0;
        bool three_only = false;
        if (ascii) {
            if (cap - out < live)
                break;
            if (live == 32) {
                utf8_widen256(cur, dst + out);
            } else {
                for (size_t i = 0; i < live; i++)
                    dst[out + i] = src[pos + i];
            }
            out += live;
            prev_leads4 = 0;
        } else {
            uint32_t conts = (uint32_t)_mm256_movemask_epi8(
                _mm256_cmpgt_epi8(continuation_max, cur));
            uint32_t leads4 = (uint32_t)_mm256_movemask_epi8(
                                  _mm256_cmpgt_epi8(cur, lead4_min)) &
                              cur_non_ascii;
            uint32_t next_cont = next_at < n && (src[next_at] & 0xC0) == 0x80;
            /* a run of three-byte sequences, it seems: the run kernel's
             * windows */
            if (__builtin_expect((cur_non_ascii & next_non_ascii) == ~0u, 0))
                three_only = leads4 == 0 && _mm_popcnt_u32(conts) >= 20;
            uint32_t ends = ~(conts >> 1 | next_cont << 31);
            if ((prev_leads4 >> 29 & 1) != 0) {
                size_t made = utf8_block_to_utf16(src, pos, pos + live,
                                                  dst + out, cap - out);
                if (made == SIZE_MAX)
                    break;
                out += made;
            } else {
                /* the third byte of four holds the high surrogate, but in
                 * the last lane (see the AVX-512 kernel) */
                uint32_t thirds4 = leads4 << 2 | prev_leads4 >> 30;
                bool four = (thirds4 | prev_leads4 >> 29) != 0;
                ends = (ends | (thirds4 & 0x7FFFFFFFu)) & live_mask;
                size_t count = (size_t)_mm_popcnt_u32(ends);
                if (cap - out < count)
                    break;
                if (cap - out >= count + 8) {
                    /* the stores reach up to 7 units past the output */
                    out += utf8_units256(prev, cur, ends, four, dst + out);
                } else {
                    uint16_t units[40];
                    utf8_units256(prev, cur, ends, four, units);
                    memcpy(dst + out, units, count * sizeof units[0]);
                    out += count;
                }
            }
            prev_leads4 = leads4;
        }
        prev = cur;
        cur = next;
        cur_non_ascii = next_non_ascii;
        pos = next_at < n ? next_at : n;
        if (ascii || three_only)
            break;
    }
stopped:
    *written = out;
    return pos < n ? utf8_sequence_start(src, pos) : n;
}

/* Text of sequences of three bytes (Chinese, Japanese, Thai): windows of 16
 * bytes whose first 15 are five whole, valid sequences of three bytes
 * (§8.1.1: a lead E0-EF and two continuations, E0 then A0-BF, ED then
 * 80-9F), five units a step. At the first window that is not, the sequences
 * before the first that is not such are taken, and it stops; also where
 * fewer than 8 units of room are left (each store writes 8) or 16 bytes of
 * input. Returns the bytes read, into *made units. */
__attribute__((noinline)) WENC_TARGET_AVX2 static size_t
utf8_three_byte_windows(const uint8_t *src, size_t n, uint16_t *dst,
                        size_t room, size_t *made)
{
    /* lanes 0-14: the high bits each byte must have, and their values */
    const __m128i shape_bits =
        _mm_setr_epi8(-16, -64, -64, -16, -64, -64, -16, -64, -64, -16, -64,
                      -64, -16, -64, -64, 0);
    const __m128i shape = _mm_setr_epi8(-32, -128, -128, -32, -128, -128, -32,
                                        -128, -128, -32, -128, -128, -32, -128,
                                        -128, 0);
    /* unit i's lane: its third byte, then its second; then its lead high */
    const __m128i tails = _mm_setr_epi8(2, 1, 5, 4, 8, 7, 11, 10, 14, 13, -1,
                                        -1, -1, -1, -1, -1);
    const __m128i leads = _mm_setr_epi8(-1, 0, -1, 3, -1, 6, -1, 9, -1, 12, -1,
                                        -1, -1, -1, -1, -1);
    const __m128i six_bits = _mm_set1_epi8(0x3F);
    const __m128i weights = _mm_set1_epi16(0x4001);
    const __m128i top5 = _mm_set1_epi16((short)0xF800);
    const __m128i surrogate = _mm_set1_epi16((short)0xD800);
    size_t pos = 0, out = 0;
    while (n - pos >= 16 && room - out >= 8) {
        __m128i in = _mm_loadu_si128((const __m128i *)(const void *)(src + pos));
        __m128i units = _mm_or_si128(
            _mm_maddubs_epi16(_mm_and_si128(_mm_shuffle_epi8(in, tails), six_bits),
                              weights),
            _mm_slli_epi16(_mm_shuffle_epi8(in, leads), 4));
        /* below U+0800 (E0 then 80-9F) or a surrogate (ED then A0-BF) */
        __m128i high5 = _mm_and_si128(units, top5);
        __m128i bad = _mm_or_si128(
            _mm_cmpeq_epi16(high5, _mm_setzero_si128()),
            _mm_cmpeq_epi16(high5, surrogate));
        uint32_t misfits = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                               _mm_and_si128(in, shape_bits), shape)) &
                           0x7FFF;
        uint32_t bad_lanes = (uint32_t)_mm_movemask_epi8(bad) & 0x3FF;
        _mm_storeu_si128((__m128i *)(void *)(dst + out), units);
        if ((misfits | bad_lanes) == 0) {
            pos += 15;
            out += 5;
            continue;
        }
        /* the whole, valid sequences before the first that is not
         * (x * 11 >> 5 is x / 3 for x <= 15) */
        size_t shaped = (size_t)__builtin_ctz(misfits | 0x8000) * 11 >> 5;
        size_t valid = (size_t)__builtin_ctz(bad_lanes | 0x400) >> 1;
        size_t whole = shaped < valid ? shaped : valid;
        pos += 3 * whole;
        out += whole;
        break;
    }
    *made = out;
    return pos;
}

/* Text of ASCII and sequences of two bytes (Latin, Greek, Cyrillic,
 * Hebrew, Arabic script), 32 bytes a step, checked by the blocks' masks
 * alone (§8.1.1: a lead C2-DF, then one continuation; no continuation
 * elsewhere, no other byte above 7F) and decoded as by the block kernel.
 * It stops at the first byte of another kind (a lead of three or four
 * bytes, an error), taking the sequences before it; after eight blocks of
 * ASCII in a row, for the run kernel's faster ASCII loop (English text with
 * a few accented letters: 0.93 of the run kernel's speed without this; after
 * four, German text 0.94-0.95 of the speed after eight, after two 0.89);
 * and where fewer than 32 bytes or 32 units of room are left. src starts a
 * sequence. Returns the bytes read, whole sequences, and the units made. */
__attribute__((noinline)) WENC_TARGET_AVX2 static utf8_progress
utf8_two_byte_blocks_avx2(const uint8_t *src, size_t n, uint16_t *dst,
                          size_t room)
{
    const __m256i continuation_max = _mm256_set1_epi8(-64); /* C0 */
    const __m256i lead_min = _mm256_set1_epi8(-63);         /* above C1 */
    const __m256i lead_end = _mm256_set1_epi8(-32);         /* E0 */
    const __m256i low_bits = _mm256_set1_epi16(0x3F7F);
    const __m256i weights = _mm256_set1_epi16(0x4001);
    const __m256i zero = _mm256_setzero_si256();
    __m256i prev = zero;
    uint32_t pending = 0; /* the block before ended with a lead */
    unsigned ascii_blocks = 0;
    size_t pos = 0, out = 0;
    while (n - pos >= 32 && room - out >= 32) {
        __m256i cur = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        uint32_t non_ascii = (uint32_t)_mm256_movemask_epi8(cur);
        if ((non_ascii | pending) == 0) {
            utf8_widen256(cur, dst + out);
            pos += 32;
            out += 32;
            if (++ascii_blocks == 8)
                break;
            continue;
        }
        ascii_blocks = 0;
        uint32_t conts = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpgt_epi8(continuation_max, cur));
        uint32_t leads = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
            _mm256_cmpgt_epi8(cur, lead_min), _mm256_cmpgt_epi8(lead_end, cur)));
        uint32_t misfits =
            (non_ascii & ~(conts | leads)) | (conts ^ (leads << 1 | pending));
        __m256i prev1 =
            _mm256_alignr_epi8(cur, utf8_lanes_before_avx2(prev, cur), 15);
        __m256i pair_high = _mm256_and_si256(prev1, _mm256_cmpgt_epi8(zero, cur));
        __m256i units_a = _mm256_maddubs_epi16(
            _mm256_and_si256(_mm256_unpacklo_epi8(cur, pair_high), low_bits),
            weights);
        __m256i units_b = _mm256_maddubs_epi16(
            _mm256_and_si256(_mm256_unpackhi_epi8(cur, pair_high), low_bits),
            weights);
        if (__builtin_expect(misfits != 0, 0)) {
            /* the sequences before the first misfit, which is the lead's
             * continuation where one is missing */
            unsigned at = (unsigned)__builtin_ctz(misfits);
            uint32_t before = (1u << at) - 1;
            out += utf8_store_kept256(units_a, units_b, ~leads & before,
                                      dst + out);
            uint32_t lead_before = at == 0 ? pending : leads >> (at - 1) & 1;
            pos = pos + at - lead_before;
            pending = 0;
            break;
        }
        out += utf8_store_kept256(units_a, units_b, ~leads, dst + out);
        pending = leads >> 31;
        prev = cur;
        pos += 32;
    }
    return (utf8_progress){pos - pending, out};
}

/* The run kernel, for text whose sequences longer than one byte are few
 * (Latin-script text, markup), or long runs of three bytes: runs of ASCII
 * widened 32 bytes at a time, runs of three-byte sequences five at a time
 * (utf8_three_byte_windows()), every other sequence checked and decoded on
 * its own, stopping at the first that is malformed, cut off at n, or does
 * not fit. It also stops, setting *dense, where more than
 * UTF8_DENSE_SEQUENCES such sequences and stops of the windows come within
 * 32 bytes and 64 more bytes follow, for the block kernel to go on.
 * Returns the bytes read; *written gets the units. Kept out of line: inlined
 * into the driver, its ASCII loop measured slower. */
__attribute__((noinline)) WENC_TARGET_AVX2 static size_t
utf8_runs_to_utf16_avx2(const uint8_t *src, size_t n, uint16_t *dst, size_t cap,
                        size_t *written, bool *dense)
{
    size_t pos = 0, out = 0;
    utf8_density density = {0, 0};
    while (pos < n) {
        if (n - pos >= 32 && cap - out >= 32) {
            __m256i in =
                _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
            uint32_t non_ascii = (uint32_t)_mm256_movemask_epi8(in);
            /* all 32 widened; those past the run are not output */
            utf8_widen256(in, dst + out);
            size_t ascii =
                non_ascii == 0 ? 32 : (size_t)__builtin_ctz(non_ascii);
            pos += ascii;
            out += ascii;
            if (ascii < 32)
                goto sequence;
            while (n - pos >= 64 && cap - out >= 64) {
                __m256i low = _mm256_loadu_si256(
                    (const __m256i *)(const void *)(src + pos));
                __m256i high = _mm256_loadu_si256(
                    (const __m256i *)(const void *)(src + pos + 32));
                if (_mm256_movemask_epi8(_mm256_or_si256(low, high)) != 0)
                    break;
                utf8_widen256(low, dst + out);
                utf8_widen256(high, dst + out + 32);
                pos += 64;
                out += 64;
            }
            continue;
        } else if (src[pos] < 0x80) {
            if (out == cap)
                break;
            dst[out++] = src[pos++];
            continue;
        }
    sequence:;
        if (n - pos >= 32 && cap - out >= 32 && src[pos] < 0xE0) {
            utf8_progress done = utf8_two_byte_blocks_avx2(
                src + pos, n - pos, dst + out, cap - out);
            pos += done.read;
            out += done.made;
            if (done.read != 0)
                continue;
        }
        size_t lead_at = pos;
        if (!utf8_sequence_to_utf16(src, &pos, n, dst, &out, cap))
            break;
        unsigned turns = 1;
        if (__builtin_expect(pos - lead_at == 3, 0) && n - pos >= 16 &&
            src[pos] >= 0xE0) {
            /* Chinese, Japanese, Thai: each stop of the windows counts as
             * a sequence here, so that text where they stop often (Korean,
             * a space every few syllables) goes to the block kernel */
            size_t made = 0;
            pos += utf8_three_byte_windows(src + pos, n - pos, dst + out,
                                           cap - out, &made);
            out += made;
            turns = 2;
        }
        if (utf8_dense_after(&density, turns, pos, n)) {
            *dense = true;
            break;
        }
    }
    *written = out;
    return pos;
}

/* The AVX2 kernel (utf8_kernels_in_turn()), from the block kernel where
 * the first 32 bytes are dense, whatever their first sequence (Japanese
 * strings of 63-255 bytes measured 1.07-1.40 times as fast on Zen 5 as
 * with a leading sequence of three bytes sent to the run kernel's
 * windows). Leading ASCII is widened first, 32 bytes a step, the
 * last up to 31 with the 32 bytes that end the input: a short call of
 * ASCII returns without the kernels. n >= 32. */
WENC_TARGET_AVX2 static size_t utf8_to_utf16_avx2(const uint8_t *src, size_t n,
                                                  uint16_t *dst, size_t cap,
                                                  size_t *written)
{
    size_t pos = 0;
    bool dense = false;
    while (n - pos >= 32) {
        __m256i block =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        if (_mm256_movemask_epi8(block) != 0 || cap - pos < 32) {
            uint32_t leads = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
                _mm256_cmpgt_epi8(block, _mm256_set1_epi8(-65)), block));
            dense = _mm_popcnt_u32(leads) > UTF8_DENSE_SEQUENCES;
            break;
        }
        utf8_widen256(block, dst + pos);
        pos += 32;
    }
    if (n - pos < 32 && cap >= n) {
        /* the last bytes, all ASCII so far: the last 32, again in part */
        __m256i last =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + n - 32));
        if (_mm256_movemask_epi8(last) == 0) {
            utf8_widen256(last, dst + n - 32);
            *written = n;
            return n;
        }
    }
    size_t made = 0;
    size_t read = utf8_kernels_in_turn(
        utf8_runs_to_utf16_avx2, utf8_blocks_to_utf16_avx2, dense, src + pos,
        n - pos, dst + pos, cap - pos, &made);
    *written = pos + made;
    return pos + read;
}
#endif

#ifdef WENC_HAVE_NEON
/* The NEON kernels: the AVX2 ones' methods 16 bytes a step. The block
 * kernel compresses each half of a block's lanes with
 * wenc_compact16_shuffle; it decodes a block holding a lead of four bytes,
 * or after one whose last three bytes do, a sequence at a time; a block of
 * three-byte sequences only tries utf8_three_byte_runs_neon() from the
 * sequence it continues. */

/* The 16 bytes at src (n >= 16), or the n there and zeros after them. */
static inline uint8x16_t utf8_block128(const uint8_t *src, size_t n)
{
    if (n >= 16)
        return vld1q_u8(src);
    uint8_t last[16] = {0};
    memcpy(last, src, n);
    return vld1q_u8(last);
}

/* The units of `units` in the lanes `keep` (8 bits), moved to the front
 * (TBL reads an index of 0x80 as a zero, as PSHUFB does). */
static inline uint16x8_t utf8_compress8_neon(uint16x8_t units, unsigned keep)
{
    return vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(units),
                                           vld1q_u8(wenc_compact16_shuffle[keep])));
}

/* Lane i of the 16 bytes `cur` (after `prev`), as described above the
 * kernels, for blocks where no sequence of four bytes ends: lanes 0-7 in
 * *low, 8-15 in *high. */
static inline void utf8_units_neon(uint8x16_t prev, uint8x16_t cur,
                                   uint16x8_t *low, uint16x8_t *high)
{
    const int8x16_t continuation_end = vdupq_n_s8(-64); /* 0xC0 */
    uint8x16_t prev1 = vextq_u8(prev, cur, 15);
    uint8x16_t prev2 = vextq_u8(prev, cur, 14);
    int8x16_t signed_cur = vreinterpretq_s8_u8(cur);
    uint8x16_t pair_high = vandq_u8(vandq_u8(prev1, vcltzq_s8(signed_cur)),
                                    vdupq_n_u8(0x3F));
    uint8x16_t lead3 = vandq_u8(
        prev2,
        vandq_u8(vcltq_s8(signed_cur, continuation_end),
                 vcltq_s8(vreinterpretq_s8_u8(prev1), continuation_end)));
    uint8x16_t low7 = vandq_u8(cur, vdupq_n_u8(0x7F));
    *low = vorrq_u16(
        vaddw_u8(vshll_n_u8(vget_low_u8(pair_high), 6), vget_low_u8(low7)),
        vshlq_n_u16(vmovl_u8(vget_low_u8(lead3)), 12));
    *high = vorrq_u16(vaddw_high_u8(vshll_high_n_u8(pair_high, 6), low7),
                      vshlq_n_u16(vmovl_high_u8(lead3), 12));
}

/* Three-byte sequences (Chinese, Japanese, Thai) 16 at a time, the 48
 * bytes split by VLD3 into leads, second and third bytes, each checked as
 * §8.1.1 accepts them (a lead E0-EF and two continuations; E0 then A0-BF,
 * ED then 80-9F), while 48 bytes of input and 16 units of room remain.
 * Writes the units of the whole, valid three-byte sequences from src to
 * the first that is not (and anything after them, within room); returns
 * how many. */
static size_t utf8_three_byte_runs_neon(const uint8_t *src, size_t n,
                                        uint16_t *dst, size_t room)
{
    const uint8x16_t top2 = vdupq_n_u8(0xC0), continuation = vdupq_n_u8(0x80);
    const uint8x16_t six_bits = vdupq_n_u8(0x3F);
    size_t taken = 0;
    while (n - 3 * taken >= 48 && room - taken >= 16) {
        uint8x16x3_t b = vld3q_u8(src + 3 * taken);
        uint8x16_t lead = b.val[0], second = b.val[1], third = b.val[2];
        uint8x16_t shaped = vandq_u8(
            vceqq_u8(vandq_u8(lead, vdupq_n_u8(0xF0)), vdupq_n_u8(0xE0)),
            vandq_u8(vceqq_u8(vandq_u8(second, top2), continuation),
                     vceqq_u8(vandq_u8(third, top2), continuation)));
        uint8x16_t second_high = vcgeq_u8(second, vdupq_n_u8(0xA0));
        uint8x16_t out_of_range = vorrq_u8(
            vbicq_u8(vceqq_u8(lead, vdupq_n_u8(0xE0)), second_high),
            vandq_u8(vceqq_u8(lead, vdupq_n_u8(0xED)), second_high));
        uint8x16_t valid = vbicq_u8(shaped, out_of_range);
        uint8x16_t mid = vandq_u8(second, six_bits);
        uint8x16_t low6 = vandq_u8(third, six_bits);
        vst1q_u16(dst + taken,
                  vorrq_u16(vaddw_u8(vshll_n_u8(vget_low_u8(mid), 6),
                                     vget_low_u8(low6)),
                            vshlq_n_u16(vmovl_u8(vget_low_u8(lead)), 12)));
        vst1q_u16(dst + taken + 8,
                  vorrq_u16(vaddw_high_u8(vshll_high_n_u8(mid, 6), low6),
                            vshlq_n_u16(vmovl_high_u8(lead), 12)));
        if (vminvq_u8(valid) == 0xFF) {
            taken += 16;
            continue;
        }
        taken += first_lane_set_neon(vmvnq_u8(valid));
        break;
    }
    return taken;
}

/* The block kernel, as the AVX2 one: it also stops after a block of
 * ASCII, for utf8_runs_to_utf16_neon() to go on. */
static size_t utf8_blocks_to_utf16_neon(const uint8_t *src, size_t n,
                                        uint16_t *dst, size_t cap,
                                        size_t *written)
{
    const uint8x16_t zero = vdupq_n_u8(0);
    uint8x16_t prev = zero, cur = utf8_block128(src, n);
    bool cur_ascii = vmaxvq_u8(cur) < 0x80;
    bool prev_four = false; /* a lead of four bytes in prev's last three */
    size_t pos = 0, out = 0;
    if (!cur_ascii && vmaxvq_u8(utf8_errors_neon(cur, prev)) != 0)
        goto stopped;
    while (pos < n) {
        if (cur_ascii) {
            /* ASCII after ASCII needs no check: widen while it lasts */
            while (n - pos >= 32 && cap - out >= 16) {
                uint8x16_t next = vld1q_u8(src + pos + 16);
                if (vmaxvq_u8(next) >= 0x80)
                    break;
                ascii_widen16_neon(cur, dst + out);
                out += 16;
                pos += 16;
                cur = next;
            }
        }
        size_t next_at = pos + 16;
        uint8x16_t next =
            next_at < n ? utf8_block128(src + next_at, n - next_at) : zero;
        bool next_ascii = vmaxvq_u8(next) < 0x80;
        if (!(cur_ascii && next_ascii) &&
            vmaxvq_u8(utf8_errors_neon(next, cur)) != 0)
            break;
        size_t live = n - pos < 16 ? n - pos : 16;
        if (cur_ascii) {
            if (cap - out < live)
                break;
            if (live == 16) {
                ascii_widen16_neon(cur, dst + out);
            } else {
                for (size_t i = 0; i < live; i++)
                    dst[out + i] = src[pos + i];
            }
            out += live;
            prev_four = false;
        } else {
            uint8x16_t leads4 = vcgeq_u8(cur, vdupq_n_u8(0xF0));
            if (prev_four || vmaxvq_u8(leads4) != 0) {
                size_t made = utf8_block_to_utf16(src, pos, pos + live,
                                                  dst + out, cap - out);
                if (made == SIZE_MAX)
                    break;
                out += made;
                prev_four = utf8_lane_bits_neon(leads4) >> 13 != 0;
            } else {
                if (vminvq_u8(cur) >= 0x80 && n - pos >= 48) {
                    size_t start = utf8_sequence_start(src, pos);
                    size_t taken =
                        (src[start] & 0xF0) == 0xE0
                            ? utf8_three_byte_runs_neon(src + start, n - start,
                                                        dst + out, cap - out)
                            : 0;
                    /* more than a block's worth: go on after them */
                    if (taken > 16 / 3) {
                        out += taken;
                        pos = start + 3 * taken;
                        if (pos == n)
                            break;
                        prev = vld1q_u8(src + pos - 16);
                        cur = utf8_block128(src + pos, n - pos);
                        cur_ascii = vmaxvq_u8(cur) < 0x80;
                        if (vmaxvq_u8(utf8_errors_neon(cur, prev)) != 0) {
                            /* pos starts a sequence, though src[pos] may
                             * be a stray continuation */
                            *written = out;
                            return pos;
                        }
                        continue;
                    }
                }
                uint8x16_t conts = vcltq_s8(vreinterpretq_s8_u8(cur),
                                            vdupq_n_s8(-64));
                unsigned next_cont =
                    next_at < n && (src[next_at] & 0xC0) == 0x80;
                unsigned ends = ~(utf8_lane_bits_neon(conts) >> 1 |
                                  next_cont << 15) &
                                ((1u << live) - 1);
                size_t low_count = (size_t)__builtin_popcount(ends & 0xFF);
                size_t count = low_count + (size_t)__builtin_popcount(ends >> 8);
                if (cap - out < count)
                    break;
                uint16x8_t low, high;
                utf8_units_neon(prev, cur, &low, &high);
                low = utf8_compress8_neon(low, ends & 0xFF);
                high = utf8_compress8_neon(high, ends >> 8);
                if (cap - out >= low_count + 8) {
                    vst1q_u16(dst + out, low);
                    vst1q_u16(dst + out + low_count, high);
                } else {
                    uint16_t units[16];
                    vst1q_u16(units, low);
                    vst1q_u16(units + low_count, high);
                    memcpy(dst + out, units, count * sizeof units[0]);
                }
                out += count;
                prev_four = false;
            }
        }
        bool ascii = cur_ascii;
        prev = cur;
        cur = next;
        cur_ascii = next_ascii;
        pos = next_at < n ? next_at : n;
        if (ascii)
            break;
    }
stopped:
    *written = out;
    return pos < n ? utf8_sequence_start(src, pos) : n;
}

/* The AVX2 kernel's loop for ASCII and two-byte sequences
 * (utf8_two_byte_blocks_avx2()), 16 bytes a step, for text where the run
 * kernel meets such sequences densely (where it would hand over to the
 * block kernel): it stops after a block of ASCII, and where fewer than 16
 * bytes or 16 units of room are left. Taking all text with a two-byte
 * sequence as the AVX2 kernel does counted more instructions a byte under
 * qemu on French (3.49 against 2.99) though fewer on Russian (4.6 against
 * 9.9; this way 6.5). */
__attribute__((noinline)) static utf8_progress
utf8_two_byte_blocks_neon(const uint8_t *src, size_t n, uint16_t *dst,
                          size_t room)
{
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                        1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t zero = vdupq_n_u8(0), lane_weights = vld1q_u8(weights);
    uint8x16_t prev = zero, prev_leads = zero;
    unsigned pending = 0; /* the block before ended with a lead */
    size_t pos = 0, out = 0;
    while (n - pos >= 16 && room - out >= 16) {
        uint8x16_t cur = vld1q_u8(src + pos);
        if (vmaxvq_u8(cur) < 0x80 && pending == 0) {
            ascii_widen16_neon(cur, dst + out);
            pos += 16;
            out += 16;
            break;
        }
        int8x16_t signed_cur = vreinterpretq_s8_u8(cur);
        uint8x16_t non_ascii = vcltzq_s8(signed_cur);
        uint8x16_t conts = vcltq_s8(signed_cur, vdupq_n_s8(-64));
        uint8x16_t leads = vandq_u8(vcgeq_u8(cur, vdupq_n_u8(0xC2)),
                                    vcltq_u8(cur, vdupq_n_u8(0xE0)));
        uint8x16_t misfits =
            vorrq_u8(vbicq_u8(non_ascii, vorrq_u8(conts, leads)),
                     veorq_u8(conts, vextq_u8(prev_leads, leads, 15)));
        uint8x16_t pair_high = vandq_u8(
            vandq_u8(vextq_u8(prev, cur, 15), non_ascii), vdupq_n_u8(0x3F));
        uint8x16_t low7 = vandq_u8(cur, vdupq_n_u8(0x7F));
        uint16x8_t low =
            vaddw_u8(vshll_n_u8(vget_low_u8(pair_high), 6), vget_low_u8(low7));
        uint16x8_t high = vaddw_high_u8(vshll_high_n_u8(pair_high, 6), low7);
        /* the lanes kept (all but the leads), by halves */
        uint8x16_t kept = vbicq_u8(lane_weights, leads);
        unsigned keep_low = vaddv_u8(vget_low_u8(kept));
        unsigned keep_high = vaddv_u8(vget_high_u8(kept));
        if (__builtin_expect(vmaxvq_u8(misfits) != 0, 0)) {
            /* the sequences before the first misfit, which is the lead's
             * continuation where one is missing */
            unsigned at = (unsigned)first_lane_set_neon(misfits);
            unsigned kept_lanes = keep_low | keep_high << 8;
            unsigned keep = kept_lanes & ((1u << at) - 1);
            unsigned lead_before =
                at == 0 ? pending : (~kept_lanes >> (at - 1)) & 1;
            size_t low_count = (size_t)__builtin_popcount(keep & 0xFF);
            vst1q_u16(dst + out, utf8_compress8_neon(low, keep & 0xFF));
            vst1q_u16(dst + out + low_count,
                      utf8_compress8_neon(high, keep >> 8));
            out += low_count + (size_t)__builtin_popcount(keep >> 8);
            pos = pos + at - lead_before;
            pending = 0;
            break;
        }
        uint8x16_t lead_ones = vshrq_n_u8(leads, 7);
        size_t low_count = 8 - (size_t)vaddv_u8(vget_low_u8(lead_ones));
        size_t high_count = 8 - (size_t)vaddv_u8(vget_high_u8(lead_ones));
        vst1q_u16(dst + out, utf8_compress8_neon(low, keep_low));
        vst1q_u16(dst + out + low_count, utf8_compress8_neon(high, keep_high));
        out += low_count + high_count;
        pending = vgetq_lane_u8(leads, 15) & 1;
        prev = cur;
        prev_leads = leads;
        pos += 16;
    }
    return (utf8_progress){pos - pending, out};
}

/* The run kernel, as the AVX2 one: runs of ASCII widened 16 bytes at a
 * time (then by ascii_widen_run_neon()), runs of three-byte sequences by
 * utf8_three_byte_runs_neon(), every other sequence on its own; it hands
 * over to the block kernel (*dense) as the AVX2 one does. */
__attribute__((noinline)) static size_t
utf8_runs_to_utf16_neon(const uint8_t *src, size_t n, uint16_t *dst,
                        size_t cap, size_t *written, bool *dense)
{
    size_t pos = 0, out = 0;
    utf8_density density = {0, 0};
    /* out <= pos: up to here 16 bytes and 16 units of room are there */
    size_t wide_end = n < cap ? n : cap;
    while (pos < n) {
        if (pos + 16 <= wide_end || (n - pos >= 16 && cap - out >= 16)) {
            uint8x16_t in = vld1q_u8(src + pos);
            /* all 16 widened; those past the run are not output */
            ascii_widen16_neon(in, dst + out);
            size_t ascii = first_lane_set_neon(vcltzq_s8(vreinterpretq_s8_u8(in)));
            pos += ascii;
            out += ascii;
            if (ascii == 16) {
                size_t run = ascii_widen_run_neon(
                    src + pos, n - pos < cap - out ? n - pos : cap - out,
                    dst + out);
                pos += run;
                out += run;
                if (pos == n || out == cap || src[pos] < 0x80)
                    continue;
            }
            /* A two-byte sequence alone (Latin-script text) where the
             * window is not dense: decoded here, as below, with fewer
             * tests (a unit of room is there); the window cannot turn
             * dense with it. */
            if (n - pos < 2 || (pos < density.window_end &&
                                density.in_window >= UTF8_DENSE_SEQUENCES))
                goto sequence;
            uint32_t lead = src[pos], cont = src[pos + 1] ^ 0x80u;
            if (lead - 0xC2u >= 0x1Eu || cont > 0x3F)
                goto sequence;
            dst[out++] = (uint16_t)((lead & 0x1F) << 6 | cont);
            pos += 2;
            if (pos >= density.window_end) {
                density.window_end = pos + 32;
                density.in_window = 0;
            }
            density.in_window++;
            continue;
        } else if (src[pos] < 0x80) {
            if (out == cap)
                break;
            dst[out++] = src[pos++];
            continue;
        }
    sequence:;
        if (n - pos >= 16 && cap - out >= 16 && src[pos] < 0xE0 &&
            pos < density.window_end &&
            density.in_window >= UTF8_DENSE_SEQUENCES) {
            utf8_progress done = utf8_two_byte_blocks_neon(
                src + pos, n - pos, dst + out, cap - out);
            pos += done.read;
            out += done.made;
            if (done.read != 0)
                continue;
        }
        size_t lead_at = pos;
        if (!utf8_sequence_to_utf16(src, &pos, n, dst, &out, cap))
            break;
        unsigned turns = 1;
        if (pos - lead_at == 3 && n - pos >= 48 && src[pos] >= 0xE0) {
            size_t taken = utf8_three_byte_runs_neon(src + pos, n - pos,
                                                     dst + out, cap - out);
            pos += 3 * taken;
            out += taken;
            turns = 2;
        }
        if (utf8_dense_after(&density, turns, pos, n)) {
            *dense = true;
            break;
        }
    }
    *written = out;
    return pos;
}

/* The NEON kernel (utf8_kernels_in_turn()), from the run kernel. */
static size_t utf8_to_utf16_neon(const uint8_t *src, size_t n, uint16_t *dst,
                                 size_t cap, size_t *written)
{
    return utf8_kernels_in_turn(utf8_runs_to_utf16_neon,
                                utf8_blocks_to_utf16_neon, false, src, n, dst,
                                cap, written);
}
#endif

size_t wenc_utf8_encode_via_utf16(const uint8_t *src, size_t n, uint8_t *dst,
                                  size_t *written, utf16_encode_fn encode,
                                  const void *context)
{
    uint16_t units[1024];
    size_t pos = 0, out = 0, size = 128;
    while (n - pos >= 16) {
        size_t ascii = wenc_ascii_to_utf8(src + pos, dst + out, n - pos);
        pos += ascii;
        out += ascii;
        if (n - pos < 16)
            break;
        size_t count = 0, made = 0;
        size_t read =
            wenc_utf8_to_utf16_vectors(src + pos, n - pos, units, size, &count);
        if (count == 0)
            break;
        size_t used = encode(context, units, count, dst + out, &made);
        out += made;
        if (used < count) {
            pos += utf8_bmp_bytes_of(src + pos, used);
            break;
        }
        pos += read;
        if (count < size / 2)
            break; /* the kernel stopped short: an error, a sequence of
                    * four bytes, or the end */
        if (size < 1024)
            size *= 2;
    }
    *written = out;
    return pos;
}

size_t wenc_utf8_to_utf16_vectors(const uint8_t *src, size_t n, uint16_t *dst,
                                  size_t cap, size_t *written)
{
    switch (wenc_utf8_vector_width(n)) {
#ifdef WENC_HAVE_RUNTIME_AVX512
    case 64:
        return utf8_to_utf16_avx512(src, n, dst, cap, written);
#endif
#ifdef WENC_HAVE_RUNTIME_AVX2
    case 32:
        return utf8_to_utf16_avx2(src, n, dst, cap, written);
#endif
#ifdef WENC_HAVE_NEON
    case 16:
        return utf8_to_utf16_neon(src, n, dst, cap, written);
#endif
    default:
        (void)src;
        (void)dst;
        (void)cap;
        *written = 0;
        return 0;
    }
}

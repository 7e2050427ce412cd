/*
 * The two-byte decoders' vector path (Big5 §11.1.1, EUC-JP §12.1.1, Shift_JIS
 * §12.3.1, EUC-KR §13.1.1, gb18030 and GBK §10.2.1): ASCII and pairs of a lead
 * and a trail byte, 64 input bytes a step.
 *
 * Where each character starts follows from the lead bytes alone: a byte that
 * is not a lead ends a character, so every run of lead bytes starts one, and
 * in the run the leads are the bytes an even distance from its start (the
 * others are trails). The runs that start at an even position are found by
 * one addition (adding each run's first bit carries through the run and
 * clears it), as in the odd-backslash search of simdjson (Langdale and
 * Lemire, 2019). Each character's lane then holds its ASCII byte or its
 * pointer; the lanes of the characters are packed to the front and the
 * pointers replaced by the index entries they point at: with AVX-512 by
 * VPCOMPRESSW and VPGATHERDD, with AVX2 by PSHUFB, eight lanes at a time,
 * and scalar loads, four to a 64-bit word (on the AVX2 CPUs that lack
 * AVX-512, VPGATHERDD is slower than the loads it stands for).
 *
 * The kernel stops before the first character it does not take: a lead byte
 * the spec leaves to the scalar loop, any other byte of 0x80-0xFF where a
 * character starts, a trail byte out of range, a pointer at or past the
 * index's last entry, a pointer without a code point, a lead byte whose
 * trail byte is past the input. The codec's own loop decodes that
 * character, errors included, exactly as before.
 */
#include "../internal.h"

#ifdef WENC_HAVE_RUNTIME_AVX2
#include "utf8_simd.h"

/* Whether a block of `live` bytes, `non_ascii` the mask of its bytes of
 * 0x80-0xFF, is left to the scalar loop: under a quarter of them, some
 * eight pairs in 64 bytes (the scalar loop decodes HTML, mostly ASCII, to
 * UTF-8 faster than this path; dense text slower). */
WENC_INLINE bool db_sparse(uint64_t non_ascii, size_t live)
{
    return (size_t)__builtin_popcountll(non_ascii) * 4 < live;
}

/* The character starts, lead bytes and first byte the path does not take,
 * of 64 bytes, from masks of the bytes (see the top of this file). */
typedef struct db_starts {
    uint64_t starts, leads, bad;
} db_starts;

WENC_INLINE db_starts db_find_starts(uint64_t lead, uint64_t non_ascii,
                                     uint64_t slow, uint64_t trail_ok,
                                     uint64_t past)
{
    const uint64_t even = UINT64_C(0x5555555555555555);
    db_starts r;
    uint64_t run_starts = lead & ~(lead << 1);
    uint64_t even_runs = lead & ~(lead + (run_starts & even));
    r.leads = (even_runs & even) | (lead & ~even_runs & ~even);
    r.starts = ~(r.leads << 1);
    r.bad = r.starts & ((non_ascii & ~lead) |
                        (r.leads & (slow | ~trail_ok | past)));
    return r;
}

/* Byte ranges as db_in_ranges_avx2() tests them: each range's first byte
 * and span, broadcast; a range that repeats the one before it, or is
 * {0, 0} (a spec's way of having fewer), left out. */
typedef struct db_ranges_avx2 {
    __m256i first[3], span[3];
    int count;
} db_ranges_avx2;

/* What a step needs of the spec, broadcast once a call. */
typedef struct db_consts_avx2 {
    db_ranges_avx2 lead, trail, slow;
    __m256i lead_split, lead_base, lead_delta;    /* 16-bit lanes */
    __m256i trail_split, trail_base, trail_delta; /* 16-bit lanes */
    __m256i trail_count, last;
    __m256i ascii_end, ascii_flag, ascii_bits; /* 0x80, 0x8000, 0x7F */
} db_consts_avx2;

WENC_TARGET_AVX2 WENC_INLINE void
db_ranges_init_avx2(db_ranges_avx2 *r, const uint8_t (*ranges)[2], int count)
{
    r->count = 0;
    for (int i = 0; i < count; i++) {
        if ((i > 0 && ranges[i][0] == ranges[i - 1][0] &&
             ranges[i][1] == ranges[i - 1][1]) ||
            (ranges[i][0] == 0 && ranges[i][1] == 0))
            continue;
        r->first[r->count] = _mm256_set1_epi8((char)ranges[i][0]);
        r->span[r->count] =
            _mm256_set1_epi8((char)(uint8_t)(ranges[i][1] - ranges[i][0]));
        r->count++;
    }
}

WENC_TARGET_AVX2 static void db_consts_init_avx2(db_consts_avx2 *c,
                                                 const double_byte_spec *spec)
{
    db_ranges_init_avx2(&c->lead, spec->lead, 2);
    db_ranges_init_avx2(&c->trail, spec->trail, 2);
    db_ranges_init_avx2(&c->slow, spec->slow, 3);
    c->lead_split = _mm256_set1_epi16((short)(spec->lead_split - 1));
    c->lead_base = _mm256_set1_epi16(spec->lead_base[0]);
    c->lead_delta =
        _mm256_set1_epi16((short)(spec->lead_base[1] - spec->lead_base[0]));
    c->trail_split = _mm256_set1_epi16((short)(spec->trail_split - 1));
    c->trail_base = _mm256_set1_epi16(spec->trail_base[0]);
    c->trail_delta =
        _mm256_set1_epi16((short)(spec->trail_base[1] - spec->trail_base[0]));
    c->trail_count = _mm256_set1_epi16((short)spec->trail_count);
    c->last = _mm256_set1_epi16((short)(*spec->index_size - 1));
    c->ascii_end = _mm256_set1_epi16(0x80);
    c->ascii_flag = _mm256_set1_epi16((short)0x8000);
    c->ascii_bits = _mm256_set1_epi16(0x7F);
}

WENC_TARGET_AVX2 WENC_INLINE uint64_t db_mask64_avx2(__m256i low,
                                                     __m256i high)
{
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(low) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(high) << 32;
}

/* Lanes of the 64 bytes low, high in any of the ranges r. */
WENC_TARGET_AVX2 WENC_INLINE uint64_t
db_in_ranges_avx2(__m256i low, __m256i high, const db_ranges_avx2 *r)
{
    __m256i in_low = _mm256_setzero_si256(), in_high = in_low;
    for (int i = 0; i < r->count; i++) {
        __m256i offset_low = _mm256_sub_epi8(low, r->first[i]);
        __m256i offset_high = _mm256_sub_epi8(high, r->first[i]);
        in_low = _mm256_or_si256(
            in_low, _mm256_cmpeq_epi8(_mm256_min_epu8(offset_low, r->span[i]),
                                      offset_low));
        in_high = _mm256_or_si256(
            in_high,
            _mm256_cmpeq_epi8(_mm256_min_epu8(offset_high, r->span[i]),
                              offset_high));
    }
    return db_mask64_avx2(in_low, in_high);
}

/* base + delta in each 16-bit lane x above split - 1, base in the others. */
WENC_TARGET_AVX2 WENC_INLINE __m256i db_base_avx2(__m256i x, __m256i split,
                                                  __m256i base,
                                                  __m256i delta)
{
    return _mm256_add_epi16(
        base, _mm256_and_si256(_mm256_cmpgt_epi16(x, split), delta));
}

/* The 16 values of the bytes at p: a byte below 0x80 as itself | 0x8000,
 * any other as the pointer it makes with the byte after it; *past gets
 * 0xFFFF in the lanes whose pointer is at or past the index's last entry. */
WENC_TARGET_AVX2 WENC_INLINE __m256i
db_values16_avx2(const db_consts_avx2 *c, const uint8_t *p, __m256i *past)
{
    __m256i lead = _mm256_cvtepu8_epi16(
        _mm_loadu_si128((const __m128i *)(const void *)p));
    __m256i trail = _mm256_cvtepu8_epi16(
        _mm_loadu_si128((const __m128i *)(const void *)(p + 1)));
    __m256i lead_base =
        db_base_avx2(lead, c->lead_split, c->lead_base, c->lead_delta);
    __m256i trail_base =
        db_base_avx2(trail, c->trail_split, c->trail_base, c->trail_delta);
    __m256i pointer = _mm256_add_epi16(
        _mm256_mullo_epi16(_mm256_sub_epi16(lead, lead_base), c->trail_count),
        _mm256_sub_epi16(trail, trail_base));
    *past = _mm256_cmpeq_epi16(_mm256_max_epu16(pointer, c->last), pointer);
    __m256i ascii = _mm256_cmpgt_epi16(c->ascii_end, lead);
    return _mm256_blendv_epi8(pointer, _mm256_or_si256(lead, c->ascii_flag),
                              ascii);
}

/* One step of 64 bytes at p (65 readable; `live` of them input, the rest
 * and the byte after them 0): the characters that start in the live bytes,
 * up to the first the path does not take, as UTF-16 at units (room for 64;
 * it may write anything there past the units it makes). The lanes of the
 * characters are packed to the front by PSHUFB (wenc_compact16_shuffle),
 * the pointers looked up four at a time, and the ASCII bytes put back by a
 * blend. Returns the bytes read; *count gets the units, *stopped whether
 * the step stopped before a character. */
WENC_TARGET_AVX2 WENC_INLINE size_t
db_step_avx2(const double_byte_spec *spec, const db_consts_avx2 *c,
             const uint8_t *p, size_t live, uint16_t *units, size_t *count,
             bool *stopped)
{
    __m256i bytes0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i bytes1 =
        _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i next0 =
        _mm256_loadu_si256((const __m256i *)(const void *)(p + 1));
    __m256i next1 =
        _mm256_loadu_si256((const __m256i *)(const void *)(p + 33));
    uint64_t live_mask =
        live >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << live) - 1;
    uint64_t non_ascii = db_mask64_avx2(bytes0, bytes1);
    uint64_t lead = db_in_ranges_avx2(bytes0, bytes1, &c->lead);
    uint64_t trail_ok = db_in_ranges_avx2(next0, next1, &c->trail);
    uint64_t slow = db_in_ranges_avx2(bytes0, bytes1, &c->slow);
    __m256i past[4];
    const __m256i values[4] = {db_values16_avx2(c, p, &past[0]),
                               db_values16_avx2(c, p + 16, &past[1]),
                               db_values16_avx2(c, p + 32, &past[2]),
                               db_values16_avx2(c, p + 48, &past[3])};
    uint64_t past_mask = db_mask64_avx2(
        _mm256_permute4x64_epi64(_mm256_packs_epi16(past[0], past[1]), 0xD8),
        _mm256_permute4x64_epi64(_mm256_packs_epi16(past[2], past[3]), 0xD8));
    db_starts r = db_find_starts(lead, non_ascii, slow, trail_ok, past_mask);
    uint64_t bad = r.bad & live_mask;
    uint64_t todo = r.starts & live_mask;
    if (bad != 0)
        todo &= (bad & -bad) - 1;
    /* the characters' values, packed to the front, zeros after them */
    uint16_t packed[64 + 16];
    size_t k = 0;
    for (int i = 0; i < 8; i++) {
        unsigned lanes = (unsigned)(todo >> (8 * i)) & 0xFF;
        __m128i eight = i % 2 == 0 ? _mm256_castsi256_si128(values[i / 2])
                                   : _mm256_extracti128_si256(values[i / 2], 1);
        _mm_storeu_si128(
            (__m128i *)(void *)(packed + k),
            _mm_shuffle_epi8(eight,
                             _mm_loadu_si128((const __m128i *)(const void *)
                                                 wenc_compact16_shuffle[lanes])));
        k += (size_t)_mm_popcnt_u32(lanes);
    }
    _mm256_storeu_si256((__m256i *)(void *)(packed + k),
                        _mm256_setzero_si256());
    /* the index entries of the values (an ASCII value's is not used) */
    const uint16_t *index = spec->index;
    uint16_t entries[64 + 16];
    size_t rounded = (k + 15) & ~(size_t)15;
    _mm256_storeu_si256(
        (__m256i *)(void *)(entries + (k & ~(size_t)3)),
        _mm256_setzero_si256());
    for (size_t j = 0; j < k; j += 4) {
        uint64_t four, found;
        memcpy(&four, packed + j, sizeof four);
        found = (uint64_t)index[four & 0x7FFF] |
                (uint64_t)index[four >> 16 & 0x7FFF] << 16 |
                (uint64_t)index[four >> 32 & 0x7FFF] << 32 |
                (uint64_t)index[four >> 48 & 0x7FFF] << 48;
        memcpy(entries + j, &found, sizeof found);
    }
    size_t made = k;
    for (size_t j = 0; j < rounded; j += 16) {
        __m256i value =
            _mm256_loadu_si256((const __m256i *)(const void *)(packed + j));
        __m256i entry =
            _mm256_loadu_si256((const __m256i *)(const void *)(entries + j));
        __m256i ascii = _mm256_srai_epi16(value, 15);
        _mm256_storeu_si256(
            (__m256i *)(void *)(units + j),
            _mm256_blendv_epi8(
                entry, _mm256_and_si256(value, c->ascii_bits),
                ascii));
        unsigned unmapped = (unsigned)_mm256_movemask_epi8(_mm256_andnot_si256(
            ascii, _mm256_cmpeq_epi16(entry, _mm256_setzero_si256())));
        if (unmapped != 0) {
            size_t at = j + (size_t)__builtin_ctz(unmapped) / 2;
            if (at < k) {
                made = at; /* a pointer without a code point */
                break;
            }
        }
    }
    *count = made;
    if (made < k) {
        for (size_t j = 0; j < made; j++)
            todo &= todo - 1;
        bad = todo & -todo;
    }
    *stopped = bad != 0;
    if (bad != 0)
        return (size_t)__builtin_ctzll(bad);
    /* a lead in the last lane takes the byte after the step */
    return live + (size_t)((r.leads & live_mask) >> (live - 1) & 1);
}

WENC_TARGET_AVX2 static size_t
db_decode_avx2(const double_byte_spec *spec, const uint8_t *src, size_t n,
               uint8_t *dst, size_t *written)
{
    size_t pos = 0, out = 0;
    uint16_t units[64 + 16];
    uint8_t tail[96];
    db_consts_avx2 consts;
    db_consts_init_avx2(&consts, spec);
    while (n - pos >= 2) {
        const uint8_t *p = src + pos;
        size_t live = 64;
        if (n - pos < 65) {
            /* the last bytes, in a copy with zeros after them */
            live = n - pos;
            memset(tail, 0, sizeof tail);
            memcpy(tail, p, live);
            p = tail;
        }
        uint64_t non_ascii = db_mask64_avx2(
            _mm256_loadu_si256((const __m256i *)(const void *)p),
            _mm256_loadu_si256((const __m256i *)(const void *)(p + 32)));
        if (db_sparse(non_ascii, live))
            break;
        size_t count;
        bool stopped;
        size_t read = db_step_avx2(spec, &consts, p, live, units, &count,
                                   &stopped);
        /* zeros after the units make one byte each, not counted; the
         * stores reach 12 bytes past the group, which the room for 3 bytes
         * an input byte holds but at the end */
        uint8_t packed[64 * 3 + 32];
        uint8_t *d = live == 64 ? dst + out : packed;
        size_t made = 0;
        _mm256_storeu_si256((__m256i *)(void *)(units + count),
                            _mm256_setzero_si256());
        for (size_t g = 0; g < count; g += 8) {
            size_t group = utf8_pack8_avx2(
                _mm_loadu_si128((const __m128i *)(const void *)(units + g)),
                d + made, 1);
            made += count - g >= 8 ? group : group - (8 - (count - g));
        }
        if (d == packed)
            memcpy(dst + out, packed, made);
        out += made;
        pos += read;
        if (stopped)
            break;
    }
    *written = out;
    return pos;
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX512

/* Lanes of `bytes` in the range r. */
WENC_TARGET_AVX512 static inline uint64_t db_in_range(__m512i bytes,
                                                      const uint8_t r[2])
{
    return _mm512_cmple_epu8_mask(
        _mm512_sub_epi8(bytes, _mm512_set1_epi8((char)r[0])),
        _mm512_set1_epi8((char)(uint8_t)(r[1] - r[0])));
}

/* The pointers of 32 lanes, each lane's lead byte in `lead` and the byte
 * after it in `trail`, widened to 16 bits. */
WENC_TARGET_AVX512 static inline __m512i
db_pointers(const double_byte_spec *spec, __m512i lead, __m512i trail)
{
    __m512i lead_base = _mm512_mask_blend_epi16(
        _mm512_cmpge_epu16_mask(lead, _mm512_set1_epi16(spec->lead_split)),
        _mm512_set1_epi16(spec->lead_base[0]),
        _mm512_set1_epi16(spec->lead_base[1]));
    __m512i trail_base = _mm512_mask_blend_epi16(
        _mm512_cmpge_epu16_mask(trail, _mm512_set1_epi16(spec->trail_split)),
        _mm512_set1_epi16(spec->trail_base[0]),
        _mm512_set1_epi16(spec->trail_base[1]));
    return _mm512_add_epi16(
        _mm512_mullo_epi16(_mm512_sub_epi16(lead, lead_base),
                           _mm512_set1_epi16((short)spec->trail_count)),
        _mm512_sub_epi16(trail, trail_base));
}

/* The 16 units of `values` (ASCII bytes, or pointers in the lanes `leads`)
 * with each pointer replaced by its index entry; *unmapped gets the lanes
 * whose entry is 0. */
WENC_TARGET_AVX512 static inline __m256i db_gather16(const uint16_t *index,
                                                     __m256i values,
                                                     __mmask16 leads,
                                                     __mmask16 *unmapped)
{
    __m512i wide = _mm512_cvtepu16_epi32(values);
    if (leads != 0)
        wide = _mm512_mask_i32gather_epi32(wide, leads, wide,
                                           (const void *)index, 2);
    *unmapped = (__mmask16)(leads & ~_mm512_test_epi32_mask(
                                        wide, _mm512_set1_epi32(0xFFFF)));
    return _mm512_cvtepi32_epi16(wide);
}

/* How far ahead the AVX-512 kernel asks for its input and output: its
 * gathers keep the hardware's own prefetching from running far enough ahead
 * (Shift_JIS to UTF-8 measured 1.63 GB/s at 1 MiB and 1.28 at 64 MiB
 * without, 1.70 at both with). The output's address stays inside the room
 * the caller leaves (3 * n bytes): what is written so far is at most 1.5
 * bytes a byte read, and more than PREFETCH_BYTES bytes are left to read. */
#define PREFETCH_BYTES ((size_t)1024)

WENC_TARGET_AVX512 static size_t
db_decode_avx512(const double_byte_spec *spec, const uint8_t *src, size_t n,
                 uint8_t *dst, size_t *written)
{
    size_t pos = 0, out = 0;
    while (n - pos >= 2) {
        size_t live = n - pos < 64 ? n - pos : 64;
        if (n - pos > PREFETCH_BYTES) {
            _mm_prefetch((const char *)(src + pos + PREFETCH_BYTES), _MM_HINT_T0);
            _mm_prefetch((const char *)(dst + out + PREFETCH_BYTES),
                         _MM_HINT_ET0);
        }
        uint64_t live_mask = _bzhi_u64(~UINT64_C(0), (unsigned)live);
        __m512i bytes =
            _mm512_maskz_loadu_epi8(live_mask, (const void *)(src + pos));
        uint64_t non_ascii = _mm512_movepi8_mask(bytes);
        if (db_sparse(non_ascii, live))
            break;
        /* byte i + 1 in lane i, the byte after the block included */
        size_t after = n - pos - 1 < 64 ? n - pos - 1 : 64;
        __m512i next = _mm512_maskz_loadu_epi8(
            _bzhi_u64(~UINT64_C(0), (unsigned)after),
            (const void *)(src + pos + 1));
        uint64_t lead = db_in_range(bytes, spec->lead[0]) |
                        db_in_range(bytes, spec->lead[1]);
        uint64_t trail_ok = db_in_range(next, spec->trail[0]) |
                            db_in_range(next, spec->trail[1]);
        uint64_t slow = db_in_range(bytes, spec->slow[0]) |
                        db_in_range(bytes, spec->slow[1]) |
                        db_in_range(bytes, spec->slow[2]);
        __m512i bytes0 = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes));
        __m512i bytes1 =
            _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(bytes, 1));
        __m512i ptr0 = db_pointers(
            spec, bytes0, _mm512_cvtepu8_epi16(_mm512_castsi512_si256(next)));
        __m512i ptr1 = db_pointers(
            spec, bytes1,
            _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(next, 1)));
        const __m512i last = _mm512_set1_epi16((short)(*spec->index_size - 1));
        uint64_t past = (uint64_t)_mm512_cmpge_epu16_mask(ptr0, last) |
                        (uint64_t)_mm512_cmpge_epu16_mask(ptr1, last) << 32;
        db_starts found = db_find_starts(lead, non_ascii, slow, trail_ok,
                                         past);
        uint64_t starts = found.starts & live_mask, leads = found.leads;
        uint64_t bad = found.bad & live_mask;
        if (bad != 0) {
            uint64_t before = _bzhi_u64(~UINT64_C(0), (unsigned)_tzcnt_u64(bad));
            starts &= before;
            leads &= before;
        }
        uint32_t starts0 = (uint32_t)starts, starts1 = (uint32_t)(starts >> 32);
        unsigned count0 = (unsigned)_mm_popcnt_u32(starts0);
        unsigned take = count0 + (unsigned)_mm_popcnt_u32(starts1), consumed;
        __m512i values0 = _mm512_maskz_compress_epi16(
            starts0, _mm512_mask_blend_epi16((__mmask32)leads, bytes0, ptr0));
        __m512i values1 = _mm512_maskz_compress_epi16(
            starts1,
            _mm512_mask_blend_epi16((__mmask32)(leads >> 32), bytes1, ptr1));
        /* the characters' lead bits, in the packed order of each half */
        uint32_t packed_lo = _pext_u32((uint32_t)leads, starts0);
        uint32_t packed_hi = _pext_u32((uint32_t)(leads >> 32), starts1);
        __mmask16 unmapped[4];
        __m256i units[4];
        units[0] = db_gather16(spec->index, _mm512_castsi512_si256(values0),
                               (__mmask16)packed_lo, &unmapped[0]);
        units[1] = db_gather16(spec->index,
                               _mm512_extracti64x4_epi64(values0, 1),
                               (__mmask16)(packed_lo >> 16), &unmapped[1]);
        units[2] = db_gather16(spec->index, _mm512_castsi512_si256(values1),
                               (__mmask16)packed_hi, &unmapped[2]);
        units[3] = db_gather16(spec->index,
                               _mm512_extracti64x4_epi64(values1, 1),
                               (__mmask16)(packed_hi >> 16), &unmapped[3]);
        /* the characters in order: count0 from the low half, then the rest */
        uint64_t missing =
            ((uint64_t)unmapped[0] | (uint64_t)unmapped[1] << 16) |
            ((uint64_t)unmapped[2] | (uint64_t)unmapped[3] << 16) << count0;
        __m512i half0 = _mm512_inserti64x4(_mm512_castsi256_si512(units[0]),
                                           units[1], 1);
        __m512i half1 = _mm512_inserti64x4(_mm512_castsi256_si512(units[2]),
                                           units[3], 1);
        if (missing != 0) {
            take = (unsigned)_tzcnt_u64(missing);
            bad |= _pdep_u64(UINT64_C(1) << take, starts);
        }
        if (bad != 0) {
            /* take the characters that start before the first bad one */
            uint64_t first_bad = bad & -bad;
            consumed = (unsigned)_tzcnt_u64(first_bad);
            take = (unsigned)_mm_popcnt_u64(starts & (first_bad - 1));
        } else {
            /* a lead in the last lane takes the byte after the block */
            consumed = (unsigned)live + (unsigned)(leads >> 63);
        }
        unsigned take0 = take < count0 ? take : count0;
        unsigned take1 = take - take0;
        size_t made = utf8_pack32_avx512(half0, take0, dst + out);
        made += utf8_pack32_avx512(half1, take1, dst + out + made);
        out += made;
        pos += consumed;
        if (bad != 0)
            break;
    }
    *written = out;
    return pos;
}
#endif

size_t wenc_double_byte_vectors(const double_byte_spec *spec,
                                const uint8_t *src, size_t n, uint8_t *dst,
                                size_t *written)
{
#ifdef WENC_HAVE_RUNTIME_AVX512
    if (wenc_cpu_has_avx512())
        return db_decode_avx512(spec, src, n, dst, written);
#endif
#ifdef WENC_HAVE_RUNTIME_AVX2
    if (wenc_cpu_has_avx2())
        return db_decode_avx2(spec, src, n, dst, written);
#endif
    (void)spec;
    (void)src;
    (void)n;
    (void)dst;
    *written = 0;
    return 0;
}

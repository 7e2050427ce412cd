/*
 * The two-byte decoders' vector path (Big5 §11.1.1, EUC-JP §12.1.1, Shift_JIS
 * §12.3.1, EUC-KR §13.1.1, gb18030 and GBK §10.2.1): ASCII and pairs of a lead
 * and a trail byte, 64 input bytes a step, the code points read from the
 * index by VPGATHERDD.
 *
 * Where each character starts follows from the lead bytes alone: a byte that
 * is not a lead ends a character, so every run of lead bytes starts one, and
 * in the run the leads are the bytes an even distance from its start (the
 * others are trails). The runs that start at an even position are found by
 * one addition (adding each run's first bit carries through the run and
 * clears it), as in the odd-backslash search of simdjson (Langdale and
 * Lemire, 2019). Each character's lane then holds its ASCII byte or its
 * pointer; the lanes of the characters are packed to the front by
 * VPCOMPRESSW and the pointers replaced by the index entries they point at.
 *
 * ISO-2022-JP's jis0208 state (§12.2.1) is such an encoding with lead and
 * trail bytes of 0x21-0x7E and no ASCII characters (pairs_only).
 *
 * The kernel stops before the first character it does not take: a lead byte
 * the spec leaves to the scalar loop, any other byte of 0x80-0xFF where a
 * character starts, a trail byte out of range, a pointer at or past the
 * index's last entry, a pointer without a code point, a lead byte whose
 * trail byte is past the input. The codec's own loop decodes that
 * character, errors included, exactly as before.
 */
#include "internal.h"

#ifdef WENC_HAVE_RUNTIME_AVX512
#include "utf8_simd.h"

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

WENC_TARGET_AVX512 static size_t
db_decode_avx512(const double_byte_spec *spec, const uint8_t *src, size_t n,
                 void *dst, size_t *written, int utf16)
{
    const uint64_t even = UINT64_C(0x5555555555555555);
    size_t pos = 0, out = 0;
    while (n - pos >= 2) {
        size_t live = n - pos < 64 ? n - pos : 64;
        uint64_t live_mask = _bzhi_u64(~UINT64_C(0), (unsigned)live);
        __m512i bytes =
            _mm512_maskz_loadu_epi8(live_mask, (const void *)(src + pos));
        uint64_t non_ascii = _mm512_movepi8_mask(bytes);
        if (non_ascii == 0 && !spec->pairs_only) {
            if (utf16) {
                uint16_t *d = (uint16_t *)dst + out;
                _mm512_mask_storeu_epi16(
                    (void *)d, (__mmask32)live_mask,
                    _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes)));
                _mm512_mask_storeu_epi16(
                    (void *)(d + 32), (__mmask32)(live_mask >> 32),
                    _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(bytes, 1)));
            } else {
                _mm512_mask_storeu_epi8((void *)((uint8_t *)dst + out),
                                        live_mask, bytes);
            }
            pos += live;
            out += live;
            continue;
        }
        /* byte i + 1 in lane i, the byte after the block included */
        size_t after = n - pos - 1 < 64 ? n - pos - 1 : 64;
        __m512i next = _mm512_maskz_loadu_epi8(
            _bzhi_u64(~UINT64_C(0), (unsigned)after),
            (const void *)(src + pos + 1));
        uint64_t lead = db_in_range(bytes, spec->lead[0]) |
                        db_in_range(bytes, spec->lead[1]);
        uint64_t run_starts = lead & ~(lead << 1);
        uint64_t even_runs = lead & ~(lead + (run_starts & even));
        uint64_t leads = (even_runs & even) | (lead & ~even_runs & ~even);
        uint64_t starts = ~(leads << 1) & live_mask;
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
        uint64_t single = spec->pairs_only ? 0 : ~non_ascii;
        uint64_t bad = starts & ((~single & ~lead) |
                                 (leads & (slow | ~trail_ok | past)));
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
        if (utf16) {
            uint16_t *d = (uint16_t *)dst + out;
            _mm512_mask_storeu_epi16((void *)d, _bzhi_u32(~0u, take0), half0);
            _mm512_mask_storeu_epi16((void *)(d + take0),
                                     _bzhi_u32(~0u, take1), half1);
            out += take;
        } else {
            uint8_t *d = (uint8_t *)dst + out;
            size_t made = utf8_pack32_avx512(half0, take0, d);
            made += utf8_pack32_avx512(half1, take1, d + made);
            out += made;
        }
        pos += consumed;
        if (bad != 0)
            break;
    }
    *written = out;
    return pos;
}
#endif

size_t wenc_double_byte_vectors(const double_byte_spec *spec,
                                const uint8_t *src, size_t n, void *dst,
                                size_t *written, int utf16)
{
#ifdef WENC_HAVE_RUNTIME_AVX512
    if (wenc_cpu_has_avx512())
        return db_decode_avx512(spec, src, n, dst, written, utf16);
#endif
    (void)spec;
    (void)src;
    (void)n;
    (void)dst;
    (void)utf16;
    *written = 0;
    return 0;
}

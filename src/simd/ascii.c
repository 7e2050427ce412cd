/* ASCII fast paths: SSE2 where the compiler targets it, NEON on aarch64 (both
 * always there on their architectures), 8-byte words otherwise; narrowing
 * UTF-16 starts with AVX2 where the CPU has it. */
#include "../internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define WENC_HAVE_SSE2 1
#endif
#ifdef WENC_HAVE_RUNTIME_AVX2
#include <immintrin.h>
#endif
#include "utf8_simd.h"

#define HIGH_BITS_64 UINT64_C(0x8080808080808080)

bool wenc_cpu_has_avx2(void)
{
#ifdef WENC_HAVE_RUNTIME_AVX2
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#else
    return false;
#endif
}

bool wenc_cpu_has_avx512(void)
{
#ifdef WENC_HAVE_RUNTIME_AVX512
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512vbmi") &&
           __builtin_cpu_supports("avx512vbmi2") &&
           __builtin_cpu_supports("bmi2");
#else
    return false;
#endif
}

WENC_INLINE uint64_t load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

size_t wenc_ascii_run(const uint8_t *src, size_t n)
{
    size_t i = 0;
#ifdef WENC_HAVE_SSE2
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        int high = _mm_movemask_epi8(v);
        if (high != 0)
            return i + (size_t)__builtin_ctz((unsigned)high);
    }
#endif
#ifdef WENC_HAVE_NEON
    for (; i + 32 <= n; i += 32) {
        uint8x16_t either = vorrq_u8(vld1q_u8(src + i), vld1q_u8(src + i + 16));
        if (vmaxvq_u8(either) >= 0x80)
            break;
    }
    for (; i + 16 <= n; i += 16) {
        size_t ascii = first_lane_set_neon(
            vcltzq_s8(vreinterpretq_s8_u8(vld1q_u8(src + i))));
        if (ascii < 16)
            return i + ascii;
    }
#endif
    for (; i + 8 <= n; i += 8) {
        size_t ascii = utf8_ascii_in_word(src + i);
        if (ascii < 8)
            return i + ascii;
    }
    while (i < n && src[i] < 0x80)
        i++;
    return i;
}

size_t wenc_ascii_to_utf8(const uint8_t *src, uint8_t *dst, size_t n)
{
    size_t i = 0;
#ifdef WENC_HAVE_SSE2
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        _mm_storeu_si128((__m128i *)(void *)(dst + i), v);
        int high = _mm_movemask_epi8(v);
        if (high != 0)
            return i + (size_t)__builtin_ctz((unsigned)high);
    }
#endif
#ifdef WENC_HAVE_NEON
    for (; i + 32 <= n; i += 32) {
        uint8x16_t a = vld1q_u8(src + i), b = vld1q_u8(src + i + 16);
        if (vmaxvq_u8(vorrq_u8(a, b)) >= 0x80)
            break;
        vst1q_u8(dst + i, a);
        vst1q_u8(dst + i + 16, b);
    }
    for (; i + 16 <= n; i += 16) {
        uint8x16_t v = vld1q_u8(src + i);
        vst1q_u8(dst + i, v);
        size_t ascii = first_lane_set_neon(vcltzq_s8(vreinterpretq_s8_u8(v)));
        if (ascii < 16)
            return i + ascii;
    }
#endif
    for (; i + 8 <= n; i += 8) {
        uint64_t w = load64(src + i);
        if (w & HIGH_BITS_64)
            break;
        memcpy(dst + i, &w, sizeof w);
    }
    while (i < n && src[i] < 0x80) {
        dst[i] = src[i];
        i++;
    }
    return i;
}

size_t wenc_ascii_to_utf16(const uint8_t *src, uint16_t *dst, size_t n)
{
    size_t i = 0;
#ifdef WENC_HAVE_SSE2
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        if (_mm_movemask_epi8(v) != 0)
            break;
        _mm_storeu_si128((__m128i *)(void *)(dst + i), _mm_unpacklo_epi8(v, zero));
        _mm_storeu_si128((__m128i *)(void *)(dst + i + 8), _mm_unpackhi_epi8(v, zero));
    }
#endif
#ifdef WENC_HAVE_NEON
    i = ascii_widen_run_neon(src, n, dst);
    if (i < n && src[i] >= 0x80)
        return i;
    for (; i + 16 <= n; i += 16) {
        uint8x16_t v = vld1q_u8(src + i);
        ascii_widen16_neon(v, dst + i);
        size_t ascii = first_lane_set_neon(vcltzq_s8(vreinterpretq_s8_u8(v)));
        if (ascii < 16)
            return i + ascii;
    }
#endif
    for (; i + 8 <= n; i += 8) {
        if (load64(src + i) & HIGH_BITS_64)
            break;
        for (size_t k = 0; k < 8; k++)
            dst[i + k] = src[i + k];
    }
    while (i < n && src[i] < 0x80) {
        dst[i] = src[i];
        i++;
    }
    return i;
}

#ifdef WENC_HAVE_RUNTIME_AVX2
/* 64 units a step while all are ASCII; returns how many, a multiple of 64.
 * PACKUSWB packs within 128-bit lanes; VPERMQ puts the quarters in order. */
WENC_TARGET_AVX2 static size_t ascii_narrow_avx2(const uint16_t *src,
                                                 uint8_t *dst, size_t n)
{
    const __m256i non_ascii = _mm256_set1_epi16((short)0xFF80);
    size_t i = 0;
    for (; n - i >= 64; i += 64) {
        const __m256i *in = (const __m256i *)(const void *)(src + i);
        __m256i a = _mm256_loadu_si256(in), b = _mm256_loadu_si256(in + 1);
        __m256i c = _mm256_loadu_si256(in + 2), d = _mm256_loadu_si256(in + 3);
        if (!_mm256_testz_si256(
                _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)),
                non_ascii))
            break;
        __m256i *out = (__m256i *)(void *)(dst + i);
        _mm256_storeu_si256(
            out, _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
        _mm256_storeu_si256(
            out + 1, _mm256_permute4x64_epi64(_mm256_packus_epi16(c, d), 0xD8));
    }
    return i;
}
#endif

#ifdef WENC_HAVE_SSE2
/* Where an ASCII run ends within the 16 units a, b (one of them not
 * ASCII): writes the run's bytes to dst, and nothing past them
 * (TextEncoder's encodeInto() leaves the rest of its destination as it
 * was), with at most two stores of a fixed size (a memcpy() of a variable
 * length is a call or REP MOVS; a loop a byte a unit measured slower on
 * French text); returns the run's length. */
static inline size_t ascii_run_end_sse2(__m128i a, __m128i b, uint8_t *dst)
{
    const __m128i high = _mm_set1_epi16((short)0xFF80);
    /* a bit a unit, set where it is ASCII (PACKSSWB keeps each test's 0 or
     * -1) */
    unsigned ascii = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(
        _mm_cmpeq_epi16(_mm_and_si128(a, high), _mm_setzero_si128()),
        _mm_cmpeq_epi16(_mm_and_si128(b, high), _mm_setzero_si128())));
    size_t run = (size_t)__builtin_ctz(~ascii);
    uint8_t bytes[16];
    _mm_storeu_si128((__m128i *)(void *)bytes, _mm_packus_epi16(a, b));
    if (run >= 8) {
        memcpy(dst, bytes, 8);
        memcpy(dst + run - 8, bytes + run - 8, 8);
    } else if (run >= 4) {
        memcpy(dst, bytes, 4);
        memcpy(dst + run - 4, bytes + run - 4, 4);
    } else if (run >= 1) {
        dst[0] = bytes[0];
        dst[run / 2] = bytes[run / 2];
        dst[run - 1] = bytes[run - 1];
    }
    return run;
}
#endif

size_t wenc_utf16_ascii_to_bytes(const uint16_t *src, uint8_t *dst, size_t n)
{
    size_t i = 0;
#ifdef WENC_HAVE_RUNTIME_AVX2
    /* (the same start for wenc_ascii_to_utf8() and wenc_ascii_to_utf16()
     * measured a tenth to a fifth slower on French, Czech and Turkish
     * text, whose ASCII runs are short) */
    if (n >= 64 && wenc_cpu_has_avx2())
        i = ascii_narrow_avx2(src, dst, n);
#endif
#ifdef WENC_HAVE_SSE2
    const __m128i high = _mm_set1_epi16((short)0xFF80);
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 8));
        __m128i any = _mm_and_si128(_mm_or_si128(a, b), high);
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(any, _mm_setzero_si128())) != 0xFFFF)
            return i + ascii_run_end_sse2(a, b, dst + i);
        _mm_storeu_si128((__m128i *)(void *)(dst + i), _mm_packus_epi16(a, b));
    }
    if (i + 8 <= n) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(a, high),
                                              _mm_setzero_si128())) != 0xFFFF)
            return i + ascii_run_end_sse2(a, high, dst + i);
        _mm_storel_epi64((__m128i *)(void *)(dst + i), _mm_packus_epi16(a, a));
        i += 8;
    }
#endif
#ifdef WENC_HAVE_NEON
    for (; i + 32 <= n; i += 32) {
        uint16x8x4_t u = vld1q_u16_x4(src + i);
        if (vmaxvq_u16(vorrq_u16(vorrq_u16(u.val[0], u.val[1]),
                                 vorrq_u16(u.val[2], u.val[3]))) >= 0x80)
            break;
        uint8x16x2_t bytes = {{vcombine_u8(vmovn_u16(u.val[0]), vmovn_u16(u.val[1])),
                               vcombine_u8(vmovn_u16(u.val[2]), vmovn_u16(u.val[3]))}};
        vst1q_u8_x2(dst + i, bytes);
    }
    for (; i + 8 <= n; i += 8) {
        uint16x8_t a = vld1q_u16(src + i);
        /* a byte a lane, set where the unit is not ASCII */
        uint64_t high = vget_lane_u64(
            vreinterpret_u64_u8(vmovn_u16(vcgtq_u16(a, vdupq_n_u16(0x7F)))), 0);
        if (high != 0) {
            /* nothing past the run: TextEncoder's encodeInto() leaves the
             * rest of its destination as it was */
            size_t ascii = (size_t)__builtin_ctzll(high) >> 3;
            for (size_t k = 0; k < ascii; k++)
                dst[i + k] = (uint8_t)src[i + k];
            return i + ascii;
        }
        vst1_u8(dst + i, vmovn_u16(a));
    }
#endif
    while (i < n && src[i] < 0x80) {
        dst[i] = (uint8_t)src[i];
        i++;
    }
    return i;
}

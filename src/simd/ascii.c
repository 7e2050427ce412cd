/* ASCII fast paths: SSE2 where the compiler targets it, 8-byte words otherwise. */
#include "../internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define WENC_HAVE_SSE2 1
#endif

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
        if (_mm_movemask_epi8(v) != 0)
            break;
    }
#endif
    for (; i + 8 <= n; i += 8)
        if (load64(src + i) & HIGH_BITS_64)
            break;
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
        if (_mm_movemask_epi8(v) != 0)
            break;
        _mm_storeu_si128((__m128i *)(void *)(dst + i), v);
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

size_t wenc_utf16_ascii_to_bytes(const uint16_t *src, uint8_t *dst, size_t n)
{
    size_t i = 0;
#ifdef WENC_HAVE_SSE2
    const __m128i high = _mm_set1_epi16((short)0xFF80);
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 8));
        __m128i any = _mm_and_si128(_mm_or_si128(a, b), high);
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(any, _mm_setzero_si128())) != 0xFFFF)
            break;
        _mm_storeu_si128((__m128i *)(void *)(dst + i), _mm_packus_epi16(a, b));
    }
    if (i + 8 <= n) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(a, high),
                                              _mm_setzero_si128())) == 0xFFFF) {
            _mm_storel_epi64((__m128i *)(void *)(dst + i), _mm_packus_epi16(a, a));
            i += 8;
        }
    }
#endif
    while (i < n && src[i] < 0x80) {
        dst[i] = (uint8_t)src[i];
        i++;
    }
    return i;
}

/* UTF-8 validation fused with the copy: the UTF-8 decoder's path for valid
 * input when it writes UTF-8 (§8.1.1: valid UTF-8 decodes to itself). */
#include "utf8_simd.h"

/* Length of the longest prefix of s[0..n) made of whole, valid sequences,
 * a sequence at a time: for the end of the input and the block where
 * utf8_copy_valid_scalar() meets an error. */
static size_t utf8_valid_sequences(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint32_t b = s[i];
        if (b < 0x80) {
            /* a lone ASCII byte (a space or a digit among letters of other
             * scripts) without the cost of looking for a run */
            i++;
            if (i < n && s[i] < 0x80) {
                /* a short run (a word between letters of Vietnamese or
                 * Czech) ends in this word; a longer one goes to the
                 * ASCII kernel */
                if (n - i >= 8) {
                    size_t ascii = utf8_ascii_in_word(s + i);
                    i += ascii;
                    if (ascii < 8)
                        continue;
                }
                i += wenc_ascii_run(s + i, n - i);
            }
            continue;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            if (n - i < 2 || (s[i + 1] & 0xC0) != 0x80)
                break;
            i += 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            if (n - i < 3)
                break;
            uint32_t c = s[i + 1];
            if (!utf8_three_bytes_valid(b, c, s[i + 2]))
                break;
            i += 3;
            /* a run of them, two characters a step */
            while (n - i >= 8 &&
                   utf8_two_three_byte_valid(utf8_load_le64(s + i)))
                i += 6;
            if (n - i >= 3 && utf8_three_bytes_valid(s[i], s[i + 1], s[i + 2]))
                i += 3;
        } else if (b >= 0xF0 && b <= 0xF4) {
            if (n - i < 4)
                break;
            uint32_t c = s[i + 1];
            if ((c & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80 ||
                (s[i + 3] & 0xC0) != 0x80 || (b == 0xF0 && c < 0x90) ||
                (b == 0xF4 && c > 0x8F))
                break;
            i += 4;
        } else {
            break;
        }
    }
    return i;
}

/* §8.1.1 UTF-8 decoder's validity, at a sequence's start 16 bytes at a
 * time by utf8_bmp_block16() where it vouches for them (ASCII, sequences
 * of two bytes, with SSE2 of three), else as an automaton
 * (src/tables/utf8_dfa.c): 24 bytes a block, three a step, no branch;
 * between sequences, whole words of ASCII are skipped. At an error, and
 * for the last bytes, the sequence loop takes over from the start of the block's first sequence,
 * so that the prefix ends where the error's sequence begins. The steps'
 * one dependency is a shift by the state: three bytes a step ran 15-40%
 * faster than two (a table of 144 words), and 2-4 times as fast as the
 * sequence loop alone on text whose sequence lengths change often. Copies
 * to d what it vouches for as it goes (runs of ASCII by the ASCII kernel,
 * each block once the automaton has read it), so that the text is read
 * once; d has room for n, and may get anything past the prefix. */
static size_t utf8_copy_valid_scalar(const uint8_t *s, uint8_t *d, size_t n)
{
    const uint16_t *first = wenc_utf8_dfa_first;
    const uint8_t *second = wenc_utf8_dfa_second;
    const uint8_t *third = wenc_utf8_dfa_third;
    const uint64_t *triples = wenc_utf8_dfa_triples;
    uint64_t state = WENC_UTF8_DFA_ACCEPT;
    size_t i = 0;
    while (n - i >= 32) {
        if (state == WENC_UTF8_DFA_ACCEPT) {
            bool ascii;
            size_t valid = utf8_bmp_block16(s + i, &ascii);
            /* constant steps (a branch each): the next block's load does
             * not wait for this one's check */
            if (WENC_LIKELY(valid == 16)) {
                memcpy(d + i, s + i, 16);
                i += 16;
                /* a run of ASCII 32 bytes or longer: the ASCII kernel */
                if (ascii && utf8_ascii_in_word(s + i) == 8 &&
                    utf8_ascii_in_word(s + i + 8) == 8)
                    i += wenc_ascii_to_utf8(s + i, d + i, n - i);
                continue;
            }
            if (valid == 15) {
                memcpy(d + i, s + i, 16);
                i += 15;
                continue;
            }
            if (valid == 14) {
                memcpy(d + i, s + i, 16);
                i += 14;
                continue;
            }
        }
        if (state == WENC_UTF8_DFA_ACCEPT &&
            utf8_ascii_in_word(s + i) == 8) {
            memcpy(d + i, s + i, 8);
            i += 8;
            i += wenc_ascii_to_utf8(s + i, d + i, n - i);
            /* an accented letter between runs of ASCII (Latin-script
             * text), without a block of the automaton */
            if (n - i >= 3 && (uint32_t)(s[i] - 0xC2) <= 0x1Du &&
                (s[i + 1] & 0xC0) == 0x80 && s[i + 2] < 0x80) {
                d[i] = s[i];
                d[i + 1] = s[i + 1];
                i += 2;
            }
            continue;
        }
        const uint8_t *p = s + i;
        uint64_t after = state;
        for (int k = 0; k < 24; k += 3)
            after = triples[first[p[k]] + second[p[k + 1]] + third[p[k + 2]]] >>
                    (after & 63);
        if ((after & 63) == WENC_UTF8_DFA_REJECT)
            break;
        memcpy(d + i, p, 24);
        state = after & 63;
        i += 24;
    }
    if (state != WENC_UTF8_DFA_ACCEPT) {
        /* back to the lead of the sequence open at i, at most three
         * continuation bytes before it */
        while ((s[i - 1] & 0xC0) == 0x80)
            i--;
        i--;
    }
    size_t rest = utf8_valid_sequences(s + i, n - i);
    memcpy(d + i, s + i, rest);
    return i + rest;
}

#if defined(WENC_HAVE_RUNTIME_AVX2) || defined(WENC_HAVE_NEON)
/* Of the first `checked` bytes of src, which passed a kernel's check, those
 * that are whole sequences: less a last one the bytes after would complete. */
WENC_INLINE size_t whole_sequences(const uint8_t *src, size_t checked)
{
    return checked < 3 ? 0 : checked - utf8_incomplete_tail(src, checked);
}
#endif

/*
 * The kernels copy src to dst a vector at a time while the vectors pass the
 * check, and return how many leading bytes of src form whole, valid
 * sequences among those copied: they stop before the vector holding the
 * first error, or the end, and leave out a sequence the rest would have to
 * complete. They may have copied up to 3 bytes past what they return. src
 * starts a sequence.
 */
#ifdef WENC_HAVE_RUNTIME_AVX2
/* Whether the 32 bytes `in` are ASCII and sequences of two bytes only, all
 * valid and whole but the last, which may go on past them: continuations
 * (80-BF) exactly where a lead C2-DF went before, or where `carry` says the
 * bytes before ended with one. *carry gets whether these do. False says
 * nothing: the full check decides. */
WENC_TARGET_AVX2 static inline bool utf8_two_byte_valid_avx2(__m256i in,
                                                             bool *carry)
{
    uint32_t conts = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), in)); /* 80-BF */
    uint32_t leads = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
        _mm256_cmpgt_epi8(in, _mm256_set1_epi8(-63)),    /* C2-FF, ASCII */
        _mm256_cmpgt_epi8(_mm256_set1_epi8(-32), in)));  /* 80-DF */
    uint32_t non_ascii = (uint32_t)_mm256_movemask_epi8(in);
    bool ok = (conts | leads) == non_ascii &&
              conts == (leads << 1 | (uint32_t)*carry);
    *carry = leads >> 31 != 0;
    return ok;
}

/* Whether the vouching cannot follow the 64 bytes in0, in1 (`last` the
 * last of them): they hold a byte E0-FF (a lead of three or four bytes, or
 * worse), or end in C0-C1. (A lead C2-DF last is the vouching's carry.) */
WENC_TARGET_AVX2 static inline bool utf8_step_high(__m256i in0, __m256i in1,
                                                   uint8_t last)
{
    __m256i above_df = _mm256_subs_epu8(_mm256_max_epu8(in0, in1),
                                        _mm256_set1_epi8((char)0xDF));
    return !_mm256_testz_si256(above_df, above_df) || last - 0xC0u < 2;
}

/* Nonzero where the 32 bytes `prev` end in a sequence that needs more bytes
 * (a lead C0-FF last, E0-FF second to last, F0-FF third to last): an error
 * when ASCII follows. */
WENC_TARGET_AVX2 static inline __m256i utf8_cut_before_ascii_avx2(__m256i prev)
{
    const __m256i last_allowed = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    return _mm256_subs_epu8(prev, last_allowed);
}

/* The kernel's loop for dense text, from pos (after a high step, whose
 * last 32 bytes are *prev): while the steps ahead are high, only the full
 * check (a step that is not high goes back to the kernel's tests, without a
 * full check it does not need). With `load_before` the bytes before each
 * vector are loaded, not shifted in (loads run beside the vector work); the
 * kernel does not ask for it where the output starts less than 256 bytes
 * after the input modulo 4 KiB, where those loads would wait on the stores
 * of the copy just made (4K aliasing). Japanese on Zen 5: 17.5 GB/s
 * loading, 14.5 shifting, 10-15 loading with the output that close.
 * Returns where it stopped; *failed when that step holds an error. */
WENC_TARGET_AVX2 static inline size_t
utf8_dense_steps_avx2(const uint8_t *src, uint8_t *dst, size_t n, size_t pos,
                      __m256i *prev, bool load_before, bool *failed)
{
    __m256i last = *prev;
    while (n - pos >= 64) {
        __m256i in0 =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        __m256i in1 =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos + 32));
        bool high = utf8_step_high(in0, in1, src[pos + 63]);
        if (!load_before && !high)
            break;
        __m256i errors =
            load_before ? _mm256_or_si256(utf8_errors_at_avx2(src + pos),
                                          utf8_errors_at_avx2(src + pos + 32))
                        : _mm256_or_si256(utf8_errors_avx2(in0, last),
                                          utf8_errors_avx2(in1, in0));
        if (!_mm256_testz_si256(errors, errors)) {
            *failed = true;
            break;
        }
        _mm256_storeu_si256((__m256i *)(void *)(dst + pos), in0);
        _mm256_storeu_si256((__m256i *)(void *)(dst + pos + 32), in1);
        last = in1;
        pos += 64;
        /* loading, the step that is not high is checked before that is
         * known, and taken (measured a tenth faster on Japanese) */
        if (!high)
            break;
    }
    *prev = last;
    return pos;
}

WENC_TARGET_AVX2 static size_t utf8_copy_valid_avx2(const uint8_t *src,
                                                    uint8_t *dst, size_t n)
{
    __m256i prev = _mm256_setzero_si256();
    /* Whether the step before held a lead of three or four bytes (or ended
     * in C0-C1): the vouching cannot follow it */
    bool prev_high = false;
    size_t pos = 0;
    /* Two vectors a step, one branch on what each step is. ASCII: only the
     * end of the bytes before needs checking. ASCII and two-byte sequences
     * (most Latin-script text) after a step that was not high: vouched for
     * by where the leads and continuations are. Anything else: the full
     * check, the bytes before each vector loaded rather than shifted in;
     * from the second high step in a row, a loop of full checks while the
     * steps stay high (Chinese, Japanese, Thai). A step in error is checked
     * again a vector at a time below. */
    while (n - pos >= 64) {
        __m256i in0 =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        __m256i in1 =
            _mm256_loadu_si256((const __m256i *)(const void *)(src + pos + 32));
        if (_mm256_movemask_epi8(_mm256_or_si256(in0, in1)) == 0) {
            __m256i cut = utf8_cut_before_ascii_avx2(prev);
            if (WENC_UNLIKELY(!_mm256_testz_si256(cut, cut)))
                break;
            _mm256_storeu_si256((__m256i *)(void *)(dst + pos), in0);
            _mm256_storeu_si256((__m256i *)(void *)(dst + pos + 32), in1);
            prev = in1;
            prev_high = false;
            pos += 64;
            continue;
        }
        if (!prev_high) {
            bool carry = pos > 0 && src[pos - 1] >= 0xC2 && src[pos - 1] <= 0xDF;
            if (utf8_two_byte_valid_avx2(in0, &carry) &&
                utf8_two_byte_valid_avx2(in1, &carry)) {
                _mm256_storeu_si256((__m256i *)(void *)(dst + pos), in0);
                _mm256_storeu_si256((__m256i *)(void *)(dst + pos + 32), in1);
                prev = in1;
                pos += 64;
                continue;
            }
        }
        bool high = utf8_step_high(in0, in1, src[pos + 63]);
        __m256i errors = _mm256_or_si256(utf8_errors_avx2(in0, prev),
                                         utf8_errors_avx2(in1, in0));
        if (!_mm256_testz_si256(errors, errors))
            break;
        _mm256_storeu_si256((__m256i *)(void *)(dst + pos), in0);
        _mm256_storeu_si256((__m256i *)(void *)(dst + pos + 32), in1);
        prev = in1;
        pos += 64;
        /* From the second high step in a row: the dense loop */
        bool failed = false;
        if (high && prev_high) {
            if (((uintptr_t)dst - (uintptr_t)src) % 4096 >= 256)
                pos = utf8_dense_steps_avx2(src, dst, n, pos, &prev, true,
                                            &failed);
            else
                pos = utf8_dense_steps_avx2(src, dst, n, pos, &prev, false,
                                            &failed);
        }
        prev_high = high;
        if (failed)
            break;
    }
    for (; n - pos >= 32; pos += 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(const void *)(src + pos));
        __m256i errors = _mm256_movemask_epi8(in) == 0
                             ? utf8_cut_before_ascii_avx2(prev)
                             : utf8_errors_avx2(in, prev);
        if (!_mm256_testz_si256(errors, errors))
            break;
        _mm256_storeu_si256((__m256i *)(void *)(dst + pos), in);
        prev = in;
    }
    return whole_sequences(src, pos);
}
#endif

#ifdef WENC_HAVE_RUNTIME_AVX512
WENC_TARGET_AVX512 static size_t utf8_copy_valid_avx512(const uint8_t *src,
                                                        uint8_t *dst, size_t n)
{
    utf8_checker512 check;
    utf8_check512_init(&check);
    bool prev_ascii = true;
    size_t pos = 0;
    /* Two vectors a step, their errors tested together */
    for (; n - pos >= 128; pos += 128) {
        __m512i in0 = _mm512_loadu_si512((const void *)(src + pos));
        __m512i in1 = _mm512_loadu_si512((const void *)(src + pos + 64));
        bool ascii = _mm512_movepi8_mask(_mm512_or_si512(in0, in1)) == 0;
        if (ascii && prev_ascii) {
            utf8_check512_ascii(&check, in1);
        } else {
            uint64_t errors0 = utf8_check512(&check, in0);
            if ((errors0 | utf8_check512(&check, in1)) != 0) {
                if (errors0 == 0) {
                    _mm512_storeu_si512((void *)(dst + pos), in0);
                    pos += 64;
                }
                goto stopped;
            }
        }
        _mm512_storeu_si512((void *)(dst + pos), in0);
        _mm512_storeu_si512((void *)(dst + pos + 64), in1);
        prev_ascii = ascii;
    }
    for (; n - pos >= 64; pos += 64) {
        __m512i in = _mm512_loadu_si512((const void *)(src + pos));
        bool ascii = _mm512_movepi8_mask(in) == 0;
        if (ascii && prev_ascii)
            utf8_check512_ascii(&check, in);
        else if (utf8_check512(&check, in) != 0)
            break;
        _mm512_storeu_si512((void *)(dst + pos), in);
        prev_ascii = ascii;
    }
    if (n - pos < 64 && pos < n) {
        /* The last bytes, read and written under a mask; the zeros after
         * them end a sequence left incomplete, which is then an error. */
        __mmask64 live = _bzhi_u64(~UINT64_C(0), (unsigned)(n - pos));
        __m512i in = _mm512_maskz_loadu_epi8(live, (const void *)(src + pos));
        if (utf8_check512(&check, in) == 0) {
            _mm512_mask_storeu_epi8((void *)(dst + pos), live, in);
            return n;
        }
    }
stopped:
    return whole_sequences(src, pos);
}
#endif

#ifdef WENC_HAVE_NEON
/* The kernels' contract (above) with NEON, 16 bytes a step: 64 bytes at a
 * time while they pass (ASCII tested on their OR, errors on the OR of the
 * four vectors' checks), then a vector at a time up to the one in error. */
static size_t utf8_copy_valid_neon(const uint8_t *src, uint8_t *dst, size_t n)
{
    uint8x16_t prev = vdupq_n_u8(0);
    bool prev_ascii = true;
    size_t pos = 0;
    for (; n - pos >= 64; pos += 64) {
        uint8x16_t a = vld1q_u8(src + pos), b = vld1q_u8(src + pos + 16);
        uint8x16_t c = vld1q_u8(src + pos + 32), d = vld1q_u8(src + pos + 48);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d))) < 0x80) {
            /* after a vector that is not ASCII, ASCII may end its last
             * sequence too soon */
            if (!prev_ascii && vmaxvq_u8(utf8_errors_neon(a, prev)) != 0)
                break;
            prev_ascii = true;
        } else {
            uint8x16_t errors = vorrq_u8(
                vorrq_u8(utf8_errors_neon(a, prev), utf8_errors_neon(b, a)),
                vorrq_u8(utf8_errors_neon(c, b), utf8_errors_neon(d, c)));
            if (vmaxvq_u8(errors) != 0)
                break;
            prev_ascii = false;
        }
        vst1q_u8(dst + pos, a);
        vst1q_u8(dst + pos + 16, b);
        vst1q_u8(dst + pos + 32, c);
        vst1q_u8(dst + pos + 48, d);
        prev = d;
    }
    for (; n - pos >= 16; pos += 16) {
        uint8x16_t in = vld1q_u8(src + pos);
        bool ascii = vmaxvq_u8(in) < 0x80;
        /* An ASCII vector after an ASCII one holds no error; after another
         * it may end that one's last sequence too soon. */
        if (!(ascii && prev_ascii) && vmaxvq_u8(utf8_errors_neon(in, prev)) != 0)
            break;
        vst1q_u8(dst + pos, in);
        prev = in;
        prev_ascii = ascii;
    }
    return whole_sequences(src, pos);
}
#endif

unsigned wenc_utf8_vector_width(size_t n)
{
#ifdef WENC_HAVE_RUNTIME_AVX512
    if (n >= 16 && wenc_cpu_has_avx512())
        return 64;
#endif
#ifdef WENC_HAVE_RUNTIME_AVX2
    if (n >= 32 && wenc_cpu_has_avx2())
        return 32;
#endif
#ifdef WENC_HAVE_NEON
    if (n >= 16)
        return 16;
#endif
    (void)n;
    return 0;
}

size_t wenc_utf8_copy_valid_vectors(const uint8_t *src, uint8_t *dst,
                                    size_t n)
{
    switch (wenc_utf8_vector_width(n)) {
#ifdef WENC_HAVE_RUNTIME_AVX512
    case 64:
        return utf8_copy_valid_avx512(src, dst, n);
#endif
#ifdef WENC_HAVE_RUNTIME_AVX2
    case 32:
        return utf8_copy_valid_avx2(src, dst, n);
#endif
#ifdef WENC_HAVE_NEON
    case 16:
        return utf8_copy_valid_neon(src, dst, n);
#endif
    default:
        (void)src;
        (void)dst;
        return 0;
    }
}

size_t wenc_utf8_copy_valid(const uint8_t *src, uint8_t *dst, size_t n)
{
    size_t done = wenc_utf8_copy_valid_vectors(src, dst, n);
    return done + utf8_copy_valid_scalar(src + done, dst + done, n - done);
}

/* Internal interfaces shared by the drivers, codecs and generated tables. */
#ifndef WENC_INTERNAL_H
#define WENC_INTERNAL_H

#include "wenc.h"

#include <string.h>

/* Nothing declared below is part of the library's interface: hidden from
 * the shared library's symbol table, and reached without the GOT. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

#if defined(__GNUC__) || defined(__clang__)
#define WENC_INLINE static inline __attribute__((always_inline))
#define WENC_LIKELY(x) __builtin_expect(!!(x), 1)
#define WENC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define WENC_INLINE static inline
#define WENC_LIKELY(x) (x)
#define WENC_UNLIKELY(x) (x)
#endif

/* Whether the host stores the low byte of a 16-bit word first (UTF-16 in
 * memory as UTF-16LE). */
WENC_INLINE bool host_is_little_endian(void)
{
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* The longest NCR, "&#1114111;". */
#define NCR_MAX_LEN 10

/* Writes "&#" cp ";" (decimal, §4.3 encode's html error mode) at out;
 * returns its length. */
WENC_INLINE size_t ncr_put(uint32_t cp, uint8_t out[NCR_MAX_LEN])
{
    char digits[7];
    size_t n = 0, k = 0;
    do {
        digits[n++] = (char)('0' + cp % 10);
        cp /= 10;
    } while (cp);
    out[k++] = '&';
    out[k++] = '#';
    while (n)
        out[k++] = (uint8_t)digits[--n];
    out[k++] = ';';
    return k;
}

/* What a codec loop stopped on. The first three match wenc_status. */
typedef enum codec_status {
    CODEC_INPUT_EMPTY = WENC_INPUT_EMPTY,
    CODEC_OUTPUT_FULL = WENC_OUTPUT_FULL,
    CODEC_ERROR = WENC_ERROR,
    /* Decoder: the codec restored bytes that came from earlier input into
     * dec->replay_; they must be read before the rest of the input. */
    CODEC_REPLAY = 3,
    /* Encoder: a code point cannot be encoded (enc->error_code_point_). */
    CODEC_UNMAPPABLE = 4
} codec_status;

/* The encoding families, one codec each. */
typedef enum codec_family {
    FAMILY_UTF_8,
    FAMILY_SINGLE_BYTE,
    FAMILY_GB18030,
    FAMILY_BIG5,
    FAMILY_EUC_JP,
    FAMILY_ISO_2022_JP,
    FAMILY_SHIFT_JIS,
    FAMILY_EUC_KR,
    FAMILY_REPLACEMENT,
    FAMILY_UTF_16,
    FAMILY_X_USER_DEFINED,
    FAMILY_COUNT
} codec_family;

/* Each encoding's family, indexed by wenc_id (0 .. WENC_ENCODING_COUNT-1). */
extern const uint8_t wenc_families[WENC_ENCODING_COUNT];

WENC_INLINE codec_family wenc_family(wenc_id id)
{
    return (codec_family)wenc_families[id];
}

/* The families of the legacy multi-byte encodings, which a build with
 * WENC_NO_CJK (cmake -DWENC_CJK=OFF) leaves out with their tables. */
WENC_INLINE bool wenc_family_is_cjk(codec_family family)
{
    return family >= FAMILY_GB18030 && family <= FAMILY_EUC_KR;
}

/* ---- sinks: where decoders write ------------------------------------- */

/* A decoder writes through one of two sinks; `utf16` is a compile-time
 * constant in every instantiation, so these fold to straight-line code. */
WENC_INLINE size_t sink_units(uint32_t cp, int utf16)
{
    if (utf16)
        return cp < 0x10000 ? 1 : 2;
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Writes cp at dst[pos] (units of the sink) and returns the new position.
 * The caller has checked the room with sink_units(). */
WENC_INLINE size_t sink_put(void *dst, size_t pos, uint32_t cp, int utf16)
{
    if (utf16) {
        uint16_t *d = (uint16_t *)dst + pos;
        if (cp < 0x10000) {
            d[0] = (uint16_t)cp;
            return pos + 1;
        }
        cp -= 0x10000;
        d[0] = (uint16_t)(0xD800 | (cp >> 10));
        d[1] = (uint16_t)(0xDC00 | (cp & 0x3FF));
        return pos + 2;
    }
    uint8_t *d = (uint8_t *)dst + pos;
    if (cp < 0x80) {
        d[0] = (uint8_t)cp;
        return pos + 1;
    }
    if (cp < 0x800) {
        d[0] = (uint8_t)(0xC0 | (cp >> 6));
        d[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return pos + 2;
    }
    if (cp < 0x10000) {
        d[0] = (uint8_t)(0xE0 | (cp >> 12));
        d[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return pos + 3;
    }
    d[0] = (uint8_t)(0xF0 | (cp >> 18));
    d[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return pos + 4;
}

/* ---- run-time SIMD (simd/ascii.c) -------------------------------------------- */

/* The vector kernels (src/simd/, and those one codec uses alone in its own
 * file: single_byte.c, utf16.c, utf8.c) are compiled for x86-64 with gcc or
 * clang, with the target attribute, the AVX2 ones taken when
 * wenc_cpu_has_avx2(), the AVX-512 ones (below) when wenc_cpu_has_avx512();
 * WENC_NO_RUNTIME_SIMD leaves them all out. */
#if defined(__x86_64__) && defined(__SSE2__) &&                             \
    (defined(__GNUC__) || defined(__clang__)) &&                            \
    !defined(WENC_NO_RUNTIME_SIMD)
#define WENC_HAVE_RUNTIME_AVX2 1
#define WENC_TARGET_AVX2 __attribute__((target("avx2")))
#endif

/* Whether this CPU runs the AVX2 kernels: AVX2 and POPCNT, which every
 * AVX2 CPU has and the kernels use (asked of the compiler's runtime, which
 * reads CPUID once at load); false where they are not compiled in. */
bool wenc_cpu_has_avx2(void);

/* AVX-512 kernels need the Ice Lake / Zen 4 set: F, BW, VL, VBMI, VBMI2 and
 * BMI2. WENC_NO_AVX512 leaves them out (the tests' AVX2-only build). */
#if defined(WENC_HAVE_RUNTIME_AVX2) && !defined(WENC_NO_AVX512)
#define WENC_HAVE_RUNTIME_AVX512 1
#define WENC_TARGET_AVX512                                                  \
    __attribute__((target("avx2,bmi,bmi2,avx512f,avx512bw,avx512vl,"       \
                          "avx512vbmi,avx512vbmi2")))
#endif

/* Whether this CPU (and its OS) runs the AVX-512 kernels; false where they
 * are not compiled in. */
bool wenc_cpu_has_avx512(void);

#ifdef WENC_HAVE_RUNTIME_AVX2
/* The UTF-8 encoder's AVX2 kernel (codecs/utf8.c), which the UTF-16LE/BE
 * decoder takes too for units in the host's order: converts the units at
 * src to UTF-8 at dst, 8 or 16 a step, and stops before 8 units that hold a
 * surrogate or where fewer than 8 are left. dst has room for 3 bytes a
 * unit; stores may reach 12 bytes past what is written while 14 units or
 * more follow. Returns the units read; the bytes written go to *written.
 * Only where wenc_cpu_has_avx2(). */
size_t wenc_utf16_to_utf8_avx2(const uint16_t *src, size_t n, uint8_t *dst,
                               size_t *written);
#endif
#ifdef WENC_HAVE_RUNTIME_AVX512
/* The UTF-8 encoder's AVX-512 kernel, which the UTF-16LE/BE decoder takes too
 * for units in the host's order: converts the units at src to UTF-8 at dst,
 * 32 a step (the last fewer under a mask), and stops before the first
 * surrogate. dst has room for 3 bytes a unit. Returns the units read; the
 * bytes written go to *written. Only where wenc_cpu_has_avx512(). */
size_t wenc_utf16_to_utf8_avx512(const uint16_t *src, size_t n, uint8_t *dst,
                                 size_t *written);
#endif

/* NEON kernels on little-endian aarch64, where NEON is always there: no
 * run-time choice. WENC_NO_RUNTIME_SIMD leaves them out too (the tests'
 * portable build). */
#if defined(__aarch64__) && defined(__ARM_NEON) &&                          \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&  \
    !defined(WENC_NO_RUNTIME_SIMD)
#define WENC_HAVE_NEON 1
#endif

/* ---- ASCII fast paths (simd/ascii.c) ---------------------------------------- */

/* Copies the leading ASCII bytes of src (at most n) to dst as UTF-8 / UTF-16
 * and returns how many were copied (stops before the first byte >= 0x80).
 * dst has room for n; they may write anything past what they return. */
size_t wenc_ascii_to_utf8(const uint8_t *src, uint8_t *dst, size_t n);
size_t wenc_ascii_to_utf16(const uint8_t *src, uint16_t *dst, size_t n);
/* Length of the leading ASCII run of src (at most n). */
size_t wenc_ascii_run(const uint8_t *src, size_t n);
/* Narrows the leading ASCII code units of src (at most n) to bytes; it
 * writes nothing past them. */
size_t wenc_utf16_ascii_to_bytes(const uint16_t *src, uint8_t *dst, size_t n);

/* An encoder loop's step over UTF-8 at the ASCII byte src[*pos] (*pos <
 * end): copies it to dst[*out], then, when the eighth byte after it is ASCII
 * too, the run of ASCII there by wenc_ascii_to_utf8() (a lone space between
 * letters costs no call); advances *pos and *out. */
WENC_INLINE void ascii_byte_then_run(const uint8_t *src, size_t end,
                                     uint8_t *dst, size_t *pos, size_t *out)
{
    size_t p = *pos, o = *out;
    dst[o++] = src[p++];
    if (end - p >= 8 && src[p + 7] < 0x80) {
        size_t ascii = wenc_ascii_to_utf8(src + p, dst + o, end - p);
        p += ascii;
        o += ascii;
    }
    *pos = p;
    *out = o;
}

/* ---- UTF-8 validation (simd/utf8_validate.c) ---------------------------------- */

/* Copies to dst the longest prefix of src[0..n) made of whole, valid UTF-8
 * sequences and returns its length; src starts a sequence. May write
 * anything in dst past that prefix (never past dst[n - 1]). */
size_t wenc_utf8_copy_valid(const uint8_t *src, uint8_t *dst, size_t n);
/* The vector kernel alone: what it copied and vouches for (a prefix of
 * whole, valid sequences no shorter than the valid prefix rounded down to
 * its vector width, less 3 bytes; all of src when src is valid and the
 * width is 64). For tests of the kernels' exactness. */
size_t wenc_utf8_copy_valid_vectors(const uint8_t *src, uint8_t *dst,
                                    size_t n);
/* The bytes per step of the vector kernels (validation and UTF-16 alike)
 * taken for n bytes: 64, 32, 16 (NEON), or 0 (none). */
unsigned wenc_utf8_vector_width(size_t n);

/* ---- UTF-8 -> UTF-16 (simd/utf8_to_utf16.c) ----------------------------------- */

/* The UTF-8 decoder's vector kernel for UTF-16: decodes a prefix of
 * src[0..n) made of whole, valid sequences into dst[0..cap), sets *written to
 * the units and returns the bytes read; src starts a sequence. It may write
 * anything to dst[*written..cap), never past it. With room enough it reads all of valid
 * input, and otherwise stops less than two of its blocks
 * (wenc_utf8_vector_width(n) bytes) and 3 bytes before the first error; 0
 * when no kernel runs here. */
size_t wenc_utf8_to_utf16_vectors(const uint8_t *src, size_t n, uint16_t *dst,
                                  size_t cap, size_t *written);

/* The same for every CPU: the vector kernels where they run, then one
 * sequence at a time (or where none runs, all of it so), up to the first
 * error or the end of the room; the UTF-8 decoder's own loop. A sequence
 * of four bytes gives its surrogate pair, both units or neither. */
size_t wenc_utf8_valid_to_utf16(const uint8_t *src, size_t n, uint16_t *dst,
                                size_t cap, size_t *written);

/* The UTF-8 bytes of the first `units` code points of src, whole, valid
 * sequences all in the BMP, followed by the start of another sequence:
 * where the (units + 1)th sequence starts. A start is a byte that is not a
 * continuation (10xxxxxx); eight bytes are passed at a time while eight
 * starts or more are left to pass (those bytes are there: each start left
 * has a byte of its own). */
WENC_INLINE size_t utf8_bmp_bytes_of(const uint8_t *src, size_t units)
{
    const uint64_t high_bits = UINT64_C(0x8080808080808080);
    size_t pos = 0;
    while (units >= 8) {
        uint64_t word;
        memcpy(&word, src + pos, sizeof word);
        units -= 8 - (size_t)__builtin_popcountll(word & ~(word << 1) &
                                                  high_bits);
        pos += 8;
    }
    for (;; pos++) {
        if ((src[pos] & 0xC0) != 0x80) {
            if (units == 0)
                return pos;
            units--;
        }
    }
}

/* An encoder's vector path over UTF-16: encodes what it can of
 * units[0..n) into dst (room for 2 * n bytes), sets *written to the bytes
 * and returns the units read; it stops before a surrogate. */
typedef size_t (*utf16_encode_fn)(const void *context, const uint16_t *units,
                                  size_t n, uint8_t *dst, size_t *written);

/* The same over UTF-8: ASCII bytes are copied as they are (every caller's
 * encoder writes ASCII as itself, or hands over none), and the rest of
 * src[0..n) is decoded to UTF-16 by the kernel above (as far as it is
 * whole, valid sequences), 128 units at a time, twice as many after each
 * chunk `encode` takes whole, up to 1024, and handed to `encode`, whose
 * output is never longer than the UTF-8 it came from when dst has room for
 * n bytes. Sets *written to the bytes and returns the UTF-8 bytes read:
 * those of the units `encode` read. */
size_t wenc_utf8_encode_via_utf16(const uint8_t *src, size_t n, uint8_t *dst,
                                  size_t *written, utf16_encode_fn encode,
                                  const void *context);

/* ---- two-byte decoders' fast paths (codecs/loops.h, simd/double_byte.c) -- */

/* What the fast paths need to know of a two-byte encoding. Byte ranges
 * are {first, last}, inclusive; a range may repeat another. A character is
 * an ASCII byte or a lead byte and a trail byte, whose pointer is
 * (lead - lead_base[lead >= lead_split]) * trail_count
 *     + trail - trail_base[trail >= trail_split]
 * and whose code point is index[pointer] (0: none). Each codec's spec is
 * written with designated initializers beside its decoder, citing the
 * section of the Standard its ranges and offsets come from. */
typedef struct double_byte_spec {
    uint8_t lead[2][2];  /* every lead byte of the encoding */
    uint8_t slow[3][2];  /* leads the codec's own loop decodes ({0, 0}: none) */
    uint8_t trail[2][2]; /* the trail bytes */
    uint8_t lead_split, trail_split;
    uint8_t lead_base[2], trail_base[2];
    uint16_t trail_count;
    const uint16_t *index;
    const size_t *index_size;
    /* The scalar loop's pointer: pointer_of_lead[lead] +
     * pointer_of_trail[trail], the formula above for the leads outside
     * `slow` whose rows are in the index and for every trail,
     * DOUBLE_BYTE_NOT_A_POINTER (or more) for any other byte (see
     * DOUBLE_BYTE_OFFSET() in codecs/loops.h). */
    const uint16_t *pointer_of_lead;
    const uint16_t *pointer_of_trail;
} double_byte_spec;

/* Decodes a prefix of src[0..n) made of characters the spec lets the
 * vector path take (see simd/double_byte.c), src starting a character, into
 * dst as UTF-8, which must have room for 3 * n bytes; it stops before the
 * first character it does not take and before a block of mostly ASCII.
 * Sets *written to the bytes and returns the bytes read. 0 when no kernel
 * runs here. UTF-16 output is the scalar loop's: it measured faster than
 * this path's gathers on every text. */
size_t wenc_double_byte_vectors(const double_byte_spec *spec,
                                const uint8_t *src, size_t n, uint8_t *dst,
                                size_t *written);

/* ---- decoders ------------------------------------------------------------ */

/* A codec's decode loop. Reads src[0..src_len), writes at most dst_cap sink
 * units, sets *consumed and *written. On CODEC_ERROR (fatal mode) it has set
 * dec->error_bytes_/error_len_ and *consumed ends right after the malformed
 * sequence. Bytes to be read again that precede src[*consumed] but are not in
 * src go to dec->replay_ (CODEC_REPLAY, or CODEC_ERROR with replay set). */
typedef codec_status (*decode_fn)(wenc_decoder *dec, const uint8_t *src,
                                  size_t src_len, size_t *consumed, void *dst,
                                  size_t dst_cap, size_t *written, bool last);

/* A decoder codec. Its state lives in dec->code_point_, state_ and bytes_;
 * all zero is every codec's initial state. */
typedef struct decoder_codec {
    decode_fn to_utf8;
    decode_fn to_utf16;
    /* Bytes held in the codec state (counted in the max-length helpers);
     * when `bytes` is not NULL they are copied there (room for 4), in
     * stream order. */
    size_t (*held)(const wenc_decoder *dec, uint8_t *bytes);
    /* For wenc_decoder_save(): the state but the held bytes, as it was
     * before the codec read them, in 8 bits (0: the initial state). NULL
     * for a codec whose state is only its held bytes. */
    uint32_t (*save)(const wenc_decoder *dec);
    /* For wenc_decoder_restore(): puts a codec in its initial state into
     * the state `save` gave `flags` for; false when it never gives them.
     * NULL when `save` is. */
    bool (*restore)(wenc_decoder *dec, uint32_t flags);
    /* Whether, in its current state, the codec can have queued bytes[0..n)
     * to be read again after an error (when reading them writes output).
     * NULL for a codec that never queues such bytes. */
    bool (*rereads)(const wenc_decoder *dec, const uint8_t *bytes, size_t n);
} decoder_codec;

extern const decoder_codec wenc_utf8_decoder;
extern const decoder_codec wenc_single_byte_decoder;
extern const decoder_codec wenc_utf16_decoder;
extern const decoder_codec wenc_replacement_decoder;
extern const decoder_codec wenc_gb18030_decoder;
extern const decoder_codec wenc_big5_decoder;
extern const decoder_codec wenc_euc_jp_decoder;
extern const decoder_codec wenc_iso_2022_jp_decoder;
extern const decoder_codec wenc_shift_jis_decoder;
extern const decoder_codec wenc_euc_kr_decoder;

/* Records a malformed sequence of n bytes (the first ones from `held`, which
 * the codec kept from earlier input, then from `cur`). */
void wenc_decoder_set_error(wenc_decoder *dec, const uint8_t *held,
                            size_t held_len, const uint8_t *cur,
                            size_t cur_len);

/* The most output (UTF-16 units, or UTF-8 bytes) that src_len new bytes can
 * give a decoder holding `held` bytes; SIZE_MAX on overflow. */
size_t wenc_decoded_max_len(size_t held, size_t src_len, int utf16);

/* Pushes bytes that must be read again before the rest of the input. */
void wenc_decoder_push_replay(wenc_decoder *dec, const uint8_t *bytes,
                              size_t n);

/* Restores the last n bytes read (§3 restore), `bytes` being their values:
 * those still in src are unread by moving *pos back, the others are pushed
 * for replay (then CODEC_REPLAY is returned, else CODEC_INPUT_EMPTY). */
WENC_INLINE codec_status unread(wenc_decoder *dec, const uint8_t *bytes,
                                size_t n, size_t *pos)
{
    if (*pos >= n) {
        *pos -= n;
        return CODEC_INPUT_EMPTY;
    }
    wenc_decoder_push_replay(dec, bytes, n - *pos);
    *pos = 0;
    return CODEC_REPLAY;
}

/* A decoder's "return error" (§4.1): in fatal mode records the malformed
 * sequence and gives CODEC_ERROR; in replacement mode writes U+FFFD, or gives
 * CODEC_OUTPUT_FULL (changing nothing) when it does not fit. */
WENC_INLINE codec_status sink_error(wenc_decoder *dec, const uint8_t *held,
                                    size_t held_len, const uint8_t *cur,
                                    size_t cur_len, void *dst, size_t cap,
                                    size_t *out, int utf16)
{
    if (dec->error_mode_ == WENC_ERRORS_FATAL) {
        wenc_decoder_set_error(dec, held, held_len, cur, cur_len);
        return CODEC_ERROR;
    }
    if (cap - *out < sink_units(0xFFFD, utf16))
        return CODEC_OUTPUT_FULL;
    *out = sink_put(dst, *out, 0xFFFD, utf16);
    return CODEC_INPUT_EMPTY;
}

/* Copies the ASCII run at src[*pos..len) into the sink at dst[*out..cap).
 * Returns false when the sink fills before the run ends (OUTPUT_FULL). */
WENC_INLINE bool sink_ascii_run(const uint8_t *src, size_t *pos, size_t len,
                                void *dst, size_t *out, size_t cap, int utf16)
{
    while (*pos < len && src[*pos] < 0x80) {
        size_t n = len - *pos < cap - *out ? len - *pos : cap - *out;
        if (n == 0)
            return false;
        n = utf16 ? wenc_ascii_to_utf16(src + *pos, (uint16_t *)dst + *out, n)
                  : wenc_ascii_to_utf8(src + *pos, (uint8_t *)dst + *out, n);
        *pos += n;
        *out += n;
    }
    return true;
}

/* ---- encoders ------------------------------------------------------------ */

/* A codec's encode loop over UTF-8 or UTF-16 input. Reads code points with
 * the input readers below; stops before a code point that does not fit in
 * the output (CODEC_OUTPUT_FULL) and after one that cannot be encoded
 * (CODEC_UNMAPPABLE, with enc->error_code_point_ and enc->error_len_ set).
 * A trailing incomplete sequence of a non-last input is left unconsumed. */
typedef codec_status (*encode_utf8_fn)(wenc_encoder *enc, const uint8_t *src,
                                       size_t src_len, size_t *consumed,
                                       uint8_t *dst, size_t dst_cap,
                                       size_t *written, bool last);
typedef codec_status (*encode_utf16_fn)(wenc_encoder *enc, const uint16_t *src,
                                        size_t src_len, size_t *consumed,
                                        uint8_t *dst, size_t dst_cap,
                                        size_t *written, bool last);

typedef struct encoder_codec {
    encode_utf8_fn from_utf8;
    encode_utf16_fn from_utf16;
    /* Worst-case output bytes per input unit (below 32, which
     * wenc_encoder_max_len() relies on), and closing bytes at last. */
    size_t max_per_unit;
    size_t max_closing;
} encoder_codec;

extern const encoder_codec wenc_utf8_encoder;
extern const encoder_codec wenc_single_byte_encoder;
extern const encoder_codec wenc_x_user_defined_encoder;
extern const encoder_codec wenc_gb18030_encoder;
extern const encoder_codec wenc_big5_encoder;
extern const encoder_codec wenc_euc_jp_encoder;
extern const encoder_codec wenc_iso_2022_jp_encoder;
extern const encoder_codec wenc_shift_jis_encoder;
extern const encoder_codec wenc_euc_kr_encoder;
extern const encoder_codec wenc_utf16_encoder; /* an extension */

/* ---- input readers ---------------------------------------------------- */

/* How a UTF-8 sequence at the start of a buffer reads (§8.1.1). */
typedef enum utf8_scan_result {
    UTF8_VALID,      /* a scalar value of *length bytes */
    UTF8_INVALID,    /* a maximal subpart of *length bytes: one U+FFFD */
    UTF8_INCOMPLETE  /* the buffer ends inside a valid prefix of *length bytes */
} utf8_scan_result;

/* Scans the sequence starting at src[0] (src[0] >= 0x80, n >= 1). */
WENC_INLINE utf8_scan_result utf8_scan(const uint8_t *src, size_t n,
                                       uint32_t *cp, size_t *length)
{
    uint32_t b = src[0];
    size_t need;
    uint32_t lower = 0x80, upper = 0xBF, c;
    if (b >= 0xC2 && b <= 0xDF) {
        need = 2;
        c = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 3;
        c = b & 0x0F;
        if (b == 0xE0)
            lower = 0xA0;
        else if (b == 0xED)
            upper = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 4;
        c = b & 0x07;
        if (b == 0xF0)
            lower = 0x90;
        else if (b == 0xF4)
            upper = 0x8F;
    } else {
        *length = 1;
        return UTF8_INVALID;
    }
    size_t k = 1;
    for (; k < need; k++) {
        if (k == n) {
            *length = k;
            *cp = c;
            return UTF8_INCOMPLETE;
        }
        uint32_t t = src[k];
        if (t < lower || t > upper) {
            *length = k;
            return UTF8_INVALID;
        }
        c = (c << 6) | (t & 0x3F);
        lower = 0x80;
        upper = 0xBF;
    }
    *length = need;
    *cp = c;
    return UTF8_VALID;
}

/* Reads one code point from UTF-8 at src[0..n), n >= 1. Returns the number of
 * bytes it occupies, with *cp the scalar value, or U+FFFD for a maximal
 * subpart of an ill-formed sequence (the bytes the UTF-8 decoder replaces).
 * Returns 0 when src is a valid but incomplete prefix and !last. */
WENC_INLINE size_t wenc_read_utf8(const uint8_t *src, size_t n, bool last,
                                  uint32_t *cp)
{
    if (src[0] < 0x80) {
        *cp = src[0];
        return 1;
    }
    size_t k;
    switch (utf8_scan(src, n, cp, &k)) {
    case UTF8_VALID:
        return k;
    case UTF8_INCOMPLETE:
        if (!last)
            return 0;
        break;
    case UTF8_INVALID:
        break;
    }
    *cp = 0xFFFD;
    return k;
}

/* Reads one code point from UTF-16 at src[0..n), n >= 1: a scalar value, a
 * pair, or U+FFFD for an unpaired surrogate. Returns the units it occupies,
 * or 0 when src is a lone high surrogate at the end of a non-last input. */
WENC_INLINE size_t wenc_read_utf16(const uint16_t *src, size_t n, bool last,
                                   uint32_t *cp)
{
    uint32_t u = src[0];
    if ((u & 0xF800) != 0xD800) {
        *cp = u;
        return 1;
    }
    if (u < 0xDC00) {
        if (n >= 2) {
            uint32_t t = src[1];
            if ((t & 0xFC00) == 0xDC00) {
                *cp = 0x10000 + ((u - 0xD800) << 10) + (t - 0xDC00);
                return 2;
            }
        } else if (!last) {
            return 0;
        }
    }
    *cp = 0xFFFD;
    return 1;
}

/* Generic input reader: `utf16` is a compile-time constant in every
 * instantiation. src is uint8_t UTF-8 or uint16_t UTF-16. */
WENC_INLINE size_t reader_next(const void *src, size_t pos, size_t len,
                               bool last, uint32_t *cp, int utf16)
{
    if (utf16)
        return wenc_read_utf16((const uint16_t *)src + pos, len - pos, last, cp);
    return wenc_read_utf8((const uint8_t *)src + pos, len - pos, last, cp);
}

/* Copies the leading ASCII of src[pos..pos+n) to dst; returns the count. */
WENC_INLINE size_t reader_ascii(const void *src, size_t pos, uint8_t *dst,
                                size_t n, int utf16)
{
    if (utf16)
        return wenc_utf16_ascii_to_bytes((const uint16_t *)src + pos, dst, n);
    return wenc_ascii_to_utf8((const uint8_t *)src + pos, dst, n);
}

WENC_INLINE uint32_t reader_unit(const void *src, size_t pos, int utf16)
{
    return utf16 ? ((const uint16_t *)src)[pos] : ((const uint8_t *)src)[pos];
}

/* ---- generated tables (src/tables/) ------------------------------------- */

typedef struct label_entry {
    const char *label;
    uint8_t length;
    uint8_t encoding;
} label_entry;

extern const label_entry wenc_labels[];
extern const size_t wenc_label_total;
extern const char *const wenc_names[WENC_ENCODING_COUNT];
extern const char *const wenc_lowercase_names[WENC_ENCODING_COUNT];

/* Label lookup (see src/tables/labels.c): the multiplier that gives each
 * label's key a slot of its own, the slots (label index + 1, 0 = empty),
 * and each label as three little-endian words. */
#define WENC_LABEL_MAX_LEN 19
#define WENC_LABEL_SLOT_BITS 12
extern const uint64_t wenc_label_multiplier;
extern const uint8_t wenc_label_slots[1 << WENC_LABEL_SLOT_BITS];
extern const uint64_t wenc_label_words[][3];

/* Single-byte encodings: decode table for all bytes (0 = no code point, or
 * byte 0x00), a two-level encode table for U+0080..U+FFFF (0 = unmapped),
 * and two ranges of bytes whose code point is the byte + linear_delta (mod
 * 0x10000), which the decoder converts 16 bytes at a time. */
typedef struct single_byte_table {
    const uint16_t *decode;     /* 256 entries, identity below 0x80 */
    const uint8_t *encode_page; /* 256 entries: page number per high byte */
    uint8_t linear_first[2]; /* 0x00..0x00 twice: no linear range */
    uint8_t linear_last[2];
    uint16_t linear_delta;
    uint16_t encode_block; /* cp >> 7 of the block above U+00FF richest in
                              the index's letters; 0: none (the generator) */
} single_byte_table;

extern const single_byte_table wenc_single_byte_tables[WENC_X_MAC_CYRILLIC -
                                                       WENC_IBM866 + 1];
/* x-user-defined's decoder as a table (no encode table): bytes below 0x80
 * to themselves, byte 0x80 + i to U+F780 + i. */
extern const single_byte_table wenc_x_user_defined_table;
/* The UTF-8 encoder's SIMD kernel: row k packs the UTF-8 bytes of four
 * units held from the start of 4-byte slots (bit i of k: unit i >= 0x80;
 * bit 4 + i: unit i >= 0x800) into wenc_utf8_pack_length[k] bytes. */
extern const uint8_t wenc_utf8_pack_shuffle[256][16];
extern const uint8_t wenc_utf8_pack_length[256];
/* The UTF-8 validator's automaton (src/tables/utf8_dfa.c): a state is a bit
 * offset; from state s, the state after bytes a, b, c is
 * wenc_utf8_dfa_triples[wenc_utf8_dfa_first[a] + wenc_utf8_dfa_second[b] +
 * wenc_utf8_dfa_third[c]] >> s & 63. */
enum { WENC_UTF8_DFA_REJECT = 0, WENC_UTF8_DFA_ACCEPT = 6 };
extern const uint16_t wenc_utf8_dfa_first[256];
extern const uint8_t wenc_utf8_dfa_second[256];
extern const uint8_t wenc_utf8_dfa_third[256];
extern const uint64_t wenc_utf8_dfa_triples[12 * 12 * 12];
/* PSHUFB masks packing to the front the 16-bit lanes i of eight whose bit i
 * of k is set (src/tables/compact16.c). */
extern const uint8_t wenc_compact16_shuffle[256][16];
/* PSHUFB masks packing to the front the bytes i of eight whose bit i of k is
 * set (src/tables/compact8.c). */
extern const uint8_t wenc_compact8_shuffle[256][8];
/* PSHUFB masks keeping the first byte of each of eight 16-bit lanes and its
 * second where bit i of k is set (src/tables/one_or_two.c). */
extern const uint8_t wenc_one_or_two_shuffle[256][16];
#ifndef WENC_NO_ENCODE_TABLES
extern const uint8_t wenc_single_byte_pages[][256];
#endif

/* Multi-byte encoders: BMP code point -> the bytes the encoder writes (0:
 * none; below 0x100: one byte; else lead << 8 | trail), two levels. A build
 * with WENC_NO_ENCODE_TABLES (cmake -DWENC_FAST_ENCODE_TABLES=OFF) has no
 * maps, single-byte pages or vector encoders that use them: each encoder
 * finds the same bytes by searching its decoder's index (codecs/loops.h). */
typedef struct byte_map {
    const uint8_t *page_of;        /* 256 entries: page per high byte */
    const uint16_t (*pages)[256];  /* page 0 is empty */
} byte_map;

WENC_INLINE uint32_t byte_lookup(const byte_map *map, uint32_t cp)
{
    if (cp > 0xFFFF)
        return 0;
    return map->pages[map->page_of[cp >> 8]][cp & 0xFF];
}

/* Writes the bytes of a byte_map value (see byte_lookup; two at most) to
 * out; returns their count, 0 for none. */
WENC_INLINE size_t put_mapped(uint32_t bytes, uint8_t *out)
{
    if (bytes < 0x100) {
        out[0] = (uint8_t)bytes;
        return bytes != 0;
    }
    out[0] = (uint8_t)(bytes >> 8);
    out[1] = (uint8_t)bytes;
    return 2;
}

/* The byte-map encoders' vector path (simd/byte_map.c): encodes what it can
 * of src[0..n) (UTF-16 units, or UTF-8 bytes that are whole, valid
 * sequences as far as it reads) with `map` into dst, which has room for
 * 2 * n bytes (UTF-16) or n bytes (UTF-8); stops before a surrogate or a
 * code point the map has no bytes for, and over UTF-8 possibly sooner (see
 * wenc_utf8_encode_via_utf16()), or at once where the UTF-8 is mostly
 * ASCII (the AVX2 path: the caller's loop is faster there). Where no kernel
 * runs, UTF-8 goes through a scalar loop with the map held in registers,
 * UTF-16 is left to the caller. Sets *written to the bytes and returns the
 * input read. */
size_t wenc_byte_map_vectors(const byte_map *map, const void *src, size_t n,
                             uint8_t *dst, size_t *written, int utf16);

/* The same for ISO-2022-JP's jis0208 state over UTF-16 (room for 2 * n
 * bytes): encodes the prefix of units[0..n) whose code points index
 * jis0208 holds (EUC-JP's map gives them two bytes from 0xA1A1 on), each
 * as those two bytes less 0x80 each, and stops before the first other
 * code point. */
size_t wenc_iso_2022_jp_jis0208_vectors(const uint16_t *units, size_t n,
                                        uint8_t *dst, size_t *written);

/* Indexes (pointer -> code point, 0 = none) and encoder maps. */
extern const uint16_t wenc_gb18030_index[];
extern const size_t wenc_gb18030_index_size;
typedef struct gb18030_range {
    uint32_t pointer;
    uint32_t code_point;
} gb18030_range;
extern const gb18030_range wenc_gb18030_ranges[];
extern const size_t wenc_gb18030_range_count;

extern const uint16_t wenc_big5_index[];
extern const uint8_t wenc_big5_plane2[];
extern const size_t wenc_big5_index_size;

extern const uint16_t wenc_jis0208_index[];
extern const size_t wenc_jis0208_index_size;
extern const uint16_t wenc_jis0212_index[];
extern const size_t wenc_jis0212_index_size;
extern const uint16_t wenc_iso_2022_jp_katakana_index[];
extern const size_t wenc_iso_2022_jp_katakana_index_size;

extern const uint16_t wenc_euc_kr_index[];
extern const size_t wenc_euc_kr_index_size;

#ifdef WENC_NO_ENCODE_TABLES
/* The GB18030-2022 note's 18 Private Use code points with the pointers the
 * encoders give them, ascending by code point. */
extern const gb18030_range wenc_gb18030_pua_extras[];
extern const size_t wenc_gb18030_pua_extra_count;
/* The bytes EUC-JP's map would hold for cp (euc_jp.c), which ISO-2022-JP's
 * encoder reads too. */
uint32_t wenc_euc_jp_bytes_of(uint32_t cp);
#else
extern const byte_map wenc_gb18030_bytes;
extern const byte_map wenc_gbk_bytes;
extern const byte_map wenc_big5_bytes;
extern const uint32_t wenc_big5_astral_code_points[];
extern const uint16_t wenc_big5_astral_pointers[];
extern const size_t wenc_big5_astral_count;
extern const byte_map wenc_euc_jp_bytes;
extern const byte_map wenc_shift_jis_bytes;
extern const byte_map wenc_euc_kr_bytes;

WENC_INLINE uint32_t wenc_euc_jp_bytes_of(uint32_t cp)
{
    return byte_lookup(&wenc_euc_jp_bytes, cp);
}
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* WENC_INTERNAL_H */

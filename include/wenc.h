/*
 * wenc.h — the WHATWG Encoding Standard in portable C11.
 *
 * This is the one public header of libwenc. Everything the library offers is
 * declared and documented here.
 *
 * Conventions used throughout:
 *
 *  - Encodings are named by a wenc_id, in the order of the Standard's table of
 *    encodings. WENC_INVALID means "no encoding".
 *  - Decoders and encoders are plain structs that the caller owns (on the
 *    stack, embedded in another struct, anywhere). Initialising and using them
 *    never allocates. Their members are private: read them only through the
 *    functions below. A struct may be copied with memcpy or assignment to fork
 *    a stream's state.
 *  - Streaming calls take a source (pointer, in/out length) and a destination
 *    (pointer, in/out length). On entry the lengths say how much is
 *    available; on return they say how much was consumed and how much was
 *    written. Any split of a stream into calls (including empty calls) yields
 *    exactly the output of a single call. A call writes only inside the
 *    capacity it is given, but may use all of it: what lies past the output
 *    it reports, up to the capacity, is unspecified on return (a vector
 *    path writes whole vectors and reports only what is output).
 *  - No function allocates, keeps global mutable state, or depends on the
 *    locale. Distinct decoder/encoder objects may be used from different
 *    threads at the same time; one object is not safe to share between
 *    threads without external locking.
 *
 * Code points are Unicode scalar values in uint32_t. UTF-16 code units are
 * uint16_t in the machine's byte order.
 */
#ifndef WENC_H
#define WENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * WENC_API marks each function of the library's interface. The library is
 * compiled with hidden visibility, so these are the only symbols libwenc.so
 * exports. With gcc and clang it is visibility("default"); on Windows it is
 * __declspec(dllexport) while building the DLL (WENC_BUILDING, which the
 * build defines) and __declspec(dllimport) for its users. Define WENC_STATIC
 * when linking the static library (the CMake target wenc::wenc_static does)
 * or compiling the sources into your program: WENC_API is then empty. A
 * definition of WENC_API made before including this header wins.
 */
#ifndef WENC_API
#if defined(WENC_STATIC)
#define WENC_API
#elif defined(_WIN32) || defined(__CYGWIN__)
#ifdef WENC_BUILDING
#define WENC_API __declspec(dllexport)
#else
#define WENC_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define WENC_API __attribute__((visibility("default")))
#else
#define WENC_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define WENC_VERSION_MAJOR 0
#define WENC_VERSION_MINOR 1
#define WENC_VERSION_PATCH 0
#define WENC_VERSION_STRING "0.1.0"

/* Returns WENC_VERSION_STRING of the library actually linked. Static string. */
WENC_API const char *wenc_version(void);

/* ------------------------------------------------------------------------ */
/* Encodings, names and labels (Standard §4)                                */
/* ------------------------------------------------------------------------ */

/* The 40 encodings of the Standard, in the order of its table of encodings. */
typedef enum wenc_id {
    WENC_INVALID = -1,
    WENC_UTF_8 = 0,
    WENC_IBM866,
    WENC_ISO_8859_2,
    WENC_ISO_8859_3,
    WENC_ISO_8859_4,
    WENC_ISO_8859_5,
    WENC_ISO_8859_6,
    WENC_ISO_8859_7,
    WENC_ISO_8859_8,
    WENC_ISO_8859_8_I,
    WENC_ISO_8859_10,
    WENC_ISO_8859_13,
    WENC_ISO_8859_14,
    WENC_ISO_8859_15,
    WENC_ISO_8859_16,
    WENC_KOI8_R,
    WENC_KOI8_U,
    WENC_MACINTOSH,
    WENC_WINDOWS_874,
    WENC_WINDOWS_1250,
    WENC_WINDOWS_1251,
    WENC_WINDOWS_1252,
    WENC_WINDOWS_1253,
    WENC_WINDOWS_1254,
    WENC_WINDOWS_1255,
    WENC_WINDOWS_1256,
    WENC_WINDOWS_1257,
    WENC_WINDOWS_1258,
    WENC_X_MAC_CYRILLIC,
    WENC_GBK,
    WENC_GB18030,
    WENC_BIG5,
    WENC_EUC_JP,
    WENC_ISO_2022_JP,
    WENC_SHIFT_JIS,
    WENC_EUC_KR,
    WENC_REPLACEMENT,
    WENC_UTF_16BE,
    WENC_UTF_16LE,
    WENC_X_USER_DEFINED,
    WENC_ENCODING_COUNT /* 40; not an encoding */
} wenc_id;

/*
 * The Standard's "get an encoding": removes leading and trailing ASCII
 * whitespace (TAB, LF, FF, CR, SPACE) from the label, then matches it
 * ASCII case-insensitively against the 228 labels.
 *
 * label: `len` bytes, not necessarily NUL-terminated; may be NULL when len is
 * 0. Returns the encoding, or WENC_INVALID when the label is not a label
 * (including the empty string, inner whitespace, NUL bytes and any non-ASCII
 * byte). Labels of the replacement encoding (including "replacement"
 * itself) resolve to WENC_REPLACEMENT; callers implementing TextDecoder must
 * reject it themselves. Cost does not depend on the number of labels.
 */
WENC_API wenc_id wenc_lookup(const char *label, size_t len);

/*
 * The encoding's name as the Standard spells it ("UTF-8", "Shift_JIS",
 * "windows-1252"). Static string; NULL for an id out of range.
 */
WENC_API const char *wenc_name(wenc_id id);

/*
 * The Standard's "get an output encoding": UTF-8 for replacement, UTF-16BE
 * and UTF-16LE; the encoding itself otherwise. WENC_INVALID for an id out of
 * range.
 */
WENC_API wenc_id wenc_output_encoding(wenc_id id);

/*
 * True when the Standard defines an encoder for the encoding: every encoding
 * but replacement, UTF-16BE and UTF-16LE. False for an id out of range.
 * (A fact of the Standard: see wenc_is_built_in() for this library's build.)
 */
WENC_API bool wenc_has_encoder(wenc_id id);

/*
 * Extension, beyond the Standard: whether this libwenc has the encoding's
 * codec. True for every encoding in the default build. A library configured
 * with -DWENC_CJK=OFF (a size-conscious build for embedded use) leaves out
 * the legacy multi-byte encodings, and answers false for them: WENC_GBK,
 * WENC_GB18030, WENC_BIG5, WENC_EUC_JP, WENC_ISO_2022_JP, WENC_SHIFT_JIS and
 * WENC_EUC_KR. Their labels still resolve (wenc_lookup(), wenc_name(),
 * wenc_output_encoding(), wenc_has_encoder() and the label list answer as
 * the Standard says), but every function that would decode or encode with
 * one fails with an answer of its own, never using another encoding:
 * wenc_decoder_init() and wenc_encoder_init() return false (as for an id out
 * of range; this function tells the two apart), the hooks return
 * WENC_NOT_BUILT_IN, wenc_text_decoder_init() returns
 * WENC_TEXT_NOT_BUILT_IN. False for an id out of range. (The other option,
 * -DWENC_FAST_ENCODE_TABLES=OFF, changes no answer: the encoders then search
 * the decoders' indexes, and write the same bytes, more slowly.)
 */
WENC_API bool wenc_is_built_in(wenc_id id);

/* The number of labels (228). */
WENC_API size_t wenc_label_count(void);

/*
 * The index-th label (0 <= index < wenc_label_count()) in the order of the
 * Standard's table, lower case, as a static NUL-terminated string; *id (if
 * id is not NULL) receives its encoding. Returns NULL and leaves *id alone
 * for an index out of range.
 */
WENC_API const char *wenc_label_at(size_t index, wenc_id *id);

/*
 * The Standard's "BOM sniff" over the first bytes of a stream.
 *
 * Returns WENC_UTF_8 for EF BB BF, WENC_UTF_16BE for FE FF, WENC_UTF_16LE for
 * FF FE, and sets *bom_len (if not NULL) to the BOM's length (3 or 2).
 * Otherwise returns WENC_INVALID and sets *bom_len to 0. When len < 3 and more
 * bytes may follow, a WENC_INVALID answer may change once more bytes are
 * known (the streaming decoder handles this itself).
 */
WENC_API wenc_id wenc_bom_sniff(const uint8_t *buf, size_t len,
                                size_t *bom_len);

/* ------------------------------------------------------------------------ */
/* Streaming                                                                 */
/* ------------------------------------------------------------------------ */

/* What a streaming call stopped on. */
typedef enum wenc_status {
    /* All input was consumed (with last: the stream is finished and its
     * output complete). Call again with more input. */
    WENC_INPUT_EMPTY = 0,
    /* The destination cannot take the next piece of output. Everything
     * written so far is valid; call again with more room and the rest of
     * the input. */
    WENC_OUTPUT_FULL = 1,
    /* Fatal error mode only: malformed input (decoder) or a code point the
     * encoding cannot represent (encoder). The consumed count ends right
     * after the offending input, or at the start of this call's input when
     * that input ended in an earlier call (the bytes after it are then read
     * again by the next call); the details are available from
     * wenc_decoder_error() / wenc_encoder_error(). The object remains usable:
     * call again with the rest of the input to continue after the error. */
    WENC_ERROR = 2
} wenc_status;

/* Error modes (Standard §4.1: decoders use replacement or fatal, encoders
 * use fatal or html). */
typedef enum wenc_error_mode {
    WENC_ERRORS_REPLACEMENT = 0, /* decoders: malformed input → U+FFFD */
    WENC_ERRORS_FATAL = 1,       /* both: stop with WENC_ERROR */
    WENC_ERRORS_HTML = 2         /* encoders: unmappable → "&#NNNN;" */
} wenc_error_mode;

/* How a decoder treats a byte order mark. */
typedef enum wenc_bom_mode {
    /* The Standard's "decode": a UTF-8, UTF-16BE or UTF-16LE BOM at the start
     * of the stream wins over the decoder's encoding and is removed. */
    WENC_BOM_SNIFF = 0,
    /* The BOM of the decoder's own encoding (UTF-8, UTF-16BE, UTF-16LE only)
     * is removed; other bytes are decoded as they are. This is "UTF-8 decode"
     * and TextDecoder with ignoreBOM false. For other encodings it is the same
     * as WENC_BOM_KEEP. */
    WENC_BOM_STRIP = 1,
    /* No BOM handling: a BOM decodes to U+FEFF ("UTF-8 decode without BOM",
     * TextDecoder with ignoreBOM true). */
    WENC_BOM_KEEP = 2
} wenc_bom_mode;

/* The longest malformed byte sequence wenc_decoder_error() reports. */
#define WENC_MAX_MALFORMED 8

/*
 * A streaming decoder. Caller-owned; members are private. Initialise with
 * wenc_decoder_init() before use; no cleanup is needed.
 */
typedef struct wenc_decoder {
    uint64_t position_;      /* bytes consumed since init/reset */
    uint64_t error_offset_;  /* stream offset of the last error */
    uint32_t code_point_;    /* codec state: partial code point / surrogate */
    int16_t initial_;        /* encoding given to init */
    int16_t encoding_;       /* encoding in use (after BOM sniffing) */
    uint8_t error_mode_;
    uint8_t bom_mode_;
    uint8_t bom_len_;        /* bytes buffered while looking for a BOM */
    uint8_t bom_done_;
    uint8_t state_[6];       /* codec state: counters, flags, lead bytes */
    uint8_t bytes_[4];       /* codec state: bytes of a partial sequence */
    uint8_t replay_[8];      /* bytes to be read again before the input */
    uint8_t replay_len_;
    uint8_t error_len_;
    uint8_t error_bytes_[WENC_MAX_MALFORMED];
} wenc_decoder;

/*
 * Initialises (or re-initialises) a decoder for encoding `id`.
 * error_mode: WENC_ERRORS_REPLACEMENT or WENC_ERRORS_FATAL.
 * Returns false when id is out of range, a mode is not a decoder mode, or
 * the encoding is not built into this library (wenc_is_built_in() is false:
 * -DWENC_CJK=OFF); true otherwise. On false *dec is left as it was, and must
 * not be used as a decoder for `id` (an earlier init of it still holds).
 */
WENC_API bool wenc_decoder_init(wenc_decoder *dec, wenc_id id,
                                wenc_bom_mode bom_mode,
                                wenc_error_mode error_mode);

/* Returns the decoder to the state wenc_decoder_init() left it in (same
 * encoding and modes), ready for a new stream. */
WENC_API void wenc_decoder_reset(wenc_decoder *dec);

/*
 * The encoding the decoder is decoding: the one given to init, or the one a
 * BOM selected under WENC_BOM_SNIFF once the BOM has been seen. Until enough
 * bytes have arrived to rule a BOM in or out, this is the initial encoding.
 */
WENC_API wenc_id wenc_decoder_encoding(const wenc_decoder *dec);

/*
 * Decodes src into UTF-8 (to_utf8) or UTF-16 (to_utf16).
 *
 * *src_len: on entry the number of bytes at src; on return the number
 *     consumed. *dst_len: on entry the capacity at dst (bytes for UTF-8, code
 *     units for UTF-16); on return the number written. src may be NULL when
 *     *src_len is 0, dst may be NULL when *dst_len is 0.
 * last: true when src ends the stream; the decoder then reports a truncated
 *     sequence at the end (U+FFFD or WENC_ERROR) and flushes everything.
 *
 * Returns WENC_INPUT_EMPTY when all of src was consumed (and, with last, all
 * output written), WENC_OUTPUT_FULL when dst cannot take the next output
 * (call again with the unconsumed input and more room; any capacity of at
 * least 4 bytes / 2 units guarantees progress), WENC_ERROR in fatal mode at
 * malformed input (see wenc_decoder_error()).
 *
 * Output is never a partial UTF-8 sequence or a split surrogate pair. Bytes
 * that a multi-byte sequence still needs are kept in the decoder, so the
 * output of a stream never depends on how it is split into calls.
 */
WENC_API wenc_status wenc_decode_to_utf8(wenc_decoder *dec, const uint8_t *src,
                                         size_t *src_len, uint8_t *dst,
                                         size_t *dst_len, bool last);
WENC_API wenc_status wenc_decode_to_utf16(wenc_decoder *dec, const uint8_t *src,
                                          size_t *src_len, uint16_t *dst,
                                          size_t *dst_len, bool last);

/*
 * An output capacity that always suffices to decode src_len more bytes in
 * one call (including what the decoder holds from earlier calls and the
 * flush at last): UTF-8 bytes or UTF-16 code units. SIZE_MAX when the size
 * does not fit in size_t.
 */
WENC_API size_t wenc_decoder_max_utf8_len(const wenc_decoder *dec,
                                          size_t src_len);
WENC_API size_t wenc_decoder_max_utf16_len(const wenc_decoder *dec,
                                           size_t src_len);

/* Details of the last WENC_ERROR a decoder returned. */
typedef struct wenc_decode_error {
    /* Offset in the stream (bytes since init/reset, counting any BOM) of the
     * first byte of the malformed sequence. */
    uint64_t offset;
    /* The malformed sequence: 1 to WENC_MAX_MALFORMED bytes. */
    size_t length;
    uint8_t bytes[WENC_MAX_MALFORMED];
} wenc_decode_error;

/*
 * Fills *err with the details of the most recent WENC_ERROR returned by dec.
 * Returns false (and zeroes *err) if dec has returned no error since
 * init/reset.
 */
WENC_API bool wenc_decoder_error(const wenc_decoder *dec,
                                 wenc_decode_error *err);

/*
 * A streaming encoder. Caller-owned; members are private. Initialise with
 * wenc_encoder_init() (or, for the UTF-16 output extension,
 * wenc_encoder_init_utf16()); no cleanup is needed.
 */
typedef struct wenc_encoder {
    uint64_t position_;       /* input units consumed since init/reset */
    uint64_t error_offset_;
    uint32_t error_code_point_;
    uint32_t pending_;        /* held input: partial UTF-8 or a high surrogate */
    int16_t initial_;
    int16_t encoding_;        /* output encoding actually produced */
    uint8_t error_mode_;
    uint8_t state_;           /* codec state (ISO-2022-JP; UTF-16's BOM) */
    uint8_t pending_len_;     /* units held in pending_ */
    uint8_t has_error_;
    uint8_t error_len_;       /* input units of the unmappable code point */
    uint8_t replay_len_;      /* html NCR bytes still to be written */
    uint8_t replay_pos_;
    uint8_t replay_[12];
} wenc_encoder;

/*
 * Initialises an encoder for encoding `id`. An encoding without an encoder
 * (replacement, UTF-16BE, UTF-16LE) encodes as its output encoding, UTF-8
 * (the Standard's "get an output encoding"); wenc_encoder_encoding() tells.
 * error_mode: WENC_ERRORS_HTML or WENC_ERRORS_FATAL. Returns false for an id
 * out of range, a mode that is not an encoder mode, or an encoding not built
 * into this library (wenc_is_built_in() is false: -DWENC_CJK=OFF); *enc is
 * then left as it was, and must not be used as an encoder for `id`.
 */
WENC_API bool wenc_encoder_init(wenc_encoder *enc, wenc_id id,
                                wenc_error_mode error_mode);

/*
 * Extension, beyond the Standard: initialises `enc` as an encoder that
 * writes UTF-16LE (id WENC_UTF_16LE) or UTF-16BE (id WENC_UTF_16BE), for
 * which the Standard has no encoder (wenc_encoder_init() writes UTF-8 for
 * them, as its "get an output encoding" says). With `bom`, the output of
 * the stream starts with the byte order mark U+FEFF (FF FE or FE FF), and
 * again after wenc_encoder_reset(). The input is read as every encoder reads
 * it: ill-formed UTF-8 and unpaired surrogates become U+FFFD. Every code
 * point has UTF-16 code units, so this encoder (which has no error mode)
 * never returns WENC_ERROR; wenc_encoder_encoding() answers `id`, and the
 * other encoder functions work as for any encoder. Returns false, leaving
 * *enc as it was, for an id other than those two.
 */
WENC_API bool wenc_encoder_init_utf16(wenc_encoder *enc, wenc_id id, bool bom);

/* Returns the encoder to its initial state (same encoding and mode). */
WENC_API void wenc_encoder_reset(wenc_encoder *enc);

/* The encoding whose bytes the encoder writes. */
WENC_API wenc_id wenc_encoder_encoding(const wenc_encoder *enc);

/*
 * Encodes UTF-8 (from_utf8) or UTF-16 (from_utf16) into the encoder's
 * encoding.
 *
 * *src_len: on entry bytes (UTF-8) or code units (UTF-16) at src; on return
 *     the number consumed. *dst_len: on entry the capacity in bytes at dst; on
 *     return the number written. NULL pointers are allowed with zero lengths.
 * last: true when src ends the stream. An incomplete UTF-8 sequence or a
 *     high surrogate at the end of a non-last call is held until the next
 *     call; at the end of the stream it is read as U+FFFD. ISO-2022-JP
 *     writes its closing ESC ( B at last.
 *
 * Ill-formed UTF-8 (one U+FFFD per maximal subpart, as the UTF-8 decoder)
 * and unpaired surrogates are read as U+FFFD; this never fails by itself.
 * In html mode a code point the encoding cannot represent is written as
 * "&#N;" with N in decimal; in fatal mode the call returns WENC_ERROR with
 * the input consumed up to and including that code point (see
 * wenc_encoder_error()), and the encoder, with its state, continues with the
 * next call (the Standard's "encode or fail").
 *
 * Returns WENC_INPUT_EMPTY, WENC_OUTPUT_FULL (call again with more room; a
 * capacity of 4 bytes always suffices for progress) or WENC_ERROR.
 */
WENC_API wenc_status wenc_encode_from_utf8(wenc_encoder *enc,
                                           const uint8_t *src, size_t *src_len,
                                           uint8_t *dst, size_t *dst_len,
                                           bool last);
WENC_API wenc_status wenc_encode_from_utf16(wenc_encoder *enc,
                                            const uint16_t *src,
                                            size_t *src_len, uint8_t *dst,
                                            size_t *dst_len, bool last);

/*
 * An output capacity in bytes that always suffices to encode src_len more
 * input units (UTF-8 bytes or UTF-16 code units) in one call, including what
 * the encoder holds and the closing bytes at last. SIZE_MAX on overflow.
 */
WENC_API size_t wenc_encoder_max_len(const wenc_encoder *enc, size_t src_len);

/* Details of the last WENC_ERROR an encoder returned. */
typedef struct wenc_encode_error {
    /* The code point the encoding cannot represent. */
    uint32_t code_point;
    /* Offset in the input (UTF-8 bytes or UTF-16 code units since
     * init/reset) of the first unit of that code point. */
    uint64_t offset;
    /* How many input units it occupied (1-4 bytes, or 1-2 code units;
     * U+FFFD read from ill-formed input counts the units replaced). */
    size_t length;
} wenc_encode_error;

/*
 * Fills *err with the details of the most recent WENC_ERROR returned by enc.
 * Returns false (and zeroes *err) if there was none since init/reset.
 */
WENC_API bool wenc_encoder_error(const wenc_encoder *enc,
                                 wenc_encode_error *err);

/* ------------------------------------------------------------------------ */
/* Extension, beyond the Standard: a decoder's state, saved and restored     */
/* ------------------------------------------------------------------------ */

/*
 * A stream read again from a remembered place needs the decoder's state at
 * that place: Python's IncrementalDecoder.getstate() / setstate(), on which
 * io.TextIOWrapper's tell() and seek() rest, is one such protocol. The
 * state is two parts: the bytes the decoder has consumed but not yet
 * turned into output (held), and everything else (flags), which describes
 * the decoder as it was before it read those bytes. So a decoder restored
 * from (flags, no bytes) and then given the held bytes is in the same state
 * as one restored from (flags, held).
 */

/* The most bytes a decoder holds: the size of wenc_decoder_state.held.
 * (No decoder holds more than 3 today.) */
#define WENC_MAX_HELD 8

/* A decoder's state: a plain value, copied and stored as the caller likes. */
typedef struct wenc_decoder_state {
    /* Opaque, below 2^16 (CPython's text files keep it in a C int). 0 is
     * the state of a fresh decoder (and of any decoder in a state equal to
     * it). */
    uint32_t flags;
    /* held[0..held_len) are the last held_len bytes the decoder consumed,
     * in stream order, which still wait to be decoded: a partial sequence
     * (a lead byte, UTF-8's first bytes, UTF-16's odd byte and a high
     * surrogate's two bytes, an ISO-2022-JP escape's first bytes), the
     * first bytes of a possible BOM, or bytes the decoder reads again
     * after an error. held_len <= WENC_MAX_HELD. */
    size_t held_len;
    uint8_t held[WENC_MAX_HELD];
} wenc_decoder_state;

/*
 * Copies the state of dec into *state (owned by the caller; dec is not
 * changed). A decoder that has been given no bytes saves flags 0 and no
 * bytes.
 * Neither the stream position nor the last error is part of the state.
 */
WENC_API void wenc_decoder_save(const wenc_decoder *dec,
                                wenc_decoder_state *state);

/*
 * Puts dec, which must have been initialised (wenc_decoder_init()) with the
 * encoding and modes of the decoder `state` was saved from, into that
 * state: whatever dec held or had read before is dropped, and decoding the
 * rest of the stream with it gives exactly the output (and, in fatal mode,
 * the errors) the saved decoder would have given. Returns true then.
 *
 * Returns false, and leaves dec as wenc_decoder_reset() leaves it, when the
 * state is not one such a decoder can be in: flags it never saves,
 * held_len > WENC_MAX_HELD, or held bytes it never holds in the state the
 * flags describe. A state saved from a decoder of another encoding or with
 * other modes is refused or gives a meaningless (never an undefined)
 * result. Every state wenc_decoder_save() gives is accepted, and so is its
 * flags with held_len 0.
 *
 * The stream restarts at the first held byte: wenc_decoder_error() offsets
 * count from held[0] (offset 0), and the first byte of the next input is at
 * offset held_len. For a state saved after k bytes of a stream, add
 * k - held_len to get the offset in that stream.
 */
WENC_API bool wenc_decoder_restore(wenc_decoder *dec,
                                   const wenc_decoder_state *state);

/* ------------------------------------------------------------------------ */
/* The Standard's hooks for other standards (§6, §6.1), one-shot             */
/* ------------------------------------------------------------------------ */

/*
 * These allocate their result with malloc(); the caller frees it with
 * free(). Results are NUL-terminated for convenience (the terminator is not
 * counted in *out_len). On any failure *out is set to NULL and *out_len to 0.
 * For streaming use, the same algorithms are the streaming decoder/encoder
 * with the modes given in each comment.
 */
typedef enum wenc_result {
    WENC_OK = 0,
    WENC_FAILURE = 1,          /* the algorithm's "failure" (malformed input) */
    WENC_NO_MEMORY = 2,        /* malloc failed or the size overflows */
    WENC_INVALID_ARGUMENT = 3, /* an id out of range or a NULL pointer */
    /* The encoding is one of the Standard's but not built into this library
     * (wenc_is_built_in() is false: -DWENC_CJK=OFF); never returned by the
     * default build. Checked after the arguments, before any input is read:
     * wenc_hook_decode() returns it for such a fallback whatever BOM the
     * input starts with. */
    WENC_NOT_BUILT_IN = 4
} wenc_result;

/*
 * §6.1 decode: BOM sniff (a UTF-8, UTF-16BE or UTF-16LE BOM wins over
 * `fallback` and is removed), then decode with replacement to UTF-8.
 * *used (if not NULL) receives the encoding actually used (not written when
 * the result is not WENC_OK). Streaming: WENC_BOM_SNIFF,
 * WENC_ERRORS_REPLACEMENT. WENC_NOT_BUILT_IN when `fallback` is not built
 * into this library (with or without a BOM in src).
 */
WENC_API wenc_result wenc_hook_decode(const uint8_t *src, size_t len,
                                      wenc_id fallback, uint8_t **out,
                                      size_t *out_len, wenc_id *used);

/* §6 UTF-8 decode: a leading EF BB BF is removed, then UTF-8 with
 * replacement. Streaming: WENC_UTF_8, WENC_BOM_STRIP, replacement. */
WENC_API wenc_result wenc_hook_utf8_decode(const uint8_t *src, size_t len,
                                           uint8_t **out, size_t *out_len);

/* §6 UTF-8 decode without BOM: a BOM decodes to U+FEFF. Streaming:
 * WENC_BOM_KEEP, replacement. */
WENC_API wenc_result wenc_hook_utf8_decode_without_bom(const uint8_t *src,
                                                       size_t len,
                                                       uint8_t **out,
                                                       size_t *out_len);

/* §6 UTF-8 decode without BOM or fail: WENC_FAILURE (no output at all) when
 * src is not well-formed UTF-8; otherwise a copy of src. Streaming:
 * WENC_BOM_KEEP, WENC_ERRORS_FATAL. */
WENC_API wenc_result
wenc_hook_utf8_decode_without_bom_or_fail(const uint8_t *src, size_t len,
                                          uint8_t **out, size_t *out_len);

/* §6 UTF-8 encode, from UTF-16 code units (lone surrogates become U+FFFD, as
 * converting to scalar values does). */
WENC_API wenc_result wenc_hook_utf8_encode(const uint16_t *src, size_t len,
                                           uint8_t **out, size_t *out_len);

/*
 * §6.1 encode: the code points of the UTF-8 text src (ill-formed input read
 * as U+FFFD) in the output encoding of `id` ("get an output encoding" is
 * applied first), with html error mode: unmappable code points become
 * "&#N;"; WENC_NOT_BUILT_IN when that encoding is not built into this
 * library. Streaming: wenc_encoder_init(id, WENC_ERRORS_HTML). For "get an
 * encoder" and "encode or fail" use wenc_encoder_init(id, WENC_ERRORS_FATAL)
 * and wenc_encode_from_utf8/utf16: each WENC_ERROR is one "encode or fail"
 * returning the code point, and the same encoder continues.
 */
WENC_API wenc_result wenc_hook_encode(const uint8_t *src, size_t len,
                                      wenc_id id, uint8_t **out,
                                      size_t *out_len);

/* ------------------------------------------------------------------------ */
/* The Standard's API (§7) in C: TextDecoder, TextEncoder and their streams */
/* ------------------------------------------------------------------------ */

/* What a TextDecoder / TextEncoder operation gives a binding to raise. */
typedef enum wenc_text_status {
    WENC_TEXT_OK = 0,
    /* new TextDecoder(label): not a label, or a label of replacement. */
    WENC_TEXT_RANGE_ERROR = 1,
    /* decode() in fatal mode met malformed input. */
    WENC_TEXT_TYPE_ERROR = 2,
    /* The destination is smaller than the max-length helper asked for;
     * nothing was read and the object is unchanged. */
    WENC_TEXT_BUFFER_TOO_SMALL = 3,
    /* new TextDecoder(label): a label of an encoding this library was built
     * without (wenc_is_built_in() is false: -DWENC_CJK=OFF). Not the
     * Standard's: a binding raises what its platform raises for an encoding
     * it does not support (a RangeError, say), with a message of its own.
     * Never returned by the default build. */
    WENC_TEXT_NOT_BUILT_IN = 4
} wenc_text_status;

/*
 * TextDecoder (§7.1, §7.2) and TextDecoderStream (§7.5). Caller-owned;
 * members private. No allocation. A TextDecoderStream is the same object:
 * "decode and enqueue a chunk" is decode(chunk, stream true), "flush and
 * enqueue" is decode(no input, stream false); a binding enqueues only
 * non-empty output and errors the stream on WENC_TEXT_TYPE_ERROR.
 */
typedef struct wenc_text_decoder {
    wenc_decoder decoder_;
    int16_t encoding_;
    uint8_t fatal_;
    uint8_t ignore_bom_;
    uint8_t do_not_flush_;
    uint8_t bom_seen_;
} wenc_text_decoder;

/*
 * new TextDecoder(label, {fatal, ignoreBOM}) / new TextDecoderStream(...).
 * Returns WENC_TEXT_RANGE_ERROR when the label is not a label or names
 * replacement (the RangeError), WENC_TEXT_NOT_BUILT_IN when it names an
 * encoding not built into this library, WENC_TEXT_OK otherwise. On anything
 * but WENC_TEXT_OK *td is left as it was and must not be used for `label`.
 */
WENC_API wenc_text_status wenc_text_decoder_init(wenc_text_decoder *td,
                                                 const char *label,
                                                 size_t label_len, bool fatal,
                                                 bool ignore_bom);

/* The encoding getter: the name, ASCII lowercase ("utf-8", "shift_jis").
 * Static string. */
WENC_API const char *wenc_text_decoder_encoding(const wenc_text_decoder *td);
/* The fatal and ignoreBOM getters. */
WENC_API bool wenc_text_decoder_fatal(const wenc_text_decoder *td);
WENC_API bool wenc_text_decoder_ignore_bom(const wenc_text_decoder *td);

/* The capacity decode() needs for `len` more input bytes: UTF-16 code units
 * or UTF-8 bytes. SIZE_MAX on overflow. */
WENC_API size_t wenc_text_decoder_max_utf16_len(const wenc_text_decoder *td,
                                                size_t len);
WENC_API size_t wenc_text_decoder_max_utf8_len(const wenc_text_decoder *td,
                                               size_t len);

/*
 * decode(input, {stream}) (§7.2): the decoder's state survives calls with
 * stream true and is renewed by the first call after one with stream false;
 * a leading U+FEFF is removed for UTF-8, UTF-16BE and UTF-16LE unless
 * ignoreBOM. The string goes to dst as UTF-16 (JavaScript strings) or
 * UTF-8.
 *
 * *dst_len: on entry the capacity, which must be at least the matching
 * max-length helper for len (else WENC_TEXT_BUFFER_TOO_SMALL); on return the
 * units written. *consumed (may be NULL) receives the input bytes read: len,
 * except after WENC_TEXT_TYPE_ERROR (fatal mode), where it ends right after
 * the malformed sequence (0 when that sequence ended in an earlier call) and
 * dst holds the output before it. The Standard
 * then keeps the rest of the input queued: when stream was true, a binding
 * passes input[*consumed..len) in front of the next call's input.
 */
WENC_API wenc_text_status wenc_text_decoder_decode_utf16(wenc_text_decoder *td,
                                                         const uint8_t *input,
                                                         size_t len,
                                                         bool stream,
                                                         uint16_t *dst,
                                                         size_t *dst_len,
                                                         size_t *consumed);
WENC_API wenc_text_status wenc_text_decoder_decode_utf8(wenc_text_decoder *td,
                                                        const uint8_t *input,
                                                        size_t len, bool stream,
                                                        uint8_t *dst,
                                                        size_t *dst_len,
                                                        size_t *consumed);

/*
 * TextEncoder.encode(input) (§7.4): UTF-16 code units to UTF-8, lone
 * surrogates as U+FFFD. dst must hold 3 * len bytes. Returns the bytes
 * written.
 */
WENC_API size_t wenc_text_encode(const uint16_t *input, size_t len,
                                 uint8_t *dst);

/*
 * TextEncoder.encode(input) for a string held as UTF-8: ill-formed
 * sequences become U+FFFD (one per maximal subpart). dst must hold 3 * len
 * bytes. Returns the bytes written.
 */
WENC_API size_t wenc_text_encode_utf8(const uint8_t *input, size_t len,
                                      uint8_t *dst);

/*
 * TextEncoder.encodeInto(source, destination) (§7.4): encodes as much of
 * src as fits in dst[0..cap), never a partial UTF-8 sequence and never half
 * of a surrogate pair. *read receives the UTF-16 code units converted, and
 * *written the bytes written.
 */
WENC_API void wenc_text_encode_into(const uint16_t *src, size_t len,
                                    uint8_t *dst, size_t cap, size_t *read,
                                    size_t *written);

/*
 * TextEncoderStream (§7.6): UTF-16 chunks to UTF-8 chunks, a high surrogate
 * at the end of a chunk waiting for the next one (its "pending high
 * surrogate"). Caller-owned; members private.
 */
typedef struct wenc_text_encoder_stream {
    wenc_encoder encoder_;
} wenc_text_encoder_stream;

WENC_API void wenc_text_encoder_stream_init(wenc_text_encoder_stream *ts);

/*
 * "encode and enqueue a chunk": dst must hold 3 * (len + 1) bytes; returns
 * the bytes written (a binding enqueues them when non-zero).
 */
WENC_API size_t wenc_text_encoder_stream_chunk(wenc_text_encoder_stream *ts,
                                               const uint16_t *chunk,
                                               size_t len, uint8_t *dst);

/* "encode and flush": writes EF BF BD when a high surrogate is pending, into
 * dst (3 bytes), and returns the bytes written (0 or 3). */
WENC_API size_t wenc_text_encoder_stream_flush(wenc_text_encoder_stream *ts,
                                               uint8_t *dst);

/* ------------------------------------------------------------------------ */
/* Extension, beyond the Encoding Standard: the HTML Standard's encoding     */
/* sniffing (HTML §13.2.3.2 "Determining the character encoding")            */
/* ------------------------------------------------------------------------ */

/* The bytes the HTML Standard advises its prescan to read, and the most that
 * wenc_sniff_html() reads for it: the prescan's "end condition". */
#define WENC_SNIFF_PRESCAN_BYTES 1024

/* The confidence the HTML Standard attaches to the encoding it found. */
typedef enum wenc_confidence {
    /* The parser may meet a declaration later and change the encoding. */
    WENC_CONFIDENCE_TENTATIVE = 0,
    /* A BOM or the transport layer decided; nothing later changes it. */
    WENC_CONFIDENCE_CERTAIN = 1
} wenc_confidence;

/* The step of the encoding sniffing algorithm that decided. */
typedef enum wenc_sniff_source {
    /* Nothing decided (only wenc_sniff_xml_encoding() answers this). */
    WENC_SNIFF_NONE = 0,
    /* Step 1: a byte order mark (the Encoding Standard's "BOM sniff"). */
    WENC_SNIFF_BOM,
    /* Step 4: the transport layer's label (e.g. Content-Type's charset). */
    WENC_SNIFF_TRANSPORT,
    /* The prescan's UTF-16 XML declaration check: the first six bytes are
     * '<?x' in UTF-16LE (3C 00 3F 00 78 00) or UTF-16BE (00 3C 00 3F 00 78). */
    WENC_SNIFF_UTF16_XML,
    /* The prescan found a <meta charset> or a <meta http-equiv=content-type
     * content="...charset=..."> element. */
    WENC_SNIFF_META,
    /* The prescan ran out of bytes and "get an XML encoding" found the
     * encoding of an <?xml ... encoding="..."?> declaration. */
    WENC_SNIFF_XML_DECLARATION,
    /* The last step: the caller's default encoding. */
    WENC_SNIFF_DEFAULT
} wenc_sniff_source;

/* What wenc_sniff_html() or wenc_sniff_xml_encoding() found. */
typedef struct wenc_sniff_result {
    /* The encoding to decode with; WENC_INVALID only from
     * wenc_sniff_xml_encoding() when no declaration names an encoding. */
    wenc_id encoding;
    wenc_confidence confidence;
    wenc_sniff_source source;
    /* The bytes that decided, as an offset and a length into the caller's
     * bytes: the BOM; the six bytes of a UTF-16 '<?x'; a meta element from
     * its '<' to its '>'; from the '<' of '<?xml' to the quote that closes
     * the label after the first "encoding=" (which "get an XML encoding"
     * looks for before the declaration's first '>' only). Both are 0 for
     * the transport layer's label and the default. */
    size_t offset;
    size_t length;
    /* False when the answer is final: no bytes that follow can change it.
     * True when they may: fewer bytes were given than the prescan reads
     * (1024) and the prescan ran out of bytes before it found a
     * declaration, or fewer than 3 bytes were given and they begin a BOM
     * (it stays true in some of these cases where no byte could in fact
     * change the answer). A caller reading a stream should then wait for
     * more bytes (or the end of the stream) and ask again; at the end of
     * the stream the answer stands. */
    bool need_more;
} wenc_sniff_result;

/*
 * The HTML Standard's "encoding sniffing algorithm" over the first bytes of
 * a document, as far as it depends on bytes and on what the caller knows:
 *
 *  1. A BOM (EF BB BF, FE FF, FF FE) decides, with confidence certain.
 *  2. Otherwise, a transport-layer label (the charset parameter of the
 *     Content-Type header, or a user's override) that is one of the Standard's
 *     labels decides, with confidence certain; a label that is not is ignored.
 *  3. Otherwise "prescan a byte stream to determine its encoding" reads at
 *     most the first WENC_SNIFF_PRESCAN_BYTES bytes: a UTF-16 '<?x', then
 *     comments, <meta> elements with their attributes, other tags, and
 *     <!...>, </...>, <?...> skipped as the HTML Standard says; a meta's
 *     UTF-16BE/LE becomes UTF-8 and its x-user-defined becomes
 *     windows-1252. When it runs out of bytes, "get an XML encoding" reads
 *     the same bytes (a declared UTF-16BE/LE becomes UTF-8). What it finds
 *     has confidence tentative.
 *  4. Otherwise `fallback`, with confidence tentative: the caller's
 *     default, e.g. wenc_html_default_encoding() of the user's language.
 *     Any encoding is taken as given (the HTML Standard leaves the default
 *     to the user agent); WENC_INVALID (or any value that is not an
 *     encoding) stands for windows-1252, the HTML Standard's default for
 *     "all other locales".
 *
 * The steps the HTML Standard leaves to a browser (a parent document's
 * encoding, a remembered encoding, frequency analysis) are the caller's.
 *
 * bytes: the first `len` bytes of the document (may be NULL when len is 0);
 * never read past `len` and never kept. transport_label: `label_len` bytes,
 * not necessarily NUL-terminated, matched as wenc_lookup() matches; NULL
 * (or label_len 0) for none. Allocates nothing; cost is linear in
 * min(len, 1024). Returns the answer; its `encoding` is always an encoding
 * (in a build without CJK possibly one that wenc_is_built_in() denies: the
 * sniffing is the HTML Standard's whatever the build decodes). Decode the
 * document with it through wenc_decoder_init(..., WENC_BOM_SNIFF, ...),
 * which removes the BOM a BOM answer came from.
 */
WENC_API wenc_sniff_result wenc_sniff_html(const uint8_t *bytes, size_t len,
                                           const char *transport_label,
                                           size_t label_len, wenc_id fallback);

/*
 * The HTML Standard's "get an XML encoding" for XML callers: when `bytes`
 * begin with '<?xml' and contain a '>', the encoding named by the first
 * `encoding` before that first '>', then optional bytes <= 0x20, '=',
 * optional bytes <= 0x20 and a label in double or single quotes without
 * bytes <= 0x20 ("<?xml version='1.0'?><p encoding='iso-8859-2'>" names
 * none).
 * Unlike wenc_sniff_html(), the declared encoding is returned as declared:
 * a declared "utf-16" is WENC_UTF_16LE, and the caller chooses what to do
 * with it. Reads all `len` bytes at most.
 *
 * Returns source WENC_SNIFF_XML_DECLARATION with the encoding, confidence
 * tentative, and offset/length spanning the bytes from '<?xml' to the
 * label's closing quote; or, when there is no such declaration or its label is not a
 * label, encoding WENC_INVALID and source WENC_SNIFF_NONE. need_more is
 * false when no bytes that follow can change the answer, true when they may
 * (the bytes begin '<?xml', or a prefix of it, and hold no '>').
 */
WENC_API wenc_sniff_result wenc_sniff_xml_encoding(const uint8_t *bytes,
                                                   size_t len);

/*
 * The HTML Standard's suggested default encoding for a user's locale, by
 * BCP 47 language tag (its table in §13.2.3.2, step "Otherwise, return an
 * implementation-defined or user-specified default"): e.g. "ja" and
 * "ja-JP" give Shift_JIS, "ru" windows-1251, "zh-CN" and "zh-Hans" GBK,
 * "zh-TW", "zh-HK" and "zh-Hant" Big5, and every language the table does
 * not name (including a bare "zh" and an empty tag) windows-1252. Subtags
 * are compared ASCII case-insensitively; '_' separates them as '-' does,
 * and a POSIX locale's ".charset" or "@modifier" ends the tag, so
 * "pl_PL.UTF-8" gives ISO-8859-2. tag: `len` bytes, not necessarily
 * NUL-terminated; may be NULL when len is 0. Never returns WENC_INVALID
 * (in a build without CJK it may return an encoding wenc_is_built_in()
 * denies).
 */
WENC_API wenc_id wenc_html_default_encoding(const char *tag, size_t len);

/* A short lowercase name for a sniff source ("bom", "transport",
 * "utf-16-xml", "meta", "xml-declaration", "default", "none"). Static
 * string; "none" for a value out of range. */
WENC_API const char *wenc_sniff_source_name(wenc_sniff_source source);

#ifdef __cplusplus
}
#endif

#endif /* WENC_H */

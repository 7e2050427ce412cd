/* common.h — shared pieces of the libFuzzer targets: invariant checks that
 * abort with a message, a reader over the fuzz input, growable buffers,
 * reference Unicode conversions written from the Standard, and drivers that
 * run a whole stream through a decoder or encoder, in one call or in chunks
 * and output capacities taken from the fuzz input. */
#ifndef WENC_FUZZ_COMMON_H
#define WENC_FUZZ_COMMON_H

#include "wenc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Aborts with "file:line: INVARIANT VIOLATED: <cond>: <message>". */
#define FUZZ_CHECK(cond, ...)                                               \
    do {                                                                    \
        if (!(cond))                                                        \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);              \
    } while (0)

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn, format(printf, 4, 5)))
#endif
void fuzz_fail(const char *file, int line, const char *cond,
               const char *format, ...);

/* The fuzz input, read front to back; bytes past the end read as 0. */
typedef struct fuzz_input {
    const uint8_t *data;
    size_t size;
} fuzz_input;

/* The input libFuzzer gives (data may be NULL when size is 0). */
fuzz_input fuzz_input_of(const uint8_t *data, size_t size);
uint8_t fuzz_take_byte(fuzz_input *in);
/* Splits off the first `count` bytes (fewer if the input is shorter). */
fuzz_input fuzz_take_bytes(fuzz_input *in, size_t count);

/* A growable array of `unit`-byte elements (1: UTF-8/bytes, 2: UTF-16,
 * 4: code points). Aborts when memory runs out. */
typedef struct buffer {
    void *data;
    size_t len; /* elements */
    size_t cap;
    size_t unit;
} buffer;

void buffer_init(buffer *b, size_t unit);
void buffer_free(buffer *b);
void buffer_reserve(buffer *b, size_t extra);
void buffer_append(buffer *b, const void *elements, size_t count);
bool buffer_equal(const buffer *a, const buffer *b);

/* Reference conversions (Standard §4 UTF-8 decoder with U+FFFD per maximal
 * subpart; "convert to scalar values" for UTF-16). `starts` (may be NULL)
 * receives, for each scalar value appended, the input offset where it
 * starts, and one final entry equal to the input length. */
void reference_utf8_scalars(const uint8_t *s, size_t n, buffer *scalars,
                            buffer *starts);
void reference_utf16_scalars(const uint16_t *s, size_t n, buffer *scalars,
                             buffer *starts);
/* §6 BOM sniff: the encoding of a BOM at the start of s (WENC_INVALID
 * when none) and its length in *len. */
wenc_id reference_bom_sniff(const uint8_t *s, size_t n, size_t *len);
/* Scalar values to well-formed UTF-8 / UTF-16 (appended). */
size_t utf8_length(uint32_t scalar);
void scalars_to_utf8(const uint32_t *s, size_t n, buffer *out);
void scalars_to_utf16(const uint32_t *s, size_t n, buffer *out);
bool utf8_well_formed(const uint8_t *s, size_t n);
bool utf16_well_formed(const uint16_t *s, size_t n);
/* Reads the fuzz bytes as little-endian UTF-16 code units (a trailing odd
 * byte is dropped). */
void bytes_to_units(const uint8_t *s, size_t n, buffer *units);

/* One error met while streaming: where it was in the output, and the
 * details the library reported (decoder: offset, length, bytes; encoder:
 * offset, length, code point). */
typedef struct stream_error {
    size_t output_position;
    uint64_t offset;
    size_t length;
    uint32_t code_point;
    uint8_t bytes[WENC_MAX_MALFORMED];
} stream_error;

typedef struct stream_result {
    buffer output;    /* UTF-8 bytes, UTF-16 units or encoded bytes */
    stream_error *errors;
    size_t error_count;
    wenc_id encoding; /* the decoder's after BOM sniffing / the encoder's output */
} stream_result;

void stream_result_init(stream_result *r, size_t output_unit);
void stream_result_free(stream_result *r);
/* Output and error details both equal. */
bool stream_results_equal(const stream_result *a, const stream_result *b);

/* How a stream is cut into calls: chunk lengths and output capacities taken
 * cyclically from `plan` (an empty plan means one piece and exactly the
 * max-length helper's capacity). */
typedef struct stream_plan {
    const uint8_t *bytes;
    size_t len;
} stream_plan;

typedef enum sink_kind { SINK_UTF8 = 0, SINK_UTF16 = 1 } sink_kind;

/* Decodes src (all of it, last at the end) with a decoder initialised with
 * the given encoding and modes, recording output and errors; checks on every
 * call that the output never exceeds the max-length helper, that each call's
 * output is well-formed on its own, that a capacity of 4 bytes / 2 units
 * always makes progress, and that error details are consistent with src. */
void run_decoder(wenc_id id, wenc_bom_mode bom, wenc_error_mode mode,
                 sink_kind sink, const uint8_t *src, size_t n,
                 stream_plan plan, stream_result *result);

/* Encodes src (UTF-8 bytes when units is 1, UTF-16 code units when 2) with
 * an encoder for `id` in `mode`, recording output and errors; checks the
 * max-length helper and progress on every call. */
void run_encoder(wenc_id id, wenc_error_mode mode, const void *src,
                 size_t n, size_t units, stream_plan plan,
                 stream_result *result);

/* The same with the UTF-16 output extension (wenc_encoder_init_utf16()),
 * as fatal mode: it must never report an error. */
void run_utf16_output_encoder(wenc_id id, bool bom, const void *src,
                              size_t n, size_t units, stream_plan plan,
                              stream_result *result);

/* The n-th entry of the plan's cycle, or 0xFF (meaning "everything") for an
 * empty plan. */
uint8_t plan_byte(stream_plan plan, size_t n);

/* Hex dump of a buffer to stderr, for failure messages. */
void dump_hex(const char *what, const void *data, size_t bytes);

#endif

/* common.c — see common.h. */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *file, int line, const char *cond,
               const char *format, ...)
{
    va_list args;
    fprintf(stderr, "%s:%d: INVARIANT VIOLATED: %s: ", file, line, cond);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

void dump_hex(const char *what, const void *data, size_t bytes)
{
    const uint8_t *p = data;
    fprintf(stderr, "%s (%zu bytes):", what, bytes);
    for (size_t i = 0; i < bytes; i++)
        fprintf(stderr, " %02X", p[i]);
    fputc('\n', stderr);
}

fuzz_input fuzz_input_of(const uint8_t *data, size_t size)
{
    static const uint8_t nothing[1] = {0};
    fuzz_input in = {data ? data : nothing, data ? size : 0};
    return in;
}

uint8_t fuzz_take_byte(fuzz_input *in)
{
    if (in->size == 0)
        return 0;
    uint8_t byte = in->data[0];
    in->data++;
    in->size--;
    return byte;
}

fuzz_input fuzz_take_bytes(fuzz_input *in, size_t count)
{
    fuzz_input part = {in->data, count < in->size ? count : in->size};
    in->data += part.size;
    in->size -= part.size;
    return part;
}

void buffer_init(buffer *b, size_t unit)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->unit = unit;
}

void buffer_free(buffer *b)
{
    free(b->data);
    buffer_init(b, b->unit);
}

void buffer_reserve(buffer *b, size_t extra)
{
    if (b->data != NULL && b->cap - b->len >= extra)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->len < extra)
        cap *= 2;
    void *data = realloc(b->data, cap * b->unit);
    if (data == NULL) {
        fputs("fuzz: out of memory\n", stderr);
        abort();
    }
    b->data = data;
    b->cap = cap;
}

void buffer_append(buffer *b, const void *elements, size_t count)
{
    buffer_reserve(b, count);
    if (count)
        memcpy((uint8_t *)b->data + b->len * b->unit, elements,
               count * b->unit);
    b->len += count;
}

bool buffer_equal(const buffer *a, const buffer *b)
{
    return a->unit == b->unit && a->len == b->len &&
           (a->len == 0 || memcmp(a->data, b->data, a->len * a->unit) == 0);
}

static void append_scalar(buffer *scalars, buffer *starts, uint32_t scalar,
                          size_t start)
{
    buffer_append(scalars, &scalar, 1);
    if (starts) {
        uint64_t at = start;
        buffer_append(starts, &at, 1);
    }
}

static void finish_starts(buffer *starts, size_t n)
{
    if (starts) {
        uint64_t at = n;
        buffer_append(starts, &at, 1);
    }
}

/* §8.1.1 UTF-8 decoder: reads the code point at s[i], returning the index
 * after it; *cp is U+FFFD and *ok false for a maximal ill-formed subpart. */
static size_t utf8_next(const uint8_t *s, size_t n, size_t i, uint32_t *cp,
                        bool *ok)
{
    uint8_t lead = s[i];
    size_t needed;
    uint8_t lower = 0x80, upper = 0xBF;
    *ok = true;
    if (lead < 0x80) {
        *cp = lead;
        return i + 1;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
        needed = 1;
        *cp = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        if (lead == 0xE0)
            lower = 0xA0;
        if (lead == 0xED)
            upper = 0x9F;
        needed = 2;
        *cp = lead & 0xF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        if (lead == 0xF0)
            lower = 0x90;
        if (lead == 0xF4)
            upper = 0x8F;
        needed = 3;
        *cp = lead & 0x7;
    } else {
        *cp = 0xFFFD;
        *ok = false;
        return i + 1;
    }
    size_t j = i + 1;
    size_t seen = 0;
    while (seen < needed && j < n && s[j] >= lower && s[j] <= upper) {
        *cp = (*cp << 6) | (s[j] & 0x3F);
        lower = 0x80;
        upper = 0xBF;
        j++;
        seen++;
    }
    if (seen < needed) {
        *cp = 0xFFFD;
        *ok = false;
    }
    return j;
}

void reference_utf8_scalars(const uint8_t *s, size_t n, buffer *scalars,
                            buffer *starts)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        bool ok;
        size_t next = utf8_next(s, n, i, &cp, &ok);
        append_scalar(scalars, starts, cp, i);
        i = next;
    }
    finish_starts(starts, n);
}

void reference_utf16_scalars(const uint16_t *s, size_t n, buffer *scalars,
                             buffer *starts)
{
    size_t i = 0;
    while (i < n) {
        uint16_t unit = s[i];
        if (unit >= 0xD800 && unit <= 0xDBFF && i + 1 < n &&
            s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
            uint32_t cp = 0x10000 + (((uint32_t)unit - 0xD800) << 10) +
                          (s[i + 1] - 0xDC00u);
            append_scalar(scalars, starts, cp, i);
            i += 2;
        } else {
            bool surrogate = unit >= 0xD800 && unit <= 0xDFFF;
            append_scalar(scalars, starts, surrogate ? 0xFFFD : unit, i);
            i++;
        }
    }
    finish_starts(starts, n);
}

wenc_id reference_bom_sniff(const uint8_t *s, size_t n, size_t *len)
{
    *len = 0;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        *len = 3;
        return WENC_UTF_8;
    }
    if (n >= 2 && s[0] == 0xFE && s[1] == 0xFF) {
        *len = 2;
        return WENC_UTF_16BE;
    }
    if (n >= 2 && s[0] == 0xFF && s[1] == 0xFE) {
        *len = 2;
        return WENC_UTF_16LE;
    }
    return WENC_INVALID;
}

size_t utf8_length(uint32_t scalar)
{
    return scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4;
}

void scalars_to_utf8(const uint32_t *s, size_t n, buffer *out)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = s[i];
        uint8_t bytes[4];
        size_t len = utf8_length(cp);
        if (len == 1) {
            bytes[0] = (uint8_t)cp;
        } else {
            for (size_t k = len - 1; k > 0; k--) {
                bytes[k] = (uint8_t)(0x80 | (cp & 0x3F));
                cp >>= 6;
            }
            static const uint8_t lead_marks[5] = {0, 0, 0xC0, 0xE0, 0xF0};
            bytes[0] = (uint8_t)(lead_marks[len] | cp);
        }
        buffer_append(out, bytes, len);
    }
}

void scalars_to_utf16(const uint32_t *s, size_t n, buffer *out)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] < 0x10000) {
            uint16_t unit = (uint16_t)s[i];
            buffer_append(out, &unit, 1);
        } else {
            uint32_t v = s[i] - 0x10000;
            uint16_t pair[2] = {(uint16_t)(0xD800 + (v >> 10)),
                                (uint16_t)(0xDC00 + (v & 0x3FF))};
            buffer_append(out, pair, 2);
        }
    }
}

bool utf8_well_formed(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        bool ok;
        i = utf8_next(s, n, i, &cp, &ok);
        if (!ok)
            return false;
    }
    return true;
}

bool utf16_well_formed(const uint16_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= 0xD800 && s[i] <= 0xDBFF) {
            if (i + 1 >= n || s[i + 1] < 0xDC00 || s[i + 1] > 0xDFFF)
                return false;
            i++;
        } else if (s[i] >= 0xDC00 && s[i] <= 0xDFFF) {
            return false;
        }
    }
    return true;
}

void bytes_to_units(const uint8_t *s, size_t n, buffer *units)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        uint16_t unit = (uint16_t)(s[i] | (s[i + 1] << 8));
        buffer_append(units, &unit, 1);
    }
}

void stream_result_init(stream_result *r, size_t output_unit)
{
    buffer_init(&r->output, output_unit);
    r->errors = NULL;
    r->error_count = 0;
    r->encoding = WENC_INVALID;
}

void stream_result_free(stream_result *r)
{
    buffer_free(&r->output);
    free(r->errors);
    r->errors = NULL;
    r->error_count = 0;
}

static bool stream_errors_equal(const stream_error *a, const stream_error *b)
{
    return a->output_position == b->output_position &&
           a->offset == b->offset && a->length == b->length &&
           a->code_point == b->code_point &&
           memcmp(a->bytes, b->bytes, sizeof a->bytes) == 0;
}

bool stream_results_equal(const stream_result *a, const stream_result *b)
{
    if (!buffer_equal(&a->output, &b->output) ||
        a->error_count != b->error_count)
        return false;
    for (size_t i = 0; i < a->error_count; i++)
        if (!stream_errors_equal(&a->errors[i], &b->errors[i]))
            return false;
    return true;
}

uint8_t plan_byte(stream_plan plan, size_t n)
{
    return plan.len ? plan.bytes[n % plan.len] : 0xFF;
}

/* The streaming call of a decoder or encoder behind one signature. */
typedef struct stream_ops {
    size_t src_unit;
    size_t dst_unit;
    size_t progress_capacity; /* a capacity that guarantees progress */
    size_t object_size;       /* sizeof the decoder or encoder */
    bool errors_allowed;
    wenc_status (*step)(void *object, const void *src, size_t *src_len,
                        void *dst, size_t *dst_len, bool last);
    size_t (*max_len)(const void *object, size_t src_len);
    void (*error)(const void *object, stream_error *e);
    bool (*well_formed)(const void *dst, size_t n);
} stream_ops;

typedef struct stream_run {
    const stream_ops *ops;
    void *object;
    stream_plan plan;
    size_t plan_index;
    uint64_t consumed; /* units consumed by the object so far */
    stream_result *result;
} stream_run;

static void record_error(stream_run *run)
{
    stream_error e;
    memset(&e, 0, sizeof e);
    run->ops->error(run->object, &e);
    e.output_position = run->result->output.len;
    FUZZ_CHECK(e.offset + e.length <= run->consumed,
               "error at %llu+%zu lies beyond the %llu units consumed",
               (unsigned long long)e.offset, e.length,
               (unsigned long long)run->consumed);
    stream_result *r = run->result;
    stream_error *grown =
        realloc(r->errors, (r->error_count + 1) * sizeof *r->errors);
    if (grown == NULL)
        abort();
    r->errors = grown;
    r->errors[r->error_count++] = e;
}

/* Feeds one chunk, calling again after OUTPUT_FULL and ERROR until the
 * chunk is consumed (and, with last, the stream is finished). */
static void feed_chunk(stream_run *run, const uint8_t *src, size_t chunk,
                       bool last)
{
    const stream_ops *ops = run->ops;
    buffer *out = &run->result->output;
    size_t done = 0;
    size_t forced_capacity = 0;
    for (;;) {
        size_t rest = chunk - done;
        size_t max = ops->max_len(run->object, rest);
        FUZZ_CHECK(max != SIZE_MAX, "max-length helper overflows for %zu",
                   rest);
        uint8_t b = plan_byte(run->plan, run->plan_index++);
        size_t cap = (b & 0x80) ? max : (size_t)(b & 7) + 1;
        if (forced_capacity > cap)
            cap = forced_capacity;
        forced_capacity = 0;
        buffer_reserve(out, cap);
        uint8_t *dst = (uint8_t *)out->data + out->len * ops->dst_unit;
        size_t src_len = rest, dst_len = cap;
        wenc_status status =
            ops->step(run->object, src + done * ops->src_unit, &src_len,
                      dst, &dst_len, last);
        FUZZ_CHECK(src_len <= rest, "consumed %zu of %zu", src_len, rest);
        FUZZ_CHECK(dst_len <= cap, "wrote %zu into %zu", dst_len, cap);
        FUZZ_CHECK(dst_len <= max,
                   "wrote %zu units for %zu input units; max-length helper "
                   "said %zu",
                   dst_len, rest, max);
        FUZZ_CHECK(ops->well_formed == NULL || ops->well_formed(dst, dst_len),
                   "one call's output (%zu units) is not well-formed",
                   dst_len);
        out->len += dst_len;
        done += src_len;
        run->consumed += src_len;
        switch (status) {
        case WENC_INPUT_EMPTY:
            FUZZ_CHECK(done == chunk, "INPUT_EMPTY with %zu of %zu consumed",
                       done, chunk);
            return;
        case WENC_ERROR:
            FUZZ_CHECK(ops->errors_allowed, "WENC_ERROR in a non-fatal mode");
            record_error(run);
            if (done == chunk && !last)
                return;
            break;
        case WENC_OUTPUT_FULL:
            FUZZ_CHECK(cap < max,
                       "OUTPUT_FULL with the max-length helper's capacity %zu",
                       cap);
            if (src_len == 0 && dst_len == 0) {
                FUZZ_CHECK(cap < ops->progress_capacity,
                           "no progress with a capacity of %zu", cap);
                forced_capacity = ops->progress_capacity;
            }
            break;
        default:
            FUZZ_CHECK(0, "unknown status %d", (int)status);
        }
    }
}

/* Moves the stream to a copy of its object and scribbles over the original:
 * the public header allows forking a stream by copying the struct. */
static void move_object(stream_run *run, void *spare)
{
    memcpy(spare, run->object, run->ops->object_size);
    memset(run->object, 0xA5, run->ops->object_size);
    run->object = spare;
}

static void run_stream(const stream_ops *ops, void *object,
                       const uint8_t *src, size_t n, stream_plan plan,
                       stream_result *result)
{
    static const uint8_t nothing[8] = {0};
    union {
        wenc_decoder decoder;
        wenc_encoder encoder;
    } copies[2];
    unsigned next_copy = 0;
    stream_run run = {ops, object, plan, 0, 0, result};
    if (src == NULL)
        src = nothing;
    size_t pos = 0;
    unsigned empty_in_a_row = 0;
    for (;;) {
        size_t chunk = n - pos;
        if (plan.len) {
            uint8_t b = plan_byte(plan, run.plan_index++);
            if (b < 0xF0 && (size_t)(b % 9) < chunk)
                chunk = b % 9;
            if (chunk == 0 && pos < n && ++empty_in_a_row > 3) {
                chunk = 1;
                empty_in_a_row = 0;
            }
        }
        bool last = pos + chunk == n;
        feed_chunk(&run, src + pos * ops->src_unit, chunk, last);
        pos += chunk;
        if (last)
            break;
        if (plan_byte(plan, run.plan_index) & 0x40) {
            move_object(&run, &copies[next_copy]);
            next_copy ^= 1;
        }
    }
    if (run.object != object)
        memcpy(object, run.object, ops->object_size);
}

/* With a plan: the object, reset, decodes or encodes the stream again in
 * one call exactly as before (reset returns it to its initial state). */
static void check_reset(const stream_ops *ops, void *object,
                        void (*reset)(void *object), const uint8_t *src,
                        size_t n, stream_plan plan,
                        const stream_result *result)
{
    if (plan.len == 0)
        return;
    stream_result again;
    stream_plan whole = {NULL, 0};
    reset(object);
    stream_result_init(&again, ops->dst_unit);
    run_stream(ops, object, src, n, whole, &again);
    FUZZ_CHECK(stream_results_equal(result, &again),
               "after reset, one call gives another output than the first "
               "stream");
    stream_result_free(&again);
}

static void reset_decoder(void *object)
{
    wenc_decoder_reset(object);
}

static void reset_encoder(void *object)
{
    wenc_encoder_reset(object);
}

static wenc_status decode_utf8_step(void *object, const void *src,
                                    size_t *src_len, void *dst,
                                    size_t *dst_len, bool last)
{
    return wenc_decode_to_utf8(object, src, src_len, dst, dst_len, last);
}

static wenc_status decode_utf16_step(void *object, const void *src,
                                     size_t *src_len, void *dst,
                                     size_t *dst_len, bool last)
{
    return wenc_decode_to_utf16(object, src, src_len, dst, dst_len, last);
}

static size_t decode_utf8_max(const void *object, size_t src_len)
{
    return wenc_decoder_max_utf8_len(object, src_len);
}

static size_t decode_utf16_max(const void *object, size_t src_len)
{
    return wenc_decoder_max_utf16_len(object, src_len);
}

static void decode_error(const void *object, stream_error *e)
{
    wenc_decode_error err;
    FUZZ_CHECK(wenc_decoder_error(object, &err),
               "WENC_ERROR but wenc_decoder_error() has none");
    FUZZ_CHECK(err.length >= 1 && err.length <= WENC_MAX_MALFORMED,
               "malformed sequence of %zu bytes", err.length);
    e->offset = err.offset;
    e->length = err.length;
    memcpy(e->bytes, err.bytes, err.length);
}

static bool utf8_output_well_formed(const void *dst, size_t n)
{
    return utf8_well_formed(dst, n);
}

static bool utf16_output_well_formed(const void *dst, size_t n)
{
    return utf16_well_formed(dst, n);
}

void run_decoder(wenc_id id, wenc_bom_mode bom, wenc_error_mode mode,
                 sink_kind sink, const uint8_t *src, size_t n,
                 stream_plan plan, stream_result *result)
{
    static const stream_ops to_utf8 = {1, 1, 4, sizeof(wenc_decoder), true,
                                       decode_utf8_step,
                                       decode_utf8_max, decode_error,
                                       utf8_output_well_formed};
    static const stream_ops to_utf16 = {1, 2, 2, sizeof(wenc_decoder), true,
                                        decode_utf16_step,
                                        decode_utf16_max, decode_error,
                                        utf16_output_well_formed};
    stream_ops ops = sink == SINK_UTF8 ? to_utf8 : to_utf16;
    ops.errors_allowed = mode == WENC_ERRORS_FATAL;
    wenc_decoder dec;
    FUZZ_CHECK(wenc_decoder_init(&dec, id, bom, mode),
               "wenc_decoder_init(%d, %d, %d) failed", (int)id, (int)bom,
               (int)mode);
    stream_result_init(result, ops.dst_unit);
    size_t whole_max = sink == SINK_UTF8 ? wenc_decoder_max_utf8_len(&dec, n)
                                         : wenc_decoder_max_utf16_len(&dec, n);
    run_stream(&ops, &dec, src, n, plan, result);
    result->encoding = wenc_decoder_encoding(&dec);
    check_reset(&ops, &dec, reset_decoder, src, n, plan, result);
    FUZZ_CHECK(result->output.len <= whole_max,
               "%zu units decoded from %zu bytes; max-length helper said %zu",
               result->output.len, n, whole_max);
    for (size_t i = 0; i < result->error_count; i++) {
        const stream_error *e = &result->errors[i];
        FUZZ_CHECK(e->offset + e->length <= n &&
                       memcmp(e->bytes, src + e->offset, e->length) == 0,
                   "error %zu (offset %llu, %zu bytes) does not match the "
                   "input",
                   i, (unsigned long long)e->offset, e->length);
        FUZZ_CHECK(i == 0 || e->offset > result->errors[i - 1].offset,
                   "error offsets not increasing at error %zu", i);
    }
}

static wenc_status encode_utf8_step(void *object, const void *src,
                                    size_t *src_len, void *dst,
                                    size_t *dst_len, bool last)
{
    return wenc_encode_from_utf8(object, src, src_len, dst, dst_len, last);
}

static wenc_status encode_utf16_step(void *object, const void *src,
                                     size_t *src_len, void *dst,
                                     size_t *dst_len, bool last)
{
    return wenc_encode_from_utf16(object, src, src_len, dst, dst_len, last);
}

static size_t encode_max(const void *object, size_t src_len)
{
    return wenc_encoder_max_len(object, src_len);
}

static void encode_error(const void *object, stream_error *e)
{
    wenc_encode_error err;
    FUZZ_CHECK(wenc_encoder_error(object, &err),
               "WENC_ERROR but wenc_encoder_error() has none");
    e->offset = err.offset;
    e->length = err.length;
    e->code_point = err.code_point;
}

/* run_encoder() and run_utf16_output_encoder() on an initialised enc */
static void run_initialised_encoder(wenc_encoder *enc, bool fatal,
                                    const void *src, size_t n, size_t units,
                                    stream_plan plan, stream_result *result)
{
    stream_ops ops = {units, 1, 4, sizeof(wenc_encoder), fatal,
                      units == 1 ? encode_utf8_step : encode_utf16_step,
                      encode_max, encode_error, NULL};
    stream_result_init(result, 1);
    size_t whole_max = wenc_encoder_max_len(enc, n);
    run_stream(&ops, enc, src, n, plan, result);
    result->encoding = wenc_encoder_encoding(enc);
    check_reset(&ops, enc, reset_encoder, src, n, plan, result);
    FUZZ_CHECK(result->output.len <= whole_max,
               "%zu bytes encoded from %zu units; max-length helper said %zu",
               result->output.len, n, whole_max);
}

void run_utf16_output_encoder(wenc_id id, bool bom, const void *src,
                              size_t n, size_t units, stream_plan plan,
                              stream_result *result)
{
    wenc_encoder enc;
    FUZZ_CHECK(wenc_encoder_init_utf16(&enc, id, bom),
               "wenc_encoder_init_utf16(%d, %d) failed", (int)id, (int)bom);
    run_initialised_encoder(&enc, true, src, n, units, plan, result);
}

void run_encoder(wenc_id id, wenc_error_mode mode, const void *src,
                 size_t n, size_t units, stream_plan plan,
                 stream_result *result)
{
    wenc_encoder enc;
    FUZZ_CHECK(wenc_encoder_init(&enc, id, mode),
               "wenc_encoder_init(%d, %d) failed", (int)id, (int)mode);
    run_initialised_encoder(&enc, mode == WENC_ERRORS_FATAL, src, n, units,
                            plan, result);
}

/* Runs a case through wenc's streaming API, split into chunks (empty ones
 * included) and with output capacities as the case's plan says, checking
 * the API's promises on the way. */
#include "diff.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct plan {
    diff_rng rng;
    unsigned chunking; /* 0 one piece, 1 unit by unit, 2 tiny, 3 small, 4 two */
    unsigned capacity; /* 0 always enough, 1 tiny, 2 mixed */
    size_t split;      /* chunking 4: where */
} plan;

static void plan_init(plan *p, uint64_t seed, size_t units)
{
    p->rng.state = seed;
    if (seed == 0) {
        p->chunking = 0;
        p->capacity = 0;
        return;
    }
    p->chunking = rng_below(&p->rng, 5);
    p->capacity = rng_below(&p->rng, 3);
    p->split = rng_below(&p->rng, (uint32_t)units + 1);
}

/* The next chunk's length in input units; may be 0. */
static size_t plan_chunk(plan *p, size_t done, size_t left)
{
    switch (p->chunking) {
    case 1:
        return rng_percent(&p->rng, 3) ? 0 : 1;
    case 2:
        return rng_percent(&p->rng, 20) ? 0 : rng_range(&p->rng, 1, 4);
    case 3:
        return rng_percent(&p->rng, 10) ? 0 : rng_range(&p->rng, 1, 64);
    case 4:
        return done < p->split ? p->split - done : left;
    default:
        return left;
    }
}

static size_t plan_capacity(plan *p, size_t enough)
{
    if (p->capacity == 0 || (p->capacity == 2 && rng_percent(&p->rng, 50)))
        return enough;
    size_t tiny = rng_range(&p->rng, 0, 12);
    return tiny < enough ? tiny : enough;
}

/* What differs between decoding and encoding, behind one streaming loop. */
typedef struct stream {
    size_t in_unit;      /* bytes per input unit in the case's input */
    size_t out_unit;     /* bytes per output unit */
    size_t progress_cap; /* a capacity that must allow progress */
    wenc_decoder dec;
    wenc_encoder enc;
    uint16_t *units;     /* UTF-16 encoder input */
    bool decoding;
    bool utf16;
} stream;

static size_t stream_max_len(const stream *s, size_t left)
{
    if (!s->decoding)
        return wenc_encoder_max_len(&s->enc, left);
    return s->utf16 ? wenc_decoder_max_utf16_len(&s->dec, left)
                    : wenc_decoder_max_utf8_len(&s->dec, left);
}

static wenc_status stream_step(stream *s, const uint8_t *input, size_t at,
                               size_t *n, void *dst, size_t *w, bool last)
{
    /* Empty chunks go in as NULL, which the API allows. */
    const uint8_t *bytes = *n ? input + at : NULL;
    if (!s->decoding)
        return s->utf16 ? wenc_encode_from_utf16(&s->enc, *n ? s->units + at : NULL,
                                                 n, dst, w, last)
                        : wenc_encode_from_utf8(&s->enc, bytes, n, dst, w, last);
    return s->utf16 ? wenc_decode_to_utf16(&s->dec, bytes, n, dst, w, last)
                    : wenc_decode_to_utf8(&s->dec, bytes, n, dst, w, last);
}

static bool stream_error(const stream *s, diff_error *e,
                         uint8_t bytes[WENC_MAX_MALFORMED], bool *has_bytes)
{
    memset(e, 0, sizeof *e);
    *has_bytes = false;
    if (s->decoding) {
        wenc_decode_error err;
        if (!wenc_decoder_error(&s->dec, &err))
            return false;
        e->offset = err.offset;
        e->length = (uint32_t)err.length;
        memcpy(bytes, err.bytes, WENC_MAX_MALFORMED);
        *has_bytes = true;
        return true;
    }
    wenc_encode_error err;
    if (!wenc_encoder_error(&s->enc, &err))
        return false;
    e->offset = err.offset;
    e->length = (uint32_t)err.length;
    e->code_point = err.code_point;
    return true;
}

static void problem(diff_outcome *o, const char *format, ...)
{
    if (o->problem[0])
        return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(o->problem, sizeof o->problem, format, ap);
    va_end(ap);
}

/* consumed: the stream position after the call; call_start: before it. */
static void record_error(const diff_case *c, stream *s, diff_outcome *o,
                         uint64_t consumed, uint64_t call_start)
{
    diff_error e;
    uint8_t bytes[WENC_MAX_MALFORMED];
    bool has_bytes;
    if (!stream_error(s, &e, bytes, &has_bytes)) {
        problem(o, "WENC_ERROR but the error details say there was none");
        return;
    }
    e.output_position = o->output.len / s->out_unit;
    e.stop = consumed;
    /* "The consumed count ends right after the offending input", unless
     * input after it came in an earlier call. */
    uint64_t end = e.offset + e.length;
    if (consumed != (end > call_start ? end : call_start))
        problem(o, "error at offset %llu length %u, but the call consumed input "
                   "from %llu to %llu",
                (unsigned long long)e.offset, (unsigned)e.length,
                (unsigned long long)call_start, (unsigned long long)consumed);
    if (has_bytes && (e.length == 0 || e.length > WENC_MAX_MALFORMED ||
                  e.offset + e.length > c->input.len ||
                  memcmp(bytes, c->input.data + e.offset, e.length) != 0))
        problem(o, "error bytes are not the input's bytes at offset %llu",
                (unsigned long long)e.offset);
    diff_error *grown = realloc(o->errors, (o->error_count + 1) * sizeof *grown);
    if (!grown)
        abort();
    o->errors = grown;
    o->errors[o->error_count++] = e;
}

static void run_stream(const diff_case *c, stream *s, diff_outcome *o,
                       FILE *trace)
{
    size_t units = c->input.len / s->in_unit;
    plan p;
    plan_init(&p, c->plan_seed, units);
    size_t at = 0;
    size_t calls = 0;
    uint16_t *scratch = NULL;
    size_t scratch_cap = 0;
    bool last = false;
    while (!last) {
        size_t chunk = plan_chunk(&p, at, units - at);
        if (chunk >= units - at) {
            chunk = units - at;
            last = true;
        }
        if (chunk == 0 && !last)
            o->empty_chunks++;
        if (trace)
            fprintf(trace, " [%zu%s:", chunk, last ? " last" : "");
        for (;;) {
            size_t enough = stream_max_len(s, chunk);
            size_t cap = plan_capacity(&p, enough);
            if (trace)
                fprintf(trace, " cap %zu", cap);
            if (cap > scratch_cap) {
                free(scratch);
                scratch_cap = cap;
                scratch = diff_xmalloc(cap * sizeof *scratch);
            }
            size_t n = chunk, w = cap;
            wenc_status status = stream_step(s, c->input.data, at, &n, scratch,
                                             &w, last);
            if (n > chunk || w > cap) {
                problem(o, "consumed %zu of %zu or wrote %zu of %zu", n, chunk, w, cap);
                goto done;
            }
            if (s->out_unit == 2)
                for (size_t i = 0; i < w; i++)
                    bytes_push_u16le(&o->output, scratch[i]);
            else
                bytes_append(&o->output, scratch, w);
            at += n;
            chunk -= n;
            if (++calls > 64 + 8 * units) {
                problem(o, "no progress after %zu calls", calls);
                goto done;
            }
            if (status == WENC_INPUT_EMPTY) {
                if (chunk != 0)
                    problem(o, "WENC_INPUT_EMPTY with %zu units left", chunk);
                break;
            }
            if (status == WENC_OUTPUT_FULL) {
                o->output_full++;
                if (cap >= enough)
                    problem(o, "WENC_OUTPUT_FULL with capacity %zu >= max len %zu",
                            cap, enough);
                if (n == 0 && w == 0 && cap >= s->progress_cap)
                    problem(o, "WENC_OUTPUT_FULL without progress, capacity %zu", cap);
                continue;
            }
            if (status != WENC_ERROR || !(c->flags & DIFF_FLAG_FATAL)) {
                problem(o, "unexpected status %d", (int)status);
                goto done;
            }
            if (trace)
                fprintf(trace, " ERROR");
            record_error(c, s, o, at, at - n);
        }
        if (trace)
            fprintf(trace, "]");
    }
done:
    o->calls = calls;
    free(scratch);
}

void wenc_run(const diff_case *c, diff_outcome *o, FILE *trace)
{
    memset(o, 0, sizeof *o);
    stream *s = diff_xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    s->decoding = c->kind == DIFF_DECODE;
    s->utf16 = (c->flags & DIFF_FLAG_UTF16) != 0;
    s->in_unit = 1;
    s->out_unit = 1;
    s->progress_cap = 4;
    bool fatal = (c->flags & DIFF_FLAG_FATAL) != 0;
    bool ok;
    if (s->decoding) {
        ok = wenc_decoder_init(&s->dec, c->id, (wenc_bom_mode)(c->flags & DIFF_BOM_MASK),
                               fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT);
        if (s->utf16) {
            s->out_unit = 2;
            s->progress_cap = 2;
        }
    } else {
        ok = wenc_encoder_init(&s->enc, c->id,
                               fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML);
        if (s->utf16) {
            s->in_unit = 2;
            size_t units = c->input.len / 2;
            s->units = diff_xmalloc(units * sizeof *s->units);
            for (size_t i = 0; i < units; i++)
                s->units[i] = (uint16_t)(c->input.data[2 * i] |
                                         c->input.data[2 * i + 1] << 8);
        }
    }
    if (!ok) {
        problem(o, "init failed");
    } else {
        run_stream(c, s, o, trace);
        wenc_id used = s->decoding ? wenc_decoder_encoding(&s->dec)
                                   : wenc_encoder_encoding(&s->enc);
        const char *name = wenc_name(used);
        snprintf(o->encoding, sizeof o->encoding, "%s", name ? name : "(none)");
    }
    free(s->units);
    free(s);
}

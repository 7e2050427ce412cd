/* fuzz_diff.c — wenc against encoding_rs 0.8.31, in one process.
 *
 * Input: [encoding] [flags] [plan length] [plan bytes...] [payload]
 *   encoding % 40; flags bit 4: encode (else decode);
 *   decode: bits 0-1 BOM mode (0 sniff = encoding_rs new_decoder, 1 strip =
 *     new_decoder_with_bom_removal, 2 keep = new_decoder_without_bom_handling,
 *     3 is sniff), bit 2 fatal (the `_without_replacement` calls), bit 3
 *     UTF-16 output (else UTF-8);
 *   encode: bit 2 fatal (else html: encoding_rs's replacing calls write the
 *     same NCRs), bit 3 the payload is little-endian UTF-16 code units, lone
 *     surrogates included (else UTF-8 bytes, possibly ill-formed: wenc reads
 *     each maximal subpart as U+FFFD, and encoding_rs is given the text with
 *     them replaced, the error spans mapped back to the payload);
 *   the plan cuts wenc's stream into chunks (0 to 8 units, empty ones
 *   included, or the rest) and gives its output capacities (1 to 8 units,
 *   or the max-length helper's), as in fuzz_decode.c.
 *
 * encoding_rs (fuzz/diff_oracle, a Rust staticlib) gets the whole payload
 * in one call with ample output: its 0.8.31-0.8.35 decoders lose a pending
 * lead byte on an empty chunk mid-stream (its issue #126), and its
 * encode_from_utf16 splits a surrogate pair when its output fills, so its
 * answer is the reference only when it is fed that way. In fatal modes both
 * continue after each error.
 *
 * Compared: the encoding used (after BOM sniffing / the output encoding),
 * the output, and every error: input offset, length, unmappable code point
 * and output written before it. encoding_rs's side first gets the known
 * differences of tests/diff/known_differences.c (GB18030-2022's 18 index
 * pointers for gb18030 and GBK; the ISO-2022-JP report of an escape
 * sequence right after another); any other difference aborts with the
 * case, the first differing output offset and both outputs around it.
 * wenc's own API promises are checked on every call by run_decoder and
 * run_encoder (common.c).
 */
#include "common.h"
#include "diff.h"
#include "diff_oracle.h"
#include "known_differences.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLAG_FATAL = 4, FLAG_UTF16 = 8, FLAG_ENCODE = 16 };

typedef struct diff_side {
    const char *encoding;
    const uint8_t *output; /* UTF-16: little-endian byte pairs */
    size_t output_len;     /* bytes */
    const diff_error *errors;
    size_t error_count;
} diff_side;

typedef struct diff_subject {
    wenc_id id;
    uint8_t flags;
    size_t unit; /* bytes per output unit shown: 2 for UTF-16 output */
    stream_plan plan;
    const uint8_t *payload;
    size_t payload_len;
} diff_subject;

static void describe(const diff_subject *s)
{
    static const char *const bom_names[3] = {
        "sniff (new_decoder)", "strip (new_decoder_with_bom_removal)",
        "keep (new_decoder_without_bom_handling)"};
    bool fatal = (s->flags & FLAG_FATAL) != 0;
    bool utf16 = (s->flags & FLAG_UTF16) != 0;
    if (s->flags & FLAG_ENCODE)
        fprintf(stderr, "case: encode %s from %s, %s mode\n",
                wenc_name(s->id), utf16 ? "UTF-16" : "UTF-8",
                fatal ? "fatal" : "html");
    else
        fprintf(stderr, "case: decode %s to %s, %s mode, BOM %s\n",
                wenc_name(s->id), utf16 ? "UTF-16" : "UTF-8",
                fatal ? "fatal" : "replacement", bom_names[(s->flags & 3) % 3]);
    if (s->plan.len)
        dump_hex("wenc's chunking plan", s->plan.bytes, s->plan.len);
    else
        fprintf(stderr, "wenc's chunking plan: none (one call)\n");
    dump_hex("payload", s->payload, s->payload_len);
}

static void dump_window(const char *who, const diff_side *side, size_t unit,
                        size_t at)
{
    size_t units = side->output_len / unit;
    size_t from = at > 16 ? at - 16 : 0;
    size_t to = at + 16 < units ? at + 16 : units;
    fprintf(stderr, "%s output, units %zu..%zu of %zu:", who, from, to, units);
    for (size_t i = from; i < to; i++) {
        const uint8_t *p = side->output + i * unit;
        fprintf(stderr, i == at ? " [" : " ");
        if (unit == 2)
            fprintf(stderr, "%04X", (unsigned)(p[0] | p[1] << 8));
        else
            fprintf(stderr, "%02X", p[0]);
        if (i == at)
            fputc(']', stderr);
    }
    fputc('\n', stderr);
}

static void dump_errors(const char *who, const diff_side *side)
{
    fprintf(stderr, "%s errors: %zu\n", who, side->error_count);
    for (size_t i = 0; i < side->error_count && i < 32; i++) {
        const diff_error *e = &side->errors[i];
        fprintf(stderr, "  offset %llu length %u code point U+%04X, output "
                        "before it %llu\n",
                (unsigned long long)e->offset, (unsigned)e->length,
                (unsigned)e->code_point,
                (unsigned long long)e->output_position);
    }
}

/* Why the sides differ, or NULL. Where each side stopped when it reported
 * an error (`stop`) is not compared: whether look-ahead bytes the Standard
 * re-reads count as consumed is each library's own choice. */
static const char *compare(const diff_side *w, const diff_side *r,
                           size_t unit, size_t *at)
{
    *at = 0;
    if (strcmp(w->encoding, r->encoding) != 0)
        return "the encoding used differs";
    size_t common = w->output_len < r->output_len ? w->output_len
                                                  : r->output_len;
    while (*at < common && w->output[*at] == r->output[*at])
        ++*at;
    *at /= unit;
    if (w->output_len != r->output_len || *at * unit != common)
        return "the output differs";
    if (w->error_count != r->error_count)
        return "the error count differs";
    for (size_t i = 0; i < w->error_count; i++) {
        const diff_error *a = &w->errors[i], *b = &r->errors[i];
        if (a->offset != b->offset || a->length != b->length ||
            a->code_point != b->code_point ||
            a->output_position != b->output_position) {
            *at = (size_t)a->output_position;
            return "an error differs";
        }
    }
    return NULL;
}

static void expect_same(const diff_subject *s, const diff_side *w,
                        const diff_side *r)
{
    size_t at;
    const char *why = compare(w, r, s->unit, &at);
    if (why == NULL)
        return;
    describe(s);
    fprintf(stderr, "encoding used: wenc %s, encoding_rs %s\n", w->encoding,
            r->encoding);
    fprintf(stderr, "first differing output unit: %zu\n", at);
    dump_window("wenc", w, s->unit, at);
    dump_window("encoding_rs", r, s->unit, at);
    dump_errors("wenc", w);
    dump_errors("encoding_rs (known differences applied)", r);
    FUZZ_CHECK(0, "wenc and encoding_rs differ: %s", why);
}

/* wenc's result as a diff_side: UTF-16 output as little-endian bytes, the
 * errors as diff_errors (allocated; the caller frees both). */
static diff_side wenc_side(const stream_result *result, buffer *bytes,
                           diff_error **errors)
{
    buffer_init(bytes, 1);
    if (result->output.unit == 2) {
        const uint16_t *units = result->output.data;
        for (size_t i = 0; i < result->output.len; i++) {
            uint8_t pair[2] = {(uint8_t)(units[i] & 0xFF),
                               (uint8_t)(units[i] >> 8)};
            buffer_append(bytes, pair, 2);
        }
    } else {
        buffer_append(bytes, result->output.data, result->output.len);
    }
    *errors = calloc(result->error_count + 1, sizeof **errors);
    if (*errors == NULL)
        abort();
    for (size_t i = 0; i < result->error_count; i++) {
        const stream_error *e = &result->errors[i];
        (*errors)[i].offset = e->offset;
        (*errors)[i].length = (uint32_t)e->length;
        (*errors)[i].code_point = e->code_point;
        (*errors)[i].output_position = e->output_position;
    }
    const char *name = wenc_name(result->encoding);
    diff_side side = {name ? name : "(none)", bytes->data, bytes->len,
                      *errors, result->error_count};
    return side;
}

static diff_side rs_side(const wenc_rs_outcome *outcome)
{
    diff_side side = {outcome->encoding, outcome->output, outcome->output_len,
                      outcome->errors, outcome->error_count};
    return side;
}

static void run_wenc(const diff_subject *s, stream_result *result)
{
    bool fatal = (s->flags & FLAG_FATAL) != 0;
    bool utf16 = (s->flags & FLAG_UTF16) != 0;
    if (!(s->flags & FLAG_ENCODE)) {
        run_decoder(s->id, (wenc_bom_mode)((s->flags & 3) % 3),
                    fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT,
                    utf16 ? SINK_UTF16 : SINK_UTF8, s->payload,
                    s->payload_len, s->plan, result);
        return;
    }
    wenc_error_mode mode = fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML;
    if (!utf16) {
        run_encoder(s->id, mode, s->payload, s->payload_len, 1, s->plan,
                    result);
        return;
    }
    buffer units;
    buffer_init(&units, 2);
    bytes_to_units(s->payload, s->payload_len, &units);
    run_encoder(s->id, mode, units.data, units.len, 2, s->plan, result);
    buffer_free(&units);
}

/* encoding_rs's result with the known differences applied. */
static void run_encoding_rs(const diff_subject *s, wenc_rs_outcome *outcome)
{
    const char *label = wenc_name(s->id);
    bool fatal = (s->flags & FLAG_FATAL) != 0;
    bool utf16 = (s->flags & FLAG_UTF16) != 0;
    int status;
    if (s->flags & FLAG_ENCODE) {
        /* Whole UTF-16 code units only, as wenc reads them. */
        size_t len = utf16 ? s->payload_len & ~(size_t)1 : s->payload_len;
        uint8_t *input = malloc(len + 1);
        if (input == NULL)
            abort();
        if (len)
            memcpy(input, s->payload, len);
        if (known_gb18030_2022_applies(s->id))
            known_gb18030_2022_fix_encoder_input(input, len, utf16);
        status = wenc_rs_encode(label, strlen(label), fatal, utf16, input,
                                len, outcome);
        free(input);
    } else {
        status = wenc_rs_decode(label, strlen(label), (s->flags & 3) % 3,
                                fatal, utf16, s->payload, s->payload_len,
                                outcome);
        if (status == 0 && (strcmp(outcome->encoding, "gb18030") == 0 ||
                            strcmp(outcome->encoding, "GBK") == 0))
            known_gb18030_2022_fix_decoded(outcome->output,
                                           outcome->output_len, utf16);
        if (status == 0 && strcmp(outcome->encoding, "ISO-2022-JP") == 0)
            known_iso_2022_jp_fix_errors(s->payload, s->payload_len,
                                         outcome->errors,
                                         outcome->error_count);
    }
    FUZZ_CHECK(status == 0, "encoding_rs does not know the label '%s'",
               label);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = fuzz_input_of(data, size);
    diff_subject s;
    s.id = (wenc_id)(fuzz_take_byte(&in) % WENC_ENCODING_COUNT);
    s.flags = (uint8_t)(fuzz_take_byte(&in) & 0x1F);
    fuzz_input plan_part = fuzz_take_bytes(&in, fuzz_take_byte(&in) % 16);
    s.plan.bytes = plan_part.data;
    s.plan.len = plan_part.size;
    s.payload = in.data;
    s.payload_len = in.size;
    s.unit = !(s.flags & FLAG_ENCODE) && (s.flags & FLAG_UTF16) ? 2 : 1;

    stream_result result;
    run_wenc(&s, &result);
    wenc_rs_outcome outcome;
    run_encoding_rs(&s, &outcome);

    buffer wenc_bytes;
    diff_error *wenc_errors;
    diff_side w = wenc_side(&result, &wenc_bytes, &wenc_errors);
    diff_side r = rs_side(&outcome);
    expect_same(&s, &w, &r);

    buffer_free(&wenc_bytes);
    free(wenc_errors);
    wenc_rs_outcome_free(&outcome);
    stream_result_free(&result);
    return 0;
}

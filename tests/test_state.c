/*
 * test_state.c — wenc_decoder_save() and wenc_decoder_restore() (an
 * extension: the state Python's IncrementalDecoder.getstate()/setstate()
 * and io.TextIOWrapper's tell()/seek() need).
 *
 * For every decoder, in every BOM mode and both error modes, to UTF-8 and
 * (but for the single-byte decoders, which hold nothing) to UTF-16, over
 * hand-written inputs that reach each state (partial sequences, BOMs and
 * their first bytes, ISO-2022-JP's escapes and modes, the bytes read again
 * after an error) and over random ones (fixed seed), a decoder A reads a
 * prefix input[0..k) (not last; in fatal mode going on after each error,
 * and stopping as soon as all is consumed) and saves its state:
 *  - at every k, A reading in one call, and a byte a call (which stops
 *    right after an error with bytes queued to be read again); at k = 0
 *    the state is flags 0 and no bytes;
 *  - after every call of A reading a byte a call into an output of 1 to 4
 *    units (which stops halfway through bytes queued again).
 * Then:
 *  - the held bytes are exactly input[k - held_len .. k);
 *  - a decoder B restored from the state saves that state again, and reads
 *    input[k..) (last): A's output and B's, and their errors (B's offsets
 *    plus k - held_len, as the header says), are those of one decoder over
 *    the whole input; the same with B reading a byte a call;
 *  - restoring (flags, no bytes) and then reading the held bytes a byte a
 *    call gives the same, and when those bytes wrote nothing the decoder
 *    then saves A's state again (io.TextIOWrapper's tell() does both).
 * The reference is the same library over the unsplit input, whose output
 * the other tests check against the Standard; what is checked here by hand
 * is the states that carry something (the held bytes, and output that
 * depends on the flags: ISO-2022-JP's modes and output flag, a BOM's
 * choice), the offsets after a restore, and states restore must refuse.
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 96
#define MAX_OUT (3 * (MAX_INPUT + WENC_MAX_HELD) + 16)
#define MAX_ERRS (MAX_INPUT + WENC_MAX_HELD + 4)
#define RANDOM_INPUTS 8

/* What decoding gave: output units (UTF-8 bytes or UTF-16 code units) and
 * errors, each at the output length it came after. */
typedef struct run_err {
    uint64_t offset;
    size_t length, out_pos;
    uint8_t bytes[WENC_MAX_MALFORMED];
} run_err;

typedef struct run {
    uint16_t out[MAX_OUT];
    size_t len;
    run_err errs[MAX_ERRS];
    size_t n_errs;
    bool failed; /* a call broke the contract (reported once) */
} run;

typedef struct mode {
    wenc_id id;
    wenc_bom_mode bom;
    wenc_error_mode err;
    bool utf16;
} mode;

static const char *const bom_names[] = {"sniff", "strip", "keep"};

static void set_ctx(th *t, const mode *m, const char *what, size_t k)
{
    th_ctx(t, "%s %s %s %s, %s, k=%zu", wenc_name(m->id), bom_names[m->bom],
           m->err == WENC_ERRORS_FATAL ? "fatal" : "replacement",
           m->utf16 ? "utf16" : "utf8", what, k);
}

/* One call: decodes src[0..n) with dec into r, with `cap` units of room
 * (0: what the max-length helper asks for); returns the status and sets
 * *in to the bytes consumed. Error offsets are recorded plus `shift`. */
static wenc_status call(th *t, wenc_decoder *dec, const mode *m,
                        const uint8_t *src, size_t n, size_t cap, bool last,
                        uint64_t shift, run *r, size_t *in)
{
    size_t helper = m->utf16 ? wenc_decoder_max_utf16_len(dec, n)
                             : wenc_decoder_max_utf8_len(dec, n);
    if (cap == 0 || cap > helper)
        cap = helper;
    *in = 0;
    if (!CHECKF(t, cap <= MAX_OUT - r->len, "capacity %zu at output %zu",
                cap, r->len)) {
        r->failed = true;
        return WENC_OUTPUT_FULL;
    }
    uint8_t out8[MAX_OUT];
    uint16_t out16[MAX_OUT];
    size_t made = cap;
    wenc_status st;
    *in = n;
    if (m->utf16)
        st = wenc_decode_to_utf16(dec, src, in, out16, &made, last);
    else
        st = wenc_decode_to_utf8(dec, src, in, out8, &made, last);
    for (size_t i = 0; i < made; i++)
        r->out[r->len++] = m->utf16 ? out16[i] : out8[i];
    if (st == WENC_ERROR) {
        wenc_decode_error e;
        if (!CHECK(t, m->err == WENC_ERRORS_FATAL &&
                          wenc_decoder_error(dec, &e) &&
                          r->n_errs < MAX_ERRS)) {
            r->failed = true;
            return st;
        }
        run_err *x = &r->errs[r->n_errs++];
        x->offset = e.offset + shift;
        x->length = e.length;
        x->out_pos = r->len;
        memcpy(x->bytes, e.bytes, sizeof x->bytes);
    } else if (!CHECKF(t, st == WENC_INPUT_EMPTY ? *in == n : cap < helper,
                       "status %d, %zu of %zu bytes consumed", (int)st, *in,
                       n)) {
        r->failed = true;
    }
    return st;
}

/*
 * Decodes src[0..n) with dec into r, `step` bytes a call (0: all in one
 * call), the call that reaches the end with `last`; in fatal mode goes on
 * after each WENC_ERROR. Without `last` it stops once all of src is
 * consumed, also right after an error (bytes then possibly queued to be
 * read again); with `last` when the stream is finished.
 */
static void feed(th *t, wenc_decoder *dec, const mode *m, const uint8_t *src,
                 size_t n, size_t step, bool last, uint64_t shift, run *r)
{
    size_t at = 0;
    for (unsigned calls = 0; !r->failed; calls++) {
        size_t chunk = step && n - at > step ? step : n - at, in;
        bool call_last = last && at + chunk == n;
        wenc_status st = call(t, dec, m, src + at, chunk, 0, call_last, shift,
                              r, &in);
        at += in;
        if (at == n && (last ? call_last && st == WENC_INPUT_EMPTY : true))
            return;
        if (!CHECKF(t, calls < 4 * (n + 8), "no end after %u calls", calls))
            r->failed = true;
    }
}

/* Whether two runs are the same; if not, records a failure saying where. */
static bool same_run(th *t, const char *what, const run *x, const run *y)
{
    if (x->failed || y->failed)
        return false;
    size_t i = 0;
    while (i < x->len && i < y->len && x->out[i] == y->out[i])
        i++;
    if (!CHECKF(t, i == x->len && i == y->len,
                "%s: output differs at unit %zu (lengths %zu, %zu)", what, i,
                x->len, y->len))
        return false;
    if (!CHECKF(t, x->n_errs == y->n_errs, "%s: %zu errors, not %zu", what,
                y->n_errs, x->n_errs))
        return false;
    for (size_t e = 0; e < x->n_errs; e++) {
        const run_err *a = &x->errs[e], *b = &y->errs[e];
        if (!CHECKF(t,
                    a->offset == b->offset && a->length == b->length &&
                        a->out_pos == b->out_pos &&
                        memcmp(a->bytes, b->bytes, a->length) == 0,
                    "%s: error %zu at %llu+%zu (output %zu), not %llu+%zu "
                    "(output %zu)",
                    what, e, (unsigned long long)b->offset, b->length,
                    b->out_pos, (unsigned long long)a->offset, a->length,
                    a->out_pos))
            return false;
    }
    return true;
}

static bool same_state(const wenc_decoder_state *a,
                       const wenc_decoder_state *b)
{
    return a->flags == b->flags && a->held_len == b->held_len &&
           memcmp(a->held, b->held, a->held_len) == 0;
}

static void init(th *t, wenc_decoder *dec, const mode *m)
{
    bool ok = wenc_decoder_init(dec, m->id, m->bom, m->err);
    CHECK(t, ok);
}

/* The checks of the header comment on state `st`, which a decoder saved
 * after reading src[0..k) and writing `before`, whose output and errors
 * together with the rest's must be `whole`'s. */
static void check_saved(th *t, const mode *m, const uint8_t *src, size_t n,
                        size_t k, const wenc_decoder_state *st,
                        const run *before, const run *whole, bool byte_calls)
{
    run ab = *before, ab_bytes = *before, again = *before;
    wenc_decoder b;
    wenc_decoder_state st2;
    size_t h = st->held_len;
    /* 3: what the header says decoders hold at most today */
    if (!CHECKF(t, h <= 3 && h <= k, "held_len %zu", h) ||
        !CHECKF(t, memcmp(st->held, src + k - h, h) == 0,
                "held bytes are not the last %zu consumed", h))
        return;

    init(t, &b, m);
    if (!CHECK(t, wenc_decoder_restore(&b, st)))
        return;
    wenc_decoder_save(&b, &st2);
    CHECKF(t, same_state(st, &st2), "restored decoder saves %#x+%zu",
           (unsigned)st2.flags, st2.held_len);
    feed(t, &b, m, src + k, n - k, 0, true, k - h, &ab);
    same_run(t, "A + B", whole, &ab);
    if (!byte_calls)
        return;

    init(t, &b, m);
    CHECK(t, wenc_decoder_restore(&b, st));
    feed(t, &b, m, src + k, n - k, 1, true, k - h, &ab_bytes);
    same_run(t, "A + B a byte a call", whole, &ab_bytes);

    wenc_decoder_state flags_only = *st;
    flags_only.held_len = 0;
    init(t, &b, m);
    if (!CHECK(t, wenc_decoder_restore(&b, &flags_only)))
        return;
    size_t len0 = again.len, errs0 = again.n_errs;
    feed(t, &b, m, st->held, h, 1, false, k - h, &again);
    wenc_decoder_save(&b, &st2);
    CHECKF(t, again.len > len0 || again.n_errs > errs0 || same_state(st, &st2),
           "flags, then the held bytes a byte a call, save %#x+%zu",
           (unsigned)st2.flags, st2.held_len);
    feed(t, &b, m, src + k, n - k, 1, true, k - h, &again);
    same_run(t, "A + flags + held bytes + B", whole, &again);
}

/* Every check of the header comment at every split point of src, with A
 * reading src[0..k) in one call and a byte a call; then with A reading a
 * byte a call into an output of 1 to 4 units, saving after every call (so
 * also halfway through bytes read again). */
static void check_splits(th *t, const mode *m, const uint8_t *src, size_t n)
{
    run whole, a_run;
    wenc_decoder dec, a;
    wenc_decoder_state st;
    memset(&whole, 0, sizeof whole);
    set_ctx(t, m, "the whole input", 0);
    init(t, &dec, m);
    feed(t, &dec, m, src, n, 0, true, 0, &whole);
    for (size_t k = 0; k <= n && !whole.failed; k++) {
        for (size_t step = 0; step < 2; step++) {
            set_ctx(t, m, step ? "A a byte a call" : "A in one call", k);
            memset(&a_run, 0, sizeof a_run);
            init(t, &a, m);
            feed(t, &a, m, src, k, step, false, 0, &a_run);
            wenc_decoder_save(&a, &st);
            CHECKF(t, k > 0 || (st.flags == 0 && st.held_len == 0),
                   "a decoder given no bytes saved flags %#x, %zu bytes",
                   (unsigned)st.flags, st.held_len);
            if (!a_run.failed)
                check_saved(t, m, src, n, k, &st, &a_run, &whole, step == 0);
        }
    }
    memset(&a_run, 0, sizeof a_run);
    init(t, &a, m);
    size_t at = 0, stalled = 0;
    for (unsigned calls = 0; at < n && !whole.failed && !a_run.failed;
         calls++) {
        size_t chunk = n - at > 1 ? 1 : n - at, in;
        set_ctx(t, m, "A a byte a call into little room", at);
        call(t, &a, m, src + at, chunk, 1 + calls % 4 + stalled, false, 0,
             &a_run, &in);
        stalled = in == 0 ? stalled + 1 : 0;
        at += in;
        wenc_decoder_save(&a, &st);
        check_saved(t, m, src, n, at, &st, &a_run, &whole, false);
        if (!CHECKF(t, calls < 8 * (n + 8), "no end after %u calls", calls))
            break;
    }
    th_ctx_clear(t);
}

/* ---- inputs -------------------------------------------------------------- */

/* For every encoding: BOMs, their first bytes, bytes after them. */
static const char *const common_inputs[] = {
    "",
    "'a'",
    "EF BB BF 'a' 80 C3 A9",
    "EF BB BF",
    "EF BB 'x'",
    "EF 'x'",
    "EF BB",
    "FE FF 00 41 D8 3D DE 00 'z'",
    "FF FE 41 00 3D D8 00 DE 'z' 00",
    "FE 'a' FF",
    "FF 'b' FE",
    "FF",
    "FE EF BB FF FE",
};

typedef struct family_inputs {
    wenc_id ids[2];
    const char *in[12];
} family_inputs;

/* The states of each stateful decoder (as in test_split.c and
 * test_mb_stream.c: valid, malformed and truncated sequences). */
static const family_inputs family[] = {
    {{WENC_UTF_8, WENC_UTF_8},
     {"'ab' C3 A9 E2 82 AC F0 9F 98 80 'c'", "E0 80 80 41 E0 A0",
      "E1 80 41 F0 90 80", "ED A0 80 F4 90 80 80 ED 9F BF",
      "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64", "F0 9F 98",
      "EF BB BF EF BB BF", "C2 EF BB BF 'x'", "F4 8F BF BF F4 8F BF C0"}},
    {{WENC_UTF_16BE, WENC_UTF_16BE},
     {"00 41 D8 3D DE 00 00 42", "D8 00 00 41 DC 00 D8 00",
      "D8 00 D8 01 DC 02", "00 41 00", "D8 00 00",
      "DB FF DF FF DC 00 D8 00 D8 00 DC 00 00", "FE FF FE FF D8 3D",
      "D8 3D FE FF DE 00"}},
    {{WENC_UTF_16LE, WENC_UTF_16LE},
     {"41 00 3D D8 00 DE 42 00", "00 D8 41 00 00 DC 00 D8",
      "00 D8 01 D8 02 DC", "41 00 3D", "3D D8 00",
      "FF DB FF DF 00 DC 00 D8 00 D8 00 DC 00", "FF FE FF FE 3D D8",
      "3D D8 FF FE 00 DE"}},
    {{WENC_GB18030, WENC_GBK},
     {"'a' 81 40 'b' 80 FF 81 30 81 30 84 31 A4 39",
      "84 31 A5 30 'A' E3 32 9A 35", "81 30 81 'A' 81 30 81 81 30 81 30",
      "81 30 81 FF 'z' 81 30 'A' 81 30 FF 'A'", "81 30 30 81 30 81 30 80",
      "81 7F 81 FF 81 30 81", "81 30", "FE 39 FE 39 FE"}},
    {{WENC_BIG5, WENC_BIG5},
     {"A4 40 88 62 88 64 'a' 81 41 A4 FF 80", "88 66 FE FE C8 7B A1",
      "87 40 FE 7E 'q'", "A4"}},
    {{WENC_EUC_JP, WENC_EUC_JP},
     {"A4 A2 8E B1 8F B0 A1 'x'", "8F A1 41 8E 41 A1 FF 8F",
      "8F A2 AF A4 8E E0 8F", "8E A1 A1 A1 FF A1 80"}},
    {{WENC_ISO_2022_JP, WENC_ISO_2022_JP},
     {"1B 24 42 30 21 1B 28 42 'a' 1B 28 4A 5C 7E 1B 28 49 21 5F 1B 24 40 "
      "30 21 1B 28 42",
      "1B 24 42 1B 28 42 'x' 1B 28 4A 1B 28 4A", "1B 24 42 30 1B 28 42 'a'",
      "1B 24 78 'a' 1B 28 78 1B 'z' 0E 0F 80", "1B 24 42 30 21 30",
      "1B 24 1B 28 1B", "1B 28 49 1B 24 'a' 1B 28 'b' 1B 28 49 1B 28 49",
      "1B 24 42 1B 24 'x' 1B 28 'y'", "1B 28 4A 1B 24 20 5C",
      "1B 24 42 30 21 0A 1B 24 42 0A"}},
    {{WENC_SHIFT_JIS, WENC_SHIFT_JIS},
     {"82 A0 81 7F 41 82 41 A0 E0 40 F0 40 80", "82", "EF 40 F0 9F FC FC 'z'",
      "85 40 A1 DF 81"}},
    {{WENC_EUC_KR, WENC_EUC_KR},
     {"B0 A1 81 41 C8 A1 80 FF 41", "B0", "FE FE 81 FF A1 A1 C9"}},
    {{WENC_REPLACEMENT, WENC_REPLACEMENT}, {"41 42", "80 81 82"}},
    {{WENC_X_USER_DEFINED, WENC_X_USER_DEFINED}, {"41 80 FF 7F"}},
    {{WENC_ISO_8859_6, WENC_WINDOWS_874}, {"41 A1 C1 FF DB FC 'x'"}},
};

/* Pieces random inputs are made of: what starts or ends some state in one
 * decoder or another. */
static const char *const pieces[] = {
    "EF BB BF", "FE FF", "FF FE", "EF BB", "FE", "FF", "'a'", "00", "0A",
    "C3 A9", "E2 82 AC", "F0 9F 98 80", "E0 A0", "F4 90", "80", "BF",
    "D8 3D DE 00", "3D D8 00 DE", "DC 00", "00 DC", "D8 00",
    "81 30 81 30", "81 30", "81", "30", "FE 39", "A4 40", "88 62", "8E B1",
    "8F B0 A1", "8F", "82 A0", "E0 40", "B0 A1", "C8",
    "1B 24 42", "1B 24 40", "1B 28 42", "1B 28 4A", "1B 28 49", "1B 24",
    "1B 28", "1B", "24", "28", "30 21", "5C 7E", "0E", "0F", "21 5F",
};

static size_t random_input(th_rng *rng, uint8_t *buf)
{
    size_t n = 0, want = 16 + th_rng_below(rng, 24);
    while (n < want) {
        if (th_rng_below(rng, 4) == 0) {
            buf[n++] = (uint8_t)th_rng_below(rng, 256);
            continue;
        }
        th_bytes b = {0};
        if (!th_parse_bytes(pieces[th_rng_below(rng, sizeof pieces /
                                                         sizeof pieces[0])],
                            &b))
            abort();
        for (size_t i = 0; i < b.len && n < MAX_INPUT; i++)
            buf[n++] = b.p[i];
        th_bytes_free(&b);
    }
    return n;
}

static void check_spec(th *t, const mode *m, const char *spec)
{
    th_bytes b = {0};
    if (!CHECKF(t, th_parse_bytes(spec, &b) && b.len <= MAX_INPUT,
                "bad input spec %s", spec)) {
        th_bytes_free(&b);
        return;
    }
    uint8_t buf[MAX_INPUT];
    for (size_t i = 0; i < b.len; i++)
        buf[i] = b.p[i];
    check_splits(t, m, buf, b.len);
    th_bytes_free(&b);
}

/* The split checks for one encoding, in its modes and with both sinks. */
static void check_encoding(th *t, wenc_id id, th_rng *rng)
{
    bool stateful = false;
    for (size_t f = 0; f < sizeof family / sizeof family[0]; f++)
        stateful |= family[f].ids[0] == id || family[f].ids[1] == id;
    for (int bom = WENC_BOM_SNIFF; bom <= WENC_BOM_KEEP; bom++) {
        for (int err = WENC_ERRORS_REPLACEMENT; err <= WENC_ERRORS_FATAL;
             err++) {
            for (int utf16 = 0; utf16 < 2; utf16++) {
                mode m = {id, (wenc_bom_mode)bom, (wenc_error_mode)err,
                          utf16 != 0};
                /* the single-byte decoders hold nothing: one sink will do */
                if (utf16 && !stateful)
                    continue;
                for (size_t i = 0;
                     i < sizeof common_inputs / sizeof common_inputs[0]; i++)
                    check_spec(t, &m, common_inputs[i]);
                for (size_t f = 0; f < sizeof family / sizeof family[0]; f++)
                    if (family[f].ids[0] == id || family[f].ids[1] == id)
                        for (size_t i = 0; i < 12 && family[f].in[i]; i++)
                            check_spec(t, &m, family[f].in[i]);
                for (int i = 0; i < (stateful ? RANDOM_INPUTS : 2); i++) {
                    uint8_t buf[MAX_INPUT];
                    size_t n = random_input(rng, buf);
                    check_splits(t, &m, buf, n);
                }
            }
        }
    }
}

/* ---- states checked by hand ------------------------------------------------ */

/* Decodes `first` (a spec) with a fresh decoder, saves, checks the held
 * bytes against `held` (a spec), restores a fresh decoder and decodes
 * `rest` (a spec, last) into UTF-16, checking the output against `expect`
 * (UTF-16 units as a spec) and, when wenc is not WENC_INVALID, the
 * encoding the restored decoder reports. Returns the saved state. */
static wenc_decoder_state check_state_at(th *t, int line, wenc_id id,
                                         wenc_bom_mode bom, const char *first,
                                         const char *held, const char *rest,
                                         const char *expect, wenc_id enc)
{
    th_bytes a = {0}, h = {0}, r = {0};
    th_units x = {0};
    wenc_decoder_state st;
    memset(&st, 0, sizeof st);
    th_ctx(t, "line %d: %s, %s | %s", line, wenc_name(id), first, rest);
    if (!th_parse_bytes(first, &a) || !th_parse_bytes(held, &h) ||
        !th_parse_bytes(rest, &r) || !th_parse_units(expect, &x))
        abort();
    wenc_decoder dec;
    uint16_t out[64];
    size_t n = a.len, m = 64;
    if (!wenc_decoder_init(&dec, id, bom, WENC_ERRORS_REPLACEMENT))
        abort();
    wenc_decode_to_utf16(&dec, a.p, &n, out, &m, false);
    wenc_decoder_save(&dec, &st);
    CHECK_BYTES(t, "held bytes", h.p, h.len, st.held, st.held_len);
    if (!wenc_decoder_init(&dec, id, bom, WENC_ERRORS_REPLACEMENT))
        abort();
    CHECK(t, wenc_decoder_restore(&dec, &st));
    n = r.len;
    m = 64;
    wenc_status s = wenc_decode_to_utf16(&dec, r.p, &n, out, &m, true);
    CHECK(t, s == WENC_INPUT_EMPTY && n == r.len);
    CHECK_UNITS(t, "output after restore", x.p, x.len, out, m);
    if (enc != WENC_INVALID)
        CHECK_EQ(t, "encoding after restore", enc, wenc_decoder_encoding(&dec));
    th_bytes_free(&a);
    th_bytes_free(&h);
    th_bytes_free(&r);
    th_units_free(&x);
    th_ctx_clear(t);
    return st;
}
#define check_state(t, id, bom, first, held, rest, expect, enc) \
    check_state_at((t), __LINE__, (id), (bom), (first), (held), (rest), \
                   (expect), (enc))

static void check_hand_written(th *t)
{
    const wenc_bom_mode keep = WENC_BOM_KEEP, sniff = WENC_BOM_SNIFF;
    /* UTF-8: a partial sequence is held; a BOM's first bytes are held. */
    check_state(t, WENC_UTF_8, keep, "'a' F0 9F 98", "F0 9F 98", "80 'b'",
                "D83D DE00 0062", WENC_UTF_8);
    wenc_decoder_state st = check_state(t, WENC_UTF_8, sniff, "EF BB", "EF BB",
                                        "BF 'A'", "0041", WENC_UTF_8);
    CHECK_EQ(t, "flags while the BOM is undecided", 0, st.flags);
    check_state(t, WENC_UTF_8, keep, "EF BB", "EF BB", "BF 'A'", "FEFF 0041",
                WENC_UTF_8);
    /* A BOM decided: its choice is in the flags, and a second BOM is text. */
    st = check_state(t, WENC_WINDOWS_1252, sniff, "FF FE", "", "FF FE 'A' 00",
                     "FEFF 0041", WENC_UTF_16LE);
    CHECK(t, st.flags != 0);
    st = check_state(t, WENC_UTF_8, sniff, "EF BB BF", "", "EF BB BF", "FEFF",
                     WENC_UTF_8);
    CHECK(t, st.flags != 0);
    st = check_state(t, WENC_UTF_8, sniff, "'a'", "", "EF BB BF", "FEFF",
                     WENC_UTF_8);
    CHECK(t, st.flags != 0);
    check_state(t, WENC_WINDOWS_1252, sniff, "FE", "FE", "FF 00 41 D8 3D DE 00",
                "0041 D83D DE00", WENC_UTF_16BE);
    /* UTF-16: the odd byte, a high surrogate, both. */
    check_state(t, WENC_UTF_16LE, keep, "41 00 3D D8 00", "3D D8 00", "DE",
                "D83D DE00", WENC_UTF_16LE);
    check_state(t, WENC_UTF_16BE, keep, "D8", "D8", "3D DE 00", "D83D DE00",
                WENC_UTF_16BE);
    if (th_cjk(t, "the legacy multi-byte encodings' states")) {
        /* ISO-2022-JP: the mode is in the flags, escapes' bytes are held */
        check_state(t, WENC_ISO_2022_JP, keep, "1B 28 4A", "", "5C 7E",
                    "00A5 203E", WENC_INVALID);
        check_state(t, WENC_ISO_2022_JP, keep, "1B 28 49", "", "21 5F",
                    "FF61 FF9F", WENC_INVALID);
        check_state(t, WENC_ISO_2022_JP, keep, "1B 24 42 30", "30", "21",
                    "4E9C", WENC_INVALID);
        check_state(t, WENC_ISO_2022_JP, keep, "'a' 1B 24", "1B 24", "42 30 21",
                    "4E9C", WENC_INVALID);
        check_state(t, WENC_ISO_2022_JP, keep, "1B 28 4A 'a' 1B", "1B",
                    "28 42 5C", "005C", WENC_INVALID);
        check_state(t, WENC_ISO_2022_JP, keep, "1B 28 4A 1B", "1B", "28 42 5C",
                    "FFFD 005C", WENC_INVALID);
        /* the output flag: a second escape right after the first is an
         * error */
        check_state(t, WENC_ISO_2022_JP, keep, "1B 24 42", "",
                    "1B 28 42 'a'", "FFFD 0061", WENC_INVALID);
        check_state(t, WENC_ISO_2022_JP, keep, "1B 24 42 30 21", "",
                    "1B 28 42 'a'", "0061", WENC_INVALID);
        /* gb18030, EUC-JP, Shift_JIS */
        check_state(t, WENC_GB18030, keep, "81 30 81", "81 30 81", "30",
                    "0080", WENC_INVALID);
        check_state(t, WENC_EUC_JP, keep, "8F B0", "8F B0", "A1", "4E02",
                    WENC_INVALID);
        check_state(t, WENC_SHIFT_JIS, keep, "'z' 82", "82", "A0", "3042",
                    WENC_INVALID);
    }
    /* replacement: the error was returned; nothing more comes. */
    st = check_state(t, WENC_REPLACEMENT, keep, "41", "", "42", "",
                     WENC_REPLACEMENT);
    CHECK(t, st.flags != 0);
}

/* Errors after a restore: offsets count from the first held byte. */
static void check_offsets(th *t)
{
    wenc_decoder dec;
    uint8_t out[32];
    const uint8_t first[] = {'x', 'y', 0xE2, 0x82}, rest[] = {'!', 0xFF};
    size_t n = sizeof first, m = sizeof out;
    wenc_decoder_state st;
    wenc_decode_error e;
    th_ctx(t, "offsets after a restore");
    wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP, WENC_ERRORS_FATAL);
    wenc_decode_to_utf8(&dec, first, &n, out, &m, false);
    wenc_decoder_save(&dec, &st);
    CHECK_EQ(t, "held", 2, st.held_len);
    wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP, WENC_ERRORS_FATAL);
    CHECK(t, wenc_decoder_restore(&dec, &st));
    CHECK(t, !wenc_decoder_error(&dec, &e));
    n = sizeof rest;
    m = sizeof out;
    CHECK(t, wenc_decode_to_utf8(&dec, rest, &n, out, &m, true) == WENC_ERROR);
    CHECK(t, wenc_decoder_error(&dec, &e));
    CHECK_EQ(t, "offset of the held bytes' error", 0, e.offset);
    CHECK_EQ(t, "length", 2, e.length);
    CHECK_EQ(t, "'!' is read again", 0, n);
    n = sizeof rest;
    m = sizeof out;
    CHECK(t, wenc_decode_to_utf8(&dec, rest, &n, out, &m, true) == WENC_ERROR);
    CHECK(t, wenc_decoder_error(&dec, &e));
    CHECK_EQ(t, "offset of the next input's FF", 3, e.offset);
    CHECK(t, m == 1 && out[0] == '!');
    th_ctx_clear(t);
}

/* States no decoder of the encoding and modes saves. */
static bool refused_at(th *t, int line, wenc_id id, wenc_bom_mode bom,
                       uint32_t flags, const char *held)
{
    th_bytes h = {0};
    wenc_decoder_state st;
    memset(&st, 0, sizeof st);
    if (!th_parse_bytes(held, &h) || h.len > WENC_MAX_HELD)
        abort();
    for (size_t i = 0; i < h.len; i++)
        st.held[i] = h.p[i];
    st.held_len = h.len;
    st.flags = flags;
    th_bytes_free(&h);
    th_ctx(t, "line %d: %s, flags %#x, held %s", line, wenc_name(id),
           (unsigned)flags, held);
    wenc_decoder dec, fresh;
    if (!wenc_decoder_init(&dec, id, bom, WENC_ERRORS_FATAL) ||
        !wenc_decoder_init(&fresh, id, bom, WENC_ERRORS_FATAL))
        abort();
    /* something held before, to see it dropped */
    uint8_t junk[2] = {0xE2, 0x1B};
    size_t n = 2, m = 0;
    wenc_decode_to_utf8(&dec, junk, &n, NULL, &m, false);
    bool refused = !wenc_decoder_restore(&dec, &st);
    CHECK(t, refused);
    if (refused)
        CHECK(t, memcmp(&dec, &fresh, sizeof dec) == 0);
    th_ctx_clear(t);
    return refused;
}
#define refused(t, id, bom, flags, held) \
    refused_at((t), __LINE__, (id), (bom), (flags), (held))

/* Flags a decoder saves after `first` (a spec). */
static uint32_t flags_after(wenc_id id, wenc_bom_mode bom, const char *first)
{
    th_bytes a = {0};
    wenc_decoder dec;
    wenc_decoder_state st;
    uint8_t out[64];
    if (!th_parse_bytes(first, &a) ||
        !wenc_decoder_init(&dec, id, bom, WENC_ERRORS_REPLACEMENT))
        abort();
    size_t n = a.len, m = sizeof out;
    wenc_decode_to_utf8(&dec, a.p, &n, out, &m, false);
    wenc_decoder_save(&dec, &st);
    th_bytes_free(&a);
    return st.flags;
}

static void check_refused(th *t)
{
    const wenc_bom_mode keep = WENC_BOM_KEEP, sniff = WENC_BOM_SNIFF,
                        strip = WENC_BOM_STRIP;
    for (int id = 0; id < WENC_ENCODING_COUNT; id++) {
        if (!wenc_is_built_in((wenc_id)id))
            continue;
        for (int bom = WENC_BOM_SNIFF; bom <= WENC_BOM_KEEP; bom++) {
            refused(t, (wenc_id)id, (wenc_bom_mode)bom, 0xFFFFFFFFu, "");
            refused(t, (wenc_id)id, (wenc_bom_mode)bom, 1u << 31, "");
            refused(t, (wenc_id)id, (wenc_bom_mode)bom, 1u << 16, "");
            wenc_decoder dec;
            wenc_decoder_state st;
            memset(&st, 0, sizeof st);
            st.held_len = WENC_MAX_HELD + 1;
            wenc_decoder_init(&dec, (wenc_id)id, (wenc_bom_mode)bom,
                              WENC_ERRORS_REPLACEMENT);
            CHECK(t, !wenc_decoder_restore(&dec, &st));
        }
    }
    uint32_t settled = flags_after(WENC_UTF_8, sniff, "'a'");
    uint32_t le = flags_after(WENC_WINDOWS_1252, sniff, "FF FE");
    /* ASCII, an invalid prefix, a complete sequence are never held */
    refused(t, WENC_UTF_8, keep, 0, "41");
    refused(t, WENC_UTF_8, keep, 0, "E0 80");
    refused(t, WENC_UTF_8, keep, 0, "F0 90 80 80");
    refused(t, WENC_UTF_8, keep, 0, "80");
    /* the BOM question: not asked in keep mode, settled with its bytes */
    refused(t, WENC_UTF_8, keep, settled, "");
    refused(t, WENC_UTF_8, sniff, 0, "EF BB BF");
    refused(t, WENC_UTF_8, sniff, 0, "EF 'a'");
    refused(t, WENC_UTF_8, strip, 0, "FE");
    refused(t, WENC_UTF_8, strip, flags_after(WENC_UTF_8, strip, "'a'"), "FE");
    refused(t, WENC_UTF_16BE, strip, 0, "FF");
    refused(t, WENC_UTF_8, sniff, settled, "41");
    refused(t, WENC_UTF_8, sniff, settled | 0x100, "");
    /* a BOM's choice: only when sniffing, never the initial encoding */
    refused(t, WENC_UTF_16LE, sniff, le, "");
    refused(t, WENC_WINDOWS_1252, strip, le, "");
    refused(t, WENC_UTF_16LE, strip, le, "");
    refused(t, WENC_UTF_8, strip, le, "");
    refused(t, WENC_UTF_16LE, keep, le, "FF");
    /* UTF-16: a low surrogate's bytes, or a code unit, are not held */
    refused(t, WENC_UTF_16BE, keep, 0, "DC 00");
    refused(t, WENC_UTF_16BE, keep, 0, "00 41");
    refused(t, WENC_UTF_16BE, keep, 0, "D8 00 00 41");
    /* single-byte and replacement hold nothing of their own */
    refused(t, WENC_WINDOWS_1252, keep, 0, "80");
    refused(t, WENC_X_USER_DEFINED, keep, 0, "80");
    uint32_t done = flags_after(WENC_REPLACEMENT, keep, "41");
    refused(t, WENC_REPLACEMENT, keep, done, "41");
    refused(t, WENC_REPLACEMENT, keep, 0, "41");
    refused(t, WENC_REPLACEMENT, keep, 2u << 8, "");
    if (th_cjk(t, "the legacy multi-byte encodings' refused states")) {
        uint32_t jis = flags_after(WENC_ISO_2022_JP, keep, "1B 24 42");
        uint32_t roman = flags_after(WENC_ISO_2022_JP, keep, "1B 28 4A 'a'");
        uint32_t roman_out = flags_after(WENC_ISO_2022_JP, keep, "1B 28 4A");
        CHECK(t, jis != 0 && roman != 0 && jis != roman && roman != roman_out);
        refused(t, WENC_ISO_2022_JP, keep, 0, "1B 28 42");
        refused(t, WENC_ISO_2022_JP, keep, 0, "41");
        refused(t, WENC_ISO_2022_JP, keep, 0, "30");
        refused(t, WENC_ISO_2022_JP, keep, jis, "30 21");
        refused(t, WENC_ISO_2022_JP, keep, jis, "1B 24 42");
        /* a lead byte clears the output flag; the bytes an escape reads
         * again are read with it cleared */
        refused(t, WENC_ISO_2022_JP, keep, jis, "24");
        refused(t, WENC_ISO_2022_JP, keep, roman_out, "24");
        refused(t, WENC_ISO_2022_JP, keep, roman, "25");
        refused(t, WENC_ISO_2022_JP, keep, 8u << 8, "");
        refused(t, WENC_UTF_8, keep, jis, "");
        refused(t, WENC_GB18030, keep, 0, "81 30 81 30");
        refused(t, WENC_GB18030, keep, 0, "35 41");
        refused(t, WENC_GB18030, keep, 0, "81 40");
        refused(t, WENC_GB18030, keep, 0, "FF");
        refused(t, WENC_EUC_JP, keep, 0, "41");
        refused(t, WENC_EUC_JP, keep, 0, "8F 41");
        refused(t, WENC_EUC_JP, keep, 0, "A1 A1");
        refused(t, WENC_EUC_JP, keep, 0, "8F A1 A1");
        refused(t, WENC_SHIFT_JIS, keep, 0, "A0");
        refused(t, WENC_BIG5, keep, 0, "80");
        refused(t, WENC_EUC_KR, keep, 0, "B0 A1");
        /* what these can hold, for contrast */
        wenc_decoder dec;
        uint32_t jis_text = flags_after(WENC_ISO_2022_JP, keep, "1B 24 42 30 21");
        wenc_decoder_state st = {jis_text, 1, {0x30}};
        wenc_decoder_init(&dec, WENC_ISO_2022_JP, keep, WENC_ERRORS_FATAL);
        CHECK(t, wenc_decoder_restore(&dec, &st));
        st = (wenc_decoder_state){roman, 1, {0x24}};
        CHECK(t, wenc_decoder_restore(&dec, &st));
        st = (wenc_decoder_state){0, 2, {0x35, 0x81}};
        wenc_decoder_init(&dec, WENC_GB18030, keep, WENC_ERRORS_FATAL);
        CHECK(t, wenc_decoder_restore(&dec, &st));
    }
}

int main(int argc, char **argv)
{
    th t;
    th_begin(&t, "test_state");
    th_args(&t, argc, argv);
    t.max_print = 40;
    check_hand_written(&t);
    check_offsets(&t);
    check_refused(&t);
    th_rng rng;
    th_rng_seed(&rng, 0x5A7E5A7Eu);
    bool said = false;
    for (int id = 0; id < WENC_ENCODING_COUNT; id++) {
        if (th_is_cjk((wenc_id)id) && !th_has_cjk()) {
            if (!said)
                th_cjk(&t, "the split checks of the legacy multi-byte "
                           "encodings");
            said = true;
            continue;
        }
        check_encoding(&t, (wenc_id)id, &rng);
    }
    return th_end(&t);
}

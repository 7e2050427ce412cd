/* test_split.c — any split of a stream into calls, and any output capacity,
 * gives the output of one call; the max-length helpers always suffice.
 * One-call results are themselves checked against hand-written expectations
 * (from the Standard's algorithms) for most inputs. */
#include "harness.h"
#include "simd_level.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANDOM_SPLITS 1000

typedef struct dcase {
    wenc_id id;
    const char *in;
    /* hand-written expectations per BOM mode (NULL: invariance only) */
    const char *sniff, *strip, *keep;
} dcase;

#define ALL(x) x, x, x

static const dcase dcases[] = {
    /* UTF-8 */
    {WENC_UTF_8, "", ALL("")},
    {WENC_UTF_8, "'ab' C3 A9 E2 82 AC F0 9F 98 80",
     ALL("'ab' E9 20AC 1F600")},
    {WENC_UTF_8, "E0 80 80 41", ALL("!0+1 !1+1 !2+1 41")},
    {WENC_UTF_8, "E1 80 41 F0 90 80", ALL("!0+2 41 !3+3")},
    {WENC_UTF_8, "ED A0 80 F4 90 80 80",
     ALL("!0+1 !1+1 !2+1 !3+1 !4+1 !5+1 !6+1")},
    {WENC_UTF_8, "C0 80 C2 80 80 FF", ALL("!0+1 !1+1 80 !4+1 !5+1")},
    {WENC_UTF_8, "F0 9F 98", ALL("!0+3")},
    {WENC_UTF_8, "EF", ALL("!0+1")},
    {WENC_UTF_8, "EF BB", ALL("!0+2")},
    {WENC_UTF_8, "EF BB BF 41 E1 80", "41 !4+2", "41 !4+2", "FEFF 41 !4+2"},
    {WENC_UTF_8, "EF BB BF EF BB BF", "FEFF", "FEFF", "FEFF FEFF"},
    {WENC_UTF_8, "EF BB BF", "", "", "FEFF"},
    {WENC_UTF_8, "FE FF 00 41 D8 00", "41 !4+2", "!0+1 !1+1 0 41 !4+1 0",
     "!0+1 !1+1 0 41 !4+1 0"},
    {WENC_UTF_8, "FF FE 41 00 3D D8 00 DE", "41 1F600",
     "!0+1 !1+1 41 0 3D !5+1 0 !7+1", "!0+1 !1+1 41 0 3D !5+1 0 !7+1"},
    {WENC_UTF_8, "FF FE", "", "!0+1 !1+1", "!0+1 !1+1"},
    {WENC_UTF_8, "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
     ALL("61 !1+3 !4+2 !6+1 62 !8+1 63 !10+1 !11+1 64")},
    {WENC_UTF_8, "F4 8F BF BF F4 8F BF C0 F0 90 80 80 EF BF BD",
     ALL("10FFFF !4+3 !7+1 10000 FFFD")},
    {WENC_UTF_8, "F0 80 80 80 E0 9F BF ED B0 80 F4 90 80 80 41",
     ALL("!0+1 !1+1 !2+1 !3+1 !4+1 !5+1 !6+1 !7+1 !8+1 !9+1 !10+1 !11+1 "
         "!12+1 !13+1 41")},
    /* UTF-16BE */
    {WENC_UTF_16BE, "00 41 D8 3D DE 00 00 42", ALL("41 1F600 42")},
    {WENC_UTF_16BE, "D8 00 00 41 DC 00 D8 00", ALL("!0+2 41 !4+2 !6+2")},
    {WENC_UTF_16BE, "FE FF 00 41", "41", "41", "FEFF 41"},
    {WENC_UTF_16BE, "FF FE 41 00", "41", "FFFE 4100", "FFFE 4100"},
    {WENC_UTF_16BE, "EF BB BF 41", "41", "EFBB BF41", "EFBB BF41"},
    {WENC_UTF_16BE, "00 41 00", ALL("41 !2+1")},
    {WENC_UTF_16BE, "D8 00 00", ALL("!0+3")},
    {WENC_UTF_16BE, "D8 00 D8 01 DC 02", ALL("!0+2 10402")},
    {WENC_UTF_16BE, "FE FF FE FF D8 3D", "FEFF !4+2", "FEFF !4+2",
     "FEFF FEFF !4+2"},
    {WENC_UTF_16BE, "FE", ALL("!0+1")},
    {WENC_UTF_16BE, "DB FF DF FF DC 00 D8 00 D8 00 DC 00 00",
     ALL("10FFFF !4+2 !6+2 10000 !12+1")},
    /* UTF-16LE */
    {WENC_UTF_16LE, "41 00 3D D8 00 DE 42 00", ALL("41 1F600 42")},
    {WENC_UTF_16LE, "00 D8 41 00 00 DC 00 D8", ALL("!0+2 41 !4+2 !6+2")},
    {WENC_UTF_16LE, "FF FE 41 00", "41", "41", "FEFF 41"},
    {WENC_UTF_16LE, "FE FF 00 41", "41", "FFFE 4100", "FFFE 4100"},
    {WENC_UTF_16LE, "FF FE 3D D8", "!2+2", "!2+2", "FEFF !2+2"},
    {WENC_UTF_16LE, "41 00 3D", ALL("41 !2+1")},
    {WENC_UTF_16LE, "EF BB BF", "", "BBEF !2+1", "BBEF !2+1"},
    {WENC_UTF_16LE, "3D D8 00", ALL("!0+3")},
    /* windows-1252 (every byte maps) */
    {WENC_WINDOWS_1252, "'Caf' E9 80 9F FF 81",
     ALL("'Caf' E9 20AC 178 FF 81")},
    {WENC_WINDOWS_1252, "EF BB BF 80", "!3+1", "EF BB BF 20AC",
     "EF BB BF 20AC"},
    {WENC_WINDOWS_1252, "FF FE 80 20", "2080", "FF FE 20AC 20",
     "FF FE 20AC 20"},
    {WENC_WINDOWS_1252, "EF BB", ALL("EF BB")},
    {WENC_WINDOWS_1252, "FE", ALL("FE")},
    /* KOI8-U */
    {WENC_KOI8_U, "C1 E1 A4 B4 41", ALL("430 410 454 404 41")},
    {WENC_KOI8_U, "FE FF 04 30", "430", "427 42A 4 30", "427 42A 4 30"},
    /* single-byte encodings with unmapped bytes */
    {WENC_ISO_8859_6, "41 A1 C1 FF", ALL("41 !1+1 621 !3+1")},
    {WENC_ISO_8859_3, "A5 41 A5", ALL("!0+1 41 !2+1")},
    /* x-user-defined */
    {WENC_X_USER_DEFINED, "41 80 FF 7F", ALL("41 F780 F7FF 7F")},
    {WENC_X_USER_DEFINED, "EF BB BF 80", "!3+1", "F7EF F7BB F7BF F780",
     "F7EF F7BB F7BF F780"},
    /* replacement */
    {WENC_REPLACEMENT, "", ALL("")},
    {WENC_REPLACEMENT, "41 42", ALL("!0+1")},
    {WENC_REPLACEMENT, "80 81 82 83 84 85 86", ALL("!0+1")},
    {WENC_REPLACEMENT, "EF BB BF 41", "41", "!0+1", "!0+1"},
    {WENC_REPLACEMENT, "FF FE 41 00", "41", "!0+1", "!0+1"},
    {WENC_REPLACEMENT, "FE", ALL("!0+1")},
    {WENC_REPLACEMENT, "EF BB", ALL("!0+1")},
};

typedef struct ecase {
    wenc_id id;
    bool utf16;
    const char *in;
    const char *expect; /* NULL: invariance only */
} ecase;

static const ecase ecases[] = {
    {WENC_UTF_8, false, "", ""},
    {WENC_UTF_8, false, "'a' C3 A9 E1 80 41 F0 9F 98 80 ED A0 80 F0 90",
     "61 C3A9 EFBFBD 41 F09F9880 EFBFBD EFBFBD EFBFBD EFBFBD"},
    {WENC_UTF_8, true, "0061 D83D DE00 D800 0041 DC00 D83D",
     "61 F09F9880 EFBFBD 41 EFBFBD EFBFBD"},
    {WENC_UTF_8, true, "D83D D83D DE00 DBFF DFFF", "EFBFBD F09F9880 F48FBFBF"},
    {WENC_WINDOWS_1252, false,
     "'Caf' C3 A9 E2 82 AC E2 98 83 F0 9F 98 80 C5 B8",
     "'Caf' E9 80 !2603@8+3 !1F600@11+4 9F"},
    {WENC_WINDOWS_1252, true, "0043 00E9 20AC 2603 D83D DE00 0178 D800",
     "43 E9 80 !2603@3+1 !1F600@4+2 9F !FFFD@7+1"},
    {WENC_WINDOWS_1252, false, "F4 8F BF BF E1 80 C2",
     "!10FFFF@0+4 !FFFD@4+2 !FFFD@6+1"},
    {WENC_KOI8_U, true, "0430 0410 0454 00E9", "C1 E1 A4 !E9@3+1"},
    {WENC_KOI8_U, false, "D0 B0 D0 90 D1 94 C3 A9 41", "C1 E1 A4 !E9@6+2 41"},
    {WENC_ISO_8859_6, false, "D8 A1 C2 A0 C2 A1 41", "C1 A0 !A1@4+2 41"},
    {WENC_X_USER_DEFINED, false, "41 EF 9E 80 EF 9F BF C2 80",
     "41 80 FF !80@7+2"},
    {WENC_X_USER_DEFINED, true, "F780 F7FF 0080 D800 0041 DFFF",
     "80 FF !80@2+1 !FFFD@3+1 41 !FFFD@5+1"},
    {WENC_REPLACEMENT, true, "0041 D83D DE00", "41 F09F9880"},
    {WENC_REPLACEMENT, false, "C3 A9 C3", "C3A9 EFBFBD"},
    {WENC_UTF_16BE, false, "C3 A9 C3", "C3A9 EFBFBD"},
    {WENC_UTF_16LE, true, "D83D DE00 DE00", "F09F9880 EFBFBD"},
};

static const char *bom_str(wenc_bom_mode m)
{
    return m == WENC_BOM_SNIFF ? "sniff" : m == WENC_BOM_STRIP ? "strip" : "keep";
}

/* Runs one decode variant and compares it with the reference. */
static void dec_variant(th *t, const th_dec_opts *base, const uint8_t *src,
                        size_t n, const size_t *splits, size_t k,
                        size_t capacity, const th_dec_result *ref,
                        const char *what)
{
    th_dec_opts o = *base;
    o.splits = splits;
    o.n_splits = k;
    o.capacity = capacity;
    th_dec_result r;
    th_decode(&o, src, n, &r);
    if (!th_same_decode(t, __FILE__, __LINE__, what, ref, &r)) {
        char sp[400];
        size_t off = 0;
        sp[0] = 0;
        for (size_t i = 0; i < k && off + 12 < sizeof sp; i++)
            off += (size_t)snprintf(sp + off, sizeof sp - off, "%s%zu",
                                    i ? "," : "", splits[i]);
        printf("    split points: [%s], capacity %zu\n", sp, capacity);
    }
    th_dec_result_free(&r);
}

/* Decodes src[0,k) (not last) with a fresh decoder, copies the decoder, and
 * finishes the stream with src[k,n) on the original and on the copy: both
 * must give the one-call output (the header allows forking by copy). Only
 * for replacement mode (no errors to step over). */
static void dec_fork(th *t, const th_dec_opts *base, const uint8_t *src,
                     size_t n, size_t k, const th_dec_result *ref)
{
    wenc_decoder dec;
    if (!wenc_decoder_init(&dec, base->id, base->bom, base->err))
        return;
    size_t cap = 3 * n + 16;
    uint8_t *o8 = malloc(cap);
    uint16_t *o16 = malloc(cap * sizeof *o16);
    if (!o8 || !o16)
        abort();
    size_t in = k, o = cap;
    wenc_status st = base->utf16
                         ? wenc_decode_to_utf16(&dec, k ? src : NULL, &in, o16, &o, false)
                         : wenc_decode_to_utf8(&dec, k ? src : NULL, &in, o8, &o, false);
    size_t first = o;
    bool ok = st == WENC_INPUT_EMPTY && in == k;
    wenc_decoder copy = dec;
    for (int which = 0; which < 2 && ok; which++) {
        wenc_decoder *d = which ? &copy : &dec;
        in = n - k;
        o = cap - first;
        st = base->utf16 ? wenc_decode_to_utf16(d, n - k ? src + k : NULL, &in,
                                                o16 + first, &o, true)
                         : wenc_decode_to_utf8(d, n - k ? src + k : NULL, &in,
                                               o8 + first, &o, true);
        CHECKF(t, st == WENC_INPUT_EMPTY && in == n - k,
               "fork at %zu (%s): status %d, consumed %zu", k,
               which ? "copy" : "original", (int)st, in);
        if (base->utf16)
            CHECK_UNITS(t, which ? "output of the copy" : "output of the original",
                        ref->out16.p, ref->out16.len, o16, first + o);
        else
            CHECK_BYTES(t, which ? "output of the copy" : "output of the original",
                        ref->out8.p, ref->out8.len, o8, first + o);
    }
    CHECKF(t, ok, "fork at %zu: first part status %d consumed %zu", k, (int)st,
           in);
    free(o8);
    free(o16);
}

static void test_decode_case(th *t, const dcase *c, th_rng *rng)
{
    th_bytes src = {0};
    if (!th_parse_bytes(c->in, &src)) {
        CHECKF(t, false, "test bug: bad input %s", c->in);
        return;
    }
    size_t n = src.len;
    size_t *splits = malloc((2 * n + 8) * sizeof *splits);
    if (!splits)
        abort();
    for (int m = 0; m < 3; m++) {
        const char *hand = m == 0 ? c->sniff : m == 1 ? c->strip : c->keep;
        for (int fatal = 0; fatal < 2; fatal++) {
            for (int utf16 = 0; utf16 < 2; utf16++) {
                th_ctx(t, "%s [%s] bom=%s %s to %s", wenc_name(c->id), c->in,
                       bom_str((wenc_bom_mode)m),
                       fatal ? "fatal" : "replacement",
                       utf16 ? "UTF-16" : "UTF-8");
                th_dec_opts base = {c->id, (wenc_bom_mode)m,
                                    fatal ? WENC_ERRORS_FATAL
                                          : WENC_ERRORS_REPLACEMENT,
                                    utf16 != 0, NULL, 0, 0};
                th_dec_result ref;
                th_decode(&base, src.p, n, &ref);
                CHECKF(t, ref.problem[0] == 0, "one call: %s", ref.problem);
                /* the one-call output is never more than the helper on a
                 * fresh decoder says (the driver checks each call; here the
                 * total, explicitly) */
                wenc_decoder fresh;
                if (CHECK(t, wenc_decoder_init(&fresh, base.id, base.bom,
                                               base.err))) {
                    size_t lim = utf16 ? wenc_decoder_max_utf16_len(&fresh, n)
                                       : wenc_decoder_max_utf8_len(&fresh, n);
                    size_t got = utf16 ? ref.out16.len : ref.out8.len;
                    CHECKF(t, got <= lim,
                           "one-call output %zu > max-length helper %zu", got,
                           lim);
                }
                if (hand) {
                    th_expect x;
                    if (th_expect_parse_decode(&x, hand))
                        th_check_decode_result(t, __FILE__, __LINE__, &x,
                                               src.p, n, fatal != 0,
                                               utf16 != 0, true, &ref);
                    else
                        CHECKF(t, false, "test bug: bad expectation %s", hand);
                    th_expect_free(&x);
                }
                /* every single split point, plain and with empty chunks
                 * before, between and after */
                for (size_t k = 0; k <= n; k++) {
                    size_t s1[1] = {k};
                    dec_variant(t, &base, src.p, n, s1, 1, 0, &ref,
                                "one split");
                    size_t s4[4] = {0, k, k, n};
                    dec_variant(t, &base, src.p, n, s4, 4, 0, &ref,
                                "one split with empty chunks");
                }
                if (!fatal)
                    for (size_t k = 0; k <= n; k++)
                        dec_fork(t, &base, src.p, n, k, &ref);
                /* one byte per call with an empty call between bytes */
                for (size_t i = 0; i <= n; i++)
                    splits[2 * i] = splits[2 * i + 1] = i;
                dec_variant(t, &base, src.p, n, splits, 2 * n + 2, 0, &ref,
                            "byte per call");
                for (size_t cap = 1; cap <= 6; cap++)
                    dec_variant(t, &base, src.p, n, splits, 2 * n + 2, cap,
                                &ref, "byte per call, small capacity");
                /* random multi-splits */
                for (int r = 0; r < RANDOM_SPLITS; r++) {
                    size_t k = th_random_splits(rng, n, splits, 2 * n + 8);
                    size_t cap = th_rng_below(rng, 4) == 0
                                     ? 1 + th_rng_below(rng, 8)
                                     : 0;
                    dec_variant(t, &base, src.p, n, splits, k, cap, &ref,
                                "random splits");
                }
                /* every output capacity, one chunk */
                size_t out_len = utf16 ? ref.out16.len : ref.out8.len;
                size_t max_cap = out_len + 4 > 64 ? 64 : out_len + 4;
                for (size_t cap = 1; cap <= max_cap; cap++)
                    dec_variant(t, &base, src.p, n, NULL, 0, cap, &ref,
                                "capacity");
                th_dec_result_free(&ref);
            }
        }
    }
    free(splits);
    th_bytes_free(&src);
}

static void enc_variant(th *t, const th_enc_opts *base, const void *src,
                        size_t n, const size_t *splits, size_t k,
                        size_t capacity, const th_enc_result *ref,
                        const char *what)
{
    th_enc_opts o = *base;
    o.splits = splits;
    o.n_splits = k;
    o.capacity = capacity;
    th_enc_result r;
    th_encode(&o, src, n, &r);
    if (!th_same_encode(t, __FILE__, __LINE__, what, ref, &r)) {
        char sp[400];
        size_t off = 0;
        sp[0] = 0;
        for (size_t i = 0; i < k && off + 12 < sizeof sp; i++)
            off += (size_t)snprintf(sp + off, sizeof sp - off, "%s%zu",
                                    i ? "," : "", splits[i]);
        printf("    split points: [%s], capacity %zu\n", sp, capacity);
    }
    th_enc_result_free(&r);
}

static void test_encode_case(th *t, const ecase *c, th_rng *rng)
{
    th_bytes b = {0};
    th_units u = {0};
    bool ok = c->utf16 ? th_parse_units(c->in, &u) : th_parse_bytes(c->in, &b);
    if (!ok) {
        CHECKF(t, false, "test bug: bad input %s", c->in);
        return;
    }
    const void *src = c->utf16 ? (const void *)u.p : (const void *)b.p;
    size_t n = c->utf16 ? u.len : b.len;
    size_t *splits = malloc((2 * n + 8) * sizeof *splits);
    if (!splits)
        abort();
    for (int fatal = 0; fatal < 2; fatal++) {
        th_ctx(t, "encode to %s from %s [%s] %s", wenc_name(c->id),
               c->utf16 ? "UTF-16" : "UTF-8", c->in, fatal ? "fatal" : "html");
        th_enc_opts base = {c->id, fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML,
                            c->utf16, NULL, 0, 0};
        th_enc_result ref;
        th_encode(&base, src, n, &ref);
        CHECKF(t, ref.problem[0] == 0, "one call: %s", ref.problem);
        wenc_encoder fresh;
        if (CHECK(t, wenc_encoder_init(&fresh, base.id, base.err)))
            CHECKF(t, ref.out.len <= wenc_encoder_max_len(&fresh, n),
                   "one-call output %zu > max-length helper %zu", ref.out.len,
                   wenc_encoder_max_len(&fresh, n));
        if (c->expect) {
            th_expect x;
            if (th_expect_parse_encode(&x, c->expect))
                th_check_encode_result(t, __FILE__, __LINE__, &x, fatal != 0,
                                       true, &ref);
            else
                CHECKF(t, false, "test bug: bad expectation %s", c->expect);
            th_expect_free(&x);
        }
        for (size_t k = 0; k <= n; k++) {
            size_t s1[1] = {k};
            enc_variant(t, &base, src, n, s1, 1, 0, &ref, "one split");
            size_t s4[4] = {0, k, k, n};
            enc_variant(t, &base, src, n, s4, 4, 0, &ref,
                        "one split with empty chunks");
        }
        for (size_t i = 0; i <= n; i++)
            splits[2 * i] = splits[2 * i + 1] = i;
        enc_variant(t, &base, src, n, splits, 2 * n + 2, 0, &ref,
                    "unit per call");
        for (size_t cap = 1; cap <= 6; cap++)
            enc_variant(t, &base, src, n, splits, 2 * n + 2, cap, &ref,
                        "unit per call, small capacity");
        for (int r = 0; r < RANDOM_SPLITS; r++) {
            size_t k = th_random_splits(rng, n, splits, 2 * n + 8);
            size_t cap =
                th_rng_below(rng, 4) == 0 ? 1 + th_rng_below(rng, 12) : 0;
            enc_variant(t, &base, src, n, splits, k, cap, &ref,
                        "random splits");
        }
        size_t max_cap = ref.out.len + 4 > 64 ? 64 : ref.out.len + 4;
        for (size_t cap = 1; cap <= max_cap; cap++)
            enc_variant(t, &base, src, n, NULL, 0, cap, &ref, "capacity");
        th_enc_result_free(&ref);
    }
    free(splits);
    th_bytes_free(&b);
    th_units_free(&u);
}

/* The helpers bound each call's output given what the decoder holds: feed a
 * stream whose held state is maximal before a final flush. */
static void test_helpers_with_held_state(th *t)
{
    static const struct {
        wenc_id id;
        wenc_bom_mode bom;
        const char *in;
    } held[] = {
        {WENC_UTF_8, WENC_BOM_SNIFF, "EF BB"},
        {WENC_UTF_8, WENC_BOM_KEEP, "F0 9F 98"},
        {WENC_UTF_16BE, WENC_BOM_KEEP, "D8 3D DE"},
        {WENC_UTF_16LE, WENC_BOM_SNIFF, "FF"},
        {WENC_WINDOWS_1252, WENC_BOM_SNIFF, "EF BB"},
        {WENC_X_USER_DEFINED, WENC_BOM_SNIFF, "EF BB"},
        {WENC_REPLACEMENT, WENC_BOM_SNIFF, "EF BB"},
    };
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++) {
        th_bytes src = {0};
        th_parse_bytes(held[i].in, &src);
        for (int utf16 = 0; utf16 < 2; utf16++) {
            wenc_decoder dec;
            th_ctx(t, "held state: %s [%s] to %s", wenc_name(held[i].id),
                   held[i].in, utf16 ? "UTF-16" : "UTF-8");
            if (!CHECK(t, wenc_decoder_init(&dec, held[i].id, held[i].bom,
                                            WENC_ERRORS_REPLACEMENT)))
                continue;
            uint8_t out8[64];
            uint16_t out16[64];
            size_t in = src.len, o = 64;
            wenc_status st =
                utf16 ? wenc_decode_to_utf16(&dec, src.p, &in, out16, &o, false)
                      : wenc_decode_to_utf8(&dec, src.p, &in, out8, &o, false);
            CHECK_EQ(t, "status", WENC_INPUT_EMPTY, st);
            CHECK_EQ(t, "consumed", src.len, in);
            CHECK_EQ(t, "written while held", 0, o);
            /* flush with nothing more: the held bytes come out */
            size_t lim = utf16 ? wenc_decoder_max_utf16_len(&dec, 0)
                               : wenc_decoder_max_utf8_len(&dec, 0);
            in = 0, o = 64;
            st = utf16 ? wenc_decode_to_utf16(&dec, NULL, &in, out16, &o, true)
                       : wenc_decode_to_utf8(&dec, NULL, &in, out8, &o, true);
            CHECK_EQ(t, "flush status", WENC_INPUT_EMPTY, st);
            CHECKF(t, o > 0, "flush wrote nothing");
            CHECKF(t, o <= lim, "flush wrote %zu > helper %zu", o, lim);
        }
        th_bytes_free(&src);
    }
    /* encoder holding a partial UTF-8 sequence / a high surrogate */
    wenc_encoder enc;
    th_ctx(t, "encoder held state");
    if (CHECK(t, wenc_encoder_init(&enc, WENC_WINDOWS_1252, WENC_ERRORS_HTML))) {
        static const uint8_t part[] = {0xF0, 0x9F, 0x98};
        uint8_t out[64];
        size_t in = 3, o = sizeof out;
        CHECK_EQ(t, "status", WENC_INPUT_EMPTY,
                 wenc_encode_from_utf8(&enc, part, &in, out, &o, false));
        CHECK_EQ(t, "written while held", 0, o);
        size_t lim = wenc_encoder_max_len(&enc, 0);
        in = 0, o = sizeof out;
        CHECK_EQ(t, "flush status", WENC_INPUT_EMPTY,
                 wenc_encode_from_utf8(&enc, NULL, &in, out, &o, true));
        static const char want[] = "&#65533;";
        CHECK_BYTES(t, "flushed NCR", (const uint8_t *)want, 8, out, o);
        CHECKF(t, o <= lim, "flush wrote %zu > helper %zu", o, lim);
    }
    if (CHECK(t, wenc_encoder_init(&enc, WENC_WINDOWS_1252, WENC_ERRORS_HTML))) {
        static const uint16_t hi[] = {0xD83D};
        uint8_t out[64];
        size_t in = 1, o = sizeof out;
        CHECK_EQ(t, "status", WENC_INPUT_EMPTY,
                 wenc_encode_from_utf16(&enc, hi, &in, out, &o, false));
        CHECK_EQ(t, "written while held", 0, o);
        size_t lim = wenc_encoder_max_len(&enc, 1);
        static const uint16_t lo[] = {0xDE00};
        in = 1, o = sizeof out;
        CHECK_EQ(t, "second half status", WENC_INPUT_EMPTY,
                 wenc_encode_from_utf16(&enc, lo, &in, out, &o, true));
        static const char want[] = "&#128512;";
        CHECK_BYTES(t, "NCR of the pair", (const uint8_t *)want, 9, out, o);
        CHECKF(t, o <= lim, "wrote %zu > helper %zu", o, lim);
    }
}

int main(void)
{
    th t;
    TH_BEGIN_SIMD(&t, "test_split");
    th_rng rng;
    th_rng_seed(&rng, 0x5B117C0DEull);
    for (size_t i = 0; i < sizeof dcases / sizeof dcases[0]; i++)
        test_decode_case(&t, &dcases[i], &rng);
    for (size_t i = 0; i < sizeof ecases / sizeof ecases[0]; i++)
        test_encode_case(&t, &ecases[i], &rng);
    test_helpers_with_held_state(&t);
    return th_end(&t);
}

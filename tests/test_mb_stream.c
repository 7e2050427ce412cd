/*
 * test_mb_stream.c — streaming of the legacy multi-byte codecs (§10–§13):
 * split invariance and WENC_OUTPUT_FULL for every decoder and encoder, both
 * sinks (UTF-8, UTF-16) and both readers.
 *
 * Every input below is hand-written with its expected output worked out
 * from the Standard's algorithms (code points and errors as "!offset+length"
 * for decoders, bytes and unmappable code points for encoders). Each is run
 *  - in one call and a byte/unit per call with an empty call before each
 *    (th_check_decode / th_check_encode: both error modes, both sinks);
 *  - split once at every point, and for short inputs twice at every pair of
 *    points, in both modes and sinks/readers: output and fatal error
 *    sequence identical to one call;
 *  - with output capacity 1, 2, 3, ... (WENC_OUTPUT_FULL and resumption).
 * The harness checks every call against the API contract, including that
 * no call writes more than wenc_decoder_max_utf8_len/_utf16_len or
 * wenc_encoder_max_len promised.
 * Then the ISO-2022-JP encoder's own cases from the Standard (§12.2.2) and
 * the encoder continuing after errors in fatal mode with its state.
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAIR_SPLIT_MAX 14 /* inputs up to this length: every pair of splits */

/* ------------------------------------------------------------------------ */
/* Decoder cases                                                             */
/* ------------------------------------------------------------------------ */

typedef struct dcase {
    wenc_id id;
    const char *in, *expect;
} dcase;

/* gb18030 cases, run for gb18030 and for GBK (the same decoder) */
static const dcase gb_cases[] = {
    {WENC_GB18030, "'a' 81 40 'b' 81 41", "'a' 4E02 'b' 4E04"},
    {WENC_GB18030, "80 FF 'z'", "20AC !1+1 'z'"},
    {WENC_GB18030, "81 30 81 30 81 30 81 31", "80 81"},
    {WENC_GB18030, "84 31 A4 39 90 30 81 30", "FFFF 10000"},
    {WENC_GB18030, "E3 32 9A 35 'x'", "10FFFF 'x'"},
    {WENC_GB18030, "81 35 F4 37", "E7C7"},
    /* four-byte pointer null: all four bytes are the error */
    {WENC_GB18030, "84 31 A5 30 'A'", "!0+4 'A'"},
    {WENC_GB18030, "E3 32 9A 36 84 31 A4 39", "!0+4 FFFF"},
    /* fourth byte not a digit: « second, third, byte » restored */
    {WENC_GB18030, "81 30 81 'A'", "!0+1 '0' 4E04"},
    {WENC_GB18030, "81 30 81 81 30 81 30", "!0+1 '0' 4E96 '0' !5+2"},
    {WENC_GB18030, "81 30 81 FF 'z'", "!0+1 '0' !2+2 'z'"},
    {WENC_GB18030, "81 30 81 81 30 81 30 81 31",
     "!0+1 '0' 4E96 '0' 81"},
    /* third byte not 0x81..0xFE: « second, byte » restored */
    {WENC_GB18030, "81 30 'A'", "!0+1 '0A'"},
    {WENC_GB18030, "81 30 FF 'A'", "!0+1 '0' !2+1 'A'"},
    {WENC_GB18030, "81 30 30 81 30 81 30", "!0+1 '0' '0' 80"},
    {WENC_GB18030, "81 30 80", "!0+1 '0' 20AC"},
    /* two-byte errors: an ASCII trail is restored, others consumed */
    {WENC_GB18030, "81 7F 'A'", "!0+1 7F 'A'"},
    {WENC_GB18030, "81 FF 'A'", "!0+2 'A'"},
    {WENC_GB18030, "81 3A", "!0+1 ':'"},
    {WENC_GB18030, "FE 20 FE FE", "!0+1 ' ' E4C5"},
    /* end of queue after one, two, three bytes */
    {WENC_GB18030, "'a' 81", "'a' !1+1"},
    {WENC_GB18030, "'a' 81 30", "'a' !1+2"},
    {WENC_GB18030, "'a' 81 30 81", "'a' !1+3"},
    {WENC_GB18030, "81 30 81 30 FE 39 FE", "80 !4+3"},
};

static const dcase other_cases[] = {
    /* Big5 */
    {WENC_BIG5, "'a' A4 40 A4 41 'b'", "'a' 4E00 4E59 'b'"},
    {WENC_BIG5, "88 62 88 64 88 A3 88 A5", "CA 304 CA 30C EA 304 EA 30C"},
    {WENC_BIG5, "88 62 'x' 88 A5", "CA 304 'x' EA 30C"},
    {WENC_BIG5, "A4 7F A4 80 A4 A0 A4", "!0+1 7F !2+2 !4+2 !6+1"},
    {WENC_BIG5, "81 40 FF 80 'a'", "!0+1 '@' !2+1 !3+1 'a'"},
    {WENC_BIG5, "A4", "!0+1"},
    /* EUC-JP: jis0208, 0x8E katakana, 0x8F jis0212, each cut */
    {WENC_EUC_JP, "'a' A4 A2 8E A1 8F B0 A1 'b'", "'a' 3042 FF61 4E02 'b'"},
    {WENC_EUC_JP, "8F B0 A1 8F B0 A1", "4E02 4E02"},
    {WENC_EUC_JP, "8F", "!0+1"},
    {WENC_EUC_JP, "8F B0", "!0+2"},
    {WENC_EUC_JP, "8F B0 'A'", "!0+2 'A'"},
    {WENC_EUC_JP, "8F 'A'", "!0+1 'A'"},
    {WENC_EUC_JP, "8F A1 A1 'A'", "!0+3 'A'"},
    {WENC_EUC_JP, "8F B0 80 'A'", "!0+3 'A'"},
    {WENC_EUC_JP, "8F 8F B0 A1", "!0+2 4E9C"},
    {WENC_EUC_JP, "8F 8E A1", "!0+2 !2+1"},
    {WENC_EUC_JP, "8E", "!0+1"},
    {WENC_EUC_JP, "8E E0 8E 'A' 8E A1", "!0+2 !2+1 'A' FF61"},
    {WENC_EUC_JP, "A4 'A' A4 80 FF 80 A4", "!0+1 'A' !2+2 !4+1 !5+1 !6+1"},
    /* Shift_JIS */
    {WENC_SHIFT_JIS, "'a' 82 A0 80 A1 DF F0 40 F9 FC",
     "'a' 3042 80 FF61 FF9F E000 E757"},
    {WENC_SHIFT_JIS, "82 7F 82 FD A0 82", "!0+1 7F !2+2 !4+1 !5+1"},
    {WENC_SHIFT_JIS, "E0 40 E0", "6F3E !2+1"},
    /* EUC-KR */
    {WENC_EUC_KR, "'a' B0 A1 81 41 'b'", "'a' AC00 AC02 'b'"},
    {WENC_EUC_KR, "B0 40 B0 FF FF 80 B0", "!0+1 '@' !2+2 !4+1 !5+1 !6+1"},
    /* ISO-2022-JP: ASCII state */
    {WENC_ISO_2022_JP, "'a' 0E 0F 'b' 5C 7E 80", "'a' !1+1 !2+1 'b' 5C 7E !6+1"},
    /* Roman */
    {WENC_ISO_2022_JP, "1B 28 4A 5C 7E 'a' 0E 80", "A5 203E 'a' !6+1 !7+1"},
    /* katakana */
    {WENC_ISO_2022_JP, "1B 28 49 21 5F 60 20 'a'",
     "FF61 FF9F !5+1 !6+1 !7+1"},
    /* lead byte / trail byte */
    {WENC_ISO_2022_JP, "1B 24 42 24 22 24 24 1B 28 42 'a'", "3042 3044 'a'"},
    {WENC_ISO_2022_JP, "1B 24 40 24 22", "3042"},
    {WENC_ISO_2022_JP, "1B 24 42 20 0A 80", "!3+1 !4+1 !5+1"},
    {WENC_ISO_2022_JP, "1B 24 42 24", "!3+1"},
    {WENC_ISO_2022_JP, "1B 24 42 24 0A 'a'", "!3+2 !5+1"},
    {WENC_ISO_2022_JP, "1B 24 42 24 80 24 22", "!3+2 3042"},
    {WENC_ISO_2022_JP, "1B 24 42 22 2F 24 22", "!3+2 3042"},
    /* ESC in the trail byte state: the lead byte is the error */
    {WENC_ISO_2022_JP, "1B 24 42 24 1B 28 42 'a'", "!3+1 'a'"},
    {WENC_ISO_2022_JP, "1B 24 42 24 1B 'a'", "!3+1 !4+1 !5+1"},
    /* escape start errors: the byte is read again */
    {WENC_ISO_2022_JP, "1B 'a'", "!0+1 'a'"},
    {WENC_ISO_2022_JP, "1B 1B 28 42 'a'", "!0+1 'a'"},
    {WENC_ISO_2022_JP, "1B 28 4A 1B 'x' 5C", "!3+1 'x' A5"},
    /* escape errors: lead and byte read again */
    {WENC_ISO_2022_JP, "1B 24 'a'", "!0+1 '$a'"},
    {WENC_ISO_2022_JP, "1B 28 'a'", "!0+1 '(a'"},
    {WENC_ISO_2022_JP, "1B 28 49 1B 24 41 'a'", "!3+1 FF64 FF81 !6+1"},
    {WENC_ISO_2022_JP, "1B 28 4A 1B 28 43 5C", "!3+1 '(C' A5"},
    /* two escape sequences with nothing between them */
    {WENC_ISO_2022_JP, "1B 28 4A 1B 28 42 'a'", "!3+3 'a'"},
    {WENC_ISO_2022_JP, "1B 24 42 1B 28 42", "!3+3"},
    {WENC_ISO_2022_JP, "1B 28 4A 'a' 1B 28 42 'b'", "'a' 'b'"},
    {WENC_ISO_2022_JP, "1B 28 4A 5C 1B 28 42 1B 28 4A 5C 1B 28 42",
     "A5 !7+3 A5"},
    {WENC_ISO_2022_JP, "1B 28 4A 0E 1B 28 42 'a'", "!3+1 'a'"},
    {WENC_ISO_2022_JP, "1B 28 42 'a'", "'a'"},
    /* escapes at the end of the input */
    {WENC_ISO_2022_JP, "'a' 1B", "'a' !1+1"},
    {WENC_ISO_2022_JP, "'a' 1B 24", "'a' !1+1 '$'"},
    {WENC_ISO_2022_JP, "'a' 1B 28", "'a' !1+1 '('"},
    {WENC_ISO_2022_JP, "1B 24 42 1B 28", "!3+1 !4+1"},
    {WENC_ISO_2022_JP, "1B 24 42 1B 24", "!3+1 !4+1"},
    {WENC_ISO_2022_JP, "'a' 1B 28 4A", "'a'"},
};

/* Runs everything for one decoder case. */
static void decode_case(th *t, wenc_id id, const char *in, const char *expect)
{
    th_bytes src = {0};
    if (!th_parse_bytes(in, &src)) {
        CHECKF(t, false, "test bug: bad spec [%s]", in);
        return;
    }
    th_ctx(t, "%s [%s]", wenc_name(id), in);
    /* hand-written expectation: one call, byte per call with empty calls */
    th_check_decode(t, id, WENC_BOM_KEEP, in, expect, id);
    size_t n = src.len;
    size_t splits[2];
    for (int fatal = 0; fatal < 2; fatal++) {
        for (int utf16 = 0; utf16 < 2; utf16++) {
            th_dec_opts o = {id,          WENC_BOM_KEEP,
                             fatal ? WENC_ERRORS_FATAL
                                   : WENC_ERRORS_REPLACEMENT,
                             utf16 != 0,  NULL,
                             0,           0};
            th_dec_result ref, r;
            th_decode(&o, src.p, n, &ref);
            char what[96];
            /* one split at every point */
            for (size_t s = 0; s <= n; s++) {
                splits[0] = s;
                o.splits = splits;
                o.n_splits = 1;
                th_decode(&o, src.p, n, &r);
                snprintf(what, sizeof what, "%s %s, split at %zu",
                         fatal ? "fatal" : "replacement",
                         utf16 ? "UTF-16" : "UTF-8", s);
                th_same_decode(t, __FILE__, __LINE__, what, &ref, &r);
                th_dec_result_free(&r);
            }
            /* two splits at every pair of points */
            if (n <= PAIR_SPLIT_MAX) {
                for (size_t a = 1; a < n; a++) {
                    for (size_t b = a + 1; b < n; b++) {
                        splits[0] = a;
                        splits[1] = b;
                        o.splits = splits;
                        o.n_splits = 2;
                        th_decode(&o, src.p, n, &r);
                        snprintf(what, sizeof what, "%s %s, split at %zu, %zu",
                                 fatal ? "fatal" : "replacement",
                                 utf16 ? "UTF-16" : "UTF-8", a, b);
                        th_same_decode(t, __FILE__, __LINE__, what, &ref, &r);
                        th_dec_result_free(&r);
                    }
                }
            }
            /* output capacity 1, 2, 3, ... up to the whole output */
            size_t total = utf16 ? ref.out16.len : ref.out8.len;
            o.splits = NULL;
            o.n_splits = 0;
            for (size_t cap = 1; cap <= total + 1; cap++) {
                o.capacity = cap;
                th_decode(&o, src.p, n, &r);
                snprintf(what, sizeof what, "%s %s, capacity %zu",
                         fatal ? "fatal" : "replacement",
                         utf16 ? "UTF-16" : "UTF-8", cap);
                th_same_decode(t, __FILE__, __LINE__, what, &ref, &r);
                th_dec_result_free(&r);
            }
            /* capacity 1 and 3 with a byte per call */
            size_t *every = malloc((n + 1) * sizeof *every);
            if (!every)
                abort();
            for (size_t i = 0; i <= n; i++)
                every[i] = i;
            for (size_t cap = 1; cap <= 3; cap += 2) {
                o.splits = every;
                o.n_splits = n + 1;
                o.capacity = cap;
                th_decode(&o, src.p, n, &r);
                snprintf(what, sizeof what,
                         "%s %s, byte per call, capacity %zu",
                         fatal ? "fatal" : "replacement",
                         utf16 ? "UTF-16" : "UTF-8", cap);
                th_same_decode(t, __FILE__, __LINE__, what, &ref, &r);
                th_dec_result_free(&r);
            }
            free(every);
            th_dec_result_free(&ref);
        }
    }
    th_ctx_clear(t);
    th_bytes_free(&src);
}

/* ------------------------------------------------------------------------ */
/* Encoder cases                                                             */
/* ------------------------------------------------------------------------ */

/*
 * Input as UTF-16 code units (unit spec); the expectation's error offsets
 * in UTF-16 units. The UTF-8 form of the input and the expectation with
 * offsets in UTF-8 bytes are derived here, unless the input holds a lone
 * surrogate (utf8 false). Ill-formed UTF-8 inputs are in enc8_cases.
 */
typedef struct ecase {
    wenc_id id;
    const char *in16, *expect16;
    bool utf8;
} ecase;

static const ecase enc_cases[] = {
    /* ISO-2022-JP (§12.2.2) */
    {WENC_ISO_2022_JP, "A5", "1B284A 5C 1B2842", true},
    {WENC_ISO_2022_JP, "A5 5C", "1B284A 5C 1B2842 5C", true},
    {WENC_ISO_2022_JP, "A5 'a' 203E 7E", "1B284A 5C 'a' 7E 1B2842 7E", true},
    {WENC_ISO_2022_JP, "0E 0F 1B 'a'",
     "!FFFD@0+1 !FFFD@1+1 !FFFD@2+1 'a'", true},
    {WENC_ISO_2022_JP, "A5 1B A5", "1B284A 5C !FFFD@1+1 5C 1B2842", true},
    {WENC_ISO_2022_JP, "3042 0E", "1B2442 2422 1B2842 !FFFD@1+1", true},
    {WENC_ISO_2022_JP, "3042 E000 3044",
     "1B2442 2422 1B2842 !E000@1+1 1B2442 2424 1B2842", true},
    {WENC_ISO_2022_JP, "A5 E000 A5", "1B284A 5C !E000@1+1 5C 1B2842", true},
    {WENC_ISO_2022_JP, "A5 E000 5C",
     "1B284A 5C !E000@1+1 1B2842 5C", true},
    {WENC_ISO_2022_JP, "3042 A5 3044 'a'",
     "1B2442 2422 1B284A 5C 1B2442 2424 1B2842 'a'", true},
    {WENC_ISO_2022_JP, "FF61 FF9F 2212 'a'",
     "1B2442 2123 212C 215D 1B2842 'a'", true},
    {WENC_ISO_2022_JP, "D83D DE00 3042", "!1F600@0+2 1B2442 2422 1B2842",
     true},
    {WENC_ISO_2022_JP, "3042 D83D DE00", "1B2442 2422 1B2842 !1F600@1+2",
     true},
    {WENC_ISO_2022_JP, "3042 D800 'a'", "1B2442 2422 1B2842 !FFFD@1+1 'a'",
     false},
    {WENC_ISO_2022_JP, "", "", true},
    /* gb18030 / GBK */
    {WENC_GB18030, "'a' 4E02 80 20AC E5E5 'b'",
     "'a' 8140 81308130 A2E3 !E5E5@4+1 'b'", true},
    {WENC_GB18030, "D800 DC00 E7C7 FFFF", "90308130 8135F437 8431A439", true},
    {WENC_GB18030, "DBFF DFFF FE10 E78D", "E3329A35 A6D9 A6D9", true},
    {WENC_GB18030, "DC00 D800", "8431A437 8431A437", false},
    {WENC_GBK, "'a' 4E02 80 20AC E5E5 'b'",
     "'a' 8140 !80@2+1 80 !E5E5@4+1 'b'", true},
    {WENC_GBK, "D800 DC00 E7C7 FE10 E78D", "!10000@0+2 !E7C7@2+1 A6D9 A6D9",
     true},
    /* Big5 */
    {WENC_BIG5, "4E00 2550 5341 43F0 'a'", "A440 F9F9 A451 !43F0@3+1 'a'",
     true},
    {WENC_BIG5, "D840 DC00", "!20000@0+2", true},
    /* EUC-JP */
    {WENC_EUC_JP, "3042 A5 203E FF61 2212 4E02",
     "A4A2 5C 7E 8EA1 A1DD !4E02@5+1", true},
    /* Shift_JIS */
    {WENC_SHIFT_JIS, "3042 80 A5 203E FF61 2212 2170 E000",
     "82A0 80 5C 7E A1 817C FA40 !E000@7+1", true},
    /* EUC-KR */
    {WENC_EUC_KR, "AC00 AC02 'a' 80", "B0A1 8141 'a' !80@3+1", true},
};

/* UTF-8 inputs that are not well-formed: read as U+FFFD per maximal
 * subpart, whatever the calls' boundaries. */
typedef struct e8case {
    wenc_id id;
    const char *in8, *expect;
} e8case;

static const e8case enc8_cases[] = {
    {WENC_BIG5, "'a' E4 B8 'b'", "'a' !FFFD@1+2 'b'"},
    {WENC_BIG5, "E4 B8 80 F0 9F 98", "A440 !FFFD@3+3"},
    {WENC_GB18030, "C3 'a' FF E4 B8", "8431A437 'a' 8431A437 8431A437"},
    {WENC_ISO_2022_JP, "E3 81 82 E3 81", "1B2442 2422 1B2842 !FFFD@3+2"},
    {WENC_SHIFT_JIS, "E3 81 82 ED A0 80", "82A0 !FFFD@3+1 !FFFD@4+1 !FFFD@5+1"},
    /* an overlong U+00A5, which Shift_JIS and EUC-JP write as 0x5C */
    {WENC_SHIFT_JIS, "E0 82 A5 'a'", "!FFFD@0+1 !FFFD@1+1 !FFFD@2+1 'a'"},
    {WENC_EUC_JP, "E0 82 A5 'a'", "!FFFD@0+1 !FFFD@1+1 !FFFD@2+1 'a'"},
};

/* Split invariance and capacities for an encoder input (units or bytes). */
static void encode_invariance(th *t, wenc_id id, bool from16, const void *src,
                              size_t n)
{
    size_t splits[2];
    for (int fatal = 0; fatal < 2; fatal++) {
        th_enc_opts o = {id, fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML,
                         from16, NULL, 0, 0};
        th_enc_result ref, r;
        th_encode(&o, src, n, &ref);
        char what[96];
        for (size_t s = 0; s <= n; s++) {
            splits[0] = s;
            o.splits = splits;
            o.n_splits = 1;
            th_encode(&o, src, n, &r);
            snprintf(what, sizeof what, "%s from %s, split at %zu",
                     fatal ? "fatal" : "html", from16 ? "UTF-16" : "UTF-8",
                     s);
            th_same_encode(t, __FILE__, __LINE__, what, &ref, &r);
            th_enc_result_free(&r);
        }
        if (n <= PAIR_SPLIT_MAX) {
            for (size_t a = 1; a < n; a++) {
                for (size_t b = a + 1; b < n; b++) {
                    splits[0] = a;
                    splits[1] = b;
                    o.splits = splits;
                    o.n_splits = 2;
                    th_encode(&o, src, n, &r);
                    snprintf(what, sizeof what,
                             "%s from %s, split at %zu, %zu",
                             fatal ? "fatal" : "html",
                             from16 ? "UTF-16" : "UTF-8", a, b);
                    th_same_encode(t, __FILE__, __LINE__, what, &ref, &r);
                    th_enc_result_free(&r);
                }
            }
        }
        o.splits = NULL;
        o.n_splits = 0;
        for (size_t cap = 1; cap <= ref.out.len + 1; cap++) {
            o.capacity = cap;
            th_encode(&o, src, n, &r);
            snprintf(what, sizeof what, "%s from %s, capacity %zu",
                     fatal ? "fatal" : "html", from16 ? "UTF-16" : "UTF-8",
                     cap);
            th_same_encode(t, __FILE__, __LINE__, what, &ref, &r);
            th_enc_result_free(&r);
        }
        th_enc_result_free(&ref);
    }
}

/* UTF-16 units (well-formed) to UTF-8, recording the UTF-8 offset of each
 * unit (at[i]; at[n] the end). */
static void units_to_utf8(const uint16_t *u, size_t n, th_bytes *b,
                          size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        at[i] = b->len;
        uint32_t cp = u[i];
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (u[i + 1] - 0xDC00u);
            at[i + 1] = b->len;
            i++;
        }
        th_bytes_cp(b, cp);
    }
    at[n] = b->len;
}

static void encode_case(th *t, const ecase *c)
{
    th_units u = {0};
    th_expect x16;
    memset(&x16, 0, sizeof x16);
    if (!th_parse_units(c->in16, &u) ||
        !th_expect_parse_encode(&x16, c->expect16)) {
        CHECKF(t, false, "test bug: bad spec [%s] / [%s]", c->in16,
               c->expect16);
        th_units_free(&u);
        th_expect_free(&x16);
        return;
    }
    th_ctx(t, "%s [%s]", wenc_name(c->id), c->in16);
    th_check_encode_raw(t, __FILE__, __LINE__, c->id, true, u.p, u.len, &x16);
    encode_invariance(t, c->id, true, u.p, u.len);
    if (c->utf8) {
        th_bytes b = {0};
        size_t *at = malloc((u.len + 1) * sizeof *at);
        if (!at)
            abort();
        units_to_utf8(u.p, u.len, &b, at);
        /* the same expectation with offsets and lengths in bytes */
        for (size_t e = 0; e < x16.nerr; e++) {
            size_t from = (size_t)x16.errs[e].offset;
            size_t to = from + x16.errs[e].length;
            x16.errs[e].offset = at[from];
            x16.errs[e].length = at[to] - at[from];
        }
        th_check_encode_raw(t, __FILE__, __LINE__, c->id, false, b.p, b.len,
                            &x16);
        encode_invariance(t, c->id, false, b.p, b.len);
        free(at);
        th_bytes_free(&b);
    }
    th_ctx_clear(t);
    th_units_free(&u);
    th_expect_free(&x16);
}

static void encode8_case(th *t, const e8case *c)
{
    th_bytes b = {0};
    if (!th_parse_bytes(c->in8, &b)) {
        CHECKF(t, false, "test bug: bad spec [%s]", c->in8);
        return;
    }
    th_ctx(t, "%s from UTF-8 [%s]", wenc_name(c->id), c->in8);
    th_check_encode(t, c->id, false, c->in8, c->expect);
    encode_invariance(t, c->id, false, b.p, b.len);
    th_ctx_clear(t);
    th_bytes_free(&b);
}

/* ------------------------------------------------------------------------ */
/* ISO-2022-JP encoder: the Standard's example and "encode or fail"           */
/* ------------------------------------------------------------------------ */

/* Encodes one UTF-16 string with a fresh encoder, in one call. */
static size_t encode_once(wenc_id id, wenc_error_mode mode, const uint16_t *in,
                          size_t n, uint8_t *out, size_t cap)
{
    wenc_encoder enc;
    wenc_encoder_init(&enc, id, mode);
    size_t in_len = n, out_len = cap;
    wenc_status st =
        wenc_encode_from_utf16(&enc, in, &in_len, out, &out_len, true);
    return st == WENC_INPUT_EMPTY && in_len == n ? out_len : (size_t)-1;
}

static void iso_2022_jp_standard(th *t)
{
    th_ctx(t, "ISO-2022-JP: the Standard's U+00A5 example");
    static const uint8_t yen[7] = {0x1B, 0x28, 0x4A, 0x5C, 0x1B, 0x28, 0x42};
    const uint16_t a5 = 0xA5;
    uint8_t buf[64];
    size_t n1 = encode_once(WENC_ISO_2022_JP, WENC_ERRORS_HTML, &a5, 1, buf,
                            sizeof buf);
    CHECK_BYTES(t, "U+00A5 encoded", yen, 7, buf, n1 == (size_t)-1 ? 0 : n1);
    size_t n2 = encode_once(WENC_ISO_2022_JP, WENC_ERRORS_HTML, &a5, 1,
                            buf + 7, sizeof buf - 7);
    CHECK_BYTES(t, "U+00A5 encoded again", yen, 7, buf + 7,
                n2 == (size_t)-1 ? 0 : n2);
    /* decoding the concatenation: U+00A5 U+FFFD U+00A5 */
    th_check_decode(t, WENC_ISO_2022_JP, WENC_BOM_KEEP,
                    "1B 28 4A 5C 1B 28 42 1B 28 4A 5C 1B 28 42", "A5 !7+3 A5",
                    WENC_ISO_2022_JP);

    /* encode or fail: the same encoder continues after each error, in the
     * state it was in (Roman here), writing ESC ( B before a backslash */
    th_ctx(t, "ISO-2022-JP: encode or fail keeps the encoder's state");
    wenc_encoder enc;
    CHECK(t, wenc_encoder_init(&enc, WENC_ISO_2022_JP, WENC_ERRORS_FATAL));
    const uint16_t in[5] = {0xA5, 0xE000, 0xA5, 0x1B, 0x5C};
    uint8_t out[64];
    size_t pos = 0, w = 0;
    static const struct {
        wenc_status st;
        size_t consumed;
        uint32_t cp;
        uint64_t off;
    } steps[3] = {
        {WENC_ERROR, 2, 0xE000, 1},
        {WENC_ERROR, 2, 0xFFFD, 3},
        {WENC_INPUT_EMPTY, 1, 0, 0},
    };
    static const uint8_t want[3][8] = {
        {0x1B, 0x28, 0x4A, 0x5C},
        {0x5C},
        {0x1B, 0x28, 0x42, 0x5C},
    };
    static const size_t want_len[3] = {4, 1, 4};
    for (int i = 0; i < 3; i++) {
        size_t in_len = 5 - pos, out_len = sizeof out - w;
        wenc_status st = wenc_encode_from_utf16(&enc, in + pos, &in_len,
                                                out + w, &out_len, true);
        CHECK_EQ(t, "status", steps[i].st, st);
        CHECK_EQ(t, "units consumed", steps[i].consumed, in_len);
        CHECK_BYTES(t, "bytes written", want[i], want_len[i], out + w,
                    out_len);
        if (st == WENC_ERROR) {
            wenc_encode_error e;
            CHECK(t, wenc_encoder_error(&enc, &e));
            CHECK_EQ(t, "error code point", steps[i].cp, e.code_point);
            CHECK_EQ(t, "error offset", steps[i].off, e.offset);
            CHECK_EQ(t, "error length", 1, e.length);
        }
        pos += in_len;
        w += out_len;
    }
    /* the caller's replacement after an error in the Roman state: U+005C
     * passed through the encoder comes out as ESC ( B 0x5C, never as a
     * bare 0x5C that would decode as U+00A5 */
    CHECK(t, wenc_encoder_init(&enc, WENC_ISO_2022_JP, WENC_ERRORS_FATAL));
    const uint16_t yen_then_bad[2] = {0xA5, 0x2603};
    size_t in_len = 2, out_len = sizeof out;
    wenc_status st = wenc_encode_from_utf16(&enc, yen_then_bad, &in_len, out,
                                            &out_len, false);
    CHECK_EQ(t, "U+2603 is unmappable", WENC_ERROR, st);
    CHECK_BYTES(t, "before the error", yen, 4, out, out_len);
    const uint16_t repl[7] = {'\\', 'u', '2', '6', '0', '3', 0xA5};
    size_t in2 = 7, out2 = sizeof out - out_len;
    st = wenc_encode_from_utf16(&enc, repl, &in2, out + out_len, &out2, true);
    CHECK_EQ(t, "replacement encoded", WENC_INPUT_EMPTY, st);
    static const uint8_t after[] = {0x1B, 0x28, 0x42, '\\', 'u', '2', '6',
                                    '0', '3', 0x1B, 0x28, 0x4A, 0x5C,
                                    0x1B, 0x28, 0x42};
    CHECK_BYTES(t, "replacement after the error", after, sizeof after,
                out + out_len, out2);
    th_ctx_clear(t);
}

/* The max-length helpers hold for a decoder holding bytes: after a partial
 * sequence, one more call with n bytes never writes more than promised,
 * and the promise covers the flush at the end. */
static void held_bytes(th *t)
{
    static const struct {
        wenc_id id;
        const char *held;
    } cases[] = {
        {WENC_GB18030, "81"},       {WENC_GB18030, "81 30"},
        {WENC_GB18030, "81 30 81"}, {WENC_BIG5, "88"},
        {WENC_EUC_JP, "8F"},        {WENC_EUC_JP, "8F B0"},
        {WENC_EUC_JP, "8E"},        {WENC_SHIFT_JIS, "82"},
        {WENC_EUC_KR, "B0"},        {WENC_ISO_2022_JP, "1B"},
        {WENC_ISO_2022_JP, "1B 24"}, {WENC_ISO_2022_JP, "1B 24 42 24"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_bytes h = {0};
        th_parse_bytes(cases[i].held, &h);
        for (int utf16 = 0; utf16 < 2; utf16++) {
            for (size_t more = 0; more <= 3; more++) {
                wenc_decoder dec;
                wenc_decoder_init(&dec, cases[i].id, WENC_BOM_KEEP,
                                  WENC_ERRORS_REPLACEMENT);
                uint8_t o8[64];
                uint16_t o16[64];
                size_t in_len = h.len, out_len = 64;
                wenc_status st =
                    utf16 ? wenc_decode_to_utf16(&dec, h.p, &in_len, o16,
                                                 &out_len, false)
                          : wenc_decode_to_utf8(&dec, h.p, &in_len, o8,
                                                &out_len, false);
                CHECKF(t, st == WENC_INPUT_EMPTY && in_len == h.len,
                       "%s [%s]: held", wenc_name(cases[i].id),
                       cases[i].held);
                /* `more` bytes that each fail alone: 0xFF */
                uint8_t ff[3] = {0xFF, 0xFF, 0xFF};
                size_t cap = utf16 ? wenc_decoder_max_utf16_len(&dec, more)
                                   : wenc_decoder_max_utf8_len(&dec, more);
                size_t in2 = more, out2 = cap;
                /* the output: U+FFFD for what is held (once or more) and
                 * one per 0xFF; the exact count is checked by the cases
                 * above, here only the promise */
                st = utf16 ? wenc_decode_to_utf16(&dec, more ? ff : NULL,
                                                  &in2, cap ? o16 : NULL,
                                                  &out2, true)
                           : wenc_decode_to_utf8(&dec, more ? ff : NULL, &in2,
                                                 cap ? o8 : NULL, &out2, true);
                CHECKF(t, st == WENC_INPUT_EMPTY && in2 == more && out2 <= cap,
                       "%s [%s] + %zu x FF to %s: status %d, wrote %zu of a "
                       "promised %zu",
                       wenc_name(cases[i].id), cases[i].held, more,
                       utf16 ? "UTF-16" : "UTF-8", (int)st, out2, cap);
            }
        }
        th_bytes_free(&h);
    }
}

/* All of a codec's inputs above back to back, in random multi-split runs
 * (empty chunks included) and random small capacities, against one call:
 * the states left by one input meet the next. */
static void concatenated(th *t, wenc_id id, th_rng *rng)
{
    th_bytes all = {0};
    for (size_t i = 0; i < sizeof gb_cases / sizeof gb_cases[0]; i++)
        if (id == WENC_GB18030 || id == WENC_GBK)
            th_parse_bytes(gb_cases[i].in, &all);
    for (size_t i = 0; i < sizeof other_cases / sizeof other_cases[0]; i++)
        if (other_cases[i].id == id)
            th_parse_bytes(other_cases[i].in, &all);
    th_ctx(t, "%s: every input back to back (%zu bytes)", wenc_name(id),
           all.len);
    size_t splits[64];
    for (int fatal = 0; fatal < 2; fatal++) {
        for (int utf16 = 0; utf16 < 2; utf16++) {
            th_dec_opts o = {id,          WENC_BOM_KEEP,
                             fatal ? WENC_ERRORS_FATAL
                                   : WENC_ERRORS_REPLACEMENT,
                             utf16 != 0,  NULL,
                             0,           0};
            th_dec_result ref, r;
            th_decode(&o, all.p, all.len, &ref);
            CHECKF(t, ref.problem[0] == 0, "one call: %s", ref.problem);
            for (int run = 0; run < 100; run++) {
                o.n_splits = th_random_splits(rng, all.len, splits, 64);
                o.splits = splits;
                o.capacity = run % 4 == 1 ? 1 + th_rng_below(rng, 6) : 0;
                th_decode(&o, all.p, all.len, &r);
                char what[96];
                snprintf(what, sizeof what,
                         "%s %s, random run %d (%zu splits, capacity %zu)",
                         fatal ? "fatal" : "replacement",
                         utf16 ? "UTF-16" : "UTF-8", run, o.n_splits,
                         o.capacity);
                th_same_decode(t, __FILE__, __LINE__, what, &ref, &r);
                th_dec_result_free(&r);
            }
            th_dec_result_free(&ref);
        }
    }
    th_ctx_clear(t);
    th_bytes_free(&all);
}

int main(void)
{
    th t;
    th_begin(&t, "test_mb_stream");
    if (!th_cjk(&t, "every check: all are of the legacy multi-byte encodings"))
        return th_end(&t);
    for (size_t i = 0; i < sizeof gb_cases / sizeof gb_cases[0]; i++) {
        decode_case(&t, WENC_GB18030, gb_cases[i].in, gb_cases[i].expect);
        decode_case(&t, WENC_GBK, gb_cases[i].in, gb_cases[i].expect);
    }
    for (size_t i = 0; i < sizeof other_cases / sizeof other_cases[0]; i++)
        decode_case(&t, other_cases[i].id, other_cases[i].in,
                    other_cases[i].expect);
    for (size_t i = 0; i < sizeof enc_cases / sizeof enc_cases[0]; i++)
        encode_case(&t, &enc_cases[i]);
    for (size_t i = 0; i < sizeof enc8_cases / sizeof enc8_cases[0]; i++)
        encode8_case(&t, &enc8_cases[i]);
    iso_2022_jp_standard(&t);
    held_bytes(&t);
    static const wenc_id ids[7] = {WENC_GB18030, WENC_GBK, WENC_BIG5,
                                   WENC_EUC_JP, WENC_ISO_2022_JP,
                                   WENC_SHIFT_JIS, WENC_EUC_KR};
    th_rng rng;
    th_rng_seed(&rng, 0x73747265616Dull); /* fixed */
    for (size_t i = 0; i < 7; i++)
        concatenated(&t, ids[i], &rng);
    return th_end(&t);
}

/* test_utf16.c — the shared UTF-16 decoder (§14.2.1) for UTF-16BE and
 * UTF-16LE, BOM handling, and the encoders of UTF-16BE/LE (which are UTF-8's,
 * §4.3). Expected values are written by hand from the algorithm. */
#include "harness.h"
#include "simd_level.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Input in big-endian byte order; the little-endian form swaps each complete
 * pair of bytes (a final odd byte stays as it is). Offsets and lengths are
 * the same for both. */
typedef struct vec {
    const char *be;
    const char *expect;
} vec;

static const vec vectors[] = {
    {"", ""},
    {"00 41", "41"},
    {"00 00", "0"},
    {"00 41 00 E9 20 AC FF FD FF FF", "41 E9 20AC FFFD FFFF"},
    {"FE FF", "FEFF"}, /* not at the start of a sniffing decoder: see below */
    {"D7 FF E0 00", "D7FF E000"},
    /* pairs */
    {"D8 3D DE 00", "1F600"},
    {"D8 00 DC 00", "10000"},
    {"DB FF DF FF", "10FFFF"},
    {"00 41 D8 3D DE 00 00 42", "41 1F600 42"},
    /* lone lead then BMP / another lead / end */
    {"D8 00 00 41", "!0+2 41"},
    {"D8 3D 00 41 00 42", "!0+2 41 42"},
    {"D8 00 D8 01 DC 02", "!0+2 10402"},
    {"D8 3D D8 3D DE 00", "!0+2 1F600"},
    {"D8 00 D8 00 D8 00", "!0+2 !2+2 !4+2"},
    {"D8 00 FF FE", "!0+2 FFFE"},
    {"D8 00 E0 00", "!0+2 E000"},
    {"D8 00", "!0+2"},
    {"00 41 DB FF", "41 !2+2"},
    /* lone trail */
    {"DC 00", "!0+2"},
    {"DF FF 00 41", "!0+2 41"},
    {"DC 00 D8 00", "!0+2 !2+2"},
    {"00 41 DC 00 D8 00", "41 !2+2 !4+2"},
    {"DC 00 DC 00", "!0+2 !2+2"},
    {"DE 00 D8 3D", "!0+2 !2+2"},
    /* odd length */
    {"00", "!0+1"},
    {"00 41 00", "41 !2+1"},
    {"00 41 00 42 D8", "41 42 !4+1"},
    /* lead surrogate, then one byte, then the end: one error */
    {"D8 00 00", "!0+3"},
    {"D8 00 DC", "!0+3"},
    {"00 41 D8 3D DE", "41 !2+3"},
    /* a lead at the end after a pair */
    {"D8 3D DE 00 D8 3D", "1F600 !4+2"},
};

static void swap_pairs(const uint8_t *be, size_t n, uint8_t *le)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        le[i] = be[i + 1];
        le[i + 1] = be[i];
    }
    if (n % 2)
        le[n - 1] = be[n - 1];
}

static void check_both(th *t, wenc_bom_mode bom, const char *be_spec,
                       const char *expect, int line)
{
    th_bytes be = {0};
    th_expect x;
    if (!th_parse_bytes(be_spec, &be) || !th_expect_parse_decode(&x, expect)) {
        CHECKF(t, false, "test bug at line %d", line);
        th_bytes_free(&be);
        return;
    }
    uint8_t *le = malloc(be.len ? be.len : 1);
    if (!le)
        abort();
    swap_pairs(be.p, be.len, le);
    th_check_decode_raw(t, __FILE__, line, WENC_UTF_16BE, bom, be.p, be.len,
                        &x, WENC_UTF_16BE);
    th_check_decode_raw(t, __FILE__, line, WENC_UTF_16LE, bom, le, be.len, &x,
                        WENC_UTF_16LE);
    free(le);
    th_bytes_free(&be);
    th_expect_free(&x);
}

static void test_vectors(th *t)
{
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        th_ctx(t, "vector %zu", i);
        check_both(t, WENC_BOM_KEEP, vectors[i].be, vectors[i].expect,
                   __LINE__);
        /* inputs that do not begin with FE FF / FF FE / EF BB BF decode the
         * same way under strip and sniff */
        if (strncmp(vectors[i].be, "FE FF", 5) != 0 &&
            strncmp(vectors[i].be, "FF FE", 5) != 0) {
            check_both(t, WENC_BOM_STRIP, vectors[i].be, vectors[i].expect,
                       __LINE__);
            check_both(t, WENC_BOM_SNIFF, vectors[i].be, vectors[i].expect,
                       __LINE__);
        }
    }
    /* every BMP code unit outside the surrogates, in both byte orders */
    th_ctx(t, "all BMP units");
    th_bytes be = {0}, le = {0};
    char *ex = malloc(65536 * 6 + 1);
    if (!ex)
        abort();
    size_t o = 0;
    for (uint32_t u = 0; u < 0x10000; u++) {
        if (u >= 0xD800 && u <= 0xDFFF)
            continue;
        th_bytes_byte(&be, (uint8_t)(u >> 8));
        th_bytes_byte(&be, (uint8_t)u);
        th_bytes_byte(&le, (uint8_t)u);
        th_bytes_byte(&le, (uint8_t)(u >> 8));
        o += (size_t)sprintf(ex + o, "%s%X", o ? " " : "", (unsigned)u);
    }
    th_expect x;
    CHECK(t, th_expect_parse_decode(&x, ex));
    /* start with 00 00 so no BOM is involved: u=0 first */
    for (int m = 0; m < 3; m++) {
        th_dec_opts opt = {WENC_UTF_16BE, (wenc_bom_mode)m,
                           WENC_ERRORS_FATAL, false, NULL, 0, 0};
        th_dec_result r;
        th_decode(&opt, be.p, be.len, &r);
        th_check_decode_result(t, __FILE__, __LINE__, &x, be.p, be.len, true,
                               false, true, &r);
        th_dec_result_free(&r);
        opt.id = WENC_UTF_16LE;
        opt.utf16 = true;
        th_decode(&opt, le.p, le.len, &r);
        th_check_decode_result(t, __FILE__, __LINE__, &x, le.p, le.len, true,
                               true, true, &r);
        th_dec_result_free(&r);
    }
    th_expect_free(&x);
    free(ex);
    th_bytes_free(&be);
    th_bytes_free(&le);
    /* every pair with a sample of leads and all trails */
    th_ctx(t, "surrogate pairs");
    static const uint16_t leads[] = {0xD800, 0xD801, 0xD83D, 0xDBFE, 0xDBFF};
    for (size_t i = 0; i < 5; i++) {
        th_bytes b = {0};
        char *e2 = malloc(1024 * 8 + 1);
        if (!e2)
            abort();
        size_t eo = 0;
        for (uint32_t tr = 0xDC00; tr <= 0xDFFF; tr++) {
            th_bytes_byte(&b, (uint8_t)(leads[i] >> 8));
            th_bytes_byte(&b, (uint8_t)leads[i]);
            th_bytes_byte(&b, (uint8_t)(tr >> 8));
            th_bytes_byte(&b, (uint8_t)tr);
            uint32_t cp = 0x10000 + ((uint32_t)(leads[i] - 0xD800) << 10) +
                          (tr - 0xDC00);
            eo += (size_t)sprintf(e2 + eo, "%s%X", eo ? " " : "",
                                  (unsigned)cp);
        }
        th_expect xe;
        CHECK(t, th_expect_parse_decode(&xe, e2));
        th_dec_opts opt = {WENC_UTF_16BE, WENC_BOM_KEEP, WENC_ERRORS_FATAL,
                           false, NULL, 0, 0};
        th_dec_result r;
        th_decode(&opt, b.p, b.len, &r);
        th_check_decode_result(t, __FILE__, __LINE__, &xe, b.p, b.len, true,
                               false, true, &r);
        th_dec_result_free(&r);
        opt.utf16 = true;
        th_decode(&opt, b.p, b.len, &r);
        th_check_decode_result(t, __FILE__, __LINE__, &xe, b.p, b.len, true,
                               true, true, &r);
        th_dec_result_free(&r);
        th_expect_free(&xe);
        th_bytes_free(&b);
        free(e2);
    }
    th_ctx_clear(t);
}

static void test_boms(th *t)
{
    th_ctx(t, "UTF-16LE label, sniff");
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FE FF 00 41", "41",
                    WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FE FF 00 41 D8 3D DE 00",
                    "41 1F600", WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FE FF D8 00 00 41",
                    "!2+2 41", WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FF FE 41 00", "41",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FF FE", "",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FF FE FF FE", "FEFF",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FF FE 41", "!2+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "EF BB BF 41", "41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "EF BB BF", "",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "EF BB 41 00",
                    "BBEF 41", WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "EF BB", "BBEF",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FE", "!0+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "FF", "!0+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "EF", "!0+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_SNIFF, "41 00 FF FE",
                    "41 FEFF", WENC_UTF_16LE);
    th_ctx(t, "UTF-16BE label, sniff");
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_SNIFF, "FF FE 41 00", "41",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_SNIFF, "FF FE 41", "!2+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_SNIFF, "FE FF 00 41", "41",
                    WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_SNIFF, "EF BB BF C3 A9", "E9",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_SNIFF, "EF BB 00 41",
                    "EFBB 41", WENC_UTF_16BE);

    th_ctx(t, "strip: only the encoding's own BOM");
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_STRIP, "FF FE 41 00", "41",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_STRIP, "FF FE FF FE 41 00",
                    "FEFF 41", WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_STRIP, "FE FF 41 00",
                    "FFFE 41", WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_STRIP, "EF BB BF 00",
                    "BBEF BF", WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_STRIP, "FF", "!0+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_STRIP, "FF FE 41", "!2+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_STRIP, "FE FF 00 41", "41",
                    WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_STRIP, "FF FE 00 41",
                    "FFFE 41", WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_STRIP, "FE FF FE FF",
                    "FEFF", WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_STRIP, "00 41 FE FF",
                    "41 FEFF", WENC_UTF_16BE);

    th_ctx(t, "keep");
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_KEEP, "FF FE 41 00",
                    "FEFF 41", WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16LE, WENC_BOM_KEEP, "FE FF 41 00",
                    "FFFE 41", WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_KEEP, "FE FF 00 41",
                    "FEFF 41", WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_16BE, WENC_BOM_KEEP, "EF BB BF 00",
                    "EFBB BF00", WENC_UTF_16BE);
    th_ctx_clear(t);
}

static void test_encoders(th *t)
{
    wenc_encoder enc;
    static const wenc_id ids[2] = {WENC_UTF_16BE, WENC_UTF_16LE};
    for (int i = 0; i < 2; i++) {
        th_ctx(t, "encoder of %s", wenc_name(ids[i]));
        CHECK(t, !wenc_has_encoder(ids[i]));
        CHECK(t, wenc_output_encoding(ids[i]) == WENC_UTF_8);
        CHECK(t, wenc_encoder_init(&enc, ids[i], WENC_ERRORS_HTML));
        CHECK(t, wenc_encoder_encoding(&enc) == WENC_UTF_8);
        CHECK(t, wenc_encoder_init(&enc, ids[i], WENC_ERRORS_FATAL));
        CHECK(t, wenc_encoder_encoding(&enc) == WENC_UTF_8);
        th_check_encode(t, ids[i], true, "0041 D83D DE00",
                        "41 F0 9F 98 80");
        th_check_encode(t, ids[i], true, "FEFF 00E9", "EF BB BF C3 A9");
        th_check_encode(t, ids[i], true, "D800 0041", "EF BF BD 41");
        th_check_encode(t, ids[i], false, "C3 A9 'z'", "C3 A9 'z'");
        th_check_encode(t, ids[i], false, "C3", "EF BF BD");
    }
    th_ctx_clear(t);
}

/* ---- the UTF-16 output extension (wenc_encoder_init_utf16) ------------ */

/* The bytes of cp in the UTF-16 encoding form (one unit below U+10000,
 * else the pair 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF) of
 * v = cp - 0x10000), little- or big-endian. */
static void expect_utf16(th_bytes *x, uint32_t cp, bool big_endian)
{
    uint32_t units[2] = {cp, 0};
    size_t n = 1;
    if (cp >= 0x10000) {
        units[0] = 0xD800 + ((cp - 0x10000) >> 10);
        units[1] = 0xDC00 + ((cp - 0x10000) & 0x3FF);
        n = 2;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t hi = (uint8_t)(units[i] >> 8), lo = (uint8_t)units[i];
        th_bytes_byte(x, big_endian ? hi : lo);
        th_bytes_byte(x, big_endian ? lo : hi);
    }
}

/* Encodes n units of src (UTF-8 bytes, or UTF-16 units with from16) with a
 * UTF-16 output encoder in two chunks split at `cut`, each in calls of
 * `cap` bytes of room (0: what wenc_encoder_max_len() says), into *out;
 * false, with *why, where a call breaks a promise of the API. */
static bool utf16_output_run(wenc_encoder *enc, bool from16, const void *src,
                             size_t n, size_t cut, size_t cap, th_bytes *out,
                             char why[160])
{
    size_t at = 0;
    out->len = 0;
    for (int chunk = 0; chunk < 2; chunk++) {
        size_t end = chunk == 0 ? cut : n;
        bool last = chunk == 1;
        for (int calls = 0;; calls++) {
            size_t rem = end - at, in_len = rem;
            size_t max = wenc_encoder_max_len(enc, rem);
            size_t out_len = cap ? cap : max, given = out_len;
            /* four canary bytes past the room, which must stay */
            uint8_t *dst = malloc(given + 4);
            if (dst == NULL) {
                snprintf(why, 160, "out of memory");
                return false;
            }
            memset(dst + given, 0xA5, 4);
            wenc_status st =
                from16 ? wenc_encode_from_utf16(
                             enc, rem ? (const uint16_t *)src + at : NULL,
                             &in_len, dst, &out_len, last)
                       : wenc_encode_from_utf8(
                             enc, rem ? (const uint8_t *)src + at : NULL,
                             &in_len, dst, &out_len, last);
            th_bytes_put(out, dst, out_len < given ? out_len : given);
            bool canary = dst[given] == 0xA5 && dst[given + 1] == 0xA5 &&
                          dst[given + 2] == 0xA5 && dst[given + 3] == 0xA5;
            free(dst);
            at += in_len;
            if (!canary) {
                snprintf(why, 160, "call %d wrote past its %zu bytes of room",
                         calls, given);
                return false;
            }
            if (st == WENC_ERROR || in_len > rem || out_len > max ||
                (cap == 0 && st != WENC_INPUT_EMPTY) || calls > 4 * (int)n + 8) {
                snprintf(why, 160,
                         "status %d, %zu of %zu units read, %zu bytes written "
                         "(max_len %zu), call %d",
                         (int)st, in_len, rem, out_len, max, calls);
                return false;
            }
            if (st == WENC_INPUT_EMPTY)
                break;
        }
        if (at != end) {
            snprintf(why, 160, "chunk %d: %zu of %zu units read", chunk, at,
                     end);
            return false;
        }
    }
    return true;
}

/*
 * wenc_encoder_init_utf16(): every kind of code point (each UTF-8 length,
 * the ends of the BMP's ranges, U+FEFF itself, a pair's bounds) from UTF-8
 * and from UTF-16, little- and big-endian, with and without a BOM, split at
 * every place and given 4, 5, 6, 7 or 9 bytes of room a call or the
 * max-length helper's; ill-formed input (each as U+FFFD per maximal
 * subpart, or per unpaired surrogate), with hand-written expected bytes;
 * reset after a stream, with input held and with the BOM not yet written,
 * each writing the BOM again; and init for another encoding, which fails.
 * Expected output from the UTF-16 encoding form (expect_utf16).
 */
static void test_utf16_output(th *t)
{
    static const uint32_t cps[] = {0x00,   0x41,   0x7F,    0x80,    0xE9,
                                   0x7FF,  0x800,  0x3042,  0xD7FF,  0xE000,
                                   0xFEFF, 0xFFFD, 0xFFFF,  0x10000, 0x1F600,
                                   0x10FFFF};
    const size_t count = sizeof cps / sizeof cps[0];
    th_bytes in8 = {0}, got = {0};
    th_units in16 = {0};
    for (size_t i = 0; i < count; i++) {
        th_bytes_cp(&in8, cps[i]);
        th_units_cp(&in16, cps[i]);
    }
    static const size_t caps[] = {4, 5, 6, 7, 9, 0};
    wenc_encoder enc;
    char why[160];
    for (int big = 0; big < 2; big++) {
        wenc_id id = big ? WENC_UTF_16BE : WENC_UTF_16LE;
        for (int bom = 0; bom < 2; bom++) {
            th_bytes want = {0};
            if (bom)
                expect_utf16(&want, 0xFEFF, big);
            for (size_t i = 0; i < count; i++)
                expect_utf16(&want, cps[i], big);
            for (int from16 = 0; from16 < 2; from16++) {
                size_t n = from16 ? in16.len : in8.len;
                const void *src = from16 ? (const void *)in16.p
                                         : (const void *)in8.p;
                for (size_t cut = 0; cut <= n; cut++) {
                    for (size_t c = 0; c < sizeof caps / sizeof caps[0];
                         c++) {
                        th_ctx(t, "%s%s from %s, cut at %zu, room %zu",
                               wenc_name(id), bom ? " with BOM" : "",
                               from16 ? "UTF-16" : "UTF-8", cut, caps[c]);
                        CHECK(t, wenc_encoder_init_utf16(&enc, id, bom));
                        if (utf16_output_run(&enc, from16, src, n, cut,
                                             caps[c], &got, why))
                            CHECK_BYTES(t, "output", want.p, want.len,
                                        got.p, got.len);
                        else
                            CHECKF(t, false, "%s", why);
                    }
                }
            }
            /* after a reset, the same again (the BOM included) */
            th_ctx(t, "%s%s, reset", wenc_name(id), bom ? " with BOM" : "");
            CHECK(t, wenc_encoder_init_utf16(&enc, id, bom));
            CHECK(t, wenc_encoder_encoding(&enc) == id);
            for (int round = 0; round < 2; round++) {
                if (utf16_output_run(&enc, false, in8.p, in8.len, 3, 0, &got,
                                     why))
                    CHECK_BYTES(t, "output", want.p, want.len, got.p,
                                got.len);
                else
                    CHECKF(t, false, "%s", why);
                wenc_encoder_reset(&enc);
                CHECK(t, wenc_encoder_encoding(&enc) == id);
            }
            th_bytes_free(&want);
        }
    }
    /* ill-formed input, little-endian: U+FFFD is FD FF */
    static const struct {
        bool from16;
        const char *in, *out;
    } ill[] = {
        {false, "C3", "FD FF"},
        {false, "E3 81 'A'", "FD FF 41 00"},
        {false, "ED A0 80", "FD FF FD FF FD FF"},
        {false, "C0 80", "FD FF FD FF"},
        {false, "80 FF", "FD FF FD FF"},
        {false, "F0 9F 98", "FD FF"},
        {false, "F4 90 80 80", "FD FF FD FF FD FF FD FF"},
        {true, "D800", "FD FF"},
        {true, "DC00 0041", "FD FF 41 00"},
        {true, "D83D D83D DE00", "FD FF 3D D8 00 DE"},
        {true, "DBFF DFFF DFFF", "FF DB FF DF FD FF"},
    };
    for (size_t i = 0; i < sizeof ill / sizeof ill[0]; i++) {
        th_bytes want = {0}, in_bytes = {0};
        th_units in_units = {0};
        th_ctx(t, "UTF-16LE from ill-formed %s %s",
               ill[i].from16 ? "UTF-16" : "UTF-8", ill[i].in);
        bool parsed = th_parse_bytes(ill[i].out, &want) &&
                      (ill[i].from16 ? th_parse_units(ill[i].in, &in_units)
                                     : th_parse_bytes(ill[i].in, &in_bytes));
        CHECKF(t, parsed, "test bug: a spec does not parse");
        size_t n = ill[i].from16 ? in_units.len : in_bytes.len;
        for (size_t cut = 0; parsed && cut <= n; cut++) {
            CHECK(t, wenc_encoder_init_utf16(&enc, WENC_UTF_16LE, false));
            if (utf16_output_run(&enc, ill[i].from16,
                                 ill[i].from16 ? (const void *)in_units.p
                                               : (const void *)in_bytes.p,
                                 n, cut, 4, &got, why))
                CHECK_BYTES(t, "output", want.p, want.len, got.p, got.len);
            else
                CHECKF(t, false, "%s", why);
        }
        th_bytes_free(&want);
        th_bytes_free(&in_bytes);
        th_units_free(&in_units);
    }
    /* reset with the BOM not yet written (no room), and with the first two
     * bytes of U+1F600 held: the next stream is the BOM and 'A' alone */
    for (int held = 0; held < 2; held++) {
        th_ctx(t, "UTF-16BE with BOM, reset with %s", held ? "input held"
                                                           : "the BOM unwritten");
        CHECK(t, wenc_encoder_init_utf16(&enc, WENC_UTF_16BE, true));
        static const uint8_t partial[2] = {0xF0, 0x9F};
        uint8_t room[8];
        size_t n = held ? 2 : 0, m = held ? sizeof room : 0;
        wenc_status st = wenc_encode_from_utf8(&enc, held ? partial : NULL,
                                               &n, held ? room : NULL, &m,
                                               false);
        CHECK(t, held ? st == WENC_INPUT_EMPTY && n == 2 && m == 2
                      : st == WENC_OUTPUT_FULL && m == 0);
        wenc_encoder_reset(&enc);
        static const uint8_t a = 'A';
        n = 1;
        m = sizeof room;
        st = wenc_encode_from_utf8(&enc, &a, &n, room, &m, true);
        CHECK(t, st == WENC_INPUT_EMPTY && n == 1);
        static const uint8_t bom_a[4] = {0xFE, 0xFF, 0x00, 0x41};
        CHECK_BYTES(t, "after reset", bom_a, 4, room, m);
    }
    th_ctx(t, "wenc_encoder_init_utf16 for other encodings");
    CHECK(t, !wenc_encoder_init_utf16(&enc, WENC_UTF_8, false));
    CHECK(t, !wenc_encoder_init_utf16(&enc, WENC_SHIFT_JIS, true));
    CHECK(t, !wenc_encoder_init_utf16(&enc, WENC_INVALID, false));
    th_ctx_clear(t);
    th_bytes_free(&in8);
    th_bytes_free(&got);
    th_units_free(&in16);
}

/* Long inputs, where the decoders' four-units-at-a-time copy runs: units
 * drawn from runs of BMP text, pairs, and lone leads and trails at every
 * offset, as UTF-16BE and UTF-16LE, decoded whole and in uneven chunks to
 * UTF-16 and UTF-8. Expected: pairs kept, any other surrogate U+FFFD. */
static void test_long_mixed(th *t)
{
    static const uint16_t palette[] = {0x0041, 0x3042, 0xFFFF, 0xD7FF,
                                       0xE000, 0xD800, 0xDBFF, 0xDC00,
                                       0xDFFF, 0xD83D, 0xDE00, 0x00E9,
                                       0x0080, 0x07FF, 0x0800, 0x0430};
    const size_t kinds = sizeof palette / sizeof palette[0];
    uint32_t rng = 11;
    for (int round = 0; round < 400; round++) {
        uint16_t units[300];
        size_t n = (size_t)round % 300;
        for (size_t i = 0; i < n; i++) {
            rng = rng * 1103515245u + 12345u;
            units[i] = round % 4 == 0 && (rng >> 16) % 9 ? 0x0061
                                                           : palette[(rng >> 16) % kinds];
        }
        th_units want16 = {0};
        th_bytes want8 = {0};
        for (size_t i = 0; i < n; i++) {
            uint32_t cp = units[i];
            if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n &&
                units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (units[i + 1] - 0xDC00);
                i++;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            th_units_cp(&want16, cp);
            th_bytes_cp(&want8, cp);
        }
        for (int be = 0; be < 2; be++) {
            uint8_t bytes[600];
            for (size_t i = 0; i < n; i++) {
                bytes[2 * i + (be ? 0 : 1)] = (uint8_t)(units[i] >> 8);
                bytes[2 * i + (be ? 1 : 0)] = (uint8_t)(units[i] & 0xFF);
            }
            th_ctx(t, "long mixed %s round %d (%zu units)",
                   be ? "UTF-16BE" : "UTF-16LE", round, n);
            for (int chunked = 0; chunked < 2; chunked++) {
                wenc_decoder d16, d8;
                wenc_id id = be ? WENC_UTF_16BE : WENC_UTF_16LE;
                wenc_decoder_init(&d16, id, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
                wenc_decoder_init(&d8, id, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
                static uint16_t got16[700];
                static uint8_t got8[2000];
                size_t in = 0, o16 = 0, o8 = 0;
                do {
                    rng = rng * 1103515245u + 12345u;
                    size_t chunk = chunked ? (rng >> 16) % 23 : 2 * n;
                    if (chunk > 2 * n - in)
                        chunk = 2 * n - in;
                    bool last = in + chunk == 2 * n;
                    size_t c16 = chunk, c8 = chunk;
                    size_t r16 = sizeof got16 / 2 - o16, r8 = sizeof got8 - o8;
                    CHECK(t, wenc_decode_to_utf16(&d16, bytes + in, &c16,
                                                  got16 + o16, &r16, last) ==
                                 WENC_INPUT_EMPTY);
                    CHECK(t, wenc_decode_to_utf8(&d8, bytes + in, &c8,
                                                 got8 + o8, &r8, last) ==
                                 WENC_INPUT_EMPTY);
                    CHECK(t, c16 == chunk && c8 == chunk);
                    in += chunk;
                    o16 += r16;
                    o8 += r8;
                } while (in < 2 * n);
                CHECK_UNITS(t, "to UTF-16", want16.p, want16.len, got16, o16);
                CHECK_BYTES(t, "to UTF-8", want8.p, want8.len, got8, o8);
            }
        }
        th_units_free(&want16);
        th_bytes_free(&want8);
    }
    th_ctx_clear(t);
}

/* Decoding to UTF-8 into exactly the room the output needs, and one and
 * two bytes less: units of three bytes, of two, of one, and the three
 * mixed, 0 to 24 of them, as UTF-16BE and UTF-16LE, in one call. The
 * output is the text (or, short of room, a prefix of it ending at a code
 * point), and the four bytes past the room stay as they were. */
static void test_exact_room_utf8(th *t)
{
    static const uint16_t kinds[4][3] = {{0x3042, 0x3042, 0x3042},
                                         {0x00E9, 0x07FF, 0x0430},
                                         {0x0041, 0x007F, 0x0020},
                                         {0x0800, 0x0041, 0x07FF}};
    for (int be = 0; be < 2; be++) {
        for (int kind = 0; kind < 4; kind++) {
            for (size_t n = 0; n <= 24; n++) {
                uint8_t bytes[48];
                th_bytes want = {0};
                for (size_t i = 0; i < n; i++) {
                    uint16_t unit = kinds[kind][i % 3];
                    bytes[2 * i + (be ? 0 : 1)] = (uint8_t)(unit >> 8);
                    bytes[2 * i + (be ? 1 : 0)] = (uint8_t)unit;
                    th_bytes_cp(&want, unit);
                }
                for (size_t less = 0; less <= 2 && less <= want.len; less++) {
                    size_t room = want.len - less, given = room;
                    th_ctx(t, "%s, %zu units of kind %d into %zu bytes",
                           be ? "UTF-16BE" : "UTF-16LE", n, kind, room);
                    uint8_t *dst = malloc(room + 4);
                    if (dst == NULL)
                        abort();
                    memset(dst, 0xA5, room + 4);
                    wenc_decoder dec;
                    wenc_decoder_init(&dec, be ? WENC_UTF_16BE : WENC_UTF_16LE,
                                      WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
                    size_t in = 2 * n;
                    wenc_status st = wenc_decode_to_utf8(&dec, bytes, &in, dst,
                                                         &room, true);
                    CHECK(t, st == (less == 0 ? WENC_INPUT_EMPTY
                                              : WENC_OUTPUT_FULL));
                    CHECK(t, room <= given && room + 2 >= given);
                    CHECK_BYTES(t, "output", want.p, room, dst, room);
                    CHECK(t, dst[given] == 0xA5 && dst[given + 1] == 0xA5 &&
                                 dst[given + 2] == 0xA5 &&
                                 dst[given + 3] == 0xA5);
                    free(dst);
                }
                th_bytes_free(&want);
            }
        }
    }
    th_ctx_clear(t);
}

/* Decodes units[0..n) as UTF-16BE (`be`) or UTF-16LE to UTF-8 in one call
 * into exactly the room `want` needs: the output is `want`, and the 16
 * bytes past the room stay as they were (the SIMD decoders' stores reach
 * past what they make, never past the room). */
static void check_utf8_in_exact_room(th *t, const uint16_t *units, size_t n,
                                     int be, const th_bytes *want)
{
    uint8_t *bytes = malloc(2 * n + 1), *dst = malloc(want->len + 16);
    if (bytes == NULL || dst == NULL)
        abort();
    for (size_t i = 0; i < n; i++) {
        bytes[2 * i + (be ? 0 : 1)] = (uint8_t)(units[i] >> 8);
        bytes[2 * i + (be ? 1 : 0)] = (uint8_t)units[i];
    }
    memset(dst, 0xA5, want->len + 16);
    wenc_decoder dec;
    wenc_decoder_init(&dec, be ? WENC_UTF_16BE : WENC_UTF_16LE, WENC_BOM_KEEP,
                      WENC_ERRORS_REPLACEMENT);
    size_t in = 2 * n, room = want->len;
    wenc_status st = wenc_decode_to_utf8(&dec, bytes, &in, dst, &room, true);
    CHECK(t, st == WENC_INPUT_EMPTY && in == 2 * n);
    CHECK_BYTES(t, "output", want->p, want->len, dst, room);
    size_t untouched = want->len;
    while (untouched < want->len + 16 && dst[untouched] == 0xA5)
        untouched++;
    CHECKF(t, untouched == want->len + 16, "byte %zu past the room was written",
           untouched - want->len);
    free(bytes);
    free(dst);
}

/* Decoding to UTF-8 of units of three bytes (Chinese, Japanese, Thai), the
 * SIMD decoders' 16 at a time: a run of 0 to 72 units of three bytes
 * (U+0800, U+FFFF, U+D7FF, U+E000 among them), a break (none, ASCII,
 * U+0080, U+07FF, a lone surrogate, a pair), then 0 to 40 more, as UTF-16BE
 * and UTF-16LE, into exactly the room the output needs. */
static void test_three_byte_runs_utf8(th *t)
{
    static const uint16_t breaks[][2] = {{0, 0},      {0x41, 0},
                                         {0x80, 0},   {0x7FF, 0},
                                         {0xD800, 0}, {0xDFFF, 0},
                                         {0xD83D, 0xDE00}};
    static const uint16_t edges[] = {0x0800, 0xFFFF, 0xD7FF, 0xE000};
    enum { BREAKS = sizeof breaks / sizeof breaks[0], MOST = 72 + 2 + 40 };
    for (int be = 0; be < 2; be++) {
        for (size_t run = 0; run <= 72; run++) {
            for (size_t b = 0; b < BREAKS; b++) {
                for (size_t tail = 0; tail <= 40; tail += 1 + tail / 8) {
                    uint16_t units[MOST];
                    size_t n = 0;
                    th_bytes want = {0};
                    for (size_t i = 0; i < run + tail; i++) {
                        if (i == run && b > 0) {
                            units[n++] = breaks[b][0];
                            if (breaks[b][1] != 0)
                                units[n++] = breaks[b][1];
                            uint32_t cp = breaks[b][1] != 0 ? 0x1F600
                                          : breaks[b][0] >= 0xD800 &&
                                                  breaks[b][0] <= 0xDFFF
                                              ? 0xFFFD
                                              : breaks[b][0];
                            th_bytes_cp(&want, cp);
                        }
                        units[n] = i % 11 == 10 ? edges[i / 11 % 4]
                                                : (uint16_t)(0x4E00 + i * 37 % 0x5000);
                        th_bytes_cp(&want, units[n++]);
                    }
                    th_ctx(t, "%s, %zu units of three bytes, break %zu, %zu more",
                           be ? "UTF-16BE" : "UTF-16LE", run, b, tail);
                    check_utf8_in_exact_room(t, units, n, be, &want);
                    th_bytes_free(&want);
                }
            }
        }
    }
    th_ctx_clear(t);
}

/* Units of three bytes, then ASCII to the end (0-24 of each), decoded to
 * UTF-8 into exactly the room needed, both byte orders. */
static void test_three_then_ascii_utf8(th *t)
{
    for (int be = 0; be < 2; be++) {
        for (size_t threes = 0; threes <= 24; threes++) {
            for (size_t ascii = 0; ascii <= 24; ascii++) {
                uint16_t units[48];
                th_bytes want = {0};
                size_t n = threes + ascii;
                for (size_t i = 0; i < n; i++) {
                    units[i] = i < threes ? (uint16_t)(0x4E00 + 53 * i)
                                          : (uint16_t)('a' + i);
                    th_bytes_cp(&want, units[i]);
                }
                th_ctx(t, "%s, %zu units of three bytes, then %zu ASCII",
                       be ? "UTF-16BE" : "UTF-16LE", threes, ascii);
                check_utf8_in_exact_room(t, units, n, be, &want);
                th_bytes_free(&want);
            }
        }
    }
    th_ctx_clear(t);
}

/* Decoding to UTF-8 of units of every length and no surrogate, mixed within
 * each four (Vietnamese: ASCII, two- and three-byte letters side by side),
 * 16 to 111 of them, both byte orders, into exactly the room needed: each
 * of the SIMD decoders' 16-unit packings meets many of its 256 forms. */
static void test_bmp_mixed_utf8(th *t)
{
    static const uint16_t palette[] = {0x0020, 0x0061, 0x007F, 0x0080,
                                       0x00E9, 0x01B0, 0x07FF, 0x0800,
                                       0x1EC7, 0x3042, 0xD7FF, 0xE000,
                                       0xFEFF, 0xFFFF};
    uint32_t rng = 7;
    for (int round = 0; round < 384; round++) {
        uint16_t units[112];
        size_t n = 16 + (size_t)round % 96;
        th_bytes want = {0};
        for (size_t i = 0; i < n; i++) {
            rng = rng * 1103515245u + 12345u;
            units[i] = palette[(rng >> 16) % (sizeof palette / sizeof palette[0])];
            th_bytes_cp(&want, units[i]);
        }
        for (int be = 0; be < 2; be++) {
            th_ctx(t, "%s, mixed round %d (%zu units)",
                   be ? "UTF-16BE" : "UTF-16LE", round, n);
            check_utf8_in_exact_room(t, units, n, be, &want);
        }
        th_bytes_free(&want);
    }
    th_ctx_clear(t);
}

/* Encodes units[0..n) (no lone surrogate at its end) to UTF-8 with
 * wenc_encode_from_utf16() in one call, into `want`'s length and into 24
 * bytes more: the output is `want`, and no byte past it is written (as
 * TextEncoder's encodeInto() requires). */
static void check_utf8_encoded(th *t, const uint16_t *units, size_t n,
                               const th_bytes *want)
{
    for (size_t more = 0; more <= 24; more += 24) {
        uint8_t *dst = malloc(want->len + 24 + 16);
        if (dst == NULL)
            abort();
        memset(dst, 0xA5, want->len + 24 + 16);
        wenc_encoder enc;
        wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_FATAL);
        size_t used = n, room = want->len + more;
        wenc_status st =
            wenc_encode_from_utf16(&enc, units, &used, dst, &room, true);
        CHECK(t, st == WENC_INPUT_EMPTY && used == n);
        CHECK_BYTES(t, "encoded", want->p, want->len, dst, room);
        size_t untouched = want->len;
        while (untouched < want->len + 24 + 16 && dst[untouched] == 0xA5)
            untouched++;
        CHECKF(t, untouched == want->len + 24 + 16,
               "byte %zu past the output was written (room %zu more)",
               untouched - want->len, more);
        free(dst);
    }
}

/* The eight-unit steps of UTF-16 to UTF-8 (both decoders and the UTF-8
 * encoder): after 0 to 8 ASCII units, a block of 8 whose units at each of
 * the 256 sets of places are not ASCII (two bytes, three bytes, the two in
 * turn, a lone surrogate at the set's last place, a pair starting there,
 * or pairs at every place), then 24 ASCII units. The expected bytes come from the code
 * points, one at a time (th_bytes_cp). */
static void test_eight_unit_steps_utf8(th *t)
{
    static const char *const kinds[] = {"two-byte", "three-byte", "mixed",
                                        "lone surrogate", "pair", "pairs"};
    for (size_t lead = 0; lead <= 8; lead++) {
        for (unsigned places = 0; places < 256; places++) {
            for (int kind = 0; kind < 6; kind++) {
                uint16_t units[8 + 16 + 24];
                size_t n = 0;
                th_bytes want = {0};
                for (size_t i = 0; i < lead; i++)
                    units[n++] = (uint16_t)('a' + i);
                unsigned last = 0;
                for (unsigned k = 0; k < 8; k++)
                    if (places >> k & 1)
                        last = k;
                for (unsigned k = 0; k < 8; k++) {
                    uint16_t unit = (uint16_t)('A' + k);
                    if (places >> k & 1) {
                        bool three = kind == 1 || (kind == 2 && k % 2 == 1);
                        unit = three ? (uint16_t)(0x3041 + k * 0x500)
                                     : (uint16_t)(0x00C0 + k * 0x97);
                        if ((kind == 3 || kind == 4) && k == last)
                            unit = kind == 3 ? 0xDC00 : 0xD83D;
                        if (kind == 5)
                            unit = 0xD83D;
                    }
                    units[n++] = unit;
                    if (unit == 0xD83D)
                        units[n++] = 0xDE00;
                }
                for (size_t i = 0; i < 24; i++)
                    units[n++] = (uint16_t)('0' + i % 10);
                for (size_t i = 0; i < n; i++) {
                    if (units[i] == 0xD83D) {
                        th_bytes_cp(&want, 0x1F600);
                        i++;
                    } else {
                        th_bytes_cp(&want, units[i] == 0xDC00 ? 0xFFFD : units[i]);
                    }
                }
                for (int be = 0; be < 2; be++) {
                    th_ctx(t, "%s, %zu ASCII, then places %#x %s",
                           be ? "UTF-16BE" : "UTF-16LE", lead, places,
                           kinds[kind]);
                    check_utf8_in_exact_room(t, units, n, be, &want);
                }
                th_ctx(t, "encoder, %zu ASCII, then places %#x %s", lead,
                       places, kinds[kind]);
                if (kind == 3 && places != 0) {
                    /* a lone surrogate is an error to a fatal encoder */
                    th_bytes_free(&want);
                    continue;
                }
                check_utf8_encoded(t, units, n, &want);
                th_bytes_free(&want);
            }
        }
    }
    th_ctx_clear(t);
}

int main(void)
{
    th t;
    TH_BEGIN_SIMD(&t, "test_utf16");
    test_vectors(&t);
    test_boms(&t);
    test_encoders(&t);
    test_utf16_output(&t);
    test_long_mixed(&t);
    test_exact_room_utf8(&t);
    test_three_byte_runs_utf8(&t);
    test_three_then_ascii_utf8(&t);
    test_bmp_mixed_utf8(&t);
    test_eight_unit_steps_utf8(&t);
    return th_end(&t);
}

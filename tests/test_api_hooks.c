/* test_api_hooks.c — the Standard's hooks for other standards (§6, §6.1):
 * BOM sniff, decode, UTF-8 decode, UTF-8 decode without BOM (or fail),
 * UTF-8 encode, encode, get an output encoding, get an encoder and encode or
 * fail. Every expected byte string is written by hand from the Standard. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A non-NULL pointer that no allocation returns: the hooks must overwrite
 * *out with NULL on failure. */
static uint8_t poison_byte;
#define POISON (&poison_byte)

/* Parses a byte spec; a malformed spec is a bug in this file. */
static th_bytes spec_bytes(th *t, const char *spec)
{
    th_bytes b = {0};
    if (!th_parse_bytes(spec, &b))
        CHECKF(t, false, "test bug: bad byte spec [%s]", spec);
    return b;
}

static th_units spec_units(th *t, const char *spec)
{
    th_units u = {0};
    if (!th_parse_units(spec, &u))
        CHECKF(t, false, "test bug: bad unit spec [%s]", spec);
    return u;
}

/* Checks one hook result: status, output bytes, the NUL terminator, and
 * frees the output. On failure the hook must have left NULL and 0. */
static void check_out(th *t, int line, wenc_result expect_r, wenc_result r,
                      const char *expect_spec, uint8_t *out, size_t out_len)
{
    th_check(t, r == expect_r, __FILE__, line, "result %d, expected %d",
             (int)r, (int)expect_r);
    if (expect_r == WENC_OK) {
        th_bytes x = spec_bytes(t, expect_spec);
        th_check(t, out != NULL, __FILE__, line, "out is NULL on success");
        if (out != NULL && out != POISON) {
            th_check_bytes(t, __FILE__, line, "output", x.p, x.len, out,
                           out_len);
            th_check(t, out[out_len] == 0, __FILE__, line,
                     "output not NUL-terminated");
        }
        th_bytes_free(&x);
    } else {
        th_check(t, out == NULL, __FILE__, line, "out not NULL on failure");
        th_check_u64(t, __FILE__, line, "out_len on failure", 0, out_len);
    }
    if (out != POISON)
        free(out);
}

/* ---- BOM sniff (§6.1) ------------------------------------------------------ */

static void sniff_case(th *t, int line, const char *in, wenc_id expect,
                       size_t expect_len)
{
    th_bytes b = spec_bytes(t, in);
    size_t bom_len = 99;
    th_ctx(t, "BOM sniff [%s]", in);
    wenc_id id = wenc_bom_sniff(b.p, b.len, &bom_len);
    th_check_u64(t, __FILE__, line, "encoding", (uint64_t)(int64_t)expect,
                 (uint64_t)(int64_t)id);
    th_check_u64(t, __FILE__, line, "bom_len", expect_len, bom_len);
    /* bom_len may be NULL */
    id = wenc_bom_sniff(b.p, b.len, NULL);
    th_check_u64(t, __FILE__, line, "encoding (NULL bom_len)",
                 (uint64_t)(int64_t)expect, (uint64_t)(int64_t)id);
    th_ctx_clear(t);
    th_bytes_free(&b);
}

static void test_bom_sniff(th *t)
{
    sniff_case(t, __LINE__, "", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "EF", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "EF BB", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "EF BB BF", WENC_UTF_8, 3);
    sniff_case(t, __LINE__, "EF BB BF 41", WENC_UTF_8, 3);
    sniff_case(t, __LINE__, "EF BB BF EF BB BF", WENC_UTF_8, 3);
    sniff_case(t, __LINE__, "EF BB BE", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "EF BF BB", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "BB BF", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "FE", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "FE FF", WENC_UTF_16BE, 2);
    sniff_case(t, __LINE__, "FE FF 00", WENC_UTF_16BE, 2);
    sniff_case(t, __LINE__, "FE FF 00 41", WENC_UTF_16BE, 2);
    sniff_case(t, __LINE__, "FE FE", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "FF", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "FF FE", WENC_UTF_16LE, 2);
    sniff_case(t, __LINE__, "FF FE 41", WENC_UTF_16LE, 2);
    sniff_case(t, __LINE__, "FF FE 00 00", WENC_UTF_16LE, 2); /* no UTF-32 */
    sniff_case(t, __LINE__, "FF FF", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "00 FE FF", WENC_INVALID, 0);
    sniff_case(t, __LINE__, "41 EF BB BF", WENC_INVALID, 0);
}

/* ---- get an encoding / get an output encoding (§4.2, §4.3) ------------------ */

static void test_get_encoding(th *t)
{
    CHECK(t, wenc_lookup("utf-8", 5) == WENC_UTF_8);
    CHECK(t, wenc_lookup(" \t\n\f\rLatin1\r\n\f\t ", 16) == WENC_WINDOWS_1252);
    CHECK(t, wenc_lookup("ISO-2022-KR", 11) == WENC_REPLACEMENT);
    CHECK(t, wenc_lookup("sjis", 4) == WENC_SHIFT_JIS);
    CHECK(t, wenc_lookup("utf-16", 6) == WENC_UTF_16LE);
    CHECK(t, wenc_lookup("utf 8", 5) == WENC_INVALID);
    CHECK(t, wenc_lookup("\v utf-8", 7) == WENC_INVALID); /* VT is no ASCII ws */
    CHECK(t, wenc_lookup("", 0) == WENC_INVALID);
    CHECK(t, wenc_lookup(NULL, 0) == WENC_INVALID);

    /* get an output encoding: replacement, UTF-16BE, UTF-16LE → UTF-8 */
    for (int i = 0; i < WENC_ENCODING_COUNT; i++) {
        wenc_id id = (wenc_id)i;
        wenc_id expect = (id == WENC_REPLACEMENT || id == WENC_UTF_16BE ||
                          id == WENC_UTF_16LE)
                             ? WENC_UTF_8
                             : id;
        CHECKF(t, wenc_output_encoding(id) == expect,
               "get an output encoding of %d", i);
        CHECKF(t, wenc_has_encoder(id) == (expect == id),
               "has encoder of %d", i);
    }
    CHECK(t, wenc_output_encoding(WENC_INVALID) == WENC_INVALID);
    CHECK(t, wenc_output_encoding(WENC_ENCODING_COUNT) == WENC_INVALID);
    CHECK(t, !wenc_has_encoder(WENC_INVALID));
    CHECK(t, !wenc_has_encoder(WENC_ENCODING_COUNT));
}

/* ---- decode (§6.1) -------------------------------------------------------- */

static void decode_case(th *t, int line, const char *in, wenc_id fallback,
                        const char *expect, wenc_id expect_used)
{
    th_bytes b = spec_bytes(t, in);
    uint8_t *out = POISON;
    size_t out_len = 99;
    wenc_id used = WENC_INVALID;
    if (th_is_cjk(fallback) &&
        !th_cjk(t, "line %d: decode with fallback %s", line, wenc_name(fallback))) {
        th_bytes_free(&b);
        return;
    }
    th_ctx(t, "decode [%s] fallback %s", in, wenc_name(fallback));
    wenc_result r = wenc_hook_decode(b.p, b.len, fallback, &out, &out_len,
                                     &used);
    check_out(t, line, WENC_OK, r, expect, out, out_len);
    th_check(t, used == expect_used, __FILE__, line, "used %s, expected %s",
             wenc_name(used) ? wenc_name(used) : "(none)",
             wenc_name(expect_used));
    /* used may be NULL */
    out = POISON;
    r = wenc_hook_decode(b.p, b.len, fallback, &out, &out_len, NULL);
    check_out(t, line, WENC_OK, r, expect, out, out_len);
    th_ctx_clear(t);
    th_bytes_free(&b);
}

static void test_decode(th *t)
{
    /* BOM prefixes of every length, with a windows-1252 fallback: a partial
     * BOM is no BOM, its bytes are decoded with the fallback. */
    decode_case(t, __LINE__, "", WENC_WINDOWS_1252, "", WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "EF", WENC_WINDOWS_1252, "C3AF",
                WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "EF BB", WENC_WINDOWS_1252, "C3AF C2BB",
                WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "EF BB 41", WENC_WINDOWS_1252, "C3AF C2BB 41",
                WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "EF BB BE", WENC_WINDOWS_1252,
                "C3AF C2BB C2BE", WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "EF BB BF", WENC_WINDOWS_1252, "", WENC_UTF_8);
    decode_case(t, __LINE__, "EF BB BF 41", WENC_WINDOWS_1252, "41",
                WENC_UTF_8);
    decode_case(t, __LINE__, "EF BB BF E2 82 AC", WENC_WINDOWS_1252,
                "E2 82 AC", WENC_UTF_8);
    decode_case(t, __LINE__, "FE", WENC_WINDOWS_1252, "C3BE",
                WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "FE FF", WENC_WINDOWS_1252, "", WENC_UTF_16BE);
    decode_case(t, __LINE__, "FE FF 00", WENC_WINDOWS_1252, "EFBFBD",
                WENC_UTF_16BE);
    decode_case(t, __LINE__, "FE FF 00 41", WENC_WINDOWS_1252, "41",
                WENC_UTF_16BE);
    decode_case(t, __LINE__, "FF", WENC_WINDOWS_1252, "C3BF",
                WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "FF FE", WENC_WINDOWS_1252, "", WENC_UTF_16LE);
    decode_case(t, __LINE__, "FF FE 41", WENC_WINDOWS_1252, "EFBFBD",
                WENC_UTF_16LE);
    decode_case(t, __LINE__, "FF FE 41 00", WENC_WINDOWS_1252, "41",
                WENC_UTF_16LE);
    decode_case(t, __LINE__, "FF FE AC 20 3D D8 00 DE", WENC_WINDOWS_1252,
                "E282AC F09F9880", WENC_UTF_16LE);
    /* no UTF-32LE: FF FE 00 00 is UTF-16LE's BOM then U+0000 */
    decode_case(t, __LINE__, "FF FE 00 00", WENC_WINDOWS_1252, "00",
                WENC_UTF_16LE);

    /* The BOM wins over every fallback, including UTF-8, UTF-16 and
     * replacement; it is removed once. */
    decode_case(t, __LINE__, "FE FF 20 AC", WENC_UTF_8, "E282AC",
                WENC_UTF_16BE);
    decode_case(t, __LINE__, "FF FE 00 41", WENC_UTF_16BE, "E4 84 80",
                WENC_UTF_16LE); /* U+4100 */
    decode_case(t, __LINE__, "EF BB BF C3 A9", WENC_UTF_16LE, "C3A9",
                WENC_UTF_8);
    decode_case(t, __LINE__, "EF BB BF 41", WENC_REPLACEMENT, "41",
                WENC_UTF_8);
    decode_case(t, __LINE__, "EF BB BF 82 A0", WENC_SHIFT_JIS,
                "EFBFBD EFBFBD",
                WENC_UTF_8);
    decode_case(t, __LINE__, "EF BB BF EF BB BF", WENC_UTF_8, "EFBBBF",
                WENC_UTF_8);
    decode_case(t, __LINE__, "FF FE FF FE", WENC_WINDOWS_1252, "EFBBBF",
                WENC_UTF_16LE);
    decode_case(t, __LINE__, "FE FF FE FF", WENC_UTF_8, "EFBBBF",
                WENC_UTF_16BE);
    decode_case(t, __LINE__, "FE FF FF FE", WENC_UTF_8, "EFBFBE",
                WENC_UTF_16BE);
    /* a BOM later in the input is no BOM */
    decode_case(t, __LINE__, "41 EF BB BF", WENC_UTF_8, "41 EFBBBF",
                WENC_UTF_8);
    decode_case(t, __LINE__, "41 EF BB BF", WENC_WINDOWS_1252,
                "41 C3AF C2BB C2BF", WENC_WINDOWS_1252);

    /* no BOM: the fallback decodes with replacement */
    decode_case(t, __LINE__, "EF", WENC_UTF_8, "EFBFBD", WENC_UTF_8);
    decode_case(t, __LINE__, "EF BB", WENC_UTF_8, "EFBFBD", WENC_UTF_8);
    decode_case(t, __LINE__, "EF BB 41", WENC_UTF_8, "EFBFBD 41", WENC_UTF_8);
    decode_case(t, __LINE__, "FE", WENC_UTF_8, "EFBFBD", WENC_UTF_8);
    decode_case(t, __LINE__, "FE", WENC_UTF_16LE, "EFBFBD", WENC_UTF_16LE);
    decode_case(t, __LINE__, "FF", WENC_UTF_16BE, "EFBFBD", WENC_UTF_16BE);
    decode_case(t, __LINE__, "41 00", WENC_UTF_16LE, "41", WENC_UTF_16LE);
    decode_case(t, __LINE__, "41 00", WENC_UTF_16BE, "E4 84 80",
                WENC_UTF_16BE);
    decode_case(t, __LINE__, "82 A0 41", WENC_SHIFT_JIS, "E38182 41",
                WENC_SHIFT_JIS);
    decode_case(t, __LINE__, "80 41", WENC_WINDOWS_1252, "E282AC 41",
                WENC_WINDOWS_1252);
    decode_case(t, __LINE__, "", WENC_REPLACEMENT, "", WENC_REPLACEMENT);
    decode_case(t, __LINE__, "41 42", WENC_REPLACEMENT, "EFBFBD",
                WENC_REPLACEMENT);
    decode_case(t, __LINE__, "41 C3 A9 FF", WENC_UTF_8, "41 C3A9 EFBFBD",
                WENC_UTF_8);
    decode_case(t, __LINE__, "F7 80", WENC_X_USER_DEFINED, "EF9FB7 EF9E80",
                WENC_X_USER_DEFINED);

    /* invalid arguments */
    uint8_t *out = POISON;
    size_t out_len = 99;
    wenc_id used = WENC_UTF_8;
    const uint8_t a[1] = {0x41};
    wenc_result r = wenc_hook_decode(a, 1, WENC_INVALID, &out, &out_len,
                                     &used);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    out = POISON;
    r = wenc_hook_decode(a, 1, WENC_ENCODING_COUNT, &out, &out_len, NULL);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    out = POISON;
    r = wenc_hook_decode(a, 1, (wenc_id)1000, &out, &out_len, NULL);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    out = POISON;
    r = wenc_hook_decode(NULL, 1, WENC_UTF_8, &out, &out_len, NULL);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    r = wenc_hook_decode(a, 1, WENC_UTF_8, NULL, &out_len, NULL);
    CHECK(t, r == WENC_INVALID_ARGUMENT);
    CHECK_EQ(t, "out_len after NULL out", 0, out_len);
    out = POISON;
    r = wenc_hook_decode(a, 1, WENC_UTF_8, &out, NULL, NULL);
    CHECK(t, r == WENC_INVALID_ARGUMENT);
    CHECK(t, out == NULL);
    /* NULL src with no bytes is the empty input */
    out = POISON;
    r = wenc_hook_decode(NULL, 0, WENC_UTF_8, &out, &out_len, &used);
    check_out(t, __LINE__, WENC_OK, r, "", out, out_len);
    CHECK(t, used == WENC_UTF_8);
}

/* ---- UTF-8 decode and its two variants (§6) ------------------------------- */

typedef wenc_result (*utf8_hook)(const uint8_t *, size_t, uint8_t **,
                                 size_t *);

static void hook_case(th *t, int line, utf8_hook hook, const char *name,
                      const char *in, wenc_result expect_r,
                      const char *expect)
{
    th_bytes b = spec_bytes(t, in);
    uint8_t *out = POISON;
    size_t out_len = 99;
    th_ctx(t, "%s [%s]", name, in);
    wenc_result r = hook(b.p, b.len, &out, &out_len);
    check_out(t, line, expect_r, r, expect, out, out_len);
    th_ctx_clear(t);
    th_bytes_free(&b);
}

#define UTF8_DECODE(in, expect)                                          \
    hook_case(t, __LINE__, wenc_hook_utf8_decode, "UTF-8 decode", (in), \
              WENC_OK, (expect))
#define NO_BOM(in, expect)                                        \
    hook_case(t, __LINE__, wenc_hook_utf8_decode_without_bom,     \
              "UTF-8 decode without BOM", (in), WENC_OK, (expect))
#define OR_FAIL(in, r, expect)                                           \
    hook_case(t, __LINE__, wenc_hook_utf8_decode_without_bom_or_fail,    \
              "UTF-8 decode without BOM or fail", (in), (r), (expect))

static void test_utf8_decode(th *t)
{
    UTF8_DECODE("", "");
    UTF8_DECODE("41", "41");
    UTF8_DECODE("EF BB BF", "");
    UTF8_DECODE("EF BB BF 41", "41");
    UTF8_DECODE("EF BB BF EF BB BF", "EFBBBF"); /* only once */
    UTF8_DECODE("EF BB BF EF BB BF 41", "EFBBBF 41");
    UTF8_DECODE("41 EF BB BF", "41 EFBBBF"); /* only at the start */
    UTF8_DECODE("EF", "EFBFBD");             /* partial BOM: truncated */
    UTF8_DECODE("EF BB", "EFBFBD");
    UTF8_DECODE("EF BB 41", "EFBFBD 41");
    UTF8_DECODE("FE FF 41", "EFBFBD EFBFBD 41"); /* UTF-16 BOMs: no */
    UTF8_DECODE("FF FE", "EFBFBD EFBFBD");
    UTF8_DECODE("EF BB BF C0 80", "EFBFBD EFBFBD");
    UTF8_DECODE("EF BB BF E2 82", "EFBFBD");
    UTF8_DECODE("E2 82 41 F0 9F 98 80", "EFBFBD 41 F09F9880");
    UTF8_DECODE("ED A0 80", "EFBFBD EFBFBD EFBFBD");

    NO_BOM("", "");
    NO_BOM("EF BB BF", "EFBBBF");
    NO_BOM("EF BB BF 41", "EFBBBF 41");
    NO_BOM("EF BB BF EF BB BF", "EFBBBF EFBBBF");
    NO_BOM("EF BB", "EFBFBD");
    NO_BOM("C3", "EFBFBD");
    NO_BOM("41 C3 A9 E2 82 AC F0 9F 98 80", "41 C3A9 E282AC F09F9880");
    NO_BOM("80 41", "EFBFBD 41");

    /* success: a copy of the input, BOM included */
    OR_FAIL("", WENC_OK, "");
    OR_FAIL("41", WENC_OK, "41");
    OR_FAIL("EF BB BF 41", WENC_OK, "EFBBBF 41");
    OR_FAIL("41 C3 A9 E2 82 AC F0 9F 98 80", WENC_OK,
            "41 C3A9 E282AC F09F9880");
    OR_FAIL("00 7F C2 80 DF BF E0 A0 80 ED 9F BF EE 80 80 EF BF BF F0 90 80 "
            "80 F4 8F BF BF",
            WENC_OK,
            "00 7F C280 DFBF E0A080 ED9FBF EE8080 EFBFBF F0908080 F48FBFBF");
    /* failure: any malformed input, wherever it is, including truncation
     * at the end; nothing at all is returned */
    OR_FAIL("80", WENC_FAILURE, "");
    OR_FAIL("FF", WENC_FAILURE, "");
    OR_FAIL("41 42 FE", WENC_FAILURE, "");
    OR_FAIL("C0 80", WENC_FAILURE, "");
    OR_FAIL("C1 BF", WENC_FAILURE, "");
    OR_FAIL("E0 80 80", WENC_FAILURE, "");
    OR_FAIL("ED A0 80", WENC_FAILURE, "");
    OR_FAIL("F4 90 80 80", WENC_FAILURE, "");
    OR_FAIL("F5 80 80 80", WENC_FAILURE, "");
    OR_FAIL("E2 82 41", WENC_FAILURE, "");
    OR_FAIL("41 E2 82 AC 80 41", WENC_FAILURE, "");
    OR_FAIL("C3", WENC_FAILURE, "");
    OR_FAIL("41 C3", WENC_FAILURE, "");
    OR_FAIL("E2 82", WENC_FAILURE, "");
    OR_FAIL("41 42 43 F0 9F 98", WENC_FAILURE, "");
    OR_FAIL("EF BB", WENC_FAILURE, "");
    OR_FAIL("EF BB BF EF BB", WENC_FAILURE, "");

    /* invalid arguments, for all three */
    const utf8_hook hooks[3] = {wenc_hook_utf8_decode,
                                wenc_hook_utf8_decode_without_bom,
                                wenc_hook_utf8_decode_without_bom_or_fail};
    const uint8_t a[1] = {0x41};
    for (int i = 0; i < 3; i++) {
        uint8_t *out = POISON;
        size_t out_len = 99;
        th_ctx(t, "utf-8 hook %d", i);
        wenc_result r = hooks[i](NULL, 1, &out, &out_len);
        check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
        out_len = 99;
        CHECK(t, hooks[i](a, 1, NULL, &out_len) == WENC_INVALID_ARGUMENT);
        CHECK_EQ(t, "out_len", 0, out_len);
        out = POISON;
        CHECK(t, hooks[i](a, 1, &out, NULL) == WENC_INVALID_ARGUMENT);
        CHECK(t, out == NULL);
        out = POISON;
        r = hooks[i](NULL, 0, &out, &out_len);
        check_out(t, __LINE__, WENC_OK, r, "", out, out_len);
        th_ctx_clear(t);
    }
}

/* ---- UTF-8 encode (§6), from UTF-16 code units ---------------------------- */

static void utf8_encode_case(th *t, int line, const char *in,
                             const char *expect)
{
    th_units u = spec_units(t, in);
    uint8_t *out = POISON;
    size_t out_len = 99;
    th_ctx(t, "UTF-8 encode [%s]", in);
    wenc_result r = wenc_hook_utf8_encode(u.p, u.len, &out, &out_len);
    check_out(t, line, WENC_OK, r, expect, out, out_len);
    th_ctx_clear(t);
    th_units_free(&u);
}

static void test_utf8_encode(th *t)
{
    utf8_encode_case(t, __LINE__, "", "");
    utf8_encode_case(t, __LINE__, "'A'", "41");
    utf8_encode_case(t, __LINE__, "0 7F 80 7FF 800", "00 7F C280 DFBF E0A080");
    utf8_encode_case(t, __LINE__, "E9 20AC FFFF", "C3A9 E282AC EFBFBF");
    utf8_encode_case(t, __LINE__, "FEFF 41", "EFBBBF 41"); /* kept */
    utf8_encode_case(t, __LINE__, "D83D DE00", "F09F9880");
    utf8_encode_case(t, __LINE__, "D800 DC00 DBFF DFFF", "F0908080 F48FBFBF");
    /* lone surrogates: U+FFFD each */
    utf8_encode_case(t, __LINE__, "D800", "EFBFBD");
    utf8_encode_case(t, __LINE__, "DC00", "EFBFBD");
    utf8_encode_case(t, __LINE__, "DBFF 41", "EFBFBD 41");
    utf8_encode_case(t, __LINE__, "41 DFFF 42", "41 EFBFBD 42");
    utf8_encode_case(t, __LINE__, "DC00 D800", "EFBFBD EFBFBD");
    utf8_encode_case(t, __LINE__, "D83D D83D DE00", "EFBFBD F09F9880");
    utf8_encode_case(t, __LINE__, "D83D DE00 DE00", "F09F9880 EFBFBD");
    utf8_encode_case(t, __LINE__, "41 D83D", "41 EFBFBD");

    uint8_t *out = POISON;
    size_t out_len = 99;
    const uint16_t a[1] = {0x41};
    wenc_result r = wenc_hook_utf8_encode(NULL, 1, &out, &out_len);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    CHECK(t, wenc_hook_utf8_encode(a, 1, NULL, &out_len) ==
                 WENC_INVALID_ARGUMENT);
    out = POISON;
    CHECK(t, wenc_hook_utf8_encode(a, 1, &out, NULL) == WENC_INVALID_ARGUMENT);
    CHECK(t, out == NULL);
}

/* ---- encode (§6.1): html NCRs, get an output encoding -------------------- */

static void encode_case(th *t, int line, const char *in, wenc_id id,
                        const char *expect)
{
    th_bytes b = spec_bytes(t, in);
    uint8_t *out = POISON;
    size_t out_len = 99;
    if (th_is_cjk(id) &&
        !th_cjk(t, "line %d: encode in %s", line, wenc_name(id))) {
        th_bytes_free(&b);
        return;
    }
    th_ctx(t, "encode [%s] in %s", in, wenc_name(id));
    wenc_result r = wenc_hook_encode(b.p, b.len, id, &out, &out_len);
    check_out(t, line, WENC_OK, r, expect, out, out_len);
    th_ctx_clear(t);
    th_bytes_free(&b);
}

static void test_encode(th *t)
{
    encode_case(t, __LINE__, "", WENC_WINDOWS_1252, "");
    encode_case(t, __LINE__, "'a=1&b'", WENC_WINDOWS_1252, "'a=1&b'");
    /* A € é */
    encode_case(t, __LINE__, "41 E282AC C3A9", WENC_WINDOWS_1252, "41 80 E9");
    /* U+2603 and U+1F600 are unmappable: decimal NCRs */
    encode_case(t, __LINE__, "41 E29883 42", WENC_WINDOWS_1252,
                "41 '&#9731;' 42");
    encode_case(t, __LINE__, "F09F9880", WENC_WINDOWS_1252, "'&#128512;'");
    encode_case(t, __LINE__, "C5BD C592", WENC_WINDOWS_1252, "8E 8C");
    /* ill-formed UTF-8 input is read as U+FFFD, itself unmappable */
    encode_case(t, __LINE__, "41 FF 42", WENC_WINDOWS_1252,
                "41 '&#65533;' 42");
    encode_case(t, __LINE__, "E2 82", WENC_WINDOWS_1252, "'&#65533;'");

    /* Shift_JIS: あ, ¥ → 5C, ‾ → 7E, ｱ → B1, − → 817C, é unmappable */
    encode_case(t, __LINE__, "E38182", WENC_SHIFT_JIS, "82A0");
    encode_case(t, __LINE__, "C2A5 E280BE EFBDB1", WENC_SHIFT_JIS,
                "5C 7E B1");
    encode_case(t, __LINE__, "E28892", WENC_SHIFT_JIS, "817C");
    encode_case(t, __LINE__, "'caf' C3A9", WENC_SHIFT_JIS, "'caf&#233;'");

    /* ISO-2022-JP: the NCR is encoded in the state the encoder is in */
    encode_case(t, __LINE__, "41 C2A5 42", WENC_ISO_2022_JP,
                "41 1B284A 5C 42 1B2842");
    encode_case(t, __LINE__, "E38182 F09F9880", WENC_ISO_2022_JP,
                "1B2442 2422 1B2842 '&#128512;'");
    encode_case(t, __LINE__, "C2A5 F09F9880", WENC_ISO_2022_JP,
                "1B284A 5C '&#128512;' 1B2842");
    /* ESC, SO and SI are errors with U+FFFD in the ASCII and Roman states */
    encode_case(t, __LINE__, "41 1B 0E 0F 42", WENC_ISO_2022_JP,
                "41 '&#65533;&#65533;&#65533;' 42");

    /* x-user-defined: U+F780..U+F7FF → 80..FF */
    encode_case(t, __LINE__, "41 EF9E80 EF9FBF C3A9", WENC_X_USER_DEFINED,
                "41 80 FF '&#233;'");

    /* get an output encoding: replacement, UTF-16BE/LE encode as UTF-8 */
    encode_case(t, __LINE__, "41 C3A9 E29883 F09F9880", WENC_UTF_16LE,
                "41 C3A9 E29883 F09F9880");
    encode_case(t, __LINE__, "41 C3A9 E29883", WENC_UTF_16BE,
                "41 C3A9 E29883");
    encode_case(t, __LINE__, "E29883", WENC_REPLACEMENT, "E29883");
    encode_case(t, __LINE__, "41 FF", WENC_UTF_8, "41 EFBFBD");

    uint8_t *out = POISON;
    size_t out_len = 99;
    const uint8_t a[1] = {0x41};
    wenc_result r = wenc_hook_encode(a, 1, WENC_INVALID, &out, &out_len);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    out = POISON;
    r = wenc_hook_encode(a, 1, WENC_ENCODING_COUNT, &out, &out_len);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    out = POISON;
    r = wenc_hook_encode(NULL, 1, WENC_UTF_8, &out, &out_len);
    check_out(t, __LINE__, WENC_INVALID_ARGUMENT, r, "", out, out_len);
    CHECK(t, wenc_hook_encode(a, 1, WENC_UTF_8, NULL, &out_len) ==
                 WENC_INVALID_ARGUMENT);
    out = POISON;
    CHECK(t, wenc_hook_encode(a, 1, WENC_UTF_8, &out, NULL) ==
                 WENC_INVALID_ARGUMENT);
    CHECK(t, out == NULL);
}

/* ---- get an encoder, encode or fail (§6.1) -------------------------------- */

/* One "encode or fail" from UTF-16: encodes src (all of it, last as given)
 * and checks the status, the units consumed, the bytes written and, on
 * error, the code point. */
static void or_fail16(th *t, int line, wenc_encoder *enc, const char *in,
                      bool last, wenc_status expect_st, size_t expect_read,
                      const char *expect_out, uint32_t expect_cp)
{
    th_units u = spec_units(t, in);
    th_bytes x = spec_bytes(t, expect_out);
    uint8_t buf[64];
    size_t n = u.len, m = sizeof buf;
    th_ctx(t, "encode or fail [%s]", in);
    wenc_status st = wenc_encode_from_utf16(enc, u.p, &n, buf, &m, last);
    th_check_u64(t, __FILE__, line, "status", expect_st, st);
    th_check_u64(t, __FILE__, line, "units read", expect_read, n);
    th_check_bytes(t, __FILE__, line, "bytes", x.p, x.len, buf, m);
    if (expect_st == WENC_ERROR) {
        wenc_encode_error e;
        th_check(t, wenc_encoder_error(enc, &e), __FILE__, line,
                 "no error details");
        th_check_u64(t, __FILE__, line, "code point", expect_cp,
                     e.code_point);
    }
    th_ctx_clear(t);
    th_units_free(&u);
    th_bytes_free(&x);
}

/* Encode or fail in ISO-2022-JP (its state across errors) and Shift_JIS. */
static void encode_or_fail_cjk(th *t)
{
    wenc_encoder enc;

    /* ISO-2022-JP keeps its state across the error. The Standard's note:
     * after U+00A5 the encoder is in the Roman state; an error there leaves
     * it in Roman, so a following U+005C must switch back to ASCII first
     * (ESC ( B 5C), as 5C in Roman is U+00A5. */
    CHECK(t, wenc_encoder_init(&enc, WENC_ISO_2022_JP, WENC_ERRORS_FATAL));
    or_fail16(t, __LINE__, &enc, "A5", false, WENC_INPUT_EMPTY, 1,
              "1B284A 5C", 0);
    or_fail16(t, __LINE__, &enc, "E9", false, WENC_ERROR, 1, "", 0xE9);
    or_fail16(t, __LINE__, &enc, "5C", true, WENC_INPUT_EMPTY, 1,
              "1B2842 5C", 0);

    /* the same in one buffer: the error stops after U+00E9 */
    wenc_encoder_init(&enc, WENC_ISO_2022_JP, WENC_ERRORS_FATAL);
    or_fail16(t, __LINE__, &enc, "A5 E9 5C", true, WENC_ERROR, 2,
              "1B284A 5C", 0xE9);
    or_fail16(t, __LINE__, &enc, "5C", true, WENC_INPUT_EMPTY, 1,
              "1B2842 5C", 0);

    /* Roman state, ASCII other than 5C/7E stays in Roman; the end of the
     * stream switches back */
    wenc_encoder_init(&enc, WENC_ISO_2022_JP, WENC_ERRORS_FATAL);
    or_fail16(t, __LINE__, &enc, "A5 D83D DE00", false, WENC_ERROR, 3,
              "1B284A 5C", 0x1F600);
    or_fail16(t, __LINE__, &enc, "41", true, WENC_INPUT_EMPTY, 1,
              "41 1B2842", 0);

    /* from the jis0208 state the encoder first returns to ASCII, then
     * reports the error: after it the state is ASCII */
    wenc_encoder_init(&enc, WENC_ISO_2022_JP, WENC_ERRORS_FATAL);
    or_fail16(t, __LINE__, &enc, "3042 E9", false, WENC_ERROR, 2,
              "1B2442 2422 1B2842", 0xE9);
    or_fail16(t, __LINE__, &enc, "5C 3042", true, WENC_INPUT_EMPTY, 2,
              "5C 1B2442 2422 1B2842", 0);

    /* ESC in the ASCII state is an error reported as U+FFFD */
    wenc_encoder_init(&enc, WENC_ISO_2022_JP, WENC_ERRORS_FATAL);
    or_fail16(t, __LINE__, &enc, "41 1B 42", true, WENC_ERROR, 2, "41",
              0xFFFD);
    or_fail16(t, __LINE__, &enc, "42", true, WENC_INPUT_EMPTY, 1, "42", 0);

    /* Shift_JIS: U+00E9 has no pointer */
    wenc_encoder_init(&enc, WENC_SHIFT_JIS, WENC_ERRORS_FATAL);
    or_fail16(t, __LINE__, &enc, "3042 E9 3042", true, WENC_ERROR, 2, "82A0",
              0xE9);
    or_fail16(t, __LINE__, &enc, "3042", true, WENC_INPUT_EMPTY, 1, "82A0",
              0);
}

static void test_encode_or_fail(th *t)
{
    wenc_encoder enc;

    /* windows-1252: the error returns the code point, the encoder goes on */
    CHECK(t, wenc_encoder_init(&enc, WENC_WINDOWS_1252, WENC_ERRORS_FATAL));
    CHECK(t, wenc_encoder_encoding(&enc) == WENC_WINDOWS_1252);
    {
        const uint8_t in[] = {0x41, 0xE2, 0x98, 0x83, 0x42, 0xE2, 0x82, 0xAC};
        uint8_t buf[16];
        size_t n = sizeof in, m = sizeof buf;
        wenc_status st = wenc_encode_from_utf8(&enc, in, &n, buf, &m, true);
        CHECK(t, st == WENC_ERROR);
        CHECK_EQ(t, "bytes read up to the error", 4, n);
        CHECK_EQ(t, "bytes written before the error", 1, m);
        CHECK(t, buf[0] == 0x41);
        wenc_encode_error e;
        CHECK(t, wenc_encoder_error(&enc, &e));
        CHECK_EQ(t, "code point", 0x2603, e.code_point);
        CHECK_EQ(t, "offset", 1, e.offset);
        CHECK_EQ(t, "length", 3, e.length);
        /* the same encoder continues with the rest */
        size_t n2 = sizeof in - n, m2 = sizeof buf;
        st = wenc_encode_from_utf8(&enc, in + n, &n2, buf, &m2, true);
        CHECK(t, st == WENC_INPUT_EMPTY);
        CHECK_EQ(t, "rest read", 4, n2);
        const uint8_t rest[] = {0x42, 0x80};
        CHECK_BYTES(t, "rest", rest, 2, buf, m2);
    }

    /* two errors in a row, from UTF-16 */
    wenc_encoder_init(&enc, WENC_WINDOWS_1252, WENC_ERRORS_FATAL);
    or_fail16(t, __LINE__, &enc, "2603 D83D DE00 41", true, WENC_ERROR, 1,
              "", 0x2603);
    or_fail16(t, __LINE__, &enc, "D83D DE00 41", true, WENC_ERROR, 2, "",
              0x1F600);
    or_fail16(t, __LINE__, &enc, "41", true, WENC_INPUT_EMPTY, 1, "41", 0);

    if (th_cjk(t, "encode or fail in ISO-2022-JP and Shift_JIS"))
        encode_or_fail_cjk(t);

    /* get an encoder asserts an encoding with an encoder; wenc encodes
     * UTF-16LE/BE and replacement as UTF-8 (get an output encoding) */
    CHECK(t, wenc_encoder_init(&enc, WENC_UTF_16LE, WENC_ERRORS_FATAL));
    CHECK(t, wenc_encoder_encoding(&enc) == WENC_UTF_8);
    or_fail16(t, __LINE__, &enc, "E9 D800", true, WENC_INPUT_EMPTY, 2,
              "C3A9 EFBFBD", 0);
    CHECK(t, wenc_encoder_init(&enc, WENC_REPLACEMENT, WENC_ERRORS_HTML));
    CHECK(t, wenc_encoder_encoding(&enc) == WENC_UTF_8);

    CHECK(t, !wenc_encoder_init(&enc, WENC_INVALID, WENC_ERRORS_FATAL));
    CHECK(t, !wenc_encoder_init(&enc, WENC_ENCODING_COUNT, WENC_ERRORS_FATAL));
    CHECK(t, !wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_REPLACEMENT));
}

int main(void)
{
    th t;
    th_begin(&t, "test_api_hooks");
    test_bom_sniff(&t);
    test_get_encoding(&t);
    test_decode(&t);
    test_utf8_decode(&t);
    test_utf8_encode(&t);
    test_encode(&t);
    test_encode_or_fail(&t);
    return th_end(&t);
}

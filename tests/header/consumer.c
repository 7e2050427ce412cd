/*
 * tests/header/consumer.c — a program that uses wenc.h as a user would,
 * compiled by tests/header/run.sh as C99, C11, C17 and C23 with every C
 * compiler found, with warnings as errors. wenc.h comes first: it must need
 * no other header before it.
 *
 * Checks that the version macros agree with each other and with the library
 * linked, then decodes and encodes a little with exact results. Prints
 * nothing and exits 0 on success; names each failed check and exits 1.
 */
#include <wenc.h>

#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "header consumer (C): %s\n", what);
        failures++;
    }
}

int main(void)
{
    char joined[64];
    snprintf(joined, sizeof joined, "%d.%d.%d", WENC_VERSION_MAJOR,
             WENC_VERSION_MINOR, WENC_VERSION_PATCH);
    check(strcmp(joined, WENC_VERSION_STRING) == 0,
          "WENC_VERSION_STRING is not WENC_VERSION_MAJOR.MINOR.PATCH");
    check(strcmp(wenc_version(), WENC_VERSION_STRING) == 0,
          "wenc_version() is not WENC_VERSION_STRING");

    wenc_id id = wenc_lookup(" Latin1\n", 8);
    check(id == WENC_WINDOWS_1252, "wenc_lookup(\" Latin1\\n\")");
    check(id != WENC_INVALID && strcmp(wenc_name(id), "windows-1252") == 0,
          "wenc_name(WENC_WINDOWS_1252)");
    check(wenc_output_encoding(WENC_UTF_16LE) == WENC_UTF_8,
          "wenc_output_encoding(WENC_UTF_16LE)");

    /* windows-1252 80 41 FF decodes to U+20AC U+0041 U+00FF. */
    static const uint8_t in[] = {0x80, 0x41, 0xFF};
    static const uint8_t want[] = {0xE2, 0x82, 0xAC, 0x41, 0xC3, 0xBF};
    uint8_t out[16];
    wenc_decoder dec;
    check(wenc_decoder_init(&dec, WENC_WINDOWS_1252, WENC_BOM_SNIFF,
                            WENC_ERRORS_REPLACEMENT),
          "wenc_decoder_init");
    size_t src_len = sizeof in, dst_len = sizeof out;
    wenc_status st = wenc_decode_to_utf8(&dec, in, &src_len, out, &dst_len, true);
    check(st == WENC_INPUT_EMPTY && src_len == sizeof in &&
              dst_len == sizeof want && memcmp(out, want, sizeof want) == 0,
          "wenc_decode_to_utf8 of windows-1252 80 41 FF");

    /* U+20AC to Shift_JIS cannot be encoded: fatal mode reports it. */
    wenc_encoder enc;
    wenc_encode_error err;
    static const uint8_t euro[] = {0xE2, 0x82, 0xAC};
    check(wenc_encoder_init(&enc, WENC_SHIFT_JIS, WENC_ERRORS_FATAL),
          "wenc_encoder_init");
    src_len = sizeof euro;
    dst_len = sizeof out;
    st = wenc_encode_from_utf8(&enc, euro, &src_len, out, &dst_len, true);
    check(st == WENC_ERROR && dst_len == 0 && wenc_encoder_error(&enc, &err) &&
              err.code_point == 0x20AC && err.offset == 0 && err.length == 3,
          "wenc_encode_from_utf8 of U+20AC to Shift_JIS, fatal");

    /* TextDecoder("utf-8").decode(EF BB BF 61) is "a". */
    wenc_text_decoder td;
    static const uint8_t bom_a[] = {0xEF, 0xBB, 0xBF, 0x61};
    uint16_t units[8];
    size_t n_units = sizeof units / sizeof units[0], consumed = 0;
    check(wenc_text_decoder_init(&td, "utf-8", 5, false, false) == WENC_TEXT_OK,
          "wenc_text_decoder_init");
    check(wenc_text_decoder_decode_utf16(&td, bom_a, sizeof bom_a, false, units,
                                         &n_units, &consumed) == WENC_TEXT_OK &&
              n_units == 1 && units[0] == 0x61 && consumed == sizeof bom_a,
          "wenc_text_decoder_decode_utf16 of EF BB BF 61");

    return failures ? 1 : 0;
}

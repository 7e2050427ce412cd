/*
 * tests/install/consumer.c — a program outside the source tree, built by
 * tests/install/run.sh against an installed libwenc (pkg-config,
 * find_package) and against the source tree (add_subdirectory, FetchContent),
 * each way linked statically and dynamically.
 *
 * Decodes a Shift_JIS byte string and checks the exact UTF-8 bytes, streaming
 * and with the one-shot hook, and checks that the library linked is the
 * version of the header compiled against. Prints nothing and exits 0 on
 * success; says what differed and exits 1 otherwise.
 */
#include <wenc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "日本語ｱA" with a malformed 81 20 in the middle, in Shift_JIS. */
static const uint8_t sjis[] = {0x93, 0xFA, 0x96, 0x7B, 0x81, 0x20,
                               0x8C, 0xEA, 0xB1, 0x41};
/* 日 本 U+FFFD SPACE 語 ｱ A */
static const uint8_t utf8[] = {0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xEF,
                               0xBF, 0xBD, 0x20, 0xE8, 0xAA, 0x9E, 0xEF,
                               0xBD, 0xB1, 0x41};

static int failures;

static void check_bytes(const char *what, const uint8_t *got, size_t len)
{
    if (len == sizeof utf8 && memcmp(got, utf8, len) == 0)
        return;
    fprintf(stderr, "install consumer: %s gave", what);
    for (size_t i = 0; i < len; i++)
        fprintf(stderr, " %02X", got[i]);
    fprintf(stderr, " (%zu bytes), not the %zu expected\n", len, sizeof utf8);
    failures++;
}

int main(void)
{
    if (strcmp(wenc_version(), WENC_VERSION_STRING) != 0) {
        fprintf(stderr, "install consumer: library %s, header %s\n",
                wenc_version(), WENC_VERSION_STRING);
        failures++;
    }

    wenc_id id = wenc_lookup("sjis", 4);
    if (id != WENC_SHIFT_JIS) {
        fprintf(stderr, "install consumer: wenc_lookup(\"sjis\") is %d\n", (int)id);
        return 1;
    }

    /* Streaming, one byte at a time. */
    wenc_decoder dec;
    uint8_t out[64];
    size_t written = 0;
    if (!wenc_decoder_init(&dec, id, WENC_BOM_SNIFF, WENC_ERRORS_REPLACEMENT)) {
        fprintf(stderr, "install consumer: wenc_decoder_init failed\n");
        return 1;
    }
    for (size_t i = 0; i <= sizeof sjis; i++) {
        size_t src_len = i < sizeof sjis ? 1 : 0;
        size_t dst_len = sizeof out - written;
        wenc_status st = wenc_decode_to_utf8(&dec, sjis + i, &src_len,
                                             out + written, &dst_len,
                                             i == sizeof sjis);
        written += dst_len;
        if (st != WENC_INPUT_EMPTY) {
            fprintf(stderr, "install consumer: wenc_decode_to_utf8 returned %d\n",
                    (int)st);
            return 1;
        }
    }
    check_bytes("streaming decode", out, written);

    /* The Standard's "decode" hook. */
    uint8_t *text = NULL;
    size_t text_len = 0;
    wenc_id used = WENC_INVALID;
    if (wenc_hook_decode(sjis, sizeof sjis, id, &text, &text_len, &used) != WENC_OK ||
        used != WENC_SHIFT_JIS) {
        fprintf(stderr, "install consumer: wenc_hook_decode failed\n");
        failures++;
    } else {
        check_bytes("wenc_hook_decode", text, text_len);
    }
    free(text);

    return failures ? 1 : 0;
}

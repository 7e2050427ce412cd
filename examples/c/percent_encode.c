/*
 * percent_encode.c — "get an encoder" and "encode or fail" (§6.1), the
 * hooks the URL Standard builds "percent-encode after encoding" on, here
 * with the application/x-www-form-urlencoded percent-encode set (spaces
 * become "+").
 *
 *   percent_encode LABEL TEXT
 *
 * TEXT is UTF-8. Each byte the encoder writes is kept when it is an ASCII
 * alphanumeric or one of * - . _, written as "+" when it is a space, and
 * percent-encoded ("%XX") otherwise. A code point the encoding cannot
 * represent ends one "encode or fail": the caller writes "%26%23N%3B"
 * (the percent-encoded "&#N;") and carries on with the SAME encoder, whose
 * state (ISO-2022-JP's) survives the error.
 */
#include <wenc.h>

#include <stdio.h>
#include <string.h>

/* Bytes the application/x-www-form-urlencoded percent-encode set leaves. */
static int keep(uint8_t b)
{
    return (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') ||
           (b >= 'a' && b <= 'z') || b == '*' || b == '-' || b == '.' ||
           b == '_';
}

static void put_bytes(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == ' ')
            putchar('+');
        else if (keep(p[i]))
            putchar(p[i]);
        else
            printf("%%%02X", p[i]);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: percent_encode LABEL TEXT\n");
        return 2;
    }
    wenc_id id = wenc_lookup(argv[1], strlen(argv[1]));
    if (id == WENC_INVALID) {
        fprintf(stderr, "percent_encode: '%s' is not an encoding label\n",
                argv[1]);
        return 2;
    }
    /* get an encoder; URL uses the output encoding (UTF-16 → UTF-8) */
    wenc_encoder enc;
    wenc_encoder_init(&enc, wenc_output_encoding(id), WENC_ERRORS_FATAL);

    const uint8_t *src = (const uint8_t *)argv[2];
    size_t left = strlen(argv[2]);
    for (;;) {
        uint8_t out[64];
        size_t n = left, m = sizeof out;
        /* one step of encode or fail; last: the text ends here */
        wenc_status st = wenc_encode_from_utf8(&enc, src, &n, out, &m, true);
        put_bytes(out, m);
        src += n;
        left -= n;
        if (st == WENC_ERROR) {
            /* encode or fail returned the code point */
            wenc_encode_error err;
            wenc_encoder_error(&enc, &err);
            printf("%%26%%23%lu%%3B", (unsigned long)err.code_point);
        } else if (st == WENC_INPUT_EMPTY) {
            break;
        } /* WENC_OUTPUT_FULL: loop for more room */
    }
    putchar('\n');
    return fflush(stdout) == 0 ? 0 : 1;
}

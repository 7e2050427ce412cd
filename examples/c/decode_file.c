/*
 * decode_file.c — the Standard's "decode" (§6.1) on a whole file.
 *
 *   decode_file FILE [LABEL]
 *
 * Reads FILE ("-" for standard input), looks for a byte order mark (a UTF-8,
 * UTF-16BE or UTF-16LE BOM wins over the label and is removed), decodes the
 * rest with the encoding named by LABEL (default "utf-8") replacing malformed
 * input with U+FFFD, and writes the text as UTF-8 to standard output. The
 * name of the encoding actually used goes to standard error.
 *
 * Exit status: 0 on success, 1 on an I/O error, 2 on a usage error or a
 * LABEL that is not a label.
 */
#include <wenc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads all of f into a malloc'd buffer. */
static uint8_t *read_all(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    if (buf == NULL)
        return NULL;
    for (;;) {
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: decode_file FILE [LABEL]\n");
        return 2;
    }
    const char *path = argv[1];
    const char *label = argc == 3 ? argv[2] : "utf-8";

    /* get an encoding (§4.2): trims ASCII whitespace, ignores ASCII case */
    wenc_id fallback = wenc_lookup(label, strlen(label));
    if (fallback == WENC_INVALID) {
        fprintf(stderr, "decode_file: '%s' is not an encoding label\n", label);
        return 2;
    }

    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    size_t len = 0;
    uint8_t *bytes = read_all(f, &len);
    if (f != stdin)
        fclose(f);
    if (bytes == NULL) {
        fprintf(stderr, "decode_file: cannot read %s\n", path);
        return 1;
    }

    /* decode (§6.1): BOM sniff, then the fallback's decoder with
     * replacement. The result is malloc'd UTF-8. */
    uint8_t *text = NULL;
    size_t text_len = 0;
    wenc_id used = WENC_INVALID;
    wenc_result r = wenc_hook_decode(bytes, len, fallback, &text, &text_len,
                                     &used);
    free(bytes);
    if (r != WENC_OK) {
        fprintf(stderr, "decode_file: out of memory\n");
        return 1;
    }

    fprintf(stderr, "%s\n", wenc_name(used));
    size_t written = fwrite(text, 1, text_len, stdout);
    free(text);
    if (written != text_len || fflush(stdout) != 0) {
        fprintf(stderr, "decode_file: write error\n");
        return 1;
    }
    return 0;
}

/*
 * stream_decode.c — TextDecoder semantics (§7.2) on input that arrives in
 * small pieces.
 *
 *   stream_decode [--fatal] [--ignore-bom] [--chunk N] LABEL < INPUT
 *
 * Reads standard input N bytes at a time (default 3), passes each piece to
 * decode(piece, {stream: true}), and at the end calls decode() once more
 * with no input to flush. Every piece of output is written to standard
 * output as UTF-8 as soon as it is known. A sequence split between pieces
 * comes out whole, and a UTF-8/UTF-16 byte order mark at the start of the
 * stream is removed (unless --ignore-bom), even when it is split.
 *
 * --fatal: malformed input is an error (the TypeError): the program stops
 * with exit status 1 after writing the text before the error.
 * A LABEL that is not a label, or a label of replacement, is the
 * RangeError: exit status 2.
 */
#include <wenc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One decode() call; writes its output to stdout. Returns the status. */
static wenc_text_status decode_piece(wenc_text_decoder *td,
                                     const uint8_t *piece, size_t len,
                                     bool stream, size_t *consumed)
{
    /* decode() needs room for the worst case of this call */
    size_t cap = wenc_text_decoder_max_utf8_len(td, len);
    if (cap == SIZE_MAX)
        return WENC_TEXT_BUFFER_TOO_SMALL;
    uint8_t *out = malloc(cap ? cap : 1);
    if (out == NULL)
        return WENC_TEXT_BUFFER_TOO_SMALL;
    size_t out_len = cap;
    wenc_text_status st = wenc_text_decoder_decode_utf8(
        td, piece, len, stream, out, &out_len, consumed);
    /* On a TypeError the output before the error is in out as well; a
     * JavaScript binding would drop it, this program shows it. */
    fwrite(out, 1, out_len, stdout);
    free(out);
    return st;
}

int main(int argc, char **argv)
{
    bool fatal = false, ignore_bom = false, usage = false;
    size_t chunk = 3;
    const char *label = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fatal") == 0)
            fatal = true;
        else if (strcmp(argv[i], "--ignore-bom") == 0)
            ignore_bom = true;
        else if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc)
            chunk = (size_t)strtoul(argv[++i], NULL, 10);
        else if (label == NULL)
            label = argv[i];
        else
            usage = true; /* too many arguments */
    }
    if (usage || label == NULL || chunk == 0 || chunk > 65536) {
        fprintf(stderr, "usage: stream_decode [--fatal] [--ignore-bom] "
                        "[--chunk N] LABEL < INPUT\n");
        return 2;
    }

    /* new TextDecoder(label, {fatal, ignoreBOM}) */
    wenc_text_decoder td;
    if (wenc_text_decoder_init(&td, label, strlen(label), fatal,
                               ignore_bom) != WENC_TEXT_OK) {
        fprintf(stderr, "stream_decode: RangeError: '%s'\n", label);
        return 2;
    }
    fprintf(stderr, "decoding %s\n", wenc_text_decoder_encoding(&td));

    uint8_t *piece = malloc(chunk);
    if (piece == NULL)
        return 1;
    unsigned long long offset = 0; /* bytes of input before this piece */
    size_t n, consumed = 0;
    wenc_text_status st = WENC_TEXT_OK;
    while (st == WENC_TEXT_OK && (n = fread(piece, 1, chunk, stdin)) > 0) {
        st = decode_piece(&td, piece, n, true, &consumed);
        if (st == WENC_TEXT_OK)
            offset += n;
    }
    if (st == WENC_TEXT_OK && ferror(stdin)) {
        fprintf(stderr, "stream_decode: read error\n");
        free(piece);
        return 1;
    }
    if (st == WENC_TEXT_OK) /* the end: decode() flushes */
        st = decode_piece(&td, NULL, 0, false, &consumed);
    free(piece);
    fflush(stdout);
    if (st == WENC_TEXT_TYPE_ERROR) {
        fprintf(stderr,
                "stream_decode: TypeError: malformed input ending at byte "
                "%llu\n",
                offset + (unsigned long long)consumed);
        return 1;
    }
    if (st != WENC_TEXT_OK) {
        fprintf(stderr, "stream_decode: out of memory\n");
        return 1;
    }
    return 0;
}

/*
 * bench/utf16_speed.c — the library's UTF-16 paths, the ones the AVX2
 * kernels serve: decoding LABEL to UTF-16, and UTF-16 -> UTF-8 (TextEncoder).
 *
 * Usage: utf16_speed LABEL FILE [RUNS]
 *
 * FILE is UTF-8 text. The program encodes it to LABEL with the library
 * (wenc_hook_encode), then RUNS times (default 7) times, each over repeated
 * calls adding up to about 50 ms:
 *
 *   decode MBPS      LABEL bytes -> UTF-16, one wenc_decode_to_utf16() call
 *                    per pass (MB of LABEL bytes per second)
 *   encode MBPS      FILE's UTF-16 -> UTF-8, one wenc_text_encode_into()
 *                    call per pass (MB of UTF-8 bytes made per second)
 *   memcpy MBPS      memcpy of the LABEL bytes, the ceiling
 *
 * and prints the best run of each. bench/simd.sh builds it against the
 * library with and without its run-time SIMD kernels. Not a test: it checks
 * nothing about the output.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wenc.h>

#include "bench_util.h"

typedef enum { JOB_DECODE, JOB_ENCODE, JOB_MEMCPY } job;

typedef struct work {
    wenc_id id;
    const uint8_t *legacy;
    size_t legacy_len;
    const uint16_t *units;
    size_t units_len;
    uint16_t *units_out;
    size_t units_cap;
    uint8_t *bytes_out;
    size_t bytes_cap;
} work;

/* One pass of a job; returns the bytes it counts. */
static size_t run_once(const work *w, job j)
{
    if (j == JOB_DECODE) {
        wenc_decoder dec;
        wenc_decoder_init(&dec, w->id, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
        size_t in = w->legacy_len, out = w->units_cap;
        wenc_decode_to_utf16(&dec, w->legacy, &in, w->units_out, &out, true);
        return w->legacy_len;
    }
    if (j == JOB_ENCODE) {
        size_t read = 0, written = 0;
        wenc_text_encode_into(w->units, w->units_len, w->bytes_out,
                              w->bytes_cap, &read, &written);
        return written;
    }
    memcpy(w->bytes_out, w->legacy, w->legacy_len);
    return w->legacy_len;
}

/* Best of runs, each of repeated passes for about 50 ms: MB per second. */
static double best_rate(const work *w, job j, int runs)
{
    double best = 0;
    for (int r = 0; r < runs; r++) {
        size_t bytes = 0;
        double t0 = now(), t;
        do {
            bytes += run_once(w, j);
            t = now() - t0;
        } while (t < 0.05);
        if (bytes / t / 1e6 > best)
            best = bytes / t / 1e6;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s LABEL FILE [RUNS]\n", argv[0]);
        return 2;
    }
    int runs = argc > 3 ? atoi(argv[3]) : 7;
    if (runs < 1)
        runs = 1;
    wenc_id id = wenc_lookup(argv[1], strlen(argv[1]));
    if (id == WENC_INVALID || !wenc_has_encoder(id)) {
        fprintf(stderr, "%s: not a label of an encoding with an encoder\n",
                argv[1]);
        return 2;
    }
    size_t text_len = 0;
    unsigned char *text = read_file(argv[2], &text_len);
    if (!text)
        return 1;

    work w = {.id = id};
    uint8_t *legacy = NULL;
    size_t legacy_len = 0;
    if (wenc_hook_encode(text, text_len, id, &legacy, &legacy_len) !=
        WENC_OK) {
        fprintf(stderr, "%s: cannot encode to %s\n", argv[2], argv[1]);
        return 1;
    }
    w.legacy = legacy;
    w.legacy_len = legacy_len;
    w.units_cap = legacy_len + text_len + 16;
    w.units_out = malloc(w.units_cap * sizeof *w.units_out);
    uint16_t *units = malloc((text_len + 1) * sizeof *units);
    w.bytes_cap = 3 * (text_len + 1) + legacy_len;
    w.bytes_out = malloc(w.bytes_cap);
    if (!w.units_out || !units || !w.bytes_out) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    wenc_decoder utf8;
    wenc_decoder_init(&utf8, WENC_UTF_8, WENC_BOM_STRIP,
                      WENC_ERRORS_REPLACEMENT);
    size_t in = text_len, out = text_len + 1;
    wenc_decode_to_utf16(&utf8, text, &in, units, &out, true);
    w.units = units;
    w.units_len = out;

    printf("decode %.0f\n", best_rate(&w, JOB_DECODE, runs));
    printf("encode %.0f\n", best_rate(&w, JOB_ENCODE, runs));
    printf("memcpy %.0f\n", best_rate(&w, JOB_MEMCPY, runs));
    free(legacy);
    free(units);
    free(w.units_out);
    free(w.bytes_out);
    free(text);
    return 0;
}

/*
 * bench/decode_speed.c — the library's own decode throughput.
 *
 * Usage: decode_speed LABEL FILE [RUNS]
 *
 * Reads FILE into memory, then RUNS times (default 5) decodes all of it to
 * UTF-8 with one wenc_decode_to_utf8() call into a buffer preallocated with
 * wenc_decoder_max_utf8_len(). For comparison, in the same process and on the
 * same bytes, it times memcpy of the input (the physical ceiling) and glibc
 * iconv(3) to UTF-8 (invalid input skipped a byte at a time, like iconv -c).
 * Prints the best run of each, one line per measurement:
 *
 *   wenc MBPS OUTBYTES
 *   chunked MBPS             (64 KiB calls into one reused 256 KiB buffer,
 *                             the way the CLI reads and writes)
 *   memcpy MBPS
 *   iconv MBPS OUTBYTES      (or "iconv n/a" when iconv lacks the encoding)
 *
 * MB is 10^6 bytes of input. Not a test: it checks nothing about the output.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wenc.h>

#include "bench_util.h"

/* Best-of-runs iconv(3) to UTF-8; returns 0 when iconv lacks the encoding. */
static double time_iconv(const char *iconv_name, unsigned char *src,
                         size_t len, unsigned char *dst, size_t cap,
                         int runs, size_t *out_len)
{
    iconv_t cd = iconv_open("UTF-8", iconv_name);
    if (cd == (iconv_t)-1)
        return 0;
    double best = 1e30;
    for (int r = 0; r < runs; r++) {
        iconv(cd, NULL, NULL, NULL, NULL);
        char *in = (char *)src, *out = (char *)dst;
        size_t in_left = len, out_left = cap;
        double t0 = now();
        while (in_left > 0) {
            if (iconv(cd, &in, &in_left, &out, &out_left) != (size_t)-1)
                break;
            if (errno == EILSEQ || errno == EINVAL) {
                in++;           /* skip one byte, like iconv -c */
                in_left--;
            } else {
                break;          /* E2BIG: cannot happen with 4x room */
            }
        }
        double t = now() - t0;
        if (t < best)
            best = t;
        *out_len = cap - out_left;
    }
    iconv_close(cd);
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s LABEL FILE [RUNS] [ICONV-NAME]\n", argv[0]);
        return 2;
    }
    const char *label = argv[1];
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    const char *iconv_name = argc > 4 ? argv[4] : NULL;
    if (runs < 1)
        runs = 1;

    wenc_id id = wenc_lookup(label, strlen(label));
    if (id == WENC_INVALID) {
        fprintf(stderr, "%s: unknown label\n", label);
        return 2;
    }
    size_t len;
    unsigned char *src = read_file(argv[2], &len);
    if (!src)
        return 1;

    wenc_decoder dec;
    wenc_decoder_init(&dec, id, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
    size_t cap = wenc_decoder_max_utf8_len(&dec, len);
    if (cap < 4 * len)
        cap = 4 * len;          /* room for iconv too */
    unsigned char *dst = malloc(cap);
    if (!dst) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    memset(dst, 0, cap);        /* fault the pages in before timing */

    double best = 1e30;
    size_t written = 0;
    for (int r = 0; r < runs; r++) {
        wenc_decoder_reset(&dec);
        size_t in = len, out = cap;
        double t0 = now();
        wenc_status st = wenc_decode_to_utf8(&dec, src, &in, dst, &out, true);
        double t = now() - t0;
        if (st != WENC_INPUT_EMPTY || in != len) {
            fprintf(stderr, "wenc_decode_to_utf8: unexpected status %d\n",
                    (int)st);
            return 1;
        }
        written = out;
        if (t < best)
            best = t;
    }
    printf("wenc %.1f %zu\n", (double)len / best / 1e6, written);

    /* The same stream in READ_SIZE pieces, output into a small buffer that
     * stays in cache: what the CLI does, minus read(2) and write(2). */
    enum { CHUNK = 64 * 1024 };
    size_t small_cap = wenc_decoder_max_utf8_len(&dec, CHUNK) + 16;
    unsigned char *small = malloc(small_cap);
    if (!small) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    best = 1e30;
    size_t sink = 0;
    for (int r = 0; r < runs; r++) {
        wenc_decoder_reset(&dec);
        size_t pos = 0;
        double t0 = now();
        do {
            size_t in = len - pos < CHUNK ? len - pos : CHUNK;
            bool last = pos + in == len;
            size_t out = small_cap;
            wenc_decode_to_utf8(&dec, src + pos, &in, small, &out, last);
            pos += in;
            sink += out ? small[out - 1] : 0;
        } while (pos < len);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    free(small);
    printf("chunked %.1f %zu\n", (double)len / best / 1e6, sink & 1);

    best = 1e30;
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        memcpy(dst, src, len);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    /* Keep the copy observable so it is not optimised away. */
    if (dst[len / 2] != src[len / 2])
        return 1;
    printf("memcpy %.1f\n", (double)len / best / 1e6);

    if (iconv_name) {
        size_t iconv_out = 0;
        double t = time_iconv(iconv_name, src, len, dst, cap, runs,
                              &iconv_out);
        if (t > 0)
            printf("iconv %.1f %zu\n", (double)len / t / 1e6, iconv_out);
        else
            printf("iconv n/a\n");
    }
    free(dst);
    free(src);
    return 0;
}

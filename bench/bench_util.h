/*
 * bench/bench_util.h — what the benchmark programs share: a monotonic clock
 * and reading a whole file. Included by one .c file each (static functions).
 */
#ifndef WENC_BENCH_UTIL_H
#define WENC_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        unsigned char *grown = realloc(buf, cap);
        if (!grown)
            free(buf);
        buf = grown;
    }
    if (!buf || ferror(f)) {
        fprintf(stderr, "%s: read failed\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

#endif

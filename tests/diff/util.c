/* Random numbers, byte buffers and case/outcome housekeeping. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

uint64_t rng_next(diff_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

uint32_t rng_below(diff_rng *rng, uint32_t bound)
{
    return bound == 0 ? 0 : (uint32_t)(rng_next(rng) % bound);
}

uint32_t rng_range(diff_rng *rng, uint32_t low, uint32_t high)
{
    return low + rng_below(rng, high - low + 1);
}

bool rng_percent(diff_rng *rng, uint32_t percent)
{
    return rng_below(rng, 100) < percent;
}

void *diff_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "diff: out of memory\n");
        abort();
    }
    return p;
}

void bytes_reserve(diff_bytes *b, size_t extra)
{
    if (b->data && b->cap - b->len >= extra)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->len < extra)
        cap *= 2;
    uint8_t *data = realloc(b->data, cap);
    if (!data) {
        fprintf(stderr, "diff: out of memory\n");
        abort();
    }
    b->data = data;
    b->cap = cap;
}

void bytes_push(diff_bytes *b, uint8_t byte)
{
    bytes_reserve(b, 1);
    b->data[b->len++] = byte;
}

void bytes_append(diff_bytes *b, const void *data, size_t len)
{
    if (len == 0)
        return;
    bytes_reserve(b, len);
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

void bytes_push_u16le(diff_bytes *b, uint16_t unit)
{
    bytes_push(b, (uint8_t)(unit & 0xFF));
    bytes_push(b, (uint8_t)(unit >> 8));
}

void bytes_push_utf8(diff_bytes *b, uint32_t cp)
{
    if (cp < 0x80) {
        bytes_push(b, (uint8_t)cp);
    } else if (cp < 0x800) {
        bytes_push(b, (uint8_t)(0xC0 | cp >> 6));
        bytes_push(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        bytes_push(b, (uint8_t)(0xE0 | cp >> 12));
        bytes_push(b, (uint8_t)(0x80 | (cp >> 6 & 0x3F)));
        bytes_push(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else {
        bytes_push(b, (uint8_t)(0xF0 | cp >> 18));
        bytes_push(b, (uint8_t)(0x80 | (cp >> 12 & 0x3F)));
        bytes_push(b, (uint8_t)(0x80 | (cp >> 6 & 0x3F)));
        bytes_push(b, (uint8_t)(0x80 | (cp & 0x3F)));
    }
}

void bytes_free(diff_bytes *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void outcome_free(diff_outcome *outcome)
{
    bytes_free(&outcome->output);
    free(outcome->errors);
    memset(outcome, 0, sizeof *outcome);
}

void case_free(diff_case *c)
{
    bytes_free(&c->input);
}

void case_copy(diff_case *dst, const diff_case *src)
{
    *dst = *src;
    memset(&dst->input, 0, sizeof dst->input);
    bytes_append(&dst->input, src->input.data, src->input.len);
}

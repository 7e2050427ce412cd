/* test_utf8_long.c — the UTF-8 decoder, and the UTF-8 encoder reading
 * UTF-8, on inputs long enough for their vector kernels (32 and 64 bytes a
 * step): every malformed pair and triple, and
 * sampled quadruples, at offsets that straddle the kernels' vectors; long
 * mixed text with errors, whole, chunked and at small output capacities;
 * every cut of a long text; four-byte sequences (surrogate pairs) at every
 * offset. The kernels themselves (to UTF-8 and to UTF-16) are checked
 * directly too: exact where they vouch, never short of what they promise,
 * never a unit past the room they are given. Expected output comes from ref_decode(), the
 * §8.1.1 decoder written out here, byte by byte, from the Standard. */
#include "harness.h"
#include "simd_level.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* §8.1.1 UTF-8 decoder, one byte at a time, to code points (U+FFFD for each
 * error); returns how many it wrote to out (room for n + 1). *valid_prefix:
 * the bytes before the first error's sequence (all whole, valid ones). */
static size_t ref_decode(const uint8_t *s, size_t n, uint32_t *out,
                         size_t *valid_prefix)
{
    uint32_t code_point = 0, lower = 0x80, upper = 0xBF;
    unsigned needed = 0, seen = 0;
    size_t o = 0, boundary = 0;
    bool errors = false;
    for (size_t i = 0; i < n; i++) {
        if (needed == 0 && !errors)
            boundary = i;
        uint32_t b = s[i];
        if (needed == 0) {
            if (b <= 0x7F) {
                out[o++] = b;
            } else if (b >= 0xC2 && b <= 0xDF) {
                needed = 1;
                code_point = b & 0x1F;
            } else if (b >= 0xE0 && b <= 0xEF) {
                if (b == 0xE0)
                    lower = 0xA0;
                if (b == 0xED)
                    upper = 0x9F;
                needed = 2;
                code_point = b & 0xF;
            } else if (b >= 0xF0 && b <= 0xF4) {
                if (b == 0xF0)
                    lower = 0x90;
                if (b == 0xF4)
                    upper = 0x8F;
                needed = 3;
                code_point = b & 0x7;
            } else {
                out[o++] = 0xFFFD;
                errors = true;
            }
            continue;
        }
        if (b < lower || b > upper) {
            errors = true;
            code_point = needed = seen = 0;
            lower = 0x80;
            upper = 0xBF;
            out[o++] = 0xFFFD;
            i--; /* restore b to the stream */
            continue;
        }
        lower = 0x80;
        upper = 0xBF;
        code_point = (code_point << 6) | (b & 0x3F);
        if (++seen == needed) {
            out[o++] = code_point;
            code_point = needed = seen = 0;
        }
    }
    if (needed != 0)
        out[o++] = 0xFFFD;
    else if (!errors)
        boundary = n;
    *valid_prefix = boundary;
    return o;
}

static size_t put_utf8(uint32_t cp, uint8_t *d)
{
    if (cp < 0x80) {
        d[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (uint8_t)(0xC0 | cp >> 6);
        d[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (uint8_t)(0xE0 | cp >> 12);
        d[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        d[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (uint8_t)(0xF0 | cp >> 18);
    d[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
    d[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    d[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

typedef struct expected {
    uint8_t *utf8;
    uint16_t *utf16;
    size_t utf8_len, utf16_len;
    size_t valid_prefix;
    uint32_t *cps;
} expected;

static void expected_init(expected *x, size_t n)
{
    x->utf8 = malloc(3 * n + 3);
    x->utf16 = malloc(sizeof(uint16_t) * (n + 1));
    x->cps = malloc(sizeof(uint32_t) * (n + 1));
    if (!x->utf8 || !x->utf16 || !x->cps)
        abort();
}

static void expected_free(expected *x)
{
    free(x->utf8);
    free(x->utf16);
    free(x->cps);
}

static void expected_of(expected *x, const uint8_t *s, size_t n)
{
    size_t count = ref_decode(s, n, x->cps, &x->valid_prefix);
    x->utf8_len = x->utf16_len = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t cp = x->cps[i];
        x->utf8_len += put_utf8(cp, x->utf8 + x->utf8_len);
        if (cp < 0x10000) {
            x->utf16[x->utf16_len++] = (uint16_t)cp;
        } else {
            x->utf16[x->utf16_len++] = (uint16_t)(0xD800 | (cp - 0x10000) >> 10);
            x->utf16[x->utf16_len++] = (uint16_t)(0xDC00 | (cp & 0x3FF));
        }
    }
}

/* The UTF-16 units of the first sequences of x making `bytes` bytes, all
 * before its first error. */
static size_t units_of_prefix(const expected *x, size_t bytes)
{
    uint8_t scratch[4];
    size_t b = 0, units = 0;
    for (size_t i = 0; b < bytes; i++) {
        b += put_utf8(x->cps[i], scratch);
        units += x->cps[i] >= 0x10000 ? 2 : 1;
    }
    return units;
}

/* The UTF-16 kernel alone into `room` units (out16 has one more, a guard):
 * exact where it vouches, nothing written past its room, and with room
 * for the whole valid prefix not stopping short of `least`. */
static bool check_utf16_kernel(th *t, const uint8_t *s, size_t n,
                               const expected *x, size_t room, size_t least,
                               uint16_t *out16)
{
    bool ok = true;
    size_t v = x->valid_prefix;
    size_t made = SIZE_MAX;
    for (size_t i = 0; i <= room; i++)
        out16[i] = 0x5A5A;
    size_t reach = wenc_utf8_to_utf16_vectors(s, n, out16, room, &made);
    ok &= CHECKF(t, reach <= v && reach >= least && made <= room,
                 "UTF-16 kernel vouched for %zu bytes, %zu units in room "
                 "for %zu; valid prefix %zu of %zu, at least %zu expected",
                 reach, made, room, v, n, least);
    ok &= CHECKF(t, out16[room] == 0x5A5A, "UTF-16 kernel wrote past its "
                 "room of %zu units", room);
    if (reach <= v && made <= room)
        ok &= CHECK_UNITS(t, "UTF-16 kernel's output", x->utf16,
                          units_of_prefix(x, reach), out16, made);
    return ok;
}

/* Decodes s[0..n) in one call to both sinks, with output buffers exactly as
 * large as the expected output plus a guard, and compares. */
static bool check_one_call(th *t, const uint8_t *s, size_t n,
                           const expected *x, uint8_t *out8, uint16_t *out16)
{
    wenc_decoder dec;
    bool ok = true;
    wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
    size_t src_len = n, dst_len = x->utf8_len;
    out8[dst_len] = 0x5A;
    wenc_status st =
        wenc_decode_to_utf8(&dec, s, &src_len, out8, &dst_len, true);
    ok &= CHECK(t, st == WENC_INPUT_EMPTY && src_len == n);
    ok &= CHECK_BYTES(t, "to UTF-8", x->utf8, x->utf8_len, out8, dst_len);
    ok &= CHECK(t, out8[x->utf8_len] == 0x5A);

    wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
    src_len = n;
    dst_len = x->utf16_len;
    out16[dst_len] = 0x5A5A;
    st = wenc_decode_to_utf16(&dec, s, &src_len, out16, &dst_len, true);
    ok &= CHECK(t, st == WENC_INPUT_EMPTY && src_len == n);
    ok &= CHECK_UNITS(t, "to UTF-16", x->utf16, x->utf16_len, out16, dst_len);
    ok &= CHECK(t, out16[x->utf16_len] == 0x5A5A);

    /* The UTF-8 encoder reads ill-formed UTF-8 as the decoder does */
    wenc_encoder enc;
    wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_HTML);
    src_len = n;
    dst_len = x->utf8_len;
    out8[dst_len] = 0x5A;
    st = wenc_encode_from_utf8(&enc, s, &src_len, out8, &dst_len, true);
    ok &= CHECK(t, st == WENC_INPUT_EMPTY && src_len == n);
    ok &= CHECK_BYTES(t, "encoded to UTF-8", x->utf8, x->utf8_len, out8,
                      dst_len);
    ok &= CHECK(t, out8[x->utf8_len] == 0x5A);

    /* The vector kernel: exact where it vouches, and not stopping short
     * (a false error would only cost speed, so nothing else sees it). */
    size_t v = x->valid_prefix;
    unsigned width = wenc_utf8_vector_width(n);
    if (width > 0) {
        size_t reach = wenc_utf8_copy_valid_vectors(s, out8, n);
        size_t least = v / width * width;
        least = width == 64 && v == n ? n : least < 3 ? 0 : least - 3;
        ok &= CHECKF(t, reach <= v && reach >= least,
                     "kernel of %u bytes vouched for %zu bytes; valid "
                     "prefix %zu of %zu",
                     width, reach, v, n);
        ok &= CHECK_BYTES(t, "kernel's copy", s, reach, out8, reach);
        /* The UTF-16 kernel stops before the block after the one holding
         * the error, less a sequence that block continues: with room for
         * exactly the valid prefix; then in half that room. The NEON
         * kernel's blocks start where its runs of three-byte sequences
         * end, off the grid of 16 bytes: it stops less than two blocks and
         * 3 bytes before the error (at most 3 bytes after v). */
        size_t room = units_of_prefix(x, v);
        least = v / width * width;
        least = least < width + 3 ? 0 : least - width - 3;
        if (width == 16)
            least = v < 2 * width + 2 ? 0 : v - 2 * width - 2;
        if (v == n)
            least = n;
        ok &= check_utf16_kernel(t, s, n, x, room, least, out16);
        ok &= check_utf16_kernel(t, s, n, x, room / 2, 0, out16);
    }
    return ok;
}

/* Filler text whose sequences are 1 to 4 bytes long, by `kind`. */
static size_t fill(uint8_t *d, size_t n, int kind)
{
    static const char *const pieces[] = {
        "a", "\xC3\xA9", "\xE3\x81\x82", "\xF0\x9F\x98\x80"};
    size_t o = 0, k = 0;
    while (o < n) {
        const char *p = pieces[kind == 4 ? k++ % 4 : (size_t)kind];
        size_t len = strlen(p);
        if (o + len > n)
            p = "z", len = 1;
        memcpy(d + o, p, len);
        o += len;
    }
    return o;
}

/* With WENC_TEST_QUICK set (tools/cross-test.sh sets it for runs under an
 * emulator, and CI for the sanitizer and valgrind runs, where the probes
 * take minutes), each probe is placed at 4 of its 32 places (every eighth
 * of the fillers' offsets in turn), the next 4 for the next probe, so that
 * every offset of every filler still meets probes of every length; main()
 * says so. */
enum { QUICK_PLACEMENT_STRIDE = 8 };
static size_t placement_stride = 1;

/* A probe of 1-4 bytes put at offset `at` of 160 bytes of filler (ASCII,
 * two-byte, three-byte and mixed), for offsets that place it across a 32
 * and a 64-byte boundary, at the start of the first and the second block,
 * and in the last 32 bytes (which the 64-byte kernel reads under a mask);
 * the text ending after the probe too. */
static unsigned long probe_everywhere(th *t, const uint8_t *probe, size_t len,
                                      expected *x, uint8_t *out8,
                                      uint16_t *out16)
{
    static const size_t offsets[] = {0, 30, 31, 62, 63, 64, 65, 127};
    static const int kinds[] = {0, 1, 2, 4};
    static size_t serial;
    const size_t phase = serial++ % placement_stride;
    const size_t n_offsets = sizeof offsets / sizeof offsets[0];
    uint8_t buf[200];
    unsigned long failures = 0;
    for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++) {
        int kind = kinds[j];
        for (size_t k = 0; k < n_offsets; k++) {
            if ((j * n_offsets + k) % placement_stride != phase)
                continue;
            size_t at = offsets[k];
            size_t n = 160;
            fill(buf, n, kind);
            memcpy(buf + at, probe, len);
            /* also end right after the probe */
            size_t ends[2] = {n, at + len};
            for (int e = 0; e < 2; e++) {
                expected_of(x, buf, ends[e]);
                if (!check_one_call(t, buf, ends[e], x, out8, out16)) {
                    failures++;
                    if (failures == 1) {
                        char hex[16] = "";
                        for (size_t i = 0; i < len; i++)
                            snprintf(hex + 3 * i, 4, "%02X ", probe[i]);
                        th_note(t, "first failure: probe %s at %zu of %zu, "
                                   "filler %d",
                                hex, at, ends[e], kind);
                    }
                }
            }
        }
    }
    return failures;
}

static void test_probes(th *t)
{
    expected x;
    expected_init(&x, 256);
    uint8_t out8[800];
    uint16_t out16[300];
    uint8_t p[4];
    unsigned long failures = 0;
    for (unsigned a = 0; a < 256 && failures < 5; a++) {
        p[0] = (uint8_t)a;
        th_ctx(t, "probe %02X", a);
        failures += probe_everywhere(t, p, 1, &x, out8, out16);
        for (unsigned b = 0; b < 256 && a >= 0x80 && failures < 5; b++) {
            p[1] = (uint8_t)b;
            th_ctx(t, "probe %02X %02X", a, b);
            failures += probe_everywhere(t, p, 2, &x, out8, out16);
        }
    }
    /* Every third byte after a lead of three or four and a continuation;
     * a sample of fourth bytes. */
    static const uint8_t fourth[] = {0x41, 0x7F, 0x80, 0x8F, 0x90,
                                     0xBF, 0xC0, 0xF0, 0xFF};
    for (unsigned a = 0xE0; a <= 0xF7 && failures < 5; a++) {
        p[0] = (uint8_t)a;
        for (unsigned b = 0x80; b <= 0xBF && failures < 5; b += 0x0F) {
            p[1] = (uint8_t)b;
            for (unsigned c = 0; c < 256 && failures < 5; c += (c >= 0x7F && c <= 0xC1) ? 1 : 7) {
                p[2] = (uint8_t)c;
                th_ctx(t, "probe %02X %02X %02X", a, b, c);
                failures += probe_everywhere(t, p, 3, &x, out8, out16);
                if (a < 0xF0 || c < 0x80 || c > 0xBF)
                    continue;
                for (size_t d = 0; d < sizeof fourth; d++) {
                    p[3] = fourth[d];
                    th_ctx(t, "probe %02X %02X %02X %02X", a, b, c, p[3]);
                    failures += probe_everywhere(t, p, 4, &x, out8, out16);
                }
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
}

/* Random text: mostly valid sequences of every length, runs of ASCII, and
 * now and then a malformed byte or a cut-off sequence. */
static size_t random_text(th_rng *r, uint8_t *d, size_t n, unsigned error_rate)
{
    size_t o = 0;
    while (o + 4 <= n) {
        size_t pick = th_rng_below(r, 100);
        uint32_t cp;
        if (pick < error_rate) {
            static const uint8_t bad[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0,
                                          0xED, 0xF0, 0xF4, 0xF5, 0xFF};
            d[o++] = bad[th_rng_below(r, sizeof bad)];
            continue;
        }
        if (pick < 40) {
            size_t run = 1 + th_rng_below(r, 70);
            for (size_t i = 0; i < run && o + 4 <= n; i++)
                d[o++] = (uint8_t)(0x20 + th_rng_below(r, 0x5F));
            continue;
        }
        if (pick < 55)
            cp = 0x80 + (uint32_t)th_rng_below(r, 0x780);
        else if (pick < 95) {
            do
                cp = 0x800 + (uint32_t)th_rng_below(r, 0xF800);
            while (cp >= 0xD800 && cp <= 0xDFFF);
        } else
            cp = 0x10000 + (uint32_t)th_rng_below(r, 0x100000);
        size_t len = put_utf8(cp, d + o);
        if (pick == 54 && len > 1)
            len--; /* cut off */
        o += len;
    }
    return o;
}

static void test_long_random(th *t)
{
    enum { N = 1 << 16 };
    uint8_t *text = malloc(N);
    uint8_t *out8 = malloc(3 * N + 8);
    uint16_t *out16 = malloc(2 * N + 16);
    expected x;
    expected_init(&x, N);
    th_rng r;
    th_rng_seed(&r, 0x75746638);
    for (unsigned round = 0; round < 24; round++) {
        unsigned rate = round % 4 == 0 ? 0 : round % 4 == 1 ? 1 : 5;
        size_t n = random_text(&r, text, N - th_rng_below(&r, 64), rate);
        expected_of(&x, text, n);
        th_ctx(t, "round %u, %zu bytes, error rate %u%%", round, n, rate);
        check_one_call(t, text, n, &x, out8, out16);

        /* chunked at random points, at a random output capacity */
        size_t splits[64];
        size_t n_splits = th_random_splits(&r, n, splits, 64);
        size_t capacities[] = {4, 7, 33, 64, 65, 1000, 4096};
        for (int utf16 = 0; utf16 < 2; utf16++) {
            th_dec_opts o = {WENC_UTF_8, WENC_BOM_KEEP,
                             WENC_ERRORS_REPLACEMENT, utf16 != 0,
                             splits, n_splits,
                             capacities[round % 7]};
            th_dec_result res;
            if (!th_decode(&o, text, n, &res)) {
                CHECKF(t, false, "%s", res.problem);
            } else if (utf16) {
                CHECK_UNITS(t, "chunked to UTF-16", x.utf16, x.utf16_len,
                            res.out16.p, res.out16.len);
            } else {
                CHECK_BYTES(t, "chunked to UTF-8", x.utf8, x.utf8_len,
                            res.out8.p, res.out8.len);
            }
            th_dec_result_free(&res);
        }
        th_enc_opts eo = {WENC_UTF_8, WENC_ERRORS_HTML, false, splits,
                          n_splits, capacities[(round + 3) % 7]};
        th_enc_result er;
        if (!th_encode(&eo, text, n, &er))
            CHECKF(t, false, "%s", er.problem);
        else
            CHECK_BYTES(t, "chunked, encoded to UTF-8", x.utf8, x.utf8_len,
                        er.out.p, er.out.len);
        th_enc_result_free(&er);
    }
    th_ctx_clear(t);
    expected_free(&x);
    free(text);
    free(out8);
    free(out16);
}

/* A four-byte sequence (a surrogate pair in UTF-16) at every offset of
 * valid text of each filler, the text also ending right after it; and two in
 * a row. */
static void test_four_byte_everywhere(th *t)
{
    enum { N = 300 };
    static const uint8_t pairs[][8] = {
        {0xF0, 0x9F, 0x98, 0x80, 0xF0, 0x90, 0x80, 0x80},
        {0xF4, 0x8F, 0xBF, 0xBF, 0xF3, 0xA0, 0x80, 0x81}};
    uint8_t text[N];
    uint8_t out8[3 * N + 8];
    uint16_t out16[N + 8];
    expected x;
    expected_init(&x, N);
    for (int kind = 0; kind <= 4; kind++) {
        for (size_t at = 0; at + 8 <= N; at++) {
            for (size_t p = 0; p < 2; p++) {
                size_t len = p == 0 ? 4 : 8;
                fill(text, at, kind);
                memcpy(text + at, pairs[p], len);
                fill(text + at + len, N - at - len, kind);
                size_t ends[2] = {N, at + len};
                for (int e = 0; e < 2; e++) {
                    th_ctx(t, "filler %d, %zu-byte probe at %zu of %zu", kind,
                           len, at, ends[e]);
                    expected_of(&x, text, ends[e]);
                    CHECK(t, x.valid_prefix == ends[e]);
                    check_one_call(t, text, ends[e], &x, out8, out16);
                }
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
}

/* Every cut of a long text of every sequence length ends inside a sequence
 * somewhere: a cut-off sequence at the end is one U+FFFD. */
static void test_every_cut(th *t)
{
    enum { N = 400 };
    uint8_t text[N], out8[3 * N + 8];
    uint16_t out16[N + 8];
    expected x;
    expected_init(&x, N);
    for (int kind = 0; kind <= 4; kind++) {
        fill(text, N, kind);
        for (size_t n = 0; n <= N; n++) {
            th_ctx(t, "filler %d cut at %zu", kind, n);
            expected_of(&x, text, n);
            /* a buffer that ends where the text does, for the sanitizers
             * to see a read past the end */
            uint8_t *cut = malloc(n > 0 ? n : 1);
            if (!cut)
                abort();
            memcpy(cut, text, n);
            check_one_call(t, cut, n, &x, out8, out16);
            free(cut);
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
}

/* Four 64-byte steps of the UTF-8 -> UTF-8 kernel, each of five kinds
 * (ASCII; two-byte; three-byte; all lengths; two-byte after one three-byte
 * sequence), in every order, with a defect or a valid sequence across one
 * boundary between steps or across the middle of the step after it: where
 * the kernel turns between vouching for a step and the full check, and
 * between the full check of the first step and of the ones after it. */
static void test_step_orders(th *t)
{
    enum { STEPS = 4, STEP = 64, N = STEPS * STEP + 10 };
    static const int kinds[] = {0, 1, 2, 4, 5};
    enum { KINDS = sizeof kinds / sizeof kinds[0] };
    static const struct {
        int at; /* from the boundary */
        const char *bytes;
    } defects[] = {
        {0, ""},           {-1, "\xC3"},         {-1, "\xC3\xA9"},
        {-1, "\xE3"},      {-2, "\xE3\x81"},     {-2, "\xE3\x81\x82"},
        {-2, "\xE3"},      {-3, "\xF0\x9F\x98"}, {-1, "\xC0"},
        {-1, "\xC1\x81"},  {0, "\x80"},         {-1, "\xED\xA0"},
        {-2, "\xE0\x80"},  {-1, "\xF5"},
        {-1, "\xE3\x81\x82"},          {-3, "\xF0\x9F\x98\x80"},
        {-2, "\xF0\x9F\x98\x80"},      {-1, "\xF0\x9F\x98\x80"},
        {31, "\xE3"},                  {32, "\x80"},
        {30, "\xF0\x9F\x98\x80"},      {31, "\xE3\x81\x82"}};
    uint8_t text[N], out8[3 * N + 8];
    uint16_t out16[N + 8];
    expected x;
    expected_init(&x, N);
    for (unsigned order = 0; order < KINDS * KINDS * KINDS * KINDS; order++) {
        for (size_t d = 0; d < sizeof defects / sizeof defects[0]; d++) {
            for (size_t boundary = 1; boundary < STEPS; boundary++) {
                unsigned o = order;
                for (size_t k = 0; k < STEPS; k++, o /= KINDS) {
                    uint8_t *step = text + k * STEP;
                    int kind = kinds[o % KINDS];
                    if (kind == 5) {
                        memcpy(step, "\xE2\x80\x9E", 3);
                        fill(step + 3, STEP - 3, 1);
                    } else {
                        fill(step, STEP, kind);
                    }
                }
                memset(text + STEPS * STEP, 'x', N - STEPS * STEP);
                const char *b = defects[d].bytes;
                memcpy(text + boundary * STEP + defects[d].at, b, strlen(b));
                th_ctx(t, "step kinds %u (base %u), defect %zu at step %zu",
                       order, KINDS, d, boundary);
                expected_of(&x, text, N);
                check_one_call(t, text, N, &x, out8, out16);
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
}

/* check_one_call(), then the UTF-16 kernel alone in room for the valid
 * prefix and up to 9 units more or fewer. */
static void check_with_rooms(th *t, const uint8_t *s, size_t n, expected *x,
                             uint8_t *out8, uint16_t *out16)
{
    expected_of(x, s, n);
    check_one_call(t, s, n, x, out8, out16);
    if (wenc_utf8_vector_width(n) == 0)
        return;
    size_t room = units_of_prefix(x, x->valid_prefix);
    for (size_t r = room > 9 ? room - 9 : 0; r <= room + 9; r++)
        check_utf16_kernel(t, s, n, x, r, 0, out16);
}

/* UTF-8 -> UTF-16 where two-byte text (the block kernel's) turns into
 * three-byte text (the run kernel's windows), behind 0-31 bytes of ASCII
 * that move the turn across the blocks: the three-byte run whole, or with
 * an error or an ASCII byte at one of its first sequences (a window taken
 * in part) or later; the UTF-16 kernel also in room for the valid prefix
 * and up to 9 units more or fewer (around the windows' 8-unit stores). */
static void test_three_byte_turns(th *t)
{
    enum { N = 31 + 128 + 3 * 96 + 16 };
    static const char *const breaks[] = {"\xE0\x80\x80", "\xED\xA0\x80",
                                         "x", "\xC3\xA9"};
    static const size_t at[] = {0, 1, 2, 3, 4, 5, 6, 17, 95};
    uint8_t *text = malloc(N);
    uint8_t out8[3 * N + 8];
    uint16_t out16[N + 16];
    expected x;
    expected_init(&x, N);
    if (!text)
        abort();
    enum { BREAKS = sizeof breaks / sizeof breaks[0] };
    for (size_t shift = 0; shift < 32; shift++) {
        /* b == BREAKS: the run whole, once */
        for (size_t b = 0; b <= BREAKS; b++) {
            size_t places = b < BREAKS ? sizeof at / sizeof at[0] : 1;
            for (size_t k = 0; k < places; k++) {
                size_t n = 0;
                memset(text, 'a', shift);
                n += shift;
                n += fill(text + n, 128, 1);
                uint8_t *run = text + n;
                n += fill(text + n, 3 * 96, 2);
                if (b < BREAKS)
                    memcpy(run + 3 * at[k], breaks[b], strlen(breaks[b]));
                memset(text + n, 'z', 16);
                n += 16;
                th_ctx(t, "%zu bytes of ASCII, break %zu at sequence %zu", shift,
                       b, at[k]);
                check_with_rooms(t, text, n, &x, out8, out16);
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
    free(text);
}

/* Words of one to five three-byte sequences with one ASCII byte between
 * (Korean: the scalar loop takes an ASCII byte and the sequence after it in
 * one step), behind 0-7 bytes of ASCII, with a break put at each of the
 * first 48 bytes: a sequence that is an error right after the ASCII byte
 * (overlong, surrogate, cut off by ASCII), two ASCII bytes, a two-byte
 * sequence, a lead and the input's end; decoded in one call and streamed
 * into 1-5 units of room a call. */
static void test_three_byte_words(th *t)
{
    enum { N = 7 + 3 * 60 + 16 };
    static const char *const breaks[] = {
        " \xE0\x80\x80", " \xED\xA0\x80", " \xEA\xB0 ", "  ",
        " \xC3\xA9", " \xEA"};
    uint8_t *text = malloc(N);
    uint8_t out8[3 * N + 8];
    uint16_t out16[N + 16];
    expected x;
    expected_init(&x, N);
    if (!text)
        abort();
    for (size_t shift = 0; shift < 8; shift++) {
        for (size_t b = 0; b <= sizeof breaks / sizeof breaks[0]; b++) {
            for (size_t at = 0; at < (b == 0 ? 1 : 48); at++) {
                size_t n = shift, word = 1, in_word = 0;
                memset(text, 'a', shift);
                /* 가 각 간 ... and a space or a digit after each word */
                while (n + 4 <= shift + 3 * 60) {
                    if (in_word == word) {
                        text[n++] = (uint8_t)(word == 3 ? '7' : ' ');
                        word = word % 5 + 1;
                        in_word = 0;
                        continue;
                    }
                    uint32_t cp = 0xAC00 + (uint32_t)(n * 7 % 11172);
                    n += put_utf8(cp, text + n);
                    in_word++;
                }
                if (b > 0) {
                    const char *piece = breaks[b - 1];
                    size_t len = strlen(piece);
                    if (b == sizeof breaks / sizeof breaks[0])
                        n = shift + at; /* the lead last of all */
                    memcpy(text + shift + at, piece, len);
                    if (shift + at + len > n)
                        n = shift + at + len;
                }
                if (b < sizeof breaks / sizeof breaks[0]) {
                    memset(text + n, 'z', 16);
                    n += 16;
                }
                th_ctx(t, "%zu bytes of ASCII, break %zu at byte %zu", shift,
                       b, at);
                check_with_rooms(t, text, n, &x, out8, out16);
                for (size_t cap = 1; cap <= 5; cap++) {
                    size_t splits[1] = {n / 2};
                    th_dec_opts o = {WENC_UTF_8, WENC_BOM_KEEP,
                                     WENC_ERRORS_REPLACEMENT, true, splits,
                                     cap % 2, cap};
                    th_dec_result res;
                    if (!th_decode(&o, text, n, &res))
                        CHECKF(t, false, "%s", res.problem);
                    else
                        CHECK_UNITS(t, "to UTF-16 in small rooms", x.utf16,
                                    x.utf16_len, res.out16.p, res.out16.len);
                    th_dec_result_free(&res);
                }
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
    free(text);
}

/* UTF-8 -> UTF-16 of two-byte text with a letter of ASCII every fifth byte
 * (the two-byte kernels' blocks, checked by where leads and continuations
 * are) behind 0-31 bytes of ASCII, with
 * one byte or a run of ASCII put at each of its first 80 bytes: a lead
 * then cut off at every lane of a block, a stray continuation, C0, C1, DF,
 * a lead of three bytes, a lead before 32 bytes of ASCII (a block of ASCII
 * after a block ending in a lead), valid sequences of three and four
 * bytes, a surrogate, two continuations; the UTF-16 kernel also in room for the valid
 * prefix and up to 9 units more or fewer. */
static void test_two_byte_breaks(th *t)
{
    enum { N = 31 + 2 * 100 + 16 };
    static const char *const breaks[] = {
        "x", "\x80", "\xC3", "\xC0", "\xE2",
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "\xC1", "\xDF",
        "\xE0\xA0\x80", "\xED\xA0\x80", "\xF4\x8F\xBF\xBF", "\xBF\xBF"};
    uint8_t *text = malloc(N);
    uint8_t out8[3 * N + 8];
    uint16_t out16[N + 16];
    expected x;
    expected_init(&x, N);
    if (!text)
        abort();
    for (size_t shift = 0; shift < 32; shift++) {
        for (size_t b = 0; b < sizeof breaks / sizeof breaks[0]; b++) {
            for (size_t at = 0; at < 80; at++) {
                size_t n = 0;
                memset(text, 'a', shift);
                n += shift;
                uint8_t *run = text + n;
                /* "éé a" over and over: a lead at every lane in turn */
                static const uint8_t period[5] = {0xC3, 0xA9, 0xC3, 0xA9, 'a'};
                for (size_t i = 0; i < 2 * 100; i++)
                    run[i] = period[i % 5];
                n += 2 * 100;
                memcpy(run + at, breaks[b], strlen(breaks[b]));
                memset(text + n, 'z', 16);
                n += 16;
                th_ctx(t, "%zu bytes of ASCII, break %zu at byte %zu", shift,
                       b, at);
                check_with_rooms(t, text, n, &x, out8, out16);
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
    free(text);
}

/* Where the output sits relative to the input modulo 4 KiB: the AVX2
 * validator's dense loop loads the bytes before each vector, or shifts them
 * in when the output starts less than 256 bytes after the input (4K
 * aliasing), so both ways are taken here on purpose. Dense Japanese text
 * (1500 bytes), 100 bytes of ASCII, 1536 more of Japanese; valid, or with
 * an error (a surrogate, a sequence cut off by ASCII, a stray
 * continuation, an overlong form) at a sequence boundary in the first
 * step, deep in the first run, and in the second run, where the dense loop
 * checks; decoded into outputs placed 0 to 4064 bytes after the input's
 * offset in its page. */
static void test_output_placement(th *t)
{
    enum { PAGE = 4096, N = 3 * 1024 + 64 };
    static const size_t offsets[] = {0, 1, 32, 64, 100, 200, 255, 256, 300,
                                     1024, 2048, 4000, 4064};
    static const char *const errors[] = {"", "\xED\xA0\x80", "\xE3\x81\x41",
                                         "\x80", "\xC0\x80\x80"};
    /* sequence boundaries: 3k in the first run, 1600 + 3k in the second */
    static const size_t at[] = {15, 600, 1900, 2800};
    uint8_t *arena = aligned_alloc(PAGE, 6 * PAGE);
    uint16_t *out16 = malloc((N + 16) * sizeof *out16);
    if (!arena || !out16)
        abort();
    expected x;
    expected_init(&x, N);
    uint8_t *text = arena;
    for (size_t e = 0; e < sizeof errors / sizeof errors[0]; e++) {
        for (size_t a = 0; a < (e == 0 ? 1 : sizeof at / sizeof at[0]); a++) {
            size_t n = fill(text, 1500, 2);
            n += fill(text + n, 100, 0);
            n += fill(text + n, N - n, 2);
            memcpy(text + at[a], errors[e], strlen(errors[e]));
            expected_of(&x, text, n);
            CHECK(t, e == 0 ? x.valid_prefix == n : x.valid_prefix == at[a]);
            /* with WENC_TEST_QUICK (valgrind, qemu) every third offset:
             * 0, 64 and 255 shift, 1024 and 4064 load */
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0];
                 o += placement_stride == 1 ? 1 : 3) {
                th_ctx(t, "error %zu at %zu, output %zu bytes after the input "
                          "in its page", e, at[a], offsets[o]);
                check_one_call(t, text, n, &x, arena + 2 * PAGE + offsets[o],
                               out16);
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
    free(out16);
    free(arena);
}

/* The UTF-16 kernel where an error or the end comes soon after a run of
 * ASCII: each run length before a two-byte sequence, then an error, a
 * cut-off sequence, more sequences and an error, or valid text; in room for
 * exactly the valid prefix, a unit more, 31 and 32 more (where the run
 * kernel starts writing whole vectors), and plenty. */
static void test_kernel_room(th *t)
{
    enum { RUN_MAX = 70, N = RUN_MAX + 69, ROOM = 2 * N };
    /* lead-ins that put the output off the input's 32-byte steps */
    static const char *const before[] = {"", "\xC3\xA9",
                                         "\xE2\x82\xAC\xC3\xA9"};
    static const char *const after[] = {
        "\xFF", "\xE3\x81",
        "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xFF",
        "\xE2\x80\x9C\xE2\x80\x9D\x80", ""};
    unsigned width = wenc_utf8_vector_width(N);
    if (width == 0) {
        th_note(t, "test_kernel_room: not applicable: no UTF-16 vector "
                   "kernel runs in this build on this CPU (the build's own "
                   "level is reported above)");
        return;
    }
    uint8_t text[N];
    uint16_t out16[ROOM + 1];
    expected x;
    expected_init(&x, N);
    for (size_t b = 0; b < sizeof before / sizeof before[0]; b++) {
        for (size_t run = 1; run <= RUN_MAX; run++) {
            for (size_t a = 0; a < sizeof after / sizeof after[0]; a++) {
                size_t lead_in = strlen(before[b]), len = strlen(after[a]);
                memcpy(text, before[b], lead_in);
                memset(text + lead_in, 'a', run);
                memcpy(text + lead_in + run, "\xC3\xA9", 2);
                memcpy(text + lead_in + run + 2, after[a], len);
                memset(text + lead_in + run + 2 + len, 'b',
                       N - lead_in - run - 2 - len);
                th_ctx(t, "lead-in %zu, %zu bytes of ASCII, then case %zu", b,
                       run, a);
                expected_of(&x, text, N);
                size_t v = x.valid_prefix;
                size_t least = v / width * width;
                least = v == N ? N : least < width + 3 ? 0 : least - width - 3;
                size_t exact = units_of_prefix(&x, v);
                size_t rooms[] = {exact, exact + 1, exact + 31, exact + 32,
                                  ROOM};
                for (size_t r = 0; r < sizeof rooms / sizeof rooms[0]; r++)
                    check_utf16_kernel(t, text, N, &x, rooms[r], least, out16);
            }
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
}

/* The UTF-16 kernel in every room from none to the whole output, over text
 * whose blocks are ASCII, two-byte text with ASCII between (German- or
 * Greek-like) or three-byte text, in runs of blocks long enough for the
 * two-byte block loops, the output off the input's grid by a sequence of
 * two or three bytes before them: wherever the room runs out, nothing is
 * written past it. */
static void test_kernel_every_room(th *t)
{
    enum { N = 700 };
    static const char *const lead_ins[] = {"", "\xC3\xA9", "\xE2\x82\xAC"};
    static const char *const pieces[] = {
        "abcdefghijklmnopqrstuvwxyz0123456789.,;:ABCDEFGHIJKLMNOPQRSTUVWXY",
        "Stra\xC3\x9F" "e \xC3\xBC" "ber Gr\xC3\xB6\xC3\x9F" "e, ",
        "\xCE\xB1\xCE\xB2\xCE\xB3 \xCE\xB4\xCE\xB5 ",
        "\xE3\x81\x82\xE3\x81\x84\xE3\x81\x86"};
    static const unsigned orders[][6] = {
        {1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2}, {0, 1, 1, 2, 2, 0},
        {1, 2, 3, 1, 1, 1}, {0, 0, 1, 1, 3, 2}, {2, 2, 1, 1, 0, 0}};
    if (wenc_utf8_vector_width(N) == 0) {
        th_note(t, "test_kernel_every_room: not applicable: no UTF-16 "
                   "vector kernel runs in this build on this CPU");
        return;
    }
    uint8_t text[N];
    uint16_t out16[N + 1];
    expected x;
    expected_init(&x, N);
    for (size_t l = 0; l < sizeof lead_ins / sizeof lead_ins[0]; l++) {
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
            size_t len = strlen(lead_ins[l]);
            memcpy(text, lead_ins[l], len);
            /* six stretches of about 110 bytes, each of whole pieces */
            for (size_t s = 0; s < 6; s++) {
                const char *p = pieces[orders[o][s]];
                size_t plen = strlen(p), end = len + 110;
                while (len + plen <= end && len + plen <= N) {
                    memcpy(text + len, p, plen);
                    len += plen;
                }
            }
            memset(text + len, 'z', N - len);
            expected_of(&x, text, N);
            size_t all = x.utf16_len;
            th_ctx(t, "lead-in %zu, order %zu", l, o);
            for (size_t room = 0; room <= all; room++)
                if (!check_utf16_kernel(t, text, N, &x, room, 0, out16))
                    break;
        }
    }
    th_ctx_clear(t);
    expected_free(&x);
}

/* Fatal mode: the error is found at its exact offset in long valid text. */
static void test_fatal_offsets(th *t)
{
    enum { N = 300 };
    uint8_t text[N], out[3 * N];
    for (int kind = 0; kind <= 4; kind++) {
        for (size_t at = 0; at + 2 < N; at += 7) {
            fill(text, N, kind);
            /* a lone continuation at `at`, after whole sequences */
            size_t start = at;
            while (start > 0 && (text[start] & 0xC0) == 0x80)
                start--;
            text[start] = 0x80;
            wenc_decoder dec;
            wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP,
                              WENC_ERRORS_FATAL);
            size_t src_len = N, dst_len = sizeof out;
            wenc_status st =
                wenc_decode_to_utf8(&dec, text, &src_len, out, &dst_len, true);
            th_ctx(t, "filler %d error at %zu", kind, start);
            CHECK(t, st == WENC_ERROR);
            CHECK_EQ(t, "consumed", start + 1, src_len);
            CHECK_BYTES(t, "before the error", text, start, out, dst_len);
        }
    }
    th_ctx_clear(t);
}

int main(void)
{
    th t;
    TH_BEGIN_SIMD(&t, "test_utf8_long");
    const char *quick = getenv("WENC_TEST_QUICK");
    if (quick && *quick && strcmp(quick, "0") != 0) {
        placement_stride = QUICK_PLACEMENT_STRIDE;
        th_note(&t, "REDUCED (WENC_TEST_QUICK is set): each probe at 4 of "
                    "its 32 placements (fillers and offsets), turning from "
                    "one probe to the next; unset WENC_TEST_QUICK for all "
                    "32");
    }
    test_probes(&t);
    test_every_cut(&t);
    test_step_orders(&t);
    test_three_byte_turns(&t);
    test_three_byte_words(&t);
    test_two_byte_breaks(&t);
    test_four_byte_everywhere(&t);
    test_long_random(&t);
    test_fatal_offsets(&t);
    test_kernel_room(&t);
    test_kernel_every_room(&t);
    test_output_placement(&t);
    return th_end(&t);
}

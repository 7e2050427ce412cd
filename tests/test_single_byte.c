/* test_single_byte.c — the single-byte encodings (§9), x-user-defined
 * (§14.5) and replacement (§14.1). Expected values come from the Standard's
 * index files, read at test time, and from the algorithms' text. */
#include "harness.h"
#include "simd_level.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sb_encoding {
    wenc_id id;
    const char *name;
    const char *index; /* "index-" + lower-case name + ".txt" */
} sb_encoding;

static const sb_encoding sb[28] = {
    {WENC_IBM866, "IBM866", "index-ibm866.txt"},
    {WENC_ISO_8859_2, "ISO-8859-2", "index-iso-8859-2.txt"},
    {WENC_ISO_8859_3, "ISO-8859-3", "index-iso-8859-3.txt"},
    {WENC_ISO_8859_4, "ISO-8859-4", "index-iso-8859-4.txt"},
    {WENC_ISO_8859_5, "ISO-8859-5", "index-iso-8859-5.txt"},
    {WENC_ISO_8859_6, "ISO-8859-6", "index-iso-8859-6.txt"},
    {WENC_ISO_8859_7, "ISO-8859-7", "index-iso-8859-7.txt"},
    {WENC_ISO_8859_8, "ISO-8859-8", "index-iso-8859-8.txt"},
    /* ISO-8859-8-I uses the index of ISO-8859-8 (§9) */
    {WENC_ISO_8859_8_I, "ISO-8859-8-I", "index-iso-8859-8.txt"},
    {WENC_ISO_8859_10, "ISO-8859-10", "index-iso-8859-10.txt"},
    {WENC_ISO_8859_13, "ISO-8859-13", "index-iso-8859-13.txt"},
    {WENC_ISO_8859_14, "ISO-8859-14", "index-iso-8859-14.txt"},
    {WENC_ISO_8859_15, "ISO-8859-15", "index-iso-8859-15.txt"},
    {WENC_ISO_8859_16, "ISO-8859-16", "index-iso-8859-16.txt"},
    {WENC_KOI8_R, "KOI8-R", "index-koi8-r.txt"},
    {WENC_KOI8_U, "KOI8-U", "index-koi8-u.txt"},
    {WENC_MACINTOSH, "macintosh", "index-macintosh.txt"},
    {WENC_WINDOWS_874, "windows-874", "index-windows-874.txt"},
    {WENC_WINDOWS_1250, "windows-1250", "index-windows-1250.txt"},
    {WENC_WINDOWS_1251, "windows-1251", "index-windows-1251.txt"},
    {WENC_WINDOWS_1252, "windows-1252", "index-windows-1252.txt"},
    {WENC_WINDOWS_1253, "windows-1253", "index-windows-1253.txt"},
    {WENC_WINDOWS_1254, "windows-1254", "index-windows-1254.txt"},
    {WENC_WINDOWS_1255, "windows-1255", "index-windows-1255.txt"},
    {WENC_WINDOWS_1256, "windows-1256", "index-windows-1256.txt"},
    {WENC_WINDOWS_1257, "windows-1257", "index-windows-1257.txt"},
    {WENC_WINDOWS_1258, "windows-1258", "index-windows-1258.txt"},
    {WENC_X_MAC_CYRILLIC, "x-mac-cyrillic", "index-x-mac-cyrillic.txt"},
};

/* A growable spec string. */
typedef struct spec {
    char *s;
    size_t len, cap;
} spec;

static void spec_add(spec *p, const char *fmt, unsigned long a, unsigned long b,
                     unsigned long c)
{
    char tok[64];
    int n;
    if (strchr(fmt, '@'))
        n = snprintf(tok, sizeof tok, fmt, a, b, c);
    else if (strchr(fmt, '+'))
        n = snprintf(tok, sizeof tok, fmt, a, b);
    else
        n = snprintf(tok, sizeof tok, fmt, a);
    if (p->len + (size_t)n + 2 > p->cap) {
        p->cap = (p->cap + (size_t)n + 2) * 2;
        p->s = realloc(p->s, p->cap);
        if (!p->s)
            abort();
    }
    if (p->len)
        p->s[p->len++] = ' ';
    memcpy(p->s + p->len, tok, (size_t)n + 1);
    p->len += (size_t)n;
}

static const char *spec_str(spec *p)
{
    return p->s ? p->s : "";
}

static void spec_free(spec *p)
{
    free(p->s);
    memset(p, 0, sizeof *p);
}

/* The decoder's output for one byte, per §9 single-byte decoder: ASCII byte
 * -> itself; else index[byte - 0x80], error when absent. */
static void add_decoded_byte(spec *x, const th_index *ix, unsigned b,
                             unsigned long offset)
{
    if (b < 0x80) {
        spec_add(x, "%lX", b, 0, 0);
        return;
    }
    uint32_t cp = th_index_cp(ix, b - 0x80);
    if (cp == TH_NO_CP)
        spec_add(x, "!%lu+%lu", offset, 1, 0);
    else
        spec_add(x, "%lX", cp, 0, 0);
}

static void check_decode_spec(th *t, wenc_id id, wenc_bom_mode bom,
                              const uint8_t *src, size_t n, const char *xs,
                              wenc_id enc)
{
    th_expect x;
    if (!th_expect_parse_decode(&x, xs)) {
        CHECKF(t, false, "test bug: bad expectation %s", xs);
        th_expect_free(&x);
        return;
    }
    th_check_decode_raw(t, __FILE__, __LINE__, id, bom, src, n, &x, enc);
    th_expect_free(&x);
}

static void check_encode_spec(th *t, wenc_id id, bool utf16, const void *src,
                              size_t n, const char *xs)
{
    th_expect x;
    if (!th_expect_parse_encode(&x, xs)) {
        CHECKF(t, false, "test bug: bad expectation %s", xs);
        th_expect_free(&x);
        return;
    }
    th_check_encode_raw(t, __FILE__, __LINE__, id, utf16, src, n, &x);
    th_expect_free(&x);
}

/* Encodes "A" cp "B" from UTF-8 and from UTF-16 and expects either byte
 * `byte` (>= 0) or an unmappable error for cp. */
static void check_encode_cp(th *t, wenc_id id, uint32_t cp, int byte)
{
    th_bytes u8 = {0};
    th_units u16 = {0};
    th_bytes_cp(&u8, 'A');
    th_bytes_cp(&u8, cp);
    th_bytes_cp(&u8, 'B');
    th_units_cp(&u16, 'A');
    th_units_cp(&u16, cp);
    th_units_cp(&u16, 'B');
    spec x8 = {0}, x16 = {0};
    spec_add(&x8, "41", 0, 0, 0);
    spec_add(&x16, "41", 0, 0, 0);
    if (byte >= 0) {
        spec_add(&x8, "%02lX", (unsigned long)byte, 0, 0);
        spec_add(&x16, "%02lX", (unsigned long)byte, 0, 0);
    } else {
        spec_add(&x8, "!%lX@%lu+%lu", cp, 1, th_utf8_len(cp));
        spec_add(&x16, "!%lX@%lu+%lu", cp, 1, cp >= 0x10000 ? 2 : 1);
    }
    spec_add(&x8, "42", 0, 0, 0);
    spec_add(&x16, "42", 0, 0, 0);
    th_ctx(t, "U+%04lX", (unsigned long)cp);
    check_encode_spec(t, id, false, u8.p, u8.len, spec_str(&x8));
    check_encode_spec(t, id, true, u16.p, u16.len, spec_str(&x16));
    spec_free(&x8);
    spec_free(&x16);
    th_bytes_free(&u8);
    th_units_free(&u16);
}

/* Code points that occur in some single-byte index (collected over all of
 * them), used as unmappable candidates for the others. */
typedef struct cp_set {
    uint32_t *v;
    size_t n, cap;
} cp_set;

static void set_add(cp_set *s, uint32_t cp)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == cp)
            return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            abort();
    }
    s->v[s->n++] = cp;
}

/* Decodes in[0..len) whole, byte per call and at small output capacities
 * (UTF-16, where the word loops run), against the index. */
static void check_long_input(th *t, const sb_encoding *e, const th_index *ix,
                             const uint8_t *in, size_t len, const char *what)
{
    spec x = {0};
    for (size_t i = 0; i < len; i++)
        add_decoded_byte(&x, ix, in[i], i);
    th_ctx(t, "%s %s", e->name, what);
    check_decode_spec(t, e->id, WENC_BOM_KEEP, in, len, spec_str(&x), e->id);

    th_expect want;
    if (!th_expect_parse_decode(&want, spec_str(&x))) {
        CHECKF(t, false, "test bug: bad expectation for %s", e->name);
        spec_free(&x);
        return;
    }
    static const size_t capacities[] = {2, 7, 16, 17, 63, 64, 65, 100};
    for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
        for (int fatal = 0; fatal < 2; fatal++) {
            th_dec_opts o = {e->id, WENC_BOM_KEEP,
                             fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT,
                             true, NULL, 0, capacities[c]};
            th_dec_result r;
            th_ctx(t, "%s %s, UTF-16, %s, capacity %zu", e->name, what,
                   fatal ? "fatal" : "replacement", capacities[c]);
            CHECKF(t, th_decode(&o, in, len, &r), "decode failed: %s",
                   r.problem);
            th_check_decode_result(t, __FILE__, __LINE__, &want, in, len,
                                   fatal != 0, true, false, &r);
            th_dec_result_free(&r);
        }
    }
    th_expect_free(&want);
    spec_free(&x);
}

static uint32_t next_random(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7FFF;
}

/* Every mapped high byte at every position mod 32 (the widest SIMD block),
 * in 128-byte rows each holding the 128 high bytes rotated by one more than
 * the row before; the unmapped ones (tested in test_long_mixed()) are
 * replaced by 'A', so that no block stops the table kernels. */
static void test_every_byte_every_lane(th *t, const sb_encoding *e,
                                       const th_index *ix)
{
    enum { ROWS = 32, LEN = 128 * ROWS };
    static uint8_t in[LEN];
    for (size_t i = 0; i < LEN; i++) {
        size_t p = (i % 128 + i / 128) % 128;
        in[i] = p < ix->size && ix->cp[p] != TH_NO_CP ? (uint8_t)(0x80 + p)
                                                      : 'A';
    }
    check_long_input(t, e, ix, in, LEN, "every high byte at every lane");
}

/* Long inputs that take every path of the decoder's loops: runs of ASCII
 * long and short, runs of high bytes, NULs, and the index's unmapped bytes
 * (when it has any) at positions of each residue mod 32. In the first the
 * high bytes are any; in the second, text-like, they are those whose code
 * point is the byte plus the delta most of the index's bytes share (an
 * alphabet in index order, as in windows-1251's 0xC0-0xFF), with other
 * high bytes among them at positions of each residue mod 32; in the third,
 * sparse (Latin-script text), runs of ASCII of 1 to 160 bytes each end in
 * one high byte (a letter of the alphabet or another), so that a high byte
 * follows a long run of ASCII at each residue mod 64. */
static void test_long_mixed(th *t, const sb_encoding *e, const th_index *ix)
{
    enum { LEN = 3200 };
    uint8_t in[LEN];
    int unmapped = -1;
    for (size_t p = 0; p < ix->size && unmapped < 0; p++)
        if (ix->cp[p] == TH_NO_CP)
            unmapped = (int)(0x80 + p);

    uint8_t alphabet[128], others[128];
    size_t alphabet_len = 0, others_len = 0;
    uint32_t best_delta = 0;
    size_t best_count = 0;
    for (size_t p = 0; p < ix->size; p++) {
        if (ix->cp[p] == TH_NO_CP)
            continue;
        uint32_t delta = ix->cp[p] - (uint32_t)(0x80 + p);
        size_t count = 0;
        for (size_t q = 0; q < ix->size; q++)
            count += ix->cp[q] != TH_NO_CP &&
                     ix->cp[q] - (uint32_t)(0x80 + q) == delta;
        if (count > best_count)
            best_count = count, best_delta = delta;
    }
    for (size_t p = 0; p < ix->size; p++) {
        if (ix->cp[p] == TH_NO_CP)
            continue;
        if (ix->cp[p] - (uint32_t)(0x80 + p) == best_delta)
            alphabet[alphabet_len++] = (uint8_t)(0x80 + p);
        else
            others[others_len++] = (uint8_t)(0x80 + p);
    }

    for (int kind = 0; kind < 3; kind++) {
        bool text_like = kind == 1, sparse = kind == 2;
        uint32_t seed = 12345;
        size_t n = 0;
        unsigned run = 0;
        while (sparse && n < LEN) {
            unsigned len = 1 + (run * 37) % 160;
            for (unsigned k = 0; k < len && n < LEN; k++)
                in[n++] = (uint8_t)(0x20 + next_random(&seed) % 0x5F);
            if (n < LEN)
                in[n++] = run % 3 == 2 && others_len > 0
                              ? others[run % others_len]
                              : alphabet[run % alphabet_len];
            run++;
        }
        while (n < LEN) {
            unsigned len = 1 + next_random(&seed) % (run % 3 == 0 ? 40 : 12);
            if (text_like)
                len = 1 + next_random(&seed) % (run % 2 == 0 ? 3 : 24);
            for (unsigned k = 0; k < len && n < LEN; k++) {
                unsigned v = next_random(&seed);
                if (text_like ? run % 2 == 0 : run % 3 == 0)
                    in[n++] = (uint8_t)(0x20 + v % 0x5F);
                else if (text_like)
                    in[n++] = alphabet[v % alphabet_len];
                else
                    in[n++] = (uint8_t)(0x80 | v);
            }
            run++;
        }
        /* NULs, unmapped bytes and (text-like) other high bytes, at
         * positions of each residue mod 32 */
        for (size_t k = 0; k < 32; k++) {
            in[200 + 17 * k] = 0x00;
            if (unmapped >= 0)
                in[800 + 33 * k] = (uint8_t)unmapped;
            if (text_like && others_len > 0)
                in[1900 + 37 * k] = others[k % others_len];
        }
        check_long_input(t, e, ix, in, LEN,
                         sparse      ? "long sparse input"
                         : text_like ? "long text-like input"
                                     : "long mixed input");
    }
}

/* Appends the bytes §9.2 writes for cp in html mode: ASCII, the index's
 * first pointer + 0x80, or "&#cp;". */
static void expect_encoded(th_bytes *x, const th_index *ix, uint32_t cp)
{
    long pointer = cp < 0x80 ? -1 : th_index_pointer(ix, cp);
    if (cp < 0x80) {
        th_bytes_byte(x, (uint8_t)cp);
    } else if (pointer >= 0) {
        th_bytes_byte(x, (uint8_t)(0x80 + pointer));
    } else {
        char ref[16];
        snprintf(ref, sizeof ref, "&#%lu;", (unsigned long)cp);
        th_bytes_str(x, ref);
    }
}

/* Encodes n units of src (html mode) in n_splits + 1 chunks placed by
 * `round`, into `capacity` bytes a call (0: what the max-length helper
 * says), and compares the bytes with *want. */
static void check_encoded(th *t, wenc_id id, bool from_utf16, const void *src,
                          size_t n, size_t n_splits, unsigned round,
                          size_t capacity, const th_bytes *want)
{
    size_t splits[3];
    for (size_t i = 0; i < n_splits; i++)
        splits[i] = (i + 1) * n / 4 + round % 5;
    th_enc_opts o = {id,      WENC_ERRORS_HTML, from_utf16, splits,
                     n_splits, capacity};
    th_enc_result r;
    if (th_encode(&o, src, n, &r))
        CHECK_BYTES(t, from_utf16 ? "from UTF-16" : "from UTF-8", want->p,
                    want->len, r.out.p, r.out.len);
    else
        CHECKF(t, false, "%s", r.problem);
    th_enc_result_free(&r);
}

/*
 * Long input to the encoder, over UTF-8 and over UTF-16, where its vector
 * path runs (64 units a step): mostly ASCII and the index's code points
 * (the encoders' vector path takes those of U+0080-U+00FF and of one block
 * above), now and then an unmapped code point of the same blocks or another,
 * one of three or four UTF-8 bytes, a run of up to 12 code points of another
 * script (Cyrillic or Han: NCRs one after another where the index lacks
 * them), a lone surrogate, and ill-formed UTF-8 (a continuation after a
 * whole sequence or after ASCII, a lead before ASCII, a surrogate's or an
 * overlong three-byte form, two bytes of three before ASCII, an overlong
 * two-byte form after a letter): one of them at unit 64 + round (or the
 * first after it that a piece starts at; each kind at about six offsets
 * over the rounds), others at random; and every fourth round none of these, so that
 * the vector paths run to the end of their chunks. Every third round gives
 * each call 128-138 bytes of room, so that NCRs meet the end of the room
 * inside the vector path. Expected output from the index (expect_encoded),
 * whole and in chunks.
 */
static void test_encoder_long(th *t, const sb_encoding *e, const th_index *ix)
{
    uint32_t mapped[128];
    size_t n_mapped = 0;
    for (size_t p = 0; p < ix->size; p++)
        if (th_index_cp(ix, p) != TH_NO_CP)
            mapped[n_mapped++] = th_index_cp(ix, p);
    uint32_t seed = 0x5B + (uint32_t)e->id;
    for (unsigned round = 0; round < 64; round++) {
        th_bytes in8 = {0}, want = {0};
        th_units in16 = {0};
        th_bytes want16 = {0};
        size_t odd_at = 64 + round; /* where the odd piece goes */
        bool placed = false;
        /* every fourth round nothing odd: the vector paths take it all,
         * to their last units */
        bool clean = round % 4 == 3;
        while (in16.len < 400) {
            uint32_t r = next_random(&seed) % 100;
            bool odd = !clean && !placed && in16.len >= odd_at;
            placed = placed || odd;
            uint32_t cp;
            if (odd || (!clean && r < 3)) {
                /* something the vector path does not take */
                uint32_t kind = odd ? round % 10 : next_random(&seed) % 10;
                if (kind == 0) {
                    cp = 0x2603; /* three UTF-8 bytes, unmapped */
                } else if (kind == 1) {
                    cp = 0x1F600; /* four bytes, a surrogate pair */
                } else if (kind == 2) {
                    /* a lone surrogate (UTF-16), a lone continuation after a
                     * whole sequence (UTF-8) */
                    uint32_t a = mapped[next_random(&seed) % n_mapped];
                    th_units_unit(&in16, 0xDC00);
                    th_bytes_cp(&in8, a);
                    th_bytes_byte(&in8, 0xB0);
                    expect_encoded(&want16, ix, 0xFFFD);
                    expect_encoded(&want, ix, a);
                    expect_encoded(&want, ix, 0xFFFD);
                    continue;
                } else if (kind == 3) {
                    /* a lead before ASCII (UTF-8); U+00FF's neighbour */
                    th_units_unit(&in16, 0x00FE);
                    th_bytes_byte(&in8, 0xD0);
                    th_bytes_byte(&in8, 0x41);
                    expect_encoded(&want16, ix, 0xFE);
                    expect_encoded(&want, ix, 0xFFFD);
                    expect_encoded(&want, ix, 0x41);
                    continue;
                } else if (kind == 4) {
                    cp = 0x00A0 + next_random(&seed) % 0x60;
                } else if (kind == 5) {
                    cp = 0x0100 + next_random(&seed) % 0x700;
                } else if (kind == 6) {
                    uint32_t base = next_random(&seed) % 2 ? 0x0410 : 0x4E00;
                    uint32_t length = 1 + next_random(&seed) % 12;
                    for (uint32_t k = 0; k < length; k++) {
                        uint32_t c = base + next_random(&seed) % 0x40;
                        th_units_cp(&in16, c);
                        th_bytes_cp(&in8, c);
                        expect_encoded(&want, ix, c);
                        expect_encoded(&want16, ix, c);
                    }
                    continue;
                } else if (kind == 7) {
                    /* three bytes of UTF-8 out of §8.1.1's bounds: a
                     * surrogate's or an overlong form, three U+FFFD; or
                     * two of three before ASCII, one U+FFFD */
                    uint8_t forms[3][3] = {
                        {0xED, 0xA0, 0xBF}, {0xE0, 0x9F, 0xBF},
                        {0xE4, 0xB8, 0x41}};
                    uint32_t form = next_random(&seed) % 3;
                    /* the two of three taken from a letter the index maps
                     * (Thai, the euro sign...) where it has one, so that
                     * what the cut-off sequence would have been is
                     * encodable */
                    uint32_t letter = mapped[next_random(&seed) % n_mapped];
                    if (form == 2 && letter >= 0x800) {
                        forms[2][0] = (uint8_t)(0xE0 | letter >> 12);
                        forms[2][1] = (uint8_t)(0x80 | (letter >> 6 & 0x3F));
                    }
                    for (int k = 0; k < 3; k++)
                        th_bytes_byte(&in8, forms[form][k]);
                    th_units_unit(&in16, 0xFFFD);
                    for (uint32_t k = 0; k < (form < 2 ? 3u : 1u); k++)
                        expect_encoded(&want, ix, 0xFFFD);
                    if (form == 2)
                        expect_encoded(&want, ix, 0x41);
                    expect_encoded(&want16, ix, 0xFFFD);
                    continue;
                } else if (kind == 8) {
                    /* after a mapped letter, an overlong two-byte form
                     * (C0 or C1, then a continuation): two U+FFFD (UTF-8);
                     * U+FFFD (UTF-16) */
                    uint32_t a = mapped[next_random(&seed) % n_mapped];
                    uint8_t lead = next_random(&seed) % 2 ? 0xC1 : 0xC0;
                    uint8_t trail = (uint8_t)(0x80 + next_random(&seed) % 0x40);
                    th_units_cp(&in16, a);
                    th_units_unit(&in16, 0xFFFD);
                    th_bytes_cp(&in8, a);
                    th_bytes_byte(&in8, lead);
                    th_bytes_byte(&in8, trail);
                    expect_encoded(&want16, ix, a);
                    expect_encoded(&want16, ix, 0xFFFD);
                    expect_encoded(&want, ix, a);
                    expect_encoded(&want, ix, 0xFFFD);
                    expect_encoded(&want, ix, 0xFFFD);
                    continue;
                } else {
                    cp = mapped[next_random(&seed) % n_mapped] ^ 1;
                }
            } else if (r < 35) {
                cp = 0x20 + next_random(&seed) % 0x5F;
            } else {
                cp = mapped[next_random(&seed) % n_mapped];
            }
            th_units_cp(&in16, cp);
            th_bytes_cp(&in8, cp);
            expect_encoded(&want, ix, cp);
            expect_encoded(&want16, ix, cp);
        }
        th_ctx(t, "%s long encoder input, round %u", e->name, round);
        size_t n_splits = round % 2 ? 0 : 3;
        size_t capacity = round % 3 == 1 ? 128 + round % 11 : 0;
        check_encoded(t, e->id, false, in8.p, in8.len, n_splits, round,
                      capacity, &want);
        check_encoded(t, e->id, true, in16.p, in16.len, n_splits, round,
                      capacity, &want16);
        th_bytes_free(&in8);
        th_bytes_free(&want);
        th_bytes_free(&want16);
        th_units_free(&in16);
    }
    th_ctx_clear(t);
}

/*
 * UTF-8 input cut inside a sequence that the encoder's vector path meets at
 * the end of a 64-byte step: 70 bytes of ASCII, then U+2603 (three bytes,
 * mapped by no table) or U+20AC (three bytes, mapped by some) six times,
 * each after 61, 62 or 63 bytes of ASCII and U+00E9 (so that a step which
 * starts after one holds all of the next, its first two bytes or its first
 * byte), split once at every offset from 64 to the end, in html mode and
 * in fatal mode (an error for each code point the index lacks, with its
 * offset and the output before it, the encoder going on after it), and
 * whole with as many bytes of room a call as the offset. Expected output
 * from the index.
 */
static void test_encoder_cuts(th *t, const sb_encoding *e, const th_index *ix)
{
    th_bytes in = {0}, want = {0}, want_fatal = {0};
    /* at most two errors of each of the six turns (U+00E9 and one of
     * U+2603 and U+20AC) */
    size_t unmapped = 0, error_at[12], output_before[12];
    uint32_t error_cp[12];
    for (int i = 0; i < 70 + 6 * 64; i++) {
        int at = i - 70, gap = at / 64 % 3; /* 61 + gap bytes between */
        uint32_t cp = (uint32_t)('a' + i % 26);
        if (at >= 0 && at % 64 == 0)
            cp = at / 64 % 2 ? 0x20AC : 0x2603;
        else if (at >= 0 && at % 64 == 60 + gap)
            cp = 0x00E9; /* two bytes, after 59 + gap letters */
        else if (at >= 0 && at % 64 > 60 + gap)
            continue;
        if (cp >= 0x80 && th_index_pointer(ix, cp) < 0) {
            error_at[unmapped] = in.len;
            output_before[unmapped] = want_fatal.len;
            error_cp[unmapped++] = cp;
        } else {
            expect_encoded(&want_fatal, ix, cp);
        }
        th_bytes_cp(&in, cp);
        expect_encoded(&want, ix, cp);
    }
    for (size_t cut = 64; cut < in.len; cut++) {
        th_ctx(t, "%s UTF-8 cut at %zu", e->name, cut);
        th_enc_opts o = {e->id, WENC_ERRORS_HTML, false, &cut, 1, 0};
        th_enc_result r;
        if (th_encode(&o, in.p, in.len, &r))
            CHECK_BYTES(t, "html", want.p, want.len, r.out.p, r.out.len);
        else
            CHECKF(t, false, "%s", r.problem);
        th_enc_result_free(&r);
        o.err = WENC_ERRORS_FATAL;
        if (th_encode(&o, in.p, in.len, &r)) {
            CHECK_BYTES(t, "fatal", want_fatal.p, want_fatal.len, r.out.p,
                        r.out.len);
            CHECKF(t, r.n_errors == unmapped, "%zu errors, want %zu",
                   r.n_errors, unmapped);
            for (size_t k = 0; k < r.n_errors && k < unmapped; k++)
                CHECKF(t,
                       r.errors[k].code_point == error_cp[k] &&
                           r.errors[k].offset == error_at[k] &&
                           r.errors[k].length == th_utf8_len(error_cp[k]) &&
                           r.errors[k].out_pos == output_before[k],
                       "error %zu: U+%04lX at %llu (%zu bytes) after %zu "
                       "bytes of output; want U+%04lX at %zu after %zu",
                       k, (unsigned long)r.errors[k].code_point,
                       (unsigned long long)r.errors[k].offset,
                       r.errors[k].length, r.errors[k].out_pos,
                       (unsigned long)error_cp[k], error_at[k],
                       output_before[k]);
        } else {
            CHECKF(t, false, "%s", r.problem);
        }
        th_enc_result_free(&r);
        /* the same room as bytes of input: the room ends at the cut */
        th_ctx(t, "%s UTF-8, %zu bytes of room a call", e->name, cut);
        th_enc_opts room = {e->id, WENC_ERRORS_HTML, false, NULL, 0, cut};
        if (th_encode(&room, in.p, in.len, &r))
            CHECK_BYTES(t, "html", want.p, want.len, r.out.p, r.out.len);
        else
            CHECKF(t, false, "%s", r.problem);
        th_enc_result_free(&r);
    }
    th_ctx_clear(t);
    th_bytes_free(&in);
    th_bytes_free(&want);
    th_bytes_free(&want_fatal);
}

/*
 * UTF-8 input where a two-byte lead (C2, C3, C5, D0, DF) is followed by no
 * continuation: by C0 or C1, by another two-byte lead, by a lead of three
 * or four bytes, by F5 or FF, by ASCII, or at once by a whole letter the
 * index maps; the follower (but ASCII) is followed by such a letter too.
 * The lead is U+FFFD and the follower starts the next sequence (§8.1.1),
 * itself U+FFFD here, since the letter's lead is no continuation for it.
 * The lead at each offset from 0 to 40 after ASCII, so that the vector
 * paths (32 and 64 bytes a step) meet it and its follower at every lane and
 * across a step's end; the letters from U+0080-U+00FF and from above. A
 * vector path that took a lead for a continuation would read the pair as
 * a letter. Then a lone continuation after ASCII among such letters, at
 * each offset from 1 to 41, the letters after it at three shifts.
 * Expected output from the index
 * (expect_encoded, html mode).
 */
static void test_encoder_after_lead(th *t, const sb_encoding *e,
                                    const th_index *ix)
{
    static const uint8_t leads[] = {0xC2, 0xC3, 0xC5, 0xD0, 0xDF};
    /* 0: none (the letter at once) */
    static const uint8_t followers[] = {0,    0xC0, 0xC1, 0xC2, 0xC3, 0xC5,
                                        0xD0, 0xDF, 0xE0, 0xE2, 0xEF, 0xF0,
                                        0xF4, 0xF5, 0xFF, 0x41};
    uint32_t letters[2] = {0, 0};
    for (size_t p = 0; p < ix->size; p++) {
        uint32_t cp = th_index_cp(ix, p);
        if (cp != TH_NO_CP && cp >= 0x80 && cp < 0x800) {
            size_t which = cp >= 0x100;
            if (letters[which] == 0)
                letters[which] = cp;
        }
    }
    for (size_t which = 0; which < 2; which++) {
        uint32_t letter = letters[which] != 0 ? letters[which] : 'z';
        for (size_t l = 0; l < sizeof leads; l++) {
            for (size_t f = 0; f < sizeof followers; f++) {
                for (size_t at = 0; at <= 40; at++) {
                    th_bytes in = {0}, want = {0};
                    for (size_t i = 0; i < at; i++) {
                        th_bytes_byte(&in, (uint8_t)('a' + i % 26));
                        th_bytes_byte(&want, (uint8_t)('a' + i % 26));
                    }
                    th_bytes_byte(&in, leads[l]);
                    expect_encoded(&want, ix, 0xFFFD);
                    uint8_t follower = followers[f];
                    if (follower == 0x41) {
                        th_bytes_byte(&in, follower);
                        th_bytes_byte(&want, follower);
                    } else if (follower != 0) {
                        th_bytes_byte(&in, follower);
                        expect_encoded(&want, ix, 0xFFFD);
                    }
                    th_bytes_cp(&in, letter);
                    expect_encoded(&want, ix, letter);
                    while (in.len < 100) {
                        uint8_t byte = (uint8_t)('A' + in.len % 26);
                        th_bytes_byte(&in, byte);
                        th_bytes_byte(&want, byte);
                    }
                    th_ctx(t, "%s: %02X %02X then U+%04lX after %zu bytes",
                           e->name, leads[l], follower,
                           (unsigned long)letter, at);
                    check_encoded(t, e->id, false, in.p, in.len, 0, 0, 0,
                                  &want);
                    th_bytes_free(&in);
                    th_bytes_free(&want);
                }
            }
        }
        /* a lone continuation after 'b' (whose bits 1-4 name U+0080's
         * block), among letters: "b" and the letter, again and again, so
         * that leads fall at every lane around it */
        for (size_t at = 0; at <= 40 * 3 + 2; at++) {
            th_bytes in = {0}, want = {0};
            size_t shift = at / 41; /* ASCII after it, then letters */
            for (size_t i = 0; i < at % 41 % 3; i++) {
                th_bytes_byte(&in, 'a');
                th_bytes_byte(&want, 'a');
            }
            for (size_t i = 0; i < at % 41 / 3; i++) {
                th_bytes_byte(&in, 'b');
                th_bytes_byte(&want, 'b');
                th_bytes_cp(&in, letter);
                expect_encoded(&want, ix, letter);
            }
            th_bytes_byte(&in, 'b');
            th_bytes_byte(&want, 'b');
            size_t lone_at = in.len;
            th_bytes_byte(&in, 0xA9);
            expect_encoded(&want, ix, 0xFFFD);
            for (size_t i = 0; i < shift; i++) {
                th_bytes_byte(&in, 'd');
                th_bytes_byte(&want, 'd');
            }
            while (in.len < 100) {
                th_bytes_byte(&in, 'c');
                th_bytes_byte(&want, 'c');
                th_bytes_cp(&in, letter);
                expect_encoded(&want, ix, letter);
            }
            th_ctx(t, "%s: a lone continuation at %zu among U+%04lX",
                   e->name, lone_at, (unsigned long)letter);
            check_encoded(t, e->id, false, in.p, in.len, 0, 0, 0, &want);
            th_bytes_free(&in);
            th_bytes_free(&want);
        }
    }
    th_ctx_clear(t);
}

/*
 * Input of ASCII and U+00A0-U+00FF only (Western European text), which the
 * encoders' vector paths may take without a lookup where the table maps
 * those to their own values (windows-1252), with one code point of
 * U+0080-U+009F (C1 controls, which windows-1252 maps but five of
 * elsewhere) at each offset from 0 to 69; over UTF-16 and UTF-8, html
 * mode. Expected output from the index.
 */
static void test_encoder_latin1_blocks(th *t, const sb_encoding *e,
                                       const th_index *ix)
{
    for (size_t at = 0; at < 70; at++) {
        th_units in16 = {0};
        th_bytes in8 = {0}, want = {0};
        for (size_t i = 0; i < 100; i++) {
            uint32_t cp = i % 3 == 1 ? 0xA0 + (uint32_t)(i * 7 % 0x60)
                                     : 'a' + (uint32_t)(i % 26);
            if (i == at)
                cp = 0x80 + (uint32_t)(at % 0x20);
            th_units_cp(&in16, cp);
            th_bytes_cp(&in8, cp);
            expect_encoded(&want, ix, cp);
        }
        th_ctx(t, "%s: Latin-1 with U+%04X at %zu", e->name,
               (unsigned)(0x80 + at % 0x20), at);
        check_encoded(t, e->id, true, in16.p, in16.len, 0, 0, 0, &want);
        check_encoded(t, e->id, false, in8.p, in8.len, 0, 0, 0, &want);
        th_units_free(&in16);
        th_bytes_free(&in8);
        th_bytes_free(&want);
    }
    th_ctx_clear(t);
}

static void test_one_single_byte(th *t, const sb_encoding *e,
                                 const cp_set *all)
{
    th_index ix;
    if (!th_index_load(&ix, e->index)) {
        th_skip(t, TH_SKIP_DATA,
                "%s decoder/encoder checks against the index: cannot read "
                "%s/%s",
                e->name, th_data_dir(), e->index);
        return;
    }
    th_ctx(t, "%s index", e->name);
    CHECKF(t, ix.size <= 128, "%s has pointers up to %zu", e->index, ix.size);
    CHECK(t, wenc_name(e->id) && strcmp(wenc_name(e->id), e->name) == 0);

    /* decode every byte alone, in every BOM mode */
    for (unsigned b = 0; b < 256; b++) {
        spec x = {0};
        uint8_t byte = (uint8_t)b;
        add_decoded_byte(&x, &ix, b, 0);
        for (int m = 0; m < 3; m++) {
            th_ctx(t, "%s byte %02X", e->name, b);
            check_decode_spec(t, e->id, (wenc_bom_mode)m, &byte, 1,
                              spec_str(&x), e->id);
        }
        spec_free(&x);
    }
    /* all 256 bytes in one buffer, ascending and descending */
    uint8_t all_bytes[256];
    for (int dir = 0; dir < 2; dir++) {
        spec x = {0};
        for (unsigned i = 0; i < 256; i++) {
            all_bytes[i] = (uint8_t)(dir ? 255 - i : i);
            add_decoded_byte(&x, &ix, all_bytes[i], i);
        }
        /* descending starts with FF FE, a BOM under sniff: tested below */
        for (int m = dir ? 1 : 0; m < 3; m++) {
            th_ctx(t, "%s all bytes %s", e->name, dir ? "descending" : "ascending");
            check_decode_spec(t, e->id, (wenc_bom_mode)m, all_bytes, 256,
                              spec_str(&x), e->id);
        }
        spec_free(&x);
    }
    test_long_mixed(t, e, &ix);
    test_every_byte_every_lane(t, e, &ix);
    test_encoder_long(t, e, &ix);
    test_encoder_cuts(t, e, &ix);
    test_encoder_after_lead(t, e, &ix);
    test_encoder_latin1_blocks(t, e, &ix);
    /* BOMs: sniffing switches encodings (§6 decode); strip and keep leave
     * them to the single-byte decoder */
    {
        static const uint8_t utf8_bom[] = {0xEF, 0xBB, 0xBF, 0xC3, 0xA9};
        static const uint8_t be_bom[] = {0xFE, 0xFF, 0x00, 0x41, 0xD8, 0x3D,
                                         0xDE, 0x00};
        static const uint8_t le_bom[] = {0xFF, 0xFE, 0x41, 0x00};
        const struct {
            const uint8_t *p;
            size_t n;
            wenc_id sniffed;
            const char *sniff_expect;
        } boms[] = {
            {utf8_bom, sizeof utf8_bom, WENC_UTF_8, "E9"},
            {be_bom, sizeof be_bom, WENC_UTF_16BE, "41 1F600"},
            {le_bom, sizeof le_bom, WENC_UTF_16LE, "41"},
            {utf8_bom, 3, WENC_UTF_8, ""},
            {be_bom, 2, WENC_UTF_16BE, ""},
        };
        for (size_t i = 0; i < sizeof boms / sizeof boms[0]; i++) {
            th_ctx(t, "%s with a BOM (%zu)", e->name, i);
            check_decode_spec(t, e->id, WENC_BOM_SNIFF, boms[i].p, boms[i].n,
                              boms[i].sniff_expect, boms[i].sniffed);
            spec x = {0};
            for (size_t k = 0; k < boms[i].n; k++)
                add_decoded_byte(&x, &ix, boms[i].p[k], k);
            check_decode_spec(t, e->id, WENC_BOM_STRIP, boms[i].p, boms[i].n,
                              spec_str(&x), e->id);
            check_decode_spec(t, e->id, WENC_BOM_KEEP, boms[i].p, boms[i].n,
                              spec_str(&x), e->id);
            spec_free(&x);
        }
        /* a BOM prefix that is not a BOM, under sniff */
        static const uint8_t partial[][3] = {{0xEF, 0xBB, 0x41},
                                             {0xEF, 0x41, 0x42},
                                             {0xFE, 0x41, 0x42},
                                             {0xFF, 0xFF, 0xFE}};
        for (size_t i = 0; i < 4; i++) {
            for (size_t n = 1; n <= 3; n++) {
                spec x = {0};
                for (size_t k = 0; k < n; k++)
                    add_decoded_byte(&x, &ix, partial[i][k], k);
                th_ctx(t, "%s, sniff, not a BOM (%zu, %zu bytes)", e->name,
                       i, n);
                check_decode_spec(t, e->id, WENC_BOM_SNIFF, partial[i], n,
                                  spec_str(&x), e->id);
                spec_free(&x);
            }
        }
    }

    /* encode: ASCII, then every code point of the index (first pointer) */
    {
        th_bytes in8 = {0};
        th_units in16 = {0};
        spec x = {0};
        for (unsigned c = 0; c < 0x80; c++) {
            th_bytes_cp(&in8, c);
            th_units_cp(&in16, c);
            spec_add(&x, "%02lX", c, 0, 0);
        }
        th_ctx(t, "%s encode ASCII", e->name);
        check_encode_spec(t, e->id, false, in8.p, in8.len, spec_str(&x));
        check_encode_spec(t, e->id, true, in16.p, in16.len, spec_str(&x));
        th_bytes_free(&in8);
        th_units_free(&in16);
        spec_free(&x);
    }
    {
        th_bytes in8 = {0};
        th_units in16 = {0};
        spec x = {0};
        for (size_t p = 0; p < ix.size; p++) {
            uint32_t cp = ix.cp[p];
            if (cp == TH_NO_CP)
                continue;
            long first = th_index_pointer(&ix, cp);
            check_encode_cp(t, e->id, cp, (int)(0x80 + first));
            th_bytes_cp(&in8, cp);
            th_units_cp(&in16, cp);
            spec_add(&x, "%02lX", (unsigned long)(0x80 + first), 0, 0);
        }
        th_ctx(t, "%s encode the whole index", e->name);
        check_encode_spec(t, e->id, false, in8.p, in8.len, spec_str(&x));
        check_encode_spec(t, e->id, true, in16.p, in16.len, spec_str(&x));
        th_bytes_free(&in8);
        th_units_free(&in16);
        spec_free(&x);
    }
    /* unmappable code points */
    {
        cp_set un = {0};
        for (uint32_t cp = 0x80; cp <= 0xFF; cp++)
            set_add(&un, cp);
        static const uint32_t extra[] = {0x20AC, 0xFFFD, 0x10000, 0x1F600,
                                         0x10FFFF, 0xFEFF, 0x0100, 0x2603,
                                         0xE000, 0xF780, 0xFFFF, 0x7FF,
                                         0x800};
        for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
            set_add(&un, extra[i]);
        for (size_t i = 0; i < all->n; i++)
            set_add(&un, all->v[i]);
        size_t tested = 0;
        for (size_t i = 0; i < un.n; i++) {
            if (th_index_pointer(&ix, un.v[i]) >= 0)
                continue;
            check_encode_cp(t, e->id, un.v[i], -1);
            tested++;
        }
        th_ctx(t, "%s unmappables", e->name);
        CHECKF(t, tested > 20, "only %zu unmappable code points tested",
               tested);
        /* several in a row, and one at the very start and end */
        th_units in16 = {0};
        th_bytes in8 = {0};
        spec x8 = {0}, x16 = {0};
        uint32_t seq[] = {0x1F600, 0x10FFFF, 0xFFFD, 0x1F600};
        size_t o8 = 0, o16 = 0;
        for (size_t i = 0; i < 4; i++) {
            th_bytes_cp(&in8, seq[i]);
            th_units_cp(&in16, seq[i]);
            spec_add(&x8, "!%lX@%lu+%lu", seq[i], o8, th_utf8_len(seq[i]));
            spec_add(&x16, "!%lX@%lu+%lu", seq[i], o16, 2 - (seq[i] < 0x10000));
            o8 += th_utf8_len(seq[i]);
            o16 += 2 - (seq[i] < 0x10000);
        }
        th_ctx(t, "%s unmappables in a row", e->name);
        check_encode_spec(t, e->id, false, in8.p, in8.len, spec_str(&x8));
        check_encode_spec(t, e->id, true, in16.p, in16.len, spec_str(&x16));
        th_bytes_free(&in8);
        th_units_free(&in16);
        spec_free(&x8);
        spec_free(&x16);
        free(un.v);
    }
    /* ill-formed input reads as U+FFFD, which no single-byte index has */
    th_ctx(t, "%s ill-formed input", e->name);
    th_check_encode(t, e->id, false, "E1 80 41", "!FFFD@0+2 41");
    th_check_encode(t, e->id, false, "41 FF 42", "41 !FFFD@1+1 42");
    th_check_encode(t, e->id, false, "ED A0 80", "!FFFD@0+1 !FFFD@1+1 !FFFD@2+1");
    /* overlong forms of U+00A9 and U+00E9, which many of them have */
    th_check_encode(t, e->id, false, "E0 82 A9 C1 A9",
                    "!FFFD@0+1 !FFFD@1+1 !FFFD@2+1 !FFFD@3+1 !FFFD@4+1");
    th_check_encode(t, e->id, false, "E0 83 A9", "!FFFD@0+1 !FFFD@1+1 !FFFD@2+1");
    th_check_encode(t, e->id, false, "F0 90 80", "!FFFD@0+3");
    th_check_encode(t, e->id, false, "EF BF BD", "!FFFD@0+3");
    th_check_encode(t, e->id, true, "D800 0041", "!FFFD@0+1 41");
    th_check_encode(t, e->id, true, "0041 DC00", "41 !FFFD@1+1");
    th_check_encode(t, e->id, true, "D83D", "!FFFD@0+1");
    th_check_encode(t, e->id, true, "DE00 D83D", "!FFFD@0+1 !FFFD@1+1");
    th_check_encode(t, e->id, true, "D83D DE00", "!1F600@0+2");
    th_check_encode(t, e->id, false, "", "");
    th_check_encode(t, e->id, true, "", "");
    th_index_free(&ix);
}

static void test_x_user_defined(th *t)
{
    /* §14.5 decoder: ASCII byte -> itself; else U+F780 + byte - 0x80 */
    spec all = {0};
    uint8_t bytes[256];
    for (unsigned b = 0; b < 256; b++) {
        spec x = {0};
        uint8_t byte = (uint8_t)b;
        unsigned long cp = b < 0x80 ? b : 0xF780 + b - 0x80;
        spec_add(&x, "%lX", cp, 0, 0);
        spec_add(&all, "%lX", cp, 0, 0);
        bytes[b] = byte;
        th_ctx(t, "x-user-defined byte %02X", b);
        check_decode_spec(t, WENC_X_USER_DEFINED, WENC_BOM_KEEP, &byte, 1,
                          spec_str(&x), WENC_X_USER_DEFINED);
        check_decode_spec(t, WENC_X_USER_DEFINED, WENC_BOM_SNIFF, &byte, 1,
                          spec_str(&x), WENC_X_USER_DEFINED);
        spec_free(&x);
    }
    th_ctx(t, "x-user-defined all bytes");
    for (int m = 0; m < 3; m++)
        check_decode_spec(t, WENC_X_USER_DEFINED, (wenc_bom_mode)m, bytes, 256,
                          spec_str(&all), WENC_X_USER_DEFINED);
    spec_free(&all);
    th_ctx(t, "x-user-defined BOMs");
    th_check_decode(t, WENC_X_USER_DEFINED, WENC_BOM_SNIFF, "EF BB BF 41", "41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_X_USER_DEFINED, WENC_BOM_STRIP, "EF BB BF 41",
                    "F7EF F7BB F7BF 41", WENC_X_USER_DEFINED);
    th_check_decode(t, WENC_X_USER_DEFINED, WENC_BOM_KEEP, "FF FE 41 00",
                    "F7FF F7FE 41 0", WENC_X_USER_DEFINED);
    th_check_decode(t, WENC_X_USER_DEFINED, WENC_BOM_SNIFF, "FF FE 41 00", "41",
                    WENC_UTF_16LE);

    /* long inputs, with the §14.5.1 decoder as an index */
    uint32_t computed[128];
    for (size_t p = 0; p < 128; p++)
        computed[p] = 0xF780 + (uint32_t)p;
    const th_index xud_index = {computed, 128, 128};
    const sb_encoding xud = {WENC_X_USER_DEFINED, "x-user-defined", NULL};
    test_long_mixed(t, &xud, &xud_index);
    test_every_byte_every_lane(t, &xud, &xud_index);

    /* §14.5 encoder: ASCII -> itself; U+F780..U+F7FF -> 0x80..0xFF; else
     * error */
    th_ctx(t, "x-user-defined encode");
    for (uint32_t cp = 0; cp < 0x80; cp++)
        check_encode_cp(t, WENC_X_USER_DEFINED, cp, (int)cp);
    for (uint32_t cp = 0xF780; cp <= 0xF7FF; cp++)
        check_encode_cp(t, WENC_X_USER_DEFINED, cp, (int)(cp - 0xF780 + 0x80));
    static const uint32_t un[] = {0x80,   0xFF,   0x100,  0x7FF,  0x800,
                                  0xF77F, 0xF800, 0xE000, 0xF700, 0xF7FF + 1,
                                  0xFFFD, 0xFEFF, 0xFFFF, 0x10000, 0x1F600,
                                  0x10FFFF, 0x20AC, 0xE9};
    for (size_t i = 0; i < sizeof un / sizeof un[0]; i++)
        check_encode_cp(t, WENC_X_USER_DEFINED, un[i], -1);
    th_check_encode(t, WENC_X_USER_DEFINED, false, "EF 9E 80 EF 9F BF 41",
                    "80 FF 41");
    th_check_encode(t, WENC_X_USER_DEFINED, false, "EF 9E", "!FFFD@0+2");
    th_check_encode(t, WENC_X_USER_DEFINED, true, "F780 DBFF F7FF",
                    "80 !FFFD@1+1 FF");
}

static void test_replacement(th *t)
{
    /* §14.1: empty input -> nothing; otherwise one error at the first byte,
     * then the stream is finished */
    th_ctx(t, "replacement decoder");
    for (int m = 0; m < 3; m++) {
        wenc_bom_mode bm = (wenc_bom_mode)m;
        th_check_decode(t, WENC_REPLACEMENT, bm, "", "", WENC_REPLACEMENT);
        th_check_decode(t, WENC_REPLACEMENT, bm, "41", "!0+1", WENC_REPLACEMENT);
        th_check_decode(t, WENC_REPLACEMENT, bm, "00", "!0+1", WENC_REPLACEMENT);
        th_check_decode(t, WENC_REPLACEMENT, bm, "'hello, world'", "!0+1",
                        WENC_REPLACEMENT);
        th_check_decode(t, WENC_REPLACEMENT, bm, "80 81 FF", "!0+1",
                        WENC_REPLACEMENT);
        th_check_decode(t, WENC_REPLACEMENT, bm, "EF BF BD", "!0+1",
                        WENC_REPLACEMENT);
        th_check_decode(t, WENC_REPLACEMENT, bm, "EF BB", "!0+1",
                        WENC_REPLACEMENT);
        th_check_decode(t, WENC_REPLACEMENT, bm, "FE", "!0+1", WENC_REPLACEMENT);
    }
    uint8_t all[256];
    for (unsigned i = 0; i < 256; i++)
        all[i] = (uint8_t)i;
    for (int m = 0; m < 3; m++)
        check_decode_spec(t, WENC_REPLACEMENT, (wenc_bom_mode)m, all, 256,
                          "!0+1", WENC_REPLACEMENT);
    /* a BOM wins over the label under sniff (§6 decode) */
    th_check_decode(t, WENC_REPLACEMENT, WENC_BOM_SNIFF, "EF BB BF", "",
                    WENC_UTF_8);
    th_check_decode(t, WENC_REPLACEMENT, WENC_BOM_SNIFF, "EF BB BF 41 C3 A9",
                    "41 E9", WENC_UTF_8);
    th_check_decode(t, WENC_REPLACEMENT, WENC_BOM_SNIFF, "FF FE 41 00", "41",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_REPLACEMENT, WENC_BOM_SNIFF, "FE FF 00 41", "41",
                    WENC_UTF_16BE);
    th_check_decode(t, WENC_REPLACEMENT, WENC_BOM_STRIP, "EF BB BF 41", "!0+1",
                    WENC_REPLACEMENT);
    th_check_decode(t, WENC_REPLACEMENT, WENC_BOM_KEEP, "FF FE 41 00", "!0+1",
                    WENC_REPLACEMENT);

    /* its encoder is UTF-8's (§4.3 get an output encoding) */
    th_ctx(t, "replacement encoder");
    wenc_encoder enc;
    CHECK(t, wenc_encoder_init(&enc, WENC_REPLACEMENT, WENC_ERRORS_HTML));
    CHECK(t, wenc_encoder_encoding(&enc) == WENC_UTF_8);
    CHECK(t, wenc_encoder_init(&enc, WENC_REPLACEMENT, WENC_ERRORS_FATAL));
    CHECK(t, wenc_encoder_encoding(&enc) == WENC_UTF_8);
    th_check_encode(t, WENC_REPLACEMENT, false, "'h' C3 A9 E2 82 AC F0 9F 98 80",
                    "'h' C3 A9 E2 82 AC F0 9F 98 80");
    th_check_encode(t, WENC_REPLACEMENT, true, "0068 00E9 20AC D83D DE00",
                    "'h' C3 A9 E2 82 AC F0 9F 98 80");
    th_check_encode(t, WENC_REPLACEMENT, true, "D800 0041", "EF BF BD 41");
    th_check_encode(t, WENC_REPLACEMENT, false, "E1 80 41", "EF BF BD 41");
    th_check_encode(t, WENC_REPLACEMENT, false, "", "");
}

static void test_init_modes(th *t)
{
    wenc_decoder dec;
    wenc_encoder enc;
    th_ctx(t, "init");
    for (size_t i = 0; i < 28; i++) {
        CHECKF(t, wenc_decoder_init(&dec, sb[i].id, WENC_BOM_KEEP,
                                    WENC_ERRORS_FATAL),
               "decoder init %s", sb[i].name);
        CHECKF(t, wenc_encoder_init(&enc, sb[i].id, WENC_ERRORS_HTML),
               "encoder init %s", sb[i].name);
        CHECKF(t, wenc_encoder_encoding(&enc) == sb[i].id,
               "encoder encoding of %s", sb[i].name);
    }
    CHECK(t, !wenc_decoder_init(&dec, WENC_WINDOWS_1252, WENC_BOM_KEEP,
                                WENC_ERRORS_HTML));
    CHECK(t, !wenc_decoder_init(&dec, WENC_WINDOWS_1252, (wenc_bom_mode)3,
                                WENC_ERRORS_FATAL));
    CHECK(t, !wenc_decoder_init(&dec, WENC_WINDOWS_1252, WENC_BOM_KEEP,
                                (wenc_error_mode)3));
    CHECK(t, !wenc_decoder_init(&dec, WENC_INVALID, WENC_BOM_KEEP,
                                WENC_ERRORS_FATAL));
    CHECK(t, !wenc_decoder_init(&dec, WENC_ENCODING_COUNT, WENC_BOM_KEEP,
                                WENC_ERRORS_FATAL));
    CHECK(t, !wenc_encoder_init(&enc, WENC_WINDOWS_1252,
                                WENC_ERRORS_REPLACEMENT));
    CHECK(t, !wenc_encoder_init(&enc, WENC_WINDOWS_1252, (wenc_error_mode)3));
    CHECK(t, !wenc_encoder_init(&enc, WENC_INVALID, WENC_ERRORS_HTML));
    CHECK(t, !wenc_encoder_init(&enc, WENC_ENCODING_COUNT, WENC_ERRORS_HTML));
    CHECK(t, wenc_decoder_init(&dec, WENC_X_USER_DEFINED, WENC_BOM_SNIFF,
                               WENC_ERRORS_REPLACEMENT));
    CHECK(t, wenc_decoder_init(&dec, WENC_REPLACEMENT, WENC_BOM_SNIFF,
                               WENC_ERRORS_REPLACEMENT));
    CHECK(t, wenc_encoder_init(&enc, WENC_X_USER_DEFINED, WENC_ERRORS_FATAL));
}

int main(int argc, char **argv)
{
    th t;
    TH_BEGIN_SIMD(&t, "test_single_byte");
    th_args(&t, argc, argv);
    if (th_part(&t, "core")) {
        test_init_modes(&t);
        test_x_user_defined(&t);
        test_replacement(&t);
    }
    if (th_part(&t, "data")) {
        /* collect every code point of every single-byte index */
        cp_set all = {0};
        for (size_t i = 0; i < 28; i++) {
            th_index ix;
            if (!th_index_load(&ix, sb[i].index))
                continue;
            for (size_t p = 0; p < ix.size; p++)
                if (ix.cp[p] != TH_NO_CP)
                    set_add(&all, ix.cp[p]);
            th_index_free(&ix);
        }
        for (size_t i = 0; i < 28; i++)
            test_one_single_byte(&t, &sb[i], &all);
        free(all.v);
    }
    return th_end(&t);
}

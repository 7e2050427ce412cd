/* test_utf8.c — the UTF-8 decoder (§8.1.1) and encoder (§8.1.2), BOM modes
 * (§6 decode, UTF-8 decode, UTF-8 decode without BOM), the UTF-8 reader of
 * the encoders. Every expected value is written by hand from the Standard's
 * algorithm (which follows Unicode's "maximal subpart" practice). */
#include "harness.h"
#include "simd_level.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vec {
    const char *in;     /* bytes */
    const char *expect; /* code points; !OFF+LEN for an error */
} vec;

static const vec utf8_vectors[] = {
    /* well-formed */
    {"", ""},
    {"'abc'", "'abc'"},
    {"00 7F", "0 7F"},
    {"C2 80", "80"},
    {"C3 A9", "E9"},
    {"DF BF", "7FF"},
    {"E0 A0 80", "800"},
    {"E2 82 AC", "20AC"},
    {"ED 9F BF", "D7FF"},
    {"EE 80 80", "E000"},
    {"EF BF BD", "FFFD"}, /* a real U+FFFD: no error */
    {"EF BF BF", "FFFF"},
    {"F0 90 80 80", "10000"},
    {"F0 9F 98 80", "1F600"},
    {"F4 8F BF BF", "10FFFF"},
    {"41 C3 A9 E2 82 AC F0 9F 98 80 5A", "41 E9 20AC 1F600 5A"},
    {"E0 A0 80 80", "800 !3+1"},
    /* truncated at the end */
    {"C2", "!0+1"},
    {"DF", "!0+1"},
    {"E0", "!0+1"},
    {"E0 A0", "!0+2"},
    {"E1 80", "!0+2"},
    {"ED 9F", "!0+2"},
    {"F0", "!0+1"},
    {"F0 90", "!0+2"},
    {"F0 90 80", "!0+3"},
    {"F4 8F BF", "!0+3"},
    {"41 F4 8F BF", "41 !1+3"},
    {"41 42 E2 82", "41 42 !2+2"},
    /* truncated in the middle */
    {"C2 41", "!0+1 41"},
    {"E0 A0 41", "!0+2 41"},
    {"E1 80 41", "!0+2 41"},
    {"F0 90 80 41", "!0+3 41"},
    {"F0 9F 98 20", "!0+3 20"},
    {"C2 C2 80", "!0+1 80"},
    {"E2 82 E2 82 AC", "!0+2 20AC"},
    {"F0 9F 98 F0 9F 98 80", "!0+3 1F600"},
    {"E2 82 C0 80", "!0+2 !2+1 !3+1"},
    {"E0 A0 C0", "!0+2 !2+1"},
    {"F0 90 80 C2 80", "!0+3 80"},
    {"F4 8F BF C0", "!0+3 !3+1"},
    {"E1 E1 E1 41", "!0+1 !1+1 !2+1 41"},
    {"F1 F1 80 80 80", "!0+1 40000"},
    {"C2 00", "!0+1 0"},
    {"E1 7F", "!0+1 7F"},
    /* overlong forms */
    {"C0 80", "!0+1 !1+1"},
    {"C0 AF", "!0+1 !1+1"},
    {"C1 BF", "!0+1 !1+1"},
    {"E0 80 80", "!0+1 !1+1 !2+1"},
    {"E0 80 AF", "!0+1 !1+1 !2+1"},
    {"E0 9F BF", "!0+1 !1+1 !2+1"},
    {"F0 80 80 80", "!0+1 !1+1 !2+1 !3+1"},
    {"F0 80 80 AF", "!0+1 !1+1 !2+1 !3+1"},
    {"F0 8F BF BF", "!0+1 !1+1 !2+1 !3+1"},
    {"F8 80 80 80 AF", "!0+1 !1+1 !2+1 !3+1 !4+1"},
    {"FC 80 80 80 80 AF", "!0+1 !1+1 !2+1 !3+1 !4+1 !5+1"},
    /* encoded surrogates */
    {"ED A0 80", "!0+1 !1+1 !2+1"},
    {"ED AD BF", "!0+1 !1+1 !2+1"},
    {"ED B0 80", "!0+1 !1+1 !2+1"},
    {"ED BF BF", "!0+1 !1+1 !2+1"},
    {"ED A0 80 ED B0 80", "!0+1 !1+1 !2+1 !3+1 !4+1 !5+1"},
    {"ED A0", "!0+1 !1+1"},
    {"ED", "!0+1"},
    /* above U+10FFFF */
    {"F4 90 80 80", "!0+1 !1+1 !2+1 !3+1"},
    {"F4 BF BF BF", "!0+1 !1+1 !2+1 !3+1"},
    {"F5 80 80 80", "!0+1 !1+1 !2+1 !3+1"},
    {"F7 BF BF BF", "!0+1 !1+1 !2+1 !3+1"},
    {"F8 88 80 80 80", "!0+1 !1+1 !2+1 !3+1 !4+1"},
    {"FC 84 80 80 80 80", "!0+1 !1+1 !2+1 !3+1 !4+1 !5+1"},
    {"F5", "!0+1"},
    {"F6", "!0+1"},
    {"F7", "!0+1"},
    {"F8", "!0+1"},
    {"F9", "!0+1"},
    {"FA", "!0+1"},
    {"FB", "!0+1"},
    {"FC", "!0+1"},
    {"FD", "!0+1"},
    {"FE", "!0+1"},
    {"FF", "!0+1"},
    {"F4 90", "!0+1 !1+1"},
    /* stray continuation bytes */
    {"80", "!0+1"},
    {"BF", "!0+1"},
    {"41 80 BF 42", "41 !1+1 !2+1 42"},
    {"C2 80 80", "80 !2+1"},
    {"80 80 80 80", "!0+1 !1+1 !2+1 !3+1"},
    {"F0 9F 98 80 80", "1F600 !4+1"},
    /* C0, C1 */
    {"C0", "!0+1"},
    {"C1", "!0+1"},
    {"C0 41", "!0+1 41"},
    {"C1 80 41", "!0+1 !1+1 41"},
    /* a mixture */
    {"61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
     "61 !1+3 !4+2 !6+1 62 !8+1 63 !10+1 !11+1 64"},
    {"'Hi' F0 28 8C BC 'x'", "'Hi' !2+1 28 !4+1 !5+1 'x'"},
    {"E0 A0 80 ED 9F BF EE 80 80 F4 8F BF BF C2", "800 D7FF E000 10FFFF !13+1"},
};

static bool starts_with_bom(const char *in)
{
    return strncmp(in, "EF BB BF", 8) == 0 || strncmp(in, "FE FF", 5) == 0 ||
           strncmp(in, "FF FE", 5) == 0;
}

static void test_decoder_vectors(th *t)
{
    for (size_t i = 0; i < sizeof utf8_vectors / sizeof utf8_vectors[0]; i++) {
        const vec *v = &utf8_vectors[i];
        th_ctx(t, "vector %zu", i);
        th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, v->in, v->expect,
                        WENC_UTF_8);
        if (!starts_with_bom(v->in)) {
            th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, v->in, v->expect,
                            WENC_UTF_8);
            th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, v->in, v->expect,
                            WENC_UTF_8);
        }
    }
    th_ctx_clear(t);
}

/* Every single byte, every two-byte lead with every second byte:
 * expectations from the decoder's table (§8.1.1) written as rules. */
static void test_exhaustive_pairs(th *t)
{
    char in[16], ex[64];
    for (unsigned a = 0; a < 256; a++) {
        snprintf(in, sizeof in, "%02X", a);
        if (a < 0x80)
            snprintf(ex, sizeof ex, "%X", a);
        else
            snprintf(ex, sizeof ex, "!0+1");
        th_ctx(t, "byte %02X", a);
        th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, in, ex, WENC_UTF_8);
    }
    for (unsigned a = 0xC2; a <= 0xDF; a++) {
        for (unsigned b = 0; b < 256; b++) {
            snprintf(in, sizeof in, "%02X %02X", a, b);
            if (b >= 0x80 && b <= 0xBF)
                snprintf(ex, sizeof ex, "%X", ((a & 0x1F) << 6) | (b & 0x3F));
            else if (b < 0x80)
                snprintf(ex, sizeof ex, "!0+1 %X", b);
            else
                snprintf(ex, sizeof ex, "!0+1 !1+1");
            th_ctx(t, "pair %02X %02X", a, b);
            th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, in, ex, WENC_UTF_8);
        }
    }
    /* three-byte leads with a second byte in and out of range, at end */
    for (unsigned a = 0xE0; a <= 0xF4; a++) {
        unsigned lo = a == 0xE0 ? 0xA0 : a == 0xF0 ? 0x90 : 0x80;
        unsigned hi = a == 0xED ? 0x9F : a == 0xF4 ? 0x8F : 0xBF;
        for (unsigned b = 0x80; b <= 0xBF; b++) {
            snprintf(in, sizeof in, "%02X %02X", a, b);
            if (b >= lo && b <= hi)
                snprintf(ex, sizeof ex, "!0+2");
            else
                snprintf(ex, sizeof ex, "!0+1 !1+1");
            th_ctx(t, "lead %02X second %02X, end", a, b);
            th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, in, ex, WENC_UTF_8);
        }
    }
}

static void test_bom_modes(th *t)
{
    th_ctx(t, "BOM sniff");
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BB BF 41", "41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BB BF", "", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BB BF EF BB BF",
                    "FEFF", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "41 EF BB BF", "41 FEFF",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BB BF C3", "!3+1",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BB BF FF FE", "!3+1 !4+1",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FE FF 00 41 D8 3D DE 00",
                    "41 1F600", WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FE FF", "", WENC_UTF_16BE);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FF FE 41 00", "41",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FF FE", "", WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FF FE 41", "!2+1",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FF FE FF FE", "FEFF",
                    WENC_UTF_16LE);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FE FF D8 00", "!2+2",
                    WENC_UTF_16BE);
    /* prefixes of BOMs that are not BOMs */
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BB", "!0+2", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BB 41", "!0+2 41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF", "!0+1", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "EF BF BD", "FFFD",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FE", "!0+1", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FE 41", "!0+1 41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FF", "!0+1", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "FF FF FE", "!0+1 !1+1 !2+1",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_SNIFF, "20 FF FE", "20 !1+1 !2+1",
                    WENC_UTF_8);

    th_ctx(t, "BOM strip (UTF-8 decode)");
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "EF BB BF 41", "41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "EF BB BF", "", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "EF BB BF EF BB BF", "FEFF",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "41 EF BB BF", "41 FEFF",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "FF FE 41 00",
                    "!0+1 !1+1 41 0", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "FE FF 00 41",
                    "!0+1 !1+1 0 41", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "FE FF", "!0+1 !1+1",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "EF BB", "!0+2", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "EF BB 41", "!0+2 41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_STRIP, "EF BB BF C3", "!3+1",
                    WENC_UTF_8);

    th_ctx(t, "BOM keep (UTF-8 decode without BOM)");
    th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, "EF BB BF 41", "FEFF 41",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, "EF BB BF", "FEFF",
                    WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, "EF BB BF EF BB BF",
                    "FEFF FEFF", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, "FF FE 41 00",
                    "!0+1 !1+1 41 0", WENC_UTF_8);
    th_check_decode(t, WENC_UTF_8, WENC_BOM_KEEP, "FE FF 00 41",
                    "!0+1 !1+1 0 41", WENC_UTF_8);
    th_ctx_clear(t);
}

static void test_encoder(th *t)
{
    wenc_encoder enc;
    th_ctx(t, "UTF-8 encoder");
    CHECK(t, wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_HTML));
    CHECK(t, wenc_encoder_encoding(&enc) == WENC_UTF_8);
    /* from UTF-8: well-formed input is copied */
    th_check_encode(t, WENC_UTF_8, false, "", "");
    th_check_encode(t, WENC_UTF_8, false, "'abc' 00 7F", "'abc' 00 7F");
    th_check_encode(t, WENC_UTF_8, false, "C3 A9 E2 82 AC F0 9F 98 80",
                    "C3 A9 E2 82 AC F0 9F 98 80");
    th_check_encode(t, WENC_UTF_8, false, "C2 80 DF BF E0 A0 80 EF BF BF",
                    "C2 80 DF BF E0 A0 80 EF BF BF");
    th_check_encode(t, WENC_UTF_8, false, "F0 90 80 80 F4 8F BF BF",
                    "F0 90 80 80 F4 8F BF BF");
    th_check_encode(t, WENC_UTF_8, false, "EF BB BF 41", "EF BB BF 41");
    th_check_encode(t, WENC_UTF_8, false, "EF BF BD", "EF BF BD");
    /* ill-formed UTF-8: one EF BF BD per maximal subpart */
    th_check_encode(t, WENC_UTF_8, false, "E0 80 80",
                    "EFBFBD EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "E1 80 41", "EFBFBD 41");
    th_check_encode(t, WENC_UTF_8, false, "F0 90 80", "EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "41 F0 90 80", "41 EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "ED A0 80", "EFBFBD EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "F4 90 80 80",
                    "EFBFBD EFBFBD EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "C0 80", "EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "C2 41", "EFBFBD 41");
    th_check_encode(t, WENC_UTF_8, false, "80 BF", "EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "FF FE", "EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "F5 80", "EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, false, "E2 82 E2 82 AC", "EFBFBD E282AC");
    th_check_encode(t, WENC_UTF_8, false,
                    "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
                    "61 EFBFBD EFBFBD EFBFBD 62 EFBFBD 63 EFBFBD EFBFBD 64");
    /* from UTF-16 */
    th_check_encode(t, WENC_UTF_8, true, "", "");
    th_check_encode(t, WENC_UTF_8, true, "0041 00E9 20AC D83D DE00",
                    "41 C3A9 E282AC F09F9880");
    th_check_encode(t, WENC_UTF_8, true, "0000 007F 0080 07FF 0800 FFFF",
                    "00 7F C280 DFBF E0A080 EFBFBF");
    th_check_encode(t, WENC_UTF_8, true, "D800 DC00 DBFF DFFF",
                    "F0908080 F48FBFBF");
    th_check_encode(t, WENC_UTF_8, true, "FEFF", "EFBBBF");
    th_check_encode(t, WENC_UTF_8, true, "D800", "EFBFBD");
    th_check_encode(t, WENC_UTF_8, true, "DC00", "EFBFBD");
    th_check_encode(t, WENC_UTF_8, true, "D800 0041", "EFBFBD 41");
    th_check_encode(t, WENC_UTF_8, true, "0041 DFFF 0042", "41 EFBFBD 42");
    th_check_encode(t, WENC_UTF_8, true, "D800 D800 DC00",
                    "EFBFBD F0908080");
    th_check_encode(t, WENC_UTF_8, true, "DC00 D800", "EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, true, "DBFF DBFF", "EFBFBD EFBFBD");
    th_check_encode(t, WENC_UTF_8, true, "D83D 0041 DE00", "EFBFBD 41 EFBFBD");
    th_ctx_clear(t);
}

/* A unit drawn from runs that reach every branch of a block encoder: ASCII,
 * two- and three-byte units, surrogate pairs, lone leads and trails. */
static uint16_t mixed_unit(uint32_t *rng)
{
    static const uint16_t palette[] = {0x41,   0x20,   0x7F,   0x00,
                                       0xE9,   0x7FF,  0x800,  0x3042,
                                       0xFFFF, 0xFEFF, 0xD800, 0xDBFF,
                                       0xDC00, 0xDFFF, 0xD83D, 0xDE00};
    *rng = *rng * 1103515245u + 12345u;
    return palette[(*rng >> 16) % (sizeof palette / sizeof palette[0])];
}

/* The expected UTF-8 of UTF-16 units per §7.4 / the infra's "convert to a
 * scalar value string": a lead surrogate followed by a trail makes one code
 * point, any other surrogate U+FFFD. */
static void expected_utf8(const uint16_t *u, size_t n, th_bytes *out)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = u[i];
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 &&
            u[i + 1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (u[i + 1] - 0xDC00);
            i++;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
        }
        th_bytes_cp(out, cp);
    }
}

/* dest[written..size) still holds the 0xA5 it was filled with. */
static void check_untouched_after(th *t, const uint8_t *dest, size_t written,
                                  size_t size)
{
    size_t touched = written;
    while (touched < size && dest[touched] == 0xA5)
        touched++;
    CHECKF(t, touched == size,
           "encodeInto wrote byte %zu, past the %zu it made", touched,
           written);
}

/* A unit without surrogates, at the edges of each UTF-8 length. */
static uint16_t bmp_unit(uint32_t *rng)
{
    static const uint16_t palette[] = {0x00,   0x41,   0x7F,   0x80,
                                       0xE9,   0x7FF,  0x800,  0x3042,
                                       0xD7FF, 0xE000, 0xFEFF, 0xFFFF};
    *rng = *rng * 1103515245u + 12345u;
    return palette[(*rng >> 16) % (sizeof palette / sizeof palette[0])];
}

/* A unit of one or two UTF-8 bytes, as in Latin, Greek or Cyrillic text. */
static uint16_t two_byte_unit(uint32_t *rng)
{
    static const uint16_t palette[] = {0x00, 0x20, 0x41, 0x7F, 0x80,
                                       0xE9, 0x3A9, 0x430, 0x5D0, 0x7FF};
    *rng = *rng * 1103515245u + 12345u;
    return palette[(*rng >> 16) % (sizeof palette / sizeof palette[0])];
}

/* Encodes units[0..n) to UTF-8 into got[0..cap) in calls of `chunk` units
 * (0: 0 to 39 units a call, drawn from *rng, empty calls included), then a
 * last empty call; checks that each call takes all it is given and returns
 * the bytes written. */
static size_t encode_utf16_streamed(th *t, const uint16_t *units, size_t n,
                                    uint8_t *got, size_t cap, size_t chunk,
                                    uint32_t *rng)
{
    wenc_encoder enc;
    wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_FATAL);
    size_t in = 0, out = 0;
    while (in < n) {
        size_t asked = chunk;
        if (asked == 0) {
            *rng = *rng * 1103515245u + 12345u;
            asked = (*rng >> 16) % 40;
        }
        if (asked > n - in)
            asked = n - in;
        size_t used = asked, room = cap - out;
        wenc_status st = wenc_encode_from_utf16(&enc, units + in, &used,
                                                got + out, &room, false);
        CHECK(t, st == WENC_INPUT_EMPTY && used == asked);
        in += asked;
        out += room;
    }
    size_t none = 0, room = cap - out;
    wenc_encode_from_utf16(&enc, NULL, &none, got + out, &room, true);
    return out + room;
}

/* Long mixed UTF-16 input, where the encoder's block loop runs: whole,
 * streamed in uneven chunks, and into every capacity near the end (checking
 * that no byte after those written changes, within the capacity or past
 * it). One round in four is ASCII with others among it; one has no
 * surrogate but one in 40 units, for the SIMD kernels' 8, 16 and 32-unit
 * blocks; one is any unit; one has units of one or two UTF-8 bytes but one
 * in 50, for the AVX-512 kernel's 32-unit blocks of those. */
static void test_encoder_long_utf16(th *t)
{
    uint32_t rng = 7;
    uint16_t units[600];
    static uint8_t got[600 * 3 + 8];
    for (int round = 0; round < 300; round++) {
        size_t n = (size_t)(round * 2) % 600;
        for (size_t i = 0; i < n; i++) {
            if (round % 4 == 0)
                units[i] = i % 5 != 4 ? 0x61 : mixed_unit(&rng);
            else if (round % 4 == 1)
                units[i] = (i + (size_t)round) % 40 == 0 ? mixed_unit(&rng)
                                                        : bmp_unit(&rng);
            else if (round % 4 == 2)
                units[i] = mixed_unit(&rng);
            else
                units[i] = (i + (size_t)round) % 50 == 0 ? mixed_unit(&rng)
                                                        : two_byte_unit(&rng);
        }
        th_bytes want = {0};
        expected_utf8(units, n, &want);
        th_ctx(t, "long UTF-16 round %d (%zu units)", round, n);

        size_t m = wenc_text_encode(units, n, got);
        CHECK_BYTES(t, "TextEncoder.encode", want.p, want.len, got, m);

        size_t out = encode_utf16_streamed(t, units, n, got, sizeof got, 0,
                                           &rng);
        CHECK_BYTES(t, "streamed", want.p, want.len, got, out);

        for (size_t cap = want.len > 12 ? want.len - 12 : 0; cap <= want.len;
             cap++) {
            size_t read = 0, written = 0;
            enum { AFTER = 16 };
            uint8_t *dest = malloc(cap + AFTER);
            if (!dest)
                abort();
            memset(dest, 0xA5, cap + AFTER);
            wenc_text_encode_into(units, n, dest, cap, &read, &written);
            th_bytes part = {0};
            expected_utf8(units, read, &part);
            CHECK_BYTES(t, "encodeInto prefix", part.p, part.len, dest,
                        written);
            check_untouched_after(t, dest, written, cap + AFTER);
            free(dest);
            CHECK(t, written <= cap);
            if (read < n) { /* the next code point did not fit whole */
                th_bytes next = {0};
                expected_utf8(units + read, n - read < 2 ? n - read : 2,
                              &next);
                uint8_t lead = next.p[0];
                size_t need = lead < 0x80 ? 1 : lead < 0xE0 ? 2
                              : lead < 0xF0 ? 3 : 4;
                CHECK(t, cap - written < need);
                th_bytes_free(&next);
            }
            th_bytes_free(&part);
        }
        th_bytes_free(&want);
    }
    th_ctx_clear(t);
}

/* ASCII runs of every length from 0 to 160 units, each after two units
 * that are not ASCII (which send the SIMD encoders into their kernels, whose
 * ASCII steps widen from 8 or 16 to 32 and 64 units as a run goes on), the
 * text starting with 0 to 6 ASCII units: whole, and streamed 1 to 70 units
 * a call. */
static void test_encoder_ascii_runs_utf16(th *t)
{
    uint32_t rng = 11;
    uint16_t units[700];
    static uint8_t got[700 * 3 + 8];
    for (size_t run = 0; run <= 160; run++) {
        size_t n = 0, lead = run % 7;
        for (size_t i = 0; i < lead; i++)
            units[n++] = (uint16_t)(0x41 + i);
        while (n + run + 2 <= 600) {
            units[n++] = mixed_unit(&rng) | 0x80;
            units[n++] = (uint16_t)(0x100 + (rng >> 20));
            for (size_t i = 0; i < run; i++)
                units[n++] = (uint16_t)(0x20 + (i * 7 + run) % 0x5F);
        }
        th_bytes want = {0};
        expected_utf8(units, n, &want);
        th_ctx(t, "ASCII runs of %zu units (%zu units)", run, n);
        size_t m = wenc_text_encode(units, n, got);
        CHECK_BYTES(t, "TextEncoder.encode", want.p, want.len, got, m);

        size_t out = encode_utf16_streamed(t, units, n, got, sizeof got,
                                           1 + run % 70, &rng);
        CHECK_BYTES(t, "streamed", want.p, want.len, got, out);
        th_bytes_free(&want);
    }
    th_ctx_clear(t);
}

/* encodeInto() of units[0..n) into dest, whose last 16 of `size` bytes
 * are not given to it: it takes them all, writes their UTF-8, and leaves
 * every byte after that as it was. */
static void check_encode_into_whole(th *t, const uint16_t *units, size_t n,
                                    uint8_t *dest, size_t size)
{
    th_bytes want = {0};
    expected_utf8(units, n, &want);
    memset(dest, 0xA5, size);
    size_t read = 0, written = 0;
    wenc_text_encode_into(units, n, dest, size - 16, &read, &written);
    CHECK(t, read == n);
    CHECK_BYTES(t, "encodeInto", want.p, want.len, dest, written);
    check_untouched_after(t, dest, written, size);
    th_bytes_free(&want);
}

/* One non-ASCII unit among ASCII, then k ASCII units: the bytes after the
 * encoded ones stay as they were, whatever k (SIMD kernels store wider than
 * what they make). */
static void test_encoder_writes_nothing_after(th *t)
{
    for (size_t lead = 0; lead < 8; lead++) {
        for (size_t k = 0; k < 40; k++) {
            uint16_t units[8 + 40];
            size_t n = 8 + k;
            for (size_t i = 0; i < n; i++)
                units[i] = i == lead ? 0x3042 : (uint16_t)('a' + i % 26);
            uint8_t dest[3 * (8 + 40) + 16];
            th_ctx(t, "U+3042 at %zu of 8, then %zu ASCII units", lead, k);
            check_encode_into_whole(t, units, n, dest, sizeof dest);
        }
    }
    th_ctx_clear(t);
}

/* One call of 0 to 80 ASCII units followed by nothing, é, U+3042, a pair
 * (U+1F600), a lone trail, a lone lead, or a lead that ends the call
 * (`last` false: held, then completed by a trail in the next call): into
 * room for exactly the bytes, and into one byte less (the room runs out in
 * the ASCII or at what follows it). The output is exact as far as it goes,
 * the call reads exactly the units whose bytes it wrote, and no byte past
 * them changes. */
static void test_encoder_ascii_then(th *t)
{
    static const uint16_t tails[][2] = {{0, 0},      {0xE9, 0},
                                        {0x3042, 0}, {0xD83D, 0xDE00},
                                        {0xDE00, 0}, {0xD83D, 0x41},
                                        {0xD83D, 0}};
    static const size_t tail_lengths[] = {0, 1, 1, 2, 1, 2, 1};
    for (size_t ascii = 0; ascii <= 80; ascii++) {
        for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
            uint16_t units[82];
            for (size_t i = 0; i < ascii; i++)
                units[i] = (uint16_t)(0x20 + (i * 13 + k) % 0x5F);
            memcpy(units + ascii, tails[k], tail_lengths[k] * sizeof units[0]);
            size_t n = ascii + tail_lengths[k];
            bool held_lead = k == 6;
            th_ctx(t, "%zu ASCII units, then tail %zu", ascii, k);
            /* the bytes of the whole call: a held lead makes none yet */
            th_bytes want = {0};
            expected_utf8(units, held_lead ? n - 1 : n, &want);
            for (size_t less = 0; less <= 1 && less <= want.len; less++) {
                size_t cap = want.len - less;
                uint8_t dest[82 * 3 + 16];
                memset(dest, 0xA5, sizeof dest);
                wenc_encoder enc;
                wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_FATAL);
                size_t used = n, room = cap;
                wenc_status st = wenc_encode_from_utf16(
                    &enc, n ? units : NULL, &used, dest, &room, !held_lead);
                th_bytes part = {0};
                expected_utf8(units, held_lead && used == n ? n - 1 : used,
                              &part);
                CHECK_BYTES(t, "bytes of the units read", part.p, part.len,
                            dest, room);
                check_untouched_after(t, dest, room, sizeof dest);
                if (less == 0) {
                    CHECK(t, st == WENC_INPUT_EMPTY && used == n);
                    CHECK_BYTES(t, "whole call", want.p, want.len, dest,
                                room);
                } else {
                    CHECK(t, st == WENC_OUTPUT_FULL && used < n);
                }
                if (held_lead && less == 0) {
                    /* the trail completes the held lead: U+1F600 */
                    uint16_t trail = 0xDE00;
                    size_t one = 1, four = 4;
                    uint8_t pair[4];
                    st = wenc_encode_from_utf16(&enc, &trail, &one, pair,
                                                &four, true);
                    CHECK(t, st == WENC_INPUT_EMPTY && four == 4 &&
                                 memcmp(pair, "\xF0\x9F\x98\x80", 4) == 0);
                }
                th_bytes_free(&part);
            }
            th_bytes_free(&want);
        }
    }
    th_ctx_clear(t);
}

/* Short calls (16 to 47 bytes, below the vector kernels' length) that
 * start with ASCII, one byte that is not ASCII (é or U+3042) at each place or
 * none: decoded to UTF-16 into room for all the units or 1 to 3 fewer,
 * each call's output exact as far as it went, WENC_OUTPUT_FULL where the
 * room ran out and nothing written past it. */
static void test_decoder_short_rooms(th *t)
{
    static const char *const others[] = {"", "\xC3\xA9", "\xE3\x81\x82"};
    for (size_t n = 16; n < 48; n++) {
        for (size_t o = 0; o < sizeof others / sizeof others[0]; o++) {
            size_t olen = strlen(others[o]);
            for (size_t at = 0; at + olen <= n; at += olen ? 1 : n) {
                uint8_t in[48];
                uint16_t expected[48], out[48 + 4];
                size_t units = 0;
                for (size_t i = 0; i < n;) {
                    if (olen != 0 && i == at) {
                        memcpy(in + i, others[o], olen);
                        expected[units++] = olen == 2 ? 0x00E9 : 0x3042;
                        i += olen;
                        continue;
                    }
                    in[i] = (uint8_t)('a' + i % 26);
                    expected[units++] = in[i];
                    i++;
                }
                for (size_t less = 0; less <= 3; less++) {
                    size_t room = units - less;
                    th_ctx(t, "%zu bytes, other %zu at %zu, room for %zu of "
                              "%zu units",
                           n, o, at, room, units);
                    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++)
                        out[i] = 0x5A5A;
                    wenc_decoder dec;
                    wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP,
                                      WENC_ERRORS_REPLACEMENT);
                    size_t src_len = n, dst_len = room;
                    wenc_status st = wenc_decode_to_utf16(&dec, in, &src_len,
                                                          out, &dst_len, true);
                    CHECK(t, st == (less == 0 ? WENC_INPUT_EMPTY
                                              : WENC_OUTPUT_FULL));
                    CHECK(t, dst_len <= room && out[room] == 0x5A5A);
                    CHECK_UNITS(t, "to UTF-16", expected,
                                less == 0 ? units : dst_len, out, dst_len);
                }
            }
        }
    }
    th_ctx_clear(t);
}

/* Latin-script text after two units that are not ASCII (which send the
 * SIMD encoders into their kernels): ASCII runs of `run` units, each
 * followed by one unit that is not ASCII (of two bytes, or every third run
 * U+0800 or U+3042, every seventh a lone surrogate or a pair), then `tail`
 * ASCII units: whole, and into a destination whose bytes after the output
 * stay as they were. */
static void test_encoder_latin_utf16(th *t)
{
    static const uint16_t lone[] = {0xE9, 0x80, 0x7FF, 0x430, 0xFF, 0x100};
    for (size_t run = 0; run <= 40; run++) {
        for (size_t tail = 0; tail <= 40; tail++) {
            uint16_t units[2 + 8 * 42 + 40];
            size_t n = 0;
            units[n++] = 0xE9;
            units[n++] = 0x430;
            for (size_t word = 0; word < 8; word++) {
                for (size_t i = 0; i < run; i++)
                    units[n++] = (uint16_t)('a' + (i + word) % 26);
                if ((word + run) % 7 == 6) {
                    units[n++] = 0xD83D;
                    if (word % 2 == 0)
                        units[n++] = 0xDE00;
                } else if ((word + run) % 3 == 2) {
                    units[n++] = word % 2 ? 0x800 : 0x3042;
                } else {
                    units[n++] = lone[(word + run) % 6];
                }
            }
            for (size_t i = 0; i < tail; i++)
                units[n++] = (uint16_t)('A' + i % 26);
            static uint8_t dest[3 * (2 + 8 * 42 + 40) + 16];
            th_ctx(t, "Latin text, runs of %zu, then %zu ASCII", run, tail);
            check_encode_into_whole(t, units, n, dest, sizeof dest);
        }
    }
    th_ctx_clear(t);
}

/* Text of one- and two-byte units (Cyrillic words and spaces, or Latin
 * words with an accented letter in each) of 20 to 99 units, its last 0 to
 * 19 units ASCII: encodeInto() writes its UTF-8 and nothing after it, at
 * every length (the SIMD kernels' last steps near the end of the input). */
static void test_encoder_two_byte_ends(th *t)
{
    for (int latin = 0; latin < 2; latin++) {
        for (size_t n = 20; n < 100; n++) {
            for (size_t tail = 0; tail < 20; tail++) {
                uint16_t units[100];
                for (size_t i = 0; i < n; i++) {
                    if (i + tail >= n)
                        units[i] = (uint16_t)('a' + i % 26);
                    else if (i % 6 == 5)
                        units[i] = 0x20;
                    else if (latin)
                        units[i] = i % 6 == 2 ? 0xE9 : (uint16_t)('a' + i % 26);
                    else
                        units[i] = (uint16_t)(0x430 + i % 32);
                }
                units[0] = 0x44F; /* two units not ASCII in a row: the */
                units[1] = 0xE0;  /* kernels run from the start */
                uint8_t dest[3 * 100 + 16];
                th_ctx(t, "%s, %zu units, the last %zu ASCII",
                       latin ? "Latin" : "Cyrillic", n, tail);
                check_encode_into_whole(t, units, n, dest, sizeof dest);
            }
        }
    }
    th_ctx_clear(t);
}

/* Units of three bytes (Chinese, Japanese, Thai), the SIMD encoders' 16 at a
 * time: two units not ASCII (the kernels run from the start), a run of 0 to
 * 80 units of three bytes (U+0800, U+FFFF, U+D7FF, U+E000 among them), a
 * break (none, ASCII, U+0080, U+07FF, a lone surrogate, a pair), then 0 to
 * 40 more of three bytes: encodeInto() writes their UTF-8 and nothing after
 * it. */
static void test_encoder_three_byte_runs(th *t)
{
    static const uint16_t breaks[][2] = {{0, 0},      {0x41, 0},
                                         {0x80, 0},   {0x7FF, 0},
                                         {0xD800, 0}, {0xDFFF, 0},
                                         {0xD83D, 0xDE00}};
    enum { BREAKS = sizeof breaks / sizeof breaks[0] };
    for (size_t run = 0; run <= 80; run++) {
        for (size_t b = 0; b < BREAKS; b++) {
            for (size_t tail = 0; tail <= 40; tail += 1 + tail / 8) {
                uint16_t units[2 + 80 + 2 + 40];
                size_t n = 0;
                units[n++] = 0x3042;
                units[n++] = 0xE9;
                for (size_t i = 0; i < run + tail; i++) {
                    if (i == run && b > 0) {
                        units[n++] = breaks[b][0];
                        if (breaks[b][1] != 0)
                            units[n++] = breaks[b][1];
                    }
                    static const uint16_t edges[] = {0x0800, 0xFFFF, 0xD7FF,
                                                     0xE000};
                    units[n++] = i % 11 == 10 ? edges[i / 11 % 4]
                                              : (uint16_t)(0x4E00 + i * 37 % 0x5000);
                }
                static uint8_t dest[3 * (2 + 80 + 2 + 40) + 16];
                th_ctx(t, "%zu units of three bytes, break %zu, %zu more", run,
                       b, tail);
                check_encode_into_whole(t, units, n, dest, sizeof dest);
            }
        }
    }
    th_ctx_clear(t);
}

/* Units of three bytes, then ASCII to the end (0-24 of each): the SIMD
 * encoders' steps of 16 units whose last units are ASCII near the input's
 * end store past what they make; encodeInto() still writes nothing past its
 * output. */
static void test_encoder_three_then_ascii(th *t)
{
    for (size_t threes = 0; threes <= 24; threes++) {
        for (size_t ascii = 0; ascii <= 24; ascii++) {
            uint16_t units[2 + 24 + 24];
            size_t n = 0;
            units[n++] = 0x3042;
            units[n++] = 0xE9;
            for (size_t i = 0; i < threes; i++)
                units[n++] = (uint16_t)(0x4E00 + 53 * i);
            for (size_t i = 0; i < ascii; i++)
                units[n++] = (uint16_t)('a' + i);
            uint8_t dest[3 * (2 + 24 + 24) + 16];
            th_ctx(t, "%zu units of three bytes, then %zu ASCII", threes, ascii);
            check_encode_into_whole(t, units, n, dest, sizeof dest);
        }
    }
    th_ctx_clear(t);
}

/* Runs of units of three bytes broken by 16 units of one and two bytes
 * (U+0000, U+007F, U+0080, U+07FF among them: Vietnamese-like), by 16 of
 * ASCII, or by a surrogate pair, at every alignment: the SIMD encoders pack
 * a block of one- and two-byte units inside their three-byte loop. */
static void test_encoder_short_blocks_among_three(th *t)
{
    static const uint16_t shorts[] = {0x0000, 0x007F, 0x0080, 0x07FF,
                                      0x0041, 0x03B1, 0x00E9, 0x0020};
    enum { SHORTS = sizeof shorts / sizeof shorts[0], MAX = 15 + 4 * (32 + 16) };
    for (size_t lead = 0; lead <= 15; lead++) {
        for (size_t variant = 0; variant < 2 * SHORTS + 2; variant++) {
            uint16_t units[MAX];
            size_t n = 0;
            for (size_t i = 0; i < lead; i++)
                units[n++] = (uint16_t)('a' + i);
            for (size_t part = 0; part < 4; part++) {
                for (size_t i = 0; i < 32; i++)
                    units[n++] = (uint16_t)(0x4E00 + 41 * (part * 32 + i));
                for (size_t i = 0; i < 16; i++) {
                    uint16_t u;
                    if (variant == 2 * SHORTS)
                        u = (uint16_t)('A' + i); /* all ASCII */
                    else if (variant == 2 * SHORTS + 1)
                        u = i == 7 ? 0xD83D : i == 8 ? 0xDE00 : 0x00E9;
                    else if (variant < SHORTS)
                        u = shorts[(variant + i) % SHORTS];
                    else /* one unit of two bytes among ASCII, moving */
                        u = i == (variant - SHORTS + part) % 16 ? 0x07FF
                                                                : (uint16_t)(0x7F - i);
                    units[n++] = u;
                }
            }
            uint8_t dest[3 * MAX + 16];
            th_ctx(t, "%zu ASCII, then runs of three bytes broken by pattern %zu",
                   lead, variant);
            check_encode_into_whole(t, units, n, dest, sizeof dest);
        }
    }
    th_ctx_clear(t);
}

/* API details: reset, error before any error, forking a decoder by copy. */
static void test_api(th *t)
{
    wenc_decoder dec;
    wenc_decode_error err;
    uint8_t out[64];
    static const uint8_t src[] = {0x41, 0xE1, 0x80, 0x42, 0xF0, 0x9F, 0x98,
                                  0x80};
    th_ctx(t, "decoder API");
    CHECK(t, wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_SNIFF,
                               WENC_ERRORS_FATAL));
    memset(&err, 0x55, sizeof err);
    CHECK(t, !wenc_decoder_error(&dec, &err));
    CHECK(t, err.offset == 0 && err.length == 0);
    CHECK(t, wenc_decoder_encoding(&dec) == WENC_UTF_8);

    size_t in = sizeof src, o = sizeof out;
    wenc_status st = wenc_decode_to_utf8(&dec, src, &in, out, &o, true);
    CHECK_EQ(t, "status", WENC_ERROR, st);
    CHECK_EQ(t, "consumed", 3, in);
    CHECK_EQ(t, "written", 1, o);
    CHECK(t, wenc_decoder_error(&dec, &err));
    CHECK_EQ(t, "error offset", 1, err.offset);
    CHECK_EQ(t, "error length", 2, err.length);
    CHECK(t, err.bytes[0] == 0xE1 && err.bytes[1] == 0x80);

    /* fork: a copy continues identically */
    wenc_decoder fork = dec;
    size_t in2 = sizeof src - 3, o2 = sizeof out;
    st = wenc_decode_to_utf8(&dec, src + 3, &in2, out, &o2, true);
    CHECK_EQ(t, "status after error", WENC_INPUT_EMPTY, st);
    static const uint8_t rest[] = {0x42, 0xF0, 0x9F, 0x98, 0x80};
    CHECK_BYTES(t, "output after error", rest, sizeof rest, out, o2);
    size_t in3 = sizeof src - 3, o3 = sizeof out;
    uint8_t out3[64];
    st = wenc_decode_to_utf8(&fork, src + 3, &in3, out3, &o3, true);
    CHECK_EQ(t, "status of fork", WENC_INPUT_EMPTY, st);
    CHECK_BYTES(t, "output of fork", rest, sizeof rest, out3, o3);

    /* reset: error details cleared, same output again */
    wenc_decoder_reset(&dec);
    CHECK(t, !wenc_decoder_error(&dec, &err));
    in = sizeof src, o = sizeof out;
    st = wenc_decode_to_utf8(&dec, src, &in, out, &o, true);
    CHECK_EQ(t, "status after reset", WENC_ERROR, st);
    CHECK(t, wenc_decoder_error(&dec, &err));
    CHECK_EQ(t, "error offset after reset", 1, err.offset);

    /* reset after a BOM switched the encoding goes back to the initial one */
    CHECK(t, wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_SNIFF,
                               WENC_ERRORS_REPLACEMENT));
    static const uint8_t bom[] = {0xFF, 0xFE, 0x41, 0x00};
    in = sizeof bom, o = sizeof out;
    st = wenc_decode_to_utf8(&dec, bom, &in, out, &o, true);
    CHECK_EQ(t, "status", WENC_INPUT_EMPTY, st);
    CHECK(t, wenc_decoder_encoding(&dec) == WENC_UTF_16LE);
    wenc_decoder_reset(&dec);
    CHECK(t, wenc_decoder_encoding(&dec) == WENC_UTF_8);

    /* reset in the middle of a sequence forgets it */
    CHECK(t, wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP,
                               WENC_ERRORS_REPLACEMENT));
    in = 2, o = sizeof out;
    st = wenc_decode_to_utf8(&dec, src + 4, &in, out, &o, false);
    CHECK_EQ(t, "status mid-sequence", WENC_INPUT_EMPTY, st);
    CHECK_EQ(t, "written mid-sequence", 0, o);
    wenc_decoder_reset(&dec);
    in = 1, o = sizeof out;
    st = wenc_decode_to_utf8(&dec, src, &in, out, &o, true);
    CHECK_EQ(t, "status after reset mid-sequence", WENC_INPUT_EMPTY, st);
    CHECK(t, o == 1 && out[0] == 0x41);

    /* NULL buffers with zero lengths */
    CHECK(t, wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_STRIP,
                               WENC_ERRORS_REPLACEMENT));
    in = 0, o = 0;
    st = wenc_decode_to_utf8(&dec, NULL, &in, NULL, &o, false);
    CHECK(t, st == WENC_INPUT_EMPTY && in == 0 && o == 0);
    uint16_t u16[4];
    in = 0, o = 4;
    st = wenc_decode_to_utf16(&dec, NULL, &in, u16, &o, true);
    CHECK(t, st == WENC_INPUT_EMPTY && in == 0 && o == 0);

    /* max-length helpers on a fresh decoder */
    CHECK(t, wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP,
                               WENC_ERRORS_REPLACEMENT));
    CHECK(t, wenc_decoder_max_utf8_len(&dec, SIZE_MAX) == SIZE_MAX);
    CHECK(t, wenc_decoder_max_utf16_len(&dec, SIZE_MAX) == SIZE_MAX);
    /* 1 byte may give U+FFFD: 3 bytes / 1 unit */
    CHECK(t, wenc_decoder_max_utf8_len(&dec, 1) >= 3);
    CHECK(t, wenc_decoder_max_utf16_len(&dec, 1) >= 1);

    /* encoder API */
    wenc_encoder enc;
    wenc_encode_error eerr;
    th_ctx(t, "encoder API");
    CHECK(t, wenc_encoder_init(&enc, WENC_WINDOWS_1252, WENC_ERRORS_FATAL));
    memset(&eerr, 0x55, sizeof eerr);
    CHECK(t, !wenc_encoder_error(&enc, &eerr));
    CHECK(t, eerr.code_point == 0 && eerr.offset == 0 && eerr.length == 0);
    static const uint8_t u8src[] = {0x41, 0xE2, 0x98, 0x83, 0x42};
    in = sizeof u8src, o = sizeof out;
    st = wenc_encode_from_utf8(&enc, u8src, &in, out, &o, true);
    CHECK_EQ(t, "encoder status", WENC_ERROR, st);
    CHECK_EQ(t, "encoder consumed", 4, in);
    CHECK_EQ(t, "encoder written", 1, o);
    CHECK(t, wenc_encoder_error(&enc, &eerr));
    CHECK_EQ(t, "encoder error code point", 0x2603, eerr.code_point);
    CHECK_EQ(t, "encoder error offset", 1, eerr.offset);
    CHECK_EQ(t, "encoder error length", 3, eerr.length);
    wenc_encoder_reset(&enc);
    CHECK(t, !wenc_encoder_error(&enc, &eerr));
    CHECK(t, wenc_encoder_max_len(&enc, SIZE_MAX) == SIZE_MAX);
    in = 0, o = 0;
    st = wenc_encode_from_utf16(&enc, NULL, &in, NULL, &o, true);
    CHECK(t, st == WENC_INPUT_EMPTY && in == 0 && o == 0);
    th_ctx_clear(t);
}

int main(void)
{
    th t;
    TH_BEGIN_SIMD(&t, "test_utf8");
    test_decoder_vectors(&t);
    test_exhaustive_pairs(&t);
    test_bom_modes(&t);
    test_decoder_short_rooms(&t);
    test_encoder(&t);
    test_encoder_long_utf16(&t);
    test_encoder_ascii_runs_utf16(&t);
    test_encoder_writes_nothing_after(&t);
    test_encoder_ascii_then(&t);
    test_encoder_latin_utf16(&t);
    test_encoder_two_byte_ends(&t);
    test_encoder_three_byte_runs(&t);
    test_encoder_three_then_ascii(&t);
    test_encoder_short_blocks_among_three(&t);
    test_api(&t);
    return th_end(&t);
}

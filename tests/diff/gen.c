/*
 * Case generators. Case `index` of a run with `seed` is a pure function of
 * both, so any case can be made again from the two numbers.
 *
 * Each index picks one combination of encoding x operation x modes in turn
 * (so every combination gets its share), then an input generator:
 * decoding: corpus text re-encoded with wenc's encoder and mutated, random
 * bytes, byte soups biased to the encoding's lead/trail ranges (escape
 * sequences for ISO-2022-JP), and soups of other encodings; encoding:
 * corpus text, and random scalar values weighted towards code points the
 * encoding maps, code points it does not, astral ones and special cases,
 * with unpaired surrogates (UTF-16 input) or ill-formed sequences (UTF-8
 * input) mixed in. Inputs are often cut short to leave a truncated
 * sequence at the end.
 */
#define _POSIX_C_SOURCE 200809L
#include "diff.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

struct diff_corpus {
    diff_bytes *texts;
    size_t count;
};

static bool is_corpus_file(const char *name)
{
    size_t len = strlen(name);
    if (strncmp(name, "LICENSE", 7) == 0 || strcmp(name, "sources.txt") == 0)
        return false;
    return (len > 4 && strcmp(name + len - 4, ".txt") == 0) ||
           (len > 5 && strcmp(name + len - 5, ".html") == 0);
}

diff_corpus *corpus_load(const char *dir)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return NULL;
    diff_corpus *corpus = diff_xmalloc(sizeof *corpus);
    corpus->texts = NULL;
    corpus->count = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (!is_corpus_file(entry->d_name))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        diff_bytes text = {0};
        for (;;) {
            bytes_reserve(&text, 1 << 16);
            size_t n = fread(text.data + text.len, 1, text.cap - text.len, f);
            text.len += n;
            if (n == 0)
                break;
        }
        fclose(f);
        if (text.len == 0) {
            bytes_free(&text);
            continue;
        }
        diff_bytes *grown = realloc(corpus->texts, (corpus->count + 1) * sizeof *grown);
        if (!grown)
            abort();
        corpus->texts = grown;
        corpus->texts[corpus->count++] = text;
    }
    closedir(d);
    if (corpus->count == 0) {
        corpus_free(corpus);
        return NULL;
    }
    return corpus;
}

void corpus_free(diff_corpus *corpus)
{
    if (!corpus)
        return;
    for (size_t i = 0; i < corpus->count; i++)
        bytes_free(&corpus->texts[i]);
    free(corpus->texts);
    free(corpus);
}

typedef enum family {
    FAMILY_SINGLE_BYTE,
    FAMILY_UTF_8,
    FAMILY_UTF_16BE,
    FAMILY_UTF_16LE,
    FAMILY_GB18030,
    FAMILY_BIG5,
    FAMILY_EUC_JP,
    FAMILY_ISO_2022_JP,
    FAMILY_SHIFT_JIS,
    FAMILY_EUC_KR,
    FAMILY_COUNT
} family;

static family family_of(wenc_id id)
{
    switch (id) {
    case WENC_UTF_8: return FAMILY_UTF_8;
    case WENC_UTF_16BE: return FAMILY_UTF_16BE;
    case WENC_UTF_16LE: return FAMILY_UTF_16LE;
    case WENC_GBK:
    case WENC_GB18030: return FAMILY_GB18030;
    case WENC_BIG5: return FAMILY_BIG5;
    case WENC_EUC_JP: return FAMILY_EUC_JP;
    case WENC_ISO_2022_JP: return FAMILY_ISO_2022_JP;
    case WENC_SHIFT_JIS: return FAMILY_SHIFT_JIS;
    case WENC_EUC_KR: return FAMILY_EUC_KR;
    default: return FAMILY_SINGLE_BYTE;
    }
}

/* Short inputs are where errors are dense; some long ones for the fast
 * paths. */
static size_t pick_length(diff_rng *rng, size_t small, size_t large)
{
    return rng_percent(rng, 85) ? rng_below(rng, (uint32_t)small + 1)
                                : rng_below(rng, (uint32_t)large + 1);
}

static uint8_t byte_in(diff_rng *rng, unsigned low, unsigned high)
{
    return (uint8_t)rng_range(rng, low, high);
}

static void push2(diff_bytes *b, uint8_t first, uint8_t second)
{
    bytes_push(b, first);
    bytes_push(b, second);
}

static const uint8_t boms[][3] = {{0xEF, 0xBB, 0xBF}, {0xFE, 0xFF, 0}, {0xFF, 0xFE, 0}};

static void push_bom(diff_rng *rng, diff_bytes *b)
{
    unsigned which = rng_below(rng, 3);
    size_t len = which == 0 ? 3 : 2;
    if (rng_percent(rng, 20))
        len = rng_range(rng, 1, (uint32_t)len);
    bytes_append(b, boms[which], len);
}

/* Special code points: the edges of ranges and the Standard's special
 * cases. */
static const uint32_t special_code_points[] = {
    0x0000, 0x000E, 0x000F, 0x001B, 0x005C, 0x007E, 0x007F, 0x0080, 0x00A5,
    0x00CA, 0x00EA, 0x0304, 0x030C, 0x203E, 0x2212, 0xFF0D, 0x2022, 0x20AC,
    0x3000, 0xE5E5, 0xE7C7, 0xFFFD, 0xFEFF, 0xFFFE, 0xFFFF, 0xFE10, 0xFE11,
    0xFE12, 0xFE13, 0xFE14, 0xFE15, 0xFE16, 0xFE17, 0xFE18, 0xFE19, 0x9FB4,
    0x9FB5, 0x9FB6, 0x9FB7, 0x9FB8, 0x9FB9, 0x9FBA, 0x9FBB, 0xE78D, 0xE78E,
    0xE796, 0xE81E, 0xE826, 0xE82B, 0xE82C, 0xE832, 0xE843, 0xE854, 0xE864,
    0xE76C, 0xE7C8, 0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345, 0xFF61,
    0xFF9F, 0xFFE2, 0xFFE4, 0x2116, 0x2121, 0x00F7, 0x00D7, 0x0E3F, 0xF8F0,
    0xE000, 0xF8FF, 0xAC00, 0xD7A3, 0x10000, 0x10FFFF, 0x20087, 0x2A6D6,
    0x1F600, 0x00A0, 0x00AD, 0x02DC, 0x2014, 0x2015, 0x301C, 0xFF5E, 0x2225,
    0xFF3C, 0x0451, 0x0401, 0x00B7, 0x30FB,
};

static const struct {
    uint32_t low, high;
} scalar_ranges[] = {
    {0x20, 0x7E},       {0x80, 0xFF},       {0x100, 0x24F},    {0x370, 0x4FF},
    {0x590, 0x6FF},     {0xE00, 0xE7F},     {0x2000, 0x27FF},  {0x3000, 0x30FF},
    {0x4E00, 0x9FFF},   {0xAC00, 0xD7A3},   {0xE000, 0xF8FF},  {0xFF00, 0xFFEF},
    {0x20000, 0x2FFFF}, {0x10000, 0x10FFFF}, {0x0, 0xD7FF},    {0xE000, 0xFFFF},
};

static uint32_t random_scalar(diff_rng *rng)
{
    if (rng_percent(rng, 25))
        return special_code_points[rng_below(
            rng, sizeof special_code_points / sizeof special_code_points[0])];
    unsigned r = rng_below(rng, sizeof scalar_ranges / sizeof scalar_ranges[0]);
    return rng_range(rng, scalar_ranges[r].low, scalar_ranges[r].high);
}

/* An ill-formed or edge-case UTF-8 piece. */
static void push_utf8_oddity(diff_rng *rng, diff_bytes *b)
{
    static const uint8_t pieces[][4] = {
        {0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xE0, 0x9F, 0xBF},
        {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xF0, 0x80, 0x80, 0x80},
        {0xF0, 0x8F, 0xBF, 0xBF}, {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80},
        {0xFF}, {0xFE}, {0x80}, {0xBF}, {0xE0, 0xA0}, {0xF0, 0x90, 0x80},
        {0xE3, 0x81}, {0xC3}, {0xF4, 0x8F, 0xBF}, {0xED, 0x9F, 0xBF},
        {0xEE, 0x80, 0x80}, {0xEF, 0xBF, 0xBF}, {0xF4, 0x8F, 0xBF, 0xBF},
    };
    unsigned which = rng_below(rng, sizeof pieces / sizeof pieces[0]);
    size_t len = 1;
    while (len < 4 && pieces[which][len] != 0)
        len++;
    bytes_append(b, pieces[which], len);
}

static void push_gb18030_atom(diff_rng *rng, diff_bytes *b)
{
    static const uint8_t specials[][4] = {
        {0xA6, 0xD9}, {0xA6, 0xDF}, {0xA6, 0xEC}, {0xA6, 0xF3}, {0xFE, 0x59},
        {0xFE, 0xA0}, {0xA3, 0xA0}, {0xA8, 0xBF}, {0x84, 0x31, 0xA4, 0x39},
        {0x84, 0x31, 0xA5, 0x30}, {0x90, 0x30, 0x81, 0x30},
        {0xE3, 0x32, 0x9A, 0x35}, {0xE3, 0x32, 0x9A, 0x36},
        {0x81, 0x30, 0x81, 0x30}, {0x81, 0x35, 0xF4, 0x37},
        {0x84, 0x31, 0x82, 0x36}, {0x82, 0x35, 0x8F, 0x33}, {0x80}, {0xFF},
    };
    uint8_t lead = byte_in(rng, 0x81, 0xFE);
    switch (rng_below(rng, 8)) {
    case 0:
    case 1:
    case 2:
        push2(b, lead, rng_percent(rng, 30) ? byte_in(rng, 0x40, 0x7E)
                                            : byte_in(rng, 0x80, 0xFE));
        break;
    case 3:
        push2(b, rng_percent(rng, 50) ? byte_in(rng, 0x81, 0x84) : byte_in(rng, 0x90, 0xE3),
              byte_in(rng, 0x30, 0x39));
        push2(b, byte_in(rng, 0x81, 0xFE), byte_in(rng, 0x30, 0x39));
        break;
    case 4: /* a broken four-byte sequence */
        push2(b, lead, byte_in(rng, 0x30, 0x39));
        if (rng_percent(rng, 50))
            bytes_push(b, rng_percent(rng, 50) ? byte_in(rng, 0x00, 0x80)
                                               : byte_in(rng, 0x81, 0xFE));
        if (rng_percent(rng, 50))
            bytes_push(b, (uint8_t)rng_below(rng, 256));
        break;
    case 5:
        push2(b, lead, rng_percent(rng, 50) ? byte_in(rng, 0x00, 0x2F) : 0x7F);
        break;
    default: {
        unsigned which = rng_below(rng, sizeof specials / sizeof specials[0]);
        size_t len = specials[which][1] == 0 ? 1 : specials[which][2] == 0 ? 2 : 4;
        bytes_append(b, specials[which], len);
    }
    }
}

static void push_iso_2022_jp_atom(diff_rng *rng, diff_bytes *b)
{
    static const char *const escapes[] = {
        "\x1B(B", "\x1B(J", "\x1B(I", "\x1B$@", "\x1B$B", "\x1B$A", "\x1B(C",
        "\x1B$", "\x1B(", "\x1B", "\x1B$(D", "\x1B.", "\x1B$)",
    };
    switch (rng_below(rng, 7)) {
    case 0:
    case 1:
        bytes_append(b, escapes[rng_below(rng, 5)], 3);
        break;
    case 2: {
        const char *e = escapes[rng_below(rng, sizeof escapes / sizeof escapes[0])];
        bytes_append(b, e, strlen(e));
        break;
    }
    case 3:
    case 4:
        push2(b, byte_in(rng, 0x21, 0x7E), byte_in(rng, 0x21, 0x7E));
        break;
    case 5:
        bytes_push(b, byte_in(rng, 0x21, 0x7E));
        break;
    default: {
        static const uint8_t controls[] = {0x0E, 0x0F, 0x0A, 0x0D, 0x5C, 0x7E, 0x80, 0xFF, 0x00};
        bytes_push(b, controls[rng_below(rng, sizeof controls)]);
    }
    }
}

static void push_utf16_atom(diff_rng *rng, diff_bytes *b, bool big_endian)
{
    uint16_t units[2];
    size_t count = 1;
    switch (rng_below(rng, 6)) {
    case 0:
        units[0] = (uint16_t)rng_range(rng, 0xD800, 0xDBFF);
        break;
    case 1:
        units[0] = (uint16_t)rng_range(rng, 0xDC00, 0xDFFF);
        break;
    case 2:
        units[0] = (uint16_t)rng_range(rng, 0xD800, 0xDBFF);
        units[1] = (uint16_t)rng_range(rng, 0xDC00, 0xDFFF);
        count = 2;
        break;
    case 3:
        bytes_push(b, (uint8_t)rng_below(rng, 256));
        return;
    case 4:
        units[0] = rng_percent(rng, 50) ? 0xFEFF : 0xFFFE;
        break;
    default: {
        uint32_t cp = random_scalar(rng);
        units[0] = (uint16_t)(cp < 0x10000 ? cp : 0xD800 + ((cp - 0x10000) >> 10));
        if (cp >= 0x10000) {
            units[1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
            count = 2;
        }
    }
    }
    for (size_t i = 0; i < count; i++) {
        if (big_endian)
            push2(b, (uint8_t)(units[i] >> 8), (uint8_t)(units[i] & 0xFF));
        else
            push2(b, (uint8_t)(units[i] & 0xFF), (uint8_t)(units[i] >> 8));
    }
}

/* A two-byte sequence: lead in [lead_low, lead_high], trail mostly in one of
 * the trail ranges, sometimes out of them. */
static void push_double(diff_rng *rng, diff_bytes *b, unsigned lead_low,
                        unsigned lead_high, unsigned t1_low, unsigned t1_high,
                        unsigned t2_low, unsigned t2_high)
{
    uint8_t lead = byte_in(rng, lead_low, lead_high);
    uint8_t trail;
    if (rng_percent(rng, 10))
        trail = (uint8_t)rng_below(rng, 256);
    else if (rng_percent(rng, 50))
        trail = byte_in(rng, t1_low, t1_high);
    else
        trail = byte_in(rng, t2_low, t2_high);
    if (rng_percent(rng, 5))
        bytes_push(b, lead);
    else
        push2(b, lead, trail);
}

static void push_atom(diff_rng *rng, family fam, diff_bytes *b)
{
    if (rng_percent(rng, 15)) {
        bytes_push(b, rng_percent(rng, 80) ? byte_in(rng, 0x20, 0x7E)
                                           : (uint8_t)rng_below(rng, 0x80));
        return;
    }
    if (rng_percent(rng, 4)) {
        bytes_push(b, (uint8_t)rng_below(rng, 256));
        return;
    }
    switch (fam) {
    case FAMILY_UTF_8:
        if (rng_percent(rng, 60))
            bytes_push_utf8(b, random_scalar(rng));
        else
            push_utf8_oddity(rng, b);
        break;
    case FAMILY_UTF_16BE:
    case FAMILY_UTF_16LE:
        push_utf16_atom(rng, b, fam == FAMILY_UTF_16BE);
        break;
    case FAMILY_GB18030:
        push_gb18030_atom(rng, b);
        break;
    case FAMILY_BIG5:
        if (rng_percent(rng, 10)) {
            static const uint8_t pairs[][2] = {{0x88, 0x62}, {0x88, 0x64}, {0x88, 0xA3},
                                               {0x88, 0xA5}, {0xF9, 0xFE}, {0xA1, 0x40}};
            bytes_append(b, pairs[rng_below(rng, 6)], 2);
        } else {
            push_double(rng, b, 0x81, 0xFE, 0x40, 0x7E, 0xA1, 0xFE);
        }
        break;
    case FAMILY_EUC_JP:
        switch (rng_below(rng, 4)) {
        case 0:
            push_double(rng, b, 0x8E, 0x8E, 0xA1, 0xDF, 0xA1, 0xFE);
            break;
        case 1:
            bytes_push(b, 0x8F);
            push_double(rng, b, 0xA1, 0xFE, 0xA1, 0xFE, 0xA1, 0xFE);
            break;
        default:
            push_double(rng, b, 0xA1, 0xFE, 0xA1, 0xFE, 0xA1, 0xFE);
        }
        break;
    case FAMILY_ISO_2022_JP:
        push_iso_2022_jp_atom(rng, b);
        break;
    case FAMILY_SHIFT_JIS:
        if (rng_percent(rng, 15))
            bytes_push(b, rng_percent(rng, 80) ? byte_in(rng, 0xA1, 0xDF)
                                               : byte_in(rng, 0xFD, 0xFF));
        else if (rng_percent(rng, 50))
            push_double(rng, b, 0x81, 0x9F, 0x40, 0x7E, 0x80, 0xFC);
        else
            push_double(rng, b, 0xE0, 0xFC, 0x40, 0x7E, 0x80, 0xFC);
        break;
    case FAMILY_EUC_KR:
        push_double(rng, b, 0x81, 0xFE, 0x41, 0x5A, 0x61, 0xFE);
        break;
    default:
        bytes_push(b, byte_in(rng, 0x80, 0xFF));
    }
}

static void push_soup(diff_rng *rng, family fam, size_t atoms, diff_bytes *b)
{
    for (size_t i = 0; i < atoms; i++)
        push_atom(rng, rng_percent(rng, 90) ? fam : (family)rng_below(rng, FAMILY_COUNT), b);
}

/* UTF-8 (possibly ill-formed) to little-endian UTF-16 code units, with
 * wenc's UTF-8 decoder (replacement, no BOM handling). */
static void utf8_to_utf16le(const uint8_t *text, size_t len, diff_bytes *out)
{
    wenc_decoder dec;
    wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
    size_t cap = wenc_decoder_max_utf16_len(&dec, len);
    uint16_t *units = diff_xmalloc(cap * sizeof *units);
    size_t n = len, w = cap;
    wenc_decode_to_utf16(&dec, text, &n, units, &w, true);
    bytes_reserve(out, 2 * w);
    for (size_t i = 0; i < w; i++)
        bytes_push_u16le(out, units[i]);
    free(units);
}

/* Text in an encoding, with wenc: decode (for the mapped code points of a
 * soup) or encode (corpus text into an encoding). */
static void wenc_decode_all(wenc_id id, const uint8_t *src, size_t len, diff_bytes *out)
{
    wenc_decoder dec;
    wenc_decoder_init(&dec, id, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
    size_t cap = wenc_decoder_max_utf8_len(&dec, len);
    bytes_reserve(out, cap);
    size_t n = len, w = cap;
    wenc_decode_to_utf8(&dec, src, &n, out->data + out->len, &w, true);
    out->len += w;
}

static void wenc_encode_all(wenc_id id, const uint8_t *src, size_t len, diff_bytes *out)
{
    wenc_encoder enc;
    wenc_encoder_init(&enc, id, WENC_ERRORS_HTML);
    size_t cap = wenc_encoder_max_len(&enc, len);
    bytes_reserve(out, cap);
    size_t n = len, w = cap;
    wenc_encode_from_utf8(&enc, src, &n, out->data + out->len, &w, true);
    out->len += w;
}

static void corpus_slice(diff_rng *rng, const diff_corpus *corpus, diff_bytes *out)
{
    const diff_bytes *text = &corpus->texts[rng_below(rng, (uint32_t)corpus->count)];
    size_t len = pick_length(rng, 200, 2000);
    if (len > text->len)
        len = text->len;
    size_t start = rng_below(rng, (uint32_t)(text->len - len + 1));
    bytes_append(out, text->data + start, len);
}

static void mutate(diff_rng *rng, family fam, diff_bytes *b)
{
    unsigned count = rng_range(rng, 1, 3);
    for (unsigned i = 0; i < count && b->len > 0; i++) {
        size_t at = rng_below(rng, (uint32_t)b->len);
        switch (rng_below(rng, 3)) {
        case 0:
            b->data[at] = (uint8_t)rng_below(rng, 256);
            break;
        case 1: {
            diff_bytes atom = {0};
            push_atom(rng, fam, &atom);
            diff_bytes rest = {0};
            bytes_append(&rest, b->data + at, b->len - at);
            b->len = at;
            bytes_append(b, atom.data, atom.len);
            bytes_append(b, rest.data, rest.len);
            bytes_free(&atom);
            bytes_free(&rest);
            break;
        }
        default:
            memmove(b->data + at, b->data + at + 1, b->len - at - 1);
            b->len--;
        }
    }
}

static void gen_decode_input(diff_case *c, diff_rng *rng, const diff_corpus *corpus)
{
    family fam = family_of(c->id);
    diff_bytes *in = &c->input;
    unsigned pick = rng_below(rng, 100);
    if (rng_percent(rng, 10))
        push_bom(rng, in);
    if (pick < 25 && corpus) {
        c->generator = "corpus";
        diff_bytes text = {0};
        corpus_slice(rng, corpus, &text);
        if (fam == FAMILY_UTF_16BE || fam == FAMILY_UTF_16LE) {
            diff_bytes units = {0};
            utf8_to_utf16le(text.data, text.len, &units);
            for (size_t i = 0; i + 1 < units.len; i += 2)
                push2(in, units.data[i + (fam == FAMILY_UTF_16BE)],
                      units.data[i + (fam != FAMILY_UTF_16BE)]);
            bytes_free(&units);
        } else {
            wenc_encode_all(c->id, text.data, text.len, in);
        }
        bytes_free(&text);
        if (rng_percent(rng, 50))
            mutate(rng, fam, in);
    } else if (pick < 40) {
        c->generator = "random-bytes";
        size_t len = pick_length(rng, 16, 300);
        for (size_t i = 0; i < len; i++)
            bytes_push(in, (uint8_t)rng_below(rng, 256));
    } else if (pick < 50) {
        c->generator = "foreign-soup";
        push_soup(rng, (family)rng_below(rng, FAMILY_COUNT), pick_length(rng, 12, 200), in);
    } else {
        c->generator = "soup";
        push_soup(rng, fam, pick_length(rng, 12, 200), in);
    }
    if (in->len > 0 && rng_percent(rng, 15)) {
        size_t cut = rng_range(rng, 1, 3);
        in->len -= cut < in->len ? cut : in->len;
    }
}

/* Code points the encoding maps, found by decoding a soup of its bytes. */
static void push_mapped_text(diff_rng *rng, wenc_id id, size_t atoms, diff_bytes *out)
{
    diff_bytes soup = {0};
    push_soup(rng, family_of(id), atoms, &soup);
    wenc_decode_all(id, soup.data, soup.len, out);
    bytes_free(&soup);
}

static void gen_encode_text(diff_case *c, diff_rng *rng, const diff_corpus *corpus,
                            diff_bytes *text)
{
    unsigned pick = rng_below(rng, 100);
    if (pick < 25 && corpus) {
        c->generator = "corpus";
        corpus_slice(rng, corpus, text);
        return;
    }
    c->generator = pick < 60 ? "mapped-scalars" : "scalars";
    size_t count = pick_length(rng, 16, 200);
    for (size_t i = 0; i < count; i++) {
        if (pick < 60 && rng_percent(rng, 70))
            push_mapped_text(rng, c->id, 1, text);
        else
            bytes_push_utf8(text, random_scalar(rng));
        if (!(c->flags & DIFF_FLAG_UTF16) && rng_percent(rng, 4))
            push_utf8_oddity(rng, text);
    }
}

static void gen_encode_input(diff_case *c, diff_rng *rng, const diff_corpus *corpus)
{
    diff_bytes text = {0};
    gen_encode_text(c, rng, corpus, &text);
    if (!(c->flags & DIFF_FLAG_UTF16)) {
        c->input = text;
        if (c->input.len > 0 && rng_percent(rng, 10))
            c->input.len -= rng_range(rng, 1, (uint32_t)(c->input.len < 3 ? c->input.len : 3));
        return;
    }
    diff_bytes units = {0};
    utf8_to_utf16le(text.data, text.len, &units);
    bytes_free(&text);
    size_t lone = rng_percent(rng, 40) ? rng_range(rng, 1, 3) : 0;
    for (size_t i = 0; i < lone; i++) {
        size_t at = 2 * rng_below(rng, (uint32_t)(units.len / 2 + 1));
        uint16_t unit = (uint16_t)(rng_percent(rng, 50) ? rng_range(rng, 0xD800, 0xDBFF)
                                                        : rng_range(rng, 0xDC00, 0xDFFF));
        uint8_t pair[2] = {(uint8_t)(unit & 0xFF), (uint8_t)(unit >> 8)};
        bytes_reserve(&units, 2);
        memmove(units.data + at + 2, units.data + at, units.len - at);
        memcpy(units.data + at, pair, 2);
        units.len += 2;
    }
    if (units.len >= 2 && rng_percent(rng, 10))
        units.len -= 2;
    c->input = units;
}

/* Per encoding: 12 decode combinations (error mode x BOM mode x sink) and
 * the 4 encode ones (error mode x reader) twice, so encoding gets 40%. */
enum { DECODE_COMBINATIONS = 12, ENCODE_COMBINATIONS = 8 };

size_t gen_combination_count(void)
{
    return (size_t)WENC_ENCODING_COUNT * (DECODE_COMBINATIONS + ENCODE_COMBINATIONS);
}

void gen_case(diff_case *c, uint64_t seed, uint64_t index, const diff_corpus *corpus)
{
    memset(c, 0, sizeof *c);
    diff_rng rng = {seed ^ (index * 0xD1342543DE82EF95u)};
    rng_next(&rng);
    size_t combination = (size_t)(index % gen_combination_count());
    size_t per_encoding = DECODE_COMBINATIONS + ENCODE_COMBINATIONS;
    size_t mode = combination % per_encoding;
    c->id = (wenc_id)(combination / per_encoding);
    if (mode < DECODE_COMBINATIONS) {
        c->kind = DIFF_DECODE;
        c->flags = (uint8_t)((mode & 1 ? DIFF_FLAG_FATAL : 0) |
                             (mode & 2 ? DIFF_FLAG_UTF16 : 0) | (mode >> 2));
    } else {
        mode = (mode - DECODE_COMBINATIONS) & 3;
        c->kind = DIFF_ENCODE;
        c->flags = (uint8_t)((mode & 1 ? DIFF_FLAG_FATAL : 0) |
                             (mode & 2 ? DIFF_FLAG_UTF16 : 0));
    }
    c->plan_seed = rng_percent(&rng, 15) ? 0 : rng_next(&rng) | 1;
    if (c->kind == DIFF_DECODE)
        gen_decode_input(c, &rng, corpus);
    else
        gen_encode_input(c, &rng, corpus);
}

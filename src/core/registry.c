/* Encodings, names, labels (§4.2), output encodings (§4.3), BOM sniff (§6). */
#include "../internal.h"

const char *wenc_version(void)
{
    return WENC_VERSION_STRING;
}

static bool valid_id(wenc_id id)
{
    return id >= 0 && id < WENC_ENCODING_COUNT;
}

const uint8_t wenc_families[WENC_ENCODING_COUNT] = {
    [WENC_UTF_8] = FAMILY_UTF_8,
    [WENC_IBM866] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_2] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_3] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_4] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_5] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_6] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_7] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_8] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_8_I] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_10] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_13] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_14] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_15] = FAMILY_SINGLE_BYTE,
    [WENC_ISO_8859_16] = FAMILY_SINGLE_BYTE,
    [WENC_KOI8_R] = FAMILY_SINGLE_BYTE,
    [WENC_KOI8_U] = FAMILY_SINGLE_BYTE,
    [WENC_MACINTOSH] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_874] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1250] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1251] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1252] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1253] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1254] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1255] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1256] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1257] = FAMILY_SINGLE_BYTE,
    [WENC_WINDOWS_1258] = FAMILY_SINGLE_BYTE,
    [WENC_X_MAC_CYRILLIC] = FAMILY_SINGLE_BYTE,
    [WENC_GBK] = FAMILY_GB18030,
    [WENC_GB18030] = FAMILY_GB18030,
    [WENC_BIG5] = FAMILY_BIG5,
    [WENC_EUC_JP] = FAMILY_EUC_JP,
    [WENC_ISO_2022_JP] = FAMILY_ISO_2022_JP,
    [WENC_SHIFT_JIS] = FAMILY_SHIFT_JIS,
    [WENC_EUC_KR] = FAMILY_EUC_KR,
    [WENC_REPLACEMENT] = FAMILY_REPLACEMENT,
    [WENC_UTF_16BE] = FAMILY_UTF_16,
    [WENC_UTF_16LE] = FAMILY_UTF_16,
    [WENC_X_USER_DEFINED] = FAMILY_X_USER_DEFINED,
};

const char *wenc_name(wenc_id id)
{
    return valid_id(id) ? wenc_names[id] : NULL;
}

/* §4.3 get an output encoding */
wenc_id wenc_output_encoding(wenc_id id)
{
    if (!valid_id(id))
        return WENC_INVALID;
    if (id == WENC_REPLACEMENT || id == WENC_UTF_16BE || id == WENC_UTF_16LE)
        return WENC_UTF_8;
    return id;
}

bool wenc_has_encoder(wenc_id id)
{
    return valid_id(id) && wenc_output_encoding(id) == id;
}

bool wenc_is_built_in(wenc_id id)
{
#ifdef WENC_NO_CJK
    return valid_id(id) && !wenc_family_is_cjk(wenc_family(id));
#else
    return valid_id(id);
#endif
}

size_t wenc_label_count(void)
{
    return wenc_label_total;
}

const char *wenc_label_at(size_t index, wenc_id *id)
{
    if (index >= wenc_label_total)
        return NULL;
    if (id)
        *id = (wenc_id)wenc_labels[index].encoding;
    return wenc_labels[index].label;
}

/* The `size` (4 or 8) bytes at p as a little-endian word, whatever the
 * host's byte order. */
static uint64_t load_le(const uint8_t *p, size_t size)
{
    uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, p, size);
#else
    for (size_t i = size; i-- > 0;)
        w = w << 8 | p[i];
#endif
    return w;
}

/* The n bytes at p (n <= 8) as a little-endian word, zero above them: two
 * loads that may overlap instead of a byte at a time. */
static uint64_t load_le_partial(const uint8_t *p, size_t n)
{
    if (n >= 8)
        return load_le(p, 8);
    if (n >= 4)
        return load_le(p, 4) | load_le(p + n - 4, 4) << 8 * (n - 4);
    uint64_t low = 0;
    for (size_t i = n; i-- > 0;)
        low = low << 8 | p[i];
    return low;
}

/* ASCII lowercase of each byte of w: bit 5 set on A-Z, nothing else */
static uint64_t ascii_lowercase(uint64_t w)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    uint64_t low7 = w & ones * 0x7F;
    uint64_t from_a = low7 + ones * (0x80 - 'A');       /* high bit: >= 'A' */
    uint64_t past_z = low7 + ones * (0x80 - 'Z' - 1);   /* high bit: > 'Z' */
    uint64_t upper = from_a & ~past_z & ~w & ones * 0x80;
    return w | upper >> 2;
}

/* The lookup key of tools/gen_tables.py's label_key() */
static uint64_t label_key(uint64_t w0, uint64_t w1, uint64_t w2, size_t n)
{
    return w0 ^ w1 * UINT64_C(0x9E3779B97F4A7C15) ^
           w2 * UINT64_C(0xC2B2AE3D27D4EB4F) ^ (uint64_t)n;
}

static bool is_ascii_whitespace(uint8_t c)
{
    return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20;
}

/* §4.2 get an encoding */
wenc_id wenc_lookup(const char *label, size_t len)
{
    const uint8_t *s = (const uint8_t *)label;
    while (len > 0 && is_ascii_whitespace(s[0])) {
        s++;
        len--;
    }
    while (len > 0 && is_ascii_whitespace(s[len - 1]))
        len--;
    if (len == 0 || len > WENC_LABEL_MAX_LEN)
        return WENC_INVALID;

    /* §4.2 get an encoding: ASCII lowercase, then the Standard's table */
    uint64_t w0 = ascii_lowercase(load_le_partial(s, len < 8 ? len : 8));
    uint64_t w1 = len <= 8 ? 0
                  : ascii_lowercase(load_le_partial(s + 8, len < 16 ? len - 8 : 8));
    uint64_t w2 = len <= 16 ? 0 : ascii_lowercase(load_le_partial(s + 16, len - 16));
    /* "utf-8", the label of nearly every document, without the table's two
     * dependent loads */
    if (len == 5 && w0 == UINT64_C(0x382d667475))
        return WENC_UTF_8;
    uint64_t slot = label_key(w0, w1, w2, len) * wenc_label_multiplier >>
                    (64 - WENC_LABEL_SLOT_BITS);
    unsigned entry = wenc_label_slots[slot];
    if (entry == 0)
        return WENC_INVALID;
    const uint64_t *words = wenc_label_words[entry - 1];
    const label_entry *e = &wenc_labels[entry - 1];
    if (e->length != len || words[0] != w0 || words[1] != w1 || words[2] != w2)
        return WENC_INVALID;
    return (wenc_id)e->encoding;
}

wenc_id wenc_bom_sniff(const uint8_t *buf, size_t len, size_t *bom_len)
{
    wenc_id id = WENC_INVALID;
    size_t n = 0;
    if (len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) {
        id = WENC_UTF_8;
        n = 3;
    } else if (len >= 2 && buf[0] == 0xFE && buf[1] == 0xFF) {
        id = WENC_UTF_16BE;
        n = 2;
    } else if (len >= 2 && buf[0] == 0xFF && buf[1] == 0xFE) {
        id = WENC_UTF_16LE;
        n = 2;
    }
    if (bom_len)
        *bom_len = n;
    return id;
}

/* Encodings, names, labels (§4.2), output encodings (§4.3), BOM sniff (§6). */
#include "internal.h"

const char *wenc_version(void)
{
    return WENC_VERSION_STRING;
}

static bool valid_id(wenc_id id)
{
    return id >= 0 && id < WENC_ENCODING_COUNT;
}

codec_family wenc_family(wenc_id id)
{
    switch (id) {
    case WENC_UTF_8: return FAMILY_UTF_8;
    case WENC_GBK:
    case WENC_GB18030: return FAMILY_GB18030;
    case WENC_BIG5: return FAMILY_BIG5;
    case WENC_EUC_JP: return FAMILY_EUC_JP;
    case WENC_ISO_2022_JP: return FAMILY_ISO_2022_JP;
    case WENC_SHIFT_JIS: return FAMILY_SHIFT_JIS;
    case WENC_EUC_KR: return FAMILY_EUC_KR;
    case WENC_REPLACEMENT: return FAMILY_REPLACEMENT;
    case WENC_UTF_16BE:
    case WENC_UTF_16LE: return FAMILY_UTF_16;
    case WENC_X_USER_DEFINED: return FAMILY_X_USER_DEFINED;
    default: return FAMILY_SINGLE_BYTE;
    }
}

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

/* FNV-1a with a seed, finished with a 32-bit avalanche; mirrored exactly by
 * tools/gen_tables.py, which chooses the seeds. */
uint32_t wenc_label_hash(const uint8_t *s, size_t n, uint32_t seed)
{
    uint32_t h = 2166136261u ^ seed;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
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

    uint8_t lower[WENC_LABEL_MAX_LEN];
    for (size_t i = 0; i < len; i++) {
        uint8_t c = s[i];
        lower[i] = (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 0x20) : c;
    }
    uint32_t bucket = wenc_label_hash(lower, len, 0) % wenc_label_bucket_count;
    uint32_t slot = wenc_label_hash(lower, len, wenc_label_seeds[bucket]) %
                    wenc_label_slot_count;
    uint16_t entry = wenc_label_slots[slot];
    if (entry == 0)
        return WENC_INVALID;
    const label_entry *e = &wenc_labels[entry - 1];
    if (e->length != len || memcmp(e->label, lower, len) != 0)
        return WENC_INVALID;
    return (wenc_id)e->encoding;
}

/* §6 BOM sniff */
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

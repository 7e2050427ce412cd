/* Labels given as arguments: get an encoding, and the message for an
 * unknown label with the known labels closest to it. */
#include "cli.h"

#include <string.h>

/* How many close labels an unknown-label message proposes at most. */
#define MAX_SUGGESTIONS 3

static char ascii_lower(char c)
{
    if (c >= 'A' && c <= 'Z')
        return (char)(c - 'A' + 'a');
    return c;
}

/* The Standard's ASCII whitespace: TAB, LF, FF, CR, SPACE. */
static int ascii_space(char c)
{
    return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ';
}

/*
 * Levenshtein distance between a (compared in ASCII lower case) and the
 * label b (already lower case), or `limit + 1` as soon as it is known to
 * exceed limit. b must be shorter than 64 bytes.
 */
static size_t label_distance(const char *a, size_t alen, const char *b,
                             size_t blen, size_t limit)
{
    size_t row[64];
    size_t i, j;

    if (blen >= sizeof row / sizeof row[0])
        return limit + 1;
    if ((alen > blen ? alen - blen : blen - alen) > limit)
        return limit + 1;
    for (j = 0; j <= blen; j++)
        row[j] = j;
    for (i = 1; i <= alen; i++) {
        size_t diagonal = row[0];
        size_t row_min;
        row[0] = i;
        row_min = row[0];
        for (j = 1; j <= blen; j++) {
            size_t above = row[j];
            size_t best = diagonal + (ascii_lower(a[i - 1]) != b[j - 1]);
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (above + 1 < best)
                best = above + 1;
            row[j] = best;
            diagonal = above;
            if (best < row_min)
                row_min = best;
        }
        if (row_min > limit)
            return limit + 1;
    }
    return row[blen];
}

/*
 * Charset names in common use that are not labels of the Standard: what
 * the Standard has for each. Keys are in normalized form (normalize_name()).
 * A covering encoding is named as the one to use; otherwise the phrase
 * says what the Standard lacks.
 */
static const struct known_name {
    const char *key;
    wenc_id covered_by; /* WENC_INVALID: none */
    const char *phrase;
} known_names[] = {
    {"cp932", WENC_SHIFT_JIS, "Windows code page 932 is the Standard's Shift_JIS"},
    {"windows932", WENC_SHIFT_JIS, "Windows code page 932 is the Standard's Shift_JIS"},
    {"cp936", WENC_GBK, "Windows code page 936 is the Standard's GBK"},
    {"windows936", WENC_GBK, "Windows code page 936 is the Standard's GBK"},
    {"ms936", WENC_GBK, "Windows code page 936 is the Standard's GBK"},
    {"euccn", WENC_GBK, "EUC-CN (GB 2312) is covered by the Standard's GBK"},
    {"gb180302000", WENC_GB18030, "every revision of GB 18030 is the Standard's gb18030 (with GB18030-2022's mapping)"},
    {"gb180302005", WENC_GB18030, "every revision of GB 18030 is the Standard's gb18030 (with GB18030-2022's mapping)"},
    {"gb180302022", WENC_GB18030, "every revision of GB 18030 is the Standard's gb18030 (with GB18030-2022's mapping)"},
    {"cp949", WENC_EUC_KR, "Windows code page 949 (Unified Hangul Code) is the Standard's EUC-KR"},
    {"ms949", WENC_EUC_KR, "Windows code page 949 (Unified Hangul Code) is the Standard's EUC-KR"},
    {"uhc", WENC_EUC_KR, "Windows code page 949 (Unified Hangul Code) is the Standard's EUC-KR"},
    {"cp950", WENC_BIG5, "Windows code page 950 is covered by the Standard's Big5"},
    {"windows950", WENC_BIG5, "Windows code page 950 is covered by the Standard's Big5"},
    {"ms950", WENC_BIG5, "Windows code page 950 is covered by the Standard's Big5"},
    {"cp874", WENC_WINDOWS_874, "Windows code page 874 is the Standard's windows-874"},
    {"cp65001", WENC_UTF_8, "Windows code page 65001 is UTF-8"},
    {"macroman", WENC_MACINTOSH, "Mac OS Roman is the Standard's macintosh"},
    {"ucs2", WENC_UTF_16LE, "UCS-2 is covered by UTF-16LE (or UTF-16BE)"},
    {"ucs2le", WENC_UTF_16LE, "UCS-2LE is covered by UTF-16LE"},
    {"ucs2be", WENC_UTF_16BE, "UCS-2BE is covered by UTF-16BE"},
    {"eucjis2004", WENC_INVALID, "JIS X 0213 is not in the Encoding Standard; EUC-JP decodes its JIS X 0208 part"},
    {"eucjisx0213", WENC_INVALID, "JIS X 0213 is not in the Encoding Standard; EUC-JP decodes its JIS X 0208 part"},
    {"shiftjis2004", WENC_INVALID, "JIS X 0213 is not in the Encoding Standard; Shift_JIS decodes its JIS X 0208 part"},
    {"shiftjisx0213", WENC_INVALID, "JIS X 0213 is not in the Encoding Standard; Shift_JIS decodes its JIS X 0208 part"},
    {"iso2022jp2004", WENC_INVALID, "JIS X 0213 is not in the Encoding Standard; ISO-2022-JP decodes its JIS X 0208 part"},
    {"iso2022jp3", WENC_INVALID, "JIS X 0213 is not in the Encoding Standard; ISO-2022-JP decodes its JIS X 0208 part"},
    {"iso2022jp1", WENC_INVALID, "not in the Encoding Standard; ISO-2022-JP decodes its ASCII and JIS X 0208 parts"},
    {"iso2022jp2", WENC_INVALID, "not in the Encoding Standard; ISO-2022-JP decodes its ASCII and JIS X 0208 parts"},
    {"utf32", WENC_INVALID, "the Encoding Standard has no UTF-32 (browsers do not decode it)"},
    {"utf32le", WENC_INVALID, "the Encoding Standard has no UTF-32 (browsers do not decode it)"},
    {"utf32be", WENC_INVALID, "the Encoding Standard has no UTF-32 (browsers do not decode it)"},
    {"ucs4", WENC_INVALID, "the Encoding Standard has no UTF-32 (browsers do not decode it)"},
    {"ucs4le", WENC_INVALID, "the Encoding Standard has no UTF-32 (browsers do not decode it)"},
    {"ucs4be", WENC_INVALID, "the Encoding Standard has no UTF-32 (browsers do not decode it)"},
    {"utf7", WENC_INVALID, "the Encoding Standard has no UTF-7 (browsers do not decode it)"},
    {"cesu8", WENC_INVALID, "the Encoding Standard has no CESU-8 (browsers do not decode it)"},
    {"scsu", WENC_INVALID, "the Encoding Standard has no SCSU (browsers do not decode it)"},
    {"bocu1", WENC_INVALID, "the Encoding Standard has no BOCU-1 (browsers do not decode it)"},
    {"ebcdic", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"cp037", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"ibm037", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"cp273", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"cp500", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"ibm500", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"cp1047", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"ibm1047", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"cp1140", WENC_INVALID, "EBCDIC code pages are not in the Encoding Standard"},
    {"cp437", WENC_INVALID, "of the DOS code pages the Encoding Standard has IBM866 only"},
    {"ibm437", WENC_INVALID, "of the DOS code pages the Encoding Standard has IBM866 only"},
    {"cp850", WENC_INVALID, "of the DOS code pages the Encoding Standard has IBM866 only"},
    {"ibm850", WENC_INVALID, "of the DOS code pages the Encoding Standard has IBM866 only"},
    {"cp852", WENC_INVALID, "of the DOS code pages the Encoding Standard has IBM866 only"},
    {"ibm852", WENC_INVALID, "of the DOS code pages the Encoding Standard has IBM866 only"},
    {"cp1125", WENC_INVALID, "of the DOS code pages the Encoding Standard has IBM866 only"},
    {"euctw", WENC_INVALID, "the Encoding Standard has no encoding of CNS 11643"},
    {"johab", WENC_INVALID, "the Encoding Standard has no Johab; EUC-KR (Unified Hangul Code) covers its Hangul"},
    {"viscii", WENC_INVALID, "the Encoding Standard has no VISCII; windows-1258 is its Vietnamese encoding"},
    {"tscii", WENC_INVALID, "the Encoding Standard has no TSCII"},
    {"armscii8", WENC_INVALID, "the Encoding Standard has no ARMSCII-8"},
    {"georgianps", WENC_INVALID, "the Encoding Standard has no Georgian-PS"},
    {"pt154", WENC_INVALID, "the Encoding Standard has no PT154"},
    {"koi8t", WENC_INVALID, "the Encoding Standard has no KOI8-T; KOI8-R and KOI8-U are its KOI8 encodings"},
};

/* A charset name compared as iconv and Python compare them: ASCII lower
 * case, with '-', '_', '.', ':' and spaces dropped and ASCII whitespace
 * around it trimmed. Returns 0 when it does not fit in out. */
static int normalize_name(const char *name, char *out, size_t out_size)
{
    size_t len = 0;
    for (; *name; name++) {
        char c = *name;
        if (c == '-' || c == '_' || c == '.' || c == ':' || ascii_space(c))
            continue;
        if (len + 1 >= out_size)
            return 0;
        out[len++] = ascii_lower(c);
    }
    out[len] = 0;
    return 1;
}

/* The entry of known_names for a name that is not a label, or NULL. */
static const struct known_name *known_name_of(const char *label)
{
    char key[32];
    size_t k;
    if (!normalize_name(label, key, sizeof key))
        return NULL;
    for (k = 0; k < sizeof known_names / sizeof known_names[0]; k++)
        if (strcmp(known_names[k].key, key) == 0)
            return &known_names[k];
    return NULL;
}

/*
 * Prints "wenc: unknown label 'X'" and, when X is a charset name in common
 * use outside the Standard, what the Standard has for it (known_names);
 * otherwise, when some labels are close to X (by
 * edit distance over ASCII lower case, after trimming ASCII whitespace as
 * get an encoding does), "; did you mean: a, b, c?". Closer labels come
 * first; ties keep the Standard's order.
 */
void report_unknown_label(const char *label)
{
    const char *best[MAX_SUGGESTIONS];
    size_t best_distance[MAX_SUGGESTIONS];
    size_t found = 0;
    size_t start = 0, end = strlen(label);
    size_t limit, index, k;
    message m = { .len = 0 };

    const struct known_name *known = known_name_of(label);

    if (known != NULL) {
        msg_add(&m, "wenc: unknown label ");
        msg_add_quoted(&m, label);
        msg_add(&m, ": %s", known->phrase);
        if (known->covered_by != WENC_INVALID)
            msg_add(&m, "; use %s", wenc_name(known->covered_by));
        msg_add(&m, "\n");
        msg_emit(&m);
        return;
    }
    while (start < end && ascii_space(label[start]))
        start++;
    while (end > start && ascii_space(label[end - 1]))
        end--;

    /* How far is "close": one edit for short labels, up to three. */
    limit = (end - start) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;

    for (index = 0; index < wenc_label_count(); index++) {
        const char *candidate = wenc_label_at(index, NULL);
        size_t d;
        if (candidate == NULL)
            break;
        d = label_distance(label + start, end - start, candidate,
                           strlen(candidate), limit);
        if (d > limit)
            continue;
        /* Insert after every entry at least as close (stable by order). */
        k = found;
        while (k > 0 && best_distance[k - 1] > d)
            k--;
        if (k >= MAX_SUGGESTIONS)
            continue;
        if (found < MAX_SUGGESTIONS)
            found++;
        memmove(&best[k + 1], &best[k], (found - 1 - k) * sizeof best[0]);
        memmove(&best_distance[k + 1], &best_distance[k],
                (found - 1 - k) * sizeof best_distance[0]);
        best[k] = candidate;
        best_distance[k] = d;
    }

    msg_add(&m, "wenc: unknown label ");
    msg_add_quoted(&m, label);
    for (k = 0; k < found; k++)
        msg_add(&m, "%s%s", k == 0 ? "; did you mean: " : ", ", best[k]);
    msg_add(&m, "%s\n", found > 0 ? "?" : "");
    msg_emit(&m);
}

/* get an encoding (§4.2) for a NUL-terminated argument. */
wenc_id lookup(const char *label)
{
    return wenc_lookup(label, strlen(label));
}

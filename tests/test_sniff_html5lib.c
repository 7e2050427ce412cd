/* test_sniff_html5lib.c — wenc_sniff_html against html5lib-tests' encoding
 * suite (tests/data/html5lib-encoding/, copied unchanged; its README.md names
 * the commit).
 *
 * Each case of a .dat file is "#data", the document's bytes, "#encoding" and
 * the encoding a browser ends up with; html5lib's runners parse the document
 * with no transport label and windows-1252 as the default, and so does this
 * test. A case the prescan decides must give exactly the file's encoding. A
 * case that only a browser's later steps decide (the tree builder meeting a
 * <meta> past the prescan's 1024 bytes and changing the encoding) is listed
 * below by name and must give exactly what the prescan gives there: the
 * default, windows-1252. The meta that tests1.dat's document.write() case
 * writes stands in the script's text, where the prescan finds it. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE_DIR "tests/data/html5lib-encoding"

typedef struct dat_case {
    const uint8_t *data;
    size_t data_len;
    const uint8_t *encoding;
    size_t encoding_len;
} dat_case;

typedef struct dat_file {
    const char *name;
    size_t case_count; /* how many cases the file holds */
} dat_file;

static const dat_file suite[] = {
    {"tests1.dat", 59},
    {"tests2.dat", 22},
    {"test-yahoo-jp.dat", 1},
};

/* The cases the prescan cannot decide, by file and index (from 0, in the
 * file's order). */
static const struct {
    const char *file;
    size_t index;
    const char *why;
} beyond_prescan[] = {
    {"tests1.dat", 47, "\"2048 characters\": a comment to byte 2019, the meta at byte 2020"},
    {"tests1.dat", 48, "\"2049 characters\": a comment to byte 2020, the meta at byte 2021"},
    {"tests1.dat", 49, "\"4096 characters\": a comment to byte 4067, the meta at byte 4068"},
    {"tests1.dat", 50, "\"4097 characters\": a comment to byte 4068, the meta at byte 4069"},
    {"tests1.dat", 51, "\"8192 characters\": a comment to byte 8163, the meta at byte 8164"},
    {"tests1.dat", 52, "\"8193 characters\": a comment to byte 8164, the meta at byte 8165"},
    {"tests1.dat", 53, "\"multi-script test\": scripts and comments, the meta at byte 8317"},
};

static const char *beyond_prescan_reason(const char *file, size_t index)
{
    for (size_t i = 0; i < sizeof beyond_prescan / sizeof beyond_prescan[0]; i++)
        if (strcmp(beyond_prescan[i].file, file) == 0 && beyond_prescan[i].index == index)
            return beyond_prescan[i].why;
    return NULL;
}

/* The line that starts at `pos`, without its LF; *next is past the LF. */
static size_t line_length(const uint8_t *text, size_t len, size_t pos, size_t *next)
{
    const uint8_t *lf = memchr(text + pos, '\n', len - pos);
    size_t end = lf ? (size_t)(lf - text) : len;
    *next = lf ? end + 1 : len;
    return end - pos;
}

/* Splits html5lib's .dat format: a line starting with '#' names the section
 * the lines after it make, "#data" starts a case; a section's text is its
 * lines less the LF that ends the last one. Fills at most `max` cases and
 * returns how many the text holds, or (size_t)-1 when a case lacks one of
 * its two sections. */
static size_t split_cases(const uint8_t *text, size_t len, dat_case *cases, size_t max)
{
    enum { NO_SECTION, DATA, ENCODING, OTHER } section = NO_SECTION;
    size_t count = 0, section_start = 0;
    bool complete = true;
    dat_case current = {0};
    for (size_t pos = 0; pos <= len;) {
        size_t next = len;
        size_t n = pos < len ? line_length(text, len, pos, &next) : 0;
        bool heading = pos == len || text[pos] == '#';
        if (!heading) {
            pos = next;
            continue;
        }
        size_t section_end = pos;
        if (section_end > section_start && text[section_end - 1] == '\n')
            section_end--;
        size_t section_len = section_end - section_start;
        if (section == DATA) {
            current.data = text + section_start;
            current.data_len = section_len;
        } else if (section == ENCODING) {
            current.encoding = text + section_start;
            current.encoding_len = section_len;
        }
        bool new_case = pos == len || (n == 5 && memcmp(text + pos, "#data", 5) == 0);
        if (new_case && section != NO_SECTION) {
            if (!current.data || !current.encoding)
                complete = false;
            if (count < max)
                cases[count] = current;
            count++;
            current = (dat_case){0};
        }
        if (pos == len)
            break;
        if (new_case)
            section = DATA;
        else if (n == 9 && memcmp(text + pos, "#encoding", 9) == 0)
            section = ENCODING;
        else
            section = OTHER;
        section_start = next;
        pos = next;
    }
    return complete ? count : (size_t)-1;
}

/* The expected label without the blank lines that separate cases. */
static size_t trimmed_length(const uint8_t *s, size_t n)
{
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        n--;
    return n;
}

static wenc_sniff_result sniff_exact(const uint8_t *bytes, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        abort();
    if (len)
        memcpy(copy, bytes, len);
    wenc_sniff_result r = wenc_sniff_html(len ? copy : NULL, len, NULL, 0, WENC_WINDOWS_1252);
    free(copy);
    return r;
}

typedef struct tally {
    size_t exact, beyond;
} tally;

static void check_case(th *t, const char *file, size_t index, const dat_case *c, tally *n)
{
    size_t label_len = trimmed_length(c->encoding, c->encoding_len);
    th_ctx(t, "%s case %zu (expected \"%.*s\")", file, index, (int)label_len,
           (const char *)c->encoding);
    wenc_id expected = wenc_lookup((const char *)c->encoding, label_len);
    if (!CHECKF(t, expected != WENC_INVALID, "the expected encoding is not a label"))
        return;
    wenc_sniff_result r = sniff_exact(c->data, c->data_len);
    const char *why = beyond_prescan_reason(file, index);
    if (!why) {
        CHECKF(t, strcmp(wenc_name(r.encoding), wenc_name(expected)) == 0,
               "sniffed %s by %s, expected %s", wenc_name(r.encoding),
               wenc_sniff_source_name(r.source), wenc_name(expected));
        n->exact++;
        return;
    }
    CHECKF(t, r.encoding == WENC_WINDOWS_1252 && r.source == WENC_SNIFF_DEFAULT,
           "outside the prescan (%s), yet sniffed %s by %s, not the default windows-1252",
           why, wenc_name(r.encoding), wenc_sniff_source_name(r.source));
    CHECKF(t, expected != WENC_WINDOWS_1252,
           "listed as outside the prescan (%s), yet the prescan's answer is the suite's", why);
    n->beyond++;
}

static void check_file(th *t, const char *source_dir, const dat_file *f, tally *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", source_dir, SUITE_DIR, f->name);
    th_ctx(t, "%s", path);
    size_t len = 0;
    uint8_t *text = th_read_file(path, &len);
    if (!CHECKF(t, text != NULL, "cannot read the file"))
        return;
    dat_case *cases = calloc(f->case_count, sizeof *cases);
    if (!cases)
        abort();
    size_t count = split_cases(text, len, cases, f->case_count);
    if (CHECKF(t, count == f->case_count, "%zu cases (or one incomplete), expected %zu",
               count, f->case_count))
        for (size_t i = 0; i < count; i++)
            check_case(t, f->name, i, &cases[i], n);
    free(cases);
    free(text);
}

static void check_listed_cases_exist(th *t)
{
    th_ctx(t, "the list of cases outside the prescan");
    for (size_t i = 0; i < sizeof beyond_prescan / sizeof beyond_prescan[0]; i++) {
        bool known = false;
        for (size_t k = 0; k < sizeof suite / sizeof suite[0]; k++)
            if (strcmp(suite[k].name, beyond_prescan[i].file) == 0 &&
                beyond_prescan[i].index < suite[k].case_count)
                known = true;
        CHECKF(t, known, "%s case %zu is not in the suite", beyond_prescan[i].file,
               beyond_prescan[i].index);
    }
}

int main(void)
{
    th t;
    th_begin(&t, "test_sniff_html5lib");
    const char *source_dir = getenv("WENC_SOURCE_DIR");
    if (!source_dir || !*source_dir)
        source_dir = ".";
    tally n = {0, 0};
    check_listed_cases_exist(&t);
    for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++)
        check_file(&t, source_dir, &suite[i], &n);
    th_ctx_clear(&t);
    th_note(&t, "html5lib encoding cases: %zu decided by the prescan as the suite says, "
                "%zu outside the prescan given the default",
            n.exact, n.beyond);
    return th_end(&t);
}

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
 * Prints "wenc: unknown label 'X'" and, when some labels are close to X (by
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

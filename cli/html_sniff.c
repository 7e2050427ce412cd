/* The HTML encoding sniffing options of sniff --html and decode
 * --sniff-html, and how an answer is shown. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/*
 * Takes argv[*i] when it is --label LABEL, --default LABEL or --locale TAG.
 * A --label that is not a label is kept, with a note: the HTML Standard
 * ignores a transport layer's unsupported encoding. Returns 0 when argv[*i]
 * is none of them, 1 when it was taken, or STATUS_USAGE after reporting a
 * usage error (a missing value, an unknown --default label, both --default
 * and --locale).
 */
int sniff_option(int argc, char **argv, int *i, sniff_settings *s)
{
    const char *value;
    int r;

    if ((r = option_value(argc, argv, i, '\0', "--label", &value)) != 0) {
        if (r < 0)
            return STATUS_USAGE;
        s->label = value;
        if (wenc_lookup(value, strlen(value)) == WENC_INVALID) {
            message m = { .len = 0 };
            msg_add(&m, "wenc: note: --label ");
            msg_add_quoted(&m, value);
            msg_add(&m, " is not a label; ignored, as the HTML Standard "
                        "ignores an unsupported transport-layer encoding\n");
            msg_emit(&m);
        }
        return 1;
    }
    int is_default = 1;
    r = option_value(argc, argv, i, '\0', "--default", &value);
    if (r == 0) {
        is_default = 0;
        r = option_value(argc, argv, i, '\0', "--locale", &value);
    }
    if (r == 0)
        return 0;
    if (r < 0)
        return STATUS_USAGE;
    const char *option = is_default ? "--default" : "--locale";
    if (s->fallback_option != NULL && strcmp(s->fallback_option, option) != 0)
        return usage_error("--default and --locale exclude each other", NULL);
    s->fallback_option = option;
    if (is_default)
        return resolve(value, &s->fallback) >= 0 ? STATUS_USAGE : 1;
    s->fallback = wenc_html_default_encoding(value, strlen(value));
    return 1;
}

/* HTML §13.2.3.2 over the bytes, with the settings' label and default. */
wenc_sniff_result sniff_bytes(const uint8_t *bytes, size_t len,
                              const sniff_settings *s)
{
    return wenc_sniff_html(bytes, len, s->label, s->label ? strlen(s->label) : 0,
                           s->fallback);
}

/* "ENCODING\tCONFIDENCE\tSTEP", then "\tbytes FIRST-LAST" when bytes
 * decided. */
void describe_sniff(message *m, const wenc_sniff_result *r)
{
    msg_add(m, "%s\t%s\t%s", wenc_name(r->encoding),
            r->confidence == WENC_CONFIDENCE_CERTAIN ? "certain" : "tentative",
            wenc_sniff_source_name(r->source));
    if (r->length > 0)
        msg_add(m, "\tbytes %zu-%zu", r->offset, r->offset + r->length - 1);
}

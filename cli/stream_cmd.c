/* What wenc decode, encode and convert share: one function runs the three. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* get an output encoding (§4.3): without an encoder UTF-8 is written. */
static void note_output_encoding(const job *j, wenc_id id)
{
    if (wenc_encoder_encoding(&j->enc) != id && !j->opts->quiet)
        fprintf(stderr, "wenc: note: %s has no encoder; writing %s\n",
                wenc_name(id), wenc_name(wenc_encoder_encoding(&j->enc)));
}

/* Whether label, less surrounding ASCII whitespace and in any ASCII case,
 * is one of the names (a NULL-terminated list). No locale is consulted. */
static int label_is_one_of(const char *label, const char *const *names)
{
    static const char space[] = "\t\n\f\r ";
    size_t len;

    while (*label != '\0' && strchr(space, *label) != NULL)
        label++;
    len = strlen(label);
    while (len > 0 && strchr(space, label[len - 1]) != NULL)
        len--;
    for (; *names != NULL; names++) {
        size_t k;
        if (strlen(*names) != len)
            continue;
        for (k = 0; k < len; k++) {
            char c = label[k];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c != (*names)[k])
                break;
        }
        if (k == len)
            return 1;
    }
    return 0;
}

/* The UTF-16LE labels that name no byte order: its output gets a BOM. */
static const char *const utf16_unordered[] = {
    "utf-16", "unicode", "csunicode", "ucs-2", "iso-10646-ucs-2", NULL
};

/* Labels of windows-1252 that most users take for something else. */
static const char *const latin1_labels[] = {
    "iso-8859-1", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987",
    "latin1", "l1", "csisolatin1", "iso-ir-100", "ibm819", "cp819", NULL
};
static const char *const ascii_labels[] = {
    "ascii", "us-ascii", "ansi_x3.4-1968", NULL
};

/* A note for a label whose encoding is not what its name says to most
 * users (output: the label of -t), unless the same note was given for -f
 * (*given: what note_label gave: 1 windows-1252, 2 UTF-16). */
static void note_label(const options *o, const char *label, int output,
                       int *given)
{
    message m = { .len = 0 };
    int kind = label_is_one_of(label, latin1_labels) ||
                       label_is_one_of(label, ascii_labels)
                   ? 1
                   : label_is_one_of(label, utf16_unordered) ? 2 : 0;
    if (o->quiet || kind == 0 || (kind == 1 && *given == 1))
        return;
    *given = kind;
    if (label_is_one_of(label, latin1_labels)) {
        msg_add(&m, "wenc: note: ");
        msg_add_quoted(&m, label);
        msg_add(&m, " is windows-1252 in the Encoding Standard (bytes "
                    "0x80-0x9F are characters such as U+20AC, not C1 "
                    "controls)\n");
    } else if (label_is_one_of(label, ascii_labels)) {
        msg_add(&m, "wenc: note: ");
        msg_add_quoted(&m, label);
        msg_add(&m, " is windows-1252 in the Encoding Standard (bytes "
                    "0x80-0xFF are characters, not errors)\n");
    } else {
        msg_add(&m, "wenc: note: ");
        msg_add_quoted(&m, label);
        msg_add(&m, " is UTF-16LE in the Encoding Standard%s\n",
                !output ? " (a UTF-16BE byte order mark still wins)"
                : o->standard_output ? ""
                : "; writing UTF-16LE with a byte order mark (FF FE)");
    }
    msg_emit(&m);
}

/* Runs decode (decoding), encode (encoding) or convert (both); help is the
 * text --help prints. */
int cmd_stream(int argc, char **argv, int decoding, int encoding,
               const char *help)
{
    options o;
    job *j;
    wenc_id from = WENC_UTF_8, to = WENC_UTF_8;
    unsigned allowed = OPT_STREAM;
    int noted = 0;
    int r;

    memset(&o, 0, sizeof o);
    o.bom = WENC_BOM_SNIFF;
    o.dec_mode = WENC_ERRORS_REPLACEMENT;
    o.unmappable = UNM_HTML;
    o.subst = '?';
    o.sniff.fallback = WENC_INVALID;
    if (decoding)
        allowed |= OPT_FROM | OPT_BOM | OPT_FATAL_DEC | OPT_REPLACEMENT;
    if (decoding && !encoding)
        allowed |= OPT_SNIFF;
    if (encoding)
        allowed |= OPT_TO | OPT_FATAL_ENC | OPT_HTML | OPT_FATAL_DEC;
    if ((r = parse_options(argc, argv, allowed, help, &o)) >= 0)
        return r;

    if (encoding && o.to == NULL)
        return usage_error(decoding ? "convert needs -t LABEL"
                                    : "encode needs -t LABEL",
                           NULL);
    if (o.sniff_html && o.from)
        return usage_error("-f and --sniff-html exclude each other (give the "
                           "transport layer's label with --label)",
                           NULL);
    if (!o.sniff_html && (o.sniff.label || o.sniff.fallback_option))
        return usage_error(o.sniff.label ? "--label needs --sniff-html"
                                         : "--default and --locale need "
                                           "--sniff-html",
                           NULL);
    /* encode reads its UTF-8 with a UTF-8 decoder, as convert -f utf-8
     * does, so that malformed input is found (a BOM is text to encode). */
    if (!decoding) {
        decoding = 1;
        o.bom = WENC_BOM_KEEP;
    }
    /* With --sniff-html the decoder is set up again once the first bytes
     * are sniffed; windows-1252's sizes its buffers for any decoder. */
    if (o.from == NULL)
        o.from = o.sniff_html ? "windows-1252" : "utf-8";
    if (decoding && (r = resolve(o.from, &from)) >= 0)
        return r;
    if (encoding && (r = resolve(o.to, &to)) >= 0)
        return r;
    if (o.utf16_output && o.standard_output)
        return usage_error("--standard-output-encoding excludes "
                           "--utf16-output and --utf16-bom",
                           NULL);
    /* UTF-16 where the user names it (the Standard writes UTF-8: get an
     * output encoding); a label that names no byte order gets a BOM. */
    if (encoding && !o.standard_output && o.utf16_output == 0 &&
        (to == WENC_UTF_16LE || to == WENC_UTF_16BE))
        o.utf16_output = label_is_one_of(o.to, utf16_unordered) ? 2 : 1;
    if (decoding && !o.sniff_html && o.from != NULL)
        note_label(&o, o.from, 0, &noted);
    if (encoding)
        note_label(&o, o.to, 1, &noted);
    if (o.utf16_output && to != WENC_UTF_16LE && to != WENC_UTF_16BE)
        return usage_error(o.utf16_output == 2
                               ? "--utf16-bom needs -t utf-16le or utf-16be"
                               : "--utf16-output needs -t utf-16le or "
                                 "utf-16be",
                           NULL);

    j = calloc(1, sizeof *j);
    if (j == NULL)
        return io_error("wenc", ENOMEM);
    j->decoding = decoding;
    j->encoding = encoding;
    /* The library runs in fatal mode; the job does what the modes asked
     * for at each error, and counts. */
    j->dec_fatal = o.dec_mode == WENC_ERRORS_FATAL;
    j->unm = o.unmappable;
    j->subst = o.subst;
    if (decoding && !wenc_decoder_init(&j->dec, from, o.bom,
                                       WENC_ERRORS_FATAL)) {
        free(j);
        return cannot_convert("decode", from);
    }
    j->snap = j->dec; /* stream offset 0, nothing fed yet */
    j->sniffing = o.sniff_html;
    j->opts = &o;
    if (encoding && o.utf16_output) {
        /* the extension: real UTF-16, which the Standard does not write */
        (void)wenc_encoder_init_utf16(&j->enc, to, o.utf16_output == 2);
    } else if (encoding) {
        if (!wenc_encoder_init(&j->enc, to, WENC_ERRORS_FATAL)) {
            free(j);
            return cannot_convert("encode", to);
        }
        note_output_encoding(j, to);
        /* The decoder writes UTF-8 of scalar values, which the UTF-8 encoder
         * reproduces byte for byte: convert to UTF-8 is decode alone. */
        if (decoding && wenc_encoder_encoding(&j->enc) == WENC_UTF_8)
            j->encoding = 0;
    }
    r = start_job(j, &o);
    free(j);
    return r;
}

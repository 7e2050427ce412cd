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

/* Runs decode (decoding), encode (encoding) or convert (both); help is the
 * text --help prints. */
int cmd_stream(int argc, char **argv, int decoding, int encoding,
               const char *help)
{
    options o;
    job *j;
    wenc_id from = WENC_UTF_8, to = WENC_UTF_8;
    unsigned allowed = OPT_STREAM;
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

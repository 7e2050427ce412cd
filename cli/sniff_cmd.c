/* wenc sniff: the encoding the byte order mark of each file selects, or
 * with --html the HTML Standard's encoding sniffing of it. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static const char help_sniff[] =
    "Usage: wenc sniff [FILE...]\n"
    "       wenc sniff --html [--label LABEL] [--default LABEL | --locale TAG] [FILE...]\n"
    "\n"
    "Prints, for each FILE, its name, a TAB and the encoding its byte order\n"
    "mark selects (the Standard's BOM sniff of the first 3 bytes): UTF-8,\n"
    "UTF-16BE, UTF-16LE or none. FILE '-' or no FILE reads standard input\n"
    "(named '-'). A FILE that cannot be read is reported, the others are\n"
    "still sniffed, and wenc exits 1.\n"
    "\n"
    "With --html (an extension beyond the Encoding Standard), prints the\n"
    "encoding the HTML Standard's encoding sniffing algorithm gives: a BOM,\n"
    "then the transport layer's label, then the prescan of the first 1024\n"
    "bytes for <meta charset> and <meta http-equiv=content-type> (and an XML\n"
    "declaration), then the default. Each line is FILE, the encoding, its\n"
    "confidence (certain or tentative), the step that decided (bom,\n"
    "transport, utf-16-xml, meta, xml-declaration, default) and, when bytes\n"
    "decided, 'bytes FIRST-LAST' (offsets from 0, LAST included), separated\n"
    "by TABs.\n"
    "\n"
    "  --html            sniff as the HTML Standard does\n"
    "  --label LABEL     the transport layer's label (e.g. the Content-Type\n"
    "                    header's charset); ignored, with a note, when it is\n"
    "                    not a label, as the HTML Standard ignores it\n"
    "  --default LABEL   the encoding when nothing decides (default\n"
    "                    windows-1252)\n"
    "  --locale TAG      the default the HTML Standard suggests for a language\n"
    "                    tag: ja Shift_JIS, ru windows-1251, zh-TW Big5, ...\n"
    "  -h, --help        show this help\n";

/* Reads up to `cap` bytes of one file into head. Returns 0 or errno. */
static int read_head(const char *path, uint8_t *head, size_t cap, size_t *have)
{
    int fd = STDIN_FILENO;
    int err = 0;

    *have = 0;
    if (strcmp(path, "-") != 0) {
        do
            fd = open(path, O_RDONLY);
        while (fd < 0 && errno == EINTR);
        if (fd < 0)
            return errno;
    }
    while (*have < cap) {
        ssize_t n = read(fd, head + *have, cap - *have);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            break;
        }
        if (n == 0)
            break;
        *have += (size_t)n;
    }
    if (fd != STDIN_FILENO)
        close(fd);
    return err;
}

/* BOM sniff (§6.1) of one file, or with html the HTML Standard's encoding
 * sniffing (the whole file or its first 1024 bytes: the answer is final).
 * Appends the answer to m; returns 0 or errno. */
static int sniff_one(const char *path, const sniff_settings *html, message *m)
{
    uint8_t head[WENC_SNIFF_PRESCAN_BYTES];
    size_t have;
    int err = read_head(path, head, html ? sizeof head : 3, &have);
    if (err)
        return err;
    if (html) {
        wenc_sniff_result r = sniff_bytes(head, have, html);
        describe_sniff(m, &r);
    } else {
        wenc_id id = wenc_bom_sniff(head, have, NULL);
        msg_add(m, "%s", id == WENC_INVALID ? "none" : wenc_name(id));
    }
    return 0;
}

int cmd_sniff(int argc, char **argv)
{
    int options_done = 0, nfiles = 0, status = STATUS_OK, html = 0;
    sniff_settings settings = { NULL, WENC_INVALID, NULL };
    int i, r;

    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && is_option(arg)) {
            if (strcmp(arg, "--") == 0) {
                options_done = 1;
                continue;
            }
            if (is_help(arg))
                return print_text(help_sniff);
            if (strcmp(arg, "--html") == 0) {
                html = 1;
                continue;
            }
            if ((r = sniff_option(argc, argv, &i, &settings)) != 0) {
                if (r > 1)
                    return r;
                continue;
            }
            return usage_error("unknown option", arg);
        }
        argv[nfiles++] = argv[i];
    }
    if (!html && (settings.label || settings.fallback_option))
        return usage_error(settings.label ? "--label needs --html"
                                          : "--default and --locale need --html",
                           NULL);
    if (nfiles == 0) {
        static char standard_input[] = "-";
        argv[nfiles++] = standard_input;
    }
    for (i = 0; i < nfiles; i++) {
        message m = { .len = 0 };
        msg_add(&m, "%s\t", argv[i]);
        int err = sniff_one(argv[i], html ? &settings : NULL, &m);
        if (err) {
            io_error(strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i], err);
            status = STATUS_FAIL;
        } else {
            msg_add(&m, "\n");
            r = print_text(m.text);
            if (r != STATUS_OK)
                return r;
        }
    }
    return status;
}

/*
 * wenc — the command-line tool of libwenc (the WHATWG Encoding Standard):
 * an iconv for Web content.
 *
 *   wenc decode  [-f LABEL] [--fatal|--replacement] [--bom MODE] [-o OUT] [FILE...]
 *   wenc decode  --sniff-html [--label LABEL] [--default LABEL|--locale TAG] [...]
 *   wenc encode  -t LABEL [--fatal|--html] [--utf16-output|--utf16-bom]
 *                [-o OUT] [FILE...]
 *   wenc convert [-f LABEL] -t LABEL [--fatal] [--replacement] [--html]
 *                [--utf16-output|--utf16-bom] [--bom MODE] [-o OUT] [FILE...]
 *   wenc -f LABEL -t LABEL [...] [FILE...]      (convert, iconv style)
 *   wenc sniff [--html [--label LABEL] [--default LABEL|--locale TAG]] [FILE...]
 *   wenc labels [--json | --by-encoding]
 *   wenc -l                                     (labels --by-encoding)
 *   wenc label LABEL
 *
 * Only the public header is used. Input is streamed through fixed-size
 * buffers allocated once (read buffer → decoder → UTF-8 buffer → encoder →
 * output buffer), so memory does not grow with the input. Output goes
 * straight to a file descriptor with write(2); nothing on standard output is
 * buffered by stdio. Several FILEs are one stream, as with cat.
 *
 * Exit status: 0 success (replacements and substitutions are warned of on
 * stderr); 1 malformed or unmappable input (fatal mode), an unknown label
 * given to `wenc label`, an unreadable file, -o refusing a lossy result over
 * an input, an I/O error or a closed standard output; 2 a usage error
 * (including an unknown label in -f/-t).
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static const char synopsis[] =
    "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE...]\n"
    "       wenc encode -t LABEL [--fatal] [FILE...]\n"
    "       wenc convert [-f LABEL] -t LABEL [--fatal] [FILE...]\n"
    "       wenc -f LABEL -t LABEL [FILE...]\n"
    "       wenc decode --sniff-html [--label LABEL] [--default LABEL] [FILE...]\n"
    "       wenc sniff [--html [--label LABEL] [--default LABEL]] [FILE...]\n"
    "       wenc labels [--json | --by-encoding]\n"
    "       wenc -l\n"
    "       wenc label LABEL\n";

static const char help_main[] =
    "\n"
    "Converts text between the encodings of the WHATWG Encoding Standard,\n"
    "byte for byte as a web browser does.\n"
    "\n"
    "Subcommands:\n"
    "  decode   bytes in an encoding to UTF-8\n"
    "  encode   UTF-8 to bytes in an encoding\n"
    "  convert  bytes in one encoding to bytes in another (decode, then\n"
    "           encode); 'wenc -f X -t Y' is short for 'wenc convert -f X -t Y'\n"
    "  sniff    the byte order mark of each FILE: UTF-8, UTF-16BE, UTF-16LE\n"
    "           or none; with --html, the HTML Standard's encoding sniffing\n"
    "           (an extension)\n"
    "  labels   list every label with the name of its encoding\n"
    "  label    print the name of the encoding a label selects\n"
    "\n"
    "Options:\n"
    "  -h, --help   show this help (or a subcommand's: wenc decode --help)\n"
    "  --version    show the version\n"
    "  -l, --list   list the encodings, each with its labels (as iconv -l;\n"
    "               wenc labels --by-encoding)\n"
    "\n"
    "Several FILEs are read as one stream, like cat; FILE '-' or no FILE\n"
    "reads standard input. -o OUT writes OUT only when all went well.\n"
    "Exit status: 0 success, also when malformed input became U+FFFD or\n"
    "unmappable characters were replaced (a warning on standard error says\n"
    "how many and where the first was; -q silences it); 1 malformed or\n"
    "unmappable input with --fatal, an unknown label (wenc label), an\n"
    "unreadable file, -o refusing to replace an input with a lossy result,\n"
    "or an I/O error; 2 a usage error. Each subcommand's --help says more.\n";

/*
 * The subcommands: `wenc NAME ARGS...` runs run(argc, argv) on the ARGS.
 * A subcommand is a file NAME_cmd.c defining cmd_NAME (declared in cli.h)
 * and an entry here; its usage goes in synopsis and help_main above.
 */
static const struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
} subcommands[] = {
    { "decode", cmd_decode },
    { "encode", cmd_encode },
    { "convert", cmd_convert },
    { "sniff", cmd_sniff },
    { "labels", cmd_labels },
    { "label", cmd_label },
};

/* The iconv-style form: wenc -f X -t Y ... */
static int is_convert_option(const char *arg)
{
    return strncmp(arg, "-f", 2) == 0 || strncmp(arg, "-t", 2) == 0 ||
           strncmp(arg, "--from", 6) == 0 || strncmp(arg, "--to", 4) == 0;
}

int main(int argc, char **argv)
{
    const char *cmd;
    size_t k;

    /* A closed stdout shows up as EPIPE from write(2), handled there. */
    signal(SIGPIPE, SIG_IGN);

    if (argc < 2) {
        fputs(synopsis, stderr);
        fputs("Try 'wenc --help'.\n", stderr);
        return STATUS_USAGE;
    }
    cmd = argv[1];

    if (is_help(cmd) || strcmp(cmd, "--version") == 0) {
        if (argc > 2)
            return usage_error(is_option(argv[2]) ? "unknown option"
                                                  : "extra operand",
                               argv[2]);
        if (is_help(cmd)) {
            int r = print_text(synopsis);
            return r ? r : print_text(help_main);
        } else {
            message m = { .len = 0 };
            msg_add(&m, "wenc %s\n", wenc_version());
            return print_text(m.text);
        }
    }
    for (k = 0; k < sizeof subcommands / sizeof subcommands[0]; k++) {
        if (strcmp(cmd, subcommands[k].name) == 0)
            return subcommands[k].run(argc - 2, argv + 2);
    }
    if (strcmp(cmd, "-l") == 0 || strcmp(cmd, "--list") == 0) {
        /* iconv -l: the encodings, each with its labels */
        static char by_encoding[] = "--by-encoding";
        argv[1] = by_encoding;
        return cmd_labels(argc - 1, argv + 1);
    }
    if (is_convert_option(cmd))
        return cmd_convert(argc - 1, argv + 1);
    if (is_option(cmd))
        return usage_error("unknown option", cmd);
    return usage_error("unknown subcommand", cmd);
}

/* wenc encode: UTF-8 to bytes in an encoding. */
#include "cli.h"

static const char help_encode[] =
    "Usage: wenc encode -t LABEL [--fatal] [--unmappable MODE] [FILE...]\n"
    "\n"
    "Encodes the UTF-8 text of the FILEs (or standard input) into the\n"
    "encoding LABEL names and writes the bytes to standard output. Ill-formed\n"
    "UTF-8 is read as U+FFFD. A code point the encoding cannot represent is\n"
    "written as an HTML character reference, &#N; with N in decimal. At the\n"
    "end a warning gives the count of each and where the first was.\n"
    "replacement, UTF-16BE and UTF-16LE have no encoder: UTF-8 is written,\n"
    "unless --utf16-output asks for the UTF-16 the Standard does not write.\n"
    "\n"
    "  -t, --to LABEL    the output's encoding (required)\n"
    "  --fatal           stop at the first ill-formed UTF-8 or code point the\n"
    "                    encoding cannot represent: report it and exit 1\n"
    "  --html            unmappable code points become &#N; (default)\n"
    "  --unmappable MODE what becomes of a code point the encoding cannot\n"
    "                    represent (an extension beyond the Standard):\n"
    "                    html      &#N; (default, the Standard's)\n"
    "                    fatal     stop: report it and exit 1\n"
    "                    subst     the byte of '?', or of C with subst=C\n"
    "                              (one ASCII character)\n"
    "                    skip      nothing\n"
    "  --utf16-output    with -t utf-16le or utf-16be: write that UTF-16\n"
    "                    (an extension beyond the Standard)\n"
    "  --utf16-bom       the same, starting with a byte order mark\n"
    "  -o, --output OUT  write to OUT (replaced only on success; an OUT that\n"
    "                    is also an input is not replaced by a lossy result)\n"
    "  --overwrite-lossy let -o replace an input with a lossy result\n"
    "  -q, --quiet       no warnings or notes (errors are still reported)\n"
    "  --progress        show progress on standard error if it is a terminal\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 when all was encoded, also when ill-formed input became\n"
    "U+FFFD or a code point was written as &#N;, substituted or skipped (a\n"
    "warning says so); 1 with --fatal or --unmappable=fatal at the first\n"
    "such input, when a FILE cannot be read (the others are still encoded),\n"
    "when -o refuses to replace an input with a lossy result, or on an I/O\n"
    "error; 2 a usage error.\n";

int cmd_encode(int argc, char **argv)
{
    return cmd_stream(argc, argv, 0, 1, help_encode);
}

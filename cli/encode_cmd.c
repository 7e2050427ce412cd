/* wenc encode: UTF-8 to bytes in an encoding. */
#include "cli.h"

static const char help_encode[] =
    "Usage: wenc encode -t LABEL [--fatal] [FILE...]\n"
    "\n"
    "Encodes the UTF-8 text of the FILEs (or standard input) into the\n"
    "encoding LABEL names and writes the bytes to standard output. Ill-formed\n"
    "UTF-8 is read as U+FFFD. A code point the encoding cannot represent is\n"
    "written as an HTML character reference, &#N; with N in decimal.\n"
    "replacement, UTF-16BE and UTF-16LE have no encoder: UTF-8 is written,\n"
    "unless --utf16-output asks for the UTF-16 the Standard does not write.\n"
    "\n"
    "  -t, --to LABEL    the output's encoding (required)\n"
    "  --fatal           stop at the first code point the encoding cannot\n"
    "                    represent: report it and exit 1\n"
    "  --html            unmappable code points become &#N; (default)\n"
    "  --utf16-output    with -t utf-16le or utf-16be: write that UTF-16\n"
    "                    (an extension beyond the Standard)\n"
    "  --utf16-bom       the same, starting with a byte order mark\n"
    "  -o, --output OUT  write to OUT (replaced only on success)\n"
    "  --progress        show progress on standard error if it is a terminal\n"
    "  -h, --help        show this help\n";

int cmd_encode(int argc, char **argv)
{
    return cmd_stream(argc, argv, 0, 1, help_encode);
}

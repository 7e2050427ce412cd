/* wenc convert (and wenc -f X -t Y): bytes in one encoding to bytes in
 * another. */
#include "cli.h"

static const char help_convert[] =
    "Usage: wenc convert [-f LABEL] -t LABEL [--fatal] [FILE...]\n"
    "       wenc -f LABEL -t LABEL [--fatal] [FILE...]\n"
    "\n"
    "Decodes the FILEs (or standard input) from the encoding -f names and\n"
    "encodes the text into the encoding -t names. Malformed input becomes\n"
    "U+FFFD; a code point the output encoding cannot represent becomes &#N;.\n"
    "replacement, UTF-16BE and UTF-16LE have no encoder: UTF-8 is written,\n"
    "unless --utf16-output asks for the UTF-16 the Standard does not write.\n"
    "\n"
    "  -f, --from LABEL  the input's encoding (default utf-8)\n"
    "  -t, --to LABEL    the output's encoding (required)\n"
    "  --fatal           stop at the first malformed input or unmappable\n"
    "                    code point: report it and exit 1\n"
    "  --replacement     malformed input becomes U+FFFD even with --fatal\n"
    "  --html            unmappable code points become &#N; even with --fatal\n"
    "  --utf16-output    with -t utf-16le or utf-16be: write that UTF-16\n"
    "                    (an extension beyond the Standard)\n"
    "  --utf16-bom       the same, starting with a byte order mark\n"
    "  --bom MODE        sniff (default), strip or keep, as in wenc decode\n"
    "  -o, --output OUT  write to OUT (replaced only on success)\n"
    "  --progress        show progress on standard error if it is a terminal\n"
    "  -h, --help        show this help\n";

int cmd_convert(int argc, char **argv)
{
    return cmd_stream(argc, argv, 1, 1, help_convert);
}

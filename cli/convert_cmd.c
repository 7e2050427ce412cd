/* wenc convert (and wenc -f X -t Y): bytes in one encoding to bytes in
 * another. */
#include "cli.h"

static const char help_convert[] =
    "Usage: wenc convert [-f LABEL] -t LABEL [--fatal] [--unmappable MODE] [FILE...]\n"
    "       wenc -f LABEL -t LABEL [--fatal] [FILE...]\n"
    "\n"
    "Decodes the FILEs (or standard input) from the encoding -f names and\n"
    "encodes the text into the encoding -t names. Malformed input becomes\n"
    "U+FFFD; a code point the output encoding cannot represent becomes &#N;.\n"
    "At the end a warning gives the count of each and where the first was.\n"
    "A UTF-16 -t writes UTF-16 (an extension), with a byte order mark for\n"
    "utf-16 and no byte order mark for utf-16le or utf-16be, as in wenc\n"
    "encode. replacement has no encoder: UTF-8 is written.\n"
    "\n"
    "  -f, --from LABEL  the input's encoding (default utf-8)\n"
    "  -t, --to LABEL    the output's encoding (required)\n"
    "  --fatal           stop at the first malformed input or unmappable\n"
    "                    code point: report it and exit 1\n"
    "  --replacement     malformed input becomes U+FFFD even with --fatal\n"
    "  --html            unmappable code points become &#N; even with --fatal\n"
    "  --unmappable MODE html (default), fatal, subst, subst=C or skip, as in\n"
    "                    wenc encode (an extension beyond the Standard)\n"
    "  --utf16-bom       with a UTF-16 -t: start with a byte order mark\n"
    "  --utf16-output    with a UTF-16 -t: write UTF-16 (the default)\n"
    "  --standard-output-encoding\n"
    "                    with a UTF-16 -t: write UTF-8, as the Standard's\n"
    "                    'get an output encoding' says\n"
    "  --bom MODE        sniff (default), strip or keep, as in wenc decode\n"
    "  -o, --output OUT  write to OUT (replaced only on success; an OUT that\n"
    "                    is also an input is not replaced by a lossy result)\n"
    "  --overwrite-lossy let -o replace an input with a lossy result\n"
    "  -q, --quiet       no warnings or notes (errors are still reported)\n"
    "  --progress        show progress on standard error if it is a terminal\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 when all was converted, also when malformed input became\n"
    "U+FFFD or a code point was written as &#N;, substituted or skipped (a\n"
    "warning says so); 1 at the first such input that --fatal or\n"
    "--unmappable=fatal makes fatal, when a FILE cannot be read (the others\n"
    "are still converted), when -o refuses to replace an input with a lossy\n"
    "result, or on an I/O error; 2 a usage error.\n";

int cmd_convert(int argc, char **argv)
{
    return cmd_stream(argc, argv, 1, 1, help_convert);
}

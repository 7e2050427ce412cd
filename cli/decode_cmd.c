/* wenc decode: bytes in an encoding to UTF-8. */
#include "cli.h"

static const char help_decode[] =
    "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE...]\n"
    "\n"
    "Decodes the FILEs (or standard input) from the encoding LABEL names and\n"
    "writes UTF-8 to standard output. Malformed input becomes U+FFFD.\n"
    "\n"
    "  -f, --from LABEL  the input's encoding (default utf-8)\n"
    "  --fatal           stop at the first malformed input: report it and\n"
    "                    exit 1 (what was decoded before it is written)\n"
    "  --replacement     malformed input becomes U+FFFD (default)\n"
    "  --bom MODE        sniff  a UTF-8, UTF-16BE or UTF-16LE byte order mark\n"
    "                           wins over LABEL and is removed (default; the\n"
    "                           Standard's 'decode')\n"
    "                    strip  only LABEL's own byte order mark is removed\n"
    "                    keep   a byte order mark is decoded as U+FEFF\n"
    "  -o, --output OUT  write to OUT (replaced only on success)\n"
    "  --progress        show progress on standard error if it is a terminal\n"
    "  -h, --help        show this help\n";

int cmd_decode(int argc, char **argv)
{
    return cmd_stream(argc, argv, 1, 0, help_decode);
}

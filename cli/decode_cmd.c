/* wenc decode: bytes in an encoding to UTF-8. */
#include "cli.h"

static const char help_decode[] =
    "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE...]\n"
    "       wenc decode --sniff-html [--label LABEL] [--default LABEL | --locale TAG]\n"
    "                   [--fatal] [--bom sniff|strip|keep] [FILE...]\n"
    "\n"
    "Decodes the FILEs (or standard input) from the encoding LABEL names and\n"
    "writes UTF-8 to standard output. Malformed input becomes U+FFFD; at the\n"
    "end a warning gives their count and where the first was.\n"
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
    "  --sniff-html      decode with the encoding the HTML Standard's encoding\n"
    "                    sniffing gives (an extension beyond the Encoding\n"
    "                    Standard; see 'wenc sniff --help'): a BOM, the\n"
    "                    --label, a <meta> or XML declaration in the first\n"
    "                    1024 bytes, or the default; not with -f\n"
    "  --label LABEL     with --sniff-html: the transport layer's label\n"
    "  --default LABEL   with --sniff-html: the encoding when nothing decides\n"
    "                    (default windows-1252)\n"
    "  --locale TAG      with --sniff-html: the HTML Standard's default for a\n"
    "                    language tag\n"
    "  -o, --output OUT  write to OUT (replaced only on success; an OUT that\n"
    "                    is also an input is not replaced by a lossy result)\n"
    "  --overwrite-lossy let -o replace an input with a lossy result\n"
    "  -q, --quiet       no warnings or notes (errors are still reported)\n"
    "  --progress        show progress on standard error if it is a terminal\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 when all was decoded, also when malformed input became\n"
    "U+FFFD (a warning says so); 1 at malformed input with --fatal, when a\n"
    "FILE cannot be read (the others are still decoded), when -o refuses to\n"
    "replace an input with a lossy result, or on an I/O error; 2 a usage\n"
    "error.\n";

int cmd_decode(int argc, char **argv)
{
    return cmd_stream(argc, argv, 1, 0, help_decode);
}

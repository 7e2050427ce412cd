/* wenc label: the name of the encoding a label selects. */
#include "cli.h"

#include <string.h>

static const char help_label[] =
    "Usage: wenc label LABEL\n"
    "\n"
    "Prints the name of the encoding LABEL selects (surrounding ASCII\n"
    "whitespace is ignored, ASCII letters match in either case). An unknown\n"
    "label is reported with the closest known labels, and wenc exits 1.\n"
    "\n"
    "  -h, --help  show this help\n";

int cmd_label(int argc, char **argv)
{
    const char *label = NULL;
    int options_done = 0;
    wenc_id id;
    int i;

    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && is_option(arg)) {
            if (strcmp(arg, "--") == 0) {
                options_done = 1;
                continue;
            }
            if (is_help(arg))
                return print_text(help_label);
            return usage_error("unknown option", arg);
        }
        if (label != NULL)
            return usage_error("extra operand", arg);
        label = arg;
    }
    if (label == NULL)
        return usage_error("label needs a LABEL", NULL);

    id = lookup(label);
    if (id == WENC_INVALID) {
        report_unknown_label(label);
        return STATUS_FAIL;
    }
    {
        message m = { .len = 0 };
        msg_add(&m, "%s\n", wenc_name(id));
        return print_text(m.text);
    }
}

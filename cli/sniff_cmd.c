/* wenc sniff: the encoding the byte order mark of each file selects. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static const char help_sniff[] =
    "Usage: wenc sniff FILE...\n"
    "\n"
    "Prints, for each FILE, its name, a TAB and the encoding its byte order\n"
    "mark selects (the Standard's BOM sniff of the first 3 bytes): UTF-8,\n"
    "UTF-16BE, UTF-16LE or none. FILE '-' reads standard input. A FILE that\n"
    "cannot be read is reported, the others are still sniffed, and wenc\n"
    "exits 1.\n"
    "\n"
    "  -h, --help  show this help\n";

/* BOM sniff (§6.1) of one file: reads up to 3 bytes. Returns 0 or errno. */
static int sniff_one(const char *path, const char **answer)
{
    uint8_t head[3];
    size_t have = 0;
    int fd = STDIN_FILENO;
    int err = 0;
    wenc_id id;

    if (strcmp(path, "-") != 0) {
        do
            fd = open(path, O_RDONLY);
        while (fd < 0 && errno == EINTR);
        if (fd < 0)
            return errno;
    }
    while (have < sizeof head) {
        ssize_t n = read(fd, head + have, sizeof head - have);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            break;
        }
        if (n == 0)
            break;
        have += (size_t)n;
    }
    if (fd != STDIN_FILENO)
        close(fd);
    if (err)
        return err;
    id = wenc_bom_sniff(head, have, NULL);
    *answer = id == WENC_INVALID ? "none" : wenc_name(id);
    return 0;
}

int cmd_sniff(int argc, char **argv)
{
    int options_done = 0, nfiles = 0, status = STATUS_OK;
    int i;

    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && is_option(arg)) {
            if (strcmp(arg, "--") == 0) {
                options_done = 1;
                continue;
            }
            if (is_help(arg))
                return print_text(help_sniff);
            return usage_error("unknown option", arg);
        }
        argv[nfiles++] = argv[i];
    }
    if (nfiles == 0)
        return usage_error("sniff needs a FILE", NULL);
    for (i = 0; i < nfiles; i++) {
        const char *answer = NULL;
        int err = sniff_one(argv[i], &answer);
        if (err) {
            io_error(strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i], err);
            status = STATUS_FAIL;
        } else {
            message m = { .len = 0 };
            int r;
            msg_add(&m, "%s\t%s\n", argv[i], answer);
            r = print_text(m.text);
            if (r != STATUS_OK)
                return r;
        }
    }
    return status;
}

/* wenc labels: every label with the name of its encoding, as text or JSON. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char help_labels[] =
    "Usage: wenc labels [--json | --by-encoding]\n"
    "\n"
    "Lists the Standard's 228 labels in its order: a label, a TAB and the\n"
    "name of its encoding on each line.\n"
    "\n"
    "  --json         print a JSON array instead, one object per label:\n"
    "                 {\"label\": \"latin1\", \"encoding\": \"windows-1252\"}\n"
    "  --by-encoding  one line per encoding, in the Standard's order: its\n"
    "                 name, a TAB and its labels separated by spaces (what\n"
    "                 'wenc -l' prints, as 'iconv -l' lists its encodings)\n"
    "  -h, --help     show this help\n";

/* Rejects any argument to a subcommand that takes none but --help.
 * Returns -1 to go on, or an exit status. */
static int no_operands(int argc, char **argv, const char *help)
{
    int i;
    for (i = 0; i < argc; i++) {
        if (is_help(argv[i]))
            return print_text(help);
        if (is_option(argv[i]))
            return usage_error("unknown option", argv[i]);
        return usage_error("extra operand", argv[i]);
    }
    return -1;
}

/* Appends s to buf (8192 bytes), flushing to stdout when full. */
static int buf_add(char *buf, size_t *used, const char *s)
{
    size_t len = strlen(s);
    if (len > 8192 - *used) {
        int err = write_all(STDOUT_FILENO, (const uint8_t *)buf, *used);
        if (err)
            return stdout_failed(err);
        *used = 0;
        if (len > 8192)
            return STATUS_OK; /* cannot happen: labels are short */
    }
    memcpy(buf + *used, s, len);
    *used += len;
    return STATUS_OK;
}

/* A JSON string for s (labels and names are printable ASCII). */
static void json_string(char *dst, size_t cap, const char *s)
{
    size_t n = 0;
    dst[n++] = '"';
    for (; *s != '\0' && n + 8 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            dst[n++] = '\\';
            dst[n++] = (char)c;
        } else if (c < 0x20) {
            n += (size_t)snprintf(dst + n, cap - n, "\\u%04x", (unsigned)c);
        } else {
            dst[n++] = (char)c;
        }
    }
    dst[n++] = '"';
    dst[n] = '\0';
}

/* One line per encoding: its name, a TAB and its labels. */
static int list_by_encoding(char *buf, size_t *used)
{
    size_t index, count = wenc_label_count();
    int id;

    for (id = 0; id < WENC_ENCODING_COUNT; id++) {
        message line = { .len = 0 };
        int r;
        const char *separator = "\t";
        msg_add(&line, "%s", wenc_name((wenc_id)id));
        for (index = 0; index < count; index++) {
            wenc_id of = WENC_INVALID;
            const char *label = wenc_label_at(index, &of);
            if (label != NULL && of == (wenc_id)id) {
                msg_add(&line, "%s%s", separator, label);
                separator = " ";
            }
        }
        msg_add(&line, "\n");
        if ((r = buf_add(buf, used, line.text)) != STATUS_OK)
            return r;
    }
    return STATUS_OK;
}

int cmd_labels(int argc, char **argv)
{
    char buf[8192];
    size_t used = 0;
    size_t index, count = wenc_label_count();
    int json = 0, by_encoding = 0;
    int r, i;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
            continue;
        }
        if (strcmp(argv[i], "--by-encoding") == 0) {
            by_encoding = 1;
            continue;
        }
        r = no_operands(argc - i, argv + i, help_labels);
        if (r >= 0)
            return r;
    }
    if (json && by_encoding)
        return usage_error("--json and --by-encoding exclude each other", NULL);
    if (by_encoding) {
        if ((r = list_by_encoding(buf, &used)) != STATUS_OK)
            return r;
        r = write_all(STDOUT_FILENO, (const uint8_t *)buf, used);
        return r ? stdout_failed(r) : STATUS_OK;
    }
    if (json && (r = buf_add(buf, &used, "[\n")) != STATUS_OK)
        return r;
    for (index = 0; index < count; index++) {
        wenc_id id = WENC_INVALID;
        const char *label = wenc_label_at(index, &id);
        const char *name = wenc_name(id);
        char line[256];

        if (label == NULL || name == NULL)
            break;
        if (json) {
            char l[100], e[100];
            json_string(l, sizeof l, label);
            json_string(e, sizeof e, name);
            snprintf(line, sizeof line, "  {\"label\": %s, \"encoding\": %s}%s\n",
                     l, e, index + 1 < count ? "," : "");
        } else {
            snprintf(line, sizeof line, "%s\t%s\n", label, name);
        }
        if ((r = buf_add(buf, &used, line)) != STATUS_OK)
            return r;
    }
    if (json && (r = buf_add(buf, &used, "]\n")) != STATUS_OK)
        return r;
    r = write_all(STDOUT_FILENO, (const uint8_t *)buf, used);
    return r ? stdout_failed(r) : STATUS_OK;
}

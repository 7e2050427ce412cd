/* Messages to standard error: assembled, then written with one call. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void msg_add(message *m, const char *fmt, ...)
{
    size_t room = sizeof m->text - m->len;
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(m->text + m->len, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    m->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Adds user text, showing bytes outside printable ASCII as \xHH. */
void msg_add_quoted(message *m, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t shown = 0;

    msg_add(m, "'");
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (++shown > 200) {
            msg_add(m, "...");
            break;
        }
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            char one[2] = { (char)c, '\0' };
            msg_add(m, "%s", one);
        } else {
            char esc[5] = { '\\', 'x', hex[c >> 4], hex[c & 15], '\0' };
            msg_add(m, "%s", esc);
        }
    }
    msg_add(m, "'");
}

void msg_emit(message *m)
{
    if (m->len == sizeof m->text - 1)
        m->text[m->len - 1] = '\n'; /* a cut message still ends its line */
    fputs(m->text, stderr);
}

/* "wenc: <what> '<arg>'" plus the hint line; returns STATUS_USAGE. */
int usage_error(const char *what, const char *arg)
{
    message m = { .len = 0 };
    msg_add(&m, "wenc: %s", what);
    if (arg != NULL) {
        msg_add(&m, " ");
        msg_add_quoted(&m, arg);
    }
    msg_add(&m, "\nTry 'wenc --help'.\n");
    msg_emit(&m);
    return STATUS_USAGE;
}

/* "wenc: NAME: <strerror>"; returns STATUS_FAIL. */
int io_error(const char *name, int err)
{
    message m = { .len = 0 };
    msg_add(&m, "wenc: %s: %s\n", name, strerror(err));
    msg_emit(&m);
    return STATUS_FAIL;
}

/* An encoding the library cannot decode or encode (verb): in this tool that
 * is one left out of the build. Returns STATUS_FAIL. */
int cannot_convert(const char *verb, wenc_id id)
{
    if (!wenc_is_built_in(id))
        fprintf(stderr, "wenc: encoding '%s' is not built into this libwenc "
                        "(configured with -DWENC_CJK=OFF)\n", wenc_name(id));
    else
        fprintf(stderr, "wenc: cannot %s %s\n", verb, wenc_name(id));
    return STATUS_FAIL;
}

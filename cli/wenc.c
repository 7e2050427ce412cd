/*
 * wenc — the command-line tool of libwenc (the WHATWG Encoding Standard).
 *
 *   wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE]
 *   wenc encode -t LABEL [--fatal] [FILE]
 *   wenc labels
 *   wenc label LABEL
 *
 * Only the public header is used. Input is streamed through one fixed-size
 * read buffer and one output buffer, both allocated once, so memory does not
 * grow with the input. Output goes straight to file descriptor 1 with
 * write(2); nothing on standard output is buffered by stdio.
 *
 * Exit status: 0 success; 1 malformed or unmappable input (--fatal), an
 * unknown label given to `wenc label`, an I/O error or a closed standard
 * output; 2 a usage error (including an unknown label in -f/-t).
 */
#define _POSIX_C_SOURCE 200809L

#include "wenc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { STATUS_OK = 0, STATUS_FAIL = 1, STATUS_USAGE = 2 };

/* Bytes asked of read(2) at a time. */
#define READ_SIZE ((size_t)64 * 1024)

/* How many close labels an unknown-label message proposes at most. */
#define MAX_SUGGESTIONS 3

/* ------------------------------------------------------------------------ */
/* Help texts                                                                */
/* ------------------------------------------------------------------------ */

static const char synopsis[] =
    "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE]\n"
    "       wenc encode -t LABEL [--fatal] [FILE]\n"
    "       wenc labels\n"
    "       wenc label LABEL\n";

static const char help_main[] =
    "\n"
    "Converts text between UTF-8 and the encodings of the WHATWG Encoding\n"
    "Standard, byte for byte as a web browser does.\n"
    "\n"
    "Subcommands:\n"
    "  decode   bytes in an encoding to UTF-8 on standard output\n"
    "  encode   UTF-8 to bytes in an encoding on standard output\n"
    "  labels   list every label with the name of its encoding\n"
    "  label    print the name of the encoding a label selects\n"
    "\n"
    "Options:\n"
    "  -h, --help   show this help (or a subcommand's: wenc decode --help)\n"
    "  --version    show the version\n"
    "\n"
    "FILE '-' or no FILE reads standard input.\n"
    "Exit status: 0 success; 1 malformed or unmappable input with --fatal,\n"
    "an unknown label (wenc label), or an I/O error; 2 a usage error.\n";

static const char help_decode[] =
    "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE]\n"
    "\n"
    "Decodes FILE (or standard input) from the encoding LABEL names and\n"
    "writes UTF-8 to standard output. Malformed input becomes U+FFFD.\n"
    "\n"
    "  -f, --from LABEL  the input's encoding (default utf-8)\n"
    "  --fatal           stop at the first malformed input: report it and\n"
    "                    exit 1 (what was decoded before it is written)\n"
    "  --bom MODE        sniff  a UTF-8, UTF-16BE or UTF-16LE byte order mark\n"
    "                           wins over LABEL and is removed (default; the\n"
    "                           Standard's 'decode')\n"
    "                    strip  only LABEL's own byte order mark is removed\n"
    "                    keep   a byte order mark is decoded as U+FEFF\n"
    "  -h, --help        show this help\n";

static const char help_encode[] =
    "Usage: wenc encode -t LABEL [--fatal] [FILE]\n"
    "\n"
    "Encodes the UTF-8 text of FILE (or standard input) into the encoding\n"
    "LABEL names and writes the bytes to standard output. Ill-formed UTF-8\n"
    "is read as U+FFFD. A code point the encoding cannot represent is\n"
    "written as an HTML character reference, &#N; with N in decimal.\n"
    "replacement, UTF-16BE and UTF-16LE have no encoder: UTF-8 is written.\n"
    "\n"
    "  -t, --to LABEL  the output's encoding (required)\n"
    "  --fatal         stop at the first code point the encoding cannot\n"
    "                  represent: report it and exit 1\n"
    "  -h, --help      show this help\n";

static const char help_labels[] =
    "Usage: wenc labels\n"
    "\n"
    "Lists the Standard's 228 labels in its order: a label, a TAB and the\n"
    "name of its encoding on each line.\n"
    "\n"
    "  -h, --help  show this help\n";

static const char help_label[] =
    "Usage: wenc label LABEL\n"
    "\n"
    "Prints the name of the encoding LABEL selects (surrounding ASCII\n"
    "whitespace is ignored, ASCII letters match in either case). An unknown\n"
    "label is reported with the closest known labels, and wenc exits 1.\n"
    "\n"
    "  -h, --help  show this help\n";

/* ------------------------------------------------------------------------ */
/* Messages                                                                  */
/* ------------------------------------------------------------------------ */

/*
 * A message is assembled here and written to stderr with one call, so that
 * a line is not torn by other writers. Overlong messages are cut.
 */
typedef struct message {
    char text[1024];
    size_t len;
} message;

static void msg_add(message *m, const char *fmt, ...)
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
static void msg_add_quoted(message *m, const char *s)
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

static void msg_emit(message *m)
{
    if (m->len == sizeof m->text - 1)
        m->text[m->len - 1] = '\n'; /* a cut message still ends its line */
    fputs(m->text, stderr);
}

/* "wenc: <what> '<arg>'" plus the hint line; returns STATUS_USAGE. */
static int usage_error(const char *what, const char *arg)
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
static int io_error(const char *name, int err)
{
    message m = { .len = 0 };
    msg_add(&m, "wenc: %s: %s\n", name, strerror(err));
    msg_emit(&m);
    return STATUS_FAIL;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

/* Writes all of buf to fd, across partial writes and EINTR. Returns 0 or an
 * errno value. */
static int write_all(int fd, const uint8_t *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Turns a failed write to standard output into an exit status: a closed
 * pipe ends quietly, anything else is reported. */
static int stdout_failed(int err)
{
    if (err == EPIPE)
        return STATUS_FAIL;
    return io_error("<stdout>", err);
}

static int print_text(const char *s)
{
    int err = write_all(STDOUT_FILENO, (const uint8_t *)s, strlen(s));
    return err ? stdout_failed(err) : STATUS_OK;
}

/* ------------------------------------------------------------------------ */
/* Labels and suggestions                                                    */
/* ------------------------------------------------------------------------ */

static char ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* The Standard's ASCII whitespace: TAB, LF, FF, CR, SPACE. */
static int ascii_space(char c)
{
    return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ';
}

/*
 * Levenshtein distance between a (compared in ASCII lower case) and the
 * label b (already lower case), or `limit + 1` as soon as it is known to
 * exceed limit. b must be shorter than 64 bytes.
 */
static size_t label_distance(const char *a, size_t alen, const char *b,
                             size_t blen, size_t limit)
{
    size_t row[64];
    size_t i, j;

    if (blen >= sizeof row / sizeof row[0])
        return limit + 1;
    if ((alen > blen ? alen - blen : blen - alen) > limit)
        return limit + 1;
    for (j = 0; j <= blen; j++)
        row[j] = j;
    for (i = 1; i <= alen; i++) {
        size_t diagonal = row[0];
        size_t row_min;
        row[0] = i;
        row_min = row[0];
        for (j = 1; j <= blen; j++) {
            size_t above = row[j];
            size_t best = diagonal + (ascii_lower(a[i - 1]) != b[j - 1]);
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (above + 1 < best)
                best = above + 1;
            row[j] = best;
            diagonal = above;
            if (best < row_min)
                row_min = best;
        }
        if (row_min > limit)
            return limit + 1;
    }
    return row[blen];
}

/*
 * Prints "wenc: unknown label 'X'" and, when some labels are close to X (by
 * edit distance over ASCII lower case, after trimming ASCII whitespace as
 * get an encoding does), "; did you mean: a, b, c?". Closer labels come
 * first; ties keep the Standard's order.
 */
static void report_unknown_label(const char *label)
{
    const char *best[MAX_SUGGESTIONS];
    size_t best_distance[MAX_SUGGESTIONS];
    size_t found = 0;
    size_t start = 0, end = strlen(label);
    size_t limit, index, k;
    message m = { .len = 0 };

    while (start < end && ascii_space(label[start]))
        start++;
    while (end > start && ascii_space(label[end - 1]))
        end--;

    /* How far is "close": one edit for short labels, up to three. */
    limit = (end - start) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;

    for (index = 0; index < wenc_label_count(); index++) {
        const char *candidate = wenc_label_at(index, NULL);
        size_t d;
        if (candidate == NULL)
            break;
        d = label_distance(label + start, end - start, candidate,
                           strlen(candidate), limit);
        if (d > limit)
            continue;
        /* Insert after every entry at least as close (stable by order). */
        k = found;
        while (k > 0 && best_distance[k - 1] > d)
            k--;
        if (k >= MAX_SUGGESTIONS)
            continue;
        if (found < MAX_SUGGESTIONS)
            found++;
        memmove(&best[k + 1], &best[k], (found - 1 - k) * sizeof best[0]);
        memmove(&best_distance[k + 1], &best_distance[k],
                (found - 1 - k) * sizeof best_distance[0]);
        best[k] = candidate;
        best_distance[k] = d;
    }

    msg_add(&m, "wenc: unknown label ");
    msg_add_quoted(&m, label);
    for (k = 0; k < found; k++)
        msg_add(&m, "%s%s", k == 0 ? "; did you mean: " : ", ", best[k]);
    msg_add(&m, "%s\n", found > 0 ? "?" : "");
    msg_emit(&m);
}

/* get an encoding (§4.2) for a NUL-terminated argument. */
static wenc_id lookup(const char *label)
{
    return wenc_lookup(label, strlen(label));
}

/* ------------------------------------------------------------------------ */
/* Streaming conversion                                                      */
/* ------------------------------------------------------------------------ */

typedef struct conversion {
    const char *name;   /* the input's name in messages */
    int fd;
    int decoding;       /* 1: dec is used; 0: enc is used */
    wenc_decoder dec;
    wenc_encoder enc;
    uint8_t *in;        /* READ_SIZE bytes */
    uint8_t *out;
    size_t out_cap;
} conversion;

/* Reports the WENC_ERROR the converter just returned; returns STATUS_FAIL. */
static int report_bad_input(const conversion *c)
{
    message m = { .len = 0 };

    if (c->decoding) {
        wenc_decode_error err;
        size_t i;
        wenc_decoder_error(&c->dec, &err);
        msg_add(&m, "wenc: %s: malformed %s input at byte %" PRIu64 " (",
                c->name, wenc_name(wenc_decoder_encoding(&c->dec)),
                err.offset);
        for (i = 0; i < err.length && i < WENC_MAX_MALFORMED; i++)
            msg_add(&m, "%s0x%02X", i ? " " : "", (unsigned)err.bytes[i]);
        msg_add(&m, ")\n");
    } else {
        wenc_encode_error err;
        wenc_encoder_error(&c->enc, &err);
        msg_add(&m,
                "wenc: %s: U+%04" PRIX32
                " cannot be encoded in %s at input byte %" PRIu64 "\n",
                c->name, err.code_point,
                wenc_name(wenc_encoder_encoding(&c->enc)), err.offset);
    }
    msg_emit(&m);
    return STATUS_FAIL;
}

/*
 * Feeds src[0..len) (last: the end of the stream) through the converter,
 * writing every piece of output as soon as it is made, so that output that
 * precedes an error is on standard output before the error is reported.
 */
static int pump(conversion *c, const uint8_t *src, size_t len, bool last)
{
    for (;;) {
        size_t used = len;
        size_t made = c->out_cap;
        wenc_status st;
        int err;

        if (c->decoding)
            st = wenc_decode_to_utf8(&c->dec, src, &used, c->out, &made, last);
        else
            st = wenc_encode_from_utf8(&c->enc, src, &used, c->out, &made,
                                       last);
        if (made > 0 && (err = write_all(STDOUT_FILENO, c->out, made)) != 0)
            return stdout_failed(err);
        if (used > 0) { /* src may be NULL with len 0 */
            src += used;
            len -= used;
        }
        if (st == WENC_ERROR)
            return report_bad_input(c);
        if (st == WENC_INPUT_EMPTY)
            return STATUS_OK;
        if (used == 0 && made == 0) {
            /* WENC_OUTPUT_FULL without progress breaks the library's
             * promise; stop rather than spin. */
            fputs("wenc: internal error: conversion made no progress\n",
                  stderr);
            return STATUS_FAIL;
        }
    }
}

/* Reads the whole input in READ_SIZE pieces and converts it. */
static int run_conversion(conversion *c, const char *path)
{
    size_t cap;
    int status;

    if (path == NULL || strcmp(path, "-") == 0) {
        c->name = "<stdin>";
        c->fd = STDIN_FILENO;
    } else {
        c->name = path;
        do
            c->fd = open(path, O_RDONLY);
        while (c->fd < 0 && errno == EINTR);
        if (c->fd < 0)
            return io_error(path, errno);
    }

    cap = c->decoding ? wenc_decoder_max_utf8_len(&c->dec, READ_SIZE)
                      : wenc_encoder_max_len(&c->enc, READ_SIZE);
    if (cap == SIZE_MAX || cap < 16)
        cap = 16 * READ_SIZE; /* pump() copes with any size >= 4 anyway */
    c->out_cap = cap;
    c->in = malloc(READ_SIZE);
    c->out = malloc(cap);

    if (c->in == NULL || c->out == NULL) {
        status = io_error(c->name, ENOMEM);
    } else {
        for (;;) {
            ssize_t n = read(c->fd, c->in, READ_SIZE);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                status = io_error(c->name, errno);
                break;
            }
            if (n == 0) {
                status = pump(c, c->in, 0, true);
                break;
            }
            status = pump(c, c->in, (size_t)n, false);
            if (status != STATUS_OK)
                break;
        }
    }

    free(c->in);
    free(c->out);
    if (c->fd != STDIN_FILENO)
        close(c->fd);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Argument parsing                                                          */
/* ------------------------------------------------------------------------ */

/*
 * Matches argv[*i] against an option that takes a value: "-x VALUE",
 * "-xVALUE", "--long VALUE" or "--long=VALUE". Returns 1 and sets *value on
 * a match, 0 when the argument is another option, and -1 (after reporting
 * the usage error) when the value is missing.
 */
static int option_value(int argc, char **argv, int *i, char short_name,
                        const char *long_name, const char **value)
{
    const char *arg = argv[*i];
    size_t long_len = strlen(long_name);

    if (short_name != '\0' && arg[0] == '-' && arg[1] == short_name) {
        if (arg[2] != '\0') {
            *value = arg + 2;
            return 1;
        }
    } else if (strncmp(arg, long_name, long_len) == 0) {
        if (arg[long_len] == '=') {
            *value = arg + long_len + 1;
            return 1;
        }
        if (arg[long_len] != '\0')
            return 0;
    } else {
        return 0;
    }
    if (*i + 1 >= argc) {
        message m = { .len = 0 };
        msg_add(&m, "wenc: option ");
        msg_add_quoted(&m, arg);
        msg_add(&m, " needs a value\nTry 'wenc --help'.\n");
        msg_emit(&m);
        return -1;
    }
    *i += 1;
    *value = argv[*i];
    return 1;
}

static int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* An argument that is an option (not "-" alone, which names stdin). */
static int is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0';
}

static int cmd_decode(int argc, char **argv)
{
    const char *label = "utf-8";
    const char *path = NULL;
    wenc_bom_mode bom = WENC_BOM_SNIFF;
    wenc_error_mode mode = WENC_ERRORS_REPLACEMENT;
    int options_done = 0;
    conversion c;
    wenc_id id;
    int i;

    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        int r;

        if (options_done || !is_option(arg)) {
            if (path != NULL)
                return usage_error("extra operand", arg);
            path = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (is_help(arg))
            return print_text(help_decode);
        if (strcmp(arg, "--fatal") == 0) {
            mode = WENC_ERRORS_FATAL;
            continue;
        }
        if ((r = option_value(argc, argv, &i, 'f', "--from", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            label = value;
            continue;
        }
        if ((r = option_value(argc, argv, &i, '\0', "--bom", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            if (strcmp(value, "sniff") == 0)
                bom = WENC_BOM_SNIFF;
            else if (strcmp(value, "strip") == 0)
                bom = WENC_BOM_STRIP;
            else if (strcmp(value, "keep") == 0)
                bom = WENC_BOM_KEEP;
            else
                return usage_error(
                    "--bom takes sniff, strip or keep, not", value);
            continue;
        }
        return usage_error("unknown option", arg);
    }

    id = lookup(label);
    if (id == WENC_INVALID) {
        report_unknown_label(label);
        return STATUS_USAGE;
    }
    memset(&c, 0, sizeof c);
    c.decoding = 1;
    if (!wenc_decoder_init(&c.dec, id, bom, mode)) {
        fprintf(stderr, "wenc: cannot decode %s\n", wenc_name(id));
        return STATUS_FAIL;
    }
    return run_conversion(&c, path);
}

static int cmd_encode(int argc, char **argv)
{
    const char *label = NULL;
    const char *path = NULL;
    wenc_error_mode mode = WENC_ERRORS_HTML;
    int options_done = 0;
    conversion c;
    wenc_id id;
    int i;

    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        int r;

        if (options_done || !is_option(arg)) {
            if (path != NULL)
                return usage_error("extra operand", arg);
            path = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (is_help(arg))
            return print_text(help_encode);
        if (strcmp(arg, "--fatal") == 0) {
            mode = WENC_ERRORS_FATAL;
            continue;
        }
        if ((r = option_value(argc, argv, &i, 't', "--to", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            label = value;
            continue;
        }
        return usage_error("unknown option", arg);
    }

    if (label == NULL)
        return usage_error("encode needs -t LABEL", NULL);
    id = lookup(label);
    if (id == WENC_INVALID) {
        report_unknown_label(label);
        return STATUS_USAGE;
    }
    memset(&c, 0, sizeof c);
    c.decoding = 0;
    if (!wenc_encoder_init(&c.enc, id, mode)) {
        fprintf(stderr, "wenc: cannot encode %s\n", wenc_name(id));
        return STATUS_FAIL;
    }
    /* get an output encoding (§4.3): no encoder, so UTF-8 is written. */
    if (wenc_encoder_encoding(&c.enc) != id)
        fprintf(stderr, "wenc: note: %s has no encoder; writing %s\n",
                wenc_name(id), wenc_name(wenc_encoder_encoding(&c.enc)));
    return run_conversion(&c, path);
}

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

static int cmd_labels(int argc, char **argv)
{
    char buf[8192];
    size_t used = 0;
    size_t index;
    int r = no_operands(argc, argv, help_labels);

    if (r >= 0)
        return r;
    for (index = 0; index < wenc_label_count(); index++) {
        wenc_id id = WENC_INVALID;
        const char *label = wenc_label_at(index, &id);
        const char *name = wenc_name(id);
        size_t need;

        if (label == NULL || name == NULL)
            break;
        need = strlen(label) + strlen(name) + 2;
        if (need > sizeof buf - used) {
            int err = write_all(STDOUT_FILENO, (const uint8_t *)buf, used);
            if (err)
                return stdout_failed(err);
            used = 0;
            if (need > sizeof buf)
                continue; /* cannot happen: labels are short */
        }
        memcpy(buf + used, label, strlen(label));
        used += strlen(label);
        buf[used++] = '\t';
        memcpy(buf + used, name, strlen(name));
        used += strlen(name);
        buf[used++] = '\n';
    }
    r = write_all(STDOUT_FILENO, (const uint8_t *)buf, used);
    return r ? stdout_failed(r) : STATUS_OK;
}

static int cmd_label(int argc, char **argv)
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

int main(int argc, char **argv)
{
    const char *cmd;

    /* A closed stdout shows up as EPIPE from write(2), handled there. */
    signal(SIGPIPE, SIG_IGN);

    if (argc < 2) {
        fputs(synopsis, stderr);
        fputs("Try 'wenc --help'.\n", stderr);
        return STATUS_USAGE;
    }
    cmd = argv[1];

    if (is_help(cmd) || strcmp(cmd, "--version") == 0) {
        if (argc > 2)
            return usage_error(is_option(argv[2]) ? "unknown option"
                                                  : "extra operand",
                               argv[2]);
        if (is_help(cmd)) {
            int r = print_text(synopsis);
            return r ? r : print_text(help_main);
        } else {
            message m = { .len = 0 };
            msg_add(&m, "wenc %s\n", wenc_version());
            return print_text(m.text);
        }
    }
    if (strcmp(cmd, "decode") == 0)
        return cmd_decode(argc - 2, argv + 2);
    if (strcmp(cmd, "encode") == 0)
        return cmd_encode(argc - 2, argv + 2);
    if (strcmp(cmd, "labels") == 0)
        return cmd_labels(argc - 2, argv + 2);
    if (strcmp(cmd, "label") == 0)
        return cmd_label(argc - 2, argv + 2);
    if (is_option(cmd))
        return usage_error("unknown option", cmd);
    return usage_error("unknown subcommand", cmd);
}

/*
 * wenc — the command-line tool of libwenc (the WHATWG Encoding Standard):
 * an iconv for Web content.
 *
 *   wenc decode  [-f LABEL] [--fatal|--replacement] [--bom MODE] [-o OUT] [FILE...]
 *   wenc encode  -t LABEL [--fatal|--html] [--utf16-output|--utf16-bom]
 *                [-o OUT] [FILE...]
 *   wenc convert [-f LABEL] -t LABEL [--fatal] [--replacement] [--html]
 *                [--utf16-output|--utf16-bom] [--bom MODE] [-o OUT] [FILE...]
 *   wenc -f LABEL -t LABEL [...] [FILE...]      (convert, iconv style)
 *   wenc sniff FILE...
 *   wenc labels [--json]
 *   wenc label LABEL
 *
 * Only the public header is used. Input is streamed through fixed-size
 * buffers allocated once (read buffer → decoder → UTF-8 buffer → encoder →
 * output buffer), so memory does not grow with the input. Output goes
 * straight to a file descriptor with write(2); nothing on standard output is
 * buffered by stdio. Several FILEs are one stream, as with cat.
 *
 * Exit status: 0 success; 1 malformed or unmappable input (fatal mode), an
 * unknown label given to `wenc label`, an unreadable file, an I/O error or a
 * closed standard output; 2 a usage error (including an unknown label in
 * -f/-t).
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
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

enum { STATUS_OK = 0, STATUS_FAIL = 1, STATUS_USAGE = 2 };

/* Bytes asked of read(2) at a time. */
#define READ_SIZE ((size_t)64 * 1024)

/* Input bytes convert keeps behind the decoder to place encoder errors: more
 * than any sequence a decoder holds back. */
#define TAIL ((size_t)16)

/* How many close labels an unknown-label message proposes at most. */
#define MAX_SUGGESTIONS 3

/* ------------------------------------------------------------------------ */
/* Help texts                                                                */
/* ------------------------------------------------------------------------ */

static const char synopsis[] =
    "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE...]\n"
    "       wenc encode -t LABEL [--fatal] [FILE...]\n"
    "       wenc convert [-f LABEL] -t LABEL [--fatal] [FILE...]\n"
    "       wenc -f LABEL -t LABEL [FILE...]\n"
    "       wenc sniff FILE...\n"
    "       wenc labels [--json]\n"
    "       wenc label LABEL\n";

static const char help_main[] =
    "\n"
    "Converts text between the encodings of the WHATWG Encoding Standard,\n"
    "byte for byte as a web browser does.\n"
    "\n"
    "Subcommands:\n"
    "  decode   bytes in an encoding to UTF-8\n"
    "  encode   UTF-8 to bytes in an encoding\n"
    "  convert  bytes in one encoding to bytes in another (decode, then\n"
    "           encode); 'wenc -f X -t Y' is short for 'wenc convert -f X -t Y'\n"
    "  sniff    the byte order mark of each FILE: UTF-8, UTF-16BE, UTF-16LE\n"
    "           or none\n"
    "  labels   list every label with the name of its encoding\n"
    "  label    print the name of the encoding a label selects\n"
    "\n"
    "Options:\n"
    "  -h, --help   show this help (or a subcommand's: wenc decode --help)\n"
    "  --version    show the version\n"
    "\n"
    "Several FILEs are read as one stream, like cat; FILE '-' or no FILE\n"
    "reads standard input. -o OUT writes OUT only when all went well.\n"
    "Exit status: 0 success; 1 malformed or unmappable input with --fatal,\n"
    "an unknown label (wenc label), an unreadable file or an I/O error;\n"
    "2 a usage error.\n";

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

static const char help_labels[] =
    "Usage: wenc labels [--json]\n"
    "\n"
    "Lists the Standard's 228 labels in its order: a label, a TAB and the\n"
    "name of its encoding on each line.\n"
    "\n"
    "  --json      print a JSON array instead, one object per label:\n"
    "              {\"label\": \"latin1\", \"encoding\": \"windows-1252\"}\n"
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
    if (c >= 'A' && c <= 'Z')
        return (char)(c - 'A' + 'a');
    return c;
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

/* One input of the stream. */
typedef struct input_file {
    const char *name;   /* in messages: the path, or <stdin> */
    const char *path;   /* NULL for standard input */
    uint64_t start;     /* stream offset of its first byte */
    uint64_t end;       /* one past its last byte read so far */
} input_file;

typedef struct job {
    int decoding;       /* the decoder runs */
    int encoding;       /* the encoder runs (both: convert) */
    wenc_decoder dec;
    wenc_encoder enc;
    input_file *files;
    int nfiles;
    int current;        /* index of the file being read */
    uint64_t in_total;  /* input bytes read so far */
    uint64_t mid_total; /* UTF-8 bytes given to the encoder (convert) */
    /* To find the input byte of an encoder error in convert: a copy of the
     * decoder a few bytes back (snap), where it stands in the input and in
     * the UTF-8 stream, and the bytes fed since: tail, then cur. */
    wenc_decoder snap;
    uint64_t snap_in;
    uint64_t snap_mid;
    uint8_t tail[2 * TAIL];
    size_t tail_len;
    const uint8_t *cur;
    size_t cur_len;
    /* Buffers. */
    uint8_t *in;
    uint8_t *mid;
    size_t mid_cap;
    uint8_t *out;
    size_t out_cap;
    /* Output. */
    int out_fd;
    const char *out_name; /* NULL: standard output */
    /* Progress. */
    int progress;
    uint64_t size;        /* total input size, 0 when unknown */
    struct timespec t0;
    struct timespec shown_at;
    int shown;
} job;

static double seconds_between(const struct timespec *a,
                              const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) +
           (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Redraws the progress line at most ten times a second (force: now). */
static void progress_update(job *j, int force)
{
    struct timespec now;
    message m = { .len = 0 };
    double elapsed;

    if (!j->progress)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!force && j->shown && seconds_between(&j->shown_at, &now) < 0.1)
        return;
    j->shown = 1;
    j->shown_at = now;
    elapsed = seconds_between(&j->t0, &now);
    msg_add(&m, "\rwenc: %" PRIu64 " bytes", j->in_total);
    if (j->size > 0)
        msg_add(&m, " (%u%%)",
                (unsigned)(j->in_total >= j->size
                               ? 100
                               : j->in_total * 100 / j->size));
    if (elapsed > 0)
        msg_add(&m, ", %.1f MB/s", (double)j->in_total / 1e6 / elapsed);
    msg_add(&m, "   ");
    fputs(m.text, stderr);
    fflush(stderr);
}

/* Clears the progress line. */
static void progress_end(job *j)
{
    if (j->progress && j->shown) {
        fputs("\r                                                      "
              "          \r",
              stderr);
        fflush(stderr);
        j->shown = 0;
    }
}

/* The file that holds stream byte `offset`, and the offset within it. */
static const input_file *file_at(const job *j, uint64_t offset,
                                 uint64_t *within)
{
    int i;
    for (i = 0; i < j->nfiles; i++) {
        if (offset >= j->files[i].start && offset < j->files[i].end)
            break;
    }
    if (i == j->nfiles)
        i = j->current < j->nfiles ? j->current : j->nfiles - 1;
    *within = offset - j->files[i].start;
    return &j->files[i];
}

/* Writes output; returns a status. */
static int emit(job *j, const uint8_t *buf, size_t len)
{
    int err;
    if (len == 0)
        return STATUS_OK;
    err = write_all(j->out_fd, buf, len);
    if (err == 0)
        return STATUS_OK;
    progress_end(j);
    if (j->out_name == NULL)
        return stdout_failed(err);
    return io_error(j->out_name, err);
}

static int report_decode_error(job *j)
{
    message m = { .len = 0 };
    wenc_decode_error err;
    const input_file *f;
    uint64_t within;
    size_t i;

    wenc_decoder_error(&j->dec, &err);
    f = file_at(j, err.offset, &within);
    msg_add(&m, "wenc: %s: malformed %s input at byte %" PRIu64 " (",
            f->name, wenc_name(wenc_decoder_encoding(&j->dec)), within);
    for (i = 0; i < err.length && i < WENC_MAX_MALFORMED; i++)
        msg_add(&m, "%s0x%02X", i ? " " : "", (unsigned)err.bytes[i]);
    msg_add(&m, ")\n");
    progress_end(j);
    msg_emit(&m);
    return STATUS_FAIL;
}

/* The i-th byte fed since the snapshot. */
static uint8_t fed_byte(const job *j, size_t i)
{
    return i < j->tail_len ? j->tail[i] : j->cur[i - j->tail_len];
}

/*
 * The input offset of the code point at UTF-8 offset `mid` of the decoder's
 * output (convert): the bytes fed since the snapshot are decoded again, a
 * byte at a time, by a copy of the snapshot. The code point starts at the
 * first byte read once the output has reached `mid`.
 */
static uint64_t input_offset_of(const job *j, uint64_t mid)
{
    wenc_decoder d = j->snap;
    size_t fed = j->tail_len + j->cur_len;
    uint64_t want = mid - j->snap_mid;
    uint64_t made = 0;
    uint8_t tmp[256];
    size_t k;

    if (mid < j->snap_mid)
        return j->snap_in;
    for (k = 0; k < fed; k++) {
        uint8_t byte = fed_byte(j, k);
        size_t one = 1, room = sizeof tmp;
        if (made >= want)
            break;
        wenc_decode_to_utf8(&d, &byte, &one, tmp, &room, false);
        made += room;
    }
    return j->snap_in + k;
}

/* Moves the snapshot n bytes forward through the tail. */
static void snap_advance(job *j, size_t n)
{
    uint8_t tmp[256];
    size_t k;
    for (k = 0; k < n; k++) {
        size_t one = 1, room = sizeof tmp;
        wenc_decode_to_utf8(&j->snap, &j->tail[k], &one, tmp, &room, false);
        j->snap_mid += room;
    }
    j->snap_in += n;
    j->tail_len -= n;
    memmove(j->tail, j->tail + n, j->tail_len);
}

static int report_encode_error(job *j)
{
    message m = { .len = 0 };
    wenc_encode_error err;
    const input_file *f;
    uint64_t within, offset;

    wenc_encoder_error(&j->enc, &err);
    offset = j->decoding ? input_offset_of(j, err.offset) : err.offset;
    f = file_at(j, offset, &within);
    msg_add(&m,
            "wenc: %s: U+%04" PRIX32
            " cannot be encoded in %s at input byte %" PRIu64 "\n",
            f->name, err.code_point,
            wenc_name(wenc_encoder_encoding(&j->enc)), within);
    progress_end(j);
    msg_emit(&m);
    return STATUS_FAIL;
}

static int no_progress(void)
{
    fputs("wenc: internal error: conversion made no progress\n", stderr);
    return STATUS_FAIL;
}

/* Encodes src[0..len) and writes the bytes. */
static int encode_some(job *j, const uint8_t *src, size_t len, bool last)
{
    for (;;) {
        size_t used = len;
        size_t made = j->out_cap;
        wenc_status st;
        int r;

        st = wenc_encode_from_utf8(&j->enc, src, &used, j->out, &made, last);
        if ((r = emit(j, j->out, made)) != STATUS_OK)
            return r;
        if (used > 0) { /* src may be NULL with len 0 */
            src += used;
            len -= used;
            if (j->decoding)
                j->mid_total += used;
        }
        if (st == WENC_ERROR)
            return report_encode_error(j);
        if (st == WENC_INPUT_EMPTY)
            return STATUS_OK;
        if (used == 0 && made == 0)
            return no_progress();
    }
}

/*
 * Feeds src[0..len) (last: the end of the stream) through the pipeline,
 * writing every piece of output as soon as it is made, so that output that
 * precedes an error is written before the error is reported.
 */
static int decode_some(job *j, const uint8_t *src, size_t len, bool last)
{
    for (;;) {
        size_t used = len;
        size_t made = j->encoding ? j->mid_cap : j->out_cap;
        uint8_t *dst = j->encoding ? j->mid : j->out;
        wenc_status st;
        int r;

        st = wenc_decode_to_utf8(&j->dec, src, &used, dst, &made, last);
        if (j->encoding)
            r = encode_some(j, dst, made,
                            (last && st == WENC_INPUT_EMPTY) ||
                                st == WENC_ERROR);
        else
            r = emit(j, dst, made);
        if (r != STATUS_OK)
            return r;
        if (used > 0) {
            src += used;
            len -= used;
        }
        if (st == WENC_ERROR)
            return report_decode_error(j);
        if (st == WENC_INPUT_EMPTY)
            return STATUS_OK;
        if (used == 0 && made == 0)
            return no_progress();
    }
}

static int pump(job *j, const uint8_t *src, size_t len, bool last)
{
    if (!j->decoding)
        return encode_some(j, src, len, last);
    if (!j->encoding)
        return decode_some(j, src, len, last);

    /* convert: keep the snapshot at most 2 * TAIL bytes behind. */
    if (len > TAIL) {
        j->cur = src;
        j->cur_len = len - TAIL;
        int r = decode_some(j, src, len - TAIL, false);
        if (r != STATUS_OK)
            return r;
        j->snap = j->dec;
        j->snap_in = j->in_total - TAIL;
        j->snap_mid = j->mid_total;
        memcpy(j->tail, src + len - TAIL, TAIL);
        j->tail_len = TAIL;
        j->cur_len = 0;
        return decode_some(j, src + len - TAIL, TAIL, last);
    }
    if (j->tail_len + len > sizeof j->tail)
        snap_advance(j, j->tail_len + len - sizeof j->tail);
    if (len > 0)
        memcpy(j->tail + j->tail_len, src, len);
    j->tail_len += len;
    j->cur_len = 0;
    return decode_some(j, src, len, last);
}

/* Reads one input to its end through the pipeline. */
static int run_file(job *j, input_file *f)
{
    int fd;
    int status = STATUS_OK;

    f->start = j->in_total;
    f->end = j->in_total;
    if (f->path == NULL) {
        fd = STDIN_FILENO;
    } else {
        do
            fd = open(f->path, O_RDONLY);
        while (fd < 0 && errno == EINTR);
        if (fd < 0) {
            progress_end(j);
            return io_error(f->path, errno);
        }
    }
    for (;;) {
        ssize_t n = read(fd, j->in, READ_SIZE);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            progress_end(j);
            status = io_error(f->name, errno);
            break;
        }
        if (n == 0)
            break;
        j->in_total += (uint64_t)n;
        f->end = j->in_total;
        status = pump(j, j->in, (size_t)n, false);
        if (status != STATUS_OK)
            break;
        progress_update(j, 0);
    }
    if (fd != STDIN_FILENO)
        close(fd);
    return status;
}

/* Adds up the sizes of the inputs when every one is a regular file. */
static uint64_t known_size(const job *j)
{
    uint64_t total = 0;
    int i;
    for (i = 0; i < j->nfiles; i++) {
        struct stat st;
        int r = j->files[i].path == NULL ? fstat(STDIN_FILENO, &st)
                                         : stat(j->files[i].path, &st);
        if (r != 0 || !S_ISREG(st.st_mode))
            return 0;
        total += (uint64_t)st.st_size;
    }
    return total;
}

/* The temporary output file, removed if a signal ends wenc. */
static char *volatile temp_to_remove;

static void remove_temp_and_die(int sig)
{
    char *path = temp_to_remove;
    if (path != NULL)
        unlink(path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fatal_signals(void (*handler)(int))
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    size_t k;
    for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = handler;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[k], &sa, NULL);
    }
}

/* "DIR/.wenc-XXXXXX" next to path, malloc'd. */
static char *temp_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash == NULL ? 0 : (size_t)(slash - path) + 1;
    static const char base[] = ".wenc-XXXXXX";
    char *t = malloc(dir_len + sizeof base);
    if (t == NULL)
        return NULL;
    memcpy(t, path, dir_len);
    memcpy(t + dir_len, base, sizeof base);
    return t;
}

/*
 * Runs the whole stream: every file in turn, then the end of the stream.
 * With output_path, writes a temporary file beside it and renames it into
 * place only when everything succeeded.
 */
static int run_job(job *j, const char *output_path, int want_progress)
{
    char *temp = NULL;
    int status = STATUS_OK;
    size_t cap;
    int i;

    j->progress = want_progress && isatty(STDERR_FILENO);
    if (j->progress) {
        j->size = known_size(j);
        clock_gettime(CLOCK_MONOTONIC, &j->t0);
    }

    if (j->decoding) {
        cap = wenc_decoder_max_utf8_len(&j->dec, READ_SIZE);
        if (cap == SIZE_MAX || cap < 16)
            cap = 16 * READ_SIZE; /* pump() copes with any size >= 4 */
        if (j->encoding)
            j->mid_cap = cap;
        else
            j->out_cap = cap;
    }
    if (j->encoding) {
        cap = wenc_encoder_max_len(&j->enc,
                                   j->decoding ? j->mid_cap : READ_SIZE);
        if (cap == SIZE_MAX || cap < 16)
            cap = 16 * READ_SIZE;
        j->out_cap = cap;
    }
    j->in = malloc(READ_SIZE);
    j->mid = j->mid_cap ? malloc(j->mid_cap) : NULL;
    j->out = malloc(j->out_cap);
    if (j->in == NULL || j->out == NULL || (j->mid_cap && j->mid == NULL)) {
        status = io_error("wenc", ENOMEM);
        goto done;
    }

    j->out_fd = STDOUT_FILENO;
    j->out_name = NULL;
    if (output_path != NULL) {
        struct stat st;
        mode_t mode;
        temp = temp_template(output_path);
        if (temp == NULL) {
            status = io_error(output_path, ENOMEM);
            goto done;
        }
        temp_to_remove = temp;
        on_fatal_signals(remove_temp_and_die);
        j->out_fd = mkstemp(temp);
        if (j->out_fd < 0) {
            temp_to_remove = NULL;
            status = io_error(output_path, errno);
            free(temp);
            temp = NULL;
            goto done;
        }
        j->out_name = output_path;
        if (stat(output_path, &st) == 0) {
            mode = st.st_mode & 07777;
        } else {
            mode_t mask = umask(0);
            umask(mask);
            mode = 0666 & ~mask;
        }
        if (fchmod(j->out_fd, mode) != 0) {
            status = io_error(output_path, errno);
            goto done;
        }
    }

    for (i = 0; i < j->nfiles && status == STATUS_OK; i++) {
        j->current = i;
        status = run_file(j, &j->files[i]);
    }
    if (status == STATUS_OK)
        status = pump(j, NULL, 0, true);
    progress_end(j);

done:
    if (temp != NULL) {
        if (close(j->out_fd) != 0 && status == STATUS_OK)
            status = io_error(output_path, errno);
        if (status == STATUS_OK && rename(temp, output_path) != 0)
            status = io_error(output_path, errno);
        if (status != STATUS_OK)
            unlink(temp);
        on_fatal_signals(SIG_DFL);
        temp_to_remove = NULL;
        free(temp);
    }
    free(j->in);
    free(j->mid);
    free(j->out);
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

/* Which options a subcommand takes. */
enum {
    OPT_FROM = 1,
    OPT_TO = 2,
    OPT_BOM = 4,
    OPT_FATAL_DEC = 8,   /* --fatal makes the decoder fatal */
    OPT_FATAL_ENC = 16,  /* --fatal makes the encoder fatal */
    OPT_REPLACEMENT = 32,
    OPT_HTML = 64,
    OPT_STREAM = 128     /* -o, --progress */
};

typedef struct options {
    const char *from;
    const char *to;
    const char *output;
    wenc_bom_mode bom;
    wenc_error_mode dec_mode;
    wenc_error_mode enc_mode;
    int progress;
    int utf16_output; /* 0, or 1 with --utf16-output, 2 with --utf16-bom */
    char **files; /* the operands, moved to the front of argv */
    int nfiles;
} options;

/* Parses a stream subcommand's arguments. Returns -1 to go on, or an exit
 * status. */
static int parse_options(int argc, char **argv, unsigned allowed,
                         const char *help, options *o)
{
    int options_done = 0;
    int i;

    o->files = argv;
    o->nfiles = 0;
    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        int r;

        if (options_done || !is_option(arg)) {
            argv[o->nfiles++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (is_help(arg))
            return print_text(help);
        if ((allowed & (OPT_FATAL_DEC | OPT_FATAL_ENC)) &&
            strcmp(arg, "--fatal") == 0) {
            if (allowed & OPT_FATAL_DEC)
                o->dec_mode = WENC_ERRORS_FATAL;
            if (allowed & OPT_FATAL_ENC)
                o->enc_mode = WENC_ERRORS_FATAL;
            continue;
        }
        if ((allowed & OPT_REPLACEMENT) && strcmp(arg, "--replacement") == 0) {
            o->dec_mode = WENC_ERRORS_REPLACEMENT;
            continue;
        }
        if ((allowed & OPT_HTML) && strcmp(arg, "--html") == 0) {
            o->enc_mode = WENC_ERRORS_HTML;
            continue;
        }
        if ((allowed & OPT_TO) && strcmp(arg, "--utf16-output") == 0) {
            if (o->utf16_output == 0)
                o->utf16_output = 1;
            continue;
        }
        if ((allowed & OPT_TO) && strcmp(arg, "--utf16-bom") == 0) {
            o->utf16_output = 2;
            continue;
        }
        if ((allowed & OPT_STREAM) && strcmp(arg, "--progress") == 0) {
            o->progress = 1;
            continue;
        }
        if ((allowed & OPT_FROM) &&
            (r = option_value(argc, argv, &i, 'f', "--from", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            o->from = value;
            continue;
        }
        if ((allowed & OPT_TO) &&
            (r = option_value(argc, argv, &i, 't', "--to", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            o->to = value;
            continue;
        }
        if ((allowed & OPT_STREAM) &&
            (r = option_value(argc, argv, &i, 'o', "--output", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            o->output = value;
            continue;
        }
        if ((allowed & OPT_BOM) &&
            (r = option_value(argc, argv, &i, '\0', "--bom", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            if (strcmp(value, "sniff") == 0)
                o->bom = WENC_BOM_SNIFF;
            else if (strcmp(value, "strip") == 0)
                o->bom = WENC_BOM_STRIP;
            else if (strcmp(value, "keep") == 0)
                o->bom = WENC_BOM_KEEP;
            else
                return usage_error(
                    "--bom takes sniff, strip or keep, not", value);
            continue;
        }
        return usage_error("unknown option", arg);
    }
    return -1;
}

/* Looks a -f/-t label up; reports an unknown one (exit 2). */
static int resolve(const char *label, wenc_id *id)
{
    *id = lookup(label);
    if (*id == WENC_INVALID) {
        report_unknown_label(label);
        return STATUS_USAGE;
    }
    return -1;
}

/* Sets up the inputs and runs the job. */
static int start_job(job *j, const options *o)
{
    input_file stdin_only = { "<stdin>", NULL, 0, 0 };
    int status, i;

    if (o->nfiles == 0) {
        j->files = &stdin_only;
        j->nfiles = 1;
        status = run_job(j, o->output, o->progress);
        j->files = NULL; /* stdin_only lives on this stack frame */
        j->nfiles = 0;
        return status;
    }
    j->files = calloc((size_t)o->nfiles, sizeof *j->files);
    if (j->files == NULL)
        return io_error("wenc", ENOMEM);
    j->nfiles = o->nfiles;
    for (i = 0; i < o->nfiles; i++) {
        if (strcmp(o->files[i], "-") == 0) {
            j->files[i].name = "<stdin>";
            j->files[i].path = NULL;
        } else {
            j->files[i].name = o->files[i];
            j->files[i].path = o->files[i];
        }
    }
    status = run_job(j, o->output, o->progress);
    free(j->files);
    return status;
}

/* get an output encoding (§4.3): without an encoder UTF-8 is written. */
static void note_output_encoding(const job *j, wenc_id id)
{
    if (wenc_encoder_encoding(&j->enc) != id)
        fprintf(stderr, "wenc: note: %s has no encoder; writing %s\n",
                wenc_name(id), wenc_name(wenc_encoder_encoding(&j->enc)));
}

static int cmd_stream(int argc, char **argv, int decoding, int encoding)
{
    options o;
    job *j;
    wenc_id from = WENC_UTF_8, to = WENC_UTF_8;
    unsigned allowed = OPT_STREAM;
    const char *help;
    int r;

    memset(&o, 0, sizeof o);
    o.from = "utf-8";
    o.bom = WENC_BOM_SNIFF;
    o.dec_mode = WENC_ERRORS_REPLACEMENT;
    o.enc_mode = WENC_ERRORS_HTML;
    if (decoding)
        allowed |= OPT_FROM | OPT_BOM | OPT_FATAL_DEC | OPT_REPLACEMENT;
    if (encoding)
        allowed |= OPT_TO | OPT_FATAL_ENC | OPT_HTML;
    help = decoding && encoding ? help_convert
           : decoding           ? help_decode
                                : help_encode;
    if ((r = parse_options(argc, argv, allowed, help, &o)) >= 0)
        return r;

    if (encoding && o.to == NULL)
        return usage_error(decoding ? "convert needs -t LABEL"
                                    : "encode needs -t LABEL",
                           NULL);
    if (decoding && (r = resolve(o.from, &from)) >= 0)
        return r;
    if (encoding && (r = resolve(o.to, &to)) >= 0)
        return r;
    if (o.utf16_output && to != WENC_UTF_16LE && to != WENC_UTF_16BE)
        return usage_error(o.utf16_output == 2
                               ? "--utf16-bom needs -t utf-16le or utf-16be"
                               : "--utf16-output needs -t utf-16le or "
                                 "utf-16be",
                           NULL);

    j = calloc(1, sizeof *j);
    if (j == NULL)
        return io_error("wenc", ENOMEM);
    j->decoding = decoding;
    j->encoding = encoding;
    if (decoding && !wenc_decoder_init(&j->dec, from, o.bom, o.dec_mode)) {
        fprintf(stderr, "wenc: encoding '%s' is not built into this libwenc "
                "(configured with -DWENC_CJK=OFF)\n", wenc_name(from));
        free(j);
        return STATUS_FAIL;
    }
    j->snap = j->dec; /* stream offset 0, nothing fed yet */
    if (encoding && o.utf16_output) {
        /* the extension: real UTF-16, which the Standard does not write */
        (void)wenc_encoder_init_utf16(&j->enc, to, o.utf16_output == 2);
    } else if (encoding) {
        if (!wenc_encoder_init(&j->enc, to, o.enc_mode)) {
            fprintf(stderr, "wenc: encoding '%s' is not built into this libwenc "
                "(configured with -DWENC_CJK=OFF)\n", wenc_name(to));
            free(j);
            return STATUS_FAIL;
        }
        note_output_encoding(j, to);
        /* The decoder writes UTF-8 of scalar values, which the UTF-8 encoder
         * reproduces byte for byte: convert to UTF-8 is decode alone. */
        if (decoding && wenc_encoder_encoding(&j->enc) == WENC_UTF_8)
            j->encoding = 0;
    }
    r = start_job(j, &o);
    free(j);
    return r;
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

static int cmd_labels(int argc, char **argv)
{
    char buf[8192];
    size_t used = 0;
    size_t index, count = wenc_label_count();
    int json = 0;
    int r, i;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
            continue;
        }
        r = no_operands(argc - i, argv + i, help_labels);
        if (r >= 0)
            return r;
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

static int cmd_sniff(int argc, char **argv)
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

/* The iconv-style form: wenc -f X -t Y ... */
static int is_convert_option(const char *arg)
{
    return strncmp(arg, "-f", 2) == 0 || strncmp(arg, "-t", 2) == 0 ||
           strncmp(arg, "--from", 6) == 0 || strncmp(arg, "--to", 4) == 0;
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
        return cmd_stream(argc - 2, argv + 2, 1, 0);
    if (strcmp(cmd, "encode") == 0)
        return cmd_stream(argc - 2, argv + 2, 0, 1);
    if (strcmp(cmd, "convert") == 0)
        return cmd_stream(argc - 2, argv + 2, 1, 1);
    if (is_convert_option(cmd))
        return cmd_stream(argc - 1, argv + 1, 1, 1);
    if (strcmp(cmd, "sniff") == 0)
        return cmd_sniff(argc - 2, argv + 2);
    if (strcmp(cmd, "labels") == 0)
        return cmd_labels(argc - 2, argv + 2);
    if (strcmp(cmd, "label") == 0)
        return cmd_label(argc - 2, argv + 2);
    if (is_option(cmd))
        return usage_error("unknown option", cmd);
    return usage_error("unknown subcommand", cmd);
}

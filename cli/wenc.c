/* wenc — the command-line tool. Uses only the public header. */
#define _POSIX_C_SOURCE 200809L

#include "wenc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "Usage: wenc decode [-f LABEL] [--fatal] [--bom sniff|strip|keep] [FILE]\n"
    "       wenc encode -t LABEL [--fatal] [FILE]\n"
    "       wenc labels\n"
    "       wenc label LABEL\n"
    "\n"
    "Converts between the encodings of the WHATWG Encoding Standard and UTF-8,\n"
    "exactly as browsers do.\n"
    "\n"
    "  decode   bytes in LABEL (default utf-8) to UTF-8 on standard output;\n"
    "           malformed input becomes U+FFFD\n"
    "  encode   UTF-8 to bytes in LABEL; unmappable code points become &#N;\n"
    "  labels   every label, a tab, and its encoding's name\n"
    "  label    the name of the encoding LABEL selects\n"
    "\n"
    "Options:\n"
    "  -f, --from LABEL   encoding of the input (decode)\n"
    "  -t, --to LABEL     encoding of the output (encode)\n"
    "  --fatal            stop at the first malformed or unmappable input\n"
    "  --bom MODE         sniff: a BOM wins over the label (default);\n"
    "                     strip: remove the label's own BOM; keep: decode it\n"
    "  -h, --help         this help\n"
    "  --version          the version\n"
    "\n"
    "With no FILE, or FILE '-', reads standard input.\n"
    "Exit status: 0 success, 1 malformed or unmappable input with --fatal or an\n"
    "I/O error, 2 usage error.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("wenc: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'wenc --help'.\n", stderr);
    return EXIT_USAGE;
}

/* ---- label suggestions --------------------------------------------------- */

static char ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
}

static size_t edit_distance(const char *a, size_t n, const char *b, size_t m)
{
    size_t row[64];
    if (m >= 64)
        return (size_t)-1;
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t cost = ascii_lower(a[i - 1]) == b[j - 1] ? 0 : 1;
            size_t best = diag + cost;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (up + 1 < best)
                best = up + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

static void unknown_label(const char *label)
{
    size_t n = strlen(label);
    const char *best[3] = {NULL, NULL, NULL};
    size_t dist[3] = {(size_t)-1, (size_t)-1, (size_t)-1};
    size_t limit = n / 3 > 1 ? n / 3 : 1;
    for (size_t i = 0; i < wenc_label_count(); i++) {
        const char *l = wenc_label_at(i, NULL);
        size_t d = edit_distance(label, n < 64 ? n : 63, l, strlen(l));
        if (d > limit)
            continue;
        for (int k = 0; k < 3; k++) {
            if (d < dist[k]) {
                for (int s = 2; s > k; s--) {
                    dist[s] = dist[s - 1];
                    best[s] = best[s - 1];
                }
                dist[k] = d;
                best[k] = l;
                break;
            }
        }
    }
    fprintf(stderr, "wenc: unknown label '%s'", label);
    if (best[0]) {
        fprintf(stderr, "; did you mean: %s", best[0]);
        for (int k = 1; k < 3 && best[k]; k++)
            fprintf(stderr, ", %s", best[k]);
        fputc('?', stderr);
    }
    fputc('\n', stderr);
}

/* ---- I/O ----------------------------------------------------------------- */

typedef struct input {
    const char *name; /* for messages: the path or <stdin> */
    int fd;
} input;

static int open_input(const char *path, input *in)
{
    if (path == NULL || strcmp(path, "-") == 0) {
        in->name = "<stdin>";
        in->fd = STDIN_FILENO;
        return 0;
    }
    in->name = path;
    in->fd = open(path, O_RDONLY);
    if (in->fd < 0) {
        fprintf(stderr, "wenc: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Reads up to cap bytes; returns the count (0 at end) or -1 on error. */
static ssize_t read_some(const input *in, uint8_t *buf, size_t cap)
{
    for (;;) {
        ssize_t n = read(in->fd, buf, cap);
        if (n >= 0 || errno != EINTR)
            return n;
    }
}

/* Writes all of buf to stdout. Returns 0, or -1 after reporting an error
 * (a closed pipe ends quietly). */
static int write_all(const uint8_t *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, buf, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EPIPE)
                fprintf(stderr, "wenc: <stdout>: %s\n", strerror(errno));
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static void print_bytes(const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s0x%02X", i ? " " : "", bytes[i]);
}

/* ---- decode / encode ------------------------------------------------------ */

/* One direction of conversion, streamed in CHUNK-sized reads. */
typedef struct converter {
    wenc_decoder dec;
    wenc_encoder enc;
    bool decoding;
} converter;

static wenc_status convert(converter *c, const uint8_t *src, size_t *n,
                           uint8_t *dst, size_t *m, bool last)
{
    if (c->decoding)
        return wenc_decode_to_utf8(&c->dec, src, n, dst, m, last);
    return wenc_encode_from_utf8(&c->enc, src, n, dst, m, last);
}

static void report_error(const converter *c, const input *in)
{
    if (c->decoding) {
        wenc_decode_error err;
        wenc_decoder_error(&c->dec, &err);
        fprintf(stderr, "wenc: %s: malformed %s input at byte %llu (", in->name,
                wenc_name(wenc_decoder_encoding(&c->dec)),
                (unsigned long long)err.offset);
        print_bytes(err.bytes, err.length);
        fputs(")\n", stderr);
    } else {
        wenc_encode_error err;
        wenc_encoder_error(&c->enc, &err);
        fprintf(stderr,
                "wenc: %s: U+%04lX cannot be encoded in %s at input byte %llu\n",
                in->name, (unsigned long)err.code_point,
                wenc_name(wenc_encoder_encoding(&c->enc)),
                (unsigned long long)err.offset);
    }
}

static int run(converter *c, const input *in)
{
    size_t out_cap = c->decoding ? wenc_decoder_max_utf8_len(&c->dec, CHUNK + 16)
                                 : wenc_encoder_max_len(&c->enc, CHUNK + 16);
    uint8_t *src = malloc(CHUNK), *dst = malloc(out_cap);
    int rc = EXIT_OK;
    if (!src || !dst) {
        fputs("wenc: out of memory\n", stderr);
        rc = EXIT_INPUT;
        goto done;
    }
    for (bool last = false; !last;) {
        ssize_t got = read_some(in, src, CHUNK);
        if (got < 0) {
            fprintf(stderr, "wenc: %s: %s\n", in->name, strerror(errno));
            rc = EXIT_INPUT;
            goto done;
        }
        last = got == 0;
        size_t pos = 0;
        for (;;) {
            size_t n = (size_t)got - pos, m = out_cap;
            wenc_status st = convert(c, src + pos, &n, dst, &m, last);
            pos += n;
            if (write_all(dst, m) != 0) {
                rc = EXIT_INPUT;
                goto done;
            }
            if (st == WENC_INPUT_EMPTY)
                break;
            if (st == WENC_ERROR) {
                report_error(c, in);
                rc = EXIT_INPUT;
                goto done;
            }
        }
    }
done:
    free(src);
    free(dst);
    return rc;
}

static int run_decode(wenc_id id, wenc_bom_mode bom, bool fatal,
                      const input *in)
{
    converter c;
    c.decoding = true;
    if (!wenc_decoder_init(&c.dec, id, bom,
                           fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT))
        return EXIT_USAGE;
    return run(&c, in);
}

static int run_encode(wenc_id id, bool fatal, const input *in)
{
    converter c;
    c.decoding = false;
    if (!wenc_encoder_init(&c.enc, id,
                           fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML))
        return EXIT_USAGE;
    if (wenc_encoder_encoding(&c.enc) != id)
        fprintf(stderr, "wenc: note: %s has no encoder; writing %s\n",
                wenc_name(id), wenc_name(wenc_encoder_encoding(&c.enc)));
    return run(&c, in);
}

static int run_labels(void)
{
    for (size_t i = 0; i < wenc_label_count(); i++) {
        wenc_id id;
        const char *label = wenc_label_at(i, &id);
        if (printf("%s\t%s\n", label, wenc_name(id)) < 0)
            return EXIT_INPUT;
    }
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

/* ---- arguments ------------------------------------------------------------ */

typedef struct options {
    const char *label;
    const char *file;
    int files;
    bool fatal;
    wenc_bom_mode bom;
    bool help;
} options;

/* Matches "-x VALUE", "-xVALUE", "--long VALUE" and "--long=VALUE". */
static int take_value(int argc, char **argv, int *i, const char *shrt,
                      const char *lng, const char **value)
{
    const char *a = argv[*i];
    size_t ln = strlen(lng);
    if (shrt && strncmp(a, shrt, 2) == 0 && a[2] != '\0') {
        *value = a + 2;
        return 1;
    }
    if (strncmp(a, lng, ln) == 0 && a[ln] == '=') {
        *value = a + ln + 1;
        return 1;
    }
    if ((shrt && strcmp(a, shrt) == 0) || strcmp(a, lng) == 0) {
        if (*i + 1 >= argc)
            return -1;
        *value = argv[++*i];
        return 1;
    }
    return 0;
}

static int parse(int argc, char **argv, const char *cmd, options *o)
{
    const char *shrt = strcmp(cmd, "decode") == 0 ? "-f" : "-t";
    const char *lng = strcmp(cmd, "decode") == 0 ? "--from" : "--to";
    bool options_done = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!options_done && a[0] == '-' && a[1] != '\0') {
            int r;
            if (strcmp(a, "--") == 0) {
                options_done = true;
            } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
                o->help = true;
            } else if (strcmp(a, "--fatal") == 0) {
                o->fatal = true;
            } else if ((r = take_value(argc, argv, &i, shrt, lng, &v)) != 0) {
                if (r < 0)
                    return usage_error("option '%s' needs a label", a);
                o->label = v;
            } else if (strcmp(cmd, "decode") == 0 &&
                       (r = take_value(argc, argv, &i, NULL, "--bom", &v)) != 0) {
                if (r < 0)
                    return usage_error("option '%s' needs sniff, strip or keep", a);
                if (strcmp(v, "sniff") == 0)
                    o->bom = WENC_BOM_SNIFF;
                else if (strcmp(v, "strip") == 0)
                    o->bom = WENC_BOM_STRIP;
                else if (strcmp(v, "keep") == 0)
                    o->bom = WENC_BOM_KEEP;
                else
                    return usage_error("--bom takes sniff, strip or keep, not '%s'", v);
            } else {
                return usage_error("unknown option '%s'", a);
            }
            continue;
        }
        if (o->files++ > 0)
            return usage_error("more than one FILE ('%s')", a);
        o->file = a;
    }
    return EXIT_OK;
}

static int lookup_or_fail(const char *label, wenc_id *id)
{
    *id = wenc_lookup(label, strlen(label));
    if (*id == WENC_INVALID) {
        unknown_label(label);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("wenc %s\n", wenc_version());
        return EXIT_OK;
    }
    if (strcmp(cmd, "labels") == 0 || strcmp(cmd, "label") == 0) {
        bool single = strcmp(cmd, "label") == 0;
        if (argc == 3 && (strcmp(argv[2], "-h") == 0 ||
                          strcmp(argv[2], "--help") == 0)) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        }
        if (!single) {
            if (argc != 2)
                return usage_error("'labels' takes no arguments, got '%s'", argv[2]);
            return run_labels();
        }
        if (argc != 3)
            return usage_error("%s", "'label' takes exactly one LABEL");
        wenc_id id;
        if (lookup_or_fail(argv[2], &id) != 0)
            return EXIT_INPUT;
        printf("%s\n", wenc_name(id));
        return EXIT_OK;
    }
    if (strcmp(cmd, "decode") != 0 && strcmp(cmd, "encode") != 0)
        return usage_error("unknown command '%s'", cmd);

    options o = {NULL, NULL, 0, false, WENC_BOM_SNIFF, false};
    int rc = parse(argc, argv, cmd, &o);
    if (rc != EXIT_OK)
        return rc;
    if (o.help) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    bool decoding = strcmp(cmd, "decode") == 0;
    if (!decoding && o.label == NULL)
        return usage_error("%s", "encode needs -t LABEL");
    wenc_id id = WENC_UTF_8;
    if (o.label && lookup_or_fail(o.label, &id) != 0)
        return EXIT_USAGE;
    input in;
    if (open_input(o.file, &in) != 0)
        return EXIT_INPUT;
    rc = decoding ? run_decode(id, o.bom, o.fatal, &in)
                  : run_encode(id, o.fatal, &in);
    if (in.fd != STDIN_FILENO)
        close(in.fd);
    return rc;
}

/*
 * What the files of the wenc tool share. Each group below is defined in the
 * file it names; a function used by one file only is static there.
 */
#ifndef WENC_CLI_H
#define WENC_CLI_H

#include "wenc.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum { STATUS_OK = 0, STATUS_FAIL = 1, STATUS_USAGE = 2 };

/* ---- messages.c ---------------------------------------------------------- */

/*
 * A message is assembled here and written to stderr with one call, so that
 * a line is not torn by other writers. Overlong messages are cut.
 */
typedef struct message {
    char text[1024];
    size_t len;
} message;

void msg_add(message *m, const char *fmt, ...);
void msg_add_quoted(message *m, const char *s);
void msg_emit(message *m);
int usage_error(const char *what, const char *arg);
int io_error(const char *name, int err);
int cannot_convert(const char *verb, wenc_id id);

/* ---- write.c ------------------------------------------------------------- */

int write_all(int fd, const uint8_t *buf, size_t len);
int stdout_failed(int err);
int print_text(const char *s);

/* ---- label_lookup.c ------------------------------------------------------ */

wenc_id lookup(const char *label);
void report_unknown_label(const char *label);

/* ---- options.c ----------------------------------------------------------- */

/* Which options a subcommand takes. */
enum {
    OPT_FROM = 1,
    OPT_TO = 2,
    OPT_BOM = 4,
    OPT_FATAL_DEC = 8,   /* --fatal makes the decoder fatal */
    OPT_FATAL_ENC = 16,  /* --fatal makes the encoder fatal */
    OPT_REPLACEMENT = 32,
    OPT_HTML = 64,
    OPT_STREAM = 128,    /* -o, --progress */
    OPT_SNIFF = 256      /* --sniff-html, --label, --default, --locale */
};

/* ---- html_sniff.c -------------------------------------------------------- */

/* What the HTML encoding sniffing of `sniff --html` and `decode
 * --sniff-html` is given besides the bytes. */
typedef struct sniff_settings {
    const char *label;  /* --label: the transport layer's label, or NULL */
    wenc_id fallback;   /* --default or --locale; WENC_INVALID: windows-1252 */
    const char *fallback_option; /* the option that set it, or NULL */
} sniff_settings;

int sniff_option(int argc, char **argv, int *i, sniff_settings *s);
wenc_sniff_result sniff_bytes(const uint8_t *bytes, size_t len,
                              const sniff_settings *s);
void describe_sniff(message *m, const wenc_sniff_result *r);

/* What --unmappable asks for: a code point the output encoding cannot
 * represent is written as &#N; (the Standard's html mode), stops the run
 * (its fatal mode), becomes a substitution character, or is dropped. */
enum { UNM_HTML, UNM_FATAL, UNM_SUBST, UNM_SKIP };

typedef struct options {
    const char *from;   /* -f, or NULL */
    const char *to;
    const char *output;
    wenc_bom_mode bom;
    wenc_error_mode dec_mode;
    int unmappable;     /* UNM_* */
    char subst;         /* --unmappable=subst's character */
    int quiet;          /* -q: no warnings or notes */
    int overwrite_lossy; /* -o may replace an input with a lossy result */
    int progress;
    int utf16_output; /* 0, or 1 with --utf16-output, 2 with --utf16-bom */
    int standard_output; /* --standard-output-encoding: UTF-8 for UTF-16 */
    int sniff_html;   /* --sniff-html: the encoding is sniffed */
    sniff_settings sniff;
    char **files; /* the operands, moved to the front of argv */
    int nfiles;
} options;

int option_value(int argc, char **argv, int *i, char short_name,
                 const char *long_name, const char **value);
int is_help(const char *arg);
int is_option(const char *arg);
int parse_options(int argc, char **argv, unsigned allowed, const char *help,
                  options *o);
int resolve(const char *label, wenc_id *id);

/* ---- stream_job.c, progress.c, output_file.c ----------------------------- */

/* Input bytes convert keeps behind the decoder to place encoder errors: more
 * than any sequence a decoder holds back. */
#define TAIL ((size_t)16)

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
    /* decode --sniff-html: the stream's first bytes, held back until they
     * are enough to sniff (or the stream ends); the decoder is set up then. */
    int sniffing;
    const options *opts;
    uint8_t held[WENC_SNIFF_PRESCAN_BYTES];
    size_t held_len;
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
    /* The CLI's error modes: the library runs in fatal mode and the job
     * does what was asked at each WENC_ERROR. */
    int dec_fatal;        /* malformed input stops the run */
    int unm;              /* UNM_* */
    char subst;
    uint64_t enc_extra;   /* bytes the job fed the encoder (&#N;, subst) */
    /* What was replaced or substituted: counts and the first of each. */
    uint64_t malformed;
    const char *malformed_file;
    uint64_t malformed_at;
    uint8_t malformed_bytes[WENC_MAX_MALFORMED];
    size_t malformed_len;
    uint64_t unmapped;
    const char *unmapped_file;
    uint64_t unmapped_at;
    uint32_t unmapped_cp;
    int input_failed;     /* an input could not be read; the others were */
    /* Output. */
    size_t out_len;       /* bytes in out not yet written */
    int out_fd;
    const char *out_name; /* NULL: standard output */
    /* Progress. */
    int progress;
    uint64_t size;        /* total input size, 0 when unknown */
    struct timespec t0;
    struct timespec shown_at;
    int shown;
} job;

int start_job(job *j, const options *o);

void progress_update(job *j, int force);
void progress_end(job *j);

int open_output_file(const char *path, char **temp, int *fd);
int close_output_file(const char *path, int fd, char *temp, int status);

/* ---- the subcommands: stream_cmd.c and one NAME_cmd.c each --------------- */

int cmd_stream(int argc, char **argv, int decoding, int encoding,
               const char *help);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_sniff(int argc, char **argv);
int cmd_labels(int argc, char **argv);
int cmd_label(int argc, char **argv);

#endif

/*
 * The streaming job of decode, encode and convert: the inputs read in turn
 * through the decoder and the encoder, output written as it is made, and
 * the input file and byte of an error.
 */
#define _XOPEN_SOURCE 700 /* realpath() */

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Bytes asked of read(2) at a time. */
#define READ_SIZE ((size_t)64 * 1024)

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

/* Writes what the output buffer holds. */
static int flush_out(job *j)
{
    size_t len = j->out_len;
    j->out_len = 0;
    return emit(j, j->out, len);
}

/* Makes room for `need` bytes in the output buffer. */
static int out_room(job *j, size_t need)
{
    if (j->out_cap - j->out_len >= need)
        return STATUS_OK;
    return flush_out(j);
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

/* Malformed input in replacement mode: counted, the first one kept. */
static void note_malformed(job *j)
{
    if (j->malformed++ == 0) {
        wenc_decode_error err;
        size_t n;
        wenc_decoder_error(&j->dec, &err);
        j->malformed_file = file_at(j, err.offset, &j->malformed_at)->name;
        n = err.length < WENC_MAX_MALFORMED ? err.length : WENC_MAX_MALFORMED;
        memcpy(j->malformed_bytes, err.bytes, n);
        j->malformed_len = n;
    }
}

/* The i-th byte fed since the snapshot. */
static uint8_t fed_byte(const job *j, size_t i)
{
    return i < j->tail_len ? j->tail[i] : j->cur[i - j->tail_len];
}

/* Decodes one byte with a copy of the decoder (a snapshot), which is in
 * fatal mode as the job's is: *made gets the UTF-8 length of its output,
 * counting the U+FFFD the job writes for an error. Returns how many bytes
 * were consumed: 0 when the byte is to be read again after an error. */
static size_t redecode_byte(wenc_decoder *d, uint8_t byte, uint64_t *made)
{
    uint8_t tmp[256];
    size_t one = 1, room = sizeof tmp;
    if (wenc_decode_to_utf8(d, &byte, &one, tmp, &room, false) == WENC_ERROR)
        *made += 3;
    *made += room;
    return one;
}

/*
 * The input offset of the code point at UTF-8 offset `mid` of the decoder's
 * output (convert): the bytes fed since the snapshot are decoded again, a
 * byte at a time, by a copy of the snapshot. The code point starts at the
 * first byte read once the output has reached `mid`.
 */
/*
 * Where the first code point the snapshot's decoder writes begins: the
 * snapshot's input offset, or before it when the decoder holds the start of
 * a sequence there. A copy of it is ended: in fatal mode the bytes it holds
 * are an error, whose offset is theirs; output without an error comes from
 * bytes held back to look for a byte order mark, which begin the stream.
 */
static uint64_t snap_start(const job *j)
{
    wenc_decoder d = j->snap;
    uint8_t tmp[64];
    size_t none = 0, room = sizeof tmp;

    if (wenc_decode_to_utf8(&d, NULL, &none, tmp, &room, true) == WENC_ERROR) {
        wenc_decode_error err;
        wenc_decoder_error(&d, &err);
        return err.offset;
    }
    return room > 0 ? 0 : j->snap_in;
}

static uint64_t input_offset_of(const job *j, uint64_t mid)
{
    wenc_decoder d = j->snap;
    size_t fed = j->tail_len + j->cur_len;
    uint64_t want = mid - j->snap_mid;
    uint64_t made = 0;
    size_t k = 0;

    if (mid <= j->snap_mid)
        return snap_start(j);
    while (k < fed && made < want)
        k += redecode_byte(&d, fed_byte(j, k), &made);
    return j->snap_in + k;
}

/* Moves the snapshot n bytes forward through the tail. */
static void snap_advance(job *j, size_t n)
{
    size_t k = 0;
    uint64_t made = 0;
    while (k < n)
        k += redecode_byte(&j->snap, j->tail[k], &made);
    j->snap_mid += made;
    j->snap_in += n;
    j->tail_len -= n;
    memmove(j->tail, j->tail + n, j->tail_len);
}

static int report_encode_error(job *j, uint64_t offset)
{
    message m = { .len = 0 };
    wenc_encode_error err;
    const input_file *f;
    uint64_t within;

    wenc_encoder_error(&j->enc, &err);
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

/* One encoder call: src[0..*used) into the output buffer, which is given
 * room first; *used and *made get what was consumed and written. Returns a
 * status (of the write that made room). */
static int encode_step(job *j, const uint8_t *src, size_t *used, bool last,
                       wenc_status *st, size_t *made)
{
    int r = out_room(j, 16);
    if (r != STATUS_OK)
        return r;
    *made = j->out_cap - j->out_len;
    *st = wenc_encode_from_utf8(&j->enc, src, used, j->out + j->out_len,
                                made, last);
    j->out_len += *made;
    return STATUS_OK;
}

/* Feeds text of the job's own (&#N; or the substitution character, ASCII)
 * to the encoder, so that it is encoded in the encoder's current state. */
static int encode_text(job *j, const char *text, size_t len)
{
    const uint8_t *src = (const uint8_t *)text;
    j->enc_extra += len;
    while (len > 0) {
        size_t used = len, made;
        wenc_status st;
        int r = encode_step(j, src, &used, false, &st, &made);
        if (r != STATUS_OK)
            return r;
        src += used;
        len -= used;
        if (st == WENC_ERROR || (used == 0 && made == 0))
            return no_progress();
    }
    return STATUS_OK;
}

/* "&#N;" for code point cp, N in decimal (the Standard's html mode), in
 * text (room for 12 bytes); returns its length. */
static size_t ncr(char *text, uint32_t cp)
{
    char digits[10];
    size_t n = 0, k = 0;
    do
        digits[k++] = (char)('0' + cp % 10);
    while ((cp /= 10) != 0);
    text[n++] = '&';
    text[n++] = '#';
    while (k > 0)
        text[n++] = digits[--k];
    text[n++] = ';';
    return n;
}

/* A code point the output encoding cannot represent, which the encoder in
 * fatal mode has just reported: --unmappable's choice. */
static int unmappable(job *j)
{
    wenc_encode_error err;
    uint64_t mid;
    char text[16];
    size_t n = 0;

    wenc_encoder_error(&j->enc, &err);
    mid = err.offset - j->enc_extra;
    if (j->unm == UNM_FATAL) {
        int r = flush_out(j);
        if (r != STATUS_OK)
            return r;
        return report_encode_error(j, input_offset_of(j, mid));
    }
    if (j->unmapped++ == 0) {
        j->unmapped_cp = err.code_point;
        j->unmapped_file =
            file_at(j, input_offset_of(j, mid), &j->unmapped_at)->name;
    }
    if (j->unm == UNM_HTML)
        n = ncr(text, err.code_point);
    else if (j->unm == UNM_SUBST)
        text[n++] = j->subst;
    if (n == 0)
        return STATUS_OK;
    /* Of the encoders that can report an unmappable code point, every one
     * but ISO-2022-JP's writes an ASCII code point as its byte, whatever
     * came before: the bytes go straight out. (The UTF-16 encoders, which
     * would not, encode every code point and never get here.) */
    if (wenc_encoder_encoding(&j->enc) != WENC_ISO_2022_JP) {
        int r = out_room(j, n);
        if (r == STATUS_OK) {
            memcpy(j->out + j->out_len, text, n);
            j->out_len += n;
        }
        return r;
    }
    return encode_text(j, text, n);
}

/* Encodes src[0..len), the decoder's UTF-8, into the output buffer. */
static int encode_some(job *j, const uint8_t *src, size_t len, bool last)
{
    for (;;) {
        size_t used = len, made;
        wenc_status st;
        int r = encode_step(j, src, &used, last, &st, &made);

        if (r != STATUS_OK)
            return r;
        if (used > 0) { /* src may be NULL with len 0 */
            src += used;
            len -= used;
            j->mid_total += used;
        }
        if (st == WENC_ERROR) {
            if ((r = unmappable(j)) != STATUS_OK)
                return r;
            continue;
        }
        if (st == WENC_INPUT_EMPTY)
            return STATUS_OK;
        if (used == 0 && made == 0 && j->out_len == 0)
            return no_progress();
        if ((r = flush_out(j)) != STATUS_OK)
            return r;
    }
}

static const uint8_t fffd[3] = { 0xEF, 0xBF, 0xBD };

/* A decoder error: stops the run (--fatal; output before it is written
 * first), or is counted and becomes U+FFFD at dst[*made], where the caller
 * left room for it. */
static int malformed(job *j, uint8_t *dst, size_t *made)
{
    if (j->dec_fatal) {
        int r = flush_out(j);
        return r != STATUS_OK ? r : report_decode_error(j);
    }
    note_malformed(j);
    memcpy(dst + *made, fffd, sizeof fffd);
    *made += sizeof fffd;
    return STATUS_OK;
}

/*
 * Feeds src[0..len) (last: the end of the stream) through the pipeline. The
 * output is written when the buffer fills and at the end of pump(), and
 * always before an error is reported, so that output that precedes an
 * error is written first.
 */
static int decode_some(job *j, const uint8_t *src, size_t len, bool last)
{
    for (;;) {
        size_t used = len, made;
        uint8_t *dst;
        wenc_status st;
        int r = STATUS_OK;

        if (j->encoding) {
            dst = j->mid;
            made = j->mid_cap - sizeof fffd;
        } else {
            if ((r = out_room(j, 16)) != STATUS_OK)
                return r;
            dst = j->out + j->out_len;
            made = j->out_cap - j->out_len - sizeof fffd;
        }
        st = wenc_decode_to_utf8(&j->dec, src, &used, dst, &made, last);
        if (used > 0) {
            src += used;
            len -= used;
        }
        if (st == WENC_ERROR && !j->dec_fatal)
            r = malformed(j, dst, &made);
        if (r != STATUS_OK)
            return r;
        if (j->encoding)
            r = encode_some(j, dst, made,
                            (last && st == WENC_INPUT_EMPTY) ||
                                (st == WENC_ERROR && j->dec_fatal));
        else
            j->out_len += made;
        if (r != STATUS_OK)
            return r;
        if (st == WENC_ERROR && j->dec_fatal)
            return malformed(j, dst, &made);
        if (st == WENC_INPUT_EMPTY)
            return STATUS_OK;
        if (st == WENC_OUTPUT_FULL && !j->encoding) {
            if (used == 0 && made == 0 && j->out_len == 0)
                return no_progress();
            if ((r = flush_out(j)) != STATUS_OK)
                return r;
        } else if (used == 0 && made == 0) {
            return no_progress();
        }
    }
}

/* Runs src[0..len) through the pipeline and writes the output made. */
static int pump_some(job *j, const uint8_t *src, size_t len, bool last)
{
    int r = decode_some(j, src, len, last);
    return r != STATUS_OK ? r : flush_out(j);
}

static int pump(job *j, const uint8_t *src, size_t len, bool last)
{
    if (!j->encoding)
        return pump_some(j, src, len, last);

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
        return pump_some(j, src + len - TAIL, TAIL, last);
    }
    if (j->tail_len + len > sizeof j->tail)
        snap_advance(j, j->tail_len + len - sizeof j->tail);
    if (len > 0)
        memcpy(j->tail + j->tail_len, src, len);
    j->tail_len += len;
    j->cur_len = 0;
    return pump_some(j, src, len, last);
}

/*
 * decode --sniff-html: sniffs the bytes held back, sets the decoder up with
 * the encoding the HTML Standard's sniffing gives, and pumps them (last: the
 * stream ends with them).
 */
static int release_held(job *j, bool last)
{
    j->sniffing = 0;
    wenc_sniff_result r = sniff_bytes(j->held, j->held_len, &j->opts->sniff);
    if (!wenc_decoder_init(&j->dec, r.encoding, j->opts->bom,
                           WENC_ERRORS_FATAL)) {
        progress_end(j);
        return cannot_convert("decode", r.encoding);
    }
    return pump(j, j->held, j->held_len, last);
}

/*
 * pump(), but with --sniff-html the stream's first bytes are held back until
 * there are WENC_SNIFF_PRESCAN_BYTES of them or the stream ends (the answer
 * is then final), and released then.
 */
static int feed(job *j, const uint8_t *src, size_t len, bool last)
{
    if (j->sniffing) {
        size_t take = sizeof j->held - j->held_len;
        if (take > len)
            take = len;
        if (take > 0) {
            memcpy(j->held + j->held_len, src, take);
            j->held_len += take;
            src += take;
            len -= take;
        }
        if (j->held_len < sizeof j->held && !last)
            return STATUS_OK;
        int status = release_held(j, last && len == 0);
        if (status != STATUS_OK || len == 0)
            return status;
    }
    return pump(j, src, len, last);
}

/* An input cannot be read: it is reported and the others are still read,
 * as cat(1) does; the run fails at the end. */
static int input_error(job *j, const char *name, int err)
{
    progress_end(j);
    j->input_failed = 1;
    (void)io_error(name, err);
    return STATUS_OK;
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
        if (fd < 0)
            return input_error(j, f->path, errno);
    }
    for (;;) {
        ssize_t n = read(fd, j->in, READ_SIZE);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            status = input_error(j, f->name, errno);
            break;
        }
        if (n == 0)
            break;
        j->in_total += (uint64_t)n;
        f->end = j->in_total;
        status = feed(j, j->in, (size_t)n, false);
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

/* At the end of a run: what was replaced or substituted, one line each. */
static void report_losses(const job *j)
{
    message m = { .len = 0 };
    size_t i;

    if (j->opts->quiet)
        return;
    if (j->malformed > 0 &&
        wenc_decoder_encoding(&j->dec) == WENC_REPLACEMENT) {
        msg_add(&m, "wenc: warning: ");
        if (j->opts->sniff_html) {
            msg_add(&m, "the encoding sniffed is replacement");
        } else {
            msg_add_quoted(&m, j->opts->from);
            msg_add(&m, " is a label of the replacement encoding");
        }
        msg_add(&m, ": the whole input decoded to one U+FFFD\n");
        msg_emit(&m);
    } else if (j->malformed > 0) {
        msg_add(&m,
                "wenc: warning: %" PRIu64 " malformed sequence%s in the %s "
                "input replaced by U+FFFD%s in %s at byte %" PRIu64 " (",
                j->malformed, j->malformed > 1 ? "s" : "",
                wenc_name(wenc_decoder_encoding(&j->dec)),
                j->malformed > 1 ? "; the first" : ",", j->malformed_file,
                j->malformed_at);
        for (i = 0; i < j->malformed_len; i++)
            msg_add(&m, "%s0x%02X", i ? " " : "",
                    (unsigned)j->malformed_bytes[i]);
        msg_add(&m, ")\n");
        msg_emit(&m);
    }
    if (j->unmapped > 0) {
        int many = j->unmapped > 1;
        m.len = 0;
        msg_add(&m, "wenc: warning: %" PRIu64 " character%s not in %s ",
                j->unmapped, many ? "s" : "",
                wenc_name(wenc_encoder_encoding(&j->enc)));
        if (j->unm == UNM_HTML)
            msg_add(&m, "written as %sHTML character reference%s (&#N;)",
                    many ? "" : "an ", many ? "s" : "");
        else if (j->unm == UNM_SUBST)
            msg_add(&m, "replaced by '%c'", j->subst);
        else
            msg_add(&m, "dropped");
        msg_add(&m, "%s U+%04" PRIX32 ", in %s at input byte %" PRIu64 "\n",
                many ? "; the first," : ":", j->unmapped_cp, j->unmapped_file,
                j->unmapped_at);
        msg_emit(&m);
    }
}

/* The input that is the same file as `path` (device and inode, symlinks
 * followed), or NULL. */
static const char *input_named_by(const job *j, const char *path)
{
    struct stat out;
    int i;

    if (stat(path, &out) != 0)
        return NULL;
    for (i = 0; i < j->nfiles; i++) {
        struct stat in;
        if (j->files[i].path != NULL && stat(j->files[i].path, &in) == 0 &&
            in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return j->files[i].name;
    }
    return NULL;
}

/* -o over one of the inputs: a lossy result does not replace it unless
 * --overwrite-lossy allows it. Returns a status. */
static int check_in_place(const job *j, const char *input, const char *path)
{
    message m = { .len = 0 };
    if (input == NULL || j->opts->overwrite_lossy ||
        (j->malformed == 0 && j->unmapped == 0))
        return STATUS_OK;
    msg_add(&m,
            "wenc: %s: left as it was: it is the input %s and the output "
            "is lossy; --overwrite-lossy replaces it anyway\n",
            path, input);
    msg_emit(&m);
    return STATUS_FAIL;
}

/* The file -o writes: path itself, or where path leads when it is a
 * symbolic link to an existing file, so that the link stays a link (malloc'd
 * then, in *resolved, for the caller to free). */
static const char *output_target(const char *path, char **resolved)
{
    struct stat st;
    *resolved = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        *resolved = realpath(path, NULL);
    return *resolved != NULL ? *resolved : path;
}

/*
 * Runs the whole stream: every file in turn, then the end of the stream.
 * With output_path, writes a temporary file beside the file it names (the
 * link's target for a symbolic link) and renames it into place only when
 * everything succeeded.
 */
static int run_job(job *j, const char *output_path, int want_progress)
{
    char *temp = NULL;
    char *resolved_output = NULL;
    const char *output_file = NULL;
    const char *in_place = NULL;
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
        in_place = input_named_by(j, output_path);
        output_file = output_target(output_path, &resolved_output);
        status = open_output_file(output_file, &temp, &j->out_fd);
        if (status != STATUS_OK)
            goto done;
        j->out_name = output_path;
    }

    for (i = 0; i < j->nfiles && status == STATUS_OK; i++) {
        j->current = i;
        status = run_file(j, &j->files[i]);
    }
    if (status == STATUS_OK)
        status = feed(j, NULL, 0, true);
    progress_end(j);
    report_losses(j);
    if (status == STATUS_OK && j->input_failed)
        status = STATUS_FAIL;
    if (status == STATUS_OK && output_path != NULL)
        status = check_in_place(j, in_place, output_path);

done:
    if (temp != NULL)
        status = close_output_file(output_file, j->out_fd, temp, status);
    free(resolved_output);
    free(j->in);
    free(j->mid);
    free(j->out);
    return status;
}

/* Sets up the inputs and runs the job. */
int start_job(job *j, const options *o)
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

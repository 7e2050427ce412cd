/*
 * The streaming job of decode, encode and convert: the inputs read in turn
 * through the decoder and the encoder, output written as it is made, and
 * the input file and byte of an error.
 */
#define _POSIX_C_SOURCE 200809L

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

/*
 * decode --sniff-html: sniffs the bytes held back, sets the decoder up with
 * the encoding the HTML Standard's sniffing gives, and pumps them (last: the
 * stream ends with them).
 */
static int release_held(job *j, bool last)
{
    j->sniffing = 0;
    wenc_sniff_result r = sniff_bytes(j->held, j->held_len, &j->opts->sniff);
    if (!wenc_decoder_init(&j->dec, r.encoding, j->opts->bom, j->opts->dec_mode)) {
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

/* An input failed: what was held back still goes out first, as output that
 * precedes an error always does (and an error in it is reported instead). */
static int input_error(job *j, const char *name, int err)
{
    if (j->sniffing) {
        int status = release_held(j, false);
        if (status != STATUS_OK)
            return status;
    }
    progress_end(j);
    return io_error(name, err);
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
        status = open_output_file(output_path, &temp, &j->out_fd);
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

done:
    if (temp != NULL)
        status = close_output_file(output_path, j->out_fd, temp, status);
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

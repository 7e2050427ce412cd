/* Talking to the oracle (tests/oracle): one request file and one response
 * file per batch, in the format documented in tests/oracle/src/main.rs. */
#define _POSIX_C_SOURCE 200809L
#include "diff.h"
#include "known_differences.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void put_u32(diff_bytes *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        bytes_push(b, (uint8_t)(v >> (8 * i)));
}

static bool write_file(const char *path, const diff_bytes *b)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "diff: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(b->data, 1, b->len, f) == b->len;
    ok = fclose(f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "diff: cannot write %s\n", path);
    return ok;
}

static bool read_file(const char *path, diff_bytes *b)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "diff: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    for (;;) {
        bytes_reserve(b, 1 << 16);
        size_t n = fread(b->data + b->len, 1, b->cap - b->len, f);
        b->len += n;
        if (n == 0)
            break;
    }
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

bool oracle_start(diff_oracle_job *job, const char *oracle, const char *dir,
                  const diff_case *cases, size_t count)
{
    static unsigned serial;
    serial++;
    snprintf(job->request_path, sizeof job->request_path, "%s/request-%u.bin",
             dir, serial);
    snprintf(job->response_path, sizeof job->response_path,
             "%s/response-%u.bin", dir, serial);
    diff_bytes request = {0};
    bytes_append(&request, "WDIFREQ1", 8);
    for (size_t i = 0; i < count; i++) {
        const diff_case *c = &cases[i];
        const char *name = wenc_name(c->id);
        bytes_push(&request, c->kind);
        bytes_push(&request, c->flags);
        bytes_push(&request, (uint8_t)strlen(name));
        bytes_append(&request, name, strlen(name));
        put_u32(&request, (uint32_t)c->input.len);
        size_t at = request.len;
        bytes_append(&request, c->input.data, c->input.len);
        if (c->kind == DIFF_ENCODE && known_gb18030_2022_applies(c->id))
            known_gb18030_2022_fix_encoder_input(request.data + at, c->input.len,
                                                 c->flags & DIFF_FLAG_UTF16);
    }
    bool ok = write_file(job->request_path, &request);
    bytes_free(&request);
    if (!ok)
        return false;
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "diff: fork: %s\n", strerror(errno));
        return false;
    }
    if (pid == 0) {
        char *argv[] = {(char *)oracle, job->request_path, job->response_path,
                        NULL};
        execv(oracle, argv);
        fprintf(stderr, "diff: cannot run %s: %s\n", oracle, strerror(errno));
        _exit(127);
    }
    job->pid = (int)pid;
    return true;
}

typedef struct reader {
    const uint8_t *p;
    size_t left;
    bool bad;
} reader;

static uint64_t get_le(reader *r, size_t width)
{
    if (r->left < width) {
        r->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < width; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += width;
    r->left -= width;
    return v;
}

static const uint8_t *get_span(reader *r, size_t len)
{
    if (r->left < len) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *span = r->p;
    r->p += len;
    r->left -= len;
    return span;
}

static void parse_outcome(reader *r, diff_outcome *o)
{
    size_t name_len = (size_t)get_le(r, 1);
    const uint8_t *name = get_span(r, name_len);
    if (!name || name_len >= sizeof o->encoding) {
        r->bad = true;
        return;
    }
    memcpy(o->encoding, name, name_len);
    o->encoding[name_len] = '\0';
    size_t out_len = (size_t)get_le(r, 4);
    const uint8_t *out = get_span(r, out_len);
    if (!out)
        return;
    bytes_append(&o->output, out, out_len);
    o->error_count = (size_t)get_le(r, 4);
    if (r->bad || o->error_count > r->left / 28) {
        r->bad = true;
        o->error_count = 0;
        return;
    }
    o->errors = diff_xmalloc(o->error_count * sizeof *o->errors);
    for (size_t i = 0; i < o->error_count; i++) {
        diff_error *e = &o->errors[i];
        e->offset = get_le(r, 8);
        e->length = (uint32_t)get_le(r, 4);
        e->code_point = (uint32_t)get_le(r, 4);
        e->output_position = get_le(r, 8);
        e->stop = e->offset + e->length + get_le(r, 4);
    }
}

static bool is_gb18030_family_name(const char *name)
{
    return strcmp(name, "gb18030") == 0 || strcmp(name, "GBK") == 0;
}

bool oracle_finish(diff_oracle_job *job, const diff_case *cases,
                   diff_outcome *outcomes, size_t count)
{
    int status = 0;
    while (waitpid((pid_t)job->pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "diff: waitpid: %s\n", strerror(errno));
            return false;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "diff: the oracle failed (status %d) on %s\n", status,
                job->request_path);
        return false;
    }
    diff_bytes response = {0};
    bool ok = read_file(job->response_path, &response);
    reader r = {response.data, response.len, false};
    if (ok && (response.len < 8 || memcmp(response.data, "WDIFRSP1", 8) != 0))
        ok = false;
    get_span(&r, 8);
    for (size_t i = 0; ok && i < count; i++) {
        parse_outcome(&r, &outcomes[i]);
        ok = !r.bad;
        if (ok && cases[i].kind == DIFF_DECODE &&
            is_gb18030_family_name(outcomes[i].encoding))
            outcomes[i].known_fixes = known_gb18030_2022_fix_decoded(
                outcomes[i].output.data, outcomes[i].output.len,
                cases[i].flags & DIFF_FLAG_UTF16);
        if (ok && cases[i].kind == DIFF_DECODE &&
            strcmp(outcomes[i].encoding, "ISO-2022-JP") == 0)
            outcomes[i].known_fixes += known_iso_2022_jp_fix_errors(
                cases[i].input.data, cases[i].input.len, outcomes[i].errors,
                outcomes[i].error_count);
        if (ok && cases[i].kind == DIFF_ENCODE &&
            known_gb18030_2022_applies(cases[i].id)) {
            diff_bytes copy = {0};
            bytes_append(&copy, cases[i].input.data, cases[i].input.len);
            outcomes[i].known_fixes = known_gb18030_2022_fix_encoder_input(
                copy.data, copy.len, cases[i].flags & DIFF_FLAG_UTF16);
            bytes_free(&copy);
        }
    }
    if (ok && r.left != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "diff: malformed oracle response %s\n", job->response_path);
    bytes_free(&response);
    remove(job->request_path);
    remove(job->response_path);
    return ok;
}

/*
 * tools/insn-count/insn_driver.c — runs one conversion job RUNS times, for
 * counting its instructions under qemu-user (run.sh, with
 * insn_count_plugin.so). Built for the target (aarch64) and linked with
 * libwenc.a; with --ers LIB it runs encoding_rs instead, through the C-ABI
 * shim of bench/peers/ers loaded with dlopen.
 *
 *   insn_driver [--ers LIB] [--max BYTES] JOB LABEL FILE RUNS
 *
 * JOB is decode-utf8, decode-utf16, encode-utf8 or encode-utf16, with the
 * calls and inputs of the same rows of bench/peers/peers.c: every call
 * looks LABEL up and makes a new decoder (BOM sniffing, replacement) or
 * encoder (html errors). FILE is UTF-8 text, of which the first BYTES
 * (default 262144, cut back to a character's start) are used. A decoder's
 * input is that text in LABEL: as it is for UTF-8, in UTF-16LE for
 * UTF-16LE, otherwise encoded by wenc (html mode, as peers.c makes its
 * legacy inputs). An encoder's input is the text (encode-utf8) or its
 * UTF-16 (encode-utf16).
 *
 * Everything but the RUNS calls is the same whatever RUNS is, so the
 * difference of two counts is the calls' own instructions. Prints one
 * line: "bytes B out O fnv H impl NAME" (B: input bytes of one call, O:
 * output bytes, H: FNV-1a of the output, so that run.sh can check that
 * both implementations wrote the same). Exit status 0, or 1 with a message.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wenc.h>

typedef enum job { DECODE_UTF8, DECODE_UTF16, ENCODE_UTF8, ENCODE_UTF16 } job;

static const char *const job_names[] = {"decode-utf8", "decode-utf16",
                                        "encode-utf8", "encode-utf16"};

/* bench/peers/ers: output length, or SIZE_MAX on failure */
typedef size_t (*ers_fn)(const uint8_t *label, size_t label_len,
                         const uint8_t *src, size_t src_len, uint8_t *dst,
                         size_t dst_cap, int utf16);

typedef struct ers_api {
    const char *(*version)(void);
    ers_fn decode, encode;
} ers_api;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "insn_driver: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    exit(1);
}

static void *need(void *p)
{
    if (!p)
        die("out of memory", NULL);
    return p;
}

/* The first max bytes of path, cut back to the start of a character. */
static uint8_t *read_text(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open", path);
    uint8_t *buf = need(malloc(max + 1));
    size_t n = fread(buf, 1, max + 1, f);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed)
        die("cannot read", path);
    if (n > max) {
        n = max;
        while (n > 0 && (buf[n] & 0xC0) == 0x80)
            n--;
    }
    *len = n;
    return buf;
}

static uint16_t *to_utf16(const uint8_t *text, size_t n, size_t *units)
{
    uint16_t *u = need(malloc(2 * n + 2));
    wenc_decoder dec;
    size_t in = n, out = n + 1;
    if (!wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP,
                           WENC_ERRORS_REPLACEMENT) ||
        wenc_decode_to_utf16(&dec, text, &in, u, &out, true) != WENC_INPUT_EMPTY)
        die("cannot convert the text to UTF-16", NULL);
    *units = out;
    return u;
}

static void get_symbol(void *lib, const char *name, void *fn, size_t size)
{
    void *sym = dlsym(lib, name);
    if (!sym)
        die("the library lacks", name);
    memcpy(fn, &sym, size); /* an object pointer to a function pointer */
}

/* One call of wenc; len is in bytes, or in units for ENCODE_UTF16. */
static size_t run_wenc(job j, const char *label, const uint8_t *in, size_t len,
                       uint8_t *dst, size_t cap)
{
    wenc_id id = wenc_lookup(label, strlen(label));
    size_t src = len, out = cap;
    wenc_status st;
    if (j == DECODE_UTF8 || j == DECODE_UTF16) {
        wenc_decoder dec;
        if (!wenc_decoder_init(&dec, id, WENC_BOM_SNIFF, WENC_ERRORS_REPLACEMENT))
            return SIZE_MAX;
        st = j == DECODE_UTF8
                 ? wenc_decode_to_utf8(&dec, in, &src, dst, &out, true)
                 : wenc_decode_to_utf16(&dec, in, &src, (uint16_t *)(void *)dst,
                                        &out, true);
    } else {
        wenc_encoder enc;
        if (!wenc_encoder_init(&enc, id, WENC_ERRORS_HTML))
            return SIZE_MAX;
        st = j == ENCODE_UTF8
                 ? wenc_encode_from_utf8(&enc, in, &src, dst, &out, true)
                 : wenc_encode_from_utf16(&enc, (const uint16_t *)(const void *)in,
                                          &src, dst, &out, true);
    }
    return st == WENC_INPUT_EMPTY ? out : SIZE_MAX;
}

int main(int argc, char **argv)
{
    const char *ers_path = NULL;
    size_t max = 262144;
    int a = 1;
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (strcmp(argv[a], "--ers") == 0)
            ers_path = argv[a + 1];
        else if (strcmp(argv[a], "--max") == 0)
            max = strtoull(argv[a + 1], NULL, 10);
        else
            break;
    }
    if (argc - a != 4 || max == 0) {
        fprintf(stderr, "usage: insn_driver [--ers LIB] [--max BYTES] "
                        "decode-utf8|decode-utf16|encode-utf8|encode-utf16 "
                        "LABEL FILE RUNS\n");
        return 1;
    }
    job j = DECODE_UTF8;
    while (strcmp(argv[a], job_names[j]) != 0)
        if (++j > ENCODE_UTF16)
            die("unknown job", argv[a]);
    const char *label = argv[a + 1];
    wenc_id id = wenc_lookup(label, strlen(label));
    if (id == WENC_INVALID || !wenc_is_built_in(id))
        die("not a label of an encoding built into this libwenc", label);
    long runs = strtol(argv[a + 3], NULL, 10);
    if (runs < 1)
        die("RUNS must be 1 or more", argv[a + 3]);

    ers_api ers = {0};
    if (ers_path) {
        void *lib = dlopen(ers_path, RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            die("dlopen", dlerror());
        get_symbol(lib, "ers_version", &ers.version, sizeof ers.version);
        get_symbol(lib, "ers_decode", &ers.decode, sizeof ers.decode);
        get_symbol(lib, "ers_encode", &ers.encode, sizeof ers.encode);
    }

    /* the input of one call: in_len bytes, of which units UTF-16 units */
    size_t text_len, units = 0;
    uint8_t *text = read_text(argv[a + 2], max, &text_len);
    const uint8_t *in = text;
    size_t in_len = text_len;
    void *made = NULL;
    bool decode = j == DECODE_UTF8 || j == DECODE_UTF16;
    if (j == ENCODE_UTF16 || (decode && id == WENC_UTF_16LE)) {
        made = to_utf16(text, text_len, &units);
        in = made;
        in_len = 2 * units;
    } else if (decode && id != WENC_UTF_8) {
        uint8_t *bytes;
        if (wenc_hook_encode(text, text_len, id, &bytes, &in_len) != WENC_OK)
            die("cannot encode the text to", label);
        made = bytes;
        in = bytes;
    }

    size_t cap = 12 * in_len + 64; /* as peers.c: enough for every job */
    uint8_t *dst = need(malloc(cap));
    size_t out = 0;
    size_t len = j == ENCODE_UTF16 ? units : in_len;
    for (long r = 0; r < runs; r++) {
        const uint8_t *l = (const uint8_t *)label;
        size_t n = strlen(label);
        if (!ers_path)
            out = run_wenc(j, label, in, len, dst, cap);
        else if (decode)
            out = ers.decode(l, n, in, len, dst, cap, j == DECODE_UTF16);
        else
            out = ers.encode(l, n, in, len, dst, cap, j == ENCODE_UTF16);
        if (out == SIZE_MAX)
            die("the conversion failed", label);
    }

    size_t out_bytes = j == DECODE_UTF16 ? 2 * out : out;
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < out_bytes; i++)
        hash = (hash ^ dst[i]) * 0x100000001b3u;
    printf("bytes %zu out %zu fnv %016llx impl %s\n", in_len, out_bytes,
           (unsigned long long)hash,
           ers_path ? ers.version() : wenc_version());
    free(dst);
    free(made);
    free(text);
    return 0;
}

/*
 * bench/peers/peers.c — wenc against the libraries users pick instead, in
 * one process, on the same bytes: encoding_rs (each --peer: a build of
 * bench/peers/ers, loaded with dlopen), ICU (when built with
 * WENC_BENCH_ICU), glibc iconv, and memcpy as the ceiling; and simdutf
 * (--limit: a shared build of its amalgamation, loaded with dlopen, named
 * by --limit-name) as the speed limit of the UTF jobs it shares with wenc
 * over valid input: UTF-8 validation and copy, UTF-8 to UTF-16, UTF-16 to
 * UTF-8 with lone surrogates replaced, UTF-16 made well-formed. simdutf has
 * no U+FFFD replacement for malformed UTF-8, so it is a limit, not a peer:
 * it is left out of "best peer" and has a ratio column of its own.
 * bench/peers/run.sh builds it; `make bench` runs that.
 *
 *   peers --corpus DIR [--peer LIB]... [--limit LIB --limit-name NAME]
 *         [--rounds N] [--ms N] [--rows TEXT] [--check]
 *
 * Rows: decoding to UTF-8 and to UTF-16 and encoding from UTF-8 and from
 * UTF-16, on the corpus's text in UTF-8 and UTF-16LE (every language) and
 * in the legacy encodings that fit each language (made from the corpus by
 * wenc's encoder, html mode), and small inputs (16, 64, 256 bytes, ASCII
 * and Japanese) as nanoseconds per call. Every call looks the label up and
 * makes a new decoder or encoder, as a caller with one input would.
 *
 * Each row runs every implementation in each of --rounds rounds (default
 * 5; the order rotates), each for about --ms milliseconds (default 20), and
 * takes the median. MB/s are 10^6 bytes of input per second. The ratio is
 * wenc over the best peer (encoding_rs, ICU, iconv; never memcpy); above 1
 * wenc is faster.
 *
 * Outputs: encoding_rs's, and simdutf's on its jobs, must equal wenc's byte
 * for byte (a row where they differ is marked, with the first differing
 * offset); ICU's and iconv's
 * tables differ from the Standard, so their output is not compared. --check
 * runs each row once, compares, prints nothing but differences and a
 * summary, and exits 1 on a difference (CI runs it; it times nothing).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef WENC_BENCH_ICU
#include <unicode/ucnv.h>
#include <unicode/uversion.h>
#endif

#include <wenc.h>

#include "../bench_util.h"

enum { MAX_PEERS = 2, MAX_IMPLS = 7, MAX_ROWS = 400 };

typedef enum op { DECODE_UTF8, DECODE_UTF16, ENCODE_UTF8, ENCODE_UTF16 } op;

static const char *const op_names[] = {"decode -> UTF-8", "decode -> UTF-16",
                                       "encode UTF-8 ->", "encode UTF-16 ->"};

typedef struct row {
    char name[96];
    op op;
    const char *label, *icu_name, *iconv_name;
    const uint8_t *in; /* bytes, or UTF-16 units for ENCODE_UTF16 */
    size_t in_len;     /* bytes of input (for MB/s) */
    size_t units;      /* ENCODE_UTF16: units */
    bool small;        /* report ns per call */
} row;

typedef size_t (*ers_fn)(const uint8_t *label, size_t label_len,
                         const uint8_t *src, size_t src_len, uint8_t *dst,
                         size_t dst_cap, int utf16);

typedef struct peer {
    const char *(*version)(void);
    ers_fn decode, encode;
    char name[96];
} peer;

/* simdutf's C API, the functions of the jobs it shares with wenc */
typedef struct simdutf_api {
    bool (*validate_utf8)(const char *buf, size_t len);
    size_t (*utf8_to_utf16le)(const char *in, size_t len, uint16_t *out);
    size_t (*utf16le_to_utf8)(const uint16_t *in, size_t len, char *out);
    void (*well_formed_utf16le)(const uint16_t *in, size_t len, uint16_t *out);
} simdutf_api;

typedef enum impl_kind {
    IMPL_WENC, IMPL_ERS, IMPL_ICU, IMPL_ICONV, IMPL_MEMCPY, IMPL_SIMDUTF
} impl_kind;

typedef struct impl {
    impl_kind kind;
    const peer *peer;
    const simdutf_api *simdutf;
    char name[96];
} impl;

/* Whether an implementation is one of the peers wenc is ranked against. */
static bool is_peer(impl_kind kind)
{
    return kind != IMPL_WENC && kind != IMPL_MEMCPY && kind != IMPL_SIMDUTF;
}

/* ---- the implementations: one call each; returns the output length in
 * bytes (or units for UTF-16 output), SIZE_MAX when it cannot ---------- */

static size_t run_wenc(const row *r, uint8_t *dst, size_t cap)
{
    wenc_id id = wenc_lookup(r->label, strlen(r->label));
    size_t in = r->op == ENCODE_UTF16 ? r->units : r->in_len, out = cap;
    if (r->op == DECODE_UTF8 || r->op == DECODE_UTF16) {
        wenc_decoder dec;
        if (!wenc_decoder_init(&dec, id, WENC_BOM_SNIFF, WENC_ERRORS_REPLACEMENT))
            return SIZE_MAX;
        wenc_status st = r->op == DECODE_UTF8
            ? wenc_decode_to_utf8(&dec, r->in, &in, dst, &out, true)
            : wenc_decode_to_utf16(&dec, r->in, &in, (uint16_t *)(void *)dst,
                                   &out, true);
        return st == WENC_INPUT_EMPTY ? out : SIZE_MAX;
    }
    wenc_encoder enc;
    if (!wenc_encoder_init(&enc, id, WENC_ERRORS_HTML))
        return SIZE_MAX;
    wenc_status st = r->op == ENCODE_UTF8
        ? wenc_encode_from_utf8(&enc, r->in, &in, dst, &out, true)
        : wenc_encode_from_utf16(&enc, (const uint16_t *)(const void *)r->in,
                                 &in, dst, &out, true);
    return st == WENC_INPUT_EMPTY ? out : SIZE_MAX;
}

static size_t run_ers(const peer *p, const row *r, uint8_t *dst, size_t cap)
{
    const uint8_t *label = (const uint8_t *)r->label;
    size_t n = strlen(r->label);
    switch (r->op) {
    case DECODE_UTF8:
        return p->decode(label, n, r->in, r->in_len, dst, cap, 0);
    case DECODE_UTF16:
        return p->decode(label, n, r->in, r->in_len, dst, cap, 1);
    case ENCODE_UTF8:
        return p->encode(label, n, r->in, r->in_len, dst, cap, 0);
    case ENCODE_UTF16:
        return p->encode(label, n, r->in, r->units, dst, cap, 1);
    }
    return SIZE_MAX;
}

#ifdef WENC_BENCH_ICU
static size_t run_icu(const row *r, uint8_t *dst, size_t cap)
{
    UErrorCode err = U_ZERO_ERROR;
    UConverter *cnv = ucnv_open(r->icu_name, &err);
    if (U_FAILURE(err))
        return SIZE_MAX;
    int32_t n = 0;
    const char *src = (const char *)r->in;
    switch (r->op) {
    case DECODE_UTF8:
        n = ucnv_toAlgorithmic(UCNV_UTF8, cnv, (char *)dst, (int32_t)cap, src,
                               (int32_t)r->in_len, &err);
        break;
    case DECODE_UTF16:
        n = ucnv_toUChars(cnv, (UChar *)(void *)dst, (int32_t)cap, src,
                          (int32_t)r->in_len, &err);
        break;
    case ENCODE_UTF8:
        n = ucnv_fromAlgorithmic(cnv, UCNV_UTF8, (char *)dst, (int32_t)cap, src,
                                 (int32_t)r->in_len, &err);
        break;
    case ENCODE_UTF16:
        n = ucnv_fromUChars(cnv, (char *)dst, (int32_t)cap,
                            (const UChar *)(const void *)r->in,
                            (int32_t)r->units, &err);
        break;
    }
    ucnv_close(cnv);
    return U_FAILURE(err) ? SIZE_MAX : (size_t)n;
}
#endif

static size_t run_iconv(const row *r, uint8_t *dst, size_t cap)
{
    bool decode = r->op == DECODE_UTF8 || r->op == DECODE_UTF16;
    const char *utf = r->op == DECODE_UTF8 || r->op == ENCODE_UTF8 ? "UTF-8"
                                                                   : "UTF-16LE";
    iconv_t cd = decode ? iconv_open(utf, r->iconv_name)
                        : iconv_open(r->iconv_name, utf);
    if (cd == (iconv_t)-1)
        return SIZE_MAX;
    char *in = (char *)(uintptr_t)r->in, *out = (char *)dst;
    size_t in_left = r->in_len, out_left = cap;
    size_t result = iconv(cd, &in, &in_left, &out, &out_left);
    iconv_close(cd);
    if (result == (size_t)-1)
        return SIZE_MAX; /* an unmappable or malformed input: n/a */
    size_t n = cap - out_left;
    return r->op == DECODE_UTF16 ? n / 2 : n;
}

/* simdutf on the rows whose job it has (their input is valid); SIZE_MAX on
 * the others, and for input it finds invalid. The output buffer is large
 * enough for any of them, as simdutf asks its caller to ensure. */
static size_t run_simdutf(const simdutf_api *s, const row *r, uint8_t *dst)
{
    bool from_utf8 = strcmp(r->label, "UTF-8") == 0;
    bool from_utf16 = strcmp(r->label, "UTF-16LE") == 0;
    const uint16_t *units = (const uint16_t *)(const void *)r->in;
    switch (r->op) {
    case DECODE_UTF8:
        if (from_utf8) {
            if (!s->validate_utf8((const char *)r->in, r->in_len))
                return SIZE_MAX;
            memcpy(dst, r->in, r->in_len);
            return r->in_len;
        }
        if (from_utf16)
            return s->utf16le_to_utf8(units, r->in_len / 2, (char *)dst);
        return SIZE_MAX;
    case DECODE_UTF16:
        if (from_utf8) {
            size_t n = s->utf8_to_utf16le((const char *)r->in, r->in_len,
                                          (uint16_t *)(void *)dst);
            return n == 0 && r->in_len > 0 ? SIZE_MAX : n;
        }
        if (from_utf16) {
            s->well_formed_utf16le(units, r->in_len / 2, (uint16_t *)(void *)dst);
            return r->in_len / 2;
        }
        return SIZE_MAX;
    case ENCODE_UTF16:
        return from_utf8 ? s->utf16le_to_utf8(units, r->units, (char *)dst) : SIZE_MAX;
    case ENCODE_UTF8:
        return SIZE_MAX;
    }
    return SIZE_MAX;
}

static size_t run_impl(const impl *m, const row *r, uint8_t *dst, size_t cap)
{
    switch (m->kind) {
    case IMPL_WENC:
        return run_wenc(r, dst, cap);
    case IMPL_ERS:
        return run_ers(m->peer, r, dst, cap);
    case IMPL_ICU:
#ifdef WENC_BENCH_ICU
        return run_icu(r, dst, cap);
#else
        return SIZE_MAX;
#endif
    case IMPL_ICONV:
        return run_iconv(r, dst, cap);
    case IMPL_MEMCPY:
        memcpy(dst, r->in, r->in_len);
        return r->in_len;
    case IMPL_SIMDUTF:
        return run_simdutf(m->simdutf, r, dst);
    }
    return SIZE_MAX;
}

/* Seconds per call: calls repeated for about `ms` milliseconds. */
static double time_impl(const impl *m, const row *r, uint8_t *dst, size_t cap,
                        double ms)
{
    size_t calls = 0;
    double start = now(), elapsed;
    do {
        for (int i = 0; i < 16; i++)
            if (run_impl(m, r, dst, cap) == SIZE_MAX)
                return 0;
        calls += 16;
        elapsed = now() - start;
    } while (elapsed < ms / 1000.0);
    return elapsed / (double)calls;
}

/* ---- inputs ------------------------------------------------------------- */

typedef struct inputs {
    row rows[MAX_ROWS];
    size_t count;
    void *owned[MAX_ROWS * 2];
    size_t owned_count;
} inputs;

static void *keep(inputs *in, void *p)
{
    if (!p) {
        fprintf(stderr, "peers: out of memory\n");
        exit(2);
    }
    in->owned[in->owned_count++] = p;
    return p;
}

static row *add_row(inputs *in, const char *what, op o, const char *label,
                    const char *icu, const char *iconv_name, const uint8_t *p,
                    size_t len, size_t units, bool small)
{
    if (in->count == MAX_ROWS) {
        fprintf(stderr, "peers: more than %d rows\n", MAX_ROWS);
        exit(2);
    }
    row *r = &in->rows[in->count++];
    snprintf(r->name, sizeof r->name, "%s %s, %s", op_names[o], label, what);
    r->op = o;
    r->label = label;
    r->icu_name = icu;
    r->iconv_name = iconv_name;
    r->in = p;
    r->in_len = len;
    r->units = units;
    r->small = small;
    return r;
}

/* text (UTF-8) in UTF-16 units, made by wenc (the corpus is valid UTF-8) */
static uint16_t *to_units(inputs *in, const uint8_t *text, size_t n,
                          size_t *units)
{
    uint16_t *u = keep(in, malloc(2 * n + 2));
    wenc_decoder dec;
    wenc_decoder_init(&dec, WENC_UTF_8, WENC_BOM_KEEP, WENC_ERRORS_REPLACEMENT);
    size_t src = n, dst = n + 1;
    wenc_decode_to_utf16(&dec, text, &src, u, &dst, true);
    *units = dst;
    return u;
}

static uint8_t *to_legacy(inputs *in, const char *label, const uint8_t *text,
                          size_t n, size_t *len)
{
    uint8_t *out = NULL;
    size_t out_len = 0;
    wenc_id id = wenc_lookup(label, strlen(label));
    if (wenc_hook_encode(text, n, id, &out, &out_len) != WENC_OK) {
        fprintf(stderr, "peers: cannot encode to %s\n", label);
        exit(2);
    }
    *len = out_len;
    return keep(in, out);
}

typedef struct legacy {
    const char *label, *icu, *iconv_name, *file;
} legacy;

static const legacy legacy_rows[] = {
    {"Shift_JIS", "Shift_JIS", "SHIFT_JIS", "ja.txt"},
    {"EUC-JP", "EUC-JP", "EUC-JP", "ja.txt"},
    {"ISO-2022-JP", "ISO-2022-JP", "ISO-2022-JP", "ja.txt"},
    {"gb18030", "gb18030", "GB18030", "zh_cn.txt"},
    {"GBK", "GBK", "GBK", "zh_cn.txt"},
    {"Big5", "Big5", "BIG5", "zh_tw.txt"},
    {"EUC-KR", "EUC-KR", "EUC-KR", "ko.txt"},
    {"windows-1251", "windows-1251", "CP1251", "ru.txt"},
    {"KOI8-R", "KOI8-R", "KOI8-R", "ru.txt"},
    {"ISO-8859-7", "ISO-8859-7", "ISO-8859-7", "el.txt"},
    {"windows-1253", "windows-1253", "CP1253", "el.txt"},
    {"windows-1256", "windows-1256", "CP1256", "ar.txt"},
    {"windows-1255", "windows-1255", "CP1255", "he.txt"},
    {"windows-874", "windows-874", "CP874", "th.txt"},
    {"ISO-8859-2", "ISO-8859-2", "ISO-8859-2", "cs.txt"},
    {"windows-1250", "windows-1250", "CP1250", "cs.txt"},
    {"windows-1254", "windows-1254", "CP1254", "tr.txt"},
    {"windows-1258", "windows-1258", "CP1258", "vi.txt"},
    {"windows-1252", "windows-1252", "CP1252", "fr.txt"},
    {"windows-1252", "windows-1252", "CP1252", "de.txt"},
    {"windows-1252", "windows-1252", "CP1252", "en.html"},
};

static const char *const utf_files[] = {
    "ar.txt", "cs.txt", "de.txt", "el.txt", "en.txt", "fr.txt", "he.txt",
    "ja.txt", "ko.txt", "pt.txt", "ru.txt", "th.txt", "tr.txt", "vi.txt",
    "zh_cn.txt", "zh_tw.txt", "en.html", "ja.html", "ru.html"};

static const uint8_t *load(inputs *in, const char *dir, const char *file,
                           size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    uint8_t *p = read_file(path, len);
    if (!p) {
        fprintf(stderr, "peers: cannot read %s\n", path);
        exit(2);
    }
    return keep(in, p);
}

static void make_rows(inputs *in, const char *corpus)
{
    for (size_t f = 0; f < sizeof utf_files / sizeof utf_files[0]; f++) {
        size_t n, units;
        const uint8_t *text = load(in, corpus, utf_files[f], &n);
        const uint16_t *u = to_units(in, text, n, &units);
        const char *file = utf_files[f];
        add_row(in, file, DECODE_UTF8, "UTF-8", "UTF-8", "UTF-8", text, n, 0, false);
        add_row(in, file, DECODE_UTF16, "UTF-8", "UTF-8", "UTF-8", text, n, 0, false);
        add_row(in, file, DECODE_UTF16, "UTF-16LE", "UTF-16LE", "UTF-16LE",
                (const uint8_t *)u, 2 * units, 0, false);
        add_row(in, file, DECODE_UTF8, "UTF-16LE", "UTF-16LE", "UTF-16LE",
                (const uint8_t *)u, 2 * units, 0, false);
        add_row(in, file, ENCODE_UTF16, "UTF-8", "UTF-8", "UTF-8",
                (const uint8_t *)u, 2 * units, units, false);
    }
    for (size_t l = 0; l < sizeof legacy_rows / sizeof legacy_rows[0]; l++) {
        const legacy *g = &legacy_rows[l];
        size_t n, units, len;
        if (!wenc_is_built_in(wenc_lookup(g->label, strlen(g->label)))) {
            printf("(%s %s: not built into this libwenc, its rows left out)\n",
                   g->label, g->file);
            continue;
        }
        const uint8_t *text = load(in, corpus, g->file, &n);
        const uint16_t *u = to_units(in, text, n, &units);
        const uint8_t *bytes = to_legacy(in, g->label, text, n, &len);
        add_row(in, g->file, DECODE_UTF8, g->label, g->icu, g->iconv_name, bytes,
                len, 0, false);
        add_row(in, g->file, DECODE_UTF16, g->label, g->icu, g->iconv_name,
                bytes, len, 0, false);
        add_row(in, g->file, ENCODE_UTF8, g->label, g->icu, g->iconv_name, text,
                n, 0, false);
        add_row(in, g->file, ENCODE_UTF16, g->label, g->icu, g->iconv_name,
                (const uint8_t *)u, 2 * units, units, false);
    }
    /* small calls: the start of en.txt (ASCII) and of ja.txt's first
     * Japanese text, cut at a character's end */
    size_t en_len, ja_len;
    const uint8_t *en = load(in, corpus, "en.txt", &en_len);
    const uint8_t *ja = load(in, corpus, "ja.txt", &ja_len);
    size_t ja_start = 0;
    while (ja_start < ja_len && ja[ja_start] < 0x80)
        ja_start++;
    static const size_t sizes[] = {16, 64, 256};
    for (size_t s = 0; s < 3; s++) {
        for (int kind = 0; kind < 2; kind++) {
            const uint8_t *text = kind ? ja + ja_start : en;
            size_t n = sizes[s];
            while (n > 0 && (text[n] & 0xC0) == 0x80)
                n--; /* whole characters */
            char what[64];
            snprintf(what, sizeof what, "%zu bytes of %s", n,
                     kind ? "Japanese" : "ASCII");
            char *name = keep(in, malloc(strlen(what) + 1));
            memcpy(name, what, strlen(what) + 1);
            size_t units;
            const uint16_t *u = to_units(in, text, n, &units);
            add_row(in, name, DECODE_UTF16, "UTF-8", "UTF-8", "UTF-8", text, n,
                    0, true);
            add_row(in, name, ENCODE_UTF16, "UTF-8", "UTF-8", "UTF-8",
                    (const uint8_t *)u, 2 * units, units, true);
        }
    }
}

/* ---- comparison ------------------------------------------------------------ */

/* The known differences of encoding_rs from the Standard's current index
 * (tests/diff/known_differences.c): the 18 code points GB18030-2022 moved,
 * which only gb18030 and GBK rows can show. */
static bool known_difference(const row *r)
{
    return strcmp(r->label, "gb18030") == 0 || strcmp(r->label, "GBK") == 0;
}

static size_t out_bytes(const row *r, size_t n)
{
    return r->op == DECODE_UTF16 ? 2 * n : n;
}

/* ---- the machine ----------------------------------------------------------- */

static void print_machine(int argc, char **argv, const impl *impls, size_t n)
{
    char model[256] = "unknown", flags[8192] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[8192];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0 && strcmp(model, "unknown") == 0) {
                char *v = strchr(line, ':');
                if (v)
                    snprintf(model, sizeof model, "%.200s", v + 2);
            }
            if (strncmp(line, "flags", 5) == 0 && !flags[0])
                snprintf(flags, sizeof flags, "%s", line);
        }
        fclose(f);
    }
    model[strcspn(model, "\n")] = 0;
    printf("Machine: %s; SIMD:", model);
    static const char *const wanted[] = {" sse4_2", " avx2", " avx512bw",
                                         " avx512vbmi ", " avx512_vbmi2"};
    for (size_t i = 0; i < 5; i++)
        if (strstr(flags, wanted[i]))
            printf(" %.*s", (int)strcspn(wanted[i] + 1, " "), wanted[i] + 1);
    time_t t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    printf("\nDate: %s. Compiler: %s. wenc %s.\n", date,
#ifdef __VERSION__
           __VERSION__,
#else
           "unknown",
#endif
           wenc_version());
    printf("Implementations:");
    for (size_t i = 0; i < n; i++)
        printf("%s %s", i ? ";" : "", impls[i].name);
    printf("\nCommand:");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n\n");
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double smallest(const double *v, size_t n)
{
    double least = v[0];
    for (size_t i = 1; i < n; i++)
        if (v[i] < least)
            least = v[i];
    return least;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    const char *corpus = NULL, *only = NULL, *limit_path = NULL, *limit_name = "simdutf";
    const char *peer_paths[MAX_PEERS];
    size_t peer_count = 0;
    int rounds = 5;
    double ms = 20;
    bool check = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc)
            corpus = argv[++i];
        else if (strcmp(argv[i], "--peer") == 0 && i + 1 < argc && peer_count < MAX_PEERS)
            peer_paths[peer_count++] = argv[++i];
        else if (strcmp(argv[i], "--limit") == 0 && i + 1 < argc)
            limit_path = argv[++i];
        else if (strcmp(argv[i], "--limit-name") == 0 && i + 1 < argc)
            limit_name = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--ms") == 0 && i + 1 < argc)
            ms = atof(argv[++i]);
        else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--check") == 0)
            check = true;
        else {
            fprintf(stderr, "usage: peers --corpus DIR [--peer LIB]... [--limit LIB "
                            "--limit-name NAME] [--rounds N] [--ms N] [--rows TEXT] "
                            "[--check]\n");
            return 2;
        }
    }
    if (!corpus || rounds < 1 || rounds > 99 || ms <= 0) {
        fprintf(stderr, "peers: --corpus DIR is needed; --rounds 1..99, --ms > 0\n");
        return 2;
    }

    static peer peers[MAX_PEERS];
    impl impls[MAX_IMPLS];
    size_t n_impls = 0;
    impls[n_impls++] = (impl){IMPL_WENC, NULL, NULL, "wenc"};
    for (size_t p = 0; p < peer_count; p++) {
        void *lib = dlopen(peer_paths[p], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            fprintf(stderr, "peers: %s\n", dlerror());
            return 2;
        }
        peer *e = &peers[p];
        *(void **)&e->version = dlsym(lib, "ers_version");
        *(void **)&e->decode = dlsym(lib, "ers_decode");
        *(void **)&e->encode = dlsym(lib, "ers_encode");
        if (!e->version || !e->decode || !e->encode) {
            fprintf(stderr, "peers: %s lacks the ers_* functions\n", peer_paths[p]);
            return 2;
        }
        impls[n_impls] = (impl){IMPL_ERS, e, NULL, ""};
        snprintf(impls[n_impls].name, sizeof impls[n_impls].name, "%s",
                 e->version());
        n_impls++;
    }
#ifdef WENC_BENCH_ICU
    impls[n_impls] = (impl){IMPL_ICU, NULL, NULL, ""};
    snprintf(impls[n_impls].name, sizeof impls[n_impls].name, "ICU %s",
             U_ICU_VERSION);
    n_impls++;
#endif
    impls[n_impls++] = (impl){IMPL_ICONV, NULL, NULL, "glibc iconv"};
    impls[n_impls++] = (impl){IMPL_MEMCPY, NULL, NULL, "memcpy"};
    static simdutf_api simdutf;
    size_t limit = 0; /* the index of simdutf in impls, when loaded */
    if (limit_path) {
        void *lib = dlopen(limit_path, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            fprintf(stderr, "peers: %s\n", dlerror());
            return 2;
        }
        *(void **)&simdutf.validate_utf8 = dlsym(lib, "simdutf_validate_utf8");
        *(void **)&simdutf.utf8_to_utf16le = dlsym(lib, "simdutf_convert_utf8_to_utf16le");
        *(void **)&simdutf.utf16le_to_utf8 =
            dlsym(lib, "simdutf_convert_utf16le_to_utf8_with_replacement");
        *(void **)&simdutf.well_formed_utf16le = dlsym(lib, "simdutf_to_well_formed_utf16le");
        if (!simdutf.validate_utf8 || !simdutf.utf8_to_utf16le || !simdutf.utf16le_to_utf8 ||
            !simdutf.well_formed_utf16le) {
            fprintf(stderr, "peers: %s lacks simdutf's C functions\n", limit_path);
            return 2;
        }
        limit = n_impls;
        impls[n_impls] = (impl){IMPL_SIMDUTF, NULL, &simdutf, ""};
        snprintf(impls[n_impls].name, sizeof impls[n_impls].name, "%s (limit)", limit_name);
        n_impls++;
    }

    static inputs in;
    make_rows(&in, corpus);
    size_t cap = 0;
    for (size_t i = 0; i < in.count; i++)
        if (12 * in.rows[i].in_len + 64 > cap)
            cap = 12 * in.rows[i].in_len + 64;
    uint8_t *dst = malloc(cap), *want = malloc(cap);
    if (!dst || !want) {
        fprintf(stderr, "peers: out of memory\n");
        return 2;
    }

    if (!check)
        print_machine(argc, argv, impls, n_impls);
    if (!check) {
        printf("| row | input | ");
        for (size_t m = 0; m < n_impls; m++)
            printf("%s | ", impls[m].name);
        printf("wenc / best peer |%s\n|---|---:|", limit ? " wenc / simdutf |" : "");
        for (size_t m = 0; m <= n_impls; m++)
            printf("---:|");
        printf("%s\n", limit ? "---:|" : "");
    }

    double ratios[MAX_ROWS], limit_ratios[MAX_ROWS];
    size_t n_ratios = 0, n_limit_ratios = 0, differences = 0, compared = 0;
    for (size_t i = 0; i < in.count; i++) {
        const row *r = &in.rows[i];
        if (only && !strstr(r->name, only))
            continue;
        /* outputs: encoding_rs's against wenc's */
        size_t wenc_len = run_wenc(r, want, cap);
        char note[128] = "";
        for (size_t m = 0; m < n_impls; m++) {
            if (impls[m].kind != IMPL_ERS && impls[m].kind != IMPL_SIMDUTF)
                continue;
            size_t len = run_impl(&impls[m], r, dst, cap);
            if (impls[m].kind == IMPL_SIMDUTF && len == SIZE_MAX)
                continue; /* not its job */
            compared++;
            size_t a = out_bytes(r, wenc_len), b = out_bytes(r, len);
            if (len == wenc_len && memcmp(dst, want, a) == 0)
                continue;
            size_t at = 0;
            while (len != SIZE_MAX && at < a && at < b && dst[at] == want[at])
                at++;
            if (known_difference(r)) {
                snprintf(note, sizeof note, " (differs from %s at byte %zu: "
                         "GB18030-2022, a known difference)", impls[m].name, at);
                continue;
            }
            differences++;
            snprintf(note, sizeof note, " **(output differs from %s at byte %zu)**",
                     impls[m].name, at);
            if (check)
                printf("DIFFERENCE: %s: %s gives %zu bytes, wenc %zu; first "
                       "difference at byte %zu\n",
                       r->name, impls[m].name, b, a, at);
        }
        if (check)
            continue;

        double secs[MAX_IMPLS][99];
        for (int k = 0; k < rounds; k++)
            for (size_t j = 0; j < n_impls; j++) {
                size_t m = (j + (size_t)k) % n_impls;
                secs[m][k] = time_impl(&impls[m], r, dst, cap, ms);
            }
        double value[MAX_IMPLS], best_peer = 0;
        for (size_t m = 0; m < n_impls; m++) {
            double t = median(secs[m], (size_t)rounds);
            value[m] = t <= 0 ? 0 : r->small ? t * 1e9 : (double)r->in_len / t / 1e6;
            if (t > 0 && is_peer(impls[m].kind)) {
                double speed = 1 / t;
                if (speed > best_peer)
                    best_peer = speed;
            }
        }
        printf("| %s%s | %zu %s | ", r->name, note, r->small ? r->in_len : r->in_len,
               r->small ? "B, ns/call" : "B");
        for (size_t m = 0; m < n_impls; m++) {
            if (value[m] == 0)
                printf("n/a | ");
            else
                printf(r->small ? "%.0f | " : "%.0f | ", value[m]);
        }
        double wenc_speed = value[0] == 0 ? 0 : r->small ? 1e9 / value[0] : value[0];
        double best = r->small ? best_peer
                               : best_peer * (double)r->in_len / 1e6;
        if (value[0] > 0 && best > 0) {
            double ratio = wenc_speed / best;
            ratios[n_ratios++] = ratio;
            printf("%s%.2f%s |", ratio < 1 ? "**" : "", ratio, ratio < 1 ? "**" : "");
        } else {
            printf("n/a |");
        }
        if (limit && value[0] > 0 && value[limit] > 0) {
            /* ns per call for small rows: the lower the faster */
            double ratio = r->small ? value[limit] / value[0] : value[0] / value[limit];
            limit_ratios[n_limit_ratios++] = ratio;
            printf(" %s%.2f%s |", ratio < 0.9 ? "**" : "", ratio, ratio < 0.9 ? "**" : "");
        } else if (limit) {
            printf(" |");
        }
        printf("\n");
        fflush(stdout);
    }
    if (check) {
        printf("peers --check: %zu rows, %zu outputs of encoding_rs%s compared with "
               "wenc's, %zu differences\n",
               in.count, compared, limit ? " and simdutf" : "", differences);
        return differences ? 1 : 0;
    }
    if (n_ratios > 0)
        printf("\nwenc / best peer over %zu rows: worst %.2f, median %.2f\n", n_ratios,
               smallest(ratios, n_ratios), median(ratios, n_ratios));
    if (n_limit_ratios > 0)
        printf("wenc / %s over the %zu rows of its jobs: worst %.2f, median %.2f\n",
               limit_name, n_limit_ratios, smallest(limit_ratios, n_limit_ratios),
               median(limit_ratios, n_limit_ratios));
    for (size_t i = 0; i < in.owned_count; i++)
        free(in.owned[i]);
    free(dst);
    free(want);
    return differences ? 1 : 0;
}

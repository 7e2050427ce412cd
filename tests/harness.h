/*
 * harness.h — the small test harness shared by tests/test_*.c.
 *
 * Checks count into a th struct the test owns (no global state). Helpers read
 * the Standard's data files (indexes, encodings.json) at test time, run
 * wenc's streaming decoders/encoders over whole buffers with arbitrary split
 * points and output capacities (checking the API's contract on every call),
 * and compare results against expectations written by hand in a tiny text
 * notation (see th_expect_parse()).
 *
 * Nothing here computes an expected value with the library under test.
 */
#ifndef WENC_TEST_HARNESS_H
#define WENC_TEST_HARNESS_H

#include "wenc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define TH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TH_PRINTF(f, a)
#endif

/* ---- checks ------------------------------------------------------------ */

typedef struct th {
    const char *name;
    const char *part;        /* th_args(): the part this run runs, or NULL: all */
    unsigned long passed;
    unsigned long failed;
    unsigned long skipped;   /* groups of checks th_skip() skipped */
    unsigned long printed;   /* failure messages printed so far */
    unsigned long max_print; /* stop printing details after this many */
    char ctx[256];           /* context prefixed to failure messages */
} th;

void th_begin(th *t, const char *name);
/* Reads the test's command line: "--part=NAME" runs only that part of the
 * test (th_part()); no argument runs every part. CMake registers a test
 * that has parts once per part, as NAME (the part "core", which needs no
 * data) and NAME_data (the checks against the Standard's data files), so
 * that ctest reports each part on its own. Exits 2 on anything else. */
void th_args(th *t, int argc, char **argv);
/* Whether this run runs part `part` ("core", "data"). */
bool th_part(const th *t, const char *part);
/* Prints "<name>: N checks passed, M failed" (and ", K groups SKIPPED");
 * returns the exit status: 1 when a check failed, else 77 (ctest's
 * "Skipped") when th_skip() skipped anything, so that no skipped check
 * is reported as passed, else 0. */
int th_end(th *t);

/* Why a group of checks cannot run. */
typedef enum th_skip_reason {
    TH_SKIP_CONFIG, /* the library was configured without what it tests */
    TH_SKIP_DATA,   /* a data file is absent (the Standard's, a package's) */
    TH_SKIP_CPU     /* this CPU cannot run the code the checks are for */
} th_skip_reason;

/* Skips a group of checks: prints "<name>: SKIPPED (<reason>): " and `what`
 * (printf-style) and counts it, so th_end() reports the test as skipped.
 * With WENC_TEST_REQUIRE_ALL=1 in the environment (CI, which installs all
 * the data) a TH_SKIP_DATA skip is a failure instead. */
void th_skip(th *t, th_skip_reason why, const char *what, ...) TH_PRINTF(3, 4);
/* Whether WENC_TEST_REQUIRE_ALL=1 is set. */
bool th_require_all(void);

/* Whether the library under test was configured with the legacy multi-byte
 * encodings (WENC_TEST_CJK, which CMake sets from WENC_CJK; 1 when unset).
 * When not, skips (TH_SKIP_CONFIG) the group of checks `what` names and
 * returns false: the caller skips the checks that need them. */
bool th_cjk(th *t, const char *what, ...) TH_PRINTF(2, 3);
/* WENC_TEST_CJK itself, saying nothing. */
bool th_has_cjk(void);
/* Whether id is one of those encodings (GBK to EUC-KR in the Standard's
 * table). */
bool th_is_cjk(wenc_id id);
/* Sets the context string printed with failures (printf-style). */
void th_ctx(th *t, const char *fmt, ...) TH_PRINTF(2, 3);
void th_ctx_clear(th *t);
/* Records one check; on failure prints file:line, the context and the
 * message. Returns cond. */
bool th_check(th *t, bool cond, const char *file, int line, const char *fmt,
              ...) TH_PRINTF(5, 6);
/* Prints a note (not a check), e.g. a SKIPPED line. */
void th_note(th *t, const char *fmt, ...) TH_PRINTF(2, 3);
bool th_check_u64(th *t, const char *file, int line, const char *what,
                  uint64_t expected, uint64_t actual);
bool th_check_bytes(th *t, const char *file, int line, const char *what,
                    const uint8_t *expected, size_t expected_len,
                    const uint8_t *actual, size_t actual_len);
bool th_check_units(th *t, const char *file, int line, const char *what,
                    const uint16_t *expected, size_t expected_len,
                    const uint16_t *actual, size_t actual_len);

#define CHECK(t, cond) \
    th_check((t), (cond) ? true : false, __FILE__, __LINE__, "%s", #cond)
#define CHECKF(t, cond, ...) \
    th_check((t), (cond) ? true : false, __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ(t, what, expected, actual)                          \
    th_check_u64((t), __FILE__, __LINE__, (what), (uint64_t)(expected), \
                 (uint64_t)(actual))
#define CHECK_BYTES(t, what, e, elen, a, alen) \
    th_check_bytes((t), __FILE__, __LINE__, (what), (e), (elen), (a), (alen))
#define CHECK_UNITS(t, what, e, elen, a, alen) \
    th_check_units((t), __FILE__, __LINE__, (what), (e), (elen), (a), (alen))

/* ---- growable buffers ---------------------------------------------------- */

typedef struct th_bytes {
    uint8_t *p;
    size_t len, cap;
} th_bytes;

typedef struct th_units {
    uint16_t *p;
    size_t len, cap;
} th_units;

void th_bytes_put(th_bytes *b, const void *data, size_t n);
void th_bytes_byte(th_bytes *b, uint8_t byte);
void th_bytes_str(th_bytes *b, const char *s);
/* Appends the UTF-8 form of code point cp (written out by hand here). */
void th_bytes_cp(th_bytes *b, uint32_t cp);
void th_bytes_free(th_bytes *b);
void th_units_put(th_units *u, const uint16_t *data, size_t n);
void th_units_unit(th_units *u, uint16_t unit);
/* Appends the UTF-16 form of code point cp. */
void th_units_cp(th_units *u, uint32_t cp);
void th_units_free(th_units *u);

/* The UTF-8 length of cp (1..4). */
size_t th_utf8_len(uint32_t cp);
/* Whether buf is well-formed UTF-8 / UTF-16 (no partial sequence, no lone
 * surrogate). */
bool th_utf8_valid(const uint8_t *p, size_t n);
bool th_utf16_valid(const uint16_t *p, size_t n);

/* Hex text "E0 80 80" of at most max elements (then "..."), into out. */
void th_hex(char *out, size_t out_size, const uint8_t *p, size_t n,
            size_t max);
void th_hex16(char *out, size_t out_size, const uint16_t *p, size_t n,
              size_t max);

/* ---- test inputs in text form ---------------------------------------------
 *
 * A spec is a sequence of space-separated tokens:
 *   hex digits   bytes (pairs of digits: "E0", "E080", "E0 80"), or for
 *                th_parse_units one code unit (1-4 digits: "D83D")
 *   'text'       the ASCII bytes/units of text (no quote inside)
 * Returns false on a malformed spec (a bug in the test).
 */
bool th_parse_bytes(const char *spec, th_bytes *out);
bool th_parse_units(const char *spec, th_units *out);

/* ---- expectations ----------------------------------------------------------
 *
 * Decoder expectation: tokens
 *   hex          a code point ("41", "FFFD", "1F600")
 *   'text'       the code points of the ASCII text
 *   !OFF+LEN     an error: malformed sequence of LEN bytes at stream offset
 *                OFF (hex-free decimal numbers); U+FFFD in replacement mode,
 *                WENC_ERROR in fatal mode
 * Encoder expectation: tokens
 *   hex          output bytes ("E282AC", "E2 82 AC")
 *   'text'       output ASCII bytes
 *   !CP@OFF+LEN  an unmappable code point CP (hex) whose input starts at
 *                unit offset OFF and spans LEN units (decimal); "&#N;" in
 *                html mode, WENC_ERROR in fatal mode
 */
#define TH_ERR_FLAG 0x80000000u

typedef struct th_xerr {
    uint64_t offset;
    size_t length;
    uint32_t code_point; /* encoder expectations only */
} th_xerr;

typedef struct th_expect {
    uint32_t *items; /* code points / bytes, or TH_ERR_FLAG | error index */
    size_t n, cap;
    th_xerr *errs;
    size_t nerr, errcap;
} th_expect;

bool th_expect_parse_decode(th_expect *x, const char *spec);
bool th_expect_parse_encode(th_expect *x, const char *spec);
void th_expect_free(th_expect *x);

/* ---- the Standard's data ------------------------------------------------------ */

/* $WENC_DATA_DIR, or "../shared/whatwg" when unset. */
const char *th_data_dir(void);
/* Reads a whole file (malloc'd; NULL on failure). */
uint8_t *th_read_file(const char *path, size_t *len);
/* Reads file `name` of the data dir. */
uint8_t *th_read_data_file(const char *name, size_t *len);

#define TH_NO_CP 0xFFFFFFFFu

/* An index: pointer -> code point (TH_NO_CP where absent). */
typedef struct th_index {
    uint32_t *cp;
    size_t size;  /* highest pointer + 1 */
    size_t count; /* number of entries */
} th_index;

/* Loads index file `name` (e.g. "index-koi8-u.txt") from the data dir, in
 * the Standard's format. Returns false if absent or malformed. */
bool th_index_load(th_index *ix, const char *name);
void th_index_free(th_index *ix);
uint32_t th_index_cp(const th_index *ix, size_t pointer);
/* The first pointer whose code point is cp, or -1. */
long th_index_pointer(const th_index *ix, uint32_t cp);

typedef struct th_label {
    char name[32];  /* the encoding's name */
    char label[64]; /* one of its labels */
} th_label;

typedef struct th_labels {
    th_label *items; /* every label, in file order */
    size_t count;
    char (*names)[32]; /* every encoding name, in file order */
    size_t name_count;
} th_labels;

/* Parses encodings.json from the data dir (a small parser for that file's
 * shape: objects with a "name" string and a "labels" string array). */
bool th_labels_load(th_labels *l);
void th_labels_free(th_labels *l);

/* ---- PRNG (splitmix64, fixed seeds) ----------------------------------------- */

typedef struct th_rng {
    uint64_t state;
} th_rng;

void th_rng_seed(th_rng *r, uint64_t seed);
uint64_t th_rng_next(th_rng *r);
/* Uniform in [0, n); n > 0. */
size_t th_rng_below(th_rng *r, size_t n);
/* Fills splits[] with a sorted random list of split points in [0, n]
 * (repeats allowed: empty chunks) and returns how many (<= max). */
size_t th_random_splits(th_rng *r, size_t n, size_t *splits, size_t max);

/* ---- streaming drivers ----------------------------------------------------------
 *
 * The input is cut into chunks at the split points: splits s1 <= s2 <= ...
 * <= sk give chunks [0,s1) [s1,s2) ... [sk,n), the last one with last=true.
 * capacity 0: each call gets exactly the max-length helper's value as its
 * output capacity; capacity c > 0: each call gets c, plus one more for every
 * preceding call that returned WENC_OUTPUT_FULL with no progress (reset
 * after progress).
 *
 * Every call is checked against the API contract; the first violation is
 * described in `problem` (empty when none):
 *   consumed <= given, written <= capacity, written <= helper value,
 *   WENC_INPUT_EMPTY consumes everything, no WENC_OUTPUT_FULL when the
 *   capacity is at least the helper value, progress whenever the capacity
 *   is at least 4 bytes / 2 units, WENC_ERROR only in fatal mode and with
 *   error details whose offset+length <= bytes consumed so far, decoder
 *   output of every call well-formed on its own.
 */
typedef struct th_derr {
    uint64_t offset;
    size_t length;
    uint8_t bytes[WENC_MAX_MALFORMED];
    uint64_t position; /* stream bytes consumed when WENC_ERROR returned */
    size_t out_pos;    /* output units written before the error */
} th_derr;

typedef struct th_dec_opts {
    wenc_id id;
    wenc_bom_mode bom;
    wenc_error_mode err;
    bool utf16;
    const size_t *splits;
    size_t n_splits;
    size_t capacity;
} th_dec_opts;

typedef struct th_dec_result {
    th_bytes out8;
    th_units out16;
    th_derr *errors;
    size_t n_errors, errors_cap;
    wenc_id encoding; /* wenc_decoder_encoding() at the end */
    unsigned long calls;
    char problem[320];
} th_dec_result;

bool th_decode(const th_dec_opts *o, const uint8_t *src, size_t n,
               th_dec_result *r);
void th_dec_result_free(th_dec_result *r);

typedef struct th_eerr {
    uint32_t code_point;
    uint64_t offset;
    size_t length;
    uint64_t position; /* input units consumed when WENC_ERROR returned */
    size_t out_pos;    /* output bytes written before the error */
} th_eerr;

typedef struct th_enc_opts {
    wenc_id id;
    wenc_error_mode err;
    bool from_utf16;
    const size_t *splits;
    size_t n_splits;
    size_t capacity;
} th_enc_opts;

typedef struct th_enc_result {
    th_bytes out;
    th_eerr *errors;
    size_t n_errors, errors_cap;
    wenc_id encoding; /* wenc_encoder_encoding() */
    unsigned long calls;
    char problem[320];
} th_enc_result;

/* src: bytes (from UTF-8) or uint16_t units (from UTF-16); n in units. */
bool th_encode(const th_enc_opts *o, const void *src, size_t n,
               th_enc_result *r);
void th_enc_result_free(th_enc_result *r);

/* ---- comparisons ----------------------------------------------------------- */

/* Checks a decode result against a hand-written expectation. src is the
 * decoder's input (for the error bytes). one_call: also require that each
 * WENC_ERROR consumed exactly up to the end of its malformed sequence. */
void th_check_decode_result(th *t, const char *file, int line,
                            const th_expect *x, const uint8_t *src, size_t n,
                            bool fatal, bool utf16, bool one_call,
                            const th_dec_result *r);
void th_check_encode_result(th *t, const char *file, int line,
                            const th_expect *x, bool fatal, bool one_call,
                            const th_enc_result *r);
/* Whether two decode / encode results are identical (output, errors,
 * encoding); on difference records a failure describing it. */
bool th_same_decode(th *t, const char *file, int line, const char *what,
                    const th_dec_result *ref, const th_dec_result *r);
bool th_same_encode(th *t, const char *file, int line, const char *what,
                    const th_enc_result *ref, const th_enc_result *r);

/*
 * Decodes `in` (a byte spec) with encoding id and BOM mode bom, in both error
 * modes, to UTF-8 and to UTF-16, in one call and one byte per call (with an
 * empty call between bytes), and checks everything against `expect` (a
 * decoder expectation). expect_encoding: the encoding the decoder must
 * report at the end (WENC_INVALID: don't check).
 */
void th_check_decode_at(th *t, const char *file, int line, wenc_id id,
                        wenc_bom_mode bom, const char *in, const char *expect,
                        wenc_id expect_encoding);
#define th_check_decode(t, id, bom, in, expect, enc) \
    th_check_decode_at((t), __FILE__, __LINE__, (id), (bom), (in), (expect), (enc))

/*
 * Encodes `in` (a byte spec for UTF-8 input, a unit spec for UTF-16 input)
 * with encoding id in html and fatal mode, in one call and one unit per call,
 * and checks against `expect` (an encoder expectation).
 */
void th_check_encode_at(th *t, const char *file, int line, wenc_id id,
                        bool from_utf16, const char *in, const char *expect);
#define th_check_encode(t, id, utf16, in, expect) \
    th_check_encode_at((t), __FILE__, __LINE__, (id), (utf16), (in), (expect))

/* Same, with raw input instead of a spec. */
void th_check_decode_raw(th *t, const char *file, int line, wenc_id id,
                         wenc_bom_mode bom, const uint8_t *src, size_t n,
                         const th_expect *x, wenc_id expect_encoding);
void th_check_encode_raw(th *t, const char *file, int line, wenc_id id,
                         bool from_utf16, const void *src, size_t n,
                         const th_expect *x);

#endif /* WENC_TEST_HARNESS_H */

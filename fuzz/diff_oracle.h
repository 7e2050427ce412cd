/* diff_oracle.h — the C side of fuzz/diff_oracle (a Rust staticlib around
 * encoding_rs; see src/lib.rs there, whose #[repr(C)] layouts these match).
 * Each call decodes or encodes the whole input in one call with ample
 * output room; free the outcome with wenc_rs_outcome_free(). */
#ifndef WENC_FUZZ_DIFF_ORACLE_H
#define WENC_FUZZ_DIFF_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diff_error; /* tests/diff/diff.h: offset, length, code point,
                      output position, input consumed at the report */

typedef struct wenc_rs_outcome {
    char encoding[32]; /* the name encoding_rs used, NUL-terminated */
    uint8_t *output;   /* decoded UTF-16: little-endian byte pairs */
    size_t output_len; /* bytes */
    struct diff_error *errors;
    size_t error_count;
} wenc_rs_outcome;

/* bom: 0 new_decoder, 1 new_decoder_with_bom_removal, 2
 * new_decoder_without_bom_handling. Return 0, or -1 for an unknown label. */
int wenc_rs_decode(const char *label, size_t label_len, int bom, bool fatal,
                   bool utf16, const uint8_t *input, size_t input_len,
                   wenc_rs_outcome *outcome);
/* input: UTF-8 bytes (ill-formed parts read as U+FFFD each) or, with utf16,
 * little-endian UTF-16 code units. */
int wenc_rs_encode(const char *label, size_t label_len, bool fatal,
                   bool utf16, const uint8_t *input, size_t input_len,
                   wenc_rs_outcome *outcome);
void wenc_rs_outcome_free(wenc_rs_outcome *outcome);

#endif

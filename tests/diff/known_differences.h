/*
 * The differences between wenc and encoding_rs 0.8.31 that the Standard's
 * current revision explains; see known_differences.c for each and its
 * reason. The driver turns encoding_rs's result into the current Standard's
 * expected result with these functions, then demands byte equality.
 */
#ifndef DIFF_KNOWN_DIFFERENCES_H
#define DIFF_KNOWN_DIFFERENCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wenc.h"

/* True for the encodings whose index changed in GB18030-2022 (gb18030, GBK). */
bool known_gb18030_2022_applies(wenc_id id);

/*
 * Decoding: in encoding_rs's output (UTF-8 bytes, or UTF-16 code units as
 * little-endian byte pairs when utf16), replaces each GB18030-2005 Private
 * Use code point of the 18 changed index pointers with the code point of
 * the current index. Lengths do not change. Returns how many were replaced.
 */
size_t known_gb18030_2022_fix_decoded(uint8_t *output, size_t len, bool utf16);

/*
 * Encoding: in the encoder input given to encoding_rs (UTF-8 bytes, possibly
 * ill-formed, or little-endian UTF-16 code units when utf16), replaces each
 * of the 18 code points that GB18030-2022 moved into index gb18030 with the
 * Private Use code point the 2005 index had at the same pointer, so that
 * encoding_rs writes the two bytes the current index gives. Lengths and
 * offsets do not change. Returns how many were replaced.
 */
size_t known_gb18030_2022_fix_encoder_input(uint8_t *input, size_t len,
                                            bool utf16);

/*
 * Decoding ISO-2022-JP in fatal mode: rewrites encoding_rs's report of an
 * escape sequence that directly follows another one to name the second
 * sequence, as wenc does (see known_differences.c). errors are encoding_rs's
 * errors for `input`. Returns how many were rewritten.
 */
struct diff_error;
size_t known_iso_2022_jp_fix_errors(const uint8_t *input, size_t len,
                                    struct diff_error *errors, size_t count);

/* Prints the list of known differences (for the run's summary). */
void known_differences_describe(void);

#endif

/*
 * Known differences between wenc and encoding_rs 0.8.31, all in ONE place.
 *
 * encoding_rs 0.8.31 implements index gb18030 (Standard §5, used by the
 * GBK and gb18030 decoder and encoder of §10) as of GB18030-2005. The
 * Standard's current index is GB18030-2022, which changed 18 pointers from
 * Private Use code points to standard ones (DESIGN.md; index-gb18030.txt).
 * Against a 2005 implementation exactly two things differ, for gb18030 and
 * GBK only:
 *
 *  1. Decoding the 18 byte pairs of those pointers: the current index gives
 *     the new code point (A6 D9 -> U+FE10); encoding_rs gives the old one
 *     (U+E78D). The driver maps encoding_rs's old code points to the new ones
 *     (only the index pointer produces those Private Use code points: index
 *     gb18030 ranges do not cover them, so the mapping is exact).
 *  2. Encoding the 18 new code points: the current index has them at those
 *     pointers, so they take two bytes (U+FE10 -> A6 D9); encoding_rs writes
 *     four bytes for gb18030 and finds them unmappable for GBK. The driver
 *     gives encoding_rs the old Private Use code point instead, which it
 *     encodes to the same two bytes. The Private Use code points themselves
 *     still encode to those two bytes in both (wenc keeps them for
 *     compatibility), so nothing else needs mapping.
 *
 * A difference in reporting, not in output:
 *
 *  3. ISO-2022-JP, fatal mode, an escape sequence directly after another
 *     (ESC $ B ESC ( B): the ISO-2022-JP decoder's escape state (§12.2.1)
 *     returns error on the second sequence's last byte, because ISO-2022-JP
 *     output is still true from the first. wenc reports the second sequence as the malformed one
 *     (offset of its ESC, length 3); encoding_rs reports the first one, with
 *     the second counted as consumed after it (Malformed(3, 3)). The output
 *     and the place of the error in it are the same, and encoding_rs's
 *     reading is as defensible as wenc's, so the driver moves encoding_rs's
 *     offset to the second sequence when, and only when, both 3-byte
 *     sequences are escape sequences the decoder accepts.
 *
 * Any other difference fails the run.
 */
#include "known_differences.h"
#include "diff.h"

#include <stdio.h>

static const struct {
    uint16_t pointer;
    uint16_t old_code_point; /* GB18030-2005, encoding_rs 0.8.31 */
    uint16_t new_code_point; /* GB18030-2022, the Standard now */
} gb18030_2022_changes[] = {
    {7182, 0xE78D, 0xFE10},  {7183, 0xE78E, 0xFE12},  {7184, 0xE78F, 0xFE11},
    {7185, 0xE790, 0xFE13},  {7186, 0xE791, 0xFE14},  {7187, 0xE792, 0xFE15},
    {7188, 0xE793, 0xFE16},  {7201, 0xE794, 0xFE17},  {7202, 0xE795, 0xFE18},
    {7208, 0xE796, 0xFE19},  {23775, 0xE81E, 0x9FB4}, {23783, 0xE826, 0x9FB5},
    {23788, 0xE82B, 0x9FB6}, {23789, 0xE82C, 0x9FB7}, {23795, 0xE832, 0x9FB8},
    {23812, 0xE843, 0x9FB9}, {23829, 0xE854, 0x9FBA}, {23845, 0xE864, 0x9FBB},
};
#define CHANGE_COUNT (sizeof gb18030_2022_changes / sizeof gb18030_2022_changes[0])

bool known_gb18030_2022_applies(wenc_id id)
{
    return id == WENC_GB18030 || id == WENC_GBK;
}

/* Every code point involved is in U+0800..U+FFFF: three UTF-8 bytes, one
 * UTF-16 unit. A lead byte E9/EE/EF is never a continuation byte, so a
 * match at any offset is a whole, well-formed sequence. */
static uint16_t read_unit(const uint8_t *p, bool utf16, size_t *width)
{
    if (utf16) {
        *width = 2;
        return (uint16_t)(p[0] | p[1] << 8);
    }
    *width = 3;
    if ((p[0] & 0xF0) != 0xE0 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
        return 0;
    return (uint16_t)((p[0] & 0x0F) << 12 | (p[1] & 0x3F) << 6 | (p[2] & 0x3F));
}

static void write_unit(uint8_t *p, bool utf16, uint16_t code_point)
{
    if (utf16) {
        p[0] = (uint8_t)(code_point & 0xFF);
        p[1] = (uint8_t)(code_point >> 8);
        return;
    }
    p[0] = (uint8_t)(0xE0 | code_point >> 12);
    p[1] = (uint8_t)(0x80 | (code_point >> 6 & 0x3F));
    p[2] = (uint8_t)(0x80 | (code_point & 0x3F));
}

static size_t replace_code_points(uint8_t *text, size_t len, bool utf16,
                                  bool old_to_new)
{
    size_t replaced = 0;
    size_t step = utf16 ? 2 : 1;
    for (size_t i = 0; i + (utf16 ? 2 : 3) <= len; i += step) {
        size_t width;
        uint16_t unit = read_unit(text + i, utf16, &width);
        for (size_t k = 0; k < CHANGE_COUNT; k++) {
            uint16_t from = old_to_new ? gb18030_2022_changes[k].old_code_point
                                       : gb18030_2022_changes[k].new_code_point;
            uint16_t to = old_to_new ? gb18030_2022_changes[k].new_code_point
                                     : gb18030_2022_changes[k].old_code_point;
            if (unit == from) {
                write_unit(text + i, utf16, to);
                replaced++;
                i += width - step;
                break;
            }
        }
    }
    return replaced;
}

size_t known_gb18030_2022_fix_decoded(uint8_t *output, size_t len, bool utf16)
{
    return replace_code_points(output, len, utf16, true);
}

size_t known_gb18030_2022_fix_encoder_input(uint8_t *input, size_t len,
                                            bool utf16)
{
    return replace_code_points(input, len, utf16, false);
}

static bool is_iso_2022_jp_escape(const uint8_t *p)
{
    return p[0] == 0x1B &&
           ((p[1] == 0x28 && (p[2] == 0x42 || p[2] == 0x4A || p[2] == 0x49)) ||
            (p[1] == 0x24 && (p[2] == 0x40 || p[2] == 0x42)));
}

size_t known_iso_2022_jp_fix_errors(const uint8_t *input, size_t len,
                                    diff_error *errors, size_t count)
{
    size_t fixed = 0;
    for (size_t i = 0; i < count; i++) {
        diff_error *e = &errors[i];
        if (e->length == 3 && e->stop == e->offset + 6 && e->offset + 6 <= len &&
            is_iso_2022_jp_escape(input + e->offset) &&
            is_iso_2022_jp_escape(input + e->offset + 3)) {
            e->offset += 3;
            fixed++;
        }
    }
    return fixed;
}

void known_differences_describe(void)
{
    printf("known differences (known_differences.c):\n"
           "  gb18030 and GBK: the Standard's GB18030-2022 index vs encoding_rs 0.8.31's "
           "2005 one:\n");
    for (size_t k = 0; k < CHANGE_COUNT; k++)
        printf("    pointer %5u: decodes to U+%04X (encoding_rs U+%04X); "
               "U+%04X encodes to two bytes\n",
               (unsigned)gb18030_2022_changes[k].pointer,
               (unsigned)gb18030_2022_changes[k].new_code_point,
               (unsigned)gb18030_2022_changes[k].old_code_point,
               (unsigned)gb18030_2022_changes[k].new_code_point);
    printf("  ISO-2022-JP fatal: an escape sequence right after another is reported "
           "at the second (encoding_rs: at the first)\n");
}

/* replacement (§14.1): one error for a non-empty stream, then nothing. */
#include "loops.h"

/* state_[0] = 1 once the error has been returned ("replacement error
 * returned"). */

/* §14.1.1 replacement decoder */
WENC_INLINE codec_status replacement_decode(wenc_decoder *dec,
                                            const uint8_t *src, size_t len,
                                            size_t *consumed, void *dst,
                                            size_t cap, size_t *written,
                                            bool last, int utf16)
{
    size_t out = 0;
    (void)last;
    codec_status st = CODEC_INPUT_EMPTY;
    *consumed = 0;
    if (len > 0 && !dec->state_[0]) {
        st = sink_error(dec, NULL, 0, src, 1, dst, cap, &out, utf16);
        if (st == CODEC_OUTPUT_FULL) {
            *written = 0;
            return st;
        }
        dec->state_[0] = 1;
        if (st == CODEC_ERROR) {
            *consumed = 1;
            *written = 0;
            return st;
        }
    }
    *consumed = len;
    *written = out;
    return st;
}

DEFINE_DECODE_SINKS(replacement, replacement_decode)

static size_t replacement_held(const wenc_decoder *dec, uint8_t *bytes)
{
    (void)dec;
    (void)bytes;
    return 0;
}

static uint32_t replacement_save(const wenc_decoder *dec)
{
    return dec->state_[0];
}

static bool replacement_restore(wenc_decoder *dec, uint32_t flags)
{
    if (flags > 1)
        return false;
    dec->state_[0] = (uint8_t)flags;
    return true;
}

const decoder_codec wenc_replacement_decoder = {
    .to_utf8 = replacement_to_utf8,
    .to_utf16 = replacement_to_utf16,
    .held = replacement_held,
    .save = replacement_save,
    .restore = replacement_restore,
};

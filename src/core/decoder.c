/* The streaming decoder driver: BOM handling, replayed bytes, error offsets,
 * dispatch to the codec loops (§4.1 decoders, §6 decode). */
#include "../internal.h"

/* Each family's codec: every family has one (but the CJK families in a
 * build without them, whose ids wenc_decoder_init() refuses). */
static const decoder_codec *const codecs[FAMILY_COUNT] = {
    [FAMILY_UTF_8] = &wenc_utf8_decoder,
    [FAMILY_SINGLE_BYTE] = &wenc_single_byte_decoder,
    [FAMILY_UTF_16] = &wenc_utf16_decoder,
    [FAMILY_X_USER_DEFINED] = &wenc_single_byte_decoder,
    [FAMILY_REPLACEMENT] = &wenc_replacement_decoder,
#ifndef WENC_NO_CJK
    [FAMILY_GB18030] = &wenc_gb18030_decoder,
    [FAMILY_BIG5] = &wenc_big5_decoder,
    [FAMILY_EUC_JP] = &wenc_euc_jp_decoder,
    [FAMILY_ISO_2022_JP] = &wenc_iso_2022_jp_decoder,
    [FAMILY_SHIFT_JIS] = &wenc_shift_jis_decoder,
    [FAMILY_EUC_KR] = &wenc_euc_kr_decoder,
#endif
};

static const decoder_codec *codec_for(int id)
{
    return codecs[wenc_family((wenc_id)id)];
}

/* Whether the decoder must look for a BOM before decoding. */
static bool wants_bom(int id, int bom_mode)
{
    if (bom_mode == WENC_BOM_SNIFF)
        return true;
    return bom_mode == WENC_BOM_STRIP &&
           (id == WENC_UTF_8 || id == WENC_UTF_16BE || id == WENC_UTF_16LE);
}

bool wenc_decoder_init(wenc_decoder *dec, wenc_id id, wenc_bom_mode bom_mode,
                       wenc_error_mode error_mode)
{
    if (!wenc_is_built_in(id))
        return false;
    if (error_mode != WENC_ERRORS_REPLACEMENT && error_mode != WENC_ERRORS_FATAL)
        return false;
    if (bom_mode != WENC_BOM_SNIFF && bom_mode != WENC_BOM_STRIP &&
        bom_mode != WENC_BOM_KEEP)
        return false;
    memset(dec, 0, sizeof *dec);
    dec->initial_ = (int16_t)id;
    dec->encoding_ = (int16_t)id;
    dec->error_mode_ = (uint8_t)error_mode;
    dec->bom_mode_ = (uint8_t)bom_mode;
    dec->bom_done_ = !wants_bom(id, bom_mode);
    return true;
}

void wenc_decoder_reset(wenc_decoder *dec)
{
    uint8_t error_mode = dec->error_mode_, bom_mode = dec->bom_mode_;
    int16_t id = dec->initial_;
    memset(dec, 0, sizeof *dec);
    dec->initial_ = id;
    dec->encoding_ = id;
    dec->error_mode_ = error_mode;
    dec->bom_mode_ = bom_mode;
    dec->bom_done_ = !wants_bom(id, bom_mode);
}

wenc_id wenc_decoder_encoding(const wenc_decoder *dec)
{
    return (wenc_id)dec->encoding_;
}

void wenc_decoder_set_error(wenc_decoder *dec, const uint8_t *held,
                            size_t held_len, const uint8_t *cur,
                            size_t cur_len)
{
    size_t n = 0;
    for (size_t i = 0; i < held_len && n < WENC_MAX_MALFORMED; i++)
        dec->error_bytes_[n++] = held[i];
    for (size_t i = 0; i < cur_len && n < WENC_MAX_MALFORMED; i++)
        dec->error_bytes_[n++] = cur[i];
    dec->error_len_ = (uint8_t)n;
}

void wenc_decoder_push_replay(wenc_decoder *dec, const uint8_t *bytes,
                              size_t n)
{
    if (n == 0)
        return;
    /* Restored bytes are at most a few bytes of one sequence. */
    if (dec->replay_len_ + n > sizeof dec->replay_)
        n = sizeof dec->replay_ - dec->replay_len_;
    memcpy(dec->replay_ + dec->replay_len_, bytes, n);
    dec->replay_len_ = (uint8_t)(dec->replay_len_ + n);
}

static const uint8_t bom_utf8[3] = {0xEF, 0xBB, 0xBF};
static const uint8_t bom_utf16be[2] = {0xFE, 0xFF};
static const uint8_t bom_utf16le[2] = {0xFF, 0xFE};
static const uint8_t *const boms[3] = {bom_utf8, bom_utf16be, bom_utf16le};
static const size_t bom_lens[3] = {3, 2, 2};
static const int bom_ids[3] = {WENC_UTF_8, WENC_UTF_16BE, WENC_UTF_16LE};

/* 1 if buf[0..n) is a whole BOM, 0 if a proper prefix of one, -1 if neither */
static int bom_match(const uint8_t *buf, size_t n, const uint8_t *bom,
                     size_t bom_len)
{
    if (n > bom_len || memcmp(buf, bom, n) != 0)
        return -1;
    return n == bom_len;
}

/*
 * §6 BOM sniff, one byte at a time so that a BOM split across calls is
 * found. Buffered bytes live in replay_[0..bom_len_) and, if they turn out
 * not to be a BOM, are decoded from there (those of earlier calls) or from
 * src again. Returns the bytes of src consumed.
 */
static size_t scan_bom(wenc_decoder *dec, const uint8_t *src, size_t len,
                       bool last)
{
    size_t pos = 0;
    /* Three bytes of a stream's start at hand decide at once. */
    if (dec->bom_len_ == 0 && len >= 3) {
        size_t n = 0;
        if (src[0] < 0xEF) { /* every BOM starts with EF, FE or FF */
            dec->bom_done_ = 1;
            return 0;
        }
        wenc_id found = wenc_bom_sniff(src, len, &n);
        if (found != WENC_INVALID &&
            (dec->bom_mode_ == WENC_BOM_SNIFF || found == dec->encoding_))
            dec->encoding_ = (int16_t)found;
        else
            n = 0;
        dec->bom_done_ = 1;
        return n;
    }
    while (!dec->bom_done_) {
        if (pos == len) {
            if (last)
                break; /* no BOM: fall through to replay the prefix */
            return pos;
        }
        uint8_t buf[3];
        size_t n = dec->bom_len_;
        memcpy(buf, dec->replay_, n);
        buf[n++] = src[pos];
        int id = dec->encoding_;
        int found = -1, prefix = 0;
        for (int i = 0; i < 3; i++) {
            if (dec->bom_mode_ == WENC_BOM_STRIP && bom_ids[i] != id)
                continue;
            int m = bom_match(buf, n, boms[i], bom_lens[i]);
            if (m == 1)
                found = bom_ids[i];
            else if (m == 0)
                prefix = 1;
        }
        if (found >= 0) {
            pos++;
            dec->encoding_ = (int16_t)found;
            dec->bom_len_ = 0;
            dec->bom_done_ = 1;
            return pos;
        }
        if (!prefix)
            break;
        dec->replay_[dec->bom_len_++] = src[pos++];
    }
    /* Not a BOM. The buffered bytes taken from this call are simply left
     * unconsumed; only those from earlier calls need replaying. */
    dec->replay_len_ = (uint8_t)(dec->bom_len_ - pos);
    dec->bom_len_ = 0;
    dec->bom_done_ = 1;
    return 0;
}

static const uint8_t no_bytes[1] = {0};

static wenc_status decode(wenc_decoder *dec, const uint8_t *src,
                          size_t *src_len, void *dst, size_t *dst_len,
                          bool last, int utf16)
{
    size_t len = *src_len, cap = *dst_len, in = 0, out = 0;
    uint16_t dummy[2] = {0};
    if (src == NULL)
        src = no_bytes, len = 0;
    if (dst == NULL)
        dst = dummy, cap = 0;
    const size_t unit = utf16 ? sizeof(uint16_t) : 1;
    codec_status st = CODEC_INPUT_EMPTY;

    if (!dec->bom_done_) {
        in = scan_bom(dec, src, len, last);
        if (!dec->bom_done_)
            goto finish;
    }
    const decoder_codec *codec = codec_for(dec->encoding_);
    decode_fn fn = utf16 ? codec->to_utf16 : codec->to_utf8;
    for (;;) {
        size_t used = 0, wrote = 0;
        void *out_at = (char *)dst + out * unit;
        if (dec->replay_len_ > 0) {
            uint8_t local[sizeof dec->replay_];
            size_t n = dec->replay_len_;
            memcpy(local, dec->replay_, n);
            dec->replay_len_ = 0;
            st = fn(dec, local, n, &used, out_at, cap - out, &wrote, false);
            out += wrote;
            wenc_decoder_push_replay(dec, local + used, n - used);
            if (st == CODEC_INPUT_EMPTY || st == CODEC_REPLAY)
                continue;
            break;
        }
        st = fn(dec, src + in, len - in, &used, out_at, cap - out, &wrote,
                last);
        in += used;
        out += wrote;
        if (st != CODEC_REPLAY)
            break;
    }
    if (st == CODEC_ERROR) {
        uint64_t end = dec->position_ + in;
        end -= dec->replay_len_;
        dec->error_offset_ = end - dec->error_len_;
    }
finish:
    dec->position_ += in;
    *src_len = in;
    *dst_len = out;
    return (wenc_status)st;
}

wenc_status wenc_decode_to_utf8(wenc_decoder *dec, const uint8_t *src,
                                size_t *src_len, uint8_t *dst,
                                size_t *dst_len, bool last)
{
    return decode(dec, src, src_len, dst, dst_len, last, 0);
}

wenc_status wenc_decode_to_utf16(wenc_decoder *dec, const uint8_t *src,
                                 size_t *src_len, uint16_t *dst,
                                 size_t *dst_len, bool last)
{
    return decode(dec, src, src_len, dst, dst_len, last, 1);
}

/* Bytes the decoder holds that may still produce output. */
static size_t held_bytes(const wenc_decoder *dec)
{
    size_t n = (size_t)dec->replay_len_ + dec->bom_len_;
    const decoder_codec *codec = codec_for(dec->encoding_);
    return n + codec->held(dec, NULL);
}

/* Every byte read (or read again) yields at most one output code point of
 * at most 3 UTF-8 bytes or 1 UTF-16 unit per byte it spans, so (held + new)
 * bytes bound the output. */
size_t wenc_decoded_max_len(size_t held, size_t src_len, int utf16)
{
    size_t factor = utf16 ? 1 : 3;
    if (src_len > SIZE_MAX - held || held + src_len > SIZE_MAX / factor)
        return SIZE_MAX;
    return (held + src_len) * factor;
}

size_t wenc_decoder_max_utf8_len(const wenc_decoder *dec, size_t src_len)
{
    return wenc_decoded_max_len(held_bytes(dec), src_len, 0);
}

size_t wenc_decoder_max_utf16_len(const wenc_decoder *dec, size_t src_len)
{
    return wenc_decoded_max_len(held_bytes(dec), src_len, 1);
}

bool wenc_decoder_error(const wenc_decoder *dec, wenc_decode_error *err)
{
    memset(err, 0, sizeof *err);
    if (dec->error_len_ == 0)
        return false;
    err->offset = dec->error_offset_;
    err->length = dec->error_len_;
    memcpy(err->bytes, dec->error_bytes_, dec->error_len_);
    return true;
}

/* ---- an extension: the state saved and restored ------------------------- */

/* wenc_decoder_state.flags: bit 0, the BOM question settled (only for a
 * decoder that asks it); bits 1-2, the encoding a BOM chose when it is not
 * the initial one (1 + its index in bom_ids); bits 8-15, the codec's own
 * (decoder_codec.save). */
#define STATE_BOM_SETTLED 0x1u
#define STATE_BOM_SHIFT 1
#define STATE_CODEC_SHIFT 8
#define STATE_KNOWN 0xFF07u

/* Reads bytes[0..n) with dec as far as they write nothing (with no room,
 * and errors in replacement mode, the first byte that would write stops
 * the driver) and queues the rest to be read again; returns the bytes
 * read. */
static size_t read_quietly(wenc_decoder *dec, const uint8_t *bytes, size_t n)
{
    size_t used = n, room = 0;
    uint8_t error_mode = dec->error_mode_;
    dec->error_mode_ = WENC_ERRORS_REPLACEMENT;
    decode(dec, bytes, &used, NULL, &room, false, 0);
    dec->error_mode_ = error_mode;
    wenc_decoder_push_replay(dec, bytes + used, n - used);
    return used;
}

void wenc_decoder_save(const wenc_decoder *dec, wenc_decoder_state *state)
{
    memset(state, 0, sizeof *state);
    if (!dec->bom_done_) {
        memcpy(state->held, dec->replay_, dec->bom_len_);
        state->held_len = dec->bom_len_;
        return;
    }
    /* Bytes queued to be read again are first read as far as they write
     * nothing, as restoring reads them: so that the replacement decoder,
     * which reads them without a trace once its error is returned, saves
     * none of them. */
    wenc_decoder d = *dec;
    uint8_t queued[sizeof d.replay_];
    size_t n = d.replay_len_;
    memcpy(queued, d.replay_, n);
    d.replay_len_ = 0;
    read_quietly(&d, queued, n);

    uint32_t flags = 0;
    if (wants_bom(d.initial_, d.bom_mode_))
        flags |= STATE_BOM_SETTLED;
    for (uint32_t i = 0; i < 3; i++)
        if (d.encoding_ != d.initial_ && bom_ids[i] == d.encoding_)
            flags |= (i + 1) << STATE_BOM_SHIFT;
    const decoder_codec *codec = codec_for(d.encoding_);
    if (codec->save)
        flags |= codec->save(&d) << STATE_CODEC_SHIFT;
    n = codec->held(&d, state->held);
    /* Never cut: bytes are queued again only from what the codec held or a
     * BOM's first two, so that no more than 3 are held in all. */
    size_t replay = d.replay_len_;
    if (replay > WENC_MAX_HELD - n)
        replay = WENC_MAX_HELD - n;
    memcpy(state->held + n, d.replay_, replay);
    state->held_len = n + replay;
    state->flags = flags;
}

/* Sets the state `flags` describe on a reset decoder; false for flags that
 * wenc_decoder_save() never gives it. */
static bool set_flags(wenc_decoder *dec, uint32_t flags)
{
    uint32_t choice = (flags >> STATE_BOM_SHIFT) & 3;
    if (flags & ~STATE_KNOWN)
        return false;
    if (!wants_bom(dec->initial_, dec->bom_mode_)) {
        if (flags & STATE_BOM_SETTLED)
            return false;
    } else if (!(flags & STATE_BOM_SETTLED)) {
        return flags == 0;
    }
    dec->bom_done_ = 1;
    if (choice != 0) {
        if (dec->bom_mode_ != WENC_BOM_SNIFF ||
            bom_ids[choice - 1] == dec->initial_)
            return false;
        dec->encoding_ = (int16_t)bom_ids[choice - 1];
    }
    const decoder_codec *codec = codec_for(dec->encoding_);
    uint32_t own = flags >> STATE_CODEC_SHIFT;
    return codec->restore ? codec->restore(dec, own) : own == 0;
}

/* Whether held[0..n) can be bytes queued to be read again: the first bytes
 * of a BOM that turned out not to be one (what is left of them after some
 * were decoded), or what the codec queued after an error. */
static bool may_read_again(const wenc_decoder *dec, const uint8_t *held,
                           size_t n)
{
    if (dec->encoding_ == dec->initial_ &&
        wants_bom(dec->initial_, dec->bom_mode_)) {
        for (int i = 0; i < 3; i++) {
            if (dec->bom_mode_ == WENC_BOM_STRIP && bom_ids[i] != dec->initial_)
                continue;
            for (size_t end = n; end < bom_lens[i]; end++)
                if (memcmp(held, boms[i] + end - n, n) == 0)
                    return true;
        }
    }
    const decoder_codec *codec = codec_for(dec->encoding_);
    return codec->rereads != NULL && codec->rereads(dec, held, n);
}

/* wenc_decoder_restore() on a reset decoder, leaving it to be reset again
 * on false. */
static bool restore(wenc_decoder *dec, const wenc_decoder_state *state)
{
    size_t n = state->held_len;
    if (n > WENC_MAX_HELD || !set_flags(dec, state->flags))
        return false;
    if (read_quietly(dec, state->held, n) < n &&
        !may_read_again(dec, state->held, n))
        return false;
    dec->position_ = n;
    /* What else the bytes did (complete a BOM or an escape sequence, say)
     * shows as a state that saves differently. */
    wenc_decoder_state again;
    wenc_decoder_save(dec, &again);
    return again.flags == state->flags && again.held_len == n &&
           memcmp(again.held, state->held, n) == 0;
}

bool wenc_decoder_restore(wenc_decoder *dec, const wenc_decoder_state *state)
{
    wenc_decoder_reset(dec);
    if (restore(dec, state))
        return true;
    wenc_decoder_reset(dec);
    return false;
}

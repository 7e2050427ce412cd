/* The streaming encoder driver: held input across calls, html NCRs, fatal
 * errors with offsets, dispatch to the codec loops (§4.1 encoders, §6 encode,
 * get an encoder, encode or fail). */
#include "../internal.h"

/* Each family's codec; output encodings (§4.3) are never UTF-16 or
 * replacement, whose families have none in the Standard (UTF-16's is the
 * extension of wenc_encoder_init_utf16()). */
static const encoder_codec *const codecs[FAMILY_COUNT] = {
    [FAMILY_UTF_8] = &wenc_utf8_encoder,
    [FAMILY_SINGLE_BYTE] = &wenc_single_byte_encoder,
    [FAMILY_X_USER_DEFINED] = &wenc_x_user_defined_encoder,
#ifndef WENC_NO_CJK /* wenc_encoder_init() refuses their ids without them */
    [FAMILY_GB18030] = &wenc_gb18030_encoder,
    [FAMILY_BIG5] = &wenc_big5_encoder,
    [FAMILY_EUC_JP] = &wenc_euc_jp_encoder,
    [FAMILY_ISO_2022_JP] = &wenc_iso_2022_jp_encoder,
    [FAMILY_SHIFT_JIS] = &wenc_shift_jis_encoder,
    [FAMILY_EUC_KR] = &wenc_euc_kr_encoder,
#endif
    [FAMILY_UTF_16] = &wenc_utf16_encoder, /* wenc_encoder_init_utf16() */
};

static const encoder_codec *codec_for(int id)
{
    return codecs[wenc_family((wenc_id)id)];
}

bool wenc_encoder_init(wenc_encoder *enc, wenc_id id,
                       wenc_error_mode error_mode)
{
    wenc_id out = wenc_output_encoding(id);
    if (out == WENC_INVALID || !wenc_is_built_in(out))
        return false;
    if (error_mode != WENC_ERRORS_HTML && error_mode != WENC_ERRORS_FATAL)
        return false;
    memset(enc, 0, sizeof *enc);
    enc->initial_ = (int16_t)id;
    enc->encoding_ = (int16_t)out;
    enc->error_mode_ = (uint8_t)error_mode;
    return true;
}

/* The UTF-16 encoder's state_: whether its stream starts with a BOM */
#define UTF16_WITH_BOM 1

/* A UTF-16 stream that starts with a BOM: U+FEFF queued as UTF-8 input for
 * the codec, ahead of the stream's own, and state_ to say so again after a
 * reset. */
static void start_with_bom(wenc_encoder *enc)
{
    static const uint8_t bom[3] = {0xEF, 0xBB, 0xBF};
    enc->state_ = UTF16_WITH_BOM;
    memcpy(enc->replay_, bom, sizeof bom);
    enc->replay_len_ = sizeof bom;
    enc->replay_pos_ = 0;
}

bool wenc_encoder_init_utf16(wenc_encoder *enc, wenc_id id, bool bom)
{
    if (id != WENC_UTF_16LE && id != WENC_UTF_16BE)
        return false;
    memset(enc, 0, sizeof *enc);
    enc->initial_ = (int16_t)id;
    enc->encoding_ = (int16_t)id;
    enc->error_mode_ = WENC_ERRORS_FATAL; /* never needed: no errors */
    if (bom)
        start_with_bom(enc);
    return true;
}

void wenc_encoder_reset(wenc_encoder *enc)
{
    int16_t id = enc->initial_, out = enc->encoding_;
    uint8_t mode = enc->error_mode_;
    bool bom = wenc_family((wenc_id)out) == FAMILY_UTF_16 &&
               enc->state_ == UTF16_WITH_BOM;
    memset(enc, 0, sizeof *enc);
    enc->initial_ = id;
    enc->encoding_ = out;
    enc->error_mode_ = mode;
    if (bom)
        start_with_bom(enc);
}

wenc_id wenc_encoder_encoding(const wenc_encoder *enc)
{
    return (wenc_id)enc->encoding_;
}

/* Held input: pending_len_ counts units; PENDING_UTF16 marks UTF-16. */
#define PENDING_UTF16 0x80
#define PENDING_COUNT 0x7F

typedef union input_units {
    uint8_t bytes[8];
    uint16_t units[4];
} input_units;

static codec_status run(const encoder_codec *codec, wenc_encoder *enc,
                        const void *src, size_t len, size_t *used,
                        uint8_t *dst, size_t cap, size_t *wrote, bool last,
                        int utf16)
{
    if (utf16)
        return codec->from_utf16(enc, (const uint16_t *)src, len, used, dst,
                                 cap, wrote, last);
    return codec->from_utf8(enc, (const uint8_t *)src, len, used, dst, cap,
                            wrote, last);
}

static void hold(wenc_encoder *enc, const input_units *units, size_t from,
                 size_t to, int utf16)
{
    uint32_t v = 0;
    for (size_t i = from; i < to; i++) {
        uint32_t u = utf16 ? units->units[i] : units->bytes[i];
        v |= u << (utf16 ? 0 : 8 * (i - from));
    }
    enc->pending_ = v;
    enc->pending_len_ = (uint8_t)((to - from) | (utf16 ? PENDING_UTF16 : 0));
}

static void unhold(const wenc_encoder *enc, input_units *units, int utf16)
{
    size_t n = enc->pending_len_ & PENDING_COUNT;
    for (size_t i = 0; i < n; i++) {
        if (utf16)
            units->units[i] = (uint16_t)enc->pending_;
        else
            units->bytes[i] = (uint8_t)(enc->pending_ >> (8 * i));
    }
}

static void write_ncr(wenc_encoder *enc, uint32_t cp)
{
    enc->replay_len_ = (uint8_t)ncr_put(cp, enc->replay_);
    enc->replay_pos_ = 0;
}

static const uint16_t no_units[1] = {0};

/* An incomplete sequence that ends a non-last input, src[*in_io..len),
 * held for the next call. */
static void hold_tail(wenc_encoder *enc, const void *src, size_t len,
                      size_t *in_io, int utf16)
{
    const size_t unit = utf16 ? sizeof(uint16_t) : 1;
    input_units tmp;
    size_t n = len - *in_io;
    memcpy(utf16 ? (void *)tmp.units : (void *)tmp.bytes,
           (const char *)src + *in_io * unit, n * unit);
    hold(enc, &tmp, 0, n, utf16);
    *in_io = len;
}

/* The driver's loop, from `in` units read and `out` bytes written with the
 * codec's status `st`: CODEC_UNMAPPABLE when its run so far stopped at a
 * code point the encoding lacks, which is taken first. */
static wenc_status encode_loop(wenc_encoder *enc, const void *src,
                               size_t *src_len, uint8_t *dst, size_t *dst_len,
                               bool last, int utf16, size_t in, size_t out,
                               codec_status st)
{
    const encoder_codec *codec = codec_for(enc->encoding_);
    const size_t unit = utf16 ? sizeof(uint16_t) : 1;
    size_t len = *src_len, cap = *dst_len;
    uint8_t dummy[1] = {0};
    if (src == NULL)
        src = no_units, len = 0;
    if (dst == NULL)
        dst = dummy, cap = 0;

    for (;;) {
        if (st == CODEC_UNMAPPABLE) {
            if (enc->error_mode_ == WENC_ERRORS_FATAL) {
                enc->has_error_ = 1;
                enc->error_offset_ = enc->position_ + in - enc->error_len_;
                st = CODEC_ERROR;
                break;
            }
            write_ncr(enc, enc->error_code_point_);
            if (enc->encoding_ != WENC_ISO_2022_JP &&
                cap - out >= enc->replay_len_) {
                /* The other encoders write ASCII as it is: the NCR goes
                 * straight to the output, not through the codec. */
                memcpy(dst + out, enc->replay_, enc->replay_len_);
                out += enc->replay_len_;
                enc->replay_len_ = 0;
            }
        }
        size_t used = 0, wrote = 0;
        if (enc->replay_pos_ < enc->replay_len_) {
            /* The ASCII of an NCR, through the codec (ISO-2022-JP may need
             * to switch back to ASCII first). */
            st = codec->from_utf8(enc, enc->replay_ + enc->replay_pos_,
                                  (size_t)(enc->replay_len_ - enc->replay_pos_),
                                  &used, dst + out, cap - out, &wrote, false);
            enc->replay_pos_ = (uint8_t)(enc->replay_pos_ + used);
            out += wrote;
            if (st != CODEC_INPUT_EMPTY)
                break;
            enc->replay_pos_ = enc->replay_len_ = 0;
            continue;
        }
        if (enc->pending_len_) {
            /* Complete the sequence held from the last call with the first
             * units of this one. */
            int held_utf16 = (enc->pending_len_ & PENDING_UTF16) != 0;
            size_t p = enc->pending_len_ & PENDING_COUNT;
            input_units tmp;
            unhold(enc, &tmp, held_utf16);
            size_t take = 0;
            if (held_utf16 == utf16) {
                size_t room = (utf16 ? 2 : 4) - p;
                take = len - in < room ? len - in : room;
                for (size_t i = 0; i < take; i++) {
                    if (utf16)
                        tmp.units[p + i] = ((const uint16_t *)src)[in + i];
                    else
                        tmp.bytes[p + i] = ((const uint8_t *)src)[in + i];
                }
            }
            bool tmp_last = (last && in + take == len) || held_utf16 != utf16;
            st = run(codec, enc, &tmp, p + take, &used, dst + out, cap - out,
                     &wrote, tmp_last, held_utf16);
            out += wrote;
            if (used >= p) {
                enc->pending_len_ = 0;
                in += used - p;
            } else if (st == CODEC_INPUT_EMPTY) {
                hold(enc, &tmp, used, p + take, held_utf16);
                in += take;
                break;
            } else if (used > 0) {
                hold(enc, &tmp, used, p, held_utf16);
            }
            if (st == CODEC_INPUT_EMPTY)
                continue;
        } else {
            st = run(codec, enc, (const char *)src + in * unit, len - in, &used,
                     dst + out, cap - out, &wrote, last, utf16);
            in += used;
            out += wrote;
            if (st == CODEC_INPUT_EMPTY && in < len)
                hold_tail(enc, src, len, &in, utf16);
        }
        if (st != CODEC_UNMAPPABLE)
            break;
    }
    enc->position_ += in;
    *src_len = in;
    *dst_len = out;
    return (wenc_status)st;
}

/* A call with nothing held or queued runs the codec once and is done
 * unless it stopped at a code point the encoding lacks (one call in small
 * ones, without the loop's state). */
static wenc_status encode(wenc_encoder *enc, const void *src, size_t *src_len,
                          uint8_t *dst, size_t *dst_len, bool last, int utf16)
{
    if (enc->replay_pos_ < enc->replay_len_ || enc->pending_len_ != 0 ||
        src == NULL || dst == NULL)
        return encode_loop(enc, src, src_len, dst, dst_len, last, utf16, 0, 0,
                           CODEC_INPUT_EMPTY);
    size_t used = 0, wrote = 0;
    codec_status st = run(codec_for(enc->encoding_), enc, src, *src_len,
                          &used, dst, *dst_len, &wrote, last, utf16);
    if (st == CODEC_UNMAPPABLE)
        return encode_loop(enc, src, src_len, dst, dst_len, last, utf16, used,
                           wrote, st);
    if (st == CODEC_INPUT_EMPTY && used < *src_len)
        hold_tail(enc, src, *src_len, &used, utf16);
    enc->position_ += used;
    *src_len = used;
    *dst_len = wrote;
    return (wenc_status)st;
}

wenc_status wenc_encode_from_utf8(wenc_encoder *enc, const uint8_t *src,
                                  size_t *src_len, uint8_t *dst,
                                  size_t *dst_len, bool last)
{
    return encode(enc, src, src_len, dst, dst_len, last, 0);
}

wenc_status wenc_encode_from_utf16(wenc_encoder *enc, const uint16_t *src,
                                   size_t *src_len, uint8_t *dst,
                                   size_t *dst_len, bool last)
{
    return encode(enc, src, src_len, dst, dst_len, last, 1);
}

size_t wenc_encoder_max_len(const wenc_encoder *enc, size_t src_len)
{
    const encoder_codec *codec = codec_for(enc->encoding_);
    size_t held = enc->pending_len_ & PENDING_COUNT;
    size_t replay = (size_t)(enc->replay_len_ - enc->replay_pos_);
    size_t fixed = replay + 2 * codec->max_closing;
    if (src_len > SIZE_MAX - held)
        return SIZE_MAX;
    size_t units = src_len + held;
    /* (the division only for lengths near the limit: it costs more than
     * the rest of a short call) */
    if (units > (SIZE_MAX >> 5) && units > (SIZE_MAX - fixed) / codec->max_per_unit)
        return SIZE_MAX;
    return units * codec->max_per_unit + fixed;
}

bool wenc_encoder_error(const wenc_encoder *enc, wenc_encode_error *err)
{
    memset(err, 0, sizeof *err);
    if (!enc->has_error_)
        return false;
    err->code_point = enc->error_code_point_;
    err->offset = enc->error_offset_;
    err->length = enc->error_len_;
    return true;
}

/*
 * glue.c — the functions the WebAssembly build of libwenc exports to
 * wasm/backend.js, over include/wenc.h only.
 *
 * Memory model. The module never allocates: everything lives in the static
 * buffers below, which belong to this glue (the library itself keeps no
 * global state). JavaScript calls one function at a time and never
 * re-enters, so one set of buffers serves every call:
 *
 *   input   IN_BYTES bytes: the bytes to decode, the UTF-8 to encode, a label;
 *   output  OUT_BYTES bytes: UTF-16 code units decoded, or bytes encoded;
 *   state   one decoder, TextDecoder or encoder struct. The structs hold no
 *           pointers, so backend.js keeps each handle's state as a copy of
 *           these bytes and copies it back in around each call;
 *   io      numbers a call returns besides its status (consumed, written,
 *           error details), as doubles so that 64-bit offsets survive.
 *
 * A larger input is processed by backend.js in pieces of at most IN_BYTES,
 * so linear memory never grows. The output has room for everything any
 * piece of IN_BYTES can produce (checked by each function), so no call
 * stops on a full output.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <wenc.h>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#define EXPORT(name) __attribute__((export_name(#name)))

/* The single-byte encodings (§9), whose decoders and encoders glue.c's
 * tables serve. */
#define SB_FIRST WENC_IBM866
#define SB_LAST WENC_X_MAC_CYRILLIC

/* The input bytes of one call. */
#define IN_BYTES 65536
/* Decoding IN_BYTES gives at most IN_BYTES code units plus the few bytes a
 * decoder holds; encoding IN_BYTES of UTF-8 gives at most 4 bytes a byte
 * (ISO-2022-JP's ESC ( B before each ASCII byte) plus a closing escape and
 * a BOM. */
#define OUT_BYTES (4 * IN_BYTES + 256)

/* What a call reports besides its status, read by backend.js through a
 * Float64Array. */
enum io_slot {
    IO_CONSUMED,  /* input bytes read */
    IO_WRITTEN,   /* output code units (decode) or bytes (encode) */
    IO_ERROR_A,   /* decode: stream offset of the malformed sequence;
                     encode: the code point that cannot be encoded */
    IO_ERROR_B,   /* encode: the UTF-8 bytes of that code point */
    IO_COUNT
};

/* The layout backend.js reads once (see wg_layout()). */
enum layout_slot {
    LAYOUT_IN,
    LAYOUT_IN_BYTES,
    LAYOUT_OUT,
    LAYOUT_OUT_BYTES,
    LAYOUT_STATE,
    LAYOUT_IO,
    LAYOUT_TEXT_DECODER_SIZE,
    LAYOUT_DECODER_SIZE,
    LAYOUT_ENCODER_SIZE,
    LAYOUT_COUNT
};

static uint8_t input[IN_BYTES] __attribute__((aligned(16)));
static union {
    uint16_t units[OUT_BYTES / 2];
    uint8_t bytes[OUT_BYTES];
} output __attribute__((aligned(16)));
static union {
    wenc_text_decoder text;
    wenc_decoder decoder;
    wenc_encoder encoder;
} state;
static double io[IO_COUNT];
static uint32_t layout[LAYOUT_COUNT];

/* Where the buffers are and how big the state structs are: an array of
 * LAYOUT_COUNT uint32_t. */
EXPORT(wg_layout) const uint32_t *wg_layout(void)
{
    layout[LAYOUT_IN] = (uint32_t)(uintptr_t)input;
    layout[LAYOUT_IN_BYTES] = IN_BYTES;
    layout[LAYOUT_OUT] = (uint32_t)(uintptr_t)output.bytes;
    layout[LAYOUT_OUT_BYTES] = OUT_BYTES;
    layout[LAYOUT_STATE] = (uint32_t)(uintptr_t)&state;
    layout[LAYOUT_IO] = (uint32_t)(uintptr_t)io;
    layout[LAYOUT_TEXT_DECODER_SIZE] = sizeof(wenc_text_decoder);
    layout[LAYOUT_DECODER_SIZE] = sizeof(wenc_decoder);
    layout[LAYOUT_ENCODER_SIZE] = sizeof(wenc_encoder);
    return layout;
}

/* ---- labels and names (§4.2) ------------------------------------------ */

/* get an encoding: the label is input[0..len). The id, or -1. */
EXPORT(wg_lookup) int wg_lookup(size_t len)
{
    if (len > IN_BYTES)
        return WENC_INVALID;
    return wenc_lookup((const char *)input, len);
}

/* The Standard's name of encoding `id` ("Shift_JIS"), NUL-terminated, or 0. */
EXPORT(wg_name) const char *wg_name(int id)
{
    return wenc_name((wenc_id)id);
}

/* ---- ASCII ------------------------------------------------------------ */

/* Whether input[0..len) is all ASCII: then a decoder of an encoding that
 * maps ASCII to itself, from its initial state, outputs exactly these
 * bytes, and backend.js makes the string from them directly. */
EXPORT(wg_is_ascii) int wg_is_ascii(size_t len)
{
    const uint8_t *p = input;
    size_t i = 0;
    if (len > IN_BYTES)
        return 0;
#ifdef __wasm_simd128__
    for (; i + 64 <= len; i += 64) {
        v128_t a = wasm_v128_load(p + i);
        v128_t b = wasm_v128_load(p + i + 16);
        v128_t c = wasm_v128_load(p + i + 32);
        v128_t d = wasm_v128_load(p + i + 48);
        v128_t any = wasm_v128_or(wasm_v128_or(a, b), wasm_v128_or(c, d));
        if (wasm_i8x16_bitmask(any))
            return 0;
    }
    for (; i + 16 <= len; i += 16) {
        if (wasm_i8x16_bitmask(wasm_v128_load(p + i)))
            return 0;
    }
#else
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, sizeof word);
        if (word & UINT64_C(0x8080808080808080))
            return 0;
    }
#endif
    for (; i < len; i++) {
        if (p[i] & 0x80)
            return 0;
    }
    return 1;
}

/* ---- TextDecoder (§7.2) ----------------------------------------------- */

/* new TextDecoder(label, options): the label is input[0..len). Leaves the
 * decoder in `state` and returns its lowercase name, or 0 for a RangeError
 * (not a label, or replacement). */
EXPORT(wg_text_decoder_init)
const char *wg_text_decoder_init(size_t len, int fatal, int ignore_bom)
{
    if (len > IN_BYTES)
        return NULL;
    if (wenc_text_decoder_init(&state.text, (const char *)input, len,
                               fatal != 0,
                               ignore_bom != 0) != WENC_TEXT_OK)
        return NULL;
    return wenc_text_decoder_encoding(&state.text);
}

/* The single-byte decoders' pair table (below). */
static const uint32_t *sb_pairs_of(wenc_id id, size_t len);
static void sb_pair_decode(const uint32_t *pairs, const uint8_t *src,
                           size_t n, uint16_t *dst);

/* decode(input[0..len), {stream}) with the TextDecoder in `state`: the
 * wenc_text_status. IO_CONSUMED and IO_WRITTEN (code units at output). */
EXPORT(wg_text_decode) int wg_text_decode(size_t len, int stream)
{
    size_t written = OUT_BYTES / 2, consumed = 0;
    io[IO_CONSUMED] = 0;
    io[IO_WRITTEN] = 0;
    if (len > IN_BYTES)
        return WENC_TEXT_BUFFER_TOO_SMALL;
    /* A single-byte encoding's TextDecoder that is not fatal: every byte
     * decodes alone (§7.2's BOM handling is for UTF-8 and UTF-16 only), so
     * the pair table below may take them; an empty call ends the stream in
     * the library when this one does. */
    if (len >= 64 && !wenc_text_decoder_fatal(&state.text)) {
        const char *name = wenc_text_decoder_encoding(&state.text);
        wenc_id id = wenc_lookup(name, strlen(name));
        const uint32_t *pairs =
            id >= SB_FIRST && id <= SB_LAST ? sb_pairs_of(id, len) : NULL;
        if (pairs) {
            sb_pair_decode(pairs, input, len, output.units);
            size_t room = OUT_BYTES / 2 - len, none = 0;
            if (!stream)
                wenc_text_decoder_decode_utf16(&state.text, input, 0, false,
                                               output.units + len, &room,
                                               &none);
            io[IO_CONSUMED] = (double)len;
            io[IO_WRITTEN] = (double)len;
            return WENC_TEXT_OK;
        }
    }
    wenc_text_status status = wenc_text_decoder_decode_utf16(
        &state.text, input, len, stream != 0, output.units, &written,
        &consumed);
    io[IO_CONSUMED] = (double)consumed;
    io[IO_WRITTEN] = (double)written;
    return status;
}

/* ---- decoders (§4.1, §6.1) ------------------------------------------- */

/* A decoder for encoding `id` in `state`: bom_mode is a wenc_bom_mode.
 * Returns 1, or 0 for an id or mode out of range. */
EXPORT(wg_decoder_init) int wg_decoder_init(int id, int bom_mode, int fatal)
{
    if (bom_mode < WENC_BOM_SNIFF || bom_mode > WENC_BOM_KEEP)
        return 0;
    return wenc_decoder_init(&state.decoder, (wenc_id)id,
                             (wenc_bom_mode)bom_mode,
                             fatal ? WENC_ERRORS_FATAL
                                   : WENC_ERRORS_REPLACEMENT);
}

/* Decodes input[0..len) with the decoder in `state` to UTF-16 at output:
 * the wenc_status. IO_CONSUMED, IO_WRITTEN; after WENC_ERROR, IO_ERROR_A is
 * the stream offset of the malformed sequence. `replacing`: the decoder is
 * in replacement mode, so that a single-byte decoder's bytes after the
 * first three (where the library sniffs or holds a BOM) may go through
 * the pair table below: a single-byte decoder holds nothing between bytes,
 * and only fatal mode counts the stream's offsets. */
EXPORT(wg_decode) int wg_decode(size_t len, int last, int replacing)
{
    size_t consumed = len, written = OUT_BYTES / 2;
    io[IO_CONSUMED] = 0;
    io[IO_WRITTEN] = 0;
    if (len > IN_BYTES ||
        wenc_decoder_max_utf16_len(&state.decoder, len) > written)
        return WENC_OUTPUT_FULL;
    wenc_id id = wenc_decoder_encoding(&state.decoder);
    size_t head =
        replacing && len >= 64 && id >= SB_FIRST && id <= SB_LAST ? 3 : len;
    consumed = head;
    wenc_status status =
        wenc_decode_to_utf16(&state.decoder, input, &consumed, output.units,
                             &written, last != 0 && head == len);
    if (head < len && status == WENC_INPUT_EMPTY) {
        const uint32_t *pairs =
            consumed == head && wenc_decoder_encoding(&state.decoder) == id
                ? sb_pairs_of(id, len - head)
                : NULL;
        if (pairs) {
            sb_pair_decode(pairs, input + head, len - head,
                           output.units + written);
            written += len - head;
            consumed = len;
        } else {
            size_t rest = len - consumed, room = OUT_BYTES / 2 - written;
            status = wenc_decode_to_utf16(&state.decoder, input + consumed,
                                          &rest, output.units + written,
                                          &room, last != 0);
            consumed += rest;
            written += room;
        }
    }
    io[IO_CONSUMED] = (double)consumed;
    io[IO_WRITTEN] = (double)written;
    if (status == WENC_ERROR) {
        wenc_decode_error error;
        wenc_decoder_error(&state.decoder, &error);
        io[IO_ERROR_A] = (double)error.offset;
    }
    return status;
}

/* ---- encoders (§4.1, §6.1) ------------------------------------------- */

/* An encoder for encoding `id` in `state`: UTF-16BE and UTF-16LE write
 * UTF-16 (with a BOM first when `bom`), the others as the Standard's
 * encoder with the html or fatal error mode. Returns 1, or 0 for an id out
 * of range. */
EXPORT(wg_encoder_init) int wg_encoder_init(int id, int fatal, int bom)
{
    if (id == WENC_UTF_16BE || id == WENC_UTF_16LE)
        return wenc_encoder_init_utf16(&state.encoder, (wenc_id)id, bom != 0);
    return wenc_encoder_init(&state.encoder, (wenc_id)id,
                             fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML);
}

/* Back to the encoder's initial state. */
EXPORT(wg_encoder_reset) void wg_encoder_reset(void)
{
    wenc_encoder_reset(&state.encoder);
}

/* ---- a faster path for the single-byte encoders (§9.2) ---------------
 *
 * In wasm the library's scalar single-byte encoder reads about a code
 * point a nanosecond and a half; this path, a wasm SIMD copy of ASCII and
 * a two-level table of the code points of bytes 80-FF, takes a third of
 * that. The code points come from the library's own decoder (each byte
 * decoded alone), so the bytes are the library's; any code point the table
 * has not (unmappable, a surrogate) is handed to the library's encoder,
 * which writes or reports it as its mode says.
 *
 * The tables are the glue's static memory, built once per encoding on
 * first use (an encoding's table never changes). */

/* Pages of 256 code points with a byte, beyond page 0 (no bytes): the most
 * an encoding's table may use (macintosh uses 10); an encoding that would
 * need more takes the library's path. */
#define SB_PAGES 12

typedef struct sb_table {
    uint8_t page_of[256];            /* code point >> 8 → page, 0: none */
    uint8_t pages[SB_PAGES + 1][256]; /* code point & 0xFF → byte, 0: none */
    /* U+identity_from..U+00FF encode as the bytes of the same value
     * (windows-1252 from A0); 0x100 for none */
    uint16_t identity_from;
    uint8_t built;                   /* 1: built; 2: too many pages */
} sb_table;

static sb_table sb_tables[SB_LAST - SB_FIRST + 1];

/* The table of single-byte encoding id, built on first use; NULL when it
 * would need more than SB_PAGES pages. */
static const sb_table *sb_table_of(wenc_id id)
{
    sb_table *table = &sb_tables[id - SB_FIRST];
    if (table->built)
        return table->built == 1 ? table : NULL;
    unsigned used = 0;
    table->built = 1;
    for (unsigned byte = 0x80; byte <= 0xFF; byte++) {
        wenc_decoder dec;
        uint8_t in = (uint8_t)byte;
        uint16_t unit[4];
        size_t read = 1, written = 4;
        wenc_decoder_init(&dec, id, WENC_BOM_KEEP, WENC_ERRORS_FATAL);
        if (wenc_decode_to_utf16(&dec, &in, &read, unit, &written, true) !=
                WENC_INPUT_EMPTY ||
            written != 1)
            continue; /* no code point: the byte is not in the index */
        unsigned high = unit[0] >> 8, low = unit[0] & 0xFF;
        if (table->page_of[high] == 0) {
            if (used == SB_PAGES) {
                table->built = 2;
                return NULL;
            }
            table->page_of[high] = (uint8_t)++used;
        }
        /* The first pointer of a code point wins (§9.2's index pointer). */
        uint8_t *slot = &table->pages[table->page_of[high]][low];
        if (*slot == 0)
            *slot = (uint8_t)byte;
    }
    unsigned from = 0x100;
    while (from > 0x80 && table->page_of[0] != 0 &&
           table->pages[table->page_of[0]][from - 1] == from - 1)
        from--;
    table->identity_from = (uint16_t)from;
    return table;
}

/* Copies src[0..16) to dst as bytes when they are all ASCII: whether it
 * did. */
#ifdef __wasm_simd128__
static inline bool sb_ascii16(const uint16_t *src, uint8_t *dst)
{
    v128_t a = wasm_v128_load(src);
    v128_t b = wasm_v128_load(src + 8);
    if (wasm_v128_any_true(wasm_v128_and(wasm_v128_or(a, b),
                                         wasm_i16x8_splat((int16_t)0xFF80))))
        return false;
    wasm_v128_store(dst, wasm_u8x16_narrow_i16x8(a, b));
    return true;
}
#endif

/* Copies src[0..16) to dst as bytes when each is ASCII or within
 * `identity` (a vector of two units: the lowest unit of the range and how
 * many more it has; ASCII again where the encoding has none): whether it
 * did (never without wasm SIMD). */
#ifdef __wasm_simd128__
static inline bool sb_identity16(const uint16_t *src, uint8_t *dst,
                                 v128_t from, v128_t span)
{
    v128_t a = wasm_v128_load(src);
    v128_t b = wasm_v128_load(src + 8);
    v128_t ascii = wasm_i16x8_splat(0x7F);
    v128_t ok = wasm_v128_and(
        wasm_v128_or(wasm_u16x8_le(a, ascii),
                     wasm_u16x8_le(wasm_i16x8_sub(a, from), span)),
        wasm_v128_or(wasm_u16x8_le(b, ascii),
                     wasm_u16x8_le(wasm_i16x8_sub(b, from), span)));
    if (!wasm_i16x8_all_true(ok))
        return false;
    wasm_v128_store(dst, wasm_u8x16_narrow_i16x8(a, b));
    return true;
}
#endif

/* ---- the tables' slots -------------------------------------------------
 *
 * Each table path below keeps its tables for the encodings used last in a
 * few static slots, and fills one for an encoding only after that encoding
 * has done `after` units of work without it (so that filling costs at most
 * about what it saves, and encodings taking turns at most double the
 * work). */
#define TABLE_SLOTS 2

typedef struct table_slots {
    int id[TABLE_SLOTS]; /* 0: empty (no encoding with a table is 0) */
    unsigned used[TABLE_SLOTS];
    unsigned clock;
} table_slots;

/* The slot holding encoding `id` (marked used), or -1 with *victim the
 * least recently used one. */
static int slot_of(table_slots *slots, int id, unsigned *victim)
{
    *victim = 0;
    for (unsigned i = 0; i < TABLE_SLOTS; i++) {
        if (slots->id[i] == id) {
            slots->used[i] = ++slots->clock;
            return (int)i;
        }
        if (slots->used[i] < slots->used[*victim])
            *victim = i;
    }
    return -1;
}

static void slot_fill(table_slots *slots, unsigned slot, int id)
{
    slots->id[slot] = id;
    slots->used[slot] = ++slots->clock;
}

/* Counts `len` more units of work in *done: whether they reach `after`
 * (the count then starts again). */
static bool table_due(size_t *done, size_t len, size_t after)
{
    *done += len;
    if (*done < after)
        return false;
    *done = 0;
    return true;
}

/* An encoding used at length goes through a flat table: code unit -> byte,
 * 0 for none (and for U+0000, which is 0x00), one load a unit instead of
 * two dependent ones. Tables of 64 KiB in TABLE_SLOTS slots, filled from
 * the two-level table for an encoding that has encoded FLAT_AFTER units
 * through that table (filling takes about as long as encoding them). */
#define FLAT_AFTER 32768

static uint8_t sb_flat[TABLE_SLOTS][65536];
static table_slots sb_flat_slots;
/* Units encoded through the two-level table, by encoding. */
static size_t sb_units[SB_LAST - SB_FIRST + 1];

/* The flat table of encoding id for an input of len units, or NULL. */
static const uint8_t *sb_flat_of(wenc_id id, const sb_table *table,
                                 size_t len)
{
    unsigned victim;
    int slot = slot_of(&sb_flat_slots, (int)id, &victim);
    if (slot >= 0)
        return sb_flat[slot];
    if (!table_due(&sb_units[id - SB_FIRST], len, FLAT_AFTER))
        return NULL;
    uint8_t *bytes = sb_flat[victim];
    for (unsigned u = 0; u < 0x80; u++)
        bytes[u] = (uint8_t)u;
    for (unsigned u = 0x80; u < 0x10000; u++)
        bytes[u] = table->pages[table->page_of[u >> 8]][u & 0xFF];
    slot_fill(&sb_flat_slots, victim, (int)id);
    return bytes;
}

/* The index of the first zero byte of dst[0..n) whose unit in src is not
 * U+0000 (a unit the table has not), or n. */
static size_t sb_first_missing(const uint16_t *src, const uint8_t *dst,
                               size_t n)
{
    size_t i = 0;
#ifdef __wasm_simd128__
    for (; n - i >= 16; i += 16) {
        if (!wasm_v128_any_true(wasm_i8x16_eq(wasm_v128_load(dst + i),
                                              wasm_i8x16_splat(0))))
            continue;
        for (size_t k = i; k < i + 16; k++)
            if (dst[k] == 0 && src[k] != 0)
                return k;
    }
#endif
    for (; i < n; i++)
        if (dst[i] == 0 && src[i] != 0)
            return i;
    return n;
}

/* sb_run() through a flat table: a chunk at a time, 16 units copied when
 * ASCII (or, with `identity`, within the encoding's run from
 * identity_from), else looked up, then the chunk checked for a unit with no
 * byte (a check a unit measured a third slower); the chunks double from 16
 * units up to 1024, so that where the text stops often little is done past
 * the stop. Inlined once for each value of `identity`: the wider check
 * costs the encodings without a run more than it saves them (Czech 0.47 ->
 * 0.79 ns a unit when one loop made both checks). */
static inline __attribute__((always_inline)) size_t
sb_flat_run(const uint8_t *flat, const uint16_t *src, size_t n, uint8_t *dst,
            bool identity, unsigned identity_from)
{
    size_t i = 0, chunk = 16;
#ifdef __wasm_simd128__
    v128_t from = wasm_i16x8_splat((int16_t)identity_from);
    v128_t span = wasm_i16x8_splat((int16_t)(0xFF - identity_from));
#else
    (void)identity;
    (void)identity_from;
#endif
    while (i < n) {
        size_t end = n - i < chunk ? n : i + chunk, k = i;
        for (; end - k >= 16; k += 16) {
#ifdef __wasm_simd128__
            if (identity ? sb_identity16(src + k, dst + k, from, span)
                         : sb_ascii16(src + k, dst + k))
                continue;
#endif
            for (size_t j = k; j < k + 16; j++)
                dst[j] = flat[src[j]];
        }
        for (; k < end; k++)
            dst[k] = flat[src[k]];
        size_t missing = sb_first_missing(src + i, dst + i, end - i);
        if (missing < end - i)
            return i + missing;
        i = end;
        if (chunk < 1024)
            chunk *= 2;
    }
    return i;
}

/* Encodes src[0..n) into dst while the table has each unit's byte: the
 * units taken (one byte each), through `flat` when not NULL, else one by
 * one in the two-level table. */
static size_t sb_run(const sb_table *table, const uint8_t *flat,
                     const uint16_t *src, size_t n, uint8_t *dst)
{
    if (flat)
        return table->identity_from > 0xFF
                   ? sb_flat_run(flat, src, n, dst, false, 0x100)
                   : sb_flat_run(flat, src, n, dst, true,
                                 table->identity_from);
    size_t i = 0;
    for (; i < n; i++) {
        uint16_t u = src[i];
        uint8_t byte = u < 0x80 ? (uint8_t)u
                                : table->pages[table->page_of[u >> 8]][u & 0xFF];
        if (byte == 0 && u != 0)
            return i;
        dst[i] = byte;
    }
    return i;
}

/* The library's encoder (in `state`) for the code point at src[pos], where
 * a table path stopped: the unit a table has not, or a surrogate pair; a
 * lone surrogate is given as the U+FFFD it reads as (the library would hold
 * a high surrogate at the end of what it is given). backend.js never ends a
 * piece with a high surrogate (it holds one for the next call), so the
 * encoder holds no unit between calls and the table paths may bypass it.
 * Writes at output.bytes + *out (advanced); returns the units read, and
 * the status in *status. */
static size_t library_step(const uint16_t *src, size_t pos, size_t len,
                           bool last, size_t *out, wenc_status *status)
{
    const uint16_t *unit = src + pos;
    size_t step = 1;
    static const uint16_t replacement = 0xFFFD;
    if (*unit >= 0xD800 && *unit <= 0xDFFF) {
        if (*unit <= 0xDBFF && pos + 1 < len && unit[1] >= 0xDC00 &&
            unit[1] <= 0xDFFF)
            step = 2;
        else
            unit = &replacement;
    }
    size_t read = step, room = OUT_BYTES - *out;
    *status = wenc_encode_from_utf16(&state.encoder, unit, &read,
                                     output.bytes + *out, &room,
                                     last && pos + step == len);
    *out += room;
    return read;
}

/* wg_encode_utf16() for a single-byte encoder: sb_run(), and the library
 * for each unit it stops at. */
static wenc_status sb_encode(wenc_id id, const sb_table *table,
                             const uint16_t *src, size_t len, bool last,
                             size_t *consumed, size_t *written)
{
    size_t pos = 0, out = 0;
    wenc_status status = WENC_INPUT_EMPTY;
    const uint8_t *flat = sb_flat_of(id, table, len);
    for (;;) {
        size_t taken =
            sb_run(table, flat, src + pos, len - pos, output.bytes + out);
        pos += taken;
        out += taken;
        if (pos == len)
            break;
        pos += library_step(src, pos, len, last, &out, &status);
        if (status != WENC_INPUT_EMPTY)
            break;
    }
    *consumed = pos;
    *written = out;
    return status;
}

/* ---- a faster path for the stateless multi-byte encoders --------------
 *
 * GBK, gb18030 (§10), Big5 (§11), EUC-JP, Shift_JIS (§12) and EUC-KR (§13)
 * write one or two bytes for each BMP code point they have; in wasm the
 * library's scalar encoders take 1.7-2.1 ns a code point, a flat table of
 * 64 Ki entries (code unit -> its bytes: lead << 8 | trail, one byte below
 * 0x100, 0 for none), looked up a chunk at a time and written eight at a
 * time where they are all two bytes, 1.0 (Chinese, Japanese) to 1.6
 * (Korean, with a space every few characters). Each entry is
 * what the library's own encoder writes for that code point alone (in
 * fatal mode), so the bytes are the library's; a code point the table has
 * not (unmappable, gb18030's four-byte ones, a surrogate) is handed to the
 * library's encoder, which writes or reports it as its mode says.
 *
 * Tables of 128 KiB in TABLE_SLOTS slots, filled for an encoding that has
 * encoded MB_AFTER units through the library: filling (65,536 calls of the
 * encoder) costs about what encoding that many units does. */
#define MB_AFTER (1u << 20)

static uint16_t mb_flat[TABLE_SLOTS][65536];
static table_slots mb_flat_slots;
/* Units encoded through the library, by encoding (WENC_GBK on). */
static size_t mb_units[WENC_EUC_KR - WENC_GBK + 1];

static bool mb_has_table(wenc_id id)
{
    return id >= WENC_GBK && id <= WENC_EUC_KR && id != WENC_ISO_2022_JP;
}

/* The bytes the encoder for `id` writes for unit alone (0 for none, or
 * more than two). */
static uint16_t mb_bytes_of(wenc_id id, uint16_t unit)
{
    wenc_encoder enc;
    uint8_t bytes[8];
    size_t read = 1, written = sizeof bytes;
    wenc_encoder_init(&enc, id, WENC_ERRORS_FATAL);
    if (wenc_encode_from_utf16(&enc, &unit, &read, bytes, &written, true) !=
            WENC_INPUT_EMPTY ||
        read != 1)
        return 0;
    if (written == 1)
        return bytes[0];
    if (written == 2 && bytes[0] != 0)
        return (uint16_t)(bytes[0] << 8 | bytes[1]);
    return 0;
}

/* The flat table of encoding id for an input of len units, or NULL. */
static const uint16_t *mb_flat_of(wenc_id id, size_t len)
{
    unsigned victim;
    int slot = slot_of(&mb_flat_slots, (int)id, &victim);
    if (slot >= 0)
        return mb_flat[slot];
    if (!table_due(&mb_units[id - WENC_GBK], len, MB_AFTER))
        return NULL;
    uint16_t *bytes = mb_flat[victim];
    for (unsigned u = 0; u < 0x80; u++)
        bytes[u] = (uint16_t)u;
    for (unsigned u = 0x80; u < 0x10000; u++)
        bytes[u] = u >= 0xD800 && u <= 0xDFFF ? 0 : mb_bytes_of(id, (uint16_t)u);
    slot_fill(&mb_flat_slots, victim, (int)id);
    return bytes;
}

/* Writes the bytes of entries[0..n) (none 0) to dst, which has room for
 * 16 bytes more than two a unit: the bytes written. Eight entries at a
 * time when they are all two bytes (a byte swap) or all ASCII (narrowed;
 * never without wasm SIMD), else one at a time. */
static size_t mb_put(const uint16_t *entries, size_t n, uint8_t *dst)
{
    size_t i = 0, out = 0;
    for (; n - i >= 8; i += 8) {
#ifdef __wasm_simd128__
        v128_t e = wasm_v128_load(entries + i);
        if (!wasm_v128_any_true(wasm_u16x8_lt(e, wasm_i16x8_splat(0x100)))) {
            wasm_v128_store(dst + out,
                            wasm_i8x16_shuffle(e, e, 1, 0, 3, 2, 5, 4, 7, 6, 9,
                                               8, 11, 10, 13, 12, 15, 14));
            out += 16;
            continue;
        }
        if (!wasm_v128_any_true(
                wasm_v128_and(e, wasm_i16x8_splat((int16_t)0xFF80)))) {
            wasm_v128_store(dst + out, wasm_u8x16_narrow_i16x8(e, e));
            out += 8;
            continue;
        }
#endif
        for (size_t k = i; k < i + 8; k++) {
            unsigned entry = entries[k], lead = entry >> 8;
            dst[out] = (uint8_t)(lead ? lead : entry);
            dst[out + 1] = (uint8_t)entry;
            out += 1 + (lead != 0);
        }
    }
    for (; i < n; i++) {
        unsigned entry = entries[i], lead = entry >> 8;
        dst[out] = (uint8_t)(lead ? lead : entry);
        dst[out + 1] = (uint8_t)entry;
        out += 1 + (lead != 0);
    }
    return out;
}

/* Encodes src[0..n) into dst through `flat` while it has each unit's
 * bytes: the units taken; *written the bytes. A chunk at a time (16 units,
 * doubling up to 512, so that where the text stops often little is done
 * past the stop): the chunk's entries looked up into `entries`, checked
 * for one of 0 (U+0000 is ASCII, whose entry is 0), then written out. */
static size_t mb_run(const uint16_t *flat, const uint16_t *src, size_t n,
                     uint8_t *dst, size_t *written)
{
    uint16_t entries[512] __attribute__((aligned(16)));
    size_t i = 0, out = 0, chunk = 16;
    while (i < n) {
        size_t count = n - i < chunk ? n - i : chunk;
        unsigned wrapped = 0;
        for (size_t k = 0; k < count; k++) {
            unsigned entry = flat[src[i + k]];
            entries[k] = (uint16_t)entry;
            /* entry - 1 wraps past 0xFFFF for an entry of 0 */
            wrapped |= entry - 1u;
        }
        if (wrapped > 0xFFFF) {
            size_t k = 0;
            while (k < count && (entries[k] != 0 || src[i + k] == 0))
                k++;
            *written = out + mb_put(entries, k, dst + out);
            return i + k;
        }
        out += mb_put(entries, count, dst + out);
        i += count;
        if (chunk < 512)
            chunk *= 2;
    }
    *written = out;
    return i;
}

/* wg_encode_utf16() for an encoder with a flat table: mb_run(), and the
 * library for each code point it stops at (as sb_encode()). */
static wenc_status mb_encode(const uint16_t *flat, const uint16_t *src,
                             size_t len, bool last, size_t *consumed,
                             size_t *written)
{
    size_t pos = 0, out = 0;
    wenc_status status = WENC_INPUT_EMPTY;
    for (;;) {
        size_t made = 0;
        pos += mb_run(flat, src + pos, len - pos, output.bytes + out, &made);
        out += made;
        if (pos == len)
            break;
        pos += library_step(src, pos, len, last, &out, &status);
        if (status != WENC_INPUT_EMPTY)
            break;
    }
    *consumed = pos;
    *written = out;
    return status;
}

/* ---- a faster path for the single-byte decoders (§9.1) ---------------
 *
 * In wasm the library's single-byte decoder takes about 0.37 ns a byte: a
 * load, a table load and a store each. Two bytes at a time through a table
 * of every pair (65,536 entries of two code units: 256 KiB), made from
 * what the library's decoder gives for each byte alone (U+FFFD for a byte
 * the index has not, as replacement mode writes), halves the loads and
 * stores; ASCII goes 16 bytes at a time. One table, for the encoding last
 * used, refilled for one that has decoded PAIRS_AFTER bytes through the
 * library since (filling takes about what decoding that much does). */
#define PAIRS_AFTER 65536

static struct {
    uint32_t pairs[65536]; /* first byte | second << 8 -> unit | unit << 16 */
    int id;                /* 0: empty (WENC_UTF_8 has no table) */
} sb_pair;
static size_t sb_pair_bytes[SB_LAST - SB_FIRST + 1];

static const uint32_t *sb_pairs_of(wenc_id id, size_t len)
{
    if (sb_pair.id == (int)id)
        return sb_pair.pairs;
    if (!table_due(&sb_pair_bytes[id - SB_FIRST], len, PAIRS_AFTER))
        return NULL;
    uint16_t units[256];
    for (unsigned b = 0; b < 256; b++) {
        wenc_decoder dec;
        uint8_t in = (uint8_t)b;
        size_t read = 1, written = 1;
        if (!wenc_decoder_init(&dec, id, WENC_BOM_KEEP,
                               WENC_ERRORS_REPLACEMENT) ||
            wenc_decode_to_utf16(&dec, &in, &read, &units[b], &written,
                                 true) != WENC_INPUT_EMPTY ||
            written != 1)
            return NULL;
    }
    for (unsigned pair = 0; pair < 65536; pair++)
        sb_pair.pairs[pair] =
            (uint32_t)units[pair & 0xFF] | (uint32_t)units[pair >> 8] << 16;
    sb_pair.id = (int)id;
    return sb_pair.pairs;
}

/* Decodes src[0..n) into dst[0..n) through `pairs`. */
static void sb_pair_decode(const uint32_t *pairs, const uint8_t *src,
                           size_t n, uint16_t *dst)
{
    size_t i = 0;
    for (; n - i >= 16; i += 16) {
#ifdef __wasm_simd128__
        v128_t bytes = wasm_v128_load(src + i);
        if (!wasm_i8x16_bitmask(bytes)) {
            wasm_v128_store(dst + i, wasm_u16x8_extend_low_u8x16(bytes));
            wasm_v128_store(dst + i + 8, wasm_u16x8_extend_high_u8x16(bytes));
            continue;
        }
#endif
        for (size_t k = i; k < i + 16; k += 2) {
            uint16_t pair;
            memcpy(&pair, src + k, 2);
            uint32_t units = pairs[pair];
            memcpy(dst + k, &units, 4);
        }
    }
    for (; i < n; i++)
        dst[i] = (uint16_t)pairs[src[i]];
}

/* Encodes input[from..from+len) with the encoder in `state` into output:
 * UTF-8 bytes (wg_encode_utf8) or UTF-16 code units (wg_encode_utf16),
 * `from` and `len` in those units. Returns the wenc_status. IO_CONSUMED
 * (units from `from`), IO_WRITTEN (bytes); after WENC_ERROR, IO_ERROR_A the
 * code point and IO_ERROR_B its length in units (the input consumed ends
 * with it). */
static int encode_units(size_t from, size_t len, int last, int utf16)
{
    size_t consumed = len, written = OUT_BYTES;
    size_t units = utf16 ? IN_BYTES / 2 : IN_BYTES;
    wenc_status status;
    io[IO_CONSUMED] = 0;
    io[IO_WRITTEN] = 0;
    if (from > units || len > units - from)
        return WENC_OUTPUT_FULL;
    wenc_id id = wenc_encoder_encoding(&state.encoder);
    const sb_table *table =
        utf16 && id >= SB_FIRST && id <= SB_LAST ? sb_table_of(id) : NULL;
    const uint16_t *flat =
        utf16 && mb_has_table(id) ? mb_flat_of(id, len) : NULL;
    if (table)
        status = sb_encode(id, table,
                           (const uint16_t *)(const void *)input + from,
                           len, last != 0, &consumed, &written);
    else if (flat)
        status = mb_encode(flat, (const uint16_t *)(const void *)input + from,
                           len, last != 0, &consumed, &written);
    else if (utf16)
        status = wenc_encode_from_utf16(
            &state.encoder, (const uint16_t *)(const void *)input + from,
            &consumed, output.bytes, &written, last != 0);
    else
        status = wenc_encode_from_utf8(&state.encoder, input + from,
                                       &consumed, output.bytes, &written,
                                       last != 0);
    io[IO_CONSUMED] = (double)consumed;
    io[IO_WRITTEN] = (double)written;
    if (status == WENC_ERROR) {
        wenc_encode_error error;
        wenc_encoder_error(&state.encoder, &error);
        io[IO_ERROR_A] = (double)error.code_point;
        io[IO_ERROR_B] = (double)error.length;
    }
    return status;
}

EXPORT(wg_encode_utf8) int wg_encode_utf8(size_t from, size_t len, int last)
{
    return encode_units(from, len, last, 0);
}

EXPORT(wg_encode_utf16) int wg_encode_utf16(size_t from, size_t len, int last)
{
    return encode_units(from, len, last, 1);
}

/* The UTF-16 code units of the well-formed UTF-8 at input[0..len) (as
 * TextEncoder.encodeInto() writes it): one per sequence, two for a
 * four-byte one. Turns an encoder's error offset into the string's. */
EXPORT(wg_utf16_length) size_t wg_utf16_length(size_t len)
{
    size_t units = 0;
    if (len > IN_BYTES)
        len = IN_BYTES;
    for (size_t i = 0; i < len; i++) {
        uint8_t byte = input[i];
        units += (byte & 0xC0) != 0x80;
        units += byte >= 0xF0;
    }
    return units;
}

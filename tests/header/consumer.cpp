/*
 * tests/header/consumer.cpp — wenc.h used from C++, compiled by
 * tests/header/run.sh as C++11 and C++17 with every C++ compiler found, with
 * warnings as errors, and linked with the C library. wenc.h comes first.
 *
 * Uses the header's enums, structs and functions the way C++ code would
 * (enums in a switch, structs value-initialised and copied) and checks exact
 * results. Prints nothing and exits 0 on success; names each failed check
 * and exits 1.
 */
#include <wenc.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "header consumer (C++): %s\n", what);
        ++failures;
    }
}

const char *status_name(wenc_status st)
{
    switch (st) {
    case WENC_INPUT_EMPTY:
        return "input empty";
    case WENC_OUTPUT_FULL:
        return "output full";
    case WENC_ERROR:
        return "error";
    }
    return "?";
}

} // namespace

int main()
{
    const std::string joined = std::to_string(WENC_VERSION_MAJOR) + "." +
                               std::to_string(WENC_VERSION_MINOR) + "." +
                               std::to_string(WENC_VERSION_PATCH);
    check(joined == WENC_VERSION_STRING,
          "WENC_VERSION_STRING is not WENC_VERSION_MAJOR.MINOR.PATCH");
    check(std::strcmp(wenc_version(), WENC_VERSION_STRING) == 0,
          "wenc_version() is not WENC_VERSION_STRING");

    const std::string label = "shift_jis";
    const wenc_id id = wenc_lookup(label.data(), label.size());
    check(id == WENC_SHIFT_JIS && std::strcmp(wenc_name(id), "Shift_JIS") == 0,
          "wenc_lookup(\"shift_jis\") and wenc_name");
    check(wenc_has_encoder(id) && !wenc_has_encoder(WENC_REPLACEMENT),
          "wenc_has_encoder");

    // Shift_JIS 82 A0 81 40 decodes to U+3042 U+3000, in two calls split
    // inside the first character; the decoder is copied between them.
    const uint8_t in[] = {0x82, 0xA0, 0x81, 0x40};
    const uint16_t want[] = {0x3042, 0x3000};
    wenc_decoder dec = wenc_decoder();
    check(wenc_decoder_init(&dec, id, WENC_BOM_KEEP, WENC_ERRORS_FATAL),
          "wenc_decoder_init");
    uint16_t out[8] = {};
    size_t src_len = 1, dst_len = 8;
    wenc_status st = wenc_decode_to_utf16(&dec, in, &src_len, out, &dst_len, false);
    check(st == WENC_INPUT_EMPTY && src_len == 1 && dst_len == 0,
          "wenc_decode_to_utf16, first byte");
    const wenc_decoder copy = dec;
    dec = copy;
    size_t written = dst_len;
    src_len = sizeof in - 1;
    dst_len = 8 - written;
    st = wenc_decode_to_utf16(&dec, in + 1, &src_len, out + written, &dst_len, true);
    written += dst_len;
    check(st == WENC_INPUT_EMPTY && written == 2 &&
              std::memcmp(out, want, sizeof want) == 0,
          (std::string("wenc_decode_to_utf16, the rest: ") + status_name(st))
              .c_str());

    // TextEncoder.encodeInto("a€", 3 bytes): "a" only, never half of "€".
    const uint16_t text[] = {0x61, 0x20AC};
    uint8_t bytes[3] = {};
    size_t read = 0, wrote = 0;
    wenc_text_encode_into(text, 2, bytes, sizeof bytes, &read, &wrote);
    check(read == 1 && wrote == 1 && bytes[0] == 0x61,
          "wenc_text_encode_into of \"a\\u20AC\" into 3 bytes");

    wenc_text_encoder_stream ts;
    wenc_text_encoder_stream_init(&ts);
    uint8_t chunk[3 * (1 + 1)];
    const uint16_t high = 0xD83D;
    check(wenc_text_encoder_stream_chunk(&ts, &high, 1, chunk) == 0 &&
              wenc_text_encoder_stream_flush(&ts, chunk) == 3 &&
              chunk[0] == 0xEF && chunk[1] == 0xBF && chunk[2] == 0xBD,
          "TextEncoderStream with a lone high surrogate");

    return failures ? 1 : 0;
}

"""The Wikipedia corpus: UTF-8 and UTF-16 against Python's own codecs,
which agree with the Standard on well-formed input (and on the U+FFFD of
CPython's UTF-8 "replace", which follows the same maximal-subpart rule);
every legacy encoding that fits a language both ways against the
reference encoders of helpers.py; streaming in uneven pieces."""

import os
import unittest

import wenc

from . import helpers
from .helpers import corpus_files, need_corpus, need_data

# Which legacy encodings each language's text goes through.
LEGACY = {
    "ja": ["Shift_JIS", "EUC-JP", "ISO-2022-JP"], "zh_cn": ["gb18030", "GBK"],
    "zh_tw": ["Big5"], "ko": ["EUC-KR"],
    "ru": ["windows-1251", "KOI8-R", "IBM866", "ISO-8859-5", "x-mac-cyrillic", "KOI8-U"],
    "el": ["windows-1253", "ISO-8859-7"], "he": ["windows-1255", "ISO-8859-8"],
    "ar": ["windows-1256", "ISO-8859-6"], "th": ["windows-874"], "vi": ["windows-1258"],
    "cs": ["windows-1250", "ISO-8859-2"], "tr": ["windows-1254", "ISO-8859-3"],
    "de": ["windows-1252", "macintosh", "ISO-8859-15"], "fr": ["windows-1252", "ISO-8859-16"],
    "pt": ["windows-1252", "ISO-8859-4"], "en": ["windows-1252", "ISO-8859-13", "ISO-8859-14",
                                                 "ISO-8859-10", "windows-1257", "ISO-8859-8-I"],
}


def damaged(data, seed):
    """Deterministic damage: 64 bytes replaced by bytes that break UTF-8."""
    out = bytearray(data)
    state = seed
    for _ in range(64):
        state = (state * 1103515245 + 12345) % 2147483648
        at = state % len(out)
        state = (state * 1103515245 + 12345) % 2147483648
        out[at] = (0xFF, 0x80, 0xC0, 0xE2, 0xED, 0xF4, 0xDC, 0xD8)[state % 8]
    return bytes(out)


def uneven(data):
    at, step = 0, 1
    while at < len(data):
        yield data[at:at + step]
        at += step
        step = step * 7 % 4099 + 1


class CorpusTest(unittest.TestCase):
    def setUp(self):
        need_corpus(self)

    def test_utf8_and_utf16(self):
        files = corpus_files()
        self.assertGreaterEqual(len(files), 32)
        for path in files:
            with open(path, "rb") as f:
                data = f.read()
            name = os.path.basename(path)
            text = data.decode("utf-8")
            self.assertEqual(wenc.decode(data), text, name)
            self.assertEqual(wenc.encode(text, "utf-8"), data, name)
            self.assertEqual(wenc.TextEncoder().encode(text), data, name)
            broken = damaged(data, len(data))
            self.assertEqual(wenc.decode(broken), broken.decode("utf-8", "replace"), name)
            ascii_only = bytes(b for b in data if b < 0x80)
            self.assertEqual(wenc.decode(ascii_only), ascii_only.decode("ascii"), name)
            decoder = wenc.Decoder("utf-8")
            streamed = "".join(decoder.decode(piece) for piece in uneven(broken))
            self.assertEqual(streamed + decoder.decode(final=True),
                             broken.decode("utf-8", "replace"), name)
            for codec, label in (("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be")):
                utf16 = text.encode(codec)
                self.assertEqual(wenc.decode(utf16, label), text, f"{name} {label}")
                self.assertEqual(wenc.decode(utf16[:-1], label), text[:-1] + "\ufffd")

    def test_legacy_encodings_both_ways(self):
        need_data(self)
        for path in corpus_files():
            language = os.path.basename(path).split(".")[0].split("-")[0]
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for name in LEGACY.get(language, []):
                with self.subTest(file=os.path.basename(path), encoding=name):
                    if name == "ISO-2022-JP":
                        expected = helpers.encode_iso_2022_jp(text)
                    else:
                        expected = helpers.encode_stateless(
                            helpers.reference_encoder(name), text)
                    encoded = wenc.encode(text, name)
                    self.assertEqual(encoded, expected)
                    decoded = wenc.decode(encoded, name, errors="fatal")
                    if name in helpers.SINGLE_BYTE_INDEX_NAMES:
                        # §9.1: every byte through the index.
                        index = dict(helpers.read_index(helpers.SINGLE_BYTE_INDEX_NAMES[name]))
                        table = {0x80 + p: cp for p, cp in index.items()}
                        self.assertEqual(decoded, encoded.decode("latin-1").translate(table))
                    else:
                        # The multi-byte indexes are checked pointer by
                        # pointer in test_indexes; here the text comes back
                        # to the same bytes.
                        self.assertEqual(wenc.encode(decoded, name), encoded)
                    decoder = wenc.Decoder(name, errors="fatal")
                    streamed = "".join(decoder.decode(p) for p in uneven(encoded))
                    self.assertEqual(streamed + decoder.decode(final=True), decoded)


if __name__ == "__main__":
    unittest.main()

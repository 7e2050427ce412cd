"""Every encoding against the Standard's index files: every byte of the
single-byte encodings, every pointer of the multi-byte indexes (bytes made
by the Standard's pointer arithmetic, §9-§13), and the encoders against
the reference encoders of helpers.py. Each check is one call over all its
input, compared with one string or bytes built from the index."""

import unittest

import wenc

from . import helpers
from .helpers import need_data, read_index

FFFD = "\ufffd"

# Code points the encoders are given: all of U+0000 to U+2FFF (surrogates
# excluded), every code point of the index under test, and a few beyond.
BASE_CODE_POINTS = list(range(0x3000)) + [0xE5E5, 0xE7C7, 0xFFFD, 0xFFFF,
                                          0x10000, 0x1F600, 0x10FFFF]


def code_point_text(extra):
    return "".join(map(chr, sorted(set(BASE_CODE_POINTS) | set(extra))))


class TextAssertions(unittest.TestCase):
    def assertSameText(self, actual, expected, what):
        if actual != expected:
            at = next((i for i, (a, b) in enumerate(zip(actual, expected)) if a != b),
                      min(len(actual), len(expected)))
            self.fail(f"{what}: first difference at {at}: "
                      f"{actual[at:at + 4]!r} != {expected[at:at + 4]!r}")


class IndexTest(TextAssertions):
    def setUp(self):
        need_data(self)

    def check_encoder(self, name, extra):
        text = code_point_text(extra)
        expected = helpers.encode_stateless(helpers.reference_encoder(name), text)
        self.assertSameText(wenc.encode(text, name), expected, f"{name} encode")

    def test_single_byte_every_byte(self):
        group = next(g for g in helpers.encodings()
                     if g["heading"] == "Legacy single-byte encodings")
        self.assertEqual(len(group["encodings"]), 28)
        self.assertEqual({e["name"] for e in group["encodings"]},
                         set(helpers.SINGLE_BYTE_INDEX_NAMES))
        every_byte = bytes(range(256))
        for encoding in group["encodings"]:
            name = encoding["name"]
            with self.subTest(name):
                index = dict(read_index(helpers.SINGLE_BYTE_INDEX_NAMES[name]))
                expected = "".join(chr(b) if b < 0x80 else chr(index[b - 0x80])
                                   if b - 0x80 in index else FFFD for b in range(256))
                self.assertEqual(wenc.decode(every_byte, name), expected)
                for byte in range(0x80, 0x100):
                    if byte - 0x80 in index:
                        continue
                    with self.assertRaises(wenc.DecodeError) as caught:
                        wenc.decode(bytes([0x41, byte, 0x42]), name, errors="fatal")
                    self.assertEqual((caught.exception.start, caught.exception.end), (1, 2))
                self.check_encoder(name, index.values())

    def test_x_user_defined(self):
        every_byte = bytes(range(256))
        expected = "".join(chr(b if b < 0x80 else 0xF780 + b - 0x80) for b in range(256))
        self.assertEqual(wenc.decode(every_byte, "x-user-defined"), expected)
        self.assertEqual(wenc.encode(expected, "x-user-defined", errors="fatal"), every_byte)
        self.check_encoder("x-user-defined", range(0xF780, 0xF800))

    def check_pointers(self, label, entries, to_bytes, expected_text):
        data = b"".join(to_bytes(pointer) for pointer, _ in entries)
        expected = "".join(expected_text(pointer, cp) for pointer, cp in entries)
        self.assertSameText(wenc.decode(data, label, errors="fatal"), expected, label)

    def test_gb18030_and_gbk(self):
        index = read_index("gb18030")
        self.assertEqual(len(index), 23940)
        for label in ("gb18030", "gbk"):
            self.check_pointers(label, index, helpers.gb18030_two_bytes,
                                lambda p, cp: chr(cp))
            self.assertEqual(wenc.decode(b"\x80\xff", label), "\u20ac" + FFFD)
        # Four bytes: the first, middle and last pointer of every range.
        ranges = read_index("gb18030-ranges")
        pointers = [7457, 189000, 189000 + 0xFFFF, 1237575]
        for i, (start, _) in enumerate(ranges):
            if start < 39420:  # the last entry, 189000, is the astral planes
                end = min(ranges[i + 1][0], 39420)
                pointers += [start, (start + end - 1) // 2, end - 1]
        four = b"".join(helpers.gb18030_four_bytes(p) for p in pointers)
        decoded = wenc.decode(four, "gb18030", errors="fatal")

        def ranges_code_point(pointer):  # §5 index gb18030 ranges code point
            if pointer == 7457:
                return 0xE7C7
            if pointer >= 189000:
                return 0x10000 + pointer - 189000
            offset, cp_offset = max((s, c) for s, c in ranges if s <= pointer)
            return cp_offset + pointer - offset
        self.assertSameText(decoded, "".join(chr(ranges_code_point(p)) for p in pointers),
                            "gb18030 four bytes")
        for pointer in (39420, 100000, 188999, 1237576):
            self.assertEqual(wenc.decode(helpers.gb18030_four_bytes(pointer) + b"A",
                                         "gb18030"), FFFD + "A")
        self.check_encoder("gb18030", [cp for _, cp in index]
                           + [0x10000 + i * 4099 for i in range(256)])
        self.check_encoder("GBK", [cp for _, cp in index])

    def test_gb18030_2022_changes(self):
        # DESIGN.md: 18 pointers moved from Private Use to standard code
        # points; the encoders still write the old code points as two bytes.
        index = dict(read_index("gb18030"))
        for cp, two in helpers.GB18030_PRIVATE_USE.items():
            lead, trail = two
            pointer = (lead - 0x81) * 190 + trail - (0x40 if trail < 0x7F else 0x41)
            new = index[pointer]
            self.assertNotEqual(new, cp)
            self.assertEqual(wenc.decode(two, "gb18030"), chr(new))
            for label in ("gb18030", "gbk"):
                self.assertEqual(wenc.encode(chr(cp), label, errors="fatal"), two)
                self.assertEqual(wenc.encode(chr(new), label, errors="fatal"), two)

    def test_big5(self):
        index = read_index("big5")
        special = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c",
                   1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}
        entries = index + [(p, None) for p in special if p not in dict(index)]
        self.check_pointers("big5", entries, helpers.big5_bytes,
                            lambda p, cp: special.get(p) or chr(cp))
        self.check_encoder("Big5", [cp for _, cp in index])

    def test_euc_jp_iso_2022_jp_shift_jis(self):
        jis0208 = read_index("jis0208")
        jis0212 = read_index("jis0212")
        below = [(p, cp) for p, cp in jis0208 if p < 8836]
        self.check_pointers("euc-jp", below, helpers.euc_jp_bytes, lambda p, cp: chr(cp))
        self.check_pointers("euc-jp", jis0212, lambda p: b"\x8f" + helpers.euc_jp_bytes(p),
                            lambda p, cp: chr(cp))
        self.check_pointers("euc-jp", [(b, None) for b in range(0xA1, 0xE0)],
                            lambda b: bytes([0x8E, b]), lambda b, _: chr(0xFF61 - 0xA1 + b))
        iso = b"\x1b$B" + b"".join(bytes([p // 94 + 0x21, p % 94 + 0x21])
                                    for p, _ in below) + b"\x1b(B"
        self.assertSameText(wenc.decode(iso, "iso-2022-jp", errors="fatal"),
                            "".join(chr(cp) for _, cp in below), "iso-2022-jp")
        katakana = "".join(chr(0xFF61 - 0x21 + b) for b in range(0x21, 0x60))
        self.assertEqual(wenc.decode(b"\x1b(I" + bytes(range(0x21, 0x60))
                                     + b"\x1b(J\x5c\x7eA", "iso-2022-jp"),
                         katakana + "\u00a5\u203eA")
        eudc = [(p, None) for p in range(8836, 10716) if p not in dict(jis0208)]
        self.check_pointers("shift_jis", jis0208 + eudc, helpers.shift_jis_bytes,
                            lambda p, cp: chr(0xE000 - 8836 + p) if 8836 <= p <= 10715
                            else chr(cp))
        self.assertEqual(wenc.decode(bytes(range(0xA1, 0xE0)), "shift_jis"), katakana)
        self.assertEqual(wenc.decode(b"\x5c\x7e\x80", "shift_jis"), "\\~\x80")
        cps = [cp for _, cp in jis0208] + list(range(0xFF61, 0xFFA0))
        self.check_encoder("EUC-JP", cps)
        self.check_encoder("Shift_JIS", cps)
        text = code_point_text(cps)
        self.assertSameText(wenc.encode(text, "iso-2022-jp"),
                            helpers.encode_iso_2022_jp(text), "iso-2022-jp encode")

    def test_euc_kr(self):
        index = read_index("euc-kr")
        self.assertEqual(len(index), 17048)
        self.check_pointers("euc-kr", index, helpers.euc_kr_bytes, lambda p, cp: chr(cp))
        self.check_encoder("EUC-KR", [cp for _, cp in index])

    def test_round_trips_in_fatal_mode(self):
        # Every code point an encoder maps comes back from its decoder.
        for name, cps in (("GBK", [cp for _, cp in read_index("gb18030")]),
                          ("Big5", [cp for p, cp in read_index("big5") if p >= 5024]),
                          ("EUC-KR", [cp for _, cp in read_index("euc-kr")]),
                          ("Shift_JIS", [cp for p, cp in read_index("jis0208")
                                         if not 8272 <= p <= 8835])):
            with self.subTest(name):
                text = "".join(map(chr, dict.fromkeys(cps)))
                encoded = wenc.encode(text, name, errors="fatal")
                self.assertSameText(wenc.decode(encoded, name, errors="fatal"), text, name)


class MalformedTest(unittest.TestCase):
    # Hand-worked from the decoders' algorithms: the output in replacement
    # mode, and where the first error lies.
    CASES = [
        ("utf-8", b"\xf0\x80", FFFD * 2, (0, 1)),
        ("utf-8", b"\xe2\x82", FFFD, (0, 2)),
        ("utf-8", b"\xed\xa0\x80", FFFD * 3, (0, 1)),
        ("utf-8", b"\xf4\x90\x80\x80", FFFD * 4, (0, 1)),
        ("shift_jis", b"\x81\x20", FFFD + " ", (0, 1)),
        ("euc-kr", b"\x81\x20", FFFD + " ", (0, 1)),
        ("big5", b"\x81", FFFD, (0, 1)),
        ("big5", b"\x81\x41", FFFD + "A", (0, 1)),
        ("euc-jp", b"\x8f\xa1", FFFD, (0, 2)),
        ("gb18030", b"\x81\x30\x81", FFFD, (0, 3)),
        ("gb18030", b"\x81\x30\x41", FFFD + "0A", (0, 1)),
        ("iso-2022-jp", b"\x1b\x24", FFFD + "$", (0, 1)),
        ("iso-2022-jp", b"\x1b\x28\x41\x42", FFFD + "(AB", (0, 1)),
        ("utf-16le", b"A\x00\x00", "A" + FFFD, (2, 3)),
        ("utf-16le", b"\x00\xd8A\x00", FFFD + "A", (0, 2)),
        ("utf-16be", b"\xdc\x00\x00A", FFFD + "A", (0, 2)),
        # §14.1: one error for the whole stream, at its first byte.
        ("replacement", b"abc", FFFD, (0, 1)),
    ]

    def test_replacement_and_fatal_offsets(self):
        for label, data, expected, (start, end) in self.CASES:
            with self.subTest(label=label, data=data):
                self.assertEqual(wenc.decode(data, label, bom="keep"), expected)
                with self.assertRaises(wenc.DecodeError) as caught:
                    wenc.decode(data, label, errors="fatal", bom="keep")
                error = caught.exception
                self.assertIsInstance(error, UnicodeDecodeError)
                self.assertEqual((error.start, error.end), (start, end))
                self.assertEqual(error.object, data)
                self.assertEqual(error.offset, start)


if __name__ == "__main__":
    unittest.main()

"""The module's functions and the Standard's hooks (§6): modes, BOM
handling, fatal errors as Python's codecs report them, the buffer
protocol, type errors, str kinds, long inputs (the GIL released) and
TextEncoder. Expected values are worked out by hand from the Standard."""

import array
import ast
import os
import sys
import threading
import unittest

import wenc

wenc.register()
FFFD = "\ufffd"


class DecodeTest(unittest.TestCase):
    def test_bom_modes(self):
        # §6.1 decode: a BOM wins over the label and is removed.
        self.assertEqual(wenc.decode(b"\xef\xbb\xbfA", "windows-1252"), "A")
        self.assertEqual(wenc.decode(b"\xff\xfeA\x00", "utf-8"), "A")
        self.assertEqual(wenc.decode(b"\xfe\xff\x00A", "shift_jis"), "A")
        # strip: only the label's own BOM; keep: none.
        self.assertEqual(wenc.decode(b"\xef\xbb\xbfA", "windows-1252", bom="strip"),
                         "\u00ef\u00bb\u00bfA")
        self.assertEqual(wenc.decode(b"\xff\xfeA\x00", "utf-16le", bom="strip"), "A")
        self.assertEqual(wenc.decode(b"\xef\xbb\xbfA", "utf-8", bom="keep"), "\ufeffA")
        self.assertEqual(wenc.utf8_decode(b"\xef\xbb\xbf\xef\xbb\xbfA"), "\ufeffA")
        self.assertEqual(wenc.utf8_decode_without_bom(b"\xef\xbb\xbfA"), "\ufeffA")
        self.assertEqual(wenc.utf8_decode_without_bom_or_fail(b"\xef\xbb\xbfA"), "\ufeffA")
        with self.assertRaises(wenc.DecodeError):
            wenc.utf8_decode_without_bom_or_fail(b"A\x80")
        self.assertEqual(wenc.utf8_decode(b"a\xffb"), f"a{FFFD}b")

    def test_str_kinds_are_canonical(self):
        # Each result equals the literal whatever the kind it was built in.
        cases = [(b"abc", "utf-8", "abc"), (b"\xe9", "windows-1252", "\u00e9"),
                 (b"\x80", "windows-1252", "\u20ac"), (b"\xf0\x9f\x98\x80a", "utf-8", "\U0001F600a"),
                 (b"\x82\xa0", "shift_jis", "\u3042"), (b"=\xd8\x00\xde", "utf-16le", "\U0001F600"),
                 (b"\x90\x30\x81\x30", "gb18030", "\U00010000"), (b"", "utf-8", "")]
        for data, label, expected in cases:
            decoded = wenc.decode(data, label)
            self.assertEqual(decoded, expected)
            self.assertEqual(hash(decoded), hash(expected))
            self.assertEqual(sys.getsizeof(decoded), sys.getsizeof(expected))

    def test_fatal_error_fields(self):
        data = b"\xe3\x81\x82 \xe3\x81 x"
        with self.assertRaises(wenc.DecodeError) as caught:
            wenc.decode(data, "utf-8", errors="fatal")
        error = caught.exception
        self.assertIsInstance(error, UnicodeDecodeError)
        self.assertIsInstance(error, ValueError)
        self.assertEqual((error.encoding, error.object, error.start, error.end),
                         ("UTF-8", data, 4, 6))
        self.assertEqual((error.offset, error.output, error.reason),
                         (4, "\u3042 ", "malformed input"))
        self.assertIn("position 4-5", str(error))
        # Counting the BOM: offsets are in the input as given.
        with self.assertRaises(wenc.DecodeError) as caught:
            wenc.decode(b"\xff\xfeA\x00\x00\xdc", "utf-8", errors="fatal")
        self.assertEqual((caught.exception.start, caught.exception.end), (4, 6))
        self.assertEqual(caught.exception.encoding, "UTF-16LE")
        with self.assertRaises(wenc.DecodeError) as caught:
            wenc.decode(bytearray(b"ab\x81"), "shift_jis", errors="strict")
        self.assertEqual(caught.exception.object, b"ab\x81")
        self.assertEqual((caught.exception.start, caught.exception.end), (2, 3))


    def test_long_utf16_pieces(self):
        # Long UTF-16 goes into the str a piece at a time (8192 units), pieces
        # without surrogates straight from the bytes. Expected values are built
        # by hand: each code unit is two bytes in the label's byte order.
        def utf16(units, big_endian):
            order = "big" if big_endian else "little"
            return b"".join(unit.to_bytes(2, order) for unit in units)

        piece = 8192
        for label, big in (("utf-16le", False), ("utf-16be", True)):
            for body in ("x" * (3 * piece), "x\u00e9" * (2 * piece), "\u3042x" * piece,
                         "x" * (2 * piece) + "\u00e9" * piece + "\u20ac" * piece + "y" * piece):
                units = [ord(c) for c in body]
                self.assertEqual(wenc.decode(utf16(units, big), label), body)
                bom = utf16([0xFEFF], big)
                self.assertEqual(wenc.decode(bom + utf16(units, big), label), body)
                # A UTF-8 BOM overrides the label.
                self.assertEqual(wenc.decode(b"\xef\xbb\xbf" + body.encode(), label), body)
            # Malformed units after pieces that went straight: a lone lead
            # surrogate, a pair, an odd last byte. Offsets count every byte.
            body = "a\u00e9" * (3 * piece)
            at = 5 * piece + 1
            units = [ord(c) for c in body]
            data = (utf16(units[:at], big) + utf16([0xD800], big) + utf16(units[at:], big) +
                    utf16([0xD83D, 0xDE00], big) + b"A")
            expected = body[:at] + FFFD + body[at:] + "\U0001F600" + FFFD
            self.assertEqual(wenc.decode(data, label), expected)
            for decode in (lambda: wenc.decode(data, label, errors="fatal"),
                           lambda: data.decode("whatwg:" + label)):
                with self.assertRaises(UnicodeDecodeError) as caught:
                    decode()
                self.assertEqual((caught.exception.start, caught.exception.end),
                                 (2 * at, 2 * at + 2))
            tail = data[2 * at + 2:]
            with self.assertRaises(wenc.DecodeError) as caught:
                wenc.decode(tail, label, errors="fatal")
            self.assertEqual((caught.exception.start, caught.exception.end),
                             (len(tail) - 1, len(tail)))
            self.assertEqual(data.decode("whatwg:" + label, "backslashreplace"),
                             body[:at] + ("\\xd8\\x00" if big else "\\x00\\xd8") + body[at:] +
                             "\U0001F600" + "\\x41")
    def test_bytes_like_inputs(self):
        data = "k\u00f6\u00f6p".encode("utf-8")
        for source in (data, bytearray(data), memoryview(data), array.array("B", data),
                       memoryview(b"xx" + data)[2:]):
            self.assertEqual(wenc.decode(source, "utf-8"), "k\u00f6\u00f6p")
        self.assertEqual(wenc.decode(memoryview(b"aXbXc")[::2]), "abc")
        self.assertEqual(wenc.decode(array.array("H", [0x0041, 0x0042]), "utf-16le"), "AB")

    def test_type_errors(self):
        for bad in ("text", 1, None, [1, 2], object()):
            with self.assertRaises(TypeError):
                wenc.decode(bad)
        with self.assertRaises(TypeError):
            wenc.decode(b"", 8)
        with self.assertRaises(TypeError):
            wenc.decode(b"", "utf-8", errors=None)
        with self.assertRaises(ValueError):
            wenc.decode(b"", "utf-8", errors="html")
        with self.assertRaises(ValueError):
            wenc.decode(b"", "utf-8", bom="yes")
        with self.assertRaises(TypeError):
            wenc.decode(b"", "utf-8", "fatal")
        with self.assertRaises(TypeError):
            wenc.decode(b"", "utf-8", error="fatal")
        with self.assertRaises(TypeError):
            wenc.decode(b"", label="utf-8", data=b"")
        with self.assertRaises(TypeError):
            wenc.decode()
        with self.assertRaises(TypeError):
            wenc.Decoder(b"utf-8")
        with self.assertRaises(TypeError):
            wenc.Decoder("utf-8").decode("str")
        with self.assertRaises(TypeError):
            wenc.TextDecoder().decode(12)

    def test_long_input_from_threads(self):
        # 4 MiB per call: the decoders run with the GIL released.
        # U+3042 U+3044 U+3046: Shift_JIS 82A0 82A2 82A4, EUC-JP A4A2 A4A4 A4A6
        # (index-jis0208.txt pointers 283, 285, 287).
        text = "\u3042\u3044\u3046 abc " * 100_000
        data = b"\x82\xa0\x82\xa2\x82\xa4 abc " * 100_000
        euc_jp = b"\xa4\xa2\xa4\xa4\xa4\xa6 abc " * 100_000
        results = []

        def work():
            results.append(wenc.decode(data, "shift_jis") == text and
                           wenc.encode(text, "euc-jp") == euc_jp)
        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(results, [True] * 4)


class EncodeTest(unittest.TestCase):
    def test_modes(self):
        self.assertEqual(wenc.encode("a\u20acb\u2603", "windows-1252"), b"a\x80b&#9731;")
        self.assertEqual(wenc.encode("\U0001F600", "shift_jis"), b"&#128512;")
        self.assertEqual(wenc.encode("\u00e9", "utf-16le"), b"\xc3\xa9")
        self.assertEqual(wenc.encode("\u00e9", "replacement"), b"\xc3\xa9")
        self.assertEqual(wenc.encode("\u00e9", "latin1", errors="xmlcharrefreplace"), b"\xe9")
        self.assertEqual(wenc.utf8_encode("\u00e9\U0001F600"), b"\xc3\xa9\xf0\x9f\x98\x80")
        self.assertEqual(wenc.encode("", "gbk"), b"")

    def test_surrogates_are_fffd(self):
        self.assertEqual(wenc.encode("a\ud800b", "utf-8"), b"a\xef\xbf\xbdb")
        # Two surrogate code points in a str are two characters, not a pair.
        self.assertEqual(wenc.encode("\ud83d\ude00", "utf-8"), b"\xef\xbf\xbd" * 2)
        self.assertEqual(wenc.encode("\ud83d\U0001F600", "utf-8"),
                         b"\xef\xbf\xbd\xf0\x9f\x98\x80")
        self.assertEqual(wenc.encode("\udc00", "windows-1252"), b"&#65533;")
        self.assertEqual(wenc.encode("\udc00", "gb18030"), b"\x84\x31\xa4\x37")

    def test_fatal_error_fields(self):
        for text, label, start, cp, before in (
                ("ab\u2603c", "windows-1252", 2, 0x2603, b"ab"),
                ("\U0001F600\U0001F601\u00e9\u2603", "shift_jis", 0, 0x1F600, b""),
                ("\u3042\U0001F600\u2603", "euc-jp", 1, 0x1F600, b"\xa4\xa2"),
                ("\u00e9\u00e9\u0100", "windows-1252", 2, 0x100, b"\xe9\xe9"),
                ("\U00010000x\u00e9\u0100", "iso-8859-2", 0, 0x10000, b""),
                ("\u00e9\U00010000x\U0001F600", "gbk", 1, 0x10000, b"\xa8\xa6"),
                ("\x1b", "iso-2022-jp", 0, 0xFFFD, b"")):
            with self.subTest(text=text, label=label):
                with self.assertRaises(wenc.EncodeError) as caught:
                    wenc.encode(text, label, errors="fatal")
                error = caught.exception
                self.assertIsInstance(error, UnicodeEncodeError)
                self.assertEqual((error.object, error.start, error.end), (text, start, start + 1))
                self.assertEqual((error.code_point, error.output), (cp, before))

    def test_type_errors(self):
        for bad in (b"bytes", 1, None):
            with self.assertRaises(TypeError):
                wenc.encode(bad, "utf-8")
        with self.assertRaises(TypeError):
            wenc.encode("x")
        with self.assertRaises(ValueError):
            wenc.encode("x", "utf-8", errors="replacement")
        with self.assertRaises(TypeError):
            wenc.Encoder("utf-8").encode(b"x")


class TextEncoderTest(unittest.TestCase):
    def test_encode_and_encode_into(self):
        encoder = wenc.TextEncoder()
        self.assertEqual(encoder.encoding, "utf-8")
        self.assertEqual(encoder.encode(), b"")
        self.assertEqual(encoder.encode("\u00e9\ud800"), b"\xc3\xa9\xef\xbf\xbd")
        text = "a\u00e9\u3042\U0001F600"
        whole = text.encode("utf-8")
        # Each room size: the longest prefix of whole characters that fits.
        for room in range(0, 12):
            buffer = bytearray(room)
            result = encoder.encode_into(text, buffer)
            fits = max(i for i in range(len(text) + 1)
                       if len(text[:i].encode("utf-8")) <= room)
            self.assertEqual(result, (fits, len(text[:fits].encode("utf-8"))))
            self.assertEqual(bytes(buffer[:result.written]), whole[:result.written])
        self.assertEqual(encoder.encode_into("abc", memoryview(bytearray(2))), (2, 2))
        with self.assertRaises(TypeError):
            encoder.encode_into("abc", b"read-only")
        with self.assertRaises(TypeError):
            encoder.encode_into(b"abc", bytearray(3))


class StubTest(unittest.TestCase):
    def test_stub_names_every_public_name(self):
        path = os.path.join(os.path.dirname(wenc.__file__), "__init__.pyi")
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        stubbed = {node.name for node in tree.body
                   if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        stubbed |= {node.target.id for node in tree.body if isinstance(node, ast.AnnAssign)}
        self.assertEqual(set(wenc.__all__) - stubbed, set())
        for name in wenc.__all__:
            self.assertTrue(getattr(wenc, name).__doc__ or name == "LIBRARY_VERSION", name)


if __name__ == "__main__":
    unittest.main()

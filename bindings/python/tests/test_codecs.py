"""wenc.register(): the "whatwg:LABEL" codecs through bytes.decode,
str.encode, codecs' incremental classes and stream readers, and open() on
a file; and where Python's own codecs differ from the Standard, that ours
gives the Standard's answer."""

import codecs
import io
import os
import tempfile
import unittest

import wenc

from .helpers import need_data, read_index

wenc.register()


class RegistrationTest(unittest.TestCase):
    def test_decode_and_encode(self):
        self.assertEqual(b"\x82\xa0".decode("whatwg:shift_jis"), "\u3042")
        self.assertEqual("\u3042".encode("whatwg:Shift_JIS"), b"\x82\xa0")
        self.assertEqual(codecs.decode(b"\x81", "whatwg:latin1"), "\x81")
        with self.assertRaises(UnicodeDecodeError) as caught:
            b"a\xffb".decode("whatwg:utf-8")
        self.assertIsInstance(caught.exception, wenc.DecodeError)
        self.assertEqual(b"a\xffb".decode("whatwg:utf-8", "replace"), "a\ufffdb")
        with self.assertRaises(UnicodeEncodeError):
            "\u2603".encode("whatwg:windows-1252")
        self.assertEqual("\u2603".encode("whatwg:windows-1252", "xmlcharrefreplace"),
                         b"&#9731;")
        self.assertEqual(b"a\xffb".decode("whatwg:utf-8", "ignore"), "ab")
        wenc.register()  # again: nothing changes
        self.assertEqual(b"\xa4\x40".decode("whatwg:big5"), "\u4e00")

    def test_incremental(self):
        decoder = codecs.getincrementaldecoder("whatwg:gbk")()
        self.assertEqual(decoder.decode(b"\x81"), "")
        self.assertEqual(decoder.decode(b"\x40\x81"), "\u4e02")
        with self.assertRaises(UnicodeDecodeError):
            decoder.decode(b"", final=True)
        decoder = codecs.getincrementaldecoder("whatwg:gbk")("replace")
        self.assertEqual(decoder.decode(b"\x81", final=True), "\ufffd")
        encoder = codecs.getincrementalencoder("whatwg:iso-2022-jp")()
        self.assertEqual(encoder.encode("\u3042"), b"\x1b$B$\"")
        self.assertEqual(encoder.encode("", final=True), b"\x1b(B")
        text = "\u3042\u3044 abc \u00e9"
        data = b"".join(codecs.iterencode(iter(text), "whatwg:euc-jp", "xmlcharrefreplace"))
        self.assertEqual(data, b"\xa4\xa2\xa4\xa4 abc &#233;")
        self.assertEqual("".join(codecs.iterdecode([data[i:i + 1] for i in range(len(data))],
                                                   "whatwg:euc-jp")), "\u3042\u3044 abc &#233;")

    def test_open_a_file(self):
        text = "caf\u00e9 \u20ac\u2019\n" * 5000 + "\u0081"
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "text.txt")
            with open(path, "w", encoding="whatwg:windows-1252", newline="") as f:
                f.write(text)
            with open(path, "rb") as f:
                raw = f.read()
            self.assertEqual(raw, (b"caf\xe9 \x80\x92\n" * 5000) + b"\x81")
            with open(path, encoding="whatwg:windows-1252", newline="") as f:
                self.assertEqual(f.read(), text)
            with open(path, encoding="whatwg:cp1252", newline="") as f:
                self.assertEqual(f.readline(), "caf\u00e9 \u20ac\u2019\n")
            # Characters split across the reads of TextIOWrapper's buffer.
            japanese = "\u3042\u3044\u3046" * 20000
            with open(path, "w", encoding="whatwg:shift_jis") as f:
                f.write(japanese)
            with open(path, encoding="whatwg:shift_jis") as f:
                self.assertEqual(f.read(), japanese)
            with codecs.open(path, encoding="whatwg:shift_jis") as f:
                self.assertEqual(f.read(), japanese)

    def test_tell_and_seek(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "text.txt")
            # Single-byte: tell() and seek() work (E9 is U+00E9, 80 U+20AC).
            with open(path, "wb") as f:
                f.write(b"caf\xe9 \x80\n" * 5000)
            with open(path, encoding="whatwg:windows-1252", newline="") as f:
                f.readline()
                position = f.tell()
                self.assertEqual(f.readline(), "caf\u00e9 \u20ac\n")
                f.seek(position)
                self.assertEqual(f.read(), "caf\u00e9 \u20ac\n" * 4999)
            # A decoder that holds bytes back between reads: tell() gives a
            # cookie that seek() takes back (E3 81 82 is U+3042).
            with open(path, "wb") as f:
                f.write(b"\xe3\x81\x82" * 9000)
            with open(path, encoding="whatwg:utf-8") as f:
                self.assertEqual(f.read(7), "\u3042" * 7)
                position = f.tell()
                self.assertEqual(f.read(2), "\u3042" * 2)
                f.seek(position)
                self.assertEqual(f.read(), "\u3042" * 8993)
                f.seek(0)
                self.assertEqual(f.read(), "\u3042" * 9000)

    def test_no_encoder_for_utf_16_and_replacement(self):
        # The Standard's encoders write UTF-8 for these; as codecs they refuse
        # to encode (a file would not read back), and still decode.
        for name in ("utf-16le", "utf-16be", "replacement"):
            with self.assertRaises(ValueError):
                "a".encode("whatwg:" + name)
            with self.assertRaises(ValueError):
                codecs.getincrementalencoder("whatwg:" + name)().encode("a")
        self.assertEqual(b"a\x00".decode("whatwg:utf-16le"), "a")

    def test_stream_writer_keeps_state(self):
        # Three writes give the bytes of one ISO-2022-JP encode: U+3042 U+3044
        # are 24 22 and 24 24 in jis0208 (pointers 283 and 285), one escape
        # to it and, at reset(), one back to ASCII.
        out = io.BytesIO()
        writer = codecs.getwriter("whatwg:iso-2022-jp")(out)
        for piece in ("\u3042", "\u3044", "a"):
            writer.write(piece)
        writer.reset()
        self.assertEqual(out.getvalue(), b"\x1b$B$\"$$\x1b(Ba")

    def test_stream_reader(self):
        data = "\u3042\u3044".encode("utf-8")
        reader = codecs.getreader("whatwg:utf-8")(io.BytesIO(data))
        self.assertEqual(reader.read(1) + reader.read(), "\u3042\u3044")


class DifferencesFromPythonTest(unittest.TestCase):
    """Each case: Python's codec of the same name answers otherwise; ours
    answers what the Standard's index and algorithm give."""

    def setUp(self):
        need_data(self)

    def check(self, python_codec, label, data, expected):
        try:
            python_answer = data.decode(python_codec)
        except UnicodeDecodeError:
            python_answer = "UnicodeDecodeError"
        self.assertNotEqual(python_answer, expected, (python_codec, data))
        self.assertEqual(wenc.decode(data, label, errors="fatal"), expected)
        self.assertEqual(data.decode(f"whatwg:{label}"), expected)

    def test_windows_1252(self):
        # index-windows-1252 maps pointer 1 (byte 0x81) to U+0081; Python's
        # cp1252 has no mapping for it.
        self.assertEqual(dict(read_index("windows-1252"))[1], 0x81)
        for byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D):
            self.check("cp1252", "windows-1252", bytes([byte]), chr(byte))

    def test_shift_jis(self):
        index = dict(read_index("jis0208"))
        # §12.3.1: byte 0x80 is U+0080; EUDC lead F0 is U+E000;
        # pointer 8272 (lead ED) is an IBM extension in the index.
        self.check("shift_jis", "shift_jis", b"\x80", "\x80")
        self.check("shift_jis", "shift_jis", b"\xf0\x40", "\ue000")
        self.check("shift_jis", "shift_jis", b"\xed\x40", chr(index[8272]))
        # 0x5C and U+00A5: the Standard encodes U+00A5 as 0x5C and decodes
        # 0x5C as U+005C, so ¥ does not round trip; Python's shift_jis
        # agrees on both, so there is no difference to show here.
        self.assertEqual(wenc.decode(b"\x5c", "shift_jis"), "\\")
        self.assertEqual(wenc.encode("\u00a5", "shift_jis"), b"\x5c")

    def test_euc_kr_extended_range(self):
        # §13.1.1: lead 0x81 with trail 0x41 is pointer 0 of index EUC-KR
        # (the UHC extension); Python's euc_kr is KS X 1001 only.
        index = dict(read_index("euc-kr"))
        self.check("euc_kr", "euc-kr", b"\x81\x41", chr(index[0]))
        self.check("euc_kr", "euc-kr", b"\xc6\x52", chr(index[(0xC6 - 0x81) * 190 + 0x52 - 0x41]))

    def test_big5_and_gb18030(self):
        big5 = dict(read_index("big5"))
        self.check("big5", "big5", b"\x87\x40", chr(big5[(0x87 - 0x81) * 157]))
        self.check("big5", "big5", b"\x88\x62", "\u00ca\u0304")
        gb = dict(read_index("gb18030"))
        self.check("gb18030", "gb18030", b"\x80", "\u20ac")
        # GB18030-2022: A6 D9 is U+FE10 (Python: the 2005 Private Use U+E78D).
        self.check("gb18030", "gb18030", b"\xa6\xd9", chr(gb[(0xA6 - 0x81) * 190 + 0xD9 - 0x41]))

    def test_encoders(self):
        # Python's utf-16 writes a BOM; the Standard's UTF-16LE encodes as
        # UTF-8 (get an output encoding), which wenc.encode() gives (the
        # whatwg: codec refuses to encode it: test_no_encoder_for_utf_16...).
        self.assertEqual("a".encode("utf-16"), b"\xff\xfea\x00")
        self.assertEqual(wenc.encode("a", "utf-16"), b"a")
        # html mode, which Python's codecs do not have by that name: the
        # same as xmlcharrefreplace for a Latin-1 target.
        self.assertEqual(wenc.encode("\u0100", "latin1"), b"&#256;")
        # x-user-defined and replacement: no Python codec at all.
        for name in ("x-user-defined", "replacement"):
            with self.assertRaises(LookupError):
                codecs.lookup(name)
        self.assertEqual(b"\xff".decode("whatwg:x-user-defined"), "\uf7ff")
        self.assertEqual(b"\xff".decode("whatwg:replacement", "replace"), "\ufffd")


if __name__ == "__main__":
    unittest.main()

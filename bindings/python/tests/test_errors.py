"""Python's error handlers on every encoding family, with CPython's
semantics: against CPython's own codecs where they decode and encode as the
Standard does (UTF-8, UTF-16), against the Standard's index files and the
reference encoders with CPython's own handler functions elsewhere, and at
every split of a stream. Also text files' tell() and seek() in every
encoding, against reading straight through."""

import codecs
import io
import random
import unittest

import wenc

from .helpers import (SINGLE_BYTE_INDEX_NAMES, encode_iso_2022_jp, need_data,
                      read_index, reference_encoder)

wenc.register()

DECODE_HANDLERS = ["strict", "replace", "ignore", "backslashreplace", "surrogateescape",
                   "surrogatepass", "wenc-test-mark"]
ENCODE_HANDLERS = ["strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace",
                   "namereplace", "surrogateescape", "surrogatepass", "wenc-test-mark"]


def _mark(error):
    """A registered handler of the tests' own: <the bytes>, or <each
    character> (so that a run reported as one error or as several gives
    the same)."""
    piece = error.object[error.start:error.end]
    if isinstance(piece, bytes):
        return f"<{piece.hex()}>", error.end
    return "".join(f"<{ord(c):x}>" for c in piece), error.end


def _where(error):
    """<start-end:bytes>: where an error is in the handler's object."""
    return f"<{error.start}-{error.end}:{error.object[error.start:error.end].hex()}>", error.end


codecs.register_error("wenc-test-mark", _mark)
codecs.register_error("wenc-test-where", _where)

# Malformed and truncated input for each family, with ASCII around it.
MALFORMED = {
    "UTF-8": [b"a\xffb", b"\xc3(\xe2\x82", b"\xed\xa0\x80x\xf0\x9f\x98", b"\xe2\x28\xa1",
              b"\xf4\x90\x80\x80", b"\xc0\xaf\xe0\x80\xaf"],
    "UTF-16LE": [b"a\x00\x00\xd8b\x00", b"\x00\xdcb\x00", b"a\x00\x00", b"\x3d\xd8\x00\xde",
                 b"\x3d\xd8"],
    "UTF-16BE": [b"\x00a\xd8\x00\x00b", b"\xdc\x00", b"\x00a\x00", b"\xd8\x3d\xde\x00"],
    "Shift_JIS": [b"a\x81\x20b", b"\x82\xa0\xa0\xff\x80", b"\xfc", b"\x85\x40\xef\xfc"],
    "EUC-JP": [b"\x8e\x20a", b"\x8f\xa1\xa1\xa4\xa2", b"\xa4", b"\xa1\xff\x80"],
    "ISO-2022-JP": [b"\x1b$B$\"\x1b(Ba\x1b$", b"\x1b(J\\~\x0e", b"\x1b$B\x21", b"\x1b$Ba\x80"],
    "gb18030": [b"\x81\x30\x81\x20", b"\x81\x7f\xa1\xa1", b"\x84\x31\xa5\x30", b"\x81\x30"],
    "GBK": [b"\x81\x40\xff\x80", b"\xa1"],
    "Big5": [b"\x88\x62\x81\x40\xa4\x40\xa4", b"\xa1\x7fa\xfe"],
    "EUC-KR": [b"\xb0\xa1\x81\x20\xc9", b"\xff\xb0"],
    "windows-1253": [b"a\xaa\xd2\xffb", b"\x81\x90"],
    "ISO-8859-8": [b"\xa1\xbf\xfb\xfe"],
    "x-user-defined": [b"\x80\xff"],
}


def decode_reference(data, name, handler):
    """Decodes with wenc's fatal decoder and CPython's own handler function
    at each error it reports (for handlers that go on where the malformed
    bytes end)."""
    function = codecs.lookup_error(handler)
    decoder = wenc.Decoder(name, errors="fatal", bom="keep")
    out = []
    rest = data
    while True:
        try:
            out.append(decoder.decode(rest, final=True))
            return "".join(out)
        except wenc.DecodeError as error:
            out.append(error.output)
            replacement, position = function(error)
            if position != error.end:
                raise AssertionError("the reference follows handlers that go on at end")
            out.append(replacement)
            rest = error.object[error.end:]


def outcome(call):
    try:
        return call()
    except UnicodeError as error:
        return (type(error).__mro__[1 if type(error) in (wenc.DecodeError, wenc.EncodeError)
                                    else 0].__name__, error.start, error.end)


class DecodeHandlerTest(unittest.TestCase):
    def test_utf_against_cpython(self):
        # CPython's UTF-8 and UTF-16 decoders take the Standard's error
        # extents (UTF-8's maximal subparts), so every handler must give
        # what CPython's codecs give, errors included.
        rng = random.Random(31)
        samples = {"UTF-8": ("utf-8", list(MALFORMED["UTF-8"])),
                   "UTF-16LE": ("utf-16-le", list(MALFORMED["UTF-16LE"])),
                   "UTF-16BE": ("utf-16-be", list(MALFORMED["UTF-16BE"]))}
        for name, (python, inputs) in samples.items():
            for _ in range(300):
                pool = [b"\x80", b"\xbf", b"\xc2", b"\xe0", b"\xed", b"\xf0", b"\xf4", b"\xff",
                        b"a", b"\xe2\x82\xac", b"\x00", b"\xd8", b"\xdc", b"\xd8\x3d"]
                inputs.append(b"a" + b"".join(rng.choice(pool) for _ in range(rng.randrange(9))))
            for data in inputs:
                for handler in DECODE_HANDLERS:
                    expected = outcome(lambda: data.decode(python, handler))
                    with self.subTest(name=name, data=data, handler=handler):
                        self.assertEqual(outcome(lambda: wenc.decode(data, name, errors=handler,
                                                                     bom="keep")), expected)
                        self.assertEqual(outcome(lambda: data.decode("whatwg:" + name, handler)),
                                         expected)

    def test_single_byte_against_the_indexes(self):
        # Each byte: its index entry, or CPython's handler function on a
        # one-byte error there.
        need_data(self)
        every_byte = bytes(range(256))
        for name, index_name in SINGLE_BYTE_INDEX_NAMES.items():
            table = dict(read_index(index_name))
            for handler in ("replace", "ignore", "backslashreplace", "surrogateescape",
                            "wenc-test-mark"):
                function = codecs.lookup_error(handler)
                pieces = []
                for byte in every_byte:
                    if byte < 0x80:
                        pieces.append(chr(byte))
                    elif byte - 0x80 in table:
                        pieces.append(chr(table[byte - 0x80]))
                    else:
                        error = UnicodeDecodeError(name, every_byte, byte, byte + 1, "x")
                        pieces.append(function(error)[0])
                with self.subTest(name=name, handler=handler):
                    self.assertEqual(wenc.decode(every_byte, name, errors=handler),
                                     "".join(pieces))
                    self.assertEqual(every_byte.decode("whatwg:" + name, handler),
                                     "".join(pieces))
            for handler in ("strict", "surrogatepass"):
                holes = [b for b in range(0x80, 0x100) if b - 0x80 not in table]
                with self.subTest(name=name, handler=handler):
                    if holes:
                        with self.assertRaises(wenc.DecodeError) as caught:
                            every_byte.decode("whatwg:" + name, handler)
                        self.assertEqual((caught.exception.start, caught.exception.end),
                                         (holes[0], holes[0] + 1))
                    else:
                        self.assertEqual(every_byte.decode("whatwg:" + name, handler),
                                         wenc.decode(every_byte, name))

    def test_every_family_against_the_reference(self):
        for name, inputs in MALFORMED.items():
            for data in inputs:
                for handler in ("replace", "ignore", "backslashreplace", "wenc-test-mark"):
                    with self.subTest(name=name, data=data, handler=handler):
                        expected = decode_reference(data, name, handler)
                        self.assertEqual(wenc.decode(data, name, errors=handler, bom="keep"),
                                         expected)
                        if handler == "replace":
                            self.assertEqual(expected, wenc.decode(data, name, bom="keep"))

    def test_error_extents(self):
        # Where the Standard's decoder decides how many bytes an error
        # covers (CPython's codecs of these encodings differ in places).
        cases = [
            # Shift_JIS: an ASCII byte after a lead byte is not part of the error.
            ("Shift_JIS", b"a\x81\x20b", "a<1-2:81> b"),
            # EUC-JP: 8E with a byte out of A1-DF: the lead alone.
            ("EUC-JP", b"\x8e\x20a", "<0-1:8e> a"),
            # gb18030: four bytes with no code point: one error for the four.
            ("gb18030", b"\x84\x31\xa5\x30", "<0-4:8431a530>"),
            # gb18030: a bad third byte: the first byte alone, the rest read again.
            ("gb18030", b"\x81\x30\x81\x20", "<0-1:81>0<2-3:81> "),
            # Big5: a bad trail byte that is ASCII is read again.
            ("Big5", b"\xa1\x7fa", "<0-1:a1>\x7fa"),
            # UTF-16LE: a lone high surrogate: its two bytes.
            ("UTF-16LE", b"\x00\xd8a\x00", "<0-2:00d8>a"),
            # UTF-8: a truncated sequence is one error, as CPython counts it.
            ("UTF-8", b"\xe2\x82a", "<0-2:e282>a"),
            # ISO-2022-JP: an unknown escape: ESC alone, then the bytes.
            ("ISO-2022-JP", b"\x1b(Za", "<0-1:1b>(Za"),
            # replacement: one error at the first byte; the decoder then
            # reads the rest and writes nothing.
            ("replacement", b"abc", "<0-1:61>"),
        ]
        for name, data, expected in cases:
            with self.subTest(name=name, data=data):
                self.assertEqual(wenc.decode(data, name, errors="wenc-test-where", bom="keep"),
                                 expected)
        # Where CPython's codecs take the same extents, and where not.
        same = [("Shift_JIS", "shift_jis", b"a\x81\x20b"), ("Big5", "big5", b"\xa1\x7fa"),
                ("EUC-JP", "euc_jp", b"\x8e\x20a"), ("gb18030", "gb18030", b"\x81\x30\x81\x20")]
        for name, python, data in same:
            with self.subTest(name=name, data=data):
                self.assertEqual(wenc.decode(data, name, errors="backslashreplace"),
                                 data.decode(python, "backslashreplace"))
        self.assertEqual(b"\x84\x31\xa5\x30".decode("gb18030", "backslashreplace"),
                         "\\x841\\xa5\\x30")
        self.assertEqual(b"\x1b(Za".decode("iso2022_jp", "backslashreplace"),
                         "\\x1b\\x28\\x5aa")
        self.assertEqual(wenc.decode(b"\x1b(Za", "iso-2022-jp", errors="backslashreplace"),
                         "\\x1b(Za")

    def test_surrogate_handlers(self):
        self.assertEqual(wenc.decode(b"a\xff\xfe\x80", "utf-8", errors="surrogateescape"),
                         "a\udcff\udcfe\udc80")
        self.assertEqual(wenc.decode(b"\x82\xa0\xff", "shift_jis", errors="surrogateescape"),
                         "\u3042\udcff")
        # surrogateescape refuses to escape an ASCII byte: the error is raised.
        with self.assertRaises(wenc.DecodeError) as caught:
            wenc.decode(b"\x1b(Z", "iso-2022-jp", errors="surrogateescape")
        self.assertEqual((caught.exception.start, caught.exception.end), (0, 1))
        # surrogatepass: UTF-8's ED A0 80 is U+D800; the decoder goes on after it.
        self.assertEqual(wenc.decode(b"\xed\xa0\x80\xed\xbf\xbfz", "utf-8",
                                     errors="surrogatepass"), "\ud800\udfffz")
        self.assertEqual(wenc.decode(b"\x00\xdc\x00\xd8", "utf-16le", errors="surrogatepass"),
                         "\udc00\ud800")
        with self.assertRaises(UnicodeDecodeError):
            wenc.decode(b"\x81\x20", "shift_jis", errors="surrogatepass")

    def test_custom_handlers(self):
        def skip_two(error):
            return "#", error.start + 2

        def back(error):
            return "<", -1  # from the end of the object

        codecs.register_error("wenc-test-skip", skip_two)
        codecs.register_error("wenc-test-end", back)
        self.assertEqual(wenc.decode(b"\xffabc", "utf-8", errors="wenc-test-skip"), "#bc")
        self.assertEqual(b"\x81\x20xy".decode("whatwg:shift_jis", "wenc-test-skip"), "#xy")
        self.assertEqual(wenc.decode(b"\xffabc", "utf-8", errors="wenc-test-end"), "<c")
        # ISO-2022-JP keeps its mode when a handler sends it elsewhere.
        codecs.register_error("wenc-test-skip-3", lambda error: ("#", error.start + 3))
        self.assertEqual(wenc.decode(b"\x1b$B\x80$\"$$", "iso-2022-jp",
                                     errors="wenc-test-skip-3"), "#\u3044")
        codecs.register_error("wenc-test-bad", lambda error: ("x", 99))
        with self.assertRaises(IndexError):
            wenc.decode(b"\xff", "utf-8", errors="wenc-test-bad")
        codecs.register_error("wenc-test-shape", lambda error: "x")
        with self.assertRaises(TypeError):
            wenc.decode(b"\xff", "utf-8", errors="wenc-test-shape")
        codecs.register_error("wenc-test-bytes", lambda error: (b"x", error.end))
        with self.assertRaises(TypeError):
            wenc.decode(b"\xff", "utf-8", errors="wenc-test-bytes")

        def refuse(error):
            raise KeyError("handler says no")

        codecs.register_error("wenc-test-raise", refuse)
        with self.assertRaises(KeyError):
            wenc.decode(b"\xff", "utf-8", errors="wenc-test-raise")
        # An unknown name is looked up only when an error needs it, as CPython does.
        self.assertEqual(wenc.decode(b"ok", "utf-8", errors="no-such-handler"), "ok")
        self.assertEqual(wenc.decode(b"\xe9", "latin1", errors="no-such-handler"), "\xe9")
        with self.assertRaises(LookupError):
            wenc.decode(b"\xff", "utf-8", errors="no-such-handler")
        # xmlcharrefreplace and namereplace do not decode: CPython's TypeError.
        with self.assertRaises(TypeError):
            b"\xff".decode("whatwg:utf-8", "xmlcharrefreplace")

    def test_chunked_equals_whole(self):
        for name, inputs in MALFORMED.items():
            for data in inputs:
                for handler in ("strict", "replace", "ignore", "backslashreplace",
                                "surrogateescape", "wenc-test-mark"):
                    whole = outcome(lambda: data.decode("whatwg:" + name, handler))
                    if isinstance(whole, tuple):
                        continue
                    for split in range(len(data) + 1):
                        for empty in (False, True):
                            decoder = codecs.getincrementaldecoder("whatwg:" + name)(handler)
                            text = decoder.decode(data[:split])
                            if empty:
                                text += decoder.decode(b"")
                            text += decoder.decode(data[split:], final=True)
                            with self.subTest(name=name, data=data, handler=handler,
                                              split=split, empty=empty):
                                self.assertEqual(text, whole)
                    byte_at_a_time = wenc.Decoder(name, errors=handler, bom="sniff")
                    text = "".join(byte_at_a_time.decode(data[i:i + 1]) for i in range(len(data)))
                    text += byte_at_a_time.decode(b"", final=True)
                    with self.subTest(name=name, data=data, handler=handler, bytes_one_by_one=1):
                        self.assertEqual(text, whole)


# Text with what each family lacks: a snowman, an astral character,
# lone surrogates, and characters of several scripts.
ENCODE_TEXT = "a\u00e9\u20ac\u2603\u3042\u4e00\uac00\u0416\U0001f600\udc80b\ud800\udcffz"


def encode_reference(text, name, handler):
    """The reference encoders of tests/helpers.py, with CPython's own
    handler function for each character they lack and each surrogate."""
    function = codecs.lookup_error(handler)
    if name == "UTF-8":
        def lacks(c):
            return 0xD800 <= ord(c) <= 0xDFFF
    elif name == "ISO-2022-JP":
        def lacks(c):
            return (0xD800 <= ord(c) <= 0xDFFF or
                    b"&#" in encode_iso_2022_jp(c.replace("&", "")))
    else:
        encoder = reference_encoder(name)

        def lacks(c):
            return 0xD800 <= ord(c) <= 0xDFFF or encoder(ord(c)) is None
    # CPython's UTF-8 encoder reports a run of surrogates as one error, its
    # charmap (single-byte) encoders a run of characters they lack; its CJK
    # encoders one character at a time.
    runs = name == "UTF-8" or name in SINGLE_BYTE_INDEX_NAMES or name == "x-user-defined"
    pieces = []
    i = 0
    while i < len(text):
        if lacks(text[i]):
            end = i + 1
            while runs and end < len(text) and lacks(text[end]):
                end += 1
            replacement, i = function(UnicodeEncodeError(name, text, i, end, "x"))
            pieces.append(replacement)
        else:
            pieces.append(text[i])
            i += 1
    if any(isinstance(piece, bytes) for piece in pieces):
        return None  # bytes in the output: checked against CPython's codecs instead
    replaced = "".join(pieces)
    if name == "UTF-8":
        return replaced.encode("utf-8")
    if name == "ISO-2022-JP":
        return encode_iso_2022_jp(replaced)
    encoder = reference_encoder(name)
    return b"".join(bytes([ord(c)]) if ord(c) < 0x80 else encoder(ord(c)) for c in replaced)


ENCODERS = ["UTF-8", "windows-1252", "windows-1251", "ISO-8859-2", "KOI8-U", "x-user-defined",
            "Shift_JIS", "EUC-JP", "ISO-2022-JP", "gb18030", "GBK", "Big5", "EUC-KR"]


class EncodeHandlerTest(unittest.TestCase):
    def test_utf_8_against_cpython(self):
        for text in (ENCODE_TEXT, "\ud800", "a\udfffb\ud83d\ude00", "\udc80\udcff"):
            for handler in ENCODE_HANDLERS:
                expected = outcome(lambda: text.encode("utf-8", handler))
                with self.subTest(text=text, handler=handler):
                    self.assertEqual(outcome(lambda: text.encode("whatwg:utf-8", handler)),
                                     expected)

    def test_every_encoder_against_the_reference(self):
        need_data(self)
        for name in ENCODERS:
            for handler in ("replace", "ignore", "backslashreplace", "xmlcharrefreplace",
                            "namereplace", "wenc-test-mark"):
                if name == "ISO-2022-JP" and handler == "ignore":
                    continue  # test_custom_replacement_through_the_encoder
                expected = encode_reference(ENCODE_TEXT, name, handler)
                with self.subTest(name=name, handler=handler):
                    self.assertEqual(wenc.encode(ENCODE_TEXT, name, errors=handler), expected)
                    self.assertEqual(ENCODE_TEXT.encode("whatwg:" + name, handler), expected)

    def test_strict(self):
        with self.assertRaises(wenc.EncodeError) as caught:
            "a\u00e9\u2603".encode("whatwg:windows-1252")
        error = caught.exception
        self.assertEqual((error.start, error.end, error.code_point, error.output),
                         (2, 3, 0x2603, b"a\xe9"))
        # A surrogate in a str is an error for Python's handlers (CPython's
        # semantics) and U+FFFD for the Standard's modes.
        with self.assertRaises(wenc.EncodeError) as caught:
            "ab\ud800".encode("whatwg:utf-8")
        self.assertEqual((caught.exception.start, caught.exception.reason),
                         (2, "surrogates not allowed"))
        self.assertEqual(wenc.encode("ab\ud800", "utf-8", errors="fatal"), b"ab\xef\xbf\xbd")
        self.assertEqual(wenc.encode("\ud800", "windows-1252"), b"&#65533;")
        self.assertEqual("\ud800".encode("whatwg:windows-1252", "xmlcharrefreplace"), b"&#55296;")
        # A UCS-4 str whose lone surrogates would pair up in UTF-16 stays two errors.
        self.assertEqual("\ud83d\ude00\U0001f600".encode("whatwg:utf-8", "replace"),
                         b"??\xf0\x9f\x98\x80")

    def test_bytes_handlers(self):
        self.assertEqual("a\udc80\udcffb".encode("whatwg:windows-1251", "surrogateescape"),
                         b"a\x80\xffb")
        self.assertEqual("\udcff".encode("whatwg:shift_jis", "surrogateescape"), b"\xff")
        with self.assertRaises(UnicodeEncodeError):
            "\u2603".encode("whatwg:windows-1252", "surrogateescape")
        with self.assertRaises(UnicodeEncodeError):
            "\ud800".encode("whatwg:windows-1252", "surrogatepass")
        self.assertEqual("a\ud800".encode("whatwg:utf-8", "surrogatepass"), b"a\xed\xa0\x80")
        codecs.register_error("wenc-test-raw", lambda error: (b"\xfe\xff", error.end))
        self.assertEqual("a\u2603b".encode("whatwg:gbk", "wenc-test-raw"), b"a\xfe\xffb")

    def test_custom_replacement_through_the_encoder(self):
        # A str a handler returns is encoded in the encoder's state: here in
        # ISO-2022-JP's jis0208 mode, so the replacement leaves it first.
        codecs.register_error("wenc-test-star", lambda error: ("*", error.end))
        self.assertEqual("\u3042\u2603\u3044".encode("whatwg:iso-2022-jp", "wenc-test-star"),
                         b"\x1b$B$\"\x1b(B*\x1b$B$$\x1b(B")
        # The Standard's ISO-2022-JP encoder returns to ASCII before it
        # reports a character it lacks, so 'ignore' leaves an escape pair.
        self.assertEqual("\u3042\u2603\u3044".encode("whatwg:iso-2022-jp", "ignore"),
                         b"\x1b$B$\"\x1b(B\x1b$B$$\x1b(B")
        # A replacement the encoding lacks raises the original error.
        codecs.register_error("wenc-test-snow", lambda error: ("\u2603", error.end))
        with self.assertRaises(wenc.EncodeError) as caught:
            "a\u3042".encode("whatwg:windows-1252", "wenc-test-snow")
        self.assertEqual(caught.exception.start, 1)
        # Where to go on: a handler may skip ahead.
        codecs.register_error("wenc-test-skip-enc", lambda error: ("#", error.end + 1))
        self.assertEqual("a\u2603bc".encode("whatwg:windows-1252", "wenc-test-skip-enc"),
                         b"a#c")

    def test_chunked_equals_whole(self):
        for name in ENCODERS:
            for handler in ("replace", "backslashreplace", "xmlcharrefreplace",
                            "wenc-test-mark"):
                whole = ENCODE_TEXT.encode("whatwg:" + name, handler)
                for split in range(len(ENCODE_TEXT) + 1):
                    encoder = codecs.getincrementalencoder("whatwg:" + name)(handler)
                    out = encoder.encode(ENCODE_TEXT[:split])
                    out += encoder.encode("")
                    out += encoder.encode(ENCODE_TEXT[split:], final=True)
                    with self.subTest(name=name, handler=handler, split=split):
                        self.assertEqual(out, whole)


class LongDecodeTest(unittest.TestCase):
    def test_kind_widens_across_pieces(self):
        # A long decode writes its str a piece (8,192 units) at a time in the
        # kind of what came so far, and widens it when a later piece needs
        # more: ASCII, then Latin-1, then UCS-2, then UCS-4, at every step.
        # CPython's UTF-8 decoder is the oracle.
        pieces = ["a" * 20000, "\u00e9", "b" * 9000, "\u0416", "c" * 9000, "\U0001f600",
                  "d" * 100]
        for end in range(1, len(pieces) + 1):
            text = "".join(pieces[:end])
            data = text.encode("utf-8")
            with self.subTest(end=end):
                self.assertEqual(wenc.decode(data), data.decode("utf-8"))
                self.assertEqual(data.decode("whatwg:utf-8"), text)
        # The same through a single-byte decoder (windows-1251: D6 is U+0426,
        # C0 + 22 from U+0410 at C0).
        data = b"a" * 30000 + b"\xd6" + b"z" * 10
        self.assertEqual(wenc.decode(data, "windows-1251"), "a" * 30000 + "\u0426" + "z" * 10)


class TellAndSeekTest(unittest.TestCase):
    def test_every_encoding(self):
        # A text file read with tell() at many places: seek() back to each
        # cookie gives the rest of the text exactly as reading straight on.
        rng = random.Random(18)
        text_pool = "aZ09 \n\u00e9\u20ac\u0416\u03b1\u3042\u30a2\uff71\u4e00\uac00\u0e01\u05d0"
        for name in sorted({name for _, name in wenc.labels()}):
            if name == "replacement":
                continue
            text = "".join(rng.choice(text_pool) for _ in range(3000))
            target = name if wenc.output_encoding(name) == name else "UTF-8"
            data = wenc.encode(text, target)
            if name.startswith("UTF-16"):
                data = text.encode("utf-16-le" if name == "UTF-16LE" else "utf-16-be")
            straight = wenc.decode(data, name, bom="keep")
            with self.subTest(name=name):
                f = io.TextIOWrapper(io.BytesIO(data), encoding="whatwg:" + name,
                                     errors="replace", newline="")
                read = 0
                while read < len(straight):
                    step = rng.randrange(1, 200)
                    cookie = f.tell()
                    chunk = f.read(step)
                    self.assertEqual(chunk, straight[read:read + step])
                    if rng.random() < 0.3:
                        f.seek(cookie)
                        self.assertEqual(f.read(), straight[read:])
                        f.seek(cookie)
                        self.assertEqual(f.read(step), chunk)
                    read += len(chunk)

    def test_decoder_state(self):
        decoder = wenc.Decoder("iso-2022-jp")
        self.assertEqual(decoder.getstate(), (b"", 0))
        self.assertEqual(decoder.decode(b"\x1b$B$"), "")
        held, flags = decoder.getstate()
        self.assertEqual(held, b"$")
        other = wenc.Decoder("iso-2022-jp")
        other.setstate((held, flags))
        self.assertEqual(other.decode(b"\"$$", final=True), "\u3042\u3044")
        with self.assertRaises(ValueError):
            other.setstate((b"", 1 << 40))
        with self.assertRaises(TypeError):
            other.setstate(b"")


if __name__ == "__main__":
    unittest.main()

"""Streaming: Decoder, Encoder and TextDecoder split at every point (and
every pair of points) of short inputs give the one-call result, which is
itself pinned by hand-worked values; fatal errors across calls; the
TextDecoder rules of §7.2 (BOM once, renewal, the queue after an error)."""

import itertools
import unittest

import wenc

FFFD = "\ufffd"

# (label, bytes, the text the Standard gives), worked out by hand.
SAMPLES = [
    ("utf-8", b"\xef\xbb\xbfa\xc3\xa9\xe3\x81\x82\xf0\x9f\x98\x80\xe3\x81", "a\u00e9\u3042\U0001F600" + FFFD),
    ("utf-8", b"\xf0\x9f\x98\xc3\xa9\xed\xa0\x80", FFFD + "\u00e9" + FFFD * 3),
    ("utf-16le", b"\xff\xfeA\x00=\xd8\x00\xde\x00\xd8B\x00C", "A\U0001F600" + FFFD + "B" + FFFD),
    ("utf-16be", b"\x00A\xd8=\xde\x00\xdc\x00", "A\U0001F600" + FFFD),
    ("shift_jis", b"\x82\xa0a\x81\x20\xb1\x81", "\u3042a" + FFFD + " \uff71" + FFFD),
    ("euc-jp", b"\xa4\xa2\x8e\xb1\x8f\xb0\xa1\x8f\xa1x", "\u3042\uff71\u4e02" + FFFD + "x"),
    ("iso-2022-jp", b"a\x1b$B$\"\x1b(Jb\x5c\x1b(I1\x1b(Bc\x1b$", "a\u3042b\u00a5\uff71c" + FFFD + "$"),
    ("gb18030", b"\x81\x40\x81\x30\x81\x30\x90\x30\x81\x30\x81\x30z\x81",
     "\u4e02\u0080\U00010000" + FFFD + "0z" + FFFD),
    ("big5", b"\x88\x62\xa4\x40\x81\x41\xa4", "\u00ca\u0304\u4e00" + FFFD + "A" + FFFD),
    ("euc-kr", b"\x81\x41\xb0\xa1\xff\xb0", "\uac02\uac00" + FFFD + FFFD),
    ("windows-1252", b"\x80\x81\xe9", "\u20ac\u0081\u00e9"),
    ("x-user-defined", b"a\x80\xff", "a\uf780\uf7ff"),
    ("replacement", b"ab", FFFD),
]


def pieces(data, cuts):
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


class DecoderTest(unittest.TestCase):
    def test_samples_one_call(self):
        for label, data, expected in SAMPLES:
            self.assertEqual(wenc.decode(data, label), expected, label)

    def test_every_split(self):
        for label, data, expected in SAMPLES:
            decoder = wenc.Decoder(label)
            for count in (1, 2):
                for cuts in itertools.combinations(range(1, len(data)), count):
                    with self.subTest(label=label, cuts=cuts):
                        chunks = pieces(data, cuts)
                        text = "".join(decoder.decode(c) for c in chunks)
                        text += decoder.decode(b"", final=True)
                        self.assertEqual(text, expected)
            # A byte at a time, with empty calls between.
            text = "".join(decoder.decode(data[i:i + 1]) + decoder.decode(b"")
                           for i in range(len(data)))
            self.assertEqual(text + decoder.decode(final=True), expected, label)

    def test_sniffed_encoding_and_reset(self):
        decoder = wenc.Decoder("windows-1252")
        self.assertEqual(decoder.encoding, "windows-1252")
        self.assertEqual(decoder.decode(b"\xff"), "")
        self.assertEqual(decoder.decode(b"\xfeA"), "")
        self.assertEqual(decoder.encoding, "UTF-16LE")
        self.assertEqual(decoder.decode(b"\x00", final=True), "A")
        self.assertEqual(decoder.encoding, "windows-1252")
        decoder.decode(b"\xc3")
        decoder.reset()
        self.assertEqual(decoder.decode(b"\xe9", final=True), "\u00e9")

    def test_fatal_across_calls(self):
        decoder = wenc.Decoder("utf-8", errors="fatal")
        self.assertEqual(decoder.decode(b"ab\xe3\x81"), "ab")
        with self.assertRaises(wenc.DecodeError) as caught:
            decoder.decode(b"Acd")
        error = caught.exception
        # The malformed bytes came in the call before: they lead the object.
        self.assertEqual((error.object, error.start, error.end), (b"\xe3\x81Acd", 0, 2))
        self.assertEqual((error.offset, error.output), (2, ""))
        self.assertEqual(decoder.decode(error.object[error.end:], final=True), "Acd")
        decoder = wenc.Decoder("shift_jis", errors="fatal")
        self.assertEqual(decoder.decode(b"\x82"), "")
        with self.assertRaises(wenc.DecodeError) as caught:
            decoder.decode(b"\xa0\x82", final=True)
        error = caught.exception
        self.assertEqual((error.object, error.start, error.end, error.output),
                         (b"\xa0\x82", 1, 2, "\u3042"))


class FatalStreamingTest(unittest.TestCase):
    def test_every_split(self):
        # Fatal mode, continuing after each error with error.object[error.end:]:
        # at any split the errors come one for each U+FFFD of replacement
        # mode, the first at the hand-worked offset, and the text is
        # replacement mode's without them.
        from tests.test_indexes import MalformedTest
        for label, data, expected, (first, _) in MalformedTest.CASES:
            for count in (0, 1, 2):
                for cuts in itertools.combinations(range(1, len(data)), count):
                    with self.subTest(label=label, data=data, cuts=cuts):
                        decoder = wenc.Decoder(label, errors="fatal", bom="keep")
                        text, offsets = "", []
                        chunks = pieces(data, cuts)
                        for i, chunk in enumerate(chunks):
                            final = i == len(chunks) - 1
                            while True:
                                try:
                                    text += decoder.decode(chunk, final)
                                    break
                                except wenc.DecodeError as error:
                                    self.assertTrue(0 <= error.start < error.end <= len(error.object),
                                                    (error.start, error.end, error.object))
                                    offsets.append(error.offset)
                                    text += error.output
                                    chunk = error.object[error.end:]
                        self.assertEqual(text, expected.replace(FFFD, ""))
                        self.assertEqual(len(offsets), expected.count(FFFD))
                        self.assertEqual(offsets[0], first)
                        self.assertEqual(offsets, sorted(offsets))


class EncoderTest(unittest.TestCase):
    TEXTS = [("iso-2022-jp", "a\u3042\u00a5b\uff71\u2603c\u3044", b"a\x1b$B$\"\x1b(J\\b\x1b$B%\"\x1b(B&#9731;c\x1b$B$$\x1b(B"),
             ("shift_jis", "a\u3042\U0001F600", b"a\x82\xa0&#128512;"),
             ("gb18030", "\u00e9\U00010000", b"\xa8\xa6\x90\x30\x81\x30")]

    def test_every_split(self):
        for label, text, expected in self.TEXTS:
            self.assertEqual(wenc.encode(text, label), expected)
            encoder = wenc.Encoder(label)
            for count in (1, 2):
                for cuts in itertools.combinations(range(1, len(text)), count):
                    out = b"".join(encoder.encode(c) for c in pieces(text, cuts))
                    self.assertEqual(out + encoder.encode("", final=True), expected,
                                     (label, cuts))

    def test_encode_or_fail_keeps_state(self):
        # §4.3 encode or fail: the encoder lives on after the error with its
        # state. §12.2.2 step 10 turned it back to ASCII (ESC ( B) before
        # the error, so the next jis0208 character turns to jis0208 again.
        encoder = wenc.Encoder("iso-2022-jp", errors="fatal")
        with self.assertRaises(wenc.EncodeError) as caught:
            encoder.encode("\u3042\u2603\u3044")
        error = caught.exception
        self.assertEqual((error.start, error.end, error.code_point), (1, 2, 0x2603))
        self.assertEqual(error.output, b"\x1b$B$\"\x1b(B")
        self.assertEqual(encoder.encode(error.object[error.end:], final=True),
                         b"\x1b$B$$\x1b(B")
        encoder = wenc.Encoder("iso-2022-jp", errors="fatal")
        self.assertEqual(encoder.encode("\u00a5"), b"\x1b(J\\")
        with self.assertRaises(wenc.EncodeError):
            encoder.encode("\u2603")
        self.assertEqual(encoder.encode("\u00a5", final=True), b"\\\x1b(B")


class TextDecoderTest(unittest.TestCase):
    def test_bom_once_and_renewal(self):
        decoder = wenc.TextDecoder()
        self.assertEqual(decoder.decode(b"\xef\xbb", stream=True), "")
        self.assertEqual(decoder.decode(b"\xbf\xef\xbb\xbfA", stream=True), "\ufeffA")
        self.assertEqual(decoder.decode(b"\xe3\x81"), FFFD)
        self.assertEqual(decoder.decode(b"\xef\xbb\xbfB"), "B")
        self.assertEqual(wenc.TextDecoder(ignore_bom=True).decode(b"\xef\xbb\xbf"), "\ufeff")
        # No BOM handling but for UTF-8 and UTF-16.
        self.assertEqual(wenc.TextDecoder("latin1").decode(b"\xef\xbb\xbf"), "\u00ef\u00bb\u00bf")
        self.assertEqual(wenc.TextDecoder("utf-16be").decode(b"\xfe\xff\x00A"), "A")
        self.assertEqual(wenc.TextDecoder("utf-16be").decode(b"\xff\xfe\x00A"), "\ufffeA")

    def test_fatal_leaves_the_rest_queued(self):
        decoder = wenc.TextDecoder(fatal=True)
        self.assertTrue(decoder.fatal)
        with self.assertRaises(wenc.DecodeError) as caught:
            decoder.decode(b"a\xffb\xc3", stream=True)
        self.assertEqual((caught.exception.start, caught.exception.end), (1, 2))
        self.assertEqual(decoder.decode(b"\xa9", stream=True), "b\u00e9")
        self.assertEqual(decoder.decode(), "")
        with self.assertRaises(wenc.DecodeError):
            decoder.decode(b"\xff")
        self.assertEqual(decoder.decode(b"ok"), "ok")

    def test_every_split(self):
        for label, data, expected in SAMPLES:
            if label == "replacement":
                continue
            if label.startswith("utf"):
                expected = expected.lstrip("\ufeff")
            decoder = wenc.TextDecoder(label)
            for cut in range(len(data) + 1):
                text = decoder.decode(data[:cut], stream=True) + decoder.decode(data[cut:])
                self.assertEqual(text, expected, (label, cut))


if __name__ == "__main__":
    unittest.main()

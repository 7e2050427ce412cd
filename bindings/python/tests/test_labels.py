"""All 228 labels (encodings.json), get an encoding's rules, get an output
encoding, BOM sniff, TextDecoder's refusal of replacement, and the codec
names "whatwg:LABEL"."""

import codecs
import unittest

import wenc

from .helpers import encodings, need_data


class LabelTest(unittest.TestCase):
    def setUp(self):
        need_data(self)
        self.table = [(label, e["name"]) for group in encodings()
                      for e in group["encodings"] for label in e["labels"]]

    def test_every_label(self):
        self.assertEqual(len(self.table), 228)
        self.assertEqual(sorted(wenc.labels()), sorted(self.table))
        for label, name in self.table:
            with self.subTest(label):
                self.assertEqual(wenc.lookup(label), name)
                self.assertEqual(wenc.lookup(label.upper()), name)
                self.assertEqual(wenc.lookup(f"\t\n\x0c\r {label} \r\n"), name)
                self.assertIsNone(wenc.lookup(f"\x0b{label}"))
                self.assertIsNone(wenc.lookup(f"{label}\u00a0"))
                self.assertIsNone(wenc.lookup(label + "x"))

    def test_not_labels(self):
        for text in ("", " ", "utf 8", "utf-8\x00", "\u212aoi8-r", "latin 1", "utf8 "[:3] + "x"):
            self.assertIsNone(wenc.lookup(text), repr(text))
        self.assertEqual(wenc.lookup("koi8-r"), "KOI8-R")
        with self.assertRaises(TypeError):
            wenc.lookup(b"utf-8")
        with self.assertRaises(LookupError):
            wenc.decode(b"", "no-such-label")
        with self.assertRaises(LookupError):
            wenc.encode("", "utf 8")

    def test_output_encoding_and_bom_sniff(self):
        for label, name in self.table:
            expected = "UTF-8" if name in ("replacement", "UTF-16BE", "UTF-16LE") else name
            self.assertEqual(wenc.output_encoding(label), expected)
            self.assertEqual(wenc.Encoder(label).encoding, expected)
        self.assertEqual(wenc.bom_sniff(b"\xef\xbb\xbfx"), "UTF-8")
        self.assertEqual(wenc.bom_sniff(bytearray(b"\xfe\xff")), "UTF-16BE")
        self.assertEqual(wenc.bom_sniff(memoryview(b"\xff\xfe\x00")), "UTF-16LE")
        for data in (b"", b"\xef\xbb", b"\xff", b"\x00\x00\xfe\xff"):
            self.assertIsNone(wenc.bom_sniff(data))

    def test_text_decoder_labels(self):
        for label, name in self.table:
            if name == "replacement":
                with self.assertRaises(LookupError):
                    wenc.TextDecoder(label)
            else:
                self.assertEqual(wenc.TextDecoder(label).encoding, name.lower())
        self.assertEqual(wenc.TextDecoder().encoding, "utf-8")

    def test_codec_names(self):
        wenc.register()
        for label, name in self.table:
            with self.subTest(label):
                info = codecs.lookup(f"whatwg:{label}")
                self.assertEqual(info.name, f"whatwg:{name.lower()}")
                info = codecs.lookup(f"WHATWG:{label.upper()}")
                self.assertEqual(info.name, f"whatwg:{name.lower()}")
        with self.assertRaises(LookupError):
            codecs.lookup("whatwg:no-such-label")


if __name__ == "__main__":
    unittest.main()

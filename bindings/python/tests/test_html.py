"""HTML in one call: html_to_unicode(), sniff_html(), sniff_xml_encoding(),
content_type_charset() and decode_with_encoding(); and, on the same
inputs, what w3lib's html_to_unicode (what Scrapy uses) answers
differently, and why."""

import unittest

import wenc

from .helpers import skip_loudly

try:
    from w3lib.encoding import html_to_unicode as w3lib_html_to_unicode
except ImportError:  # checked in the test that needs it
    w3lib_html_to_unicode = None


class SniffTest(unittest.TestCase):
    def test_sniff_html_steps(self):
        meta = b"<p><meta charset=koi8-r>"
        self.assertEqual(wenc.sniff_html(meta),
                         ("KOI8-R", "tentative", "meta", 3, 21, False))
        self.assertEqual(wenc.sniff_html(b"\xfe\xff" + meta, "koi8-u"),
                         ("UTF-16BE", "certain", "bom", 0, 2, False))
        self.assertEqual(wenc.sniff_html(meta, " Latin1 "),
                         ("windows-1252", "certain", "transport", 0, 0, False))
        # Not a label: the step is passed over.
        self.assertEqual(wenc.sniff_html(meta, "nonsense").source, "meta")
        self.assertEqual(wenc.sniff_html(meta, "\u00e9").source, "meta")
        # Fewer than 1024 bytes and nothing found: more bytes may decide.
        self.assertEqual(wenc.sniff_html(b"<p>abc", default="shift_jis"),
                         ("Shift_JIS", "tentative", "default", 0, 0, True))
        self.assertEqual(wenc.sniff_html(b"<p>" + b"a" * 1100).encoding, "windows-1252")
        self.assertFalse(wenc.sniff_html(b"<p>" + b"a" * 1100).need_more)
        with self.assertRaises(LookupError):
            wenc.sniff_html(b"", default="nonsense")
        with self.assertRaises(TypeError):
            wenc.sniff_html("text")

    def test_sniff_xml_encoding(self):
        declaration = b'<?xml version="1.0" encoding="utf-16"?>'
        self.assertEqual(wenc.sniff_xml_encoding(declaration),
                         ("UTF-16LE", "tentative", "xml-declaration", 0, 37, False))
        self.assertEqual(wenc.sniff_xml_encoding(b"<?xml version='1.0'?><p encoding='x'>"),
                         (None, "tentative", "none", 0, 0, False))
        self.assertTrue(wenc.sniff_xml_encoding(b"<?xm").need_more)

    def test_content_type_charset(self):
        cases = [
            ("text/html; charset=UTF-8", "UTF-8"),
            ('text/html; charset="Shift_JIS"', "Shift_JIS"),
            ('text/html; charset="a\\"b"; x=y', 'a"b'),
            ("text/html;charset=gbk ;x=1", "gbk"),
            ("text/html; Charset=koi8-r; charset=latin1", "koi8-r"),
            ("text/html", None),
            ("text/html; charset=", None),
            ("nonsense; charset=utf-8", None),
            # Fetch: the last MIME type decides; one of the same essence
            # without a charset keeps the earlier charset.
            ("text/html;charset=gbk, text/html", "gbk"),
            ("text/html;charset=gbk, text/plain", None),
            ("text/html;charset=gbk, */*", "gbk"),
            ('text/html;charset="a,b", text/html', "a,b"),
            (b"text/html; charset=euc-kr", "euc-kr"),
            (None, None),
        ]
        for header, charset in cases:
            with self.subTest(header=header):
                self.assertEqual(wenc.content_type_charset(header), charset)

    def test_decode_with_encoding(self):
        self.assertEqual(wenc.decode_with_encoding(b"\xff\xfea\x00", "latin1"),
                         ("UTF-16LE", "a"))
        self.assertEqual(wenc.decode_with_encoding(b"caf\xe9", "latin1"),
                         ("windows-1252", "caf\u00e9"))
        # Not sniffed: EF BB is a pair index jis0208 lacks (pointer 8770), BF
        # half-width katakana.
        self.assertEqual(wenc.decode_with_encoding(b"\xef\xbb\xbfa", "sjis", bom="keep"),
                         ("Shift_JIS", "\ufffd\uff7fa"))
        self.assertEqual(wenc.decode_with_encoding(b"\xff", errors="backslashreplace"),
                         ("UTF-8", "\\xff"))


# (name, Content-Type, body, wenc's answer, w3lib's answer); each answer is
# (encoding, end of the text).
DIFFERENCES = [
    # windows-1252's 0x81 is U+0081 in the Standard; CPython's cp1252 has no
    # character there, and w3lib decodes with CPython's codecs.
    ("latin1 label", "text/html; charset=iso-8859-1", b"\x80\x81\x9f",
     ("windows-1252", "\u20ac\x81\u0178"), ("cp1252", "\u20ac\ufffd\u0178")),
    # The prescan reads 1024 bytes; w3lib's regular expressions read 4096.
    ("meta after 1024 bytes", None, b"<p>" + b"x" * 1100 + b"<meta charset=koi8-r>\xc1",
     ("windows-1252", ">\xc1"), ("koi8-r", ">\u0430")),
    # The prescan skips comments; w3lib's expressions do not.
    ("meta in a comment", None, b"<!-- <meta charset=koi8-r> --><p>\xc1",
     ("windows-1252", "<p>\xc1"), ("koi8-r", "<p>\u0430")),
    # A <meta> that says UTF-16 means UTF-8 (the bytes were read as ASCII).
    ("meta says utf-16", None, b"<meta charset=utf-16><p>\xe2\x82\xac",
     ("UTF-8", "<p>\u20ac"), ("utf-16", None)),
    # gb2312 is a label of GBK, whose 0x80 is the euro sign.
    ("gb2312 label", "text/html; charset=gb2312", b"\x80\xa1\xa1",
     ("GBK", "\u20ac\u3000"), ("gb18030", "\ufffd\u3000")),
    # x-user-defined in a <meta> means windows-1252; w3lib knows no such codec.
    ("x-user-defined", None, b"<meta charset=x-user-defined>\x80",
     ("windows-1252", ">\u20ac"), ("utf8", ">\ufffd")),
    # Nothing declared: the default, windows-1252 unless the caller says.
    ("no declaration", None, b"<p>caf\xc3\xa9",
     ("windows-1252", "caf\xc3\xa9"), ("utf8", "caf\xe9")),
]

# Inputs on which both answer the same.
AGREEMENTS = [
    ("meta", None, b"<meta charset=koi8-r><p>\xc1\xc2", "KOI8-R", "\u0430\u0431"),
    ("header over meta", "text/html; charset=windows-1251", b"<meta charset=koi8-r>\xc1",
     "windows-1251", "\u0411"),
    ("BOM over header", "text/html; charset=koi8-r", b"\xef\xbb\xbf\xd0\xb0", "UTF-8",
     "\u0430"),
    ("XML declaration", None, b'<?xml version="1.0" encoding="windows-1251"?><p>\xc1',
     "windows-1251", "<p>\u0411"),
    ("http-equiv", None,
     b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1253">\xe1',
     "windows-1253", ">\u03b1"),
    ("unknown header label", "text/html; charset=nonsense", b"<meta charset=koi8-r>\xc1",
     "KOI8-R", ">\u0430"),
    ("malformed UTF-8", "text/html; charset=utf-8", b"a\xf0\x9f\x98b\xed\xa0\x80c", "UTF-8",
     "a\ufffdb\ufffd\ufffd\ufffdc"),
]


class HtmlToUnicodeTest(unittest.TestCase):
    def test_answers(self):
        for name, header, body, ours, _ in DIFFERENCES:
            with self.subTest(name=name):
                encoding, text = wenc.html_to_unicode(header, body)
                self.assertEqual(encoding, ours[0])
                self.assertTrue(text.endswith(ours[1]), text[-20:])
        for name, header, body, encoding, end in AGREEMENTS:
            with self.subTest(name=name):
                answer = wenc.html_to_unicode(header, body)
                self.assertEqual(answer[0], encoding)
                self.assertTrue(answer[1].endswith(end), answer[1][-20:])
        self.assertEqual(wenc.html_to_unicode(None, b"<p>caf\xc3\xa9", default="utf-8"),
                         ("UTF-8", "<p>caf\xe9"))
        self.assertEqual(wenc.html_to_unicode(b"text/html; charset=sjis", b"\x82\xa0"),
                         ("Shift_JIS", "\u3042"))

    def test_where_w3lib_differs(self):
        if w3lib_html_to_unicode is None:
            skip_loudly(self, "w3lib is not installed (Debian: python3-w3lib)")
        for name, header, body, _, theirs in DIFFERENCES:
            with self.subTest(name=name):
                encoding, text = w3lib_html_to_unicode(header, body)
                self.assertEqual(encoding, theirs[0])
                if theirs[1] is not None:
                    self.assertTrue(text.endswith(theirs[1]), text[-20:])
        for name, header, body, encoding, end in AGREEMENTS:
            with self.subTest(name=name):
                self.assertTrue(w3lib_html_to_unicode(header, body)[1].endswith(end))


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Writes the seed corpora under fuzz/corpus/<target>/ (run from anywhere;
replaces the directories' contents). Each seed starts with the header its
target reads (see the comment at the top of fuzz/fuzz_<target>.c)."""
import json
import os
import shutil

here = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(here, "..", "..", "shared", "whatwg")

# wenc_id order; None: no Python codec (bytes are made by hand below).
CODECS = ["utf-8", "cp866", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5",
          "iso8859_6", "iso8859_7", "iso8859_8", "iso8859_8", "iso8859_10",
          "iso8859_13", "iso8859_14", "iso8859_15", "iso8859_16", "koi8_r",
          "koi8_u", "mac_roman", "cp874", "cp1250", "cp1251", "cp1252", "cp1253",
          "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "mac_cyrillic",
          "gbk", "gb18030", "big5", "euc_jp", "iso2022_jp", "shift_jis",
          "euc_kr", None, "utf-16-be", "utf-16-le", None]
GB18030, BIG5, EUC_JP, ISO_2022_JP, SHIFT_JIS, EUC_KR = 30, 31, 32, 33, 34, 35
REPLACEMENT, UTF_16BE, UTF_16LE, X_USER_DEFINED = 36, 37, 38, 39

TEXT = ("Hi, w\u00f6rld \u20ac \u00a5\u203e\u2212 \uff71\uff9f \u65e5\u672c\u8a9e "
        "\u3042\u30a2 \ud55c\uad6d\uc5b4 \u4e2d\u6587 \u041f\u0440\u0438 "
        "\u0395\u03bb \u05e9\u05dc \u0645\u0631 \u0e44\u0e17 \U0001F600\n")


def sample(enc):
    if enc == REPLACEMENT:
        return b"any bytes \x80\xff"
    if enc == X_USER_DEFINED:
        return bytes(range(0x20, 0x7f, 7)) + bytes(range(0x80, 0x100, 5))
    return TEXT.encode(CODECS[enc], errors="xmlcharrefreplace")


MALFORMED = {
    0: [b"\xe0\x80\x80A\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf\xf0\x9f\x98", b"\xef\xbb"],
    GB18030: [b"\x81\x30\x81\x30\x84\x31\xa4\x39\xe3\x32\x9a\x35\x81\x30\xff\x81",
              b"\xa6\xd9\xfe\x59\x80\x81\x30\x81"],
    BIG5: [b"\x88\x62\x88\x64\x88\xa3\x88\xa5\x81\x40\xa1\x41\xfe\x7f", b"\xa4"],
    EUC_JP: [b"\x8f\xb0\xa1\x8e\xb1\x8e\xff\xa1\x41\x8f\xa1", b"\x8f"],
    ISO_2022_JP: [b"\x1b$B\x30\x21\x1b(J\x5c\x7e\x1b(I\x31\x1b(B\x1b$B\x1b(B\x0e\x1b",
                  b"\x1b$@\x24\x22\x1b(B!\x1b$"],
    SHIFT_JIS: [b"\x81\x7c\x82\xa0\xf0\x40\xa0\xe0\x7f\x80\xff\x81", b"\xfc\xfc"],
    EUC_KR: [b"\xb0\xa1\x81\x41\xc8\xfe\xff\x80\xb0", b"\xa1"],
    UTF_16BE: [b"\xd8\x3d\xde\x00\xdc\x00\xd8\x00\x00\x41\xd8", b"\xfe\xff\x00"],
    UTF_16LE: [b"\x3d\xd8\x00\xde\x00\xdc\x00\xd8\x41\x00\x3d", b"\xff\xfe\x41"],
}
BOMS = [b"\xef\xbb\xbfA\xc3\xa9", b"\xfe\xff\x00A\x00\xe9", b"\xff\xfeA\x00\xe9\x00",
        b"\xef\xbb\xbf\xef\xbb\xbf", b"\xff\xfe", b"\xfe"]
PLANS = [b"", b"\x01", b"\x00\x03\x88", b"\x02\x81\x00\x07\xf0"]


def write(target, name, data):
    path = os.path.join(here, "corpus", target)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)
    # fuzz_diff reads the decode header as is; its encode flags are bit 4
    # (encode), bit 2 fatal and bit 3 UTF-16 instead of bits 0 and 1.
    if target == "decode":
        write("diff", "decode-" + name, data)
    elif target == "encode":
        flags = 0x10 | (data[1] & 1) << 2 | (data[1] & 2) << 2
        write("diff", "encode-" + name, data[:1] + bytes([flags]) + data[2:])


def header(enc, flags, plan):
    return bytes([enc, flags, len(plan)]) + plan


def decode_seeds():
    for enc in range(40):
        write("decode", "%02d-sample" % enc,
              header(enc, enc % 16, PLANS[enc % 4]) + sample(enc))
    for enc, items in MALFORMED.items():
        for i, data in enumerate(items):
            write("decode", "%02d-malformed-%d" % (enc, i),
                  header(enc, 4 + 8 * i, PLANS[i + 1]) + data)
    for i, data in enumerate(BOMS):
        write("decode", "bom-%d" % i, header([21, 0, 37, 38, 0, 37][i], 3 if i % 2 else 1,
                                             PLANS[i % 4]) + data)


def encode_seeds():
    utf16 = TEXT.encode("utf-16-le") + b"\x00\xd8A\x00\x00\xdc\x3d\xd8"
    extra = ("\u00a5\u203e\u2212\uff61\uff9f\ue78d\ue864\ue5e5\ue7c7\u20ac\u0080"
             "\x1b\x0e\x0f\uf780\U00010000\ufffd\u2550\u5341\uac00").encode()
    bad = b"\xe0\x80\xed\xa0\x80\xf4\x90\xc3"
    for enc in range(40):
        if enc % 3 == 0:
            write("encode", "%02d-utf16" % enc, header(enc, 2 | (enc & 1), PLANS[enc % 4]) + utf16)
        else:
            write("encode", "%02d-utf8" % enc, header(enc, enc & 1, PLANS[enc % 4]) + TEXT.encode())
    for enc in (0, GB18030 - 1, GB18030, BIG5, EUC_JP, ISO_2022_JP, SHIFT_JIS, EUC_KR, X_USER_DEFINED, 21):
        write("encode", "%02d-special" % enc, header(enc, 1, b"") + extra)
        write("encode", "%02d-special-html" % enc, header(enc, 0, PLANS[2]) + extra + bad)
    # Big5's astral code points outside HKSCS (pointers from 5024 on)
    with open(os.path.join(DATA, "index-big5.txt")) as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    astral = "".join(chr(int(cp, 16)) for pointer, cp, *_ in rows
                     if int(pointer) >= 5024 and int(cp, 16) > 0xFFFF)
    write("encode", "%02d-astral" % BIG5, header(BIG5, 1, b"") + astral[:48].encode())
    write("encode", "%02d-astral-utf16" % BIG5,
          header(BIG5, 2, PLANS[3]) + astral[-48:].encode("utf-16-le"))
    # the UTF-16 output extension (flag bit 2; bit 3 big-endian, bit 4 BOM)
    write("encode", "utf16-output", header(0, 4, PLANS[1]) + extra + bad)
    write("encode", "utf16-output-be-bom",
          header(0, 2 | 4 | 8 | 16, PLANS[2]) + utf16)


def diff_seeds():
    """The known differences of tests/diff/known_differences.c."""
    changed = "\ufe10\ufe19\u9fb4\u9fbb\ue78d\ue864A"
    for enc in (GB18030 - 1, GB18030):
        write("diff", "known-%02d-decode" % enc, header(enc, 6, b"") + b"\xa6\xd9\xfe\x59\xa6\xdf")
        write("diff", "known-%02d-encode" % enc, header(enc, 0x14, PLANS[1]) + changed.encode())
        write("diff", "known-%02d-encode-utf16" % enc,
              header(enc, 0x18, PLANS[2]) + changed.encode("utf-16-le"))
    write("diff", "known-%02d-escapes" % ISO_2022_JP,
          header(ISO_2022_JP, 6, PLANS[3]) + b"A\x1b$B\x1b(BA\x1b(J\x1b$@\x30\x21")


def labels_seeds():
    labels = [b"utf-8", b" \tUTF8\r\n", b"\x0cShift_JIS ", b"csISO2022JP", b"x-user-defined",
              b"replacement", b"latin1", b"\x0butf-8", b"utf-8\x00", b"iso-8859-8-i",
              b"UNICODEFFFE", b"gb_2312-80", b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe",
              b"utf-\xc5\xbf", b"windows-125", b"koi"]
    for i, label in enumerate(labels):
        write("labels", "label-%02d" % i, label)


def hooks_seeds():
    for enc in range(0, 40, 3):
        write("hooks", "%02d-sample" % enc, bytes([enc]) + sample(enc))
    for i, data in enumerate(BOMS + MALFORMED[0] + MALFORMED[UTF_16LE]):
        write("hooks", "misc-%02d" % i, bytes([(7 * i) % 40]) + data)
    write("hooks", "invalid-id", b"\xf9" + TEXT.encode())


def text_seeds():
    with open(os.path.join(DATA, "encodings.json")) as f:
        order = [label for group in json.load(f) for encoding in group["encodings"]
                 for label in encoding["labels"]]
    labels = {name: order.index(name) for name in
              ("utf-8", "utf-16le", "utf-16be", "shift_jis", "iso-2022-jp", "gb18030",
               "big5", "euc-kr", "windows-1252", "replacement")}
    texts = [b"\xef\xbb\xbfA\xef\xbb\xbfB\xef\xbb\xbf\xff\xef\xbb\xbfA",
             b"\xff\xfe" + TEXT.encode("utf-16-le"), b"\xfe\xff\x00A\xd8\x3d",
             TEXT.encode("shift_jis", "ignore"), b"\x1b$B\x30\x21\x1b(B\x1b",
             TEXT.encode("gb18030"), b"\x88\x62\xa4\x40\xa4",
             "\ud55c\uad6d".encode("euc_kr") + b"\xc8", b"caf\xe9", b"\x00"]
    plans = [b"\x03\x84\x60\x01", b"\x04\xe0\x00\x02", b"\x01\x01\x01\x61", b"\x62\x05"]
    for i, (name, index) in enumerate(labels.items()):
        data = texts[i]
        write("text", "%s-%d" % (name, i),
              bytes([index, (i * 5) % 256, len(plans[i % 4])]) + plans[i % 4] + data)
        write("text", "%s-fatal-%d" % (name, i),
              bytes([index, 1 | ((i * 8) % 256), len(plans[(i + 1) % 4])]) +
              plans[(i + 1) % 4] + data + b"\xff\xef\xbb\xbf\x80")


def sniff_seeds():
    """[flags] [label length] [label] [document] for fuzz_sniff."""
    docs = [b"<meta charset=shift_jis>", b"\xef\xbb\xbf<meta charset=gbk>",
            b"<!-- <meta charset=gbk> --><meta http-equiv=Content-Type "
            b"content='text/html; charset=\"koi8-r\"'>",
            b"<?xml version=\"1.0\" encoding=\"utf-16\"?><p>",
            b"<\x00?\x00x\x00m\x00l\x00", b"<a title='<meta charset=big5>'><meta/charset=x-user-defined>",
            b"x" * 1000 + b"<meta charset=\"windows-1251\">"]
    for i, doc in enumerate(docs):
        label = b"latin2" if i % 3 == 0 else b""
        write("sniff", "doc-%02d" % i, bytes([(i * 37) | (1 if label else 0), len(label)]) + label + doc)


for target in ("decode", "encode", "labels", "hooks", "text", "diff", "sniff"):
    shutil.rmtree(os.path.join(here, "corpus", target), ignore_errors=True)
decode_seeds()
encode_seeds()
diff_seeds()
labels_seeds()
hooks_seeds()
text_seeds()
sniff_seeds()

"""Shared by the tests: the Standard's data, the corpus, and reference
encoders written from the Standard's algorithms (never from wenc)."""

import json
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def _first_directory(candidates, marker):
    for directory in candidates:
        if directory and os.path.exists(os.path.join(directory, marker)):
            return directory
    return None


DATA_DIR = _first_directory(
    [os.environ.get("WENC_DATA_DIR"), os.path.join(ROOT, "..", "shared", "whatwg")],
    "encodings.json")
CORPUS_DIR = _first_directory(
    [os.environ.get("WENC_CORPUS_DIR"),
     os.path.join(ROOT, "..", "shared", "corpus", "wikipedia")], "sources.txt")


def skip_loudly(test, why):
    """Skips the test (test.sh then exits 77: not every check ran), or fails
    it where WENC_TEST_REQUIRE_ALL=1 asks for every check (CI)."""
    if os.environ.get("WENC_TEST_REQUIRE_ALL") == "1":
        test.fail(f"{why}, and WENC_TEST_REQUIRE_ALL=1 requires it")
    print(f"\nSKIPPED: {test.id()}: {why}", flush=True)
    raise unittest.SkipTest(why)


def need_data(test):
    if not DATA_DIR:
        skip_loudly(test, "the Standard's data (encodings.json, index-*.txt) was not "
                    "found in $WENC_DATA_DIR or ../shared/whatwg")


def need_corpus(test):
    if not CORPUS_DIR:
        skip_loudly(test, "the corpus was not found in $WENC_CORPUS_DIR or "
                    "../shared/corpus/wikipedia")


def encodings():
    with open(os.path.join(DATA_DIR, "encodings.json"), encoding="utf-8") as f:
        return json.load(f)


_indexes = {}


def read_index(name):
    """index-NAME.txt as a list of (pointer, code point), in file order."""
    if name not in _indexes:
        entries = []
        with open(os.path.join(DATA_DIR, f"index-{name}.txt"), encoding="utf-8") as f:
            for line in f:
                fields = line.split()
                if fields and not line.startswith("#"):
                    entries.append((int(fields[0]), int(fields[1], 16)))
        _indexes[name] = entries
    return _indexes[name]


def first_pointers(entries, skip=lambda pointer: False):
    """The Standard's index pointer: each code point's first pointer."""
    pointers = {}
    for pointer, code_point in entries:
        if not skip(pointer) and code_point not in pointers:
            pointers[code_point] = pointer
    return pointers


def corpus_files():
    return sorted(os.path.join(CORPUS_DIR, name) for name in os.listdir(CORPUS_DIR)
                  if name.endswith((".txt", ".html")) and name != "sources.txt")


# ---- reference encoders (§9-§13), one code point at a time -------------------
#
# Each takes a code point and returns its bytes, or None for "error with code
# point". ISO-2022-JP, the one with state, is encode_iso_2022_jp() below.

GB18030_PRIVATE_USE = {  # DESIGN.md: the GB18030-2022 encoder additions
    0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd", 0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3", 0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d", 0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0",
}


def pointer_encoder(pointers, to_bytes, special=lambda cp: None, ascii_max=0x7F):
    """An encoder that writes ASCII (up to ascii_max) as it is, then what
    special() gives (bytes, or a code point to look up instead), then the
    bytes of the code point's pointer."""
    def encode(cp):
        if cp <= ascii_max:
            return bytes([cp])
        replaced = special(cp)
        if isinstance(replaced, bytes):
            return replaced
        pointer = pointers.get(cp if replaced is None else replaced)
        return None if pointer is None else to_bytes(pointer)
    return encode


def single_byte_encoder(index_name):
    return pointer_encoder(first_pointers(read_index(index_name)),
                           lambda pointer: bytes([pointer + 0x80]))


def gb18030_two_bytes(pointer):
    trail = pointer % 190
    return bytes([pointer // 190 + 0x81, trail + (0x40 if trail < 0x3F else 0x41)])


def gb18030_four_bytes(pointer):
    return bytes([pointer // 12600 + 0x81, pointer // 1260 % 10 + 0x30,
                  pointer // 10 % 126 + 0x81, pointer % 10 + 0x30])


def gb18030_ranges_pointer(cp):
    """§5 index gb18030 ranges pointer."""
    if cp == 0xE7C7:
        return 7457
    offset, cp_offset = 0, 0
    for start, code_point in read_index("gb18030-ranges"):
        if code_point <= cp:
            offset, cp_offset = start, code_point
    return offset + cp - cp_offset


def gb18030_encoder(is_gbk):
    pointers = first_pointers(read_index("gb18030"))

    def encode(cp):
        if cp < 0x80:
            return bytes([cp])
        if cp == 0xE5E5:
            return None
        if is_gbk and cp == 0x20AC:
            return b"\x80"
        if cp in GB18030_PRIVATE_USE:
            return GB18030_PRIVATE_USE[cp]
        pointer = pointers.get(cp)
        if pointer is not None:
            return gb18030_two_bytes(pointer)
        if is_gbk:
            return None
        return gb18030_four_bytes(gb18030_ranges_pointer(cp))
    return encode


def big5_bytes(pointer):
    trail = pointer % 157
    return bytes([pointer // 157 + 0x81, trail + (0x40 if trail < 0x3F else 0x62)])


def big5_encoder():
    entries = read_index("big5")
    pointers = first_pointers(entries, skip=lambda p: p < (0xA1 - 0x81) * 157)
    # §11.1.2 index Big5 pointer: these take their last pointer.
    for pointer, cp in entries:
        if cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
            pointers[cp] = pointer
    return pointer_encoder(pointers, big5_bytes)


def euc_jp_bytes(pointer):
    return bytes([pointer // 94 + 0xA1, pointer % 94 + 0xA1])


def shift_jis_bytes(pointer):
    lead, trail = divmod(pointer, 188)
    return bytes([lead + (0x81 if lead < 0x1F else 0xC1),
                  trail + (0x40 if trail < 0x3F else 0x41)])


def japanese_special(katakana_prefix):
    """§12.1.2, §12.3.2: U+00A5, U+203E, half-width katakana, U+2212."""
    def special(cp):
        if cp == 0xA5:
            return b"\x5c"
        if cp == 0x203E:
            return b"\x7e"
        if 0xFF61 <= cp <= 0xFF9F:
            return katakana_prefix + bytes([cp - 0xFF61 + 0xA1])
        return 0xFF0D if cp == 0x2212 else None
    return special


def euc_jp_encoder():
    return pointer_encoder(first_pointers(read_index("jis0208")), euc_jp_bytes,
                           japanese_special(b"\x8e"))


def shift_jis_encoder():
    return pointer_encoder(
        first_pointers(read_index("jis0208"), skip=lambda p: 8272 <= p <= 8835),
        shift_jis_bytes, japanese_special(b""), ascii_max=0x80)


def euc_kr_bytes(pointer):
    return bytes([pointer // 190 + 0x81, pointer % 190 + 0x41])


def euc_kr_encoder():
    return pointer_encoder(first_pointers(read_index("euc-kr")), euc_kr_bytes)


def ncr(cp):
    return f"&#{cp};".encode("ascii")


def encode_stateless(encoder, text):
    """The bytes of text, unmappable code points as NCRs (html mode)."""
    out = []
    for ch in text:
        encoded = encoder(ord(ch))
        out.append(ncr(ord(ch)) if encoded is None else encoded)
    return b"".join(out)


def encode_iso_2022_jp(text):
    """§12.2.2 in html mode: unmappable code points become NCRs."""
    pointers = first_pointers(read_index("jis0208"))
    katakana = dict(read_index("iso-2022-jp-katakana"))
    state = "ASCII"
    out = []
    queue = [ord(ch) for ch in reversed(text)]
    while queue:
        cp = queue.pop()
        if state in ("ASCII", "Roman") and cp in (0x0E, 0x0F, 0x1B):
            out.append(ncr(0xFFFD))
        elif state == "ASCII" and cp < 0x80:
            out.append(bytes([cp]))
        elif state == "Roman" and cp < 0x80 and cp not in (0x5C, 0x7E):
            out.append(bytes([cp]))
        elif state == "Roman" and cp in (0xA5, 0x203E):
            out.append(b"\x5c" if cp == 0xA5 else b"\x7e")
        elif cp < 0x80:
            queue.append(cp)
            state = "ASCII"
            out.append(b"\x1b(B")
        elif cp in (0xA5, 0x203E):
            queue.append(cp)
            state = "Roman"
            out.append(b"\x1b(J")
        else:
            looked_up = 0xFF0D if cp == 0x2212 else cp
            if 0xFF61 <= looked_up <= 0xFF9F:
                looked_up = katakana[looked_up - 0xFF61]
            pointer = pointers.get(looked_up)
            if pointer is None and state == "jis0208":
                queue.append(cp)
                state = "ASCII"
                out.append(b"\x1b(B")
            elif pointer is None:
                out.append(ncr(cp))
            elif state != "jis0208":
                queue.append(cp)
                state = "jis0208"
                out.append(b"\x1b$B")
            else:
                out.append(bytes([pointer // 94 + 0x21, pointer % 94 + 0x21]))
    if state != "ASCII":
        out.append(b"\x1b(B")
    return b"".join(out)


def reference_encoder(name):
    """The stateless reference encoder of the encoding `name`."""
    if name == "gb18030":
        return gb18030_encoder(False)
    if name == "GBK":
        return gb18030_encoder(True)
    if name == "Big5":
        return big5_encoder()
    if name == "EUC-JP":
        return euc_jp_encoder()
    if name == "Shift_JIS":
        return shift_jis_encoder()
    if name == "EUC-KR":
        return euc_kr_encoder()
    if name == "x-user-defined":
        return lambda cp: (bytes([cp]) if cp < 0x80 else bytes([cp - 0xF780 + 0x80])
                           if 0xF780 <= cp <= 0xF7FF else None)
    return single_byte_encoder(SINGLE_BYTE_INDEX_NAMES[name])


# The index file of each single-byte encoding (§9).
SINGLE_BYTE_INDEX_NAMES = {
    name: "iso-8859-8" if name == "ISO-8859-8-I" else name.lower()
    for name in ("IBM866 ISO-8859-2 ISO-8859-3 ISO-8859-4 ISO-8859-5 ISO-8859-6 "
                 "ISO-8859-7 ISO-8859-8 ISO-8859-8-I ISO-8859-10 ISO-8859-13 "
                 "ISO-8859-14 ISO-8859-15 ISO-8859-16 KOI8-R KOI8-U macintosh "
                 "windows-874 windows-1250 windows-1251 windows-1252 windows-1253 "
                 "windows-1254 windows-1255 windows-1256 windows-1257 windows-1258 "
                 "x-mac-cyrillic").split()}

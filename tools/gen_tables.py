#!/usr/bin/env python3
"""Generate wenc's C tables (src/tables/*.c) from the WHATWG Encoding Standard's data.

Usage:
  python3 tools/gen_tables.py [--data DIR] [--out DIR]
      write the tables (DIR defaults: data ../shared/whatwg beside the
      repository, or $WENC_DATA_DIR when set; out src/tables)
  python3 tools/gen_tables.py --check [--data DIR] [--out DIR]
      regenerate into a temporary directory, compare with src/tables/ (or
      --out), list the files that differ, are missing or are extra, and exit 1
      on any difference

Standard library only. The output depends only on the data files and on the
enum in include/wenc.h: the same input gives byte-identical output. Every
table is checked against the data before anything is written; any
inconsistency stops the script with exit status 2.

Adding a generated file: write a gen_NAME(src) function that returns the
file's text (header(...) + emit_* helpers) and add it to GENERATORS.
"""

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLIC_HEADER = os.path.join(ROOT, "include", "wenc.h")
DEFAULT_DATA = os.path.join(ROOT, "..", "shared", "whatwg")
DEFAULT_OUT = os.path.join(ROOT, "src", "tables")

MASK32 = 0xFFFFFFFF
LABEL_MAX_LEN = 19        # WENC_LABEL_MAX_LEN in src/internal.h
LABEL_SLOT_BITS = 12      # wenc_label_slots: 4096 entries
SINGLE_BYTE_FIRST = "IBM866"
SINGLE_BYTE_LAST = "x-mac-cyrillic"
SINGLE_BYTE_COUNT = 28


class DataError(Exception):
    """The data (or the header) is not what the generator expects."""


# ---- reading the Standard's data --------------------------------------------

POINTER_FIELD = re.compile(r" *([0-9]+)")
CODE_POINT_FIELD = re.compile(r"0x([0-9A-Fa-f]+)")
HEADER_FIELD = re.compile(r"#\s*(Identifier|Date):\s*(\S+)\s*")


def index_file_name(index_name):
    return "index-%s.txt" % index_name


def parse_index(data_dir, file_name):
    """§5 Indexes. Returns ({pointer: code point}, meta) where meta has the
    file name and its Identifier and Date header lines.

    The file is split on U+000A; empty lines and lines starting with "#" are
    dropped; the rest are split on U+0009: the first field is the pointer
    (decimal, after optional leading spaces), the second the code point
    (0x followed by hexadecimal digits); further fields are comments."""
    path = os.path.join(data_dir, file_name)
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataError("%s: not UTF-8 (%s)" % (path, err))
    table = {}
    meta = {"file": file_name}
    for number, line in enumerate(text.split("\n"), 1):
        where = "%s:%d" % (path, number)
        if not line:
            continue
        if line.startswith("#"):
            m = HEADER_FIELD.fullmatch(line)
            if m:
                key = m.group(1).lower()
                if key in meta:
                    raise DataError("%s: second %s line" % (where, m.group(1)))
                meta[key] = m.group(2)
            continue
        fields = line.split("\t")
        if len(fields) < 2:
            raise DataError("%s: fewer than two fields in %r" % (where, line))
        pm = POINTER_FIELD.fullmatch(fields[0])
        cm = CODE_POINT_FIELD.fullmatch(fields[1])
        if not pm or not cm:
            raise DataError("%s: malformed pointer or code point %r" % (where, line))
        pointer = int(pm.group(1), 10)
        code_point = int(cm.group(1), 16)
        if code_point > 0x10FFFF or 0xD800 <= code_point <= 0xDFFF:
            raise DataError("%s: U+%04X is not a scalar value" % (where, code_point))
        if pointer in table:
            raise DataError("%s: pointer %d occurs twice" % (where, pointer))
        table[pointer] = code_point
    for key in ("identifier", "date"):
        if key not in meta:
            raise DataError("%s: no '# %s:' header line" % (path, key.capitalize()))
    if not table:
        raise DataError("%s: no entries" % path)
    return table, meta


def parse_encodings(data_dir):
    """encodings.json: the encodings in table order, each {"name", "labels"}."""
    path = os.path.join(data_dir, "encodings.json")
    with open(path, "rb") as f:
        raw = f.read()
    try:
        groups = json.loads(raw.decode("utf-8"))
        encodings = [{"name": e["name"], "labels": list(e["labels"])}
                     for g in groups for e in g["encodings"]]
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as err:
        raise DataError("%s: unexpected structure (%s)" % (path, err))
    for e in encodings:
        if not isinstance(e["name"], str) or \
                not all(isinstance(label, str) for label in e["labels"]):
            raise DataError("%s: a name or label is not a string" % path)
    meta = {"file": "encodings.json", "sha256": hashlib.sha256(raw).hexdigest()}
    return encodings, meta


def first_pointers(table, skip=lambda pointer: False):
    """The Standard's index pointer: for each code point its first (lowest)
    pointer, leaving out the pointers `skip` excludes."""
    result = {}
    for pointer in sorted(table):
        if not skip(pointer):
            result.setdefault(table[pointer], pointer)
    return result


class Source:
    """The data directory, with each file parsed at most once."""

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.encodings, self.encodings_meta = parse_encodings(data_dir)
        self._indexes = {}

    def index(self, index_name):
        if index_name not in self._indexes:
            self._indexes[index_name] = parse_index(self.data_dir,
                                                    index_file_name(index_name))
        return self._indexes[index_name]


# ---- the enum in include/wenc.h -------------------------------------------------

def enum_name(name):
    """UTF-8 -> WENC_UTF_8, Shift_JIS -> WENC_SHIFT_JIS."""
    return "WENC_" + name.upper().replace("-", "_")


def header_enum_order(path=PUBLIC_HEADER):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"typedef\s+enum\s+wenc_id\s*\{(.*?)\}\s*wenc_id\s*;", text, re.S)
    if not m:
        raise DataError("%s: no 'typedef enum wenc_id { ... } wenc_id;'" % path)
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    names = re.findall(r"\b(WENC_[A-Z0-9_]+)\b\s*(?:=\s*-?[0-9]+\s*)?(?:,|$)", body)
    return [n for n in names if n not in ("WENC_INVALID", "WENC_ENCODING_COUNT")]


# ---- emitting C -----------------------------------------------------------------

GENERATED_LINE = "/* GENERATED by tools/gen_tables.py — do not edit. */"


def header(sources):
    """The comment that opens every generated file, then the include."""
    lines = [GENERATED_LINE, "/*", " * Generated from:"]
    for meta in sources:
        lines.append(" *   %s" % meta["file"])
        if "sha256" in meta:
            lines.append(" *     SHA-256: %s" % meta["sha256"])
        else:
            lines.append(" *     Identifier: %s" % meta["identifier"])
            lines.append(" *     Date: %s" % meta["date"])
    lines += [
        " *",
        " * The data is from the WHATWG Encoding Standard",
        " * (https://encoding.spec.whatwg.org/), Copyright © WHATWG (Apple, Google,",
        " * Mozilla, Microsoft), licensed under CC BY 4.0; portions incorporated into",
        " * source code, as here, are licensed under the BSD 3-Clause License (see",
        " * the LICENSE file in the data directory).",
        " */",
        '#include "../internal.h"',
        "",
    ]
    return "\n".join(lines) + "\n"


def dec(value):
    return "%d" % value


def hex4(value):
    return "0x%04X" % value


def byte_label(start):
    """Row label for a table indexed by byte."""
    return "/* 0x%02X */ " % start


def pointer_label(start):
    """Row label for an index: the row's first pointer."""
    return "/* %5d */ " % start


def emit_rows(values, per_line, fmt, indent, label=None):
    pad = " " * indent
    return [pad + (label(i) if label else "")
            + ", ".join(fmt(v) for v in values[i:i + per_line]) + ","
            for i in range(0, len(values), per_line)]


def emit_array(ctype, name, values, per_line=12, fmt=dec, static=True, size="",
               label=None):
    """A one-dimensional array definition; `size` is the text between [];
    `label(i)`, when given, starts the row whose first element is [i]."""
    out = ["%sconst %s %s[%s] = {" % ("static " if static else "", ctype, name, size)]
    out += emit_rows(list(values), per_line, fmt, 4, label)
    out.append("};")
    return "\n".join(out) + "\n"


def emit_pages(ctype, name, pages, per_line=16, fmt=dec, static=True):
    """An array of 256-entry pages; an all-zero page is written {0}."""
    out = ["%sconst %s %s[][256] = {" % ("static " if static else "", ctype, name)]
    for number, page in enumerate(pages):
        if not any(page):
            out.append("    {0}, /* page %d: nothing */" % number)
            continue
        out.append("    { /* page %d */" % number)
        out += emit_rows(list(page), per_line, fmt, 8)
        out.append("    },")
    out.append("};")
    return "\n".join(out) + "\n"


# The encoders' own tables (byte maps, reverse lookups): left out when the
# library is built with WENC_NO_ENCODE_TABLES (cmake -DWENC_FAST_ENCODE_TABLES=OFF),
# where the encoders search the decoders' indexes instead.
def encode_only(text):
    return ("#ifndef WENC_NO_ENCODE_TABLES /* cmake -DWENC_FAST_ENCODE_TABLES */\n"
            + text + "#endif /* WENC_NO_ENCODE_TABLES */\n")


def emit_comment(text):
    """A block comment from a list of lines."""
    body = [(" * " + line).rstrip() for line in text]
    return "/*\n" + "\n".join(body) + "\n */\n"


# ---- two-level tables for BMP code points ------------------------------------------

def build_two_level(values, pages, page_numbers):
    """Splits {code point: value != 0} (code points <= U+FFFF) into 256-entry
    pages by high byte. Pages are appended to `pages` (whose page 0 is all
    zeros) unless an identical page is already there. Returns page_of: the
    page number for each high byte (0 where nothing is mapped)."""
    if any(cp > 0xFFFF or cp < 0 for cp in values):
        raise DataError("a two-level table takes only BMP code points")
    page_of = [0] * 256
    for high in range(256):
        page = tuple(values.get(high << 8 | low, 0) for low in range(256))
        if any(page):
            if page not in page_numbers:
                page_numbers[page] = len(pages)
                pages.append(page)
            page_of[high] = page_numbers[page]
    return page_of


def verify_two_level(what, values, page_of, pages):
    """Every BMP code point looks up to values.get(cp, 0)."""
    if any(pages[0]):
        raise DataError("%s: page 0 is not empty" % what)
    for cp in range(0x10000):
        got = pages[page_of[cp >> 8]][cp & 0xFF]
        if got != values.get(cp, 0):
            raise DataError("%s: U+%04X looks up to %d, not %d"
                            % (what, cp, got, values.get(cp, 0)))


# ---- labels.c --------------------------------------------------------------------

MASK64 = (1 << 64) - 1
LABEL_WORD_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F)  # as in registry.c


def label_words(label):
    """The label's bytes, zero-padded to 24, as three little-endian words."""
    padded = label.encode("ascii").ljust(24, b"\0")
    return [int.from_bytes(padded[i:i + 8], "little") for i in (0, 8, 16)]


def label_key(words, length):
    """The same as label_key() in src/core/registry.c (arithmetic mod 2^64)."""
    c1, c2 = LABEL_WORD_MULTIPLIERS
    return (words[0] ^ (words[1] * c1) ^ (words[2] * c2) ^ length) & MASK64


def label_slot(key, multiplier):
    return ((key * multiplier) & MASK64) >> (64 - LABEL_SLOT_BITS)


def label_multiplier(labels):
    """The first odd multiplier of a fixed sequence (splitmix64 from 1) that
    sends every label's key to a slot of its own."""
    keys = [label_key(label_words(label), len(label)) for label in labels]
    state = 0
    for _ in range(1000000):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        multiplier = (z ^ (z >> 31)) | 1
        if len({label_slot(k, multiplier) for k in keys}) == len(keys):
            return multiplier
    raise DataError("labels: no multiplier sends them to distinct slots; "
                    "raise LABEL_SLOT_BITS")


def check_enum_order(encodings):
    order = header_enum_order()
    expected = [enum_name(e["name"]) for e in encodings]
    if order != expected:
        for i, (a, b) in enumerate(zip(order, expected)):
            if a != b:
                raise DataError("enum wenc_id in include/wenc.h differs from "
                                "encodings.json at position %d: %s vs %s" % (i, a, b))
        raise DataError("enum wenc_id in include/wenc.h has %d encodings, "
                        "encodings.json %d" % (len(order), len(expected)))


def collect_labels(encodings):
    """[(label, encoding name)] in table order, checked."""
    labels = []
    for e in encodings:
        for label in e["labels"]:
            if not re.fullmatch(r"[\x21-\x7E]+", label) or label != label.lower():
                raise DataError("label %r is not lowercase ASCII without whitespace"
                                % label)
            if len(label) > LABEL_MAX_LEN:
                raise DataError("label %r is longer than %d (WENC_LABEL_MAX_LEN)"
                                % (label, LABEL_MAX_LEN))
            labels.append((label, e["name"]))
    seen = set()
    for label, _ in labels:
        if label in seen:
            raise DataError("label %r occurs twice" % label)
        seen.add(label)
    return labels


def gen_labels(src):
    encodings = src.encodings
    check_enum_order(encodings)
    labels = collect_labels(encodings)
    names = [label for label, _ in labels]
    multiplier = label_multiplier(names)
    slots = [0] * (1 << LABEL_SLOT_BITS)
    for i, label in enumerate(names):
        slots[label_slot(label_key(label_words(label), len(label)), multiplier)] = i + 1
    if len(names) > 255 or sorted(s for s in slots if s) != list(range(1, len(names) + 1)):
        raise DataError("labels: the slots do not hold each label once")

    out = [header([src.encodings_meta])]
    out.append("/* §4.2 Names and labels: each encoding's name, as the Standard spells it. */\n")
    out.append("const char *const wenc_names[WENC_ENCODING_COUNT] = {\n")
    for e in encodings:
        out.append('    [%s] = "%s",\n' % (enum_name(e["name"]), e["name"]))
    out.append("};\n\n")
    out.append("/* The names in ASCII lowercase (the TextDecoder encoding getter). */\n")
    out.append("const char *const wenc_lowercase_names[WENC_ENCODING_COUNT] = {\n")
    for e in encodings:
        out.append('    [%s] = "%s",\n' % (enum_name(e["name"]), e["name"].lower()))
    out.append("};\n\n")
    out.append("/* The %d labels in the order of the Standard's table: label, length,\n"
               " * encoding. */\n" % len(labels))
    out.append("const label_entry wenc_labels[] = {\n")
    for label, name in labels:
        out.append('    {"%s", %d, %s},\n' % (label, len(label), enum_name(name)))
    out.append("};\n\n")
    out.append("const size_t wenc_label_total = %d;\n\n" % len(labels))
    out.append(emit_comment([
        "Label lookup: a lowercase label s of length n, zero-padded to 24",
        "bytes and read as three little-endian words w0, w1, w2, has the key",
        "",
        "    key = w0 ^ w1 * 0x9E3779B97F4A7C15 ^ w2 * 0xC2B2AE3D27D4EB4F ^ n",
        "",
        "(mod 2^64), and wenc_label_slots[(key * wenc_label_multiplier) >> %d]"
        % (64 - LABEL_SLOT_BITS),
        "is its index in wenc_labels plus 1 (0: no label). The multiplier,",
        "found by tools/gen_tables.py, gives every label a slot of its own;",
        "any other string lands in some slot too, so the caller compares it",
        "with the label there (wenc_label_words: each label's three words).",
    ]))
    out.append("const uint64_t wenc_label_multiplier = UINT64_C(0x%016X);\n\n" % multiplier)
    out.append("/* Label index + 1 per slot (0: empty slot). */\n")
    out.append(emit_array("uint8_t", "wenc_label_slots", slots, 16, static=False,
                          size=str(1 << LABEL_SLOT_BITS)))
    out.append("\n/* Each label as the three words the lookup compares. */\n")
    out.append("const uint64_t wenc_label_words[][3] = {\n")
    for label in names:
        out.append("    {UINT64_C(0x%016X), UINT64_C(0x%016X), UINT64_C(0x%016X)},\n"
                   % tuple(label_words(label)))
    out.append("};\n")
    return "".join(out)


# ---- single_byte.c -----------------------------------------------------------------

def single_byte_encodings(encodings):
    names = [e["name"] for e in encodings]
    try:
        first = names.index(SINGLE_BYTE_FIRST)
        last = names.index(SINGLE_BYTE_LAST)
    except ValueError as err:
        raise DataError("encodings.json: %s" % err)
    single = encodings[first:last + 1]
    if len(single) != SINGLE_BYTE_COUNT:
        raise DataError("expected %d single-byte encodings from %s to %s, found %d"
                        % (SINGLE_BYTE_COUNT, SINGLE_BYTE_FIRST, SINGLE_BYTE_LAST,
                           len(single)))
    return single


def single_byte_index_name(name):
    """§9: ISO-8859-8-I uses index ISO-8859-8; the others their own."""
    return "iso-8859-8" if name == "ISO-8859-8-I" else name.lower()


def c_identifier(text):
    return re.sub(r"[^a-z0-9]", "_", text.lower())


def verify_single_byte(index_name, table, decode, page_of, pages):
    """Decode gives each ASCII byte itself and matches the index at every
    pointer; encode gives each code point of the index its first pointer, and
    nothing for any other code point."""
    for b in range(128):
        if decode[b] != b:
            raise DataError("%s: decode of byte %d is not itself" % (index_name, b))
    for p in range(128):
        if decode[0x80 + p] != table.get(p, 0):
            raise DataError("%s: decode of pointer %d is wrong" % (index_name, p))
    lowest = {}
    for p, cp in table.items():
        lowest[cp] = min(p, lowest.get(cp, p))
    for cp in range(0x10000):
        byte = pages[page_of[cp >> 8]][cp & 0xFF]
        want = 0x80 + lowest[cp] if cp in lowest else 0
        if byte != want:
            raise DataError("%s: U+%04X encodes to 0x%02X, not 0x%02X"
                            % (index_name, cp, byte, want))
        if byte and decode[byte] != cp:
            raise DataError("%s: U+%04X does not round-trip" % (index_name, cp))


# The decoder's 16-byte path pays off only where text's letters mostly fall in
# the linear ranges: it is off unless they hold this share of the letters
# and marks of bytes 0x80-0xFF.
LINEAR_MIN_SHARE = 0.6


def is_letter(cp):
    return cp != 0 and unicodedata.category(chr(cp))[0] in "LM"


def linear_ranges(decode):
    """The delta and the two ranges of bytes 0x80-0xFF decoding to byte +
    delta (mod 0x10000) that hold the most letters and marks, for the
    decoder's 16-byte path: ([first0, first1], [last0, last1], delta). A
    table with one such range gives it twice; one whose ranges hold less than
    LINEAR_MIN_SHARE of its letters gives 0x00..0x00 twice (none).
    x-user-defined, with no letters and wholly linear, keeps its range."""
    runs = {}
    b = 0x80
    while b < 0x100:
        if decode[b] == 0:
            b += 1
            continue
        delta = (decode[b] - b) & 0xFFFF
        first = b
        while b + 1 < 0x100 and decode[b + 1] == ((b + 1 + delta) & 0xFFFF):
            b += 1
        runs.setdefault(delta, []).append((first, b))
        b += 1

    def letters(run):
        return sum(is_letter(decode[b]) for b in range(run[0], run[1] + 1))

    best = None
    for delta in sorted(runs):
        richest = sorted(runs[delta], key=lambda r: (-letters(r), r[0]))[:2]
        covered = sum(letters(r) for r in richest)
        if best is None or covered > best[0]:
            best = (covered, delta, sorted(richest))
    covered, delta, ranges = best
    if covered < LINEAR_MIN_SHARE * sum(is_letter(cp) for cp in decode[0x80:]):
        return [0, 0], [0, 0], 0
    if len(ranges) == 1:
        ranges = ranges * 2
    for first, last in ranges:
        for b in range(first, last + 1):
            if decode[b] != (b + delta) & 0xFFFF:
                raise DataError("linear range of byte 0x%02X is wrong" % b)
    return [r[0] for r in ranges], [r[1] for r in ranges], delta


def encode_block(decode):
    """The block of 128 code points (cp >> 7) above U+00FF holding the most
    of the index's letters and marks (then of its code points), for the
    encoders' vector path, which takes ASCII, U+0080-U+00FF and that block;
    0 when no block holds 4 letters."""
    counts = {}
    for cp in decode[0x80:]:
        if cp > 0xFF:
            letters, total = counts.get(cp >> 7, (0, 0))
            counts[cp >> 7] = (letters + is_letter(cp), total + 1)
    best = sorted(counts.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
    return best[0][0] if best and best[0][1][0] >= 4 else 0


def table_entry(decode_name, encode_page_name, decode, block, indent):
    """A single_byte_table initializer, its fields named, one line each
    after the brace, indented by `indent` spaces."""
    first, last, delta = linear_ranges(decode)
    pad = " " * indent
    return ("{\n%s.decode = %s,\n%s.encode_page = %s,\n"
            "%s.linear_first = {0x%02X, 0x%02X},\n%s.linear_last = {0x%02X, 0x%02X},\n"
            "%s.linear_delta = 0x%04X,\n%s.encode_block = 0x%03X,\n%s}") % (
        pad, decode_name, pad, encode_page_name, pad, first[0], first[1],
        pad, last[0], last[1], pad, delta, pad, block, " " * (indent - 4))


def gen_single_byte(src):
    pages = [bytes(256)]
    page_numbers = {pages[0]: 0}
    sources, arrays, entries, idents, decodes = [], [], [], {}, {}
    for e in single_byte_encodings(src.encodings):
        index_name = single_byte_index_name(e["name"])
        if index_name not in idents:
            table, meta = src.index(index_name)
            sources.append(meta)
            ident = c_identifier(index_name)
            if any(p < 0 or p > 127 for p in table):
                raise DataError("%s: a pointer is above 127" % meta["file"])
            if any(cp == 0 or cp > 0xFFFF for cp in table.values()):
                raise DataError("%s: a code point is 0 or above U+FFFF" % meta["file"])
            if any(cp < 0x80 for cp in table.values()):
                raise DataError("%s: a code point is ASCII" % meta["file"])
            decode = list(range(128)) + [table.get(p, 0) for p in range(128)]
            encode = {cp: 0x80 + p for cp, p in first_pointers(table).items()}
            page_of = build_two_level(encode, pages, page_numbers)
            verify_single_byte(meta["file"], table, decode, page_of, pages)
            arrays.append("/* %s */\n" % meta["file"])
            arrays.append(emit_array("uint16_t", "decode_" + ident, decode, 8, hex4,
                                     size="256", label=byte_label))
            arrays.append(encode_only(emit_array("uint8_t", "encode_page_" + ident,
                                                 page_of, 16, size="256")))
            arrays.append("\n")
            idents[index_name] = ident
            decodes[index_name] = decode
        ident = idents[index_name]
        entries.append("    [%s - WENC_IBM866] = %s,\n"
                       % (enum_name(e["name"]),
                          table_entry("decode_" + ident,
                                      "ENCODE_PAGE(encode_page_%s)" % ident,
                                      decodes[index_name],
                                      encode_block(decodes[index_name]), 8)))
    if len(pages) > 256:
        raise DataError("single-byte encode: %d pages do not fit in uint8_t" % len(pages))

    out = [header(sources)]
    out.append(emit_comment([
        "§9 Legacy single-byte encodings. Per index: decode_X[b] is the code",
        "point of byte b: b itself below 0x80, the index's above, 0 where the",
        "index has none (as for byte 0x00); encode_page_X[cp >> 8] is the page of",
        "wenc_single_byte_pages holding U+XX00..U+XXFF, whose entry [cp & 0xFF]",
        "is the byte 0x80 + index pointer (the first pointer of cp), or 0 when",
        "cp is not in the index. Code points below U+0080 are not in the tables.",
        "Bytes in linear_first[i]..linear_last[i] decode to byte + linear_delta",
        "(mod 0x10000); ranges 0x00..0x00 mean none. encode_block: the block of",
        "128 code points (cp >> 7) above U+00FF with the most of the index's",
        "letters, 0 when none has 4. Built with WENC_NO_ENCODE_TABLES, the",
        "library has no encode pages (encode_page is NULL): the encoder searches",
        "decode_X instead.",
    ]))
    out.append("\n#ifdef WENC_NO_ENCODE_TABLES\n#define ENCODE_PAGE(page) NULL\n"
               "#else\n#define ENCODE_PAGE(page) page\n#endif\n\n")
    out.extend(arrays)
    out.append("const single_byte_table wenc_single_byte_tables[WENC_X_MAC_CYRILLIC -\n"
               "                                                WENC_IBM866 + 1] = {\n")
    out.extend(entries)
    out.append("};\n\n")
    out.append("/* Encode pages shared by all single-byte encodings; page 0 maps nothing. */\n")
    out.append(encode_only(emit_pages("uint8_t", "wenc_single_byte_pages", pages, 16,
                                      static=False)))
    out.append("\n/* x-user-defined (§14.5.1) is computed, not an index: byte b below\n"
               " * 0x80 decodes to itself, byte 0x80 + i to U+F780 + i. */\n")
    xud_decode = list(range(128)) + [0xF780 + i for i in range(128)]
    out.append(emit_array("uint16_t", "x_user_defined_decode", xud_decode, 8,
                          hex4, size="256", label=byte_label))
    out.append("\nconst single_byte_table wenc_x_user_defined_table = %s;\n"
               % table_entry("x_user_defined_decode", "NULL", xud_decode, 0, 4))
    return "".join(out)


# ---- multi-byte encodings ----------------------------------------------------------

def emit_byte_maps(maps):
    """byte_map wenc_PREFIX_bytes for each (prefix, values) of `maps`: BMP code
    point -> the bytes its encoder writes (0: none; below 0x100: one byte;
    else lead << 8 | trail), the maps of one call sharing their pages."""
    pages = [(0,) * 256]
    page_numbers = {pages[0]: 0}
    page_ofs = []
    for prefix, values in maps:
        if any(v <= 0 or v > 0xFFFF or (0xFF < v and v >> 8 == 0)
               for v in values.values()):
            raise DataError("%s: a value is not one byte or a lead and trail"
                            % prefix)
        page_of = build_two_level(values, pages, page_numbers)
        page_ofs.append(page_of)
    if len(pages) > 256:
        raise DataError("%s: %d pages do not fit in uint8_t"
                        % (maps[0][0], len(pages)))
    pages_name = maps[0][0] + "_byte_pages"
    out = [emit_pages("uint16_t", pages_name, pages, 12, fmt=hex4)]
    for (prefix, values), page_of in zip(maps, page_ofs):
        verify_two_level(prefix, values, page_of, pages)
        out.append(emit_array("uint8_t", prefix + "_page_of", page_of, 16,
                              size="256"))
        out.append("const byte_map wenc_%s_bytes = {.page_of = %s_page_of, "
                   ".pages = %s};\n" % (prefix, prefix, pages_name))
    return encode_only("".join(out))


def two_bytes(lead, trail):
    return lead << 8 | trail


def emit_index(name, table, size, ctype="uint16_t", per_line=10):
    """wenc_NAME_index[pointer] = code point (0: none), and its size."""
    if any(p >= size for p in table):
        raise DataError("index %s: a pointer is %d or more" % (name, size))
    if any(cp == 0 for cp in table.values()):
        raise DataError("index %s: code point 0 in the index" % name)
    if ctype == "uint16_t" and any(cp > 0xFFFF for cp in table.values()):
        raise DataError("index %s: a code point is above U+FFFF" % name)
    values = [table.get(p, 0) for p in range(size)]
    text = emit_array(ctype, "wenc_%s_index" % name, values, per_line, hex4,
                      static=False, size=str(size), label=pointer_label)
    return text + "const size_t wenc_%s_index_size = %d;\n" % (name, size)


# The GB18030-2022 revision moved these 18 pointers from Private Use code points
# to standard ones; the gb18030 and GBK encoders still map the Private Use code
# points to the same two bytes (pointer: old code point).
GB18030_PUA_EXTRAS = {
    7182: 0xE78D, 7183: 0xE78E, 7184: 0xE78F, 7185: 0xE790, 7186: 0xE791,
    7187: 0xE792, 7188: 0xE793, 7201: 0xE794, 7202: 0xE795, 7208: 0xE796,
    23775: 0xE81E, 23783: 0xE826, 23788: 0xE82B, 23789: 0xE82C, 23795: 0xE832,
    23812: 0xE843, 23829: 0xE854, 23845: 0xE864,
}


def gen_gb18030(src):
    table, meta = src.index("gb18030")
    ranges, rmeta = src.index("gb18030-ranges")
    if sorted(table) != list(range(23940)):
        raise DataError("index gb18030 is not pointers 0..23939")
    encode = first_pointers(table)
    for pointer, cp in GB18030_PUA_EXTRAS.items():
        if cp in encode:
            raise DataError("U+%04X is already in index gb18030" % cp)
        encode[cp] = pointer
    pairs = sorted(ranges.items())
    if [cp for _, cp in pairs] != sorted(cp for _, cp in pairs):
        raise DataError("index gb18030 ranges is not ascending in code points")
    out = [header([meta, rmeta])]
    out.append(emit_index("gb18030", table, 23940))
    out.append("\n/* Index gb18030 ranges, ascending by pointer and by code point. */\n")
    out.append("const gb18030_range wenc_gb18030_ranges[] = {\n")
    for pointer, cp in pairs:
        out.append("    {%d, 0x%04X},\n" % (pointer, cp))
    out.append("};\n")
    out.append("const size_t wenc_gb18030_range_count = %d;\n\n" % len(pairs))
    # §10.2.2 steps for a two-byte code point, built in: U+E5E5 is an error
    # whatever the index says; the pointer's lead and trail. GBK (§10.3.2)
    # writes U+20AC as 0x80.
    encode.pop(0xE5E5, None)
    gb18030 = {}
    for cp, pointer in encode.items():
        trail = pointer % 190
        gb18030[cp] = two_bytes(pointer // 190 + 0x81,
                                trail + (0x40 if trail < 0x3F else 0x41))
    gbk = dict(gb18030)
    gbk[0x20AC] = 0x80
    out.append("/* Encoders: the two bytes of each code point with an index pointer\n"
               " * (the first), and the 18 Private Use code points of the\n"
               " * GB18030-2022 note; GBK's map has 0x80 for U+20AC. */\n")
    out.append(emit_byte_maps([("gb18030", gb18030), ("gbk", gbk)]))
    out.append("\n/* Without the maps: the 18 Private Use code points of the GB18030-2022\n"
               " * note and their pointers, ascending by code point. */\n")
    out.append("#ifdef WENC_NO_ENCODE_TABLES\n")
    out.append("const gb18030_range wenc_gb18030_pua_extras[] = {\n")
    for cp, pointer in sorted((cp, p) for p, cp in GB18030_PUA_EXTRAS.items()):
        out.append("    {%d, 0x%04X},\n" % (pointer, cp))
    out.append("};\n")
    out.append("const size_t wenc_gb18030_pua_extra_count = %d;\n"
               % len(GB18030_PUA_EXTRAS))
    out.append("#endif /* WENC_NO_ENCODE_TABLES */\n")
    return "".join(out)


BIG5_LAST_POINTER = (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345)


def gen_big5(src):
    table, meta = src.index("big5")
    size = max(table) + 1
    encode = {}
    # Index Big5 pointer: skip the HKSCS pointers below (0xA1 - 0x81) * 157;
    # the last pointer for six code points, the first for all others.
    for pointer in sorted(table):
        if pointer < (0xA1 - 0x81) * 157:
            continue
        cp = table[pointer]
        if cp in BIG5_LAST_POINTER or cp not in encode:
            encode[cp] = pointer
    bmp = {cp: p for cp, p in encode.items() if cp <= 0xFFFF}
    astral = sorted((cp, p) for cp, p in encode.items() if cp > 0xFFFF)
    if any(p > 0xFFFF for _, p in astral):
        raise DataError("index big5: a pointer does not fit in uint16_t")
    if any(cp > 0xFFFF and (cp >> 16 != 2 or cp & 0xFFFF == 0)
           for cp in table.values()):
        raise DataError("index big5: a code point above U+FFFF is not "
                        "U+20001..U+2FFFF")
    # Decoder: the low 16 bits of each code point (half the size of 32-bit
    # entries, for the cache), and one bit per pointer set for Plane 2.
    low = {p: cp & 0xFFFF for p, cp in table.items()}
    plane2 = [0] * ((size + 7) // 8)
    for p, cp in table.items():
        if cp > 0xFFFF:
            plane2[p >> 3] |= 1 << (p & 7)
    out = [header([meta])]
    out.append("/* Decoder: index Big5 code point & 0xFFFF per pointer (0: none);\n"
               " * wenc_big5_plane2 bit (pointer & 7) of byte (pointer >> 3) adds 0x20000. */\n")
    out.append(emit_index("big5", low, size, "uint16_t", 10))
    out.append(emit_array("uint8_t", "wenc_big5_plane2", plane2, 16,
                          static=False, size=str(len(plane2))))
    out.append("\n/* Encoder (§11.1.2), code points up to U+FFFF: their two bytes. */\n")
    big5 = {}
    for cp, pointer in bmp.items():
        trail = pointer % 157
        big5[cp] = two_bytes(pointer // 157 + 0x81,
                             trail + (0x40 if trail < 0x3F else 0x62))
    out.append(emit_byte_maps([("big5", big5)]))
    out.append("\n/* Encoder, code points above U+FFFF: ascending, with their pointers. */\n")
    out.append(encode_only(
        emit_array("uint32_t", "wenc_big5_astral_code_points",
                   [cp for cp, _ in astral], 10, hex4, static=False)
        + emit_array("uint16_t", "wenc_big5_astral_pointers",
                     [p for _, p in astral], 12, static=False)
        + "const size_t wenc_big5_astral_count = %d;\n" % len(astral)))
    return "".join(out)


def gen_japanese(src):
    jis0208, meta0208 = src.index("jis0208")
    jis0212, meta0212 = src.index("jis0212")
    katakana, metakana = src.index("iso-2022-jp-katakana")
    euc = first_pointers(jis0208)
    if any(p >= 8836 for p in euc.values()):
        raise DataError("index jis0208: an index pointer is 8836 or more")
    sjis = first_pointers(jis0208, skip=lambda p: 8272 <= p <= 8835)
    out = [header([meta0208, meta0212, metakana])]
    out.append(emit_index("jis0208", jis0208, max(jis0208) + 1))
    out.append("\n")
    out.append(emit_index("jis0212", jis0212, max(jis0212) + 1))
    out.append("\n")
    out.append(emit_index("iso_2022_jp_katakana", katakana, max(katakana) + 1))
    # §12.1.2 EUC-JP encoder: U+00A5 and U+203E, the half-width katakana,
    # U+2212 as U+FF0D, then the index jis0208 pointer's lead and trail.
    euc_jp = {cp: two_bytes(p // 94 + 0xA1, p % 94 + 0xA1)
              for cp, p in euc.items()}
    if 0xFF0D not in euc_jp:
        raise DataError("index jis0208: no pointer for U+FF0D")
    euc_jp[0x2212] = euc_jp[0xFF0D]
    euc_jp[0xA5] = 0x5C
    euc_jp[0x203E] = 0x7E
    for cp in range(0xFF61, 0xFFA0):
        euc_jp[cp] = two_bytes(0x8E, cp - 0xFF61 + 0xA1)
    # §12.3.2 Shift_JIS encoder: U+0080, U+00A5, U+203E, the half-width
    # katakana, U+2212 as U+FF0D, then the index Shift_JIS pointer's.
    shift_jis = {}
    for cp, p in sjis.items():
        lead, trail = p // 188, p % 188
        shift_jis[cp] = two_bytes(lead + (0x81 if lead < 0x1F else 0xC1),
                                  trail + (0x40 if trail < 0x3F else 0x41))
    if 0xFF0D not in shift_jis:
        raise DataError("index jis0208: no Shift_JIS pointer for U+FF0D")
    shift_jis[0x2212] = shift_jis[0xFF0D]
    shift_jis[0x80] = 0x80
    shift_jis[0xA5] = 0x5C
    shift_jis[0x203E] = 0x7E
    for cp in range(0xFF61, 0xFFA0):
        shift_jis[cp] = cp - 0xFF61 + 0xA1
    out.append("\n/* Encoders: the bytes EUC-JP writes for each code point (two\n"
               " * bytes from 0xA1A1 on are an index jis0208 pointer's, which\n"
               " * ISO-2022-JP writes less 0x8080), and those Shift_JIS writes. */\n")
    out.append(emit_byte_maps([("euc_jp", euc_jp), ("shift_jis", shift_jis)]))
    return "".join(out)


def gen_euc_kr(src):
    table, meta = src.index("euc-kr")
    out = [header([meta])]
    out.append(emit_index("euc_kr", table, max(table) + 1))
    out.append("\n")
    # §13.1.2 EUC-KR encoder: the index pointer's lead and trail.
    euc_kr = {cp: two_bytes(p // 190 + 0x81, p % 190 + 0x41)
              for cp, p in first_pointers(table).items()}
    out.append(emit_byte_maps([("euc_kr", euc_kr)]))
    return "".join(out)


def utf8_pack_masks():
    """For the UTF-8 encoder's SIMD kernel, per key (bit i: unit i of four is
    >= 0x80, bit 4 + i: it is >= 0x800), the PSHUFB mask that packs the
    four units' UTF-8 bytes, each unit's held from the start of a 4-byte
    slot, and how many bytes that makes. Keys where a unit is >= 0x800 but
    not >= 0x80 never occur; they are filled by the same rule."""
    masks, lengths = [], []
    for key in range(256):
        mask = []
        for unit in range(4):
            length = 1 + (key >> unit & 1) + (key >> (4 + unit) & 1)
            mask += [4 * unit + k for k in range(length)]
        lengths.append(len(mask))
        masks.append(mask + [0x80] * (16 - len(mask)))
    return masks, lengths


def gen_utf8_pack(src):
    del src  # computed, not read from the Standard's data
    masks, lengths = utf8_pack_masks()
    out = [GENERATED_LINE + "\n",
           emit_comment([
               "Shuffle masks for the UTF-8 encoder's SIMD kernel",
               "(src/codecs/utf8.c): computed by the generator, from no data",
               "file. Row k packs four units whose UTF-8 bytes each start a",
               "4-byte slot; bit i of k says unit i is >= 0x80, bit 4 + i that",
               "it is >= 0x800; 0x80 clears a byte past the packed ones.",
           ]),
           '#include "../internal.h"\n\n',
           "const uint8_t wenc_utf8_pack_shuffle[256][16] = {\n"]
    for key, mask in enumerate(masks):
        out.append("    /* 0x%02X */ {%s},\n"
                   % (key, ", ".join("0x%02X" % b for b in mask)))
    out.append("};\n\n")
    out.append(emit_array("uint8_t", "wenc_utf8_pack_length", lengths,
                          per_line=16, static=False, size="256",
                          label=byte_label))
    return "".join(out)


# The UTF-8 validator's automaton (§8.1.1), for the scalar loop in
# src/simd/utf8_validate.c. A state is a bit offset; in a transition word
# the six bits at a state's offset hold the state after the byte (or bytes).
UTF8_DFA_STATES = ("reject", "accept", "need1", "need2", "need3",
                   "after_e0", "after_ed", "after_f0", "after_f4")


def utf8_dfa_next(state, byte):
    """The §8.1.1 decoder's step as a validity automaton: the state after
    `byte` in `state` (names from UTF8_DFA_STATES)."""
    if state == "reject":
        return "reject"
    if state == "accept":
        for lower, upper, then in ((0x00, 0x7F, "accept"), (0xC2, 0xDF, "need1"),
                                   (0xE0, 0xE0, "after_e0"), (0xE1, 0xEC, "need2"),
                                   (0xED, 0xED, "after_ed"), (0xEE, 0xEF, "need2"),
                                   (0xF0, 0xF0, "after_f0"), (0xF1, 0xF3, "need3"),
                                   (0xF4, 0xF4, "after_f4")):
            if lower <= byte <= upper:
                return then
        return "reject"
    lower, upper, then = {
        "need1": (0x80, 0xBF, "accept"), "need2": (0x80, 0xBF, "need1"),
        "need3": (0x80, 0xBF, "need2"), "after_e0": (0xA0, 0xBF, "need1"),
        "after_ed": (0x80, 0x9F, "need1"), "after_f0": (0x90, 0xBF, "need2"),
        "after_f4": (0x80, 0x8F, "need2")}[state]
    return then if lower <= byte <= upper else "reject"


def utf8_dfa_tables():
    """Byte classes (bytes with the same transitions), and per triple of
    classes the transition word of three steps: for bytes a, b, c at index
    first[a] + second[b] + third[c]."""
    offset = {name: 6 * k for k, name in enumerate(UTF8_DFA_STATES)}
    rows, classes = [], []
    for byte in range(256):
        row = tuple(utf8_dfa_next(state, byte) for state in UTF8_DFA_STATES)
        if row not in rows:
            rows.append(row)
        classes.append(rows.index(row))
    count = len(rows)
    assert count == 12, "src/internal.h sizes wenc_utf8_dfa_triples for 12 classes"

    def step(state, cls):
        return rows[cls][UTF8_DFA_STATES.index(state)]

    triples = []
    for a in range(count):
        for b in range(count):
            for c in range(count):
                word = 0
                for state in UTF8_DFA_STATES:
                    after = step(step(step(state, a), b), c)
                    word |= offset[after] << offset[state]
                triples.append(word)
    return ([k * count * count for k in classes], [k * count for k in classes],
            classes, triples, offset)


def gen_utf8_dfa(src):
    del src  # computed, not read from the Standard's data
    first, second, third, triples, offset = utf8_dfa_tables()
    names = ["%s %d" % (name, offset[name]) for name in UTF8_DFA_STATES]
    out = [GENERATED_LINE + "\n",
           emit_comment([
               "The UTF-8 validator's automaton (§8.1.1) for the scalar loop",
               "(src/simd/utf8_validate.c): computed by the generator, from no",
               "data file. A state is a bit offset: " + ", ".join(names[:3]) + ",",
               ", ".join(names[3:]) + ".",
               "The bytes fall in 12 classes (bytes with the same transitions);",
               "for bytes a, b, c the state after all three, from state s, is",
               "wenc_utf8_dfa_triples[wenc_utf8_dfa_first[a] +",
               "wenc_utf8_dfa_second[b] + wenc_utf8_dfa_third[c]] >> s & 63.",
           ]),
           '#include "../internal.h"\n\n']
    for ctype, name, values in (("uint16_t", "wenc_utf8_dfa_first", first),
                                ("uint8_t", "wenc_utf8_dfa_second", second),
                                ("uint8_t", "wenc_utf8_dfa_third", third)):
        out.append(emit_array(ctype, name, values, per_line=16, static=False,
                              size="256", label=byte_label))
        out.append("\n")
    out.append("const uint64_t wenc_utf8_dfa_triples[%d] = {\n" % len(triples))
    for k in range(0, len(triples), 3):
        out.append("    " + " ".join("UINT64_C(0x%014X)," % w
                                     for w in triples[k:k + 3]) + "\n")
    out.append("};\n")
    return "".join(out)

def emit_shuffle_table(name, comment, rows):
    """A generated file holding one table of 256 PSHUFB masks."""
    out = [GENERATED_LINE + "\n", emit_comment(comment),
           '#include "../internal.h"\n\n',
           "const uint8_t %s[256][16] = {\n" % name]
    for key, mask in enumerate(rows):
        mask = mask + [0x80] * (16 - len(mask))
        out.append("    /* 0x%02X */ {%s},\n"
                   % (key, ", ".join("0x%02X" % b for b in mask)))
    out.append("};\n")
    return "".join(out)


def gen_compact16(src):
    del src  # computed, not read from the Standard's data
    rows = [[b for lane in range(8) if key >> lane & 1
             for b in (2 * lane, 2 * lane + 1)] for key in range(256)]
    return emit_shuffle_table("wenc_compact16_shuffle", [
        "Shuffle masks that pack 16-bit lanes (the two-byte decoders'",
        "AVX2 path, src/simd/double_byte.c): computed by the generator,",
        "from no data file. Row k moves the lanes i of eight whose bit",
        "i of k is set to the front, in order; 0x80 clears the bytes",
        "past them.",
    ], rows)


def gen_compact8(src):
    del src  # computed, not read from the Standard's data
    out = [GENERATED_LINE + "\n", emit_comment([
        "Shuffle masks that pack bytes (the single-byte encoders' AVX2",
        "and NEON paths over UTF-8, src/codecs/single_byte.c): computed",
        "by the generator, from no data file. Row k moves the bytes i of",
        "eight whose bit i of k is set to the front, in order; 0x80",
        "clears the bytes past them.",
    ]), '#include "../internal.h"\n\n',
        "const uint8_t wenc_compact8_shuffle[256][8] = {\n"]
    for key in range(256):
        mask = [i for i in range(8) if key >> i & 1]
        mask += [0x80] * (8 - len(mask))
        out.append("    /* 0x%02X */ {%s},\n"
                   % (key, ", ".join("0x%02X" % b for b in mask)))
    out.append("};\n")
    return "".join(out)


def gen_one_or_two(src):
    del src  # computed, not read from the Standard's data
    rows = [[b for lane in range(8)
             for b in ([2 * lane, 2 * lane + 1] if key >> lane & 1
                       else [2 * lane])] for key in range(256)]
    return emit_shuffle_table("wenc_one_or_two_shuffle", [
        "Shuffle masks that keep one or two bytes of each 16-bit lane",
        "(the byte-map encoders' AVX2 path, src/simd/byte_map.c):",
        "computed by the generator, from no data file. Row k keeps the",
        "first byte of each of eight lanes, and its second where bit i",
        "of k is set, in order; 0x80 clears the bytes past them.",
    ], rows)


# ---- driver ------------------------------------------------------------------------

GENERATORS = (
    ("labels.c", gen_labels),
    ("single_byte.c", gen_single_byte),
    ("gb18030.c", gen_gb18030),
    ("big5.c", gen_big5),
    ("japanese.c", gen_japanese),
    ("euc_kr.c", gen_euc_kr),
    ("utf8_pack.c", gen_utf8_pack),
    ("utf8_dfa.c", gen_utf8_dfa),
    ("compact16.c", gen_compact16),
    ("compact8.c", gen_compact8),
    ("one_or_two.c", gen_one_or_two),
)


def generate(data_dir):
    src = Source(data_dir)
    files = {}
    for name, gen in GENERATORS:
        text = gen(src)
        if any(line != line.rstrip() for line in text.split("\n")):
            raise DataError("%s: trailing whitespace in the output" % name)
        files[name] = text
    return files


def write_all(files, out_dir):
    """Writes each file, leaving files whose content is unchanged untouched."""
    os.makedirs(out_dir, exist_ok=True)
    written = 0
    for name in sorted(files):
        data = files[name].encode("utf-8")
        path = os.path.join(out_dir, name)
        try:
            with open(path, "rb") as f:
                if f.read() == data:
                    continue
        except FileNotFoundError:
            pass
        with open(path, "wb") as f:
            f.write(data)
        written += 1
    return written


def first_difference(a, b):
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb), 1):
        if x != y:
            return i
    return min(len(la), len(lb)) + 1


def check(files, committed_dir):
    shown = os.path.relpath(committed_dir)
    with tempfile.TemporaryDirectory() as tmp:
        write_all(files, tmp)
        present = set()
        if os.path.isdir(committed_dir):
            present = {n for n in os.listdir(committed_dir)
                       if not n.startswith(".")
                       and os.path.isfile(os.path.join(committed_dir, n))}
        problems = []
        for name in sorted(set(files) - present):
            problems.append("missing: %s" % os.path.join(shown, name))
        for name in sorted(present - set(files)):
            problems.append("extra (not generated): %s" % os.path.join(shown, name))
        for name in sorted(set(files) & present):
            with open(os.path.join(tmp, name), "rb") as f:
                fresh = f.read()
            with open(os.path.join(committed_dir, name), "rb") as f:
                old = f.read()
            if fresh != old:
                problems.append("differs: %s (first at line %d)"
                                % (os.path.join(shown, name), first_difference(fresh, old)))
    for p in problems:
        print(p)
    if problems:
        print("tables out of date: run python3 tools/gen_tables.py")
        return 1
    print("tables up to date (%d files)" % len(files))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Generate src/tables/*.c from the WHATWG Encoding Standard's data.")
    ap.add_argument("--data", default=os.environ.get("WENC_DATA_DIR") or DEFAULT_DATA,
                    help="data directory (default: $WENC_DATA_DIR or ../shared/whatwg "
                         "beside the repository)")
    ap.add_argument("--out", default=DEFAULT_OUT,
                    help="output directory (default: src/tables in the repository)")
    ap.add_argument("--check", action="store_true",
                    help="compare the output with the files in --out instead of "
                         "writing; exit 1 on any difference")
    args = ap.parse_args(argv)
    try:
        files = generate(args.data)
    except (OSError, DataError) as err:
        print("gen_tables.py: error: %s" % err, file=sys.stderr)
        return 2
    if args.check:
        return check(files, args.out)
    written = write_all(files, args.out)
    print("%d files generated in %s (%d changed)" % (len(files), args.out, written))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The WHATWG Encoding Standard for Python, on libwenc (C11).

Every encoding and label of the Standard, byte for byte as browsers decode
and encode:

    >>> import wenc
    >>> wenc.decode(b"\\x82\\xa0", "shift_jis")
    'あ'
    >>> wenc.encode("€ and ☃", "windows-1252")
    b'\\x80 and &#9731;'

`register()` adds the codecs "whatwg:LABEL" to Python's codec machinery
(bytes.decode, str.encode, codecs, open()).
"""

import codecs as _codecs
import re as _re
from typing import NamedTuple as _NamedTuple

from ._wenc import (
    LIBRARY_VERSION,
    CodecFunction as _CodecFunction,
    DecodeError,
    Decoder,
    EncodeError,
    Encoder,
    TextDecoder,
    bom_sniff,
    decode,
    decode_with_encoding,
    encode,
    encode_into as _encode_into,
    labels,
    lookup,
    output_encoding,
    sniff_html as _sniff_html,
    sniff_xml_encoding as _sniff_xml_encoding,
)

__version__ = "0.1.0"

__all__ = [
    "LIBRARY_VERSION", "DecodeError", "Decoder", "EncodeError", "EncodeIntoResult",
    "Encoder", "SniffResult", "TextDecoder", "TextEncoder", "bom_sniff",
    "content_type_charset", "decode", "decode_with_encoding", "encode", "get_encoding",
    "get_output_encoding", "html_to_unicode", "labels", "lookup", "output_encoding",
    "register", "sniff_html", "sniff_xml_encoding", "utf8_decode",
    "utf8_decode_without_bom", "utf8_decode_without_bom_or_fail", "utf8_encode",
]

# The Standard's hooks for other standards (§6, §6.1) under their own names.
# Its "decode" and "encode" are decode(data, label) and encode(text, label)
# with their default modes; "get an encoding" is lookup().

get_encoding = lookup
get_output_encoding = output_encoding


def utf8_decode(data) -> str:
    """UTF-8 decode: a leading UTF-8 BOM is removed, malformed input is U+FFFD."""
    return decode(data, "utf-8", bom="strip")


def utf8_decode_without_bom(data) -> str:
    """UTF-8 decode without BOM: a BOM decodes to U+FEFF."""
    return decode(data, "utf-8", bom="keep")


def utf8_decode_without_bom_or_fail(data) -> str:
    """UTF-8 decode without BOM or fail: the Standard's failure is DecodeError."""
    return decode(data, "utf-8", errors="fatal", bom="keep")


def utf8_encode(text: str) -> bytes:
    """UTF-8 encode (surrogate code points become U+FFFD)."""
    return encode(text, "utf-8")


class EncodeIntoResult(_NamedTuple):
    """What TextEncoder.encode_into() read (characters) and wrote (bytes)."""
    read: int
    written: int


class TextEncoder:
    """The Standard's TextEncoder (§7.4): str to UTF-8."""

    __slots__ = ()

    @property
    def encoding(self) -> str:
        """Always 'utf-8'."""
        return "utf-8"

    def encode(self, input: str = "") -> bytes:
        """The UTF-8 bytes of `input` (surrogate code points become U+FFFD)."""
        return encode(input, "utf-8")

    def encode_into(self, source: str, destination) -> EncodeIntoResult:
        """Writes as much of `source` as fits into the writable buffer
        `destination`, never part of a character. `read` counts characters of
        source (JavaScript counts UTF-16 code units)."""
        return EncodeIntoResult(*_encode_into(source, destination))


# ---- HTML and XML: which encoding a document is in ---------------------------


class SniffResult(_NamedTuple):
    """What sniff_html() or sniff_xml_encoding() found."""
    encoding: "str | None"  # the Standard's name; None: no XML declaration names one
    confidence: str         # "certain" (BOM, transport) or "tentative"
    source: str             # "bom", "transport", "utf-16-xml", "meta",
                            # "xml-declaration", "default" or "none"
    offset: int             # the bytes that decided: data[offset:offset + length]
    length: int             # (0, 0 for the transport label and the default)
    need_more: bool         # True: more bytes of the document may change the answer


def sniff_html(data, transport_label=None, default=None) -> SniffResult:
    """The HTML Standard's encoding sniffing algorithm over the first bytes
    of a document: a BOM, then `transport_label` (e.g. the charset of the
    Content-Type header; ignored when it is not a label), then the prescan
    of the first 1024 bytes for <meta charset>, <meta http-equiv=
    "content-type"> and an XML declaration, then `default` (a label; None
    is windows-1252, the HTML Standard's default for most locales). Decode
    the document with decode(data, result.encoding)."""
    return SniffResult(*_sniff_html(data, transport_label, default))


def sniff_xml_encoding(data) -> SniffResult:
    """The HTML Standard's "get an XML encoding": the encoding the
    <?xml ... encoding="..."?> declaration at the start of `data` names, as
    declared (a declared "utf-16" is UTF-16LE), or encoding None."""
    return SniffResult(*_sniff_xml_encoding(data))


_HTTP_WHITESPACE = " \t\r\n"
_TOKEN = _re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")


def _parse_mime_type(value):
    """The MIME Sniffing Standard's "parse a MIME type": (essence,
    parameters) or None."""
    value = value.strip(_HTTP_WHITESPACE)
    slash = value.find("/")
    if slash < 0:
        return None
    end = value.find(";", slash)
    end = len(value) if end < 0 else end
    kind, subtype = value[:slash], value[slash + 1:end].rstrip(_HTTP_WHITESPACE)
    if not _TOKEN.match(kind) or not _TOKEN.match(subtype):
        return None
    parameters = {}
    i = end
    while i < len(value):
        i += 1  # the ";"
        while i < len(value) and value[i] in _HTTP_WHITESPACE:
            i += 1
        j = i
        while j < len(value) and value[j] not in ";=":
            j += 1
        name = value[i:j].lower()
        i = j
        if i >= len(value) or value[i] == ";":
            continue
        i += 1  # the "="
        if i < len(value) and value[i] == '"':
            i += 1
            chars = []
            while i < len(value) and value[i] != '"':
                if value[i] == "\\" and i + 1 < len(value):
                    i += 1
                chars.append(value[i])
                i += 1
            parameter = "".join(chars)
            while i < len(value) and value[i] != ";":
                i += 1
        else:
            j = value.find(";", i)
            j = len(value) if j < 0 else j
            parameter = value[i:j].rstrip(_HTTP_WHITESPACE)
            i = j
            if not parameter:
                continue
        if name and _TOKEN.match(name) and name not in parameters:
            parameters[name] = parameter
    return (kind + "/" + subtype).lower(), parameters


def _split_header_values(header):
    """A header's values, split at commas outside quoted strings."""
    values, current, quoted, i = [], [], False, 0
    while i < len(header):
        c = header[i]
        if c == '"':
            quoted = not quoted
        elif c == "\\" and quoted and i + 1 < len(header):
            current.append(c)
            i += 1
            c = header[i]
        elif c == "," and not quoted:
            values.append("".join(current))
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    values.append("".join(current))
    return values


def content_type_charset(header) -> "str | None":
    """The charset of a Content-Type header value as the Fetch Standard's
    "extract a MIME type" and "legacy extract an encoding" read it: of the
    comma-separated MIME types, the last that parses (*/* aside) decides,
    and its charset parameter (kept from an earlier value of the same
    essence that had one), or None. The label is returned as written; it
    may not be a label at all (lookup() says)."""
    if header is None:
        return None
    if isinstance(header, (bytes, bytearray, memoryview)):
        header = bytes(header).decode("latin-1")
    charset = essence = None
    for value in _split_header_values(header):
        parsed = _parse_mime_type(value)
        if parsed is None or parsed[0] == "*/*":
            continue
        if parsed[0] != essence:
            charset = parsed[1].get("charset")
            essence = parsed[0]
        elif "charset" in parsed[1]:
            charset = parsed[1]["charset"]
    return charset


def html_to_unicode(content_type_header, body, default="windows-1252"):
    """Decodes an HTML document as a browser does, in one call: its
    encoding from a BOM, then the charset of `content_type_header` (a
    Content-Type value, str or bytes, or None), then the prescan of its
    first 1024 bytes (<meta> and XML declaration), then `default` (a label);
    then the Standard's decode with U+FFFD for malformed bytes. Returns
    (encoding name, text), as w3lib.encoding.html_to_unicode does, with the
    Standard's names ("windows-1252", "Shift_JIS")."""
    result = sniff_html(body, content_type_charset(content_type_header), default)
    return decode_with_encoding(body, result.encoding)


# ---- Python's codec machinery -----------------------------------------------

CODEC_PREFIX = "whatwg:"

# Python hands search functions the name lower-cased, with every run of
# characters other than letters, digits and "." turned into one "_"
# ("whatwg:ISO_8859-1:1987" arrives as "whatwg_iso_8859_1_1987").
_NOT_NAME = _re.compile(r"[^0-9a-z.]+")


def _normalized(name: str) -> str:
    return _NOT_NAME.sub("_", name.lower()).strip("_")


class _StreamReader(_codecs.StreamReader):
    """A StreamReader whose state is a wenc Decoder, so that a character
    split between reads is decoded whole."""

    label = "utf-8"

    def __init__(self, stream, errors="strict"):
        super().__init__(stream, errors)
        self._decoder = Decoder(self.label, errors)

    def decode(self, input, errors="strict"):
        return self._decoder.decode(input), len(input)

    def reset(self):
        super().reset()
        self._decoder.reset()


def _codec_info(label: str) -> _codecs.CodecInfo:
    name = lookup(label)
    codec_encode = _CodecFunction(label, True)
    codec_decode = _CodecFunction(label, False)

    class IncrementalDecoder(_codecs.IncrementalDecoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self._decoder = Decoder(label, errors)

        def decode(self, input, final=False):
            return self._decoder.decode(input, final)

        def reset(self):
            self._decoder.reset()

        # (bytes held back, an int for the rest): what io.TextIOWrapper's
        # tell() and seek() need, exact for every encoding.
        def getstate(self):
            return self._decoder.getstate()

        def setstate(self, state):
            self._decoder.setstate(state)

    class IncrementalEncoder(_codecs.IncrementalEncoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self._encoder = Encoder(label, errors)

        def encode(self, input, final=False):
            return self._encoder.encode(input, final)

        def reset(self):
            self._encoder.reset()

    class StreamWriter(_codecs.StreamWriter):
        """A StreamWriter whose state is a wenc Encoder: ISO-2022-JP's
        mode carries from one write() to the next, and reset() ends it
        (ESC ( B), as CPython's own iso2022 writers do."""

        def __init__(self, stream, errors="strict"):
            super().__init__(stream, errors)
            self._encoder = Encoder(label, errors)

        def encode(self, input, errors="strict"):
            return self._encoder.encode(input), len(input)

        def reset(self):
            final = self._encoder.encode("", True)
            if final:
                self.stream.write(final)

    if output_encoding(label) != name:
        # The Standard has no encoder for UTF-16BE, UTF-16LE and replacement:
        # its encoders write UTF-8 for them. A file or stream opened as
        # "whatwg:utf-16le" would then not read back, so the codec does not
        # encode at all.
        def refuse(*args, **kwargs):
            raise ValueError(
                f"whatwg:{label}: the Encoding Standard has no encoder for "
                f"{name} (its encoders write UTF-8 for it); encode with "
                f"'whatwg:utf-8', or wenc.encode(text, {label!r}) for the "
                f"Standard's UTF-8 output")
        codec_encode = refuse
        IncrementalEncoder = type("IncrementalEncoder", (_codecs.IncrementalEncoder,),
                                  {"encode": refuse})
        StreamWriter = type("StreamWriter", (_codecs.StreamWriter,), {"encode": refuse})

    return _codecs.CodecInfo(
        name=CODEC_PREFIX + name.lower(),
        encode=codec_encode,
        decode=codec_decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamreader=type("StreamReader", (_StreamReader,), {"label": label}),
        streamwriter=StreamWriter,
    )


_labels_by_normalized_name = None
_registered = False


def _search(name: str):
    global _labels_by_normalized_name
    if not name.startswith("whatwg_"):
        return None
    if _labels_by_normalized_name is None:
        _labels_by_normalized_name = {
            _normalized(label): label for label, _ in labels()}
    label = _labels_by_normalized_name.get(_normalized(name[len("whatwg_"):]))
    return _codec_info(label) if label else None


def register() -> None:
    """Makes "whatwg:LABEL" a Python codec for every label of the Standard:
    b.decode("whatwg:shift_jis"), codecs.getincrementaldecoder("whatwg:gbk"),
    open(path, encoding="whatwg:windows-1252"). Every error handler works
    with CPython's semantics: 'strict' (the default), 'replace' (U+FFFD when
    decoding, which is the Standard's replacement, '?' when encoding),
    'ignore', 'backslashreplace', 'xmlcharrefreplace' (the Standard's html
    mode), 'namereplace', 'surrogateescape', 'surrogatepass' (UTF-8 and
    UTF-16) and any name registered with codecs.register_error. Calling it
    again does nothing.

    Limits: a codec name is matched after Python's normalization, so
    "whatwg:utf_8" finds "utf-8". The codecs of UTF-16BE, UTF-16LE and
    replacement decode but refuse to encode (the Standard's encoders write
    UTF-8 for them). As with CPython's own iso2022 codecs, a file written
    through open() in ISO-2022-JP is not closed with ESC ( B; a codecs
    StreamWriter writes it at reset()."""
    global _registered
    if not _registered:
        _codecs.register(_search)
        _registered = True

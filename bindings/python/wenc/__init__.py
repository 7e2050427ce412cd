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
import io as _io
import re as _re
from typing import NamedTuple as _NamedTuple

from ._wenc import (
    LIBRARY_VERSION,
    DecodeError,
    Decoder,
    EncodeError,
    Encoder,
    TextDecoder,
    bom_sniff,
    decode,
    encode,
    encode_into as _encode_into,
    labels,
    lookup,
    output_encoding,
)

__version__ = "0.1.0"

__all__ = [
    "LIBRARY_VERSION", "DecodeError", "Decoder", "EncodeError", "EncodeIntoResult",
    "Encoder", "TextDecoder", "TextEncoder", "bom_sniff", "decode", "encode",
    "get_encoding", "get_output_encoding", "labels", "lookup", "output_encoding",
    "register", "utf8_decode", "utf8_decode_without_bom",
    "utf8_decode_without_bom_or_fail", "utf8_encode",
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


# ---- Python's codec machinery -----------------------------------------------

CODEC_PREFIX = "whatwg:"

# Python hands search functions the name lower-cased, with every run of
# characters other than letters, digits and "." turned into one "_"
# ("whatwg:ISO_8859-1:1987" arrives as "whatwg_iso_8859_1_1987").
_NOT_NAME = _re.compile(r"[^0-9a-z.]+")


def _normalized(name: str) -> str:
    return _NOT_NAME.sub("_", name.lower()).strip("_")


def _python_errors(errors: str, decoding: bool) -> str:
    """The wenc mode for a Python error handler name."""
    if errors in ("strict", "fatal"):
        return "fatal"
    if decoding and errors in ("replace", "replacement"):
        return "replacement"
    if not decoding and errors in ("xmlcharrefreplace", "html"):
        return "html"
    raise ValueError(
        f"the whatwg codecs take errors='strict' or "
        f"{'replace' if decoding else 'xmlcharrefreplace'!r}, not {errors!r}")


class _StreamReader(_codecs.StreamReader):
    """A StreamReader whose state is a wenc Decoder, so that a character
    split between reads is decoded whole."""

    label = "utf-8"

    def __init__(self, stream, errors="strict"):
        super().__init__(stream, errors)
        self._decoder = Decoder(self.label, _python_errors(errors, True))

    def decode(self, input, errors="strict"):
        return self._decoder.decode(input), len(input)

    def reset(self):
        super().reset()
        self._decoder.reset()


def _codec_info(label: str) -> _codecs.CodecInfo:
    name = lookup(label)

    def codec_encode(text, errors="strict"):
        return encode(text, label, errors=_python_errors(errors, False)), len(text)

    def codec_decode(data, errors="strict"):
        data = memoryview(data)
        return decode(data, label, errors=_python_errors(errors, True)), data.nbytes

    class IncrementalDecoder(_codecs.IncrementalDecoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self._decoder = Decoder(label, _python_errors(errors, True))

        def decode(self, input, final=False):
            return self._decoder.decode(input, final)

        def reset(self):
            self._decoder.reset()

        # getstate() is the base class's (b"", 0): libwenc does not hand out
        # the bytes a decoder holds back. That is exact for the encodings that
        # never hold any; for the others a text file's tell() and seek() (to
        # anything but 0), which restore a state through setstate(), would
        # give wrong positions and text, so setstate() refuses.
        def setstate(self, state):
            if name not in _STATELESS_DECODERS:
                raise _io.UnsupportedOperation(
                    "whatwg:%s: tell() and seek() of a text file need the "
                    "bytes the decoder holds back, which libwenc does not "
                    "give out; read it in order (seek(0) works)" % label)
            self._decoder.reset()
            if state[0]:
                self._decoder.decode(state[0])

    class IncrementalEncoder(_codecs.IncrementalEncoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self._encoder = Encoder(label, _python_errors(errors, False))

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
            self._encoder = Encoder(label, _python_errors(errors, False))

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


# The decoders that never hold bytes back or keep any state between calls:
# the single-byte encodings and x-user-defined.
_STATELESS_DECODERS = frozenset([
    "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
    "ISO-8859-7", "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-10", "ISO-8859-13",
    "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh",
    "windows-874", "windows-1250", "windows-1251", "windows-1252", "windows-1253",
    "windows-1254", "windows-1255", "windows-1256", "windows-1257", "windows-1258",
    "x-mac-cyrillic", "x-user-defined"])

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
    open(path, encoding="whatwg:windows-1252"). Python's error handler
    names map to the Standard's modes: 'strict' is fatal, 'replace' the
    decoders' replacement, 'xmlcharrefreplace' the encoders' html mode.
    Calling it again does nothing.

    Limits: a codec name is matched after Python's normalization, so
    "whatwg:utf_8" finds "utf-8". The codecs of UTF-16BE, UTF-16LE and
    replacement decode but refuse to encode (the Standard's encoders write
    UTF-8 for them). A text file opened with a whatwg codec reads and
    writes in order; its tell() and seek() to anything but 0 work only for
    the single-byte encodings and x-user-defined (io.UnsupportedOperation
    otherwise: libwenc does not give out the bytes a decoder holds back).
    As with CPython's own iso2022 codecs, a file written through open() in
    ISO-2022-JP is not closed with ESC ( B; a codecs StreamWriter writes it
    at reset()."""
    global _registered
    if not _registered:
        _codecs.register(_search)
        _registered = True

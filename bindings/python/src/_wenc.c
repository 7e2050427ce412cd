/*
 * wenc._wenc: the CPython extension under the wenc package. It reaches
 * libwenc through include/wenc.h only; wenc/__init__.py builds the public
 * API (codec registration, the Standard's hook names) on these types and
 * functions.
 *
 * Strings: decoders write UTF-16 into a scratch buffer, which becomes a str
 * of the narrowest kind its code points allow (CPython compares strs by kind,
 * so a str must be canonical). Encoders read a str's own buffer where its
 * kind is a form wenc reads (ASCII as UTF-8, UCS-2 without surrogates as
 * UTF-16) and a UTF-16 copy otherwise. A surrogate code point in a str is not
 * a scalar value and is read as U+FFFD, as the Standard converts a JavaScript
 * string's lone surrogates.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <wenc.h>

/* Inputs at least this long are converted with the GIL released. */
#define RELEASE_GIL_UNITS ((size_t)64 * 1024)

/* Code units of UTF-16 output kept on the stack for short inputs. */
#define STACK_UNITS 1024

static PyObject *DecodeError;
static PyObject *EncodeError;

/* ---- arguments ----------------------------------------------------------- */

/*
 * Fills values[0..count) from a vectorcall's arguments: the first
 * `positional` parameters may come by position, every one by keyword, the
 * first `required` must come. Missing ones stay NULL (borrowed references).
 */
static int parse_arguments(const char *function, PyObject *const *args,
                           Py_ssize_t nargs, PyObject *kwnames,
                           const char *const *names, int count,
                           int positional, int required, PyObject **values) {
    for (int i = 0; i < count; i++)
        values[i] = NULL;
    if (nargs > positional) {
        PyErr_Format(PyExc_TypeError,
                     "%s() takes at most %d positional argument%s (%zd given)",
                     function, positional, positional == 1 ? "" : "s", nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++)
        values[i] = args[i];
    Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < keywords; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int i = 0; i < count && found < 0; i++) {
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0)
                found = i;
        }
        if (found < 0) {
            PyErr_Format(PyExc_TypeError,
                         "%s() got an unexpected keyword argument '%U'",
                         function, key);
            return -1;
        }
        if (values[found]) {
            PyErr_Format(PyExc_TypeError,
                         "%s() got multiple values for argument '%s'",
                         function, names[found]);
            return -1;
        }
        values[found] = args[nargs + k];
    }
    for (int i = 0; i < required; i++) {
        if (!values[i]) {
            PyErr_Format(PyExc_TypeError,
                         "%s() missing required argument '%s'", function,
                         names[i]);
            return -1;
        }
    }
    return 0;
}

/* The encoding a label names (the Standard's "get an encoding"), or
 * WENC_INVALID with LookupError set. */
static wenc_id label_to_id(PyObject *label) {
    if (!PyUnicode_Check(label)) {
        PyErr_Format(PyExc_TypeError, "a label must be str, not %.100s",
                     Py_TYPE(label)->tp_name);
        return WENC_INVALID;
    }
    wenc_id id = WENC_INVALID;
    if (PyUnicode_IS_ASCII(label)) {
        id = wenc_lookup((const char *)PyUnicode_DATA(label),
                         (size_t)PyUnicode_GET_LENGTH(label));
    }
    if (id == WENC_INVALID)
        PyErr_Format(PyExc_LookupError, "unknown encoding label: %R", label);
    return id;
}

/* label_to_id() for a decoder or an encoder: also LookupError for an
 * encoding this libwenc was built without. */
static wenc_id label_to_codec(PyObject *label) {
    wenc_id id = label_to_id(label);
    if (id != WENC_INVALID && !wenc_is_built_in(id)) {
        PyErr_Format(PyExc_LookupError,
                     "encoding '%s' (label %R) is not built into this libwenc "
                     "(configured with -DWENC_CJK=OFF)", wenc_name(id), label);
        return WENC_INVALID;
    }
    return id;
}

/* Which of `words` (a NULL-terminated list) the str is; -1 with ValueError
 * set when none. */
static int choose_word(PyObject *value, const char *what,
                       const char *const *words, const char *expected) {
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be str, not %.100s", what,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    for (int i = 0; words[i]; i++) {
        if (PyUnicode_CompareWithASCIIString(value, words[i]) == 0)
            return i;
    }
    PyErr_Format(PyExc_ValueError, "%s must be %s, not %R", what, expected,
                 value);
    return -1;
}

/* errors=: the Standard's modes, "replacement" or "fatal" for a decoder,
 * "html" or "fatal" for an encoder, or Python's names for the same modes,
 * "replace" or "xmlcharrefreplace" and "strict". */
static int parse_errors(PyObject *value, bool decoding, wenc_error_mode *mode) {
    static const char *const decoder_words[] = {"replacement", "fatal", "replace",
                                                "strict", NULL};
    static const char *const encoder_words[] = {"html", "fatal", "xmlcharrefreplace",
                                                "strict", NULL};
    wenc_error_mode lenient = decoding ? WENC_ERRORS_REPLACEMENT : WENC_ERRORS_HTML;
    if (!value) {
        *mode = lenient;
        return 0;
    }
    int i = choose_word(value, "errors", decoding ? decoder_words : encoder_words,
                        decoding ? "'replacement' ('replace') or 'fatal' ('strict')"
                                 : "'html' ('xmlcharrefreplace') or 'fatal' ('strict')");
    if (i < 0)
        return -1;
    *mode = i % 2 == 0 ? lenient : WENC_ERRORS_FATAL;
    return 0;
}

static int parse_bom(PyObject *value, wenc_bom_mode *mode) {
    static const char *const words[] = {"sniff", "strip", "keep", NULL};
    if (!value) {
        *mode = WENC_BOM_SNIFF;
        return 0;
    }
    int i = choose_word(value, "bom", words, "'sniff', 'strip' or 'keep'");
    if (i < 0)
        return -1;
    *mode = (wenc_bom_mode)i;
    return 0;
}

static int parse_bool(PyObject *value, bool *out) {
    if (!value)
        return 0;
    int truth = PyObject_IsTrue(value);
    if (truth < 0)
        return -1;
    *out = truth != 0;
    return 0;
}

/*
 * A bytes-like object's bytes. A buffer that is not C-contiguous (a strided
 * memoryview) is copied into bytes first. Anything else is a TypeError.
 */
static int get_bytes(PyObject *object, Py_buffer *view) {
    if (PyObject_GetBuffer(object, view, PyBUF_SIMPLE) == 0)
        return 0;
    if (!PyObject_CheckBuffer(object)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                     Py_TYPE(object)->tp_name);
        return -1;
    }
    if (!PyErr_ExceptionMatches(PyExc_BufferError))
        return -1;
    PyErr_Clear();
    PyObject *copy = PyBytes_FromObject(object);
    if (!copy)
        return -1;
    int result = PyObject_GetBuffer(copy, view, PyBUF_SIMPLE);
    Py_DECREF(copy); /* the view holds its own reference */
    return result;
}

/* ---- UTF-16 to str ------------------------------------------------------- */

/* The str of decoded UTF-16 units, in a new object of its own kind. */
static PyObject *narrow_utf16(const uint16_t *units, size_t count, unsigned any_bits,
                              bool surrogates) {
    if (surrogates) {
        size_t pairs = 0;
        for (size_t i = 0; i < count; i++)
            pairs += (units[i] & 0xFC00u) == 0xDC00u;
        PyObject *text = PyUnicode_New((Py_ssize_t)(count - pairs), 0x10FFFF);
        if (!text)
            return NULL;
        Py_UCS4 *out = PyUnicode_4BYTE_DATA(text);
        for (size_t i = 0; i < count; i++) {
            Py_UCS4 unit = units[i];
            if ((unit & 0xFC00u) == 0xD800u) {
                unit = 0x10000u + ((unit - 0xD800u) << 10) + (units[i + 1] - 0xDC00u);
                i++;
            }
            *out++ = unit;
        }
        return text;
    }
    if (any_bits < 0x100u) {
        PyObject *text = PyUnicode_New((Py_ssize_t)count, any_bits < 0x80u ? 0x7F : 0xFF);
        if (!text)
            return NULL;
        Py_UCS1 *out = PyUnicode_1BYTE_DATA(text);
        for (size_t i = 0; i < count; i++)
            out[i] = (Py_UCS1)units[i];
        return text;
    }
    PyObject *text = PyUnicode_New((Py_ssize_t)count, 0xFFFF);
    if (!text)
        return NULL;
    memcpy(PyUnicode_2BYTE_DATA(text), units, count * sizeof(uint16_t));
    return text;
}

/*
 * A str of UTF-16 code units that a decoder wrote (so surrogates come only
 * in pairs), in the kind its largest code point needs: Latin-1 bytes, UCS-2
 * as it is, or UCS-4 with the pairs joined. `wide`, when not NULL, is the
 * fresh UCS-2 str the units were written into; its reference is taken over
 * (it becomes the result, cut to size, when UCS-2 is the kind).
 */
static PyObject *str_from_utf16(const uint16_t *units, size_t count, PyObject *wide) {
    unsigned any_bits = 0;
    unsigned surrogates = 0;
    for (size_t i = 0; i < count; i++) {
        any_bits |= units[i];
        surrogates |= (uint16_t)(units[i] - 0xD800u) < 0x800u;
    }
    if (wide && !surrogates && any_bits >= 0x100u) {
        if (PyUnicode_Resize(&wide, (Py_ssize_t)count) < 0)
            return NULL;
        return wide;
    }
    PyObject *text = narrow_utf16(units, count, any_bits, surrogates != 0);
    Py_XDECREF(wide);
    return text;
}

/*
 * Copies ASCII bytes to dst 32 at a time while they are ASCII; returns how
 * many it copied (len when all of src is ASCII).
 */
static size_t copy_ascii(uint8_t *dst, const uint8_t *src, size_t len) {
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        uint64_t words[4];
        memcpy(words, src + i, sizeof words);
        if ((words[0] | words[1] | words[2] | words[3]) & 0x8080808080808080u)
            return i;
        memcpy(dst + i, words, sizeof words);
    }
    for (; i < len; i++) {
        if (src[i] >= 0x80)
            return i;
        dst[i] = src[i];
    }
    return len;
}

/* The str of `len` bytes when they are all ASCII, else NULL with no
 * exception set (the caller decodes them instead). A non-ASCII byte in the
 * first 64 is found before anything is allocated. */
static PyObject *ascii_str(const uint8_t *src, size_t len, bool *failed) {
    uint8_t probe[64];
    size_t head = len < sizeof probe ? len : sizeof probe;
    *failed = false;
    if (copy_ascii(probe, src, head) != head)
        return NULL;
    PyObject *text = PyUnicode_New((Py_ssize_t)len, 0x7F);
    if (!text) {
        *failed = true;
        return NULL;
    }
    if (copy_ascii(PyUnicode_1BYTE_DATA(text), src, len) != len) {
        Py_DECREF(text);
        return NULL;
    }
    return text;
}

/* Encodings whose decoders give ASCII bytes back as they are from the start
 * of a stream, and whose encoders write ASCII as it is. */
static bool ascii_transparent(wenc_id id) {
    return id != WENC_UTF_16BE && id != WENC_UTF_16LE &&
           id != WENC_REPLACEMENT && id != WENC_ISO_2022_JP;
}

/* ---- errors -------------------------------------------------------------- */

/*
 * Raises DecodeError for the error a decoder just returned. `input` is what
 * this call read (`object` is it as a Python object, or NULL to make bytes of
 * it); `input_start` is the stream offset where it begins. When the
 * malformed bytes began in an earlier call, those bytes are put in front of
 * the input, so that `object[start:end]` is always the malformed sequence
 * and `object[end:]` what to continue with. `output` (the text decoded
 * before the error) is attached as the error's `output`.
 */
static void raise_decode_error(const wenc_decoder *dec, PyObject *object,
                               const uint8_t *input, size_t input_len,
                               uint64_t input_start, PyObject *output) {
    wenc_decode_error err;
    if (!wenc_decoder_error(dec, &err)) {
        PyErr_SetString(PyExc_SystemError, "wenc: no decoder error recorded");
        return;
    }
    size_t before = 0;
    if (err.offset < input_start) {
        uint64_t gap = input_start - err.offset;
        before = gap < err.length ? (size_t)gap : err.length;
    }
    PyObject *bytes;
    if (before == 0 && object && PyBytes_CheckExact(object)) {
        bytes = Py_NewRef(object);
    } else {
        bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(before + input_len));
        if (!bytes)
            return;
        char *data = PyBytes_AS_STRING(bytes);
        memcpy(data, err.bytes, before);
        if (input_len)
            memcpy(data + before, input, input_len);
    }
    /* When the malformed bytes came in an earlier call they lead the object
     * (before of them), and the input after them is this call's: the
     * decoder reads again, itself, what it held after them. */
    Py_ssize_t start = err.offset < input_start ? 0 : (Py_ssize_t)(err.offset - input_start);
    Py_ssize_t end = start + (Py_ssize_t)err.length;
    const char *name = wenc_name(wenc_decoder_encoding(dec));
    PyObject *error = PyObject_CallFunction(DecodeError, "sOnns", name, bytes,
                                            start, end, "malformed input");
    Py_DECREF(bytes);
    if (!error)
        return;
    PyObject *offset = PyLong_FromUnsignedLongLong(err.offset);
    if (!offset || PyObject_SetAttrString(error, "offset", offset) < 0 ||
        PyObject_SetAttrString(error, "output", output ? output : Py_None) < 0) {
        Py_XDECREF(offset);
        Py_DECREF(error);
        return;
    }
    Py_DECREF(offset);
    PyErr_SetObject(DecodeError, error);
    Py_DECREF(error);
}

/* ---- decoding ------------------------------------------------------------ */

/*
 * Decodes `len` bytes with `dec`; the str of the output, or NULL with an
 * exception (DecodeError in fatal mode). *consumed receives the bytes read.
 * On DecodeError, the error's `object` is built as raise_decode_error says.
 */
static PyObject *decode_chunk(wenc_decoder *dec, PyObject *object,
                              const uint8_t *src, size_t len, bool last,
                              uint64_t stream_start, size_t *consumed) {
    size_t capacity = wenc_decoder_max_utf16_len(dec, len);
    if (capacity == SIZE_MAX || capacity > (size_t)PY_SSIZE_T_MAX / 2)
        return PyErr_NoMemory();
    /* Long output is written straight into a UCS-2 str, which stays the
     * result when that is its canonical kind; short output goes to the
     * stack. */
    uint16_t stack[STACK_UNITS];
    uint16_t *units = stack;
    PyObject *wide = NULL;
    if (capacity > STACK_UNITS) {
        wide = PyUnicode_New((Py_ssize_t)capacity, 0xFFFF);
        if (!wide)
            return NULL;
        units = PyUnicode_2BYTE_DATA(wide);
    }
    size_t src_len = len, dst_len = capacity;
    wenc_status status;
    if (len >= RELEASE_GIL_UNITS) {
        Py_BEGIN_ALLOW_THREADS
        status = wenc_decode_to_utf16(dec, src, &src_len, units, &dst_len, last);
        Py_END_ALLOW_THREADS
    } else {
        status = wenc_decode_to_utf16(dec, src, &src_len, units, &dst_len, last);
    }
    *consumed = src_len;
    if (status == WENC_OUTPUT_FULL) {
        Py_XDECREF(wide);
        PyErr_SetString(PyExc_SystemError, "wenc: decoder output larger than its bound");
        return NULL;
    }
    PyObject *text = str_from_utf16(units, dst_len, wide);
    if (text && status == WENC_ERROR) {
        raise_decode_error(dec, object, src, len, stream_start, text);
        Py_CLEAR(text);
    }
    return text;
}

/* ---- str to code units ---------------------------------------------------- */

/* A str as wenc reads it: `utf8` (ASCII strs) or `utf16` code units. */
typedef struct text_units {
    const uint8_t *utf8;
    const uint16_t *utf16;
    size_t len;
    uint16_t *owned;  /* the UTF-16 copy on the heap, when one was made */
    bool astral;      /* the copy holds pairs: unit offsets are not indexes */
    uint16_t stack[STACK_UNITS]; /* the copy of a short str */
} text_units;

static bool is_surrogate(Py_UCS4 c) { return c - 0xD800u < 0x800u; }

static int text_units_init(text_units *t, PyObject *text) {
    t->utf8 = NULL;
    t->utf16 = NULL;
    t->owned = NULL;
    t->astral = false;
    size_t len = (size_t)PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (PyUnicode_IS_ASCII(text)) {
        t->utf8 = data;
        t->len = len;
        return 0;
    }
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *in = data;
        unsigned surrogates = 0;
        for (size_t i = 0; i < len; i++)
            surrogates |= is_surrogate(in[i]);
        if (!surrogates) {
            t->utf16 = in;
            t->len = len;
            return 0;
        }
    }
    size_t astral = 0;
    if (kind == PyUnicode_4BYTE_KIND) {
        const Py_UCS4 *in = data;
        for (size_t i = 0; i < len; i++)
            astral += in[i] > 0xFFFFu;
    }
    uint16_t *out = t->stack;
    if (len + astral > STACK_UNITS) {
        if (len + astral > (size_t)PY_SSIZE_T_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        out = t->owned = PyMem_RawMalloc((len + astral) * sizeof(uint16_t));
        if (!out) {
            PyErr_NoMemory();
            return -1;
        }
    }
    t->utf16 = out;
    t->len = len + astral;
    t->astral = astral != 0;
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *in = data;
        for (size_t i = 0; i < len; i++)
            out[i] = in[i];
    } else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *in = data;
        for (size_t i = 0; i < len; i++)
            out[i] = is_surrogate(in[i]) ? 0xFFFDu : in[i];
    } else {
        const Py_UCS4 *in = data;
        for (size_t i = 0; i < len; i++) {
            Py_UCS4 c = in[i];
            if (c > 0xFFFFu) {
                *out++ = (uint16_t)(0xD7C0u + (c >> 10));
                *out++ = (uint16_t)(0xDC00u + (c & 0x3FFu));
            } else {
                *out++ = is_surrogate(c) ? 0xFFFDu : (uint16_t)c;
            }
        }
    }
    return 0;
}

static void text_units_free(text_units *t) { PyMem_RawFree(t->owned); }

/* The index in the str of the code point at input unit `offset`. */
static Py_ssize_t text_units_index(const text_units *t, size_t offset) {
    if (!t->astral)
        return (Py_ssize_t)offset;
    size_t index = offset;
    for (size_t i = 0; i < offset; i++)
        index -= (t->utf16[i] & 0xFC00u) == 0xDC00u;
    return (Py_ssize_t)index;
}

/* ---- encoding ------------------------------------------------------------ */

static void raise_encode_error(const wenc_encoder *enc, PyObject *text,
                               const text_units *units, uint64_t unit_start,
                               PyObject *output) {
    wenc_encode_error err;
    if (!wenc_encoder_error(enc, &err)) {
        PyErr_SetString(PyExc_SystemError, "wenc: no encoder error recorded");
        return;
    }
    /* err.offset counts from init/reset; this call's units began at
     * unit_start. */
    Py_ssize_t start = text_units_index(units, (size_t)(err.offset - unit_start));
    const char *name = wenc_name(wenc_encoder_encoding(enc));
    PyObject *error = PyObject_CallFunction(
        EncodeError, "sOnns", name, text, start, start + 1,
        "code point not in the encoding");
    if (!error)
        return;
    PyObject *code_point = PyLong_FromUnsignedLong(err.code_point);
    if (!code_point || PyObject_SetAttrString(error, "code_point", code_point) < 0 ||
        PyObject_SetAttrString(error, "output", output) < 0) {
        Py_XDECREF(code_point);
        Py_DECREF(error);
        return;
    }
    Py_DECREF(code_point);
    PyErr_SetObject(EncodeError, error);
    Py_DECREF(error);
}

/*
 * Encodes a str with `enc`; bytes, or NULL with an exception (EncodeError in
 * fatal mode, the error's `output` being the bytes before it).
 * *unit_position is the encoder's input position, advanced by the call.
 */
static PyObject *encode_chunk(wenc_encoder *enc, PyObject *text, bool last,
                              uint64_t *unit_position) {
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected str, not %.100s",
                     Py_TYPE(text)->tp_name);
        return NULL;
    }
    text_units units;
    if (text_units_init(&units, text) < 0)
        return NULL;
    size_t capacity = wenc_encoder_max_len(enc, units.len);
    if (capacity == SIZE_MAX || capacity > (size_t)PY_SSIZE_T_MAX) {
        text_units_free(&units);
        return PyErr_NoMemory();
    }
    /* Short outputs go to the stack, then into bytes of their size. */
    uint8_t small[4 * STACK_UNITS];
    PyObject *out = NULL;
    uint8_t *dst = small;
    if (capacity > sizeof small) {
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)capacity);
        if (!out) {
            text_units_free(&units);
            return NULL;
        }
        dst = (uint8_t *)PyBytes_AS_STRING(out);
    }
    size_t src_len = units.len, dst_len = capacity;
    wenc_status status;
    PyThreadState *released = NULL;
    if (units.len >= RELEASE_GIL_UNITS)
        released = PyEval_SaveThread();
    if (units.utf8)
        status = wenc_encode_from_utf8(enc, units.utf8, &src_len, dst, &dst_len, last);
    else
        status = wenc_encode_from_utf16(enc, units.utf16, &src_len, dst, &dst_len, last);
    if (released)
        PyEval_RestoreThread(released);
    uint64_t start = *unit_position;
    *unit_position += src_len;
    if (status == WENC_OUTPUT_FULL) {
        PyErr_SetString(PyExc_SystemError, "wenc: encoder output larger than its bound");
        Py_CLEAR(out);
    } else {
        int resized = out ? _PyBytes_Resize(&out, (Py_ssize_t)dst_len)
                          : (out = PyBytes_FromStringAndSize((const char *)small,
                                                             (Py_ssize_t)dst_len)) ? 0 : -1;
        if (resized == 0 && status == WENC_ERROR) {
            raise_encode_error(enc, text, &units, start, out);
            Py_CLEAR(out);
        }
    }
    text_units_free(&units);
    return out;
}

/* ---- module functions ---------------------------------------------------- */

PyDoc_STRVAR(decode_doc,
"decode(data, label='utf-8', *, errors='replacement', bom='sniff') -> str\n\n"
"Decodes a bytes-like object with the encoding `label` names.\n"
"errors: 'replacement' (malformed input becomes U+FFFD) or 'fatal' (raise\n"
"DecodeError); bom: 'sniff' (a UTF-8 or UTF-16 BOM wins over the label and\n"
"is removed: the Standard's decode), 'strip' (the label's own BOM is\n"
"removed, for UTF-8 and UTF-16 only) or 'keep'.");

static PyObject *module_decode(PyObject *module, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"data", "label", "errors", "bom"};
    PyObject *values[4];
    (void)module;
    if (parse_arguments("decode", args, nargs, kwnames, names, 4, 2, 1, values) < 0)
        return NULL;
    wenc_id id = WENC_UTF_8;
    wenc_error_mode errors;
    wenc_bom_mode bom;
    if ((values[1] && (id = label_to_codec(values[1])) == WENC_INVALID) ||
        parse_errors(values[2], true, &errors) < 0 || parse_bom(values[3], &bom) < 0)
        return NULL;
    Py_buffer view;
    if (get_bytes(values[0], &view) < 0)
        return NULL;
    const uint8_t *src = view.buf;
    size_t len = (size_t)view.len;
    PyObject *text = NULL;
    bool failed = false;
    if (ascii_transparent(id))
        text = ascii_str(src, len, &failed);
    if (!text && !failed) {
        wenc_decoder dec;
        wenc_decoder_init(&dec, id, bom, errors);
        size_t consumed;
        text = decode_chunk(&dec, view.obj, src, len, true, 0, &consumed);
    }
    PyBuffer_Release(&view);
    return text;
}

/* UTF-8 of a short Latin-1 str, where setting up an encoder would cost
 * more than the conversion. */
static PyObject *latin1_to_utf8(const Py_UCS1 *in, size_t len) {
    size_t size = len;
    for (size_t i = 0; i < len; i++)
        size += in[i] >> 7;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out)
        return NULL;
    uint8_t *dst = (uint8_t *)PyBytes_AS_STRING(out);
    for (size_t i = 0; i < len; i++) {
        if (in[i] < 0x80) {
            *dst++ = in[i];
        } else {
            *dst++ = (uint8_t)(0xC0u | (in[i] >> 6));
            *dst++ = (uint8_t)(0x80u | (in[i] & 0x3Fu));
        }
    }
    return out;
}

PyDoc_STRVAR(encode_doc,
"encode(text, label, *, errors='html') -> bytes\n\n"
"Encodes a str in the output encoding of `label` (UTF-8 for replacement,\n"
"UTF-16BE and UTF-16LE). errors: 'html' (a code point the encoding lacks\n"
"becomes '&#N;') or 'fatal' (raise EncodeError). Surrogate code points are\n"
"read as U+FFFD.");

static PyObject *module_encode(PyObject *module, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"text", "label", "errors"};
    PyObject *values[3];
    (void)module;
    if (parse_arguments("encode", args, nargs, kwnames, names, 3, 2, 2, values) < 0)
        return NULL;
    wenc_id id;
    wenc_error_mode errors;
    if ((id = label_to_codec(values[1])) == WENC_INVALID ||
        parse_errors(values[2], false, &errors) < 0)
        return NULL;
    PyObject *text = values[0];
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "encode() argument 'text' must be str, not %.100s",
                     Py_TYPE(text)->tp_name);
        return NULL;
    }
    if (PyUnicode_IS_ASCII(text) && ascii_transparent(wenc_output_encoding(id)))
        return PyBytes_FromStringAndSize(PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text));
    if (PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND &&
        wenc_output_encoding(id) == WENC_UTF_8 && PyUnicode_GET_LENGTH(text) <= STACK_UNITS)
        return latin1_to_utf8(PyUnicode_1BYTE_DATA(text), (size_t)PyUnicode_GET_LENGTH(text));
    wenc_encoder enc;
    wenc_encoder_init(&enc, id, errors);
    uint64_t position = 0;
    return encode_chunk(&enc, text, true, &position);
}

PyDoc_STRVAR(encode_into_doc,
"encode_into(text, buffer) -> (read, written)\n\n"
"TextEncoder.encodeInto: writes as much of `text` as UTF-8 as fits in the\n"
"writable buffer, never part of a character. `read` counts characters of\n"
"text (code points; JavaScript counts UTF-16 code units), `written` bytes.");

static PyObject *module_encode_into(PyObject *module, PyObject *const *args,
                                    Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"text", "buffer"};
    PyObject *values[2];
    (void)module;
    if (parse_arguments("encode_into", args, nargs, kwnames, names, 2, 2, 2, values) < 0)
        return NULL;
    if (!PyUnicode_Check(values[0])) {
        PyErr_Format(PyExc_TypeError, "encode_into() argument 'text' must be str, not %.100s",
                     Py_TYPE(values[0])->tp_name);
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(values[1], &view, PyBUF_WRITABLE) < 0) {
        if (!PyObject_CheckBuffer(values[1]) || PyErr_ExceptionMatches(PyExc_BufferError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "encode_into() argument 'buffer' must be a writable "
                         "bytes-like object, not %.100s", Py_TYPE(values[1])->tp_name);
        }
        return NULL;
    }
    text_units units;
    if (text_units_init(&units, values[0]) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    size_t read = 0, written = 0;
    size_t capacity = (size_t)view.len;
    if (units.utf8) {
        read = written = units.len < capacity ? units.len : capacity;
        memcpy(view.buf, units.utf8, written);
    } else {
        wenc_text_encode_into(units.utf16, units.len, view.buf, capacity, &read, &written);
        read = (size_t)text_units_index(&units, read);
    }
    text_units_free(&units);
    PyBuffer_Release(&view);
    return Py_BuildValue("nn", (Py_ssize_t)read, (Py_ssize_t)written);
}

PyDoc_STRVAR(lookup_doc,
"lookup(label) -> str | None\n\n"
"The Standard's get an encoding: the name of the encoding `label` selects\n"
"(ASCII whitespace around it ignored, ASCII case-insensitive), or None.");

static PyObject *module_lookup(PyObject *module, PyObject *label) {
    (void)module;
    if (!PyUnicode_Check(label)) {
        PyErr_Format(PyExc_TypeError, "a label must be str, not %.100s",
                     Py_TYPE(label)->tp_name);
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(label))
        Py_RETURN_NONE;
    wenc_id id = wenc_lookup((const char *)PyUnicode_DATA(label),
                             (size_t)PyUnicode_GET_LENGTH(label));
    if (id == WENC_INVALID)
        Py_RETURN_NONE;
    return PyUnicode_FromString(wenc_name(id));
}

PyDoc_STRVAR(output_encoding_doc,
"output_encoding(label) -> str\n\n"
"The Standard's get an output encoding: the name of the encoding an encoder\n"
"for `label` writes (UTF-8 for replacement, UTF-16BE and UTF-16LE).\n"
"LookupError for a string that is not a label.");

static PyObject *module_output_encoding(PyObject *module, PyObject *label) {
    (void)module;
    wenc_id id = label_to_id(label);
    if (id == WENC_INVALID)
        return NULL;
    return PyUnicode_FromString(wenc_name(wenc_output_encoding(id)));
}

PyDoc_STRVAR(labels_doc,
"labels() -> list[tuple[str, str]]\n\n"
"The Standard's 228 labels, in the order of its table, each with the name of\n"
"its encoding.");

static PyObject *module_labels(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    size_t count = wenc_label_count();
    PyObject *list = PyList_New((Py_ssize_t)count);
    if (!list)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        wenc_id id;
        const char *label = wenc_label_at(i, &id);
        PyObject *pair = Py_BuildValue("ss", label, wenc_name(id));
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, pair);
    }
    return list;
}

PyDoc_STRVAR(bom_sniff_doc,
"bom_sniff(data) -> str | None\n\n"
"The Standard's BOM sniff: 'UTF-8', 'UTF-16BE' or 'UTF-16LE' when data\n"
"starts with that byte order mark, else None.");

static PyObject *module_bom_sniff(PyObject *module, PyObject *data) {
    (void)module;
    Py_buffer view;
    if (get_bytes(data, &view) < 0)
        return NULL;
    wenc_id id = wenc_bom_sniff(view.buf, (size_t)view.len, NULL);
    PyBuffer_Release(&view);
    if (id == WENC_INVALID)
        Py_RETURN_NONE;
    return PyUnicode_FromString(wenc_name(id));
}

/* ---- Decoder and TextDecoder ---------------------------------------------- */

/*
 * Both classes: a streaming wenc_decoder. TextDecoder adds the Standard's
 * §7.2 rules: the decoder is renewed by the first call after a call without
 * stream, and input left after a fatal error in a streaming call stays
 * queued in front of the next call's input.
 */
typedef struct decoder_object {
    PyObject_HEAD
    wenc_decoder decoder;
    uint64_t position;     /* stream bytes read since init/reset */
    PyObject *queued;      /* TextDecoder: bytes still in its I/O queue */
    wenc_id id;
    bool busy;             /* a call is running with the GIL released */
    bool fatal;
    bool ignore_bom;
    bool do_not_flush;
} decoder_object;

static void decoder_dealloc(decoder_object *self) {
    Py_XDECREF(self->queued);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *decoder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"label", "errors", "bom", NULL};
    PyObject *label, *errors_arg = NULL, *bom_arg = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|OO:Decoder", keywords,
                                     &label, &errors_arg, &bom_arg))
        return NULL;
    wenc_id id;
    wenc_error_mode errors;
    wenc_bom_mode bom;
    if ((id = label_to_codec(label)) == WENC_INVALID ||
        parse_errors(errors_arg, true, &errors) < 0 || parse_bom(bom_arg, &bom) < 0)
        return NULL;
    decoder_object *self = (decoder_object *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    wenc_decoder_init(&self->decoder, id, bom, errors);
    self->id = id;
    self->fatal = errors == WENC_ERRORS_FATAL;
    return (PyObject *)self;
}

static int decoder_enter(decoder_object *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the decoder is in use by another thread");
        return -1;
    }
    self->busy = true;
    return 0;
}

PyDoc_STRVAR(decoder_decode_doc,
"decode(data=b'', final=False) -> str\n\n"
"Decodes the next piece of a stream; bytes a character still needs wait for\n"
"the next call. With final=True the stream ends: what is held is flushed\n"
"(as U+FFFD, or DecodeError when fatal) and the decoder starts anew. A\n"
"DecodeError leaves the decoder usable: continue with error.object[error.end:].");

static PyObject *decoder_decode(decoder_object *self, PyObject *const *args,
                                Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"data", "final"};
    PyObject *values[2];
    bool final = false;
    if (parse_arguments("decode", args, nargs, kwnames, names, 2, 2, 0, values) < 0 ||
        parse_bool(values[1], &final) < 0)
        return NULL;
    Py_buffer view = {0};
    if (values[0] && get_bytes(values[0], &view) < 0)
        return NULL;
    PyObject *text = NULL;
    if (decoder_enter(self) == 0) {
        size_t consumed;
        text = decode_chunk(&self->decoder, view.obj, view.buf, (size_t)view.len,
                            final, self->position, &consumed);
        self->position += consumed;
        if (final && text) {
            wenc_decoder_reset(&self->decoder);
            self->position = 0;
        }
        self->busy = false;
    }
    PyBuffer_Release(&view);
    return text;
}

PyDoc_STRVAR(decoder_reset_doc, "reset()\n\nForgets the stream: the decoder starts anew.");

static PyObject *decoder_reset(decoder_object *self, PyObject *unused) {
    (void)unused;
    if (decoder_enter(self) < 0)
        return NULL;
    wenc_decoder_reset(&self->decoder);
    self->position = 0;
    Py_CLEAR(self->queued);
    self->do_not_flush = false;
    self->busy = false;
    Py_RETURN_NONE;
}

static PyObject *decoder_get_encoding(decoder_object *self, void *closure) {
    (void)closure;
    return PyUnicode_FromString(wenc_name(wenc_decoder_encoding(&self->decoder)));
}

static PyObject *decoder_get_fatal(decoder_object *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->fatal);
}

static PyMethodDef decoder_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))decoder_decode,
     METH_FASTCALL | METH_KEYWORDS, decoder_decode_doc},
    {"reset", (PyCFunction)decoder_reset, METH_NOARGS, decoder_reset_doc},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef decoder_getset[] = {
    {"encoding", (getter)decoder_get_encoding, NULL,
     "The name of the encoding being decoded (the one a BOM selected, once "
     "sniffed).", NULL},
    {"fatal", (getter)decoder_get_fatal, NULL, "True in fatal error mode.", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

PyDoc_STRVAR(decoder_doc,
"Decoder(label, errors='replacement', bom='sniff')\n\n"
"A streaming decoder for the encoding `label` names; errors and bom as for\n"
"wenc.decode().");

static PyTypeObject Decoder_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wenc.Decoder",
    .tp_basicsize = sizeof(decoder_object),
    .tp_dealloc = (destructor)decoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = decoder_doc,
    .tp_methods = decoder_methods,
    .tp_getset = decoder_getset,
    .tp_new = decoder_new,
};

static PyObject *text_decoder_new(PyTypeObject *type, PyObject *args,
                                  PyObject *kwargs) {
    static char *keywords[] = {"label", "fatal", "ignore_bom", NULL};
    PyObject *label = NULL;
    int fatal = 0, ignore_bom = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|U$pp:TextDecoder", keywords,
                                     &label, &fatal, &ignore_bom))
        return NULL;
    wenc_id id = WENC_UTF_8;
    if (label && (id = label_to_codec(label)) == WENC_INVALID)
        return NULL;
    if (id == WENC_REPLACEMENT) {
        PyErr_Format(PyExc_LookupError,
                     "%R is a label of the replacement encoding, which "
                     "TextDecoder refuses", label);
        return NULL;
    }
    decoder_object *self = (decoder_object *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    wenc_decoder_init(&self->decoder, id, ignore_bom ? WENC_BOM_KEEP : WENC_BOM_STRIP,
                      fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_REPLACEMENT);
    self->id = id;
    self->fatal = fatal;
    self->ignore_bom = ignore_bom;
    return (PyObject *)self;
}

PyDoc_STRVAR(text_decoder_decode_doc,
"decode(input=b'', *, stream=False) -> str\n\n"
"TextDecoder.decode (§7.2). With stream=True, bytes a character still needs\n"
"wait for the next call; the first call after one without stream starts a\n"
"new stream. Fatal errors raise DecodeError; in a streaming call, the input\n"
"after the malformed bytes stays queued for the next call.");

static PyObject *text_decoder_decode(decoder_object *self, PyObject *const *args,
                                     Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"input", "stream"};
    PyObject *values[2];
    bool stream = false;
    if (parse_arguments("decode", args, nargs, kwnames, names, 2, 1, 0, values) < 0 ||
        parse_bool(values[1], &stream) < 0)
        return NULL;
    Py_buffer view = {0};
    if (values[0] && values[0] != Py_None && get_bytes(values[0], &view) < 0)
        return NULL;
    if (decoder_enter(self) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    if (!self->do_not_flush) {
        wenc_decoder_reset(&self->decoder);
        self->position = 0;
        Py_CLEAR(self->queued);
    }
    self->do_not_flush = stream;
    /* The queued input goes first. */
    PyObject *joined = NULL;
    const uint8_t *src = view.buf;
    size_t len = (size_t)view.len;
    PyObject *text = NULL;
    if (self->queued) {
        Py_ssize_t queued_len = PyBytes_GET_SIZE(self->queued);
        joined = PyBytes_FromStringAndSize(NULL, queued_len + view.len);
        if (!joined)
            goto done;
        memcpy(PyBytes_AS_STRING(joined), PyBytes_AS_STRING(self->queued), (size_t)queued_len);
        if (view.len)
            memcpy(PyBytes_AS_STRING(joined) + queued_len, view.buf, (size_t)view.len);
        Py_CLEAR(self->queued);
        src = (const uint8_t *)PyBytes_AS_STRING(joined);
        len = (size_t)PyBytes_GET_SIZE(joined);
    }
    size_t consumed;
    text = decode_chunk(&self->decoder, joined ? joined : view.obj, src, len,
                        !stream, self->position, &consumed);
    self->position += consumed;
    if (!text && stream && consumed < len && PyErr_ExceptionMatches(DecodeError)) {
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        self->queued = PyBytes_FromStringAndSize((const char *)src + consumed,
                                                 (Py_ssize_t)(len - consumed));
        if (!self->queued)
            PyErr_Clear(); /* the DecodeError is the one to report */
        PyErr_Restore(type, value, traceback);
    }
done:
    self->busy = false;
    Py_XDECREF(joined);
    PyBuffer_Release(&view);
    return text;
}

static PyObject *text_decoder_get_encoding(decoder_object *self, void *closure) {
    (void)closure;
    const char *name = wenc_name(self->id);
    char lower[32];
    size_t n = strlen(name);
    if (n >= sizeof lower)
        n = sizeof lower - 1;
    for (size_t i = 0; i < n; i++)
        lower[i] = (name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] + 32) : name[i];
    return PyUnicode_FromStringAndSize(lower, (Py_ssize_t)n);
}

static PyObject *text_decoder_get_ignore_bom(decoder_object *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->ignore_bom);
}

static PyMethodDef text_decoder_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))text_decoder_decode,
     METH_FASTCALL | METH_KEYWORDS, text_decoder_decode_doc},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef text_decoder_getset[] = {
    {"encoding", (getter)text_decoder_get_encoding, NULL,
     "The encoding's name in ASCII lower case ('utf-8', 'shift_jis').", NULL},
    {"fatal", (getter)decoder_get_fatal, NULL, "The fatal flag.", NULL},
    {"ignore_bom", (getter)text_decoder_get_ignore_bom, NULL,
     "The ignoreBOM flag.", NULL},
    {"ignoreBOM", (getter)text_decoder_get_ignore_bom, NULL,
     "The ignoreBOM flag (the Standard's spelling).", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

PyDoc_STRVAR(text_decoder_doc,
"TextDecoder(label='utf-8', *, fatal=False, ignore_bom=False)\n\n"
"The Standard's TextDecoder (§7.2). A label of replacement, or a string that\n"
"is not a label, raises LookupError (the Standard's RangeError).");

static PyTypeObject TextDecoder_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wenc.TextDecoder",
    .tp_basicsize = sizeof(decoder_object),
    .tp_dealloc = (destructor)decoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = text_decoder_doc,
    .tp_methods = text_decoder_methods,
    .tp_getset = text_decoder_getset,
    .tp_new = text_decoder_new,
};

/* ---- Encoder -------------------------------------------------------------- */

typedef struct encoder_object {
    PyObject_HEAD
    wenc_encoder encoder;
    uint64_t position;   /* input units read since init/reset */
    bool busy;
} encoder_object;

static PyObject *encoder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"label", "errors", NULL};
    PyObject *label, *errors_arg = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|O:Encoder", keywords,
                                     &label, &errors_arg))
        return NULL;
    wenc_id id;
    wenc_error_mode errors;
    if ((id = label_to_codec(label)) == WENC_INVALID ||
        parse_errors(errors_arg, false, &errors) < 0)
        return NULL;
    encoder_object *self = (encoder_object *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    wenc_encoder_init(&self->encoder, id, errors);
    return (PyObject *)self;
}

PyDoc_STRVAR(encoder_encode_doc,
"encode(text='', final=False) -> bytes\n\n"
"Encodes the next piece of a stream, keeping the encoder's state\n"
"(ISO-2022-JP's); final=True ends the stream (ISO-2022-JP returns to ASCII)\n"
"and the encoder starts anew. In fatal mode EncodeError names the code\n"
"point; its `output` holds the bytes before it, and the encoder, with its\n"
"state, continues with the next call (the Standard's encode or fail).");

static PyObject *encoder_encode(encoder_object *self, PyObject *const *args,
                                Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"text", "final"};
    PyObject *values[2];
    bool final = false;
    if (parse_arguments("encode", args, nargs, kwnames, names, 2, 2, 0, values) < 0 ||
        parse_bool(values[1], &final) < 0)
        return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the encoder is in use by another thread");
        return NULL;
    }
    self->busy = true;
    PyObject *empty = NULL;
    PyObject *text = values[0];
    if (!text)
        text = empty = PyUnicode_New(0, 0);
    PyObject *out = text ? encode_chunk(&self->encoder, text, final, &self->position) : NULL;
    if (out && final) {
        wenc_encoder_reset(&self->encoder);
        self->position = 0;
    }
    Py_XDECREF(empty);
    self->busy = false;
    return out;
}

PyDoc_STRVAR(encoder_reset_doc, "reset()\n\nForgets the stream: the encoder starts anew.");

static PyObject *encoder_reset(encoder_object *self, PyObject *unused) {
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the encoder is in use by another thread");
        return NULL;
    }
    wenc_encoder_reset(&self->encoder);
    self->position = 0;
    Py_RETURN_NONE;
}

static PyObject *encoder_get_encoding(encoder_object *self, void *closure) {
    (void)closure;
    return PyUnicode_FromString(wenc_name(wenc_encoder_encoding(&self->encoder)));
}

static PyMethodDef encoder_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))encoder_encode,
     METH_FASTCALL | METH_KEYWORDS, encoder_encode_doc},
    {"reset", (PyCFunction)encoder_reset, METH_NOARGS, encoder_reset_doc},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef encoder_getset[] = {
    {"encoding", (getter)encoder_get_encoding, NULL,
     "The name of the encoding written (the output encoding).", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

PyDoc_STRVAR(encoder_doc,
"Encoder(label, errors='html')\n\n"
"A streaming encoder (the Standard's get an encoder) for the output encoding\n"
"of `label`; errors as for wenc.encode().");

static PyTypeObject Encoder_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wenc.Encoder",
    .tp_basicsize = sizeof(encoder_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = encoder_doc,
    .tp_methods = encoder_methods,
    .tp_getset = encoder_getset,
    .tp_new = encoder_new,
};

/* ---- module ---------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))module_decode,
     METH_FASTCALL | METH_KEYWORDS, decode_doc},
    {"encode", (PyCFunction)(void (*)(void))module_encode,
     METH_FASTCALL | METH_KEYWORDS, encode_doc},
    {"encode_into", (PyCFunction)(void (*)(void))module_encode_into,
     METH_FASTCALL | METH_KEYWORDS, encode_into_doc},
    {"lookup", module_lookup, METH_O, lookup_doc},
    {"output_encoding", module_output_encoding, METH_O, output_encoding_doc},
    {"labels", module_labels, METH_NOARGS, labels_doc},
    {"bom_sniff", module_bom_sniff, METH_O, bom_sniff_doc},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "wenc._wenc",
    .m_doc = "libwenc's decoders and encoders for the wenc package.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__wenc(void);

PyMODINIT_FUNC PyInit__wenc(void) {
    PyObject *module = PyModule_Create(&module_def);
    if (!module)
        return NULL;
    DecodeError = PyErr_NewExceptionWithDoc(
        "wenc.DecodeError",
        "Malformed input in fatal mode: a UnicodeDecodeError whose\n"
        "object[start:end] is the malformed sequence; `offset` is its offset in\n"
        "the stream and `output` the text decoded before it in that call.",
        PyExc_UnicodeDecodeError, NULL);
    EncodeError = PyErr_NewExceptionWithDoc(
        "wenc.EncodeError",
        "A code point the encoding cannot represent, in fatal mode: a\n"
        "UnicodeEncodeError with `code_point`, and `output`, the bytes encoded\n"
        "before it in that call.",
        PyExc_UnicodeEncodeError, NULL);
    PyTypeObject *types[] = {&Decoder_Type, &TextDecoder_Type, &Encoder_Type};
    const char *type_names[] = {"Decoder", "TextDecoder", "Encoder"};
    if (!DecodeError || !EncodeError ||
        PyModule_AddObjectRef(module, "DecodeError", DecodeError) < 0 ||
        PyModule_AddObjectRef(module, "EncodeError", EncodeError) < 0 ||
        PyModule_AddStringConstant(module, "LIBRARY_VERSION", wenc_version()) < 0)
        goto fail;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (PyType_Ready(types[i]) < 0 ||
            PyModule_AddObjectRef(module, type_names[i], (PyObject *)types[i]) < 0)
            goto fail;
    }
    return module;
fail:
    Py_CLEAR(DecodeError);
    Py_CLEAR(EncodeError);
    Py_DECREF(module);
    return NULL;
}

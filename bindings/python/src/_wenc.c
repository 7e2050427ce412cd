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

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif


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

/* ---- errors= ------------------------------------------------------------- */

/*
 * What errors= asks for. The Standard's modes (replacement, html, fatal) run
 * inside libwenc. Python's handlers run here, on a decoder or encoder in
 * fatal mode, one error at a time, with CPython's semantics: the handler
 * gets a UnicodeDecodeError or UnicodeEncodeError with start and end and
 * says what to put there and where to go on. The common handlers are done
 * here in C, exactly as CPython's own (Python/codecs.c) behave; any other
 * name is looked up with codecs.lookup_error() at the first error.
 */
typedef enum error_kind {
    ERRORS_REPLACEMENT,     /* decoding: U+FFFD (the Standard's; Python's 'replace') */
    ERRORS_HTML,            /* encoding: &#N; (the Standard's html mode) */
    ERRORS_FATAL,           /* DecodeError / EncodeError; a surrogate in a str is U+FFFD */
    ERRORS_STRICT,          /* encoding: EncodeError, a surrogate in a str is an error */
    ERRORS_IGNORE,
    ERRORS_REPLACE,         /* encoding: '?' */
    ERRORS_BACKSLASH,
    ERRORS_XMLCHARREF,      /* encoding: &#N;, a surrogate in a str is an error */
    ERRORS_SURROGATEESCAPE,
    ERRORS_SURROGATEPASS,
    ERRORS_CALLBACK         /* codecs.lookup_error(name) */
} error_kind;

typedef struct errors_policy {
    error_kind kind;
    PyObject *name;     /* the handler's name (a reference), for ERRORS_CALLBACK */
    PyObject *handler;  /* its function once looked up (a reference), or NULL */
} errors_policy;

#define NOT_THIS_WAY ((error_kind)-1)

static const struct {
    const char *name;
    error_kind decoding, encoding;
} ERROR_NAMES[] = {
    {"replacement", ERRORS_REPLACEMENT, NOT_THIS_WAY},
    {"html", NOT_THIS_WAY, ERRORS_HTML},
    {"fatal", ERRORS_FATAL, ERRORS_FATAL},
    {"strict", ERRORS_FATAL, ERRORS_STRICT},
    {"replace", ERRORS_REPLACEMENT, ERRORS_REPLACE},
    {"ignore", ERRORS_IGNORE, ERRORS_IGNORE},
    {"backslashreplace", ERRORS_BACKSLASH, ERRORS_BACKSLASH},
    {"xmlcharrefreplace", ERRORS_CALLBACK, ERRORS_XMLCHARREF},
    {"surrogateescape", ERRORS_SURROGATEESCAPE, ERRORS_SURROGATEESCAPE},
    {"surrogatepass", ERRORS_SURROGATEPASS, ERRORS_SURROGATEPASS},
};

static void errors_policy_clear(errors_policy *policy) {
    Py_CLEAR(policy->name);
    Py_CLEAR(policy->handler);
}

/*
 * errors=: a name (NULL for `fallback`). The Standard's mode of the other
 * direction ('html' to a decoder, 'replacement' to an encoder) is a
 * ValueError; a name that is neither a mode nor one of CPython's handlers
 * is looked up, as CPython does, only when an error needs it.
 */
static int parse_errors(PyObject *value, bool decoding, error_kind fallback,
                        errors_policy *policy) {
    policy->kind = fallback;
    policy->name = NULL;
    policy->handler = NULL;
    if (!value)
        return 0;
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "errors must be str, not %.100s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    for (size_t i = 0; i < sizeof ERROR_NAMES / sizeof ERROR_NAMES[0]; i++) {
        if (PyUnicode_CompareWithASCIIString(value, ERROR_NAMES[i].name) != 0)
            continue;
        error_kind kind = decoding ? ERROR_NAMES[i].decoding : ERROR_NAMES[i].encoding;
        if (kind == NOT_THIS_WAY) {
            PyErr_Format(PyExc_ValueError,
                         "errors=%R is the Standard's %s mode; %s", value,
                         decoding ? "encoder" : "decoder",
                         decoding ? "a decoder's are 'replacement' and 'fatal'"
                                  : "an encoder's are 'html' and 'fatal'");
            return -1;
        }
        policy->kind = kind;
        if (kind == ERRORS_CALLBACK)
            policy->name = Py_NewRef(value);
        return 0;
    }
    policy->kind = ERRORS_CALLBACK;
    policy->name = Py_NewRef(value);
    return 0;
}

/* The wenc mode a decoder or encoder runs in under `policy`. */
static wenc_error_mode library_mode(const errors_policy *policy) {
    switch (policy->kind) {
    case ERRORS_REPLACEMENT:
        return WENC_ERRORS_REPLACEMENT;
    case ERRORS_HTML:
    case ERRORS_XMLCHARREF:
        return WENC_ERRORS_HTML;
    default:
        return WENC_ERRORS_FATAL;
    }
}

/*
 * Calls the Python handler of ERRORS_CALLBACK with `error`; *replacement
 * gets what it returned to put in place (a str, or bytes when encoding) and
 * *position where to go on, made absolute in an object of `length` as
 * CPython does (a negative position counts from the end). 0, or -1 with an
 * exception.
 */
static int call_handler(errors_policy *policy, PyObject *error, bool decoding,
                        Py_ssize_t length, PyObject **replacement,
                        Py_ssize_t *position) {
    if (!policy->handler) {
        const char *name = PyUnicode_AsUTF8(policy->name);
        if (!name || !(policy->handler = PyCodec_LookupError(name)))
            return -1;
    }
    PyObject *result = PyObject_CallOneArg(policy->handler, error);
    if (!result)
        return -1;
    PyObject *text, *where;
    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) != 2 ||
        !(PyUnicode_Check(text = PyTuple_GET_ITEM(result, 0)) ||
          (!decoding && PyBytes_Check(text))) ||
        !PyIndex_Check(where = PyTuple_GET_ITEM(result, 1))) {
        PyErr_SetString(PyExc_TypeError,
                        decoding ? "decoding error handler must return (str, int) tuple"
                                 : "encoding error handler must return (str/bytes, int) tuple");
        Py_DECREF(result);
        return -1;
    }
    Py_ssize_t at = PyNumber_AsSsize_t(where, PyExc_IndexError);
    if (at == -1 && PyErr_Occurred()) {
        Py_DECREF(result);
        return -1;
    }
    if (at < 0)
        at += length;
    if (at < 0 || at > length) {
        PyErr_Format(PyExc_IndexError, "position %zd from error handler out of bounds", at);
        Py_DECREF(result);
        return -1;
    }
    *replacement = Py_NewRef(text);
    *position = at;
    Py_DECREF(result);
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

/* ---- fresh memory -------------------------------------------------------- */

/*
 * An output this large may be fresh memory (glibc maps allocations from
 * 128 KiB up, 32 MiB and up always, on their own), which the first writes
 * fault in a page at a time; on a virtual machine that costs more than the
 * conversion (32 MiB: 100 ms in 4 KiB pages, 2 ms in 2 MiB pages). Where the
 * kernel gives transparent huge pages on request, and the output's last
 * page is not yet in memory, they are requested. Memory the allocator kept
 * from earlier calls is in memory already: asking for huge pages there only
 * sets the kernel to merge pages in the background, which measured slower.
 */
#define HUGE_OUTPUT_BYTES ((size_t)4 << 20)

static void prefer_huge_pages(void *data, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size < HUGE_OUTPUT_BYTES)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    uintptr_t first = ((uintptr_t)data + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t end = ((uintptr_t)data + size) & ~((uintptr_t)page - 1);
    unsigned char resident = 1;
    if (end > first && mincore((void *)(end - (uintptr_t)page), (size_t)page, &resident) == 0 &&
        !(resident & 1))
        (void)madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
    (void)data;
    (void)size;
#endif
}

/* ---- UTF-16 to str ------------------------------------------------------- */

/*
 * A str written a piece of UTF-16 at a time, in the narrowest kind its code
 * points so far need (a str must be canonical): it starts in the kind of
 * the first piece, `capacity` code points long, and is copied into a wider
 * kind when a piece needs one.
 */
typedef struct str_writer {
    PyObject *text;
    size_t len, capacity;
    Py_UCS4 max;  /* 0x7F, 0xFF, 0xFFFF or 0x10FFFF: the kind of `text` */
} str_writer;

static int writer_widen(str_writer *w, Py_UCS4 max) {
    PyObject *wider = PyUnicode_New((Py_ssize_t)w->capacity, max);
    if (!wider)
        return -1;
    prefer_huge_pages(PyUnicode_DATA(wider), w->capacity * (size_t)PyUnicode_KIND(wider));
    if (w->text) {
        int from = PyUnicode_KIND(w->text), to = PyUnicode_KIND(wider);
        const void *in = PyUnicode_DATA(w->text);
        void *out = PyUnicode_DATA(wider);
        for (size_t i = 0; i < w->len; i++)
            PyUnicode_WRITE(to, out, i, PyUnicode_READ(from, in, i));
        Py_DECREF(w->text);
    }
    w->text = wider;
    w->max = max;
    return 0;
}

/* Appends `count` units a decoder wrote (surrogates only in pairs). */
static int writer_put(str_writer *w, const uint16_t *units, size_t count) {
    /* The usual case first: the piece fits the str's kind, and is copied as
     * it is checked, in one pass; otherwise it is written again below. */
    if (w->text && w->max <= 0xFF) {
        Py_UCS1 *out = PyUnicode_1BYTE_DATA(w->text) + w->len;
        uint16_t any_bits = 0; /* 16 bits: vectorised in 16-bit lanes */
        for (size_t i = 0; i < count; i++) {
            any_bits |= units[i];
            out[i] = (Py_UCS1)units[i];
        }
        if (any_bits <= w->max) {
            w->len += count;
            return 0;
        }
    } else if (w->text && w->max == 0xFFFF) {
        Py_UCS2 *out = PyUnicode_2BYTE_DATA(w->text) + w->len;
        uint16_t surrogates = 0;
        for (size_t i = 0; i < count; i++) {
            surrogates |= (uint16_t)((uint16_t)(units[i] - 0xD800u) < 0x800u);
            out[i] = units[i];
        }
        if (!surrogates) {
            w->len += count;
            return 0;
        }
    }
    uint16_t any_bits = 0, surrogates = 0;
    for (size_t i = 0; i < count; i++) {
        any_bits |= units[i];
        surrogates |= (uint16_t)((uint16_t)(units[i] - 0xD800u) < 0x800u);
    }
    Py_UCS4 max = surrogates ? 0x10FFFF : any_bits >= 0x100u ? 0xFFFF
                                         : any_bits >= 0x80u ? 0xFF : 0x7F;
    if ((!w->text || max > w->max) && writer_widen(w, max > w->max ? max : w->max) < 0)
        return -1;
    switch (PyUnicode_KIND(w->text)) {
    case PyUnicode_1BYTE_KIND: {
        Py_UCS1 *out = PyUnicode_1BYTE_DATA(w->text) + w->len;
        for (size_t i = 0; i < count; i++)
            out[i] = (Py_UCS1)units[i];
        w->len += count;
        break;
    }
    case PyUnicode_2BYTE_KIND:
        memcpy(PyUnicode_2BYTE_DATA(w->text) + w->len, units, count * sizeof *units);
        w->len += count;
        break;
    default: {
        Py_UCS4 *out = PyUnicode_4BYTE_DATA(w->text) + w->len;
        for (size_t i = 0; i < count; i++) {
            Py_UCS4 unit = units[i];
            if ((unit & 0xFC00u) == 0xD800u) {
                unit = 0x10000u + ((unit - 0xD800u) << 10) + (units[i + 1] - 0xDC00u);
                i++;
            }
            *out++ = unit;
        }
        w->len = (size_t)(out - PyUnicode_4BYTE_DATA(w->text));
        break;
    }
    }
    return 0;
}

/* The str, cut to its length; the writer is spent either way. */
static PyObject *writer_finish(str_writer *w) {
    PyObject *text = w->text;
    w->text = NULL;
    if (!text)
        return PyUnicode_New(0, 0);
    if (w->len < w->capacity && PyUnicode_Resize(&text, (Py_ssize_t)w->len) < 0)
        return NULL;
    return text;
}

/*
 * A str of UTF-16 code units that a decoder wrote (so surrogates come only
 * in pairs), in the kind its largest code point needs: Latin-1 bytes, UCS-2
 * as it is, or UCS-4 with the pairs joined.
 */
static PyObject *str_from_utf16(const uint16_t *units, size_t count) {
    str_writer writer = {NULL, 0, count, 0};
    if (count && writer_put(&writer, units, count) < 0) {
        Py_CLEAR(writer.text);
        return NULL;
    }
    return writer_finish(&writer);
}

/* Whether the n <= 64 bytes at p are ASCII, a word at a time (the last
 * word overlapping the one before it). */
static bool short_ascii(const uint8_t *p, size_t n) {
    uint64_t any = 0, word;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&word, p + i, 8);
        any |= word;
    }
    if (i < n && n >= 8) {
        memcpy(&word, p + n - 8, 8);
        any |= word;
    } else {
        for (; i < n; i++)
            any |= p[i];
    }
    return !(any & 0x8080808080808080u);
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
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, src + i, 8);
        if (word & 0x8080808080808080u)
            break;
        memcpy(dst + i, &word, 8);
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
    size_t head = len < 64 ? len : 64;
    *failed = false;
    if (!short_ascii(src, head))
        return NULL;
    PyObject *text = PyUnicode_New((Py_ssize_t)len, 0x7F);
    if (!text) {
        *failed = true;
        return NULL;
    }
    if (len == head) {
        memcpy(PyUnicode_1BYTE_DATA(text), src, len);
    } else if (copy_ascii(PyUnicode_1BYTE_DATA(text), src, len) != len) {
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

/* ---- output buffers ------------------------------------------------------ */

/* Bytes under construction: on the stack while short, then a bytes object
 * grown by half again each time. */
typedef struct byte_buffer {
    PyObject *bytes;
    uint8_t *data;
    size_t len, capacity;
    uint8_t stack[4 * STACK_UNITS];
} byte_buffer;

static void byte_buffer_init(byte_buffer *b) {
    b->bytes = NULL;
    b->data = b->stack;
    b->len = 0;
    b->capacity = sizeof b->stack;
}

static int byte_buffer_reserve(byte_buffer *b, size_t more) {
    if (more <= b->capacity - b->len)
        return 0;
    if (more > (size_t)PY_SSIZE_T_MAX - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    size_t want = b->len + more;
    size_t grown = b->capacity + b->capacity / 2;
    if (grown > want && grown <= (size_t)PY_SSIZE_T_MAX)
        want = grown;
    if (!b->bytes) {
        if (!(b->bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)want)))
            return -1;
        memcpy(PyBytes_AS_STRING(b->bytes), b->stack, b->len);
    } else if (_PyBytes_Resize(&b->bytes, (Py_ssize_t)want) < 0) {
        return -1;
    }
    b->data = (uint8_t *)PyBytes_AS_STRING(b->bytes);
    b->capacity = want;
    prefer_huge_pages(b->data + b->len, want - b->len);
    return 0;
}

static int byte_buffer_append(byte_buffer *b, const void *bytes, size_t len) {
    if (byte_buffer_reserve(b, len) < 0)
        return -1;
    memcpy(b->data + b->len, bytes, len);
    b->len += len;
    return 0;
}

/* The bytes; the buffer is spent either way. */
static PyObject *byte_buffer_finish(byte_buffer *b) {
    if (!b->bytes)
        return PyBytes_FromStringAndSize((const char *)b->stack, (Py_ssize_t)b->len);
    PyObject *out = b->bytes;
    b->bytes = NULL;
    if ((size_t)PyBytes_GET_SIZE(out) != b->len && _PyBytes_Resize(&out, (Py_ssize_t)b->len) < 0)
        return NULL;
    return out;
}

static void byte_buffer_free(byte_buffer *b) { Py_CLEAR(b->bytes); }

/*
 * Text under construction: UTF-16 units (surrogates only in pairs, as
 * decoders write them), and, once a handler has put in a str with a lone
 * surrogate, the strs so far in order.
 */
typedef struct text_builder {
    uint16_t *units;
    size_t len, capacity;
    PyObject *pieces;
} text_builder;

static bool is_surrogate(Py_UCS4 c) { return c - 0xD800u < 0x800u; }

/* Whether UCS-2 data holds a surrogate; in 16-bit lanes, so that it
 * vectorises as such. */
static bool ucs2_has_surrogate(const Py_UCS2 *in, size_t len) {
    uint16_t found = 0;
    for (size_t i = 0; i < len; i++)
        found |= (uint16_t)((uint16_t)(in[i] & 0xF800u) == 0xD800u);
    return found != 0;
}

static int builder_reserve(text_builder *b, size_t more) {
    if (more <= b->capacity - b->len)
        return 0;
    if (more > (size_t)PY_SSIZE_T_MAX / 4 - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    size_t want = b->len + more;
    size_t grown = b->capacity + b->capacity / 2;
    if (grown > want && grown <= (size_t)PY_SSIZE_T_MAX / 4)
        want = grown;
    uint16_t *units = PyMem_RawRealloc(b->units, want * sizeof *units);
    if (!units) {
        PyErr_NoMemory();
        return -1;
    }
    b->units = units;
    b->capacity = want;
    return 0;
}

static int builder_flush(text_builder *b) {
    if (!b->pieces && !(b->pieces = PyList_New(0)))
        return -1;
    if (b->len == 0)
        return 0;
    PyObject *text = str_from_utf16(b->units, b->len);
    if (!text)
        return -1;
    int result = PyList_Append(b->pieces, text);
    Py_DECREF(text);
    b->len = 0;
    return result;
}

static int builder_append_str(text_builder *b, PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    size_t astral = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (is_surrogate(c))
            return builder_flush(b) < 0 ? -1 : PyList_Append(b->pieces, text);
        astral += c > 0xFFFFu;
    }
    if (builder_reserve(b, (size_t)n + astral) < 0)
        return -1;
    uint16_t *out = b->units + b->len;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c > 0xFFFFu) {
            *out++ = (uint16_t)(0xD7C0u + (c >> 10));
            *out++ = (uint16_t)(0xDC00u + (c & 0x3FFu));
        } else {
            *out++ = (uint16_t)c;
        }
    }
    b->len = (size_t)(out - b->units);
    return 0;
}

static int builder_append_ascii(text_builder *b, const char *ascii, size_t len) {
    if (builder_reserve(b, len) < 0)
        return -1;
    for (size_t i = 0; i < len; i++)
        b->units[b->len++] = (uint8_t)ascii[i];
    return 0;
}

static void builder_free(text_builder *b) {
    PyMem_RawFree(b->units);
    b->units = NULL;
    b->len = b->capacity = 0;
    Py_CLEAR(b->pieces);
}

/* The str; the builder is spent either way. */
static PyObject *builder_finish(text_builder *b) {
    PyObject *text = NULL;
    if (!b->pieces) {
        text = str_from_utf16(b->units, b->len);
    } else if (builder_flush(b) == 0) {
        PyObject *empty = PyUnicode_New(0, 0);
        if (empty) {
            text = PyUnicode_Join(empty, b->pieces);
            Py_DECREF(empty);
        }
    }
    builder_free(b);
    return text;
}

/* ---- errors -------------------------------------------------------------- */

/* An error of `type` (DecodeError or EncodeError) for object[start:end],
 * with the attribute `extra` set to `value` (a reference taken over) and
 * `output` (or None). */
static PyObject *new_codec_error(PyObject *type, wenc_id id, PyObject *object,
                                 Py_ssize_t start, Py_ssize_t end, const char *reason,
                                 const char *extra, PyObject *value, PyObject *output) {
    PyObject *error = value ? PyObject_CallFunction(type, "sOnns", wenc_name(id), object,
                                                    start, end, reason)
                            : NULL;
    if (error && (PyObject_SetAttrString(error, extra, value) < 0 ||
                  PyObject_SetAttrString(error, "output", output ? output : Py_None) < 0))
        Py_CLEAR(error);
    Py_XDECREF(value);
    return error;
}

/* A DecodeError for bytes [start, end) of `object` (bytes), at stream offset
 * `offset`, with `output` (or None) attached. */
static PyObject *new_decode_error(wenc_id id, PyObject *object, Py_ssize_t start,
                                  Py_ssize_t end, uint64_t offset, PyObject *output) {
    return new_codec_error(DecodeError, id, object, start, end, "malformed input", "offset",
                           PyLong_FromUnsignedLongLong(offset), output);
}

static void raise_error_object(PyObject *type, PyObject *error) {
    if (error) {
        PyErr_SetObject(type, error);
        Py_DECREF(error);
    }
}

/* Raises `error` with `output` (what the call made before it, or NULL) as
 * its `output`; both references are taken over. */
static void raise_with_output(PyObject *type, PyObject *error, PyObject *output) {
    if (output) {
        PyObject_SetAttrString(error, "output", output);
        Py_DECREF(output);
    }
    raise_error_object(type, error);
}

/*
 * Raises DecodeError for the error a decoder just returned. `input` is what
 * this call read (`object` is it as a Python object, or NULL to make bytes of
 * it); `input_start` is the stream offset where it begins; `skipped`, the
 * bytes of it that went past the decoder (its offsets are that far behind). When the
 * malformed bytes began in an earlier call, those bytes are put in front of
 * the input, so that `object[start:end]` is always the malformed sequence
 * and `object[end:]` what to continue with. `output` (the text decoded
 * before the error) is attached as the error's `output`.
 */
static void raise_decode_error(const wenc_decoder *dec, PyObject *object,
                               const uint8_t *input, size_t input_len,
                               uint64_t input_start, uint64_t skipped, PyObject *output) {
    wenc_decode_error err;
    if (!wenc_decoder_error(dec, &err)) {
        PyErr_SetString(PyExc_SystemError, "wenc: no decoder error recorded");
        return;
    }
    err.offset += skipped;
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
    raise_error_object(DecodeError,
                       new_decode_error(wenc_decoder_encoding(dec), bytes, start,
                                        start + (Py_ssize_t)err.length, err.offset, output));
    Py_DECREF(bytes);
}

/* An EncodeError for text[start:end], whose first code point is
 * `code_point`, with `output` (or None) attached. */
static PyObject *new_encode_error(wenc_id id, PyObject *text, Py_ssize_t start,
                                  Py_ssize_t end, uint32_t code_point, PyObject *output) {
    return new_codec_error(EncodeError, id, text, start, end,
                           is_surrogate(code_point) ? "surrogates not allowed"
                                                    : "code point not in the encoding",
                           "code_point", PyLong_FromUnsignedLong(code_point), output);
}

/* ---- decoding ------------------------------------------------------------ */

static wenc_status run_decoder(wenc_decoder *dec, const uint8_t *src, size_t *src_len,
                               uint16_t *dst, size_t *dst_len, bool last) {
    wenc_status status;
    if (*src_len >= RELEASE_GIL_UNITS) {
        Py_BEGIN_ALLOW_THREADS
        status = wenc_decode_to_utf16(dec, src, src_len, dst, dst_len, last);
        Py_END_ALLOW_THREADS
    } else {
        status = wenc_decode_to_utf16(dec, src, src_len, dst, dst_len, last);
    }
    return status;
}

/* Code units a long decode writes at a time, on the stack. */
#define SCRATCH_UNITS 8192

/* Finishes decode_chunk(): the exception of a fatal error. */
static PyObject *decode_result(wenc_decoder *dec, wenc_status status, PyObject *text,
                               PyObject *object, const uint8_t *src, size_t len,
                               uint64_t stream_start, uint64_t skipped) {
    if (text && status == WENC_ERROR) {
        raise_decode_error(dec, object, src, len, stream_start, skipped, text);
        Py_CLEAR(text);
    }
    return text;
}

/* decode_chunk() of an output that fits STACK_UNITS: one call, one str of
 * its own size. */
static PyObject *decode_short(wenc_decoder *dec, PyObject *object, const uint8_t *src,
                              size_t len, bool last, uint64_t stream_start,
                              size_t *consumed) {
    uint16_t units[STACK_UNITS];
    size_t src_len = len, dst_len = STACK_UNITS;
    wenc_status status = wenc_decode_to_utf16(dec, src, &src_len, units, &dst_len, last);
    *consumed = src_len;
    return decode_result(dec, status, str_from_utf16(units, dst_len), object, src, len,
                         stream_start, 0);
}

/*
 * Whether the `count` UTF-16 code units in bytes at `src` (little- or
 * big-endian) fit the kind of a str whose code points are at most `max`
 * (0x7F, 0xFF or 0xFFFF: no surrogate); when they do, they are written to
 * `out` in that kind. One pass, vectorised in 16-bit lanes.
 */
static bool copy_utf16_bytes(const uint8_t *src, size_t count, bool big_endian, void *out,
                             Py_UCS4 max) {
    uint16_t any_bits = 0, surrogates = 0;
#define WENC_COPY_UTF16(OUT_TYPE, UNIT)                                                 \
    for (size_t i = 0; i < count; i++) {                                                \
        uint16_t unit;                                                                  \
        memcpy(&unit, src + 2 * i, 2);                                                  \
        unit = UNIT;                                                                    \
        any_bits |= unit;                                                               \
        surrogates |= (uint16_t)((uint16_t)(unit - 0xD800u) < 0x800u);                  \
        ((OUT_TYPE *)out)[i] = (OUT_TYPE)unit;                                          \
    }
    bool swap = big_endian == (PY_LITTLE_ENDIAN != 0);
    if (max <= 0xFF) {
        if (swap) {
            WENC_COPY_UTF16(Py_UCS1, (uint16_t)(unit << 8 | unit >> 8))
        } else {
            WENC_COPY_UTF16(Py_UCS1, unit)
        }
        return any_bits <= max;
    }
    if (swap) {
        WENC_COPY_UTF16(Py_UCS2, (uint16_t)(unit << 8 | unit >> 8))
    } else {
        WENC_COPY_UTF16(Py_UCS2, unit)
    }
#undef WENC_COPY_UTF16
    return !surrogates;
}

/*
 * Where a one-shot UTF-16LE/BE decode whose str is not UCS-4 can skip the
 * decoder for its next piece: the decoder reads UTF-16, has settled the BOM
 * question and holds nothing, so that code units other than surrogates
 * (never malformed) leave it as they find it. Its byte offsets then fall
 * behind the input's by what was skipped (decode_chunk keeps count).
 */
static bool may_skip_utf16(const wenc_decoder *dec, const str_writer *w, bool *big_endian) {
    wenc_id id = wenc_decoder_encoding(dec);
    if (!w->text || w->max > 0xFFFF || (id != WENC_UTF_16LE && id != WENC_UTF_16BE))
        return false;
    wenc_decoder_state state;
    wenc_decoder_save(dec, &state);
    *big_endian = id == WENC_UTF_16BE;
    return state.held_len == 0;
}

/*
 * Decodes `len` bytes with `dec` in one of the Standard's modes; the str of
 * the output, or NULL with an exception (DecodeError in fatal mode, its
 * `object` built as raise_decode_error says). *consumed receives the bytes
 * read. Long output goes through a scratch buffer a piece at a time into
 * a str of its final kind, so that it is written to memory once. With
 * `one_shot` (a fresh decoder, discarded after this call, so that its byte
 * offsets matter only for this call's error), UTF-16 with no surrogates
 * goes straight from the bytes into the str.
 */
static PyObject *decode_chunk(wenc_decoder *dec, PyObject *object,
                              const uint8_t *src, size_t len, bool last,
                              uint64_t stream_start, bool one_shot, size_t *consumed) {
    size_t capacity = wenc_decoder_max_utf16_len(dec, len);
    if (capacity <= STACK_UNITS)
        return decode_short(dec, object, src, len, last, stream_start, consumed);
    if (capacity == SIZE_MAX || capacity > (size_t)PY_SSIZE_T_MAX / 4)
        return PyErr_NoMemory();
    uint16_t scratch[SCRATCH_UNITS];
    str_writer writer = {NULL, 0, capacity, 0};
    size_t done = 0, skipped = 0;
    bool big_endian = false;
    wenc_status status;
    do {
        size_t pairs = (len - done) / 2;
        if (pairs > SCRATCH_UNITS)
            pairs = SCRATCH_UNITS;
        if (one_shot && pairs && writer.len + pairs <= writer.capacity &&
            may_skip_utf16(dec, &writer, &big_endian) &&
            copy_utf16_bytes(src + done, pairs, big_endian,
                             (char *)PyUnicode_DATA(writer.text) +
                                 writer.len * (size_t)PyUnicode_KIND(writer.text),
                             writer.max)) {
            done += 2 * pairs;
            skipped += 2 * pairs;
            writer.len += pairs;
            status = WENC_OUTPUT_FULL;
            continue;
        }
        size_t src_len = len - done, dst_len = SCRATCH_UNITS;
        status = run_decoder(dec, src + done, &src_len, scratch, &dst_len, last);
        done += src_len;
        if (writer_put(&writer, scratch, dst_len) < 0) {
            Py_CLEAR(writer.text);
            *consumed = done;
            return NULL;
        }
    } while (status == WENC_OUTPUT_FULL);
    *consumed = done;
    return decode_result(dec, status, writer_finish(&writer), object, src, len, stream_start,
                         skipped);
}

/* The bytes a decoder holds from earlier calls (at most WENC_MAX_HELD). */
static size_t held_bytes(const wenc_decoder *dec, uint8_t *held) {
    wenc_decoder_state state;
    wenc_decoder_save(dec, &state);
    memcpy(held, state.held, state.held_len);
    return state.held_len;
}

/* Starts `dec` anew, in the state it is in but holding no bytes: where an
 * error handler sends a decoder on from elsewhere than the end of the
 * malformed bytes. */
static void restart_decoder(wenc_decoder *dec) {
    wenc_decoder_state state;
    wenc_decoder_save(dec, &state);
    state.held_len = 0;
    wenc_decoder_reset(dec);
    if (!wenc_decoder_restore(dec, &state))
        wenc_decoder_reset(dec);
}

/*
 * A built-in handler's answer for the malformed bytes [start, end) of
 * `bytes` (`len` of them), appended to `out`; *resume is where to go on.
 * 1 when done, 0 when the handler refuses (CPython's raise the error), -1
 * with an exception.
 */
static int decode_builtin(const errors_policy *policy, wenc_id id, const uint8_t *bytes,
                          size_t len, size_t start, size_t end, text_builder *out,
                          size_t *resume) {
    *resume = end;
    switch (policy->kind) {
    case ERRORS_IGNORE:
        return 1;
    case ERRORS_BACKSLASH:
        for (size_t i = start; i < end; i++) {
            char escape[5];
            snprintf(escape, sizeof escape, "\\x%02x", bytes[i]);
            if (builder_append_ascii(out, escape, 4) < 0)
                return -1;
        }
        return 1;
    case ERRORS_SURROGATEESCAPE: {
        /* Up to four bytes, none of them ASCII, each to U+DC80 + byte. */
        Py_UCS2 lone[4];
        size_t count = 0;
        while (count < 4 && start + count < end && bytes[start + count] >= 0x80) {
            lone[count] = (Py_UCS2)(0xDC00u + bytes[start + count]);
            count++;
        }
        if (count == 0)
            return 0;
        PyObject *text = PyUnicode_FromKindAndData(PyUnicode_2BYTE_KIND, lone, (Py_ssize_t)count);
        int result = text ? builder_append_str(out, text) : -1;
        Py_XDECREF(text);
        *resume = start + count;
        return result < 0 ? -1 : 1;
    }
    case ERRORS_SURROGATEPASS: {
        /* One surrogate code point as the UTF it is written in encodes it. */
        Py_UCS4 c = 0;
        size_t width = id == WENC_UTF_8 ? 3 : 2;
        const uint8_t *p = bytes + start;
        if (len - start < width)
            return 0;
        if (id == WENC_UTF_8) {
            if ((p[0] & 0xF0u) == 0xE0u && (p[1] & 0xC0u) == 0x80u && (p[2] & 0xC0u) == 0x80u)
                c = ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
        } else if (id == WENC_UTF_16LE) {
            c = (Py_UCS4)p[1] << 8 | p[0];
        } else if (id == WENC_UTF_16BE) {
            c = (Py_UCS4)p[0] << 8 | p[1];
        }
        if (!is_surrogate(c))
            return 0;
        Py_UCS2 lone = (Py_UCS2)c;
        PyObject *text = PyUnicode_FromKindAndData(PyUnicode_2BYTE_KIND, &lone, 1);
        int result = text ? builder_append_str(out, text) : -1;
        Py_XDECREF(text);
        *resume = start + width;
        return result < 0 ? -1 : 1;
    }
    default:
        return 0;
    }
}

/*
 * Decodes with one of Python's error handlers (policy->kind none of the
 * Standard's modes); `dec` runs in fatal mode. The handler sees the bytes
 * the decoder held from earlier calls and then `src`, so that
 * object[start:end] is the malformed sequence. *position is the decoder's
 * stream offset, advanced; a handler that goes on elsewhere than the end of
 * the malformed bytes restarts the decoder's offsets there.
 */
static PyObject *decode_handled(wenc_decoder *dec, errors_policy *policy, PyObject *object,
                                const uint8_t *src, size_t len, bool last,
                                uint64_t *position) {
    text_builder out = {0};
    uint8_t held[WENC_MAX_HELD];
    size_t held_len = held_bytes(dec, held);
    PyObject *whole = NULL;   /* buf as bytes, once an error needs it */
    bool joined = false;      /* buf is the held bytes and src, in `whole` */
    const uint8_t *buf = src; /* the bytes `at` and `delta` refer to */
    size_t buf_len = len, at = 0;
    int64_t delta = -(int64_t)*position; /* buf offset = stream offset + delta */
    for (;;) {
        size_t in = buf_len - at;
        size_t room = wenc_decoder_max_utf16_len(dec, in);
        if (room == SIZE_MAX) {
            PyErr_NoMemory();
            goto fail;
        }
        if (builder_reserve(&out, room) < 0)
            goto fail;
        size_t written = room;
        wenc_status status = run_decoder(dec, buf + at, &in, out.units + out.len, &written, last);
        at += in;
        out.len += written;
        if (status == WENC_INPUT_EMPTY)
            break;
        wenc_decode_error err;
        if (status != WENC_ERROR || !wenc_decoder_error(dec, &err)) {
            PyErr_SetString(PyExc_SystemError, "wenc: decoder output larger than its bound");
            goto fail;
        }
        if (held_len && !joined) {
            /* The handler sees the held bytes, then this call's. */
            whole = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(held_len + len));
            if (!whole)
                goto fail;
            memcpy(PyBytes_AS_STRING(whole), held, held_len);
            if (len)
                memcpy(PyBytes_AS_STRING(whole) + held_len, src, len);
            buf = (const uint8_t *)PyBytes_AS_STRING(whole);
            buf_len = held_len + len;
            at += held_len;
            delta += (int64_t)held_len;
            joined = true;
        }
        size_t start = (size_t)((int64_t)err.offset + delta);
        size_t end = start + err.length;
        wenc_id id = wenc_decoder_encoding(dec);
        size_t resume;
        int done = 0;
        if (policy->kind != ERRORS_CALLBACK) {
            done = decode_builtin(policy, id, buf, buf_len, start, end, &out, &resume);
            if (done < 0)
                goto fail;
        }
        if (policy->kind == ERRORS_CALLBACK || !done) {
            if (!whole) {
                whole = object && PyBytes_CheckExact(object)
                            ? Py_NewRef(object)
                            : PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)buf_len);
                if (!whole)
                    goto fail;
            }
            PyObject *error = new_decode_error(id, whole, (Py_ssize_t)start, (Py_ssize_t)end,
                                               err.offset, NULL);
            if (!error)
                goto fail;
            if (policy->kind != ERRORS_CALLBACK) {
                /* The handler refused: the error is raised. */
                raise_with_output(DecodeError, error, builder_finish(&out));
                goto fail;
            }
            PyObject *replacement;
            Py_ssize_t where;
            int called = call_handler(policy, error, true, (Py_ssize_t)buf_len,
                                      &replacement, &where);
            Py_DECREF(error);
            if (called < 0)
                goto fail;
            called = builder_append_str(&out, replacement);
            Py_DECREF(replacement);
            if (called < 0)
                goto fail;
            resume = (size_t)where;
        }
        if (resume != end) {
            restart_decoder(dec);
            at = resume;
            delta = (int64_t)resume;
        }
    }
    *position = (uint64_t)((int64_t)buf_len - delta);
    Py_XDECREF(whole);
    return builder_finish(&out);
fail:
    Py_XDECREF(whole);
    builder_free(&out);
    return NULL;
}

/* Decodes with `dec` under `policy`: the Standard's modes inside libwenc,
 * Python's handlers here. *position as decode_handled() says, `one_shot` as
 * decode_chunk() does. */
static PyObject *decode_with(wenc_decoder *dec, errors_policy *policy, PyObject *object,
                             const uint8_t *src, size_t len, bool last, bool one_shot,
                             uint64_t *position) {
    if (policy->kind == ERRORS_REPLACEMENT || policy->kind == ERRORS_FATAL) {
        size_t consumed;
        PyObject *text = decode_chunk(dec, object, src, len, last, *position, one_shot,
                                      &consumed);
        *position += consumed;
        return text;
    }
    return decode_handled(dec, policy, object, src, len, last, position);
}

/* ---- str to code units ---------------------------------------------------- */

/* A str as wenc reads it: `utf8` (ASCII strs) or `utf16` code units. */
typedef struct text_units {
    const uint8_t *utf8;
    const uint16_t *utf16;
    size_t len;
    uint16_t *owned;  /* the UTF-16 copy on the heap, when one was made */
    bool astral;      /* the copy holds pairs: unit offsets are not indexes */
    bool lone;        /* the str has surrogate code points (U+FFFD in the copy) */
    uint16_t stack[STACK_UNITS]; /* the copy of a short str */
} text_units;

static int text_units_init(text_units *t, PyObject *text) {
    t->utf8 = NULL;
    t->utf16 = NULL;
    t->owned = NULL;
    t->astral = false;
    t->lone = false;
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
        if (!ucs2_has_surrogate(in, len)) {
            t->utf16 = in;
            t->len = len;
            return 0;
        }
        t->lone = true;
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
            } else if (is_surrogate(c)) {
                *out++ = 0xFFFDu;
                t->lone = true;
            } else {
                *out++ = (uint16_t)c;
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

static bool single_byte_output(wenc_id id) {
    return (id > WENC_UTF_8 && id < WENC_GBK) || id == WENC_X_USER_DEFINED;
}

/*
 * A first output size for `units` input units: what the text takes when the
 * encoding has nearly every character, with an eighth more for "&#N;" in
 * place of some (wenc_encoder_max_len() makes room for it in place of
 * each, several times more than text needs: on a large str that much
 * memory costs more than the conversion). Outputs that need more grow.
 */
static size_t encode_guess(const wenc_encoder *enc, size_t units, bool from_utf8) {
    size_t bound = wenc_encoder_max_len(enc, units);
    wenc_id id = wenc_encoder_encoding(enc);
    size_t per_unit = single_byte_output(id) || from_utf8 ? 1 : id == WENC_UTF_8 ? 3 : 2;
    size_t guess = units <= ((size_t)PY_SSIZE_T_MAX / 2) / per_unit
                       ? units * per_unit + units / 8 + 64
                       : (size_t)PY_SSIZE_T_MAX;
    return guess < bound ? guess : bound;
}

/*
 * Runs the encoder over `len` units (UTF-8 when `utf8`, else UTF-16) into
 * `out`, growing it as needed. *position (the encoder's input position)
 * advances by the units consumed. Returns WENC_INPUT_EMPTY, WENC_ERROR (the
 * units up to and including the unmappable code point consumed), or
 * WENC_OUTPUT_FULL with an exception set.
 */
static wenc_status run_encoder(wenc_encoder *enc, const void *src, size_t len, bool utf8,
                               bool last, byte_buffer *out, uint64_t *position) {
    size_t done = 0;
    for (;;) {
        size_t src_len = len - done;
        if (byte_buffer_reserve(out, encode_guess(enc, src_len, utf8)) < 0)
            return WENC_OUTPUT_FULL;
        size_t dst_len = out->capacity - out->len;
        uint8_t *dst = out->data + out->len;
        wenc_status status;
        PyThreadState *released = src_len >= RELEASE_GIL_UNITS ? PyEval_SaveThread() : NULL;
        if (utf8)
            status = wenc_encode_from_utf8(enc, (const uint8_t *)src + done, &src_len, dst,
                                           &dst_len, last);
        else
            status = wenc_encode_from_utf16(enc, (const uint16_t *)src + done, &src_len, dst,
                                            &dst_len, last);
        if (released)
            PyEval_RestoreThread(released);
        done += src_len;
        *position += src_len;
        out->len += dst_len;
        if (status != WENC_OUTPUT_FULL)
            return status;
        /* More room than the guess: at least what a code point can take. */
        if (byte_buffer_reserve(out, out->capacity - out->len + 64) < 0)
            return WENC_OUTPUT_FULL;
    }
}

/*
 * Encodes a str with `enc` in one of the Standard's modes (or Python's
 * 'strict' and 'xmlcharrefreplace' for a str without surrogates, which are
 * those modes then); bytes, or NULL with an exception (EncodeError in fatal
 * mode, the error's `output` being the bytes before it). *unit_position is
 * the encoder's input position, advanced by the call.
 */
static PyObject *encode_chunk(wenc_encoder *enc, PyObject *text, const text_units *units,
                              bool last, uint64_t *unit_position) {
    byte_buffer out;
    byte_buffer_init(&out);
    uint64_t start = *unit_position;
    wenc_status status = units->utf8
        ? run_encoder(enc, units->utf8, units->len, true, last, &out, unit_position)
        : run_encoder(enc, units->utf16, units->len, false, last, &out, unit_position);
    PyObject *bytes = status == WENC_OUTPUT_FULL ? NULL : byte_buffer_finish(&out);
    if (bytes && status == WENC_ERROR) {
        wenc_encode_error err;
        wenc_encoder_error(enc, &err);
        Py_ssize_t at = text_units_index(units, (size_t)(err.offset - start));
        raise_error_object(EncodeError, new_encode_error(wenc_encoder_encoding(enc), text, at,
                                                         at + 1, err.code_point, bytes));
        Py_CLEAR(bytes);
    }
    byte_buffer_free(&out);
    return bytes;
}

/* The index of the first surrogate code point of text[from:], or its length. */
static Py_ssize_t next_surrogate(PyObject *text, Py_ssize_t from) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *data = PyUnicode_2BYTE_DATA(text);
        for (Py_ssize_t i = from; i < n; i++) {
            if (is_surrogate(data[i]))
                return i;
        }
    } else if (kind == PyUnicode_4BYTE_KIND) {
        const Py_UCS4 *data = PyUnicode_4BYTE_DATA(text);
        for (Py_ssize_t i = from; i < n; i++) {
            if (is_surrogate(data[i]))
                return i;
        }
    }
    return n;
}

/*
 * Encodes text[from:to], which holds no surrogate code point, into `out`.
 * 0 when done; 1 at a code point the encoding lacks, its index in
 * *failed (the encoder has read it); -1 with an exception.
 */
static int encode_span(wenc_encoder *enc, PyObject *text, Py_ssize_t from, Py_ssize_t to,
                       byte_buffer *out, uint64_t *position, Py_ssize_t *failed) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    while (from < to) {
        /* ASCII and UCS-2 strs are read where they are; Latin-1 and UCS-4
         * ones through UTF-16 copies of up to STACK_UNITS / 2 code points. */
        const void *src;
        size_t len;
        bool utf8 = false;
        uint16_t copy[STACK_UNITS];
        Py_ssize_t span = to - from;
        if (PyUnicode_IS_ASCII(text)) {
            src = (const Py_UCS1 *)data + from;
            len = (size_t)span;
            utf8 = true;
        } else if (kind == PyUnicode_2BYTE_KIND) {
            src = (const Py_UCS2 *)data + from;
            len = (size_t)span;
        } else {
            if (span > STACK_UNITS / 2)
                span = STACK_UNITS / 2;
            len = 0;
            for (Py_ssize_t i = 0; i < span; i++) {
                Py_UCS4 c = PyUnicode_READ(kind, data, from + i);
                if (c > 0xFFFFu) {
                    copy[len++] = (uint16_t)(0xD7C0u + (c >> 10));
                    copy[len++] = (uint16_t)(0xDC00u + (c & 0x3FFu));
                } else {
                    copy[len++] = (uint16_t)c;
                }
            }
            src = copy;
        }
        uint64_t start = *position;
        wenc_status status = run_encoder(enc, src, len, utf8, false, out, position);
        if (status == WENC_OUTPUT_FULL)
            return -1;
        if (status == WENC_ERROR) {
            wenc_encode_error err;
            wenc_encoder_error(enc, &err);
            size_t unit = (size_t)(err.offset - start);
            Py_ssize_t index = (Py_ssize_t)unit;
            if (!utf8 && kind == PyUnicode_4BYTE_KIND) {
                for (size_t i = 0; i < unit; i++)
                    index -= (copy[i] & 0xFC00u) == 0xDC00u;
            }
            *failed = from + index;
            return 1;
        }
        from += span;
    }
    return 0;
}

/* Encodes a replacement str from a handler through the encoder (in its
 * state). 0, 1 when it holds a character the encoding lacks (or a
 * surrogate), -1 with an exception. */
static int encode_replacement(wenc_encoder *enc, PyObject *text, byte_buffer *out,
                              uint64_t *position) {
    Py_ssize_t failed;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (next_surrogate(text, 0) < n)
        return 1;
    return encode_span(enc, text, 0, n, out, position, &failed);
}

static int encode_ascii(wenc_encoder *enc, const char *ascii, size_t len, byte_buffer *out,
                        uint64_t *position) {
    return run_encoder(enc, ascii, len, true, false, out, position) == WENC_INPUT_EMPTY ? 0 : -1;
}

/* Whether a single-byte encoding lacks `c` (a surrogate included). */
static bool single_byte_lacks(wenc_id id, Py_UCS4 c) {
    if (is_surrogate(c) || c > 0xFFFFu)
        return true;
    wenc_encoder probe;
    wenc_encoder_init(&probe, id, WENC_ERRORS_FATAL);
    uint16_t unit = (uint16_t)c;
    uint8_t byte[8];
    size_t src_len = 1, dst_len = sizeof byte;
    return wenc_encode_from_utf16(&probe, &unit, &src_len, byte, &dst_len, false) == WENC_ERROR;
}

/*
 * Where an error that starts at `at` ends, as CPython's codec of the same
 * kind reports it: its UTF-8 encoder a run of surrogates, its charmap
 * (single-byte) encoders a run of characters the encoding lacks, its CJK
 * encoders one character.
 */
static Py_ssize_t error_end(const wenc_encoder *enc, PyObject *text, Py_ssize_t at) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), end = at + 1;
    wenc_id id = wenc_encoder_encoding(enc);
    if (id == WENC_UTF_8) {
        while (end < n && is_surrogate(PyUnicode_READ_CHAR(text, end)))
            end++;
    } else if (single_byte_output(id)) {
        while (end < n && single_byte_lacks(id, PyUnicode_READ_CHAR(text, end)))
            end++;
    }
    return end;
}

/*
 * A built-in handler's answer for text[start:end], written to `out`. 1 when
 * done, 0 when the handler refuses (CPython's raise the error), -1 with an
 * exception.
 */
static int encode_builtin(const errors_policy *policy, wenc_encoder *enc, PyObject *text,
                          Py_ssize_t start, Py_ssize_t end, byte_buffer *out,
                          uint64_t *position) {
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(text, i);
        if ((policy->kind == ERRORS_SURROGATEESCAPE && (c < 0xDC80u || c > 0xDCFFu)) ||
            (policy->kind == ERRORS_SURROGATEPASS &&
             (!is_surrogate(c) || wenc_encoder_encoding(enc) != WENC_UTF_8)))
            return 0;
    }
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(text, i);
        char ascii[16];
        int len = 0;
        uint8_t bytes[3];
        size_t count = 0;
        switch (policy->kind) {
        case ERRORS_IGNORE:
            break;
        case ERRORS_REPLACE:
            len = snprintf(ascii, sizeof ascii, "?");
            break;
        case ERRORS_XMLCHARREF:
            len = snprintf(ascii, sizeof ascii, "&#%lu;", (unsigned long)c);
            break;
        case ERRORS_BACKSLASH:
            len = c >= 0x10000u ? snprintf(ascii, sizeof ascii, "\\U%08lx", (unsigned long)c)
                  : c >= 0x100u ? snprintf(ascii, sizeof ascii, "\\u%04lx", (unsigned long)c)
                                : snprintf(ascii, sizeof ascii, "\\x%02lx", (unsigned long)c);
            break;
        case ERRORS_SURROGATEESCAPE:
            bytes[count++] = (uint8_t)(c - 0xDC00u);
            break;
        case ERRORS_SURROGATEPASS:
            bytes[count++] = (uint8_t)(0xE0u | (c >> 12));
            bytes[count++] = (uint8_t)(0x80u | ((c >> 6) & 0x3Fu));
            bytes[count++] = (uint8_t)(0x80u | (c & 0x3Fu));
            break;
        default:
            return 0;
        }
        if ((len > 0 && encode_ascii(enc, ascii, (size_t)len, out, position) < 0) ||
            (count > 0 && byte_buffer_append(out, bytes, count) < 0))
            return -1;
    }
    return 1;
}

/*
 * Encodes a str with one of Python's error handlers: the encoder runs in
 * fatal mode (html mode for 'xmlcharrefreplace'), and the code points the
 * encoding lacks and the surrogate code points of the str are errors for
 * the handler, each [start, end) as error_end() says. A str the handler
 * returns goes through the encoder, so that ISO-2022-JP's state stays
 * right; bytes go out as they are.
 */
static PyObject *encode_handled(wenc_encoder *enc, errors_policy *policy, PyObject *text,
                                bool last, uint64_t *position) {
    byte_buffer out;
    byte_buffer_init(&out);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t lone = next_surrogate(text, i);
        Py_ssize_t at = lone;
        if (i < lone && encode_span(enc, text, i, lone, &out, position, &at) < 0)
            goto fail;
        if (at == n)
            break;
        Py_ssize_t end = error_end(enc, text, at);
        Py_ssize_t resume = end;
        int done = 0;
        if (policy->kind != ERRORS_CALLBACK && policy->kind != ERRORS_STRICT &&
            policy->kind != ERRORS_FATAL) {
            done = encode_builtin(policy, enc, text, at, end, &out, position);
            if (done < 0)
                goto fail;
        }
        if (!done) {
            PyObject *error = new_encode_error(wenc_encoder_encoding(enc), text, at, end,
                                               PyUnicode_READ_CHAR(text, at), NULL);
            if (!error)
                goto fail;
            if (policy->kind != ERRORS_CALLBACK) {
                raise_with_output(EncodeError, error, byte_buffer_finish(&out));
                goto fail;
            }
            PyObject *replacement;
            int called = call_handler(policy, error, false, n, &replacement, &resume);
            if (called == 0) {
                if (PyBytes_Check(replacement)) {
                    called = byte_buffer_append(&out, PyBytes_AS_STRING(replacement),
                                                (size_t)PyBytes_GET_SIZE(replacement));
                } else if ((called = encode_replacement(enc, replacement, &out, position)) > 0) {
                    /* The replacement has a character the encoding lacks. */
                    PyErr_SetObject(EncodeError, error);
                    called = -1;
                }
                Py_DECREF(replacement);
            }
            Py_DECREF(error);
            if (called < 0)
                goto fail;
        }
        i = resume;
    }
    if (last && run_encoder(enc, "", 0, true, true, &out, position) != WENC_INPUT_EMPTY)
        goto fail;
    return byte_buffer_finish(&out);
fail:
    byte_buffer_free(&out);
    return NULL;
}

/* Encodes a str with `enc` under `policy`. */
static PyObject *encode_with(wenc_encoder *enc, errors_policy *policy, PyObject *text,
                             bool last, uint64_t *position) {
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(text)->tp_name);
        return NULL;
    }
    bool standard = policy->kind == ERRORS_HTML || policy->kind == ERRORS_FATAL;
    if (standard || policy->kind == ERRORS_STRICT || policy->kind == ERRORS_XMLCHARREF) {
        /* 'strict' and 'xmlcharrefreplace' are the Standard's modes for a
         * str without surrogate code points. */
        text_units units;
        if (text_units_init(&units, text) < 0)
            return NULL;
        bool lone = units.lone;
        PyObject *bytes = standard || !lone ? encode_chunk(enc, text, &units, last, position)
                                            : NULL;
        text_units_free(&units);
        if (standard || !lone)
            return bytes;
    }
    return encode_handled(enc, policy, text, last, position);
}

/* ---- module functions ---------------------------------------------------- */

/* The Standard's decode of a bytes-like object (a whole stream) under
 * `policy`; *length receives its length in bytes and *used (when not NULL)
 * the encoding it was decoded with (the one a BOM chose, or id). */
static PyObject *decode_object(PyObject *data, wenc_id id, wenc_bom_mode bom,
                               errors_policy *policy, Py_ssize_t *length, wenc_id *used) {
    Py_buffer view;
    if (get_bytes(data, &view) < 0)
        return NULL;
    *length = view.len;
    const uint8_t *src = view.buf;
    size_t len = (size_t)view.len;
    PyObject *text = NULL;
    bool failed = false;
    if (ascii_transparent(id))
        text = ascii_str(src, len, &failed);
    if (used)
        *used = id;
    if (!text && !failed) {
        wenc_decoder dec;
        wenc_decoder_init(&dec, id, bom, library_mode(policy));
        uint64_t position = 0;
        text = decode_with(&dec, policy, view.obj, src, len, true, true, &position);
        if (used)
            *used = wenc_decoder_encoding(&dec);
    }
    PyBuffer_Release(&view);
    return text;
}

PyDoc_STRVAR(decode_doc,
"decode(data, label='utf-8', *, errors='replacement', bom='sniff') -> str\n\n"
"Decodes a bytes-like object with the encoding `label` names.\n"
"errors: the Standard's 'replacement' (malformed input becomes U+FFFD) or\n"
"'fatal' (raise DecodeError), or any of Python's error handlers ('strict',\n"
"'replace', 'ignore', 'backslashreplace', 'surrogateescape',\n"
"'surrogatepass', or a name registered with codecs.register_error).\n"
"bom: 'sniff' (a UTF-8 or UTF-16 BOM wins over the label and is removed:\n"
"the Standard's decode), 'strip' (the label's own BOM is removed, for UTF-8\n"
"and UTF-16 only) or 'keep'.");

/* decode() and decode_with_encoding(): the arguments, then decode_object(). */
static PyObject *decode_call(const char *function, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames, wenc_id *used) {
    static const char *const names[] = {"data", "label", "errors", "bom"};
    PyObject *values[4];
    if (parse_arguments(function, args, nargs, kwnames, names, 4, 2, 1, values) < 0)
        return NULL;
    wenc_id id = WENC_UTF_8;
    errors_policy policy;
    wenc_bom_mode bom;
    if ((values[1] && (id = label_to_codec(values[1])) == WENC_INVALID) ||
        parse_bom(values[3], &bom) < 0 ||
        parse_errors(values[2], true, ERRORS_REPLACEMENT, &policy) < 0)
        return NULL;
    Py_ssize_t length;
    PyObject *text = decode_object(values[0], id, bom, &policy, &length, used);
    errors_policy_clear(&policy);
    return text;
}

static PyObject *module_decode(PyObject *module, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    return decode_call("decode", args, nargs, kwnames, NULL);
}

/* UTF-8 of a short Latin-1 str, where setting up an encoder would cost
 * more than the conversion; eight bytes at a time while they are ASCII. */
static PyObject *latin1_to_utf8(const Py_UCS1 *in, size_t len) {
    size_t size = len, i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, in + i, 8);
        /* The count of high bits: one per byte, summed by the multiply. */
        size += (size_t)((((word & 0x8080808080808080u) >> 7) * 0x0101010101010101u) >> 56);
    }
    for (; i < len; i++)
        size += in[i] >> 7;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out)
        return NULL;
    uint8_t *dst = (uint8_t *)PyBytes_AS_STRING(out);
    for (i = 0; i < len;) {
        uint64_t word;
        if (i + 8 <= len && (memcpy(&word, in + i, 8), !(word & 0x8080808080808080u))) {
            memcpy(dst, &word, 8);
            dst += 8;
            i += 8;
        } else if (in[i] < 0x80) {
            *dst++ = in[i++];
        } else {
            *dst++ = (uint8_t)(0xC0u | (in[i] >> 6));
            *dst++ = (uint8_t)(0x80u | (in[i] & 0x3Fu));
            i++;
        }
    }
    return out;
}

/* Code units below which a UCS-2 str is encoded to UTF-8 here, a unit at a
 * time: the library's vector step starts at 32 units and its setup costs
 * more than this loop below that. */
#define DIRECT_UCS2_UNITS 32

/*
 * UTF-8 of a short UCS-2 str, where setting up the general path costs more
 * than the conversion: a loop of its own up to DIRECT_UCS2_UNITS, the
 * library's encoder onto the stack (with room for three bytes a unit, its
 * fast loop's condition) above. NULL with no exception when the str has a
 * surrogate code point (two of them would read as a pair; the general path
 * reads each alone).
 */
static PyObject *ucs2_to_utf8(PyObject *text) {
    const Py_UCS2 *in = PyUnicode_2BYTE_DATA(text);
    size_t len = (size_t)PyUnicode_GET_LENGTH(text);
    if (ucs2_has_surrogate(in, len))
        return NULL;
    uint8_t out[3 * STACK_UNITS];
    size_t written = 0;
    if (len <= DIRECT_UCS2_UNITS) {
        for (size_t i = 0; i < len; i++) {
            Py_UCS2 c = in[i];
            if (c < 0x80u) {
                out[written++] = (uint8_t)c;
            } else if (c < 0x800u) {
                out[written++] = (uint8_t)(0xC0u | (c >> 6));
                out[written++] = (uint8_t)(0x80u | (c & 0x3Fu));
            } else {
                out[written++] = (uint8_t)(0xE0u | (c >> 12));
                out[written++] = (uint8_t)(0x80u | ((c >> 6) & 0x3Fu));
                out[written++] = (uint8_t)(0x80u | (c & 0x3Fu));
            }
        }
    } else {
        wenc_encoder enc;
        wenc_encoder_init(&enc, WENC_UTF_8, WENC_ERRORS_FATAL);
        size_t src_len = len;
        written = sizeof out;
        wenc_encode_from_utf16(&enc, in, &src_len, out, &written, true);
    }
    return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)written);
}

/* The Standard's encode of a str (a whole stream) into the output encoding
 * of `id` under `policy`. */
static PyObject *encode_object(PyObject *text, wenc_id id, errors_policy *policy) {
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
    if (PyUnicode_KIND(text) == PyUnicode_2BYTE_KIND && wenc_output_encoding(id) == WENC_UTF_8 &&
        PyUnicode_GET_LENGTH(text) <= STACK_UNITS) {
        PyObject *bytes = ucs2_to_utf8(text);
        if (bytes || PyErr_Occurred())
            return bytes;
    }
    wenc_encoder enc;
    wenc_encoder_init(&enc, id, library_mode(policy));
    uint64_t position = 0;
    return encode_with(&enc, policy, text, true, &position);
}

PyDoc_STRVAR(encode_doc,
"encode(text, label, *, errors='html') -> bytes\n\n"
"Encodes a str in the output encoding of `label` (UTF-8 for replacement,\n"
"UTF-16BE and UTF-16LE). errors: the Standard's 'html' (a code point the\n"
"encoding lacks becomes '&#N;') or 'fatal' (raise EncodeError), where a\n"
"surrogate code point is read as U+FFFD; or any of Python's error handlers\n"
"('strict', 'replace', 'ignore', 'xmlcharrefreplace', 'backslashreplace',\n"
"'namereplace', 'surrogateescape', 'surrogatepass', or a name registered\n"
"with codecs.register_error), where a surrogate code point is an error as\n"
"in CPython's codecs.");

static PyObject *module_encode(PyObject *module, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"text", "label", "errors"};
    PyObject *values[3];
    (void)module;
    if (parse_arguments("encode", args, nargs, kwnames, names, 3, 2, 2, values) < 0)
        return NULL;
    wenc_id id;
    errors_policy policy;
    if ((id = label_to_codec(values[1])) == WENC_INVALID ||
        parse_errors(values[2], false, ERRORS_HTML, &policy) < 0)
        return NULL;
    PyObject *bytes = encode_object(values[0], id, &policy);
    errors_policy_clear(&policy);
    return bytes;
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

PyDoc_STRVAR(decode_with_encoding_doc,
"decode_with_encoding(data, label='utf-8', *, errors='replacement', bom='sniff')\n"
"    -> (str, str)\n\n"
"decode(), and the name of the encoding it decoded with: the label's, or\n"
"the one a BOM chose. Returns (encoding name, text).");

static PyObject *module_decode_with_encoding(PyObject *module, PyObject *const *args,
                                             Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    wenc_id used;
    PyObject *text = decode_call("decode_with_encoding", args, nargs, kwnames, &used);
    return text ? Py_BuildValue("sN", wenc_name(used), text) : NULL;
}

/* A wenc_sniff_result as the tuple (encoding, confidence, source, offset,
 * length, need_more) that wenc.SniffResult names. */
static PyObject *sniff_tuple(wenc_sniff_result result) {
    PyObject *encoding = result.encoding == WENC_INVALID
                             ? Py_NewRef(Py_None)
                             : PyUnicode_FromString(wenc_name(result.encoding));
    if (!encoding)
        return NULL;
    return Py_BuildValue("NssnnO", encoding,
                         result.confidence == WENC_CONFIDENCE_CERTAIN ? "certain" : "tentative",
                         wenc_sniff_source_name(result.source), (Py_ssize_t)result.offset,
                         (Py_ssize_t)result.length, result.need_more ? Py_True : Py_False);
}

PyDoc_STRVAR(sniff_html_doc,
"sniff_html(data, transport_label=None, default=None) -> tuple\n\n"
"The HTML Standard's encoding sniffing over the first bytes of a document:\n"
"BOM, then the transport layer's label (Content-Type's charset), then the\n"
"prescan of the first 1024 bytes (<meta charset>, <meta http-equiv>, and an\n"
"XML declaration), then `default` (a label; None for windows-1252).\n"
"Returns (encoding, confidence, source, offset, length, need_more); wenc.\n"
"sniff_html wraps it in a SniffResult.");

static PyObject *module_sniff_html(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames) {
    static const char *const names[] = {"data", "transport_label", "default"};
    PyObject *values[3];
    (void)module;
    if (parse_arguments("sniff_html", args, nargs, kwnames, names, 3, 3, 1, values) < 0)
        return NULL;
    const char *label = NULL;
    Py_ssize_t label_len = 0;
    if (values[1] && values[1] != Py_None) {
        if (!PyUnicode_Check(values[1])) {
            PyErr_Format(PyExc_TypeError, "transport_label must be str or None, not %.100s",
                         Py_TYPE(values[1])->tp_name);
            return NULL;
        }
        /* A label that is not ASCII is no label: the step is passed over. */
        if (PyUnicode_IS_ASCII(values[1])) {
            label = (const char *)PyUnicode_DATA(values[1]);
            label_len = PyUnicode_GET_LENGTH(values[1]);
        }
    }
    wenc_id fallback = WENC_INVALID;
    if (values[2] && values[2] != Py_None && (fallback = label_to_id(values[2])) == WENC_INVALID)
        return NULL;
    Py_buffer view;
    if (get_bytes(values[0], &view) < 0)
        return NULL;
    wenc_sniff_result result = wenc_sniff_html(view.buf, (size_t)view.len, label,
                                               label ? (size_t)label_len : 0, fallback);
    PyBuffer_Release(&view);
    return sniff_tuple(result);
}

PyDoc_STRVAR(sniff_xml_encoding_doc,
"sniff_xml_encoding(data) -> tuple\n\n"
"The HTML Standard's get an XML encoding: the encoding an <?xml ...\n"
"encoding=\"...\"?> declaration at the start of data names, as declared.\n"
"Returns (encoding or None, confidence, source, offset, length,\n"
"need_more); wenc.sniff_xml_encoding wraps it in a SniffResult.");

static PyObject *module_sniff_xml_encoding(PyObject *module, PyObject *data) {
    (void)module;
    Py_buffer view;
    if (get_bytes(data, &view) < 0)
        return NULL;
    wenc_sniff_result result = wenc_sniff_xml_encoding(view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return sniff_tuple(result);
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
    errors_policy errors;  /* Decoder: errors= */
    wenc_id id;
    bool busy;             /* a call is running with the GIL released */
    bool fatal;
    bool ignore_bom;
    bool do_not_flush;
} decoder_object;

static void decoder_dealloc(decoder_object *self) {
    Py_XDECREF(self->queued);
    errors_policy_clear(&self->errors);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *decoder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"label", "errors", "bom", NULL};
    PyObject *label, *errors_arg = NULL, *bom_arg = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|OO:Decoder", keywords,
                                     &label, &errors_arg, &bom_arg))
        return NULL;
    wenc_id id;
    errors_policy errors;
    wenc_bom_mode bom;
    if ((id = label_to_codec(label)) == WENC_INVALID || parse_bom(bom_arg, &bom) < 0 ||
        parse_errors(errors_arg, true, ERRORS_REPLACEMENT, &errors) < 0)
        return NULL;
    decoder_object *self = (decoder_object *)type->tp_alloc(type, 0);
    if (!self) {
        errors_policy_clear(&errors);
        return NULL;
    }
    wenc_decoder_init(&self->decoder, id, bom, library_mode(&errors));
    self->errors = errors;
    self->id = id;
    self->fatal = errors.kind == ERRORS_FATAL;
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
        text = decode_with(&self->decoder, &self->errors, view.obj, view.buf,
                           (size_t)view.len, final, false, &self->position);
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

PyDoc_STRVAR(decoder_getstate_doc,
"getstate() -> (bytes, int)\n\n"
"The decoder's state, as Python's IncrementalDecoder.getstate() gives it:\n"
"the bytes it has read but not yet decoded, and an int that stands for the\n"
"rest (0 for a fresh decoder). setstate() takes it back.");

static PyObject *decoder_getstate(decoder_object *self, PyObject *unused) {
    (void)unused;
    if (decoder_enter(self) < 0)
        return NULL;
    wenc_decoder_state state;
    wenc_decoder_save(&self->decoder, &state);
    self->busy = false;
    return Py_BuildValue("y#k", (const char *)state.held, (Py_ssize_t)state.held_len,
                         (unsigned long)state.flags);
}

PyDoc_STRVAR(decoder_setstate_doc,
"setstate(state)\n\n"
"Puts the decoder in a state getstate() gave, of a decoder of the same\n"
"label and modes: decoding the rest of the stream then gives what the\n"
"saved decoder would have given. ValueError for a state no such decoder\n"
"is ever in (the decoder is then reset).");

static PyObject *decoder_setstate(decoder_object *self, PyObject *argument) {
    PyObject *held, *flags_object;
    if (!PyTuple_Check(argument)) {
        PyErr_Format(PyExc_TypeError, "setstate() takes a (bytes, int) tuple, not %.100s",
                     Py_TYPE(argument)->tp_name);
        return NULL;
    }
    if (!PyArg_ParseTuple(argument, "OO!;setstate() takes a (bytes, int) tuple", &held,
                          &PyLong_Type, &flags_object))
        return NULL;
    unsigned long long flags = PyLong_AsUnsignedLongLong(flags_object);
    if (flags == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return NULL;
        PyErr_Clear();
        flags = (unsigned long long)UINT32_MAX + 1; /* refused below */
    }
    Py_buffer view;
    if (get_bytes(held, &view) < 0)
        return NULL;
    wenc_decoder_state state;
    bool fits = (size_t)view.len <= sizeof state.held && flags <= UINT32_MAX;
    state.flags = (uint32_t)flags;
    state.held_len = fits ? (size_t)view.len : 0;
    if (fits)
        memcpy(state.held, view.buf, state.held_len);
    PyBuffer_Release(&view);
    if (decoder_enter(self) < 0)
        return NULL;
    bool restored = fits && wenc_decoder_restore(&self->decoder, &state);
    if (!restored)
        wenc_decoder_reset(&self->decoder);
    self->position = restored ? state.held_len : 0;
    self->busy = false;
    if (!restored)
        return PyErr_Format(PyExc_ValueError, "not a state of a %s decoder: %R",
                            wenc_name(self->id), argument);
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
    {"getstate", (PyCFunction)decoder_getstate, METH_NOARGS, decoder_getstate_doc},
    {"setstate", (PyCFunction)decoder_setstate, METH_O, decoder_setstate_doc},
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
    self->errors.kind = fatal ? ERRORS_FATAL : ERRORS_REPLACEMENT;
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
                        !stream, self->position, false, &consumed);
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
    uint64_t position;     /* input units read since init/reset */
    errors_policy errors;
    bool busy;
} encoder_object;

static void encoder_dealloc(encoder_object *self) {
    errors_policy_clear(&self->errors);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *encoder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"label", "errors", NULL};
    PyObject *label, *errors_arg = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|O:Encoder", keywords,
                                     &label, &errors_arg))
        return NULL;
    wenc_id id;
    errors_policy errors;
    if ((id = label_to_codec(label)) == WENC_INVALID ||
        parse_errors(errors_arg, false, ERRORS_HTML, &errors) < 0)
        return NULL;
    encoder_object *self = (encoder_object *)type->tp_alloc(type, 0);
    if (!self) {
        errors_policy_clear(&errors);
        return NULL;
    }
    wenc_encoder_init(&self->encoder, id, library_mode(&errors));
    self->errors = errors;
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
    PyObject *out = text ? encode_with(&self->encoder, &self->errors, text, final,
                                       &self->position)
                         : NULL;
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
    .tp_dealloc = (destructor)encoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = encoder_doc,
    .tp_methods = encoder_methods,
    .tp_getset = encoder_getset,
    .tp_new = encoder_new,
};

/* ---- codec functions -------------------------------------------------------- */

/*
 * The encode and decode functions of a whatwg: codec (its CodecInfo's), as
 * CPython calls them: decode(data, errors='strict') -> (str, bytes read),
 * encode(text, errors='strict') -> (bytes, characters read). Called
 * straight from bytes.decode() and str.encode(), with no Python frame
 * between.
 */
typedef struct codec_function {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    wenc_id id;
    bool encoding;
} codec_function;

static PyObject *codec_function_call(codec_function *self, PyObject *const *args,
                                     size_t nargsf, PyObject *kwnames) {
    static const char *const names[] = {"input", "errors"};
    PyObject *values[2];
    if (parse_arguments(self->encoding ? "encode" : "decode", args,
                        PyVectorcall_NARGS(nargsf), kwnames, names, 2, 2, 1, values) < 0)
        return NULL;
    errors_policy policy;
    if (parse_errors(values[1] == Py_None ? NULL : values[1], !self->encoding,
                     self->encoding ? ERRORS_STRICT : ERRORS_FATAL, &policy) < 0)
        return NULL;
    PyObject *output;
    Py_ssize_t read;
    if (self->encoding) {
        output = encode_object(values[0], self->id, &policy);
        read = output ? PyUnicode_GET_LENGTH(values[0]) : 0;
    } else {
        output = decode_object(values[0], self->id, WENC_BOM_SNIFF, &policy, &read, NULL);
    }
    errors_policy_clear(&policy);
    PyObject *length = output ? PyLong_FromSsize_t(read) : NULL;
    PyObject *result = length ? PyTuple_New(2) : NULL;
    if (!result) {
        Py_XDECREF(output);
        Py_XDECREF(length);
        return NULL;
    }
    PyTuple_SET_ITEM(result, 0, output);
    PyTuple_SET_ITEM(result, 1, length);
    return result;
}

static PyObject *codec_function_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"label", "encoding", NULL};
    PyObject *label;
    int encoding;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Up:CodecFunction", keywords, &label,
                                     &encoding))
        return NULL;
    wenc_id id = label_to_codec(label);
    if (id == WENC_INVALID)
        return NULL;
    codec_function *self = (codec_function *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->vectorcall = (vectorcallfunc)codec_function_call;
    self->id = id;
    self->encoding = encoding != 0;
    return (PyObject *)self;
}

static PyObject *codec_function_repr(codec_function *self) {
    return PyUnicode_FromFormat("<whatwg:%s %s>", wenc_name(self->id),
                                self->encoding ? "encode" : "decode");
}

PyDoc_STRVAR(codec_function_doc,
"CodecFunction(label, encoding)\n\n"
"The encode (encoding=True) or decode function of the codec whatwg:label:\n"
"decode(data, errors='strict') -> (str, length of data), the Standard's\n"
"decode (a BOM wins); encode(text, errors='strict') -> (bytes, len(text)).\n"
"errors: any of Python's error handlers or the Standard's modes.");

static PyTypeObject CodecFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wenc.CodecFunction",
    .tp_basicsize = sizeof(codec_function),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(codec_function, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)codec_function_repr,
    .tp_doc = codec_function_doc,
    .tp_new = codec_function_new,
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
    {"decode_with_encoding", (PyCFunction)(void (*)(void))module_decode_with_encoding,
     METH_FASTCALL | METH_KEYWORDS, decode_with_encoding_doc},
    {"sniff_html", (PyCFunction)(void (*)(void))module_sniff_html,
     METH_FASTCALL | METH_KEYWORDS, sniff_html_doc},
    {"sniff_xml_encoding", module_sniff_xml_encoding, METH_O, sniff_xml_encoding_doc},
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
    PyTypeObject *types[] = {&Decoder_Type, &TextDecoder_Type, &Encoder_Type,
                             &CodecFunction_Type};
    const char *type_names[] = {"Decoder", "TextDecoder", "Encoder", "CodecFunction"};
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

/*
 * Node-API addon: the Standard's API (§7) over libwenc. index.js does the
 * WebIDL conversions and calls these functions with checked arguments.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <wenc.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* How index.js tells decode() what its input is (times 2, plus stream). */
enum input_kind {
    INPUT_NONE = 0,
    INPUT_ARRAY_BUFFER = 1,
    INPUT_TYPED_ARRAY = 2,
    INPUT_DATA_VIEW = 3
};

/* Numbers core.js and the addon pass in a Float64Array (see lib/core.js). */
enum slot {
    SLOT_MODE,        /* decode(): input kind * 2 + stream */
    SLOT_BYTE_OFFSET, /* decode(): a typed array's range in its buffer */
    SLOT_BYTE_LENGTH,
    SLOT_READ,        /* encodeInto(): code units read */
    SLOT_WRITTEN,     /* encodeInto(): bytes written */
    SLOT_SOURCE_UNITS, /* encodeInto(): the source string's length */
    SLOT_POOL_OFFSET, /* encodeOnce(), encoderWrite(): where in the pool */
    SLOT_COUNT
};

/* The slots every caller passes; SLOT_POOL_OFFSET is optional (without it
 * there is no output pool). */
enum {
    SLOT_REQUIRED = SLOT_POOL_OFFSET
};

/* A buffer kept per Node.js environment (main thread or worker) and reused
 * between calls. */
typedef struct scratch {
    void *data;
    size_t capacity;
} scratch;

/* Bigger scratch buffers are freed after the call that needed them. */
#define SCRATCH_KEEP_LIMIT ((size_t)4 << 20)

typedef struct addon_state {
    scratch code_units;
    scratch bytes;
    napi_ref slots_ref;
    double *slots; /* slots_len numbers, at least SLOT_REQUIRED */
    size_t slots_len;
    napi_ref small_output_ref;
    uint8_t *small_output;     /* encodeSmall() writes here */
    size_t small_output_len;
    /* setOutputPool()'s Uint8Array: encodeOnce() and encoderWrite() put
     * their bytes there, at SLOT_POOL_OFFSET, when they fit. Its memory is
     * asked for at each call: the pool is the buffer of arrays core.js
     * returns, which a user can detach. */
    napi_ref pool_ref;
} addon_state;

/* Code units the scratch holds from the start, so that short strings are
 * read with one call. */
#define SCRATCH_INITIAL_UNITS 16384

typedef struct decoder_handle {
    wenc_text_decoder decoder;
    /* Input left in the I/O queue by a TypeError during a streaming call. */
    uint8_t *queued;
    size_t queued_len;
    /* The last decode() had stream true: the decoder was not renewed. */
    bool streaming;
    /* ASCII input decodes to itself (see ascii_decodes_to_itself()). */
    bool ascii_is_identity;
} decoder_handle;

#define NAPI_CALL(env, call)                                                 \
    do {                                                                     \
        if ((call) != napi_ok) {                                             \
            throw_last_error(env);                                           \
            return NULL;                                                     \
        }                                                                    \
    } while (0)

static void throw_last_error(napi_env env)
{
    const napi_extended_error_info *info = NULL;
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (pending)
        return;
    napi_get_last_error_info(env, &info);
    napi_throw_error(env, NULL,
                     info && info->error_message ? info->error_message
                                                 : "Node-API call failed");
}

static void *scratch_reserve(scratch *s, size_t size)
{
    if (size <= s->capacity && s->data)
        return s->data;
    size_t capacity = s->capacity ? s->capacity : 4096;
    while (capacity < size)
        capacity = capacity > SIZE_MAX / 2 ? size : capacity * 2;
    void *data = malloc(capacity);
    if (!data)
        return NULL;
    free(s->data);
    s->data = data;
    s->capacity = capacity;
    return data;
}

static void scratch_trim(scratch *s)
{
    if (s->capacity > SCRATCH_KEEP_LIMIT) {
        free(s->data);
        s->data = NULL;
        s->capacity = 0;
    }
}

static void free_addon_state(napi_env env, void *data, void *hint)
{
    addon_state *state = data;
    (void)hint;
    if (state->slots_ref)
        napi_delete_reference(env, state->slots_ref);
    if (state->small_output_ref)
        napi_delete_reference(env, state->small_output_ref);
    if (state->pool_ref)
        napi_delete_reference(env, state->pool_ref);
    free(state->code_units.data);
    free(state->bytes.data);
    free(state);
}

static void *throw_no_memory(napi_env env)
{
    napi_throw_range_error(env, NULL, "wenc: out of memory");
    return NULL;
}

/* decode() and encodeInto() before setSharedArrays(): only a caller of the
 * addon itself, not of index.js, can get here. */
static void *throw_no_slots(napi_env env)
{
    napi_throw_error(env, NULL, "wenc: setSharedArrays() was not called");
    return NULL;
}

static size_t element_size(napi_typedarray_type type)
{
    switch (type) {
    case napi_int16_array:
    case napi_uint16_array:
        return 2;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array:
        return 4;
    case napi_float64_array:
    case napi_bigint64_array:
    case napi_biguint64_array:
        return 8;
    default:
        return 1;
    }
}

/* read_string_prefix()'s first read, in code units (with the zero). */
#define FIRST_READ_UNITS ((size_t)1024)

/* Reads at most `limit` code units of a JS string into the code-unit
 * scratch; *len receives how many. One Node-API call when they fit in the
 * scratch as it is. */
static const uint16_t *read_string_prefix(napi_env env, addon_state *state,
                                          napi_value value, size_t limit,
                                          size_t *len)
{
    size_t room = state->code_units.capacity / 2;
    if (limit >= room) {
        /* Most strings are short: a first read of up to FIRST_READ_UNITS
         * units takes them whole (fewer copied than asked for), and spares
         * asking for the length. */
        size_t first = room < FIRST_READ_UNITS ? room : FIRST_READ_UNITS;
        if (first >= 2 && state->code_units.data) {
            size_t copied = 0;
            if (napi_get_value_string_utf16(env, value,
                                            state->code_units.data, first,
                                            &copied) != napi_ok) {
                throw_last_error(env);
                return NULL;
            }
            if (copied < first - 1) {
                *len = copied;
                return state->code_units.data;
            }
        }
        size_t length = 0;
        if (napi_get_value_string_utf16(env, value, NULL, 0, &length) !=
            napi_ok) {
            throw_last_error(env);
            return NULL;
        }
        if (length < limit)
            limit = length;
        if (limit > SIZE_MAX / 2 - 1)
            return throw_no_memory(env);
    }
    char16_t *units = scratch_reserve(&state->code_units, (limit + 1) * 2);
    if (!units)
        return throw_no_memory(env);
    if (napi_get_value_string_utf16(env, value, units, limit + 1, len) !=
        napi_ok) {
        throw_last_error(env);
        return NULL;
    }
    return units;
}

/* A JS string's UTF-16 code units, copied into the code-unit scratch. */
static const uint16_t *read_string(napi_env env, addon_state *state,
                                   napi_value value, size_t *len)
{
    return read_string_prefix(env, state, value, SIZE_MAX / 4, len);
}

/* Outputs of at least this many bytes are made through a Node Buffer. */
#define LARGE_OUTPUT ((size_t)1 << 16)

/* A new Uint8Array holding a copy of bytes[0..len). */
static napi_value new_uint8_array(napi_env env, const uint8_t *bytes,
                                  size_t len)
{
    void *data = NULL;
    napi_value buffer, array;
    if (len >= LARGE_OUTPUT) {
        /* Node's Buffer copy skips the zero fill an ArrayBuffer gets; its
         * ArrayBuffer is its own, of exactly len bytes, and a plain
         * Uint8Array over it is what the callers return. */
        napi_value node_buffer;
        size_t offset = 1;
        NAPI_CALL(env, napi_create_buffer_copy(env, len, bytes, &data,
                                               &node_buffer));
        NAPI_CALL(env, napi_get_typedarray_info(env, node_buffer, NULL, NULL,
                                                NULL, &buffer, &offset));
        NAPI_CALL(env, napi_create_typedarray(env, napi_uint8_array, len,
                                              buffer, offset, &array));
        return array;
    }
    NAPI_CALL(env, napi_create_arraybuffer(env, len, &data, &buffer));
    if (len)
        memcpy(data, bytes, len);
    NAPI_CALL(env, napi_create_typedarray(env, napi_uint8_array, len, buffer,
                                          0, &array));
    return array;
}

static bool is_ascii(const uint8_t *bytes, size_t len)
{
    const uint64_t high_bits = UINT64_C(0x8080808080808080);
    size_t i = 0;
#if defined(__SSE2__)
    /* 64 bytes per test: the OR of four vectors' high bits. */
    for (; i + 64 <= len; i += 64) {
        const uint8_t *at = bytes + i;
        __m128i any = _mm_or_si128(
            _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)at),
                         _mm_loadu_si128(
                             (const __m128i *)(const void *)(at + 16))),
            _mm_or_si128(_mm_loadu_si128(
                             (const __m128i *)(const void *)(at + 32)),
                         _mm_loadu_si128(
                             (const __m128i *)(const void *)(at + 48))));
        if (_mm_movemask_epi8(any))
            return false;
    }
#endif
    for (; i + 32 <= len; i += 32) {
        uint64_t words[4];
        memcpy(words, bytes + i, sizeof words);
        if ((words[0] | words[1] | words[2] | words[3]) & high_bits)
            return false;
    }
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, sizeof word);
        if (word & high_bits)
            return false;
    }
    for (; i < len; i++) {
        if (bytes[i] & 0x80)
            return false;
    }
    return true;
}

/* Encodings whose decoder maps every byte 00-7F to the same code point, from
 * any state the decoder is in when it is renewed. */
static bool ascii_decodes_to_itself(const char *encoding)
{
    return strcmp(encoding, "iso-2022-jp") != 0 &&
           strcmp(encoding, "utf-16be") != 0 &&
           strcmp(encoding, "utf-16le") != 0;
}

static void free_plain(napi_env env, void *data, void *hint)
{
    (void)env;
    (void)hint;
    free(data);
}

/* A JS value owning `data`, which `finalize` frees; on failure `data` is
 * freed at once and NULL returned with an exception pending. */
static napi_value new_external(napi_env env, void *data,
                               napi_finalize finalize)
{
    napi_value external;
    if (napi_create_external(env, data, finalize, NULL, &external) !=
        napi_ok) {
        finalize(env, data, NULL);
        throw_last_error(env);
        return NULL;
    }
    return external;
}

static void free_decoder_handle(napi_env env, void *data, void *hint)
{
    decoder_handle *handle = data;
    (void)env;
    (void)hint;
    free(handle->queued);
    free(handle);
}

/* decoderNew(label, fatal, ignoreBOM): [handle, encoding, fatal, ignoreBOM],
 * or null when the label is a RangeError. §7.2 new TextDecoder() */
static napi_value decoder_new(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value args[3], result, item;
    bool fatal = false, ignore_bom = false;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
    NAPI_CALL(env, napi_get_value_bool(env, args[1], &fatal));
    NAPI_CALL(env, napi_get_value_bool(env, args[2], &ignore_bom));
    size_t label_len = 0;
    NAPI_CALL(env, napi_get_value_string_utf8(env, args[0], NULL, 0,
                                              &label_len));
    char *label = malloc(label_len + 1);
    if (!label)
        return throw_no_memory(env);
    napi_get_value_string_utf8(env, args[0], label, label_len + 1, &label_len);
    decoder_handle *handle = calloc(1, sizeof *handle);
    if (!handle) {
        free(label);
        return throw_no_memory(env);
    }
    wenc_text_status status = wenc_text_decoder_init(
        &handle->decoder, label, label_len, fatal, ignore_bom);
    free(label);
    if (status != WENC_TEXT_OK) {
        free(handle);
        NAPI_CALL(env, napi_get_null(env, &result));
        return result;
    }
    napi_value external = new_external(env, handle, free_decoder_handle);
    if (!external)
        return NULL;
    const char *encoding = wenc_text_decoder_encoding(&handle->decoder);
    handle->ascii_is_identity = ascii_decodes_to_itself(encoding);
    NAPI_CALL(env, napi_create_array_with_length(env, 4, &result));
    NAPI_CALL(env, napi_set_element(env, result, 0, external));
    NAPI_CALL(env, napi_create_string_latin1(env, encoding, NAPI_AUTO_LENGTH,
                                             &item));
    NAPI_CALL(env, napi_set_element(env, result, 1, item));
    NAPI_CALL(env, napi_get_boolean(
                       env, wenc_text_decoder_fatal(&handle->decoder), &item));
    NAPI_CALL(env, napi_set_element(env, result, 2, item));
    NAPI_CALL(env,
              napi_get_boolean(
                  env, wenc_text_decoder_ignore_bom(&handle->decoder), &item));
    NAPI_CALL(env, napi_set_element(env, result, 3, item));
    return result;
}

/* The bytes of a typed array: its byte range, which index.js put in the
 * slots, of `buffer` when that is an ArrayBuffer; else (a SharedArrayBuffer,
 * which Node-API does not take as an ArrayBuffer) as V8 gives them. */
static bool typed_array_bytes(napi_env env, const double *slots,
                              napi_value array, napi_value buffer,
                              uint8_t **bytes, size_t *len)
{
    void *data = NULL;
    size_t buffer_len = 0;
    *bytes = NULL;
    *len = 0;
    if (napi_get_arraybuffer_info(env, buffer, &data, &buffer_len) ==
        napi_ok) {
        double offset = slots[SLOT_BYTE_OFFSET];
        double length = slots[SLOT_BYTE_LENGTH];
        if (!(offset >= 0 && length >= 0 && offset <= (double)buffer_len &&
              length <= (double)buffer_len - offset)) {
            napi_throw_range_error(env, NULL,
                                   "wenc: typed array outside its buffer");
            return false;
        }
        if (data) {
            *bytes = (uint8_t *)data + (size_t)offset;
            *len = (size_t)length;
        }
        return true;
    }
    napi_typedarray_type type;
    size_t length = 0;
    if (napi_get_typedarray_info(env, array, &type, &length, &data, NULL,
                                 NULL) != napi_ok)
        return false;
    if (data) {
        *bytes = data;
        *len = length * element_size(type);
    }
    return true;
}

/* The bytes of decode()'s input, of the kind index.js says. */
static bool input_bytes(napi_env env, const double *slots, napi_value input,
                        napi_value buffer, int kind, const uint8_t **bytes,
                        size_t *len)
{
    void *data = NULL;
    *bytes = NULL;
    *len = 0;
    if (kind == INPUT_TYPED_ARRAY) {
        uint8_t *view = NULL;
        bool ok = typed_array_bytes(env, slots, input, buffer, &view, len);
        *bytes = view;
        return ok;
    }
    if (kind == INPUT_ARRAY_BUFFER) {
        if (napi_get_arraybuffer_info(env, input, &data, len) != napi_ok)
            return false;
    } else if (kind == INPUT_DATA_VIEW) {
        if (napi_get_dataview_info(env, input, len, &data, NULL, NULL) !=
            napi_ok)
            return false;
    }
    if (!data)
        *len = 0;
    *bytes = data;
    return true;
}

static napi_value throw_decode_type_error(napi_env env,
                                          const decoder_handle *handle)
{
    char message[96];
    strcpy(message, "The encoded data is not valid ");
    strcat(message, wenc_text_decoder_encoding(&handle->decoder));
    napi_throw_type_error(env, NULL, message);
    return NULL;
}

/* decode(handle, input, buffer), with input's kind * 2 + stream in
 * SLOT_MODE, and buffer a typed array's buffer or undefined: the string.
 * §7.2 decode() */
static napi_value decoder_decode(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value args[3], result;
    decoder_handle *handle = NULL;
    addon_state *state = NULL;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    if (!state->slots)
        return throw_no_slots(env);
    double mode_slot = state->slots[SLOT_MODE];
    if (!(mode_slot >= 0 && mode_slot <= INPUT_DATA_VIEW * 2 + 1)) {
        napi_throw_type_error(env, NULL, "wenc: no such decode mode");
        return NULL;
    }
    int mode = (int)mode_slot;
    NAPI_CALL(env, napi_get_value_external(env, args[0], (void **)&handle));
    bool stream = mode & 1;
    const uint8_t *input;
    size_t len;
    if (!input_bytes(env, state->slots, args[1], args[2], mode >> 1, &input,
                     &len)) {
        throw_last_error(env);
        return NULL;
    }

    if (!handle->streaming && !stream && handle->ascii_is_identity &&
        is_ascii(input, len)) {
        NAPI_CALL(env, napi_create_string_latin1(env, (const char *)input, len,
                                                 &result));
        return result;
    }

    uint8_t *joined = NULL;
    if (handle->queued_len) {
        if (len > SIZE_MAX - handle->queued_len ||
            !(joined = malloc(handle->queued_len + len)))
            return throw_no_memory(env);
        memcpy(joined, handle->queued, handle->queued_len);
        if (len)
            memcpy(joined + handle->queued_len, input, len);
        len += handle->queued_len;
        input = joined;
        free(handle->queued);
        handle->queued = NULL;
        handle->queued_len = 0;
    }

    uint16_t *units = state->code_units.data;
    size_t written = state->code_units.capacity / 2, consumed = 0;
    wenc_text_status status = WENC_TEXT_BUFFER_TOO_SMALL;
    /* Short input goes straight into the scratch: the library checks the
     * room itself, and when it is short reads nothing. */
    if (len < written / 4)
        status = wenc_text_decoder_decode_utf16(
            &handle->decoder, input, len, stream, units, &written, &consumed);
    if (status == WENC_TEXT_BUFFER_TOO_SMALL) {
        size_t need = wenc_text_decoder_max_utf16_len(&handle->decoder, len);
        units = need < SIZE_MAX / 2
                    ? scratch_reserve(&state->code_units, need * 2)
                    : NULL;
        if (!units) {
            free(joined);
            return throw_no_memory(env);
        }
        written = need;
        status = wenc_text_decoder_decode_utf16(
            &handle->decoder, input, len, stream, units, &written, &consumed);
    }
    handle->streaming = stream;
    if (status == WENC_TEXT_TYPE_ERROR) {
        if (stream && consumed < len) {
            handle->queued = malloc(len - consumed);
            if (!handle->queued) {
                free(joined);
                return throw_no_memory(env);
            }
            memcpy(handle->queued, input + consumed, len - consumed);
            handle->queued_len = len - consumed;
        }
        free(joined);
        return throw_decode_type_error(env, handle);
    }
    free(joined);
    napi_status created =
        napi_create_string_utf16(env, units, written, &result);
    scratch_trim(&state->code_units);
    NAPI_CALL(env, created);
    return result;
}

/* encode(string): Uint8Array. §7.4 encode() */
static napi_value text_encode(napi_env env, napi_callback_info info)
{
    size_t argc = 1, len = 0;
    napi_value arg;
    addon_state *state = NULL;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL,
                                    (void **)&state));
    const uint16_t *units = read_string(env, state, arg, &len);
    if (!units)
        return NULL;
    uint8_t *bytes = len < SIZE_MAX / 3
                         ? scratch_reserve(&state->bytes, len * 3)
                         : NULL;
    if (!bytes)
        return throw_no_memory(env);
    size_t written = wenc_text_encode(units, len, bytes);
    napi_value result = new_uint8_array(env, bytes, written);
    scratch_trim(&state->code_units);
    scratch_trim(&state->bytes);
    return result;
}

/* encodeInto(string, uint8Array, buffer), with the array's byte range in
 * buffer in the slots: read and written go to the slots. §7.4 encodeInto() */
static napi_value text_encode_into(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value args[3];
    addon_state *state = NULL;
    uint8_t *data = NULL;
    size_t capacity = 0, length = 0;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    if (!state->slots)
        return throw_no_slots(env);
    if (!typed_array_bytes(env, state->slots, args[1], args[2], &data,
                           &capacity)) {
        throw_last_error(env);
        return NULL;
    }
    /* No more than capacity units fit; one more shows a surrogate pair's
     * second half. The string's length, which index.js gives, spares asking
     * V8 for it when the scratch is too small for the limit; a wrong one
     * can only make fewer units read. */
    size_t limit = capacity < SIZE_MAX / 4 ? capacity + 1 : SIZE_MAX / 4;
    double source_units = state->slots[SLOT_SOURCE_UNITS];
    if (source_units >= 0 && source_units < (double)limit)
        limit = (size_t)source_units;
    const uint16_t *units =
        read_string_prefix(env, state, args[0], limit, &length);
    if (!units)
        return NULL;
    size_t read = 0, written = 0;
    wenc_text_encode_into(units, length, data, capacity, &read, &written);
    scratch_trim(&state->code_units);
    state->slots[SLOT_READ] = (double)read;
    state->slots[SLOT_WRITTEN] = (double)written;
    return NULL;
}

/* encodeSmall(string): the UTF-8 length; the bytes go to the small output
 * array, which index.js copies. The string has at most a third of that
 * array's length in code units. §7.4 encode() */
static napi_value text_encode_small(napi_env env, napi_callback_info info)
{
    size_t argc = 1, length = 0;
    napi_value arg, result;
    addon_state *state = NULL;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL,
                                    (void **)&state));
    const uint16_t *units = read_string_prefix(
        env, state, arg, state->small_output_len / 3, &length);
    if (!units)
        return NULL;
    size_t written = wenc_text_encode(units, length, state->small_output);
    NAPI_CALL(env, napi_create_uint32(env, (uint32_t)written, &result));
    return result;
}

/* Keeps a typed array of index.js alive and returns its bytes. */
static void *hold_typed_array(napi_env env, napi_value array,
                              napi_typedarray_type want, size_t min_length,
                              napi_ref *ref, size_t *length)
{
    void *data = NULL;
    napi_typedarray_type type;
    if (napi_get_typedarray_info(env, array, &type, length, &data, NULL,
                                 NULL) != napi_ok) {
        throw_last_error(env);
        return NULL;
    }
    if (type != want || *length < min_length || !data) {
        napi_throw_type_error(env, NULL, "wenc: unexpected typed array");
        return NULL;
    }
    if (*ref)
        napi_delete_reference(env, *ref);
    if (napi_create_reference(env, array, 1, ref) != napi_ok) {
        throw_last_error(env);
        return NULL;
    }
    return data;
}

/* setSharedArrays(float64Array, uint8Array): the slots, and where
 * encodeSmall puts its bytes. */
static napi_value set_shared_arrays(napi_env env, napi_callback_info info)
{
    size_t argc = 2, length = 0;
    napi_value args[2];
    addon_state *state = NULL;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    state->slots = hold_typed_array(env, args[0], napi_float64_array,
                                    SLOT_REQUIRED, &state->slots_ref, &length);
    if (!state->slots)
        return NULL;
    state->slots_len = length;
    state->small_output =
        hold_typed_array(env, args[1], napi_uint8_array, 3,
                         &state->small_output_ref, &state->small_output_len);
    return NULL;
}

/* encoderStreamNew(): a handle. §7.6 new TextEncoderStream() */
static napi_value encoder_stream_new(napi_env env, napi_callback_info info)
{
    (void)info;
    wenc_text_encoder_stream *stream = malloc(sizeof *stream);
    if (!stream)
        return throw_no_memory(env);
    wenc_text_encoder_stream_init(stream);
    return new_external(env, stream, free_plain);
}

/* encoderStreamChunk(handle, string): Uint8Array, or undefined when there
 * is nothing to enqueue. §7.6 encode and enqueue a chunk */
static napi_value encoder_stream_chunk(napi_env env, napi_callback_info info)
{
    size_t argc = 2, len = 0;
    napi_value args[2];
    wenc_text_encoder_stream *stream = NULL;
    addon_state *state = NULL;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    NAPI_CALL(env, napi_get_value_external(env, args[0], (void **)&stream));
    const uint16_t *units = read_string(env, state, args[1], &len);
    if (!units)
        return NULL;
    uint8_t *bytes = len < SIZE_MAX / 3 - 1
                         ? scratch_reserve(&state->bytes, (len + 1) * 3)
                         : NULL;
    if (!bytes)
        return throw_no_memory(env);
    size_t written = wenc_text_encoder_stream_chunk(stream, units, len, bytes);
    napi_value result = written ? new_uint8_array(env, bytes, written) : NULL;
    scratch_trim(&state->code_units);
    scratch_trim(&state->bytes);
    return result;
}

/* encoderStreamFlush(handle): Uint8Array or undefined. §7.6 encode and
 * flush */
static napi_value encoder_stream_flush(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value arg;
    wenc_text_encoder_stream *stream = NULL;
    uint8_t bytes[3];
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL, NULL));
    NAPI_CALL(env, napi_get_value_external(env, arg, (void **)&stream));
    size_t written = wenc_text_encoder_stream_flush(stream, bytes);
    return written ? new_uint8_array(env, bytes, written) : NULL;
}

/* encodeLegacy(label, string, fatal), for tests and benchmarks only: the
 * string in the label's output encoding as a Uint8Array (unmappable code
 * points as "&#N;"), or with fatal the first unmappable code point as a
 * number; null for an unknown label. §6.1 encode */
static napi_value encode_legacy(napi_env env, napi_callback_info info)
{
    size_t argc = 3, label_len = 0, len = 0;
    napi_value args[3], result;
    bool fatal = false;
    char label[128];
    addon_state *state = NULL;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    NAPI_CALL(env, napi_get_value_string_utf8(env, args[0], label,
                                              sizeof label, &label_len));
    NAPI_CALL(env, napi_get_value_bool(env, args[2], &fatal));
    wenc_id id = label_len < sizeof label - 1 ? wenc_lookup(label, label_len)
                                              : WENC_INVALID;
    wenc_encoder encoder;
    if (id == WENC_INVALID ||
        !wenc_encoder_init(&encoder, id,
                           fatal ? WENC_ERRORS_FATAL : WENC_ERRORS_HTML)) {
        NAPI_CALL(env, napi_get_null(env, &result));
        return result;
    }
    const uint16_t *units = read_string(env, state, args[1], &len);
    if (!units)
        return NULL;
    size_t need = wenc_encoder_max_len(&encoder, len);
    uint8_t *bytes = need != SIZE_MAX ? malloc(need ? need : 1) : NULL;
    if (!bytes)
        return throw_no_memory(env);
    size_t read = len, written = need;
    wenc_status status =
        wenc_encode_from_utf16(&encoder, units, &read, bytes, &written, true);
    if (status == WENC_ERROR) {
        wenc_encode_error error;
        wenc_encoder_error(&encoder, &error);
        free(bytes);
        NAPI_CALL(env, napi_create_uint32(env, error.code_point, &result));
        return result;
    }
    result = new_uint8_array(env, bytes, written);
    free(bytes);
    scratch_trim(&state->code_units);
    return result;
}


/* ---- The wider API (lib/BACKEND.md): encodings by id ------------------ */

/* encodeOnce()'s and encoderOpen()'s modes. */
enum unmappable_mode {
    MODE_HTML = 0,
    MODE_FATAL = 1,
    MODE_SUBSTITUTE = 2,
    MODE_SKIP = 3
};

/* Like scratch_reserve(), keeping what the scratch holds. */
static void *scratch_grow(scratch *s, size_t size)
{
    if (size <= s->capacity && s->data)
        return s->data;
    size_t capacity = s->capacity ? s->capacity : 4096;
    while (capacity < size)
        capacity = capacity > SIZE_MAX / 2 ? size : capacity * 2;
    void *data = realloc(s->data, capacity);
    if (!data)
        return NULL;
    s->data = data;
    s->capacity = capacity;
    return data;
}

static bool get_id(napi_env env, napi_value value, wenc_id *id)
{
    int32_t number = -1;
    if (napi_get_value_int32(env, value, &number) != napi_ok)
        return false;
    if (number < 0 || number >= WENC_ENCODING_COUNT) {
        napi_throw_range_error(env, NULL, "wenc: no such encoding id");
        return false;
    }
    *id = (wenc_id)number;
    return true;
}

/* The bytes of a Uint8Array (any typed array: its bytes). */
static bool uint8_array_bytes(napi_env env, napi_value value,
                              const uint8_t **bytes, size_t *len)
{
    napi_typedarray_type type;
    void *data = NULL;
    size_t length = 0;
    if (napi_get_typedarray_info(env, value, &type, &length, &data, NULL,
                                 NULL) != napi_ok)
        return false;
    *bytes = data;
    *len = data ? length * element_size(type) : 0;
    return true;
}

/* labelId(label): the encoding's id, or -1. §4.2 get an encoding */
static napi_value label_id(napi_env env, napi_callback_info info)
{
    size_t argc = 1, len = 0;
    napi_value arg, result;
    char small[64];
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL, NULL));
    NAPI_CALL(env, napi_get_value_string_utf8(env, arg, small, sizeof small,
                                              &len));
    wenc_id id;
    if (len < sizeof small - 1) {
        id = wenc_lookup(small, len);
    } else {
        /* Long: whitespace around a label, or not a label. */
        NAPI_CALL(env, napi_get_value_string_utf8(env, arg, NULL, 0, &len));
        char *label = len < SIZE_MAX ? malloc(len + 1) : NULL;
        if (!label)
            return throw_no_memory(env);
        napi_get_value_string_utf8(env, arg, label, len + 1, &len);
        id = wenc_lookup(label, len);
        free(label);
    }
    NAPI_CALL(env, napi_create_int32(env, (int32_t)id, &result));
    return result;
}

/* encodingName(id): the name, lower case ("shift_jis"). */
static napi_value encoding_name(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value arg, result;
    wenc_id id;
    char lower[32];
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL, NULL));
    if (!get_id(env, arg, &id))
        return NULL;
    const char *name = wenc_name(id);
    size_t i = 0;
    for (; name[i] && i < sizeof lower - 1; i++)
        lower[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] + 32)
                                                    : name[i];
    NAPI_CALL(env, napi_create_string_latin1(env, lower, i, &result));
    return result;
}

static bool is_utf16(wenc_id id)
{
    return id == WENC_UTF_16BE || id == WENC_UTF_16LE;
}

/* canEncode(id): false for replacement (and an encoding not built in). */
static napi_value can_encode(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value arg, result;
    wenc_id id;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL, NULL));
    if (!get_id(env, arg, &id))
        return NULL;
    bool can = wenc_is_built_in(id) && (wenc_has_encoder(id) || is_utf16(id));
    NAPI_CALL(env, napi_get_boolean(env, can, &result));
    return result;
}

static napi_value throw_not_built_in(napi_env env)
{
    napi_throw_range_error(env, NULL,
                           "wenc: this build has no codec for the encoding");
    return NULL;
}

/* Encodings whose decoder, fresh, maps every byte 00-7F to the same code
 * point; a BOM is never ASCII, so no BOM mode changes that. */
static bool ascii_identity(wenc_id id)
{
    return id != WENC_ISO_2022_JP && !is_utf16(id) && id != WENC_REPLACEMENT;
}

/* Whether the caller takes the wider API's extended results: a decoder's
 * string in pieces (an array), an encoder's bytes in the shared arrays (a
 * number). core.js says so by passing slots with SLOT_POOL_OFFSET; a caller
 * with the six slots of the first contract (the WebAssembly backend's tests
 * compare with this addon that way) gets strings and Uint8Arrays, and
 * numbers from encodeOnce() only. */
static bool extended_results(const addon_state *state)
{
    return state->slots && state->slots_len > SLOT_POOL_OFFSET;
}

/* Strings longer than these (code units) are returned in pieces, an array
 * of strings core.js joins: V8 makes each piece in its young generation,
 * and joining makes a rope, where one long flat string would be allocated in
 * the large-object space, whose collection costs more than the decoding
 * (Node's own 1 MiB Buffer.toString() is several times slower than wenc's
 * decoders). */
#define PIECE_UNITS ((size_t)1 << 15)
#define PIECE_LATIN1 ((size_t)1 << 16)

/* A string of len UTF-16 code units (is_latin1: of len bytes, each a code
 * point), or an array of pieces of it. */
static napi_value new_string(napi_env env, const addon_state *state,
                             const void *text, size_t len, bool is_latin1)
{
    napi_value result, piece;
    size_t piece_len = is_latin1 ? PIECE_LATIN1 : PIECE_UNITS;
    if (len <= piece_len || !extended_results(state)) {
        if (is_latin1)
            NAPI_CALL(env, napi_create_string_latin1(env, text, len, &result));
        else
            NAPI_CALL(env, napi_create_string_utf16(env, text, len, &result));
        return result;
    }
    size_t count = (len + piece_len - 1) / piece_len;
    NAPI_CALL(env, napi_create_array_with_length(env, count, &result));
    for (size_t i = 0; i < count; i++) {
        size_t at = i * piece_len;
        size_t n = len - at < piece_len ? len - at : piece_len;
        if (is_latin1)
            NAPI_CALL(env, napi_create_string_latin1(
                               env, (const char *)text + at, n, &piece));
        else
            NAPI_CALL(env, napi_create_string_utf16(
                               env, (const char16_t *)text + at, n, &piece));
        NAPI_CALL(env, napi_set_element(env, result, (uint32_t)i, piece));
    }
    return result;
}

/* Decodes len bytes with `dec` into the code-unit scratch: the string (or
 * its pieces, see new_string()), or (fatal mode) the malformed sequence's
 * stream offset as a number. With
 * last, the decoder is reset for a new stream; after an error too. */
static napi_value decode_run(napi_env env, addon_state *state,
                             wenc_decoder *dec, const uint8_t *bytes,
                             size_t len, bool last)
{
    napi_value result;
    size_t need = wenc_decoder_max_utf16_len(dec, len);
    uint16_t *units = need < SIZE_MAX / 2 - 1
                          ? scratch_reserve(&state->code_units,
                                            (need + 1) * 2)
                          : NULL;
    if (!units)
        return throw_no_memory(env);
    size_t read = len, written = need;
    wenc_status status =
        wenc_decode_to_utf16(dec, bytes, &read, units, &written, last);
    if (status == WENC_ERROR) {
        wenc_decode_error error;
        wenc_decoder_error(dec, &error);
        wenc_decoder_reset(dec);
        NAPI_CALL(env, napi_create_double(env, (double)error.offset,
                                          &result));
        return result;
    }
    if (last)
        wenc_decoder_reset(dec);
    result = new_string(env, state, units, written, false);
    scratch_trim(&state->code_units);
    return result;
}

/* Whether any of the len code units (in the machine's byte order, at any
 * alignment) is a surrogate (D800-DFFF): four at a time, each lane masked with F800 and compared with D800 by the "has a
 * zero lane" test (exact for whether any lane is zero). */
static bool has_surrogate(const void *units, size_t len)
{
    const uint8_t *bytes = units;
    const uint64_t mask = UINT64_C(0xF800F800F800F800);
    const uint64_t surrogate = UINT64_C(0xD800D800D800D800);
    const uint64_t ones = UINT64_C(0x0001000100010001);
    const uint64_t highs = UINT64_C(0x8000800080008000);
    size_t i = 0;
#if defined(__SSE2__)
    /* Eight lanes at a time, 32 units per test. */
    const __m128i lane_mask = _mm_set1_epi16((short)0xF800);
    const __m128i lane_surrogate = _mm_set1_epi16((short)0xD800);
    for (; i + 32 <= len; i += 32) {
        const uint8_t *at = bytes + i * 2;
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)at);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(at + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(at + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(at + 48));
        __m128i any = _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi16(_mm_and_si128(a, lane_mask), lane_surrogate),
                _mm_cmpeq_epi16(_mm_and_si128(b, lane_mask), lane_surrogate)),
            _mm_or_si128(
                _mm_cmpeq_epi16(_mm_and_si128(c, lane_mask), lane_surrogate),
                _mm_cmpeq_epi16(_mm_and_si128(d, lane_mask),
                                lane_surrogate)));
        if (_mm_movemask_epi8(any))
            return true;
    }
#endif
    for (; i + 16 <= len; i += 16) {
        uint64_t w[4], any = 0;
        memcpy(w, bytes + i * 2, sizeof w);
        for (int k = 0; k < 4; k++) {
            uint64_t y = (w[k] & mask) ^ surrogate;
            any |= (y - ones) & ~y & highs;
        }
        if (any)
            return true;
    }
    for (; i < len; i++) {
        uint16_t unit;
        memcpy(&unit, bytes + i * 2, 2);
        if ((unit & 0xF800) == 0xD800)
            return true;
    }
    return false;
}

static bool little_endian_host(void)
{
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* decodeOnce()'s UTF-16LE in the common case, on a little-endian machine:
 * the bytes are the string's code units, when they have no surrogate (no
 * pair and no error to look into), an even length (no truncated unit), and
 * no other encoding's BOM to sniff. NULL when the library must decode. */
static napi_value utf16le_as_is(napi_env env, const addon_state *state,
                                const uint8_t *bytes, size_t len,
                                int bom_mode, bool *done)
{
    *done = false;
    if ((len & 1) || ((uintptr_t)bytes & 1) || !little_endian_host())
        return NULL;
    if (bom_mode != WENC_BOM_KEEP && len >= 2 && bytes[0] == 0xFF &&
        bytes[1] == 0xFE) {
        bytes += 2;
        len -= 2;
    } else if (bom_mode == WENC_BOM_SNIFF && len >= 2 &&
               (bytes[0] == 0xFE || bytes[0] == 0xEF)) {
        return NULL;
    }
    if (has_surrogate(bytes, len / 2))
        return NULL;
    *done = true;
    return new_string(env, state, bytes, len / 2, false);
}

/* decodeOnce(id, bytes, bomMode, fatal): the string, or in fatal mode the
 * offset of the first malformed sequence. §6 decode (bomMode 0) */
static napi_value decode_once(napi_env env, napi_callback_info info)
{
    size_t argc = 4;
    napi_value args[4];
    addon_state *state = NULL;
    wenc_id id;
    int32_t bom_mode = 0;
    bool fatal = false;
    const uint8_t *bytes = NULL;
    size_t len = 0;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    if (!get_id(env, args[0], &id))
        return NULL;
    NAPI_CALL(env, uint8_array_bytes(env, args[1], &bytes, &len)
                       ? napi_ok
                       : napi_invalid_arg);
    if (ascii_identity(id) && is_ascii(bytes, len))
        return new_string(env, state, bytes, len, true);
    NAPI_CALL(env, napi_get_value_int32(env, args[2], &bom_mode));
    NAPI_CALL(env, napi_get_value_bool(env, args[3], &fatal));
    if (id == WENC_UTF_16LE) {
        bool done;
        napi_value result =
            utf16le_as_is(env, state, bytes, len, bom_mode, &done);
        if (done)
            return result;
    }
    wenc_decoder dec;
    if (!wenc_decoder_init(&dec, id, (wenc_bom_mode)bom_mode,
                           fatal ? WENC_ERRORS_FATAL
                                 : WENC_ERRORS_REPLACEMENT))
        return throw_not_built_in(env);
    return decode_run(env, state, &dec, bytes, len, true);
}

/* The wider API's handles are ArrayBuffers holding plain structs (no
 * pointers kept between calls): the garbage collector frees them, with no
 * finalizer to wait for. Their backing stores are malloc-aligned. */
static void *new_handle(napi_env env, size_t size, napi_value *value)
{
    void *data = NULL;
    if (napi_create_arraybuffer(env, size, &data, value) != napi_ok) {
        throw_last_error(env);
        return NULL;
    }
    if (!data)
        return throw_no_memory(env);
    return data;
}

static void *handle_data(napi_env env, napi_value value, size_t size)
{
    void *data = NULL;
    size_t len = 0;
    if (napi_get_arraybuffer_info(env, value, &data, &len) != napi_ok ||
        !data || len < size) {
        napi_throw_type_error(env, NULL, "wenc: not a handle");
        return NULL;
    }
    return data;
}

/* decoderOpen(id, bomMode, fatal): a handle. */
static napi_value decoder_open(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value args[3], result;
    wenc_id id;
    int32_t bom_mode = 0;
    bool fatal = false;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
    if (!get_id(env, args[0], &id))
        return NULL;
    NAPI_CALL(env, napi_get_value_int32(env, args[1], &bom_mode));
    NAPI_CALL(env, napi_get_value_bool(env, args[2], &fatal));
    wenc_decoder dec;
    if (!wenc_decoder_init(&dec, id, (wenc_bom_mode)bom_mode,
                           fatal ? WENC_ERRORS_FATAL
                                 : WENC_ERRORS_REPLACEMENT))
        return throw_not_built_in(env);
    void *data = new_handle(env, sizeof dec, &result);
    if (!data)
        return NULL;
    memcpy(data, &dec, sizeof dec);
    return result;
}

/* decoderWrite(handle, bytes, last): the string, or the stream offset of a
 * malformed sequence (fatal mode; the handle is then reset). */
static napi_value decoder_write(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value args[3];
    addon_state *state = NULL;
    bool last = false;
    const uint8_t *bytes = NULL;
    size_t len = 0;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    wenc_decoder *dec = handle_data(env, args[0], sizeof *dec);
    if (!dec)
        return NULL;
    NAPI_CALL(env, uint8_array_bytes(env, args[1], &bytes, &len)
                       ? napi_ok
                       : napi_invalid_arg);
    NAPI_CALL(env, napi_get_value_bool(env, args[2], &last));
    return decode_run(env, state, dec, bytes, len, last);
}

/* An encoder with the binding's modes on top of the library's. */
typedef struct encoder_job {
    wenc_encoder encoder;
    int mode;
    /* The stream starts with EF BB BF (UTF-8 with bom; UTF-16's BOM is the
     * library's). */
    bool utf8_bom;
    bool at_start;
    /* Code units of substitutes fed through the encoder (ISO-2022-JP), which
     * its error offsets count and the caller's string does not hold. */
    uint64_t fed_units;
    /* MODE_SUBSTITUTE: the substitute's bytes; for ISO-2022-JP, whose bytes
     * depend on the encoder's state, its code units instead, fed through
     * the encoder so that it is written in the state the encoder is in. */
    const uint8_t *substitute;
    size_t substitute_len;
    const uint16_t *substitute_units;
    size_t substitute_units_len;
} encoder_job;

/* Initialises job for encoding id: false when not built in. */
static bool encoder_job_init(encoder_job *job, wenc_id id, int mode, bool bom)
{
    memset(job, 0, sizeof *job);
    job->mode = mode;
    job->at_start = true;
    if (is_utf16(id))
        return wenc_encoder_init_utf16(&job->encoder, id, bom);
    job->utf8_bom = bom && id == WENC_UTF_8;
    return wenc_encoder_init(&job->encoder, id,
                             mode == MODE_HTML ? WENC_ERRORS_HTML
                                               : WENC_ERRORS_FATAL);
}

static void encoder_job_reset(encoder_job *job)
{
    wenc_encoder_reset(&job->encoder);
    job->at_start = true;
    job->fed_units = 0;
}

/* A substitute's bytes in ISO-2022-JP as code units (its decoder): into
 * units, which has room for len + 1. Returns how many. */
static size_t iso_2022_jp_units(const uint8_t *bytes, size_t len,
                                uint16_t *units)
{
    wenc_decoder dec;
    size_t read = len, written = len + 1;
    if (!wenc_decoder_init(&dec, WENC_ISO_2022_JP, WENC_BOM_KEEP,
                           WENC_ERRORS_REPLACEMENT))
        return 0;
    wenc_decode_to_utf16(&dec, bytes, &read, units, &written, true);
    return written;
}

enum run_result { RUN_OK, RUN_UNMAPPABLE, RUN_NO_MEMORY };

/* Encodes units[0..len) with job into the byte scratch after the *out_len
 * bytes there, growing it. RUN_UNMAPPABLE (fatal mode): *error says which
 * code point and where in the stream. */
static enum run_result encode_run(addon_state *state, encoder_job *job,
                                  const uint16_t *units, size_t len,
                                  bool last, size_t *out_len,
                                  wenc_encode_error *error)
{
    scratch *out = &state->bytes;
    if (job->at_start) {
        job->at_start = false;
        if (job->utf8_bom) {
            if (!scratch_grow(out, *out_len + 3))
                return RUN_NO_MEMORY;
            memcpy((uint8_t *)out->data + *out_len, "\xEF\xBB\xBF", 3);
            *out_len += 3;
        }
    }
    size_t pos = 0;
    for (;;) {
        size_t need = wenc_encoder_max_len(&job->encoder, len - pos);
        if (need == SIZE_MAX || need > SIZE_MAX - *out_len ||
            !scratch_grow(out, *out_len + need))
            return RUN_NO_MEMORY;
        size_t read = len - pos, written = out->capacity - *out_len;
        wenc_status status = wenc_encode_from_utf16(
            &job->encoder, units + pos, &read, (uint8_t *)out->data + *out_len,
            &written, last);
        pos += read;
        *out_len += written;
        if (status == WENC_INPUT_EMPTY)
            return RUN_OK;
        if (status != WENC_ERROR)
            continue;
        wenc_encoder_error(&job->encoder, error);
        error->offset -= job->fed_units;
        if (job->mode == MODE_SKIP)
            continue;
        if (job->mode != MODE_SUBSTITUTE)
            return RUN_UNMAPPABLE;
        if (job->substitute_units) {
            /* Encodable from any state: core.js encoded it once. */
            size_t fed = job->substitute_units_len;
            for (size_t done = 0; done < fed;) {
                size_t room = wenc_encoder_max_len(&job->encoder, fed - done);
                if (room == SIZE_MAX || room > SIZE_MAX - *out_len ||
                    !scratch_grow(out, *out_len + room))
                    return RUN_NO_MEMORY;
                size_t n = fed - done, w = out->capacity - *out_len;
                wenc_status st = wenc_encode_from_utf16(
                    &job->encoder, job->substitute_units + done, &n,
                    (uint8_t *)out->data + *out_len, &w, false);
                done += n;
                *out_len += w;
                if (st == WENC_ERROR)
                    break;
            }
            job->fed_units += fed;
        } else if (job->substitute_len) {
            if (job->substitute_len > SIZE_MAX - *out_len ||
                !scratch_grow(out, *out_len + job->substitute_len))
                return RUN_NO_MEMORY;
            memcpy((uint8_t *)out->data + *out_len, job->substitute,
                   job->substitute_len);
            *out_len += job->substitute_len;
        }
    }
}

/* The output pool's bytes from SLOT_POOL_OFFSET on: false when there is no
 * pool, or it was detached. */
static bool pool_room(napi_env env, addon_state *state, uint8_t **at,
                      size_t *room)
{
    napi_value array;
    napi_typedarray_type type;
    size_t length = 0;
    void *data = NULL;
    if (!state->pool_ref || !state->slots ||
        state->slots_len <= SLOT_POOL_OFFSET ||
        napi_get_reference_value(env, state->pool_ref, &array) != napi_ok ||
        !array ||
        napi_get_typedarray_info(env, array, &type, &length, &data, NULL,
                                 NULL) != napi_ok ||
        type != napi_uint8_array || !data)
        return false;
    double offset = state->slots[SLOT_POOL_OFFSET];
    if (!(offset >= 0 && offset <= (double)length))
        return false;
    *at = (uint8_t *)data + (size_t)offset;
    *room = length - (size_t)offset;
    return true;
}

/* setOutputPool(uint8Array): where encodeOnce() and encoderWrite() may put
 * their bytes (see pool_room()). */
static napi_value set_output_pool(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value arg;
    addon_state *state = NULL;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, &arg, NULL,
                                    (void **)&state));
    if (state->pool_ref)
        napi_delete_reference(env, state->pool_ref);
    state->pool_ref = NULL;
    NAPI_CALL(env, napi_create_reference(env, arg, 1, &state->pool_ref));
    return NULL;
}

/* Outputs of up to this many bytes go to the small output array, which
 * core.js copies (SMALL_COPY_LOOP there). */
#define SMALL_COPY 64
/* Longer outputs up to this many bytes go to the output pool (core.js's
 * POOL_MAX_OUTPUT); longer ones get an ArrayBuffer of their own. */
#define POOL_MAX_OUTPUT 4096

/* The result of an encode_run(): the bytes' length when they went into the
 * small output array (up to SMALL_COPY bytes) or the output pool (more),
 * else a Uint8Array of them; [codePoint, offset]; or an exception. */
static napi_value encode_result(napi_env env, addon_state *state,
                                enum run_result run, const uint8_t *bytes,
                                size_t out_len,
                                const wenc_encode_error *error, bool once)
{
    napi_value result, item;
    if (run == RUN_NO_MEMORY)
        return throw_no_memory(env);
    if (run == RUN_UNMAPPABLE) {
        NAPI_CALL(env, napi_create_array_with_length(env, 2, &result));
        NAPI_CALL(env, napi_create_uint32(env, error->code_point, &item));
        NAPI_CALL(env, napi_set_element(env, result, 0, item));
        NAPI_CALL(env, napi_create_double(env, (double)error->offset, &item));
        NAPI_CALL(env, napi_set_element(env, result, 1, item));
        return result;
    }
    uint8_t *pool = NULL;
    size_t room = 0;
    if (out_len <= SMALL_COPY && (once || extended_results(state)) &&
        state->small_output &&
        state->small_output_len >= SMALL_COPY) {
        if (out_len)
            memcpy(state->small_output, bytes, out_len);
        NAPI_CALL(env, napi_create_uint32(env, (uint32_t)out_len, &result));
    } else if (out_len <= POOL_MAX_OUTPUT &&
               pool_room(env, state, &pool, &room) && out_len <= room) {
        memcpy(pool, bytes, out_len);
        NAPI_CALL(env, napi_create_uint32(env, (uint32_t)out_len, &result));
    } else {
        result = new_uint8_array(env, bytes, out_len);
    }
    scratch_trim(&state->bytes);
    return result;
}

/* A whole string in UTF-16LE or UTF-16BE (the library's UTF-16 encoder's
 * output, which reads one code point at a time: this copies), into the byte
 * scratch. Unpaired surrogates become U+FFFD, as every encoder reads them. */
static enum run_result utf16_run(addon_state *state, bool big_endian,
                                 bool bom, const uint16_t *units, size_t len,
                                 const uint8_t **output, size_t *out_len)
{
    if (len > SIZE_MAX / 2 - 2 || !scratch_grow(&state->bytes, len * 2 + 2))
        return RUN_NO_MEMORY;
    uint8_t *out = state->bytes.data;
    size_t n = 0;
    if (bom) {
        out[n++] = big_endian ? 0xFE : 0xFF;
        out[n++] = big_endian ? 0xFF : 0xFE;
    }
    /* Most text has no surrogates: then a copy (or a swap) does. */
    bool surrogates = has_surrogate(units, len);
    const uint16_t one = 1;
    uint8_t first_byte;
    memcpy(&first_byte, &one, 1);
    bool swap = (first_byte == 1) == big_endian;
    *output = out;
    if (!surrogates) {
        if (!swap && !bom) {
            /* The code units are the bytes. */
            *output = (const uint8_t *)units;
        } else if (!swap) {
            if (len)
                memcpy(out + n, units, len * 2);
        } else {
            for (size_t i = 0; i < len; i++) {
                uint16_t swapped =
                    (uint16_t)((units[i] >> 8) | (units[i] << 8));
                memcpy(out + n + 2 * i, &swapped, 2);
            }
        }
        *out_len = n + len * 2;
        return RUN_OK;
    }
    int high = big_endian ? 0 : 1;
    for (size_t i = 0; i < len; i++) {
        uint16_t unit = units[i];
        if ((unit & 0xF800) == 0xD800) {
            /* A high surrogate with its low one: both as they are. */
            if (unit < 0xDC00 && i + 1 < len &&
                (units[i + 1] & 0xFC00) == 0xDC00) {
                out[n + high] = (uint8_t)(unit >> 8);
                out[n + 1 - high] = (uint8_t)unit;
                n += 2;
                unit = units[++i];
            } else {
                unit = 0xFFFD;
            }
        }
        out[n + high] = (uint8_t)(unit >> 8);
        out[n + 1 - high] = (uint8_t)unit;
        n += 2;
    }
    *out_len = n;
    return RUN_OK;
}

/* Code units a string was read into, in place: lone surrogates to U+FFFD,
 * the BOM before them when head is 1, then swapped when the machine's
 * order is not the encoding's. */
static void utf16_fix_in_place(char16_t *data, size_t head, size_t len,
                               bool big_endian)
{
    char16_t *units = data + head;
    if (has_surrogate(units, len)) {
        for (size_t i = 0; i < len; i++) {
            if ((units[i] & 0xF800) != 0xD800)
                continue;
            if (units[i] < 0xDC00 && i + 1 < len &&
                (units[i + 1] & 0xFC00) == 0xDC00)
                i++;
            else
                units[i] = 0xFFFD;
        }
    }
    if (head)
        data[0] = 0xFEFF;
    if (little_endian_host() == big_endian) {
        for (size_t i = 0; i < head + len; i++)
            data[i] = (char16_t)((data[i] >> 8) | (data[i] << 8));
    }
}

/* UTF-16 outputs are written straight where they are returned from (no
 * scratch, no second copy): the string's code units are read there, then
 * fixed up in place. Outputs of SMALL_COPY < bytes <= POOL_MAX_OUTPUT into
 * the output pool (the length returned; the read's terminating zero lands
 * in the pool's free room after them), of LARGE_OUTPUT bytes and more into
 * a Node Buffer of their own. *done false: the caller encodes through the
 * scratch. */
static napi_value utf16_direct(napi_env env, addon_state *state,
                               napi_value string, bool big_endian, bool bom,
                               bool *done)
{
    size_t len = 0, copied = 0;
    *done = false;
    NAPI_CALL(env, napi_get_value_string_utf16(env, string, NULL, 0, &len));
    size_t head = bom ? 1 : 0;
    if (len > SIZE_MAX / 2 - 2 || len - 1 > UINT32_MAX)
        return NULL;
    size_t total = (head + len) * 2;
    napi_value result;
    if (total > SMALL_COPY && total <= POOL_MAX_OUTPUT &&
        extended_results(state)) {
        uint8_t *at = NULL;
        size_t room = 0;
        if (!pool_room(env, state, &at, &room) || total + 2 > room ||
            ((uintptr_t)at & 1))
            return NULL;
        char16_t *data = (char16_t *)(void *)at;
        NAPI_CALL(env, napi_get_value_string_utf16(env, string, data + head,
                                                   len + 1, &copied));
        if (copied != len)
            return NULL;
        utf16_fix_in_place(data, head, len, big_endian);
        NAPI_CALL(env, napi_create_uint32(env, (uint32_t)total, &result));
        *done = true;
        return result;
    }
    if (len < LARGE_OUTPUT / 2)
        return NULL;
    void *data = NULL;
    napi_value node_buffer, buffer, last_string;
    size_t offset = 1;
    NAPI_CALL(env, napi_create_buffer(env, total, &data, &node_buffer));
    if ((uintptr_t)data & 1)
        return NULL;
    char16_t *units = (char16_t *)data + head;
    /* The call writes a terminating zero after what it copies: it copies
     * len - 1 units here, and the last one is read on its own (a string's
     * element: no user code runs). */
    NAPI_CALL(env, napi_get_value_string_utf16(env, string, units, len,
                                               &copied));
    if (copied != len - 1)
        return NULL;
    char16_t last[2];
    NAPI_CALL(env, napi_get_element(env, string, (uint32_t)(len - 1),
                                    &last_string));
    NAPI_CALL(env, napi_get_value_string_utf16(env, last_string, last, 2,
                                               &copied));
    if (copied != 1)
        return NULL;
    units[len - 1] = last[0];
    utf16_fix_in_place(data, head, len, big_endian);
    /* A plain Uint8Array over the Buffer's own ArrayBuffer, as
     * new_uint8_array() makes. */
    NAPI_CALL(env, napi_get_typedarray_info(env, node_buffer, NULL, NULL,
                                            NULL, &buffer, &offset));
    NAPI_CALL(env, napi_create_typedarray(env, napi_uint8_array, total,
                                          buffer, offset, &result));
    *done = true;
    return result;
}

/* The substitute's units for ISO-2022-JP fit here up to this many. */
#define SMALL_SUBSTITUTE 32

/* encodeOnce(id, string, mode, substitute, bom): the bytes (see
 * encode_result()), or in fatal mode [codePoint, offset]. §6.1 encode, with
 * the binding's modes */
static napi_value encode_once(napi_env env, napi_callback_info info)
{
    size_t argc = 5, len = 0;
    napi_value args[5];
    addon_state *state = NULL;
    wenc_id id;
    int32_t mode = 0;
    bool bom = false;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    if (!get_id(env, args[0], &id))
        return NULL;
    NAPI_CALL(env, napi_get_value_int32(env, args[2], &mode));
    NAPI_CALL(env, napi_get_value_bool(env, args[4], &bom));
    encoder_job job;
    if (!encoder_job_init(&job, id, mode, bom))
        return throw_not_built_in(env);
    uint16_t small[SMALL_SUBSTITUTE + 1];
    uint16_t *fed = NULL;
    if (mode == MODE_SUBSTITUTE) {
        NAPI_CALL(env, uint8_array_bytes(env, args[3], &job.substitute,
                                         &job.substitute_len)
                           ? napi_ok
                           : napi_invalid_arg);
        if (id == WENC_ISO_2022_JP) {
            fed = job.substitute_len < SMALL_SUBSTITUTE
                      ? small
                      : malloc((job.substitute_len + 1) * 2);
            if (!fed)
                return throw_no_memory(env);
            job.substitute_units = fed;
            job.substitute_units_len =
                iso_2022_jp_units(job.substitute, job.substitute_len, fed);
        }
    }
    if (is_utf16(id)) {
        bool done = false;
        napi_value direct = utf16_direct(env, state, args[1],
                                         id == WENC_UTF_16BE, bom, &done);
        if (done || !direct) {
            bool pending = false;
            napi_is_exception_pending(env, &pending);
            if (done || pending)
                return direct;
        }
    }
    const uint16_t *units = read_string(env, state, args[1], &len);
    napi_value result = NULL;
    if (units) {
        size_t out_len = 0;
        wenc_encode_error error;
        const uint8_t *output = NULL;
        enum run_result run;
        if (is_utf16(id)) {
            run = utf16_run(state, id == WENC_UTF_16BE, bom, units, len,
                            &output, &out_len);
        } else {
            run = encode_run(state, &job, units, len, true, &out_len, &error);
            output = state->bytes.data;
        }
        result = encode_result(env, state, run, output, out_len, &error,
                               true);
        scratch_trim(&state->code_units);
    }
    if (fed != small)
        free(fed);
    return result;
}

/* An Encoder's handle: this, then the substitute's bytes, then (for
 * ISO-2022-JP) room for its code units. */
typedef struct encoder_handle {
    encoder_job job;
    size_t substitute_len;
    size_t units_offset; /* from the handle's start; 0: none */
    size_t units_len;
} encoder_handle;

/* Points the job at the substitute in the handle (the handle's address is
 * not kept between calls). */
static void encoder_handle_attach(encoder_handle *handle)
{
    uint8_t *base = (uint8_t *)handle;
    handle->job.substitute = base + sizeof *handle;
    handle->job.substitute_len = handle->substitute_len;
    handle->job.substitute_units =
        handle->units_offset
            ? (const uint16_t *)(void *)(base + handle->units_offset)
            : NULL;
    handle->job.substitute_units_len = handle->units_len;
}

/* encoderOpen(id, mode, substitute, bom): a handle. */
static napi_value encoder_open(napi_env env, napi_callback_info info)
{
    size_t argc = 4;
    napi_value args[4], result;
    wenc_id id;
    int32_t mode = 0;
    bool bom = false;
    const uint8_t *substitute = NULL;
    size_t substitute_len = 0;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL, NULL));
    if (!get_id(env, args[0], &id))
        return NULL;
    NAPI_CALL(env, napi_get_value_int32(env, args[1], &mode));
    NAPI_CALL(env, napi_get_value_bool(env, args[3], &bom));
    if (mode == MODE_SUBSTITUTE)
        NAPI_CALL(env, uint8_array_bytes(env, args[2], &substitute,
                                         &substitute_len)
                           ? napi_ok
                           : napi_invalid_arg);
    encoder_job job;
    if (!encoder_job_init(&job, id, mode, bom))
        return throw_not_built_in(env);
    size_t size = sizeof(encoder_handle), units_offset = 0;
    if (substitute_len > SIZE_MAX / 4 - size)
        return throw_no_memory(env);
    size += substitute_len;
    if (id == WENC_ISO_2022_JP && substitute_len) {
        units_offset = (size + 1) & ~(size_t)1;
        size = units_offset + (substitute_len + 1) * 2;
    }
    encoder_handle *handle = new_handle(env, size, &result);
    if (!handle)
        return NULL;
    handle->job = job;
    handle->substitute_len = substitute_len;
    handle->units_offset = units_offset;
    if (substitute_len)
        memcpy((uint8_t *)handle + sizeof *handle, substitute,
               substitute_len);
    if (units_offset)
        handle->units_len = iso_2022_jp_units(
            substitute, substitute_len,
            (uint16_t *)(void *)((uint8_t *)handle + units_offset));
    return result;
}

/* encoderWrite(handle, string, last): a Uint8Array, or [codePoint, offset]
 * with the offset from the start of the stream (the handle is then reset).
 * With last the handle starts a new stream after. */
static napi_value encoder_write(napi_env env, napi_callback_info info)
{
    size_t argc = 3, len = 0;
    napi_value args[3];
    addon_state *state = NULL;
    bool last = false;
    NAPI_CALL(env, napi_get_cb_info(env, info, &argc, args, NULL,
                                    (void **)&state));
    encoder_handle *handle = handle_data(env, args[0], sizeof *handle);
    if (!handle)
        return NULL;
    NAPI_CALL(env, napi_get_value_bool(env, args[2], &last));
    const uint16_t *units = read_string(env, state, args[1], &len);
    if (!units)
        return NULL;
    encoder_handle_attach(handle);
    size_t out_len = 0;
    wenc_encode_error error;
    enum run_result run =
        encode_run(state, &handle->job, units, len, last, &out_len, &error);
    scratch_trim(&state->code_units);
    if (run != RUN_OK || last)
        encoder_job_reset(&handle->job);
    return encode_result(env, state, run, state->bytes.data, out_len, &error,
                         false);
}

NAPI_MODULE_INIT()
{
    addon_state *state = calloc(1, sizeof *state);
    if (!state)
        return throw_no_memory(env);
    if (napi_set_instance_data(env, state, free_addon_state, NULL) !=
        napi_ok) {
        free(state);
        throw_last_error(env);
        return NULL;
    }
    if (!scratch_reserve(&state->code_units, SCRATCH_INITIAL_UNITS * 2))
        return throw_no_memory(env);
    const napi_property_descriptor functions[] = {
        {"decoderNew", NULL, decoder_new, NULL, NULL, NULL, napi_default,
         state},
        {"decode", NULL, decoder_decode, NULL, NULL, NULL, napi_default, state},
        {"encode", NULL, text_encode, NULL, NULL, NULL, napi_default, state},
        {"encodeInto", NULL, text_encode_into, NULL, NULL, NULL, napi_default,
         state},
        {"encodeSmall", NULL, text_encode_small, NULL, NULL, NULL,
         napi_default, state},
        {"setSharedArrays", NULL, set_shared_arrays, NULL, NULL, NULL,
         napi_default, state},
        {"encoderStreamNew", NULL, encoder_stream_new, NULL, NULL, NULL,
         napi_default, state},
        {"encoderStreamChunk", NULL, encoder_stream_chunk, NULL, NULL, NULL,
         napi_default, state},
        {"encoderStreamFlush", NULL, encoder_stream_flush, NULL, NULL, NULL,
         napi_default, state},
        {"encodeLegacy", NULL, encode_legacy, NULL, NULL, NULL, napi_default,
         state},
        {"setOutputPool", NULL, set_output_pool, NULL, NULL, NULL,
         napi_default, state},
        {"labelId", NULL, label_id, NULL, NULL, NULL, napi_default, state},
        {"encodingName", NULL, encoding_name, NULL, NULL, NULL, napi_default,
         state},
        {"canEncode", NULL, can_encode, NULL, NULL, NULL, napi_default,
         state},
        {"decodeOnce", NULL, decode_once, NULL, NULL, NULL, napi_default,
         state},
        {"encodeOnce", NULL, encode_once, NULL, NULL, NULL, napi_default,
         state},
        {"decoderOpen", NULL, decoder_open, NULL, NULL, NULL, napi_default,
         state},
        {"decoderWrite", NULL, decoder_write, NULL, NULL, NULL, napi_default,
         state},
        {"encoderOpen", NULL, encoder_open, NULL, NULL, NULL, napi_default,
         state},
        {"encoderWrite", NULL, encoder_write, NULL, NULL, NULL, napi_default,
         state},
    };
    NAPI_CALL(env, napi_define_properties(
                       env, exports, sizeof functions / sizeof functions[0],
                       functions));
    return exports;
}

'use strict';
// The WebAssembly backend of lib/core.js (lib/BACKEND.md, the contract),
// over dist/wenc.wasm (glue.c and libwenc). Standard JavaScript only, no
// require: wasm/build.sh wraps this file into an ES module for browsers,
// Deno and Bun, and wasm.js requires it in Node.
//
// module.exports = createBackend(wasmModule): a backend over a new instance
// of the compiled module (a WebAssembly.Module), which imports nothing.
//
// Memory: the module's linear memory never grows. glue.c has one input
// buffer, one output buffer and one state struct; a larger input goes
// through in pieces of the input buffer's size. A handle's decoder or
// encoder state is a small Uint8Array here, copied into the state struct
// before each call and back after it, so the module owns nothing per handle
// and nothing needs freeing.
//
// Strings in and out: a string goes into linear memory as UTF-16 through
// Node's and Bun's Buffer ucs2Write (a copy of its code units), elsewhere
// through a charCodeAt loop for the single-byte and multi-byte encoders
// (whose table paths in glue.c read UTF-16) and as UTF-8 through the
// host's TextEncoder.encodeInto() for the others (whichever measured
// faster); the library's encoders read unpaired surrogates as
// U+FFFD from either, as every encoder of the Standard reads them. Decoded
// UTF-16 becomes a string through Buffer's ucs2Slice where there is one
// (a copy into a new string), else through the host's
// TextDecoder('utf-16le'), and through String.fromCharCode for short
// strings; ASCII input through latin1Slice or the host's UTF-8 TextDecoder.

module.exports = function createBackend(wasmModule, options = undefined) {
  // options.utf8Input (for tests): strings go in as UTF-8 always, as in a
  // browser.
  const forceUtf8 = Boolean(options && options.utf8Input);
  const instance = new WebAssembly.Instance(wasmModule, {});
  const wasm = instance.exports;
  const memory = wasm.memory;

  // glue.c's layout (wg_layout()).
  const layout = new Uint32Array(memory.buffer, wasm.wg_layout(), 9);
  const IN = layout[0];
  const IN_BYTES = layout[1];
  const OUT = layout[2];
  const STATE = layout[4];
  const IO = layout[5];
  const TEXT_DECODER_SIZE = layout[6];
  const DECODER_SIZE = layout[7];
  const ENCODER_SIZE = layout[8];

  // glue.c's io slots.
  const IO_CONSUMED = 0;
  const IO_WRITTEN = 1;
  const IO_ERROR_A = 2;
  const IO_ERROR_B = 3;

  // wenc_status, wenc_text_status.
  const INPUT_EMPTY = 0;
  const ERROR = 2;
  const TEXT_TYPE_ERROR = 2;

  // wenc_id (include/wenc.h), the Standard's table order.
  const UTF_8 = 0;
  const ISO_2022_JP = 33;
  const REPLACEMENT = 36;
  const UTF_16BE = 37;
  const UTF_16LE = 38;
  const ENCODING_COUNT = 40;

  // encodeOnce()'s and encoderOpen()'s modes.
  const MODE_HTML = 0;
  const MODE_FATAL = 1;
  const MODE_SUBSTITUTE = 2;

  // Views of linear memory. It never grows, so they stay valid; should it
  // ever grow (the old buffer is then detached and heap.length 0), views()
  // makes them anew.
  let heap;
  let heap16;
  let io;
  let inView;
  let textDecoderState;
  let decoderState;
  let encoderState;
  function views() {
    const buffer = memory.buffer;
    heap = new Uint8Array(buffer);
    heap16 = new Uint16Array(buffer);
    io = new Float64Array(buffer, IO, 4);
    inView = new Uint8Array(buffer, IN, IN_BYTES);
    textDecoderState = new Uint8Array(buffer, STATE, TEXT_DECODER_SIZE);
    decoderState = new Uint8Array(buffer, STATE, DECODER_SIZE);
    encoderState = new Uint8Array(buffer, STATE, ENCODER_SIZE);
  }
  views();
  const checkViews = () => {
    if (heap.length === 0) views();
  };

  const EMPTY = new Uint8Array(0);
  const hostEncoder = new TextEncoder();

  // ---- strings out ----------------------------------------------------

  const bufferPrototype = typeof globalThis.Buffer === 'function' ?
    globalThis.Buffer.prototype : undefined;
  // A Buffer method that works on a plain Uint8Array, or undefined.
  function bufferMethod(name) {
    const method = bufferPrototype && bufferPrototype[name];
    if (typeof method !== 'function') return undefined;
    try {
      const probe = new Uint8Array([0x41, 0x00]);
      return method.call(probe, 0, 2) === (name === 'ucs2Slice' ? 'A' :
        'A\0') ? method : undefined;
    } catch {
      return undefined;
    }
  }
  const ucs2Slice = bufferMethod('ucs2Slice');
  const latin1Slice = bufferMethod('latin1Slice');
  let utf16Decoder;
  let utf8Decoder;
  try {
    utf16Decoder = new TextDecoder('utf-16le');
    utf8Decoder = new TextDecoder('utf-8');
  } catch {
    // A host without TextDecoder (or without UTF-16): String.fromCharCode.
  }
  // Below this many code units String.fromCharCode beats the host's
  // decoders.
  const SHORT_UNITS = 24;
  const CHAR_CODE_CHUNK = 8192;

  // Strings of at most this many code units (32 KiB) are made one by one
  // and joined: V8 makes bigger ones in its large-object space, which
  // measured a 1 MiB decode 20 ms instead of 1 ms.
  const STRING_UNITS = 16384;

  // The string of the `units` UTF-16 code units at OUT.
  function outputString(units) {
    if (units <= STRING_UNITS) return outputPart(OUT, units);
    let string = '';
    for (let at = 0; at < units; at += STRING_UNITS) {
      string += outputPart(OUT + at * 2, Math.min(STRING_UNITS, units - at));
    }
    return string;
  }

  // The string of the `units` UTF-16 code units at byte `start`.
  function outputPart(start, units) {
    const end = start + units * 2;
    if (units <= SHORT_UNITS) {
      let string = '';
      for (let i = start; i < end; i += 2) {
        string += String.fromCharCode(heap[i] | (heap[i + 1] << 8));
      }
      return string;
    }
    if (ucs2Slice !== undefined) return ucs2Slice.call(heap, start, end);
    if (utf16Decoder !== undefined) {
      return utf16Decoder.decode(heap.subarray(start, end));
    }
    const codeUnits = new Uint16Array(memory.buffer, start, units);
    let string = '';
    for (let i = 0; i < units; i += CHAR_CODE_CHUNK) {
      string += String.fromCharCode.apply(null,
        codeUnits.subarray(i, i + CHAR_CODE_CHUNK));
    }
    return string;
  }

  // The string of the `length` ASCII bytes at IN.
  function asciiString(length) {
    if (length <= SHORT_UNITS) {
      let string = '';
      for (let i = IN; i < IN + length; i++) {
        string += String.fromCharCode(heap[i]);
      }
      return string;
    }
    if (latin1Slice !== undefined) return latin1Slice.call(heap, IN, IN + length);
    if (utf8Decoder !== undefined) {
      return utf8Decoder.decode(heap.subarray(IN, IN + length));
    }
    let string = '';
    for (let i = 0; i < length; i += CHAR_CODE_CHUNK) {
      string += String.fromCharCode.apply(null,
        heap.subarray(IN + i, IN + Math.min(length, i + CHAR_CODE_CHUNK)));
    }
    return string;
  }

  // Copies bytes[from..from+length) to IN.
  function copyIn(bytes, from, length) {
    if (length <= 16) {
      for (let i = 0; i < length; i++) heap[IN + i] = bytes[from + i];
    } else if (from === 0 && length === bytes.length) {
      heap.set(bytes, IN);
    } else {
      heap.set(bytes.subarray(from, from + length), IN);
    }
  }

  // The NUL-terminated ASCII string at `pointer`.
  function cString(pointer) {
    let string = '';
    for (let i = pointer; heap[i] !== 0; i++) {
      string += String.fromCharCode(heap[i]);
    }
    return string;
  }

  // Puts a label's UTF-8 at IN: its length, or -1 when it cannot be a
  // label (get an encoding trims ASCII whitespace, done here for long
  // strings, which glue.c would not take whole; labels are short).
  const ASCII_WHITESPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
  function putLabel(label) {
    if (label.length > 64) {
      label = label.replace(ASCII_WHITESPACE, '');
      if (label.length > 64) return -1;
    }
    return hostEncoder.encodeInto(label, inView).written;
  }

  // Decoders of these encodings map ASCII bytes to the same code points
  // from their initial state (a BOM is never ASCII).
  const asciiIdentity = (id) => id !== ISO_2022_JP && id !== UTF_16BE &&
    id !== UTF_16LE && id !== REPLACEMENT;

  // The engine's own accessors, which user code cannot replace: reader(C,
  // name)(object) reads C.prototype's getter `name` on object.
  const reader = (prototype, name) => Function.prototype.call.bind(
    Object.getOwnPropertyDescriptor(prototype, name).get);
  const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
  const [typedArrayName, typedArrayBuffer, typedArrayByteOffset,
    typedArrayByteLength] = [Symbol.toStringTag, 'buffer', 'byteOffset',
    'byteLength'].map((name) => reader(TypedArray, name));
  const [dataViewBuffer, dataViewByteOffset, dataViewByteLength] =
    ['buffer', 'byteOffset', 'byteLength'].map((name) =>
      reader(DataView.prototype, name));
  const arrayBufferByteLength = reader(ArrayBuffer.prototype, 'byteLength');
  const sharedByteLength = typeof SharedArrayBuffer === 'function' ?
    reader(SharedArrayBuffer.prototype, 'byteLength') : undefined;

  // Whether buffer is a SharedArrayBuffer (its byteLength getter's brand
  // check).
  function isShared(buffer) {
    if (sharedByteLength === undefined) return false;
    try {
      sharedByteLength(buffer);
      return true;
    } catch {
      return false;
    }
  }

  // ---- shared numbers ---------------------------------------------------

  const SLOT_MODE = 0;
  const SLOT_BYTE_OFFSET = 1;
  const SLOT_BYTE_LENGTH = 2;
  const SLOT_READ = 3;
  const SLOT_WRITTEN = 4;
  const SLOT_POOL_OFFSET = 6;
  let slots = new Float64Array(6);
  let smallOutput = new Uint8Array(768);
  // The extended results (lib/BACKEND.md): an encoder output of up to
  // SMALL_OUTPUT bytes goes into smallOutput, one of up to POOL_OUTPUT
  // into the pool at slot 6, and encodeOnce()/encoderWrite() return its
  // length: making an ArrayBuffer costs more than encoding a KiB.
  const SMALL_OUTPUT = 64;
  const POOL_OUTPUT = 4096;
  let pooling = false;
  let outputPool = null;

  function setSharedArrays(sharedSlots, sharedSmallOutput) {
    slots = sharedSlots;
    smallOutput = sharedSmallOutput;
    pooling = slots.length > SLOT_POOL_OFFSET;
  }

  function setOutputPool(pool) {
    outputPool = pool;
  }

  // The ids above are the library's.
  for (const [id, name] of [[UTF_8, 'UTF-8'], [ISO_2022_JP, 'ISO-2022-JP'],
    [REPLACEMENT, 'replacement'], [UTF_16BE, 'UTF-16BE'],
    [UTF_16LE, 'UTF-16LE']]) {
    if (cString(wasm.wg_name(id)) !== name) {
      throw new Error(`wenc: the WebAssembly module's encoding ${id} is not ` +
        `${name}: backend.js and the module disagree`);
    }
  }

  // ---- TextDecoder (§7.2) ---------------------------------------------

  const INPUT_ARRAY_BUFFER = 1;
  const INPUT_TYPED_ARRAY = 2;
  const INPUT_DATA_VIEW = 3;

  function decoderNew(label, fatal, ignoreBOM) {
    checkViews();
    const length = putLabel(label);
    if (length < 0) return null;
    const name = wasm.wg_text_decoder_init(length, fatal ? 1 : 0,
      ignoreBOM ? 1 : 0);
    if (name === 0) return null;
    const encoding = cString(name);
    const handle = {
      state: textDecoderState.slice(),
      encoding,
      // Input left in the I/O queue by a TypeError during a streaming call.
      queued: EMPTY,
      // The last decode() had stream true: the decoder was not renewed.
      streaming: false,
      asciiIdentity: encoding !== 'iso-2022-jp' && encoding !== 'utf-16be' &&
        encoding !== 'utf-16le',
    };
    return [handle, encoding, Boolean(fatal), Boolean(ignoreBOM)];
  }

  // decode()'s input as a Uint8Array (EMPTY for none or no bytes).
  function decodeInputBytes(kind, input, buffer) {
    if (kind === INPUT_TYPED_ARRAY) {
      // Without its buffer (core.js's Uint8Array over a SharedArrayBuffer)
      // the slots do not hold its range.
      if (typedArrayName(input) === 'Uint8Array') return input;
      if (buffer === undefined) {
        return new Uint8Array(typedArrayBuffer(input),
          typedArrayByteOffset(input), typedArrayByteLength(input));
      }
      const length = slots[SLOT_BYTE_LENGTH];
      if (length === 0) return EMPTY;
      return new Uint8Array(buffer, slots[SLOT_BYTE_OFFSET], length);
    }
    if (kind === INPUT_ARRAY_BUFFER) {
      return arrayBufferByteLength(input) === 0 ? EMPTY :
        new Uint8Array(input);
    }
    if (kind === INPUT_DATA_VIEW) {
      const length = dataViewByteLength(input);
      return length === 0 ? EMPTY : new Uint8Array(dataViewBuffer(input),
        dataViewByteOffset(input), length);
    }
    return EMPTY;
  }

  function joinBytes(first, second) {
    const joined = new Uint8Array(first.length + second.length);
    joined.set(first, 0);
    joined.set(second, first.length);
    return joined;
  }

  function decode(handle, input, buffer) {
    checkViews();
    const mode = slots[SLOT_MODE];
    const stream = (mode & 1) === 1;
    let bytes = decodeInputBytes(mode >> 1, input, buffer);
    if (handle.queued.length !== 0) {
      bytes = joinBytes(handle.queued, bytes);
      handle.queued = EMPTY;
    }
    const length = bytes.length;
    let copied = false;
    // A renewed decoder over ASCII: the bytes are the string.
    if (!handle.streaming && !stream && handle.asciiIdentity &&
        length <= IN_BYTES) {
      copyIn(bytes, 0, length);
      if (wasm.wg_is_ascii(length)) return asciiString(length);
      copied = true;
    }
    textDecoderState.set(handle.state);
    let string = '';
    let from = 0;
    do {
      const size = Math.min(length - from, IN_BYTES);
      if (!copied) copyIn(bytes, from, size);
      const final = from + size === length;
      // The pieces before the last are streamed whatever `stream` is.
      const status = wasm.wg_text_decode(size, final && !stream ? 0 : 1);
      const written = io[IO_WRITTEN];
      if (written !== 0) string += outputString(written);
      if (status === TEXT_TYPE_ERROR) {
        const rest = from + io[IO_CONSUMED];
        if (stream) {
          if (rest < length) handle.queued = bytes.slice(rest);
        } else if (!final) {
          // The stream ends here, as it would have in one call: the next
          // decode() renews the decoder.
          wasm.wg_text_decode(0, 0);
        }
        handle.streaming = stream;
        handle.state.set(textDecoderState);
        throw new TypeError(`The encoded data is not valid ${handle.encoding}`);
      }
      from += size;
    } while (from < length);
    handle.streaming = stream;
    handle.state.set(textDecoderState);
    return string;
  }

  // ---- TextEncoder (§7.4) and TextEncoderStream (§7.6) ------------------
  // UTF-8 is the host's TextEncoder: its output is defined exactly by the
  // Standard (UTF-8 encode, unpaired surrogates as U+FFFD), and it is
  // faster than a copy into linear memory and out.

  function encode(string) {
    return hostEncoder.encode(string);
  }

  function encodeSmall(string) {
    return hostEncoder.encodeInto(string, smallOutput).written;
  }

  // A host may refuse a destination over a SharedArrayBuffer (Chromium
  // does): then through a copy.
  function encodeInto(source, destination, buffer) {
    let result;
    if (buffer !== undefined && isShared(buffer)) {
      const copy = new Uint8Array(typedArrayByteLength(destination));
      result = hostEncoder.encodeInto(source, copy);
      destination.set(copy.subarray(0, result.written));
    } else {
      result = hostEncoder.encodeInto(source, destination);
    }
    slots[SLOT_READ] = result.read;
    slots[SLOT_WRITTEN] = result.written;
  }

  const isHighSurrogate = (unit) => unit >= 0xD800 && unit <= 0xDBFF;

  function encoderStreamNew() {
    return { pending: '' };
  }

  // encode and enqueue a chunk: a high surrogate at the end waits.
  function encoderStreamChunk(handle, chunk) {
    let string = handle.pending === '' ? chunk : handle.pending + chunk;
    handle.pending = '';
    const length = string.length;
    if (length !== 0 && isHighSurrogate(string.charCodeAt(length - 1))) {
      handle.pending = string[length - 1];
      string = string.slice(0, length - 1);
    }
    return string === '' ? undefined : hostEncoder.encode(string);
  }

  // encode and flush: U+FFFD for a pending high surrogate.
  function encoderStreamFlush(handle) {
    if (handle.pending === '') return undefined;
    handle.pending = '';
    return new Uint8Array([0xEF, 0xBF, 0xBD]);
  }

  // ---- labels -----------------------------------------------------------

  function labelId(label) {
    checkViews();
    const length = putLabel(label);
    return length < 0 ? -1 : wasm.wg_lookup(length);
  }

  function checkId(id) {
    if (!(id >= 0 && id < ENCODING_COUNT && id === Math.floor(id))) {
      throw new RangeError('wenc: no such encoding id');
    }
  }

  function encodingName(id) {
    checkViews();
    checkId(id);
    return cString(wasm.wg_name(id)).toLowerCase();
  }

  function canEncode(id) {
    checkId(id);
    return id !== REPLACEMENT;
  }

  // ---- decoders ---------------------------------------------------------

  // Decodes bytes with the decoder in the state struct: the string, or in
  // fatal mode the stream offset of the malformed sequence.
  // (copied: the bytes are at IN already, all of them; replacing: the
  // decoder is in replacement mode, which glue.c's single-byte path needs.)
  function decodeRun(bytes, last, copied = false, replacing = false) {
    const length = bytes.length;
    let string = '';
    let from = 0;
    do {
      const size = Math.min(length - from, IN_BYTES);
      if (!copied) copyIn(bytes, from, size);
      const final = from + size === length;
      const status = wasm.wg_decode(size, final && last ? 1 : 0,
        replacing ? 1 : 0);
      const written = io[IO_WRITTEN];
      if (status === ERROR) return io[IO_ERROR_A];
      if (written !== 0) string += outputString(written);
      from += size;
    } while (from < length);
    return string;
  }

  function decodeOnce(id, bytes, bomMode, fatal) {
    checkViews();
    checkId(id);
    const length = bytes.length;
    if (id === UTF_8 && utf8Decoders !== undefined) {
      const string = hostUtf8Decode(bytes, bomMode, fatal);
      if (string !== undefined) return string;
    }
    if (id === UTF_16LE && !fatal && hostUtf16le) {
      const string = hostUtf16leDecode(bytes, bomMode);
      if (string !== undefined) return string;
    }
    let copied = false;
    if (asciiIdentity(id) && length <= IN_BYTES) {
      copyIn(bytes, 0, length);
      if (wasm.wg_is_ascii(length)) return asciiString(length);
      copied = true;
    }
    if (!wasm.wg_decoder_init(id, bomMode, fatal ? 1 : 0)) {
      throw new RangeError('wenc: no such decoder mode');
    }
    return decodeRun(bytes, true, copied, !fatal);
  }

  // UTF-8 through the host's TextDecoder, whose output the Standard
  // defines exactly (UTF-8 decode, §8.1.1): [strip the BOM, keep it, each
  // fatal]. Undefined (the wasm decoder's part) for a UTF-16 BOM to sniff,
  // malformed input in fatal mode (for its offset), or a host that refuses
  // the bytes (a SharedArrayBuffer).
  let utf8Decoders;
  try {
    utf8Decoders = [new TextDecoder('utf-8'),
      new TextDecoder('utf-8', { ignoreBOM: true }),
      new TextDecoder('utf-8', { fatal: true }),
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })];
  } catch {
    utf8Decoders = undefined;
  }
  const streamOption = { stream: true };
  function hostUtf8Decode(bytes, bomMode, fatal) {
    if (bomMode === 0 && bytes.length >= 2 &&
        ((bytes[0] === 0xFE && bytes[1] === 0xFF) ||
         (bytes[0] === 0xFF && bytes[1] === 0xFE))) {
      return undefined;
    }
    try {
      const decoder = utf8Decoders[(bomMode === 2 ? 1 : 0) + (fatal ? 2 : 0)];
      const length = bytes.length;
      if (fatal || length <= STRING_UNITS) return decoder.decode(bytes);
      // In pieces of at most STRING_UNITS code units (as outputString()).
      let string = '';
      for (let at = 0; at < length; at += STRING_UNITS) {
        const end = Math.min(length, at + STRING_UNITS);
        string += decoder.decode(bytes.subarray(at, end),
          end < length ? streamOption : undefined);
      }
      return string;
    } catch {
      return undefined;
    }
  }

  // UTF-16LE with replacement in Node and Bun: the code units copied by
  // ucs2Slice, unpaired surrogates replaced by toWellFormed() (the UTF-16
  // decoder's U+FFFD for each, §14.2.1), an odd last byte one more U+FFFD
  // (one for it and a lead surrogate before it). Undefined for a BOM that
  // names another encoding (the wasm decoder's part).
  function hostUtf16leDecode(bytes, bomMode) {
    const length = bytes.length;
    let start = 0;
    if (length >= 2 && bomMode !== 2) {
      const first = bytes[0];
      const second = bytes[1];
      if (first === 0xFF && second === 0xFE) {
        start = 2;
      } else if (bomMode === 0 && ((first === 0xFE && second === 0xFF) ||
          (length >= 3 && first === 0xEF && second === 0xBB &&
           bytes[2] === 0xBF))) {
        return undefined;
      }
    }
    const odd = ((length - start) & 1) === 1;
    let string = ucs2Slice.call(bytes, start, odd ? length - 1 : length);
    if (odd && string.length !== 0 &&
        isHighSurrogate(string.charCodeAt(string.length - 1))) {
      string = string.slice(0, -1);
    }
    if (!isWellFormed(string)) string = toWellFormed(string);
    return odd ? `${string}\uFFFD` : string;
  }

  function decoderOpen(id, bomMode, fatal) {
    checkViews();
    checkId(id);
    if (!wasm.wg_decoder_init(id, bomMode, fatal ? 1 : 0)) {
      throw new RangeError('wenc: no such decoder mode');
    }
    const state = decoderState.slice();
    // The handle: the state, and the state of a new stream (after the
    // last bytes or a fatal error).
    return { state, initial: state.slice(), replacing: !fatal };
  }

  function decoderWrite(handle, bytes, last) {
    checkViews();
    decoderState.set(handle.state);
    const result = decodeRun(bytes, last, false, handle.replacing);
    if (last || typeof result === 'number') {
      handle.state.set(handle.initial);
    } else {
      handle.state.set(decoderState);
    }
    return result;
  }

  // ---- encoders ---------------------------------------------------------
  // A string goes into linear memory as UTF-16 where it is cheap (Node's
  // and Bun's Buffer ucs2Write: a copy of the string's code units), or for
  // the single-byte and multi-byte encoders, whose table paths in glue.c
  // read UTF-16 (a charCodeAt loop; in Chromium Russian text encoded
  // 27-100 -> 150-200 MB/s); else as UTF-8 (the host's encodeInto). The
  // library reads unpaired surrogates as U+FFFD either way.

  const ucs2Write = (() => {
    const method = bufferPrototype && bufferPrototype.ucs2Write;
    if (typeof method !== 'function') return undefined;
    try {
      const probe = new Uint8Array(4);
      return method.call(probe, 'A\u0100', 0, 4) === 4 && probe[2] === 0 &&
        probe[3] === 1 ? method : undefined;
    } catch {
      return undefined;
    }
  })();
  const isMultiByte = (id) => id >= 29 && id <= 35; // gbk to euc-kr
  const isSingleByte = (id) => id >= 1 && id <= 28; // ibm866 to x-mac-cyrillic

  const UTF8_BOM = new Uint8Array([0xEF, 0xBB, 0xBF]);

  // A substitute fed through the encoder (ISO-2022-JP, whose bytes depend
  // on the state; core.js gives the bytes of a whole stream) goes at the
  // end of the input buffer, and the string's pieces before it.
  const MAX_FED_SUBSTITUTE = IN_BYTES >> 2;

  // An encoder job: the handle of encoderOpen(), or one for encodeOnce().
  function newJob(id, mode, substitute, bom) {
    if (!wasm.wg_encoder_init(id, mode === MODE_HTML ? 0 : 1, bom ? 1 : 0)) {
      throw new RangeError('wenc: no such encoder');
    }
    const job = {
      mode,
      substitute: mode === MODE_SUBSTITUTE ? substitute : EMPTY,
      utf16: !forceUtf8 && (ucs2Write !== undefined || isMultiByte(id) ||
        isSingleByte(id)),
      // ISO-2022-JP's substitute as the input (UTF-16 or UTF-8) to feed.
      fed: undefined,
      utf8Bom: Boolean(bom) && id === UTF_8,
      // A byte a code unit but for unmappable code points.
      singleByte: isSingleByte(id) || id === 39,
      // UTF-8 and (in Node and Bun) UTF-16LE need no wasm: the host
      // writes them as the library would (unpaired surrogates as U+FFFD).
      host: id === UTF_8 ? HOST_UTF8 : id === UTF_16LE && hostUtf16le ?
        HOST_UTF16LE : 0,
      utf16Bom: Boolean(bom) && id === UTF_16LE,
      atStart: true,
      // Stream code units before this call's string; a high surrogate
      // held from the last call.
      units: 0,
      pending: '',
      state: undefined,
      initial: undefined,
    };
    if (id === ISO_2022_JP && job.substitute.length !== 0) {
      wasm.wg_decoder_init(ISO_2022_JP, 2, 0);
      const string = decodeRun(job.substitute, true);
      job.fed = job.utf16 ? Uint16Array.from(string, (c) => c.charCodeAt(0)) :
        hostEncoder.encode(string);
      if (job.fed.byteLength > MAX_FED_SUBSTITUTE) {
        throw new RangeError('wenc: the substitute is too long');
      }
      wasm.wg_encoder_init(id, 1, 0);
    }
    return job;
  }

  // Output pieces, joined at the end (one piece: no second copy); or, for a
  // large output whose size is known but for unmappable code points (the
  // single-byte encoders: a byte a code unit), one array of that size
  // filled as it goes (grown if need be), which spares an array for each
  // piece and the copy that joins them.
  let pieces = [];
  let piecesLength = 0;
  let whole = null;
  let wholeLength = 0;
  function startOutput(size) {
    pieces = [];
    piecesLength = 0;
    whole = size > 0 ? new Uint8Array(size) : null;
    wholeLength = 0;
  }
  function wholeRoom(length) {
    if (wholeLength + length <= whole.length) return;
    const grown = new Uint8Array(Math.max(whole.length * 2,
      wholeLength + length));
    grown.set(whole.subarray(0, wholeLength));
    whole = grown;
  }
  function put(bytes) {
    if (whole !== null) {
      wholeRoom(bytes.length);
      whole.set(bytes, wholeLength);
      wholeLength += bytes.length;
      return;
    }
    pieces.push(bytes);
    piecesLength += bytes.length;
  }
  // The output at OUT, copied: slice() for what fits in V8's on-heap typed
  // arrays, else a new array and set(), which measured a third cheaper
  // than slice() for 1 KiB.
  function putOutput() {
    const written = io[IO_WRITTEN];
    if (written === 0) return;
    if (whole !== null) {
      wholeRoom(written);
      whole.set(heap.subarray(OUT, OUT + written), wholeLength);
      wholeLength += written;
    } else if (written <= 64) {
      put(heap.slice(OUT, OUT + written));
    } else {
      const bytes = new Uint8Array(written);
      bytes.set(heap.subarray(OUT, OUT + written));
      put(bytes);
    }
  }
  function takePieces() {
    let result;
    if (whole !== null) {
      result = wholeLength === whole.length ? whole :
        whole.slice(0, wholeLength);
      whole = null;
    } else if (pieces.length === 1) {
      result = pieces[0];
    } else if (pieces.length === 0) {
      result = new Uint8Array(0);
    } else {
      result = new Uint8Array(piecesLength);
      let at = 0;
      for (const piece of pieces) {
        result.set(piece, at);
        at += piece.length;
      }
    }
    pieces = [];
    piecesLength = 0;
    return result;
  }

  // Puts string[at..at+count) at IN as UTF-16.
  function writeUnits(string, at, count) {
    if (ucs2Write !== undefined && count > 16) {
      ucs2Write.call(heap, at === 0 ? string :
        string.substring(at, at + count), IN, count * 2);
    } else {
      const base = IN >> 1;
      for (let i = 0; i < count; i++) heap16[base + i] = string.charCodeAt(at + i);
    }
  }

  // Puts as much of string[at..) as fits in `room` bytes at IN: [code units
  // read, input units written]. Pieces end between code points.
  function writePiece(job, string, at, room) {
    const left = string.length - at;
    if (left === 0) return [0, 0];
    if (job.utf16) {
      let count = Math.min(left, room >> 1);
      if (count < left && isHighSurrogate(string.charCodeAt(at + count - 1))) {
        count--;
      }
      writeUnits(string, at, count);
      return [count, count];
    }
    // At most `room` units (their UTF-8 fills the room or less): a host
    // may read all of the string it is given (Chromium's encodeInto()
    // copies it), which for the whole rest of a long string at each piece
    // would take time in the square of its length. Not half of a pair.
    let end = at + room;
    if (end >= string.length) {
      end = string.length;
    } else if (isHighSurrogate(string.charCodeAt(end - 1))) {
      end--;
    }
    const result = hostEncoder.encodeInto(
      at === 0 && end === string.length ? string : string.substring(at, end),
      room === IN_BYTES ? inView : inView.subarray(0, room));
    return [result.read, result.written];
  }

  // UTF-8 through the host's TextEncoder, UTF-16LE through ucs2Write: the
  // bytes of string, after the BOM at the start of a stream. (A high
  // surrogate at the end of a write was held by encoderWrite.)
  const HOST_UTF8 = 1;
  const HOST_UTF16LE = 2;
  const hostUtf16le = ucs2Write !== undefined &&
    typeof String.prototype.isWellFormed === 'function' &&
    typeof String.prototype.toWellFormed === 'function';
  const isWellFormed = hostUtf16le ?
    Function.prototype.call.bind(String.prototype.isWellFormed) : undefined;
  const toWellFormed = hostUtf16le ?
    Function.prototype.call.bind(String.prototype.toWellFormed) : undefined;
  function hostEncodeRun(job, string) {
    const bom = job.atStart && (job.utf8Bom || job.utf16Bom);
    job.atStart = false;
    if (pooling && outputPool !== null) {
      const pooled = hostEncodePooled(job, string, bom);
      if (pooled >= 0) return pooled;
    }
    if (job.host === HOST_UTF8) {
      const bytes = hostEncoder.encode(string);
      if (!bom) return bytes;
      const withBom = new Uint8Array(bytes.length + 3);
      withBom.set(UTF8_BOM, 0);
      withBom.set(bytes, 3);
      return withBom;
    }
    const at = bom ? 2 : 0;
    const bytes = new Uint8Array(at + string.length * 2);
    if (bom) {
      bytes[0] = 0xFF;
      bytes[1] = 0xFE;
    }
    if (string.length !== 0) {
      ucs2Write.call(bytes, isWellFormed(string) ? string :
        toWellFormed(string), at, string.length * 2);
    }
    return bytes;
  }

  // hostEncodeRun() into smallOutput or the pool: the length of the
  // output, or -1 when it may not fit.
  function hostEncodePooled(job, string, bom) {
    const bomLength = !bom ? 0 : job.host === HOST_UTF8 ? 3 : 2;
    const most = bomLength + string.length * (job.host === HOST_UTF8 ? 3 : 2);
    if (most > POOL_OUTPUT) return -1;
    const small = most <= SMALL_OUTPUT;
    const target = small ? smallOutput : outputPool;
    const start = small ? 0 : slots[SLOT_POOL_OFFSET];
    if (bomLength === 3) {
      target[start] = 0xEF;
      target[start + 1] = 0xBB;
      target[start + 2] = 0xBF;
    } else if (bomLength === 2) {
      target[start] = 0xFF;
      target[start + 1] = 0xFE;
    }
    let length = bomLength;
    if (job.host === HOST_UTF8) {
      length += hostEncoder.encodeInto(string, small && bomLength === 0 ?
        smallOutput : target.subarray(start + bomLength, start + most))
        .written;
    } else if (string.length !== 0) {
      length += ucs2Write.call(target, isWellFormed(string) ? string :
        toWellFormed(string), start + bomLength, string.length * 2);
    }
    if (!small && length <= SMALL_OUTPUT) {
      for (let i = 0; i < length; i++) smallOutput[i] = outputPool[start + i];
    }
    return length;
  }

  // The output at OUT, the whole of an encodeRun(), into smallOutput or
  // the pool: its length.
  function pooledOutput(written) {
    if (written <= SMALL_OUTPUT) {
      for (let i = 0; i < written; i++) smallOutput[i] = heap[OUT + i];
    } else {
      outputPool.set(heap.subarray(OUT, OUT + written),
        slots[SLOT_POOL_OFFSET]);
    }
    return written;
  }

  // Encodes string with the job's encoder, which is in the state struct:
  // the bytes (a Uint8Array, or the length of those in smallOutput or the
  // pool), or [codePoint, offset] (fatal mode) with the offset in code
  // units from the start of the job's stream.
  function encodeRun(job, string, last) {
    startOutput(job.singleByte && string.length > IN_BYTES / 2 ?
      string.length : 0);
    if (job.host !== 0) return hostEncodeRun(job, string);
    if (job.atStart) {
      job.atStart = false;
      if (job.utf8Bom) put(UTF8_BOM);
    }
    const encodeUnits = job.utf16 ? wasm.wg_encode_utf16 : wasm.wg_encode_utf8;
    const shift = job.utf16 ? 1 : 0;
    const fed = job.fed;
    let room = IN_BYTES;
    let fedAt = 0;
    if (fed !== undefined) {
      room = IN_BYTES - fed.byteLength;
      fedAt = room >> shift;
      heap.set(new Uint8Array(fed.buffer, fed.byteOffset, fed.byteLength),
        IN + room);
    }
    const length = string.length;
    let at = 0;
    for (;;) {
      const [read, units] = writePiece(job, string, at, room);
      const pieceStart = at;
      at += read;
      const final = last && at === length;
      let from = 0;
      for (;;) {
        const status = encodeUnits(from, units - from, final ? 1 : 0);
        if (status === INPUT_EMPTY && at >= length && pooling &&
          outputPool !== null && pieces.length === 0 && whole === null &&
          io[IO_WRITTEN] <= POOL_OUTPUT) {
          // All of the output is this call's.
          return pooledOutput(io[IO_WRITTEN]);
        }
        putOutput();
        from += io[IO_CONSUMED];
        if (status === INPUT_EMPTY) break;
        if (status !== ERROR) continue;
        if (job.mode === MODE_FATAL) {
          const codePoint = io[IO_ERROR_A];
          const before = from - io[IO_ERROR_B];
          const offset = job.units + pieceStart +
            (shift ? before : wasm.wg_utf16_length(before));
          startOutput(0);
          return [codePoint, offset];
        }
        if (job.mode !== MODE_SUBSTITUTE) continue; // skip
        if (fed === undefined) {
          if (job.substitute.length !== 0) put(job.substitute);
          continue;
        }
        // Through the encoder, from the state it is in.
        for (let done = 0; done < fed.length;) {
          const fedStatus = encodeUnits(fedAt + done, fed.length - done, 0);
          putOutput();
          done += io[IO_CONSUMED];
          if (fedStatus === ERROR) break;
        }
      }
      if (at >= length) break;
    }
    return takePieces();
  }

  function encodeOnce(id, string, mode, substitute, bom) {
    checkViews();
    checkId(id);
    const job = newJob(id, mode, substitute, bom);
    return encodeRun(job, string, true);
  }

  function encoderOpen(id, mode, substitute, bom) {
    checkViews();
    checkId(id);
    const job = newJob(id, mode, substitute, bom);
    job.state = encoderState.slice();
    job.initial = job.state.slice();
    return job;
  }

  function encoderWrite(job, string, last) {
    checkViews();
    const pending = job.pending;
    let input = pending === '' ? string : pending + string;
    job.pending = '';
    // The units before input: those of the earlier calls but the held one.
    job.units -= pending.length;
    const length = input.length;
    if (!last && length !== 0 && isHighSurrogate(input.charCodeAt(length - 1))) {
      job.pending = input[length - 1];
      input = input.slice(0, length - 1);
    }
    encoderState.set(job.state);
    const result = encodeRun(job, input, last);
    if (last || Array.isArray(result)) {
      // A new stream next.
      job.state.set(job.initial);
      job.atStart = true;
      job.units = 0;
      job.pending = '';
    } else {
      job.state.set(encoderState);
      job.units += input.length + job.pending.length;
    }
    return result;
  }

  const backend = {
    setSharedArrays,
    setOutputPool,
    decoderNew,
    decode,
    encode,
    encodeSmall,
    encodeInto,
    encoderStreamNew,
    encoderStreamChunk,
    encoderStreamFlush,
    labelId,
    encodingName,
    canEncode,
    decodeOnce,
    encodeOnce,
    decoderOpen,
    decoderWrite,
    encoderOpen,
    encoderWrite,
  };
  // For tests: the instance's memory (it must never grow).
  Object.defineProperty(backend, 'memory', { value: memory });
  return backend;
};

// A module of one function returning a wasm SIMD constant: where
// WebAssembly.validate() accepts it, the runtime has SIMD and loads
// wenc.wasm, else wenc-nosimd.wasm.
module.exports.simdProbe = () => new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
  0x03, 0x02, 0x01, 0x00, // functions: one of type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, // code: v128.const
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0x0b, // end
]);

// Whether this runtime has wasm SIMD.
module.exports.hasSimd = () => {
  try {
    return WebAssembly.validate(module.exports.simdProbe());
  } catch {
    return false;
  }
};

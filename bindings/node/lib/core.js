'use strict';
// The Encoding Standard's API (§7) — TextDecoder, TextEncoder,
// TextDecoderStream and TextEncoderStream — and the wider API for users of
// iconv-lite (encode, decode, labelToName, encodingExists, Encoder, Decoder,
// encoderStream, decoderStream), over a backend that does the encoding: the
// native addon or the WebAssembly build (lib/BACKEND.md, the contract).
//
// Standard JavaScript only: no require, no Buffer, no process. The browser
// build wraps this file into an ES module.

function createWenc(backend) {
  const TransformStream = globalThis.TransformStream;

  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const getter = (object, name) =>
    Object.getOwnPropertyDescriptor(object, name)?.get;
  const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
  const typedArrayName =
    uncurry(getter(TypedArrayPrototype, Symbol.toStringTag));
  const typedArrayBuffer = uncurry(getter(TypedArrayPrototype, 'buffer'));
  const typedArrayByteOffset =
    uncurry(getter(TypedArrayPrototype, 'byteOffset'));
  const typedArrayByteLength =
    uncurry(getter(TypedArrayPrototype, 'byteLength'));
  const dataViewBuffer = uncurry(getter(DataView.prototype, 'buffer'));
  const dataViewByteOffset = uncurry(getter(DataView.prototype, 'byteOffset'));
  const dataViewByteLength = uncurry(getter(DataView.prototype, 'byteLength'));
  const arrayBufferByteLength =
    uncurry(getter(ArrayBuffer.prototype, 'byteLength'));
  const sharedArrayBufferByteLength = typeof SharedArrayBuffer === 'function' ?
    uncurry(getter(SharedArrayBuffer.prototype, 'byteLength')) : undefined;
  const resizableGetter = getter(ArrayBuffer.prototype, 'resizable');
  const growableGetter = typeof SharedArrayBuffer === 'function' ?
    getter(SharedArrayBuffer.prototype, 'growable') : undefined;
  const isResizable = resizableGetter ? uncurry(resizableGetter) : () => false;
  const isGrowable = growableGetter ? uncurry(growableGetter) : () => false;

  // Brand checks: the byteLength getters throw for anything else (an
  // ArrayBuffer's for a SharedArrayBuffer too, and the other way round).
  function isArrayBuffer(value) {
    try {
      arrayBufferByteLength(value);
      return true;
    } catch {
      return false;
    }
  }

  function isSharedArrayBuffer(value) {
    if (sharedArrayBufferByteLength === undefined) return false;
    try {
      sharedArrayBufferByteLength(value);
      return true;
    } catch {
      return false;
    }
  }

  // decode()'s input kinds, times 2 plus 1 for stream, in SLOT_MODE.
  const INPUT_NONE = 0;
  const INPUT_ARRAY_BUFFER = 2;
  const INPUT_TYPED_ARRAY = 4;
  const INPUT_DATA_VIEW = 6;
  const INPUT_SHARED = 8; // wrapped in a Uint8Array before the backend sees it

  // Numbers passed to and from the backend without a call each: decode()'s
  // mode, decode()'s and encodeInto()'s typed array's byte range,
  // encodeInto()'s source length, read and written.
  const SLOT_MODE = 0;
  const SLOT_BYTE_OFFSET = 1;
  const SLOT_BYTE_LENGTH = 2;
  const SLOT_READ = 3;
  const SLOT_WRITTEN = 4;
  const SLOT_SOURCE_UNITS = 5;
  const SLOT_POOL_OFFSET = 6;
  const slots = new Float64Array(new ArrayBuffer(56));
  // encode()'s output for strings of up to SMALL_ENCODE_UNITS code units,
  // copied into a new Uint8Array here (cheaper than one made by the backend).
  const SMALL_ENCODE_UNITS = 256;
  const smallOutput = new Uint8Array(new ArrayBuffer(3 * SMALL_ENCODE_UNITS));
  // Up to this many bytes, a loop copies faster than slice().
  const SMALL_COPY_LOOP = 64;
  backend.setSharedArrays(slots, smallOutput);

  // A new Uint8Array of the first `length` bytes of smallOutput.
  function copySmallOutput(length) {
    if (length > SMALL_COPY_LOOP) return smallOutput.slice(0, length);
    const output = new Uint8Array(length);
    for (let i = 0; i < length; i++) output[i] = smallOutput[i];
    return output;
  }

  // The output pool (the wider API's encoders only; TextEncoder returns
  // arrays of their own buffers, as the Standard says). Making an
  // ArrayBuffer costs more than encoding a KiB, so outputs of up to
  // POOL_MAX_OUTPUT bytes are views of a shared one, as Node's Buffers are
  // (those of up to SMALL_COPY_LOOP bytes, cheap to make, are copies from
  // smallOutput). A backend with setOutputPool() puts such outputs into the
  // pool at SLOT_POOL_OFFSET (or smallOutput) and returns their length;
  // core.js keeps at least POOL_MAX_OUTPUT bytes of room there before each
  // call.
  const POOL_SIZE = 32768;
  const POOL_MAX_OUTPUT = 4096;
  const hasPool = typeof backend.setOutputPool === 'function';
  let pool;
  let poolOffset = POOL_SIZE;

  // Before encodeOnce or encoderWrite: the pool ready, its offset in the
  // slots.
  function preparePool() {
    if (!hasPool) return;
    // A transferred (detached) pool has length 0.
    if (poolOffset > POOL_SIZE - POOL_MAX_OUTPUT || pool.length === 0) {
      pool = new Uint8Array(new ArrayBuffer(POOL_SIZE));
      poolOffset = 0;
      backend.setOutputPool(pool);
    }
    slots[SLOT_POOL_OFFSET] = poolOffset;
  }

  // An encoder's result: the length of bytes the backend put into
  // smallOutput (up to SMALL_COPY_LOOP bytes) or the pool (more), or its
  // own Uint8Array, or [codePoint, offset].
  function takeOutput(result) {
    if (typeof result !== 'number') return result;
    if (result <= SMALL_COPY_LOOP) return copySmallOutput(result);
    const start = poolOffset;
    poolOffset = (start + result + 7) & ~7;
    return new Uint8Array(pool.buffer, start, result);
  }

  // The resizable getter throws for a SharedArrayBuffer, which is rare.
  function isResizableBuffer(buffer) {
    try {
      return isResizable(buffer);
    } catch {
      return isGrowable(buffer);
    }
  }

  // WebIDL: AllowSharedBufferSource, i.e. (ArrayBuffer or SharedArrayBuffer
  // or [AllowShared] ArrayBufferView), none of them resizable, for a value
  // that is not a typed array (decodeInput() takes those). Returns the kind
  // for the backend (INPUT_SHARED: the caller wraps it in a Uint8Array).
  function otherBufferSourceKind(value, what) {
    if (ArrayBuffer.isView(value)) {
      if (isResizableBuffer(dataViewBuffer(value))) {
        throw new TypeError(`${what} must not be backed by a resizable buffer`);
      }
      return INPUT_DATA_VIEW;
    }
    if (isArrayBuffer(value)) {
      if (isResizable(value)) {
        throw new TypeError(`${what} must not be a resizable ArrayBuffer`);
      }
      return INPUT_ARRAY_BUFFER;
    }
    if (isSharedArrayBuffer(value)) {
      if (isGrowable(value)) {
        throw new TypeError(
          `${what} must not be a growable SharedArrayBuffer`);
      }
      return INPUT_SHARED;
    }
    throw notBufferSource(what);
  }

  function notBufferSource(what) {
    return new TypeError(
      `${what} is not an ArrayBuffer, SharedArrayBuffer or ArrayBufferView`);
  }

  // WebIDL: a dictionary argument is undefined, null or an object.
  function dictionary(value, what) {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' && typeof value !== 'function') {
      throw new TypeError(`${what} is not an object`);
    }
    return value;
  }

  // TextDecoderOptions {boolean fatal = false; boolean ignoreBOM = false;},
  // members read in lexicographic order.
  function decoderOptions(options) {
    const dict = dictionary(options, 'options');
    if (dict === undefined) return [false, false];
    const fatal = Boolean(dict.fatal);
    return [fatal, Boolean(dict.ignoreBOM)];
  }

  // §7.2 new TextDecoder(label, options), shared with TextDecoderStream.
  function newDecoder(label, options) {
    const labelString = `${label}`;
    const [fatal, ignoreBOM] = decoderOptions(options);
    const created = backend.decoderNew(labelString, fatal, ignoreBOM);
    if (created === null) {
      throw new RangeError(`The "${labelString}" encoding is not supported ` +
        '(not a label, or replacement)');
    }
    return created;
  }

  function webidlInterface(constructor, name) {
    const prototype = constructor.prototype;
    for (const key of Reflect.ownKeys(prototype)) {
      if (key === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      descriptor.enumerable = true;
      Object.defineProperty(prototype, key, descriptor);
    }
    Object.defineProperty(prototype, Symbol.toStringTag, {
      value: name, writable: false, enumerable: false, configurable: true,
    });
  }

  // §7.2 decode(input, options) and §7.5 decode and enqueue a chunk:
  // converts input (undefined or an AllowSharedBufferSource), then options
  // (a TextDecodeOptions dictionary), then decodes. The backend's
  // decode(handle, input, buffer) finds the mode in the slots, and a typed
  // array's byte range there too when given its buffer, which spares it
  // asking the engine for them.
  function decodeInput(handle, input, options, what) {
    let kind = INPUT_NONE;
    let buffer;
    if (input !== undefined) {
      if (ArrayBuffer.isView(input) && typedArrayName(input) !== undefined) {
        buffer = typedArrayBuffer(input);
        if (isResizableBuffer(buffer)) {
          throw new TypeError(
            `${what} must not be backed by a resizable buffer`);
        }
        kind = INPUT_TYPED_ARRAY;
      } else {
        kind = otherBufferSourceKind(input, what);
        if (kind === INPUT_SHARED) {
          input = new Uint8Array(input);
          kind = INPUT_TYPED_ARRAY;
        }
      }
    }
    let stream = false;
    if (options !== undefined) {
      const dict = dictionary(options, 'options');
      if (dict !== undefined) stream = Boolean(dict.stream);
    }
    // No user code runs from here to the backend's return.
    slots[SLOT_MODE] = kind + (stream ? 1 : 0);
    if (buffer !== undefined) {
      slots[SLOT_BYTE_OFFSET] = typedArrayByteOffset(input);
      slots[SLOT_BYTE_LENGTH] = typedArrayByteLength(input);
    }
    return backend.decode(handle, input, buffer);
  }

  const streamOptions = Object.freeze({ __proto__: null, stream: true });

  // §7.2
  class TextDecoder {
    #handle;
    #encoding;
    #fatal;
    #ignoreBOM;

    constructor(label = 'utf-8', options = undefined) {
      [this.#handle, this.#encoding, this.#fatal, this.#ignoreBOM] =
        newDecoder(label, options);
    }

    get encoding() { return this.#encoding; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }

    // §7.2 decode(input, options)
    decode(input = undefined, options = undefined) {
      return decodeInput(this.#handle, input, options, 'input');
    }
  }
  webidlInterface(TextDecoder, 'TextDecoder');

  // §7.4
  class TextEncoder {
    #brand = true;

    constructor() {}

    get encoding() {
      if (!(#brand in this)) throw new TypeError('Illegal invocation');
      return 'utf-8';
    }

    // §7.4 encode(input)
    encode(input = '') {
      if (!(#brand in this)) throw new TypeError('Illegal invocation');
      const string = `${input}`;
      if (string.length > SMALL_ENCODE_UNITS) return backend.encode(string);
      return copySmallOutput(backend.encodeSmall(string));
    }

    // §7.4 encodeInto(source, destination)
    encodeInto(source, destination) {
      if (!(#brand in this)) throw new TypeError('Illegal invocation');
      if (arguments.length < 2) {
        throw new TypeError(
          `encodeInto needs 2 arguments, but only ${arguments.length} present`);
      }
      const sourceString = `${source}`;
      if (!ArrayBuffer.isView(destination) ||
          typedArrayName(destination) !== 'Uint8Array') {
        throw new TypeError('destination is not a Uint8Array');
      }
      const buffer = typedArrayBuffer(destination);
      if (isResizableBuffer(buffer)) {
        throw new TypeError(
          'destination must not be backed by a resizable buffer');
      }
      slots[SLOT_BYTE_OFFSET] = typedArrayByteOffset(destination);
      slots[SLOT_BYTE_LENGTH] = typedArrayByteLength(destination);
      slots[SLOT_SOURCE_UNITS] = sourceString.length;
      backend.encodeInto(sourceString, destination, buffer);
      return { read: slots[SLOT_READ], written: slots[SLOT_WRITTEN] };
    }
  }
  webidlInterface(TextEncoder, 'TextEncoder');

  const writableStrategy = () => ({ __proto__: null, highWaterMark: 1 });
  const readableStrategy = () => ({ __proto__: null, highWaterMark: 0 });

  // §7.5
  class TextDecoderStream {
    #encoding;
    #fatal;
    #ignoreBOM;
    #transform;

    constructor(label = 'utf-8', options = undefined) {
      let handle;
      [handle, this.#encoding, this.#fatal, this.#ignoreBOM] =
        newDecoder(label, options);
      this.#transform = new TransformStream({
        __proto__: null,
        // §7.5 decode and enqueue a chunk
        transform(chunk, controller) {
          if (chunk === undefined) throw notBufferSource('chunk');
          const output = decodeInput(handle, chunk, streamOptions, 'chunk');
          if (output !== '') controller.enqueue(output);
        },
        // §7.5 flush and enqueue
        flush(controller) {
          const output = decodeInput(handle, undefined, undefined, 'input');
          if (output !== '') controller.enqueue(output);
        },
      }, writableStrategy(), readableStrategy());
    }

    get encoding() { return this.#encoding; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    get readable() { return this.#transform.readable; }
    get writable() { return this.#transform.writable; }
  }
  webidlInterface(TextDecoderStream, 'TextDecoderStream');

  // §7.6
  class TextEncoderStream {
    #transform;

    constructor() {
      const handle = backend.encoderStreamNew();
      this.#transform = new TransformStream({
        __proto__: null,
        // §7.6 encode and enqueue a chunk
        transform(chunk, controller) {
          const output = backend.encoderStreamChunk(handle, `${chunk}`);
          if (output !== undefined) controller.enqueue(output);
        },
        // §7.6 encode and flush
        flush(controller) {
          const output = backend.encoderStreamFlush(handle);
          if (output !== undefined) controller.enqueue(output);
        },
      }, writableStrategy(), readableStrategy());
    }

    get encoding() {
      if (!(#transform in this)) throw new TypeError('Illegal invocation');
      return 'utf-8';
    }
    get readable() { return this.#transform.readable; }
    get writable() { return this.#transform.writable; }
  }
  webidlInterface(TextEncoderStream, 'TextEncoderStream');

  // ---- The wider API (iconv-lite's calls, the Standard's encodings) ------

  // Labels to ids (the backend's labelId() is "get an encoding"), cached.
  // Strings that are not labels are cached too; the cache starts afresh
  // when full, so odd labels cannot make it grow without bound.
  const LABEL_CACHE_SIZE = 256;
  const labelCache = new Map();
  let lastLabel;
  let lastId = -1;
  const names = [];
  const encodable = [];

  function lookup(label) {
    const string = `${label}`;
    if (string === lastLabel) return lastId;
    let id = labelCache.get(string);
    if (id === undefined) {
      id = backend.labelId(string);
      if (labelCache.size >= LABEL_CACHE_SIZE) labelCache.clear();
      labelCache.set(string, id);
    }
    lastLabel = string;
    lastId = id;
    return id;
  }

  function nameOf(id) {
    return names[id] ?? (names[id] = backend.encodingName(id));
  }

  function unknownLabel(label) {
    return new RangeError(`"${label}" is not a label of the Encoding ` +
      'Standard');
  }

  // An encoding with a decoder: every label, replacement's included.
  function decoderId(label) {
    const id = lookup(label);
    if (id < 0) throw unknownLabel(`${label}`);
    return id;
  }

  // An encoding with an encoder: every label but replacement's.
  function encoderId(label) {
    const id = lookup(label);
    if (id < 0) throw unknownLabel(`${label}`);
    if (!(encodable[id] ?? (encodable[id] = backend.canEncode(id)))) {
      throw new RangeError(`${nameOf(id)} has no encoder ("${label}" ` +
        'names the replacement encoding, which only decodes)');
    }
    return id;
  }

  function labelToName(label) {
    const id = lookup(label);
    return id < 0 ? null : nameOf(id);
  }

  function encodingExists(label) {
    return lookup(label) >= 0;
  }

  function hex(codePoint) {
    return codePoint.toString(16).toUpperCase().padStart(4, '0');
  }

  // The TypeError of a fatal decode, as Node's own TextDecoder's (code).
  function decodeError(id, offset) {
    const encoding = nameOf(id);
    const error = new TypeError(`The encoded data was not valid for ` +
      `encoding ${encoding} (malformed input at byte offset ${offset})`);
    error.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
    error.encoding = encoding;
    error.offset = offset;
    return error;
  }

  // The TypeError of a fatal encode: [codePoint, offset] from the backend.
  function encodeError(id, failure) {
    const encoding = nameOf(id);
    const [codePoint, offset] = failure;
    const error = new TypeError(`${encoding} cannot encode ` +
      `U+${hex(codePoint)} at offset ${offset}`);
    error.code = 'ERR_ENCODING_UNMAPPABLE';
    error.encoding = encoding;
    error.offset = offset;
    error.codePoint = codePoint;
    return error;
  }

  const BOM_MODES = { __proto__: null, sniff: 0, strip: 1, keep: 2 };
  const UNMAPPABLE_MODES = {
    __proto__: null, html: 0, fatal: 1, subst: 2, skip: 3,
  };
  const MODE_SUBSTITUTE = 2;
  const MODE_FATAL = 1;
  const EMPTY = new Uint8Array(0);

  // {bom = 'sniff', fatal = false}, read in lexicographic order.
  function decodeOptions(options) {
    const dict = dictionary(options, 'options');
    if (dict === undefined) return 0;
    const bomValue = dict.bom;
    let bom = 0;
    if (bomValue !== undefined) {
      bom = BOM_MODES[`${bomValue}`];
      if (bom === undefined) {
        throw new TypeError(`options.bom must be 'sniff', 'strip' or 'keep', ` +
          `not '${bomValue}'`);
      }
    }
    return bom + (dict.fatal ? 4 : 0);
  }

  // The substitute's bytes in each encoding, by id: [string, bytes].
  const substitutes = [];

  function substituteBytes(id, substitute) {
    const cached = substitutes[id];
    if (cached !== undefined && cached[0] === substitute) return cached[1];
    preparePool();
    const bytes = takeOutput(backend.encodeOnce(id, substitute, MODE_FATAL,
      EMPTY, false));
    if (Array.isArray(bytes)) {
      throw new RangeError(`the substitute ${JSON.stringify(substitute)} ` +
        `cannot be encoded in ${nameOf(id)} (U+${hex(bytes[0])})`);
    }
    // A copy: a view would keep the pool alive.
    substitutes[id] = [substitute, bytes.slice()];
    return substitutes[id][1];
  }

  // {bom = false, substitute = '?', unmappable = 'html'}, read in
  // lexicographic order: [mode, substitute's bytes, bom].
  const defaultEncodeOptions = Object.freeze([0, EMPTY, false]);

  function encodeOptions(id, options) {
    const dict = dictionary(options, 'options');
    if (dict === undefined) return defaultEncodeOptions;
    const bom = Boolean(dict.bom);
    const substituteValue = dict.substitute;
    const substitute = substituteValue === undefined ? '?' :
      `${substituteValue}`;
    const modeValue = dict.unmappable;
    let mode = 0;
    if (modeValue !== undefined) {
      mode = UNMAPPABLE_MODES[`${modeValue}`];
      if (mode === undefined) {
        throw new TypeError('options.unmappable must be \'html\', \'fatal\', ' +
          `'subst' or 'skip', not '${modeValue}'`);
      }
    }
    return [mode, mode === MODE_SUBSTITUTE ? substituteBytes(id, substitute) :
      EMPTY, bom];
  }

  // Bytes for the wider API: any ArrayBuffer, SharedArrayBuffer or
  // ArrayBufferView, as a Uint8Array over the same memory.
  function toBytes(value, what) {
    if (ArrayBuffer.isView(value)) {
      const name = typedArrayName(value);
      if (name === 'Uint8Array') return value;
      if (name !== undefined) {
        return new Uint8Array(typedArrayBuffer(value),
          typedArrayByteOffset(value), typedArrayByteLength(value));
      }
      return new Uint8Array(dataViewBuffer(value), dataViewByteOffset(value),
        dataViewByteLength(value));
    }
    if (isArrayBuffer(value) || isSharedArrayBuffer(value)) {
      return new Uint8Array(value);
    }
    throw notBufferSource(what);
  }

  // A decoder's result: a string, or pieces of one (an array, which a
  // backend may return for long strings: joined they make a rope, cheaper
  // for the engine than one long flat string).
  function joinPieces(pieces) {
    let string = '';
    for (let i = 0; i < pieces.length; i++) string += pieces[i];
    return string;
  }

  // decode(bytes, label, {bom, fatal}): the string.
  function decode(bytes, label, options = undefined) {
    const input = toBytes(bytes, 'bytes');
    const id = decoderId(label);
    const modes = options === undefined ? 0 : decodeOptions(options);
    const result = backend.decodeOnce(id, input, modes & 3, modes > 3);
    if (typeof result === 'string') return result;
    if (typeof result === 'number') throw decodeError(id, result);
    return joinPieces(result);
  }

  // Short strings in a single-byte encoding (§9.2, and x-user-defined's
  // §14.5) are encoded here, as iconv-lite does: a call into the backend
  // costs more than encoding them. The table of an encoding comes from the
  // backend's own decoder (bytes 80-FF decoded each alone; the first byte of
  // a code point wins, as §9.2's index pointer), so the bytes are the
  // library's; a string with a code unit the table has not (unmappable, a
  // surrogate) goes to the backend.
  const SHORT_SINGLE_BYTE = 64;
  const SINGLE_BYTE_NAMES = new Set(['ibm866', 'iso-8859-2', 'iso-8859-3',
    'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8',
    'iso-8859-8-i', 'iso-8859-10', 'iso-8859-13', 'iso-8859-14',
    'iso-8859-15', 'iso-8859-16', 'koi8-r', 'koi8-u', 'macintosh',
    'windows-874', 'windows-1250', 'windows-1251', 'windows-1252',
    'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256',
    'windows-1257', 'windows-1258', 'x-mac-cyrillic', 'x-user-defined']);
  // By id: an array of 256 pages (code unit >> 8) of 256 bytes (0: none),
  // or null for an encoding that is not single-byte.
  const singleBytePages = [];

  function singleByteTable(id) {
    const cached = singleBytePages[id];
    if (cached !== undefined) return cached;
    let pages = null;
    if (SINGLE_BYTE_NAMES.has(nameOf(id))) {
      const high = new Uint8Array(128);
      for (let i = 0; i < 128; i++) high[i] = 0x80 + i;
      const text = joinPieces(backend.decodeOnce(id, high, 0, false));
      if (text.length === 128) {
        pages = new Array(256).fill(undefined);
        for (let i = 0; i < 128; i++) {
          const unit = text.charCodeAt(i);
          if (unit === 0xFFFD) continue; // no code point for the byte
          const page = pages[unit >> 8] ??
            (pages[unit >> 8] = new Uint8Array(256));
          if (page[unit & 0xFF] === 0) page[unit & 0xFF] = 0x80 + i;
        }
      }
    }
    singleBytePages[id] = pages;
    return pages;
  }

  // The bytes of input (at most SHORT_SINGLE_BYTE units) in the
  // single-byte encoding of `pages`, or null.
  function encodeShortSingleByte(pages, input) {
    const length = input.length;
    const output = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      const unit = input.charCodeAt(i);
      if (unit < 0x80) {
        output[i] = unit;
        continue;
      }
      const page = pages[unit >> 8];
      const byte = page === undefined ? 0 : page[unit & 0xFF];
      if (byte === 0) return null;
      output[i] = byte;
    }
    return output;
  }

  // encode(string, label, {bom, substitute, unmappable}): a Uint8Array.
  // The string is converted as TextEncoder's encode() does (undefined: '').
  function encode(string = '', label = undefined, options = undefined) {
    const input = `${string}`;
    const id = encoderId(label);
    let result;
    if (options === undefined) {
      if (input.length <= SHORT_SINGLE_BYTE) {
        const pages = singleByteTable(id);
        const bytes = pages === null ? null :
          encodeShortSingleByte(pages, input);
        if (bytes !== null) return bytes;
      }
      preparePool();
      result = backend.encodeOnce(id, input, 0, EMPTY, false);
    } else {
      const [mode, substitute, bom] = encodeOptions(id, options);
      preparePool();
      result = backend.encodeOnce(id, input, mode, substitute, bom);
    }
    result = takeOutput(result);
    if (Array.isArray(result)) throw encodeError(id, result);
    return result;
  }

  // A streaming decoder: write(bytes) and end(bytes) give strings; end()
  // finishes the stream and the next write() starts a new one, as does a
  // fatal error (thrown).
  class Decoder {
    #id;
    #handle;

    constructor(label, options = undefined) {
      const id = decoderId(label);
      const modes = decodeOptions(options);
      this.#id = id;
      this.#handle = backend.decoderOpen(id, modes & 3, modes > 3);
    }

    get encoding() { return nameOf(this.#id); }

    write(bytes) {
      return this.#write(toBytes(bytes, 'bytes'), false);
    }

    end(bytes = undefined) {
      return this.#write(bytes === undefined ? EMPTY :
        toBytes(bytes, 'bytes'), true);
    }

    #write(bytes, last) {
      const result = backend.decoderWrite(this.#handle, bytes, last);
      if (typeof result === 'string') return result;
      if (typeof result === 'number') throw decodeError(this.#id, result);
      return joinPieces(result);
    }
  }
  webidlInterface(Decoder, 'Decoder');

  // A streaming encoder: write(string) and end(string) give Uint8Arrays; a
  // high surrogate at the end of a chunk waits for the next.
  class Encoder {
    #id;
    #handle;

    constructor(label, options = undefined) {
      const id = encoderId(label);
      const [mode, substitute, bom] = encodeOptions(id, options);
      this.#id = id;
      this.#handle = backend.encoderOpen(id, mode, substitute, bom);
    }

    get encoding() { return nameOf(this.#id); }

    write(string = '') {
      return this.#write(`${string}`, false);
    }

    end(string = undefined) {
      return this.#write(string === undefined ? '' : `${string}`, true);
    }

    #write(string, last) {
      preparePool();
      const result = takeOutput(backend.encoderWrite(this.#handle, string,
        last));
      if (Array.isArray(result)) throw encodeError(this.#id, result);
      return result;
    }
  }
  webidlInterface(Encoder, 'Encoder');

  // Web streams: bytes in, strings out.
  function decoderStream(label, options = undefined) {
    const decoder = new Decoder(label, options);
    return new TransformStream({
      __proto__: null,
      transform(chunk, controller) {
        const output = decoder.write(chunk);
        if (output !== '') controller.enqueue(output);
      },
      flush(controller) {
        const output = decoder.end();
        if (output !== '') controller.enqueue(output);
      },
    }, writableStrategy(), readableStrategy());
  }

  // Web streams: strings in (converted with ToString, as
  // TextEncoderStream's), Uint8Arrays out.
  function encoderStream(label, options = undefined) {
    const encoder = new Encoder(label, options);
    return new TransformStream({
      __proto__: null,
      transform(chunk, controller) {
        const output = encoder.write(chunk);
        if (output.length !== 0) controller.enqueue(output);
      },
      flush(controller) {
        const output = encoder.end();
        if (output.length !== 0) controller.enqueue(output);
      },
    }, writableStrategy(), readableStrategy());
  }

  return {
    TextDecoder,
    TextEncoder,
    TextDecoderStream,
    TextEncoderStream,
    encode,
    decode,
    labelToName,
    encodingExists,
    Encoder,
    Decoder,
    encoderStream,
    decoderStream,
  };
}

module.exports = createWenc;

'use strict';
// The Encoding Standard's API (§7): TextDecoder, TextEncoder,
// TextDecoderStream and TextEncoderStream over the wenc C library. This
// module does the WebIDL conversions; build/wenc.node does the encoding.

const path = require('node:path');
const util = require('node:util');

const addonPath = path.join(__dirname, 'build', 'wenc.node');
let addon;
try {
  addon = require(addonPath);
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND') {
    throw new Error(
      `wenc: the addon ${addonPath} is not built; run "make node" ` +
        '(or sh bindings/node/build.sh) first',
      { cause: error });
  }
  throw error;
}

const { isArrayBuffer, isSharedArrayBuffer } = util.types;
const TransformStream = globalThis.TransformStream ||
  require('node:stream/web').TransformStream;

const uncurry = (fn) => Function.prototype.call.bind(fn);
const getter = (object, name) =>
  Object.getOwnPropertyDescriptor(object, name)?.get;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayName = uncurry(getter(TypedArrayPrototype, Symbol.toStringTag));
const typedArrayBuffer = uncurry(getter(TypedArrayPrototype, 'buffer'));
const typedArrayByteOffset =
  uncurry(getter(TypedArrayPrototype, 'byteOffset'));
const typedArrayByteLength =
  uncurry(getter(TypedArrayPrototype, 'byteLength'));
const dataViewBuffer = uncurry(getter(DataView.prototype, 'buffer'));
const resizableGetter = getter(ArrayBuffer.prototype, 'resizable');
const growableGetter = getter(SharedArrayBuffer.prototype, 'growable');
const isResizable = resizableGetter ? uncurry(resizableGetter) : () => false;
const isGrowable = growableGetter ? uncurry(growableGetter) : () => false;

// decode()'s input kinds, times 2 plus 1 for stream, in SLOT_MODE.
const INPUT_NONE = 0;
const INPUT_ARRAY_BUFFER = 2;
const INPUT_TYPED_ARRAY = 4;
const INPUT_DATA_VIEW = 6;
const INPUT_SHARED = 8; // wrapped in a Uint8Array before the addon sees it

// Numbers passed to and from the addon without a Node-API call each:
// decode()'s mode, decode()'s and encodeInto()'s typed array's byte range,
// encodeInto()'s source length, read and written.
const SLOT_MODE = 0;
const SLOT_BYTE_OFFSET = 1;
const SLOT_BYTE_LENGTH = 2;
const SLOT_READ = 3;
const SLOT_WRITTEN = 4;
const SLOT_SOURCE_UNITS = 5;
const slots = new Float64Array(new ArrayBuffer(48));
// encode()'s output for strings of up to SMALL_ENCODE_UNITS code units,
// copied into a new Uint8Array here (cheaper than one made by the addon).
const SMALL_ENCODE_UNITS = 256;
const smallOutput = new Uint8Array(new ArrayBuffer(3 * SMALL_ENCODE_UNITS));
addon.setSharedArrays(slots, smallOutput);

// The resizable getter throws for a SharedArrayBuffer, which is rare.
function isResizableBuffer(buffer) {
  try {
    return isResizable(buffer);
  } catch {
    return isGrowable(buffer);
  }
}

// WebIDL: AllowSharedBufferSource, i.e. (ArrayBuffer or SharedArrayBuffer or
// [AllowShared] ArrayBufferView), none of them resizable, for a value that is
// not a typed array (decodeInput() takes those). Returns the kind for the
// addon (INPUT_SHARED: the caller wraps it in a Uint8Array).
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
      throw new TypeError(`${what} must not be a growable SharedArrayBuffer`);
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
  const created = addon.decoderNew(labelString, fatal, ignoreBOM);
  if (created === null) {
    throw new RangeError(
      `The "${labelString}" encoding is not supported (not a label, or replacement)`);
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

// §7.2 decode(input, options) and §7.5 decode and enqueue a chunk: converts
// input (undefined or an AllowSharedBufferSource), then options (a
// TextDecodeOptions dictionary), then decodes. The addon's decode(handle,
// input, buffer) finds the mode in the slots, and a typed array's byte range
// there too when given its buffer, which spares it asking V8 for them.
function decodeInput(handle, input, options, what) {
  let kind = INPUT_NONE;
  let buffer;
  if (input !== undefined) {
    if (ArrayBuffer.isView(input) && typedArrayName(input) !== undefined) {
      buffer = typedArrayBuffer(input);
      if (isResizableBuffer(buffer)) {
        throw new TypeError(`${what} must not be backed by a resizable buffer`);
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
  // No user code runs from here to the addon's return.
  slots[SLOT_MODE] = kind + (stream ? 1 : 0);
  if (buffer !== undefined) {
    slots[SLOT_BYTE_OFFSET] = typedArrayByteOffset(input);
    slots[SLOT_BYTE_LENGTH] = typedArrayByteLength(input);
  }
  return addon.decode(handle, input, buffer);
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
    if (string.length > SMALL_ENCODE_UNITS) return addon.encode(string);
    const written = addon.encodeSmall(string);
    const output = new Uint8Array(written);
    for (let i = 0; i < written; i++) output[i] = smallOutput[i];
    return output;
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
      throw new TypeError('destination must not be backed by a resizable buffer');
    }
    slots[SLOT_BYTE_OFFSET] = typedArrayByteOffset(destination);
    slots[SLOT_BYTE_LENGTH] = typedArrayByteLength(destination);
    slots[SLOT_SOURCE_UNITS] = sourceString.length;
    addon.encodeInto(sourceString, destination, buffer);
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
    const handle = addon.encoderStreamNew();
    this.#transform = new TransformStream({
      __proto__: null,
      // §7.6 encode and enqueue a chunk
      transform(chunk, controller) {
        const output = addon.encoderStreamChunk(handle, `${chunk}`);
        if (output !== undefined) controller.enqueue(output);
      },
      // §7.6 encode and flush
      flush(controller) {
        const output = addon.encoderStreamFlush(handle);
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

module.exports = {
  TextDecoder,
  TextEncoder,
  TextDecoderStream,
  TextEncoderStream,
};

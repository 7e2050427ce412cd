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
const typedArrayLength = uncurry(getter(TypedArrayPrototype, 'length'));
const dataViewBuffer = uncurry(getter(DataView.prototype, 'buffer'));
const resizableGetter = getter(ArrayBuffer.prototype, 'resizable');
const growableGetter = getter(SharedArrayBuffer.prototype, 'growable');
const isResizable = resizableGetter ? uncurry(resizableGetter) : () => false;
const isGrowable = growableGetter ? uncurry(growableGetter) : () => false;

const INPUT_NONE = 0;
const INPUT_ARRAY_BUFFER = 2;
const INPUT_TYPED_ARRAY = 4;
const INPUT_DATA_VIEW = 6;
const INPUT_SHARED = 8; // wrapped in a Uint8Array before the addon sees it

// Arrays the addon writes into: encodeInto's written count, and encode()'s
// output for strings of up to SMALL_ENCODE_UNITS code units, which is copied
// into a new Uint8Array here (cheaper than an ArrayBuffer made by the addon).
const SMALL_ENCODE_UNITS = 256;
const SHORT_ASCII_UNITS = 64;
const encodeIntoSlots = new Float64Array(new ArrayBuffer(16));
const smallOutput = new Uint8Array(new ArrayBuffer(3 * SMALL_ENCODE_UNITS));
addon.setSharedArrays(encodeIntoSlots, smallOutput);

// The resizable getter throws for a SharedArrayBuffer, which is rare.
function isResizableBuffer(buffer) {
  try {
    return isResizable(buffer);
  } catch {
    return isGrowable(buffer);
  }
}

// WebIDL: AllowSharedBufferSource, i.e. (ArrayBuffer or SharedArrayBuffer or
// [AllowShared] ArrayBufferView), none of them resizable. Returns the kind
// for the addon (INPUT_SHARED: the caller wraps it in a Uint8Array).
function bufferSourceKind(value, what) {
  if (ArrayBuffer.isView(value)) {
    if (typedArrayName(value) !== undefined) {
      if (isResizableBuffer(typedArrayBuffer(value))) {
        throw new TypeError(`${what} must not be backed by a resizable buffer`);
      }
      return INPUT_TYPED_ARRAY;
    }
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
  throw new TypeError(
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
    const handle = this.#handle;
    let kind = INPUT_NONE;
    if (input !== undefined) {
      kind = bufferSourceKind(input, 'input');
      if (kind === INPUT_SHARED) {
        input = new Uint8Array(input);
        kind = INPUT_TYPED_ARRAY;
      }
    }
    let stream = false;
    if (options !== undefined) {
      const dict = dictionary(options, 'options');
      if (dict !== undefined) stream = Boolean(dict.stream);
    }
    return addon.decode(handle, input, kind + (stream ? 1 : 0));
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
    if (isResizableBuffer(typedArrayBuffer(destination))) {
      throw new TypeError('destination must not be backed by a resizable buffer');
    }
    // Short ASCII strings are copied here: a call into the addon costs more.
    const length = sourceString.length;
    if (length <= SHORT_ASCII_UNITS && length <= typedArrayLength(destination)) {
      let i = 0;
      for (; i < length; i++) {
        const unit = sourceString.charCodeAt(i);
        if (unit >= 0x80) break;
        destination[i] = unit;
      }
      if (i === length) return { read: length, written: length };
    }
    const read = addon.encodeInto(sourceString, destination);
    return { read, written: encodeIntoSlots[1] };
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
        let kind = bufferSourceKind(chunk, 'chunk');
        if (kind === INPUT_SHARED) {
          chunk = new Uint8Array(chunk);
          kind = INPUT_TYPED_ARRAY;
        }
        const output = addon.decode(handle, chunk, kind + 1);
        if (output !== '') controller.enqueue(output);
      },
      // §7.5 flush and enqueue
      flush(controller) {
        const output = addon.decode(handle, undefined, INPUT_NONE);
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

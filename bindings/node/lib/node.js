'use strict';
// The API for Node.js: lib/core.js over a backend, plus Node streams
// (decodeStream, encodeStream: stream.Transform, as iconv-lite's).

const { Transform } = require('node:stream');
const createWenc = require('./core.js');

// nodeApi(backend, name): the API object; name ('native' or 'wasm') is its
// non-enumerable `backend` property.
module.exports = function nodeApi(backend, name = undefined) {
  const api = createWenc(backend);
  const { Decoder, Encoder } = api;

  // Calls a Transform's callback with step()'s output as convert() makes it
  // (undefined: nothing to push), or with the error step() threw.
  function settle(callback, step, convert) {
    let output;
    try {
      output = step();
    } catch (error) {
      callback(error);
      return;
    }
    callback(null, convert(output));
  }

  const nonEmptyString = (string) => string === '' ? undefined : string;

  // Bytes (Buffer, Uint8Array, any ArrayBufferView or ArrayBuffer) in,
  // strings out: the readable side has encoding 'utf8', so 'data' gives
  // strings. A fatal error is the stream's 'error'.
  function decodeStream(label, options = undefined) {
    const decoder = new Decoder(label, options);
    return new Transform({
      decodeStrings: false,
      encoding: 'utf8',
      transform(chunk, encoding, callback) {
        if (typeof chunk === 'string') {
          callback(new TypeError('decodeStream takes bytes (a Buffer or ' +
            'Uint8Array), not strings'));
          return;
        }
        settle(callback, () => decoder.write(chunk), nonEmptyString);
      },
      flush(callback) {
        settle(callback, () => decoder.end(), nonEmptyString);
      },
    });
  }

  const toBuffer = (bytes) => bytes.length === 0 ? undefined :
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

  // Strings in, Buffers out. Anything but a string is a TypeError (the
  // stream's 'error').
  function encodeStream(label, options = undefined) {
    const encoder = new Encoder(label, options);
    return new Transform({
      decodeStrings: false,
      transform(chunk, encoding, callback) {
        if (typeof chunk !== 'string') {
          callback(new TypeError('encodeStream takes strings, not ' +
            (chunk === null ? 'null' : typeof chunk)));
          return;
        }
        settle(callback, () => encoder.write(chunk), toBuffer);
      },
      flush(callback) {
        settle(callback, () => encoder.end(), toBuffer);
      },
    });
  }

  api.decodeStream = decodeStream;
  api.encodeStream = encodeStream;
  if (name !== undefined) {
    Object.defineProperty(api, 'backend', {
      value: name, enumerable: false, writable: false, configurable: false,
    });
  }
  return api;
};

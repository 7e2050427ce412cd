'use strict';
// wenc: the Encoding Standard's API (§7) and the wider API (lib/core.js,
// lib/node.js) over the native addon when build/wenc.node loads, else over
// the WebAssembly build (wasm.js). The `backend` property (not enumerable)
// says which: 'native' or 'wasm'.

let api;
try {
  api = require('./native.js');
} catch (nativeError) {
  try {
    api = require('./wasm.js');
  } catch (wasmError) {
    throw new Error('wenc: neither backend loads. The native addon: ' +
      `${nativeError && nativeError.message}. The WebAssembly build ` +
      `(wasm.js): ${wasmError && wasmError.message}`,
    { cause: new AggregateError([nativeError, wasmError]) });
  }
}
if (!Object.prototype.hasOwnProperty.call(api, 'backend')) {
  Object.defineProperty(api, 'backend', {
    value: 'wasm', enumerable: false, writable: false, configurable: false,
  });
}

module.exports = api;

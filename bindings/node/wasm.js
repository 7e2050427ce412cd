'use strict';
// wenc over the WebAssembly build (wasm/dist/, made by wasm/build.sh):
// lib/core.js and lib/node.js over wasm/backend.js, for a Node.js where the
// native addon does not build. Loads synchronously: the module is small
// enough to compile on the main thread.

const fs = require('node:fs');
const path = require('node:path');
const createBackend = require('./wasm/backend.js');

const dist = path.join(__dirname, 'wasm', 'dist');
const file = path.join(dist, createBackend.hasSimd() ? 'wenc.wasm' : 'wenc-nosimd.wasm');
let bytes;
try {
  bytes = fs.readFileSync(file);
} catch (error) {
  if (error && error.code === 'ENOENT') {
    throw new Error(`wenc: the WebAssembly build ${file} is not there; run ` +
      '"sh bindings/node/wasm/build.sh" first', { cause: error });
  }
  throw error;
}

module.exports = require('./lib/node.js')(
  createBackend(new WebAssembly.Module(bytes)), 'wasm');

'use strict';
// wenc's two builds for the benchmark: bindings/node/native.js (the Node-API
// addon) and bindings/node/wasm.js (WebAssembly), both exposing
// decode(bytes, label, options) → string and encode(string, label, options)
// → Uint8Array. Where native.js is not there (or lacks that API) the
// benchmark falls back to bindings/node (index.js): its TextDecoder, its
// TextEncoder for UTF-8 and the addon's encodeLegacy, for tests and
// benchmarks, for the legacy encodings; it has no UTF-16 encoder.

const fs = require('node:fs');
const path = require('node:path');
const { root } = require('./inputs.js');
const { wencApi } = require('./adapters.mjs');

const binding = path.join(root, 'bindings', 'node');

// An implementation as the benchmark sees it: decoder(label) and
// encoder(label) return a function of one argument, or null where it lacks
// that encoding or direction.
function fromApi(name, module, note) {
  return { name, note, ...wencApi(module) };
}

// The fallback for the native column: bindings/node's index.js.
function fromIndex() {
  const index = require(binding);
  const addon = require(path.join(binding, 'build', 'wenc.node'));
  const utf8 = new index.TextEncoder();
  return {
    name: 'wenc native',
    note: 'the native column is bindings/node/index.js (TextDecoder; ' +
      "TextEncoder for UTF-8, the addon's encodeLegacy for the legacy " +
      'encodings; no UTF-16 encoder)',
    decoder(label) {
      const decoder = new index.TextDecoder(label);
      return (bytes) => decoder.decode(bytes);
    },
    encoder(label) {
      if (label === 'utf-8') return (string) => utf8.encode(string);
      if (label.startsWith('utf-16')) return null;
      return (string) => addon.encodeLegacy(label, string, false);
    },
  };
}

// Loads a build's module, waiting for it where it is a promise or has a
// ready promise or an init() (the WebAssembly build may need to compile its
// module first). Returns the module, or an Error that says why not.
async function load(file) {
  if (!fs.existsSync(file)) return new Error(`${path.relative(root, file)} does not exist`);
  try {
    let module = require(file);
    if (module && typeof module.then === 'function') module = await module;
    if (module && module.ready && typeof module.ready.then === 'function') {
      await module.ready;
    } else if (module && typeof module.init === 'function') {
      await module.init();
    }
    if (typeof module.encode !== 'function' || typeof module.decode !== 'function') {
      return new Error(`${path.relative(root, file)} has no decode/encode`);
    }
    // A build under way may load and still not work.
    const bytes = module.encode('\u3042', 'shift_jis');
    if (bytes[0] !== 0x82 || bytes[1] !== 0xA0 || bytes.length !== 2 ||
        module.decode(bytes, 'shift_jis') !== '\u3042') {
      return new Error(`${path.relative(root, file)} fails a smoke test`);
    }
    return module;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

// { native, wasm (or null), notes: [loud lines to print] }
async function loadWenc() {
  const notes = [];
  const native = await load(path.join(binding, 'native.js'));
  const wasm = await load(path.join(binding, 'wasm.js'));
  let nativeImpl;
  if (native instanceof Error) {
    nativeImpl = fromIndex();
    notes.push(`NOTE: bindings/node/native.js cannot be used (${native.message}): ` +
      nativeImpl.note);
  } else {
    nativeImpl = fromApi('wenc native', native);
  }
  let wasmImpl = null;
  if (wasm instanceof Error) {
    notes.push('NOTE: THE WEBASSEMBLY COLUMN IS MISSING: bindings/node/wasm.js ' +
      `could not be used (${wasm.message})`);
  } else {
    wasmImpl = fromApi('wenc wasm', wasm);
  }
  return { native: nativeImpl, wasm: wasmImpl, notes };
}

// wenc's version: the binding's package.json and the repository's commit.
function wencVersion() {
  const version = JSON.parse(fs.readFileSync(path.join(binding, 'package.json'),
    'utf8')).version;
  let commit = '';
  try {
    commit = require('node:child_process').execFileSync('git',
      ['-C', root, 'rev-parse', '--short', 'HEAD'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout
  }
  return commit ? `${version} (git ${commit})` : version;
}

module.exports = { loadWenc, wencVersion };

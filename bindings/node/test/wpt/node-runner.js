'use strict';
// Runs one vendored WPT file in Node.js: a fresh node:vm context per file,
// whose global has our harness (harness.js), the four classes of the
// implementation under test in place of TextDecoder, TextEncoder,
// TextDecoderStream and TextEncoderStream, and what the files need from the
// platform; then the file's META scripts and the file, as classic scripts.
//
// The platform objects are this (the main) realm's: the implementation under
// test lives here, so the buffers and streams the tests make must be the
// ones it sees, and the errors it throws must be instances of the
// constructors the tests compare with (assert_throws_js checks the
// constructor's identity) - as in a browser, where the tests and TextDecoder
// share one realm. Object, Array, Promise and the like stay the context's.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const streams = require('node:stream/web');
const { MessageChannel } = require('node:worker_threads');
const { createHarness } = require('./harness.js');
const { wptDir } = require('./files.js');

const CLASSES = [
  'TextDecoder', 'TextEncoder', 'TextDecoderStream', 'TextEncoderStream',
];

const PLATFORM = {
  ReadableStream: globalThis.ReadableStream || streams.ReadableStream,
  WritableStream: globalThis.WritableStream || streams.WritableStream,
  TransformStream: globalThis.TransformStream || streams.TransformStream,
  ArrayBuffer,
  SharedArrayBuffer,
  DataView,
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  WebAssembly,
  MessageChannel: globalThis.MessageChannel || MessageChannel,
  setTimeout,
  clearTimeout,
  queueMicrotask,
  structuredClone,
  console,
  // common/subset-tests.js reads location.search: no subset, run them all.
  location: { search: '', href: 'http://wenc.invalid/encoding/' },
};

const sources = new Map();
function source(file) {
  if (!sources.has(file)) {
    sources.set(file, fs.readFileSync(path.join(wptDir, file), 'utf8'));
  }
  return sources.get(file);
}

// Runs scripts [{ filename, text }] in order in a fresh context against impl
// (an object with the four classes), with the given timeout; resolves to
// [{name, status, message}].
async function runScripts(impl, scripts, timeoutMs) {
  const harness = createHarness({ timeoutMs });
  const context = vm.createContext({});
  const global = vm.runInContext('globalThis', context);
  const define = (name, value) => Object.defineProperty(global, name, {
    value, writable: true, configurable: true, enumerable: false,
  });
  for (const [name, value] of Object.entries(PLATFORM)) define(name, value);
  for (const name of CLASSES) {
    if (typeof impl[name] !== 'function') {
      throw new Error(`the implementation under test has no ${name}`);
    }
    define(name, impl[name]);
  }
  define('self', global);
  harness.install(global);

  // A rejection nobody handles, inside a test, is not a result; keep it
  // from ending the process while this file runs.
  const ignore = () => {};
  process.on('unhandledRejection', ignore);
  try {
    for (const { filename, text } of scripts) {
      try {
        new vm.Script(text, { filename }).runInContext(context);
      } catch (error) {
        harness.scriptError(error);
        break;
      }
    }
    return await harness.finish();
  } finally {
    // Let pending rejections of this file surface before unhooking.
    await new Promise((resolve) => setImmediate(resolve));
    process.removeListener('unhandledRejection', ignore);
  }
}

// Runs the WPT file described by describeFile() against impl; resolves to
// [{file, name, status, message}].
async function runFile(impl, description) {
  const scripts = [...description.scripts, description.file].map((file) => ({
    filename: path.join(wptDir, file), text: source(file),
  }));
  const results = await runScripts(impl, scripts, description.timeoutMs);
  return results.map((r) => ({ file: description.file, ...r }));
}

module.exports = { runFile, runScripts, CLASSES };

// wenc as an ES module for browsers, Deno and Bun: lib/core.js over the
// WebAssembly build (wasm/backend.js over dist/wenc.wasm, or
// dist/wenc-nosimd.wasm where the runtime has no wasm SIMD). Made ready by
// top-level await: importers get a working API.
//
// dist/ is written by wasm/build.sh (core.mjs and backend.mjs are the
// CommonJS lib/core.js and wasm/backend.js wrapped as ES modules).

import createWenc from './dist/core.mjs';
import createBackend from './dist/backend.mjs';

// Each URL written out whole, as bundlers look for new URL('...',
// import.meta.url) to ship the file.
const url = createBackend.hasSimd() ?
  new URL('./dist/wenc.wasm', import.meta.url) :
  new URL('./dist/wenc-nosimd.wasm', import.meta.url);

// The module's bytes from the file system, for a file: URL that fetch()
// does not take (Node; older Deno and Bun). The specifier is not a literal,
// so that bundlers for browsers leave it alone.
async function readFileBytes(fileUrl) {
  if (typeof globalThis.Deno?.readFile === 'function') {
    return globalThis.Deno.readFile(fileUrl);
  }
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(fsModule);
  return readFile(fileUrl);
}

// Compiles the module: streaming where the server says application/wasm,
// else from the whole body (a server with another MIME type), else from
// the file system.
async function compile(moduleUrl) {
  let response;
  try {
    response = await fetch(moduleUrl);
  } catch (fetchError) {
    if (moduleUrl.protocol !== 'file:') throw fetchError;
    return WebAssembly.compile(await readFileBytes(moduleUrl));
  }
  if (!response.ok) {
    throw new Error(`wenc: ${moduleUrl} could not be loaded (HTTP ` +
      `${response.status}); was "sh bindings/node/wasm/build.sh" run?`);
  }
  const type = response.headers.get('content-type') || '';
  if (typeof WebAssembly.compileStreaming === 'function' &&
      /^application\/wasm\b/i.test(type)) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

const api = createWenc(createBackend(await compile(url)));
Object.defineProperty(api, 'backend', {
  value: 'wasm', enumerable: false, writable: false, configurable: false,
});

export const {
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
} = api;
export const backend = 'wasm';
export default api;

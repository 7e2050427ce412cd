// The WebAssembly build's API as an ES module for Node.js: `import {encode} from 'wenc/wasm'`
// (browsers, Deno and Bun load wasm/browser.mjs instead).
import api from './wasm.js';

export const {
  TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream,
  encode, decode, labelToName, encodingExists, Encoder, Decoder,
  encoderStream, decoderStream, decodeStream, encodeStream,
} = api;
export const backend = api.backend;
export default api;

// Types for wasm/browser.mjs, the ES module for browsers, Deno and Bun
// (`import ... from 'wenc/browser'`): the API of index.d.ts without the Node
// stream Transforms, which need Node's streams.

import type * as wenc from '../index.js';

export {
  TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream,
  encode, decode, labelToName, encodingExists, Encoder, Decoder,
  encoderStream, decoderStream,
} from '../index.js';
export type {
  AllowSharedBufferSource, TextDecoderOptions, TextDecodeOptions,
  TextEncoderEncodeIntoResult, Bytes, Unmappable, EncodeOptions, BomMode,
  DecodeOptions, DecodeError, EncodeError,
} from '../index.js';

/** Always "wasm": this module runs the WebAssembly build. */
export const backend: 'wasm';

declare const api: Omit<typeof wenc, 'decodeStream' | 'encodeStream' | 'backend'> & {
  readonly backend: 'wasm';
};
export default api;

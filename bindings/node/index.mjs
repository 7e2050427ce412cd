// wenc as an ES module for Node.js: the same object as index.js.
import api from './index.js';

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
  decodeStream,
  encodeStream,
} = api;
export const backend = api.backend;
export default api;

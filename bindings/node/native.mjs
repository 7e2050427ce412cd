// The native addon's API as an ES module (Node.js): `import {encode} from 'wenc/native'`.
import api from './native.js';

export const {
  TextDecoder, TextEncoder, TextDecoderStream, TextEncoderStream,
  encode, decode, labelToName, encodingExists, Encoder, Decoder,
  encoderStream, decoderStream, decodeStream, encodeStream,
} = api;
export const backend = api.backend;
export default api;

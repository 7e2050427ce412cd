// The implementations that run both in Node (lib/wenc.js and lib/peers.js,
// through require) and in browser.js's page (lib/page.mjs): wenc's API,
// @exodus/bytes, given its modules, and the host's TextDecoder/TextEncoder. Each returns { decoder(label),
// encoder(label) }: a function of one argument, or null where the peer lacks
// the encoding or direction. Standard JavaScript only.

// wenc's decode() is called with TextDecoder's BOM handling, as the peers
// have (its default, the Standard's decode, takes FF FE at the start of
// windows-1251 "яю" for a UTF-16LE BOM).
const DECODE_OPTIONS = Object.freeze({ bom: 'strip' });

// A build of wenc: decode(bytes, label, options) and encode(string, label).
export function wencApi(module) {
  return {
    decoder: (label) => (bytes) => module.decode(bytes, label, DECODE_OPTIONS),
    encoder: (label) => (string) => module.encode(string, label),
  };
}

const EXODUS_SINGLE_BYTE = new Set(['ibm866', 'iso-8859-2', 'iso-8859-3',
  'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8',
  'iso-8859-8-i', 'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15',
  'iso-8859-16', 'koi8-r', 'koi8-u', 'macintosh', 'windows-874',
  'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253',
  'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257',
  'windows-1258', 'x-mac-cyrillic']);
const EXODUS_MULTI_BYTE = new Set(['gbk', 'gb18030', 'big5', 'euc-jp',
  'iso-2022-jp', 'shift_jis', 'euc-kr']);

// @exodus/bytes's per-encoding functions (the fastest it has; its
// TextDecoder calls them): loose decoders, and its encoders, which are
// fatal only (the inputs have nothing unmappable). The modules are its
// single-byte.js, multi-byte.js, utf8.js and utf16.js.
export function exodusBytes({ single, multi, utf8, utf16 }) {
  return {
    decoder(label) {
      if (label === 'utf-8') return utf8.utf8toStringLoose;
      if (label === 'utf-16le') return (bytes) => utf16.utf16toStringLoose(bytes, 'uint8-le');
      if (EXODUS_SINGLE_BYTE.has(label)) return single.createSinglebyteDecoder(label, true);
      if (EXODUS_MULTI_BYTE.has(label)) {
        const decode = multi.createMultibyteDecoder(label, true);
        return (bytes) => decode(bytes);
      }
      return null;
    },
    encoder(label) {
      if (label === 'utf-8') return utf8.utf8fromStringLoose;
      if (label === 'utf-16le') return (string) => utf16.utf16fromStringLoose(string, 'uint8-le');
      if (EXODUS_SINGLE_BYTE.has(label)) return single.createSinglebyteEncoder(label);
      if (EXODUS_MULTI_BYTE.has(label)) return multi.createMultibyteEncoder(label);
      return null;
    },
  };
}

// The host's TextDecoder (every label it knows) and TextEncoder (UTF-8).
export function hostText() {
  const encoder = new TextEncoder();
  return {
    decoder(label) {
      let decoder;
      try {
        decoder = new TextDecoder(label);
      } catch {
        return null;
      }
      return (bytes) => decoder.decode(bytes);
    },
    encoder: (label) => (label === 'utf-8' ? (string) => encoder.encode(string) : null),
  };
}

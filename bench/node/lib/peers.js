'use strict';
// The peers, each through the API its users call for one whole input:
// iconv-lite, @exodus/bytes and encoding-japanese (JavaScript, from npm,
// pinned in package.json), and Node's built-ins (TextDecoder/TextEncoder,
// Buffer), which are C++. decoder(label) / encoder(label) return a
// function of one argument, or null where the peer lacks the encoding or
// direction. Every peer is made to replace errors as the Standard does
// (U+FFFD), which the inputs never need.

const fs = require('node:fs');
const path = require('node:path');

const modules = path.join(__dirname, '..', 'node_modules');

function version(name) {
  return JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'),
    'utf8')).version;
}

function need(name) {
  try {
    return require(name);
  } catch (error) {
    throw new Error(`bench: ${name} is not installed; run ` +
      '"npm ci --prefix bench/node" first', { cause: error });
  }
}

function iconvLite() {
  const iconv = need('iconv-lite');
  const has = (label) => iconv.encodingExists(label);
  return {
    name: 'iconv-lite',
    js: true,
    version: version('iconv-lite'),
    decoder: (label) => (has(label) ? (bytes) => iconv.decode(bytes, label) : null),
    encoder: (label) => (has(label) ? (string) => iconv.encode(string, label) : null),
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
// fatal only (the inputs have nothing unmappable).
function exodusBytes() {
  const single = need('@exodus/bytes/single-byte.js');
  const multi = need('@exodus/bytes/multi-byte.js');
  const utf8 = need('@exodus/bytes/utf8.js');
  const utf16 = need('@exodus/bytes/utf16.js');
  return {
    name: '@exodus/bytes',
    js: true,
    version: version('@exodus/bytes'),
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

// encoding-japanese's names for the encodings it has.
const JAPANESE = new Map([['shift_jis', 'SJIS'], ['euc-jp', 'EUCJP'],
  ['iso-2022-jp', 'JIS'], ['utf-8', 'UTF8'], ['utf-16le', 'UTF16LE']]);

// encoding-japanese's convert(); encoding gives an array of numbers, which
// a caller turns into bytes.
function encodingJapanese() {
  const Encoding = need('encoding-japanese');
  return {
    name: 'encoding-japanese',
    js: true,
    version: version('encoding-japanese'),
    decoder(label) {
      const from = JAPANESE.get(label);
      if (!from) return null;
      const options = { to: 'UNICODE', from, type: 'string' };
      return (bytes) => Encoding.convert(bytes, options);
    },
    encoder(label) {
      const to = JAPANESE.get(label);
      if (!to) return null;
      const options = { to, from: 'UNICODE', type: 'array' };
      return (string) => Uint8Array.from(Encoding.convert(string, options));
    },
  };
}

// Node's TextDecoder (ICU's converters for the legacy encodings, simdutf
// for UTF-8) and TextEncoder (UTF-8 only).
function nodeText() {
  const encoder = new TextEncoder();
  return {
    name: 'Node TextDecoder/TextEncoder',
    js: false,
    version: `Node ${process.version}, ICU ${process.versions.icu}`,
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

// Buffer's toString and Buffer.from: utf8, utf16le, and latin1 for the
// windows-1252 rows (latin1 is ISO-8859-1: it differs from windows-1252 at
// 0x80-0x9F).
const BUFFER = new Map([['utf-8', 'utf8'], ['utf-16le', 'utf16le'],
  ['windows-1252', 'latin1']]);

function nodeBuffer() {
  return {
    name: 'Node Buffer',
    js: false,
    version: `Node ${process.version}`,
    decoder(label) {
      const name = BUFFER.get(label);
      return name ? (bytes) => bytes.toString(name) : null;
    },
    encoder(label) {
      const name = BUFFER.get(label);
      return name ? (string) => Buffer.from(string, name) : null;
    },
  };
}

function loadPeers() {
  return [iconvLite(), exodusBytes(), encodingJapanese(), nodeText(),
    nodeBuffer()];
}

module.exports = { loadPeers };

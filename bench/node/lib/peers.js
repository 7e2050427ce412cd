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

const adapters = require('./adapters.mjs');

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

// @exodus/bytes's per-encoding functions (lib/adapters.mjs).
function exodusBytes() {
  return {
    name: '@exodus/bytes',
    js: true,
    version: version('@exodus/bytes'),
    ...adapters.exodusBytes({
      single: need('@exodus/bytes/single-byte.js'),
      multi: need('@exodus/bytes/multi-byte.js'),
      utf8: need('@exodus/bytes/utf8.js'),
      utf16: need('@exodus/bytes/utf16.js'),
    }),
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
  return {
    name: 'Node TextDecoder/TextEncoder',
    js: false,
    version: `Node ${process.version}, ICU ${process.versions.icu}`,
    ...adapters.hostText(),
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

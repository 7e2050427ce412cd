/*
 * The inputs and outputs of the every-code-point comparison: the browser
 * module (in Chromium) against the C library (the native addon in Node).
 * A classic script in the page (self.WencEveryCodePoint) and a CommonJS
 * module for run.js, so both sides build the same inputs the same way.
 *
 * A key is "<encoding>|encode|<html|skip>|<whole|chunks:N>" or
 * "<encoding>|decode|keep|<whole|chunks:N>"; output(api, key, text) gives
 * its bytes with that API (encode(), or new Encoder() fed N code units at a
 * time; decode(), or new Decoder() fed N bytes at a time; a decoded string
 * as its UTF-16LE bytes). Every way of one encoding × direction × mode must
 * give the bytes of its "whole" output in Node.
 */
(function (root) {
  'use strict';

  // The Standard's encodings (encodings.json's names, in its order).
  const ENCODINGS = [
    'UTF-8', 'IBM866', 'ISO-8859-2', 'ISO-8859-3', 'ISO-8859-4',
    'ISO-8859-5', 'ISO-8859-6', 'ISO-8859-7', 'ISO-8859-8', 'ISO-8859-8-I',
    'ISO-8859-10', 'ISO-8859-13', 'ISO-8859-14', 'ISO-8859-15',
    'ISO-8859-16', 'KOI8-R', 'KOI8-U', 'macintosh', 'windows-874',
    'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253',
    'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257',
    'windows-1258', 'x-mac-cyrillic', 'GBK', 'gb18030', 'Big5', 'EUC-JP',
    'ISO-2022-JP', 'Shift_JIS', 'EUC-KR', 'replacement', 'UTF-16BE',
    'UTF-16LE', 'x-user-defined',
  ];
  const ENCODE_MODES = ['html', 'skip'];
  // The Encoder's chunk sizes, in code units. Odd: the string's
  // supplementary code points start at an even offset (63,488 BMP units
  // before them), so every other cut splits a surrogate pair. Each encoding
  // × mode is fed in chunks of one of them, in turn (the encodings' two
  // modes get different sizes; each size serves about 20 encodings).
  const ENCODE_CHUNKS = [1021, 4093, 65537, 262147];
  const DECODE_CHUNKS = [1021];
  const SEPARATOR = 0x20;

  function keys() {
    const list = [];
    ENCODINGS.forEach((name, i) => {
      if (name !== 'replacement') {
        ENCODE_MODES.forEach((mode, j) => {
          const chunk = ENCODE_CHUNKS[(2 * i + j) % ENCODE_CHUNKS.length];
          list.push(`${name}|encode|${mode}|whole`,
            `${name}|encode|${mode}|chunks:${chunk}`);
        });
      }
      for (const way of ['whole', ...DECODE_CHUNKS.map((n) => `chunks:${n}`)]) {
        list.push(`${name}|decode|keep|${way}`);
      }
    });
    return list;
  }

  function parseKey(key) {
    const [name, direction, mode, way] = key.split('|');
    return { name, direction, mode, way,
      chunk: way === 'whole' ? 0 : Number(way.slice(7)),
      reference: `${name}|${direction}|${mode}|whole` };
  }

  // Code point index i (surrogates left out) <-> code point, and the number
  // of UTF-16 code units the first n of them take.
  const SCALAR_VALUES = 0x110000 - 0x800;
  const BMP_SCALARS = 0x10000 - 0x800;
  const codePointAt = (i) => (i < 0xD800 ? i : i + 0x800);
  const unitsBefore = (n) => (n <= BMP_SCALARS ? n :
    BMP_SCALARS + 2 * (n - BMP_SCALARS));

  // U+0000..U+10FFFF without the surrogates, in order.
  function scalarValuesString() {
    const parts = [];
    let units = [];
    for (let c = 0; c <= 0x10FFFF; c++) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      if (c < 0x10000) {
        units.push(c);
      } else {
        units.push(0xD800 + ((c - 0x10000) >> 10),
          0xDC00 + ((c - 0x10000) & 0x3FF));
      }
      if (units.length >= 8192) {
        parts.push(String.fromCharCode.apply(null, units));
        units = [];
      }
    }
    parts.push(String.fromCharCode.apply(null, units));
    return parts.join('');
  }

  function byteWriter() {
    let bytes = new Uint8Array(1 << 16);
    let length = 0;
    const push = (...values) => {
      if (length + values.length > bytes.length) {
        const bigger = new Uint8Array(bytes.length * 2);
        bigger.set(bytes.subarray(0, length));
        bytes = bigger;
      }
      for (const value of values) bytes[length++] = value;
    };
    return { push, done: () => bytes.slice(0, length) };
  }

  const range = (from, to) => Array.from({ length: to - from + 1 },
    (_, i) => from + i);

  // Every scalar value in UTF-8, or UTF-16 of the given order, by the
  // Standard's (and Unicode's) algorithms.
  function pushScalarValues(push, form) {
    for (let c = 0; c <= 0x10FFFF; c++) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      if (form === 'UTF-8') {
        if (c < 0x80) {
          push(c);
        } else if (c < 0x800) {
          push(0xC0 | (c >> 6), 0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
          push(0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F));
        } else {
          push(0xF0 | (c >> 18), 0x80 | ((c >> 12) & 0x3F),
            0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F));
        }
      } else {
        const units = c < 0x10000 ? [c] : [0xD800 + ((c - 0x10000) >> 10),
          0xDC00 + ((c - 0x10000) & 0x3FF)];
        for (const unit of units) {
          if (form === 'UTF-16LE') push(unit & 0xFF, unit >> 8);
          else push(unit >> 8, unit & 0xFF);
        }
      }
    }
  }

  // The bytes decoded for an encoding: every single byte (each followed by
  // a separator, so a lead byte meets it), then what its decoder reads in
  // more than one byte: every lead × trail pair, and so on.
  function decodeInput(name) {
    const { push, done } = byteWriter();
    for (const b of range(0, 0xFF)) push(b, SEPARATOR);
    const pairs = (leads, trails, extra = []) => {
      for (const lead of leads) {
        for (const trail of trails) push(...extra, lead, trail, SEPARATOR);
      }
    };
    switch (name) {
    case 'UTF-8': {
      pairs(range(0x80, 0xFF), range(0, 0xFF));
      const near = range(0x7F, 0xC0);
      for (const lead of range(0xE0, 0xF4)) pairs(near, near, [lead]);
      for (const lead of range(0xF0, 0xF4)) {
        for (const second of near) {
          pairs(near, [0x7F, 0x80, 0xBF, 0xC0], [lead, second]);
        }
      }
      pushScalarValues(push, name);
      break;
    }
    case 'UTF-16LE': case 'UTF-16BE':
      for (const unit of range(0, 0xFFFF)) {
        if (name === 'UTF-16LE') push(unit & 0xFF, unit >> 8);
        else push(unit >> 8, unit & 0xFF);
      }
      pushScalarValues(push, name);
      push(0x41); // an odd byte at the end
      break;
    case 'Shift_JIS': case 'EUC-KR': case 'Big5':
      pairs(range(0x80, 0xFF), range(0, 0xFF));
      break;
    case 'EUC-JP':
      pairs(range(0x80, 0xFF), range(0, 0xFF));
      pairs(range(0x80, 0xFF), range(0, 0xFF), [0x8F]);
      break;
    case 'GBK': case 'gb18030': {
      pairs(range(0x80, 0xFF), range(0, 0xFF));
      // Four-byte sequences: every 7th of 81-FE 30-39 81-FE 30-39, all of
      // 81-84 (the BMP ranges) and of E3 (around U+10FFFF), and third or
      // fourth bytes out of range.
      let n = 0;
      for (const b1 of range(0x81, 0xFE)) {
        for (const b2 of range(0x30, 0x39)) {
          for (const b3 of range(0x81, 0xFE)) {
            for (const b4 of range(0x30, 0x39)) {
              if (n++ % 7 === 0 || b1 <= 0x84 || b1 === 0xE3) {
                push(b1, b2, b3, b4);
              }
            }
          }
        }
      }
      pairs(range(0, 0xFF), [0x30], [0x81, 0x30]);
      pairs([0x81], range(0, 0xFF), [0x81, 0x30]);
      break;
    }
    case 'ISO-2022-JP': {
      const ESC = 0x1B;
      const states = [[ESC, 0x28, 0x42], [ESC, 0x28, 0x4A], [ESC, 0x28, 0x49],
        [ESC, 0x24, 0x40], [ESC, 0x24, 0x42]];
      // Escapes, good and bad, and one escape right after another.
      for (const b of range(0, 0xFF)) {
        push(ESC, b, 0x41);
        push(ESC, 0x28, b, 0x41);
        push(ESC, 0x24, b, 0x41);
      }
      for (const first of states) {
        for (const second of states) push(...first, ...second, 0x41);
      }
      // Every byte in every state; every pair in the two-byte states.
      const noEscape = range(0, 0xFF).filter((b) => b !== ESC);
      for (const [index, state] of states.entries()) {
        push(...state, ...noEscape);
        if (index >= 3) {
          for (const lead of noEscape) {
            push(...state);
            for (const trail of noEscape) push(lead, trail);
          }
        }
      }
      push(...states[0]);
      break;
    }
    default: // single-byte, x-user-defined, replacement: done
    }
    return done();
  }

  // A string as its UTF-16LE bytes.
  function utf16Bytes(string) {
    const bytes = new Uint8Array(string.length * 2);
    for (let i = 0; i < string.length; i++) {
      const unit = string.charCodeAt(i);
      bytes[2 * i] = unit & 0xFF;
      bytes[2 * i + 1] = unit >> 8;
    }
    return bytes;
  }

  function concat(arrays) {
    let total = 0;
    for (const array of arrays) total += array.length;
    const result = new Uint8Array(total);
    let at = 0;
    for (const array of arrays) {
      result.set(array, at);
      at += array.length;
    }
    return result;
  }

  // The bytes of a key with an API (wenc's exports); text is
  // scalarValuesString(), input decodeInput(name) (made when not given).
  function output(api, key, text, input) {
    const { name, direction, mode, chunk } = parseKey(key);
    if (direction === 'encode') {
      const options = { unmappable: mode };
      if (!chunk) return api.encode(text, name, options);
      const encoder = new api.Encoder(name, options);
      const pieces = [];
      for (let at = 0; at < text.length; at += chunk) {
        pieces.push(encoder.write(text.slice(at, at + chunk)));
      }
      pieces.push(encoder.end());
      return concat(pieces);
    }
    const bytes = input || decodeInput(name);
    const options = { fatal: false, bom: mode };
    if (!chunk) return utf16Bytes(api.decode(bytes, name, options));
    const decoder = new api.Decoder(name, options);
    let string = '';
    for (let at = 0; at < bytes.length; at += chunk) {
      string += decoder.write(bytes.subarray(at, at + chunk));
    }
    return utf16Bytes(string + decoder.end());
  }

  const api = {
    ENCODINGS, ENCODE_MODES, ENCODE_CHUNKS, DECODE_CHUNKS, SCALAR_VALUES,
    keys, parseKey, codePointAt, unitsBefore, scalarValuesString,
    decodeInput, utf16Bytes, concat, output,
  };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.WencEveryCodePoint = api;
})(typeof self !== 'undefined' ? self : this);

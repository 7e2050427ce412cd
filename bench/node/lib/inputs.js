'use strict';
// The benchmark's inputs: for each encoding, text from the Wikipedia corpus
// in a language it can represent, with every character the encoding cannot
// round-trip dropped, then cut into pieces of a given size in that encoding.
// Shared by bench.js (Node) and browser.js (headless Chromium).

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..', '..');

// Each encoding with the corpus text its rows use: a Latin language for
// windows-1252 and iso-8859-2, Russian for the Cyrillic ones, Chinese,
// Japanese and Korean for the East Asian ones; UTF-8 and UTF-16LE on both
// English (almost all ASCII) and Japanese.
const ENCODINGS = [
  ['windows-1252', 'fr.txt'],
  ['iso-8859-2', 'cs.txt'],
  ['windows-1251', 'ru.txt'],
  ['koi8-r', 'ru.txt'],
  ['gbk', 'zh_cn.txt'],
  ['gb18030', 'zh_cn.txt'],
  ['big5', 'zh_tw.txt'],
  ['shift_jis', 'ja.txt'],
  ['euc-jp', 'ja.txt'],
  ['iso-2022-jp', 'ja.txt'],
  ['euc-kr', 'ko.txt'],
  ['utf-8', 'en.txt'],
  ['utf-8', 'ja.txt'],
  ['utf-16le', 'en.txt'],
  ['utf-16le', 'ja.txt'],
];

// How many different pieces a row cycles through at most, by size: enough
// that the branch predictors do not learn one input, few enough to be made
// quickly. A row never repeats a piece (the text ends first).
const MAX_PIECES = (size) => (size <= 64 ? 2048 : size <= 4096 ? 64 : 1);

function corpusDir() {
  const dir = [path.join(root, '..', 'shared', 'corpus', 'wikipedia'),
    '/work/shared/corpus/wikipedia'].find((d) => fs.existsSync(d));
  if (!dir) {
    throw new Error('bench: the corpus (../shared/corpus/wikipedia next to ' +
      'the repository) is missing');
  }
  return dir;
}

// The text of a corpus file with every code point dropped that the encoding
// cannot encode, or that does not decode back to itself (ISO-2022-JP writes
// half-width katakana as full-width ones), so every implementation sees
// the same text and decode(encode(text)) is text. keeps(codePoint string)
// answers for one code point.
function keptText(text, keeps) {
  const verdict = new Map();
  let out = '';
  let dropped = 0;
  for (const ch of text) {
    let keep = verdict.get(ch);
    if (keep === undefined) {
      keep = keeps(ch);
      verdict.set(ch, keep);
    }
    if (keep) out += ch;
    else dropped++;
  }
  return { text: out, dropped };
}

// Cuts text into pieces that encode (encode(string) → bytes) to at most
// size bytes each, as long as fits, at code point boundaries, in text order.
// When the text is shorter than two pieces it is repeated and one piece is
// made. Returns [{ string, bytes }].
function cutPieces(text, size, encode) {
  let source = text;
  let most = MAX_PIECES(size);
  const whole = encode(text).length;
  if (whole < 2 * size) {
    source = text.repeat(Math.ceil(size / whole) + 1);
    most = 1;
  }
  const pieces = [];
  let start = 0;
  while (pieces.length < most && start < source.length) {
    // The longest source.slice(start, end) that fits: its encoded length
    // grows with end (for ISO-2022-JP too), so a binary search finds it.
    let low = start;
    let high = Math.min(source.length, start + size);
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (encode(source.slice(start, middle)).length <= size) low = middle;
      else high = middle - 1;
    }
    let end = low;
    const last = source.charCodeAt(end - 1);
    if (end < source.length && last >= 0xD800 && last <= 0xDBFF) end--;
    if (end === start || end === source.length) break;
    const string = source.slice(start, end);
    pieces.push({ string, bytes: Buffer.from(encode(string)) });
    start = end;
  }
  return pieces;
}

// The rows' texts and pieces, made on demand and kept: wenc is an object
// with encoder(label) and decoder(label), the implementation that makes
// the inputs.
class Inputs {
  constructor(wenc) {
    this.wenc = wenc;
    this.dir = corpusDir();
    this.texts = new Map();
  }

  // { text, dropped, encode } for an encoding and corpus file.
  text(label, file) {
    const key = `${label} ${file}`;
    if (!this.texts.has(key)) {
      const encode = this.wenc.encoder(label) ||
        (label === 'utf-16le' ? (s) => Buffer.from(s, 'utf16le') : null);
      const decode = this.wenc.decoder(label);
      // An unmappable character encodes as "&#N;" (or throws), which does
      // not decode back to it.
      const keeps = (ch) => {
        try {
          return decode(Buffer.from(encode(ch))) === ch;
        } catch {
          return false;
        }
      };
      const raw = fs.readFileSync(path.join(this.dir, file), 'utf8');
      const kept = keptText(raw, keeps);
      this.texts.set(key, { ...kept, encode });
    }
    return this.texts.get(key);
  }

  // [{ string, bytes }] of one row.
  pieces(label, file, size) {
    const { text, encode } = this.text(label, file);
    return cutPieces(text, size, encode);
  }
}

module.exports = { ENCODINGS, Inputs, cutPieces, keptText, root };

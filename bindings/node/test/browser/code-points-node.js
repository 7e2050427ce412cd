'use strict';
// The Node side of the every-code-point comparison (run.js's part
// "code-points"): the C library's outputs through the native addon
// (native.js), their SHA-256 digests, and, for a key whose page digest
// differs, where the page's bytes first differ and which code point (or
// input byte) that is.

const crypto = require('node:crypto');
const path = require('node:path');
const E = require('./every-code-point.js');

const NATIVE = path.join(__dirname, '..', '..', 'native.js');

// The native entry, or a reason it cannot be loaded.
function loadNative() {
  try {
    return { native: require(NATIVE) };
  } catch (error) {
    return { why: `${NATIVE} cannot be loaded (${error.message.split('\n')[0]})` };
  }
}

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes)
  .digest('hex');

function createReference(native) {
  const text = E.scalarValuesString();
  const inputs = new Map();
  const inputOf = (name) => {
    if (!inputs.has(name)) inputs.set(name, E.decodeInput(name));
    return inputs.get(name);
  };
  const bytesOf = (key) => {
    const { name, reference } = E.parseKey(key);
    return E.output(native, reference, text, inputOf(name));
  };
  const hex = (bytes) => Array.from(bytes,
    (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  const u = (codePoint) => `U+${codePoint.toString(16).toUpperCase()
    .padStart(4, '0')}`;

  // The smallest n in [1, limit] with length(n) > at (lengths grow with n),
  // or null.
  function firstPast(limit, length, at) {
    if (length(limit) <= at) return null;
    let low = 1;
    let high = limit;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (length(middle) > at) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  // Where the page's bytes for key first differ from the C library's;
  // fetch(from, to) gives { length, bytes } of the page's output (bytes
  // from..to of it).
  async function locate(key, fetch) {
    const { name, direction, mode } = E.parseKey(key);
    const want = bytesOf(key);
    const PIECE = 1 << 20;
    let at = 0;
    let length = 0;
    let page = null; // the page's bytes from the difference on (16 at most)
    for (let from = 0; page === null; from += PIECE) {
      const piece = await fetch(from, from + PIECE);
      length = piece.length;
      const end = Math.min(from + piece.bytes.length, want.length);
      at = from;
      while (at < end && piece.bytes[at - from] === want[at]) at++;
      if (at < end || end >= length || end >= want.length) {
        page = piece.bytes.subarray(at - from, at - from + 16);
      }
    }
    const lines = [`${key}: ${length} bytes, the C library's ` +
      `${want.length}; first difference at byte ${at}: page ` +
      `[${hex(page)}], C library [${hex(want.subarray(at, at + 16))}]`];
    if (direction === 'encode') {
      // The C library's output for the first n code points, streamed (an
      // Encoder's write without end: a prefix of the whole output).
      const n = firstPast(E.SCALAR_VALUES, (count) =>
        new native.Encoder(name, { unmappable: mode })
          .write(text.slice(0, E.unitsBefore(count))).length, at);
      lines.push(n === null ? '  after the last code point (at end())' :
        `  in the output of ${u(E.codePointAt(n - 1))} (code point #${n - 1})`);
    } else {
      // The decoded strings are compared as UTF-16LE: byte at is in code
      // unit at / 2; the input byte that completes it.
      const input = inputOf(name);
      const unit = Math.floor(at / 2);
      const m = firstPast(input.length, (count) =>
        new native.Decoder(name, { bom: mode }).write(input.subarray(0, count))
          .length, unit);
      lines.push(m === null ? '  at the end of the input (end())' :
        `  code unit ${unit}, completed by input byte ${m - 1}: input ` +
        `[${hex(input.subarray(Math.max(0, m - 8), m + 4))}] ` +
        `(from byte ${Math.max(0, m - 8)})`);
    }
    return lines;
  }

  // The digest of every key's reference ("whole") output.
  function digests() {
    const result = new Map();
    let bytes = 0;
    for (const key of E.keys()) {
      const { name, reference } = E.parseKey(key);
      if (!result.has(reference)) {
        const output = bytesOf(reference);
        bytes += output.length;
        result.set(reference, sha256(output));
      }
      // Keep only the inputs of the encoding at hand.
      for (const other of inputs.keys()) {
        if (other !== name) inputs.delete(other);
      }
    }
    return { digests: result, bytes };
  }

  return { digests, locate };
}

module.exports = { loadNative, createReference, sha256 };

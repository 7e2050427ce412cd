'use strict';
// The wider API (encode, decode, labelToName, encodingExists, Encoder,
// Decoder, encoderStream, decoderStream, decodeStream, encodeStream) of
// every entry that exists: native.js, wasm.js, and index.js (whichever of
// the two it picked). Expected values come from the Standard's index files
// or are worked out by hand from its algorithms (comments say how).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Readable, Writable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { skipLoudly, entryMissing, needData, encodings, readIndex, bytes } =
  require('./helpers');

const here = path.join(__dirname, '..');
const ENTRIES = [['native', 'native.js'], ['wasm', 'wasm.js']];

// Runs fn(t, api) as one test per entry; an entry whose file or build is
// missing is one loud skip (a failure under WENC_TEST_REQUIRE_ALL=1).
const missingReported = new Set();
function entryTest(name, fn) {
  for (const [backend, file] of ENTRIES) {
    const full = path.join(here, file);
    const missing = entryMissing(file);
    if (missing) {
      if (missingReported.has(backend)) continue;
      missingReported.add(backend);
      test(`${backend}: every API test`, (t) => skipLoudly(t, missing));
      continue;
    }
    test(`${backend}: ${name}`, (t) => fn(t, require(full), backend));
  }
}

const latin1 = (text) => [...Buffer.from(text, 'latin1')];
const ESC_ASCII = [0x1B, 0x28, 0x42];   // ESC ( B
const ESC_ROMAN = [0x1B, 0x28, 0x4A];   // ESC ( J
const ESC_JIS0208 = [0x1B, 0x24, 0x42]; // ESC $ B

test('index.js: one of the backends, said by its backend property', () => {
  const api = require('..');
  assert.ok(['native', 'wasm'].includes(api.backend));
  assert.equal(Object.keys(api).includes('backend'), false);
  if (fs.existsSync(path.join(here, 'build', 'wenc.node'))) {
    assert.equal(api.backend, 'native');
    assert.equal(api, require('../native.js'));
  }
  for (const name of ['TextDecoder', 'TextEncoder', 'TextDecoderStream',
    'TextEncoderStream', 'encode', 'decode', 'labelToName', 'encodingExists',
    'Encoder', 'Decoder', 'encoderStream', 'decoderStream', 'decodeStream',
    'encodeStream']) {
    assert.equal(typeof api[name], 'function', name);
  }
});

test('index.js: wasm.js without the addon; both reasons without either',
  (t) => {
    const missing = entryMissing('wasm.js');
    if (missing) {
      skipLoudly(t, missing);
      return;
    }
    const os = require('node:os');
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'wenc-entry-'));
    try {
      for (const name of ['lib', 'wasm', 'index.js', 'native.js', 'wasm.js']) {
        fs.cpSync(path.join(here, name), path.join(copy, name),
          { recursive: true });
      }
      // No build/ in the copy: the addon does not load.
      const api = require(path.join(copy, 'index.js'));
      assert.equal(api.backend, 'wasm');
      assert.equal(api.decode(bytes(0x82, 0xA0), 'sjis'), '\u3042');
      fs.rmSync(path.join(copy, 'wasm'), { recursive: true });
      delete require.cache[path.join(copy, 'index.js')];
      delete require.cache[path.join(copy, 'wasm.js')];
      assert.throws(() => require(path.join(copy, 'index.js')),
        (error) => /neither backend loads/.test(error.message) &&
          /native addon/.test(error.message) &&
          /WebAssembly/.test(error.message));
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

test('index.mjs gives the same object and names', async () => {
  const module = await import('../index.mjs');
  const api = require('..');
  assert.equal(module.default, api);
  assert.equal(module.encode, api.encode);
  assert.equal(module.TextDecoder, api.TextDecoder);
  assert.equal(module.decodeStream, api.decodeStream);
  assert.equal(module.backend, api.backend);
});

entryTest('backend property', (t, api, backend) => {
  assert.equal(api.backend, backend);
});

// ---- Labels ---------------------------------------------------------------

entryTest('labelToName and encodingExists for every label', (t, api) => {
  if (!needData(t)) return;
  let count = 0;
  for (const group of encodings()) {
    for (const { name, labels } of group.encodings) {
      for (const label of labels) {
        count++;
        for (const variant of [label, label.toUpperCase(),
          `\t\n\f\r ${label} \r\n`]) {
          assert.equal(api.labelToName(variant), name.toLowerCase(), variant);
          assert.equal(api.encodingExists(variant), true, variant);
        }
      }
    }
  }
  assert.equal(count, 228);
  for (const notLabel of ['', 'utf 8', 'utf-8\v', '\u00a0utf-8', 'utf8\0',
    'win1252', 'utf16', 'ucs2', 'binary', 'base64', 'hex', 'cp932', 'utf-32',
    '\u212aoi8-r', 'x'.repeat(100), ` ${' '.repeat(1000)}latin2x`]) {
    assert.equal(api.labelToName(notLabel), null, JSON.stringify(notLabel));
    assert.equal(api.encodingExists(notLabel), false);
  }
  assert.equal(api.labelToName(` ${' '.repeat(1000)}latin2\n`), 'iso-8859-2');
  assert.equal(api.labelToName({ toString: () => 'SJIS' }), 'shift_jis');
  assert.throws(() => api.labelToName(Symbol('x')), TypeError);
  // Many different strings: the label cache stays right past its size.
  for (let i = 0; i < 600; i++) {
    assert.equal(api.labelToName(`${' '.repeat(i % 300)}utf8${i < 300 ?
      '' : 'x'}`), i < 300 ? 'utf-8' : null);
  }
});

// ---- encode(): unmappable modes -------------------------------------------

function encodeError(api, text, label, options) {
  try {
    api.encode(text, label, options);
  } catch (error) {
    return error;
  }
  return assert.fail(`${label}: ${JSON.stringify(text)} encoded`);
}

function checkEncodeError(error, encoding, codePoint, offset) {
  assert.ok(error instanceof TypeError, String(error));
  assert.equal(error.code, 'ERR_ENCODING_UNMAPPABLE');
  assert.equal(error.encoding, encoding);
  assert.equal(error.codePoint, codePoint);
  assert.equal(error.offset, offset);
  const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
  assert.equal(error.message,
    `${encoding} cannot encode U+${hex} at offset ${offset}`);
}

entryTest('encode: windows-1252, every unmappable mode', (t, api) => {
  // windows-1252: € is 0x80 (pointer 0 of index-windows-1252), U+0100 and
  // U+1F600 are not in the index; a lone surrogate is read as U+FFFD, not
  // in it either.
  const text = 'a\u20AC\u0100b\uD83D\uDE00c\uD800';
  const ncr = (n) => latin1(`&#${n};`);
  assert.deepEqual(api.encode(text, 'windows-1252'), bytes(0x61, 0x80,
    ncr(256), 0x62, ncr(128512), 0x63, ncr(65533)));
  assert.deepEqual(api.encode(text, 'latin1', { unmappable: 'html' }),
    api.encode(text, 'windows-1252'));
  assert.deepEqual(api.encode(text, 'cp1252', { unmappable: 'subst' }),
    bytes(0x61, 0x80, 0x3F, 0x62, 0x3F, 0x63, 0x3F));
  assert.deepEqual(api.encode(text, 'cp1252',
    { unmappable: 'subst', substitute: '\u20AC!' }),
  bytes(0x61, 0x80, 0x80, 0x21, 0x62, 0x80, 0x21, 0x63, 0x80, 0x21));
  assert.deepEqual(api.encode(text, 'cp1252',
    { unmappable: 'subst', substitute: '' }), bytes(0x61, 0x80, 0x62, 0x63));
  assert.deepEqual(api.encode(text, 'cp1252', { unmappable: 'skip' }),
    bytes(0x61, 0x80, 0x62, 0x63));
  checkEncodeError(encodeError(api, text, 'cp1252', { unmappable: 'fatal' }),
    'windows-1252', 0x100, 2);
  checkEncodeError(encodeError(api, 'ab\uD83D\uDE00', 'ascii',
    { unmappable: 'fatal' }), 'windows-1252', 0x1F600, 2);
  checkEncodeError(encodeError(api, 'xyz\uDC00', 'ascii',
    { unmappable: 'fatal' }), 'windows-1252', 0xFFFD, 3);
  assert.deepEqual(api.encode('a\u20AC', 'cp1252', { unmappable: 'fatal' }),
    bytes(0x61, 0x80));
  // The substitute must itself be encodable.
  assert.throws(() => api.encode('\u0100', 'cp1252',
    { unmappable: 'subst', substitute: '\u0101' }), RangeError);
  // Not checked when not used.
  assert.deepEqual(api.encode('a', 'cp1252', { substitute: '\u0101' }),
    bytes(0x61));
});

// The bytes of code units alone and in short strings (which encode()
// encodes without the backend) from the Standard's index files: every
// single-byte encoding and x-user-defined.
entryTest('encode: short strings in every single-byte encoding, from ' +
  'the index files', (t, api) => {
  if (!needData(t)) return;
  const group = encodings().find((g) => /single-byte/.test(g.heading));
  const names = [...group.encodings.map((e) => e.name), 'x-user-defined'];
  assert.equal(names.length, 29);
  const ncr = (unit) => [...Buffer.from(`&#${unit >= 0xD800 &&
    unit <= 0xDFFF ? 0xFFFD : unit};`, 'latin1')];
  for (const name of names) {
    // code unit → byte: the first pointer of each code point.
    const byteOf = new Map();
    if (name === 'x-user-defined') {
      for (let b = 0x80; b <= 0xFF; b++) byteOf.set(0xF780 + b - 0x80, b);
    } else {
      // ISO-8859-8-I is ISO-8859-8's index (§9).
      const index = name === 'ISO-8859-8-I' ? 'iso-8859-8' : name.toLowerCase();
      for (const [pointer, codePoint] of readIndex(index)) {
        if (!byteOf.has(codePoint)) byteOf.set(codePoint, 0x80 + pointer);
      }
    }
    const expected = (unit) => unit < 0x80 ? [unit] :
      byteOf.has(unit) ? [byteOf.get(unit)] : ncr(unit);
    // Every code unit of each 256 where the encoding has a byte, and every
    // 97th of the others.
    const pages = new Set([0, ...[...byteOf.keys()].map((unit) => unit >> 8)]);
    for (let unit = 0; unit <= 0xFFFF; unit++) {
      if (!pages.has(unit >> 8) && unit % 97 !== 0 &&
        ![0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD,
          0xFFFF].includes(unit)) {
        continue;
      }
      const got = api.encode(String.fromCharCode(unit), name);
      const want = expected(unit);
      if (got.length !== want.length || got.some((b, i) => b !== want[i])) {
        assert.deepEqual([...got], want, `${name} U+${unit.toString(16)}`);
      }
    }
    // Strings of 1-70 units, mappable ones and ASCII, with an unmappable
    // unit or a surrogate somewhere in some.
    const mappable = [...byteOf.keys()];
    let seed = 0x5EED0003;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) /
      2 ** 32;
    for (let n = 0; n < 300; n++) {
      const units = [];
      const length = 1 + Math.floor(next() * 70);
      for (let i = 0; i < length; i++) {
        units.push(next() < 0.3 ? Math.floor(next() * 0x80) :
          mappable[Math.floor(next() * mappable.length)]);
      }
      if (n % 3 === 0) {
        units[Math.floor(next() * length)] = [0x3042, 0xD800, 0xDC00,
          0xFFFF][n % 4];
      }
      const string = String.fromCharCode(...units);
      assert.deepEqual([...api.encode(string, name)],
        units.flatMap(expected), `${name} ${JSON.stringify(string)}`);
    }
  }
});

entryTest('encode: Shift_JIS, every unmappable mode', (t, api) => {
  // あ is JIS X 0208 row 4 cell 2: pointer 3 * 94 + 1 = 283; Shift_JIS lead
  // 283 / 188 + 0x81 = 0x82, trail 283 % 188 = 95, + 0x41 = 0xA0. い is
  // pointer 285: 82 A2. 〓 (U+3013) is row 2 cell 14: pointer 107, lead
  // 0x81, trail 107 + 0x41 = 0xAC. é is not in index jis0208.
  const text = '\u3042\u00E9\u3044';
  assert.deepEqual(api.encode(text, 'shift_jis'),
    bytes(0x82, 0xA0, latin1('&#233;'), 0x82, 0xA2));
  assert.deepEqual(api.encode(text, 'sjis', { unmappable: 'subst' }),
    bytes(0x82, 0xA0, 0x3F, 0x82, 0xA2));
  assert.deepEqual(api.encode(text, 'sjis',
    { unmappable: 'subst', substitute: '\u3013' }),
  bytes(0x82, 0xA0, 0x81, 0xAC, 0x82, 0xA2));
  assert.deepEqual(api.encode(text, 'ms_kanji', { unmappable: 'skip' }),
    bytes(0x82, 0xA0, 0x82, 0xA2));
  checkEncodeError(encodeError(api, text, 'shift_jis',
    { unmappable: 'fatal' }), 'shift_jis', 0xE9, 1);
  assert.throws(() => api.encode('\u00E9', 'shift_jis',
    { unmappable: 'subst', substitute: '\u00E8' }), RangeError);
});

entryTest('encode: ISO-2022-JP, the substitute in the encoder\'s state',
  (t, api) => {
    // The Standard's ISO-2022-JP encoder: あ (pointer 283) is 24 22 after
    // ESC $ B; é has no pointer, so in the jis0208 state the encoder first
    // returns to ASCII (ESC ( B) and then fails in ASCII; い is 24 24; b
    // returns to ASCII. The substitute is encoded in the state the encoder
    // is in: 〓 (pointer 107: 22 2E) in ASCII switches to jis0208, and い
    // follows with no escape.
    const text = 'a\u3042\u00E9\u3044b';
    const head = [0x61, ...ESC_JIS0208, 0x24, 0x22, ...ESC_ASCII];
    assert.deepEqual(api.encode(text, 'iso-2022-jp'), bytes(head,
      latin1('&#233;'), ESC_JIS0208, 0x24, 0x24, ESC_ASCII, 0x62));
    assert.deepEqual(api.encode(text, 'csiso2022jp', { unmappable: 'subst' }),
      bytes(head, 0x3F, ESC_JIS0208, 0x24, 0x24, ESC_ASCII, 0x62));
    assert.deepEqual(api.encode(text, 'iso-2022-jp',
      { unmappable: 'subst', substitute: '\u3013' }),
    bytes(head, ESC_JIS0208, 0x22, 0x2E, 0x24, 0x24, ESC_ASCII, 0x62));
    assert.deepEqual(api.encode(text, 'iso-2022-jp', { unmappable: 'skip' }),
      bytes(head, ESC_JIS0208, 0x24, 0x24, ESC_ASCII, 0x62));
    checkEncodeError(encodeError(api, text, 'iso-2022-jp',
      { unmappable: 'fatal' }), 'iso-2022-jp', 0xE9, 2);
    // The Roman state: ¥ is ESC ( J 5C. é fails there (it is not jis0208's
    // case). "\" in Roman is not 5C (that is ¥): the encoder writes ESC ( B
    // first; then ¥ needs ESC ( J again; the end returns to ASCII. Writing
    // the substitute's bytes as they are (5C) would have given ¥.
    const roman = '\u00A5\u00E9\u00A5';
    assert.deepEqual(api.encode(roman, 'iso-2022-jp',
      { unmappable: 'subst', substitute: '\\' }),
    bytes(ESC_ROMAN, 0x5C, ESC_ASCII, 0x5C, ESC_ROMAN, 0x5C, ESC_ASCII));
    assert.deepEqual(api.encode(roman, 'iso-2022-jp', { unmappable: 'subst' }),
      bytes(ESC_ROMAN, 0x5C, 0x3F, 0x5C, ESC_ASCII));
    assert.deepEqual(api.encode(roman, 'iso-2022-jp', { unmappable: 'skip' }),
      bytes(ESC_ROMAN, 0x5C, 0x5C, ESC_ASCII));
    assert.deepEqual(api.encode(roman, 'iso-2022-jp'),
      bytes(ESC_ROMAN, 0x5C, latin1('&#233;'), 0x5C, ESC_ASCII));
    // Offsets after substitutes count the caller's string only.
    checkEncodeError(encodeError(api, '\u00E9\u3013\u00E8', 'iso-2022-jp',
      { unmappable: 'fatal' }), 'iso-2022-jp', 0xE9, 0);
    const encoder = new api.Encoder('iso-2022-jp',
      { unmappable: 'subst', substitute: '\u3013\u3013' });
    // The second é meets the jis0208 state: ESC ( B before it fails.
    const twice = [...ESC_JIS0208, 0x22, 0x2E, 0x22, 0x2E];
    assert.deepEqual(encoder.write('\u00E9\u00E9a'), bytes(twice, ESC_ASCII,
      twice, ESC_ASCII, 0x61));
    assert.deepEqual(encoder.end(), bytes());
    // U+000E, U+000F and U+001B are errors in every state.
    assert.throws(() => api.encode('a', 'iso-2022-jp',
      { unmappable: 'subst', substitute: '\u001B' }), RangeError);
  });

entryTest('encode: UTF-8, UTF-16LE and UTF-16BE, the BOM', (t, api) => {
  const text = 'a\u00E9\uD83D\uDE00\uDC00';
  assert.deepEqual(api.encode(text, 'utf-8'), new Uint8Array(
    Buffer.from('a\u00E9\u{1F600}\uFFFD')));
  assert.deepEqual(api.encode(text, 'utf8', { bom: true }), bytes(0xEF,
    0xBB, 0xBF, [...Buffer.from('a\u00E9\u{1F600}\uFFFD')]));
  assert.deepEqual(api.encode(text, 'utf-16le'), bytes(0x61, 0, 0xE9, 0,
    0x3D, 0xD8, 0x00, 0xDE, 0xFD, 0xFF));
  assert.deepEqual(api.encode(text, 'utf-16', { bom: true }), bytes(0xFF,
    0xFE, 0x61, 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE, 0xFD, 0xFF));
  assert.deepEqual(api.encode(text, 'utf-16be', { unmappable: 'fatal' }),
    bytes(0, 0x61, 0, 0xE9, 0xD8, 0x3D, 0xDE, 0x00, 0xFF, 0xFD));
  assert.deepEqual(api.encode('a', 'unicodefffe', { bom: true }),
    bytes(0xFE, 0xFF, 0, 0x61));
  assert.deepEqual(api.encode('', 'utf-16be', { bom: true }),
    bytes(0xFE, 0xFF));
  assert.deepEqual(api.encode('', 'utf-8', { bom: true }),
    bytes(0xEF, 0xBB, 0xBF));
  assert.deepEqual(api.encode('', 'utf-8'), bytes());
  assert.deepEqual(api.encode('a', 'windows-1252', { bom: true }), bytes(0x61));
  assert.deepEqual(api.encode('\u3042', 'euc-jp', { bom: true }),
    bytes(0xA4, 0xA2));
});

entryTest('encode: UTF-16 with a surrogate at every place', (t, api) => {
  // Node's Buffer writes UTF-16LE; the expected string has U+FFFD for each
  // lone surrogate (the Standard's encoders read them so).
  const lone = new RegExp('[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|' +
    '(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]', 'g');
  const expected = (text, label) => {
    const buffer = Buffer.from(text.replace(lone, '\uFFFD'), 'utf16le');
    return new Uint8Array(label === 'utf-16be' ? buffer.swap16() : buffer);
  };
  for (const length of [1, 15, 16, 17, 40]) {
    for (let at = 0; at < length; at++) {
      for (const insert of ['\uD800', '\uDFFF', '\uD83D\uDE00', '\uDE00\uD83D',
        '\u00E9']) {
        const text = 'a'.repeat(at) + insert + '\u3042'.repeat(length - at);
        for (const label of ['utf-16le', 'utf-16be']) {
          assert.deepEqual(api.encode(text, label), expected(text, label),
            `${label} ${JSON.stringify(text)}`);
        }
      }
    }
  }
});

entryTest('encode: arguments, ToString, output type', (t, api) => {
  assert.deepEqual(api.encode(12.5, 'ascii'), bytes(latin1('12.5')));
  assert.deepEqual(api.encode(null, 'ascii'), bytes(latin1('null')));
  assert.deepEqual(api.encode(undefined, 'ascii'), bytes());
  assert.deepEqual(new api.Encoder('ascii').write(), bytes());
  assert.deepEqual(api.encode({ toString: () => '\u20AC' }, 'ascii'),
    bytes(0x80));
  assert.throws(() => api.encode(Symbol('s'), 'ascii'), TypeError);
  // Outputs of up to 64 bytes and of more than 4096 have buffers of their
  // own; those between may be views of a shared buffer (the output pool,
  // as Node's Buffers), never overwritten by later calls.
  const kept = [];
  for (let round = 0; round < 3; round++) {
    for (const length of [0, 1, 64, 65, 300, 1000, 4096, 4097, 5000]) {
      const text = String.fromCharCode(0x41 + (length + round) % 26)
        .repeat(length);
      const output = api.encode(text, 'windows-1252');
      assert.equal(Object.getPrototypeOf(output), Uint8Array.prototype);
      assert.equal(output.length, length);
      if (length <= 64 || length > 4096) {
        assert.equal(output.byteOffset, 0);
        assert.equal(output.buffer.byteLength, length);
      }
      kept.push([text, output]);
    }
  }
  for (let i = 0; i < 100; i++) api.encode('z'.repeat(2000), 'ascii');
  for (const [text, output] of kept) {
    assert.equal(Buffer.from(output).toString('latin1'), text);
  }
  // UTF-8 and UTF-16LE (which the WebAssembly build has the host write),
  // with and without a BOM, at every size where an output moves between
  // its own buffer, the small-output array and the pool; kept outputs are
  // never overwritten.
  const hostKept = [];
  const hostLengths = [0, 1, 20, 21, 22, 30, 31, 32, 33, 64, 65, 1364, 1365,
    1366, 2046, 2047, 2048, 2049, 3000];
  for (const length of hostLengths) {
    for (const bom of [false, true]) {
      // A lone surrogate last: U+FFFD in both encodings.
      const text = length === 0 ? '' :
        '\u00E9\u3042z'.repeat(length).slice(0, length - 1) + '\uD800';
      const utf8 = [...(bom ? [0xEF, 0xBB, 0xBF] : []),
        ...Buffer.from(text.replace('\uD800', '\uFFFD'), 'utf8')];
      const utf16 = [...(bom ? [0xFF, 0xFE] : []),
        ...Buffer.from(text.replace('\uD800', '\uFFFD'), 'utf16le')];
      const options = { bom };
      const gotUtf8 = api.encode(text, 'utf-8', options);
      const gotUtf16 = api.encode(text, 'utf-16le', options);
      assert.deepEqual([...gotUtf8], utf8, `utf-8 ${length} ${bom}`);
      assert.deepEqual([...gotUtf16], utf16, `utf-16le ${length} ${bom}`);
      hostKept.push([gotUtf8, utf8], [gotUtf16, utf16]);
    }
  }
  for (let i = 0; i < 50; i++) api.encode('\u3042'.repeat(1300), 'utf-8');
  for (const [output, expected] of hostKept) {
    assert.deepEqual([...output], expected);
  }
  // Legacy outputs that end after an unmappable character (several pieces
  // in the WebAssembly build in skip mode) and from ISO-2022-JP's state.
  for (const length of [10, 60, 63, 64, 65, 500, 4095, 4096, 4097]) {
    const text = '\u20AC'.repeat(length - 1) + '\u3042';
    assert.deepEqual(api.encode(text, 'windows-1252', { unmappable: 'skip' }),
      new Uint8Array(length - 1).fill(0x80), `skip ${length}`);
    const jis = api.encode('\u3042'.repeat(length) + 'a', 'iso-2022-jp');
    assert.deepEqual([...jis], [0x1B, 0x24, 0x42,
      ...Array(length).fill([0x24, 0x22]).flat(), 0x1B, 0x28, 0x42, 0x61],
    `iso-2022-jp ${length}`);
  }
  // A transferred (detached) pool: the next outputs use a new one.
  const shared = api.encode('q'.repeat(100), 'ascii');
  structuredClone(shared.buffer, { transfer: [shared.buffer] });
  assert.equal(shared.length, 0);
  assert.deepEqual(api.encode('r'.repeat(100), 'ascii'),
    new Uint8Array(100).fill(0x72));
  assert.deepEqual(new api.Encoder('ascii').write('s'.repeat(100)),
    new Uint8Array(100).fill(0x73));
  // Outputs of every size around the binding's small-output array.
  for (let n = 250; n < 270; n++) {
    assert.deepEqual(api.encode('\u0100'.repeat(n), 'ascii'),
      new Uint8Array(Buffer.from('&#256;'.repeat(n), 'latin1')));
  }
  const first = api.encode('ab', 'ascii');
  api.encode('cd', 'ascii');
  assert.deepEqual(first, bytes(0x61, 0x62));
  assert.throws(() => api.encode('a', 'utf-32'), RangeError);
  assert.throws(() => api.encode('a'), RangeError);
  for (const label of ['replacement', 'iso-2022-kr', ' HZ-GB-2312 ']) {
    assert.throws(() => api.encode('a', label), RangeError, label);
    assert.throws(() => new api.Encoder(label), RangeError, label);
    assert.throws(() => api.encoderStream(label), RangeError, label);
  }
  assert.throws(() => api.encode('a', 'ascii', { unmappable: 'replace' }),
    TypeError);
  assert.throws(() => api.encode('a', 'ascii', 5), TypeError);
  assert.deepEqual(api.encode('\u0100', 'ascii', null),
    bytes(latin1('&#256;')));
});

// ---- decode() ---------------------------------------------------------------

function decodeError(api, input, label, options) {
  try {
    api.decode(input, label, options);
  } catch (error) {
    return error;
  }
  return assert.fail(`${label}: decoded`);
}

function checkDecodeError(error, encoding, offset) {
  assert.ok(error instanceof TypeError, String(error));
  assert.equal(error.code, 'ERR_ENCODING_INVALID_ENCODED_DATA');
  assert.equal(error.encoding, encoding);
  assert.equal(error.offset, offset);
  assert.match(error.message, new RegExp(`${encoding}.*byte offset ${offset}`));
}

entryTest('decode: BOM modes', (t, api) => {
  const utf8Bom = [0xEF, 0xBB, 0xBF];
  // sniff: a BOM wins over the label and is removed (only one).
  assert.equal(api.decode(bytes(utf8Bom, 0x41), 'windows-1252'), 'A');
  assert.equal(api.decode(bytes(0xFF, 0xFE, 0x41, 0), 'shift_jis'), 'A');
  assert.equal(api.decode(bytes(0xFE, 0xFF, 0, 0x41), 'utf-8'), 'A');
  assert.equal(api.decode(bytes(0xFE, 0xFF, 0, 0x41), 'utf-16le',
    { bom: 'sniff' }), 'A');
  assert.equal(api.decode(bytes(utf8Bom, utf8Bom), 'utf-8'), '\uFEFF');
  assert.equal(api.decode(bytes(utf8Bom, 0x41), 'iso-2022-kr'), 'A');
  // strip: the label's own BOM only (windows-1252 EF BB BF is ï»¿).
  assert.equal(api.decode(bytes(utf8Bom, 0x41), 'windows-1252',
    { bom: 'strip' }), '\u00EF\u00BB\u00BFA');
  assert.equal(api.decode(bytes(utf8Bom, 0x41), 'utf-8', { bom: 'strip' }),
    'A');
  assert.equal(api.decode(bytes(0xFF, 0xFE, 0x41, 0), 'utf-16le',
    { bom: 'strip' }), 'A');
  // UTF-16LE FE FF is U+FFFE, 00 41 is U+4100.
  assert.equal(api.decode(bytes(0xFE, 0xFF, 0, 0x41), 'utf-16le',
    { bom: 'strip' }), '\uFFFE\u4100');
  assert.equal(api.decode(bytes(0xFF, 0xFE, 0x41, 0), 'utf-8',
    { bom: 'strip' }), '\uFFFD\uFFFDA\0');
  assert.equal(api.decode(bytes(utf8Bom, 0x41), 'iso-2022-kr',
    { bom: 'strip' }), '\uFFFD');
  // keep: a BOM is U+FEFF.
  assert.equal(api.decode(bytes(utf8Bom, 0x41), 'utf-8', { bom: 'keep' }),
    '\uFEFFA');
  assert.equal(api.decode(bytes(0xFF, 0xFE, 0x41, 0), 'utf-16le',
    { bom: 'keep' }), '\uFEFFA');
  assert.equal(api.decode(bytes(utf8Bom, 0x41), 'windows-1252',
    { bom: 'keep' }), '\u00EF\u00BB\u00BFA');
  assert.throws(() => api.decode(bytes(), 'utf-8', { bom: 'remove' }),
    TypeError);
});

entryTest('decode: replacement, errors and their offsets', (t, api) => {
  // The Standard's replacement decoder: one U+FFFD (an error) for any
  // non-empty input.
  assert.equal(api.decode(bytes(0x41, 0x42), 'iso-2022-kr'), '\uFFFD');
  assert.equal(api.decode(bytes(), 'replacement'), '');
  checkDecodeError(decodeError(api, bytes(0x41), 'csiso2022kr',
    { fatal: true }), 'replacement', 0);
  // Shift_JIS 82 at the end is truncated: U+FFFD, or an error at 1.
  assert.equal(api.decode(bytes(0x41, 0x82), 'shift_jis'), 'A\uFFFD');
  checkDecodeError(decodeError(api, bytes(0x41, 0x82), 'shift_jis',
    { fatal: true }), 'shift_jis', 1);
  // UTF-8: E2 28 is an error at E2 (offset 4 counting the BOM).
  checkDecodeError(decodeError(api, bytes(0xEF, 0xBB, 0xBF, 0x41, 0xE2, 0x28),
    'utf-8', { fatal: true }), 'utf-8', 4);
  // windows-1253 0xAA has no code point (index-windows-1253 pointer 42).
  checkDecodeError(decodeError(api, bytes(0x41, 0x42, 0xAA), 'cp1253',
    { fatal: true }), 'windows-1253', 2);
  assert.equal(api.decode(bytes(0x41, 0x42, 0xAA), 'cp1253'), 'AB\uFFFD');
  assert.equal(api.decode(bytes(0x82, 0xA0), 'shift_jis', { fatal: true }),
    '\u3042');
  assert.throws(() => api.decode(bytes(0x41), 'utf-32'), RangeError);
  assert.throws(() => api.decode(bytes(0x41)), RangeError);
});

entryTest('decode: UTF-16LE at odd offsets and lengths, BOMs, surrogates',
  (t, api) => {
    // Node's Buffer reads UTF-16LE; lone surrogates are U+FFFD, a last odd
    // byte too, one U+FFFD with a high surrogate before it (the Standard's
    // UTF-16 decoder at the end of the queue).
    const lone = new RegExp('[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|' +
      '(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]', 'g');
    const expected = (raw) => {
      let text = Buffer.from(raw.subarray(0, raw.length & ~1))
        .toString('utf16le');
      if (raw.length & 1) {
        if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
        text += '\uFFFD';
      }
      return text.replace(lone, '\uFFFD');
    };
    for (const text of ['', 'a', 'ab\u3042', 'x\uD83D\uDE00y', 'z\uDC00',
      '\u3042'.repeat(40) + '\uD800']) {
      const encoded = Buffer.from(text, 'utf16le');
      for (const extra of [[], [0x41]]) {
        const raw = new Uint8Array([...encoded, ...extra]);
        // At an even and an odd address.
        for (const shift of [0, 1]) {
          const holder = new Uint8Array(raw.length + 2);
          holder.set(raw, shift);
          const view = holder.subarray(shift, shift + raw.length);
          for (const bom of ['sniff', 'strip', 'keep']) {
            assert.equal(api.decode(view, 'utf-16le', { bom }),
              expected(raw), `${JSON.stringify(text)} ${extra} ${shift}`);
          }
          const withBom = new Uint8Array([0xFF, 0xFE, ...raw]);
          assert.equal(api.decode(withBom, 'utf-16le'), expected(raw));
          assert.equal(api.decode(withBom, 'utf-16le', { bom: 'keep' }),
            `\uFEFF${expected(raw)}`);
        }
      }
    }
    // Sniffing: FE FF and EF BB BF decide another encoding.
    assert.equal(api.decode(bytes(0xFE, 0xFF, 0x30, 0x42), 'utf-16le'),
      '\u3042');
    assert.equal(api.decode(bytes(0xEF, 0xBB, 0xBF, 0x41), 'utf-16le'), 'A');
    assert.equal(api.decode(bytes(0xEF, 0xBB), 'utf-16le'), '\uBBEF');
  });

entryTest('decode: every kind of bytes', (t, api) => {
  // 'hé' in UTF-8: 68 C3 A9.
  const raw = [0x68, 0xC3, 0xA9];
  const shared = new SharedArrayBuffer(5);
  new Uint8Array(shared).set([0, ...raw, 0], 0);
  const inputs = [
    bytes(raw), Buffer.from(raw), new Uint8Array(raw).buffer,
    new Uint8Array(shared, 1, 3), shared.slice ? new Uint8Array(shared)
      .slice(1, 4).buffer : new Uint8Array(raw).buffer,
    new DataView(new Uint8Array([9, ...raw, 9]).buffer, 1, 3),
    new Uint8ClampedArray(raw), new Int8Array(raw),
  ];
  for (const input of inputs) {
    assert.equal(api.decode(input, 'utf-8'), 'h\u00E9', String(input));
  }
  // A Uint16Array's bytes in the machine's order (little-endian here).
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const hi = le ? 'utf-16le' : 'utf-16be';
  assert.equal(api.decode(new Uint16Array([0x68, 0x69]), hi), 'hi');
  const offsetArray = new Uint16Array([0x4141, 0x68, 0x69, 0x4242])
    .subarray(1, 3);
  assert.equal(api.decode(offsetArray, hi), 'hi');
  for (const bad of ['abc', 42, null, undefined, [0x41], {}]) {
    assert.throws(() => api.decode(bad, 'utf-8'), TypeError, String(bad));
  }
  // Long ASCII (the fast path) and long text (strings a backend may make
  // in pieces).
  for (const n of [10000, 21845, 21846, 30000]) {
    const ascii = 'abc'.repeat(n);
    assert.equal(api.decode(Buffer.from(ascii), 'windows-1252'), ascii);
    assert.equal(api.decode(Buffer.from(ascii), 'iso-2022-jp'), ascii);
  }
  for (const n of [16383, 16384, 16385, 100000]) {
    const long = '\u00E9\u20AC'.repeat(n);
    assert.equal(api.decode(Buffer.from(long), 'utf8'), long);
    const decoder = new api.Decoder('utf-8');
    assert.equal(decoder.write(Buffer.from(long)) + decoder.end(), long);
  }
});

// ---- Streaming ------------------------------------------------------------

// Samples: label, bytes (in chunks it is split at every place).
const decoderSamples = [
  ['utf-8', [0xEF, 0xBB, 0xBF, 0x61, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0,
    0x9F, 0x98, 0x80, 0xE2, 0x28, 0xED, 0xA0, 0x80, 0xF0, 0x9F]],
  ['utf-16le', [0xFF, 0xFE, 0x61, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8,
    0x41]],
  ['utf-16be', [0xFE, 0xFF, 0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00, 0xDC, 0x00]],
  ['windows-1252', [0xEF, 0xBB, 0xBF, 0x41, 0x80, 0xE9]],
  ['windows-1252', [0xEF, 0xBB, 0x41]],
  ['shift_jis', [0x82, 0xA0, 0x41, 0x82, 0x20, 0xB1, 0x82]],
  ['iso-2022-jp', [0x61, ...ESC_JIS0208, 0x24, 0x22, ...ESC_ASCII, 0x62,
    0x1B, 0x24]],
  ['gb18030', [0x81, 0x30, 0x81, 0x30, 0xD6, 0xD0, 0x81, 0x30]],
  ['replacement', [0x41, 0x42]],
];

function splits(input) {
  const result = [[input], input.map((b) => [b]), [[], ...input.map((b) =>
    [b, []]).flat(1)]];
  for (let cut = 0; cut <= input.length; cut++) {
    result.push([input.slice(0, cut), [], input.slice(cut)]);
    for (let cut2 = cut; cut2 <= input.length; cut2++) {
      result.push([input.slice(0, cut), input.slice(cut, cut2),
        input.slice(cut2)]);
    }
  }
  return result;
}

entryTest('Decoder: every split gives decode()\'s output', (t, api) => {
  for (const [label, input] of decoderSamples) {
    for (const bom of ['sniff', 'strip', 'keep']) {
      const options = { bom };
      const whole = api.decode(bytes(input), label, options);
      const decoder = new api.Decoder(label, options);
      for (const chunks of splits(input)) {
        let output = '';
        for (const chunk of chunks.slice(0, -1)) {
          output += decoder.write(bytes(chunk));
        }
        output += decoder.end(bytes(chunks.at(-1)));
        assert.equal(output, whole,
          `${label} ${bom} ${JSON.stringify(chunks)}`);
      }
      assert.equal(decoder.write(bytes(input)) + decoder.end(), whole);
    }
  }
});

entryTest('Decoder: fatal errors, offsets in the stream, then a new stream',
  (t, api) => {
    const decoder = new api.Decoder('utf-8', { fatal: true });
    assert.equal(decoder.encoding, 'utf-8');
    assert.equal(decoder.write(bytes(0xEF, 0xBB)), '');
    assert.equal(decoder.write(bytes(0xBF, 0x41, 0xE2)), 'A');
    let error;
    try {
      decoder.write(bytes(0x28));
    } catch (caught) {
      error = caught;
    }
    // E2 28: E2 is malformed, at 4 counting the BOM. The rest of the chunk
    // is dropped; the decoder starts a new stream.
    checkDecodeError(error, 'utf-8', 4);
    try {
      decoder.write(bytes(0x41, 0xFF));
    } catch (caught) {
      error = caught;
    }
    // After the first error the decoder started a new stream: FF is at 1.
    checkDecodeError(error, 'utf-8', 1);
    assert.equal(decoder.write(bytes(0x41)), 'A');
    try {
      decoder.end(bytes(0xE2));
    } catch (caught) {
      error = caught;
    }
    checkDecodeError(error, 'utf-8', 1);
    assert.equal(decoder.end(bytes(0xC3, 0xA9)), '\u00E9');
    // end() starts a new stream: the BOM is removed again.
    assert.equal(decoder.end(bytes(0xEF, 0xBB, 0xBF, 0x42)), 'B');
    const sjis = new api.Decoder('sjis', { fatal: true });
    sjis.write(bytes(0x41, 0x42));
    try {
      sjis.end(bytes(0x82));
    } catch (caught) {
      error = caught;
    }
    checkDecodeError(error, 'shift_jis', 2);
    assert.throws(() => sjis.write('abc'), TypeError);
    assert.throws(() => new api.Decoder('nope'), RangeError);
    assert.equal(new api.Decoder('iso-2022-kr').encoding, 'replacement');
    assert.equal(new api.Decoder('utf-8').end(), '');
  });

const encoderSamples = [
  ['windows-1252', 'a\u20AC\u0100\uD83D\uDE00b\uD800'],
  ['shift_jis', '\u3042\u00E9\u3044\uD83D\uDE00'],
  ['iso-2022-jp', 'a\u3042\u00E9\u3044\u00A5\u00E9\\b\uFF76'],
  ['utf-16le', 'a\uD83D\uDE00\uD800b\uDC00'],
  ['utf-16be', '\uD83D\uDE00\uD83D'],
  ['utf-8', '\u00E9\uD83D\uDE00\uDBFF'],
  ['gb18030', '\u4E2D\u20AC\uD83D\uDE00\uE5E5'],
  ['big5', '\u4E00\u00E9\uD840\uDC00'],
];

entryTest('Encoder: every split gives encode()\'s output, every mode',
  (t, api) => {
    for (const [label, text] of encoderSamples) {
      for (const options of [{}, { unmappable: 'subst' },
        { unmappable: 'subst', substitute: '\u3013' },
        { unmappable: 'skip' }, { bom: true }]) {
        let whole;
        try {
          whole = api.encode(text, label, options);
        } catch (error) {
          // 〓 is not in every encoding.
          assert.ok(error instanceof RangeError);
          continue;
        }
        const encoder = new api.Encoder(label, options);
        const units = text.split('');
        const pieces = [[text], units, ['', ...units.flatMap((u) => [u, ''])]];
        for (let cut = 0; cut <= text.length; cut++) {
          for (let cut2 = cut; cut2 <= text.length; cut2++) {
            pieces.push([text.slice(0, cut), text.slice(cut, cut2),
              text.slice(cut2)]);
          }
        }
        for (const chunks of pieces) {
          const outputs = chunks.slice(0, -1).map((c) => encoder.write(c));
          outputs.push(encoder.end(chunks.at(-1)));
          for (const output of outputs) {
            assert.equal(Object.getPrototypeOf(output), Uint8Array.prototype);
          }
          assert.deepEqual(Buffer.concat(outputs), Buffer.from(whole),
            `${label} ${JSON.stringify(options)} ${JSON.stringify(chunks)}`);
        }
      }
    }
  });

entryTest('Encoder: surrogate pairs across chunks, BOM, errors', (t, api) => {
  const utf8 = new api.Encoder('utf-8');
  assert.equal(utf8.encoding, 'utf-8');
  assert.deepEqual(utf8.write('a\uD83D'), bytes(0x61));
  assert.deepEqual(utf8.write('\uDE00'), bytes(0xF0, 0x9F, 0x98, 0x80));
  assert.deepEqual(utf8.write('\uD83D'), bytes());
  assert.deepEqual(utf8.write(''), bytes());
  assert.deepEqual(utf8.write('b'), bytes(0xEF, 0xBF, 0xBD, 0x62));
  assert.deepEqual(utf8.end('\uD83D'), bytes(0xEF, 0xBF, 0xBD));
  const le = new api.Encoder('utf-16le', { bom: true });
  assert.deepEqual(le.write('a\uD83D'), bytes(0xFF, 0xFE, 0x61, 0));
  assert.deepEqual(le.end('\uDE00'), bytes(0x3D, 0xD8, 0x00, 0xDE));
  assert.deepEqual(le.end('b'), bytes(0xFF, 0xFE, 0x62, 0));
  const u8bom = new api.Encoder('utf-8', { bom: true });
  assert.deepEqual(u8bom.write(''), bytes(0xEF, 0xBB, 0xBF));
  assert.deepEqual(u8bom.end('a'), bytes(0x61));
  assert.deepEqual(u8bom.end(), bytes(0xEF, 0xBB, 0xBF));
  // An unmappable pair split across chunks: offset from the stream's start.
  const fatal = new api.Encoder('windows-1252', { unmappable: 'fatal' });
  assert.equal(fatal.encoding, 'windows-1252');
  assert.deepEqual(fatal.write('ab\uD83D'), bytes(0x61, 0x62));
  let error;
  try {
    fatal.write('\uDE00c');
  } catch (caught) {
    error = caught;
  }
  checkEncodeError(error, 'windows-1252', 0x1F600, 2);
  // A new stream after the error.
  try {
    fatal.end('\u0100');
  } catch (caught) {
    error = caught;
  }
  checkEncodeError(error, 'windows-1252', 0x100, 0);
  // A lone high surrogate at the end is U+FFFD, unmappable here.
  fatal.write('xy');
  try {
    fatal.end('\uD800');
  } catch (caught) {
    error = caught;
  }
  checkEncodeError(error, 'windows-1252', 0xFFFD, 2);
  assert.deepEqual(fatal.end('\u20AC'), bytes(0x80));
  // ISO-2022-JP ends in ASCII at end(), and the next stream starts there.
  const jis = new api.Encoder('iso-2022-jp');
  assert.deepEqual(jis.write('\u3042'), bytes(ESC_JIS0208, 0x24, 0x22));
  assert.deepEqual(jis.end(), bytes(ESC_ASCII));
  assert.deepEqual(jis.end('a'), bytes(0x61));
  assert.deepEqual(new api.Encoder('ascii').write(42), bytes(0x34, 0x32));
});

// ---- Web streams and Node streams -----------------------------------------

async function collect(readable) {
  const chunks = [];
  for await (const chunk of readable) chunks.push(chunk);
  return chunks;
}

function webSource(chunks) {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

entryTest('decoderStream and encoderStream (web streams)', async (t, api) => {
  const decoded = await collect(webSource([bytes(0x82), bytes(0xA0, 0x41),
    new Uint8Array(0), bytes(0x82)]).pipeThrough(api.decoderStream('sjis')));
  assert.deepEqual(decoded, ['\u3042A', '\uFFFD']);
  const sniffed = await collect(webSource([bytes(0xFF), bytes(0xFE),
    bytes(0x41, 0)]).pipeThrough(api.decoderStream('shift_jis')));
  assert.equal(sniffed.join(''), 'A');
  const encoded = await collect(webSource(['a\uD83D', '\uDE00', '\u0100'])
    .pipeThrough(api.encoderStream('utf-16be', { bom: true })));
  assert.ok(encoded.every((c) => c instanceof Uint8Array && c.length > 0));
  assert.deepEqual(Buffer.concat(encoded), Buffer.from([0xFE, 0xFF, 0, 0x61,
    0xD8, 0x3D, 0xDE, 0x00, 0x01, 0x00]));
  const substituted = await collect(webSource(['\u3042\u00E9'])
    .pipeThrough(api.encoderStream('iso-2022-jp', { unmappable: 'subst' })));
  assert.deepEqual(Buffer.concat(substituted), Buffer.from([...ESC_JIS0208,
    0x24, 0x22, ...ESC_ASCII, 0x3F]));
  await assert.rejects(collect(webSource([bytes(0x41, 0xFF)])
    .pipeThrough(api.decoderStream('utf-8', { fatal: true }))),
  (error) => error.code === 'ERR_ENCODING_INVALID_ENCODED_DATA' &&
    error.offset === 1);
  await assert.rejects(collect(webSource(['a', '\u0100'])
    .pipeThrough(api.encoderStream('ascii', { unmappable: 'fatal' }))),
  (error) => error.code === 'ERR_ENCODING_UNMAPPABLE' && error.offset === 1);
  await assert.rejects(collect(webSource(['text'])
    .pipeThrough(api.decoderStream('utf-8'))), TypeError);
  assert.throws(() => api.decoderStream('nope'), RangeError);
});

entryTest('decodeStream and encodeStream (Node streams, pipeline)',
  async (t, api) => {
    // A UTF-8 BOM split in three wins over the label; UTF-8 あ (E3 81 82)
    // split between chunks.
    const strings = [];
    await pipeline(Readable.from([Buffer.from([0xEF]), Buffer.from([0xBB]),
      new Uint8Array([0xBF, 0x41, 0xE3]), Buffer.from([0x81]),
      Buffer.alloc(0), Buffer.from([0x82, 0x42])]),
    api.decodeStream('shift_jis'),
    new Writable({
      decodeStrings: false,
      write(chunk, encoding, callback) {
        strings.push(chunk);
        callback();
      },
    }));
    assert.ok(strings.every((s) => typeof s === 'string'));
    assert.equal(strings.join(''), 'A\u3042B');
    const decoder = api.decodeStream('utf-16le');
    const read = collect(decoder);
    decoder.write(Buffer.from([0x3D, 0xD8]));
    decoder.write(Buffer.from([0x00, 0xDE, 0x41]));
    decoder.end();
    const received = await read;
    assert.ok(received.every((s) => typeof s === 'string'));
    assert.equal(received.join(''), '\u{1F600}\uFFFD');

    const buffers = await collect(Readable.from(['a\uD83D', '\uDE00\u00E9',
      '']).pipe(api.encodeStream('utf-8', { bom: true })));
    assert.ok(buffers.every((b) => Buffer.isBuffer(b)));
    assert.deepEqual(Buffer.concat(buffers), Buffer.from([0xEF, 0xBB, 0xBF,
      0x61, 0xF0, 0x9F, 0x98, 0x80, 0xC3, 0xA9]));
    const jis = await collect(Readable.from(['\u3042']).pipe(
      api.encodeStream('iso-2022-jp')));
    assert.deepEqual(Buffer.concat(jis), Buffer.from([...ESC_JIS0208, 0x24,
      0x22, ...ESC_ASCII]));

    await assert.rejects(pipeline(Readable.from([Buffer.from([0x41, 0x82])]),
      api.decodeStream('shift_jis', { fatal: true }), new Writable({
        write(chunk, encoding, callback) { callback(); },
      })), (error) => error instanceof TypeError &&
      error.code === 'ERR_ENCODING_INVALID_ENCODED_DATA' && error.offset === 1);
    await assert.rejects(pipeline(Readable.from(['ab\u0100']),
      api.encodeStream('ascii', { unmappable: 'fatal' }), new Writable({
        write(chunk, encoding, callback) { callback(); },
      })), (error) => error instanceof TypeError &&
      error.code === 'ERR_ENCODING_UNMAPPABLE' && error.offset === 2 &&
      error.codePoint === 0x100);
    await assert.rejects(pipeline(Readable.from(['text']),
      api.decodeStream('utf-8'), new Writable({
        write(chunk, encoding, callback) { callback(); },
      })), TypeError);
    await assert.rejects(pipeline(Readable.from([Buffer.from('x')]),
      api.encodeStream('utf-8'), new Writable({
        write(chunk, encoding, callback) { callback(); },
      })), TypeError);
    assert.throws(() => api.decodeStream('nope'), RangeError);
    assert.throws(() => api.encodeStream('replacement'), RangeError);
  });

// ---- Round trips of every code point of each legacy encoding's index -----

function assertSameString(actual, expected, what) {
  if (actual === expected) return;
  let at = 0;
  while (at < expected.length && actual[at] === expected[at]) at++;
  assert.fail(`${what}: first difference at code unit ${at}`);
}

// Code points an encoding's encoder has (the Standard's index pointer rules:
// Big5 excludes pointers below (0xA1 - 0x81) * 157; EUC-JP, ISO-2022-JP and
// Shift_JIS encode index jis0208 only, jis0212 is decode-only).
function encodableCodePoints(name) {
  const values = (index, skip = () => false) => [...index].filter(([p]) =>
    !skip(p)).map(([, codePoint]) => codePoint);
  switch (name) {
  case 'Big5': return values(readIndex('big5'), (p) => p < (0xA1 - 0x81) * 157);
  case 'EUC-JP': case 'ISO-2022-JP': case 'Shift_JIS':
    return values(readIndex('jis0208'));
  case 'EUC-KR': return values(readIndex('euc-kr'));
  case 'gb18030': case 'GBK': return values(readIndex('gb18030'));
  case 'ISO-8859-8-I': return values(readIndex('iso-8859-8'));
  // x-user-defined: bytes 80-FF are U+F780 to U+F7FF (§14.5).
  case 'x-user-defined':
    return Array.from({ length: 128 }, (_, i) => 0xF780 + i);
  default: return values(readIndex(name.toLowerCase()));
  }
}

entryTest('round trip of every code point of every legacy index',
  (t, api) => {
    if (!needData(t)) return;
    let checked = 0;
    for (const group of encodings()) {
      if (!/^Legacy/.test(group.heading)) continue;
      for (const { name } of group.encodings) {
        if (['replacement', 'UTF-16BE', 'UTF-16LE'].includes(name)) continue;
        const codePoints = [...new Set(encodableCodePoints(name))];
        const text = String.fromCodePoint(...codePoints);
        const encoded = api.encode(text, name, { unmappable: 'fatal' });
        assertSameString(api.decode(encoded, name, { fatal: true }), text,
          name);
        // A single-byte encoding's byte is its pointer + 0x80.
        if (group.heading === 'Legacy single-byte encodings') {
          const index = readIndex(name === 'ISO-8859-8-I' ? 'iso-8859-8' :
            name.toLowerCase());
          const expected = [];
          const seen = new Set();
          for (const [pointer, codePoint] of index) {
            if (!seen.has(codePoint)) expected.push(pointer + 0x80);
            seen.add(codePoint);
          }
          assert.deepEqual(encoded, new Uint8Array(expected), name);
        }
        checked += codePoints.length;
      }
    }
    // gb18030's four-byte ranges: U+0080 and U+FFFF (index gb18030 ranges
    // pointer 0 → 81 30 81 30; pointer 39419 → 84 31 A4 39), U+10000
    // (pointer 189000 → 90 30 81 30); U+E5E5 is an error (the Standard's
    // encoder says so).
    assert.deepEqual(api.encode('\u0080\uFFFF\u{10000}\uE5E5', 'gb18030'),
      bytes(0x81, 0x30, 0x81, 0x30, 0x84, 0x31, 0xA4, 0x39, 0x90, 0x30,
        0x81, 0x30, latin1('&#58853;')));
    assert.ok(checked > 30000, `${checked}`);
  });

'use strict';
// The WebAssembly backend (wasm/backend.js over wasm/dist/*.wasm): no
// imports, no memory growth, the pieces a large input is cut into, and the
// same output as the native addon over the corpus in every encoding.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { addon, skipLoudly, needCorpus, corpusFiles } = require('./helpers');

const dist = path.join(__dirname, '..', 'wasm', 'dist');
const files = ['wenc.wasm', 'wenc-nosimd.wasm'].map((name) =>
  path.join(dist, name));
const built = files.every((file) => fs.existsSync(file));

function needBuild(t) {
  if (built) return true;
  skipLoudly(t, 'the WebAssembly build (wasm/dist/) is not there: run ' +
    '"sh bindings/node/wasm/build.sh"');
  return false;
}

const createBackend = require('../wasm/backend.js');
const createWenc = require('../lib/core.js');

// A backend over the module in `file`, with core.js's shared arrays, as
// core.js sets them up.
// options.utf8Input: strings go in as UTF-8, as in a browser.
function backendOf(file, options = undefined) {
  const wasm = createBackend(new WebAssembly.Module(fs.readFileSync(file)),
    options);
  const slots = new Float64Array(6);
  const smallOutput = new Uint8Array(768);
  wasm.setSharedArrays(slots, smallOutput);
  return { backend: wasm, slots, smallOutput };
}

// The native addon as a backend with its own shared arrays (core.js's own
// instance has set the addon's; set them back to these before each use).
// encodeOnce() may answer a number, the bytes it left in the small output:
// here it answers those bytes, as the WebAssembly backend may do too.
const nativeSlots = new Float64Array(6);
const nativeSmall = new Uint8Array(768);
const nativeBackend = {
  __proto__: addon,
  encodeOnce(...args) {
    addon.setSharedArrays(nativeSlots, nativeSmall);
    const result = addon.encodeOnce(...args);
    return typeof result === 'number' ? nativeSmall.slice(0, result) : result;
  },
};
function native() {
  addon.setSharedArrays(nativeSlots, nativeSmall);
  return nativeBackend;
}

// The same for a WebAssembly backend b (backendOf()).
function bytesOf(b, result) {
  return typeof result === 'number' ? b.smallOutput.slice(0, result) : result;
}

// wenc_id by name.
const ID = Object.fromEntries(Array.from({ length: 40 },
  (_, id) => [addon.encodingName(id), id]));

// TextDecoder.decode(bytes, {stream}) through a backend's decode().
function textDecode(b, handle, bytes, stream) {
  b.slots[0] = 4 + (stream ? 1 : 0);
  b.slots[1] = bytes.byteOffset;
  b.slots[2] = bytes.byteLength;
  return b.backend.decode(handle, bytes, bytes.buffer);
}

function nativeTextDecode(handle, bytes, stream) {
  native();
  nativeSlots[0] = 4 + (stream ? 1 : 0);
  nativeSlots[1] = bytes.byteOffset;
  nativeSlots[2] = bytes.byteLength;
  return addon.decode(handle, bytes, bytes.buffer);
}

// The outcome of f(): its value, or the error's constructor and message.
function outcome(f) {
  try {
    return f();
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
}

function repeat(byteList, count) {
  const out = new Uint8Array(byteList.length * count);
  for (let i = 0; i < count; i++) out.set(byteList, i * byteList.length);
  return out;
}

function concat(...parts) {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const IN_BYTES = 65536; // glue.c's input buffer

test('the modules import nothing and instantiate with {}', (t) => {
  if (!needBuild(t)) return;
  for (const file of files) {
    const module = new WebAssembly.Module(fs.readFileSync(file));
    assert.deepEqual(WebAssembly.Module.imports(module), [], file);
    assert.ok(new WebAssembly.Instance(module, {}).exports.memory, file);
  }
  assert.equal(createBackend.hasSimd(), true, 'Node 18+ has wasm SIMD');
});

test('the module loaded through wasm.js', (t) => {
  if (!needBuild(t)) return;
  const wasmApi = require('../wasm.js');
  assert.equal(wasmApi.backend, 'wasm');
  assert.equal(new wasmApi.TextDecoder('sjis').decode(
    new Uint8Array([0x82, 0xA0, 0x41])), 'あA');
});

test('linear memory does not grow: 10,000 calls of each kind, and 1 MiB ' +
     'inputs', (t) => {
  if (!needBuild(t)) return;
  for (const file of files) {
    const b = backendOf(file);
    const api = createWenc(b.backend);
    const memory = b.backend.memory;
    const japanese = '日本語のテキスト、ASCII text and ｶﾀｶﾅ. ';
    const small = japanese.repeat(3);
    const large = japanese.repeat(Math.ceil((1 << 20) / japanese.length));
    const smallSjis = api.encode(small, 'shift_jis');
    const largeSjis = api.encode(large, 'shift_jis');
    const largeJis = api.encode(large, 'iso-2022-jp');
    const kinds = {
      textDecoder: (big) => new api.TextDecoder('shift_jis')
        .decode(big ? largeSjis : smallSjis),
      textDecoderStream: (big) => {
        const decoder = new api.TextDecoder('iso-2022-jp');
        return decoder.decode(big ? largeJis : smallSjis, { stream: true }) +
          decoder.decode();
      },
      textEncoder: (big) => new api.TextEncoder().encode(big ? large : small),
      decode: (big) => api.decode(big ? largeSjis : smallSjis, 'shift_jis'),
      encode: (big) => api.encode(big ? large : small, 'gb18030'),
      encodeFatal: (big) => outcome(() => api.encode(
        (big ? large : small) + '\u00E9', 'shift_jis',
        { unmappable: 'fatal' })),
      encodeSubst: (big) => api.encode((big ? large : small) + '\u00E9',
        'iso-2022-jp', { unmappable: 'subst', substitute: '〓' }),
      decoder: (big) => {
        const decoder = new api.Decoder('shift_jis');
        return decoder.write(big ? largeSjis : smallSjis) + decoder.end();
      },
      encoder: (big) => {
        const encoder = new api.Encoder('euc-kr');
        return [encoder.write(big ? large : small), encoder.end()];
      },
      labels: () => [api.labelToName(' SJIS '), api.encodingExists('x')],
    };
    for (const [kind, call] of Object.entries(kinds)) {
      call(false);
      call(true);
      const before = memory.buffer.byteLength;
      for (let i = 0; i < 10000; i++) call(false);
      for (let i = 0; i < 8; i++) call(true);
      assert.equal(memory.buffer.byteLength, before,
        `${path.basename(file)}: ${kind} grew linear memory`);
    }
  }
});

// Inputs whose interesting part straddles the end of a piece.
function straddling(prefixLength, middle, suffix = [0x41, 0x42]) {
  return concat(repeat([0x41], prefixLength), Uint8Array.from(middle),
    Uint8Array.from(suffix));
}

const boundaryCases = [
  ['shift_jis', [0x82, 0xA0]],
  ['shift_jis', [0x82]], // a lead byte cut short, then ASCII
  ['utf-8', [0xE6, 0x97, 0xA5]],
  ['utf-8', [0xF0, 0x9F, 0x98, 0x80]],
  ['utf-8', [0xF0, 0x9F, 0x98]], // truncated
  ['gb18030', [0x81, 0x30, 0x81, 0x30]],
  ['big5', [0x88, 0x62]], // two code points
  ['euc-jp', [0x8F, 0xA2, 0xAF]],
  ['euc-kr', [0xB0, 0xA1]],
  ['utf-16le', [0x3D, 0xD8, 0x00, 0xDE]],
  ['utf-16be', [0xD8, 0x3D, 0xDE, 0x00]],
  ['utf-16le', [0x3D, 0xD8, 0x41, 0x00]], // lone high surrogate
  ['iso-2022-jp', [0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42]],
];

test('decoding: a sequence straddling the pieces gives the native output',
  (t) => {
    if (!needBuild(t)) return;
    const b = backendOf(files[0]);
    for (const [label, middle] of boundaryCases) {
      const id = ID[label];
      for (let shift = -8; shift <= 1; shift++) {
        let input = straddling(IN_BYTES + shift, middle);
        if (label.startsWith('utf-16')) {
          // Whole code units before the middle, off by one byte too.
          const prefix = (IN_BYTES + shift) & ~1;
          input = concat(new Uint8Array(prefix).fill(0x30),
            Uint8Array.from(middle), new Uint8Array([0x41, 0x00]));
        }
        const what = `${label} at ${shift}`;
        for (const fatal of [false, true]) {
          assert.deepEqual(outcome(() => b.backend.decodeOnce(id, input, 1,
            fatal)), native().decodeOnce(id, input, 1, fatal), what);
          const ours = b.backend.decoderOpen(id, 0, fatal);
          const theirs = native().decoderOpen(id, 0, fatal);
          assert.deepEqual(b.backend.decoderWrite(ours, input, false) +
            b.backend.decoderWrite(ours, new Uint8Array(0), true),
          native().decoderWrite(theirs, input, false) +
            native().decoderWrite(theirs, new Uint8Array(0), true), what);
          for (const stream of [false, true]) {
            const [handle] = b.backend.decoderNew(label, fatal, false);
            const [nativeHandle] = native().decoderNew(label, fatal, false);
            assert.deepEqual(
              outcome(() => textDecode(b, handle, input, stream)),
              outcome(() => nativeTextDecode(nativeHandle, input, stream)),
              `${what} TextDecoder fatal=${fatal} stream=${stream}`);
            // What follows sees the same decoder (renewed, or the rest of
            // the input queued after a TypeError).
            const next = new Uint8Array([0x82, 0x41, 0x42]);
            assert.deepEqual(
              outcome(() => textDecode(b, handle, next, false)),
              outcome(() => nativeTextDecode(nativeHandle, next, false)),
              `${what} TextDecoder fatal=${fatal} stream=${stream}, next`);
          }
        }
      }
    }
  });

test('decoding: ISO-2022-JP state carries over the pieces', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  const api = createWenc(b.backend);
  // ESC $ B, then two-byte JIS X 0208 pairs over three pieces, ESC ( B.
  const jis = concat(new Uint8Array([0x1B, 0x24, 0x42]),
    repeat([0x24, 0x22, 0x30, 0x21], 50000), new Uint8Array([0x1B, 0x28, 0x42,
      0x41]));
  const expected = 'あ亜'.repeat(50000) + 'A';
  assert.equal(api.decode(jis, 'iso-2022-jp'), expected);
  assert.equal(new api.TextDecoder('iso-2022-jp').decode(jis), expected);
  const decoder = new api.Decoder('iso-2022-jp');
  assert.equal(decoder.write(jis.subarray(0, 70001)) +
    decoder.end(jis.subarray(70001)), expected);
  // Encoding: the state across pieces of the UTF-8 input, and the closing
  // escape at the end only.
  const encoded = api.encode(expected, 'iso-2022-jp');
  assert.deepEqual(encoded, concat(jis.subarray(0, jis.length - 1),
    new Uint8Array([0x41])));
});

test('encoding: code points straddling the pieces, error offsets past the ' +
     'first piece', (t) => {
  if (!needBuild(t)) return;
  for (const options of [undefined, { utf8Input: true }]) {
    encodeStraddling(backendOf(files[0], options));
  }
});

function encodeStraddling(b) {
  // The UTF-8 of the string is cut every IN_BYTES bytes by encodeInto().
  const cases = [];
  for (let shift = -4; shift <= 2; shift++) {
    const pad = 'a'.repeat(IN_BYTES + shift);
    cases.push(pad + '日本' + 'b');
    cases.push(pad + '\u{1F600}' + 'b');
    cases.push(pad + '\uD800' + 'b'); // lone surrogate
    cases.push(pad + '\u00E9' + '日'.repeat(30000) + '\u00E9');
    // Pieces of UTF-16 code units.
    const half = 'a'.repeat(IN_BYTES / 2 + shift);
    cases.push(half + '\u{1F600}\u00E9b', half + '\uD800\u00E9');
  }
  for (const string of cases) {
    for (const label of ['shift_jis', 'iso-2022-jp', 'gb18030', 'utf-16le',
      'utf-16be', 'utf-8', 'euc-kr', 'windows-1252']) {
      const id = ID[label];
      for (const mode of [0, 1, 2, 3]) {
        const substitute = native().encodeOnce(id, '?', 1, new Uint8Array(0),
          false);
        const what = `${label} mode ${mode} length ${string.length}`;
        assert.deepEqual(bytesOf(b, b.backend.encodeOnce(id, string, mode, substitute,
          true)), native().encodeOnce(id, string, mode, substitute, true),
        what);
        // The same through a stream, cut at a surrogate pair.
        const ours = b.backend.encoderOpen(id, mode, substitute, false);
        const theirs = native().encoderOpen(id, mode, substitute, false);
        const cut = string.length - 2;
        const run = (backend, handle) => {
          const first = backend.encoderWrite(handle, string.slice(0, cut),
            false);
          if (Array.isArray(first)) return first;
          const second = backend.encoderWrite(handle, string.slice(cut), true);
          return Array.isArray(second) ? second : concat(first, second);
        };
        assert.deepEqual(run(b.backend, ours), run(native(), theirs), what);
      }
    }
  }
}

test('encoding: a high surrogate at the end of a write waits', (t) => {
  if (!needBuild(t)) return;
  for (const options of [undefined, { utf8Input: true }]) {
    highSurrogateWaits(backendOf(files[0], options));
  }
});

function highSurrogateWaits(b) {
  for (const label of ['gb18030', 'utf-16le', 'shift_jis']) {
    const id = ID[label];
    const chunks = ['ab\uD83D', '\uDE00c\uD83D', '', 'd\uD83D'];
    for (const mode of [0, 1]) {
      const ours = b.backend.encoderOpen(id, mode, new Uint8Array(0), true);
      const theirs = native().encoderOpen(id, mode, new Uint8Array(0), true);
      for (const [i, chunk] of chunks.entries()) {
        const last = i === chunks.length - 1;
        assert.deepEqual(b.backend.encoderWrite(ours, chunk, last),
          native().encoderWrite(theirs, chunk, last),
          `${label} mode ${mode} chunk ${i}`);
      }
    }
  }
}

// Deterministic pseudo-random numbers.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

test('random bytes, strings and splits: the native output', (t) => {
  if (!needBuild(t)) return;
  const variants = [backendOf(files[0]), backendOf(files[0],
    { utf8Input: true })];
  const next = random(20261126);
  const pick = (n) => Math.floor(next() * n);
  for (let round = 0; round < 400; round++) {
    const b = variants[round & 1];
    const id = pick(40);
    const length = pick(4) === 0 ? pick(200000) : pick(64);
    const bytes = new Uint8Array(length);
    const high = pick(3);
    for (let i = 0; i < length; i++) {
      bytes[i] = high === 0 ? pick(128) : high === 1 ? 0x80 + pick(128) :
        pick(256);
    }
    const bom = pick(3);
    const fatal = pick(2) === 1;
    const what = `round ${round} id ${id} length ${length}`;
    assert.deepEqual(b.backend.decodeOnce(id, bytes, bom, fatal),
      native().decodeOnce(id, bytes, bom, fatal), what);
    const ours = b.backend.decoderOpen(id, bom, fatal);
    const theirs = native().decoderOpen(id, bom, fatal);
    for (let at = 0; at <= length;) {
      const end = Math.min(length, at + pick(100000));
      const last = end === length;
      const piece = bytes.subarray(at, end);
      assert.deepEqual(b.backend.decoderWrite(ours, piece, last),
        native().decoderWrite(theirs, piece, last), `${what} at ${at}`);
      at = last ? length + 1 : end;
    }
    if (id === ID.replacement) continue;
    let string = '';
    const units = pick(4) === 0 ? pick(100000) : pick(40);
    for (let i = 0; i < units; i++) {
      const kind = pick(5);
      string += String.fromCharCode(kind === 0 ? pick(128) :
        kind === 1 ? 0xD800 + pick(0x800) : kind === 2 ? 0x3000 + pick(0x6000) :
          pick(0x10000));
    }
    const mode = pick(4);
    const substitute = mode === 2 ? native().encodeOnce(id, '?', 1,
      new Uint8Array(0), false) : new Uint8Array(0);
    assert.deepEqual(
      bytesOf(b, b.backend.encodeOnce(id, string, mode, substitute, bom === 1)),
      native().encodeOnce(id, string, mode, substitute, bom === 1), what);
  }
});

test('the corpus in every encoding, both directions: the native output',
  (t) => {
    if (!needBuild(t) || !needCorpus(t)) return;
    const b = backendOf(files[0]);
    // The other module, with strings in as UTF-8 (as in a browser).
    const nosimd = backendOf(files[1], { utf8Input: true });
    for (const file of corpusFiles()) {
      // Enough for three pieces of the input buffer.
      const text = fs.readFileSync(file, 'utf8').slice(0, 100000);
      const utf8 = Buffer.from(text);
      for (let id = 0; id < 40; id++) {
        const what = `${path.basename(file)} id ${id}`;
        // Decoding the file's UTF-8 as each encoding: errors everywhere.
        for (const fatal of [false, true]) {
          const expected = native().decodeOnce(id, utf8, 0, fatal);
          assert.equal(b.backend.decodeOnce(id, utf8, 0, fatal), expected, what);
        }
        if (id === ID.replacement) continue;
        const bytes = native().encodeOnce(id, text, 0, new Uint8Array(0),
          false);
        const ours = bytesOf(b, b.backend.encodeOnce(id, text, 0,
          new Uint8Array(0), false));
        assert.ok(Buffer.from(ours).equals(Buffer.from(bytes)), `${what} encode`);
        assert.ok(Buffer.from(bytesOf(nosimd, nosimd.backend.encodeOnce(id,
          text, 0, new Uint8Array(0), false))).equals(Buffer.from(bytes)),
        `${what} encode, no SIMD`);
        const decoded = native().decodeOnce(id, bytes, 1, false);
        assert.equal(b.backend.decodeOnce(id, bytes, 1, false), decoded,
          `${what} decode`);
        assert.equal(nosimd.backend.decodeOnce(id, bytes, 1, false), decoded,
          `${what} decode, no SIMD`);
        const name = native().encodingName(id);
        if (name === 'replacement') continue;
        const [handle] = b.backend.decoderNew(name, false, false);
        assert.equal(textDecode(b, handle, bytes, false), decoded,
          `${what} TextDecoder`);
      }
    }
  });

test('labels, names and canEncode as the native backend', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  const labels = ['utf8', ' \t SJIS\n', 'x', '', 'latin1', 'replacement',
    'iso-2022-kr', 'UTF-16', 'unicode-1-1-utf-8', `${' '.repeat(100)}gbk `,
    'gbk\0', 'ut\u0130f-8', '\u00A0utf-8'];
  for (const label of labels) {
    assert.equal(b.backend.labelId(label), native().labelId(label), label);
    assert.deepEqual(b.backend.decoderNew(label, true, false)?.slice(1),
      native().decoderNew(label, true, false)?.slice(1), label);
  }
  for (let id = 0; id < 40; id++) {
    assert.equal(b.backend.encodingName(id), native().encodingName(id));
    // BACKEND.md: false for replacement only.
    assert.equal(b.backend.canEncode(id), id !== ID.replacement);
  }
});

test('single-byte encoders (glue.c\'s map): every mode, surrogates, the ' +
     'native output', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  const nosimd = backendOf(files[1]);
  const strings = [
    'ASCII only, long enough for vectors of sixteen units',
    'Ελληνικά и русский, עברית, العربية, ไทย, €‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ',
    '\uD800\uD800\uDC00x\uDBFF', '\uDC00\uD83D\uDE00\u00E9', 'a\uD800',
    '\u0080\u00FF\u0100\uFFFD\uFFFF' + 'b'.repeat(40) + '\u20AC',
  ];
  for (let id = ID.ibm866; id <= ID['x-mac-cyrillic']; id++) {
    for (const string of strings) {
      for (const mode of [0, 1, 2, 3]) {
        const substitute = mode === 2 ? new Uint8Array([0x3F, 0x21]) :
          new Uint8Array(0);
        const expected = native().encodeOnce(id, string, mode, substitute,
          false);
        for (const backend of [b, nosimd]) {
          assert.deepEqual(bytesOf(backend, backend.backend.encodeOnce(id,
            string, mode, substitute, false)), expected,
          `${native().encodingName(id)} mode ${mode} ${JSON.stringify(string)}`);
        }
      }
    }
  }
});

test('single-byte encoders through the flat tables (long inputs, three ' +
     'encodings taking turns): the native output', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  const nosimd = backendOf(files[1]);
  const labels = ['windows-1252', 'iso-8859-2', 'koi8-r', 'windows-874',
    'windows-1252', 'koi8-r', 'iso-8859-2', 'iso-8859-15'];
  // Unmappable code points (U+3042, a lone surrogate) and U+0000 at
  // chunk boundaries and far apart; the rest the encoding's own characters
  // and ASCII.
  const stops = [0, 5, 15, 16, 17, 47, 48, 1000, 1023, 1024, 1025, 2047, 9000,
    32767, 32768, 40000];
  for (const label of labels) {
    const id = native().labelId(label);
    const own = native().decodeOnce(id,
      new Uint8Array(128).map((_, i) => 0x80 + i), 1, false)
      .replace(/\uFFFD/g, '');
    const units = [];
    for (let i = 0; units.length < 41000; i++) {
      units.push(i % 7 === 0 ? 0x20 + (i % 90) : own.charCodeAt(i % own.length));
    }
    for (const [n, at] of stops.entries()) {
      units[at] = [0x3042, 0xD800, 0x0000, 0xDC00][n % 4];
    }
    // Latin-1 text (which windows-1252 encodes as the same bytes from A0,
    // ISO-8859-15 from BF: glue.c copies such runs 16 at a time), with the
    // units about the edges of those ranges here and there.
    const edges = [0x7F, 0x80, 0x9F, 0xA0, 0xA4, 0xBE, 0xBF, 0xFF, 0x100,
      0x152, 0x20AC, 0xFFFF];
    for (let i = 41000; i < 82000; i++) {
      units[i] = i % 53 === 0 ? edges[(i / 53) % edges.length] :
        i % 3 === 0 ? 0x20 + (i % 95) : 0xA0 + (i * 7) % 96;
    }
    let string = '';
    for (let i = 0; i < units.length; i += 8192) {
      string += String.fromCharCode(...units.slice(i, i + 8192));
    }
    for (const mode of [0, 1, 2, 3]) {
      const substitute = mode === 2 ? new Uint8Array([0x3F]) :
        new Uint8Array(0);
      const expected = native().encodeOnce(id, string, mode, substitute,
        false);
      for (const backend of [b, nosimd]) {
        assert.deepEqual(bytesOf(backend, backend.backend.encodeOnce(id, string,
          mode, substitute, false)), expected, `${label} mode ${mode}`);
      }
    }
  }
});

test('single-byte decoders through the pair table (long inputs, BOMs, ' +
     'chunks, encodings taking turns): the native output', (t) => {
  if (!needBuild(t)) return;
  let seed = 0x5EED0005;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) /
    2 ** 32;
  const starts = [[], [0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE],
    [0xEF, 0xBB], [0xEF], [0x41, 0xEF, 0xBB, 0xBF]];
  for (const file of files) {
    const api = createWenc(backendOf(file).backend);
    for (const label of ['windows-1252', 'iso-8859-8', 'koi8-u',
      'windows-1252', 'ibm866', 'windows-874', 'iso-8859-8']) {
      for (const start of starts) {
        const bytes = new Uint8Array(70000 + Math.floor(next() * 100));
        bytes.set(start);
        for (let i = start.length; i < bytes.length; i++) {
          bytes[i] = next() < 0.5 ? 0x20 + Math.floor(next() * 0x5F) :
            Math.floor(next() * 256);
        }
        for (const bom of ['sniff', 'strip', 'keep']) {
          const expected = require('../native.js').decode(bytes, label,
            { bom });
          assert.equal(api.decode(bytes, label, { bom }), expected,
            `${label} [${start}] ${bom}`);
          // A Decoder over chunks of 1 to 70 KiB gives the same.
          const decoder = new api.Decoder(label, { bom });
          let text = '';
          for (let at = 0; at < bytes.length;) {
            const size = 1 + Math.floor(next() ** 3 * 70000);
            text += decoder.write(bytes.subarray(at, at + size));
            at += size;
          }
          assert.equal(text + decoder.end(), expected,
            `${label} [${start}] ${bom} in chunks`);
        }
        // TextDecoder (no BOM handling for these encodings: decode() that
        // keeps a BOM), whole and streamed, twice over (the second a new
        // stream).
        const expected = require('../native.js').decode(bytes, label,
          { bom: 'keep' });
        const textDecoder = new api.TextDecoder(label);
        assert.equal(textDecoder.decode(bytes), expected, `${label} TextDecoder`);
        for (let round = 0; round < 2; round++) {
          let text = '';
          for (let at = 0; at < bytes.length;) {
            const size = 1 + Math.floor(next() ** 3 * 70000);
            text += textDecoder.decode(bytes.subarray(at, at + size),
              { stream: true });
            at += size;
          }
          assert.equal(text + textDecoder.decode(), expected,
            `${label} [${start}] TextDecoder streamed`);
        }
        // Fatal: the table path is not taken (a byte the index has not,
        // as ISO-8859-8 and windows-874 have, is an error).
        const fatal = (decode) => {
          try {
            return decode();
          } catch (error) {
            return error.constructor.name;
          }
        };
        const fatalExpected = fatal(() => require('../native.js').decode(bytes,
          label, { bom: 'keep', fatal: true }));
        assert.equal(fatal(() => new api.TextDecoder(label, { fatal: true })
          .decode(bytes)), fatalExpected, `${label} fatal TextDecoder`);
        assert.equal(fatal(() => api.decode(bytes, label, { fatal: true,
          bom: 'keep' })), fatalExpected, `${label} fatal decode()`);
        if (/8859-8|874/.test(label)) assert.equal(fatalExpected, 'TypeError');
      }
    }
  }
});

test('multi-byte encoders through the flat tables (more than a million ' +
     'units each, so that the tables are built): the native output', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  const nosimd = backendOf(files[1]);
  let seed = 0x5EED0004;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) /
    2 ** 32;
  for (const label of ['gbk', 'gb18030', 'big5', 'euc-jp', 'shift_jis',
    'euc-kr', 'gbk']) {
    const id = native().labelId(label);
    // The encoding's own characters: random bytes decoded, less U+FFFD.
    const noise = new Uint8Array(20000).map(() => 0x81 + Math.floor(next() *
      0x7E));
    const own = native().decodeOnce(id, noise, 0, false).replace(/\uFFFD/g,
      '');
    const units = [];
    while (units.length < 1200000) {
      const i = Math.floor(next() * own.length);
      const unit = own.charCodeAt(i);
      // Not half of a pair.
      if (unit < 0xD800 || unit > 0xDFFF) units.push(unit);
      if (next() < 0.2) units.push(0x20 + Math.floor(next() * 0x5F));
    }
    // Past the first million units (the table in use by then): code points
    // the tables have not (Thai, gb18030's four-byte ones, U+E5E5, lone
    // surrogates, a pair) and U+0000, about chunk boundaries.
    const odd = [0x0E01, 0x00E9, 0xE5E5, 0xD800, 0xDC00, 0x0000, 0x20AC,
      0x00A5, 0xFF61];
    for (const [n, at] of [1100000, 1100001, 1100015, 1100016, 1100017,
      1100511, 1100512, 1101000, 1150000, 1199999].entries()) {
      units[at] = odd[n % odd.length];
    }
    units.splice(1120000, 2, 0xD83D, 0xDE00);
    let string = '';
    for (let i = 0; i < units.length; i += 8192) {
      string += String.fromCharCode(...units.slice(i, i + 8192));
    }
    for (const mode of [0, 3]) {
      const expected = native().encodeOnce(id, string, mode,
        new Uint8Array(0), false);
      for (const backend of [b, nosimd]) {
        const got = bytesOf(backend, backend.backend.encodeOnce(id, string,
          mode, new Uint8Array(0), false));
        assert.ok(Buffer.from(got).equals(Buffer.from(expected)),
          `${label} mode ${mode}`);
      }
    }
  }
});

test('core.js encodes short single-byte strings without the backend, and ' +
     'the rest with it', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  let calls = 0;
  const counting = Object.create(b.backend);
  counting.encodeOnce = (...args) => {
    calls++;
    return b.backend.encodeOnce(...args);
  };
  const api = createWenc(counting);
  const names = ['IBM866', 'ISO-8859-2', 'ISO-8859-3', 'ISO-8859-4',
    'ISO-8859-5', 'ISO-8859-6', 'ISO-8859-7', 'ISO-8859-8', 'ISO-8859-8-I',
    'ISO-8859-10', 'ISO-8859-13', 'ISO-8859-14', 'ISO-8859-15',
    'ISO-8859-16', 'KOI8-R', 'KOI8-U', 'macintosh', 'windows-874',
    'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253',
    'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257',
    'windows-1258', 'x-mac-cyrillic', 'x-user-defined'];
  for (const name of names) {
    // A character of bytes 0xC0-0xFF, not ASCII.
    const own = [...api.decode(new Uint8Array(64).map((_, i) => 0xC0 + i),
      name)].find((c) => c !== '\uFFFD');
    const cases = [['', 0], [`a${own}b`, 0], [own.repeat(64), 0],
      [own.repeat(65), 1], ['a\u3042', 1], [`${own}\uD800`, 1]];
    for (const [string, backendCalls] of cases) {
      calls = 0;
      const bytes = api.encode(string, name);
      assert.equal(calls, backendCalls, `${name} ${JSON.stringify(string)}`);
      assert.deepEqual(bytes, api.encode(string, name, {}),
        `${name} ${JSON.stringify(string)}`);
    }
  }
  calls = 0;
  api.encode('abc', 'gbk');
  assert.equal(calls, 1);
});

test('SharedArrayBuffer input and encodeInto() destination', (t) => {
  if (!needBuild(t)) return;
  const api = createWenc(backendOf(files[0]).backend);
  const decoder = new api.TextDecoder('shift_jis');
  // A longer typed array first, so that stale slots would show.
  assert.equal(decoder.decode(new Uint8Array([0x41, 0x42, 0x43, 0x44])),
    'ABCD');
  const shared = new SharedArrayBuffer(2);
  new Uint8Array(shared).set([0x82, 0xA0]);
  assert.equal(decoder.decode(shared, { stream: true }), 'あ');
  assert.equal(decoder.decode(new Uint8Array(shared).subarray(1)), '\uFFFD');
  const destination = new Uint8Array(new SharedArrayBuffer(8), 2, 5);
  assert.deepEqual(new api.TextEncoder().encodeInto('a\u{1F600}b', destination),
    { read: 3, written: 5 });
  assert.deepEqual([...destination], [0x61, 0xF0, 0x9F, 0x98, 0x80]);
});

test('UTF-8 and UTF-16LE through the host (Node): the native output', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  const inputs = [[0xFF, 0xFE, 0x41, 0], [0x41, 0, 0x3D, 0xD8],
    [0x41, 0, 0x3D, 0xD8, 0x42], [0x3D, 0xD8, 0x3D, 0xD8, 0, 0xDE, 1],
    [0xFE, 0xFF, 0, 0x41], [0xEF, 0xBB, 0xBF, 0x41], [0xEF, 0xBB],
    [0x00, 0xDC, 0x41], [], [0x41]];
  for (const input of inputs) {
    for (const bom of [0, 1, 2]) {
      for (const fatal of [false, true]) {
        const bytes = new Uint8Array(input);
        assert.deepEqual(b.backend.decodeOnce(ID['utf-16le'], bytes, bom,
          fatal), native().decodeOnce(ID['utf-16le'], bytes, bom, fatal),
        `${JSON.stringify(input)} bom ${bom} fatal ${fatal}`);
      }
    }
  }
  const strings = ['', 'a', '\uD800', 'a\uDC00b\uD83D\uDE00', 'x\uD83D'];
  for (const label of ['utf-8', 'utf-16le']) {
    for (const string of strings) {
      for (const bom of [false, true]) {
        const id = ID[label];
        const empty = new Uint8Array(0);
        assert.deepEqual(bytesOf(b, b.backend.encodeOnce(id, string, 0, empty,
          bom)), native().encodeOnce(id, string, 0, empty, bom),
        `${label} ${JSON.stringify(string)} bom ${bom}`);
        const ours = b.backend.encoderOpen(id, 0, empty, bom);
        const theirs = native().encoderOpen(id, 0, empty, bom);
        for (const last of [false, false, true, false, true]) {
          assert.deepEqual(b.backend.encoderWrite(ours, string, last),
            native().encoderWrite(theirs, string, last),
            `${label} stream ${JSON.stringify(string)} bom ${bom}`);
        }
      }
    }
  }
});

test('UTF-8 decoded through the host: the native output', (t) => {
  if (!needBuild(t)) return;
  const b = backendOf(files[0]);
  const inputs = [[0xEF, 0xBB, 0xBF, 0x41], [0xFE, 0xFF, 0, 0x41],
    [0xFF, 0xFE, 0x41, 0], [0xEF, 0xBB], [0x41, 0xC0, 0x80, 0xE2, 0x82],
    [0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80], [], [0xEF, 0xBB, 0xBF]];
  for (const input of inputs) {
    for (const bom of [0, 1, 2]) {
      for (const fatal of [false, true]) {
        const bytes = new Uint8Array(input);
        assert.deepEqual(b.backend.decodeOnce(ID['utf-8'], bytes, bom, fatal),
          native().decodeOnce(ID['utf-8'], bytes, bom, fatal),
          `${JSON.stringify(input)} bom ${bom} fatal ${fatal}`);
      }
    }
  }
  const shared = new Uint8Array(new SharedArrayBuffer(3));
  shared.set([0x41, 0xC3, 0xA9]);
  assert.equal(b.backend.decodeOnce(ID['utf-8'], shared, 1, false), 'Aé');
});

test('wasm/browser.mjs loads in Node (a file: URL read from the disk)',
  async (t) => {
    if (!needBuild(t)) return;
    if (!fs.existsSync(path.join(dist, 'core.mjs'))) {
      skipLoudly(t, 'dist/core.mjs is not there: run wasm/build.sh again');
      return;
    }
    const browser = await import('../wasm/browser.mjs');
    assert.equal(browser.backend, 'wasm');
    assert.equal(browser.default.backend, 'wasm');
    assert.equal(new browser.TextDecoder('sjis').decode(
      new Uint8Array([0x82, 0xA0])), 'あ');
    assert.deepEqual([...browser.encode('€', 'windows-1252')], [0x80]);
    for (const name of ['TextDecoder', 'TextEncoder', 'TextDecoderStream',
      'TextEncoderStream', 'encode', 'decode', 'labelToName',
      'encodingExists', 'Encoder', 'Decoder', 'encoderStream',
      'decoderStream']) {
      assert.equal(typeof browser[name], 'function', name);
    }
  });

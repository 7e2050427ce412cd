'use strict';
// The two backends agree: native.js (the addon) and wasm.js (WebAssembly)
// give the same results, errors included, on random inputs (fixed seeds) for
// every encoding, both directions, every mode, one-shot and streaming. Each
// test states its seed; a failure names the input.

const test = require('node:test');
const assert = require('node:assert/strict');
const { skipLoudly, entryMissing } = require('./helpers');

// Both entries, or null after a loud skip.
function backends(t) {
  const missing = ['native.js', 'wasm.js'].map(entryMissing)
    .filter((why) => why);
  if (missing.length) {
    skipLoudly(t, `${missing.join('; ')}: the backends are not compared`);
    return null;
  }
  return [require('../native.js'), require('../wasm.js')];
}

// The Standard's 40 encodings, by name.
const ENCODINGS = [
  'UTF-8', 'IBM866', 'ISO-8859-2', 'ISO-8859-3', 'ISO-8859-4', 'ISO-8859-5',
  'ISO-8859-6', 'ISO-8859-7', 'ISO-8859-8', 'ISO-8859-8-I', 'ISO-8859-10',
  'ISO-8859-13', 'ISO-8859-14', 'ISO-8859-15', 'ISO-8859-16', 'KOI8-R',
  'KOI8-U', 'macintosh', 'windows-874', 'windows-1250', 'windows-1251',
  'windows-1252', 'windows-1253', 'windows-1254', 'windows-1255',
  'windows-1256', 'windows-1257', 'windows-1258', 'x-mac-cyrillic', 'GBK',
  'gb18030', 'Big5', 'EUC-JP', 'ISO-2022-JP', 'Shift_JIS', 'EUC-KR',
  'replacement', 'UTF-16BE', 'UTF-16LE', 'x-user-defined',
];

// mulberry32: a small PRNG with a fixed seed.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Code point pools: what the encodings have, what they lack, and what their
// encoders treat specially (ISO-2022-JP's ESC, ¥, ‾, \, ~, U+2212; gb18030's
// U+E5E5 and Private Use; lone surrogates).
const POOLS = [
  [0x00, 0x7F], [0x80, 0xFF], [0x100, 0x24F], [0x370, 0x4FF], [0x5D0, 0x6FF],
  [0xE00, 0xE7F], [0x2000, 0x22FF], [0x3000, 0x30FF], [0x4E00, 0x9FFF],
  [0xAC00, 0xD7A3], [0xE000, 0xE8FF], [0xF780, 0xF7FF], [0xFF00, 0xFFEF],
  [0x10000, 0x10FFFF], [0xD800, 0xDFFF],
];
const SPECIAL = [0x1B, 0x0E, 0x0F, 0x5C, 0x7E, 0xA5, 0x203E, 0x2212, 0xE5E5,
  0xFF61, 0xFF9F, 0x20AC, 0xFEFF, 0xFFFD, 0x80];

function randomString(next, length) {
  let text = '';
  for (let i = 0; i < length; i++) {
    const r = next();
    if (r < 0.1) {
      text += String.fromCharCode(SPECIAL[Math.floor(next() * SPECIAL.length)]);
      continue;
    }
    const [low, high] = r < 0.4 ? POOLS[0] :
      POOLS[Math.floor(next() * POOLS.length)];
    const codePoint = low + Math.floor(next() * (high - low + 1));
    text += codePoint >= 0xD800 && codePoint <= 0xDFFF ?
      String.fromCharCode(codePoint) : String.fromCodePoint(codePoint);
  }
  return text;
}

const BOMS = [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]];

// Random bytes: noise, ASCII, the encoding's own text (from the reference
// backend's encoder), and sometimes a BOM first.
function randomBytes(next, api, name, length) {
  const out = [];
  if (next() < 0.2) out.push(...BOMS[Math.floor(next() * 3)]);
  while (out.length < length) {
    const r = next();
    if (r < 0.3) {
      out.push(Math.floor(next() * 256));
    } else if (r < 0.5) {
      out.push(0x20 + Math.floor(next() * 0x5F));
    } else if (name !== 'replacement') {
      out.push(...api.encode(randomString(next, 1 + Math.floor(next() * 4)),
        name));
    }
  }
  return new Uint8Array(out);
}

// What a call gave: its value, or its error's kind and properties.
function outcome(fn) {
  try {
    const value = fn();
    return { value: value instanceof Uint8Array ? [...value] : value };
  } catch (error) {
    return {
      error: error.constructor.name, code: error.code, offset: error.offset,
      codePoint: error.codePoint, encoding: error.encoding,
      message: error.message,
    };
  }
}

function randomSplit(next, length) {
  const cuts = [0];
  while (cuts.at(-1) < length) {
    cuts.push(Math.min(length, cuts.at(-1) + Math.floor(next() * 6)));
  }
  return cuts;
}

test('decode: the backends agree, every encoding, fatal and BOM mode',
  (t) => {
    const apis = backends(t);
    if (!apis) return;
    const seed = 0x5EED0001;
    const next = random(seed);
    for (const name of ENCODINGS) {
      for (let i = 0; i < 40; i++) {
        const input = randomBytes(next, apis[0], name,
          Math.floor(next() * (i < 35 ? 24 : 600)));
        for (const fatal of [false, true]) {
          for (const bom of ['sniff', 'strip', 'keep']) {
            const options = { fatal, bom };
            const [native, wasm] = apis.map((api) =>
              outcome(() => api.decode(input, name, options)));
            assert.deepEqual(wasm, native, `seed ${seed}: decode ` +
              `[${input}] ${name} ${JSON.stringify(options)}`);
            // A Decoder over random chunks gives the same (the offset of
            // an error included).
            const cuts = randomSplit(next, input.length);
            const streamed = apis.map((api) => outcome(() => {
              const decoder = new api.Decoder(name, options);
              let text = '';
              for (let c = 1; c < cuts.length; c++) {
                text += decoder.write(input.subarray(cuts[c - 1], cuts[c]));
              }
              return text + decoder.end();
            }));
            assert.deepEqual(streamed[0], native, `seed ${seed}: Decoder ` +
              `[${input}] ${name} ${JSON.stringify(options)} ${cuts}`);
            assert.deepEqual(streamed[1], native, `seed ${seed}: wasm ` +
              `Decoder [${input}] ${name} ${JSON.stringify(options)} ${cuts}`);
          }
        }
      }
    }
  });

test('encode: the backends agree, every encoding, every mode', (t) => {
  const apis = backends(t);
  if (!apis) return;
  const seed = 0x5EED0002;
  const next = random(seed);
  const modes = [{}, { unmappable: 'fatal' }, { unmappable: 'subst' },
    { unmappable: 'subst', substitute: '\u3013' },
    { unmappable: 'subst', substitute: '\\~' }, { unmappable: 'skip' },
    { bom: true }, { unmappable: 'skip', bom: true }];
  for (const name of ENCODINGS) {
    for (let i = 0; i < 30; i++) {
      const text = randomString(next, Math.floor(next() * (i < 25 ? 16 :
        400)));
      for (const options of modes) {
        const [native, wasm] = apis.map((api) =>
          outcome(() => api.encode(text, name, options)));
        assert.deepEqual(wasm, native, `seed ${seed}: encode ` +
          `${JSON.stringify(text)} ${name} ${JSON.stringify(options)}`);
        if (native.error === 'RangeError') continue;
        const cuts = randomSplit(next, text.length);
        const streamed = apis.map((api) => outcome(() => {
          const encoder = new api.Encoder(name, options);
          const chunks = [];
          for (let c = 1; c < cuts.length; c++) {
            chunks.push(...encoder.write(text.slice(cuts[c - 1], cuts[c])));
          }
          chunks.push(...encoder.end());
          return chunks;
        }));
        assert.deepEqual(streamed[0], native, `seed ${seed}: Encoder ` +
          `${JSON.stringify(text)} ${name} ${JSON.stringify(options)} ${cuts}`);
        assert.deepEqual(streamed[1], native, `seed ${seed}: wasm Encoder ` +
          `${JSON.stringify(text)} ${name} ${JSON.stringify(options)} ${cuts}`);
      }
    }
  }
});

test('labels: the backends agree on every string around the labels', (t) => {
  const apis = backends(t);
  if (!apis) return;
  const seed = 0x5EED0003;
  const next = random(seed);
  const pieces = ['utf', '-', '8', 'latin', '1', 'iso', '8859', 'sjis', 'x',
    'gb', 'k', ' ', '\t', '\0', '\u00A0', 'K', '\u212A', 'koi8', 'r', '_'];
  for (let i = 0; i < 3000; i++) {
    let label = '';
    const n = 1 + Math.floor(next() * 5);
    for (let j = 0; j < n; j++) {
      label += pieces[Math.floor(next() * pieces.length)];
    }
    assert.equal(apis[1].labelToName(label), apis[0].labelToName(label),
      `seed ${seed}: ${JSON.stringify(label)}`);
  }
});

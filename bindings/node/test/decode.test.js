'use strict';
// TextDecoder decode() (§7.1, §7.2): BOM handling, streaming, fatal errors
// and the input types AllowSharedBufferSource admits.

const test = require('node:test');
const assert = require('node:assert/strict');
const { wenc, addon, bytes, needResizable } = require('./helpers');

const { TextDecoder } = wenc;
const BuiltinDecoder = globalThis.TextDecoder;
const FFFD = '\uFFFD';

test('a BOM is removed once, for UTF-8 and UTF-16 only, unless ignoreBOM',
  () => {
    const cases = [
      ['utf-8', [0xEF, 0xBB, 0xBF, 0x41], 'A', '\uFEFFA'],
      ['utf-8', [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF], '\uFEFF',
        '\uFEFF\uFEFF'],
      ['utf-8', [0xEF, 0xBB, 0xBF], '', '\uFEFF'],
      ['utf-8', [0xFF, 0xFE, 0x41, 0x00], `${FFFD}${FFFD}A\0`,
        `${FFFD}${FFFD}A\0`],
      ['utf-8', [0x41, 0xEF, 0xBB, 0xBF], 'A\uFEFF', 'A\uFEFF'],
      ['utf-16le', [0xFF, 0xFE, 0x41, 0x00], 'A', '\uFEFFA'],
      ['utf-16le', [0xFE, 0xFF, 0x41, 0x00], '\uFFFEA', '\uFFFEA'],
      ['utf-16le', [0xEF, 0xBB, 0xBF, 0x00], '\uBBEF\u00BF', '\uBBEF\u00BF'],
      ['utf-16be', [0xFE, 0xFF, 0x00, 0x41], 'A', '\uFEFFA'],
      ['utf-16be', [0xFF, 0xFE, 0x00, 0x41], '\uFFFEA', '\uFFFEA'],
      ['windows-1252', [0xEF, 0xBB, 0xBF, 0x41], '\u00EF\u00BB\u00BFA',
        '\u00EF\u00BB\u00BFA'],
      ['gb18030', [0xFE, 0xFF, 0x41], `${FFFD}A`, `${FFFD}A`],
      ['x-user-defined', [0xEF, 0xBB, 0xBF], '\uF7EF\uF7BB\uF7BF',
        '\uF7EF\uF7BB\uF7BF'],
    ];
    for (const [label, input, stripped, kept] of cases) {
      const what = `${label} ${input}`;
      assert.equal(new TextDecoder(label).decode(new Uint8Array(input)),
        stripped, what);
      assert.equal(new TextDecoder(label, { ignoreBOM: true })
        .decode(new Uint8Array(input)), kept, what);
    }
  });

test('the BOM across streaming calls, and again after the stream ends', () => {
  const decoder = new TextDecoder('utf-8');
  assert.equal(decoder.decode(bytes(0xEF), { stream: true }), '');
  assert.equal(decoder.decode(bytes(0xBB), { stream: true }), '');
  assert.equal(decoder.decode(bytes(0xBF, 0x41), { stream: true }), 'A');
  assert.equal(decoder.decode(bytes(0xEF, 0xBB, 0xBF), { stream: true }),
    '\uFEFF');
  assert.equal(decoder.decode(), '');
  assert.equal(decoder.decode(bytes(0xEF, 0xBB, 0xBF, 0x42)), 'B');
  assert.equal(decoder.decode(bytes(0xEF, 0xBB, 0xBF, 0x42)), 'B');
  const utf16 = new TextDecoder('utf-16le');
  assert.equal(utf16.decode(bytes(0xFF), { stream: true }), '');
  assert.equal(utf16.decode(bytes(0xFE), { stream: true }), '');
  assert.equal(utf16.decode(bytes(0xFF, 0xFE), { stream: true }), '\uFEFF');
  assert.equal(utf16.decode(bytes(0x41)), FFFD);
});

test('decode() without input flushes; stream: true keeps partial input',
  () => {
    const decoder = new TextDecoder();
    assert.equal(decoder.decode(bytes(0xE2, 0x82), { stream: true }), '');
    assert.equal(decoder.decode(), FFFD);
    assert.equal(decoder.decode(bytes(0xE2, 0x82), { stream: true }), '');
    assert.equal(decoder.decode(bytes(0xAC)), '\u20AC');
    assert.equal(decoder.decode(bytes(0xE2, 0x82), { stream: true }), '');
    assert.equal(decoder.decode(undefined, { stream: true }), '');
    assert.equal(decoder.decode(bytes(0xAC), { stream: false }), '\u20AC');
    assert.equal(decoder.decode(bytes(0xE2, 0x82)), FFFD);
    assert.equal(decoder.decode(bytes(0xAC)), FFFD);
    const sjis = new TextDecoder('shift_jis');
    assert.equal(sjis.decode(bytes(0x82), { stream: true }), '');
    assert.equal(sjis.decode(bytes(0xA0, 0x82), { stream: true }), '\u3042');
    assert.equal(sjis.decode(bytes(0x20)), `${FFFD} `);
    const iso = new TextDecoder('iso-2022-jp');
    assert.equal(iso.decode(bytes(0x1B, 0x24), { stream: true }), '');
    assert.equal(iso.decode(bytes(0x42, 0x24), { stream: true }), '');
    assert.equal(iso.decode(bytes(0x22, 0x1B, 0x28, 0x42, 0x41)), '\u3042A');
    assert.equal(iso.decode(bytes(0x24, 0x22)), '$"');
  });

test('fatal: TypeError; the rest of a streaming call\'s input stays queued',
  () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    assert.throws(() => decoder.decode(bytes(0x61, 0xFF, 0x62),
      { stream: true }), TypeError);
    assert.equal(decoder.decode(), 'b');
    assert.throws(() => decoder.decode(bytes(0x61, 0xFF, 0x62)), TypeError);
    assert.equal(decoder.decode(bytes(0x63)), 'c');
    assert.equal(decoder.decode(bytes(0xE2, 0x82), { stream: true }), '');
    assert.throws(() => decoder.decode(bytes(0x41, 0x42), { stream: true }),
      TypeError);
    assert.equal(decoder.decode(bytes(0x43), { stream: true }), 'ABC');
    assert.throws(() => decoder.decode(bytes(0xC3)), TypeError);
    assert.equal(decoder.decode(bytes(0xC3, 0xA9)), '\u00E9');
    assert.throws(() => decoder.decode(bytes(0xFF, 0xFE, 0x41),
      { stream: true }), TypeError);
    assert.throws(() => decoder.decode(bytes(0x42), { stream: true }),
      TypeError);
    assert.equal(decoder.decode(bytes(0x43)), 'ABC');
    // Nothing was serialized before the error, so the BOM is still to come.
    assert.throws(() => decoder.decode(bytes(0xEF, 0xBB, 0xBF, 0xFF),
      { stream: true }), TypeError);
    assert.equal(decoder.decode(bytes(0xEF, 0xBB, 0xBF, 0x44)), 'D');
    const sjis = new TextDecoder('shift_jis', { fatal: true });
    assert.throws(() => sjis.decode(bytes(0x81, 0x20, 0x82, 0xA0),
      { stream: true }), TypeError);
    assert.equal(sjis.decode(), ' \u3042');
    assert.equal(sjis.decode(bytes(0x81), { stream: true }), '');
    assert.throws(() => sjis.decode(bytes(0x20, 0x41), { stream: true }),
      TypeError);
    assert.equal(sjis.decode(bytes(0x42)), ' AB');
    const gb = new TextDecoder('gb18030', { fatal: true });
    assert.equal(gb.decode(bytes(0x81, 0x30), { stream: true }), '');
    assert.throws(() => gb.decode(bytes(0x41, 0x42), { stream: true }),
      TypeError);
    assert.equal(gb.decode(), '0AB');
    const utf16 = new TextDecoder('utf-16le', { fatal: true });
    assert.throws(() => utf16.decode(bytes(0x00, 0xDC, 0x41, 0x00),
      { stream: true }), TypeError);
    assert.equal(utf16.decode(bytes(0x42, 0x00)), 'AB');
    assert.throws(() => utf16.decode(bytes(0x41)), TypeError);
  });

// Legacy bytes from our encoder, UTF-16 from Node's Buffer.
const streamSamples = [
  ['utf-8', new Uint8Array([0xEF, 0xBB, 0xBF,
    ...Buffer.from('aé€😀\u{10FFFF}z'), 0xF0, 0x9F, 0x98, 0xE2, 0x28, 0xA1,
    0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0x41, 0xFF,
    0xC3])],
  ['utf-16le', new Uint8Array([0xFF, 0xFE,
    ...Buffer.from('aé€😀\uD800z\uDC00', 'utf16le'), 0x00, 0xD8, 0x41])],
  ['utf-16be', new Uint8Array([0xFE, 0xFF,
    ...Buffer.from('aé€😀\uD800z', 'utf16le').swap16(), 0xD8, 0x00])],
  ['shift_jis', new Uint8Array([...addon.encodeLegacy('shift_jis',
    '日本語ﾃｷｽﾄ¥~', false), 0x81, 0x20, 0xF0, 0x40, 0x82])],
  ['euc-jp', new Uint8Array([...addon.encodeLegacy('euc-jp', '日本語ｶﾅ',
    false), 0x8F, 0xB0, 0xA1, 0x8F, 0x41, 0x8E, 0xE0, 0xA4])],
  ['iso-2022-jp', new Uint8Array([...addon.encodeLegacy('iso-2022-jp',
    'a日本ｶﾅ¥b', false), 0x1B, 0x24, 0x1B, 0x28, 0x49, 0x7F, 0x1B])],
  ['gb18030', new Uint8Array([...addon.encodeLegacy('gb18030',
    '中文€\u00A5😀\uE5E5x', false), 0x81, 0x30, 0x81, 0x84, 0x31, 0xA4,
  0x39, 0x81, 0x30])],
  ['big5', new Uint8Array([0x88, 0x62, 0x88, 0x64,
    ...addon.encodeLegacy('big5', '中文字', false), 0x81, 0x41, 0xA4])],
  ['euc-kr', new Uint8Array([...addon.encodeLegacy('euc-kr', '한국어',
    false), 0x81, 0x20, 0xC9])],
  ['windows-1253', new Uint8Array([0x41, 0xAA, 0xC1, 0xD2, 0xFF])],
  ['x-user-defined', new Uint8Array([0x41, 0x80, 0xFF])],
];

test('UTF-8 and UTF-16LE one-piece decodes equal Node\'s TextDecoder', () => {
  for (const [label, input] of streamSamples) {
    if (label !== 'utf-8' && label !== 'utf-16le') continue;
    for (const ignoreBOM of [false, true]) {
      assert.equal(new TextDecoder(label, { ignoreBOM }).decode(input),
        new BuiltinDecoder(label, { ignoreBOM }).decode(input), label);
    }
  }
});

test('decoding with stream: true split at every byte equals one piece', () => {
  for (const [label, input] of streamSamples) {
    for (const ignoreBOM of [false, true]) {
      const whole = new TextDecoder(label, { ignoreBOM }).decode(input);
      const decoder = new TextDecoder(label, { ignoreBOM });
      for (let cut = 0; cut <= input.length; cut++) {
        const output =
          decoder.decode(input.subarray(0, cut), { stream: true }) +
          decoder.decode(input.subarray(cut));
        assert.equal(output, whole, `${label} cut at ${cut}`);
      }
      for (let cut = 0; cut <= input.length; cut++) {
        for (let cut2 = cut; cut2 <= input.length; cut2++) {
          const output =
            decoder.decode(input.subarray(0, cut), { stream: true }) +
            decoder.decode(input.subarray(cut, cut2), { stream: true }) +
            decoder.decode(input.subarray(cut2), { stream: true }) +
            decoder.decode();
          assert.equal(output, whole, `${label} cut at ${cut}, ${cut2}`);
        }
      }
      let bytewise = '';
      for (const byte of input) {
        bytewise += decoder.decode(bytes(byte), { stream: true });
      }
      assert.equal(bytewise + decoder.decode(), whole, `${label} bytewise`);
    }
  }
});

test('every TypedArray type, DataView, ArrayBuffer, SharedArrayBuffer', () => {
  const text = new Uint8Array([0x68, 0x65, 0x6C, 0x6C, 0x6F, 0x21, 0xC3,
    0xA9, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E]);
  const decoder = new TextDecoder();
  const expected = 'hello!é........';
  const types = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array,
    Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array,
    BigInt64Array, BigUint64Array];
  for (const Type of types) {
    const buffer = new ArrayBuffer(32);
    new Uint8Array(buffer).set(text, 8);
    const view = new Type(buffer, 8, 16 / Type.BYTES_PER_ELEMENT);
    assert.equal(decoder.decode(view), expected, Type.name);
    const shared = new SharedArrayBuffer(32);
    new Uint8Array(shared).set(text, 8);
    assert.equal(decoder.decode(new Type(shared, 8,
      16 / Type.BYTES_PER_ELEMENT)), expected, `${Type.name} shared`);
    const first = new Type(buffer, 8, 8 / Type.BYTES_PER_ELEMENT);
    assert.equal(decoder.decode(first), 'hello!é', `${Type.name} prefix`);
  }
  const buffer = new ArrayBuffer(20);
  new Uint8Array(buffer).set(text, 3);
  assert.equal(decoder.decode(new DataView(buffer, 3, 8)), 'hello!é');
  assert.equal(decoder.decode(new DataView(buffer, 9)), '\u00E9' +
    '.'.repeat(8) + '\0');
  assert.equal(decoder.decode(buffer.slice(3, 11)), 'hello!é');
  const shared = new SharedArrayBuffer(8);
  new Uint8Array(shared).set(text.subarray(0, 8));
  assert.equal(decoder.decode(shared), 'hello!é');
  assert.equal(decoder.decode(new DataView(shared, 6)), 'é');
  assert.equal(decoder.decode(Buffer.from('buffer')), 'buffer');
  assert.equal(decoder.decode(new Uint8Array(0)), '');
  assert.equal(decoder.decode(new ArrayBuffer(0)), '');
  assert.equal(new TextDecoder('utf-16le').decode(new Uint16Array([0x3042,
    0xD83D, 0xDE00])), '\u3042\u{1F600}');
});

test('detached buffers decode as empty', () => {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array([0x41, 0x42]).buffer;
  const view = new Uint8Array(buffer);
  const dataView = new DataView(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  assert.equal(buffer.byteLength, 0);
  assert.equal(decoder.decode(buffer), '');
  assert.equal(decoder.decode(view), '');
  assert.equal(decoder.decode(dataView), '');
  assert.equal(decoder.decode(bytes(0xE2), { stream: true }), '');
  assert.equal(decoder.decode(view), FFFD);
});

test('user code in the options runs before the input is read', () => {
  const decoder = new TextDecoder();
  const other = new TextDecoder('windows-1252');
  const input = new Uint8Array([0x20, 0x43, 0xC3, 0xA9]).subarray(1);
  const reentrant = {
    get stream() {
      assert.equal(other.decode(
        new Uint8Array([0x45, 0x46, 0x80, 0x48]).subarray(2)), '\u20ACH');
      return false;
    },
  };
  assert.equal(decoder.decode(input, reentrant), 'C\u00E9');
  const buffer = new Uint8Array([0x41, 0x42, 0x43]).buffer;
  const detaching = {
    get stream() {
      structuredClone(buffer, { transfer: [buffer] });
      return false;
    },
  };
  assert.equal(decoder.decode(new Uint8Array(buffer, 1), detaching), '');
  const order = [];
  const options = { get stream() { order.push('options'); return false; } };
  assert.throws(() => decoder.decode(42, options), TypeError);
  assert.deepEqual(order, []);
});

test('resizable and growable buffers are a TypeError', (t) => {
  if (!needResizable(t)) return;
  const decoder = new TextDecoder();
  const resizable = new ArrayBuffer(4, { maxByteLength: 8 });
  assert.throws(() => decoder.decode(resizable), TypeError);
  assert.throws(() => decoder.decode(new Uint8Array(resizable)), TypeError);
  assert.throws(() => decoder.decode(new DataView(resizable)), TypeError);
  const growable = new SharedArrayBuffer(4, { maxByteLength: 8 });
  assert.throws(() => decoder.decode(growable), TypeError);
  assert.throws(() => decoder.decode(new Int8Array(growable)), TypeError);
});

test('decode() argument conversions', () => {
  const decoder = new TextDecoder();
  assert.equal(decoder.decode(), '');
  assert.equal(decoder.decode(undefined), '');
  for (const bad of [null, 0, 'abc', {}, [0x41], Symbol('x'), true,
    { buffer: new ArrayBuffer(1), byteLength: 1 }]) {
    assert.throws(() => decoder.decode(bad), TypeError, typeof bad);
  }
  const read = [];
  const options = { get stream() { read.push('stream'); return true; } };
  assert.throws(() => decoder.decode(42, options), TypeError);
  assert.deepEqual(read, []);
  assert.equal(decoder.decode(bytes(0xC3), options), '');
  assert.deepEqual(read, ['stream']);
  assert.equal(decoder.decode(bytes(0xA9), null), '\u00E9');
  for (const bad of [1, 'stream', true]) {
    assert.throws(() => decoder.decode(bytes(0x41), bad), TypeError);
  }
  assert.equal(decoder.decode(bytes(0xC3), { stream: 'yes' }), '');
  assert.equal(decoder.decode(bytes(0xA9), { stream: 0 }), '\u00E9');
});

test('large inputs', () => {
  const text = 'aé€😀'.repeat(300000);
  const utf8 = Buffer.from(text);
  assert.equal(new TextDecoder().decode(utf8), text);
  assert.equal(new TextDecoder('utf-16le')
    .decode(Buffer.from(text, 'utf16le')), text);
  const ascii = Buffer.alloc(5 << 20, 'abcdefgh');
  assert.equal(new TextDecoder('windows-1252').decode(ascii),
    ascii.toString('latin1'));
});

'use strict';
// TextEncoder encode() and encodeInto() (§7.4).

const test = require('node:test');
const assert = require('node:assert/strict');
const { wenc, needResizable } = require('./helpers');

const { TextEncoder } = wenc;
const builtin = new globalThis.TextEncoder();

const samples = [
  '', 'a', 'hello, world', 'é', '€', '😀', '\uD800', '\uDC00', '\uDBFF\uDFFF',
  'aé€😀\uD800z\uDC00\uD83D', '\uD800\uD83D\uDE00\uDE00', '\uDC00\uD800',
  'x'.repeat(1000) + '\uD800', '\0\u007F\u0080\u07FF\u0800\uFFFF',
  'Ünïcödé ✓ 日本語 한국어 中文 עברית العربية ไทย 🏳️‍🌈',
  'a\uD83D'.repeat(100) + '\uDE00',
  // Around the binding's short-string paths (64 and 256 code units).
  'a'.repeat(63) + '\u00E9', 'a'.repeat(64), 'a'.repeat(65), 'b'.repeat(64) +
  '\uD800', '\u20AC'.repeat(255), '\u20AC'.repeat(256), '\u20AC'.repeat(257),
  '\uD83D\uDE00'.repeat(128), 'x' + '\uD83D\uDE00'.repeat(128),
  '\uDFFF'.repeat(256),
  // Eight units with some not ASCII, then a few ASCII ones: the library's
  // SIMD encoder takes the eight at once.
  '\u00E9' + 'a'.repeat(9), '\u3042'.repeat(8) + 'xyz',
  'ab\u0416cdefgh' + 'ij\u4E2D'.repeat(5) + '.',
];

test('encode() equals Node\'s TextEncoder, into an exact-size buffer', () => {
  const encoder = new TextEncoder();
  for (const text of samples) {
    const output = encoder.encode(text);
    assert.equal(Object.getPrototypeOf(output), Uint8Array.prototype);
    assert.equal(output.byteOffset, 0);
    assert.equal(output.buffer.byteLength, output.length);
    assert.deepEqual(output, builtin.encode(text), JSON.stringify(text));
  }
  const long = 'aé€😀\uDFFF'.repeat(200000);
  assert.deepEqual(encoder.encode(long), builtin.encode(long));
  assert.deepEqual(encoder.encode(), new Uint8Array(0));
  assert.deepEqual(encoder.encode(undefined), new Uint8Array(0));
  assert.deepEqual(encoder.encode(null), builtin.encode('null'));
  assert.deepEqual(encoder.encode(12.5), builtin.encode('12.5'));
  assert.deepEqual(encoder.encode({ toString: () => '\u00E9' }),
    new Uint8Array([0xC3, 0xA9]));
  assert.throws(() => encoder.encode(Symbol('s')), TypeError);
  assert.notEqual(encoder.encode('a'), encoder.encode('a'));
});

// §7.4 encodeInto, step by step: each scalar value is written whole if it
// fits; a lone surrogate is U+FFFD.
function expectedEncodeInto(text, size) {
  let read = 0;
  let written = 0;
  for (const character of text) {
    const codePoint = character.codePointAt(0);
    const scalar = codePoint >= 0xD800 && codePoint <= 0xDFFF ? 0xFFFD :
      codePoint;
    const length = scalar < 0x80 ? 1 : scalar < 0x800 ? 2 :
      scalar < 0x10000 ? 3 : 4;
    if (size - written < length) break;
    read += codePoint > 0xFFFF ? 2 : 1;
    written += length;
  }
  return { read, written };
}

test('encodeInto() at every destination size, at offsets, shared', () => {
  const encoder = new TextEncoder();
  for (const text of samples.filter((s) => s.length < 400)) {
    const full = builtin.encode(text);
    // Every size for short outputs; for long ones every size near both ends
    // and every seventh between.
    const sizes = [];
    for (let size = 0; size <= full.length + 2; size++) {
      if (full.length <= 200 || size < 40 || size > full.length - 40 ||
        size % 7 === 0) sizes.push(size);
    }
    for (const size of sizes) {
      for (const [offset, Buffer] of [[0, ArrayBuffer], [3, ArrayBuffer],
        [5, SharedArrayBuffer]]) {
        const buffer = new Buffer(offset + size + 4);
        const all = new Uint8Array(buffer).fill(0xAA);
        const destination = new Uint8Array(buffer, offset, size);
        const result = encoder.encodeInto(text, destination);
        const expected = expectedEncodeInto(text, size);
        const what = `${JSON.stringify(text)} size ${size} offset ${offset}`;
        assert.deepEqual(result, expected, what);
        assert.deepEqual(Object.keys(result), ['read', 'written']);
        assert.equal(Object.getPrototypeOf(result), Object.prototype);
        assert.deepEqual(all.subarray(offset, offset + expected.written),
          full.subarray(0, expected.written), what);
        assert.ok(all.subarray(0, offset).every((b) => b === 0xAA), what);
        assert.ok(all.subarray(offset + expected.written)
          .every((b) => b === 0xAA), what);
      }
    }
  }
});

test('encodeInto() argument conversions', () => {
  const encoder = new TextEncoder();
  const destination = new Uint8Array(8);
  assert.deepEqual(encoder.encodeInto('abc', Buffer.alloc(2)),
    { read: 2, written: 2 });
  assert.deepEqual(encoder.encodeInto(undefined, destination),
    { read: 8, written: 8 });
  assert.deepEqual(encoder.encodeInto(null, destination),
    { read: 4, written: 4 });
  assert.deepEqual(encoder.encodeInto({ toString: () => 'é' }, destination),
    { read: 1, written: 2 });
  for (const bad of [new Uint8ClampedArray(4), new Int8Array(4),
    new Uint16Array(4), new DataView(new ArrayBuffer(4)), new ArrayBuffer(4),
    [0, 0], null, undefined, 'abc']) {
    assert.throws(() => encoder.encodeInto('a', bad), TypeError);
  }
  assert.throws(() => encoder.encodeInto('a'), TypeError);
  assert.throws(() => encoder.encodeInto(), TypeError);
  assert.throws(() => encoder.encodeInto(Symbol('s'), destination), TypeError);
  const order = [];
  const source = { toString() { order.push('source'); return 'a'; } };
  assert.throws(() => encoder.encodeInto(source, 42), TypeError);
  assert.deepEqual(order, ['source']);
  const detached = new Uint8Array(4);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  assert.deepEqual(encoder.encodeInto('abc', detached),
    { read: 0, written: 0 });
  assert.deepEqual(encoder.encodeInto('', detached), { read: 0, written: 0 });
  const target = new Uint8Array(new ArrayBuffer(12), 4, 6);
  const reentrant = {
    toString() {
      assert.deepEqual(encoder.encodeInto('\u00E9\u00E9\u00E9',
        new Uint8Array(new ArrayBuffer(10), 3, 5)), { read: 2, written: 4 });
      return 'xy\u20AC!';
    },
  };
  assert.deepEqual(encoder.encodeInto(reentrant, target),
    { read: 4, written: 6 });
  assert.deepEqual([...new Uint8Array(target.buffer)],
    [0, 0, 0, 0, 0x78, 0x79, 0xE2, 0x82, 0xAC, 0x21, 0, 0]);
  const doomed = new Uint8Array(8);
  const detaching = {
    toString() {
      structuredClone(doomed.buffer, { transfer: [doomed.buffer] });
      return 'abc';
    },
  };
  assert.deepEqual(encoder.encodeInto(detaching, doomed),
    { read: 0, written: 0 });
});

test('encodeInto() into a resizable buffer is a TypeError', (t) => {
  if (!needResizable(t)) return;
  const resizable = new ArrayBuffer(4, { maxByteLength: 8 });
  assert.throws(() => new TextEncoder().encodeInto('a',
    new Uint8Array(resizable)), TypeError);
});

test('encodeInto() with a large string and a small destination', () => {
  const encoder = new TextEncoder();
  const text = '€'.repeat(1 << 20);
  const destination = new Uint8Array(10);
  assert.deepEqual(encoder.encodeInto(text, destination),
    { read: 3, written: 9 });
  assert.deepEqual(destination, new Uint8Array([0xE2, 0x82, 0xAC, 0xE2, 0x82,
    0xAC, 0xE2, 0x82, 0xAC, 0]));
  const big = new Uint8Array(3 << 20);
  assert.deepEqual(encoder.encodeInto(text, big),
    { read: 1 << 20, written: 3 << 20 });
  assert.deepEqual(big, builtin.encode(text));
});

'use strict';
// Every encoding's decoder against the Standard's index files, through
// TextDecoder; byte sequences are made from pointers by the Standard's
// pointer arithmetic (§9-§13).

const test = require('node:test');
const assert = require('node:assert/strict');
const { wenc, addon, needData, encodings, readIndex, bytes } =
  require('./helpers');

const { TextDecoder } = wenc;
const FFFD = '\uFFFD';

function decode(label, input, options) {
  return new TextDecoder(label, options).decode(input);
}

// The first pointer of each code point (the Standard's "index pointer").
function firstPointers(index, skip = () => false) {
  const pointers = new Map();
  for (const [pointer, codePoint] of index) {
    if (!skip(pointer) && !pointers.has(codePoint)) {
      pointers.set(codePoint, pointer);
    }
  }
  return pointers;
}

function assertSameString(actual, expected, what) {
  if (actual === expected) return;
  const units = Math.min(actual.length, expected.length);
  let at = 0;
  while (at < units && actual[at] === expected[at]) at++;
  assert.fail(`${what}: first difference at code unit ${at}: ` +
    `${JSON.stringify(actual.slice(at, at + 4))} != ` +
    `${JSON.stringify(expected.slice(at, at + 4))}`);
}

test('single-byte encodings: every byte, both error modes, the encoder',
  (t) => {
    if (!needData(t)) return;
    const group = encodings().find((g) =>
      g.heading === 'Legacy single-byte encodings');
    assert.equal(group.encodings.length, 28);
    for (const { name } of group.encodings) {
      const indexName = name === 'ISO-8859-8-I' ? 'iso-8859-8' :
        name.toLowerCase();
      const index = readIndex(indexName);
      const all = new Uint8Array(256).map((_, i) => i);
      let expected = '';
      for (let byte = 0; byte < 256; byte++) {
        expected += byte < 0x80 ? String.fromCharCode(byte) :
          index.has(byte - 0x80) ?
            String.fromCodePoint(index.get(byte - 0x80)) : FFFD;
      }
      assert.equal(decode(name, all), expected, name);
      for (let byte = 0x80; byte < 0x100; byte++) {
        const one = bytes(0x41, byte);
        if (index.has(byte - 0x80)) {
          assert.equal(decode(name, one, { fatal: true }),
            `A${String.fromCodePoint(index.get(byte - 0x80))}`);
        } else {
          assert.throws(() => decode(name, one, { fatal: true }), TypeError,
            `${name} ${byte}`);
        }
      }
      for (const [codePoint, pointer] of firstPointers(index)) {
        assert.deepEqual(
          addon.encodeLegacy(name, `a${String.fromCodePoint(codePoint)}`,
            false),
          bytes(0x61, pointer + 0x80), `${name} U+${codePoint.toString(16)}`);
      }
      const unmappable = [0x100, 0x3042, 0x1F600].find((cp) =>
        ![...index.values()].includes(cp));
      assert.deepEqual(
        addon.encodeLegacy(name, String.fromCodePoint(unmappable), false),
        new TextEncoder().encode(`&#${unmappable};`));
      assert.equal(
        addon.encodeLegacy(name, String.fromCodePoint(unmappable), true),
        unmappable);
    }
  });

test('x-user-defined', () => {
  const all = new Uint8Array(256).map((_, i) => i);
  let expected = '';
  for (let byte = 0; byte < 256; byte++) {
    expected += String.fromCharCode(byte < 0x80 ? byte : 0xF780 + byte - 0x80);
  }
  assert.equal(decode('x-user-defined', all), expected);
  assert.deepEqual(addon.encodeLegacy('x-user-defined', expected, false), all);
});

// Decodes the byte sequences of many pointers at once and compares.
function checkPointers(label, entries, sequence, expectedFor) {
  const input = [];
  let expected = '';
  for (const [pointer, codePoint] of entries) {
    input.push(...sequence(pointer));
    expected += expectedFor(pointer, codePoint);
  }
  assertSameString(decode(label, new Uint8Array(input), { fatal: true }),
    expected, label);
  return entries.length;
}

// Encodes every code point in `codePoints`, decodes the result and compares.
function checkRoundTrip(label, codePoints) {
  const text = String.fromCodePoint(...codePoints);
  const encoded = addon.encodeLegacy(label, text, true);
  assert.ok(encoded instanceof Uint8Array,
    `${label}: U+${Number(encoded).toString(16)} did not encode`);
  assertSameString(decode(label, encoded, { fatal: true }), text,
    `${label} round trip`);
}

const fromCodePoint = (_, codePoint) => String.fromCodePoint(codePoint);

test('gb18030 and GBK: two-byte pointers, four-byte ranges, encoders', (t) => {
  if (!needData(t)) return;
  const index = readIndex('gb18030');
  // §10.2.1 pointer = (lead − 0x81) × 190 + (byte − offset)
  const twoBytes = (pointer) => {
    const trail = pointer % 190;
    return [Math.floor(pointer / 190) + 0x81,
      trail + (trail < 0x3F ? 0x40 : 0x41)];
  };
  for (const label of ['gb18030', 'gbk']) {
    assert.equal(checkPointers(label, [...index], twoBytes, fromCodePoint),
      23940);
    assert.equal(decode(label, bytes(0x80)), '\u20AC');
    assert.equal(decode(label, bytes(0xFF)), FFFD);
  }
  // §10.2.1 four bytes: pointer = (((b1 − 0x81) × 10 + b2 − 0x30) × 126 +
  // b3 − 0x81) × 10 + b4 − 0x30
  const fourBytes = (pointer) => [
    Math.floor(pointer / 12600) + 0x81,
    Math.floor(pointer / 1260) % 10 + 0x30,
    Math.floor(pointer / 10) % 126 + 0x81,
    pointer % 10 + 0x30];
  const ranges = [...readIndex('gb18030-ranges')];
  // §5 index gb18030 ranges code point
  const rangesCodePoint = (pointer) => {
    if ((pointer > 39419 && pointer < 189000) || pointer > 1237575) {
      return null;
    }
    if (pointer === 7457) return 0xE7C7;
    let [offset, codePointOffset] = ranges[0];
    for (const [start, codePoint] of ranges) {
      if (start <= pointer) [offset, codePointOffset] = [start, codePoint];
    }
    return codePointOffset + pointer - offset;
  };
  const pointers = [];
  for (let i = 0; i < ranges.length; i++) {
    const [start] = ranges[i];
    const end = i + 1 < ranges.length ? ranges[i + 1][0] : 39420;
    pointers.push(start, Math.floor((start + end - 1) / 2), end - 1);
  }
  pointers.push(7457, 189000, 189000 + 0xFFFF, 1237575, 39420, 100000,
    188999, 1237576, 1237577);
  const fourByteEntries = pointers.map((p) => [p, rangesCodePoint(p)]);
  const valid = fourByteEntries.filter(([, cp]) => cp !== null);
  checkPointers('gb18030', valid, fourBytes, fromCodePoint);
  assert.equal(rangesCodePoint(189000), 0x10000);
  assert.equal(rangesCodePoint(1237575), 0x10FFFF);
  for (const [pointer] of fourByteEntries.filter(([, cp]) => cp === null)) {
    assert.equal(decode('gb18030', bytes(fourBytes(pointer), 0x41)),
      `${FFFD}A`, `four-byte pointer ${pointer}`);
  }
  // The gb18030 encoder writes two bytes for code points in index
  // gb18030 (its first pointer) and four bytes for the others.
  const pointersOf = firstPointers(index);
  const sample = [...pointersOf].filter((_, i) => i % 7 === 0);
  for (const [codePoint, pointer] of sample) {
    assert.deepEqual(
      addon.encodeLegacy('gb18030', String.fromCodePoint(codePoint), true),
      new Uint8Array(twoBytes(pointer)), `U+${codePoint.toString(16)}`);
  }
  for (const [pointer, codePoint] of valid) {
    if (pointersOf.has(codePoint) || codePoint === 0xE7C7) continue;
    assert.deepEqual(
      addon.encodeLegacy('gb18030', String.fromCodePoint(codePoint), true),
      new Uint8Array(fourBytes(pointer)), `U+${codePoint.toString(16)}`);
  }
  assert.deepEqual(addon.encodeLegacy('gbk', '\u20AC', true), bytes(0x80));
  checkRoundTrip('gbk', [...pointersOf.keys()]);
});

test('Big5: every pointer, the four two-code-point pointers, encoder', (t) => {
  if (!needData(t)) return;
  const index = readIndex('big5');
  // §11.1.1 pointer = (lead − 0x81) × 157 + (byte − offset)
  const sequence = (pointer) => {
    const trail = pointer % 157;
    return [Math.floor(pointer / 157) + 0x81,
      trail + (trail < 0x3F ? 0x40 : 0x62)];
  };
  const special = new Map([[1133, '\u00CA\u0304'], [1135, '\u00CA\u030C'],
    [1164, '\u00EA\u0304'], [1166, '\u00EA\u030C']]);
  const entries = [...index];
  for (const pointer of special.keys()) {
    if (!index.has(pointer)) entries.push([pointer, null]);
  }
  checkPointers('big5', entries, sequence, (pointer, codePoint) =>
    special.get(pointer) ?? String.fromCodePoint(codePoint));
  // §11.1.2 index Big5 pointer excludes pointers below (0xA1 − 0x81) × 157.
  const encodable = firstPointers(index, (pointer) => pointer < 5024);
  checkRoundTrip('big5', [...encodable.keys()]);
});

test('EUC-JP, ISO-2022-JP and Shift_JIS: jis0208, jis0212, katakana', (t) => {
  if (!needData(t)) return;
  const jis0208 = readIndex('jis0208');
  const jis0212 = readIndex('jis0212');
  const below8836 = [...jis0208].filter(([pointer]) => pointer < 8836);
  // §12.1.1 pointer = (lead − 0xA1) × 94 + byte − 0xA1
  const eucJp = (pointer) => [Math.floor(pointer / 94) + 0xA1,
    pointer % 94 + 0xA1];
  checkPointers('euc-jp', below8836, eucJp, fromCodePoint);
  checkPointers('euc-jp', [...jis0212], (p) => [0x8F, ...eucJp(p)],
    fromCodePoint);
  const katakana = [];
  for (let byte = 0xA1; byte <= 0xDF; byte++) katakana.push([byte, null]);
  checkPointers('euc-jp', katakana, (byte) => [0x8E, byte],
    (byte) => String.fromCharCode(0xFF61 - 0xA1 + byte));

  // §12.2.1 ESC $ B, then pointer = (lead − 0x21) × 94 + byte − 0x21
  const iso = (pointer) => [Math.floor(pointer / 94) + 0x21,
    pointer % 94 + 0x21];
  const isoInput = [0x1B, 0x24, 0x42, ...below8836.flatMap(([p]) => iso(p)),
    0x1B, 0x28, 0x42];
  assertSameString(
    decode('iso-2022-jp', new Uint8Array(isoInput), { fatal: true }),
    below8836.map(([, cp]) => String.fromCodePoint(cp)).join(''),
    'iso-2022-jp jis0208');
  const halfwidth = [];
  let halfwidthText = '';
  for (let byte = 0x21; byte <= 0x5F; byte++) {
    halfwidth.push(byte);
    halfwidthText += String.fromCharCode(0xFF61 - 0x21 + byte);
  }
  assert.equal(decode('iso-2022-jp',
    bytes(0x1B, 0x28, 0x49, halfwidth, 0x1B, 0x28, 0x4A, 0x5C, 0x7E, 0x41)),
  `${halfwidthText}\u00A5\u203EA`);
  assert.equal(decode('iso-2022-jp', bytes(0x1B, 0x24, 0x42, 0x1B, 0x28,
    0x42)), FFFD);
  assert.equal(decode('iso-2022-jp', bytes(0x41, 0x0E, 0x42)), `A${FFFD}B`);

  // §12.3.1 pointer = (lead − lead offset) × 188 + byte − offset
  const shiftJis = (pointer) => {
    const lead = Math.floor(pointer / 188);
    const trail = pointer % 188;
    return [lead + (lead < 0x1F ? 0x81 : 0xC1),
      trail + (trail < 0x3F ? 0x40 : 0x41)];
  };
  const sjisEntries = [...jis0208];
  for (let pointer = 8836; pointer <= 10715; pointer++) {
    if (!jis0208.has(pointer)) sjisEntries.push([pointer, null]);
  }
  checkPointers('shift_jis', sjisEntries, shiftJis, (pointer, codePoint) =>
    pointer >= 8836 && pointer <= 10715 ?
      String.fromCharCode(0xE000 - 8836 + pointer) :
      String.fromCodePoint(codePoint));
  const sjisKatakana = [];
  for (let byte = 0xA1; byte <= 0xDF; byte++) sjisKatakana.push(byte);
  assert.equal(decode('shift_jis', new Uint8Array(sjisKatakana)),
    halfwidthText);
  assert.equal(decode('shift_jis', bytes(0x5C, 0x7E, 0x80)), '\\~\u0080');

  const jisEncodable = firstPointers(jis0208);
  checkRoundTrip('euc-jp', [...jisEncodable].filter(([, p]) => p < 8836)
    .map(([cp]) => cp));
  checkRoundTrip('iso-2022-jp', [...jisEncodable].filter(([, p]) => p < 8836)
    .map(([cp]) => cp));
  // §12.3.2 index Shift_JIS pointer excludes pointers 8272 to 8835.
  checkRoundTrip('shift_jis', [...firstPointers(jis0208,
    (p) => p >= 8272 && p <= 8835).keys()]);
});

test('EUC-KR: every pointer, encoder', (t) => {
  if (!needData(t)) return;
  const index = readIndex('euc-kr');
  // §13.1.1 pointer = (lead − 0x81) × 190 + (byte − 0x41)
  const sequence = (pointer) => [Math.floor(pointer / 190) + 0x81,
    pointer % 190 + 0x41];
  assert.equal(checkPointers('euc-kr', [...index], sequence, fromCodePoint),
    17048);
  checkRoundTrip('euc-kr', [...firstPointers(index).keys()]);
});

test('malformed sequences: U+FFFD, ASCII bytes given back, TypeError', () => {
  const cases = [
    ['utf-8', [0xF0, 0x80], `${FFFD}${FFFD}`],
    ['utf-8', [0xE2, 0x82], FFFD],
    ['utf-8', [0xED, 0xA0, 0x80], `${FFFD}${FFFD}${FFFD}`],
    ['utf-8', [0xC0, 0xAF], `${FFFD}${FFFD}`],
    ['utf-8', [0xF4, 0x90, 0x80, 0x80], FFFD.repeat(4)],
    ['shift_jis', [0x81, 0x20], `${FFFD} `],
    ['shift_jis', [0x81, 0x7F], `${FFFD}\x7F`],
    ['euc-kr', [0x81, 0x20], `${FFFD} `],
    ['big5', [0x81], FFFD],
    ['big5', [0x81, 0x41], `${FFFD}A`],
    ['euc-jp', [0x8F, 0xA1], FFFD],
    ['gb18030', [0x81, 0x30, 0x81], FFFD],
    ['iso-2022-jp', [0x1B, 0x24], `${FFFD}$`],
    ['iso-2022-jp', [0x1B, 0x28, 0x41, 0x42], `${FFFD}(AB`],
    ['euc-jp', [0x8E, 0xE0], FFFD],
    ['gb18030', [0x81, 0x30, 0x41], `${FFFD}0A`],
    ['utf-16le', [0x41, 0x00, 0x00], `A${FFFD}`],
    ['utf-16le', [0x00, 0xD8, 0x41, 0x00], `${FFFD}A`],
    ['utf-16be', [0xDC, 0x00, 0x00, 0x41], `${FFFD}A`],
  ];
  for (const [label, input, expected] of cases) {
    assert.equal(decode(label, new Uint8Array(input)), expected,
      `${label} ${input}`);
    assert.throws(() => decode(label, new Uint8Array(input), { fatal: true }),
      TypeError, `${label} ${input}`);
  }
});

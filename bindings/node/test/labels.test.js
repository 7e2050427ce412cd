'use strict';
// §4.2 get an encoding, through new TextDecoder(label) and its getters.

const test = require('node:test');
const assert = require('node:assert/strict');
const { wenc, needData, encodings } = require('./helpers');

const { TextDecoder, TextDecoderStream } = wenc;
const ASCII_WHITESPACE = ['\t', '\n', '\f', '\r', ' '];

test('every label gives its encoding\'s name, lowercased', (t) => {
  if (!needData(t)) return;
  let labels = 0;
  for (const group of encodings()) {
    for (const { name, labels: names } of group.encodings) {
      for (const label of names) {
        labels++;
        const variants = [label, label.toUpperCase(),
          ` \t${label}\n\f\r `, `${ASCII_WHITESPACE.join('')}${label}`];
        for (const variant of variants) {
          if (name === 'replacement') {
            assert.throws(() => new TextDecoder(variant), RangeError, variant);
            assert.throws(() => new TextDecoderStream(variant), RangeError);
          } else {
            assert.equal(new TextDecoder(variant).encoding,
              name.toLowerCase(), JSON.stringify(variant));
            assert.equal(new TextDecoderStream(variant).encoding,
              name.toLowerCase(), JSON.stringify(variant));
          }
        }
      }
    }
  }
  assert.equal(labels, 228);
});

test('strings that are not labels are a RangeError', (t) => {
  if (!needData(t)) return;
  const all = new Set(encodings().flatMap((group) =>
    group.encodings.flatMap((encoding) => encoding.labels)));
  const notLabels = [
    '', ' ', 'utf 8', 'utf-8\v', '\vutf-8', 'utf-8\u00a0', '\u00a0utf-8',
    'utf-8\0', '\0utf-8', 'utf8\u3000', 'utf-88', 'unicode-1-1-utf-8x',
    'null', 'undefined', '\u212aoi8-r', 'koi8-\u0280', 'ut\u0130f-8',
    '\ufeffutf-8', 'utf-32', 'x-user-defined\u200b',
  ];
  for (const label of notLabels) {
    const asciiLower = label.replace(/[A-Z]/g, (c) => c.toLowerCase());
    assert.ok(!all.has(asciiLower), `${label} is in encodings.json`);
    assert.throws(() => new TextDecoder(label), RangeError,
      JSON.stringify(label));
  }
  assert.throws(() => new TextDecoder(null), RangeError);
  assert.throws(() => new TextDecoder(' '.repeat(100000)), RangeError);
  assert.equal(new TextDecoder(` ${' '.repeat(100000)}latin1\n`).encoding,
    'windows-1252');
});

test('the label is converted with ToString', () => {
  assert.equal(new TextDecoder().encoding, 'utf-8');
  assert.equal(new TextDecoder(undefined).encoding, 'utf-8');
  assert.equal(new TextDecoder({ toString: () => 'sjis' }).encoding,
    'shift_jis');
  assert.equal(new TextDecoder(['latin1']).encoding, 'windows-1252');
  assert.equal(new TextDecoder({ [Symbol.toPrimitive]: () => 'big5' })
    .encoding, 'big5');
  assert.throws(() => new TextDecoder(Symbol('utf-8')), TypeError);
  assert.equal(new TextDecoder(866).encoding, 'ibm866');
  assert.throws(() => new TextDecoder(8.66), RangeError);
  assert.equal(new TextDecoder('866').encoding, 'ibm866');
  const error = new Error('from toString');
  assert.throws(() => new TextDecoder({ toString() { throw error; } }),
    (e) => e === error);
});

test('TextDecoderOptions: defaults, ToBoolean, order, type', () => {
  for (const Decoder of [TextDecoder, TextDecoderStream]) {
    const plain = new Decoder('utf-8');
    assert.equal(plain.fatal, false);
    assert.equal(plain.ignoreBOM, false);
    const set = new Decoder('utf-8', { fatal: 1, ignoreBOM: 'yes' });
    assert.equal(set.fatal, true);
    assert.equal(set.ignoreBOM, true);
    const unset = new Decoder('utf-8', { fatal: 0, ignoreBOM: '' });
    assert.equal(unset.fatal, false);
    assert.equal(unset.ignoreBOM, false);
    assert.equal(new Decoder('utf-8', null).fatal, false);
    assert.equal(new Decoder('utf-8', () => {}).fatal, false);
    for (const bad of [1, 'fatal', true, Symbol('x'), 10n]) {
      assert.throws(() => new Decoder('utf-8', bad), TypeError);
    }
    const read = [];
    const options = {
      get ignoreBOM() { read.push('ignoreBOM'); return true; },
      get fatal() { read.push('fatal'); return true; },
    };
    const decoder = new Decoder('utf-16be', options);
    assert.deepEqual(read, ['fatal', 'ignoreBOM']);
    assert.equal(decoder.fatal, true);
    assert.equal(decoder.ignoreBOM, true);
    const inherited = new Decoder('utf-8', Object.create({ fatal: true }));
    assert.equal(inherited.fatal, true);
  }
});

test('the label is converted before the options are read', () => {
  const order = [];
  const label = { toString() { order.push('label'); return 'nope'; } };
  const options = { get fatal() { order.push('fatal'); return false; } };
  assert.throws(() => new TextDecoder(label, options), RangeError);
  assert.deepEqual(order, ['label', 'fatal']);
});

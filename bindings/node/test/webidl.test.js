'use strict';
// The four interfaces as WebIDL defines their JavaScript shape.

const test = require('node:test');
const assert = require('node:assert/strict');
const { wenc } = require('./helpers');

// From the Standard's IDL: [attributes, operations with their lengths].
const interfaces = {
  TextDecoder: [['encoding', 'fatal', 'ignoreBOM'], { decode: 0 }],
  TextEncoder: [['encoding'], { encode: 0, encodeInto: 2 }],
  TextDecoderStream: [['encoding', 'fatal', 'ignoreBOM', 'readable',
    'writable'], {}],
  TextEncoderStream: [['encoding', 'readable', 'writable'], {}],
};

// Beside the four interfaces, the calls of iconv-lite's users (index.d.ts).
const wider = ['encode', 'decode', 'labelToName', 'encodingExists', 'Encoder',
  'Decoder', 'encoderStream', 'decoderStream', 'decodeStream', 'encodeStream'];

test('the module exports the four interfaces and the wider API', () => {
  assert.deepEqual(Object.keys(wenc).sort(),
    [...Object.keys(interfaces), ...wider].sort());
});

for (const [name, [attributes, operations]] of Object.entries(interfaces)) {
  test(`${name}: interface object, prototype, members, brand checks`, () => {
    const Interface = wenc[name];
    assert.equal(typeof Interface, 'function');
    assert.equal(Interface.name, name);
    assert.equal(Interface.length, 0);
    assert.throws(() => Interface(), TypeError);
    assert.deepEqual(Object.getOwnPropertyDescriptor(Interface, 'prototype'),
      { value: Interface.prototype, writable: false, enumerable: false,
        configurable: false });
    const prototype = Interface.prototype;
    assert.equal(Object.getPrototypeOf(prototype), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(prototype, 'constructor'),
      { value: Interface, writable: true, enumerable: false,
        configurable: true });
    assert.deepEqual(
      Object.getOwnPropertyDescriptor(prototype, Symbol.toStringTag),
      { value: name, writable: false, enumerable: false, configurable: true });
    const members = [...attributes, ...Object.keys(operations)];
    assert.deepEqual(Reflect.ownKeys(prototype).sort((a, b) =>
      String(a).localeCompare(String(b))), ['constructor', ...members,
      Symbol.toStringTag].sort((a, b) => String(a).localeCompare(String(b))));
    assert.deepEqual(Object.keys(prototype), members);

    const instance = new Interface();
    assert.equal(Object.prototype.toString.call(instance), `[object ${name}]`);
    assert.equal(Object.prototype.toString.call(prototype),
      `[object ${name}]`);
    assert.deepEqual(Reflect.ownKeys(instance), []);
    const strangers = [{}, prototype, Object.create(prototype),
      new (name === 'TextEncoder' ? wenc.TextDecoder : wenc.TextEncoder)()];

    for (const attribute of attributes) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, attribute);
      assert.equal(typeof descriptor.get, 'function', attribute);
      assert.equal(descriptor.set, undefined, attribute);
      assert.equal(descriptor.enumerable, true, attribute);
      assert.equal(descriptor.configurable, true, attribute);
      assert.equal(descriptor.get.name, `get ${attribute}`);
      assert.equal(descriptor.get.length, 0);
      descriptor.get.call(instance);
      for (const stranger of strangers) {
        assert.throws(() => descriptor.get.call(stranger), TypeError,
          `${name}.${attribute}`);
      }
      assert.throws(() => { instance[attribute] = 1; }, TypeError);
    }
    for (const [operation, length] of Object.entries(operations)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, operation);
      assert.equal(typeof descriptor.value, 'function');
      assert.equal(descriptor.writable, true);
      assert.equal(descriptor.enumerable, true);
      assert.equal(descriptor.configurable, true);
      assert.equal(descriptor.value.name, operation);
      assert.equal(descriptor.value.length, length, operation);
      for (const stranger of strangers) {
        assert.throws(() => descriptor.value.call(stranger, 'x',
          new Uint8Array(1)), TypeError, `${name}.${operation}`);
      }
    }
  });
}

test('TextEncoder and TextEncoderStream encoding is utf-8', () => {
  assert.equal(new wenc.TextEncoder().encoding, 'utf-8');
  assert.equal(new wenc.TextEncoderStream().encoding, 'utf-8');
  assert.equal(new wenc.TextEncoder(['ignored']).encoding, 'utf-8');
});

test('a subclass works and keeps its brand', () => {
  class Sub extends wenc.TextDecoder {}
  const sub = new Sub('latin1');
  assert.equal(sub.encoding, 'windows-1252');
  assert.equal(sub.decode(new Uint8Array([0x80])), '\u20AC');
  assert.equal(Object.prototype.toString.call(sub), '[object TextDecoder]');
});

test('works in a worker thread, with its own addon state', async () => {
  const { Worker } = require('node:worker_threads');
  const worker = new Worker(`
    const { parentPort } = require('node:worker_threads');
    const wenc = require(${JSON.stringify(require.resolve('..'))});
    const text = new wenc.TextDecoder('shift_jis')
      .decode(new Uint8Array([0x82, 0xA0]));
    const bytes = [...new wenc.TextEncoder().encode('\\u20AC')];
    parentPort.postMessage({ text, bytes });
  `, { eval: true });
  const message = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.deepEqual(message, { text: '\u3042', bytes: [0xE2, 0x82, 0xAC] });
  assert.equal(new wenc.TextDecoder('big5').decode(new Uint8Array([0xA4,
    0x40])), '\u4E00');
});

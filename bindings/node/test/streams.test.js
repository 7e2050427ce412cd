'use strict';
// TextDecoderStream (§7.5) and TextEncoderStream (§7.6).

const test = require('node:test');
const assert = require('node:assert/strict');
const { wenc, addon, bytes, needResizable } = require('./helpers');

const { TextDecoder, TextDecoderStream, TextEncoderStream } = wenc;
const builtin = new globalThis.TextEncoder();

// Writes the chunks, closes, and collects what the readable side gives;
// `error` is the stream's error if it failed.
async function run(transform, chunks) {
  const writer = transform.writable.getWriter();
  const reader = transform.readable.getReader();
  const output = [];
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      output.push(value);
    }
  })();
  const writing = (async () => {
    for (const chunk of chunks) await writer.write(chunk);
    await writer.close();
  })();
  const results = await Promise.allSettled([writing, reading]);
  const failed = results.find((r) => r.status === 'rejected');
  return { output, error: failed ? failed.reason : undefined };
}

const decoderSamples = [
  ['utf-8', new Uint8Array([0xEF, 0xBB, 0xBF,
    ...Buffer.from('aé€😀\u{10FFFF}z'), 0xF0, 0x9F, 0x98, 0xE2, 0x28, 0xA1,
    0xED, 0xA0, 0x80, 0x41, 0xFF, 0xEF, 0xBB, 0xBF, 0xC3])],
  ['utf-16le', new Uint8Array([0xFF, 0xFE,
    ...Buffer.from('aé€😀\uD800z\uDC00', 'utf16le'), 0x00, 0xD8, 0x41])],
  ['utf-16be', new Uint8Array([0xFE, 0xFF, 0x00, 0x61, 0xD8, 0x3D, 0xDE,
    0x00, 0xD8, 0x00])],
  ['shift_jis', new Uint8Array([...addon.encodeLegacy('shift_jis',
    '日本語ﾃｷｽﾄ', false), 0x81, 0x20, 0x82])],
  ['gb18030', new Uint8Array([...addon.encodeLegacy('gb18030', '中文€😀',
    false), 0x81, 0x30, 0x81])],
  ['iso-2022-jp', new Uint8Array([...addon.encodeLegacy('iso-2022-jp',
    'a日本ｶﾅ¥b', false), 0x1B, 0x24])],
  ['big5', new Uint8Array([0x88, 0x62, ...addon.encodeLegacy('big5', '中文',
    false), 0xA4])],
];

test('TextDecoderStream with chunks split at every byte', async () => {
  for (const [label, input] of decoderSamples) {
    for (const ignoreBOM of [false, true]) {
      const whole = new TextDecoder(label, { ignoreBOM }).decode(input);
      const splits = [[...input].map((byte) => bytes(byte))];
      for (let cut = 0; cut <= input.length; cut++) {
        splits.push([input.slice(0, cut), input.slice(cut)]);
      }
      for (const chunks of splits) {
        const { output, error } =
          await run(new TextDecoderStream(label, { ignoreBOM }), chunks);
        assert.equal(error, undefined);
        assert.ok(output.every((s) => typeof s === 'string' && s !== ''),
          `${label}: only non-empty strings are enqueued`);
        assert.equal(output.join(''), whole,
          `${label} chunks ${chunks.map((c) => c.length)}`);
      }
    }
  }
});

test('TextDecoderStream chunk types and pipeThrough', async () => {
  const shared = new SharedArrayBuffer(2);
  new Uint8Array(shared).set([0xC3, 0xA9]);
  const chunks = [new Uint16Array([0x6968]), new DataView(
    new Uint8Array([0, 0x21, 0xE2]).buffer, 1), new Uint8Array([0x82,
    0xAC]).buffer, shared, Buffer.from('!')];
  const { output, error } = await run(new TextDecoderStream(), chunks);
  assert.equal(error, undefined);
  assert.equal(output.join(''), 'hi!€é!');
  const source = new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array([0x82]));
      controller.enqueue(new Uint8Array([0xA0, 0x41]));
      controller.close();
    },
  });
  const piped = source.pipeThrough(new TextDecoderStream('sjis'));
  let text = '';
  for await (const chunk of piped) text += chunk;
  assert.equal(text, '\u3042A');
});

test('TextDecoderStream errors: fatal, at flush, and bad chunks', async () => {
  const fatal = await run(new TextDecoderStream('utf-8', { fatal: true }),
    [bytes(0x41), bytes(0xFF), bytes(0x42)]);
  assert.ok(fatal.error instanceof TypeError);
  assert.deepEqual(fatal.output, ['A']);
  const atFlush = await run(new TextDecoderStream('utf-8', { fatal: true }),
    [bytes(0x41, 0xE2)]);
  assert.ok(atFlush.error instanceof TypeError);
  assert.deepEqual(atFlush.output, ['A']);
  const replaced = await run(new TextDecoderStream('utf-8'),
    [bytes(0x41, 0xE2)]);
  assert.deepEqual(replaced.output, ['A', '\uFFFD']);
  for (const bad of ['abc', 42, null, {}, [0x41]]) {
    const result = await run(new TextDecoderStream(), [bad]);
    assert.ok(result.error instanceof TypeError, String(bad));
  }
});

test('TextDecoderStream: a resizable chunk is a TypeError', async (t) => {
  if (!needResizable(t)) return;
  const resizable = new ArrayBuffer(1, { maxByteLength: 2 });
  const result = await run(new TextDecoderStream(), [resizable]);
  assert.ok(result.error instanceof TypeError);
});

const encoderSamples = [
  'aé€😀\uD800z\uDC00\uD83D', '\uD83D\uDE00\uD83D\uDE01', 'plain ascii',
  '\uD800\uD800\uDC00', '日本語😀',
];

test('TextEncoderStream with chunks split at every code unit', async () => {
  for (const text of encoderSamples) {
    const expected = builtin.encode(text);
    const splits = [[...text.split('')]];
    for (let cut = 0; cut <= text.length; cut++) {
      splits.push([text.slice(0, cut), text.slice(cut)]);
    }
    for (const chunks of splits) {
      const { output, error } = await run(new TextEncoderStream(), chunks);
      assert.equal(error, undefined);
      assert.ok(output.every((c) => Object.getPrototypeOf(c) ===
        Uint8Array.prototype && c.length > 0));
      assert.deepEqual(Buffer.concat(output), Buffer.from(expected),
        `${JSON.stringify(chunks)}`);
    }
  }
});

test('TextEncoderStream: pending high surrogate, ToString, errors', async () => {
  const high = await run(new TextEncoderStream(), ['a\uD83D', '', 'b']);
  assert.deepEqual(Buffer.concat(high.output),
    Buffer.from([0x61, 0xEF, 0xBF, 0xBD, 0x62]));
  const flushed = await run(new TextEncoderStream(), ['\uD83D']);
  assert.deepEqual(flushed.output, [new Uint8Array([0xEF, 0xBF, 0xBD])]);
  const paired = await run(new TextEncoderStream(), ['\uD83D', '\uDE00']);
  assert.deepEqual(paired.output, [new Uint8Array([0xF0, 0x9F, 0x98,
    0x80])]);
  const converted = await run(new TextEncoderStream(),
    [42, null, { toString: () => 'é' }]);
  assert.deepEqual(Buffer.concat(converted.output),
    Buffer.from('42null\u00E9'));
  const symbol = await run(new TextEncoderStream(), [Symbol('s')]);
  assert.ok(symbol.error instanceof TypeError);
  const empty = await run(new TextEncoderStream(), ['', '']);
  assert.deepEqual(empty.output, []);
});

test('readable and writable are the Web streams Node provides', () => {
  for (const transform of [new TextDecoderStream(),
    new TextEncoderStream()]) {
    assert.ok(transform.readable instanceof ReadableStream);
    assert.ok(transform.writable instanceof WritableStream);
    assert.equal(transform.readable, transform.readable);
    assert.equal(transform.encoding, 'utf-8');
  }
});

'use strict';
// UTF-8 and UTF-16LE over the Wikipedia corpus: our TextDecoder and
// TextEncoder against Node's built-in ones, which implement the Standard
// for these two encodings.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { wenc, needCorpus, corpusFiles } = require('./helpers');

const BuiltinDecoder = globalThis.TextDecoder;
const builtinEncoder = new globalThis.TextEncoder();

// Deterministic damage: a few bytes replaced, one sequence cut short.
function damaged(input, seed) {
  const copy = Uint8Array.from(input);
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  for (let i = 0; i < 64 && copy.length; i++) {
    copy[next() % copy.length] = [0xFF, 0x80, 0xC0, 0xE2, 0xED, 0xF4,
      0xDC, 0xD8][next() % 8];
  }
  return copy;
}

function sameOutcome(decode, builtinDecode, what) {
  let ours;
  let theirs;
  let oursError;
  let theirsError;
  try { ours = decode(); } catch (error) { oursError = error; }
  try { theirs = builtinDecode(); } catch (error) { theirsError = error; }
  if (theirsError) {
    assert.ok(oursError instanceof TypeError,
      `${what}: Node threw ${theirsError.name}, we did not`);
    return;
  }
  assert.equal(oursError, undefined, `${what}: we threw, Node did not`);
  if (ours !== theirs) {
    let at = 0;
    while (ours[at] === theirs[at]) at++;
    assert.fail(`${what}: first difference at code unit ${at}: ` +
      `${JSON.stringify(ours.slice(at, at + 8))} != ` +
      `${JSON.stringify(theirs.slice(at, at + 8))}`);
  }
}

function compareDecoders(label, input, what) {
  for (const fatal of [false, true]) {
    for (const ignoreBOM of [false, true]) {
      const options = { fatal, ignoreBOM };
      sameOutcome(() => new wenc.TextDecoder(label, options).decode(input),
        () => new BuiltinDecoder(label, options).decode(input),
        `${what} ${label} fatal=${fatal} ignoreBOM=${ignoreBOM}`);
    }
  }
  // Streaming in uneven pieces gives the same string.
  const decoder = new wenc.TextDecoder(label);
  let streamed = '';
  for (let at = 0, step = 1; at < input.length; at += step, step = step * 7 %
    4099 + 1) {
    streamed += decoder.decode(input.subarray(at, at + step), { stream: true });
  }
  streamed += decoder.decode();
  assert.equal(streamed, new BuiltinDecoder(label).decode(input),
    `${what} ${label} streamed`);
}

test('UTF-8: the corpus, damaged copies, and ASCII-only text', (t) => {
  if (!needCorpus(t)) return;
  const files = corpusFiles();
  assert.ok(files.length >= 32, `only ${files.length} corpus files`);
  for (const file of files) {
    const name = path.basename(file);
    const input = new Uint8Array(fs.readFileSync(file));
    compareDecoders('utf-8', input, name);
    compareDecoders('utf-8', damaged(input, input.length), `${name} damaged`);
    compareDecoders('utf-8', input.subarray(0, input.length - 1),
      `${name} truncated`);
    const ascii = input.filter((byte) => byte < 0x80);
    compareDecoders('utf-8', ascii, `${name} ASCII only`);
    const text = new BuiltinDecoder().decode(input);
    assert.deepEqual(new wenc.TextEncoder().encode(text),
      builtinEncoder.encode(text), `${name} encode`);
  }
});

test('UTF-16LE and UTF-16BE: the corpus, damaged copies, odd lengths', (t) => {
  if (!needCorpus(t)) return;
  for (const file of corpusFiles()) {
    const name = path.basename(file);
    const text = fs.readFileSync(file, 'utf8');
    const input = new Uint8Array(Buffer.from(`\uFEFF${text}`, 'utf16le'));
    assert.equal(new wenc.TextDecoder('utf-16le').decode(input), text, name);
    compareDecoders('utf-16le', input, name);
    compareDecoders('utf-16le', damaged(input, input.length),
      `${name} damaged`);
    compareDecoders('utf-16le', input.subarray(0, input.length - 1),
      `${name} odd length`);
    const bigEndian = Buffer.from(input).swap16();
    assert.equal(new wenc.TextDecoder('utf-16be').decode(bigEndian), text,
      `${name} UTF-16BE`);
    const damagedLE = damaged(input, input.length);
    assert.equal(
      new wenc.TextDecoder('utf-16be').decode(Buffer.from(damagedLE).swap16()),
      new BuiltinDecoder('utf-16le').decode(damagedLE),
      `${name} UTF-16BE damaged`);
  }
});

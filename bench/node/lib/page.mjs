// The browser half of browser.js: runs in a headless Chromium page served by
// browser.js, which loads it with an import map for @exodus/bytes's browser
// files. It times wenc's WebAssembly build (bindings/node/wasm/browser.mjs),
// the browser's own TextDecoder/TextEncoder and @exodus/bytes on one row at
// a time; browser.js makes the inputs and prints the tables.

import * as single from '@exodus/bytes/single-byte.js';
import * as multi from '@exodus/bytes/multi-byte.js';
import * as utf8 from '@exodus/bytes/utf8.js';
import * as utf16 from '@exodus/bytes/utf16.js';
import { check, newLoop } from './shared.mjs';
import { exodusBytes, hostText, wencApi } from './adapters.mjs';

const sink = { value: 0 };
const now = () => performance.now();

// The implementations: { name, decoder(label), encoder(label) }, each
// returning a function of one argument or null.
function implementations(wenc) {
  return [
    { name: 'wenc wasm', ...wencApi(wenc) },
    { name: '@exodus/bytes', ...exodusBytes({ single, multi, utf8, utf16 }) },
    { name: 'Chromium TextDecoder/TextEncoder', ...hostText() },
  ];
}

// The row being timed: its implementations, inputs and loops.
let current = null;

// Fetches a row's inputs and checks each implementation's outputs against
// wenc's. row: { url (of the row's .json and .bin), label, direction }.
// Returns { results: { name: { status, message? } }, timed: [names],
// bytesPerPass, warning }.
async function prepare(wenc, row) {
  const { strings, lengths } = await (await fetch(`${row.url}.json`)).json();
  const all = new Uint8Array(await (await fetch(`${row.url}.bin`)).arrayBuffer());
  const bytes = [];
  for (let i = 0, at = 0; i < lengths.length; at += lengths[i++]) {
    bytes.push(all.subarray(at, at + lengths[i]));
  }
  const decode = row.direction === 'decode';
  const inputs = decode ? bytes : strings;
  const { checked, warning } = check(implementations(wenc).map((impl) =>
    ({ name: impl.name, fn: decode ? impl.decoder(row.label) : impl.encoder(row.label) })),
  inputs, decode ? strings : bytes);
  const timed = checked.filter((c) => c.status !== 'error');
  current = { inputs, timed, loops: timed.map(() => newLoop()) };
  const results = {};
  for (const c of checked) {
    results[c.name] = { status: c.status, message: c.error ? String(c.error) : undefined };
  }
  return { results, timed: timed.map((c) => c.name),
    bytesPerPass: lengths.reduce((a, b) => a + b, 0), warning };
}

// Runs the current row's implementation i for ms (by performance.now()); returns how
// many times it went over the inputs (browser.js reads the CPU time).
function round(i, ms) {
  return current.loops[i](current.timed[i].fn, current.inputs, ms, sink, now);
}

// Loads wenc's browser module (waiting for it where it exports a promise,
// a ready promise or an init()) and returns the page's API.
export async function start(wencUrl) {
  let wenc = await import(wencUrl);
  if (wenc.default && typeof wenc.default.then === 'function') wenc = await wenc.default;
  else if (wenc.default && typeof wenc.default.decode === 'function') wenc = wenc.default;
  if (wenc.ready && typeof wenc.ready.then === 'function') await wenc.ready;
  else if (typeof wenc.init === 'function') await wenc.init();
  return {
    userAgent: navigator.userAgent,
    prepare: (row) => prepare(wenc, row),
    round,
  };
}

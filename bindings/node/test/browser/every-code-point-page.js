'use strict';
// The page side of the every-code-point comparison (see run.js and
// every-code-point.js): digests with crypto.subtle, made in this page with
// wenc's browser module.
(function () {
  const WENC_MODULE = '/bindings/node/wasm/browser.mjs';
  const E = self.WencEveryCodePoint;
  // The fragment: { share, shares, corrupt }. This page does the keys of
  // the encodings whose index % shares is share (run.js opens a tab for
  // each share). run.js --corrupt=KEY@BYTE (a check of the comparison
  // itself): that key's output gets that byte flipped here.
  const job = location.hash.length > 1 ?
    JSON.parse(decodeURIComponent(location.hash.slice(1))) : {};
  let text = null;
  let input = { name: null, bytes: null }; // one encoding's at a time
  const wenc = import(WENC_MODULE);

  async function bytesOf(key) {
    const api = await wenc;
    if (text === null) text = E.scalarValuesString();
    const { name, direction } = E.parseKey(key);
    if (direction === 'decode' && input.name !== name) {
      input = { name, bytes: E.decodeInput(name) };
    }
    const bytes = E.output(api, key, text, input.bytes);
    if (job.corrupt && job.corrupt.key === key) {
      const copy = bytes.slice();
      copy[job.corrupt.at] ^= 1;
      return copy;
    }
    return bytes;
  }

  const hex = (buffer) => Array.from(new Uint8Array(buffer),
    (b) => b.toString(16).padStart(2, '0')).join('');

  async function digests() {
    const started = performance.now();
    const result = {};
    // Milliseconds spent on "<direction> <whole|chunks>", digests included.
    const ms = {};
    const shares = job.shares || 1;
    const mine = E.keys().filter((key) =>
      E.ENCODINGS.indexOf(E.parseKey(key).name) % shares === (job.share || 0));
    for (const key of mine) {
      const { direction, chunk } = E.parseKey(key);
      const what = `${direction} ${chunk ? 'chunks' : 'whole'}`;
      const keyStarted = performance.now();
      try {
        const bytes = await bytesOf(key);
        result[key] = hex(await crypto.subtle.digest('SHA-256', bytes));
      } catch (error) {
        result[key] = `threw ${error && error.stack || error}`;
      }
      ms[what] = (ms[what] || 0) + performance.now() - keyStarted;
    }
    return { digests: result, ms, total: performance.now() - started };
  }

  self.wencEveryCodePoint = digests();
  // Bytes from..to of a key's output, as base64, and its length (the
  // last key asked for is kept, for the next piece).
  let kept = { key: null, bytes: null };
  self.wencEveryOutput = async (key, from, to) => {
    if (kept.key !== key) kept = { key, bytes: await bytesOf(key) };
    const bytes = kept.bytes.subarray(from, to);
    let binary = '';
    for (let at = 0; at < bytes.length; at += 8192) {
      binary += String.fromCharCode.apply(null, bytes.subarray(at, at + 8192));
    }
    return { length: kept.bytes.length, base64: btoa(binary) };
  };
})();
